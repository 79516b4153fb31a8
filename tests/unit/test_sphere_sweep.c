/* Ray casts and sphere sweeps against spheres and points: hand-worked
 * tables (each run forwards, reversed, and far from the origin), DESIGN §6
 * seed regressions, options (skin, ignore_separating) and invalid input. */
#include <math.h>

#include "cmocka_support.h"

/* A contact expected on the x axis (reversed runs mirror x). */
typedef struct expect {
    bool hit, overlapping;
    double t, depth;
    double px, py; /* point */
    double nx, ny; /* normal */
} expect;

typedef struct ray_case {
    const char* name;
    double ox, oy, dir, max;
    expect e;
} ray_case;

/* Unit sphere at the origin; rays along +x. */
static const ray_case ray_table[] = {
    {"before", -5, 0, 1, 2, {false}},
    {"ends_on_surface", -3, 0, 1, 2, {true, false, 2, 0, -1, 0, -1, 0}},
    {"entering", -3, 0, 1, 2.5, {true, false, 2, 0, -1, 0, -1, 0}},
    {"through", -3, 0, 1, 6, {true, false, 2, 0, -1, 0, -1, 0}},
    {"starting_inside", -0.5, 0, 1, 1, {true, true, 0, 0.5, -0.5, 0, -1, 0}},
    {"starting_on_surface", -1, 0, 1, 1, {true, true, 0, 0, -1, 0, -1, 0}},
    {"exiting", 0.5, 0, 1, 2, {true, true, 0, 0.5, 0.5, 0, 1, 0}},
    {"beyond", 3, 0, 1, 2, {false}},
    {"sphere_behind_origin", 3, 0, 1, 100, {false}},
    {"tangent_touch_counts", -3, 1, 1, 6, {true, false, 3, 0, 0, 1, 0, 1}},
    {"just_past_tangent", -3, 1.001, 1, 6, {false}},
    {"zero_length_outside", -3, 0, 1, 0, {false}},
    {"zero_length_inside", -0.5, 0, 1, 0, {true, true, 0, 0.5, -0.5, 0, -1, 0}},
    {"zero_direction", -3, 0, 0, 5, {false}},
    {"non_unit_direction", -3, 0, 2, 3, {true, false, 1, 0, -1, 0, -1, 0}},
};

static const double offsets[2][3] = {{0, 0, 0}, {1000, -2000, 500}};

static void check_hit(sw_hit h, const expect* e, double sign, const double off[3], double scale, const char* name)
{
    const double tol = SWT_TOL * scale;
    if (h.status != SW_OK || h.hit != e->hit) {
        print_error("case %s (%s): status %d hit %d, expected hit %d\n", name, sign > 0 ? "forwards" : "reversed",
                    (int)h.status, h.hit, e->hit);
        fail();
    }
    if (!e->hit) {
        assert_miss(h);
        return;
    }
    assert_int_equal(h.overlapping, e->overlapping);
    assert_near(e->t, h.t, tol);
    assert_near(e->depth, h.depth, tol);
    assert_vec_near(V(off[0] + sign * e->px, off[1] + e->py, off[2]), h.point, tol);
    assert_vec_near(V(sign * e->nx, e->ny, 0), h.normal, SWT_TOL);
    assert_unit(h.normal);
    assert_int_equal(h.feature.kind, SW_FEATURE_NONE);
}

static void ray_sphere_table(void** state)
{
    (void)state;
    for (size_t i = 0; i < sizeof ray_table / sizeof ray_table[0]; ++i) {
        const ray_case* c = &ray_table[i];
        for (int o = 0; o < 2; ++o) {
            for (int s = 0; s < 2; ++s) {
                const double sign = s ? -1 : 1, *off = offsets[o];
                const sw_ray ray = {V(off[0] + sign * c->ox, off[1] + c->oy, off[2]), V(sign * c->dir, 0, 0),
                                    (sw_real)c->max};
                const sw_sphere b = {V(off[0], off[1], off[2]), 1};
                const double scale = fmax(fmax(fabs(off[1]), fabs(off[0]) + fabs(c->ox)), c->max * c->dir);
                check_hit(sw_raycast_sphere(&ray, &b), &c->e, sign, off, fmax(scale, 1), c->name);
                const sw_shape bs = sw_make_sphere(b.center, b.radius);
                check_hit(sw_raycast(&ray, &bs), &c->e, sign, off, fmax(scale, 1), c->name);
            }
        }
    }
}

