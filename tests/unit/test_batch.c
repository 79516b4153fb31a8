/* Batches (sweep/batch.h): every field of every answer equals the single
 * call's bit for bit, on seeded random inputs of the hot pairs and on
 * adversarial ones (grazing, touching at t = 0, overlapping, zero d, zero
 * radius, huge and tiny coordinates, invalid lanes, mixed pairs, options),
 * for batch sizes on and off the block size. The comparison itself is
 * checked to catch one ulp, and a zero's sign, in each field. */
#include <math.h>
#include <string.h>

#include "cmocka_support.h"

#define MAX_N 1100

/* ---- bitwise comparison ---------------------------------------------------- */

/* The neighbouring sw_real of x toward `to`. */
static sw_real next_real(sw_real x, double to)
{
#ifdef SWEEP_DOUBLE
    return nextafter(x, to);
#else
    return nextafterf(x, (float)to);
#endif
}

static bool same_real(sw_real a, sw_real b) { return memcmp(&a, &b, sizeof a) == 0; }
static bool same_vec(sw_vec3 a, sw_vec3 b) { return same_real(a.x, b.x) && same_real(a.y, b.y) && same_real(a.z, b.z); }

/* The first field in which x and y differ, or NULL (fields, not the
 * padding between them). */
static const char* hit_difference(const sw_hit* x, const sw_hit* y)
{
    if (x->status != y->status) {
        return "status";
    }
    if (x->hit != y->hit) {
        return "hit";
    }
    if (x->overlapping != y->overlapping) {
        return "overlapping";
    }
    if (!same_real(x->t, y->t)) {
        return "t";
    }
    if (!same_real(x->depth, y->depth)) {
        return "depth";
    }
    if (!same_vec(x->point, y->point)) {
        return "point";
    }
    if (!same_vec(x->normal, y->normal)) {
        return "normal";
    }
    if (x->feature.kind != y->feature.kind || x->feature.index != y->feature.index) {
        return "feature";
    }
    if (x->triangle != y->triangle) {
        return "triangle";
    }
    return NULL;
}

static void expect_same(const sw_hit* batch, const sw_hit* single, int i, const char* what)
{
    const char* field = hit_difference(batch, single);
    if (field) {
        print_error("%s: lane %d differs in %s: batch hit %d t " SWT_REAL_FMT " n (" SWT_REAL_FMT ", " SWT_REAL_FMT
                    ", " SWT_REAL_FMT "), single hit %d t " SWT_REAL_FMT " n (" SWT_REAL_FMT ", " SWT_REAL_FMT
                    ", " SWT_REAL_FMT ")\n",
                    what, i, field, batch->hit, batch->t, batch->normal.x, batch->normal.y, batch->normal.z,
                    single->hit, single->t, single->normal.x, single->normal.y, single->normal.z);
        fail();
    }
}

/* ---- inputs ---------------------------------------------------------------- */

typedef struct lanes {
    sw_shape a[MAX_N], b[MAX_N];
    sw_vec3 d[MAX_N];
    sw_ray rays[MAX_N];
    sw_vec3 poly[MAX_N][4]; /* polygons' vertices */
    int n;
} lanes;

static lanes L;
static sw_hit batch_out[MAX_N], single_out[MAX_N];

static sw_real rnd(swt_rng* r, double lo, double hi) { return (sw_real)swt_rng_range(r, lo, hi); }
static sw_vec3 rnd_vec(swt_rng* r, double h) { return V(rnd(r, -h, h), rnd(r, -h, h), rnd(r, -h, h)); }
static sw_real rnd_radius(swt_rng* r) { return swt_rng_chance(r, 0.1) ? 0 : (sw_real)swt_rng_log_range(r, 0.01, 2); }

