/* Fuzz target: arbitrary pairs of sw_shape (every type, out-of-range type
 * values, invalid numbers) through every dispatch entry point: sw_sweep
 * (and its mirror, B swept by -d against A), sw_raycast, sw_sweep_inside,
 * sw_overlap, sw_distance, plus the bounds and support functions.
 *
 * Every result gets the geometry-free checks and, whatever the pair, checks
 * against the shapes' bounding boxes (a contact point lies in both shapes'
 * bounds, a distance is at least the boxes' gap, a depth at most what
 * separates the boxes). Pairs with a long-double reference (balls,
 * capsules, containment) are checked against it as well.
 *
 * Input: header, shape a, shape b, displacement d, options, then the ray
 * (origin, dir, max) cast against b. */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "oracle.h"

static struct {
    sw_shape a, b;
    sw_vec3 d;
    sw_sweep_options opt_storage;
    const sw_sweep_options* opt;
    sw_ray ray;
    const char* query;
} cur;

static void describe(FILE* out)
{
    fprintf(out, "  while checking %s\n", cur.query);
    fz_print_shape(out, "a", &cur.a);
    fz_print_vec3(out, "d", cur.d);
    fz_print_shape(out, "b", &cur.b);
    fz_print_options(out, cur.opt);
    fz_print_vec3(out, "ray.origin", cur.ray.origin);
    fz_print_vec3(out, "ray.dir", cur.ray.dir);
    fz_print_real(out, "ray.max", cur.ray.max);
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    (void)argc;
    (void)argv;
    fz_init(describe);
    return 0;
}

/* ---- bounding boxes in long double ------------------------------------------ */

typedef struct box_ld {
    long double min[3], max[3];
} box_ld;

