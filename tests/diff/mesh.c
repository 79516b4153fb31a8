/* Triangle meshes in the differential engine: the families of test meshes
 * (shared with tests/unit/test_mesh.c), and the judge of a mesh query
 * against the brute-force union of its placed triangles.
 *
 * The judge. DESIGN §2a answers a mesh query over the union of its
 * triangles: the first t of any triangle, the deepest at t = 0, the
 * closest for distance. Each triangle i within reach of the query (its
 * bounding sphere within reach of A's swept bounding sphere, grown by the
 * skin) is a pair case of its own (B = sw_make_triangle of the placed
 * vertices sw_mesh_world_triangle gives), solved by the long-double
 * reference and read by check.c's rules (diff_demand_of: must hit, must
 * miss or either; steep or shallow). Then:
 * - a miss is wrong when some triangle must be hit;
 * - a hit must name a triangle k and be a valid answer for k alone, judged
 *   by check.c on the whole contract (time, point, normal, feature,
 *   depth), at the mesh query's scale (the largest of the pairs within
 *   reach, DESIGN §3), except that on a flat edge or vertex the face
 *   normal is accepted, and where the contact lies on flat features only,
 *   required (no ghost contacts);
 * - no other triangle that must be hit may come first: a steep one not
 *   before t - band / |d|, a shallow one never penetrated by more than the
 *   band before t, and one that A starts in must give t = 0 with at least
 *   its depth (the deepest triangle).
 * Overlap and distance: the answer must be a valid answer (check.c) for
 * one of the deepest (closest) triangles, those within two bands of the
 * extreme, and overlap or distance must not be missed. Overlap and
 * distance with the mesh as A are judged as their mirror images.
 *
 * Flat edges are found here independently of the library: an edge (by
 * vertex index) used by exactly two triangles of non-zero area whose
 * planes agree within SW_MESH_FLAT_ANGLE; one within a factor 2 of the
 * threshold is uncertain (accepted as flat, never required to be). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

/* ---- families --------------------------------------------------------------- */

typedef struct mbuild {
    sw_vec3* v;
    int nv, cv;
    int* t;
    int nt, ct;
    bool failed;
} mbuild;

static int mb_vert(mbuild* b, double x, double y, double z)
{
    if (b->nv == b->cv) {
        const int cap = b->cv ? 2 * b->cv : 64;
        sw_vec3* v = realloc(b->v, (size_t)cap * sizeof *v);
        if (!v) {
            b->failed = true;
            return 0;
        }
        b->v = v;
        b->cv = cap;
    }
    b->v[b->nv] = sw_v3((sw_real)x, (sw_real)y, (sw_real)z);
    return b->nv++;
}

static void mb_tri(mbuild* b, int i, int j, int k)
{
    if (b->nt == b->ct) {
        const int cap = b->ct ? 2 * b->ct : 64;
        int* t = realloc(b->t, (size_t)cap * 3 * sizeof *t);
        if (!t) {
            b->failed = true;
            return;
        }
        b->t = t;
        b->ct = cap;
    }
    b->t[3 * b->nt] = i;
    b->t[3 * b->nt + 1] = j;
    b->t[3 * b->nt + 2] = k;
    b->nt++;
}

const char* diff_mesh_family_name(diff_mesh_family f)
{
    static const char* const names[DIFF_MESH_FAMILY_COUNT] = {"floor", "terrain", "stairs",     "icosphere",
                                                              "box",   "soup",    "degenerate", "mixed"};
    return (unsigned)f < DIFF_MESH_FAMILY_COUNT ? names[f] : "?";
}

/* A grid of nx by ny cells over [-size, size]^2, heights from h (NULL:
 * flat), each cell split along a random diagonal, fronts up. */
static void grid(mbuild* b, swt_rng* r, int nx, int ny, double size, const double* h)
{
    const int base = b->nv;
    for (int j = 0; j <= ny; ++j) {
        for (int i = 0; i <= nx; ++i) {
            mb_vert(b, -size + 2 * size * i / nx, -size + 2 * size * j / ny, h ? h[j * (nx + 1) + i] : 0);
        }
    }
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const int a = base + j * (nx + 1) + i, bb = a + 1, c = a + nx + 2, d = a + nx + 1;
            if (swt_rng_chance(r, 0.5)) {
                mb_tri(b, a, bb, c);
                mb_tri(b, a, c, d);
            } else {
                mb_tri(b, a, bb, d);
                mb_tri(b, bb, c, d);
            }
        }
    }
}

