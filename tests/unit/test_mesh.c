/* Triangle meshes (DESIGN.md §2a, sweep/mesh.h): sw_mesh_create's errors,
 * the facts sw_mesh_get_info and sw_mesh_triangle give (flat edges against
 * this file's own count), the placed triangles against an independent
 * placement, every query against the brute-force union of the triangles
 * judged by the differential engine's long-double references and rules
 * (tests/diff/mesh.c, check.c: hit/miss outside the grazing band, time,
 * point, normal, feature, depth, distance, all at the accuracy contract's
 * tol * scale), and the named cases: shapes sliding across a 100 x 100
 * grid floor and dropping onto its shared edges and vertices, rays aimed
 * at the shared edges and vertices of closed meshes, and a fast sphere
 * against a closed box 1e-3 thick. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_support.h"
#include "diff.h"

/* ---- helpers ------------------------------------------------------------------ */

static double angle_between(sw_vec3 a, sw_vec3 b)
{
    const ref_vec x = rv_of(a), y = rv_of(b);
    if (!(rv_len(x) > 0) || !(rv_len(y) > 0)) {
        return 4;
    }
    return (double)rv_angle(x, y);
}

static sw_vec3 world_normal(const sw_mesh_instance* m, int t)
{
    sw_vec3 w[3];
    assert_true(sw_mesh_world_triangle(m, t, w));
    ref_vec n = rv_cross(rv_sub(rv_of(w[1]), rv_of(w[0])), rv_sub(rv_of(w[2]), rv_of(w[0])));
    rv_normalize(&n);
    return sw_v3((sw_real)n.x, (sw_real)n.y, (sw_real)n.z);
}

/* Distance from p to placed triangle t (the reference's). */
static double distance_to_triangle(const sw_mesh_instance* m, int t, sw_vec3 p)
{
    sw_vec3 w[3];
    assert_true(sw_mesh_world_triangle(m, t, w));
    const sw_shape tri = sw_make_triangle(w[0], w[1], w[2], false);
    ref_shape b;
    ref_from_shape(&tri, &b);
    return (double)ref_point_sdist(&b, rv_of(p));
}

/* An n x n grid of unit cells from (0, 0, 0), two triangles a cell (the
 * diagonal alternating), fronts up: integer vertices, exact in float. The
 * case keeps the arrays (for the judge) and owns the mesh. */
static void floor_case(int n, diff_case* c)
{
    memset(c, 0, sizeof *c);
    c->mesh_nv = (n + 1) * (n + 1);
    c->mesh_nt = 2 * n * n;
    c->mesh_v = malloc((size_t)c->mesh_nv * sizeof *c->mesh_v);
    c->mesh_tri = malloc((size_t)c->mesh_nt * 3 * sizeof *c->mesh_tri);
    assert_non_null(c->mesh_v);
    assert_non_null(c->mesh_tri);
    for (int j = 0; j <= n; ++j) {
        for (int i = 0; i <= n; ++i) {
            c->mesh_v[j * (n + 1) + i] = V(i, j, 0);
        }
    }
    int k = 0;
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            const int a = j * (n + 1) + i, b = a + 1, cc = a + n + 2, d = a + n + 1;
            const int q[6] = {a, b, cc, a, cc, d}, p[6] = {a, b, d, b, cc, d};
            memcpy(c->mesh_tri + k, ((i + j) & 1) ? q : p, sizeof q);
            k += 6;
        }
    }
    sw_mesh_error err = SW_MESH_NO_TRIANGLES;
    c->mesh = sw_mesh_create(c->mesh_v, c->mesh_nv, c->mesh_tri, c->mesh_nt, &err);
    assert_int_equal(err, SW_MESH_OK);
    c->mesh_family = "grid floor";
}

static sw_mesh* grid_floor(int n)
{
    diff_case c;
    floor_case(n, &c);
    sw_mesh* m = c.mesh;
    c.mesh = NULL;
    diff_case_free(&c);
    return m;
}

/* ---- creation errors -------------------------------------------------------------- */

static void expect_error(const sw_vec3* v, int nv, const int* t, int nt, sw_mesh_error want)
{
    sw_mesh_error err = SW_MESH_OK;
    sw_mesh* m = sw_mesh_create(v, nv, t, nt, &err);
    if (m || err != want) {
        print_error("sw_mesh_create(%d vertices, %d triangles): %s, error \"%s\"; expected NULL and \"%s\"\n", nv, nt,
                    m ? "a mesh" : "NULL", sw_mesh_error_string(err), sw_mesh_error_string(want));
        sw_mesh_destroy(m);
        fail();
    }
    /* The error pointer may be NULL. */
    assert_null(sw_mesh_create(v, nv, t, nt, NULL));
}

static void create_errors(void** state)
{
    (void)state;
    const sw_vec3 v[4] = {V(0, 0, 0), V(1, 0, 0), V(1, 1, 0), V(0, 1, 0)};
    const int t[6] = {0, 1, 2, 0, 2, 3};
    swt_reset_asserts();
    expect_error(NULL, 4, t, 2, SW_MESH_NO_TRIANGLES);
    expect_error(v, 4, NULL, 2, SW_MESH_NO_TRIANGLES);
    expect_error(v, 4, t, 0, SW_MESH_NO_TRIANGLES);
    expect_error(v, 4, t, -3, SW_MESH_NO_TRIANGLES);
    expect_error(v, 0, t, 2, SW_MESH_NO_TRIANGLES);
    /* Counts beyond the limit are refused before the arrays are read. */
    expect_error(v, 4, t, SW_MAX_MESH_TRIANGLES + 1, SW_MESH_TOO_LARGE);
    expect_error(v, SW_MAX_MESH_TRIANGLES + 1, t, 2, SW_MESH_TOO_LARGE);
    const int bad_index[4][6] = {
        {0, 1, 2, 0, 2, -1}, {0, 1, 4, 0, 2, 3}, {0, 1, 2, 0, 2, 1 << 30}, {-2147483647 - 1, 1, 2, 0, 2, 3}};
    for (int i = 0; i < 4; ++i) {
        expect_error(v, 4, bad_index[i], 2, SW_MESH_INVALID_INDEX);
    }
    const sw_real bad_value[5] = {(sw_real)NAN, (sw_real)INFINITY, (sw_real)-INFINITY, SW_MAX_COORD * 2,
                                  -SW_MAX_COORD * 2};
    for (int i = 0; i < 5; ++i) {
        for (int k = 0; k < 3; ++k) {
            sw_vec3 w[5] = {v[0], v[1], v[2], v[3], V(0, 0, 0)};
            (&w[2].x)[k] = bad_value[i];
            expect_error(w, 4, t, 2, SW_MESH_INVALID_VERTEX);
            /* An unused vertex is checked too (mesh.h: every vertex). */
            w[2] = v[2];
            (&w[4].x)[k] = bad_value[i];
            expect_error(w, 5, t, 2, SW_MESH_INVALID_VERTEX);
        }
    }
    /* Errors are reported through *error only. */
    assert_handler_not_called();
    sw_mesh_error err = SW_MESH_NO_TRIANGLES;
    sw_mesh* m = sw_mesh_create(v, 4, t, 2, &err);
    assert_non_null(m);
    assert_int_equal(err, SW_MESH_OK);
    sw_mesh_destroy(m);
    sw_mesh_destroy(NULL);
    /* Every error has its own sentence. */
    const char* seen[SW_MESH_OUT_OF_MEMORY + 1];
    for (int e = SW_MESH_OK; e <= SW_MESH_OUT_OF_MEMORY; ++e) {
        seen[e] = sw_mesh_error_string((sw_mesh_error)e);
        assert_non_null(seen[e]);
        assert_true(strlen(seen[e]) > 0);
        for (int f = SW_MESH_OK; f < e; ++f) {
            assert_string_not_equal(seen[e], seen[f]);
        }
    }
    assert_string_equal("unknown mesh error", sw_mesh_error_string((sw_mesh_error)(SW_MESH_OUT_OF_MEMORY + 1)));
    assert_string_equal("unknown mesh error", sw_mesh_error_string((sw_mesh_error)-1));
}