static long double comp(sw_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

/* The shape's bounds, moved by t * d and grown by margin. */
static box_ld bounds_of(const sw_shape* s, long double t, sw_vec3 d, long double margin)
{
    const sw_aabb bb = sw_shape_bounds(s);
    box_ld r;
    for (int k = 0; k < 3; ++k) {
        r.min[k] = comp(bb.min, k) + t * comp(d, k) - margin;
        r.max[k] = comp(bb.max, k) + t * comp(d, k) + margin;
    }
    return r;
}

/* How far p lies outside the box (0 inside). */
static long double outside(const box_ld* b, sw_vec3 p)
{
    long double worst = 0;
    for (int k = 0; k < 3; ++k) {
        worst = fmaxl(worst, fmaxl(b->min[k] - comp(p, k), comp(p, k) - b->max[k]));
    }
    return worst;
}

static const sw_vec3 zero = {0, 0, 0};

/* A plane's bounds are the whole valid range, not its extent: the checks
 * by bounding boxes leave it out. */
static bool bounded(const sw_shape* s) { return s->type != SW_SHAPE_PLANE; }

static long double pair_scale(void)
{
    long double s = fz_scale_shape(fz_scale_shape(0, &cur.a), &cur.b);
    s = fz_scale_vec3(s, cur.d);
    return cur.opt ? fz_scale_real(s, cur.opt->skin) : s;
}

/* Bounds are finite and ordered, and tight: the support point along each
 * axis reaches the bound on that axis. */
static void check_bounds_and_support(const sw_shape* s, sw_vec3 dir)
{
    const long double tol = fz_tol(fz_scale_shape(0, s)), slack = FZ_SLACK * tol;
    const sw_aabb bb = sw_shape_bounds(s);
    const box_ld box = bounds_of(s, 0, zero, slack);
    for (int k = 0; k < 3; ++k) {
        FZ_CHECK(isfinite(comp(bb.min, k)) && isfinite(comp(bb.max, k)) && comp(bb.min, k) <= comp(bb.max, k),
                 "bounds on axis %d are [%.17g, %.17g]", k, (double)comp(bb.min, k), (double)comp(bb.max, k));
        sw_vec3 e = zero;
        for (int sign = -1; sign <= 1; sign += 2) {
            if (k == 0) {
                e.x = (sw_real)sign;
            } else if (k == 1) {
                e.y = (sw_real)sign;
            } else {
                e.z = (sw_real)sign;
            }
            const sw_vec3 p = sw_shape_support(s, e);
            const long double bound = sign > 0 ? comp(bb.max, k) : comp(bb.min, k);
            FZ_CHECK(fabsl(comp(p, k) - bound) <= slack, "the support along %+d axis %d reaches %.17g, bound %.17Lg",
                     sign, k, (double)comp(p, k), bound);
            FZ_CHECK(outside(&box, p) == 0, "the support point along %+d axis %d is outside the bounds", sign, k);
        }
    }
    if (sw_is_valid_vec3(dir)) {
        const sw_vec3 p = sw_shape_support(s, dir);
        FZ_CHECK(outside(&box, p) <= 0, "the support point along the decoded dir is %Lg outside the bounds",
                 outside(&box, p));
    }
}

/* ---- the dispatch entry points ------------------------------------------------ */

static bool is_round(const sw_shape* s, sw_sphere* out)
{
    if (s->type == SW_SHAPE_POINT || s->type == SW_SHAPE_SPHERE) {
        out->center = s->type == SW_SHAPE_POINT ? s->point : s->sphere.center;
        out->radius = s->type == SW_SHAPE_POINT ? 0 : s->sphere.radius;
        return true;
    }
    return false;
}

/* A sweep hit's point lies in B's bounds grown by the skin and in A's
 * bounds moved to time t. */
static void check_sweep_point(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_hit* h, long double skin)
{
    const long double slack = FZ_SLACK * fz_tol(pair_scale());
    const box_ld in_b = bounds_of(b, 0, zero, skin + slack);
    const box_ld in_a = bounds_of(a, h->t, d, slack);
    FZ_CHECK(outside(&in_b, h->point) == 0 && outside(&in_a, h->point) == 0,
             "the point is %Lg outside B's bounds (+ skin) and %Lg outside A(t)'s", outside(&in_b, h->point),
             outside(&in_a, h->point));
}

static sw_hit check_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, bool valid)
{
    fz_begin_query();
    const sw_hit h = sw_sweep(a, d, b, cur.opt);
    fz_check_hit(&h, valid, sw_sweep_supported(a->type, b->type), 1);
    if (!valid || h.status != SW_OK) {
        return h;
    }
    const sw_real skin = cur.opt ? cur.opt->skin : 0;
    if (h.hit && bounded(a) && bounded(b)) {
        check_sweep_point(a, d, b, &h, skin);
    }
    sw_capsule ca;
    if (fz_as_capsule(a, &ca)) {
        fz_check_round_sweep(&ca, d, b, cur.opt, &h);
    }
    sw_sphere sa, sb;
    if (is_round(a, &sa) && is_round(b, &sb)) {
        const fz_ball_cast cast = {
            .c0 = sa.center,
            .v = d,
            .tmax = 1,
            .ra = sa.radius,
            .cb = sb.center,
            .rb = sb.radius,
            .skin = skin,
            .ignore_separating = cur.opt && cur.opt->ignore_separating,
        };
        fz_check_ball_cast(&cast, &h);
    }
    return h;
}

/* B swept by -d against A meets A when A swept by d meets B: the same t
 * (each within its tolerance), unless the approach is shallow, where §3
 * lets t slide along the grazing path. */
static void check_mirrored_sweeps(const sw_hit* h, const sw_hit* m)
{
    if (h->status != SW_OK || m->status != SW_OK || !h->hit || !m->hit || h->overlapping || m->overlapping) {
        return;
    }
    long double dd = 0, hn = 0, mn = 0;
    for (int k = 0; k < 3; ++k) {
        dd += (long double)comp(cur.d, k) * comp(cur.d, k);
        hn += (long double)comp(cur.d, k) * comp(h->normal, k);
        mn += (long double)comp(cur.d, k) * comp(m->normal, k);
    }
    const long double len = sqrtl(dd);
    if (fabsl(hn) < 0.1L * len || fabsl(mn) < 0.1L * len) {
        return;
    }
    const long double tol = fz_tol(pair_scale());
    FZ_CHECK(fabsl((long double)h->t - m->t) * len <= 2 * FZ_SLACK * tol,
             "A swept against B hits at t = %.17g, B swept by -d against A at t = %.17g (|d| = %Lg, tol %Lg)",
             (double)h->t, (double)m->t, len, tol);
}

