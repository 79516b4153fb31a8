/* The dispatcher: every pair of types answers per sw_*_supported (a
 * supported pair gives SW_OK on valid input, any other SW_UNSUPPORTED with
 * every field zero and no assert), results match the direct functions,
 * and invalid input is reported through every entry point. */
#include <math.h>

#include "cmocka_support.h"

static const sw_vec3 square[4] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};

/* The unit cube [0, 1]^3 as a hull, placed with a quarter turn about z. */
static sw_hull* cube_hull(void)
{
    static sw_hull* cube;
    if (!cube) {
        sw_vec3 corners[8];
        for (int i = 0; i < 8; ++i) {
            corners[i] = V(i & 1, (i >> 1) & 1, (i >> 2) & 1);
        }
        cube = sw_hull_create(corners, 8, NULL);
        assert_non_null(cube);
    }
    return cube;
}

/* The unit square [0, 1]^2 at z = 0 as a mesh of two triangles. */
static sw_mesh* square_mesh(void)
{
    static sw_mesh* mesh;
    if (!mesh) {
        static const int tri[6] = {0, 1, 2, 0, 2, 3};
        mesh = sw_mesh_create(square, 4, tri, 2, NULL);
        assert_non_null(mesh);
    }
    return mesh;
}

/* A triangle with a vertex at 0.75 SW_MAX_COORD. */
static sw_mesh* far_mesh(void)
{
    static sw_mesh* mesh;
    if (!mesh) {
        static const int tri[3] = {0, 1, 2};
        const sw_vec3 v[3] = {V(SW_MAX_COORD * 0.75, 0, 0), V(0, 1, 0), V(0, 0, 1)};
        mesh = sw_mesh_create(v, 3, tri, 1, NULL);
        assert_non_null(mesh);
    }
    return mesh;
}

static sw_shape sample(sw_shape_type t)
{
    switch (t) {
    case SW_SHAPE_POINT:
        return sw_make_point(V(0, 0, 3));
    case SW_SHAPE_SEGMENT:
        return sw_make_segment(V(0, 0, 3), V(1, 0, 3));
    case SW_SHAPE_SPHERE:
        return sw_make_sphere(V(0, 0, 3), 0.5f);
    case SW_SHAPE_CAPSULE:
        return sw_make_capsule(V(0, 0, 3), V(1, 0, 3), 0.5f);
    case SW_SHAPE_BOX:
        return sw_make_box(V(0, 0, 0), V(1, 1, 1), sw_quat_identity());
    case SW_SHAPE_PLANE:
        return sw_make_plane(V(0, 0, 1), 0);
    case SW_SHAPE_TRIANGLE:
        return sw_make_triangle(V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), false);
    case SW_SHAPE_POLYGON:
        return sw_make_polygon(square, 4, false);
    case SW_SHAPE_HULL:
        return sw_make_hull(cube_hull(), V(1, 0, 0),
                            (sw_quat){0, 0, SW_R(0.70710678118654752), SW_R(0.70710678118654752)});
    case SW_SHAPE_MESH:
        return sw_make_mesh(square_mesh(), V(0, 0, 0), sw_quat_identity(), false);
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    return sw_make_point(V(0, 0, 0));
}

static void check_status(sw_status got, bool supported, const char* op, int a, int b)
{
    const sw_status want = supported ? SW_OK : SW_UNSUPPORTED;
    if (got != want) {
        print_error("%s(%s, %s): status \"%s\", expected \"%s\"\n", op, sw_shape_type_name((sw_shape_type)a),
                    sw_shape_type_name((sw_shape_type)b), sw_status_name(got), sw_status_name(want));
        fail();
    }
}

