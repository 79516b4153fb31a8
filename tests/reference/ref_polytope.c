/* Long-double reference for polytope pairs (see ref_polytope.h). */
#include "ref_polytope.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers --------------------------------------------------------- */

/* x*y as the unevaluated sum *hi + *lo, exactly (Dekker's product with
 * Veltkamp's split of the 64-bit significand into halves; no fmal, which
 * is slow in software for long double). */
static void two_prod(ref_real x, ref_real y, ref_real* hi, ref_real* lo)
{
    const ref_real split = 4294967297.0L; /* 2^32 + 1 */
    const ref_real tx = split * x, ty = split * y;
    const ref_real xh = tx - (tx - x), xl = x - xh;
    const ref_real yh = ty - (ty - y), yl = y - yh;
    *hi = x * y;
    *lo = ((xh * yh - *hi) + xh * yl + xl * yh) + xl * yl;
}

/* a*b - c*d to a few ulps, where the plain form cancels. */
static ref_real diff_prod(ref_real a, ref_real b, ref_real c, ref_real d)
{
    ref_real p, ep, q, eq;
    two_prod(a, b, &p, &ep);
    two_prod(c, d, &q, &eq);
    return (p - q) + (ep - eq);
}

/* Cross product accurate per component where it cancels: nearly parallel
 * edges of double inputs leave long double little headroom (the fma path
 * is slow in software, so only there). */
static ref_vec xacc(ref_vec a, ref_vec b)
{
    const ref_vec c = rv_cross(a, b);
    if (rv_dot(c, c) > 1e-6L * rv_dot(a, a) * rv_dot(b, b)) {
        return c;
    }
    return rv(diff_prod(a.y, b.z, a.z, b.y), diff_prod(a.z, b.x, a.x, b.z), diff_prod(a.x, b.y, a.y, b.x));
}

static bool is_zero(ref_vec a) { return a.x == 0 && a.y == 0 && a.z == 0; }

