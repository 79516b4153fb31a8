/* Named cases of the round-shape sweeps against the primitives (issue 4):
 * each is drawn so that the exact answer is known by hand. */
#include <math.h>

#include "cmocka_support.h"

static const double TOL = SWT_TOL * 16;

/* A sphere of radius 1 resting on the triangle's plane and moving along it
 * touches all the way: a start in contact, depth 0, face normal; with
 * ignore_separating the sliding motion (d . n = 0) is no hit. */
static void sphere_sliding_along_a_face(void** state)
{
    (void)state;
    const sw_triangle t = {{V(-10, -10, 0), V(10, -10, 0), V(0, 10, 0)}, false};
    const sw_sphere s = {V(0, 0, 1), 1};
    const sw_hit h = sw_sweep_sphere_triangle(&s, V(3, 1, 0), &t, NULL);
    assert_true(h.hit && h.overlapping);
    assert_near(0, h.t, 0);
    assert_near(0, h.depth, TOL);
    assert_vec_near(V(0, 0, 1), h.normal, TOL);
    assert_int_equal(h.feature.kind, SW_FEATURE_FACE);
    const sw_sweep_options slide = {0, true};
    assert_miss(sw_sweep_sphere_triangle(&s, V(3, 1, 0), &t, &slide));
}

/* A sphere passing an edge at exactly its radius grazes it: t where its
 * centre is abreast of the edge, the normal perpendicular to the edge. */
static void sphere_grazing_an_edge(void** state)
{
    (void)state;
    const sw_segment e = {V(0, -5, 0), V(0, 5, 0)};
    const sw_sphere s = {V(-4, 0, 1), 1};
    const sw_hit h = sw_sweep_sphere_segment(&s, V(8, 0, 0), &e, NULL);
    assert_true(h.hit && !h.overlapping);
    assert_near(0.5, h.t, TOL);
    assert_vec_near(V(0, 0, 1), h.normal, 1e-3);
    assert_vec_near(V(0, 0, 0), h.point, 1e-3);
    assert_int_equal(h.feature.kind, SW_FEATURE_EDGE);
}

/* A capsule parallel to a box edge, moving diagonally at it: the first
 * contact is along the whole edge, with the normal bisecting the edge's two
 * faces. */
static void capsule_parallel_to_a_box_edge(void** state)
{
    (void)state;
    const sw_box b = {V(0, 0, 0), V(1, 1, 1), {0, 0, 0, 1}};
    /* Axis along x, above the edge y = 1, z = 1, moving diagonally at it. */
    const sw_capsule c = {V(-0.5, 3, 3), V(0.5, 3, 3), 0.5};
    const sw_hit h = sw_sweep_capsule_box(&c, V(0, -4, -4), &b, NULL);
    assert_true(h.hit && !h.overlapping);
    /* The axis reaches distance 0.5 from the edge when 2 - 4t = 0.5/sqrt(2). */
    assert_near((2 - 0.5 / sqrt(2.0)) / 4, h.t, TOL);
    assert_vec_near(V(0, 1 / sqrt(2.0), 1 / sqrt(2.0)), h.normal, 1e-3);
    assert_int_equal(h.feature.kind, SW_FEATURE_EDGE);
}

/* A capsule parallel to a triangle's edge, moving in the triangle's plane
 * toward that edge: contact along the edge, normal in the plane. */
static void capsule_parallel_to_a_triangle_edge(void** state)
{
    (void)state;
    const sw_triangle t = {{V(-5, 0, 0), V(5, 0, 0), V(0, -8, 0)}, false};
    const sw_capsule c = {V(-1, 3, 0), V(1, 3, 0), 0.5};
    const sw_hit h = sw_sweep_capsule_triangle(&c, V(0, -5, 0), &t, NULL);
    assert_true(h.hit);
    assert_near(2.5 / 5, h.t, TOL);
    assert_vec_near(V(0, 1, 0), h.normal, 1e-3);
    assert_int_equal(h.feature.kind, SW_FEATURE_EDGE);
    assert_int_equal(h.feature.index, 0);
}

/* A capsule whose axis is along the motion hits with its leading cap. */
static void capsule_axis_along_the_motion(void** state)
{
    (void)state;
    const sw_plane p = {V(0, 0, 1), 0};
    const sw_capsule c = {V(0, 0, 3), V(0, 0, 6), 1};
    const sw_hit h = sw_sweep_capsule_plane(&c, V(0, 0, -4), &p, NULL);
    assert_true(h.hit);
    assert_near(0.5, h.t, TOL);
    assert_vec_near(V(0, 0, 1), h.normal, TOL);
    assert_vec_near(V(0, 0, 0), h.point, TOL * 8);
}

/* A zero-length capsule is a sphere: the same answer against each shape. */
static void zero_length_capsule_equals_sphere(void** state)
{
    (void)state;
    static const sw_vec3 quad[4] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    const sw_shape bs[] = {sw_make_triangle(V(-1, -1, 0), V(2, -1, 0), V(0, 2, 0), false),
                           sw_make_polygon(quad, 4, false),
                           sw_make_box(V(0, 0, -1), V(1, 1, 1), (sw_quat){0.1f, 0.2f, 0.3f, 0.9f}),
                           sw_make_capsule(V(-2, 0, 0), V(2, 0.5f, 0), 0.25f), sw_make_plane(V(0, 0, 1), 0)};
    for (unsigned i = 0; i < sizeof bs / sizeof bs[0]; ++i) {
        const sw_shape cap = sw_make_capsule(V(0.3f, 0.2f, 4), V(0.3f, 0.2f, 4), 0.7f);
        const sw_shape sph = sw_make_sphere(V(0.3f, 0.2f, 4), 0.7f);
        const sw_hit hc = sw_sweep(&cap, V(0.1f, -0.2f, -6), &bs[i], NULL);
        const sw_hit hs = sw_sweep(&sph, V(0.1f, -0.2f, -6), &bs[i], NULL);
        assert_true(hc.hit && hs.hit);
        assert_near(hs.t, hc.t, 0);
        assert_vec_near(hs.normal, hc.normal, 0);
        assert_vec_near(hs.point, hc.point, 0);
    }
}

/* Two triangles sharing the edge (0,0,0)-(1,1,0): rays through a point of
 * the shared edge and through the shared vertex hit (neither leaks). */
static void ray_through_shared_edge_and_vertex(void** state)
{
    (void)state;
    const sw_triangle t0 = {{V(0, 0, 0), V(1, 0, 0), V(1, 1, 0)}, false};
    const sw_triangle t1 = {{V(0, 0, 0), V(1, 1, 0), V(0, 1, 0)}, false};
    const sw_vec3 targets[2] = {V(0.375, 0.375, 0), V(0, 0, 0)};
    for (int i = 0; i < 2; ++i) {
        const sw_ray r = {sw_add(targets[i], V(0.25, -0.125, 2)), V(-0.25, 0.125, -2), 2};
        const sw_hit h0 = sw_raycast_triangle(&r, &t0), h1 = sw_raycast_triangle(&r, &t1);
        assert_true(h0.hit || h1.hit);
        const sw_hit h = h0.hit ? h0 : h1;
        assert_near(1, h.t, TOL);
        assert_int_equal(h.feature.kind, i == 0 ? SW_FEATURE_EDGE : SW_FEATURE_VERTEX);
    }
}

static sw_vec3 unit_of(sw_vec3 v)
{
    sw_normalize(&v);
    return v;
}

/* Random pairs of triangles sharing an edge, folded and far off the
 * origin, seen by rays through points of the shared edge from directions
 * that both triangles face: seen along the ray, the two cover both sides
 * of the edge, so every ray must hit one. (Before the watertight edge test
 * 4,278 of these rays went through both in the float build.) */
