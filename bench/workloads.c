/* The bench's pair, mesh and scene workloads (see workloads.h). Plain C
 * over the public headers only: the peer program compiles it unchanged. */
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meshio.h"

#ifndef SWEEP_BENCH_DATA_DIR
#define SWEEP_BENCH_DATA_DIR "data"
#endif

/* The terrain's noise and the queries' seeds: changing one changes every
 * mesh row's input, so they stay fixed. */
#define WL_TERRAIN_SEED 708u
#define WL_BUNNY_QUERY_SEED 6001u
#define WL_TERRAIN_QUERY_SEED 6002u
#define WL_WORLD_SEED 8001u
#define WL_WORLD_QUERY_SEED 8002u
#define WL_WORLD_MOVE_SEED 8003u

static const char* const mesh_names[WL_MESH_COUNT] = {"bunny", "terrain1k", "terrain10k", "terrain100k", "terrain1m"};
static const int terrain_cells[WL_MESH_COUNT] = {0, 22, 71, 224, 707};

const char* wl_mesh_name(wl_mesh_id id) { return id >= 0 && id < WL_MESH_COUNT ? mesh_names[id] : "?"; }

const char* wl_default_data_dir(void) { return SWEEP_BENCH_DATA_DIR; }

uint64_t wl_query_seed(wl_mesh_id id) { return id == WL_BUNNY ? WL_BUNNY_QUERY_SEED : WL_TERRAIN_QUERY_SEED; }

/* ---- random numbers ------------------------------------------------------- */

/* splitmix64's finaliser: the same numbers on every machine. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t* state)
{
    *state += 0x9E3779B97F4A7C15ull;
    return (double)(mix64(*state) >> 11) / 9007199254740992.0;
}

/* A uniform direction, by rejection from the cube. */
static void unit_vector(uint64_t* state, double u[3])
{
    for (;;) {
        for (int k = 0; k < 3; ++k) {
            u[k] = 2 * uniform(state) - 1;
        }
        const double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        if (len > 0.1 && len <= 1) {
            for (int k = 0; k < 3; ++k) {
                u[k] /= len;
            }
            return;
        }
    }
}

/* ---- meshes --------------------------------------------------------------- */

void wl_mesh_free(wl_mesh* m)
{
    if (m) {
        free(m->v);
        free(m->tri);
        memset(m, 0, sizeof *m);
    }
}

/* Centres pos (3 per vertex, double) on the origin, scales its largest
 * extent to 1, and rounds it into m->v; the bounds are then those of the
 * rounded vertices. */
static void normalise_into(const double* pos, wl_mesh* m)
{
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < m->vertex_count; ++i) {
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], pos[3 * i + k]);
            hi[k] = fmax(hi[k], pos[3 * i + k]);
        }
    }
    double extent = 0, mid[3];
    for (int k = 0; k < 3; ++k) {
        extent = fmax(extent, hi[k] - lo[k]);
        mid[k] = 0.5 * (lo[k] + hi[k]);
    }
    const double scale = extent > 0 ? 1 / extent : 1;
    for (int k = 0; k < 3; ++k) {
        m->lo[k] = HUGE_VALF;
        m->hi[k] = -HUGE_VALF;
    }
    for (int i = 0; i < m->vertex_count; ++i) {
        for (int k = 0; k < 3; ++k) {
            const float x = (float)((pos[3 * i + k] - mid[k]) * scale);
            m->v[3 * i + k] = x;
            m->lo[k] = fminf(m->lo[k], x);
            m->hi[k] = fmaxf(m->hi[k], x);
        }
    }
    for (int k = 0; k < 3; ++k) {
        m->center[k] = 0.5f * (m->lo[k] + m->hi[k]);
    }
}

static int alloc_mesh(wl_mesh* m, int vertex_count, int triangle_count, double** pos)
{
    memset(m, 0, sizeof *m);
    m->vertex_count = vertex_count;
    m->triangle_count = triangle_count;
    m->v = malloc(3 * sizeof(float) * (size_t)vertex_count);
    m->tri = malloc(3 * sizeof(int) * (size_t)triangle_count);
    *pos = malloc(3 * sizeof(double) * (size_t)vertex_count);
    if (!m->v || !m->tri || !*pos) {
        free(*pos);
        wl_mesh_free(m);
        return -1;
    }
    return 0;
}

/* Value noise: random heights at the integer lattice, blended by the
 * smootherstep weight so the field and its slope are continuous. */
static double lattice(uint64_t seed, long i, long j)
{
    const uint64_t h = mix64(seed * 0x9E3779B97F4A7C15ull ^ mix64((uint64_t)i * 0x632BE59BD9B4E019ull + (uint64_t)j));
    return (double)(h >> 11) / 9007199254740992.0;
}