/* A shape of type t near c: the hot pairs' shapes and a few others. */
static sw_shape rnd_shape(swt_rng* r, sw_shape_type t, sw_vec3 c, int lane)
{
    switch (t) {
    case SW_SHAPE_POINT:
        return sw_make_point(c);
    case SW_SHAPE_SPHERE:
        return sw_make_sphere(c, rnd_radius(r));
    case SW_SHAPE_SEGMENT:
        return sw_make_segment(sw_add(c, rnd_vec(r, 1)), sw_add(c, rnd_vec(r, 1)));
    case SW_SHAPE_CAPSULE:
        return sw_make_capsule(sw_add(c, rnd_vec(r, 1)), sw_add(c, rnd_vec(r, 1)), rnd_radius(r));
    case SW_SHAPE_TRIANGLE:
        return sw_make_triangle(sw_add(c, rnd_vec(r, 2)), sw_add(c, rnd_vec(r, 2)), sw_add(c, rnd_vec(r, 2)),
                                swt_rng_chance(r, 0.3));
    case SW_SHAPE_BOX: {
        sw_quat q = {rnd(r, -1, 1), rnd(r, -1, 1), rnd(r, -1, 1), rnd(r, 0.1, 1)};
        return sw_make_box(c, V(rnd(r, 0, 2), rnd(r, 0.1, 2), rnd(r, 0.1, 2)), q);
    }
    case SW_SHAPE_PLANE:
        return sw_make_plane(rnd_vec(r, 1), rnd(r, -3, 3));
    case SW_SHAPE_POLYGON:
    default: {
        /* A square in a random plane through c. */
        const sw_vec3 u = rnd_vec(r, 1);
        const sw_vec3 w = sw_cross(u, rnd_vec(r, 1));
        L.poly[lane][0] = sw_add(c, u);
        L.poly[lane][1] = sw_add(c, w);
        L.poly[lane][2] = sw_sub(c, u);
        L.poly[lane][3] = sw_sub(c, w);
        return sw_make_polygon(L.poly[lane], 4, swt_rng_chance(r, 0.3));
    }
    }
}

/* n lanes of random pairs of the types ta, tb (a negative type: any of
 * the batch's hot types), A aimed at B with jitter so that about half hit,
 * at scale `scale` around `offset`. */
static void fill_random(swt_rng* r, int n, int ta, int tb, double scale, double offset)
{
    static const sw_shape_type movers[] = {SW_SHAPE_SPHERE, SW_SHAPE_POINT, SW_SHAPE_CAPSULE, SW_SHAPE_SEGMENT,
                                           SW_SHAPE_BOX};
    static const sw_shape_type statics[] = {SW_SHAPE_SPHERE, SW_SHAPE_POINT, SW_SHAPE_CAPSULE, SW_SHAPE_TRIANGLE,
                                            SW_SHAPE_BOX,    SW_SHAPE_PLANE, SW_SHAPE_POLYGON, SW_SHAPE_SEGMENT};
    L.n = n;
    for (int i = 0; i < n; ++i) {
        const sw_shape_type a = ta >= 0 ? (sw_shape_type)ta : movers[swt_rng_int(r, 5)];
        const sw_shape_type b = tb >= 0 ? (sw_shape_type)tb : statics[swt_rng_int(r, 8)];
        const sw_vec3 o = V(offset, -offset, offset);
        const sw_vec3 ca = sw_add(o, rnd_vec(r, 5)), cb = sw_add(o, rnd_vec(r, 5));
        L.a[i] = rnd_shape(r, a, ca, i);
        L.b[i] = rnd_shape(r, b, cb, i);
        L.d[i] = sw_add(sw_scale(sw_sub(cb, ca), rnd(r, 0, 2)), rnd_vec(r, 1.5));
        if (swt_rng_chance(r, 0.05)) {
            L.d[i] = V(0, 0, 0);
        }
        if (scale != 1) {
            /* Scaled about the offset: every coordinate, radius and d. */
            L.a[i] = sw_make_sphere(sw_add(o, sw_scale(sw_sub(ca, o), (sw_real)scale)),
                                    (sw_real)(scale * L.a[i].sphere.radius));
            L.b[i] = sw_make_sphere(sw_add(o, sw_scale(sw_sub(cb, o), (sw_real)scale)),
                                    (sw_real)(scale * L.b[i].sphere.radius));
            L.d[i] = sw_scale(L.d[i], (sw_real)scale);
        }
        L.rays[i] = (sw_ray){ca, sw_scale(L.d[i], rnd(r, 0.1, 3)), rnd(r, 0, 2)};
    }
}

