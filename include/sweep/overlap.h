/* sweep — overlap tests with penetration depth and separating direction
 * between a round shape (point, segment, sphere, capsule) and any static
 * shape. Touching counts as overlapping, with depth 0. */
#ifndef SWEEP_OVERLAP_H
#define SWEEP_OVERLAP_H

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each returns overlapping = (distance <= 0) with, when overlapping:
 * depth = the exact penetration depth: ra + rb - distance between the
 * cores, or ra + rb + the cores' own penetration when they cross (found by
 * separating axes: B's face normals and the cross products of A's core
 * with B's edges); normal = the direction A must move, from B toward A
 * (when two segment cores cross: perpendicular to both; any unit vector
 * where every direction is equally short); point = a point of A and B
 * (A's deepest point when it lies in B). A plane's depth is measured from
 * its surface. Invalid input: status SW_INVALID_INPUT, everything else
 * zero. */
SW_API sw_overlap_result sw_overlap_point_sphere(sw_vec3 a, const sw_sphere* b);
SW_API sw_overlap_result sw_overlap_sphere_sphere(const sw_sphere* a, const sw_sphere* b);
SW_API sw_overlap_result sw_overlap_segment_sphere(const sw_segment* a, const sw_sphere* b);
SW_API sw_overlap_result sw_overlap_capsule_capsule(const sw_capsule* a, const sw_capsule* b);
SW_API sw_overlap_result sw_overlap_capsule_plane(const sw_capsule* a, const sw_plane* b);
SW_API sw_overlap_result sw_overlap_capsule_triangle(const sw_capsule* a, const sw_triangle* b);
SW_API sw_overlap_result sw_overlap_capsule_polygon(const sw_capsule* a, const sw_polygon* b);
SW_API sw_overlap_result sw_overlap_capsule_box(const sw_capsule* a, const sw_box* b);
/* The general form: a round shape against any valid static shape but a
 * mesh (SW_UNSUPPORTED: sw_overlap answers meshes). */
SW_API sw_overlap_result sw_overlap_capsule_shape(const sw_capsule* a, const sw_shape* b);

#ifdef __cplusplus
}
#endif

#endif
