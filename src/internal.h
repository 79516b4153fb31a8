/* sweep — private helpers shared by the library's modules (not installed). */
#ifndef SWEEP_INTERNAL_H
#define SWEEP_INTERNAL_H

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "sweep/sweep.h"

/* A type's alignment: _Alignof in C11; in C99 (the single header allows
 * it) 16 bytes, at least the alignment of any type the library stores. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SW_ALIGNOF(T) _Alignof(T)
#else
#define SW_ALIGNOF(T) ((size_t)16)
#endif

/* Validity tests for hot paths: one quiet comparison per number (no
 * floating-point exception on NaN; NaN and infinities fail it). */
static inline bool sw_internal_real_ok(sw_real v) { return islessequal(sw_abs(v), SW_MAX_COORD); }
static inline bool sw_internal_vec3_ok(sw_vec3 v)
{
    return sw_internal_real_ok(v.x) && sw_internal_real_ok(v.y) && sw_internal_real_ok(v.z);
}
static inline bool sw_internal_radius_ok(sw_real r) { return sw_internal_real_ok(r) && isgreaterequal(r, 0); }
static inline bool sw_internal_sphere_ok(const sw_sphere* s)
{
    return s && sw_internal_vec3_ok(s->center) && sw_internal_radius_ok(s->radius);
}
static inline bool sw_internal_segment_ok(const sw_segment* s)
{
    return s && sw_internal_vec3_ok(s->a) && sw_internal_vec3_ok(s->b);
}
static inline bool sw_internal_capsule_ok(const sw_capsule* c)
{
    return c && sw_internal_vec3_ok(c->a) && sw_internal_vec3_ok(c->b) && sw_internal_radius_ok(c->radius);
}
static inline bool sw_internal_triangle_ok(const sw_triangle* t)
{
    return t && sw_internal_vec3_ok(t->v[0]) && sw_internal_vec3_ok(t->v[1]) && sw_internal_vec3_ok(t->v[2]);
}
static inline bool sw_internal_quat_ok(sw_quat q)
{
    /* Finite first (bit tests: clang turned four quiet comparisons into
     * vector ones that trap on NaN), then within range and not zero: its
     * largest component, not its squared length, which can underflow for
     * a tiny usable quaternion. */
    if (!sw_quat_is_finite(q)) {
        return false;
    }
    const sw_real m = sw_max(sw_max(sw_abs(q.x), sw_abs(q.y)), sw_max(sw_abs(q.z), sw_abs(q.w)));
    return m > 0 && m <= SW_MAX_COORD;
}
static inline bool sw_internal_box_ok(const sw_box* b)
{
    return b && sw_internal_vec3_ok(b->center) && sw_internal_radius_ok(b->half.x) &&
           sw_internal_radius_ok(b->half.y) && sw_internal_radius_ok(b->half.z) && sw_internal_quat_ok(b->rotation);
}
/* The polygon p as a shape, whole (its prep included, which
 * sw_make_polygon would drop). */
static inline sw_shape sw_internal_polygon_shape(const sw_polygon* p)
{
    return (sw_shape){.type = SW_SHAPE_POLYGON, .polygon = *p};
}
/* sw_is_valid_shape, with the shapes whose test is a few comparisons
 * (point, sphere, segment, capsule, triangle, box) tested inline: the queries'
 * entry points validate every query, and the calls through the shape's
 * validation cost more than the test (sphere-triangle: 36 instructions, 7%
 * of its time). The same verdicts. */
static inline bool sw_internal_shape_ok(const sw_shape* s)
{
    if (!s) {
        return false;
    }
    switch (s->type) {
    case SW_SHAPE_POINT:
        return sw_internal_vec3_ok(s->point);
    case SW_SHAPE_SPHERE:
        return sw_internal_sphere_ok(&s->sphere);
    case SW_SHAPE_SEGMENT:
        return sw_internal_segment_ok(&s->segment);
    case SW_SHAPE_CAPSULE:
        return sw_internal_capsule_ok(&s->capsule);
    case SW_SHAPE_TRIANGLE:
        return sw_internal_triangle_ok(&s->triangle);
    case SW_SHAPE_BOX:
        return sw_internal_box_ok(&s->box);
    default:
        return sw_is_valid_shape(s);
    }
}

