/* Fuzz target: arbitrary bytes as the input of the `sweep query` loop
 * (query_stream of tools/sweep/query.c, reading from memory).
 *
 * Invariants: no crash; exactly one answer line per input line; every
 * answer is a JSON object with the request's "id" (null when the line is
 * not an object with one) and either an "error" naming the line, or the
 * fields of its op's answer (DESIGN.md §5, docs/protocol.md: pairs, scene
 * requests, queries over a scene) with the geometry-free checks of fuzz.h.
 * An error that blames the library (input the parser accepted but the
 * library rejected, or a non-finite result) is a finding too. Lines are
 * read as the program reads them (request_json_load: integers of any
 * length), so ids beyond int64 compare as the program echoes them. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz.h"
#include "request.h"

static struct {
    const uint8_t* data;
    size_t size;
    const char* answers;
} cur;

static void print_escaped(FILE* out, const char* s, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        const unsigned char c = (unsigned char)s[i];
        if (c == '\n') {
            fputs("\\n\n    ", out);
        } else if (c < 0x20 || c >= 0x7f) {
            fprintf(out, "\\x%02x", c);
        } else {
            putc(c, out);
        }
    }
}

static void describe(FILE* out)
{
    fputs("  input lines:\n    ", out);
    print_escaped(out, (const char*)cur.data, cur.size);
    fputs("\n  answers:\n    ", out);
    if (cur.answers) {
        print_escaped(out, cur.answers, strlen(cur.answers));
    }
    fputs("\n", out);
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    (void)argc;
    (void)argv;
    fz_init(describe);
    /* As `sweep query` does: invalid input the parser let through becomes an
     * error answer, which the checks below then flag. */
    request_catch_invalid_input();
    return 0;
}

typedef enum answer_kind {
    ANSWER_ANY,
    ANSWER_HIT,
    ANSWER_OVERLAP,
    ANSWER_DISTANCE,
    ANSWER_SCENE_CHANGE, /* scene_create, scene_add, scene_remove, scene_move */
    ANSWER_HITS,         /* a ray cast or sweep over a scene with "hits":"all" */
    ANSWER_OVERLAPS      /* an overlap over a scene */
} answer_kind;

/* What the input line asks for, parsed as query.c's parser does: the answer
 * kind of its op and its id (a borrowed reference into *root). */
static answer_kind expected_kind(const char* line, size_t len, json_t** root, const json_t** id)
{
    json_error_t jerr;
    *root = request_json_load(line, len, &jerr);
    *id = NULL;
    if (!*root || !json_is_object(*root)) {
        return ANSWER_ANY;
    }
    *id = json_object_get(*root, "id");
    const char* op = json_string_value(json_object_get(*root, "op"));
    if (!op) {
        return ANSWER_ANY;
    }
    if (strncmp(op, "scene_", 6) == 0) {
        return ANSWER_SCENE_CHANGE;
    }
    const bool scene = json_object_get(*root, "scene") != NULL;
    const char* hits = json_string_value(json_object_get(*root, "hits"));
    if (strcmp(op, "sweep") == 0 || strcmp(op, "raycast") == 0 || strcmp(op, "sweep_inside") == 0) {
        return scene && hits && strcmp(hits, "all") == 0 ? ANSWER_HITS : ANSWER_HIT;
    }
    if (strcmp(op, "overlap") == 0) {
        return scene ? ANSWER_OVERLAPS : ANSWER_OVERLAP;
    }
    return strcmp(op, "distance") == 0 ? ANSWER_DISTANCE : ANSWER_ANY;
}

static bool get_number(const json_t* obj, const char* key, double* out)
{
    const json_t* v = json_object_get(obj, key);
    if (!json_is_number(v)) {
        return false;
    }
    *out = json_number_value(v);
    return isfinite(*out);
}

static bool get_vec3(const json_t* obj, const char* key, sw_vec3* out)
{
    const json_t* v = json_object_get(obj, key);
    if (!json_is_array(v) || json_array_size(v) != 3) {
        return false;
    }
    sw_real c[3];
    for (size_t i = 0; i < 3; ++i) {
        const json_t* e = json_array_get(v, i);
        if (!json_is_number(e) || !isfinite(json_number_value(e))) {
            return false;
        }
        c[i] = (sw_real)json_number_value(e);
    }
    *out = sw_v3(c[0], c[1], c[2]);
    return true;
}

