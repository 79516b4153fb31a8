/* Static shapes as cores (core.h): construction, and the feature of a
 * core at a point. */
#include <stdint.h>
#include "queries/round/core_geom.h"

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