/* Columns of the rotation matrix of q, normalised in long double. */
static void rotation_columns(sw_quat q, ref_vec col[3])
{
    ref_real x = q.x, y = q.y, z = q.z, w = q.w;
    const ref_real m = fmaxl(fmaxl(fabsl(x), fabsl(y)), fmaxl(fabsl(z), fabsl(w)));
    x /= m;
    y /= m;
    z /= m;
    w /= m;
    const ref_real len = sqrtl(x * x + y * y + z * z + w * w);
    x /= len;
    y /= len;
    z /= len;
    w /= len;
    col[0] = rv(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
    col[1] = rv(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
    col[2] = rv(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
}

static ref_vec rotate(const ref_vec col[3], ref_vec v)
{
    return rv_add(rv_add(rv_scale(col[0], v.x), rv_scale(col[1], v.y)), rv_scale(col[2], v.z));
}

/* Adds u (normalised) to a list of directions unless it is zero or
 * parallel (either sign) to one already there. */
static void add_direction(ref_vec* list, int* n, int cap, ref_vec u)
{
    if (!(rv_normalize(&u) > 0)) {
        return;
    }
    for (int i = 0; i < *n; ++i) {
        if (rv_max_abs(rv_cross(list[i], u)) <= 1e-17L) {
            return;
        }
    }
    if (*n < cap) {
        list[(*n)++] = u;
    }
}

static bool add_face(rp_poly* p, const int* idx, int count, ref_vec n)
{
    if (p->nf >= RP_MAX_FACES) {
        return false;
    }
    const int first = p->nf == 0 ? 0 : p->ffirst[p->nf - 1] + p->fcount[p->nf - 1];
    if (first + count > RP_MAX_FACE_VERTS) {
        return false;
    }
    for (int i = 0; i < count; ++i) {
        p->fv[first + i] = idx[i];
    }
    p->ffirst[p->nf] = first;
    p->fcount[p->nf] = count;
    p->fn[p->nf] = n;
    p->fo[p->nf] = rv_dot(n, p->v[idx[0]]);
    ++p->nf;
    return true;
}

/* ---- conversion -------------------------------------------------------------- */

/* A box from its centre, unit axes and half extents. */
static void box_from_frame(ref_vec c, const ref_vec col[3], const ref_real h[3], rp_poly* p)
{
    p->nv = 8;
    for (int i = 0; i < 8; ++i) {
        ref_vec x = c;
        for (int k = 0; k < 3; ++k) {
            x = rv_madd(x, ((i >> k) & 1) ? h[k] : -h[k], col[k]);
        }
        p->v[i] = x;
    }
    /* Face 2k+s at side s of axis k; its loop walks the other two bits. */
    for (int k = 0; k < 3; ++k) {
        const int a = (k + 1) % 3, bb = (k + 2) % 3;
        for (int s = 0; s < 2; ++s) {
            const int base = s << k;
            const int loop[4] = {base, base | 1 << a, base | 1 << a | 1 << bb, base | 1 << bb};
            add_face(p, loop, 4, rv_scale(col[k], s ? 1 : -1));
        }
    }
    /* Edge 4k+j along axis k; j bit 0 the sign on axis k+1, bit 1 on k+2. */
    p->ne = 12;
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 4; ++j) {
            const int i0 = (j & 1) << ((k + 1) % 3) | ((j >> 1) & 1) << ((k + 2) % 3);
            p->ev[4 * k + j][0] = i0;
            p->ev[4 * k + j][1] = i0 | 1 << k;
        }
    }
    /* The axes themselves, so a box with zero extents keeps its prism
     * directions. */
    p->nax = p->ndir = 3;
    for (int k = 0; k < 3; ++k) {
        p->ax[k] = p->dir[k] = col[k];
    }
    p->extent = fmaxl(rv_max_abs(c), fmaxl(h[0], fmaxl(h[1], h[2])));
}

static void from_box(const sw_box* b, rp_poly* p)
{
    ref_vec col[3];
    rotation_columns(b->rotation, col);
    const ref_real h[3] = {b->half.x, b->half.y, b->half.z};
    box_from_frame(rv_of(b->center), col, h, p);
}

/* Facets of the convex hull of p->v by brute force over vertex triples. */
static bool hull_facets(rp_poly* p)
{
    ref_real size = 0;
    for (int i = 1; i < p->nv; ++i) {
        size = fmaxl(size, rv_len(rv_sub(p->v[i], p->v[0])));
    }
    const ref_real eps = 1e-15L * size;
    static bool edge_seen[RP_MAX_VERTS][RP_MAX_VERTS];
    memset(edge_seen, 0, sizeof edge_seen);
    for (int i = 0; i < p->nv; ++i) {
        for (int j = i + 1; j < p->nv; ++j) {
            for (int k = j + 1; k < p->nv; ++k) {
                ref_vec n = xacc(rv_sub(p->v[j], p->v[i]), rv_sub(p->v[k], p->v[i]));
                if (!(rv_normalize(&n) > 0)) {
                    continue;
                }
                bool above = false, below = false;
                for (int m = 0; m < p->nv && !(above && below); ++m) {
                    const ref_real s = rv_dot(n, rv_sub(p->v[m], p->v[i]));
                    above = above || s > eps;
                    below = below || s < -eps;
                }
                if (above == below) {
                    continue; /* both sides, or a flat set (not a hull) */
                }
                const int tri[3] = {i, j, k};
                if (!add_face(p, tri, 3, above ? rv_scale(n, -1) : n)) {
                    return false;
                }
                add_direction(p->ax, &p->nax, RP_MAX_AXES, n);
                const int pairs[3][2] = {{i, j}, {j, k}, {i, k}};
                for (int e = 0; e < 3; ++e) {
                    if (!edge_seen[pairs[e][0]][pairs[e][1]]) {
                        edge_seen[pairs[e][0]][pairs[e][1]] = true;
                        if (p->ne >= RP_MAX_EDGES) {
                            return false;
                        }
                        p->ev[p->ne][0] = pairs[e][0];
                        p->ev[p->ne][1] = pairs[e][1];
                        ++p->ne;
                        add_direction(p->dir, &p->ndir, RP_MAX_DIRS, rv_sub(p->v[pairs[e][1]], p->v[pairs[e][0]]));
                    }
                }
            }
        }
    }
    return p->nf >= 4;
}

static bool from_hull(const sw_hull_instance* h, rp_poly* p)
{
    if (!h->hull || h->hull->vertex_count > RP_MAX_VERTS || h->hull->vertex_count < 4) {
        return false;
    }
    ref_vec col[3];
    rotation_columns(h->rotation, col);
    const ref_vec pos = rv_of(h->position);
    p->hull = h->hull;
    p->nv = h->hull->vertex_count;
    p->extent = rv_max_abs(pos);
    for (int i = 0; i < p->nv; ++i) {
        const ref_vec local = rv_of(h->hull->vertices[i]);
        p->v[i] = rv_add(rotate(col, local), pos);
        p->extent = fmaxl(p->extent, fmaxl(rv_max_abs(local), rv_max_abs(p->v[i])));
    }
    return hull_facets(p);
}

/* A flat polygon from its vertices (already in p->v[0 .. n)). */
static bool polygon_from_points(int n, bool one_sided, rp_poly* p)
{
    if (n < 3 || n > RP_MAX_VERTS) {
        return false;
    }
    p->flat = true;
    p->one_sided = one_sided;
    p->nv = n;
    for (int i = 0; i < n; ++i) {
        p->extent = fmaxl(p->extent, rv_max_abs(p->v[i]));
    }
    /* Newell's normal relative to v0 (a triangle's (v1-v0) x (v2-v0)). */
    ref_vec sum = rv(0, 0, 0);
    for (int i = 1; i + 1 < n; ++i) {
        sum = rv_add(sum, xacc(rv_sub(p->v[i], p->v[0]), rv_sub(p->v[i + 1], p->v[0])));
    }
    if (!(rv_normalize(&sum) > 0)) {
        return false; /* collinear: not modelled */
    }
    p->front = sum;
    int loop[RP_MAX_VERTS];
    for (int i = 0; i < n; ++i) {
        loop[i] = i;
    }
    add_face(p, loop, n, sum);
    p->ne = n;
    add_direction(p->ax, &p->nax, RP_MAX_AXES, sum);
    add_direction(p->dir, &p->ndir, RP_MAX_DIRS, sum);
    for (int i = 0; i < n; ++i) {
        p->ev[i][0] = i;
        p->ev[i][1] = (i + 1) % n;
        const ref_vec e = rv_sub(p->v[(i + 1) % n], p->v[i]);
        add_direction(p->dir, &p->ndir, RP_MAX_DIRS, e);
        /* Side face of the thin prism it is the limit of. */
        add_direction(p->ax, &p->nax, RP_MAX_AXES, xacc(e, sum));
    }
    return true;
}

static bool from_polygon(const sw_vec3* v, int n, bool one_sided, rp_poly* p)
{
    if (n < 3 || n > RP_MAX_VERTS) {
        return false;
    }
    for (int i = 0; i < n; ++i) {
        p->v[i] = rv_of(v[i]);
    }
    return polygon_from_points(n, one_sided, p);
}

/* Only the counts and flags: the arrays are large and filled up to them. */
static void reset(rp_poly* out, sw_shape_type type)
{
    out->type = type;
    out->flat = out->one_sided = false;
    out->front = rv(0, 0, 0);
    out->nv = out->ne = out->nf = out->nax = out->ndir = 0;
    out->extent = 0;
    out->hull = NULL;
}

bool rp_from_shape(const sw_shape* s, rp_poly* out)
{
    reset(out, s->type);
    switch (s->type) {
    case SW_SHAPE_BOX:
        from_box(&s->box, out);
        return true;
    case SW_SHAPE_HULL:
        return from_hull(&s->hull, out);
    case SW_SHAPE_TRIANGLE:
        return from_polygon(s->triangle.v, 3, s->triangle.one_sided, out);
    case SW_SHAPE_POLYGON:
        return from_polygon(s->polygon.v, s->polygon.count, s->polygon.one_sided, out);
    default:
        return false;
    }
}

bool rp_from_ref(const ref_shape* s, rp_poly* out)
{
    reset(out, s->type);
    switch (s->kind) {
    case REF_BOX:
        box_from_frame(s->center, s->axis, s->half, out);
        return true;
    case REF_POLY:
        if (s->n < 3 || s->n > RP_MAX_VERTS) {
            return false;
        }
        for (int i = 0; i < s->n; ++i) {
            out->v[i] = s->v[i];
        }
        return polygon_from_points(s->n, s->one_sided, out);
    case REF_POLYTOPE:
        /* Its faces and edges as ref.c found them from the vertices (with a
         * slack that follows the placement's rounding), not the library's. */
        if (s->n > RP_MAX_VERTS || s->nf > RP_MAX_FACES || s->noe > RP_MAX_EDGES) {
            return false;
        }
        out->nv = s->n;
        for (int i = 0; i < s->n; ++i) {
            out->v[i] = s->v[i];
            out->extent = fmaxl(out->extent, rv_max_abs(s->v[i]));
        }
        out->extent = fmaxl(out->extent, s->frame);
        for (int f = 0; f < s->nf; ++f) {
            if (!add_face(out, s->fv + s->fstart[f], s->fcount[f], s->fn[f])) {
                return false;
            }
            out->fo[f] = s->foff[f];
            add_direction(out->ax, &out->nax, RP_MAX_AXES, s->fn[f]);
        }
        out->ne = s->noe;
        for (int e = 0; e < s->noe; ++e) {
            out->ev[e][0] = s->oev[e][0];
            out->ev[e][1] = s->oev[e][1];
            add_direction(out->dir, &out->ndir, RP_MAX_DIRS, rv_sub(s->v[s->oev[e][1]], s->v[s->oev[e][0]]));
        }
        return true;
    case REF_HULL:
    case REF_PLANE:
        break;
    }
    return false;
}

ref_real rp_scale(const rp_poly* a, ref_vec d, const rp_poly* b)
{
    return fmaxl(fmaxl(a->extent, b->extent), rv_max_abs(d));
}

/* ---- separating axes ----------------------------------------------------------- */

/* One candidate axis with both shapes' projections (A untranslated) and
 * the displacement's. */
typedef struct rp_axis {
    ref_vec u;
    ref_real alo, ahi, blo, bhi, du;
} rp_axis;

struct rp_axes {
    int n;
    rp_axis* ax;
};

static void project(const rp_poly* s, ref_vec u, ref_real* lo, ref_real* hi)
{
    ref_real l = rv_dot(u, s->v[0]), h = l;
    for (int i = 1; i < s->nv; ++i) {
        const ref_real x = rv_dot(u, s->v[i]);
        l = x < l ? x : l; /* no libm call: this is the hot loop */
        h = x > h ? x : h;
    }
    *lo = l;
    *hi = h;
}

static void push_axis(rp_axes* S, const rp_poly* a, const rp_poly* b, ref_vec u, ref_vec d)
{
    if (!(rv_normalize(&u) > 0)) {
        return; /* exactly parallel pair */
    }
    rp_axis* x = &S->ax[S->n++];
    x->u = u;
    project(a, u, &x->alo, &x->ahi);
    project(b, u, &x->blo, &x->bhi);
    x->du = rv_dot(u, d);
}

/* Every candidate axis: faces of both, edge directions of A crossed with
 * those of B, and (for the swept test) both crossed with d. */
static void build_axes(const rp_poly* a, const rp_poly* b, ref_vec d, bool swept, rp_axes* S)
{
    const int cap = a->nax + b->nax + a->ndir * b->ndir + a->ndir + b->ndir;
    S->n = 0;
    S->ax = malloc(sizeof *S->ax * (size_t)(cap > 0 ? cap : 1));
    if (!S->ax) {
        abort();
    }
    for (int i = 0; i < a->nax; ++i) {
        push_axis(S, a, b, a->ax[i], d);
    }
    for (int i = 0; i < b->nax; ++i) {
        push_axis(S, a, b, b->ax[i], d);
    }
    for (int i = 0; i < a->ndir; ++i) {
        for (int j = 0; j < b->ndir; ++j) {
            push_axis(S, a, b, xacc(a->dir[i], b->dir[j]), d);
        }
    }
    if (swept && !is_zero(d)) {
        for (int i = 0; i < a->ndir; ++i) {
            push_axis(S, a, b, xacc(a->dir[i], d), d);
        }
        for (int j = 0; j < b->ndir; ++j) {
            push_axis(S, a, b, xacc(b->dir[j], d), d);
        }
    }
}

/* The two pieces of axis k at time t: A above B along +u, A below. */
static ref_real piece(const rp_axis* x, int side, ref_real t)
{
    return side == 0 ? x->alo + t * x->du - x->bhi : x->blo - x->ahi - t * x->du;
}

/* g at t (A translated by t d) and the maximising piece. */
static ref_real g_axes(const rp_axes* S, ref_real t, ref_vec* normal)
{
    ref_real best = -INFINITY;
    int bk = -1, bs = 0;
    for (int k = 0; k < S->n; ++k) {
        for (int s = 0; s < 2; ++s) {
            const ref_real g = piece(&S->ax[k], s, t);
            if (g > best) {
                best = g;
                bk = k;
                bs = s;
            }
        }
    }
    if (normal) {
        *normal = bk < 0 ? rv(0, 0, 0) : rv_scale(S->ax[bk].u, bs == 0 ? 1 : -1);
    }
    return best;
}

ref_real rp_sep(const rp_poly* a, ref_vec off, const rp_poly* b, ref_vec* normal)
{
    rp_axes S;
    build_axes(a, b, off, false, &S);
    const ref_real g = g_axes(&S, 1, normal);
    free(S.ax);
    return g;
}

static ref_real gmin_axes(const rp_axes* S, ref_real t0, ref_real t1)
{
    /* Golden section on a convex function, then the ends. */
    const ref_real r = 0.6180339887498948482045868343656381L;
    ref_real lo = t0, hi = t1;
    ref_real x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
    ref_real f1 = g_axes(S, x1, NULL), f2 = g_axes(S, x2, NULL);
    for (int i = 0; i < 120 && hi - lo > 0; ++i) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - r * (hi - lo);
            f1 = g_axes(S, x1, NULL);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + r * (hi - lo);
            f2 = g_axes(S, x2, NULL);
        }
    }
    return fminl(fminl(f1, f2), fminl(g_axes(S, t0, NULL), g_axes(S, t1, NULL)));
}

