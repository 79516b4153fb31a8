/* Convex hulls (sw_hull_create): every hull is checked against the input
 * by brute force (check_hull), on hand-made solids (a cube hidden among
 * points on its faces, edges and inside, a tetrahedron), seeded random
 * clouds compared with a brute-force list of extreme points, nearly
 * coplanar and long thin sets, sets far from the origin, the Stanford bunny,
 * and every error. tol = SW_TOLERANCE * the largest |coordinate|, as
 * documented in sweep/hull.h. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmocka_support.h"

typedef long double ld;

static double max_coord(const sw_vec3* p, int n)
{
    double m = 0;
    for (int i = 0; i < n; ++i) {
        m = fmax(m, (double)sw_max_abs(p[i]));
    }
    return m;
}

/* Slack for the rounding of the stored normal and offset to sw_real. */
static double rounding_slack(double scale) { return 16 * (double)SW_EPSILON * scale; }

static ld face_distance(const sw_hull_face* f, sw_vec3 p)
{
    return (ld)f->normal.x * p.x + (ld)f->normal.y * p.y + (ld)f->normal.z * p.z - (ld)f->offset;
}

/* How far outside the hull's face planes the input goes, in units of tol
 * (filled by check_hull; the worst over a test run is printed). */
static double worst_outside = 0, worst_vertex = 0;

/* The case being checked, named in every failure of check_hull (set by
 * the tests that loop over many sets), and its points, written to
 * hull-failure.txt (x y z per line) on a failure so it can be replayed. */
static char current_case[128] = "";
static const sw_vec3* current_points;
static int current_count;

static void write_failure(void)
{
    FILE* f = current_points ? fopen("hull-failure.txt", "w") : NULL;
    if (f) {
        for (int i = 0; i < current_count; ++i) {
            fprintf(f, "%.17g %.17g %.17g\n", (double)current_points[i].x, (double)current_points[i].y,
                    (double)current_points[i].z);
        }
        fclose(f);
        print_error("(its points are in hull-failure.txt)\n");
    }
}

#define HULL_FAIL(...)                                                                                                 \
    do {                                                                                                               \
        print_error("in %s:\n", current_case[0] ? current_case : "this test");                                         \
        write_failure();                                                                                               \
        fail_msg(__VA_ARGS__);                                                                                         \
    } while (0)

/* ---- convexity of a face within tol ------------------------------------- */

typedef struct pt2 {
    ld x, y;
} pt2;

static int cmp_pt2(const void* pa, const void* pb)
{
    const pt2* a = pa;
    const pt2* b = pb;
    if (a->x != b->x) {
        return a->x < b->x ? -1 : 1;
    }
    return (a->y > b->y) - (a->y < b->y);
}

static ld cross2(pt2 o, pt2 a, pt2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

static ld segment_distance(pt2 p, pt2 a, pt2 b)
{
    const ld dx = b.x - a.x, dy = b.y - a.y, len_sq = dx * dx + dy * dy;
    ld t = len_sq > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len_sq : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    const ld ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
    return sqrtl(ex * ex + ey * ey);
}

/* A face is convex within tol when its loop, projected on its plane, winds
 * once counter-clockwise about the normal and every vertex lies within tol
 * of the boundary of the 2-D convex hull of the loop's vertices (a corner
 * that turns inward dents the boundary by less than tol). */
static void check_face_convex(const sw_hull* h, int f, double tol)
{
    const sw_hull_face* face = &h->faces[f];
    const int n = face->count;
    const int* c = h->face_vertices + face->first;
    /* A basis (u, w) of the plane with u x w = normal. */
    const ld nz[3] = {face->normal.x, face->normal.y, face->normal.z};
    const int k = fabsl(nz[0]) < 0.6L ? 0 : (fabsl(nz[1]) < 0.6L ? 1 : 2);
    ld u[3] = {0, 0, 0};
    u[k] = 1;
    const ld dot = u[0] * nz[0] + u[1] * nz[1] + u[2] * nz[2];
    for (int i = 0; i < 3; ++i) {
        u[i] -= dot * nz[i];
    }
    const ld ul = sqrtl(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; ++i) {
        u[i] /= ul;
    }
    const ld w[3] = {nz[1] * u[2] - nz[2] * u[1], nz[2] * u[0] - nz[0] * u[2], nz[0] * u[1] - nz[1] * u[0]};
    pt2* loop = malloc((size_t)n * sizeof *loop);
    pt2* sorted = malloc((size_t)n * sizeof *sorted);
    pt2* hull = malloc((size_t)(2 * n + 1) * sizeof *hull);
    assert_true(loop && sorted && hull);
    const sw_vec3 o = h->vertices[c[0]];
    for (int j = 0; j < n; ++j) {
        const sw_vec3 v = h->vertices[c[j]];
        const ld d[3] = {(ld)v.x - o.x, (ld)v.y - o.y, (ld)v.z - o.z};
        loop[j] = (pt2){d[0] * u[0] + d[1] * u[1] + d[2] * u[2], d[0] * w[0] + d[1] * w[1] + d[2] * w[2]};
        sorted[j] = loop[j];
    }
    /* Andrew's monotone chain, counter-clockwise. */
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_pt2);
    int m = 0;
    for (int j = 0; j < n; ++j) {
        while (m >= 2 && cross2(hull[m - 2], hull[m - 1], sorted[j]) <= 0) {
            --m;
        }
        hull[m++] = sorted[j];
    }
    for (int j = n - 2, lower = m + 1; j >= 0; --j) {
        while (m >= lower && cross2(hull[m - 2], hull[m - 1], sorted[j]) <= 0) {
            --m;
        }
        hull[m++] = sorted[j];
    }
    --m;
    ld hull_area = 0, loop_area = 0, perimeter = 0;
    for (int j = 0; j < m; ++j) {
        hull_area += cross2(hull[0], hull[j], hull[(j + 1) % m]) / 2;
    }
    for (int j = 0; j < n; ++j) {
        loop_area += cross2(loop[0], loop[j], loop[(j + 1) % n]) / 2;
        const ld dx = loop[(j + 1) % n].x - loop[j].x, dy = loop[(j + 1) % n].y - loop[j].y;
        perimeter += sqrtl(dx * dx + dy * dy);
        ld dist = INFINITY;
        for (int i = 0; i < m; ++i) {
            dist = fminl(dist, segment_distance(loop[j], hull[i], hull[(i + 1) % m]));
        }
        if (!(dist <= tol)) {
            HULL_FAIL("face %d is not convex: vertex %d is %.3g inside the hull of the face's vertices (tol %.3g)", f,
                      c[j], (double)dist, tol);
        }
    }
    /* Counter-clockwise, once around: the loop's area is the hull's (less
     * the dents). */
    if (!(loop_area > 0 && hull_area - loop_area <= tol * perimeter)) {
        HULL_FAIL("face %d: its loop has area %.6Lg, the hull of its vertices %.6Lg", f, loop_area, hull_area);
    }
    free(loop);
    free(sorted);
    free(hull);
}

/* Everything the header promises, checked by brute force against the
 * input points:
 * - Euler's formula, vertices = input points (exact values, source
 *   increasing), every vertex on at least 3 edges;
 * - edges sorted, v[0] < v[1], face[0] running v[0] -> v[1] and face[1]
 *   v[1] -> v[0];
 * - faces read from their smallest vertex, sorted, unit normals, offsets
 *   the mean of normal . v, every vertex within tol of the plane, convex
 *   within tol (check_face_convex), outward (every vertex of the hull below
 *   every face plane within tol);
 * - every input point below every face plane within tol (1.1 tol: the
 *   stored planes are rounded);
 * - center the bounding-box centre, radius bounding every vertex. */
