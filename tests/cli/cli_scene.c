/* Tests of scenes in `sweep query` (DESIGN.md §2b, §5): scene requests and
 * queries over named and inline scenes, in every mode, answered exactly as
 * the library answers the same scene built in-process (the same adds,
 * moves and removes in the same order, and sw_scene_optimize where the
 * program calls it: after a scene_create, a scene_add or an inline scene
 * that adds at least a quarter of the shapes then in the scene); default
 * keys; filters; velocities; integers up to 2^64 - 1; an error line for
 * every bad scene request, after which nothing has changed and the program
 * goes on; a scene of 1000 shapes built over many lines. */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_support.h"

/* Reals read as the program reads them: a double, then sw_real. */
#define D(x) ((sw_real)(double)(x))

/* ---- text --------------------------------------------------------------------- */

typedef struct text {
    char* s;
    size_t len, cap;
} text;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
add(text* t, const char* fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        const int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        assert_true(n >= 0);
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        t->cap = 2 * (t->cap + (size_t)n + 64);
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
}

/* ---- checking answers against the library ------------------------------------------- */

static void check_feature(const json_t* o, sw_feature f, const char* file, int line)
{
    static const char* const kinds[] = {"none", "vertex", "edge", "face"};
    const json_t* feature = json_object_get(o, "feature");
    const char* kind = json_string_value(json_object_get(feature, "kind"));
    if (!kind || strcmp(kind, kinds[f.kind]) != 0 ||
        (f.kind != SW_FEATURE_NONE && json_integer_value(json_object_get(feature, "index")) != f.index)) {
        check_fail(o, file, line, "feature: expected %s %d", kinds[f.kind], f.index);
    }
}

static bool moving(const sw_scene_hit* h)
{
    const sw_vec3 v = h->velocity, w = h->angular_velocity;
    return v.x != 0 || v.y != 0 || v.z != 0 || w.x != 0 || w.y != 0 || w.z != 0;
}

/* One hit of the library (h, on a mesh or not) as the answer o gives it:
 * every number bit for bit, the key, and the velocities when the shape
 * moves. with_id: o is a whole answer, not an element of "hits". */
static void check_hit(const json_t* o, const sw_scene_hit* h, bool mesh, bool with_id, const char* file, int line)
{
    char keys[200];
    snprintf(keys, sizeof keys, "%shit overlapping t point normal depth feature%s key%s", with_id ? "id " : "",
             mesh ? " triangle" : "", moving(h) ? " velocity angular_velocity point_velocity" : "");
    check_keys(o, keys, file, line);
    check_bool(o, "hit", true, file, line);
    check_bool(o, "overlapping", h->hit.overlapping, file, line);
    check_real(o, "t", h->hit.t, file, line);
    check_vec(o, "point", h->hit.point.x, h->hit.point.y, h->hit.point.z, file, line);
    check_vec(o, "normal", h->hit.normal.x, h->hit.normal.y, h->hit.normal.z, file, line);
    check_real(o, "depth", h->hit.depth, file, line);
    check_feature(o, h->hit.feature, file, line);
    if (mesh && json_integer_value(json_object_get(o, "triangle")) != h->hit.triangle) {
        check_fail(o, file, line, "triangle: expected %d", h->hit.triangle);
    }
    if (json_integer_value(json_object_get(o, "key")) != h->key) {
        check_fail(o, file, line, "key: expected %" PRId64, h->key);
    }
    if (moving(h)) {
        check_vec(o, "velocity", h->velocity.x, h->velocity.y, h->velocity.z, file, line);
        check_vec(o, "angular_velocity", h->angular_velocity.x, h->angular_velocity.y, h->angular_velocity.z, file,
                  line);
        check_vec(o, "point_velocity", h->point_velocity.x, h->point_velocity.y, h->point_velocity.z, file, line);
    }
}

static bool is_mesh(const sw_scene* s, int64_t key)
{
    const sw_shape* shape = sw_scene_shape(s, key);
    return shape && shape->type == SW_SHAPE_MESH;
}

/* A ray cast or sweep answer: n hits of the library in `mode`. */
static void check_hits(const json_t* o, const sw_scene* s, sw_hits_mode mode, const sw_scene_hit* h, int n,
                       const char* file, int line)
{
    if (n < 0) {
        check_fail(o, file, line, "the library refused the query in-process");
        return;
    }
    if (mode != SW_HITS_ALL) {
        if (n == 0) {
            check_keys(o, "id hit", file, line);
            check_bool(o, "hit", false, file, line);
        } else {
            check_hit(o, &h[0], is_mesh(s, h[0].key), true, file, line);
        }
        return;
    }
    check_keys(o, "id hits", file, line);
    const json_t* hits = json_object_get(o, "hits");
    if (!json_is_array(hits) || json_array_size(hits) != (size_t)n) {
        check_fail(o, file, line, "hits: expected %d of them", n);
        return;
    }
    for (int i = 0; i < n; ++i) {
        check_hit(json_array_get(hits, (size_t)i), &h[i], is_mesh(s, h[i].key), false, file, line);
    }
}

enum { MAX_HITS = 2048 };

static void check_raycast(const json_t* o, const sw_scene* s, const sw_ray* ray, sw_hits_mode mode, uint64_t mask,
                          const char* file, int line)
{
    static sw_scene_hit h[MAX_HITS];
    const sw_scene_filter f = {mask, UINT64_MAX, NULL, NULL};
    const int n = sw_scene_raycast(s, ray, mode, &f, h, MAX_HITS);
    assert_true(n <= MAX_HITS);
    check_hits(o, s, mode, h, n, file, line);
}
#define CHECK_RAYCAST(o, s, ray, mode, mask) check_raycast((o), (s), (ray), (mode), (mask), __FILE__, __LINE__)

static void check_sweep(const json_t* o, const sw_scene* s, const sw_shape* a, sw_vec3 d, const sw_sweep_options* opt,
                        sw_hits_mode mode, uint64_t mask, const char* file, int line)
{
    static sw_scene_hit h[MAX_HITS];
    const sw_scene_filter f = {mask, UINT64_MAX, NULL, NULL};
    const int n = sw_scene_sweep(s, a, d, opt, mode, &f, h, MAX_HITS);
    assert_true(n <= MAX_HITS);
    check_hits(o, s, mode, h, n, file, line);
}
#define CHECK_SWEEP(o, s, a, d, opt, mode, mask)                                                                       \
    check_sweep((o), (s), (a), (d), (opt), (mode), (mask), __FILE__, __LINE__)

static void check_overlaps(const json_t* o, const sw_scene* s, const sw_shape* a, uint64_t mask, const char* file,
                           int line)
{
    static sw_scene_overlap r[MAX_HITS];
    const sw_scene_filter f = {mask, UINT64_MAX, NULL, NULL};
    const int n = sw_scene_overlap_all(s, a, &f, r, MAX_HITS);
    assert_true(n >= 0 && n <= MAX_HITS);
    check_keys(o, "id overlaps", file, line);
    const json_t* list = json_object_get(o, "overlaps");
    if (!json_is_array(list) || json_array_size(list) != (size_t)n) {
        check_fail(o, file, line, "overlaps: expected %d of them", n);
        return;
    }
    for (int i = 0; i < n; ++i) {
        const json_t* e = json_array_get(list, (size_t)i);
        const sw_overlap_result* x = &r[i].overlap;
        check_keys(e, "key depth normal point", file, line);
        if (json_integer_value(json_object_get(e, "key")) != r[i].key) {
            check_fail(e, file, line, "key: expected %" PRId64, r[i].key);
        }
        check_real(e, "depth", x->depth, file, line);
        check_vec(e, "normal", x->normal.x, x->normal.y, x->normal.z, file, line);
        check_vec(e, "point", x->point.x, x->point.y, x->point.z, file, line);
    }
}
#define CHECK_OVERLAPS(o, s, a, mask) check_overlaps((o), (s), (a), (mask), __FILE__, __LINE__)

