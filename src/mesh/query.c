/* Queries against a mesh: the hierarchy picks the triangles a query may
 * touch; each is answered by the library's exact pair routine on its
 * placed (world) vertices.
 *
 * Every query becomes, in the mesh's local frame, a box of half-extents h
 * (A's bounds, grown by the skin and a margin) moving along a segment
 * o + s D, s in [0, 1] (a ray: a point moving by max * dir). A child's
 * bounds are tested by the slab method on the box grown by h, four
 * children at once, in float. The margin covers the float rounding of the
 * query and the bounds, and the rounding of the placed vertices, so the
 * tree never drops a triangle the exact test would hit; a query too large
 * for float visits every triangle.
 *
 * Closest hits visit children front to back from a stack that keeps each
 * entry's distance and skip an entry only when it starts beyond the best
 * hit, so equal times are all seen and ties are broken the same way
 * whatever the order: the lower t, then (at t = 0) the deeper overlap,
 * then the lower triangle index. */
#include "mesh/mesh_query.h"

#include "shapes/mesh_data.h"
#include "queries/pair.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Stack entries: at most 3 per level below the root, and the tree has at
 * most 63 levels (build.c). */
#define SW_MESH_STACK 256

/* Query coordinates beyond this visit every triangle (float traversal). */
#define FLOAT_LIMIT 1e30

typedef struct trav {
    float o[3], inv[3], h[3];
    bool neg[3]; /* D's component < 0: the slab's near side is hi */
    bool all;
    /* The slab values as plane * inv + c: per axis, the near and far
     * planes' offsets (node_hits). */
    float cn[3], cf[3];
#if defined(__SSE2__)
    __m128 inv4[3], cn4[3], cf4[3];
#endif
} trav;

typedef struct tri_ctx tri_ctx;
typedef struct ray_pre ray_pre;
/* Tests triangle j (leaf order); returns the new bound on s for pruning
 * (the best hit's, or the old bound). */
typedef float tri_fn(tri_ctx* c, int j, float smax);

/* A ray's values for ray_surely_misses, in the mesh's local frame. */
struct ray_pre {
    double o[3], d[3];
    double ld;   /* |D|, as a 1-norm */
    double size; /* largest |coordinate| of o and D */
};

typedef struct sweep_state {
    sw_hit best;
    int best_id; /* -1: none */
} sweep_state;

struct tri_ctx {
    const sw_mesh* mesh;
    sw_mesh_place place;
    bool one_sided;
    trav q;
    /* sweep */
    const sw_shape* a;
    sw_vec3 d;
    const sw_sweep_options* opt;
    sw_vec3 a_center; /* world centre of A's bounds at t = 0 */
    /* ray */
    const sw_ray* ray;
    ray_pre ray_local;
    double place_size; /* largest |coordinate| of the position */
    double place_err;  /* bound on |placed vertex - local vertex placed exactly| */
    double reach;      /* a sweep: the radius of A's bounding ball, skin included */
    sweep_state st;
    /* overlap and distance */
    sw_overlap_result ov;
    sw_distance_result dist;
    int found_id;
    bool mirrored;
};

/* ---- the local query -------------------------------------------------- */

static double dabs(double x) { return x < 0 ? -x : x; }


/* Sets up the traversal of a box centred at world c with half-extents e
 * (world axes) moving by world d. */
