/* Math helpers, the quadratic solver and the validity predicates (with
 * floating-point traps on: NaN input must not trap). */
#include <float.h>
#include <math.h>

#include "cmocka_support.h"

static void quadratic_two_roots(void** state)
{
    (void)state;
    /* (t - 1)(t - 3) = t^2 - 4t + 3 */
    sw_real t0 = -1, t1 = -1;
    assert_int_equal(sw_solve_quadratic(1, -4, 3, &t0, &t1), 2);
    assert_near(1, t0, 4 * SW_EPSILON);
    assert_near(3, t1, 4 * SW_EPSILON);
    /* Negative leading coefficient: roots still ascending. */
    assert_int_equal(sw_solve_quadratic(-2, 8, -6, &t0, &t1), 2);
    assert_near(1, t0, 4 * SW_EPSILON);
    assert_near(3, t1, 4 * SW_EPSILON);
}

static void quadratic_double_and_no_root(void** state)
{
    (void)state;
    sw_real t0 = -1, t1 = -1;
    /* (t - 2)^2 */
    assert_int_equal(sw_solve_quadratic(1, -4, 4, &t0, &t1), 2);
    assert_near(2, t0, 0);
    assert_near(2, t1, 0);
    assert_int_equal(sw_solve_quadratic(1, 0, 1, &t0, &t1), 0);
    /* b = c = 0: the double root 0, no division by q = 0. */
    assert_int_equal(sw_solve_quadratic(3, 0, 0, &t0, &t1), 2);
    assert_near(0, t0, 0);
    assert_near(0, t1, 0);
}

static void quadratic_degenerate(void** state)
{
    (void)state;
    sw_real t0 = -1, t1 = -1;
    /* a = 0: linear 2t - 3 = 0. */
    assert_int_equal(sw_solve_quadratic(0, 2, -3, &t0, &t1), 1);
    assert_near(1.5, t0, 0);
    /* a = b = 0: no isolated root, with or without c. */
    assert_int_equal(sw_solve_quadratic(0, 0, 1, &t0, &t1), 0);
    assert_int_equal(sw_solve_quadratic(0, 0, 0, &t0, &t1), 0);
}

/* The textbook formula (-b + sqrt(b^2 - 4ac)) / 2a loses every digit of
 * the small root when b^2 >> 4ac; the stable form keeps them. */
static void quadratic_small_root_no_cancellation(void** state)
{
    (void)state;
    /* t^2 - 1e4 t + 1 = 0: roots 1e-4 (1 + 1e-8 ...) and ~1e4. */
    sw_real t0 = 0, t1 = 0;
    assert_int_equal(sw_solve_quadratic(1, -1e4f, 1, &t0, &t1), 2);
    assert_near(1.00000001e-4, t0, 1e-4 * 8 * SW_EPSILON);
    assert_near(9999.9999, t1, 1e4 * 8 * SW_EPSILON);
}

static void vectors(void** state)
{
    (void)state;
    const sw_vec3 a = V(1, 2, 3), b = V(-2, 0.5, 4);
    assert_near(1 * -2 + 2 * 0.5 + 3 * 4, sw_dot(a, b), 0);
    assert_vec_near(V(2 * 4 - 3 * 0.5, 3 * -2 - 1 * 4, 1 * 0.5 - 2 * -2), sw_cross(a, b), 0);
    assert_vec_near(V(1 - 2 * 2, 2 + 0.5 * 2, 3 + 4 * 2), sw_madd(a, 2, b), 0);
    assert_vec_near(V(-0.5, 1.25, 3.5), sw_lerp(a, b, 0.5f), 0);
    assert_near(3, sw_max_abs(V(-3, 2, 1)), 0);
}

static void normalize_returns_length_and_leaves_zero(void** state)
{
    (void)state;
    sw_vec3 v = V(3, 0, 4);
    assert_near(5, sw_normalize(&v), 4 * SW_EPSILON);
    assert_vec_near(V(0.6, 0, 0.8), v, 4 * SW_EPSILON);
    sw_vec3 z = V(0, 0, 0);
    assert_near(0, sw_normalize(&z), 0);
    assert_vec_near(V(0, 0, 0), z, 0);
}

static void perpendicular_is_unit_and_orthogonal(void** state)
{
    (void)state;
    const sw_vec3 dirs[] = {V(1, 0, 0), V(0, 1, 0), V(0, 0, 1), V(0.6, 0.8, 0), V(-0.48, 0.6, 0.64)};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; ++i) {
        const sw_vec3 p = sw_any_perpendicular(dirs[i]);
        assert_unit(p);
        assert_near(0, sw_dot(p, dirs[i]), 8 * SW_EPSILON);
    }
}

