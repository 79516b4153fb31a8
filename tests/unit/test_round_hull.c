/* Named cases of the round shapes (point, sphere, segment, capsule) against
 * a placed convex hull (issue 5): sweeps, ray casts, overlap and distance,
 * each drawn so that the exact answer is known by hand.
 *
 * The hulls are filled in by hand from their faces, numbered as hull.h
 * documents (vertices in input order, edges sorted by their vertex pair,
 * faces by their vertex lists read from the smallest index), so the tests
 * depend on the queries only. */
#include <math.h>
#include <string.h>

#include "cmocka_support.h"

static const double TOL = SWT_TOL * 16;

/* ---- hand-built hulls -------------------------------------------------- */

#define MAX_V 8
#define MAX_F 8
#define MAX_E 18

typedef struct hand_hull {
    sw_hull h;
    sw_vec3 v[MAX_V];
    int source[MAX_V];
    sw_hull_edge e[MAX_E];
    sw_hull_face f[MAX_F];
    int fv[MAX_F * MAX_V];
} hand_hull;

static int cmp_lists(const int* a, int na, const int* b, int nb)
{
    for (int i = 0; i < na && i < nb; ++i) {
        if (a[i] != b[i]) {
            return a[i] < b[i] ? -1 : 1;
        }
    }
    return na < nb ? -1 : (na > nb ? 1 : 0);
}

/* A hull from its vertices and faces (each a cycle of vertex indices,
 * -1-terminated, in either winding). */
static void hand_make(hand_hull* out, const sw_vec3* v, int nv, const int faces[][MAX_V + 1], int nf)
{
    memset(out, 0, sizeof *out);
    sw_vec3 lo = v[0], hi = v[0];
    for (int i = 0; i < nv; ++i) {
        out->v[i] = v[i];
        out->source[i] = i;
        lo = sw_vmin(lo, v[i]);
        hi = sw_vmax(hi, v[i]);
    }
    const sw_vec3 c = sw_scale(sw_add(lo, hi), 0.5f);
    /* The vertices' centroid is inside (the box centre need not be). */
    sw_vec3 inside = {0, 0, 0};
    for (int i = 0; i < nv; ++i) {
        inside = sw_add(inside, sw_scale(v[i], (sw_real)1 / (sw_real)nv));
    }
    int lists[MAX_F][MAX_V], counts[MAX_F];
    for (int f = 0; f < nf; ++f) {
        int n = 0;
        while (faces[f][n] >= 0) {
            ++n;
        }
        /* Counter-clockwise seen from outside, starting at the smallest. */
        sw_vec3 normal = {0, 0, 0}, mid = {0, 0, 0};
        for (int k = 0; k < n; ++k) {
            const sw_vec3 p = sw_sub(v[faces[f][k]], inside), q = sw_sub(v[faces[f][(k + 1) % n]], inside);
            normal = sw_add(normal, sw_cross(p, q));
            mid = sw_add(mid, p);
        }
        const bool flip = sw_dot(normal, mid) < 0;
        int start = 0;
        for (int k = 1; k < n; ++k) {
            start = faces[f][k] < faces[f][start] ? k : start;
        }
        for (int k = 0; k < n; ++k) {
            lists[f][k] = faces[f][(start + (flip ? n - k : k)) % n];
        }
        counts[f] = n;
    }
    int order[MAX_F];
    for (int f = 0; f < nf; ++f) {
        order[f] = f;
        for (int j = f;
             j > 0 && cmp_lists(lists[order[j]], counts[order[j]], lists[order[j - 1]], counts[order[j - 1]]) < 0;
             --j) {
            const int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    }
    int used = 0;
    for (int f = 0; f < nf; ++f) {
        const int* l = lists[order[f]];
        const int n = counts[order[f]];
        sw_hull_face* face = &out->f[f];
        face->first = used;
        face->count = n;
        sw_vec3 normal = {0, 0, 0};
        for (int k = 0; k < n; ++k) {
            out->fv[used++] = l[k];
            normal = sw_add(normal, sw_cross(sw_sub(v[l[k]], c), sw_sub(v[l[(k + 1) % n]], c)));
        }
        sw_normalize(&normal);
        face->normal = normal;
        face->offset = sw_dot(normal, v[l[0]]);
    }
    int ne = 0;
    for (int a = 0; a < nv; ++a) {
        for (int b = a + 1; b < nv; ++b) {
            int f0 = -1, f1 = -1;
            for (int f = 0; f < nf; ++f) {
                const int n = out->f[f].count, *l = out->fv + out->f[f].first;
                for (int k = 0; k < n; ++k) {
                    if (l[k] == a && l[(k + 1) % n] == b) {
                        f0 = f;
                    } else if (l[k] == b && l[(k + 1) % n] == a) {
                        f1 = f;
                    }
                }
            }
            if (f0 >= 0 && f1 >= 0) {
                out->e[ne++] = (sw_hull_edge){{a, b}, {f0, f1}};
            }
        }
    }
    sw_real radius = 0;
    for (int i = 0; i < nv; ++i) {
        radius = sw_max(radius, sw_length(sw_sub(v[i], c)));
    }
    out->h = (sw_hull){nv, ne, nf, out->v, out->source, out->e, out->f, out->fv, c, radius};
}

/* The box [c - h, c + h] as a hull; vertex i has bit k set for +h on axis k
 * (the box's own numbering). Faces: 0 -y, 1 -z, 2 -x, 3 +x, 4 +y, 5 +z;
 * edge 7 joins vertices 3 and 7 (x = y = +h). */
static void hand_cuboid(hand_hull* out, sw_vec3 c, sw_vec3 h)
{
    static const int faces[6][MAX_V + 1] = {{0, 2, 6, 4, -1}, {1, 3, 7, 5, -1}, {0, 1, 5, 4, -1},
                                            {2, 3, 7, 6, -1}, {0, 1, 3, 2, -1}, {4, 5, 7, 6, -1}};
    sw_vec3 v[8];
    for (int i = 0; i < 8; ++i) {
        v[i] = sw_add(c, sw_v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z));
    }
    hand_make(out, v, 8, faces, 6);
}

