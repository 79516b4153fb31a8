/* Cores: the first contact of a moving segment (its end points cast
 * against the core's features, inflated by the radius). */
#include "queries/round/core_geom.h"

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
