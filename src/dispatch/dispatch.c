/* The public queries over sw_shape: a mesh B goes to the mesh queries
 * (mesh/query.c, which answer each triangle by the pair dispatch), every
 * other pair to the pair dispatch (queries/pair.c). docs/pairs.md names
 * the method of each pair. */
#include "mesh/mesh_query.h"
#include "queries/pair.h"

static bool is_mover(sw_shape_type t)
{
    return t <= SW_SHAPE_CAPSULE || t == SW_SHAPE_BOX || t == SW_SHAPE_HULL;
}

bool sw_sweep_supported(sw_shape_type a, sw_shape_type b)
{
    return b == SW_SHAPE_MESH ? is_mover(a) : sw_internal_pair_sweep_supported(a, b);
}
bool sw_raycast_supported(sw_shape_type b) { return b == SW_SHAPE_MESH || sw_internal_pair_raycast_supported(b); }
bool sw_sweep_inside_supported(sw_shape_type a, sw_shape_type b)
{
    return sw_internal_pair_sweep_inside_supported(a, b);
}
/* A mesh against any other shape; two meshes are not answered. */
bool sw_overlap_supported(sw_shape_type a, sw_shape_type b)
{
    if (a == SW_SHAPE_MESH || b == SW_SHAPE_MESH) {
        const sw_shape_type other = a == SW_SHAPE_MESH ? b : a;
        return other != SW_SHAPE_MESH && sw_internal_pair_raycast_supported(other);
    }
    return sw_internal_pair_overlap_supported(a, b);
}
bool sw_distance_supported(sw_shape_type a, sw_shape_type b) { return sw_overlap_supported(a, b); }

sw_hit sw_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    if (b && b->type == SW_SHAPE_MESH) {
        SW_REQUIRE(sw_internal_shape_ok(a) && sw_internal_vec3_ok(d) && sw_internal_options_valid(opt),
                   SW_INVALID_HIT);
        /* A mesh or half-space cannot move (DESIGN.md §2). */
        SW_REQUIRE(a->type != SW_SHAPE_PLANE && a->type != SW_SHAPE_MESH, SW_INVALID_HIT);
        SW_REQUIRE(sw_is_valid_mesh_instance(&b->mesh), SW_INVALID_HIT);
        if (!sw_sweep_supported(a->type, b->type)) {
            return sw_internal_hit_status(SW_UNSUPPORTED);
        }
        return sw_internal_mesh_sweep(a, d, &b->mesh, opt);
    }
    SW_REQUIRE(!(a && a->type == SW_SHAPE_MESH), SW_INVALID_HIT);
    return sw_internal_pair_sweep(a, d, b, opt);
}

sw_hit sw_raycast(const sw_ray* ray, const sw_shape* b)
{
    if (b && b->type == SW_SHAPE_MESH) {
        SW_REQUIRE(sw_is_valid_ray(ray) && sw_is_valid_mesh_instance(&b->mesh), SW_INVALID_HIT);
        return sw_internal_mesh_raycast(ray, &b->mesh);
    }
    return sw_internal_pair_raycast(ray, b);
}

sw_hit sw_sweep_inside(const sw_shape* a, sw_vec3 d, const sw_shape* b)
{
    return sw_internal_pair_sweep_inside(a, d, b);
}

sw_overlap_result sw_overlap(const sw_shape* a, const sw_shape* b)
{
    const bool am = a && a->type == SW_SHAPE_MESH, bm = b && b->type == SW_SHAPE_MESH;
    if (!am && !bm) {
        return sw_internal_pair_overlap(a, b);
    }
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_OVERLAP);
    if (am && bm) {
        return sw_internal_overlap_status(SW_UNSUPPORTED);
    }
    if (bm) {
        return sw_internal_mesh_overlap(a, &b->mesh);
    }
    /* Mirrored: the direction that moves B out of A moves A out of B
     * when reversed. */
    sw_overlap_result r = sw_internal_mesh_overlap(b, &a->mesh);
    r.normal = sw_neg(r.normal);
    return r;
}

sw_distance_result sw_distance(const sw_shape* a, const sw_shape* b)
{
    const bool am = a && a->type == SW_SHAPE_MESH, bm = b && b->type == SW_SHAPE_MESH;
    if (!am && !bm) {
        return sw_internal_pair_distance(a, b);
    }
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_DISTANCE);
    if (am && bm) {
        return sw_internal_distance_status(SW_UNSUPPORTED);
    }
    if (bm) {
        return sw_internal_mesh_distance(a, &b->mesh);
    }
    return sw_internal_distance_mirrored(sw_internal_mesh_distance(b, &a->mesh));
}