/* The tetrahedron (0,0,0), (2,0,0), (0,2,0), (0,0,2): faces 0 {0,1,2}
 * (z = 0), 1 {0,1,3} (y = 0), 2 {0,2,3} (x = 0), 3 {1,2,3} (x + y + z = 2);
 * edges (0,1) (0,2) (0,3) (1,2) (1,3) (2,3). */
static void hand_tetra(hand_hull* out)
{
    static const int faces[4][MAX_V + 1] = {{0, 1, 2, -1}, {0, 1, 3, -1}, {0, 2, 3, -1}, {1, 2, 3, -1}};
    const sw_vec3 v[4] = {V(0, 0, 0), V(2, 0, 0), V(0, 2, 0), V(0, 0, 2)};
    hand_make(out, v, 4, faces, 4);
}

static hand_hull cube; /* [-1, 1]^3 */

static int setup(void** state)
{
    hand_cuboid(&cube, V(0, 0, 0), V(1, 1, 1));
    return swt_setup(state);
}

#define hull_test(f) cmocka_unit_test_setup(f, setup)

static const sw_quat identity = {0, 0, 0, 1};

/* ---- the numbering the tests rely on ------------------------------------ */

static void cube_numbering_follows_hull_h(void** state)
{
    (void)state;
    const sw_hull* h = &cube.h;
    assert_int_equal(h->vertex_count, 8);
    assert_int_equal(h->edge_count, 12);
    assert_int_equal(h->face_count, 6);
    const sw_vec3 normals[6] = {V(0, -1, 0), V(0, 0, -1), V(-1, 0, 0), V(1, 0, 0), V(0, 1, 0), V(0, 0, 1)};
    for (int f = 0; f < 6; ++f) {
        assert_vec_near(normals[f], h->faces[f].normal, 1e-6);
        assert_near(1, h->faces[f].offset, 1e-6);
    }
    assert_int_equal(h->edges[7].v[0], 3);
    assert_int_equal(h->edges[7].v[1], 7);
    /* Face[0] of an edge runs v[0] -> v[1] counter-clockwise. */
    assert_int_equal(h->edges[7].face[0], 3);
    assert_int_equal(h->edges[7].face[1], 4);
}