static void check_closest(const json_t* o, const sw_scene* s, const sw_shape* a, sw_real max, uint64_t mask,
                          const char* file, int line)
{
    const sw_scene_filter f = {mask, UINT64_MAX, NULL, NULL};
    sw_scene_distance r;
    const int n = sw_scene_closest(s, a, max, &f, &r);
    assert_true(n >= 0);
    if (n == 0) {
        check_keys(o, "id distance", file, line);
        if (!json_is_null(json_object_get(o, "distance"))) {
            check_fail(o, file, line, "distance: expected null");
        }
        return;
    }
    check_keys(o, "id distance point_a point_b key", file, line);
    check_real(o, "distance", r.distance.distance, file, line);
    check_vec(o, "point_a", r.distance.point_a.x, r.distance.point_a.y, r.distance.point_a.z, file, line);
    check_vec(o, "point_b", r.distance.point_b.x, r.distance.point_b.y, r.distance.point_b.z, file, line);
    if (json_integer_value(json_object_get(o, "key")) != r.key) {
        check_fail(o, file, line, "key: expected %" PRId64, r.key);
    }
}
#define CHECK_CLOSEST(o, s, a, max, mask) check_closest((o), (s), (a), (max), (mask), __FILE__, __LINE__)

/* A scene request's answer. */
static void check_count(const json_t* o, const char* scene, int count, const char* file, int line)
{
    check_keys(o, "id scene count", file, line);
    const char* name = json_string_value(json_object_get(o, "scene"));
    if (!name || strcmp(name, scene) != 0 || json_integer_value(json_object_get(o, "count")) != count) {
        check_fail(o, file, line, "expected scene \"%s\" with %d shapes", scene, count);
    }
}
#define CHECK_COUNT(o, scene, count) check_count((o), (scene), (count), __FILE__, __LINE__)

/* ---- the program's way of building a scene ----------------------------------------------- */

/* Adds n shapes as one scene_create or scene_add does. */
static void add_like_the_program(sw_scene* s, const sw_shape* shapes, const int64_t* keys, const uint64_t* categories,
                                 const uint64_t* masks, int n)
{
    for (int i = 0; i < n; ++i) {
        assert_int_equal(sw_scene_add(s, keys[i], &shapes[i], categories ? categories[i] : UINT64_MAX,
                                      masks ? masks[i] : UINT64_MAX, NULL),
                         SW_SCENE_OK);
    }
    if (n > 0 && 4 * (int64_t)n >= sw_scene_count(s)) {
        sw_scene_optimize(s);
    }
}

/* ---- a small level of every kind of shape ------------------------------------------------ */

/* Along the x axis: a sphere, a turned box, a capsule, a square polygon, a
 * placed hull, a mesh wall (key 50), a triangle, a segment and a point
 * that no query sees (its mask is 0), over a floor box (key -7).
 * Categories: 1, 1, 2, 2, 1, 4, 2, all, 1, 8. */
#define LEVEL_SHAPES                                                                                                   \
    "[{\"type\":\"sphere\",\"center\":[3,0,0],\"radius\":1,\"category\":1},"                                           \
    "{\"type\":\"box\",\"center\":[6,0,0],\"half\":[0.5,1,1],\"rotation\":[0,0,0.3,0.9],\"category\":1},"              \
    "{\"type\":\"capsule\",\"a\":[9,-1,0],\"b\":[9,1,0.5],\"radius\":0.5,\"category\":2},"                             \
    "{\"type\":\"polygon\",\"v\":[[12,-1,-1],[12,1,-1],[12,1,1],[12,-1,1]],\"category\":2},"                           \
    "{\"type\":\"hull\",\"points\":[[14,-1,-1],[16,-1,-1],[14,1,-1],[14,-1,1],[16,1,1]],\"position\":[0,0.25,0],"      \
    "\"category\":1},"                                                                                                 \
    "{\"type\":\"mesh\",\"v\":[[18,-2,-2],[18,2,-2],[18,2,2],[18,-2,2]],\"tri\":[[0,1,2],[0,2,3]],\"key\":50,"         \
    "\"category\":4},"                                                                                                 \
    "{\"type\":\"triangle\",\"v\":[[20,-1,-1],[20,1,-1],[20,0,1]],\"category\":2},"                                    \
    "{\"type\":\"segment\",\"a\":[22,-1,0.25],\"b\":[22,1,-0.25]},"                                                    \
    "{\"type\":\"point\",\"p\":[24,0,0],\"category\":1,\"mask\":0},"                                                   \
    "{\"type\":\"box\",\"center\":[12,0,-3],\"half\":[15,3,0.5],\"key\":-7,\"category\":8}]"

enum { LEVEL_N = 10 };

typedef struct level {
    sw_shape shapes[LEVEL_N];
    int64_t keys[LEVEL_N];
    uint64_t categories[LEVEL_N], masks[LEVEL_N];
    sw_vec3 square[4];
    sw_hull* hull;
    sw_mesh* wall;
} level;

static void make_level(level* l)
{
    static const sw_vec3 hull_points[5] = {{14, -1, -1}, {16, -1, -1}, {14, 1, -1}, {14, -1, 1}, {16, 1, 1}};
    static const sw_vec3 wall_v[4] = {{18, -2, -2}, {18, 2, -2}, {18, 2, 2}, {18, -2, 2}};
    static const int wall_tri[6] = {0, 1, 2, 0, 2, 3};
    const sw_vec3 square[4] = {{12, -1, -1}, {12, 1, -1}, {12, 1, 1}, {12, -1, 1}};
    memcpy(l->square, square, sizeof square);
    l->hull = sw_hull_create(hull_points, 5, NULL);
    l->wall = sw_mesh_create(wall_v, 4, wall_tri, 2, NULL);
    assert_true(l->hull && l->wall);
    const sw_vec3 tri[3] = {{20, -1, -1}, {20, 1, -1}, {20, 0, 1}};
    l->shapes[0] = sw_make_sphere(sw_v3(3, 0, 0), 1);
    l->shapes[1] = sw_make_box(sw_v3(6, 0, 0), sw_v3(D(0.5), 1, 1), (sw_quat){0, 0, D(0.3), D(0.9)});
    l->shapes[2] = sw_make_capsule(sw_v3(9, -1, 0), sw_v3(9, 1, D(0.5)), D(0.5));
    l->shapes[3] = sw_make_polygon(l->square, 4, false);
    l->shapes[4] = sw_make_hull(l->hull, sw_v3(0, D(0.25), 0), sw_quat_identity());
    l->shapes[5] = sw_make_mesh(l->wall, sw_v3(0, 0, 0), sw_quat_identity(), false);
    l->shapes[6] = sw_make_triangle(tri[0], tri[1], tri[2], false);
    l->shapes[7] = sw_make_segment(sw_v3(22, -1, D(0.25)), sw_v3(22, 1, D(-0.25)));
    l->shapes[8] = sw_make_point(sw_v3(24, 0, 0));
    l->shapes[9] = sw_make_box(sw_v3(12, 0, -3), sw_v3(15, 3, D(0.5)), sw_quat_identity());
    static const int64_t keys[LEVEL_N] = {0, 1, 2, 3, 4, 50, 6, 7, 8, -7};
    static const uint64_t categories[LEVEL_N] = {1, 1, 2, 2, 1, 4, 2, UINT64_MAX, 1, 8};
    memcpy(l->keys, keys, sizeof keys);
    memcpy(l->categories, categories, sizeof categories);
    for (int i = 0; i < LEVEL_N; ++i) {
        l->masks[i] = i == 8 ? 0 : UINT64_MAX;
    }
}