static void check_hull(const sw_hull* h, const sw_vec3* pts, int n)
{
    assert_non_null(h);
    const double scale = max_coord(pts, n);
    const double tol = (double)SW_TOLERANCE * scale;
    const double slack = rounding_slack(scale);
    const int V = h->vertex_count, E = h->edge_count, F = h->face_count;
    assert_true(V >= 4 && F >= 4 && E >= 6);
    assert_true(V <= SW_MAX_HULL_VERTICES);
    if (V - E + F != 2) {
        HULL_FAIL("Euler: V %d - E %d + F %d != 2", V, E, F);
    }
    for (int i = 0; i < V; ++i) {
        assert_true(h->source[i] >= 0 && h->source[i] < n);
        if (i > 0) {
            assert_true(h->source[i] > h->source[i - 1]);
        }
        const sw_vec3 v = h->vertices[i], s = pts[h->source[i]];
        assert_true(v.x == s.x && v.y == s.y && v.z == s.z);
    }

    /* Faces: loops, order, planes. */
    int corners = 0;
    for (int f = 0; f < F; ++f) {
        const sw_hull_face* face = &h->faces[f];
        assert_true(face->count >= 3);
        assert_int_equal(face->first, corners);
        corners += face->count;
        const int* c = h->face_vertices + face->first;
        for (int j = 0; j < face->count; ++j) {
            assert_true(c[j] >= 0 && c[j] < V);
            if (j > 0) {
                assert_true(c[j] > c[0]); /* read from the smallest */
            }
            for (int k = 0; k < j; ++k) {
                assert_true(c[k] != c[j]);
            }
        }
        if (f > 0) {
            const int* p = h->face_vertices + h->faces[f - 1].first;
            assert_true(p[0] < c[0] || (p[0] == c[0] && p[1] < c[1]));
        }
        assert_unit(face->normal);
        ld mean = 0;
        for (int j = 0; j < face->count; ++j) {
            const sw_vec3 v = h->vertices[c[j]];
            mean += (ld)face->normal.x * v.x + (ld)face->normal.y * v.y + (ld)face->normal.z * v.z;
        }
        mean /= face->count;
        assert_near((double)mean, face->offset, slack);
        for (int j = 0; j < face->count; ++j) {
            const ld d = face_distance(face, h->vertices[c[j]]);
            if (!(fabsl(d) <= tol + slack)) {
                HULL_FAIL("face %d: vertex %d is %.3g off the plane (tol %.3g)", f, c[j], (double)d, tol);
            }
        }
        check_face_convex(h, f, tol + slack);
        /* Outward: the whole hull below the plane. */
        for (int i = 0; i < V; ++i) {
            const ld d = face_distance(face, h->vertices[i]);
            if (tol > 0) {
                worst_vertex = fmax(worst_vertex, (double)(d / tol));
            }
            if (!(d <= tol + slack)) {
                HULL_FAIL("face %d: vertex %d is %.3g above it (tol %.3g)", f, i, (double)d, tol);
            }
        }
    }
    assert_int_equal(corners, 2 * E);

    /* Edges: sorted, and consistent with the faces' loops. */
    int* degree = calloc((size_t)V, sizeof *degree);
    assert_non_null(degree);
    for (int i = 0; i < E; ++i) {
        const sw_hull_edge* e = &h->edges[i];
        assert_true(e->v[0] >= 0 && e->v[0] < e->v[1] && e->v[1] < V);
        if (i > 0) {
            const sw_hull_edge* p = &h->edges[i - 1];
            assert_true(p->v[0] < e->v[0] || (p->v[0] == e->v[0] && p->v[1] < e->v[1]));
        }
        ++degree[e->v[0]];
        ++degree[e->v[1]];
        for (int s = 0; s < 2; ++s) {
            const int f = e->face[s];
            assert_true(f >= 0 && f < F);
            const int* c = h->face_vertices + h->faces[f].first;
            const int count = h->faces[f].count;
            const int from = e->v[s], to = e->v[1 - s];
            bool found = false;
            for (int j = 0; j < count; ++j) {
                found = found || (c[j] == from && c[(j + 1) % count] == to);
            }
            if (!found) {
                HULL_FAIL("edge %d (%d-%d): face[%d] = %d does not run %d -> %d", i, e->v[0], e->v[1], s, f, from, to);
            }
        }
        assert_true(e->face[0] != e->face[1]);
    }
    for (int i = 0; i < V; ++i) {
        if (degree[i] < 3) {
            HULL_FAIL("vertex %d is on %d edges", i, degree[i]);
        }
    }
    free(degree);

    /* The input inside the hull. */
    for (int i = 0; i < n; ++i) {
        for (int f = 0; f < F; ++f) {
            const double d = (double)face_distance(&h->faces[f], pts[i]);
            if (tol > 0) {
                worst_outside = fmax(worst_outside, d / tol);
            }
            if (!(d <= 1.1 * tol + slack)) {
                HULL_FAIL("input point %d is %.3g above face %d (tol %.3g)", i, d, f, tol);
            }
        }
    }

    /* Bounds. */
    sw_vec3 lo = h->vertices[0], hi = lo;
    for (int i = 1; i < V; ++i) {
        lo = sw_vmin(lo, h->vertices[i]);
        hi = sw_vmax(hi, h->vertices[i]);
    }
    assert_vec_near(sw_scale(sw_add(lo, hi), SW_R(0.5)), h->center, slack);
    for (int i = 0; i < V; ++i) {
        const sw_vec3 v = h->vertices[i], c = h->center;
        const ld d[3] = {(ld)v.x - c.x, (ld)v.y - c.y, (ld)v.z - c.z};
        assert_true(sqrtl(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) <= (ld)h->radius);
    }
}

static sw_hull* create_ok(const sw_vec3* pts, int n)
{
    sw_hull_error err = SW_HULL_OUT_OF_MEMORY;
    sw_hull* h = sw_hull_create(pts, n, &err);
    if (!h) {
        fail_msg("sw_hull_create(%d points): %s", n, sw_hull_error_string(err));
    }
    assert_int_equal(err, SW_HULL_OK);
    check_hull(h, pts, n);
    return h;
}

static void check_error(const sw_vec3* pts, int n, sw_hull_error want)
{
    sw_hull_error err = SW_HULL_OK;
    sw_hull* h = sw_hull_create(pts, n, &err);
    if (h || err != want) {
        fail_msg("expected error \"%s\", got %s \"%s\"", sw_hull_error_string(want), h ? "a hull and" : "",
                 sw_hull_error_string(err));
    }
    /* And without an error pointer. */
    assert_null(sw_hull_create(pts, n, NULL));
}

/* Index of the vertex with these coordinates, or -1. */
static int find_vertex(const sw_hull* h, sw_vec3 p)
{
    for (int i = 0; i < h->vertex_count; ++i) {
        const sw_vec3 v = h->vertices[i];
        if (v.x == p.x && v.y == p.y && v.z == p.z) {
            return i;
        }
    }
    return -1;
}