/* ---- info, triangles and placement ---------------------------------------------------- */

/* Flat edges of a mesh's arrays counted here: an edge by vertex index used
 * by exactly two triangles with area whose planes agree within
 * SW_MESH_FLAT_ANGLE / 2 (well inside the threshold; the families keep
 * their angles far from it). Compares each triangle's flags with
 * sw_mesh_triangle's, and the vertices. Returns the count. */
static int check_flags(const sw_mesh* mesh, const sw_vec3* v, const int* t, int nt)
{
    int flat = 0;
    for (int i = 0; i < nt; ++i) {
        sw_vec3 lv[3];
        bool lf[3];
        assert_true(sw_mesh_triangle(mesh, i, lv, lf));
        const ref_vec ni = rv_cross(rv_sub(rv_of(v[t[3 * i + 1]]), rv_of(v[t[3 * i]])),
                                    rv_sub(rv_of(v[t[3 * i + 2]]), rv_of(v[t[3 * i]])));
        for (int k = 0; k < 3; ++k) {
            assert_memory_equal(&lv[k], &v[t[3 * i + k]], sizeof lv[k]);
            const int a = t[3 * i + k], b = t[3 * i + (k + 1) % 3];
            int uses = 0, other = -1;
            for (int j = 0; j < nt; ++j) {
                for (int e = 0; e < 3; ++e) {
                    const int p = t[3 * j + e], q = t[3 * j + (e + 1) % 3];
                    if ((p == a && q == b) || (p == b && q == a)) {
                        ++uses;
                        other = j != i ? j : other;
                    }
                }
            }
            bool want = false;
            if (uses == 2 && other >= 0 && a != b) {
                const ref_vec no = rv_cross(rv_sub(rv_of(v[t[3 * other + 1]]), rv_of(v[t[3 * other]])),
                                            rv_sub(rv_of(v[t[3 * other + 2]]), rv_of(v[t[3 * other]])));
                const ref_real angle = atan2l(rv_len(rv_cross(ni, no)), fabsl(rv_dot(ni, no)));
                want = rv_len(ni) > 0 && rv_len(no) > 0 && angle <= 0.5L * (ref_real)SW_MESH_FLAT_ANGLE;
            }
            if (want != lf[k]) {
                print_error("triangle %d edge %d (vertices %d-%d, used %d times): flat %d, expected %d\n", i, k, a, b,
                            uses, lf[k], want);
                fail();
            }
            flat += want;
        }
    }
    assert_false(sw_mesh_triangle(mesh, nt, NULL, NULL));
    assert_false(sw_mesh_triangle(mesh, -1, NULL, NULL));
    return flat;
}

static void info_and_flat_edges(void** state)
{
    (void)state;
    /* A square of two triangles, and an unused far vertex outside the bounds. */
    const sw_vec3 v[5] = {V(0, 0, 0), V(1, 0, 0), V(1, 1, 0), V(0, 1, 0), V(50, 50, 50)};
    const int t[6] = {0, 1, 2, 0, 2, 3};
    sw_mesh* m = sw_mesh_create(v, 5, t, 2, NULL);
    assert_non_null(m);
    sw_mesh_info in = sw_mesh_get_info(m);
    assert_int_equal(in.vertex_count, 5);
    assert_int_equal(in.triangle_count, 2);
    assert_true(in.node_count >= 1 && in.depth >= 1 && in.depth <= in.node_count);
    assert_int_equal(in.flat_edges, 2);
    assert_true(in.bytes >= 4 * sizeof(sw_vec3) + 6 * sizeof(int));
    assert_vec_near(V(0, 0, 0), in.bounds_min, 0);
    assert_vec_near(V(1, 1, 0), in.bounds_max, 0);
    assert_int_equal(check_flags(m, v, t, 2), 2);
    sw_mesh_destroy(m);

    /* The 100 x 100 floor: 29800 internal edges, each flat on both sides;
     * a 4-wide tree over 20000 triangles (a leaf holds at most 7). */
    m = grid_floor(100);
    in = sw_mesh_get_info(m);
    assert_int_equal(in.triangle_count, 20000);
    assert_int_equal(in.vertex_count, 101 * 101);
    assert_int_equal(in.flat_edges, 2 * (10000 + 2 * 100 * 99));
    assert_true(in.node_count * 4 * 7 >= 20000 && in.node_count <= 20000);
    assert_true(pow(4, in.depth) * 7 >= 20000);
    assert_true(in.bytes >= 20000 * 3 * sizeof(int) + 101 * 101 * sizeof(sw_vec3));
    assert_vec_near(V(100, 100, 0), in.bounds_max, 0);
    sw_mesh_destroy(m);

    /* Every family: flags against this file's count; the closed box has
     * its six diagonals flat, the icosphere none. */
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str("info_and_flat_edges"));
    for (int rep = 0; rep < 4; ++rep) {
        for (int f = 0; f < DIFF_MESH_FAMILY_COUNT; ++f) {
            sw_vec3* mv;
            int* mt;
            int nv;
            const int nt = diff_mesh_build((diff_mesh_family)f, &r, 2, &mv, &nv, &mt);
            assert_true(nt > 0);
            m = sw_mesh_create(mv, nv, mt, nt, NULL);
            assert_non_null(m);
            in = sw_mesh_get_info(m);
            assert_int_equal(in.triangle_count, nt);
            const int flat = check_flags(m, mv, mt, nt);
            assert_int_equal(in.flat_edges, flat);
            if (f == DIFF_MESH_BOX) {
                assert_int_equal(flat, 12);
            } else if (f == DIFF_MESH_ICOSPHERE) {
                assert_int_equal(flat, 0);
            }
            sw_mesh_destroy(m);
            free(mv);
            free(mt);
        }
    }
}