static void free_level(level* l)
{
    sw_hull_destroy(l->hull);
    sw_mesh_destroy(l->wall);
}

#define RAY_X(id, extra)                                                                                               \
    "{\"id\":" #id ",\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":30,\"scene\":\"level\"" extra "}\n"
#define SWEEP_X(id, extra)                                                                                             \
    "{\"id\":" #id ",\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0,0.25,0],\"radius\":0.25},"              \
    "\"d\":[30,0,-0.5],\"scene\":\"level\"" extra "}\n"

/* Every query and mode over a named scene of every kind of shape. */
static void test_level_answers(void** state)
{
    (void)state;
    answers a = query("{\"id\":0,\"op\":\"scene_create\",\"scene\":\"level\",\"shapes\":" LEVEL_SHAPES "}\n"
                      /* 2-4: ray casts, three modes */
                      RAY_X(1, "") RAY_X(2, ",\"hits\":\"any\"") RAY_X(3, ",\"hits\":\"all\"")
                      /* 5: all, masked to category 2 (and the segment, of every category) */
                      RAY_X(4, ",\"hits\":\"all\",\"mask\":2")
                      /* 6: closest, masked to the mesh */
                      RAY_X(5, ",\"mask\":4")
                      /* 7: a mask no shape has */
                      RAY_X(6, ",\"hits\":\"all\",\"mask\":16")
                      /* 8-11: sweeps: three modes, and all with a skin */
                      SWEEP_X(7, "") SWEEP_X(8, ",\"hits\":\"any\"") SWEEP_X(9, ",\"hits\":\"all\"")
                          SWEEP_X(10, ",\"hits\":\"all\",\"skin\":0.125,\"ignore_separating\":true")
                      /* 12: a capsule standing on the floor, sliding: the floor is ignored */
                      "{\"id\":11,\"op\":\"sweep\",\"a\":{\"type\":\"capsule\",\"a\":[1,2,-2.25],\"b\":[1,2,-1],"
                      "\"radius\":0.25},\"d\":[20,0,0],\"scene\":\"level\",\"hits\":\"all\","
                      "\"ignore_separating\":true}\n"
                      /* 13, 14: overlap, all and masked */
                      "{\"id\":12,\"op\":\"overlap\",\"a\":{\"type\":\"sphere\",\"center\":[7.5,0,-1.5],"
                      "\"radius\":1.5},\"scene\":\"level\"}\n"
                      "{\"id\":13,\"op\":\"overlap\",\"a\":{\"type\":\"sphere\",\"center\":[7.5,0,-1.5],"
                      "\"radius\":1.5},\"scene\":\"level\",\"mask\":2}\n"
                      /* 15-17: distance, without max, within max, beyond max */
                      "{\"id\":14,\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[3,0,5]},\"scene\":\"level\"}\n"
                      "{\"id\":15,\"op\":\"distance\",\"a\":{\"type\":\"box\",\"center\":[16,0,4],"
                      "\"half\":[1,1,1]},\"scene\":\"level\",\"max\":3.5}\n"
                      "{\"id\":16,\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[3,0,5]},\"scene\":\"level\","
                      "\"max\":3}\n"
                      /* 18: distance, masked to the floor */
                      "{\"id\":17,\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[3,0,5]},\"scene\":\"level\","
                      "\"mask\":8}\n",
                      0, 18);
    level l;
    make_level(&l);
    sw_scene* s = sw_scene_create();
    assert_non_null(s);
    add_like_the_program(s, l.shapes, l.keys, l.categories, l.masks, LEVEL_N);

    CHECK_COUNT(a.line[0], "level", LEVEL_N);
    const sw_ray ray = {sw_v3(0, 0, 0), sw_v3(1, 0, 0), 30};
    CHECK_RAYCAST(a.line[1], s, &ray, SW_HITS_CLOSEST, UINT64_MAX);
    CHECK_REAL(a.line[1], "t", 2);
    CHECK_RAYCAST(a.line[2], s, &ray, SW_HITS_ANY, UINT64_MAX);
    CHECK_RAYCAST(a.line[3], s, &ray, SW_HITS_ALL, UINT64_MAX);
    /* sphere, box, capsule, polygon, hull, mesh, triangle (and the segment,
     * which the ray meets at one point); never the point (mask 0) nor the
     * floor (below the ray) */
    assert_true(json_array_size(json_object_get(a.line[3], "hits")) >= 7);
    CHECK_RAYCAST(a.line[4], s, &ray, SW_HITS_ALL, 2);
    assert_true(json_array_size(json_object_get(a.line[4], "hits")) >= 3);
    CHECK_RAYCAST(a.line[5], s, &ray, SW_HITS_CLOSEST, 4);
    assert_int_equal(json_integer_value(json_object_get(a.line[5], "key")), 50);
    CHECK_RAYCAST(a.line[6], s, &ray, SW_HITS_ALL, 16);
    CHECK_KEYS(a.line[6], "id hits");

    const sw_shape ball = sw_make_sphere(sw_v3(0, D(0.25), 0), D(0.25));
    const sw_vec3 d = sw_v3(30, 0, D(-0.5));
    CHECK_SWEEP(a.line[7], s, &ball, d, NULL, SW_HITS_CLOSEST, UINT64_MAX);
    CHECK_SWEEP(a.line[8], s, &ball, d, NULL, SW_HITS_ANY, UINT64_MAX);
    CHECK_SWEEP(a.line[9], s, &ball, d, NULL, SW_HITS_ALL, UINT64_MAX);
    const sw_sweep_options skin = {D(0.125), true};
    CHECK_SWEEP(a.line[10], s, &ball, d, &skin, SW_HITS_ALL, UINT64_MAX);
    const sw_shape standing = sw_make_capsule(sw_v3(1, 2, D(-2.25)), sw_v3(1, 2, -1), D(0.25));
    const sw_sweep_options slide = {0, true};
    CHECK_SWEEP(a.line[11], s, &standing, sw_v3(20, 0, 0), &slide, SW_HITS_ALL, UINT64_MAX);

    const sw_shape big = sw_make_sphere(sw_v3(D(7.5), 0, D(-1.5)), D(1.5));
    CHECK_OVERLAPS(a.line[12], s, &big, UINT64_MAX);
    assert_true(json_array_size(json_object_get(a.line[12], "overlaps")) >= 2); /* floor, box */
    CHECK_OVERLAPS(a.line[13], s, &big, 2);
    const sw_shape above = sw_make_point(sw_v3(3, 0, 5));
    const sw_shape cube = sw_make_box(sw_v3(16, 0, 4), sw_v3(1, 1, 1), sw_quat_identity());
    CHECK_CLOSEST(a.line[14], s, &above, -1, UINT64_MAX);
    CHECK_REAL(a.line[14], "distance", 4);
    CHECK_CLOSEST(a.line[15], s, &cube, D(3.5), UINT64_MAX);
    CHECK_CLOSEST(a.line[16], s, &above, 3, UINT64_MAX);
    CHECK_KEYS(a.line[16], "id distance");
    CHECK_CLOSEST(a.line[17], s, &above, -1, 8);
    assert_int_equal(json_integer_value(json_object_get(a.line[17], "key")), -7);

    sw_scene_destroy(s);
    free_level(&l);
    answers_free(&a);
}

