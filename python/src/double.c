/* The double module, sweep._double. */
#define SWEEP_DOUBLE
#include "module.c"
