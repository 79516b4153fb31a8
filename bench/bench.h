/* `sweep bench`, linked into the sweep program. */
#ifndef SWEEP_BENCH_H
#define SWEEP_BENCH_H

#include "sweep/sweep.h"

int cmd_bench(int argc, char** argv);

/* The lean sweep of the floor rows (floor.c): sphere against triangle and
 * capsule against capsule, without the library's validation and
 * robustness; status SW_UNSUPPORTED for any other pair. */
sw_hit bench_floor_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b);

/* Shared with the mesh rows (bench_mesh.c): the monotonic clock in ns,
 * the median of n samples (sorting them), and one timed batch of the
 * sphere-sphere unit, in ns per query. */
double bench_now_ns(void);
double bench_median(double* samples, int n);
double bench_unit_ns(void);

/* The mesh rows, printed after the pairs' rows in the same format. */
typedef struct bench_mesh_args {
    bool json;
    int runs;
    const char* filter;   /* keep the rows whose names contain it; NULL keeps all */
    const char* data_dir; /* of bunny.obj; NULL for the build's default */
} bench_mesh_args;

void bench_mesh(const bench_mesh_args* args);

/* The scene rows (bench_scene.c), after the mesh rows; data_dir unused. */
void bench_scene(const bench_mesh_args* args);

#endif