static void make_trav(tri_ctx* c, sw_vec3 wc, sw_vec3 we, sw_vec3 wd)
{
    const sw_mesh_place* pl = &c->place;
    const double cw[3] = {(double)wc.x - pl->p[0], (double)wc.y - pl->p[1], (double)wc.z - pl->p[2]};
    const double ew[3] = {we.x, we.y, we.z}, dw[3] = {wd.x, wd.y, wd.z};
    double o[3], e[3], d[3], size = c->mesh->radius;
    for (int i = 0; i < 3; ++i) {
        /* Local = R^T world: column i of R. */
        o[i] = pl->r[0][i] * cw[0] + pl->r[1][i] * cw[1] + pl->r[2][i] * cw[2];
        d[i] = pl->r[0][i] * dw[0] + pl->r[1][i] * dw[1] + pl->r[2][i] * dw[2];
        e[i] = dabs(pl->r[0][i]) * ew[0] + dabs(pl->r[1][i]) * ew[1] + dabs(pl->r[2][i]) * ew[2];
        size += dabs(o[i]) + e[i] + dabs(d[i]);
    }
    double place = c->mesh->radius * 2;
    for (int i = 0; i < 3; ++i) {
        place += dabs(pl->p[i]);
    }
    /* Float slab arithmetic on local values, and the placed vertices'
     * rounding to sw_real. */
    const double margin = 4e-6 * size + 8 * SW_EPSILON * place + 1e-35;
    trav* q = &c->q;
    q->all = !(size + margin < FLOAT_LIMIT);
    c->place_size = sw_dmax(dabs(pl->p[0]), sw_dmax(dabs(pl->p[1]), dabs(pl->p[2])));
    /* Rounding the placed vertex to sw_real, and the double rotation. */
    c->place_err = 2 * (SW_EPSILON + 1e-15) * (c->place_size + 2 * (double)c->mesh->radius);
    c->ray_local.ld = dabs(d[0]) + dabs(d[1]) + dabs(d[2]);
    c->ray_local.size = 0;
    for (int i = 0; i < 3; ++i) {
        c->ray_local.o[i] = o[i];
        c->ray_local.d[i] = d[i];
        c->ray_local.size = sw_dmax(c->ray_local.size, sw_dmax(dabs(o[i]), dabs(d[i])));
    }
    for (int i = 0; i < 3; ++i) {
        if (q->all) {
            /* Nothing converted to float (it would overflow): every node
             * and triangle passes. */
            q->o[i] = q->inv[i] = q->h[i] = q->cn[i] = q->cf[i] = 0;
            q->neg[i] = false;
#if defined(__SSE2__)
            q->inv4[i] = q->cn4[i] = q->cf4[i] = _mm_setzero_ps();
#endif
            continue;
        }
        /* A component far below the margin moves the segment by less than
         * a thousandth of it: such a component is set to that, which keeps
         * plane * inv finite (no 0 * inf, no overflow). */
        double di = d[i];
        if (dabs(di) < 1e-3 * margin) {
            di = di < 0 ? -1e-3 * margin : 1e-3 * margin;
        }
        q->o[i] = (float)o[i];
        q->inv[i] = (float)(1 / di);
        q->neg[i] = di < 0;
        q->h[i] = (float)(e[i] + margin);
        /* Near plane lo - h (hi + h when D < 0), far the other. */
        const float hn = q->neg[i] ? q->h[i] : -q->h[i];
        q->cn[i] = (hn - q->o[i]) * q->inv[i];
        q->cf[i] = (-hn - q->o[i]) * q->inv[i];
#if defined(__SSE2__)
        q->inv4[i] = _mm_set1_ps(q->inv[i]);
        q->cn4[i] = _mm_set1_ps(q->cn[i]);
        q->cf4[i] = _mm_set1_ps(q->cf[i]);
#endif
    }
}

/* Which of node n's children the query meets with entry s <= smax; their
 * entry values in tn. Four children at once: t = plane * inv + c, whose
 * rounding (relative to the planes' and the query's size) the margin in h
 * covers. An empty slot's inverted bounds give near = +inf, far = -inf. */
