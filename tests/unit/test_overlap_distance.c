/* Overlap (penetration depth) and distance for the point / segment /
 * sphere / capsule family, closest-point helpers, the segment-sphere seed
 * regressions, and regressions found by the differential engine. */
#include <math.h>

#include "cmocka_support.h"
#include "ref.h"

static void closest_point_on_segment(void** state)
{
    (void)state;
    const sw_segment s = {V(0, 0, 0), V(4, 0, 0)};
    const struct {
        double px, py, ex, u;
    } table[] = {{-2, 1, 0, 0}, {0, 3, 0, 0}, {1, 2, 1, 0.25}, {4, -1, 4, 1}, {9, 9, 4, 1}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        sw_real u = -1;
        const sw_vec3 c = sw_closest_point_segment(V(table[i].px, table[i].py, 0), &s, &u);
        assert_vec_near(V(table[i].ex, 0, 0), c, SWT_TOL * 10);
        assert_near(table[i].u, u, SWT_TOL);
    }
    /* Zero length: the end point, u = 0, no division by zero. */
    const sw_segment z = {V(1, 2, 3), V(1, 2, 3)};
    sw_real u = -1;
    assert_vec_near(V(1, 2, 3), sw_closest_point_segment(V(5, 5, 5), &z, &u), 0);
    assert_near(0, u, 0);
}

static void closest_points_between_segments(void** state)
{
    (void)state;
    sw_vec3 ca, cb;
    /* Crossing at right angles 1 apart. */
    const sw_segment a = {V(-1, 0, 0), V(1, 0, 0)}, b = {V(0, -1, 1), V(0, 1, 1)};
    assert_near(1, sw_closest_points_segments(&a, &b, &ca, &cb), SWT_TOL);
    assert_vec_near(V(0, 0, 0), ca, SWT_TOL);
    assert_vec_near(V(0, 0, 1), cb, SWT_TOL);
    /* Parallel, overlapping in x, 2 apart: any pair 2 apart is right. */
    const sw_segment p = {V(0, 0, 0), V(4, 0, 0)}, q = {V(2, 2, 0), V(6, 2, 0)};
    assert_near(4, sw_closest_points_segments(&p, &q, &ca, &cb), SWT_TOL * 10);
    assert_near(2, sqrt(sw_distance_sq(ca, cb)), SWT_TOL * 10);
    /* End to end. */
    const sw_segment e = {V(5, 0, 0), V(8, 0, 0)};
    assert_near(1, sw_closest_points_segments(&p, &e, &ca, &cb), SWT_TOL * 10);
    /* Both degenerate. */
    const sw_segment z0 = {V(1, 1, 1), V(1, 1, 1)}, z1 = {V(1, 1, 4), V(1, 1, 4)};
    assert_near(9, sw_closest_points_segments(&z0, &z1, &ca, &cb), SWT_TOL * 10);
}

/* Seed bug: the segment-sphere test compared a squared length with the
 * unsquared radius: a segment 1.5 from the centre of a radius-2 sphere
 * (1.5^2 = 2.25 > 2) was called disjoint. */
static void regression_segment_sphere_squared_vs_unsquared(void** state)
{
    (void)state;
    const sw_segment s = {V(-5, 1.5, 0), V(5, 1.5, 0)};
    const sw_sphere b = {V(0, 0, 0), 2};
    const sw_overlap_result o = sw_overlap_segment_sphere(&s, &b);
    assert_true(o.overlapping);
    assert_near(0.5, o.depth, SWT_TOL * 5);
    assert_vec_near(V(0, 1, 0), o.normal, SWT_TOL);
    assert_vec_near(V(0, 1.5, 0), o.point, SWT_TOL * 5);
}

/* Seed bug: the final comparison was reversed: a far segment overlapped. */
static void regression_segment_sphere_reversed_comparison(void** state)
{
    (void)state;
    const sw_segment s = {V(-5, 10, 0), V(5, 10, 0)};
    const sw_sphere b = {V(0, 0, 0), 1};
    const sw_overlap_result o = sw_overlap_segment_sphere(&s, &b);
    assert_false(o.overlapping);
    assert_near(0, o.depth, 0);
    assert_near(9, sw_distance_segment_sphere(&s, &b).distance, SWT_TOL * 10);
}

/* Seed bug: a zero-length segment divided by its zero length. */
static void regression_segment_sphere_zero_length(void** state)
{
    (void)state;
    const sw_sphere b = {V(0, 0, 0), 2};
    const sw_segment out = {V(3, 0, 0), V(3, 0, 0)}, in = {V(1, 0, 0), V(1, 0, 0)};
    assert_false(sw_overlap_segment_sphere(&out, &b).overlapping);
    assert_near(1, sw_distance_segment_sphere(&out, &b).distance, SWT_TOL * 3);
    const sw_overlap_result o = sw_overlap_segment_sphere(&in, &b);
    assert_true(o.overlapping);
    assert_near(1, o.depth, SWT_TOL * 3);
    assert_vec_near(V(1, 0, 0), o.normal, SWT_TOL);
}

