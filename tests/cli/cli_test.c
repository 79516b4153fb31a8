/* Tests of the `sweep` program itself: `sweep query` answers, error lines,
 * exit statuses, streaming in constant memory, `--help`/`--version` and
 * `sweep demo`; meshes in cli_mesh.c, scenes in cli_scene.c, helpers in
 * cli_support.c.
 *
 * usage: cli_test PATH_TO_SWEEP GROUP   (GROUP: main answers errors stream demo mesh scene) */
#define _GNU_SOURCE /* wait4 */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>

#include <cmocka.h>
#include <jansson.h>

#include "sweep/sweep.h"

#include "cli_support.h"

static const char* const hit_keys = "id hit overlapping t point normal depth feature";

/* Sphere of radius 1 at the origin swept by (8,0,0) into a sphere of radius
 * 1 at (4,0,0): the centres are 2 apart when A has moved 2 of its 8, so
 * t = 0.25 exactly, at the point (3,0,0) with normal (-1,0,0). */
#define HEAD_ON_BODY                                                                                                   \
    "\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1},\"d\":[8,0,0],"                      \
    "\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":1}"

static void check_head_on(const json_t* o, const char* file, int line)
{
    check_keys(o, hit_keys, file, line);
    check_bool(o, "hit", true, file, line);
    check_bool(o, "overlapping", false, file, line);
    check_real(o, "t", 0.25, file, line);
    check_vec(o, "point", 3, 0, 0, file, line);
    check_vec(o, "normal", -1, 0, 0, file, line);
    check_real(o, "depth", 0, file, line);
}
#define CHECK_HEAD_ON(o) check_head_on((o), __FILE__, __LINE__)

/* ---- group main: the program's own options -------------------------------- */

static void test_help(void** state)
{
    (void)state;
    run_result r = run_sweep(NULL, "--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: sweep COMMAND"));
    assert_non_null(strstr(r.out, "query"));
    assert_non_null(strstr(r.out, "demo"));
    assert_non_null(strstr(r.out, "render"));
    run_free(&r);

    r = run_sweep(NULL, "help", "query");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: sweep query"));
    run_free(&r);
}

static void test_command_help(void** state)
{
    (void)state;
    run_result r = run_sweep(NULL, "query", "--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: sweep query [FILE]"));
    assert_non_null(strstr(r.out, "\"op\":\"raycast\""));
    assert_string_equal(r.err, "");
    run_free(&r);

    r = run_sweep(NULL, "demo", "--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: sweep demo"));
    run_free(&r);
}

static void test_version(void** state)
{
    (void)state;
    run_result r = run_sweep(NULL, "--version");
    assert_int_equal(r.status, 0);
    char want[64];
    snprintf(want, sizeof want, "sweep %s (%s precision)\n", sw_version(), sw_precision());
    assert_string_equal(r.out, want);
    /* The build's precision, as the compiler of this test sees it. */
    assert_non_null(strstr(r.out, sizeof(sw_real) == sizeof(double) ? "double" : "float"));
    run_free(&r);
}

static void test_usage_errors(void** state)
{
    (void)state;
    run_result r = run_sweep(NULL, "frobnicate");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown command 'frobnicate'"));
    run_free(&r);

    r = run_sweep_n(NULL, 0, (const char*)NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "usage: sweep COMMAND"));
    run_free(&r);

    r = run_sweep(NULL, "query", "--bogus");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown option '--bogus'"));
    run_free(&r);

    r = run_sweep(NULL, "query", "a.jsonl", "b.jsonl");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "only one input file"));
    run_free(&r);

    r = run_sweep(NULL, "query", "/nonexistent/requests.jsonl");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "cannot open '/nonexistent/requests.jsonl'"));
    assert_string_equal(r.out, "");
    run_free(&r);

    r = run_sweep(NULL, "query", "/");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "error reading"));
    run_free(&r);

    r = run_sweep(NULL, "demo", "--steps", "zero");
    assert_int_equal(r.status, 2);
    run_free(&r);
}

/* FILE argument and "-" for standard input give the same answers. */
static void test_query_file_argument(void** state)
{
    (void)state;
    char path[] = "/tmp/sweep_cli_test_XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char* text = "{\"id\":1," HEAD_ON_BODY "}\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);

    run_result from_file = run_sweep(NULL, "query", path);
    run_result from_dash = run_sweep(text, "query", "-");
    run_result from_stdin = run_sweep(text, "query");
    unlink(path);
    assert_int_equal(from_file.status, 0);
    assert_int_equal(from_dash.status, 0);
    assert_int_equal(from_stdin.status, 0);
    assert_string_equal(from_file.out, from_dash.out);
    assert_string_equal(from_file.out, from_stdin.out);
    answers a = parse_answers(&from_file);
    assert_int_equal(a.count, 1);
    CHECK_HEAD_ON(a.line[0]);
    answers_free(&a);
    run_free(&from_file);
    run_free(&from_dash);
    run_free(&from_stdin);

    /* Empty input: no answers, success. */
    run_result empty = run_sweep("", "query");
    assert_int_equal(empty.status, 0);
    assert_string_equal(empty.out, "");
    run_free(&empty);
}

/* ---- group answers: every answer type ----------------------------------------- */

/* The exact text of the DESIGN.md §5 formats, key order included. */
static void test_answer_text(void** state)
{
    (void)state;
    run_result r = run_sweep("{\"id\":1," HEAD_ON_BODY "}\n"
                             "{\"id\":2,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1},"
                             "\"d\":[0,8,0],\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":1}}\n"
                             "{\"op\":\"overlap\",\"a\":{\"type\":\"point\",\"p\":[0,0,0]},"
                             "\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":1}}\n",
                             "query");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "{\"id\":1,\"hit\":true,\"overlapping\":false,\"t\":0.25,\"point\":[3,0,0],"
                               "\"normal\":[-1,0,0],\"depth\":0,\"feature\":{\"kind\":\"none\"}}\n"
                               "{\"id\":2,\"hit\":false}\n"
                               "{\"id\":null,\"overlapping\":false}\n");
    run_free(&r);
}

static void test_sweep_answers(void** state)
{
    (void)state;
    answers a = query(
        /* 1: head-on hit at t = 0.25 */
        "{\"id\":1," HEAD_ON_BODY "}\n"
        /* 2: miss (moving sideways) */
        "{\"id\":2,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1},\"d\":[0,8,0],"
        "\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":1}}\n"
        /* 3: initial overlap: centres 1.5 apart, radii 1 + 1 */
        "{\"id\":3,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1},\"d\":[8,0,0],"
        "\"b\":{\"type\":\"sphere\",\"center\":[1.5,0,0],\"radius\":1}}\n"
        /* 4: skin 0.5: contact when the centres are 2.5 apart, t = 1.5 / 8 */
        "{\"id\":4," HEAD_ON_BODY ",\"skin\":0.5}\n"
        /* 5: touching and moving away, ignore_separating: no hit */
        "{\"id\":5,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[2,0,0],\"radius\":1},\"d\":[-3,0,0],"
        "\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":1},\"ignore_separating\":true}\n"
        /* 6: the same without the flag: an initial touch */
        "{\"id\":6,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[2,0,0],\"radius\":1},\"d\":[-3,0,0],"
        "\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":1},\"ignore_separating\":false,\"skin\":0}\n"
        /* 7: a point swept into a sphere, integers and reals mixed */
        "{\"id\":7,\"op\":\"sweep\",\"a\":{\"type\":\"point\",\"p\":[0,0,0.0]},\"d\":[0,0,10],"
        "\"b\":{\"type\":\"sphere\",\"center\":[0,0,5.0],\"radius\":2.5}}\n",
        0, 7);

    CHECK_HEAD_ON(a.line[0]);
    CHECK_ID(a.line[0], "1");
    assert_string_equal(json_string_value(json_object_get(json_object_get(a.line[0], "feature"), "kind")), "none");

    CHECK_KEYS(a.line[1], "id hit");
    CHECK_BOOL(a.line[1], "hit", false);

    CHECK_KEYS(a.line[2], hit_keys);
    CHECK_BOOL(a.line[2], "hit", true);
    CHECK_BOOL(a.line[2], "overlapping", true);
    CHECK_REAL(a.line[2], "t", 0);
    CHECK_REAL(a.line[2], "depth", 0.5);
    CHECK_VEC(a.line[2], "normal", -1, 0, 0);

    CHECK_BOOL(a.line[3], "overlapping", false);
    CHECK_REAL(a.line[3], "t", 0.1875);
    CHECK_VEC(a.line[3], "point", 2.5, 0, 0); /* A's point nearest B */
    CHECK_VEC(a.line[3], "normal", -1, 0, 0);

    CHECK_KEYS(a.line[4], "id hit");
    CHECK_BOOL(a.line[5], "overlapping", true);
    CHECK_REAL(a.line[5], "depth", 0);
    CHECK_VEC(a.line[5], "normal", -1, 0, 0);

    CHECK_REAL(a.line[6], "t", 0.25);
    CHECK_VEC(a.line[6], "point", 0, 0, 2.5);
    CHECK_VEC(a.line[6], "normal", 0, 0, -1);
    answers_free(&a);
}