/* scene_add continues the default keys, scene_remove and scene_move
 * change the scene as the library's calls do (a move keeps category and
 * mask unless the shape gives its own, and its velocities come back with
 * the hits), and scene_create on the same name starts again from key 0. */
static void test_scene_changes(void** state)
{
    (void)state;
#define SPHERE_AT(x) "{\"type\":\"sphere\",\"center\":[" #x ",0,0],\"radius\":0.5,\"category\":1}"
#define RAY_ALL(id, extra)                                                                                             \
    "{\"id\":" #id ",\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":20,\"scene\":\"s\","                \
    "\"hits\":\"all\"" extra "}\n"
    answers a = query(
        /* 1: keys 0, 1 */
        "{\"op\":\"scene_create\",\"scene\":\"s\",\"shapes\":[" SPHERE_AT(2) "," SPHERE_AT(
            4) "]}\n"
               /* 2: keys 2, 9, 4 (by position: the explicit key counts as one) */
               "{\"op\":\"scene_add\",\"scene\":\"s\",\"shapes\":[" SPHERE_AT(
                   6) ",{\"type\":\"sphere\",\"center\":[8,0,0],"
                      "\"radius\":0.5,\"key\":9,\"category\":2}," SPHERE_AT(10) "]}\n"
        /* 3 */
        RAY_ALL(3, "")
        /* 4: remove 1 and 4 */
        "{\"op\":\"scene_remove\",\"scene\":\"s\",\"keys\":[4,1]}\n"
        /* 5: move 9 (category 2) to x = 3, turning, category kept */
        "{\"op\":\"scene_move\",\"scene\":\"s\",\"key\":9,\"shape\":{\"type\":\"sphere\",\"center\":[3,0,0],"
        "\"radius\":0.5},\"velocity\":[0,1,0],"
        "\"angular_velocity\":[0,2,0]}\n"
        /* 6, 7 */
        RAY_ALL(6, "") RAY_ALL(7, ",\"mask\":2")
        /* 8: move 0 with a category of its own, no velocity */
        "{\"op\":\"scene_move\",\"scene\":\"s\",\"key\":0,\"shape\":{\"type\":\"sphere\",\"center\":[1,0,0],"
        "\"radius\":0.25,\"category\":2}}\n"
        /* 9: 0 and 9 now */
        RAY_ALL(9, ",\"mask\":2")
        /* 10: a failed add (the second key is taken) adds nothing and keeps the default keys */
        "{\"op\":\"scene_add\",\"scene\":\"s\",\"shapes\":[" SPHERE_AT(
            12) ",{\"type\":\"point\",\"p\":[0,5,0],"
                "\"key\":2}]}\n"
                /* 11: key 5 */
                "{\"op\":\"scene_add\",\"scene\":\"s\",\"shapes\":[" SPHERE_AT(14) "]}\n"
        /* 12 */
        RAY_ALL(12, "")
        /* 13, 14: replaced: the default keys start again */
        "{\"op\":\"scene_create\",\"scene\":\"s\",\"shapes\":[" SPHERE_AT(
            5) "]}\n"
               "{\"op\":\"scene_add\",\"scene\":\"s\",\"shapes\":[" SPHERE_AT(7) "]}\n"
        /* 15 */
        RAY_ALL(15, "")
        /* 16: another scene leaves this one alone */
        "{\"op\":\"scene_create\",\"scene\":\"other\",\"shapes\":[]}\n" RAY_ALL(17, ""),
        1, 17);
    sw_shape spheres[8];
    int64_t keys[8];
    uint64_t categories[8];
    for (int i = 0; i < 8; ++i) {
        categories[i] = 1;
    }
    sw_scene* s = sw_scene_create();
    spheres[0] = sw_make_sphere(sw_v3(2, 0, 0), D(0.5));
    spheres[1] = sw_make_sphere(sw_v3(4, 0, 0), D(0.5));
    keys[0] = 0, keys[1] = 1;
    add_like_the_program(s, spheres, keys, categories, NULL, 2);
    CHECK_COUNT(a.line[0], "s", 2);
    spheres[2] = sw_make_sphere(sw_v3(6, 0, 0), D(0.5));
    spheres[3] = sw_make_sphere(sw_v3(8, 0, 0), D(0.5));
    spheres[4] = sw_make_sphere(sw_v3(10, 0, 0), D(0.5));
    keys[2] = 2, keys[3] = 9, keys[4] = 4;
    categories[3] = 2;
    add_like_the_program(s, spheres + 2, keys + 2, categories + 2, NULL, 3);
    CHECK_COUNT(a.line[1], "s", 5);
    const sw_ray ray = {sw_v3(0, 0, 0), sw_v3(1, 0, 0), 20};
    CHECK_RAYCAST(a.line[2], s, &ray, SW_HITS_ALL, UINT64_MAX);
    assert_int_equal(sw_scene_remove(s, 4), SW_SCENE_OK);
    assert_int_equal(sw_scene_remove(s, 1), SW_SCENE_OK);
    CHECK_COUNT(a.line[3], "s", 3);
    const sw_shape moved = sw_make_sphere(sw_v3(3, 0, 0), D(0.5));
    assert_int_equal(sw_scene_move(s, 9, &moved, sw_v3(0, 1, 0), sw_v3(0, 2, 0)), SW_SCENE_OK);
    CHECK_COUNT(a.line[4], "s", 3);
    CHECK_RAYCAST(a.line[5], s, &ray, SW_HITS_ALL, UINT64_MAX);
    CHECK_RAYCAST(a.line[6], s, &ray, SW_HITS_ALL, 2);
    /* the moved shape kept category 2, and reports how it moves */
    const json_t* only = json_array_get(json_object_get(a.line[6], "hits"), 0);
    assert_int_equal(json_array_size(json_object_get(a.line[6], "hits")), 1);
    assert_int_equal(json_integer_value(json_object_get(only, "key")), 9);
    CHECK_VEC(only, "point_velocity", 0, 1, 1); /* (0,1,0) + (0,2,0) x (-0.5,0,0) */
    const sw_shape small = sw_make_sphere(sw_v3(1, 0, 0), D(0.25));
    assert_int_equal(sw_scene_move(s, 0, &small, sw_v3(0, 0, 0), sw_v3(0, 0, 0)), SW_SCENE_OK);
    assert_int_equal(sw_scene_set_filter(s, 0, 2, UINT64_MAX, NULL), SW_SCENE_OK);
    CHECK_COUNT(a.line[7], "s", 3);
    CHECK_RAYCAST(a.line[8], s, &ray, SW_HITS_ALL, 2);
    assert_int_equal(json_array_size(json_object_get(a.line[8], "hits")), 2);
    CHECK_ERROR(a.line[9], 10, "shapes[1]: key 2 is already in scene \"s\"");
    spheres[5] = sw_make_sphere(sw_v3(14, 0, 0), D(0.5));
    keys[5] = 5;
    add_like_the_program(s, spheres + 5, keys + 5, categories + 5, NULL, 1);
    CHECK_COUNT(a.line[10], "s", 4);
    CHECK_RAYCAST(a.line[11], s, &ray, SW_HITS_ALL, UINT64_MAX);
    sw_scene_destroy(s);

    s = sw_scene_create();
    spheres[6] = sw_make_sphere(sw_v3(5, 0, 0), D(0.5));
    spheres[7] = sw_make_sphere(sw_v3(7, 0, 0), D(0.5));
    keys[6] = 0, keys[7] = 1;
    add_like_the_program(s, spheres + 6, keys + 6, categories + 6, NULL, 1);
    add_like_the_program(s, spheres + 7, keys + 7, categories + 7, NULL, 1);
    CHECK_COUNT(a.line[12], "s", 1);
    CHECK_COUNT(a.line[13], "s", 2);
    CHECK_RAYCAST(a.line[14], s, &ray, SW_HITS_ALL, UINT64_MAX);
    CHECK_COUNT(a.line[15], "other", 0);
    CHECK_RAYCAST(a.line[16], s, &ray, SW_HITS_ALL, UINT64_MAX);
    sw_scene_destroy(s);
    answers_free(&a);
#undef SPHERE_AT
#undef RAY_ALL
}

