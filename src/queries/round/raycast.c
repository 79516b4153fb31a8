/* Ray casts: point sweeps of length max * dir. */
#include "queries/round/core.h"
#include "queries/round/fast.h"

sw_hit sw_raycast_sphere(const sw_ray* ray, const sw_sphere* b)
{
    SW_REQUIRE(sw_is_valid_ray(ray) && sw_is_valid_sphere(b), SW_INVALID_HIT);
    return sw_internal_raycast_sphere(ray, b);
}

sw_hit sw_internal_raycast_sphere(const sw_ray* ray, const sw_sphere* b)
{
    sw_hit out = {0};
    const sw_vec3 reach = sw_scale(ray->dir, ray->max);
#ifdef SWEEP_DOUBLE
    if (sw_fast_sweep_ball(ray->origin, 0, reach, b->center, b->radius, &out)) {
        out.t *= ray->max;
        return out;
    }
#endif
    const sw_vec3 f = sw_sub(ray->origin, b->center);
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
    SW_REQUIRE(sw_is_valid_ray(ray), SW_INVALID_HIT);
    return sw_internal_raycast_shape(ray, b);
}

sw_hit sw_internal_raycast_shape(const sw_ray* ray, const sw_shape* b)
{
    /* A ray is a point swept by max * dir; its t is then scaled back. */
    sw_hit h = sw_internal_sweep_round(ray->origin, ray->origin, true, 0, sw_scale(ray->dir, ray->max), b, NULL);
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
    return raycast(ray, sw_internal_polygon_shape(b));
}

sw_hit sw_raycast_box(const sw_ray* ray, const sw_box* b)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return raycast(ray, sw_make_box(b->center, b->half, b->rotation));
}