static void test_raycast_answers(void** state)
{
    (void)state;
    answers a = query(
        /* 1: max defaults to 1: the sphere at distance 2 is out of reach */
        "{\"id\":1,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],"
        "\"b\":{\"type\":\"sphere\",\"center\":[3,0,0],\"radius\":1}}\n"
        /* 2: max 4: hit at t = 2 */
        "{\"id\":2,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":4,"
        "\"b\":{\"type\":\"sphere\",\"center\":[3,0,0],\"radius\":1}}\n"
        /* 3: t in units of a non-unit dir */
        "{\"id\":3,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[4,0,0],"
        "\"b\":{\"type\":\"sphere\",\"center\":[3,0,0],\"radius\":1}}\n"
        /* 4: origin inside */
        "{\"id\":4,\"op\":\"raycast\",\"origin\":[3.5,0,0],\"dir\":[1,0,0],"
        "\"b\":{\"type\":\"sphere\",\"center\":[3,0,0],\"radius\":1}}\n"
        /* 5: against a point */
        "{\"id\":5,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[2,0,0],\"b\":{\"type\":\"point\",\"p\":[1,0,0]}}\n",
        0, 5);
    CHECK_KEYS(a.line[0], "id hit");
    CHECK_REAL(a.line[1], "t", 2);
    CHECK_VEC(a.line[1], "point", 2, 0, 0);
    CHECK_VEC(a.line[1], "normal", -1, 0, 0);
    CHECK_REAL(a.line[2], "t", 0.5);
    CHECK_BOOL(a.line[3], "overlapping", true);
    CHECK_REAL(a.line[3], "t", 0);
    CHECK_REAL(a.line[3], "depth", 0.5);
    CHECK_VEC(a.line[3], "normal", 1, 0, 0);
    CHECK_REAL(a.line[4], "t", 0.5);
    CHECK_VEC(a.line[4], "point", 1, 0, 0);
    answers_free(&a);
}

static void test_sweep_inside_answers(void** state)
{
    (void)state;
    answers a = query(
        /* 1: inside a sphere of radius 5: the room for A's centre has
         * radius 4, reached after 4 of 8 */
        "{\"id\":1,\"op\":\"sweep_inside\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1},"
        "\"d\":[8,0,0],\"b\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":5}}\n"
        /* 2: starts outside the container */
        "{\"id\":2,\"op\":\"sweep_inside\",\"a\":{\"type\":\"sphere\",\"center\":[10,0,0],\"radius\":1},"
        "\"d\":[1,0,0],\"b\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":5}}\n"
        /* 3: inside a box: the +y face (feature face 3) */
        "{\"id\":3,\"op\":\"sweep_inside\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1},"
        "\"d\":[0,8,0],\"b\":{\"type\":\"box\",\"center\":[0,0,0],\"half\":[5,5,5]}}\n"
        /* 4: stays inside: a miss */
        "{\"id\":4,\"op\":\"sweep_inside\",\"a\":{\"type\":\"point\",\"p\":[0,0,0]},"
        "\"d\":[1,1,1],\"b\":{\"type\":\"box\",\"center\":[0,0,0],\"half\":[5,5,5],\"rotation\":[0,0,0,1]}}\n",
        0, 4);
    CHECK_KEYS(a.line[0], hit_keys);
    CHECK_BOOL(a.line[0], "overlapping", false);
    CHECK_REAL(a.line[0], "t", 0.5);
    CHECK_VEC(a.line[0], "point", 5, 0, 0);
    CHECK_VEC(a.line[0], "normal", -1, 0, 0); /* back into the container */

    CHECK_BOOL(a.line[1], "hit", true);
    CHECK_BOOL(a.line[1], "overlapping", true);
    CHECK_REAL(a.line[1], "t", 0);

    CHECK_REAL(a.line[2], "t", 0.5);
    CHECK_VEC(a.line[2], "normal", 0, -1, 0);
    const json_t* feature = json_object_get(a.line[2], "feature");
    assert_string_equal(json_string_value(json_object_get(feature, "kind")), "face");
    assert_int_equal(json_integer_value(json_object_get(feature, "index")), 3);

    CHECK_KEYS(a.line[3], "id hit");
    answers_free(&a);
}

/* Planes, triangles and polygons as static shapes. */
static void test_flat_shape_answers(void** state)
{
    (void)state;
    answers a = query(
        /* 1: a sphere dropped onto the plane z <= 0 (normal not unit):
         * touches after 4 of 8 */
        "{\"id\":1,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,5],\"radius\":1},"
        "\"d\":[0,0,-8],\"b\":{\"type\":\"plane\",\"normal\":[0,0,2],\"offset\":0}}\n"
        /* 2: onto a triangle's face */
        "{\"id\":2,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0.25,0.25,5],\"radius\":1},"
        "\"d\":[0,0,-8],\"b\":{\"type\":\"triangle\",\"v\":[[0,0,0],[1,0,0],[0,1,0]]}}\n"
        /* 3: from behind a two-sided triangle: its back face */
        "{\"id\":3,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0.25,0.25,-5],\"radius\":1},"
        "\"d\":[0,0,8],\"b\":{\"type\":\"triangle\",\"v\":[[0,0,0],[1,0,0],[0,1,0]],\"one_sided\":false}}\n"
        /* 4: from behind a one-sided triangle: no hit */
        "{\"id\":4,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0.25,0.25,-5],\"radius\":1},"
        "\"d\":[0,0,8],\"b\":{\"type\":\"triangle\",\"v\":[[0,0,0],[1,0,0],[0,1,0]],\"one_sided\":true}}\n"
        /* 5: a capsule onto a square */
        "{\"id\":5,\"op\":\"sweep\",\"a\":{\"type\":\"capsule\",\"a\":[0.5,0.5,5],\"b\":[0.5,0.5,6],\"radius\":1},"
        "\"d\":[0,0,-8],\"b\":{\"type\":\"polygon\",\"v\":[[0,0,0],[1,0,0],[1,1,0],[0,1,0]]}}\n"
        /* 6: a ray onto the plane z <= 1 */
        "{\"id\":6,\"op\":\"raycast\",\"origin\":[0.5,0.5,5],\"dir\":[0,0,-1],\"max\":10,"
        "\"b\":{\"type\":\"plane\",\"normal\":[0,0,1],\"offset\":1}}\n"
        /* 7: point to triangle */
        "{\"id\":7,\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[0.25,0.25,3]},"
        "\"b\":{\"type\":\"triangle\",\"v\":[[0,0,0],[1,0,0],[0,1,0]]}}\n"
        /* 8: a sphere half in the plane */
        "{\"id\":8,\"op\":\"overlap\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0.5],\"radius\":1},"
        "\"b\":{\"type\":\"plane\",\"normal\":[0,0,1],\"offset\":0}}\n",
        0, 8);
    for (size_t i = 0; i < 5; ++i) {
        if (i == 3) {
            continue;
        }
        CHECK_KEYS(a.line[i], hit_keys);
        CHECK_BOOL(a.line[i], "overlapping", false);
        CHECK_REAL(a.line[i], "t", 0.5);
        const json_t* feature = json_object_get(a.line[i], "feature");
        assert_string_equal(json_string_value(json_object_get(feature, "kind")), "face");
        assert_int_equal(json_integer_value(json_object_get(feature, "index")), 0);
    }
    CHECK_VEC(a.line[0], "point", 0, 0, 0);
    CHECK_VEC(a.line[0], "normal", 0, 0, 1);
    CHECK_VEC(a.line[1], "point", 0.25, 0.25, 0);
    CHECK_VEC(a.line[1], "normal", 0, 0, 1);
    CHECK_VEC(a.line[2], "normal", 0, 0, -1);
    CHECK_KEYS(a.line[3], "id hit");
    CHECK_VEC(a.line[4], "point", 0.5, 0.5, 0);
    CHECK_REAL(a.line[5], "t", 4);
    CHECK_VEC(a.line[5], "point", 0.5, 0.5, 1);
    CHECK_REAL(a.line[6], "distance", 3);
    CHECK_VEC(a.line[6], "point_b", 0.25, 0.25, 0);
    CHECK_BOOL(a.line[7], "overlapping", true);
    CHECK_REAL(a.line[7], "depth", 0.5);
    CHECK_VEC(a.line[7], "normal", 0, 0, 1);
    answers_free(&a);
}

/* A cube of half size 1 given as its corners in the box numbering, then a
 * face centre, a point on a face, the centre and a repeated corner: 8
 * vertices numbered like the box's, 6 quad faces. */