static void rays_through_random_shared_edges_never_leak(void** state)
{
    (void)state;
    swt_rng rng;
    swt_rng_seed(&rng, 20261122);
    int leaks = 0, rays = 0;
    for (int k = 0; k < 4000; ++k) {
        const double off = swt_rng_chance(&rng, 0.5) ? 0 : swt_rng_log_range(&rng, 1, 1e4);
        double u[3], w[3], e[3];
        swt_rng_dir(&rng, u);
        swt_rng_dir(&rng, w);
        swt_rng_dir(&rng, e);
        const sw_vec3 o = V(off * u[0], off * u[1], off * u[2]);
        const sw_vec3 a = sw_add(o, V(w[0], w[1], w[2])), b = sw_add(o, V(-w[0], -w[1], -w[2]));
        /* The third vertices on either side of the edge, folded by up to
         * 60 degrees. */
        const sw_vec3 ab = sw_sub(b, a), side = sw_cross(ab, V(e[0], e[1], e[2]));
        if (sw_length(side) < 0.3f) {
            continue;
        }
        const sw_vec3 up = unit_of(sw_cross(side, ab));
        const sw_vec3 s1 = unit_of(side);
        const double fold = swt_rng_range(&rng, -0.5, 0.5);
        const sw_vec3 c0 = sw_add(a, sw_add(sw_scale(ab, 0.4f), sw_madd(sw_scale(s1, 1), (sw_real)fold, up)));
        const sw_vec3 c1 = sw_add(a, sw_add(sw_scale(ab, 0.6f), sw_madd(sw_scale(s1, -1), (sw_real)fold, up)));
        const sw_triangle t0 = {{a, b, c0}, false}, t1 = {{b, a, c1}, false};
        for (int j = 0; j < 8; ++j) {
            const sw_vec3 p = sw_madd(a, (sw_real)swt_rng_range(&rng, 0.05, 0.95), ab);
            double r[3];
            swt_rng_dir(&rng, r);
            const sw_vec3 d = unit_of(sw_madd(V(r[0], r[1], r[2]), 2, up));
            const sw_vec3 n0 = unit_of(sw_cross(sw_sub(t0.v[1], t0.v[0]), sw_sub(t0.v[2], t0.v[0])));
            const sw_vec3 n1 = unit_of(sw_cross(sw_sub(t1.v[1], t1.v[0]), sw_sub(t1.v[2], t1.v[0])));
            if (!(sw_dot(d, n0) * sw_dot(d, n1) > 0.01f)) {
                continue;
            }
            const sw_ray ray = {sw_madd(p, 3, d), sw_neg(d), 6};
            const sw_hit h0 = sw_raycast_triangle(&ray, &t0), h1 = sw_raycast_triangle(&ray, &t1);
            leaks += !(h0.hit || h1.hit);
            ++rays;
        }
    }
    assert_true(rays > 10000);
    assert_int_equal(leaks, 0);
}

/* A segment whose lower end lands on a box face just inside its rim (by
 * less than the feature tolerance): a hit on the face's plane, reported as
 * the rim's edge. Without a reach no edge's capsule holds that contact, so
 * it must be taken as the face's. */
static void segment_landing_on_a_box_face_by_its_rim(void** state)
{
    (void)state;
    const sw_box b = {V(0, 0, 0), V(1, 1, 1), {0, 0, 0, 1}};
    const sw_shape box = sw_make_box(b.center, b.half, b.rotation);
    const double y = 1 - 0.05 * SWT_TOL;
    const sw_shape seg = sw_make_segment(V(3, y, 0.25), V(4, 0.5, 0.25));
    const sw_hit h = sw_sweep(&seg, V(-4, 0, 0), &box, NULL);
    assert_true(h.hit && !h.overlapping);
    assert_near(0.5, h.t, TOL);
    assert_vec_near(V(1, 0, 0), h.normal, TOL);
    assert_vec_near(V(1, y, 0.25), h.point, TOL);
    assert_int_equal(h.feature.kind, SW_FEATURE_EDGE);
    assert_int_equal(h.feature.index, 4 * 2 + 1 + 2); /* along z, +x and +y */
}

/* A one-sided triangle is hit only from the front. */
static void one_sided_triangle_from_behind(void** state)
{
    (void)state;
    const sw_triangle t = {{V(-1, -1, 0), V(1, -1, 0), V(0, 1, 0)}, true}; /* front: +z */
    const sw_sphere below = {V(0, 0, -2), 0.5f}, above = {V(0, 0, 2), 0.5f};
    assert_miss(sw_sweep_sphere_triangle(&below, V(0, 0, 4), &t, NULL));
    const sw_hit h = sw_sweep_sphere_triangle(&above, V(0, 0, -4), &t, NULL);
    assert_true(h.hit);
    assert_near(0.375, h.t, TOL);
    assert_vec_near(V(0, 0, 1), h.normal, TOL);
    /* Starting across it and moving through: not stopped. */
    const sw_sphere across = {V(0, 0, 0.2f), 0.5f};
    assert_miss(sw_sweep_sphere_triangle(&across, V(0, 0, -3), &t, NULL));
}

/* A sphere aimed at a box edge and at a box corner along the bisecting
 * direction reports the edge and the vertex (numbering in shapes.h). */
static void box_hit_on_an_edge_and_a_corner(void** state)
{
    (void)state;
    const sw_box b = {V(0, 0, 0), V(1, 1, 1), {0, 0, 0, 1}};
    const sw_sphere e = {V(3, 3, 0), 0.5f};
    const sw_hit he = sw_sweep_sphere_box(&e, V(-3, -3, 0), &b, NULL);
    assert_true(he.hit);
    assert_int_equal(he.feature.kind, SW_FEATURE_EDGE);
    assert_int_equal(he.feature.index, 4 * 2 + 3); /* along z, +x and +y */
    assert_vec_near(V(1 / sqrt(2.0), 1 / sqrt(2.0), 0), he.normal, 1e-3);
    const sw_sphere v = {V(3, 3, 3), 0.5f};
    const sw_hit hv = sw_sweep_sphere_box(&v, V(-3, -3, -3), &b, NULL);
    assert_true(hv.hit);
    assert_int_equal(hv.feature.kind, SW_FEATURE_VERTEX);
    assert_int_equal(hv.feature.index, 7);
    assert_vec_near(V(1 / sqrt(3.0), 1 / sqrt(3.0), 1 / sqrt(3.0)), hv.normal, 1e-3);
}

/* A sphere (radius 0.5) entering the box grown by its radius beside an
 * edge (x and y out, z within), and passing the edge's cylinder, into the
 * corner's region (z out too): with y0 = 1.25 it touches the corner's ball
 * at t = 7/18, where (0.6 - 0.4t)^2 + (0.25 - 0.1t)^2 + (t - 0.3)^2 =
 * 0.25; with y0 = 1.3 the squared distance from the box falls only to
 * 0.2624 and rises again: a miss. (fast_box.c walks these pieces.) */
static void sphere_passing_a_box_edge_to_its_corner(void** state)
{
    (void)state;
    const sw_box b = {V(0, 0, 0), V(1, 1, 1), {0, 0, 0, 1}};
    const sw_vec3 d = V(-0.4, -0.1, 1);
    const sw_sphere hit = {V(1.6, 1.25, 0.7), 0.5};
    const sw_hit h = sw_sweep_sphere_box(&hit, d, &b, NULL);
    assert_true(h.hit && !h.overlapping);
    assert_near(7.0 / 18, h.t, TOL);
    const double t = 7.0 / 18;
    const sw_vec3 off = V((sw_real)(0.6 - 0.4 * t), (sw_real)(0.25 - 0.1 * t), (sw_real)(t - 0.3));
    assert_vec_near(sw_scale(off, 2), h.normal, TOL);
    assert_vec_near(V(1, 1, 1), h.point, TOL);
    assert_int_equal(h.feature.kind, SW_FEATURE_VERTEX);
    assert_int_equal(h.feature.index, 7);
    const sw_sphere miss = {V(1.6, 1.3, 0.7), 0.5};
    assert_miss(sw_sweep_sphere_box(&miss, d, &b, NULL));
}

/* Fuzz finding (README 13): a point (no radius) entering a box exactly
 * through an edge or a corner. Rounding put the entry just beside every
 * face and a zero-radius edge or vertex is never hit, so the general
 * driver missed the box (double build: a box 0.002 across, turned 90
 * degrees about z, the point coming along its diagonal). */
static void point_entering_a_box_through_an_edge_or_corner(void** state)
{
    (void)state;
    const sw_shape turned = sw_make_box(V(0, 0, -0.001), V(0.001, 0.001, 0.002), (sw_quat){1, 0, -16, -16});
    const sw_shape p = sw_make_point(V(-16, -16, -16));
    const sw_hit h = sw_sweep(&p, V(16, 16, 16), &turned, NULL);
    assert_true(h.hit && !h.overlapping);
    assert_near(0.9999375, h.t, SWT_TOL * 16);
    assert_vec_near(V(-0.001, -0.001, -0.001), h.point, SWT_TOL * 16 * 4);
    assert_unit(h.normal);
    const sw_shape unit = sw_make_box(V(0, 0, 0), V(1, 1, 1), (sw_quat){0, 0, 0, 1});
    for (int corner = 0; corner < 2; ++corner) {
        const sw_shape q = sw_make_point(V(3, 3, corner ? 3 : 0));
        const sw_hit hc = sw_sweep(&q, V(-3, -3, corner ? -3 : 0), &unit, NULL);
        assert_true(hc.hit);
        assert_near(2.0 / 3.0, hc.t, SWT_TOL * 4);
        assert_vec_near(V(1, 1, corner ? 1 : 0), hc.point, SWT_TOL * 4 * 4);
    }
}

