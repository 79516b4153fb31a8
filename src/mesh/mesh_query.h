/* Queries against a placed mesh (query.c), for the dispatcher. A and the
 * instance are valid; A is not a mesh. Same contracts as sw_sweep,
 * sw_raycast, sw_overlap and sw_distance with the mesh as B. */
#ifndef SWEEP_MESH_QUERY_H
#define SWEEP_MESH_QUERY_H

#include "internal.h"

sw_hit sw_internal_mesh_sweep(const sw_shape* a, sw_vec3 d, const sw_mesh_instance* m, const sw_sweep_options* opt);
sw_hit sw_internal_mesh_raycast(const sw_ray* ray, const sw_mesh_instance* m);
sw_overlap_result sw_internal_mesh_overlap(const sw_shape* a, const sw_mesh_instance* m);
sw_distance_result sw_internal_mesh_distance(const sw_shape* a, const sw_mesh_instance* m);

#endif