/* sw_hull_create numbers the cube's corners, edges and faces as the hand
 * build does, and a query answers the same against either. */
static void created_hull_matches_the_hand_numbering(void** state)
{
    (void)state;
    sw_hull_error err;
    sw_hull* made = sw_hull_create(cube.v, 8, &err);
    assert_non_null(made);
    const sw_hull* h = &cube.h;
    assert_int_equal(made->vertex_count, h->vertex_count);
    assert_int_equal(made->edge_count, h->edge_count);
    assert_int_equal(made->face_count, h->face_count);
    for (int e = 0; e < h->edge_count; ++e) {
        for (int k = 0; k < 2; ++k) {
            assert_int_equal(made->edges[e].v[k], h->edges[e].v[k]);
            assert_int_equal(made->edges[e].face[k], h->edges[e].face[k]);
        }
    }
    for (int f = 0; f < h->face_count; ++f) {
        assert_int_equal(made->faces[f].count, h->faces[f].count);
        for (int k = 0; k < h->faces[f].count; ++k) {
            assert_int_equal(made->face_vertices[made->faces[f].first + k], h->face_vertices[h->faces[f].first + k]);
        }
        assert_vec_near(h->faces[f].normal, made->faces[f].normal, 1e-6);
    }
    const sw_shape a = sw_make_hull(made, V(1, 2, 3), (sw_quat){0.1f, 0.2f, 0.3f, 0.9f});
    const sw_shape b = sw_make_hull(&cube.h, V(1, 2, 3), (sw_quat){0.1f, 0.2f, 0.3f, 0.9f});
    const sw_shape s = sw_make_capsule(V(4, 5, 6), V(3, 6, 7), 0.5f);
    const sw_hit ha = sw_sweep(&s, V(-5, -5, -5), &a, NULL), hb = sw_sweep(&s, V(-5, -5, -5), &b, NULL);
    assert_true(ha.hit && hb.hit);
    assert_near(hb.t, ha.t, 0);
    assert_int_equal(ha.feature.kind, hb.feature.kind);
    assert_int_equal(ha.feature.index, hb.feature.index);
    sw_hull_destroy(made);
}

/* ---- sweeps -------------------------------------------------------------- */

/* A sphere dropped on the top face: the face normal, face 5, the point on
 * the face below the centre; the same answer as the box of the same size. */
static void sphere_hits_a_face(void** state)
{
    (void)state;
    const sw_shape b = sw_make_hull(&cube.h, V(0, 0, 0), identity);
    const sw_shape s = sw_make_sphere(V(0.25, 0.5, 4), 0.5f);
    const sw_hit h = sw_sweep(&s, V(0, 0, -4), &b, NULL);
    assert_true(h.hit && !h.overlapping);
    assert_near(0.625, h.t, TOL);
    assert_vec_near(V(0, 0, 1), h.normal, TOL);
    assert_vec_near(V(0.25, 0.5, 1), h.point, TOL * 4);
    assert_int_equal(h.feature.kind, SW_FEATURE_FACE);
    assert_int_equal(h.feature.index, 5);
    const sw_shape box = sw_make_box(V(0, 0, 0), V(1, 1, 1), identity);
    const sw_hit hb = sw_sweep(&s, V(0, 0, -4), &box, NULL);
    assert_near(hb.t, h.t, TOL);
}

/* A sphere aimed at the edge x = y = 1 along its bisector, and at the
 * corner (1, 1, 1) along the diagonal: edge 7 and vertex 7. */
