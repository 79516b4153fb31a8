/* sweep — static triangle meshes: built once from vertex and index arrays
 * into a bounding-volume hierarchy, then placed in the world by any number
 * of sw_mesh_instance values (rotation + translation), as hulls are.
 *
 * A mesh is a set of triangles over shared vertices; it need not be closed
 * or manifold. Every query of the dispatcher (sw_sweep, sw_raycast,
 * sw_overlap, sw_distance) takes a mesh as the static shape B, with the
 * contract of DESIGN.md §2-§3 over the union of the triangles; a mesh as
 * the moving shape A is invalid input. Answers name the triangle hit
 * (sw_hit.triangle, its index in the index array) and that triangle's
 * feature (face 0, edge k from its vertex k to k+1, vertex k).
 *
 * Placed triangles: the world triangle i is its three local vertices each
 * rotated by the instance's (normalised) rotation and translated by its
 * position, computed in double and rounded to sw_real
 * (sw_mesh_world_triangle gives it); queries answer exactly for those
 * triangles. With the identity rotation the vertices are the input's plus
 * the position.
 *
 * Internal edges (no ghost contacts, DESIGN.md §2a): an edge shared by
 * exactly two triangles whose planes agree within SW_MESH_FLAT_ANGLE
 * radians is flat. A contact on a flat edge, or on a vertex whose two
 * edges in the triangle hit are both flat, reports that triangle's face
 * normal (on A's side), so a shape sliding over a tessellated floor sees
 * only the floor's normal. With ignore_separating, every triangle whose
 * (so corrected) contact normal n has d . n >= -SW_TOLERANCE |d| (A moves
 * away or along) is skipped, at t = 0 and after: a shape sliding on a
 * floor is never stopped by its internal edges. Boundary edges, edges of
 * three or more triangles and edges at an angle are real edges.
 *
 * A mesh is immutable after sw_mesh_create and owns one heap block; the
 * queries never allocate and only read it, so any number of threads may
 * query one mesh at once. */
#ifndef SWEEP_MESH_H
#define SWEEP_MESH_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep/math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most triangles (and vertices) sw_mesh_create accepts. */
#define SW_MAX_MESH_TRIANGLES (1 << 26)

/* Two triangles meeting along an edge at an angle at most this (radians)
 * are coplanar there: the edge is flat (see above). */
#define SW_MESH_FLAT_ANGLE 1e-3

typedef struct sw_mesh sw_mesh;

typedef enum sw_mesh_error {
    SW_MESH_OK = 0,
    SW_MESH_NO_TRIANGLES,     /* triangle_count < 1, or NULL arrays */
    SW_MESH_TOO_LARGE,        /* more than SW_MAX_MESH_TRIANGLES triangles or vertices */
    SW_MESH_INVALID_VERTEX,   /* NaN, infinite or beyond SW_MAX_COORD */
    SW_MESH_INVALID_INDEX,    /* an index < 0 or >= vertex_count */
    SW_MESH_OUT_OF_MEMORY
} sw_mesh_error;

/* Builds a mesh from vertex_count vertices and triangle_count index
 * triples (indices[3 i + k] is vertex k of triangle i). The arrays are
 * copied; the caller's may be freed afterwards. Triangles without area
 * are kept and answered as the segment or point they are. Returns NULL
 * and sets *error (when not NULL) on failure, with nothing allocated;
 * *error is SW_MESH_OK on success. Invalid input is reported only through
 * *error. The hierarchy is built with a binned surface-area heuristic into
 * 4-wide nodes; building takes O(n log n) time. */
SW_API sw_mesh* sw_mesh_create(const sw_vec3* vertices, int vertex_count, const int* indices, int triangle_count,
                               sw_mesh_error* error);

/* Frees a mesh; NULL is allowed. */
SW_API void sw_mesh_destroy(sw_mesh* mesh);

/* A short English description of an error; "unknown mesh error" for a
 * value out of range. */
SW_API const char* sw_mesh_error_string(sw_mesh_error error);

/* Facts about a built mesh. */
typedef struct sw_mesh_info {
    int vertex_count;
    int triangle_count;
    int node_count;      /* 4-wide nodes of the hierarchy */
    int depth;           /* levels of nodes, the root's included */
    int flat_edges;      /* triangle edges (each side counted) marked flat */
    size_t bytes;        /* the whole heap block */
    sw_vec3 bounds_min;  /* local bounds of the vertices used */
    sw_vec3 bounds_max;
} sw_mesh_info;

SW_API sw_mesh_info sw_mesh_get_info(const sw_mesh* mesh);

/* Local vertices of triangle i (0 <= i < triangle_count) in v[0..2], and
 * whether each of its edges (edge k from vertex k to k+1) is flat. Returns
 * false for an out-of-range i. flat may be NULL. */
SW_API bool sw_mesh_triangle(const sw_mesh* mesh, int i, sw_vec3 v[3], bool flat[3]);

/* A mesh placed in the world: x_world = rotate(rotation, x_local) +
 * position. The rotation is normalised on use; only a zero-length or
 * non-finite quaternion is invalid. one_sided: each triangle stops only
 * shapes coming from its front, (v1 - v0) x (v2 - v0) (the triangle rule
 * of sw_triangle). The mesh must outlive the queries. */
typedef struct sw_mesh_instance {
    const sw_mesh* mesh;
    sw_vec3 position;
    sw_quat rotation;
    bool one_sided;
} sw_mesh_instance;

/* mesh != NULL, position and rotation valid, and the placed bounds within
 * SW_MAX_COORD. */
SW_API bool sw_is_valid_mesh_instance(const sw_mesh_instance* m);

/* The placed triangle i as the queries see it (see above); false for an
 * invalid instance or an out-of-range i. */
SW_API bool sw_mesh_world_triangle(const sw_mesh_instance* m, int i, sw_vec3 v[3]);

#ifdef __cplusplus
}
#endif

#endif