rp_axes* rp_axes_build(const rp_poly* a, ref_vec d, const rp_poly* b)
{
    rp_axes* S = malloc(sizeof *S);
    if (!S) {
        abort();
    }
    build_axes(a, b, d, false, S);
    return S;
}

ref_real rp_axes_g(const rp_axes* S, ref_real t, ref_vec* normal) { return g_axes(S, t, normal); }

void rp_axes_free(rp_axes* S)
{
    if (S) {
        free(S->ax);
        free(S);
    }
}

ref_real rp_g(const rp_poly* a, ref_vec d, const rp_poly* b, ref_real t)
{
    rp_axes S;
    build_axes(a, b, d, false, &S);
    const ref_real g = g_axes(&S, t, NULL);
    free(S.ax);
    return g;
}

ref_real rp_gmin_on(const rp_poly* a, ref_vec d, const rp_poly* b, ref_real t0, ref_real t1)
{
    rp_axes S;
    build_axes(a, b, d, false, &S);
    const ref_real g = gmin_axes(&S, t0, t1);
    free(S.ax);
    return g;
}

/* ---- time of impact ------------------------------------------------------------ */

/* Whether two unit normals differ by more than half the 1e-3 rad the
 * contract allows (so that either is within 1e-3 of the other's rival). */
static bool far_apart(ref_vec n, ref_vec m) { return rv_dot(n, m) < 0 || rv_len(rv_cross(n, m)) > 5e-4L; }