static void sphere_hits_an_edge_and_a_vertex(void** state)
{
    (void)state;
    const sw_shape b = sw_make_hull(&cube.h, V(0, 0, 0), identity);
    const sw_shape e = sw_make_sphere(V(3, 3, 0.25f), 0.5f);
    const sw_hit he = sw_sweep(&e, V(-3, -3, 0), &b, NULL);
    assert_true(he.hit && !he.overlapping);
    assert_near((2 - 0.5 / sqrt(2.0)) / 3, he.t, TOL);
    assert_vec_near(V(1 / sqrt(2.0), 1 / sqrt(2.0), 0), he.normal, 1e-3);
    assert_vec_near(V(1, 1, 0.25f), he.point, TOL * 4);
    assert_int_equal(he.feature.kind, SW_FEATURE_EDGE);
    assert_int_equal(he.feature.index, 7);
    const sw_shape v = sw_make_sphere(V(3, 3, 3), 0.5f);
    const sw_hit hv = sw_sweep(&v, V(-3, -3, -3), &b, NULL);
    assert_true(hv.hit);
    assert_near((2 - 0.5 / sqrt(3.0)) / 3, hv.t, TOL);
    assert_vec_near(V(1 / sqrt(3.0), 1 / sqrt(3.0), 1 / sqrt(3.0)), hv.normal, 1e-3);
    assert_int_equal(hv.feature.kind, SW_FEATURE_VERTEX);
    assert_int_equal(hv.feature.index, 7);
}

/* Resting on the top face and moving along it: a start in contact with
 * depth 0 and the face normal; with ignore_separating, no hit. */
static void sphere_sliding_along_a_face(void** state)
{
    (void)state;
    const sw_shape b = sw_make_hull(&cube.h, V(0, 0, 0), identity);
    const sw_shape s = sw_make_sphere(V(0, 0, 1.5f), 0.5f);
    const sw_hit h = sw_sweep(&s, V(3, 1, 0), &b, NULL);
    assert_true(h.hit && h.overlapping);
    assert_near(0, h.t, 0);
    assert_near(0, h.depth, TOL);
    assert_vec_near(V(0, 0, 1), h.normal, TOL);
    assert_int_equal(h.feature.kind, SW_FEATURE_FACE);
    assert_int_equal(h.feature.index, 5);
    const sw_sweep_options slide = {0, true};
    assert_miss(sw_sweep(&s, V(3, 1, 0), &b, &slide));
}

/* A capsule parallel to edge 7, moving at it along the bisector: the
 * contact is along the whole edge, the normal bisects its faces. */
static void capsule_parallel_to_an_edge(void** state)
{
    (void)state;
    const sw_shape b = sw_make_hull(&cube.h, V(0, 0, 0), identity);
    const sw_shape c = sw_make_capsule(V(3, 3, -0.5f), V(3, 3, 0.5f), 0.5f);
    const sw_hit h = sw_sweep(&c, V(-3, -3, 0), &b, NULL);
    assert_true(h.hit && !h.overlapping);
    assert_near((2 - 0.5 / sqrt(2.0)) / 3, h.t, TOL);
    assert_vec_near(V(1 / sqrt(2.0), 1 / sqrt(2.0), 0), h.normal, 1e-3);
    assert_int_equal(h.feature.kind, SW_FEATURE_EDGE);
    assert_int_equal(h.feature.index, 7);
}

/* A segment rising to the tetrahedron's base lands on face 0, across the
 * base's edge (1,2); a sphere aimed at that edge from outside hits it. */