/* Counts the optional fields of a hit: "triangle" (a mesh), "key" (over a
 * scene; required there) and the velocities of a moving shape (all three
 * or none), checking each. */
static size_t hit_extras(const json_t* ans, bool scene, long line_no)
{
    size_t n = 0;
    const json_t* triangle = json_object_get(ans, "triangle");
    if (triangle) {
        FZ_CHECK(json_is_integer(triangle) && json_integer_value(triangle) >= 0, "line %ld: a bad \"triangle\"",
                 line_no);
        n++;
    }
    const json_t* key = json_object_get(ans, "key");
    FZ_CHECK(scene ? json_is_integer(key) : key == NULL, "line %ld: a hit %s \"key\"", line_no,
             scene ? "over a scene without a" : "of a pair with a");
    n += key != NULL;
    sw_vec3 v;
    const bool velocity = json_object_get(ans, "velocity") != NULL;
    if (velocity) {
        FZ_CHECK(scene && get_vec3(ans, "velocity", &v) && get_vec3(ans, "angular_velocity", &v) &&
                     get_vec3(ans, "point_velocity", &v),
                 "line %ld: a hit with bad velocities", line_no);
        n += 3;
    } else {
        FZ_CHECK(!json_object_get(ans, "angular_velocity") && !json_object_get(ans, "point_velocity"),
                 "line %ld: a hit with some velocities only", line_no);
    }
    return n;
}

/* Rebuilds the library result from a hit answer (a whole answer, or an
 * element of "hits" without an id) and runs the checks of fuzz.h on it. */
static void check_hit(const json_t* ans, const char* op, bool element, bool scene, long line_no)
{
    const size_t base = element ? 7 : 8;
    sw_hit h = {0};
    h.hit = json_is_true(json_object_get(ans, "hit"));
    FZ_CHECK(h.hit || json_is_false(json_object_get(ans, "hit")), "line %ld: \"hit\" is not a boolean", line_no);
    if (!h.hit) {
        FZ_CHECK(!element && json_object_size(ans) == 2, "line %ld: a miss answer with extra fields", line_no);
        return;
    }
    double t, depth;
    const json_t* overlapping = json_object_get(ans, "overlapping");
    const json_t* feature = json_object_get(ans, "feature");
    FZ_CHECK(json_is_boolean(overlapping) && get_number(ans, "t", &t) && get_number(ans, "depth", &depth) &&
                 get_vec3(ans, "point", &h.point) && get_vec3(ans, "normal", &h.normal) && json_is_object(feature) &&
                 json_object_size(ans) == base + hit_extras(ans, scene, line_no),
             "line %ld: a hit answer without the fields of DESIGN.md §5", line_no);
    h.overlapping = json_is_true(overlapping);
    h.t = (sw_real)t;
    h.depth = (sw_real)depth;
    const char* kind = json_string_value(json_object_get(feature, "kind"));
    FZ_CHECK(kind != NULL, "line %ld: feature without a kind", line_no);
    h.feature.kind = (sw_feature_kind)-1;
    for (int k = SW_FEATURE_NONE; k <= SW_FEATURE_FACE; ++k) {
        if (strcmp(kind, sw_feature_kind_name((sw_feature_kind)k)) == 0) {
            h.feature.kind = (sw_feature_kind)k;
        }
    }
    const json_t* index = json_object_get(feature, "index");
    if (h.feature.kind != SW_FEATURE_NONE) {
        FZ_CHECK(json_is_integer(index) && json_object_size(feature) == 2, "line %ld: feature %s without an index",
                 line_no, kind);
        h.feature.index = (int)json_integer_value(index);
    } else {
        FZ_CHECK(json_object_size(feature) == 1, "line %ld: feature none with extra fields", line_no);
    }
    /* A ray's t runs to its max; sweeps' to 1. */
    const sw_real tmax = strcmp(op, "raycast") == 0 ? (sw_real)SW_MAX_COORD : 1;
    fz_begin_query();
    fz_check_hit(&h, true, true, tmax);
}

