#define _POSIX_C_SOURCE 199309L /* clock_gettime */

/* `sweep bench`: ns per query for every pair the dispatcher answers, on
 * seeded random inputs of which about half hit, as the median of several
 * timed runs, with each pair's cost as a ratio to the sphere-sphere sweep
 * timed beside it in every run (the median of the runs' ratios); then the
 * mesh rows (bench_mesh.c) and the scene rows (bench_scene.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sweep/sweep.h"

#include "bench.h"

enum { CASES = 2048, MAX_RUNS = 31 };

/* OP_GJK: the general convex cast (sw_gjk_sweep) on the same pair, to
 * compare the exact methods with it. OP_FLOOR: the lean version of the
 * same reduction (floor.c) on the same inputs as the pair's sweep row. */
typedef enum bench_op { OP_SWEEP, OP_RAYCAST, OP_GJK, OP_FLOOR } bench_op;

typedef struct pair {
    bench_op op;
    sw_shape_type a, b;
} pair;

/* Every pair of DESIGN.md §4 that the dispatcher answers, sphere-sphere
 * first: it is the unit of the ratios. */
static const pair pairs[] = {
    {OP_SWEEP, SW_SHAPE_SPHERE, SW_SHAPE_SPHERE},
    {OP_SWEEP, SW_SHAPE_SPHERE, SW_SHAPE_POINT},
    {OP_SWEEP, SW_SHAPE_SPHERE, SW_SHAPE_SEGMENT},
    {OP_SWEEP, SW_SHAPE_SPHERE, SW_SHAPE_CAPSULE},
    {OP_SWEEP, SW_SHAPE_SPHERE, SW_SHAPE_PLANE},
    {OP_SWEEP, SW_SHAPE_SPHERE, SW_SHAPE_TRIANGLE},
    {OP_SWEEP, SW_SHAPE_SPHERE, SW_SHAPE_POLYGON},
    {OP_SWEEP, SW_SHAPE_SPHERE, SW_SHAPE_BOX},
    {OP_SWEEP, SW_SHAPE_CAPSULE, SW_SHAPE_POINT},
    {OP_SWEEP, SW_SHAPE_CAPSULE, SW_SHAPE_SEGMENT},
    {OP_SWEEP, SW_SHAPE_CAPSULE, SW_SHAPE_SPHERE},
    {OP_SWEEP, SW_SHAPE_CAPSULE, SW_SHAPE_CAPSULE},
    {OP_SWEEP, SW_SHAPE_CAPSULE, SW_SHAPE_PLANE},
    {OP_SWEEP, SW_SHAPE_CAPSULE, SW_SHAPE_TRIANGLE},
    {OP_SWEEP, SW_SHAPE_CAPSULE, SW_SHAPE_POLYGON},
    {OP_SWEEP, SW_SHAPE_CAPSULE, SW_SHAPE_BOX},
    {OP_SWEEP, SW_SHAPE_SEGMENT, SW_SHAPE_SEGMENT},
    {OP_SWEEP, SW_SHAPE_SEGMENT, SW_SHAPE_TRIANGLE},
    {OP_SWEEP, SW_SHAPE_SEGMENT, SW_SHAPE_POLYGON},
    {OP_SWEEP, SW_SHAPE_SEGMENT, SW_SHAPE_BOX},
    {OP_SWEEP, SW_SHAPE_POINT, SW_SHAPE_SPHERE},
    {OP_RAYCAST, SW_SHAPE_POINT, SW_SHAPE_SPHERE},
    {OP_RAYCAST, SW_SHAPE_POINT, SW_SHAPE_CAPSULE},
    {OP_RAYCAST, SW_SHAPE_POINT, SW_SHAPE_PLANE},
    {OP_RAYCAST, SW_SHAPE_POINT, SW_SHAPE_TRIANGLE},
    {OP_RAYCAST, SW_SHAPE_POINT, SW_SHAPE_POLYGON},
    {OP_RAYCAST, SW_SHAPE_POINT, SW_SHAPE_BOX},
    /* Polytopes (issue 5), with the general cast on the same inputs. */
    {OP_SWEEP, SW_SHAPE_SPHERE, SW_SHAPE_HULL},
    {OP_SWEEP, SW_SHAPE_CAPSULE, SW_SHAPE_HULL},
    {OP_RAYCAST, SW_SHAPE_POINT, SW_SHAPE_HULL},
    {OP_SWEEP, SW_SHAPE_BOX, SW_SHAPE_SPHERE},
    {OP_SWEEP, SW_SHAPE_BOX, SW_SHAPE_CAPSULE},
    {OP_SWEEP, SW_SHAPE_BOX, SW_SHAPE_PLANE},
    {OP_SWEEP, SW_SHAPE_BOX, SW_SHAPE_TRIANGLE},
    {OP_SWEEP, SW_SHAPE_BOX, SW_SHAPE_POLYGON},
    {OP_SWEEP, SW_SHAPE_BOX, SW_SHAPE_BOX},
    {OP_GJK, SW_SHAPE_BOX, SW_SHAPE_BOX},
    {OP_SWEEP, SW_SHAPE_BOX, SW_SHAPE_HULL},
    {OP_GJK, SW_SHAPE_BOX, SW_SHAPE_HULL},
    {OP_SWEEP, SW_SHAPE_HULL, SW_SHAPE_TRIANGLE},
    {OP_GJK, SW_SHAPE_HULL, SW_SHAPE_TRIANGLE},
    {OP_SWEEP, SW_SHAPE_HULL, SW_SHAPE_HULL},
    {OP_GJK, SW_SHAPE_HULL, SW_SHAPE_HULL},
    /* The lean reductions of the two pairs held to 2.5x (floor.c). */
    {OP_FLOOR, SW_SHAPE_SPHERE, SW_SHAPE_TRIANGLE},
    {OP_FLOOR, SW_SHAPE_CAPSULE, SW_SHAPE_CAPSULE},
    /* The general cast on the round pairs issue 4 names, for its "far
     * ahead of the general methods". */
    {OP_GJK, SW_SHAPE_SPHERE, SW_SHAPE_TRIANGLE},
    {OP_GJK, SW_SHAPE_CAPSULE, SW_SHAPE_CAPSULE},
    {OP_GJK, SW_SHAPE_CAPSULE, SW_SHAPE_TRIANGLE},
    {OP_GJK, SW_SHAPE_CAPSULE, SW_SHAPE_BOX},
};
enum { PAIR_COUNT = sizeof pairs / sizeof pairs[0] };