/* SW_NOINLINE: for functions off the hot paths that would otherwise be
 * inlined into them, where their registers cost every call.
 * SW_ALWAYS_INLINE: for helpers of a hot path that gcc would keep out of
 * line (a fast path's loops, inlined, see count = 3 for a triangle). */
#if defined(__GNUC__)
#define SW_NOINLINE __attribute__((noinline))
#define SW_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define SW_NOINLINE
#define SW_ALWAYS_INLINE inline
#endif

/* Reports invalid input through the assert handler (in SWEEP_ASSERTS
 * builds); the caller then returns its invalid-input result. */
void sw_internal_report_invalid(const char* what, const char* file, int line);

/* Entry-point check: on failure, report and return `fail`. */
#define SW_REQUIRE(cond, fail)                                                                                         \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            sw_internal_report_invalid(#cond, __FILE__, __LINE__);                                                     \
            return (fail);                                                                                             \
        }                                                                                                              \
    } while (0)

static inline sw_hit sw_internal_hit_status(sw_status s)
{
    sw_hit h = {0};
    h.status = s;
    return h;
}
static inline sw_overlap_result sw_internal_overlap_status(sw_status s)
{
    sw_overlap_result r = {0};
    r.status = s;
    return r;
}
static inline sw_distance_result sw_internal_distance_status(sw_status s)
{
    sw_distance_result r = {0};
    r.status = s;
    return r;
}

#define SW_INVALID_HIT sw_internal_hit_status(SW_INVALID_INPUT)
#define SW_INVALID_OVERLAP sw_internal_overlap_status(SW_INVALID_INPUT)
#define SW_INVALID_DISTANCE sw_internal_distance_status(SW_INVALID_INPUT)

/* The distance of A to B read as that of B to A: the closest points swap. */
static inline sw_distance_result sw_internal_distance_mirrored(sw_distance_result r)
{
    const sw_vec3 p = r.point_a;
    r.point_a = r.point_b;
    r.point_b = p;
    return r;
}

static inline bool sw_internal_options_valid(const sw_sweep_options* o)
{
    return o == NULL || sw_is_valid_sweep_options(o);
}
static inline sw_real sw_internal_skin(const sw_sweep_options* o) { return o ? o->skin : 0; }
/* Whether a and b are the same point, component by component exactly
 * (-0 equals 0): a round shape's core whose ends are the same point (a
 * point's, a sphere's, a zero-length segment's or capsule's) has no side. */