/* Fuzz findings 30-33 (fuzz/README.md): a boundary that walks back along
 * part of an edge and out again turns only by 0 and 180 degrees there, and
 * along the first in-plane axis of validation (y for a polygon in the xy
 * plane) its edges have no component: only a second axis sees it wind more
 * than once. The square itself is valid. */
static void polygon_retracing_an_edge_is_invalid(void** state)
{
    (void)state;
    const sw_vec3 retraced[6] = {V(0, 0, 0), V(2, 0, 0), V(1, 0, 0), V(2, 0, 0), V(2, 2, 0), V(0, 2, 0)};
    const sw_polygon bad = {.v = retraced, .count = 6, .one_sided = false};
    assert_false(sw_is_valid_polygon(&bad));
    const sw_sphere s = {V(1, 1, 3), 0.5f};
    assert_invalid_hit(sw_sweep_sphere_polygon(&s, V(0, 0, -4), &bad, NULL));
    const sw_vec3 square[6] = {V(0, 0, 0), V(1, 0, 0), V(2, 0, 0), V(2, 0, 0), V(2, 2, 0), V(0, 2, 0)};
    const sw_polygon good = {.v = square, .count = 6, .one_sided = false};
    assert_true(sw_is_valid_polygon(&good));
    const sw_hit h = sw_sweep_sphere_polygon(&s, V(0, 0, -4), &good, NULL);
    assert_true(h.hit);
    assert_near(0.625, h.t, TOL);
}

/* Fuzz finding (README 10): a spike out and back along an edge, written
 * with repeated vertices, hid a turn the wrong way from validation. In
 * order (0.5,0,0), (6,0,0), c, c, c, (-1,-16,-16), c x 6 with
 * c = (-16,-16,-16), the polygon turns back at c, so (-1,-16,-16) lies 8.8
 * outside the edge from (6,0,0) to c: not convex, invalid input. The same
 * vertices in boundary order, repeats kept, are valid: the sphere's centre
 * is 0.955 from the edge (6,0,0)-(-1,-16,-16), in the polygon's plane. */
static void polygon_with_repeated_vertices_hiding_a_turn(void** state)
{
    (void)state;
    const sw_vec3 c = V(-16, -16, -16), e = V(-1, -16, -16), a = V(0.5, 0, 0), b = V(6, 0, 0);
    const sw_vec3 spiked[12] = {a, b, c, c, c, e, c, c, c, c, c, c};
    const sw_polygon bad = {.v = spiked, .count = 12, .one_sided = false};
    const sw_sphere s = {V(0, -16, -16), 16};
    assert_false(sw_is_valid_polygon(&bad));
    assert_invalid_hit(sw_sweep_sphere_polygon(&s, V(-16, -16, 0), &bad, &(sw_sweep_options){0}));

    const sw_vec3 ordered[12] = {a, b, e, e, e, c, c, c, c, c, c, c};
    const sw_polygon good = {.v = ordered, .count = 12, .one_sided = false};
    assert_true(sw_is_valid_polygon(&good));
    const sw_hit h = sw_sweep_sphere_polygon(&s, V(-16, -16, 0), &good, &(sw_sweep_options){0});
    /* Closest point: the foot of the centre on the edge e -> b. */
    const double u = 7.0 / 561.0;
    const double q[3] = {-1 + 7 * u, -16 + 16 * u, -16 + 16 * u}, g[3] = {-q[0], -16 - q[1], -16 - q[2]};
    const double dist = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    assert_true(h.hit && h.overlapping);
    assert_near(0, h.t, 0);
    assert_near(16 - dist, h.depth, SWT_TOL * 16 * 4);
    assert_vec_near(V(g[0] / dist, g[1] / dist, g[2] / dist), h.normal, 1e-3);
    assert_unit(h.normal);
}

/* Fuzz finding (README 11): a sliver polygon 1.8e17 long, a spike out to
 * v0 and back around a loop of size 100, whose vertices v1 = v4 are the
 * ray's origin. The origin is on the polygon: a hit at t = 0, overlapping,
 * depth 0 (the fuzz oracle had measured it from the loop's plane through
 * v0, 1.3e17 off). */
static void ray_from_a_vertex_of_a_sliver_polygon(void** state)
{
    (void)state;
    const sw_vec3 v[5] = {V(1.7599999448920883e17, 9, -16), V(-16, -16, -16), V(-16, -126, 0),
                          V(9.0879997971526905e-11, 0, 0), V(-16, -16, -16)};
    const sw_shape b = sw_make_polygon(v, 5, false);
    const sw_ray r = {V(-16, -16, -16), V(-16, -16, -0.0010000000474974513), 0};
    const sw_hit h = sw_raycast_shape(&r, &b);
    assert_int_equal(h.status, SW_OK);
    assert_true(h.hit && h.overlapping);
    assert_near(0, h.t, 0);
    assert_near(0, h.depth, SWT_TOL * 1.76e17);
    assert_unit(h.normal);
}

/* Fuzz finding (README 18): a ray starting inside a capsule of radius
 * 3.07e10, 6.4 from the axis beside its end b, in a frame whose origin is
 * the far end a. The closest point was taken for the end vertex b and the
 * gap's direction, rounded in that frame, leaned 2.9e-10 toward a: along
 * it the core stuck out 8.9 past the contact, so the separating axis
 * (0, -1, 0) won, and moving by depth along it left the origin 1.4 inside.
 * At a segment's end the normal is now kept out of the edge's direction. */
static void ray_from_inside_a_huge_capsule_near_its_end(void** state)
{
    (void)state;
    const double r = 30743000000.0;
    const sw_capsule cap = {V(1, 0, r), V(0, -0x1.38p-17, -0x1p-16), (sw_real)r};
    const sw_ray ray = {V(-4, -5, 0), V(96, -5, 0), 0};
    const sw_hit h = sw_raycast_capsule(&ray, &cap);
    assert_int_equal(h.status, SW_OK);
    assert_true(h.hit && h.overlapping);
    assert_near(0, h.t, 0);
    assert_near((double)cap.radius - sqrt(41.0), h.depth, SWT_TOL * r * 2);
    assert_vec_near(V(-4 / sqrt(41.0), -5 / sqrt(41.0), 0), h.normal, 1e-3);
    assert_unit(h.normal);
}

/* Fuzz finding (README 19): a capsule along x coming down on a square
 * plate of zero thickness, tilted 0.0078 rad about two axes. Its core's
 * closest point is 2e-5 inside its end (A's side meets the plate's edge),
 * but the end won the near tie of distances by rounding, and the normal
 * from the end to the edge leaned 1.5e-4 rad along the capsule: its other
 * end reached 3e-4 (10 tolerances) below the contact plane. */
static void capsule_onto_the_edge_of_a_tilted_plate(void** state)
{
    (void)state;
    const sw_capsule a = {V(-1, 3, 3), V(1, 3, 3), 0.25};
    const sw_box b = {V(0, 0, -0x1.0624dep-10), V(1, 1, 0), {0, 0.125, -16, -16}};
    const sw_vec3 d = V(0, -3, -3);
    const sw_hit h = sw_sweep_capsule_box(&a, d, &b, NULL);
    const double tol = SWT_TOL * 3;
    assert_true(h.hit && !h.overlapping);
    assert_near(0.9137192216758016, h.t, tol);
    assert_vec_near(V(0.9999615235778695, 0.26079540037066284, 0.008849964017898351), h.point, 2 * tol);
    assert_vec_near(V(0, -0.007812261592269554, 0.9999694838187885), h.normal, 1e-5);
    assert_unit(h.normal);
    /* A(t) above the contact plane: both ends of its core at least r. */
    for (int i = 0; i < 2; ++i) {
        const sw_vec3 end = sw_madd(i ? a.b : a.a, h.t, d);
        assert_true(sw_dot(h.normal, sw_sub(end, h.point)) >= (double)a.radius - tol);
    }
}

