/* Polytope against polytope: the separating-axis method over time.
 *
 * A(t) = A + t d touches B exactly when t d lies in the Minkowski
 * difference M = B - A, a convex polytope whose faces have the normals of
 * B's faces, of A's faces (reversed) and of the edge pairs whose arcs cross
 * on the Gauss map (B's edge and A's edge reversed). Each face L, h of M
 * (L unit, h = max over M of L.x) is one constraint t (L.d) <= h, so the
 * sweep is a ray cast from the origin against M: the first time is the
 * largest entry bound, the contact normal that face's L (from B toward A),
 * and with t = 0 inside M the depth is the smallest h (the origin's
 * distance to M's boundary). A supporting plane of M that is not a face
 * (two-sided axes of a flat B, whose edges have no Gauss-map arc) only adds
 * a redundant constraint, so the answers stay exact.
 *
 * Everything runs in double, in B's local frame: A's placement is mapped
 * into it once, and B's face normals are used as stored. */
#include <float.h>

#include "queries/polytope_sweep.h"
#include "sweep/convex.h"

typedef struct pv {
    double x, y, z;
} pv;

static inline pv pv3(double x, double y, double z) { return (pv){x, y, z}; }
static inline pv pv_of(sw_vec3 a) { return pv3(a.x, a.y, a.z); }
static inline sw_vec3 pv_narrow(pv a) { return sw_v3((sw_real)a.x, (sw_real)a.y, (sw_real)a.z); }
static inline pv pv_add(pv a, pv b) { return pv3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline pv pv_sub(pv a, pv b) { return pv3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline pv pv_scale(pv a, double s) { return pv3(a.x * s, a.y * s, a.z * s); }
static inline pv pv_madd(pv a, double s, pv b) { return pv3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline double pv_dot(pv a, pv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline pv pv_cross(pv a, pv b)
{
    return pv3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double pv_abs(double a) { return a < 0 ? -a : a; }
static inline double pv_max_abs(pv a)
{
    const double x = pv_abs(a.x), y = pv_abs(a.y), z = pv_abs(a.z);
    return x > y ? (x > z ? x : z) : (y > z ? y : z);
}
/* Unit vector along a, scaled by its largest component first; false for
 * a zero vector. */
static bool pv_unit(pv* a)
{
    const double m = pv_max_abs(*a);
    if (!(m > 0)) {
        return false;
    }
    pv u = pv_scale(*a, 1 / m);
    *a = pv_scale(u, 1 / sqrt(pv_dot(u, u)));
    return true;
}

/* ---- a polytope placed in B's frame --------------------------------------- */

typedef struct placed {
    const sw_polytope* p;
    bool identity;
    double r[9]; /* frame = r * local + o, row-major */
    pv o;
    pv h; /* box: half extents (projections in O(1)) */
    /* The vertices already placed in the frame (the walk's graph), for
     * the projections over every vertex; NULL: place them on the fly. */
    const pv* xs;
} placed;

static inline pv mat_mul(const double* r, pv v)
{
    return pv3(r[0] * v.x + r[1] * v.y + r[2] * v.z, r[3] * v.x + r[4] * v.y + r[5] * v.z,
               r[6] * v.x + r[7] * v.y + r[8] * v.z);
}
static inline pv mat_tmul(const double* r, pv v)
{
    return pv3(r[0] * v.x + r[3] * v.y + r[6] * v.z, r[1] * v.x + r[4] * v.y + r[7] * v.z,
               r[2] * v.x + r[5] * v.y + r[8] * v.z);
}

static inline pv pl_dir(const placed* P, pv local) { return P->identity ? local : mat_mul(P->r, local); }
static inline pv pl_vertex(const placed* P, int i) { return pv_add(pl_dir(P, pv_of(P->p->v[i])), P->o); }

/* min and max of L . x over the placed polytope. */
static void pl_range(const placed* P, pv L, double* lo, double* hi)
{
    const pv l = P->identity ? L : mat_tmul(P->r, L);
    const double c = pv_dot(L, P->o);
    if (P->p->type == SW_SHAPE_BOX) {
        const double e = pv_abs(l.x) * P->h.x + pv_abs(l.y) * P->h.y + pv_abs(l.z) * P->h.z;
        *lo = c - e;
        *hi = c + e;
        return;
    }
    double mn = DBL_MAX, mx = -DBL_MAX;
    if (P->xs) {
        for (int i = 0; i < P->p->nv; ++i) {
            const double s = pv_dot(L, P->xs[i]);
            mn = s < mn ? s : mn;
            mx = s > mx ? s : mx;
        }
        *lo = mn;
        *hi = mx;
        return;
    }
    for (int i = 0; i < P->p->nv; ++i) {
        const double s = pv_dot(l, pv_of(P->p->v[i]));
        mn = s < mn ? s : mn;
        mx = s > mx ? s : mx;
    }
    *lo = c + mn;
    *hi = c + mx;
}

/* Outward unit normal of face f in the frame (a flat polytope's face 0 is
 * its front, face 1 its back). */
static pv pl_face_normal(const placed* P, int f)
{
    if (P->p->flat) {
        const pv n = pl_dir(P, pv_of(P->p->front));
        return f == 0 ? n : pv_scale(n, -1);
    }
    return pl_dir(P, pv_of(P->p->f[f].normal));
}

/* Direction of edge i in the frame: for a box the cross product of its
 * faces' normals (defined even where the edge has length zero), else its
 * end points' difference: a hull's vertices are apart, and the normals of
 * a thin hull's rim faces are nearly opposite, so their cross product
 * would turn their rounding into 1e-3 rad errors. */
static pv pl_edge_dir(const placed* P, int i)
{
    const sw_hull_edge* e = &P->p->e[i];
    if (P->p->type != SW_SHAPE_BOX) {
        return pv_sub(pl_vertex(P, e->v[1]), pl_vertex(P, e->v[0]));
    }
    return pv_cross(pl_face_normal(P, e->face[0]), pl_face_normal(P, e->face[1]));
}

/* Places polytope p into the frame of B (origin ob, rotation qb). */
static void place(const sw_polytope* p, sw_vec3 ob, sw_quat qb, bool b_identity, placed* P)
{
    P->p = p;
    double rb[9], ra[9];
    sw_internal_quat_matrix(qb.x, qb.y, qb.z, qb.w, rb);
    const pv off = pv_sub(pv_of(p->origin), pv_of(ob));
    const bool a_identity = p->q.x == 0 && p->q.y == 0 && p->q.z == 0;
    if (b_identity) {
        P->o = off;
        if (a_identity) {
            P->identity = true;
        } else {
            P->identity = false;
            sw_internal_quat_matrix(p->q.x, p->q.y, p->q.z, p->q.w, P->r);
        }
    } else {
        P->o = mat_tmul(rb, off);
        P->identity = false;
        sw_internal_quat_matrix(p->q.x, p->q.y, p->q.z, p->q.w, ra);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                P->r[3 * i + j] = rb[i] * ra[j] + rb[3 + i] * ra[3 + j] + rb[6 + i] * ra[6 + j];
            }
        }
    }
    P->h = p->type == SW_SHAPE_BOX ? pv_of(p->vbuf[7]) : pv3(0, 0, 0);
    P->xs = NULL;
}

/* ---- the constraints t (L.d) <= h ---------------------------------------- */

typedef struct sat {
    pv d;
    double enter, exit; /* the ray's interval in M */
    pv n_enter;
    bool never; /* a constraint with L.d = 0 and h < 0 */
    double depth;
    pv n_depth;
} sat;

/* h / v saturated at +-4: only times in [0, 1] and their order matter,
 * and a tiny v must not overflow. */
static double ratio(double h, double v)
{
    if (pv_abs(h) <= 4 * pv_abs(v)) {
        return h / v;
    }
    return (h < 0) == (v < 0) ? 4 : -4;
}

static void constrain(sat* s, pv L, double h)
{
    const double v = pv_dot(L, s->d);
    if (v < 0) {
        const double t = ratio(h, v);
        if (t > s->enter) {
            s->enter = t;
            s->n_enter = L;
        }
    } else if (v > 0) {
        const double t = ratio(h, v);
        s->exit = t < s->exit ? t : s->exit;
    } else if (h < 0) {
        s->never = true;
    }
    if (h < s->depth) {
        s->depth = h;
        s->n_depth = L;
    }
}

/* Both orientations of an axis that need not be a face normal of M. */
static void constrain_both(sat* s, pv L, const placed* A, const placed* B)
{
    double alo, ahi, blo, bhi;
    pl_range(A, L, &alo, &ahi);
    pl_range(B, L, &blo, &bhi);
    constrain(s, L, bhi - alo);
    constrain(s, pv_scale(L, -1), ahi - blo);
}

/* Two boxes: the fifteen axes of the classic oriented-box test in B's
 * frame, where B's axes are the coordinate axes and A's the columns of r,
 * every projection in O(1). */
static void collect_boxes(sat* s, const placed* A, const placed* B)
{
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double* r = A->identity ? identity : A->r;
    double ar[9];
    for (int i = 0; i < 9; ++i) {
        ar[i] = pv_abs(r[i]);
    }
    const double ha[3] = {A->h.x, A->h.y, A->h.z}, hb[3] = {B->h.x, B->h.y, B->h.z};
    const double o[3] = {A->o.x, A->o.y, A->o.z};
    for (int k = 0; k < 3; ++k) {
        const double ra = ha[0] * ar[3 * k] + ha[1] * ar[3 * k + 1] + ha[2] * ar[3 * k + 2];
        const pv e = pv3(k == 0, k == 1, k == 2);
        constrain(s, e, hb[k] - o[k] + ra);
        constrain(s, pv_scale(e, -1), hb[k] + o[k] + ra);
    }
    pv a[3];
    for (int j = 0; j < 3; ++j) {
        a[j] = pv3(r[j], r[3 + j], r[6 + j]);
        const double rb = hb[0] * ar[j] + hb[1] * ar[3 + j] + hb[2] * ar[6 + j];
        const double c = a[j].x * o[0] + a[j].y * o[1] + a[j].z * o[2];
        constrain(s, a[j], rb - c + ha[j]);
        constrain(s, pv_scale(a[j], -1), rb + c + ha[j]);
    }
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 3; ++j) {
            /* e_k x a_j */
            pv L = k == 0 ? pv3(0, -a[j].z, a[j].y) : (k == 1 ? pv3(a[j].z, 0, -a[j].x) : pv3(-a[j].y, a[j].x, 0));
            const double len2 = pv_dot(L, L);
            if (!(len2 > 1e-24)) {
                continue; /* parallel edges: the face axes cover them */
            }
            const double inv = 1 / sqrt(len2);
            L = pv_scale(L, inv);
            const double rb = hb[0] * pv_abs(L.x) + hb[1] * pv_abs(L.y) + hb[2] * pv_abs(L.z);
            const double ra =
                ha[0] * pv_abs(pv_dot(L, a[0])) + ha[1] * pv_abs(pv_dot(L, a[1])) + ha[2] * pv_abs(pv_dot(L, a[2]));
            const double c = L.x * o[0] + L.y * o[1] + L.z * o[2];
            constrain(s, L, rb - c + ra);
            constrain(s, pv_scale(L, -1), rb + c + ra);
        }
    }
}

static void collect(sat* s, const placed* A, const placed* B)
{
    if (A->p->type == SW_SHAPE_BOX && B->p->type == SW_SHAPE_BOX) {
        collect_boxes(s, A, B);
        return;
    }
    const sw_polytope* pa = A->p;
    const sw_polytope* pb = B->p;
    /* B's faces: h = B's offset - min over A. */
    for (int f = 0; f < pb->nf; ++f) {
        const pv L = pl_face_normal(B, f);
        double alo, ahi;
        pl_range(A, L, &alo, &ahi);
        const double off = pb->flat ? pv_dot(L, pl_vertex(B, 0)) : pb->f[f].offset;
        constrain(s, L, off - alo);
    }
    /* A's faces, reversed: h = max over B - A's offset. */
    for (int f = 0; f < pa->nf; ++f) {
        const pv N = pl_face_normal(A, f);
        double blo, bhi;
        pl_range(B, pv_scale(N, -1), &blo, &bhi);
        const double off = pa->flat ? pv_dot(N, pl_vertex(A, 0)) : pa->f[f].offset + pv_dot(N, A->o);
        constrain(s, pv_scale(N, -1), bhi + off);
    }
    if (pa->flat && pb->flat) {
        /* Two flat shapes in one plane are apart only along a normal of
         * an edge within that plane, which no cross product of edges
         * gives. */
        const placed* flats[2] = {A, B};
        for (int k = 0; k < 2; ++k) {
            const placed* P = flats[k];
            const pv front = pl_dir(P, pv_of(P->p->front));
            for (int i = 0; i < P->p->ne; ++i) {
                pv L = pv_cross(pl_edge_dir(P, i), front);
                if (pv_unit(&L)) {
                    constrain_both(s, L, A, B);
                }
            }
        }
    }
    const bool box_a = pa->type == SW_SHAPE_BOX, box_b = pb->type == SW_SHAPE_BOX;
    if (pa->flat || pb->flat || (box_a && box_b)) {
        /* A flat shape's edges have no arcs; two boxes have only nine edge
         * directions, each projected in O(1): every axis both ways, once
         * per direction (a box's edges 4 * axis share one). */
        const int na = box_a ? 3 : pa->ne, nb = box_b ? 3 : pb->ne;
        for (int i = 0; i < na; ++i) {
            const pv ea = pl_edge_dir(A, box_a ? 4 * i : i);
            for (int j = 0; j < nb; ++j) {
                pv L = pv_cross(pl_edge_dir(B, box_b ? 4 * j : j), ea);
                if (pv_unit(&L)) {
                    constrain_both(s, L, A, B);
                }
            }
        }
        return;
    }
    /* Edge pairs: an axis is needed only where the two edges' arcs cross
     * on the Gauss map. The arcs come from the stored face normals, which
     * a hull merged within a tolerance or a thin hull (faces across a rim
     * nearly opposite) give only roughly; so the test keeps every pair it
     * is not sure of, and each kept axis is projected in full (both ways,
     * directions from the edges' end points): a kept axis that is no face
     * of M is still a supporting plane, so extra axes never hurt. B's face
     * normals' sides of each A arc's great circle are computed once per A
     * edge. */
    double side[2 * SW_MAX_HULL_VERTICES];
    const double slack = 1e-6;
    for (int i = 0; i < pa->ne; ++i) {
        const sw_hull_edge* e = &pa->e[i];
        pv a1 = pv_scale(pl_face_normal(A, e->face[0]), -1);
        pv a2 = pv_scale(pl_face_normal(A, e->face[1]), -1);
        pv ea = pv_cross(a1, a2);
        const bool sure_a = pv_dot(ea, ea) > 1e-2 && pv_unit(&ea);
        for (int f = 0; sure_a && f < pb->nf; ++f) {
            side[f] = pv_dot(pv_of(pb->f[f].normal), ea);
        }
        const pv da = pv_sub(pl_vertex(A, e->v[1]), pl_vertex(A, e->v[0]));
        for (int j = 0; j < pb->ne; ++j) {
            const sw_hull_edge* g = &pb->e[j];
            const pv b1 = pv_of(pb->f[g->face[0]].normal);
            const pv b2 = pv_of(pb->f[g->face[1]].normal);
            if (sure_a) {
                if (side[g->face[0]] * side[g->face[1]] > slack) {
                    continue;
                }
                pv eb = pv_cross(b1, b2);
                if (pv_dot(eb, eb) > 1e-2 && pv_unit(&eb)) {
                    const double b1a = side[g->face[0]], a1b = pv_dot(a1, eb), a2b = pv_dot(a2, eb);
                    if (a1b * a2b > slack || b1a * a2b < -slack) {
                        continue;
                    }
                }
            }
            pv L = pv_cross(pv_sub(pl_vertex(B, g->v[1]), pl_vertex(B, g->v[0])), da);
            if (pv_unit(&L)) {
                constrain_both(s, L, A, B);
            }
        }
    }
}

/* ---- the contact --------------------------------------------------------- */

#define MAX_SUPPORT 64

/* The walk's largest polytope (placed->xs holds at most this many). */
#define WALK_MAX_VERTICES_ 128

typedef struct pt2 {
    double x, y;
} pt2;

static double cross2(pt2 o, pt2 a, pt2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

/* Andrew's monotone chain, in place: returns the hull's count (CCW). */
static int hull2(pt2* p, int n, pt2* out)
{
    for (int i = 1; i < n; ++i) { /* insertion sort: n is small */
        const pt2 k = p[i];
        int j = i - 1;
        while (j >= 0 && (p[j].x > k.x || (p[j].x == k.x && p[j].y > k.y))) {
            p[j + 1] = p[j];
            --j;
        }
        p[j + 1] = k;
    }
    int m = 0;
    for (int i = 0; i < n; ++i) {
        while (m >= 2 && cross2(out[m - 2], out[m - 1], p[i]) <= 0) {
            --m;
        }
        out[m++] = p[i];
    }
    for (int i = n - 2, lower = m + 1; i >= 0; --i) {
        while (m >= lower && cross2(out[m - 2], out[m - 1], p[i]) <= 0) {
            --m;
        }
        out[m++] = p[i];
    }
    m = m > 1 ? m - 1 : m;
    if (m == 2 && out[0].x == out[1].x && out[0].y == out[1].y) {
        m = 1;
    }
    return m;
}

/* Drops the vertices of the convex polygon p (m points, in order) within
 * tol of the last vertex kept (and a last one within tol of the first):
 * an edge shorter than tol (the two faces of a box thinner than tol, seen
 * edge-on) has a direction of rounding noise, and clipping by its line
 * cuts the other polygon anywhere. Every dropped vertex is within tol of
 * one kept, and a subset of a convex polygon's vertices is convex. */
static int merge_close2(pt2* p, int m, double tol)
{
    const double tol_sq = tol * tol;
    int k = m > 0 ? 1 : 0;
    for (int i = 1; i < m; ++i) {
        const double dx = p[i].x - p[k - 1].x, dy = p[i].y - p[k - 1].y;
        if (dx * dx + dy * dy > tol_sq) {
            p[k++] = p[i];
        }
    }
    while (k > 1 &&
           (p[k - 1].x - p[0].x) * (p[k - 1].x - p[0].x) + (p[k - 1].y - p[0].y) * (p[k - 1].y - p[0].y) <= tol_sq) {
        --k;
    }
    return k;
}

/* Sutherland-Hodgman: clips the polygon s (k points; two points are a
 * segment) to the convex CCW polygon c (m >= 3 points). */
static int clip2(const pt2* s, int k, const pt2* c, int m, pt2* out)
{
    pt2 buf[2][4 * MAX_SUPPORT + 8];
    int n = k;
    for (int i = 0; i < k; ++i) {
        buf[0][i] = s[i];
    }
    int cur = 0;
    for (int j = 0; j < m && n > 0; ++j) {
        const pt2 a = c[j], b = c[(j + 1) % m];
        const pt2* in = buf[cur];
        pt2* o = buf[1 - cur];
        int w = 0;
        for (int i = 0; i < n; ++i) {
            const pt2 p = in[i], q = in[(i + 1) % n];
            const double dp = cross2(a, b, p), dq = cross2(a, b, q);
            if (dp >= 0) {
                o[w++] = p;
            }
            if ((dp >= 0) != (dq >= 0) && w < 4 * MAX_SUPPORT + 8) {
                const double u = dp / (dp - dq);
                o[w++] = (pt2){p.x + u * (q.x - p.x), p.y + u * (q.y - p.y)};
            }
        }
        n = w;
        cur = 1 - cur;
    }
    for (int i = 0; i < n; ++i) {
        out[i] = buf[cur][i];
    }
    return n;
}

/* The midpoint of the closest points of the 2-D convex polygons a and b
 * (m points each, in order; 1 or 2 points are a point or a segment) that do
 * not overlap: one of the pair is a vertex. */
static pt2 gap_mid2(const pt2* a, int ma, const pt2* b, int mb, double* dist_sq)
{
    double best = DBL_MAX;
    pt2 mid = a[0];
    for (int side = 0; side < 2; ++side) {
        const pt2* p = side ? b : a;
        const pt2* o = side ? a : b;
        const int mp = side ? mb : ma, mo = side ? ma : mb;
        for (int i = 0; i < mp; ++i) {
            for (int j = 0; j < mo; ++j) {
                const pt2 o0 = o[j], e = {o[(j + 1) % mo].x - o0.x, o[(j + 1) % mo].y - o0.y};
                const double ee = e.x * e.x + e.y * e.y;
                double u = ee > 0 ? ((p[i].x - o0.x) * e.x + (p[i].y - o0.y) * e.y) / ee : 0;
                u = u < 0 ? 0 : (u > 1 ? 1 : u);
                const pt2 q = {o0.x + u * e.x, o0.y + u * e.y};
                const double dd = (q.x - p[i].x) * (q.x - p[i].x) + (q.y - p[i].y) * (q.y - p[i].y);
                if (dd < best) {
                    best = dd;
                    mid = (pt2){(q.x + p[i].x) / 2, (q.y + p[i].y) / 2};
                }
            }
        }
    }
    *dist_sq = best;
    return mid;
}

/* Closest points of the 2-D segments a0-a1 and b0-b1: the midpoint. */
static pt2 segments_mid2(pt2 a0, pt2 a1, pt2 b0, pt2 b1)
{
    const pt2 da = {a1.x - a0.x, a1.y - a0.y}, db = {b1.x - b0.x, b1.y - b0.y};
    const double den = da.x * db.y - da.y * db.x;
    if (den != 0) {
        const double u = ((b0.x - a0.x) * db.y - (b0.y - a0.y) * db.x) / den;
        const double v = ((b0.x - a0.x) * da.y - (b0.y - a0.y) * da.x) / den;
        if (u >= 0 && u <= 1 && v >= 0 && v <= 1) {
            return (pt2){a0.x + u * da.x, a0.y + u * da.y};
        }
    }
    const pt2 sa[2] = {a0, a1}, sb[2] = {b0, b1};
    double dist_sq;
    return gap_mid2(sa, 2, sb, 2, &dist_sq);
}

/* The vertices of P within tol of its extreme plane along n (max when
 * upper, else min), shifted by `shift`; returns their count (at most
 * MAX_SUPPORT) and the extreme value. */
static int support_set(const placed* P, pv n, bool upper, double tol, pv shift, pv* pts, int* idx, double* level)
{
    if (P->xs) {
        /* one pass over the placed vertices, the products kept */
        double dots[WALK_MAX_VERTICES_];
        double ext = upper ? -DBL_MAX : DBL_MAX;
        for (int i = 0; i < P->p->nv; ++i) {
            const double s = pv_dot(n, P->xs[i]);
            dots[i] = s;
            ext = upper ? (s > ext ? s : ext) : (s < ext ? s : ext);
        }
        *level = ext + pv_dot(n, shift);
        int k = 0;
        for (int i = 0; i < P->p->nv && k < MAX_SUPPORT; ++i) {
            if (upper ? dots[i] >= ext - tol : dots[i] <= ext + tol) {
                pts[k] = pv_add(P->xs[i], shift);
                idx[k++] = i;
            }
        }
        return k;
    }
    double lo, hi;
    pl_range(P, n, &lo, &hi);
    const double ext = upper ? hi : lo;
    *level = ext + pv_dot(n, shift);
    int k = 0;
    for (int i = 0; i < P->p->nv && k < MAX_SUPPORT; ++i) {
        const pv x = pl_vertex(P, i);
        const double s = pv_dot(n, x);
        if (upper ? s >= ext - tol : s <= ext + tol) {
            pts[k] = pv_add(x, shift);
            idx[k++] = i;
        }
    }
    return k;
}

/* The distance between the 2-D convex polygons a and b (as hull2 gives
 * them: 1 or 2 points are a point or a segment), 0 where they overlap. */
static double gap2(const pt2* a, int ma, const pt2* b, int mb)
{
    pt2 region[4 * MAX_SUPPORT + 8];
    if ((mb >= 3 && clip2(a, ma, b, mb, region) > 0) || (ma >= 3 && clip2(b, mb, a, ma, region) > 0)) {
        return 0;
    }
    if (ma == 2 && mb == 2) {
        const pt2 da = {a[1].x - a[0].x, a[1].y - a[0].y}, db = {b[1].x - b[0].x, b[1].y - b[0].y};
        const double den = da.x * db.y - da.y * db.x;
        if (den != 0) {
            const double u = ((b[0].x - a[0].x) * db.y - (b[0].y - a[0].y) * db.x) / den;
            const double v = ((b[0].x - a[0].x) * da.y - (b[0].y - a[0].y) * da.x) / den;
            if (u >= 0 && u <= 1 && v >= 0 && v <= 1) {
                return 0;
            }
        }
    }
    double dist_sq;
    gap_mid2(a, ma, b, mb, &dist_sq);
    return sqrt(dist_sq);
}

typedef struct contact_info {
    pv point;
    int nb; /* B's supporting vertices */
    int bidx[MAX_SUPPORT];
} contact_info;

/* A point where A (shifted) and B touch along n (n from B toward A): the
 * middle of the overlap of their supporting features, projected on the
 * plane across n. */
static void contact_point_gap(const placed* A, pv shift, const placed* B, pv n, double tol, contact_info* ci,
                              double* gap)
{
    pv pa[MAX_SUPPORT], pb[MAX_SUPPORT];
    int ia[MAX_SUPPORT];
    double la, lb;
    const int ka = support_set(A, n, false, tol, shift, pa, ia, &la);
    const int kb = support_set(B, n, true, tol, pv3(0, 0, 0), pb, ci->bidx, &lb);
    ci->nb = kb;
    /* A basis across n, orthogonal in double (a float one would tilt the
     * point off the contact plane by its rounding). */
    pv u = pv_of(sw_any_perpendicular(pv_narrow(n)));
    u = pv_madd(u, -pv_dot(u, n), n);
    pv_unit(&u);
    const pv w = pv_cross(n, u);
    pt2 sa[MAX_SUPPORT], sb[MAX_SUPPORT], ha[MAX_SUPPORT + 1], hb[MAX_SUPPORT + 1];
    for (int i = 0; i < ka; ++i) {
        sa[i] = (pt2){pv_dot(pa[i], u), pv_dot(pa[i], w)};
    }
    for (int i = 0; i < kb; ++i) {
        sb[i] = (pt2){pv_dot(pb[i], u), pv_dot(pb[i], w)};
    }
    const int ma = merge_close2(ha, hull2(sa, ka, ha), tol), mb = merge_close2(hb, hull2(sb, kb, hb), tol);
    if (gap) {
        *gap = gap2(ha, ma, hb, mb);
    }
    pt2 q;
    if (ma == 1) {
        q = ha[0];
    } else if (mb == 1) {
        q = hb[0];
    } else if (ma == 2 && mb == 2) {
        q = segments_mid2(ha[0], ha[1], hb[0], hb[1]);
    } else {
        pt2 region[4 * MAX_SUPPORT + 8];
        const int r = mb >= 3 ? clip2(ha, ma, hb, mb, region) : clip2(hb, mb, ha, ma, region);
        if (r > 0) {
            q = (pt2){0, 0};
            for (int i = 0; i < r; ++i) {
                q.x += region[i].x / r;
                q.y += region[i].y / r;
            }
        } else {
            /* The supporting sets are taken within tol of the contact
             * plane, so they may miss each other by about tol (a vertex of
             * A against an edge of B's face): the contact lies between. */
            double dist_sq;
            q = gap_mid2(ha, ma, hb, mb, &dist_sq);
        }
    }
    ci->point = pv_madd(pv_madd(pv_scale(n, (la + lb) / 2), q.x, u), q.y, w);
}

static void contact_point(const placed* A, pv shift, const placed* B, pv n, double tol, contact_info* ci)
{
    contact_point_gap(A, shift, B, n, tol, ci, NULL);
}

static double segment_distance(pv p, pv a, pv b)
{
    const pv ab = pv_sub(b, a);
    const double ee = pv_dot(ab, ab);
    double u = ee > 0 ? pv_dot(pv_sub(p, a), ab) / ee : 0;
    u = u < 0 ? 0 : (u > 1 ? 1 : u);
    const pv q = pv_sub(pv_madd(a, u, ab), p);
    return sqrt(pv_dot(q, q));
}

/* Distance from x to face f of a placed hull (a convex polygon, counter-
 * clockwise seen from outside): to its plane when x projects inside it,
 * else to its nearest edge. */
static double placed_face_distance(const placed* B, int f, pv x)
{
    const sw_hull_face* face = &B->p->hull->faces[f];
    const int* fv = B->p->hull->face_vertices + face->first;
    const pv n = pl_face_normal(B, f);
    bool inside = true;
    double edge = DBL_MAX;
    for (int i = 0; i < face->count; ++i) {
        const pv a = pl_vertex(B, fv[i]), b = pl_vertex(B, fv[(i + 1) % face->count]);
        if (pv_dot(pv_cross(pv_sub(b, a), pv_sub(x, a)), n) < 0) {
            inside = false;
        }
        const double d = segment_distance(x, a, b);
        edge = d < edge ? d : edge;
    }
    return inside ? pv_abs(pv_dot(n, pv_sub(x, pl_vertex(B, fv[0])))) : edge;
}

/* The feature of B of lowest dimension within tol of the point, among the
 * features spanned by B's supporting vertices. */
static sw_feature feature_of(const placed* B, const contact_info* ci, pv n, double tol)
{
    const sw_polytope* p = B->p;
    for (int i = 0; i < ci->nb; ++i) {
        const pv d = pv_sub(pl_vertex(B, ci->bidx[i]), ci->point);
        if (pv_dot(d, d) <= tol * tol) {
            return (sw_feature){SW_FEATURE_VERTEX, ci->bidx[i]};
        }
    }
    for (int i = 0; i < p->ne; ++i) {
        bool in0 = false, in1 = false;
        for (int k = 0; k < ci->nb; ++k) {
            in0 = in0 || ci->bidx[k] == p->e[i].v[0];
            in1 = in1 || ci->bidx[k] == p->e[i].v[1];
        }
        if (in0 && in1 && segment_distance(ci->point, pl_vertex(B, p->e[i].v[0]), pl_vertex(B, p->e[i].v[1])) <= tol) {
            return (sw_feature){SW_FEATURE_EDGE, i};
        }
    }
    if (p->flat) {
        if (p->nf == 0 || ci->nb < 3) {
            /* A sliver, or an edge seen edge-on: its nearest edge. */
            int best = 0;
            double bd = DBL_MAX;
            for (int i = 0; i < p->ne; ++i) {
                const double dd = segment_distance(ci->point, pl_vertex(B, p->e[i].v[0]), pl_vertex(B, p->e[i].v[1]));
                if (dd < bd) {
                    bd = dd;
                    best = i;
                }
            }
            return (sw_feature){SW_FEATURE_EDGE, best};
        }
        return (sw_feature){SW_FEATURE_FACE, 0};
    }
    int best = 0;
    double bd = -DBL_MAX;
    for (int f = 0; f < p->nf; ++f) {
        const double c = pv_dot(pl_face_normal(B, f), n);
        if (c > bd) {
            bd = c;
            best = f;
        }
    }
    if (p->hull) {
        /* A hull may have several faces nearly parallel to n (a nearly
         * flat hull's top, faces not merged because they tilt by more
         * than the tolerance allows): the one the point lies on. */
        double near = placed_face_distance(B, best, ci->point);
        for (int f = 0; f < p->nf && near > tol; ++f) {
            if (f != best && pv_dot(pl_face_normal(B, f), n) > 0) {
                const double dist = placed_face_distance(B, f, ci->point);
                if (dist < near) {
                    near = dist;
                    best = f;
                }
            }
        }
    }
    return (sw_feature){SW_FEATURE_FACE, best};
}

/* ---- queries -------------------------------------------------------------- */

typedef struct pair {
    sw_polytope pa, pb;
    placed A, B;
    sw_quat qb; /* B's frame rotation (world = rotate(qb, frame) + ob) */
    sw_vec3 ob;
    bool b_identity;
    double scale;
} pair;

static double shape_extent(const sw_polytope* p)
{
    double e = 0;
    for (int i = 0; i < p->nv; ++i) {
        const double m = pv_max_abs(pv_of(p->v[i]));
        e = m > e ? m : e;
    }
    return e + pv_max_abs(pv_of(p->origin));
}

static void make_pair(const sw_shape* a, const sw_shape* b, sw_vec3 d, pair* pr)
{
    sw_polytope_make(a, &pr->pa);
    sw_polytope_make(b, &pr->pb);
    /* The frame is B's own; a flat B has world vertices and no rotation,
     * so its frame sits at its first vertex. */
    pr->qb = pr->pb.q;
    pr->ob = pr->pb.flat ? pr->pb.v[0] : pr->pb.origin;
    pr->b_identity = pr->qb.x == 0 && pr->qb.y == 0 && pr->qb.z == 0;
    place(&pr->pa, pr->ob, pr->qb, pr->b_identity, &pr->A);
    pr->B.p = &pr->pb;
    pr->B.identity = true;
    pr->B.o = pr->pb.flat ? pv_scale(pv_of(pr->ob), -1) : pv3(0, 0, 0);
    pr->B.h = pr->pb.type == SW_SHAPE_BOX ? pv_of(pr->pb.vbuf[7]) : pv3(0, 0, 0);
    pr->B.xs = NULL;
    const double ea = shape_extent(&pr->pa), eb = shape_extent(&pr->pb);
    const double ed = pv_max_abs(pv_of(d));
    pr->scale = ea > eb ? (ea > ed ? ea : ed) : (eb > ed ? eb : ed);
}

static sw_vec3 to_world_dir(const pair* pr, pv v)
{
    const sw_vec3 n = pv_narrow(v);
    return pr->b_identity ? n : sw_quat_rotate(pr->qb, n);
}
static sw_vec3 to_world_point(const pair* pr, pv v)
{
    if (pr->b_identity) {
        return pv_narrow(pv_add(v, pv_of(pr->ob)));
    }
    return sw_add(sw_quat_rotate(pr->qb, pv_narrow(v)), pr->ob);
}

static sw_vec3 unit_world(const pair* pr, pv n)
{
    sw_vec3 w = to_world_dir(pr, n);
    sw_normalize(&w);
    return w;
}

/* Cyrus-Beck: the part [s0, s1] of the line o + s u inside the placed
 * solid or flat polytope, widened by slack; false when empty. */
static bool clip_line(const placed* P, pv o, pv u, double slack, double* s0, double* s1)
{
    const sw_polytope* p = P->p;
    double lo = -DBL_MAX, hi = DBL_MAX;
    const int nplanes = p->flat ? p->nf + p->ne : p->nf;
    for (int i = 0; i < nplanes; ++i) {
        pv N;
        double off;
        if (!p->flat) {
            N = pl_face_normal(P, i);
            off = p->f[i].offset + pv_dot(N, P->o);
        } else if (i < p->nf) {
            N = pl_face_normal(P, i);
            off = pv_dot(N, pl_vertex(P, 0));
        } else {
            /* A flat polygon's side: through edge k, outward in its plane. */
            const int k = i - p->nf;
            const pv a = pl_vertex(P, p->e[k].v[0]);
            N = pv_cross(pv_sub(pl_vertex(P, p->e[k].v[1]), a), pl_face_normal(P, 0));
            if (!pv_unit(&N)) {
                continue;
            }
            off = pv_dot(N, a);
        }
        const double a = pv_dot(N, u), c = off + slack - pv_dot(N, o);
        /* A bound beyond 1e300 of u's lengths constrains nothing here. */
        if (a == 0) {
            if (c < 0) {
                return false;
            }
            continue;
        }
        const double q =
            pv_abs(a) >= 1 || pv_abs(c) <= 1e300 * pv_abs(a) ? c / a : ((c < 0) == (a < 0) ? 1e300 : -1e300);
        if (a > 0) {
            hi = q < hi ? q : hi;
        } else if (a < 0) {
            lo = q > lo ? q : lo;
        }
    }
    *s0 = lo;
    *s1 = hi;
    return lo <= hi;
}

/* A point of A (shifted by nothing) inside B: on the line through the
 * touching configuration's contact point along n, else on an edge of one
 * crossing the other. Tried first with no slack, where any such point lies
 * in both (up to rounding), then with slack tol for a mere touch that
 * rounding leaves empty: the slack is kept as a last resort because it
 * widens a thin sliver's wedge far beyond tol. */
static bool overlap_point_with(const pair* pr, const contact_info* ci, pv n, double depth, double slack, pv* out)
{
    double a0, a1, b0, b1;
    if (clip_line(&pr->A, ci->point, n, slack, &a0, &a1) && clip_line(&pr->B, ci->point, n, slack, &b0, &b1)) {
        const double lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
        if (lo <= hi) {
            /* Exactly, [-depth, 0] lies in both near the contact (A
             * reaches depth below the contact plane, B is below it). */
            const double mid = -depth / 2;
            *out = pv_madd(ci->point, mid < lo ? lo : (mid > hi ? hi : mid), n);
            return true;
        }
    }
    const placed* solids[2] = {&pr->A, &pr->B};
    for (int k = 0; k < 2; ++k) {
        const placed* P = solids[k];
        const placed* Q = solids[1 - k];
        for (int i = 0; i < P->p->ne; ++i) {
            const pv a = pl_vertex(P, P->p->e[i].v[0]);
            const pv u = pv_sub(pl_vertex(P, P->p->e[i].v[1]), a);
            double s0, s1;
            if (clip_line(Q, a, u, slack, &s0, &s1)) {
                s0 = s0 < 0 ? 0 : s0;
                s1 = s1 > 1 ? 1 : s1;
                if (s0 <= s1) {
                    *out = pv_madd(a, (s0 + s1) / 2, u);
                    return true;
                }
            }
        }
    }
    return false;
}

static pv overlap_point(const pair* pr, pv n, double depth, double tol)
{
    contact_info ci;
    contact_point(&pr->A, pv_scale(n, depth), &pr->B, n, tol, &ci);
    pv p;
    if (overlap_point_with(pr, &ci, n, depth, 0, &p) || overlap_point_with(pr, &ci, n, depth, tol, &p)) {
        return p;
    }
    return ci.point;
}

/* A ball around the placed polytope: centre and radius in the frame. */
static double bounding_ball(const placed* P, pv* c)
{
    const sw_polytope* p = P->p;
    if (p->type == SW_SHAPE_BOX) {
        *c = P->o;
        return sqrt(pv_dot(P->h, P->h));
    }
    if (p->hull) {
        *c = pv_add(pl_dir(P, pv_of(p->hull->center)), P->o);
        return p->hull->radius;
    }
    *c = pl_vertex(P, 0);
    double r2 = 0;
    for (int i = 1; i < p->nv; ++i) {
        const pv e = pv_sub(pl_vertex(P, i), *c);
        const double q = pv_dot(e, e);
        r2 = q > r2 ? q : r2;
    }
    return sqrt(r2);
}

/* Whether the balls around A and B stay apart over the whole motion: a
 * cheap certain miss. */
static bool balls_apart(const pair* pr, pv d)
{
    pv ca, cb;
    const double ra = bounding_ball(&pr->A, &ca), rb = bounding_ball(&pr->B, &cb);
    const pv f = pv_sub(ca, cb);
    const double dd = pv_dot(d, d);
    double t = dd > 0 ? -pv_dot(f, d) / dd : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    const pv g = pv_madd(f, t, d);
    const double reach = (ra + rb) * (1 + 1e-9) + 1e-9 * pr->scale;
    return pv_dot(g, g) > reach * reach;
}

/* ---- a local walk over M's faces ------------------------------------------
 *
 * Visiting every edge pair costs O(Ea Eb). The entry face can instead be
 * found by a walk: any axis L with exact support values is a supporting
 * plane of M, so its time t_L = h / (L.d) (L.d < 0) is a lower bound of the
 * entry time; when the supporting features of A(t_L) and B along L overlap,
 * t_L d lies in M and t_L is the entry time. When they do not, t_L d lies
 * outside the face, beyond an edge of M: the face across it (incident to a
 * vertex of the face, so built from features at the supporting vertices)
 * gives a later entry bound or an exit bound below t_L (a certain miss).
 * The walk only steers; every answer it gives is certified by exact
 * (all-vertex) projections, and the full method answers when it stalls. */

/* The walk keeps its graphs on the stack, so it takes polytopes of up to
 * WALK_MAX_VERTICES vertices (larger ones go to the full method). */
enum {
    WALK_MAX_VERTICES = WALK_MAX_VERTICES_,
    WALK_MAX_EDGES = 3 * WALK_MAX_VERTICES,
    WALK_MAX_FACES = 2 * WALK_MAX_VERTICES,
    WALK_MAX_LIST = 128
};

/* A polytope's vertices in the frame and its vertex adjacency: the edges
 * at vertex i are he[start[i] .. start[i+1]), leading to nbr[...]. */
typedef struct graph {
    pv x[WALK_MAX_VERTICES];
    int start[WALK_MAX_VERTICES + 1];
    int he[2 * WALK_MAX_EDGES];
    int nbr[2 * WALK_MAX_EDGES];
} graph;

static void build_graph(const placed* P, graph* g)
{
    const sw_polytope* p = P->p;
    for (int i = 0; i < p->nv; ++i) {
        g->x[i] = pl_vertex(P, i);
        g->start[i] = 0;
    }
    g->start[p->nv] = 0;
    for (int i = 0; i < p->ne; ++i) {
        ++g->start[p->e[i].v[0] + 1];
        ++g->start[p->e[i].v[1] + 1];
    }
    for (int i = 0; i < p->nv; ++i) {
        g->start[i + 1] += g->start[i];
    }
    int fill[WALK_MAX_VERTICES];
    for (int i = 0; i < p->nv; ++i) {
        fill[i] = g->start[i];
    }
    for (int i = 0; i < p->ne; ++i) {
        const int v0 = p->e[i].v[0], v1 = p->e[i].v[1];
        g->he[fill[v0]] = i;
        g->nbr[fill[v0]++] = v1;
        g->he[fill[v1]] = i;
        g->nbr[fill[v1]++] = v0;
    }
}

/* The vertex maximising L . x, by hill-climbing from vertex s: on a
 * convex polytope a local maximum is the maximum. */
static int climb(const graph* g, pv L, int s, double* value)
{
    double best = pv_dot(L, g->x[s]);
    for (;;) {
        int next = -1;
        for (int k = g->start[s]; k < g->start[s + 1]; ++k) {
            const double x = pv_dot(L, g->x[g->nbr[k]]);
            if (x > best) {
                best = x;
                next = g->nbr[k];
            }
        }
        if (next < 0) {
            *value = best;
            return s;
        }
        s = next;
    }
}

/* An edge at a supporting set: end point, direction, a supporting vertex
 * to climb from, and for a solid its Gauss-map arc n1 -> n2 (A's
 * reversed) with the arc's plane normal c = n1 x n2. */
typedef struct wedge {
    pv base, dir, n1, n2, c;
    double dir2, c2;
    int v;
} wedge;

typedef struct walker {
    const pair* pr;
    graph ga, gb;
    pv d;
    double tol_set; /* support sets and the overlap certificate */
    pv cb;          /* a point inside B (a flat B: in its plane) */
    /* Entry: the largest bound so far, its axis and supports. */
    double t;
    pv L;
    int sa, sb;
    /* Best candidate of this round. */
    double cand_t;
    pv cand_L;
    int cand_sa, cand_sb;
    /* A certain miss found on the way: an exit axis below an entry. */
    double exit_t;
    pv exit_L;
    bool never;
    pv never_L;
    bool overflow; /* an edge list was too long: unsure */
    int stamp_fa[WALK_MAX_FACES], stamp_fb[WALK_MAX_FACES];
    int stamp_ea[WALK_MAX_EDGES], stamp_eb[WALK_MAX_EDGES];
    wedge ea[WALK_MAX_LIST], eb[WALK_MAX_LIST];
} walker;

/* Evaluates the axis L (unit) with supports climbed from sa (A, along -L)
 * and sb (B, along L). */
enum { KNOWN_NONE = 0, KNOWN_A = 1, KNOWN_B = 2, KNOWN_BOTH = 3 };

static void walk_axis(walker* w, pv L, int sa, int sb, int known)
{
    double va, vb;
    const double v = pv_dot(L, w->d);
    if (known != KNOWN_BOTH) {
        /* A climb only raises h above its value at the starting supports,
         * which moves an entry bound earlier and an exit bound later: an
         * axis that cannot beat the best entry or exit so far even there
         * is skipped without climbing (ratio is monotone in h). */
        const double h0 = pv_dot(L, w->gb.x[sb]) - pv_dot(L, w->ga.x[sa]);
        if (v < 0 ? ratio(h0, v) <= w->cand_t : (v > 0 ? ratio(h0, v) >= w->exit_t : h0 >= 0)) {
            return;
        }
    }
    if (known & KNOWN_B) {
        vb = pv_dot(L, w->gb.x[sb]);
    } else {
        sb = climb(&w->gb, L, sb, &vb);
    }
    if (known & KNOWN_A) {
        va = -pv_dot(L, w->ga.x[sa]);
    } else {
        sa = climb(&w->ga, pv_scale(L, -1), sa, &va);
    }
    const double h = vb + va;
    if (v < 0) {
        const double t = ratio(h, v);
        if (t > w->cand_t) {
            w->cand_t = t;
            w->cand_L = L;
            w->cand_sa = sa;
            w->cand_sb = sb;
        }
    } else if (v > 0) {
        const double t = ratio(h, v);
        if (t < w->exit_t) {
            w->exit_t = t;
            w->exit_L = L;
        }
    } else if (h < 0) {
        w->never = true;
        w->never_L = L;
    }
}

static int edge_list(const placed* P, const graph* g, int* stamp, const int* idx, int k, int round, bool reversed,
                     wedge* out)
{
    const sw_polytope* p = P->p;
    int n = 0;
    for (int i = 0; i < k; ++i) {
        for (int m = g->start[idx[i]]; m < g->start[idx[i] + 1]; ++m) {
            const int ei = g->he[m];
            if (stamp[ei] == round) {
                continue;
            }
            stamp[ei] = round;
            if (n == WALK_MAX_LIST) {
                return -1;
            }
            const sw_hull_edge* e = &p->e[ei];
            wedge* x = &out[n++];
            x->base = g->x[e->v[0]];
            x->dir = pv_sub(g->x[e->v[1]], x->base);
            x->dir2 = pv_dot(x->dir, x->dir);
            x->v = idx[i];
            if (!p->flat) {
                x->n1 = pl_face_normal(P, e->face[0]);
                x->n2 = pl_face_normal(P, e->face[1]);
                if (reversed) {
                    x->n1 = pv_scale(x->n1, -1);
                    x->n2 = pv_scale(x->n2, -1);
                }
                x->c = pv_cross(x->n1, x->n2);
                x->c2 = pv_dot(x->c, x->c);
            }
        }
    }
    return n;
}

/* The candidates around the supporting sets of the current axis: B's
 * faces at B's set, A's faces at A's set, and the edge pairs between. */
static void walk_round(walker* w, const int* ia, int ka, const int* ib, int kb, int round)
{
    const placed* A = &w->pr->A;
    const placed* B = &w->pr->B;
    const sw_polytope* pa = A->p;
    const sw_polytope* pb = B->p;
    const int sa0 = w->sa, sb0 = w->sb;
    /* B's faces. */
    if (pb->flat) {
        for (int f = 0; f < pb->nf; ++f) {
            walk_axis(w, pl_face_normal(B, f), sa0, ib[0], KNOWN_B);
        }
    } else {
        for (int i = 0; i < kb; ++i) {
            for (int k = w->gb.start[ib[i]]; k < w->gb.start[ib[i] + 1]; ++k) {
                const sw_hull_edge* e = &pb->e[w->gb.he[k]];
                for (int s = 0; s < 2; ++s) {
                    if (w->stamp_fb[e->face[s]] != round) {
                        w->stamp_fb[e->face[s]] = round;
                        walk_axis(w, pl_face_normal(B, e->face[s]), sa0, ib[i], KNOWN_B);
                    }
                }
            }
        }
    }
    /* A's faces, reversed. */
    for (int i = 0; i < ka; ++i) {
        for (int k = w->ga.start[ia[i]]; k < w->ga.start[ia[i] + 1]; ++k) {
            const sw_hull_edge* e = &pa->e[w->ga.he[k]];
            for (int s = 0; s < 2; ++s) {
                if (w->stamp_fa[e->face[s]] != round) {
                    w->stamp_fa[e->face[s]] = round;
                    walk_axis(w, pv_scale(pl_face_normal(A, e->face[s]), -1), ia[i], sb0, KNOWN_A);
                }
            }
        }
    }
    /* Edge pairs: the distinct edges at each set, with their Gauss-map
     * arcs (A's reversed) computed once. */
    wedge* ea = w->ea;
    wedge* eb = w->eb;
    const int na = edge_list(A, &w->ga, w->stamp_ea, ia, ka, round, true, ea);
    const int nb = edge_list(B, &w->gb, w->stamp_eb, ib, kb, round, false, eb);
    if (na < 0 || nb < 0) {
        w->overflow = true;
        return;
    }
    const double slack = 1e-6;
    for (int i = 0; i < na; ++i) {
        const wedge* x = &ea[i];
        for (int j = 0; j < nb; ++j) {
            const wedge* y = &eb[j];
            bool sure = false; /* the arcs surely cross */
            if (pb->flat) {
                /* A flat B's edge arc lies on the great circle across it. */
                const double s1 = pv_dot(x->n1, y->dir), s2 = pv_dot(x->n2, y->dir);
                if (s1 * s2 > slack * y->dir2) {
                    continue;
                }
            } else if (x->c2 > 1e-2) {
                /* The same conservative test as the full method, without
                 * normalising: a pair it is not sure of is kept. */
                const double s1 = pv_dot(y->n1, x->c), s2 = pv_dot(y->n2, x->c);
                if (s1 * s2 > slack * x->c2) {
                    continue;
                }
                if (y->c2 > 1e-2) {
                    const double a1b = pv_dot(x->n1, y->c), a2b = pv_dot(x->n2, y->c);
                    const double q = s1 * a2b, qq = slack * slack * x->c2 * y->c2;
                    if (a1b * a2b > slack * y->c2 || (q < 0 && q * q > qq)) {
                        continue;
                    }
                    sure = s1 * s2 < -slack * x->c2 && a1b * a2b < -slack * y->c2 && q > 0 && q * q > qq;
                }
            }
            /* In double, |L|^2 neither underflows nor overflows for
             * float or double coordinates of the valid range. */
            pv L = pv_cross(y->dir, x->dir);
            const double len_sq = pv_dot(L, L);
            if (!(len_sq > 0)) {
                continue;
            }
            L = pv_scale(L, 1 / sqrt(len_sq));
            /* Outward from B at the edge (B's normals there point away
             * from its centre); both ways where that is unclear. */
            const double side = pv_dot(L, pv_sub(y->base, w->cb));
            if (pv_abs(side) <= 1e-9 * w->pr->scale) {
                walk_axis(w, L, x->v, y->v, KNOWN_NONE);
                walk_axis(w, pv_scale(L, -1), x->v, y->v, KNOWN_NONE);
            } else {
                /* Where the arcs surely cross, the edges are the supports
                 * (up to a merged hull's tolerance: the walk only steers
                 * by these values, answers are re-projected exactly). */
                walk_axis(w, side < 0 ? pv_scale(L, -1) : L, x->v, y->v, sure ? KNOWN_BOTH : KNOWN_NONE);
            }
        }
    }
}

/* support_set over a graph's placed vertices: one pass of dot products,
 * kept for the filter (the vertices are already in the frame). */
static int support_set_graph(const graph* g, int nv, pv n, bool upper, double tol, int* idx, double* level)
{
    double dots[WALK_MAX_VERTICES];
    double ext = upper ? -DBL_MAX : DBL_MAX;
    for (int i = 0; i < nv; ++i) {
        const double s = pv_dot(n, g->x[i]);
        dots[i] = s;
        ext = upper ? (s > ext ? s : ext) : (s < ext ? s : ext);
    }
    *level = ext;
    int k = 0;
    for (int i = 0; i < nv && k < MAX_SUPPORT; ++i) {
        if (upper ? dots[i] >= ext - tol : dots[i] <= ext + tol) {
            idx[k++] = i;
        }
    }
    return k;
}

/* h of the axis L from every vertex (exact). */
static double exact_h(const pair* pr, pv L)
{
    double alo, ahi, blo, bhi;
    pl_range(&pr->A, L, &alo, &ahi);
    pl_range(&pr->B, L, &blo, &bhi);
    return bhi - alo;
}

typedef enum walk_result { WALK_UNSURE, WALK_MISS, WALK_HIT } walk_result;

/* The walk: a certain hit (time t, axis *n) or miss, else unsure. */
static walk_result walk(walker* w, pv d, double tol, double* t_out, pv* n_out)
{
    const pair* pr = w->pr;
    const placed* A = &pr->A;
    const placed* B = &pr->B;
    build_graph(A, &w->ga);
    build_graph(B, &w->gb);
    for (int f = 0; f < A->p->nf; ++f) {
        w->stamp_fa[f] = -1;
    }
    for (int f = 0; f < B->p->nf; ++f) {
        w->stamp_fb[f] = -1;
    }
    for (int i = 0; i < A->p->ne; ++i) {
        w->stamp_ea[i] = -1;
    }
    for (int i = 0; i < B->p->ne; ++i) {
        w->stamp_eb[i] = -1;
    }
    w->overflow = false;
    w->d = d;
    w->tol_set = tol / 16;
    if (B->p->flat) {
        w->cb = pv3(0, 0, 0);
        for (int i = 0; i < B->p->nv; ++i) {
            w->cb = pv_add(w->cb, pl_vertex(B, i));
        }
        w->cb = pv_scale(w->cb, 1.0 / B->p->nv);
    } else {
        bounding_ball(B, &w->cb);
    }
    w->exit_t = DBL_MAX;
    w->never = false;
    /* Start: the direction from B's centre to A's where their balls first
     * meet (or come closest). */
    pv ca, cb;
    const double ra = bounding_ball(A, &ca), rb = bounding_ball(B, &cb);
    const pv f = pv_sub(ca, cb);
    const double dd = pv_dot(d, d), fd = pv_dot(f, d), ff = pv_dot(f, f), r = ra + rb;
    double t0 = dd > 0 ? -fd / dd : 0;
    const double disc = fd * fd - dd * (ff - r * r);
    if (dd > 0 && disc > 0) {
        t0 = (-fd - sqrt(disc)) / dd;
    }
    t0 = t0 < 0 ? 0 : (t0 > 1 ? 1 : t0);
    pv L = pv_madd(f, t0, d);
    if (!pv_unit(&L)) {
        L = pv3(0, 0, 1);
    }
    double va, vb;
    w->sb = climb(&w->gb, L, 0, &vb);
    w->sa = climb(&w->ga, pv_scale(L, -1), 0, &va);
    w->L = L;
    w->t = -DBL_MAX;
    for (int round = 0; round < 32; ++round) {
        int ia[MAX_SUPPORT], ib[MAX_SUPPORT];
        double la, lb;
        const int ka = support_set_graph(&w->ga, A->p->nv, w->L, false, w->tol_set, ia, &la);
        const int kb = support_set_graph(&w->gb, B->p->nv, w->L, true, w->tol_set, ib, &lb);
        if (ka >= MAX_SUPPORT || kb >= MAX_SUPPORT) {
            return WALK_UNSURE;
        }
        w->sa = ia[0];
        w->sb = ib[0];
        const double v = pv_dot(w->L, d);
        if (v < 0) {
            const double h = lb - la, t = ratio(h, v);
            if (t > 1) {
                return WALK_MISS;
            }
            if (t > 0 && h < 0 && w->t > -DBL_MAX) {
                contact_info ci;
                double gap;
                contact_point_gap(A, pv_scale(d, t), B, w->L, w->tol_set, &ci, &gap);
                if (gap <= w->tol_set) {
                    /* Certified within tolerance. A neighbouring face may
                     * still bound the entry a little later (the supporting
                     * sets are taken within tol): take the latest, as the
                     * full method would. */
                    *t_out = t;
                    *n_out = w->L;
                    /* only a later bound matters: the others are skipped
                     * unclimbed */
                    w->cand_t = t;
                    walk_round(w, ia, ka, ib, kb, round);
                    const double dlen = sqrt(pv_dot(d, d));
                    if (w->overflow) {
                        return WALK_UNSURE;
                    }
                    if (w->exit_t < t && (t - w->exit_t) * dlen > tol) {
                        const double te = ratio(exact_h(pr, w->exit_L), pv_dot(w->exit_L, d));
                        if ((t - te) * dlen > tol) {
                            return WALK_UNSURE; /* t d only grazes M */
                        }
                    }
                    if (w->cand_t > t) {
                        const double tc = ratio(exact_h(pr, w->cand_L), pv_dot(w->cand_L, d));
                        if (tc > t && (tc - t) * dlen > tol) {
                            /* t d only grazes M: the full method decides. */
                            return WALK_UNSURE;
                        }
                        if (tc > 1) {
                            return WALK_MISS; /* an exact supporting plane the path reaches after 1 */
                        }
                        if (tc > t) {
                            *t_out = tc;
                            *n_out = w->cand_L;
                        }
                    }
                    return WALK_HIT;
                }
            }
        }
        w->cand_t = -DBL_MAX;
        walk_round(w, ia, ka, ib, kb, round);
        if (w->overflow) {
            return WALK_UNSURE;
        }
        if (w->never && exact_h(pr, w->never_L) < 0) {
            return WALK_MISS;
        }
        if (w->exit_t < 0 || w->exit_t < w->cand_t) {
            /* Re-check with exact projections. */
            const double ve = pv_dot(w->exit_L, d), te = ratio(exact_h(pr, w->exit_L), ve);
            if (te < 0) {
                return WALK_MISS;
            }
            if (w->cand_t > -DBL_MAX) {
                const double vc = pv_dot(w->cand_L, d), tc = ratio(exact_h(pr, w->cand_L), vc);
                if (te < tc) {
                    return WALK_MISS;
                }
            }
        }
        if (!(w->cand_t > w->t) || w->cand_t <= 0) {
            return WALK_UNSURE;
        }
        w->t = w->cand_t;
        w->L = w->cand_L;
    }
    return WALK_UNSURE;
}

bool sw_internal_moved_solid(const sw_shape* a, sw_vec3 off, sw_shape* out)
{
    *out = *a;
    if (a->type == SW_SHAPE_BOX) {
        out->box.center = sw_add(a->box.center, off);
    } else if (a->type == SW_SHAPE_HULL) {
        out->hull.position = sw_add(a->hull.position, off);
    } else {
        return false;
    }
    return sw_is_valid_shape(out);
}

/* The hit at time t (in [0, 1]) with the frame normal n; d in the world,
 * dl in the frame. */
static sw_hit sweep_hit(const sw_shape* a, const sw_shape* b, const pair* pr, sw_vec3 d, pv dl, double t, pv n_frame,
                        double tol)
{
    sw_hit h = {0};
    const sw_vec3 n = unit_world(pr, n_frame);
    if (pr->pb.one_sided) {
        const sw_vec3 front = pr->pb.front;
        if (!(sw_dot(d, front) < 0 && sw_dot(n, front) > 0)) {
            return h;
        }
    }
    contact_info ci;
    double gap;
    contact_point_gap(&pr->A, pv_scale(dl, t), &pr->B, n_frame, tol, &ci, &gap);
    h.hit = true;
    h.t = (sw_real)t;
    h.normal = n;
    h.point = to_world_point(pr, ci.point);
    /* Supporting sets that miss each other by more than the tolerance: the
     * axis won a near tie (nearly parallel edges, whose cross product the
     * tilt between them sets) and its supporting features do not touch;
     * the shapes' closest points at t do. */
    sw_shape at;
    if (gap > 2 * tol && sw_internal_moved_solid(a, sw_scale(d, (sw_real)t), &at)) {
        const sw_distance_result r = sw_internal_distance_polytopes(&at, b);
        if (r.status == SW_OK) {
            h.point = sw_scale(sw_add(r.point_a, r.point_b), (sw_real)0.5);
        }
    }
    h.feature = feature_of(&pr->B, &ci, n_frame, 2 * tol);
    return h;
}

static sw_hit sweep_polytopes(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt,
                              bool use_walk)
{
    if (use_walk && a->type == SW_SHAPE_BOX) {
        sw_hit h;
        if (b->type == SW_SHAPE_BOX && sw_internal_sweep_boxes(&a->box, d, &b->box, &h)) {
            return h;
        }
        if ((b->type == SW_SHAPE_TRIANGLE || b->type == SW_SHAPE_POLYGON) &&
            sw_internal_sweep_box_flat(&a->box, d, b, &h)) {
            return h;
        }
    }
    pair pr;
    make_pair(a, b, d, &pr);
    if (balls_apart(&pr, pr.b_identity ? pv_of(d) : pv_of(sw_quat_inv_rotate(pr.qb, d)))) {
        return (sw_hit){0};
    }
    const pv dl = pr.b_identity ? pv_of(d) : pv_of(sw_quat_inv_rotate(pr.qb, d));
    const double tol = SW_TOLERANCE / 4 * pr.scale;
    sw_hit h = {0};
    /* A box against a box, triangle or polygon has few edge pairs, each
     * projected cheaply: the full method is faster than the walk there. */
    const bool boxes = pr.pa.type == SW_SHAPE_BOX && (pr.pb.type == SW_SHAPE_BOX || pr.pb.flat);
    if (use_walk && !boxes && !(pr.pb.flat && pr.pb.nf == 0) && pr.pa.nv <= WALK_MAX_VERTICES &&
        pr.pb.nv <= WALK_MAX_VERTICES && pr.pa.ne <= WALK_MAX_EDGES && pr.pb.ne <= WALK_MAX_EDGES &&
        pr.pa.nf <= WALK_MAX_FACES && pr.pb.nf <= WALK_MAX_FACES) {
        walker w;
        w.pr = &pr;
        /* The walk places every vertex in its graphs first: the exact
         * projections read them there. */
        pr.A.xs = w.ga.x;
        pr.B.xs = w.gb.x;
        double t = 0;
        pv nl = pv3(0, 0, 1);
        const walk_result r = walk(&w, dl, tol, &t, &nl);
        if (r == WALK_MISS) {
            return h;
        }
        if (r == WALK_HIT) {
            return sweep_hit(a, b, &pr, d, dl, t, nl, tol);
        }
        pr.A.xs = NULL; /* the graphs end here */
        pr.B.xs = NULL;
    }
    sat s = {.enter = -DBL_MAX, .exit = DBL_MAX, .never = false, .depth = DBL_MAX};
    s.d = dl;
    s.n_enter = pv3(0, 0, 1);
    s.n_depth = pv3(0, 0, 1);
    collect(&s, &pr.A, &pr.B);

    if (s.depth >= 0) {
        /* Touching or overlapping at t = 0. */
        const sw_vec3 n = unit_world(&pr, s.n_depth);
        if (pr.pb.one_sided || (sw_internal_ignore_separating(opt) && sw_dot(d, n) >= 0)) {
            return h;
        }
        h.hit = true;
        h.overlapping = true;
        h.depth = (sw_real)s.depth;
        h.normal = n;
        const pv p = overlap_point(&pr, s.n_depth, s.depth, tol);
        h.point = to_world_point(&pr, p);
        contact_info ci;
        contact_point(&pr.A, pv_scale(s.n_depth, s.depth), &pr.B, s.n_depth, tol, &ci);
        h.feature = feature_of(&pr.B, &ci, s.n_depth, 2 * tol);
        return h;
    }
    if (s.never || s.enter > s.exit || s.enter > 1 || s.exit < 0) {
        return h;
    }
    return sweep_hit(a, b, &pr, d, s.d, s.enter < 0 ? 0 : s.enter, s.n_enter, tol);
}

sw_hit sw_internal_sweep_polytopes(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    return sweep_polytopes(a, d, b, opt, true);
}

sw_hit sw_internal_sweep_polytopes_full(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    return sweep_polytopes(a, d, b, opt, false);
}

/* The separating axes of the pair at rest: s->depth is the least overlap
 * of their extents along any axis (negative: the most that one
 * separates them by), along s->n_depth, from B toward A. */
static void static_axes(const pair* pr, sat* s)
{
    *s = (sat){.enter = -DBL_MAX, .exit = DBL_MAX, .never = false, .depth = DBL_MAX};
    s->d = pv3(0, 0, 0);
    s->n_depth = pv3(0, 0, 1);
    collect(s, &pr->A, &pr->B);
}

double sw_internal_polytope_axis(const sw_shape* a, const sw_shape* b, sw_vec3* normal)
{
    pair pr;
    make_pair(a, b, sw_v3(0, 0, 0), &pr);
    sat s;
    static_axes(&pr, &s);
    *normal = unit_world(&pr, s.n_depth);
    return s.depth;
}

sw_overlap_result sw_internal_overlap_polytopes(const sw_shape* a, const sw_shape* b)
{
    pair pr;
    make_pair(a, b, sw_v3(0, 0, 0), &pr);
    sat s;
    static_axes(&pr, &s);
    sw_overlap_result r = {0};
    if (s.depth < 0) {
        return r;
    }
    const double tol = SW_TOLERANCE / 4 * pr.scale;
    r.overlapping = true;
    r.depth = (sw_real)s.depth;
    r.normal = unit_world(&pr, s.n_depth);
    r.point = to_world_point(&pr, overlap_point(&pr, s.n_depth, s.depth, tol));
    return r;
}

/* How far x lies outside the placed polytope P (<= 0 inside a solid): the
 * largest excess over its face planes; for a flat one, the distance to its
 * plane or its largest excess over its edges' lines within that plane. */
static double outside_by(const placed* P, pv x)
{
    const sw_polytope* p = P->p;
    double most = -DBL_MAX;
    if (!p->flat) {
        for (int f = 0; f < p->nf; ++f) {
            const pv n = pl_face_normal(P, f);
            const double e = pv_dot(n, x) - (p->f[f].offset + pv_dot(n, P->o));
            most = e > most ? e : most;
        }
        return most;
    }
    const pv n = pl_face_normal(P, 0);
    most = pv_abs(pv_dot(n, pv_sub(x, pl_vertex(P, 0))));
    for (int i = 0; i < p->ne; ++i) {
        const pv a = pl_vertex(P, p->e[i].v[0]);
        pv side = pv_cross(pv_sub(pl_vertex(P, p->e[i].v[1]), a), n);
        if (pv_unit(&side)) {
            const double e = pv_dot(side, pv_sub(x, a));
            most = e > most ? e : most;
        }
    }
    return most;
}

/* Whether the point p lies within tol of the shape s. Either distance is
 * attained, so either one within tol proves it: the cores' closest points
 * (exact, but a polygon thinner than its vertices' rounding is its segment
 * there, off by its width) or GJK (no model, but on a polygon 6.5e12 long
 * and 32 wide it put a point of the polygon 16.8 away from it, finding
 * 23). */
static bool point_on(sw_vec3 p, const sw_shape* s, double tol)
{
    const sw_capsule q = {p, p, 0};
    if ((double)sw_distance_capsule_shape(&q, s).distance <= tol) {
        return true;
    }
    const sw_shape qs = sw_make_point(p);
    return (double)sw_gjk_distance(&qs, s).distance <= tol;
}

/* Whether s is a box whose two smaller half extents are within tol of its
 * long axis; *seg is then that axis. */
static bool needle_box(const sw_shape* s, double tol, sw_capsule* seg)
{
    if (s->type != SW_SHAPE_BOX) {
        return false;
    }
    const sw_vec3 h = s->box.half;
    const int k = h.x >= h.y && h.x >= h.z ? 0 : (h.y >= h.z ? 1 : 2);
    const double o1 = k == 0 ? h.y : h.x, o2 = k == 2 ? h.y : h.z;
    if (!(sqrt(o1 * o1 + o2 * o2) <= tol)) {
        return false;
    }
    sw_vec3 axes[3];
    sw_box_axes(&s->box, axes);
    const sw_real len = k == 0 ? h.x : (k == 1 ? h.y : h.z);
    *seg = (sw_capsule){sw_madd(s->box.center, -len, axes[k]), sw_madd(s->box.center, len, axes[k]), 0};
    return sw_is_valid_capsule(seg);
}

/* Edge i of a polytope view, in world coordinates (a flat view's placement
 * is the identity, so its edges are its vertices exactly). */
static sw_capsule view_edge(const sw_polytope* p, int i)
{
    const sw_hull_edge* e = &p->e[i];
    return (sw_capsule){sw_add(sw_quat_rotate(p->q, p->v[e->v[0]]), p->origin),
                        sw_add(sw_quat_rotate(p->q, p->v[e->v[1]]), p->origin), 0};
}

/* The least distance of an edge of either shape to the other, for two
 * polytopes with at most 64 edges in all, but two boxes (their separating
 * axes make GJK's answer exact; a larger hull is left to GJK for speed).
 * It is exact: two convex polytopes that do not
 * meet are closest at a vertex against a face or an edge against an edge,
 * both on an edge of one; two that meet have an edge of one meeting the
 * other (a vertex of their intersection lies on three faces' planes, two
 * of them from one shape, which is that shape's edge; coplanar flats
 * have an edge of one lying in the other). Each edge is a segment core
 * against the other's core, the path the fuzzers hold to the contract at
 * every scale. GJK stalled on such pairs: a polygon 2.7e11 long and 28
 * wide touching a triangle 16 across, 14.1 in one order and 0 in the
 * other (finding 48); a triangle 1e11 long beside a box, 15.1 against
 * 6.88, and a box 6.2e12 long beside a triangle, 2052 against 7.98
 * (finding 50); a hull 4.1e11 long beside another, 9.67 against 7.30
 * (finding 54). False, leaving GJK to answer, for the other pairs and
 * when a box's corner lies beyond SW_MAX_COORD. */
static bool distance_by_edges(const sw_shape* a, const sw_shape* b, sw_distance_result* out)
{
    sw_polytope views[2];
    if (!sw_polytope_make(a, &views[0]) || !sw_polytope_make(b, &views[1]) || views[0].ne + views[1].ne > 64 ||
        (a->type == SW_SHAPE_BOX && b->type == SW_SHAPE_BOX)) {
        return false;
    }
    sw_distance_result best = {0};
    bool have = false;
    for (int side = 0; side < 2; ++side) {
        const sw_polytope* view = &views[side];
        for (int i = 0; i < view->ne; ++i) {
            const sw_capsule edge = view_edge(view, i);
            if (!sw_is_valid_capsule(&edge)) {
                return false; /* a box corner beyond SW_MAX_COORD */
            }
            sw_distance_result r = sw_distance_capsule_shape(&edge, side == 0 ? b : a);
            if (r.status != SW_OK) {
                *out = r;
                return true;
            }
            r = side == 0 ? r : sw_internal_distance_mirrored(r);
            if (!have || r.distance < best.distance) {
                best = r;
                have = true;
            }
            if (best.distance == 0) {
                *out = best;
                return true;
            }
        }
    }
    *out = best;
    return true;
}

sw_distance_result sw_internal_distance_polytopes(const sw_shape* a, const sw_shape* b)
{
    sw_distance_result r;
    if (distance_by_edges(a, b, &r)) {
        return r;
    }
    r = sw_gjk_distance(a, b);
    if (r.status != SW_OK) {
        return r;
    }
    pair pr;
    make_pair(a, b, sw_v3(0, 0, 0), &pr);
    const double tol = SW_TOLERANCE / 4 * pr.scale;
    const pv pa = pv_of(pr.b_identity ? sw_sub(r.point_a, pr.ob) : sw_quat_inv_rotate(pr.qb, sw_sub(r.point_a, pr.ob)));
    const pv pb = pv_of(pr.b_identity ? sw_sub(r.point_b, pr.ob) : sw_quat_inv_rotate(pr.qb, sw_sub(r.point_b, pr.ob)));
    /* Plane excesses understate the distance beside a sharp vertex: then
     * the distance from the point itself. */
    bool on_shapes = outside_by(&pr.A, pa) <= tol && outside_by(&pr.B, pb) <= tol;
    /* (A point beyond SW_MAX_COORD, on a huge box, is no valid shape.) */
    if (on_shapes && r.distance > 0 && sw_is_valid_vec3(r.point_a) && sw_is_valid_vec3(r.point_b)) {
        on_shapes = point_on(r.point_a, a, tol) && point_on(r.point_b, b, tol);
    }
    if (on_shapes && (double)r.distance > 4096 * tol) {
        /* Points on the shapes are not yet closest: GJK also stops when
         * rounding stalls it (a support point already in its simplex, no
         * progress), which on a pair 1e7 times longer than wide can be far
         * from the distance, even with the shapes crossing. The plane
         * between the points must separate them by the distance. */
        pv n = pv_sub(pa, pb);
        double alo, ahi, blo, bhi;
        if (pv_unit(&n)) {
            pl_range(&pr.A, n, &alo, &ahi);
            pl_range(&pr.B, n, &blo, &bhi);
            if (alo - bhi >= (double)r.distance - 4 * tol) {
                return r;
            }
        }
        /* Not certified: GJK stalled. Run from the other shape it stalls
         * elsewhere (a flat box 7.8e13 long and 20 wide against a polygon
         * 5.6 from it: 7.1e6 one way, 15.05 the other, finding 40); both
         * answers are attained by points on the shapes, so both bound the
         * distance from above, and the smaller one is kept. */
        const sw_distance_result m = sw_internal_distance_mirrored(sw_gjk_distance(b, a));
        if (m.status == SW_OK && m.distance < r.distance && sw_is_valid_vec3(m.point_a) &&
            sw_is_valid_vec3(m.point_b) && point_on(m.point_a, a, tol) && point_on(m.point_b, b, tol)) {
            r = m;
        }
    }
    /* A box within tol of its long axis (a needle 1e16 times longer than
     * wide: in GJK's frame its width is below the rounding, and GJK
     * stalls anywhere along it, finding 27) is that segment: the cores'
     * closest points answer. */
    sw_capsule seg;
    if (needle_box(a, tol, &seg)) {
        return sw_distance_capsule_shape(&seg, b);
    }
    if (needle_box(b, tol, &seg)) {
        return sw_internal_distance_mirrored(sw_distance_capsule_shape(&seg, a));
    }
    /* GJK's witnesses left their shapes (weights ill-conditioned across a
     * thin or tiny-next-to-huge pair; its distance is still right). The
     * separating axes give the exact answer where the closest features
     * are a face and anything, or two edges: the axis that separates most
     * does so by the distance, and the contact of the supporting
     * features, moved apart along it, gives the points. */
    sat s;
    static_axes(&pr, &s);
    if (s.depth >= 0) {
        /* Touching (GJK may leave a rounding-sized gap): a common point. */
        r.distance = 0;
        r.point_a = r.point_b = to_world_point(&pr, overlap_point(&pr, s.n_depth, s.depth, tol));
        return r;
    }
    if (on_shapes || -s.depth < (double)r.distance - 4 * tol) {
        return r; /* closest at a vertex against a vertex or edge: no axis tells */
    }
    contact_info ci;
    contact_point(&pr.A, pv_scale(s.n_depth, s.depth), &pr.B, s.n_depth, tol, &ci);
    r.distance = (sw_real)-s.depth;
    r.point_b = to_world_point(&pr, ci.point);
    r.point_a = to_world_point(&pr, pv_madd(ci.point, -s.depth, s.n_depth));
    return r;
}

/* ---- against a half-space ------------------------------------------------ */

/* A's lowest point along the plane's unit normal n, and its height below
 * the plane (negative: below). */
static sw_vec3 lowest(const sw_shape* a, sw_vec3 n, sw_real offset, sw_real* height)
{
    const sw_vec3 p = sw_shape_support(a, sw_neg(n));
    *height = sw_dot(n, p) - offset;
    return p;
}

sw_hit sw_internal_sweep_polytope_plane(const sw_shape* a, sw_vec3 d, const sw_plane* b, const sw_sweep_options* opt)
{
    sw_vec3 n = {0, 0, 1};
    sw_real offset = 0;
    sw_internal_plane_unit(b, &n, &offset);
    const sw_real skin = sw_internal_skin(opt);
    sw_real height;
    const sw_vec3 p = lowest(a, n, offset, &height);
    sw_hit h = {0};
    const sw_feature face = {SW_FEATURE_FACE, 0};
    if (height <= skin) {
        if (sw_internal_ignore_separating(opt) && sw_dot(d, n) >= 0) {
            return h;
        }
        h.hit = true;
        h.overlapping = true;
        h.depth = skin - height;
        h.normal = n;
        h.point = p;
        h.feature = face;
        return h;
    }
    const sw_real v = sw_dot(n, d);
    if (!(v < 0) || height - skin > -v) {
        return h;
    }
    h.hit = true;
    h.t = sw_min((height - skin) / -v, 1);
    h.normal = n;
    h.point = sw_madd(p, h.t, d);
    h.feature = face;
    return h;
}

sw_overlap_result sw_internal_overlap_polytope_plane(const sw_shape* a, const sw_plane* b)
{
    sw_vec3 n = {0, 0, 1};
    sw_real offset = 0, height;
    sw_internal_plane_unit(b, &n, &offset);
    const sw_vec3 p = lowest(a, n, offset, &height);
    sw_overlap_result r = {0};
    if (height <= 0) {
        r.overlapping = true;
        r.depth = -height;
        r.normal = n;
        r.point = p;
    }
    return r;
}

sw_distance_result sw_internal_distance_polytope_plane(const sw_shape* a, const sw_plane* b)
{
    sw_vec3 n = {0, 0, 1};
    sw_real offset = 0, height;
    sw_internal_plane_unit(b, &n, &offset);
    const sw_vec3 p = lowest(a, n, offset, &height);
    sw_distance_result r = {0};
    r.distance = sw_max(height, 0);
    r.point_a = p;
    r.point_b = sw_madd(p, -sw_max(height, 0), n);
    return r;
}
