/* Fast paths of the round-shape sweeps (private).
 *
 * The general driver (capsule_sweep.c, core.c) answers every pair; these
 * paths answer the common case of the hot pairs in closed form and give up
 * (return false) whenever they are not sure: a start in or near contact,
 * a shallow (grazing) contact, a degenerate shape, a contact no feature
 * can certify. The caller then asks the general driver.
 *
 * A candidate contact is certified when its normal keeps A(t) and B apart
 * (the normal lies in its feature's normal cone): it is then a point of the
 * boundary of B inflated by the reach, reached moving inward, and a straight
 * path enters a convex set only once, so it is the first contact.
 *
 * Everything is computed in double, relative to a point of B: in the float
 * build double is the kernels' wide type (products of floats are exact);
 * in the double build it matches the precision of the general driver's
 * non-kernel code, and the paths give up on grazing contacts and on inputs
 * whose products could leave double's range, where the general driver's
 * long double kernels are needed. */
#ifndef SWEEP_QUERIES_FAST_H
#define SWEEP_QUERIES_FAST_H

#include <math.h>
#include <stdint.h>

#include "internal.h"
#include "shapes/polygon_frame.h"

/* The index of the lowest set bit of a nonzero word (the candidate sets
 * of the fast paths are bit masks). */
static inline int sw_fast_lowest_bit(uint64_t m)
{
#if defined(__GNUC__)
    return __builtin_ctzll(m);
#else
    int k = 0;
    for (; (m & 1) == 0; m >>= 1) {
        ++k;
    }
    return k;
#endif
}

/* Whether two sets whose projections on an axis n (|n|^2 = nn) are apart
 * by gap (the distance between the intervals, times |n|) are farther than
 * slab apart: then no two of their points come within slab. Any n will
 * do, so its rounding costs nothing; the projections' rounding (a few
 * DBL_EPSILON size |n|) is well inside the margin in slab. Below
 * DBL_MIN / DBL_EPSILON, nn could have underflowed while the gap had not. */
static inline bool sw_fast_apart_along(double gap, double nn, double slab)
{
    return gap > 0 && nn > DBL_MIN / DBL_EPSILON && gap * gap > slab * slab * nn;
}

/* Outcome of one candidate feature pair. */
typedef enum sw_fast_status { SW_FAST_MISS, SW_FAST_HIT, SW_FAST_UNSURE } sw_fast_status;

/* Below this |n . d| / |d| at a curved contact the root is ill-conditioned:
 * the general driver (wide kernels, the contract's shallow-approach rule)
 * answers. */
#define SW_FAST_SHALLOW 0.05

/* A curved contact's normal is the offset from the feature divided by the
 * reach, so its error is about 4 DBL_EPSILON size / reach; it must tilt B
 * past the contact plane by less than 10% of the tolerance: below this
 * reach / size (1e-6 in float builds, 0.0089 in double builds) the driver
 * answers. (A 1% budget, 0.089 in double builds, sent a fifth of the
 * bench's double capsule-triangle queries to the driver, and the
 * differential engine finds the same errors with either.) A face normal's
 * error relative to the polygon's extent is bounded the same way by
 * requiring twice the area to exceed this times the squared extent. */
#define SW_FAST_MIN_REACH (40 * DBL_EPSILON / SW_TOLERANCE > 1e-6 ? 40 * DBL_EPSILON / SW_TOLERANCE : 1e-6)

/* Relative slack of the normal-cone tests: a contact on the seam of two
 * features must not be refused by both. A certified contact lets B (or A)
 * stick out past the contact plane by this times an edge's length, so it
 * must stay well below SW_TOLERANCE: 1e-9 in float builds (the normal's
 * error there is below 4 DBL_EPSILON / SW_FAST_MIN_REACH = 9e-10), and in
 * double builds twice that error bound, SW_TOLERANCE / 50 (a fixed 1e-9 let
 * a capsule 16 long reach 4.9e-9 past the plane, 90 tolerances, and a
 * segment 1.7e11 long landing "level" on a box face have its far end 3
 * below it, against a tolerance of 0.17). A seam
 * contact refused by both features is left to the driver. */
#define SW_FAST_CONE_SLACK (SW_TOLERANCE / 50 < 1e-9 ? SW_TOLERANCE / 50 : 1e-9)

/* The query as the fast paths see it: A's core a0-a1 and the motion d in a
 * frame at B's origin (world = origin + local), the reach, and the sizes
 * that set the tolerances. */
typedef struct sw_fast_query {
    sw_dvec a0, a1, d;
    sw_vec3 origin;
    double ra, reach;
    double size;   /* largest magnitude of the query (local, B's extent
                    * included by sw_fast_set_size), for tolerances */
    double margin; /* a start closer than reach + margin is left to the driver */
    double ftol;   /* feature tolerance, as sw_core_feature_tol */
} sw_fast_query;

