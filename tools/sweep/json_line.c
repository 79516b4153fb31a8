/* Reading a request line with jansson, numbers of any size included
 * (request.h): jansson keeps integers in a json_int_t (int64) and refuses
 * a longer one, but a mask goes to 2^64 - 1; and it refuses a real that
 * overflows a double, which must be answered as a bad number in its field,
 * with the line's id, not as a line that is not JSON. Such a number is
 * rewritten as a string of a NUL byte and its text, which jansson reads
 * (with JSON_ALLOW_NUL) and the request's readers recognise; no input
 * string can look like one, since a line holding "\u0000" is never
 * rewritten and jansson refuses NUL otherwise. */
#include "request.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Every rewritten integer grows by the quotes and the escape: "\u0000...". */
enum { MARK_GROWTH = 8 };

/* Whether the integer token s[0..n) (an optional '-', then digits with no
 * leading zero) lies outside json_int_t, which jansson refuses. */
static bool beyond_int64(const char* s, size_t n)
{
    const bool negative = s[0] == '-';
    const char* d = s + negative;
    const size_t digits = n - negative;
    const char* limit = negative ? "9223372036854775808" : "9223372036854775807";
    if (digits != 19) {
        return digits > 19;
    }
    return memcmp(d, limit, 19) > 0;
}

/* Whether the real token s[0..n) overflows a double (jansson's "real
 * number overflow"). */
