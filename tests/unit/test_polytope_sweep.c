/* Polytope sweeps held to DESIGN §3 against the independent long-double
 * reference of ref_polytope.h: a moving box or hull against a box, hull,
 * triangle or polygon (two-sided and one-sided), seeded random and
 * adversarial cases per pair (rotated, flat, long thin, tiny next to huge,
 * far from the origin, grazing within and just outside the band, sliding
 * along a face, touching at t = 0, deep overlap, zero displacement, from
 * behind a one-sided face), named cases with hand-known answers, overlap
 * of polytope pairs, and boxes and hulls against planes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_support.h"
#include "ref_polytope.h"

/* ---- cases -------------------------------------------------------------------- */

#define MAX_PTS 64

/* Storage behind one shape: a polygon's vertices or a hull's input points
 * (local frame) and the built hull. */
typedef struct slot {
    sw_vec3 pts[MAX_PTS];
    int npts;
    sw_hull* hull;
    const char* what; /* the generator's kind of hull, for the reports */
} slot;

typedef struct tcase {
    sw_shape a, b;
    sw_vec3 d;
    slot sa, sb;
} tcase;

typedef enum kind { K_BOX, K_HULL, K_TRI, K_POLY } kind;

static void free_case(tcase* c)
{
    sw_hull_destroy(c->sa.hull);
    sw_hull_destroy(c->sb.hull);
    c->sa.hull = c->sb.hull = NULL;
}

/* Worst errors of a pair, in units of tau = tol * scale (the normal in
 * radians), and the counts of what was exercised. */
typedef struct stats {
    const char* name;
    int cases, hits, overlaps, misses, band, unique, failures, printed;
    double t, point, plane, depth, feature, angle;
} stats;

static void print_vec(FILE* f, sw_vec3 v)
{
    fprintf(f, "[" SWT_REAL_FMT "," SWT_REAL_FMT "," SWT_REAL_FMT "]", v.x, v.y, v.z);
}

static void print_shape_json(FILE* f, const sw_shape* s)
{
    switch (s->type) {
    case SW_SHAPE_BOX:
        fprintf(f, "{\"type\":\"box\",\"center\":");
        print_vec(f, s->box.center);
        fprintf(f, ",\"half\":");
        print_vec(f, s->box.half);
        fprintf(f, ",\"rotation\":[" SWT_REAL_FMT "," SWT_REAL_FMT "," SWT_REAL_FMT "," SWT_REAL_FMT "]}",
                s->box.rotation.x, s->box.rotation.y, s->box.rotation.z, s->box.rotation.w);
        break;
    case SW_SHAPE_HULL: {
        /* World points (rounded: the C initialiser below is exact). */
        fprintf(f, "{\"type\":\"hull\",\"points\":[");
        const sw_hull* h = s->hull.hull;
        sw_quat q = s->hull.rotation;
        sw_quat_normalize(&q);
        for (int i = 0; i < h->vertex_count; ++i) {
            fprintf(f, i ? "," : "");
            print_vec(f, sw_add(sw_quat_rotate(q, h->vertices[i]), s->hull.position));
        }
        fprintf(f, "]}");
        break;
    }
    case SW_SHAPE_TRIANGLE:
    case SW_SHAPE_POLYGON: {
        const bool tri = s->type == SW_SHAPE_TRIANGLE;
        const int n = tri ? 3 : s->polygon.count;
        const sw_vec3* v = tri ? s->triangle.v : s->polygon.v;
        fprintf(f, "{\"type\":\"%s\",\"v\":[", tri ? "triangle" : "polygon");
        for (int i = 0; i < n; ++i) {
            fprintf(f, i ? "," : "");
            print_vec(f, v[i]);
        }
        fprintf(f, "],\"one_sided\":%s}", (tri ? s->triangle.one_sided : s->polygon.one_sided) ? "true" : "false");
        break;
    }
    case SW_SHAPE_PLANE:
        fprintf(f, "{\"type\":\"plane\",\"normal\":");
        print_vec(f, s->plane.normal);
        fprintf(f, ",\"offset\":" SWT_REAL_FMT "}", s->plane.offset);
        break;
    default:
        fprintf(f, "{}");
    }
}

static void print_hull_c(FILE* f, const char* name, const sw_shape* s, const slot* sl)
{
    if (s->type != SW_SHAPE_HULL) {
        return;
    }
    fprintf(f, "  %s: sw_hull_create of {", name);
    for (int i = 0; i < sl->npts; ++i) {
        fprintf(f, "%s{" SWT_REAL_FMT ", " SWT_REAL_FMT ", " SWT_REAL_FMT "}", i ? ", " : "", sl->pts[i].x,
                sl->pts[i].y, sl->pts[i].z);
    }
    fprintf(f,
            "} (%d points, %s), position {" SWT_REAL_FMT ", " SWT_REAL_FMT ", " SWT_REAL_FMT
            "}, rotation {" SWT_REAL_FMT ", " SWT_REAL_FMT ", " SWT_REAL_FMT ", " SWT_REAL_FMT "}\n",
            sl->npts, sl->what ? sl->what : "", s->hull.position.x, s->hull.position.y, s->hull.position.z,
            s->hull.rotation.x, s->hull.rotation.y, s->hull.rotation.z, s->hull.rotation.w);
}

static void print_case(const tcase* c, const char* op)
{
    fprintf(stdout, "  {\"op\":\"%s\",\"a\":", op);
    print_shape_json(stdout, &c->a);
    if (strcmp(op, "sweep") == 0) {
        fprintf(stdout, ",\"d\":");
        print_vec(stdout, c->d);
    }
    fprintf(stdout, ",\"b\":");
    print_shape_json(stdout, &c->b);
    fprintf(stdout, "}\n");
    print_hull_c(stdout, "a", &c->a, &c->sa);
    print_hull_c(stdout, "b", &c->b, &c->sb);
}

static void print_hit(const sw_hit* h)
{
    fprintf(stdout,
            "  library: hit %d overlapping %d t " SWT_REAL_FMT " depth " SWT_REAL_FMT " point [" SWT_REAL_FMT
            "," SWT_REAL_FMT "," SWT_REAL_FMT "] normal [" SWT_REAL_FMT "," SWT_REAL_FMT "," SWT_REAL_FMT
            "] feature %d/%d\n",
            h->hit, h->overlapping, h->t, h->depth, h->point.x, h->point.y, h->point.z, h->normal.x, h->normal.y,
            h->normal.z, (int)h->feature.kind, h->feature.index);
}

static void print_ref(const rp_sweep_result* r, double tau)
{
    fprintf(stdout,
            "  reference: hit %d t %.17Lg g0/tau %.6Lg swept/tau %.6Lg normal [%.12Lg,%.12Lg,%.12Lg] unique %d "
            "slope %.6Lg normal0 [%.9Lg,%.9Lg,%.9Lg] unique0 %d tau %.3g\n",
            r->hit, r->t, r->g0 / tau, r->swept_sep / tau, r->normal.x, r->normal.y, r->normal.z, r->unique, r->slope,
            r->normal0.x, r->normal0.y, r->normal0.z, r->unique0, tau);
}

/* ---- the contract ---------------------------------------------------------------- */

static rp_poly g_pa, g_pb; /* large: kept out of the stack */

static const char* g_last_failure = ""; /* for a debugger */

static double angle_of(sw_vec3 n, ref_vec m) { return (double)rv_angle(rv_of(n), m); }

/* Records a failure; prints the first few in full. */
static bool fail_case(stats* st, const tcase* c, const char* op, const sw_hit* h, const rp_sweep_result* r, double tau,
                      const char* what, double value)
{
    ++st->failures;
    g_last_failure = what;
    if (st->printed < 40) {
        ++st->printed;
        fprintf(stdout, "%s: %s (%.6g)\n", st->name, what, value);
        print_case(c, op);
        if (h) {
            print_hit(h);
        }
        if (r) {
            print_ref(r, tau);
        }
    }
    return false;
}

#define FAIL(what, value) return fail_case(st, c, "sweep", &h, &R, tau, what, (double)(value))

/* The feature rule: the point lies within tau of the reported feature, and
 * a point within tau/4 of a vertex (edge) must name a vertex (a vertex or
 * an edge); between tau/4 and tau either answer is accepted. */
static const char* feature_violation(const rp_poly* B, sw_feature f, ref_vec p, double tau, double* dist)
{
    *dist = (double)rp_feature_distance(B, f.kind, f.index, p);
    if (!(*dist <= tau)) {
        return "point not within tau of the reported feature";
    }
    ref_real vd = INFINITY, ed = INFINITY;
    for (int i = 0; i < rp_feature_count(B, SW_FEATURE_VERTEX); ++i) {
        vd = fminl(vd, rp_feature_distance(B, SW_FEATURE_VERTEX, i, p));
    }
    for (int i = 0; i < rp_feature_count(B, SW_FEATURE_EDGE); ++i) {
        ed = fminl(ed, rp_feature_distance(B, SW_FEATURE_EDGE, i, p));
    }
    if (vd <= tau / 4 && f.kind != SW_FEATURE_VERTEX) {
        *dist = (double)vd;
        return "point within tau/4 of a vertex, vertex not reported";
    }
    if (ed <= tau / 4 && f.kind == SW_FEATURE_FACE) {
        *dist = (double)ed;
        return "point within tau/4 of an edge, face reported";
    }
    return NULL;
}

static double worst(double a, double b) { return b > a ? b : a; }

