/* sweep — shapes layer: the primitive shapes, their validity predicates,
 * bounds and support functions, and the tagged union sw_shape.
 *
 * All shapes are closed solids in world space. A point is a plain sw_vec3;
 * the other shapes are small structs passed by const pointer. */
#ifndef SWEEP_SHAPES_H
#define SWEEP_SHAPES_H

#include <stdbool.h>

#include "sweep/hull.h"
#include "sweep/math.h"
#include "sweep/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Solid ball. radius >= 0; radius 0 is a point. */
typedef struct sw_sphere {
    sw_vec3 center;
    sw_real radius;
} sw_sphere;

/* Closed line segment from a to b. a == b is a point.
 * Features: vertices 0 (a) and 1 (b), edge 0. */
typedef struct sw_segment {
    sw_vec3 a, b;
} sw_segment;

/* Segment a-b inflated by radius (radius >= 0; radius 0 is a segment,
 * a == b a sphere). Features as for sw_segment. */
typedef struct sw_capsule {
    sw_vec3 a, b;
    sw_real radius;
} sw_capsule;

/* Box with the given centre and half extents (each >= 0), rotated by the
 * quaternion `rotation` about its centre. The rotation is normalised on use;
 * only a zero-length or non-finite quaternion is invalid. An identity
 * rotation makes it an axis-aligned box.
 *
 * Feature numbering, in the box's local frame (axis 0 = x, 1 = y, 2 = z):
 * - face 2*axis + s: the face at local coordinate (s ? +h : -h) on that
 *   axis, i.e. faces 0..5 are -x, +x, -y, +y, -z, +z;
 * - vertex i (0..7): bit k of i set means +h on axis k, clear means -h;
 * - edge 4*axis + j (0..11): the edge parallel to `axis`; j's bit 0 gives
 *   the sign on the next axis ((axis+1) mod 3) and bit 1 the sign on the
 *   one after, 1 meaning +h. */
typedef struct sw_box {
    sw_vec3 center;
    sw_vec3 half;
    sw_quat rotation;
} sw_box;

/* Half-space {x : dot(normal, x) <= offset}: the solid lies below the
 * plane, as in the major physics engines. normal need not be unit (queries
 * normalise it); it must not be zero. Feature: face 0. */
typedef struct sw_plane {
    sw_vec3 normal;
    sw_real offset;
} sw_plane;

/* Triangle v[0], v[1], v[2]: a flat solid, two-sided unless one_sided (then
 * only its front, n = (v1 - v0) x (v2 - v0), stops a sweep: a contact counts
 * only when d . n < 0 and the contact normal has normal . n > 0, and a
 * one-sided triangle that A starts overlapping is ignored). A zero-area
 * triangle is valid: it is answered as its edges and vertices.
 * Features: vertices 0..2 in input order, edge i from v[i] to v[(i+1)%3],
 * face 0. */
typedef struct sw_triangle {
    sw_vec3 v[3];
    bool one_sided;
} sw_triangle;

/* Largest vertex count of a polygon. */
#define SW_MAX_POLYGON_VERTICES 64

/* Convex planar polygon of `count` vertices (3..SW_MAX_POLYGON_VERTICES),
 * in order around its boundary (either winding). The vertex array belongs
 * to the caller and must outlive the queries. Planarity and convexity are
 * checked within SW_TOLERANCE times the polygon's scale; a polygon off
 * its plane within that is answered as its vertices moved onto the plane
 * through v[0] with Newell's normal. one_sided as for sw_triangle, with the
 * front normal following the vertex order (Newell's normal, which for a
 * triangle is (v1 - v0) x (v2 - v0)). Collinear (zero-area) polygons are
 * valid and answered as their edges.
 * Features: vertices in input order, edge i from v[i] to v[(i+1)%count],
 * face 0.
 * Every query validates a polygon (planarity, convexity) and builds its
 * frame (offsets, normal, edges) again, which for a pentagon costs more
 * than the sweep itself. A polygon that does not change can be validated
 * once instead: see sw_polygon_prepare. */
typedef struct sw_polygon_prep sw_polygon_prep;
typedef struct sw_polygon {
    const sw_vec3* v;
    int count;
    bool one_sided;
    /* NULL, or the sw_polygon_prepare result whose own vertices v points
     * to (as sw_make_prepared_polygon sets both). Queries take its frame
     * instead of validating only when v is that prep's vertex array and
     * count its count; otherwise they ignore it and validate as usual. */
    const sw_polygon_prep* prep;
} sw_polygon;

/* Axis-aligned bounding box, min <= max component-wise. */
typedef struct sw_aabb {
    sw_vec3 min, max;
} sw_aabb;

/* Ray origin + t * dir for t in [0, max]; t is measured in units of dir,
 * so a unit dir gives distances. dir need not be unit; dir = 0 is a point
 * probe. max must be finite and >= 0. */
typedef struct sw_ray {
    sw_vec3 origin;
    sw_vec3 dir;
    sw_real max;
} sw_ray;

typedef enum sw_shape_type {
    SW_SHAPE_POINT = 0,
    SW_SHAPE_SEGMENT,
    SW_SHAPE_SPHERE,
    SW_SHAPE_CAPSULE,
    SW_SHAPE_BOX,
    SW_SHAPE_PLANE,
    SW_SHAPE_TRIANGLE,
    SW_SHAPE_POLYGON,
    SW_SHAPE_HULL,
    SW_SHAPE_MESH, /* static only: a mesh cannot be the moving shape */
    SW_SHAPE_TYPE_COUNT
} sw_shape_type;