static void check_overlap_answer(const json_t* ans, long line_no)
{
    sw_overlap_result r = {0};
    r.overlapping = json_is_true(json_object_get(ans, "overlapping"));
    FZ_CHECK(r.overlapping || json_is_false(json_object_get(ans, "overlapping")),
             "line %ld: \"overlapping\" is not a boolean", line_no);
    if (r.overlapping) {
        double depth;
        FZ_CHECK(get_number(ans, "depth", &depth) && get_vec3(ans, "normal", &r.normal) &&
                     get_vec3(ans, "point", &r.point) && json_object_size(ans) == 5,
                 "line %ld: an overlap answer without the fields of DESIGN.md §5", line_no);
        r.depth = (sw_real)depth;
    } else {
        FZ_CHECK(json_object_size(ans) == 2, "line %ld: a no-overlap answer with extra fields", line_no);
    }
    fz_begin_query();
    fz_check_overlap(&r, true, true);
}

static void check_distance_answer(const json_t* ans, bool scene, long line_no)
{
    sw_distance_result r = {0};
    double distance;
    if (scene && json_is_null(json_object_get(ans, "distance"))) {
        FZ_CHECK(json_object_size(ans) == 2, "line %ld: a null distance with extra fields", line_no);
        return;
    }
    FZ_CHECK(get_number(ans, "distance", &distance) && get_vec3(ans, "point_a", &r.point_a) &&
                 get_vec3(ans, "point_b", &r.point_b) && json_object_size(ans) == (scene ? 5u : 4u) &&
                 (!scene || json_is_integer(json_object_get(ans, "key"))),
             "line %ld: a distance answer without the fields of DESIGN.md §5", line_no);
    r.distance = (sw_real)distance;
    fz_begin_query();
    fz_check_distance(&r, true, true);
}

/* {"id":..,"scene":NAME,"count":N} */
static void check_scene_change_answer(const json_t* ans, long line_no)
{
    const json_t* count = json_object_get(ans, "count");
    FZ_CHECK(json_is_string(json_object_get(ans, "scene")) && json_is_integer(count) &&
                 json_integer_value(count) >= 0 && json_object_size(ans) == 3,
             "line %ld: a scene answer without the fields of docs/protocol.md", line_no);
}

/* {"id":..,"hits":[HIT,...]}, each over a scene, in (t, key) order, one per key. */
static void check_hits_answer(const json_t* ans, const char* op, long line_no)
{
    const json_t* hits = json_object_get(ans, "hits");
    FZ_CHECK(json_is_array(hits) && json_object_size(ans) == 2, "line %ld: an \"all\" answer without \"hits\"",
             line_no);
    double last_t = -1;
    json_int_t last_key = 0;
    for (size_t i = 0; i < json_array_size(hits); i++) {
        const json_t* e = json_array_get(hits, i);
        FZ_CHECK(json_is_object(e) && json_is_true(json_object_get(e, "hit")), "line %ld: hits[%zu] is not a hit",
                 line_no, i);
        check_hit(e, op, true, true, line_no);
        double t = 0;
        get_number(e, "t", &t);
        const json_int_t key = json_integer_value(json_object_get(e, "key"));
        FZ_CHECK(i == 0 || t > last_t || (t == last_t && key > last_key), "line %ld: hits out of (t, key) order",
                 line_no);
        last_t = t;
        last_key = key;
    }
}

/* {"id":..,"overlaps":[{"key","depth","normal","point"},...]} by key. */
static void check_overlaps_answer(const json_t* ans, long line_no)
{
    const json_t* list = json_object_get(ans, "overlaps");
    FZ_CHECK(json_is_array(list) && json_object_size(ans) == 2, "line %ld: an overlap answer without \"overlaps\"",
             line_no);
    json_int_t last_key = 0;
    for (size_t i = 0; i < json_array_size(list); i++) {
        const json_t* e = json_array_get(list, i);
        const json_t* key = json_object_get(e, "key");
        sw_overlap_result r = {0};
        r.overlapping = true;
        double depth;
        FZ_CHECK(json_is_integer(key) && get_number(e, "depth", &depth) && get_vec3(e, "normal", &r.normal) &&
                     get_vec3(e, "point", &r.point) && json_object_size(e) == 4,
                 "line %ld: overlaps[%zu] without the fields of docs/protocol.md", line_no, i);
        FZ_CHECK(i == 0 || json_integer_value(key) > last_key, "line %ld: overlaps out of key order", line_no);
        last_key = json_integer_value(key);
        r.depth = (sw_real)depth;
        fz_begin_query();
        fz_check_overlap(&r, true, true);
    }
}

