/* Fuzz target: triangle meshes. A small mesh is built from the input
 * (vertices often on a small lattice, so that triangles share edges and
 * lie flat against each other; indices that may be out of range and
 * vertices that may be NaN, infinite or beyond SW_MAX_COORD, which
 * sw_mesh_create must refuse with the right error and nothing allocated),
 * placed by a decoded position and rotation, one-sided or not, and
 * queried by every moving shape (point, segment, sphere, capsule, box,
 * hull) through sw_sweep, by a ray, and by sw_overlap and sw_distance in
 * both orders. Each answer gets the geometry-free checks of fuzz.h and is
 * compared with the brute force over the placed triangles
 * (sw_mesh_world_triangle): the library's own pair answers, triangle by
 * triangle. The mesh's first hit must come at the first time of any
 * triangle (within 2 FZ_SLACK tol / |d| where both contacts are steep),
 * a miss only where every triangle's hit is shallow or a start the
 * options may ignore, and the triangle it names must be hit at that time
 * by itself; overlap and distance must match the deepest and the closest
 * triangle's. A mesh cannot move: sw_sweep with the mesh as A is invalid
 * input.
 *
 * Input: header; vertex count (1 + byte % 8) and triangle count
 * (1 + byte % 6); per vertex a byte choosing a lattice point (small
 * integers times a decoded spacing) or a decoded vector; per index a byte
 * (byte % (count + 2) - 1: -1 and count are out of range); position,
 * rotation, one_sided; a byte whose bits 0-5 choose the movers swept
 * (point, segment, sphere, capsule, box, hull), then per mover its shape
 * (fz_shape_of), d and options; the ray; a static shape's type (byte) and
 * the shape. */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "oracle.h"

#define MAX_V 8
#define MAX_T 6

static struct {
    int nv, nt;
    sw_vec3 v[MAX_V];
    int tri[3 * MAX_T];
    sw_shape mesh;
    sw_shape a;
    sw_vec3 d;
    sw_sweep_options opt_storage;
    const sw_sweep_options* opt;
    sw_ray ray;
    const char* query;
} cur;

static void describe(FILE* out)
{
    fprintf(out, "  while checking %s\n", cur.query);
    fprintf(out, "  mesh of %d vertices, %d triangles:\n", cur.nv, cur.nt);
    for (int i = 0; i < cur.nv; ++i) {
        char name[16];
        snprintf(name, sizeof name, "v%d", i);
        fz_print_vec3(out, name, cur.v[i]);
    }
    for (int i = 0; i < cur.nt; ++i) {
        fprintf(out, "    tri %d = [%d, %d, %d]\n", i, cur.tri[3 * i], cur.tri[3 * i + 1], cur.tri[3 * i + 2]);
    }
    fz_print_vec3(out, "position", cur.mesh.mesh.position);
    fprintf(out, "    rotation = [%.17g, %.17g, %.17g, %.17g], one_sided = %d\n", (double)cur.mesh.mesh.rotation.x,
            (double)cur.mesh.mesh.rotation.y, (double)cur.mesh.mesh.rotation.z, (double)cur.mesh.mesh.rotation.w,
            (int)cur.mesh.mesh.one_sided);
    fz_print_shape(out, "a", &cur.a);
    fz_print_vec3(out, "d", cur.d);
    fz_print_options(out, cur.opt);
    fz_print_vec3(out, "ray.origin", cur.ray.origin);
    fz_print_vec3(out, "ray.dir", cur.ray.dir);
    fz_print_real(out, "ray.max", cur.ray.max);
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    (void)argc;
    (void)argv;
    fz_init(describe);
    return 0;
}

static bool finite_in_range(sw_vec3 v)
{
    const sw_real c[3] = {v.x, v.y, v.z};
    for (int k = 0; k < 3; ++k) {
        if (!isfinite(c[k]) || fabsl((long double)c[k]) > SW_MAX_COORD) {
            return false;
        }
    }
    return true;
}

static long double dot_ld(sw_vec3 a, sw_vec3 b)
{
    return (long double)a.x * b.x + (long double)a.y * b.y + (long double)a.z * b.z;
}

static long double len_ld(sw_vec3 a) { return sqrtl(dot_ld(a, a)); }

