/* Long-double references and the §3 checks against them (see oracle.h). */
#include "oracle.h"

#include <float.h>
#include <math.h>

#include "fuzz.h"

#ifdef FZ_STRICT
#define FZ_SCALE_FLOOR 0.0L
#elif defined(SWEEP_DOUBLE)
#define FZ_SCALE_FLOOR (1.4916681462400413e-154L / SW_TOLERANCE) /* sqrt(DBL_MIN) / tol */
#else
#define FZ_SCALE_FLOOR (1.0842021724855044e-19L / SW_TOLERANCE) /* sqrt(FLT_MIN) / tol */
#endif

/* ---- long-double vectors --------------------------------------------------- */

typedef struct lv {
    long double x, y, z;
} lv;

static lv lv_of(sw_vec3 v)
{
    lv r = {v.x, v.y, v.z};
    return r;
}
static lv lv_make(long double x, long double y, long double z)
{
    lv r = {x, y, z};
    return r;
}
static lv lv_add(lv a, lv b) { return lv_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static lv lv_sub(lv a, lv b) { return lv_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static lv lv_scale(lv a, long double s) { return lv_make(a.x * s, a.y * s, a.z * s); }
/* a + s * b */
static lv lv_madd(lv a, long double s, lv b) { return lv_make(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static long double lv_dot(lv a, lv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static lv lv_cross(lv a, lv b) { return lv_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
/* a b - c d to about an ulp of the result (Kahan's fma trick): a sliver's
 * normal is a difference of nearly equal products. */
static long double diff_products(long double a, long double b, long double c, long double d)
{
    const long double cd = c * d;
    return fmal(a, b, -cd) - fmal(c, d, -cd);
}
static lv lv_cross_acc(lv a, lv b)
{
    return lv_make(diff_products(a.y, b.z, a.z, b.y), diff_products(a.z, b.x, a.x, b.z),
                   diff_products(a.x, b.y, a.y, b.x));
}
static long double lv_len(lv a) { return sqrtl(lv_dot(a, a)); }
static long double lv_max_abs(lv a) { return fmaxl(fabsl(a.x), fmaxl(fabsl(a.y), fabsl(a.z))); }
/* Angle between two non-zero vectors, accurate also for small angles. */
static long double lv_angle(lv a, lv b) { return atan2l(lv_len(lv_cross(a, b)), lv_dot(a, b)); }
static long double clampl(long double v, long double lo, long double hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* ---- scale and tolerance --------------------------------------------------- */

long double fz_scale_real(long double scale, sw_real v) { return fmaxl(scale, fabsl((long double)v)); }

long double fz_scale_vec3(long double scale, sw_vec3 v) { return fmaxl(scale, lv_max_abs(lv_of(v))); }

long double fz_scale_shape(long double scale, const sw_shape* s)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        return fz_scale_vec3(scale, s->point);
    case SW_SHAPE_SEGMENT:
        return fz_scale_vec3(fz_scale_vec3(scale, s->segment.a), s->segment.b);
    case SW_SHAPE_SPHERE:
        return fz_scale_real(fz_scale_vec3(scale, s->sphere.center), s->sphere.radius);
    case SW_SHAPE_CAPSULE:
        return fz_scale_real(fz_scale_vec3(fz_scale_vec3(scale, s->capsule.a), s->capsule.b), s->capsule.radius);
    case SW_SHAPE_BOX:
        return fz_scale_vec3(fz_scale_vec3(scale, s->box.center), s->box.half);
    case SW_SHAPE_PLANE: {
        /* The offset over |n|: the plane's distance from the origin. */
        const lv n = lv_of(s->plane.normal);
        const long double len = lv_len(n);
        return len > 0 ? fmaxl(scale, fabsl((long double)s->plane.offset) / len) : scale;
    }
    case SW_SHAPE_TRIANGLE:
        for (int i = 0; i < 3; ++i) {
            scale = fz_scale_vec3(scale, s->triangle.v[i]);
        }
        return scale;
    case SW_SHAPE_POLYGON:
        for (int i = 0; s->polygon.v && i < s->polygon.count && i <= SW_MAX_POLYGON_VERTICES; ++i) {
            scale = fz_scale_vec3(scale, s->polygon.v[i]);
        }
        return scale;
    case SW_SHAPE_HULL: {
        /* The placed vertices reach at most |position| + |v| on any axis. */
        long double reach = 0;
        for (int i = 0; s->hull.hull && i < s->hull.hull->vertex_count; ++i) {
            reach = fmaxl(reach, lv_len(lv_of(s->hull.hull->vertices[i])));
        }
        return fmaxl(fz_scale_vec3(scale, s->hull.position), lv_max_abs(lv_of(s->hull.position)) + reach);
    }
    default:
        return scale;
    }
}

long double fz_tol(long double scale) { return SW_TOLERANCE * fmaxl(scale, FZ_SCALE_FLOOR); }

/* ---- distances ------------------------------------------------------------- */

/* min |f + t v| over t in [t0, t1]. */
static long double closest_on_path(lv f, lv v, long double t0, long double t1)
{
    const long double vv = lv_dot(v, v);
    const long double t = vv > 0 ? clampl(-lv_dot(f, v) / vv, t0, t1) : t0;
    return lv_len(lv_madd(f, t, v));
}

/* Closest point of the segment [a, b] to p. */
static lv closest_on_segment(lv p, lv a, lv b)
{
    const lv ab = lv_sub(b, a);
    const long double ll = lv_dot(ab, ab);
    const long double u = ll > 0 ? clampl(lv_dot(lv_sub(p, a), ab) / ll, 0, 1) : 0;
    return lv_madd(a, u, ab);
}

static long double distance_to_segment(lv p, lv a, lv b) { return lv_len(lv_sub(p, closest_on_segment(p, a, b))); }

/* Distance between the segments [a0, a1] and [b0, b1], with closest points.
 * The minimum of the convex |A(s) - B(u)|^2 over the unit square is at its
 * stationary point or on one of the square's four edges (an end point
 * against the other segment): every candidate is an actual pair of points,
 * so the result is exact up to long-double rounding. */
static long double segment_distance(lv a0, lv a1, lv b0, lv b1, lv* pa, lv* pb)
{
    lv qa[5], qb[5];
    int n = 0;
    qa[n] = a0, qb[n++] = closest_on_segment(a0, b0, b1);
    qa[n] = a1, qb[n++] = closest_on_segment(a1, b0, b1);
    qb[n] = b0, qa[n++] = closest_on_segment(b0, a0, a1);
    qb[n] = b1, qa[n++] = closest_on_segment(b1, a0, a1);
    /* Stationary point of |r + s d1 - u d2|^2 with r = a0 - b0. */
    const lv d1 = lv_sub(a1, a0), d2 = lv_sub(b1, b0), r = lv_sub(a0, b0);
    /* By Lagrange's identity, with nc = d1 x d2: the products of dot
     * products (bb ff - cc ee, aa ff - bb cc, aa ee - bb^2) cancel as
     * 1/sin^2 of the segments' angle, which for segments 1.4e7 long and
     * 1e-6 rad apart left no stationary point (finding 28); the cross
     * products cancel as 1/sin. */
    const lv nc = lv_cross_acc(d1, d2);
    const long double denom = lv_dot(nc, nc);
    if (denom > 0) {
        const long double s = lv_dot(lv_cross_acc(d2, r), nc) / denom, u = lv_dot(lv_cross_acc(d1, r), nc) / denom;
        if (s >= 0 && s <= 1 && u >= 0 && u <= 1) {
            qa[n] = lv_madd(a0, s, d1), qb[n++] = lv_madd(b0, u, d2);
        }
    }
    int best = 0;
    long double best_d = lv_len(lv_sub(qa[0], qb[0]));
    for (int i = 1; i < n; ++i) {
        const long double d = lv_len(lv_sub(qa[i], qb[i]));
        if (d < best_d) {
            best = i;
            best_d = d;
        }
    }
    if (pa) {
        *pa = qa[best];
    }
    if (pb) {
        *pb = qb[best];
    }
    return best_d;
}

static void check_normal_direction(lv n, lv expected, long double across, long double tol, const char* what)
{
    if (across < FZ_STABLE * tol) {
        return;
    }
    const long double angle = lv_angle(n, expected);
    FZ_CHECK(angle <= FZ_ANGLE + 2 * FZ_UNIT_TOL, "%s: the normal is %Lg rad from the exact [%Lg, %Lg, %Lg]", what,
             angle, expected.x, expected.y, expected.z);
}

/* ---- ball casts ------------------------------------------------------------ */

void fz_check_ball_cast(const fz_ball_cast* c, const sw_hit* h)
{
    const lv v = lv_of(c->v), vb = lv_of(c->vb);
    const long double tmax = c->tmax;
    long double scale = 0;
    scale = fz_scale_vec3(fz_scale_vec3(scale, c->c0), c->cb);
    scale = fmaxl(scale, lv_max_abs(lv_scale(v, tmax)));
    scale = fmaxl(scale, fmaxl(lv_max_abs(vb), lv_max_abs(lv_add(v, vb))));
    scale = fz_scale_real(fz_scale_real(fz_scale_real(scale, c->ra), c->rb), c->skin);
    const long double tol = fz_tol(scale), slack = FZ_SLACK * tol, band = FZ_BAND * tol;

    const lv f0 = lv_sub(lv_of(c->c0), lv_of(c->cb));
    const long double reach = (long double)c->ra + c->rb + c->skin;
    const long double dist0 = lv_len(f0);
    const long double dmin = closest_on_path(f0, v, 0, tmax);

    if (!h->hit) {
        /* A start within contact with ignore_separating is no hit unless A
         * clearly approaches B (d.n < 0 beyond the 2e-3 band of §2, widened
         * by the 1e-3 rad a normal may be off). */
        const bool approaching = dist0 >= FZ_STABLE * tol && lv_dot(v, f0) < -3e-3L * lv_len(v) * dist0;
        if (c->ignore_separating && dist0 <= reach + band && !approaching) {
            return;
        }
        FZ_CHECK(dmin >= reach - band, "miss, but the centre passes within %Lg of B's centre (reach %Lg, tol %Lg)",
                 dmin, reach, tol);
        return;
    }

    const long double t = h->t;
    const lv n = lv_of(h->normal);
    /* The point relative to B at time t. */
    const lv p = lv_madd(lv_of(h->point), -t, vb);
    if (h->overlapping) {
        FZ_CHECK(dist0 <= reach + band, "overlap reported, but the centres start %Lg apart (reach %Lg, tol %Lg)", dist0,
                 reach, tol);
        const long double depth = fmaxl(reach - dist0, 0);
        FZ_CHECK(fabsl(h->depth - depth) <= slack, "depth %.17g, exact %.17Lg (tol %Lg)", (double)h->depth, depth, tol);
        check_normal_direction(n, f0, dist0, tol, "initial overlap");
        if (c->ignore_separating) {
            FZ_CHECK(lv_dot(v, n) < 2e-3L * lv_len(v),
                     "ignore_separating, but the reported start contact has d.n = %Lg >= 0 (|d| = %Lg)", lv_dot(v, n),
                     lv_len(v));
        }
        const long double in_a = lv_len(lv_sub(p, lv_of(c->c0))) - c->ra;
        const long double in_b = lv_len(lv_sub(p, lv_of(c->cb))) - c->rb - c->skin;
        FZ_CHECK(in_a <= slack && in_b <= slack, "overlap point is %Lg outside A and %Lg outside B (tol %Lg)", in_a,
                 in_b, tol);
        return;
    }

    FZ_CHECK(dist0 >= reach - band, "a contact at t = %.17Lg, but the centres start %Lg apart (reach %Lg, tol %Lg)", t,
             dist0, reach, tol);
    const lv ct = lv_madd(lv_of(c->c0), t, v);
    const lv ft = lv_sub(ct, lv_of(c->cb));
    const long double dist_t = lv_len(ft);
    FZ_CHECK(fabsl(dist_t - reach) <= slack,
             "at t = %.17Lg the centres are %.17Lg apart, the contact distance is %.17Lg (error %Lg, tol %Lg)", t,
             dist_t, reach, dist_t - reach, tol);
    const long double before = closest_on_path(f0, v, 0, t);
    FZ_CHECK(before >= reach - slack, "before t = %.17Lg the centres come within %Lg (reach %Lg, tol %Lg)", t, before,
             reach, tol);
    const long double from_a = lv_len(lv_sub(p, ct)) - c->ra;
    const long double from_b = fmaxl(lv_len(lv_sub(p, lv_of(c->cb))) - c->rb, 0);
    FZ_CHECK(from_a <= slack, "the point is %Lg outside A(t) (tol %Lg)", from_a, tol);
    FZ_CHECK(fabsl(from_b - c->skin) <= slack, "the point is %Lg from B, the skin is %.17g (tol %Lg)", from_b,
             (double)c->skin, tol);
    /* Separating plane through the point: B (+ skin) below, A(t) above. */
    const long double np = lv_dot(n, p);
    const long double b_top = lv_dot(n, lv_of(c->cb)) + c->rb + c->skin;
    const long double a_bottom = lv_dot(n, ct) - c->ra;
    FZ_CHECK(b_top <= np + slack && a_bottom >= np - slack,
             "the normal is no separating plane: B reaches %Lg and A(t) %Lg beyond it (tol %Lg)", b_top - np,
             np - a_bottom, tol);
    check_normal_direction(n, ft, reach, tol, "contact");
}

/* ---- containment ------------------------------------------------------------ */

void fz_check_inside_sphere(const sw_sphere* a, sw_vec3 d, const sw_sphere* b, const sw_hit* h)
{
    long double scale = 0;
    scale = fz_scale_real(fz_scale_vec3(scale, a->center), a->radius);
    scale = fz_scale_real(fz_scale_vec3(scale, b->center), b->radius);
    scale = fz_scale_vec3(scale, d);
    const long double tol = fz_tol(scale), slack = FZ_SLACK * tol, band = FZ_BAND * tol;

    const lv f0 = lv_sub(lv_of(a->center), lv_of(b->center)), v = lv_of(d);
    const long double room = (long double)b->radius - a->radius;
    const long double dist0 = lv_len(f0), dist1 = lv_len(lv_add(f0, v));
    if (!h->hit) {
        FZ_CHECK(dist0 <= room + band && dist1 <= room + band,
                 "miss, but A's centre is %Lg then %Lg from B's centre, room %Lg (tol %Lg)", dist0, dist1, room, tol);
        return;
    }
    if (h->overlapping) {
        FZ_CHECK(dist0 >= room - band, "start reported not inside, but the centres are %Lg apart, room %Lg (tol %Lg)",
                 dist0, room, tol);
        return;
    }
    FZ_CHECK(dist0 <= room + band, "a contact at t > 0, but A does not start inside (%Lg > room %Lg, tol %Lg)", dist0,
             room, tol);
    const long double t = h->t;
    const lv ct = lv_madd(lv_of(a->center), t, v);
    const lv ft = lv_sub(ct, lv_of(b->center));
    const long double dist_t = lv_len(ft);
    FZ_CHECK(fabsl(dist_t - room) <= slack,
             "at t = %.17Lg A's centre is %.17Lg from B's, the room is %.17Lg (error %Lg, tol %Lg)", t, dist_t, room,
             dist_t - room, tol);
    const lv p = lv_of(h->point);
    const long double from_a = lv_len(lv_sub(p, ct)) - a->radius;
    const long double from_b = lv_len(lv_sub(p, lv_of(b->center))) - b->radius;
    FZ_CHECK(from_a <= slack && fabsl(from_b) <= slack,
             "the point is %Lg outside A(t) and %Lg off B's boundary (tol %Lg)", from_a, from_b, tol);
    const lv n = lv_of(h->normal);
    FZ_CHECK(lv_dot(n, ct) - a->radius >= lv_dot(n, p) - slack, "A(t) crosses the contact plane by %Lg (tol %Lg)",
             lv_dot(n, p) - (lv_dot(n, ct) - a->radius), tol);
    check_normal_direction(n, lv_scale(ft, -1), room, tol, "containment contact");
}

/* The box's unit axes from the normalised rotation, in long double. */
static void box_axes_ld(const sw_box* b, lv axes[3])
{
    long double x = b->rotation.x, y = b->rotation.y, z = b->rotation.z, w = b->rotation.w;
    const long double m = fmaxl(fmaxl(fabsl(x), fabsl(y)), fmaxl(fabsl(z), fabsl(w)));
    x /= m, y /= m, z /= m, w /= m; /* first by the largest part: no underflow */
    const long double len = sqrtl(x * x + y * y + z * z + w * w);
    x /= len, y /= len, z /= len, w /= len;
    axes[0] = lv_make(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
    axes[1] = lv_make(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
    axes[2] = lv_make(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
}

/* Smallest room left on any axis: room_k - |pos_k| (> 0 strictly inside). */
static long double box_gap(const long double pos[3], const long double room[3])
{
    long double gap = room[0] - fabsl(pos[0]);
    for (int k = 1; k < 3; ++k) {
        gap = fminl(gap, room[k] - fabsl(pos[k]));
    }
    return gap;
}

void fz_check_inside_box(const sw_sphere* a, sw_vec3 d, const sw_box* b, const sw_hit* h)
{
    long double scale = 0;
    scale = fz_scale_real(fz_scale_vec3(scale, a->center), a->radius);
    scale = fz_scale_vec3(fz_scale_vec3(scale, b->center), b->half);
    scale = fz_scale_vec3(scale, d);
    const long double tol = fz_tol(scale), slack = FZ_SLACK * tol, band = FZ_BAND * tol;

    lv axes[3];
    box_axes_ld(b, axes);
    const lv f0 = lv_sub(lv_of(a->center), lv_of(b->center)), v = lv_of(d);
    const long double half[3] = {b->half.x, b->half.y, b->half.z};
    long double room[3], pos0[3], pos1[3], vel[3];
    for (int k = 0; k < 3; ++k) {
        room[k] = half[k] - a->radius;
        pos0[k] = lv_dot(f0, axes[k]);
        vel[k] = lv_dot(v, axes[k]);
        pos1[k] = pos0[k] + vel[k];
    }
    const long double gap0 = box_gap(pos0, room), gap1 = box_gap(pos1, room);
    if (!h->hit) {
        FZ_CHECK(gap0 >= -band && gap1 >= -band,
                 "miss, but A's room in the box is %Lg at t = 0, %Lg at t = 1 (tol %Lg)", gap0, gap1, tol);
        return;
    }
    if (h->overlapping) {
        FZ_CHECK(gap0 <= band, "start reported not inside, but A has room %Lg on every axis (tol %Lg)", gap0, tol);
        return;
    }
    FZ_CHECK(gap0 >= -band, "a contact at t > 0, but A does not start inside (room %Lg, tol %Lg)", gap0, tol);
    const long double t = h->t;
    long double pos_t[3];
    for (int k = 0; k < 3; ++k) {
        pos_t[k] = pos0[k] + t * vel[k];
    }
    const long double gap_t = box_gap(pos_t, room);
    FZ_CHECK(fabsl(gap_t) <= slack, "at t = %.17Lg A's room in the box is %Lg, not 0 (tol %Lg)", t, gap_t, tol);
    FZ_CHECK(h->feature.kind == SW_FEATURE_FACE && h->feature.index >= 0 && h->feature.index < 6,
             "feature %d/%d is not a box face", (int)h->feature.kind, h->feature.index);
    const int axis = h->feature.index / 2;
    const long double side = h->feature.index % 2 ? 1 : -1;
    FZ_CHECK(fabsl(side * pos_t[axis] - room[axis]) <= slack,
             "face %d reported, but A is %Lg from touching it at t (tol %Lg)", h->feature.index,
             side * pos_t[axis] - room[axis], tol);
    const lv n = lv_of(h->normal);
    const long double angle = lv_angle(n, lv_scale(axes[axis], -side));
    FZ_CHECK(angle <= FZ_ANGLE, "the normal is %Lg rad from face %d's inward normal", angle, h->feature.index);
    const lv ct = lv_madd(lv_of(a->center), t, v);
    const lv p = lv_of(h->point);
    const long double from_a = lv_len(lv_sub(p, ct)) - a->radius;
    FZ_CHECK(from_a <= slack, "the point is %Lg outside A(t) (tol %Lg)", from_a, tol);
    const lv q = lv_sub(p, lv_of(b->center));
    for (int k = 0; k < 3; ++k) {
        const long double local = lv_dot(q, axes[k]);
        FZ_CHECK(fabsl(local) <= half[k] + slack, "the point is %Lg outside the box on axis %d (tol %Lg)",
                 fabsl(local) - half[k], k, tol);
        if (k == axis) {
            FZ_CHECK(fabsl(side * local - half[k]) <= slack, "the point is %Lg off face %d (tol %Lg)",
                     side * local - half[k], h->feature.index, tol);
        }
    }
}

/* ---- capsules ---------------------------------------------------------------- */

bool fz_as_capsule(const sw_shape* s, sw_capsule* c)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        c->a = c->b = s->point;
        c->radius = 0;
        return true;
    case SW_SHAPE_SEGMENT:
        c->a = s->segment.a;
        c->b = s->segment.b;
        c->radius = 0;
        return true;
    case SW_SHAPE_SPHERE:
        c->a = c->b = s->sphere.center;
        c->radius = s->sphere.radius;
        return true;
    case SW_SHAPE_CAPSULE:
        *c = s->capsule;
        return true;
    default:
        return false;
    }
}

static long double capsule_scale(const sw_capsule* a, const sw_capsule* b)
{
    long double scale = 0;
    scale = fz_scale_real(fz_scale_vec3(fz_scale_vec3(scale, a->a), a->b), a->radius);
    return fz_scale_real(fz_scale_vec3(fz_scale_vec3(scale, b->a), b->b), b->radius);
}

/* How far p lies outside the capsule (negative inside). */
static long double outside_capsule(lv p, const sw_capsule* c)
{
    return distance_to_segment(p, lv_of(c->a), lv_of(c->b)) - c->radius;
}

void fz_check_overlap_capsules(const sw_capsule* a, const sw_capsule* b, const sw_overlap_result* r)
{
    const long double tol = fz_tol(capsule_scale(a, b)), slack = FZ_SLACK * tol, band = FZ_BAND * tol;
    lv pa, pb;
    const long double core = segment_distance(lv_of(a->a), lv_of(a->b), lv_of(b->a), lv_of(b->b), &pa, &pb);
    const long double reach = (long double)a->radius + b->radius;
    if (!r->overlapping) {
        FZ_CHECK(core >= reach - band, "no overlap, but the cores are %Lg apart and the radii sum to %Lg (tol %Lg)",
                 core, reach, tol);
        return;
    }
    FZ_CHECK(core <= reach + band, "overlap, but the cores are %Lg apart and the radii sum to %Lg (tol %Lg)", core,
             reach, tol);
    const long double depth = fmaxl(reach - core, 0);
    FZ_CHECK(fabsl(r->depth - depth) <= slack, "depth %.17g, exact %.17Lg (tol %Lg)", (double)r->depth, depth, tol);
    const lv p = lv_of(r->point);
    const long double out_a = outside_capsule(p, a), out_b = outside_capsule(p, b);
    FZ_CHECK(out_a <= slack && out_b <= slack, "the point is %Lg outside A and %Lg outside B (tol %Lg)", out_a, out_b,
             tol);
    /* Moving A by depth along the normal must separate the shapes. */
    const lv n = lv_of(r->normal);
    const lv shift = lv_scale(n, r->depth);
    const long double after =
        segment_distance(lv_add(lv_of(a->a), shift), lv_add(lv_of(a->b), shift), lv_of(b->a), lv_of(b->b), NULL, NULL);
    FZ_CHECK(after >= reach - slack, "moved by depth along the normal, A still penetrates B by %Lg (tol %Lg)",
             reach - after, tol);
    check_normal_direction(n, lv_sub(pa, pb), core, tol, "overlap");
}

void fz_check_distance_capsules(const sw_capsule* a, const sw_capsule* b, const sw_distance_result* r)
{
    const long double tol = fz_tol(capsule_scale(a, b)), slack = FZ_SLACK * tol;
    const long double core = segment_distance(lv_of(a->a), lv_of(a->b), lv_of(b->a), lv_of(b->b), NULL, NULL);
    const long double gap = fmaxl(core - a->radius - b->radius, 0);
    FZ_CHECK(fabsl(r->distance - gap) <= slack, "distance %.17g, exact %.17Lg (error %Lg, tol %Lg)",
             (double)r->distance, gap, r->distance - gap, tol);
    const lv pa = lv_of(r->point_a), pb = lv_of(r->point_b);
    const long double out_a = outside_capsule(pa, a), out_b = outside_capsule(pb, b);
    FZ_CHECK(out_a <= slack && out_b <= slack, "point_a is %Lg outside A, point_b %Lg outside B (tol %Lg)", out_a,
             out_b, tol);
    const long double between = lv_len(lv_sub(pb, pa));
    FZ_CHECK(fabsl(between - r->distance) <= slack, "the closest points are %Lg apart, the distance is %.17g (tol %Lg)",
             between, (double)r->distance, tol);
}

static long double segments_scale(const sw_segment* a, const sw_segment* b)
{
    return fz_scale_vec3(fz_scale_vec3(fz_scale_vec3(fz_scale_vec3(0, a->a), a->b), b->a), b->b);
}

void fz_check_closest_point_segment(sw_vec3 p, const sw_segment* s, sw_vec3 q, sw_real u)
{
    const long double tol = fz_tol(fz_scale_vec3(segments_scale(s, s), p)), slack = FZ_SLACK * tol;
    FZ_CHECK(u >= 0 && u <= 1, "parameter u = %.17g outside [0, 1]", (double)u);
    const lv a = lv_of(s->a), b = lv_of(s->b), lq = lv_of(q);
    const long double off = lv_len(lv_sub(lq, lv_madd(a, u, lv_sub(b, a))));
    FZ_CHECK(off <= slack, "the point is %Lg from a + u (b - a) (tol %Lg)", off, tol);
    const long double exact = distance_to_segment(lv_of(p), a, b);
    const long double got = lv_len(lv_sub(lq, lv_of(p)));
    FZ_CHECK(fabsl(got - exact) <= slack, "the point is %.17Lg from p, the exact distance is %.17Lg (tol %Lg)", got,
             exact, tol);
}

void fz_check_closest_points_segments(const sw_segment* a, const sw_segment* b, sw_vec3 ca, sw_vec3 cb, sw_real dist_sq)
{
    const long double tol = fz_tol(segments_scale(a, b)), slack = FZ_SLACK * tol;
    const lv la = lv_of(ca), lb = lv_of(cb);
    const long double on_a = distance_to_segment(la, lv_of(a->a), lv_of(a->b));
    const long double on_b = distance_to_segment(lb, lv_of(b->a), lv_of(b->b));
    FZ_CHECK(on_a <= slack && on_b <= slack, "the closest points are %Lg off a and %Lg off b (tol %Lg)", on_a, on_b,
             tol);
    const long double exact = segment_distance(lv_of(a->a), lv_of(a->b), lv_of(b->a), lv_of(b->b), NULL, NULL);
    const long double between = lv_len(lv_sub(lb, la));
    FZ_CHECK(isfinite(dist_sq) && dist_sq >= 0, "squared distance %.17g", (double)dist_sq);
    const long double got = sqrtl(dist_sq);
    FZ_CHECK(fabsl(between - exact) <= slack && fabsl(got - exact) <= slack,
             "the points are %.17Lg apart, sqrt(returned) = %.17Lg, exact %.17Lg (tol %Lg)", between, got, exact, tol);
}

/* ---- any static shape ---------------------------------------------------------
 * B as a long-double body with a distance function that is convex in the
 * point (signed, negative inside, for shapes with an interior; unsigned for
 * the flat triangle and polygon), so the distance of a segment core, and of
 * a swept one, is a convex minimisation. */

typedef struct body {
    sw_shape_type type;
    bool solid; /* has an interior: the distance is signed */
    bool one_sided;
    lv a, b;
    long double r; /* point, segment, sphere, capsule: core and radius */
    lv n;
    long double off; /* plane: unit normal and offset; flat: unit normal (zero if collinear) */
    lv c, ax[3];
    long double h[3]; /* box */
    lv v[SW_MAX_POLYGON_VERTICES];
    int count; /* triangle, polygon */
} body;

static void body_of(const sw_shape* s, body* out)
{
    out->type = s->type;
    out->solid = true;
    out->one_sided = false;
    sw_capsule cap;
    if (fz_as_capsule(s, &cap)) {
        out->a = lv_of(cap.a);
        out->b = lv_of(cap.b);
        out->r = cap.radius;
        return;
    }
    switch (s->type) {
    case SW_SHAPE_PLANE: {
        const lv m = lv_of(s->plane.normal);
        const long double len = lv_len(lv_scale(m, 1 / lv_max_abs(m))) * lv_max_abs(m);
        out->n = lv_scale(m, 1 / len);
        out->off = s->plane.offset / len;
        return;
    }
    case SW_SHAPE_BOX:
        out->c = lv_of(s->box.center);
        box_axes_ld(&s->box, out->ax);
        out->h[0] = s->box.half.x, out->h[1] = s->box.half.y, out->h[2] = s->box.half.z;
        return;
    default: {
        const bool tri = s->type == SW_SHAPE_TRIANGLE;
        out->solid = false;
        out->one_sided = tri ? s->triangle.one_sided : s->polygon.one_sided;
        out->count = tri ? 3 : s->polygon.count;
        for (int i = 0; i < out->count; ++i) {
            out->v[i] = lv_of(tri ? s->triangle.v[i] : s->polygon.v[i]);
        }
        /* Newell's normal relative to v[0], as the library defines the front. */
        lv n = lv_make(0, 0, 0);
        for (int i = 1; i + 1 < out->count; ++i) {
            n = lv_add(n, lv_cross_acc(lv_sub(out->v[i], out->v[0]), lv_sub(out->v[i + 1], out->v[0])));
        }
        const long double len = lv_len(n);
        out->n = len > 0 ? lv_scale(n, 1 / len) : n;
        /* Validation accepts a polygon planar within tol of its own scale
         * against the library's rounded normal. Where the exact area is
         * carried by a part far smaller than the polygon (a zero-area spike
         * out to 1e17 around a loop of size 100), or is rounding noise (a
         * sliver triangle), the Newell plane leaves vertices far outside
         * that tol. If the shape is then within tol of a line, its edges
         * model it within tol. */
        const long double ptol = SW_TOLERANCE * fz_scale_shape(0, s);
        int far = 0;
        long double lo = 0, hi = 0, width = 0;
        for (int i = 1; i < out->count; ++i) {
            const lv off = lv_sub(out->v[i], out->v[0]);
            lo = fminl(lo, lv_dot(out->n, off));
            hi = fmaxl(hi, lv_dot(out->n, off));
            far = lv_dot(off, off) > lv_dot(lv_sub(out->v[far], out->v[0]), lv_sub(out->v[far], out->v[0])) ? i : far;
        }
        const lv axis = lv_sub(out->v[far], out->v[0]);
        for (int i = 1; i < out->count && far > 0; ++i) {
            const lv off = lv_sub(out->v[i], out->v[0]);
            width = fmaxl(width, lv_len(lv_cross(axis, off)) / lv_len(axis));
        }
        if (hi - lo > 2 * ptol && width <= ptol) {
            out->n = lv_make(0, 0, 0);
        }
        return;
    }
    }
}

static long double body_dist(const body* B, lv p)
{
    switch (B->type) {
    case SW_SHAPE_POINT:
    case SW_SHAPE_SEGMENT:
    case SW_SHAPE_SPHERE:
    case SW_SHAPE_CAPSULE:
        return distance_to_segment(p, B->a, B->b) - B->r;
    case SW_SHAPE_PLANE:
        return lv_dot(B->n, p) - B->off;
    case SW_SHAPE_BOX: {
        const lv q = lv_sub(p, B->c);
        long double inside = -INFINITY, outside_sq = 0;
        for (int k = 0; k < 3; ++k) {
            const long double e = fabsl(lv_dot(q, B->ax[k])) - B->h[k];
            inside = fmaxl(inside, e);
            outside_sq += e > 0 ? e * e : 0;
        }
        return outside_sq > 0 ? sqrtl(outside_sq) : inside;
    }
    default: {
        /* p is over the polygon when it is over a triangle of its fan from
         * v[0] (the intersection of the edges' half-planes would do for an
         * exactly planar polygon, but an edge shorter than the polygon's
         * planarity tolerance may leave the plane by as much as its length,
         * and its in-plane direction, then far off, would cut the polygon:
         * finding 21). A fan triangle is over its own projection, never
         * beyond the polygon's. No side test has a slack (but see
         * below for their rounding); a point on a
         * diagonal of the fan from v[0], inside the polygon, can be left out
         * of both its triangles by rounding (finding 35), so the fan from
         * v[1], whose diagonals are others, is tried too. (A rounding slack
         * on the diagonals instead took in points far off slivers 1e139
         * long, whose planes are rounding noise.) */
        bool in = false;
        for (int apex = 0; apex < 2 && !in; ++apex) {
            for (int i = 1; i + 1 < B->count && lv_dot(B->n, B->n) > 0 && !in; ++i) {
                const lv t[3] = {B->v[apex], B->v[(apex + i) % B->count], B->v[(apex + i + 1) % B->count]};
                /* One without area (a repeated vertex) would take in the
                 * whole line through it. */
                in = lv_dot(lv_cross(lv_sub(t[1], t[0]), lv_sub(t[2], t[0])), B->n) > 0;
                for (int k = 0; k < 3; ++k) {
                    in = in && lv_dot(lv_cross(lv_sub(t[(k + 1) % 3], t[k]), lv_sub(p, t[k])), B->n) >= 0;
                }
            }
        }
        /* The side tests round p - t[k] by about LDBL_EPSILON of its
         * length: far beside a small polygon, near the line of its edges,
         * they can all pass (a ball 1e150 across beside a sliver 45 long:
         * products of 1e151 cancelling to rounding, where the exact ones
         * leave -8e131). A point over the polygon projects within the
         * polygon's reach from v[0]. */
        long double reach = 0;
        for (int i = 1; i < B->count; ++i) {
            reach = fmaxl(reach, lv_len(lv_sub(B->v[i], B->v[0])));
        }
        const lv off = lv_sub(p, B->v[0]);
        const long double across = lv_len(lv_madd(off, -lv_dot(B->n, off), B->n));
        in = in && across <= reach + 16 * LDBL_EPSILON * (lv_len(off) + reach);
        long double edge = INFINITY;
        for (int i = 0; i < B->count; ++i) {
            edge = fminl(edge, distance_to_segment(p, B->v[i], B->v[(i + 1) % B->count]));
        }
        return in ? fabsl(lv_dot(B->n, off)) : edge;
    }
    }
}

/* max of dir . x over B (not for a plane, which is unbounded). */
static long double body_support(const body* B, lv dir)
{
    switch (B->type) {
    case SW_SHAPE_POINT:
    case SW_SHAPE_SEGMENT:
    case SW_SHAPE_SPHERE:
    case SW_SHAPE_CAPSULE:
        return fmaxl(lv_dot(dir, B->a), lv_dot(dir, B->b)) + B->r * lv_len(dir);
    case SW_SHAPE_BOX: {
        long double s = lv_dot(dir, B->c);
        for (int k = 0; k < 3; ++k) {
            s += B->h[k] * fabsl(lv_dot(dir, B->ax[k]));
        }
        return s;
    }
    default: {
        long double s = -INFINITY;
        for (int i = 0; i < B->count; ++i) {
            s = fmaxl(s, lv_dot(dir, B->v[i]));
        }
        return s;
    }
    }
}

/* Minimum of a convex function on [lo, hi] by golden-section search; the
 * value returned is attained (an upper bound of the minimum), within
 * 0.618^iters * (hi - lo) of its argument. */
typedef long double convex_fn(const void* ctx, long double x);

static long double golden_min(convex_fn* f, const void* ctx, long double lo, long double hi, int iters)
{
    long double best = fminl(f(ctx, lo), f(ctx, hi));
    if (!(hi > lo)) {
        return best;
    }
    const long double g = 0.61803398874989484820L;
    long double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    long double f1 = f(ctx, x1), f2 = f(ctx, x2);
    for (int i = 0; i < iters; ++i) {
        if (f1 <= f2) {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = f(ctx, x1);
        } else {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = f(ctx, x2);
        }
    }
    return fminl(best, fminl(f1, f2));
}

/* A round shape's core a0 + s (a1 - a0) at time t: a0 + t d + s (a1 - a0). */
typedef struct core_path {
    const body* B;
    lv a0, e, d;
    long double t;
    int iters;
} core_path;

static long double core_point_dist(const void* ctx, long double s)
{
    const core_path* c = ctx;
    return body_dist(c->B, lv_madd(lv_madd(c->a0, c->t, c->d), s, c->e));
}

/* Distance (signed for a solid B) from the core at time t to B. */
static long double core_dist_at(const core_path* c, long double t)
{
    core_path at = *c;
    at.t = t;
    if (c->B->type <= SW_SHAPE_CAPSULE) {
        const lv a0 = lv_madd(c->a0, t, c->d);
        return segment_distance(a0, lv_add(a0, c->e), c->B->a, c->B->b, NULL, NULL) - c->B->r;
    }
    if (lv_dot(c->e, c->e) == 0) {
        return core_point_dist(&at, 0);
    }
    return golden_min(core_point_dist, &at, 0, 1, c->iters);
}

static long double core_dist_fn(const void* ctx, long double t) { return core_dist_at(ctx, t); }

/* Smallest core distance over t in [t0, t1]: a search for a witness of
 * contact, so a coarse search only loses sensitivity, never raises an
 * alarm that is not real. */
static long double swept_dist(const core_path* c, long double t0, long double t1)
{
    core_path coarse = *c;
    coarse.iters = 48;
    return golden_min(core_dist_fn, &coarse, t0, t1, 48);
}

typedef struct round_case {
    lv a0, a1, d;
    long double ra, skin, tmax;
    bool ignore_separating;
    body B;
    long double tol, slack, band;
} round_case;

static void round_case_make(round_case* rc, const sw_capsule* a, sw_vec3 d, sw_real tmax, const sw_shape* b,
                            sw_real skin, bool ignore)
{
    long double scale = fz_scale_shape(0, b);
    scale = fz_scale_real(fz_scale_vec3(fz_scale_vec3(scale, a->a), a->b), a->radius);
    scale = fmaxl(fz_scale_real(scale, skin), lv_max_abs(lv_scale(lv_of(d), tmax)));
    rc->a0 = lv_of(a->a);
    rc->a1 = lv_of(a->b);
    rc->d = lv_of(d);
    rc->ra = a->radius;
    rc->skin = skin;
    rc->tmax = tmax;
    rc->ignore_separating = ignore;
    body_of(b, &rc->B);
    rc->tol = fz_tol(scale);
    /* A polygon is accepted planar and convex within SW_TOLERANCE of its
     * own scale: that much more room for it. */
    const long double extra = b->type == SW_SHAPE_POLYGON ? SW_TOLERANCE * fz_scale_shape(0, b) : 0;
    rc->slack = FZ_SLACK * rc->tol + extra;
    rc->band = FZ_BAND * rc->tol + extra;
}

static core_path round_path(const round_case* rc)
{
    const core_path c = {&rc->B, rc->a0, lv_sub(rc->a1, rc->a0), rc->d, 0, 100};
    return c;
}

/* How far p lies outside A's core inflated by ra, at time t. */
static long double outside_round(const round_case* rc, lv p, long double t)
{
    const lv a0 = lv_madd(rc->a0, t, rc->d), a1 = lv_madd(rc->a1, t, rc->d);
    return distance_to_segment(p, a0, a1) - rc->ra;
}

/* The shortest separating translation is no longer than separating along
 * one of B's face normals. */
static long double depth_upper_bound(const round_case* rc)
{
    lv dirs[6];
    int n = 0;
    if (rc->B.type == SW_SHAPE_BOX) {
        for (int k = 0; k < 3; ++k) {
            dirs[n++] = rc->B.ax[k];
            dirs[n++] = lv_scale(rc->B.ax[k], -1);
        }
    } else if (rc->B.type >= SW_SHAPE_TRIANGLE && lv_dot(rc->B.n, rc->B.n) > 0) {
        dirs[n++] = rc->B.n;
        dirs[n++] = lv_scale(rc->B.n, -1);
    }
    long double best = INFINITY;
    for (int i = 0; i < n; ++i) {
        const long double a_low = fminl(lv_dot(dirs[i], rc->a0), lv_dot(dirs[i], rc->a1)) - rc->ra;
        best = fminl(best, body_support(&rc->B, dirs[i]) + rc->skin - a_low);
    }
    return best;
}

/* An initial overlap (t = 0): depth, separation along the normal, point. */
static void check_round_overlap(const round_case* rc, long double depth, lv n, lv p, const char* what)
{
    const core_path path = round_path(rc);
    const long double core = core_dist_at(&path, 0);
    const long double reach = rc->ra + rc->skin;
    FZ_CHECK(core - reach <= rc->band, "%s: overlap reported, but A is %Lg from B (skin %Lg, tol %Lg)", what,
             core - reach, rc->skin, rc->tol);
    const bool point_core = lv_dot(lv_sub(rc->a1, rc->a0), lv_sub(rc->a1, rc->a0)) == 0;
    if (core > rc->band || (point_core && rc->B.solid)) {
        /* Outside B's core (or a point core): the exact depth. */
        FZ_CHECK(fabsl(depth - (reach - core)) <= rc->slack, "%s: depth %.17Lg, exact %.17Lg (tol %Lg)", what, depth,
                 reach - core, rc->tol);
    } else {
        FZ_CHECK(depth >= reach - core - rc->slack, "%s: depth %.17Lg below A's deepest reach %.17Lg (tol %Lg)", what,
                 depth, reach - core, rc->tol);
        FZ_CHECK(depth <= depth_upper_bound(rc) + rc->slack,
                 "%s: depth %.17Lg, but a face normal separates with %.17Lg (tol %Lg)", what, depth,
                 depth_upper_bound(rc), rc->tol);
    }
    core_path moved = path;
    moved.a0 = lv_madd(rc->a0, depth, n);
    const long double after = core_dist_at(&moved, 0) - reach;
    FZ_CHECK(after >= -rc->slack, "%s: moved by depth along the normal, A is still %Lg inside B (+ skin) (tol %Lg)",
             what, -after, rc->tol);
    const long double in_a = outside_round(rc, p, 0);
    const long double in_b = body_dist(&rc->B, p) - rc->skin;
    FZ_CHECK(in_a <= rc->slack && in_b <= rc->slack, "%s: the point is %Lg outside A and %Lg outside B (tol %Lg)", what,
             in_a, in_b, rc->tol);
}

static void check_round_hit(const round_case* rc, const sw_hit* h, const char* what)
{
    const core_path path = round_path(rc);
    const long double reach = rc->ra + rc->skin;
    const long double dlen = lv_len(rc->d);
    const bool one_sided = rc->B.one_sided;
    const long double start = core_dist_at(&path, 0) - reach;
    if (!h->hit) {
        if (one_sided || (rc->ignore_separating && start <= rc->band)) {
            return;
        }
        FZ_CHECK(start >= -rc->band, "%s: miss, but A starts %Lg inside B (+ skin) (tol %Lg)", what, -start, rc->tol);
        const long double closest = swept_dist(&path, 0, rc->tmax) - reach;
        FZ_CHECK(closest >= -rc->band, "%s: miss, but on its way A comes %Lg inside B (+ skin) (tol %Lg)", what,
                 -closest, rc->tol);
        return;
    }
    const lv n = lv_of(h->normal), p = lv_of(h->point);
    if (h->overlapping) {
        FZ_CHECK(!one_sided || start >= -rc->band,
                 "%s: a one-sided face that A starts overlapping (by %Lg) must be ignored (tol %Lg)", what, -start,
                 rc->tol);
        if (rc->ignore_separating) {
            FZ_CHECK(lv_dot(rc->d, n) < 2e-3L * dlen,
                     "%s: ignore_separating, but the reported start contact has d.n = %Lg >= 0 (|d| = %Lg)", what,
                     lv_dot(rc->d, n), dlen);
        }
        check_round_overlap(rc, h->depth, n, p, what);
        return;
    }
    const long double t = h->t;
    if (!one_sided) {
        FZ_CHECK(start >= -rc->band, "%s: a contact at t = %.17Lg, but A starts %Lg inside B (+ skin) (tol %Lg)", what,
                 t, -start, rc->tol);
    }
    const long double at = core_dist_at(&path, t) - reach;
    FZ_CHECK(fabsl(at) <= rc->slack, "%s: at t = %.17Lg A is %Lg from touching B (+ skin) (tol %Lg)", what, t, at,
             rc->tol);
    if (!one_sided && t > 0) {
        const long double before = swept_dist(&path, 0, t) - reach;
        FZ_CHECK(before >= -rc->slack, "%s: before t = %.17Lg, A comes %Lg inside B (+ skin) (tol %Lg)", what, t,
                 -before, rc->tol);
    }
    const long double from_a = outside_round(rc, p, t);
    const long double from_b = fmaxl(body_dist(&rc->B, p), 0);
    FZ_CHECK(from_a <= rc->slack, "%s: the point is %Lg outside A(t) (tol %Lg)", what, from_a, rc->tol);
    FZ_CHECK(fabsl(from_b - rc->skin) <= rc->slack, "%s: the point is %Lg from B, the skin is %Lg (tol %Lg)", what,
             from_b, rc->skin, rc->tol);
    /* Separating plane through the point: B (+ skin) below, A(t) above. */
    const long double np = lv_dot(n, p);
    if (rc->B.type == SW_SHAPE_PLANE) {
        const long double angle = lv_angle(n, rc->B.n);
        FZ_CHECK(angle <= FZ_ANGLE + 2 * FZ_UNIT_TOL, "%s: the normal is %Lg rad from the plane's", what, angle);
    } else {
        const long double b_top = body_support(&rc->B, n) + rc->skin;
        FZ_CHECK(b_top <= np + rc->slack, "%s: the normal is no separating plane: B (+ skin) reaches %Lg beyond it",
                 what, b_top - np);
    }
    const lv a0 = lv_madd(rc->a0, t, rc->d), a1 = lv_madd(rc->a1, t, rc->d);
    const long double a_low = fminl(lv_dot(n, a0), lv_dot(n, a1)) - rc->ra;
    FZ_CHECK(a_low >= np - rc->slack, "%s: the normal is no separating plane: A(t) reaches %Lg below it (tol %Lg)",
             what, np - a_low, rc->tol);
    /* At a first contact A approaches: d.n <= 0 for the exact normal, which
     * a stable one (a reach across the contact, a move, both well above
     * tol) matches to 1e-3 rad. */
    if (reach >= FZ_STABLE * rc->tol && dlen >= FZ_STABLE * rc->tol) {
        FZ_CHECK(lv_dot(rc->d, n) <= 2e-3L * dlen,
                 "%s: A moves away from the normal at first contact (d.n = %Lg, |d| = %Lg)", what, lv_dot(rc->d, n),
                 dlen);
    }
    if (one_sided) {
        FZ_CHECK(lv_dot(rc->d, rc->B.n) <= 1e-3L * dlen && lv_dot(n, rc->B.n) >= -1e-3L,
                 "%s: a one-sided face hit from behind (d.front = %Lg, normal.front = %Lg)", what,
                 lv_dot(rc->d, rc->B.n), lv_dot(n, rc->B.n));
    }
}

/* Hulls have no long-double model here: the differential engine's
 * reference checks them (tests/diff); the fuzz targets give them the
 * geometry-free and bounding-box checks only. */
static bool modelled(const sw_shape* b) { return b->type != SW_SHAPE_HULL; }

void fz_check_round_sweep(const sw_capsule* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt,
                          const sw_hit* h)
{
    if (!modelled(b)) {
        return;
    }
    round_case rc;
    round_case_make(&rc, a, d, 1, b, opt ? opt->skin : 0, opt && opt->ignore_separating);
    check_round_hit(&rc, h, "sweep");
}

/* A ray that crosses a flat shape's interior at a clear angle, clear of
 * its edges and of the ray's ends, must hit it. */
static void check_flat_crossing(const round_case* rc, const sw_hit* h)
{
    const body* B = &rc->B;
    const long double dn = lv_dot(rc->d, B->n), dlen = lv_len(rc->d);
    if (h->hit || lv_dot(B->n, B->n) == 0 || dlen == 0 || fabsl(dn) < 0.1L * dlen) {
        return;
    }
    if (B->one_sided && dn >= 0) {
        return;
    }
    const long double tc = lv_dot(B->n, lv_sub(B->v[0], rc->a0)) / dn;
    const long double margin = rc->band / (fabsl(dn) / dlen);
    if (!(tc * dlen >= margin && (rc->tmax - tc) * dlen >= margin)) {
        return;
    }
    const lv x = lv_madd(rc->a0, tc, rc->d);
    for (int i = 0; i < B->count; ++i) {
        const lv e0 = B->v[i], e1 = B->v[(i + 1) % B->count];
        const lv edge = lv_sub(e1, e0);
        const long double len = lv_len(edge);
        if (len == 0) {
            continue;
        }
        if (lv_dot(lv_cross(edge, lv_sub(x, e0)), B->n) / len < margin) {
            return;
        }
    }
    fz_fail(__FILE__, __LINE__, "raycast: miss, but the ray crosses the %s at t = %.17Lg, %Lg inside its edges",
            sw_shape_type_name(B->type), tc, margin);
}

void fz_check_raycast_shape(const sw_ray* ray, const sw_shape* b, const sw_hit* h)
{
    if (!modelled(b)) {
        return;
    }
    const sw_capsule origin = {ray->origin, ray->origin, 0};
    round_case rc;
    round_case_make(&rc, &origin, ray->dir, ray->max, b, 0, false);
    FZ_CHECK(!h->overlapping || !rc.B.one_sided, "raycast: a one-sided face never reports an origin on it");
    check_round_hit(&rc, h, "raycast");
    if (!rc.B.solid) {
        check_flat_crossing(&rc, h);
    }
}

void fz_check_overlap_round(const sw_capsule* a, const sw_shape* b, const sw_overlap_result* r)
{
    if (!modelled(b)) {
        return;
    }
    round_case rc;
    round_case_make(&rc, a, sw_v3(0, 0, 0), 1, b, 0, false);
    const core_path path = round_path(&rc);
    const long double dist = core_dist_at(&path, 0) - rc.ra;
    if (!r->overlapping) {
        FZ_CHECK(dist >= -rc.band, "overlap: none reported, but A is %Lg inside B (tol %Lg)", -dist, rc.tol);
        return;
    }
    check_round_overlap(&rc, r->depth, lv_of(r->normal), lv_of(r->point), "overlap");
}

void fz_check_distance_round(const sw_capsule* a, const sw_shape* b, const sw_distance_result* r)
{
    if (!modelled(b)) {
        return;
    }
    round_case rc;
    round_case_make(&rc, a, sw_v3(0, 0, 0), 1, b, 0, false);
    const core_path path = round_path(&rc);
    const long double gap = fmaxl(core_dist_at(&path, 0) - rc.ra, 0);
    FZ_CHECK(fabsl(r->distance - gap) <= rc.slack, "distance %.17g, exact %.17Lg (error %Lg, tol %Lg)",
             (double)r->distance, gap, r->distance - gap, rc.tol);
    const lv pa = lv_of(r->point_a), pb = lv_of(r->point_b);
    const long double out_a = outside_round(&rc, pa, 0), out_b = body_dist(&rc.B, pb);
    FZ_CHECK(out_a <= rc.slack && out_b <= rc.slack, "point_a is %Lg outside A, point_b %Lg outside B (tol %Lg)", out_a,
             out_b, rc.tol);
    const long double between = lv_len(lv_sub(pb, pa));
    FZ_CHECK(fabsl(between - r->distance) <= rc.slack,
             "the closest points are %Lg apart, the distance is %.17g (tol %Lg)", between, (double)r->distance, rc.tol);
}