#if defined(__SSE2__)
static int node_hits(const sw_mesh_node* n, const trav* q, float smax, float tn[4])
{
    if (q->all) {
        tn[0] = tn[1] = tn[2] = tn[3] = 0; /* no float arithmetic on it: every child */
        return 15;
    }
    __m128 t0 = _mm_setzero_ps(), t1 = _mm_set1_ps(smax);
    for (int k = 0; k < 3; ++k) {
        const __m128 lo = _mm_load_ps(n->lo[k]), hi = _mm_load_ps(n->hi[k]);
        const __m128 near = _mm_add_ps(_mm_mul_ps(q->neg[k] ? hi : lo, q->inv4[k]), q->cn4[k]);
        const __m128 far = _mm_add_ps(_mm_mul_ps(q->neg[k] ? lo : hi, q->inv4[k]), q->cf4[k]);
        /* NaN-safe: maxps and minps return their second operand then. */
        t0 = _mm_max_ps(near, t0);
        t1 = _mm_min_ps(far, t1);
    }
    _mm_storeu_ps(tn, t0);
    return _mm_movemask_ps(_mm_cmple_ps(t0, t1));
}
#else
static int node_hits(const sw_mesh_node* n, const trav* q, float smax, float tn[4])
{
    if (q->all) {
        tn[0] = tn[1] = tn[2] = tn[3] = 0;
        return 15;
    }
    float t0[4] = {0, 0, 0, 0}, t1[4] = {smax, smax, smax, smax};
    for (int k = 0; k < 3; ++k) {
        const float* near = q->neg[k] ? n->hi[k] : n->lo[k];
        const float* far = q->neg[k] ? n->lo[k] : n->hi[k];
        for (int c = 0; c < 4; ++c) {
            const float a = near[c] * q->inv[k] + q->cn[k], b = far[c] * q->inv[k] + q->cf[k];
            t0[c] = a > t0[c] ? a : t0[c];
            t1[c] = b < t1[c] ? b : t1[c];
        }
    }
    int mask = 0;
    for (int c = 0; c < 4; ++c) {
        tn[c] = t0[c];
        mask |= (t0[c] <= t1[c]) << c;
    }
    return mask;
}
#endif

/* Whether the query meets the local bounds of triangle j by smax. */
static bool tri_hit(const tri_ctx* c, int j, float smax)
{
    if (c->q.all) {
        return true;
    }
    const int32_t* t = c->mesh->tri + 3 * (size_t)j;
    const sw_vec3 a = c->mesh->v[t[0]], b = c->mesh->v[t[1]], d = c->mesh->v[t[2]];
    const float lo[3] = {(float)sw_min(a.x, sw_min(b.x, d.x)), (float)sw_min(a.y, sw_min(b.y, d.y)),
                         (float)sw_min(a.z, sw_min(b.z, d.z))};
    const float hi[3] = {(float)sw_max(a.x, sw_max(b.x, d.x)), (float)sw_max(a.y, sw_max(b.y, d.y)),
                         (float)sw_max(a.z, sw_max(b.z, d.z))};
    float t0 = 0, t1 = smax;
    for (int k = 0; k < 3; ++k) {
        /* The margin in h covers a double vertex rounded to float. */
        const float x = (lo[k] - c->q.h[k] - c->q.o[k]) * c->q.inv[k];
        const float y = (hi[k] + c->q.h[k] - c->q.o[k]) * c->q.inv[k];
        t0 = sw_max(t0, c->q.neg[k] ? y : x);
        t1 = sw_min(t1, c->q.neg[k] ? x : y);
    }
    return t0 <= t1;
}

typedef struct entry {
    int32_t code;
    float s;
} entry;

/* Visits, front to back, every leaf the query meets before the bound
 * smax, which fn lowers as hits are found. */
static void traverse(tri_ctx* c, float smax, tri_fn* fn)
{
    entry stack[SW_MESH_STACK];
    int top = 0;
    stack[top++] = (entry){0, 0};
    while (top > 0) {
        const entry e = stack[--top];
        if (e.s > smax) {
            continue;
        }
        if (e.code < 0) {
            const uint32_t leaf = ~(uint32_t)e.code;
            const int first = (int)(leaf >> 3), count = (int)(leaf & 7);
            for (int j = first; j < first + count; ++j) {
                if (c->ray || tri_hit(c, j, smax)) {
                    smax = fn(c, j, smax);
                }
            }
            continue;
        }
        float tn[4];
        const sw_mesh_node* n = &c->mesh->nodes[e.code];
        int mask = node_hits(n, &c->q, smax, tn);
        /* Push far to near: insertion by entry value. */
        entry kids[4];
        int nk = 0;
        while (mask) {
            const int k = __builtin_ctz((unsigned)mask);
            mask &= mask - 1;
            if (n->child[k] < 0 && (~(uint32_t)n->child[k] & 7) == 0) {
                continue; /* empty slot */
            }
            int at = nk++;
            while (at > 0 && kids[at - 1].s < tn[k]) {
                kids[at] = kids[at - 1];
                --at;
            }
            kids[at] = (entry){n->child[k], tn[k]};
        }
        for (int k = 0; k < nk; ++k) {
            stack[top++] = kids[k];
        }
    }
}