/* sw_mesh_world_triangle against a placement done here in long double
 * (the quaternion normalised, then rotated, then translated), within the
 * rounding of a double computation rounded once to sw_real. */
static void placement(void** state)
{
    (void)state;
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str("placement"));
    sw_vec3* mv;
    int* mt;
    int nv;
    const int nt = diff_mesh_build(DIFF_MESH_ICOSPHERE, &r, 3, &mv, &nv, &mt);
    sw_mesh* mesh = sw_mesh_create(mv, nv, mt, nt, NULL);
    assert_non_null(mesh);
    for (int rep = 0; rep < 50; ++rep) {
        double q[4], p[3];
        for (int k = 0; k < 4; ++k) {
            q[k] = swt_rng_range(&r, -2, 2);
        }
        const double far = rep % 3 == 0 ? 1e4 : 1;
        for (int k = 0; k < 3; ++k) {
            p[k] = swt_rng_range(&r, -far, far);
        }
        const sw_quat rot =
            rep % 5 == 0 ? sw_quat_identity() : (sw_quat){(sw_real)q[0], (sw_real)q[1], (sw_real)q[2], (sw_real)q[3]};
        const sw_mesh_instance inst = {mesh, sw_v3((sw_real)p[0], (sw_real)p[1], (sw_real)p[2]), rot, false};
        assert_true(sw_is_valid_mesh_instance(&inst));
        const ref_real qx = rot.x, qy = rot.y, qz = rot.z, qw = rot.w;
        const ref_real len = sqrtl(qx * qx + qy * qy + qz * qz + qw * qw);
        const ref_real x = qx / len, y = qy / len, z = qz / len, w = qw / len;
        const ref_real rm[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                                   {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                                   {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
        for (int i = 0; i < nt; ++i) {
            sw_vec3 got[3];
            assert_true(sw_mesh_world_triangle(&inst, i, got));
            for (int k = 0; k < 3; ++k) {
                const sw_vec3 lv = mv[mt[3 * i + k]];
                const ref_real l[3] = {lv.x, lv.y, lv.z};
                for (int c = 0; c < 3; ++c) {
                    const ref_real want = rm[c][0] * l[0] + rm[c][1] * l[1] + rm[c][2] * l[2] + (&inst.position.x)[c];
                    /* The rotation is normalised in sw_real: a few ulps of
                     * the vertex's length, and the rounding of the sum. */
                    const ref_real mag = rv_len(rv(l[0], l[1], l[2])) + fabsl((ref_real)(&inst.position.x)[c]);
                    const ref_real err = fabsl((ref_real)(&got[k].x)[c] - want);
                    if (!(err <= 4 * (ref_real)SW_EPSILON * mag + 1e-30L)) {
                        print_error("placement %d, triangle %d vertex %d axis %d: %.17g, expected %.17Lg\n", rep, i, k,
                                    c, (double)(&got[k].x)[c], want);
                        fail();
                    }
                }
            }
        }
        sw_vec3 none[3];
        assert_false(sw_mesh_world_triangle(&inst, nt, none));
    }
    const sw_mesh_instance bad = {mesh, V(0, 0, 0), {0, 0, 0, 0}, false};
    sw_vec3 w[3];
    assert_false(sw_is_valid_mesh_instance(&bad));
    assert_false(sw_mesh_world_triangle(&bad, 0, w));
    sw_mesh_destroy(mesh);
    free(mv);
    free(mt);
}

/* ---- every query against the brute-force union --------------------------------------- */

/* Fewer random cases where the library runs unoptimised (Debug, ASan). */
#ifdef NDEBUG
#define CASE_SCALE 1
#else
#define CASE_SCALE 4
#endif

static const char* op_label(const diff_pair* p, char* buf, size_t n)
{
    if (p->op == OP_RAYCAST) {
        snprintf(buf, n, "raycast");
    } else {
        snprintf(buf, n, "%s %s %s", diff_op_name(p->op), sw_shape_type_name(p->a), sw_shape_type_name(p->b));
    }
    return buf;
}

/* Runs `count` generated cases of the pair (gen_mesh.c: every mesh family,
 * placed near or 1e3-1e4 sizes away, rotated, one-sided) and judges each
 * answer against the brute-force union (mesh.c). Returns the failures. */
static long run_pair(const diff_pair* p, long count, diff_stats* st)
{
    char label[96];
    op_label(p, label, sizeof label);
    const uint64_t seed = swt_mix(20261129, swt_hash_str(label));
    long printed = 0;
    /* cmocka sets its own signal handlers for each test: the engine's
     * catcher of floating-point traps goes back in here. */
    diff_install_trap_catcher();
    for (long i = 0; i < count; ++i) {
        diff_case c;
        const uint64_t cs = swt_mix(seed, (uint64_t)i);
        diff_generate_mesh(p, cs, &c);
        /* Runs the query (a floating-point trap inside is caught and
         * reported), checks its status and judges it (mesh.c). */
        diff_outcome out;
        diff_check(&c, cs, st, &out, false);
        if (out.violations && printed++ < 3) {
            char id[160];
            snprintf(id, sizeof id, "test_mesh %s case %ld (%s, %s)", label, i, c.recipe, c.mesh_family);
            print_message("FAIL %s: %s\n  ", id, out.why);
            diff_write_json(stdout, &c, id);
            if (getenv("TEST_MESH_VERBOSE")) {
                diff_stats scratch = {0};
                diff_check(&c, cs, &scratch, &out, true);
            }
        }
        diff_case_free(&c);
    }
    print_message("%-30s %4ld cases (hits %3ld, at t=0 %3ld), failures %ld; worst/scale: time %.1e shallow %.1e "
                  "point %.1e depth %.1e distance %.1e, normal %.1e rad (%ld checked)\n",
                  label, st->cases, st->hits, st->overlaps, st->failures, st->time, st->shallow, st->point, st->depth,
                  st->distance, st->normal, st->normals_checked);
    return st->failures;
}

static void differential_sweeps(void** state)
{
    (void)state;
    const sw_shape_type movers[] = {SW_SHAPE_POINT,   SW_SHAPE_SEGMENT, SW_SHAPE_SPHERE,
                                    SW_SHAPE_CAPSULE, SW_SHAPE_BOX,     SW_SHAPE_HULL};
    const long counts[] = {100, 80, 100, 100, 40, 30};
    long failures = 0;
    const diff_pair ray = {OP_RAYCAST, SW_SHAPE_POINT, SW_SHAPE_MESH, true, "raycast:mesh"};
    diff_stats st = {0};
    failures += run_pair(&ray, 200 / CASE_SCALE, &st);
    for (size_t i = 0; i < sizeof movers / sizeof movers[0]; ++i) {
        const diff_pair p = {OP_SWEEP, movers[i], SW_SHAPE_MESH, true, ""};
        diff_stats s = {0};
        failures += run_pair(&p, counts[i] / CASE_SCALE, &s);
    }
    assert_int_equal(failures, 0);
}

static void differential_overlap_distance(void** state)
{
    (void)state;
    long failures = 0;
    for (int op = OP_OVERLAP; op <= OP_DISTANCE; ++op) {
        for (int t = 0; t < SW_SHAPE_TYPE_COUNT; ++t) {
            if (t == SW_SHAPE_MESH) {
                continue;
            }
            /* Mesh second, and mesh first (judged as the mirror). */
            for (int mirror = 0; mirror < 2; ++mirror) {
                const diff_pair p = {(diff_op)op, mirror ? SW_SHAPE_MESH : (sw_shape_type)t,
                                     mirror ? (sw_shape_type)t : SW_SHAPE_MESH, true, ""};
                diff_stats s = {0};
                const bool solid = t == SW_SHAPE_BOX || t == SW_SHAPE_HULL || t == SW_SHAPE_POLYGON;
                failures += run_pair(&p, (solid ? 30 : 60) / CASE_SCALE, &s);
            }
        }
    }
    assert_int_equal(failures, 0);
}

/* ---- named cases ------------------------------------------------------------------------- */

static sw_quat yaw(double a) { return (sw_quat){0, 0, (sw_real)sin(a / 2), (sw_real)cos(a / 2)}; }

/* Sliding shape k (0 sphere, 1 capsule, 2 box) resting on the floor z = 0
 * at (x, y), sunk by `sink` (0: exactly touching), its yaw `a`. */
static sw_shape resting(int k, double x, double y, double a, double sink)
{
    switch (k) {
    case 0:
        return sw_make_sphere(V(x, y, 0.5 - sink), 0.5f);
    case 1: {
        const double ux = 0.5 * cos(a), uy = 0.5 * sin(a);
        return sw_make_capsule(V(x - ux, y - uy, 0.25 - sink), V(x + ux, y + uy, 0.25 - sink), 0.25f);
    }
    default:
        return sw_make_box(V(x, y, 0.2 - sink), V(0.4, 0.3, 0.2), yaw(a));
    }
}

/* DESIGN §2a, no ghost contacts: a sphere, a capsule and a box resting on
 * a 100 x 100-cell floor (20000 triangles), exactly touching or sunk by
 * a millionth (rounding), over a cell, an edge, a vertex and a diagonal,
 * slide in 48 directions with ignore_separating: never stopped, along the
 * floor or rising from it. Without the option the start is a touch at
 * t = 0 whose normal is the floor's. */
static void floor_slides(void** state)
{
    (void)state;
    sw_mesh* mesh = grid_floor(100);
    const sw_shape floor = sw_make_mesh(mesh, V(0, 0, 0), sw_quat_identity(), false);
    const double starts[4][2] = {{50.3, 40.6}, {50, 40.6}, {50, 40}, {50.5, 40.5}};
    const double lengths[3] = {0.7, 3.3, 12};
    const sw_vec3 up = V(0, 0, 1);
    long sweeps = 0;
    double worst = 0;
    for (int k = 0; k < 3; ++k) {
        for (int s = 0; s < 4; ++s) {
            for (int sink = 0; sink < 2; ++sink) {
                for (int dir = 0; dir < 48; ++dir) {
                    const double a = dir * 6.283185307179586 / 48;
                    const sw_shape sh = resting(k, starts[s][0], starts[s][1], 0.3 * dir, sink ? 1e-6 : 0);
                    for (int l = 0; l < 3; ++l) {
                        for (int rise = 0; rise < 2; ++rise) {
                            const sw_vec3 d = V(lengths[l] * cos(a), lengths[l] * sin(a), rise ? 0.01 * lengths[l] : 0);
                            sw_sweep_options opt = {0};
                            opt.ignore_separating = true;
                            const sw_hit h = sw_sweep(&sh, d, &floor, &opt);
                            ++sweeps;
                            if (h.status != SW_OK || h.hit) {
                                print_error("%s at (%g, %g)%s moving (%g, %g, %g) with ignore_separating: stopped at "
                                            "t=%g by triangle %d, normal (%g, %g, %g)\n",
                                            k == 0 ? "sphere" : (k == 1 ? "capsule" : "box"), starts[s][0],
                                            starts[s][1], sink ? " sunk 1e-6" : "", (double)d.x, (double)d.y,
                                            (double)d.z, (double)h.t, h.triangle, (double)h.normal.x,
                                            (double)h.normal.y, (double)h.normal.z);
                                fail();
                            }
                        }
                    }
                    const sw_hit h = sw_sweep(&sh, V(3 * cos(a), 3 * sin(a), 0), &floor, NULL);
                    assert_true(h.hit && h.overlapping);
                    assert_true(h.t == 0);
                    assert_true((double)h.depth <= 2e-6);
                    const double e = angle_between(h.normal, up);
                    worst = fmax(worst, e);
                    if (!(e <= 1e-6)) {
                        print_error("start touch of shape %d at (%g, %g): normal (%.9g, %.9g, %.9g) on triangle %d\n",
                                    k, starts[s][0], starts[s][1], (double)h.normal.x, (double)h.normal.y,
                                    (double)h.normal.z, h.triangle);
                        fail();
                    }
                }
            }
        }
    }
    print_message("floor slides: %ld sweeps with ignore_separating never stopped; start normals within %.1e rad of the "
                  "floor's\n",
                  sweeps, worst);
    sw_mesh_destroy(mesh);
}

static sw_hull* octahedron(void)
{
    const sw_vec3 p[6] = {V(0.3, 0, 0.3), V(-0.3, 0, 0.3), V(0, 0.3, 0.3), V(0, -0.3, 0.3), V(0, 0, 0), V(0, 0, 0.6)};
    sw_hull* h = sw_hull_create(p, 6, NULL);
    assert_non_null(h);
    return h;
}

/* Rotates local v by the instance's rotation in long double. */
static ref_vec rotate(sw_quat q, ref_vec v)
{
    const ref_real len = sqrtl((ref_real)q.x * q.x + (ref_real)q.y * q.y + (ref_real)q.z * q.z + (ref_real)q.w * q.w);
    const ref_vec u = rv(q.x / len, q.y / len, q.z / len);
    const ref_real w = q.w / len;
    const ref_vec t = rv_scale(rv_cross(u, v), 2);
    return rv_add(rv_add(v, rv_scale(t, w)), rv_cross(u, t));
}

static sw_vec3 to_sw(ref_vec v) { return sw_v3((sw_real)v.x, (sw_real)v.y, (sw_real)v.z); }

/* Drops onto the floor at exact vertices, edge points and diagonals: a
 * ray, a point, a sphere, a capsule (lying and standing), a box and a
 * hull (its lowest vertex first), on the floor at the origin, rotated and
 * 1e4 away, one-sided or not. Each lands at the exact time, on the
 * triangle it names, with that triangle's face normal (the floor's). */
static void drops_onto_shared_edges_and_vertices(void** state)
{
    (void)state;
    diff_case fc;
    floor_case(16, &fc);
    sw_mesh* mesh = fc.mesh;
    sw_hull* hull = octahedron();
    diff_stats st = {0};
    const double spots[6][2] = {{8, 8}, {8, 8.5}, {8.25, 8}, {8.5, 8.5}, {7, 9}, {9.5, 7.5}};
    const sw_quat turned = {(sw_real)0.3, (sw_real)-0.5, (sw_real)0.2, (sw_real)0.8};
    long drops = 0;
    double worst_normal = 0, worst_time = 0;
    for (int place = 0; place < 3; ++place) {
        const sw_quat rot = place == 0 ? sw_quat_identity() : turned;
        const ref_vec pos = place == 2 ? rv(1e4, -7e3, 3e3) : rv(0, 0, 0);
        for (int one_sided = 0; one_sided < 2; ++one_sided) {
            const sw_shape floor = sw_make_mesh(mesh, to_sw(pos), rot, one_sided);
            const sw_mesh_instance* inst = &floor.mesh;
            const ref_vec up = rotate(rot, rv(0, 0, 1));
            for (int s = 0; s < 6; ++s) {
                for (int k = 0; k < 7; ++k) {
                    /* Shape k with its lowest point 2 above the spot, in the
                     * floor's frame: world = W + R p. */
                    const double x = spots[s][0], y = spots[s][1];
                    const ref_vec W = rv_add(rotate(rot, rv(x, y, 2)), pos);
#define AT(px, py, pz) to_sw(rv_add(W, rotate(rot, rv(px, py, pz))))
                    sw_shape w;
                    switch (k) {
                    case 0:
                    case 1:
                        w = sw_make_point(AT(0, 0, 0));
                        break;
                    case 2:
                        w = sw_make_sphere(AT(0, 0, 0.5), 0.5f);
                        break;
                    case 3:
                        w = sw_make_capsule(AT(-0.7, 0, 0.25), AT(0.7, 0, 0.25), 0.25f);
                        break;
                    case 4:
                        w = sw_make_capsule(AT(0, 0, 0.25), AT(0, 0, 1.25), 0.25f);
                        break;
                    case 5: {
                        const sw_quat q = yaw(0.7);
                        const ref_real qw = rot.w, qx = rot.x, qy = rot.y, qz = rot.z;
                        const sw_quat rq = {(sw_real)(qw * q.x + qx * q.w + qy * q.z - qz * q.y),
                                            (sw_real)(qw * q.y - qx * q.z + qy * q.w + qz * q.x),
                                            (sw_real)(qw * q.z + qx * q.y - qy * q.x + qz * q.w),
                                            (sw_real)(qw * q.w - qx * q.x - qy * q.y - qz * q.z)};
                        w = sw_make_box(AT(0, 0, 0.2), V(0.4, 0.3, 0.2), rq);
                        break;
                    }
                    default:
                        w = sw_make_hull(hull, AT(0, 0, 0), rot);
                        break;
                    }
#undef AT
                    const ref_vec low = rv(x, y, 0); /* the local landing point */
                    const ref_vec d = rv_scale(up, -4);
                    sw_hit h;
                    if (k == 0) {
                        const sw_ray ray = {w.point, to_sw(d), 1};
                        h = sw_raycast(&ray, &floor);
                    } else {
                        h = sw_sweep(&w, to_sw(d), &floor, NULL);
                    }
                    ++drops;
                    const double scale = place == 2 ? 1e4 : 20;
                    const double band = SWT_TOL * scale;
                    if (!(h.status == SW_OK && h.hit && !h.overlapping)) {
                        print_error("drop %d of shape %d at (%g, %g), placement %d%s: no landing\n", (int)drops, k, x,
                                    y, place, one_sided ? ", one-sided" : "");
                        fail();
                    }
                    const double terr = fabs((double)h.t - 0.5) * 4;
                    worst_time = fmax(worst_time, terr / scale);
                    const sw_vec3 fn = world_normal(inst, h.triangle);
                    const double e = angle_between(h.normal, fn), ideal = angle_between(h.normal, to_sw(up));
                    worst_normal = fmax(worst_normal, k == 5 ? fmin(e, ideal) : e);
                    const ref_vec land = rv_add(rotate(rot, low), pos);
                    const double off_tri = distance_to_triangle(inst, h.triangle, to_sw(land));
                    /* A box's bottom face lands flat on the floor: placed 1e4
                     * away, the floor's rounded vertices tilt its triangles by
                     * up to 1e-3 from the box's face, and the contact may be a
                     * corner or an edge of either (the judge below decides). */
                    const bool face_ok = e <= 1e-6 || k == 5;
                    /* The whole contract against the brute-force union. */
                    fc.op = k == 0 ? OP_RAYCAST : OP_SWEEP;
                    fc.a = w;
                    fc.b = floor;
                    fc.d = to_sw(d);
                    fc.ray = (sw_ray){w.point, to_sw(d), 1};
                    fc.opt_null = true;
                    fc.recipe = "drop";
                    diff_answers ans = {0};
                    ans.h = h;
                    diff_outcome out = {0};
                    /* Every other one (the solid shapes: fewer): the references take ms. */
                    if ((k < 5 || (!one_sided && s % 2 == 0)) && drops % (2 * CASE_SCALE) == 0) {
                        diff_judge_mesh(&fc, (uint64_t)drops, &ans, &st, &out, false);
                    }
                    if (out.violations) {
                        print_error("drop of shape %d at (%g, %g), placement %d%s: %s\n", k, x, y, place,
                                    one_sided ? ", one-sided" : "", out.why);
                        fail();
                    }
                    if (!(terr <= band) || !face_ok || !(ideal <= 2e-3) ||
                        !(distance_to_triangle(inst, h.triangle, h.point) <= band) ||
                        (k != 3 && k != 5 && !(off_tri <= band))) {
                        print_error("drop of shape %d at (%g, %g), placement %d%s: t %.9g (|dt||d| %.3g, band %.3g), "
                                    "triangle %d (%.3g from the landing point), normal (%.9g, %.9g, %.9g): %.3g rad "
                                    "from its face normal, %.3g from the floor's\n",
                                    k, x, y, place, one_sided ? ", one-sided" : "", (double)h.t, terr, band, h.triangle,
                                    off_tri, (double)h.normal.x, (double)h.normal.y, (double)h.normal.z, e, ideal);
                        fail();
                    }
                }
            }
        }
    }
    print_message("floor drops: %ld landings at the exact time (worst %.1e of scale), normals within %.1e rad of the "
                  "named triangle's face normal\n",
                  drops, worst_time, worst_normal);
    print_message("floor drops judged: worst/scale time %.1e point %.1e, normal %.1e rad (%ld checked)\n", st.time,
                  st.point, st.normal, st.normals_checked);
    sw_hull_destroy(hull);
    diff_case_free(&fc);
}

/* A ray from o aimed exactly at p, a point of the closed convex mesh's
 * surface that o sees (in front of a face through p): it must hit, at
 * t = 1 within the band, a triangle containing p, facing the ray. */
static void ray_at(const sw_shape* mesh, sw_vec3 o, sw_vec3 p, const char* what, long* rays, double* worst)
{
    const sw_ray ray = {o, sw_sub(p, o), 2};
    const sw_hit h = sw_raycast(&ray, mesh);
    const ref_real scale = fmaxl(fmaxl(rv_max_abs(rv_of(o)), rv_max_abs(rv_of(p))), 2 * rv_max_abs(rv_of(ray.dir)));
    const double band = SWT_TOL * (double)scale;
    ++*rays;
    if (!(h.status == SW_OK && h.hit)) {
        print_error("a ray at %s (%a, %a, %a) from (%a, %a, %a) passes through the mesh (one-sided %d, position "
                    "(%g, %g, %g), rotation (%g, %g, %g, %g))\n",
                    what, (double)p.x, (double)p.y, (double)p.z, (double)o.x, (double)o.y, (double)o.z,
                    (int)mesh->mesh.one_sided, (double)mesh->mesh.position.x, (double)mesh->mesh.position.y,
                    (double)mesh->mesh.position.z, (double)mesh->mesh.rotation.x, (double)mesh->mesh.rotation.y,
                    (double)mesh->mesh.rotation.z, (double)mesh->mesh.rotation.w);
        for (int t = 0; t < sw_mesh_get_info(mesh->mesh.mesh).triangle_count; ++t) {
            sw_vec3 w[3];
            sw_mesh_world_triangle(&mesh->mesh, t, w);
            const sw_shape tri = sw_make_triangle(w[0], w[1], w[2], mesh->mesh.one_sided);
            const sw_hit th = sw_raycast(&ray, &tri);
            if (distance_to_triangle(&mesh->mesh, t, p) <= band) {
                print_error("  triangle %d [(%a, %a, %a), (%a, %a, %a), (%a, %a, %a)] contains it; sw_raycast of it "
                            "alone: hit %d t %.9g\n",
                            t, (double)w[0].x, (double)w[0].y, (double)w[0].z, (double)w[1].x, (double)w[1].y,
                            (double)w[1].z, (double)w[2].x, (double)w[2].y, (double)w[2].z, th.hit, (double)th.t);
            }
        }
        fail();
    }
    const double terr = fabs((double)h.t - 1) * (double)rv_len(rv_of(ray.dir));
    const double off = distance_to_triangle(&mesh->mesh, h.triangle, p);
    *worst = fmax(*worst, terr / (double)scale);
    if (!(terr <= band && off <= band && (double)sw_dot(h.normal, ray.dir) < 0)) {
        print_error("a ray at %s (%.9g, %.9g, %.9g) from (%.9g, %.9g, %.9g): t %.9g (|dt| |dir| %.3g, band %.3g), "
                    "triangle %d is %.3g from the point, normal . dir %.3g\n",
                    what, (double)p.x, (double)p.y, (double)p.z, (double)o.x, (double)o.y, (double)o.z, (double)h.t,
                    terr, band, h.triangle, off, (double)sw_dot(h.normal, ray.dir));
        fail();
    }
}

/* Watertightness: rays aimed exactly at every vertex and at points of every
 * edge (shared by two triangles) of closed meshes (an icosphere of 80
 * triangles, a box of 12), from outside along the outward normal of each
 * face through the point (tilted), and from inside for two-sided meshes,
 * at the origin, rotated and 1e4 away: each hits exactly one triangle (the
 * one named contains the point), never none. */
static void rays_at_shared_edges_and_vertices(void** state)
{
    (void)state;
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str("rays_at_shared_edges_and_vertices"));
    long rays = 0;
    double worst = 0;
    for (int family = 0; family < 2; ++family) {
        sw_vec3* mv = NULL;
        int* mt = NULL;
        int nv = 0, nt = 0;
        if (family == 0) {
            do { /* the subdivided icosphere */
                free(mv);
                free(mt);
                nt = diff_mesh_build(DIFF_MESH_ICOSPHERE, &r, 1, &mv, &nv, &mt);
            } while (nt != 80);
        } else {
            nt = diff_mesh_build(DIFF_MESH_BOX, &r, 1, &mv, &nv, &mt);
        }
        sw_mesh* mesh = sw_mesh_create(mv, nv, mt, nt, NULL);
        assert_non_null(mesh);
        for (int place = 0; place < 3; ++place) {
            const sw_quat rot = place == 0 ? sw_quat_identity() : (sw_quat){0.4f, 0.1f, -0.7f, 0.5f};
            const sw_vec3 pos = place == 2 ? V(-6e3, 1e4, 2.5e3) : V(0, 0, 0);
            for (int one_sided = 0; one_sided < 2; ++one_sided) {
                const sw_shape shape = sw_make_mesh(mesh, pos, rot, one_sided);
                for (int t = 0; t < nt; ++t) {
                    sw_vec3 w[3];
                    assert_true(sw_mesh_world_triangle(&shape.mesh, t, w));
                    for (int k = 0; k < 3; ++k) {
                        /* Vertex k, and edge k at its middle and a third. */
                        const ref_vec a = rv_of(w[k]), b = rv_of(w[(k + 1) % 3]);
                        const sw_vec3 targets[3] = {w[k], to_sw(rv_madd(a, 0.5L, rv_sub(b, a))),
                                                    to_sw(rv_madd(a, 1.0L / 3, rv_sub(b, a)))};
                        for (int q = 0; q < 3; ++q) {
                            const char* what = q == 0 ? "a vertex" : "an edge";
                            /* Through the point towards an interior point c near
                             * the centre: the line crosses the surface there,
                             * from outside in (and from c out). */
                            ref_vec c = rv(0, 0, 0);
                            ref_real sum = 0;
                            for (int j = 0; j < nt; ++j) {
                                sw_vec3 wj[3];
                                sw_mesh_world_triangle(&shape.mesh, j, wj);
                                const ref_real weight = (ref_real)swt_rng_range(&r, 0.1, 1);
                                c = rv_madd(c, weight, rv_of(wj[j % 3]));
                                sum += weight;
                            }
                            c = rv_scale(c, 1 / sum);
                            const ref_vec p = rv_of(targets[q]);
                            const sw_vec3 o = to_sw(rv_madd(p, (ref_real)swt_rng_range(&r, 0.2, 2), rv_sub(p, c)));
                            ray_at(&shape, o, targets[q], what, &rays, &worst);
                            if (!one_sided) {
                                ray_at(&shape, to_sw(c), targets[q], what, &rays, &worst);
                            }
                        }
                    }
                }
            }
        }
        sw_mesh_destroy(mesh);
        free(mv);
        free(mt);
    }
    print_message("closed meshes: %ld rays aimed at shared edges and vertices, each hit once at t within %.1e of "
                  "scale\n",
                  rays, worst);
}

/* No tunnelling: a sphere of radius 0.05 moving 5 (100 radii) per step
 * down through a closed box mesh 2 x 2 across and 1e-3 thick, at spots
 * over its faces, diagonals, edges and corners, along tilted paths, step
 * after step from several heights: the step that reaches the plate stops
 * on it, facing the motion, and every step's answer is judged against the
 * brute-force union (mesh.c). */
static void fast_sphere_against_a_thin_box(void** state)
{
    (void)state;
    swt_rng r;
    swt_rng_seed(&r, swt_hash_str("fast_sphere_against_a_thin_box"));
    diff_case c;
    memset(&c, 0, sizeof c);
    const double h[3] = {1, 1, 5e-4};
    c.mesh_nv = 8;
    c.mesh_nt = 12;
    c.mesh_v = malloc(8 * sizeof *c.mesh_v);
    c.mesh_tri = malloc(36 * sizeof *c.mesh_tri);
    assert_non_null(c.mesh_v);
    assert_non_null(c.mesh_tri);
    static const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int i = 0; i < 8; ++i) {
        c.mesh_v[i] = V((i & 1) ? h[0] : -h[0], (i & 2) ? h[1] : -h[1], (i & 4) ? h[2] : -h[2]);
    }
    for (int f = 0; f < 6; ++f) {
        const int t[6] = {quads[f][0], quads[f][1], quads[f][2], quads[f][0], quads[f][2], quads[f][3]};
        memcpy(c.mesh_tri + 6 * f, t, sizeof t);
    }
    c.mesh = sw_mesh_create(c.mesh_v, 8, c.mesh_tri, 12, NULL);
    assert_non_null(c.mesh);
    c.mesh_family = "thin box";
    c.op = OP_SWEEP;
    c.opt_null = true;
    c.recipe = "fast sphere";
    const double spots[7][2] = {{0.3, 0.2}, {0, 0}, {0.5, 0.5}, {1, 0.4}, {1, 1}, {-0.999, 0.2}, {0.97, -0.6}};
    long steps = 0, stops = 0, failures = 0;
    diff_stats st = {0};
    for (int s = 0; s < 7; ++s) {
        for (int rep = 0; rep < 12; ++rep) {
            const sw_quat rot = rep % 3 == 0 ? sw_quat_identity() : (sw_quat){0.1f, 0.05f, 0.3f, 1};
            c.b = sw_make_mesh(c.mesh, rep % 4 == 3 ? V(1e3, -2e3, 500) : V(0, 0, 0), rot, rep % 2 == 1);
            /* A path through the spot (in the box's frame) tilted up to 45 degrees. */
            const ref_vec spot = rv(spots[s][0], spots[s][1], h[2] + 0.05);
            const ref_vec dir = rv(swt_rng_range(&r, -1, 1), swt_rng_range(&r, -1, 1), -1);
            ref_vec dl = dir;
            rv_normalize(&dl);
            const ref_vec d = rotate(rot, rv_scale(dl, 5));
            const ref_real phase = (ref_real)swt_rng_range(&r, 0, 5);
            ref_vec at = rv_madd(spot, -(8 + phase), dl); /* local centre */
            bool stopped = false;
            for (int step = 0; step < 5 && !stopped; ++step) {
                const ref_vec wc = rv_add(rotate(rot, at), rv_of(c.b.mesh.position));
                c.a = sw_make_sphere(to_sw(wc), 0.05f);
                c.d = to_sw(d);
                const sw_hit hit = sw_sweep(&c.a, c.d, &c.b, NULL);
                ++steps;
                /* Does this step's path reach the spot (the sphere's centre
                 * there touches the top face)? */
                const ref_real along = rv_dot(rv_sub(spot, at), dl);
                if (hit.hit) {
                    stopped = true;
                    ++stops;
                    assert_true(sw_dot(hit.normal, c.d) < 0);
                } else if (along >= 0 && along <= 5 && fabsl(spot.x) < 1 && fabsl(spot.y) < 1) {
                    print_error("the sphere passed through the plate at (%g, %g), step %d, placement %d\n", spots[s][0],
                                spots[s][1], step, rep);
                    fail();
                }
                diff_answers ans = {0};
                ans.h = hit;
                diff_outcome out = {0};
                diff_judge_mesh(&c, swt_mix((uint64_t)s, (uint64_t)rep), &ans, &st, &out, false);
                if (out.violations) {
                    ++failures;
                    print_message("FAIL thin box step %d at (%g, %g), placement %d: %s\n  ", step, spots[s][0],
                                  spots[s][1], rep, out.why);
                    diff_write_json(stdout, &c, "thin box");
                }
                at = rv_add(at, rv_scale(dl, 5));
            }
            if (fabsl(spot.x) < 1 && fabsl(spot.y) < 1) {
                assert_true(stopped);
            }
        }
    }
    print_message("thin box: %ld steps of 100 radii, %ld stops on the plate; worst/scale time %.1e point %.1e normal "
                  "%.1e rad\n",
                  steps, stops, st.time, st.point, st.normal);
    diff_case_free(&c);
    assert_int_equal(failures, 0);
}