static void segment_lands_on_a_tetrahedron_edge(void** state)
{
    (void)state;
    hand_hull t;
    hand_tetra(&t);
    const sw_shape b = sw_make_hull(&t.h, V(0, 0, 0), identity);
    /* Edge (1,2) runs from (2,0,0) to (0,2,0); its midpoint is (1,1,0). The
     * segment crosses it at right angles in the plane z = -1, below face 0
     * (z = 0), and moves up to it: a face contact with face 0. */
    const sw_shape s = sw_make_segment(V(0.5f, 0.5f, -1), V(1.5f, 1.5f, -1));
    const sw_hit h = sw_sweep(&s, V(0, 0, 2), &b, NULL);
    assert_true(h.hit);
    assert_near(0.5, h.t, TOL);
    assert_vec_near(V(0, 0, -1), h.normal, TOL);
    /* The segment reaches past the edge at (1,1): the contact region is
     * the part inside the face; its feature is face 0 or, at the end, the
     * edge. */
    assert_true(h.feature.kind == SW_FEATURE_FACE || h.feature.kind == SW_FEATURE_EDGE);
    /* A sphere moving at the midpoint of edge (1,2) (edge 3) from inside
     * its normal cone ((1,1,-1) = 2 (0,0,-1) + (1,1,1)): the edge. */
    const sw_shape p = sw_make_sphere(V(2, 2, -1), 0.25f);
    const sw_hit he = sw_sweep(&p, V(-1, -1, 1), &b, NULL);
    assert_true(he.hit);
    assert_int_equal(he.feature.kind, SW_FEATURE_EDGE);
    assert_int_equal(he.feature.index, 3);
}

/* A hull placed 1e4 from the origin, rotated, answers as the same query
 * moved there: t the same, normal and point rotated and moved. */
static void hull_far_from_the_origin(void** state)
{
    (void)state;
    const sw_vec3 far = V(1e4, -2e4, 3e4);
    sw_quat q = {0.2f, -0.4f, 0.1f, 0.9f};
    sw_quat_normalize(&q);
    const sw_shape b = sw_make_hull(&cube.h, far, q);
    const sw_vec3 from = sw_add(sw_quat_rotate(q, V(0.25, 0.5, 4)), far);
    const sw_shape s = sw_make_sphere(from, 0.5f);
    const sw_vec3 d = sw_quat_rotate(q, V(0, 0, -4));
    const sw_hit h = sw_sweep(&s, d, &b, NULL);
    assert_true(h.hit && !h.overlapping);
    const double tol = SWT_TOL * 3e4 * 4; /* the contract's tol * scale */
    assert_near(0.625, h.t, tol / 4);
    assert_vec_near(sw_quat_rotate(q, V(0, 0, 1)), h.normal, 1e-3);
    assert_vec_near(sw_add(sw_quat_rotate(q, V(0.25, 0.5, 1)), far), h.point, tol);
    assert_int_equal(h.feature.kind, SW_FEATURE_FACE);
    assert_int_equal(h.feature.index, 5);
    /* The hull's own points 1e4 away, placed back near the origin. */
    hand_hull off;
    hand_cuboid(&off, far, V(1, 1, 1));
    const sw_shape b2 = sw_make_hull(&off.h, sw_neg(far), identity);
    const sw_shape s2 = sw_make_sphere(V(0.25, 0.5, 4), 0.5f);
    const sw_hit h2 = sw_sweep(&s2, V(0, 0, -4), &b2, NULL);
    assert_true(h2.hit);
    assert_near(0.625, h2.t, tol / 4);
    assert_vec_near(V(0, 0, 1), h2.normal, 1e-3);
    assert_int_equal(h2.feature.index, 5);
}

/* A long thin hull (2000 x 2 x 2), rotated: hits on its long face and its
 * far end agree with the box of the same size and rotation. */
static void long_thin_hull_matches_the_box(void** state)
{
    (void)state;
    hand_hull thin;
    hand_cuboid(&thin, V(0, 0, 0), V(1000, 1, 1));
    sw_quat q = {0.3f, 0.1f, -0.2f, 0.8f};
    sw_quat_normalize(&q);
    const sw_shape b = sw_make_hull(&thin.h, V(5, -3, 2), q);
    const sw_shape box = sw_make_box(V(5, -3, 2), V(1000, 1, 1), q);
    const sw_vec3 starts[3] = {V(600, 0.5, 5), V(1003, 0.25, -0.5), V(-999.5, 3, 3)};
    const sw_vec3 moves[3] = {V(0, 0, -6), V(-4, 0, 0), V(0, -4, -4)};
    for (int i = 0; i < 3; ++i) {
        const sw_shape s =
            sw_make_capsule(sw_add(sw_quat_rotate(q, starts[i]), V(5, -3, 2)),
                            sw_add(sw_quat_rotate(q, sw_add(starts[i], V(0.5, 0.5, 0))), V(5, -3, 2)), 0.5f);
        const sw_vec3 d = sw_quat_rotate(q, moves[i]);
        const sw_hit h = sw_sweep(&s, d, &b, NULL), hb = sw_sweep(&s, d, &box, NULL);
        assert_true(h.hit && hb.hit);
        assert_near(hb.t, h.t, SWT_TOL * 1000 * 4 / 6);
        assert_vec_near(hb.normal, h.normal, 1e-3);
        assert_vec_near(hb.point, h.point, SWT_TOL * 1000 * 4);
        assert_int_equal(h.feature.kind, hb.feature.kind);
    }
}

