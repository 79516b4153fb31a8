/* One line of the `sweep query` protocol (DESIGN.md §5): JSON in, a request
 * out (answer.c writes the answer).
 *
 * JSON structure problems (a missing or unknown field, a wrong type, a
 * vector of the wrong length, a number sw_real cannot hold) are reported
 * here with the field's path; whether a well-formed shape is valid
 * (negative radius, zero quaternion) is decided by the library's own
 * predicates, so the program and the library cannot disagree. */
#include "request_internal.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The largest finite sw_real. */
#ifdef SWEEP_DOUBLE
#define REAL_LARGEST DBL_MAX
#else
#define REAL_LARGEST FLT_MAX
#endif

/* ---- error messages ------------------------------------------------------- */

int rq_fail(parser* p, const char* fmt, ...)
{
    if (p->err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err, p->err_size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

clipped rq_clip(const char* s)
{
    clipped c;
    size_t n = strlen(s);
    if (n <= CLIP_BYTES) {
        memcpy(c.s, s, n + 1);
        return c;
    }
    n = CLIP_BYTES;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) {
        --n;
    }
    memcpy(c.s, s, n);
    memcpy(c.s + n, "...", 4);
    return c;
}

const char* rq_json_kind(const json_t* v)
{
    if (request_json_big_integer(v)) {
        return "a number";
    }
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        break;
    }
    return "null";
}

number_text rq_number_text(double x)
{
    number_text t;
    for (int digits = 6; digits <= 17; ++digits) {
        snprintf(t.s, sizeof t.s, "%.*g", digits, x);
        if (strtod(t.s, NULL) == x) {
            break;
        }
    }
    return t;
}

/* ---- fields ---------------------------------------------------------------- */

static bool in_list(const char* const* list, const char* key)
{
    for (; list && *list; ++list) {
        if (strcmp(*list, key) == 0) {
            return true;
        }
    }
    return false;
}

/* Appends to the string in buf[size], truncating at the end of buf. */
static void append(char* buf, size_t size, const char* a, const char* b)
{
    const size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s", a, b);
}

/* "type, center, half, optional rotation" */
static void describe_fields(const field_set* set, char* buf, size_t size)
{
    buf[0] = '\0';
    for (const char* const* f = set->required; *f; ++f) {
        append(buf, size, f == set->required ? "" : ", ", *f);
    }
    for (const char* const* f = set->optional; f && *f; ++f) {
        append(buf, size, f == set->optional ? ", optional " : ", ", *f);
    }
}

int rq_check_fields(parser* p, const json_t* obj, const field_set* set, const char* where)
{
    char list[200];
    const char* key;
    json_t* value;
    json_object_foreach((json_t*)obj, key, value)
    {
        if (!in_list(set->required, key) && !in_list(set->optional, key)) {
            describe_fields(set, list, sizeof list);
            if (where) {
                return rq_fail(p, "unknown field \"%s\" in %s (%s has %s)", rq_clip(key).s, where, set->what, list);
            }
            return rq_fail(p, "unknown field \"%s\" (%s has %s)", rq_clip(key).s, set->what, list);
        }
    }
    for (const char* const* f = set->required; *f; ++f) {
        if (!json_object_get(obj, *f)) {
            describe_fields(set, list, sizeof list);
            if (where) {
                return rq_fail(p, "missing field \"%s\" in %s (%s has %s)", *f, where, set->what, list);
            }
            return rq_fail(p, "missing field \"%s\" (%s has %s)", *f, set->what, list);
        }
    }
    return 0;
}

/* A JSON number as sw_real: rejected when sw_real cannot hold it or it lies
 * beyond SW_MAX_COORD (the library's limit for every input number). The
 * range is checked on the double before the conversion, which is undefined
 * for a value out of the float range. An integer beyond int64 (see
 * request_json_load) is read from its digits, correctly rounded. */