#define CUBE_POINTS                                                                                                    \
    "[[-1,-1,-1],[1,-1,-1],[-1,1,-1],[1,1,-1],[-1,-1,1],[1,-1,1],[-1,1,1],[1,1,1],"                                    \
    "[0,0,1],[0.5,-1,0.25],[0,0,0],[1,1,1]]"
static const sw_vec3 cube_points[12] = {{-1, -1, -1}, {1, -1, -1},     {-1, 1, -1}, {1, 1, -1},
                                        {-1, -1, 1},  {1, -1, 1},      {-1, 1, 1},  {1, 1, 1},
                                        {0, 0, 1},    {0.5, -1, 0.25}, {0, 0, 0},   {1, 1, 1}};
/* Placed at (1, 0, 0), turned 90 degrees about z ([0,0,1,1] normalised). */
#define CUBE_HULL "{\"type\":\"hull\",\"points\":" CUBE_POINTS ",\"position\":[1,0,0],\"rotation\":[0,0,1,1]}"

static void check_feature(const json_t* o, sw_feature f, const char* file, int line)
{
    static const char* const kinds[] = {"none", "vertex", "edge", "face"};
    const json_t* feature = json_object_get(o, "feature");
    const char* kind = json_string_value(json_object_get(feature, "kind"));
    if (!kind || strcmp(kind, kinds[f.kind]) != 0) {
        check_fail(o, file, line, "feature: expected kind %s", kinds[f.kind]);
    }
    if (f.kind != SW_FEATURE_NONE && json_integer_value(json_object_get(feature, "index")) != f.index) {
        check_fail(o, file, line, "feature: expected index %d", f.index);
    }
}

/* The answer of line line_no is exactly the library's own result h, or
 * the error line of a pair it does not answer. */
static void check_hit_answer(const json_t* o, long line_no, sw_hit h, const char* file, int line)
{
    if (h.status == SW_UNSUPPORTED) {
        check_error(o, line_no, "is not supported", file, line);
        return;
    }
    if (h.status != SW_OK) {
        check_fail(o, file, line, "the library rejected line %ld's query in-process", line_no);
        return;
    }
    if (!h.hit) {
        check_keys(o, "id hit", file, line);
        check_bool(o, "hit", false, file, line);
        return;
    }
    check_keys(o, hit_keys, file, line);
    check_bool(o, "hit", true, file, line);
    check_bool(o, "overlapping", h.overlapping, file, line);
    check_real(o, "t", h.t, file, line);
    check_vec(o, "point", h.point.x, h.point.y, h.point.z, file, line);
    check_vec(o, "normal", h.normal.x, h.normal.y, h.normal.z, file, line);
    check_real(o, "depth", h.depth, file, line);
    check_feature(o, h.feature, file, line);
}
#define CHECK_HIT_ANSWER(o, n, h) check_hit_answer((o), (n), (h), __FILE__, __LINE__)

/* Hull lines are answered as the library answers the same hull built and
 * placed in-process (the numbers bit for bit), whatever pairs the library
 * answers; where it does answer, the hits are the cube's. */
static void test_hull_answers(void** state)
{
    (void)state;
    answers a = query(
        /* 1: a sphere along x onto the cube, which spans x in [0, 2]:
         * contact when the centre is at -0.5, 4.5 of 8 along */
        "{\"id\":1,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[-5,0.25,0.5],\"radius\":0.5},"
        "\"d\":[8,0,0],\"b\":" CUBE_HULL "}\n"
        /* 2: a ray down onto its top, z = 1, after 4 */
        "{\"id\":2,\"op\":\"raycast\",\"origin\":[1.5,0.25,5],\"dir\":[0,0,-1],\"max\":10,\"b\":" CUBE_HULL "}\n"
        /* 3: the cube moving down onto a sphere whose top is at z = -2 */
        "{\"id\":3,\"op\":\"sweep\",\"a\":" CUBE_HULL ",\"d\":[0,0,-4],"
        "\"b\":{\"type\":\"sphere\",\"center\":[1.25,0,-3],\"radius\":1}}\n"
        /* 4: distance to a point 3 beyond the face x = 2 */
        "{\"id\":4,\"op\":\"distance\",\"a\":" CUBE_HULL ",\"b\":{\"type\":\"point\",\"p\":[5,0.5,0.25]}}\n"
        /* 5: two cubes 1.5 apart: overlapping by 0.5 */
        "{\"id\":5,\"op\":\"overlap\",\"a\":" CUBE_HULL ",\"b\":{\"type\":\"hull\",\"points\":" CUBE_POINTS
        ",\"position\":[2.5,0,0]}}\n"
        /* 6: a miss */
        "{\"id\":6,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[-5,3,0],\"radius\":0.5},"
        "\"d\":[8,0,0],\"b\":" CUBE_HULL "}\n",
        -1, 6);
    sw_hull* h = sw_hull_create(cube_points, 12, NULL);
    assert_non_null(h);
    assert_int_equal(h->vertex_count, 8);
    assert_int_equal(h->face_count, 6);
    const sw_quat turn = {0, 0, 1, 1};
    const sw_shape cube = sw_make_hull(h, sw_v3(1, 0, 0), turn);
    const sw_shape cube2 = sw_make_hull(h, sw_v3(SW_R(2.5), 0, 0), sw_quat_identity());

    const sw_shape s1 = sw_make_sphere(sw_v3(-5, SW_R(0.25), SW_R(0.5)), SW_R(0.5));
    const sw_hit h1 = sw_sweep(&s1, sw_v3(8, 0, 0), &cube, NULL);
    CHECK_HIT_ANSWER(a.line[0], 1, h1);
    if (h1.status == SW_OK) {
        /* World -x is local +y (the turn maps local +y to world -x):
         * face 4, [2, 6, 7, 3]. */
        assert_true(h1.hit && fabs((double)h1.t - 0.5625) < 1e-5);
        assert_int_equal(h1.feature.kind, SW_FEATURE_FACE);
        assert_int_equal(h1.feature.index, 4);
    }

    const sw_ray r2 = {sw_v3(SW_R(1.5), SW_R(0.25), 5), sw_v3(0, 0, -1), 10};
    const sw_hit h2 = sw_raycast(&r2, &cube);
    CHECK_HIT_ANSWER(a.line[1], 2, h2);
    if (h2.status == SW_OK) {
        assert_true(h2.hit && fabs((double)h2.t - 4) < 1e-4);
        assert_int_equal(h2.feature.kind, SW_FEATURE_FACE);
        assert_int_equal(h2.feature.index, 5); /* +z: [4, 5, 7, 6] */
    }

    const sw_shape s3 = sw_make_sphere(sw_v3(SW_R(1.25), 0, -3), 1);
    const sw_hit h3 = sw_sweep(&cube, sw_v3(0, 0, -4), &s3, NULL);
    CHECK_HIT_ANSWER(a.line[2], 3, h3);
    if (h3.status == SW_OK) {
        assert_true(h3.hit && fabs((double)h3.t - 0.25) < 1e-5);
    }

    const sw_shape p4 = sw_make_point(sw_v3(5, SW_R(0.5), SW_R(0.25)));
    const sw_distance_result d4 = sw_distance(&cube, &p4);
    if (d4.status == SW_UNSUPPORTED) {
        CHECK_ERROR(a.line[3], 4, "is not supported");
    } else {
        CHECK_KEYS(a.line[3], "id distance point_a point_b");
        CHECK_REAL(a.line[3], "distance", d4.distance);
        CHECK_VEC(a.line[3], "point_a", d4.point_a.x, d4.point_a.y, d4.point_a.z);
        CHECK_VEC(a.line[3], "point_b", d4.point_b.x, d4.point_b.y, d4.point_b.z);
        assert_true(fabs((double)d4.distance - 3) < 1e-4);
    }

    const sw_overlap_result o5 = sw_overlap(&cube, &cube2);
    if (o5.status == SW_UNSUPPORTED) {
        CHECK_ERROR(a.line[4], 5, "is not supported");
    } else {
        CHECK_KEYS(a.line[4], "id overlapping depth normal point");
        CHECK_BOOL(a.line[4], "overlapping", true);
        CHECK_REAL(a.line[4], "depth", o5.depth);
        CHECK_VEC(a.line[4], "normal", o5.normal.x, o5.normal.y, o5.normal.z);
        CHECK_VEC(a.line[4], "point", o5.point.x, o5.point.y, o5.point.z);
        assert_true(fabs((double)o5.depth - 0.5) < 1e-4);
    }

    const sw_shape s6 = sw_make_sphere(sw_v3(-5, 3, 0), SW_R(0.5));
    const sw_hit h6 = sw_sweep(&s6, sw_v3(8, 0, 0), &cube, NULL);
    CHECK_HIT_ANSWER(a.line[5], 6, h6);
    if (h6.status == SW_OK) {
        assert_false(h6.hit);
    }
    sw_hull_destroy(h);
    answers_free(&a);
}

