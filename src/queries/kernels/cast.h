/* Kernels of the sweeps (private): a moving point against a ball, a
 * cylinder and a polygon's face; a moving segment against a segment (the
 * edge-edge case). Every kernel works in a frame the caller chose (B's
 * local frame, near its origin) and assumes the moving feature starts
 * outside the primitive; all return times as fractions of d. */
#ifndef SWEEP_QUERIES_CAST_H
#define SWEEP_QUERIES_CAST_H

#include "internal.h"

/* A contact found during a sweep, in the caller's frame. */
typedef struct sw_contact {
    bool hit;
    sw_real t;      /* fraction of d */
    sw_vec3 normal; /* unit, from B toward A */
    sw_vec3 pa;     /* A's core point touching, at time t */
} sw_contact;

/* Keeps the earlier of the current best and a new candidate; on a tie the
 * earlier-found candidate stays, so callers test vertices before edges
 * before faces. */
static inline void sw_contact_keep(sw_contact* best, sw_real t, sw_vec3 normal, sw_vec3 pa)
{
    if (!best->hit || t < best->t) {
        best->hit = true;
        best->t = t;
        best->normal = normal;
        best->pa = pa;
    }
}

/* Point f moving by d against the ball of radius r centred at c. */
void sw_cast_point_ball(sw_contact* best, sw_vec3 f, sw_vec3 d, sw_vec3 c, sw_real r);

/* Point f moving by d against the lateral surface of the cylinder of
 * radius r around the segment p-q (its end caps belong to the balls). */
void sw_cast_point_cylinder(sw_contact* best, sw_vec3 f, sw_vec3 d, sw_vec3 p, sw_vec3 q, sw_real r);

/* Point f moving by d against the capsule p-q of radius r: both end balls
 * and the cylinder. */
void sw_cast_point_capsule(sw_contact* best, sw_vec3 f, sw_vec3 d, sw_vec3 p, sw_vec3 q, sw_real r);

/* Static vertex v against the cylinder of radius r around A's moving
 * segment a0-a1 (A moves by d): the contact of B's vertex with A's side. */
void sw_cast_vertex_cylinder(sw_contact* best, sw_vec3 v, sw_vec3 a0, sw_vec3 a1, sw_vec3 d, sw_real r);

/* Moving segment a0-a1 (by d) against the static segment b0-b1 at distance
 * r, for contacts interior to both segments (the common perpendicular of
 * their lines); parallel segments are left to the end-point kernels. */
void sw_cast_edge_edge(sw_contact* best, sw_vec3 a0, sw_vec3 a1, sw_vec3 d, sw_vec3 b0, sw_vec3 b1, sw_real r);

/* Point f moving by d against the face of a convex polygon (vertices v,
 * unit normal n following the vertex order) pushed out by r on the side(s)
 * allowed: the front (+n) and, if two_sided, the back. */
void sw_cast_point_polygon_face(sw_contact* best, sw_vec3 f, sw_vec3 d, const sw_vec3* v, int count, sw_vec3 n,
                                sw_real r, bool two_sided);

/* Whether x, assumed in the polygon's plane, lies inside the polygon
 * (boundary included): in a triangle of its fan from v[0]. */
bool sw_point_in_polygon(sw_vec3 x, const sw_vec3* v, int count, sw_vec3 n);

#endif