/* The sweep of c->a by c->d against c->b against the reference. */
static bool check_sweep(const tcase* c, stats* st)
{
    rp_poly* A = &g_pa;
    rp_poly* B = &g_pb;
    if (!rp_from_shape(&c->a, A) || !rp_from_shape(&c->b, B)) {
        fprintf(stdout, "%s: reference cannot model the case\n", st->name);
        print_case(c, "sweep");
        ++st->failures;
        return false;
    }
    const ref_vec d = rv_of(c->d);
    const double tau = SWT_TOL * (double)rp_scale(A, d, B);
    rp_sweep_result R;
    rp_sweep(A, d, B, tau, &R);
    const sw_hit h = sw_sweep(&c->a, c->d, &c->b, NULL);
    ++st->cases;
    if (h.status != SW_OK) {
        FAIL("status not OK", h.status);
    }
    const ref_real dlen = rv_len(d);

    /* hit / miss outside the grazing band */
    const bool one_sided = B->flat && B->one_sided;
    bool must_hit, must_miss;
    if (!one_sided) {
        must_hit = R.swept_sep < -tau;
        must_miss = R.swept_sep > tau;
    } else {
        const bool clear = R.g0 > tau;
        must_hit = R.swept_sep < -tau && R.hit && !R.one_sided_ambiguous && clear;
        must_miss = R.swept_sep > tau || R.g0 < -tau || (R.one_sided_reject && !R.one_sided_ambiguous && clear);
    }
    if (!must_hit && !must_miss) {
        ++st->band;
    }
    if (must_hit && !h.hit) {
        FAIL("miss where the exact hit survives every perturbation (swept depth/tau)", -R.swept_sep / tau);
    }
    if (must_miss && h.hit) {
        FAIL("hit where a miss is required (swept sep/tau or g0/tau)",
             R.swept_sep > tau ? R.swept_sep / tau : R.g0 / tau);
    }
    if (!h.hit) {
        ++st->misses;
        if (h.overlapping || h.t != 0 || h.depth != 0 || h.feature.kind != SW_FEATURE_NONE ||
            sw_max_abs(h.normal) != 0 || sw_max_abs(h.point) != 0) {
            FAIL("miss with fields set", 0);
        }
        return true;
    }
    ++st->hits;
    if (!one_sided && !R.hit) {
        /* In the band: the closest approach over [0, 1] is within tau. */
        const ref_real md = rp_min_signed_distance(A, d, B, 0, 1, tau);
        if (md > tau) {
            FAIL("hit where the closest distance exceeds tau (distance/tau)", md / tau);
        }
    }

    /* fields */
    if (!(h.t >= 0 && h.t <= 1)) {
        FAIL("t outside [0, 1]", h.t);
    }
    if (h.overlapping && h.t != 0) {
        FAIL("overlapping with t != 0", h.t);
    }
    if (!h.overlapping && h.depth != 0) {
        FAIL("depth of a hit that is no initial overlap", h.depth);
    }
    if (!(fabs(sw_length(h.normal) - 1) <= SWT_TOL)) {
        FAIL("normal not unit (|n| - 1)", sw_length(h.normal) - 1);
    }
    if (one_sided) {
        const ref_real dn = dlen > 0 ? rv_dot(d, B->front) / dlen : 0, nn = rv_dot(rv_of(h.normal), B->front);
        if (dn > 2e-3L || nn < -2e-3L) {
            FAIL("one-sided face hit against its rule (d.front or normal.front)", dn > 2e-3L ? dn : nn);
        }
    }
    const ref_vec p = rv_of(h.point);
    const ref_vec at = rv_scale(d, h.t);

    if (h.overlapping) {
        ++st->overlaps;
        if (R.g0 > tau) {
            FAIL("overlapping reported while apart (g0/tau)", R.g0 / tau);
        }
        if (R.g0 > 0) {
            const ref_real sd = rp_signed_distance(A, at, B, NULL, NULL);
            if (sd > tau) {
                FAIL("overlapping reported while apart (distance/tau)", sd / tau);
            }
        }
        const ref_real depth = fmaxl(0, -R.g0);
        const double derr = fabs((double)(h.depth - depth)) / tau;
        st->depth = worst(st->depth, derr);
        if (derr > 1) {
            FAIL("depth error/tau", derr);
        }
        if (R.unique0 && R.g0 < -tau) {
            const double ang = angle_of(h.normal, R.normal0);
            st->angle = worst(st->angle, ang);
            ++st->unique;
            if (ang > 1e-3) {
                FAIL("overlap normal angle (rad)", ang);
            }
        }
        /* Translating A by depth along the normal separates them (with the
         * slack a normal 1e-3 rad off leaves). */
        const ref_real after = rp_sep(A, rv_scale(rv_of(h.normal), h.depth), B, NULL);
        if (after < -(2 * tau + 5e-7 * h.depth)) {
            FAIL("translation by depth along the normal leaves them overlapping (sep/tau)", after / tau);
        }
        const double perr = (double)fmaxl(rp_point_sdist(A, at, p), rp_point_sdist(B, rv(0, 0, 0), p)) / tau;
        st->point = worst(st->point, perr);
        if (perr > 1) {
            FAIL("overlap point not in A and B (sdist/tau)", perr);
        }
        if (h.feature.kind == SW_FEATURE_NONE ||
            !(rp_feature_distance(B, h.feature.kind, h.feature.index, p) < INFINITY)) {
            FAIL("overlap feature does not exist", h.feature.kind);
        }
        return true;
    }

    /* time */
    bool timed = false;
    if (R.hit) {
        const double terr = (double)(fabsl(h.t - R.t) * dlen) / tau;
        if (terr <= 1) {
            st->t = worst(st->t, terr);
            timed = true;
        }
    }
    if (!timed) {
        const bool shallow = !R.hit || fabsl(R.slope) < 0.1L * dlen ||
                             (!R.unique && fabsl(rv_dot(rv_of(h.normal), d)) < 0.1L * dlen) ||
                             (R.t == 0 && fabsl(rv_dot(R.normal0, d)) < 0.1L * dlen);
        if (!shallow) {
            FAIL("time error |t - t_ref| |d| / tau", fabsl(h.t - R.t) * dlen / tau);
        }
        const ref_real sd = rp_signed_distance(A, at, B, NULL, NULL);
        if (fabsl(sd) > tau) {
            FAIL("shallow approach: A(t) not within tau of touching (sdist/tau)", sd / tau);
        }
        const ref_real before = rp_gmin_on(A, d, B, 0, h.t);
        if (before < -tau) {
            FAIL("shallow approach: penetrated before t (sep/tau)", before / tau);
        }
    }

    /* point */
    const double perr = (double)fmaxl(rp_point_sdist(A, at, p), rp_point_sdist(B, rv(0, 0, 0), p)) / tau;
    st->point = worst(st->point, perr);
    if (perr > 1) {
        FAIL("point not within tau of A(t) and B (sdist/tau)", perr);
    }

    /* normal */
    const ref_vec n = rv_of(h.normal);
    if (R.hit && (R.t > 0 ? R.unique : R.unique0)) {
        const double ang = angle_of(h.normal, R.t > 0 ? R.normal : R.normal0);
        st->angle = worst(st->angle, ang);
        ++st->unique;
        if (ang > 1e-3) {
            FAIL("normal angle (rad)", ang);
        }
    }
    const ref_real np = rv_dot(n, p);
    const ref_real below = rp_support(B, n) - np;
    const ref_real above = np - (rv_dot(n, at) - rp_support(A, rv_scale(n, -1)));
    const double plerr = (double)fmaxl(below, above) / tau;
    st->plane = worst(st->plane, plerr);
    if (plerr > 1) {
        FAIL("normal is no separating plane (violation/tau)", plerr);
    }

    /* feature */
    double fd = 0;
    const char* why = feature_violation(B, h.feature, p, tau, &fd);
    st->feature = worst(st->feature, fd / tau);
    if (why) {
        FAIL(why, fd / tau);
    }
    return true;
}

static void print_stats(const stats* st)
{
    fprintf(stdout,
            "%-22s cases %5d hits %5d (overlap %4d) misses %5d band %4d unique normals %5d | worst/tau: t %.3g "
            "point %.3g plane %.3g depth %.3g feature %.3g | normal %.3g rad | failures %d\n",
            st->name, st->cases, st->hits, st->overlaps, st->misses, st->band, st->unique, st->t, st->point, st->plane,
            st->depth, st->feature, st->angle, st->failures);
}

/* ---- generators ------------------------------------------------------------------- */

static sw_vec3 vd(double x, double y, double z) { return sw_v3((sw_real)x, (sw_real)y, (sw_real)z); }

static void rand_dir(swt_rng* r, double v[3]) { swt_rng_dir(r, v); }

static sw_vec3 rand_vec(swt_rng* r, double s)
{
    return vd(swt_rng_range(r, -s, s), swt_rng_range(r, -s, s), swt_rng_range(r, -s, s));
}

static sw_quat rand_quat(swt_rng* r)
{
    double q[4], len;
    do {
        len = 0;
        for (int i = 0; i < 4; ++i) {
            q[i] = swt_rng_range(r, -1, 1);
            len += q[i] * q[i];
        }
    } while (len > 1 || len < 1e-4);
    len = sqrt(len);
    return (sw_quat){(sw_real)(q[0] / len), (sw_real)(q[1] / len), (sw_real)(q[2] / len), (sw_real)(q[3] / len)};
}

/* Rotation taking unit a to unit b. */
static sw_quat quat_from_to(const double a[3], const double b[3])
{
    const double c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    double w = 1 + a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    double q[4] = {c[0], c[1], c[2], w};
    if (w < 1e-9) {
        /* Opposite: half a turn about any perpendicular. */
        const double p[3] = {fabs(a[0]) < 0.9 ? 0 : -a[1], fabs(a[0]) < 0.9 ? a[2] : a[0],
                             fabs(a[0]) < 0.9 ? -a[1] : 0};
        q[0] = p[0];
        q[1] = p[1];
        q[2] = p[2];
        q[3] = 0;
    }
    const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    return (sw_quat){(sw_real)(q[0] / len), (sw_real)(q[1] / len), (sw_real)(q[2] / len), (sw_real)(q[3] / len)};
}

static sw_quat identity(void) { return (sw_quat){0, 0, 0, 1}; }

static void make_box(swt_rng* r, sw_vec3 center, double size, sw_shape* out)
{
    double h[3];
    for (int k = 0; k < 3; ++k) {
        h[k] = size * swt_rng_range(r, 0.25, 1);
    }
    const double u = swt_rng_unit(r);
    if (u < 0.1) {
        h[swt_rng_int(r, 3)] = 0; /* flat */
    } else if (u < 0.18) {
        /* long thin, 1000:1 */
        const int k = swt_rng_int(r, 3);
        for (int j = 0; j < 3; ++j) {
            h[j] = j == k ? size : size * 1e-3;
        }
    }
    const sw_quat q = swt_rng_chance(r, 0.15) ? identity() : rand_quat(r);
    *out = sw_make_box(center, vd(h[0], h[1], h[2]), q);
}

/* A hull of 4..16 random points (several shapes of cloud); false when the
 * library builds none (flat input, or no hull builder yet). */
static bool make_hull(swt_rng* r, sw_vec3 center, double size, slot* sl, sw_shape* out)
{
    const int n = 4 + swt_rng_int(r, 13);
    const double u = swt_rng_unit(r);
    double ext[3] = {size, size, size};
    bool sphere = false;
    sl->what = "cube cloud";
    if (u < 0.1) {
        ext[swt_rng_int(r, 3)] = size * 1e-3;
        sl->what = "nearly coplanar";
    } else if (u < 0.2) {
        const int k = swt_rng_int(r, 3);
        for (int j = 0; j < 3; ++j) {
            ext[j] = j == k ? size : size * 1e-3;
        }
        sl->what = "long thin 1000:1";
    } else if (u < 0.5) {
        sphere = true;
        sl->what = "on a sphere";
    }
    /* Local points far from the hull's own origin (placed back by the
     * position) for some. */
    const bool far_local = swt_rng_chance(r, 0.1);
    if (far_local) {
        sl->what = "local points 1e4 away";
    }
    const sw_vec3 local_off = far_local ? rand_vec(r, 1e4) : vd(0, 0, 0);
    for (int i = 0; i < n; ++i) {
        double v[3];
        if (sphere) {
            rand_dir(r, v);
        } else {
            for (int k = 0; k < 3; ++k) {
                v[k] = swt_rng_range(r, -1, 1);
            }
        }
        sl->pts[i] = sw_add(vd(v[0] * ext[0], v[1] * ext[1], v[2] * ext[2]), local_off);
    }
    sl->npts = n;
    sw_hull_error err;
    sl->hull = sw_hull_create(sl->pts, n, &err);
    if (!sl->hull) {
        return false;
    }
    const sw_quat q = far_local || swt_rng_chance(r, 0.1) ? identity() : rand_quat(r);
    /* position so that the local offset lands on center */
    const sw_vec3 pos = sw_sub(center, sw_quat_rotate(q, local_off));
    *out = sw_make_hull(sl->hull, pos, q);
    return true;
}

static void make_triangle(swt_rng* r, sw_vec3 center, double size, bool one_sided, sw_shape* out)
{
    for (;;) {
        const sw_vec3 v0 = sw_add(center, rand_vec(r, size)), v1 = sw_add(center, rand_vec(r, size)),
                      v2 = sw_add(center, rand_vec(r, size));
        const sw_vec3 n = sw_cross(sw_sub(v1, v0), sw_sub(v2, v0));
        if (sw_length(n) > 0.05 * size * size) {
            *out = sw_make_triangle(v0, v1, v2, one_sided);
            return;
        }
    }
}

