/* sweep — scenes: many static shapes of every type (meshes and hulls
 * included), each under a key the caller chooses, in an incremental
 * bounding-volume tree; shapes can be added, moved and removed at any
 * time, and every query answers over all of them (DESIGN.md §2b).
 *
 * Conventions:
 * - A shape is stored by value (sw_shape); what it points to (a polygon's
 *   vertices, a hull, a mesh) belongs to the caller and must outlive its
 *   place in the scene. Keys are unique within a scene.
 * - Filtering: a query carries a sw_scene_filter; a shape is considered
 *   when (shape.category & filter.mask) != 0 and (shape.mask &
 *   filter.category) != 0, and the callback, when given, returns true. A
 *   NULL filter considers every shape.
 * - Each hit is the pair's own answer (sw_sweep, sw_raycast, ...) for that
 *   shape, with its key, user pointer and velocities. Modes for ray casts
 *   and sweeps: SW_HITS_CLOSEST (the first hit, ties broken by the lower
 *   key), SW_HITS_ANY (some hit, found as fast as possible), SW_HITS_ALL
 *   (each shape's first hit, one per shape, sorted by t, then key).
 * - Queries never allocate and only read the scene: any number of threads
 *   may query a scene at once while no thread changes it. Adding, moving
 *   and removing are not thread-safe.
 * - Far from the origin, each pair is answered in its own frame, so a
 *   query keeps the accuracy of DESIGN.md §3 relative to its own scale
 *   (A, d and the shapes hit), not the scene's extent.
 *
 * Array results: a query writing up to `capacity` results returns how
 * many it found in all (so a return above capacity means the array kept
 * only the first `capacity`, in the query's order), or -1 for invalid
 * input (a NULL scene, an invalid shape, ray or option; the assert
 * handler is called in SWEEP_ASSERTS builds). */
#ifndef SWEEP_SCENE_H
#define SWEEP_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include "sweep/hit.h"
#include "sweep/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_scene sw_scene;

typedef enum sw_scene_error {
    SW_SCENE_OK = 0,
    SW_SCENE_INVALID_SHAPE, /* fails sw_is_valid_shape, or a plane's half-space */
    SW_SCENE_DUPLICATE_KEY, /* add: the key is already in the scene */
    SW_SCENE_UNKNOWN_KEY,   /* move, remove: no shape has the key */
    SW_SCENE_INVALID_VELOCITY,
    SW_SCENE_OUT_OF_MEMORY
} sw_scene_error;

SW_API const char* sw_scene_error_string(sw_scene_error e);

/* An empty scene; NULL when out of memory. */
SW_API sw_scene* sw_scene_create(void);
/* Frees the scene (not the shapes' own data); NULL is allowed. */
SW_API void sw_scene_destroy(sw_scene* scene);

/* Adds shape under key with the given category, mask and user pointer.
 * Planes are refused (a half-space has no bounds: add a large box or a
 * mesh for the ground). */
SW_API sw_scene_error sw_scene_add(sw_scene* scene, int64_t key, const sw_shape* shape, uint64_t category,
                                   uint64_t mask, void* user);
/* Removes the shape under key. */
SW_API sw_scene_error sw_scene_remove(sw_scene* scene, int64_t key);
/* Gives the shape under key a new shape (a new pose, or another shape
 * altogether) and the velocity with which it moved over the last step:
 * linear v, and angular w about its new centre (a box's, sphere's or
 * hull's position, a capsule's or segment's midpoint, a mesh instance's
 * position, a triangle's or polygon's vertex mean, a point itself). Key,
 * category, mask and user pointer are kept. */
SW_API sw_scene_error sw_scene_move(sw_scene* scene, int64_t key, const sw_shape* shape, sw_vec3 v, sw_vec3 w);
/* Sets the category, mask and user pointer of the shape under key. */
SW_API sw_scene_error sw_scene_set_filter(sw_scene* scene, int64_t key, uint64_t category, uint64_t mask, void* user);

/* Rebuilds the scene's tree top-down by the surface-area heuristic. The
 * tree changes incrementally with every add, move and remove (and is
 * rebuilt by itself once the changes since its last rebuild outnumber
 * twice its shapes); a tree grown by insertions answers queries a few
 * times slower than a rebuilt one, so call this after loading a level or
 * adding many shapes (as Jolt's OptimizeBroadPhase). Takes O(n log n);
 * on failure to allocate, the tree is left as it was. */
SW_API void sw_scene_optimize(sw_scene* scene);

/* Number of shapes in the scene. */
SW_API int sw_scene_count(const sw_scene* scene);
/* The shape under key (NULL when none); the pointer is valid until the
 * scene next changes. */
