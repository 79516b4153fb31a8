/* Sweep kernels: each solves one feature pair in closed form. */
#include "queries/kernels/cast.h"

/* Solves |f + t d| = r for the entering t in [0, 1] (Ericson, Real-Time
 * Collision Detection §5.3.2), in the wide type, with
 * - the discriminant b^2 - a c rewritten by Lagrange's identity as
 *   a r^2 - |f x d|^2, which does not cancel for a far-off f;
 * - the entering root as c / q with q = sqrt(disc) - b, which never cancels
 *   since b < 0 on an approach (the stable form of the quadratic formula);
 * - the decision t <= 1 taken as c <= q, before any division. */
int sw_internal_cast_ball(sw_vec3 f, sw_vec3 d, sw_real r, sw_real* t, sw_vec3* n, sw_real* depth)
{
    const sw_wvec wf = sw_wv(f), wd = sw_wv(d);
    const sw_wide rr = r;
    const sw_wide ff = sw_wdot(wf, wf);
    const sw_wide c = ff - rr * rr;
    if (c <= 0) {
        const sw_wide dist0 = sw_wide_sqrt(ff);
        bool ok;
        *t = 0;
        *depth = (sw_real)(rr - dist0);
        *n = sw_wunit(wf, &ok);
        if (!ok) {
            *n = sw_internal_fallback_normal(d);
        }
        return 2;
    }
    const sw_wide b = sw_wdot(wf, wd);
    if (b >= 0) {
        return 0; /* outside and not approaching the centre */
    }
    const sw_wide a = sw_wdot(wd, wd);
    const sw_wvec fxd = sw_wcross(wf, wd);
    const sw_wide disc = a * rr * rr - sw_wdot(fxd, fxd);
    if (disc < 0) {
        return 0;
    }
    const sw_wide q = sw_wide_sqrt(disc) - b;
    if (!(c <= q)) {
        return 0;
    }
    const sw_wide tt = c / q;
    bool ok = false;
    *t = (sw_real)tt;
    *depth = 0;
    /* A radius lost in the rounding of f leaves f + t d pure noise: the
     * contact is then a point passing through a point, whose normal is the
     * direction it came from. */
    if (rr > 16 * SW_EPSILON * sw_wide_sqrt(ff)) {
        *n = sw_wunit(sw_wmadd(wf, tt, wd), &ok);
    }
    if (!ok) {
        *n = sw_internal_fallback_normal(d);
    }
    return 1;
}

void sw_cast_point_ball(sw_contact* best, sw_vec3 f, sw_vec3 d, sw_vec3 c, sw_real r)
{
    sw_real t, depth;
    sw_vec3 n;
    /* A start inside (possible only by rounding, since the caller found the
     * whole shape apart) counts as a contact at t = 0. */
    if (sw_internal_cast_ball(sw_sub(f, c), d, r, &t, &n, &depth) != 0) {
        sw_contact_keep(best, t, n, sw_madd(f, t, d));
    }
}

/* The lateral surface: with e = q - p and m = f - p, the distance from the
 * axis is |e x (m + t d)| / |e|, so |e x m + t e x d|^2 = |e|^2 r^2 is a
 * quadratic A t^2 + 2 B t + C = 0 whose coefficients are cross products
 * (no cancellation for a motion nearly along the axis), and whose reduced
 * discriminant B^2 - A C is, by Lagrange's identity,
 * |e|^2 (A r^2 - (e . (m x d))^2). */
