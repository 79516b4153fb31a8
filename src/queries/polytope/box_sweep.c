/* A box swept against a box (or a triangle or polygon, at the end): the
 * classic oriented-box test over time.
 *
 * In B's frame B's axes are the coordinate axes e_k and A's the columns a_j
 * of R = Rb^T Ra, so each of the fifteen axes (e_k, a_j, e_k x a_j) has its
 * projections in O(1). Every axis L gives, both ways, a constraint
 * t (L.d) <= h of the ray cast against M = B - A (polytope_sweep.c); entry
 * and exit times are ratios, which do not depend on |L|, so the cross
 * axes need no normalising until one of them is the answer. The contact
 * point comes from the supporting features, read off the signs of the
 * normal in each box's frame: a vertex directly, two edges by their closest
 * points, a face by clipping the other feature against its rectangle.
 *
 * The cases this path is not sure of go back to the general method
 * (return false): a box thinner than the tolerance, a start touching or
 * overlapping B (the depth and the deepest point are its business), nearly
 * parallel edges in contact, and supporting features that miss each other
 * (a graze). */
#include <float.h>
#include <math.h>

#include "queries/polytope/polytope_sweep.h"

static inline double bx_abs(double a) { return fabs(a); }
static inline double bx_dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The unit quaternion (x, y, z, w) of q, in double. */
static void bx_quat(sw_quat q, double* u)
{
    const double x = q.x, y = q.y, z = q.z, w = q.w, inv = 1 / sqrt(x * x + y * y + z * z + w * w);
    u[0] = x * inv, u[1] = y * inv, u[2] = z * inv, u[3] = w * inv;
}

/* The entry bounds of the fifteen axes (their slot; the largest wins) and
 * the earliest exit. Times are saturated at +-4 as the general method's
 * are (only times in [0, 1] and their order matter, and a tiny v must not
 * overflow): h / max(|v|, |h| / 4) is h / |v| or +-4; the divisions are
 * independent and the running minimum and maximum are single
 * instructions, so no chain of selects forms. */
typedef struct bx_sat {
    double te[4 + 3 * SW_MAX_POLYGON_VERTICES]; /* two boxes use 15 */
    double enter, exit;
    bool neg[4 + 3 * SW_MAX_POLYGON_VERTICES]; /* slot i's entering side is -L */
    bool never;
    bool apart; /* some constraint is below -tol at t = 0 */
    double tol_sq;
} bx_sat;

static inline double bx_max(double a, double b) { return a > b ? a : b; }
static inline double bx_min(double a, double b) { return a < b ? a : b; }

/* Slot i: the constraints t v <= h (axis L) and -t v <= h2 (axis -L);
 * len_sq is |L|^2, for the tolerance of a start that touches. */
static inline void bx_axis(bx_sat* s, int i, double v, double h, double h2, double len_sq)
{
    const double hm = bx_min(h, h2);
    s->apart |= (hm < 0) & (hm * hm > s->tol_sq * len_sq);
    const double av = fabs(v);
    if (!(av > 0)) {
        s->never |= hm < 0;
        s->te[i] = -1e300;
        return;
    }
    const bool toward = v < 0; /* L enters, -L exits */
    s->neg[i] = !toward;
    const double he = toward ? h : h2, hx = toward ? h2 : h;
    const double te = -he / bx_max(av, fabs(he) / 4), tx = hx / bx_max(av, fabs(hx) / 4);
    s->te[i] = te;
    s->enter = bx_max(s->enter, te);
    s->exit = bx_min(s->exit, tx);
}

/* Room for a polygon clipped by a rectangle. */
enum { BX_MAX_CLIP = SW_MAX_POLYGON_VERTICES + 8 };

/* Sutherland-Hodgman of the convex polygon p (n points; two are a segment)
 * against the rectangle |x| <= hx, |y| <= hy; returns the count left. */
static int bx_clip_rect(double (*p)[2], int n, double hx, double hy)
{
    double buf[BX_MAX_CLIP][2];
    double(*in)[2] = p;
    double(*out)[2] = buf;
    for (int side = 0; side < 4 && n > 0; ++side) {
        const int c = side >> 1;
        const double sg = side & 1 ? -1 : 1, lim = c ? hy : hx;
        int m = 0;
        for (int i = 0; i < n; ++i) {
            const double* a = in[i];
            const double* b = in[(i + 1) % n];
            const double da = lim - sg * a[c], db = lim - sg * b[c];
            if (da >= 0) {
                out[m][0] = a[0];
                out[m][1] = a[1];
                ++m;
            }
            if ((da >= 0) != (db >= 0)) {
                const double u = da / (da - db);
                out[m][0] = a[0] + u * (b[0] - a[0]);
                out[m][1] = a[1] + u * (b[1] - a[1]);
                ++m;
            }
        }
        n = m;
        double(*t)[2] = in;
        in = out;
        out = t;
    }
    if (in != p) {
        for (int i = 0; i < n; ++i) {
            p[i][0] = in[i][0];
            p[i][1] = in[i][1];
        }
    }
    return n;
}

