/* Static shapes as cores: closest points, penetration, first contact of a
 * moving segment, and feature location. */
#include <stdint.h>

#include "queries/core.h"

/* ---- construction --------------------------------------------------------- */

static void make_segment(sw_core* c, sw_vec3 a, sw_vec3 b, sw_real radius, bool has_features)
{
    c->kind = SW_CORE_SEGMENT;
    c->has_features = has_features;
    c->radius = radius;
    c->origin = a;
    c->v[0] = sw_v3(0, 0, 0);
    c->v[1] = sw_sub(b, a);
    c->count = sw_internal_same_point(a, b) ? 1 : 2;
    c->extent = sw_max_abs(c->v[1]);
}

/* The edges whose lines hold every vertex of the polygon, within the
 * rounding of its local coordinates (bit i: edge i; an edge of length 0
 * holds them all). A polygon is valid when convex within tol, and it may
 * turn the wrong way at an edge far shorter than tol, whose line then cuts
 * the polygon anywhere (finding 39): such an edge neither bounds the
 * polygon's prism nor certifies a contact by its normal cone. When every
 * turn bends the right way the polygon (which winds once) is convex and
 * every edge holds it; otherwise each edge is checked against every
 * vertex. */
static uint64_t polygon_bounds(const sw_core* c)
{
    const int count = c->count;
    sw_vec3 e[SW_MAX_POLYGON_VERTICES];
    for (int i = 0; i < count; ++i) {
        e[i] = sw_sub(c->v[i + 1 < count ? i + 1 : 0], c->v[i]);
    }
    const uint64_t all = count >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << count) - 1;
    bool convex = true;
    for (int i = 0, prev = -1, first = -1; i <= count && convex; ++i) {
        const int k = i < count ? i : first;
        if (k < 0 || (e[k].x == 0 && e[k].y == 0 && e[k].z == 0)) {
            continue;
        }
        if (prev >= 0) {
            const sw_real turn = sw_dot(sw_cross(e[prev], e[k]), c->n);
            convex = turn >= -4 * SW_EPSILON * sw_length(e[prev]) * sw_length(e[k]);
        } else {
            first = k;
        }
        prev = k;
    }
    if (convex) {
        return all;
    }
    const sw_real slack = 64 * SW_EPSILON * c->extent;
    uint64_t bounds = 0;
    for (int i = 0; i < count; ++i) {
        const sw_vec3 out = sw_cross(e[i], c->n);
        const sw_real limit = slack * sw_length(out);
        bool holds = true;
        for (int j = 0; j < count && holds; ++j) {
            holds = sw_dot(out, sw_sub(c->v[j], c->v[i])) <= limit;
        }
        bounds |= holds ? (uint64_t)1 << i : 0;
    }
    return bounds;
}

/* The polygon answered: its vertices moved along n onto the plane through
 * v[0], by no more than the planarity tolerance validation allows. Left
 * as given, an edge off the plane (by a few ulps of its world coordinates,
 * or up to the tolerance) leaves a crack between the face, which is taken
 * in the plane, and the edge: a segment that starts in it (apart from the
 * face and the edges, inside the polygon's hull) and moves into the face
 * makes no contact and passed through (a segment 3e-6 from a heptagon 650
 * from the origin, whose vertices were 1.6e-5 off its plane, went 0.1
 * deep: soak seed 14, case 1657). The fast paths take the same plane
 * (sw_internal_polygon_check). */
static void flatten_polygon(sw_core* c)
{
    if (c->count > 3) {
        for (int i = 1; i < c->count; ++i) {
            c->v[i] = sw_madd(c->v[i], -sw_dot(c->n, c->v[i]), c->n);
        }
    }
    c->bounds = polygon_bounds(c);
}

static void make_polygon(sw_core* c, const sw_vec3* v, int count, bool one_sided)
{
    c->kind = SW_CORE_POLYGON;
    c->has_features = true;
    c->one_sided = one_sided;
    c->origin = v[0];
    c->count = count;
    c->extent = 0;
    for (int i = 0; i < count; ++i) {
        c->v[i] = sw_sub(v[i], v[0]);
        c->extent = sw_max(c->extent, sw_max_abs(c->v[i]));
    }
    sw_wide ext;
    c->n = sw_wv_narrow(sw_internal_polygon_normal(v, count, &ext));
    const sw_real area2 = sw_normalize(&c->n);
    /* A polygon thinner than the rounding of its vertices' local
     * coordinates (a few ulps of its distance from the origin) has no
     * reliable normal; within the accuracy contract it is the segment
     * between its two extreme vertices (the farthest from v0, and the
     * farthest from that one). Its width is about area2 / (2 extent). */
    const sw_real noise = 64 * SW_EPSILON * (sw_max_abs(c->origin) + c->extent);
    if (area2 > noise * 2 * c->extent) {
        flatten_polygon(c);
        return;
    }
    int a = 0, b = 0;
    for (int i = 1; i < count; ++i) {
        a = sw_length_sq(c->v[i]) > sw_length_sq(c->v[a]) ? i : a;
    }
    for (int i = 0; i < count; ++i) {
        b = sw_length_sq(sw_sub(c->v[i], c->v[a])) > sw_length_sq(sw_sub(c->v[b], c->v[a])) ? i : b;
    }
    /* Its width is area2 over its length, which can be half of 2 extent:
     * wider than the noise, it keeps its plane (a segment would move the
     * vertices off it by up to that width). */
    if (area2 > noise * sw_length(sw_sub(c->v[a], c->v[b]))) {
        flatten_polygon(c);
        return;
    }
    c->sliver_count = count;
    c->bounds = 0;
    for (int i = 0; i < count; ++i) {
        c->sliver[i] = c->v[i];
    }
    const sw_vec3 pa = c->v[a], pb = c->v[b];
    c->kind = SW_CORE_SEGMENT;
    c->n = sw_v3(0, 0, 0);
    c->v[0] = pa;
    c->v[1] = pb;
    c->count = sw_internal_same_point(pa, pb) ? 1 : 2;
}

void sw_core_make(const sw_shape* s, sw_core* c)
{
    c->sliver_count = 0;
    c->one_sided = false;
    c->rotated = false;
    c->radius = 0;
    c->q = sw_quat_identity();
    c->n = sw_v3(0, 0, 0);
    c->half = sw_v3(0, 0, 0);
    c->hull = NULL;
    c->hull_tol = 0;
    switch (s->type) {
    case SW_SHAPE_POINT:
        make_segment(c, s->point, s->point, 0, false);
        break;
    case SW_SHAPE_SPHERE:
        make_segment(c, s->sphere.center, s->sphere.center, s->sphere.radius, false);
        break;
    case SW_SHAPE_SEGMENT:
        make_segment(c, s->segment.a, s->segment.b, 0, true);
        break;
    case SW_SHAPE_CAPSULE:
        make_segment(c, s->capsule.a, s->capsule.b, s->capsule.radius, true);
        break;
    case SW_SHAPE_TRIANGLE:
        make_polygon(c, s->triangle.v, 3, s->triangle.one_sided);
        break;
    case SW_SHAPE_POLYGON:
        make_polygon(c, s->polygon.v, s->polygon.count, s->polygon.one_sided);
        break;
    case SW_SHAPE_BOX: {
        c->kind = SW_CORE_BOX;
        c->has_features = true;
        c->origin = s->box.center;
        c->q = s->box.rotation;
        sw_quat_normalize(&c->q);
        c->rotated = !(c->q.x == 0 && c->q.y == 0 && c->q.z == 0);
        c->half = s->box.half;
        c->extent = sw_max_abs(c->half);
        c->count = 8;
        for (int i = 0; i < 8; ++i) {
            c->v[i] =
                sw_v3(i & 1 ? c->half.x : -c->half.x, i & 2 ? c->half.y : -c->half.y, i & 4 ? c->half.z : -c->half.z);
        }
        break;
    }
    case SW_SHAPE_PLANE: {
        sw_real offset = 0;
        c->kind = SW_CORE_PLANE;
        c->has_features = true;
        sw_internal_plane_unit(&s->plane, &c->n, &offset);
        c->origin = sw_scale(c->n, offset);
        c->count = 0;
        c->extent = 0;
        break;
    }
    case SW_SHAPE_HULL: {
        const sw_hull* h = s->hull.hull;
        c->kind = SW_CORE_HULL;
        c->has_features = true;
        c->q = s->hull.rotation;
        sw_quat_normalize(&c->q);
        c->rotated = !(c->q.x == 0 && c->q.y == 0 && c->q.z == 0);
        c->hull = h;
        c->hull_center = h->center;
        c->origin = sw_add(c->rotated ? sw_quat_rotate(c->q, h->center) : h->center, s->hull.position);
        c->count = h->vertex_count;
        c->extent = h->radius;
        /* Its input's largest |coordinate| is at most this. */
        c->hull_tol = SW_TOLERANCE * (sw_max_abs(h->center) + h->radius);
        break;
    }
    case SW_SHAPE_MESH: /* not a convex core: the callers refuse it */
    case SW_SHAPE_TYPE_COUNT:
        make_segment(c, sw_v3(0, 0, 0), sw_v3(0, 0, 0), 0, false);
        break;
    }
}

/* ---- box helpers ------------------------------------------------------------ */

