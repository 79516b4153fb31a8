/* The parser's pieces shared by request.c (shapes, pair requests) and
 * request_scene.c (scene requests and queries over a scene). Not part of
 * the protocol layer's interface (request.h). */
#ifndef SWEEP_TOOL_REQUEST_INTERNAL_H
#define SWEEP_TOOL_REQUEST_INTERNAL_H

#include "request.h"

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* Where a message goes. */
typedef struct parser {
    char* err;
    size_t err_size;
} parser;

/* Writes the message and returns -1. */
PRINTF_LIKE(2, 3) int rq_fail(parser* p, const char* fmt, ...);

/* A name taken from the input (a key, a type, an op), cut to a readable
 * length at a UTF-8 character boundary so one huge key cannot swamp the
 * message. */
enum { CLIP_BYTES = 40 };
typedef struct clipped {
    char s[CLIP_BYTES + 4];
} clipped;
clipped rq_clip(const char* s);

/* "an object", "a number", ... for messages. */
const char* rq_json_kind(const json_t* v);

/* The shortest "%.Ng" form of x that reads back to x, for messages that
 * quote an input number. */
typedef struct number_text {
    char s[32];
} number_text;
number_text rq_number_text(double x);

/* The fields an object may carry: every required one must be present, and
 * nothing outside required + optional is allowed. */
typedef struct field_set {
    const char* what; /* "a sweep request", "a sphere" */
    const char* const* required;
    const char* const* optional;
} field_set;

/* Unknown fields first (a misspelt key explains a "missing" one), then
 * missing ones. `where` is the object's path ("b"), NULL for the request. */
int rq_check_fields(parser* p, const json_t* obj, const field_set* set, const char* where);

/* A number as sw_real (finite, within SW_MAX_COORD); path names it. */
int rq_get_real(parser* p, const json_t* v, const char* path, sw_real* out);
/* An array of 3 such numbers. */
int rq_get_vec3(parser* p, const json_t* v, const char* path, sw_vec3* out);

/* How a shape may be used, for parse_shape's checks. */
typedef enum shape_use {
    SHAPE_STATIC, /* b, or a of overlap and distance */
    SHAPE_MOVING, /* a of a sweep: neither a plane nor a mesh */
    SHAPE_QUERY,  /* a of overlap and distance over a scene: neither either */
} shape_use;

/* Parses the shape at path `where`; a polygon's vertices go to `vertices`
 * (SW_MAX_POLYGON_VERTICES of them), a hull to *hull and an inline mesh to
 * *mesh (the caller frees them, also after a failure). `extra` lists more
 * fields the object may carry (a scene's key, category, mask), which the
 * caller reads; NULL for none. */
int rq_parse_shape(parser* p, const json_t* v, const char* where, shape_use use, const char* const* extra,
                   sw_shape* out, sw_vec3* vertices, sw_hull** hull, sw_mesh** mesh);

/* A sweep's skin and ignore_separating, and a ray cast's origin, dir and
 * max, from the request object. */
int rq_parse_options(parser* p, const json_t* root, sw_sweep_options* opt);
int rq_parse_raycast(parser* p, const json_t* root, sw_ray* ray);

/* request_scene.c: scene_create, scene_add, scene_remove and scene_move
 * (req->op set), and a query over a scene (req->op set, root has
 * "scene"). */
int rq_parse_scene_change(parser* p, const json_t* root, request* req);
int rq_parse_scene_query(parser* p, const json_t* root, request* req);

#endif
