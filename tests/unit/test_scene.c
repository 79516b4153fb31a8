/* Scenes (DESIGN.md §2b, sweep/scene.h) against brute force: every query
 * over a scene must be the pair calls (sw_raycast, sw_sweep, sw_overlap,
 * sw_distance) over every shape the filter lets through, combined as the
 * header says. Random scenes of 2 to 10,000 shapes of every type are
 * changed between rounds of queries (adds, removes, moves with velocities,
 * new filters) and mirrored here; each random query is checked in every
 * mode against the mirror:
 * - CLOSEST: the brute-force minimum of (t, key), the hit bit for bit;
 * - ANY: a hit iff brute force has one, and then that key's pair answer;
 * - ALL: exactly the brute-force hits sorted by (t, key), with the count
 *   and the truncation to `capacity` of the header;
 * - overlap_all (sorted by key), closest (ties: lower key; max_distance
 *   inclusive), contacts (distance, or -depth on overlap; unit normal).
 * Hits carry the shape's user pointer and velocities, and point_velocity
 * = v + w x (point - sw_shape_center). The same in scenes 1e4 and 1e6 from
 * the origin. Errors of changes and invalid queries are checked by hand.
 * Batches and threads: test_scene_threads.c. */
#include <stdio.h>

#include "scene_gen.h"

/* Library bugs found here and reported (see KNOWN's uses): a build with
 * -DSCENE_SKIP_KNOWN steps around them to look for others; the default
 * build checks everything. */
#ifdef SCENE_SKIP_KNOWN
#define KNOWN(cond) (cond)
#else
#define KNOWN(cond) false
#endif

/* Random changes, the errors of unknown and duplicate keys among them. */
static void mutate(world* w, int ops)
{
    swt_rng* r = &w->rng;
    for (int i = 0; i < ops; ++i) {
        const int op = swt_rng_int(r, 10);
        entry* e = random_live(w);
        if (op < 3 || !e) {
            add_one(w);
        } else if (op < 5) {
            assert_int_equal(sw_scene_remove(w->scene, e->key), SW_SCENE_OK);
            e->live = false;
            w->live--;
            assert_int_equal(sw_scene_remove(w->scene, e->key), SW_SCENE_UNKNOWN_KEY);
        } else if (op < 8) {
            sw_shape s;
            if (swt_rng_chance(r, 0.5) && e->shape.type == SW_SHAPE_SPHERE) { /* a small step */
                s = e->shape;
                s.sphere.center = jitter(r, s.sphere.center, 0.05);
            } else {
                s = new_shape_for(w, e, static_types[swt_rng_int(r, 9)]);
            }
            const sw_vec3 v = rvel(r), av = rvel(r);
            assert_int_equal(sw_scene_move(w->scene, e->key, &s, v, av), SW_SCENE_OK);
            e->shape = s;
            e->v = v;
            e->w = av;
        } else if (op < 9) {
            e->category = rbits(r);
            e->mask = rbits(r);
            assert_int_equal(sw_scene_set_filter(w->scene, e->key, e->category, e->mask, e), SW_SCENE_OK);
        } else { /* errors change nothing */
            const sw_shape s = sw_make_sphere(V(0, 0, 0), 1);
            assert_int_equal(sw_scene_add(w->scene, e->key, &s, 1, 1, NULL), SW_SCENE_DUPLICATE_KEY);
            const int64_t unknown = key_of((uint64_t)w->cap + 100 + (uint64_t)i);
            assert_int_equal(sw_scene_remove(w->scene, unknown), SW_SCENE_UNKNOWN_KEY);
            assert_int_equal(sw_scene_move(w->scene, unknown, &s, V(0, 0, 0), V(0, 0, 0)), SW_SCENE_UNKNOWN_KEY);
            assert_int_equal(sw_scene_set_filter(w->scene, unknown, 1, 1, NULL), SW_SCENE_UNKNOWN_KEY);
            const sw_shape plane = sw_make_plane(V(0, 0, 1), 0);
            assert_int_equal(sw_scene_move(w->scene, e->key, &plane, V(0, 0, 0), V(0, 0, 0)), SW_SCENE_INVALID_SHAPE);
            assert_int_equal(sw_scene_move(w->scene, e->key, &s, V(NAN, 0, 0), V(0, 0, 0)), SW_SCENE_INVALID_VELOCITY);
        }
    }
    assert_int_equal(sw_scene_count(w->scene), w->live);
    for (int k = 0; k < 8 && w->n > 0; ++k) {
        const entry* x = &w->e[swt_rng_int(r, w->n)];
        const sw_shape* s = sw_scene_shape(w->scene, x->key);
        if (x->live) {
            assert_non_null(s);
            assert_memory_equal(s, &x->shape, sizeof *s);
        } else {
            assert_null(s);
        }
    }
}

/* ---- filters ----------------------------------------------------------------- */

static bool passes(const sw_scene_filter* f, const entry* e)
{
    if (!f) {
        return true;
    }
    if (!(e->category & f->mask) || !(e->mask & f->category)) {
        return false;
    }
    if (!f->fn) {
        return true;
    }
    cb_ctx c = *(const cb_ctx*)f->ctx;
    c.count = false;
    return f->fn(&c, e->key, (void*)e);
}

/* NULL, or a mask/category filter, with a callback one time in three. */
static const sw_scene_filter* rfilter(swt_rng* r, sw_scene_filter* f, cb_ctx* c)
{
    if (swt_rng_chance(r, 0.4)) {
        return NULL;
    }
    f->mask = swt_rng_chance(r, 0.3) ? ~(uint64_t)0 : rbits(r);
    f->category = swt_rng_chance(r, 0.3) ? ~(uint64_t)0 : rbits(r);
    c->modulus = 2 + swt_rng_int(r, 3);
    c->count = true;
    f->fn = swt_rng_chance(r, 0.35) ? cb_filter : NULL;
    f->ctx = c;
    return f;
}