/* An inline scene: built for its line with the same rules (keys, filters)
 * and gone after it. */
static void test_inline_scene(void** state)
{
    (void)state;
    answers a = query("{\"id\":1,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":30,\"hits\":\"all\","
                      "\"scene\":" LEVEL_SHAPES "}\n"
                      "{\"id\":2,\"op\":\"sweep\",\"a\":{\"type\":\"box\",\"center\":[0,0,0],\"half\":[0.25,0.5,0.25]},"
                      "\"d\":[30,0,0],\"mask\":3,\"scene\":" LEVEL_SHAPES "}\n"
                      "{\"id\":3,\"op\":\"overlap\",\"a\":{\"type\":\"capsule\",\"a\":[5,0,-2],\"b\":[13,0,-2],"
                      "\"radius\":1},\"scene\":" LEVEL_SHAPES "}\n"
                      "{\"id\":4,\"op\":\"distance\",\"a\":{\"type\":\"segment\",\"a\":[0,5,5],\"b\":[30,5,5]},"
                      "\"scene\":" LEVEL_SHAPES "}\n"
                      /* an empty inline scene */
                      "{\"id\":5,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"scene\":[]}\n"
                      "{\"id\":6,\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[0,0,0]},\"scene\":[]}\n"
                      "{\"id\":7,\"op\":\"overlap\",\"a\":{\"type\":\"point\",\"p\":[0,0,0]},\"scene\":[]}\n"
                      /* no scene of that name was made */
                      "{\"id\":8,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"scene\":\"level\"}\n",
                      1, 8);
    level l;
    make_level(&l);
    sw_scene* s = sw_scene_create();
    add_like_the_program(s, l.shapes, l.keys, l.categories, l.masks, LEVEL_N);
    const sw_ray ray = {sw_v3(0, 0, 0), sw_v3(1, 0, 0), 30};
    CHECK_RAYCAST(a.line[0], s, &ray, SW_HITS_ALL, UINT64_MAX);
    const sw_shape box = sw_make_box(sw_v3(0, 0, 0), sw_v3(D(0.25), D(0.5), D(0.25)), sw_quat_identity());
    CHECK_SWEEP(a.line[1], s, &box, sw_v3(30, 0, 0), NULL, SW_HITS_CLOSEST, 3);
    const sw_shape capsule = sw_make_capsule(sw_v3(5, 0, -2), sw_v3(13, 0, -2), 1);
    CHECK_OVERLAPS(a.line[2], s, &capsule, UINT64_MAX);
    const sw_shape segment = sw_make_segment(sw_v3(0, 5, 5), sw_v3(30, 5, 5));
    CHECK_CLOSEST(a.line[3], s, &segment, -1, UINT64_MAX);
    CHECK_KEYS(a.line[4], "id hit");
    CHECK_KEYS(a.line[5], "id distance");
    CHECK_KEYS(a.line[6], "id overlaps");
    assert_int_equal(json_array_size(json_object_get(a.line[6], "overlaps")), 0);
    CHECK_ERROR(a.line[7], 8, "unknown scene \"level\"");
    sw_scene_destroy(s);
    free_level(&l);
    answers_free(&a);
}

/* Categories and masks take every 64-bit value; a key every int64. JSON
 * integers beyond int64 are read exactly, and an id echoed as written. */
static void test_big_integers(void** state)
{
    (void)state;
    run_result r =
        run_sweep("{\"op\":\"scene_create\",\"scene\":\"b\",\"shapes\":["
                  "{\"type\":\"sphere\",\"center\":[2,0,0],\"radius\":0.5,\"category\":9223372036854775808,"
                  "\"key\":-9223372036854775808},"
                  "{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":0.5,\"category\":18446744073709551615,"
                  "\"mask\":18446744073709551615,\"key\":9223372036854775807},"
                  "{\"type\":\"sphere\",\"center\":[6,0,0],\"radius\":0.5,\"category\":1}]}\n"
                  "{\"id\":18446744073709551616,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":9,"
                  "\"scene\":\"b\",\"hits\":\"all\",\"mask\":9223372036854775808}\n"
                  "{\"id\":[-123456789012345678901234567890,{\"k\":99999999999999999999}],\"op\":\"raycast\","
                  "\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":9,\"scene\":\"b\",\"mask\":1}\n"
                  "{\"id\":4,\"op\":\"scene_remove\",\"scene\":\"b\",\"keys\":[9223372036854775808]}\n",
                  "query");
    assert_int_equal(r.status, 1);
    const char* want = "{\"id\":null,\"scene\":\"b\",\"count\":3}\n"
                       "{\"id\":18446744073709551616,\"hits\":[";
    assert_memory_equal(r.out, want, strlen(want));
    /* the first two spheres share bit 63 with the mask; the third does not */
    assert_non_null(strstr(r.out, "\"key\":-9223372036854775808},{"));
    assert_non_null(strstr(r.out, "\"key\":9223372036854775807}]}\n"));
    assert_non_null(
        strstr(r.out, "\n{\"id\":[-123456789012345678901234567890,{\"k\":99999999999999999999}],\"hit\":true,"));
    assert_non_null(strstr(r.out, "\"key\":9223372036854775807}\n{\"id\":4,\"error\":\"line 4: keys[0] = "
                                  "9223372036854775808 is beyond the 64-bit keys"));
    run_free(&r);
}

