/* Helpers of the `sweep` program's tests (cli_test.c, cli_mesh.c): running
 * the program, reading its answers and checking them (cli_support.h). */
#define _POSIX_C_SOURCE 200809L

#include "cli_support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

const char* sweep_path;

/* ---- running the program ------------------------------------------------- */

char* slurp(FILE* f, size_t* len)
{
    fflush(f);
    rewind(f);
    size_t cap = 4096, n = 0;
    char* buf = malloc(cap);
    assert_non_null(buf);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    buf[n] = '\0';
    if (len) {
        *len = n;
    }
    return buf;
}

/* Runs `sweep ARGS...` (NULL-terminated) with `input` (len bytes; NULL for
 * an empty standard input) and collects its output and exit status. */
run_result run_sweep_n(const char* input, size_t len, ...)
{
    const char* argv[16] = {sweep_path};
    int argc = 1;
    va_list ap;
    va_start(ap, len);
    for (const char* a; (a = va_arg(ap, const char*)) != NULL && argc < 15;) {
        argv[argc++] = a;
    }
    va_end(ap);
    argv[argc] = NULL;

    FILE* in = tmpfile();
    FILE* out = tmpfile();
    FILE* err = tmpfile();
    assert_true(in && out && err);
    if (input && len > 0) {
        assert_int_equal(fwrite(input, 1, len, in), len);
    }
    fflush(in);
    rewind(in);
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fileno(in), 0);
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        execv(sweep_path, (char* const*)argv);
        _exit(127);
    }
    int ws = 0;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    run_result r;
    r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    r.out = slurp(out, &r.out_len);
    r.err = slurp(err, NULL);
    fclose(in);
    fclose(out);
    fclose(err);
    if (r.status >= 128) {
        print_error("sweep was killed by signal %d; stderr:\n%s\n", r.status - 128, r.err);
        fail();
    }
    return r;
}

size_t length_of(const char* s) { return s ? strlen(s) : 0; }

void run_free(run_result* r)
{
    free(r->out);
    free(r->err);
}

/* ---- reading the answers -------------------------------------------------- */

/* Parses every output line as a JSON object (which also proves that no
 * NaN or Infinity was printed: they are not JSON). */
answers parse_answers(const run_result* r)
{
    answers a = {NULL, 0};
    size_t cap = 0;
    const char* p = r->out;
    const char* end = r->out + r->out_len;
    if (r->out_len > 0 && end[-1] != '\n') {
        print_error("output does not end with a newline:\n%s\n", r->out);
        fail();
    }
    while (p < end) {
        const char* nl = memchr(p, '\n', (size_t)(end - p));
        json_error_t jerr;
        json_t* v = json_loadb(p, (size_t)(nl - p), JSON_REJECT_DUPLICATES, &jerr);
        if (!v || !json_is_object(v)) {
            print_error("answer %zu is not a JSON object (%s): %.*s\n", a.count + 1, v ? "not an object" : jerr.text,
                        (int)(nl - p), p);
            fail();
        }
        if (a.count == cap) {
            cap = cap ? 2 * cap : 16;
            a.line = realloc(a.line, cap * sizeof *a.line);
            assert_non_null(a.line);
        }
        a.line[a.count++] = v;
        p = nl + 1;
    }
    return a;
}

void answers_free(answers* a)
{
    for (size_t i = 0; i < a->count; ++i) {
        json_decref(a->line[i]);
    }
    free(a->line);
}

/* Runs `sweep query` on input and parses its answers; expected_status -1
 * accepts 0 or 1. */
answers query(const char* input, int expected_status, size_t expected_lines)
{
    run_result r = run_sweep(input, "query");
    /* -1: 0 or 1 (lines a build may or may not answer). */
    if (expected_status < 0 ? !(r.status == 0 || r.status == 1) : r.status != expected_status) {
        print_error("sweep query: expected exit status %d, got %d\nstdout:\n%s\nstderr:\n%s\n", expected_status,
                    r.status, r.out, r.err);
        fail();
    }
    answers a = parse_answers(&r);
    if (a.count != expected_lines) {
        print_error("expected %zu answer lines, got %zu:\n%s\n", expected_lines, a.count, r.out);
        fail();
    }
    run_free(&r);
    return a;
}