/* ---- comparisons ----------------------------------------------------------------- */

static double mag(sw_vec3 v) { return fmax(fabs((double)v.x), fmax(fabs((double)v.y), fabs((double)v.z))); }

/* v + w x (p - centre), as the header defines it, within rounding. */
static bool point_velocity_ok(sw_vec3 got, sw_vec3 v, sw_vec3 w, sw_vec3 p, sw_vec3 center)
{
    const sw_vec3 want = sw_add(v, sw_cross(w, sw_sub(p, center)));
    const double tol = 16 * SW_EPSILON * (mag(v) + mag(w) * (mag(p) + mag(center))) + 1e-30;
    return mag(sw_sub(got, want)) <= tol;
}

static bool same_scene_hit(const sw_scene_hit* a, const sw_scene_hit* b, const entry* e)
{
    return a->key == b->key && a->user == b->user && same_hit(&a->hit, &b->hit) && SAME(a->velocity, b->velocity) &&
           SAME(a->angular_velocity, b->angular_velocity) &&
           point_velocity_ok(a->point_velocity, e->v, e->w, a->hit.point, sw_shape_center(&e->shape));
}

static bool same_overlap(const sw_scene_overlap* a, const sw_scene_overlap* b)
{
    const sw_overlap_result *x = &a->overlap, *y = &b->overlap;
    return a->key == b->key && a->user == b->user && x->status == y->status && x->overlapping == y->overlapping &&
           SAME(x->depth, y->depth) && SAME(x->normal, y->normal) && SAME(x->point, y->point);
}

/* ---- counters and failure context -------------------------------------------------- */

enum {
    Q_RAY,
    Q_SWEEP,
    Q_OVERLAP = Q_SWEEP + 6,
    Q_CLOSEST = Q_OVERLAP + 6,
    Q_CONTACTS = Q_CLOSEST + 6,
    Q_KINDS = Q_CONTACTS + 6
};
static long cases[Q_KINDS][3];
static long hits_by_type[SW_SHAPE_TYPE_COUNT], overlaps_by_type[SW_SHAPE_TYPE_COUNT];
static long truncations, ties_seen;
static char where[256];

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            print_message("%s\n", where);                                                                              \
            print_message(__VA_ARGS__);                                                                                \
            fail_msg("%s", #cond);                                                                                     \
        }                                                                                                              \
    } while (0)

static const entry* entry_of(const void* user) { return user; }

/* ---- ray casts and sweeps ----------------------------------------------------- */

typedef struct cast {
    const sw_ray* ray; /* or a sweep: */
    const sw_shape* a;
    sw_vec3 d;
    const sw_sweep_options* opt;
} cast;

static int cast_scene(const world* w, const cast* c, sw_hits_mode m, const sw_scene_filter* f, sw_scene_hit* out,
                      int cap)
{
    return c->ray ? sw_scene_raycast(w->scene, c->ray, m, f, out, cap)
                  : sw_scene_sweep(w->scene, c->a, c->d, c->opt, m, f, out, cap);
}

static int hit_order(const void* pa, const void* pb)
{
    const sw_scene_hit *a = pa, *b = pb;
    if (a->hit.t != b->hit.t) {
        return a->hit.t < b->hit.t ? -1 : 1;
    }
    return a->key < b->key ? -1 : (a->key > b->key);
}

static void check_cast(world* w, const cast* c, const sw_scene_filter* f, int kind)
{
    int n = 0;
    for (int i = 0; i < w->n; ++i) {
        const entry* e = &w->e[i];
        if (!e->live || !passes(f, e)) {
            continue;
        }
        const sw_hit h = c->ray ? sw_raycast(c->ray, &e->shape) : sw_sweep(c->a, c->d, &e->shape, c->opt);
        CHECK(h.status == SW_OK, "pair status %d for static %s\n", h.status, sw_shape_type_name(e->shape.type));
        if (h.hit) {
            const sw_scene_hit sh = {
                h,    e->key, (void*)e,
                e->v, e->w,   sw_add(e->v, sw_cross(e->w, sw_sub(h.point, sw_shape_center(&e->shape))))};
            w->exp_hits[n++] = sh;
            hits_by_type[e->shape.type]++;
        }
    }
    qsort(w->exp_hits, (size_t)n, sizeof *w->exp_hits, hit_order);
    ties_seen += n > 1 && w->exp_hits[0].hit.t == w->exp_hits[1].hit.t;
    sw_scene_hit* got = w->got_hits;
    const sw_scene_hit* exp = w->exp_hits;
    /* CLOSEST */
    memset(got, 0xcd, 2 * sizeof *got);
    int r = cast_scene(w, c, SW_HITS_CLOSEST, f, got, 1);
    CHECK(r == (n > 0), "CLOSEST returned %d, brute force has %d hits\n", r, n);
    if (n > 0) {
        CHECK(same_scene_hit(&got[0], &exp[0], entry_of(exp[0].user)),
              "CLOSEST: key %lld t %.9g, brute force key %lld t %.9g\n", (long long)got[0].key, (double)got[0].hit.t,
              (long long)exp[0].key, (double)exp[0].hit.t);
    }
    /* ANY */
    r = cast_scene(w, c, SW_HITS_ANY, f, got, 1);
    CHECK(r == (n > 0), "ANY returned %d, brute force has %d hits\n", r, n);
    if (n > 0) {
        int k = 0;
        while (k < n && exp[k].key != got[0].key) {
            ++k;
        }
        CHECK(k < n && same_scene_hit(&got[0], &exp[k], entry_of(exp[k].user)),
              "ANY: key %lld is not one of brute force's hits, or not its answer\n", (long long)got[0].key);
    }
    /* ALL, whole and truncated */
    r = cast_scene(w, c, SW_HITS_ALL, f, got, n + 1);
    CHECK(r == n, "ALL returned %d, brute force has %d hits\n", r, n);
    for (int k = 0; k < n; ++k) {
        CHECK(same_scene_hit(&got[k], &exp[k], entry_of(exp[k].user)),
              "ALL[%d]: key %lld t %.9g, brute force key %lld t %.9g\n", k, (long long)got[k].key, (double)got[k].hit.t,
              (long long)exp[k].key, (double)exp[k].hit.t);
    }
    const int cap = n > 0 ? swt_rng_int(&w->rng, n) : 0;
    memset(got, 0xcd, (size_t)(cap + 1) * sizeof *got);
    sw_scene_hit canary;
    memset(&canary, 0xcd, sizeof canary);
    r = cast_scene(w, c, SW_HITS_ALL, f, got, cap);
    CHECK(r == n, "ALL with capacity %d returned %d, brute force has %d hits\n", cap, r, n);
    for (int k = 0; k < cap; ++k) {
        CHECK(same_scene_hit(&got[k], &exp[k], entry_of(exp[k].user)), "ALL[%d] of capacity %d differs\n", k, cap);
    }
    CHECK(memcmp(&got[cap], &canary, sizeof canary) == 0, "ALL wrote past its capacity %d\n", cap);
    CHECK(cast_scene(w, c, SW_HITS_ALL, f, NULL, 3) == n, "ALL with no array does not count %d hits\n", n);
    truncations += cap < n;
    for (int m = 0; m < 3; ++m) {
        cases[kind][m]++;
    }
}