/* The supporting feature of a box (half extents h) along the direction m
 * (unit, box frame): free[k] where both signs are within tol of the
 * extreme, else the sign s[k]; returns the feature's dimension. */
static int bx_support(const double* h, const double* m, double tol, bool* free, double* s)
{
    int dim = 0;
    for (int k = 0; k < 3; ++k) {
        free[k] = 2 * h[k] * bx_abs(m[k]) <= tol;
        s[k] = m[k] < 0 ? -1 : 1;
        dim += free[k];
    }
    return dim;
}

/* A point on the feature (free axes, signs s) of the box with half
 * extents h clipped against the face of the other box: the feature's
 * points are given in the face box's frame as corners of the feature (in
 * cyclic order), the face lies across axis k at coordinate fs * fh[k].
 * Returns false where they miss each other. */
static bool bx_on_face(double (*pts)[3], int n, const double* fh, int k, double fs, double* q)
{
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    double poly[BX_MAX_CLIP][2];
    for (int c = 0; c < n; ++c) {
        poly[c][0] = pts[c][i];
        poly[c][1] = pts[c][j];
    }
    const int m = bx_clip_rect(poly, n, fh[i], fh[j]);
    if (m == 0) {
        return false;
    }
    double x = 0, y = 0;
    for (int c = 0; c < m; ++c) {
        x += poly[c][0];
        y += poly[c][1];
    }
    q[i] = x / m;
    q[j] = y / m;
    q[k] = fs * fh[k];
    return true;
}

/* The midpoint of the closest points of the segments a0-a1 and b0-b1;
 * false where they are nearly parallel or pass beyond an end by more than
 * tol (the supporting edges of a graze). */
static bool bx_edges_meet(const double* a0, const double* a1, const double* b0, const double* b1, double tol, double* q)
{
    /* minimise |g + u ua - w ub|^2 */
    const double ua[3] = {a1[0] - a0[0], a1[1] - a0[1], a1[2] - a0[2]};
    const double ub[3] = {b1[0] - b0[0], b1[1] - b0[1], b1[2] - b0[2]};
    const double g[3] = {a0[0] - b0[0], a0[1] - b0[1], a0[2] - b0[2]};
    const double aa = bx_dot(ua, ua), bb = bx_dot(ub, ub), ab = bx_dot(ua, ub);
    const double den = aa * bb - ab * ab;
    if (!(den > 1e-6 * aa * bb)) {
        return false;
    }
    const double ga = bx_dot(g, ua), gb = bx_dot(g, ub);
    const double u = (ab * gb - bb * ga) / den, w = (aa * gb - ab * ga) / den;
    const double su = tol / sqrt(aa), sw = tol / sqrt(bb);
    if (u < -su || u > 1 + su || w < -sw || w > 1 + sw) {
        return false;
    }
    for (int i = 0; i < 3; ++i) {
        q[i] = (a0[i] + u * ua[i] + b0[i] + w * ub[i]) / 2;
    }
    return true;
}

/* The corners of a box's feature (free axes, signs s, centre c, axes as
 * the columns of r, or the identity when r is NULL) in cyclic order. */
