/* The GJK machinery shared by the general convex methods' files: the
 * wide vectors, shapes as polytope cores in a scaled frame, the Minkowski
 * difference and its simplex (body.c, gjk.c; the sweep is
 * queries/general/gjk_sweep.c). Private to the library. */
#ifndef SWEEP_QUERIES_GJK_INTERNAL_H
#define SWEEP_QUERIES_GJK_INTERNAL_H

#include "internal.h"
#include "queries/gjk/gjk.h"

#ifdef SW_GJK_STATS
#define STAT(x) (x)
#else
#define STAT(x) ((void)0)
#endif

#ifdef SWEEP_DOUBLE
/* The double build's tolerance leaves double too little room on thin or
 * tiny-next-to-huge pairs (closest points 1e-9 off at scale 1e3): the
 * 64-bit mantissa of long double where it is wider. */
typedef long double gr;
#define GR_EPS LDBL_EPSILON
#define gr_sqrt sqrtl
#else
typedef double gr;
#define GR_EPS DBL_EPSILON
#define gr_sqrt sqrt
#endif

/* Rounding level of the iteration's sums in the unit frame. */
#define NOISE (8 * GR_EPS)
/* Below this sine of an angle a triangle (or the volume of a tetrahedron,
 * relative to its edges) is treated as degenerate. */
#define DEGENERATE_SIN (GR_EPS * 65536)

/* Cosine of the widest correction the normal polish considers. */
#define POLISH_COS 0.99

#define GJK_MAX_ITERATIONS 128
#define CAST_MAX_ITERATIONS 256
/* EPA's polytope lives on the stack (about 25 KB): the tests' deepest
 * 100-vertex hull pairs needed at most 67 expansions. */
#define EPA_MAX_VERTICES 128
#define EPA_MAX_FACES 256
#define EPA_MAX_ITERATIONS 124

/* ---- vectors in gr ------------------------------------------------------- */

typedef struct gv {
    gr x, y, z;
} gv;

