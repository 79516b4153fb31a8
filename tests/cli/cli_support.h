/* Helpers of the `sweep` program's tests: running the program on an input,
 * parsing its answer lines, and checks that name the answer on failure. */
#ifndef SWEEP_CLI_SUPPORT_H
#define SWEEP_CLI_SUPPORT_H

// clang-format off
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <jansson.h>

#include "sweep/sweep.h"

/* The program under test (set by main from the command line). */
extern const char* sweep_path;

/* ---- running the program ------------------------------------------------- */

typedef struct run_result {
    int status; /* exit status; 128 + signal when killed */
    char* out;
    size_t out_len;
    char* err;
} run_result;

/* Runs `sweep ARGS...` (NULL-terminated) with `input` (len bytes; NULL for
 * an empty standard input) and collects its output and exit status. */
run_result run_sweep_n(const char* input, size_t len, ...);
size_t length_of(const char* s);
#define run_sweep(input, ...) run_sweep_n((input), length_of(input), __VA_ARGS__, (const char*)NULL)
void run_free(run_result* r);

/* ---- reading the answers -------------------------------------------------- */

typedef struct answers {
    json_t** line;
    size_t count;
} answers;

/* Parses every output line as a JSON object (which also proves that no
 * NaN or Infinity was printed: they are not JSON). */
answers parse_answers(const run_result* r);
void answers_free(answers* a);
/* Runs `sweep query` on input and parses its answers; expected_status -1
 * accepts 0 or 1. */
answers query(const char* input, int expected_status, size_t expected_lines);
char* dump(const json_t* v);

/* ---- checks (file and line name the caller) -------------------------------- */

void check_fail(const json_t* obj, const char* file, int line, const char* fmt, ...);
/* obj[key] read back as sw_real must be exactly `expected`. */
void check_real(const json_t* obj, const char* key, double expected, const char* file, int line);
void check_vec(const json_t* obj, const char* key, double x, double y, double z, const char* file, int line);
void check_bool(const json_t* obj, const char* key, bool expected, const char* file, int line);
/* The answer's keys, in order, must be exactly `keys` (space-separated). */
void check_keys(const json_t* obj, const char* keys, const char* file, int line);
void check_id(const json_t* obj, const char* expected_json, const char* file, int line);
/* The error answer of line line_no: its message must start "line N: " and
 * contain `part`. */
void check_error(const json_t* obj, long line_no, const char* part, const char* file, int line);

#define CHECK_REAL(o, k, v) check_real((o), (k), (v), __FILE__, __LINE__)
#define CHECK_VEC(o, k, x, y, z) check_vec((o), (k), (x), (y), (z), __FILE__, __LINE__)
#define CHECK_BOOL(o, k, v) check_bool((o), (k), (v), __FILE__, __LINE__)
#define CHECK_KEYS(o, k) check_keys((o), (k), __FILE__, __LINE__)
#define CHECK_ID(o, j) check_id((o), (j), __FILE__, __LINE__)
#define CHECK_ERROR(o, n, part) check_error((o), (n), (part), __FILE__, __LINE__)

/* The mesh tests (cli_mesh.c), run as the group "mesh". */
int cli_mesh_tests(void);
/* The scene tests (cli_scene.c), run as the group "scene". */
int cli_scene_tests(void);

#endif
