/* The library itself (double), from the single header. */
#define SWEEP_DOUBLE
#define SWEEP_IMPLEMENTATION
#include <sweep.h>
