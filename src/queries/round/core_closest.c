/* Cores: the closest points to a segment (with the certified hull walk),
 * whether a segment is apart from a core, and the contact normal. */
#include <stdint.h>
#include "queries/round/core_geom.h"

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
