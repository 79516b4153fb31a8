/* The general convex methods (include/sweep/convex.h): GJK distance, the
 * GJK ray cast / conservative-advancement shape cast and EPA, for any pair
 * of bounded shapes.
 *
 * How it works
 * - Every shape is a polytope core (a point set, a box or a hull) plus a
 *   radius; the iterations see only the cores, so they end on an exact
 *   feature pair (a finite set of vertices), and the radii are added at
 *   the end, which is what makes spheres and capsules exact.
 * - Everything runs in a frame at B's reference point, scaled by a power
 *   of two so that the query's extent is about 1 (exact, and no product
 *   the iteration forms can overflow), in `gr` = double in both
 *   builds (a float build's inputs are then exact and its arithmetic 2^29
 *   times finer than its tolerance; the double build has 4500 ulps of
 *   room, see docs/engineering-notes.md).
 * - The simplex sub-algorithm is the signed-volumes method of Montanari,
 *   Petrinic and Barbieri (2017) in a 3-D form: the origin's side of each
 *   face and edge is decided from volumes and areas of the simplex itself,
 *   never from Johnson's recursive determinant table, whose cancellation
 *   makes it pick no valid subset (or a wrong one) on the nearly
 *   degenerate simplices that face-on-face contacts produce. Edges of the
 *   simplex are taken from its witness points (a_j - a_i) - (b_j - b_i),
 *   which keeps them exact however far M lies from the origin.
 * - Termination is principled: stop when the duality gap (upper bound
 *   |v| minus the support plane's lower bound) is at the rounding level,
 *   when the support point is already in the simplex (vertices are known
 *   by index), or when |v| stops decreasing (cycling); iteration counts
 *   are bounded in any case.
 * - The final normal is "polished": among the raw normal and the normals
 *   the final feature pair suggests (box axes, a polygon's normal, the
 *   plane of three vertices of one shape, the cross product of an edge of
 *   each, the raw normal made perpendicular to an edge), the one that
 *   separates best wins. Each candidate is scored by a support query, so
 *   the choice is a certified bound, never a guess. */
#include "queries/core.h"
#include "queries/gjk.h"
#include "queries/polytope_sweep.h"

#ifdef SW_GJK_STATS
sw_gjk_stats sw_gjk_stats_counters;
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
static gr gnormalize(gv* v)
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

static gq gq_of(sw_quat q)
{
    gq r = {q.x, q.y, q.z, q.w};
    const gr m = gmax(gmax(gabs(r.x), gabs(r.y)), gmax(gabs(r.z), gabs(r.w)));
    r.x /= m, r.y /= m, r.z /= m, r.w /= m;
    const gr len = gr_sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    r.x /= len, r.y /= len, r.z /= len, r.w /= len;
    return r;
}

static gv gq_rotate(gq q, gv v)
{
    const gv u = g3(q.x, q.y, q.z);
    const gv t = gscale(gcross(u, v), 2);
    return gadd(gmadd(v, q.w, t), gcross(u, t));
}

static gv gq_inv_rotate(gq q, gv v)
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
static gv body_support(const body* s, gv dir, int* index)
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
static gv body_ref(const body* s)
{
    int i;
    return body_support(s, g3(0, 0, 0), &i);
}

/* The frame: x_frame = (x_world - o) * k, k a power of two. */
typedef struct frame {
    gv o;
    gr k;
} frame;

static gv to_frame(const frame* f, sw_vec3 p) { return gscale(gsub(gof(p), f->o), f->k); }
static sw_vec3 to_world(const frame* f, gv p) { return gto(gadd(gscale(p, 1 / f->k), f->o)); }

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

/* The pair in its frame: M = A - B is what the iterations see. */
typedef struct gjk_pair {
    body a, b;
    frame f;
    gv d;          /* displacement (frame) */
    gr skin;       /* (frame) */
    gr world_size; /* the query's size in world units, for naming features */
} gjk_pair;

static void pair_make(gjk_pair* p, const sw_shape* a, const sw_shape* b, sw_vec3 d, sw_real skin)
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

/* ---- Minkowski difference and the simplex ----------------------------------- */

/* A point of M = A - B with its witnesses and their vertex indices. */
typedef struct svert {
    gv p, a, b;
    int ia, ib;
} svert;

static svert support_m(const gjk_pair* P, gv dir)
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
static gr separation(const gjk_pair* P, gv u, gv x)
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

static bool simplex_has(const simplex* s, const svert* w)
{
    for (int i = 0; i < s->n; ++i) {
        if (s->v[i].ia == w->ia && s->v[i].ib == w->ib) {
            return true;
        }
    }
    return false;
}

/* Edge j - i of M from the witnesses: exact differences of nearby points. */
static gv edge_of(const svert* s, int i, int j) { return gsub(gsub(s[j].a, s[i].a), gsub(s[j].b, s[i].b)); }

/* A sub-simplex and the closest point of its hull to the origin. */
typedef struct sub {
    int n;
    int idx[4];
    gr lam[4];
    gv v;
    gr vv;
} sub;

static void keep_sub(sub* best, const sub* r)
{
    if (best->n == 0 || r->vv < best->vv) {
        *best = *r;
    }
}

static void sub_point(sub* r, const gv* y, int i)
{
    r->n = 1;
    r->idx[0] = i;
    r->lam[0] = 1;
    r->v = y[i];
    r->vv = gdot(y[i], y[i]);
}

static void sub_segment(sub* r, const svert* s, const gv* y, int i, int j)
{
    const gv e = edge_of(s, i, j);
    const gr ee = gdot(e, e);
    const gr t = -gdot(y[i], e);
    if (!(ee > 0) || t <= 0) {
        sub_point(r, y, i);
        return;
    }
    if (t >= ee) {
        sub_point(r, y, j);
        return;
    }
    const gr u = t / ee;
    r->n = 2;
    r->idx[0] = i;
    r->idx[1] = j;
    r->lam[0] = 1 - u;
    r->lam[1] = u;
    r->v = gmadd(y[i], u, e);
    r->vv = gdot(r->v, r->v);
}

