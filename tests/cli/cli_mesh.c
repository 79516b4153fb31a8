/* Tests of meshes in `sweep query` (DESIGN.md §2a, §5): inline meshes and
 * mesh files as B (and as A of overlap and distance) answered exactly as
 * the library answers them in-process, with "triangle" beside "feature";
 * the fan numbering of a file's polygons; and an error line, after which
 * the program goes on, for every bad mesh. */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_support.h"

/* A good line: a sphere swept head-on into another, t = 0.25. */
#define HEAD_ON_LINE                                                                                                   \
    "{\"id\":0,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1},\"d\":[8,0,0],"            \
    "\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":1}}\n"

static const char* const mesh_hit_keys = "id hit overlapping t point normal depth feature triangle";

/* A floor [0, 2] x [0, 2] at z = 0 (triangles 0 and 1, split along the
 * diagonal y = x) and a wall at x = 2, z in [0, 1] (triangles 2 and 3). */
#define STEP_V "[[0,0,0],[2,0,0],[2,2,0],[0,2,0],[2,0,1],[2,2,1]]"
#define STEP_TRI "[[0,1,2],[0,2,3],[1,4,5],[1,5,2]]"
#define STEP_MESH "{\"type\":\"mesh\",\"v\":" STEP_V ",\"tri\":" STEP_TRI "}"
static const sw_vec3 step_v[6] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}, {2, 0, 1}, {2, 2, 1}};
static const int step_tri[12] = {0, 1, 2, 0, 2, 3, 1, 4, 5, 1, 5, 2};

/* The answer is exactly the library's own hit h on a mesh (the numbers
 * bit for bit, the feature and the triangle). */
static void check_mesh_hit(const json_t* o, sw_hit h, const char* file, int line)
{
    if (h.status != SW_OK) {
        check_fail(o, file, line, "the library did not answer this query in-process (status %d)", (int)h.status);
        return;
    }
    if (!h.hit) {
        check_keys(o, "id hit", file, line);
        check_bool(o, "hit", false, file, line);
        return;
    }
    static const char* const kinds[] = {"none", "vertex", "edge", "face"};
    check_keys(o, mesh_hit_keys, file, line);
    check_bool(o, "overlapping", h.overlapping, file, line);
    check_real(o, "t", h.t, file, line);
    check_vec(o, "point", h.point.x, h.point.y, h.point.z, file, line);
    check_vec(o, "normal", h.normal.x, h.normal.y, h.normal.z, file, line);
    check_real(o, "depth", h.depth, file, line);
    const json_t* feature = json_object_get(o, "feature");
    const char* kind = json_string_value(json_object_get(feature, "kind"));
    if (!kind || strcmp(kind, kinds[h.feature.kind]) != 0 ||
        json_integer_value(json_object_get(feature, "index")) != h.feature.index) {
        check_fail(o, file, line, "feature: expected %s %d", kinds[h.feature.kind], h.feature.index);
    }
    const json_t* tri = json_object_get(o, "triangle");
    if (!json_is_integer(tri) || json_integer_value(tri) != h.triangle) {
        check_fail(o, file, line, "triangle: expected %d", h.triangle);
    }
}
#define CHECK_MESH_HIT(o, h) check_mesh_hit((o), (h), __FILE__, __LINE__)

static void check_overlap(const json_t* o, sw_overlap_result r, const char* file, int line)
{
    if (r.status != SW_OK || !r.overlapping) {
        check_fail(o, file, line, "expected the library to answer overlapping in-process");
        return;
    }
    check_keys(o, "id overlapping depth normal point", file, line);
    check_real(o, "depth", r.depth, file, line);
    check_vec(o, "normal", r.normal.x, r.normal.y, r.normal.z, file, line);
    check_vec(o, "point", r.point.x, r.point.y, r.point.z, file, line);
}
#define CHECK_OVERLAP(o, r) check_overlap((o), (r), __FILE__, __LINE__)

static void check_distance(const json_t* o, sw_distance_result r, const char* file, int line)
{
    if (r.status != SW_OK) {
        check_fail(o, file, line, "expected the library to answer in-process");
        return;
    }
    check_keys(o, "id distance point_a point_b", file, line);
    check_real(o, "distance", r.distance, file, line);
    check_vec(o, "point_a", r.point_a.x, r.point_a.y, r.point_a.z, file, line);
    check_vec(o, "point_b", r.point_b.x, r.point_b.y, r.point_b.z, file, line);
}
#define CHECK_DISTANCE(o, r) check_distance((o), (r), __FILE__, __LINE__)