void sw_cast_point_cylinder(sw_contact* best, sw_vec3 f, sw_vec3 d, sw_vec3 p, sw_vec3 q, sw_real r)
{
    /* Measure from the end nearer the point: the offset from the axis is
     * then taken between numbers of the contact's size, not the axis's. */
    if (sw_distance_sq(f, q) < sw_distance_sq(f, p)) {
        const sw_vec3 swap = p;
        p = q;
        q = swap;
    }
    const sw_wvec e = sw_wsub(sw_wv(q), sw_wv(p)), m = sw_wsub(sw_wv(f), sw_wv(p)), wd = sw_wv(d);
    const sw_wide ee = sw_wdot(e, e);
    if (ee == 0) {
        return;
    }
    const sw_wvec exm = sw_wcross(e, m), exd = sw_wcross(e, wd);
    const sw_wide rr = r;
    const sw_wide C = sw_wdot(exm, exm) - ee * rr * rr;
    const sw_wide B = sw_wdot(exm, exd);
    sw_wide t = 0;
    if (C <= 0) {
        /* Within the infinite cylinder: inside the finite one only by
         * rounding (the caller found the shapes apart), a contact at t = 0
         * if approaching the axis; otherwise A enters through a cap. */
        const sw_wide u0 = sw_wdot(m, e);
        if (!(B < 0) || u0 < 0 || u0 > ee) {
            return;
        }
    } else {
        /* Moving away from the axis, never. */
        if (B >= 0) {
            return;
        }
        const sw_wide A = sw_wdot(exd, exd);
        const sw_wide triple = sw_wdot(e, sw_wcross(m, wd));
        const sw_wide disc = A * rr * rr - triple * triple;
        if (disc < 0) {
            return;
        }
        const sw_wide qq = sw_wide_sqrt(ee * disc) - B;
        if (!(C <= qq)) {
            return;
        }
        t = C / qq;
    }
    const sw_wvec at = sw_wmadd(m, t, wd);
    const sw_wide u = sw_wdot(at, e);
    if (u < 0 || u > ee) {
        return;
    }
    bool ok = false;
    sw_vec3 n = sw_v3(0, 0, 0);
    /* The offset from the axis; noise when the radius is lost in the
     * rounding of the coordinates. */
    if (rr > 16 * SW_EPSILON * sw_wide_sqrt(sw_wdot(at, at))) {
        n = sw_wunit(sw_wmadd(at, -u / ee, e), &ok);
    }
    if (!ok) {
        /* Zero radius: the point crossed the axis; the normal is the
         * direction it came from, across the axis. */
        n = sw_wunit(sw_wcross(sw_wcross(e, wd), e), &ok);
        n = ok ? sw_neg(n) : sw_internal_fallback_normal(d);
    }
    sw_contact_keep(best, (sw_real)t, n, sw_madd(f, (sw_real)t, d));
}

void sw_cast_point_capsule(sw_contact* best, sw_vec3 f, sw_vec3 d, sw_vec3 p, sw_vec3 q, sw_real r)
{
    sw_cast_point_ball(best, f, d, p, r);
    if (q.x != p.x || q.y != p.y || q.z != p.z) {
        sw_cast_point_ball(best, f, d, q, r);
        sw_cast_point_cylinder(best, f, d, p, q, r);
    }
}

void sw_cast_vertex_cylinder(sw_contact* best, sw_vec3 v, sw_vec3 a0, sw_vec3 a1, sw_vec3 d, sw_real r)
{
    /* In A's frame the vertex moves by -d. */
    sw_contact c = {0};
    sw_cast_point_cylinder(&c, v, sw_neg(d), a0, a1, r);
    if (c.hit) {
        const sw_vec3 n = sw_neg(c.normal);
        sw_contact_keep(best, c.t, n, sw_madd(v, r, n));
    }
}

