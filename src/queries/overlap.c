/* Overlap with penetration depth for the point / segment / sphere /
 * capsule family. The Minkowski difference of two such shapes is the
 * difference of their cores (a parallelogram, possibly flat or a segment or
 * a point) inflated by ra + rb, so the penetration depth is exactly
 * ra + rb - distance(cores), along the line of the cores' closest points. */
#include "internal.h"

/* Direction to separate two cores that meet (distance 0 up to rounding):
 * perpendicular to both segments, or to the one that has a length, or +z. */
static sw_vec3 separating_direction_of_touching_cores(const sw_capsule* a, const sw_capsule* b)
{
    sw_vec3 da = sw_sub(a->b, a->a), db = sw_sub(b->b, b->a);
    sw_vec3 n = sw_cross(da, db);
    if (sw_normalize(&n) > 0) {
        return n;
    }
    if (sw_normalize(&da) > 0) {
        return sw_any_perpendicular(da);
    }
    if (sw_normalize(&db) > 0) {
        return sw_any_perpendicular(db);
    }
    return sw_v3(0, 0, 1);
}

/* Largest |coordinate| of the two cores, relative to a's first point: the
 * scale against which "the cores meet" is judged. */
static sw_real core_extent(const sw_capsule* a, const sw_capsule* b)
{
    return sw_max(sw_max_abs(sw_sub(a->b, a->a)),
                  sw_max(sw_max_abs(sw_sub(b->a, a->a)), sw_max_abs(sw_sub(b->b, a->a))));
}

sw_overlap_result sw_overlap_capsule_capsule(const sw_capsule* a, const sw_capsule* b)
{
    SW_REQUIRE(sw_is_valid_capsule(a) && sw_is_valid_capsule(b), SW_INVALID_OVERLAP);
    sw_overlap_result out = {0};
    sw_vec3 pa, pb;
    const sw_real core = sw_internal_core_closest(a, b, &pa, &pb);
    const sw_real reach = a->radius + b->radius;
    if (!(core <= reach)) {
        return out;
    }
    out.overlapping = true;
    out.depth = reach - core;
    /* Below a few ulps of the cores' extent the direction pa - pb is
     * rounding noise; use the geometric direction of meeting cores. */
    if (core > 16 * SW_EPSILON * core_extent(a, b)) {
        out.normal = sw_scale(sw_sub(pa, pb), 1 / core);
    } else {
        out.normal = separating_direction_of_touching_cores(a, b);
    }
    /* On the line pb + s*n, A covers s in [core - ra, core + ra] and B covers
     * [-rb, rb]; the deepest point of A (s = core - ra) if it lies in B,
     * else B's far end, is in both. */
    const sw_real s = sw_max(core - a->radius, -b->radius);
    out.point = sw_madd(pb, s, out.normal);
    return out;
}

sw_overlap_result sw_overlap_point_sphere(sw_vec3 a, const sw_sphere* b)
{
    SW_REQUIRE(sw_is_valid_vec3(a) && sw_is_valid_sphere(b), SW_INVALID_OVERLAP);
    const sw_capsule ca = {a, a, 0}, cb = {b->center, b->center, b->radius};
    return sw_overlap_capsule_capsule(&ca, &cb);
}

sw_overlap_result sw_overlap_sphere_sphere(const sw_sphere* a, const sw_sphere* b)
{
    SW_REQUIRE(sw_is_valid_sphere(a) && sw_is_valid_sphere(b), SW_INVALID_OVERLAP);
    const sw_capsule ca = {a->center, a->center, a->radius}, cb = {b->center, b->center, b->radius};
    return sw_overlap_capsule_capsule(&ca, &cb);
}

sw_overlap_result sw_overlap_segment_sphere(const sw_segment* a, const sw_sphere* b)
{
    SW_REQUIRE(sw_is_valid_segment(a) && sw_is_valid_sphere(b), SW_INVALID_OVERLAP);
    const sw_capsule ca = {a->a, a->b, 0}, cb = {b->center, b->center, b->radius};
    return sw_overlap_capsule_capsule(&ca, &cb);
}
