/* sweep — queries over the tagged union sw_shape: each picks the method
 * for the pair of shape types from a table. A pair without a method gives
 * status SW_UNSUPPORTED (see sw_*_supported and README's table). */
#ifndef SWEEP_DISPATCH_H
#define SWEEP_DISPATCH_H

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Shape a translated by d for t in [0, 1] against the static shape b, with
 * the conventions of sw_hit. opt may be NULL. */
SW_API sw_hit sw_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt);

/* Ray cast against b (see sw_ray). */
SW_API sw_hit sw_raycast(const sw_ray* ray, const sw_shape* b);

/* Containment sweep: a moving by d inside the container b (sphere or box). */
SW_API sw_hit sw_sweep_inside(const sw_shape* a, sw_vec3 d, const sw_shape* b);

/* Overlap with penetration depth, and distance with closest points. */
SW_API sw_overlap_result sw_overlap(const sw_shape* a, const sw_shape* b);
SW_API sw_distance_result sw_distance(const sw_shape* a, const sw_shape* b);

/* Whether the dispatcher has a method for the pair of shape types. */
SW_API bool sw_sweep_supported(sw_shape_type a, sw_shape_type b);
SW_API bool sw_raycast_supported(sw_shape_type b);
SW_API bool sw_sweep_inside_supported(sw_shape_type a, sw_shape_type b);
SW_API bool sw_overlap_supported(sw_shape_type a, sw_shape_type b);
SW_API bool sw_distance_supported(sw_shape_type a, sw_shape_type b);

#ifdef __cplusplus
}
#endif

#endif
