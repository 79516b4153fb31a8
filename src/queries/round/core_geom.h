/* Geometry of the cores that their files share (core.c, core_closest.c,
 * core_depth.c, core_contact.c): box edges, clipping and closest points,
 * hull faces and edges. Private to the library. */
#ifndef SWEEP_QUERIES_ROUND_CORE_GEOM_H
#define SWEEP_QUERIES_ROUND_CORE_GEOM_H

#include "queries/round/core.h"

/* ---- box helpers ------------------------------------------------------------ */

static inline sw_real comp(sw_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

/* Edge 4*axis + j of the box (numbering in shapes.h) as vertex indices. */
static inline void box_edge(int e, int* i0, int* i1)
{
    const int axis = e / 4, j = e % 4;
    const int other = ((j & 1) << ((axis + 1) % 3)) | (((j >> 1) & 1) << ((axis + 2) % 3));
    *i0 = other;
    *i1 = other | (1 << axis);
}

static inline sw_real box_closest_point_sq(const sw_core* c, sw_vec3 p, sw_vec3* q)
{
    *q = sw_v3(sw_clamp(p.x, -c->half.x, c->half.x), sw_clamp(p.y, -c->half.y, c->half.y),
               sw_clamp(p.z, -c->half.z, c->half.z));
    return sw_length_sq(sw_sub(p, *q));
}

/* Clips the segment a0 + s (a1 - a0), s in [0, 1], to the box (slabs);
 * returns whether any part remains, with its first parameter. */
static inline bool box_clip(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_real* s_enter)
{
    const sw_vec3 e = sw_sub(a1, a0);
    sw_real lo = 0, hi = 1;
    for (int k = 0; k < 3; ++k) {
        const sw_real p = comp(a0, k), v = comp(e, k), h = comp(c->half, k);
        if (v == 0) {
            if (p < -h || p > h) {
                return false;
            }
            continue;
        }
        sw_real s0 = (-h - p) / v, s1 = (h - p) / v;
        if (s0 > s1) {
            sw_real tmp = s0;
            s0 = s1;
            s1 = tmp;
        }
        lo = sw_max(lo, s0);
        hi = sw_min(hi, s1);
        if (lo > hi) {
            return false;
        }
    }
    *s_enter = lo;
    return true;
}

/* ---- hull helpers ----------------------------------------------------------- */

static inline sw_vec3 hull_vertex(const sw_core* c, int i) { return sw_sub(c->hull->vertices[i], c->hull_center); }

/* Face f's outward unit normal, and its plane's local offset taken as the
 * largest n . v over the face's own vertices: consistent with the local
 * vertices to their rounding, which an offset moved from the hull's frame
 * (cancelling its centre) is not. */
static inline sw_real hull_face_plane(const sw_core* c, int f, sw_vec3* n)
{
    const sw_hull_face* face = &c->hull->faces[f];
    const int* ids = c->hull->face_vertices + face->first;
    *n = face->normal;
    sw_real off = sw_dot(*n, hull_vertex(c, ids[0]));
    for (int k = 1; k < face->count; ++k) {
        off = sw_max(off, sw_dot(*n, hull_vertex(c, ids[k])));
    }
    return off;
}

/* Whether x lies over face f (its projection along the unit normal n is in
 * the face polygon, boundary included) or within slack of it; the face
 * winds counter-clockwise around n. Within slack is measured to the
 * polygon, not to its edges' lines, which reach far beyond a sliver's tip. */
static inline bool hull_face_contains(const sw_core* c, int f, sw_vec3 n, sw_vec3 x, sw_real slack)
{
    const sw_hull_face* face = &c->hull->faces[f];
    const int* ids = c->hull->face_vertices + face->first;
    sw_vec3 prev = hull_vertex(c, ids[face->count - 1]);
    bool outside = false, near = false;
    for (int k = 0; k < face->count; ++k) {
        const sw_vec3 cur = hull_vertex(c, ids[k]);
        const sw_vec3 e = sw_sub(cur, prev);
        /* |e| times x's signed distance from the edge's line, inward positive */
        const sw_real inside = sw_dot(sw_cross(e, sw_sub(x, prev)), n);
        if (inside < 0) {
            if (slack == 0 || -inside > slack * sw_length(e)) {
                return false;
            }
            /* Outside, the polygon's nearest point is on an edge whose line
             * x is outside of. */
            const sw_segment seg = {prev, cur};
            outside = true;
            near = near || sw_distance_sq(x, sw_closest_point_segment(x, &seg, NULL)) <= slack * slack;
        }
        prev = cur;
    }
    return !outside || near;
}

/* Directions from edge e into its two faces, perpendicular to it (w[i] in
 * face[i]'s plane): a normal m perpendicular to the edge is in the edge's
 * normal cone when m . w[i] <= 0 for both. Oriented by the other face's
 * normal (the face bends away from it), not by the winding. */
static inline void hull_edge_wings(const sw_core* c, int e, sw_vec3 w[2])
{
    const sw_hull_edge* edge = &c->hull->edges[e];
    const sw_vec3 dir = sw_sub(hull_vertex(c, edge->v[1]), hull_vertex(c, edge->v[0]));
    const sw_vec3 n0 = c->hull->faces[edge->face[0]].normal, n1 = c->hull->faces[edge->face[1]].normal;
    w[0] = sw_cross(n0, dir);
    w[1] = sw_cross(n1, dir);
    if (sw_dot(w[0], n1) > 0) {
        w[0] = sw_neg(w[0]);
    }
    if (sw_dot(w[1], n0) > 0) {
        w[1] = sw_neg(w[1]);
    }
}

#endif