/* The batch against the single calls, lane by lane, and the same number
 * of assert reports. */
static void check_sweeps(int n, const sw_sweep_options* opt, const char* what)
{
    swt_reset_asserts();
    for (int i = 0; i < n; ++i) {
        single_out[i] = sw_sweep(&L.a[i], L.d[i], &L.b[i], opt);
    }
    const int reports = swt_asserts();
    swt_reset_asserts();
    memset(batch_out, 0x5a, sizeof batch_out);
    assert_int_equal(sw_sweep_batch(L.a, L.d, L.b, n, opt, batch_out), 0);
    assert_int_equal(swt_asserts(), reports);
    for (int i = 0; i < n; ++i) {
        expect_same(&batch_out[i], &single_out[i], i, what);
    }
}

static void check_rays(int n, const char* what)
{
    swt_reset_asserts();
    for (int i = 0; i < n; ++i) {
        single_out[i] = sw_raycast(&L.rays[i], &L.b[i]);
    }
    const int reports = swt_asserts();
    swt_reset_asserts();
    memset(batch_out, 0x5a, sizeof batch_out);
    assert_int_equal(sw_raycast_batch(L.rays, L.b, n, batch_out), 0);
    assert_int_equal(swt_asserts(), reports);
    for (int i = 0; i < n; ++i) {
        expect_same(&batch_out[i], &single_out[i], i, what);
    }
}

static const sw_sweep_options option_sets[] = {{0, false}, {SW_R(0.25), false}, {0, true}, {SW_R(0.1), true}};

/* Every option set (and NULL) over the lanes in L. */
static void check_all_options(int n, const char* what)
{
    check_sweeps(n, NULL, what);
    for (size_t k = 0; k < sizeof option_sets / sizeof option_sets[0]; ++k) {
        check_sweeps(n, &option_sets[k], what);
    }
}

/* ---- tests ----------------------------------------------------------------- */

/* The comparison catches one ulp, or a zero's sign, in each field: a
 * deliberately broken lane cannot pass. */
static void comparison_catches_a_broken_lane(void** state)
{
    (void)state;
    const sw_shape a = sw_make_sphere(V(0, 0, 0), 0.5f), b = sw_make_sphere(V(5, 0.25, 0), 1);
    const sw_hit good = sw_sweep(&a, V(10, 0, 0), &b, NULL);
    assert_true(good.hit && good.t > 0);
    assert_null(hit_difference(&good, &good));
    sw_hit bad = good;
    bad.t = next_real(good.t, 1);
    assert_string_equal(hit_difference(&bad, &good), "t");
    bad = good;
    bad.normal.y = next_real(good.normal.y, 1);
    assert_string_equal(hit_difference(&bad, &good), "normal");
    bad = good;
    bad.point.z = -good.point.z; /* 0 against -0 */
    assert_true(good.point.z == 0);
    assert_string_equal(hit_difference(&bad, &good), "point");
    bad = good;
    bad.depth = -good.depth;
    assert_string_equal(hit_difference(&bad, &good), "depth");
    bad = good;
    bad.feature.index = 1;
    assert_string_equal(hit_difference(&bad, &good), "feature");
    bad = good;
    bad.triangle = 2;
    assert_string_equal(hit_difference(&bad, &good), "triangle");
    bad = good;
    bad.overlapping = true;
    assert_string_equal(hit_difference(&bad, &good), "overlapping");
}

/* Random pairs of each vectorised type, n on and off the block size. */
static void random_ball_pairs(void** state)
{
    (void)state;
    static const int sizes[] = {1, 15, 16, 17, 33, 1000, 1037};
    static const int types[][2] = {{SW_SHAPE_SPHERE, SW_SHAPE_SPHERE},
                                   {SW_SHAPE_POINT, SW_SHAPE_SPHERE},
                                   {SW_SHAPE_SPHERE, SW_SHAPE_POINT},
                                   {SW_SHAPE_POINT, SW_SHAPE_POINT}};
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str("batch random ball pairs"));
    int hits = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k) {
            fill_random(&r, sizes[s], types[k][0], types[k][1], 1, 0);
            check_all_options(sizes[s], "random ball pairs");
            check_rays(sizes[s], "random rays");
            for (int i = 0; i < sizes[s]; ++i) {
                hits += batch_out[i].hit;
            }
        }
    }
    assert_true(hits > 100);
}