/* ---- flat edges ---------------------------------------------------------- */

/* The face normal of a contact on a flat edge, or on a vertex whose two
 * edges in the triangle are flat, on A's side (DESIGN.md §2a); the hit is
 * left as it is elsewhere. */
static bool flatten_normal(sw_hit* h, const sw_vec3 w[3], uint8_t flags, sw_vec3 a_center, sw_vec3 d,
                           bool one_sided)
{
    bool flat = false;
    if (h->feature.kind == SW_FEATURE_EDGE) {
        flat = (flags >> h->feature.index) & 1;
    } else if (h->feature.kind == SW_FEATURE_VERTEX) {
        const int k = h->feature.index;
        flat = ((flags >> k) & 1) && ((flags >> ((k + 2) % 3)) & 1);
    }
    if (!flat) {
        return false;
    }
    sw_wvec n = sw_wcross_acc(sw_wsub(sw_wv(w[1]), sw_wv(w[0])), sw_wsub(sw_wv(w[2]), sw_wv(w[0])));
    const sw_wide len = sw_wide_sqrt(sw_wdot(n, n));
    if (!(len > 0) || !isfinite((double)len)) {
        return false;
    }
    n = (sw_wvec){n.x / len, n.y / len, n.z / len};
    sw_wide side = sw_wdot(n, sw_wv(h->normal));
    if (!one_sided && !(side > (sw_wide)1e-6 || side < (sw_wide)-1e-6)) {
        side = sw_wdot(n, sw_wsub(sw_wv(a_center), sw_wv(w[0])));
    }
    if (!one_sided && side == 0) {
        /* A's centre in the plane and the pair's normal along it (a point
         * sliding in the floor): either face is A's side; take the one
         * it moves away from or along, so that a move into the surface
         * stops and a slide along it does not. */
        side = -sw_wdot(n, sw_wv(d));
        side = side == 0 ? 1 : side;
    }
    if (one_sided) {
        side = 1;
    }
    const sw_wide s = side > 0 ? 1 : -1;
    h->normal = sw_wv_narrow((sw_wvec){s * n.x, s * n.y, s * n.z});
    return true;
}

/* Whether hit h of triangle id beats the best so far. */
static bool better(const sweep_state* st, const sw_hit* h, int id)
{
    if (st->best_id < 0 || h->t < st->best.t) {
        return true;
    }
    if (h->t > st->best.t) {
        return false;
    }
    if (h->overlapping && st->best.overlapping && h->depth != st->best.depth) {
        return h->depth > st->best.depth;
    }
    return id < st->best_id;
}

static void keep(sweep_state* st, sw_hit h, int id)
{
    if (better(st, &h, id)) {
        h.triangle = id;
        st->best = h;
        st->best_id = id;
    }
}

/* s of a hit at t, rounded up a little: the pruning bound. */
static float bound_of(float s) { return s * (1 + 1e-6f) + 1e-30f; }

/* Whether A's bounding ball (centre o, radius reach, skin included),
 * moving along o + s D, surely never touches local triangle j before
 * smax: a prefilter for the exact sweep. The ball can touch the triangle
 * only while its centre is within reach of the triangle's plane; over
 * that part of the path [sa, sb] it must also come within reach of each
 * of the three planes through an edge, perpendicular to the triangle
 * (each holds the triangle on its inner side), and it must start before
 * smax. Every bound is widened by the placement's and the arithmetic's
 * rounding, as for rays. */
