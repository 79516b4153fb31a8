/* Parsing one line of the `sweep query` protocol (DESIGN.md §5) into a
 * request, and printing answers. Shared by `sweep query`, `sweep render`
 * and the fuzz targets. */
#ifndef SWEEP_TOOL_REQUEST_H
#define SWEEP_TOOL_REQUEST_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "sweep/sweep.h"

typedef enum req_op { REQ_SWEEP, REQ_RAYCAST, REQ_SWEEP_INSIDE, REQ_OVERLAP, REQ_DISTANCE } req_op;

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

/* Runs the request through the library's dispatcher and writes the answer
 * line (with "\n") to out (answer.c); a hit on a mesh adds "triangle". Returns 0, or -1 with a message in err when the
 * library refused it (unsupported pair, invalid input). */
int request_answer(const request* req, FILE* out, char* err, size_t err_size);

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