/* Takes B's extent into the size and sets the tolerances from it; false
 * when products of up to eight lengths could leave double's range. */
static inline bool sw_fast_set_size(sw_fast_query* q, double extent)
{
    q->size = sw_dmax(q->size, extent);
    q->margin = 64 * SW_EPSILON * q->size;
    q->ftol = SW_TOLERANCE / 2 * q->size;
    return q->size >= 1e-30 && q->size <= 1e30;
}

/* A's core "landing flat": its ends' heights over a face level within
 * this (len = the core's length), and then a1 is reported, as the driver
 * does. The cone slack, or the rounding of the heights in the query's
 * frame (double), whichever is larger: not the cone slack alone, which in
 * double builds is below that rounding, so that a level core's reported
 * end followed it; nor 1e-9 in double builds, under which ends 6.5e-9
 * apart were level and the higher one's later contact was reported
 * (finding 34). */
static inline double sw_fast_level_slack(const sw_fast_query* q, double len)
{
    return sw_dmax(SW_FAST_CONE_SLACK * len, 64 * DBL_EPSILON * q->size);
}

/* A certified first contact: time, unit normal (B toward A), A's core
 * point touching, B's feature. */
typedef struct sw_fast_contact {
    double t;
    sw_dvec n, pa;
    sw_feature feature;
} sw_fast_contact;

/* Entering contact of the point f moving by d with the ball of radius r at
 * the origin, for f outside it: |f + t d| = r as in sw_internal_cast_ball,
 * the discriminant by Lagrange's identity, the entering root as c / q.
 * (Inline, like the next kernel: passing vectors by value through a call
 * costs more than the arithmetic.) */
static inline sw_fast_status sw_fast_ball(sw_dvec f, sw_dvec d, double r, double* t, sw_dvec* n)
{
    const double b = sw_ddot(f, d);
    if (!(b < 0)) {
        return SW_FAST_MISS;
    }
    const double a = sw_ddot(d, d), rr = r * r;
    const sw_dvec fxd = sw_dcross(f, d);
    const double disc = a * rr - sw_ddot(fxd, fxd);
    if (!(disc >= 0)) {
        return SW_FAST_MISS;
    }
    const double c = sw_ddot(f, f) - rr;
    const double q = sqrt(disc) - b;
    if (!(c <= q)) {
        return SW_FAST_MISS;
    }
    /* |n . d| = sqrt(disc) / r at the contact. */
    if (!(c > 0) || disc < SW_FAST_SHALLOW * SW_FAST_SHALLOW * a * rr) {
        return SW_FAST_UNSURE;
    }
    *t = c / q;
    const sw_dvec at = sw_dmadd(f, *t, d);
    *n = sw_dscale(at, 1 / sqrt(sw_ddot(at, at)));
    return SW_FAST_HIT;
}

/* The entering root t in [0, 1] of |e x m + t e x d|^2 = |e|^2 r^2 (a
 * point m from the axis, outside the infinite cylinder of radius r around
 * e, moving toward it by d), from its coefficients C = |e x m|^2 - ee rr
 * > 0, B = (e x m) . (e x d) < 0, A = |e x d|^2 and triple = (e x m) . d,
 * with ee = |e|^2 and rr = r^2: the reduced discriminant by Lagrange,
 * *disc = A rr - triple^2, and the root as C / q. False when the point
 * passes the cylinder by or enters it after t = 1. (The callers test C
 * and B first, before they form A and triple.) */
static inline bool sw_fast_cylinder_entry(double A, double B, double C, double triple, double ee, double rr, double* t,
                                          double* disc)
{
    *disc = A * rr - triple * triple;
    if (!(*disc >= 0)) {
        return false;
    }
    const double qq = sqrt(ee * *disc) - B;
    if (!(C <= qq)) {
        return false;
    }
    *t = C / qq;
    return true;
}

/* Whether a cylinder's contact with discriminant disc (as above, dd =
 * |d|^2) is shallow: |n . d| = sqrt(disc / ee) / r at the contact. */
static inline bool sw_fast_cylinder_shallow(double disc, double ee, double rr, double dd)
{
    return disc < SW_FAST_SHALLOW * SW_FAST_SHALLOW * ee * rr * dd;
}

/* Entering contact of the point f moving by d with the lateral surface of
 * the cylinder of radius r around the segment p, p + e, for f outside it:
 * as sw_cast_point_cylinder, with every coefficient a cross product. */
