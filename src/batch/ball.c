/* The batches' vectorised ball cast (ball.h): fixed-size loops over the
 * block's lanes that compilers vectorise, every branch of the scalar path
 * turned into a select. Every lane computes every operation, so the loops
 * run with exceptions held (sw_batch_run_ball), and square roots and
 * divisions are guarded where the scalar path would not have reached them
 * (a value no answer uses, not an infinity or NaN a later step trips on). */
#include <fenv.h>

#include "batch/ball.h"
#include "queries/round/fast.h"

/* The precision of each lane's arithmetic must be the scalar path's:
 * contracting a * b + c into a fused multiply-add would round differently.
 * GCC does not contract in ISO C mode, and no target here has FMA; clang
 * is told so at the top of each loop's body (FP_CONTRACT OFF). */

/* Conditions as 1.0 or 0.0, and x where flag is 1, else 1 (exactly:
 * x * 1 + 0 = x): GCC vectorises no int mask beside doubles. */
static SW_ALWAYS_INLINE double batch_flag(int cond) { return cond ? 1.0 : 0.0; }
static SW_ALWAYS_INLINE double batch_or_one(double x, double flag) { return x * flag + (1 - flag); }

/* Whether a lane's inputs are valid numbers, as sw_internal_sphere_ok
 * and sw_internal_vec3_ok decide (|x| <= limit, NaN failing; radii >= 0),
 * and within limit (SW_MAX_COORD, or the double kernel's range). Quiet
 * comparisons would not vectorise; these may raise FE_INVALID on a NaN,
 * which the held exceptions absorb. */
static SW_ALWAYS_INLINE double batch_valid(const sw_ball_lanes* l, int j, double limit)
{
    const double lim = limit;
    return batch_flag(fabs((double)l->ax[j]) <= lim) * batch_flag(fabs((double)l->ay[j]) <= lim) *
           batch_flag(fabs((double)l->az[j]) <= lim) * batch_flag(fabs((double)l->dx[j]) <= lim) *
           batch_flag(fabs((double)l->dy[j]) <= lim) * batch_flag(fabs((double)l->dz[j]) <= lim) *
           batch_flag(fabs((double)l->bx[j]) <= lim) * batch_flag(fabs((double)l->by[j]) <= lim) *
           batch_flag(fabs((double)l->bz[j]) <= lim) * batch_flag((double)l->ra[j] >= 0) *
           batch_flag((double)l->ra[j] <= lim) * batch_flag((double)l->rb[j] >= 0) *
           batch_flag((double)l->rb[j] <= lim) * batch_flag(fabs((double)l->reach[j]) <= lim);
}

/* GCC turns a select whose arm may trap (a division, a square root) into
 * a branch, which it does not vectorise, unless told that traps do not
 * matter: the kernel runs with exceptions held (sw_batch_run_ball), so
 * none can trap, and its guards keep every value a lane uses the scalar
 * path's. (Clang assumes this by default.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-trapping-math")
#endif

#ifndef SWEEP_DOUBLE
/* Float builds: sw_internal_sweep_sphere_sphere (or
 * sw_internal_raycast_sphere) over sw_internal_cast_ball, with double as
 * the wide type. A start in contact (kind 2 there) and a fallback normal
 * are left to the single call. */
static SW_ALWAYS_INLINE void batch_ball_body(sw_ball_lanes* l, bool ray)
{
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
    for (int j = 0; j < SW_BATCH_LANES; ++j) {
        const double fx = l->ax[j] - l->bx[j], fy = l->ay[j] - l->by[j], fz = l->az[j] - l->bz[j];
        const double dx = l->dx[j], dy = l->dy[j], dz = l->dz[j];
        const double rr = l->reach[j];
        const double ff = fx * fx + fy * fy + fz * fz;
        const double c = ff - rr * rr;
        const double b = fx * dx + fy * dy + fz * dz;
        const double a = dx * dx + dy * dy + dz * dz;
        const double cx = fy * dz - fz * dy, cy = fz * dx - fx * dz, cz = fx * dy - fy * dx;
        const double disc = a * rr * rr - (cx * cx + cy * cy + cz * cz);
        const double q = sqrt(fabs(disc)) - b;
        const double go = batch_flag(c > 0) * batch_flag(b < 0) * batch_flag(disc >= 0) * batch_flag(c <= q);
        const double tt = c / batch_or_one(q, go) * go;
        /* The normal: f + t d over its length, when the radius is not lost
         * in f's rounding (else the scalar path's fallback normal). */
        const double atx = fx + tt * dx, aty = fy + tt * dy, atz = fz + tt * dz;
        const double len = sqrt(atx * atx + aty * aty + atz * atz);
        const double nok = batch_flag(rr > 16 * SW_EPSILON * sqrt(ff)) * batch_flag(len > 0);
        const double div = batch_or_one(len, nok);
        const sw_real nx = (sw_real)(atx / div), ny = (sw_real)(aty / div), nz = (sw_real)(atz / div);
        const sw_real t = (sw_real)tt;
        /* A sweep's point: A's centre at t pulled back by its radius; a
         * ray's: the origin at t. */
        const sw_real p1x = l->ax[j] + t * l->dx[j], p1y = l->ay[j] + t * l->dy[j], p1z = l->az[j] + t * l->dz[j];
        const sw_real nra = -l->ra[j];
        l->px[j] = ray ? p1x : p1x + nra * nx;
        l->py[j] = ray ? p1y : p1y + nra * ny;
        l->pz[j] = ray ? p1z : p1z + nra * nz;
        l->nx[j] = nx;
        l->ny[j] = ny;
        l->nz[j] = nz;
        l->t[j] = t * l->max[j];
        const double valid = batch_valid(l, j, (double)SW_MAX_COORD);
        l->kind[j] = valid == 0 || c <= 0 ? SW_BATCH_SCALAR
                                          : (go != 0 ? (nok != 0 ? SW_BATCH_HIT : SW_BATCH_SCALAR) : SW_BATCH_MISS);
    }
}
#else
/* Double builds: sw_fast_sweep_ball (its query set-up, sw_fast_ball and
 * sw_fast_answer). Where it gives up, the single call answers. A ray is
 * the same cast with A's radius 0; only its t is scaled. */
