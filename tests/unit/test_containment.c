/* Containment sweeps: a sphere (or point) moving inside a sphere or a
 * (rotated) box, with the DESIGN §6 seed regressions. */
#include <math.h>

#include "cmocka_support.h"

static void inside_sphere_exit(void** state)
{
    (void)state;
    /* Room for A's centre: radius 3 - 1 = 2. */
    const sw_sphere b = {V(10, 20, 30), 3}, a = {V(10, 20, 30), 1};
    const double signs[2] = {1, -1};
    for (int s = 0; s < 2; ++s) {
        const sw_hit h = sw_sweep_sphere_inside_sphere(&a, V(3 * signs[s], 0, 0), &b);
        assert_true(h.hit);
        assert_false(h.overlapping);
        assert_near(2.0 / 3.0, h.t, SWT_TOL * 30);
        assert_vec_near(V(10 + 3 * signs[s], 20, 30), h.point, SWT_TOL * 30);
        assert_vec_near(V(-signs[s], 0, 0), h.normal, SWT_TOL);
        assert_near(0, h.depth, 0);
        assert_int_equal(h.feature.kind, SW_FEATURE_NONE);
    }
}

/* Seed bug: t was a distance (the velocity was normalised), not a fraction
 * of the move. */
static void regression_inside_sphere_t_is_a_fraction(void** state)
{
    (void)state;
    const sw_sphere b = {V(0, 0, 0), 3}, a = {V(0, 0, 0), 1};
    const sw_hit h = sw_sweep_sphere_inside_sphere(&a, V(0, 10, 0), &b);
    assert_true(h.hit);
    assert_near(0.2, h.t, SWT_TOL * 10);
}

/* Seed bug: a squared distance was compared with the unsquared radius
 * difference: 1.5^2 = 2.25 > 2 made a sphere well inside look outside. */
static void regression_inside_sphere_squared_vs_unsquared(void** state)
{
    (void)state;
    const sw_sphere b = {V(0, 0, 0), 3}, a = {V(1.5, 0, 0), 1};
    assert_miss(sw_sweep_sphere_inside_sphere(&a, V(0.25, 0, 0), &b));
    const sw_hit h = sw_sweep_sphere_inside_sphere(&a, V(1, 0, 0), &b);
    assert_true(h.hit);
    assert_false(h.overlapping);
    assert_near(0.5, h.t, SWT_TOL * 3);
}

/* Seed bug: a moving sphere larger than its container, or starting
 * outside it, was swept as if it fitted. */
static void regression_inside_sphere_too_big_or_outside(void** state)
{
    (void)state;
    const sw_sphere b = {V(0, 0, 0), 3};
    const sw_sphere big = {V(0, 0, 0), 5}, outside = {V(10, 0, 0), 1}, touching = {V(2, 0, 0), 1};
    const sw_sphere* starts[3] = {&big, &outside, &touching};
    for (int i = 0; i < 3; ++i) {
        const sw_hit h = sw_sweep_sphere_inside_sphere(starts[i], V(1, 0, 0), &b);
        assert_true(h.hit && h.overlapping);
        assert_near(0, h.t, 0);
        assert_unit(h.normal);
    }
}

static void inside_sphere_degenerate(void** state)
{
    (void)state;
    const sw_sphere b = {V(0, 0, 0), 3}, a = {V(0.5, 0, 0), 1}, point = {V(0, 0, 0), 0};
    assert_miss(sw_sweep_sphere_inside_sphere(&a, V(0, 0, 0), &b));
    const sw_hit h = sw_sweep_sphere_inside_sphere(&point, V(0, 0, 6), &b);
    assert_true(h.hit);
    assert_near(0.5, h.t, SWT_TOL * 6);
    assert_vec_near(V(0, 0, 3), h.point, SWT_TOL * 6);
}