static int to_real(parser* p, const json_t* v, const char* path, sw_real* out)
{
    const char* digits = request_json_big_integer(v);
    const double x = digits ? strtod(digits, NULL) : json_number_value(v);
    if (digits && !isfinite(x)) {
        return rq_fail(p, "%s = %s overflows %s", path, rq_clip(digits).s, SW_PRECISION_NAME);
    }
    if (!isfinite(x)) {
        return rq_fail(p, "%s must be finite", path);
    }
    if (fabs(x) > REAL_LARGEST) {
        return rq_fail(p, "%s = %s overflows %s", path, rq_number_text(x).s, SW_PRECISION_NAME);
    }
    const sw_real r = (sw_real)x;
    if (!sw_is_valid_real(r)) {
        return rq_fail(p, "%s = %s is beyond the coordinate limit %g", path, rq_number_text(x).s, (double)SW_MAX_COORD);
    }
    *out = r;
    return 0;
}

static bool is_number(const json_t* v) { return json_is_number(v) || request_json_big_integer(v); }

int rq_get_real(parser* p, const json_t* v, const char* path, sw_real* out)
{
    if (!is_number(v)) {
        return rq_fail(p, "%s must be a number (got %s)", path, rq_json_kind(v));
    }
    return to_real(p, v, path, out);
}

/* An array of exactly n numbers; `desc` says what was expected. */
static int get_numbers(parser* p, const json_t* v, const char* path, size_t n, const char* desc, sw_real* out)
{
    if (!json_is_array(v)) {
        return rq_fail(p, "%s must be %s (got %s)", path, desc, rq_json_kind(v));
    }
    const size_t size = json_array_size(v);
    if (size != n) {
        return rq_fail(p, "%s must be %s (got %zu element%s)", path, desc, size, size == 1 ? "" : "s");
    }
    for (size_t i = 0; i < n; ++i) {
        const json_t* e = json_array_get(v, i);
        if (!is_number(e)) {
            return rq_fail(p, "%s must be %s (%s[%zu] is %s)", path, desc, path, i, rq_json_kind(e));
        }
        char elem_path[64];
        snprintf(elem_path, sizeof elem_path, "%s[%zu]", path, i);
        if (to_real(p, e, elem_path, &out[i]) != 0) {
            return -1;
        }
    }
    return 0;
}

int rq_get_vec3(parser* p, const json_t* v, const char* path, sw_vec3* out)
{
    sw_real c[3];
    if (get_numbers(p, v, path, 3, "an array of 3 numbers", c) != 0) {
        return -1;
    }
    *out = sw_v3(c[0], c[1], c[2]);
    return 0;
}

/* ---- shapes ----------------------------------------------------------------- */

static const char* const point_fields[] = {"type", "p", NULL};
static const char* const sphere_fields[] = {"type", "center", "radius", NULL};
static const char* const segment_fields[] = {"type", "a", "b", NULL};
static const char* const capsule_fields[] = {"type", "a", "b", "radius", NULL};
static const char* const box_fields[] = {"type", "center", "half", NULL};
static const char* const box_optional[] = {"rotation", NULL};
static const char* const plane_fields[] = {"type", "normal", "offset", NULL};
static const char* const flat_fields[] = {"type", "v", NULL};
static const char* const flat_optional[] = {"one_sided", NULL};
static const char* const hull_fields[] = {"type", "points", NULL};
static const char* const hull_optional[] = {"position", "rotation", NULL};
/* Every field but type is optional here: either obj, or v and tri, is
 * required, which shape_mesh checks with its own message. */
static const char* const mesh_fields[] = {"type", NULL};
static const char* const mesh_optional[] = {"v", "tri", "obj", "one_sided", "position", "rotation", NULL};

typedef struct shape_spec {
    const char* name;
    sw_shape_type type;
    field_set fields;
} shape_spec;

static const shape_spec shape_specs[] = {
    {"point", SW_SHAPE_POINT, {"a point", point_fields, NULL}},
    {"sphere", SW_SHAPE_SPHERE, {"a sphere", sphere_fields, NULL}},
    {"segment", SW_SHAPE_SEGMENT, {"a segment", segment_fields, NULL}},
    {"capsule", SW_SHAPE_CAPSULE, {"a capsule", capsule_fields, NULL}},
    {"box", SW_SHAPE_BOX, {"a box", box_fields, box_optional}},
    {"plane", SW_SHAPE_PLANE, {"a plane", plane_fields, NULL}},
    {"triangle", SW_SHAPE_TRIANGLE, {"a triangle", flat_fields, flat_optional}},
    {"polygon", SW_SHAPE_POLYGON, {"a polygon", flat_fields, flat_optional}},
    {"hull", SW_SHAPE_HULL, {"a hull", hull_fields, hull_optional}},
    {"mesh", SW_SHAPE_MESH, {"a mesh", mesh_fields, mesh_optional}},
};
#define SHAPE_TYPE_LIST "point, sphere, segment, capsule, box, plane, triangle, polygon, hull or mesh"