/* How much a perturbation of every input by tau can move one piece's
 * value (both shapes' projections and t*d), with room to spare. */
#define RP_MARGIN 16

void rp_sweep(const rp_poly* a, ref_vec d, const rp_poly* b, ref_real tau, rp_sweep_result* r)
{
    memset(r, 0, sizeof *r);
    rp_axes S;
    build_axes(a, b, d, true, &S);
    /* Feasible set of g(t) <= 0: the intersection of each piece's
     * half-line; the first root is its low end. */
    ref_real lo = 0, hi = 1;
    bool feasible = true;
    int pk = -1, ps = 0;
    ref_real g0 = -INFINITY, swept = -INFINITY;
    int zk = -1, zs = 0;
    for (int k = 0; k < S.n; ++k) {
        const rp_axis* x = &S.ax[k];
        for (int s = 0; s < 2; ++s) {
            const ref_real c = piece(x, s, 0);
            const ref_real slope = s == 0 ? x->du : -x->du;
            if (c > g0) {
                g0 = c;
                zk = k;
                zs = s;
            }
            swept = fmaxl(swept, c + fminl(slope, 0));
            if (slope < 0) {
                const ref_real root = -c / slope;
                if (root > lo) {
                    lo = root;
                    pk = k;
                    ps = s;
                }
            } else if (slope > 0) {
                hi = fminl(hi, -c / slope);
            } else if (c > 0) {
                feasible = false;
            }
        }
    }
    r->g0 = g0;
    r->swept_sep = swept;
    r->normal0 = rv_scale(S.ax[zk].u, zs == 0 ? 1 : -1);
    r->unique0 = true;
    for (int k = 0; k < S.n; ++k) {
        for (int s = 0; s < 2; ++s) {
            const ref_vec n = rv_scale(S.ax[k].u, s == 0 ? 1 : -1);
            if (piece(&S.ax[k], s, 0) >= g0 - RP_MARGIN * tau && far_apart(n, r->normal0)) {
                r->unique0 = false;
            }
        }
    }
    r->hit = feasible && lo <= hi;
    if (r->hit) {
        r->t = lo;
        if (pk < 0) {
            /* Starts in contact. */
            r->normal = r->normal0;
            r->unique = r->unique0;
        } else {
            const rp_axis* p = &S.ax[pk];
            r->normal = rv_scale(p->u, ps == 0 ? 1 : -1);
            r->slope = ps == 0 ? p->du : -p->du;
            r->unique = true;
            /* A rival piece q closing at t_q < t wins after a perturbation
             * that moves each value by M tau when t - t_q < M tau (1/|s_q| +
             * 1/|s_p|), i.e. when its value at t is within M tau (1 +
             * |s_q| / |s_p|). */
            for (int k = 0; k < S.n; ++k) {
                for (int s = 0; s < 2; ++s) {
                    const ref_real slope = s == 0 ? S.ax[k].du : -S.ax[k].du;
                    const ref_vec n = rv_scale(S.ax[k].u, s == 0 ? 1 : -1);
                    if (slope < 0 && far_apart(n, r->normal) &&
                        piece(&S.ax[k], s, lo) >= -RP_MARGIN * tau * (1 + slope / r->slope)) {
                        r->unique = false;
                    }
                }
            }
        }
    }
    free(S.ax);
    if (r->hit && b->flat && b->one_sided) {
        if (r->t == 0) {
            r->one_sided_reject = true;
        } else {
            const ref_real dn = rv_dot(d, b->front) / rv_len(d);
            const ref_real nn = rv_dot(r->normal, b->front);
            r->one_sided_reject = !(dn < 0 && nn > 0);
            r->one_sided_ambiguous = fabsl(dn) <= 2e-3L || fabsl(nn) <= 2e-3L || !r->unique;
        }
        if (r->one_sided_reject) {
            r->hit = false;
        }
    }
}

