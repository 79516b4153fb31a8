/* Parsing scene requests (scene_create, scene_add, scene_remove,
 * scene_move) and queries over a scene (DESIGN.md §5). Shapes are parsed
 * by request.c's rq_parse_shape; here are the scene's own fields: keys
 * (int64), categories and masks (uint64, up to 2^64 - 1: integers beyond
 * int64 arrive through request_json_load's markers), hit modes, and the
 * rule that planes stay out of scenes. */
#include "request_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MASK_RANGE "an integer from 0 to 18446744073709551615"

/* A key: any JSON integer that fits int64. */
static int get_key(parser* p, const json_t* v, const char* path, int64_t* out)
{
    const char* big = request_json_big_integer(v);
    if (big) {
        return rq_fail(p, "%s = %s is beyond the 64-bit keys (-9223372036854775808 to 9223372036854775807)", path,
                       rq_clip(big).s);
    }
    if (!json_is_integer(v)) {
        return rq_fail(p, "%s must be an integer key (got %s)", path,
                       json_is_number(v) ? rq_number_text(json_number_value(v)).s : rq_json_kind(v));
    }
    *out = (int64_t)json_integer_value(v);
    return 0;
}

/* A category or mask: a JSON integer from 0 to 2^64 - 1. */
static int get_bits(parser* p, const json_t* v, const char* path, uint64_t* out)
{
    const char* big = request_json_big_integer(v);
    if (big) {
        if (big[0] != '-') {
            errno = 0;
            char* end;
            const unsigned long long x = strtoull(big, &end, 10);
            if (errno == 0 && *end == '\0' && x <= UINT64_MAX) {
                *out = (uint64_t)x;
                return 0;
            }
        }
        return rq_fail(p, "%s = %s is out of range (a 64-bit mask is " MASK_RANGE ")", path, rq_clip(big).s);
    }
    if (!json_is_integer(v)) {
        return rq_fail(p, "%s must be " MASK_RANGE " (got %s)", path,
                       json_is_number(v) ? rq_number_text(json_number_value(v)).s : rq_json_kind(v));
    }
    const json_int_t x = json_integer_value(v);
    if (x < 0) {
        return rq_fail(p, "%s = %lld is out of range (a 64-bit mask is " MASK_RANGE ")", path, (long long)x);
    }
    *out = (uint64_t)x;
    return 0;
}

/* The scene's name: a non-empty string (a big integer is a number here). */
static int get_name(parser* p, const json_t* v, char** out)
{
    if (!json_is_string(v) || request_json_big_integer(v)) {
        return rq_fail(p, "scene must be a scene name (got %s)", rq_json_kind(v));
    }
    const size_t n = json_string_length(v);
    if (n == 0) {
        return rq_fail(p, "scene must be a non-empty name");
    }
    *out = malloc(n + 1);
    if (!*out) {
        return rq_fail(p, "out of memory reading scene");
    }
    memcpy(*out, json_string_value(v), n + 1);
    return 0;
}

/* ---- shapes ----------------------------------------------------------------- */

static const char* const add_extra[] = {"key", "category", "mask", NULL};
static const char* const move_extra[] = {"category", "mask", NULL};

/* One scene shape at path `where`; `extra` is add_extra or move_extra. */
static int parse_scene_shape(parser* p, const json_t* v, const char* where, const char* const* extra, req_shape* out)
{
    const char* type = json_is_object(v) ? json_string_value(json_object_get(v, "type")) : NULL;
    if (type && strcmp(type, "plane") == 0) {
        return rq_fail(p,
                       "a plane cannot be in a scene (%s): a half-space has no bounds; use a large box or a mesh "
                       "for the ground",
                       where);
    }
    sw_vec3 vertices[SW_MAX_POLYGON_VERTICES];
    if (rq_parse_shape(p, v, where, SHAPE_STATIC, extra, &out->shape, vertices, &out->hull, &out->mesh) != 0) {
        return -1;
    }
    if (out->shape.type == SW_SHAPE_POLYGON) {
        /* The scene keeps the shape after this line: its own copy. */
        const size_t n = (size_t)out->shape.polygon.count;
        out->vertices = malloc(n * sizeof *out->vertices);
        if (!out->vertices) {
            return rq_fail(p, "out of memory reading %s", where);
        }
        memcpy(out->vertices, vertices, n * sizeof *vertices);
        out->shape.polygon.v = out->vertices;
    }
    char path[64];
    const json_t* key = json_object_get(v, "key");
    if (key) {
        snprintf(path, sizeof path, "%s.key", where);
        if (get_key(p, key, path, &out->key) != 0) {
            return -1;
        }
        out->has_key = true;
    }
    out->category = out->mask = UINT64_MAX;
    const json_t* category = json_object_get(v, "category");
    if (category) {
        snprintf(path, sizeof path, "%s.category", where);
        if (get_bits(p, category, path, &out->category) != 0) {
            return -1;
        }
        out->has_category = true;
    }
    const json_t* mask = json_object_get(v, "mask");
    if (mask) {
        snprintf(path, sizeof path, "%s.mask", where);
        if (get_bits(p, mask, path, &out->mask) != 0) {
            return -1;
        }
        out->has_mask = true;
    }
    return 0;
}