static void make_polygon(swt_rng* r, sw_vec3 center, double size, bool one_sided, slot* sl, sw_shape* out)
{
    for (;;) {
        const int n = 3 + swt_rng_int(r, 10);
        double ang[16];
        /* Sorted angles at least a few degrees apart: convex, no collinear
         * neighbours. */
        const double step = 2 * M_PI / n;
        for (int i = 0; i < n; ++i) {
            ang[i] = step * (i + swt_rng_range(r, 0.1, 0.9));
        }
        double e[3], f[3], g[3];
        rand_dir(r, e);
        rand_dir(r, g);
        f[0] = e[1] * g[2] - e[2] * g[1];
        f[1] = e[2] * g[0] - e[0] * g[2];
        f[2] = e[0] * g[1] - e[1] * g[0];
        const double fl = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        if (fl < 0.1) {
            continue;
        }
        for (int k = 0; k < 3; ++k) {
            f[k] /= fl;
        }
        /* e' = f x e keeps (e', f) orthonormal. */
        const double e2[3] = {f[1] * e[2] - f[2] * e[1], f[2] * e[0] - f[0] * e[2], f[0] * e[1] - f[1] * e[0]};
        const double rad = size * swt_rng_range(r, 0.5, 1);
        for (int i = 0; i < n; ++i) {
            const double cs = cos(ang[i]) * rad, sn = sin(ang[i]) * rad;
            sl->pts[i] = sw_add(center, vd(cs * e2[0] + sn * f[0], cs * e2[1] + sn * f[1], cs * e2[2] + sn * f[2]));
        }
        sl->npts = n;
        *out = sw_make_polygon(sl->pts, n, one_sided);
        if (sw_is_valid_polygon(&out->polygon)) {
            return;
        }
    }
}

static bool make_shape(swt_rng* r, kind k, sw_vec3 center, double size, bool one_sided, slot* sl, sw_shape* out)
{
    switch (k) {
    case K_BOX:
        make_box(r, center, size, out);
        return true;
    case K_HULL:
        return make_hull(r, center, size, sl, out);
    case K_TRI:
        make_triangle(r, center, size, one_sided, out);
        return true;
    case K_POLY:
        make_polygon(r, center, size, one_sided, sl, out);
        return true;
    }
    return false;
}

/* Centre and circumradius (about it) of a shape, in double. */
static void shape_sphere(const sw_shape* s, double c[3], double* rad)
{
    sw_vec3 pts[MAX_PTS];
    int n = 0;
    if (s->type == SW_SHAPE_BOX) {
        sw_vec3 ax[3];
        sw_box_axes(&s->box, ax);
        for (int i = 0; i < 8; ++i) {
            sw_vec3 x = s->box.center;
            x = sw_madd(x, (i & 1) ? s->box.half.x : -s->box.half.x, ax[0]);
            x = sw_madd(x, (i & 2) ? s->box.half.y : -s->box.half.y, ax[1]);
            pts[n++] = sw_madd(x, (i & 4) ? s->box.half.z : -s->box.half.z, ax[2]);
        }
    } else if (s->type == SW_SHAPE_HULL) {
        sw_quat q = s->hull.rotation;
        sw_quat_normalize(&q);
        for (int i = 0; i < s->hull.hull->vertex_count && n < MAX_PTS; ++i) {
            pts[n++] = sw_add(sw_quat_rotate(q, s->hull.hull->vertices[i]), s->hull.position);
        }
    } else {
        const bool tri = s->type == SW_SHAPE_TRIANGLE;
        n = tri ? 3 : s->polygon.count;
        for (int i = 0; i < n; ++i) {
            pts[i] = tri ? s->triangle.v[i] : s->polygon.v[i];
        }
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; ++i) {
        const double v[3] = {(double)pts[i].x, (double)pts[i].y, (double)pts[i].z};
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], v[k]);
            hi[k] = fmax(hi[k], v[k]);
        }
    }
    *rad = 0;
    for (int k = 0; k < 3; ++k) {
        c[k] = (lo[k] + hi[k]) / 2;
        *rad += (hi[k] - lo[k]) * (hi[k] - lo[k]) / 4;
    }
    *rad = sqrt(*rad);
}

static void translate(sw_shape* s, sw_vec3 off)
{
    if (s->type == SW_SHAPE_BOX) {
        s->box.center = sw_add(s->box.center, off);
    } else if (s->type == SW_SHAPE_HULL) {
        s->hull.position = sw_add(s->hull.position, off);
    }
}

typedef enum mode {
    M_APPROACH,
    M_GRAZE,
    M_TOUCH_START,
    M_DEEP,
    M_STILL,
    M_SLIDE,
    M_VERTEX_DOWN,
    M_BEHIND,
    M_MODE_COUNT
} mode;

/* Moves A by s along n and on by delta, where [lo, hi] are the offsets at
 * which the swept A meets B: the contact then grazes within or just
 * outside the band. */
static void graze(swt_rng* r, tcase* c)
{
    double n[3];
    rand_dir(r, n);
    ref_vec nr = rv(n[0], n[1], n[2]);
    const ref_vec d = rv_of(c->d);
    /* perpendicular to d (when d is not zero) */
    if (rv_dot(d, d) > 0) {
        nr = rv_madd(nr, -rv_dot(nr, d) / rv_dot(d, d), d);
        rv_normalize(&nr);
    }
    rp_from_shape(&c->a, &g_pa);
    rp_from_shape(&c->b, &g_pb);
    ref_real lo, hi;
    if (!rp_swept_offsets(&g_pa, d, &g_pb, nr, &lo, &hi)) {
        return;
    }
    const double tau = SWT_TOL * (double)rp_scale(&g_pa, d, &g_pb);
    static const double deltas[] = {-4, -1.5, -0.5, -0.1, 0, 0, 0.1, 0.5, 1.5, 4};
    const double delta = deltas[swt_rng_int(r, 10)] * tau;
    const double s = swt_rng_chance(r, 0.5) ? (double)hi + delta : (double)lo - delta;
    translate(&c->a, vd((double)nr.x * s, (double)nr.y * s, (double)nr.z * s));
}

/* One random case of the pair (ka moving, kb static) in the given mode. */
static bool make_case(swt_rng* r, kind ka, kind kb, bool one_sided, mode m, tcase* c)
{
    memset(c, 0, sizeof *c);
    /* sizes: tiny next to huge for some */
    double sb = swt_rng_log_range(r, 0.5, 5), sa = sb * swt_rng_log_range(r, 0.2, 3);
    const double u = swt_rng_unit(r);
    if (u < 0.06) {
        sa = sb * 1e-3;
    } else if (u < 0.12) {
        sa = sb * 1e3;
    }
    const bool far = swt_rng_chance(r, 0.25);
    const sw_vec3 cb = far ? rand_vec(r, swt_rng_log_range(r, 1e3, 1e4)) : rand_vec(r, 2);
    if (!make_shape(r, kb, cb, sb, one_sided, &c->sb, &c->b)) {
        return false;
    }
    double bc[3], br;
    shape_sphere(&c->b, bc, &br);

    if (m == M_SLIDE) {
        /* A box resting on a face of B (aligned with it), sliding along it. */
        rp_from_shape(&c->b, &g_pb);
        const int f = swt_rng_int(r, g_pb.nf);
        const ref_vec fnr = g_pb.fn[f];
        const double fn[3] = {(double)fnr.x, (double)fnr.y, (double)fnr.z};
        const double z[3] = {0, 0, 1};
        sw_quat q = quat_from_to(z, fn);
        if (c->b.type == SW_SHAPE_BOX && swt_rng_chance(r, 0.5)) {
            /* the same frame as B (exactly parallel faces) */
            q = c->b.box.rotation;
            int axis = f / 2, side = f & 1;
            /* local z of A must be the face normal: permute via the face index */
            static const sw_quat to_face[6] = {{0, -0.70710678118654752f, 0, 0.70710678118654752f},
                                               {0, 0.70710678118654752f, 0, 0.70710678118654752f},
                                               {0.70710678118654752f, 0, 0, 0.70710678118654752f},
                                               {-0.70710678118654752f, 0, 0, 0.70710678118654752f},
                                               {1, 0, 0, 0},
                                               {0, 0, 0, 1}};
            q = sw_quat_mul(q, to_face[2 * axis + side]);
        }
        const double ha = sa * swt_rng_range(r, 0.25, 1);
        const sw_vec3 half = vd(sa * swt_rng_range(r, 0.25, 1), sa * swt_rng_range(r, 0.25, 1), ha);
        /* a point of the face, A's bottom on it */
        const int* idx = &g_pb.fv[g_pb.ffirst[f]];
        const double w = swt_rng_unit(r);
        const ref_vec on = rv_add(rv_scale(g_pb.v[idx[0]], w), rv_scale(g_pb.v[idx[1]], 1 - w));
        sw_quat qn = q;
        sw_quat_normalize(&qn);
        const sw_vec3 up = sw_quat_rotate(qn, vd(0, 0, 1));
        const sw_vec3 lateral = sw_quat_rotate(qn, vd(swt_rng_range(r, -2, 2) * sa, swt_rng_range(r, -2, 2) * sa, 0));
        const sw_vec3 center = sw_add(sw_madd(vd((double)on.x, (double)on.y, (double)on.z), (sw_real)ha, up), lateral);
        c->a = sw_make_box(center, half, q);
        if (ka == K_HULL) {
            /* the same box as a hull (its 8 corners) */
            for (int i = 0; i < 8; ++i) {
                c->sa.pts[i] = vd((i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y, (i & 4) ? half.z : -half.z);
            }
            c->sa.npts = 8;
            c->sa.what = "box corners";
            c->sa.hull = sw_hull_create(c->sa.pts, 8, NULL);
            if (!c->sa.hull) {
                return false;
            }
            c->a = sw_make_hull(c->sa.hull, center, q);
        }
        c->d = sw_quat_rotate(qn, vd(swt_rng_range(r, -3, 3) * sa, swt_rng_range(r, -3, 3) * sa, 0));
        if (swt_rng_chance(r, 0.3)) {
            c->d = sw_madd(c->d, (sw_real)(-sa * swt_rng_range(r, 0, 0.01)), up);
        }
        return true;
    }
    if (!make_shape(r, ka, vd(0, 0, 0), sa, false, &c->sa, &c->a)) {
        return false;
    }
    double ac[3], ar;
    shape_sphere(&c->a, ac, &ar);
    if (m == M_VERTEX_DOWN && ka == K_BOX) {
        /* a corner of A pointing at B */
        const double diag[3] = {-1 / sqrt(3.0), -1 / sqrt(3.0), -1 / sqrt(3.0)};
        double to[3];
        rand_dir(r, to);
        c->a.box.rotation = quat_from_to(diag, to);
        const double dist = (ar + br) * swt_rng_range(r, 1.1, 2);
        const sw_vec3 start = vd(bc[0] - to[0] * dist, bc[1] - to[1] * dist, bc[2] - to[2] * dist);
        translate(&c->a, sw_sub(start, vd(ac[0], ac[1], ac[2])));
        c->d = vd(to[0] * dist * 1.5, to[1] * dist * 1.5, to[2] * dist * 1.5);
        return true;
    }
    double dir[3];
    rand_dir(r, dir);
    double gap = (ar + br) * swt_rng_range(r, 1.02, 2.5);
    if (m == M_DEEP) {
        gap = fmin(ar, br) * swt_rng_range(r, 0, 0.5);
    }
    const sw_vec3 start = vd(bc[0] + dir[0] * gap, bc[1] + dir[1] * gap, bc[2] + dir[2] * gap);
    translate(&c->a, sw_sub(start, vd(ac[0], ac[1], ac[2])));
    const sw_vec3 target = sw_add(vd(bc[0], bc[1], bc[2]), rand_vec(r, br * 0.8));
    c->d = sw_scale(sw_sub(target, start), (sw_real)swt_rng_range(r, 0.4, 1.6));
    if (m == M_BEHIND && (kb == K_TRI || kb == K_POLY)) {
        /* behind the front face, moving through it */
        rp_from_shape(&c->b, &g_pb);
        const sw_vec3 fr = vd((double)g_pb.front.x, (double)g_pb.front.y, (double)g_pb.front.z);
        const double side = sw_dot(sw_sub(start, vd(bc[0], bc[1], bc[2])), fr);
        if (side > 0) {
            translate(&c->a, sw_scale(fr, (sw_real)(-2 * side)));
        }
        c->d = sw_madd(c->d, (sw_real)(2 * fabs(side) + ar), fr);
        return true;
    }
    if (m == M_STILL) {
        c->d = vd(0, 0, 0);
        if (swt_rng_chance(r, 0.5)) {
            translate(&c->a, sw_scale(sw_sub(vd(bc[0], bc[1], bc[2]), start), (sw_real)swt_rng_range(r, 0.3, 1)));
        }
        return true;
    }
    if (m == M_GRAZE) {
        graze(r, c);
        return true;
    }
    if (m == M_TOUCH_START) {
        rp_from_shape(&c->a, &g_pa);
        rp_from_shape(&c->b, &g_pb);
        rp_sweep_result R;
        const ref_vec dd = rv_of(c->d);
        rp_sweep(&g_pa, dd, &g_pb, SWT_TOL * (double)rp_scale(&g_pa, dd, &g_pb), &R);
        if (R.hit && R.t > 0) {
            translate(&c->a, sw_scale(c->d, (sw_real)R.t));
            /* into B, along the contact, or away */
            const sw_vec3 nrm = vd((double)R.normal.x, (double)R.normal.y, (double)R.normal.z);
            const sw_vec3 along = sw_sub(c->d, sw_scale(nrm, sw_dot(c->d, nrm)));
            const int how = swt_rng_int(r, 3);
            c->d = how == 0 ? c->d : (how == 1 ? along : sw_madd(along, (sw_real)(ar * 0.5), nrm));
        }
        return true;
    }
    return true;
}

/* Runs `count` cases of a pair over the modes; fails the test on any
 * contract violation. */
static int run_pair(const char* name, kind ka, kind kb, bool one_sided, int count)
{
    stats st = {0};
    st.name = name;
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str(name));
    static tcase c;
    int made = 0;
    for (int i = 0; made < count && i < count * 4; ++i) {
        static const mode modes[] = {M_APPROACH, M_APPROACH, M_APPROACH,    M_APPROACH,    M_GRAZE,
                                     M_GRAZE,    M_GRAZE,    M_TOUCH_START, M_TOUCH_START, M_DEEP,
                                     M_STILL,    M_SLIDE,    M_VERTEX_DOWN, M_BEHIND};
        mode m = modes[swt_rng_int(&r, (int)(sizeof modes / sizeof modes[0]))];
        if (!make_case(&r, ka, kb, one_sided, m, &c)) {
            free_case(&c);
            continue;
        }
        ++made;
        check_sweep(&c, &st);
        free_case(&c);
    }
    print_stats(&st);
    if (made < count / 2) {
        fprintf(stdout, "%s: only %d cases could be built\n", name, made);
        ++st.failures;
    }
    return st.failures;
}