/* Seed bug: the ray-sphere test used a strict < so a tangent ray missed. */
static void regression_ray_tangent_touch_is_a_hit(void** state)
{
    (void)state;
    const sw_ray ray = {V(-3, 2, 0), V(1, 0, 0), 10};
    const sw_sphere b = {V(0, 0, 0), 2};
    const sw_hit h = sw_raycast_sphere(&ray, &b);
    assert_true(h.hit);
    assert_near(3, h.t, SWT_TOL * 10);
    assert_vec_near(V(0, 1, 0), h.normal, SWT_TOL);
}

/* Seed bug: the ray-sphere test assumed a unit direction; t must be in
 * units of dir. */
static void regression_ray_non_unit_direction(void** state)
{
    (void)state;
    const sw_ray ray = {V(-10, 0, 0), V(4, 0, 0), 5};
    const sw_sphere b = {V(0, 0, 0), 2};
    const sw_hit h = sw_raycast_sphere(&ray, &b);
    assert_true(h.hit);
    assert_near(2, h.t, SWT_TOL * 20);
    assert_vec_near(V(-2, 0, 0), h.point, SWT_TOL * 20);
}

/* Seed bug: a sphere behind the origin was reported at a negative t. */
static void regression_ray_sphere_behind_origin_misses(void** state)
{
    (void)state;
    const sw_ray ray = {V(10, 0, 0), V(1, 0, 0), 100};
    const sw_sphere b = {V(0, 0, 0), 2};
    assert_miss(sw_raycast_sphere(&ray, &b));
}

typedef struct sweep_case {
    const char* name;
    double ax, ay, ra, dx, dy;
    expect e;
} sweep_case;

/* B: radius 1 at the origin; A moves along x (dy for sliding cases). */
static const sweep_case sweep_table[] = {
    {"before", -5, 0, 0.5, 2, 0, {false}},
    {"contact", -5, 0, 0.5, 10, 0, {true, false, 0.35, 0, -1, 0, -1, 0}},
    {"contact_at_end", -5, 0, 0.5, 3.5, 0, {true, false, 1, 0, -1, 0, -1, 0}},
    {"starting_inside", -1, 0, 0.5, 2, 0, {true, true, 0, 0.5, -0.5, 0, -1, 0}},
    {"starting_touching", -1.5, 0, 0.5, 2, 0, {true, true, 0, 0, -1, 0, -1, 0}},
    {"grazing_touch_counts", -5, 1.5, 0.5, 10, 0, {true, false, 0.5, 0, 0, 1, 0, 1}},
    {"just_past_grazing", -5, 1.5001, 0.5, 10, 0, {false}},
    {"moving_away", 3, 0, 0.5, 5, 0, {false}},
    {"zero_displacement_outside", -3, 0, 0.5, 0, 0, {false}},
    {"zero_displacement_inside", -1, 0, 0.5, 0, 0, {true, true, 0, 0.5, -0.5, 0, -1, 0}},
    {"zero_radius_is_a_ray", -5, 0, 0, 10, 0, {true, false, 0.4, 0, -1, 0, -1, 0}},
};

static void sphere_sweep_table(void** state)
{
    (void)state;
    for (size_t i = 0; i < sizeof sweep_table / sizeof sweep_table[0]; ++i) {
        const sweep_case* c = &sweep_table[i];
        for (int o = 0; o < 2; ++o) {
            for (int s = 0; s < 2; ++s) {
                const double sign = s ? -1 : 1, *off = offsets[o];
                const sw_sphere a = {V(off[0] + sign * c->ax, off[1] + c->ay, off[2]), (sw_real)c->ra};
                const sw_sphere b = {V(off[0], off[1], off[2]), 1};
                const sw_vec3 d = V(sign * c->dx, c->dy, 0);
                const double scale = fmax(fmax(fabs(off[0]) + fabs(c->ax), fabs(off[1])), fmax(fabs(c->dx), 1));
                check_hit(sw_sweep_sphere_sphere(&a, d, &b, NULL), &c->e, sign, off, scale, c->name);
                const sw_shape sa = sw_make_sphere(a.center, a.radius), sb = sw_make_sphere(b.center, b.radius);
                check_hit(sw_sweep(&sa, d, &sb, NULL), &c->e, sign, off, scale, c->name);
            }
        }
    }
}

static void coincident_centres_use_the_documented_fallback(void** state)
{
    (void)state;
    const sw_sphere a = {V(4, 5, 6), 0.5f}, b = {V(4, 5, 6), 1};
    sw_hit h = sw_sweep_sphere_sphere(&a, V(2, 0, 0), &b, NULL);
    assert_true(h.hit && h.overlapping);
    assert_near(1.5, h.depth, SWT_TOL * 10);
    assert_vec_near(V(-1, 0, 0), h.normal, SWT_TOL); /* -d */
    h = sw_sweep_sphere_sphere(&a, V(0, 0, 0), &b, NULL);
    assert_vec_near(V(0, 0, 1), h.normal, SWT_TOL); /* +z when d = 0 */
}