static void sphere_pairs(void** state)
{
    (void)state;
    const sw_sphere a = {V(3, 0, 0), 1}, b = {V(0, 0, 0), 1.5f};
    const sw_distance_result d = sw_distance_sphere_sphere(&a, &b);
    assert_near(0.5, d.distance, SWT_TOL * 3);
    assert_vec_near(V(2, 0, 0), d.point_a, SWT_TOL * 3);
    assert_vec_near(V(1.5, 0, 0), d.point_b, SWT_TOL * 3);
    assert_false(sw_overlap_sphere_sphere(&a, &b).overlapping);
    /* Touching counts as overlapping with depth 0. */
    const sw_sphere t = {V(2.5, 0, 0), 1};
    const sw_overlap_result o = sw_overlap_sphere_sphere(&t, &b);
    assert_true(o.overlapping);
    assert_near(0, o.depth, SWT_TOL * 3);
    const sw_distance_result dt = sw_distance_sphere_sphere(&t, &b);
    assert_near(0, dt.distance, 0);
    assert_vec_near(dt.point_a, dt.point_b, 0);
    assert_vec_near(V(1.5, 0, 0), dt.point_a, SWT_TOL * 3);
    /* Point inside a sphere. */
    const sw_overlap_result p = sw_overlap_point_sphere(V(0, 0, -1), &b);
    assert_true(p.overlapping);
    assert_near(0.5, p.depth, SWT_TOL * 2);
    assert_vec_near(V(0, 0, -1), p.normal, SWT_TOL);
}

static void capsule_pairs(void** state)
{
    (void)state;
    /* Crossing cores 0 apart: depth = ra + rb, normal perpendicular to both. */
    const sw_capsule a = {V(-2, 0, 0), V(2, 0, 0), 0.5f}, b = {V(0, -2, 0), V(0, 2, 0), 0.25f};
    const sw_overlap_result o = sw_overlap_capsule_capsule(&a, &b);
    assert_true(o.overlapping);
    assert_near(0.75, o.depth, SWT_TOL * 2);
    assert_near(0, sw_dot(o.normal, V(1, 0, 0)), SWT_TOL);
    assert_near(0, sw_dot(o.normal, V(0, 1, 0)), SWT_TOL);
    assert_unit(o.normal);
    /* Parallel capsules 3 apart. */
    const sw_capsule c = {V(-1, 3, 0), V(5, 3, 0), 1};
    const sw_distance_result d = sw_distance_capsule_capsule(&c, &a);
    assert_near(1.5, d.distance, SWT_TOL * 5);
    assert_near(1.5, sqrt(sw_distance_sq(d.point_a, d.point_b)), SWT_TOL * 5);
    assert_near(2, d.point_a.y, SWT_TOL * 5);
    assert_near(0.5, d.point_b.y, SWT_TOL * 5);
}

/* Found by the differential engine (float): a point lying on a capsule's
 * core far from the origin; the normal was (pa - pb) / core with pa, pb
 * rounded at the offset's magnitude but core computed relative to it, so
 * its length came out 1.0000165. */
static void regression_overlap_normal_unit_far_from_origin(void** state)
{
    (void)state;
    const sw_capsule b = {V(2661.5249, 657.202759, 1643.98535), V(2660.94873, 657.491943, 1644.38538), 0.818021834f};
    const sw_overlap_result o = sw_overlap_capsule_capsule(
        &(sw_capsule){V(2661.23364, 657.348938, 1644.1875), V(2661.23364, 657.348938, 1644.1875), 0}, &b);
    assert_true(o.overlapping);
    assert_unit(o.normal);
}

/* Found by the differential engine: a segment nearly collinear with a
 * capsule's core and overlapping it. The cores' Minkowski difference is a
 * flat parallelogram, so the depth is ra + rb - core distance (0.3135);
 * the library reported 2.2157 along a noise axis. */
static void regression_overlap_nearly_collinear_cores(void** state)
{
    (void)state;
    const sw_segment a = {V(1.9272027, 2.26097512, -2.40391088), V(1.09056854, -1.27810049, 0.728968859)};
    const sw_capsule b = {V(2.32287264, 3.93471265, -3.88554573), V(0.86480248, -2.2331214, 1.57437778), 0.313550055f};
    const sw_shape sa = sw_make_segment(a.a, a.b), sb = sw_make_capsule(b.a, b.b, b.radius);
    const sw_overlap_result o = sw_overlap(&sa, &sb);
    assert_true(o.overlapping);
    /* The exact depth of the inputs as this build reads them (float and
     * double round the literals differently): -sdist, in long double. */
    ref_shape ra, rb;
    assert_true(ref_from_shape(&sa, &ra) && ref_from_shape(&sb, &rb));
    ref_witness w;
    const double exact = -(double)ref_sdist(&ra, &rb, &w);
    assert_near(0.3135, exact, 1e-4);
    assert_near(exact, o.depth, SWT_TOL * 4);
}

/* Found by the differential engine (double, seed 61, case 223): two
 * segments about 1e4 long at 2.2e-6 rad that touch (4.9e-14 apart) were
 * answered 1.2e-8 deep, beyond the band of 8.5e-9: their cross product,
 * rounded, tilted the separating axis, and A's projection on it was 1e-8
 * wide instead of a point. */
static void regression_overlap_nearly_parallel_long_segments(void** state)
{
    (void)state;
    const sw_shape a = sw_make_segment(V(-1869.153753045088, -4672.0733732729632, 1871.5884888866954),
                                       V(1877.2278911663641, 4681.6271802443434, -1876.6125449503666));
    const sw_shape b = sw_make_segment(V(1237.3818586491977, 3084.104879740873, -1236.4557727238112),
                                       V(3403.5690409246567, 8492.5191341635982, -3403.7135321362234));
    const sw_overlap_result o = sw_overlap(&a, &b);
    ref_shape ra, rb;
    assert_true(ref_from_shape(&a, &ra) && ref_from_shape(&b, &rb));
    ref_witness w;
    const double exact = -(double)ref_sdist(&ra, &rb, &w);
    const double band = SWT_TOL * 8492.5;
    /* Touching within the band (however this build rounds the inputs):
     * then the depth is the overlap, not more. */
    assert_true(exact > -band);
    if (o.overlapping) {
        assert_near(sw_max(exact, 0), o.depth, band);
    }
}