/* ---- bad lines ------------------------------------------------------------------------ */

/* A good line after each bad one: a ray cast over scene "g" (keys 0 and 1
 * at x = 2 and 4, then key 2 at x = 6 after the last line's add). */
#define GOOD_LINE                                                                                                      \
    "{\"id\":\"ok\",\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":9,\"scene\":\"g\",\"hits\":\"all\"}"
#define SPHERE "{\"type\":\"sphere\",\"center\":[0,5,0],\"radius\":0.5}"
#define RAY "\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0]"

static void test_bad_scene_lines(void** state)
{
    (void)state;
    static const struct {
        const char* line;
        const char* part;
    } bad[] = {
        /* unknown scenes */
        {"{" RAY ",\"scene\":\"nope\"}", "unknown scene \"nope\" (scene_create makes one)"},
        {"{\"op\":\"scene_add\",\"scene\":\"nope\",\"shapes\":[]}", "unknown scene \"nope\""},
        {"{\"op\":\"scene_remove\",\"scene\":\"nope\",\"keys\":[]}", "unknown scene \"nope\""},
        {"{\"op\":\"scene_move\",\"scene\":\"nope\",\"key\":0,\"shape\":" SPHERE "}", "unknown scene \"nope\""},
        /* unknown and repeated keys */
        {"{\"op\":\"scene_remove\",\"scene\":\"g\",\"keys\":[0,7]}", "keys[1]: scene \"g\" has no shape with key 7"},
        {"{\"op\":\"scene_remove\",\"scene\":\"g\",\"keys\":[1,0,1]}", "keys[0] and keys[2] are the same key 1"},
        {"{\"op\":\"scene_move\",\"scene\":\"g\",\"key\":7,\"shape\":" SPHERE "}",
         "scene \"g\" has no shape with key 7"},
        {"{\"op\":\"scene_add\",\"scene\":\"g\",\"shapes\":[" SPHERE ",{\"type\":\"point\",\"p\":[0,0,0],\"key\":1}]}",
         "shapes[1]: key 1 is already in scene \"g\""},
        {"{\"op\":\"scene_add\",\"scene\":\"g\",\"shapes\":[{\"type\":\"point\",\"p\":[0,0,0],\"key\":5}," SPHERE
         ",{\"type\":\"point\",\"p\":[0,0,0],\"key\":5}]}",
         "shapes[0] and shapes[2] have the same key 5"},
        {"{\"op\":\"scene_create\",\"scene\":\"g\",\"shapes\":[" SPHERE
         ",{\"type\":\"point\",\"p\":[0,0,0],\"key\":0}]}",
         "shapes[0] and shapes[1] have the same key 0"},
        {"{" RAY ",\"scene\":[" SPHERE "," SPHERE ",{\"type\":\"point\",\"p\":[0,0,0],\"key\":1}]}",
         "scene[1] and scene[2] have the same key 1"},
        /* planes */
        {"{\"op\":\"scene_add\",\"scene\":\"g\",\"shapes\":[{\"type\":\"plane\",\"normal\":[0,0,1],\"offset\":0}]}",
         "a plane cannot be in a scene (shapes[0])"},
        {"{\"op\":\"scene_create\",\"scene\":\"g\",\"shapes\":[" SPHERE
         ",{\"type\":\"plane\",\"normal\":[0,0,1],\"offset\":0}]}",
         "a plane cannot be in a scene (shapes[1])"},
        {"{" RAY ",\"scene\":[{\"type\":\"plane\",\"normal\":[0,0,1],\"offset\":0}]}",
         "a plane cannot be in a scene (scene[0])"},
        {"{\"op\":\"scene_move\",\"scene\":\"g\",\"key\":0,\"shape\":{\"type\":\"plane\",\"normal\":[0,0,1],"
         "\"offset\":0}}",
         "a plane cannot be in a scene (shape)"},
        /* hits and masks */
        {"{" RAY ",\"scene\":\"g\",\"hits\":\"first\"}",
         "hits must be \"closest\", \"any\" or \"all\" (got \"first\")"},
        {"{" RAY ",\"scene\":\"g\",\"hits\":2}", "hits must be \"closest\", \"any\" or \"all\" (got a number)"},
        {"{\"op\":\"overlap\",\"a\":" SPHERE ",\"scene\":\"g\",\"hits\":\"all\"}", "unknown field \"hits\""},
        {"{" RAY ",\"scene\":\"g\",\"mask\":-1}", "mask = -1 is out of range (a 64-bit mask is an integer from 0 to"},
        {"{" RAY ",\"scene\":\"g\",\"mask\":18446744073709551616}", "mask = 18446744073709551616 is out of range"},
        {"{" RAY ",\"scene\":\"g\",\"mask\":1.5}", "mask must be an integer from 0 to 18446744073709551615 (got 1.5)"},
        {"{" RAY ",\"scene\":\"g\",\"mask\":\"0xff\"}", "mask must be an integer from 0 to 18446744073709551615"},
        {"{\"op\":\"scene_add\",\"scene\":\"g\",\"shapes\":[{\"type\":\"point\",\"p\":[0,0,0],\"category\":-2}]}",
         "shapes[0].category = -2 is out of range"},
        {"{\"op\":\"scene_add\",\"scene\":\"g\",\"shapes\":[{\"type\":\"point\",\"p\":[0,0,0],\"mask\":true}]}",
         "shapes[0].mask must be an integer"},
        /* keys */
        {"{\"op\":\"scene_add\",\"scene\":\"g\",\"shapes\":[{\"type\":\"point\",\"p\":[0,0,0],\"key\":1.5}]}",
         "shapes[0].key must be an integer key (got 1.5)"},
        {"{\"op\":\"scene_add\",\"scene\":\"g\",\"shapes\":[{\"type\":\"point\",\"p\":[0,0,0],\"key\":\"a\"}]}",
         "shapes[0].key must be an integer key (got a string)"},
        {"{\"op\":\"scene_remove\",\"scene\":\"g\",\"keys\":[-9223372036854775809]}",
         "keys[0] = -9223372036854775809 is beyond the 64-bit keys"},
        {"{\"op\":\"scene_remove\",\"scene\":\"g\",\"keys\":3}",
         "keys must be an array of integer keys (got a number)"},
        {"{\"op\":\"scene_move\",\"scene\":\"g\",\"key\":0,\"shape\":{\"type\":\"point\",\"p\":[0,0,0],\"key\":0}}",
         "shape.key: scene_move names the shape by the request's \"key\""},
        /* fields */
        {"{\"op\":\"scene_create\",\"scene\":\"g\"}", "missing field \"shapes\" (a scene_create request has op, scene, "
                                                      "shapes, optional id)"},
        {"{\"op\":\"scene_create\",\"scene\":\"g\",\"shapes\":{}}",
         "shapes must be an array of shapes (got an object)"},
        {"{\"op\":\"scene_create\",\"scene\":\"\",\"shapes\":[]}", "scene must be a non-empty name"},
        {"{\"op\":\"scene_create\",\"scene\":7,\"shapes\":[]}", "scene must be a scene name (got a number)"},
        {"{\"op\":\"scene_create\",\"scene\":\"g\",\"shapes\":[],\"hits\":\"all\"}", "unknown field \"hits\""},
        {"{\"op\":\"scene_add\",\"scene\":\"g\",\"shapes\":[{\"type\":\"point\",\"p\":[0,0,0],\"velocity\":[0,0,0]}]}",
         "unknown field \"velocity\" in shapes[0] (a point has type, p, optional key, category, mask)"},
        {"{\"op\":\"scene_move\",\"scene\":\"g\",\"key\":0,\"shape\":" SPHERE ",\"velocity\":[1,0]}",
         "velocity must be an array of 3 numbers"},
        {"{\"op\":\"scene_move\",\"scene\":\"g\",\"key\":0}", "missing field \"shape\""},
        {"{" RAY ",\"scene\":\"g\",\"b\":" SPHERE "}", "a query takes either b or scene, not both"},
        {"{" RAY ",\"scene\":{}}", "scene must be a scene name or an array of shapes (got an object)"},
        {"{\"op\":\"sweep_inside\",\"a\":" SPHERE ",\"d\":[1,0,0],\"scene\":\"g\"}",
         "sweep_inside is not answered over a scene"},
        {"{\"op\":\"overlap\",\"a\":{\"type\":\"mesh\",\"v\":[[0,0,0],[1,0,0],[0,1,0]],\"tri\":[[0,1,2]]},"
         "\"scene\":\"g\"}",
         "a mesh cannot be the query shape over a scene (a)"},
        {"{\"op\":\"distance\",\"a\":{\"type\":\"plane\",\"normal\":[0,0,1],\"offset\":0},\"scene\":\"g\"}",
         "a plane cannot be the query shape over a scene (a)"},
        {"{\"op\":\"distance\",\"a\":" SPHERE ",\"scene\":\"g\",\"max\":-1}", "max must be >= 0 (got -1)"},
        {"{\"op\":\"sweep\",\"a\":{\"type\":\"mesh\",\"v\":[[0,0,0],[1,0,0],[0,1,0]],\"tri\":[[0,1,2]]},"
         "\"d\":[1,0,0],\"scene\":\"g\"}",
         "a mesh cannot be the moving shape (a)"},
        {"{\"op\":\"scene_grow\",\"scene\":\"g\"}", "unknown op \"scene_grow\""},
    };
    enum { N = sizeof bad / sizeof bad[0] };
    text in = {NULL, 0, 0};
    add(&in, "{\"op\":\"scene_create\",\"scene\":\"g\",\"shapes\":[{\"type\":\"sphere\",\"center\":[2,0,0],"
             "\"radius\":0.5},{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":0.5}]}\n");
    for (int i = 0; i < N; ++i) {
        add(&in, "%s\n" GOOD_LINE "\n", bad[i].line);
    }
    /* nothing the bad lines tried happened: the next default key is 2 */
    add(&in, "{\"op\":\"scene_add\",\"scene\":\"g\",\"shapes\":[{\"type\":\"sphere\",\"center\":[6,0,0],"
             "\"radius\":0.5}]}\n" GOOD_LINE "\n");
    answers a = query(in.s, 1, 2 * N + 3);
    for (int i = 0; i < N; ++i) {
        CHECK_ERROR(a.line[1 + 2 * i], 2 + 2 * i, bad[i].part);
        const json_t* hits = json_object_get(a.line[2 + 2 * i], "hits");
        CHECK_KEYS(a.line[2 + 2 * i], "id hits");
        assert_int_equal(json_array_size(hits), 2);
    }
    const json_t* hits = json_object_get(a.line[2 * N + 2], "hits");
    assert_int_equal(json_array_size(hits), 3);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(hits, 2), "key")), 2);
    answers_free(&a);
    free(in.s);
}