static sw_real comp(sw_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

/* Edge 4*axis + j of the box (numbering in shapes.h) as vertex indices. */
static void box_edge(int e, int* i0, int* i1)
{
    const int axis = e / 4, j = e % 4;
    const int other = ((j & 1) << ((axis + 1) % 3)) | (((j >> 1) & 1) << ((axis + 2) % 3));
    *i0 = other;
    *i1 = other | (1 << axis);
}

static sw_real box_closest_point_sq(const sw_core* c, sw_vec3 p, sw_vec3* q)
{
    *q = sw_v3(sw_clamp(p.x, -c->half.x, c->half.x), sw_clamp(p.y, -c->half.y, c->half.y),
               sw_clamp(p.z, -c->half.z, c->half.z));
    return sw_length_sq(sw_sub(p, *q));
}

/* Clips the segment a0 + s (a1 - a0), s in [0, 1], to the box (slabs);
 * returns whether any part remains, with its first parameter. */
static bool box_clip(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_real* s_enter)
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

static sw_vec3 hull_vertex(const sw_core* c, int i) { return sw_sub(c->hull->vertices[i], c->hull_center); }

/* Face f's outward unit normal, and its plane's local offset taken as the
 * largest n . v over the face's own vertices: consistent with the local
 * vertices to their rounding, which an offset moved from the hull's frame
 * (cancelling its centre) is not. */
static sw_real hull_face_plane(const sw_core* c, int f, sw_vec3* n)
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
static bool hull_face_contains(const sw_core* c, int f, sw_vec3 n, sw_vec3 x, sw_real slack)
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
static void hull_edge_wings(const sw_core* c, int e, sw_vec3 w[2])
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

/* ---- closest points ------------------------------------------------------- */

/* Farther than any two valid points can be, squared. */
#define FAR_SQ (64 * SW_MAX_COORD * SW_MAX_COORD)

/* Closest pair found so far: dist_sq is squared (one sqrt at the end), gap
 * is pa - pb as computed where it is most accurate. */
typedef struct closest {
    sw_real dist_sq;
    sw_vec3 pa, pb, gap;
} closest;

static void keep_closer(closest* best, sw_real dist_sq, sw_vec3 pa, sw_vec3 pb, sw_vec3 gap)
{
    if (dist_sq < best->dist_sq) {
        best->dist_sq = dist_sq;
        best->pa = pa;
        best->pb = pb;
        best->gap = gap;
    }
}

static void segment_vs_edge(closest* best, sw_vec3 a0, sw_vec3 a1, sw_vec3 b0, sw_vec3 b1)
{
    const sw_segment sa = {a0, a1}, sb = {b0, b1};
    sw_vec3 pa, pb, gap;
    const sw_real d2 = sw_internal_closest_segments(&sa, &sb, &pa, &pb, &gap);
    keep_closer(best, d2, pa, pb, gap);
}

static closest polygon_closest(const sw_core* c, sw_vec3 a0, sw_vec3 a1)
{
    closest best = {FAR_SQ, a0, c->v[0], {0, 0, 0}};
    const bool flat = c->n.x != 0 || c->n.y != 0 || c->n.z != 0;
    if (flat) {
        const sw_real s0 = sw_dot(a0, c->n), s1 = sw_dot(a1, c->n);
        /* The segment pierces the plane inside the polygon: distance 0. */
        if ((s0 <= 0 && s1 >= 0) || (s0 >= 0 && s1 <= 0)) {
            if (s0 != s1) {
                const sw_vec3 x = sw_lerp(a0, a1, s0 / (s0 - s1));
                if (sw_point_in_polygon(x, c->v, c->count, c->n)) {
                    best.dist_sq = 0;
                    best.pa = best.pb = x;
                    best.gap = sw_v3(0, 0, 0);
                    return best;
                }
            }
        }
        const sw_vec3 ends[2] = {a0, a1};
        const sw_real s[2] = {s0, s1};
        for (int i = 0; i < 2; ++i) {
            const sw_vec3 foot = sw_madd(ends[i], -s[i], c->n);
            if (sw_point_in_polygon(foot, c->v, c->count, c->n)) {
                keep_closer(&best, s[i] * s[i], ends[i], foot, sw_scale(c->n, s[i]));
            }
        }
    }
    for (int i = 0; i < c->count; ++i) {
        segment_vs_edge(&best, a0, a1, c->v[i], c->v[i + 1 < c->count ? i + 1 : 0]);
    }
    return best;
}

static closest box_closest(const sw_core* c, sw_vec3 a0, sw_vec3 a1)
{
    closest best = {FAR_SQ, a0, a0, {0, 0, 0}};
    sw_real s;
    if (box_clip(c, a0, a1, &s)) {
        best.dist_sq = 0;
        best.pa = best.pb = sw_lerp(a0, a1, s);
        return best;
    }
    const sw_vec3 ends[2] = {a0, a1};
    for (int i = 0; i < 2; ++i) {
        sw_vec3 q;
        const sw_real d2 = box_closest_point_sq(c, ends[i], &q);
        keep_closer(&best, d2, ends[i], q, sw_sub(ends[i], q));
    }
    if (a0.x != a1.x || a0.y != a1.y || a0.z != a1.z) {
        for (int e = 0; e < 12; ++e) {
            int i0, i1;
            box_edge(e, &i0, &i1);
            segment_vs_edge(&best, a0, a1, c->v[i0], c->v[i1]);
        }
    }
    return best;
}

/* Faces whose plane the segment reaches above (within rounding), one bit
 * each: only their edges can hold a closest point of a segment outside. */
#define HULL_FACE_WORDS ((2 * SW_MAX_HULL_VERTICES) / 32)

/* A candidate closest pair of a segment outside the hull, with the feature
 * of the hull its pb lies on: a face (an end over it), an edge (its
 * interior) or a vertex. */
typedef struct hull_pair {
    closest k;
    sw_feature feature;
} hull_pair;

/* Whether the pair is the closest pair: its gap g lies in the normal cone
 * of its hull feature and points away from the segment at its end (the
 * optimality conditions of a convex distance). Each test is a dot product
 * of g with a direction of the feature, which stays well conditioned where
 * the face planes are not (a knife edge's faces nearly coincide); slack is
 * relative, for the rounding of g's direction. */
static bool hull_certified(const sw_core* c, sw_vec3 a0, sw_vec3 a1, const hull_pair* p, sw_real slack)
{
    const sw_vec3 g = p->k.gap;
    const sw_real len = sw_length(g);
    if (!(len > 0)) {
        return false;
    }
    /* A's side: at an end of the segment, the segment runs away from B. */
    if (!sw_internal_same_point(a0, a1)) {
        const sw_vec3 along = sw_sub(a1, a0), pa = p->k.pa;
        const sw_real e = slack * len * sw_length(along);
        if ((sw_internal_same_point(pa, a0) && sw_dot(g, along) < -e) ||
            (sw_internal_same_point(pa, a1) && -sw_dot(g, along) < -e)) {
            return false;
        }
    }
    const sw_hull* h = c->hull;
    if (p->feature.kind == SW_FEATURE_EDGE) {
        sw_vec3 w[2];
        hull_edge_wings(c, p->feature.index, w);
        return sw_dot(g, w[0]) <= slack * len * sw_length(w[0]) && sw_dot(g, w[1]) <= slack * len * sw_length(w[1]);
    }
    if (p->feature.kind == SW_FEATURE_VERTEX) {
        const int i = p->feature.index;
        const sw_vec3 v = hull_vertex(c, i);
        for (int e = 0; e < h->edge_count; ++e) {
            if (h->edges[e].v[0] == i || h->edges[e].v[1] == i) {
                const sw_vec3 out =
                    sw_sub(hull_vertex(c, h->edges[e].v[0] == i ? h->edges[e].v[1] : h->edges[e].v[0]), v);
                if (sw_dot(g, out) > slack * len * sw_length(out)) {
                    return false;
                }
            }
        }
    }
    /* A face's candidate is an end over it: its gap is the face normal. */
    return true;
}

/* Slack of hull_certified for a gap of squared length dist_sq: the
 * narrowing of g to sw_real, and the wide type's rounding of the closest
 * points (of size `size`) relative to |g|. */
static sw_real certify_slack(sw_real dist_sq, sw_real size)
{
    const sw_real len = sw_sqrt(dist_sq);
    const sw_wide rel = len > 0 ? 64 * SW_WIDE_EPSILON * (sw_wide)size / len : 1;
    return 16 * SW_EPSILON + (rel < 1 ? (sw_real)rel : 1);
}

/* The candidates for the closest pair of a segment outside the hull: an
 * end over a face (its foot on the face), the segment and an edge of a
 * front face. With window < 0 the nearest is kept in *best; otherwise the
 * first within window (squared) of *best that is certified replaces it,
 * and the return value says whether one did. */
static bool hull_candidates(const sw_core* c, sw_vec3 a0, sw_vec3 a1, const uint32_t* front, sw_real size,
                            sw_real window, hull_pair* best)
{
    const sw_hull* h = c->hull;
    const bool is_point = sw_internal_same_point(a0, a1);
    const sw_vec3 ends[2] = {a0, a1};
    for (int f = 0; f < h->face_count; ++f) {
        sw_vec3 n;
        const sw_real off = hull_face_plane(c, f, &n);
        for (int i = 0; i < (is_point ? 1 : 2); ++i) {
            const sw_real above = sw_dot(n, ends[i]) - off;
            if (above >= 0 && above * above < (window < 0 ? best->k.dist_sq : window) &&
                hull_face_contains(c, f, n, ends[i], 0)) {
                const hull_pair p = {{above * above, ends[i], sw_madd(ends[i], -above, n), sw_scale(n, above)},
                                     {SW_FEATURE_FACE, f}};
                if (window < 0) {
                    *best = p;
                    /* A point over a face is in that face's region, which no
                     * other feature's overlaps: nothing is nearer. */
                    if (is_point) {
                        return false;
                    }
                } else if (hull_certified(c, a0, a1, &p, certify_slack(p.k.dist_sq, size))) {
                    *best = p;
                    return true;
                }
            }
        }
    }
    for (int e = 0; e < h->edge_count; ++e) {
        const sw_hull_edge* edge = &h->edges[e];
        const int f0 = edge->face[0], f1 = edge->face[1];
        if (!((front[f0 / 32] >> (f0 % 32) & 1u) || (front[f1 / 32] >> (f1 % 32) & 1u))) {
            continue;
        }
        const sw_vec3 b0 = hull_vertex(c, edge->v[0]), b1 = hull_vertex(c, edge->v[1]);
        hull_pair p = {{FAR_SQ, a0, a0, {0, 0, 0}}, {SW_FEATURE_EDGE, e}};
        segment_vs_edge(&p.k, a0, a1, b0, b1);
        if (window < 0 ? p.k.dist_sq >= best->k.dist_sq : p.k.dist_sq > window) {
            continue;
        }
        /* At an end of the edge (clamped there exactly): its vertex. */
        if (sw_internal_same_point(p.k.pb, b0) || sw_internal_same_point(p.k.pb, b1)) {
            p.feature = (sw_feature){SW_FEATURE_VERTEX, sw_internal_same_point(p.k.pb, b0) ? edge->v[0] : edge->v[1]};
        }
        if (window < 0) {
            *best = p;
        } else if (hull_certified(c, a0, a1, &p, certify_slack(p.k.dist_sq, size))) {
            *best = p;
            return true;
        }
    }
    return false;
}

/* Closest points of the segment and the hull. The face planes alone do
 * not tell inside from outside near a knife edge (the rim of a thin hull,
 * whose faces nearly share a plane), so the segment meets the hull where
 * it crosses a face polygon; otherwise the nearest candidate pair is
 * accepted when it is certified, or else another as near to within
 * rounding that is (the nearest may be a near tie on another feature),
 * and A is inside B when none is. */
static closest hull_closest(const sw_core* c, sw_vec3 a0, sw_vec3 a1)
{
    hull_pair best = {{FAR_SQ, a0, a0, {0, 0, 0}}, {SW_FEATURE_NONE, 0}};
    const sw_hull* h = c->hull;
    const bool is_point = sw_internal_same_point(a0, a1);
    const sw_real size = c->extent + sw_max(sw_max_abs(a0), sw_max_abs(a1));
    const sw_real noise = 16 * SW_EPSILON * size;
    /* Faces whose plane A reaches above, within rounding and the hull's
     * tolerance (to which its face planes hold): a closest pair on an edge
     * has its gap in the edge's normal cone, so A lies above one of the
     * edge's faces, if only by a hair at a knife edge. */
    uint32_t front[HULL_FACE_WORDS] = {0};
    bool a0_inside = true;
    sw_real highest = -FAR_SQ, highest0 = -FAR_SQ, highest1 = -FAR_SQ;
    for (int f = 0; f < h->face_count; ++f) {
        sw_vec3 n;
        const sw_real off = hull_face_plane(c, f, &n);
        const sw_real h0 = sw_dot(n, a0) - off, h1 = sw_dot(n, a1) - off;
        if (h0 > -noise - c->hull_tol || h1 > -noise - c->hull_tol) {
            front[f / 32] |= 1u << (f % 32);
        }
        a0_inside = a0_inside && h0 <= 0;
        highest = sw_max(highest, sw_max(h0, h1));
        highest0 = sw_max(highest0, h0);
        highest1 = sw_max(highest1, h1);
        if (!is_point && ((h0 <= 0 && h1 >= 0) || (h0 >= 0 && h1 <= 0)) && h0 != h1) {
            const sw_vec3 x = sw_lerp(a0, a1, h0 / (h0 - h1));
            if (hull_face_contains(c, f, n, x, 0)) {
                best.k.dist_sq = 0;
                best.k.pa = best.k.pb = x;
                return best.k;
            }
        }
    }
    /* An end below every face plane by more than the hull's tolerance is
     * inside it, whatever the candidates say (the gaps a merged hull's
     * faces leave at its edges can hide a crossing, and tilt the cones). */
    const sw_real deep = -(noise + c->hull_tol);
    if (highest0 < deep || highest1 < deep) {
        best.k.dist_sq = 0;
        best.k.pa = best.k.pb = highest0 < deep ? a0 : a1;
        best.k.gap = sw_v3(0, 0, 0);
        return best.k;
    }
    hull_candidates(c, a0, a1, front, size, -1, &best);
    if (hull_certified(c, a0, a1, &best, certify_slack(best.k.dist_sq, size))) {
        return best.k;
    }
    if (best.k.dist_sq > 0 && best.k.dist_sq < FAR_SQ) {
        const sw_real window = best.k.dist_sq + 16 * SW_EPSILON * (best.k.dist_sq + sw_sqrt(best.k.dist_sq) * size);
        hull_pair tied = best;
        if (hull_candidates(c, a0, a1, front, size, window, &tied)) {
            return tied.k;
        }
    }
    /* Uncertified but above a face plane by more than the hull's
     * tolerance: outside (the faces of a merged hull stand off its vertices
     * by up to that, so the nearest pair need not satisfy the conditions
     * exactly), the segment being wholly on one side of the surface. */
    if (highest > noise + c->hull_tol && best.k.dist_sq < FAR_SQ) {
        return best.k;
    }
    /* Not apart: A touches B or lies inside it. The common point is an end
     * of A below every face plane within rounding and the hull's
     * tolerance (a point A is such an end here), else the candidate's pb:
     * an uncertified candidate's pb need not be near A (a ray starting on
     * a hull 2.5e7 long had it 0.82 from its origin, tol 2.5e-5). */
    const sw_real surface = noise + c->hull_tol;
    const sw_vec3 common = a0_inside || highest0 <= surface ? a0 : (highest1 <= surface ? a1 : best.k.pb);
    best.k.dist_sq = 0;
    best.k.pa = best.k.pb = common;
    best.k.gap = sw_v3(0, 0, 0);
    return best.k;
}

bool sw_core_apart(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_real reach)
{
    /* Apart only beyond the rounding of the tests below. */
    const sw_real r = reach + 16 * SW_EPSILON * (reach + c->extent + sw_max(sw_max_abs(a0), sw_max_abs(a1)));
    switch (c->kind) {
    case SW_CORE_SEGMENT: {
        /* Bounding balls of the two segments. */
        const sw_vec3 b0 = c->v[0], b1 = c->v[c->count - 1];
        const sw_vec3 ca = sw_scale(sw_add(a0, a1), SW_R(0.5)), cb = sw_scale(sw_add(b0, b1), SW_R(0.5));
        const sw_real reach = r + sw_length(sw_sub(a1, a0)) / 2 + sw_length(sw_sub(b1, b0)) / 2;
        return sw_length_sq(sw_sub(ca, cb)) > reach * reach * SW_R(1.0001);
    }
    case SW_CORE_POLYGON: {
        const sw_real s0 = sw_dot(a0, c->n), s1 = sw_dot(a1, c->n);
        if ((s0 > r && s1 > r) || (s0 < -r && s1 < -r)) {
            return true;
        }
        /* Both ends beyond one bounding edge's plane pushed out by r. */
        for (int i = 0; i < c->count; ++i) {
            if (!(c->bounds >> i & 1)) {
                continue;
            }
            const sw_vec3 out = sw_cross(sw_sub(c->v[i + 1 < c->count ? i + 1 : 0], c->v[i]), c->n);
            const sw_real limit = sw_dot(out, c->v[i]) + r * sw_length(out);
            if (sw_dot(out, a0) > limit && sw_dot(out, a1) > limit) {
                return true;
            }
        }
        return false;
    }
    case SW_CORE_BOX: {
        const sw_vec3 lo = sw_vmin(a0, a1), hi = sw_vmax(a0, a1);
        return lo.x > c->half.x + r || lo.y > c->half.y + r || lo.z > c->half.z + r || hi.x < -c->half.x - r ||
               hi.y < -c->half.y - r || hi.z < -c->half.z - r;
    }
    case SW_CORE_PLANE:
        return false;
    case SW_CORE_HULL: {
        /* The bounding ball around the centre (the local origin), then both
         * ends beyond one face's plane pushed out by r. */
        const sw_segment seg = {a0, a1};
        const sw_vec3 q = sw_closest_point_segment(sw_v3(0, 0, 0), &seg, NULL);
        const sw_real ball = r + c->extent;
        if (sw_length_sq(q) > ball * ball * SW_R(1.0001)) {
            return true;
        }
        for (int f = 0; f < c->hull->face_count; ++f) {
            sw_vec3 n;
            const sw_real limit = hull_face_plane(c, f, &n) + r + c->hull_tol;
            if (sw_dot(n, a0) > limit && sw_dot(n, a1) > limit) {
                return true;
            }
        }
        return false;
    }
    }
    return false;
}

sw_real sw_core_closest(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_vec3* pa, sw_vec3* pb, sw_vec3* gap)
{
    closest best = {FAR_SQ, a0, a0, {0, 0, 0}};
    switch (c->kind) {
    case SW_CORE_SEGMENT: {
        segment_vs_edge(&best, a0, a1, c->v[0], c->v[c->count - 1]);
        break;
    }
    case SW_CORE_POLYGON:
        best = polygon_closest(c, a0, a1);
        break;
    case SW_CORE_BOX:
        best = box_closest(c, a0, a1);
        break;
    case SW_CORE_HULL:
        best = hull_closest(c, a0, a1);
        break;
    case SW_CORE_PLANE: {
        const sw_real s0 = sw_dot(a0, c->n), s1 = sw_dot(a1, c->n);
        /* Signed: the only core whose inside has a depth of its own. */
        const sw_real dist = sw_min(s0, s1);
        *pa = s0 <= s1 ? a0 : a1;
        *pb = sw_madd(*pa, -dist, c->n);
        *gap = sw_scale(c->n, dist);
        return dist;
    }
    }
    *pa = best.pa;
    *pb = best.pb;
    *gap = best.gap;
    return sw_sqrt(best.dist_sq);
}

/* ---- contact normal ---------------------------------------------------------- */

static sw_vec3 without_component(sw_vec3 v, sw_vec3 axis)
{
    if (sw_normalize(&axis) == 0) {
        return v;
    }
    return sw_madd(v, -sw_dot(v, axis), axis);
}

static sw_vec3 feature_normal(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_vec3 pa, sw_vec3 pb, sw_vec3 gap,
                              sw_real tol)
{
    if (c->kind == SW_CORE_PLANE) {
        return c->n;
    }
    sw_vec3 g = gap;
    if (sw_normalize(&g) == 0) {
        return g;
    }
    const sw_feature f = sw_core_feature(c, pb, tol);
    if (f.kind == SW_FEATURE_FACE && c->kind == SW_CORE_POLYGON) {
        return sw_dot(gap, c->n) >= 0 ? c->n : sw_neg(c->n);
    }
    if (f.kind == SW_FEATURE_FACE && c->kind == SW_CORE_BOX) {
        const int axis = f.index / 2;
        /* The side A is on (a flat box has both faces at one place). */
        const sw_real side = comp(gap, axis) != 0 ? (comp(gap, axis) > 0 ? 1 : -1) : (f.index % 2 ? 1 : -1);
        return sw_v3(axis == 0 ? side : 0, axis == 1 ? side : 0, axis == 2 ? side : 0);
    }
    if (f.kind == SW_FEATURE_FACE && c->kind == SW_CORE_HULL) {
        return c->hull->faces[f.index].normal;
    }
    /* Directions along A's segment (at an interior point) and along B's
     * edge are rounding noise in the gap: remove them. */
    const sw_vec3 ea = sw_sub(a1, a0);
    bool a_side =
        sw_length_sq(ea) > 0 && sw_length_sq(sw_sub(pa, a0)) > tol * tol && sw_length_sq(sw_sub(pa, a1)) > tol * tol;
    if (!a_side && sw_length_sq(ea) > 0) {
        /* A closest point at (within tol of) one of A's ends is the closest
         * only if the gap lies in that end's normal cone. If it leans toward
         * the other end, the closest point is just inside A's segment (a near
         * tie of distances that the end won by rounding), and the normal is
         * that of A's side: else A's other end reaches below the contact
         * plane by its length times the lean. */
        const bool end0 = sw_length_sq(sw_sub(pa, a0)) <= sw_length_sq(sw_sub(pa, a1));
        a_side = sw_dot(gap, end0 ? ea : sw_neg(ea)) < 0;
    }
    bool b_edge = f.kind == SW_FEATURE_EDGE;
    sw_vec3 eb = sw_v3(0, 0, 0);
    if (b_edge) {
        if (c->kind == SW_CORE_SEGMENT) {
            eb = sw_sub(c->v[c->count - 1], c->v[0]);
        } else if (c->kind == SW_CORE_POLYGON) {
            eb = sw_sub(c->v[f.index + 1 < c->count ? f.index + 1 : 0], c->v[f.index]);
        } else if (c->kind == SW_CORE_HULL) {
            const sw_hull_edge* edge = &c->hull->edges[f.index];
            eb = sw_sub(hull_vertex(c, edge->v[1]), hull_vertex(c, edge->v[0]));
        } else {
            const int axis = f.index / 4;
            eb = sw_v3(axis == 0, axis == 1, axis == 2);
        }
    }
    if (c->kind == SW_CORE_BOX && f.kind == SW_FEATURE_VERTEX) {
        /* A box's vertex that won a near tie with a point of an edge beside
         * it (the closest point within tol of the vertex): a gap leaning
         * across one of the vertex's faces (its component there of the
         * wrong sign) leaves the vertex's normal cone, and the box reaches
         * past the contact plane by its size times the lean. The closest
         * feature is then the edge along that axis (finding 29). */
        const sw_vec3 v = c->v[f.index];
        for (int k = 0; k < 3 && !b_edge; ++k) {
            if (comp(c->half, k) > 0 && comp(gap, k) * comp(v, k) < 0) {
                b_edge = true;
                eb = sw_v3(k == 0, k == 1, k == 2);
            }
        }
    }
    if (c->kind == SW_CORE_POLYGON && f.kind == SW_FEATURE_VERTEX) {
        /* The same for a polygon's vertex: a gap leaning along one of the
         * vertex's edges leaves its normal cone (a capsule landing across
         * a triangle's edge 7e-10 from its vertex: the closest points tied
         * at 0.5 and the vertex's tilted normal left the far end 2.3e-8
         * past the contact plane, fuzz finding 49). */
        const int i = f.index, n_v = c->count;
        const sw_vec3 v = c->v[i];
        const sw_vec3 next = sw_sub(c->v[i + 1 < n_v ? i + 1 : 0], v), prev = sw_sub(c->v[i > 0 ? i - 1 : n_v - 1], v);
        if (sw_dot(gap, next) > 0) {
            b_edge = true;
            eb = next;
        } else if (sw_dot(gap, prev) > 0) {
            b_edge = true;
            eb = prev;
        }
    }
    if (a_side && b_edge) {
        sw_vec3 n = sw_cross(ea, eb);
        if (sw_normalize(&n) > 1e-3 * sw_length(ea) * sw_length(eb)) {
            return sw_dot(n, gap) >= 0 ? n : sw_neg(n);
        }
    }
    sw_vec3 n = gap;
    if (a_side) {
        n = without_component(n, ea);
    }
    if (b_edge) {
        n = without_component(n, eb);
    }
    /* Keep the direction inside the feature's normal cone: a closest point
     * found on an edge by rounding (its foot was on the face by a hair) must
     * not tilt the normal inward, where the rest of B would stick out. */
    if (c->kind == SW_CORE_POLYGON && f.kind == SW_FEATURE_EDGE && !a_side) {
        const sw_vec3 out = sw_cross(eb, c->n);
        if (sw_dot(n, out) < 0) {
            n = without_component(n, out);
        }
    }
    if (c->kind == SW_CORE_POLYGON && f.kind == SW_FEATURE_VERTEX && !a_side) {
        /* The same for a polygon's vertex: a point of an edge beside it,
         * rounded onto the vertex, leaves a gap leaning along that edge,
         * and the edge's far end then sticks out past the contact plane by
         * its length times the lean (a triangle 19 long and 0.001 wide). */
        const int i = f.index;
        const sw_vec3 along[2] = {sw_sub(c->v[i + 1 < c->count ? i + 1 : 0], c->v[i]),
                                  sw_sub(c->v[i > 0 ? i - 1 : c->count - 1], c->v[i])};
        for (int k = 0; k < 2; ++k) {
            if (sw_dot(n, along[k]) > 0) {
                n = without_component(n, along[k]);
            }
        }
    }
    if (c->kind == SW_CORE_SEGMENT && c->count == 2 && f.kind == SW_FEATURE_VERTEX && !a_side) {
        /* The same for a segment's end (also a sliver's): the gap of a
         * point within tol of the end but beside the edge, computed in a
         * frame far from it, can lean toward the other end, and a long
         * segment then sticks out past the contact plane by its length
         * times that lean. */
        const int end = sw_length_sq(sw_sub(pb, c->v[0])) <= sw_length_sq(sw_sub(pb, c->v[1])) ? 0 : 1;
        if (sw_length_sq(sw_sub(pb, c->v[end])) <= tol * tol) {
            const sw_vec3 along = sw_sub(c->v[1 - end], c->v[end]);
            if (sw_dot(n, along) > 0) {
                n = without_component(n, along);
            }
        }
    }
    if (c->kind == SW_CORE_HULL && f.kind == SW_FEATURE_EDGE && !a_side) {
        /* The same for a hull's edge: not into either of its faces. */
        sw_vec3 w[2];
        hull_edge_wings(c, f.index, w);
        for (int i = 0; i < 2; ++i) {
            if (sw_dot(n, w[i]) > 0) {
                n = without_component(n, w[i]);
            }
        }
    }
    return sw_normalize(&n) > 0 ? n : g;
}

sw_vec3 sw_core_contact_normal(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_vec3 pa, sw_vec3 pb, sw_vec3 gap,
                               sw_real tol)
{
    const sw_vec3 n = feature_normal(c, a0, a1, pa, pb, gap, tol);
    sw_vec3 g = gap;
    if ((c->kind != SW_CORE_HULL && c->kind != SW_CORE_BOX) || sw_normalize(&g) == 0) {
        return n;
    }
    /* A hull or box thinner than tol (a needle seen from afar) has features
     * within tol of the contact whose normals are far from the gap's (a
     * box's face normal where the gap leaves it at 45 degrees), and a short
     * gap between a hull's points far from the origin has a rounded
     * direction that its features correct: of the two, the one along which
     * the segment sits clearer of the hull is the normal. */
    const sw_real push_n = sw_core_support(c, n) - sw_min(sw_dot(n, a0), sw_dot(n, a1));
    const sw_real push_g = sw_core_support(c, g) - sw_min(sw_dot(g, a0), sw_dot(g, a1));
    return push_n <= push_g ? n : g;
}

/* ---- penetration (separating axes) ----------------------------------------- */

typedef struct axis_search {
    sw_real depth;
    sw_vec3 n;
    bool found;
} axis_search;

/* Projection interval of B's core on the unit axis l. */
static void core_interval(const sw_core* c, sw_vec3 l, sw_real* lo, sw_real* hi)
{
    if (c->kind == SW_CORE_BOX) {
        const sw_real r = c->half.x * sw_abs(l.x) + c->half.y * sw_abs(l.y) + c->half.z * sw_abs(l.z);
        *lo = -r;
        *hi = r;
        return;
    }
    if (c->kind == SW_CORE_HULL) {
        *lo = *hi = sw_dot(hull_vertex(c, 0), l);
        for (int i = 1; i < c->hull->vertex_count; ++i) {
            const sw_real p = sw_dot(hull_vertex(c, i), l);
            *lo = sw_min(*lo, p);
            *hi = sw_max(*hi, p);
        }
        return;
    }
    *lo = *hi = sw_dot(c->v[0], l);
    for (int i = 1; i < c->count; ++i) {
        const sw_real p = sw_dot(c->v[i], l);
        *lo = sw_min(*lo, p);
        *hi = sw_max(*hi, p);
    }
}

sw_real sw_core_support(const sw_core* c, sw_vec3 n)
{
    if (c->kind == SW_CORE_HULL) {
        sw_real hi = sw_dot(hull_vertex(c, 0), n);
        for (int i = 1; i < c->hull->vertex_count; ++i) {
            hi = sw_max(hi, sw_dot(hull_vertex(c, i), n));
        }
        return hi;
    }
    sw_real lo, hi;
    core_interval(c, n, &lo, &hi);
    return hi;
}

/* a x b accurate to its own length, scaled to a largest component of 1:
 * the axis perpendicular to two nearly parallel edges. The plain product
 * of two segments 1e4 long at 2e-6 rad tilts it by about 1e-12 rad, and A's
 * projection on the tilted axis is then 1e-8 wide where it should be a
 * point: a depth of 1e-8 for segments that merely touch. */
static sw_vec3 cross_axis(sw_vec3 a, sw_vec3 b)
{
    const sw_wvec c = sw_wcross_acc(sw_wv(a), sw_wv(b));
    const sw_wide m = sw_wmax_abs(c);
    if (!(m > 0)) {
        return sw_v3(0, 0, 0);
    }
    return sw_wv_narrow((sw_wvec){c.x / m, c.y / m, c.z / m});
}

/* Tries the axis l (any length): the shorter of pushing A along +l or -l. */
static void try_axis(axis_search* s, const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_vec3 l)
{
    if (sw_normalize(&l) == 0) {
        return;
    }
    sw_real blo, bhi;
    core_interval(c, l, &blo, &bhi);
    const sw_real p0 = sw_dot(a0, l), p1 = sw_dot(a1, l);
    const sw_real alo = sw_min(p0, p1), ahi = sw_max(p0, p1);
    const sw_real up = bhi - alo, down = ahi - blo;
    const sw_real depth = sw_min(up, down);
    if (!s->found || depth < s->depth) {
        s->found = true;
        s->depth = depth;
        s->n = up <= down ? l : sw_neg(l);
    }
}

sw_real sw_core_axis_depth(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_vec3* n)
{
    axis_search s = {0, {0, 0, 1}, false};
    const sw_vec3 ea = sw_sub(a1, a0);
    switch (c->kind) {
    case SW_CORE_SEGMENT: {
        /* Two segments that meet span a flat (or thinner) Minkowski
         * difference: the way out is perpendicular to both, along their
         * cross product, which is noise for a nearly parallel pair. So the
         * separating-axis search also tries the two directions
         * perpendicular to each segment and keeps the shortest. */
        const sw_vec3 eb = sw_sub(c->v[c->count - 1], c->v[0]);
        try_axis(&s, c, a0, a1, cross_axis(ea, eb));
        const sw_vec3 edges[2] = {ea, eb};
        for (int i = 0; i < 2; ++i) {
            sw_vec3 e = edges[i];
            if (sw_normalize(&e) > 0) {
                const sw_vec3 p = sw_any_perpendicular(e);
                try_axis(&s, c, a0, a1, p);
                try_axis(&s, c, a0, a1, sw_cross(e, p));
            }
        }
        break;
    }
    case SW_CORE_POLYGON:
        try_axis(&s, c, a0, a1, c->n);
        for (int i = 0; i < c->count; ++i) {
            const sw_vec3 e = sw_sub(c->v[i + 1 < c->count ? i + 1 : 0], c->v[i]);
            try_axis(&s, c, a0, a1, cross_axis(ea, e));
            /* In-plane edge normals: what separates a shape touching the
             * polygon's rim from the side. */
            try_axis(&s, c, a0, a1, sw_cross(e, c->n));
        }
        break;
    case SW_CORE_BOX:
        for (int k = 0; k < 3; ++k) {
            const sw_vec3 axis = sw_v3(k == 0, k == 1, k == 2);
            try_axis(&s, c, a0, a1, axis);
            try_axis(&s, c, a0, a1, sw_cross(ea, axis));
        }
        break;
    case SW_CORE_PLANE:
        /* Half-spaces are answered from their signed distance instead. */
        s.found = true;
        s.n = c->n;
        break;
    case SW_CORE_HULL: {
        /* The facets of the Minkowski difference of the hull and A's
         * segment: the hull's faces (only outward: B's support along a face
         * normal is the face) and, for each edge on the hull's silhouette
         * seen along the segment (its faces' normals on either side of the
         * plane perpendicular to it), the edge crossed with the segment. */
        for (int f = 0; f < c->hull->face_count; ++f) {
            sw_vec3 fn;
            const sw_real up = hull_face_plane(c, f, &fn) - sw_min(sw_dot(fn, a0), sw_dot(fn, a1));
            if (!s.found || up < s.depth) {
                s.found = true;
                s.depth = up;
                s.n = fn;
            }
        }
        if (ea.x == 0 && ea.y == 0 && ea.z == 0) {
            break;
        }
        for (int e = 0; e < c->hull->edge_count; ++e) {
            const sw_hull_edge* edge = &c->hull->edges[e];
            const sw_real s0 = sw_dot(c->hull->faces[edge->face[0]].normal, ea);
            const sw_real s1 = sw_dot(c->hull->faces[edge->face[1]].normal, ea);
            if ((s0 > 0 && s1 > 0) || (s0 < 0 && s1 < 0)) {
                continue;
            }
            const sw_vec3 eb = sw_sub(hull_vertex(c, edge->v[1]), hull_vertex(c, edge->v[0]));
            try_axis(&s, c, a0, a1, cross_axis(ea, eb));
        }
        break;
    }
    }
    if (!s.found) {
        /* Both cores are points or parallel segments (or a sliver polygon
         * seen edge-on): every direction perpendicular to them is as short. */
        sw_vec3 e = ea;
        if (sw_normalize(&e) == 0 && c->kind != SW_CORE_BOX) {
            e = sw_sub(c->v[c->count > 1 ? 1 : 0], c->v[0]);
            sw_normalize(&e);
        }
        s.n = (e.x != 0 || e.y != 0 || e.z != 0) ? sw_any_perpendicular(e) : sw_v3(0, 0, 1);
    }
    *n = s.n;
    return s.depth;
}

/* ---- first contact ------------------------------------------------------------ */

/* Point f moving by d against the box face on axis k, side s (+1 or -1),
 * pushed out by r, the face taken `slack` wider (the rounding of the
 * entry point, a few ulps): a point (r = 0) entering through an edge or
 * corner, which rounding puts just beside every face, meets no face
 * otherwise, and a zero-radius edge or vertex never. */
static void cast_point_box_face(sw_contact* best, const sw_core* c, sw_vec3 f, sw_vec3 d, int k, sw_real s, sw_real r,
                                sw_real slack)
{
    const sw_real gap = s * comp(f, k) - comp(c->half, k) - r;
    const sw_real closing = -s * comp(d, k);
    /* gap <= 0: within reach already by rounding, a contact at t = 0. */
    if (!(closing > 0) || gap > closing) {
        return;
    }
    const sw_real t = gap > 0 ? gap / closing : 0;
    const sw_vec3 at = sw_madd(f, t, d);
    for (int j = 0; j < 3; ++j) {
        if (j != k && sw_abs(comp(at, j)) > comp(c->half, j) + slack) {
            return;
        }
    }
    sw_contact_keep(best, t, sw_v3(k == 0 ? s : 0, k == 1 ? s : 0, k == 2 ? s : 0), at);
}

/* Point f moving by d against the polygon, box or segment core inflated by
 * r: the earliest contact over the core's faces (offset planes), edges
 * (cylinders) and vertices (balls).
 *
 * A contact whose normal lies in the normal cone of the feature that made
 * it is a point of the inflated core's boundary reached moving inward, and
 * a straight path enters a convex set only once: that contact is the first
 * and the search stops. The cones are tested with a little slack so that a
 * contact on the seam of two features is never refused by both; the time
 * of a contact accepted within the slack differs from the true one only at
 * second order (the surfaces meet tangentially there). */
typedef struct point_cast {
    sw_contact best;
    bool done;
} point_cast;

static void offer(point_cast* pc, const sw_contact* c, bool in_cone)
{
    if (!c->hit) {
        return;
    }
    sw_contact_keep(&pc->best, c->t, c->normal, c->pa);
    if (in_cone) {
        pc->best = *c;
        pc->done = true;
    }
}

/* Slack of the cone tests, for dot products with vectors of length ~len. */
static sw_real cone_slack(sw_real len) { return 64 * SW_EPSILON * len; }

/* Clips the path f + t d, t in [lo, hi] within [0, 1], to the half-space
 * u . x <= limit; returns false when nothing is left. Divides only when the
 * quotient lands inside [lo, hi], so nothing overflows. */
static bool clip_path(sw_real* lo, sw_real* hi, sw_vec3 f, sw_vec3 d, sw_vec3 u, sw_real limit)
{
    const sw_real start = sw_dot(u, f) - limit, rate = sw_dot(u, d);
    if (rate > 0) {
        /* t <= -start / rate */
        if (-start < *lo * rate) {
            return false;
        }
        if (-start < *hi * rate) {
            *hi = -start / rate;
        }
    } else if (rate < 0) {
        /* t >= start / -rate */
        if (start > *hi * -rate) {
            return false;
        }
        if (start > *lo * -rate) {
            *lo = start / -rate;
        }
    } else if (start > 0) {
        return false;
    }
    return true;
}

static void cast_point_polygon(point_cast* pc, const sw_core* c, sw_vec3 f, sw_vec3 d, sw_real r)
{
    const bool flat = c->n.x != 0 || c->n.y != 0 || c->n.z != 0;
    sw_contact k = {0};
    /* Outward in-plane edge normals: edge x n (the polygon winds around n). */
    sw_vec3 out[SW_MAX_POLYGON_VERTICES];
    sw_real out_len[SW_MAX_POLYGON_VERTICES];
    for (int i = 0; i < c->count; ++i) {
        const sw_vec3 e = sw_sub(c->v[i + 1 < c->count ? i + 1 : 0], c->v[i]);
        out[i] = sw_cross(e, c->n);
        out_len[i] = sw_length(out[i]);
    }
    if (flat) {
        /* The inflated polygon lies in the slab |n . x| <= r and inside every
         * bounding edge's plane pushed out by r: a path that misses that
         * prism (with a little slack for rounding) misses it. */
        /* The slack covers the rounding of the tests, which grows with the
         * polygon, the point's distance and the path's length. */
        const sw_real grow = r * (1 + 64 * SW_EPSILON) + cone_slack(c->extent + sw_max_abs(f) + sw_max_abs(d));
        sw_real lo = 0, hi = 1;
        if (!clip_path(&lo, &hi, f, d, c->n, grow) || !clip_path(&lo, &hi, f, d, sw_neg(c->n), grow)) {
            return;
        }
        for (int i = 0; i < c->count; ++i) {
            const sw_real limit = sw_dot(out[i], c->v[i]) + grow * out_len[i];
            if ((c->bounds >> i & 1) && !clip_path(&lo, &hi, f, d, out[i], limit)) {
                return;
            }
        }
        sw_cast_point_polygon_face(&k, f, d, c->v, c->count, c->n, r, true);
        sw_cast_point_polygon_face(&k, f, d, c->v, c->count, c->n, r, true);
        offer(pc, &k, true);
        if (pc->done) {
            return;
        }
    }
    for (int i = 0; i < c->count; ++i) {
        k.hit = false;
        sw_cast_point_cylinder(&k, f, d, c->v[i], c->v[i + 1 < c->count ? i + 1 : 0], r);
        offer(pc, &k, flat && (c->bounds >> i & 1) && sw_dot(k.normal, out[i]) >= -cone_slack(out_len[i]));
        if (pc->done) {
            return;
        }
    }
    for (int i = 0; i < c->count; ++i) {
        k.hit = false;
        sw_cast_point_ball(&k, f, d, c->v[i], r);
        /* A vertex's cone: directions in which it is the support point,
         * i.e. pointing away from both neighbours: the nearest vertices
         * along the boundary that are not copies of it (a repeated vertex
         * would otherwise stand in for a neighbour and open the cone to
         * every direction on that side, finding 26), and only where the
         * edges to them bound the polygon. */
        int in = i, ip = i;
        for (int step = 1; step < c->count && sw_internal_same_point(c->v[in], c->v[i]); ++step) {
            in = (i + step) % c->count;
        }
        for (int step = 1; step < c->count && sw_internal_same_point(c->v[ip], c->v[i]); ++step) {
            ip = (i - step + c->count) % c->count;
        }
        const sw_vec3 next = c->v[in], prev = c->v[ip];
        const sw_real len_next = sw_length(sw_sub(next, c->v[i])), len_prev = sw_length(sw_sub(prev, c->v[i]));
        const bool bound = (c->bounds >> ip & 1) && (c->bounds >> (in > 0 ? in - 1 : c->count - 1) & 1);
        offer(pc, &k,
              flat && bound && sw_dot(k.normal, sw_sub(next, c->v[i])) <= cone_slack(len_next) &&
                  sw_dot(k.normal, sw_sub(prev, c->v[i])) <= cone_slack(len_prev));
        if (pc->done) {
            return;
        }
    }
}

static void cast_point_box(point_cast* pc, const sw_core* c, sw_vec3 f, sw_vec3 d, sw_real r)
{
    sw_contact k = {0};
    /* The inflated box lies inside the box grown by r on every axis: a path
     * that misses the grown box (slabs, with slack) misses it. */
    sw_real lo = 0, hi = 1;
    const sw_real size = c->extent + sw_max_abs(f) + sw_max_abs(d);
    const sw_real grow = r * (1 + 64 * SW_EPSILON) + cone_slack(size);
    for (int axis = 0; axis < 3; ++axis) {
        const sw_vec3 u = sw_v3(axis == 0, axis == 1, axis == 2);
        if (!clip_path(&lo, &hi, f, d, u, comp(c->half, axis) + grow) ||
            !clip_path(&lo, &hi, f, d, sw_neg(u), comp(c->half, axis) + grow)) {
            return;
        }
    }
    for (int axis = 0; axis < 3; ++axis) {
        /* Only the face the point is outside of, on each axis. */
        cast_point_box_face(&k, c, f, d, axis, comp(f, axis) > 0 ? 1 : -1, r, 4 * SW_EPSILON * size);
        offer(pc, &k, true);
        if (pc->done) {
            return;
        }
    }
    const sw_real slack = cone_slack(1);
    for (int e = 0; e < 12; ++e) {
        int i0, i1;
        box_edge(e, &i0, &i1);
        k.hit = false;
        sw_cast_point_cylinder(&k, f, d, c->v[i0], c->v[i1], r);
        /* The cone of an edge: outward on both of its faces' axes. */
        const int axis = e / 4, u = (axis + 1) % 3, w = (axis + 2) % 3;
        const sw_real su = (e & 1) ? 1 : -1, sv = (e & 2) ? 1 : -1;
        offer(pc, &k, su * comp(k.normal, u) >= -slack && sv * comp(k.normal, w) >= -slack);
        if (pc->done) {
            return;
        }
    }
    for (int i = 0; i < 8; ++i) {
        k.hit = false;
        sw_cast_point_ball(&k, f, d, c->v[i], r);
        offer(pc, &k,
              (i & 1 ? 1 : -1) * k.normal.x >= -slack && (i & 2 ? 1 : -1) * k.normal.y >= -slack &&
                  (i & 4 ? 1 : -1) * k.normal.z >= -slack);
        if (pc->done) {
            return;
        }
    }
}

static void cast_point_segment(point_cast* pc, const sw_core* c, sw_vec3 f, sw_vec3 d, sw_real r)
{
    sw_contact k = {0};
    const sw_vec3 b0 = c->v[0], b1 = c->v[c->count - 1];
    if (c->count == 1) {
        sw_cast_point_ball(&k, f, d, b0, r);
        offer(pc, &k, true);
        return;
    }
    /* The side of a single segment's inflation is all boundary. */
    sw_cast_point_cylinder(&k, f, d, b0, b1, r);
    offer(pc, &k, true);
    if (pc->done) {
        return;
    }
    const sw_vec3 e = sw_sub(b1, b0);
    const sw_real slack = cone_slack(sw_length(e));
    k.hit = false;
    sw_cast_point_ball(&k, f, d, b0, r);
    offer(pc, &k, sw_dot(k.normal, e) <= slack);
    if (pc->done) {
        return;
    }
    k.hit = false;
    sw_cast_point_ball(&k, f, d, b1, r);
    offer(pc, &k, sw_dot(k.normal, e) >= -slack);
}

/* Whether the unit n lies in hull vertex i's normal cone (within the
 * slack): pointing away from every neighbour. */
static bool hull_vertex_cone(const sw_core* c, int i, sw_vec3 n)
{
    const sw_vec3 v = hull_vertex(c, i);
    for (int e = 0; e < c->hull->edge_count; ++e) {
        const sw_hull_edge* edge = &c->hull->edges[e];
        if (edge->v[0] != i && edge->v[1] != i) {
            continue;
        }
        const sw_vec3 out = sw_sub(hull_vertex(c, edge->v[0] == i ? edge->v[1] : edge->v[0]), v);
        if (sw_dot(n, out) > cone_slack(sw_length(out))) {
            return false;
        }
    }
    return true;
}

/* Distance from the point f + t d to the hull (0 inside), and the gap. */
static sw_real hull_point_distance(const sw_core* c, sw_vec3 f, sw_vec3 d, sw_real t, sw_vec3* gap)
{
    const sw_vec3 p = sw_madd(f, t, d);
    sw_vec3 pa, pb;
    return sw_core_closest(c, p, p, &pa, &pb, gap);
}

/* A merged hull's faces are planar only within its tolerance, so their
 * planes can stand off the edges they share, leaving gaps that no face,
 * cylinder or ball covers when the reach is smaller: a point the kernels
 * let through is checked against the hull itself along its chord through
 * the faces' planes pushed out by r (the distance is convex along it):
 * the first time it comes within r, if it does. */
static void cast_point_hull_gaps(point_cast* pc, const sw_core* c, sw_vec3 f, sw_vec3 d, sw_real r)
{
    sw_real lo = 0, hi = 1;
    for (int i = 0; i < c->hull->face_count; ++i) {
        sw_vec3 n;
        const sw_real off = hull_face_plane(c, i, &n);
        if (!clip_path(&lo, &hi, f, d, n, off + r)) {
            return;
        }
    }
    sw_vec3 gap;
    /* The nearest approach on [lo, hi] (golden section), stopping at a time
     * within r. */
    const sw_real golden = SW_R(0.6180339887498949);
    sw_real a = lo, b = hi, inside = -1;
    sw_real x1 = b - golden * (b - a), x2 = a + golden * (b - a);
    sw_real d1 = hull_point_distance(c, f, d, x1, &gap), d2 = hull_point_distance(c, f, d, x2, &gap);
    for (int i = 0; i < 48 && inside < 0 && b > a; ++i) {
        if (d1 <= r || d2 <= r) {
            inside = d1 <= r ? x1 : x2;
        } else if (d1 <= d2) {
            b = x2, x2 = x1, d2 = d1;
            x1 = b - golden * (b - a);
            d1 = hull_point_distance(c, f, d, x1, &gap);
        } else {
            a = x1, x1 = x2, d1 = d2;
            x2 = a + golden * (b - a);
            d2 = hull_point_distance(c, f, d, x2, &gap);
        }
    }
    if (inside < 0) {
        return;
    }
    /* The first time within r: the distance falls until then. */
    a = lo;
    b = inside;
    if (hull_point_distance(c, f, d, a, &gap) <= r) {
        b = a;
    }
    for (int i = 0; i < 48 && b > a; ++i) {
        const sw_real m = a + (b - a) / 2;
        if (!(m > a && m < b)) {
            break;
        }
        if (hull_point_distance(c, f, d, m, &gap) <= r) {
            b = m;
        } else {
            a = m;
        }
    }
    /* The normal: the gap just before. */
    hull_point_distance(c, f, d, a, &gap);
    sw_vec3 n = gap;
    if (sw_normalize(&n) == 0) {
        n = sw_internal_fallback_normal(d);
    }
    sw_contact k = {0};
    sw_contact_keep(&k, b, n, sw_madd(f, b, d));
    offer(pc, &k, false);
}

static void cast_point_hull(point_cast* pc, const sw_core* c, sw_vec3 f, sw_vec3 d, sw_real r)
{
    const sw_hull* h = c->hull;
    sw_contact k = {0};
    const sw_real size = c->extent + sw_max_abs(f) + sw_max_abs(d);
    /* A point crossing an edge or a vertex exactly (with no reach to meet
     * its cylinder or ball) must not slip between the faces sharing it: the
     * face test takes a point that near the polygon (the rounding of its
     * position), and no nearer, as a point beside it enters later through
     * the next face, the more so the shallower that face is. */
    const sw_real edge_slack = 4 * SW_EPSILON * size;
    /* The inflated hull lies inside every face's plane pushed out by r: a
     * path that misses that polytope (with slack) misses it. A contact over
     * a face the point is in front of is on the inflated hull's boundary,
     * hence first. */
    const sw_real grow = r * (1 + 64 * SW_EPSILON) + cone_slack(size) + c->hull_tol;
    sw_real lo = 0, hi = 1;
    for (int i = 0; i < h->face_count; ++i) {
        sw_vec3 n;
        const sw_real off = hull_face_plane(c, i, &n);
        if (!clip_path(&lo, &hi, f, d, n, off + grow)) {
            return;
        }
        const sw_real above = sw_dot(n, f) - off;
        const sw_real gap = above - r, closing = -sw_dot(d, n);
        /* gap <= 0: within reach already by rounding, a contact at t = 0. */
        if (!(above > 0) || !(closing > 0) || gap > closing) {
            continue;
        }
        const sw_real t = gap > 0 ? gap / closing : 0;
        const sw_vec3 at = sw_madd(f, t, d);
        if (hull_face_contains(c, i, n, at, edge_slack)) {
            k.hit = false;
            sw_contact_keep(&k, t, n, at);
            offer(pc, &k, true);
            return;
        }
    }
    /* Only the part of the path inside that polytope can meet an edge's
     * cylinder or a vertex's ball: one whose bounding ball that part passes
     * by farther than the reach (with slack) is not tried. */
    const sw_segment path = {sw_madd(f, lo, d), sw_madd(f, hi, d)};
    const sw_vec3 pmid = sw_scale(sw_add(path.a, path.b), SW_R(0.5));
    const sw_real near = cone_slack(size), half = sw_length(sw_sub(path.b, path.a)) / 2;
    for (int e = 0; e < h->edge_count; ++e) {
        const sw_hull_edge* edge = &h->edges[e];
        const sw_vec3 p = hull_vertex(c, edge->v[0]), q = hull_vertex(c, edge->v[1]);
        const sw_vec3 mid = sw_scale(sw_add(p, q), SW_R(0.5));
        const sw_real ball = (r + sw_length(sw_sub(q, p)) / 2) * (1 + 64 * SW_EPSILON) + near;
        /* The two bounding balls, then the path itself. */
        if (sw_distance_sq(mid, pmid) > (ball + half) * (ball + half) ||
            sw_distance_sq(mid, sw_closest_point_segment(mid, &path, NULL)) > ball * ball) {
            continue;
        }
        k.hit = false;
        sw_cast_point_cylinder(&k, f, d, p, q, r);
        if (!k.hit) {
            continue;
        }
        sw_vec3 w[2];
        hull_edge_wings(c, e, w);
        const sw_real slack = cone_slack(sw_length(sw_sub(q, p)));
        offer(pc, &k, sw_dot(k.normal, w[0]) <= slack && sw_dot(k.normal, w[1]) <= slack);
        if (pc->done) {
            return;
        }
    }
    const sw_real ball = r * (1 + 64 * SW_EPSILON) + near;
    for (int i = 0; i < h->vertex_count; ++i) {
        const sw_vec3 v = hull_vertex(c, i);
        if (sw_distance_sq(v, sw_closest_point_segment(v, &path, NULL)) > ball * ball) {
            continue;
        }
        k.hit = false;
        sw_cast_point_ball(&k, f, d, v, r);
        if (k.hit) {
            offer(pc, &k, hull_vertex_cone(c, i, k.normal));
            if (pc->done) {
                return;
            }
        }
    }
    if (!pc->best.hit && r < c->hull_tol + edge_slack) {
        cast_point_hull_gaps(pc, c, f, d, r);
    }
}

static void cast_point_core(sw_contact* best, const sw_core* c, sw_vec3 f, sw_vec3 d, sw_real r)
{
    point_cast pc = {{0}, false};
    switch (c->kind) {
    case SW_CORE_SEGMENT:
        cast_point_segment(&pc, c, f, d, r);
        break;
    case SW_CORE_POLYGON:
        cast_point_polygon(&pc, c, f, d, r);
        break;
    case SW_CORE_BOX:
        cast_point_box(&pc, c, f, d, r);
        break;
    case SW_CORE_HULL:
        cast_point_hull(&pc, c, f, d, r);
        break;
    case SW_CORE_PLANE:
        break;
    }
    if (pc.best.hit) {
        sw_contact_keep(best, pc.best.t, pc.best.normal, pc.best.pa);
    }
}

sw_contact sw_core_first_contact(const sw_core* c, sw_vec3 a0, sw_vec3 a1, sw_vec3 d, sw_real r)
{
    sw_contact best = {0};
    if (c->kind == SW_CORE_PLANE) {
        /* The lower end point stays lowest under a translation. */
        const sw_real s0 = sw_dot(a0, c->n), s1 = sw_dot(a1, c->n);
        const sw_vec3 low = s0 <= s1 ? a0 : a1;
        const sw_real gap = sw_min(s0, s1) - r;
        const sw_real closing = -sw_dot(d, c->n);
        if (gap > 0 && closing > 0 && gap <= closing) {
            const sw_real t = gap / closing;
            sw_contact_keep(&best, t, c->n, sw_madd(low, t, d));
        }
        return best;
    }
    const bool a_is_point = sw_internal_same_point(a0, a1);
    if (c->kind == SW_CORE_HULL) {
        /* The segment's sweep stays within half its length of its midpoint's
         * path: a path that passes the hull's bounding ball by more than
         * that (and the reach, with slack) meets nothing. */
        const sw_vec3 mid = sw_scale(sw_add(a0, a1), SW_R(0.5));
        const sw_segment path = {mid, sw_add(mid, d)};
        const sw_vec3 q = sw_closest_point_segment(sw_v3(0, 0, 0), &path, NULL);
        const sw_real ball = (c->extent + r + sw_length(sw_sub(a1, a0)) / 2) * (1 + 64 * SW_EPSILON) +
                             cone_slack(sw_max_abs(mid) + sw_max_abs(d));
        if (sw_length_sq(q) > ball * ball) {
            return best;
        }
    }
    /* Two segment cores: an edge-edge contact lies on a flat face of their
     * inflated Minkowski difference, hence on its boundary, so it is first
     * and the other feature pairs need no test. */
    if (c->kind == SW_CORE_SEGMENT && !a_is_point && c->count == 2) {
        sw_cast_edge_edge(&best, a0, a1, d, c->v[0], c->v[1], r);
        if (best.hit) {
            return best;
        }
    }
    /* A's end points against B's core. */
    cast_point_core(&best, c, a0, d, r);
    if (a_is_point) {
        return best;
    }
    cast_point_core(&best, c, a1, d, r);
    /* B's vertices against A's side, B's edges against A's edge. */
    switch (c->kind) {
    case SW_CORE_SEGMENT:
        for (int i = 0; i < c->count; ++i) {
            sw_cast_vertex_cylinder(&best, c->v[i], a0, a1, d, r);
        }
        break;
    case SW_CORE_POLYGON:
        for (int i = 0; i < c->count; ++i) {
            sw_cast_vertex_cylinder(&best, c->v[i], a0, a1, d, r);
            sw_cast_edge_edge(&best, a0, a1, d, c->v[i], c->v[i + 1 < c->count ? i + 1 : 0], r);
        }
        break;
    case SW_CORE_BOX:
        for (int i = 0; i < 8; ++i) {
            sw_cast_vertex_cylinder(&best, c->v[i], a0, a1, d, r);
        }
        for (int e = 0; e < 12; ++e) {
            int i0, i1;
            box_edge(e, &i0, &i1);
            sw_cast_edge_edge(&best, a0, a1, d, c->v[i0], c->v[i1], r);
        }
        break;
    case SW_CORE_HULL: {
        /* A's segment sweeps within half its length of its midpoint's path:
         * a vertex or edge whose bounding ball that path passes by farther
         * than the reach (with slack) meets neither A's side nor its edge. */
        const sw_vec3 mid = sw_scale(sw_add(a0, a1), SW_R(0.5));
        const sw_segment path = {mid, sw_add(mid, d)};
        const sw_real reach = (r + sw_length(sw_sub(a1, a0)) / 2) * (1 + 64 * SW_EPSILON) +
                              cone_slack(c->extent + sw_max_abs(mid) + sw_max_abs(d));
        for (int i = 0; i < c->hull->vertex_count; ++i) {
            const sw_vec3 v = hull_vertex(c, i);
            if (sw_distance_sq(v, sw_closest_point_segment(v, &path, NULL)) <= reach * reach) {
                sw_cast_vertex_cylinder(&best, v, a0, a1, d, r);
            }
        }
        for (int e = 0; e < c->hull->edge_count; ++e) {
            const sw_hull_edge* edge = &c->hull->edges[e];
            const sw_vec3 p = hull_vertex(c, edge->v[0]), q = hull_vertex(c, edge->v[1]);
            const sw_vec3 m = sw_scale(sw_add(p, q), SW_R(0.5));
            const sw_real ball = reach + sw_length(sw_sub(q, p)) / 2 * (1 + 64 * SW_EPSILON);
            if (sw_distance_sq(m, sw_closest_point_segment(m, &path, NULL)) <= ball * ball) {
                sw_cast_edge_edge(&best, a0, a1, d, p, q, r);
            }
        }
        break;
    }
    case SW_CORE_PLANE:
        break;
    }
    return best;
}

/* ---- features ----------------------------------------------------------------- */

/* The polygon's vertex, else edge, within tol of p (the nearest), else its
 * face. */
static sw_feature polygon_feature(const sw_vec3* v, int count, sw_vec3 p, sw_real tol)
{
    sw_feature f = {SW_FEATURE_VERTEX, 0};
    int best = -1;
    sw_real best_dist = tol * tol; /* squared distances */
    for (int i = 0; i < count; ++i) {
        const sw_real dist = sw_length_sq(sw_sub(p, v[i]));
        if (dist <= best_dist) {
            best = i;
            best_dist = dist;
        }
    }
    if (best >= 0) {
        f.index = best;
        return f;
    }
    best_dist = tol * tol;
    for (int i = 0; i < count; ++i) {
        const sw_segment e = {v[i], v[i + 1 < count ? i + 1 : 0]};
        const sw_real dist = sw_length_sq(sw_sub(p, sw_closest_point_segment(p, &e, NULL)));
        if (dist <= best_dist) {
            best = i;
            best_dist = dist;
        }
    }
    f.kind = best >= 0 ? SW_FEATURE_EDGE : SW_FEATURE_FACE;
    f.index = best >= 0 ? best : 0;
    return f;
}

/* The hull's vertex, else edge, within tol of p (the nearest), else the
 * face whose plane p is least below (the face p lies on, or the nearest
 * face of a point inside). */
static sw_feature hull_feature(const sw_core* c, sw_vec3 p, sw_real tol)
{
    const sw_hull* h = c->hull;
    sw_feature f = {SW_FEATURE_VERTEX, 0};
    int best = -1;
    sw_real best_dist = tol * tol; /* squared distances */
    for (int i = 0; i < h->vertex_count; ++i) {
        const sw_real dist = sw_length_sq(sw_sub(p, hull_vertex(c, i)));
        if (dist <= best_dist) {
            best = i;
            best_dist = dist;
        }
    }
    if (best >= 0) {
        f.index = best;
        return f;
    }
    best_dist = tol * tol;
    for (int i = 0; i < h->edge_count; ++i) {
        const sw_segment e = {hull_vertex(c, h->edges[i].v[0]), hull_vertex(c, h->edges[i].v[1])};
        /* Its bounding ball first. */
        const sw_real ball = sw_length(sw_sub(e.b, e.a)) / 2 + tol;
        if (sw_distance_sq(p, sw_scale(sw_add(e.a, e.b), SW_R(0.5))) > ball * ball * SW_R(1.0001)) {
            continue;
        }
        const sw_real dist = sw_length_sq(sw_sub(p, sw_closest_point_segment(p, &e, NULL)));
        if (dist <= best_dist) {
            best = i;
            best_dist = dist;
        }
    }
    if (best >= 0) {
        f.kind = SW_FEATURE_EDGE;
        f.index = best;
        return f;
    }
    f.kind = SW_FEATURE_FACE;
    sw_real best_height = 0;
    for (int i = 0; i < h->face_count; ++i) {
        sw_vec3 n;
        const sw_real off = hull_face_plane(c, i, &n);
        const sw_real height = sw_dot(n, p) - off;
        if (i == 0 || height > best_height) {
            f.index = i;
            best_height = height;
        }
    }
    /* Faces nearly in one plane are all about as high: the one p lies
     * over is p's. */
    for (int i = 0; i < h->face_count; ++i) {
        sw_vec3 n;
        const sw_real off = hull_face_plane(c, i, &n);
        if (sw_dot(n, p) - off >= best_height - tol && hull_face_contains(c, i, n, p, 0)) {
            f.index = i;
            break;
        }
    }
    return f;
}

sw_feature sw_core_feature(const sw_core* c, sw_vec3 p, sw_real tol)
{
    sw_feature f = {SW_FEATURE_NONE, 0};
    if (!c->has_features) {
        return f;
    }
    if (c->sliver_count > 0) {
        return polygon_feature(c->sliver, c->sliver_count, p, tol);
    }
    switch (c->kind) {
    case SW_CORE_SEGMENT: {
        f.kind = SW_FEATURE_VERTEX;
        if (c->count == 1 || sw_length_sq(sw_sub(p, c->v[0])) <= tol * tol) {
            return f;
        }
        f.index = 1;
        if (sw_length_sq(sw_sub(p, c->v[1])) <= tol * tol) {
            return f;
        }
        f.kind = SW_FEATURE_EDGE;
        f.index = 0;
        return f;
    }
    case SW_CORE_POLYGON:
        return polygon_feature(c->v, c->count, p, tol);
    case SW_CORE_BOX: {
        int on = 0, bits = 0, free_axis = 0, nearest = 0;
        sw_real nearest_gap = 0;
        for (int k = 0; k < 3; ++k) {
            const sw_real x = comp(p, k), h = comp(c->half, k);
            const sw_real gap = h - sw_abs(x);
            if (gap <= tol) {
                ++on;
                bits |= (x > 0) << k;
            } else {
                free_axis = k;
            }
            if (k == 0 || gap < nearest_gap) {
                nearest = k;
                nearest_gap = gap;
            }
        }
        if (on == 3) {
            f.kind = SW_FEATURE_VERTEX;
            f.index = bits;
        } else if (on == 2) {
            f.kind = SW_FEATURE_EDGE;
            f.index = 4 * free_axis + ((bits >> ((free_axis + 1) % 3)) & 1) + 2 * ((bits >> ((free_axis + 2) % 3)) & 1);
        } else {
            /* On one face, or inside (an overlap): the nearest face. */
            f.kind = SW_FEATURE_FACE;
            f.index = 2 * nearest + (comp(p, nearest) > 0);
        }
        return f;
    }
    case SW_CORE_PLANE:
        f.kind = SW_FEATURE_FACE;
        return f;
    case SW_CORE_HULL:
        /* A merged hull's faces stand off its edges by up to its own
         * tolerance: a contact that near an edge or vertex is on it. */
        return hull_feature(c, p, sw_max(tol, c->hull_tol));
    }
    return f;
}