static sw_hit check_raycast(bool shapes_valid)
{
    const sw_shape* b = &cur.b;
    const bool valid = shapes_valid && sw_is_valid_ray(&cur.ray);
    fz_begin_query();
    const sw_hit h = sw_raycast(&cur.ray, b);
    fz_check_hit(&h, valid, sw_raycast_supported(b->type), valid ? cur.ray.max : 0);
    if (!valid || h.status != SW_OK) {
        return h;
    }
    if (h.hit && bounded(b)) {
        long double scale = fz_scale_shape(fz_scale_vec3(0, cur.ray.origin), b);
        scale = fz_scale_vec3(scale, sw_scale(cur.ray.dir, cur.ray.max));
        const long double slack = FZ_SLACK * fz_tol(scale);
        const box_ld in_b = bounds_of(b, 0, zero, slack);
        const box_ld on_ray = {
            {cur.ray.origin.x + h.t * (long double)cur.ray.dir.x - slack,
             cur.ray.origin.y + h.t * (long double)cur.ray.dir.y - slack,
             cur.ray.origin.z + h.t * (long double)cur.ray.dir.z - slack},
            {cur.ray.origin.x + h.t * (long double)cur.ray.dir.x + slack,
             cur.ray.origin.y + h.t * (long double)cur.ray.dir.y + slack,
             cur.ray.origin.z + h.t * (long double)cur.ray.dir.z + slack},
        };
        FZ_CHECK(outside(&in_b, h.point) == 0 && outside(&on_ray, h.point) == 0,
                 "the ray's hit point is %Lg outside B's bounds and %Lg off the ray", outside(&in_b, h.point),
                 outside(&on_ray, h.point));
    }
    sw_sphere sb;
    if (is_round(b, &sb)) {
        const fz_ball_cast cast = {
            .c0 = cur.ray.origin, .v = cur.ray.dir, .tmax = cur.ray.max, .cb = sb.center, .rb = sb.radius};
        fz_check_ball_cast(&cast, &h);
    }
    fz_check_raycast_shape(&cur.ray, b, &h);
    return h;
}

static void check_sweep_inside(bool valid)
{
    const sw_shape *a = &cur.a, *b = &cur.b;
    fz_begin_query();
    const sw_hit h = sw_sweep_inside(a, cur.d, b);
    fz_check_hit(&h, valid, sw_sweep_inside_supported(a->type, b->type), 1);
    if (!valid || h.status != SW_OK) {
        return;
    }
    if (h.hit && !h.overlapping && bounded(a) && bounded(b)) {
        check_sweep_point(a, cur.d, b, &h, 0);
    }
    sw_sphere sa;
    if (is_round(a, &sa) && b->type == SW_SHAPE_SPHERE) {
        fz_check_inside_sphere(&sa, cur.d, &b->sphere, &h);
    } else if (is_round(a, &sa) && b->type == SW_SHAPE_BOX) {
        fz_check_inside_box(&sa, cur.d, &b->box, &h);
    }
}

