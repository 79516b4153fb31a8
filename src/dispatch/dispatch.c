/* Dispatch over sw_shape: each query reduces its pair of types to one of
 * the library's methods, or answers SW_UNSUPPORTED for a pair without one.
 *
 * Methods, by pair (docs/pairs.md has the table):
 * - a point or sphere against a point or sphere: the closed-form sphere
 *   sweep (sphere_sweep.c);
 * - any round shape (point, sphere, segment, capsule) against any static
 *   shape: the core-segment driver (capsule_sweep.c, core.c);
 * - overlap and distance with the round shape second: the same, mirrored. */
#include "queries/core.h"
#include "queries/fast.h"

/* The round shapes: a core segment (a == b for a point or sphere) plus a
 * radius. */
static bool as_capsule(const sw_shape* s, sw_capsule* c)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        *c = (sw_capsule){s->point, s->point, 0};
        return true;
    case SW_SHAPE_SEGMENT:
        *c = (sw_capsule){s->segment.a, s->segment.b, 0};
        return true;
    case SW_SHAPE_SPHERE:
        *c = (sw_capsule){s->sphere.center, s->sphere.center, s->sphere.radius};
        return true;
    case SW_SHAPE_CAPSULE:
        *c = s->capsule;
        return true;
    default:
        return false;
    }
}

/* A point or sphere as a ball (a point is one of radius 0). */
static sw_sphere as_ball(const sw_shape* s) { return s->type == SW_SHAPE_POINT ? (sw_sphere){s->point, 0} : s->sphere; }

static bool is_round(sw_shape_type t) { return t <= SW_SHAPE_CAPSULE; }
static bool is_ball(sw_shape_type t) { return t == SW_SHAPE_POINT || t == SW_SHAPE_SPHERE; }
static bool is_type(sw_shape_type t) { return (unsigned)t < SW_SHAPE_TYPE_COUNT && t != SW_SHAPE_HULL; }

bool sw_sweep_supported(sw_shape_type a, sw_shape_type b) { return is_round(a) && is_type(b); }
bool sw_raycast_supported(sw_shape_type b) { return is_type(b); }
bool sw_sweep_inside_supported(sw_shape_type a, sw_shape_type b)
{
    return is_ball(a) && (b == SW_SHAPE_SPHERE || b == SW_SHAPE_BOX);
}
bool sw_overlap_supported(sw_shape_type a, sw_shape_type b)
{
    return (is_round(a) && is_type(b)) || (is_type(a) && is_round(b));
}
bool sw_distance_supported(sw_shape_type a, sw_shape_type b) { return sw_overlap_supported(a, b); }

sw_hit sw_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_vec3(d) && sw_is_valid_shape(b) && sw_internal_options_valid(opt),
               SW_INVALID_HIT);
    /* A half-space cannot move (DESIGN.md §2): bad input, not a gap. */
    SW_REQUIRE(a->type != SW_SHAPE_PLANE, SW_INVALID_HIT);
    if (!sw_sweep_supported(a->type, b->type)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    if (is_ball(a->type) && is_ball(b->type)) {
        const sw_sphere sa = as_ball(a);
        const sw_sphere sb = as_ball(b);
        return sw_internal_sweep_sphere_sphere(&sa, d, &sb, opt);
    }
    sw_capsule ca = {{0, 0, 0}, {0, 0, 0}, 0};
    as_capsule(a, &ca);
    sw_hit fast;
    if (sw_fast_sweep(ca.a, ca.b, ca.radius, d, b, opt, &fast)) {
        return fast;
    }
    sw_core core;
    sw_core_make(b, &core);
    return sw_internal_sweep_core(ca.a, ca.b, ca.radius, d, &core, opt);
}

sw_hit sw_raycast(const sw_ray* ray, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_ray(ray) && sw_is_valid_shape(b), SW_INVALID_HIT);
    if (is_ball(b->type)) {
        const sw_sphere sb = as_ball(b);
        return sw_raycast_sphere(ray, &sb);
    }
    return sw_raycast_shape(ray, b);
}

sw_hit sw_sweep_inside(const sw_shape* a, sw_vec3 d, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_vec3(d) && sw_is_valid_shape(b), SW_INVALID_HIT);
    if (!sw_sweep_inside_supported(a->type, b->type)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    const sw_sphere sa = as_ball(a);
    if (b->type == SW_SHAPE_SPHERE) {
        return sw_sweep_sphere_inside_sphere(&sa, d, &b->sphere);
    }
    return sw_sweep_sphere_inside_box(&sa, d, &b->box);
}

sw_overlap_result sw_overlap(const sw_shape* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_OVERLAP);
    sw_capsule c;
    if (as_capsule(a, &c)) {
        return sw_overlap_capsule_shape(&c, b);
    }
    if (as_capsule(b, &c)) {
        /* Mirrored: the direction that moves B out of A moves A out of B
         * when reversed. */
        sw_overlap_result r = sw_overlap_capsule_shape(&c, a);
        r.normal = sw_neg(r.normal);
        return r;
    }
    return sw_internal_overlap_status(SW_UNSUPPORTED);
}

sw_distance_result sw_distance(const sw_shape* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_DISTANCE);
    sw_capsule c;
    if (as_capsule(a, &c)) {
        return sw_distance_capsule_shape(&c, b);
    }
    if (as_capsule(b, &c)) {
        sw_distance_result r = sw_distance_capsule_shape(&c, a);
        const sw_vec3 p = r.point_a;
        r.point_a = r.point_b;
        r.point_b = p;
        return r;
    }
    return sw_internal_distance_status(SW_UNSUPPORTED);
}
