/* sweep — sweeps of the round shapes (sphere, capsule, segment, point)
 * against every static shape. Each moving shape is a core segment (a
 * point for a sphere) inflated by a radius, and is answered exactly by
 * splitting the contact into feature pairs (DESIGN.md §4): A's end points
 * against B's faces, edges (cylinders) and vertices (balls), B's vertices
 * against A's side, and B's edges against A's edge.
 *
 * Every function follows sw_hit's conventions: t in [0, 1], normal from B
 * toward A, point on both shapes (with a skin: A's point nearest B),
 * feature = the feature of B of lowest dimension containing the contact,
 * numbered as documented in shapes.h. A start in contact (within skin)
 * gives t = 0, overlapping, with the penetration depth and direction (for
 * shapes whose cores cross, from separating axes). One-sided triangles and
 * polygons stop A only from the front and are ignored when A starts
 * overlapping them. opt may be NULL. Invalid input: status
 * SW_INVALID_INPUT. A zero-length capsule is a sphere; a zero-length
 * segment is a point. */
#ifndef SWEEP_CAPSULE_SWEEP_H
#define SWEEP_CAPSULE_SWEEP_H

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

SW_API sw_hit sw_sweep_sphere_segment(const sw_sphere* a, sw_vec3 d, const sw_segment* b, const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_sphere_capsule(const sw_sphere* a, sw_vec3 d, const sw_capsule* b, const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_sphere_plane(const sw_sphere* a, sw_vec3 d, const sw_plane* b, const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_sphere_triangle(const sw_sphere* a, sw_vec3 d, const sw_triangle* b,
                                       const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_sphere_polygon(const sw_sphere* a, sw_vec3 d, const sw_polygon* b, const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_sphere_box(const sw_sphere* a, sw_vec3 d, const sw_box* b, const sw_sweep_options* opt);

SW_API sw_hit sw_sweep_capsule_point(const sw_capsule* a, sw_vec3 d, sw_vec3 b, const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_capsule_segment(const sw_capsule* a, sw_vec3 d, const sw_segment* b,
                                       const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_capsule_sphere(const sw_capsule* a, sw_vec3 d, const sw_sphere* b, const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_capsule_capsule(const sw_capsule* a, sw_vec3 d, const sw_capsule* b,
                                       const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_capsule_plane(const sw_capsule* a, sw_vec3 d, const sw_plane* b, const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_capsule_triangle(const sw_capsule* a, sw_vec3 d, const sw_triangle* b,
                                        const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_capsule_polygon(const sw_capsule* a, sw_vec3 d, const sw_polygon* b,
                                       const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_capsule_box(const sw_capsule* a, sw_vec3 d, const sw_box* b, const sw_sweep_options* opt);

SW_API sw_hit sw_sweep_segment_segment(const sw_segment* a, sw_vec3 d, const sw_segment* b,
                                       const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_segment_triangle(const sw_segment* a, sw_vec3 d, const sw_triangle* b,
                                        const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_segment_polygon(const sw_segment* a, sw_vec3 d, const sw_polygon* b,
                                       const sw_sweep_options* opt);
SW_API sw_hit sw_sweep_segment_box(const sw_segment* a, sw_vec3 d, const sw_box* b, const sw_sweep_options* opt);

/* The general form behind all of the above: the capsule a (any of the
 * round shapes) swept by d against any valid static shape b but a mesh
 * (SW_UNSUPPORTED: sw_sweep answers meshes). */
SW_API sw_hit sw_sweep_capsule_shape(const sw_capsule* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt);

#ifdef __cplusplus
}
#endif

#endif
