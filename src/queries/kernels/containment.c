/* Containment sweeps: a sphere moving inside a sphere or a box. */
#include "internal.h"

sw_hit sw_sweep_sphere_inside_sphere(const sw_sphere* a, sw_vec3 d, const sw_sphere* b)
{
    SW_REQUIRE(sw_is_valid_sphere(a) && sw_is_valid_vec3(d) && sw_is_valid_sphere(b), SW_INVALID_HIT);
    sw_hit out = {0};
    const sw_vec3 f = sw_sub(a->center, b->center);
    const sw_real dist0 = sw_length(f);
    /* Room for A's centre: the ball of radius rho = rb - ra about B's centre.
     * Compare unsquared lengths with unsquared radii. */
    const sw_real rho = b->radius - a->radius;
    if (!(dist0 < rho)) {
        out.hit = out.overlapping = true;
        out.normal = dist0 > 0 ? sw_scale(f, -1 / dist0) : sw_internal_fallback_normal(sw_neg(d));
        out.depth = sw_max(dist0 - rho, 0);
        out.point = sw_madd(a->center, -a->radius, out.normal);
        return out;
    }
    sw_vec3 u = d;
    const sw_real len = sw_normalize(&u);
    if (len == 0) {
        return out;
    }
    /* Exit root of |f + s*u| = rho, s > 0: s = -b + sqrt(disc) with
     * disc = b^2 - c and c = |f|^2 - rho^2 < 0 (inside), a sum of two
     * positive terms, so it does not cancel even for a start a hair from
     * the wall moving along it; for b > 0 use the cancellation-free form
     * -c / (b + sqrt(disc)). */
    const sw_real bb = sw_dot(f, u);
    const sw_real c = (dist0 - rho) * (dist0 + rho);
    const sw_real root = sw_sqrt(bb * bb - c);
    const sw_real s = bb > 0 ? -c / (bb + root) : root - bb;
    if (!(s <= len)) {
        return out;
    }
    out.hit = true;
    out.t = s / len;
    sw_vec3 v = sw_madd(f, s, u);
    if (!(sw_normalize(&v) > 0)) {
        v = u; /* only for rho = 0, which the strict test above excludes */
    }
    out.normal = sw_neg(v);
    out.point = sw_madd(b->center, b->radius, v);
    return out;
}

sw_hit sw_sweep_sphere_inside_box(const sw_sphere* a, sw_vec3 d, const sw_box* b)
{
    SW_REQUIRE(sw_is_valid_sphere(a) && sw_is_valid_vec3(d) && sw_is_valid_box(b), SW_INVALID_HIT);
    sw_hit out = {0};
    sw_vec3 axes[3];
    sw_box_axes(b, axes);
    const sw_vec3 f = sw_sub(a->center, b->center);
    const sw_real r = a->radius;
    const sw_real pos[3] = {sw_dot(f, axes[0]), sw_dot(f, axes[1]), sw_dot(f, axes[2])};
    const sw_real vel[3] = {sw_dot(d, axes[0]), sw_dot(d, axes[1]), sw_dot(d, axes[2])};
    const sw_real half[3] = {b->half.x, b->half.y, b->half.z};

    /* Room for A's centre on axis k: |pos_k| < half_k - r. */
    int worst = -1;
    sw_real worst_gap = 0;
    for (int k = 0; k < 3; ++k) {
        sw_real gap = (half[k] - r) - sw_abs(pos[k]);
        if (worst < 0 || gap < worst_gap) {
            worst = k;
            worst_gap = gap;
        }
    }
    if (!(worst_gap > 0)) {
        out.hit = out.overlapping = true;
        const sw_real side = pos[worst] >= 0 ? 1 : -1;
        out.normal = sw_scale(axes[worst], -side);
        out.depth = -worst_gap;
        out.point = sw_madd(a->center, side * r, axes[worst]);
        out.feature.kind = SW_FEATURE_FACE;
        out.feature.index = 2 * worst + (side > 0);
        return out;
    }

    /* First wall reached: the smallest (room_k) / |vel_k| among the axes
     * moving toward a wall, compared as cross products to avoid dividing
     * before the decision. */
    int first = -1;
    sw_real best_num = 0, best_den = 1;
    for (int k = 0; k < 3; ++k) {
        if (vel[k] == 0) {
            continue;
        }
        const sw_real side = vel[k] > 0 ? 1 : -1;
        const sw_real num = side * (half[k] - r) - pos[k]; /* same sign as vel */
        const sw_real an = sw_abs(num), ad = sw_abs(vel[k]);
        if (first < 0 || an * best_den < best_num * ad) {
            first = k;
            best_num = an;
            best_den = ad;
        }
    }
    if (first < 0 || !(best_num <= best_den)) {
        return out;
    }
    const sw_real side = vel[first] > 0 ? 1 : -1;
    out.hit = true;
    out.t = best_num / best_den;
    out.normal = sw_scale(axes[first], -side);
    out.point = sw_madd(sw_madd(a->center, out.t, d), side * r, axes[first]);
    out.feature.kind = SW_FEATURE_FACE;
    out.feature.index = 2 * first + (side > 0);
    return out;
}