static inline sw_fast_status sw_fast_cylinder(sw_dvec f, sw_dvec d, sw_dvec p, sw_dvec e, double r, double* t,
                                              sw_dvec* n)
{
    const double ee = sw_ddot(e, e);
    const sw_dvec m = sw_dsub(f, p), exm = sw_dcross(e, m), exd = sw_dcross(e, d);
    const double rr = r * r;
    const double C = sw_ddot(exm, exm) - ee * rr;
    const double B = sw_ddot(exm, exd);
    /* Inside the infinite cylinder, A enters through a cap (a ball's
     * contact); moving away from the axis, never. */
    if (!(C > 0) || !(B < 0)) {
        return SW_FAST_MISS;
    }
    double tt, disc;
    if (!sw_fast_cylinder_entry(sw_ddot(exd, exd), B, C, sw_ddot(exm, d), ee, rr, &tt, &disc)) {
        return SW_FAST_MISS;
    }
    const sw_dvec at = sw_dmadd(m, tt, d);
    const double u = sw_ddot(at, e);
    if (u < 0 || u > ee) {
        return SW_FAST_MISS;
    }
    if (sw_fast_cylinder_shallow(disc, ee, rr, sw_ddot(d, d))) {
        return SW_FAST_UNSURE;
    }
    const sw_dvec off = sw_dmadd(at, -u / ee, e);
    *t = tt;
    *n = sw_dscale(off, 1 / sqrt(sw_ddot(off, off)));
    return SW_FAST_HIT;
}

/* The query of a point core a0 (radius ra, world) moving by d against a
 * flat or solid B whose local frame is at origin; B's extent is added by
 * sw_fast_set_size. */
static inline void sw_fast_point_query(sw_fast_query* q, sw_vec3 a0, sw_real ra, sw_vec3 d, sw_vec3 origin, double skin)
{
    q->d = sw_dv(d);
    q->ra = ra;
    q->origin = origin;
    q->a0 = q->a1 = sw_dv_local(a0, origin);
    q->reach = (double)ra + skin;
    q->size = sw_dmax(sw_dmax(sw_dmax_abs(q->d), q->reach), sw_dmax(sw_dmax_abs(sw_dv(origin)), sw_dmax_abs(q->a0)));
}

/* The same for a segment core a0-a1. */
static inline void sw_fast_segment_query(sw_fast_query* q, sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d,
                                         sw_vec3 origin, double skin)
{
    sw_fast_point_query(q, a0, ra, d, origin, skin);
    q->a1 = sw_dv_local(a1, origin);
    q->size = sw_dmax(q->size, sw_dmax_abs(q->a1));
}

/* The sweep's answer from a fast path's: false when unsure (the driver
 * answers), else true with *out the hit or the miss. */
static inline bool sw_fast_answer(const sw_fast_query* q, sw_fast_status st, const sw_fast_contact* c, sw_hit* out)
{
    if (st == SW_FAST_UNSURE) {
        return false;
    }
    if (st != SW_FAST_HIT) {
        *out = (sw_hit){0};
        return true;
    }
    /* A's point nearest B: its core point pulled back by its radius. */
    const sw_dvec p = sw_dmadd(c->pa, -q->ra, c->n);
    *out = (sw_hit){.hit = true,
                    .t = (sw_real)c->t,
                    .normal = sw_v3((sw_real)c->n.x, (sw_real)c->n.y, (sw_real)c->n.z),
                    .point =
                        sw_v3((sw_real)(q->origin.x + p.x), (sw_real)(q->origin.y + p.y), (sw_real)(q->origin.z + p.z)),
                    .feature = c->feature};
    return true;
}

/* A point core a0 (radius ra) moving by d against a triangle or a convex
 * polygon (with its frame f from validation), set up and answered whole,
 * as sw_fast_sweep. */
bool sw_fast_sweep_triangle(sw_vec3 a0, sw_real ra, sw_vec3 d, const sw_triangle* t, double skin, sw_hit* out);
bool sw_fast_sweep_polygon(sw_vec3 a0, sw_real ra, sw_vec3 d, const sw_polygon* p, const sw_polygon_frame* f,
                           double skin, sw_hit* out);

/* A segment core against the segment b0-b1 (local, both features of a
 * larger B: its ends are vertices, its side an edge), as fast_segments in
 * fast_sweep.c: the pair's first contact, certified for the pair alone. */
sw_fast_status sw_fast_segment_pair(const sw_fast_query* q, sw_dvec b0, sw_dvec b1, sw_fast_contact* c);
/* The same for a segment core that starts clear of the segment's inflation
 * by more than q's margin (a box's edges, for a core clear of the whole
 * box): without the start's test and the culls (bounding balls, the
 * planes of the paths), which box_edges' bounds make mostly redundant
 * (capsule-box: 1,564 -> 1,488 instructions a query). */
sw_fast_status sw_fast_segment_edge(const sw_fast_query* q, sw_dvec b0, sw_dvec b1, sw_fast_contact* c);
/* The same for a segment core that starts clear of the segment's inflation
 * by more than q's margin, where the caller has made the cull by the
 * plane of A's path (normal (a1 - a0) x d): without the start's test and
 * that cull, with the others (a polygon's edges, after the polygon's
 * cull by that plane: capsule-triangle 1,848 -> 1,713 instructions a
 * query, segment-triangle 1,440 -> 1,237). */
