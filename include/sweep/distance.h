/* sweep — closest points and distance between shapes built on points and
 * segments (point, segment, sphere, capsule). The shapes are closed solids:
 * touching or overlapping shapes are at distance 0. */
#ifndef SWEEP_DISTANCE_H
#define SWEEP_DISTANCE_H

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Closest point of segment s to p; *u (optional) receives its parameter in
 * [0, 1] along a->b. A zero-length segment gives a with u = 0. */
SW_API sw_vec3 sw_closest_point_segment(sw_vec3 p, const sw_segment* s, sw_real* u);

/* Closest points *ca on a and *cb on b between two segments; returns the
 * squared distance. Parallel and zero-length segments are handled (any
 * closest pair is returned where it is not unique). Computed relative to
 * a.a so that far-off segments keep their precision. */
SW_API sw_real sw_closest_points_segments(const sw_segment* a, const sw_segment* b, sw_vec3* ca, sw_vec3* cb);

/* Distance and closest points between a round shape (point, segment,
 * sphere, capsule) and a static shape. The capsule forms are the general
 * ones: a point is a zero-radius capsule with a == b, a sphere one with
 * a == b, a segment one with radius 0. For a plane (a half-space) the
 * distance is 0 whenever A reaches below its surface. Invalid input:
 * status SW_INVALID_INPUT. */
SW_API sw_distance_result sw_distance_point_segment(sw_vec3 p, const sw_segment* s);
SW_API sw_distance_result sw_distance_segment_segment(const sw_segment* a, const sw_segment* b);
SW_API sw_distance_result sw_distance_sphere_sphere(const sw_sphere* a, const sw_sphere* b);
SW_API sw_distance_result sw_distance_segment_sphere(const sw_segment* a, const sw_sphere* b);
SW_API sw_distance_result sw_distance_capsule_capsule(const sw_capsule* a, const sw_capsule* b);
SW_API sw_distance_result sw_distance_capsule_plane(const sw_capsule* a, const sw_plane* b);
SW_API sw_distance_result sw_distance_capsule_triangle(const sw_capsule* a, const sw_triangle* b);
SW_API sw_distance_result sw_distance_capsule_polygon(const sw_capsule* a, const sw_polygon* b);
SW_API sw_distance_result sw_distance_capsule_box(const sw_capsule* a, const sw_box* b);
/* The general form: a round shape against any valid static shape but a
 * mesh (SW_UNSUPPORTED: sw_distance answers meshes). */
SW_API sw_distance_result sw_distance_capsule_shape(const sw_capsule* a, const sw_shape* b);

#ifdef __cplusplus
}
#endif

#endif