/* ---- overlap, closest, contacts ------------------------------------------------ */

static int key_order_ov(const void* pa, const void* pb)
{
    const sw_scene_overlap *a = pa, *b = pb;
    return a->key < b->key ? -1 : (a->key > b->key);
}

static void check_overlap(world* w, const sw_shape* a, const sw_scene_filter* f, int kind)
{
    int n = 0;
    for (int i = 0; i < w->n; ++i) {
        const entry* e = &w->e[i];
        if (e->live && passes(f, e)) {
            const sw_overlap_result o = sw_overlap(a, &e->shape);
            CHECK(o.status == SW_OK, "overlap status %d\n", o.status);
            if (o.overlapping) {
                w->exp_ov[n++] = (sw_scene_overlap){o, e->key, (void*)e};
                overlaps_by_type[e->shape.type]++;
            }
        }
    }
    qsort(w->exp_ov, (size_t)n, sizeof *w->exp_ov, key_order_ov);
    int r = sw_scene_overlap_all(w->scene, a, f, w->got_ov, n + 1);
    CHECK(r == n, "overlap_all returned %d, brute force %d\n", r, n);
    for (int k = 0; k < n; ++k) {
        CHECK(same_overlap(&w->got_ov[k], &w->exp_ov[k]), "overlap_all[%d]: key %lld, brute force %lld\n", k,
              (long long)w->got_ov[k].key, (long long)w->exp_ov[k].key);
    }
    const int cap = n > 0 ? swt_rng_int(&w->rng, n) : 0;
    r = sw_scene_overlap_all(w->scene, a, f, w->got_ov, cap);
    CHECK(r == n, "overlap_all with capacity %d returned %d, brute force %d\n", cap, r, n);
    for (int k = 0; k < cap; ++k) {
        CHECK(same_overlap(&w->got_ov[k], &w->exp_ov[k]), "overlap_all[%d] of capacity %d differs\n", k, cap);
    }
    cases[kind][0]++;
}

static void check_closest(world* w, const sw_shape* a, const sw_scene_filter* f, int kind)
{
    swt_rng* r = &w->rng;
    double limit = swt_rng_chance(r, 0.3) ? -1 : urand(r, 0, w->half / 3);
    const entry* pick = swt_rng_chance(r, 0.2) ? random_live(w) : NULL;
    if (pick) { /* exactly one shape's distance: the limit is inclusive */
        limit = (double)sw_distance(a, &pick->shape).distance;
    }
    const sw_real max_distance = R(limit);
    const entry* best = NULL;
    sw_distance_result bd = {0};
    for (int i = 0; i < w->n; ++i) {
        const entry* e = &w->e[i];
        if (!e->live || !passes(f, e)) {
            continue;
        }
        const sw_distance_result d = sw_distance(a, &e->shape);
        CHECK(d.status == SW_OK, "distance status %d\n", d.status);
        if (max_distance >= 0 && d.distance > max_distance) {
            continue;
        }
        if (!best || d.distance < bd.distance || (d.distance == bd.distance && e->key < best->key)) {
            best = e;
            bd = d;
        }
    }
    sw_scene_distance out;
    memset(&out, 0xcd, sizeof out);
    const int got = sw_scene_closest(w->scene, a, max_distance, f, &out);
    CHECK(got == (best != NULL), "closest returned %d (max %.9g), brute force %d\n", got, (double)max_distance,
          best != NULL);
    if (best) {
        CHECK(out.key == best->key && out.user == best && out.distance.status == bd.status &&
                  SAME(out.distance.distance, bd.distance) && SAME(out.distance.point_a, bd.point_a) &&
                  SAME(out.distance.point_b, bd.point_b),
              "closest: key %lld distance %.9g, brute force key %lld distance %.9g\n", (long long)out.key,
              (double)out.distance.distance, (long long)best->key, (double)bd.distance);
    }
    cases[kind][0]++;
}

static int key_order_ct(const void* pa, const void* pb)
{
    const sw_scene_contact *a = pa, *b = pb;
    return a->key < b->key ? -1 : (a->key > b->key);
}