/* A capsule of radius 0 is a segment: the same answers. */
static void zero_radius_capsule_is_a_segment(void** state)
{
    (void)state;
    hand_hull t;
    hand_tetra(&t);
    sw_quat q = {0.1f, 0.2f, 0.3f, 0.9f};
    sw_quat_normalize(&q);
    const sw_shape b = sw_make_hull(&t.h, V(0.5, -0.25, 1), q);
    const sw_shape cap = sw_make_capsule(V(-1, 0.3f, 4), V(1.5f, 0.8f, 4.5f), 0);
    const sw_shape seg = sw_make_segment(V(-1, 0.3f, 4), V(1.5f, 0.8f, 4.5f));
    const sw_hit hc = sw_sweep(&cap, V(0.5f, -0.2f, -6), &b, NULL);
    const sw_hit hs = sw_sweep(&seg, V(0.5f, -0.2f, -6), &b, NULL);
    assert_true(hc.hit && hs.hit);
    assert_near(hs.t, hc.t, 0);
    assert_vec_near(hs.normal, hc.normal, 0);
    assert_vec_near(hs.point, hc.point, 0);
    assert_int_equal(hs.feature.kind, hc.feature.kind);
    assert_int_equal(hs.feature.index, hc.feature.index);
}

/* ---- ray casts ------------------------------------------------------------ */

/* Rays through the midpoint of every edge, from outside along the
 * bisector of its faces, and through every vertex: all hit there (no leak
 * between faces), naming that edge or vertex. */
static void rays_through_edges_and_vertices_hit(void** state)
{
    (void)state;
    hand_hull t;
    hand_tetra(&t);
    const sw_hull* hulls[2] = {&cube.h, &t.h};
    for (int k = 0; k < 2; ++k) {
        const sw_hull* h = hulls[k];
        const sw_shape b = sw_make_hull(h, V(0, 0, 0), identity);
        for (int e = 0; e < h->edge_count; ++e) {
            const sw_hull_edge* edge = &h->edges[e];
            const sw_vec3 mid = sw_scale(sw_add(h->vertices[edge->v[0]], h->vertices[edge->v[1]]), 0.5f);
            sw_vec3 out = sw_add(h->faces[edge->face[0]].normal, h->faces[edge->face[1]].normal);
            sw_normalize(&out);
            const sw_ray r = {sw_madd(mid, 3, out), sw_neg(out), 5};
            const sw_hit hit = sw_raycast(&r, &b);
            assert_true(hit.hit && !hit.overlapping);
            assert_near(3, hit.t, TOL * 4);
            assert_int_equal(hit.feature.kind, SW_FEATURE_EDGE);
            assert_int_equal(hit.feature.index, e);
        }
        for (int i = 0; i < h->vertex_count; ++i) {
            sw_vec3 out = sw_sub(h->vertices[i], h->center);
            sw_normalize(&out);
            const sw_ray r = {sw_madd(h->vertices[i], 2, out), sw_neg(out), 5};
            const sw_hit hit = sw_raycast(&r, &b);
            assert_true(hit.hit);
            assert_near(2, hit.t, TOL * 4);
            assert_int_equal(hit.feature.kind, SW_FEATURE_VERTEX);
            assert_int_equal(hit.feature.index, i);
        }
    }
    /* Grazing along the top face just outside it misses; along it, hits. */
    const sw_shape b = sw_make_hull(&cube.h, V(0, 0, 0), identity);
    const sw_ray above = {V(-3, 0, 1.001f), V(1, 0, 0), 6};
    assert_miss(sw_raycast(&above, &b));
    const sw_ray on = {V(-3, 0, 1), V(1, 0, 0), 6};
    const sw_hit h = sw_raycast(&on, &b);
    assert_true(h.hit);
    assert_near(2, h.t, TOL * 4);
    /* From inside: t = 0, overlapping. */
    const sw_ray in = {V(0.5, 0.5, 0.5), V(1, 0, 0), 6};
    const sw_hit hi = sw_raycast(&in, &b);
    assert_true(hi.hit && hi.overlapping);
    assert_near(0, hi.t, 0);
}

