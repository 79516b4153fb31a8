/* Shared by test_scene.c and test_scene_threads.c: random shapes of every
 * type about a point (hulls and meshes placed from prototypes), a scene
 * with its mirror (the shapes, filters and velocities this side believes it
 * holds), a filter callback, and bitwise comparisons. Static inline, so a
 * file that uses part of it gets no unused-function warnings. */
#ifndef SWEEP_TEST_SCENE_GEN_H
#define SWEEP_TEST_SCENE_GEN_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_support.h"

/* Sanitized and unoptimised builds run a quarter of the random cases. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SLOW_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SLOW_BUILD 1
#endif
#endif
#if !defined(SLOW_BUILD) && !defined(__OPTIMIZE__)
#define SLOW_BUILD 1
#endif
#ifdef SLOW_BUILD
#define SPEED 4
#else
#define SPEED 1
#endif

#define R(x) ((sw_real)(x))

/* ---- prototypes: hulls and meshes every scene places --------------------- */

static sw_hull* hulls[3];
static sw_mesh* meshes[2];

static inline void make_prototypes(void)
{
    if (hulls[0]) {
        return;
    }
    sw_vec3 p[16];
    for (int i = 0; i < 8; ++i) { /* a box 1 x 0.6 x 0.4 */
        p[i] = V((i & 1) ? 0.5 : -0.5, (i & 2) ? 0.3 : -0.3, (i & 4) ? 0.2 : -0.2);
    }
    hulls[0] = sw_hull_create(p, 8, NULL);
    const sw_vec3 tet[4] = {V(0, 0, 0.6), V(0.5, 0, -0.2), V(-0.3, 0.4, -0.2), V(-0.3, -0.4, -0.2)};
    hulls[1] = sw_hull_create(tet, 4, NULL);
    swt_rng r;
    swt_rng_seed(&r, 77);
    for (int i = 0; i < 16; ++i) { /* a random cloud */
        double d[3];
        swt_rng_dir(&r, d);
        const double len = swt_rng_range(&r, 0.3, 0.7);
        p[i] = V(d[0] * len, d[1] * len, d[2] * len);
    }
    hulls[2] = sw_hull_create(p, 16, NULL);
    /* A bumpy 4 x 4 grid over [-1, 1]^2 (18 triangles, flat and real
     * edges) and a closed tetrahedron (4 triangles, outward). */
    sw_vec3 g[16];
    int gi[54], n = 0;
    for (int j = 0; j < 4; ++j) {
        for (int i = 0; i < 4; ++i) {
            g[4 * j + i] = V(-1 + i * 2.0 / 3, -1 + j * 2.0 / 3, (i == 1 && j == 2) ? 0.3 : 0);
        }
    }
    for (int j = 0; j < 3; ++j) {
        for (int i = 0; i < 3; ++i) {
            const int a = 4 * j + i;
            const int q[6] = {a, a + 1, a + 5, a, a + 5, a + 4};
            memcpy(&gi[n], q, sizeof q);
            n += 6;
        }
    }
    meshes[0] = sw_mesh_create(g, 16, gi, 18, NULL);
    static const int ti[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    meshes[1] = sw_mesh_create(tet, 4, ti, 4, NULL);
    for (int i = 0; i < 3; ++i) {
        assert_non_null(hulls[i]);
    }
    assert_non_null(meshes[0]);
    assert_non_null(meshes[1]);
}

/* ---- random shapes -------------------------------------------------------- */

static inline double urand(swt_rng* r, double lo, double hi) { return swt_rng_range(r, lo, hi); }

/* c + a uniform offset in [-h, h]^3, added in double. */
static inline sw_vec3 jitter(swt_rng* r, sw_vec3 c, double h)
{
    return V((double)c.x + urand(r, -h, h), (double)c.y + urand(r, -h, h), (double)c.z + urand(r, -h, h));
}

static inline sw_quat rquat(swt_rng* r)
{
    if (swt_rng_chance(r, 0.15)) {
        return sw_quat_identity();
    }
    /* Not normalised: the library normalises on use. */
    const sw_quat q = {R(urand(r, -1, 1)), R(urand(r, -1, 1)), R(urand(r, -1, 1)), R(urand(r, 0.1, 1))};
    return q;
}

static const sw_shape_type moving_types[6] = {SW_SHAPE_POINT,   SW_SHAPE_SPHERE, SW_SHAPE_SEGMENT,
                                              SW_SHAPE_CAPSULE, SW_SHAPE_BOX,    SW_SHAPE_HULL};
static const sw_shape_type static_types[9] = {SW_SHAPE_POINT,   SW_SHAPE_SEGMENT, SW_SHAPE_SPHERE,
                                              SW_SHAPE_CAPSULE, SW_SHAPE_BOX,     SW_SHAPE_TRIANGLE,
                                              SW_SHAPE_POLYGON, SW_SHAPE_HULL,    SW_SHAPE_MESH};

/* A shape of type t about c, of size about 1 (poly: room for 8 vertices,
 * which must outlive the shape's place in a scene). */
static inline sw_shape make_shape(swt_rng* r, sw_shape_type t, sw_vec3 c, sw_vec3* poly)
{
    const bool degenerate = swt_rng_chance(r, 0.05);
    switch (t) {
    case SW_SHAPE_SEGMENT: {
        const sw_vec3 a = jitter(r, c, 0.6);
        return sw_make_segment(a, degenerate ? a : jitter(r, c, 0.6));
    }
    case SW_SHAPE_SPHERE:
        return sw_make_sphere(c, degenerate ? 0 : R(urand(r, 0.1, 0.7)));
    case SW_SHAPE_CAPSULE:
        return sw_make_capsule(jitter(r, c, 0.5), jitter(r, c, 0.5), R(degenerate ? 0 : urand(r, 0.05, 0.4)));
    case SW_SHAPE_BOX:
        return sw_make_box(c, V(urand(r, 0.05, 0.6), degenerate ? 0 : urand(r, 0.05, 0.6), urand(r, 0.05, 0.6)),
                           rquat(r));
    case SW_SHAPE_TRIANGLE: {
        const sw_vec3 a = jitter(r, c, 0.7), b = jitter(r, c, 0.7);
        const sw_vec3 d = degenerate ? sw_lerp(a, b, R(0.25)) : jitter(r, c, 0.7);
        return sw_make_triangle(a, b, d, swt_rng_chance(r, 0.3));
    }
    case SW_SHAPE_POLYGON:
        for (;;) {
            const int n = 3 + swt_rng_int(r, 6);
            double u[3], w[3], k[3];
            swt_rng_dir(r, u);
            swt_rng_dir(r, k);
            w[0] = u[1] * k[2] - u[2] * k[1];
            w[1] = u[2] * k[0] - u[0] * k[2];
            w[2] = u[0] * k[1] - u[1] * k[0];
            const double wl = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]), rad = urand(r, 0.2, 0.7);
            if (wl < 0.1) {
                continue;
            }
            for (int i = 0; i < n; ++i) {
                const double a = 6.283185307179586 * i / n, ca = rad * cos(a), sa = rad * sin(a) / wl;
                poly[i] = V((double)c.x + ca * u[0] + sa * w[0], (double)c.y + ca * u[1] + sa * w[1],
                            (double)c.z + ca * u[2] + sa * w[2]);
            }
            const sw_shape s = sw_make_polygon(poly, n, swt_rng_chance(r, 0.3));
            if (sw_is_valid_shape(&s)) {
                return s;
            }
        }
    case SW_SHAPE_HULL:
        return sw_make_hull(hulls[swt_rng_int(r, 3)], c, rquat(r));
    case SW_SHAPE_MESH:
        return sw_make_mesh(meshes[swt_rng_int(r, 2)], c, rquat(r), swt_rng_chance(r, 0.3));
    case SW_SHAPE_POINT:
    default:
        return sw_make_point(c);
    }
}

