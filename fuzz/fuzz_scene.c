/* Fuzz target: scenes (sweep/scene.h). The input is a program of scene
 * changes and queries: adds, removes, moves (with velocities) and filter
 * changes under keys from a small table (duplicates and unknown keys are
 * frequent; the extremes of int64 among them), shapes of every type
 * (meshes and hulls from prototypes built once, placed by decoded poses;
 * planes, out-of-range types and invalid numbers, which a scene must
 * refuse), and ray casts, sweeps, overlap_all, closest and contacts with
 * decoded filters. A mirror of the scene is kept here, and every answer is
 * checked against brute force over the shapes it holds, with the pair
 * calls (sw_raycast, sw_sweep, sw_overlap, sw_distance) that each scene
 * hit is by definition:
 * - every change returns the error the mirror predicts and, on an error,
 *   changes nothing (count, stored shapes);
 * - CLOSEST: the lowest (t, key) of the pair hits, bit for bit; ANY: a hit
 *   iff there is one, and then that key's pair answer; ALL: the pair hits
 *   in (t, key) order, the count, and the first `capacity` kept;
 * - overlap_all and contacts: the shapes overlapping (within the margin)
 *   in key order; closest: the lowest (distance, key) within the limit;
 * - velocities, user pointers, and a one-query batch equal to the call;
 * - invalid queries return -1 and reach the assert handler.
 *
 * Input: header; then until the input ends (at most MAX_OPS), an op byte
 * and its operands: a key byte (an index into `keys`), a shape (a type
 * byte, then fz_shape_of's fields, or a prototype byte and a pose for
 * hulls and meshes), filter bytes, velocities, and for a query its kind,
 * the ray or A (with d and options), a limit or margin, filter and
 * capacity bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define SLOTS 12
#define MAX_OPS 40

static const int64_t keys[SLOTS] = {0, 1, -1, 2, 7, -7, 1000, INT64_MAX, INT64_MIN, INT64_MIN + 1, 42, -42};

typedef struct slot {
    bool live;
    sw_shape shape;
    uint64_t category, mask;
    sw_vec3 v, w;
    int buf;
    sw_vec3 poly[2][SW_MAX_POLYGON_VERTICES + 1];
} slot;

static struct {
    sw_scene* scene;
    slot s[SLOTS];
    int live;
    int op;
    const char* what;
    sw_shape a; /* the query's A (or the shape of a change) */
    sw_vec3 a_poly[SW_MAX_POLYGON_VERTICES + 1];
    sw_vec3 d;
    sw_sweep_options opt_storage;
    const sw_sweep_options* opt;
    sw_ray ray;
} cur;

static sw_hull* hulls[2];
static sw_mesh* meshes[2];
static int asserts;

static void count_asserts(const char* what, const char* file, int line)
{
    (void)what;
    (void)file;
    (void)line;
    ++asserts;
}

static void print_shape(FILE* out, const char* name, const sw_shape* s)
{
    if (s->type == SW_SHAPE_MESH) {
        fprintf(out, "  %s = mesh %d%s\n", name,
                s->mesh.mesh == meshes[0]   ? 0
                : s->mesh.mesh == meshes[1] ? 1
                                            : -1,
                s->mesh.one_sided ? " (one-sided)" : "");
        fz_print_vec3(out, "  position", s->mesh.position);
        fprintf(out, "    rotation = %.9g %.9g %.9g %.9g\n", (double)s->mesh.rotation.x, (double)s->mesh.rotation.y,
                (double)s->mesh.rotation.z, (double)s->mesh.rotation.w);
    } else {
        fz_print_shape(out, name, s);
    }
}