static bool overflows_double(const char* s, size_t n)
{
    char buf[512];
    if (n >= sizeof buf) {
        return true; /* a longer token is refused by jansson too: keep its text */
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    return isinf(strtod(buf, NULL));
}

/* The end of the fraction and exponent of a number token from s[i], or i. */
static size_t real_end(const char* s, size_t len, size_t i)
{
    size_t e = i;
    if (e < len && s[e] == '.') {
        ++e;
        while (e < len && s[e] >= '0' && s[e] <= '9') {
            ++e;
        }
    }
    if (e < len && (s[e] == 'e' || s[e] == 'E')) {
        ++e;
        if (e < len && (s[e] == '+' || s[e] == '-')) {
            ++e;
        }
        while (e < len && s[e] >= '0' && s[e] <= '9') {
            ++e;
        }
    }
    return e;
}

/* Copies line into a new buffer with each integer beyond int64, and each
 * real beyond double, turned into a marker string; *marks receives the markers' offsets in the copy (for
 * error columns). NULL when there is nothing to rewrite, the line holds a
 * "\u0000" of its own, or memory runs out. */
static char* rewrite(const char* line, size_t len, size_t* out_len, size_t** marks, size_t* mark_count)
{
    size_t cap = len + 1, n = 0, count = 0, marks_cap = 0;
    char* out = malloc(cap);
    *marks = NULL;
    if (!out) {
        return NULL;
    }
    bool in_string = false;
    for (size_t i = 0; i < len;) {
        const char c = line[i];
        if (in_string) {
            if (c == '\\' && i + 1 < len) {
                if (len - i >= 6 && memcmp(line + i, "\\u0000", 6) == 0) {
                    goto give_up; /* it could pass for a marker */
                }
                out[n++] = c;
                out[n++] = line[i + 1];
                i += 2;
                continue;
            }
            in_string = c != '"';
            out[n++] = c;
            ++i;
            continue;
        }
        if (c == '"') {
            in_string = true;
            out[n++] = c;
            ++i;
            continue;
        }
        /* A number token: a digit or '-' after something that is not part
         * of a token (a letter would make it part of a bad literal). */
        const bool starts_number = (c == '-' || (c >= '0' && c <= '9')) &&
                                   (i == 0 || (line[i - 1] != '\0' && strchr(" \t\r\n,:[{", line[i - 1]) != NULL));
        if (starts_number) {
            size_t end = i + (c == '-');
            while (end < len && line[end] >= '0' && line[end] <= '9') {
                ++end;
            }
            const size_t digits = end - i - (c == '-');
            const bool integer =
                digits > 0 && line[i + (c == '-')] != '0' && (end == len || strchr(".eE", line[end]) == NULL);
            bool mark = integer && beyond_int64(line + i, end - i);
            if (!integer && digits > 0 && end < len && strchr(".eE", line[end]) != NULL) {
                const size_t e = real_end(line, len, end);
                if (overflows_double(line + i, e - i)) {
                    end = e;
                    mark = true;
                }
            }
            if (mark) {
                if (n + (end - i) + MARK_GROWTH + (len - end) + 1 > cap) {
                    cap = 2 * cap + (end - i) + MARK_GROWTH;
                    char* grown = realloc(out, cap);
                    if (!grown) {
                        goto give_up;
                    }
                    out = grown;
                }
                if (count == marks_cap) {
                    marks_cap = marks_cap ? 2 * marks_cap : 8;
                    size_t* grown = realloc(*marks, marks_cap * sizeof **marks);
                    if (!grown) {
                        goto give_up;
                    }
                    *marks = grown;
                }
                (*marks)[count++] = n;
                memcpy(out + n, "\"\\u0000", 7);
                n += 7;
                memcpy(out + n, line + i, end - i);
                n += end - i;
                out[n++] = '"';
                i = end;
                continue;
            }
            memcpy(out + n, line + i, end - i);
            n += end - i;
            i = end;
            continue;
        }
        out[n++] = c;
        ++i;
    }
    if (count == 0) {
        goto give_up;
    }
    out[n] = '\0';
    *out_len = n;
    *mark_count = count;
    return out;
give_up:
    free(out);
    free(*marks);
    *marks = NULL;
    return NULL;
}

json_t* request_json_load(const char* line, size_t len, json_error_t* err)
{
    /* DECODE_ANY so that a scalar line gets our message rather than the
     * parser's; duplicate keys would make the request ambiguous. */
    const size_t flags = JSON_REJECT_DUPLICATES | JSON_DECODE_ANY;
    json_t* root = json_loadb(line, len, flags, err);
    if (root || (strncmp(err->text, "too big", 7) != 0 && strncmp(err->text, "real number overflow", 20) != 0)) {
        return root;
    }
    size_t text_len = 0, count = 0;
    size_t* marks = NULL;
    char* text = rewrite(line, len, &text_len, &marks, &count);
    if (!text) {
        return NULL; /* err still describes the line */
    }
    json_error_t again;
    root = json_loadb(text, text_len, flags | JSON_ALLOW_NUL, &again);
    if (!root) {
        /* Columns of the line as written. */
        size_t before = 0;
        while (before < count && (int)marks[before] < again.position) {
            ++before;
        }
        *err = again;
        err->position -= (int)(before * MARK_GROWTH);
        err->column -= (int)(before * MARK_GROWTH);
    }
    free(text);
    free(marks);
    return root;
}

const char* request_json_big_integer(const json_t* v)
{
    if (!json_is_string(v)) {
        return NULL;
    }
    const char* s = json_string_value(v);
    const size_t n = json_string_length(v);
    if (n < 2 || s[0] != '\0') {
        return NULL;
    }
    /* A marker holds a number token: [-]digits[.digits][e[+-]digits]. */
    const char* d = s + 1 + (s[1] == '-');
    const char* c = d;
    while (c < s + n && *c >= '0' && *c <= '9') {
        ++c;
    }
    if (c == d) {
        return NULL;
    }
    const size_t e = real_end(s, n, (size_t)(c - s));
    return e == n ? s + 1 : NULL;
}

/* Whether v holds a big integer anywhere. */
static bool has_big_integer(const json_t* v)
{
    if (request_json_big_integer(v)) {
        return true;
    }
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); ++i) {
            if (has_big_integer(json_array_get(v, i))) {
                return true;
            }
        }
    } else if (json_is_object(v)) {
        const char* key;
        json_t* value;
        json_object_foreach((json_t*)v, key, value)
        {
            if (has_big_integer(value)) {
                return true;
            }
        }
    }
    return false;
}

void request_print_json(FILE* out, const json_t* v)
{
    if (!has_big_integer(v)) {
        json_dumpf(v, out, JSON_ENCODE_ANY | JSON_COMPACT);
        return;
    }
    char* text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    if (!text) {
        fputs("null", out);
        return;
    }
    /* Only markers hold NUL, so "\u0000 opens one: print its digits bare. */
    for (const char* s = text; *s;) {
        if (strncmp(s, "\"\\u0000", 7) == 0) {
            const char* d = s + 7;
            const char* end = strchr(d, '"');
            if (end) {
                fwrite(d, 1, (size_t)(end - d), out);
                s = end + 1;
                continue;
            }
        }
        putc(*s++, out);
    }
    free(text);
}
