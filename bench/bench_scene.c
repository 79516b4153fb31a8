/* The scene rows of `sweep bench`: the workload W8 (rays and
 * sphere sweeps, closest hit, through a world of 10,000 spheres, boxes and
 * capsules), the same over worlds of 100 to 100,000 objects at the same
 * density (the growth), batches over one and two threads, and the cost of
 * changing the world (sw_scene_add, sw_scene_optimize, sw_scene_move,
 * sw_scene_remove). Each world is added shape by shape, then optimized
 * (sw_scene_optimize, as scene.h advises after loading a level); one row
 * casts W8's rays before that, on the tree the insertions left.
 * Worlds and queries come from workloads.c, as in the peer comparison
 * (bench/peers), so the two programs time the same input. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sweep/scene.h"

#include "bench.h"
#include "workloads.h"

enum { WORLD_COUNT = 4 };
static const int world_objects[WORLD_COUNT] = {100, 1000, 10000, 100000};
static const char* const world_names[WORLD_COUNT] = {"100", "1k", "10k", "100k"};

/* The rows of one world, in the order printed; only the W8 world (10k)
 * has the batch and change rows. */
typedef enum scene_row {
    ROW_ADDED, /* W8's rays before sw_scene_optimize */
    ROW_RAY,
    ROW_SPHERE,
    ROW_BATCH1,
    ROW_BATCH2,
    ROW_ADD,
    ROW_OPTIMIZE,
    ROW_REMOVE,
    ROW_MOVE_SMALL,
    ROW_MOVE_LARGE,
    ROW_COUNT
} scene_row;

static const char* const row_prefix[ROW_COUNT] = {"added-point", "point",    "sphere", "batch1-point", "batch2-point",
                                                  "add",         "optimize", "remove", "move-small",   "move-large"};

/* Small moves: every shape by this distance along a diagonal and back,
 * less than any fat box's margin (a tenth of the shape's size and of its
 * mean size, at least 0.04 here), so no move changes the tree. */
#define SMALL_MOVE 0.01

static bool row_kept(const bench_mesh_args* args, int world, scene_row r)
{
    if ((r < ROW_RAY || r > ROW_SPHERE) && world_objects[world] != WL_WORLD_OBJECTS) {
        return false;
    }
    char name[64];
    snprintf(name, sizeof name, "%s-scene-%s", row_prefix[r], world_names[world]);
    return !args->filter || strstr(name, args->filter);
}

/* ---- the world and the queries, as the library takes them ----------------- */

static sw_vec3 v3f(const float* p) { return sw_v3((sw_real)p[0], (sw_real)p[1], (sw_real)p[2]); }

static sw_shape object_shape(const wl_object* o)
{
    switch (o->type) {
    case WL_OBJECT_SPHERE:
        return sw_make_sphere(v3f(o->center), (sw_real)o->radius);
    case WL_OBJECT_BOX: {
        const sw_quat q = {(sw_real)o->rotation[0], (sw_real)o->rotation[1], (sw_real)o->rotation[2],
                           (sw_real)o->rotation[3]};
        return sw_make_box(v3f(o->center), v3f(o->half), q);
    }
    case WL_OBJECT_CAPSULE:
    default:
        return sw_make_capsule(v3f(o->a), v3f(o->b), (sw_real)o->radius);
    }
}

/* s moved by off (the three types of the world). */
static sw_shape shifted(sw_shape s, sw_vec3 off)
{
    if (s.type == SW_SHAPE_SPHERE) {
        s.sphere.center = sw_add(s.sphere.center, off);
    } else if (s.type == SW_SHAPE_BOX) {
        s.box.center = sw_add(s.box.center, off);
    } else if (s.type == SW_SHAPE_CAPSULE) {
        s.capsule.a = sw_add(s.capsule.a, off);
        s.capsule.b = sw_add(s.capsule.b, off);
    }
    return s;
}