/* Inline meshes as B of every query, as A of overlap and distance, placed
 * and one-sided: each answer is the library's, and a hit names its
 * triangle. */
static void test_inline_mesh_answers(void** state)
{
    (void)state;
    answers a = query(
        /* 1: a sphere dropped on the floor lands in triangle 1 (y > x) at
         * t = (1 - 0.25) / 2 */
        "{\"id\":1,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0.5,1.5,1],\"radius\":0.25},"
        "\"d\":[0,0,-2],\"b\":" STEP_MESH "}\n"
        /* 2: a box standing on the floor slides into the wall; the floor
         * it leaves (and its diagonal) is ignored: t = 1.25 / 2 */
        "{\"id\":2,\"op\":\"sweep\",\"a\":{\"type\":\"box\",\"center\":[0.5,1,0.25],\"half\":[0.25,0.25,0.25]},"
        "\"d\":[2,0,0],\"b\":" STEP_MESH ",\"ignore_separating\":true}\n"
        /* 3: the same with a skin */
        "{\"id\":3,\"op\":\"sweep\",\"a\":{\"type\":\"capsule\",\"a\":[0.5,1,0.25],\"b\":[0.5,1,0.75],\"radius\":0.25},"
        "\"d\":[2,0,0],\"b\":" STEP_MESH ",\"ignore_separating\":true,\"skin\":0.25}\n"
        /* 4: a ray into the wall's triangle 2 at t = 2 */
        "{\"id\":4,\"op\":\"raycast\",\"origin\":[0,1,0.75],\"dir\":[1,0,0],\"max\":5,\"b\":" STEP_MESH "}\n"
        /* 5: a ray away from it: no hit, no triangle */
        "{\"id\":5,\"op\":\"raycast\",\"origin\":[0,1,0.75],\"dir\":[-1,0,0],\"max\":5,\"b\":" STEP_MESH "}\n"
        /* 6, 7: overlap, the mesh as b and as a */
        "{\"id\":6,\"op\":\"overlap\",\"a\":{\"type\":\"sphere\",\"center\":[1,0.5,0.1],\"radius\":0.5},"
        "\"b\":" STEP_MESH "}\n"
        "{\"id\":7,\"op\":\"overlap\",\"a\":" STEP_MESH ","
        "\"b\":{\"type\":\"sphere\",\"center\":[1,0.5,0.1],\"radius\":0.5}}\n"
        /* 8, 9: distance, the mesh as b and as a */
        "{\"id\":8,\"op\":\"distance\",\"a\":{\"type\":\"sphere\",\"center\":[1,1,3],\"radius\":0.5},"
        "\"b\":" STEP_MESH "}\n"
        "{\"id\":9,\"op\":\"distance\",\"a\":" STEP_MESH ",\"b\":{\"type\":\"point\",\"p\":[-1,1,0]}}\n"
        /* 10, 11: the floor turned upside down ([1,0,0,0]: 180 degrees
         * about x) and lifted to z = 5, one-sided: its fronts face down,
         * so a ray from above misses and one from below hits */
        "{\"id\":10,\"op\":\"raycast\",\"origin\":[0.5,-1.5,9],\"dir\":[0,0,-1],\"max\":10,"
        "\"b\":{\"type\":\"mesh\",\"v\":" STEP_V ",\"tri\":[[0,1,2],[0,2,3]],\"one_sided\":true,"
        "\"position\":[0,0,5],\"rotation\":[1,0,0,0]}}\n"
        "{\"id\":11,\"op\":\"raycast\",\"origin\":[0.5,-1.5,0],\"dir\":[0,0,1],\"max\":10,"
        "\"b\":{\"type\":\"mesh\",\"v\":" STEP_V ",\"tri\":[[0,1,2],[0,2,3]],\"one_sided\":true,"
        "\"position\":[0,0,5],\"rotation\":[1,0,0,0]}}\n",
        0, 11);

    sw_mesh* step = sw_mesh_create(step_v, 6, step_tri, 4, NULL);
    assert_non_null(step);
    const sw_shape b = sw_make_mesh(step, sw_v3(0, 0, 0), sw_quat_identity(), false);
    sw_sweep_options slide = {0, true};

    const sw_shape drop = sw_make_sphere(sw_v3(0.5, 1.5, 1), SW_R(0.25));
    sw_hit h = sw_sweep(&drop, sw_v3(0, 0, -2), &b, NULL);
    CHECK_MESH_HIT(a.line[0], h);
    CHECK_REAL(a.line[0], "t", 0.375);
    assert_int_equal(h.triangle, 1);

    const sw_shape box =
        sw_make_box(sw_v3(0.5, 1, SW_R(0.25)), sw_v3(SW_R(0.25), SW_R(0.25), SW_R(0.25)), sw_quat_identity());
    h = sw_sweep(&box, sw_v3(2, 0, 0), &b, &slide);
    CHECK_MESH_HIT(a.line[1], h);
    CHECK_REAL(a.line[1], "t", 0.625);
    CHECK_VEC(a.line[1], "normal", -1, 0, 0);

    slide.skin = SW_R(0.25);
    const sw_shape capsule = sw_make_capsule(sw_v3(0.5, 1, SW_R(0.25)), sw_v3(0.5, 1, SW_R(0.75)), SW_R(0.25));
    h = sw_sweep(&capsule, sw_v3(2, 0, 0), &b, &slide);
    CHECK_MESH_HIT(a.line[2], h);
    CHECK_REAL(a.line[2], "t", 0.5);

    sw_ray ray = {sw_v3(0, 1, SW_R(0.75)), sw_v3(1, 0, 0), 5};
    h = sw_raycast(&ray, &b);
    CHECK_MESH_HIT(a.line[3], h);
    CHECK_REAL(a.line[3], "t", 2);
    assert_int_equal(h.triangle, 2);
    ray.dir = sw_v3(-1, 0, 0);
    CHECK_MESH_HIT(a.line[4], sw_raycast(&ray, &b));
    CHECK_KEYS(a.line[4], "id hit");

    const sw_shape ball = sw_make_sphere(sw_v3(1, SW_R(0.5), SW_R(0.1)), SW_R(0.5));
    CHECK_OVERLAP(a.line[5], sw_overlap(&ball, &b));
    CHECK_OVERLAP(a.line[6], sw_overlap(&b, &ball));
    CHECK_VEC(a.line[5], "normal", 0, 0, 1);
    CHECK_VEC(a.line[6], "normal", 0, 0, -1);

    const sw_shape high = sw_make_sphere(sw_v3(1, 1, 3), SW_R(0.5));
    const sw_shape point = sw_make_point(sw_v3(-1, 1, 0));
    CHECK_DISTANCE(a.line[7], sw_distance(&high, &b));
    CHECK_DISTANCE(a.line[8], sw_distance(&b, &point));
    CHECK_REAL(a.line[8], "distance", 1);

    sw_mesh* floor = sw_mesh_create(step_v, 6, step_tri, 2, NULL);
    assert_non_null(floor);
    const sw_shape lid = sw_make_mesh(floor, sw_v3(0, 0, 5), (sw_quat){1, 0, 0, 0}, true);
    ray = (sw_ray){sw_v3(0.5, SW_R(-1.5), 9), sw_v3(0, 0, -1), 10};
    CHECK_MESH_HIT(a.line[9], sw_raycast(&ray, &lid));
    CHECK_BOOL(a.line[9], "hit", false);
    ray = (sw_ray){sw_v3(0.5, SW_R(-1.5), 0), sw_v3(0, 0, 1), 10};
    CHECK_MESH_HIT(a.line[10], sw_raycast(&ray, &lid));
    CHECK_REAL(a.line[10], "t", 5);
    CHECK_VEC(a.line[10], "normal", 0, 0, -1);

    sw_mesh_destroy(floor);
    sw_mesh_destroy(step);
    answers_free(&a);
}