/* Found by the differential engine: a point on a triangle's vertex is at
 * distance 0; the library returned point_a = point_b = (0, 0, 0) instead
 * of the common point. */
static void regression_distance_touching_reports_common_point(void** state)
{
    (void)state;
    const sw_vec3 p = V(25.9586487, 31.0084972, -13.3773222);
    const sw_shape a = sw_make_point(p);
    const sw_shape b =
        sw_make_triangle(V(89.190239, 7.29027367, -5.83593369), V(81.5063095, 12.9586697, 47.6874771), p, false);
    const sw_distance_result d = sw_distance(&a, &b);
    assert_int_equal(d.status, SW_OK);
    assert_near(0, d.distance, 0);
    assert_vec_near(p, d.point_a, SWT_TOL * 90);
    assert_vec_near(p, d.point_b, SWT_TOL * 90);
}

/* fuzz_dispatch: a triangle 4.8e-4 wide and 17 long at 16 from the origin
 * passed for a sliver (its width estimated as area2 / (2 extent), half the
 * truth) and was answered as its segment v2-v0, leaving v1 4.8e-4 away. */
static void regression_distance_thin_triangle_vertex(void** state)
{
    (void)state;
    const sw_vec3 v1 = V(-16, -16, 0);
    const sw_shape b = sw_make_triangle(V(-16, -16, -0.00048065185546875), v1, V(-16, 1, 0), false);
    const sw_shape seg = sw_make_segment(V(-1, 0, 1), v1), pt = sw_make_point(v1);
    const sw_distance_result d = sw_distance(&seg, &b), e = sw_distance(&pt, &b);
    assert_int_equal(d.status, SW_OK);
    assert_near(0, d.distance, SWT_TOL * 16);
    assert_near(0, e.distance, SWT_TOL * 16);
    assert_vec_near(v1, d.point_b, SWT_TOL * 16);
}

/* Fuzz finding (README 22): a triangle 2.3e9 long and 128 wide crossed by
 * a triangle 200 across. With the small one first, GJK stalled (rounding
 * on so thin a Minkowski difference) at a pair of points on the shapes
 * 7.7 apart, and that was taken for the distance; the plane between them
 * does not separate the shapes. */
static void regression_distance_long_triangle_crossed(void** state)
{
    (void)state;
    const sw_shape big = sw_make_triangle(V(-2133200000, 0.1, -84), V(170800000, 0, 17), V(17, -128, 0), false);
    const sw_vec3 v[3] = {V(-16, 2, -120), V(8, -13.356406460551018, 46.143593539448979),
                          V(8, 14.356406460551018, 73.856406460551014)};
    const sw_shape small = sw_make_polygon(v, 3, false);
    const double tol = SWT_TOL * 2133200000.0;
    for (int order = 0; order < 2; ++order) {
        const sw_distance_result d = order ? sw_distance(&small, &big) : sw_distance(&big, &small);
        assert_int_equal(d.status, SW_OK);
        assert_near(0, d.distance, tol);
        const sw_shape p = sw_make_point(d.point_a);
        assert_true((double)sw_distance(&p, &big).distance <= 2 * tol);
        assert_true((double)sw_distance(&p, &small).distance <= 2 * tol);
    }
}

/* Fuzz finding (README 23): a unit box 122.9 from a polygon 6.5e12 long
 * and 32 wide, their closest features two parallel edges. GJK's answer
 * was right, but the check of its witness points, GJK of a point against
 * the polygon, put a point of the polygon 16.8 off it; the separating
 * axes (no axis for parallel edges) then gave 122.0 and a point of the box
 * 7.4 outside it. */
static void regression_distance_box_huge_polygon_parallel_edges(void** state)
{
    (void)state;
    const sw_vec3 v[4] = {V(-0x1.7c159a3488p+41, -0x1.fcp+6, 0x1.04189374bc6a8p-3),
                          V(-0x1.ffffffd408bd7p+3, -0x1.ecp+6, -0x1.fbef9db22d0e5p+3),
                          V(0x1.7c159a3478p+41, -0x1.02p+7, 0x1.04189374bc6a8p-3),
                          V(-0x1.000000a0f84a6p+4, -0x1.0ap+7, 0x1.02083126e978dp+4)};
    const sw_shape poly = sw_make_polygon(v, 4, false);
    const sw_shape box = sw_make_box(V(0, 0, 0), V(1, 1, 1), (sw_quat){0, 0, 0, 1});
    const double tol = SWT_TOL * 3.3e12; /* scale: the largest |coordinate| */
    /* The box's edge y = z = -1 and the polygon's edge v1-v2, both along x
     * to within 1e-12 rad: 122 apart in y and 14.873 in z. */
    const double exact = sqrt(122.0 * 122.0 + 14.873 * 14.873);
    for (int order = 0; order < 2; ++order) {
        const sw_distance_result d = order ? sw_distance(&poly, &box) : sw_distance(&box, &poly);
        assert_int_equal(d.status, SW_OK);
        assert_near(exact, d.distance, 2 * tol);
        const sw_vec3 on_box = order ? d.point_b : d.point_a;
        assert_true(sw_abs(on_box.x) <= 1 + 2 * tol && sw_abs(on_box.y) <= 1 + 2 * tol &&
                    sw_abs(on_box.z) <= 1 + 2 * tol);
    }
}

/* Fuzz finding (README 25): a sphere of radius 16 whose centre is 1.57e-3
 * above a triangle 2.3e8 long and 1 wide, near its short side. The
 * triangle's normal, computed in sw_real relative to its far vertex, came
 * from cross products cancelling from 1e12 to 1e8 and was tilted by 2e-11
 * rad: 5e-4 at the sphere, the depth 2 tolerances too deep. */
