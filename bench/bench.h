/* `sweep bench`, linked into the sweep program. */
#ifndef SWEEP_BENCH_H
#define SWEEP_BENCH_H

int cmd_bench(int argc, char** argv);

#endif
