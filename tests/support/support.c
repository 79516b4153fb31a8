/* Test support: traps, RNG, recording assert handler. */
#include "support.h"

#include <fenv.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

void swt_trap_fp(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGFPE);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    feclearexcept(FE_ALL_EXCEPT);
    feenableexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW);
}

static int assert_count;
static char last_assert[256];

static void recording_handler(const char* what, const char* file, int line)
{
    (void)file;
    (void)line;
    ++assert_count;
    snprintf(last_assert, sizeof last_assert, "%s", what ? what : "(null)");
}

void swt_install_assert_recorder(void)
{
    sw_set_assert_handler(recording_handler);
    swt_reset_asserts();
}

void swt_reset_asserts(void)
{
    assert_count = 0;
    last_assert[0] = '\0';
}

int swt_asserts(void) { return assert_count; }
const char* swt_last_assert(void) { return last_assert; }

uint64_t swt_splitmix64(uint64_t* state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t swt_mix(uint64_t a, uint64_t b)
{
    uint64_t s = a ^ (b * 0xd6e8feb86659fd93ull);
    swt_splitmix64(&s);
    return swt_splitmix64(&s);
}

uint64_t swt_hash_str(const char* s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; ++s) {
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    }
    return h;
}

void swt_rng_seed(swt_rng* r, uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < 4; ++i) {
        r->s[i] = swt_splitmix64(&s);
    }
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t swt_rng_next(swt_rng* r)
{
    uint64_t* s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double swt_rng_unit(swt_rng* r) { return (double)(swt_rng_next(r) >> 11) * 0x1.0p-53; }

double swt_rng_range(swt_rng* r, double lo, double hi) { return lo + (hi - lo) * swt_rng_unit(r); }

double swt_rng_log_range(swt_rng* r, double lo, double hi) { return lo * pow(hi / lo, swt_rng_unit(r)); }

int swt_rng_int(swt_rng* r, int n) { return (int)(swt_rng_next(r) % (uint64_t)n); }

bool swt_rng_chance(swt_rng* r, double p) { return swt_rng_unit(r) < p; }

double swt_rng_sign(swt_rng* r) { return (swt_rng_next(r) >> 63) ? -1.0 : 1.0; }

void swt_rng_dir(swt_rng* r, double v[3])
{
    /* Uniform z and azimuth give a uniform direction (Archimedes). */
    const double z = swt_rng_range(r, -1, 1);
    const double phi = swt_rng_range(r, 0, 6.283185307179586);
    const double rho = sqrt(1 - z * z);
    v[0] = rho * cos(phi);
    v[1] = rho * sin(phi);
    v[2] = z;
}