/* Reads field `key` of shape object `obj` at path where.key. */
static int shape_vec3(parser* p, const json_t* obj, const char* where, const char* key, sw_vec3* out)
{
    char path[32];
    snprintf(path, sizeof path, "%s.%s", where, key);
    return rq_get_vec3(p, json_object_get(obj, key), path, out);
}

static int shape_real(parser* p, const json_t* obj, const char* where, const char* key, sw_real* out)
{
    char path[32];
    snprintf(path, sizeof path, "%s.%s", where, key);
    return rq_get_real(p, json_object_get(obj, key), path, out);
}

/* The optional one_sided flag of a triangle or polygon. */
static int shape_one_sided(parser* p, const json_t* obj, const char* where, bool* out)
{
    const json_t* v = json_object_get(obj, "one_sided");
    if (v && !json_is_boolean(v)) {
        return rq_fail(p, "%s.one_sided must be true or false (got %s)", where, rq_json_kind(v));
    }
    *out = v && json_is_true(v);
    return 0;
}

/* The point list where.key: from min to max points, each [x, y, z]. */
static int shape_points(parser* p, const json_t* obj, const char* where, const char* key, size_t min, size_t max,
                        sw_vec3* out, int* count)
{
    char path[32], desc[64];
    snprintf(path, sizeof path, "%s.%s", where, key);
    if (min == max) {
        snprintf(desc, sizeof desc, "an array of %zu points [x, y, z]", min);
    } else {
        snprintf(desc, sizeof desc, "an array of %zu to %zu points [x, y, z]", min, max);
    }
    const json_t* v = json_object_get(obj, key);
    if (!json_is_array(v)) {
        return rq_fail(p, "%s must be %s (got %s)", path, desc, rq_json_kind(v));
    }
    const size_t n = json_array_size(v);
    if (n < min || n > max) {
        return rq_fail(p, "%s must be %s (got %zu point%s)", path, desc, n, n == 1 ? "" : "s");
    }
    for (size_t i = 0; i < n; ++i) {
        char elem_path[64];
        snprintf(elem_path, sizeof elem_path, "%s[%zu]", path, i);
        if (rq_get_vec3(p, json_array_get(v, i), elem_path, &out[i]) != 0) {
            return -1;
        }
    }
    *count = (int)n;
    return 0;
}

/* The optional rotation where.rotation [x, y, z, w] of a box or hull
 * (identity when absent). */
static int shape_rotation(parser* p, const json_t* obj, const char* where, sw_quat* out)
{
    *out = sw_quat_identity();
    const json_t* rot = json_object_get(obj, "rotation");
    if (!rot) {
        return 0;
    }
    char path[32];
    sw_real q[4];
    snprintf(path, sizeof path, "%s.rotation", where);
    if (get_numbers(p, rot, path, 4, "an array of 4 numbers [x, y, z, w]", q) != 0) {
        return -1;
    }
    *out = (sw_quat){q[0], q[1], q[2], q[3]};
    return 0;
}

/* A hull: the convex hull of where.points, placed by the optional rotation,
 * then position. The hull is built here and goes to *hull, which the
 * request owns from then on (even if a later field fails). */
