/* Long-double reference for polytope pairs: a box or hull (A, moving)
 * against a box, hull, triangle or polygon (B, static).
 *
 * Independent of the library's method:
 * - shapes are converted exactly (quaternions normalised in long double);
 *   a hull's faces and edges are not taken from sw_hull but rebuilt by
 *   brute force from its placed vertices (every triple whose plane has all
 *   vertices on one side is a facet triangle), so a wrong hull topology
 *   cannot hide in the reference;
 * - the separation sep(A, B) is the largest projected gap over EVERY
 *   candidate axis (face normals of both, every edge direction of A
 *   crossed with every edge direction of B, no pruning; only exactly
 *   parallel pairs are skipped). A flat shape is treated as the limit of a
 *   thin prism: its side normals are faces and its normal an edge
 *   direction, so coplanar flat pairs are separated too. Any extra axis
 *   only lowers the maximum toward the true value, so sep is -(penetration
 *   depth) when they overlap, 0 when they touch and a lower bound of the
 *   distance when apart;
 * - g(t) = sep(A + t d, B) is the maximum of linear functions of t (one
 *   pair per axis), so its first root in [0, 1] is found exactly as the
 *   intersection of the half-lines where each is <= 0; the contact normal
 *   is the piece that closes last (the maximising axis just before the
 *   root), unique when no other piece, far in angle, is within the margin
 *   that a perturbation of the inputs by tol*scale could close;
 * - the swept test (A + [0,1] d against B, axes also crossed with d) gives
 *   the depth of the origin in the swept Minkowski difference, which
 *   decides DESIGN §3's grazing band;
 * - exact distances between separated polytopes by brute force over
 *   vertex-face, face-vertex and edge-edge pairs.
 *
 * Features of B are numbered as the library documents them (box numbering
 * in shapes.h, hull numbering in hull.h, polygon vertices in order, edge i
 * from v[i] to v[i+1], face 0). */
#ifndef SWEEP_REF_POLYTOPE_H
#define SWEEP_REF_POLYTOPE_H

#include <stdbool.h>

#include "ref.h"

#define RP_MAX_VERTS 72
#define RP_MAX_FACES 512
#define RP_MAX_FACE_VERTS 2048
#define RP_MAX_EDGES 768
#define RP_MAX_AXES 512
#define RP_MAX_DIRS 768

typedef struct rp_poly {
    sw_shape_type type;
    bool flat; /* triangle or polygon: a plane figure */
    bool one_sided;
    ref_vec front; /* flat: unit normal following the vertex order */
    int nv;
    ref_vec v[RP_MAX_VERTS]; /* hull: the library's vertex order */
    /* Surface segments (hull: may include diagonals of coplanar facets;
     * box: the library's edge numbering). */
    int ne;
    int ev[RP_MAX_EDGES][2];
    /* Faces: convex planar vertex loops with outward unit normal and
     * offset (hull: facet triangles; box: the library's face numbering;
     * flat: the one polygon, normal = front). */
    int nf;
    int ffirst[RP_MAX_FACES], fcount[RP_MAX_FACES];
    ref_vec fn[RP_MAX_FACES];
    ref_real fo[RP_MAX_FACES];
    int fv[RP_MAX_FACE_VERTS];
    /* Separating-axis data: face axes (unit) and edge directions. */
    int nax;
    ref_vec ax[RP_MAX_AXES];
    int ndir;
    ref_vec dir[RP_MAX_DIRS];
    ref_real extent;     /* largest |number| of the input (DESIGN §3 scale) */
    const sw_hull* hull; /* hull: the library's numbering of its features */
} rp_poly;

/* Converts a valid box, hull, triangle or polygon; false for another type
 * or one beyond the fixed capacities. */
bool rp_from_shape(const sw_shape* s, rp_poly* out);

/* The same from the engine's long-double shape (box, flat polygon of
 * non-zero area, polytope; a polytope keeps the faces ref.c found). */
bool rp_from_ref(const ref_shape* s, rp_poly* out);

/* DESIGN §3 scale of a sweep of a by d against b. */
ref_real rp_scale(const rp_poly* a, ref_vec d, const rp_poly* b);