bool rp_swept_offsets(const rp_poly* a, ref_vec d, const rp_poly* b, ref_vec n, ref_real* lo, ref_real* hi)
{
    rp_axes S;
    build_axes(a, b, d, true, &S);
    /* Each swept piece is linear in s: c + s (+-u . n) <= 0. */
    ref_real l = -INFINITY, h = INFINITY;
    bool ok = true;
    for (int k = 0; k < S.n; ++k) {
        const rp_axis* x = &S.ax[k];
        for (int s = 0; s < 2; ++s) {
            const ref_real c = piece(x, s, 0) + fminl(s == 0 ? x->du : -x->du, 0);
            const ref_real slope = (s == 0 ? 1 : -1) * rv_dot(x->u, n);
            if (slope > 0) {
                h = fminl(h, -c / slope);
            } else if (slope < 0) {
                l = fmaxl(l, -c / slope);
            } else if (c > 0) {
                ok = false;
            }
        }
    }
    free(S.ax);
    *lo = l;
    *hi = h;
    return ok && l <= h;
}

/* ---- distances ------------------------------------------------------------------ */

static ref_vec closest_on_segment(ref_vec p, ref_vec a, ref_vec b)
{
    const ref_vec ab = rv_sub(b, a);
    const ref_real l2 = rv_dot(ab, ab);
    if (!(l2 > 0)) {
        return a;
    }
    ref_real u = rv_dot(rv_sub(p, a), ab) / l2;
    u = u < 0 ? 0 : (u > 1 ? 1 : u);
    return rv_madd(a, u, ab);
}