static int shape_hull(parser* p, const json_t* obj, const char* where, sw_hull_instance* out, sw_hull** hull)
{
    const json_t* list = json_object_get(obj, "points");
    /* Room for as many points as the list has, within the limit (a longer
     * list is reported by shape_points). */
    size_t n = json_is_array(list) ? json_array_size(list) : 0;
    n = n < 4 ? 4 : (n > SW_MAX_HULL_POINTS ? SW_MAX_HULL_POINTS : n);
    sw_vec3* points = malloc(n * sizeof *points);
    if (!points) {
        return rq_fail(p, "out of memory reading %s.points", where);
    }
    int count = 0;
    if (shape_points(p, obj, where, "points", 4, SW_MAX_HULL_POINTS, points, &count) != 0) {
        free(points);
        return -1;
    }
    sw_hull_error error = SW_HULL_OK;
    *hull = sw_hull_create(points, count, &error);
    free(points);
    if (!*hull) {
        return rq_fail(p, "%s.points: %s", where, sw_hull_error_string(error));
    }
    out->hull = *hull;
    out->position = sw_v3(0, 0, 0);
    if (json_object_get(obj, "position") && shape_vec3(p, obj, where, "position", &out->position) != 0) {
        return -1;
    }
    return shape_rotation(p, obj, where, &out->rotation);
}

/* ---- meshes ------------------------------------------------------------------ */

static request_mesh_loader mesh_loader;

void request_set_mesh_loader(request_mesh_loader load) { mesh_loader = load; }

/* The inline vertices where.v: 1 to SW_MAX_MESH_TRIANGLES points, into a
 * new array (*out, the caller frees it). */
static int mesh_vertices(parser* p, const json_t* list, const char* where, sw_vec3** out, int* count)
{
    char path[32];
    snprintf(path, sizeof path, "%s.v", where);
    const char* desc = "an array of points [x, y, z]";
    if (!json_is_array(list)) {
        return rq_fail(p, "%s must be %s (got %s)", path, desc, rq_json_kind(list));
    }
    const size_t n = json_array_size(list);
    if (n < 1 || n > SW_MAX_MESH_TRIANGLES) {
        return rq_fail(p, "%s must have 1 to %d points (got %zu)", path, SW_MAX_MESH_TRIANGLES, n);
    }
    *out = malloc(n * sizeof **out);
    if (!*out) {
        return rq_fail(p, "out of memory reading %s", path);
    }
    for (size_t i = 0; i < n; ++i) {
        char elem_path[64];
        snprintf(elem_path, sizeof elem_path, "%s[%zu]", path, i);
        if (rq_get_vec3(p, json_array_get(list, i), elem_path, &(*out)[i]) != 0) {
            return -1;
        }
    }
    *count = (int)n;
    return 0;
}

/* The index triples where.tri, each index naming one of vertex_count
 * vertices, into a new array of 3 per triangle (*out, the caller frees
 * it). Indices are checked here, so a bad one is reported with its path. */
static int mesh_triangles(parser* p, const json_t* list, const char* where, int vertex_count, int** out, int* count)
{
    char path[32];
    snprintf(path, sizeof path, "%s.tri", where);
    if (!json_is_array(list)) {
        return rq_fail(p, "%s must be an array of vertex index triples [i, j, k] (got %s)", path, rq_json_kind(list));
    }
    const size_t n = json_array_size(list);
    if (n < 1 || n > SW_MAX_MESH_TRIANGLES) {
        return rq_fail(p, "%s must have 1 to %d triangles (got %zu)", path, SW_MAX_MESH_TRIANGLES, n);
    }
    *out = malloc(3 * n * sizeof **out);
    if (!*out) {
        return rq_fail(p, "out of memory reading %s", path);
    }
    for (size_t t = 0; t < n; ++t) {
        const json_t* tri = json_array_get(list, t);
        if (!json_is_array(tri)) {
            return rq_fail(p, "%s[%zu] must be an array of 3 vertex indices (got %s)", path, t, rq_json_kind(tri));
        }
        const size_t size = json_array_size(tri);
        if (size != 3) {
            return rq_fail(p, "%s[%zu] must be an array of 3 vertex indices (got %zu element%s)", path, t, size,
                           size == 1 ? "" : "s");
        }
        for (size_t k = 0; k < 3; ++k) {
            const json_t* e = json_array_get(tri, k);
            const char* big = request_json_big_integer(e);
            if (big) {
                return rq_fail(p, "%s[%zu][%zu] = %s is not a vertex index (%s.v has %d vertices: 0 to %d)", path, t, k,
                               rq_clip(big).s, where, vertex_count, vertex_count - 1);
            }
            if (!json_is_integer(e)) {
                return rq_fail(p, "%s[%zu][%zu] must be an integer vertex index (got %s)", path, t, k,
                               json_is_number(e) ? rq_number_text(json_number_value(e)).s : rq_json_kind(e));
            }
            const json_int_t i = json_integer_value(e);
            if (i < 0 || i >= vertex_count) {
                return rq_fail(p, "%s[%zu][%zu] = %lld is not a vertex index (%s.v has %d vertices: 0 to %d)", path, t,
                               k, (long long)i, where, vertex_count, vertex_count - 1);
            }
            (*out)[3 * t + k] = (int)i;
        }
    }
    *count = (int)n;
    return 0;
}

