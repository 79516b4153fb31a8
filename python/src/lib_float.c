/* The library itself (float), from the single header. */
#define SWEEP_IMPLEMENTATION
#include <sweep.h>