/* ---- mesh files ------------------------------------------------------------------ */

typedef struct temp_dir {
    char path[64];
} temp_dir;

static temp_dir make_temp_dir(void)
{
    temp_dir d;
    const char* base = getenv("TMPDIR");
    snprintf(d.path, sizeof d.path, "%s/sweep_cli_XXXXXX", base && strlen(base) < 40 ? base : "/tmp");
    assert_non_null(mkdtemp(d.path));
    return d;
}

/* Writes text to dir/name; returns the full path in path. */
static void write_file(const temp_dir* d, const char* name, const char* text, char* path, size_t size)
{
    snprintf(path, size, "%s/%s", d->path, name);
    FILE* f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* A quad at z = 0 (triangles 0 and 1: the fan from its first vertex), a
 * quad in the wall y = 0 whose first vertex is (1, 0, 0) (2 and 3), then
 * a second object: a pentagon at z = 5 (4, 5 and 6). */
static const char* const fan_obj = "# fan numbering\n"
                                   "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\n"
                                   "f 1 2 3 4\n"
                                   "f 2 6 5 1\n"
                                   "o second\n"
                                   "v 0 0 5\nv 2 0 5\nv 3 2 5\nv 1 3 5\nv -1 2 5\n"
                                   "f 7 8 9 10 11\n";

/* A ray from height z0 straight down through (x, y), against the mesh of
 * `file`. */
#define RAY_DOWN(id, x, y, z0, file)                                                                                   \
    "{\"id\":" #id ",\"op\":\"raycast\",\"origin\":[" #x "," #y "," #z0 "],\"dir\":[0,0,-1],\"max\":10,"               \
    "\"b\":{\"type\":\"mesh\",\"obj\":\"" file "\"}}\n"

static void expect_triangle(const json_t* o, int triangle, const char* file, int line)
{
    check_keys(o, mesh_hit_keys, file, line);
    const json_t* t = json_object_get(o, "triangle");
    if (json_integer_value(t) != triangle) {
        check_fail(o, file, line, "triangle: expected %d", triangle);
    }
}
#define EXPECT_TRIANGLE(o, t) expect_triangle((o), (t), __FILE__, __LINE__)

/* A file's polygons are fans from their first vertex, numbered in file
 * order across objects; the path is relative to the working directory;
 * the file is read once and answers every line that names it, also after
 * a bad line. */
static void test_obj_fan_numbering(void** state)
{
    (void)state;
    temp_dir d = make_temp_dir();
    char path[256];
    write_file(&d, "fan.obj", fan_obj, path, sizeof path);
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(d.path), 0);
    run_result r = run_sweep(RAY_DOWN(1, 0.7, 0.2, 1, "fan.obj") /* (0,0) (1,0) (1,1): 0 */
                             RAY_DOWN(2, 0.2, 0.7, 1, "fan.obj") /* (0,0) (1,1) (0,1): 1 */
                             "{\"id\":3,\"op\":\"raycast\",\"origin\":[0.8,-1,0.5],\"dir\":[0,1,0],\"max\":5,"
                             "\"b\":{\"type\":\"mesh\",\"obj\":\"fan.obj\"}}\n" /* (1,0,0) (1,0,1) (0,0,1): 2 */
                             "{\"id\":4,\"op\":\"raycast\",\"origin\":[0.2,-1,0.3],\"dir\":[0,1,0],\"max\":5,"
                             "\"b\":{\"type\":\"mesh\",\"obj\":\"fan.obj\"}}\n" /* (1,0,0) (0,0,1) (0,0,0): 3 */
                             "not json\n" RAY_DOWN(6, 1.5, 0.5, 9, "fan.obj")   /* (0,0) (2,0) (3,2): 4 */
                             RAY_DOWN(7, 1, 2, 9, "fan.obj")                    /* (0,0) (3,2) (1,3): 5 */
                             RAY_DOWN(8, 0, 2, 9, "fan.obj")                    /* (0,0) (1,3) (-1,2): 6 */
                             RAY_DOWN(9, 5, 5, 9, "fan.obj"),                   /* outside: no hit */
                             "query");
    /* Back before any check can fail and leave the test elsewhere. */
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(r.status, 1);
    answers a = parse_answers(&r);
    run_free(&r);
    assert_int_equal(a.count, 9);
    EXPECT_TRIANGLE(a.line[0], 0);
    EXPECT_TRIANGLE(a.line[1], 1);
    EXPECT_TRIANGLE(a.line[2], 2);
    EXPECT_TRIANGLE(a.line[3], 3);
    CHECK_ERROR(a.line[4], 5, "invalid JSON");
    EXPECT_TRIANGLE(a.line[5], 4);
    EXPECT_TRIANGLE(a.line[6], 5);
    EXPECT_TRIANGLE(a.line[7], 6);
    CHECK_KEYS(a.line[8], "id hit");
    CHECK_REAL(a.line[0], "t", 1);
    CHECK_VEC(a.line[0], "point", 0.7, 0.2, 0);
    CHECK_REAL(a.line[5], "t", 4);
    answers_free(&a);

    /* The same file by its full path, as a sweep's b, answered as the
     * library answers the mesh built in-process from the same numbers. */
    char line[512];
    snprintf(line, sizeof line,
             "{\"id\":1,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0.3,0.6,2],\"radius\":0.25},"
             "\"d\":[0,0,-3],\"b\":{\"type\":\"mesh\",\"obj\":\"%s\"}}\n",
             path);
    a = query(line, 0, 1);
    static const sw_vec3 v[6] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}};
    static const int tri[12] = {0, 1, 2, 0, 2, 3, 1, 5, 4, 1, 4, 0};
    sw_mesh* m = sw_mesh_create(v, 6, tri, 4, NULL);
    assert_non_null(m);
    const sw_shape b = sw_make_mesh(m, sw_v3(0, 0, 0), sw_quat_identity(), false);
    const sw_shape ball = sw_make_sphere(sw_v3(SW_R(0.3), SW_R(0.6), 2), SW_R(0.25));
    CHECK_MESH_HIT(a.line[0], sw_sweep(&ball, sw_v3(0, 0, -3), &b, NULL));
    sw_mesh_destroy(m);
    answers_free(&a);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(d.path), 0);
}