static void regression_overlap_sphere_long_triangle_depth(void** state)
{
    (void)state;
    const sw_vec3 v[3] = {V(-0x1.be1738p+27, 0x1.cc348p+21, -0x1.c138p+19),
                          V(-0x1.0624dd2f1a9fcp-10, -1, -0x1.47ae147ae147bp-5),
                          V(-0x1.d8p-12, -0x1p-18, -0x1.0624dd2f1a9fcp-10)};
    const sw_shape tri = sw_make_triangle(v[0], v[1], v[2], true);
    const sw_shape sph = sw_make_sphere(V(-0x1.e353f7ced9168p-4, -0x1.0624dd2f1a9fcp-10, 0), 16);
    const double tol = SWT_TOL * 2.34e8;
    /* Exact, in rationals: the centre projects inside, 1.57392905138e-3
     * from the plane. */
    const sw_overlap_result o = sw_overlap(&sph, &tri);
    assert_true(o.overlapping);
    assert_near(16 - 1.57392905138074e-3, o.depth, tol);
    /* In float the tolerance (2340) dwarfs the sphere: no normal is stable. */
    if (sizeof(sw_real) == sizeof(double)) {
        assert_vec_near(V(-0.004558746263500526, -0.038967614877102305, 0.9992300750194095), o.normal, 1e-6);
    }
}

/* Fuzz finding 31 (README): a box thinner than the tolerance (half
 * extents 1.9e-10, 0.01, 3.4e-9, rotated) deep in a capsule of radius 16.
 * Its closest point was within tol of a face, whose normal the overlap
 * took, 45 degrees from the gap: moved by the depth along it the capsule
 * still held the box 0.31 deep. The normal is now the gap's where that
 * leaves the capsule clearer, as for hulls. */
static void regression_overlap_capsule_thin_box_normal(void** state)
{
    (void)state;
    const sw_shape cap = sw_make_capsule(V(0, 0, 0), V(-16, -15, -16), 16);
    const sw_shape box = sw_make_box(V(-16, 0, 0x1.d1eb06p-29), V(0x1.9ad25p-33, 0x1.47ae14p-7, 0x1.d1eb06p-29),
                                     (sw_quat){-16, -16, -16, -16});
    const sw_overlap_result o = sw_overlap(&cap, &box);
    assert_true(o.overlapping);
    assert_unit(o.normal);
    /* The box is 0.02 long, 12.9 from the capsule's axis: the normal is the
     * direction from its centre to the axis within 2e-3 rad. */
    const sw_vec3 foot = V(-16 * 256.0 / 737, -15 * 256.0 / 737, -16 * 256.0 / 737);
    sw_vec3 g = sw_sub(foot, V(-16, 0, 0));
    sw_normalize(&g);
    assert_vec_near(g, o.normal, 2e-3);
    /* Moved out by the depth along the normal, the capsule just touches. */
    const sw_vec3 out = sw_scale(o.normal, o.depth);
    const sw_shape moved = sw_make_capsule(out, sw_add(V(-16, -15, -16), out), 16);
    const sw_distance_result dr = sw_distance(&moved, &box);
    assert_near(0, dr.distance, SWT_TOL * 32 * 4);
}

/* The first fix of finding 23 (README) checked GJK's points by the cores
 * alone; a polygon 192 long and 0.0016 wide is, in the float build's core,
 * the segment between its extreme vertices (thinner than its vertices'
 * rounding), 0.001 off GJK's right point, so the separating axes answered
 * with a point 2.6e-3 off the polygon (2 tolerances). */
static void regression_distance_box_thin_polygon_point(void** state)
{
    (void)state;
    const sw_vec3 v[3] = {V(-4, 1, -124), V(-10, 0x1.0033f6p+0, 68), V(-10, 0x1.ff9814p-1, 68)};
    const sw_shape poly = sw_make_polygon(v, 3, false);
    const sw_shape box = sw_make_box(V(0, 0, 0), V(1, 1, 0x1.451eb8p+0),
                                     (sw_quat){287.72000122070312, -2.6666667461395264, -16, -225260});
    const double tol = SWT_TOL * 124;
    for (int order = 0; order < 2; ++order) {
        const sw_distance_result d = order ? sw_distance(&poly, &box) : sw_distance(&box, &poly);
        assert_int_equal(d.status, SW_OK);
        const sw_vec3 on_poly = order ? d.point_a : d.point_b;
        /* The polygon lies in 0.99920714 <= y <= 1.00079286. */
        assert_true(on_poly.y >= 0x1.ff9814p-1 - 2 * tol && on_poly.y <= 0x1.0033f6p+0 + 2 * tol);
    }
}

/* Fuzz finding (README 27): a box 2.8e15 long and 0.08 wide, 6.2 from a
 * triangle 30 across near its centre. In GJK's frame (extent 1) its width
 * is below the rounding, and GJK stopped at points 5.8e10 and 2.9e11 out
 * along it, depending on the order (the float tolerance is 1.4e10). Within
 * tol of its axis, such a box is that segment. */
static void regression_distance_needle_box_triangle(void** state)
{
    (void)state;
    const sw_vec3 v[3] = {V(0, 0, -32), V(-0x1.bb67aep+3, -0x1.bb67aep+3, -0x1.5db3d8p+4),
                          V(0x1.bb67aep+3, 0x1.bb67aep+3, 0x1.76cf5ep+2)};
    const sw_shape poly = sw_make_polygon(v, 3, false);
    const sw_shape box = sw_make_box(V(-0x1.333334p-2, 0x1.0624dep-10, 0),
                                     V(0x1.4fdf3cp-5, 0x1.a5e354p-4, 0x1.3f4d04p+50), (sw_quat){15, 0, -16, -8});
    const double tol = SWT_TOL * 0x1.3f4d04p+50;
    /* The axis passes 6.2212 from the triangle (numerically); the box is
     * 0.11 around it. */
    for (int order = 0; order < 2; ++order) {
        const sw_distance_result d = order ? sw_distance(&poly, &box) : sw_distance(&box, &poly);
        assert_int_equal(d.status, SW_OK);
        assert_near(6.2212, d.distance, 2 * tol);
        const sw_vec3 on_poly = order ? d.point_a : d.point_b;
        assert_true(sw_max_abs(on_poly) <= 32 + 2 * tol);
    }
}

