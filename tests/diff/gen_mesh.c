/* Mesh cases for the differential engine: a mesh of one of the families
 * of mesh.c (floor, terrain, stairs, icosphere, closed box, soup,
 * degenerate triangles, tiny beside huge), placed at the origin, nearby or
 * 1e3-1e4 sizes away, rotated or not, one-sided or not; then the query
 * aims at it: at a random point of a triangle, of an edge or a vertex
 * (shared ones included), drops onto such a point along the triangle's
 * normal, slides along a triangle from a touching start (often with
 * ignore_separating), starts inside, or goes anywhere. Overlap and
 * distance place A at a target distance from such a point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

typedef struct mgen {
    swt_rng* r;
    diff_case* c;
    double size;  /* the mesh's */
    double asize; /* A's */
    int nt;
} mgen;

static sw_quat random_rotation(swt_rng* r)
{
    double q[4], n;
    do {
        n = 0;
        for (int k = 0; k < 4; ++k) {
            q[k] = swt_rng_range(r, -1, 1);
            n += q[k] * q[k];
        }
    } while (n < 1e-2);
    const double len = sqrt(n) / swt_rng_range(r, 0.5, 2); /* not unit on purpose */
    const sw_quat out = {(sw_real)(q[0] / len), (sw_real)(q[1] / len), (sw_real)(q[2] / len), (sw_real)(q[3] / len)};
    return out;
}

/* A point of a random triangle: inside, on an edge (often its midpoint)
 * or a vertex; the triangle's unit front normal in *n (a random unit
 * vector for a triangle without area). */
static ref_vec target(mgen* g, ref_vec* n, const char** kind)
{
    sw_vec3 w[3];
    const int t = swt_rng_int(g->r, g->nt);
    sw_mesh_world_triangle(&g->c->b.mesh, t, w);
    const ref_vec v0 = rv_of(w[0]), v1 = rv_of(w[1]), v2 = rv_of(w[2]);
    *n = rv_cross(rv_sub(v1, v0), rv_sub(v2, v0));
    if (!(rv_normalize(n) > 0)) {
        double u[3];
        swt_rng_dir(g->r, u);
        *n = rv(u[0], u[1], u[2]);
    }
    const double u = swt_rng_unit(g->r);
    if (u < 0.3) {
        *kind = "vertex";
        return rv_of(w[swt_rng_int(g->r, 3)]);
    }
    if (u < 0.6) {
        *kind = "edge";
        const int e = swt_rng_int(g->r, 3);
        const ref_real s = swt_rng_chance(g->r, 0.5) ? 0.5L : (ref_real)swt_rng_unit(g->r);
        return rv_madd(rv_of(w[e]), s, rv_sub(rv_of(w[(e + 1) % 3]), rv_of(w[e])));
    }
    *kind = "face";
    ref_real a = (ref_real)swt_rng_unit(g->r), b = (ref_real)swt_rng_unit(g->r);
    if (a + b > 1) {
        a = 1 - a;
        b = 1 - b;
    }
    return rv_madd(rv_madd(v0, a, rv_sub(v1, v0)), b, rv_sub(v2, v0));
}

/* A unit vector across n. */
static ref_vec across(mgen* g, ref_vec n)
{
    for (;;) {
        double u[3];
        swt_rng_dir(g->r, u);
        ref_vec t = rv(u[0], u[1], u[2]);
        t = rv_madd(t, -rv_dot(t, n), n);
        if (rv_normalize(&t) > 1e-3L) {
            return t;
        }
    }
}

/* A's centre (the centre of its bounds). */
static ref_vec a_center(const sw_shape* a)
{
    const sw_aabb b = sw_shape_bounds(a);
    return rv_scale(rv_add(rv_of(b.min), rv_of(b.max)), 0.5L);
}

/* Moves A so that its support along -n lies on the plane through q
 * (normal n) plus gap along n. */
static void place_on(sw_shape* a, ref_vec q, ref_vec n, ref_real gap)
{
    ref_shape ra;
    if (!ref_from_shape(a, &ra)) {
        return;
    }
    const ref_real low = -ref_support(&ra, rv_scale(n, -1)); /* min over A of n . x */
    const ref_vec c = a_center(a);
    /* Also centre A over q across n. */
    const ref_vec off = rv_add(rv_sub(q, c), rv_scale(n, rv_dot(n, c) - low + gap));
    diff_translate_shape(a, off);
}

static void set_d(diff_case* c, ref_vec d) { c->d = sw_v3((sw_real)d.x, (sw_real)d.y, (sw_real)d.z); }