/* Bad mesh files: each gets a one-line error naming the file and the
 * reason, and the next line is answered. */
static void test_bad_obj_files(void** state)
{
    (void)state;
    temp_dir d = make_temp_dir();
    char bad_index[256], lines_only[256], huge[256], empty[256];
    write_file(&d, "bad_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", bad_index, sizeof bad_index);
    write_file(&d, "lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\nl 2 3\n", lines_only, sizeof lines_only);
    /* Beyond every build's coordinate limit (and float's range). */
    write_file(&d, "huge.obj", "v 0 0 0\nv 1e300 0 0\nv 0 1 0\nf 1 2 3\n", huge, sizeof huge);
    write_file(&d, "empty.obj", "", empty, sizeof empty);
    const char* const files[] = {"missing.obj", bad_index, lines_only, huge, empty, d.path};
    const char* const parts[] = {"No such file or directory", "cannot read '", "' has no triangles",
                                 "coordinate out of range",   "cannot read '", "cannot read '"};
    enum { N = sizeof files / sizeof files[0] };
    char input[8192] = "";
    for (int i = 0; i < N; ++i) {
        char line[640];
        snprintf(line, sizeof line,
                 "{\"id\":%d,\"op\":\"raycast\",\"origin\":[0.2,0.2,1],\"dir\":[0,0,-1],"
                 "\"b\":{\"type\":\"mesh\",\"obj\":\"%s\"}}\n" HEAD_ON_LINE,
                 i, files[i]);
        strncat(input, line, sizeof input - strlen(input) - 1);
    }
    answers a = query(input, 1, 2 * N);
    for (int i = 0; i < N; ++i) {
        CHECK_ERROR(a.line[2 * i], 2 * i + 1, parts[i]);
        CHECK_ERROR(a.line[2 * i], 2 * i + 1, "b.obj: ");
        CHECK_KEYS(a.line[2 * i + 1], "id hit overlapping t point normal depth feature");
        CHECK_REAL(a.line[2 * i + 1], "t", 0.25);
    }
    CHECK_ERROR(a.line[0], 1, "cannot open 'missing.obj'");
    answers_free(&a);
    for (int i = 1; i < N - 1; ++i) {
        assert_int_equal(unlink(files[i]), 0);
    }
    assert_int_equal(rmdir(d.path), 0);
}