static int bx_corners(const double* h, const bool* free, const double* s, const double* c, const double* r,
                      double (*out)[3])
{
    int fa[2], nf = 0;
    for (int k = 0; k < 3; ++k) {
        if (free[k]) {
            fa[nf++] = k;
        }
    }
    static const int gray[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    const int n = nf == 0 ? 1 : (nf == 1 ? 2 : 4);
    for (int v = 0; v < n; ++v) {
        double l[3] = {s[0] * h[0], s[1] * h[1], s[2] * h[2]};
        if (nf >= 1) {
            l[fa[0]] = gray[v][0] * h[fa[0]];
        }
        if (nf == 2) {
            l[fa[1]] = gray[v][1] * h[fa[1]];
        }
        for (int a = 0; a < 3; ++a) {
            out[v][a] = c[a] + (r ? r[3 * a] * l[0] + r[3 * a + 1] * l[1] + r[3 * a + 2] * l[2] : l[a]);
        }
    }
    return n;
}

/* B's feature at the point p (B's frame) as the general method names it:
 * a supporting vertex within tol, else a supporting edge within tol (the
 * lowest index first), else the face most facing n. The supporting
 * vertices are more than 4 tol apart, so at most one is within tol. */
static sw_feature bx_feature(const double* hb, const bool* free, const double* s, const double* p, const double* n,
                             double tol)
{
    int vi = 0;
    double near[3], dist_sq = 0;
    for (int k = 0; k < 3; ++k) {
        /* the supporting vertex nearest p */
        const double sg = free[k] ? (p[k] < 0 ? -1 : 1) : s[k];
        vi |= (sg > 0) << k;
        near[k] = p[k] - sg * hb[k];
        dist_sq += near[k] * near[k];
    }
    const double tol_sq = tol * tol;
    if (dist_sq <= tol_sq) {
        return (sw_feature){SW_FEATURE_VERTEX, vi};
    }
    for (int axis = 0; axis < 3; ++axis) {
        if (!free[axis]) {
            continue;
        }
        const int next = (axis + 1) % 3, after = (axis + 2) % 3;
        for (int j = 0; j < 4; ++j) {
            const double s1 = j & 1 ? 1 : -1, s2 = j & 2 ? 1 : -1;
            if ((!free[next] && s1 != s[next]) || (!free[after] && s2 != s[after])) {
                continue;
            }
            /* an edge along a coordinate axis: the distance by parts */
            const double over = fabs(p[axis]) - hb[axis];
            const double g0 = over > 0 ? over : 0, g1 = p[next] - s1 * hb[next], g2 = p[after] - s2 * hb[after];
            if (g0 * g0 + g1 * g1 + g2 * g2 <= tol_sq) {
                return (sw_feature){SW_FEATURE_EDGE, 4 * axis + j};
            }
        }
    }
    int best = 0;
    for (int k = 1; k < 3; ++k) {
        best = fabs(n[k]) > fabs(n[best]) ? k : best;
    }
    return (sw_feature){SW_FEATURE_FACE, 2 * best + (n[best] > 0)};
}

bool sw_internal_sweep_boxes(const sw_box* a, sw_vec3 d, const sw_box* b, sw_hit* out)
{
    *out = (sw_hit){0};
    double qa[4], qb[4], rb[9], r[9];
    bx_quat(a->rotation, qa);
    bx_quat(b->rotation, qb);
    sw_internal_quat_matrix(qb[0], qb[1], qb[2], qb[3], rb);
    /* r = Rb^T Ra (A's axes in B's frame as columns), from the relative
     * rotation conj(qb) qa. */
    const double qr[4] = {qb[3] * qa[0] - qa[3] * qb[0] - (qb[1] * qa[2] - qb[2] * qa[1]),
                          qb[3] * qa[1] - qa[3] * qb[1] - (qb[2] * qa[0] - qb[0] * qa[2]),
                          qb[3] * qa[2] - qa[3] * qb[2] - (qb[0] * qa[1] - qb[1] * qa[0]),
                          qb[3] * qa[3] + qb[0] * qa[0] + qb[1] * qa[1] + qb[2] * qa[2]};
    sw_internal_quat_matrix(qr[0], qr[1], qr[2], qr[3], r);
    const double wa[3] = {a->center.x, a->center.y, a->center.z}, wb[3] = {b->center.x, b->center.y, b->center.z};
    const double off[3] = {wa[0] - wb[0], wa[1] - wb[1], wa[2] - wb[2]};
    const double dw[3] = {d.x, d.y, d.z};
    double o[3], dl[3];
    for (int i = 0; i < 3; ++i) {
        o[i] = rb[i] * off[0] + rb[3 + i] * off[1] + rb[6 + i] * off[2];
        dl[i] = rb[i] * dw[0] + rb[3 + i] * dw[1] + rb[6 + i] * dw[2];
    }
    const double ha[3] = {a->half.x, a->half.y, a->half.z}, hb[3] = {b->half.x, b->half.y, b->half.z};

    /* scale as the general method takes it: extents plus centre, and d */
    double ea = 0, eb = 0, ed = 0, ca = 0, cb = 0;
    for (int k = 0; k < 3; ++k) {
        ea = ha[k] > ea ? ha[k] : ea;
        eb = hb[k] > eb ? hb[k] : eb;
        ed = bx_abs(dw[k]) > ed ? bx_abs(dw[k]) : ed;
        ca = bx_abs(wa[k]) > ca ? bx_abs(wa[k]) : ca;
        cb = bx_abs(wb[k]) > cb ? bx_abs(wb[k]) : cb;
    }
    double scale = ea + ca > eb + cb ? ea + ca : eb + cb;
    scale = ed > scale ? ed : scale;
    const double tol = SW_TOLERANCE / 4 * scale;
    for (int k = 0; k < 3; ++k) {
        if (!(ha[k] > 4 * tol && hb[k] > 4 * tol)) {
            return false; /* a box about as thin as the tolerance */
        }
    }

    /* The balls around A and B stay apart: a certain miss. */
    {
        const double rad = sqrt(bx_dot(ha, ha)) + sqrt(bx_dot(hb, hb));
        const double dd = bx_dot(dl, dl);
        double t = dd > 0 ? -bx_dot(o, dl) / dd : 0;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        const double g[3] = {o[0] + t * dl[0], o[1] + t * dl[1], o[2] + t * dl[2]};
        const double reach = rad * (1 + 1e-9) + 1e-9 * scale;
        if (bx_dot(g, g) > reach * reach) {
            return true;
        }
    }

    double ar[9];
    for (int i = 0; i < 9; ++i) {
        ar[i] = bx_abs(r[i]);
    }
    bx_sat s;
    s.enter = -1e300;
    s.exit = 1e300;
    s.never = false;
    s.apart = false;
    s.tol_sq = tol * tol;
    /* B's faces e_k: h = hb_k + (A's radius along e_k) -+ o_k. */
    for (int k = 0; k < 3; ++k) {
        const double rad = hb[k] + ha[0] * ar[3 * k] + ha[1] * ar[3 * k + 1] + ha[2] * ar[3 * k + 2];
        bx_axis(&s, k, dl[k], rad - o[k], rad + o[k], 1);
    }
    /* A's faces a_j. */
    for (int j = 0; j < 3; ++j) {
        const double rad = ha[j] + hb[0] * ar[j] + hb[1] * ar[3 + j] + hb[2] * ar[6 + j];
        const double c = r[j] * o[0] + r[3 + j] * o[1] + r[6 + j] * o[2];
        const double v = r[j] * dl[0] + r[3 + j] * dl[1] + r[6 + j] * dl[2];
        bx_axis(&s, 3 + j, v, rad - c, rad + c, 1);
    }
    /* e_k x a_j = (0, -a_z, a_y), (a_z, 0, -a_x), (-a_y, a_x, 0): its
     * projections of B and of A's other two axes follow from the rows of
     * r (R^T (e_k x a_j) = columns' cross products, up to sign). */
    for (int k = 0; k < 3; ++k) {
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            /* L = e_k x a_j: L_k1 = -a_j[k2], L_k2 = a_j[k1] */
            const double l1 = -r[3 * k2 + j], l2 = r[3 * k1 + j];
            const double len_sq = l1 * l1 + l2 * l2;
            if (!(len_sq > 1e-24)) {
                s.te[6 + 3 * k + j] = -1e300; /* parallel edges: the face axes cover them */
                continue;
            }
            const double rad_b = hb[k1] * bx_abs(l1) + hb[k2] * bx_abs(l2);
            /* L . a_m directly: the identity (e_k x a_j) . a_m = e_k . (a_j x
             * a_m) holds only as far as r is orthonormal (a float
             * quaternion's rounding), which a short L (nearly parallel
             * edges) turns into a wrong radius. */
            const double rad_a = ha[j1] * fabs(l1 * r[3 * k1 + j1] + l2 * r[3 * k2 + j1]) +
                                 ha[j2] * fabs(l1 * r[3 * k1 + j2] + l2 * r[3 * k2 + j2]);
            const double c = l1 * o[k1] + l2 * o[k2], v = l1 * dl[k1] + l2 * dl[k2];
            bx_axis(&s, 6 + 3 * k + j, v, rad_b + rad_a - c, rad_b + rad_a + c, len_sq);
        }
    }
    if (!s.apart) {
        return false; /* touching or overlapping at t = 0 */
    }
    if (s.never || !(s.enter > -1e300) || s.enter > s.exit || s.enter > 1 || s.exit < 0) {
        return true;
    }
    const double t = s.enter < 0 ? 0 : s.enter;
    /* the entry axis: the first slot with the latest entry, as the
     * general method takes it */
    int axis = 0;
    while (axis < 14 && s.te[axis] != s.enter) {
        ++axis;
    }
    const double sign = s.neg[axis] ? -1 : 1;

    /* the contact normal, from B toward A, in B's frame */
    double n[3] = {0, 0, 0};
    if (axis < 3) {
        n[axis] = sign;
    } else if (axis < 6) {
        for (int i = 0; i < 3; ++i) {
            n[i] = sign * r[3 * i + axis - 3];
        }
    } else {
        const int k = (axis - 6) / 3, j = (axis - 6) % 3;
        n[(k + 1) % 3] = -r[3 * ((k + 2) % 3) + j];
        n[(k + 2) % 3] = r[3 * ((k + 1) % 3) + j];
        const double inv = sign / sqrt(bx_dot(n, n));
        for (int i = 0; i < 3; ++i) {
            n[i] *= inv;
        }
    }

    /* Supporting features: B's along n, A's along -n (in A's frame). */
    double m[3];
    for (int j = 0; j < 3; ++j) {
        m[j] = -(r[j] * n[0] + r[3 + j] * n[1] + r[6 + j] * n[2]);
    }
    bool free_a[3], free_b[3];
    double sa[3], sb[3];
    const int dim_a = bx_support(ha, m, tol, free_a, sa);
    const int dim_b = bx_support(hb, n, tol, free_b, sb);
    const double c[3] = {o[0] + t * dl[0], o[1] + t * dl[1], o[2] + t * dl[2]};
    double pa[4][3], pb[4][3];
    const int na = bx_corners(ha, free_a, sa, c, r, pa);
    const int nb = bx_corners(hb, free_b, sb, (const double[3]){0, 0, 0}, NULL, pb);
    double q[3];
    if (dim_a == 0) {
        q[0] = pa[0][0], q[1] = pa[0][1], q[2] = pa[0][2];
    } else if (dim_b == 0) {
        q[0] = pb[0][0], q[1] = pb[0][1], q[2] = pb[0][2];
    } else if (dim_a == 1 && dim_b == 1) {
        if (!bx_edges_meet(pa[0], pa[1], pb[0], pb[1], tol, q)) {
            return false;
        }
    } else if (dim_b == 2) {
        int k = 0;
        while (free_b[k]) {
            ++k;
        }
        if (!bx_on_face(pa, na, hb, k, sb[k], q)) {
            return false;
        }
    } else {
        /* A's face against B's edge: in A's frame */
        int k = 0;
        while (free_a[k]) {
            ++k;
        }
        double lb[4][3];
        for (int v = 0; v < nb; ++v) {
            const double g[3] = {pb[v][0] - c[0], pb[v][1] - c[1], pb[v][2] - c[2]};
            for (int jj = 0; jj < 3; ++jj) {
                lb[v][jj] = r[jj] * g[0] + r[3 + jj] * g[1] + r[6 + jj] * g[2];
            }
        }
        double ql[3];
        if (!bx_on_face(lb, nb, ha, k, sa[k], ql)) {
            return false;
        }
        for (int i = 0; i < 3; ++i) {
            q[i] = c[i] + r[3 * i] * ql[0] + r[3 * i + 1] * ql[1] + r[3 * i + 2] * ql[2];
        }
    }
    /* onto the plane across n halfway between the two supporting levels */
    const double lb_level = hb[0] * bx_abs(n[0]) + hb[1] * bx_abs(n[1]) + hb[2] * bx_abs(n[2]);
    const double la_level = bx_dot(n, c) - (ha[0] * bx_abs(m[0]) + ha[1] * bx_abs(m[1]) + ha[2] * bx_abs(m[2]));
    const double lift = (la_level + lb_level) / 2 - bx_dot(n, q);
    for (int i = 0; i < 3; ++i) {
        q[i] += lift * n[i];
    }

    out->hit = true;
    out->t = (sw_real)t;
    sw_vec3 nw = sw_v3((sw_real)(rb[0] * n[0] + rb[1] * n[1] + rb[2] * n[2]),
                       (sw_real)(rb[3] * n[0] + rb[4] * n[1] + rb[5] * n[2]),
                       (sw_real)(rb[6] * n[0] + rb[7] * n[1] + rb[8] * n[2]));
    sw_normalize(&nw);
    out->normal = nw;
    out->point = sw_v3((sw_real)(b->center.x + (rb[0] * q[0] + rb[1] * q[1] + rb[2] * q[2])),
                       (sw_real)(b->center.y + (rb[3] * q[0] + rb[4] * q[1] + rb[5] * q[2])),
                       (sw_real)(b->center.z + (rb[6] * q[0] + rb[7] * q[1] + rb[8] * q[2])));
    out->feature = bx_feature(hb, free_b, sb, q, n, 2 * tol);
    return true;
}