/* A mesh: from the file where.obj (built once per run by the loader, which
 * keeps it), or from the inline where.v and where.tri (built here; *owned
 * takes it, and the request frees it), placed by the optional rotation,
 * then position. */
static int shape_mesh(parser* p, const json_t* obj, const char* where, sw_mesh_instance* out, sw_mesh** owned)
{
    const json_t* file = json_object_get(obj, "obj");
    const json_t* v = json_object_get(obj, "v");
    const json_t* tri = json_object_get(obj, "tri");
    if (file && (v || tri)) {
        return rq_fail(p, "%s has both \"obj\" and \"%s\" (a mesh takes either obj, or v and tri)", where,
                       v ? "v" : "tri");
    }
    if (!file && !(v && tri)) {
        return rq_fail(p, "missing field \"%s\" in %s (a mesh takes either obj, or v and tri)", v ? "tri" : "v", where);
    }
    if (file) {
        if (!json_is_string(file)) {
            return rq_fail(p, "%s.obj must be a file name (got %s)", where, rq_json_kind(file));
        }
        if (!mesh_loader) {
            return rq_fail(p, "%s.obj: this program does not read mesh files", where);
        }
        char why[400];
        why[0] = '\0';
        out->mesh = mesh_loader(json_string_value(file), why, sizeof why);
        if (!out->mesh) {
            return rq_fail(p, "%s.obj: %s", where, why[0] ? why : "cannot load the mesh");
        }
    } else {
        sw_vec3* vertices = NULL;
        int* indices = NULL;
        int nv = 0, nt = 0;
        int rc = mesh_vertices(p, v, where, &vertices, &nv);
        if (rc == 0) {
            rc = mesh_triangles(p, tri, where, nv, &indices, &nt);
        }
        if (rc == 0) {
            sw_mesh_error error = SW_MESH_OK;
            *owned = sw_mesh_create(vertices, nv, indices, nt, &error);
            if (!*owned) {
                rc = rq_fail(p, "%s: %s", where, sw_mesh_error_string(error));
            }
        }
        free(vertices);
        free(indices);
        if (rc != 0) {
            return -1;
        }
        out->mesh = *owned;
    }
    out->position = sw_v3(0, 0, 0);
    if (json_object_get(obj, "position") && shape_vec3(p, obj, where, "position", &out->position) != 0) {
        return -1;
    }
    return shape_one_sided(p, obj, where, &out->one_sided) || shape_rotation(p, obj, where, &out->rotation);
}

/* A moving shape may not be a plane or a mesh (DESIGN.md §2: bad input,
 * whatever the library supports). */
