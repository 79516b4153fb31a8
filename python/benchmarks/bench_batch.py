"""The Python batch against the C batch: N sphere sweeps against the W8
scene (10,000 spheres, boxes and capsules, sizes 0.1-1, in a cube of side
100; spheres of radius 0.25 from the sphere of radius 100 around it,
moved by 200 units toward a random point of the cube: the C benchmark's
workload, docs/performance.md), the same arrays through

  numpy  Scene.sweep_spheres: the whole call, from numpy arrays to the
         structured array of answers;
  C      the library's sw_scene_sweep_batch alone, on the same queries
         already in C arrays (what a C program calling it spends).

    python3 bench_batch.py [N] [RUNS] [--double]

prints the median of RUNS runs of each, per query, and their ratio, on 1
and 2 threads."""
import statistics
import sys
import time

import numpy as np

import sweep


def w8_scene(rng, count=10_000, side=100.0):
    scene = sweep.Scene()
    for i in range(count):
        c = rng.uniform(-side / 2, side / 2, 3)
        kind = i % 3
        if kind == 0:
            s = sweep.sphere(c, rng.uniform(0.1, 1))
        elif kind == 1:
            q = rng.normal(size=4)
            s = sweep.box(c, rng.uniform(0.1, 1, 3), q / np.linalg.norm(q))
        else:
            axis = rng.normal(size=3)
            axis *= rng.uniform(0.1, 1) / np.linalg.norm(axis)
            s = sweep.capsule(c - axis, c + axis, rng.uniform(0.1, 1))
        scene.add(i, s)
    scene.optimize()
    return scene


def w8_queries(rng, n, side=100.0):
    u = rng.normal(size=(n, 3))
    start = side * u / np.linalg.norm(u, axis=1)[:, None]
    target = rng.uniform(-side / 2, side / 2, (n, 3))
    d = target - start
    d *= 2 * side / np.linalg.norm(d, axis=1)[:, None]
    return start.astype(np.float32), d.astype(np.float32)


def main():
    global sweep
    args = [a for a in sys.argv[1:] if a != "--double"]
    if "--double" in sys.argv:
        import sweep.double
        sweep = sweep.double
    n = int(args[0]) if len(args) > 0 else 1_000_000
    runs = int(args[1]) if len(args) > 1 else 5
    rng = np.random.default_rng(1)
    scene = w8_scene(rng)
    centers, d = w8_queries(rng, n)
    print(f"{n} sphere sweeps (radius 0.25) against the W8 scene (10,000 objects), {sweep.precision}, "
          f"median of {runs} runs")
    print(f"{'threads':>7} {'numpy ns/query':>15} {'C ns/query':>11} {'numpy / C':>10} {'hits':>8}")
    for threads in (1, 2):
        py_times, c_times = [], []
        for run in range(runs):
            # Alternate which goes first, so that neither always meets a
            # cold cache or the other's freed memory.
            if run % 2:
                c_times.append(scene._bench_c_batch(centers, 0.25, d, threads))
            t0 = time.perf_counter()
            out = scene.sweep_spheres(centers, 0.25, d, threads=threads)
            py_times.append(time.perf_counter() - t0)
            if run % 2 == 0:
                c_times.append(scene._bench_c_batch(centers, 0.25, d, threads))
        py, c = statistics.median(py_times), statistics.median(c_times)
        print(f"{threads:>7} {py / n * 1e9:>15.1f} {c / n * 1e9:>11.1f} {py / c:>10.3f} {int(out['hit'].sum()):>8}")


if __name__ == "__main__":
    main()