/* ---- a box against a triangle or polygon ------------------------------------
 *
 * The same in A's frame, where A is axis-aligned at the origin and B's
 * vertices are rotated in once: the axes are B's normal, A's faces and
 * each of A's axes crossed with each of B's edges (a flat B's edges have no
 * Gauss-map arcs, so every pair counts, as in the general method), A's
 * radius along any of them O(1) and B's range a pass over its vertices. */

static double bx_segment_distance_sq(const double* p, const double* a, const double* b)
{
    const double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    const double ee = bx_dot(ab, ab);
    double u = ee > 0 ? bx_dot(ap, ab) / ee : 0;
    u = u < 0 ? 0 : (u > 1 ? 1 : u);
    const double g[3] = {ap[0] - u * ab[0], ap[1] - u * ab[1], ap[2] - u * ab[2]};
    return bx_dot(g, g);
}

/* B's feature at p as the general method names a flat B's: a supporting
 * vertex within tol, else an edge between supporting vertices within tol,
 * else the face, or where fewer than three vertices support (an edge seen
 * edge-on) the nearest edge. */
static sw_feature bx_flat_feature(const double (*q)[3], int nv, const bool* in, int nb, const double* p, double tol)
{
    const double tol_sq = tol * tol;
    for (int i = 0; i < nv; ++i) {
        const double g[3] = {q[i][0] - p[0], q[i][1] - p[1], q[i][2] - p[2]};
        if (in[i] && bx_dot(g, g) <= tol_sq) {
            return (sw_feature){SW_FEATURE_VERTEX, i};
        }
    }
    for (int i = 0; i < nv; ++i) {
        const int j = (i + 1) % nv;
        if (in[i] && in[j] && bx_segment_distance_sq(p, q[i], q[j]) <= tol_sq) {
            return (sw_feature){SW_FEATURE_EDGE, i};
        }
    }
    if (nb >= 3) {
        return (sw_feature){SW_FEATURE_FACE, 0};
    }
    int best = 0;
    double best_sq = DBL_MAX;
    for (int i = 0; i < nv; ++i) {
        const double dd = bx_segment_distance_sq(p, q[i], q[(i + 1) % nv]);
        if (dd < best_sq) {
            best_sq = dd;
            best = i;
        }
    }
    return (sw_feature){SW_FEATURE_EDGE, best};
}