/* Regressions found by the random cases (the sw_real values of their
 * `sweep query` lines): a capsule swept against a mesh (the arrays),
 * judged against the brute-force union. */
static long judge_capsule_case(const sw_real (*v)[3], int nv, const int* tri, int nt, sw_vec3 pos, sw_quat rot,
                               sw_shape a, sw_vec3 d, bool ignore, sw_hit* out_hit)
{
    diff_case c;
    memset(&c, 0, sizeof c);
    c.mesh_nv = nv;
    c.mesh_nt = nt;
    c.mesh_v = malloc((size_t)nv * sizeof *c.mesh_v);
    c.mesh_tri = malloc((size_t)nt * 3 * sizeof *c.mesh_tri);
    assert_non_null(c.mesh_v);
    assert_non_null(c.mesh_tri);
    for (int i = 0; i < nv; ++i) {
        c.mesh_v[i] = sw_v3(v[i][0], v[i][1], v[i][2]);
    }
    memcpy(c.mesh_tri, tri, (size_t)nt * 3 * sizeof *tri);
    c.mesh = sw_mesh_create(c.mesh_v, nv, c.mesh_tri, nt, NULL);
    assert_non_null(c.mesh);
    c.mesh_family = "regression";
    c.recipe = "regression";
    c.op = OP_SWEEP;
    c.a = a;
    c.b = sw_make_mesh(c.mesh, pos, rot, false);
    c.d = d;
    c.opt.ignore_separating = ignore;
    diff_install_trap_catcher();
    diff_stats st = {0};
    diff_outcome out;
    diff_check(&c, 7, &st, &out, false);
    *out_hit = sw_sweep(&c.a, c.d, &c.b, &c.opt);
    if (out.violations) {
        print_message("FAIL: %s\n  ", out.why);
        diff_write_json(stdout, &c, "regression");
    }
    diff_case_free(&c);
    return out.violations;
}