static bool sweep_surely_misses(const tri_ctx* c, int j, float smax)
{
    const ray_pre* r = &c->ray_local;
    const int32_t* t = c->mesh->tri + 3 * (size_t)j;
    const sw_vec3 wv[3] = {c->mesh->v[t[0]], c->mesh->v[t[1]], c->mesh->v[t[2]]};
    const double w[3][3] = {{wv[0].x, wv[0].y, wv[0].z}, {wv[1].x, wv[1].y, wv[1].z}, {wv[2].x, wv[2].y, wv[2].z}};
    double e[3][3];
    for (int k = 0; k < 3; ++k) {
        for (int i = 0; i < 3; ++i) {
            e[k][i] = w[(k + 1) % 3][i] - w[k][i];
        }
    }
    const double n[3] = {e[0][1] * e[1][2] - e[0][2] * e[1][1], e[0][2] * e[1][0] - e[0][0] * e[1][2],
                         e[0][0] * e[1][1] - e[0][1] * e[1][0]};
    const double ln = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    const double tv[3] = {r->o[0] - w[0][0], r->o[1] - w[0][1], r->o[2] - w[0][2]};
    const double s0 = n[0] * tv[0] + n[1] * tv[1] + n[2] * tv[2];
    const double s1 = s0 + n[0] * r->d[0] + n[1] * r->d[1] + n[2] * r->d[2];
    const double le = fabs(e[0][0]) + fabs(e[0][1]) + fabs(e[0][2]) + fabs(e[2][0]) + fabs(e[2][1]) + fabs(e[2][2]);
    const double tl = fabs(tv[0]) + fabs(tv[1]) + fabs(tv[2]) + fabs(r->d[0]) + fabs(r->d[1]) + fabs(r->d[2]);
    const double reach = c->reach + 3 * c->place_err + 1e-14 * (tl + le);
    const double lim = reach * ln;
    if ((s0 > lim && s1 > lim) || (s0 < -lim && s1 < -lim)) {
        return true;
    }
    if (!(ln > 0) || !isfinite(ln)) {
        return false; /* no plane: a sliver, for the exact routine */
    }
    /* The part of the path within reach of the plane. */
    double sa = 0, sb = 1;
    if (s1 != s0) {
        const double x = (lim - s0) / (s1 - s0), y = (-lim - s0) / (s1 - s0);
        sa = sw_dmax(0, x < y ? x : y);
        sb = x > y ? x : y;
        sb = sb < 1 ? sb : 1;
    }
    if (sa > (double)smax * (1 + 1e-9) + 1e-12 * reach) {
        return true; /* cannot beat the best hit */
    }
    for (int k = 0; k < 3; ++k) {
        /* m = e_k x n points away from the opposite vertex. */
        double m[3] = {e[k][1] * n[2] - e[k][2] * n[1], e[k][2] * n[0] - e[k][0] * n[2], e[k][0] * n[1] - e[k][1] * n[0]};
        const double* opp = w[(k + 2) % 3];
        if (m[0] * (opp[0] - w[k][0]) + m[1] * (opp[1] - w[k][1]) + m[2] * (opp[2] - w[k][2]) > 0) {
            m[0] = -m[0], m[1] = -m[1], m[2] = -m[2];
        }
        const double lm = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        double pa = 0, pb = 0;
        for (int i = 0; i < 3; ++i) {
            const double base = r->o[i] - w[k][i];
            pa += m[i] * (base + sa * r->d[i]);
            pb += m[i] * (base + sb * r->d[i]);
        }
        if (pa > reach * lm && pb > reach * lm) {
            return true;
        }
    }
    return false;
}

static float sweep_tri(tri_ctx* c, int j, float smax)
{
    if (sweep_surely_misses(c, j, smax)) {
        return smax;
    }
    sw_vec3 w[3];
    sw_internal_mesh_world_tri(c->mesh, &c->place, j, w);
    const sw_shape tri = {.type = SW_SHAPE_TRIANGLE, .triangle = {{w[0], w[1], w[2]}, c->one_sided}};
    /* ignore_separating is applied here, to the normal the mesh reports
     * (flattened on a flat edge), not by the pair to the triangle's own. */
    const sw_sweep_options plain = {sw_internal_skin(c->opt), false};
    sw_hit h = sw_internal_pair_sweep(c->a, c->d, &tri, &plain);
    if (h.status != SW_OK || !h.hit) {
        return smax;
    }
    /* A start keeps the pair's depth, normal and point (the shortest
     * translation out of this triangle, DESIGN.md §2) unless moving A by
     * that depth along the face normal clears the triangle too, within
     * half the contract's band: a shape resting on a floor (rounding
     * makes it a few ulps deep) reports the floor's normal, a shape deep
     * in an edge its way out. The flattened normal always decides
     * ignore_separating. */
    sw_hit flat = h;
    if (flatten_normal(&flat, w, c->mesh->flags[j], sw_madd(c->a_center, h.t, c->d), c->d, c->one_sided)) {
        bool take = !h.overlapping;
        if (h.overlapping) {
            const sw_vec3 deep = sw_shape_support(c->a, sw_neg(flat.normal));
            const sw_real along = sw_dot(flat.normal, sw_sub(w[0], deep)) + plain.skin;
            const sw_real scale =
                sw_max(sw_max(sw_max_abs(w[0]), sw_max_abs(w[1])), sw_max(sw_max_abs(w[2]), sw_max_abs(c->a_center))) +
                (sw_real)c->reach + sw_max_abs(c->d);
            take = along <= h.depth + (sw_real)(0.5 * SW_TOLERANCE) * scale;
        }
        if (take) {
            h.normal = flat.normal;
        }
    }
    if (sw_internal_ignore_separating(c->opt) &&
        sw_dot(c->d, flat.normal) >= -(sw_real)SW_TOLERANCE * sw_length(c->d)) {
        return smax; /* moving away from or along this triangle */
    }
    keep(&c->st, h, c->mesh->id[j]);
    return c->st.best_id >= 0 ? sw_min(smax, bound_of((float)c->st.best.t)) : smax;
}

