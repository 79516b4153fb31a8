/* A static shape B seen as a core (a segment, a convex polygon, a box, a
 * half-space or a convex hull) plus a radius, in a local frame near B
 * (private).
 *
 * Every static shape of the library is one: a point or sphere is a
 * zero-length segment, a capsule a segment with a radius, a triangle a
 * three-vertex polygon. The moving shapes of the sweeps (point, sphere,
 * segment, capsule) are a segment core plus a radius too, so one driver
 * answers every pair: the sweep of A against B is the sweep of A's core
 * segment against B's core inflated by ra + rb + skin. */
#ifndef SWEEP_QUERIES_CORE_H
#define SWEEP_QUERIES_CORE_H

#include <stdint.h>

#include "queries/kernels/cast.h"
#include "queries/round/fast.h"

typedef enum sw_core_kind { SW_CORE_SEGMENT, SW_CORE_POLYGON, SW_CORE_BOX, SW_CORE_PLANE, SW_CORE_HULL } sw_core_kind;

typedef struct sw_core {
    sw_core_kind kind;
    bool has_features; /* false for points and spheres (feature kind none) */
    bool one_sided;
    bool rotated; /* box or hull with a non-identity rotation q */
    int count;    /* vertices in v: segment 1 (a point) or 2, polygon n; hull: its vertex count */
    sw_real radius;
    sw_real extent; /* largest |local coordinate| of the core, for tolerances */
    sw_vec3 origin; /* local frame: x_local = rotate(q^-1, x_world - origin) */
    sw_quat q;
    sw_vec3 n;    /* polygon or plane unit normal (zero for a collinear polygon) */
    sw_vec3 half; /* box half extents */
    /* A hull is read in place, never copied (it may have a thousand
     * vertices): local vertex i is hull->vertices[i] - hull_center, the
     * frame's origin being the placed centre. */
    const sw_hull* hull;
    sw_vec3 hull_center;
    /* The hull's own tolerance (hull.h): its faces are planar, and its
     * vertices below every face plane, only to within it. */
    sw_real hull_tol;
    sw_vec3 v[SW_MAX_POLYGON_VERTICES];
    /* Polygon: bit i set when edge i's line holds every vertex (see
     * polygon_bounds, core.c); only those edges bound a prism or certify
     * a contact by their normal cone. */
    uint64_t bounds;
    /* A polygon without area (a sliver) is answered as the segment between
     * its extreme vertices; its own vertices (local) stay here, for naming
     * the features it reports. sliver_count is 0 for every other core. */
    int sliver_count;
    sw_vec3 sliver[SW_MAX_POLYGON_VERTICES];
} sw_core;

/* Tolerance for naming the feature of B that contains a contact, and for
 * telling end points from interior points, from the query's size (B's
 * extent and position, A's local coordinates, the displacement, the reach). */
static inline sw_real sw_core_feature_tol(const sw_core* b, sw_vec3 a0, sw_vec3 a1, sw_vec3 d, sw_real r)
{
    const sw_real size = sw_max(sw_max(sw_max(b->extent, r), sw_max_abs(b->origin)),
                                sw_max(sw_max(sw_max_abs(a0), sw_max_abs(a1)), sw_max_abs(d)));
    /* Half the accuracy contract's tolerance: a contact that close to an
     * edge or vertex is on it, to within what any answer can promise. */
    return SW_TOLERANCE / 2 * size;
}

/* Builds B's core; the shape must be valid. */
void sw_core_make(const sw_shape* s, sw_core* c);

static inline sw_vec3 sw_core_to_local(const sw_core* c, sw_vec3 p)
{
    const sw_vec3 r = sw_sub(p, c->origin);
    return c->rotated ? sw_quat_inv_rotate(c->q, r) : r;
}
static inline sw_vec3 sw_core_dir_to_local(const sw_core* c, sw_vec3 v)
{
    return c->rotated ? sw_quat_inv_rotate(c->q, v) : v;
}
static inline sw_vec3 sw_core_to_world(const sw_core* c, sw_vec3 p)
{
    return sw_add(c->rotated ? sw_quat_rotate(c->q, p) : p, c->origin);
}
static inline sw_vec3 sw_core_dir_to_world(const sw_core* c, sw_vec3 v)
{
    return c->rotated ? sw_quat_rotate(c->q, v) : v;
}

/* Distance from the segment a0-a1 (local; a0 == a1 for a point) to B's
 * core, with the closest points *pa and *pb and *gap = pa - pb computed
 * where it keeps its direction best. For a half-space the distance is
 * signed: negative by the depth of a0-a1's deepest point below it. */