static const sw_real stairs_v[][3] = {{-0.238228351, -0.321345389, 0.0},
                                      {-0.238228351, 0.321345389, 0.0},
                                      {0.0, -0.321345389, 0.0},
                                      {0.0, 0.321345389, 0.0},
                                      {0.0, -0.321345389, 0.0905493572},
                                      {0.0, 0.321345389, 0.0905493572},
                                      {0.238228351, -0.321345389, 0.0905493572},
                                      {0.238228351, 0.321345389, 0.0905493572},
                                      {0.238228351, -0.321345389, 0.181098714},
                                      {0.238228351, 0.321345389, 0.181098714},
                                      {0.476456702, -0.321345389, 0.181098714},
                                      {0.476456702, 0.321345389, 0.181098714},
                                      {0.476456702, -0.321345389, 0.271648079},
                                      {0.476456702, 0.321345389, 0.271648079},
                                      {0.714685082, -0.321345389, 0.271648079},
                                      {0.714685082, 0.321345389, 0.271648079}};
static const int stairs_tri[] = {0, 2, 3, 0, 3,  1,  2, 4,  5, 2,  5,  3,  4,  6,  7,  4,  7,  5,  6,  8,  9,
                                 6, 9, 7, 8, 10, 11, 8, 11, 9, 10, 12, 13, 10, 13, 11, 12, 14, 15, 12, 15, 13};

