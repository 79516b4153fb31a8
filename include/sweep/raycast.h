/* sweep — ray casts (point sweeps) against shapes. */
#ifndef SWEEP_RAYCAST_H
#define SWEEP_RAYCAST_H

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ray origin + t*dir, t in [0, max], against the solid ball b.
 * - t is in units of dir (any non-zero length; need not be unit).
 * - A ray that only touches the sphere (tangent) hits it.
 * - Origin inside or on the sphere: hit at t = 0, overlapping, depth =
 *   radius - |origin - centre|, normal from the centre toward the origin
 *   (any unit vector when they coincide), point = origin.
 * - A sphere behind the origin, or beyond max, is a miss.
 * - dir = 0 or max = 0: only the origin is tested.
 * - radius 0: the sphere is a point (hit only when the ray passes through it).
 * Normal on a hit from outside: from the centre toward the contact point.
 * Invalid ray or sphere: status SW_INVALID_INPUT. */
SW_API sw_hit sw_raycast_sphere(const sw_ray* ray, const sw_sphere* b);

/* Ray casts against the other static shapes, with the same conventions: a
 * hit on B's surface (touching counts), the normal of the surface hit (for
 * a capsule, from its axis toward the contact; for a face, the face normal
 * on the side the ray came from), feature = the feature of B of lowest
 * dimension containing the hit point; an origin inside (or on) B gives
 * t = 0, overlapping, depth = distance to B's surface. One-sided triangles
 * and polygons are hit only from the front and never when the origin lies
 * on them. */
SW_API sw_hit sw_raycast_capsule(const sw_ray* ray, const sw_capsule* b);
SW_API sw_hit sw_raycast_plane(const sw_ray* ray, const sw_plane* b);
SW_API sw_hit sw_raycast_triangle(const sw_ray* ray, const sw_triangle* b);
SW_API sw_hit sw_raycast_polygon(const sw_ray* ray, const sw_polygon* b);
SW_API sw_hit sw_raycast_box(const sw_ray* ray, const sw_box* b);
/* The general form: a ray against any valid static shape but a mesh
 * (SW_UNSUPPORTED: sw_raycast answers meshes). */
SW_API sw_hit sw_raycast_shape(const sw_ray* ray, const sw_shape* b);

#ifdef __cplusplus
}
#endif

#endif