/* ---- overlap and distance ---------------------------------------------------- */

/* A sphere sunk 0.5 into the top face; a capsule lying inside the cube
 * 0.25 below the top face; a capsule through the cube along x. */
static void overlap_depth_and_normal(void** state)
{
    (void)state;
    const sw_shape b = sw_make_hull(&cube.h, V(0, 0, 0), identity);
    const sw_shape s = sw_make_sphere(V(0.25, 0, 1.5f), 1);
    sw_overlap_result o = sw_overlap(&s, &b);
    assert_true(o.overlapping);
    assert_near(0.5, o.depth, TOL);
    assert_vec_near(V(0, 0, 1), o.normal, TOL);
    /* The other order: the normal reverses. */
    o = sw_overlap(&b, &s);
    assert_true(o.overlapping);
    assert_near(0.5, o.depth, TOL);
    assert_vec_near(V(0, 0, -1), o.normal, TOL);

    const sw_shape c = sw_make_capsule(V(-0.5, 0.125, 0.75), V(0.5, -0.125, 0.75), 0.125f);
    o = sw_overlap(&c, &b);
    assert_true(o.overlapping);
    assert_near(0.375, o.depth, TOL);
    assert_vec_near(V(0, 0, 1), o.normal, TOL);

    /* Through the cube along x, nearer the +y face: out through +y. */
    const sw_shape through = sw_make_capsule(V(-3, 0.625, 0.125), V(3, 0.625, 0.125), 0.25f);
    o = sw_overlap(&through, &b);
    assert_true(o.overlapping);
    assert_near(0.375 + 0.25, o.depth, TOL);
    assert_vec_near(V(0, 1, 0), o.normal, TOL);

    /* Apart by a hair more than nothing: no overlap. */
    const sw_shape apart = sw_make_sphere(V(0, 0, 2.01f), 1);
    assert_false(sw_overlap(&apart, &b).overlapping);
}

/* Distances to a face, an edge and a vertex, with their closest points, in
 * both orders. */