static void quaternion_rotation(void** state)
{
    (void)state;
    /* 90 degrees about z: x -> y. Unnormalised input is normalised. */
    sw_quat q = {0, 0, 2 * sqrt(0.5), 2 * sqrt(0.5)};
    assert_near(2, sw_quat_normalize(&q), 8 * SW_EPSILON);
    assert_vec_near(V(0, 1, 0), sw_quat_rotate(q, V(1, 0, 0)), 8 * SW_EPSILON);
    assert_vec_near(V(1, 0, 0), sw_quat_inv_rotate(q, V(0, 1, 0)), 8 * SW_EPSILON);
    sw_quat zero = {0, 0, 0, 0};
    assert_near(0, sw_quat_normalize(&zero), 0);
    const sw_xform x = {q, V(1, 2, 3)};
    const sw_vec3 p = sw_xform_point(x, V(1, 0, 0));
    assert_vec_near(V(1, 3, 3), p, 8 * SW_EPSILON);
    assert_vec_near(V(1, 0, 0), sw_xform_point(sw_xform_inverse(x), p), 16 * SW_EPSILON);
}

/* ---- validity: NaN, infinity, range, signs; traps stay on -------------- */

static void valid_reals(void** state)
{
    (void)state;
    assert_true(sw_is_valid_real(0));
    assert_true(sw_is_valid_real(-0.0f));
    assert_true(sw_is_valid_real(SW_MAX_COORD));
    assert_true(sw_is_valid_real(-SW_MAX_COORD));
    assert_false(sw_is_valid_real((sw_real)NAN));
    assert_false(sw_is_valid_real((sw_real)INFINITY));
    assert_false(sw_is_valid_real((sw_real)-INFINITY));
    assert_false(sw_is_valid_real(SW_MAX_COORD * 2));
    assert_false(sw_is_valid_vec3(V(0, NAN, 0)));
    assert_true(sw_is_valid_vec3(V(1, -2, 3)));
}

static void valid_shapes(void** state)
{
    (void)state;
    const sw_sphere good = {V(1, 2, 3), 1}, zero_r = {V(0, 0, 0), 0};
    const sw_sphere neg = {V(0, 0, 0), -1}, nan_r = {V(0, 0, 0), NAN}, inf_c = {V(INFINITY, 0, 0), 1};
    assert_true(sw_is_valid_sphere(&good));
    assert_true(sw_is_valid_sphere(&zero_r));
    assert_false(sw_is_valid_sphere(&neg));
    assert_false(sw_is_valid_sphere(&nan_r));
    assert_false(sw_is_valid_sphere(&inf_c));
    assert_false(sw_is_valid_sphere(NULL));
    const sw_capsule cap = {V(0, 0, 0), V(0, 0, 0), 0}, cap_bad = {V(0, 0, 0), V(1, 0, 0), -0.5f};
    assert_true(sw_is_valid_capsule(&cap));
    assert_false(sw_is_valid_capsule(&cap_bad));
    const sw_segment seg = {V(1, 1, 1), V(1, 1, 1)}, seg_far = {V(0, 0, 0), V(SW_MAX_COORD * 4, 0, 0)};
    assert_true(sw_is_valid_segment(&seg));
    assert_false(sw_is_valid_segment(&seg_far));
    const sw_box box = {V(0, 0, 0), V(1, 0, 2), {0, 0, 0, 5}};
    const sw_box zero_q = {V(0, 0, 0), V(1, 1, 1), {0, 0, 0, 0}};
    const sw_box nan_q = {V(0, 0, 0), V(1, 1, 1), {0, NAN, 0, 1}};
    const sw_box neg_h = {V(0, 0, 0), V(1, -1, 1), {0, 0, 0, 1}};
    const sw_box tiny_q = {V(0, 0, 0), V(1, 1, 1), {0, 0, 0, SW_EPSILON * SW_EPSILON}};
    assert_true(sw_is_valid_box(&box));
    assert_false(sw_is_valid_box(&zero_q));
    assert_false(sw_is_valid_box(&nan_q));
    assert_false(sw_is_valid_box(&neg_h));
    /* A tiny quaternion is only normalised, not rejected. */
    assert_true(sw_is_valid_box(&tiny_q));
}