/* Seed bug: the sphere-point sweep's constant term used pt.pt instead of
 * P.P with P = pt - centre, which is only right for a sphere at the
 * origin; a sphere far from the origin shows it. */
static void regression_sphere_point_far_from_origin(void** state)
{
    (void)state;
    const sw_sphere a = {V(1000, 20, -30), 1};
    const sw_hit h = sw_sweep_sphere_point(&a, V(-10, 0, 0), V(995, 20, -30), NULL);
    assert_true(h.hit);
    assert_false(h.overlapping);
    assert_near(0.4, h.t, SWT_TOL * 1000);
    assert_vec_near(V(995, 20, -30), h.point, SWT_TOL * 1000);
    assert_vec_near(V(1, 0, 0), h.normal, SWT_TOL);
}

/* Seed bug: the initial-overlap branch returned "true" with no time,
 * point, normal or depth. */
static void regression_sphere_point_initial_overlap_fills_every_field(void** state)
{
    (void)state;
    const sw_sphere a = {V(1000, 0, 0), 2};
    const sw_hit h = sw_sweep_sphere_point(&a, V(5, 0, 0), V(999, 0, 0), NULL);
    assert_true(h.hit && h.overlapping);
    assert_near(0, h.t, 0);
    assert_near(1, h.depth, SWT_TOL * 1000);
    assert_vec_near(V(1, 0, 0), h.normal, SWT_TOL);
    assert_vec_near(V(999, 0, 0), h.point, SWT_TOL * 1000);
}

static void moving_spheres_report_world_space_at_t(void** state)
{
    (void)state;
    const sw_sphere a = {V(-5, 0, 0), 0.5f}, b = {V(5, 0, 0), 1};
    const sw_hit h = sw_sweep_moving_spheres(&a, V(5, 0, 0), &b, V(-5, 0, 0), NULL);
    assert_true(h.hit);
    assert_near(0.85, h.t, SWT_TOL * 10);
    assert_vec_near(V(-0.25, 0, 0), h.point, SWT_TOL * 10);
    assert_vec_near(V(-1, 0, 0), h.normal, SWT_TOL);
}

/* skin: the contact comes when the gap is skin; the point is A's point
 * nearest B, at distance skin from B. */
static void skin_contact_and_start_within_skin(void** state)
{
    (void)state;
    const sw_sphere b = {V(0, 0, 0), 1};
    const sw_sweep_options o = {0.25f, false};
    const sw_sphere a = {V(-5, 0, 0), 0.5f};
    sw_hit h = sw_sweep_sphere_sphere(&a, V(10, 0, 0), &b, &o);
    assert_true(h.hit);
    assert_false(h.overlapping);
    assert_near(0.325, h.t, SWT_TOL * 10);
    assert_vec_near(V(-1.25, 0, 0), h.point, SWT_TOL * 10);
    assert_near(0, h.depth, 0);
    const sw_sphere near = {V(-1.6, 0, 0), 0.5f};
    h = sw_sweep_sphere_sphere(&near, V(1, 0, 0), &b, &o);
    assert_true(h.hit && h.overlapping);
    assert_near(0, h.t, 0);
    assert_near(0.15, h.depth, SWT_TOL * 10); /* skin - distance */
    assert_vec_near(V(-1, 0, 0), h.normal, SWT_TOL);
}

/* ignore_separating: a start within contact is no hit when d.n >= 0
 * (moving away, sliding, or d = 0) and changes nothing otherwise. */
static void ignore_separating_rule(void** state)
{
    (void)state;
    const sw_sphere b = {V(0, 0, 0), 1}, a = {V(-1.2, 0, 0), 0.5f};
    const sw_sweep_options o = {0, true};
    const sw_hit into = sw_sweep_sphere_sphere(&a, V(1, 0, 0), &b, &o);
    assert_true(into.hit && into.overlapping);
    assert_near(0.3, into.depth, SWT_TOL * 10);
    assert_miss(sw_sweep_sphere_sphere(&a, V(-1, 0, 0), &b, &o));
    assert_miss(sw_sweep_sphere_sphere(&a, V(0, 1, 0), &b, &o));
    assert_miss(sw_sweep_sphere_sphere(&a, V(0, 0, 0), &b, &o));
    /* Not in contact at the start: the flag changes nothing. */
    const sw_sphere far = {V(-5, 0, 0), 0.5f};
    const sw_hit h = sw_sweep_sphere_sphere(&far, V(10, 0, 0), &b, &o);
    assert_true(h.hit);
    assert_near(0.35, h.t, SWT_TOL * 10);
    /* With a skin, "in contact" means within the skin. */
    const sw_sweep_options os = {0.5f, true};
    const sw_sphere gap = {V(-1.8, 0, 0), 0.5f};
    assert_miss(sw_sweep_sphere_sphere(&gap, V(-1, 0, 0), &b, &os));
}

