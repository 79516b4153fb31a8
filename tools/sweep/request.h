/* Parsing one line of the `sweep query` protocol (DESIGN.md §5) into a
 * request, and printing answers. Shared by `sweep query`, `sweep render`
 * and the fuzz targets. */
#ifndef SWEEP_TOOL_REQUEST_H
#define SWEEP_TOOL_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "sweep/sweep.h"

typedef enum req_op {
    REQ_SWEEP,
    REQ_RAYCAST,
    REQ_SWEEP_INSIDE,
    REQ_OVERLAP,
    REQ_DISTANCE,
    /* Scene requests: they change the named scene and answer its count. */
    REQ_SCENE_CREATE,
    REQ_SCENE_ADD,
    REQ_SCENE_REMOVE,
    REQ_SCENE_MOVE
} req_op;

/* Whether op changes a named scene (scene_create, scene_add, ...) rather
 * than asking a question. */
static inline bool req_op_is_scene_change(req_op op) { return op >= REQ_SCENE_CREATE; }

/* One shape of a scene request ("shapes", an inline "scene", scene_move's
 * "shape") with its scene fields. What the shape points to (a polygon's
 * vertices, a hull, an inline mesh) is owned here until a scene takes it
 * (then these are NULL); a mesh from a file belongs to the loader. */
typedef struct req_shape {
    sw_shape shape;
    int64_t key;
    uint64_t category, mask;
    bool has_key, has_category, has_mask;
    sw_vec3* vertices;
    sw_hull* hull;
    sw_mesh* mesh;
} req_shape;

typedef struct request {
    req_op op;
    json_t* id;           /* the request's "id" (a new reference), or NULL when absent */
    sw_shape a;           /* sweep, sweep_inside, overlap, distance */
    sw_shape b;           /* every op */
    sw_vec3 d;            /* sweep, sweep_inside */
    sw_ray ray;           /* raycast */
    sw_sweep_options opt; /* sweep */
    /* Vertices of a polygon a or b: their sw_polygon.v points here, so pass
     * a request by pointer and keep it while its shapes are in use. */
    sw_vec3 a_vertices[SW_MAX_POLYGON_VERTICES];
    sw_vec3 b_vertices[SW_MAX_POLYGON_VERTICES];
    /* The hulls built for a hull a or b (their sw_hull_instance.hull),
     * owned by the request: request_free destroys them. NULL otherwise. */
    sw_hull* a_hull;
    sw_hull* b_hull;
    /* The meshes built for an inline mesh a or b ("v" and "tri"), owned by
     * the request like the hulls; a mesh from a file ("obj") belongs to the
     * loader (see request_set_mesh_loader) and is not listed here. */
    sw_mesh* a_mesh;
    sw_mesh* b_mesh;

    /* Scenes (DESIGN.md §5). A query over a scene has over_scene set and
     * names it (scene_name) or lists it inline (shapes); b is then unused. */
    bool over_scene;
    char* scene_name;  /* "scene" when a name (malloc'd), else NULL */
    req_shape* shapes; /* scene_create/scene_add "shapes", an inline "scene", scene_move "shape" */
    int shape_count;
    int64_t* keys; /* scene_remove "keys" */
    int key_count;
    int64_t key;      /* scene_move "key" */
    sw_vec3 velocity; /* scene_move (zero when absent) */
    sw_vec3 angular_velocity;
    sw_hits_mode hits;    /* sweep, raycast: "hits" (closest when absent) */
    uint64_t mask;        /* "mask": all bits when absent */
    sw_real max_distance; /* distance over a scene: "max", or -1 (no limit) */
} request;

/* Parses one JSON line. On success returns 0 and fills *req (release it with
 * request_free). On failure returns -1 and writes a message without the line
 * number into err ("sphere radius must be >= 0"); req->id then holds the
 * id if the line was a JSON object with one, so the error answer can echo it.
 * Call request_free after either outcome (a hull may have been built before
 * a later field failed). */
