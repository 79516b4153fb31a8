/* The mesh rows of `sweep bench`: building the bunny and the terrains, and
 * the workloads W6 (rays) and W7 (sphere and capsule sweeps) on
 * them, with the terrains' rows from 1k to 1M triangles giving the growth.
 * Meshes and queries come from workloads.c, as in the peer comparison
 * (bench/peers), so the two programs time the same input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "workloads.h"

typedef enum mesh_op { MESH_BUILD, MESH_RAY, MESH_SPHERE, MESH_CAPSULE, MESH_OP_COUNT } mesh_op;

/* Which queries each mesh gets: all three on the bunny and the 1M
 * terrain (the workloads), rays and spheres on the smaller
 * terrains (the growth). */
static bool mesh_has_op(wl_mesh_id id, mesh_op op)
{
    return op != MESH_CAPSULE || id == WL_BUNNY || id == WL_TERRAIN_1M;
}

static const char* const op_a[MESH_OP_COUNT] = {"build", "point", "sphere", "capsule"};

static void row_name(char* name, size_t size, wl_mesh_id id, mesh_op op)
{
    snprintf(name, size, "%s-mesh-%s", op_a[op], wl_mesh_name(id));
}

static bool row_kept(const bench_mesh_args* args, wl_mesh_id id, mesh_op op)
{
    char name[64];
    row_name(name, sizeof name, id, op);
    return mesh_has_op(id, op) && (!args->filter || strstr(name, args->filter));
}

/* ---- the queries, as the library takes them ------------------------------- */

typedef struct mesh_queries {
    sw_ray* rays;
    sw_shape* spheres;
    sw_shape* capsules;
    sw_vec3* d;
    int count;
} mesh_queries;

static sw_vec3 v3f(const float* p) { return sw_v3((sw_real)p[0], (sw_real)p[1], (sw_real)p[2]); }

static bool make_queries(const wl_mesh* m, uint64_t seed, int count, mesh_queries* q)
{
    wl_query* w = malloc(sizeof *w * (size_t)count);
    q->rays = malloc(sizeof *q->rays * (size_t)count);
    q->spheres = malloc(sizeof *q->spheres * (size_t)count);
    q->capsules = malloc(sizeof *q->capsules * (size_t)count);
    q->d = malloc(sizeof *q->d * (size_t)count);
    q->count = count;
    if (!w || !q->rays || !q->spheres || !q->capsules || !q->d) {
        free(w);
        return false;
    }
    wl_make_queries(m, seed, count, w);
    for (int i = 0; i < count; ++i) {
        const sw_vec3 o = v3f(w[i].origin), d = v3f(w[i].d), axis = v3f(w[i].axis);
        q->rays[i] = (sw_ray){o, d, 1};
        q->d[i] = d;
        q->spheres[i] = sw_make_sphere(o, (sw_real)WL_SPHERE_RADIUS);
        q->capsules[i] = sw_make_capsule(sw_madd(o, -(sw_real)WL_CAPSULE_HALF, axis),
                                         sw_madd(o, (sw_real)WL_CAPSULE_HALF, axis), (sw_real)WL_CAPSULE_RADIUS);
    }
    free(w);
    return true;
}

static void free_queries(mesh_queries* q)
{
    free(q->rays);
    free(q->spheres);
    free(q->capsules);
    free(q->d);
    memset(q, 0, sizeof *q);
}

/* ---- timing --------------------------------------------------------------- */

static volatile sw_real sink;

typedef struct batch_result {
    int hits;
    int errors; /* answers with a status other than SW_OK */
} batch_result;

static batch_result run_batch(mesh_op op, const mesh_queries* q, const sw_shape* mesh)
{
    batch_result r = {0, 0};
    sw_real acc = 0;
    for (int i = 0; i < q->count; ++i) {
        const sw_hit h = op == MESH_RAY      ? sw_raycast(&q->rays[i], mesh)
                         : op == MESH_SPHERE ? sw_sweep(&q->spheres[i], q->d[i], mesh, NULL)
                                             : sw_sweep(&q->capsules[i], q->d[i], mesh, NULL);
        r.hits += h.hit;
        r.errors += h.status != SW_OK;
        acc += h.t;
    }
    sink = acc;
    return r;
}