/* ---- the mirror of a scene ------------------------------------------------ */

typedef struct entry {
    bool live;
    int64_t key;
    sw_shape shape;
    uint64_t category, mask;
    sw_vec3 v, w;
    int buf;
    sw_vec3 poly[2][8];
} entry;

typedef struct world {
    sw_scene* scene;
    entry* e;
    int n, cap, live;
    sw_vec3 center;
    double half; /* the region's half extent */
    swt_rng rng;
    sw_scene_hit *exp_hits, *got_hits;
    sw_scene_overlap *exp_ov, *got_ov;
    sw_scene_contact *exp_ct, *got_ct;
} world;

/* Distinct keys spread over the whole signed range: the multiplication by
 * an odd constant is a bijection of 64-bit integers. */
static inline int64_t key_of(uint64_t i) { return (int64_t)(i * 0x9E3779B97F4A7C15ull); }

static const uint64_t bits[4] = {1, 2, 4, (uint64_t)1 << 63};

static inline uint64_t rbits(swt_rng* r)
{
    uint64_t b = bits[swt_rng_int(r, 4)];
    if (swt_rng_chance(r, 0.4)) {
        b |= bits[swt_rng_int(r, 4)];
    }
    return swt_rng_chance(r, 0.3) ? ~(uint64_t)0 : b;
}