sw_real sw_core_closest(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_vec3* pa, sw_vec3* pb, sw_vec3* gap);

/* A cheap test that the segment a0-a1 is certainly farther than r from B's
 * core (bounding volumes, a polygon's plane); false when unsure. */
bool sw_core_apart(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_real r);

/* max over B's core of n . x (local; not for a half-space). */
sw_real sw_core_support(const sw_core* c, sw_vec3 n);

/* The separating-axis search over B's face normals and the cross products
 * of A's segment with B's edges: the shortest push of the segment a0-a1
 * along an axis that separates it from B's core, signed (negative by the
 * largest separation when they are apart), with *n its unit direction from
 * B toward A. */
sw_real sw_core_axis_depth(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_vec3* n);

/* First contact of the segment a0-a1 moving by d (local) with B's core
 * inflated by r, for a segment that starts farther than r from it. */
sw_contact sw_core_first_contact(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_vec3 d, sw_real r);

/* The feature of B of lowest dimension that contains the core point p
 * (local), judged within tol. */
sw_feature sw_core_feature(const sw_core* c, sw_vec3 p, sw_real tol);

/* Overlap of the round shape (core a0-a1 local, radius ra) with B inflated
 * to `reach` = ra + rb + skin; normal and point in world space; *feature
 * (optional) receives B's feature nearest the contact. */
sw_overlap_result sw_internal_overlap_core(const sw_core* b, sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_real reach,
                                           sw_feature* feature);

/* The same, from closest points already found at distance dist <= reach. */
sw_overlap_result sw_internal_overlap_at(const sw_core* b, sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_real reach,
                                         sw_real dist, sw_vec3 pa, sw_vec3 pb, sw_vec3 gap, sw_feature* feature);

/* Unit direction from B's core toward A's segment core at closest points
 * pa, pb (gap = pa - pb), made exact where the features say so: a face's
 * normal, perpendicular to an edge of B and to A's segment when the
 * closest points are interior to them. Zero when gap is zero. */
sw_vec3 sw_core_contact_normal(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_vec3 pa, sw_vec3 pb, sw_vec3 gap,
                               sw_real tol);

/* Sweep of the round shape (core a0w-a1w in world space, radius ra) by dw
 * against B, with the options' skin and flags; the whole sw_hit contract. */
sw_hit sw_internal_sweep_core(sw_vec3 a0w, sw_vec3 a1w, sw_real ra, sw_vec3 dw, const sw_core* b,
                              const sw_sweep_options* opt);

/* The general driver's sweep of the round shape (core a0-a1 in world
 * space, radius ra) by d against the valid B. */
sw_hit sw_internal_sweep_round_driver(sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d, const sw_shape* b,
                                      const sw_sweep_options* opt);

/* The same against a polygon B (a_point when a0 = a1), which this
 * validates into its frame, the fast path's; the invalid-input hit for a
 * bad polygon. */
sw_hit sw_internal_sweep_round_polygon(sw_vec3 a0, sw_vec3 a1, bool a_point, sw_real ra, sw_vec3 d, const sw_shape* b,
                                       const sw_sweep_options* opt);

/* Sweep of the round shape (core a0-a1 in world space, radius ra; a_point
 * when a0 = a1) by d against B, with d, opt and the round shape already
 * valid: validates B (a polygon into its frame, which the fast path then
 * takes), then the fast path or the general driver. The invalid-input hit
 * for a bad B. Inline: passing the vectors through one more call cost the
 * triangle and box pairs 40 instructions a query. */
static inline sw_hit sw_internal_sweep_round(sw_vec3 a0, sw_vec3 a1, bool a_point, sw_real ra, sw_vec3 d,
                                             const sw_shape* b, const sw_sweep_options* opt)
{
    if (b && b->type == SW_SHAPE_POLYGON) {
        return sw_internal_sweep_round_polygon(a0, a1, a_point, ra, d, b, opt);
    }
    SW_REQUIRE(sw_internal_shape_ok(b), SW_INVALID_HIT);
    sw_hit fast;
    if (sw_fast_sweep_shape(a0, a1, a_point, ra, d, b, NULL, opt, &fast)) {
        return fast;
    }
    return sw_internal_sweep_round_driver(a0, a1, ra, d, b, opt);
}

/* sw_raycast_shape for a ray already validated (B is validated as by
 * sw_internal_sweep_round), and sw_raycast_sphere for a ray and a sphere
 * already validated (the dispatcher validates once per query). */
sw_hit sw_internal_raycast_shape(const sw_ray* ray, const sw_shape* b);
sw_hit sw_internal_raycast_sphere(const sw_ray* ray, const sw_sphere* b);

#endif
