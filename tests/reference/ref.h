/* Long-double references for the differential tests.
 *
 * Independent of the library's formulas: distances between shape cores
 * minimise the convex quadratic over the parameter square by checking its
 * interior stationary point (Cramer's rule on the common perpendicular)
 * and the four clamped edges; times of impact root-find the distance
 * function g(t) = sdist(A + t d, B) - skin (convex in t): golden-section
 * search for its minimum over [0, 1], then bisection for its first root;
 * the contact normal is taken just before that root (where the gap is
 * 1e-13 scale, far above rounding). Containment root-finds the (concave)
 * slack. Inputs are the sw_real values as given, converted exactly to long
 * double; a polygon of more than three vertices is flattened onto its
 * plane (its inputs are planar only to within their rounding). Cross
 * products that cancel (nearly parallel segments, slivers) are computed
 * with an fma-based exact difference of products, since double inputs
 * leave long double little headroom.
 *
 * Penetration of crossing cores is the depth of the origin in the
 * Minkowski difference M = B - core(A), found by brute force over every
 * plane through three points of M that has all of M on one side (not the
 * library's list of candidate axes).
 *
 * Solids without a segment core (a box or polytope against a box,
 * polytope, polygon or half-space) use ref_polytope.c on its own
 * conversion of the shapes: minus the exact depth from the largest gap
 * over every face normal and edge-edge cross product when they meet, the
 * exact distance over every feature pair when apart (a half-space: the
 * lowest vertex).
 *
 * Adding a shape: give it a ref_kind, convert it in ref_from_shape, and
 * teach ref_sdist (its distance to a segment core, and its vertices for
 * the hull), ref_point_sdist, ref_support and the feature distances about
 * it. The solver, the perturbations and the differential engine use only
 * those. */
#ifndef SWEEP_REFERENCE_H
#define SWEEP_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "sweep/sweep.h"

typedef long double ref_real;

typedef struct ref_vec {
    ref_real x, y, z;
} ref_vec;

