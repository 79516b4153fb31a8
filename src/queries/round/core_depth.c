/* Cores: penetration depth of a segment by separating axes, and the
 * support of a core. */
#include "queries/round/core_geom.h"

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
