/* Polytopes seen one way (private): a box, a hull, a triangle or a convex
 * polygon as vertices, faces and edges in a local frame plus a placement,
 * for the separating-axis sweeps of polytope pairs
 * (queries/polytope_sweep.c). */
#ifndef SWEEP_SHAPES_POLYTOPE_H
#define SWEEP_SHAPES_POLYTOPE_H

#include "internal.h"

typedef struct sw_polytope {
    sw_shape_type type;
    /* Flat: a triangle or polygon; its faces are the front (+front) and
     * the back, both reported as face 0. A flat polytope whose normal is
     * zero (a sliver) has no faces: its edges and vertices answer. */
    bool flat;
    bool one_sided;
    int nv, nf, ne;
    const sw_vec3* v; /* local vertices */
    /* Solids: faces with local unit normals and offsets; an edge's two
     * faces give its direction (their normals' cross product), so boxes
     * with zero extents keep well-defined axes. */
    const sw_hull_face* f;
    const sw_hull_edge* e;
    const sw_hull* hull; /* the hull of a hull, else NULL */
    sw_vec3 front; /* flat: unit normal following the vertex order, or zero */
    /* Placement: x_world = rotate(q, x_local) + origin. */
    sw_quat q;
    sw_vec3 origin;
    /* Storage for the shapes that are not hulls. */
    sw_vec3 vbuf[8];
    sw_hull_face fbuf[6];
    sw_hull_edge ebuf[SW_MAX_POLYGON_VERTICES];
} sw_polytope;

/* Builds the view of a valid box, hull, triangle or polygon; false for any
 * other type. */
bool sw_polytope_make(const sw_shape* s, sw_polytope* p);

static inline bool sw_is_polytope_type(sw_shape_type t)
{
    return t == SW_SHAPE_BOX || t == SW_SHAPE_HULL || t == SW_SHAPE_TRIANGLE || t == SW_SHAPE_POLYGON;
}

#endif