/* The query's scale: A (or the ray), d, the skin and every placed vertex. */
static long double mesh_scale(long double scale)
{
    for (int i = 0; i < cur.nt; ++i) {
        sw_vec3 w[3];
        if (sw_mesh_world_triangle(&cur.mesh.mesh, i, w)) {
            for (int k = 0; k < 3; ++k) {
                scale = fz_scale_vec3(scale, w[k]);
            }
        }
    }
    return scale;
}

static sw_shape world_triangle(int i)
{
    sw_vec3 w[3];
    FZ_CHECK(sw_mesh_world_triangle(&cur.mesh.mesh, i, w), "sw_mesh_world_triangle(%d) failed", i);
    return sw_make_triangle(w[0], w[1], w[2], cur.mesh.mesh.one_sided);
}

/* A contact whose time may slide (DESIGN §3's shallow approach): its
 * normal within 0.1 |d| of tangent. */
static bool shallow(const sw_hit* h, sw_vec3 d) { return fabsl(dot_ld(h->normal, d)) < 0.1L * len_ld(d); }

typedef struct brute {
    sw_hit first;  /* the earliest triangle hit (lowest index on ties) */
    int id;        /* -1: none */
    bool all_soft; /* every triangle hit is shallow, or a start within the band */
} brute;

/* The mesh's answer h (t in units of d: a sweep's t, a ray's t / max)
 * against the brute force b, both for the motion d. */
static void compare(const sw_hit* h, const brute* b, sw_vec3 d, long double tmax, long double tol, bool ignoring)
{
    const long double band = FZ_BAND * tol, slack = 2 * FZ_SLACK * tol, dl = len_ld(d);
    if (!h->hit) {
        /* A miss: every triangle's hit must be one the band or the options
         * excuse (a shallow graze, a touch at the start, an ignored start). */
        FZ_CHECK(b->id < 0 || b->all_soft || ignoring,
                 "the mesh misses; triangle %d is hit at t = %.17g (normal . d %Lg |d|)", b->id, (double)b->first.t,
                 dl > 0 ? dot_ld(b->first.normal, d) / dl : 0);
        return;
    }
    FZ_CHECK(h->triangle >= 0 && h->triangle < cur.nt, "hit names triangle %d of %d", h->triangle, cur.nt);
    if (b->id < 0) {
        FZ_CHECK(shallow(h, d) || (h->overlapping && h->depth <= band) || ignoring,
                 "the mesh hits triangle %d at t = %.17g, which no triangle alone does", h->triangle, (double)h->t);
        return;
    }
    const long double th = tmax > 0 ? h->t / tmax : 0, tb = tmax > 0 ? b->first.t / tmax : 0;
    if (!shallow(h, d) && !shallow(&b->first, d) && !ignoring) {
        FZ_CHECK(
            fabsl(th - tb) * dl <= slack,
            "the mesh hits triangle %d at t = %.17g, triangle %d alone first at t = %.17g (|dt| |d| %Lg, slack %Lg)",
            h->triangle, (double)h->t, b->id, (double)b->first.t, fabsl(th - tb) * dl, slack);
    }
}

/* The named triangle alone, without the options' ignore rule (the mesh
 * flattens normals on flat edges): hit at the mesh's time, unless the
 * contact is shallow. */
static void check_named(const sw_hit* h, const sw_shape* a, sw_vec3 d, const sw_ray* ray, long double tol)
{
    if (!h->hit || h->triangle < 0 || h->triangle >= cur.nt) {
        return;
    }
    const sw_shape t = world_triangle(h->triangle);
    sw_sweep_options plain = cur.opt ? *cur.opt : (sw_sweep_options){0};
    plain.ignore_separating = false;
    const sw_hit s = ray ? sw_raycast(ray, &t) : sw_sweep(a, d, &t, &plain);
    const long double dl = len_ld(d), tmax = ray ? ray->max : 1;
    if (shallow(h, d) || (h->overlapping && h->depth <= FZ_BAND * tol)) {
        return;
    }
    FZ_CHECK(s.hit, "the mesh names triangle %d at t = %.17g, which alone it misses", h->triangle, (double)h->t);
    if (!shallow(&s, d) && tmax > 0) {
        FZ_CHECK(fabsl((long double)h->t - s.t) / tmax * dl <= 2 * FZ_SLACK * tol,
                 "the mesh names triangle %d at t = %.17g; alone it is hit at t = %.17g", h->triangle, (double)h->t,
                 (double)s.t);
    }
}