int request_parse(const char* line, size_t len, request* req, char* err, size_t err_size);
/* Releases the id, the hulls and the inline meshes of a request (a zeroed
 * request is fine). */
void request_free(request* req);

/* Reads a mesh file for a shape's "obj": returns the built mesh, which the
 * loader keeps for the rest of the run, or NULL with a one-line reason in
 * err. sw_meshio_mesh (tools/meshio) is one. */
typedef const sw_mesh* (*request_mesh_loader)(const char* path, char* err, size_t err_size);

/* Sets the loader for every later request_parse (process-wide). Without
 * one, a mesh from a file is a bad line: the protocol layer itself reads
 * no files (the fuzz target runs it without any). */
void request_set_mesh_loader(request_mesh_loader load);

/* The named scenes of a run (scenes.c): kept from their scene_create to
 * the end of the run. */
typedef struct scene_store scene_store;
/* NULL when out of memory. */
scene_store* scene_store_create(void);
/* Frees every scene and what their shapes point to; NULL is allowed. */
void scene_store_destroy(scene_store* store);

/* Runs the request and writes the answer line (with "\n") to out
 * (answer.c): a pair through the library's dispatcher (a hit on a mesh
 * adds "triangle"), a query over a scene through sw_scene_*, and a scene
 * request on `scenes`, which then owns the request's shapes (req->shapes
 * are emptied). Returns 0, or -1 with a message in err when the request
 * cannot be answered (unsupported pair, invalid input, unknown scene or
 * key); a scene request that fails changes nothing. */
int request_answer(request* req, scene_store* scenes, FILE* out, char* err, size_t err_size);

/* Applies a scene request (req_op_is_scene_change) to `scenes` without
 * writing an answer: `sweep render` replays the lines before the one it
 * draws. Returns 0, or -1 with a message in err (nothing changed). */
int request_apply_scene_change(request* req, scene_store* scenes, char* err, size_t err_size);

/* ---- JSON lines ---------------------------------------------------------------
 * jansson reads integers as int64 and refuses a longer one ("too big
 * integer"), but category and mask go to 2^64 - 1 and a double build takes
 * coordinates written as long integers. request_json_load reads such a
 * line all the same: each integer beyond int64 becomes a string holding a
 * NUL byte and its digits (no line can hold such a string: NUL is refused
 * in the input), which the readers below turn back into the number. A real
 * that overflows a double ("1e999", which jansson refuses) is kept the same
 * way, so that the line is answered with its id and the field named. */

/* json_loadb(line, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY) with
 * integers of any length; on failure, err describes the line as written. */
json_t* request_json_load(const char* line, size_t len, json_error_t* err);
/* The text of a number request_json_load could not hold (an integer
 * beyond json_int_t: "-"? [0-9]+; or a real beyond double), or NULL when
 * v is not one. A real's text is never a valid integer, key, mask or index
 * to the readers, and reads as infinity, which they refuse. */
const char* request_json_big_integer(const json_t* v);
/* Writes v as compact JSON, its big integers as the numbers they were. */
void request_print_json(FILE* out, const json_t* v);

/* Writes {"id":<id or null>,"error":"line N: <msg>"}\n. */
void request_print_error(FILE* out, const json_t* id, long line_no, const char* msg);

/* Replaces the library's invalid-input handler (which aborts in debug
 * builds) with one that records the failed check and returns, so a request
 * the parser let through by mistake becomes an error answer naming the
 * check instead of a crash. Process-wide; call once at start-up. */
void request_catch_invalid_input(void);

/* The `sweep query` loop (defined in query.c): answers every line of in on
 * out, one answer per line, bad lines included. *bad_lines (optional)
 * receives the number of bad lines. Returns 0, or -1 when reading in or
 * writing out failed (errno set). */
int query_stream(FILE* in, FILE* out, long* bad_lines);

#endif
