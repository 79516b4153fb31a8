/* The layout of a built mesh: src/mesh/build.c writes it, src/mesh/query.c
 * and the shapes layer's mesh_instance.c (a placed mesh's bounds, support
 * and validity) read it. Private to the library. */
#ifndef SWEEP_SHAPES_MESH_DATA_H
#define SWEEP_SHAPES_MESH_DATA_H

#include <stdint.h>

#include "internal.h"

/* A 4-wide node: its children's bounds, axis by axis, in float rounded
 * outward from the exact double bounds (so a float slab test widened by
 * the query's margin never rejects a triangle the exact test would hit),
 * and what each child is: child >= 0 an inner node, child < 0 a leaf of
 * count = (~child) & 7 triangles from first = (~child) >> 3 in leaf order.
 * An empty slot is a leaf of 0 triangles with inverted bounds. */
typedef struct sw_mesh_node {
    float lo[3][4];
    float hi[3][4];
    int32_t child[4];
} sw_mesh_node;

#define SW_MESH_LEAF_MAX 4

/* Per triangle, in leaf order: bit k (0..2) set when edge k is flat. */
enum { SW_MESH_FLAT_EDGE0 = 1 };

struct sw_mesh {
    int vertex_count;   /* as given to sw_mesh_create */
    int used_vertices;  /* the vertices the triangles use: v's length */
    int triangle_count;
    int node_count;
    int depth;
    int flat_edges;
    size_t bytes;
    sw_vec3 bmin, bmax; /* local bounds of the vertices used */
    sw_real radius;     /* largest |coordinate| of the local bounds */
    const sw_mesh_node* nodes; /* nodes[0] is the root */
    const sw_vec3* v;          /* the used vertices, in order of first use in leaf order */
    const int32_t* tri;        /* leaf order: 3 vertex indices each */
    const int32_t* id;         /* leaf order: the triangle's input index */
    const uint8_t* flags;      /* leaf order: flat edges */
    const int32_t* slot;       /* input index -> leaf order */
    void* block;               /* what malloc returned (this header is its first 64-byte boundary) */
};

/* The placement of an instance, ready for the queries: the rotation
 * matrix (rows; identity when the instance is unrotated) and position, in
 * double. */
typedef struct sw_mesh_place {
    double r[3][3];
    double p[3];
    bool rotated;
} sw_mesh_place;

void sw_internal_mesh_place(const sw_mesh_instance* m, sw_mesh_place* pl);
/* World vertex of local v (double arithmetic, rounded once). */
static inline sw_vec3 sw_internal_mesh_world(const sw_mesh_place* pl, sw_vec3 v)
{
    if (!pl->rotated) {
        return sw_v3((sw_real)((double)v.x + pl->p[0]), (sw_real)((double)v.y + pl->p[1]),
                     (sw_real)((double)v.z + pl->p[2]));
    }
    double w[3];
    for (int i = 0; i < 3; ++i) {
        w[i] = pl->r[i][0] * v.x + pl->r[i][1] * v.y + pl->r[i][2] * v.z + pl->p[i];
    }
    return sw_v3((sw_real)w[0], (sw_real)w[1], (sw_real)w[2]);
}
/* Local triangle j (leaf order) placed in the world. */
static inline void sw_internal_mesh_world_tri(const sw_mesh* m, const sw_mesh_place* pl, int j, sw_vec3 out[3])
{
    const int32_t* t = m->tri + 3 * (size_t)j;
    out[0] = sw_internal_mesh_world(pl, m->v[t[0]]);
    out[1] = sw_internal_mesh_world(pl, m->v[t[1]]);
    out[2] = sw_internal_mesh_world(pl, m->v[t[2]]);
}

/* World bounds of a valid instance, and its support (that of its
 * vertices), for shape.c. */
sw_aabb sw_internal_mesh_bounds(const sw_mesh_instance* m);
sw_vec3 sw_internal_mesh_support(const sw_mesh_instance* m, sw_vec3 dir);

#endif