/* Whether the ray (a point moving by D = max dir) surely misses local
 * triangle j, or meets it only beyond smax: Moller and Trumbore's test in
 * double on the local triangle. The exact routine answers the placed
 * triangle, which differs from the local one by the placement's rounding
 * (delta: a few ulps of the placed coordinates), so each barycentric and
 * the time are widened by what a shift of delta in any input can change
 * them by, to first order: delta (|D| |e2| + |tv x D|) for u = tv .
 * (D x e2), and likewise v and det - u - v (1-norms, which bound the
 * 2-norms), plus the double arithmetic's own rounding. A ray it rejects
 * misses the placed triangle, or grazes it within a few ulps, inside the
 * contract's band, where a miss is a right answer too; what it keeps, the
 * exact routine decides. */
static bool ray_surely_misses(const tri_ctx* c, const ray_pre* r, int j, float smax)
{
    const int32_t* t = c->mesh->tri + 3 * (size_t)j;
    const sw_vec3 w0 = c->mesh->v[t[0]], w1 = c->mesh->v[t[1]], w2 = c->mesh->v[t[2]];
    const double e1[3] = {(double)w1.x - w0.x, (double)w1.y - w0.y, (double)w1.z - w0.z};
    const double e2[3] = {(double)w2.x - w0.x, (double)w2.y - w0.y, (double)w2.z - w0.z};
    const double tv[3] = {r->o[0] - w0.x, r->o[1] - w0.y, r->o[2] - w0.z};
    const double* d = r->d;
    const double p[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]};
    const double q[3] = {tv[1] * e1[2] - tv[2] * e1[1], tv[2] * e1[0] - tv[0] * e1[2], tv[0] * e1[1] - tv[1] * e1[0]};
    double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    double u = tv[0] * p[0] + tv[1] * p[1] + tv[2] * p[2];
    double v = d[0] * q[0] + d[1] * q[1] + d[2] * q[2];
    double tn = e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2];
    if (det < 0) {
        det = -det, u = -u, v = -v, tn = -tn;
    }
    const double le = fabs(e1[0]) + fabs(e1[1]) + fabs(e1[2]) + fabs(e2[0]) + fabs(e2[1]) + fabs(e2[2]);
    const double td = fabs(tv[1] * d[2] - tv[2] * d[1]) + fabs(tv[2] * d[0] - tv[0] * d[2]) +
                      fabs(tv[0] * d[1] - tv[1] * d[0]);
    const double tl = fabs(tv[0]) + fabs(tv[1]) + fabs(tv[2]);
    const double m = 3 * c->place_err * (r->ld * le + td) + 1e-14 * (tl + le) * r->ld * le;
    if (u < -m || v < -m || u + v > det + m) {
        return true;
    }
    const double n1 = fabs(e1[1] * e2[2] - e1[2] * e2[1]) + fabs(e1[2] * e2[0] - e1[0] * e2[2]) +
                      fabs(e1[0] * e2[1] - e1[1] * e2[0]);
    if (det > 0.01 * r->ld * n1) {
        /* Steep enough for the time to be stable: a shift delta moves it
         * by at most delta |n| / |D . n| of the path. */
        const double slack = 2 * c->place_err * n1 / det + 1e-14 * (tl + le + r->ld);
        if (tn > det * ((double)smax + slack) || tn < -det * slack) {
            return true;
        }
    }
    return false;
}