static void sweep_query(mgen* g, sw_shape_type mover)
{
    diff_case* c = g->c;
    swt_rng* r = g->r;
    const double zero[3] = {0, 0, 0};
    c->a = diff_random_shape(r, mover, zero, g->asize, c, 0);
    c->opt = (sw_sweep_options){0};
    const double u = swt_rng_unit(r);
    if (u < 0.6) {
        c->opt.skin = 0;
    } else if (u < 0.85) {
        c->opt.skin = (sw_real)(g->asize * 0.1 * swt_rng_unit(r));
    } else if (u < 0.95) {
        c->opt.skin = (sw_real)(g->asize * 1e-5 * swt_rng_unit(r));
    } else {
        c->opt.skin = (sw_real)(g->asize * swt_rng_range(r, 0.3, 1));
    }
    ref_vec n;
    const char* kind;
    const ref_vec q = target(g, &n, &kind);
    const bool one_sided = c->b.mesh.one_sided;
    const ref_real side = one_sided && swt_rng_chance(r, 0.7) ? 1 : (ref_real)swt_rng_sign(r);
    const ref_vec up = rv_scale(n, side);
    const ref_real skin = c->opt.skin;
    const int pick = swt_rng_int(r, 100);
    bool ignore = swt_rng_chance(r, 0.25);
    if (pick < 25) {
        c->recipe = "mesh-aim";
        const ref_real dist = (ref_real)(g->size * swt_rng_log_range(r, 0.05, 2));
        place_on(&c->a, q, up, dist);
        diff_translate_shape(&c->a, rv_scale(across(g, up), (ref_real)(g->size * swt_rng_range(r, 0, 0.5))));
        const ref_vec from = a_center(&c->a);
        const ref_vec to = rv_madd(q, dist * 0.2L, up);
        set_d(c, rv_scale(rv_sub(to, from), (ref_real)swt_rng_range(r, 0.6, 2.5)));
    } else if (pick < 45) {
        c->recipe = "mesh-drop";
        const ref_real gap = (ref_real)(g->size * swt_rng_log_range(r, 1e-3, 1));
        place_on(&c->a, q, up, gap + skin);
        const double k = swt_rng_chance(r, 0.3) ? 1 : swt_rng_range(r, 1, 3);
        set_d(c, rv_scale(up, -gap * (ref_real)k));
    } else if (pick < 65) {
        c->recipe = "mesh-slide";
        place_on(&c->a, q, up, skin);
        const ref_real len = (ref_real)(g->size * swt_rng_log_range(r, 0.05, 3));
        static const double tilt[] = {0, 0, 0, 1e-7, -1e-7, 1e-5, -1e-5, 1e-3, -1e-3, 0.05, -0.05};
        const double tl = tilt[swt_rng_int(r, (int)(sizeof tilt / sizeof tilt[0]))];
        set_d(c, rv_scale(rv_madd(across(g, up), (ref_real)tl, up), len));
        ignore = swt_rng_chance(r, 0.6);
    } else if (pick < 78) {
        c->recipe = "mesh-inside";
        ref_shape ra;
        ref_from_shape(&c->a, &ra);
        const ref_real h = ref_support(&ra, up) + ref_support(&ra, rv_scale(up, -1));
        place_on(&c->a, q, up, -h * (ref_real)swt_rng_range(r, 0, 0.7));
        double dd[3];
        swt_rng_dir(r, dd);
        set_d(c, rv_scale(rv(dd[0], dd[1], dd[2]), (ref_real)(g->size * swt_rng_log_range(r, 0.01, 2))));
        ignore = swt_rng_chance(r, 0.5);
    } else {
        c->recipe = "mesh-random";
        double p[3], dd[3];
        for (int k = 0; k < 3; ++k) {
            p[k] = g->size * swt_rng_range(r, -1.5, 1.5);
        }
        const ref_vec pos = rv_of(c->b.mesh.position);
        diff_translate_shape(&c->a, rv_add(pos, rv(p[0], p[1], p[2])));
        swt_rng_dir(r, dd);
        set_d(c, rv_scale(rv(dd[0], dd[1], dd[2]), (ref_real)(g->size * swt_rng_log_range(r, 0.1, 4))));
    }
    c->opt.ignore_separating = ignore;
    c->opt_null = c->opt.skin == 0 && !ignore && swt_rng_chance(r, 0.5);
    if (c->opt_null) {
        c->opt = (sw_sweep_options){0};
    }
}

