/* sweep — query results and sweep options shared by every query family. */
#ifndef SWEEP_HIT_H
#define SWEEP_HIT_H

#include <stdbool.h>

#include "sweep/math.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sw_status {
    SW_OK = 0,
    /* A NaN or infinite number, a negative radius or extent, a coordinate
     * beyond SW_MAX_COORD, a zero quaternion, a negative ray max or skin.
     * Every other field of the result is zero / false. */
    SW_INVALID_INPUT,
    /* The dispatcher has no method for this pair of shape types yet (or the
     * pair is meaningless, such as a containment sweep inside a segment).
     * Every other field of the result is zero / false. */
    SW_UNSUPPORTED
} sw_status;

/* A short English name of a status ("ok", "invalid input", "unsupported"). */
SW_API const char* sw_status_name(sw_status s);

typedef enum sw_feature_kind {
    SW_FEATURE_NONE = 0, /* B has no features (point, sphere) */
    SW_FEATURE_VERTEX,
    SW_FEATURE_EDGE,
    SW_FEATURE_FACE
} sw_feature_kind;

/* The protocol's name of a feature kind ("none", "vertex", "edge",
 * "face"), or "?" for an out-of-range value. */
SW_API const char* sw_feature_kind_name(sw_feature_kind k);

/* The feature of B that was hit; the numbering is documented with each
 * shape in shapes.h. */
typedef struct sw_feature {
    sw_feature_kind kind;
    int index;
} sw_feature;

/* Result of every sweep and ray cast (DESIGN.md §2).
 *
 * - hit: A touches B at some t in [0, 1] (ray: [0, max]).
 * - overlapping: A already touches B (within skin) at t = 0; then t = 0,
 *   depth = the penetration depth (0 when only touching; skin - distance
 *   when a skin is used), normal = the direction of the shortest separating
 *   translation, point = a deepest point of A.
 * - t: time of impact as a fraction of the displacement (ray: in units of
 *   dir). 0 when !hit.
 * - point: world-space contact point, on both A(t) and B (with a skin: A's
 *   point nearest B).
 * - normal: unit, pointing away from B toward A.
 * - depth: 0 for a contact at t > 0.
 * - feature: the feature of B that was hit (kind NONE for a point, sphere);
 *   for a mesh, the feature of the triangle hit.
 * - triangle: for a mesh B, the index of the triangle hit (in the order
 *   given to sw_mesh_create); 0 for every other shape.
 * Every field is zero when !hit or status != SW_OK. */
typedef struct sw_hit {
    sw_status status;
    bool hit;
    bool overlapping;
    sw_real t;
    sw_real depth;
    sw_vec3 point;
    sw_vec3 normal;
    sw_feature feature;
    int triangle;
} sw_hit;

/* Options of every sweep; a zero-initialised struct (or a NULL pointer) is
 * the default: no skin, initial contacts reported.
 *
 * - skin >= 0: the sweep is answered against B inflated by skin; t is the
 *   first time distance(A(t), B) <= skin; point is A's point nearest B; on a
 *   start within skin, depth = skin - distance (skin + penetration depth
 *   when they really overlap).
 * - ignore_separating: a start within contact whose displacement d has
 *   d . normal >= 0 (moving away or sliding, d = 0 included) is no hit. */
typedef struct sw_sweep_options {
    sw_real skin;
    bool ignore_separating;
} sw_sweep_options;

SW_API bool sw_is_valid_sweep_options(const sw_sweep_options* o);

/* Result of an overlap query. When overlapping: depth = penetration depth
 * (length of the shortest translation of A that separates the shapes, 0
 * when they only touch), normal = that translation's direction (from B
 * toward A), point = a deepest point of A. Otherwise every field but status
 * is zero. */
typedef struct sw_overlap_result {
    sw_status status;
    bool overlapping;
    sw_real depth;
    sw_vec3 normal;
    sw_vec3 point;
} sw_overlap_result;

/* Result of a distance query: the distance between the shapes and a closest
 * point on each (point_b - point_a has length distance). When they touch
 * or overlap, distance = 0 and point_a = point_b = a common point. */
typedef struct sw_distance_result {
    sw_status status;
    sw_real distance;
    sw_vec3 point_a;
    sw_vec3 point_b;
} sw_distance_result;

#ifdef __cplusplus
}
#endif

#endif