static void check_contacts(world* w, const sw_shape* a, const sw_scene_filter* f, int kind)
{
    const sw_real margin = R(swt_rng_chance(&w->rng, 0.15) ? 0 : urand(&w->rng, 0, 0.6));
    int n = 0;
    for (int i = 0; i < w->n; ++i) {
        const entry* e = &w->e[i];
        if (!e->live || !passes(f, e)) {
            continue;
        }
        const sw_distance_result d = sw_distance(a, &e->shape);
        if (d.distance > margin) {
            continue;
        }
        sw_scene_contact c = {e->key,     (void*)e, d.distance, d.point_a, d.point_b,
                              V(0, 0, 0), 0,        e->v,       e->w,      V(0, 0, 0)};
        if (d.distance <= 0) {
            const sw_overlap_result o = sw_overlap(a, &e->shape);
            c.distance = o.overlapping ? -o.depth : 0;
            if (o.overlapping) {
                c.normal = o.normal;
                c.point_a = c.point_b = o.point;
            }
        }
        w->exp_ct[n++] = c;
    }
    qsort(w->exp_ct, (size_t)n, sizeof *w->exp_ct, key_order_ct);
    const int r = sw_scene_contacts(w->scene, a, margin, f, w->got_ct, n + 1);
    CHECK(r == n, "contacts returned %d (margin %.9g), brute force %d\n", r, (double)margin, n);
    for (int k = 0; k < n; ++k) {
        const sw_scene_contact *g = &w->got_ct[k], *x = &w->exp_ct[k];
        const entry* e = entry_of(x->user);
        CHECK(g->key == x->key && g->user == x->user && SAME(g->distance, x->distance) &&
                  SAME(g->point_a, x->point_a) && SAME(g->point_b, x->point_b) && SAME(g->velocity, x->velocity) &&
                  SAME(g->angular_velocity, x->angular_velocity),
              "contact %d: key %lld distance %.9g, brute force key %lld distance %.9g\n", k, (long long)g->key,
              (double)g->distance, (long long)x->key, (double)x->distance);
        CHECK(fabs((double)sw_length(g->normal) - 1) <= 10 * SWT_TOL, "contact %d: normal not unit\n", k);
        if (x->distance < 0) {
            CHECK(SAME(g->normal, x->normal), "contact %d: normal is not the overlap's\n", k);
        } else if (x->distance > 0 && sw_length(sw_sub(x->point_a, x->point_b)) > 0) { /* from the shape toward A */
            const sw_vec3 ab = sw_sub(x->point_a, x->point_b);
            const double cosine = (double)sw_dot(ab, g->normal) / (double)sw_length(ab);
            CHECK(cosine >= 1 - 1e-4, "contact %d: normal at cos %.9g to point_a - point_b\n", k, cosine);
        }
        CHECK(point_velocity_ok(g->point_velocity, e->v, e->w, g->point_b, sw_shape_center(&e->shape)),
              "contact %d: point_velocity\n", k);
        /* Known: a one-sided mesh's contact names triangle 0 (the zero-length
         * sweep that picks the triangle ignores the one-sided triangles A
         * starts within). */
        if (e->shape.type == SW_SHAPE_MESH && !KNOWN(e->shape.mesh.one_sided)) {
            sw_vec3 t[3];
            CHECK(sw_mesh_world_triangle(&e->shape.mesh, g->triangle, t), "contact %d: triangle %d\n", k, g->triangle);
            const sw_shape tri = sw_make_triangle(t[0], t[1], t[2], false);
            const double dist = (double)sw_distance(a, &tri).distance;
            CHECK(dist <= (double)margin + 8 * SWT_TOL * (mag(w->center) + 4 * w->half),
                  "contact %d: triangle %d of a %s mesh is %.9g from A, margin %.9g, contact distance %.9g\n", k,
                  g->triangle, e->shape.mesh.one_sided ? "one-sided" : "two-sided", dist, (double)margin,
                  (double)g->distance);
        } else if (e->shape.type != SW_SHAPE_MESH) {
            CHECK(g->triangle == 0, "contact %d: triangle %d of a %s\n", k, g->triangle,
                  sw_shape_type_name(e->shape.type));
        }
    }
    cases[kind][0]++;
}

/* ---- one round of random queries ------------------------------------------------ */

/* Rounds of queries: a ray, then for every `stride`-th moving type (from a
 * random one) a sweep, an overlap, a closest and a contacts query. */