/* The other hot pairs (capsules, triangles one- and two-sided, boxes) and
 * every other pair, mixed in one batch with the ball pairs. */
static void mixed_pairs(void** state)
{
    (void)state;
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str("batch mixed pairs"));
    for (int rep = 0; rep < 3; ++rep) {
        fill_random(&r, 1000 + rep, -1, -1, 1, 0);
        check_all_options(L.n, "mixed pairs");
        check_rays(L.n, "mixed rays");
    }
    static const int types[][2] = {{SW_SHAPE_SPHERE, SW_SHAPE_TRIANGLE},
                                   {SW_SHAPE_CAPSULE, SW_SHAPE_CAPSULE},
                                   {SW_SHAPE_BOX, SW_SHAPE_BOX},
                                   {SW_SHAPE_SPHERE, SW_SHAPE_BOX},
                                   {SW_SHAPE_CAPSULE, SW_SHAPE_TRIANGLE}};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k) {
        fill_random(&r, 200, types[k][0], types[k][1], 1, 0);
        check_all_options(L.n, "hot pair");
        check_rays(L.n, "hot pair rays");
    }
}

/* Huge and tiny scales, far from the origin. */
static void huge_and_tiny(void** state)
{
    (void)state;
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str("batch scales"));
#ifdef SWEEP_DOUBLE
    static const double scales[][2] = {{1e-30, 0}, {1e-9, 1}, {1e12, 0}, {1e20, 1e25}, {1e28, 0}, {1e140, 1e140}};
#else
    static const double scales[][2] = {{1e-30, 0}, {1e-9, 1}, {1e6, 0}, {1e12, 1e15}, {1e16, 1e17}};
#endif
    for (size_t k = 0; k < sizeof scales / sizeof scales[0]; ++k) {
        fill_random(&r, 300, SW_SHAPE_SPHERE, SW_SHAPE_SPHERE, scales[k][0], scales[k][1]);
        check_all_options(L.n, "scaled spheres");
        /* The rays' scale in max, then in dir. */
        for (int i = 0; i < L.n; ++i) {
            L.rays[i] = (sw_ray){L.a[i].sphere.center, sw_scale(L.d[i], (sw_real)(1 / scales[k][0])),
                                 (sw_real)(scales[k][0] * (i % 3))};
        }
        check_rays(L.n, "scaled rays");
        for (int i = 0; i < L.n; ++i) {
            L.rays[i] = (sw_ray){L.a[i].sphere.center, L.d[i], (sw_real)(i % 3)};
        }
        check_rays(L.n, "scaled ray directions");
    }
}

/* Grazing, touching at t = 0, overlapping, coincident centres, zero d,
 * zero radius: each with the neighbouring floats of its critical
 * coordinate. */
