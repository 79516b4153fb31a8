/* Ray casts. The ball cast here is also the kernel of every sphere sweep:
 * a sphere swept against a sphere is a point cast against the ball of the
 * summed radii. */
#include "queries/core.h"

/* Solve |f + s*u|^2 = r^2 for the first s >= 0 along the unit direction u
 * (so every term is at most quadratic in the coordinates), with
 * - the discriminant from the perpendicular distance, r^2 - |f - (f.u)u|^2,
 *   written as (r - p)(r + p), instead of b^2 - c (Haines et al., "Precision
 *   Improvements for Ray/Sphere Intersection", Ray Tracing Gems, 2019);
 * - the entering root as c / q with q = -b + sqrt(disc), which never
 *   cancels since b < 0 on an approach;
 * - the decision s <= |d| taken before the division into a fraction. */
int sw_internal_cast_ball(sw_vec3 f, sw_vec3 d, sw_real r, sw_real* t, sw_vec3* n, sw_real* depth)
{
    const sw_real dist0 = sw_length(f);
    if (dist0 <= r) {
        *t = 0;
        *depth = r - dist0;
        *n = dist0 > 0 ? sw_scale(f, 1 / dist0) : sw_internal_fallback_normal(d);
        return 2;
    }
    sw_vec3 u = d;
    const sw_real len = sw_normalize(&u);
    if (len == 0) {
        return 0;
    }
    const sw_real b = sw_dot(f, u);
    if (b >= 0) {
        return 0; /* outside and not approaching the centre */
    }
    const sw_real perp = sw_length(sw_madd(f, -b, u));
    const sw_real disc = (r - perp) * (r + perp);
    if (disc < 0) {
        return 0;
    }
    const sw_real c = (dist0 - r) * (dist0 + r); /* > 0: f starts outside */
    const sw_real q = sw_sqrt(disc) - b;         /* > 0 */
    const sw_real s = c / q;
    if (!(s <= len)) {
        return 0;
    }
    *t = s / len;
    *depth = 0;
    sw_vec3 v = sw_madd(f, s, u);
    *n = sw_normalize(&v) > 0 ? v : sw_neg(u);
    return 1;
}

sw_hit sw_raycast_sphere(const sw_ray* ray, const sw_sphere* b)
{
    SW_REQUIRE(sw_is_valid_ray(ray) && sw_is_valid_sphere(b), SW_INVALID_HIT);
    sw_hit out = {0};
    const sw_vec3 f = sw_sub(ray->origin, b->center);
    const sw_vec3 reach = sw_scale(ray->dir, ray->max);
    sw_real t, depth;
    sw_vec3 n;
    const int kind = sw_internal_cast_ball(f, reach, b->radius, &t, &n, &depth);
    if (kind == 0) {
        return out;
    }
    out.hit = true;
    out.overlapping = kind == 2;
    out.t = kind == 2 ? 0 : t * ray->max;
    out.depth = depth;
    out.normal = n;
    out.point = kind == 2 ? ray->origin : sw_madd(ray->origin, t, reach);
    return out;
}

sw_hit sw_raycast_shape(const sw_ray* ray, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_ray(ray) && sw_is_valid_shape(b), SW_INVALID_HIT);
    sw_core core;
    sw_core_make(b, &core);
    /* A ray is a point swept by max * dir; its t is then scaled back. */
    sw_hit h = sw_internal_sweep_core(ray->origin, ray->origin, 0, sw_scale(ray->dir, ray->max), &core, NULL);
    h.t *= ray->max;
    return h;
}

static sw_hit raycast(const sw_ray* ray, sw_shape b) { return sw_raycast_shape(ray, &b); }

sw_hit sw_raycast_capsule(const sw_ray* ray, const sw_capsule* b)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return raycast(ray, sw_make_capsule(b->a, b->b, b->radius));
}

sw_hit sw_raycast_plane(const sw_ray* ray, const sw_plane* b)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return raycast(ray, sw_make_plane(b->normal, b->offset));
}

sw_hit sw_raycast_triangle(const sw_ray* ray, const sw_triangle* b)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return raycast(ray, sw_make_triangle(b->v[0], b->v[1], b->v[2], b->one_sided));
}

sw_hit sw_raycast_polygon(const sw_ray* ray, const sw_polygon* b)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return raycast(ray, sw_make_polygon(b->v, b->count, b->one_sided));
}

sw_hit sw_raycast_box(const sw_ray* ray, const sw_box* b)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return raycast(ray, sw_make_box(b->center, b->half, b->rotation));
}