static float ray_tri(tri_ctx* c, int j, float smax)
{
    if (ray_surely_misses(c, &c->ray_local, j, smax)) {
        return smax;
    }
    sw_vec3 w[3];
    sw_internal_mesh_world_tri(c->mesh, &c->place, j, w);
    const sw_shape tri = {.type = SW_SHAPE_TRIANGLE, .triangle = {{w[0], w[1], w[2]}, c->one_sided}};
    sw_hit h = sw_internal_pair_raycast(c->ray, &tri);
    if (h.status != SW_OK || !h.hit) {
        return smax;
    }
    flatten_normal(&h, w, c->mesh->flags[j], sw_madd(c->ray->origin, h.t, c->ray->dir), c->ray->dir, c->one_sided);
    keep(&c->st, h, c->mesh->id[j]);
    if (c->st.best_id < 0) {
        return smax;
    }
    const sw_real s = c->ray->max > 0 ? c->st.best.t / c->ray->max : 0;
    return sw_min(smax, bound_of((float)s));
}

static void init_ctx(tri_ctx* c, const sw_mesh_instance* m)
{
    c->a = NULL;
    c->opt = NULL;
    c->ray = NULL;
    c->dist = (sw_distance_result){0};
    c->ov = (sw_overlap_result){0};
    c->st.best = (sw_hit){0};
    c->mesh = m->mesh;
    c->one_sided = m->one_sided;
    c->st.best_id = -1;
    c->found_id = -1;
    sw_internal_mesh_place(m, &c->place);
}

static sw_vec3 box_center(sw_aabb b) { return sw_scale(sw_add(b.min, b.max), SW_R(0.5)); }
static sw_vec3 box_half(sw_aabb b) { return sw_scale(sw_sub(b.max, b.min), SW_R(0.5)); }

/* Radius of a ball about A's bounds' centre that holds A: a round shape's
 * own (its core's half-length plus its radius), else the bounds' half
 * diagonal. */
static double bounding_radius(const sw_shape* a, sw_vec3 half)
{
    switch (a->type) {
    case SW_SHAPE_POINT:
        return 0;
    case SW_SHAPE_SPHERE:
        return a->sphere.radius;
    case SW_SHAPE_SEGMENT:
        return 0.5 * (double)sw_length(sw_sub(a->segment.b, a->segment.a)) * (1 + 1e-6);
    case SW_SHAPE_CAPSULE:
        return (0.5 * (double)sw_length(sw_sub(a->capsule.b, a->capsule.a)) + a->capsule.radius) * (1 + 1e-6);
    default:
        return (double)sw_length(half) * (1 + 1e-6);
    }
}

sw_hit sw_internal_mesh_sweep(const sw_shape* a, sw_vec3 d, const sw_mesh_instance* m, const sw_sweep_options* opt)
{
    tri_ctx c;
    init_ctx(&c, m);
    const sw_aabb ab = sw_shape_bounds(a);
    const sw_real skin = sw_internal_skin(opt);
    c.a = a;
    c.d = d;
    c.opt = opt;
    c.a_center = box_center(ab);
    c.reach = bounding_radius(a, box_half(ab)) + skin;
    make_trav(&c, c.a_center, sw_add(box_half(ab), sw_v3(skin, skin, skin)), d);
    traverse(&c, 1, sweep_tri);
    return c.st.best_id >= 0 ? c.st.best : (sw_hit){0};
}

sw_hit sw_internal_mesh_raycast(const sw_ray* ray, const sw_mesh_instance* m)
{
    tri_ctx c;
    init_ctx(&c, m);
    c.ray = ray;
    make_trav(&c, ray->origin, sw_v3(0, 0, 0), sw_scale(ray->dir, ray->max));
    traverse(&c, 1, ray_tri);
    return c.st.best_id >= 0 ? c.st.best : (sw_hit){0};
}