sw_fast_status sw_fast_segment_side(const sw_fast_query* q, sw_dvec b0, sw_dvec b1, sw_fast_contact* c);
/* A segment core a0-a1 (radius ra) against a triangle or convex polygon, as
 * sw_fast_sweep_triangle. */
bool sw_fast_sweep_segment_triangle(sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d, const sw_triangle* t, double skin,
                                    sw_hit* out);
bool sw_fast_sweep_segment_polygon(sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d, const sw_polygon* p,
                                   const sw_polygon_frame* f, double skin, sw_hit* out);

/* Point against a box (the query's origin is the box's centre). */
sw_fast_status sw_fast_point_box(sw_fast_query* q, const sw_box* b, sw_fast_contact* c);

/* A segment core against a box (the query's origin is the box's centre). */
sw_fast_status sw_fast_segment_box(sw_fast_query* q, const sw_box* b, sw_fast_contact* c);

/* A point or segment core (a_point: a0 = a1) against a round B (point,
 * sphere, segment, capsule), a half-space, or a box: the per-shape paths
 * of sw_fast_sweep_shape, as it. */
bool sw_fast_sweep_round(sw_vec3 a0, sw_vec3 a1, bool a_point, sw_real ra, sw_vec3 d, const sw_shape* b, double skin,
                         sw_hit* out);
/* A ball of radius ra at a0 moving by d against the ball of radius
 * reach - ra at b (reach: both radii and the skin): the wide kernel's
 * cast (sw_internal_cast_ball) in double with the fast paths' guards. The
 * double build's sphere sweeps and ray casts take it first, as every other
 * pair takes its fast path: there the kernel runs in long double, and
 * double answers a clear start and a steep contact within the contract.
 * (In float builds the kernel is double already.) */
bool sw_fast_sweep_ball(sw_vec3 a0, sw_real ra, sw_vec3 d, sw_vec3 b, double reach, sw_hit* out);
bool sw_fast_sweep_plane(sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d, const sw_plane* b, const sw_sweep_options* opt,
                         sw_hit* out);
bool sw_fast_sweep_box(sw_vec3 a0, sw_vec3 a1, bool a_point, sw_real ra, sw_vec3 d, const sw_box* b, double skin,
                       sw_hit* out);

/* The sweep of the round shape a0-a1 (radius ra, world) by d against B,
 * through a fast path: true with *out filled when answered, false when the
 * general driver must answer. a_point: a0 = a1 (sw_internal_same_point),
 * which the dispatcher knows from a sphere's or point's type without the
 * comparisons (sphere-triangle: 22 instructions a query). A polygon B
 * needs its frame from validation (sw_internal_polygon_check); other
 * shapes take NULL. Inline, so that the
 * query's vectors go once from the caller to the path of B's kind (each
 * out of line: inlined, the round pairs' spills ran on every query), not
 * through one more call. */
static inline bool sw_fast_sweep_shape(sw_vec3 a0, sw_vec3 a1, bool a_point, sw_real ra, sw_vec3 d, const sw_shape* b,
                                       const sw_polygon_frame* frame, const sw_sweep_options* opt, sw_hit* out)
{
    const double skin = sw_internal_skin(opt);
    switch (b->type) {
    case SW_SHAPE_POINT:
    case SW_SHAPE_SPHERE:
    case SW_SHAPE_SEGMENT:
    case SW_SHAPE_CAPSULE:
        return sw_fast_sweep_round(a0, a1, a_point, ra, d, b, skin, out);
    case SW_SHAPE_PLANE:
        return sw_fast_sweep_plane(a0, a1, ra, d, &b->plane, opt, out);
    case SW_SHAPE_TRIANGLE:
        return a_point ? sw_fast_sweep_triangle(a0, ra, d, &b->triangle, skin, out)
                       : sw_fast_sweep_segment_triangle(a0, a1, ra, d, &b->triangle, skin, out);
    case SW_SHAPE_POLYGON:
        return a_point ? sw_fast_sweep_polygon(a0, ra, d, &b->polygon, frame, skin, out)
                       : sw_fast_sweep_segment_polygon(a0, a1, ra, d, &b->polygon, frame, skin, out);
    case SW_SHAPE_BOX:
        return sw_fast_sweep_box(a0, a1, a_point, ra, d, &b->box, skin, out);
    default:
        return false;
    }
}

/* The same, out of line, for the callers off the hot path. */
bool sw_fast_sweep(sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d, const sw_shape* b, const sw_polygon_frame* frame,
                   const sw_sweep_options* opt, sw_hit* out);

#endif
