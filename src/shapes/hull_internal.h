/* The hull builder's state, shared by its files (hull.c, hull_edges.c,
 * hull_merge.c, hull_add.c, hull_output.c): the half-edge structure of
 * quickhull in the wide type. Private to the library. */
#ifndef SWEEP_SHAPES_HULL_INTERNAL_H
#define SWEEP_SHAPES_HULL_INTERNAL_H

#include "internal.h"

#ifdef SWEEP_DOUBLE
#define wide_frexp frexpl
#define wide_ldexp ldexpl
#else
#define wide_frexp frexp
#define wide_ldexp ldexp
#endif

/* ---- small vector helpers in the wide type --------------------------------- */

static inline sw_wvec wadd(sw_wvec a, sw_wvec b) { return (sw_wvec){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline sw_wvec wscale(sw_wvec a, sw_wide s) { return (sw_wvec){a.x * s, a.y * s, a.z * s}; }

/* ---- growable int arrays ------------------------------------------------------ */

typedef struct ivec {
    int* v;
    int n, cap;
} ivec;

static inline bool ivec_reserve(ivec* a, int extra)
{
    if (extra <= a->cap - a->n) {
        return true;
    }
    int cap = a->cap > 0 ? a->cap : 64;
    while (cap - a->n < extra) {
        if (cap > INT_MAX / 2) {
            return false;
        }
        cap *= 2;
    }
    int* v = realloc(a->v, (size_t)cap * sizeof *v);
    if (!v) {
        return false;
    }
    a->v = v;
    a->cap = cap;
    return true;
}

static inline bool ivec_push(ivec* a, int x)
{
    if (!ivec_reserve(a, 1)) {
        return false;
    }
    a->v[a->n++] = x;
    return true;
}

/* ---- the half-edge structure -------------------------------------------------- */

/* A half-edge of a face's counter-clockwise loop (seen from outside), from
 * the head of `prev` to `head`. */
typedef struct qh_edge {
    int head; /* point index */
    int next, prev, twin, face;
} qh_edge;

typedef struct qh_face {
    int edge;         /* a half-edge of the loop; the free-list link when not alive */
    int count;        /* vertices */
    sw_wvec newell;   /* Newell's vector: twice the vector area */
    sw_wvec normal;   /* unit, outward (0 for a face without area) */
    sw_wide offset;   /* normal . x on the plane (through the centroid) */
    sw_wvec centroid; /* mean of the vertices */
    sw_wide area;
    /* Points outside this face (more than tol above it), linked by
     * qh.next_point. */
    int outside, outside_tail;
    /* Per-step marks: equal to qh.stamp when set in the current step. */
    unsigned visible, rejected, queued, touched, in_work;
    int touched_next, work_next; /* intrusive lists of the current step */
    bool alive, in_queue;
} qh_face;

typedef struct qh {
    const sw_wvec* p; /* scaled points */
    int* next_point;  /* links of the outside lists */
    unsigned* vmark;  /* per point: on the boundary of the visible region */
    sw_wide tol;
    sw_wide noise; /* bound on the rounding error of a plane distance */
    sw_wide merge; /* the scale of merging (tol, or less: see build) */
    bool folded;   /* a point could not be added (find_horizon) */
    int distinct;  /* the distinct points (quickhull's step budget) */
    int n_points;  /* all the input points (the longest outside list) */

    qh_edge* e;
    int e_n, e_cap, e_free;
    qh_face* f;
    int f_n, f_cap, f_free;

    unsigned stamp;
    ivec queue; /* faces with outside points, first in first out */
    int queue_head;
    ivec visible, cand, defer, horizon, loop, loop2;
    int unclaimed, unclaimed_tail; /* points of deleted faces */
    int* degree;                   /* per point: faces around it (hull_valid) */
    int touched;                   /* faces made or changed in this step */
    int work;                      /* faces to check for two-face vertices */
} qh;

static inline int tail_of(const qh* q, int e) { return q->e[q->e[e].prev].head; }

/* hull.c */
bool sw_qh_hull_valid(qh* q, int* degree);
bool sw_qh_run(qh* q);

/* How sw_qh_merge_one merges: a face into the larger neighbour, or across
 * a non-convex edge. */
enum { MERGE_WRT_LARGER, MERGE_NONCONVEX };

/* hull_add.c */
bool sw_qh_above(const qh* q, sw_wvec n, sw_wvec a, int v);
int sw_qh_add_point(qh* q, int eye, int f0);
bool sw_qh_build_tetrahedron(qh* q, const int v[4]);
bool sw_qh_initial_simplex(qh* q, const int* idx, int m, int out[4]);

/* hull_edges.c */
bool sw_qh_add_outside(qh* q, int fi, int pt);
void sw_qh_add_work(qh* q, int fi);
bool sw_qh_below_without(const qh* q, sw_wvec nw, const int* vs, int n, int xi, sw_wide limit);
sw_wide sw_qh_corner_out(const qh* q, int a, int u, int b, sw_wvec n);
sw_wide sw_qh_face_distance(const qh* q, int fi, sw_wvec p);
void sw_qh_face_update(qh* q, int fi);
void sw_qh_free_edge(qh* q, int i);
void sw_qh_free_face(qh* q, int i);
bool sw_qh_loop_of(qh* q, ivec* to, int start);
int sw_qh_new_edge(qh* q);
int sw_qh_new_face(qh* q);
bool sw_qh_remove_two_face_vertex(qh* q, int fi, int ein);
bool sw_qh_reserve_pools(qh* q, int edges, int faces);
void sw_qh_touch(qh* q, int fi);

/* hull_merge.c */
bool sw_qh_merge_one(qh* q, int fi, int mode);

/* hull_output.c */
sw_hull* sw_qh_output_hull(const qh* q, const sw_vec3* points, int n, sw_hull_error* error);

#endif