/* Checks one answer line; returns whether it is an error answer. */
static bool check_answer(const char* line, size_t len, const char* answer, size_t answer_len, long line_no)
{
    json_t* request;
    const json_t* id;
    const answer_kind kind = expected_kind(line, len, &request, &id);
    json_error_t jerr;
    json_t* ans = request_json_load(answer, answer_len, &jerr);
    FZ_CHECK(ans && json_is_object(ans), "line %ld: the answer is not a JSON object (%s)", line_no,
             ans ? "another value" : jerr.text);
    const json_t* ans_id = json_object_get(ans, "id");
    FZ_CHECK(ans_id != NULL, "line %ld: the answer has no \"id\"", line_no);
    FZ_CHECK(id ? json_equal((json_t*)id, (json_t*)ans_id) : json_is_null(ans_id),
             "line %ld: the answer's id is not the request's", line_no);

    const json_t* error = json_object_get(ans, "error");
    const bool is_error = error != NULL;
    if (is_error) {
        const char* msg = json_string_value(error);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "line %ld: ", line_no);
        FZ_CHECK(msg && strncmp(msg, prefix, strlen(prefix)) == 0 && json_object_size(ans) == 2,
                 "line %ld: a malformed error answer", line_no);
        const char* what = msg + strlen(prefix);
        FZ_CHECK(strncmp(what, "the library rejected", 20) != 0 && strncmp(what, "internal error", 14) != 0,
                 "line %ld: the library refused or broke on a request the parser accepted: %s", line_no, msg);
    } else {
        FZ_CHECK(kind != ANSWER_ANY, "line %ld: an answer without an error to a line that is no request", line_no);
        const char* op = json_string_value(json_object_get(request, "op"));
        const bool scene = json_object_get(request, "scene") != NULL;
        switch (kind) {
        case ANSWER_HIT:
            check_hit(ans, op, false, scene, line_no);
            break;
        case ANSWER_OVERLAP:
            check_overlap_answer(ans, line_no);
            break;
        case ANSWER_SCENE_CHANGE:
            check_scene_change_answer(ans, line_no);
            break;
        case ANSWER_HITS:
            check_hits_answer(ans, op, line_no);
            break;
        case ANSWER_OVERLAPS:
            check_overlaps_answer(ans, line_no);
            break;
        default:
            check_distance_answer(ans, scene, line_no);
            break;
        }
    }
    json_decref(ans);
    json_decref(request);
    return is_error;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    cur.data = data;
    cur.size = size;
    cur.answers = NULL;
    FILE* in = fmemopen((void*)data, size, "r");
    char* answers = NULL;
    size_t answers_size = 0;
    FILE* out = open_memstream(&answers, &answers_size);
    FZ_CHECK(in && out, "cannot open memory streams");
    long bad = 0;
    const int rc = query_stream(in, out, &bad);
    fclose(in);
    fclose(out);
    cur.answers = answers;
    FZ_CHECK(rc == 0, "query_stream failed on memory streams");

    /* Walk the input lines (as getline splits them) beside the answers. */
    const char* line = (const char*)data;
    const char* end = line + size;
    const char* answer = answers;
    long line_no = 0, errors = 0;
    while (line < end) {
        const char* nl = memchr(line, '\n', (size_t)(end - line));
        const char* line_end = nl ? nl + 1 : end;
        ++line_no;
        const char* answer_end = strchr(answer, '\n');
        FZ_CHECK(answer_end != NULL, "line %ld has no answer line", line_no);
        errors += check_answer(line, (size_t)(line_end - line), answer, (size_t)(answer_end - answer), line_no);
        line = line_end;
        answer = answer_end + 1;
    }
    FZ_CHECK(*answer == '\0', "more answer lines than the %ld input lines", line_no);
    FZ_CHECK(bad == errors, "query_stream counted %ld bad lines, the answers hold %ld errors", bad, errors);
    free(answers);
    cur.answers = NULL;
    return 0;
}