static void every_pair_matches_its_supported_predicate(void** state)
{
    (void)state;
    for (int a = 0; a < SW_SHAPE_TYPE_COUNT; ++a) {
        for (int b = 0; b < SW_SHAPE_TYPE_COUNT; ++b) {
            const sw_shape sa = sample((sw_shape_type)a), sb = sample((sw_shape_type)b);
            swt_reset_asserts();
            /* A half-space or a mesh cannot move: moving_shapes_that_cannot_move. */
            if (a != SW_SHAPE_PLANE && a != SW_SHAPE_MESH) {
                const sw_hit h = sw_sweep(&sa, V(0, 0, -5), &sb, NULL);
                check_status(h.status, sw_sweep_supported((sw_shape_type)a, (sw_shape_type)b), "sweep", a, b);
                if (h.status == SW_UNSUPPORTED) {
                    assert_unsupported_hit(h);
                }
            }
            const sw_hit in = sw_sweep_inside(&sa, V(0, 0, -1), &sb);
            check_status(in.status, sw_sweep_inside_supported((sw_shape_type)a, (sw_shape_type)b), "sweep_inside", a,
                         b);
            if (in.status == SW_UNSUPPORTED) {
                assert_unsupported_hit(in);
            }
            const sw_overlap_result o = sw_overlap(&sa, &sb);
            check_status(o.status, sw_overlap_supported((sw_shape_type)a, (sw_shape_type)b), "overlap", a, b);
            const sw_distance_result d = sw_distance(&sa, &sb);
            check_status(d.status, sw_distance_supported((sw_shape_type)a, (sw_shape_type)b), "distance", a, b);
            if (d.status == SW_UNSUPPORTED) {
                assert_near(0, d.distance, 0);
            }
            assert_handler_not_called();
        }
        const sw_ray ray = {V(0.25, 0.25, 5), V(0, 0, -1), 10};
        const sw_shape sb = sample((sw_shape_type)a);
        check_status(sw_raycast(&ray, &sb).status, sw_raycast_supported((sw_shape_type)a), "raycast", 0, a);
    }
}

/* The matrix issue 5 asks for: every moving shape against every static
 * shape (a mesh included), and overlap and distance for every pair but two
 * half-spaces (unbounded depth and distance; docs/pairs.md) and two meshes
 * (DESIGN.md §2a: a mesh against any other shape). */
static void the_matrix_is_complete(void** state)
{
    (void)state;
    const sw_shape_type moving[] = {SW_SHAPE_POINT,   SW_SHAPE_SEGMENT, SW_SHAPE_SPHERE,
                                    SW_SHAPE_CAPSULE, SW_SHAPE_BOX,     SW_SHAPE_HULL};
    for (size_t i = 0; i < sizeof moving / sizeof moving[0]; ++i) {
        for (int b = 0; b < SW_SHAPE_TYPE_COUNT; ++b) {
            if (!sw_sweep_supported(moving[i], (sw_shape_type)b)) {
                fail_msg("sweep %s against %s is not answered", sw_shape_type_name(moving[i]),
                         sw_shape_type_name((sw_shape_type)b));
            }
        }
    }
    for (int a = 0; a < SW_SHAPE_TYPE_COUNT; ++a) {
        assert_true(sw_raycast_supported((sw_shape_type)a));
        for (int b = 0; b < SW_SHAPE_TYPE_COUNT; ++b) {
            if ((a == SW_SHAPE_PLANE && b == SW_SHAPE_PLANE) || (a == SW_SHAPE_MESH && b == SW_SHAPE_MESH)) {
                assert_false(sw_overlap_supported((sw_shape_type)a, (sw_shape_type)b));
                assert_false(sw_distance_supported((sw_shape_type)a, (sw_shape_type)b));
                continue;
            }
            if (!sw_overlap_supported((sw_shape_type)a, (sw_shape_type)b) ||
                !sw_distance_supported((sw_shape_type)a, (sw_shape_type)b)) {
                fail_msg("overlap or distance of %s and %s is not answered", sw_shape_type_name((sw_shape_type)a),
                         sw_shape_type_name((sw_shape_type)b));
            }
        }
    }
}

/* DESIGN §2: a half-space cannot move; that is bad input, not a gap. */
static void moving_plane_is_invalid(void** state)
{
    (void)state;
    assert_false(sw_sweep_supported(SW_SHAPE_PLANE, SW_SHAPE_SPHERE));
    const sw_shape p = sample(SW_SHAPE_PLANE), s = sample(SW_SHAPE_SPHERE);
    assert_invalid_hit(sw_sweep(&p, V(0, 0, 1), &s, NULL));
}