static void sub_triangle(sub* r, const svert* s, const gv* y, int i, int j, int k)
{
    const gv e1 = edge_of(s, i, j), e2 = edge_of(s, i, k);
    const gv n = gcross(e1, e2);
    const gr nn = gdot(n, n);
    const int ids[3] = {i, j, k};
    sub best = {0};
    if (nn > DEGENERATE_SIN * DEGENERATE_SIN * gdot(e1, e1) * gdot(e2, e2)) {
        /* The origin's projection p0 on the plane, and its barycentric
         * coordinates from the areas it spans with each edge (signed along
         * n), measured from p0 so that they stay accurate however far the
         * plane is from the origin. */
        const gr h = gdot(n, y[i]);
        const gv p0 = gscale(n, h / nn);
        const gv q[3] = {gsub(y[i], p0), gsub(y[j], p0), gsub(y[k], p0)};
        gr b[3];
        for (int m = 0; m < 3; ++m) {
            b[m] = gdot(n, gcross(q[(m + 1) % 3], q[(m + 2) % 3]));
        }
        if (b[0] > 0 && b[1] > 0 && b[2] > 0) {
            const gr sum = b[0] + b[1] + b[2];
            r->n = 3;
            for (int m = 0; m < 3; ++m) {
                r->idx[m] = ids[m];
                r->lam[m] = b[m] / sum;
            }
            r->v = p0;
            r->vv = h * h / nn;
            return;
        }
        /* Outside: the closest point is on an edge the origin is beyond. */
        for (int m = 0; m < 3; ++m) {
            if (b[m] <= 0) {
                sub t = {0};
                sub_segment(&t, s, y, ids[(m + 1) % 3], ids[(m + 2) % 3]);
                keep_sub(&best, &t);
            }
        }
        *r = best;
        return;
    }
    /* Degenerate: the best of its edges. */
    for (int m = 0; m < 3; ++m) {
        sub t = {0};
        sub_segment(&t, s, y, ids[m], ids[(m + 1) % 3]);
        keep_sub(&best, &t);
    }
    *r = best;
}