/* ---- a scene of 1000 shapes built over many lines ------------------------------------- */

enum { BIG_N = 1000 };

/* A small generator, so that the program and the in-process scene get the
 * same numbers: multiples of 1/8, exact in every build. */
static unsigned next_rand(unsigned* s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffu;
}

static double eighths(unsigned* s, int lo, int hi)
{
    return (lo + (int)(next_rand(s) % (unsigned)(hi - lo + 1))) / 8.0;
}

typedef struct big_scene {
    sw_shape shapes[BIG_N];
    int64_t keys[BIG_N];
    uint64_t categories[BIG_N];
    sw_vec3 quads[BIG_N][4];
} big_scene;

/* Shape i as JSON (into t) and in-process: spheres, boxes, capsules and
 * squares on a 10 x 10 x 10 grid of spacing 2. */
static void big_shape(big_scene* b, int i, unsigned* rnd, text* t)
{
    const double x = 2.0 * (i % 10) + eighths(rnd, -4, 4), y = 2.0 * (i / 10 % 10) + eighths(rnd, -4, 4);
    const double z = 2.0 * (i / 100) + eighths(rnd, -4, 4), r = eighths(rnd, 2, 6);
    add(t, "%s{", t->len > 0 && t->s[t->len - 1] != '[' ? "," : "");
    switch (i % 4) {
    case 0:
        add(t, "\"type\":\"sphere\",\"center\":[%.17g,%.17g,%.17g],\"radius\":%.17g", x, y, z, r);
        b->shapes[i] = sw_make_sphere(sw_v3(D(x), D(y), D(z)), D(r));
        break;
    case 1:
        add(t, "\"type\":\"box\",\"center\":[%.17g,%.17g,%.17g],\"half\":[%.17g,0.25,0.5]", x, y, z, r);
        b->shapes[i] = sw_make_box(sw_v3(D(x), D(y), D(z)), sw_v3(D(r), D(0.25), D(0.5)), sw_quat_identity());
        break;
    case 2:
        add(t, "\"type\":\"capsule\",\"a\":[%.17g,%.17g,%.17g],\"b\":[%.17g,%.17g,%.17g],\"radius\":0.25", x, y, z,
            x + r, y, z + r);
        b->shapes[i] = sw_make_capsule(sw_v3(D(x), D(y), D(z)), sw_v3(D(x + r), D(y), D(z + r)), D(0.25));
        break;
    default:
        add(t,
            "\"type\":\"polygon\",\"v\":[[%.17g,%.17g,%.17g],[%.17g,%.17g,%.17g],[%.17g,%.17g,%.17g],"
            "[%.17g,%.17g,%.17g]]",
            x, y, z, x + r, y, z, x + r, y + r, z, x, y + r, z);
        b->quads[i][0] = sw_v3(D(x), D(y), D(z));
        b->quads[i][1] = sw_v3(D(x + r), D(y), D(z));
        b->quads[i][2] = sw_v3(D(x + r), D(y + r), D(z));
        b->quads[i][3] = sw_v3(D(x), D(y + r), D(z));
        b->shapes[i] = sw_make_polygon(b->quads[i], 4, false);
        break;
    }
    b->categories[i] = i % 3 == 0 ? 1 : (i % 3 == 1 ? 2 : UINT64_MAX);
    if (i % 3 != 2) {
        add(t, ",\"category\":%d", i % 3 + 1);
    }
    if (i % 7 == 3) {
        b->keys[i] = 100000 + i;
        add(t, ",\"key\":%" PRId64, b->keys[i]);
    } else {
        b->keys[i] = i;
    }
    add(t, "}");
}