static void random_queries(world* w, int rounds_of_types, int stride)
{
    swt_rng* r = &w->rng;
    for (int q = 0; q < rounds_of_types; ++q) {
        sw_scene_filter fs;
        cb_ctx cc = {0};
        /* A ray. */
        sw_ray ray;
        ray.origin = jitter(r, w->center, 1.2 * w->half);
        double dir[3];
        swt_rng_dir(r, dir);
        const double len = swt_rng_log_range(r, 0.05, 5);
        ray.dir = swt_rng_chance(r, 0.04) ? V(0, 0, 0) : V(dir[0] * len, dir[1] * len, dir[2] * len);
        if (swt_rng_chance(r, 0.1)) {
            ray.dir.y = 0;
            ray.dir.z = swt_rng_chance(r, 0.5) ? 0 : ray.dir.z;
        }
        ray.max = R(swt_rng_chance(r, 0.04) ? 0 : urand(r, 0, 2.5 * w->half / len));
        const cast rc = {&ray, NULL, V(0, 0, 0), NULL};
        snprintf(where, sizeof where, "ray cast: scene of %d shapes", w->live);
        const sw_scene_filter* f = rfilter(r, &fs, &cc);
        check_cast(w, &rc, f, Q_RAY);
        for (int t = swt_rng_int(r, stride); t < 6; t += stride) {
            sw_vec3 poly[8];
            const entry* at = swt_rng_chance(r, 0.2) ? random_live(w) : NULL;
            const sw_vec3 c = at ? sw_shape_center(&at->shape) : jitter(r, w->center, 1.2 * w->half);
            const sw_shape a = make_shape(r, moving_types[t], c, poly);
            swt_rng_dir(r, dir);
            const double dl = swt_rng_chance(r, 0.04) ? 0 : urand(r, 0, 2.5 * w->half);
            sw_vec3 d = V(dir[0] * dl, dir[1] * dl, dir[2] * dl);
            if (swt_rng_chance(r, 0.1)) {
                d.x = 0;
                d.y = swt_rng_chance(r, 0.5) ? 0 : d.y;
            }
            sw_sweep_options o = {0};
            const int ok = swt_rng_int(r, 4);
            o.skin = R(ok & 1 ? urand(r, 0.001, 0.3) : 0);
            o.ignore_separating = ok & 2;
            const cast sc = {NULL, &a, d, ok == 0 && swt_rng_chance(r, 0.5) ? NULL : &o};
            snprintf(where, sizeof where, "sweep of a %s (skin %g%s): scene of %d shapes", sw_shape_type_name(a.type),
                     (double)o.skin, o.ignore_separating ? ", ignore_separating" : "", w->live);
            f = rfilter(r, &fs, &cc);
            check_cast(w, &sc, f, Q_SWEEP + t);
            snprintf(where, sizeof where, "overlap/closest/contacts of a %s: scene of %d shapes",
                     sw_shape_type_name(a.type), w->live);
            check_overlap(w, &a, rfilter(r, &fs, &cc), Q_OVERLAP + t);
            check_closest(w, &a, rfilter(r, &fs, &cc), Q_CLOSEST + t);
            check_contacts(w, &a, rfilter(r, &fs, &cc), Q_CONTACTS + t);
        }
        CHECK(cc.bad_user == 0, "the filter callback was given %ld wrong user pointers\n", cc.bad_user);
    }
}

/* Scenes of n shapes, changed between rounds of queries. */
static void run_worlds(sw_vec3 center, const int (*plan)[4], int plans, uint64_t seed)
{
    for (int p = 0; p < plans; ++p) {
        const int n = plan[p][0], rounds = plan[p][1], queries = plan[p][2], stride = plan[p][3];
        world w;
        world_init(&w, n, n / 4 + 64, center, swt_mix(seed, (uint64_t)n));
        for (int i = 0; i < n; ++i) {
            add_one(&w);
        }
        for (int round = 0; round < rounds; ++round) {
            mutate(&w, 2 + swt_rng_int(&w.rng, n / 8 + 4));
            random_queries(&w, queries, stride);
        }
        world_free(&w);
    }
}

static void print_cases(const char* title)
{
    static const char* q[5] = {"raycast", "sweep", "overlap_all", "closest", "contacts"};
    print_message("%s (%s): random cases (ray casts and sweeps each in CLOSEST, ANY and ALL)\n", title, sw_precision());
    print_message("  raycast %ld\n", cases[Q_RAY][0]);
    for (int k = 1; k < 5; ++k) {
        print_message("  %s:", q[k]);
        for (int t = 0; t < 6; ++t) {
            print_message(" %s %ld", sw_shape_type_name(moving_types[t]), cases[1 + 6 * (k - 1) + t][0]);
        }
        print_message("\n");
    }
    print_message("  hits (ALL) by static type:");
    for (int t = 0; t < 9; ++t) {
        print_message(" %s %ld", sw_shape_type_name(static_types[t]), hits_by_type[static_types[t]]);
    }
    print_message("\n  overlaps by static type:");
    for (int t = 0; t < 9; ++t) {
        print_message(" %s %ld", sw_shape_type_name(static_types[t]), overlaps_by_type[static_types[t]]);
    }
    print_message("\n  first-hit ties in t: %ld; truncated ALL arrays: %ld\n", ties_seen, truncations);
    memset(cases, 0, sizeof cases);
    memset(hits_by_type, 0, sizeof hits_by_type);
    memset(overlaps_by_type, 0, sizeof overlaps_by_type);
    ties_seen = truncations = 0;
}

static void test_random_scenes(void** state)
{
    (void)state;
    /* Shapes, rounds (changes, then queries), rounds of query types in
     * each, stride over the moving types. */
    static const int plan[][4] = {{2, 64 / SPEED, 2, 1},   {3, 48 / SPEED, 2, 1},           {5, 32 / SPEED, 2, 1},
                                  {10, 24 / SPEED, 2, 1},  {40, 16 / SPEED, 2, 1},          {200, 8 / SPEED, 2, 1},
                                  {1000, 6 / SPEED, 1, 1}, {10000, 1, 1, SPEED > 1 ? 6 : 1}};
    run_worlds(V(0, 0, 0), plan, (int)(sizeof plan / sizeof plan[0]), 1);
    print_cases("scenes of 2 to 10,000 shapes about the origin");
}

static void test_far_scenes(void** state)
{
    (void)state;
    static const int plan[][4] = {{3, 24 / SPEED, 2, 1}, {60, 8 / SPEED, 2, 1}, {400, 1 + 3 / SPEED, 1, 1}};
    run_worlds(V(1e4, -0.7e4, 0.3e4), plan, 3, 2);
    print_cases("scenes 1e4 from the origin");
    run_worlds(V(-0.4e6, 1e6, 0.8e6), plan, 3, 3);
    print_cases("scenes 1e6 from the origin");
}

/* ---- hand-made cases: ties, velocities, errors, invalid queries ------------------- */