static void test_overlap_and_distance_answers(void** state)
{
    (void)state;
    answers a = query(
        /* 1: spheres 1.5 apart with radii 1 + 1: depth 0.5 */
        "{\"id\":1,\"op\":\"overlap\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1},"
        "\"b\":{\"type\":\"sphere\",\"center\":[1.5,0,0],\"radius\":1}}\n"
        /* 2: apart */
        "{\"id\":2,\"op\":\"overlap\",\"a\":{\"type\":\"capsule\",\"a\":[0,0,0],\"b\":[0,0,4],\"radius\":0.5},"
        "\"b\":{\"type\":\"segment\",\"a\":[3,0,0],\"b\":[3,0,4]}}\n"
        /* 3: point to sphere: distance 2 */
        "{\"id\":3,\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[0,0,0]},"
        "\"b\":{\"type\":\"sphere\",\"center\":[3,0,0],\"radius\":1}}\n"
        /* 4: overlapping shapes are at distance 0 */
        "{\"id\":4,\"op\":\"distance\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1},"
        "\"b\":{\"type\":\"sphere\",\"center\":[1.5,0,0],\"radius\":1}}\n",
        0, 4);
    CHECK_KEYS(a.line[0], "id overlapping depth normal point");
    CHECK_BOOL(a.line[0], "overlapping", true);
    CHECK_REAL(a.line[0], "depth", 0.5);
    CHECK_VEC(a.line[0], "normal", -1, 0, 0);

    CHECK_KEYS(a.line[1], "id overlapping");
    CHECK_BOOL(a.line[1], "overlapping", false);

    CHECK_KEYS(a.line[2], "id distance point_a point_b");
    CHECK_REAL(a.line[2], "distance", 2);
    CHECK_VEC(a.line[2], "point_a", 0, 0, 0);
    CHECK_VEC(a.line[2], "point_b", 2, 0, 0);

    CHECK_REAL(a.line[3], "distance", 0);
    answers_free(&a);
}

/* Numbers read back to exactly the library's values: the same queries are
 * asked of the library directly and of the program, and every printed
 * number must convert back to the library's sw_real bit for bit. */
static void test_numbers_read_back_exactly(void** state)
{
    (void)state;
    answers a = query("{\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[0.1,0.2,0.3]},"
                      "\"b\":{\"type\":\"sphere\",\"center\":[3.3,-0.7,1.9],\"radius\":0.7}}\n"
                      "{\"op\":\"raycast\",\"origin\":[0.1,0.2,0.3],\"dir\":[0.7,0.11,-0.13],\"max\":10,"
                      "\"b\":{\"type\":\"sphere\",\"center\":[3.3,0.7,-0.1],\"radius\":0.9}}\n",
                      0, 2);
    const sw_shape point = sw_make_point(sw_v3(SW_R(0.1), SW_R(0.2), SW_R(0.3)));
    const sw_shape sphere = sw_make_sphere(sw_v3(SW_R(3.3), SW_R(-0.7), SW_R(1.9)), SW_R(0.7));
    const sw_distance_result d = sw_distance(&point, &sphere);
    assert_int_equal(d.status, SW_OK);
    CHECK_REAL(a.line[0], "distance", d.distance);
    CHECK_VEC(a.line[0], "point_a", d.point_a.x, d.point_a.y, d.point_a.z);
    CHECK_VEC(a.line[0], "point_b", d.point_b.x, d.point_b.y, d.point_b.z);

    const sw_ray ray = {sw_v3(SW_R(0.1), SW_R(0.2), SW_R(0.3)), sw_v3(SW_R(0.7), SW_R(0.11), SW_R(-0.13)), 10};
    const sw_shape target = sw_make_sphere(sw_v3(SW_R(3.3), SW_R(0.7), SW_R(-0.1)), SW_R(0.9));
    const sw_hit h = sw_raycast(&ray, &target);
    assert_true(h.hit);
    CHECK_REAL(a.line[1], "t", h.t);
    CHECK_VEC(a.line[1], "point", h.point.x, h.point.y, h.point.z);
    CHECK_VEC(a.line[1], "normal", h.normal.x, h.normal.y, h.normal.z);
    answers_free(&a);
}

/* Ids of every JSON type are echoed unchanged; a missing id is null. */
static void test_ids_echoed(void** state)
{
    (void)state;
    static const char* const ids[] = {
        "7",
        "-3",
        "2.5",
        "\"abc\"",
        "\"\\u00fcn\\u00efc\\u00f6de \\\"q\\\" \\\\ / \\u2603\"",
        "null",
        "true",
        "false",
        "[1,{\"x\":2},[]]",
        "{\"k\":[1,2],\"n\":null}",
        "-9007199254740993",
        "1e300",
        "\"\"",
    };
    enum { N = sizeof ids / sizeof ids[0] };
    char input[8192] = "";
    for (size_t i = 0; i < N; ++i) {
        char line[512];
        snprintf(line, sizeof line, "{\"id\":%s," HEAD_ON_BODY "}\n", ids[i]);
        strncat(input, line, sizeof input - strlen(input) - 1);
    }
    /* id after the other fields, and no id at all */
    strncat(input, "{" HEAD_ON_BODY ",\"id\":\"last\"}\n{" HEAD_ON_BODY "}\n", sizeof input - strlen(input) - 1);
    answers a = query(input, 0, N + 2);
    for (size_t i = 0; i < N; ++i) {
        CHECK_ID(a.line[i], ids[i]);
        CHECK_HEAD_ON(a.line[i]);
    }
    CHECK_ID(a.line[N], "\"last\"");
    CHECK_ID(a.line[N + 1], "null");
    CHECK_KEYS(a.line[N + 1], hit_keys);
    answers_free(&a);
}

/* CRLF line ends, surrounding whitespace and a last line without a newline
 * are all fine. */
static void test_line_endings(void** state)
{
    (void)state;
    answers a = query("{\"id\":1," HEAD_ON_BODY "}\r\n"
                      "  \t{\"id\":2," HEAD_ON_BODY "}  \n"
                      "{\"id\":3," HEAD_ON_BODY "}",
                      0, 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK_HEAD_ON(a.line[i]);
    }
    CHECK_ID(a.line[2], "3");
    answers_free(&a);
}

/* ---- group errors: every bad line, each followed by a good one --------------- */

typedef struct bad_line {
    const char* line;
    const char* message_part;
    const char* id; /* the JSON of the echoed id */
} bad_line;

#define SPHERE_B "\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":1}"
#define SPHERE_A "\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1}"
#define SWEEP_WITH_B(b) "{\"id\":\"e\",\"op\":\"sweep\"," SPHERE_A ",\"d\":[8,0,0]," b "}"
#define SWEEP_WITH_A(a) "{\"id\":\"e\",\"op\":\"sweep\"," a ",\"d\":[8,0,0]," SPHERE_B "}"

#ifdef SWEEP_DOUBLE
#define BEYOND_LIMIT "1e200"
#define BEYOND_TEXT "1e+200"
#define FAR_DIR "[1e100,0,0]"
#define FAR_MAX "1e100"
#else
#define BEYOND_LIMIT "1e20"
#define BEYOND_TEXT "1e+20"
#define FAR_DIR "[1e10,0,0]"
#define FAR_MAX "1e10"
#endif