/* The shape list `name` ("shapes", or "scene" for an inline scene). The
 * array is allocated first, so request_free frees whatever a failure left
 * behind. */
static int parse_shape_list(parser* p, const json_t* list, const char* name, request* req)
{
    if (!json_is_array(list)) {
        return rq_fail(p, "%s must be an array of shapes (got %s)", name, rq_json_kind(list));
    }
    const size_t n = json_array_size(list);
    if (n > INT_MAX / 2) {
        return rq_fail(p, "%s has too many shapes (%zu)", name, n);
    }
    req->shapes = calloc(n > 0 ? n : 1, sizeof *req->shapes);
    if (!req->shapes) {
        return rq_fail(p, "out of memory reading %s", name);
    }
    req->shape_count = (int)n;
    for (size_t i = 0; i < n; ++i) {
        char where[48];
        snprintf(where, sizeof where, "%s[%zu]", name, i);
        if (parse_scene_shape(p, json_array_get(list, i), where, add_extra, &req->shapes[i]) != 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- scene requests --------------------------------------------------------- */

static const char* const shapes_fields[] = {"op", "scene", "shapes", NULL};
static const char* const remove_fields[] = {"op", "scene", "keys", NULL};
static const char* const move_fields[] = {"op", "scene", "key", "shape", NULL};
static const char* const move_optional[] = {"id", "velocity", "angular_velocity", NULL};
static const char* const id_only[] = {"id", NULL};

static int parse_keys(parser* p, const json_t* list, request* req)
{
    if (!json_is_array(list)) {
        return rq_fail(p, "keys must be an array of integer keys (got %s)", rq_json_kind(list));
    }
    const size_t n = json_array_size(list);
    if (n > INT_MAX / 2) {
        return rq_fail(p, "keys has too many keys (%zu)", n);
    }
    req->keys = malloc((n > 0 ? n : 1) * sizeof *req->keys);
    if (!req->keys) {
        return rq_fail(p, "out of memory reading keys");
    }
    req->key_count = (int)n;
    for (size_t i = 0; i < n; ++i) {
        char path[32];
        snprintf(path, sizeof path, "keys[%zu]", i);
        if (get_key(p, json_array_get(list, i), path, &req->keys[i]) != 0) {
            return -1;
        }
    }
    return 0;
}

static int parse_move(parser* p, const json_t* root, request* req)
{
    const json_t* shape = json_object_get(root, "shape");
    if (json_is_object(shape) && json_object_get(shape, "key")) {
        return rq_fail(p, "shape.key: scene_move names the shape by the request's \"key\" and keeps it");
    }
    if (get_key(p, json_object_get(root, "key"), "key", &req->key) != 0) {
        return -1;
    }
    req->shapes = calloc(1, sizeof *req->shapes);
    if (!req->shapes) {
        return rq_fail(p, "out of memory reading shape");
    }
    req->shape_count = 1;
    if (parse_scene_shape(p, shape, "shape", move_extra, &req->shapes[0]) != 0) {
        return -1;
    }
    const json_t* v = json_object_get(root, "velocity");
    const json_t* w = json_object_get(root, "angular_velocity");
    return (v && rq_get_vec3(p, v, "velocity", &req->velocity) != 0) ||
                   (w && rq_get_vec3(p, w, "angular_velocity", &req->angular_velocity) != 0)
               ? -1
               : 0;
}

int rq_parse_scene_change(parser* p, const json_t* root, request* req)
{
    field_set set = {NULL, shapes_fields, id_only};
    switch (req->op) {
    case REQ_SCENE_CREATE:
        set.what = "a scene_create request";
        break;
    case REQ_SCENE_ADD:
        set.what = "a scene_add request";
        break;
    case REQ_SCENE_REMOVE:
        set = (field_set){"a scene_remove request", remove_fields, id_only};
        break;
    default:
        set = (field_set){"a scene_move request", move_fields, move_optional};
        break;
    }
    if (rq_check_fields(p, root, &set, NULL) != 0 || get_name(p, json_object_get(root, "scene"), &req->scene_name)) {
        return -1;
    }
    switch (req->op) {
    case REQ_SCENE_CREATE:
    case REQ_SCENE_ADD:
        return parse_shape_list(p, json_object_get(root, "shapes"), "shapes", req);
    case REQ_SCENE_REMOVE:
        return parse_keys(p, json_object_get(root, "keys"), req);
    default:
        return parse_move(p, root, req);
    }
}

/* ---- queries over a scene ------------------------------------------------------- */

static const char* const sweep_fields[] = {"op", "a", "d", "scene", NULL};
static const char* const sweep_optional[] = {"id", "skin", "ignore_separating", "hits", "mask", NULL};
static const char* const raycast_fields[] = {"op", "origin", "dir", "scene", NULL};
static const char* const raycast_optional[] = {"id", "max", "hits", "mask", NULL};
static const char* const shape_fields[] = {"op", "a", "scene", NULL};
static const char* const overlap_optional[] = {"id", "mask", NULL};
static const char* const distance_optional[] = {"id", "mask", "max", NULL};

static int parse_hits(parser* p, const json_t* v, sw_hits_mode* out)
{
    static const char* const names[] = {"closest", "any", "all"};
    static const sw_hits_mode modes[] = {SW_HITS_CLOSEST, SW_HITS_ANY, SW_HITS_ALL};
    const char* s = json_is_string(v) && !request_json_big_integer(v) ? json_string_value(v) : NULL;
    for (int i = 0; s && i < 3; ++i) {
        if (strcmp(s, names[i]) == 0) {
            *out = modes[i];
            return 0;
        }
    }
    if (s) {
        return rq_fail(p, "hits must be \"closest\", \"any\" or \"all\" (got \"%s\")", rq_clip(s).s);
    }
    return rq_fail(p, "hits must be \"closest\", \"any\" or \"all\" (got %s)", rq_json_kind(v));
}

int rq_parse_scene_query(parser* p, const json_t* root, request* req)
{
    if (json_object_get(root, "b")) {
        return rq_fail(p, "a query takes either b or scene, not both");
    }
    field_set set;
    switch (req->op) {
    case REQ_SWEEP:
        set = (field_set){"a sweep over a scene", sweep_fields, sweep_optional};
        break;
    case REQ_RAYCAST:
        set = (field_set){"a raycast over a scene", raycast_fields, raycast_optional};
        break;
    case REQ_OVERLAP:
        set = (field_set){"an overlap over a scene", shape_fields, overlap_optional};
        break;
    case REQ_DISTANCE:
        set = (field_set){"a distance over a scene", shape_fields, distance_optional};
        break;
    default:
        return rq_fail(p, "sweep_inside is not answered over a scene (give b, the container)");
    }
    if (rq_check_fields(p, root, &set, NULL) != 0) {
        return -1;
    }
    req->over_scene = true;
    const json_t* scene = json_object_get(root, "scene");
    if (json_is_array(scene)) {
        if (parse_shape_list(p, scene, "scene", req) != 0) {
            return -1;
        }
    } else if (!json_is_string(scene) || request_json_big_integer(scene)) {
        return rq_fail(p, "scene must be a scene name or an array of shapes (got %s)", rq_json_kind(scene));
    } else if (get_name(p, scene, &req->scene_name) != 0) {
        return -1;
    }
    const json_t* hits = json_object_get(root, "hits");
    const json_t* mask = json_object_get(root, "mask");
    if ((hits && parse_hits(p, hits, &req->hits) != 0) || (mask && get_bits(p, mask, "mask", &req->mask) != 0)) {
        return -1;
    }
    const json_t* a = json_object_get(root, "a");
    switch (req->op) {
    case REQ_SWEEP:
        return rq_parse_shape(p, a, "a", SHAPE_MOVING, NULL, &req->a, req->a_vertices, &req->a_hull, &req->a_mesh) ||
                       rq_get_vec3(p, json_object_get(root, "d"), "d", &req->d) || rq_parse_options(p, root, &req->opt)
                   ? -1
                   : 0;
    case REQ_RAYCAST:
        return rq_parse_raycast(p, root, &req->ray);
    case REQ_OVERLAP:
        return rq_parse_shape(p, a, "a", SHAPE_QUERY, NULL, &req->a, req->a_vertices, &req->a_hull, &req->a_mesh);
    default: {
        if (rq_parse_shape(p, a, "a", SHAPE_QUERY, NULL, &req->a, req->a_vertices, &req->a_hull, &req->a_mesh) != 0) {
            return -1;
        }
        const json_t* max = json_object_get(root, "max");
        if (max) {
            if (rq_get_real(p, max, "max", &req->max_distance) != 0) {
                return -1;
            }
            if (!(req->max_distance >= 0)) {
                return rq_fail(p, "max must be >= 0 (got %s)", rq_number_text((double)req->max_distance).s);
            }
        }
        return 0;
    }
    }
}