/* sep(A + off, B) over every candidate axis; *normal (may be NULL) is the
 * maximising axis oriented from B toward A. */
ref_real rp_sep(const rp_poly* a, ref_vec off, const rp_poly* b, ref_vec* normal);

/* Signed distance between A + off and B: sep when they meet (minus the
 * penetration depth), else the exact distance with closest points (pa on
 * A + off, pb on B; may be NULL; unset when they meet). */
ref_real rp_signed_distance(const rp_poly* a, ref_vec off, const rp_poly* b, ref_vec* pa, ref_vec* pb);

/* The exact distance between A + off and B when they do not meet (brute
 * force over feature pairs), with closest points; axis (may be NULL): a
 * unit vector from B toward A (the separating axis) that speeds it up. */
ref_real rp_distance(const rp_poly* a, ref_vec off, const rp_poly* b, const ref_vec* axis, ref_vec* pa, ref_vec* pb);

/* Smallest signed distance between A + t d and B for t in [t0, t1]
 * (golden section; it is convex in t), or the first value found at or
 * below stop_below (-INFINITY: always the minimum). */
ref_real rp_min_signed_distance(const rp_poly* a, ref_vec d, const rp_poly* b, ref_real t0, ref_real t1,
                                ref_real stop_below);

/* Signed distance from x to the solid s + off (negative inside; a flat
 * shape has no inside). */
ref_real rp_point_sdist(const rp_poly* s, ref_vec off, ref_vec x);

/* max over x in s of n . x (s not translated). */
ref_real rp_support(const rp_poly* s, ref_vec n);

/* Distance from p to feature (kind, index) of b in the library's
 * numbering; +infinity for a feature b does not have. */
ref_real rp_feature_distance(const rp_poly* b, sw_feature_kind kind, int index, ref_vec p);
/* Number of features of the kind b has. */
int rp_feature_count(const rp_poly* b, sw_feature_kind kind);

/* The answer of the sweep of A by d against B, with DESIGN §3's margins
 * for tau = tol * scale. */
typedef struct rp_sweep_result {
    ref_real g0;        /* sep at t = 0: -depth when they overlap */
    ref_real swept_sep; /* -(depth of the origin in the swept Minkowski
                           difference), or a lower bound of the closest
                           distance over [0, 1] */
    bool hit;           /* exact: g <= 0 somewhere in [0, 1] */
    ref_real t;         /* first root */
    ref_vec normal;     /* at t, from B toward A */
    bool unique;        /* no competing axis within the perturbation margin */
    ref_real slope;     /* normal . d: dg/dt of the closing piece (t > 0) */
    ref_vec normal0;    /* the maximising axis at t = 0 (penetration
                           direction when overlapping) */
    bool unique0;
    /* One-sided B: the contact at t is rejected (from behind, or A starts
     * in contact: hit is then false); ambiguous: within 2e-3 of the rule's
     * thresholds or the normal is not unique. */
    bool one_sided_reject, one_sided_ambiguous;
} rp_sweep_result;

void rp_sweep(const rp_poly* a, ref_vec d, const rp_poly* b, ref_real tau, rp_sweep_result* r);

/* The offsets s for which A + s n swept by d touches B form an interval:
 * [*lo, *hi], false when it is empty (builds grazing cases). */
bool rp_swept_offsets(const rp_poly* a, ref_vec d, const rp_poly* b, ref_vec n, ref_real* lo, ref_real* hi);

/* The candidate axes of A moving by d against B with both shapes'
 * projections, built once for many evaluations of g(t) = sep(A + t d, B)
 * (normal: the maximising axis, from B toward A; may be NULL). */
typedef struct rp_axes rp_axes;
rp_axes* rp_axes_build(const rp_poly* a, ref_vec d, const rp_poly* b);
ref_real rp_axes_g(const rp_axes* S, ref_real t, ref_vec* normal);
void rp_axes_free(rp_axes* S);

/* g(t) = sep(A + t d, B). */
ref_real rp_g(const rp_poly* a, ref_vec d, const rp_poly* b, ref_real t);
/* min of g over [t0, t1]. */
ref_real rp_gmin_on(const rp_poly* a, ref_vec d, const rp_poly* b, ref_real t0, ref_real t1);

#endif