int rq_parse_shape(parser* p, const json_t* v, const char* where, shape_use use, const char* const* extra,
                   sw_shape* out, sw_vec3* vertices, sw_hull** hull, sw_mesh** mesh)
{

    if (!json_is_object(v)) {
        return rq_fail(p, "%s must be a shape object (got %s)", where, rq_json_kind(v));
    }
    const json_t* type = json_object_get(v, "type");
    if (!type) {
        return rq_fail(p, "missing field \"type\" in %s (" SHAPE_TYPE_LIST ")", where);
    }
    if (!json_is_string(type)) {
        return rq_fail(p, "%s.type must be a string (got %s)", where, rq_json_kind(type));
    }
    const char* name = json_string_value(type);
    if (use != SHAPE_STATIC && (strcmp(name, "plane") == 0 || strcmp(name, "mesh") == 0)) {
        if (use == SHAPE_QUERY) {
            return rq_fail(p, "a %s cannot be the query shape over a scene (%s)", name, where);
        }
        return rq_fail(p, "a %s cannot be the moving shape (%s)", name, where);
    }
    const shape_spec* spec = NULL;
    for (size_t i = 0; i < sizeof shape_specs / sizeof shape_specs[0]; ++i) {
        if (strcmp(shape_specs[i].name, name) == 0) {
            spec = &shape_specs[i];
        }
    }
    if (!spec) {
        return rq_fail(p, "unknown shape type '%s' in %s (expected " SHAPE_TYPE_LIST ")", rq_clip(name).s, where);
    }
    field_set fields = spec->fields;
    const char* optional[16];
    if (extra) {
        /* The shape's own optional fields, then the caller's. */
        size_t n = 0;
        for (const char* const* f = spec->fields.optional; f && *f; ++f) {
            optional[n++] = *f;
        }
        for (const char* const* f = extra; *f && n + 1 < sizeof optional / sizeof optional[0]; ++f) {
            optional[n++] = *f;
        }
        optional[n] = NULL;
        fields.optional = optional;
    }
    if (rq_check_fields(p, v, &fields, where) != 0) {
        return -1;
    }

    memset(out, 0, sizeof *out);
    out->type = spec->type;
    int rc = 0;
    switch (spec->type) {
    case SW_SHAPE_POINT:
        rc = shape_vec3(p, v, where, "p", &out->point);
        break;
    case SW_SHAPE_SPHERE:
        rc = shape_vec3(p, v, where, "center", &out->sphere.center) ||
             shape_real(p, v, where, "radius", &out->sphere.radius);
        break;
    case SW_SHAPE_SEGMENT:
        rc = shape_vec3(p, v, where, "a", &out->segment.a) || shape_vec3(p, v, where, "b", &out->segment.b);
        break;
    case SW_SHAPE_CAPSULE:
        rc = shape_vec3(p, v, where, "a", &out->capsule.a) || shape_vec3(p, v, where, "b", &out->capsule.b) ||
             shape_real(p, v, where, "radius", &out->capsule.radius);
        break;
    case SW_SHAPE_BOX:
        rc = shape_vec3(p, v, where, "center", &out->box.center) || shape_vec3(p, v, where, "half", &out->box.half) ||
             shape_rotation(p, v, where, &out->box.rotation);
        break;
    case SW_SHAPE_PLANE:
        rc = shape_vec3(p, v, where, "normal", &out->plane.normal) ||
             shape_real(p, v, where, "offset", &out->plane.offset);
        break;
    case SW_SHAPE_TRIANGLE: {
        int count;
        rc = shape_points(p, v, where, "v", 3, 3, out->triangle.v, &count) ||
             shape_one_sided(p, v, where, &out->triangle.one_sided);
        break;
    }
    case SW_SHAPE_POLYGON:
        out->polygon.v = vertices;
        rc = shape_points(p, v, where, "v", 3, SW_MAX_POLYGON_VERTICES, vertices, &out->polygon.count) ||
             shape_one_sided(p, v, where, &out->polygon.one_sided);
        break;
    case SW_SHAPE_HULL:
        rc = shape_hull(p, v, where, &out->hull, hull);
        break;
    case SW_SHAPE_MESH:
        rc = shape_mesh(p, v, where, &out->mesh, mesh);
        break;
    default: /* the table above has no other types */
        break;
    }
    if (rc != 0) {
        return -1;
    }
    const char* why = sw_shape_invalid_reason(out);
    if (why) {
        return rq_fail(p, "%s (in %s)", why, where);
    }
    return 0;
}

/* ---- requests -------------------------------------------------------------- */

static const char* const sweep_fields[] = {"op", "a", "d", "b", NULL};
static const char* const sweep_optional[] = {"id", "skin", "ignore_separating", NULL};
static const char* const raycast_fields[] = {"op", "origin", "dir", "b", NULL};
static const char* const raycast_optional[] = {"id", "max", NULL};
static const char* const inside_fields[] = {"op", "a", "d", "b", NULL};
static const char* const pair_fields[] = {"op", "a", "b", NULL};
static const char* const id_only[] = {"id", NULL};

typedef struct op_spec {
    const char* name;
    req_op op;
    field_set fields;
} op_spec;

