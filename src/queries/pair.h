/* Pair dispatch (pair.c): one shape against one other, neither a mesh.
 * The public entry points (dispatch/dispatch.c) route here, and so do the
 * mesh queries for each of their triangles. Same contracts as sw_sweep,
 * sw_raycast, sw_sweep_inside, sw_overlap and sw_distance. */
#ifndef SWEEP_QUERIES_PAIR_H
#define SWEEP_QUERIES_PAIR_H

#include "internal.h"

bool sw_internal_pair_sweep_supported(sw_shape_type a, sw_shape_type b);
bool sw_internal_pair_raycast_supported(sw_shape_type b);
bool sw_internal_pair_sweep_inside_supported(sw_shape_type a, sw_shape_type b);
bool sw_internal_pair_overlap_supported(sw_shape_type a, sw_shape_type b);

sw_hit sw_internal_pair_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt);
sw_hit sw_internal_pair_raycast(const sw_ray* ray, const sw_shape* b);
sw_hit sw_internal_pair_sweep_inside(const sw_shape* a, sw_vec3 d, const sw_shape* b);
sw_overlap_result sw_internal_pair_overlap(const sw_shape* a, const sw_shape* b);
sw_distance_result sw_internal_pair_distance(const sw_shape* a, const sw_shape* b);

#endif
