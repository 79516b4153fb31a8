/* The contact of a polytope pair along an axis: the overlap of the
 * supporting features (a point in it) and B's feature there. */
#include <float.h>
#include "queries/polytope/polytope_internal.h"

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
int sw_pt_support_set(const placed* P, pv n, bool upper, double tol, pv shift, pv* pts, int* idx, double* level)
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

/* A point where A (shifted) and B touch along n (n from B toward A): the
 * middle of the overlap of their supporting features, projected on the
 * plane across n. */
void sw_pt_contact_point_gap(const placed* A, pv shift, const placed* B, pv n, double tol, contact_info* ci,
                              double* gap)
{
    pv pa[MAX_SUPPORT], pb[MAX_SUPPORT];
    int ia[MAX_SUPPORT];
    double la, lb;
    const int ka = sw_pt_support_set(A, n, false, tol, shift, pa, ia, &la);
    const int kb = sw_pt_support_set(B, n, true, tol, pv3(0, 0, 0), pb, ci->bidx, &lb);
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

void sw_pt_contact_point(const placed* A, pv shift, const placed* B, pv n, double tol, contact_info* ci)
{
    sw_pt_contact_point_gap(A, shift, B, n, tol, ci, NULL);
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
sw_feature sw_pt_feature_of(const placed* B, const contact_info* ci, pv n, double tol)
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