typedef struct world_input {
    int count;
    sw_shape* shapes;
    sw_ray* rays;
    sw_shape* spheres; /* the swept spheres, at the rays' origins */
    sw_vec3* d;
    int queries;
} world_input;

static void free_input(world_input* in)
{
    free(in->shapes);
    free(in->rays);
    free(in->spheres);
    free(in->d);
    memset(in, 0, sizeof *in);
}

static bool make_input(const wl_world* w, world_input* in)
{
    const int n = WL_DEFAULT_QUERIES;
    wl_query* q = malloc(sizeof *q * (size_t)n);
    in->count = w->count;
    in->queries = n;
    in->shapes = malloc(sizeof *in->shapes * (size_t)w->count);
    in->rays = malloc(sizeof *in->rays * (size_t)n);
    in->spheres = malloc(sizeof *in->spheres * (size_t)n);
    in->d = malloc(sizeof *in->d * (size_t)n);
    if (!q || !in->shapes || !in->rays || !in->spheres || !in->d) {
        free(q);
        free_input(in);
        return false;
    }
    for (int i = 0; i < w->count; ++i) {
        in->shapes[i] = object_shape(&w->objects[i]);
    }
    wl_make_world_queries(w, n, q);
    for (int i = 0; i < n; ++i) {
        const sw_vec3 o = v3f(q[i].origin);
        in->d[i] = v3f(q[i].d);
        in->rays[i] = (sw_ray){o, in->d[i], 1};
        in->spheres[i] = sw_make_sphere(o, (sw_real)WL_WORLD_SWEEP_RADIUS);
    }
    free(q);
    return true;
}

/* A scene of the world's shapes, added in order under keys 0..count-1
 * (not optimized); NULL on failure (with a message). */
static sw_scene* make_scene(const world_input* in)
{
    sw_scene* s = sw_scene_create();
    for (int i = 0; s && i < in->count; ++i) {
        const sw_scene_error e = sw_scene_add(s, i, &in->shapes[i], 1, ~(uint64_t)0, NULL);
        if (e != SW_SCENE_OK) {
            fprintf(stderr, "sweep bench: sw_scene_add: %s\n", sw_scene_error_string(e));
            sw_scene_destroy(s);
            return NULL;
        }
    }
    return s;
}

/* ---- printing ----------------------------------------------------------------- */

typedef struct row_result {
    double ns, ratio;
    double hit_rate;   /* < 0: not a query row */
    int errors;        /* answers not ok (-1, or a status other than SW_OK) */
    double speedup;    /* batch2: over batch1, else 0 */
    double cores;      /* batch2: the process's CPU time over the wall time */
    int batch_differs; /* batch answers unlike the one-by-one calls' */
} row_result;

