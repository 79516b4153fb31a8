/* Sweeps, overlap and distance of polytope pairs (private; dispatch.c is
 * the caller and has checked the inputs). */
#ifndef SWEEP_QUERIES_POLYTOPE_SWEEP_H
#define SWEEP_QUERIES_POLYTOPE_SWEEP_H

#include "shapes/polytope.h"

/* Row-major rotation matrix, in double, of the unit quaternion (x, y, z, w)
 * (both separating-axis files place shapes with it). */
static inline void sw_internal_quat_matrix(double x, double y, double z, double w, double* r)
{
    r[0] = 1 - 2 * (y * y + z * z);
    r[1] = 2 * (x * y - w * z);
    r[2] = 2 * (x * z + w * y);
    r[3] = 2 * (x * y + w * z);
    r[4] = 1 - 2 * (x * x + z * z);
    r[5] = 2 * (y * z - w * x);
    r[6] = 2 * (x * z - w * y);
    r[7] = 2 * (y * z + w * x);
    r[8] = 1 - 2 * (x * x + y * y);
}

/* Sweep of the solid polytope a (box or hull) by d against the polytope b
 * (box, hull, triangle or polygon), skin 0: the separating-axis method over
 * time. Inputs valid. */
sw_hit sw_internal_sweep_polytopes(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt);

/* The same by the full method alone (every face and edge-pair axis), which
 * the sweep above falls back to when its local walk over the Minkowski
 * difference is not certain: for the unit test that cross-checks the two. */
sw_hit sw_internal_sweep_polytopes_full(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt);

/* The same for two boxes by the classic oriented-box test (box_sweep.c):
 * true with the answer in *out, or false where it is not sure (thin boxes,
 * a start touching or overlapping, a graze), leaving the answer to the
 * general method. */
bool sw_internal_sweep_boxes(const sw_box* a, sw_vec3 d, const sw_box* b, sw_hit* out);

/* The same for a box against a triangle or polygon b (box_sweep.c); also
 * false for a sliver b. */
bool sw_internal_sweep_box_flat(const sw_box* a, sw_vec3 d, const sw_shape* b, sw_hit* out);

/* Overlap of two polytopes by the separating axes (exact depth). */
sw_overlap_result sw_internal_overlap_polytopes(const sw_shape* a, const sw_shape* b);

/* The separating axis of two polytopes along which their extents overlap
 * least, as a unit *normal from B toward A: returns that overlap
 * (negative when the axis separates them, by its magnitude). */
double sw_internal_polytope_axis(const sw_shape* a, const sw_shape* b, sw_vec3* normal);

/* Distance of two polytopes (at least one a box or hull, or two flat
 * shapes with area): the least distance of an edge of either to the other
 * when they have at most 64 edges in all (but box-box); else GJK, with the
 * witness points made exact by the separating axes where GJK's leave
 * their shapes. */
sw_distance_result sw_internal_distance_polytopes(const sw_shape* a, const sw_shape* b);
/* The same for magnitudes beyond the separating-axis code's range (its
 * squares would overflow): edge by edge through the round family, which
 * scales each pair, where the pair has few edges; else GJK. */
sw_distance_result sw_internal_distance_polytopes_far(const sw_shape* a, const sw_shape* b);

/* *out = a (a box or hull) moved by off: true when that is a valid shape,
 * false for the other types or a move out of range. */
bool sw_internal_moved_solid(const sw_shape* a, sw_vec3 off, sw_shape* out);

/* A polytope against a half-space, by its support point: sweep (with
 * skin), overlap and signed distance. */
sw_hit sw_internal_sweep_polytope_plane(const sw_shape* a, sw_vec3 d, const sw_plane* b, const sw_sweep_options* opt);
sw_overlap_result sw_internal_overlap_polytope_plane(const sw_shape* a, const sw_plane* b);
sw_distance_result sw_internal_distance_polytope_plane(const sw_shape* a, const sw_plane* b);

#endif
