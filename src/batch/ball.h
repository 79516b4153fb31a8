/* The batches' vectorised ball cast (private to src/batch/): a block of
 * lanes, each a ball (or point) at a moving by d against a ball at b, in
 * structure-of-arrays scratch on the caller's stack. It repeats the scalar
 * path's arithmetic operation for operation (float builds: the sphere sweep
 * over sw_internal_cast_ball, round/sphere_sweep.c and kernels/cast.c;
 * double builds: sw_fast_sweep_ball, round/fast_sweep.c), so a lane it
 * answers is bit for bit the single call's; a lane whose scalar path would
 * branch elsewhere (a start in contact, a fallback normal, the fast path
 * unsure) is marked for that call. */
#ifndef SWEEP_BATCH_BALL_H
#define SWEEP_BATCH_BALL_H

#include "internal.h"

/* Lanes per block: eight AVX2 vectors of doubles. */
#define SW_BATCH_LANES 32

/* The outcome of a lane. */
enum { SW_BATCH_MISS = 0, SW_BATCH_HIT = 1, SW_BATCH_SCALAR = 2 };

typedef struct sw_ball_lanes {
    /* In: A's centre (a ray's origin) and radius (0 for a ray), the motion
     * (a ray's dir * max), B's centre, the reach (both radii and the skin;
     * a ray's: B's radius) and a ray's max (1 for a sweep). */
    sw_real ax[SW_BATCH_LANES], ay[SW_BATCH_LANES], az[SW_BATCH_LANES], ra[SW_BATCH_LANES];
    sw_real dx[SW_BATCH_LANES], dy[SW_BATCH_LANES], dz[SW_BATCH_LANES];
    sw_real bx[SW_BATCH_LANES], by[SW_BATCH_LANES], bz[SW_BATCH_LANES];
    sw_real reach[SW_BATCH_LANES], max[SW_BATCH_LANES];
    /* B's radius, for the validity test: a sweep's lanes come unchecked
     * (the kernel marks an invalid one for its single call, whose error
     * answer it gets). */
    sw_real rb[SW_BATCH_LANES];
    /* Out: the hit's t, normal and point, and the outcome. */
    sw_real t[SW_BATCH_LANES], nx[SW_BATCH_LANES], ny[SW_BATCH_LANES], nz[SW_BATCH_LANES];
    sw_real px[SW_BATCH_LANES], py[SW_BATCH_LANES], pz[SW_BATCH_LANES];
    sw_real kind[SW_BATCH_LANES]; /* a real: GCC vectorises no int mask here */
} sw_ball_lanes;

/* The cast of every lane of l; a lane whose numbers are not valid (NaN,
 * infinite, beyond SW_MAX_COORD, a negative radius), or in double builds
 * beyond SW_BATCH_BALL_RANGE, is marked SW_BATCH_SCALAR. ray: the lanes
 * are ray casts (t scaled by max, a ray's contact point). */
typedef void sw_ball_kernel(sw_ball_lanes* l, bool ray);

/* The fastest kernel this processor runs (AVX2 or the portable one). */
sw_ball_kernel* sw_batch_ball_kernel(void);

/* Runs kernel over l with floating-point exceptions held: the lanes'
 * guards are selects, which the compilers may evaluate on every lane
 * (traps enabled by the caller would otherwise fire on lanes the scalar
 * path would not have computed); the caller's flags are kept as they were. */
void sw_batch_run_ball(sw_ball_kernel* kernel, sw_ball_lanes* l, bool ray);

/* Double builds: the largest input magnitude a lane may have; beyond it
 * the kernel's products could overflow (and trap), where the scalar fast
 * path gives up anyway (its sizes stop at 1e30). */
#define SW_BATCH_BALL_RANGE 1e29

#endif