static void print_row(const bench_mesh_args* args, int world, scene_row r, const row_result* x)
{
    static const char* const op[ROW_COUNT] = {"raycast", "raycast",  "sweep",  "raycast", "raycast",
                                              "add",     "optimize", "remove", "move",    "move"};
    static const char* const a[ROW_COUNT] = {"ray", "ray", "sphere", "ray", "ray", "-", "-", "-", "small", "large"};
    const int objects = world_objects[world];
    if (args->json) {
        printf("{\"op\":\"%s\",\"a\":\"%s\",\"b\":\"scene\",\"world\":\"%s\",\"objects\":%d,\"ns\":%.2f,"
               "\"ratio\":%.3f,\"runs\":%d",
               op[r], r <= ROW_BATCH2 ? (r == ROW_SPHERE ? "sphere" : "point") : a[r], world_names[world], objects,
               x->ns, x->ratio, args->runs);
        if (x->hit_rate >= 0) {
            printf(",\"hit_rate\":%.3f,\"queries\":%d", x->hit_rate, WL_DEFAULT_QUERIES);
        }
        if (r == ROW_ADDED) {
            printf(",\"optimized\":false");
        }
        if (r == ROW_BATCH1 || r == ROW_BATCH2) {
            printf(",\"threads\":%d", r == ROW_BATCH1 ? 1 : 2);
        }
        if (r == ROW_BATCH2) {
            printf(",\"speedup\":%.3f,\"cores\":%.2f", x->speedup, x->cores);
        }
        if (x->errors) {
            printf(",\"errors\":%d", x->errors);
        }
        if (x->batch_differs) {
            printf(",\"batch_differs\":%d", x->batch_differs);
        }
        printf("}\n");
    } else {
        char rate[16] = "-";
        if (x->hit_rate >= 0) {
            snprintf(rate, sizeof rate, "%.2f", x->hit_rate);
        }
        printf("%-9s %-8s %-9s %9.1f %8.2fx %9s  ", op[r], a[r], "scene", x->ns, x->ratio, rate);
        if (r == ROW_RAY || r == ROW_SPHERE) {
            printf("%s%d objects, closest hit", objects == WL_WORLD_OBJECTS ? "W8, " : "", objects);
        } else if (r == ROW_ADDED) {
            printf("W8 rays on the tree as sw_scene_add left it (before sw_scene_optimize)");
        } else if (r == ROW_BATCH1 || r == ROW_BATCH2) {
            printf("W8 rays, sw_scene_raycast_batch over %d thread%s", r == ROW_BATCH1 ? 1 : 2,
                   r == ROW_BATCH1 ? "" : "s");
            if (r == ROW_BATCH2) {
                printf(": %.2fx the speed of 1 (%.2f cores busy)", x->speedup, x->cores);
            }
        } else {
            static const char* const what[ROW_COUNT] = {
                [ROW_ADD] = "sw_scene_add, a world of %d built one by one (ns per call)",
                [ROW_OPTIMIZE] = "sw_scene_optimize of that world, %d shapes (ns per shape)",
                [ROW_REMOVE] = "sw_scene_remove, all %d in a random order (ns per call)",
                [ROW_MOVE_SMALL] = "sw_scene_move by 0.01 and back, within the fat boxes, %d shapes (ns per call)",
                [ROW_MOVE_LARGE] = "sw_scene_move to a random point of the cube and back, %d shapes (ns per call)"};
            printf(what[r], objects);
        }
        if (x->errors) {
            printf("  %d answers not ok", x->errors);
        }
        if (x->batch_differs) {
            printf("  %d answers unlike the one-by-one calls'", x->batch_differs);
        }
        printf("\n");
    }
    fflush(stdout);
}

/* ---- queries ------------------------------------------------------------------ */

static volatile double sink;

typedef struct pass_result {
    int hits, errors;
} pass_result;

/* One pass over the queries, one by one; answers into out when not NULL. */
static pass_result run_queries(const sw_scene* s, const world_input* in, bool sweep, sw_scene_hit* out)
{
    pass_result r = {0, 0};
    double acc = 0;
    for (int i = 0; i < in->queries; ++i) {
        sw_scene_hit h;
        memset(&h, 0, sizeof h);
        const int n = sweep ? sw_scene_sweep(s, &in->spheres[i], in->d[i], NULL, SW_HITS_CLOSEST, NULL, &h, 1)
                            : sw_scene_raycast(s, &in->rays[i], SW_HITS_CLOSEST, NULL, &h, 1);
        if (n > 0) {
            r.hits++;
            r.errors += h.hit.status != SW_OK;
            acc += (double)h.hit.t;
        } else {
            r.errors += n < 0;
        }
        if (out) {
            out[i] = h;
            out[i].hit.hit = n > 0;
        }
    }
    sink = acc;
    return r;
}

static int reps_for(double batch_ns)
{
    return batch_ns > 5e6 ? 1 : (batch_ns * 40 < 5e6 ? 40 : (int)(5e6 / batch_ns) + 1);
}

/* As the mesh rows: a first pass (untimed) gives the hit rate and the
 * repetitions for about 5 ms; each run times the unit and the batch back
 * to back. */