static inline gv g3(gr x, gr y, gr z)
{
    gv v = {x, y, z};
    return v;
}
static inline gv gadd(gv a, gv b) { return g3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline gv gsub(gv a, gv b) { return g3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline gv gneg(gv a) { return g3(-a.x, -a.y, -a.z); }
static inline gv gscale(gv a, gr s) { return g3(a.x * s, a.y * s, a.z * s); }
static inline gv gmadd(gv a, gr s, gv b) { return g3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline gr gdot(gv a, gv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline gv gcross(gv a, gv b) { return g3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static inline gr gabs(gr a) { return a < 0 ? -a : a; }
static inline gr gmax(gr a, gr b) { return a > b ? a : b; }
static inline gr gmaxabs(gv a) { return gmax(gabs(a.x), gmax(gabs(a.y), gabs(a.z))); }
static inline gr glen(gv a) { return gr_sqrt(gdot(a, a)); }
static inline bool gzero(gv a) { return a.x == 0 && a.y == 0 && a.z == 0; }
static inline gv gof(sw_vec3 v) { return g3(v.x, v.y, v.z); }
static inline sw_vec3 gto(gv v) { return sw_v3((sw_real)v.x, (sw_real)v.y, (sw_real)v.z); }

/* Normalises *v (scaled by its largest component first) and returns its
 * former length; a zero vector is left alone and 0 returned. */
static inline gr gnormalize(gv* v)
{
    const gr m = gmaxabs(*v);
    if (!(m > 0)) {
        return 0;
    }
    const gv u = g3(v->x / m, v->y / m, v->z / m);
    const gr len = glen(u);
    *v = gscale(u, 1 / len);
    return len * m;
}

typedef struct gq {
    gr x, y, z, w;
} gq;

static inline gq gq_of(sw_quat q)
{
    gq r = {q.x, q.y, q.z, q.w};
    const gr m = gmax(gmax(gabs(r.x), gabs(r.y)), gmax(gabs(r.z), gabs(r.w)));
    r.x /= m, r.y /= m, r.z /= m, r.w /= m;
    const gr len = gr_sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    r.x /= len, r.y /= len, r.z /= len, r.w /= len;
    return r;
}

static inline gv gq_rotate(gq q, gv v)
{
    const gv u = g3(q.x, q.y, q.z);
    const gv t = gscale(gcross(u, v), 2);
    return gadd(gmadd(v, q.w, t), gcross(u, t));
}

static inline gv gq_inv_rotate(gq q, gv v)
{
    const gq c = {-q.x, -q.y, -q.z, q.w};
    return gq_rotate(c, v);
}

/* ---- shapes as cores ---------------------------------------------------------- */

typedef enum body_kind { BODY_POINTS, BODY_BOX, BODY_HULL } body_kind;

typedef struct body {
    body_kind kind;
    int count; /* vertices: points 1..64, box 8, hull vertex_count */
    gr radius;
    bool flat;  /* a triangle or polygon with a normal */
    gv normal;  /* its unit front normal (Newell's, following the vertex order) */
    gv center;  /* box centre, hull position (frame) */
    gv axis[3]; /* box axes (unit) */
    gr half[3]; /* box half extents (frame) */
    gq q;       /* hull rotation */
    gr k;       /* hull: the frame's scale */
    const sw_hull* hull;
    gv v[SW_MAX_POLYGON_VERTICES];
} body;

/* Support point of the core along dir and its vertex index. A tie keeps
 * the lowest index (the box: the -h side), so an index always names one
 * point computed one way. */
static inline gv body_support(const body* s, gv dir, int* index)
{
    switch (s->kind) {
    case BODY_POINTS: {
        int best = 0;
        gr best_dot = gdot(s->v[0], dir);
        for (int i = 1; i < s->count; ++i) {
            const gr dd = gdot(s->v[i], dir);
            if (dd > best_dot) {
                best = i;
                best_dot = dd;
            }
        }
        *index = best;
        return s->v[best];
    }
    case BODY_BOX: {
        gv p = s->center;
        int bits = 0;
        for (int k = 0; k < 3; ++k) {
            const bool up = gdot(s->axis[k], dir) > 0;
            p = gmadd(p, up ? s->half[k] : -s->half[k], s->axis[k]);
            bits |= up << k;
        }
        *index = bits;
        return p;
    }
    case BODY_HULL: {
        const gv dl = gq_inv_rotate(s->q, dir);
        const sw_vec3* v = s->hull->vertices;
        int best = 0;
        gr best_dot = dl.x * v[0].x + dl.y * v[0].y + dl.z * v[0].z;
        for (int i = 1; i < s->count; ++i) {
            const gr dd = dl.x * v[i].x + dl.y * v[i].y + dl.z * v[i].z;
            if (dd > best_dot) {
                best = i;
                best_dot = dd;
            }
        }
        *index = best;
        return gmadd(s->center, s->k, gq_rotate(s->q, gof(v[best])));
    }
    }
    *index = 0;
    return g3(0, 0, 0);
}

/* A point of the core. */
static inline gv body_ref(const body* s)
{
    int i;
    return body_support(s, g3(0, 0, 0), &i);
}

/* The frame: x_frame = (x_world - o) * k, k a power of two. */
typedef struct frame {
    gv o;
    gr k;
} frame;

static inline gv to_frame(const frame* f, sw_vec3 p) { return gscale(gsub(gof(p), f->o), f->k); }
static inline sw_vec3 to_world(const frame* f, gv p) { return gto(gadd(gscale(p, 1 / f->k), f->o)); }

/* The pair in its frame: M = A - B is what the iterations see. */
typedef struct gjk_pair {
    body a, b;
    frame f;
    gv d;          /* displacement (frame) */
    gr skin;       /* (frame) */
    gr world_size; /* the query's size in world units, for naming features */
} gjk_pair;

/* ---- Minkowski difference and the simplex ----------------------------------- */

/* A point of M = A - B with its witnesses and their vertex indices. */
typedef struct svert {
    gv p, a, b;
    int ia, ib;
} svert;

static inline svert support_m(const gjk_pair* P, gv dir)
{
    svert w;
    w.a = body_support(&P->a, dir, &w.ia);
    w.b = body_support(&P->b, gneg(dir), &w.ib);
    w.p = gsub(w.a, w.b);
    return w;
}

/* The gap between A(t) and B along the unit u (x = -t d): min over A(t) of
 * u.a minus max over B of u.b; a lower bound on their core distance, and
 * minus the push that separates them along u when negative. */
static inline gr separation(const gjk_pair* P, gv u, gv x)
{
    int i;
    const gv a = body_support(&P->a, gneg(u), &i);
    const gv b = body_support(&P->b, u, &i);
    return gdot(u, gsub(gsub(a, b), x));
}

typedef struct simplex {
    svert v[4];
    gr lam[4];
    int n;
} simplex;

/* ---- overlap at the start ------------------------------------------------------ */

typedef struct start_contact {
    gr depth;      /* frame */
    gv n;          /* unit, B toward A */
    gv point;      /* a point of A and B (frame) */
    gv pb;         /* B's core point, for naming the feature */
    bool crossing; /* the cores overlap, and GJK's witnesses do not agree */
} start_contact;

static inline bool bounded(const sw_shape* s) { return s->type != SW_SHAPE_PLANE; }
static inline bool has_vertices(const sw_shape* s) { return s->type != SW_SHAPE_HULL || s->hull.hull->vertex_count > 0; }
/* A mesh is not convex: the general convex methods refuse it. */
static inline bool any_mesh(const sw_shape* a, const sw_shape* b)
{
    return (a && a->type == SW_SHAPE_MESH) || b->type == SW_SHAPE_MESH;
}

static inline bool is_polytope(const sw_shape* s)
{
    return s->type == SW_SHAPE_BOX || s->type == SW_SHAPE_HULL || s->type == SW_SHAPE_TRIANGLE ||
           s->type == SW_SHAPE_POLYGON;
}

static inline bool is_one_sided(const sw_shape* s)
{
    return (s->type == SW_SHAPE_TRIANGLE && s->triangle.one_sided) ||
           (s->type == SW_SHAPE_POLYGON && s->polygon.one_sided);
}

/* ---- across the files ---------------------------------------------------- */

typedef struct pick {
    gv n;
    gr sep;
} pick;

/* body.c: the pair A, B in the frame at B's reference point, scaled so
 * that the query's extent is about 1. */
void sw_gjk_pair_make(gjk_pair* p, const sw_shape* a, const sw_shape* b, sw_vec3 d, sw_real skin);

/* gjk.c: GJK's distance iteration, its simplex and its answers. */
bool sw_gjk_iterate(const gjk_pair* P, gv x, simplex* s, gv* v);
gr sw_gjk_simplex_solve(simplex* s, gv x, gv* v);
bool sw_gjk_simplex_has(const simplex* s, const svert* w);
void sw_gjk_simplex_to_boundary(simplex* s, gv x, gv* v);
gv sw_gjk_simplex_a(const simplex* s);
gv sw_gjk_simplex_b(const simplex* s);
pick sw_gjk_polish(const gjk_pair* P, gv x, gv raw, const svert* pts, int n);
start_contact sw_gjk_overlap_answer(const gjk_pair* P, const simplex* s, bool inside, gr R, gv hint);

#endif