static void shuffle(swt_rng* rng, sw_vec3* p, int n)
{
    for (int i = n - 1; i > 0; --i) {
        const int j = swt_rng_int(rng, i + 1);
        const sw_vec3 t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* ---- hand-made solids -------------------------------------------------------- */

/* Corner i of the box: bit k set means +half on axis k (the box numbering). */
static sw_vec3 corner(sw_vec3 c, sw_vec3 half, int i)
{
    return sw_v3(c.x + ((i & 1) ? half.x : -half.x), c.y + ((i & 2) ? half.y : -half.y),
                 c.z + ((i & 4) ? half.z : -half.z));
}

/* The corners alone, in the box numbering: the documented numbering of
 * vertices, edges and faces, spelt out. */
static void cube_numbering(void** state)
{
    (void)state;
    sw_vec3 pts[8];
    for (int i = 0; i < 8; ++i) {
        pts[i] = corner(V(0, 0, 0), V(1, 1, 1), i);
    }
    sw_hull* h = create_ok(pts, 8);
    assert_int_equal(h->vertex_count, 8);
    assert_int_equal(h->edge_count, 12);
    assert_int_equal(h->face_count, 6);
    static const int faces[6][4] = {{0, 1, 5, 4}, {0, 2, 3, 1}, {0, 4, 6, 2}, {1, 3, 7, 5}, {2, 6, 7, 3}, {4, 5, 7, 6}};
    static const float normals[6][3] = {{0, -1, 0}, {0, 0, -1}, {-1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int f = 0; f < 6; ++f) {
        assert_int_equal(h->faces[f].count, 4);
        for (int j = 0; j < 4; ++j) {
            assert_int_equal(h->face_vertices[h->faces[f].first + j], faces[f][j]);
        }
        assert_vec_near(V(normals[f][0], normals[f][1], normals[f][2]), h->faces[f].normal, 0);
        assert_near(1, h->faces[f].offset, 0);
    }
    static const int edges[12][4] = {{0, 1, 0, 1}, {0, 2, 1, 2}, {0, 4, 2, 0}, {1, 3, 3, 1},
                                     {1, 5, 0, 3}, {2, 3, 1, 4}, {2, 6, 4, 2}, {3, 7, 3, 4},
                                     {4, 5, 5, 0}, {4, 6, 2, 5}, {5, 7, 5, 3}, {6, 7, 4, 5}};
    for (int i = 0; i < 12; ++i) {
        assert_int_equal(h->edges[i].v[0], edges[i][0]);
        assert_int_equal(h->edges[i].v[1], edges[i][1]);
        assert_int_equal(h->edges[i].face[0], edges[i][2]);
        assert_int_equal(h->edges[i].face[1], edges[i][3]);
    }
    assert_vec_near(V(0, 0, 0), h->center, 0);
    assert_near(sqrt(3.0), h->radius, 4 * SW_EPSILON);
    sw_hull_destroy(h);
}

/* A box hidden among points on its faces and edges, inside it, and
 * duplicates (of corners too), in random order: 8 vertices, 12 edges,
 * 6 quads, whatever the order and wherever the box is. The points keep a
 * tenth of the box away from its corners (a point within tol of a corner
 * could stand for it). */
static int cube_with_clutter(swt_rng* rng, sw_vec3 c, sw_vec3 half, sw_vec3* out)
{
    int n = 0;
    for (int i = 0; i < 8; ++i) {
        out[n++] = corner(c, half, i);
    }
    const sw_real hv[3] = {half.x, half.y, half.z};
    const sw_real cv[3] = {c.x, c.y, c.z};
    for (int i = 0; i < 300; ++i) {
        sw_real p[3];
        for (int k = 0; k < 3; ++k) {
            p[k] = cv[k] + (sw_real)swt_rng_range(rng, -0.9, 0.9) * hv[k];
        }
        const int kind = i % 3; /* inside, on a face, on an edge */
        const int axis = swt_rng_int(rng, 3);
        if (kind >= 1) {
            p[axis] = cv[axis] + (swt_rng_chance(rng, 0.5) ? hv[axis] : -hv[axis]);
        }
        if (kind == 2) {
            const int other = (axis + 1 + swt_rng_int(rng, 2)) % 3;
            p[other] = cv[other] + (swt_rng_chance(rng, 0.5) ? hv[other] : -hv[other]);
        }
        out[n++] = sw_v3(p[0], p[1], p[2]);
    }
    for (int i = 0; i < 40; ++i) {
        const int j = swt_rng_int(rng, n);
        out[n++] = out[j];
    }
    shuffle(rng, out, n);
    return n;
}

static void check_box_hull(const sw_hull* h, sw_vec3 c, sw_vec3 half, const sw_vec3* pts, int n)
{
    assert_int_equal(h->vertex_count, 8);
    assert_int_equal(h->edge_count, 12);
    assert_int_equal(h->face_count, 6);
    for (int f = 0; f < 6; ++f) {
        assert_int_equal(h->faces[f].count, 4);
    }
    for (int i = 0; i < 8; ++i) {
        const int v = find_vertex(h, corner(c, half, i));
        assert_true(v >= 0);
        /* The first of duplicate input points. */
        for (int j = 0; j < h->source[v]; ++j) {
            assert_false(pts[j].x == h->vertices[v].x && pts[j].y == h->vertices[v].y && pts[j].z == h->vertices[v].z);
        }
    }
    (void)n;
}

static void cube_among_face_edge_and_inner_points(void** state)
{
    (void)state;
    swt_rng rng;
    swt_rng_seed(&rng, swt_hash_str("cube_among_face_edge_and_inner_points"));
    sw_vec3 pts[400];
    for (int trial = 0; trial < 50; ++trial) {
        const sw_vec3 c = trial == 0 ? V(0, 0, 0) : V(swt_rng_range(&rng, -5, 5), swt_rng_range(&rng, -5, 5), 0);
        const sw_vec3 half = trial == 0 ? V(1, 1, 1) : V(swt_rng_range(&rng, 0.5, 2), 1, swt_rng_range(&rng, 0.1, 3));
        const int n = cube_with_clutter(&rng, c, half, pts);
        sw_hull* h = create_ok(pts, n);
        check_box_hull(h, c, half, pts, n);
        sw_hull_destroy(h);
    }
}

static void tetrahedron(void** state)
{
    (void)state;
    const sw_vec3 pts[4] = {V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), V(0, 0, 1)};
    sw_hull* h = create_ok(pts, 4);
    assert_int_equal(h->vertex_count, 4);
    assert_int_equal(h->edge_count, 6);
    assert_int_equal(h->face_count, 4);
    /* Faces from vertex 0: 0-1-3 (y = 0), 0-2-1 (z = 0), 0-3-2 (x = 0),
     * then 1-2-3. */
    static const int faces[4][3] = {{0, 1, 3}, {0, 2, 1}, {0, 3, 2}, {1, 2, 3}};
    for (int f = 0; f < 4; ++f) {
        for (int j = 0; j < 3; ++j) {
            assert_int_equal(h->face_vertices[h->faces[f].first + j], faces[f][j]);
        }
    }
    const double third = 1 / sqrt(3.0);
    assert_vec_near(V(third, third, third), h->faces[3].normal, 4 * SW_EPSILON);
    assert_near(third, h->faces[3].offset, 4 * SW_EPSILON);
    sw_hull_destroy(h);

    /* The same with a point inside and one on a face: still 4 vertices,
     * numbered by input order. */
    const sw_vec3 more[6] = {V(0.1, 0.1, 0.1), V(0, 0, 0), V(1, 0, 0), V(0.25, 0.25, 0), V(0, 1, 0), V(0, 0, 1)};
    h = create_ok(more, 6);
    assert_int_equal(h->vertex_count, 4);
    const int source[4] = {1, 2, 4, 5};
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(h->source[i], source[i]);
    }
    sw_hull_destroy(h);
}

/* Within tol of a face: not a vertex; 4 tol outside it: a vertex (a very
 * flat pyramid on the face, not merged into it). */
static void points_near_a_face(void** state)
{
    (void)state;
    sw_vec3 pts[10];
    for (int i = 0; i < 8; ++i) {
        pts[i] = corner(V(0, 0, 0), V(1, 1, 1), i);
    }
    const sw_real tol = SW_TOLERANCE; /* scale 1 */
    /* 0.2 tol: a point found first (it is the highest) becomes a vertex
     * unless the faces around it may merge into the top face, which they
     * may only if that turns no face by more than about tol / 4 rad. */
    pts[8] = V(0.25, -0.375, 1 + 0.2 * tol);
    sw_hull* h = create_ok(pts, 9);
    assert_int_equal(h->vertex_count, 8);
    assert_int_equal(h->face_count, 6);
    sw_hull_destroy(h);
    pts[8] = V(0.25, -0.375, 1 + 4 * tol);
    h = create_ok(pts, 9);
    assert_int_equal(h->vertex_count, 9);
    assert_int_equal(h->face_count, 9);
    sw_hull_destroy(h);
    /* Just outside an edge and a corner, within tol: a valid hull (every
     * point inside within tol, checked by create_ok). They may stay
     * vertices: dropping them would merge sliver faces whose normals turn
     * by far more than the tolerance allows (faces are separating axes). */
    pts[8] = V(1 + 0.4 * tol, 0.2, 1 + 0.4 * tol);
    pts[9] = V(-1 - 0.4 * tol, -1 - 0.4 * tol, -1 - 0.4 * tol);
    h = create_ok(pts, 10);
    assert_in_range(h->vertex_count, 8, 10);
    sw_hull_destroy(h);
}

/* ---- random clouds against brute force ---------------------------------------- */

typedef enum cloud_kind { CLOUD_CUBE, CLOUD_BALL, CLOUD_SPHERE, CLOUD_GAUSS, CLOUD_CLUSTERS, CLOUD_KINDS } cloud_kind;

static sw_vec3 random_point(swt_rng* rng, cloud_kind kind)
{
    double d[3];
    switch (kind) {
    case CLOUD_CUBE:
        return V(swt_rng_range(rng, -1, 1), swt_rng_range(rng, -1, 1), swt_rng_range(rng, -1, 1));
    case CLOUD_BALL:
        swt_rng_dir(rng, d);
        {
            const double r = cbrt(swt_rng_unit(rng));
            return V(r * d[0], r * d[1], r * d[2]);
        }
    case CLOUD_SPHERE:
        swt_rng_dir(rng, d);
        return V(d[0], d[1], d[2]);
    case CLOUD_GAUSS: {
        /* Box-Muller. */
        const double u = 1 - swt_rng_unit(rng), v = swt_rng_unit(rng), w = 1 - swt_rng_unit(rng), x = swt_rng_unit(rng);
        const double r1 = sqrt(-2 * log(u)), r2 = sqrt(-2 * log(w));
        return V(r1 * cos(6.283185307179586 * v), r1 * sin(6.283185307179586 * v), r2 * cos(6.283185307179586 * x));
    }
    case CLOUD_CLUSTERS:
    case CLOUD_KINDS:
        break;
    }
    /* A few tight clusters: near-duplicates, slivers. */
    const int c = swt_rng_int(rng, 4);
    const double cx[4] = {-1, 1, 0.3, 0}, cy[4] = {0, 0.2, 1, -0.7}, cz[4] = {0, 0.5, -0.4, 1};
    const double s = swt_rng_chance(rng, 0.5) ? 1e-3 : 1e-6;
    return V(cx[c] + s * swt_rng_range(rng, -1, 1), cy[c] + s * swt_rng_range(rng, -1, 1),
             cz[c] + s * swt_rng_range(rng, -1, 1));
}

/* The exact hull's vertices by brute force: point i is a vertex when some
 * plane through it and two other points has every other point strictly on
 * one side. Returns false when some such plane is within `margin` of a
 * point (too close to call). */
static bool brute_force_vertices(const sw_vec3* p, int n, double margin, bool* is_vertex)
{
    for (int i = 0; i < n; ++i) {
        is_vertex[i] = false;
    }
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            for (int k = j + 1; k < n; ++k) {
                const ld a[3] = {(ld)p[j].x - p[i].x, (ld)p[j].y - p[i].y, (ld)p[j].z - p[i].z};
                const ld b[3] = {(ld)p[k].x - p[i].x, (ld)p[k].y - p[i].y, (ld)p[k].z - p[i].z};
                ld nrm[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
                const ld len = sqrtl(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
                if (!(len > 0)) {
                    return false;
                }
                ld lo = INFINITY, hi = -INFINITY;
                for (int m = 0; m < n; ++m) {
                    if (m == i || m == j || m == k) {
                        continue;
                    }
                    const ld d = (nrm[0] * ((ld)p[m].x - p[i].x) + nrm[1] * ((ld)p[m].y - p[i].y) +
                                  nrm[2] * ((ld)p[m].z - p[i].z)) /
                                 len;
                    lo = fminl(lo, d);
                    hi = fmaxl(hi, d);
                }
                const bool below = hi<-margin, above = lo> margin;
                const bool near_support = (hi <= margin && hi >= -margin) || (lo <= margin && lo >= -margin);
                if (near_support && !below && !above) {
                    return false;
                }
                if (below || above) {
                    is_vertex[i] = is_vertex[j] = is_vertex[k] = true;
                }
            }
        }
    }
    return true;
}

static void random_clouds_against_brute_force(void** state)
{
    (void)state;
    swt_rng rng;
    swt_rng_seed(&rng, swt_hash_str("random_clouds_against_brute_force"));
    sw_vec3 pts[40], again[40];
    bool is_vertex[40];
    int compared = 0;
    for (int trial = 0; trial < 600; ++trial) {
        const cloud_kind kind = (cloud_kind)(trial % CLOUD_KINDS);
        const int n = 4 + swt_rng_int(&rng, 37);
        for (int i = 0; i < n; ++i) {
            pts[i] = random_point(&rng, kind);
        }
        sw_hull_error err;
        sw_hull* h = sw_hull_create(pts, n, &err);
        if (!h) {
            /* Four or five points may happen to be nearly flat; nothing
             * else may fail. */
            assert_int_equal(err, SW_HULL_FLAT);
            assert_true(n <= 6 || kind == CLOUD_CLUSTERS);
            continue;
        }
        check_hull(h, pts, n);
        const double tol = (double)SW_TOLERANCE * max_coord(pts, n);
        if (brute_force_vertices(pts, n, 8 * tol, is_vertex)) {
            for (int i = 0; i < n; ++i) {
                const bool in_hull = find_vertex(h, pts[i]) >= 0;
                if (in_hull != is_vertex[i]) {
                    fail_msg("trial %d (kind %d, %d points): point %d is %sa vertex of the exact hull but %sof "
                             "sw_hull",
                             trial, (int)kind, n, i, is_vertex[i] ? "" : "not ", in_hull ? "" : "not ");
                }
            }
            /* The same hull, whatever the input order. */
            memcpy(again, pts, (size_t)n * sizeof *pts);
            shuffle(&rng, again, n);
            sw_hull* g = create_ok(again, n);
            assert_int_equal(g->vertex_count, h->vertex_count);
            assert_int_equal(g->face_count, h->face_count);
            for (int i = 0; i < g->vertex_count; ++i) {
                assert_true(find_vertex(h, g->vertices[i]) >= 0);
            }
            sw_hull_destroy(g);
            ++compared;
        }
        sw_hull_destroy(h);
    }
    print_message("random clouds: %d of 600 compared with the brute-force hull\n", compared);
    assert_true(compared > 300);
}

/* Larger clouds, checked by brute force only. */
static void large_random_clouds(void** state)
{
    (void)state;
    swt_rng rng;
    swt_rng_seed(&rng, swt_hash_str("large_random_clouds"));
    enum { N = 3000 };
    sw_vec3* pts = malloc(N * sizeof *pts);
    assert_non_null(pts);
    for (int trial = 0; trial < 40; ++trial) {
        const cloud_kind kind = (cloud_kind)(trial % CLOUD_KINDS);
        const int n = kind == CLOUD_SPHERE ? 200 + swt_rng_int(&rng, 600) : 100 + swt_rng_int(&rng, N - 100);
        for (int i = 0; i < n; ++i) {
            pts[i] = random_point(&rng, kind);
        }
        sw_hull* h = create_ok(pts, n);
        sw_hull_destroy(h);
    }
    free(pts);
}

/* Points on a sphere, rounded to a grid: many exactly coplanar and
 * cospherical quadruples. */
static void grid_rounded_sphere(void** state)
{
    (void)state;
    swt_rng rng;
    swt_rng_seed(&rng, swt_hash_str("grid_rounded_sphere"));
    sw_vec3 pts[500];
    for (int trial = 0; trial < 30; ++trial) {
        const double step = trial % 2 ? 0.125 : 0.25;
        const int n = 50 + swt_rng_int(&rng, 450);
        for (int i = 0; i < n; ++i) {
            double d[3];
            swt_rng_dir(&rng, d);
            pts[i] = V(step * round(2 * d[0] / step), step * round(2 * d[1] / step), step * round(2 * d[2] / step));
        }
        sw_hull* h = create_ok(pts, n);
        sw_hull_destroy(h);
    }
}

/* ---- awkward shapes -------------------------------------------------------------- */

/* A 20 x 20 grid in z = 0 with 1e-9 jitter and an apex: in float the
 * jitter is far below tol and the base is one flat face; in double it is
 * above tol and the base is a bumpy surface, checked by brute force. */
static void nearly_coplanar_grid_with_apex(void** state)
{
    (void)state;
    swt_rng rng;
    swt_rng_seed(&rng, swt_hash_str("nearly_coplanar_grid_with_apex"));
    sw_vec3 pts[401];
    int n = 0;
    for (int i = 0; i < 20; ++i) {
        for (int j = 0; j < 20; ++j) {
            pts[n++] = V(i / 19.0, j / 19.0, swt_rng_range(&rng, -1e-9, 1e-9));
        }
    }
    pts[n++] = V(0.5, 0.5, 1);
    sw_hull* h = create_ok(pts, n);
    assert_true(find_vertex(h, pts[400]) >= 0);
    for (int c = 0; c < 4; ++c) {
        assert_true(find_vertex(h, pts[(c & 1 ? 19 : 0) + (c & 2 ? 380 : 0)]) >= 0);
    }
#ifndef SWEEP_DOUBLE
    assert_int_equal(h->vertex_count, 5);
    assert_int_equal(h->face_count, 5);
#endif
    print_message("grid with 1e-9 jitter and an apex: %d vertices, %d faces\n", h->vertex_count, h->face_count);
    sw_hull_destroy(h);

    /* Jitter of a quarter of tol: always one flat base. */
    n = 0;
    for (int i = 0; i < 20; ++i) {
        for (int j = 0; j < 20; ++j) {
            pts[n++] = V(i / 19.0, j / 19.0, swt_rng_range(&rng, -0.25, 0.25) * SW_TOLERANCE);
        }
    }
    pts[n++] = V(0.5, 0.5, 1);
    h = create_ok(pts, n);
    assert_true(find_vertex(h, pts[400]) >= 0);
    print_message("grid with tol/4 jitter and an apex: %d vertices, %d faces\n", h->vertex_count, h->face_count);
    assert_true(h->vertex_count <= 9);
    sw_hull_destroy(h);
}

/* 1000:1: random points in a long thin box, and the box itself among
 * points inside it. */
static void long_thin_hulls(void** state)
{
    (void)state;
    swt_rng rng;
    swt_rng_seed(&rng, swt_hash_str("long_thin_hulls"));
    sw_vec3 pts[400];
    for (int trial = 0; trial < 20; ++trial) {
        const int n = 20 + swt_rng_int(&rng, 300);
        for (int i = 0; i < n; ++i) {
            pts[i] = V(swt_rng_range(&rng, -500, 500), swt_rng_range(&rng, -0.5, 0.5), swt_rng_range(&rng, -0.5, 0.5));
        }
        sw_hull* h = create_ok(pts, n);
        sw_hull_destroy(h);
        const int m = cube_with_clutter(&rng, V(0, 0, 0), V(500, 0.5, 0.5), pts);
        h = create_ok(pts, m);
        check_box_hull(h, V(0, 0, 0), V(500, 0.5, 0.5), pts, m);
        sw_hull_destroy(h);
    }
}

/* 1e4 from the origin (tol grows with the coordinates: 0.1 in float for a
 * unit-sized hull). */
static void hulls_far_from_the_origin(void** state)
{
    (void)state;
    swt_rng rng;
    swt_rng_seed(&rng, swt_hash_str("hulls_far_from_the_origin"));
    sw_vec3 pts[400];
    const sw_vec3 far = V(1e4, -1e4, 1e4);
    for (int trial = 0; trial < 20; ++trial) {
        const int n = 10 + swt_rng_int(&rng, 300);
        for (int i = 0; i < n; ++i) {
            pts[i] = sw_add(far, sw_scale(random_point(&rng, (cloud_kind)(trial % 3)), 5));
        }
        sw_hull* h = create_ok(pts, n);
        sw_hull_destroy(h);
        const sw_vec3 half = V(2, 3, 4);
        const int m = cube_with_clutter(&rng, far, half, pts);
        h = create_ok(pts, m);
        check_box_hull(h, far, half, pts, m);
        sw_hull_destroy(h);
    }
}

/* Coordinates from tiny to the largest allowed: no overflow, underflow or
 * floating-point exception (the suite traps them). */
static void extreme_scales(void** state)
{
    (void)state;
    const sw_real scales[4] = {SW_R(1e-30), SW_R(1e-12), SW_R(1e12), SW_MAX_COORD / 2};
    swt_rng rng;
    swt_rng_seed(&rng, swt_hash_str("extreme_scales"));
    sw_vec3 pts[400];
    for (int s = 0; s < 4; ++s) {
        const sw_vec3 half = V(scales[s], scales[s] / 2, scales[s] / 4);
        const int m = cube_with_clutter(&rng, V(0, 0, 0), half, pts);
        sw_hull* h = create_ok(pts, m);
        check_box_hull(h, V(0, 0, 0), half, pts, m);
        sw_hull_destroy(h);
        for (int i = 0; i < 100; ++i) {
            pts[i] = sw_scale(random_point(&rng, CLOUD_BALL), scales[s]);
        }
        h = create_ok(pts, 100);
        sw_hull_destroy(h);
    }
}

/* ---- adversarial sets --------------------------------------------------------- */

typedef enum adv_kind {
    ADV_LATTICE,    /* a random subset of a small integer lattice */
    ADV_OCTAHEDRON, /* points on the faces of an octahedron (coplanar up to rounding) */
    ADV_SLAB,       /* a slab a few tol thick */
    ADV_JITTER,     /* a box with points on its faces jittered by about tol */
    ADV_CAP,        /* a sphere sampled so that its faces bulge by about tol */
    ADV_CYLINDER,   /* rings of points at a few heights */
    ADV_LINE,       /* nearly collinear points and a few outliers */
    ADV_REPEATS,    /* a few points repeated many times */
    ADV_ROTATED,    /* a rotated lattice: coplanar up to rounding */
    ADV_KINDS
} adv_kind;

/* Rotates p by the rotation taking z to the unit vector d. */
static sw_vec3 rotate_to(const double d[3], double x, double y, double z)
{
    /* A basis (u, w, d). */
    double u[3] = {fabs(d[0]) < 0.6 ? 1 : 0, fabs(d[0]) < 0.6 ? 0 : 1, 0};
    const double k = u[0] * d[0] + u[1] * d[1] + u[2] * d[2];
    for (int i = 0; i < 3; ++i) {
        u[i] -= k * d[i];
    }
    const double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; ++i) {
        u[i] /= ul;
    }
    const double w[3] = {d[1] * u[2] - d[2] * u[1], d[2] * u[0] - d[0] * u[2], d[0] * u[1] - d[1] * u[0]};
    return V(x * u[0] + y * w[0] + z * d[0], x * u[1] + y * w[1] + z * d[1], x * u[2] + y * w[2] + z * d[2]);
}