static void check_overlap(const sw_shape* a, const sw_shape* b, bool valid)
{
    fz_begin_query();
    const sw_overlap_result r = sw_overlap(a, b);
    fz_check_overlap(&r, valid, sw_overlap_supported(a->type, b->type));
    if (!valid || r.status != SW_OK) {
        return;
    }
    if (r.overlapping && bounded(a) && bounded(b)) {
        const long double slack = FZ_SLACK * fz_tol(pair_scale());
        const box_ld ba = bounds_of(a, 0, zero, slack), bb = bounds_of(b, 0, zero, slack);
        FZ_CHECK(outside(&ba, r.point) == 0 && outside(&bb, r.point) == 0,
                 "the overlap point is %Lg outside A's bounds and %Lg outside B's", outside(&ba, r.point),
                 outside(&bb, r.point));
        /* Moving A along an axis until the boxes part separates the shapes:
         * the penetration depth is at most the shortest such move. */
        const box_ld ta = bounds_of(a, 0, zero, 0), tb = bounds_of(b, 0, zero, 0);
        long double most = INFINITY;
        for (int k = 0; k < 3; ++k) {
            most = fminl(most, fminl(ta.max[k] - tb.min[k], tb.max[k] - ta.min[k]));
        }
        FZ_CHECK(r.depth <= fmaxl(most, 0) + slack, "depth %.17g, but moving A by %.17Lg along an axis separates",
                 (double)r.depth, most);
    }
    sw_capsule ca, cb;
    if (fz_as_capsule(a, &ca)) {
        fz_check_overlap_round(&ca, b, &r);
    } else if (fz_as_capsule(b, &cb)) {
        sw_overlap_result m = r;
        m.normal = sw_neg(m.normal);
        fz_check_overlap_round(&cb, a, &m);
    }
}

static void check_distance(const sw_shape* a, const sw_shape* b, bool valid)
{
    fz_begin_query();
    const sw_distance_result r = sw_distance(a, b);
    fz_check_distance(&r, valid, sw_distance_supported(a->type, b->type));
    if (!valid || r.status != SW_OK) {
        return;
    }
    sw_capsule ca, cb;
    if (fz_as_capsule(a, &ca)) {
        fz_check_distance_round(&ca, b, &r);
    } else if (fz_as_capsule(b, &cb)) {
        sw_distance_result m = r;
        m.point_a = r.point_b;
        m.point_b = r.point_a;
        fz_check_distance_round(&cb, a, &m);
    }
    if (!bounded(a) || !bounded(b)) {
        return;
    }
    const long double slack = FZ_SLACK * fz_tol(pair_scale());
    const box_ld ba = bounds_of(a, 0, zero, slack), bb = bounds_of(b, 0, zero, slack);
    FZ_CHECK(outside(&ba, r.point_a) == 0 && outside(&bb, r.point_b) == 0,
             "point_a is %Lg outside A's bounds, point_b %Lg outside B's", outside(&ba, r.point_a),
             outside(&bb, r.point_b));
    /* The boxes' gap is a lower bound of the distance. */
    const box_ld ta = bounds_of(a, 0, zero, 0), tb = bounds_of(b, 0, zero, 0);
    long double gap_sq = 0;
    for (int k = 0; k < 3; ++k) {
        const long double g = fmaxl(0, fmaxl(tb.min[k] - ta.max[k], ta.min[k] - tb.max[k]));
        gap_sq += g * g;
    }
    FZ_CHECK(r.distance >= sqrtl(gap_sq) - slack, "distance %.17g below the bounds' gap %.17Lg", (double)r.distance,
             sqrtl(gap_sq));
}

/* Whether two answers are the same, bit for bit. */
static bool same_hit(const sw_hit* p, const sw_hit* q)
{
    return p->status == q->status && p->hit == q->hit && p->overlapping == q->overlapping &&
           memcmp(&p->t, &q->t, sizeof p->t) == 0 && memcmp(&p->depth, &q->depth, sizeof p->depth) == 0 &&
           memcmp(&p->point, &q->point, sizeof p->point) == 0 &&
           memcmp(&p->normal, &q->normal, sizeof p->normal) == 0 && p->feature.kind == q->feature.kind &&
           p->feature.index == q->feature.index;
}

/* A polygon prepared once (sw_polygon_prepare) is refused when validation
 * refuses it, and otherwise answers the sweep and the ray cast exactly as
 * the same polygon unprepared (h and r: their answers). */
