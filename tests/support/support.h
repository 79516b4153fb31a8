/* Test support shared by every suite: floating-point traps, a seeded RNG,
 * and an assert handler that records its calls instead of aborting. Plain
 * C, no test framework (the differential engine uses it without cmocka). */
#ifndef SWEEP_TEST_SUPPORT_H
#define SWEEP_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "sweep/sweep.h"

/* The contract's tolerance (DESIGN.md §3) as a double. */
#define SWT_TOL ((double)SW_TOLERANCE)

/* printf format that reads back to the same sw_real ("%.9g" / "%.17g"). */
#ifdef SWEEP_DOUBLE
#define SWT_REAL_FMT "%.17g"
#else
#define SWT_REAL_FMT "%.9g"
#endif

/* Traps FE_INVALID, FE_DIVBYZERO and FE_OVERFLOW (SIGFPE), after clearing
 * any pending flag and unblocking SIGFPE. Call it at start and again after
 * a test that trapped (the kernel resets the FP state for the handler). */
void swt_trap_fp(void);

/* Installs the recording assert handler; swt_asserts() counts its calls
 * since the last swt_reset_asserts(), swt_last_assert() names the last
 * failed check ("" when none). */
void swt_install_assert_recorder(void);
void swt_reset_asserts(void);
int swt_asserts(void);
const char* swt_last_assert(void);

/* xoshiro256** seeded through splitmix64: fixed seeds give the same
 * stream on every platform. */
typedef struct swt_rng {
    uint64_t s[4];
} swt_rng;

uint64_t swt_splitmix64(uint64_t* state);
/* A well-mixed combination of two values (seed derivation). */
uint64_t swt_mix(uint64_t a, uint64_t b);
/* FNV-1a of a string, for deriving a seed from a name. */
uint64_t swt_hash_str(const char* s);

void swt_rng_seed(swt_rng* r, uint64_t seed);
uint64_t swt_rng_next(swt_rng* r);
/* Uniform in [0, 1). */
double swt_rng_unit(swt_rng* r);
/* Uniform in [lo, hi). */
double swt_rng_range(swt_rng* r, double lo, double hi);
/* Log-uniform in [lo, hi], 0 < lo <= hi. */
double swt_rng_log_range(swt_rng* r, double lo, double hi);
/* Uniform integer in [0, n), n > 0. */
int swt_rng_int(swt_rng* r, int n);
bool swt_rng_chance(swt_rng* r, double p);
/* +1 or -1. */
double swt_rng_sign(swt_rng* r);
/* Uniform direction on the unit sphere. */
void swt_rng_dir(swt_rng* r, double v[3]);

#endif
