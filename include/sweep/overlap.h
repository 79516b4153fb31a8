/* sweep — overlap tests with penetration depth and separating direction
 * for shapes built on points and segments (point, segment, sphere,
 * capsule). Touching counts as overlapping, with depth 0. */
#ifndef SWEEP_OVERLAP_H
#define SWEEP_OVERLAP_H

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each returns overlapping = (distance <= 0) with, when overlapping:
 * depth = ra + rb - distance between the cores (the exact penetration
 * depth for these shapes), normal = the direction from B's core toward A's
 * core (when the cores meet: perpendicular to both, or any unit vector
 * where every direction is equally short), point = a point of A and B on
 * that line (A's deepest point when it lies in B).
 * Invalid input: status SW_INVALID_INPUT, everything else zero. */
SW_API sw_overlap_result sw_overlap_point_sphere(sw_vec3 a, const sw_sphere* b);
SW_API sw_overlap_result sw_overlap_sphere_sphere(const sw_sphere* a, const sw_sphere* b);
SW_API sw_overlap_result sw_overlap_segment_sphere(const sw_segment* a, const sw_sphere* b);
SW_API sw_overlap_result sw_overlap_capsule_capsule(const sw_capsule* a, const sw_capsule* b);

#ifdef __cplusplus
}
#endif

#endif