static void distance_and_closest_points(void** state)
{
    (void)state;
    const sw_shape b = sw_make_hull(&cube.h, V(0, 0, 0), identity);
    const sw_shape p = sw_make_point(V(3, 0.5f, 0));
    sw_distance_result r = sw_distance(&p, &b);
    assert_near(2, r.distance, TOL);
    assert_vec_near(V(3, 0.5f, 0), r.point_a, TOL);
    assert_vec_near(V(1, 0.5f, 0), r.point_b, TOL);
    r = sw_distance(&b, &p);
    assert_near(2, r.distance, TOL);
    assert_vec_near(V(1, 0.5f, 0), r.point_a, TOL);

    /* A vertical segment beside edge 7: closest at distance sqrt(2) - r. */
    const sw_shape c = sw_make_capsule(V(2, 2, -5), V(2, 2, 0.5f), 0.25f);
    r = sw_distance(&c, &b);
    assert_near(sqrt(2.0) - 0.25, r.distance, TOL);
    assert_near(1, r.point_b.x, TOL);
    assert_near(1, r.point_b.y, TOL);
    assert_true(r.point_b.z >= -1 - TOL && r.point_b.z <= 0.5 + TOL);

    /* A sphere off the corner (1, 1, 1) along the diagonal. */
    const sw_shape s = sw_make_sphere(V(3, 3, 3), 1);
    r = sw_distance(&s, &b);
    assert_near(2 * sqrt(3.0) - 1, r.distance, TOL);
    assert_vec_near(V(1, 1, 1), r.point_b, TOL);
    const double k = 3 - 1 / sqrt(3.0);
    assert_vec_near(V(k, k, k), r.point_a, TOL * 4);

    /* A sphere facing the tetrahedron's slanted face x + y + z = 2. */
    hand_hull t;
    hand_tetra(&t);
    const sw_shape tb = sw_make_hull(&t.h, V(0, 0, 0), identity);
    const sw_shape ts = sw_make_sphere(V(2, 2, 2), 0.5f);
    r = sw_distance(&ts, &tb);
    assert_near(4 / sqrt(3.0) - 0.5, r.distance, TOL);
    assert_vec_near(V(2 / 3.0, 2 / 3.0, 2 / 3.0), r.point_b, TOL * 4);

    /* Overlapping: distance 0, one common point. */
    const sw_shape in = sw_make_sphere(V(0, 0, 1.2f), 0.5f);
    r = sw_distance(&in, &b);
    assert_near(0, r.distance, 0);
    assert_vec_near(r.point_a, r.point_b, 0);
}

/* Fuzz finding 38 (README): a ray of length 0 starting on a placed hull
 * 2.5e7 long (tol 2.5e-5). The origin is on the surface, so the answer is
 * a start in contact; the hull's closest points were not certified there,
 * and the common point taken was the candidate's point of the hull, 0.82
 * from the origin. A touching point A is the common point. */
static void ray_starting_on_a_long_hull_reports_its_origin(void** state)
{
    (void)state;
    const sw_vec3 p[9] = {
        V(-16, -16, 0x1.b7cdfd9d7bdbbp-34), V(0x1.ad7f29abcaf48p-24, -4, 1),    V(0, -16, -4),
        V(-16, -1, 0x1.ad7f29abcaf49p-24),  V(0, 18, -0x1.843eap+24),           V(0, 18, -0x1.0624dd2f1a9fcp-10),
        V(-16, 0x1.b6db6db6db6dbp+3, 64),   V(0x1.19799812dea11p-40, -16, -16), V(-16, -16, -16)};
    sw_hull_error err;
    sw_hull* hull = sw_hull_create(p, 9, &err);
    if (!hull) {
        assert_true(sizeof(sw_real) == sizeof(float)); /* (in float the set is within tol of a plane) */
        return;
    }
    const sw_shape b = sw_make_hull(hull, V(-16, -16, -16), (sw_quat){-16, -16, -16, -16});
    const sw_ray r = {V(-16, -16, -16), V(-16, -16, -15), 0};
    const sw_hit h = sw_raycast(&r, &b);
    const double tol = SWT_TOL * 0x1.843eap+24;
    assert_int_equal(h.status, SW_OK);
    if (h.hit) {
        assert_true(h.overlapping);
        assert_vec_near(r.origin, h.point, 2 * tol);
    }
    sw_hull_destroy(hull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        hull_test(cube_numbering_follows_hull_h),
        hull_test(created_hull_matches_the_hand_numbering),
        hull_test(sphere_hits_a_face),
        hull_test(sphere_hits_an_edge_and_a_vertex),
        hull_test(sphere_sliding_along_a_face),
        hull_test(capsule_parallel_to_an_edge),
        hull_test(segment_lands_on_a_tetrahedron_edge),
        hull_test(hull_far_from_the_origin),
        hull_test(long_thin_hull_matches_the_box),
        hull_test(zero_radius_capsule_is_a_segment),
        hull_test(rays_through_edges_and_vertices_hit),
        hull_test(overlap_depth_and_normal),
        hull_test(distance_and_closest_points),
        hull_test(ray_starting_on_a_long_hull_reports_its_origin),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