void sw_cast_edge_edge(sw_contact* best, sw_vec3 a0, sw_vec3 a1, sw_vec3 d, sw_vec3 b0, sw_vec3 b1, sw_real r)
{
    const sw_wvec ea = sw_wsub(sw_wv(a1), sw_wv(a0)), eb = sw_wsub(sw_wv(b1), sw_wv(b0)), wd = sw_wv(d);
    const sw_wvec n = sw_wcross(ea, eb);
    const sw_wide aa = sw_wdot(ea, ea), cc = sw_wdot(eb, eb), cross_sq = sw_wdot(n, n);
    /* Edges within SW_TOLERANCE radians of parallel touch, to within the
     * tolerance, where an end point does: the end-point kernels answer. */
    if (!(cross_sq > (sw_wide)SW_TOLERANCE * SW_TOLERANCE * aa * cc)) {
        return;
    }
    /* The lines' distance along n is linear in t: s(t) = (s0 + t (d . n)) / |n|.
     * An interior contact happens when |s| falls to r; if |s0| <= r already,
     * the end points, not the interiors, make the first contact. s0 is taken
     * from b0's offset perpendicular to edge a, which removes the long
     * along-edge part whose product with n's rounding would dominate. */
    const sw_wvec w0 = sw_wsub(sw_wv(a0), sw_wv(b0));
    const sw_wide along = sw_wdot(w0, ea) / aa;
    const sw_wvec w0p = {w0.x - along * ea.x, w0.y - along * ea.y, w0.z - along * ea.z};
    const sw_wide len = sw_wide_sqrt(cross_sq);
    const sw_wide s0 = sw_wdot(w0p, n) / len;
    const sw_wide side = s0 > 0 ? 1 : -1;
    const sw_wide gap = side * s0 - r;
    const sw_wide closing = -side * sw_wdot(wd, n) / len;
    /* gap <= 0 (within r already, by rounding: the caller found the shapes
     * apart) is a contact at t = 0 if approaching and interior. */
    if (!(closing > 0) || gap > closing) {
        return;
    }
    const sw_wide t = gap > 0 ? gap / closing : 0;
    /* Closest parameters of the two lines at time t; |ea x eb|^2 is the
     * determinant of their 2x2 system. */
    const sw_wvec w = {w0.x + t * wd.x, w0.y + t * wd.y, w0.z + t * wd.z};
    /* By Lagrange's identity bb ee - cc dd = (eb x w) . n and
     * aa ee - bb dd = (ea x w) . n (bb = ea . eb, dd = ea . w, ee = eb . w):
     * the products of dot products cancel to a relative error of about
     * epsilon / sin^2 of the edges' angle, the cross products to epsilon /
     * sin, which keeps the parameters of long, nearly parallel edges on
     * them (finding 20). */
    const sw_wide sa = sw_wdot(sw_wcross(eb, w), n) / cross_sq;
    const sw_wide sb = sw_wdot(sw_wcross(ea, w), n) / cross_sq;
    if (sa < 0 || sa > 1 || sb < 0 || sb > 1) {
        return;
    }
    const sw_vec3 normal = sw_v3((sw_real)(side * n.x / len), (sw_real)(side * n.y / len), (sw_real)(side * n.z / len));
    const sw_vec3 pa = sw_v3((sw_real)(a0.x + t * wd.x + sa * ea.x), (sw_real)(a0.y + t * wd.y + sa * ea.y),
                             (sw_real)(a0.z + t * wd.z + sa * ea.z));
    sw_contact_keep(best, (sw_real)t, normal, pa);
}

/* Twice the signed area of a, b, x seen along n: >= 0 when x is on the
 * inner side of a -> b (or on its line). */
static sw_real side(sw_vec3 a, sw_vec3 b, sw_vec3 x, sw_vec3 n)
{
    return sw_dot(sw_cross(sw_sub(b, a), sw_sub(x, a)), n);
}

bool sw_point_in_polygon(sw_vec3 x, const sw_vec3* v, int count, sw_vec3 n)
{
    /* In a triangle of the fan from v[0], not inside every edge's line: a
     * polygon convex within tol may turn the wrong way at an edge far
     * shorter than tol, whose line then cuts the polygon anywhere (finding
     * 39). The fan covers the polygon and stays within its convex hull;
     * a triangle without area (a repeated vertex) is skipped, or it would
     * take in the whole line through it. Each diagonal's side is computed
     * once and shared by its two triangles, so rounding cannot leave a
     * point of the diagonal out of both. */
    sw_real lo = side(v[0], v[1], x, n);
    for (int i = 1; i + 1 < count; ++i) {
        const sw_real hi = side(v[0], v[i + 1], x, n);
        if (lo >= 0 && hi <= 0 && side(v[0], v[i], v[i + 1], n) > 0 && side(v[i], v[i + 1], x, n) >= 0) {
            return true;
        }
        lo = hi;
    }
    return false;
}

void sw_cast_point_polygon_face(sw_contact* best, sw_vec3 f, sw_vec3 d, const sw_vec3* v, int count, sw_vec3 n,
                                sw_real r, bool two_sided)
{
    const sw_real s0 = sw_dot(sw_sub(f, v[0]), n);
    const sw_real side = s0 > 0 ? 1 : -1;
    if (side < 0 && !two_sided) {
        return;
    }
    const sw_real gap = side * s0 - r;
    const sw_real closing = -side * sw_dot(d, n);
    /* gap <= 0: within reach already (by rounding; the caller found the
     * shapes apart), a contact at t = 0 if approaching over the face. */
    if (!(closing > 0) || gap > closing) {
        return;
    }
    const sw_real t = gap > 0 ? gap / closing : 0;
    const sw_vec3 at = sw_madd(f, t, d);
    /* The contact on the face: the moving point dropped onto the plane. */
    const sw_vec3 foot = sw_madd(at, -side * r, n);
    if (sw_point_in_polygon(foot, v, count, n)) {
        sw_contact_keep(best, t, sw_scale(n, side), at);
    }
}