/* Fills pts with a set of the given kind; returns its size and sets
 * *must_be_flat / *may_be_flat for slabs. */
static int adversarial_set(swt_rng* rng, adv_kind kind, sw_vec3* pts, int cap, bool* must_be_flat, bool* may_be_flat)
{
    *must_be_flat = false;
    *may_be_flat = false;
    const double tol = (double)SW_TOLERANCE; /* every set has scale about 1 */
    int n = 0;
    switch (kind) {
    case ADV_LATTICE: {
        const int k = 2 + swt_rng_int(rng, 6);
        const double p = swt_rng_range(rng, 0.2, 1);
        for (int i = 0; i <= k; ++i) {
            for (int j = 0; j <= k; ++j) {
                for (int l = 0; l <= k; ++l) {
                    if (n < cap && swt_rng_chance(rng, p)) {
                        pts[n++] = V((double)i / k, (double)j / k, (double)l / k);
                    }
                }
            }
        }
        while (n < 5) {
            pts[n] = V(n & 1, (n >> 1) & 1, n == 4);
            ++n;
        }
        *may_be_flat = true;
        break;
    }
    case ADV_OCTAHEDRON: {
        const int m = 10 + swt_rng_int(rng, cap - 10);
        for (int i = 0; i < 6; ++i) {
            pts[n++] =
                V(i == 0 ? 1 : (i == 1 ? -1 : 0), i == 2 ? 1 : (i == 3 ? -1 : 0), i == 4 ? 1 : (i == 5 ? -1 : 0));
        }
        while (n < m) {
            double a = swt_rng_unit(rng), b = swt_rng_unit(rng);
            if (a + b > 1) {
                a = 1 - a;
                b = 1 - b;
            }
            const double c = 1 - a - b;
            pts[n++] = V(swt_rng_sign(rng) * a, swt_rng_sign(rng) * b, swt_rng_sign(rng) * c);
        }
        break;
    }
    case ADV_SLAB: {
        static const double thickness[] = {0.2, 0.45, 2.5, 3, 5, 10, 100};
        const double t = thickness[swt_rng_int(rng, 7)] * tol;
        const double d[3] = {0, 0, 1};
        double dir[3];
        swt_rng_dir(rng, dir);
        const bool tilt = swt_rng_chance(rng, 0.5);
        const int m = 4 + swt_rng_int(rng, cap - 4);
        for (int i = 0; i < m; ++i) {
            const double x = swt_rng_range(rng, -0.7, 0.7), y = swt_rng_range(rng, -0.7, 0.7);
            /* Half the points on each face of the slab, so it really is t
             * thick. */
            const double z = (i % 2 ? t / 2 : -t / 2) * (i < 8 ? 1 : swt_rng_unit(rng));
            pts[n++] = rotate_to(tilt ? dir : d, x, y, z);
        }
        /* Thickness below tol / 2 (everything within tol / 4 of the mid
         * plane, after rounding): flat. Above 2 tol: a hull. */
        *must_be_flat = t <= 0.5 * tol;
        *may_be_flat = !(t >= 2 * tol) || n < 12;
        break;
    }
    case ADV_JITTER: {
        const double j = swt_rng_range(rng, 0.05, 3) * tol;
        for (int i = 0; i < 8; ++i) {
            pts[n++] = corner(V(0, 0, 0), V(1, 0.75, 0.5), i);
        }
        const int m = 10 + swt_rng_int(rng, cap - 10);
        while (n < m) {
            const int axis = swt_rng_int(rng, 3);
            const double h[3] = {1, 0.75, 0.5};
            double c[3];
            for (int k = 0; k < 3; ++k) {
                c[k] = swt_rng_range(rng, -h[k], h[k]);
            }
            c[axis] = swt_rng_sign(rng) * h[axis] + swt_rng_range(rng, -j, j);
            pts[n++] = V(c[0], c[1], c[2]);
        }
        break;
    }
    case ADV_CAP: {
        /* Spacing s on a sphere of radius r bulges faces by s^2 / 8r. */
        const double bulge = swt_rng_range(rng, 0.2, 5) * tol;
        const int m = 20 + swt_rng_int(rng, cap - 20);
        const double spacing = sqrt(4 * 3.14159 / m);
        const double r = fmin(1, spacing * spacing / (8 * bulge));
        for (int i = 0; i < m; ++i) {
            double d[3];
            swt_rng_dir(rng, d);
            pts[n++] = V(r * d[0], r * d[1], r * d[2]);
        }
        pts[0] = V(0, 0, 1); /* scale 1 */
        *may_be_flat = false;
        break;
    }
    case ADV_CYLINDER: {
        const int rings = 2 + swt_rng_int(rng, 4), per = 3 + swt_rng_int(rng, 40);
        const double jit = swt_rng_chance(rng, 0.5) ? 0 : swt_rng_range(rng, 0, 2) * tol;
        for (int r = 0; r < rings && n + per <= cap; ++r) {
            const double z = -1 + 2.0 * r / (rings - 1), phase = swt_rng_unit(rng);
            for (int i = 0; i < per; ++i) {
                const double a = 6.283185307179586 * (i + phase) / per;
                pts[n++] = V(cos(a) + swt_rng_range(rng, -jit, jit), sin(a), z);
            }
        }
        break;
    }
    case ADV_LINE: {
        const int m = 10 + swt_rng_int(rng, cap - 10);
        double d[3];
        swt_rng_dir(rng, d);
        const double spread = swt_rng_range(rng, 0, 4) * tol;
        for (int i = 0; i < m; ++i) {
            const double t = swt_rng_range(rng, -1, 1);
            pts[n++] = V(t * d[0] + swt_rng_range(rng, -spread, spread), t * d[1] + swt_rng_range(rng, -spread, spread),
                         t * d[2] + swt_rng_range(rng, -spread, spread));
        }
        for (int i = 0; i < 4; ++i) {
            pts[swt_rng_int(rng, n)] = random_point(rng, CLOUD_BALL);
        }
        *may_be_flat = true;
        break;
    }
    case ADV_REPEATS: {
        const int distinct = 4 + swt_rng_int(rng, 12);
        for (int i = 0; i < distinct; ++i) {
            pts[n++] = random_point(rng, CLOUD_CUBE);
        }
        while (n < cap) {
            pts[n] = pts[swt_rng_int(rng, distinct)];
            ++n;
        }
        *may_be_flat = true;
        break;
    }
    case ADV_ROTATED: {
        const int k = 2 + swt_rng_int(rng, 5);
        double d[3];
        swt_rng_dir(rng, d);
        for (int i = 0; i <= k; ++i) {
            for (int j = 0; j <= k; ++j) {
                for (int l = 0; l <= k; ++l) {
                    if (n < cap && swt_rng_chance(rng, 0.6)) {
                        pts[n++] = rotate_to(d, (double)i / k - 0.5, (double)j / k - 0.5, (double)l / k - 0.5);
                    }
                }
            }
        }
        *may_be_flat = true;
        break;
    }
    case ADV_KINDS:
        break;
    }
    shuffle(rng, pts, n);
    return n;
}