static void invalid_input(void** state)
{
    (void)state;
    const sw_sphere ok = {V(0, 0, 0), 1}, neg = {V(0, 0, 0), -1};
    const sw_segment nan_s = {V(0, 0, NAN), V(1, 0, 0)};
    const sw_capsule inf_c = {V(0, 0, 0), V(INFINITY, 0, 0), 1};
    const sw_overlap_result o1 = sw_overlap_sphere_sphere(&ok, &neg);
    assert_int_equal(o1.status, SW_INVALID_INPUT);
    assert_false(o1.overlapping);
    assert_handler_called();
    swt_reset_asserts();
    const sw_overlap_result o2 = sw_overlap_segment_sphere(&nan_s, &ok);
    assert_int_equal(o2.status, SW_INVALID_INPUT);
    assert_handler_called();
    swt_reset_asserts();
    const sw_distance_result d1 = sw_distance_capsule_capsule(&inf_c, &inf_c);
    assert_int_equal(d1.status, SW_INVALID_INPUT);
    assert_near(0, d1.distance, 0);
    assert_handler_called();
    swt_reset_asserts();
    const sw_distance_result d2 = sw_distance_point_segment(V(NAN, 0, 0), &nan_s);
    assert_int_equal(d2.status, SW_INVALID_INPUT);
    assert_handler_called();
}

/* Fuzz finding 35 (README), an oracle bug: a capsule whose axis ends on a
 * one-sided 12-vertex polygon in the plane y = z, exactly on the diagonal
 * from v0 to v6 of the polygon's fan, 2.2 inside its nearest edge. The
 * oracle's fan test lost the point to rounding in both triangles and
 * measured it from that edge. The library's answer is right: the axis end
 * (-6, -6, -6) is a point of both, and the capsule separates by its radius
 * along the face normal on its side. */
static void overlap_capsule_ending_on_a_polygon_fan_diagonal(void** state)
{
    (void)state;
    const sw_vec3 v[12] = {
        V(-10, -10, -10),
        V(-0x1.da9066p+3, -0x1.7a9066p+3, -0x1.7a9066p+3),
        V(-0x1.106ba4p+4, -0x1.7a9066p+3, -0x1.7a9066p+3),
        V(-16, -10, -10),
        V(-0x1.80d748p+3, -0x1.b520cep+2, -0x1.b520cep+2),
        V(-0x1.8adf32p+2, -0x1.95be66p+1, -0x1.95be66p+1),
        V(0x1.45bce2p-61, 0x1.282014p-62, 0x1.282014p-62),
        V(0x1.3520cep+2, 0x1.d48334p+0, 0x1.d48334p+0),
        V(0x1.c1ae9p+2, 0x1.d48334p+0, 0x1.d48334p+0),
        V(6, -0x1p-60, -0x1p-60),
        V(0x1.035d2p+1, -0x1.95be66p+1, -0x1.95be66p+1),
        V(-0x1.ea419ap+1, -0x1.b520cep+2, -0x1.b520cep+2),
    };
    const sw_polygon pg = {.v = v, .count = 12, .one_sided = true};
    const sw_capsule cap = {V(-6, -6, -6), V(-6, -6, -5), 5};
    const sw_overlap_result o = sw_overlap_capsule_polygon(&cap, &pg);
    const double tol = SWT_TOL * 17;
    assert_true(o.overlapping);
    assert_unit(o.normal);
    assert_near(5, o.depth, 2 * tol);
    assert_vec_near(V(0, -sqrt(0.5), sqrt(0.5)), o.normal, 1e-3);
    /* The point is in the plane y = z, inside every edge (the nearest is
     * 2.2 away), and within the capsule. */
    assert_near(o.point.y, o.point.z, 2 * tol);
    for (int i = 0; i < 12; ++i) {
        const sw_vec3 a = v[i], b = v[(i + 1) % 12];
        /* The polygon winds counter-clockwise about its normal (0, 1, -1). */
        const sw_vec3 side = sw_cross(sw_sub(b, a), sw_sub(o.point, a));
        assert_true(sw_dot(side, V(0, sqrt(0.5), -sqrt(0.5))) >= -2 * tol * sw_length(sw_sub(b, a)));
    }
    const sw_segment axis = {cap.a, cap.b};
    const sw_vec3 q = sw_closest_point_segment(o.point, &axis, NULL);
    assert_true(sw_length(sw_sub(o.point, q)) <= (double)cap.radius + 2 * tol);
}

/* Fuzz finding 37 (README): a 12-vertex polygon 40 across crossed by a
 * triangle 3.5e14 long and 82 wide at its near end (its edge (0,16,-16) -
 * (1,-64,0) passes through the polygon at (0.1926, 0.5926, -12.9185)).
 * The triangle's Newell normal, from long double cross products of edges
 * 3.5e14 long that cancel to 3e16, was tilted by 1.5e-8 rad: its plane
 * missed the near vertices by 5e6, the separating axes took that face
 * for a separating one, and the distance came out 4.9e6 with both points
 * 2.3e6 off the shapes. */