static double smoother(double f) { return f * f * f * (f * (f * 6 - 15) + 10); }

static double value_noise(uint64_t seed, double x, double y)
{
    const double fx = floor(x), fy = floor(y);
    const long i = (long)fx, j = (long)fy;
    const double u = smoother(x - fx), w = smoother(y - fy);
    const double a = lattice(seed, i, j), b = lattice(seed, i + 1, j);
    const double c = lattice(seed, i, j + 1), e = lattice(seed, i + 1, j + 1);
    return (a + (b - a) * u) * (1 - w) + (c + (e - c) * u) * w;
}

/* Height at (x, z) of the unit square: six octaves from 4 cells across,
 * each half the amplitude of the last; the result spans about 0.3, so the
 * terrain has hills and valleys but is mostly flat against its width. */
static double terrain_height(double x, double z)
{
    double h = 0, amp = 0.15, freq = 4;
    for (int o = 0; o < 6; ++o) {
        h += amp * value_noise(WL_TERRAIN_SEED + (uint64_t)o, x * freq, z * freq);
        amp *= 0.5;
        freq *= 2;
    }
    return h;
}

int wl_make_terrain(int cells, wl_mesh* out)
{
    const int side = cells + 1;
    double* pos;
    if (cells < 1 || alloc_mesh(out, side * side, 2 * cells * cells, &pos) != 0) {
        return -1;
    }
    for (int j = 0; j < side; ++j) {
        for (int i = 0; i < side; ++i) {
            const double x = (double)i / cells, z = (double)j / cells;
            double* p = pos + 3 * ((size_t)j * side + i);
            p[0] = x;
            p[1] = terrain_height(x, z);
            p[2] = z;
        }
    }
    /* Row by row, each square split along its (i, j)-(i+1, j+1) diagonal. */
    int* t = out->tri;
    for (int j = 0; j < cells; ++j) {
        for (int i = 0; i < cells; ++i) {
            const int v00 = j * side + i, v10 = v00 + 1, v01 = v00 + side, v11 = v01 + 1;
            const int quad[6] = {v00, v11, v10, v00, v01, v11};
            memcpy(t, quad, sizeof quad);
            t += 6;
        }
    }
    normalise_into(pos, out);
    free(pos);
    return 0;
}

static int load_obj(const char* path, wl_mesh* out, char* err, size_t errlen)
{
    const sw_meshio_data* data;
    if (sw_meshio_load(path, &data, err, errlen) != 0) {
        return -1;
    }
    double* pos;
    if (alloc_mesh(out, data->vertex_count, data->triangle_count, &pos) != 0) {
        snprintf(err, errlen, "'%s': out of memory", path);
        return -1;
    }
    for (int i = 0; i < data->vertex_count; ++i) {
        pos[3 * i] = data->vertices[i].x;
        pos[3 * i + 1] = data->vertices[i].y;
        pos[3 * i + 2] = data->vertices[i].z;
    }
    memcpy(out->tri, data->indices, 3 * sizeof(int) * (size_t)data->triangle_count);
    normalise_into(pos, out);
    free(pos);
    return 0;
}

int wl_make_mesh(wl_mesh_id id, const char* data_dir, wl_mesh* out, char* err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (id == WL_BUNNY) {
        char path[4096];
        snprintf(path, sizeof path, "%s/bunny.obj", data_dir ? data_dir : wl_default_data_dir());
        return load_obj(path, out, err, errlen);
    }
    if (id < 0 || id >= WL_MESH_COUNT) {
        snprintf(err, errlen, "no mesh workload %d", (int)id);
        return -1;
    }
    if (wl_make_terrain(terrain_cells[id], out) != 0) {
        snprintf(err, errlen, "%s: out of memory", mesh_names[id]);
        return -1;
    }
    return 0;
}

/* ---- queries -------------------------------------------------------------- */

void wl_make_queries(const wl_mesh* m, uint64_t seed, int count, wl_query* out)
{
    uint64_t state = seed;
    for (int i = 0; i < count; ++i) {
        double u[3], target[3], d[3], axis[3];
        unit_vector(&state, u);
        for (int k = 0; k < 3; ++k) {
            target[k] = m->lo[k] + (m->hi[k] - m->lo[k]) * uniform(&state);
        }
        unit_vector(&state, axis);
        /* The start is rounded first, so d aims from the float start. */
        double len = 0;
        for (int k = 0; k < 3; ++k) {
            out[i].origin[k] = (float)(m->center[k] + WL_START_RADIUS * u[k]);
            d[k] = target[k] - out[i].origin[k];
            len += d[k] * d[k];
        }
        len = sqrt(len);
        for (int k = 0; k < 3; ++k) {
            out[i].d[k] = (float)(d[k] * (WL_PATH_LENGTH / len));
            out[i].axis[k] = (float)axis[k];
        }
    }
}

