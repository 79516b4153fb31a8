/* The scenes of the `sweep query` protocol (scenes.c): named scenes, kept
 * in a scene_store for the run, and inline ones, built for one request;
 * the scene requests that change them; the queries over them. Shared by
 * the answers (answer.c) and `sweep render`. */
#ifndef SWEEP_TOOL_SCENES_H
#define SWEEP_TOOL_SCENES_H

#include "request.h"

typedef struct tool_scene tool_scene;

/* Applies a scene request (req_op_is_scene_change) to store; the scene
 * takes what the request's shapes point to. On success returns 0 with
 * *count the shapes now in the scene; on failure -1 with a message in
 * err, and nothing changed. */
int scenes_apply(scene_store* store, request* req, int* count, char* err, size_t err_size);

/* The scene a query over a scene (req->over_scene) runs on: the named one
 * in store, or one built from the request's inline shapes, which it
 * borrows (close it before request_free). NULL with a message in err
 * (unknown scene, duplicate key, out of memory). */
tool_scene* tool_scene_open(scene_store* store, const request* req, char* err, size_t err_size);
/* Destroys an inline scene; does nothing for a named one (or NULL). */
void tool_scene_close(tool_scene* ts);

const sw_scene* tool_scene_get(const tool_scene* ts);
/* The keys of the scene's shapes in increasing order, in a new array (free
 * it); NULL when the scene is empty or memory runs out. */
int64_t* tool_scene_keys(const tool_scene* ts, int* count);

/* A query's answer over a scene, as the library gives it. */
typedef struct scene_result {
    int count;                  /* hits, overlaps, or 0 or 1 for distance */
    sw_scene_hit* hits;         /* sweep, raycast: count of them (at most one for closest and any) */
    sw_scene_overlap* overlaps; /* overlap, by key */
    sw_scene_distance closest;  /* distance, when count is 1 */
} scene_result;

enum { SCENE_QUERY_INVALID = -1, SCENE_QUERY_NO_MEMORY = -2 };

/* Runs req (sweep, raycast, overlap or distance over a scene) on ts with
 * the filter of the protocol: shapes whose category shares a bit with
 * req->mask (and whose mask is non-zero: the query's own category is
 * every bit). Returns 0, SCENE_QUERY_INVALID when the library refused the
 * input, or SCENE_QUERY_NO_MEMORY. Free the result with
 * scene_result_free, whatever the outcome. */
int tool_scene_query(const tool_scene* ts, const request* req, scene_result* out);
void scene_result_free(scene_result* r);

#endif
