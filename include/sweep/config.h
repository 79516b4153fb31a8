/* sweep — configuration: the real type, literals, limits, export macro and
 * the replaceable handler called on invalid input. */
#ifndef SWEEP_CONFIG_H
#define SWEEP_CONFIG_H

#include <float.h>

#define SW_VERSION_MAJOR 0
#define SW_VERSION_MINOR 1
#define SW_VERSION_PATCH 0
#define SW_VERSION_STRING "0.1.0"

/* sw_real is float unless the library was built with SWEEP_DOUBLE. The build
 * system puts SWEEP_DOUBLE into the compile definitions of every consumer of
 * a double build, so a program cannot disagree with the library it links. */
#if defined(SWEEP_DOUBLE) && defined(SWEEP_FLOAT)
#error "sweep: SWEEP_DOUBLE and SWEEP_FLOAT are contradictory; define at most one"
#endif

#ifdef SWEEP_DOUBLE
typedef double sw_real;
#define SW_R(x) (x)
#define SW_EPSILON DBL_EPSILON
/* The accuracy target of DESIGN.md §3 for this precision (relative to the
 * query's scale). */
#define SW_TOLERANCE 1e-12
/* Largest accepted |coordinate|, radius, extent or displacement component.
 * Every intermediate value of a query is at most quadratic in the inputs,
 * so this keeps (2 * SW_MAX_COORD)^2 far from overflow. */
#define SW_MAX_COORD 1e150
#define SW_PRECISION_NAME "double"
#else
typedef float sw_real;
#define SW_R(x) (x##f)
#define SW_EPSILON FLT_EPSILON
#define SW_TOLERANCE 1e-5f
#define SW_MAX_COORD 1e18f
#define SW_PRECISION_NAME "float"
#endif

/* sw_shape's anonymous union is C11 (and C++); GNU compilers take it in
 * C99 as an extension, which __extension__ marks. */
#if defined(__GNUC__) && !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L)
#define SW_ANONYMOUS_UNION __extension__ union
#else
#define SW_ANONYMOUS_UNION union
#endif

/* Export macro: the shared library hides every symbol not marked SW_API. */
#if defined(_WIN32)
#if defined(SWEEP_BUILDING)
#define SW_API __declspec(dllexport)
#elif defined(SWEEP_SHARED)
#define SW_API __declspec(dllimport)
#else
#define SW_API
#endif
#elif defined(__GNUC__)
#define SW_API __attribute__((visibility("default")))
#else
#define SW_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Called when a query receives invalid input (a NaN or infinite value, a
 * negative radius, a coordinate beyond SW_MAX_COORD, ...). `what` names the
 * failed check, `file`/`line` the entry point that caught it.
 *
 * In builds with SWEEP_ASSERTS (CMake Debug builds and every test build)
 * the library calls the handler; the default handler prints the message and
 * aborts. A handler that returns lets the query finish with its documented
 * invalid-input result (status SW_INVALID_INPUT, hit = false, every other
 * field zero). Release builds never call the handler and always return that
 * result. Passing NULL restores the default handler. Not thread-safe: set it
 * once at start-up. */
typedef void sw_assert_fn(const char* what, const char* file, int line);
SW_API void sw_set_assert_handler(sw_assert_fn* handler);

/* The library's version string, e.g. "0.1.0". */
SW_API const char* sw_version(void);

/* "float" or "double": the precision this copy of the library was built
 * with (sizeof(sw_real) in a consumer must match it). */
SW_API const char* sw_precision(void);

#ifdef __cplusplus
}
#endif

#endif
