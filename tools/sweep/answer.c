/* The answers of the `sweep query` protocol (DESIGN.md §5): a parsed
 * request goes through the library's dispatcher (a pair) or sw_scene_*
 * (a scene) and comes back as one JSON line, or as an error message when
 * it cannot be answered. */
#include "request.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scenes.h"

/* Enough digits that every sw_real reads back to the same value. */
#ifdef SWEEP_DOUBLE
#define REAL_FORMAT "%.17g"
#else
#define REAL_FORMAT "%.9g"
#endif

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

typedef struct parser {
    char* err;
    size_t err_size;
} parser;

PRINTF_LIKE(2, 3) static int fail(parser* p, const char* fmt, ...)
{
    if (p->err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err, p->err_size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- answers ---------------------------------------------------------------- */

static char invalid_check[160];

static void record_invalid_input(const char* what, const char* file, int line)
{
    (void)file;
    (void)line;
    snprintf(invalid_check, sizeof invalid_check, "%s", what);
}

void request_catch_invalid_input(void) { sw_set_assert_handler(record_invalid_input); }

static void print_id(FILE* out, const json_t* id)
{
    fputs("{\"id\":", out);
    if (id) {
        request_print_json(out, id);
    } else {
        fputs("null", out);
    }
}

static void print_real(FILE* out, sw_real v) { fprintf(out, REAL_FORMAT, (double)v); }

static void print_vec3(FILE* out, sw_vec3 v)
{
    putc('[', out);
    print_real(out, v.x);
    putc(',', out);
    print_real(out, v.y);
    putc(',', out);
    print_real(out, v.z);
    putc(']', out);
}

/* Length of the valid UTF-8 sequence at s (2 to 4 bytes), or 0 when s does
 * not start one (overlong forms and surrogates included). */
static size_t utf8_sequence_length(const unsigned char* s)
{
    const unsigned c = s[0];
    if (c < 0xC2 || c > 0xF4) {
        return 0;
    }
    const size_t n = c < 0xE0 ? 2 : (c < 0xF0 ? 3 : 4);
    unsigned long cp = c & (0x7Fu >> n);
    for (size_t i = 1; i < n; ++i) {
        if ((s[i] & 0xC0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return 0;
    }
    return n;
}

/* A JSON string. Messages quote the input, which may be cut or not UTF-8
 * at all (a parse error on a bad byte): invalid bytes become U+FFFD so the
 * answer line is always valid JSON. */
static void print_json_string(FILE* out, const char* s)
{
    const unsigned char* u = (const unsigned char*)s;
    putc('"', out);
    while (*u) {
        const unsigned c = *u;
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc((int)c, out);
            ++u;
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
            ++u;
        } else if (c < 0x80) {
            putc((int)c, out);
            ++u;
        } else {
            const size_t n = utf8_sequence_length(u);
            if (n > 0) {
                fwrite(u, 1, n, out);
                u += n;
            } else {
                fputs("\\ufffd", out);
                ++u;
            }
        }
    }
    putc('"', out);
}

void request_print_error(FILE* out, const json_t* id, long line_no, const char* msg)
{
    char text[640];
    snprintf(text, sizeof text, "line %ld: %s", line_no, msg);
    print_id(out, id);
    fputs(",\"error\":", out);
    print_json_string(out, text);
    fputs("}\n", out);
}

static bool vec3_finite(sw_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static int library_refused(parser* p, sw_status status, const request* req)
{
    const char* a = sw_shape_type_name(req->a.type);
    const char* b = sw_shape_type_name(req->b.type);
    if (status == SW_UNSUPPORTED) {
        switch (req->op) {
        case REQ_SWEEP:
            return fail(p, "sweep of a %s against a %s is not supported", a, b);
        case REQ_RAYCAST:
            return fail(p, "raycast against a %s is not supported", b);
        case REQ_SWEEP_INSIDE:
            return fail(p, "sweep_inside of a %s in a %s is not supported", a, b);
        case REQ_OVERLAP:
            return fail(p, "overlap of a %s and a %s is not supported", a, b);
        case REQ_DISTANCE:
            return fail(p, "distance between a %s and a %s is not supported", a, b);
        default:
            break;
        }
    }
    if (invalid_check[0]) {
        return fail(p, "the library rejected the input as invalid (%s)", invalid_check);
    }
    return fail(p, "the library rejected the input as invalid");
}

/* An answer that is not finite is a library bug; it must not reach the
 * output as "nan", which is not JSON. */
static int non_finite(parser* p)
{
    return fail(p, "internal error: the library returned a non-finite result for this request (a library bug)");
}

static bool hit_finite(const sw_hit* h)
{
    return isfinite(h->t) && isfinite(h->depth) && vec3_finite(h->point) && vec3_finite(h->normal);
}

/* The fields of a hit from "hit" to "feature" (and "triangle" on a mesh),
 * without braces. */
static void print_hit_fields(FILE* out, const sw_hit* h, bool mesh)
{
    fputs(h->overlapping ? "\"hit\":true,\"overlapping\":true,\"t\":" : "\"hit\":true,\"overlapping\":false,\"t\":",
          out);
    print_real(out, h->t);
    fputs(",\"point\":", out);
    print_vec3(out, h->point);
    fputs(",\"normal\":", out);
    print_vec3(out, h->normal);
    fputs(",\"depth\":", out);
    print_real(out, h->depth);
    fprintf(out, ",\"feature\":{\"kind\":\"%s\"", sw_feature_kind_name(h->feature.kind));
    if (h->feature.kind != SW_FEATURE_NONE) {
        fprintf(out, ",\"index\":%d", h->feature.index);
    }
    putc('}', out);
    if (mesh) {
        fprintf(out, ",\"triangle\":%d", h->triangle);
    }
}

static int answer_hit(parser* p, const request* req, sw_hit h, FILE* out)
{
    if (h.status != SW_OK) {
        return library_refused(p, h.status, req);
    }
    if (!h.hit) {
        print_id(out, req->id);
        fputs(",\"hit\":false}\n", out);
        return 0;
    }
    if (!hit_finite(&h)) {
        return non_finite(p);
    }
    print_id(out, req->id);
    putc(',', out);
    print_hit_fields(out, &h, req->b.type == SW_SHAPE_MESH);
    fputs("}\n", out);
    return 0;
}

static int answer_overlap(parser* p, const request* req, sw_overlap_result r, FILE* out)
{
    if (r.status != SW_OK) {
        return library_refused(p, r.status, req);
    }
    if (!r.overlapping) {
        print_id(out, req->id);
        fputs(",\"overlapping\":false}\n", out);
        return 0;
    }
    if (!isfinite(r.depth) || !vec3_finite(r.normal) || !vec3_finite(r.point)) {
        return non_finite(p);
    }
    print_id(out, req->id);
    fputs(",\"overlapping\":true,\"depth\":", out);
    print_real(out, r.depth);
    fputs(",\"normal\":", out);
    print_vec3(out, r.normal);
    fputs(",\"point\":", out);
    print_vec3(out, r.point);
    fputs("}\n", out);
    return 0;
}

static int answer_distance(parser* p, const request* req, sw_distance_result r, FILE* out)
{
    if (r.status != SW_OK) {
        return library_refused(p, r.status, req);
    }
    if (!isfinite(r.distance) || !vec3_finite(r.point_a) || !vec3_finite(r.point_b)) {
        return non_finite(p);
    }
    print_id(out, req->id);
    fputs(",\"distance\":", out);
    print_real(out, r.distance);
    fputs(",\"point_a\":", out);
    print_vec3(out, r.point_a);
    fputs(",\"point_b\":", out);
    print_vec3(out, r.point_b);
    fputs("}\n", out);
    return 0;
}

/* ---- scenes ------------------------------------------------------------------- */

static bool is_zero(sw_vec3 v) { return v.x == 0 && v.y == 0 && v.z == 0; }

/* One hit over a scene: the pair's fields, its key and, when the shape
 * moves (a platform), its velocities. */
static void print_scene_hit(FILE* out, const tool_scene* ts, const sw_scene_hit* h)
{
    const sw_shape* shape = sw_scene_shape(tool_scene_get(ts), h->key);
    print_hit_fields(out, &h->hit, shape && shape->type == SW_SHAPE_MESH);
    fprintf(out, ",\"key\":%" PRId64, h->key);
    if (!is_zero(h->velocity) || !is_zero(h->angular_velocity)) {
        fputs(",\"velocity\":", out);
        print_vec3(out, h->velocity);
        fputs(",\"angular_velocity\":", out);
        print_vec3(out, h->angular_velocity);
        fputs(",\"point_velocity\":", out);
        print_vec3(out, h->point_velocity);
    }
}

static int print_scene_answer(parser* p, const request* req, const tool_scene* ts, const scene_result* r, FILE* out)
{
    /* Check everything first: a line is printed whole or not at all. */
    for (int i = 0; i < r->count; ++i) {
        if (req->op == REQ_OVERLAP) {
            const sw_overlap_result* o = &r->overlaps[i].overlap;
            if (!isfinite(o->depth) || !vec3_finite(o->normal) || !vec3_finite(o->point)) {
                return non_finite(p);
            }
        } else if (req->op == REQ_DISTANCE) {
            const sw_distance_result* d = &r->closest.distance;
            if (!isfinite(d->distance) || !vec3_finite(d->point_a) || !vec3_finite(d->point_b)) {
                return non_finite(p);
            }
        } else {
            const sw_scene_hit* h = &r->hits[i];
            if (!hit_finite(&h->hit) || !vec3_finite(h->velocity) || !vec3_finite(h->angular_velocity) ||
                !vec3_finite(h->point_velocity)) {
                return non_finite(p);
            }
        }
    }
    print_id(out, req->id);
    switch (req->op) {
    case REQ_OVERLAP:
        fputs(",\"overlaps\":[", out);
        for (int i = 0; i < r->count; ++i) {
            const sw_scene_overlap* o = &r->overlaps[i];
            fprintf(out, "%s{\"key\":%" PRId64 ",\"depth\":", i > 0 ? "," : "", o->key);
            print_real(out, o->overlap.depth);
            fputs(",\"normal\":", out);
            print_vec3(out, o->overlap.normal);
            fputs(",\"point\":", out);
            print_vec3(out, o->overlap.point);
            putc('}', out);
        }
        fputs("]}\n", out);
        return 0;
    case REQ_DISTANCE:
        if (r->count == 0) {
            fputs(",\"distance\":null}\n", out);
            return 0;
        }
        fputs(",\"distance\":", out);
        print_real(out, r->closest.distance.distance);
        fputs(",\"point_a\":", out);
        print_vec3(out, r->closest.distance.point_a);
        fputs(",\"point_b\":", out);
        print_vec3(out, r->closest.distance.point_b);
        fprintf(out, ",\"key\":%" PRId64 "}\n", r->closest.key);
        return 0;
    default:
        break;
    }
    if (req->hits == SW_HITS_ALL) {
        fputs(",\"hits\":[", out);
        for (int i = 0; i < r->count; ++i) {
            fputs(i > 0 ? ",{" : "{", out);
            print_scene_hit(out, ts, &r->hits[i]);
            putc('}', out);
        }
        fputs("]}\n", out);
    } else if (r->count == 0) {
        fputs(",\"hit\":false}\n", out);
    } else {
        putc(',', out);
        print_scene_hit(out, ts, &r->hits[0]);
        fputs("}\n", out);
    }
    return 0;
}

static int answer_over_scene(parser* p, const request* req, scene_store* scenes, FILE* out)
{
    tool_scene* ts = tool_scene_open(scenes, req, p->err, p->err_size);
    if (!ts) {
        return -1;
    }
    scene_result r;
    const int status = tool_scene_query(ts, req, &r);
    int rc;
    if (status == SCENE_QUERY_NO_MEMORY) {
        rc = fail(p, "out of memory answering the query");
    } else if (status != 0) {
        rc = invalid_check[0] ? fail(p, "the library rejected the input as invalid (%s)", invalid_check)
                              : fail(p, "the library rejected the input as invalid");
    } else {
        rc = print_scene_answer(p, req, ts, &r, out);
    }
    scene_result_free(&r);
    tool_scene_close(ts);
    return rc;
}

static int answer_scene_change(parser* p, request* req, scene_store* scenes, FILE* out)
{
    int count = 0;
    if (!scenes) {
        return fail(p, "this program keeps no scenes");
    }
    if (scenes_apply(scenes, req, &count, p->err, p->err_size) != 0) {
        return -1;
    }
    print_id(out, req->id);
    fputs(",\"scene\":", out);
    print_json_string(out, req->scene_name);
    fprintf(out, ",\"count\":%d}\n", count);
    return 0;
}

int request_answer(request* req, scene_store* scenes, FILE* out, char* err, size_t err_size)
{
    parser p = {err, err_size};
    invalid_check[0] = '\0';
    if (req_op_is_scene_change(req->op)) {
        return answer_scene_change(&p, req, scenes, out);
    }
    if (req->over_scene) {
        return answer_over_scene(&p, req, scenes, out);
    }
    switch (req->op) {
    case REQ_SWEEP:
        return answer_hit(&p, req, sw_sweep(&req->a, req->d, &req->b, &req->opt), out);
    case REQ_RAYCAST:
        return answer_hit(&p, req, sw_raycast(&req->ray, &req->b), out);
    case REQ_SWEEP_INSIDE:
        return answer_hit(&p, req, sw_sweep_inside(&req->a, req->d, &req->b), out);
    case REQ_OVERLAP:
        return answer_overlap(&p, req, sw_overlap(&req->a, &req->b), out);
    case REQ_DISTANCE:
        return answer_distance(&p, req, sw_distance(&req->a, &req->b), out);
    default:
        break;
    }
    return fail(&p, "unknown op");
}
