/* The single header's implementation, compiled once per C standard the
 * tests check (C99 and C11). */
#define SWEEP_IMPLEMENTATION
#include <sweep.h>
