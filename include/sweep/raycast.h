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

#ifdef __cplusplus
}
#endif

#endif