static ref_real dist2(ref_vec a, ref_vec b)
{
    const ref_vec e = rv_sub(a, b);
    return rv_dot(e, e);
}

/* Closest point of triangle abc to p: Voronoi regions of the vertices and
 * edges, else the plane; a degenerate triangle answers by its edges. */
static ref_vec closest_on_triangle(ref_vec p, ref_vec a, ref_vec b, ref_vec c)
{
    const ref_vec ab = rv_sub(b, a), ac = rv_sub(c, a);
    const ref_vec n = rv_cross(ab, ac);
    const ref_real scale2 = fmaxl(rv_dot(ab, ab), rv_dot(ac, ac));
    if (!(rv_dot(n, n) > 1e-30L * scale2 * scale2)) {
        ref_vec best = closest_on_segment(p, a, b);
        const ref_vec q1 = closest_on_segment(p, b, c), q2 = closest_on_segment(p, a, c);
        if (dist2(p, q1) < dist2(p, best)) {
            best = q1;
        }
        if (dist2(p, q2) < dist2(p, best)) {
            best = q2;
        }
        return best;
    }
    /* Inside the prism over the triangle: the plane's foot; else the
     * nearest of the three edges. */
    const ref_vec e[3] = {ab, rv_sub(c, b), rv_sub(a, c)};
    const ref_vec o[3] = {a, b, c};
    bool inside = true;
    for (int i = 0; i < 3; ++i) {
        if (rv_dot(rv_cross(e[i], rv_sub(p, o[i])), n) < 0) {
            inside = false;
        }
    }
    if (inside) {
        return rv_madd(p, -rv_dot(rv_sub(p, a), n) / rv_dot(n, n), n);
    }
    ref_vec best = closest_on_segment(p, a, b);
    for (int i = 1; i < 3; ++i) {
        const ref_vec q = closest_on_segment(p, o[i], o[(i + 1) % 3]);
        if (dist2(p, q) < dist2(p, best)) {
            best = q;
        }
    }
    return best;
}

/* Closest point of face f (a fan of triangles) to p. */
static ref_vec closest_on_face(const rp_poly* s, int f, ref_vec off, ref_vec p)
{
    const int* idx = &s->fv[s->ffirst[f]];
    const ref_vec v0 = rv_add(s->v[idx[0]], off);
    ref_vec best = v0;
    for (int i = 1; i + 1 < s->fcount[f]; ++i) {
        const ref_vec q = closest_on_triangle(p, v0, rv_add(s->v[idx[i]], off), rv_add(s->v[idx[i + 1]], off));
        if (i == 1 || dist2(p, q) < dist2(p, best)) {
            best = q;
        }
    }
    return best;
}

/* Closest points of segments p0p1 and q0q1: the interior stationary point
 * of the quadratic when it lies in the square, else the best of the four
 * clamped end cases. */
static void closest_segments(ref_vec p0, ref_vec p1, ref_vec q0, ref_vec q1, ref_vec* cp, ref_vec* cq)
{
    const ref_vec u = rv_sub(p1, p0), v = rv_sub(q1, q0), w = rv_sub(p0, q0);
    const ref_real a = rv_dot(u, u), b = rv_dot(u, v), c = rv_dot(v, v), d = rv_dot(u, w), e = rv_dot(v, w);
    const ref_vec uv = rv_cross(u, v);
    const ref_real den = rv_dot(uv, uv);
    ref_real best = INFINITY;
    if (den > 1e-30L * a * c) {
        const ref_real s = (b * e - c * d) / den, t = (a * e - b * d) / den;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
            *cp = rv_madd(p0, s, u);
            *cq = rv_madd(q0, t, v);
            best = dist2(*cp, *cq);
        }
    }
    const ref_vec ends[4][2] = {{p0, closest_on_segment(p0, q0, q1)},
                                {p1, closest_on_segment(p1, q0, q1)},
                                {closest_on_segment(q0, p0, p1), q0},
                                {closest_on_segment(q1, p0, p1), q1}};
    for (int i = 0; i < 4; ++i) {
        const ref_real d2 = dist2(ends[i][0], ends[i][1]);
        if (d2 < best) {
            best = d2;
            *cp = ends[i][0];
            *cq = ends[i][1];
        }
    }
}

/* Brute-force distance of separated A + off and B over vertex-face,
 * face-vertex and edge-edge pairs. A pair is skipped only when a lower
 * bound of its distance is no better than the best so far, which leaves
 * the minimum exact: a vertex's height over the face's plane, the gap
 * between the balls around two edges, and (given a unit axis from B toward
 * A, e.g. the separating one) the gap between the pair's projections on
 * it. The best starts at the nearest vertex pair so that the bounds bite. */