/* DESIGN §2: a mesh cannot move either, against any shape (a mesh too):
 * bad input, through sw_sweep, like a plane. */
static void moving_mesh_is_invalid(void** state)
{
    (void)state;
    const sw_shape m = sample(SW_SHAPE_MESH);
    for (int b = 0; b < SW_SHAPE_TYPE_COUNT; ++b) {
        assert_false(sw_sweep_supported(SW_SHAPE_MESH, (sw_shape_type)b));
        const sw_shape sb = sample((sw_shape_type)b);
        swt_reset_asserts();
        assert_invalid_hit(sw_sweep(&m, V(0, 0, 1), &sb, NULL));
        swt_reset_asserts();
        assert_invalid_hit(sw_sweep(&m, V(0, 0, 0), &sb, NULL));
    }
    const sw_shape p = sample(SW_SHAPE_PLANE);
    swt_reset_asserts();
    assert_invalid_hit(sw_sweep(&p, V(0, 0, 1), &m, NULL));
}

/* Two meshes have no overlap or distance, and a mesh is no container nor
 * contained: SW_UNSUPPORTED with every field zero, no assert. Every mover
 * sweeps against a mesh, and a ray casts against one. */
static void mesh_pairs(void** state)
{
    (void)state;
    const sw_shape m = sample(SW_SHAPE_MESH);
    swt_reset_asserts();
    const sw_overlap_result o = sw_overlap(&m, &m);
    assert_int_equal(o.status, SW_UNSUPPORTED);
    assert_false(o.overlapping);
    assert_near(0, o.depth, 0);
    const sw_distance_result d = sw_distance(&m, &m);
    assert_int_equal(d.status, SW_UNSUPPORTED);
    assert_near(0, d.distance, 0);
    for (int a = 0; a < SW_SHAPE_TYPE_COUNT; ++a) {
        assert_false(sw_sweep_inside_supported((sw_shape_type)a, SW_SHAPE_MESH));
        assert_false(sw_sweep_inside_supported(SW_SHAPE_MESH, (sw_shape_type)a));
        const sw_shape sa = sample((sw_shape_type)a);
        assert_unsupported_hit(sw_sweep_inside(&sa, V(0, 0, -1), &m));
        assert_unsupported_hit(sw_sweep_inside(&m, V(0, 0, -1), &sa));
        if (a != SW_SHAPE_MESH) {
            assert_true(sw_overlap_supported((sw_shape_type)a, SW_SHAPE_MESH));
            assert_true(sw_overlap_supported(SW_SHAPE_MESH, (sw_shape_type)a));
            assert_true(sw_distance_supported((sw_shape_type)a, SW_SHAPE_MESH));
            assert_true(sw_distance_supported(SW_SHAPE_MESH, (sw_shape_type)a));
        }
    }
    assert_handler_not_called();
    const sw_shape_type movers[] = {SW_SHAPE_POINT,   SW_SHAPE_SEGMENT, SW_SHAPE_SPHERE,
                                    SW_SHAPE_CAPSULE, SW_SHAPE_BOX,     SW_SHAPE_HULL};
    for (size_t i = 0; i < sizeof movers / sizeof movers[0]; ++i) {
        assert_true(sw_sweep_supported(movers[i], SW_SHAPE_MESH));
        /* Each sample starts at z >= 1 above the square (the box at its
         * centre: it starts overlapping) and moves down through it. */
        const sw_shape sa = sample(movers[i]);
        const sw_hit h = sw_sweep(&sa, V(0.25, 0.25, -5), &m, NULL);
        assert_int_equal(h.status, SW_OK);
        assert_true(h.hit);
        assert_true(h.triangle == 0 || h.triangle == 1);
    }
    for (int b = 0; b < SW_SHAPE_TYPE_COUNT; ++b) {
        assert_int_equal(sw_sweep_supported(SW_SHAPE_MESH, (sw_shape_type)b), false);
    }
    assert_true(sw_raycast_supported(SW_SHAPE_MESH));
    const sw_ray ray = {V(0.25, 0.5, 5), V(0, 0, -1), 10};
    const sw_hit r = sw_raycast(&ray, &m);
    assert_true(r.hit && !r.overlapping);
    assert_near(5, r.t, 5 * SWT_TOL);
    assert_int_equal(r.triangle, 1); /* (0.25, 0.5) lies in triangle 0, 2, 3 */
    assert_vec_near(V(0, 0, 1), r.normal, SWT_TOL);
    assert_handler_not_called();
}

