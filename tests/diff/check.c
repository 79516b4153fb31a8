/* The contract of DESIGN.md §3, checked for one case against the
 * long-double reference: hit/miss outside the grazing band, time (or the
 * shallow-approach rule), contact point, normal (unit; within 1e-3 rad of
 * the reference where stable under perturbations of tol*scale; always a
 * separating plane), depth, overlapping => t = 0, feature. */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>

#include "diff.h"

#define ANGLE_TOL 1e-3L
#define IGNORE_DN 2e-3L
#define SHALLOW 0.1L
#define SPREAD_TRIALS 3

const char* diff_op_name(diff_op op)
{
    static const char* const names[OP_COUNT] = {"sweep", "raycast", "sweep_inside", "overlap", "distance"};
    return (unsigned)op < OP_COUNT ? names[op] : "?";
}

/* ---- floating-point traps inside a query become a reported failure ------ */

static sigjmp_buf trap_env;
static volatile sig_atomic_t trap_armed;

static void on_sigfpe(int sig)
{
    if (trap_armed) {
        trap_armed = 0;
        siglongjmp(trap_env, 1);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void diff_install_trap_catcher(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigfpe;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGFPE, &sa, NULL);
    swt_trap_fp();
}

bool diff_guarded_valid(const sw_shape* s, bool* trapped)
{
    *trapped = false;
    if (sigsetjmp(trap_env, 1)) {
        swt_trap_fp();
        *trapped = true;
        return false;
    }
    trap_armed = 1;
    const bool ok = sw_is_valid_shape(s);
    trap_armed = 0;
    return ok;
}

/* ---- the case in long double -------------------------------------------- */

void diff_to_ref(const diff_case* c, ref_case* rc)
{
    memset(rc, 0, sizeof *rc);
    ref_from_shape(&c->b, &rc->b);
    switch (c->op) {
    case OP_RAYCAST: {
        const sw_shape origin = sw_make_point(c->ray.origin);
        rc->op = REF_RAYCAST;
        ref_from_shape(&origin, &rc->a);
        rc->d = rv_scale(rv_of(c->ray.dir), c->ray.max);
        return;
    }
    case OP_SWEEP:
        rc->op = REF_SWEEP;
        rc->skin = c->opt.skin;
        break;
    case OP_SWEEP_INSIDE:
        rc->op = REF_SWEEP_INSIDE;
        break;
    case OP_OVERLAP:
        rc->op = REF_OVERLAP;
        break;
    case OP_DISTANCE:
        rc->op = REF_DISTANCE;
        break;
    case OP_COUNT:
        break;
    }
    ref_from_shape(&c->a, &rc->a);
    rc->d = rv_of(c->d);
}

/* ---- checking ----------------------------------------------------------- */

typedef struct ctx {
    const diff_case* c;
    ref_case rc;
    ref_result rr;
    ref_real scale, band;
    uint64_t seed;
    diff_stats* st;
    diff_outcome* out;
    bool verbose;
    bool either;               /* the reference outcome lies in a band where either answer is accepted */
    const diff_judge_opts* jo; /* a mesh's triangle (diff_judge), else NULL */
} ctx;

static void violation(ctx* x, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

static void violation(ctx* x, const char* fmt, ...)
{
    x->out->violations++;
    size_t len = strlen(x->out->why);
    if (len + 8 >= sizeof x->out->why) {
        return;
    }
    if (len > 0) {
        strcpy(x->out->why + len, "; ");
        len += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->out->why + len, sizeof x->out->why - len, fmt, ap);
    va_end(ap);
}

static void track(double* worst, ref_real v)
{
    if ((double)v > *worst) {
        *worst = (double)v;
    }
}

static ref_real rel(ctx* x, ref_real v) { return x->scale > 0 ? v / x->scale : v; }

static bool vec_is_zero(sw_vec3 v) { return v.x == 0 && v.y == 0 && v.z == 0; }

/* Every field zero but status (a miss, or the overlap/distance "no"). */
static bool hit_is_empty(sw_hit h)
{
    return !h.overlapping && h.t == 0 && h.depth == 0 && vec_is_zero(h.point) && vec_is_zero(h.normal) &&
           h.feature.kind == SW_FEATURE_NONE && h.feature.index == 0;
}

/* Unit within the contract's tolerance; returns the normal in long double. */
static ref_vec check_unit(ctx* x, sw_vec3 n, const char* what)
{
    const ref_vec v = rv_of(n);
    const ref_real len = rv_len(v);
    if (!(fabsl(len - 1) <= (ref_real)SW_TOLERANCE)) {
        violation(x, "%s not unit (length %.9Lg)", what, len);
    }
    return v;
}

/* A mesh's flat edge (diff_judge_opts): whether the library's normal n is
 * the face normal there (on A's side, when that is decided). */
static bool is_flat_normal(const ctx* x, ref_vec n)
{
    if (!x->jo || !x->jo->flat) {
        return false;
    }
    const ref_vec f = x->jo->flat_normal;
    const ref_real up = rv_angle(n, f), down = rv_angle(n, rv_scale(f, -1));
    return up <= ANGLE_TOL || (!x->jo->flat_sided && down <= ANGLE_TOL);
}

/* DESIGN §2a: a contact on a flat edge (and on nothing else) reports the
 * face normal, never the edge's own direction. True when the normal was
 * judged here (flat: it is the face normal), false when the general
 * checks apply. */
static bool check_flat_normal(ctx* x, ref_vec n)
{
    if (!x->jo || !x->jo->flat) {
        return false;
    }
    if (is_flat_normal(x, n)) {
        return true;
    }
    if (x->jo->flat_only) {
        violation(x,
                  "a ghost normal: the contact lies on a flat edge or vertex of the mesh, the normal is %.3Lg rad "
                  "from the face normal (%.9Lg, %.9Lg, %.9Lg)",
                  fminl(rv_angle(n, x->jo->flat_normal), rv_angle(n, rv_scale(x->jo->flat_normal, -1))),
                  x->jo->flat_normal.x, x->jo->flat_normal.y, x->jo->flat_normal.z);
        return true;
    }
    return false;
}

/* Angle check against the reference where its normal is stable. */
static void check_angle(ctx* x, ref_vec lib, const ref_case* rc, const ref_result* rr)
{
    if (!rr->has_normal) {
        return;
    }
    /* An overlap of two polytopes whose depth a rival axis, far in angle,
     * nearly matches: random perturbations rarely find the configurations
     * where it wins, the separating-axis margins do. */
    const bool overlapping = rc->op == REF_OVERLAP ? rr->sdist <= 0 : rr->t == 0 && rr->g0 + rc->skin <= 0;
    if (overlapping && !ref_solid_normal_unique(&rc->a, &rc->b, x->band)) {
        return;
    }
    const ref_real spread = ref_normal_spread(rc, rr, x->band, SPREAD_TRIALS, x->seed);
    if (!(spread <= ANGLE_TOL)) {
        return;
    }
    const ref_real a = rv_angle(lib, rr->normal);
    x->st->normals_checked++;
    track(&x->st->normal, a);
    if (!(a <= ANGLE_TOL)) {
        violation(x, "normal %.3Lg rad from the reference (%.9Lg, %.9Lg, %.9Lg), perturbation spread %.2Lg", a,
                  rr->normal.x, rr->normal.y, rr->normal.z, spread);
    }
}

/* The normal at t = 0 (B toward A) as a static overlap case, so its
 * stability can be measured even when the sweep's contact is later. */
static bool stable_initial_normal(ctx* x, ref_vec* n)
{
    ref_case s = x->rc;
    s.op = REF_OVERLAP;
    s.d = rv(0, 0, 0);
    s.skin = 0;
    ref_result r;
    ref_solve(&s, &r);
    *n = r.normal;
    return r.has_normal && ref_normal_spread(&s, &r, x->band, SPREAD_TRIALS, x->seed) <= ANGLE_TOL;
}

enum expect { EITHER, MUST_HIT, MUST_MISS };

/* Whether the one-sided decision (d . n < 0 and contact normal . n > 0) can
 * go either way: the reference flags products within 2e-3 of 0, and a
 * polygon of little area relative to its size has a front normal that
 * inputs moved by the band tilt by up to 2 band perimeter / |2 area|. */
static bool one_sided_unstable(const ctx* x)
{
    const ref_shape* b = &x->rc.b;
    const ref_result* rr = &x->rr;
    if (rr->one_sided_ambiguous) {
        return true;
    }
    ref_vec area2 = rv(0, 0, 0);
    ref_real perimeter = 0;
    for (int i = 0; i < b->n; ++i) {
        const ref_vec e = rv_sub(b->v[(i + 1) % b->n], b->v[i]);
        perimeter += rv_len(e);
        if (i >= 1 && i + 1 < b->n) {
            area2 = rv_add(area2, rv_cross(rv_sub(b->v[i], b->v[0]), rv_sub(b->v[i + 1], b->v[0])));
        }
    }
    const ref_real len = rv_len(area2);
    if (!(len > 0)) {
        return true;
    }
    const ref_real tilt = 2 * x->band * perimeter / len + 2e-3L;
    const ref_real dlen = rv_len(x->rc.d);
    const ref_real dn = dlen > 0 ? rv_dot(x->rc.d, b->normal) / dlen : 0;
    const ref_real nn = rr->has_normal ? rv_dot(rr->normal, b->normal) : 0;
    return fabsl(dn) <= tilt || ((rr->hit || rr->one_sided_reject) && rr->t > 0 && fabsl(nn) <= tilt);
}

static void check_feature_none(ctx* x, sw_hit h)
{
    if (h.feature.kind != SW_FEATURE_NONE || h.feature.index != 0) {
        violation(x, "feature %d/%d, expected none (B has no features)", (int)h.feature.kind, h.feature.index);
    }
}

static int feature_count(const ref_shape* b, sw_feature_kind kind)
{
    switch (b->kind) {
    case REF_HULL:
        return b->n < 2 ? 0 : (kind == SW_FEATURE_VERTEX ? 2 : (kind == SW_FEATURE_EDGE ? 1 : 0));
    case REF_POLY:
        return kind == SW_FEATURE_FACE ? 1 : b->n;
    case REF_BOX:
        return kind == SW_FEATURE_VERTEX ? 8 : (kind == SW_FEATURE_EDGE ? 12 : 6);
    case REF_PLANE:
        return kind == SW_FEATURE_FACE ? 1 : 0;
    case REF_POLYTOPE:
        return kind == SW_FEATURE_VERTEX ? b->n : (kind == SW_FEATURE_EDGE ? b->ne : b->nlf);
    }
    return 0;
}

/* DESIGN §2's "lowest dimension": a lower-dimensional feature containing
 * B's contact point q (within 1% of the band) must be reported instead,
 * unless the normal n is in the reported feature's normal cone: a tie that
 * the point's rounding (far from the origin, most of that 1%) cannot break. */
static void check_lowest(ctx* x, sw_hit h, ref_vec q, ref_vec n)
{
    const ref_shape* b = &x->rc.b;
    rv_normalize(&n);
    const ref_real excess = ref_feature_cone_excess(b, h.feature.kind, h.feature.index, n);
    if (excess <= ANGLE_TOL) {
        return;
    }
    for (int k = SW_FEATURE_VERTEX; k < (int)h.feature.kind; ++k) {
        for (int i = 0; i < feature_count(b, (sw_feature_kind)k); ++i) {
            const ref_real dk = ref_feature_distance(b, (sw_feature_kind)k, i, q);
            if (dk <= 0.01L * x->band) {
                violation(x,
                          "feature %s %d reported, but the contact lies on %s %d (%.3Lg from it) and the normal is "
                          "%.3Lg outside the reported feature's normal cone",
                          sw_feature_kind_name(h.feature.kind), h.feature.index,
                          sw_feature_kind_name((sw_feature_kind)k), i, dk, excess);
                return;
            }
        }
    }
}

/* A contact after the start: the feature must contain B's point nearest
 * the reported contact point (within the band), of lowest dimension. */
static void check_feature(ctx* x, sw_hit h, ref_vec p, ref_vec n)
{
    const ref_shape* b = &x->rc.b;
    if (b->kind == REF_HULL && b->n < 2) {
        check_feature_none(x, h);
        return;
    }
    ref_shape pt = {0};
    pt.kind = REF_HULL;
    pt.n = 1;
    pt.v[0] = p;
    ref_witness w;
    ref_sdist(&pt, b, &w);
    const ref_vec q = w.pb;
    const ref_real dist = ref_feature_distance(b, h.feature.kind, h.feature.index, q);
    if (!(dist <= 2 * x->band)) {
        violation(x, "feature %s %d is %.3Lg from the contact (band %.3Lg)", sw_feature_kind_name(h.feature.kind),
                  h.feature.index, dist, x->band);
        return;
    }
    check_lowest(x, h, q, n);
}

static ref_shape core_of(const ref_shape* s)
{
    ref_shape c = *s;
    if (c.kind == REF_HULL) {
        c.radius = 0;
    }
    return c;
}

/* An initial overlap: the reported point lies inside B, so B's boundary
 * point nearest it says nothing. Cores apart: the feature must come as
 * close to A's core as B's core does (ties in a contact region allowed).
 * Cores crossing: it must touch B's supporting plane along the normal or be
 * nearest the point. */
static void check_feature_overlap(ctx* x, sw_hit h, ref_vec p, ref_vec n)
{
    const ref_shape* b = &x->rc.b;
    if (b->kind == REF_HULL && b->n < 2) {
        check_feature_none(x, h);
        return;
    }
    if (b->kind == REF_PLANE) {
        check_feature(x, h, p, n);
        return;
    }
    ref_shape f;
    if (!ref_feature_shape(b, h.feature.kind, h.feature.index, &f)) {
        violation(x, "feature %s %d: B has no such feature", sw_feature_kind_name(h.feature.kind), h.feature.index);
        return;
    }
    const ref_shape ac = core_of(&x->rc.a), bc = core_of(b);
    ref_witness w, wf;
    const ref_real core = ref_sdist(&ac, &bc, &w);
    const ref_real band = x->band;
    if (core > 2 * band) {
        const ref_real fd = ref_sdist(&ac, &f, &wf);
        if (!(fd <= core + 2 * band)) {
            violation(x, "feature %s %d is %.3Lg from A's core, B's core %.3Lg (band %.3Lg)",
                      sw_feature_kind_name(h.feature.kind), h.feature.index, fd, core, band);
            return;
        }
        check_lowest(x, h, w.pb, n);
        return;
    }
    /* DESIGN §2 ties the feature to the point, and none contains one inside. */
    const ref_real hb = ref_support(&bc, n), hf = ref_support(&f, n);
    const ref_real at_point = ref_feature_distance(b, h.feature.kind, h.feature.index, p);
    const ref_real nearest = fabsl(ref_point_sdist(&bc, p));
    if (!(hf >= hb - 2 * band) && !(at_point <= nearest + 2 * band)) {
        violation(x,
                  "feature %s %d is %.3Lg inside B's supporting plane along the normal and %.3Lg from the point, B's "
                  "boundary %.3Lg (band %.3Lg)",
                  sw_feature_kind_name(h.feature.kind), h.feature.index, hb - hf, at_point, nearest, band);
    }
}

/* DESIGN §3's shallow-approach rule at tf: A(t) within the band of
 * touching B and never deeper than the band before. */
static bool shallow_ok(ctx* x, ref_real tf)
{
    if (x->c->op == OP_SWEEP_INSIDE) {
        const ref_real st = ref_g(&x->rc, tf);
        return fabsl(st) <= x->band && fminl(x->rr.g0, st) >= -x->band;
    }
    return fabsl(ref_g(&x->rc, tf)) <= x->band && ref_gmin_on(&x->rc, 0, tf) >= -x->band;
}

/* Whether g falls at least SHALLOW |d| per unit of t just before the exact
 * contact. Where several normals are valid (a thin plate's rim sliding
 * over a box's edge), the reference's normal may be steep to d while A
 * slides along B, touching within the band long before the exact root:
 * the approach is shallow. g is convex, so a secant that falls slower
 * than that proves the fall at the contact slower too. */
static bool g_falls_steeply(ctx* x, ref_real dlen)
{
    const ref_real t = x->rr.t, h = fminl(t, 1e-3L);
    if (!(h > 0)) {
        return true;
    }
    return ref_g(&x->rc, t - h) - ref_g(&x->rc, t) >= SHALLOW * dlen * h;
}

/* What the reference demands of a sweep or ray cast: hit, miss or either
 * (the grazing band, one-sided decisions within their tolerance, and
 * ignore_separating). lib_hit: whether the library hit (a disagreement
 * asks whether the one-sided verdict can flip), -1 when judging no answer
 * (then a must-hit is asked). */
static enum expect sweep_expect(ctx* x, int lib_hit, const char** why)
{
    const ref_result* rr = &x->rr;
    const ref_real band = x->band;
    const ref_vec d = x->rc.d;
    const ref_real dlen = rv_len(d);
    enum expect expect = rr->gmin < -band ? MUST_HIT : (rr->gmin > band ? MUST_MISS : EITHER);
    const char* why_expect = "min distance over [0,1]";
    const bool one_sided = x->rc.b.kind == REF_POLY && x->rc.b.one_sided;
    if (rr->one_sided_reject) {
        const bool in_band = rr->t == 0 ? fabsl(rr->g0) <= band : rr->gmin >= -band;
        expect = in_band ? EITHER : MUST_MISS;
        why_expect = rr->t == 0 ? "one-sided face that A starts touching" : "one-sided face hit from behind";
    }
    if (one_sided && rr->t > 0 && one_sided_unstable(x)) {
        expect = EITHER; /* accepted or rejected, the decision is within its tolerance: either */
    }
    /* A contact normal that is not unique (A's end at B's vertex) lets
     * inputs within the band flip the decision; asked only on a
     * disagreement, since it solves every perturbed copy. */
    const bool disagree = lib_hit < 0 ? expect == MUST_HIT : (lib_hit != 0) != (expect == MUST_HIT);
    if (one_sided && rr->t > 0 && expect != EITHER && disagree &&
        ref_one_sided_flips(&x->rc, rr, band, SPREAD_TRIALS, x->seed)) {
        expect = EITHER;
    }
    if (one_sided && fabsl(rr->g0) <= band) {
        expect = EITHER; /* a start within the band may count as touching: ignored */
    }
    if (x->c->op == OP_SWEEP && x->c->opt.ignore_separating && rr->g0 <= band) {
        ref_vec n0;
        if (dlen == 0) {
            expect = MUST_MISS;
            why_expect = "ignore_separating with d = 0";
        } else if (x->jo && x->jo->flat_start) {
            /* A start on a mesh's flat edge reads the face normal (on A's
             * side; where A straddles its plane evenly, either). */
            if (!x->jo->flat_start_only || !x->jo->flat_start_sided) {
                expect = EITHER;
            } else {
                const ref_real dn = rv_dot(d, x->jo->start_normal) / dlen;
                if (dn >= IGNORE_DN) {
                    expect = rr->g0 < -band ? MUST_MISS : EITHER;
                    why_expect = "ignore_separating with d.n >= 0 (n: a flat edge's face normal)";
                } else if (dn > -IGNORE_DN) {
                    expect = EITHER;
                }
            }
        } else if (!stable_initial_normal(x, &n0)) {
            expect = EITHER; /* several normals are valid at t = 0 */
        } else {
            const ref_real dn = rv_dot(d, n0) / dlen;
            if (dn >= IGNORE_DN) {
                expect = rr->g0 < -band ? MUST_MISS : EITHER; /* a start within the band may count as apart */
                why_expect = "ignore_separating with d.n >= 0";
            } else if (dn > -IGNORE_DN) {
                expect = EITHER;
            }
        }
    }
    *why = why_expect;
    return expect;
}

/* Whether the reference's contact is steep: its time is then judged
 * within band / |d| (else by the shallow-approach rule). */
static bool sweep_steep(ctx* x)
{
    const ref_result* rr = &x->rr;
    const ref_real dlen = rv_len(x->rc.d);
    const bool contact = rr->hit || rr->one_sided_reject;
    return contact && rr->has_normal && fabsl(rv_dot(rr->normal, x->rc.d)) >= SHALLOW * dlen &&
           g_falls_steeply(x, dlen);
}

static void check_sweep(ctx* x, sw_hit h)
{
    const ref_result* rr = &x->rr;
    const ref_real band = x->band;
    const ref_vec d = x->rc.d;
    const ref_real dlen = rv_len(d);
    const ref_real skin = x->rc.skin;
    const bool is_ray = x->c->op == OP_RAYCAST;
    const char* why_expect = "";
    const enum expect expect = sweep_expect(x, h.hit, &why_expect);
    x->either = expect == EITHER;

    if (!h.hit) {
        if (!hit_is_empty(h)) {
            violation(x, "a miss with non-zero fields");
        }
        if (expect == MUST_HIT) {
            violation(x, "missed; reference hits at t=%.9Lg (g0=%.3Lg, min g=%.3Lg at t=%.6Lg, band %.3Lg)", rr->t,
                      rr->g0, rr->gmin, rr->tmin, band);
        }
        return;
    }
    if (expect == MUST_MISS) {
        violation(x, "hit at t=%.9g (overlapping=%d); reference: miss (%s; g0=%.3Lg, min g=%.3Lg, band %.3Lg)",
                  (double)h.t, h.overlapping, why_expect, rr->g0, rr->gmin, band);
        return;
    }

    const ref_real max = is_ray ? (ref_real)x->c->ray.max : 1;
    if (!(h.t >= 0 && h.t <= max)) {
        violation(x, "t=%.9g outside [0, %.9Lg]", (double)h.t, max);
        return;
    }
    const ref_real tf = max > 0 ? (ref_real)h.t / max : 0;
    const ref_shape at = ref_translated(&x->rc.a, rv_scale(d, tf));
    const ref_vec p = rv_of(h.point);
    const ref_vec n = check_unit(x, h.normal, "normal");

    if (h.overlapping) {
        if (h.t != 0) {
            violation(x, "overlapping with t=%.9g", (double)h.t);
        }
        if (rr->g0 > band) {
            violation(x, "overlapping, but A starts %.3Lg from B%s (band %.3Lg)", rr->g0, skin > 0 ? "+skin" : "",
                      band);
        }
        const ref_real depth_err = fabsl((ref_real)h.depth + rr->g0);
        track(&x->st->depth, rel(x, depth_err));
        if (!(depth_err <= band)) {
            violation(x, "depth %.9g, reference %.9Lg (band %.3Lg)", (double)h.depth, -rr->g0, band);
        }
        const ref_real sa = ref_point_sdist(&x->rc.a, p), sb = ref_point_sdist(&x->rc.b, p) - skin;
        track(&x->st->point, rel(x, fmaxl(0, fmaxl(sa, sb))));
        if (!(sa <= band && sb <= band)) {
            violation(x, "point not in A and B%s: %.3Lg from A, %.3Lg from B (band %.3Lg)", skin > 0 ? "+skin" : "", sa,
                      sb, band);
        }
        /* The normal must be a penetration direction: moving A by the depth
         * along it separates (overlap along n at most the depth). A mesh's
         * flat edge reports its face normal (DESIGN §2a): the same holds. */
        const bool flat = check_flat_normal(x, n);
        const ref_real pen = ref_support(&x->rc.b, n) + skin + ref_support(&x->rc.a, rv_scale(n, -1));
        if (!(pen <= -rr->g0 + band)) { /* +infinity: not along a half-space's normal */
            violation(x, "normal is not a separating direction%s: overlap along it %.9Lg > depth %.9Lg + band",
                      flat ? " (a flat edge's face normal with the triangle's own depth)" : "", pen, -rr->g0);
        }
        if (rr->t == 0 && !flat) {
            check_angle(x, n, &x->rc, rr);
        }
        check_feature_overlap(x, h, p, n);
        return;
    }

    if (h.depth != 0) {
        violation(x, "depth %.9g on a contact that is not an initial overlap", (double)h.depth);
    }
    if (rr->g0 < -band) {
        violation(x, "A starts inside B (g0=%.3Lg, band %.3Lg) but overlapping=false, t=%.9g", rr->g0, band,
                  (double)h.t);
    }
    /* Time: exact within band / |d|, or the shallow-approach rule. */
    const bool contact = rr->hit || rr->one_sided_reject;
    const bool steep = sweep_steep(x);
    /* A shallow approach the library reports (its normal) may touch within
     * the band before the exact steep contact: judged by the shallow rule. */
    const bool lib_shallow = fabsl(rv_dot(n, d)) < SHALLOW * dlen;
    bool at_exact = true; /* the contact is the exact one (its normal is comparable) */
    if (steep) {
        const ref_real err = fabsl(tf - rr->t) * dlen;
        track(&x->st->time, rel(x, err));
        at_exact = err <= band;
        if (!at_exact && !(lib_shallow && shallow_ok(x, tf))) {
            violation(x, "t=%.9g, reference %.12Lg: |dt|*|d| = %.3Lg > band %.3Lg", (double)h.t, rr->t * max, err,
                      band);
        }
    } else {
        const ref_real gt = ref_g(&x->rc, tf), gbefore = ref_gmin_on(&x->rc, 0, tf);
        track(&x->st->shallow, rel(x, fmaxl(fabsl(gt), -gbefore)));
        if (!(fabsl(gt) <= band && gbefore >= -band)) {
            violation(x, "shallow contact at t=%.9g: g(t)=%.3Lg, min g before=%.3Lg (band %.3Lg; reference t=%.9Lg)",
                      (double)h.t, gt, gbefore, band, rr->t);
        }
    }
    /* Point: on A(t), at distance skin from B. */
    const ref_real sa = ref_point_sdist(&at, p), sb = ref_point_sdist(&x->rc.b, p) - skin;
    track(&x->st->point, rel(x, fmaxl(fmaxl(sa, 0), fabsl(sb))));
    if (!(sa <= band && fabsl(sb) <= band)) {
        violation(x, "point %.3Lg outside A(t), %.3Lg from B%s's surface (band %.3Lg)", sa, sb, skin > 0 ? "+skin" : "",
                  band);
    }
    /* Separating plane through the point, with B inflated by the skin. A
     * mesh's flat edge reports the face normal, whose plane through the
     * point need not separate A(t) from the triangle (A may reach past the
     * edge, over or through a neighbour that a one-sided start or
     * ignore_separating skipped; with a skin the point lies off the edge
     * along another direction): the point must lie on the normal's side of
     * the face, within the skin. */
    const ref_real np = rv_dot(n, p);
    const ref_real hb = ref_support(&x->rc.b, n) + skin, la = -ref_support(&at, rv_scale(n, -1));
    const bool flat = check_flat_normal(x, n);
    if (flat) {
        if (!(np - (hb - skin) >= -skin - band)) {
            violation(x, "the point lies %.3Lg behind the face on the flat normal's side (skin %.3Lg, band %.3Lg)",
                      hb - skin - np, skin, band);
        }
    } else if (!(hb <= np + band && la >= np - band)) {
        violation(x, "normal is not a separating plane: B%s reaches %.3Lg past it, A(t) %.3Lg behind it (band %.3Lg)",
                  skin > 0 ? "+skin" : "", hb - np, np - la, band);
    }
    /* A shallow contact may legitimately come at another time, where the
     * normal differs: only the separating plane is checked then. */
    if (!flat && contact && steep && at_exact) {
        check_angle(x, n, &x->rc, rr);
    }
    check_feature(x, h, p, n);
}

/* A start within the band may be taken as inside; the answer is then that
 * of the sub-sweep *sub from the slack's maximum *t0 (golden section on the
 * concave slack). False when the slack never gets positive. */
static bool inside_late_case(const ref_case* c, ref_case* sub, ref_real* t0)
{
    const ref_real golden = 0.6180339887498948482L;
    ref_real a = 0, b = 1, x1 = b - golden * (b - a), x2 = a + golden * (b - a);
    ref_real f1 = ref_g(c, x1), f2 = ref_g(c, x2);
    for (int i = 0; i < 90; ++i) {
        if (f1 >= f2) {
            b = x2, x2 = x1, f2 = f1, x1 = b - golden * (b - a), f1 = ref_g(c, x1);
        } else {
            a = x1, x1 = x2, f1 = f2, x2 = a + golden * (b - a), f2 = ref_g(c, x2);
        }
    }
    const ref_real top = f1 >= f2 ? x1 : x2;
    if (!(ref_g(c, top) > 0)) {
        return false;
    }
    *sub = *c;
    sub->a = ref_translated(&c->a, rv_scale(c->d, top));
    sub->d = rv_scale(c->d, 1 - top);
    *t0 = top;
    return true;
}

static void check_inside(ctx* x, sw_hit h)
{
    const ref_result* rr = &x->rr;
    const ref_real band = x->band;
    const ref_vec d = x->rc.d;
    const ref_real dlen = rv_len(d);
    const bool box = x->rc.b.kind == REF_BOX;

    enum expect expect = EITHER;
    if (rr->g0 < -band || (rr->g0 > band && rr->g1 < -band)) {
        expect = MUST_HIT;
    } else if (fminl(rr->g0, rr->g1) > band) {
        expect = MUST_MISS;
    }
    x->either = expect == EITHER;

    if (!h.hit) {
        if (!hit_is_empty(h)) {
            violation(x, "a miss with non-zero fields");
        }
        if (expect == MUST_HIT) {
            violation(x, "missed; reference: slack %.3Lg at t=0, %.3Lg at t=1 (band %.3Lg)", rr->g0, rr->g1, band);
        }
        return;
    }
    if (expect == MUST_MISS) {
        violation(x, "hit at t=%.9g; reference: A stays inside with slack >= %.3Lg (band %.3Lg)", (double)h.t,
                  fminl(rr->g0, rr->g1), band);
        return;
    }
    if (!(h.t >= 0 && h.t <= 1)) {
        violation(x, "t=%.9g outside [0, 1]", (double)h.t);
        return;
    }
    const ref_vec n = check_unit(x, h.normal, "normal");
    if (h.overlapping) {
        if (h.t != 0) {
            violation(x, "overlapping with t=%.9g", (double)h.t);
        }
        if (rr->g0 > band) {
            violation(x, "overlapping, but A starts strictly inside (slack %.3Lg, band %.3Lg)", rr->g0, band);
        }
        return; /* depth, normal and point are unspecified */
    }
    if (rr->g0 < -band) {
        violation(x, "A does not start inside B (slack %.3Lg) but overlapping=false", rr->g0);
    }
    if (h.depth != 0) {
        violation(x, "depth %.9g on a contact that is not an initial overlap", (double)h.depth);
    }
    const ref_real tf = h.t;
    const ref_shape at = ref_translated(&x->rc.a, rv_scale(d, tf));
    /* Judge against the in-band reading "A starts inside" when the
     * library's time is nearer to it than to the exact answer's. */
    const ref_case* jc = &x->rc;
    const ref_result* jr = rr;
    ref_case late_case;
    ref_result late_rr;
    ref_real late_t0 = 0;
    if (rr->g0 <= band && rr->g0 > -band && inside_late_case(&x->rc, &late_case, &late_t0)) {
        ref_solve(&late_case, &late_rr);
        const ref_real late = late_t0 + late_rr.t * (1 - late_t0);
        if (late_rr.hit && fabsl(tf - late) < fabsl(tf - rr->t)) {
            jc = &late_case;
            jr = &late_rr;
        }
    }
    const ref_real jt = jc == &x->rc ? rr->t : late_t0 + jr->t * (1 - late_t0);
    const bool steep = jr->hit && jr->has_normal && fabsl(rv_dot(jr->normal, d)) >= SHALLOW * dlen;
    const bool lib_shallow = fabsl(rv_dot(n, d)) < SHALLOW * dlen; /* as in check_sweep */
    bool at_exact = true;
    if (steep) {
        const ref_real err = fabsl(tf - jt) * dlen;
        track(&x->st->time, rel(x, err));
        at_exact = err <= band;
        if (!at_exact && !(lib_shallow && shallow_ok(x, tf))) {
            violation(x, "t=%.9g, reference %.12Lg: |dt|*|d| = %.3Lg > band %.3Lg", (double)h.t, jt, err, band);
        }
    } else {
        const ref_real st = ref_g(&x->rc, tf), before = fminl(rr->g0, st);
        track(&x->st->shallow, rel(x, fmaxl(fabsl(st), -before)));
        if (!(fabsl(st) <= band && before >= -band)) {
            violation(x, "shallow exit at t=%.9g: slack %.3Lg, min before %.3Lg (band %.3Lg; reference t=%.9Lg)",
                      (double)h.t, st, before, band, rr->t);
        }
    }
    const ref_vec p = rv_of(h.point);
    const ref_real sa = ref_point_sdist(&at, p), sb = fabsl(ref_point_sdist(&x->rc.b, p));
    track(&x->st->point, rel(x, fmaxl(fmaxl(sa, 0), sb)));
    if (!(sa <= band && sb <= band)) {
        violation(x, "point %.3Lg outside A(t), %.3Lg from B's boundary (band %.3Lg)", sa, sb, band);
    }
    /* The tangent plane at the contact: B and A(t) both on its inner side. */
    const ref_real np = rv_dot(n, p);
    const ref_real lb = -ref_support(&x->rc.b, rv_scale(n, -1)), la = -ref_support(&at, rv_scale(n, -1));
    if (!(lb >= np - band && la >= np - band)) {
        violation(x, "normal is not an inward tangent plane: B %.3Lg and A(t) %.3Lg behind it (band %.3Lg)", np - lb,
                  np - la, band);
    }
    if (steep && at_exact) {
        check_angle(x, n, jc, jr);
    }
    if (!box) {
        check_feature_none(x, h);
        return;
    }
    const int f = h.feature.index;
    if (h.feature.kind != SW_FEATURE_FACE || f < 0 || f > 5) {
        violation(x, "feature %d/%d, expected a face", (int)h.feature.kind, f);
        return;
    }
    const ref_real fs = ref_face_slack(&at, &x->rc.b, f);
    if (!(fabsl(fs) <= band)) {
        violation(x, "face %d reported, but A(t) is %.3Lg from it (band %.3Lg)", f, fs, band);
    }
    const ref_real fa = rv_angle(n, ref_face_normal(&x->rc.b, f));
    if (!(fa <= ANGLE_TOL)) {
        violation(x, "normal %.3Lg rad from face %d's inward normal", fa, f);
    }
}

static void check_overlap(ctx* x, sw_overlap_result o)
{
    const ref_result* rr = &x->rr;
    const ref_real band = x->band;
    enum expect expect = rr->sdist < -band ? MUST_HIT : (rr->sdist > band ? MUST_MISS : EITHER);
    x->either = expect == EITHER;
    if (!o.overlapping) {
        if (o.depth != 0 || !vec_is_zero(o.normal) || !vec_is_zero(o.point)) {
            violation(x, "not overlapping with non-zero fields");
        }
        if (expect == MUST_HIT) {
            violation(x, "not overlapping; reference penetration %.9Lg (band %.3Lg)", -rr->sdist, band);
        }
        return;
    }
    if (expect == MUST_MISS) {
        violation(x, "overlapping; reference distance %.9Lg (band %.3Lg)", rr->sdist, band);
        return;
    }
    const ref_real depth_err = fabsl((ref_real)o.depth + rr->sdist);
    track(&x->st->depth, rel(x, depth_err));
    if (!(o.depth >= 0 && depth_err <= band)) {
        violation(x, "depth %.9g, reference %.9Lg (band %.3Lg)", (double)o.depth, -rr->sdist, band);
    }
    const ref_vec n = check_unit(x, o.normal, "normal");
    const ref_vec p = rv_of(o.point);
    const ref_real sa = ref_point_sdist(&x->rc.a, p), sb = ref_point_sdist(&x->rc.b, p);
    track(&x->st->point, rel(x, fmaxl(0, fmaxl(sa, sb))));
    if (!(sa <= band && sb <= band)) {
        violation(x, "point not in A and B: %.3Lg from A, %.3Lg from B (band %.3Lg)", sa, sb, band);
    }
    const ref_real pen = ref_support(&x->rc.b, n) + ref_support(&x->rc.a, rv_scale(n, -1));
    if (!(pen <= -rr->sdist + band)) {
        violation(x, "normal is not a penetration direction: overlap along it %.9Lg > depth %.9Lg + band %.3Lg", pen,
                  -rr->sdist, band);
    }
    check_angle(x, n, &x->rc, rr);
}

static void check_distance(ctx* x, sw_distance_result r)
{
    const ref_result* rr = &x->rr;
    const ref_real band = x->band;
    const ref_real dist = fmaxl(rr->sdist, 0);
    x->either = fabsl(rr->sdist) <= band;
    const ref_real err = fabsl((ref_real)r.distance - dist);
    track(&x->st->distance, rel(x, err));
    if (!(r.distance >= 0 && err <= band)) {
        violation(x, "distance %.9g, reference %.9Lg (band %.3Lg)", (double)r.distance, dist, band);
    }
    if (rr->sdist < -band && r.distance != 0) {
        violation(x, "distance %.9g for overlapping shapes (penetration %.3Lg)", (double)r.distance, -rr->sdist);
    }
    const ref_vec pa = rv_of(r.point_a), pb = rv_of(r.point_b);
    const ref_real sa = ref_point_sdist(&x->rc.a, pa), sb = ref_point_sdist(&x->rc.b, pb);
    const ref_real gap = fabsl(rv_len(rv_sub(pb, pa)) - (ref_real)r.distance);
    track(&x->st->point, rel(x, fmaxl(fmaxl(fmaxl(sa, sb), gap), 0)));
    if (!(sa <= band && sb <= band)) {
        violation(x, "closest points off their shapes: point_a %.3Lg from A, point_b %.3Lg from B (band %.3Lg)", sa, sb,
                  band);
    }
    if (!(gap <= band)) {
        violation(x, "|point_b - point_a| differs from the distance by %.3Lg (band %.3Lg)", gap, band);
    }
    if (r.distance == 0 && !(r.point_a.x == r.point_b.x && r.point_a.y == r.point_b.y && r.point_a.z == r.point_b.z)) {
        violation(x, "distance 0 but point_a != point_b");
    }
}

typedef diff_answers answers;

/* Runs the case's operation on the shapes a and b (the case's own, or
 * copies); returns the status. */
static sw_status run_op(const diff_case* c, const sw_shape* a, const sw_shape* b, answers* r)
{
    switch (c->op) {
    case OP_SWEEP:
        r->h = sw_sweep(a, c->d, b, c->opt_null ? NULL : &c->opt);
        return r->h.status;
    case OP_RAYCAST:
        r->h = sw_raycast(&c->ray, b);
        return r->h.status;
    case OP_SWEEP_INSIDE:
        r->h = sw_sweep_inside(a, c->d, b);
        return r->h.status;
    case OP_OVERLAP:
        r->o = sw_overlap(a, b);
        return r->o.status;
    case OP_DISTANCE:
        r->dr = sw_distance(a, b);
        return r->dr.status;
    case OP_COUNT:
        break;
    }
    return SW_OK;
}

#define SAME(f) (memcmp(&p.f, &q.f, sizeof p.f) == 0)

/* Whether two answers of the case's operation are the same, bit for bit. */
static bool same_answers(diff_op op, const answers* x, const answers* y)
{
    if (op == OP_OVERLAP) {
        const sw_overlap_result p = x->o, q = y->o;
        return SAME(status) && SAME(overlapping) && SAME(depth) && SAME(normal) && SAME(point);
    }
    if (op == OP_DISTANCE) {
        const sw_distance_result p = x->dr, q = y->dr;
        return SAME(status) && SAME(distance) && SAME(point_a) && SAME(point_b);
    }
    const sw_hit p = x->h, q = y->h;
    return SAME(status) && SAME(hit) && SAME(overlapping) && SAME(t) && SAME(depth) && SAME(point) && SAME(normal) &&
           SAME(feature.kind) && SAME(feature.index);
}

#undef SAME

/* A polygon validated once (sw_polygon_prepare) must give the answers of
 * the same polygon validated by the query, bit for bit: the prep keeps
 * the very frame the query would build. */
static void check_prepared(ctx* x, const answers* plain)
{
    const diff_case* c = x->c;
    sw_shape s[2] = {c->a, c->b};
    sw_polygon_prep* prep[2] = {NULL, NULL};
    bool any = false;
    for (int k = c->op == OP_RAYCAST ? 1 : 0; k < 2; ++k) {
        if (s[k].type != SW_SHAPE_POLYGON) {
            continue;
        }
        const char* why = NULL;
        prep[k] = sw_polygon_prepare(s[k].polygon.v, s[k].polygon.count, &why);
        if (!prep[k]) {
            violation(x, "sw_polygon_prepare refused polygon %c, which the query took: %s", "ab"[k], why);
            continue;
        }
        s[k] = sw_make_prepared_polygon(prep[k], s[k].polygon.one_sided);
        any = true;
    }
    if (any) {
        answers prepared = *plain;
        run_op(c, &s[0], &s[1], &prepared);
        if (!same_answers(c->op, plain, &prepared)) {
            violation(x, "the prepared polygon's answer differs from the unprepared one");
        }
    }
    sw_polygon_prep_destroy(prep[0]);
    sw_polygon_prep_destroy(prep[1]);
}

static void ctx_init(ctx* x, const diff_case* c, uint64_t case_seed, diff_stats* st, diff_outcome* out,
                     const diff_judge_opts* jo)
{
    memset(x, 0, sizeof *x);
    x->c = c;
    x->seed = case_seed;
    x->st = st;
    x->out = out;
    x->jo = jo;
    diff_to_ref(c, &x->rc);
    x->scale = ref_scale(&x->rc);
    if (jo && jo->scale > x->scale) {
        x->scale = jo->scale;
    }
    x->band = (ref_real)SW_TOLERANCE * x->scale;
}

static void judge(ctx* x, const answers* r)
{
    switch (x->c->op) {
    case OP_SWEEP:
    case OP_RAYCAST:
        check_sweep(x, r->h);
        break;
    case OP_SWEEP_INSIDE:
        check_inside(x, r->h);
        break;
    case OP_OVERLAP:
        check_overlap(x, r->o);
        break;
    case OP_DISTANCE:
        check_distance(x, r->dr);
        break;
    case OP_COUNT:
        break;
    }
}

void diff_solve(const diff_case* c, ref_case* rc, ref_result* rr)
{
    diff_to_ref(c, rc);
    ref_solve(rc, rr);
}

void diff_demand_of(const diff_case* c, uint64_t case_seed, const ref_result* rr, const diff_judge_opts* jo,
                    diff_demand* dm)
{
    diff_stats st = {0};
    diff_outcome out = {0};
    ctx x;
    ctx_init(&x, c, case_seed, &st, &out, jo);
    x.rr = *rr;
    memset(dm, 0, sizeof *dm);
    dm->band = x.band;
    dm->scale = x.scale;
    if (c->op == OP_SWEEP || c->op == OP_RAYCAST) {
        const char* why = "";
        const enum expect e = sweep_expect(&x, -1, &why);
        dm->expect = e == MUST_HIT ? DIFF_MUST_HIT : (e == MUST_MISS ? DIFF_MUST_MISS : DIFF_EITHER);
        dm->steep = sweep_steep(&x);
    } else {
        const ref_real g = rr->sdist;
        dm->expect = g < -x.band ? DIFF_MUST_HIT : (g > x.band ? DIFF_MUST_MISS : DIFF_EITHER);
    }
}

ref_real diff_gmin_on(const diff_case* c, ref_real t0, ref_real t1)
{
    ref_case rc;
    diff_to_ref(c, &rc);
    return ref_gmin_on(&rc, t0, t1);
}

void diff_judge(const diff_case* c, uint64_t case_seed, const ref_result* rr, const diff_answers* r,
                const diff_judge_opts* jo, diff_stats* st, diff_outcome* out)
{
    ctx x;
    ctx_init(&x, c, case_seed, st, out, jo);
    x.rr = *rr;
    judge(&x, r);
}

void diff_check(const diff_case* c, uint64_t case_seed, diff_stats* st, diff_outcome* out, bool verbose)
{
    memset(out, 0, sizeof *out);
    ctx x;
    ctx_init(&x, c, case_seed, st, out, NULL);
    x.verbose = verbose;
    const bool mesh = c->a.type == SW_SHAPE_MESH || c->b.type == SW_SHAPE_MESH;

    answers r = {0};
    swt_reset_asserts();
    if (sigsetjmp(trap_env, 1)) {
        swt_trap_fp();
        st->cases++;
        st->traps++;
        st->failures++;
        out->trapped = true;
        violation(&x, "floating-point trap (SIGFPE) inside the library");
        return;
    }
    trap_armed = 1;
    const sw_status status = run_op(c, &c->a, &c->b, &r);
    const int asserts = swt_asserts();
    if (status == SW_OK && asserts == 0) {
        check_prepared(&x, &r);
    }
    const sw_hit h = r.h;
    const sw_overlap_result o = r.o;
    const sw_distance_result dr = r.dr;
    trap_armed = 0;

    st->cases++;
    if (status != SW_OK || asserts != 0) {
        violation(&x, "status \"%s\" (assert handler calls: %d) for a valid query", sw_status_name(status), asserts);
    } else if (mesh) {
        diff_judge_mesh(c, case_seed, &r, st, out, verbose);
    } else {
        ref_solve(&x.rc, &x.rr);
        judge(&x, &r);
    }
    const bool lib_hit = c->op == OP_OVERLAP ? o.overlapping : (c->op == OP_DISTANCE ? dr.distance == 0 : h.hit);
    const bool lib_overlap = c->op == OP_OVERLAP || c->op == OP_DISTANCE ? lib_hit : h.overlapping;
    st->hits += lib_hit;
    st->overlaps += lib_overlap;
    st->misses += !lib_hit;
    st->band += x.either;
    if (out->violations > 0) {
        st->failures++;
    }
    if (verbose) {
        printf("  recipe %s (%s%s), scale %.6Lg, band %.3Lg\n", c->recipe, c->scale_tag, c->offset ? ", offset" : "",
               x.scale, x.band);
        if (!mesh)
            printf("  reference: g0 %.12Lg  g1 %.12Lg  gmin %.12Lg at t=%.12Lg  hit %d t=%.15Lg normal (%.9Lg, %.9Lg, "
                   "%.9Lg)%s sdist %.12Lg\n",
                   x.rr.g0, x.rr.g1, x.rr.gmin, x.rr.tmin, x.rr.hit, x.rr.t, x.rr.normal.x, x.rr.normal.y,
                   x.rr.normal.z, x.rr.has_normal ? "" : " (none)", x.rr.sdist);
        if (c->op == OP_OVERLAP) {
            printf("  library: overlapping %d depth %.9g normal (%.9g, %.9g, %.9g) point (%.9g, %.9g, %.9g)\n",
                   o.overlapping, (double)o.depth, (double)o.normal.x, (double)o.normal.y, (double)o.normal.z,
                   (double)o.point.x, (double)o.point.y, (double)o.point.z);
        } else if (c->op == OP_DISTANCE) {
            printf("  library: distance %.9g a (%.9g, %.9g, %.9g) b (%.9g, %.9g, %.9g)\n", (double)dr.distance,
                   (double)dr.point_a.x, (double)dr.point_a.y, (double)dr.point_a.z, (double)dr.point_b.x,
                   (double)dr.point_b.y, (double)dr.point_b.z);
        } else {
            printf("  library: hit %d overlapping %d t %.12g depth %.9g point (%.9g, %.9g, %.9g) normal (%.9g, %.9g, "
                   "%.9g) feature %d/%d triangle %d\n",
                   h.hit, h.overlapping, (double)h.t, (double)h.depth, (double)h.point.x, (double)h.point.y,
                   (double)h.point.z, (double)h.normal.x, (double)h.normal.y, (double)h.normal.z, (int)h.feature.kind,
                   h.feature.index, h.triangle);
        }
        printf("  verdict: %s%s\n", out->violations ? "FAIL: " : "ok", out->why);
    }
}