static inline void world_init(world* w, int n, int extra, sw_vec3 center, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    make_prototypes();
    w->scene = sw_scene_create();
    assert_non_null(w->scene);
    w->cap = n + extra;
    w->e = calloc((size_t)w->cap, sizeof *w->e);
    const size_t k = (size_t)w->cap + 2;
    w->exp_hits = malloc(k * sizeof *w->exp_hits);
    w->got_hits = malloc(k * sizeof *w->got_hits);
    w->exp_ov = malloc(k * sizeof *w->exp_ov);
    w->got_ov = malloc(k * sizeof *w->got_ov);
    w->exp_ct = malloc(k * sizeof *w->exp_ct);
    w->got_ct = malloc(k * sizeof *w->got_ct);
    assert_true(w->e && w->exp_hits && w->got_hits && w->exp_ov && w->got_ov && w->exp_ct && w->got_ct);
    w->center = center;
    w->half = 0.8 * cbrt((double)n) + 0.8;
    swt_rng_seed(&w->rng, seed);
}

static inline void world_free(world* w)
{
    sw_scene_destroy(w->scene);
    free(w->e);
    free(w->exp_hits);
    free(w->got_hits);
    free(w->exp_ov);
    free(w->got_ov);
    free(w->exp_ct);
    free(w->got_ct);
}

static inline entry* random_live(world* w)
{
    if (w->live == 0) {
        return NULL;
    }
    for (;;) {
        entry* e = &w->e[swt_rng_int(&w->rng, w->n)];
        if (e->live) {
            return e;
        }
    }
}

/* A new random shape for e (in its other vertex buffer). */
static inline sw_shape new_shape_for(world* w, entry* e, sw_shape_type t)
{
    e->buf ^= 1;
    return make_shape(&w->rng, t, jitter(&w->rng, w->center, w->half), e->poly[e->buf]);
}

static inline void add_one(world* w)
{
    if (w->n == w->cap) {
        return;
    }
    entry* e = &w->e[w->n];
    memset(e, 0, sizeof *e);
    e->key = key_of((uint64_t)w->n + 1);
    entry* twin = swt_rng_chance(&w->rng, 0.1) ? random_live(w) : NULL;
    if (twin) { /* the same shape under another key: ties */
        e->shape = twin->shape;
        if (e->shape.type == SW_SHAPE_POLYGON) {
            memcpy(e->poly[0], twin->shape.polygon.v, (size_t)twin->shape.polygon.count * sizeof(sw_vec3));
            e->shape.polygon.v = e->poly[0];
        }
    } else {
        e->shape = new_shape_for(w, e, static_types[swt_rng_int(&w->rng, 9)]);
    }
    e->category = rbits(&w->rng);
    e->mask = rbits(&w->rng);
    assert_int_equal(sw_scene_add(w->scene, e->key, &e->shape, e->category, e->mask, e), SW_SCENE_OK);
    e->live = true;
    w->n++;
    w->live++;
}

static inline sw_vec3 rvel(swt_rng* r)
{
    return swt_rng_chance(r, 0.3) ? V(0, 0, 0) : V(urand(r, -3, 3), urand(r, -3, 3), urand(r, -3, 3));
}

typedef struct cb_ctx {
    int modulus;
    bool count; /* count calls and wrong user pointers (one thread only) */
    long calls, bad_user;
} cb_ctx;

static inline bool cb_filter(void* ctx, int64_t key, void* user)
{
    cb_ctx* c = ctx;
    if (c->count) {
        c->calls++;
        const entry* e = user;
        c->bad_user += !e || e->key != key;
    }
    return ((uint64_t)key >> 11) % (uint64_t)c->modulus != 0;
}

#define SAME(a, b) (memcmp(&(a), &(b), sizeof(a)) == 0)

static inline bool same_hit(const sw_hit* a, const sw_hit* b)
{
    return a->status == b->status && a->hit == b->hit && a->overlapping == b->overlapping && SAME(a->t, b->t) &&
           SAME(a->depth, b->depth) && SAME(a->point, b->point) && SAME(a->normal, b->normal) &&
           a->feature.kind == b->feature.kind && a->feature.index == b->feature.index && a->triangle == b->triangle;
}

/* Every field bit for bit (a whole-struct memcmp would also compare the
 * padding, which no one writes). */
static inline bool identical_hits(const sw_scene_hit* a, const sw_scene_hit* b)
{
    return a->key == b->key && a->user == b->user && same_hit(&a->hit, &b->hit) && SAME(a->velocity, b->velocity) &&
           SAME(a->angular_velocity, b->angular_velocity) && SAME(a->point_velocity, b->point_velocity);
}

static inline bool identical_distances(const sw_scene_distance* a, const sw_scene_distance* b)
{
    return a->key == b->key && a->user == b->user && a->distance.status == b->distance.status &&
           SAME(a->distance.distance, b->distance.distance) && SAME(a->distance.point_a, b->distance.point_a) &&
           SAME(a->distance.point_b, b->distance.point_b);
}

#endif