/* The diagonal of a shape's bounds (0 for a point or ray origin). */
static long double diagonal(const sw_shape* s)
{
    const sw_aabb bb = sw_shape_bounds(s);
    return len_ld(sw_sub(bb.max, bb.min));
}

static brute brute_sweep(const sw_shape* a, sw_vec3 d, const sw_ray* ray, long double tol)
{
    brute b = {{0}, -1, true};
    /* A hit is required only where A gets deeper than the band into the
     * triangle grown by the skin (DESIGN §3); where the band exceeds what
     * A and the triangle could overlap by at all (a path 2e10 long past
     * shapes 100 across: tol * scale = 2e5), every hit is one the band
     * allows, and so is a miss. */
    const long double a_size = ray ? 0 : diagonal(a) + 2 * (long double)(cur.opt ? cur.opt->skin : 0);
    for (int i = 0; i < cur.nt; ++i) {
        const sw_shape t = world_triangle(i);
        const bool room = FZ_BAND * tol < a_size + diagonal(&t);
        const sw_hit s = ray ? sw_raycast(ray, &t) : sw_sweep(a, d, &t, cur.opt);
        if (s.status != SW_OK || !s.hit) {
            continue;
        }
        if (b.id < 0 || s.t < b.first.t) {
            b.first = s;
            b.id = i;
        }
        /* A contact so near the path's end that A gets no deeper than the
         * band by t = 1 (a sphere touching a sliver at t = 1 - 7.7e-13). */
        const long double tmax = ray ? ray->max : 1;
        const bool late = tmax > 0 && (1 - s.t / tmax) * fabsl(dot_ld(s.normal, d)) <= FZ_BAND * tol;
        if (room && !late && !shallow(&s, d) && !(s.overlapping && s.depth <= FZ_BAND * tol)) {
            b.all_soft = false;
        }
    }
    return b;
}

static void sweep_mover(fz_in* in, sw_shape_type type, bool mesh_ok)
{
    cur.a = fz_shape_of(in, type);
    cur.d = fz_vec3(in);
    cur.opt = fz_options(in, &cur.opt_storage);
    const bool valid = mesh_ok && sw_is_valid_shape(&cur.a) && sw_is_valid_vec3(cur.d) &&
                       (!cur.opt || sw_is_valid_sweep_options(cur.opt));
    cur.query = "sw_sweep(a, d, mesh)";
    fz_begin_query();
    const sw_hit h = sw_sweep(&cur.a, cur.d, &cur.mesh, cur.opt);
    fz_check_hit(&h, valid, true, 1);
    if (!valid || h.status != SW_OK) {
        return;
    }
    long double scale = mesh_scale(fz_scale_vec3(fz_scale_shape(0, &cur.a), cur.d));
    scale = cur.opt ? fz_scale_real(scale, cur.opt->skin) : scale;
    const long double tol = fz_tol(scale);
    cur.query = "sw_sweep(a, d, mesh) against the triangles one by one";
    const brute b = brute_sweep(&cur.a, cur.d, NULL, tol);
    compare(&h, &b, cur.d, 1, tol, cur.opt && cur.opt->ignore_separating);
    cur.query = "sw_sweep(a, d, mesh) against the triangle it names";
    check_named(&h, &cur.a, cur.d, NULL, tol);
    /* A mesh cannot move. */
    cur.query = "sw_sweep(mesh, d, a)";
    fz_begin_query();
    const sw_hit m = sw_sweep(&cur.mesh, cur.d, &cur.a, cur.opt);
    fz_check_hit(&m, false, false, 1);
}

static void raycast(fz_in* in, bool mesh_ok)
{
    cur.ray = fz_ray(in);
    const bool valid = mesh_ok && sw_is_valid_ray(&cur.ray);
    cur.query = "sw_raycast(ray, mesh)";
    fz_begin_query();
    const sw_hit h = sw_raycast(&cur.ray, &cur.mesh);
    fz_check_hit(&h, valid, true, valid ? cur.ray.max : 0);
    if (!valid || h.status != SW_OK) {
        return;
    }
    const sw_vec3 d = sw_scale(cur.ray.dir, cur.ray.max);
    if (!sw_is_valid_vec3(d)) {
        return; /* max * dir overflows: no motion to compare along */
    }
    const long double tol = fz_tol(mesh_scale(fz_scale_vec3(fz_scale_vec3(0, cur.ray.origin), d)));
    cur.query = "sw_raycast(ray, mesh) against the triangles one by one";
    const brute b = brute_sweep(NULL, d, &cur.ray, tol);
    compare(&h, &b, d, cur.ray.max, tol, false);
    cur.query = "sw_raycast(ray, mesh) against the triangle it names";
    check_named(&h, NULL, d, &cur.ray, tol);
}