static void dispatch_matches_direct_functions(void** state)
{
    (void)state;
    const sw_sphere a = {V(-5, 0.25, 0), 0.5f}, b = {V(0, 0, 0), 1};
    const sw_shape sa = sw_make_sphere(a.center, a.radius), sb = sw_make_sphere(b.center, b.radius);
    const sw_hit d = sw_sweep(&sa, V(10, 0, 0), &sb, NULL), e = sw_sweep_sphere_sphere(&a, V(10, 0, 0), &b, NULL);
    assert_true(d.hit && e.hit);
    assert_near(e.t, d.t, 0);
    assert_vec_near(e.normal, d.normal, 0);
    const sw_shape pt = sw_make_point(V(-5, 0.25, 0));
    const sw_hit p = sw_sweep(&pt, V(10, 0, 0), &sb, NULL);
    const sw_ray ray = {V(-5, 0.25, 0), V(10, 0, 0), 1};
    const sw_hit r = sw_raycast_sphere(&ray, &b);
    assert_true(p.hit && r.hit);
    assert_near(r.t, p.t, SWT_TOL);
    /* A mirrored overlap reverses the normal and keeps the depth. */
    const sw_shape seg = sw_make_segment(V(-2, 0.5, 0), V(2, 0.5, 0));
    const sw_overlap_result o1 = sw_overlap(&seg, &sb), o2 = sw_overlap(&sb, &seg);
    assert_true(o1.overlapping && o2.overlapping);
    assert_near(o1.depth, o2.depth, SWT_TOL);
    assert_vec_near(sw_neg(o1.normal), o2.normal, SWT_TOL);
    const sw_distance_result d1 = sw_distance(&seg, &sb), d2 = sw_distance(&sb, &seg);
    assert_vec_near(d1.point_a, d2.point_b, 0);
}

static void invalid_input_through_the_dispatcher(void** state)
{
    (void)state;
    const sw_shape ok = sample(SW_SHAPE_SPHERE);
    const sw_shape bad[] = {
        sw_make_sphere(V(NAN, 0, 0), 1),
        sw_make_sphere(V(0, 0, 0), -1),
        sw_make_capsule(V(0, INFINITY, 0), V(0, 0, 0), 1),
        sw_make_segment(V(0, 0, SW_MAX_COORD * 3), V(0, 0, 0)),
        sw_make_box(V(0, 0, 0), V(1, 1, 1), (sw_quat){0, 0, 0, 0}),
        sw_make_box(V(0, 0, 0), V(1, -1, 1), sw_quat_identity()),
        sw_make_plane(V(0, 0, 0), 1),
        sw_make_hull(NULL, V(0, 0, 0), sw_quat_identity()),
        sw_make_hull(cube_hull(), V(0, 0, 0), (sw_quat){0, 0, 0, 0}),
        sw_make_hull(cube_hull(), V(NAN, 0, 0), sw_quat_identity()),
        sw_make_mesh(NULL, V(0, 0, 0), sw_quat_identity(), false),
        sw_make_mesh(square_mesh(), V(0, 0, 0), (sw_quat){0, 0, 0, 0}, false),
        sw_make_mesh(square_mesh(), V(0, INFINITY, 0), sw_quat_identity(), false),
        /* Valid numbers, but the placed vertices pass SW_MAX_COORD. */
        sw_make_mesh(far_mesh(), V(SW_MAX_COORD * 0.5, 0, 0), sw_quat_identity(), true),
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_invalid_hit(sw_sweep(&ok, V(1, 0, 0), &bad[i], NULL));
        const sw_overlap_result o = sw_overlap(&ok, &bad[i]);
        assert_int_equal(o.status, SW_INVALID_INPUT);
        assert_handler_called();
        swt_reset_asserts();
        const sw_distance_result d = sw_distance(&bad[i], &ok);
        assert_int_equal(d.status, SW_INVALID_INPUT);
        assert_handler_called();
        swt_reset_asserts();
    }
    const sw_sweep_options neg = {-1, false}, nan_skin = {NAN, true};
    assert_invalid_hit(sw_sweep(&ok, V(1, 0, 0), &ok, &neg));
    assert_invalid_hit(sw_sweep(&ok, V(1, 0, 0), &ok, &nan_skin));
    assert_invalid_hit(sw_sweep(&ok, V(NAN, 0, 0), &ok, NULL));
    const sw_ray neg_max = {V(0, 0, 0), V(1, 0, 0), -2};
    assert_invalid_hit(sw_raycast(&neg_max, &ok));
    const sw_shape big = sw_make_box(V(0, 0, 0), V(2, 2, 2), (sw_quat){0, 0, 0, 0});
    assert_invalid_hit(sw_sweep_inside(&ok, V(1, 0, 0), &big));
}