/* ---- the local walk against the full method ------------------------------------------ */

/* Library internals (queries/polytope_sweep.h): the sweep with its local
 * walk over the Minkowski difference, and the full method alone. */
sw_hit sw_internal_sweep_polytopes(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt);
sw_hit sw_internal_sweep_polytopes_full(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt);
static bool hulls_available(void);

/* The walk answers like the full method: the same hit or miss outside the
 * grazing band, the same overlap flag, times within tau (shallow
 * approaches excepted, where the reference test holds both to the
 * contract) and unique normals within 1e-3 rad; on every mode of every
 * walked pair (grazing, sliding with parallel faces, touching at t = 0,
 * far from the origin, tiny next to huge). */
static int cross_check_pair(const char* name, kind ka, kind kb, bool one_sided, int count)
{
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str(name) ^ 0x5a5a);
    static tcase c;
    int made = 0, failures = 0, differ = 0;
    for (int i = 0; made < count && i < count * 4; ++i) {
        const mode m = (mode)swt_rng_int(&r, M_BEHIND + 1);
        if (!make_case(&r, ka, kb, one_sided, m, &c)) {
            free_case(&c);
            continue;
        }
        ++made;
        const sw_hit w = sw_internal_sweep_polytopes(&c.a, c.d, &c.b, NULL);
        const sw_hit f = sw_internal_sweep_polytopes_full(&c.a, c.d, &c.b, NULL);
        rp_sweep_result R;
        const ref_vec d = rv_of(c.d);
        bool in_band = true;
        double tau = 0;
        if (rp_from_shape(&c.a, &g_pa) && rp_from_shape(&c.b, &g_pb)) {
            tau = SWT_TOL * (double)rp_scale(&g_pa, d, &g_pb);
            rp_sweep(&g_pa, d, &g_pb, tau, &R);
            in_band = !(R.swept_sep < -tau || R.swept_sep > tau) || one_sided;
        }
        const char* why = NULL;
        if (w.hit != f.hit) {
            why = in_band ? NULL : "hit differs outside the band";
        } else if (w.hit && w.overlapping != f.overlapping) {
            /* either answer where A starts touching B within tau */
            why = tau > 0 && fabs((double)R.g0) <= tau ? NULL : "overlap flag differs";
        } else if (w.hit && !w.overlapping && !f.overlapping) {
            const double dl = sw_length(c.d);
            const double slope = fabs((double)sw_dot(f.normal, c.d));
            if (slope >= 0.1 * dl && fabs((double)w.t - (double)f.t) * dl > tau) {
                why = "time differs";
            } else if (!in_band && R.unique && sw_dot(w.normal, f.normal) < 1 - 5e-7) {
                why = "unique normal differs";
            }
        }
        differ += w.hit != f.hit || w.t != f.t;
        if (why) {
            ++failures;
            fprintf(stdout, "%s: walk vs full: %s (mode %d)\n", name, why, (int)m);
            print_hit(&w);
            print_hit(&f);
            print_case(&c, "sweep");
        }
        free_case(&c);
    }
    fprintf(stdout, "%-22s walk vs full: %d cases, %d differ in t or hit (within tolerance), failures %d\n", name, made,
            differ, failures);
    return failures + (made < count / 2);
}

static void walk_matches_full_method(void** state)
{
    (void)state;
    int failures = cross_check_pair("walk box/box", K_BOX, K_BOX, false, 400);
    failures += cross_check_pair("walk box/triangle", K_BOX, K_TRI, false, 400);
    failures += cross_check_pair("walk box/polygon", K_BOX, K_POLY, false, 400);
    failures += cross_check_pair("walk box/1-sided", K_BOX, K_TRI, true, 300);
    if (hulls_available()) {
        failures += cross_check_pair("walk box/hull", K_BOX, K_HULL, false, 400);
        failures += cross_check_pair("walk hull/box", K_HULL, K_BOX, false, 400);
        failures += cross_check_pair("walk hull/hull", K_HULL, K_HULL, false, 400);
        failures += cross_check_pair("walk hull/triangle", K_HULL, K_TRI, false, 400);
        failures += cross_check_pair("walk hull/polygon", K_HULL, K_POLY, false, 400);
        failures += cross_check_pair("walk hull/1-sided", K_HULL, K_POLY, true, 300);
    }
    assert_int_equal(failures, 0);
}

/* ---- the two-box path against the general method ------------------------------------ */

/* Library internal (queries/polytope_sweep.h): the direct two-box sweep,
 * which answers (true) or leaves the case to the general method. */
bool sw_internal_sweep_boxes(const sw_box* a, sw_vec3 d, const sw_box* b, sw_hit* out);
bool sw_internal_sweep_box_flat(const sw_box* a, sw_vec3 d, const sw_shape* b, sw_hit* out);

/* The box path on a case (a box against a box, triangle or polygon). */
static bool box_path(const tcase* c, sw_hit* h)
{
    if (c->b.type == SW_SHAPE_BOX) {
        return sw_internal_sweep_boxes(&c->a.box, c->d, &c->b.box, h);
    }
    return sw_internal_sweep_box_flat(&c->a.box, c->d, &c->b, h);
}

/* Rotation by angle about coordinate axis k. */
static sw_quat quat_axis(int k, double angle)
{
    const double s = sin(angle / 2);
    return (sw_quat){(sw_real)(k == 0 ? s : 0), (sw_real)(k == 1 ? s : 0), (sw_real)(k == 2 ? s : 0),
                     (sw_real)cos(angle / 2)};
}

/* A box pair the oriented-box path finds hard, in B's frame q0 (random or
 * the identity), placed near the origin or far from it: faces parallel
 * (stacked, edges flush, sliding), edges crossing or parallel, a corner
 * down on a face, a start touching, a deep start, zero half extents, tilts
 * of 1e-7 rad; A above B's top, moving down and sideways. */
static void make_box_pair(swt_rng* r, tcase* c)
{
    memset(c, 0, sizeof *c);
    const double sb = swt_rng_log_range(r, 0.5, 5);
    const double u = swt_rng_unit(r);
    const double sa = u < 0.1 ? sb * 1e-3 : (u < 0.2 ? sb * 1e3 : sb * swt_rng_log_range(r, 0.3, 3));
    const sw_quat q0 = swt_rng_chance(r, 0.3) ? identity() : rand_quat(r);
    const sw_vec3 cb = swt_rng_chance(r, 0.25) ? rand_vec(r, swt_rng_log_range(r, 1e3, 1e4)) : rand_vec(r, 2);
    double hb[3], ha[3];
    for (int k = 0; k < 3; ++k) {
        hb[k] = sb * swt_rng_range(r, 0.25, 1);
        ha[k] = sa * swt_rng_range(r, 0.25, 1);
    }
    const int kind = swt_rng_int(r, 8);
    sw_quat qa = q0, qb = q0;
    double lateral[2] = {swt_rng_range(r, -1, 1) * (hb[0] + ha[0]), swt_rng_range(r, -1, 1) * (hb[1] + ha[1])};
    switch (kind) {
    case 0: /* faces parallel; edges flush or corners meeting */
        if (swt_rng_chance(r, 0.5)) {
            lateral[0] = swt_rng_sign(r) * (swt_rng_chance(r, 0.5) ? hb[0] - ha[0] : hb[0] + ha[0]);
        }
        if (swt_rng_chance(r, 0.3)) {
            lateral[1] = swt_rng_sign(r) * (hb[1] + ha[1]);
        }
        break;
    case 1: /* edges crossing: A's bottom edge along x, B's top edge along y */
        qa = sw_quat_mul(q0, quat_axis(0, M_PI / 4));
        qb = sw_quat_mul(q0, quat_axis(1, M_PI / 4));
        break;
    case 2: /* parallel edges: both along x */
        qa = sw_quat_mul(q0, quat_axis(0, M_PI / 4));
        qb = sw_quat_mul(q0, quat_axis(0, M_PI / 4 + (swt_rng_chance(r, 0.5) ? 1e-7 : 0)));
        lateral[1] = swt_rng_range(r, -1, 1) * sb * 1e-3;
        break;
    case 3: { /* a corner of A down on B's face */
        const double diag[3] = {-1 / sqrt(3.0), -1 / sqrt(3.0), -1 / sqrt(3.0)}, down[3] = {0, 0, -1};
        qa = sw_quat_mul(q0, quat_from_to(diag, down));
        break;
    }
    case 4: /* faces tilted by 1e-7 rad */
        qa = sw_quat_mul(q0, quat_axis(swt_rng_int(r, 3), swt_rng_sign(r) * 1e-7));
        break;
    case 5: /* zero half extents */
        ha[swt_rng_int(r, 3)] = 0;
        if (swt_rng_chance(r, 0.5)) {
            hb[swt_rng_int(r, 3)] = 0;
        }
        qa = swt_rng_chance(r, 0.5) ? q0 : rand_quat(r);
        break;
    default: /* random poses */
        qa = rand_quat(r);
        qb = swt_rng_chance(r, 0.5) ? q0 : rand_quat(r);
        break;
    }
    c->b = sw_make_box(cb, vd(hb[0], hb[1], hb[2]), qb);
    c->a = sw_make_box(vd(0, 0, 0), vd(ha[0], ha[1], ha[2]), qa);
    /* A's lowest point along B's z (q0's) just touching B's top, then
     * lifted by the gap. */
    sw_quat n0 = q0;
    sw_quat_normalize(&n0);
    const sw_vec3 up = sw_quat_rotate(n0, vd(0, 0, 1));
    const double top = (double)sw_dot(sw_shape_support(&c->b, up), up) - (double)sw_dot(cb, up);
    const double bottom = -(double)sw_dot(sw_shape_support(&c->a, sw_neg(up)), up);
    const int start = swt_rng_int(r, 6); /* 0: touching, 1: deep, else apart */
    const double gap =
        start == 0 ? 0 : (start == 1 ? -swt_rng_range(r, 0, 0.5) * fmin(sa, sb) : swt_rng_log_range(r, 1e-3, 2) * sb);
    const sw_vec3 side = sw_quat_rotate(n0, vd(lateral[0], lateral[1], 0));
    c->a.box.center = sw_add(sw_add(cb, side), sw_scale(up, (sw_real)(top + bottom + gap)));
    /* down past the contact (or along it, or up), with some sideways */
    const double fall = start == 0 && swt_rng_chance(r, 0.5) ? 0 : gap + swt_rng_range(r, 0.5, 2) * fmin(sa, sb);
    const sw_vec3 drift = sw_quat_rotate(n0, vd(swt_rng_range(r, -1, 1) * sb, swt_rng_range(r, -1, 1) * sb, 0));
    c->d = sw_sub(swt_rng_chance(r, 0.3) ? sw_scale(drift, (sw_real)0.3) : vd(0, 0, 0), sw_scale(up, (sw_real)fall));
}