static double time_batch(mesh_op op, const mesh_queries* q, const sw_shape* mesh, int reps)
{
    const double t0 = bench_now_ns();
    for (int rep = 0; rep < reps; ++rep) {
        run_batch(op, q, mesh);
    }
    return (bench_now_ns() - t0) / ((double)reps * q->count);
}

/* The first batch (untimed) gives the hit rate, warms the caches and sets
 * the repetitions of a batch to about 5 ms; each run then times the
 * sphere-sphere unit and the batch back to back, as the pairs' rows do. */
static void query_row(const bench_mesh_args* args, wl_mesh_id id, mesh_op op, const mesh_queries* q,
                      const sw_shape* mesh, int triangles)
{
    const double t0 = bench_now_ns();
    const batch_result first = run_batch(op, q, mesh);
    const double batch = bench_now_ns() - t0;
    const int reps = batch > 5e6 ? 1 : (batch * 40 < 5e6 ? 40 : (int)(5e6 / batch) + 1);
    double ns[64], ratio[64];
    for (int k = 0; k < args->runs; ++k) {
        const double base = bench_unit_ns();
        ns[k] = time_batch(op, q, mesh, reps);
        ratio[k] = ns[k] / base;
    }
    const double ns_med = bench_median(ns, args->runs), ratio_med = bench_median(ratio, args->runs);
    const double hit_rate = first.hits / (double)q->count;
    const char* op_name = op == MESH_RAY ? "raycast" : "sweep";
    if (args->json) {
        printf("{\"op\":\"%s\",\"a\":\"%s\",\"b\":\"mesh\",\"mesh\":\"%s\",\"triangles\":%d,\"ns\":%.2f,\"ratio\":%.3f,"
               "\"runs\":%d,\"hit_rate\":%.3f,\"queries\":%d",
               op_name, op_a[op], wl_mesh_name(id), triangles, ns_med, ratio_med, args->runs, hit_rate, q->count);
        if (first.errors) {
            printf(",\"errors\":%d", first.errors);
        }
        printf("}\n");
    } else {
        printf("%-9s %-8s %-9s %9.1f %8.2fx %9.2f  %s, %d triangles", op_name, op == MESH_RAY ? "ray" : op_a[op],
               "mesh", ns_med, ratio_med, hit_rate, wl_mesh_name(id), triangles);
        if (first.errors) {
            printf("  %d answers not ok", first.errors);
        }
        printf("\n");
    }
    fflush(stdout);
}

static sw_mesh* build(const wl_mesh* m, sw_vec3* v, sw_mesh_error* error)
{
    for (int i = 0; i < m->vertex_count; ++i) {
        v[i] = v3f(m->v + 3 * i);
    }
    return sw_mesh_create(v, m->vertex_count, m->tri, m->triangle_count, error);
}

/* Builds the mesh `samples` times (the conversion of its vertices to
 * sw_vec3 included, as a caller with float data would do it), keeps the
 * last build and prints the build row when asked. NULL on failure. */
