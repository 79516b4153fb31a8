/* Closest points between points and segments: the kernels the round
 * shapes' distance, overlap and contact code is built on. */
#include "internal.h"

sw_vec3 sw_closest_point_segment(sw_vec3 p, const sw_segment* s, sw_real* u)
{
    sw_vec3 ab = sw_sub(s->b, s->a);
    sw_real len_sq = sw_length_sq(ab);
    sw_real v = 0;
    if (len_sq > 0) {
        /* Clamp before dividing so the quotient is in [0, 1] by construction. */
        sw_real proj = sw_dot(sw_sub(p, s->a), ab);
        v = proj <= 0 ? 0 : (proj >= len_sq ? 1 : proj / len_sq);
    }
    if (u) {
        *u = v;
    }
    return sw_madd(s->a, v, ab);
}

/* Closest points between segments p0 + s*d1 and q0 + t*d2 (Ericson,
 * Real-Time Collision Detection §5.1.9), relative to the first segment's
 * start and in the wide type: the 2x2 determinant is of degree 4 in the
 * coordinates. Parallel or zero-length segments fall back to clamping one
 * parameter and projecting. */
sw_real sw_closest_points_segments(const sw_segment* a, const sw_segment* b, sw_vec3* ca, sw_vec3* cb)
{
    sw_vec3 gap;
    return sw_internal_closest_segments(a, b, ca, cb, &gap);
}

static sw_wide clamp01(sw_wide v) { return v < 0 ? 0 : (v > 1 ? 1 : v); }

/* d2 x d1 from d1 x d2. */
static sw_wvec cross_neg(sw_wvec c) { return (sw_wvec){-c.x, -c.y, -c.z}; }

sw_real sw_internal_closest_segments(const sw_segment* a, const sw_segment* b, sw_vec3* ca, sw_vec3* cb, sw_vec3* gap)
{
    /* Differences of sw_real values are exact in the wide type. */
    const sw_wvec origin = sw_wv(a->a);
    const sw_wvec d1 = sw_wsub(sw_wv(a->b), origin);
    const sw_wvec q0 = sw_wsub(sw_wv(b->a), origin);
    const sw_wvec d2 = sw_wsub(sw_wv(b->b), sw_wv(b->a));
    const sw_wvec r = {-q0.x, -q0.y, -q0.z}; /* p0 - q0 with p0 = 0 */
    const sw_wide aa = sw_wdot(d1, d1), ee = sw_wdot(d2, d2), ff = sw_wdot(d2, r);
    sw_wide s = 0, t = 0;

    if (aa <= 0 && ee <= 0) {
        s = t = 0;
    } else if (aa <= 0) {
        t = clamp01(ff / ee);
    } else {
        const sw_wide cc = sw_wdot(d1, r);
        if (ee <= 0) {
            s = clamp01(-cc / aa);
        } else {
            const sw_wide bb = sw_wdot(d1, d2);
            const sw_wvec cross = sw_wcross(d1, d2);
            const sw_wide denom = sw_wdot(cross, cross); /* aa ee - bb^2, without its cancellation */
            if (denom > SW_WIDE_EPSILON * SW_WIDE_EPSILON * aa * ee) {
                /* The numerator bb ff - cc ee, by Lagrange's identity
                 * -(d2 x r) . (d2 x d1): cross products keep it accurate
                 * for nearly parallel segments, where the products cancel. */
                const sw_wide num = -sw_wdot(sw_wcross(d2, r), cross_neg(cross));
                s = clamp01(num / denom);
                const sw_wide tnom = bb * s + ff;
                if (tnom < 0) {
                    t = 0;
                    s = clamp01(-cc / aa);
                } else if (tnom > ee) {
                    t = 1;
                    s = clamp01((bb - cc) / aa);
                } else {
                    t = tnom / ee;
                }
            } else {
                /* Parallel to within rounding: a closest pair has an end
                 * point of one segment and its projection on the other. */
                const sw_wide cand[4][2] = {{0, clamp01(ff / ee)},
                                            {1, clamp01((bb + ff) / ee)},
                                            {clamp01(-cc / aa), 0},
                                            {clamp01((bb - cc) / aa), 1}};
                sw_wide best = -1;
                for (int i = 0; i < 4; ++i) {
                    const sw_wvec pa = {d1.x * cand[i][0], d1.y * cand[i][0], d1.z * cand[i][0]};
                    const sw_wvec g = sw_wsub(pa, sw_wmadd(q0, cand[i][1], d2));
                    const sw_wide dist_sq = sw_wdot(g, g);
                    if (best < 0 || dist_sq < best) {
                        best = dist_sq;
                        s = cand[i][0];
                        t = cand[i][1];
                    }
                }
            }
        }
    }
    const sw_wvec pa = {d1.x * s, d1.y * s, d1.z * s};
    const sw_wvec pb = sw_wmadd(q0, t, d2);
    const sw_wvec g = sw_wsub(pa, pb);
    *ca = sw_wv_narrow(sw_wmadd(origin, 1, pa));
    *cb = sw_wv_narrow(sw_wmadd(origin, 1, pb));
    *gap = sw_wv_narrow(g);
    return (sw_real)sw_wdot(g, g);
}