/* Fuzz finding (README 24): a box 2e9 long swept with a skin (the general
 * convex cast) against a polygon it starts overlapping. The point was the
 * midpoint of GJK's witnesses for a simplex around the origin, whose
 * weights on so thin a Minkowski difference put it 2.4e6 from the polygon
 * (the tolerance is 1e4 in float). */
static void skin_sweep_of_a_long_box_starting_in_a_polygon(void** state)
{
    (void)state;
    const sw_vec3 v[4] = {V(0, 3, -16), V(-16, -14, 0), V(0, 1, 16), V(16, 18, 0)};
    const sw_shape poly = sw_make_polygon(v, 4, false);
    const sw_shape box = sw_make_box(V(-16, -16, -16), V(16, 1e9, 16), (sw_quat){-16, 1.0 / 6, 32, 16});
    sw_sweep_options opt = {0};
    opt.skin = 16;
    const sw_hit h = sw_sweep(&box, V(16, -1e-5, -0.001), &poly, &opt);
    const double tol = SWT_TOL * 1e9;
    assert_int_equal(h.status, SW_OK);
    assert_true(h.hit && h.overlapping);
    assert_unit(h.normal);
    const sw_shape p = sw_make_point(h.point);
    assert_true((double)sw_distance(&p, &box).distance <= 2 * tol);
    assert_true((double)sw_distance(&p, &poly).distance <= 16 + 2 * tol);
}

/* Fuzz finding 36 (README), double only (1e75 is past float's
 * SW_MAX_COORD): a box 2e75 across swept onto a plate 32 wide and 2.7e-14
 * thin. Seen edge-on along the contact normal, the plate's eight vertices
 * project to a hexagon with two edges 1.7e-14 long whose directions are
 * rounding noise; clipping the big box's face by their lines left nothing,
 * and the fallback put the contact point 5e74 from the plate (tol 2e63). */
static void huge_box_onto_a_thin_plate_contact_point(void** state)
{
    (void)state;
#ifdef SWEEP_DOUBLE
    const double e = 0x1.1afd6ec0e1411p+249;
    const sw_shape plate = sw_make_box(V(0, 0, -128), V(16, 0x1.e9fddc1561258p-47, 16), (sw_quat){-16, -16, 0, -16});
    const sw_shape big = sw_make_box(V(0, 0, e), V(e, e, e), (sw_quat){e, -e, -3, -16});
    const double tol = SWT_TOL * 2 * e;
    for (int order = 0; order < 2; ++order) {
        const sw_hit h =
            order ? sw_sweep(&plate, V(16, e, e), &big, NULL) : sw_sweep(&big, V(-16, -e, -e), &plate, NULL);
        assert_int_equal(h.status, SW_OK);
        if (!h.hit || h.overlapping) {
            continue; /* the plate starts 106 from the big box: touching within tol */
        }
        assert_unit(h.normal);
        /* The plate is within 23 of (0, 0, -128). */
        assert_true(fabs((double)h.point.x) <= 23 + 2 * tol && fabs((double)h.point.y) <= 23 + 2 * tol &&
                    fabs((double)h.point.z + 128) <= 23 + 2 * tol);
    }
#endif
}

