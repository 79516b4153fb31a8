/* Long-double references for the shapes whose exact geometry is simple
 * (balls, capsules, boxes) and the checks of DESIGN.md §3 against them.
 * Each check is called on a result whose status is SW_OK and which passed
 * the geometry-free checks of fuzz.h.
 *
 * Tolerances. tol = SW_TOLERANCE * max(scale, FZ_SCALE_FLOOR), scale as in
 * DESIGN.md §3 (largest |coordinate|, radius, extent, skin, displacement
 * component; for a ray max * dir). The references are computed in long
 * double from the exact float/double inputs, so their own error is below
 * 2^-60 * scale, far under tol. Then:
 * - FZ_SLACK * tol bounds what §3 bounds by tol (time, point, depth,
 *   separating plane): the factor 2 absorbs the rounding of the outputs to
 *   sw_real and nothing else, so a failure at FZ_SLACK is a real bug;
 * - FZ_BAND * tol is the grazing band for hit/miss and overlap decisions:
 *   §3 demands an answer only when it survives perturbing every input by
 *   tol * scale, which moves a distance by up to about 8 tol * scale (two
 *   centres and a direction by sqrt(3) tol each, three radii by tol);
 * - a normal must be within 1e-3 rad of the exact one only where it is
 *   stable: the distance it is taken across is at least FZ_STABLE * tol.
 * FZ_SCALE_FLOOR keeps the checks clear of the underflow of squared lengths
 * (below sqrt(REAL_MIN) a length computed as sqrt(x^2 + y^2 + z^2) loses
 * all its digits); build with -DFZ_STRICT to check the purely relative
 * contract of §3 down to subnormal scales. */
#ifndef SWEEP_FUZZ_ORACLE_H
#define SWEEP_FUZZ_ORACLE_H

#include <stdbool.h>

#include "sweep/sweep.h"

#define FZ_SLACK 2.0L
#define FZ_BAND 8.0L
#define FZ_STABLE 1e4L
#define FZ_ANGLE 1e-3L

long double fz_scale_real(long double scale, sw_real v);
long double fz_scale_vec3(long double scale, sw_vec3 v);
long double fz_scale_shape(long double scale, const sw_shape* s);
long double fz_tol(long double scale);

/* A ball moving along a line against a static ball inflated by a skin:
 * the reference of every sphere sweep and ray cast. */
typedef struct fz_ball_cast {
    sw_vec3 c0;   /* the moving ball's centre at t = 0 */
    sw_vec3 v;    /* its velocity: centre(t) = c0 + t v */
    sw_real tmax; /* t in [0, tmax]: 1 for a sweep, max for a ray */
    sw_real ra;
    sw_vec3 cb;
    sw_real rb;
    sw_vec3 vb; /* B's own velocity (two moving spheres: points are reported in
                   world space at time t), else zero */
    sw_real skin;
    bool ignore_separating;
} fz_ball_cast;

void fz_check_ball_cast(const fz_ball_cast* c, const sw_hit* h);

/* Containment sweeps of a sphere inside a sphere or a (rotated) box. */
void fz_check_inside_sphere(const sw_sphere* a, sw_vec3 d, const sw_sphere* b, const sw_hit* h);
void fz_check_inside_box(const sw_sphere* a, sw_vec3 d, const sw_box* b, const sw_hit* h);

/* The point / segment / sphere / capsule family as capsules. */
bool fz_as_capsule(const sw_shape* s, sw_capsule* c);
void fz_check_overlap_capsules(const sw_capsule* a, const sw_capsule* b, const sw_overlap_result* r);
void fz_check_distance_capsules(const sw_capsule* a, const sw_capsule* b, const sw_distance_result* r);

/* Any static shape B (every sw_shape type) against a round moving shape
 * (point, segment, sphere, capsule: a core segment plus a radius). B's
 * distance function is exact in long double; minima over the core and over
 * time are convex searches. For a flat triangle or polygon (no interior)
 * only what its unsigned distance can show is checked, and a one-sided face
 * is not required to stop anything. */
void fz_check_round_sweep(const sw_capsule* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt,
                          const sw_hit* h);
void fz_check_raycast_shape(const sw_ray* ray, const sw_shape* b, const sw_hit* h);
void fz_check_overlap_round(const sw_capsule* a, const sw_shape* b, const sw_overlap_result* r);
void fz_check_distance_round(const sw_capsule* a, const sw_shape* b, const sw_distance_result* r);

/* The closest-point kernels: q (parameter u) the point of s closest to p;
 * ca, cb closest points of two segments at squared distance dist_sq. */
void fz_check_closest_point_segment(sw_vec3 p, const sw_segment* s, sw_vec3 q, sw_real u);
void fz_check_closest_points_segments(const sw_segment* a, const sw_segment* b, sw_vec3 ca, sw_vec3 cb,
                                      sw_real dist_sq);

#endif
