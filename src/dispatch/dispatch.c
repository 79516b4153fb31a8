/* Dispatch over sw_shape: every query family reduces its pair to one of
 * the library's methods, or answers SW_UNSUPPORTED for a pair without one. */
#include "internal.h"

/* ---- the point / segment / sphere / capsule family as capsules ----------- */

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

/* Points and spheres, the moving and static shapes of the sphere sweeps. */
static bool as_sphere(const sw_shape* s, sw_sphere* out)
{
    if (s->type == SW_SHAPE_POINT) {
        *out = (sw_sphere){s->point, 0};
        return true;
    }
    if (s->type == SW_SHAPE_SPHERE) {
        *out = s->sphere;
        return true;
    }
    return false;
}

static bool is_round(sw_shape_type t) { return t == SW_SHAPE_POINT || t == SW_SHAPE_SPHERE; }
static bool is_capsule_family(sw_shape_type t) { return t <= SW_SHAPE_CAPSULE; }

bool sw_sweep_supported(sw_shape_type a, sw_shape_type b) { return is_round(a) && is_round(b); }
bool sw_raycast_supported(sw_shape_type b) { return is_round(b); }
bool sw_sweep_inside_supported(sw_shape_type a, sw_shape_type b)
{
    return is_round(a) && (b == SW_SHAPE_SPHERE || b == SW_SHAPE_BOX);
}
bool sw_overlap_supported(sw_shape_type a, sw_shape_type b) { return is_capsule_family(a) && is_capsule_family(b); }
bool sw_distance_supported(sw_shape_type a, sw_shape_type b) { return is_capsule_family(a) && is_capsule_family(b); }

/* ---- entry points --------------------------------------------------------- */

sw_hit sw_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_vec3(d) && sw_is_valid_shape(b) && sw_internal_options_valid(opt),
               SW_INVALID_HIT);
    sw_sphere sa, sb;
    if (as_sphere(a, &sa) && as_sphere(b, &sb)) {
        return sw_sweep_sphere_sphere(&sa, d, &sb, opt);
    }
    return sw_internal_hit_status(SW_UNSUPPORTED);
}

sw_hit sw_raycast(const sw_ray* ray, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_ray(ray) && sw_is_valid_shape(b), SW_INVALID_HIT);
    sw_sphere sb;
    if (as_sphere(b, &sb)) {
        return sw_raycast_sphere(ray, &sb);
    }
    return sw_internal_hit_status(SW_UNSUPPORTED);
}

sw_hit sw_sweep_inside(const sw_shape* a, sw_vec3 d, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_vec3(d) && sw_is_valid_shape(b), SW_INVALID_HIT);
    sw_sphere sa;
    if (!as_sphere(a, &sa)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    if (b->type == SW_SHAPE_SPHERE) {
        return sw_sweep_sphere_inside_sphere(&sa, d, &b->sphere);
    }
    if (b->type == SW_SHAPE_BOX) {
        return sw_sweep_sphere_inside_box(&sa, d, &b->box);
    }
    return sw_internal_hit_status(SW_UNSUPPORTED);
}

sw_overlap_result sw_overlap(const sw_shape* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_OVERLAP);
    sw_capsule ca, cb;
    if (as_capsule(a, &ca) && as_capsule(b, &cb)) {
        return sw_overlap_capsule_capsule(&ca, &cb);
    }
    return sw_internal_overlap_status(SW_UNSUPPORTED);
}

sw_distance_result sw_distance(const sw_shape* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_DISTANCE);
    sw_capsule ca, cb;
    if (as_capsule(a, &ca) && as_capsule(b, &cb)) {
        return sw_distance_capsule_capsule(&ca, &cb);
    }
    return sw_internal_distance_status(SW_UNSUPPORTED);
}
