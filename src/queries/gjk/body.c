/* Shapes as GJK cores: a point set, a box or a hull plus a radius, in
 * the pair's frame at B's reference point, scaled by a power of two. */
#include "queries/gjk/gjk_internal.h"

/* B's reference point: its centre or first vertex. */
static gv reference_point(const sw_shape* s)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        return gof(s->point);
    case SW_SHAPE_SEGMENT:
        return gof(s->segment.a);
    case SW_SHAPE_SPHERE:
        return gof(s->sphere.center);
    case SW_SHAPE_CAPSULE:
        return gof(s->capsule.a);
    case SW_SHAPE_BOX:
        return gof(s->box.center);
    case SW_SHAPE_TRIANGLE:
        return gof(s->triangle.v[0]);
    case SW_SHAPE_POLYGON:
        return gof(s->polygon.v[0]);
    case SW_SHAPE_HULL: {
        const gq q = gq_of(s->hull.rotation);
        return gadd(gq_rotate(q, gof(s->hull.hull->center)), gof(s->hull.position));
    }
    case SW_SHAPE_PLANE:
    case SW_SHAPE_MESH: /* refused by the entry points */
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    return g3(0, 0, 0);
}

static void make_points(body* b, const frame* f, const sw_vec3* v, int count, gr radius)
{
    b->kind = BODY_POINTS;
    b->count = count;
    b->radius = radius;
    for (int i = 0; i < count; ++i) {
        b->v[i] = to_frame(f, v[i]);
    }
}

/* Builds the core of s in the unscaled frame (k = 1) and returns its
 * extent there (largest |coordinate| plus the radius). */
static gr body_make(body* b, const sw_shape* s, const frame* f)
{
    b->flat = false;
    b->normal = g3(0, 0, 0);
    b->hull = NULL;
    b->k = 1;
    switch (s->type) {
    case SW_SHAPE_POINT:
        make_points(b, f, &s->point, 1, 0);
        break;
    case SW_SHAPE_SEGMENT:
        make_points(b, f, &s->segment.a, 1, 0);
        b->v[1] = to_frame(f, s->segment.b);
        b->count = 2;
        break;
    case SW_SHAPE_SPHERE:
        make_points(b, f, &s->sphere.center, 1, s->sphere.radius);
        break;
    case SW_SHAPE_CAPSULE:
        make_points(b, f, &s->capsule.a, 1, s->capsule.radius);
        b->v[1] = to_frame(f, s->capsule.b);
        b->count = 2;
        break;
    case SW_SHAPE_TRIANGLE:
    case SW_SHAPE_POLYGON: {
        const bool tri = s->type == SW_SHAPE_TRIANGLE;
        make_points(b, f, tri ? s->triangle.v : s->polygon.v, tri ? 3 : s->polygon.count, 0);
        /* Newell's normal relative to v[0]; no normal when it is lost in
         * the rounding of the vertices (a sliver). */
        gv n = g3(0, 0, 0);
        gr ext = 0;
        for (int i = 1; i < b->count; ++i) {
            ext = gmax(ext, gmaxabs(gsub(b->v[i], b->v[0])));
            if (i + 1 < b->count) {
                n = gadd(n, gcross(gsub(b->v[i], b->v[0]), gsub(b->v[i + 1], b->v[0])));
            }
        }
        const gr area2 = gnormalize(&n);
        b->flat = area2 > DEGENERATE_SIN * ext * ext;
        b->normal = b->flat ? n : g3(0, 0, 0);
        break;
    }
    case SW_SHAPE_BOX: {
        const gq q = gq_of(s->box.rotation);
        b->kind = BODY_BOX;
        b->count = 8;
        b->radius = 0;
        b->center = to_frame(f, s->box.center);
        b->axis[0] = gq_rotate(q, g3(1, 0, 0));
        b->axis[1] = gq_rotate(q, g3(0, 1, 0));
        b->axis[2] = gq_rotate(q, g3(0, 0, 1));
        b->half[0] = s->box.half.x;
        b->half[1] = s->box.half.y;
        b->half[2] = s->box.half.z;
        return gmaxabs(b->center) + b->half[0] + b->half[1] + b->half[2];
    }
    case SW_SHAPE_HULL: {
        const sw_hull* h = s->hull.hull;
        b->kind = BODY_HULL;
        b->count = h->vertex_count;
        b->radius = 0;
        b->hull = h;
        b->q = gq_of(s->hull.rotation);
        b->center = to_frame(f, s->hull.position);
        /* Rotation keeps lengths: the extent needs no rotated vertex. */
        gr reach = 0;
        for (int i = 0; i < h->vertex_count; ++i) {
            reach = gmax(reach, glen(gsub(gof(h->vertices[i]), gof(h->center))));
        }
        return gmaxabs(gadd(b->center, gq_rotate(b->q, gof(h->center)))) + reach;
    }
    case SW_SHAPE_PLANE:
    case SW_SHAPE_MESH: /* refused by the entry points */
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    gr ext = 0;
    for (int i = 0; i < b->count; ++i) {
        ext = gmax(ext, gmaxabs(b->v[i]));
    }
    return ext + b->radius;
}

static void body_scale(body* b, gr k)
{
    b->radius *= k;
    switch (b->kind) {
    case BODY_POINTS:
        for (int i = 0; i < b->count; ++i) {
            b->v[i] = gscale(b->v[i], k);
        }
        break;
    case BODY_BOX:
        b->center = gscale(b->center, k);
        for (int i = 0; i < 3; ++i) {
            b->half[i] *= k;
        }
        break;
    case BODY_HULL:
        b->center = gscale(b->center, k);
        b->k = k;
        break;
    }
}

void sw_gjk_pair_make(gjk_pair* p, const sw_shape* a, const sw_shape* b, sw_vec3 d, sw_real skin)
{
    p->f.o = reference_point(b);
    p->f.k = 1;
    const gr ext_b = body_make(&p->b, b, &p->f);
    const gr ext_a = body_make(&p->a, a, &p->f);
    const gv dd = gof(d);
    const gr ext = gmax(gmax(ext_a, ext_b), gmax(gmaxabs(dd), (gr)skin));
    /* A power of two puts the extent in [0.5, 1): the scaling is exact. */
    int e = 0;
    if (ext > 0) {
        frexp(ext, &e);
    }
    const gr k = ldexp(1.0, -e);
    p->f.k = k;
    body_scale(&p->a, k);
    body_scale(&p->b, k);
    p->d = gscale(dd, k);
    p->skin = (gr)skin * k;
    p->world_size = gmax(ext, gmaxabs(p->f.o));
}