static void icosphere(mbuild* b, double radius, bool subdivide)
{
    static const int faces[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                     {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                     {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                     {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    const double p = (1 + sqrt(5.0)) / 2, s = radius / sqrt(1 + p * p);
    const double pts[12][3] = {{-1, p, 0},  {1, p, 0},  {-1, -p, 0}, {1, -p, 0}, {0, -1, p},  {0, 1, p},
                               {0, -1, -p}, {0, 1, -p}, {p, 0, -1},  {p, 0, 1},  {-p, 0, -1}, {-p, 0, 1}};
    const int base = b->nv;
    for (int i = 0; i < 12; ++i) {
        mb_vert(b, pts[i][0] * s, pts[i][1] * s, pts[i][2] * s);
    }
    if (!subdivide) {
        for (int f = 0; f < 20; ++f) {
            mb_tri(b, base + faces[f][0], base + faces[f][1], base + faces[f][2]);
        }
        return;
    }
    /* Each edge's midpoint once (a 12 x 12 table), pushed out to the sphere. */
    int mid[12][12];
    memset(mid, -1, sizeof mid);
    for (int f = 0; f < 20; ++f) {
        int m[3];
        for (int e = 0; e < 3; ++e) {
            const int u = faces[f][e], w = faces[f][(e + 1) % 3];
            if (mid[u][w] < 0) {
                double q[3], len = 0;
                for (int k = 0; k < 3; ++k) {
                    q[k] = (pts[u][k] + pts[w][k]) / 2;
                    len += q[k] * q[k];
                }
                len = sqrt(len);
                mid[u][w] = mid[w][u] = mb_vert(b, q[0] * radius / len, q[1] * radius / len, q[2] * radius / len);
            }
            m[e] = mid[u][w];
        }
        const int a = base + faces[f][0], bb = base + faces[f][1], c = base + faces[f][2];
        mb_tri(b, a, m[0], m[2]);
        mb_tri(b, bb, m[1], m[0]);
        mb_tri(b, c, m[2], m[1]);
        mb_tri(b, m[0], m[1], m[2]);
    }
}

/* A closed box of 12 triangles with half extents h, fronts outward. */
static void closed_box(mbuild* b, const double h[3], const double c[3])
{
    const int base = b->nv;
    for (int i = 0; i < 8; ++i) {
        mb_vert(b, c[0] + ((i & 1) ? h[0] : -h[0]), c[1] + ((i & 2) ? h[1] : -h[1]), c[2] + ((i & 4) ? h[2] : -h[2]));
    }
    /* Faces -x, +x, -y, +y, -z, +z as corner cycles counter-clockwise seen
     * from outside. */
    static const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int f = 0; f < 6; ++f) {
        const int* q = quads[f];
        mb_tri(b, base + q[0], base + q[1], base + q[2]);
        mb_tri(b, base + q[0], base + q[2], base + q[3]);
    }
}

static void random_triangle(mbuild* b, swt_rng* r, const double c[3], double size)
{
    int id[3];
    for (int i = 0; i < 3; ++i) {
        id[i] = mb_vert(b, c[0] + size * swt_rng_range(r, -1, 1), c[1] + size * swt_rng_range(r, -1, 1),
                        c[2] + size * swt_rng_range(r, -1, 1));
    }
    mb_tri(b, id[0], id[1], id[2]);
}

int diff_mesh_build(diff_mesh_family f, swt_rng* r, double size, sw_vec3** v, int* nv, int** tri)
{
    mbuild b = {0};
    switch (f) {
    case DIFF_MESH_FLOOR:
        grid(&b, r, 1 + swt_rng_int(r, 5), 1 + swt_rng_int(r, 5), size, NULL);
        break;
    case DIFF_MESH_TERRAIN: {
        const int nx = 2 + swt_rng_int(r, 4), ny = 2 + swt_rng_int(r, 4);
        double h[64];
        const double a = swt_rng_range(r, 0.5, 3), c = swt_rng_range(r, 0.5, 3), ph = swt_rng_range(r, 0, 6);
        for (int j = 0; j <= ny; ++j) {
            for (int i = 0; i <= nx; ++i) {
                const double x = (double)i / nx, y = (double)j / ny;
                h[j * (nx + 1) + i] =
                    size * (0.3 * sin(a * x * 3 + ph) * cos(c * y * 3) + 0.05 * swt_rng_range(r, -1, 1));
            }
        }
        grid(&b, r, nx, ny, size, h);
        break;
    }
    case DIFF_MESH_STAIRS: {
        const int steps = 2 + swt_rng_int(r, 4);
        const double dx = size * swt_rng_range(r, 0.3, 0.8), dz = size * swt_rng_range(r, 0.1, 0.5), w = size;
        int prev[2] = {mb_vert(&b, -dx, -w, 0), mb_vert(&b, -dx, w, 0)};
        double x = 0, z = 0;
        /* The profile: a landing, then riser and tread per step. */
        for (int i = 0; i <= 2 * steps; ++i) {
            if (i > 0) {
                if (i % 2) {
                    z += dz;
                } else {
                    x += dx;
                }
            }
            const int cur[2] = {mb_vert(&b, x, -w, z), mb_vert(&b, x, w, z)};
            mb_tri(&b, prev[0], cur[0], cur[1]);
            mb_tri(&b, prev[0], cur[1], prev[1]);
            prev[0] = cur[0];
            prev[1] = cur[1];
        }
        break;
    }
    case DIFF_MESH_ICOSPHERE:
        icosphere(&b, size, swt_rng_chance(r, 0.3));
        break;
    case DIFF_MESH_BOX: {
        double h[3];
        for (int k = 0; k < 3; ++k) {
            h[k] = size * swt_rng_range(r, 0.2, 1);
        }
        if (swt_rng_chance(r, 0.25)) {
            h[swt_rng_int(r, 3)] = size * 1e-3; /* thin */
        }
        const double c[3] = {0, 0, 0};
        closed_box(&b, h, c);
        break;
    }
    case DIFF_MESH_SOUP: {
        const int n = 2 + swt_rng_int(r, 9);
        for (int i = 0; i < n; ++i) {
            double c[3];
            for (int k = 0; k < 3; ++k) {
                c[k] = size * swt_rng_range(r, -0.7, 0.7);
            }
            random_triangle(&b, r, c, size * swt_rng_range(r, 0.1, 0.6));
        }
        break;
    }
    case DIFF_MESH_DEGENERATE: {
        grid(&b, r, 2, 2, size, NULL);
        /* Zero-area triangles: a repeated index along a floor edge, a
         * point, a standing collinear sliver and one lying in the floor. */
        const int e = 1 + swt_rng_int(r, 3);
        mb_tri(&b, 0, e, 0);
        mb_tri(&b, 4, 4, 4);
        const double x = size * swt_rng_range(r, -0.8, 0.8), y = size * swt_rng_range(r, -0.8, 0.8);
        const int p = mb_vert(&b, x, y, 0), q = mb_vert(&b, x, y, size * 0.5), m = mb_vert(&b, x, y, size * 0.25);
        mb_tri(&b, p, m, q);
        const int s = mb_vert(&b, -size, -size * 0.5, 0), u = mb_vert(&b, size, -size * 0.5, 0),
                  mid = mb_vert(&b, 0, -size * 0.5, 0);
        mb_tri(&b, s, mid, u);
        break;
    }
    case DIFF_MESH_MIXED: {
        /* One triangle 100 sizes across, tiny ones above it, a few usual. */
        const int a = mb_vert(&b, -100 * size, -100 * size, 0), c = mb_vert(&b, 100 * size, -100 * size, 0),
                  d = mb_vert(&b, 0, 100 * size, 0);
        mb_tri(&b, a, c, d);
        const int n = 3 + swt_rng_int(r, 6);
        for (int i = 0; i < n; ++i) {
            double ctr[3];
            for (int k = 0; k < 2; ++k) {
                ctr[k] = size * swt_rng_range(r, -1, 1);
            }
            ctr[2] = size * swt_rng_range(r, 0, 0.5);
            random_triangle(&b, r, ctr, size * (i < 2 ? 0.3 : swt_rng_log_range(r, 1e-3, 1e-2)));
        }
        break;
    }
    case DIFF_MESH_FAMILY_COUNT:
        break;
    }
    if (b.failed || b.nt == 0) {
        free(b.v);
        free(b.t);
        *v = NULL;
        *tri = NULL;
        *nv = 0;
        return 0;
    }
    *v = b.v;
    *nv = b.nv;
    *tri = b.t;
    return b.nt;
}

/* ---- the judge ------------------------------------------------------------------ */

#define FLAT_SURE 0.5L /* times SW_MESH_FLAT_ANGLE: surely flat below */
#define FLAT_NOT 2.0L  /* surely not flat above */

enum { EDGE_REAL = 0, EDGE_FLAT = 1, EDGE_MAYBE = 2 };

typedef struct mview {
    const diff_case* c; /* the mesh case, with the mesh as b */
    diff_case base;     /* a copy whose b is replaced by each triangle */
    int nt;
    sw_vec3 (*w)[3];       /* placed triangles */
    unsigned char (*e)[3]; /* edge kinds, found here */
    ref_vec* fn;           /* unit front normals (0 without area) */
    ref_real* sdist;       /* overlap, distance: each triangle's */
    bool* reach;
    ref_real scale;
} mview;

static ref_vec local_vertex(const diff_case* c, int t, int k) { return rv_of(c->mesh_v[c->mesh_tri[3 * t + k]]); }

typedef struct edge_use {
    int lo, hi, tri, k;
} edge_use;

static int edge_cmp(const void* a, const void* b)
{
    const edge_use *x = a, *y = b;
    if (x->lo != y->lo) {
        return x->lo < y->lo ? -1 : 1;
    }
    if (x->hi != y->hi) {
        return x->hi < y->hi ? -1 : 1;
    }
    return x->tri != y->tri ? (x->tri < y->tri ? -1 : 1) : (x->k < y->k ? -1 : (x->k > y->k));
}

/* Edge kinds by vertex index, with the planes compared in long double on
 * the local vertices (the edges sorted by their vertex pair). */
static void find_flat_edges(mview* m)
{
    const diff_case* c = m->c;
    ref_vec* n = calloc((size_t)m->nt, sizeof *n);
    edge_use* e = calloc((size_t)m->nt * 3, sizeof *e);
    if (!n || !e) {
        free(n);
        free(e);
        return;
    }
    for (int t = 0; t < m->nt; ++t) {
        n[t] = rv_cross(rv_sub(local_vertex(c, t, 1), local_vertex(c, t, 0)),
                        rv_sub(local_vertex(c, t, 2), local_vertex(c, t, 0)));
        memset(m->e[t], EDGE_REAL, 3);
        for (int k = 0; k < 3; ++k) {
            const int a = c->mesh_tri[3 * t + k], b = c->mesh_tri[3 * t + (k + 1) % 3];
            e[3 * t + k] = (edge_use){a < b ? a : b, a < b ? b : a, t, k};
        }
    }
    qsort(e, (size_t)m->nt * 3, sizeof *e, edge_cmp);
    for (int i = 0; i < 3 * m->nt;) {
        int j = i + 1;
        while (j < 3 * m->nt && e[j].lo == e[i].lo && e[j].hi == e[i].hi) {
            ++j;
        }
        /* Exactly two uses, by two triangles with area, a real segment. */
        if (j - i == 2 && e[i].tri != e[i + 1].tri && e[i].lo != e[i].hi) {
            const ref_vec p = n[e[i].tri], q = n[e[i + 1].tri];
            if (rv_len(p) > 0 && rv_len(q) > 0) {
                const ref_real angle = atan2l(rv_len(rv_cross(p, q)), fabsl(rv_dot(p, q)));
                const ref_real lim = (ref_real)SW_MESH_FLAT_ANGLE;
                const unsigned char kind =
                    angle <= FLAT_SURE * lim ? EDGE_FLAT : (angle <= FLAT_NOT * lim ? EDGE_MAYBE : EDGE_REAL);
                m->e[e[i].tri][e[i].k] = kind;
                m->e[e[i + 1].tri][e[i + 1].k] = kind;
            }
        }
        i = j;
    }
    free(n);
    free(e);
}

static bool mview_init(mview* m, const diff_case* c)
{
    memset(m, 0, sizeof *m);
    m->c = c;
    m->base = *c;
    m->base.mesh = NULL;
    m->nt = c->mesh_nt;
    m->w = calloc((size_t)m->nt, sizeof *m->w);
    m->e = calloc((size_t)m->nt, sizeof *m->e);
    m->fn = calloc((size_t)m->nt, sizeof *m->fn);
    m->sdist = calloc((size_t)m->nt, sizeof *m->sdist);
    m->reach = calloc((size_t)m->nt, sizeof *m->reach);
    if (!m->w || !m->e || !m->fn || !m->sdist || !m->reach) {
        return false;
    }
    const sw_mesh_instance* inst = &c->b.mesh;
    for (int t = 0; t < m->nt; ++t) {
        if (!sw_mesh_world_triangle(inst, t, m->w[t])) {
            return false;
        }
        m->fn[t] = rv_cross(rv_sub(rv_of(m->w[t][1]), rv_of(m->w[t][0])), rv_sub(rv_of(m->w[t][2]), rv_of(m->w[t][0])));
        if (!(rv_normalize(&m->fn[t]) > 0)) {
            m->fn[t] = rv(0, 0, 0);
        }
    }
    find_flat_edges(m);
    return true;
}

static void mview_free(mview* m)
{
    free(m->w);
    free(m->e);
    free(m->fn);
    free(m->sdist);
    free(m->reach);
}

/* The pair case of triangle t. */
static void tri_case(const mview* m, int t, diff_case* out)
{
    *out = m->base;
    out->b = sw_make_triangle(m->w[t][0], m->w[t][1], m->w[t][2], m->c->b.mesh.one_sided);
}

/* A's bounding sphere at t = 0 (the ray's origin for a ray cast) and its
 * path. */
static void a_sphere(const diff_case* c, ref_vec* ctr, ref_real* radius, ref_vec* d)
{
    if (c->op == OP_RAYCAST) {
        *ctr = rv_of(c->ray.origin);
        *radius = 0;
        *d = rv_scale(rv_of(c->ray.dir), c->ray.max);
        return;
    }
    const sw_aabb bb = sw_shape_bounds(&c->a);
    const ref_vec lo = rv_of(bb.min), hi = rv_of(bb.max);
    *ctr = rv_scale(rv_add(lo, hi), 0.5L);
    *radius = rv_len(rv_sub(hi, lo)) / 2;
    *d = c->op == OP_SWEEP ? rv_of(c->d) : rv(0, 0, 0);
}

static ref_real point_segment_distance(ref_vec p, ref_vec a, ref_vec d)
{
    const ref_real dd = rv_dot(d, d);
    ref_real s = dd > 0 ? rv_dot(rv_sub(p, a), d) / dd : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    return rv_len(rv_sub(p, rv_madd(a, s, d)));
}

/* A lower bound of the distance between triangle t and A over its path
 * (bounding spheres). */
static ref_real reach_gap(const mview* m, int t)
{
    ref_vec ac, d;
    ref_real ar;
    a_sphere(m->c, &ac, &ar, &d);
    const ref_vec v0 = rv_of(m->w[t][0]), v1 = rv_of(m->w[t][1]), v2 = rv_of(m->w[t][2]);
    const ref_vec tc = rv_scale(rv_add(rv_add(v0, v1), v2), 1.0L / 3);
    const ref_real tr = fmaxl(rv_len(rv_sub(v0, tc)), fmaxl(rv_len(rv_sub(v1, tc)), rv_len(rv_sub(v2, tc))));
    const ref_real skin = m->c->op == OP_SWEEP ? (ref_real)m->c->opt.skin : 0;
    return point_segment_distance(tc, ac, d) - tr - ar - skin;
}

/* Where q lies on triangle t: near (within tau of) a flat edge or vertex,
 * near a real one. A vertex is flat when both of the triangle's edges at
 * it are. */
static void classify(const mview* m, int t, ref_vec q, ref_real tau, diff_judge_opts* jo)
{
    diff_case tc;
    tri_case(m, t, &tc);
    ref_shape b;
    ref_from_shape(&tc.b, &b);
    bool near_flat = false, near_real = false, near_maybe = false;
    for (int k = 0; k < 3; ++k) {
        const unsigned char ek = m->e[t][k], ep = m->e[t][(k + 2) % 3];
        if (ref_feature_distance(&b, SW_FEATURE_EDGE, k, q) <= tau) {
            near_flat |= ek == EDGE_FLAT;
            near_maybe |= ek == EDGE_MAYBE;
            near_real |= ek == EDGE_REAL;
        }
        if (ref_feature_distance(&b, SW_FEATURE_VERTEX, k, q) <= tau) {
            const bool flat = ek != EDGE_REAL && ep != EDGE_REAL;
            const bool sure = ek == EDGE_FLAT && ep == EDGE_FLAT;
            near_flat |= sure;
            near_maybe |= flat && !sure;
            near_real |= !flat;
        }
    }
    jo->flat_normal = m->fn[t];
    const bool has_plane = rv_dot(m->fn[t], m->fn[t]) > 0;
    jo->flat = has_plane && (near_flat || near_maybe);
    jo->flat_only = has_plane && near_flat && !near_real && !near_maybe;
}

/* B's point nearest p on triangle t. */
static ref_vec nearest_on(const mview* m, int t, ref_vec p)
{
    diff_case tc;
    tri_case(m, t, &tc);
    ref_shape b, pt = {0};
    ref_from_shape(&tc.b, &b);
    pt.kind = REF_HULL;
    pt.n = 1;
    pt.v[0] = p;
    ref_witness w;
    ref_sdist(&pt, &b, &w);
    return w.pb;
}

/* Which side of triangle t's plane A's core lies on, from the closest
 * points pa (A's core) and pb (the triangle): +1 along the front normal,
 * -1 behind, 0 within the band of the plane (cores crossing, or A's core
 * beside the triangle in its plane: the library's pair normal may then
 * take either side). */
static int core_side(const mview* m, int t, ref_vec pa, ref_vec pb, ref_real band)
{
    const ref_real s = rv_dot(m->fn[t], rv_sub(pa, pb));
    return s > band ? 1 : (s < -band ? -1 : 0);
}

/* Triangle t's options: the query's scale, its flat features at its start
 * contact (ignore_separating) and at the answer h (NULL: none). A contact
 * after the start is placed at B's point nearest the answer's point; an
 * initial overlap (whose point is a deepest point of A, inside B) by the
 * feature it reports, flat by this file's reckoning or not, and never
 * required to be flat. */
static void tri_opts(const mview* m, int t, const diff_case* tc, const ref_result* rr, const sw_hit* h,
                     diff_judge_opts* jo)
{
    memset(jo, 0, sizeof *jo);
    jo->scale = m->scale;
    const ref_real band = (ref_real)SW_TOLERANCE * m->scale, tau = 2 * band;
    ref_case rc;
    diff_to_ref(tc, &rc);
    const bool has_plane = rv_dot(m->fn[t], m->fn[t]) > 0;
    if (has_plane && tc->op == OP_SWEEP && tc->opt.ignore_separating && rr->g0 <= band) {
        ref_witness w;
        ref_sdist(&rc.a, &rc.b, &w);
        diff_judge_opts start;
        classify(m, t, w.pb, tau, &start);
        const int side = tc->b.triangle.one_sided ? 1 : core_side(m, t, w.pa, w.pb, band);
        jo->flat_start = start.flat;
        jo->flat_start_only = start.flat_only;
        /* A's core in the triangle (a solid penetrating it): the closest
         * points say nothing of the feature the library takes the start
         * contact on, and a flat edge of it may give the face normal. */
        const ref_real core = rr->g0 + rc.skin + (rc.a.kind == REF_HULL ? rc.a.radius : 0);
        bool any_flat = false;
        for (int k = 0; k < 3; ++k) {
            any_flat |= m->e[t][k] != EDGE_REAL;
        }
        if (core <= band && any_flat) {
            jo->flat_start = true;
            jo->flat_start_only = false;
        }
        jo->flat_start_sided = side != 0;
        jo->start_normal = rv_scale(m->fn[t], side < 0 ? -1 : 1);
    }
    jo->flat_normal = m->fn[t];
    if (!h || !has_plane) {
        return;
    }
    /* A's side: the front for a one-sided mesh; after the start, where A's
     * core lies at the exact contact; at the start, either (the depth
     * along the normal is checked). */
    int side = tc->b.triangle.one_sided ? 1 : 0;
    if (side == 0 && !h->overlapping && rr->hit) {
        side = core_side(m, t, rr->pa, rr->pb, band);
    }
    jo->flat_sided = side != 0;
    jo->flat_normal = rv_scale(m->fn[t], side < 0 ? -1 : 1);
    if (h->overlapping) {
        const int i = h->feature.index;
        if (h->feature.kind == SW_FEATURE_EDGE && i >= 0 && i < 3) {
            jo->flat = m->e[t][i] != EDGE_REAL;
        } else if (h->feature.kind == SW_FEATURE_VERTEX && i >= 0 && i < 3) {
            jo->flat = m->e[t][i] != EDGE_REAL && m->e[t][(i + 2) % 3] != EDGE_REAL;
        }
        return;
    }
    diff_judge_opts at_q;
    classify(m, t, nearest_on(m, t, rv_of(h->point)), tau, &at_q);
    jo->flat = at_q.flat;
    jo->flat_only = at_q.flat_only;
}

static void add_violation(diff_outcome* out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_violation(diff_outcome* out, const char* fmt, ...)
{
    out->violations++;
    size_t len = strlen(out->why);
    if (len + 8 >= sizeof out->why) {
        return;
    }
    if (len > 0) {
        strcpy(out->why + len, "; ");
        len += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->why + len, sizeof out->why - len, fmt, ap);
    va_end(ap);
}

static bool hit_empty(const sw_hit* h)
{
    const sw_hit z = {0};
    return !h->overlapping && h->t == 0 && h->depth == 0 && h->triangle == 0 &&
           memcmp(&h->point, &z.point, sizeof z.point) == 0 && memcmp(&h->normal, &z.normal, sizeof z.normal) == 0 &&
           h->feature.kind == SW_FEATURE_NONE && h->feature.index == 0;
}

/* The query's scale: the largest of A's, d's, the skin's and the
 * triangles' within reach. */
static void find_reach(mview* m)
{
    const diff_case* c = m->c;
    ref_vec ac, d;
    ref_real ar;
    a_sphere(c, &ac, &ar, &d);
    diff_case probe = m->base;
    probe.b = sw_make_point(c->op == OP_RAYCAST ? c->ray.origin : sw_v3(0, 0, 0));
    ref_case rc;
    diff_to_ref(&probe, &rc);
    m->scale = fmaxl(fmaxl(ref_shape_extent(&rc.a), rv_max_abs(rc.d)), rc.skin);
    if (c->op == OP_RAYCAST) {
        m->scale = fmaxl(rv_max_abs(rv_of(c->ray.origin)), rv_max_abs(rc.d));
    }
    /* Beyond a few bands, a triangle is surely missed (and out of reach). */
    const ref_real margin = 8 * (ref_real)SW_TOLERANCE * (ar + rv_len(d) + rv_max_abs(ac)) + 1e-30L;
    for (int t = 0; t < m->nt; ++t) {
        m->reach[t] = reach_gap(m, t) <= margin;
        if (m->reach[t]) {
            for (int k = 0; k < 3; ++k) {
                m->scale = fmaxl(m->scale, rv_max_abs(rv_of(m->w[t][k])));
            }
        }
    }
}

typedef struct tri_ref {
    diff_case c;
    ref_result rr;
    diff_judge_opts jo;
    diff_demand dm;
} tri_ref;

static void solve_tri(const mview* m, int t, uint64_t seed, tri_ref* tr)
{
    tri_case(m, t, &tr->c);
    ref_case rc;
    diff_solve(&tr->c, &rc, &tr->rr);
    tri_opts(m, t, &tr->c, &tr->rr, NULL, &tr->jo);
    diff_demand_of(&tr->c, swt_mix(seed, (uint64_t)t), &tr->rr, &tr->jo, &tr->dm);
}

/* Whether the library may skip triangle t's hit after the start under
 * ignore_separating (DESIGN §2a, docs/meshes.md): a contact on a flat
 * edge or vertex reports the face normal on A's side (the side the pair's
 * normal leans to; where it lies within 1e-6 of the plane, the side of A's
 * centre, or the side A moves away from), and a triangle whose normal so
 * corrected A moves along or away from is skipped. A shape sunk into a
 * floor and sliding along it thus passes the floor's internal edges even
 * where the pair alone would be hit steeply. Where the side is within the
 * band of a tie, either face may be taken. */
static bool may_skip_flat(const mview* m, int t, const tri_ref* tr, ref_real band)
{
    const diff_case* c = m->c;
    if (c->op != OP_SWEEP || !c->opt.ignore_separating || !tr->rr.hit || tr->rr.t <= 0 ||
        !(rv_dot(m->fn[t], m->fn[t]) > 0)) {
        return false;
    }
    diff_judge_opts at;
    classify(m, t, tr->rr.pb, 2 * band, &at);
    if (!at.flat) {
        return false;
    }
    const ref_vec n = m->fn[t], d = rv_of(c->d);
    const ref_real lean = tr->rr.has_normal ? rv_dot(n, tr->rr.normal) : 0;
    const ref_real along = rv_dot(n, d), slack = (ref_real)SW_TOLERANCE * rv_len(d);
    if (c->b.mesh.one_sided || lean > 2e-6L) {
        return along >= -slack;
    }
    if (lean < -2e-6L) {
        return -along >= -slack;
    }
    return true; /* either side: one of them A moves along or away from */
}

static void judge_sweep(mview* m, uint64_t seed, const sw_hit* h, diff_stats* st, diff_outcome* out, bool verbose)
{
    const diff_case* c = m->c;
    const bool is_ray = c->op == OP_RAYCAST;
    const ref_real max = is_ray ? (ref_real)c->ray.max : 1;
    const ref_vec d = is_ray ? rv_scale(rv_of(c->ray.dir), c->ray.max) : rv_of(c->d);
    const ref_real dlen = rv_len(d);
    const ref_real band = (ref_real)SW_TOLERANCE * m->scale;
    /* The divisor is chosen before dividing: clang computes a guarded
     * division ahead of its guard, and 0 / 0 traps in the tests. */
    volatile ref_real divisor = max > 0 ? max : 1;
    const ref_real tf = h->hit && max > 0 ? (ref_real)h->t / divisor : 0;
    int must = -1; /* the first triangle that must be hit */
    for (int t = 0; t < m->nt; ++t) {
        if (!m->reach[t]) {
            continue;
        }
        tri_ref tr;
        solve_tri(m, t, seed, &tr);
        if (verbose) {
            printf("  triangle %d: expect %s%s, g0 %.3Lg, gmin %.3Lg, t %.12Lg, start %s%s%s (%.6Lg, %.6Lg, %.6Lg)\n",
                   t, tr.dm.expect == DIFF_MUST_HIT ? "hit" : (tr.dm.expect == DIFF_MUST_MISS ? "miss" : "either"),
                   tr.dm.steep ? " (steep)" : "", tr.rr.g0, tr.rr.gmin, tr.rr.t,
                   tr.jo.flat_start ? "near flat" : "not flat", tr.jo.flat_start_only ? " only" : "",
                   tr.jo.flat_start_sided ? ", sided" : "", tr.jo.start_normal.x, tr.jo.start_normal.y,
                   tr.jo.start_normal.z);
        }
        if (tr.dm.expect != DIFF_MUST_HIT || may_skip_flat(m, t, &tr, band)) {
            continue;
        }
        if (must < 0) {
            must = t;
        }
        if (!h->hit || h->triangle == t) {
            continue;
        }
        if (tr.rr.t == 0) {
            if (!(h->t == 0 && h->overlapping)) {
                add_violation(out,
                              "A starts in contact with triangle %d (g0 %.3Lg, band %.3Lg), but the hit is at t=%.9g",
                              t, tr.rr.g0, band, (double)h->t);
            } else if (!((ref_real)h->depth >= -tr.rr.g0 - band)) {
                add_violation(out, "depth %.9g, but triangle %d is penetrated %.9Lg deep (band %.3Lg): not the deepest",
                              (double)h->depth, t, -tr.rr.g0, band);
            }
        } else if (tr.dm.steep) {
            /* dlen > 0 here (a hit ahead needs a move), but clang may
             * divide before testing: the slack is formed safely. */
            volatile ref_real safe_len = dlen > 0 ? dlen : 1;
            if (!(tf <= tr.rr.t + band / safe_len)) {
                add_violation(out,
                              "hit at t=%.9g on triangle %d, but triangle %d is hit first, at t=%.12Lg (band %.3Lg)",
                              (double)h->t, h->triangle, t, tr.rr.t * max, band);
            }
        } else {
            const ref_real before = diff_gmin_on(&tr.c, 0, tf);
            if (!(before >= -band)) {
                add_violation(out,
                              "hit at t=%.9g on triangle %d, but A penetrates triangle %d by %.3Lg before (band %.3Lg)",
                              (double)h->t, h->triangle, t, -before, band);
            }
        }
    }
    if (!h->hit) {
        if (!hit_empty(h)) {
            add_violation(out, "a miss with non-zero fields (triangle %d)", h->triangle);
        }
        if (must >= 0) {
            add_violation(out, "missed; triangle %d must be hit", must);
        }
        return;
    }
    const int k = h->triangle;
    if (k < 0 || k >= m->nt) {
        add_violation(out, "hit names triangle %d of %d", k, m->nt);
        return;
    }
    tri_ref tr;
    solve_tri(m, k, seed, &tr);
    tri_opts(m, k, &tr.c, &tr.rr, h, &tr.jo);
    diff_answers r = {0};
    r.h = *h;
    r.h.triangle = 0;
    diff_outcome one = {0};
    diff_judge(&tr.c, swt_mix(seed, (uint64_t)k), &tr.rr, &r, &tr.jo, st, &one);
    if (one.violations) {
        add_violation(out, "as an answer for triangle %d%s: %.400s", k, tr.jo.flat ? " (on a flat edge)" : "", one.why);
    }
}

/* Overlap and distance: the answer (A first) must be valid for one of the
 * extreme triangles. */
static void judge_static(mview* m, uint64_t seed, const diff_answers* r, diff_stats* st, diff_outcome* out,
                         bool verbose)
{
    const diff_case* c = m->c;
    const bool overlap = c->op == OP_OVERLAP;
    ref_real best = INFINITY;
    int nbest = 0;
    for (int t = 0; t < m->nt; ++t) {
        m->sdist[t] = INFINITY;
        if (!m->reach[t] && overlap) {
            continue;
        }
        diff_case tc;
        tri_case(m, t, &tc);
        ref_case rc;
        ref_result rr;
        diff_solve(&tc, &rc, &rr);
        m->sdist[t] = rr.sdist;
        best = fminl(best, rr.sdist);
    }
    const ref_real band = (ref_real)SW_TOLERANCE * m->scale;
    const bool lib_yes = overlap ? r->o.overlapping : true;
    if (overlap && !lib_yes) {
        if (best < -band) {
            add_violation(out, "not overlapping; a triangle is penetrated %.9Lg deep (band %.3Lg)", -best, band);
        }
        if (r->o.depth != 0 || r->o.normal.x != 0 || r->o.normal.y != 0 || r->o.normal.z != 0) {
            add_violation(out, "not overlapping with non-zero fields");
        }
        return;
    }
    if (!(best < INFINITY)) {
        add_violation(out, "%s reported, and no triangle is within reach", overlap ? "an overlap" : "a distance");
        return;
    }
    diff_outcome first = {0};
    diff_stats first_st = {0};
    bool passed = false;
    int first_t = -1;
    /* Overlap: the deepest; distance: the closest, every touching one
     * alike (distance 0). */
    const ref_real limit = overlap ? best + 2 * band : fmaxl(best, 0) + 2 * band;
    for (int t = 0; t < m->nt && !passed; ++t) {
        if (!(m->sdist[t] <= limit)) {
            continue;
        }
        ++nbest;
        tri_ref tr;
        tri_case(m, t, &tr.c);
        ref_case rc;
        diff_solve(&tr.c, &rc, &tr.rr);
        memset(&tr.jo, 0, sizeof tr.jo);
        tr.jo.scale = m->scale;
        diff_outcome one = {0};
        diff_stats one_st = {0};
        diff_judge(&tr.c, swt_mix(seed, (uint64_t)t), &tr.rr, r, &tr.jo, &one_st, &one);
        if (verbose) {
            printf("  triangle %d: sdist %.12Lg: %s\n", t, m->sdist[t], one.violations ? one.why : "ok");
        }
        if (one.violations == 0) {
            passed = true;
            first_st = one_st;
        } else if (first.violations == 0) {
            first = one;
            first_st = one_st;
            first_t = t;
        }
    }
    st->time = fmax(st->time, first_st.time);
    st->point = fmax(st->point, first_st.point);
    st->depth = fmax(st->depth, first_st.depth);
    st->distance = fmax(st->distance, first_st.distance);
    st->normal = fmax(st->normal, first_st.normal);
    st->normals_checked += first_st.normals_checked;
    if (!passed) {
        add_violation(out, "as an answer for triangle %d (of %d within two bands of the %s): %.400s", first_t, nbest,
                      overlap ? "deepest" : "closest", first.why);
    }
}

void diff_judge_mesh(const diff_case* c, uint64_t case_seed, const diff_answers* r, diff_stats* st, diff_outcome* out,
                     bool verbose)
{
    /* Overlap and distance with the mesh as A: judged as the mirror. */
    diff_case mc;
    diff_answers mr = *r;
    if (c->a.type == SW_SHAPE_MESH) {
        mc = *c;
        mc.a = c->b;
        mc.b = c->a;
        c = &mc;
        mr.o.normal = sw_neg(r->o.normal);
        mr.dr.point_a = r->dr.point_b;
        mr.dr.point_b = r->dr.point_a;
    }
    mview m;
    if (!mview_init(&m, c)) {
        add_violation(out, "the mesh's placed triangles are unavailable");
        mview_free(&m);
        return;
    }
    find_reach(&m);
    if (verbose) {
        printf("  mesh %s: %d triangles, one_sided %d, query scale %.6Lg\n", c->mesh_family ? c->mesh_family : "?",
               m.nt, (int)c->b.mesh.one_sided, m.scale);
    }
    if (c->op == OP_SWEEP || c->op == OP_RAYCAST) {
        judge_sweep(&m, case_seed, &mr.h, st, out, verbose);
    } else {
        judge_static(&m, case_seed, &mr, st, out, verbose);
    }
    mview_free(&m);
}