static void static_queries(fz_in* in, bool mesh_ok)
{
    const sw_shape_type types[] = {SW_SHAPE_POINT, SW_SHAPE_SEGMENT,  SW_SHAPE_SPHERE,  SW_SHAPE_CAPSULE, SW_SHAPE_BOX,
                                   SW_SHAPE_PLANE, SW_SHAPE_TRIANGLE, SW_SHAPE_POLYGON, SW_SHAPE_HULL};
    cur.a = fz_shape_of(in, types[fz_byte(in) % (sizeof types / sizeof types[0])]);
    const bool valid = mesh_ok && sw_is_valid_shape(&cur.a);
    cur.query = "sw_overlap(a, mesh) and sw_overlap(mesh, a)";
    fz_begin_query();
    const sw_overlap_result o = sw_overlap(&cur.a, &cur.mesh);
    fz_check_overlap(&o, valid, true);
    fz_begin_query();
    const sw_overlap_result om = sw_overlap(&cur.mesh, &cur.a);
    fz_check_overlap(&om, valid, true);
    cur.query = "sw_distance(a, mesh) and sw_distance(mesh, a)";
    fz_begin_query();
    const sw_distance_result r = sw_distance(&cur.a, &cur.mesh);
    fz_check_distance(&r, valid, true);
    fz_begin_query();
    const sw_distance_result rm = sw_distance(&cur.mesh, &cur.a);
    fz_check_distance(&rm, valid, true);
    if (!valid || o.status != SW_OK || r.status != SW_OK) {
        return;
    }
    const long double tol = fz_tol(mesh_scale(fz_scale_shape(0, &cur.a)));
    const long double slack = 2 * FZ_SLACK * tol, band = FZ_BAND * tol;
    /* The mirrors: the same depth and distance, the normal reversed. */
    cur.query = "sw_overlap(mesh, a) against sw_overlap(a, mesh)";
    FZ_CHECK(om.overlapping == o.overlapping && fabsl((long double)om.depth - o.depth) <= slack &&
                 (!o.overlapping || len_ld(sw_add(om.normal, o.normal)) <= 1e-3L),
             "mirrored overlap: %d depth %.17g, against %d depth %.17g", om.overlapping, (double)om.depth,
             o.overlapping, (double)o.depth);
    cur.query = "sw_distance(mesh, a) against sw_distance(a, mesh)";
    FZ_CHECK(fabsl((long double)rm.distance - r.distance) <= slack, "mirrored distance %.17g against %.17g",
             (double)rm.distance, (double)r.distance);
    /* Brute force: the deepest and the closest triangle. */
    bool any = false;
    long double deepest = 0, closest = INFINITY;
    for (int i = 0; i < cur.nt; ++i) {
        const sw_shape t = world_triangle(i);
        const sw_overlap_result ot = sw_overlap(&cur.a, &t);
        const sw_distance_result dt = sw_distance(&cur.a, &t);
        if (ot.status == SW_OK && ot.overlapping) {
            any = true;
            deepest = fmaxl(deepest, ot.depth);
        }
        if (dt.status == SW_OK) {
            closest = fminl(closest, dt.distance);
        }
    }
    cur.query = "sw_overlap(a, mesh) against the triangles one by one";
    FZ_CHECK(o.overlapping == any || (o.overlapping ? o.depth <= band : deepest <= band),
             "the mesh says overlapping = %d (depth %.17g), the triangles %d (deepest %.17Lg)", o.overlapping,
             (double)o.depth, any, deepest);
    if (o.overlapping && any) {
        FZ_CHECK(fabsl((long double)o.depth - deepest) <= slack, "depth %.17g, the deepest triangle's %.17Lg",
                 (double)o.depth, deepest);
    }
    cur.query = "sw_distance(a, mesh) against the triangles one by one";
    FZ_CHECK(fabsl((long double)r.distance - closest) <= slack, "distance %.17g, the closest triangle's %.17Lg",
             (double)r.distance, closest);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fz_in in;
    fz_begin(&in, data, size);
    memset(&cur, 0, sizeof cur);
    cur.nv = 1 + fz_byte(&in) % MAX_V;
    cur.nt = 1 + fz_byte(&in) % MAX_T;
    const sw_real spacing = fz_extent(&in);
    bool vertices_ok = true, indices_ok = true;
    for (int i = 0; i < cur.nv; ++i) {
        const uint8_t sel = fz_byte(&in);
        if (sel & 1) {
            /* A lattice point: -2..2 spacings on each axis. */
            const uint8_t b = fz_byte(&in);
            const int c[3] = {(sel >> 1) % 5 - 2, b % 5 - 2, (b / 5) % 5 - 2};
            cur.v[i] = sw_v3((sw_real)c[0] * spacing, (sw_real)c[1] * spacing, (sw_real)c[2] * spacing);
        } else {
            cur.v[i] = fz_vec3(&in);
        }
        vertices_ok = vertices_ok && finite_in_range(cur.v[i]);
    }
    for (int i = 0; i < 3 * cur.nt; ++i) {
        cur.tri[i] = fz_byte(&in) % (cur.nv + 2) - 1;
        indices_ok = indices_ok && cur.tri[i] >= 0 && cur.tri[i] < cur.nv;
    }
    cur.query = "sw_mesh_create";
    sw_mesh_error err = SW_MESH_OK;
    sw_mesh* mesh = sw_mesh_create(cur.v, cur.nv, cur.tri, cur.nt, &err);
    if (!vertices_ok || !indices_ok) {
        /* Either error where both are wrong. */
        FZ_CHECK(mesh == NULL &&
                     ((!indices_ok && err == SW_MESH_INVALID_INDEX) || (!vertices_ok && err == SW_MESH_INVALID_VERTEX)),
                 "sw_mesh_create of bad input: %s, error \"%s\" (vertices ok %d, indices ok %d)",
                 mesh ? "a mesh" : "NULL", sw_mesh_error_string(err), vertices_ok, indices_ok);
    } else {
        FZ_CHECK(mesh != NULL && err == SW_MESH_OK, "sw_mesh_create failed: %s", sw_mesh_error_string(err));
        const sw_mesh_info info = sw_mesh_get_info(mesh);
        FZ_CHECK(info.vertex_count == cur.nv && info.triangle_count == cur.nt && info.node_count >= 1 &&
                     info.depth >= 1 && info.flat_edges >= 0 && info.flat_edges <= 3 * cur.nt,
                 "info: %d vertices, %d triangles, %d nodes, depth %d, %d flat edges", info.vertex_count,
                 info.triangle_count, info.node_count, info.depth, info.flat_edges);
        for (int i = 0; i < cur.nt; ++i) {
            sw_vec3 lv[3];
            FZ_CHECK(sw_mesh_triangle(mesh, i, lv, NULL) && memcmp(&lv[0], &cur.v[cur.tri[3 * i]], sizeof lv[0]) == 0 &&
                         memcmp(&lv[1], &cur.v[cur.tri[3 * i + 1]], sizeof lv[1]) == 0 &&
                         memcmp(&lv[2], &cur.v[cur.tri[3 * i + 2]], sizeof lv[2]) == 0,
                     "sw_mesh_triangle(%d) differs from the input", i);
        }
    }
    const sw_vec3 position = fz_vec3(&in);
    const sw_quat rotation = fz_quat(&in);
    cur.mesh = sw_make_mesh(mesh, position, rotation, fz_bool(&in));
    const bool mesh_ok = mesh && sw_is_valid_mesh_instance(&cur.mesh.mesh);
    /* The movers this input sweeps (a bit each; fewer per input keeps the
     * runs fast under the sanitizers). */
    const uint8_t which = fz_byte(&in);
    const sw_shape_type movers[] = {SW_SHAPE_POINT,   SW_SHAPE_SEGMENT, SW_SHAPE_SPHERE,
                                    SW_SHAPE_CAPSULE, SW_SHAPE_BOX,     SW_SHAPE_HULL};
    for (size_t i = 0; i < sizeof movers / sizeof movers[0]; ++i) {
        if ((which >> i) & 1) {
            sweep_mover(&in, movers[i], mesh_ok);
        }
    }
    raycast(&in, mesh_ok);
    static_queries(&in, mesh_ok);
    sw_mesh_destroy(mesh);
    return 0;
}