/* Fuzz finding (README 20): edge-edge contacts of nearly parallel edges.
 * The lines' closest parameters were products of dot products whose
 * cancellation grows as 1 / sin^2 of the edges' angle. A segment 3.3e13
 * long, 6.6e-11 rad from a sliver triangle 3e10 long, reaches the
 * triangle's edge with its end at t = 1 (a grazing contact: hit or miss);
 * the parameter came out 0 and the point reported was the segment's far
 * end, 3.3e13 from B. A capsule of radius 1.5e-7 whose axis, 1e-12 rad
 * from a segment, lands on it at t = 1: the normal was (0, 1, 0), 45
 * degrees off, and t off by a third of the radius. */
static void nearly_parallel_edges_meet_on_both(void** state)
{
    (void)state;
    const sw_segment s = {V(-6, -32640000000000.0, 0), V(-0x1.0a3d70a3d70a4p+0, 0, 0)};
    const sw_triangle tr = {{V(0, 0x1.68b5cbff47736p-6, 0), V(0, -30584000000.0, 2), V(0, -16, 0)}, false};
    const sw_hit h = sw_sweep_segment_triangle(&s, V(0x1.0a3d70a3d70a4p+0, 0, 0), &tr, NULL);
    assert_int_equal(h.status, SW_OK);
    if (h.hit) {
        assert_near(1, h.t, SWT_TOL * 3.3e13);
        assert_vec_near(V(0, 0, 0), h.point, 2 * SWT_TOL * 3.3e13);
    }

    const double r = 0x1.4680dfbac3667p-23;
    const sw_capsule a = {V(4, 0, -0x1.aeabb8c51d5dp-39), V(1, 0, 0), (sw_real)r};
    const sw_segment b = {V(0, -16, -16), V(-16, -16, -16)};
    const sw_hit hc = sw_sweep_capsule_segment(&a, V(-16, -16, -16), &b, NULL);
    const double tol = SWT_TOL * 16;
    assert_true(hc.hit && !hc.overlapping);
    assert_near(1 - (double)a.radius / (16 * sqrt(2.0)), hc.t, tol);
    assert_vec_near(V(0, sqrt(0.5), sqrt(0.5)), hc.normal, 1e-3);
    assert_unit(hc.normal);
    assert_true(hc.point.x >= 1 - 16 * (double)hc.t - tol && hc.point.x <= 4 - 16 * (double)hc.t + tol);
    assert_near(-16, hc.point.y, 2 * tol);
    assert_near(-16, hc.point.z, 2 * tol);
}

/* Fuzz finding (README 26): a polygon whose first vertex is repeated. The
 * vertex cone of v0 took its copy v1 for its next neighbour, so it stood
 * open toward v2: the sphere's contact with v0, 0.0018 later than its
 * contact with v2, passed the cone test first and was reported. */
static void sphere_against_a_polygon_with_a_repeated_vertex(void** state)
{
    (void)state;
    const sw_vec3 v[4] = {V(0.001, 0.001, 0.001), V(0.001, 0.001, 0.001), V(0.03125, 0, 0), V(-2, -0.25, -0.001)};
    const sw_polygon pg = {.v = v, .count = 4, .one_sided = true};
    const sw_sphere s = {V(-0.128, -16, -16), 16};
    const sw_hit h = sw_sweep_sphere_polygon(&s, V(16, 16, 10), &pg, NULL);
    const double tol = SWT_TOL * 16;
    assert_true(h.hit && !h.overlapping);
    /* First contact: the ball around v2 (numerically, in double). */
    assert_near(0.4616863008000466, h.t, tol);
    assert_vec_near(V(0.03125, 0, 0), h.point, 2 * tol);
    assert_vec_near(V(0.45173317580004657, -0.5383136991999534, -0.711446061999971), h.normal, 1e-3);
}

/* Fuzz finding (README 29): a capsule whose axis meets a cube's edge 1.3e-5
 * from the cube's corner. The corner won the near tie of closest points,
 * and the gap from it leaned 1.3e-5 rad across the corner's face: the
 * cube, 32 across, reached 4.3e-4 past the contact plane. */
static void capsule_onto_a_cube_edge_next_to_its_corner(void** state)
{
    (void)state;
    const sw_capsule a = {V(-0x1.cp-16, 2, 0), V(0, 0, 2), 1};
    const sw_box b = {V(-16, -16, -16), V(16, 16, 16), {-16, -16, -16, -16}};
    const sw_hit h = sw_sweep_capsule_box(&a, V(0, -16, -16), &b, NULL);
    const double tol = SWT_TOL * 16;
    assert_true(h.hit && !h.overlapping);
    assert_near((1 - sqrt(0.5)) / 16, h.t, tol);
    assert_unit(h.normal);
    /* The cube is [-32, 0]^3 (the rotation permutes its axes): none of its
     * corners beyond the contact plane. */
    for (int i = 0; i < 8; ++i) {
        const sw_vec3 corner = V(i & 1 ? -32 : 0, i & 2 ? -32 : 0, i & 4 ? -32 : 0);
        assert_true(sw_dot(h.normal, sw_sub(corner, h.point)) <= tol);
    }
}

/* A half-space answered in closed form (fast_sweep.c): a sphere far off
 * the origin lands at the exact time; one starting below the plane (its
 * normal not unit) overlaps by the depth of its lowest point, unless it
 * moves away with ignore_separating. */
static void sphere_against_a_half_space(void** state)
{
    (void)state;
    const sw_shape plane = sw_make_plane(V(0, 0, 4), 4000); /* z <= 1000 */
    const sw_shape above = sw_make_sphere(V(1000, -2000, 1010), 2);
    const sw_hit h = sw_sweep(&above, V(3, 0, -16), &plane, NULL);
    assert_true(h.hit && !h.overlapping);
    assert_near(0.5, h.t, TOL);
    assert_vec_near(V(0, 0, 1), h.normal, TOL);
    assert_vec_near(V(1001.5f, -2000, 1000), h.point, 1e-5f * 2000);
    assert_int_equal(h.feature.kind, SW_FEATURE_FACE);

    const sw_shape below = sw_make_sphere(V(5, 6, 997), 0.5f);
    const sw_hit o = sw_sweep(&below, V(0, 0, 1), &plane, NULL);
    assert_true(o.hit && o.overlapping);
    assert_near(0, o.t, 0);
    assert_near(3.5f, o.depth, 1e-5f * 1000);
    assert_vec_near(V(0, 0, 1), o.normal, TOL);
    assert_vec_near(V(5, 6, 996.5f), o.point, 1e-5f * 1000);

    sw_sweep_options opt = {0};
    opt.ignore_separating = true;
    assert_false(sw_sweep(&below, V(0, 0, 1), &plane, &opt).hit);
    assert_true(sw_sweep(&below, V(0, 0, -1), &plane, &opt).overlapping);
    assert_false(sw_sweep(&above, V(3, 0, 16), &plane, &opt).hit);
}

/* A segment 1.7e11 long, nearly parallel to a face of a cube it passes
 * over (its far end 3 lower than its near one): the fast path took its ends
 * as level within 1e-9 of its length and reported the near end landing on
 * the face, with the face's normal; the far end then lay 3 below that
 * plane (tolerance 0.17 in double). The first contact is on the cube's
 * edge, and the normal tilts by 1.7e-11 to keep the whole segment above
 * it (fuzz finding, double). */
static void long_segment_nearly_level_over_a_box(void** state)
{
    (void)state;
#ifndef SWEEP_DOUBLE
    /* In float the tolerance (1.7e6) dwarfs the cube: any answer is in the
     * grazing band. */
    skip();
#endif
    const sw_shape seg = sw_make_segment(V(1, -0x1.40bf5bdp+37, 1), V(4, 0.5, -16));
    const sw_shape box = sw_make_box(V(-16, -16, -16), V(16, 16, 16), (sw_quat){-16, -16, -16, -16});
    const sw_vec3 d = V(-16, -16, -16);
    const sw_hit h = sw_sweep(&seg, d, &box, NULL);
    assert_true(h.hit && !h.overlapping);
    const sw_real tol = SW_TOLERANCE * 0x1.40bf5bdp+37;
    assert_near(0.25, h.t, tol / 16);
    for (int end = 0; end < 2; ++end) {
        const sw_vec3 at = sw_madd(end ? seg.segment.b : seg.segment.a, h.t, d);
        assert_true(sw_dot(h.normal, sw_sub(at, h.point)) >= -tol);
    }
}

