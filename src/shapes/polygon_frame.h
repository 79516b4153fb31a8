/* A polygon's frame (private): its vertices relative to the first, in
 * double, with the Newell normal, the edges and their in-plane normals.
 * Validation builds it (sw_internal_polygon_check), and the round shapes'
 * fast paths against a polygon take it from there, so that a query
 * computes these once; for a triangle the fast paths compute the same
 * with the same functions, in their own arrays.
 *
 * In float builds double holds the offsets of float vertices exactly (up
 * to a difference of 2^29 in their magnitudes) and products of them
 * exactly; in double builds it is the working precision, and validation
 * falls back to the wide type (long double) where double cannot decide. */
#ifndef SWEEP_SHAPES_POLYGON_FRAME_H
#define SWEEP_SHAPES_POLYGON_FRAME_H

#include "internal.h"

typedef struct sw_polygon_frame {
    /* Arrays of count entries: a query's on its stack (sw_polygon_frame_
     * store), a prepared polygon's in its own block. */
    sw_dvec* v;   /* vertex i minus vertex 0 (moved onto the plane: validate.c, flatten_frame) */
    sw_dvec* e;   /* edge i: vertex i + 1 - vertex i, the last closing the loop */
    sw_dvec* in;  /* n x e[i]: in the plane, pointing inside, |in[i]| = |e[i]| */
    sw_dvec nrm;  /* Newell's normal: twice the vector area */
    sw_dvec n;    /* the unit normal the edges' in[] were taken with */
    double area2; /* |nrm|, or 0 for an extent outside 1e-70..1e70 */
    double ext;   /* the largest magnitude of a coordinate of v */
    int count;
    bool zero_edge; /* an edge whose squared length is 0 (a repeated vertex) */
    /* A turn the wrong way beyond rounding (convex within tol only): an
     * edge's line may then cut the polygon, and the fast paths, which take
     * the polygon as its edges' half-planes, refuse it. */
    bool bent;
} sw_polygon_frame;

/* Room for the arrays of a frame of any polygon. */
typedef struct sw_polygon_frame_store {
    sw_dvec v[SW_MAX_POLYGON_VERTICES], e[SW_MAX_POLYGON_VERTICES], in[SW_MAX_POLYGON_VERTICES];
} sw_polygon_frame_store;

/* A polygon validated once (sw_polygon_prepare, polygon_prep.c): its own
 * copy of the vertices, and the frames sw_internal_polygon_check gives
 * them with and without flatten, in one heap block. */
struct sw_polygon_prep {
    sw_polygon_frame flat, raw; /* their count is the polygon's */
    const sw_vec3* v;
};

/* The frame of a prepared polygon (with flatten, or without: as
 * sw_internal_polygon_check), when p is one: its vertices are its prep's
 * own array, which nobody can change, and its count that prep's. NULL
 * otherwise, and the caller validates p. */
static inline const sw_polygon_frame* sw_internal_polygon_prepared(const sw_polygon* p, bool flatten)
{
    const sw_polygon_prep* r = p->prep;
    if (!r || p->v != r->v || p->count != r->flat.count) {
        return NULL;
    }
    return flatten ? &r->flat : &r->raw;
}

/* The vertices vw relative to vw[0] into v, and Newell's normal into
 * *nrm; returns their extent. */
static inline double sw_polygon_offsets(const sw_vec3* vw, int count, sw_dvec* v, sw_dvec* nrm)
{
    sw_dvec sum = {0, 0, 0};
    double ext = 0;
    v[0] = (sw_dvec){0, 0, 0};
    for (int i = 1; i < count; ++i) {
        v[i] = sw_dv_local(vw[i], vw[0]);
        ext = sw_dmax(ext, sw_dmax_abs(v[i]));
        if (i > 1) {
            sum = sw_dadd(sum, sw_dcross(v[i - 1], v[i]));
        }
    }
    *nrm = sum;
    return ext;
}

/* The edges e and their in-plane normals in with the unit normal n; false
 * when an edge's squared length is 0 (a repeated vertex). Validation in
 * double builds takes the edges from the vertices as given (vw): there
 * the offsets v are rounded to their own magnitude, which turns an edge
 * far shorter than them (a spike 3e-13 long, 1.8 from v[0]) by 1e-3 rad,
 * and a spike that retraces its way exactly would no longer look so to
 * the turn test. The triangles' fast paths, and validation in float
 * builds, take them from the offsets (vw NULL): from float vertices the
 * two are the same where the offsets are exact (above), and elsewhere
 * differ by a rounding of the largest magnitude, far below the
 * tolerance. */
static inline bool sw_polygon_edges(const sw_vec3* vw, const sw_dvec* v, int count, sw_dvec n, sw_dvec* e, sw_dvec* in)
{
    bool zero = false;
    for (int i = 0; i < count; ++i) {
        const int j = i + 1 < count ? i + 1 : 0;
        e[i] = vw ? sw_dsub(sw_dv(vw[j]), sw_dv(vw[i])) : sw_dsub(v[j], v[i]);
        in[i] = sw_dcross(n, e[i]);
        zero = zero || !(sw_ddot(e[i], e[i]) > 0);
    }
    return !zero;
}

/* Why the polygon is invalid (as sw_shape_invalid_reason), or NULL with
 * *f its whole frame, its arrays in *store, its n that of nrm in double
 * (zero for a collinear polygon whose nrm rounded to zero; validation
 * itself may have judged with the wide type's normal). With flatten, the
 * frame's offsets and edges are moved onto its plane (validate.c,
 * flatten_frame): a core with a reach or a length needs that; a point
 * without a reach (a ray) meets the face only by crossing its plane,
 * where both agree. Only the fields it sets are written (zeroing the
 * whole frame first cost a polygon query 33 instructions). */
const char* sw_internal_polygon_check(const sw_polygon* p, sw_polygon_frame* f, sw_polygon_frame_store* store,
                                      bool flatten);

#endif
