/* What the polytope family's files share: double vectors, a polytope
 * placed in B's frame, the separating-axis constraints, the pair of a
 * query and its contact. Private to the library. */
#ifndef SWEEP_QUERIES_POLYTOPE_INTERNAL_H
#define SWEEP_QUERIES_POLYTOPE_INTERNAL_H

#include "queries/polytope/polytope_sweep.h"
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
static inline bool pv_unit(pv* a)
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
static inline void pl_range(const placed* P, pv L, double* lo, double* hi)
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
static inline pv pl_face_normal(const placed* P, int f)
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
static inline pv pl_edge_dir(const placed* P, int i)
{
    const sw_hull_edge* e = &P->p->e[i];
    if (P->p->type != SW_SHAPE_BOX) {
        return pv_sub(pl_vertex(P, e->v[1]), pl_vertex(P, e->v[0]));
    }
    return pv_cross(pl_face_normal(P, e->face[0]), pl_face_normal(P, e->face[1]));
}

/* Places polytope p into the frame of B (origin ob, rotation qb). */
static inline void place(const sw_polytope* p, sw_vec3 ob, sw_quat qb, bool b_identity, placed* P)
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

/* ---- the contact --------------------------------------------------------- */

#define MAX_SUPPORT 64

/* The walk's largest polytope (placed->xs holds at most this many). */
#define WALK_MAX_VERTICES_ 128

typedef struct pt2 {
    double x, y;
} pt2;

typedef struct contact_info {
    pv point;
    int nb; /* B's supporting vertices */
    int bidx[MAX_SUPPORT];
} contact_info;

/* ---- queries -------------------------------------------------------------- */

typedef struct pair {
    sw_polytope pa, pb;
    placed A, B;
    sw_quat qb; /* B's frame rotation (world = rotate(qb, frame) + ob) */
    sw_vec3 ob;
    bool b_identity;
    double scale;
} pair;

/* contact.c */
void sw_pt_contact_point(const placed* A, pv shift, const placed* B, pv n, double tol, contact_info* ci);
void sw_pt_contact_point_gap(const placed* A, pv shift, const placed* B, pv n, double tol, contact_info* ci, double* gap);
sw_feature sw_pt_feature_of(const placed* B, const contact_info* ci, pv n, double tol);
int sw_pt_support_set(const placed* P, pv n, bool upper, double tol, pv shift, pv* pts, int* idx, double* level);

/* frame.c */
bool sw_pt_balls_apart(const pair* pr, pv d);
/* The same test in the world before the pair is made, touching only the
 * shapes' headers (not a hull's vertices); false for flat shapes. */
bool sw_pt_shapes_apart(const sw_shape* a, sw_vec3 d, const sw_shape* b);
double sw_pt_bounding_ball(const placed* P, pv* c);
void sw_pt_make_pair(const sw_shape* a, const sw_shape* b, sw_vec3 d, pair* pr);
pv sw_pt_overlap_point(const pair* pr, pv n, double depth, double tol);
sw_vec3 sw_pt_to_world_point(const pair* pr, pv v);
sw_vec3 sw_pt_unit_world(const pair* pr, pv n);

/* h / v saturated at +-4: only times in [0, 1] and their order matter,
 * and a tiny v must not overflow. */
static inline double sw_pt_ratio(double h, double v)
{
    if (pv_abs(h) <= 4 * pv_abs(v)) {
        return h / v;
    }
    return (h < 0) == (v < 0) ? 4 : -4;
}

/* ---- the walk (walk.c) ---------------------------------------------------- */

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

typedef enum walk_result { WALK_UNSURE, WALK_MISS, WALK_HIT } walk_result;

/* sat.c */
void sw_pt_collect(sat* s, const placed* A, const placed* B);

/* walk.c */
walk_result sw_pt_walk(walker* w, pv d, double tol, double* t_out, pv* n_out);

#endif
