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
} request;

/* Parses one JSON line. On success returns 0 and fills *req (release it with
 * request_free). On failure returns -1 and writes a message without the line
 * number into err ("sphere radius must be >= 0"); req->id then holds the
 * id if the line was a JSON object with one, so the error answer can echo it. */
int request_parse(const char* line, size_t len, request* req, char* err, size_t err_size);
void request_free(request* req);

/* Runs the request through the library's dispatcher and writes the answer
 * line (with "\n") to out. Returns 0, or -1 with a message in err when the
 * library refused it (unsupported pair, invalid input). */
int request_answer(const request* req, FILE* out, char* err, size_t err_size);

/* Writes {"id":<id or null>,"error":"line N: <msg>"}\n. */
void request_print_error(FILE* out, const json_t* id, long line_no, const char* msg);

#endif