SW_API const sw_shape* sw_scene_shape(const sw_scene* scene, int64_t key);

/* The centre about which a shape's angular velocity turns (see
 * sw_scene_move). */
SW_API sw_vec3 sw_shape_center(const sw_shape* s);

typedef bool sw_scene_filter_fn(void* ctx, int64_t key, void* user);

typedef struct sw_scene_filter {
    uint64_t mask;     /* shapes whose category shares a bit with it */
    uint64_t category; /* the query's own category, tested against the shapes' masks */
    sw_scene_filter_fn* fn; /* NULL, or false to skip the shape */
    void* ctx;
} sw_scene_filter;

typedef enum sw_hits_mode { SW_HITS_CLOSEST = 0, SW_HITS_ANY, SW_HITS_ALL } sw_hits_mode;

/* One shape's answer to a ray cast or sweep. */
typedef struct sw_scene_hit {
    sw_hit hit; /* the pair's answer (hit.triangle for a mesh) */
    int64_t key;
    void* user;
    sw_vec3 velocity;         /* the shape's linear velocity */
    sw_vec3 angular_velocity; /* about sw_shape_center of the shape */
    sw_vec3 point_velocity;   /* velocity of the shape's material at hit.point: v + w x (point - centre) */
} sw_scene_hit;

/* Ray casts and sweeps. CLOSEST and ANY write at most one hit and return
 * 0 or 1 (-1: invalid input); ALL returns the number of shapes hit and
 * writes the first `capacity` of them in (t, key) order. */
SW_API int sw_scene_raycast(const sw_scene* scene, const sw_ray* ray, sw_hits_mode mode,
                            const sw_scene_filter* filter, sw_scene_hit* out, int capacity);
SW_API int sw_scene_sweep(const sw_scene* scene, const sw_shape* a, sw_vec3 d, const sw_sweep_options* opt,
                          sw_hits_mode mode, const sw_scene_filter* filter, sw_scene_hit* out, int capacity);

/* Every shape overlapping A, with the pair's depth and normal, sorted by
 * key. */
typedef struct sw_scene_overlap {
    sw_overlap_result overlap;
    int64_t key;
    void* user;
} sw_scene_overlap;
SW_API int sw_scene_overlap_all(const sw_scene* scene, const sw_shape* a, const sw_scene_filter* filter,
                                sw_scene_overlap* out, int capacity);

/* The closest shape to A within max_distance (a negative max: no limit):
 * returns 1 with *out filled, 0 when none is that close, -1 for invalid
 * input. Ties go to the lower key. */
typedef struct sw_scene_distance {
    sw_distance_result distance;
    int64_t key;
    void* user;
} sw_scene_distance;
SW_API int sw_scene_closest(const sw_scene* scene, const sw_shape* a, sw_real max_distance,
                            const sw_scene_filter* filter, sw_scene_distance* out);

/* Every shape within `margin` of A (margin >= 0), each with its signed
 * distance (negative: penetration depth), the closest points (on A and on
 * the shape; a deepest point of A for both when they overlap) and the
 * normal from the shape toward A, with the shape's velocities: what a
 * character controller gathers each update. Sorted by key. */
typedef struct sw_scene_contact {
    int64_t key;
    void* user;
    sw_real distance;
    sw_vec3 point_a, point_b;
    sw_vec3 normal;
    int triangle; /* for a mesh, the triangle nearest A; else 0 */
    sw_vec3 velocity, angular_velocity, point_velocity;
} sw_scene_contact;
SW_API int sw_scene_contacts(const sw_scene* scene, const sw_shape* a, sw_real margin, const sw_scene_filter* filter,
                             sw_scene_contact* out, int capacity);

/* Batches: n ray casts (or sweeps of shapes a[i] by d[i]) in CLOSEST or ANY
 * mode, out[i] the answer to query i and hit_count[i] (when not NULL) 0,
 * 1 or -1 as the single call would return; over `threads` threads (<= 1:
 * the calling thread only). Results are identical to one-by-one calls.
 * Returns 0, or -1 when threads could not be started (nothing answered)
 * or the mode is ALL. */
SW_API int sw_scene_raycast_batch(const sw_scene* scene, const sw_ray* rays, int n, sw_hits_mode mode,
                                  const sw_scene_filter* filter, sw_scene_hit* out, int* hit_count, int threads);
SW_API int sw_scene_sweep_batch(const sw_scene* scene, const sw_shape* a, const sw_vec3* d, int n,
                                const sw_sweep_options* opt, sw_hits_mode mode, const sw_scene_filter* filter,
                                sw_scene_hit* out, int* hit_count, int threads);

#ifdef __cplusplus
}
#endif

#endif