static SW_ALWAYS_INLINE double batch_max(double a, double b) { return a > b ? a : b; }
static SW_ALWAYS_INLINE double batch_max_abs3(double x, double y, double z)
{
    return batch_max(batch_max(fabs(x), fabs(y)), fabs(z));
}

static SW_ALWAYS_INLINE void batch_ball_body(sw_ball_lanes* l, bool ray)
{
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
    (void)ray;
    for (int j = 0; j < SW_BATCH_LANES; ++j) {
        const double ra = l->ra[j], reach = l->reach[j];
        const double fx = l->ax[j] - l->bx[j], fy = l->ay[j] - l->by[j], fz = l->az[j] - l->bz[j];
        const double dx = l->dx[j], dy = l->dy[j], dz = l->dz[j];
        /* sw_fast_point_query, then sw_fast_set_size. */
        const double reach0 = ra + (reach - ra);
        double size = batch_max(batch_max(batch_max_abs3(dx, dy, dz), reach0),
                                batch_max(batch_max_abs3(l->bx[j], l->by[j], l->bz[j]), batch_max_abs3(fx, fy, fz)));
        size = batch_max(size, 0);
        const double margin = 64 * SW_EPSILON * size;
        const double start = reach + margin;
        const double ff = fx * fx + fy * fy + fz * fz;
        const double ok = batch_flag(size >= 1e-30) * batch_flag(size <= 1e30) *
                          batch_flag(reach > SW_FAST_MIN_REACH * size) * batch_flag(ff > start * start);
        /* sw_fast_ball. */
        const double b = fx * dx + fy * dy + fz * dz;
        const double a = dx * dx + dy * dy + dz * dz, rr = reach * reach;
        const double cx = fy * dz - fz * dy, cy = fz * dx - fx * dz, cz = fx * dy - fy * dx;
        const double disc = a * rr - (cx * cx + cy * cy + cz * cz);
        const double c = ff - rr;
        const double q = sqrt(fabs(disc)) - b;
        const double go = batch_flag(b < 0) * batch_flag(disc >= 0) * batch_flag(c <= q);
        const double sure = batch_flag(c > 0) * batch_flag(!(disc < SW_FAST_SHALLOW * SW_FAST_SHALLOW * a * rr));
        const double t = c / batch_or_one(q, go * sure) * (go * sure);
        const double atx = fx + t * dx, aty = fy + t * dy, atz = fz + t * dz;
        const double s = atx * atx + aty * aty + atz * atz;
        const double inv = 1 / sqrt(s + batch_flag(!(s > 0)));
        const double nx = atx * inv, ny = aty * inv, nz = atz * inv;
        /* sw_fast_answer: A's point nearest B, back in the world. */
        const double nra = -ra;
        l->px[j] = l->bx[j] + (atx + nra * nx);
        l->py[j] = l->by[j] + (aty + nra * ny);
        l->pz[j] = l->bz[j] + (atz + nra * nz);
        l->nx[j] = nx;
        l->ny[j] = ny;
        l->nz[j] = nz;
        l->t[j] = t * l->max[j];
        const double valid = batch_valid(l, j, SW_BATCH_BALL_RANGE);
        l->kind[j] = ok == 0 || valid == 0
                         ? SW_BATCH_SCALAR
                         : (go == 0 ? SW_BATCH_MISS : (sure == 0 || !(s > 0) ? SW_BATCH_SCALAR : SW_BATCH_HIT));
    }
}
#endif

/* A constant `ray` in each copy: no select between the two points. */
static void batch_ball_portable(sw_ball_lanes* l, bool ray)
{
    if (ray) {
        batch_ball_body(l, true);
    } else {
        batch_ball_body(l, false);
    }
}

/* The AVX2 copy, chosen at run time (the same operations, four doubles a
 * vector; no FMA, which would change the rounding). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(SWEEP_BATCH_PORTABLE)
#define SW_BATCH_HAVE_AVX2 1
__attribute__((target("avx2"))) static void batch_ball_avx2(sw_ball_lanes* l, bool ray)
{
    if (ray) {
        batch_ball_body(l, true);
    } else {
        batch_ball_body(l, false);
    }
}
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

sw_ball_kernel* sw_batch_ball_kernel(void)
{
#ifdef SW_BATCH_HAVE_AVX2
    if (__builtin_cpu_supports("avx2")) {
        return batch_ball_avx2;
    }
#endif
    return batch_ball_portable;
}

void sw_batch_run_ball(sw_ball_kernel* kernel, sw_ball_lanes* l, bool ray)
{
#if defined(__GNUC__) && defined(__x86_64__) && defined(__SSE__)
    /* On x86-64 every float and double operation is SSE's, whose control
     * and flags are MXCSR: exceptions masked (bits 7-12) for the kernel,
     * then the word as it was, flags included. A tenth of fenv's cost
     * (feholdexcept and fesetenv took 9 ns a lane). */
    const unsigned csr = __builtin_ia32_stmxcsr();
    __builtin_ia32_ldmxcsr(csr | 0x1f80u);
    kernel(l, ray);
    __builtin_ia32_ldmxcsr(csr);
#else
    fenv_t env;
    feholdexcept(&env);
    kernel(l, ray);
    fesetenv(&env); /* the flags as they were: the kernel's are not the query's */
#endif
}