static void test_ties_and_velocities(void** state)
{
    (void)state;
    sw_scene* s = sw_scene_create();
    const sw_shape ball = sw_make_sphere(V(5, 0, 0), 1);
    int u1, u2;
    assert_int_equal(sw_scene_add(s, 7, &ball, 1, 1, &u1), SW_SCENE_OK);
    assert_int_equal(sw_scene_add(s, -3, &ball, 1, 1, &u2), SW_SCENE_OK);
    const sw_ray ray = {V(0, 0, 0), V(1, 0, 0), 10};
    sw_scene_hit h[3];
    assert_int_equal(sw_scene_raycast(s, &ray, SW_HITS_CLOSEST, NULL, h, 1), 1);
    assert_int_equal(h[0].key, -3); /* the tie goes to the lower key */
    assert_ptr_equal(h[0].user, &u2);
    assert_near(4, h[0].hit.t, 4 * SWT_TOL);
    assert_int_equal(sw_scene_raycast(s, &ray, SW_HITS_ALL, NULL, h, 3), 2);
    assert_int_equal(h[0].key, -3);
    assert_int_equal(h[1].key, 7);
    /* A moved shape reports its velocities; the centre of a box is its
     * position: the hit at (3.5, 0, 0), w = (0, 0, 2) about (4.5, 0, 0):
     * v + w x (p - c) = (1, 0, 0) + (0, 0, 2) x (-1, 0, 0) = (1, -2, 0). */
    const sw_shape box = sw_make_box(V(4.5, 0, 0), V(1, 1, 1), sw_quat_identity());
    assert_int_equal(sw_scene_move(s, -3, &box, V(1, 0, 0), V(0, 0, 2)), SW_SCENE_OK);
    assert_int_equal(sw_scene_raycast(s, &ray, SW_HITS_CLOSEST, NULL, h, 1), 1);
    assert_int_equal(h[0].key, -3);
    assert_vec_near(V(1, 0, 0), h[0].velocity, 0);
    assert_vec_near(V(0, 0, 2), h[0].angular_velocity, 0);
    assert_vec_near(V(1, -2, 0), h[0].point_velocity, 4 * SWT_TOL);
    /* sw_shape_center of every type. */
    make_prototypes();
    const sw_vec3 sq[4] = {V(0, 0, 0), V(2, 0, 0), V(2, 2, 0), V(0, 2, 0)};
    const sw_shape shapes[] = {sw_make_point(V(1, 2, 3)),
                               sw_make_segment(V(0, 0, 0), V(2, 4, 6)),
                               sw_make_capsule(V(0, 0, 0), V(2, 4, 6), 1),
                               sw_make_triangle(V(0, 0, 0), V(3, 0, 0), V(0, 6, 9), false),
                               sw_make_polygon(sq, 4, false),
                               sw_make_hull(hulls[0], V(1, 2, 3), sw_quat_identity()),
                               sw_make_mesh(meshes[0], V(1, 2, 3), sw_quat_identity(), false)};
    const sw_vec3 centers[] = {V(1, 2, 3), V(1, 2, 3), V(1, 2, 3), V(1, 2, 3), V(1, 1, 0), V(1, 2, 3), V(1, 2, 3)};
    for (int i = 0; i < 7; ++i) {
        assert_vec_near(centers[i], sw_shape_center(&shapes[i]), 4 * SWT_TOL);
    }
    sw_scene_destroy(s);
    sw_scene_destroy(NULL);
}

/* The smallest reproductions of what the random tests found. */
static void test_found(void** state)
{
    (void)state;
    /* A one-sided mesh's contact names the triangle nearest A, also when
     * A lies behind it (found: triangle 0). */
    const sw_vec3 v[4] = {V(0, 0, 0), V(1, 0, 0), V(2, 0, 0), V(1, 1, 0)};
    const int idx[6] = {0, 1, 3, 1, 2, 3};
    sw_mesh* m = sw_mesh_create(v, 4, idx, 2, NULL);
    assert_non_null(m);
    const sw_shape ball = sw_make_sphere(V(1.6, 0.2, -0.3), 0.1);
    for (int one_sided = 0; one_sided < 2; ++one_sided) {
        sw_scene* s = sw_scene_create();
        const sw_shape mesh = sw_make_mesh(m, V(0, 0, 0), sw_quat_identity(), one_sided);
        assert_int_equal(sw_scene_add(s, 1, &mesh, 1, 1, NULL), SW_SCENE_OK);
        sw_scene_contact c;
        assert_int_equal(sw_scene_contacts(s, &ball, R(0.5), NULL, &c, 1), 1);
        assert_near(0.2, c.distance, 4 * SWT_TOL);
        if (!KNOWN(one_sided)) {
            assert_int_equal(c.triangle, 1);
        }
        sw_scene_destroy(s);
    }
    sw_mesh_destroy(m);
    /* A pair hit in the grazing band of DESIGN.md §3 (float: the ray starts
     * 0.012 from a segment 1e4 long, within tol * scale = 0.1) is the
     * scene's hit too; the tree, whose boxes are not grown by the pairs'
     * tolerance, skipped the segment (found: no hit). */
    const sw_shape seg = sw_make_segment(V(10002, -1, 0), V(0, 0, 0));
    const sw_ray ray = {V(-0.001, -0.001, 0.012), V(1, 1, 1), 5};
    const sw_hit pair = sw_raycast(&ray, &seg);
    sw_scene* s = sw_scene_create();
    assert_int_equal(sw_scene_add(s, 1, &seg, 1, 1, NULL), SW_SCENE_OK);
    sw_scene_hit h;
    const int n = sw_scene_raycast(s, &ray, SW_HITS_CLOSEST, NULL, &h, 1);
    if (!KNOWN(pair.hit)) {
        assert_int_equal(n, pair.hit);
    }
    sw_scene_destroy(s);

    /* A box whose quaternion has only subnormal components (a valid
     * rotation: 90 degrees about y) has finite bounds, and a scene's ray
     * finds it (found, double: 1 / |q|'s largest component overflowed, the
     * bounds were NaN and the tree lost the box). */
#ifdef SWEEP_DOUBLE
    const sw_real tiny = nextafter(0.0, 1.0);
#else
    const sw_real tiny = nextafterf(0.0f, 1.0f);
#endif
    const sw_quat q = {0, tiny, 0, tiny};
    const sw_shape box = sw_make_box(V(5, 0, 0), V(1, 2, 3), q);
    assert_true(sw_is_valid_shape(&box));
    const sw_aabb b = sw_shape_bounds(&box);
    assert_near(5 - 3, b.min.x, SWT_TOL);
    assert_near(2, b.max.y, SWT_TOL);
    assert_near(-1, b.min.z, SWT_TOL);
    s = sw_scene_create();
    assert_int_equal(sw_scene_add(s, 7, &box, 1, 1, NULL), SW_SCENE_OK);
    const sw_ray along_x = {V(0, 0, 0), V(1, 0, 0), 10};
    assert_int_equal(sw_scene_raycast(s, &along_x, SW_HITS_CLOSEST, NULL, &h, 1), 1);
    assert_int_equal(h.key, 7);
    assert_near(2, h.hit.t, SWT_TOL);
    sw_scene_destroy(s);
}