/* The polygon pairs again with the polygons prepared once
 * (sw_polygon_prepare, outside the timing), on the same inputs: a query
 * then skips the polygon's validation. */
static const pair prepared_pairs[] = {
    {OP_SWEEP, SW_SHAPE_SPHERE, SW_SHAPE_POLYGON},
    {OP_SWEEP, SW_SHAPE_CAPSULE, SW_SHAPE_POLYGON},
    {OP_SWEEP, SW_SHAPE_SEGMENT, SW_SHAPE_POLYGON},
    {OP_RAYCAST, SW_SHAPE_POINT, SW_SHAPE_POLYGON},
};
enum { PREPARED_COUNT = sizeof prepared_pairs / sizeof prepared_pairs[0] };

/* ---- seeded inputs -------------------------------------------------------- */

static uint64_t rng_state;

static double uniform(void)
{
    /* splitmix64: deterministic across machines. */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

static sw_real span(double lo, double hi) { return (sw_real)(lo + (hi - lo) * uniform()); }
static sw_vec3 in_cube(double s) { return sw_v3(span(-s, s), span(-s, s), span(-s, s)); }

static sw_vec3 unit_vector(void)
{
    for (;;) {
        sw_vec3 v = in_cube(1);
        const sw_real len = sw_length(v);
        if (len > SW_R(0.1) && len <= 1) {
            return sw_scale(v, 1 / len);
        }
    }
}

typedef struct query {
    sw_shape a, b;
    sw_vec3 d;
    sw_ray ray;
} query;

/* Pentagon vertices for the polygon cases (a polygon borrows its array),
 * and their preps when the pair's polygons are prepared. */
static sw_vec3 pentagons[CASES][5];
static sw_polygon_prep* pentagon_preps[CASES];
static bool prepare_polygons;

/* Hulls of HULL_POINTS random points on ellipsoids, shared by the cases
 * (placed each with its own rotation and position). */
enum { HULL_POOL = 64, HULL_POINTS = 32 };
static sw_hull* hull_pool[HULL_POOL];

static const sw_hull* pool_hull(int index)
{
    if (!hull_pool[0]) {
        for (int h = 0; h < HULL_POOL; ++h) {
            sw_vec3 pts[HULL_POINTS];
            const sw_vec3 radii = sw_v3(span(0.3, 1), span(0.3, 1), span(0.3, 1));
            for (int i = 0; i < HULL_POINTS; ++i) {
                pts[i] = sw_mul(unit_vector(), radii);
            }
            hull_pool[h] = sw_hull_create(pts, HULL_POINTS, NULL);
        }
    }
    return hull_pool[index % HULL_POOL];
}

/* A shape of the given type of size about 1 near the origin. */
static sw_shape make_shape(sw_shape_type type, int index)
{
    const sw_vec3 c = in_cube(SW_R(0.2));
    switch (type) {
    case SW_SHAPE_POINT:
        return sw_make_point(c);
    case SW_SHAPE_SEGMENT:
        return sw_make_segment(sw_madd(c, -1, unit_vector()), sw_madd(c, 1, unit_vector()));
    case SW_SHAPE_SPHERE:
        return sw_make_sphere(c, span(0.3, 1));
    case SW_SHAPE_CAPSULE: {
        const sw_vec3 u = unit_vector();
        return sw_make_capsule(sw_madd(c, -SW_R(0.7), u), sw_madd(c, SW_R(0.7), u), span(0.2, 0.6));
    }
    case SW_SHAPE_BOX: {
        sw_quat q = {span(-1, 1), span(-1, 1), span(-1, 1), span(-1, 1)};
        return sw_make_box(c, sw_v3(span(0.3, 1), span(0.3, 1), span(0.3, 1)), q);
    }
    case SW_SHAPE_HULL: {
        sw_quat q = {span(-1, 1), span(-1, 1), span(-1, 1), span(-1, 1)};
        return sw_make_hull(pool_hull(index), c, q);
    }
    case SW_SHAPE_PLANE:
        return sw_make_plane(unit_vector(), span(-0.2, 0.2));
    case SW_SHAPE_TRIANGLE:
        return sw_make_triangle(sw_add(c, unit_vector()), sw_add(c, unit_vector()), sw_add(c, unit_vector()), false);
    case SW_SHAPE_POLYGON: {
        const sw_vec3 n = unit_vector(), u = sw_any_perpendicular(n), v = sw_cross(n, u);
        static const double co[5] = {1, 0.309017, -0.809017, -0.809017, 0.309017};
        static const double si[5] = {0, 0.951057, 0.587785, -0.587785, -0.951057};
        for (int k = 0; k < 5; ++k) {
            pentagons[index][k] = sw_add(c, sw_add(sw_scale(u, (sw_real)co[k]), sw_scale(v, (sw_real)si[k])));
        }
        if (!prepare_polygons) {
            return sw_make_polygon(pentagons[index], 5, false);
        }
        sw_polygon_prep_destroy(pentagon_preps[index]);
        pentagon_preps[index] = sw_polygon_prepare(pentagons[index], 5, NULL);
        return sw_make_prepared_polygon(pentagon_preps[index], false);
    }
    default:
        return sw_make_point(c);
    }
}

/* A starts 3 units away and moves toward a target spread over a disc of
 * radius `spread` around B: the spread sets the hit rate. */
static void make_queries(const pair* p, query* qs, sw_real spread, uint64_t seed)
{
    rng_state = seed;
    for (int i = 0; i < CASES; ++i) {
        query* q = &qs[i];
        q->b = make_shape(p->b, i);
        const sw_vec3 from = sw_scale(unit_vector(), 3);
        q->a = make_shape(p->a, i);
        /* Translate A so that its centre sits at `from`. */
        switch (q->a.type) {
        case SW_SHAPE_POINT:
            q->a.point = from;
            break;
        case SW_SHAPE_SPHERE:
            q->a.sphere.center = from;
            break;
        case SW_SHAPE_SEGMENT:
            q->a.segment.a = sw_add(q->a.segment.a, from);
            q->a.segment.b = sw_add(q->a.segment.b, from);
            break;
        case SW_SHAPE_CAPSULE:
            q->a.capsule.a = sw_add(q->a.capsule.a, from);
            q->a.capsule.b = sw_add(q->a.capsule.b, from);
            break;
        case SW_SHAPE_BOX:
            q->a.box.center = sw_add(q->a.box.center, from);
            break;
        case SW_SHAPE_HULL:
            q->a.hull.position = sw_add(q->a.hull.position, from);
            break;
        default:
            break;
        }
        const sw_vec3 target = sw_madd(sw_v3(0, 0, 0), spread, unit_vector());
        q->d = sw_scale(sw_sub(target, from), SW_R(1.2));
        q->ray.origin = from;
        q->ray.dir = q->d;
        q->ray.max = 1;
    }
}

static volatile sw_real sink;

static int run_queries(const pair* p, const query* qs)
{
    int hits = 0;
    sw_real acc = 0;
    for (int i = 0; i < CASES; ++i) {
        const sw_hit h = p->op == OP_SWEEP   ? sw_sweep(&qs[i].a, qs[i].d, &qs[i].b, NULL)
                         : p->op == OP_GJK   ? sw_gjk_sweep(&qs[i].a, qs[i].d, &qs[i].b, NULL)
                         : p->op == OP_FLOOR ? bench_floor_sweep(&qs[i].a, qs[i].d, &qs[i].b)
                                             : sw_raycast(&qs[i].ray, &qs[i].b);
        hits += h.hit;
        acc += h.t;
    }
    sink = acc;
    return hits;
}

/* Finds the spread giving a hit rate near one half (bisection on 2048
 * calibration cases). */
static sw_real calibrate(const pair* p, query* qs, uint64_t seed)
{
    sw_real lo = 0, hi = 8;
    for (int it = 0; it < 14; ++it) {
        const sw_real mid = (lo + hi) / 2;
        make_queries(p, qs, mid, seed);
        if (run_queries(p, qs) > CASES / 2) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return (lo + hi) / 2;
}

double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare_double(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

typedef struct result {
    double ns;    /* median ns per query */
    double ratio; /* median of the runs' ratios to the sphere-sphere sweep */
    double hit_rate;
    int agree;      /* floor rows: queries whose hit the library's sweep gives too */
    double worst_t; /* floor rows: the largest |t - the library's t| over them */
} result;

/* Repetitions of a batch that make it last about 5 ms. */
static int batch_reps(const pair* p, const query* qs)
{
    const double t0 = bench_now_ns();
    run_queries(p, qs);
    const double batch = bench_now_ns() - t0;
    return batch > 5e6 ? 1 : (batch * 40 < 5e6 ? 40 : (int)(5e6 / batch) + 1);
}

static double time_batch(const pair* p, const query* qs, int reps)
{
    const double t0 = bench_now_ns();
    for (int rep = 0; rep < reps; ++rep) {
        run_queries(p, qs);
    }
    return (bench_now_ns() - t0) / ((double)reps * CASES);
}

double bench_median(double* samples, int n)
{
    qsort(samples, (size_t)n, sizeof samples[0], compare_double);
    return samples[n / 2];
}

/* The unit of the ratios: the sphere-sphere sweep's queries, timed again
 * beside every pair. */
typedef struct unit {
    const query* qs;
    int reps;
} unit;

/* The unit of this bench run, for the mesh rows (bench_mesh.c). */
static unit the_unit;

double bench_unit_ns(void) { return time_batch(&pairs[0], the_unit.qs, the_unit.reps); }

/* How the floor row's lean sweep agrees with the library on its inputs. */
static void compare_floor(const query* qs, result* r)
{
    r->agree = 0;
    r->worst_t = 0;
    for (int i = 0; i < CASES; ++i) {
        const sw_hit lib = sw_sweep(&qs[i].a, qs[i].d, &qs[i].b, NULL);
        const sw_hit lean = bench_floor_sweep(&qs[i].a, qs[i].d, &qs[i].b);
        r->agree += lib.hit == lean.hit;
        if (lib.hit && lean.hit) {
            const double dt = lib.t > lean.t ? lib.t - lean.t : lean.t - lib.t;
            r->worst_t = dt > r->worst_t ? dt : r->worst_t;
        }
    }
}

/* Each run times the unit's batch and the pair's back to back and takes
 * their ratio: a shared machine's speed drifts (the same sphere-sphere
 * batch took 30 ns per query in one run and 44 in the next), and within
 * a run it cancels. The inputs are those of `source`'s pair (calibrated
 * with it), so that a general cast, a floor or a prepared row times its
 * sweep row's very queries. */
static result measure(const pair* p, const pair* source, query* qs, const unit* u, int runs, uint64_t seed)
{
    const sw_real spread = calibrate(source, qs, seed);
    make_queries(source, qs, spread, seed);
    result r = {0};
    r.hit_rate = run_queries(p, qs) / (double)CASES;
    if (p->op == OP_FLOOR) {
        compare_floor(qs, &r);
    }
    double ns[MAX_RUNS], ratio[MAX_RUNS];
    const int reps = batch_reps(p, qs);
    for (int k = 0; k < runs; ++k) {
        const double base = time_batch(&pairs[0], u->qs, u->reps);
        ns[k] = time_batch(p, qs, reps);
        ratio[k] = ns[k] / base;
    }
    r.ns = bench_median(ns, runs);
    r.ratio = bench_median(ratio, runs);
    return r;
}

static void usage(FILE* f)
{
    fputs("usage: sweep bench [--json] [--runs N] [--seed S] [--filter A-B] [--no-mesh] [--no-scene]\n"
          "                   [--data DIR]\n"
          "\n"
          "Times every sweep and ray cast pair the library answers on seeded random\n"
          "inputs (about half of them hits) and prints the median ns per query over\n"
          "N runs (default 9), with the median of its ratios to the sphere-sphere\n"
          "sweep timed beside it in each run. --json prints one JSON object per\n"
          "pair instead of the table (\"ns\", and the ratio as \"ratio\").\n"
          "The polygon pairs are timed again with their polygons prepared once\n"
          "(sw_polygon_prepare), on the same inputs; those rows say \"prepared\"\n"
          "(JSON: \"prepared\":true) and are named 'a-b-prepared'.\n"
          "Rows 'gjk_sweep' time the general convex cast on their pair's inputs.\n"
          "Rows 'floor' (named 'a-b-floor') time a lean version of the same\n"
          "reduction, without validation or any of the library's robustness, on\n"
          "their pair's inputs, with how often it agrees with the library there:\n"
          "what the bare arithmetic costs on this machine, for comparison only.\n"
          "--filter keeps the pairs whose 'a-b' names contain the text.\n"
          "\n"
          "The mesh rows follow (--no-mesh skips them; --seed does not move them):\n"
          "'build-mesh-M' builds mesh M (median of the runs, at most 3 for the 1M\n"
          "terrain) and gives its ns per triangle and bytes per triangle;\n"
          "'point-mesh-M' casts rays, 'sphere-mesh-M' and 'capsule-mesh-M' sweep a\n"
          "sphere and a capsule along the same paths (issue workloads W6, W7), for M\n"
          "the Stanford bunny (bunny.obj in --data DIR, default the build's\n"
          "SWEEP_TEST_DATA_DIR) and value-noise terrains of 1k to 1M triangles\n"
          "(terrain1k, terrain10k, terrain100k, terrain1m), all scaled to unit size.\n"
          "\n"
          "The scene rows come last (--no-scene skips them; --seed does not move\n"
          "them), over worlds of spheres, boxes and capsules (issue workload W8:\n"
          "10,000 in a cube of side 100; others at the same density), each added\n"
          "shape by shape and then optimized (sw_scene_optimize): 'point-scene-N'\n"
          "casts rays and 'sphere-scene-N' sweeps a sphere (r 0.25), closest hit, for\n"
          "N = 100, 1k, 10k (W8), 100k. On W8 also: 'added-point-scene-10k', its rays\n"
          "before the optimize; 'batch1-' and 'batch2-point-scene-10k',\n"
          "sw_scene_raycast_batch over 1 and 2 threads (ns per ray, the speed-up, and\n"
          "the cores the process kept busy); 'add-', 'optimize-' (ns per shape),\n"
          "'remove-', 'move-small-' and 'move-large-scene-10k' (ns per call).\n"
          "--filter scene keeps them alone.\n",
          f);
}

int cmd_bench(int argc, char** argv)
{
    bool json = false;
    int runs = 9;
    uint64_t seed = 1;
    const char* filter = NULL;
    const char* data_dir = NULL;
    bool mesh_rows = true;
    bool scene_rows = true;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
            filter = argv[++i];
        } else if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
            data_dir = argv[++i];
        } else if (strcmp(argv[i], "--no-mesh") == 0) {
            mesh_rows = false;
        } else if (strcmp(argv[i], "--no-scene") == 0) {
            scene_rows = false;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "sweep bench: --runs must be 1..%d\n", MAX_RUNS);
        return 2;
    }
    static query qs[CASES], unit_qs[CASES];
    /* The unit's queries, run once first to warm the caches and the clock. */
    make_queries(&pairs[0], unit_qs, calibrate(&pairs[0], unit_qs, seed), seed);
    const unit u = {unit_qs, batch_reps(&pairs[0], unit_qs)};
    the_unit = u;
    if (!json) {
        printf("sweep bench: %s precision, %d cases per pair, median of %d runs\n\n", sw_precision(), CASES, runs);
        printf("%-9s %-8s %-9s %9s %9s %9s\n", "op", "a", "b", "ns/query", "vs s-s", "hit rate");
    }
    for (int row = 0; row < PAIR_COUNT + PREPARED_COUNT; ++row) {
        const bool prepared = row >= PAIR_COUNT;
        const pair* p = prepared ? &prepared_pairs[row - PAIR_COUNT] : &pairs[row];
        char name[64];
        snprintf(name, sizeof name, "%s-%s%s", sw_shape_type_name(p->a), sw_shape_type_name(p->b),
                 prepared ? "-prepared" : (p->op == OP_FLOOR ? "-floor" : ""));
        if (filter && !strstr(name, filter)) {
            continue;
        }
        /* A prepared, general-cast or floor row takes the seed and the
         * calibration of its pair's own row: the same inputs. */
        const bool derived = prepared || p->op == OP_GJK || p->op == OP_FLOOR;
        const bench_op own = derived && p->op != OP_RAYCAST ? OP_SWEEP : p->op;
        int i = derived ? 0 : row;
        while (derived && !(pairs[i].op == own && pairs[i].a == p->a && pairs[i].b == p->b)) {
            ++i;
        }
        prepare_polygons = prepared;
        const result r = measure(p, &pairs[i], qs, &u, runs, seed + (uint64_t)i);
        prepare_polygons = false;
        static const char* const op_names[] = {"sweep", "raycast", "gjk_sweep", "floor"};
        const char* op = op_names[p->op];
        const char* a = p->op == OP_RAYCAST ? "ray" : sw_shape_type_name(p->a);
        if (json) {
            printf("{\"op\":\"%s\",\"a\":\"%s\",\"b\":\"%s\",\"ns\":%.2f,\"ratio\":%.3f,\"runs\":%d,\"hit_rate\":%.3f",
                   op, p->op == OP_RAYCAST ? "point" : a, sw_shape_type_name(p->b), r.ns, r.ratio, runs, r.hit_rate);
            if (prepared) {
                printf(",\"prepared\":true");
            }
            if (p->op == OP_FLOOR) {
                printf(",\"agree\":%d,\"cases\":%d,\"worst_t\":%.3g", r.agree, CASES, r.worst_t);
            }
            printf("}\n");
        } else {
            printf("%-9s %-8s %-9s %9.1f %8.2fx %9.2f", op, a, sw_shape_type_name(p->b), r.ns, r.ratio, r.hit_rate);
            if (prepared) {
                printf("  prepared");
            }
            if (p->op == OP_FLOOR) {
                printf("  lean, no robustness: agrees on %d/%d, max |dt| %.2g", r.agree, CASES, r.worst_t);
            }
            printf("\n");
        }
        fflush(stdout);
    }
    const bench_mesh_args args = {json, runs, filter, data_dir};
    if (mesh_rows) {
        bench_mesh(&args);
    }
    if (scene_rows) {
        bench_scene(&args);
    }
    return 0;
}
