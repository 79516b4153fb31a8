/* The floor rows of `sweep bench`: lean versions of the library's own
 * reductions for the two pairs issue 4 holds to 2.5x sphere-sphere
 * (sphere-triangle, capsule-capsule), timed on the same inputs as the
 * library's rows.
 *
 * They keep only the arithmetic of the reductions, in double as the fast
 * paths do: no validation of the input, no tolerances from the query's
 * size, no test of a start in contact, no certification of the winner,
 * no feature, no fallback where the answer is ill-conditioned. So they
 * are wrong on input the library must get right (a start touching B, a
 * grazing contact, a degenerate triangle), and show only what the bare
 * reduction costs on the host beside the robust query. The bench checks
 * that they agree with the library on its own inputs. Not a library API:
 * nothing outside the bench calls them. */
#include <math.h>

#include "bench.h"

typedef struct lean_vec {
    double x, y, z;
} lean_vec;

static inline lean_vec lv_local(sw_vec3 a, sw_vec3 o)
{
    return (lean_vec){(double)a.x - o.x, (double)a.y - o.y, (double)a.z - o.z};
}
static inline lean_vec lv_sub(lean_vec a, lean_vec b) { return (lean_vec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline lean_vec lv_madd(lean_vec a, double s, lean_vec b)
{
    return (lean_vec){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}
static inline lean_vec lv_scale(lean_vec a, double s) { return (lean_vec){a.x * s, a.y * s, a.z * s}; }
static inline double lv_dot(lean_vec a, lean_vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline lean_vec lv_cross(lean_vec a, lean_vec b)
{
    return (lean_vec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/* Entry of the point f moving by d into the ball of radius^2 rr at the
 * origin: |f + t d|^2 = rr, the discriminant by Lagrange's identity. */
static inline bool lean_ball(lean_vec f, lean_vec d, double rr, double* t)
{
    const double b = lv_dot(f, d);
    if (!(b < 0)) {
        return false;
    }
    const lean_vec fxd = lv_cross(f, d);
    const double disc = lv_dot(d, d) * rr - lv_dot(fxd, fxd);
    if (!(disc >= 0)) {
        return false;
    }
    const double c = lv_dot(f, f) - rr, q = sqrt(disc) - b;
    if (!(c <= q)) {
        return false;
    }
    *t = c / q;
    return true;
}

/* Lateral entry of the point f moving by d into the cylinder of radius^2
 * rr around the segment 0..e, level with the segment; else *beyond gets
 * the end it enters beyond (bit 0 the start, bit 1 the far end). */
static inline bool lean_cylinder(lean_vec f, lean_vec d, lean_vec e, double rr, double* t, unsigned* beyond)
{
    const double ee = lv_dot(e, e);
    const lean_vec exm = lv_cross(e, f), exd = lv_cross(e, d);
    const double C = lv_dot(exm, exm) - ee * rr;
    if (!(C > 0)) {
        const double u0 = lv_dot(f, e);
        *beyond = (unsigned)(u0 < 0) | (unsigned)(u0 > ee) << 1;
        return false;
    }
    const double B = lv_dot(exm, exd);
    if (!(B < 0)) {
        return false;
    }
    const double triple = lv_dot(exm, d), disc = lv_dot(exd, exd) * rr - triple * triple;
    if (!(disc >= 0)) {
        return false;
    }
    const double q = sqrt(ee * disc) - B;
    if (!(C <= q)) {
        return false;
    }
    const double tt = C / q, u = lv_dot(f, e) + tt * lv_dot(d, e);
    if (u < 0 || u > ee) {
        *beyond = (unsigned)(u < 0) | (unsigned)(u > ee) << 1;
        return false;
    }
    *t = tt;
    return true;
}

static inline sw_hit lean_answer(double t, lean_vec n, lean_vec p, sw_vec3 origin)
{
    sw_hit h = {0};
    h.hit = true;
    h.t = (sw_real)t;
    h.normal = sw_v3((sw_real)n.x, (sw_real)n.y, (sw_real)n.z);
    h.point = sw_v3((sw_real)(p.x + origin.x), (sw_real)(p.y + origin.y), (sw_real)(p.z + origin.z));
    return h;
}

/* A sphere against a triangle inflated by its radius: the face's offset
 * plane, then the least entry over the edges' cylinders (their
 * coefficients from the edge functions, as the library's point core) and
 * the balls of the vertices both their edges name. */
static sw_hit lean_sphere_triangle(const sw_sphere* a, sw_vec3 dw, const sw_triangle* b)
{
    const sw_vec3 o = b->v[0];
    const lean_vec f = lv_local(a->center, o), d = {dw.x, dw.y, dw.z};
    const double R = a->radius, rr = R * R;
    const lean_vec v[3] = {{0, 0, 0}, lv_local(b->v[1], o), lv_local(b->v[2], o)};
    const lean_vec nrm = lv_cross(v[1], v[2]);
    const lean_vec n = lv_scale(nrm, 1 / sqrt(lv_dot(nrm, nrm)));
    const double s0 = lv_dot(n, f), nd = lv_dot(n, d);
    if ((s0 > R && s0 + nd > R) || (s0 < -R && s0 + nd < -R)) {
        return (sw_hit){0};
    }
    const lean_vec e[3] = {v[1], lv_sub(v[2], v[1]), lv_scale(v[2], -1)};
    lean_vec in[3];
    for (int i = 0; i < 3; ++i) {
        in[i] = lv_cross(n, e[i]);
    }
    const double side = s0 > 0 ? 1 : -1, gap = side * s0 - R, closing = -side * nd;
    if (gap > 0 && closing > 0 && gap <= closing) {
        const double t = gap / closing;
        const lean_vec at = lv_madd(f, t, d);
        bool inside = true;
        for (int i = 0; i < 3; ++i) {
            inside &= lv_dot(in[i], lv_sub(at, v[i])) >= 0;
        }
        if (inside) {
            return lean_answer(t, lv_scale(n, side), lv_madd(at, -R * side, n), o);
        }
    }
    /* Edge i's cylinder: |e x (f + t d - v)|^2 = |e|^2 R^2 with
     * e x (f - v) = a n - s0 in and e x d = b n - nd in. */
    const double h0 = s0 * s0 - rr;
    double best = 2;
    int win = -1;
    unsigned lo = 0, hi = 0;
    for (int i = 0; i < 3; ++i) {
        const int j = i < 2 ? i + 1 : 0;
        const lean_vec m = lv_sub(f, v[i]);
        const double ee = lv_dot(e[i], e[i]), ea = lv_dot(in[i], m), eb = lv_dot(in[i], d);
        const double C = ea * ea + ee * h0;
        if (!(C > 0)) {
            const double u0 = lv_dot(m, e[i]);
            lo |= (unsigned)(u0 < 0) << i;
            hi |= (unsigned)(u0 > ee) << j;
            continue;
        }
        const double B = ea * eb + s0 * nd * ee;
        if (!(B < 0)) {
            continue;
        }
        const double triple = ea * nd - s0 * eb, disc = (eb * eb + nd * nd * ee) * rr - triple * triple;
        if (!(disc >= 0)) {
            continue;
        }
        const double q = sqrt(ee * disc) - B;
        if (!(C <= q)) {
            continue;
        }
        const double t = C / q, u = lv_dot(m, e[i]) + t * lv_dot(d, e[i]);
        if (u < 0 || u > ee) {
            lo |= (unsigned)(u < 0) << i;
            hi |= (unsigned)(u > ee) << j;
        } else if (t < best) {
            best = t;
            win = i;
        }
    }
    for (unsigned balls = lo & hi; balls != 0; balls &= balls - 1) {
        const int k = __builtin_ctz(balls);
        double t;
        if (lean_ball(lv_sub(f, v[k]), d, rr, &t) && t < best) {
            best = t;
            win = 3 + k;
        }
    }
    if (win < 0) {
        return (sw_hit){0};
    }
    const lean_vec at = lv_madd(f, best, d);
    lean_vec off;
    if (win < 3) {
        const lean_vec g = lv_sub(at, v[win]);
        off = lv_madd(g, -lv_dot(g, e[win]) / lv_dot(e[win], e[win]), e[win]);
    } else {
        off = lv_sub(at, v[win - 3]);
    }
    const lean_vec nn = lv_scale(off, 1 / sqrt(lv_dot(off, off)));
    return lean_answer(best, nn, lv_madd(at, -R, nn), o);
}

/* Two capsules: the face of their inflated Minkowski difference (the
 * edges' interiors), then the least entry over each end against the other
 * core's cylinder and the end pairs' balls that both ends' tests name. */
static sw_hit lean_capsule_capsule(const sw_capsule* a, sw_vec3 dw, const sw_capsule* b)
{
    const sw_vec3 o = b->a;
    const lean_vec a0 = lv_local(a->a, o), a1 = lv_local(a->b, o), eb = lv_local(b->b, o), d = {dw.x, dw.y, dw.z};
    const double R = (double)a->radius + b->radius, rr = R * R;
    const lean_vec ea = lv_sub(a1, a0);
    const lean_vec axb = lv_cross(ea, eb);
    const double nn = lv_dot(axb, axb), aa = lv_dot(ea, ea), bb = lv_dot(eb, eb);
    if (nn > 1e-6 * aa * bb) {
        const double inv = 1 / sqrt(nn);
        const double s0 = lv_dot(a0, axb) * inv, nd = lv_dot(d, axb) * inv;
        const double side = s0 > 0 ? 1 : -1, gap = side * s0 - R, closing = -side * nd;
        const bool reaches = closing > 0 && gap <= closing;
        if (gap > 0 && !reaches) {
            return (sw_hit){0}; /* the lines stay apart */
        }
        if (gap > 0) {
            const double t = gap / closing;
            const lean_vec wt = lv_madd(a0, t, d);
            const double ab = lv_dot(ea, eb), aw = lv_dot(ea, wt), bw = lv_dot(eb, wt);
            const double sa = (ab * bw - bb * aw) / nn, sb = (aa * bw - ab * aw) / nn;
            if (sa >= 0 && sa <= 1 && sb >= 0 && sb <= 1) {
                return lean_answer(t, lv_scale(axb, side * inv), lv_madd(wt, sa, ea), o);
            }
        }
    }
    const lean_vec ends_a[2] = {a0, a1}, ends_b[2] = {{0, 0, 0}, eb};
    double best = 2, t;
    int win = -1;
    unsigned fa = 0, fb = 0; /* bit 2 j + i: A's end j and B's end i */
    for (int j = 0; j < 2; ++j) {
        unsigned beyond = 0;
        if (lean_cylinder(ends_a[j], d, eb, rr, &t, &beyond) && t < best) {
            best = t;
            win = j;
        }
        fa |= beyond << 2 * j;
    }
    const lean_vec back = lv_scale(d, -1);
    for (int i = 0; i < 2; ++i) {
        unsigned beyond = 0;
        if (lean_cylinder(lv_sub(ends_b[i], a0), back, ea, rr, &t, &beyond) && t < best) {
            best = t;
            win = 2 + i;
        }
        fb |= (beyond & 1u) << i | (beyond >> 1) << (2 + i);
    }
    for (unsigned balls = fa & fb; balls != 0; balls &= balls - 1) {
        const int k = __builtin_ctz(balls);
        if (lean_ball(lv_sub(ends_a[k >> 1], ends_b[k & 1]), d, rr, &t) && t < best) {
            best = t;
            win = 4 + k;
        }
    }
    if (win < 0) {
        return (sw_hit){0};
    }
    /* The normal, and A's core point touching (B's end moved back along
     * it by R where B's end met A's side). */
    lean_vec n, pa;
    if (win < 2) {
        pa = lv_madd(ends_a[win], best, d);
        n = lv_madd(pa, -lv_dot(pa, eb) / bb, eb);
    } else if (win < 4) {
        const lean_vec m = lv_madd(lv_sub(ends_b[win - 2], a0), -best, d);
        n = lv_scale(lv_madd(m, -lv_dot(m, ea) / aa, ea), -1);
    } else {
        pa = lv_madd(ends_a[(win - 4) >> 1], best, d);
        n = lv_sub(pa, ends_b[(win - 4) & 1]);
    }
    n = lv_scale(n, 1 / sqrt(lv_dot(n, n)));
    if (win >= 2 && win < 4) {
        pa = lv_madd(ends_b[win - 2], R, n);
    }
    return lean_answer(best, n, lv_madd(pa, -a->radius, n), o);
}

sw_hit bench_floor_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b)
{
    if (a->type == SW_SHAPE_SPHERE && b->type == SW_SHAPE_TRIANGLE) {
        return lean_sphere_triangle(&a->sphere, d, &b->triangle);
    }
    if (a->type == SW_SHAPE_CAPSULE && b->type == SW_SHAPE_CAPSULE) {
        return lean_capsule_capsule(&a->capsule, d, &b->capsule);
    }
    sw_hit h = {0};
    h.status = SW_UNSUPPORTED;
    return h;
}
