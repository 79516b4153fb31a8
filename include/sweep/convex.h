/* sweep — the general convex methods: GJK distance with closest points, a
 * GJK ray cast / conservative-advancement shape cast (van den Bergen,
 * "Ray casting against general convex objects with application to
 * continuous collision detection", 2004) and EPA penetration depth.
 *
 * They answer any pair of bounded convex shapes — point, segment, sphere,
 * capsule, box, triangle, polygon, hull, in either role — without a
 * specialised routine, with the conventions and the accuracy contract of
 * every other query (docs/conventions.md). The specialised routines
 * (sw_sweep, sw_distance, ...) are faster where they exist; these are the
 * fallback for the other pairs and the cross-check of the specialised ones.
 *
 * Every shape is seen as a polytope core plus a radius (a sphere is a point
 * and its radius, a capsule a segment and its radius), so the iteration
 * works on polytopes, terminates on an exact feature pair, and round
 * shapes come out exact.
 *
 * - Meshes (not convex) give status SW_UNSUPPORTED.
 * - Planes (unbounded) give status SW_UNSUPPORTED; a plane as the moving
 *   shape of a sweep is invalid input, as in sw_sweep.
 * - One-sided triangles and polygons (as B) follow the one-sided rule of
 *   DESIGN §2 in the sweeps and ray casts; the distance and overlap
 *   queries treat them as the solids they are (as sw_overlap does). The
 *   moving shape's one_sided flag is ignored.
 * - feature: named from B's contact point, as the specialised routines do
 *   (the lowest-dimensional feature within half the tolerance); for a
 *   hull, its vertex, edge or face numbering (sweep/hull.h). A hull whose
 *   edge and face tables are empty reports vertices only, else kind none. */
#ifndef SWEEP_CONVEX_H
#define SWEEP_CONVEX_H

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Distance between a and b with a closest point on each (as sw_distance). */
SW_API sw_distance_result sw_gjk_distance(const sw_shape* a, const sw_shape* b);

/* a translated by d for t in [0, 1] against the static b, with the whole
 * sw_hit contract: skin, ignore_separating, initial overlap with EPA depth
 * and normal. opt may be NULL. */
SW_API sw_hit sw_gjk_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt);

/* Overlap with penetration depth (GJK, then EPA when the cores cross). */
SW_API sw_overlap_result sw_gjk_overlap(const sw_shape* a, const sw_shape* b);

/* Ray cast against b (a point sweep, as sw_raycast). */
SW_API sw_hit sw_gjk_raycast(const sw_ray* ray, const sw_shape* b);

#ifdef __cplusplus
}
#endif

#endif