static void valid_rays_and_options(void** state)
{
    (void)state;
    const sw_ray ok = {V(0, 0, 0), V(0, 0, 0), 0}, neg_max = {V(0, 0, 0), V(1, 0, 0), -1};
    const sw_ray nan_dir = {V(0, 0, 0), V(NAN, 0, 0), 1};
    const sw_ray reach = {V(0, 0, 0), V(SW_MAX_COORD, 0, 0), 4};
    assert_true(sw_is_valid_ray(&ok));
    assert_false(sw_is_valid_ray(&neg_max));
    assert_false(sw_is_valid_ray(&nan_dir));
    /* max * dir beyond SW_MAX_COORD is rejected, not overflowed. */
    assert_false(sw_is_valid_ray(&reach));
    /* A tiny dir is valid, and testing it raises no exception (the tests
     * trap on overflow: SW_MAX_COORD / |dir| overflowed once). */
#ifdef SWEEP_DOUBLE
    const sw_ray tiny = {V(0, 0, 0), V(1e-300, 0, 0), 1e150};
#else
    const sw_ray tiny = {V(0, 0, 0), V(1e-25f, 0, 0), 1e18f};
#endif
    assert_true(sw_is_valid_ray(&tiny));
    const sw_sweep_options zero = {0}, skin = {0.5f, true}, neg = {-1, false}, nan_skin = {NAN, false};
    assert_true(sw_is_valid_sweep_options(&zero));
    assert_true(sw_is_valid_sweep_options(&skin));
    assert_false(sw_is_valid_sweep_options(&neg));
    assert_false(sw_is_valid_sweep_options(&nan_skin));
}

static void invalid_reasons_and_names(void** state)
{
    (void)state;
    const sw_shape bad = sw_make_sphere(V(0, 0, 0), -1), good = sw_make_capsule(V(0, 0, 0), V(1, 0, 0), 1);
    assert_non_null(sw_shape_invalid_reason(&bad));
    assert_null(sw_shape_invalid_reason(&good));
    assert_non_null(sw_shape_invalid_reason(NULL));
    assert_string_equal("sphere", sw_shape_type_name(SW_SHAPE_SPHERE));
    assert_string_equal("?", sw_shape_type_name(SW_SHAPE_TYPE_COUNT));
    assert_string_equal("ok", sw_status_name(SW_OK));
    assert_string_equal("invalid input", sw_status_name(SW_INVALID_INPUT));
    assert_string_equal("unsupported", sw_status_name(SW_UNSUPPORTED));
    assert_string_equal("none", sw_feature_kind_name(SW_FEATURE_NONE));
    assert_string_equal("face", sw_feature_kind_name(SW_FEATURE_FACE));
    assert_string_equal("?", sw_feature_kind_name((sw_feature_kind)4));
    assert_string_equal(SW_PRECISION_NAME, sw_precision());
    assert_string_equal(SW_VERSION_STRING, sw_version());
}

static void bounds_and_support(void** state)
{
    (void)state;
    const sw_shape cap = sw_make_capsule(V(0, 0, 0), V(2, 0, 0), 1);
    const sw_aabb b = sw_shape_bounds(&cap);
    assert_vec_near(V(-1, -1, -1), b.min, 0);
    assert_vec_near(V(3, 1, 1), b.max, 0);
    assert_vec_near(V(3, 0, 0), sw_shape_support(&cap, V(5, 0, 0)), 4 * SW_EPSILON);
    assert_vec_near(V(0, 1, 0), sw_shape_support(&cap, V(-0.0f, 2, 0)), 4 * SW_EPSILON);
    /* Box rotated 90 degrees about z: half (2, 1, 1) becomes x-extent 1. */
    const sw_quat q = {0, 0, (sw_real)sqrt(0.5), (sw_real)sqrt(0.5)};
    const sw_shape box = sw_make_box(V(10, 0, 0), V(2, 1, 1), q);
    const sw_aabb bb = sw_shape_bounds(&box);
    assert_vec_near(V(9, -2, -1), bb.min, 16 * SW_EPSILON * 10);
    assert_vec_near(V(11, 2, 1), bb.max, 16 * SW_EPSILON * 10);
    const sw_vec3 s = sw_shape_support(&box, V(1, 1, 1));
    assert_vec_near(V(11, 2, 1), s, 16 * SW_EPSILON * 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(quadratic_two_roots),
        swt_test(quadratic_double_and_no_root),
        swt_test(quadratic_degenerate),
        swt_test(quadratic_small_root_no_cancellation),
        swt_test(vectors),
        swt_test(normalize_returns_length_and_leaves_zero),
        swt_test(perpendicular_is_unit_and_orthogonal),
        swt_test(quaternion_rotation),
        swt_test(valid_reals),
        swt_test(valid_shapes),
        swt_test(valid_rays_and_options),
        swt_test(invalid_reasons_and_names),
        swt_test(bounds_and_support),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
