/* One view of every flat-faced shape (see queries/polytope.h). */
#include "shapes/polytope.h"

/* A box's faces 2*axis + s (normal (s ? + : -) axis) and edges
 * 4*axis + j, numbered as in shapes.h; an edge's faces are the two faces
 * it lies on. */
static void make_box(const sw_box* b, sw_polytope* p)
{
    const sw_real h[3] = {b->half.x, b->half.y, b->half.z};
    for (int i = 0; i < 8; ++i) {
        p->vbuf[i] = sw_v3(i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]);
    }
    for (int axis = 0; axis < 3; ++axis) {
        for (int s = 0; s < 2; ++s) {
            sw_hull_face* f = &p->fbuf[2 * axis + s];
            const sw_real sign = s ? 1 : -1;
            f->normal = sw_v3(axis == 0 ? sign : 0, axis == 1 ? sign : 0, axis == 2 ? sign : 0);
            f->offset = h[axis];
            f->first = 0;
            f->count = 0;
        }
        const int next = (axis + 1) % 3, after = (axis + 2) % 3;
        for (int j = 0; j < 4; ++j) {
            sw_hull_edge* e = &p->ebuf[4 * axis + j];
            const int s1 = j & 1, s2 = (j >> 1) & 1;
            const int base = (s1 << next) | (s2 << after);
            e->v[0] = base;
            e->v[1] = base | (1 << axis);
            e->face[0] = 2 * next + s1;
            e->face[1] = 2 * after + s2;
        }
    }
    p->nv = 8;
    p->nf = 6;
    p->ne = 12;
    p->v = p->vbuf;
    p->f = p->fbuf;
    p->e = p->ebuf;
    p->q = b->rotation;
    sw_quat_normalize(&p->q);
    p->origin = b->center;
}

static void make_flat(const sw_vec3* v, int count, bool one_sided, sw_polytope* p)
{
    p->flat = true;
    p->one_sided = one_sided;
    p->nv = count;
    p->v = v;
    p->ne = count;
    p->e = p->ebuf;
    for (int i = 0; i < count; ++i) {
        p->ebuf[i].v[0] = i;
        p->ebuf[i].v[1] = (i + 1) % count;
        p->ebuf[i].face[0] = 0;
        p->ebuf[i].face[1] = 1;
    }
    /* A polygon whose area vanishes against its extent is a sliver
     * without faces. */
    sw_wide ext;
    const sw_wvec n = sw_internal_polygon_normal(v, count, &ext);
    bool ok = false;
    const sw_wide len = sw_wide_sqrt(sw_wdot(n, n));
    p->front = len > 64 * SW_EPSILON * ext * ext ? sw_wunit(n, &ok) : sw_v3(0, 0, 0);
    p->nf = ok ? 2 : 0;
    p->f = NULL;
    p->q = sw_quat_identity();
    p->origin = sw_v3(0, 0, 0);
}

bool sw_polytope_make(const sw_shape* s, sw_polytope* p)
{
    p->type = s->type;
    p->flat = false;
    p->one_sided = false;
    p->front = sw_v3(0, 0, 0);
    p->hull = NULL;
    switch (s->type) {
    case SW_SHAPE_BOX:
        make_box(&s->box, p);
        return true;
    case SW_SHAPE_HULL: {
        const sw_hull* h = s->hull.hull;
        p->hull = h;
        p->nv = h->vertex_count;
        p->nf = h->face_count;
        p->ne = h->edge_count;
        p->v = h->vertices;
        p->f = h->faces;
        p->e = h->edges;
        p->q = s->hull.rotation;
        sw_quat_normalize(&p->q);
        p->origin = s->hull.position;
        return true;
    }
    case SW_SHAPE_TRIANGLE:
        make_flat(s->triangle.v, 3, s->triangle.one_sided, p);
        return true;
    case SW_SHAPE_POLYGON:
        make_flat(s->polygon.v, s->polygon.count, s->polygon.one_sided, p);
        return true;
    default:
        return false;
    }
}