static inline ref_vec rv(ref_real x, ref_real y, ref_real z)
{
    ref_vec v = {x, y, z};
    return v;
}
static inline ref_vec rv_of(sw_vec3 v) { return rv(v.x, v.y, v.z); }
static inline ref_vec rv_add(ref_vec a, ref_vec b) { return rv(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline ref_vec rv_sub(ref_vec a, ref_vec b) { return rv(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline ref_vec rv_scale(ref_vec a, ref_real s) { return rv(a.x * s, a.y * s, a.z * s); }
static inline ref_vec rv_madd(ref_vec a, ref_real s, ref_vec b)
{
    return rv(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
static inline ref_real rv_dot(ref_vec a, ref_vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline ref_vec rv_cross(ref_vec a, ref_vec b)
{
    return rv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
ref_real rv_len(ref_vec a);
/* Normalises in place, returns the former length (0: left unchanged). */
ref_real rv_normalize(ref_vec* a);
/* Angle in radians between two non-zero vectors (atan2 form, accurate
 * near 0 and pi). */
ref_real rv_angle(ref_vec a, ref_vec b);
ref_real rv_max_abs(ref_vec a);

/* ---- shapes ------------------------------------------------------------- */

typedef enum ref_kind {
    REF_HULL,    /* segment core (n = 1 or 2 vertices) inflated by radius */
    REF_BOX,     /* oriented box */
    REF_POLY,    /* flat convex polygon (triangle: n = 3) */
    REF_PLANE,   /* half-space normal . x <= offset (normal unit) */
    REF_POLYTOPE /* convex polytope: a placed sw_hull (its n vertices, faces, edges) */
} ref_kind;

/* 16 vertices keep the brute-force penetration (every triple of the 32
 * points of the Minkowski difference with a segment) cheap. */
#define REF_MAX_VERTS 16
#define REF_MAX_FACES (2 * REF_MAX_VERTS - 4)
#define REF_MAX_EDGES (3 * REF_MAX_VERTS - 6)

typedef struct ref_shape {
    sw_shape_type type; /* the library type it was made from */
    ref_kind kind;
    int n; /* REF_HULL: 1 = point / sphere, 2 = segment / capsule */
    ref_vec v[REF_MAX_VERTS];
    ref_real radius;
    ref_vec center; /* REF_BOX */
    ref_vec axis[3];
    ref_real half[3];
    ref_vec normal;  /* REF_POLY: unit Newell normal (0 when degenerate); REF_PLANE: unit */
    ref_real offset; /* REF_PLANE, divided by the input normal's length */
    bool one_sided;  /* REF_POLY */
    /* REF_POLYTOPE: its faces found from its vertices alone (the planes
     * through three vertices with every vertex on one side): unit outward
     * normal fn, offset foff, vertex cycle fv[fstart .. fstart + fcount - 1]
     * counter-clockwise around fn. The library's numbering, for naming
     * features only: its face cycles lfv[lstart ..] with their outward
     * normals lfn (from the placed vertices), its edges (vertex pair ev,
     * faces ef). frame: the largest |number| of the placement (local
     * vertices, position), which counts toward scale. */
    int nf, nlf, ne, noe;
    int oev[REF_MAX_EDGES][2], oef[REF_MAX_EDGES][2]; /* its own edges: vertices, faces */
    ref_vec fn[REF_MAX_FACES];
    ref_real foff[REF_MAX_FACES];
    int fstart[REF_MAX_FACES], fcount[REF_MAX_FACES];
    int fv[2 * REF_MAX_EDGES];
    ref_vec lfn[REF_MAX_FACES];
    int lstart[REF_MAX_FACES], lcount[REF_MAX_FACES];
    int lfv[2 * REF_MAX_EDGES];
    int ev[REF_MAX_EDGES][2], ef[REF_MAX_EDGES][2];
    ref_real frame;
} ref_shape;

/* Exact conversion (a hull's placement is applied in long double); false
 * for a type the reference does not model or a hull of more than
 * REF_MAX_VERTS vertices. */
bool ref_from_shape(const sw_shape* s, ref_shape* out);
ref_shape ref_translated(const ref_shape* s, ref_vec off);
/* Largest |number| of the shape that counts toward DESIGN §3's scale. */
ref_real ref_shape_extent(const ref_shape* s);

/* Whether ref_sdist handles this pair: one of them a segment core, or a
 * box or polytope against a box, polytope, polygon or half-space. */
bool ref_has_distance(const ref_shape* a, const ref_shape* b);

/* Where two shapes are closest (or most deeply overlapping). */
typedef struct ref_witness {
    ref_vec pa, pb;  /* closest points of the cores (equal when they meet) */
    ref_vec normal;  /* from B toward A: closest-point or penetration direction */
    bool has_normal; /* false where the cores meet and no direction is preferred */
} ref_witness;

/* Signed distance between the solids: the cores' distance (or minus their
 * penetration depth when they cross) - ra - rb; negative values are minus
 * the exact penetration depth. */
ref_real ref_sdist(const ref_shape* a, const ref_shape* b, ref_witness* w);
/* Two overlapping solids without a segment core (box, polytope, polygon):
 * false when a separating-axis candidate far in angle from the
 * penetration direction comes within 16 tau of the depth, so that inputs
 * moved by tau may make it the answer (ref_polytope.c's rp_sweep unique0);
 * true for other pairs. */
bool ref_solid_normal_unique(const ref_shape* a, const ref_shape* b, ref_real tau);
/* Signed distance from p to the solid (negative inside). */
ref_real ref_point_sdist(const ref_shape* s, ref_vec p);
/* Support value max over x in s of n.x (n any vector); +infinity for a
 * half-space unless n is along its normal. */
ref_real ref_support(const ref_shape* s, ref_vec n);

/* Distance from p to feature (kind, index) of B's core, +infinity for a
 * feature B does not have. */
ref_real ref_feature_distance(const ref_shape* b, sw_feature_kind kind, int index, ref_vec p);
/* How far the unit vector n lies outside the normal cone of feature (kind,
 * index) of B (the outward directions at which that feature is B's
 * supporting set): the largest violated constraint, in units of the sine
 * of an angle (0 inside the cone); +infinity for a feature B does not have. */
ref_real ref_feature_cone_excess(const ref_shape* b, sw_feature_kind kind, int index, ref_vec n);
/* Feature (kind, index) of B's core (not a plane's) as a shape of its own:
 * a point, a segment or a flat polygon; false for a feature B does not have. */
bool ref_feature_shape(const ref_shape* b, sw_feature_kind kind, int index, ref_shape* out);

/* Containment of a round shape (point / sphere) a in the container b
 * (sphere or box): the slack, > 0 when a is strictly inside, and for a box
 * the face (2 * axis + (side > 0)) with the least slack in *face. */
ref_real ref_inside_slack(const ref_shape* a, const ref_shape* b, int* face);
/* Slack of one box face. */
ref_real ref_face_slack(const ref_shape* a, const ref_shape* b, int face);
/* Inward unit normal of box face `face`. */
ref_vec ref_face_normal(const ref_shape* b, int face);

/* ---- queries ------------------------------------------------------------ */

typedef enum ref_op { REF_SWEEP, REF_RAYCAST, REF_SWEEP_INSIDE, REF_OVERLAP, REF_DISTANCE } ref_op;

/* One query. A raycast is the sweep of the point a (the origin) by
 * d = max * dir. */
typedef struct ref_case {
    ref_op op;
    ref_shape a, b;
    ref_vec d;
    ref_real skin;
} ref_case;

typedef struct ref_result {
    /* Sweeps: g(t) = sdist(A(t), B) - skin; containment: the slack. */
    ref_real g0, g1, gmin, tmin;
    /* First t in [0, 1] with g(t) <= 0. */
    bool hit;
    ref_real t;
    /* Contact normal at t (from B toward A; containment: into B), or the
     * overlap / closest-point direction; has_normal is false where the
     * cores meet and every direction is a candidate. */
    bool has_normal;
    ref_vec normal;
    /* Closest core points at t (sweeps) or at rest (overlap, distance). */
    ref_vec pa, pb;
    /* One-sided B: the contact at t does not count (from behind, or A
     * starts in contact); `hit` is then false. ambiguous: the decision is
     * within 2e-3 of its threshold (either answer accepted). */
    bool one_sided_reject, one_sided_ambiguous;
    /* Containment in a box: the face reached first. */
    int face;
    /* Overlap / distance: signed distance between the solids. */
    ref_real sdist;
} ref_result;

/* Largest |number| of the query (DESIGN §3 scale; a ray counts max*dir). */
ref_real ref_scale(const ref_case* c);
/* g at time t. */
ref_real ref_g(const ref_case* c, ref_real t);
/* Minimum of g over [t0, t1] (golden section for the convex sweep g; the
 * end points for the concave slack). */
ref_real ref_gmin_on(const ref_case* c, ref_real t0, ref_real t1);
void ref_solve(const ref_case* c, ref_result* r);
/* A copy of c with every coordinate, radius, extent, displacement
 * component and skin moved by +-amount (signs drawn from seed). */
void ref_perturb(const ref_case* c, ref_real amount, uint64_t seed, ref_case* out);
/* Largest angle between r's normal and the normals of `trials` perturbed
 * copies of c and of two copies with A moved by +-amount along r's normal;
 * a large value (>= 1) when a copy has no hit or no normal. */
ref_real ref_normal_spread(const ref_case* c, const ref_result* r, ref_real amount, int trials, uint64_t seed);
/* Whether a perturbed copy of c gets the other one-sided verdict (counted
 * or rejected) than r: the `trials` random copies of ref_normal_spread,
 * and six with A moved by +-amount along two directions across d and
 * along r's normal. Where the contact normal is not unique (A's edge or
 * end at B's vertex), inputs moved within the band pick another normal,
 * and the rule reads that normal. */
bool ref_one_sided_flips(const ref_case* c, const ref_result* r, ref_real amount, int trials, uint64_t seed);

#endif