/* A sliver 30 long and 0.01 wide (from the differential engine): its
 * normal from float cross products was tilted by 4e-4 rad, which put its
 * own vertices 40 tolerances out of its plane, and validation called the
 * triangle, and the quadrilateral with a fourth vertex on an edge, not
 * planar. A sliver bent out of its plane by 10 tolerances still is. */
static void sliver_polygons_are_planar(void** state)
{
    (void)state;
    const sw_vec3 a = V(-19.5043964f, -15.28055f, -46.7019157f), b = V(-49.2984047f, -24.547802f, -53.6387482f),
                  c = V(-49.3073997f, -24.5483074f, -53.6312675f);
    const sw_vec3 tri[3] = {a, b, c};
    const sw_polygon p3 = {.v = tri, .count = 3, .one_sided = true};
    assert_true(sw_is_valid_polygon(&p3));
    const sw_vec3 quad[4] = {a, sw_scale(sw_add(a, b), 0.5f), b, c};
    const sw_polygon p4 = {.v = quad, .count = 4, .one_sided = false};
    assert_true(sw_is_valid_polygon(&p4));
    /* Out of the plane: along the sliver's normal, 10 tolerances. */
    sw_vec3 n = sw_cross(sw_sub(b, a), sw_sub(c, a));
    sw_normalize(&n);
    const sw_vec3 bent[4] = {a, sw_madd(sw_scale(sw_add(a, b), 0.5f), 10 * SW_TOLERANCE * 54, n), b, c};
    const sw_polygon p4b = {.v = bent, .count = 4, .one_sided = false};
    assert_false(sw_is_valid_polygon(&p4b));
}

/* The polygon of the n points xy in the plane of world axes i and j. */
static sw_polygon planar_polygon(const double (*xy)[2], int n, int i, int j, sw_vec3* v)
{
    for (int k = 0; k < n; ++k) {
        sw_real c[3] = {0, 0, 0};
        c[i] = (sw_real)xy[k][0];
        c[j] = (sw_real)xy[k][1];
        v[k] = V(c[0], c[1], c[2]);
    }
    return (sw_polygon){.v = v, .count = n, .one_sided = false};
}

/* Convexity is judged within the tolerance whatever the orientation: a
 * unit square whose bottom edge zigzags by 2e-7 (tol 1e-5 in float) was
 * refused as winding twice in three of the four orientations below (every
 * sign change of the edges along the first in-plane axis counted). A
 * pentagram, a spike out and back, and a dent of 10 tol still are. */
static void polygon_convexity_within_tolerance_in_every_orientation(void** state)
{
    (void)state;
    const double zig = SW_TOLERANCE / 50;
    const double square[7][2] = {{0, 0}, {0.25, zig}, {0.5, 0}, {0.75, zig}, {1, 0}, {1, 1}, {0, 1}};
    const double spike[7][2] = {{0, 0}, {1, 0}, {1, 1}, {1, 1.5}, {1, 1}, {0, 1}, {0, 0.5}};
    const double dent[5][2] = {{0, 0}, {0.5, 10 * SW_TOLERANCE}, {1, 0}, {1, 1}, {0, 1}};
    double star[5][2];
    for (int k = 0; k < 5; ++k) {
        star[k][0] = cos(2 * 3.141592653589793 * 2 * k / 5);
        star[k][1] = sin(2 * 3.141592653589793 * 2 * k / 5);
    }
    for (int o = 0; o < 6; ++o) {
        /* The plane's two axes among x, y, z in each order. */
        const int i = o / 2, j = (i + 1 + o % 2) % 3;
        sw_vec3 v[7];
        sw_polygon p = planar_polygon(square, 7, i, j, v);
        assert_true(sw_is_valid_polygon(&p));
        p = planar_polygon(spike, 7, i, j, v);
        assert_false(sw_is_valid_polygon(&p));
        p = planar_polygon((const double(*)[2])star, 5, i, j, v);
        assert_false(sw_is_valid_polygon(&p));
        p = planar_polygon(dent, 5, i, j, v);
        assert_false(sw_is_valid_polygon(&p));
#ifdef SWEEP_DOUBLE
        /* So large that the double build's planarity in double (before
         * long double) would overflow the squared area. */
        p = planar_polygon((const double(*)[2])star, 5, i, j, v);
        for (int k = 0; k < 5; ++k) {
            v[k] = sw_scale(v[k], 1e90);
        }
        assert_false(sw_is_valid_polygon(&p));
#endif
    }
}

/* Two spikes 1.7e7 long at a right angle, joined by vertices 16 apart
 * (fuzz finding 46): in float (tol 168) the turn the wrong way between
 * them hides in edges shorter than tol, and validation took the polygon
 * as convex; its area is so small against its extent that the queries
 * answered it as the segment between the spikes' tips, 8.4e6 from its
 * other vertices. A convex needle of the same width is still valid. */
static void two_spikes_at_a_right_angle_are_not_convex(void** state)
{
    (void)state;
    const double len = 16849000;
    const double spikes[7][2] = {{-16, 0}, {5, -len}, {2, 0}, {0, 0}, {-len, 0}, {0, -16}, {-16, -16}};
    const double needle[4][2] = {{0, 0}, {0, -len}, {17, -len / 2}, {8.5, -len / 4}};
    sw_vec3 v[7];
    sw_polygon p = planar_polygon(spikes, 7, 1, 2, v);
    assert_false(sw_is_valid_polygon(&p));
    p = planar_polygon(needle, 4, 1, 2, v);
    assert_true(sw_is_valid_polygon(&p));
}

/* A sphere swept onto the triangle (0,0,0), (0,-16,-16), (-16,-16,-16)
 * given as 7 vertices, with two 2e-11 from its first corner where the
 * boundary turns the wrong way (convex within tol): the face contact's
 * foot was refused by that tiny edge's line, x >= e, and the far edge's
 * contact, 0.114 later, reported (fuzz finding 47, float). */
static void sphere_onto_a_polygon_with_a_tiny_wrong_turn(void** state)
{
    (void)state;
    const sw_real e = (sw_real)-0x1.5b5b5ap-36;
    const sw_vec3 v[7] = {V(e, e, e),     V(e, 0, 0),       V(0, 0, 0),      V(0, 0, 0),
                          V(0, -16, -16), V(-16, -16, -16), V(-16, -16, -16)};
    const sw_polygon p = {.v = v, .count = 7, .one_sided = false};
#ifdef SWEEP_DOUBLE
    assert_false(sw_is_valid_polygon(&p)); /* the wrong turn, 2e-11, is beyond tol there (1.6e-11) */
#else
    const sw_sphere s = {V(0, -1, -16), 8};
    const sw_hit h = sw_sweep_sphere_polygon(&s, V(-16, -16, 2), &p, NULL);
    assert_int_equal(h.status, SW_OK);
    assert_true(h.hit);
    assert_near((double)h.t, (15 - 8 * sqrt(2.0)) / 18, 2 * SWT_TOL * 16 / sqrt(16 * 16 * 2 + 4));
    assert_near((double)h.normal.y, sqrt(0.5), 1e-3);
    assert_near((double)h.normal.z, -sqrt(0.5), 1e-3);
#endif
}

/* A point with a skin of 2 starts 0.0014 from a triangle 19 long and 0.001
 * wide, beside its vertex v1 (the closest point is on the edge v1-v2, 3e-9
 * of its length from v1, rounded onto v1 in float). The gap's direction
 * then leaned 4e-5 rad along the edge, whose far end stuck out past the
 * contact plane, and the separating-axis search took an edge's in-plane
 * normal instead, 45 degrees off: moved out by the depth along it, the
 * point was still 4e-4 inside (fuzz finding, float). */
static void point_beside_the_vertex_of_a_long_thin_triangle(void** state)
{
    (void)state;
    const sw_vec3 v0 = V(-0x1.0624dep-10f, -0x1.0624dep-10f, -0x1.0624dep-10f);
    const sw_vec3 v1 = V(-0x1.0624dep-10f, -0x1.0624dep-10f, -16), v2 = V(-0x1.1f3ec6p-35f, -0x1.0624dep-10f, 3);
    const sw_shape tri = sw_make_triangle(v0, v1, v2, false);
    const sw_shape point = sw_make_sphere(V(0, 0, -16), 0);
    sw_sweep_options opt = {0};
    opt.skin = 2;
    const sw_hit h = sw_sweep(&point, V(-16, -16, -16), &tri, &opt);
    assert_true(h.hit && h.overlapping);
    assert_near(2 - 0.0014142f, h.depth, 1e-5f * 19);
    const sw_shape out = sw_make_sphere(sw_madd(V(0, 0, -16), h.depth, h.normal), 0);
    assert_true(sw_distance(&out, &tri).distance >= 2 - 1e-5f * 19);
    assert_near(0.7071068f, h.normal.x, 1e-3f);
    assert_near(0.7071068f, h.normal.y, 1e-3f);
}

