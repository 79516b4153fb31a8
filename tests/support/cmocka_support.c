/* cmocka assertions with both values printed. */
#include "cmocka_support.h"

#include <math.h>

int swt_setup(void** state)
{
    (void)state;
    swt_trap_fp();
    swt_install_assert_recorder();
    return 0;
}

void swt_check_near(double expected, double got, double tol, const char* expr, const char* file, int line)
{
    if (!(fabs(got - expected) <= tol)) {
        print_error("%s: expected %.9g, got %.9g, tol %.3g\n", expr, expected, got, tol);
        _fail(file, line);
    }
}

void swt_check_vec_near(sw_vec3 expected, sw_vec3 got, double tol, const char* expr, const char* file, int line)
{
    const double e[3] = {expected.x, expected.y, expected.z};
    const double g[3] = {got.x, got.y, got.z};
    for (int k = 0; k < 3; ++k) {
        if (!(fabs(g[k] - e[k]) <= tol)) {
            print_error("%s: expected (%.9g, %.9g, %.9g), got (%.9g, %.9g, %.9g), tol %.3g\n", expr, e[0], e[1], e[2],
                        g[0], g[1], g[2], tol);
            _fail(file, line);
        }
    }
}

void swt_check_unit(sw_vec3 v, const char* expr, const char* file, int line)
{
    const double len = sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
    if (!(fabs(len - 1) <= SWT_TOL)) {
        print_error("%s: expected a unit vector, got (%.9g, %.9g, %.9g) of length %.9g, tol %.3g\n", expr, (double)v.x,
                    (double)v.y, (double)v.z, len, SWT_TOL);
        _fail(file, line);
    }
}

static bool hit_fields_zero(sw_hit h)
{
    return !h.hit && !h.overlapping && h.t == 0 && h.depth == 0 && h.point.x == 0 && h.point.y == 0 && h.point.z == 0 &&
           h.normal.x == 0 && h.normal.y == 0 && h.normal.z == 0 && h.feature.kind == SW_FEATURE_NONE &&
           h.feature.index == 0;
}

void swt_check_zero_hit(sw_hit h, sw_status status, const char* expr, const char* file, int line)
{
    if (h.status != status || !hit_fields_zero(h)) {
        print_error("%s: expected status \"%s\" with every field zero, got status \"%s\" hit=%d overlapping=%d "
                    "t=%.9g depth=%.9g point=(%.9g, %.9g, %.9g) normal=(%.9g, %.9g, %.9g) feature=%d/%d\n",
                    expr, sw_status_name(status), sw_status_name(h.status), h.hit, h.overlapping, (double)h.t,
                    (double)h.depth, (double)h.point.x, (double)h.point.y, (double)h.point.z, (double)h.normal.x,
                    (double)h.normal.y, (double)h.normal.z, (int)h.feature.kind, h.feature.index);
        _fail(file, line);
    }
}

void swt_check_asserts(int expected_min, const char* expr, const char* file, int line)
{
    if (!SWT_LIBRARY_ASSERTS) {
        return;
    }
    const int n = swt_asserts();
    if (expected_min > 0 ? n < expected_min : n != 0) {
        print_error("%s: expected %s%d call(s), got %d (last: \"%s\")\n", expr, expected_min > 0 ? ">= " : "",
                    expected_min, n, swt_last_assert());
        _fail(file, line);
    }
}

void swt_check_invalid_hit(sw_hit h, const char* expr, const char* file, int line)
{
    swt_check_zero_hit(h, SW_INVALID_INPUT, expr, file, line);
    swt_check_asserts(1, expr, file, line);
    swt_reset_asserts();
}