static void check_prepared(const sw_hit* h, const sw_hit* r)
{
    sw_shape s[2] = {cur.a, cur.b};
    sw_polygon_prep* prep[2] = {NULL, NULL};
    for (int k = 0; k < 2; ++k) {
        if (s[k].type != SW_SHAPE_POLYGON) {
            continue;
        }
        const char* why = NULL;
        prep[k] = sw_polygon_prepare(s[k].polygon.v, s[k].polygon.count, &why);
        const char* reason = sw_shape_invalid_reason(&s[k]);
        FZ_CHECK((prep[k] == NULL) == (reason != NULL), "sw_polygon_prepare says %s, validation %s",
                 why ? why : "valid", reason ? reason : "valid");
        if (prep[k]) {
            s[k] = sw_make_prepared_polygon(prep[k], s[k].polygon.one_sided);
        }
    }
    if (prep[0] || prep[1]) {
        const sw_hit hp = sw_sweep(&s[0], cur.d, &s[1], cur.opt);
        FZ_CHECK(same_hit(&hp, h), "the sweep's answer with the polygon prepared differs (t %.17g, not %.17g)",
                 (double)hp.t, (double)h->t);
    }
    if (prep[1]) {
        const sw_hit rp = sw_raycast(&cur.ray, &s[1]);
        FZ_CHECK(same_hit(&rp, r), "the ray cast's answer with the polygon prepared differs (t %.17g, not %.17g)",
                 (double)rp.t, (double)r->t);
    }
    sw_polygon_prep_destroy(prep[0]);
    sw_polygon_prep_destroy(prep[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fz_in in;
    fz_begin(&in, data, size);
    cur.a = fz_shape(&in);
    cur.b = fz_shape(&in);
    cur.d = fz_vec3(&in);
    cur.opt = fz_options(&in, &cur.opt_storage);
    cur.ray = fz_ray(&in);

    const sw_shape *a = &cur.a, *b = &cur.b;
    const bool a_valid = sw_is_valid_shape(a), b_valid = sw_is_valid_shape(b);
    const bool both = a_valid && b_valid;
    const bool moving = sw_is_valid_vec3(cur.d) && (!cur.opt || sw_is_valid_sweep_options(cur.opt));

    /* A plane is unbounded: its bounds are the whole range and its support
     * point is fixed. */
    cur.query = "bounds and support of a";
    if (a_valid && a->type != SW_SHAPE_PLANE) {
        check_bounds_and_support(a, cur.ray.dir);
    }
    cur.query = "bounds and support of b";
    if (b_valid && b->type != SW_SHAPE_PLANE) {
        check_bounds_and_support(b, cur.ray.dir);
    }
    /* A half-space cannot move (DESIGN.md §2): bad input. */
    cur.query = "sw_sweep(a, d, b)";
    const sw_hit h = check_sweep(a, cur.d, b, both && moving && a->type != SW_SHAPE_PLANE);
    cur.query = "sw_sweep(b, -d, a)";
    const sw_hit m = check_sweep(b, sw_neg(cur.d), a, both && moving && b->type != SW_SHAPE_PLANE);
    cur.query = "sw_sweep(a, d, b) against sw_sweep(b, -d, a)";
    check_mirrored_sweeps(&h, &m);
    cur.query = "sw_raycast(ray, b)";
    const sw_hit r = check_raycast(b_valid);
    cur.query = "sw_sweep(a, d, b) and sw_raycast(ray, b) with polygons prepared";
    check_prepared(&h, &r);
    cur.query = "sw_sweep_inside(a, d, b)";
    check_sweep_inside(both && sw_is_valid_vec3(cur.d));
    cur.query = "sw_overlap(a, b)";
    check_overlap(a, b, both);
    cur.query = "sw_overlap(b, a)";
    check_overlap(b, a, both);
    cur.query = "sw_distance(a, b)";
    check_distance(a, b, both);
    cur.query = "sw_distance(b, a)";
    check_distance(b, a, both);
    return 0;
}