static const bad_line bad_lines[] = {
    /* not a request at all */
    {"", "empty line", "null"},
    {"   \t ", "empty line", "null"},
    {"not json", "invalid JSON", "null"},
    {"{\"op\":\"sweep\"", "invalid JSON", "null"},
    {"{\"id\":1," HEAD_ON_BODY "} trailing", "invalid JSON", "null"},
    {"[1,2]", "must be a JSON object (got an array)", "null"},
    {"42", "must be a JSON object (got a number)", "null"},
    {"\"sweep\"", "must be a JSON object (got a string)", "null"},
    {"{\"id\":1,\"id\":2," HEAD_ON_BODY "}", "duplicate", "null"},
    {"{\"op\":\"raycast\",\"origin\":[NaN,0,0],\"dir\":[1,0,0]," SPHERE_B "}", "invalid JSON", "null"},
    {"{\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[Infinity,0,0]," SPHERE_B "}", "invalid JSON", "null"},
    {"{\"op\":\"\xff\xfe\"}", "invalid JSON", "null"},
    /* the request object */
    {"{\"id\":3," SPHERE_A "," SPHERE_B "}", "missing field \"op\"", "3"},
    {"{\"id\":3,\"op\":7}", "op must be a string (got a number)", "3"},
    {"{\"id\":3,\"op\":\"teleport\"}", "unknown op \"teleport\"", "3"},
    {"{\"id\":3," HEAD_ON_BODY ",\"speed\":1}", "unknown field \"speed\" (a sweep request has", "3"},
    {"{\"id\":3,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0]," SPHERE_A "," SPHERE_B "}",
     "unknown field \"a\" (a raycast request has", "3"},
    {"{\"id\":3,\"op\":\"overlap\"," SPHERE_A "," SPHERE_B ",\"skin\":0}", "unknown field \"skin\"", "3"},
    {"{\"id\":3,\"op\":\"sweep\"," SPHERE_A "," SPHERE_B "}", "missing field \"d\"", "3"},
    {"{\"id\":3,\"op\":\"distance\"," SPHERE_A "}", "missing field \"b\"", "3"},
    {"{\"id\":3,\"op\":\"raycast\",\"dir\":[1,0,0]," SPHERE_B "}", "missing field \"origin\"", "3"},
    /* vectors and numbers */
    /* A real beyond double is refused by the JSON reader; the line is
     * answered with its id and the field named all the same. */
    {"{\"id\":5,\"op\":\"raycast\",\"origin\":[0,0,1e400],\"dir\":[1,0,0]," SPHERE_B "}",
     "origin[2] = 1e400 overflows " SW_PRECISION_NAME, "5"},
    {"{\"id\":5,\"op\":\"sweep\"," SPHERE_A ",\"d\":[-1.5e999,0,0]," SPHERE_B "}",
     "d[0] = -1.5e999 overflows " SW_PRECISION_NAME, "5"},
    {"{\"id\":\"x\",\"op\":\"sweep\"," SPHERE_A ",\"d\":[1E+999,0,0]," SPHERE_B "}",
     "d[0] = 1E+999 overflows", "\"x\""},
    {"{\"id\":4,\"op\":\"sweep\"," SPHERE_A ",\"d\":[8,0]," SPHERE_B "}",
     "d must be an array of 3 numbers (got 2 elements)", "4"},
    {"{\"id\":4,\"op\":\"sweep\"," SPHERE_A ",\"d\":[8,0,0,0]," SPHERE_B "}", "d must be an array of 3 numbers", "4"},
    {"{\"id\":4,\"op\":\"sweep\"," SPHERE_A ",\"d\":[8,\"0\",0]," SPHERE_B "}",
     "d must be an array of 3 numbers (d[1] is a string)", "4"},
    {"{\"id\":4,\"op\":\"sweep\"," SPHERE_A ",\"d\":8," SPHERE_B "}", "d must be an array of 3 numbers (got a number)",
     "4"},
    {"{\"id\":4,\"op\":\"sweep\"," SPHERE_A ",\"d\":[8,null,0]," SPHERE_B "}", "d must be an array of 3 numbers", "4"},
    {"{\"id\":4,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[[1],0,0]," SPHERE_B "}",
     "dir must be an array of 3 numbers (dir[0] is an array)", "4"},
    {SWEEP_WITH_B("\"b\":{\"type\":\"sphere\",\"center\":[" BEYOND_LIMIT ",0,0],\"radius\":1}"),
     "b.center[0] = " BEYOND_TEXT " is beyond the coordinate limit", "\"e\""},
    {"{\"id\":4,\"op\":\"sweep\"," SPHERE_A ",\"d\":[0,-" BEYOND_LIMIT ",0]," SPHERE_B "}",
     "d[1] = -" BEYOND_TEXT " is beyond the coordinate limit", "4"},
#ifndef SWEEP_DOUBLE
    {SWEEP_WITH_B("\"b\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1e39}"), "b.radius = 1e+39 overflows float",
     "\"e\""},
#endif
    /* shapes */
    {SWEEP_WITH_B("\"b\":[4,0,0]"), "b must be a shape object (got an array)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"center\":[4,0,0],\"radius\":1}"), "missing field \"type\" in b", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":3}"), "b.type must be a string", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"foo\"}"), "unknown shape type 'foo'", "\"e\""},
    /* hulls */
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\",\"points\":[[0,0,0]]}"),
     "b.points must be an array of 4 to 100000 points [x, y, z] (got 1 point)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\",\"points\":5}"),
     "b.points must be an array of 4 to 100000 points [x, y, z] (got a number)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\"}"), "missing field \"points\" in b (a hull has type, points, optional",
     "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\",\"v\":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}"), "unknown field \"v\" in b",
     "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\",\"points\":[[0,0,0],[1,0],[0,1,0],[0,0,1]]}"),
     "b.points[1] must be an array of 3 numbers", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\",\"points\":[[0,0,0],[1,0,0],[" BEYOND_LIMIT ",1,0],[0,0,1]]}"),
     "b.points[2][0] = " BEYOND_TEXT " is beyond the coordinate limit", "\"e\""},
    /* flat: a square and its centre; one point five times */
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\",\"points\":[[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0.5,0.5,0]]}"),
     "b.points: the points lie within tolerance of a plane", "\"e\""},
    {SWEEP_WITH_A("\"a\":{\"type\":\"hull\",\"points\":[[1,2,3],[1,2,3],[1,2,3],[1,2,3],[1,2,3]]}"),
     "a.points: the points lie within tolerance of a plane", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\",\"points\":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],\"rotation\":[0,0,0,0]}"),
     "hull position and rotation must be finite, the rotation non-zero (in b)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\",\"points\":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],\"rotation\":[0,0,1]}"),
     "b.rotation must be an array of 4 numbers", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\",\"points\":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],\"position\":[4,0]}"),
     "b.position must be an array of 3 numbers", "\"e\""},
    /* placed beyond the coordinate limit */
    {SWEEP_WITH_B("\"b\":{\"type\":\"hull\",\"points\":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],\"position\":[" BEYOND_LIMIT
                  ",0,0]}"),
     "b.position[0] = " BEYOND_TEXT " is beyond the coordinate limit", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"mesh\",\"v\":[],\"tri\":[]}"), "b.v must have 1 to 67108864 points (got 0)",
     "\"e\""},
    {SWEEP_WITH_A("\"a\":{\"type\":\"plane\",\"normal\":[0,0,1],\"offset\":0}"), "a plane cannot be the moving shape",
     "\"e\""},
    {SWEEP_WITH_A("\"a\":{\"type\":\"mesh\",\"v\":[],\"tri\":[]}"), "a mesh cannot be the moving shape", "\"e\""},
    {"{\"op\":\"sweep_inside\",\"a\":{\"type\":\"plane\",\"normal\":[0,0,1],\"offset\":0},\"d\":[1,0,0]," SPHERE_B "}",
     "a plane cannot be the moving shape", "null"},
    {SWEEP_WITH_B("\"b\":{\"type\":\"sphere\",\"center\":[4,0,0]}"), "missing field \"radius\" in b (a sphere has",
     "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":1,\"colour\":\"red\"}"),
     "unknown field \"colour\" in b (a sphere has type, center, radius)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"sphere\",\"centre\":[4,0,0],\"radius\":1}"), "unknown field \"centre\" in b",
     "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":\"1\"}"),
     "b.radius must be a number (got a string)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":-1}"), "sphere radius must be >= 0",
     "\"e\""},
    {SWEEP_WITH_A("\"a\":{\"type\":\"capsule\",\"a\":[0,0,0],\"b\":[0,0,1],\"radius\":-0.5}"),
     "capsule radius must be >= 0", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"segment\",\"a\":[0,0,0]}"), "missing field \"b\" in b (a segment has", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"point\",\"p\":[0,0]}"), "b.p must be an array of 3 numbers", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"box\",\"center\":[4,0,0],\"half\":[1,-1,1]}"), "box half extents must be >= 0",
     "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"box\",\"center\":[4,0,0],\"half\":[1,1,1],\"rotation\":[0,0,0,0]}"),
     "box rotation must be a finite, non-zero quaternion", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"box\",\"center\":[4,0,0],\"half\":[1,1,1],\"rotation\":[0,0,1]}"),
     "b.rotation must be an array of 4 numbers [x, y, z, w] (got 3 elements)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"plane\",\"normal\":[0,0,0],\"offset\":0}"), "plane normal must not be zero",
     "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"plane\",\"normal\":[0,0,1]}"), "missing field \"offset\" in b (a plane has",
     "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"plane\",\"normal\":[0,0,1],\"offset\":\"0\"}"),
     "b.offset must be a number (got a string)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"triangle\",\"v\":[[0,0,0],[1,0,0]]}"),
     "b.v must be an array of 3 points [x, y, z] (got 2 points)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"triangle\",\"v\":[[0,0,0],[1,0],[0,1,0]]}"),
     "b.v[1] must be an array of 3 numbers (got 2 elements)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"triangle\",\"v\":{}}"),
     "b.v must be an array of 3 points [x, y, z] (got an object)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"triangle\",\"v\":[[0,0,0],[1,0,0],[0,1,0]],\"one_sided\":\"yes\"}"),
     "b.one_sided must be true or false (got a string)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"triangle\",\"v\":[[0,0,0],[1,0,0],[0,1,0]],\"two_sided\":true}"),
     "unknown field \"two_sided\" in b (a triangle has type, v, optional one_sided)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"polygon\",\"v\":[[0,0,0],[1,0,0]]}"),
     "b.v must be an array of 3 to 64 points [x, y, z] (got 2 points)", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"polygon\",\"v\":[[0,0,0],[2,0,0],[1,0.5,0],[2,2,0],[0,2,0]]}"),
     "polygon is not convex", "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"polygon\",\"v\":[[0,0,0],[1,0,0],[1,1,1],[0,1,0]]}"), "polygon is not planar",
     "\"e\""},
    {SWEEP_WITH_B("\"b\":{\"type\":\"polygon\",\"v\":[[0,0,0],[1,0,0],[1,1,0],[0,1,\"0\"]]}"),
     "b.v[3] must be an array of 3 numbers (b.v[3][2] is a string)", "\"e\""},
    /* options */
    {"{\"id\":5," HEAD_ON_BODY ",\"skin\":-0.5}", "skin must be >= 0 (got -0.5)", "5"},
    {"{\"id\":5," HEAD_ON_BODY ",\"skin\":\"thin\"}", "skin must be a number (got a string)", "5"},
    {"{\"id\":5," HEAD_ON_BODY ",\"skin\":" BEYOND_LIMIT "}", "skin = " BEYOND_TEXT " is beyond", "5"},
    {"{\"id\":5," HEAD_ON_BODY ",\"ignore_separating\":1}", "ignore_separating must be true or false (got a number)",
     "5"},
    {"{\"id\":5," HEAD_ON_BODY ",\"ignore_separating\":\"yes\"}", "ignore_separating must be true or false", "5"},
    {"{\"id\":5,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":-1," SPHERE_B "}",
     "max must be >= 0 (got -1)", "5"},
    {"{\"id\":5,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":" FAR_DIR ",\"max\":" FAR_MAX "," SPHERE_B "}",
     "max * dir is beyond the coordinate limit", "5"},
    /* (pairs the library does not answer: test_unsupported_pairs) */
};

