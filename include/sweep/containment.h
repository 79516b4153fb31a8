/* sweep — containment sweeps: a sphere (or point: radius 0) moving inside
 * a containing sphere or box, until it first touches the container's
 * boundary from inside. */
#ifndef SWEEP_CONTAINMENT_H
#define SWEEP_CONTAINMENT_H

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sphere a moving by d inside the container sphere b.
 * - a strictly inside b (|ca - cb| + ra < rb): t = first time a touches b's
 *   boundary (a miss if it stays strictly inside for t in [0, 1]), point on
 *   the boundary, normal pointing back into b (from the contact point
 *   toward b's centre), feature none.
 * - a not strictly inside (touching from inside, crossing the boundary,
 *   outside, or too big to fit): hit at t = 0, overlapping; depth, normal
 *   and point are unspecified (normal is still a unit vector).
 * - d = 0 and strictly inside: a miss.
 * Invalid input: status SW_INVALID_INPUT. */
SW_API sw_hit sw_sweep_sphere_inside_sphere(const sw_sphere* a, sw_vec3 d, const sw_sphere* b);

/* Sphere a moving by d inside the (possibly rotated) box b; the same rules
 * as sw_sweep_sphere_inside_sphere, with the normal the inward normal of
 * the face hit and feature = that face (box numbering in shapes.h). When
 * two or three faces are reached at the same t, the lowest-numbered one is
 * reported. */
SW_API sw_hit sw_sweep_sphere_inside_box(const sw_sphere* a, sw_vec3 d, const sw_box* b);

#ifdef __cplusplus
}
#endif

#endif
