/* sweep — convex hulls: built once from a point set (quickhull), then
 * placed in the world by any number of sw_hull_instance values (rotation +
 * translation), so one hull serves many bodies.
 *
 * A hull is immutable after sw_hull_create and owns one heap block; the
 * queries never allocate and only read it. Coordinates are the hull's local
 * frame, the frame of the input points. */
#ifndef SWEEP_HULL_H
#define SWEEP_HULL_H

#include <stdbool.h>

#include "sweep/math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most input points sw_hull_create accepts. */
#define SW_MAX_HULL_POINTS 100000
/* Most vertices a built hull may have (points strictly inside, and points
 * on a face or edge, are not vertices). */
#define SW_MAX_HULL_VERTICES 1024

/* A face: a convex polygon (coplanar triangles of the hull are merged into
 * one face). Its vertices are face_vertices[first .. first + count - 1],
 * counter-clockwise seen from outside. normal is the outward unit normal
 * and offset = normal . x for the points x of its plane. */
typedef struct sw_hull_face {
    sw_vec3 normal;
    sw_real offset;
    int first;
    int count;
} sw_hull_face;

/* An edge between vertices v[0] < v[1], shared by face[0] (which runs
 * v[0] -> v[1] in its counter-clockwise order) and face[1] (v[1] -> v[0]). */
typedef struct sw_hull_edge {
    int v[2];
    int face[2];
} sw_hull_edge;

/* Feature numbering (what sw_hit.feature reports for a hull):
 * - vertex i: vertices[i]; vertices keep the order of the input points
 *   (source[i] is the input index of vertex i, increasing with i; of
 *   duplicate input points, the first is the one used);
 * - edge i: edges[i]; edges are sorted by (v[0], v[1]);
 * - face i: faces[i]; faces are sorted by their vertex lists, each read
 *   from its smallest vertex index, compared lexicographically (the first
 *   two entries decide: an edge a -> b belongs to one face).
 * Given which points are vertices and which faces there are, the numbering
 * does not depend on the order in which the algorithm found them. */
typedef struct sw_hull {
    int vertex_count;
    int edge_count;
    int face_count;
    const sw_vec3* vertices;
    const int* source;
    const sw_hull_edge* edges;
    const sw_hull_face* faces;
    const int* face_vertices;
    sw_vec3 center; /* centre of the vertices' bounding box */
    sw_real radius; /* largest distance from center to a vertex */
} sw_hull;

typedef enum sw_hull_error {
    SW_HULL_OK = 0,
    SW_HULL_TOO_FEW_POINTS,    /* count < 4 (or points == NULL) */
    SW_HULL_TOO_MANY_POINTS,   /* count > SW_MAX_HULL_POINTS */
    SW_HULL_INVALID_POINT,     /* NaN, infinite or beyond SW_MAX_COORD */
    SW_HULL_FLAT,              /* within tol (see sw_hull_create) of a plane
                                  (the hull at most twice that thick):
                                  use a polygon (or segment, point) */
    SW_HULL_TOO_MANY_VERTICES, /* the hull has > SW_MAX_HULL_VERTICES */
    SW_HULL_OUT_OF_MEMORY,
    SW_HULL_DEGENERATE /* no hull convex within tol could be built: rare
                          sets of nearly coincident or nearly coplanar
                          points spread over a long span (see
                          sw_hull_create); jittering or welding the
                          points apart by more than tol helps */
} sw_hull_error;

/* Builds the convex hull of `count` points (quickhull; the method and its
 * tolerances are described in src/shapes/hull.c). With
 * tol = SW_TOLERANCE * h, h = the largest half-extent of the input's
 * bounding box (the hull's own size: the same points moved far from their
 * origin give the same hull):
 * - vertices are input points, with their exact values; duplicate points,
 *   points on a face or edge and points within tol of the surface of the
 *   hull of the others are not vertices (a point within tol of the
 *   surface may still be one when it was found before the points that
 *   cover it);
 * - every input point lies inside every face plane or within tol of it
 *   (normal . p <= offset + tol, up to the rounding of the stored normal
 *   and offset);
 * - every face is a convex polygon within tol (each vertex within tol of
 *   its plane and of the boundary of the convex hull of its vertices),
 *   counter-clockwise seen from outside; faces that are coplanar within
 *   tol are merged into one where that keeps them so and turns neither
 *   normal by more than about SW_TOLERANCE / 2 radians (a face normal is
 *   then a separating axis as good as the vertices: thin faces along the
 *   rim of a nearly flat hull stay apart);
 * - every vertex is on three faces or more, and V - E + F = 2;
 * - normal is unit (Newell's normal of the face's vertices, relative to
 *   the first), offset the mean of normal . v over them.
 * Every hull returned is checked against these promises; when every
 * attempt fails them (quickhull with merges at three scales, then without
 * merges: seen only on adversarial sets such as clusters of points a few
 * tol apart, or slivers a billion times longer than wide) the set is
 * refused with SW_HULL_DEGENERATE rather than answered by a hull that
 * breaks them.
 * Returns NULL and sets *error (when error is not NULL) on failure; on
 * success *error is SW_HULL_OK. Invalid input is reported only through
 * *error (the assert handler is not called). The hull is one heap block;
 * free it with sw_hull_destroy. Takes about O(count log count) time for
 * most sets; it is meant to run once per shape, not per query. */
SW_API sw_hull* sw_hull_create(const sw_vec3* points, int count, sw_hull_error* error);

/* Frees a hull from sw_hull_create; NULL is allowed. */
SW_API void sw_hull_destroy(sw_hull* hull);

/* A short English description of an error ("a hull needs at least 4
 * points"); "unknown hull error" for a value out of range. */
SW_API const char* sw_hull_error_string(sw_hull_error error);

/* A hull placed in the world: x_world = rotate(rotation, x_local) +
 * position. The rotation is normalised on use; only a zero-length or
 * non-finite quaternion is invalid. The hull must outlive the queries. */
typedef struct sw_hull_instance {
    const sw_hull* hull;
    sw_vec3 position;
    sw_quat rotation;
} sw_hull_instance;

/* hull != NULL, position and rotation valid, and every placed vertex
 * within SW_MAX_COORD. */
SW_API bool sw_is_valid_hull_instance(const sw_hull_instance* h);

#ifdef __cplusplus
}
#endif

#endif