static void sub_tetrahedron(sub* r, const svert* s, const gv* y)
{
    static const int face[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    sub best = {0};
    gr bary[4];
    bool outside[4];
    bool any = false, degenerate = false;
    for (int f = 0; f < 4; ++f) {
        const int i = face[f][0], j = face[f][1], k = face[f][2];
        const gv e1 = edge_of(s, i, j), e2 = edge_of(s, i, k), e3 = edge_of(s, i, f);
        const gv n = gcross(e1, e2);
        /* Vertex f's side of face f and the origin's side. */
        const gr side = gdot(n, e3);
        const gr origin = -gdot(n, y[i]);
        if (!(gabs(side) > DEGENERATE_SIN * glen(e1) * glen(e2) * glen(e3))) {
            degenerate = true;
            break;
        }
        outside[f] = !(origin * side > 0);
        any = any || outside[f];
        bary[f] = origin / side;
    }
    if (!degenerate && !any) {
        const gr sum = bary[0] + bary[1] + bary[2] + bary[3];
        r->n = 4;
        for (int m = 0; m < 4; ++m) {
            r->idx[m] = m;
            r->lam[m] = bary[m] / sum;
        }
        r->v = g3(0, 0, 0);
        r->vv = 0;
        return;
    }
    for (int f = 0; f < 4; ++f) {
        if (degenerate || outside[f]) {
            sub t = {0};
            sub_triangle(&t, s, y, face[f][0], face[f][1], face[f][2]);
            keep_sub(&best, &t);
        }
    }
    *r = best;
}

/* Closest point of the simplex's hull to x: reduces the simplex to the
 * smallest subset holding it, sets the weights, and returns |v|^2 with v =
 * that point - x. */
static gr simplex_solve(simplex* s, gv x, gv* v)
{
    gv y[4];
    for (int i = 0; i < s->n; ++i) {
        y[i] = gsub(s->v[i].p, x);
    }
    sub r = {0};
    switch (s->n) {
    case 1:
        sub_point(&r, y, 0);
        break;
    case 2:
        sub_segment(&r, s->v, y, 0, 1);
        break;
    case 3:
        sub_triangle(&r, s->v, y, 0, 1, 2);
        break;
    default:
        sub_tetrahedron(&r, s->v, y);
        break;
    }
    simplex t;
    t.n = r.n;
    for (int i = 0; i < r.n; ++i) {
        t.v[i] = s->v[r.idx[i]];
        t.lam[i] = r.lam[i];
    }
    *s = t;
    *v = r.v;
    return r.vv;
}

/* The witnesses' weighted points. */
static gv simplex_a(const simplex* s)
{
    gv p = g3(0, 0, 0);
    for (int i = 0; i < s->n; ++i) {
        p = gmadd(p, s->lam[i], s->v[i].a);
    }
    return p;
}
static gv simplex_b(const simplex* s)
{
    gv p = g3(0, 0, 0);
    for (int i = 0; i < s->n; ++i) {
        p = gmadd(p, s->lam[i], s->v[i].b);
    }
    return p;
}
static gv simplex_p(const simplex* s)
{
    gv p = g3(0, 0, 0);
    for (int i = 0; i < s->n; ++i) {
        p = gmadd(p, s->lam[i], s->v[i].p);
    }
    return p;
}

/* ---- GJK distance -------------------------------------------------------------- */

/* Closest point of M to x, from the simplex s (empty or warm). Returns true
 * when x is in M (to within the rounding); *v = closest point - x. */
static bool gjk(const gjk_pair* P, gv x, simplex* s, gv* v)
{
    if (s->n == 0) {
        gv dir = gsub(gsub(body_ref(&P->a), body_ref(&P->b)), x);
        if (gzero(dir)) {
            dir = g3(1, 0, 0);
        }
        s->v[0] = support_m(P, gneg(dir));
        s->lam[0] = 1;
        s->n = 1;
        STAT(++sw_gjk_stats_counters.gjk_iterations);
    }
    gr vv = simplex_solve(s, x, v);
    for (int it = 0; it < GJK_MAX_ITERATIONS; ++it) {
#ifdef SW_GJK_STATS
        if (it > sw_gjk_stats_counters.max_gjk_iterations) {
            sw_gjk_stats_counters.max_gjk_iterations = it;
        }
#endif
        if (s->n == 4 || vv <= NOISE * NOISE) {
            return true;
        }
        const gr len = gr_sqrt(vv);
        const svert w = support_m(P, gneg(*v));
        STAT(++sw_gjk_stats_counters.gjk_iterations);
        /* Duality gap: |v| is an upper bound on the distance, the support
         * plane through w a lower one. */
        const gr lower = gdot(*v, gsub(w.p, x)) / len;
        if (len - lower <= NOISE || simplex_has(s, &w)) {
            return false;
        }
        const simplex keep = *s;
        const gv vkeep = *v;
        s->v[s->n++] = w;
        const gr next = simplex_solve(s, x, v);
        if (!(next < vv)) {
            /* No progress: rounding has the last word (cycling). */
            *s = keep;
            *v = vkeep;
            return false;
        }
        vv = next;
    }
    return false;
}

/* A contact point on M's boundary that GJK found inside a tetrahedron (by a
 * rounding-sized margin) gets its weights from the tetrahedron's face
 * nearest to it instead: the tetrahedron's weights divide by its height,
 * which for a thin one turns the margin into thousands of ulps between the
 * two witness points. */
static void simplex_to_boundary(simplex* s, gv x, gv* v)
{
    if (s->n != 4) {
        return;
    }
    static const int face[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    int best = 0;
    gr best_d = 0;
    for (int f = 0; f < 4; ++f) {
        gv n = gcross(edge_of(s->v, face[f][0], face[f][1]), edge_of(s->v, face[f][0], face[f][2]));
        if (gnormalize(&n) == 0) {
            continue;
        }
        const gr dist = gabs(gdot(n, gsub(s->v[face[f][0]].p, x)));
        if (f == 0 || dist < best_d) {
            best = f;
            best_d = dist;
        }
    }
    simplex t;
    t.n = 3;
    for (int i = 0; i < 3; ++i) {
        t.v[i] = s->v[face[best][i]];
    }
    simplex_solve(&t, x, v);
    *s = t;
}

/* ---- candidate normals ------------------------------------------------------ */

typedef struct pick {
    gv n;
    gr sep;
} pick;

static void offer_axis(pick* pk, const gjk_pair* P, gv x, gv u, gv raw)
{
    if (gnormalize(&u) == 0) {
        return;
    }
    if (gdot(u, raw) < 0) {
        u = gneg(u);
    }
    /* A candidate far from raw is no correction of its rounding (a raw
     * normal is within far less than 8 degrees); skipping it saves two
     * support calls. */
    if (gdot(u, raw) < POLISH_COS) {
        return;
    }
    const gr sep = separation(P, u, x);
    if (sep > pk->sep) {
        pk->sep = sep;
        pk->n = u;
    }
}

static gv without(gv v, gv axis)
{
    if (gnormalize(&axis) == 0) {
        return v;
    }
    return gmadd(v, -gdot(v, axis), axis);
}

static void offer_body(pick* pk, const gjk_pair* P, gv x, const body* b, gv raw)
{
    if (b->kind == BODY_BOX) {
        for (int k = 0; k < 3; ++k) {
            offer_axis(pk, P, x, b->axis[k], raw);
        }
    } else if (b->flat) {
        offer_axis(pk, P, x, b->normal, raw);
    }
}

/* The normal at x (unit, from B toward A) that separates A(t) and B best
 * among raw and the directions the feature pair pts suggests. */
static pick polish(const gjk_pair* P, gv x, gv raw, const svert* pts, int n)
{
    if (gnormalize(&raw) == 0) {
        raw = g3(0, 0, 1); /* never left without a unit normal */
    }
    pick pk = {raw, separation(P, raw, x)};
    offer_body(&pk, P, x, &P->a, raw);
    offer_body(&pk, P, x, &P->b, raw);
    /* The distinct vertices of each shape in the final feature pair. */
    gv a[3], b[3];
    int na = 0, nb = 0;
    for (int i = 0; i < n; ++i) {
        bool seen_a = false, seen_b = false;
        for (int j = 0; j < i; ++j) {
            seen_a = seen_a || pts[j].ia == pts[i].ia;
            seen_b = seen_b || pts[j].ib == pts[i].ib;
        }
        if (!seen_a && na < 3) {
            a[na++] = pts[i].a;
        }
        if (!seen_b && nb < 3) {
            b[nb++] = pts[i].b;
        }
    }
    if (na >= 3) {
        offer_axis(&pk, P, x, gcross(gsub(a[1], a[0]), gsub(a[2], a[0])), raw);
    }
    if (nb >= 3) {
        offer_axis(&pk, P, x, gcross(gsub(b[1], b[0]), gsub(b[2], b[0])), raw);
    }
    if (na >= 2 && nb >= 2) {
        offer_axis(&pk, P, x, gcross(gsub(a[1], a[0]), gsub(b[1], b[0])), raw);
    }
    if (na >= 2) {
        offer_axis(&pk, P, x, without(raw, gsub(a[1], a[0])), raw);
    }
    if (nb >= 2) {
        offer_axis(&pk, P, x, without(raw, gsub(b[1], b[0])), raw);
    }
    return pk;
}

/* ---- EPA --------------------------------------------------------------------- */

typedef struct epa_face {
    gv n;                /* outward unit normal */
    gr dist;             /* n . v[0]: the plane's distance from the origin */
    short v[3];          /* vertices */
    short adj[3];        /* face across edge e (v[e] -> v[e+1]) */
    unsigned char ae[3]; /* that face's edge index */
    bool alive, ok;
} epa_face;

typedef struct epa {
    svert v[EPA_MAX_VERTICES];
    epa_face f[EPA_MAX_FACES];
    int nv, nf;
    short horizon_f[EPA_MAX_FACES];
    unsigned char horizon_e[EPA_MAX_FACES];
    int nh;
    bool overflow;
} epa;

static int epa_face_add(epa* E, int i, int j, int k)
{
    int slot = -1;
    for (int f = 0; f < E->nf && slot < 0; ++f) {
        slot = E->f[f].alive ? -1 : f;
    }
    if (slot < 0) {
        if (E->nf == EPA_MAX_FACES) {
            return -1;
        }
        slot = E->nf++;
    }
    epa_face* F = &E->f[slot];
    F->v[0] = (short)i;
    F->v[1] = (short)j;
    F->v[2] = (short)k;
    F->alive = true;
    /* Unlinked until epa_link: an expansion that fails half-way leaves
     * faces without neighbours, which a later silhouette must not follow
     * (found: an uninitialised index into the face array). */
    F->adj[0] = F->adj[1] = F->adj[2] = -1;
    F->ae[0] = F->ae[1] = F->ae[2] = 0;
    const gv e1 = edge_of(E->v, i, j), e2 = edge_of(E->v, i, k);
    gv n = gcross(e1, e2);
    const gr len = gnormalize(&n);
    F->ok = len > DEGENERATE_SIN * glen(e1) * glen(e2);
    F->n = n;
    F->dist = gdot(n, E->v[i].p);
    return slot;
}

static void epa_link(epa* E, int f, int e, int g, int ge)
{
    E->f[f].adj[e] = (short)g;
    E->f[f].ae[e] = (unsigned char)ge;
    E->f[g].adj[ge] = (short)f;
    E->f[g].ae[ge] = (unsigned char)e;
}

/* Faces visible from w, reached across edge e of face f: removed; the
 * first invisible ones give the horizon, in order around it. */
static void epa_silhouette(epa* E, int f, int e, const svert* w)
{
    if (f < 0 || f >= E->nf) {
        E->overflow = true; /* an unlinked edge: the polytope cannot grow */
        return;
    }
    epa_face* F = &E->f[f];
    if (!F->alive) {
        return;
    }
    if (F->ok && gdot(F->n, gsub(w->p, E->v[F->v[0]].p)) <= NOISE) {
        if (E->nh < EPA_MAX_FACES) {
            E->horizon_f[E->nh] = (short)f;
            E->horizon_e[E->nh++] = (unsigned char)e;
        } else {
            E->overflow = true;
        }
        return;
    }
    F->alive = false;
    epa_silhouette(E, F->adj[(e + 1) % 3], F->ae[(e + 1) % 3], w);
    epa_silhouette(E, F->adj[(e + 2) % 3], F->ae[(e + 2) % 3], w);
}

/* Adds vertex w beyond face f; false when the polytope cannot take it. */
static bool epa_expand(epa* E, int f, const svert* w)
{
    if (E->nv == EPA_MAX_VERTICES) {
        return false;
    }
    const int wi = E->nv;
    E->v[E->nv++] = *w;
    E->nh = 0;
    E->overflow = false;
    E->f[f].alive = false;
    for (int e = 0; e < 3; ++e) {
        epa_silhouette(E, E->f[f].adj[e], E->f[f].ae[e], w);
    }
    if (E->overflow || E->nh < 3) {
        return false;
    }
    int created[EPA_MAX_FACES];
    const int nh = E->nh;
    for (int h = 0; h < nh; ++h) {
        const epa_face* G = &E->f[E->horizon_f[h]];
        const int e = E->horizon_e[h];
        /* Shares the horizon edge, reversed: edge 0 = v[e+1] -> v[e]. */
        created[h] = epa_face_add(E, G->v[(e + 1) % 3], G->v[e], wi);
        if (created[h] < 0) {
            return false;
        }
        epa_link(E, created[h], 0, E->horizon_f[h], e);
    }
    /* Edge 1 (b -> w) of one new face is edge 2 (w -> a) of the next. */
    for (int h = 0; h < nh; ++h) {
        const int fb = E->f[created[h]].v[1];
        int found = -1;
        for (int m = 0; m < nh && found < 0; ++m) {
            found = E->f[created[m]].v[0] == fb ? m : -1;
        }
        if (found < 0) {
            return false;
        }
        epa_link(E, created[h], 1, created[found], 2);
    }
    return true;
}

typedef struct epa_result {
    gv n;    /* push direction of A (B toward A), unit */
    gr push; /* separating push along n (may be slightly negative) */
    svert tri[3];
    int ntri;
} epa_result;

/* Points of M farthest from the line / plane of the first points, along
 * the directions given; true when one leaves it by more than the rounding. */
static bool epa_grow(const gjk_pair* P, svert* pts, int n, const gv* dirs, int ndirs)
{
    gr best = 0;
    svert found = {0};
    for (int i = 0; i < ndirs; ++i) {
        const svert w = support_m(P, dirs[i]);
        gv off = gsub(w.p, pts[0].p);
        if (n == 2) {
            off = without(off, edge_of(pts, 0, 1));
        } else if (n == 3) {
            gv nrm = gcross(edge_of(pts, 0, 1), edge_of(pts, 0, 2));
            gnormalize(&nrm);
            off = gscale(nrm, gdot(off, nrm));
        }
        const gr len = glen(off);
        if (len > best) {
            best = len;
            found = w;
        }
    }
    if (best > 16 * NOISE) {
        pts[n] = found;
        return true;
    }
    return false;
}

/* Penetration of the cores: the shortest push of A that separates them,
 * from GJK's final simplex s (which holds the origin). hint orients the
 * answer when M is flat (no push needed, every normal of its plane works). */
static epa_result epa_run(const gjk_pair* P, const simplex* s, gv hint)
{
    epa_result out;
    svert pts[4];
    int n = s->n;
    for (int i = 0; i < n; ++i) {
        pts[i] = s->v[i];
    }
    out.ntri = n < 3 ? n : 3;
    for (int i = 0; i < out.ntri; ++i) {
        out.tri[i] = pts[i];
    }
    /* Blow the simplex up to a tetrahedron around the origin. */
    if (n == 1) {
        const gv dirs[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        if (epa_grow(P, pts, 1, dirs, 6)) {
            n = 2;
        } else {
            out.n = gzero(hint) ? g3(0, 0, 1) : hint;
            gnormalize(&out.n);
            out.push = 0;
            return out;
        }
    }
    if (n == 2) {
        gv e = edge_of(pts, 0, 1);
        gnormalize(&e);
        const sw_vec3 p1 = sw_any_perpendicular(gto(e));
        const gv u = gof(p1), w = gcross(e, u);
        const gv dirs[4] = {u, gneg(u), w, gneg(w)};
        if (epa_grow(P, pts, 2, dirs, 4)) {
            n = 3;
        } else {
            out.n = without(gzero(hint) ? g3(0, 0, 1) : hint, e);
            if (gnormalize(&out.n) == 0) {
                out.n = u;
            }
            out.push = 0;
            return out;
        }
    }
    if (n == 3) {
        gv nrm = gcross(edge_of(pts, 0, 1), edge_of(pts, 0, 2));
        if (gnormalize(&nrm) == 0) {
            /* Three points in a line (rounding): search off that line. */
            nrm = gof(sw_any_perpendicular(gto(edge_of(pts, 0, 1))));
        }
        const gv dirs[2] = {nrm, gneg(nrm)};
        if (epa_grow(P, pts, 3, dirs, 2)) {
            n = 4;
        } else {
            out.n = gdot(nrm, hint) < 0 ? gneg(nrm) : nrm;
            out.push = 0;
            return out;
        }
    }
    epa E;
    E.nv = 4;
    E.nf = 0;
    for (int i = 0; i < 4; ++i) {
        E.v[i] = pts[i];
    }
    /* Orient: with e01 . (e02 x e03) < 0 the faces below point outward. */
    if (gdot(edge_of(E.v, 0, 1), gcross(edge_of(E.v, 0, 2), edge_of(E.v, 0, 3))) > 0) {
        const svert t = E.v[1];
        E.v[1] = E.v[2];
        E.v[2] = t;
    }
    static const int tf[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (int f = 0; f < 4; ++f) {
        epa_face_add(&E, tf[f][0], tf[f][1], tf[f][2]);
    }
    for (int f = 0; f < 4; ++f) {
        for (int e = 0; e < 3; ++e) {
            const int a = E.f[f].v[e], b = E.f[f].v[(e + 1) % 3];
            for (int g = 0; g < 4; ++g) {
                for (int ge = 0; ge < 3; ++ge) {
                    if (E.f[g].v[ge] == b && E.f[g].v[(ge + 1) % 3] == a) {
                        E.f[f].adj[e] = (short)g;
                        E.f[f].ae[e] = (unsigned char)ge;
                    }
                }
            }
        }
    }
    STAT(++sw_gjk_stats_counters.epa_runs);
    gr best_h = 0;
    bool have = false;
    int it = 0;
    for (; it < EPA_MAX_ITERATIONS; ++it) {
        int f = -1;
        for (int g = 0; g < E.nf; ++g) {
            if (E.f[g].alive && E.f[g].ok && (f < 0 || E.f[g].dist < E.f[f].dist)) {
                f = g;
            }
        }
        if (f < 0) {
            break;
        }
        const epa_face F = E.f[f];
        const svert w = support_m(P, F.n);
        STAT(++sw_gjk_stats_counters.epa_iterations);
        const gr h = gdot(F.n, w.p);
        if (!have || h < best_h) {
            have = true;
            best_h = h;
            out.n = gneg(F.n);
            out.ntri = 3;
            for (int i = 0; i < 3; ++i) {
                out.tri[i] = E.v[F.v[i]];
            }
        }
        bool dup = false;
        for (int i = 0; i < E.nv && !dup; ++i) {
            dup = E.v[i].ia == w.ia && E.v[i].ib == w.ib;
        }
        if (h - F.dist <= NOISE || dup) {
            break;
        }
        if (!epa_expand(&E, f, &w)) {
            STAT(++sw_gjk_stats_counters.epa_gave_up);
            break;
        }
    }
#ifdef SW_GJK_STATS
    if (it > sw_gjk_stats_counters.max_epa_iterations) {
        sw_gjk_stats_counters.max_epa_iterations = it;
    }
#endif
    if (!have) {
        out.n = gzero(hint) ? g3(0, 0, 1) : hint;
        gnormalize(&out.n);
        out.push = -separation(P, out.n, g3(0, 0, 0));
        return out;
    }
    out.push = best_h;
    return out;
}

/* ---- overlap at the start ------------------------------------------------------ */

typedef struct start_contact {
    gr depth;      /* frame */
    gv n;          /* unit, B toward A */
    gv point;      /* a point of A and B (frame) */
    gv pb;         /* B's core point, for naming the feature */
    bool crossing; /* the cores overlap, and GJK's witnesses do not agree */
} start_contact;

/* The overlap answer for cores at GJK's result (s, v, inside) with the
 * reach R = ra + rb (+ skin) known to be met. */
static start_contact overlap_answer(const gjk_pair* P, const simplex* s, bool inside, gr R, gv hint)
{
    start_contact c;
    c.crossing = false;
    const gr ra = P->a.radius;
    const gv pa = simplex_a(s), pb = simplex_b(s);
    gv g = simplex_p(s);
    const gr dist = inside ? 0 : glen(g);
    c.pb = pb;
    if (dist > 256 * NOISE) {
        /* Cores apart: the gap's direction, polished by the feature pair. */
        gnormalize(&g);
        const pick pk = polish(P, g3(0, 0, 0), g, s->v, s->n);
        c.n = pk.n;
        c.depth = gmax(R - pk.sep, 0);
        /* On the line pb + s g, A covers [dist - ra, dist + ra] and B
         * (inflated) [-(R - ra), R - ra]: A's deepest point if in B. */
        c.point = gmadd(pb, gmax(dist - ra, -(R - ra)), g);
        return c;
    }
    /* Cores crossing (or touching): EPA, then the polish. */
    const epa_result e = epa_run(P, s, hint);
    const pick pk = polish(P, g3(0, 0, 0), e.n, e.tri, e.ntri);
    c.n = pk.n;
    c.depth = gmax(R - pk.sep, 0);
    c.point = gscale(gadd(pa, pb), 0.5);
    /* Crossing cores, and witnesses (the same point, exactly) further
     * apart than the tolerance (the frame's extent is about 1). */
    c.crossing = pk.sep <= -256 * NOISE && glen(gsub(pa, pb)) > SW_TOLERANCE;
    if (!(pk.sep <= -256 * NOISE)) {
        /* Cores only touching: the common point from the boundary face. */
        simplex t = *s;
        gv v;
        simplex_to_boundary(&t, g3(0, 0, 0), &v);
        c.point = gscale(gadd(simplex_a(&t), simplex_b(&t)), 0.5);
        c.pb = simplex_b(&t);
    }
    return c;
}

/* ---- conservative advancement ---------------------------------------------------- */

typedef struct cast_result {
    bool hit;
    gr t;
    gv n_last; /* the last advancement's direction (B toward A) */
    bool have_last;
} cast_result;

/* First t in [0, 1] at which the point x = -t d comes within R of M, from
 * GJK's simplex at t = 0 (van den Bergen's ray cast, with a reach: each
 * step moves to the support plane's offset by R, a Newton step on the
 * convex distance, so it never passes the contact). */
static cast_result cast(const gjk_pair* P, gr R, gr tau, simplex* s, gv* v)
{
    cast_result out = {false, 0, {0, 0, 0}, false};
    const gv d = P->d;
    gv x = g3(0, 0, 0);
    gr t = 0;
    int it = 0;
    for (; it < CAST_MAX_ITERATIONS; ++it) {
        const gr vv = gdot(*v, *v);
        const gr len = gr_sqrt(vv);
        if (len - R <= tau) {
            out.hit = true;
            break;
        }
        const svert w = support_m(P, gneg(*v));
        STAT(++sw_gjk_stats_counters.cast_iterations);
        const gr lower = gdot(*v, gsub(w.p, x)) / len;
        const bool known = simplex_has(s, &w);
        if (lower - R > tau) {
            /* The support plane (pushed out by R) separates x: move to it. */
            const gr rate = gdot(*v, d) / len;
            const gr gap = lower - R;
            if (!(rate < 0) || gap > (1 - t) * -rate) {
                break; /* moving away, or the plane is beyond t = 1 */
            }
            t += gap / -rate;
            x = gscale(d, -t);
            out.n_last = gscale(*v, 1 / len);
            out.have_last = true;
            STAT(++sw_gjk_stats_counters.cast_advances);
        } else if (known) {
            /* Converged at x with the lower bound within reach. */
            out.hit = true;
            break;
        }
        if (!known) {
            s->v[s->n++] = w;
        }
        const gr next = simplex_solve(s, x, v);
        if (!(lower - R > tau) && !(next < vv)) {
            out.hit = true; /* no progress at a point within reach */
            break;
        }
    }
#ifdef SW_GJK_STATS
    if (it > sw_gjk_stats_counters.max_cast_iterations) {
        sw_gjk_stats_counters.max_cast_iterations = it;
    }
#endif
    if (it == CAST_MAX_ITERATIONS) {
        /* Out of steps (a grazing pass): a hit if A is within the
         * tolerance of touching where it stopped. */
        out.hit = glen(*v) - R <= SW_TOLERANCE;
    }
    out.t = t;
    return out;
}

/* ---- features ---------------------------------------------------------------- */

/* B's feature of lowest dimension within tol of B's core point pb: the
 * specialised routines' rule and numbering (sw_core_feature, hulls
 * included: the face p lies on among nearly coplanar ones). */
static sw_feature name_feature(const sw_shape* b, sw_vec3 pb, gr world_size)
{
    const gr tol = SW_TOLERANCE / 2 * world_size;
    sw_core core;
    sw_core_make(b, &core);
    return sw_core_feature(&core, sw_core_to_local(&core, pb), (sw_real)tol);
}

/* ---- entry points ---------------------------------------------------------------- */

static bool bounded(const sw_shape* s) { return s->type != SW_SHAPE_PLANE; }
static bool has_vertices(const sw_shape* s) { return s->type != SW_SHAPE_HULL || s->hull.hull->vertex_count > 0; }
/* A mesh is not convex: the general convex methods refuse it. */
static bool any_mesh(const sw_shape* a, const sw_shape* b)
{
    return (a && a->type == SW_SHAPE_MESH) || b->type == SW_SHAPE_MESH;
}

static bool is_polytope(const sw_shape* s)
{
    return s->type == SW_SHAPE_BOX || s->type == SW_SHAPE_HULL || s->type == SW_SHAPE_TRIANGLE ||
           s->type == SW_SHAPE_POLYGON;
}

static bool is_one_sided(const sw_shape* s)
{
    return (s->type == SW_SHAPE_TRIANGLE && s->triangle.one_sided) ||
           (s->type == SW_SHAPE_POLYGON && s->polygon.one_sided);
}

/* How far the plane with unit normal n separates the pair's shapes at
 * rest, in world units (the pair's frame is the world's translated and
 * scaled by k: directions are the same in both). */
static gr world_separation(const gjk_pair* P, gv n) { return separation(P, n, g3(0, 0, 0)) / P->f.k; }

/* Two polytopes that start within the skin of each other (GJK found
 * their cores apart): the overlap answer's normal old competes with the
 * direction of their closest points (the polytope distance, exact edge
 * by edge but for box-box and large hulls) and with the separating axis
 * that separates them most (where they touch within rounding, the
 * closest points have no direction).
 * The one along which the planes separate A from B most wins, if by more
 * than tol: it goes into out (depth, normal, point) and B's point into
 * *pb. The simplex the overlap answer reads its normal, depth and point
 * from is ill-conditioned on a needle: a flat box 2e14 long, 0.33 from a
 * triangle 4 across near its middle, with a skin of 16, got a normal
 * along which they overlap by 1e14, that depth and a point 3.9e6 from
 * the triangle (fuzz finding 53). The closest points' direction does not
 * always win: nearly touching, their gap is rounding, and a face's
 * normal separates better. */
static bool start_apart(const gjk_pair* P, const sw_shape* a, const sw_shape* b, gv old, sw_real skin, sw_hit* out,
                        sw_vec3* pb)
{
    const gr tol = SW_TOLERANCE * P->world_size;
    gr best = world_separation(P, old) + tol;
    bool better = false;
    const sw_distance_result r = sw_internal_distance_polytopes(a, b);
    sw_vec3 n = sw_sub(r.point_a, r.point_b);
    if (r.status == SW_OK && sw_normalize(&n) > 0) {
        const gr sep = world_separation(P, gof(n));
        if (sep > best) {
            best = sep;
            better = true;
            /* The distance itself where the plane confirms it (its
             * supports round at the shapes' extent). */
            out->depth = sw_max(skin - (sep >= r.distance - tol ? r.distance : (sw_real)sep), 0);
            out->normal = n;
            out->point = r.point_a;
            *pb = r.point_b;
        }
    }
    sw_vec3 axis;
    const double overlap = sw_internal_polytope_axis(a, b, &axis);
    const gr sep = world_separation(P, gof(axis));
    if (sep > best) {
        better = true;
        out->depth = sw_max(skin - (sep >= -overlap - tol ? (sw_real)-overlap : (sw_real)sep), 0);
        out->normal = axis;
        if (r.status == SW_OK) {
            out->point = r.point_a;
            *pb = r.point_b;
        }
    }
    return better;
}

static sw_hit sweep_pair(const sw_shape* a, sw_vec3 dw, const sw_shape* b, const sw_sweep_options* opt)
{
    sw_hit out = {0};
    gjk_pair P;
    pair_make(&P, a, b, dw, sw_internal_skin(opt));
    STAT(++sw_gjk_stats_counters.queries);
    const gr R = P.a.radius + P.b.radius + P.skin;
    const gr k = P.f.k;
    simplex s = {0};
    gv v;
    const bool inside = gjk(&P, g3(0, 0, 0), &s, &v);
    if (inside || glen(v) <= R + NOISE) {
        if (is_one_sided(b)) {
            return out;
        }
        const start_contact c = overlap_answer(&P, &s, inside, R, gneg(P.d));
        out.depth = (sw_real)(c.depth / k);
        out.normal = gto(c.n);
        out.point = to_world(&P.f, c.point);
        sw_vec3 pb = to_world(&P.f, c.pb);
        const bool apart =
            !inside && is_polytope(a) && is_polytope(b) && start_apart(&P, a, b, c.n, sw_internal_skin(opt), &out, &pb);
        if (sw_internal_ignore_separating(opt) && (apart ? sw_dot(dw, out.normal) : (sw_real)gdot(P.d, c.n)) >= 0) {
            return (sw_hit){0};
        }
        out.hit = out.overlapping = true;
        if (c.crossing && is_polytope(a) && is_polytope(b)) {
            /* The witnesses of a simplex around the origin have weights
             * divided by its volume, which on a thin Minkowski difference
             * (a box 1e9 long against a polygon 30 across) puts them 1e6
             * apart (finding 24): the separating axes' point of the
             * overlapping polytopes is a point of both. */
            const sw_overlap_result o = sw_internal_overlap_polytopes(a, b);
            if (o.overlapping) {
                out.point = o.point;
            }
        }
        out.feature = name_feature(b, pb, P.world_size);
        return out;
    }
    if (gzero(P.d)) {
        return out;
    }
    const gr tau = gmax(2 * NOISE, SW_TOLERANCE / 1024);
    const cast_result c = cast(&P, R, tau, &s, &v);
    if (!c.hit) {
        return out;
    }
    const gv x = gscale(P.d, -c.t);
    /* The cast stops once |v| is within tau of the reach, but v's direction
     * is then only within sqrt(2 tau / R) of the closest points': converge
     * the simplex at x (warm, usually no support call at all). */
    gjk(&P, x, &s, &v);
    simplex_to_boundary(&s, x, &v);
    const gr len = glen(v);
    gv raw;
    if (len > 64 * NOISE) {
        raw = gscale(v, 1 / len);
    } else if (c.have_last) {
        raw = c.n_last;
    } else {
        raw = gneg(P.d);
        gnormalize(&raw);
    }
    const pick pk = polish(&P, x, raw, s.v, s.n);
    const gv n = pk.n;
    if (is_one_sided(b) && !(gdot(P.d, P.b.normal) < 0 && gdot(n, P.b.normal) > 0)) {
        return out;
    }
    /* A's core point at t: its start point plus t d = minus x. */
    const gv pa = gsub(simplex_a(&s), x);
    out.hit = true;
    out.t = (sw_real)c.t;
    out.normal = gto(n);
    out.point = to_world(&P.f, gmadd(pa, -P.a.radius, n));
    out.feature = name_feature(b, to_world(&P.f, simplex_b(&s)), P.world_size);
    if ((a->type == SW_SHAPE_BOX || a->type == SW_SHAPE_HULL) && is_polytope(b)) {
        /* A's witness has the simplex's weights, which across a needle (a
         * box 1.3e17 long swept with a skin onto a triangle 30 across) put
         * it 3.8e11 out along A (finding 41). A point more than tol beyond
         * the skin from B is replaced by A(t)'s point nearest B. */
        const sw_real tol = (sw_real)(SW_TOLERANCE * P.world_size);
        const sw_capsule q = {out.point, out.point, 0};
        const sw_distance_result to_b = sw_distance_capsule_shape(&q, b);
        sw_shape at;
        if (to_b.status == SW_OK && to_b.distance > sw_internal_skin(opt) + tol &&
            sw_internal_moved_solid(a, sw_scale(dw, out.t), &at)) {
            const sw_distance_result r = sw_internal_distance_polytopes(&at, b);
            if (r.status == SW_OK) {
                out.point = r.point_a;
            }
        }
    }
    return out;
}

sw_hit sw_gjk_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_vec3(d) && sw_is_valid_shape(b) && sw_internal_options_valid(opt),
               SW_INVALID_HIT);
    /* A half-space cannot move (DESIGN.md §2): bad input, as in sw_sweep. */
    SW_REQUIRE(a->type != SW_SHAPE_PLANE, SW_INVALID_HIT);
    SW_REQUIRE(has_vertices(a) && has_vertices(b), SW_INVALID_HIT);
    if (any_mesh(a, b)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    if (!bounded(b)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    return sweep_pair(a, d, b, opt);
}

sw_hit sw_gjk_raycast(const sw_ray* ray, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_ray(ray) && sw_is_valid_shape(b), SW_INVALID_HIT);
    SW_REQUIRE(has_vertices(b), SW_INVALID_HIT);
    if (any_mesh(NULL, b)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    if (!bounded(b)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    const sw_shape a = sw_make_point(ray->origin);
    sw_hit h = sweep_pair(&a, sw_scale(ray->dir, ray->max), b, NULL);
    h.t *= ray->max;
    return h;
}

sw_overlap_result sw_gjk_overlap(const sw_shape* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_OVERLAP);
    SW_REQUIRE(has_vertices(a) && has_vertices(b), SW_INVALID_OVERLAP);
    if (any_mesh(a, b)) {
        return sw_internal_overlap_status(SW_UNSUPPORTED);
    }
    if (!bounded(a) || !bounded(b)) {
        return sw_internal_overlap_status(SW_UNSUPPORTED);
    }
    sw_overlap_result out = {0};
    gjk_pair P;
    pair_make(&P, a, b, sw_v3(0, 0, 0), 0);
    STAT(++sw_gjk_stats_counters.queries);
    const gr R = P.a.radius + P.b.radius;
    simplex s = {0};
    gv v;
    const bool inside = gjk(&P, g3(0, 0, 0), &s, &v);
    if (!inside && !(glen(v) <= R + NOISE)) {
        return out;
    }
    const start_contact c = overlap_answer(&P, &s, inside, R, g3(0, 0, 1));
    out.overlapping = true;
    out.depth = (sw_real)(c.depth / P.f.k);
    out.normal = gto(c.n);
    out.point = to_world(&P.f, c.point);
    return out;
}

sw_distance_result sw_gjk_distance(const sw_shape* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_DISTANCE);
    SW_REQUIRE(has_vertices(a) && has_vertices(b), SW_INVALID_DISTANCE);
    if (any_mesh(a, b)) {
        return sw_internal_distance_status(SW_UNSUPPORTED);
    }
    if (!bounded(a) || !bounded(b)) {
        return sw_internal_distance_status(SW_UNSUPPORTED);
    }
    sw_distance_result out = {0};
    gjk_pair P;
    pair_make(&P, a, b, sw_v3(0, 0, 0), 0);
    STAT(++sw_gjk_stats_counters.queries);
    const gr ra = P.a.radius, rb = P.b.radius, R = ra + rb;
    simplex s = {0};
    gv v;
    const bool inside = gjk(&P, g3(0, 0, 0), &s, &v);
    const gv pa = simplex_a(&s), pb = simplex_b(&s);
    gv g = simplex_p(&s);
    const gr dist = inside ? 0 : gnormalize(&g);
    if (inside || !(dist > R + NOISE)) {
        /* Touching or overlapping: one common point. */
        gv common = gscale(gadd(pa, pb), 0.5);
        if (dist > 256 * NOISE) {
            common = gmadd(pb, gmax(dist - ra, -rb), g);
        }
        out.point_a = out.point_b = to_world(&P.f, common);
        return out;
    }
    out.distance = (sw_real)((dist - R) / P.f.k);
    out.point_a = to_world(&P.f, gmadd(pa, -ra, g));
    out.point_b = to_world(&P.f, gmadd(pb, rb, g));
    return out;
}