static row_result query_row(const bench_mesh_args* args, const sw_scene* s, const world_input* in, bool sweep)
{
    double t0 = bench_now_ns();
    const pass_result first = run_queries(s, in, sweep, NULL);
    const int reps = reps_for(bench_now_ns() - t0);
    double ns[64], ratio[64];
    for (int k = 0; k < args->runs; ++k) {
        const double base = bench_unit_ns();
        t0 = bench_now_ns();
        for (int rep = 0; rep < reps; ++rep) {
            run_queries(s, in, sweep, NULL);
        }
        ns[k] = (bench_now_ns() - t0) / ((double)reps * in->queries);
        ratio[k] = ns[k] / base;
    }
    const row_result r = {bench_median(ns, args->runs),
                          bench_median(ratio, args->runs),
                          first.hits / (double)in->queries,
                          first.errors,
                          0,
                          0,
                          0};
    return r;
}

static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The batch rows: each run times the unit, then the batch over 1 thread
 * and over 2, back to back; the speed-up is the median of the runs'
 * ratios. The first batches' answers are checked against one-by-one
 * calls (they must be identical). */
static void batch_rows(const bench_mesh_args* args, int world, const sw_scene* s, const world_input* in)
{
    const int n = in->queries;
    sw_scene_hit* one = malloc(sizeof *one * (size_t)n);
    sw_scene_hit* out = malloc(sizeof *out * (size_t)n);
    int* count = malloc(sizeof *count * (size_t)n);
    if (!one || !out || !count) {
        free(one);
        free(out);
        free(count);
        return;
    }
    const pass_result first = run_queries(s, in, false, one);
    row_result r[2];
    memset(r, 0, sizeof r);
    double t0 = 0;
    int reps[2];
    for (int k = 0; k < 2; ++k) {
        t0 = bench_now_ns();
        sw_scene_raycast_batch(s, in->rays, n, SW_HITS_CLOSEST, NULL, out, count, k + 1);
        reps[k] = reps_for(bench_now_ns() - t0);
        for (int i = 0; i < n; ++i) {
            const bool hit = count[i] > 0;
            r[k].batch_differs +=
                hit != one[i].hit.hit || (hit && (out[i].key != one[i].key || out[i].hit.t != one[i].hit.t));
        }
        r[k].hit_rate = first.hits / (double)n;
        r[k].errors = first.errors;
    }
    /* The CPU time the process spent in the two-thread batches, over
     * their wall time: 2 when both threads had a core throughout; less
     * when the machine's other work took one. */
    double ns[2][64], ratio[2][64], speedup[64], cores[64];
    for (int run = 0; run < args->runs; ++run) {
        const double base = bench_unit_ns();
        for (int k = 0; k < 2; ++k) {
            const double c0 = cpu_ns();
            t0 = bench_now_ns();
            for (int rep = 0; rep < reps[k]; ++rep) {
                sw_scene_raycast_batch(s, in->rays, n, SW_HITS_CLOSEST, NULL, out, NULL, k + 1);
            }
            const double wall = bench_now_ns() - t0;
            cores[run] = (cpu_ns() - c0) / wall;
            ns[k][run] = wall / ((double)reps[k] * n);
            ratio[k][run] = ns[k][run] / base;
        }
        speedup[run] = ns[0][run] / ns[1][run];
    }
    for (int k = 0; k < 2; ++k) {
        r[k].ns = bench_median(ns[k], args->runs);
        r[k].ratio = bench_median(ratio[k], args->runs);
    }
    r[1].speedup = bench_median(speedup, args->runs);
    r[1].cores = bench_median(cores, args->runs);
    for (int k = 0; k < 2; ++k) {
        if (row_kept(args, world, k ? ROW_BATCH2 : ROW_BATCH1)) {
            print_row(args, world, k ? ROW_BATCH2 : ROW_BATCH1, &r[k]);
        }
    }
    free(one);
    free(out);
    free(count);
}

/* ---- changes ------------------------------------------------------------------ */