/* A box over a triangle or polygon lying in the xy plane of the frame q0
 * (an edge along x for some): the box's face parallel to it (or tilted by
 * 1e-7 rad), an edge or a corner down, flush with an edge or beyond it;
 * starting on it, inside it or above, moving down and sideways. */
static void make_box_flat_pair(swt_rng* r, tcase* c)
{
    memset(c, 0, sizeof *c);
    const double sb = swt_rng_log_range(r, 0.5, 5);
    const double u = swt_rng_unit(r);
    const double sa = u < 0.1 ? sb * 1e-3 : (u < 0.2 ? sb * 1e3 : sb * swt_rng_log_range(r, 0.3, 3));
    sw_quat q0 = swt_rng_chance(r, 0.3) ? identity() : rand_quat(r);
    sw_quat_normalize(&q0);
    const sw_vec3 cb = swt_rng_chance(r, 0.25) ? rand_vec(r, swt_rng_log_range(r, 1e3, 1e4)) : rand_vec(r, 2);
    const int nv = swt_rng_chance(r, 0.5) ? 3 : 3 + swt_rng_int(r, 6);
    const bool aligned = swt_rng_chance(r, 0.5);
    const double phase = aligned ? -M_PI / 2 - M_PI / nv : swt_rng_range(r, 0, 2 * M_PI);
    for (int i = 0; i < nv; ++i) {
        /* a regular polygon: with `aligned`, edge 0 runs along x at the bottom */
        const double ang = phase + 2 * M_PI * i / nv;
        c->sb.pts[i] = sw_add(cb, sw_quat_rotate(q0, vd(sb * cos(ang), sb * sin(ang), 0)));
    }
    c->sb.npts = nv;
    const bool one_sided = swt_rng_chance(r, 0.2);
    c->b = nv == 3 ? sw_make_triangle(c->sb.pts[0], c->sb.pts[1], c->sb.pts[2], one_sided)
                   : sw_make_polygon(c->sb.pts, nv, one_sided);
    double ha[3];
    for (int k = 0; k < 3; ++k) {
        ha[k] = sa * swt_rng_range(r, 0.25, 1);
    }
    sw_quat qa = q0;
    switch (swt_rng_int(r, 5)) {
    case 0: /* an edge down, along x */
        qa = sw_quat_mul(q0, quat_axis(0, M_PI / 4));
        break;
    case 1: { /* a corner down */
        const double diag[3] = {-1 / sqrt(3.0), -1 / sqrt(3.0), -1 / sqrt(3.0)}, down[3] = {0, 0, -1};
        qa = sw_quat_mul(q0, quat_from_to(diag, down));
        break;
    }
    case 2: /* tilted by 1e-7 rad */
        qa = sw_quat_mul(q0, quat_axis(swt_rng_int(r, 3), swt_rng_sign(r) * 1e-7));
        break;
    case 3:
        qa = rand_quat(r);
        break;
    default: /* face down, parallel */
        break;
    }
    c->a = sw_make_box(vd(0, 0, 0), vd(ha[0], ha[1], ha[2]), qa);
    const sw_vec3 up = sw_quat_rotate(q0, vd(0, 0, 1));
    const double bottom = -(double)sw_dot(sw_shape_support(&c->a, sw_neg(up)), up);
    /* over the polygon, or flush with its x edge (the box's -y face on it) */
    double x = swt_rng_range(r, -1, 1) * sb, y = swt_rng_range(r, -1, 1) * sb;
    if (aligned && swt_rng_chance(r, 0.5)) {
        y = -sb * cos(M_PI / nv) + swt_rng_sign(r) * ha[1] * (swt_rng_chance(r, 0.5) ? 1 : 0);
    }
    const int start = swt_rng_int(r, 5); /* 0: touching, 1: through it, else above */
    const double gap =
        start == 0 ? 0 : (start == 1 ? -swt_rng_range(r, 0, 1) * ha[2] : swt_rng_log_range(r, 1e-3, 2) * sb);
    c->a.box.center = sw_add(sw_add(cb, sw_quat_rotate(q0, vd(x, y, 0))), sw_scale(up, (sw_real)(bottom + gap)));
    const double fall = start == 0 && swt_rng_chance(r, 0.5) ? 0 : gap + swt_rng_range(r, 0.2, 2) * fmin(sa, sb);
    const sw_vec3 drift = sw_quat_rotate(q0, vd(swt_rng_range(r, -1, 1) * sb, swt_rng_range(r, -1, 1) * sb, 0));
    c->d = sw_sub(swt_rng_chance(r, 0.3) ? sw_scale(drift, (sw_real)0.3) : vd(0, 0, 0), sw_scale(up, (sw_real)fall));
    if (swt_rng_chance(r, 0.15)) {
        c->d = sw_neg(c->d); /* from below, or away */
    }
}

/* The two-box path against the general method on one case: the same hit
 * or miss outside the grazing band, never an overlap (those go to the
 * general method), times within tau (shallow approaches excepted), unique
 * normals within 1e-3 rad, and a different feature only where the
 * reference accepts it; and sw_sweep (which takes the path) against the
 * reference. The cases the path leaves to the general method are the
 * other tests' business. */
static bool box_path_check(const tcase* c, stats* st, int* answered, int* feature_differs)

{
    sw_hit h;
    if (!box_path(c, &h)) {
        return true;
    }
    ++*answered;
    check_sweep(c, st);
    const sw_hit f = sw_internal_sweep_polytopes_full(&c->a, c->d, &c->b, NULL);
    rp_sweep_result R;
    rp_from_shape(&c->a, &g_pa);
    rp_from_shape(&c->b, &g_pb);
    const ref_vec d = rv_of(c->d);
    const double tau = SWT_TOL * (double)rp_scale(&g_pa, d, &g_pb);
    rp_sweep(&g_pa, d, &g_pb, tau, &R);
    /* a one-sided B: the reference test above holds the path to its rule */
    const bool one_sided = c->b.type != SW_SHAPE_BOX && g_pb.one_sided;
    const bool in_band = !(R.swept_sep < -tau || R.swept_sep > tau) || one_sided;
    const double dl = sw_length(c->d);
    if (h.overlapping) {
        FAIL("the box path answered a start in contact", 0);
    }
    if (h.hit != f.hit && !in_band) {
        FAIL("box path and general method differ in hit outside the band (general hit)", f.hit);
    }
    if (h.hit && f.hit && !f.overlapping) {
        /* In the band the path may slide along a face of M (L.d and h
         * both about 0), where any time of the slide is right: the
         * reference check above holds both to the contract there. */
        if (!in_band && fabs((double)sw_dot(f.normal, c->d)) >= 0.1 * dl &&
            fabs((double)h.t - (double)f.t) * dl > tau) {
            FAIL("box path time differs from the general method's (|dt| |d| / tau)",
                 fabs((double)h.t - (double)f.t) * dl / tau);
        }
        if (!in_band && R.hit && R.t > 0 && R.unique && sw_dot(h.normal, f.normal) < 1 - 5e-7) {
            FAIL("box path unique normal differs (1 - cos)", 1 - sw_dot(h.normal, f.normal));
        }
        if (h.feature.kind != f.feature.kind || h.feature.index != f.feature.index) {
            ++*feature_differs;
            double fd;
            const char* why = feature_violation(&g_pb, h.feature, rv_of(h.point), tau, &fd);
            if (why) {
                FAIL(why, fd / tau);
            }
        }
    }
    return true;
}

static void box_path_matches_general_method(void** state)
{
    (void)state;
    stats st = {0};
    st.name = "box path vs general";
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str(st.name));
    static tcase c;
    /* [0] against boxes, [1] against triangles and polygons */
    int answered[2] = {0, 0}, count[2] = {0, 0}, feature_differs = 0;
    for (int i = 0; i < 6000; ++i) {
        const int pick = i % 6;
        if (pick == 0 || pick == 3) {
            const mode m = (mode)swt_rng_int(&r, M_BEHIND + 1);
            const kind kb = pick == 0 ? K_BOX : (swt_rng_chance(&r, 0.5) ? K_TRI : K_POLY);
            if (!make_case(&r, K_BOX, kb, kb != K_BOX && swt_rng_chance(&r, 0.25), m, &c)) {
                continue;
            }
        } else if (pick == 4 || pick == 5) {
            make_box_flat_pair(&r, &c);
        } else {
            make_box_pair(&r, &c);
        }
        const int flat = c.b.type != SW_SHAPE_BOX;
        ++count[flat];
        box_path_check(&c, &st, &answered[flat], &feature_differs);
    }
    print_stats(&st);
    fprintf(stdout,
            "%-22s answered by the box path: %d of %d against boxes, %d of %d against triangles and polygons; %d "
            "name another feature (accepted)\n",
            st.name, answered[0], count[0], answered[1], count[1], feature_differs);
    assert_int_equal(st.failures, 0);
    /* the path must answer most cases, or it is no fast path */
    assert_true(answered[0] > count[0] / 2 && answered[1] > count[1] / 2);
}

/* ---- overlap of polytope pairs ----------------------------------------------------- */

/* sw_overlap(a, b) (and mirrored, b against a) against the reference's
 * separation at rest. */