static inline bool sw_internal_same_point(sw_vec3 a, sw_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
static inline bool sw_internal_ignore_separating(const sw_sweep_options* o) { return o ? o->ignore_separating : false; }

/* A unit vector for a contact whose direction is undefined (coincident
 * centres): back along the motion d, or +z when d = 0. */
static inline sw_vec3 sw_internal_fallback_normal(sw_vec3 d)
{
    sw_vec3 n = sw_neg(d);
    return sw_normalize(&n) > 0 ? n : sw_v3(0, 0, 1);
}

/* sw_sweep_sphere_sphere without the input checks (the dispatcher has
 * made them). */
sw_hit sw_internal_sweep_sphere_sphere(const sw_sphere* a, sw_vec3 d, const sw_sphere* b, const sw_sweep_options* opt);

/* Unit normal and offset of a plane, scaled by the largest component first
 * so that neither a tiny nor a huge normal underflows or overflows. Returns
 * false when the normal is zero or the normalised offset is out of range. */
static inline bool sw_internal_plane_unit(const sw_plane* p, sw_vec3* n, sw_real* offset)
{
    const sw_real m = sw_max_abs(p->normal);
    if (!(m > 0)) {
        return false;
    }
    sw_vec3 u = sw_scale(p->normal, 1 / m);
    const sw_real len = sw_normalize(&u); /* in [1, sqrt(3)] */
    /* |offset| / m must stay finite: compare before dividing. */
    if (sw_abs(p->offset) > SW_MAX_COORD * m * len) {
        return false;
    }
    *n = u;
    *offset = p->offset / m / len;
    return true;
}

/* The wider real type of the sweep kernels: double for float builds (a
 * product of floats is exact in double, and its range holds the degree-8
 * terms of the cylinder cast for every valid input), long double for
 * double builds. */
#ifdef SWEEP_DOUBLE
typedef long double sw_wide;
#define sw_wide_sqrt sqrtl
#define sw_wide_fma fmal
#define SW_WIDE_EPSILON LDBL_EPSILON
#else
typedef double sw_wide;
#define sw_wide_sqrt sqrt
#define sw_wide_fma fma
#define SW_WIDE_EPSILON DBL_EPSILON
#endif

typedef struct sw_wvec {
    sw_wide x, y, z;
} sw_wvec;

static inline sw_wvec sw_wv(sw_vec3 a) { return (sw_wvec){a.x, a.y, a.z}; }
static inline sw_vec3 sw_wv_narrow(sw_wvec a) { return sw_v3((sw_real)a.x, (sw_real)a.y, (sw_real)a.z); }
static inline sw_wvec sw_wsub(sw_wvec a, sw_wvec b) { return (sw_wvec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline sw_wvec sw_wmadd(sw_wvec a, sw_wide s, sw_wvec b)
{
    return (sw_wvec){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}
static inline sw_wide sw_wdot(sw_wvec a, sw_wvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline sw_wvec sw_wcross(sw_wvec a, sw_wvec b)
{
    return (sw_wvec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
/* a * b - c * d, accurate to a few ulps of the result even when the
 * products nearly cancel: then (the plain difference below 2^-10 of their
 * size) Kahan's algorithm, fma giving the rounding error of c * d exactly.
 * fma is slow in software (long double), hence the test first. */
static inline sw_wide sw_wide_diff_products(sw_wide a, sw_wide b, sw_wide c, sw_wide d)
{
    const sw_wide ab = a * b, cd = c * d, r = ab - cd;
    const sw_wide size = (ab < 0 ? -ab : ab) + (cd < 0 ? -cd : cd);
    if ((r < 0 ? -r : r) > size * (sw_wide)(1.0 / 1024)) {
        return r;
    }
    const sw_wide err = sw_wide_fma(-c, d, cd);
    return sw_wide_fma(a, b, -cd) + err;
}
/* The cross product accurate relative to its own length: the normal of a
 * sliver or needle (two long, nearly parallel edges: a triangle 3.5e14 long
 * and 82 wide) keeps its direction, where the plain products' rounding
 * (1e10 against a component of 3e16 in long double) tilted it by 1.5e-8
 * rad. Used by the hull builder and the flat polytopes' and polygon cores'
 * normals. */
static inline sw_wvec sw_wcross_acc(sw_wvec a, sw_wvec b)
{
    return (sw_wvec){sw_wide_diff_products(a.y, b.z, a.z, b.y), sw_wide_diff_products(a.z, b.x, a.x, b.z),
                     sw_wide_diff_products(a.x, b.y, a.y, b.x)};
}
/* The largest magnitude of a's components. */
static inline sw_wide sw_wmax_abs(sw_wvec a)
{
    const sw_wide x = a.x < 0 ? -a.x : a.x, y = a.y < 0 ? -a.y : a.y, z = a.z < 0 ? -a.z : a.z;
    return x > y ? (x > z ? x : z) : (y > z ? y : z);
}
/* Newell's normal of a polygon (twice its vector area; for a triangle
 * (v1 - v0) x (v2 - v0)) in the wide type, from the vertices' offsets to
 * v[0], each cross product accurate to its own length: for a triangle 2e8
 * long and 1 wide the products cancel from 1e12 to 1e8, which in sw_real
 * tilted the plane by 2e-11 rad (finding 25), and one 3.5e14 long and 82
 * wide cancels even in long double (finding 37). *extent receives the
 * largest offset component. For the polygon cores and the flat polytopes;
 * validation, which must not call fma on every query, sums plain wide
 * products. */
static inline sw_wvec sw_internal_polygon_normal(const sw_vec3* v, int count, sw_wide* extent)
{
    sw_wvec n = {0, 0, 0};
    sw_wide ext = 0;
    const sw_wvec o = sw_wv(v[0]);
    for (int i = 1; i < count; ++i) {
        const sw_wvec a = sw_wsub(sw_wv(v[i]), o);
        const sw_wide m = sw_wmax_abs(a);
        ext = m > ext ? m : ext;
        if (i + 1 < count) {
            const sw_wvec c = sw_wcross_acc(a, sw_wsub(sw_wv(v[i + 1]), o));
            n = (sw_wvec){n.x + c.x, n.y + c.y, n.z + c.z};
        }
    }
    *extent = ext;
    return n;
}
/* Double vectors: the fast paths' type (in float builds double is the
 * kernels' wide type: products of floats are exact) and the polygon
 * frame's (shapes/polygon_frame.h). */
typedef struct sw_dvec {
    double x, y, z;
} sw_dvec;

static inline sw_dvec sw_dv(sw_vec3 a) { return (sw_dvec){a.x, a.y, a.z}; }
/* sw_box_axes before its rounding to sw_real: the fast paths take the
 * axes in double as they are computed (in float builds that skips two
 * conversions of nine components: capsule-box 1,483 -> 1,442
 * instructions a query). Out of line: inlined into the box paths it cost
 * them 35 more. */
void sw_internal_box_axes(const sw_box* b, sw_dvec axes[3]);
static inline sw_dvec sw_dv_local(sw_vec3 a, sw_vec3 origin)
{
    return (sw_dvec){(double)a.x - origin.x, (double)a.y - origin.y, (double)a.z - origin.z};
}
static inline sw_dvec sw_dsub(sw_dvec a, sw_dvec b) { return (sw_dvec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline sw_dvec sw_dadd(sw_dvec a, sw_dvec b) { return (sw_dvec){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline sw_dvec sw_dscale(sw_dvec a, double s) { return (sw_dvec){a.x * s, a.y * s, a.z * s}; }
static inline sw_dvec sw_dmadd(sw_dvec a, double s, sw_dvec b)
{
    return (sw_dvec){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}
static inline double sw_ddot(sw_dvec a, sw_dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline sw_dvec sw_dcross(sw_dvec a, sw_dvec b)
{
    return (sw_dvec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
/* Ternaries, not fmax: they compile to one instruction without libm. */
static inline double sw_dmax(double a, double b) { return a > b ? a : b; }
static inline double sw_dmin(double a, double b) { return a < b ? a : b; }
static inline double sw_dmax_abs(sw_dvec a) { return sw_dmax(sw_dmax(fabs(a.x), fabs(a.y)), fabs(a.z)); }

/* Unit vector along a (wide), narrowed; *ok false when a is zero. */
static inline sw_vec3 sw_wunit(sw_wvec a, bool* ok)
{
    const sw_wide len = sw_wide_sqrt(sw_wdot(a, a));
    *ok = len > 0;
    return *ok ? sw_v3((sw_real)(a.x / len), (sw_real)(a.y / len), (sw_real)(a.z / len)) : sw_v3(0, 0, 0);
}

/* sw_closest_points_segments that also gives ca - cb as computed in the
 * wide type (its direction survives when the points are far from the
 * origin and close to each other). */
sw_real sw_internal_closest_segments(const sw_segment* a, const sw_segment* b, sw_vec3* ca, sw_vec3* cb, sw_vec3* gap);

/* Cast of a point from f (relative to a ball's centre) along d, t in
 * [0, 1], against the ball of radius r centred at the origin. Returns 0 on
 * a miss, 1 on a contact at *t, 2 when f starts in the ball (t = 0). *n is
 * the unit contact normal (from the ball toward the point) and *depth the
 * penetration r - |f| on a start inside. */
int sw_internal_cast_ball(sw_vec3 f, sw_vec3 d, sw_real r, sw_real* t, sw_vec3* n, sw_real* depth);

#endif