/* splitmix64, for the order of the removals. */
static uint64_t next_random(uint64_t* state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The add, optimize and remove rows: each run times the unit, then builds
 * a scene of the world by adding its shapes one by one, optimizes it, and
 * removes them all in a fixed random order. */
static void change_rows(const bench_mesh_args* args, int world, const world_input* in)
{
    const int n = in->count;
    int* order = malloc(sizeof *order * (size_t)n);
    if (!order) {
        return;
    }
    uint64_t state = 8004;
    for (int i = 0; i < n; ++i) {
        order[i] = i;
    }
    for (int i = n - 1; i > 0; --i) {
        const int j = (int)(next_random(&state) % (uint64_t)(i + 1));
        const int x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    double ns[3][64], ratio[3][64];
    int errors = 0;
    for (int run = 0; run < args->runs; ++run) {
        const double base = bench_unit_ns();
        sw_scene* s = sw_scene_create();
        if (!s) {
            free(order);
            return;
        }
        double t0 = bench_now_ns();
        for (int i = 0; i < n; ++i) {
            errors += sw_scene_add(s, i, &in->shapes[i], 1, ~(uint64_t)0, NULL) != SW_SCENE_OK;
        }
        ns[0][run] = (bench_now_ns() - t0) / n;
        t0 = bench_now_ns();
        sw_scene_optimize(s);
        ns[1][run] = (bench_now_ns() - t0) / n;
        t0 = bench_now_ns();
        for (int i = 0; i < n; ++i) {
            errors += sw_scene_remove(s, order[i]) != SW_SCENE_OK;
        }
        ns[2][run] = (bench_now_ns() - t0) / n;
        errors += sw_scene_count(s) != 0;
        sw_scene_destroy(s);
        for (int k = 0; k < 3; ++k) {
            ratio[k][run] = ns[k][run] / base;
        }
    }
    for (int k = 0; k < 3; ++k) {
        const scene_row row = k == 0 ? ROW_ADD : (k == 1 ? ROW_OPTIMIZE : ROW_REMOVE);
        if (row_kept(args, world, row)) {
            const row_result r = {
                bench_median(ns[k], args->runs), bench_median(ratio[k], args->runs), -1, errors, 0, 0, 0};
            print_row(args, world, row, &r);
        }
    }
    free(order);
}

/* A move row on the queries' scene: each run times the unit, then moves
 * every shape to `there` and back to its own place (`passes` times for
 * the small moves, whose pass is short). One untimed pass comes first:
 * after sw_scene_optimize a shape that never moved has a tight leaf box,
 * so its first move, however small, reinserts it with a fat one. */
static void move_row(const bench_mesh_args* args, int world, sw_scene* s, const world_input* in, const sw_shape* there,
                     scene_row row)
{
    const int n = in->count;
    const sw_vec3 zero = sw_v3(0, 0, 0);
    const int passes = row == ROW_MOVE_SMALL ? 10 : 1;
    double ns[64], ratio[64];
    int errors = 0;
    for (int i = 0; i < n; ++i) {
        errors += sw_scene_move(s, i, &there[i], zero, zero) != SW_SCENE_OK;
        errors += sw_scene_move(s, i, &in->shapes[i], zero, zero) != SW_SCENE_OK;
    }
    for (int run = 0; run < args->runs; ++run) {
        const double base = bench_unit_ns();
        const double t0 = bench_now_ns();
        for (int p = 0; p < passes; ++p) {
            for (int i = 0; i < n; ++i) {
                errors += sw_scene_move(s, i, &there[i], zero, zero) != SW_SCENE_OK;
            }
            for (int i = 0; i < n; ++i) {
                errors += sw_scene_move(s, i, &in->shapes[i], zero, zero) != SW_SCENE_OK;
            }
        }
        ns[run] = (bench_now_ns() - t0) / (2.0 * passes * n);
        ratio[run] = ns[run] / base;
    }
    const row_result r = {bench_median(ns, args->runs), bench_median(ratio, args->runs), -1, errors, 0, 0, 0};
    print_row(args, world, row, &r);
}

static void move_rows(const bench_mesh_args* args, int world, sw_scene* s, const wl_world* w, const world_input* in)
{
    const int n = in->count;
    sw_shape* there = malloc(sizeof *there * (size_t)n);
    float* at = malloc(3 * sizeof *at * (size_t)n);
    if (there && at) {
        if (row_kept(args, world, ROW_MOVE_SMALL)) {
            const sw_real step = (sw_real)(SMALL_MOVE / 1.7320508075688772);
            for (int i = 0; i < n; ++i) {
                const sw_vec3 off = sw_v3(i & 1 ? step : -step, i & 2 ? step : -step, i & 4 ? step : -step);
                there[i] = shifted(in->shapes[i], off);
            }
            move_row(args, world, s, in, there, ROW_MOVE_SMALL);
        }
        if (row_kept(args, world, ROW_MOVE_LARGE)) {
            wl_make_world_positions(w, n, at);
            for (int i = 0; i < n; ++i) {
                there[i] = shifted(in->shapes[i], sw_sub(v3f(at + 3 * i), v3f(w->objects[i].center)));
            }
            move_row(args, world, s, in, there, ROW_MOVE_LARGE);
        }
    }
    free(there);
    free(at);
}

/* ---- the rows ----------------------------------------------------------------- */

static void world_rows(const bench_mesh_args* args, int world)
{
    wl_world w;
    world_input in = {0};
    if (wl_make_world(world_objects[world], &w) != 0 || !make_input(&w, &in)) {
        fprintf(stderr, "sweep bench: skipping the scene rows of %d objects: out of memory\n", world_objects[world]);
        wl_world_free(&w);
        return;
    }
    sw_scene* s = make_scene(&in);
    if (s) {
        if (row_kept(args, world, ROW_ADDED)) {
            const row_result x = query_row(args, s, &in, false);
            print_row(args, world, ROW_ADDED, &x);
        }
        sw_scene_optimize(s);
        for (int r = ROW_RAY; r <= ROW_SPHERE; ++r) {
            if (row_kept(args, world, (scene_row)r)) {
                const row_result x = query_row(args, s, &in, r == ROW_SPHERE);
                print_row(args, world, (scene_row)r, &x);
            }
        }
        if (row_kept(args, world, ROW_BATCH1) || row_kept(args, world, ROW_BATCH2)) {
            batch_rows(args, world, s, &in);
        }
        if (row_kept(args, world, ROW_ADD) || row_kept(args, world, ROW_OPTIMIZE) ||
            row_kept(args, world, ROW_REMOVE)) {
            change_rows(args, world, &in);
        }
        /* Last: the moves change the queries' tree. */
        move_rows(args, world, s, &w, &in);
    }
    sw_scene_destroy(s);
    free_input(&in);
    wl_world_free(&w);
}

void bench_scene(const bench_mesh_args* args)
{
    bool any = false;
    for (int world = 0; world < WORLD_COUNT; ++world) {
        for (int r = 0; r < ROW_COUNT; ++r) {
            any = any || row_kept(args, world, (scene_row)r);
        }
    }
    if (!any) {
        return;
    }
    if (!args->json) {
        printf("\nscene rows: worlds of spheres, boxes and capsules (sizes %g-%g, random rotations and axes) at W8's "
               "density, %d in a cube of side %g (the side scaled by the cube root of the count); %d queries per "
               "row from a sphere of radius the side toward the cube, |d| = 2 sides; swept sphere r = %g; each world "
               "added shape by shape, then sw_scene_optimize\n",
               WL_WORLD_SIZE_MIN, WL_WORLD_SIZE_MAX, WL_WORLD_OBJECTS, WL_WORLD_SIDE, WL_DEFAULT_QUERIES,
               WL_WORLD_SWEEP_RADIUS);
    }
    for (int world = 0; world < WORLD_COUNT; ++world) {
        bool kept = false;
        for (int r = 0; r < ROW_COUNT; ++r) {
            kept = kept || row_kept(args, world, (scene_row)r);
        }
        if (kept) {
            world_rows(args, world);
        }
    }
}
