/* Fast paths of the round-shape sweeps: the entry point, the curved
 * kernels against a ball, a plane and a box. See fast.h. */
#include "queries/round/fast.h"

bool sw_fast_sweep_ball(sw_vec3 a0, sw_real ra, sw_vec3 d, sw_vec3 b, double reach, sw_hit* out)
{
    sw_fast_query q;
    sw_fast_point_query(&q, a0, ra, d, b, reach - ra);
    q.reach = reach;
    /* A start in or near contact, a reach too small for the normal's
     * precision and a grazing contact (sw_fast_ball) are the kernel's. */
    if (!sw_fast_set_size(&q, 0) || !(reach > SW_FAST_MIN_REACH * q.size)) {
        return false;
    }
    const double start = reach + q.margin;
    if (!(sw_ddot(q.a0, q.a0) > start * start)) {
        return false;
    }
    sw_fast_contact c = {0, {0, 0, 0}, {0, 0, 0}, {SW_FEATURE_NONE, 0}};
    const sw_fast_status st = sw_fast_ball(q.a0, q.d, reach, &c.t, &c.n);
    c.pa = sw_dmadd(q.a0, c.t, q.d);
    return sw_fast_answer(&q, st, &c, out);
}

/* A point or segment core against a half-space: its lower end (a0 on a
 * tie, as the driver) reaches the plane pushed out by the reach, and the
 * normal is the plane's. Exact in closed form: no curved feature and no
 * cone to certify. A start overlapping (by more than the margin) has the
 * depth of that end below the pushed-out plane and A's deepest point, as
 * sw_internal_overlap_at; a start within the margin of touching is the
 * driver's. */
bool sw_fast_sweep_plane(sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d, const sw_plane* b, const sw_sweep_options* opt,
                         sw_hit* out)
{
    /* The unit normal and offset in double, scaled first as
     * sw_internal_plane_unit does (a double build's normal may be huge). */
    const sw_dvec raw = sw_dv(b->normal);
    const double m = sw_dmax_abs(raw);
    const sw_dvec u = sw_dscale(raw, 1 / m);
    const double len = sqrt(sw_ddot(u, u));
    const sw_dvec n = sw_dscale(u, 1 / len);
    const double offset = (double)b->offset / m / len;
    const sw_dvec p0 = sw_dv(a0), p1 = sw_dv(a1), dv = sw_dv(d);
    const double s0 = sw_ddot(n, p0) - offset, s1 = sw_ddot(n, p1) - offset;
    const double reach = (double)ra + sw_internal_skin(opt);
    const double size =
        sw_dmax(sw_dmax(sw_dmax(sw_dmax_abs(p0), sw_dmax_abs(p1)), sw_dmax(fabs(offset), reach)), sw_dmax_abs(dv));
    const double margin = 64 * SW_EPSILON * size;
    const double gap = sw_dmin(s0, s1) - reach, closing = -sw_ddot(n, dv);
    const sw_dvec low = s0 <= s1 ? p0 : p1;
    const sw_fast_query q = {.origin = {0, 0, 0}, .ra = ra};
    if (gap < -margin) {
        if (sw_internal_ignore_separating(opt) && !(closing > 0)) {
            *out = (sw_hit){0};
            return true;
        }
        const sw_fast_contact c = {0, n, low, {SW_FEATURE_FACE, 0}};
        sw_fast_answer(&q, SW_FAST_HIT, &c, out);
        out->overlapping = true;
        out->depth = (sw_real)-gap;
        return true;
    }
    if (!(gap > margin)) {
        return false;
    }
    if (!(closing > 0) || gap > closing) {
        *out = (sw_hit){0};
        return true;
    }
    const sw_fast_contact c = {gap / closing, n, sw_dmadd(low, gap / closing, dv), {SW_FEATURE_FACE, 0}};
    return sw_fast_answer(&q, SW_FAST_HIT, &c, out);
}

bool sw_fast_sweep_box(sw_vec3 a0, sw_vec3 a1, bool a_point, sw_real ra, sw_vec3 d, const sw_box* b, double skin,
                       sw_hit* out)
{
    sw_fast_query q;
    sw_fast_contact c;
    if (a_point) {
        sw_fast_point_query(&q, a0, ra, d, b->center, skin);
        return sw_fast_answer(&q, sw_fast_point_box(&q, b, &c), &c, out);
    }
    sw_fast_segment_query(&q, a0, a1, ra, d, b->center, skin);
    return sw_fast_answer(&q, sw_fast_segment_box(&q, b, &c), &c, out);
}

bool sw_fast_sweep(sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d, const sw_shape* b, const sw_polygon_frame* frame,
                   const sw_sweep_options* opt, sw_hit* out)
{
    return sw_fast_sweep_shape(a0, a1, sw_internal_same_point(a0, a1), ra, d, b, frame, opt, out);
}