static const op_spec op_specs[] = {
    {"sweep", REQ_SWEEP, {"a sweep request", sweep_fields, sweep_optional}},
    {"raycast", REQ_RAYCAST, {"a raycast request", raycast_fields, raycast_optional}},
    {"sweep_inside", REQ_SWEEP_INSIDE, {"a sweep_inside request", inside_fields, id_only}},
    {"overlap", REQ_OVERLAP, {"an overlap request", pair_fields, id_only}},
    {"distance", REQ_DISTANCE, {"a distance request", pair_fields, id_only}},
    /* Their fields are checked in request_scene.c. */
    {"scene_create", REQ_SCENE_CREATE, {NULL, NULL, NULL}},
    {"scene_add", REQ_SCENE_ADD, {NULL, NULL, NULL}},
    {"scene_remove", REQ_SCENE_REMOVE, {NULL, NULL, NULL}},
    {"scene_move", REQ_SCENE_MOVE, {NULL, NULL, NULL}},
};
#define OP_LIST "sweep, raycast, sweep_inside, overlap, distance, scene_create, scene_add, scene_remove or scene_move"

int rq_parse_options(parser* p, const json_t* root, sw_sweep_options* opt)
{
    const json_t* skin = json_object_get(root, "skin");
    if (skin) {
        if (rq_get_real(p, skin, "skin", &opt->skin) != 0) {
            return -1;
        }
        if (!(opt->skin >= 0)) {
            return rq_fail(p, "skin must be >= 0 (got %s)", rq_number_text((double)opt->skin).s);
        }
    }
    const json_t* ignore = json_object_get(root, "ignore_separating");
    if (ignore) {
        if (!json_is_boolean(ignore)) {
            return rq_fail(p, "ignore_separating must be true or false (got %s)", rq_json_kind(ignore));
        }
        opt->ignore_separating = json_is_true(ignore);
    }
    if (!sw_is_valid_sweep_options(opt)) {
        return rq_fail(p, "invalid sweep options");
    }
    return 0;
}

int rq_parse_raycast(parser* p, const json_t* root, sw_ray* ray)
{
    if (rq_get_vec3(p, json_object_get(root, "origin"), "origin", &ray->origin) != 0 ||
        rq_get_vec3(p, json_object_get(root, "dir"), "dir", &ray->dir) != 0) {
        return -1;
    }
    ray->max = 1;
    const json_t* max = json_object_get(root, "max");
    if (max) {
        if (rq_get_real(p, max, "max", &ray->max) != 0) {
            return -1;
        }
        if (!(ray->max >= 0)) {
            return rq_fail(p, "max must be >= 0 (got %s)", rq_number_text((double)ray->max).s);
        }
    }
    if (!sw_is_valid_ray(ray)) {
        return rq_fail(p, "max * dir is beyond the coordinate limit %g", (double)SW_MAX_COORD);
    }
    return 0;
}

/* The pair requests' parse_shape: no extra fields. */
static int parse_shape(parser* p, const json_t* v, const char* where, shape_use use, sw_shape* out, sw_vec3* vertices,
                       sw_hull** hull, sw_mesh** mesh)
{
    return rq_parse_shape(p, v, where, use, NULL, out, vertices, hull, mesh);
}