static void static_query(mgen* g, sw_shape_type other)
{
    diff_case* c = g->c;
    swt_rng* r = g->r;
    const double zero[3] = {0, 0, 0};
    ref_vec n;
    const char* kind;
    const ref_vec q = target(g, &n, &kind);
    if (other == SW_SHAPE_PLANE) {
        /* A half-space whose boundary passes near q. */
        double u[3];
        swt_rng_dir(r, u);
        const ref_vec pn = swt_rng_chance(r, 0.5) ? n : rv(u[0], u[1], u[2]);
        const ref_real off = rv_dot(pn, q) + (ref_real)(g->size * swt_rng_range(r, -0.3, 0.3));
        c->a = sw_make_plane(sw_v3((sw_real)pn.x, (sw_real)pn.y, (sw_real)pn.z), (sw_real)off);
        c->recipe = "mesh-plane";
        return;
    }
    c->a = diff_random_shape(r, other, zero, g->asize, c, 0);
    const ref_vec up = rv_scale(n, (ref_real)swt_rng_sign(r));
    const double band = (double)SW_TOLERANCE * (g->size * 2 + rv_max_abs(rv_of(c->b.mesh.position)));
    static const double k[] = {0, 0, 0.5, -0.5, 2, -2, 10, -10};
    const int pick = swt_rng_int(r, 100);
    if (pick < 40) {
        c->recipe = "mesh-touch";
        place_on(&c->a, q, up, (ref_real)(band * k[swt_rng_int(r, (int)(sizeof k / sizeof k[0]))]));
    } else if (pick < 70) {
        c->recipe = "mesh-near";
        place_on(&c->a, q, up, (ref_real)(g->size * swt_rng_range(r, -0.3, 0.6)));
    } else {
        c->recipe = "mesh-random";
        double p[3];
        for (int j = 0; j < 3; ++j) {
            p[j] = g->size * swt_rng_range(r, -1.5, 1.5);
        }
        diff_translate_shape(&c->a, rv_add(rv_of(c->b.mesh.position), rv(p[0], p[1], p[2])));
    }
}

void diff_generate_mesh(const diff_pair* p, uint64_t seed, diff_case* c)
{
    swt_rng r;
    swt_rng_seed(&r, seed);
    memset(c, 0, sizeof *c);
    c->op = p->op;
    mgen g = {&r, c, 1, 1, 0};
    const double u = swt_rng_unit(&r);
    c->scale_tag = "unit";
    if (u < 0.05) {
        g.size = swt_rng_log_range(&r, 1e3, 1e6);
        c->scale_tag = "huge";
    } else if (u < 0.1) {
        g.size = swt_rng_log_range(&r, 1e-4, 1e-2);
        c->scale_tag = "minute";
    } else {
        g.size = swt_rng_log_range(&r, 0.1, 100);
    }
    g.asize = g.size * swt_rng_log_range(&r, 0.03, 0.6);
    const diff_mesh_family family = (diff_mesh_family)swt_rng_int(&r, DIFF_MESH_FAMILY_COUNT);
    c->mesh_family = diff_mesh_family_name(family);
    c->mesh_nt = diff_mesh_build(family, &r, g.size, &c->mesh_v, &c->mesh_nv, &c->mesh_tri);
    sw_mesh_error err = SW_MESH_OK;
    c->mesh = c->mesh_nt > 0 ? sw_mesh_create(c->mesh_v, c->mesh_nv, c->mesh_tri, c->mesh_nt, &err) : NULL;
    if (!c->mesh) {
        /* Not expected: a point query of nothing (reported by the judge). */
        c->recipe = "mesh-unbuilt";
        c->a = sw_make_point(sw_v3(0, 0, 0));
        c->b = sw_make_point(sw_v3(0, 0, 0));
        return;
    }
    g.nt = c->mesh_nt;
    double pos[3] = {0, 0, 0};
    const double v = swt_rng_unit(&r);
    if (v < 0.25) {
        double dir[3];
        swt_rng_dir(&r, dir);
        const double far = fmin(swt_rng_log_range(&r, 1e3, 1e4) * g.size, (double)SW_MAX_COORD / 100);
        for (int k = 0; k < 3; ++k) {
            pos[k] = dir[k] * far;
        }
        c->offset = true;
    } else if (v < 0.6) {
        for (int k = 0; k < 3; ++k) {
            pos[k] = g.size * swt_rng_range(&r, -2, 2);
        }
    }
    const sw_quat rot = swt_rng_chance(&r, 0.5) ? sw_quat_identity() : random_rotation(&r);
    c->b =
        sw_make_mesh(c->mesh, sw_v3((sw_real)pos[0], (sw_real)pos[1], (sw_real)pos[2]), rot, swt_rng_chance(&r, 0.25));
    const bool mirrored = p->a == SW_SHAPE_MESH;
    switch (p->op) {
    case OP_SWEEP:
        sweep_query(&g, p->a);
        break;
    case OP_RAYCAST: {
        sweep_query(&g, SW_SHAPE_POINT);
        c->ray.origin = c->a.point;
        const double w = swt_rng_unit(&r);
        const double max = w < 0.05 ? 0 : (w < 0.5 ? swt_rng_log_range(&r, 0.1, 10) : 1);
        c->ray.max = (sw_real)max;
        c->ray.dir = max > 0 ? sw_v3((sw_real)(c->d.x / max), (sw_real)(c->d.y / max), (sw_real)(c->d.z / max)) : c->d;
        c->opt = (sw_sweep_options){0};
        c->opt_null = false;
        break;
    }
    case OP_OVERLAP:
    case OP_DISTANCE:
        static_query(&g, mirrored ? p->b : p->a);
        break;
    case OP_SWEEP_INSIDE:
    case OP_COUNT:
        break;
    }
    if (mirrored) {
        const sw_shape a = c->a;
        c->a = c->b;
        c->b = a;
    }
}