/* Every malformed mesh is an error line naming the field; a mesh cannot
 * move; each bad line is followed by a good one, which is answered. */
static void test_bad_mesh_lines(void** state)
{
    (void)state;
#define MESH_B(body)                                                                                                   \
    "{\"id\":\"e\",\"op\":\"raycast\",\"origin\":[0.5,1,1],\"dir\":[0,0,-1],\"b\":{\"type\":\"mesh\"," body "}}"
    static const struct {
        const char* line;
        const char* part;
    } bad[] = {
        {MESH_B("\"v\":" STEP_V ",\"tri\":[[0,1,6]]"),
         "b.tri[0][2] = 6 is not a vertex index (b.v has 6 vertices: 0 to 5)"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":[[0,1,2],[-1,1,2]]"), "b.tri[1][0] = -1 is not a vertex index"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":[[0,1.5,2]]"), "b.tri[0][1] must be an integer vertex index (got 1.5)"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":[[0,\"1\",2]]"),
         "b.tri[0][1] must be an integer vertex index (got a string)"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":[[0,1]]"), "b.tri[0] must be an array of 3 vertex indices (got 2 elements)"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":[7]"), "b.tri[0] must be an array of 3 vertex indices (got a number)"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":[]"), "b.tri must have 1 to"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":{}"), "b.tri must be an array of vertex index triples"},
        {MESH_B("\"v\":[[0,0,0],[1,0],[0,1,0]],\"tri\":[[0,1,2]]"), "b.v[1] must be an array of 3 numbers"},
        {MESH_B("\"v\":[[0,0,0],[1,0,null],[0,1,0]],\"tri\":[[0,1,2]]"), "b.v[1] must be an array of 3 numbers"},
        {MESH_B("\"v\":[[0,0,0],[1e300,0,0],[0,1,0]],\"tri\":[[0,1,2]]"), "b.v[1][0] = 1e+300"},
        {MESH_B("\"v\":[],\"tri\":[[0,1,2]]"), "b.v must have 1 to"},
        {MESH_B("\"v\":" STEP_V), "missing field \"tri\" in b (a mesh takes either obj, or v and tri)"},
        {MESH_B("\"tri\":" STEP_TRI), "missing field \"v\" in b"},
        {MESH_B("\"one_sided\":true"), "missing field \"v\" in b"},
        {MESH_B("\"obj\":\"x.obj\",\"v\":" STEP_V), "b has both \"obj\" and \"v\""},
        {MESH_B("\"obj\":3"), "b.obj must be a file name (got a number)"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":" STEP_TRI ",\"normals\":[]"),
         "unknown field \"normals\" in b (a mesh has type, optional v, tri, obj, one_sided, position, rotation)"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":" STEP_TRI ",\"one_sided\":1"), "b.one_sided must be true or false"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":" STEP_TRI ",\"rotation\":[0,0,0,0]"),
         "mesh position and rotation must be finite, the rotation non-zero (in b)"},
        {MESH_B("\"v\":" STEP_V ",\"tri\":" STEP_TRI ",\"position\":[1,2]"),
         "b.position must be an array of 3 numbers"},
        {"{\"id\":\"e\",\"op\":\"sweep\",\"a\":" STEP_MESH
         ",\"d\":[1,0,0],\"b\":{\"type\":\"sphere\",\"center\":[0,0,0],"
         "\"radius\":1}}",
         "a mesh cannot be the moving shape (a)"},
        {"{\"id\":\"e\",\"op\":\"sweep_inside\",\"a\":" STEP_MESH ",\"d\":[1,0,0],\"b\":{\"type\":\"sphere\","
         "\"center\":[0,0,0],\"radius\":9}}",
         "a mesh cannot be the moving shape (a)"},
        {"{\"id\":\"e\",\"op\":\"sweep_inside\",\"a\":{\"type\":\"sphere\",\"center\":[1,1,1],\"radius\":0.1},"
         "\"d\":[1,0,0],\"b\":" STEP_MESH "}",
         "sweep_inside of a sphere in a mesh is not supported"},
        {"{\"id\":\"e\",\"op\":\"overlap\",\"a\":" STEP_MESH ",\"b\":" STEP_MESH "}",
         "overlap of a mesh and a mesh is not supported"},
    };
#undef MESH_B
    enum { N = sizeof bad / sizeof bad[0] };
    size_t cap = 64 * 1024, len = 0;
    char* input = malloc(cap);
    assert_non_null(input);
    input[0] = '\0';
    for (int i = 0; i < N; ++i) {
        len += (size_t)snprintf(input + len, cap - len, "%s\n" HEAD_ON_LINE, bad[i].line);
        assert_true(len < cap);
    }
    answers a = query(input, 1, 2 * N);
    for (int i = 0; i < N; ++i) {
        CHECK_ERROR(a.line[2 * i], 2 * i + 1, bad[i].part);
        CHECK_ID(a.line[2 * i], "\"e\"");
        CHECK_REAL(a.line[2 * i + 1], "t", 0.25);
    }
    answers_free(&a);
    free(input);
}

int cli_mesh_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inline_mesh_answers),
        cmocka_unit_test(test_obj_fan_numbering),
        cmocka_unit_test(test_bad_obj_files),
        cmocka_unit_test(test_bad_mesh_lines),
    };
    return cmocka_run_group_tests_name("cli_mesh", tests, NULL, NULL);
}