char* dump(const json_t* v) { return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT); }

void check_fail(const json_t* obj, const char* file, int line, const char* fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char* text = dump(obj);
    print_error("%s:%d: %s\n  in answer %s\n", file, line, msg, text);
    free(text);
    fail();
}

/* obj[key] read back as sw_real must be exactly `expected` (an exact
 * decimal in these tests, or a value the library computed). */
void check_real(const json_t* obj, const char* key, double expected, const char* file, int line)
{
    const json_t* v = json_object_get(obj, key);
    if (!json_is_number(v)) {
        check_fail(obj, file, line, "\"%s\" is missing or not a number", key);
        return;
    }
    const sw_real got = (sw_real)json_number_value(v);
    if (got != (sw_real)expected) {
        check_fail(obj, file, line, "\"%s\": expected %.17g, got %.17g", key, (double)(sw_real)expected, (double)got);
    }
}

void check_vec(const json_t* obj, const char* key, double x, double y, double z, const char* file, int line)
{
    const json_t* v = json_object_get(obj, key);
    if (!json_is_array(v) || json_array_size(v) != 3) {
        check_fail(obj, file, line, "\"%s\" is not an array of 3 numbers", key);
        return;
    }
    const double want[3] = {x, y, z};
    for (size_t i = 0; i < 3; ++i) {
        const json_t* e = json_array_get(v, i);
        if (!json_is_number(e) || (sw_real)json_number_value(e) != (sw_real)want[i]) {
            check_fail(obj, file, line, "\"%s\"[%zu]: expected %.17g, got %s", key, i, want[i],
                       json_is_number(e) ? "another value" : "a non-number");
        }
    }
}

void check_bool(const json_t* obj, const char* key, bool expected, const char* file, int line)
{
    const json_t* v = json_object_get(obj, key);
    if (!json_is_boolean(v) || json_is_true(v) != expected) {
        check_fail(obj, file, line, "\"%s\": expected %s", key, expected ? "true" : "false");
    }
}

/* The answer's keys, in order, must be exactly `keys` (space-separated). */
void check_keys(const json_t* obj, const char* keys, const char* file, int line)
{
    char got[256] = "";
    const char* key;
    json_t* v;
    json_object_foreach((json_t*)obj, key, v)
    {
        if (got[0]) {
            strncat(got, " ", sizeof got - strlen(got) - 1);
        }
        strncat(got, key, sizeof got - strlen(got) - 1);
    }
    if (strcmp(got, keys) != 0) {
        check_fail(obj, file, line, "keys: expected \"%s\", got \"%s\"", keys, got);
    }
}

void check_id(const json_t* obj, const char* expected_json, const char* file, int line)
{
    json_t* want = json_loads(expected_json, JSON_DECODE_ANY, NULL);
    assert_non_null(want);
    const json_t* got = json_object_get(obj, "id");
    if (!got || !json_equal(got, want)) {
        check_fail(obj, file, line, "id: expected %s", expected_json);
    }
    json_decref(want);
}

/* The error answer of line line_no: its message must start "line N: " and
 * contain `part`. */
void check_error(const json_t* obj, long line_no, const char* part, const char* file, int line)
{
    const json_t* e = json_object_get(obj, "error");
    if (!json_is_string(e)) {
        check_fail(obj, file, line, "expected an error answer for line %ld (containing \"%s\")", line_no, part);
        return;
    }
    char prefix[32];
    snprintf(prefix, sizeof prefix, "line %ld: ", line_no);
    const char* msg = json_string_value(e);
    if (strncmp(msg, prefix, strlen(prefix)) != 0 || !strstr(msg, part)) {
        check_fail(obj, file, line, "expected an error starting \"%s\" and containing \"%s\"", prefix, part);
    }
    if (json_object_size(obj) != 2) {
        check_fail(obj, file, line, "an error answer has only id and error");
    }
}