static void describe(FILE* out)
{
    fprintf(out, "  at op %d (%s); the scene holds:\n", cur.op, cur.what ? cur.what : "?");
    for (int i = 0; i < SLOTS; ++i) {
        if (cur.s[i].live) {
            char name[48];
            snprintf(name, sizeof name, "key %lld", (long long)keys[i]);
            print_shape(out, name, &cur.s[i].shape);
            fz_print_vec3(out, "  v", cur.s[i].v);
            fz_print_vec3(out, "  w", cur.s[i].w);
        }
    }
    fprintf(out, "  the query (or change):\n");
    print_shape(out, "a", &cur.a);
    fz_print_vec3(out, "d", cur.d);
    fz_print_options(out, cur.opt);
    fz_print_vec3(out, "ray.origin", cur.ray.origin);
    fz_print_vec3(out, "ray.dir", cur.ray.dir);
    fz_print_real(out, "ray.max", cur.ray.max);
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    (void)argc;
    (void)argv;
    fz_init(describe);
    sw_set_assert_handler(count_asserts);
    sw_vec3 p[8];
    for (int i = 0; i < 8; ++i) {
        p[i] = sw_v3((i & 1) ? 1 : -1, (i & 2) ? SW_R(0.5) : SW_R(-0.5), (i & 4) ? 2 : 0);
    }
    hulls[0] = sw_hull_create(p, 8, NULL);
    const sw_vec3 tet[4] = {{0, 0, 1}, {1, 0, 0}, {-1, 1, 0}, {-1, -1, 0}};
    hulls[1] = sw_hull_create(tet, 4, NULL);
    const sw_vec3 grid[9] = {{-1, -1, 0}, {0, -1, 0}, {1, -1, 0}, {-1, 0, 0}, {0, 0, 1},
                             {1, 0, 0},   {-1, 1, 0}, {0, 1, 0},  {1, 1, 0}};
    const int gi[24] = {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3, 4, 7, 3, 7, 6, 4, 5, 8, 4, 8, 7};
    meshes[0] = sw_mesh_create(grid, 9, gi, 8, NULL);
    static const int ti[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    meshes[1] = sw_mesh_create(tet, 4, ti, 4, NULL);
    if (!hulls[0] || !hulls[1] || !meshes[0] || !meshes[1]) {
        fprintf(stderr, "fuzz_scene: the prototypes could not be built\n");
        abort();
    }
    return 0;
}

/* ---- decoding --------------------------------------------------------------- */

/* A shape of any type (planes and an out-of-range type included); polygon
 * vertices go to poly (SW_MAX_POLYGON_VERTICES + 1 of them). */
static sw_shape decode_shape(fz_in* in, sw_vec3* poly, bool moving)
{
    static const sw_shape_type moving_types[6] = {SW_SHAPE_POINT,   SW_SHAPE_SPHERE, SW_SHAPE_SEGMENT,
                                                  SW_SHAPE_CAPSULE, SW_SHAPE_BOX,    SW_SHAPE_HULL};
    const uint8_t b = fz_byte(in);
    sw_shape_type t = (sw_shape_type)(b % (SW_SHAPE_TYPE_COUNT + 1));
    if (moving && (b & 0x80) == 0) {
        t = moving_types[b % 6]; /* mostly a shape that can move */
    }
    sw_shape s;
    memset(&s, 0, sizeof s);
    if (t == SW_SHAPE_TYPE_COUNT) {
        s.type = (sw_shape_type)1000;
        return s;
    }
    if (t == SW_SHAPE_HULL || t == SW_SHAPE_MESH) {
        const uint8_t k = fz_byte(in);
        const sw_vec3 pos = fz_vec3(in);
        const sw_quat q = fz_quat(in);
        if (t == SW_SHAPE_HULL) {
            return sw_make_hull((k & 7) == 7 ? NULL : hulls[k & 1], pos, q);
        }
        return sw_make_mesh((k & 7) == 7 ? NULL : meshes[k & 1], pos, q, (k & 8) != 0);
    }
    s = fz_shape_of(in, t);
    if (t == SW_SHAPE_POLYGON && s.polygon.v) {
        memcpy(poly, s.polygon.v, sizeof(sw_vec3) * (SW_MAX_POLYGON_VERTICES + 1));
        s.polygon.v = poly;
    }
    return s;
}

static const uint64_t bit_table[4] = {1, 2, 4, (uint64_t)1 << 63};

static uint64_t decode_bits(uint8_t b)
{
    if (b == 0xff) {
        return ~(uint64_t)0;
    }
    uint64_t r = 0;
    for (int i = 0; i < 4; ++i) {
        r |= (b >> i) & 1 ? bit_table[i] : 0;
    }
    return r;
}

static bool by_key(void* ctx, int64_t key, void* user)
{
    const uint8_t rule = *(const uint8_t*)ctx;
    int i = 0;
    while (i < SLOTS && keys[i] != key) {
        ++i;
    }
    FZ_CHECK(i < SLOTS && user == &cur.s[i], "the filter callback got key %lld with another shape's user pointer",
             (long long)key);
    return (((uint64_t)key >> (rule & 3)) & 1) == (uint64_t)((rule >> 2) & 1);
}

static uint8_t filter_rule;

static const sw_scene_filter* decode_filter(fz_in* in, sw_scene_filter* f)
{
    const uint8_t b = fz_byte(in);
    if (b & 1) {
        return NULL;
    }
    f->mask = decode_bits(fz_byte(in));
    f->category = decode_bits(fz_byte(in));
    f->fn = (b & 2) ? by_key : NULL;
    filter_rule = b >> 2;
    f->ctx = &filter_rule;
    return f;
}

static bool passes(const sw_scene_filter* f, int i)
{
    const slot* x = &cur.s[i];
    if (!f) {
        return true;
    }
    if (!(x->category & f->mask) || !(x->mask & f->category)) {
        return false;
    }
    return !f->fn || f->fn(f->ctx, keys[i], (void*)x);
}

/* ---- comparisons -------------------------------------------------------------- */

#define SAME(a, b) (memcmp(&(a), &(b), sizeof(a)) == 0)

static bool same_hit(const sw_hit* a, const sw_hit* b)
{
    return a->status == b->status && a->hit == b->hit && a->overlapping == b->overlapping && SAME(a->t, b->t) &&
           SAME(a->depth, b->depth) && SAME(a->point, b->point) && SAME(a->normal, b->normal) &&
           a->feature.kind == b->feature.kind && a->feature.index == b->feature.index && a->triangle == b->triangle;
}

static long double mag(sw_vec3 v) { return fmaxl(fabsl(v.x), fmaxl(fabsl(v.y), fabsl(v.z))); }

/* point_velocity = v + w x (p - centre), within rounding (skipped where it
 * overflows). */
static void check_velocities(const sw_scene_hit* h, int i)
{
    const slot* x = &cur.s[i];
    FZ_CHECK(h->key == keys[i] && h->user == x, "hit for key %lld carries key %lld or another user pointer",
             (long long)keys[i], (long long)h->key);
    FZ_CHECK(SAME(h->velocity, x->v) && SAME(h->angular_velocity, x->w), "key %lld: velocities not the moved ones",
             (long long)keys[i]);
    const sw_vec3 c = sw_shape_center(&x->shape);
    const sw_vec3 want = sw_add(x->v, sw_cross(x->w, sw_sub(h->hit.point, c)));
    const long double scale = mag(x->v) + mag(x->w) * (mag(h->hit.point) + mag(c));
    if (isfinite(scale) && mag(want) < 1e30L) {
        FZ_CHECK(mag(sw_sub(h->point_velocity, want)) <= 16 * SW_EPSILON * scale + 1e-30L,
                 "key %lld: point_velocity off v + w x (point - centre)", (long long)keys[i]);
    }
}

/* ---- the known finding: pair hits before the bounds meet ------------------------ *
 * A pair call may report a contact within §3's grazing band (tol * scale)
 * before A's bounds (grown by the skin or margin; for a ray, its origin)
 * meet the shape's along the path, or where they never do. The scene's
 * tree then skips the shape, or prunes it behind an earlier hit, so its
 * answer lacks the pair's hit (README.md, open/). The default build accepts
 * an answer that misses only such hits, or, for closest, shapes whose pair
 * distance is below their boxes' gap. */

typedef struct lbox {
    long double lo[3], hi[3];
} lbox;

static long double comp(sw_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

static lbox shape_box(const sw_shape* s, long double grow)
{
    const sw_aabb b = sw_shape_bounds(s);
    lbox r;
    for (int k = 0; k < 3; ++k) {
        r.lo[k] = comp(b.min, k) - grow;
        r.hi[k] = comp(b.max, k) + grow;
    }
    return r;
}

static long double box_gap(const lbox* a, const lbox* b)
{
    long double g2 = 0;
    for (int k = 0; k < 3; ++k) {
        const long double g = fmaxl(a->lo[k] - b->hi[k], b->lo[k] - a->hi[k]);
        g2 += g > 0 ? g * g : 0;
    }
    return sqrtl(g2);
}

/* The current query's reach: a box moving by reach_d over [0, 1]. */
static lbox reach;
static sw_vec3 reach_d;

/* Whether the moving box first meets shape i's bounds after time s (the
 * slab test), or never: a pair hit at s is then earlier than the shape's
 * box allows. */
static bool beyond(int i, long double s)
{
    const lbox b = shape_box(&cur.s[i].shape, 0);
    long double s0 = 0, s1 = 1;
    for (int k = 0; k < 3; ++k) {
        const long double lo = b.lo[k] - reach.hi[k], hi = b.hi[k] - reach.lo[k], d = comp(reach_d, k);
        if (d == 0) {
            if (lo > 0 || hi < 0) {
                return true;
            }
            continue;
        }
        s0 = fmaxl(s0, fminl(lo / d, hi / d));
        s1 = fminl(s1, fmaxl(lo / d, hi / d));
    }
    return s0 > s1 || s0 > s;
}

static void set_reach(const sw_shape* a, sw_vec3 d, long double grow)
{
    reach = shape_box(a, grow);
    reach_d = d;
}

/* ---- queries ---------------------------------------------------------------------- */

typedef struct pair_hit {
    sw_hit h;
    int i;
} pair_hit;

static bool earlier(const pair_hit* a, const pair_hit* b)
{
    return a->h.t < b->h.t || (a->h.t == b->h.t && keys[a->i] < keys[b->i]);
}

static int cast(bool ray, sw_hits_mode m, const sw_scene_filter* f, sw_scene_hit* out, int cap)
{
    return ray ? sw_scene_raycast(cur.scene, &cur.ray, m, f, out, cap)
               : sw_scene_sweep(cur.scene, &cur.a, cur.d, cur.opt, m, f, out, cap);
}

static bool a_ok(void)
{
    return sw_is_valid_shape(&cur.a) && cur.a.type != SW_SHAPE_PLANE && cur.a.type != SW_SHAPE_MESH;
}

static void check_invalid(int r, const char* what)
{
    FZ_CHECK(r == -1, "an invalid %s answered %d", what, r);
    FZ_CHECK(asserts > 0, "an invalid %s did not reach the assert handler", what);
}

/* Whether the answer's first m entries (of `total` in all) are the
 * expected list's n (entry j of shape shape_of[j]; same(k, j) compares
 * them) with nothing dropped (strict), or with only entries of shapes
 * beyond the reach dropped. */
typedef bool match_fn(int got_index, int exp_index);

static bool list_matches(int m, int total, int n, const int* shape_of, const long double* s_of, match_fn* same,
                         bool strict)
{
    int j = 0, dropped = 0;
    for (int k = 0; k < m; ++k, ++j) {
        while (j < n && !same(k, j)) {
            if (strict || !beyond(shape_of[j], s_of ? s_of[j] : 0)) {
                return false;
            }
            ++j;
            ++dropped;
        }
        if (j == n) {
            return false;
        }
    }
    int droppable = 0;
    for (int r = j; r < n; ++r) {
        droppable += beyond(shape_of[r], s_of ? s_of[r] : 0);
    }
    return strict ? total == n : total <= n - dropped && total >= n - dropped - droppable;
}

static sw_scene_hit hits_out[SLOTS + 1];
static pair_hit hits_exp[SLOTS];
static int hits_shape[SLOTS];
static long double hits_s[SLOTS]; /* the hit's time in units of the path */

static bool same_cast(int k, int j)
{
    return hits_out[k].key == keys[hits_exp[j].i] && same_hit(&hits_out[k].hit, &hits_exp[j].h);
}

static void check_cast(bool ray, const sw_scene_filter* f, uint8_t cap_byte)
{
    const bool valid = ray ? sw_is_valid_ray(&cur.ray)
                           : a_ok() && sw_is_valid_vec3(cur.d) && (!cur.opt || sw_is_valid_sweep_options(cur.opt));
    sw_scene_hit* out = hits_out;
    pair_hit* exp = hits_exp;
    if (!valid) {
        for (int m = 0; m < 3; ++m) {
            asserts = 0;
            check_invalid(cast(ray, (sw_hits_mode)m, f, out, SLOTS), ray ? "ray cast" : "sweep");
        }
        return;
    }
    if (ray) {
        const sw_shape o = sw_make_point(cur.ray.origin);
        set_reach(&o, sw_scale(cur.ray.dir, cur.ray.max), 0);
    } else {
        set_reach(&cur.a, cur.d, cur.opt ? cur.opt->skin : 0);
    }
    int n = 0;
    for (int i = 0; i < SLOTS; ++i) {
        if (!cur.s[i].live || !passes(f, i)) {
            continue;
        }
        const sw_hit h =
            ray ? sw_raycast(&cur.ray, &cur.s[i].shape) : sw_sweep(&cur.a, cur.d, &cur.s[i].shape, cur.opt);
        if (h.status == SW_OK && h.hit) {
            pair_hit x = {h, i};
            int at = n++;
            while (at > 0 && earlier(&x, &exp[at - 1])) {
                exp[at] = exp[at - 1];
                --at;
            }
            exp[at] = x;
        }
    }
    for (int k = 0; k < n; ++k) {
        hits_shape[k] = exp[k].i;
        hits_s[k] = !ray ? exp[k].h.t : (cur.ray.max > 0 ? (long double)exp[k].h.t / cur.ray.max : 0);
    }
    asserts = 0;
    /* CLOSEST: the first of the list (a list of one). */
    int r = cast(ray, SW_HITS_CLOSEST, f, out, 1);
    FZ_CHECK(r == (n > 0) && (n == 0 || same_cast(0, 0)),
             "CLOSEST returned %d (key %lld at t %.9g); the pairs' first of %d is key %lld at t %.9g", r,
             r > 0 ? (long long)out[0].key : 0LL, r > 0 ? (double)out[0].hit.t : 0.0, n,
             n > 0 ? (long long)keys[exp[0].i] : 0LL, n > 0 ? (double)exp[0].h.t : 0.0);
    if (r == 1) {
        int k = 0;
        while (!same_cast(0, k)) {
            ++k;
        }
        check_velocities(&out[0], exp[k].i);
        /* A batch of one, on this thread: the same answer. */
        sw_scene_hit b;
        int bn = -2;
        const int br =
            ray ? sw_scene_raycast_batch(cur.scene, &cur.ray, 1, SW_HITS_CLOSEST, f, &b, &bn, 1)
                : sw_scene_sweep_batch(cur.scene, &cur.a, &cur.d, 1, cur.opt, SW_HITS_CLOSEST, f, &b, &bn, 1);
        FZ_CHECK(br == 0 && bn == 1 && b.key == out[0].key && same_hit(&b.hit, &out[0].hit) &&
                     SAME(b.point_velocity, out[0].point_velocity),
                 "a batch of one differs from the call");
    }
    /* ANY: some pair hit, or none when no pair hits. */
    r = cast(ray, SW_HITS_ANY, f, out, 1);
    int k = 0;
    while (r == 1 && k < n && !same_cast(0, k)) {
        ++k;
    }
    FZ_CHECK((r == 1 && k < n) || (r == 0 && n == 0), "ANY returned %d (key %lld), not one of the pairs' %d hits", r,
             r > 0 ? (long long)out[0].key : 0LL, n);
    if (r == 1) {
        check_velocities(&out[0], exp[k].i);
    }
    /* ALL, the first `cap` kept. */
    const int cap = cap_byte % (n + 2);
    r = cast(ray, SW_HITS_ALL, f, out, cap);
    const int m = r < cap ? r : cap;
    FZ_CHECK(
        list_matches(m, r, n, hits_shape, hits_s, same_cast, true),
        "ALL returned %d (capacity %d): first key %lld at t %.9g; the pairs' %d hits start with key %lld at t %.9g", r,
        cap, m > 0 ? (long long)out[0].key : 0LL, m > 0 ? (double)out[0].hit.t : 0.0, n,
        n > 0 ? (long long)keys[exp[0].i] : 0LL, n > 0 ? (double)exp[0].h.t : 0.0);
    for (int j = 0; j < m; ++j) {
        int e = 0;
        while (!same_cast(j, e)) {
            ++e;
        }
        check_velocities(&out[j], exp[e].i);
    }
    /* Known (open/, a pair's finding): a sweep whose path leaves the valid
     * range (hull against hull with a skin) builds an invalid capsule on it
     * and reaches the assert handler. */
    bool leaves = false;
    if (!ray) {
        const lbox b = shape_box(&cur.a, 0);
        for (int k2 = 0; k2 < 3; ++k2) {
            leaves |=
                fabsl(b.lo[k2] + comp(cur.d, k2)) > SW_MAX_COORD || fabsl(b.hi[k2] + comp(cur.d, k2)) > SW_MAX_COORD;
        }
    }
    (void)leaves; /* unused in strict builds */
    FZ_CHECK(asserts == 0 || FZ_KNOWN(leaves), "a valid query reached the assert handler");
}

/* overlap_all and contacts: lists in key order. */
static int sorted_shape[SLOTS];
static sw_scene_overlap ov_out[SLOTS + 1];
static sw_overlap_result ov_exp[SLOTS];
static sw_scene_contact ct_out[SLOTS + 1];
static sw_distance_result ct_exp[SLOTS];

static bool same_overlap(int k, int j)
{
    const sw_overlap_result *g = &ov_out[k].overlap, *x = &ov_exp[j];
    return ov_out[k].key == keys[sorted_shape[j]] && ov_out[k].user == &cur.s[sorted_shape[j]] &&
           g->status == x->status && g->overlapping == x->overlapping && SAME(g->depth, x->depth) &&
           SAME(g->normal, x->normal) && SAME(g->point, x->point);
}

static bool same_contact(int k, int j)
{
    const sw_scene_contact* c = &ct_out[k];
    const slot* x = &cur.s[sorted_shape[j]];
    if (c->key != keys[sorted_shape[j]] || c->user != x || !SAME(c->velocity, x->v) ||
        !SAME(c->angular_velocity, x->w)) {
        return false;
    }
    if (ct_exp[j].distance > 0) {
        return SAME(c->distance, ct_exp[j].distance) && SAME(c->point_a, ct_exp[j].point_a) &&
               SAME(c->point_b, ct_exp[j].point_b);
    }
    const sw_overlap_result o = sw_overlap(&cur.a, &x->shape);
    const sw_real want = o.overlapping ? -o.depth : 0;
    return SAME(c->distance, want) && (!o.overlapping || SAME(c->normal, o.normal));
}

/* Inserts shape i (with its result at slot `at` of the caller's arrays) in
 * key order; returns its place. */
static int insert_by_key(int n, int i)
{
    int at = n;
    while (at > 0 && keys[i] < keys[sorted_shape[at - 1]]) {
        sorted_shape[at] = sorted_shape[at - 1];
        ov_exp[at] = ov_exp[at - 1];
        ct_exp[at] = ct_exp[at - 1];
        --at;
    }
    sorted_shape[at] = i;
    return at;
}

static void check_overlap(const sw_scene_filter* f, uint8_t cap_byte)
{
    if (!a_ok()) {
        asserts = 0;
        check_invalid(sw_scene_overlap_all(cur.scene, &cur.a, f, ov_out, SLOTS), "overlap_all");
        return;
    }
    set_reach(&cur.a, sw_v3(0, 0, 0), 0);
    int n = 0;
    for (int i = 0; i < SLOTS; ++i) {
        if (cur.s[i].live && passes(f, i)) {
            const sw_overlap_result o = sw_overlap(&cur.a, &cur.s[i].shape);
            if (o.status == SW_OK && o.overlapping) {
                ov_exp[insert_by_key(n++, i)] = o;
            }
        }
    }
    const int cap = cap_byte % (n + 2);
    const int r = sw_scene_overlap_all(cur.scene, &cur.a, f, ov_out, cap);
    const int m = r < cap ? r : cap;
    FZ_CHECK(list_matches(m, r, n, sorted_shape, NULL, same_overlap, true) ||
                 FZ_KNOWN(list_matches(m, r, n, sorted_shape, NULL, same_overlap, false)),
             "overlap_all returned %d (capacity %d), first key %lld; %d pairs overlap, first key %lld", r, cap,
             m > 0 ? (long long)ov_out[0].key : 0LL, n, n > 0 ? (long long)keys[sorted_shape[0]] : 0LL);
}

static void check_contacts(const sw_scene_filter* f, sw_real margin, uint8_t cap_byte)
{
    if (!a_ok() || !sw_is_valid_real(margin) || margin < 0) {
        asserts = 0;
        check_invalid(sw_scene_contacts(cur.scene, &cur.a, margin, f, ct_out, SLOTS), "contacts");
        return;
    }
    set_reach(&cur.a, sw_v3(0, 0, 0), margin);
    int n = 0;
    for (int i = 0; i < SLOTS; ++i) {
        if (cur.s[i].live && passes(f, i)) {
            const sw_distance_result d = sw_distance(&cur.a, &cur.s[i].shape);
            if (d.status == SW_OK && d.distance <= margin) {
                ct_exp[insert_by_key(n++, i)] = d;
            }
        }
    }
    const int cap = cap_byte % (n + 2);
    const int r = sw_scene_contacts(cur.scene, &cur.a, margin, f, ct_out, cap);
    const int m = r < cap ? r : cap;
    FZ_CHECK(list_matches(m, r, n, sorted_shape, NULL, same_contact, true) ||
                 FZ_KNOWN(list_matches(m, r, n, sorted_shape, NULL, same_contact, false)),
             "contacts returned %d (capacity %d, margin %.9g), first key %lld; %d pairs within it, first key %lld", r,
             cap, (double)margin, m > 0 ? (long long)ct_out[0].key : 0LL, n,
             n > 0 ? (long long)keys[sorted_shape[0]] : 0LL);
    for (int k = 0; k < m; ++k) {
        const sw_scene_contact* c = &ct_out[k];
        FZ_CHECK(isfinite(c->normal.x) && isfinite(c->normal.y) && isfinite(c->normal.z) &&
                     fabsl(sqrtl((long double)c->normal.x * c->normal.x + (long double)c->normal.y * c->normal.y +
                                 (long double)c->normal.z * c->normal.z) -
                           1) <= FZ_UNIT_TOL,
                 "contacts[%d]: normal not unit", k);
        const sw_shape* s = sw_scene_shape(cur.scene, c->key);
        FZ_CHECK(s && (s->type == SW_SHAPE_MESH
                           ? c->triangle >= 0 && c->triangle < sw_mesh_get_info(s->mesh.mesh).triangle_count
                           : c->triangle == 0),
                 "contacts[%d]: triangle %d", k, c->triangle);
    }
}

static void check_closest(const sw_scene_filter* f, sw_real limit)
{
    sw_scene_distance out;
    if (!a_ok() || isnan(limit)) {
        asserts = 0;
        check_invalid(sw_scene_closest(cur.scene, &cur.a, limit, f, &out), "closest");
        return;
    }
    const lbox abox = shape_box(&cur.a, 0);
    int best = -1, best_inside = -1; /* the latter among shapes whose distance is not below their boxes' gap */
    sw_distance_result bd, bdi;
    memset(&bd, 0, sizeof bd);
    memset(&bdi, 0, sizeof bdi);
    for (int i = 0; i < SLOTS; ++i) {
        if (!cur.s[i].live || !passes(f, i)) {
            continue;
        }
        const sw_distance_result d = sw_distance(&cur.a, &cur.s[i].shape);
        if (d.status != SW_OK || (limit >= 0 && d.distance > limit)) {
            continue;
        }
        if (best < 0 || d.distance < bd.distance || (d.distance == bd.distance && keys[i] < keys[best])) {
            best = i;
            bd = d;
        }
        const lbox b = shape_box(&cur.s[i].shape, 0);
        if (d.distance >= box_gap(&abox, &b) && (best_inside < 0 || d.distance < bdi.distance ||
                                                 (d.distance == bdi.distance && keys[i] < keys[best_inside]))) {
            best_inside = i;
            bdi = d;
        }
    }
    const int r = sw_scene_closest(cur.scene, &cur.a, limit, f, &out);
#define SAME_CLOSEST(i, d)                                                                                             \
    ((i) >= 0 && out.key == keys[i] && out.user == &cur.s[i] && out.distance.status == (d).status &&                   \
     SAME(out.distance.distance, (d).distance) && SAME(out.distance.point_a, (d).point_a) &&                           \
     SAME(out.distance.point_b, (d).point_b))
    const bool strict = r == (best >= 0) && (best < 0 || SAME_CLOSEST(best, bd));
    FZ_CHECK(strict || FZ_KNOWN(r == (best_inside >= 0) && (best_inside < 0 || SAME_CLOSEST(best_inside, bdi))),
             "closest returned %d, key %lld at %.9g (limit %.9g); the pairs' closest is key %lld at %.9g", r,
             r > 0 ? (long long)out.key : 0LL, r > 0 ? (double)out.distance.distance : 0.0, (double)limit,
             best >= 0 ? (long long)keys[best] : 0LL, (double)bd.distance);
#undef SAME_CLOSEST
}

/* ---- changes ------------------------------------------------------------------------ */

static bool storable(const sw_shape* s) { return sw_is_valid_shape(s) && s->type != SW_SHAPE_PLANE; }

static void check_state(void)
{
    FZ_CHECK(sw_scene_count(cur.scene) == cur.live, "count %d, the mirror holds %d", sw_scene_count(cur.scene),
             cur.live);
    for (int i = 0; i < SLOTS; ++i) {
        const sw_shape* s = sw_scene_shape(cur.scene, keys[i]);
        FZ_CHECK(cur.s[i].live ? s && memcmp(s, &cur.s[i].shape, sizeof *s) == 0 : s == NULL,
                 "key %lld: the stored shape is not the mirror's", (long long)keys[i]);
    }
}

static void change(fz_in* in, int op)
{
    const int i = fz_byte(in) % SLOTS;
    slot* x = &cur.s[i];
    sw_scene_error e;
    if (op <= 1) { /* add */
        cur.what = "add";
        const int buf = x->live ? x->buf ^ 1 : x->buf; /* a live shape's vertices stay */
        const sw_shape s = decode_shape(in, x->poly[buf], false);
        cur.a = s;
        const uint8_t fb = fz_byte(in);
        e = sw_scene_add(cur.scene, keys[i], &s, decode_bits(fb), decode_bits((uint8_t)(fb * 37u)), x);
        if (!storable(&s) || x->live) {
            FZ_CHECK((!storable(&s) && e == SW_SCENE_INVALID_SHAPE) || (x->live && e == SW_SCENE_DUPLICATE_KEY),
                     "add of key %lld: error %d (valid %d, live %d)", (long long)keys[i], (int)e, storable(&s),
                     x->live);
        } else {
            FZ_CHECK(e == SW_SCENE_OK, "add of key %lld: error %d", (long long)keys[i], (int)e);
            x->live = true;
            x->shape = s;
            x->category = decode_bits(fb);
            x->mask = decode_bits((uint8_t)(fb * 37u));
            x->v = x->w = sw_v3(0, 0, 0);
            x->buf = buf;
            cur.live++;
        }
    } else if (op == 2) {
        cur.what = "remove";
        e = sw_scene_remove(cur.scene, keys[i]);
        FZ_CHECK(e == (x->live ? SW_SCENE_OK : SW_SCENE_UNKNOWN_KEY), "remove of key %lld: error %d",
                 (long long)keys[i], (int)e);
        cur.live -= x->live;
        x->live = false;
    } else if (op <= 4) {
        cur.what = "move";
        const sw_shape s = decode_shape(in, x->poly[x->buf ^ 1], false);
        cur.a = s;
        const sw_vec3 v = fz_vec3(in), w = fz_vec3(in);
        e = sw_scene_move(cur.scene, keys[i], &s, v, w);
        const bool vel_ok = sw_is_valid_vec3(v) && sw_is_valid_vec3(w);
        if (!x->live || !storable(&s) || !vel_ok) {
            FZ_CHECK((!x->live && e == SW_SCENE_UNKNOWN_KEY) ||
                         (x->live && !storable(&s) && e == SW_SCENE_INVALID_SHAPE) ||
                         (x->live && !vel_ok && e == SW_SCENE_INVALID_VELOCITY),
                     "move of key %lld: error %d (live %d, valid %d, velocities valid %d)", (long long)keys[i], (int)e,
                     x->live, storable(&s), vel_ok);
        } else {
            FZ_CHECK(e == SW_SCENE_OK, "move of key %lld: error %d", (long long)keys[i], (int)e);
            x->shape = s;
            x->buf ^= 1;
            x->v = v;
            x->w = w;
        }
    } else {
        cur.what = "set_filter";
        const uint8_t fb = fz_byte(in);
        e = sw_scene_set_filter(cur.scene, keys[i], decode_bits(fb), decode_bits((uint8_t)~fb), x);
        FZ_CHECK(e == (x->live ? SW_SCENE_OK : SW_SCENE_UNKNOWN_KEY), "set_filter of key %lld: error %d",
                 (long long)keys[i], (int)e);
        if (x->live) {
            x->category = decode_bits(fb);
            x->mask = decode_bits((uint8_t)~fb);
        }
    }
    check_state();
}

static void query(fz_in* in)
{
    sw_scene_filter fs;
    const int kind = fz_byte(in) % 5;
    memset(&cur.ray, 0, sizeof cur.ray);
    memset(&cur.a, 0, sizeof cur.a);
    cur.d = sw_v3(0, 0, 0);
    cur.opt = NULL;
    if (kind == 0) {
        cur.what = "ray cast";
        cur.ray = fz_ray(in);
    } else {
        cur.a = decode_shape(in, cur.a_poly, true);
    }
    if (kind == 1) {
        cur.what = "sweep";
        cur.d = fz_vec3(in);
        cur.opt = fz_options(in, &cur.opt_storage);
    }
    const sw_scene_filter* f = decode_filter(in, &fs);
    const uint8_t cap = fz_byte(in);
    switch (kind) {
    case 0:
    case 1:
        check_cast(kind == 0, f, cap);
        break;
    case 2:
        cur.what = "overlap_all";
        check_overlap(f, cap);
        break;
    case 3:
        cur.what = "closest";
        check_closest(f, (cap & 1) ? -1 : fz_real(in));
        break;
    default:
        cur.what = "contacts";
        check_contacts(f, fz_extent(in), cap);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fz_in in;
    fz_begin(&in, data, size);
    memset(&cur, 0, sizeof cur);
    cur.scene = sw_scene_create();
    FZ_CHECK(cur.scene != NULL, "sw_scene_create failed");
    for (cur.op = 0; cur.op < MAX_OPS && in.n > 0; ++cur.op) {
        const int op = fz_byte(&in) % 8;
        if (op < 6) {
            change(&in, op);
        } else {
            query(&in);
        }
    }
    sw_scene_destroy(cur.scene);
    return 0;
}