static bool check_overlap_one(const tcase* c, const sw_shape* a, const sw_shape* b, const rp_poly* A, const rp_poly* B,
                              stats* st)
{
    const ref_vec zero = rv(0, 0, 0);
    const double tau = SWT_TOL * (double)rp_scale(A, zero, B);
    rp_sweep_result R;
    rp_sweep(A, zero, B, tau, &R);
    const sw_overlap_result o = sw_overlap(a, b);
    ++st->cases;
    if (o.status != SW_OK) {
        return fail_case(st, c, "overlap", NULL, &R, tau, "overlap status not OK", o.status);
    }
    if (R.g0 < -tau && !o.overlapping) {
        return fail_case(st, c, "overlap", NULL, &R, tau, "overlap missed (depth/tau)", -R.g0 / tau);
    }
    if (R.g0 > tau && o.overlapping) {
        return fail_case(st, c, "overlap", NULL, &R, tau, "overlap reported while apart (sep/tau)", R.g0 / tau);
    }
    if (R.g0 >= -tau && R.g0 <= tau) {
        ++st->band;
    }
    if (!o.overlapping) {
        ++st->misses;
        if (o.depth != 0 || sw_max_abs(o.normal) != 0 || sw_max_abs(o.point) != 0) {
            return fail_case(st, c, "overlap", NULL, &R, tau, "no overlap with fields set", 0);
        }
        return true;
    }
    ++st->overlaps;
    if (R.g0 > 0) {
        const ref_real sd = rp_signed_distance(A, zero, B, NULL, NULL);
        if (sd > tau) {
            return fail_case(st, c, "overlap", NULL, &R, tau, "overlap reported while apart (distance/tau)", sd / tau);
        }
    }
    const double derr = fabs((double)(o.depth - fmaxl(0, -R.g0))) / tau;
    st->depth = worst(st->depth, derr);
    if (derr > 1) {
        return fail_case(st, c, "overlap", NULL, &R, tau, "overlap depth error/tau", derr);
    }
    if (!(fabs(sw_length(o.normal) - 1) <= SWT_TOL)) {
        return fail_case(st, c, "overlap", NULL, &R, tau, "overlap normal not unit", sw_length(o.normal) - 1);
    }
    if (R.unique0 && R.g0 < -tau) {
        const double ang = angle_of(o.normal, R.normal0);
        st->angle = worst(st->angle, ang);
        ++st->unique;
        if (ang > 1e-3) {
            return fail_case(st, c, "overlap", NULL, &R, tau, "overlap normal angle (rad)", ang);
        }
    }
    const ref_real after = rp_sep(A, rv_scale(rv_of(o.normal), o.depth), B, NULL);
    if (after < -(2 * tau + 5e-7 * o.depth)) {
        return fail_case(st, c, "overlap", NULL, &R, tau,
                         "overlap: translation by depth along the normal leaves them overlapping (sep/tau)",
                         after / tau);
    }
    const ref_vec p = rv_of(o.point);
    const double perr = (double)fmaxl(rp_point_sdist(A, zero, p), rp_point_sdist(B, zero, p)) / tau;
    st->point = worst(st->point, perr);
    if (perr > 1) {
        return fail_case(st, c, "overlap", NULL, &R, tau, "overlap point not in A and B (sdist/tau)", perr);
    }
    return true;
}

static int run_overlap(const char* name, kind ka, kind kb, int count)
{
    stats st = {0};
    st.name = name;
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str(name));
    static tcase c;
    int made = 0;
    for (int i = 0; made < count && i < count * 4; ++i) {
        static const mode modes[] = {M_APPROACH, M_APPROACH, M_GRAZE, M_TOUCH_START, M_DEEP, M_SLIDE};
        const mode m = modes[swt_rng_int(&r, (int)(sizeof modes / sizeof modes[0]))];
        if (!make_case(&r, ka, kb, false, m, &c)) {
            free_case(&c);
            continue;
        }
        ++made;
        /* somewhere along the path: often overlapping, sometimes touching */
        if (m == M_APPROACH || m == M_GRAZE) {
            rp_from_shape(&c.a, &g_pa);
            rp_from_shape(&c.b, &g_pb);
            rp_sweep_result R;
            const ref_vec dd = rv_of(c.d);
            rp_sweep(&g_pa, dd, &g_pb, SWT_TOL * (double)rp_scale(&g_pa, dd, &g_pb), &R);
            const double t = R.hit ? (double)R.t + swt_rng_range(&r, 0, 0.05) : swt_rng_unit(&r);
            translate(&c.a, sw_scale(c.d, (sw_real)t));
        }
        rp_from_shape(&c.a, &g_pa);
        rp_from_shape(&c.b, &g_pb);
        if (check_overlap_one(&c, &c.a, &c.b, &g_pa, &g_pb, &st)) {
            /* mirrored: B's view of A */
            check_overlap_one(&c, &c.b, &c.a, &g_pb, &g_pa, &st);
        }
        free_case(&c);
    }
    print_stats(&st);
    return st.failures;
}

/* ---- boxes and hulls against planes ---------------------------------------------- */

/* Hand formulas: the signed height of A above the plane is that of its
 * lowest vertex, h0 = min n.v - offset (n unit); a sweep with skin r hits
 * when h0 + min(n.d, 0) <= r, at t = (h0 - r) / -n.d, normal n, point A's
 * lowest vertex at t; overlap when h0 <= 0 with depth -h0. */
static bool check_plane(swt_rng* r, tcase* c, const sw_plane* pl, sw_real skin, stats* st)
{
    rp_poly* A = &g_pa;
    rp_from_shape(&c->a, A);
    ref_vec n = rv_of(pl->normal);
    const ref_real nlen = rv_normalize(&n);
    const ref_real off = pl->offset / nlen;
    ref_real h0 = INFINITY;
    for (int i = 0; i < A->nv; ++i) {
        h0 = fminl(h0, rv_dot(n, A->v[i]) - off);
    }
    const ref_vec d = rv_of(c->d);
    const ref_real nd = rv_dot(n, d), dlen = rv_len(d);
    const double tau = SWT_TOL * (double)fmaxl(fmaxl(A->extent, rv_max_abs(d)), fmaxl(fabsl(off), (ref_real)skin));
    const sw_shape b = sw_make_plane(pl->normal, pl->offset);
    const sw_sweep_options opt = {skin, false};
    const sw_hit h = sw_sweep(&c->a, c->d, &b, &opt);
    ++st->cases;
#define PFAIL(msg, value)                                                                                              \
    do {                                                                                                               \
        fprintf(stdout, "(skin " SWT_REAL_FMT ")\n", skin);                                                            \
        return fail_case(st, c, "sweep", &h, NULL, tau, msg, (double)(value));                                         \
    } while (0)
    const ref_real gmin = h0 + fminl(nd, 0) - skin;
    if (h.status != SW_OK) {
        PFAIL("status", h.status);
    }
    if (gmin < -tau && !h.hit) {
        PFAIL("plane sweep missed (depth/tau)", -gmin / tau);
    }
    if (gmin > tau && h.hit) {
        PFAIL("plane sweep false hit (gap/tau)", gmin / tau);
    }
    if (!h.hit) {
        ++st->misses;
        return true;
    }
    ++st->hits;
    if (!(fabs(sw_length(h.normal) - 1) <= SWT_TOL) || rv_angle(rv_of(h.normal), n) > 1e-3L) {
        PFAIL("plane normal (rad)", rv_angle(rv_of(h.normal), n));
    }
    st->angle = worst(st->angle, (double)rv_angle(rv_of(h.normal), n));
    if (h.feature.kind != SW_FEATURE_FACE || h.feature.index != 0) {
        PFAIL("plane feature is not face 0", h.feature.kind);
    }
    const ref_vec p = rv_of(h.point);
    if (h.overlapping) {
        ++st->overlaps;
        if (h0 - skin > tau) {
            PFAIL("plane: overlapping while apart (gap/tau)", (h0 - skin) / tau);
        }
        const double derr = (double)fabsl(h.depth - (skin - h0)) / tau;
        st->depth = worst(st->depth, derr);
        if (derr > 1 || h.t != 0) {
            PFAIL("plane: overlap depth error/tau", derr);
        }
        /* a point of A within skin of the half-space */
        const double perr = (double)fmaxl(rp_point_sdist(A, rv(0, 0, 0), p), rv_dot(n, p) - off - skin) / tau;
        st->point = worst(st->point, perr);
        if (perr > 1) {
            PFAIL("plane: overlap point not in A and within skin of B (/tau)", perr);
        }
        return true;
    }
    if (h.depth != 0) {
        PFAIL("plane: depth of a contact at t > 0", h.depth);
    }
    if (h0 - skin < -tau) {
        PFAIL("plane: contact at t > 0 while A starts within skin (/tau)", (h0 - skin) / tau);
    }
    /* time (or, for a shallow approach, the height at t) */
    const ref_real t_ref = nd < 0 ? fminl(fmaxl((h0 - skin) / -nd, 0), 1) : 0;
    const ref_real terr = fabsl(h.t - t_ref) * dlen / tau;
    const ref_real herr = fabsl(h0 + nd * h.t - skin) / tau;
    if (terr > 1 && !(fabsl(nd) < 0.1L * dlen && herr <= 1)) {
        PFAIL("plane: time error/tau", terr);
    }
    st->t = worst(st->t, (double)fminl(terr, herr));
    /* A's point at distance skin from the plane */
    const ref_vec at = rv_scale(d, h.t);
    const double perr = (double)fmaxl(rp_point_sdist(A, at, p), fabsl(rv_dot(n, p) - off - skin)) / tau;
    st->point = worst(st->point, perr);
    if (perr > 1) {
        PFAIL("plane: point not on A(t) at skin from the plane (/tau)", perr);
    }
    (void)r;
    return true;
#undef PFAIL
}

/* Overlap and distance of A against the plane (and the plane against A). */
static bool check_plane_rest(tcase* c, const sw_plane* pl, stats* st)
{
    rp_poly* A = &g_pa;
    rp_from_shape(&c->a, A);
    ref_vec n = rv_of(pl->normal);
    const ref_real nlen = rv_normalize(&n);
    const ref_real off = pl->offset / nlen;
    ref_real h0 = INFINITY;
    for (int i = 0; i < A->nv; ++i) {
        h0 = fminl(h0, rv_dot(n, A->v[i]) - off);
    }
    const double tau = SWT_TOL * (double)fmaxl(A->extent, fabsl(off));
    const sw_shape b = sw_make_plane(pl->normal, pl->offset);
    const ref_vec zero = rv(0, 0, 0);
    for (int side = 0; side < 2; ++side) {
        const sw_overlap_result o = side == 0 ? sw_overlap(&c->a, &b) : sw_overlap(&b, &c->a);
        const ref_vec nn = side == 0 ? n : rv_scale(n, -1);
        if (o.status != SW_OK || (h0 < -tau && !o.overlapping) || (h0 > tau && o.overlapping)) {
            return fail_case(st, c, side ? "overlap (plane first)" : "overlap with plane", NULL, NULL, tau,
                             "plane overlap decision (height/tau)", h0 / tau);
        }
        if (o.overlapping) {
            const ref_vec p = rv_of(o.point);
            const double derr = (double)fabsl(o.depth - fmaxl(-h0, 0)) / tau;
            const double perr = (double)fmaxl(rp_point_sdist(A, zero, p), rv_dot(n, p) - off) / tau;
            st->depth = worst(st->depth, derr);
            st->point = worst(st->point, perr);
            if (derr > 1 || perr > 1 || rv_angle(rv_of(o.normal), nn) > 1e-3L) {
                return fail_case(st, c, "overlap with plane", NULL, NULL, tau,
                                 "plane overlap depth / point / normal (depth err/tau)", derr);
            }
        }
        const sw_distance_result dr = side == 0 ? sw_distance(&c->a, &b) : sw_distance(&b, &c->a);
        const ref_vec pa = rv_of(side == 0 ? dr.point_a : dr.point_b), pb = rv_of(side == 0 ? dr.point_b : dr.point_a);
        const double derr = (double)fabsl(dr.distance - fmaxl(h0, 0)) / tau;
        const double perr = (double)fmaxl(fmaxl(rp_point_sdist(A, zero, pa), rv_dot(n, pb) - off),
                                          fabsl(rv_len(rv_sub(pa, pb)) - dr.distance)) /
                            tau;
        st->t = worst(st->t, derr);
        st->point = worst(st->point, perr);
        if (dr.status != SW_OK || derr > 1 || perr > 1 || (h0 > tau && fabsl(rv_dot(n, pb) - off) > tau)) {
            return fail_case(st, c, "distance to plane", NULL, NULL, tau, "plane distance or points (error/tau)",
                             derr > perr ? derr : perr);
        }
    }
    return true;
}