static void regression_distance_polygon_crossed_by_needle_triangle(void** state)
{
    (void)state;
    const sw_vec3 v[12] = {
        V(0, 0x1.999999999999ap-2, -16),
        V(-8, -0x1.e666666666666p+2, -0x1.5db3d742c2655p+4),
        V(-0x1.bb67ae8584caap+3, -0x1.ae9ae1b8b7fdep+3, -0x1.5db3d742c2655p+4),
        V(-16, -0x1.f333333333333p+3, -16),
        V(-0x1.bb67ae8584caap+3, -0x1.ae9ae1b8b7fdep+3, -0x1.76cf5d0b09955p+2),
        V(-8, -0x1.e666666666666p+2, 0x1.76cf5d0b09955p+2),
        V(0x1.d9cceba3f91f2p-61, 0x1.999999999999ap-2, 16),
        V(8, 0x1.0cccccccccccdp+3, 0x1.5db3d742c2655p+4),
        V(0x1.bb67ae8584caap+3, 0x1.c8347b5251977p+3, 0x1.5db3d742c2655p+4),
        V(16, 0x1.0666666666666p+4, 16),
        V(0x1.bb67ae8584caap+3, 0x1.c8347b5251977p+3, 0x1.76cf5d0b09955p+2),
        V(8, 0x1.0cccccccccccdp+3, -0x1.76cf5d0b09955p+2),
    };
    const sw_shape poly = sw_make_polygon(v, 12, false);
    const sw_shape tri = sw_make_triangle(V(-0x1.9211c55ccp+46, -0x1.9211c55ccp+46, -0x1.281858273p+48), V(0, 16, -16),
                                          V(1, -64, 0), false);
    const double tol = SWT_TOL * 0x1.281858273p+48;
    for (int order = 0; order < 2; ++order) {
        const sw_distance_result d = order ? sw_distance(&tri, &poly) : sw_distance(&poly, &tri);
        assert_int_equal(d.status, SW_OK);
        assert_true((double)d.distance <= 2 * tol);
        /* A common point, within the polygon's bounds (|x|, |z| <= 21.9). */
        assert_true((double)sw_length(sw_sub(d.point_a, d.point_b)) <= 2 * tol);
        for (int k = 0; k < 2; ++k) {
            const sw_vec3 p = k ? d.point_b : d.point_a;
            assert_true(fabs((double)p.x) <= 22 + 2 * tol && fabs((double)p.y) <= 22 + 2 * tol &&
                        fabs((double)p.z) <= 22 + 2 * tol);
        }
    }
}

/* Fuzz finding 45 (README): a triangle 100 across, 1.3e13 from the centre
 * of a ball of radius 3.3e13 (float's feature tolerance, 3.3e8, dwarfs the
 * triangle). The overlap's normal came from loosely named features, 0.1
 * rad off the direction from the centre: moved out by the depth along it,
 * the triangle was still 4.6e10 inside (tol 3.3e8). The gap's own
 * direction, the shorter push, is the normal. */
static void regression_overlap_tiny_triangle_deep_in_a_huge_ball(void** state)
{
    (void)state;
    const sw_vec3 v[3] = {V(-0x1.e8p+6, -0x1p+7, -0x1.ep+5), V(-0x1.06p+7, -0x1.a80306p+6, 0x1.e1c28p+4),
                          V(-0x1.06p+7, -0x1.2bfe7cp+7, 0x1.de3d8p+4)};
    const sw_shape poly = sw_make_polygon(v, 3, true);
    const sw_vec3 c = V(-0x1.8p+3, -0x1.7d7e36p+43, 0x1.952014p+40);
    const double radius = 0x1.dcbff6p+44;
    const sw_shape ball = sw_make_sphere(c, (sw_real)radius);
    const double tol = SWT_TOL * radius;
    for (int order = 0; order < 2; ++order) {
        sw_overlap_result r = order ? sw_overlap(&ball, &poly) : sw_overlap(&poly, &ball);
        assert_int_equal(r.status, SW_OK);
        assert_true(r.overlapping);
        const sw_vec3 n = order ? sw_neg(r.normal) : r.normal; /* moves the triangle out */
        for (int i = 0; i < 3; ++i) {
            /* The vertex moved out by the depth clears the ball, and the
             * normal is the direction from the centre (within 1e-3 rad). */
            const double moved[3] = {(double)v[i].x + (double)r.depth * n.x - c.x,
                                     (double)v[i].y + (double)r.depth * n.y - c.y,
                                     (double)v[i].z + (double)r.depth * n.z - c.z};
            assert_true(sqrt(moved[0] * moved[0] + moved[1] * moved[1] + moved[2] * moved[2]) >= radius - 2 * tol);
            const double out[3] = {(double)v[i].x - c.x, (double)v[i].y - c.y, (double)v[i].z - c.z};
            const double len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
            assert_true((out[0] * n.x + out[1] * n.y + out[2] * n.z) / len >= cos(1e-3));
        }
    }
}

/* Fuzz finding 40 (README): a flat box (half extents 0, 3.9e13, 10) 5.63
 * from a 12-vertex polygon (checked in 60 digits). GJK stalls on it from
 * either side, at points on the shapes: 15.05 with the box first (within
 * tol, 39), 7.1e6 with the polygon first, which was returned uncertified.
 * Both are attained, so the smaller is kept. */
