/* Closest points and distances for the point / segment / sphere / capsule
 * family: every one of them is a segment (its core) inflated by a radius. */
#include "queries/round/core.h"

sw_distance_result sw_distance_capsule_shape(const sw_capsule* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_capsule(a) && sw_is_valid_shape(b), SW_INVALID_DISTANCE);
    if (b->type == SW_SHAPE_MESH) {
        return sw_internal_distance_status(SW_UNSUPPORTED); /* meshes go through sw_distance */
    }
    sw_distance_result out = {0};
    sw_core core;
    sw_core_make(b, &core);
    const sw_vec3 a0 = sw_core_to_local(&core, a->a), a1 = sw_core_to_local(&core, a->b);
    const sw_real reach = a->radius + core.radius;
    sw_vec3 pa, pb, gap;
    const sw_real core_dist = sw_core_closest(&core, a0, a1, &pa, &pb, &gap);
    if (core_dist <= reach) {
        /* Touching or overlapping: one common point. */
        const sw_overlap_result o =
            sw_internal_overlap_at(&core, a0, a1, a->radius, reach, core_dist, pa, pb, gap, NULL);
        out.point_a = out.point_b = o.point;
        return out;
    }
    /* From A toward B along the closest points' gap (computed where it is
     * exact), so that the points lie exactly `distance` apart. */
    sw_vec3 u = sw_neg(gap);
    if (core.kind == SW_CORE_PLANE || sw_normalize(&u) == 0) {
        u = sw_neg(sw_core_contact_normal(&core, a0, a1, pa, pb, gap,
                                          sw_core_feature_tol(&core, a0, a1, sw_v3(0, 0, 0), core_dist)));
    }
    out.distance = core_dist - reach;
    out.point_a = sw_core_to_world(&core, sw_madd(pa, a->radius, u));
    out.point_b = sw_core_to_world(&core, sw_madd(pb, -core.radius, u));
    return out;
}

static sw_distance_result distance(sw_capsule a, sw_shape b) { return sw_distance_capsule_shape(&a, &b); }

sw_distance_result sw_distance_point_segment(sw_vec3 p, const sw_segment* s)
{
    SW_REQUIRE(s != NULL, SW_INVALID_DISTANCE);
    return distance((sw_capsule){p, p, 0}, sw_make_segment(s->a, s->b));
}

sw_distance_result sw_distance_segment_segment(const sw_segment* a, const sw_segment* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_DISTANCE);
    return distance((sw_capsule){a->a, a->b, 0}, sw_make_segment(b->a, b->b));
}

sw_distance_result sw_distance_sphere_sphere(const sw_sphere* a, const sw_sphere* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_DISTANCE);
    return distance((sw_capsule){a->center, a->center, a->radius}, sw_make_sphere(b->center, b->radius));
}

sw_distance_result sw_distance_segment_sphere(const sw_segment* a, const sw_sphere* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_DISTANCE);
    return distance((sw_capsule){a->a, a->b, 0}, sw_make_sphere(b->center, b->radius));
}

sw_distance_result sw_distance_capsule_capsule(const sw_capsule* a, const sw_capsule* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_DISTANCE);
    return distance(*a, sw_make_capsule(b->a, b->b, b->radius));
}

sw_distance_result sw_distance_capsule_plane(const sw_capsule* a, const sw_plane* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_DISTANCE);
    return distance(*a, sw_make_plane(b->normal, b->offset));
}

sw_distance_result sw_distance_capsule_triangle(const sw_capsule* a, const sw_triangle* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_DISTANCE);
    return distance(*a, sw_make_triangle(b->v[0], b->v[1], b->v[2], b->one_sided));
}

sw_distance_result sw_distance_capsule_polygon(const sw_capsule* a, const sw_polygon* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_DISTANCE);
    return distance(*a, sw_internal_polygon_shape(b));
}

sw_distance_result sw_distance_capsule_box(const sw_capsule* a, const sw_box* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_DISTANCE);
    return distance(*a, sw_make_box(b->center, b->half, b->rotation));
}