/* Each bad line gets an error answer naming its line and the problem, and
 * the good line after it is still answered correctly. */
static void test_bad_lines(void** state)
{
    (void)state;
    enum { N = sizeof bad_lines / sizeof bad_lines[0] };
    size_t cap = 1 << 16, len = 0;
    char* input = malloc(cap);
    assert_non_null(input);
    for (size_t k = 0; k < N; ++k) {
        char good[512];
        snprintf(good, sizeof good, "{\"id\":\"good%zu\"," HEAD_ON_BODY "}\n", k);
        const size_t need = strlen(bad_lines[k].line) + 1 + strlen(good);
        assert_true(len + need < cap);
        len += (size_t)snprintf(input + len, cap - len, "%s\n%s", bad_lines[k].line, good);
    }
    answers a = query(input, 1, 2 * N);
    for (size_t k = 0; k < N; ++k) {
        CHECK_ERROR(a.line[2 * k], (long)(2 * k + 1), bad_lines[k].message_part);
        CHECK_ID(a.line[2 * k], bad_lines[k].id);
        char id[32];
        snprintf(id, sizeof id, "\"good%zu\"", k);
        CHECK_ID(a.line[2 * k + 1], id);
        CHECK_HEAD_ON(a.line[2 * k + 1]);
    }
    answers_free(&a);
    free(input);
}

/* Exit status: 0 when every line is good, 1 as soon as one is bad. */
static void test_exit_status(void** state)
{
    (void)state;
    answers a = query("{\"id\":1," HEAD_ON_BODY "}\n{\"id\":2," HEAD_ON_BODY "}\n", 0, 2);
    answers_free(&a);
    a = query("{\"id\":1," HEAD_ON_BODY "}\n{\"id\":2,\"op\":\"nope\"}\n{\"id\":3," HEAD_ON_BODY "}\n", 1, 3);
    CHECK_HEAD_ON(a.line[0]);
    CHECK_ERROR(a.line[1], 2, "unknown op");
    CHECK_HEAD_ON(a.line[2]);
    answers_free(&a);
    a = query("\n", 1, 1);
    CHECK_ERROR(a.line[0], 1, "empty line");
    answers_free(&a);
}

/* Input that quotes arbitrary text back (keys, parse errors on raw bytes, a
 * NUL byte, control characters) still yields valid JSON answers. */
static void test_hostile_text(void** state)
{
    (void)state;
    char key[2100];
    memset(key, 'k', 2000);
    memcpy(key + 2000, "\xc3\xa9", 3);
    char line[4096];
    /* Line 3's op is "x" and 22 two-byte characters: cut at 40 bytes it would
     * split a character, so the cut must back off one byte. */
    snprintf(line, sizeof line,
             "{\"id\":1,\"op\":\"sweep\",\"%s\":1}\n"
             "{\"id\":2,\"we\\\"ird\\n\\u0001\":1," HEAD_ON_BODY "}\n"
             "{\"id\":3,\"op\":\"x\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
             "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\"}\n",
             key);
    const char with_nul[] = "{\"op\":\0\"sweep\"}\n";
    size_t len = strlen(line);
    memcpy(line + len, with_nul, sizeof with_nul - 1);
    len += sizeof with_nul - 1;
    len += (size_t)snprintf(line + len, sizeof line - len, "{\"id\":5," HEAD_ON_BODY "}\n");

    run_result r = run_sweep_n(line, len, "query", (const char*)NULL);
    assert_int_equal(r.status, 1);
    answers a = parse_answers(&r); /* every answer is valid JSON (and UTF-8) */
    assert_int_equal(a.count, 5);
    CHECK_ERROR(a.line[0], 1, "unknown field \"kkkk");
    CHECK_ERROR(a.line[1], 2, "unknown field \"we\"ird\n\x01\"");
    CHECK_ERROR(a.line[2], 3, "unknown op \"x\xc3\xa9");
    CHECK_ERROR(a.line[3], 4, "invalid JSON");
    CHECK_HEAD_ON(a.line[4]);
    /* Long names are cut to keep the message short. */
    for (size_t i = 0; i < 3; i += 2) {
        const char* msg = json_string_value(json_object_get(a.line[i], "error"));
        assert_true(strlen(msg) < 300);
        assert_non_null(strstr(msg, "...\""));
    }
    answers_free(&a);
    run_free(&r);
}

/* A shape of every type, as JSON, for lines built at run time. */
static const char* shape_json(sw_shape_type t)
{
    switch (t) {
    case SW_SHAPE_POINT:
        return "{\"type\":\"point\",\"p\":[4,0,0]}";
    case SW_SHAPE_SEGMENT:
        return "{\"type\":\"segment\",\"a\":[4,0,0],\"b\":[5,0,0]}";
    case SW_SHAPE_SPHERE:
        return "{\"type\":\"sphere\",\"center\":[4,0,0],\"radius\":1}";
    case SW_SHAPE_CAPSULE:
        return "{\"type\":\"capsule\",\"a\":[4,0,0],\"b\":[5,0,0],\"radius\":1}";
    case SW_SHAPE_BOX:
        return "{\"type\":\"box\",\"center\":[4,0,0],\"half\":[1,1,1]}";
    case SW_SHAPE_PLANE:
        return "{\"type\":\"plane\",\"normal\":[-1,0,0],\"offset\":-4}";
    case SW_SHAPE_TRIANGLE:
        return "{\"type\":\"triangle\",\"v\":[[4,0,0],[5,0,0],[4,1,0]]}";
    case SW_SHAPE_POLYGON:
        return "{\"type\":\"polygon\",\"v\":[[4,0,0],[5,0,0],[5,1,0],[4,1,0]]}";
    case SW_SHAPE_HULL:
        return "{\"type\":\"hull\",\"points\":[[4,0,0],[5,0,0],[4,1,0],[4,0,1]]}";
    case SW_SHAPE_MESH:
        return "{\"type\":\"mesh\",\"v\":[[4,0,0],[5,0,0],[4,1,0]],\"tri\":[[0,1,2]]}";
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    return "null";
}

/* Pairs the library does not answer get an error line naming the pair:
 * the first unanswered pair of each operation, found with the library's
 * own sw_*_supported (so the test follows the library as pairs are added).
 * Planes never move: that is bad input, tested above. */
static void test_unsupported_pairs(void** state)
{
    (void)state;
    enum { OPS = 5 }; /* sweep, sweep_inside, overlap, distance, raycast */
    int asked = 0;
    for (int op = 0; op < OPS; ++op) {
        for (int a = 0; a < SW_SHAPE_TYPE_COUNT; ++a) {
            const sw_shape_type ta = (sw_shape_type)a;
            bool found = false;
            for (int b = 0; b < SW_SHAPE_TYPE_COUNT && !found; ++b) {
                const sw_shape_type tb = (sw_shape_type)b;
                bool supported;
                char line[1024], part[128];
                const char* an = sw_shape_type_name(ta);
                const char* bn = sw_shape_type_name(tb);
                switch (op) {
                case 0:
                    /* A plane or mesh never moves: the parser refuses it. */
                    supported = ta == SW_SHAPE_PLANE || ta == SW_SHAPE_MESH || sw_sweep_supported(ta, tb);
                    snprintf(line, sizeof line, "{\"id\":9,\"op\":\"sweep\",\"a\":%s,\"d\":[1,0,0],\"b\":%s}",
                             shape_json(ta), shape_json(tb));
                    snprintf(part, sizeof part, "sweep of a %s against a %s is not supported", an, bn);
                    break;
                case 1:
                    supported = ta == SW_SHAPE_PLANE || ta == SW_SHAPE_MESH || sw_sweep_inside_supported(ta, tb);
                    snprintf(line, sizeof line, "{\"id\":9,\"op\":\"sweep_inside\",\"a\":%s,\"d\":[1,0,0],\"b\":%s}",
                             shape_json(ta), shape_json(tb));
                    snprintf(part, sizeof part, "sweep_inside of a %s in a %s is not supported", an, bn);
                    break;
                case 2:
                    supported = sw_overlap_supported(ta, tb);
                    snprintf(line, sizeof line, "{\"id\":9,\"op\":\"overlap\",\"a\":%s,\"b\":%s}", shape_json(ta),
                             shape_json(tb));
                    snprintf(part, sizeof part, "overlap of a %s and a %s is not supported", an, bn);
                    break;
                case 3:
                    supported = sw_distance_supported(ta, tb);
                    snprintf(line, sizeof line, "{\"id\":9,\"op\":\"distance\",\"a\":%s,\"b\":%s}", shape_json(ta),
                             shape_json(tb));
                    snprintf(part, sizeof part, "distance between a %s and a %s is not supported", an, bn);
                    break;
                default:
                    supported = a > 0 || sw_raycast_supported(tb);
                    snprintf(line, sizeof line,
                             "{\"id\":9,\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"b\":%s}",
                             shape_json(tb));
                    snprintf(part, sizeof part, "raycast against a %s is not supported", bn);
                    break;
                }
                if (supported) {
                    continue;
                }
                strncat(line, "\n", sizeof line - strlen(line) - 1);
                answers ans = query(line, 1, 1);
                CHECK_ERROR(ans.line[0], 1, part);
                CHECK_ID(ans.line[0], "9");
                answers_free(&ans);
                found = true;
                ++asked;
            }
            if (found) {
                break;
            }
        }
    }
    print_message("unsupported pairs asked: %d (one per operation that has any)\n", asked);
}

/* Appends `count` points [x, y, z] of the unit sphere, scaled, to buf as
 * a JSON array. */
static size_t sphere_points_json(char* buf, size_t cap, int count)
{
    size_t len = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < count; ++i) {
        /* A Fibonacci sphere: well spread, no four points coplanar. */
        const double z = 1 - (2.0 * i + 1) / count, r = sqrt(1 - z * z), phi = 2.399963229728653 * i;
        len += (size_t)snprintf(buf + len, cap - len, "%s[%.9g,%.9g,%.9g]", i ? "," : "", 10 * r * cos(phi),
                                10 * r * sin(phi), 10 * z);
    }
    len += (size_t)snprintf(buf + len, cap - len, "]");
    assert_true(len < cap);
    return len;
}

