/* sweep — batches of independent pair queries: many sweeps (or ray casts)
 * in one call, each answered exactly as its own call would answer it.
 *
 * Every answer is bit for bit the one-by-one call's, in every field (the
 * batch runs a vectorised path for the hot pairs and falls back to that
 * call for every lane it cannot certify; docs/performance.md). No
 * allocation; the lanes may mix any shape types. Return value, as the
 * scene's batches: 0 when every query was answered, -1 when the arguments
 * themselves are bad (n < 0, or a NULL array with n > 0; reported through
 * the assert handler, nothing answered). n = 0 answers nothing and returns
 * 0. A bad lane (NaN coordinates, a negative radius, a mesh as A, ...) gets
 * the single call's error hit (and assert report) in its own out[i]. */
#ifndef SWEEP_BATCH_H
#define SWEEP_BATCH_H

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* n sweeps: out[i] = sw_sweep(&a[i], d[i], &b[i], opt), one options struct
 * (may be NULL) for all. Fast for sphere and point pairs; every other pair
 * costs its single call. */
SW_API int sw_sweep_batch(const sw_shape* a, const sw_vec3* d, const sw_shape* b, int n, const sw_sweep_options* opt,
                          sw_hit* out);

/* n ray casts: out[i] = sw_raycast(&rays[i], &b[i]). Fast against spheres
 * and points. */
SW_API int sw_raycast_batch(const sw_ray* rays, const sw_shape* b, int n, sw_hit* out);

#ifdef __cplusplus
}
#endif

#endif