static void adversarial_ball_pairs(void** state)
{
    (void)state;
    int n = 0;
    for (int k = -3; k <= 3; ++k) {
        /* Grazing: B's centre off A's path by exactly the reach (1.5). */
        sw_real y = 1.5f;
        for (int s = 0; s < (k < 0 ? -k : k); ++s) {
            y = next_real(y, k < 0 ? 0 : 2);
        }
        L.a[n] = sw_make_sphere(V(0, 0, 0), 0.5f);
        L.b[n] = sw_make_sphere(V(5, y, 0), 1);
        L.d[n++] = V(10, 0, 0);
        /* Touching at t = 0 along x, and along a diagonal. */
        L.a[n] = sw_make_sphere(V(0, 0, 0), 0.5f);
        L.b[n] = sw_make_sphere(V(y, 0, 0), 1);
        L.d[n++] = V(k, 1, 0);
        L.a[n] = sw_make_sphere(V(1, 2, 3), 1);
        L.b[n] = sw_make_sphere(V(1 + y * 0.6f, 2 + y * 0.8f, 3), 0.5f);
        L.d[n++] = V(-1, -k, 0);
        /* Reaching B exactly at t = 1. */
        L.a[n] = sw_make_sphere(V(0, 0, 0), 0.5f);
        L.b[n] = sw_make_sphere(V(4 + y, 0, 0), 1);
        L.d[n++] = V(4, 0, 0);
    }
    /* Overlapping, coincident centres (d zero or not), zero radii. */
    L.a[n] = sw_make_sphere(V(1, 1, 1), 2);
    L.b[n] = sw_make_sphere(V(1.5, 1, 1), 1);
    L.d[n++] = V(1, 0, 0);
    L.a[n] = sw_make_sphere(V(1, 1, 1), 1);
    L.b[n] = sw_make_sphere(V(1, 1, 1), 1);
    L.d[n++] = V(0, 0, 0);
    L.a[n] = sw_make_sphere(V(1, 1, 1), 1);
    L.b[n] = sw_make_point(V(1, 1, 1));
    L.d[n++] = V(0, 3, 0);
    L.a[n] = sw_make_sphere(V(0, 0, 0), 0);
    L.b[n] = sw_make_sphere(V(3, 0, 0), 0);
    L.d[n++] = V(6, 0, 0);
    L.a[n] = sw_make_point(V(0, 0, 0));
    L.b[n] = sw_make_sphere(V(3, 0, 0), 0);
    L.d[n++] = V(6, 0, 0);
    L.a[n] = sw_make_point(V(-0.0, 0, 0));
    L.b[n] = sw_make_sphere(V(3, 0, 0), 1);
    L.d[n++] = V(-6, 0, 0);
    L.a[n] = sw_make_sphere(V(0, 0, 0), 1);
    L.b[n] = sw_make_sphere(V(3, 0, 0), 1);
    L.d[n++] = V(0, 0, 0);
    for (int i = 0; i < n; ++i) {
        L.rays[i] = (sw_ray){L.a[i].sphere.center, L.d[i], 1};
    }
    check_all_options(n, "adversarial");
    check_rays(n, "adversarial rays");
}

/* Invalid lanes (NaN, infinities, negative radius, out of range, a plane
 * or mesh as A, bad rays) mixed among valid ones: the single call's error
 * hit in each, the same reports, the neighbours unharmed. Bad options
 * make every lane invalid. */
static void invalid_lanes_and_options(void** state)
{
    (void)state;
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str("batch invalid"));
    fill_random(&r, 100, SW_SHAPE_SPHERE, SW_SHAPE_SPHERE, 1, 0);
    const sw_real nan = (sw_real)NAN, inf = (sw_real)INFINITY;
    L.a[3].sphere.center.y = nan;
    L.b[7].sphere.radius = -1;
    L.b[8].sphere.radius = -0.0f;
    L.d[11] = V(0, inf, 0);
    L.a[17] = sw_make_point(V(2 * (double)SW_MAX_COORD, 0, 0));
    L.a[20] = sw_make_plane(V(0, 0, 1), 0);
    L.b[21] = sw_make_point(V(0, -inf, 0));
    L.a[30].sphere.radius = nan;
    L.rays[40].max = -1;
    L.rays[41].dir = V(nan, 0, 0);
    L.rays[42] = (sw_ray){V(0, 0, 0), V(SW_MAX_COORD, 0, 0), 2};
    L.rays[43] = (sw_ray){V(0, 0, 0), V(SW_MAX_COORD, 0, 0), 1};
    check_all_options(L.n, "invalid lanes");
    check_rays(L.n, "invalid rays");
    assert_int_equal(batch_out[41].status, SW_INVALID_INPUT);
    const sw_sweep_options bad = {-1, false};
    check_sweeps(L.n, &bad, "bad options");
    assert_int_equal(batch_out[0].status, SW_INVALID_INPUT);
}