/* Fuzz finding 41 (README): a box 1.3e17 long, 32 wide and 2 thick swept
 * with a skin of 1 onto a triangle 30 across (tol 6.4e4). The general
 * cast's point, A's witness from its simplex's weights, lay 3.8e11 out
 * along the box. A point of A(t) within the skin (and tol) of B now. */
static void skin_sweep_of_a_needle_box_onto_a_triangle_point(void** state)
{
    (void)state;
    const sw_shape box = sw_make_box(V(0, 0, 0), V(0x1.c6bf52634p+55, 16, 1), (sw_quat){1, 0, 1, 1});
    const sw_vec3 v[3] = {V(0, 1, -32), V(0x1.cde155cb14fddp+3, -0x1.76cf5d0b09955p-1, -8),
                          V(-0x1.cde155cb14fddp+3, 0x1.5db3d742c2655p+1, -8)};
    const sw_shape poly = sw_make_polygon(v, 3, false);
    sw_sweep_options opt = {0};
    opt.skin = 1;
    const sw_hit h = sw_sweep(&box, V(0, 0, 0x1.fd8adab9f559bp-4), &poly, &opt);
    const double tol = SWT_TOL * 0x1.c6bf52634p+55;
    assert_int_equal(h.status, SW_OK);
    if (!h.hit) {
        return; /* (in float the whole query is within tol: either answer) */
    }
    assert_unit(h.normal);
    const sw_shape p = sw_make_point(h.point);
    assert_true((double)sw_distance(&p, &poly).distance <= 1 + 2 * tol);
}

/* Fuzz finding 53: a flat box 2e14 long and 22 wide (rotated), 0.3316
 * from a triangle 4 across near its middle, with a skin of 16. The
 * general cast's start answer came from a simplex ill-conditioned on the
 * needle: depth 1e14, a normal along which the shapes overlap, a point
 * 3.9e6 from the triangle. The box's plane normal n separates them by
 * 0.3316: depth 16 - 0.3316 along -n; moving along d, which leaves the
 * triangle (d . -n > 0), with ignore_separating: no hit. */
static void skin_start_of_a_flat_needle_box_beside_a_triangle(void** state)
{
    (void)state;
    const sw_shape box = sw_make_box(V(0, 0, 0), V(0x1.75bac4a19p+46, 0x1.6p+3, 0), (sw_quat){-16, -16, -16, 1});
    const sw_shape tri = sw_make_triangle(V(0, 0, -1), V(-0x1.18601e7acbc27p-25, 1, -0x1p-9), V(1, 4, 0), false);
    sw_sweep_options opt = {0};
    opt.skin = 16;
    const sw_vec3 d = V(-1, -16, -16);
    const sw_hit h = sw_sweep(&box, d, &tri, &opt);
    const double tol = 2 * SWT_TOL * 0x1.75bac4a19p+46;
    assert_true(h.hit && h.overlapping);
    assert_true(fabs((double)h.depth - (16 - 0.33159947984395344)) <= tol);
    const sw_vec3 n = V(-0.6241872561768532, -0.7074122236671002, 0.33159947984395344);
    assert_true((double)sw_dot(h.normal, n) >= 1 - 1e-6);
    const sw_shape p = sw_make_point(h.point);
    assert_true((double)sw_distance(&p, &tri).distance <= 16 + tol);
    opt.ignore_separating = true;
    assert_false(sw_sweep(&box, d, &tri, &opt).hit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(every_pair_matches_its_supported_predicate),
        swt_test(the_matrix_is_complete),
        swt_test(moving_plane_is_invalid),
        swt_test(moving_mesh_is_invalid),
        swt_test(mesh_pairs),
        swt_test(dispatch_matches_direct_functions),
        swt_test(invalid_input_through_the_dispatcher),
        swt_test(skin_sweep_of_a_long_box_starting_in_a_polygon),
        swt_test(huge_box_onto_a_thin_plate_contact_point),
        swt_test(skin_sweep_of_a_needle_box_onto_a_triangle_point),
        swt_test(skin_start_of_a_flat_needle_box_beside_a_triangle),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
