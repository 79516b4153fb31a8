/* Sweep kernels: each solves one feature pair in closed form. */
#include "queries/cast.h"

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

void sw_cast_point_cylinder(sw_contact* best, sw_vec3 f, sw_vec3 d, sw_vec3 p, sw_vec3 q, sw_real r)
{
    sw_vec3 axis = sw_sub(q, p);
    const sw_real len = sw_normalize(&axis);
    if (len == 0) {
        return;
    }
    /* The lateral contact is a ball cast in the plane perpendicular to the
     * axis: |m_perp + t d_perp| = r. */
    const sw_vec3 m = sw_sub(f, p);
    const sw_vec3 m_perp = sw_madd(m, -sw_dot(m, axis), axis);
    const sw_vec3 d_perp = sw_madd(d, -sw_dot(d, axis), axis);
    sw_real t, depth;
    sw_vec3 n;
    /* A start within the infinite cylinder (kind 2) enters through a cap. */
    if (sw_internal_cast_ball(m_perp, d_perp, r, &t, &n, &depth) != 1) {
        return;
    }
    const sw_real u = sw_dot(sw_madd(m, t, d), axis);
    if (u >= 0 && u <= len) {
        sw_contact_keep(best, t, n, sw_madd(f, t, d));
    }
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

/* Wider type for the edge-edge kernel: its common normal ea x eb loses
 * about eps / sin(angle) of relative accuracy for nearly parallel edges,
 * so it is computed with twice the digits of sw_real where that is cheap
 * (float products are exact in double). */
#ifdef SWEEP_DOUBLE
typedef long double wide;
#define wide_sqrt sqrtl
#else
typedef double wide;
#define wide_sqrt sqrt
#endif

typedef struct wvec {
    wide x, y, z;
} wvec;

static wvec wv(sw_vec3 a) { return (wvec){a.x, a.y, a.z}; }
static wvec wsub(wvec a, wvec b) { return (wvec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static wide wdot(wvec a, wvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static wvec wcross(wvec a, wvec b)
{
    return (wvec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

void sw_cast_edge_edge(sw_contact* best, sw_vec3 a0, sw_vec3 a1, sw_vec3 d, sw_vec3 b0, sw_vec3 b1, sw_real r)
{
    const wvec ea = wsub(wv(a1), wv(a0)), eb = wsub(wv(b1), wv(b0)), wd = wv(d);
    const wvec n = wcross(ea, eb);
    const wide aa = wdot(ea, ea), cc = wdot(eb, eb), cross_sq = wdot(n, n);
    /* Edges within SW_TOLERANCE radians of parallel touch, to within the
     * tolerance, where an end point does: the end-point kernels answer. */
    if (!(cross_sq > (wide)SW_TOLERANCE * SW_TOLERANCE * aa * cc)) {
        return;
    }
    /* The lines' distance along n is linear in t: s(t) = (s0 + t (d . n)) / |n|.
     * An interior contact happens when |s| falls to r; if |s0| <= r already,
     * the end points, not the interiors, make the first contact. s0 is taken
     * from b0's offset perpendicular to edge a, which removes the long
     * along-edge part whose product with n's rounding would dominate. */
    const wvec w0 = wsub(wv(a0), wv(b0));
    const wide along = wdot(w0, ea) / aa;
    const wvec w0p = {w0.x - along * ea.x, w0.y - along * ea.y, w0.z - along * ea.z};
    const wide len = wide_sqrt(cross_sq);
    const wide s0 = wdot(w0p, n) / len;
    const wide side = s0 > 0 ? 1 : -1;
    const wide gap = side * s0 - r;
    const wide closing = -side * wdot(wd, n) / len;
    if (!(gap > 0) || !(closing > 0) || gap > closing) {
        return;
    }
    const wide t = gap / closing;
    /* Closest parameters of the two lines at time t; |ea x eb|^2 is the
     * determinant of their 2x2 system. */
    const wvec w = {w0.x + t * wd.x, w0.y + t * wd.y, w0.z + t * wd.z};
    const wide bb = wdot(ea, eb), dd = wdot(ea, w), ee = wdot(eb, w);
    const wide sa = (bb * ee - cc * dd) / cross_sq;
    const wide sb = (aa * ee - bb * dd) / cross_sq;
    if (sa < 0 || sa > 1 || sb < 0 || sb > 1) {
        return;
    }
    const sw_vec3 normal = sw_v3((sw_real)(side * n.x / len), (sw_real)(side * n.y / len), (sw_real)(side * n.z / len));
    const sw_vec3 pa = sw_v3((sw_real)(a0.x + t * wd.x + sa * ea.x), (sw_real)(a0.y + t * wd.y + sa * ea.y),
                             (sw_real)(a0.z + t * wd.z + sa * ea.z));
    sw_contact_keep(best, (sw_real)t, normal, pa);
}

bool sw_point_in_polygon(sw_vec3 x, const sw_vec3* v, int count, sw_vec3 n)
{
    for (int i = 0; i < count; ++i) {
        const sw_vec3 a = v[i], b = v[i + 1 < count ? i + 1 : 0];
        if (sw_dot(sw_cross(sw_sub(b, a), sw_sub(x, a)), n) < 0) {
            return false;
        }
    }
    return true;
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
    if (!(gap > 0) || !(closing > 0) || gap > closing) {
        return;
    }
    const sw_real t = gap / closing;
    const sw_vec3 at = sw_madd(f, t, d);
    /* The contact on the face: the moving point dropped onto the plane. */
    const sw_vec3 foot = sw_madd(at, -side * r, n);
    if (sw_point_in_polygon(foot, v, count, n)) {
        sw_contact_keep(best, t, sw_scale(n, side), at);
    }
}