/* DESIGN §2 at t = 0: moving A by the depth along the normal separates
 * it from the triangle named. A tiny capsule starts in a stairs mesh (the
 * float soak's sweep:capsule:mesh case 128, seed 20240601): the deepest
 * triangle (3, a riser) is penetrated 0.0068 and its contact lies on its
 * flat diagonal, so the normal is the riser's face normal (mesh.h); along
 * it A overlaps the triangle by 0.0134. The depth and the normal must go
 * together. */
static void start_on_a_flat_edge_depth_and_normal(void** state)
{
    (void)state;
    sw_hit h;
    const long bad = judge_capsule_case(
        stairs_v, (int)(sizeof stairs_v / sizeof stairs_v[0]), stairs_tri,
        (int)(sizeof stairs_tri / sizeof stairs_tri[0] / 3), V(467.082367, 611.361511, -106.007645), sw_quat_identity(),
        sw_make_capsule(V(467.082672, 611.361816, -105.962402), V(467.075714, 611.361206, -105.962341), 0.00671885535f),
        V(0.0424391329, -0.132940501, 0.0680538565), false, &h);
    print_message("capsule starting in stairs: hit %d overlapping %d depth %.9g normal (%.9g, %.9g, %.9g) feature "
                  "%d/%d triangle %d\n",
                  h.hit, h.overlapping, (double)h.depth, (double)h.normal.x, (double)h.normal.y, (double)h.normal.z,
                  (int)h.feature.kind, h.feature.index, h.triangle);
    assert_int_equal(bad, 0);
}

