/* Shared support of the libFuzzer targets: decoding raw bytes into sweep's
 * inputs, reporting a violated invariant with the inputs that caused it, and
 * the checks every result must pass whatever the geometry. The geometric
 * checks against long-double references are in oracle.h. */
#ifndef SWEEP_FUZZ_H
#define SWEEP_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sweep/sweep.h"

/* Known findings (README.md, regressions/) that the default build steps
 * around, so that a run reports only new ones; a strict build (-DFZ_STRICT,
 * FUZZ_STRICT=1) checks everything. Remove a skip when its bug is fixed. */
#ifdef FZ_STRICT
#define FZ_KNOWN(cond) false
#else
#define FZ_KNOWN(cond) (cond)
#endif

/* ---- decoding ------------------------------------------------------------
 * The first byte of an input is a header of flags; then every value is a
 * selector byte followed by 0 to sizeof(sw_real) bytes (see fz_real). A
 * finished input reads as zeros, so every byte string is a valid input. */

typedef struct fz_in {
    const uint8_t* p;
    size_t n;
    sw_real recent[8]; /* the last values decoded, for exact coincidences */
    unsigned count;
    bool raw_extents; /* radii, extents, skins and ray max keep their sign */
    /* Vertex storage of the polygons decoded from this input (at most two
     * live at once: shapes a and b), one past the largest valid count. */
    sw_vec3 polygon_vertices[2][SW_MAX_POLYGON_VERTICES + 1];
    unsigned polygons;
} fz_in;

void fz_begin(fz_in* in, const uint8_t* data, size_t size);
uint8_t fz_byte(fz_in* in);
bool fz_bool(fz_in* in);
sw_real fz_real(fz_in* in);
/* A radius, half extent, skin or ray max: |value| unless the header asks
 * for raw signs, so that most inputs stay valid. */
sw_real fz_extent(fz_in* in);
sw_vec3 fz_vec3(fz_in* in);
sw_quat fz_quat(fz_in* in);
sw_sphere fz_sphere(fz_in* in);
sw_box fz_box(fz_in* in);
sw_plane fz_plane(fz_in* in);
sw_triangle fz_triangle(fz_in* in);
/* Mostly a regular polygon in a plane (c + cos(a) u + sin(a) v: convex and
 * planar up to rounding), sometimes raw vertices, a bad count or no
 * vertex array. The vertices live in *in. */
sw_polygon fz_polygon(fz_in* in);
sw_ray fz_ray(fz_in* in);
/* A shape of any type (including out-of-range type values, which must be
 * reported invalid). */
sw_shape fz_shape(fz_in* in);
/* A shape of the given type. */
sw_shape fz_shape_of(fz_in* in, sw_shape_type type);
/* NULL (the defaults) or *storage filled with decoded options. */
const sw_sweep_options* fz_options(fz_in* in, sw_sweep_options* storage);

/* ---- reporting ----------------------------------------------------------- */

/* Prints the current input in readable form when an invariant fails. */
typedef void fz_describe_fn(FILE* out);

/* Installs a returning assert handler and the target's describe function,
 * and checks that the library was built with this target's sw_real. */
void fz_init(fz_describe_fn* describe);

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
_Noreturn void
fz_fail(const char* file, int line, const char* fmt, ...);

#define FZ_CHECK(cond, ...)                                                                                            \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fz_fail(__FILE__, __LINE__, __VA_ARGS__);                                                                  \
        }                                                                                                              \
    } while (0)

void fz_print_real(FILE* out, const char* name, sw_real v);
void fz_print_vec3(FILE* out, const char* name, sw_vec3 v);
void fz_print_shape(FILE* out, const char* name, const sw_shape* s);
void fz_print_options(FILE* out, const sw_sweep_options* opt);
void fz_print_hit(FILE* out, const char* name, const sw_hit* h);
void fz_print_overlap(FILE* out, const char* name, const sw_overlap_result* r);
void fz_print_distance(FILE* out, const char* name, const sw_distance_result* r);

/* ---- checks independent of geometry --------------------------------------
 * Call fz_begin_query before each library call and the matching check after
 * it; `valid` is what the public sw_is_valid_* predicates say of the input,
 * `supported` what the dispatcher's sw_*_supported says (true for the
 * direct entry points). */

void fz_begin_query(void);
/* Status, the assert handler's calls, zeroed fields on a miss or failure,
 * and on a hit: finite fields, t in [0, tmax], unit normal, depth >= 0,
 * overlapping => t = 0, not overlapping => depth = 0. */
void fz_check_hit(const sw_hit* h, bool valid, bool supported, sw_real tmax);
void fz_check_overlap(const sw_overlap_result* r, bool valid, bool supported);
void fz_check_distance(const sw_distance_result* r, bool valid, bool supported);

/* | |n| - 1 | allowed of a reported normal. */
#ifdef SWEEP_DOUBLE
#define FZ_UNIT_TOL 1e-10L
#else
#define FZ_UNIT_TOL 1e-4L
#endif

#endif