/* Hull lines at the limits: more vertices than a hull may have, more
 * points than it may be given; each is a bad line, the next still answered,
 * in constant memory (the CI runs this under LeakSanitizer). */
static void test_hull_limits(void** state)
{
    (void)state;
    enum { CAP = 1 << 23 };
    char* input = malloc(CAP);
    assert_non_null(input);
    size_t len =
        (size_t)snprintf(input, CAP, "{\"id\":1,\"op\":\"distance\"," SPHERE_A ",\"b\":{\"type\":\"hull\",\"points\":");
    len += sphere_points_json(input + len, CAP - len, 1500);
    len += (size_t)snprintf(input + len, CAP - len, "}}\n{\"id\":2," HEAD_ON_BODY "}\n");
    /* 100001 points (a few repeated: the count is checked first). */
    len += (size_t)snprintf(input + len, CAP - len,
                            "{\"id\":3,\"op\":\"distance\"," SPHERE_A ",\"b\":{\"type\":\"hull\",\"points\":[");
    for (int i = 0; i <= SW_MAX_HULL_POINTS; ++i) {
        len += (size_t)snprintf(input + len, CAP - len, "%s[%d,%d,%d]", i ? "," : "", i % 7, i % 5, i % 3);
    }
    len += (size_t)snprintf(input + len, CAP - len, "]}}\n{\"id\":4," HEAD_ON_BODY "}\n");
    /* 1000 points on a sphere: a hull of 1000 vertices, answered. */
    len += (size_t)snprintf(input + len, CAP - len,
                            "{\"id\":5,\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[20,0,0]},"
                            "\"b\":{\"type\":\"hull\",\"points\":");
    len += sphere_points_json(input + len, CAP - len, 1000);
    len += (size_t)snprintf(input + len, CAP - len, "}}\n");
    assert_true(len < CAP);
    answers a = query(input, 1, 5);
    CHECK_ERROR(a.line[0], 1, "b.points: the hull has more than 1024 vertices");
    CHECK_HEAD_ON(a.line[1]);
    CHECK_ERROR(a.line[2], 3, "b.points must be an array of 4 to 100000 points [x, y, z] (got 100001 points)");
    CHECK_HEAD_ON(a.line[3]);
    CHECK_ID(a.line[4], "5");
    if (json_object_get(a.line[4], "distance")) {
        /* The point is 10 from the sphere the hull is inscribed in. */
        const double d = json_number_value(json_object_get(a.line[4], "distance"));
        assert_true(d >= 10 && d < 10.1);
    } else {
        CHECK_ERROR(a.line[4], 5, "is not supported");
    }
    answers_free(&a);
    free(input);
}

/* ---- group stream: a large input through a pipe, in constant memory --------- */

#define STREAM_SPHERE(z) "{\"type\":\"sphere\",\"center\":[4,0," z "],\"radius\":1}"

/* Request i of the generated stream; every 997th is bad. */
static void write_request(FILE* f, long i)
{
    const long z = i % 1000; /* shifting both shapes by an integer keeps the answers exact */
    if (i % 997 == 500) {
        fprintf(f,
                "{\"id\":%ld,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,%ld],\"radius\":-1},"
                "\"d\":[8,0,0],\"b\":{\"type\":\"sphere\",\"center\":[4,0,%ld],\"radius\":1}}\n",
                i, z, z);
        return;
    }
    switch (i % 5) {
    case 0:
        fprintf(f,
                "{\"id\":%ld,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,%ld],\"radius\":1},"
                "\"d\":[8,0,0],\"b\":{\"type\":\"sphere\",\"center\":[4,0,%ld],\"radius\":1}}\n",
                i, z, z);
        break;
    case 1:
        fprintf(f,
                "{\"id\":%ld,\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,%ld],\"radius\":1},"
                "\"d\":[0,8,0],\"b\":{\"type\":\"sphere\",\"center\":[4,0,%ld],\"radius\":1}}\n",
                i, z, z);
        break;
    case 2:
        fprintf(f,
                "{\"id\":%ld,\"op\":\"raycast\",\"origin\":[0,0,%ld],\"dir\":[1,0,0],\"max\":4,"
                "\"b\":{\"type\":\"sphere\",\"center\":[3,0,%ld],\"radius\":1}}\n",
                i, z, z);
        break;
    case 3:
        fprintf(f,
                "{\"id\":%ld,\"op\":\"overlap\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,%ld],\"radius\":1},"
                "\"b\":{\"type\":\"capsule\",\"a\":[1.5,-1,%ld],\"b\":[1.5,1,%ld],\"radius\":1}}\n",
                i, z, z, z);
        break;
    default:
        fprintf(f,
                "{\"id\":%ld,\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[0,0,%ld]},"
                "\"b\":{\"type\":\"sphere\",\"center\":[3,0,%ld],\"radius\":1}}\n",
                i, z, z);
        break;
    }
}

static void check_stream_answer(const json_t* o, long i)
{
    if (json_integer_value(json_object_get(o, "id")) != i) {
        check_fail(o, __FILE__, __LINE__, "answer %ld: wrong id", i);
    }
    if (i % 997 == 500) {
        CHECK_ERROR(o, i + 1, "sphere radius must be >= 0");
        return;
    }
    switch (i % 5) {
    case 0:
        CHECK_REAL(o, "t", 0.25);
        break;
    case 1:
        CHECK_KEYS(o, "id hit");
        break;
    case 2:
        CHECK_REAL(o, "t", 2);
        break;
    case 3:
        CHECK_REAL(o, "depth", 0.5);
        break;
    default:
        CHECK_REAL(o, "distance", 2);
        break;
    }
}

/* Starts `sweep query` reading to_sweep[0] and writing from_sweep[1] (both
 * pipes made here); the caller keeps the other ends. small_quarantine
 * keeps AddressSanitizer's quarantine of freed memory (up to 256 MB) small,
 * so that the peak RSS measures live memory (builds without the sanitizer
 * ignore it). */