static ref_real brute_distance(const rp_poly* a, ref_vec off, const rp_poly* b, const ref_vec* axis, ref_vec* pa,
                               ref_vec* pb)
{
    const ref_vec zero = rv(0, 0, 0);
    ref_real best = INFINITY;
    ref_vec ba = zero, bb = zero;
    /* Projections on the axis (all 0 without one: no bound). */
    static ref_real ha[RP_MAX_VERTS], hb[RP_MAX_VERTS];
    for (int i = 0; i < a->nv; ++i) {
        ha[i] = axis ? rv_dot(*axis, rv_add(a->v[i], off)) : 0;
    }
    for (int j = 0; j < b->nv; ++j) {
        hb[j] = axis ? rv_dot(*axis, b->v[j]) : 0;
    }
    ref_real fb_hi[RP_MAX_FACES], fa_lo[RP_MAX_FACES];
    for (int f = 0; f < b->nf; ++f) {
        fb_hi[f] = -INFINITY;
        for (int k = 0; k < b->fcount[f]; ++k) {
            fb_hi[f] = fmaxl(fb_hi[f], hb[b->fv[b->ffirst[f] + k]]);
        }
    }
    for (int f = 0; f < a->nf; ++f) {
        fa_lo[f] = INFINITY;
        for (int k = 0; k < a->fcount[f]; ++k) {
            fa_lo[f] = fminl(fa_lo[f], ha[a->fv[a->ffirst[f] + k]]);
        }
    }
    for (int i = 0; i < a->nv; ++i) {
        const ref_vec p = rv_add(a->v[i], off);
        for (int j = 0; j < b->nv; ++j) {
            const ref_real d2 = dist2(p, b->v[j]);
            if (d2 < best) {
                best = d2;
                ba = p;
                bb = b->v[j];
            }
        }
    }
    for (int i = 0; i < a->nv; ++i) {
        const ref_vec p = rv_add(a->v[i], off);
        for (int f = 0; f < b->nf; ++f) {
            const ref_real h = rv_dot(b->fn[f], p) - b->fo[f], g = ha[i] - fb_hi[f];
            if (h * h >= best || (g > 0 && g * g >= best)) {
                continue;
            }
            const ref_vec q = closest_on_face(b, f, zero, p);
            const ref_real d2 = dist2(p, q);
            if (d2 < best) {
                best = d2;
                ba = p;
                bb = q;
            }
        }
    }
    for (int i = 0; i < b->nv; ++i) {
        for (int f = 0; f < a->nf; ++f) {
            const ref_real h = rv_dot(a->fn[f], rv_sub(b->v[i], off)) - a->fo[f], g = fa_lo[f] - hb[i];
            if (h * h >= best || (g > 0 && g * g >= best)) {
                continue;
            }
            const ref_vec q = closest_on_face(a, f, off, b->v[i]);
            const ref_real d2 = dist2(b->v[i], q);
            if (d2 < best) {
                best = d2;
                ba = q;
                bb = b->v[i];
            }
        }
    }
    for (int i = 0; i < a->ne; ++i) {
        const int i0 = a->ev[i][0], i1 = a->ev[i][1];
        const ref_vec p0 = rv_add(a->v[i0], off), p1 = rv_add(a->v[i1], off);
        const ref_real alo = fminl(ha[i0], ha[i1]);
        for (int j = 0; j < b->ne; ++j) {
            const int j0 = b->ev[j][0], j1 = b->ev[j][1];
            const ref_real g = alo - fmaxl(hb[j0], hb[j1]);
            if (g > 0 && g * g >= best) {
                continue;
            }
            const ref_vec q0 = b->v[j0], q1 = b->v[j1];
            const ref_vec pm = rv_scale(rv_add(p0, p1), 0.5L);
            const ref_real gap =
                sqrtl(dist2(pm, rv_scale(rv_add(q0, q1), 0.5L))) - sqrtl(dist2(p0, p1)) / 2 - sqrtl(dist2(q0, q1)) / 2;
            if (gap > 0 && gap * gap >= best * (1 + 1e-12L)) {
                continue;
            }
            ref_vec cp = p0, cq = q0;
            closest_segments(p0, p1, q0, q1, &cp, &cq);
            const ref_real d2 = dist2(cp, cq);
            if (d2 < best) {
                best = d2;
                ba = cp;
                bb = cq;
            }
        }
    }
    if (pa) {
        *pa = ba;
    }
    if (pb) {
        *pb = bb;
    }
    return sqrtl(best);
}

ref_real rp_distance(const rp_poly* a, ref_vec off, const rp_poly* b, const ref_vec* axis, ref_vec* pa, ref_vec* pb)
{
    return brute_distance(a, off, b, axis, pa, pb);
}

ref_real rp_signed_distance(const rp_poly* a, ref_vec off, const rp_poly* b, ref_vec* pa, ref_vec* pb)
{
    ref_vec axis;
    const ref_real s = rp_sep(a, off, b, &axis);
    if (s <= 0) {
        return s;
    }
    return brute_distance(a, off, b, &axis, pa, pb);
}