/* Tagged union over every shape. Build one with the sw_make_* helpers. */
typedef struct sw_shape {
    sw_shape_type type;
    SW_ANONYMOUS_UNION {
        sw_vec3 point;
        sw_segment segment;
        sw_sphere sphere;
        sw_capsule capsule;
        sw_box box;
        sw_plane plane;
        sw_triangle triangle;
        sw_polygon polygon;
        sw_hull_instance hull;
        sw_mesh_instance mesh;
    };
} sw_shape;

/* ---- validity ------------------------------------------------------------
 * A value is valid when every number in it is finite and within
 * SW_MAX_COORD in magnitude, radii and half extents are >= 0, and
 * quaternions have non-zero length. These predicates raise no
 * floating-point exception, even on NaN input. */
SW_API bool sw_is_valid_real(sw_real v);
SW_API bool sw_is_valid_vec3(sw_vec3 v);
SW_API bool sw_is_valid_quat(sw_quat q);
SW_API bool sw_is_valid_sphere(const sw_sphere* s);
SW_API bool sw_is_valid_segment(const sw_segment* s);
SW_API bool sw_is_valid_capsule(const sw_capsule* c);
SW_API bool sw_is_valid_box(const sw_box* b);
/* A non-zero normal whose squared length does not overflow. */
SW_API bool sw_is_valid_plane(const sw_plane* p);
SW_API bool sw_is_valid_triangle(const sw_triangle* t);
/* Also checks the count, planarity and convexity (see sw_polygon). */
SW_API bool sw_is_valid_polygon(const sw_polygon* p);
/* Also requires max >= 0 and every component of max * dir within
 * SW_MAX_COORD. */
SW_API bool sw_is_valid_ray(const sw_ray* r);
SW_API bool sw_is_valid_shape(const sw_shape* s);

/* A short English reason why `s` is invalid ("sphere radius must be >= 0"),
 * or NULL when it is valid. */
SW_API const char* sw_shape_invalid_reason(const sw_shape* s);

/* ---- constructors, names, bounds, support ------------------------------- */

SW_API sw_shape sw_make_point(sw_vec3 p);
SW_API sw_shape sw_make_segment(sw_vec3 a, sw_vec3 b);
SW_API sw_shape sw_make_sphere(sw_vec3 center, sw_real radius);
SW_API sw_shape sw_make_capsule(sw_vec3 a, sw_vec3 b, sw_real radius);
SW_API sw_shape sw_make_box(sw_vec3 center, sw_vec3 half, sw_quat rotation);
SW_API sw_shape sw_make_plane(sw_vec3 normal, sw_real offset);
SW_API sw_shape sw_make_triangle(sw_vec3 v0, sw_vec3 v1, sw_vec3 v2, bool one_sided);
SW_API sw_shape sw_make_polygon(const sw_vec3* v, int count, bool one_sided);
/* A hull from sw_hull_create placed by rotation, then position. */
SW_API sw_shape sw_make_hull(const sw_hull* hull, sw_vec3 position, sw_quat rotation);
/* A mesh from sw_mesh_create placed by rotation, then position (see
 * sweep/mesh.h); one_sided as for a triangle, for each of its triangles. */
SW_API sw_shape sw_make_mesh(const sw_mesh* mesh, sw_vec3 position, sw_quat rotation, bool one_sided);

/* ---- prepared polygons ---------------------------------------------------- */

/* Validates the polygon of `count` vertices v once, as sw_is_valid_polygon
 * does, and keeps a copy of the vertices with the frame every query would
 * otherwise compute again (its offsets, normal, edges and their in-plane
 * normals, in one heap block of about 170 bytes a vertex). Returns NULL
 * for an invalid polygon (v NULL, count outside 3..SW_MAX_POLYGON_VERTICES,
 * non-finite or out-of-range vertices, not planar or not convex), with
 * *reason (when reason is not NULL) set to sw_shape_invalid_reason's text,
 * or "out of memory". A prepared polygon answers every query exactly as
 * the same polygon unprepared, bit for bit, without the per-query
 * validation, which is most of a polygon query's cost (docs/performance.md
 * has both). Immutable; free it with sw_polygon_prep_destroy once no shape
 * uses it. */
SW_API sw_polygon_prep* sw_polygon_prepare(const sw_vec3* v, int count, const char** reason);

/* Frees a prepared polygon; NULL is allowed. */
SW_API void sw_polygon_prep_destroy(sw_polygon_prep* prep);

/* The prepared polygon as a shape: its vertices are the prep's copy, so
 * queries skip validation. one_sided as for sw_make_polygon. */
SW_API sw_shape sw_make_prepared_polygon(const sw_polygon_prep* prep, bool one_sided);

/* The protocol's name of a shape type ("point", "sphere", ...), or "?" for
 * an out-of-range value. */
SW_API const char* sw_shape_type_name(sw_shape_type type);

/* Tight axis-aligned bounds of a valid shape. A plane, being unbounded,
 * gives the bounds of the whole valid range (+-SW_MAX_COORD). A mesh gives
 * its placed vertices' bounds (each vertex as sw_mesh_world_triangle
 * places it). */
SW_API sw_aabb sw_shape_bounds(const sw_shape* s);

/* Support point: a point of the shape maximising dot(dir, x). dir need not
 * be unit; for dir = 0 any point of the shape is returned. A plane (a
 * half-space) has a support point only along its normal: it returns the
 * point of its boundary nearest the origin for every dir. A mesh's support
 * is that of its vertices' convex hull. */
SW_API sw_vec3 sw_shape_support(const sw_shape* s, sw_vec3 dir);

/* The box's three unit axes (columns of its rotation) in world space; the
 * rotation need not be normalised (a zero quaternion gives the identity). */
SW_API void sw_box_axes(const sw_box* b, sw_vec3 axes[3]);

#ifdef __cplusplus
}
#endif

#endif