/* Fuzz finding (README 33): a capsule of radius 1.4e-9 whose end lands on
 * a capsule of radius 16, 4.9e-9 inside the end of B's axis. The fast path
 * certified the ball around B's end with a cone slack of 1e-9 times the
 * axis: its normal leaned 3e-10 rad along the axis, and B's other end
 * reached 4.9e-9 past the contact plane (tol 5.6e-11 in double). The
 * normal is the cylinder's, perpendicular to the axis. */
static void tiny_capsule_onto_a_capsule_just_inside_its_end(void** state)
{
    (void)state;
    const sw_capsule a = {V(-2, 2, 2), V(-16, -0x1.8p-30, -0x1.58p-26), (sw_real)0x1.8p-30};
    const sw_capsule b = {V(0, -16, -16), V(-16, -16, -16), 16};
    const sw_vec3 d = V(0x1.6p-26, -56, -1);
    const sw_hit h = sw_sweep_capsule_capsule(&a, d, &b, NULL);
    const double tol = SWT_TOL * 56;
    assert_true(h.hit && !h.overlapping);
    assert_unit(h.normal);
    assert_near(0.23674590684070979, h.t, tol);
    /* B (both ends' balls) below the contact plane; A's end above it. */
    for (int i = 0; i < 2; ++i) {
        const sw_vec3 end = i ? b.b : b.a;
        assert_true(sw_dot(h.normal, sw_sub(end, h.point)) + (double)b.radius <= tol);
    }
    const sw_vec3 a_end = sw_madd(a.b, h.t, d);
    assert_true(sw_dot(h.normal, sw_sub(a_end, h.point)) >= (double)a.radius - tol);
}

/* Fuzz finding (README 34): a capsule landing nearly flat on a 7-vertex
 * polygon, its axis level with the face to 6.5e-9. The fast path took the
 * ends as level within its cone slack (1e-9 times the axis, 2.3e-8) and
 * reported the higher end's contact, 5.3e-10 late: the lower end was then
 * 6.5e-9 inside the polygon (tol 3.9e-11 in double). The exact time (the
 * lower end's, checked in rationals with the Newell plane) is
 * 0.20415176546319738. */
static void capsule_landing_nearly_flat_on_a_polygon(void** state)
{
    (void)state;
    const sw_vec3 v[7] = {
        V(-32, -16, 0x1.8p-27),
        V(-0x1.33e1915e47307p+5, -0x1.3f3a0e28bedd1p+3, -0x1.904c374ca0368p+3),
        V(-0x1.c09dbe64c2c04p+4, 0x1.c7b90e3024582p+1, -0x1.f329c056e4616p+3),
        V(-0x1.10da37ced797p+3, 0x1.cd4bca9cb5c71p+3, -0x1.bc4c04e1ea82dp+2),
        V(0x1.56e39a10864a3p+2, 0x1.cd4bca9cb5c71p+3, 0x1.bc4c04cc4af55p+2),
        V(0x1.94600f865eb26p+1, 0x1.c7b90e3024582p+1, 0x1.f329c05438cbcp+3),
        V(-0x1.aeedd6d860f86p+3, -0x1.3f3a0e28bedd1p+3, 0x1.904c37541b92ep+3),
    };
    const sw_polygon pg = {.v = v, .count = 7, .one_sided = false};
    const sw_capsule a = {V(0, 0, -16), V(-16, -16, -16), 16};
    const sw_vec3 d = V(-16, -16, 21);
    const sw_hit h = sw_sweep_capsule_polygon(&a, d, &pg, NULL);
    const double tol = SWT_TOL * 38.5;
    assert_true(h.hit && !h.overlapping);
    assert_unit(h.normal);
    assert_near(0.20415176546319738 * sw_length(d), (double)h.t * sw_length(d), tol);
    assert_vec_near(V(0.5773502690552009, -0.5773502694584755, -0.5773502690552009), h.normal, 1e-3);
}

/* The triangle (0,0,0), (0,-16,-16), (-16,-16,-16) with (e,e,e) and
 * (e,0,0), e = -2e-6 tol (-2e-11 in float, as found), before its first
 * corner: the boundary turns the wrong way there (convex within tol, so
 * valid), and the tiny edge's line x = e cuts the face. The face still stops what lands on it, and a ball
 * over it is at its height (finding 39): with the repeated vertices (the
 * driver) and without (the fast paths refuse it). */
static void polygon_turning_back_at_a_tiny_edge(void** state)
{
    (void)state;
    const sw_real e = (sw_real)(-2e-6 * SW_TOLERANCE);
    const sw_vec3 v7[7] = {V(e, e, e),     V(e, 0, 0),       V(0, 0, 0),      V(0, 0, 0),
                           V(0, -16, -16), V(-16, -16, -16), V(-16, -16, -16)};
    const sw_vec3 v5[5] = {V(e, e, e), V(e, 0, 0), V(0, 0, 0), V(0, -16, -16), V(-16, -16, -16)};
    const sw_polygon polygons[2] = {{.v = v7, .count = 7}, {.v = v5, .count = 5}};
    const double s = sqrt(0.5);
    for (int k = 0; k < 2; ++k) {
        const sw_polygon* pg = &polygons[k];
        const sw_sphere a = {V(0, -1, -16), 8};
        const sw_vec3 d = V(-16, -16, 2);
        sw_hit h = sw_sweep_sphere_polygon(&a, d, pg, NULL);
        assert_true(h.hit && !h.overlapping);
        assert_near((15 - 8 * sqrt(2.0)) / 18 * sw_length(d), (double)h.t * sw_length(d), TOL);
        assert_vec_near(V(0, s, -s), h.normal, TOL);
        assert_int_equal(h.feature.kind, SW_FEATURE_FACE);
        /* Straight down onto the face, 12 from the tiny edge's line. */
        const sw_vec3 c = V(-12, -14 + 5 * s, -14 - 5 * s), down = V(0, -10 * s, 10 * s);
        const sw_sphere ball = {c, 1};
        h = sw_sweep_sphere_polygon(&ball, down, pg, NULL);
        assert_true(h.hit && !h.overlapping);
        assert_near(0.4, h.t, TOL);
        assert_vec_near(V(0, s, -s), h.normal, TOL);
        const sw_ray ray = {c, down, 1};
        h = sw_raycast_polygon(&ray, pg);
        assert_true(h.hit && !h.overlapping);
        assert_near(0.5, h.t, TOL);
        const sw_capsule over = {c, c, SW_R(0.5)};
        assert_near(4.5, sw_distance_capsule_polygon(&over, pg).distance, TOL);
        const sw_capsule through = {c, sw_madd(c, 1, down), 0};
        const sw_overlap_result o = sw_overlap_capsule_polygon(&through, pg);
        assert_true(o.overlapping);
        assert_near(sqrt(8.0 / 3), o.depth, TOL); /* across the long edge */
    }
}

/* Fuzz finding 51: a ray 1.5e13 out, along x, passing 1.5e13 from a
 * sliver triangle 38 long near the origin whose direction (1, 1, 1) the
 * ray's projection nearly follows. The watertight crossing test, sheared
 * into the frame of the ray's origin, rounded its edge functions beyond
 * the sliver's own and reported a hit; the crossing is now confirmed in
 * the polygon's frame. As a triangle and as a 3-vertex polygon. */
static void ray_far_past_a_sliver_does_not_hit_it(void** state)
{
    (void)state;
    const sw_vec3 v[3] = {V(-0x1.4p+6, -0x1.76999ap+11, -0x1p+5), V(-0x1.176cf6p+6, -0x1.755502p+11, -0x1.5db3d8p+4),
                          V(-0x1.512614p+5, -0x1.71de32p+11, 0x1.76cf5ep+2)};
    const sw_ray ray = {V(-16, 0x1.aaab9p+43, 0x1.aaaaaap+43), V(0x1.ab90aap+43, 0, 0), 16};
    const sw_shape tri = sw_make_triangle(v[0], v[1], v[2], false);
    const sw_shape pg = sw_make_polygon(v, 3, false);
    assert_false(sw_raycast_shape(&ray, &tri).hit);
    assert_false(sw_raycast_shape(&ray, &pg).hit);
    /* The same ray moved next to the sliver's middle still hits it. */
    const sw_vec3 mid = sw_scale(sw_add(v[0], v[2]), SW_R(0.5));
    const sw_ray near = {sw_sub(mid, V(100, 0, 0)), V(1, 0, 0), 200};
    const sw_hit h = sw_raycast_shape(&near, &tri);
    assert_true(h.hit && !h.overlapping);
    assert_near(100, h.t, 1e-3);
}

