/* Sphere (and point) sweeps against points and spheres: a point cast of
 * A's centre against B inflated by A's radius and the skin. */
#include "queries/round/fast.h"

sw_hit sw_internal_sweep_sphere_sphere(const sw_sphere* a, sw_vec3 d, const sw_sphere* b, const sw_sweep_options* opt)
{
    sw_hit out = {0};
#ifdef SWEEP_DOUBLE
    if (sw_fast_sweep_ball(a->center, a->radius, d, b->center, (double)a->radius + b->radius + sw_internal_skin(opt),
                           &out)) {
        return out;
    }
#endif
    /* Work relative to B's centre so that far-off pairs keep their digits. */
    const sw_vec3 f = sw_sub(a->center, b->center);
    const sw_real reach = a->radius + b->radius + sw_internal_skin(opt);
    sw_real t, depth;
    sw_vec3 n;
    const int kind = sw_internal_cast_ball(f, d, reach, &t, &n, &depth);
    if (kind == 0) {
        return out;
    }
    if (kind == 2 && sw_internal_ignore_separating(opt) && sw_dot(d, n) >= 0) {
        return out;
    }
    out.hit = true;
    out.overlapping = kind == 2;
    out.t = t;
    out.depth = depth;
    out.normal = n;
    if (kind == 1) {
        /* A's point nearest B: its centre at t, pulled back by its radius. */
        out.point = sw_madd(sw_madd(a->center, t, d), -a->radius, n);
    } else {
        /* Deepest point of A that lies in B (B's far side when A engulfs it). */
        const sw_real dist0 = reach - depth;
        const sw_real s = sw_max(dist0 - a->radius, -(reach - a->radius));
        out.point = sw_madd(b->center, s, n);
    }
    return out;
}

sw_hit sw_sweep_sphere_sphere(const sw_sphere* a, sw_vec3 d, const sw_sphere* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(sw_is_valid_sphere(a) && sw_is_valid_vec3(d) && sw_is_valid_sphere(b) && sw_internal_options_valid(opt),
               SW_INVALID_HIT);
    return sw_internal_sweep_sphere_sphere(a, d, b, opt);
}

sw_hit sw_sweep_sphere_point(const sw_sphere* a, sw_vec3 d, sw_vec3 p, const sw_sweep_options* opt)
{
    const sw_sphere b = {p, 0};
    return sw_sweep_sphere_sphere(a, d, &b, opt);
}

sw_hit sw_sweep_moving_spheres(const sw_sphere* a, sw_vec3 da, const sw_sphere* b, sw_vec3 db,
                               const sw_sweep_options* opt)
{
    SW_REQUIRE(sw_is_valid_vec3(da) && sw_is_valid_vec3(db), SW_INVALID_HIT);
    /* Relative motion: B stands still while A moves by da - db. */
    sw_hit h = sw_sweep_sphere_sphere(a, sw_sub(da, db), b, opt);
    if (h.hit) {
        /* The point was found in B's frame at time t; B has moved t*db. */
        h.point = sw_madd(h.point, h.t, db);
    }
    return h;
}