static void run_plane(const char* name, kind ka, int count)
{
    stats st = {0};
    st.name = name;
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str(name));
    static tcase c;
    for (int i = 0; i < count; ++i) {
        memset(&c, 0, sizeof c);
        const double size = swt_rng_log_range(&r, 0.1, 10);
        const bool far = swt_rng_chance(&r, 0.25);
        const sw_vec3 center = far ? rand_vec(&r, swt_rng_log_range(&r, 1e3, 1e4)) : rand_vec(&r, 3);
        if (!make_shape(&r, ka, center, size, false, &c.sa, &c.a)) {
            make_box(&r, center, size, &c.a);
        }
        double nd[3];
        rand_dir(&r, nd);
        if (swt_rng_chance(&r, 0.2)) {
            /* an axis: faces parallel to the plane for unrotated boxes */
            nd[0] = nd[1] = 0;
            nd[2] = swt_rng_sign(&r);
        }
        const double nl = swt_rng_log_range(&r, 0.01, 100);
        sw_plane pl = {vd(nd[0] * nl, nd[1] * nl, nd[2] * nl), 0};
        /* the plane at a height around A's lowest point */
        rp_from_shape(&c.a, &g_pa);
        ref_vec n = rv_of(pl.normal);
        const ref_real len = rv_normalize(&n);
        ref_real low = INFINITY;
        for (int k = 0; k < g_pa.nv; ++k) {
            low = fminl(low, rv_dot(n, g_pa.v[k]));
        }
        const double below = size * (swt_rng_chance(&r, 0.2) ? 0 : swt_rng_range(&r, -1, 3));
        pl.offset = (sw_real)(((double)low - below) * (double)len);
        const sw_real skin = swt_rng_chance(&r, 0.5) ? 0 : (sw_real)(size * swt_rng_log_range(&r, 1e-3, 1));
        const int how = swt_rng_int(&r, 4);
        double dir[3];
        rand_dir(&r, dir);
        const double mag = size * swt_rng_range(&r, 0.5, 5);
        c.d = how == 0   ? vd(-nd[0] * mag, -nd[1] * mag, -nd[2] * mag)
              : how == 3 ? vd(0, 0, 0)
                         : vd(dir[0] * mag, dir[1] * mag, dir[2] * mag);
        if (how == 1) {
            /* parallel to the plane */
            const double k = dir[0] * nd[0] + dir[1] * nd[1] + dir[2] * nd[2];
            c.d = vd((dir[0] - k * nd[0]) * mag, (dir[1] - k * nd[1]) * mag, (dir[2] - k * nd[2]) * mag);
        }
        c.b = sw_make_plane(pl.normal, pl.offset);
        check_plane(&r, &c, &pl, skin, &st);
        check_plane_rest(&c, &pl, &st);
        free_case(&c);
    }
    print_stats(&st);
    assert_int_equal(st.failures, 0);
}

static bool hulls_available(void)
{
    static const sw_vec3 tet[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    sw_hull* h = sw_hull_create(tet, 4, NULL);
    sw_hull_destroy(h);
    return h != NULL;
}

/* Cases per pair: the whole suite stays well under 10 s in an optimised
 * build (the reference tries every axis in long double). */
#define PAIR_COUNT 1600
#define OVERLAP_COUNT 700
#define PLANE_COUNT 1500

static void box_vs_box(void** state)
{
    (void)state;
    assert_int_equal(run_pair("box vs box", K_BOX, K_BOX, false, PAIR_COUNT), 0);
}
static void box_vs_triangle(void** state)
{
    (void)state;
    assert_int_equal(run_pair("box vs triangle", K_BOX, K_TRI, false, PAIR_COUNT), 0);
}
static void box_vs_polygon(void** state)
{
    (void)state;
    assert_int_equal(run_pair("box vs polygon", K_BOX, K_POLY, false, PAIR_COUNT), 0);
}
static void box_vs_one_sided(void** state)
{
    (void)state;
    const int tri = run_pair("box vs 1-sided tri", K_BOX, K_TRI, true, PAIR_COUNT / 2);
    const int poly = run_pair("box vs 1-sided poly", K_BOX, K_POLY, true, PAIR_COUNT / 2);
    assert_int_equal(tri + poly, 0);
}

/* Hull pairs skip while the library has no hull builder. */
#define REQUIRE_HULLS()                                                                                                \
    do {                                                                                                               \
        if (!hulls_available()) {                                                                                      \
            skip();                                                                                                    \
        }                                                                                                              \
    } while (0)

/* ---- named cases --------------------------------------------------------------------- */

static const sw_quat QI = {0, 0, 0, 1};

/* The whole contract (check_sweep) on one case, then its hit for the
 * hand-worked expectations. */
static sw_hit named_sweep(const char* name, const sw_shape* a, sw_vec3 d, const sw_shape* b)
{
    static tcase c;
    memset(&c, 0, sizeof c);
    c.a = *a;
    c.b = *b;
    c.d = d;
    stats st = {0};
    st.name = name;
    check_sweep(&c, &st);
    if (st.failures) {
        fail_msg("%s: contract violated (see above)", name);
    }
    return sw_sweep(a, d, b, NULL);
}

/* Distance of the hit's point from feature (kind, index) of box b. */
static double box_feature_distance(const sw_shape* b, sw_feature f, sw_vec3 p)
{
    rp_from_shape(b, &g_pb);
    return (double)rp_feature_distance(&g_pb, f.kind, f.index, rv_of(p));
}

/* A box resting on another and moving along the face touches from the
 * start (depth 0, normal +z); one at the height of B's top sliding at B's
 * side grazes B's edge (either answer; if hit, at t = 0.5 on that edge);
 * one lowered into B's height range hits B's side face at t = 0.5; one
 * whose top is level with B's bottom grazes B's bottom edge. */
static void box_sliding_on_a_box(void** state)
{
    (void)state;
    const double tau = SWT_TOL * 3;
    const sw_shape b = sw_make_box(V(0, 0, 0), V(1, 1, 1), QI);
    const sw_shape on_top = sw_make_box(V(0, 0, 2), V(1, 1, 1), QI);
    sw_hit h = named_sweep("resting on top", &on_top, V(3, 1, 0), &b);
    assert_true(h.hit && h.overlapping);
    assert_near(0, h.depth, tau);
    assert_vec_near(V(0, 0, 1), h.normal, 1e-3);

    const sw_shape beside = sw_make_box(V(-3, 0, 2), V(1, 1, 1), QI);
    h = named_sweep("level with the top", &beside, V(2, 0, 0), &b);
    if (h.hit) {
        assert_near(0.5, h.t, tau / 2);
        assert_true(box_feature_distance(&b, h.feature, h.point) <= tau);
    }

    const sw_shape lowered = sw_make_box(V(-3, 0, 1.5f), V(1, 1, 1), QI);
    h = named_sweep("lowered", &lowered, V(2, 0, 0), &b);
    assert_true(h.hit && !h.overlapping);
    assert_near(0.5, h.t, tau / 2);
    assert_vec_near(V(-1, 0, 0), h.normal, 1e-3);
    assert_near(-1, h.point.x, tau);
    assert_true(h.point.z >= 0.5f - tau && h.point.z <= 1 + tau);

    /* Far from the origin, A's top 1e-13 below a flat B's bottom (an
     * in-band graze): a contact, if reported, is on B's bottom edge. */
    const sw_shape wide = sw_make_box(V(-6000, 0, -1444.2190581918262), V(1000, 1000, 1256.3319380358309), QI);
    const sw_shape thin = sw_make_box(V(-1000, 0, -186.08008911339812), V(1, 0, 1.8070310425970491), QI);
    h = named_sweep("far graze under a flat box", &wide, V(6000, 0, 0), &thin);
    if (h.hit) {
        assert_near(wide.box.center.z + wide.box.half.z, h.point.z, SWT_TOL * 6000);
    }

    /* A's top level with B's bottom: the contact (if reported) is on the
     * edge x = 2.5, z = 1. */
    const sw_shape under = sw_make_box(V(0, 0, 0), V(1, 1, 1), QI);
    const sw_shape high = sw_make_box(V(3, 0, 1.5f), V(0.5f, 0.5f, 0.5f), QI);
    h = named_sweep("top level with the bottom", &under, V(2, 0, 0), &high);
    if (h.hit) {
        assert_near(0.75, h.t, tau / 2);
        assert_near(2.5, h.point.x, tau);
        assert_near(1, h.point.z, tau);
    }
}

/* Two boxes each standing on an edge, the edges crossing at right angles:
 * A dropping onto B meets it at the crossing with the normal +z; A moving
 * sideways with its edge level with B's grazes (either answer), 2 tau
 * above misses and 2 tau below hits. */
static void edge_on_edge(void** state)
{
    (void)state;
    const double s2 = sqrt(2.0);
    const sw_quat about_x = {(sw_real)sin(M_PI / 8), 0, 0, (sw_real)cos(M_PI / 8)};
    const sw_quat about_y = {0, (sw_real)sin(M_PI / 8), 0, (sw_real)cos(M_PI / 8)};
    const sw_shape b = sw_make_box(V(0, 0, 0), V(1, 1, 1), about_y);
    const sw_shape a = sw_make_box(V(0, 0, 5), V(1, 1, 1), about_x);
    sw_hit h = named_sweep("edges crossing", &a, V(0, 0, -5), &b);
    const double tau = SWT_TOL * 5;
    assert_true(h.hit && !h.overlapping);
    assert_near((5 - 2 * s2) / 5, h.t, tau / 5);
    assert_vec_near(V(0, 0, 1), h.normal, 1e-3);
    assert_vec_near(V(0, 0, s2), h.point, tau);
    assert_int_equal(h.feature.kind, SW_FEATURE_EDGE);

    const double offsets[3] = {0, 2 * tau, -2 * tau};
    for (int i = 0; i < 3; ++i) {
        const sw_shape g = sw_make_box(V(0, -3, 2 * s2 + offsets[i]), V(1, 1, 1), about_x);
        h = named_sweep("edges grazing", &g, V(0, 5, 0), &b);
        if (i == 1) {
            assert_false(h.hit);
        } else if (i == 2) {
            assert_true(h.hit);
        }
        if (h.hit) {
            assert_near(0.4, h.t, 4 * tau);
        }
    }
}

/* A box with a corner pointing down drops onto B's top face: the corner
 * touches the face (face 5) with the normal +z. */
static void vertex_on_face(void** state)
{
    (void)state;
    const double down[3] = {-1 / sqrt(3.0), -1 / sqrt(3.0), -1 / sqrt(3.0)}, to[3] = {0, 0, -1};
    const sw_shape b = sw_make_box(V(0, 0, 0), V(2, 2, 1), QI);
    const sw_shape a = sw_make_box(V(0.25, -0.5, 4), V(0.5, 0.5, 0.5), quat_from_to(down, to));
    const sw_hit h = named_sweep("vertex on face", &a, V(0, 0, -4), &b);
    const double tau = SWT_TOL * 4;
    assert_true(h.hit && !h.overlapping);
    assert_near((3 - 0.5 * sqrt(3.0)) / 4, h.t, 2 * tau / 4);
    assert_vec_near(V(0, 0, 1), h.normal, 1e-3);
    assert_vec_near(V(0.25, -0.5, 1), h.point, 2 * tau);
    assert_int_equal(h.feature.kind, SW_FEATURE_FACE);
    assert_int_equal(h.feature.index, 5);
}

/* A small box moving diagonally onto B's vertical edge meets it edge to
 * edge (edge 11: along z at +x, +y); along the space diagonal, corner to
 * corner (vertex 7). */
static void box_hit_on_an_edge_and_a_corner(void** state)
{
    (void)state;
    const double tau = SWT_TOL * 3;
    const sw_shape b = sw_make_box(V(0, 0, 0), V(1, 1, 1), QI);
    const sw_shape e = sw_make_box(V(3, 3, 0), V(0.5f, 0.5f, 0.5f), QI);
    sw_hit h = named_sweep("edge", &e, V(-3, -3, 0), &b);
    assert_true(h.hit && !h.overlapping);
    assert_near(0.5, h.t, tau);
    assert_int_equal(h.feature.kind, SW_FEATURE_EDGE);
    assert_int_equal(h.feature.index, 11);
    assert_near(1, h.point.x, tau);
    assert_near(1, h.point.y, tau);
    const sw_shape v = sw_make_box(V(3, 3, 3), V(0.5f, 0.5f, 0.5f), QI);
    h = named_sweep("corner", &v, V(-3, -3, -3), &b);
    assert_true(h.hit && !h.overlapping);
    assert_near(0.5, h.t, tau);
    assert_int_equal(h.feature.kind, SW_FEATURE_VERTEX);
    assert_int_equal(h.feature.index, 7);
    assert_vec_near(V(1, 1, 1), h.point, tau);
}

/* Random sweeps of one hull: static under a box, or moving against a box
 * or a triangle; some shifted to graze. */
static int sweep_hull_around(const char* name, const sw_shape* hull, const slot* points, int count)
{
    stats st = {0};
    st.name = name;
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str(name));
    static tcase c;
    double hc[3], hr;
    shape_sphere(hull, hc, &hr);
    for (int i = 0; i < count; ++i) {
        memset(&c, 0, sizeof c);
        const double size = hr * swt_rng_log_range(&r, 0.01, 1);
        double dir[3];
        rand_dir(&r, dir);
        const double dist = (hr + size * 2) * swt_rng_range(&r, 1.05, 2);
        const sw_vec3 at = vd(hc[0] + dir[0] * dist, hc[1] + dir[1] * dist, hc[2] + dir[2] * dist);
        const sw_vec3 target = sw_add(vd(hc[0], hc[1], hc[2]), rand_vec(&r, hr));
        const sw_vec3 d = sw_scale(sw_sub(target, at), (sw_real)swt_rng_range(&r, 0.5, 1.5));
        sw_shape other;
        if (swt_rng_chance(&r, 0.5)) {
            make_box(&r, at, size, &other);
            c.a = other;
            c.b = *hull;
            c.d = d;
        } else {
            if (swt_rng_chance(&r, 0.5)) {
                make_box(&r, at, size, &other);
            } else {
                make_triangle(&r, at, size, false, &other);
            }
            c.a = *hull;
            c.b = other;
            c.d = sw_neg(d);
        }
        /* the hull's input points, for the reports (not freed here) */
        if (c.a.type == SW_SHAPE_HULL) {
            c.sa = *points;
        } else {
            c.sb = *points;
        }
        if (swt_rng_chance(&r, 0.3)) {
            graze(&r, &c);
        }
        check_sweep(&c, &st);
    }
    print_stats(&st);
    return st.failures;
}