static pid_t spawn_query(int to_sweep[2], int from_sweep[2], bool small_quarantine)
{
    assert_int_equal(pipe(to_sweep), 0);
    assert_int_equal(pipe(from_sweep), 0);
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(to_sweep[0], 0);
        dup2(from_sweep[1], 1);
        close(to_sweep[0]);
        close(to_sweep[1]);
        close(from_sweep[0]);
        close(from_sweep[1]);
        if (small_quarantine) {
            const char* old = getenv("ASAN_OPTIONS");
            char opts[1024];
            snprintf(opts, sizeof opts, "%s%squarantine_size_mb=4", old ? old : "", old && *old ? ":" : "");
            setenv("ASAN_OPTIONS", opts, 1);
        }
        execl(sweep_path, sweep_path, "query", (char*)NULL);
        _exit(127);
    }
    return pid;
}

/* Streams n generated requests into `sweep query` through a pipe (written by
 * a child process while this one reads the answers) and checks every answer.
 * Returns the program's peak resident set size in KiB. */
static long stream_requests(long n)
{
    int to_sweep[2], from_sweep[2];
    const pid_t sweep = spawn_query(to_sweep, from_sweep, true);
    const pid_t writer = fork();
    assert_true(writer >= 0);
    if (writer == 0) {
        close(to_sweep[0]);
        close(from_sweep[0]);
        close(from_sweep[1]);
        FILE* f = fdopen(to_sweep[1], "w");
        if (!f) {
            _exit(1);
        }
        for (long i = 0; i < n; ++i) {
            write_request(f, i);
        }
        _exit(fclose(f) == 0 ? 0 : 1);
    }
    close(to_sweep[0]);
    close(to_sweep[1]);
    close(from_sweep[1]);

    FILE* in = fdopen(from_sweep[0], "r");
    assert_non_null(in);
    char* line = NULL;
    size_t cap = 0;
    long count = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) > 0) {
        json_error_t jerr;
        json_t* o = json_loadb(line, (size_t)len, JSON_REJECT_DUPLICATES, &jerr);
        if (!o) {
            print_error("answer %ld is not JSON (%s): %s", count, jerr.text, line);
            fail();
        }
        check_stream_answer(o, count);
        json_decref(o);
        ++count;
    }
    free(line);
    fclose(in);

    int ws = 0;
    assert_int_equal(waitpid(writer, &ws, 0), writer);
    assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    struct rusage ru;
    assert_int_equal(wait4(sweep, &ws, 0, &ru), sweep);
    assert_true(WIFEXITED(ws));
    assert_int_equal(WEXITSTATUS(ws), 1); /* there were bad lines */
    assert_int_equal(count, n);
    return ru.ru_maxrss;
}

/* 200,000 requests through a pipe are all answered, in order, and the
 * program's memory does not grow with the input: its peak RSS is within a
 * few MiB of that for 2,000 requests (a leak of even 50 bytes a line would
 * add 10 MB). */
static void test_stream_constant_memory(void** state)
{
    (void)state;
    const long small = stream_requests(2000);
    const long large = stream_requests(200000);
    print_message("peak RSS: %ld KiB for 2,000 lines, %ld KiB for 200,000 lines\n", small, large);
    assert_true(large <= small + 8 * 1024);
}

/* A coprocess that writes one request and waits for its answer before
 * writing the next gets each answer at once (the output buffer is flushed
 * whenever the input would block). */
static void test_interactive_answers(void** state)
{
    (void)state;
    int to_sweep[2], from_sweep[2];
    const pid_t pid = spawn_query(to_sweep, from_sweep, false);
    close(to_sweep[0]);
    close(from_sweep[1]);
    FILE* in = fdopen(from_sweep[0], "r");
    assert_non_null(in);
    char* line = NULL;
    size_t cap = 0;
    for (int i = 0; i < 3; ++i) {
        char request[512];
        const int n = snprintf(request, sizeof request, "{\"id\":%d," HEAD_ON_BODY "}\n", i);
        assert_int_equal(write(to_sweep[1], request, (size_t)n), n);
        /* Would hang (and time out) if the answer stayed in a buffer. */
        assert_true(getline(&line, &cap, in) > 0);
        json_t* o = json_loads(line, 0, NULL);
        assert_non_null(o);
        assert_int_equal(json_integer_value(json_object_get(o, "id")), i);
        CHECK_HEAD_ON(o);
        json_decref(o);
    }
    close(to_sweep[1]);
    assert_true(getline(&line, &cap, in) < 0); /* nothing more after the end of input */
    free(line);
    fclose(in);
    int ws = 0;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
}

/* ---- group demo ------------------------------------------------------------ */

static void test_demo(void** state)
{
    (void)state;
    run_result r = run_sweep(NULL, "demo");
    if (r.status != 0) {
        print_error("sweep demo exited with %d:\n%s\n%s\n", r.status, r.out, r.err);
        fail();
    }
    const char* check = strstr(r.out, "\ncheck: 200 steps, max overlap ");
    assert_non_null(check);
    const char* end = strchr(check + 1, '\n');
    assert_non_null(end);
    assert_true(end - check > 4 && strncmp(end - 4, ": OK", 4) == 0);
    assert_non_null(strstr(r.out, "impacts: "));
    assert_non_null(strstr(r.out, "-> container"));
    assert_non_null(strstr(r.out, "-> static"));

    /* Deterministic: a second run prints the same. */
    run_result again = run_sweep(NULL, "demo");
    assert_int_equal(again.status, 0);
    assert_string_equal(r.out, again.out);
    run_free(&again);
    run_free(&r);
}

/* A longer run, every impact printed: still no overlap, and the moving
 * spheres hit each other too. */
static void test_demo_long(void** state)
{
    (void)state;
    run_result r = run_sweep(NULL, "demo", "--steps", "2000", "--all");
    if (r.status != 0) {
        print_error("sweep demo --steps 2000 exited with %d:\n%s\n", r.status, r.err);
        fail();
    }
    assert_non_null(strstr(r.out, "-> sphere"));
    assert_non_null(strstr(r.out, "check: 2000 steps"));
    assert_null(strstr(r.out, "more impacts not shown"));
    run_free(&r);
}

/* ---- main ------------------------------------------------------------------------- */

int main(int argc, char** argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s PATH_TO_SWEEP GROUP\n", argv[0]);
        return 2;
    }
    /* Absolute, so that a test may run the program from another directory. */
    static char absolute[PATH_MAX];
    sweep_path = realpath(argv[1], absolute) ? absolute : argv[1];
    const char* group = argv[2];

    static const struct CMUnitTest main_tests[] = {
        cmocka_unit_test(test_help),         cmocka_unit_test(test_command_help),        cmocka_unit_test(test_version),
        cmocka_unit_test(test_usage_errors), cmocka_unit_test(test_query_file_argument),
    };
    static const struct CMUnitTest answer_tests[] = {
        cmocka_unit_test(test_answer_text),
        cmocka_unit_test(test_sweep_answers),
        cmocka_unit_test(test_raycast_answers),
        cmocka_unit_test(test_sweep_inside_answers),
        cmocka_unit_test(test_flat_shape_answers),
        cmocka_unit_test(test_hull_answers),
        cmocka_unit_test(test_overlap_and_distance_answers),
        cmocka_unit_test(test_numbers_read_back_exactly),
        cmocka_unit_test(test_ids_echoed),
        cmocka_unit_test(test_line_endings),
    };
    static const struct CMUnitTest error_tests[] = {
        cmocka_unit_test(test_bad_lines),    cmocka_unit_test(test_unsupported_pairs),
        cmocka_unit_test(test_hull_limits),  cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_hostile_text),
    };
    static const struct CMUnitTest stream_tests[] = {
        cmocka_unit_test(test_stream_constant_memory),
        cmocka_unit_test(test_interactive_answers),
    };
    static const struct CMUnitTest demo_tests[] = {
        cmocka_unit_test(test_demo),
        cmocka_unit_test(test_demo_long),
    };

    if (strcmp(group, "main") == 0) {
        return cmocka_run_group_tests_name("cli_main", main_tests, NULL, NULL);
    }
    if (strcmp(group, "answers") == 0) {
        return cmocka_run_group_tests_name("cli_answers", answer_tests, NULL, NULL);
    }
    if (strcmp(group, "errors") == 0) {
        return cmocka_run_group_tests_name("cli_errors", error_tests, NULL, NULL);
    }
    if (strcmp(group, "stream") == 0) {
        return cmocka_run_group_tests_name("cli_stream", stream_tests, NULL, NULL);
    }
    if (strcmp(group, "demo") == 0) {
        return cmocka_run_group_tests_name("cli_demo", demo_tests, NULL, NULL);
    }
    if (strcmp(group, "mesh") == 0) {
        return cli_mesh_tests();
    }
    if (strcmp(group, "scene") == 0) {
        return cli_scene_tests();
    }
    fprintf(stderr, "%s: unknown group '%s' (main, answers, errors, stream, demo, mesh, scene)\n", argv[0], group);
    return 2;
}
