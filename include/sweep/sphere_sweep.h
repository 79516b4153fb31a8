/* sweep — sweeps of a moving sphere (or point: radius 0) against points and
 * spheres. Each is a ray cast of A's centre against B inflated by A's
 * radius and the skin (DESIGN.md §4). */
#ifndef SWEEP_SPHERE_SWEEP_H
#define SWEEP_SPHERE_SWEEP_H

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sphere a, translated by d for t in [0, 1], against the static sphere b.
 * - Contact at t > 0: point on both surfaces (with a skin: a's point
 *   nearest b), normal from b's centre toward a's centre.
 * - Start touching or overlapping (within skin): t = 0, overlapping,
 *   depth = ra + rb + skin - |ca - cb|, normal from cb toward ca (-d, or +z
 *   when d = 0, if the centres coincide).
 * - d = 0: only the initial state is tested.
 * - Grazing contacts (the path touches b tangentially) are hits.
 * opt may be NULL (defaults). Invalid input: status SW_INVALID_INPUT. */
SW_API sw_hit sw_sweep_sphere_sphere(const sw_sphere* a, sw_vec3 d, const sw_sphere* b, const sw_sweep_options* opt);

/* Sphere a swept by d against the point p: the sphere-sphere sweep with a
 * zero-radius b (normal from p toward a's centre). */
SW_API sw_hit sw_sweep_sphere_point(const sw_sphere* a, sw_vec3 d, sw_vec3 p, const sw_sweep_options* opt);

/* Two moving spheres: a moves by da and b by db over the same t in [0, 1].
 * Answered as a swept by da - db against a static b; point and normal are
 * reported in world space at time t (b at b.center + t*db). */
SW_API sw_hit sw_sweep_moving_spheres(const sw_sphere* a, sw_vec3 da, const sw_sphere* b, sw_vec3 db,
                                      const sw_sweep_options* opt);

#ifdef __cplusplus
}
#endif

#endif