static int parse_object(parser* p, const json_t* root, request* req)
{
    const json_t* id = json_object_get(root, "id");
    if (id) {
        req->id = json_incref((json_t*)id);
    }
    const json_t* op = json_object_get(root, "op");
    if (!op) {
        return rq_fail(p, "missing field \"op\" (" OP_LIST ")");
    }
    if (!json_is_string(op)) {
        return rq_fail(p, "op must be a string (got %s)", rq_json_kind(op));
    }
    const op_spec* spec = NULL;
    for (size_t i = 0; i < sizeof op_specs / sizeof op_specs[0]; ++i) {
        if (strcmp(op_specs[i].name, json_string_value(op)) == 0) {
            spec = &op_specs[i];
        }
    }
    if (!spec) {
        return rq_fail(p, "unknown op \"%s\" (expected " OP_LIST ")", rq_clip(json_string_value(op)).s);
    }
    req->op = spec->op;
    req->hits = SW_HITS_CLOSEST;
    req->mask = UINT64_MAX;
    req->max_distance = -1;
    if (req_op_is_scene_change(spec->op)) {
        return rq_parse_scene_change(p, root, req);
    }
    if (json_object_get(root, "scene")) {
        return rq_parse_scene_query(p, root, req);
    }
    if (rq_check_fields(p, root, &spec->fields, NULL) != 0) {
        return -1;
    }
    const json_t* a = json_object_get(root, "a");
    const json_t* b = json_object_get(root, "b");
    switch (spec->op) {
    case REQ_SWEEP:
        if (parse_shape(p, a, "a", SHAPE_MOVING, &req->a, req->a_vertices, &req->a_hull, &req->a_mesh) != 0 ||
            rq_get_vec3(p, json_object_get(root, "d"), "d", &req->d) != 0 ||
            parse_shape(p, b, "b", SHAPE_STATIC, &req->b, req->b_vertices, &req->b_hull, &req->b_mesh) != 0) {
            return -1;
        }
        return rq_parse_options(p, root, &req->opt);
    case REQ_RAYCAST:
        if (rq_parse_raycast(p, root, &req->ray) != 0) {
            return -1;
        }
        return parse_shape(p, b, "b", SHAPE_STATIC, &req->b, req->b_vertices, &req->b_hull, &req->b_mesh);
    case REQ_SWEEP_INSIDE:
        if (parse_shape(p, a, "a", SHAPE_MOVING, &req->a, req->a_vertices, &req->a_hull, &req->a_mesh) != 0 ||
            rq_get_vec3(p, json_object_get(root, "d"), "d", &req->d) != 0) {
            return -1;
        }
        return parse_shape(p, b, "b", SHAPE_STATIC, &req->b, req->b_vertices, &req->b_hull, &req->b_mesh);
    case REQ_OVERLAP:
    case REQ_DISTANCE:
        if (parse_shape(p, a, "a", SHAPE_STATIC, &req->a, req->a_vertices, &req->a_hull, &req->a_mesh) != 0) {
            return -1;
        }
        return parse_shape(p, b, "b", SHAPE_STATIC, &req->b, req->b_vertices, &req->b_hull, &req->b_mesh);
    case REQ_SCENE_CREATE:
    case REQ_SCENE_ADD:
    case REQ_SCENE_REMOVE:
    case REQ_SCENE_MOVE:
        break; /* answered above */
    }
    return rq_fail(p, "unknown op");
}

static bool is_blank(const char* s, size_t len)
{
    for (size_t i = 0; i < len; ++i) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') {
            return false;
        }
    }
    return true;
}

int request_parse(const char* line, size_t len, request* req, char* err, size_t err_size)
{
    parser p = {err, err_size};
    memset(req, 0, sizeof *req);
    if (err_size > 0) {
        err[0] = '\0';
    }
    if (is_blank(line, len)) {
        return rq_fail(&p, "empty line (expected a JSON request object)");
    }
    json_error_t jerr;
    json_t* root = request_json_load(line, len, &jerr);
    if (!root) {
        return rq_fail(&p, "invalid JSON: %s (column %d)", jerr.text, jerr.column);
    }
    int rc;
    if (json_is_object(root)) {
        rc = parse_object(&p, root, req);
    } else {
        rc = rq_fail(&p, "a request must be a JSON object (got %s)", rq_json_kind(root));
    }
    json_decref(root);
    return rc;
}

void request_free(request* req)
{
    json_decref(req->id);
    req->id = NULL;
    sw_hull_destroy(req->a_hull);
    sw_hull_destroy(req->b_hull);
    req->a_hull = req->b_hull = NULL;
    sw_mesh_destroy(req->a_mesh);
    sw_mesh_destroy(req->b_mesh);
    req->a_mesh = req->b_mesh = NULL;
    free(req->scene_name);
    req->scene_name = NULL;
    for (int i = 0; i < req->shape_count; ++i) {
        free(req->shapes[i].vertices);
        sw_hull_destroy(req->shapes[i].hull);
        sw_mesh_destroy(req->shapes[i].mesh);
    }
    free(req->shapes);
    req->shapes = NULL;
    req->shape_count = 0;
    free(req->keys);
    req->keys = NULL;
    req->key_count = 0;
}