ref_real rp_min_signed_distance(const rp_poly* a, ref_vec d, const rp_poly* b, ref_real t0, ref_real t1,
                                ref_real stop_below)
{
    /* Start where the (cheap) separation is least: the distance is usually
     * least there too, and one value at or below stop_below answers. */
    rp_axes S;
    build_axes(a, b, d, false, &S);
    ref_real tm = t0, gm = INFINITY;
    for (int i = 0; i <= 64; ++i) {
        const ref_real t = t0 + (t1 - t0) * i / 64;
        const ref_real g = g_axes(&S, t, NULL);
        if (g < gm) {
            gm = g;
            tm = t;
        }
    }
    free(S.ax);
    ref_real best = rp_signed_distance(a, rv_scale(d, tm), b, NULL, NULL);
    if (best <= stop_below) {
        return best;
    }
    const ref_real r = 0.6180339887498948482045868343656381L;
    ref_real lo = t0, hi = t1;
    ref_real x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
    ref_real f1 = rp_signed_distance(a, rv_scale(d, x1), b, NULL, NULL);
    ref_real f2 = rp_signed_distance(a, rv_scale(d, x2), b, NULL, NULL);
    for (int i = 0; i < 90 && hi - lo > 0 && fminl(f1, f2) > stop_below; ++i) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - r * (hi - lo);
            f1 = rp_signed_distance(a, rv_scale(d, x1), b, NULL, NULL);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + r * (hi - lo);
            f2 = rp_signed_distance(a, rv_scale(d, x2), b, NULL, NULL);
        }
    }
    best = fminl(best, fminl(f1, f2));
    if (best > stop_below) {
        best = fminl(best, fminl(rp_signed_distance(a, rv_scale(d, t0), b, NULL, NULL),
                                 rp_signed_distance(a, rv_scale(d, t1), b, NULL, NULL)));
    }
    return best;
}

ref_real rp_point_sdist(const rp_poly* s, ref_vec off, ref_vec x)
{
    const ref_vec p = rv_sub(x, off);
    if (!s->flat) {
        ref_real m = -INFINITY;
        for (int f = 0; f < s->nf; ++f) {
            m = fmaxl(m, rv_dot(s->fn[f], p) - s->fo[f]);
        }
        if (m <= 0) {
            return m; /* inside: the nearest facet plane */
        }
    }
    ref_real best = INFINITY;
    for (int f = 0; f < s->nf; ++f) {
        best = fminl(best, dist2(p, closest_on_face(s, f, rv(0, 0, 0), p)));
    }
    return sqrtl(best);
}

ref_real rp_support(const rp_poly* s, ref_vec n)
{
    ref_real m = -INFINITY;
    for (int i = 0; i < s->nv; ++i) {
        m = fmaxl(m, rv_dot(n, s->v[i]));
    }
    return m;
}

/* ---- features ----------------------------------------------------------------- */

int rp_feature_count(const rp_poly* b, sw_feature_kind kind)
{
    switch (kind) {
    case SW_FEATURE_VERTEX:
        return b->nv;
    case SW_FEATURE_EDGE:
        return b->type == SW_SHAPE_HULL ? b->hull->edge_count : b->ne;
    case SW_FEATURE_FACE:
        return b->type == SW_SHAPE_HULL ? b->hull->face_count : b->nf;
    default:
        return 0;
    }
}

ref_real rp_feature_distance(const rp_poly* b, sw_feature_kind kind, int index, ref_vec p)
{
    if (index < 0 || index >= rp_feature_count(b, kind)) {
        return INFINITY;
    }
    switch (kind) {
    case SW_FEATURE_VERTEX:
        return rv_len(rv_sub(p, b->v[index]));
    case SW_FEATURE_EDGE: {
        const int i0 = b->type == SW_SHAPE_HULL ? b->hull->edges[index].v[0] : b->ev[index][0];
        const int i1 = b->type == SW_SHAPE_HULL ? b->hull->edges[index].v[1] : b->ev[index][1];
        if (i0 < 0 || i1 < 0 || i0 >= b->nv || i1 >= b->nv) {
            return INFINITY;
        }
        return rv_len(rv_sub(p, closest_on_segment(p, b->v[i0], b->v[i1])));
    }
    case SW_FEATURE_FACE: {
        if (b->type != SW_SHAPE_HULL) {
            return rv_len(rv_sub(p, closest_on_face(b, index, rv(0, 0, 0), p)));
        }
        /* The library's face: a fan over its vertex list (which may be
         * planar only to within the hull's merging tolerance). */
        const sw_hull_face* f = &b->hull->faces[index];
        const int* idx = &b->hull->face_vertices[f->first];
        for (int i = 0; i < f->count; ++i) {
            if (idx[i] < 0 || idx[i] >= b->nv) {
                return INFINITY;
            }
        }
        ref_real best = INFINITY;
        for (int i = 1; i + 1 < f->count; ++i) {
            const ref_vec q = closest_on_triangle(p, b->v[idx[0]], b->v[idx[i]], b->v[idx[i + 1]]);
            best = fminl(best, dist2(p, q));
        }
        return sqrtl(best);
    }
    default:
        return INFINITY;
    }
}
