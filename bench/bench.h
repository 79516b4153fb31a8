/* `sweep bench`, linked into the sweep program. */
#ifndef SWEEP_BENCH_H
#define SWEEP_BENCH_H

#include "sweep/sweep.h"

int cmd_bench(int argc, char** argv);

/* The lean sweep of the floor rows (floor.c): sphere against triangle and
 * capsule against capsule, without the library's validation and
 * robustness; status SW_UNSUPPORTED for any other pair. */
sw_hit bench_floor_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b);

#endif