static void test_errors(void** state)
{
    (void)state;
    make_prototypes();
    sw_scene* s = sw_scene_create();
    const sw_shape ball = sw_make_sphere(V(0, 0, 0), 1);
    assert_int_equal(sw_scene_add(s, 1, &ball, 1, 1, NULL), SW_SCENE_OK);
    const sw_vec3 bent[4] = {V(0, 0, 0), V(1, 0, 0), V(0.2, 0.2, 0), V(0, 1, 0)}; /* not convex */
    sw_shape bad[10];
    bad[0] = sw_make_plane(V(0, 0, 1), 0);
    bad[1] = sw_make_sphere(V(0, 0, 0), -1);
    bad[2] = sw_make_sphere(V(NAN, 0, 0), 1);
    bad[3] = sw_make_box(V(0, 0, 0), V(1, 1, 1), (sw_quat){0, 0, 0, 0});
    bad[4] = sw_make_polygon(bent, 4, false);
    bad[5] = sw_make_polygon(bent, 2, false);
    bad[6] = sw_make_hull(NULL, V(0, 0, 0), sw_quat_identity());
    bad[7] = sw_make_mesh(NULL, V(0, 0, 0), sw_quat_identity(), false);
    bad[8] = sw_make_capsule(V(0, 0, 0), V(SW_MAX_COORD * 2, 0, 0), 1);
    bad[9] = ball;
    bad[9].type = (sw_shape_type)99;
    for (int i = 0; i < 10; ++i) {
        assert_int_equal(sw_scene_add(s, 2, &bad[i], 1, 1, NULL), SW_SCENE_INVALID_SHAPE);
        assert_int_equal(sw_scene_move(s, 1, &bad[i], V(0, 0, 0), V(0, 0, 0)), SW_SCENE_INVALID_SHAPE);
    }
    assert_int_equal(sw_scene_add(s, 1, NULL, 1, 1, NULL), SW_SCENE_INVALID_SHAPE);
    assert_int_equal(sw_scene_move(s, 1, NULL, V(0, 0, 0), V(0, 0, 0)), SW_SCENE_INVALID_SHAPE);
    assert_int_equal(sw_scene_move(s, 1, &ball, V(0, 0, 0), V(0, INFINITY, 0)), SW_SCENE_INVALID_VELOCITY);
    assert_int_equal(sw_scene_move(s, 1, &ball, V(SW_MAX_COORD * 2, 0, 0), V(0, 0, 0)), SW_SCENE_INVALID_VELOCITY);
    assert_int_equal(sw_scene_add(s, 1, &ball, 1, 1, NULL), SW_SCENE_DUPLICATE_KEY);
    assert_int_equal(sw_scene_remove(s, 2), SW_SCENE_UNKNOWN_KEY);
    assert_int_equal(sw_scene_move(s, 2, &ball, V(0, 0, 0), V(0, 0, 0)), SW_SCENE_UNKNOWN_KEY);
    assert_int_equal(sw_scene_set_filter(s, 2, 1, 1, NULL), SW_SCENE_UNKNOWN_KEY);
    /* Nothing changed: one shape, the ball, with no velocity. */
    assert_int_equal(sw_scene_count(s), 1);
    assert_memory_equal(sw_scene_shape(s, 1), &ball, sizeof ball);
    assert_null(sw_scene_shape(s, 2));
    const sw_ray ray = {V(-5, 0, 0), V(1, 0, 0), 10};
    sw_scene_hit h;
    assert_int_equal(sw_scene_raycast(s, &ray, SW_HITS_CLOSEST, NULL, &h, 1), 1);
    assert_int_equal(h.key, 1);
    assert_vec_near(V(0, 0, 0), h.velocity, 0);
    /* A removed key can be added again. */
    assert_int_equal(sw_scene_remove(s, 1), SW_SCENE_OK);
    assert_int_equal(sw_scene_count(s), 0);
    assert_int_equal(sw_scene_raycast(s, &ray, SW_HITS_ALL, NULL, &h, 1), 0);
    assert_int_equal(sw_scene_add(s, 1, &ball, 1, 1, NULL), SW_SCENE_OK);
    for (int e = SW_SCENE_OK; e <= SW_SCENE_OUT_OF_MEMORY; ++e) {
        assert_non_null(sw_scene_error_string((sw_scene_error)e));
    }
    assert_string_equal(sw_scene_error_string((sw_scene_error)99), "unknown scene error");

    /* Invalid queries: -1 and the assert handler. */
    const sw_ray bad_rays[3] = {
        {V(0, 0, 0), V(1, 0, 0), -1}, {V(NAN, 0, 0), V(1, 0, 0), 1}, {V(0, 0, 0), V(1, 0, 0), INFINITY}};
    const sw_sweep_options neg = {-1, false};
    const sw_shape plane = bad[0], mesh = sw_make_mesh(meshes[0], V(0, 0, 0), sw_quat_identity(), false);
    sw_scene_overlap o;
    sw_scene_distance dist;
    sw_scene_contact c;
    const sw_vec3 d = V(1, 0, 0);
    int count;
#define INVALID(call)                                                                                                  \
    do {                                                                                                               \
        swt_reset_asserts();                                                                                           \
        assert_int_equal((call), -1);                                                                                  \
        assert_handler_called();                                                                                       \
    } while (0)
    for (int i = 0; i < 3; ++i) {
        INVALID(sw_scene_raycast(s, &bad_rays[i], SW_HITS_CLOSEST, NULL, &h, 1));
    }
    INVALID(sw_scene_raycast(NULL, &ray, SW_HITS_CLOSEST, NULL, &h, 1));
    INVALID(sw_scene_raycast(s, NULL, SW_HITS_CLOSEST, NULL, &h, 1));
    INVALID(sw_scene_raycast(s, &ray, (sw_hits_mode)3, NULL, &h, 1));
    INVALID(sw_scene_raycast(s, &ray, SW_HITS_ALL, NULL, &h, -1));
    for (int i = 1; i < 10; ++i) {
        INVALID(sw_scene_sweep(s, &bad[i], d, NULL, SW_HITS_CLOSEST, NULL, &h, 1));
        INVALID(sw_scene_overlap_all(s, &bad[i], NULL, &o, 1));
        INVALID(sw_scene_closest(s, &bad[i], -1, NULL, &dist));
        INVALID(sw_scene_contacts(s, &bad[i], 0, NULL, &c, 1));
    }
    const sw_shape* not_moving[3] = {&plane, &mesh, NULL};
    for (int i = 0; i < 3; ++i) {
        INVALID(sw_scene_sweep(s, not_moving[i], d, NULL, SW_HITS_CLOSEST, NULL, &h, 1));
        INVALID(sw_scene_overlap_all(s, not_moving[i], NULL, &o, 1));
        INVALID(sw_scene_closest(s, not_moving[i], -1, NULL, &dist));
        INVALID(sw_scene_contacts(s, not_moving[i], 0, NULL, &c, 1));
    }
    INVALID(sw_scene_sweep(NULL, &ball, d, NULL, SW_HITS_CLOSEST, NULL, &h, 1));
    INVALID(sw_scene_sweep(s, &ball, V(NAN, 0, 0), NULL, SW_HITS_CLOSEST, NULL, &h, 1));
    INVALID(sw_scene_sweep(s, &ball, d, &neg, SW_HITS_CLOSEST, NULL, &h, 1));
    INVALID(sw_scene_sweep(s, &ball, d, NULL, (sw_hits_mode)-1, NULL, &h, 1));
    INVALID(sw_scene_sweep(s, &ball, d, NULL, SW_HITS_ANY, NULL, &h, -2));
    INVALID(sw_scene_overlap_all(NULL, &ball, NULL, &o, 1));
    INVALID(sw_scene_overlap_all(s, &ball, NULL, &o, -1));
    INVALID(sw_scene_closest(NULL, &ball, -1, NULL, &dist));
    INVALID(sw_scene_closest(s, &ball, -1, NULL, NULL));
    INVALID(sw_scene_closest(s, &ball, R(NAN), NULL, &dist));
    INVALID(sw_scene_contacts(NULL, &ball, 0, NULL, &c, 1));
    INVALID(sw_scene_contacts(s, &ball, -1, NULL, &c, 1));
    INVALID(sw_scene_contacts(s, &ball, R(NAN), NULL, &c, 1));
    INVALID(sw_scene_contacts(s, &ball, R(INFINITY), NULL, &c, 1));
    INVALID(sw_scene_contacts(s, &ball, 0, NULL, &c, -1));
    INVALID(sw_scene_raycast_batch(s, &ray, 1, SW_HITS_ALL, NULL, &h, &count, 1));
    INVALID(sw_scene_raycast_batch(NULL, &ray, 1, SW_HITS_CLOSEST, NULL, &h, &count, 1));
    INVALID(sw_scene_raycast_batch(s, NULL, 1, SW_HITS_CLOSEST, NULL, &h, &count, 1));
    INVALID(sw_scene_raycast_batch(s, &ray, -1, SW_HITS_CLOSEST, NULL, &h, &count, 1));
    INVALID(sw_scene_sweep_batch(s, &ball, &d, 1, NULL, SW_HITS_ALL, NULL, &h, &count, 2));
    INVALID(sw_scene_sweep_batch(s, &ball, &d, 1, NULL, SW_HITS_ANY, NULL, NULL, &count, 2));
    /* An invalid query inside a batch: -1 in its place, the others answered. */
    const sw_ray two[2] = {bad_rays[0], ray};
    sw_scene_hit hh[2];
    int counts[2];
    swt_reset_asserts();
    assert_int_equal(sw_scene_raycast_batch(s, two, 2, SW_HITS_CLOSEST, NULL, hh, counts, 1), 0);
    assert_handler_called();
    assert_int_equal(counts[0], -1);
    assert_int_equal(counts[1], 1);
    assert_int_equal(hh[1].key, 1);
    assert_int_equal(sw_scene_raycast_batch(s, NULL, 0, SW_HITS_CLOSEST, NULL, NULL, NULL, 4), 0);
    sw_scene_destroy(s);
}

int main(void)
{
    swt_install_assert_recorder();
    swt_trap_fp();
    const struct CMUnitTest tests[] = {
        swt_test(test_ties_and_velocities), swt_test(test_found),      swt_test(test_errors),
        swt_test(test_random_scenes),       swt_test(test_far_scenes),
    };
    return cmocka_run_group_tests_name("scene", tests, NULL, NULL);
}