static void test_big_scene(void** state)
{
    (void)state;
    big_scene* b = calloc(1, sizeof *b);
    assert_non_null(b);
    text in = {NULL, 0, 0};
    unsigned rnd = 12345;
    sw_scene* s = sw_scene_create();
    /* Lines of 1, 2, 3, ... 13 shapes, over and over: the program rebuilds
     * the tree after some of them and not others. */
    int lines = 0;
    for (int i = 0, chunk = 1; i < BIG_N; chunk = chunk % 13 + 1) {
        const int n = i + chunk <= BIG_N ? chunk : BIG_N - i;
        add(&in, "{\"op\":\"%s\",\"scene\":\"big\",\"shapes\":[", i == 0 ? "scene_create" : "scene_add");
        for (int k = i; k < i + n; ++k) {
            big_shape(b, k, &rnd, &in);
        }
        add(&in, "]}\n");
        add_like_the_program(s, b->shapes + i, b->keys + i, b->categories + i, NULL, n);
        i += n;
        lines++;
    }
    /* Remove 50 shapes, move 20 (some faster, some to category 4). */
    add(&in, "{\"op\":\"scene_remove\",\"scene\":\"big\",\"keys\":[");
    for (int i = 0; i < 50; ++i) {
        const int64_t key = b->keys[i * 19 + 5];
        add(&in, "%s%" PRId64, i ? "," : "", key);
        assert_int_equal(sw_scene_remove(s, key), SW_SCENE_OK);
    }
    add(&in, "]}\n");
    lines++;
    for (int i = 0; i < 20; ++i) {
        const int k = i * 38 + 1; /* never one removed (those are 5 mod 19) */
        const double x = eighths(&rnd, 0, 150), y = eighths(&rnd, 0, 150), z = eighths(&rnd, 0, 150);
        const sw_shape moved = sw_make_sphere(sw_v3(D(x), D(y), D(z)), 1);
        const bool fast = i % 2 == 0, recategorised = i % 5 == 0;
        add(&in,
            "{\"op\":\"scene_move\",\"scene\":\"big\",\"key\":%" PRId64 ",\"shape\":{\"type\":\"sphere\","
            "\"center\":[%.17g,%.17g,%.17g],\"radius\":1%s}%s}\n",
            b->keys[k], x, y, z, recategorised ? ",\"category\":4" : "",
            fast ? ",\"velocity\":[1,2,3],\"angular_velocity\":[0,0.5,0]" : "");
        assert_int_equal(sw_scene_move(s, b->keys[k], &moved, fast ? sw_v3(1, 2, 3) : sw_v3(0, 0, 0),
                                       fast ? sw_v3(0, D(0.5), 0) : sw_v3(0, 0, 0)),
                         SW_SCENE_OK);
        if (recategorised) {
            assert_int_equal(sw_scene_set_filter(s, b->keys[k], 4, UINT64_MAX, NULL), SW_SCENE_OK);
        }
        lines++;
    }
    /* Queries: rays through the grid in every mode and mask, sweeps,
     * overlaps and distances. */
    enum { Q = 12 };
    sw_ray rays[Q];
    sw_vec3 ds[Q], centers[Q];
    static const char* const modes[] = {"closest", "any", "all"};
    static const uint64_t masks[] = {UINT64_MAX, 1, 6};
    for (int q = 0; q < Q; ++q) {
        const double ox = eighths(&rnd, -40, -8), oy = eighths(&rnd, 0, 150), oz = eighths(&rnd, 0, 150);
        const double dx = eighths(&rnd, 8, 16), dy = eighths(&rnd, -4, 4), dz = eighths(&rnd, -4, 4);
        rays[q] = (sw_ray){sw_v3(D(ox), D(oy), D(oz)), sw_v3(D(dx), D(dy), D(dz)), 30};
        ds[q] = sw_v3(D(dx * 20), D(dy * 20), D(dz * 20));
        add(&in,
            "{\"id\":%d,\"op\":\"raycast\",\"origin\":[%.17g,%.17g,%.17g],\"dir\":[%.17g,%.17g,%.17g],\"max\":30,"
            "\"scene\":\"big\",\"hits\":\"%s\",\"mask\":%" PRIu64 "}\n",
            q, ox, oy, oz, dx, dy, dz, modes[q % 3], masks[q / 3 % 3]);
        add(&in,
            "{\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[%.17g,%.17g,%.17g],\"radius\":0.375},"
            "\"d\":[%.17g,%.17g,%.17g],\"scene\":\"big\",\"hits\":\"%s\"}\n",
            ox, oy, oz, dx * 20, dy * 20, dz * 20, modes[q % 3]);
        const double cx = eighths(&rnd, 0, 150), cy = eighths(&rnd, 0, 150), cz = eighths(&rnd, 0, 150);
        centers[q] = sw_v3(D(cx), D(cy), D(cz));
        add(&in,
            "{\"op\":\"overlap\",\"a\":{\"type\":\"sphere\",\"center\":[%.17g,%.17g,%.17g],\"radius\":2.5},"
            "\"scene\":\"big\"}\n",
            cx, cy, cz);
        add(&in,
            "{\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[%.17g,%.17g,%.17g]},\"scene\":\"big\",\"max\":%s}\n",
            cx + 25, cy, cz, q % 2 ? "1" : "100");
    }
    answers a = query(in.s, 0, (size_t)lines + 4 * Q);
    /* Every scene request answered with the count so far. */
    int count = 0;
    for (int i = 0; i < lines; ++i) {
        count = (int)json_integer_value(json_object_get(a.line[i], "count"));
    }
    assert_int_equal(count, BIG_N - 50);
    assert_int_equal(sw_scene_count(s), BIG_N - 50);
    unsigned seen_hits = 0;
    for (int q = 0; q < Q; ++q) {
        json_t* const* line = a.line + lines + 4 * q;
        const sw_hits_mode mode = (sw_hits_mode)(q % 3);
        CHECK_RAYCAST(line[0], s, &rays[q], mode, masks[q / 3 % 3]);
        const sw_shape start = sw_make_sphere(rays[q].origin, D(0.375));
        CHECK_SWEEP(line[1], s, &start, ds[q], NULL, mode, UINT64_MAX);
        const sw_shape around = sw_make_sphere(centers[q], D(2.5));
        CHECK_OVERLAPS(line[2], s, &around, UINT64_MAX);
        const sw_shape far = sw_make_point(sw_v3(D((double)centers[q].x + 25), centers[q].y, centers[q].z));
        CHECK_CLOSEST(line[3], s, &far, q % 2 ? 1 : 100, UINT64_MAX);
        seen_hits += json_is_array(json_object_get(line[0], "hits"))
                         ? (unsigned)json_array_size(json_object_get(line[0], "hits"))
                         : json_is_true(json_object_get(line[0], "hit"));
    }
    /* The queries do meet the scene. */
    assert_true(seen_hits > 10);
    sw_scene_destroy(s);
    answers_free(&a);
    free(in.s);
    free(b);
}

int cli_scene_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_level_answers),   cmocka_unit_test(test_scene_changes),
        cmocka_unit_test(test_inline_scene),    cmocka_unit_test(test_big_integers),
        cmocka_unit_test(test_bad_scene_lines), cmocka_unit_test(test_big_scene),
    };
    return cmocka_run_group_tests_name("cli_scene", tests, NULL, NULL);
}