static void regression_distance_flat_needle_box_polygon_both_orders(void** state)
{
    (void)state;
    const sw_vec3 v[12] = {
        V(-0x1.f3b645a1cac08p-4, -0x1.ep+3, 1),
        V(-0x1.76c8b43958106p-3, -0x1.d4498517a7b35p+3, -0x1.c8930a2f4f66bp+2),
        V(-0x1.d23cd630c5ec2p-3, -0x1.d4498517a7b35p+3, -0x1.ab67ae8584caap+3),
        V(-0x1.f3b645a1cac08p-3, -0x1.ep+3, -16),
        V(-0x1.d23cd630c5ec2p-3, -0x1.f4498517a7b35p+3, -0x1.cb67ae8584caap+3),
        V(-0x1.76c8b43958106p-3, -0x1.05db3d742c265p+4, -0x1.1bb67ae8584cbp+3),
        V(-0x1.f3b645a1cac08p-4, -0x1.1p+4, -1),
        V(-0x1.f3b645a1cac08p-5, -0x1.15db3d742c265p+4, 0x1.c8930a2f4f66bp+2),
        V(-0x1.0bcb7b8826a33p-6, -0x1.15db3d742c265p+4, 0x1.ab67ae8584caap+3),
        V(0, -0x1.1p+4, 16),
        V(-0x1.0bcb7b8826a33p-6, -0x1.05db3d742c265p+4, 0x1.cb67ae8584caap+3),
        V(-0x1.f3b645a1cac08p-5, -0x1.f4498517a7b35p+3, 0x1.1bb67ae8584cbp+3),
    };
    const sw_shape poly = sw_make_polygon(v, 12, false);
    const sw_shape box = sw_make_box(V(-0x1p-10, -0x1.0624dd2f1a9fcp-10, -0x1.0624dd2f1a9fcp-10),
                                     V(0, 0x1.1ae3a4b6p+45, 10), (sw_quat){10, 10, 10, 1});
    const double tol = SWT_TOL * 0x1.1ae3a4b6p+45;
    for (int order = 0; order < 2; ++order) {
        const sw_distance_result d = order ? sw_distance(&poly, &box) : sw_distance(&box, &poly);
        assert_int_equal(d.status, SW_OK);
        assert_true(fabs((double)d.distance - 5.633677158868045) <= 2 * tol);
        assert_near((double)d.distance, (double)sw_length(sw_sub(d.point_a, d.point_b)), 2 * tol);
    }
}

/* A segment crossing a triangle 1e7 long and 17 wide given as 32
 * vertices, its first two one ulp apart (fuzz finding 48, double): the
 * crossing was refused by the line of that edge, 2e-9 long, whose
 * direction is rounding and which cut the polygon 3 inside at the
 * crossing, and the distance to the nearest edge, 1.098, reported. */
static void regression_distance_segment_across_a_polygon_with_an_ulp_edge(void** state)
{
    (void)state;
    sw_vec3 v[32];
    v[0] = V(0x1.5p-1, 0x1.312dp+23, 0);
    v[1] = V(0x1.5000000000001p-1, 0x1.312d000000001p+23, 0);
    v[2] = V(0x1.5000000000002p-1, 1, 0);
    for (int i = 3; i < 32; ++i) {
        v[i] = V(-16, -16, -16);
    }
    const sw_polygon p = {.v = v, .count = 32, .one_sided = false};
    const sw_capsule c = {V(-0x1.dcp+0, 0, -119), V(-119, 0, 1e7), 0};
    const sw_distance_result d = sw_distance_capsule_polygon(&c, &p);
    assert_int_equal(d.status, SW_OK);
    assert_true((double)d.distance <= 2 * SWT_TOL * 1e7);
}

/* Differential engine, seed 53 (distance:triangle:polygon case 1082): a
 * polygon whose third edge is 0.004 long (tol 0.81) points across the
 * rest, so the reference, which took the polygon as the meet of its
 * edges' half-planes, put a point of the triangle's crossing 1.43 outside
 * it. A polygon convex within tol is its vertices' hull (DESIGN.md 2; the
 * library's fan, sw_point_in_polygon, covers the same), so the reference
 * now takes the hull where an edge's line leaves the point out. */
static void reference_polygon_with_a_short_edge_is_its_hull(void** state)
{
    (void)state;
    const sw_vec3 v[4] = {V(-1809.51343, -2932.84644, -81397.6484), V(-1811.71375, -2929.86108, -81394.5703),
                          V(-1828.02234, -2928.39307, -81407.9375), V(-1828.02612, -2928.39404, -81407.9375)};
    const sw_shape poly = sw_make_polygon(v, 4, false);
    ref_shape rp;
    assert_true(ref_from_shape(&poly, &rp));
    /* Near the plane, inside edges 0, 1 and 3, and 2.88 beyond the short
     * edge's line: on the polygon (the half-planes said 1.43 off it). */
    assert_true(ref_point_sdist(&rp, rv(-1816.27478L, -2930.47241L, -81400.1016L)) < 0.01L);
    /* 1 beyond the middle of the long edge 1, in the plane: 1 off it. */
    assert_near(1.0, (double)ref_point_sdist(&rp, rv(-1820.3310L, -2928.5066L, -81400.6209L)), 0.01);
#ifndef SWEEP_DOUBLE /* in double the polygon is not planar within tol */
    const sw_shape tri =
        sw_make_triangle(V(-1817.39294, -2932.03442, -81398.7969), V(-1814.30298, -2927.71777, -81402.3984),
                         V(-1826.26086, -2929.8689, -81404.8828), true);
    const sw_distance_result d = sw_distance(&tri, &poly);
    assert_int_equal(d.status, SW_OK);
    assert_near(0, d.distance, 0);
    assert_true(ref_point_sdist(&rp, rv_of(d.point_b)) < SWT_TOL * 81408);
#endif
}

/* Fuzz finding 48: a triangle 16 across and a polygon 2.7e11 long and 28
 * wide touching it at a vertex. GJK stalled at 14.1 in one order (0 in the
 * other); two flat shapes are now measured edge by edge, the same both
 * ways. */