/* A vertex repeated a hundredth of the tolerance back along the edge
 * before it (a unit square's corner (1,0) followed by (1 - e, 0)): the
 * boundary then turns the wrong way, and the next edge's far end lies 1
 * off the tiny edge's line, whose direction says nothing. The polygon is
 * within e of convex (soak seed 11, case 1262: a vertex repeated 1 ulp
 * away at 3e4 was refused as not convex). A spike or dent as long as the
 * tolerance is still refused. */
static void polygon_with_a_vertex_repeated_just_behind_it_is_valid(void** state)
{
    (void)state;
    const double e = SW_TOLERANCE / 100;
    const double square[5][2] = {{0, 0}, {1, 0}, {1 - e, 0}, {1, 1}, {0, 1}};
    const double dent[5][2] = {{0, 0}, {1, 0}, {1 - 4 * SW_TOLERANCE, 0.5}, {1, 1}, {0, 1}};
    sw_vec3 v[5];
    sw_polygon p = planar_polygon(square, 5, 0, 1, v);
    assert_true(sw_is_valid_polygon(&p));
    const sw_sphere s = {V(0.5, 0.5, 2), 1};
    const sw_hit h = sw_sweep_sphere_polygon(&s, V(0, 0, -2), &p, NULL);
    assert_true(h.hit && !h.overlapping);
    assert_near(0.5, h.t, TOL);
    p = planar_polygon(dent, 5, 0, 1, v);
    assert_false(sw_is_valid_polygon(&p));
}

/* A segment starting in the crack between a polygon's face, taken in its
 * plane, and an edge off that plane by less than the planarity tolerance
 * (rounding of vertices far from the origin), and moving into the face:
 * apart from the face and from every edge, it met neither later and was
 * answered a miss, though it goes 0.1 (float) or 24 (double) deep into the
 * polygon. The vertices are now moved onto the plane. The exact first
 * contact (the reference of the differential engine) is at t = 0 (float:
 * seed 14, case 1657) and t = 4e-16 (double: seed 17, case 1631). */
static void segment_starting_in_the_crack_of_a_nearly_planar_polygon(void** state)
{
    (void)state;
#ifdef SWEEP_DOUBLE
    const sw_segment a = {V(62034.374275241636, -126604.0202567024, 110979.6664652067),
                          V(61979.971171950623, -126655.84018608106, 110938.56963854971)};
    const sw_vec3 d = V(32.600798883107096, -44.422899989329522, 6.4729931926058528);
    const sw_vec3 v[7] = {V(62061.150584137104, -126598.34567813716, 110902.29318499054),
                          V(62000.762988188806, -126631.48043728773, 110931.15628625854),
                          V(61961.18845122229, -126689.56071088374, 111004.72426860002),
                          V(61992.100619227393, -126704.50383764821, 111037.89785890892),
                          V(62002.698558318611, -126702.34307961877, 111038.32442208647),
                          V(62024.503421646565, -126694.43590284957, 111033.9998877911),
                          V(62074.210801343295, -126661.96271996869, 111002.42862977993)};
    const double scale = 126704.50383764821;
#else
    const sw_segment a = {V(257.273804, -339.576935, 654.796936), V(256.489502, -339.106537, 654.808777)};
    const sw_vec3 d = V(-0.15142113, -0.041894529, 0.0507681295);
    const sw_vec3 v[7] = {V(256.984283, -339.259399, 654.972473), V(256.996094, -339.38678, 654.999817),
                          V(256.908966, -339.578094, 654.917969), V(256.862457, -339.603058, 654.866089),
                          V(256.841888, -339.605011, 654.842163), V(256.744446, -339.449738, 654.711426),
                          V(256.756531, -339.342773, 654.714233)};
    const double scale = 654.999817;
#endif
    const sw_polygon p = {.v = v, .count = 7, .one_sided = false};
    assert_true(sw_is_valid_polygon(&p));
    const sw_hit h = sw_sweep_segment_polygon(&a, d, &p, NULL);
    assert_true(h.hit);
    assert_true((double)h.t * sw_length(d) <= SWT_TOL * scale);
    assert_unit(h.normal);
}

/* A bow-tie 1.5 across, 7e4 from the origin (tol 0.72 in float): not
 * convex, its vertices winding both ways. Validation judged the sweeps'
 * polygon after moving its offsets onto the plane, and float builds took
 * the edges from the moved offsets: the sweep answered it while
 * sw_is_valid_polygon refused it (298 verdicts of 1,000,000 adversarial
 * polygons differed so). Every entry point must give the same verdict. */
static void a_sweep_refuses_what_validation_refuses(void** state)
{
    (void)state;
    const sw_vec3 v[4] = {V(9988.47265625, 68424.3125, 72238.1015625), V(9988.013671875, 68425.5625, 72239.1640625),
                          V(9988.47265625, 68424.8671875, 72239.4453125),
                          V(9988.013671875, 68425.015625, 72237.8203125)};
    const sw_polygon p = {.v = v, .count = 4, .one_sided = false};
    assert_false(sw_is_valid_polygon(&p));
    const sw_sphere s = {V(9990, 68425, 72239), 1};
    assert_invalid_hit(sw_sweep_sphere_polygon(&s, V(-4, 0, 0), &p, NULL));
    const sw_capsule c = {V(9990, 68425, 72238), V(9990, 68425, 72240), 1};
    assert_invalid_hit(sw_sweep_capsule_polygon(&c, V(-4, 0, 0), &p, NULL));
}

/* sw_polygon_prepare refuses what validation refuses, with the same reason
 * (or its own, for what never reaches a polygon's checks). */
static void prepare_refuses_what_validation_refuses(void** state)
{
    (void)state;
    const sw_vec3 bent[4] = {V(0, 0, 0), V(1, 0, 0), V(1, 1, 0.1f), V(0, 1, 0)};
    const sw_vec3 dart[4] = {V(0, 0, 0), V(2, 0, 0), V(1, 0.2f, 0), V(1, 2, 0)};
    const sw_vec3 nan[3] = {V(0, 0, 0), V(1, 0, 0), V(0, NAN, 0)};
    const sw_vec3* arrays[3] = {bent, dart, nan};
    const int counts[3] = {4, 4, 3};
    for (int i = 0; i < 3; ++i) {
        const char* why = "unset";
        assert_null(sw_polygon_prepare(arrays[i], counts[i], &why));
        const sw_shape s = sw_make_polygon(arrays[i], counts[i], false);
        assert_non_null(sw_shape_invalid_reason(&s));
        assert_string_equal(why, sw_shape_invalid_reason(&s));
    }
    const char* why = NULL;
    assert_null(sw_polygon_prepare(bent, 2, &why));
    assert_non_null(why);
    assert_null(sw_polygon_prepare(bent, SW_MAX_POLYGON_VERTICES + 1, NULL));
    assert_null(sw_polygon_prepare(NULL, 4, &why));
    assert_non_null(why);
    sw_polygon_prep_destroy(NULL);
    /* No prep, no polygon: invalid input, not a crash. */
    const sw_shape none = sw_make_prepared_polygon(NULL, false);
    assert_false(sw_is_valid_shape(&none));
    const sw_shape ball = sw_make_sphere(V(0, 0, 3), 0.5f);
    swt_reset_asserts();
    assert_invalid_hit(sw_sweep(&ball, V(0, 0, -4), &none, NULL));
}

/* A prepared pentagon answers every query exactly as the same pentagon
 * unprepared (the whole contract is the differential engine's, which
 * checks every polygon case prepared too): face, edge and vertex contacts, a ray, a capsule, overlap
 * and distance, one-sided from the front and from behind. */
