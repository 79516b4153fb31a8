/* Overlap with penetration depth of a round shape (point, segment, sphere,
 * capsule) with any static shape. The Minkowski difference of A and B is
 * that of their cores inflated by ra + rb, so the depth is ra + rb minus
 * the cores' distance, or plus the cores' own penetration (separating axes)
 * when they cross. */
#include "queries/round/core.h"

sw_overlap_result sw_overlap_capsule_shape(const sw_capsule* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_capsule(a) && sw_is_valid_shape(b), SW_INVALID_OVERLAP);
    if (b->type == SW_SHAPE_MESH) {
        return sw_internal_overlap_status(SW_UNSUPPORTED); /* meshes go through sw_overlap */
    }
    sw_core core;
    sw_core_make(b, &core);
    const sw_vec3 a0 = sw_core_to_local(&core, a->a), a1 = sw_core_to_local(&core, a->b);
    return sw_internal_overlap_core(&core, a0, a1, a->radius, a->radius + core.radius, NULL);
}

static sw_overlap_result overlap(sw_capsule a, sw_shape b) { return sw_overlap_capsule_shape(&a, &b); }

sw_overlap_result sw_overlap_point_sphere(sw_vec3 a, const sw_sphere* b)
{
    SW_REQUIRE(b != NULL, SW_INVALID_OVERLAP);
    return overlap((sw_capsule){a, a, 0}, sw_make_sphere(b->center, b->radius));
}

sw_overlap_result sw_overlap_sphere_sphere(const sw_sphere* a, const sw_sphere* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_OVERLAP);
    return overlap((sw_capsule){a->center, a->center, a->radius}, sw_make_sphere(b->center, b->radius));
}

sw_overlap_result sw_overlap_segment_sphere(const sw_segment* a, const sw_sphere* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_OVERLAP);
    return overlap((sw_capsule){a->a, a->b, 0}, sw_make_sphere(b->center, b->radius));
}

sw_overlap_result sw_overlap_capsule_capsule(const sw_capsule* a, const sw_capsule* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_OVERLAP);
    return overlap(*a, sw_make_capsule(b->a, b->b, b->radius));
}

sw_overlap_result sw_overlap_capsule_plane(const sw_capsule* a, const sw_plane* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_OVERLAP);
    return overlap(*a, sw_make_plane(b->normal, b->offset));
}

sw_overlap_result sw_overlap_capsule_triangle(const sw_capsule* a, const sw_triangle* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_OVERLAP);
    return overlap(*a, sw_make_triangle(b->v[0], b->v[1], b->v[2], b->one_sided));
}

sw_overlap_result sw_overlap_capsule_polygon(const sw_capsule* a, const sw_polygon* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_OVERLAP);
    return overlap(*a, sw_internal_polygon_shape(b));
}

sw_overlap_result sw_overlap_capsule_box(const sw_capsule* a, const sw_box* b)
{
    SW_REQUIRE(a != NULL && b != NULL, SW_INVALID_OVERLAP);
    return overlap(*a, sw_make_box(b->center, b->half, b->rotation));
}