static void regression_distance_triangle_touching_a_needle_polygon(void** state)
{
    (void)state;
    const sw_shape tri = sw_make_triangle(V(0, 0, 0), V(-16, -0x1.6838d4f56dc0dp-32, 0), V(0, 1, 0), false);
    const sw_vec3 v[3] = {V(-16, 2, -268000000000.0),
                          V(0x1.1bb67ae8584cbp+3, -0x1.ab67ae8584caap+3, 0x1.f3305bbf224c3p+36),
                          V(0x1.c8930a2f4f66bp+2, 0x1.cb67ae8584caap+3, 0x1.f3305bc0ddb3dp+36)};
    const sw_shape poly = sw_make_polygon(v, 3, false);
    const sw_distance_result ab = sw_distance(&tri, &poly), ba = sw_distance(&poly, &tri);
    assert_int_equal(ab.status, SW_OK);
    assert_int_equal(ba.status, SW_OK);
    const double tol = 2 * SWT_TOL * 2.68e11;
    assert_true((double)ab.distance <= tol);
    assert_true((double)ba.distance <= tol);
    assert_true(fabs((double)ab.distance - (double)ba.distance) <= tol);
}

/* Fuzz finding 50: a one-sided triangle 1e11 long beside a box (rotated a
 * third of a turn about its diagonal, which swaps its axes). The
 * triangle's vertex (0, -8, -0.009) is closest, 6.88 from the box's face
 * y = -1.12. GJK stalled at 15.1 in one order; a flat shape and a box are
 * now measured edge by edge, the same both ways. */
static void regression_distance_long_triangle_beside_a_box(void** state)
{
    (void)state;
    const sw_shape tri = sw_make_triangle(V(0, -8, -0x1.26e978d4fdf3bp-7), V(-16, -16, 0x1.0624dd2f1a9fcp-8),
                                          V(-16, -16, -0x1.74876e8p+36), true);
    const sw_shape box =
        sw_make_box(V(-0x1.4cccccccccccdp+1, -0x1.eb851eb851eb8p-4, 1), V(1, 16, 16), (sw_quat){-16, -16, -16, -16});
    const sw_distance_result ab = sw_distance(&tri, &box), ba = sw_distance(&box, &tri);
    assert_int_equal(ab.status, SW_OK);
    assert_int_equal(ba.status, SW_OK);
    const double tol = 2 * SWT_TOL * 16;
    assert_true(fabs((double)ab.distance - 6.88) <= tol);
    assert_true(fabs((double)ba.distance - 6.88) <= tol);
    assert_true(fabs((double)ab.point_a.y + 8) <= tol && fabs((double)ab.point_b.y + 1.12) <= tol);
}

/* Fuzz finding 52: a capsule 7e10 long (radius 16) whose near end lies
 * 14.1 from a flat box, across the box's edge (10 off in x and in z). A
 * separating axis that separated the cores by only 10 replaced the
 * distance's normal, keeping the depth 16 - 14.1: moved by it, A was
 * still 0.49 inside. */
static void regression_overlap_very_long_capsule_beside_a_flat_box(void** state)
{
    (void)state;
    const sw_capsule a = {V(-1, 0x1.02e85d7p+36, -16), V(-10, -4, -16), 16};
    const sw_box b = {V(0, -5, 0), V(4, 6, 0), {-16, -16, -16, -16}};
    const double tol = 2 * SWT_TOL * 6.95e10, depth = 16 - sqrt(200.0);
    const sw_overlap_result o = sw_overlap_capsule_box(&a, &b);
    assert_true(o.overlapping);
    assert_true(fabs((double)o.depth - depth) <= tol);
    assert_true(fabs((double)o.normal.x + sqrt(0.5)) <= 1e-3 && fabs((double)o.normal.z + sqrt(0.5)) <= 1e-3);
    const sw_hit h = sw_sweep_capsule_box(&a, V(4, 0.5, 0), &b, NULL);
    assert_true(h.hit && h.overlapping);
    assert_true(fabs((double)h.depth - depth) <= tol);
    assert_true(fabs((double)h.normal.x + sqrt(0.5)) <= 1e-3 && fabs((double)h.normal.z + sqrt(0.5)) <= 1e-3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(closest_point_on_segment),
        swt_test(closest_points_between_segments),
        swt_test(regression_segment_sphere_squared_vs_unsquared),
        swt_test(regression_segment_sphere_reversed_comparison),
        swt_test(regression_segment_sphere_zero_length),
        swt_test(sphere_pairs),
        swt_test(capsule_pairs),
        swt_test(regression_overlap_normal_unit_far_from_origin),
        swt_test(regression_overlap_nearly_collinear_cores),
        swt_test(regression_distance_touching_reports_common_point),
        swt_test(regression_distance_thin_triangle_vertex),
        swt_test(regression_distance_long_triangle_crossed),
        swt_test(regression_distance_box_huge_polygon_parallel_edges),
        swt_test(regression_overlap_nearly_parallel_long_segments),
        swt_test(regression_overlap_sphere_long_triangle_depth),
        swt_test(regression_overlap_capsule_thin_box_normal),
        swt_test(regression_distance_box_thin_polygon_point),
        swt_test(regression_distance_needle_box_triangle),
        swt_test(overlap_capsule_ending_on_a_polygon_fan_diagonal),
        swt_test(regression_distance_polygon_crossed_by_needle_triangle),
        swt_test(regression_distance_flat_needle_box_polygon_both_orders),
        swt_test(regression_overlap_tiny_triangle_deep_in_a_huge_ball),
        swt_test(regression_distance_segment_across_a_polygon_with_an_ulp_edge),
        swt_test(reference_polygon_with_a_short_edge_is_its_hull),
        swt_test(regression_distance_triangle_touching_a_needle_polygon),
        swt_test(regression_distance_long_triangle_beside_a_box),
        swt_test(regression_overlap_very_long_capsule_beside_a_flat_box),
        swt_test(invalid_input),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