static void prepared_polygon_answers_bit_for_bit(void** state)
{
    (void)state;
    sw_vec3 v[5];
    for (int k = 0; k < 5; ++k) {
        const double a = 2 * 3.14159265358979 * k / 5;
        v[k] = V(2 * cos(a), 2 * sin(a), 0.25 * cos(a));
    }
    /* Off its plane within tolerance: the sweeps answer it moved onto the
     * plane, the ray as given, and the prep must keep both. */
    v[2].z += (sw_real)(0.2 * SW_TOLERANCE);
    sw_polygon_prep* prep = sw_polygon_prepare(v, 5, NULL);
    assert_non_null(prep);
    for (int side = 0; side < 2; ++side) {
        const sw_shape plain = sw_make_polygon(v, 5, side == 1), ready = sw_make_prepared_polygon(prep, side == 1);
        assert_true(ready.polygon.v != v && ready.polygon.count == 5 && sw_is_valid_shape(&ready));
        const sw_shape movers[3] = {sw_make_sphere(V(0.3f, 0.2f, 3), 0.5f), sw_make_point(V(0.3f, 0.2f, 3)),
                                    sw_make_capsule(V(-1, 0.2f, 3), V(1, 0.4f, 3.5f), 0.3f)};
        /* Onto the face, across an edge, onto a vertex, from behind, and a
         * start in contact. */
        const sw_vec3 offsets[5] = {V(0, 0, 0), V(1.5f, 0.5f, 0), V(1.7f, -0.2f, 0), V(0, 0, -6), V(0, 0, -3)};
        for (int m = 0; m < 3; ++m) {
            for (int o = 0; o < 5; ++o) {
                sw_shape a = movers[m];
                const sw_vec3 off = offsets[o];
                if (a.type == SW_SHAPE_CAPSULE) {
                    a.capsule.a = sw_add(a.capsule.a, off);
                    a.capsule.b = sw_add(a.capsule.b, off);
                } else if (a.type == SW_SHAPE_SPHERE) {
                    a.sphere.center = sw_add(a.sphere.center, off);
                } else {
                    a.point = sw_add(a.point, off);
                }
                const sw_vec3 d = o == 3 ? V(0, 0, 8) : V(0, 0, -5);
                const sw_hit h0 = sw_sweep(&a, d, &plain, NULL), h1 = sw_sweep(&a, d, &ready, NULL);
                assert_memory_equal(&h0.t, &h1.t, sizeof h0.t);
                assert_memory_equal(&h0.point, &h1.point, sizeof h0.point);
                assert_memory_equal(&h0.normal, &h1.normal, sizeof h0.normal);
                assert_true(h0.hit == h1.hit && h0.overlapping == h1.overlapping && h0.status == h1.status);
                assert_true(h0.feature.kind == h1.feature.kind && h0.feature.index == h1.feature.index);
                if (o == 0) {
                    assert_true(h1.hit && h1.feature.kind == SW_FEATURE_FACE);
                } else if (o == 1 && m == 0) {
                    assert_true(h1.hit && h1.feature.kind == SW_FEATURE_EDGE);
                } else if (o == 3) {
                    assert_true(h1.hit == (side == 0)); /* from behind */
                } else if (o == 4 && m != 1) {
                    assert_true(h1.hit == (side == 0) && h1.overlapping == (side == 0)); /* starts in contact */
                }
                const sw_overlap_result o0 = sw_overlap(&a, &plain), o1 = sw_overlap(&a, &ready);
                assert_true(o0.overlapping == o1.overlapping && o0.status == o1.status);
                assert_memory_equal(&o0.depth, &o1.depth, sizeof o0.depth);
                const sw_distance_result d0 = sw_distance(&a, &plain), d1 = sw_distance(&a, &ready);
                assert_memory_equal(&d0.distance, &d1.distance, sizeof d0.distance);
                assert_memory_equal(&d0.point_b, &d1.point_b, sizeof d0.point_b);
                if (a.type == SW_SHAPE_POINT) {
                    const sw_ray r = {a.point, d, 1};
                    const sw_hit r0 = sw_raycast(&r, &plain), r1 = sw_raycast(&r, &ready);
                    assert_true(r0.hit == r1.hit);
                    assert_memory_equal(&r0.t, &r1.t, sizeof r0.t);
                    assert_memory_equal(&r0.point, &r1.point, sizeof r0.point);
                }
            }
        }
    }
    /* The typed entry point keeps the prep. */
    const sw_polygon pg = sw_make_prepared_polygon(prep, false).polygon;
    const sw_sphere s = {V(0.3f, 0.2f, 3), 0.5f};
    const sw_hit typed = sw_sweep_sphere_polygon(&s, V(0, 0, -5), &pg, NULL);
    assert_true(typed.hit && typed.feature.kind == SW_FEATURE_FACE);
    sw_polygon_prep_destroy(prep);
}

/* A prep travels with its own vertices only: a polygon that names it with
 * other vertices (or another count) is validated as usual, so a bent
 * polygon is still refused. */
static void a_prep_with_other_vertices_is_ignored(void** state)
{
    (void)state;
    const sw_vec3 square[4] = {V(0, 0, 0), V(1, 0, 0), V(1, 1, 0), V(0, 1, 0)};
    const sw_vec3 bent[4] = {V(0, 0, 0), V(1, 0, 0), V(1, 1, 0.1f), V(0, 1, 0)};
    sw_polygon_prep* prep = sw_polygon_prepare(square, 4, NULL);
    assert_non_null(prep);
    sw_shape s = sw_make_polygon(bent, 4, false);
    s.polygon.prep = prep;
    assert_false(sw_is_valid_shape(&s));
    const sw_shape ball = sw_make_sphere(V(0.5f, 0.5f, 3), 0.25f);
    swt_reset_asserts();
    assert_invalid_hit(sw_sweep(&ball, V(0, 0, -4), &s, NULL));
    s = sw_make_prepared_polygon(prep, false);
    s.polygon.count = 3; /* a triangle of the square's first three vertices */
    const sw_hit h = sw_sweep(&ball, V(0.4f, -0.4f, -4), &s, NULL);
    const sw_shape tri = sw_make_polygon(square, 3, false);
    const sw_hit h3 = sw_sweep(&ball, V(0.4f, -0.4f, -4), &tri, NULL);
    assert_true(h.hit && h3.hit);
    assert_memory_equal(&h.t, &h3.t, sizeof h.t);
    sw_polygon_prep_destroy(prep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(sphere_sliding_along_a_face),
        swt_test(sphere_grazing_an_edge),
        swt_test(capsule_parallel_to_a_box_edge),
        swt_test(capsule_parallel_to_a_triangle_edge),
        swt_test(capsule_axis_along_the_motion),
        swt_test(zero_length_capsule_equals_sphere),
        swt_test(ray_through_shared_edge_and_vertex),
        swt_test(rays_through_random_shared_edges_never_leak),
        swt_test(segment_landing_on_a_box_face_by_its_rim),
        swt_test(one_sided_triangle_from_behind),
        swt_test(box_hit_on_an_edge_and_a_corner),
        swt_test(sphere_passing_a_box_edge_to_its_corner),
        swt_test(point_entering_a_box_through_an_edge_or_corner),
        swt_test(polygon_with_repeated_vertices_hiding_a_turn),
        swt_test(polygon_retracing_an_edge_is_invalid),
        swt_test(ray_from_a_vertex_of_a_sliver_polygon),
        swt_test(ray_from_inside_a_huge_capsule_near_its_end),
        swt_test(capsule_onto_the_edge_of_a_tilted_plate),
        swt_test(nearly_parallel_edges_meet_on_both),
        swt_test(sphere_against_a_polygon_with_a_repeated_vertex),
        swt_test(capsule_onto_a_cube_edge_next_to_its_corner),
        swt_test(sphere_against_a_half_space),
        swt_test(long_segment_nearly_level_over_a_box),
        swt_test(sliver_polygons_are_planar),
        swt_test(polygon_convexity_within_tolerance_in_every_orientation),
        swt_test(two_spikes_at_a_right_angle_are_not_convex),
        swt_test(sphere_onto_a_polygon_with_a_tiny_wrong_turn),
        swt_test(point_beside_the_vertex_of_a_long_thin_triangle),
        swt_test(tiny_capsule_onto_a_capsule_just_inside_its_end),
        swt_test(capsule_landing_nearly_flat_on_a_polygon),
        swt_test(polygon_turning_back_at_a_tiny_edge),
        swt_test(ray_far_past_a_sliver_does_not_hit_it),
        swt_test(polygon_with_a_vertex_repeated_just_behind_it_is_valid),
        swt_test(segment_starting_in_the_crack_of_a_nearly_planar_polygon),
        swt_test(a_sweep_refuses_what_validation_refuses),
        swt_test(prepare_refuses_what_validation_refuses),
        swt_test(prepared_polygon_answers_bit_for_bit),
        swt_test(a_prep_with_other_vertices_is_ignored),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
