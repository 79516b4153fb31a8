/* cmocka glue for the unit suites: a per-test setup that re-arms the
 * floating-point traps and the recording assert handler, and assertions
 * that print both values and the tolerance on failure. */
#ifndef SWEEP_TEST_CMOCKA_SUPPORT_H
#define SWEEP_TEST_CMOCKA_SUPPORT_H

// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "support.h"

/* Per-test setup: traps on, assert counter reset. */
int swt_setup(void** state);

#define swt_test(f) cmocka_unit_test_setup(f, swt_setup)

/* Runs a group with traps and the recording handler installed. */
#define SWT_MAIN(tests)                                                                                                \
    int main(void)                                                                                                     \
    {                                                                                                                  \
        swt_install_assert_recorder();                                                                                 \
        swt_trap_fp();                                                                                                 \
        return cmocka_run_group_tests(tests, NULL, NULL);                                                              \
    }

void swt_check_near(double expected, double got, double tol, const char* expr, const char* file, int line);
void swt_check_vec_near(sw_vec3 expected, sw_vec3 got, double tol, const char* expr, const char* file, int line);
void swt_check_unit(sw_vec3 v, const char* expr, const char* file, int line);
void swt_check_zero_hit(sw_hit h, sw_status status, const char* expr, const char* file, int line);
void swt_check_invalid_hit(sw_hit h, const char* expr, const char* file, int line);
void swt_check_asserts(int expected_min, const char* expr, const char* file, int line);

/* |got - expected| <= tol, printing "expected .., got .., tol ..". */
#define assert_near(expected, got, tol)                                                                                \
    swt_check_near((double)(expected), (double)(got), (double)(tol), #got, __FILE__, __LINE__)
/* Every component within tol. */
#define assert_vec_near(expected, got, tol)                                                                            \
    swt_check_vec_near((expected), (got), (double)(tol), #got, __FILE__, __LINE__)
/* | |v| - 1 | <= SW_TOLERANCE. */
#define assert_unit(v) swt_check_unit((v), #v, __FILE__, __LINE__)
/* A miss (status OK) with every field zero. */
#define assert_miss(h) swt_check_zero_hit((h), SW_OK, #h, __FILE__, __LINE__)
/* Status SW_UNSUPPORTED, every other field zero. */
#define assert_unsupported_hit(h) swt_check_zero_hit((h), SW_UNSUPPORTED, #h, __FILE__, __LINE__)
/* Status SW_INVALID_INPUT, every other field zero, and the assert handler
 * called once since the last reset (in builds where the library asserts). */
#define assert_invalid_hit(h) swt_check_invalid_hit((h), #h, __FILE__, __LINE__)
/* The handler was called at least n times since the last reset (checked
 * only when the library under test was built with SWEEP_ASSERTS). */
#define assert_handler_called() swt_check_asserts(1, "assert handler", __FILE__, __LINE__)
#define assert_handler_not_called() swt_check_asserts(0, "assert handler", __FILE__, __LINE__)

/* sw_vec3 shorthand for tables. */
#define V(x, y, z) sw_v3((sw_real)(x), (sw_real)(y), (sw_real)(z))

#endif