static const sw_real strip_v[][3] = {
    {-0.00242702197, -0.609262288, -1.35588026}, {0.00242702197, -0.609262288, -1.35588026},
    {-0.00242702197, 0.609262288, -1.35588026},  {0.00242702197, 0.609262288, -1.35588026},
    {-0.00242702197, -0.609262288, 1.35588026},  {0.00242702197, -0.609262288, 1.35588026},
    {-0.00242702197, 0.609262288, 1.35588026},   {0.00242702197, 0.609262288, 1.35588026}};
static const int strip_tri[] = {0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                                2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6};

/* mesh.h, ignore_separating: a triangle is skipped when d . n >= 0 for its
 * corrected normal n. A capsule (radius 0.024) starts across the +y face
 * of a closed box mesh 0.005 thin (rotated), a strip of triangles 6 and 7
 * (test_mesh's random sweep capsule mesh case 77): triangle 6's contact
 * lies on the strip's flat diagonal, so its corrected normal is the face
 * normal, and d goes into the face (d . n = -0.71 |d|): the sweep must
 * stop at t = 0. (Triangle 6 alone, by its edge normal, is moved away
 * from: the corrected normal must decide.) */
static void ignore_separating_reads_the_corrected_normal(void** state)
{
    (void)state;
    sw_hit h;
    const long bad = judge_capsule_case(
        strip_v, 8, strip_tri, 12, V(0, 0, 0),
        (sw_quat){(sw_real)-0.0293980949, (sw_real)-0.205847055, (sw_real)0.54744941, (sw_real)-0.704125643},
        sw_make_capsule(V(0.119665556, 0.537979066, -1.29345906), V(0.270848721, 0.69587642, -1.42622745),
                        0.0238377471f),
        V(-0.0587868951, -0.0952351168, -0.0107484562), true, &h);
    print_message("capsule across a thin strip with ignore_separating: hit %d t %.9g triangle %d\n", h.hit, (double)h.t,
                  h.triangle);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(create_errors),
        swt_test(info_and_flat_edges),
        swt_test(placement),
        swt_test(floor_slides),
        swt_test(drops_onto_shared_edges_and_vertices),
        swt_test(rays_at_shared_edges_and_vertices),
        swt_test(fast_sphere_against_a_thin_box),
        swt_test(start_on_a_flat_edge_depth_and_normal),
        swt_test(ignore_separating_reads_the_corrected_normal),
        swt_test(differential_sweeps),
        swt_test(differential_overlap_distance),
    };
    swt_install_assert_recorder();
    diff_install_trap_catcher();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