static int env_int(const char* name, int fallback)
{
    const char* v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

/* Every kind of awkward set gives a valid hull or, for sets that may be
 * flat, SW_HULL_FLAT. For a soak, HULL_TRIALS=N in the environment runs N
 * trials per kind instead of 40, and HULL_SEED=S changes the sets; a
 * failing set is written to hull-failure.txt. */
static void adversarial_sets(void** state)
{
    (void)state;
    swt_rng rng;
    swt_rng_seed(&rng, swt_hash_str("adversarial_sets") + (uint64_t)env_int("HULL_SEED", 0));
    enum { CAP = 600 };
    sw_vec3* pts = malloc(CAP * sizeof *pts);
    assert_non_null(pts);
    const int trials = env_int("HULL_TRIALS", 40);
    int built[ADV_KINDS] = {0}, flat[ADV_KINDS] = {0};
    for (int t = 0; t < trials; ++t) {
        for (int k = 0; k < ADV_KINDS; ++k) {
            bool must_be_flat, may_be_flat;
            const int n = adversarial_set(&rng, (adv_kind)k, pts, CAP, &must_be_flat, &may_be_flat);
            snprintf(current_case, sizeof current_case, "adversarial kind %d, trial %d (HULL_SEED %d), %d points", k, t,
                     env_int("HULL_SEED", 0), n);
            current_points = pts;
            current_count = n;
            sw_hull_error err;
            sw_hull* h = sw_hull_create(pts, n, &err);
            if (h) {
                if (must_be_flat) {
                    HULL_FAIL("kind %d, trial %d: a hull of a set that is flat", k, t);
                }
                check_hull(h, pts, n);
                ++built[k];
            } else {
                if (err != SW_HULL_FLAT || !(may_be_flat || must_be_flat)) {
                    HULL_FAIL("kind %d, trial %d (%d points): %s", k, t, n, sw_hull_error_string(err));
                }
                ++flat[k];
            }
            sw_hull_destroy(h);
        }
    }
    current_case[0] = '\0';
    current_points = NULL;
    for (int k = 0; k < ADV_KINDS; ++k) {
        print_message("adversarial kind %d: %d hulls, %d flat\n", k, built[k], flat[k]);
    }
    free(pts);
}

/* Builds the hull of fuzzed set i and checks every promise it keeps; a
 * set that gives no hull must have failed with an accepted error:
 * SW_HULL_FLAT in float builds (whose tolerance is 1e7 times larger than
 * double's), and SW_HULL_DEGENERATE where degenerate_ok. */
static void check_fuzzed_set(const char* label, int i, const sw_vec3* p, int n, bool degenerate_ok)
{
    snprintf(current_case, sizeof current_case, "%s %d", label, i);
    current_points = p;
    current_count = n;
    sw_hull_error err;
    sw_hull* h = sw_hull_create(p, n, &err);
    if (h) {
        check_hull(h, p, n);
    } else if (!(degenerate_ok && err == SW_HULL_DEGENERATE) &&
               !(err == SW_HULL_FLAT && sizeof(sw_real) == sizeof(float))) {
        HULL_FAIL("%s %d: %s", label, i, sw_hull_error_string(err));
    }
    print_message("%s %d: %s\n", label, i, h ? "hull" : sw_hull_error_string(err));
    sw_hull_destroy(h);
    current_case[0] = '\0';
    current_points = NULL;
}

/* Two sets fuzzing found (double build) on which quickhull folded at every
 * merge level, even without merges, and the broken hull was returned: a
 * cube's corners with copies 7.68e-12 apart (of a tol of 8e-12), and a
 * cluster 200 across beside points 1.28e12 away. Now either a hull that
 * keeps every promise or SW_HULL_DEGENERATE (in float, whose tolerance is
 * 1e7 times larger, the first gives an ordinary hull and the second is
 * flat: 1e-5 of 1.28e12 is far more than its cluster's 200). */
static void fuzzed_folding_sets(void** state)
{
    (void)state;
    const sw_real z = (sw_real)7.68e-12, w = (sw_real)7.6800000000000012e-12, m = (sw_real)-15.999999999999998;
    const sw_vec3 corners[] = {{0, -16, z},     {-16, 0, -16},   {z, -16, 0},    {-16, z, m},     {0, -16, z},
                               {m, 0, -16},     {z, 0, -16},     {-16, w, 0},    {-16, -16, -16}, {0, 0, -16},
                               {-16, -16, -16}, {-16, -16, -16}, {-16, -16, -16}};
    const sw_real a = (sw_real)-0.001, big = (sw_real)1.28e12;
    const sw_vec3 cluster[] = {{0, big, -120}, {1, -128, 0}, {1.125, -127, 73}, {73, a, a},       {a, a, a},
                               {a, a, a},      {a, a, a},    {big, -120, 1},    {-128, 0, 1.125}, {-127, 73, 73},
                               {73, 73, -42},  {73, 73, 73}, {73, 73, 73},      {73, 0, -16}};
    const struct {
        const sw_vec3* p;
        int n;
    } sets[] = {{corners, (int)(sizeof corners / sizeof corners[0])},
                {cluster, (int)(sizeof cluster / sizeof cluster[0])}};
    for (int i = 0; i < 2; ++i) {
        check_fuzzed_set("fuzzed folding set", i, sets[i].p, sets[i].n, true);
    }
}

/* Sets from fuzzing (double build) with a face narrow across a long span
 * and a vertex far off to its side: faces (0,-65,-15), (7.7e11,0,-65),
 * (7.7e11,1.4e-8,-16), 49 wide at one end and 7.7e11 long, with the
 * vertex (-65,4,7.7e11). The builder's coordinates, relative to the
 * centre, lose the 1.4e-8; the face's plane through the exact vertices
 * turns by that much about the face's long axis and had the far vertex
 * 155 above it (the second set: 2864). The stored planes are the ones the
 * builder checked. */
static void fuzzed_sliver_faces_beside_far_points(void** state)
{
    (void)state;
    const sw_real big = (sw_real)0x1.67e8dc22p+39, big2 = (sw_real)0x1.28a05144p+40;
    const sw_vec3 set13[] = {{10, 0, 2},      {35, -16, 0},
                             {2, 35, 0},      {(sw_real)-0x1.999999999999ap+4, 2, 35},
                             {0, -65, -15},   {big, 0, -65},
                             {big2, big, 0},  {-65, 4, big},
                             {0, -65, 4},     {big, (sw_real)0x1.e8p-27, -16},
                             {-16, -16, -16}, {-16, -16, -16},
                             {-16, -16, -16}};
    const sw_real f = (sw_real)0x1.9000000000001p+5, s = (sw_real)0x1.0000000000001p+4;
    const sw_vec3 set24[] = {
        {-50, 0, f},
        {0, -50, 0},
        {f, 0, (sw_real)-0x1.4p-26},
        {-50, (sw_real)0x1.4000000000001p-26, f},
        {-10, 0, -16},
        {-50, s, f},
        {-16, -50, s},
        {f, -16, -16},
        {s, s, -16},
        {(sw_real)-0x1.4p-24, -50, (sw_real)0x1.4000000000001p-24},
        {f, (sw_real)-0x1.4p-24, -50},
        {(sw_real)-0x1.3ffffffffffffp-24, f, (sw_real)-0x1.638e38e38e38ep+2},
        {-50, (sw_real)0x1.638e38e38e38fp+2, f},
        {(sw_real)-0x1.742692f7cp+43, (sw_real)0x1.9000000000002p+5, (sw_real)0x1.742692f7c0001p+43},
        {(sw_real)-0x1.9p-2, 2, (sw_real)-0x1.8ffffffffffffp-2},
        {(sw_real)-0x1.fffffffffffffp+0, (sw_real)0x1.9p-2, -16},
        {-16, -16, -16},
        {-16, -16, -16},
        {-16, -16, -16},
        {-16, -16, -16},
        {-16, -16, -16},
        {-16, -16, -16},
        {-16, -16, -16},
        {-16, -16, -16}};
    const struct {
        const sw_vec3* p;
        int n;
    } sets[] = {{set13, (int)(sizeof set13 / sizeof set13[0])}, {set24, (int)(sizeof set24 / sizeof set24[0])}};
    /* (In float the second set is within tol, 1.8e8, of a plane.) */
    for (int i = 0; i < 2; ++i) {
        check_fuzzed_set("fuzzed sliver-face set", i, sets[i].p, sets[i].n, false);
    }
}

/* ---- the Stanford bunny ------------------------------------------------------------- */

static int read_obj_vertices(const char* path, sw_vec3** out)
{
    FILE* f = fopen(path, "r");
    if (!f) {
        fail_msg("cannot open %s (the test data must be there)", path);
    }
    int n = 0, cap = 0;
    sw_vec3* v = NULL;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        double x, y, z;
        if (line[0] == 'v' && line[1] == ' ' && sscanf(line + 2, "%lf %lf %lf", &x, &y, &z) == 3) {
            if (n == cap) {
                cap = cap ? 2 * cap : 1024;
                v = realloc(v, (size_t)cap * sizeof *v);
                assert_non_null(v);
            }
            v[n++] = V(x, y, z);
        }
    }
    fclose(f);
    *out = v;
    return n;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void stanford_bunny(void** state)
{
    (void)state;
    sw_vec3* pts = NULL;
    const int n = read_obj_vertices(SWEEP_TEST_DATA_DIR "/bunny.obj", &pts);
    assert_int_equal(n, 1839);
    const int runs = 20;
    double best = INFINITY;
    for (int r = 0; r < runs; ++r) {
        const double t0 = seconds();
        sw_hull* h = sw_hull_create(pts, n, NULL);
        best = fmin(best, seconds() - t0);
        assert_non_null(h);
        sw_hull_destroy(h);
    }
    sw_hull* h = create_ok(pts, n);
    print_message("bunny: %d points -> %d vertices, %d edges, %d faces in %.3f ms (best of %d)\n", n, h->vertex_count,
                  h->edge_count, h->face_count, 1e3 * best, runs);
    sw_hull_destroy(h);
    free(pts);
}

/* ---- errors ------------------------------------------------------------------------- */

static void errors(void** state)
{
    (void)state;
    sw_vec3 pts[8];
    for (int i = 0; i < 8; ++i) {
        pts[i] = corner(V(0, 0, 0), V(1, 1, 1), i);
    }
    check_error(NULL, 8, SW_HULL_TOO_FEW_POINTS);
    check_error(pts, 3, SW_HULL_TOO_FEW_POINTS);
    check_error(pts, 0, SW_HULL_TOO_FEW_POINTS);
    check_error(pts, -5, SW_HULL_TOO_FEW_POINTS);

    sw_vec3* many = calloc(SW_MAX_HULL_POINTS + 1, sizeof *many);
    assert_non_null(many);
    check_error(many, SW_MAX_HULL_POINTS + 1, SW_HULL_TOO_MANY_POINTS);
    free(many);

    const sw_real bad[4] = {(sw_real)NAN, (sw_real)INFINITY, -(sw_real)INFINITY, SW_MAX_COORD * 2};
    for (int b = 0; b < 4; ++b) {
        sw_vec3 p[8];
        memcpy(p, pts, sizeof p);
        p[5].y = bad[b];
        check_error(p, 8, SW_HULL_INVALID_POINT);
    }

    /* Flat: coplanar (a square and its centre), nearly coplanar (within
     * tol / 2; tol = SW_TOLERANCE * 0.5, the square's half-extent),
     * collinear, one point repeated. */
    sw_vec3 flat[8] = {V(0, 0, 0),     V(1, 0, 0),     V(1, 1, 0),     V(0, 1, 0),
                       V(0.5, 0.5, 0), V(0.2, 0.7, 0), V(0.9, 0.1, 0), V(0.3, 0.3, 0)};
    check_error(flat, 8, SW_HULL_FLAT);
    flat[4].z = SW_TOLERANCE / 4;
    flat[6].z = -SW_TOLERANCE / 4;
    check_error(flat, 8, SW_HULL_FLAT);
    /* Tilted: within tol of a plane that no three points span exactly. */
    for (int i = 0; i < 8; ++i) {
        flat[i] = V(flat[i].x, flat[i].y, 0.3 * flat[i].x - 0.2 * flat[i].y + (i % 2 ? 0.2 : -0.2) * SW_TOLERANCE);
    }
    check_error(flat, 8, SW_HULL_FLAT);
    const sw_vec3 line[5] = {V(0, 0, 0), V(1, 1, 1), V(2, 2, 2), V(-3, -3, -3), V(0.5, 0.5, 0.5)};
    check_error(line, 5, SW_HULL_FLAT);
    const sw_vec3 same[5] = {V(1, 2, 3), V(1, 2, 3), V(1, 2, 3), V(1, 2, 3), V(1, 2, 3)};
    check_error(same, 5, SW_HULL_FLAT);
    /* The tolerance follows the hull's extent, not its distance from the
     * origin: a unit cube 1e6 from the origin in float (1e12 in double)
     * is a cube, as it is at the origin. */
    const sw_real far = SW_TOLERANCE > 1e-6 ? SW_R(1e6) : SW_R(1e12);
    sw_vec3 tiny[8];
    for (int i = 0; i < 8; ++i) {
        tiny[i] = corner(V(far, 0, 0), V(0.5, 0.5, 0.5), i);
    }
    sw_hull* cube = create_ok(tiny, 8);
    assert_int_equal(cube->vertex_count, 8);
    assert_int_equal(cube->face_count, 6);
    sw_hull_destroy(cube);

    /* Too many vertices: 2000 points on a sphere. */
    swt_rng rng;
    swt_rng_seed(&rng, swt_hash_str("errors"));
    sw_vec3* sphere = malloc(2000 * sizeof *sphere);
    assert_non_null(sphere);
    for (int i = 0; i < 2000; ++i) {
        sphere[i] = random_point(&rng, CLOUD_SPHERE);
    }
    check_error(sphere, 2000, SW_HULL_TOO_MANY_VERTICES);
    /* ... and 1000 of them are fine. */
    sw_hull* h = create_ok(sphere, 1000);
    assert_int_equal(h->vertex_count, 1000);
    sw_hull_destroy(h);
    free(sphere);

    /* Every error has its own description. */
    const sw_hull_error all[] = {
        SW_HULL_OK,   SW_HULL_TOO_FEW_POINTS,    SW_HULL_TOO_MANY_POINTS, SW_HULL_INVALID_POINT,
        SW_HULL_FLAT, SW_HULL_TOO_MANY_VERTICES, SW_HULL_OUT_OF_MEMORY,   SW_HULL_DEGENERATE};
    const int count = (int)(sizeof all / sizeof all[0]);
    for (int i = 0; i < count; ++i) {
        assert_true(strlen(sw_hull_error_string(all[i])) > 3);
        for (int j = 0; j < i; ++j) {
            assert_string_not_equal(sw_hull_error_string(all[i]), sw_hull_error_string(all[j]));
        }
    }
    assert_string_equal(sw_hull_error_string((sw_hull_error)99), "unknown hull error");
    sw_hull_destroy(NULL);
}

/* Placement: validity of an instance, bounds and support of a placed
 * hull. */
static void placed_hull(void** state)
{
    (void)state;
    sw_vec3 pts[8];
    for (int i = 0; i < 8; ++i) {
        pts[i] = corner(V(0, 0, 0), V(1, 2, 3), i);
    }
    sw_hull* h = create_ok(pts, 8);
    const sw_quat quarter_z = {0, 0, SW_R(0.70710678118654752), SW_R(0.70710678118654752)};
    const sw_shape s = sw_make_hull(h, V(10, 0, 0), quarter_z);
    assert_true(sw_is_valid_shape(&s));
    const sw_aabb b = sw_shape_bounds(&s);
    assert_vec_near(V(8, -1, -3), b.min, 8 * SW_EPSILON * 10);
    assert_vec_near(V(12, 1, 3), b.max, 8 * SW_EPSILON * 10);
    assert_vec_near(V(12, 1, 3), sw_shape_support(&s, V(1, 1, 1)), 8 * SW_EPSILON * 10);
    const sw_shape bad = sw_make_hull(h, V(10, 0, 0), (sw_quat){0, 0, 0, 0});
    assert_false(sw_is_valid_shape(&bad));
    const sw_shape missing = sw_make_hull(NULL, V(0, 0, 0), sw_quat_identity());
    assert_false(sw_is_valid_shape(&missing));
    sw_hull_destroy(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(cube_numbering),
        swt_test(cube_among_face_edge_and_inner_points),
        swt_test(tetrahedron),
        swt_test(points_near_a_face),
        swt_test(random_clouds_against_brute_force),
        swt_test(large_random_clouds),
        swt_test(grid_rounded_sphere),
        swt_test(adversarial_sets),
        swt_test(fuzzed_folding_sets),
        swt_test(fuzzed_sliver_faces_beside_far_points),
        swt_test(nearly_coplanar_grid_with_apex),
        swt_test(long_thin_hulls),
        swt_test(hulls_far_from_the_origin),
        swt_test(extreme_scales),
        swt_test(stanford_bunny),
        swt_test(errors),
        swt_test(placed_hull),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    fprintf(stderr, "largest excursion above a face plane: %.3g tol (input points), %.3g tol (vertices)\n",
            worst_outside, worst_vertex);
    return rc;
}