static bool hits_equal(sw_hit a, sw_hit b)
{
    return a.status == b.status && a.hit == b.hit && a.overlapping == b.overlapping && a.t == b.t &&
           a.depth == b.depth && a.point.x == b.point.x && a.point.y == b.point.y && a.point.z == b.point.z &&
           a.normal.x == b.normal.x && a.normal.y == b.normal.y && a.normal.z == b.normal.z &&
           a.feature.kind == b.feature.kind && a.feature.index == b.feature.index;
}

static void options_null_and_zeroed_are_identical(void** state)
{
    (void)state;
    const sw_sweep_options zero = {0};
    for (size_t i = 0; i < sizeof sweep_table / sizeof sweep_table[0]; ++i) {
        const sweep_case* c = &sweep_table[i];
        const sw_sphere a = {V(c->ax, c->ay, 0), (sw_real)c->ra}, b = {V(0, 0, 0), 1};
        const sw_hit h0 = sw_sweep_sphere_sphere(&a, V(c->dx, c->dy, 0), &b, NULL);
        const sw_hit h1 = sw_sweep_sphere_sphere(&a, V(c->dx, c->dy, 0), &b, &zero);
        assert_true(hits_equal(h0, h1));
    }
}

static void invalid_input_is_reported(void** state)
{
    (void)state;
    const sw_sphere ok = {V(0, 0, 0), 1}, nan_c = {V(NAN, 0, 0), 1}, neg = {V(0, 0, 0), -1};
    const sw_sphere inf_r = {V(0, 0, 0), INFINITY}, far = {V(SW_MAX_COORD * 2, 0, 0), 1};
    const sw_sweep_options neg_skin = {-0.5f, false}, nan_skin = {NAN, false};
    assert_invalid_hit(sw_sweep_sphere_sphere(&nan_c, V(1, 0, 0), &ok, NULL));
    assert_invalid_hit(sw_sweep_sphere_sphere(&ok, V(1, 0, 0), &neg, NULL));
    assert_invalid_hit(sw_sweep_sphere_sphere(&inf_r, V(1, 0, 0), &ok, NULL));
    assert_invalid_hit(sw_sweep_sphere_sphere(&far, V(1, 0, 0), &ok, NULL));
    assert_invalid_hit(sw_sweep_sphere_sphere(&ok, V(0, INFINITY, 0), &ok, NULL));
    assert_invalid_hit(sw_sweep_sphere_sphere(&ok, V(1, 0, 0), &ok, &neg_skin));
    assert_invalid_hit(sw_sweep_sphere_sphere(&ok, V(1, 0, 0), &ok, &nan_skin));
    assert_invalid_hit(sw_sweep_sphere_point(&ok, V(1, 0, 0), V(0, NAN, 0), NULL));
    assert_invalid_hit(sw_sweep_moving_spheres(&ok, V(1, 0, 0), &ok, V(NAN, 0, 0), NULL));
    const sw_ray neg_max = {V(0, 0, 0), V(1, 0, 0), -1}, nan_o = {V(NAN, 0, 0), V(1, 0, 0), 1};
    assert_invalid_hit(sw_raycast_sphere(&neg_max, &ok));
    assert_invalid_hit(sw_raycast_sphere(&nan_o, &ok));
    const sw_ray good = {V(0, 0, 0), V(1, 0, 0), 1};
    assert_invalid_hit(sw_raycast_sphere(&good, &neg));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(ray_sphere_table),
        swt_test(regression_ray_tangent_touch_is_a_hit),
        swt_test(regression_ray_non_unit_direction),
        swt_test(regression_ray_sphere_behind_origin_misses),
        swt_test(sphere_sweep_table),
        swt_test(coincident_centres_use_the_documented_fallback),
        swt_test(regression_sphere_point_far_from_origin),
        swt_test(regression_sphere_point_initial_overlap_fills_every_field),
        swt_test(moving_spheres_report_world_space_at_t),
        swt_test(skin_contact_and_start_within_skin),
        swt_test(ignore_separating_rule),
        swt_test(options_null_and_zeroed_are_identical),
        swt_test(invalid_input_is_reported),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