/* Bad arguments: -1 and a report, nothing written; n = 0 answers nothing. */
static void bad_arguments(void** state)
{
    (void)state;
    sw_hit h = {0};
    h.t = 7;
    swt_reset_asserts();
    assert_int_equal(sw_sweep_batch(L.a, L.d, L.b, -1, NULL, &h), -1);
    assert_handler_called();
    assert_int_equal(sw_sweep_batch(NULL, L.d, L.b, 1, NULL, &h), -1);
    assert_int_equal(sw_sweep_batch(L.a, NULL, L.b, 1, NULL, &h), -1);
    assert_int_equal(sw_sweep_batch(L.a, L.d, NULL, 1, NULL, &h), -1);
    assert_int_equal(sw_sweep_batch(L.a, L.d, L.b, 1, NULL, NULL), -1);
    assert_int_equal(sw_raycast_batch(L.rays, L.b, -5, &h), -1);
    assert_int_equal(sw_raycast_batch(NULL, L.b, 1, &h), -1);
    assert_int_equal(sw_raycast_batch(L.rays, NULL, 1, &h), -1);
    assert_int_equal(sw_raycast_batch(L.rays, L.b, 1, NULL), -1);
    assert_true(h.t == 7);
    swt_reset_asserts();
    assert_int_equal(sw_sweep_batch(NULL, NULL, NULL, 0, NULL, NULL), 0);
    assert_int_equal(sw_raycast_batch(NULL, NULL, 0, NULL), 0);
    assert_handler_not_called();
}

/* Pairs the vector kernel does not take, moved to just short of, onto
 * and just past their contact (d along the closest points, scaled by
 * 1 - 1e-4, 1, 1 + 1e-4; some pushed sideways): the batch's cheap miss
 * test (each shape's bounding ball, the balls' closest approach) must
 * never cull a lane the single call hits, whichever feature touches. */
static void culled_misses_near_contact(void** state)
{
    (void)state;
    static const sw_shape_type movers[] = {SW_SHAPE_CAPSULE, SW_SHAPE_SEGMENT, SW_SHAPE_BOX, SW_SHAPE_SPHERE,
                                           SW_SHAPE_POINT};
    static const sw_shape_type statics[] = {SW_SHAPE_CAPSULE, SW_SHAPE_TRIANGLE, SW_SHAPE_BOX, SW_SHAPE_SEGMENT};
    static const double scales[] = {1 - 1e-4, 1, 1 + 1e-4};
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str("batch culled misses"));
    int n = 0, hits = 0;
    while (n < MAX_N) {
        const sw_shape_type ta = movers[swt_rng_int(&r, 5)], tb = statics[swt_rng_int(&r, 4)];
        const sw_shape a = rnd_shape(&r, ta, rnd_vec(&r, 5), n), b = rnd_shape(&r, tb, rnd_vec(&r, 5), n);
        const sw_distance_result dist = sw_distance(&a, &b);
        if (dist.status != SW_OK || !(dist.distance > 0)) {
            continue;
        }
        const sw_vec3 gap = sw_sub(dist.point_b, dist.point_a);
        const sw_vec3 side = swt_rng_chance(&r, 0.5) ? V(0, 0, 0) : sw_scale(rnd_vec(&r, 1), dist.distance);
        for (size_t k = 0; k < 3 && n < MAX_N; ++k, ++n) {
            L.a[n] = a;
            L.b[n] = b;
            L.d[n] = sw_add(sw_scale(gap, (sw_real)scales[k]), side);
            L.rays[n] = (sw_ray){dist.point_a, L.d[n], 1};
        }
    }
    L.n = n;
    check_all_options(n, "near contact");
    for (int i = 0; i < n; ++i) {
        hits += batch_out[i].hit;
    }
    assert_true(hits > n / 4); /* the cases do reach their contacts */
    check_rays(n, "rays near contact");
    hits = 0;
    for (int i = 0; i < n; ++i) {
        hits += batch_out[i].hit;
    }
    assert_true(hits > n / 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(comparison_catches_a_broken_lane), swt_test(random_ball_pairs), swt_test(mixed_pairs),
        swt_test(culled_misses_near_contact),       swt_test(huge_and_tiny),     swt_test(adversarial_ball_pairs),
        swt_test(invalid_lanes_and_options),        swt_test(bad_arguments),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