bool sw_internal_sweep_box_flat(const sw_box* a, sw_vec3 d, const sw_shape* b, sw_hit* out)
{
    *out = (sw_hit){0};
    sw_polytope pb;
    sw_polytope_make(b, &pb);
    if (pb.nf == 0) {
        return false; /* a sliver: its edges answer, in the general method */
    }
    const int nv = pb.nv;
    double qa[4], ra[9];
    bx_quat(a->rotation, qa);
    sw_internal_quat_matrix(qa[0], qa[1], qa[2], qa[3], ra);
    const double ca[3] = {a->center.x, a->center.y, a->center.z};
    const double ha[3] = {a->half.x, a->half.y, a->half.z};
    const double dw[3] = {d.x, d.y, d.z}, fw[3] = {pb.front.x, pb.front.y, pb.front.z};
    double q[SW_MAX_POLYGON_VERTICES][3], dl[3], fn[3];
    double eb = 0;
    for (int i = 0; i < nv; ++i) {
        const double g[3] = {(double)pb.v[i].x - ca[0], (double)pb.v[i].y - ca[1], (double)pb.v[i].z - ca[2]};
        for (int k = 0; k < 3; ++k) {
            q[i][k] = ra[k] * g[0] + ra[3 + k] * g[1] + ra[6 + k] * g[2];
        }
        const double m = bx_max(bx_max(fabs(pb.v[i].x), fabs(pb.v[i].y)), fabs(pb.v[i].z));
        eb = m > eb ? m : eb;
    }
    for (int k = 0; k < 3; ++k) {
        dl[k] = ra[k] * dw[0] + ra[3 + k] * dw[1] + ra[6 + k] * dw[2];
        fn[k] = ra[k] * fw[0] + ra[3 + k] * fw[1] + ra[6 + k] * fw[2];
    }
    /* scale as the general method takes it */
    double ea = 0, ed = 0, cm = 0;
    for (int k = 0; k < 3; ++k) {
        ea = ha[k] > ea ? ha[k] : ea;
        ed = fabs(dw[k]) > ed ? fabs(dw[k]) : ed;
        cm = fabs(ca[k]) > cm ? fabs(ca[k]) : cm;
    }
    const double scale = bx_max(bx_max(ea + cm, eb), ed);
    const double tol = SW_TOLERANCE / 4 * scale;
    for (int k = 0; k < 3; ++k) {
        if (!(ha[k] > 4 * tol)) {
            return false; /* a box about as thin as the tolerance */
        }
    }

    /* The balls around A and B stay apart: a certain miss. */
    {
        double cb[3] = {0, 0, 0}, rb_sq = 0;
        for (int i = 0; i < nv; ++i) {
            for (int k = 0; k < 3; ++k) {
                cb[k] += q[i][k] / nv;
            }
        }
        for (int i = 0; i < nv; ++i) {
            const double g[3] = {q[i][0] - cb[0], q[i][1] - cb[1], q[i][2] - cb[2]};
            rb_sq = bx_max(rb_sq, bx_dot(g, g));
        }
        const double rad = sqrt(bx_dot(ha, ha)) + sqrt(rb_sq);
        const double dd = bx_dot(dl, dl);
        double t = dd > 0 ? bx_dot(cb, dl) / dd : 0;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        const double g[3] = {t * dl[0] - cb[0], t * dl[1] - cb[1], t * dl[2] - cb[2]};
        const double reach = rad * (1 + 1e-9) + 1e-9 * scale;
        if (bx_dot(g, g) > reach * reach) {
            return true;
        }
    }

    bx_sat s;
    s.enter = -1e300;
    s.exit = 1e300;
    s.never = false;
    s.apart = false;
    s.tol_sq = tol * tol;
    /* slot 0: B's normal; h = max over B + A's radius, and for -L the
     * same with min over B */
    {
        double lo = DBL_MAX, hi = -DBL_MAX;
        for (int i = 0; i < nv; ++i) {
            const double x = bx_dot(fn, q[i]);
            lo = bx_min(lo, x);
            hi = bx_max(hi, x);
        }
        const double rad = ha[0] * fabs(fn[0]) + ha[1] * fabs(fn[1]) + ha[2] * fabs(fn[2]);
        bx_axis(&s, 0, bx_dot(fn, dl), hi + rad, rad - lo, bx_dot(fn, fn));
    }
    /* slots 1..3: A's faces */
    for (int k = 0; k < 3; ++k) {
        double lo = DBL_MAX, hi = -DBL_MAX;
        for (int i = 0; i < nv; ++i) {
            lo = bx_min(lo, q[i][k]);
            hi = bx_max(hi, q[i][k]);
        }
        bx_axis(&s, 1 + k, dl[k], hi + ha[k], ha[k] - lo, 1);
    }
    /* slots 4 + nv k + j: B's edge j crossed with A's axis k, which has
     * no component along k */
    for (int k = 0; k < 3; ++k) {
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        for (int j = 0; j < nv; ++j) {
            const double* e0 = q[j];
            const double* e1 = q[(j + 1) % nv];
            const double ek1 = e1[k1] - e0[k1], ek2 = e1[k2] - e0[k2], ek = e1[k] - e0[k];
            /* e x e_k: components k1 = e_k2, k2 = -e_k1 */
            const double l1 = ek2, l2 = -ek1;
            const double len_sq = l1 * l1 + l2 * l2;
            const int slot = 4 + nv * k + j;
            if (!(len_sq > 1e-24 * (len_sq + ek * ek))) {
                s.te[slot] = -1e300; /* an edge along A's axis: the face axes cover it */
                continue;
            }
            double lo = DBL_MAX, hi = -DBL_MAX;
            for (int i = 0; i < nv; ++i) {
                const double x = l1 * q[i][k1] + l2 * q[i][k2];
                lo = bx_min(lo, x);
                hi = bx_max(hi, x);
            }
            const double rad = ha[k1] * fabs(l1) + ha[k2] * fabs(l2);
            bx_axis(&s, slot, l1 * dl[k1] + l2 * dl[k2], hi + rad, rad - lo, len_sq);
        }
    }
    if (!s.apart) {
        return false; /* touching or overlapping at t = 0 */
    }
    if (s.never || !(s.enter > -1e300) || s.enter > s.exit || s.enter > 1 || s.exit < 0) {
        return true;
    }
    const double t = s.enter < 0 ? 0 : s.enter;
    const int slots = 4 + 3 * nv;
    int axis = 0;
    while (axis < slots - 1 && s.te[axis] != s.enter) {
        ++axis;
    }
    const double sign = s.neg[axis] ? -1 : 1;

    /* the contact normal, from B toward A, in A's frame (unit) */
    double n[3];
    if (axis == 0) {
        n[0] = fn[0], n[1] = fn[1], n[2] = fn[2];
    } else if (axis < 4) {
        n[0] = n[1] = n[2] = 0;
        n[axis - 1] = 1;
    } else {
        const int k = (axis - 4) / nv, j = (axis - 4) % nv;
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        const double* e0 = q[j];
        const double* e1 = q[(j + 1) % nv];
        n[k] = 0;
        n[k1] = e1[k2] - e0[k2];
        n[k2] = -(e1[k1] - e0[k1]);
    }
    const double inv = sign / sqrt(bx_dot(n, n));
    for (int i = 0; i < 3; ++i) {
        n[i] *= inv;
    }

    /* Supporting features: A's along -n from its signs, B's the vertices
     * within tol of its extreme along n. */
    const double m[3] = {-n[0], -n[1], -n[2]};
    bool free_a[3];
    double sa[3];
    const int dim_a = bx_support(ha, m, tol, free_a, sa);
    const double c[3] = {t * dl[0], t * dl[1], t * dl[2]};
    double pa[4][3];
    bx_corners(ha, free_a, sa, c, NULL, pa);
    double lb = -DBL_MAX;
    for (int i = 0; i < nv; ++i) {
        lb = bx_max(lb, bx_dot(n, q[i]));
    }
    bool in[SW_MAX_POLYGON_VERTICES];
    int nb = 0, first = -1, last = -1;
    for (int i = 0; i < nv; ++i) {
        in[i] = bx_dot(n, q[i]) >= lb - tol;
        if (in[i]) {
            first = first < 0 ? i : first;
            last = i;
            ++nb;
        }
    }
    /* two supporting vertices: an edge of B, or a diagonal (unsure) */
    const bool edge_b = nb == 2 && (last == first + 1 || (first == 0 && last == nv - 1));
    double p[3];
    if (dim_a == 0) {
        p[0] = pa[0][0], p[1] = pa[0][1], p[2] = pa[0][2];
    } else if (nb == 1) {
        p[0] = q[first][0], p[1] = q[first][1], p[2] = q[first][2];
    } else if (dim_a == 1 && edge_b) {
        if (!bx_edges_meet(pa[0], pa[1], q[first], q[last], tol, p)) {
            return false;
        }
    } else if (dim_a == 2 && (edge_b || nb == nv)) {
        /* B's edge or face clipped by A's face, in A's frame at time t */
        double pts[SW_MAX_POLYGON_VERTICES][3];
        int np = 0;
        for (int i = 0; i < nv; ++i) {
            if (in[i]) {
                for (int k = 0; k < 3; ++k) {
                    pts[np][k] = q[i][k] - c[k];
                }
                ++np;
            }
        }
        int k = 0;
        while (free_a[k]) {
            ++k;
        }
        if (!bx_on_face(pts, np, ha, k, sa[k], p)) {
            return false;
        }
        for (int i = 0; i < 3; ++i) {
            p[i] += c[i];
        }
    } else {
        return false; /* A's edge on B's face, or a degenerate support */
    }
    /* onto the plane across n halfway between the two supporting levels */
    const double la = bx_dot(n, c) - (ha[0] * fabs(n[0]) + ha[1] * fabs(n[1]) + ha[2] * fabs(n[2]));
    const double lift = (la + lb) / 2 - bx_dot(n, p);
    for (int i = 0; i < 3; ++i) {
        p[i] += lift * n[i];
    }

    sw_vec3 nw = sw_v3((sw_real)(ra[0] * n[0] + ra[1] * n[1] + ra[2] * n[2]),
                       (sw_real)(ra[3] * n[0] + ra[4] * n[1] + ra[5] * n[2]),
                       (sw_real)(ra[6] * n[0] + ra[7] * n[1] + ra[8] * n[2]));
    sw_normalize(&nw);
    if (pb.one_sided && !(sw_dot(d, pb.front) < 0 && sw_dot(nw, pb.front) > 0)) {
        return true; /* the back of a one-sided face */
    }
    out->hit = true;
    out->t = (sw_real)t;
    out->normal = nw;
    out->point = sw_v3((sw_real)(ca[0] + (ra[0] * p[0] + ra[1] * p[1] + ra[2] * p[2])),
                       (sw_real)(ca[1] + (ra[3] * p[0] + ra[4] * p[1] + ra[5] * p[2])),
                       (sw_real)(ca[2] + (ra[6] * p[0] + ra[7] * p[1] + ra[8] * p[2])));
    out->feature = bx_flat_feature((const double(*)[3])q, nv, in, nb, p, 2 * tol);
    return true;
}