/* A hull of points on two parallel circles 2e-3 apart: flat faces on top
 * and bottom, a rim of edges whose two faces are almost opposite. */
static void nearly_coplanar_hull(void** state)
{
    (void)state;
    REQUIRE_HULLS();
    sw_vec3 pts[16];
    for (int i = 0; i < 16; ++i) {
        const double a = 2 * M_PI * i / 16 + 0.1 * sin(i);
        pts[i] = vd(2 * cos(a), 2 * sin(a), (i & 1) ? 1e-3 : -1e-3);
    }
    slot sl = {.npts = 16, .what = "two circles 2e-3 apart"};
    memcpy(sl.pts, pts, sizeof pts);
    sw_hull* hull = sw_hull_create(pts, 16, NULL);
    assert_non_null(hull);
    const sw_shape h = sw_make_hull(hull, V(0.5, -0.25, 1), (sw_quat){0.1f, 0.2f, 0.3f, 0.9f});
    /* a box dropped flat onto the top face */
    const sw_shape flat = sw_make_hull(hull, V(0, 0, 0), QI);
    const sw_shape a = sw_make_box(V(0.2f, 0.1f, 3), V(0.5f, 0.5f, 0.5f), QI);
    const sw_hit hit = named_sweep("box on a flat hull", &a, V(0, 0, -4), &flat);
    assert_true(hit.hit);
    assert_near((2.5 - 1e-3) / 4, hit.t, SWT_TOL * 4 / 4);
    assert_vec_near(V(0, 0, 1), hit.normal, 1e-3);
    assert_int_equal(hit.feature.kind, SW_FEATURE_FACE);
    const int failures = sweep_hull_around("nearly coplanar hull", &h, &sl, 400);
    sw_hull_destroy(hull);
    assert_int_equal(failures, 0);
}

/* A needle 1000 long and 1 thick. */
static void long_thin_hull(void** state)
{
    (void)state;
    REQUIRE_HULLS();
    sw_vec3 pts[12];
    for (int i = 0; i < 12; ++i) {
        const double a = 2 * M_PI * i / 6;
        pts[i] = vd(i < 6 ? -500 : 500, 0.5 * cos(a + (i < 6 ? 0 : 0.3)), 0.5 * sin(a + (i < 6 ? 0 : 0.3)));
    }
    slot sl = {.npts = 12, .what = "needle 1000:1"};
    memcpy(sl.pts, pts, sizeof pts);
    sw_hull* hull = sw_hull_create(pts, 12, NULL);
    assert_non_null(hull);
    const sw_shape h = sw_make_hull(hull, V(10, -20, 5), (sw_quat){-0.3f, 0.2f, 0.1f, 0.9f});
    const int failures = sweep_hull_around("long thin hull", &h, &sl, 400);
    sw_hull_destroy(hull);
    assert_int_equal(failures, 0);
}

/* The same hull placed 1e4 from the origin, by its position and by its
 * local points. */
static void hulls_far_from_the_origin(void** state)
{
    (void)state;
    REQUIRE_HULLS();
    swt_rng r;
    swt_rng_seed(&r, 7);
    sw_vec3 pts[12], far_pts[12];
    const sw_vec3 off = V(1e4, -7e3, 4e3);
    for (int i = 0; i < 12; ++i) {
        double v[3];
        rand_dir(&r, v);
        pts[i] = vd(v[0] * 2, v[1] * 3, v[2]);
        far_pts[i] = sw_add(pts[i], off);
    }
    slot near_sl = {.npts = 12, .what = "ellipsoid points"}, far_sl = {.npts = 12, .what = "ellipsoid points at 1e4"};
    memcpy(near_sl.pts, pts, sizeof pts);
    memcpy(far_sl.pts, far_pts, sizeof far_pts);
    sw_hull* near_hull = sw_hull_create(pts, 12, NULL);
    sw_hull* far_hull = sw_hull_create(far_pts, 12, NULL);
    assert_non_null(near_hull);
    assert_non_null(far_hull);
    const sw_shape by_position = sw_make_hull(near_hull, off, (sw_quat){0.3f, -0.2f, 0.1f, 0.9f});
    const sw_shape by_points = sw_make_hull(far_hull, V(0, 0, 0), QI);
    int failures = sweep_hull_around("hull placed at 1e4", &by_position, &near_sl, 300);
    failures += sweep_hull_around("hull with points at 1e4", &by_points, &far_sl, 300);
    sw_hull_destroy(near_hull);
    sw_hull_destroy(far_hull);
    assert_int_equal(failures, 0);
}

static void box_vs_hull(void** state)
{
    (void)state;
    REQUIRE_HULLS();
    assert_int_equal(run_pair("box vs hull", K_BOX, K_HULL, false, PAIR_COUNT), 0);
}
static void hull_vs_box(void** state)
{
    (void)state;
    REQUIRE_HULLS();
    assert_int_equal(run_pair("hull vs box", K_HULL, K_BOX, false, PAIR_COUNT), 0);
}
static void hull_vs_hull(void** state)
{
    (void)state;
    REQUIRE_HULLS();
    assert_int_equal(run_pair("hull vs hull", K_HULL, K_HULL, false, PAIR_COUNT * 3 / 4), 0);
}
static void hull_vs_triangle(void** state)
{
    (void)state;
    REQUIRE_HULLS();
    assert_int_equal(run_pair("hull vs triangle", K_HULL, K_TRI, false, PAIR_COUNT), 0);
}
static void hull_vs_polygon(void** state)
{
    (void)state;
    REQUIRE_HULLS();
    assert_int_equal(run_pair("hull vs polygon", K_HULL, K_POLY, false, PAIR_COUNT), 0);
}
static void hull_vs_one_sided(void** state)
{
    (void)state;
    REQUIRE_HULLS();
    const int tri = run_pair("hull vs 1-sided tri", K_HULL, K_TRI, true, PAIR_COUNT / 2);
    const int poly = run_pair("hull vs 1-sided poly", K_HULL, K_POLY, true, PAIR_COUNT / 2);
    assert_int_equal(tri + poly, 0);
}

static void overlap_pairs(void** state)
{
    (void)state;
    int failures = run_overlap("overlap box/box", K_BOX, K_BOX, OVERLAP_COUNT);
    failures += run_overlap("overlap box/triangle", K_BOX, K_TRI, OVERLAP_COUNT);
    failures += run_overlap("overlap box/polygon", K_BOX, K_POLY, OVERLAP_COUNT);
    if (hulls_available()) {
        failures += run_overlap("overlap box/hull", K_BOX, K_HULL, OVERLAP_COUNT);
        failures += run_overlap("overlap hull/hull", K_HULL, K_HULL, OVERLAP_COUNT);
        failures += run_overlap("overlap hull/triangle", K_HULL, K_TRI, OVERLAP_COUNT);
        failures += run_overlap("overlap hull/polygon", K_HULL, K_POLY, OVERLAP_COUNT);
    }
    assert_int_equal(failures, 0);
}

static void box_against_plane(void** state)
{
    (void)state;
    run_plane("box vs plane", K_BOX, PLANE_COUNT);
}

static void hull_against_plane(void** state)
{
    (void)state;
    REQUIRE_HULLS();
    run_plane("hull vs plane", K_HULL, PLANE_COUNT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(box_sliding_on_a_box),
        swt_test(edge_on_edge),
        swt_test(vertex_on_face),
        swt_test(box_hit_on_an_edge_and_a_corner),
        swt_test(nearly_coplanar_hull),
        swt_test(long_thin_hull),
        swt_test(hulls_far_from_the_origin),
        swt_test(box_vs_box),
        swt_test(box_vs_triangle),
        swt_test(box_vs_polygon),
        swt_test(box_vs_one_sided),
        swt_test(box_vs_hull),
        swt_test(hull_vs_box),
        swt_test(hull_vs_hull),
        swt_test(hull_vs_triangle),
        swt_test(hull_vs_polygon),
        swt_test(hull_vs_one_sided),
        swt_test(walk_matches_full_method),
        swt_test(box_path_matches_general_method),
        swt_test(overlap_pairs),
        swt_test(box_against_plane),
        swt_test(hull_against_plane),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