/* ---- the scene workload (W8) ---------------------------------------------- */

void wl_world_free(wl_world* w)
{
    if (w) {
        free(w->objects);
        memset(w, 0, sizeof *w);
    }
}

static double size_draw(uint64_t* state)
{
    return WL_WORLD_SIZE_MIN + (WL_WORLD_SIZE_MAX - WL_WORLD_SIZE_MIN) * uniform(state);
}

/* A uniform random rotation: a uniform point of the unit 3-sphere, by
 * rejection from the 4-cube. */
static void unit_quaternion(uint64_t* state, double q[4])
{
    for (;;) {
        double len = 0;
        for (int k = 0; k < 4; ++k) {
            q[k] = 2 * uniform(state) - 1;
            len += q[k] * q[k];
        }
        len = sqrt(len);
        if (len > 0.1 && len <= 1) {
            for (int k = 0; k < 4; ++k) {
                q[k] /= len;
            }
            return;
        }
    }
}

int wl_make_world(int count, wl_world* out)
{
    memset(out, 0, sizeof *out);
    if (count < 1 || !(out->objects = calloc((size_t)count, sizeof *out->objects))) {
        return -1;
    }
    out->count = count;
    out->side = WL_WORLD_SIDE * cbrt((double)count / WL_WORLD_OBJECTS);
    out->path_length = 2 * out->side;
    uint64_t state = WL_WORLD_SEED;
    for (int i = 0; i < count; ++i) {
        wl_object* o = &out->objects[i];
        double c[3];
        for (int k = 0; k < 3; ++k) {
            c[k] = out->side * (uniform(&state) - 0.5);
            o->center[k] = (float)c[k];
        }
        o->type = (wl_object_type)(i % 3);
        if (o->type == WL_OBJECT_SPHERE) {
            o->radius = (float)size_draw(&state);
        } else if (o->type == WL_OBJECT_BOX) {
            double q[4];
            for (int k = 0; k < 3; ++k) {
                o->half[k] = (float)size_draw(&state);
            }
            unit_quaternion(&state, q);
            for (int k = 0; k < 4; ++k) {
                o->rotation[k] = (float)q[k];
            }
        } else {
            double axis[3];
            o->radius = (float)size_draw(&state);
            const double h = size_draw(&state);
            unit_vector(&state, axis);
            for (int k = 0; k < 3; ++k) {
                o->a[k] = (float)(c[k] - h * axis[k]);
                o->b[k] = (float)(c[k] + h * axis[k]);
                o->center[k] = (float)(0.5 * ((double)o->a[k] + (double)o->b[k]));
            }
        }
    }
    return 0;
}

void wl_make_world_queries(const wl_world* w, int count, wl_query* out)
{
    uint64_t state = WL_WORLD_QUERY_SEED;
    for (int i = 0; i < count; ++i) {
        double u[3], target[3], d[3], len = 0;
        unit_vector(&state, u);
        for (int k = 0; k < 3; ++k) {
            target[k] = w->side * (uniform(&state) - 0.5);
        }
        /* The start is rounded first, so d aims from the float start. */
        for (int k = 0; k < 3; ++k) {
            out[i].origin[k] = (float)(w->side * u[k]);
            d[k] = target[k] - out[i].origin[k];
            len += d[k] * d[k];
        }
        len = sqrt(len);
        for (int k = 0; k < 3; ++k) {
            out[i].d[k] = (float)(d[k] * (w->path_length / len));
            out[i].axis[k] = 0;
        }
    }
}

void wl_make_world_positions(const wl_world* w, int count, float* out)
{
    uint64_t state = WL_WORLD_MOVE_SEED;
    for (int i = 0; i < 3 * count; ++i) {
        out[i] = (float)(w->side * (uniform(&state) - 0.5));
    }
}

/* ---- the pair workloads (W1-W5) ------------------------------------------- */

#define WL_PAIR_SEED 1001u /* workload id adds to it */

static const char* const pair_names[WL_PAIR_COUNT] = {"sphere-sphere", "capsule-capsule", "sphere-triangle", "box-box",
                                                      "hull-hull"};

/* Calibrated on the float build so that about 10% of each workload's 4096
 * queries hit: sw_sweep hits 9.9%, 9.8%, 10.0%, 9.9% and 10.2% of them
 * (sweep_peers prints the rate). Without jitter 15%, 20%, 12%, 19%, 14%
 * would. */
static const double pair_jitter[WL_PAIR_COUNT] = {0.45, 0.85, 0.18, 0.72, 0.28};

