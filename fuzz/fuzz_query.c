/* Fuzz target: arbitrary bytes as the input of the `sweep query` loop
 * (query_stream of tools/sweep/query.c, reading from memory).
 *
 * Invariants: no crash; exactly one answer line per input line; every
 * answer is a JSON object with the request's "id" (null when the line is
 * not an object with one) and either an "error" naming the line, or the
 * fields of its op's answer (DESIGN.md §5) with the geometry-free checks of
 * fuzz.h. An error that blames the library (input the parser accepted but
 * the library rejected, or a non-finite result) is a finding too. */
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

typedef enum answer_kind { ANSWER_ANY, ANSWER_HIT, ANSWER_OVERLAP, ANSWER_DISTANCE } answer_kind;

/* What the input line asks for, parsed as query.c's parser does: the answer
 * kind of its op and its id (a borrowed reference into *root). */
static answer_kind expected_kind(const char* line, size_t len, json_t** root, const json_t** id)
{
    *root = json_loadb(line, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
    *id = NULL;
    if (!*root || !json_is_object(*root)) {
        return ANSWER_ANY;
    }
    *id = json_object_get(*root, "id");
    const char* op = json_string_value(json_object_get(*root, "op"));
    if (!op) {
        return ANSWER_ANY;
    }
    if (strcmp(op, "sweep") == 0 || strcmp(op, "raycast") == 0 || strcmp(op, "sweep_inside") == 0) {
        return ANSWER_HIT;
    }
    if (strcmp(op, "overlap") == 0) {
        return ANSWER_OVERLAP;
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

/* Rebuilds the library result from a hit answer and runs the checks of
 * fuzz.h on it. */
static void check_hit_answer(const json_t* ans, const char* op, long line_no)
{
    sw_hit h = {0};
    h.hit = json_is_true(json_object_get(ans, "hit"));
    FZ_CHECK(h.hit || json_is_false(json_object_get(ans, "hit")), "line %ld: \"hit\" is not a boolean", line_no);
    if (!h.hit) {
        FZ_CHECK(json_object_size(ans) == 2, "line %ld: a miss answer with extra fields", line_no);
        return;
    }
    double t, depth;
    const json_t* overlapping = json_object_get(ans, "overlapping");
    const json_t* feature = json_object_get(ans, "feature");
    FZ_CHECK(json_is_boolean(overlapping) && get_number(ans, "t", &t) && get_number(ans, "depth", &depth) &&
                 get_vec3(ans, "point", &h.point) && get_vec3(ans, "normal", &h.normal) && json_is_object(feature) &&
                 json_object_size(ans) == 8,
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

static void check_distance_answer(const json_t* ans, long line_no)
{
    sw_distance_result r = {0};
    double distance;
    FZ_CHECK(get_number(ans, "distance", &distance) && get_vec3(ans, "point_a", &r.point_a) &&
                 get_vec3(ans, "point_b", &r.point_b) && json_object_size(ans) == 4,
             "line %ld: a distance answer without the fields of DESIGN.md §5", line_no);
    r.distance = (sw_real)distance;
    fz_begin_query();
    fz_check_distance(&r, true, true);
}

/* Checks one answer line; returns whether it is an error answer. */
static bool check_answer(const char* line, size_t len, const char* answer, size_t answer_len, long line_no)
{
    json_t* request;
    const json_t* id;
    const answer_kind kind = expected_kind(line, len, &request, &id);
    json_error_t jerr;
    json_t* ans = json_loadb(answer, answer_len, JSON_REJECT_DUPLICATES, &jerr);
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
        if (kind == ANSWER_HIT) {
            check_hit_answer(ans, op, line_no);
        } else if (kind == ANSWER_OVERLAP) {
            check_overlap_answer(ans, line_no);
        } else {
            check_distance_answer(ans, line_no);
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