/* ---- overlap and distance --------------------------------------------- */

static float overlap_tri(tri_ctx* c, int j, float smax)
{
    sw_vec3 w[3];
    sw_internal_mesh_world_tri(c->mesh, &c->place, j, w);
    const sw_shape tri = sw_make_triangle(w[0], w[1], w[2], false);
    const sw_overlap_result r = sw_internal_pair_overlap(c->a, &tri);
    const int id = c->mesh->id[j];
    if (r.status == SW_OK && r.overlapping &&
        (c->found_id < 0 || r.depth > c->ov.depth || (r.depth == c->ov.depth && id < c->found_id))) {
        c->ov = r;
        c->found_id = id;
    }
    return smax;
}

sw_overlap_result sw_internal_mesh_overlap(const sw_shape* a, const sw_mesh_instance* m)
{
    tri_ctx c;
    init_ctx(&c, m);
    const sw_aabb ab = sw_shape_bounds(a);
    c.a = a;
    make_trav(&c, box_center(ab), box_half(ab), sw_v3(0, 0, 0));
    traverse(&c, 0, overlap_tri);
    return c.found_id >= 0 ? c.ov : (sw_overlap_result){0};
}

/* Distance: depth first, nearer child first, pruned by the lower bound of
 * the boxes' gap (the query box grown by the margin, so the bound stays
 * below the exact distance). */
static float box_gap_sq(const trav* q, float lo, float hi, int k)
{
    const float g = sw_max(lo - (q->o[k] + q->h[k]), (q->o[k] - q->h[k]) - hi);
    return g > 0 ? g * g : 0;
}

static void consider_distance(tri_ctx* c, int j)
{
    sw_vec3 w[3];
    sw_internal_mesh_world_tri(c->mesh, &c->place, j, w);
    const sw_shape tri = sw_make_triangle(w[0], w[1], w[2], false);
    const sw_distance_result r = sw_internal_pair_distance(c->a, &tri);
    const int id = c->mesh->id[j];
    if (r.status == SW_OK &&
        (c->found_id < 0 || r.distance < c->dist.distance || (r.distance == c->dist.distance && id < c->found_id))) {
        c->dist = r;
        c->found_id = id;
    }
}

static void distance_walk(tri_ctx* c, int32_t code)
{
    if (code < 0) {
        const uint32_t leaf = ~(uint32_t)code;
        for (int j = (int)(leaf >> 3); j < (int)(leaf >> 3) + (int)(leaf & 7); ++j) {
            consider_distance(c, j);
        }
        return;
    }
    const sw_mesh_node* n = &c->mesh->nodes[code];
    float g[4];
    int order[4] = {0, 1, 2, 3};
    for (int k = 0; k < 4; ++k) {
        g[k] = box_gap_sq(&c->q, n->lo[0][k], n->hi[0][k], 0) + box_gap_sq(&c->q, n->lo[1][k], n->hi[1][k], 1) +
               box_gap_sq(&c->q, n->lo[2][k], n->hi[2][k], 2);
        for (int at = k; at > 0 && g[order[at - 1]] > g[order[at]]; --at) {
            const int s = order[at];
            order[at] = order[at - 1];
            order[at - 1] = s;
        }
    }
    for (int i = 0; i < 4; ++i) {
        const int k = order[i];
        const int32_t child = n->child[k];
        if (child < 0 && (~(uint32_t)child & 7) == 0) {
            continue;
        }
        if (c->found_id >= 0 && !c->q.all) {
            const double best = (double)c->dist.distance;
            if ((double)g[k] > best * best * (1 + 1e-5)) {
                continue;
            }
            if (c->dist.distance == 0) {
                return; /* touching: nothing is closer */
            }
        }
        distance_walk(c, child);
    }
}

sw_distance_result sw_internal_mesh_distance(const sw_shape* a, const sw_mesh_instance* m)
{
    tri_ctx c;
    init_ctx(&c, m);
    const sw_aabb ab = sw_shape_bounds(a);
    c.a = a;
    make_trav(&c, box_center(ab), box_half(ab), sw_v3(0, 0, 0));
    distance_walk(&c, 0);
    return c.dist;
}