static const wl_pair_shape_type pair_types[WL_PAIR_COUNT][2] = {{WL_PAIR_SHAPE_SPHERE, WL_PAIR_SHAPE_SPHERE},
                                                                {WL_PAIR_SHAPE_CAPSULE, WL_PAIR_SHAPE_CAPSULE},
                                                                {WL_PAIR_SHAPE_SPHERE, WL_PAIR_SHAPE_TRIANGLE},
                                                                {WL_PAIR_SHAPE_BOX, WL_PAIR_SHAPE_BOX},
                                                                {WL_PAIR_SHAPE_HULL, WL_PAIR_SHAPE_HULL}};

const char* wl_pair_name(wl_pair_id id) { return id >= 0 && id < WL_PAIR_COUNT ? pair_names[id] : "?"; }

double wl_pair_jitter(wl_pair_id id) { return id >= 0 && id < WL_PAIR_COUNT ? pair_jitter[id] : 0; }

static double pair_size(uint64_t* state)
{
    return WL_PAIR_SIZE_MIN + (WL_PAIR_SIZE_MAX - WL_PAIR_SIZE_MIN) * uniform(state);
}

/* A uniform point of the unit ball, by rejection from the cube. */
static void ball_point(uint64_t* state, double p[3])
{
    for (;;) {
        double len = 0;
        for (int k = 0; k < 3; ++k) {
            p[k] = 2 * uniform(state) - 1;
            len += p[k] * p[k];
        }
        if (len <= 1) {
            return;
        }
    }
}

static void pair_shape(uint64_t* state, wl_pair_shape_type type, wl_pair_shape* s)
{
    double c[3];
    memset(s, 0, sizeof *s);
    s->type = type;
    s->rotation[3] = 1;
    for (int k = 0; k < 3; ++k) {
        c[k] = WL_PAIR_CUBE * (uniform(state) - 0.5);
        s->center[k] = (float)c[k];
    }
    const double size = pair_size(state);
    switch (type) {
    case WL_PAIR_SHAPE_SPHERE:
        s->radius = (float)size;
        break;
    case WL_PAIR_SHAPE_CAPSULE: {
        double axis[3];
        const double h = pair_size(state);
        s->radius = (float)size;
        unit_vector(state, axis);
        for (int k = 0; k < 3; ++k) {
            s->a[k] = (float)(c[k] - h * axis[k]);
            s->b[k] = (float)(c[k] + h * axis[k]);
            s->center[k] = (float)(0.5 * ((double)s->a[k] + (double)s->b[k]));
        }
        break;
    }
    case WL_PAIR_SHAPE_TRIANGLE:
        for (int i = 0; i < 3; ++i) {
            double p[3];
            ball_point(state, p);
            for (int k = 0; k < 3; ++k) {
                s->v[i][k] = (float)((double)s->center[k] + size * p[k]);
            }
        }
        break;
    case WL_PAIR_SHAPE_BOX: {
        double q[4];
        s->half[0] = (float)size;
        s->half[1] = (float)pair_size(state);
        s->half[2] = (float)pair_size(state);
        unit_quaternion(state, q);
        for (int k = 0; k < 4; ++k) {
            s->rotation[k] = (float)q[k];
        }
        break;
    }
    case WL_PAIR_SHAPE_HULL:
        for (int i = 0; i < WL_PAIR_HULL_POINTS; ++i) {
            double p[3];
            ball_point(state, p);
            for (int k = 0; k < 3; ++k) {
                s->points[i][k] = (float)(size * p[k]);
            }
        }
        break;
    }
}

void wl_make_pair_queries(wl_pair_id id, int count, wl_pair_query* out)
{
    if (id < 0 || id >= WL_PAIR_COUNT) {
        return;
    }
    uint64_t state = WL_PAIR_SEED + (uint64_t)id;
    const double jitter = pair_jitter[id];
    for (int i = 0; i < count; ++i) {
        wl_pair_query* q = &out[i];
        pair_shape(&state, pair_types[id][0], &q->a);
        pair_shape(&state, pair_types[id][1], &q->b);
        double w[3], u[3], len = 0, ulen = 0;
        ball_point(&state, w);
        const double path = WL_PAIR_PATH_MAX * uniform(&state);
        for (int k = 0; k < 3; ++k) {
            u[k] = (double)q->b.center[k] - (double)q->a.center[k];
            len += u[k] * u[k];
        }
        len = sqrt(len);
        for (int k = 0; k < 3; ++k) {
            u[k] = (len > 0 ? u[k] / len : 0) + jitter * w[k];
            ulen += u[k] * u[k];
        }
        ulen = sqrt(ulen);
        for (int k = 0; k < 3; ++k) {
            q->d[k] = ulen > 0 ? (float)(u[k] * (path / ulen)) : 0.0f;
        }
    }
}