static sw_mesh* build_row(const bench_mesh_args* args, wl_mesh_id id, const wl_mesh* m, bool print)
{
    sw_vec3* v = malloc(sizeof *v * (size_t)m->vertex_count);
    if (!v) {
        return NULL;
    }
    /* A build takes about 0.5 s at 1M triangles: three are enough there. */
    const int samples = !print ? 1 : (m->triangle_count > 200000 && args->runs > 3 ? 3 : args->runs);
    double ms[64];
    sw_mesh* mesh = NULL;
    sw_mesh_error error = SW_MESH_OK;
    for (int k = 0; k < samples; ++k) {
        sw_mesh_destroy(mesh);
        const double t0 = bench_now_ns();
        mesh = build(m, v, &error);
        ms[k] = (bench_now_ns() - t0) * 1e-6;
        if (!mesh) {
            break;
        }
    }
    free(v);
    if (!mesh) {
        fprintf(stderr, "sweep bench: %s: %s\n", wl_mesh_name(id), sw_mesh_error_string(error));
        return NULL;
    }
    if (!print) {
        return mesh;
    }
    const double ms_med = bench_median(ms, samples);
    const sw_mesh_info info = sw_mesh_get_info(mesh);
    const double per_tri = (double)info.bytes / info.triangle_count;
    if (args->json) {
        printf(
            "{\"op\":\"build\",\"a\":\"-\",\"b\":\"mesh\",\"mesh\":\"%s\",\"triangles\":%d,\"vertices\":%d,\"ms\":%.3f,"
            "\"ns_per_triangle\":%.1f,\"bytes\":%zu,\"bytes_per_triangle\":%.1f,\"nodes\":%d,\"depth\":%d,"
            "\"flat_edges\":%d,\"runs\":%d}\n",
            wl_mesh_name(id), info.triangle_count, info.vertex_count, ms_med, ms_med * 1e6 / info.triangle_count,
            info.bytes, per_tri, info.node_count, info.depth, info.flat_edges, samples);
    } else {
        printf("%-9s %-8s %-9s %9.1f %9s %9s  %s, %d triangles in %.2f ms (ns column: per triangle), %.1f "
               "bytes/triangle, %d nodes, depth %d\n",
               "build", "-", "mesh", ms_med * 1e6 / info.triangle_count, "-", "-", wl_mesh_name(id),
               info.triangle_count, ms_med, per_tri, info.node_count, info.depth);
    }
    fflush(stdout);
    return mesh;
}

/* Mesh by mesh: each is made, built and queried, then freed, so at most
 * one is held at a time; a mesh none of whose rows the filter keeps is
 * not made at all (the 1M terrain costs about a second). */
void bench_mesh(const bench_mesh_args* args)
{
    bool any_row = false;
    for (int id = 0; id < WL_MESH_COUNT; ++id) {
        for (int op = 0; op < MESH_OP_COUNT; ++op) {
            any_row = any_row || row_kept(args, (wl_mesh_id)id, (mesh_op)op);
        }
    }
    if (any_row && !args->json) {
        printf("\nmesh rows: %d queries per row, from a sphere of radius %g around the mesh toward its bounds, "
               "|d| = %g; sphere r = %g, capsule r = %g half-length %g\n",
               WL_DEFAULT_QUERIES, WL_START_RADIUS, WL_PATH_LENGTH, WL_SPHERE_RADIUS, WL_CAPSULE_RADIUS,
               WL_CAPSULE_HALF);
    }
    for (int id = 0; id < WL_MESH_COUNT; ++id) {
        bool any = false;
        for (int op = 0; op < MESH_OP_COUNT; ++op) {
            any = any || row_kept(args, (wl_mesh_id)id, (mesh_op)op);
        }
        if (!any) {
            continue;
        }
        wl_mesh m;
        char err[512];
        if (wl_make_mesh((wl_mesh_id)id, args->data_dir, &m, err, sizeof err) != 0) {
            fprintf(stderr, "sweep bench: skipping the %s rows: %s\n", wl_mesh_name((wl_mesh_id)id), err);
            continue;
        }
        sw_mesh* mesh = build_row(args, (wl_mesh_id)id, &m, row_kept(args, (wl_mesh_id)id, MESH_BUILD));
        mesh_queries q = {0};
        if (mesh && make_queries(&m, wl_query_seed((wl_mesh_id)id), WL_DEFAULT_QUERIES, &q)) {
            const sw_shape shape = sw_make_mesh(mesh, sw_v3(0, 0, 0), sw_quat_identity(), false);
            for (int op = MESH_RAY; op < MESH_OP_COUNT; ++op) {
                if (row_kept(args, (wl_mesh_id)id, (mesh_op)op)) {
                    query_row(args, (wl_mesh_id)id, (mesh_op)op, &q, &shape, m.triangle_count);
                }
            }
        }
        free_queries(&q);
        sw_mesh_destroy(mesh);
        wl_mesh_free(&m);
    }
}