static void inside_box_faces(void** state)
{
    (void)state;
    /* Faces 0..5: -x, +x, -y, +y, -z, +z. Room: half - r = (1, 2, 3). */
    const sw_box b = {V(0, 0, 0), V(2, 3, 4), {0, 0, 0, 1}};
    const sw_sphere a = {V(0, 0, 0), 1};
    const struct {
        double dx, dy, dz, t;
        int face;
    } table[] = {{2, 0, 0, 0.5, 1},   {-2, 0, 0, 0.5, 0}, {0, 4, 0, 0.5, 3},
                 {0, -8, 0, 0.25, 2}, {0, 0, 6, 0.5, 5},  {0, 0, -3, 1, 4}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        const sw_hit h = sw_sweep_sphere_inside_box(&a, V(table[i].dx, table[i].dy, table[i].dz), &b);
        assert_true(h.hit);
        assert_false(h.overlapping);
        assert_near(table[i].t, h.t, SWT_TOL * 8);
        assert_int_equal(h.feature.kind, SW_FEATURE_FACE);
        assert_int_equal(h.feature.index, table[i].face);
        const int axis = table[i].face / 2;
        const double inward = (table[i].face & 1) ? -1 : 1;
        assert_vec_near(V(axis == 0 ? inward : 0, axis == 1 ? inward : 0, axis == 2 ? inward : 0), h.normal, SWT_TOL);
    }
    assert_miss(sw_sweep_sphere_inside_box(&a, V(0.5, 1, 2), &b));
}

/* Box rotated 90 degrees about z: world +x is local -y (face 2). */
static void inside_rotated_box(void** state)
{
    (void)state;
    const sw_box b = {V(100, 0, 0), V(2, 3, 4), {0, 0, (sw_real)sqrt(0.5), (sw_real)sqrt(0.5)}};
    const sw_sphere a = {V(100, 0, 0), 1};
    const sw_hit h = sw_sweep_sphere_inside_box(&a, V(4, 0, 0), &b);
    assert_true(h.hit);
    assert_near(0.5, h.t, SWT_TOL * 100);
    assert_int_equal(h.feature.index, 2);
    assert_vec_near(V(-1, 0, 0), h.normal, SWT_TOL);
    assert_vec_near(V(103, 0, 0), h.point, SWT_TOL * 100);
}

/* Two faces reached at the same t: the lowest-numbered one. */
static void inside_box_corner_tie_reports_lowest_face(void** state)
{
    (void)state;
    const sw_box b = {V(0, 0, 0), V(2, 2, 2), {0, 0, 0, 1}};
    const sw_sphere a = {V(0, 0, 0), 1};
    const sw_hit h = sw_sweep_sphere_inside_box(&a, V(2, 2, 0), &b);
    assert_true(h.hit);
    assert_near(0.5, h.t, SWT_TOL * 2);
    assert_int_equal(h.feature.index, 1);
}

static void inside_box_not_inside(void** state)
{
    (void)state;
    const sw_box b = {V(0, 0, 0), V(2, 2, 2), {0, 0, 0, 1}};
    const sw_sphere big = {V(0, 0, 0), 3}, outside = {V(5, 0, 0), 1}, touching = {V(1, 0, 0), 1};
    const sw_sphere* starts[3] = {&big, &outside, &touching};
    for (int i = 0; i < 3; ++i) {
        const sw_hit h = sw_sweep_sphere_inside_box(starts[i], V(0, 1, 0), &b);
        assert_true(h.hit && h.overlapping);
        assert_near(0, h.t, 0);
        assert_unit(h.normal);
    }
}

static void inside_invalid_input(void** state)
{
    (void)state;
    const sw_sphere a = {V(0, 0, 0), 1}, nan_a = {V(0, NAN, 0), 1}, b = {V(0, 0, 0), 3};
    const sw_box zero_q = {V(0, 0, 0), V(2, 2, 2), {0, 0, 0, 0}}, neg = {V(0, 0, 0), V(2, -2, 2), {0, 0, 0, 1}};
    assert_invalid_hit(sw_sweep_sphere_inside_sphere(&nan_a, V(1, 0, 0), &b));
    assert_invalid_hit(sw_sweep_sphere_inside_sphere(&a, V(INFINITY, 0, 0), &b));
    assert_invalid_hit(sw_sweep_sphere_inside_box(&a, V(1, 0, 0), &zero_q));
    assert_invalid_hit(sw_sweep_sphere_inside_box(&a, V(1, 0, 0), &neg));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(inside_sphere_exit),
        swt_test(regression_inside_sphere_t_is_a_fraction),
        swt_test(regression_inside_sphere_squared_vs_unsquared),
        swt_test(regression_inside_sphere_too_big_or_outside),
        swt_test(inside_sphere_degenerate),
        swt_test(inside_box_faces),
        swt_test(inside_rotated_box),
        swt_test(inside_box_corner_tie_reports_lowest_face),
        swt_test(inside_box_not_inside),
        swt_test(inside_invalid_input),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
