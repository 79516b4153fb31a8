/* Tests of `sweep render`: every shape type and every query type gives a
 * valid, non-blank PNG of the requested size and a valid SVG; the marks that
 * matter (contact point, normal arrow) land on the right pixels; the
 * contact view and the inset are chosen as documented; five fixed queries
 * match golden images; bad input gives an error, never a crash. Queries
 * over a scene are in render_scene_test.c.
 *
 * Regenerating the golden images (after an intended change of the drawing):
 *   SWEEP_UPDATE_GOLDEN=1 ctest --test-dir BUILD -R render_golden
 * rewrites the PNG files in tests/render/golden; look at them before
 * committing. */
#define _POSIX_C_SOURCE 200809L

// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>

#include "commands.h"
#include "render.h"
#include "render_test.h"

/* ---- requests ------------------------------------------------------------- */

static request make_request(req_op op, sw_shape a, sw_vec3 d, sw_shape b)
{
    request r;
    memset(&r, 0, sizeof r);
    r.op = op;
    r.a = a;
    r.b = b;
    r.d = d;
    return r;
}

static request sweep_request(sw_shape a, sw_vec3 d, sw_shape b) { return make_request(REQ_SWEEP, a, d, b); }

static request raycast_request(sw_vec3 origin, sw_vec3 dir, sw_real max, sw_shape b)
{
    request r = make_request(REQ_RAYCAST, sw_make_point(origin), sw_v3(0, 0, 0), b);
    r.ray.origin = origin;
    r.ray.dir = dir;
    r.ray.max = max;
    return r;
}

/* A sphere grazing another on its way (golden 1). */
static request graze_request(void)
{
    return sweep_request(sw_make_sphere(sw_v3(-4, SW_R(0.3), SW_R(0.5)), 1), sw_v3(8, SW_R(0.4), SW_R(-0.2)),
                         sw_make_sphere(sw_v3(0, SW_R(2.2), 0), SW_R(1.2)));
}

/* A sphere moving inside a box turned 30 degrees about z (golden 2). */
static request inside_box_request(void)
{
    sw_quat rot = {0, 0, SW_R(0.258819045), SW_R(0.965925826)};
    return make_request(REQ_SWEEP_INSIDE, sw_make_sphere(sw_v3(0, 0, 0), SW_R(0.5)), sw_v3(6, 3, 1),
                        sw_make_box(sw_v3(0, 0, 0), sw_v3(3, 2, SW_R(1.5)), rot));
}

/* Closest points of a capsule and a segment (golden 3). */
static request distance_request(void)
{
    return make_request(REQ_DISTANCE, sw_make_capsule(sw_v3(-2, 0, 0), sw_v3(2, 1, 0), SW_R(0.5)), sw_v3(0, 0, 0),
                        sw_make_segment(sw_v3(0, -3, 2), sw_v3(1, 3, SW_R(2.5))));
}

/* A sphere landing on a tilted floor. */
static request plane_request(void)
{
    return sweep_request(sw_make_sphere(sw_v3(0, 0, 3), SW_R(0.5)), sw_v3(1, SW_R(0.5), -4),
                         sw_make_plane(sw_v3(SW_R(0.3), SW_R(0.4), 1), 0));
}

/* ---- pixels --------------------------------------------------------------- */

rgb pixel(cairo_surface_t* s, int x, int y)
{
    const unsigned char* data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    uint32_t p;
    memcpy(&p, data + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
    /* Opaque ARGB32 (the background is opaque), so no un-premultiplying. */
    rgb c = {(int)(p >> 16 & 255), (int)(p >> 8 & 255), (int)(p & 255)};
    return c;
}

static bool is_background(rgb c) { return c.r == 255 && c.g == 255 && c.b == 255; }

/* The contact point's and the normal's red (COL_CONTACT, COL_NORMAL). */
static bool is_red(rgb c) { return c.r > 170 && c.g < 90 && c.b < 90; }

/* Fraction of the pixels of the panel bodies that are not background. */
static double ink_fraction(cairo_surface_t* s, const render_scene* sc)
{
    long ink = 0, total = 0;
    for (int i = 0; i < RENDER_PANELS; i++) {
        const render_rect* b = &sc->panels[i].body;
        for (int y = (int)b->y + 2; y < (int)(b->y + b->h) - 2; y++) {
            for (int x = (int)b->x + 2; x < (int)(b->x + b->w) - 2; x++) {
                ink += !is_background(pixel(s, x, y));
                total++;
            }
        }
    }
    return total > 0 ? (double)ink / (double)total : 0;
}

cairo_surface_t* draw_to_image(const render_scene* sc)
{
    cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, sc->width, sc->height);
    cairo_t* cr = cairo_create(s);
    render_scene_draw(sc, cr);
    assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static render_scene* build(const request* req, int w, int h)
{
    render_scene* sc = malloc(sizeof *sc);
    assert_non_null(sc);
    char err[256] = "";
    render_status st = render_scene_build(sc, req, w, h, err, sizeof err);
    if (st == RENDER_ERROR) {
        fail_msg("render_scene_build failed: %s", err);
    }
    return sc;
}

/* Renders req to a PNG file, loads it back and checks its size and that
 * the drawing is not blank; returns the build's status. */
static render_status check_png(const request* req, const char* name, int w, int h)
{
    char path[256];
    snprintf(path, sizeof path, "%s.png", name);
    char err[256] = "";
    render_status st = render_request(req, path, w, h, err, sizeof err);
    if (st == RENDER_ERROR) {
        fail_msg("%s: %s", name, err);
    }
    cairo_surface_t* s = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    assert_int_equal(cairo_image_surface_get_width(s), w);
    assert_int_equal(cairo_image_surface_get_height(s), h);
    render_scene* sc = build(req, w, h);
    double ink = ink_fraction(s, sc);
    if (!(ink > 0.01 && ink < 0.95)) {
        fail_msg("%s: %.4f of the panel pixels are drawn; expected a picture", name, ink);
    }
    free(sc);
    cairo_surface_destroy(s);
    return st;
}

static void check_svg(const request* req, const char* name)
{
    char path[256];
    snprintf(path, sizeof path, "%s.svg", name);
    char err[256] = "";
    assert_int_not_equal(render_request(req, path, 0, 0, err, sizeof err), RENDER_ERROR);
    FILE* f = fopen(path, "rb");
    assert_non_null(f);
    char head[64] = "";
    size_t n = fread(head, 1, sizeof head - 1, f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    assert_true(n > 5);
    assert_true(strncmp(head, "<?xml", 5) == 0 || strncmp(head, "<svg", 4) == 0);
    assert_true(size > 1000);
}

/* ---- every shape type, every query type ---------------------------------- */

static const sw_vec3 POLYGON[5] = {{-2, -1, 0}, {1, -2, 0}, {3, 0, 0}, {1, 2, 0}, {-2, 1, 0}};

/* A cube of half size 1 as its corners in the box numbering (hull
 * vertices 0..7), a face centre and a repeated corner; and an irregular
 * hull. Built by the group's setup, freed by its teardown. */
static const sw_vec3 CUBE[10] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1}, {-1, -1, 1},
                                 {1, -1, 1},   {-1, 1, 1},  {1, 1, 1},   {0, 0, 1},  {1, 1, 1}};
static const sw_vec3 GEM[9] = {
    {0, 0, SW_R(1.4)},          {SW_R(1.2), 0, SW_R(0.2)},   {SW_R(0.4), SW_R(1.1), SW_R(0.3)},
    {SW_R(-0.9), SW_R(0.7), 0}, {-1, SW_R(-0.6), SW_R(0.1)}, {SW_R(0.3), SW_R(-1.1), SW_R(-0.2)},
    {0, 0, SW_R(-1.2)},         {SW_R(0.1), SW_R(0.2), 0},   {SW_R(0.6), SW_R(0.5), SW_R(-0.6)}};
static sw_hull* cube_hull;
static sw_hull* gem_hull;

/* A mesh that is not convex: a roof of two slopes over a floor, sharing
 * the floor's far edge (so it has a border, a crease and a fold). */
static const sw_vec3 ROOF_V[7] = {{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}, {-2, 2, 0}, {-2, 0, 1}, {2, 0, 1}, {0, 3, 2}};
static const int ROOF_TRI[5][3] = {{0, 1, 2}, {0, 2, 3}, {0, 1, 5}, {0, 5, 4}, {4, 5, 6}};
static sw_mesh* roof_mesh;

/* A floor of n x n unit squares (2 triangles each, numbered along x, then
 * y) centred on the origin in z = 0; the caller destroys it. */
static sw_mesh* floor_mesh(int n)
{
    sw_vec3 v[(8 + 1) * (8 + 1)];
    int tri[8 * 8 * 6];
    assert_true(n >= 1 && n <= 8);
    for (int y = 0; y <= n; y++) {
        for (int x = 0; x <= n; x++) {
            v[y * (n + 1) + x] = sw_v3((sw_real)(x - n / 2.0), (sw_real)(y - n / 2.0), 0);
        }
    }
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) {
            const int a = y * (n + 1) + x, t = 6 * (y * n + x);
            const int quad[6] = {a, a + 1, a + n + 2, a, a + n + 2, a + n + 1};
            memcpy(&tri[t], quad, sizeof quad);
        }
    }
    sw_mesh* m = sw_mesh_create(v, (n + 1) * (n + 1), tri, 2 * n * n, NULL);
    assert_non_null(m);
    return m;
}

static int build_hulls(void** state)
{
    (void)state;
    cube_hull = sw_hull_create(CUBE, 10, NULL);
    gem_hull = sw_hull_create(GEM, 9, NULL);
    roof_mesh = sw_mesh_create(ROOF_V, 7, &ROOF_TRI[0][0], 5, NULL);
    return cube_hull != NULL && gem_hull != NULL && roof_mesh != NULL ? 0 : -1;
}

static int free_hulls(void** state)
{
    (void)state;
    sw_hull_destroy(cube_hull);
    sw_hull_destroy(gem_hull);
    sw_mesh_destroy(roof_mesh);
    cube_hull = gem_hull = NULL;
    roof_mesh = NULL;
    return 0;
}

/* The cube placed at (1, 0, 0) and turned 90 degrees about z. */
static sw_shape placed_cube(void) { return sw_make_hull(cube_hull, sw_v3(1, 0, 0), (sw_quat){0, 0, 1, 1}); }

/* One shape of every type the library knows, placed around the origin. */
static int all_shapes(sw_shape out[SW_SHAPE_TYPE_COUNT])
{
    int n = 0;
    for (int t = 0; t < SW_SHAPE_TYPE_COUNT; t++) {
        switch ((sw_shape_type)t) {
        case SW_SHAPE_POINT:
            out[n++] = sw_make_point(sw_v3(SW_R(0.2), SW_R(0.1), 0));
            break;
        case SW_SHAPE_SEGMENT:
            out[n++] = sw_make_segment(sw_v3(-1, -1, SW_R(-0.5)), sw_v3(1, SW_R(1.5), SW_R(0.5)));
            break;
        case SW_SHAPE_SPHERE:
            out[n++] = sw_make_sphere(sw_v3(0, 0, 0), SW_R(1.2));
            break;
        case SW_SHAPE_CAPSULE:
            out[n++] = sw_make_capsule(sw_v3(-1, 0, SW_R(-0.5)), sw_v3(1, SW_R(0.5), SW_R(0.5)), SW_R(0.6));
            break;
        case SW_SHAPE_BOX: {
            sw_quat q = {SW_R(0.2), SW_R(0.1), SW_R(0.3), SW_R(0.9)};
            out[n++] = sw_make_box(sw_v3(0, 0, 0), sw_v3(1, SW_R(1.5), SW_R(0.5)), q);
            break;
        }
        case SW_SHAPE_PLANE:
            out[n++] = sw_make_plane(sw_v3(0, SW_R(0.3), 1), 0);
            break;
        case SW_SHAPE_TRIANGLE:
            out[n++] = sw_make_triangle(sw_v3(-2, -2, 0), sw_v3(3, -1, SW_R(0.5)), sw_v3(0, 3, 0), false);
            break;
        case SW_SHAPE_POLYGON:
            out[n++] = sw_make_polygon(POLYGON, 5, false);
            break;
        case SW_SHAPE_HULL:
            out[n++] = sw_make_hull(gem_hull, sw_v3(SW_R(0.2), SW_R(-0.1), 0), (sw_quat){SW_R(0.1), SW_R(0.3), 0, 1});
            break;
        case SW_SHAPE_MESH:
            out[n++] = sw_make_mesh(roof_mesh, sw_v3(0, SW_R(-0.5), 0), (sw_quat){0, 0, SW_R(0.2), 1}, false);
            break;
        default:
            /* A type added since: the renderer draws it through its support
             * function; this test should get a shape of it. */
            fail_msg("render_test: add a shape of type %s", sw_shape_type_name((sw_shape_type)t));
        }
    }
    return n;
}

static void every_shape_type(void** state)
{
    (void)state;
    sw_shape shapes[SW_SHAPE_TYPE_COUNT];
    int n = all_shapes(shapes);
    for (int i = 0; i < n; i++) {
        char name[64];
        /* As the static shape B of a sweep, a ray cast and a distance query. */
        request req = sweep_request(sw_make_sphere(sw_v3(-4, 1, 3), SW_R(0.5)), sw_v3(6, -1, -4), shapes[i]);
        snprintf(name, sizeof name, "shape_b_%s", sw_shape_type_name(shapes[i].type));
        check_png(&req, name, 640, 220);
        req = raycast_request(sw_v3(-4, SW_R(0.1), 3), sw_v3(1, 0, SW_R(-0.7)), 8, shapes[i]);
        snprintf(name, sizeof name, "shape_ray_%s", sw_shape_type_name(shapes[i].type));
        check_png(&req, name, 640, 220);
        /* As A (planes and meshes never move; as A of a distance query they
         * stand still). */
        req = make_request(REQ_DISTANCE, shapes[i], sw_v3(0, 0, 0), sw_make_sphere(sw_v3(3, 3, 3), 1));
        snprintf(name, sizeof name, "shape_a_%s", sw_shape_type_name(shapes[i].type));
        check_png(&req, name, 640, 220);
        if (shapes[i].type != SW_SHAPE_PLANE && shapes[i].type != SW_SHAPE_MESH) {
            req = sweep_request(shapes[i], sw_v3(5, 1, 0), sw_make_sphere(sw_v3(4, 0, 0), 1));
            snprintf(name, sizeof name, "shape_sweep_a_%s", sw_shape_type_name(shapes[i].type));
            check_png(&req, name, 640, 220);
        }
    }
}

/* Every op, in the cases a user meets: hit, miss, initial overlap. */
enum { MAX_QUERIES = 12 };

static int all_queries(request out[MAX_QUERIES], const char* names[MAX_QUERIES])
{
    int n = 0;
    names[n] = "sweep_hit";
    out[n++] = graze_request();
    names[n] = "sweep_miss";
    out[n++] =
        sweep_request(sw_make_sphere(sw_v3(-4, 3, 0), SW_R(0.5)), sw_v3(8, 0, 0), sw_make_sphere(sw_v3(0, 0, 0), 1));
    names[n] = "sweep_initial_overlap";
    out[n++] = sweep_request(sw_make_sphere(sw_v3(0, SW_R(0.3), 0), 1), sw_v3(3, 0, 0),
                             sw_make_sphere(sw_v3(SW_R(0.5), 0, 0), 1));
    names[n] = "raycast";
    out[n++] = raycast_request(sw_v3(-5, SW_R(0.2), 0), sw_v3(1, 0, SW_R(0.1)), 10, sw_make_sphere(sw_v3(0, 0, 0), 1));
    names[n] = "sweep_inside";
    out[n++] = inside_box_request();
    names[n] = "overlap";
    out[n++] = make_request(REQ_OVERLAP, sw_make_capsule(sw_v3(-2, 0, 0), sw_v3(2, 1, 0), SW_R(0.5)), sw_v3(0, 0, 0),
                            sw_make_sphere(sw_v3(SW_R(0.5), SW_R(0.3), SW_R(0.6)), SW_R(0.6)));
    names[n] = "overlap_separate";
    out[n++] =
        make_request(REQ_OVERLAP, sw_make_sphere(sw_v3(0, 0, 0), 1), sw_v3(0, 0, 0), sw_make_sphere(sw_v3(3, 0, 0), 1));
    names[n] = "distance";
    out[n++] = distance_request();
    names[n] = "sweep_skin";
    out[n] = sweep_request(sw_make_sphere(sw_v3(-4, SW_R(0.5), 0), SW_R(0.5)), sw_v3(8, 0, 0),
                           sw_make_capsule(sw_v3(0, -1, -1), sw_v3(SW_R(0.5), 1, 1), SW_R(0.4)));
    out[n++].opt.skin = SW_R(0.3);
    names[n] = "sweep_plane";
    out[n++] = plane_request();
    return n;
}

static void every_query_type(void** state)
{
    (void)state;
    request reqs[MAX_QUERIES];
    const char* names[MAX_QUERIES];
    int n = all_queries(reqs, names);
    for (int i = 0; i < n; i++) {
        assert_int_equal(check_png(&reqs[i], names[i], 800, 260), RENDER_OK);
        check_svg(&reqs[i], names[i]);
    }
}

static void default_and_custom_size(void** state)
{
    (void)state;
    request req = graze_request();
    check_png(&req, "default_size", RENDER_DEFAULT_WIDTH, RENDER_DEFAULT_HEIGHT);
    char err[256];
    assert_int_equal(render_request(&req, "default_size2.png", 0, 0, err, sizeof err), RENDER_OK);
    cairo_surface_t* s = cairo_image_surface_create_from_png("default_size2.png");
    assert_int_equal(cairo_image_surface_get_width(s), 1600);
    assert_int_equal(cairo_image_surface_get_height(s), 500);
    cairo_surface_destroy(s);
    check_png(&req, "small", RENDER_MIN_WIDTH, RENDER_MIN_HEIGHT);
    check_png(&req, "tall", 400, 900);
}

/* ---- the marks land where the answer says ---------------------------------- */

/* In every view the contact point is a red dot, and the normal arrow leaves
 * it in the direction of the projected normal (from B toward A). */
static void contact_and_normal_pixels(void** state)
{
    (void)state;
    request req = graze_request();
    render_scene* sc = build(&req, 1600, 500);
    assert_true(sc->hit.hit);
    cairo_surface_t* s = draw_to_image(sc);
    rv3 p = rv3_of(sc->hit.point), n = rv3_of(sc->hit.normal);
    for (int i = 0; i < RENDER_PANELS; i++) {
        const rview* v = &sc->panels[i].view;
        double x, y;
        rview_project(v, p, &x, &y);
        rgb c = pixel(s, (int)x, (int)y);
        if (!is_red(c)) {
            fail_msg("panel %d: the contact point's pixel (%d, %d) is %d,%d,%d, not red", i, (int)x, (int)y, c.r, c.g,
                     c.b);
        }
        double du = rv3_dot(n, v->right), dv = rv3_dot(n, v->up);
        if (sqrt(du * du + dv * dv) < 0.3) {
            continue;
        }
        /* Along the arrow's shaft, past the dot; the opposite side is not
         * the arrow. */
        double len = 0.16 * fmin(sc->panels[i].body.w, sc->panels[i].body.h);
        double ax = x + 0.55 * len * du, ay = y - 0.55 * len * dv;
        double bx = x - 0.55 * len * du, by = y + 0.55 * len * dv;
        c = pixel(s, (int)lround(ax), (int)lround(ay));
        if (!is_red(c)) {
            fail_msg("panel %d: the normal arrow is not at (%.0f, %.0f): %d,%d,%d", i, ax, ay, c.r, c.g, c.b);
        }
        c = pixel(s, (int)lround(bx), (int)lround(by));
        if (is_red(c)) {
            fail_msg("panel %d: red behind the contact at (%.0f, %.0f): is the normal flipped?", i, bx, by);
        }
    }
    cairo_surface_destroy(s);
    free(sc);
}

/* The feature highlight's orange (COL_FEATURE over the background). */
static bool is_orange(rgb c) { return c.r > 200 && c.g > 130 && c.g < 200 && c.b < 90; }

/* A plane is drawn as its section through its point nearest the contact,
 * so in every view its boundary (highlighted as the face hit) passes
 * through the contact point. */
static void plane_boundary_through_contact(void** state)
{
    (void)state;
    request req = plane_request();
    render_scene* sc = build(&req, 1600, 500);
    if (sc->status == SW_UNSUPPORTED) {
        free(sc);
        skip();
    }
    assert_true(sc->hit.hit);
    cairo_surface_t* s = draw_to_image(sc);
    rv3 p = rv3_of(sc->hit.point), n = rv3_of(req.b.plane.normal);
    rv3_normalize(&n);
    int checked = 0;
    for (int i = 0; i < RENDER_PANELS; i++) {
        const rview* v = &sc->panels[i].view;
        double du = rv3_dot(n, v->right), dv = rv3_dot(n, v->up);
        double len = sqrt(du * du + dv * dv);
        if (len < 0.3) {
            continue;
        }
        /* Along the boundary, on both sides of the contact's dot and clear
         * of A's outline, which touches the boundary there. */
        double x, y, tx = dv / len, ty = du / len;
        rview_project(v, p, &x, &y);
        for (int side = -1; side <= 1; side += 2) {
            rgb c = pixel(s, (int)lround(x + side * 24 * tx), (int)lround(y + side * 24 * ty));
            if (!is_orange(c)) {
                fail_msg("panel %d: no boundary 24 px from the contact along it: %d,%d,%d", i, c.r, c.g, c.b);
            }
        }
        checked++;
    }
    assert_true(checked >= 3);
    cairo_surface_destroy(s);
    free(sc);
}

/* The contact point of a sweep touches both shapes: B's outline passes
 * through it and A at impact is centred one radius away along the normal. */
static void contact_point_on_both_shapes(void** state)
{
    (void)state;
    request req = graze_request();
    render_scene* sc = build(&req, 1600, 500);
    rv3 p = rv3_of(sc->hit.point), n = rv3_of(sc->hit.normal);
    rv3 ca = rv3_add(rv3_of(req.a.sphere.center), sc->impact);
    rv3 cb = rv3_of(req.b.sphere.center);
    double tol = 1e-4;
    assert_true(fabs(rv3_length(rv3_sub(p, cb)) - (double)req.b.sphere.radius) < tol);
    assert_true(fabs(rv3_length(rv3_sub(p, ca)) - (double)req.a.sphere.radius) < tol);
    /* From B toward A. */
    assert_true(rv3_dot(n, rv3_sub(ca, cb)) > 0);
    free(sc);
}

/* ---- the contact view ----------------------------------------------------- */

static void contact_view_in_plane_of_d_and_n(void** state)
{
    (void)state;
    request req = graze_request();
    render_scene* sc = build(&req, 0, 0);
    const rview* v = &sc->panels[3].view;
    rv3 d = rv3_of(req.d), n = rv3_of(sc->hit.normal);
    rv3_normalize(&d);
    /* d points right, n up (its component across d), so the view looks
     * along d x n. */
    assert_true(rv3_dot(v->right, d) > 1 - 1e-9);
    assert_true(rv3_dot(v->up, n) > 0);
    assert_true(fabs(rv3_dot(v->up, d)) < 1e-9);
    rv3 c = rv3_cross(rv3_of(req.d), n);
    rv3_normalize(&c);
    assert_true(rv3_dot(rv3_cross(v->right, v->up), c) > 1 - 1e-9);
    assert_non_null(strstr(sc->panels[3].title, "plane of d and n"));
    free(sc);
}

static void check_basis(const rview* v)
{
    assert_true(fabs(rv3_length(v->right) - 1) < 1e-9);
    assert_true(fabs(rv3_length(v->up) - 1) < 1e-9);
    assert_true(fabs(rv3_dot(v->right, v->up)) < 1e-9);
}

/* Head-on, d x n = 0: the view still contains d and is orthonormal. */
static void contact_view_head_on_falls_back(void** state)
{
    (void)state;
    request req = sweep_request(sw_make_sphere(sw_v3(-5, 0, 0), 1), sw_v3(10, 0, 0), sw_make_sphere(sw_v3(0, 0, 0), 1));
    render_scene* sc = build(&req, 0, 0);
    assert_true(sc->hit.hit);
    const rview* v = &sc->panels[3].view;
    check_basis(v);
    assert_true(rv3_dot(v->right, rv3_make(1, 0, 0)) > 1 - 1e-9);
    assert_null(strstr(sc->panels[3].title, "plane of d and n"));
    free(sc);

    /* No motion, no normal: an isometric view rather than nothing. */
    req = make_request(REQ_DISTANCE, sw_make_point(sw_v3(1, 1, 1)), sw_v3(0, 0, 0), sw_make_point(sw_v3(1, 1, 1)));
    sc = build(&req, 0, 0);
    check_basis(&sc->panels[3].view);
    free(sc);
}

/* ---- hulls ---------------------------------------------------------------------- */

/* A sphere along x onto the turned cube: it meets the cube's face at
 * world x = 0, which is the cube's local +y face, face 4 ([2, 6, 7, 3]). */
static request hull_sweep_request(void)
{
    return sweep_request(sw_make_sphere(sw_v3(-5, SW_R(0.25), SW_R(0.5)), SW_R(0.5)), sw_v3(8, 0, 0), placed_cube());
}

/* The hull is drawn where it is: in every view its placed centre is
 * inked, and so is a point just inside each projected vertex. When the
 * library answers, the face hit is highlighted: the middles of its edges
 * are orange in every view where the face is not seen edge-on. */
static void hull_drawn_and_face_highlighted(void** state)
{
    (void)state;
    request req = hull_sweep_request();
    render_scene* sc = build(&req, 1600, 500);
    cairo_surface_t* s = draw_to_image(sc);
    const sw_shape* b = &req.b;
    sw_quat q = b->hull.rotation;
    sw_quat_normalize(&q);
    rv3 placed[8];
    for (int i = 0; i < 8; i++) {
        placed[i] = rv3_of(sw_add(sw_quat_rotate(q, cube_hull->vertices[i]), b->hull.position));
    }
    const rv3 centre = rv3_of(b->hull.position);
    for (int i = 0; i < RENDER_PANELS; i++) {
        const rview* v = &sc->panels[i].view;
        double x, y;
        rview_project(v, centre, &x, &y);
        if (is_background(pixel(s, (int)x, (int)y))) {
            fail_msg("panel %d: the hull's centre (%.0f, %.0f) is not drawn", i, x, y);
        }
        for (int k = 0; k < 8; k++) {
            double vx, vy;
            rview_project(v, placed[k], &vx, &vy);
            const double ix = vx + 0.1 * (x - vx), iy = vy + 0.1 * (y - vy);
            if (is_background(pixel(s, (int)lround(ix), (int)lround(iy)))) {
                fail_msg("panel %d: inside vertex %d of the hull, (%.0f, %.0f), nothing is drawn", i, k, ix, iy);
            }
        }
    }
    if (sc->status == SW_OK) {
        assert_true(sc->hit.hit);
        assert_int_equal(sc->hit.feature.kind, SW_FEATURE_FACE);
        assert_int_equal(sc->hit.feature.index, 4);
        const sw_hull_face* face = &cube_hull->faces[4];
        const rv3 n = rv3_of(sw_quat_rotate(q, face->normal));
        /* A point of the face (world x = 0) away from the contact. */
        const rv3 away = rv3_make(0, -0.8, -0.8);
        for (int i = 0; i < 3; i++) { /* top, front, side */
            const rview* v = &sc->panels[i].view;
            if (fabs(rv3_dot(n, rv3_cross(v->right, v->up))) < 0.3) {
                /* Edge-on: the face is a highlighted line. */
                double x, y;
                rview_project(v, away, &x, &y);
                rgb c = pixel(s, (int)lround(x), (int)lround(y));
                if (!is_orange(c)) {
                    fail_msg("panel %d: the face hit, seen edge-on, is not highlighted at (%.0f, %.0f): %d,%d,%d", i, x,
                             y, c.r, c.g, c.b);
                }
                continue;
            }
            int orange = 0;
            for (int k = 0; k < face->count; k++) {
                const int a = cube_hull->face_vertices[face->first + k];
                const int c = cube_hull->face_vertices[face->first + (k + 1) % face->count];
                double x, y;
                rview_project(v, rv3_scale(rv3_add(placed[a], placed[c]), 0.5), &x, &y);
                orange += is_orange(pixel(s, (int)lround(x), (int)lround(y)));
            }
            if (orange < 3) {
                fail_msg("panel %d: %d of the hit face's 4 edges are highlighted", i, orange);
            }
        }
        assert_non_null(strstr(sc->caption_line[0], "feature = face 4"));
    }
    assert_non_null(strstr(sc->caption_line[1], "B: hull of 8 vertices, 12 edges, 6 faces at (1, 0, 0)"));
    cairo_surface_destroy(s);
    free(sc);
    check_png(&req, "hull_sweep", 800, 260);
    check_svg(&req, "hull_sweep");
}

/* Vertex, edge and face paths follow the hull's numbering (hull.h) and its
 * placement; an index out of range adds nothing. */
static void hull_feature_paths(void** state)
{
    (void)state;
    request req = hull_sweep_request();
    render_scene* sc = build(&req, 800, 260);
    const rview* v = &sc->panels[1].view; /* front: x right, z up */
    const sw_shape cube = placed_cube();
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 800, 260);
    cairo_t* cr = cairo_create(surface);
    sw_quat q = cube.hull.rotation;
    sw_quat_normalize(&q);
    for (int i = 0; i < cube_hull->vertex_count; i++) {
        cairo_new_path(cr);
        assert_true(rs_path_feature(cr, v, &cube, (sw_feature){SW_FEATURE_VERTEX, i}, 0));
        double x0, y0, x1, y1, x, y;
        cairo_path_extents(cr, &x0, &y0, &x1, &y1);
        rview_project(v, rv3_of(sw_add(sw_quat_rotate(q, cube_hull->vertices[i]), cube.hull.position)), &x, &y);
        assert_true(x0 < x && x < x1 && y0 < y && y < y1);
    }
    for (int i = 0; i < cube_hull->edge_count; i++) {
        cairo_new_path(cr);
        assert_true(rs_path_feature(cr, v, &cube, (sw_feature){SW_FEATURE_EDGE, i}, 0));
        double x0, y0, x1, y1;
        cairo_path_extents(cr, &x0, &y0, &x1, &y1);
        for (int e = 0; e < 2; e++) {
            double x, y;
            const sw_vec3 p = cube_hull->vertices[cube_hull->edges[i].v[e]];
            rview_project(v, rv3_of(sw_add(sw_quat_rotate(q, p), cube.hull.position)), &x, &y);
            assert_true(x0 - 0.5 <= x && x <= x1 + 0.5 && y0 - 0.5 <= y && y <= y1 + 0.5);
        }
    }
    for (int i = 0; i < cube_hull->face_count; i++) {
        cairo_new_path(cr);
        assert_true(rs_path_feature(cr, v, &cube, (sw_feature){SW_FEATURE_FACE, i}, 0));
    }
    cairo_new_path(cr);
    assert_false(rs_path_feature(cr, v, &cube, (sw_feature){SW_FEATURE_VERTEX, 8}, 0));
    assert_false(rs_path_feature(cr, v, &cube, (sw_feature){SW_FEATURE_EDGE, -1}, 0));
    assert_false(rs_path_feature(cr, v, &cube, (sw_feature){SW_FEATURE_FACE, 6}, 0));
    assert_false(rs_path_feature(cr, v, &cube, (sw_feature){SW_FEATURE_NONE, 0}, 0));
    double x0, y0, x1, y1;
    cairo_path_extents(cr, &x0, &y0, &x1, &y1);
    assert_true(x0 == x1 && y0 == y1); /* nothing added */
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    free(sc);
}

/* A hull of the most vertices allowed (points on a sphere) is drawn, as B
 * and as the moving shape, without a crash or a cairo error. */
static void hull_of_many_vertices(void** state)
{
    (void)state;
    enum { N = SW_MAX_HULL_VERTICES };
    sw_vec3* pts = malloc(N * sizeof *pts);
    assert_non_null(pts);
    for (int i = 0; i < N; i++) {
        const double z = 1 - (2.0 * i + 1) / N, r = sqrt(1 - z * z), phi = 2.399963229728653 * i;
        pts[i] = sw_v3((sw_real)(r * cos(phi)), (sw_real)(r * sin(phi)), (sw_real)z);
    }
    sw_hull* h = sw_hull_create(pts, N, NULL);
    assert_non_null(h);
    assert_int_equal(h->vertex_count, N);
    const sw_shape ball = sw_make_hull(h, sw_v3(0, 0, 0), sw_quat_identity());
    request req = sweep_request(sw_make_sphere(sw_v3(-4, SW_R(0.3), 0), SW_R(0.5)), sw_v3(8, 0, 0), ball);
    check_png(&req, "hull_many_b", 800, 260);
    req = sweep_request(ball, sw_v3(0, 0, -3), sw_make_sphere(sw_v3(0, 0, -4), 1));
    check_png(&req, "hull_many_a", 800, 260);
    sw_hull_destroy(h);
    free(pts);
}

/* ---- meshes --------------------------------------------------------------------- */

/* A small sphere dropped on a floor of 4 x 4 squares lands in triangle 13,
 * (0, -1) (1, 0) (0, 0): that triangle is highlighted in the top view away
 * from the contact, the rest of the floor is drawn but not highlighted,
 * and the caption names the triangle. */
static void mesh_drawn_and_triangle_highlighted(void** state)
{
    (void)state;
    sw_mesh* floor = floor_mesh(4);
    const sw_shape b = sw_make_mesh(floor, sw_v3(0, 0, 0), sw_quat_identity(), false);
    request req = sweep_request(sw_make_sphere(sw_v3(SW_R(0.25), SW_R(-0.55), 2), SW_R(0.1)), sw_v3(0, 0, -4), b);
    render_scene* sc = build(&req, 1600, 500);
    assert_int_equal(sc->status, SW_OK);
    assert_true(sc->hit.hit);
    assert_int_equal(sc->hit.triangle, 13);
    cairo_surface_t* s = draw_to_image(sc);
    const rview* top = &sc->panels[0].view;
    double x, y;
    rview_project(top, rv3_make(0.15, -0.15, 0), &x, &y);
    rgb c = pixel(s, (int)lround(x), (int)lround(y));
    if (!(c.r > 200 && c.b < 170 && c.r - c.b > 70)) {
        fail_msg("the triangle hit is not highlighted at (%.0f, %.0f): %d,%d,%d", x, y, c.r, c.g, c.b);
    }
    rview_project(top, rv3_make(-1.3, 1.6, 0), &x, &y);
    c = pixel(s, (int)lround(x), (int)lround(y));
    if (is_background(c) || c.r - c.b > 30) {
        fail_msg("the floor away from the hit is not drawn plain at (%.0f, %.0f): %d,%d,%d", x, y, c.r, c.g, c.b);
    }
    assert_non_null(strstr(sc->caption_line[0], "feature = face 0 of triangle 13"));
    assert_non_null(strstr(sc->caption_line[1], "B: mesh of 32 triangles, 25 vertices at (0, 0, 0)"));

    /* Paths: the triangle and its features by its own numbering; nothing
     * for an index out of range or another shape. */
    cairo_t* cr = cairo_create(s);
    assert_true(rs_path_triangle(cr, top, &b, 31));
    assert_true(rs_path_feature(cr, top, &b, (sw_feature){SW_FEATURE_EDGE, 2}, 31));
    cairo_new_path(cr);
    assert_false(rs_path_triangle(cr, top, &b, 32));
    assert_false(rs_path_triangle(cr, top, &b, -1));
    assert_false(rs_path_triangle(cr, top, &req.a, 0));
    assert_false(rs_path_feature(cr, top, &b, (sw_feature){SW_FEATURE_VERTEX, 3}, 0));
    assert_false(rs_path_feature(cr, top, &b, (sw_feature){SW_FEATURE_FACE, 0}, 32));
    double x0, y0, x1, y1;
    cairo_path_extents(cr, &x0, &y0, &x1, &y1);
    assert_true(x0 == x1 && y0 == y1); /* nothing added */
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    free(sc);

    /* With a skin, the mesh turned and moved: drawn, as PNG and SVG. */
    req.b = sw_make_mesh(floor, sw_v3(1, 2, SW_R(0.5)), (sw_quat){SW_R(0.3), 0, SW_R(0.1), 1}, true);
    req.opt.skin = SW_R(0.2);
    check_png(&req, "mesh_skin", 800, 260);
    check_svg(&req, "mesh_skin");
    sw_mesh_destroy(floor);
}

/* ---- framing and the inset -------------------------------------------------- */

static void inset_when_scales_differ(void** state)
{
    (void)state;
    /* A 1 cm ball landing on a 100 m one. */
    request req = sweep_request(sw_make_sphere(sw_v3(0, 0, SW_R(1.5)), SW_R(0.01)), sw_v3(SW_R(0.5), 0, -2),
                                sw_make_sphere(sw_v3(0, 0, -100), 100));
    render_scene* sc = build(&req, 0, 0);
    assert_true(sc->hit.hit);
    assert_true(sc->needs_inset);
    assert_true(sc->scale_ratio > RENDER_INSET_RATIO);
    cairo_surface_t* s = draw_to_image(sc);
    for (int i = 0; i < RENDER_PANELS; i++) {
        const render_panel* p = &sc->panels[i];
        assert_true(p->has_inset);
        /* A is big in the inset: its radius covers several pixels. */
        assert_true((double)req.a.sphere.radius * p->inset_view.scale > 10);
        /* The inset sits inside the body. */
        assert_true(p->inset.x >= p->body.x && p->inset.x + p->inset.w <= p->body.x + p->body.w);
        assert_true(p->inset.y >= p->body.y && p->inset.y + p->inset.h <= p->body.y + p->body.h);
        /* And shows the contact point. */
        double x, y;
        rview_project(&p->inset_view, rv3_of(sc->hit.point), &x, &y);
        assert_true(is_red(pixel(s, (int)x, (int)y)));
    }
    cairo_surface_destroy(s);
    check_png(&req, "inset", 1600, 500);
    free(sc);

    /* Sizes within 100x of each other: no inset. */
    req = graze_request();
    sc = build(&req, 0, 0);
    assert_false(sc->needs_inset);
    for (int i = 0; i < RENDER_PANELS; i++) {
        assert_false(sc->panels[i].has_inset);
    }
    free(sc);
}

/* A at both ends of its move and B project inside the body of every
 * view, and fill a fair part of it. */
static void views_frame_the_subject(void** state)
{
    (void)state;
    request reqs[MAX_QUERIES];
    const char* names[MAX_QUERIES];
    int n = all_queries(reqs, names);
    for (int k = 0; k < n; k++) {
        render_scene* sc = build(&reqs[k], 0, 0);
        for (int i = 0; i < RENDER_PANELS; i++) {
            const render_panel* p = &sc->panels[i];
            rbox2 box = rbox2_empty();
            rs_add_bounds(&box, &p->view, &sc->a, rv3_make(0, 0, 0));
            if (sc->moves) {
                rs_add_bounds(&box, &p->view, &sc->a, sc->d);
            }
            rs_add_bounds(&box, &p->view, &sc->b, rv3_make(0, 0, 0));
            double s = p->view.scale;
            double x0 = p->view.ox + box.min_u * s, x1 = p->view.ox + box.max_u * s;
            double y0 = p->view.oy - box.max_v * s, y1 = p->view.oy - box.min_v * s;
            if (!(x0 >= p->body.x - 1 && x1 <= p->body.x + p->body.w + 1 && y0 >= p->body.y - 1 &&
                  y1 <= p->body.y + p->body.h + 1)) {
                fail_msg("%s, panel %d: the shapes span x %.0f..%.0f, y %.0f..%.0f outside the body", names[k], i, x0,
                         x1, y0, y1);
            }
            /* ... and fill a fair part of it. */
            double fill = fmax((x1 - x0) / p->body.w, (y1 - y0) / p->body.h);
            if (!(fill > 0.3)) {
                fail_msg("%s, panel %d: the shapes fill only %.2f of the body", names[k], i, fill);
            }
        }
        free(sc);
    }
}

/* ---- random queries ------------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static double rnd(void)
{
    /* xorshift64*: seeded, so a failure repeats. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545f4914f6cdd1du) >> 11) / 9007199254740992.0;
}

/* Log-uniform in [1e-6, 1e6], sometimes 0. */
static sw_real rnd_size(void) { return rnd() < 0.05 ? 0 : (sw_real)pow(10, -6 + 12 * rnd()); }

static sw_vec3 rnd_vec(sw_real scale)
{
    return sw_v3((sw_real)((2 * rnd() - 1) * scale), (sw_real)((2 * rnd() - 1) * scale),
                 (sw_real)((2 * rnd() - 1) * scale));
}

static sw_vec3 random_polygon[8];
/* The hull of the last random hull shape (freed by the next one), and
 * the same for meshes. */
static sw_hull* random_hull[2];
static sw_mesh* random_mesh[2];

static sw_shape random_shape(bool moving)
{
    /* A hull from 4 to 20 points around c, most of them of one size;
     * sets too flat for a hull give a sphere. */
    static int slot = 0;
    sw_real size = rnd_size();
    sw_vec3 c = rnd_vec(rnd() < 0.5 ? size : rnd_size());
    int type = (int)(rnd() * SW_SHAPE_TYPE_COUNT);
    if (moving && (type == SW_SHAPE_PLANE || type == SW_SHAPE_MESH)) {
        type = SW_SHAPE_SPHERE;
    }
    switch ((sw_shape_type)type) {
    case SW_SHAPE_POINT:
        return sw_make_point(c);
    case SW_SHAPE_SEGMENT:
        return sw_make_segment(c, sw_add(c, rnd_vec(size)));
    case SW_SHAPE_SPHERE:
        return sw_make_sphere(c, size);
    case SW_SHAPE_CAPSULE:
        return sw_make_capsule(c, sw_add(c, rnd_vec(rnd_size())), size);
    case SW_SHAPE_BOX: {
        sw_quat q = {(sw_real)rnd(), (sw_real)rnd(), (sw_real)rnd(), (sw_real)(rnd() + 0.01)};
        return sw_make_box(c, sw_v3(size, rnd_size(), (sw_real)(size * rnd())), q);
    }
    case SW_SHAPE_PLANE:
        return sw_make_plane(rnd_vec(1), (sw_real)((2 * rnd() - 1) * size));
    case SW_SHAPE_TRIANGLE:
        return sw_make_triangle(c, sw_add(c, rnd_vec(size)), sw_add(c, rnd_vec(size)), rnd() < 0.5);
    case SW_SHAPE_POLYGON: {
        /* A regular polygon in a random plane: planar and convex. */
        sw_vec3 u = rnd_vec(1), w = rnd_vec(1);
        int n = 3 + (int)(rnd() * 6);
        for (int i = 0; i < n; i++) {
            double a = 6.283185307179586 * i / n;
            random_polygon[i] =
                sw_add(c, sw_add(sw_scale(u, (sw_real)(size * cos(a))), sw_scale(w, (sw_real)(size * sin(a)))));
        }
        return sw_make_polygon(random_polygon, n, false);
    }
    case SW_SHAPE_HULL: {
        sw_vec3 pts[20];
        int n = 4 + (int)(rnd() * 17);
        for (int i = 0; i < n; i++) {
            pts[i] = sw_add(c, rnd_vec(rnd() < 0.9 ? size : rnd_size()));
        }
        slot = 1 - slot;
        sw_hull_destroy(random_hull[slot]);
        random_hull[slot] = sw_hull_create(pts, n, NULL);
        if (random_hull[slot] == NULL) {
            return sw_make_sphere(c, size);
        }
        sw_quat q = {(sw_real)rnd(), (sw_real)rnd(), (sw_real)rnd(), (sw_real)(rnd() + 0.01)};
        return sw_make_hull(random_hull[slot], rnd_vec(rnd() < 0.5 ? size : rnd_size()), q);
    }
    case SW_SHAPE_MESH: {
        /* 1 to 12 triangles over 3 to 14 points, some of them repeated. */
        sw_vec3 pts[14];
        int idx[36];
        const int nv = 3 + (int)(rnd() * 12), nt = 1 + (int)(rnd() * 12);
        for (int i = 0; i < nv; i++) {
            pts[i] = sw_add(c, rnd_vec(rnd() < 0.9 ? size : rnd_size()));
        }
        for (int i = 0; i < 3 * nt; i++) {
            idx[i] = (int)(rnd() * nv);
        }
        slot = 1 - slot;
        sw_mesh_destroy(random_mesh[slot]);
        random_mesh[slot] = sw_mesh_create(pts, nv, idx, nt, NULL);
        assert_non_null(random_mesh[slot]);
        sw_quat q = {(sw_real)rnd(), (sw_real)rnd(), (sw_real)rnd(), (sw_real)(rnd() + 0.01)};
        return sw_make_mesh(random_mesh[slot], rnd_vec(rnd() < 0.5 ? size : rnd_size()), q, rnd() < 0.3);
    }
    default:
        return sw_make_sphere(c, size);
    }
}

/* Random shapes of every type at scales from 1e-6 to 1e6: the picture is
 * drawn without a crash, a sanitizer report or a cairo error, whatever the
 * library answers (or whether it rejects the input). */
static void random_queries_never_crash(void** state)
{
    (void)state;
    cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, RENDER_MIN_WIDTH, RENDER_MIN_HEIGHT);
    render_scene* sc = malloc(sizeof *sc);
    assert_non_null(sc);
    int drawn = 0;
    for (int i = 0; i < 300; i++) {
        request req =
            make_request((req_op)(int)(rnd() * 5), random_shape(true), rnd_vec(rnd_size()), random_shape(false));
        if (req.op == REQ_RAYCAST) {
            req.ray.origin = req.a.type == SW_SHAPE_POINT ? req.a.point : rnd_vec(rnd_size());
            req.ray.dir = rnd_vec(rnd() < 0.1 ? 0 : 1);
            req.ray.max = rnd_size();
        }
        if (req.op == REQ_SWEEP && rnd() < 0.2) {
            req.opt.skin = rnd_size();
        }
        char err[256];
        if (render_scene_build(sc, &req, RENDER_MIN_WIDTH, RENDER_MIN_HEIGHT, err, sizeof err) == RENDER_ERROR) {
            continue;
        }
        cairo_t* cr = cairo_create(s);
        render_scene_draw(sc, cr);
        if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
            fail_msg("query %d: cairo: %s", i, cairo_status_to_string(cairo_status(cr)));
        }
        cairo_destroy(cr);
        drawn++;
    }
    assert_true(drawn > 200);
    free(sc);
    cairo_surface_destroy(s);
    for (int i = 0; i < 2; i++) {
        sw_hull_destroy(random_hull[i]);
        random_hull[i] = NULL;
        sw_mesh_destroy(random_mesh[i]);
        random_mesh[i] = NULL;
    }
}

/* ---- bad input -------------------------------------------------------------- */

static void bad_input_is_an_error(void** state)
{
    (void)state;
    char err[256] = "";
    render_scene* sc = malloc(sizeof *sc);
    assert_non_null(sc);

    request req = graze_request();
    req.b.sphere.radius = -1;
    assert_int_equal(render_scene_build(sc, &req, 0, 0, err, sizeof err), RENDER_ERROR);
    assert_non_null(strstr(err, "radius"));

    req = graze_request();
    req.d.x = (sw_real)NAN;
    assert_int_equal(render_scene_build(sc, &req, 0, 0, err, sizeof err), RENDER_ERROR);

    req = raycast_request(sw_v3(0, 0, 0), sw_v3(1, 0, 0), -1, sw_make_sphere(sw_v3(3, 0, 0), 1));
    assert_int_equal(render_scene_build(sc, &req, 0, 0, err, sizeof err), RENDER_ERROR);

    req = graze_request();
    assert_int_equal(render_scene_build(sc, &req, 100, 50, err, sizeof err), RENDER_ERROR);
    assert_non_null(strstr(err, "size"));
    assert_int_equal(render_request(&req, "picture.jpg", 0, 0, err, sizeof err), RENDER_ERROR);
    assert_non_null(strstr(err, ".png or .svg"));
    assert_int_equal(render_request(&req, "no/such/dir/picture.png", 0, 0, err, sizeof err), RENDER_ERROR);
    assert_int_equal(render_request(&req, "no/such/dir/picture.svg", 0, 0, err, sizeof err), RENDER_ERROR);
    free(sc);
}

/* ---- the command ------------------------------------------------------------ */

/* Runs `sweep render ARGS...` in this process with stderr captured into
 * err_out; returns the exit status. */
int run_render(char* err_out, size_t err_size, ...)
{
    char* argv[16];
    int argc = 0;
    argv[argc++] = "render";
    va_list ap;
    va_start(ap, err_size);
    char* a;
    while ((a = va_arg(ap, char*)) != NULL && argc < 15) {
        argv[argc++] = a;
    }
    va_end(ap);
    argv[argc] = NULL;

    /* stdout (the help) goes to a file too, to keep the test's log clean. */
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    int out = open("render_stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fd = open("render_stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved_out >= 0 && saved_err >= 0 && out >= 0 && fd >= 0);
    dup2(out, 1);
    dup2(fd, 2);
    close(out);
    close(fd);
    int rc = cmd_render(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);

    FILE* f = fopen("render_stderr.txt", "rb");
    assert_non_null(f);
    size_t n = fread(err_out, 1, err_size - 1, f);
    err_out[n] = '\0';
    fclose(f);
    return rc;
}

void write_file(const char* path, const char* text)
{
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

bool png_has_size(const char* path, int w, int h)
{
    cairo_surface_t* s = cairo_image_surface_create_from_png(path);
    bool ok = cairo_surface_status(s) == CAIRO_STATUS_SUCCESS && cairo_image_surface_get_width(s) == w &&
              cairo_image_surface_get_height(s) == h;
    cairo_surface_destroy(s);
    return ok;
}

#define GRAZE_LINE                                                                                                     \
    "{\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[-4,0.3,0.5],\"radius\":1},\"d\":[8,0.4,-0.2],"           \
    "\"b\":{\"type\":\"sphere\",\"center\":[0,2.2,0],\"radius\":1.2},\"id\":7}\n"

static void command_line(void** state)
{
    (void)state;
    char err[2048];
    /* Lines: 1 good, 2 bad request, 3 not JSON, 4 blank, 5 good. */
    write_file("cases.jsonl", GRAZE_LINE "{\"op\":\"sweep\",\"a\":{\"type\":\"sphere\"}}\nnot json\n\n" GRAZE_LINE);
    remove("cli.png");
    remove("cli.svg");

    assert_int_equal(run_render(err, sizeof err, "--help", NULL), 0);
    assert_int_equal(run_render(err, sizeof err, "-o", "cli.png", "cases.jsonl", NULL), 0);
    assert_true(png_has_size("cli.png", 1600, 500));
    assert_int_equal(
        run_render(err, sizeof err, "--case", "5", "--size", "900x300", "-o", "cli.png", "cases.jsonl", NULL), 0);
    assert_true(png_has_size("cli.png", 900, 300));
    assert_int_equal(run_render(err, sizeof err, "--case=5", "--output=cli.svg", "cases.jsonl", NULL), 0);
    FILE* f = fopen("cli.svg", "rb");
    assert_non_null(f);
    fclose(f);

    /* Bad input: a clear message naming the file and line, exit status 1. */
    assert_int_equal(run_render(err, sizeof err, "-o", "cli.png", "no-such-file.jsonl", NULL), 1);
    assert_non_null(strstr(err, "no-such-file.jsonl"));
    assert_int_equal(run_render(err, sizeof err, "--case", "2", "-o", "cli.png", "cases.jsonl", NULL), 1);
    assert_non_null(strstr(err, "line 2: "));
    assert_int_equal(run_render(err, sizeof err, "--case", "3", "-o", "cli.png", "cases.jsonl", NULL), 1);
    assert_non_null(strstr(err, "line 3: "));
    assert_int_equal(run_render(err, sizeof err, "--case", "4", "-o", "cli.png", "cases.jsonl", NULL), 1);
    assert_non_null(strstr(err, "blank"));
    assert_int_equal(run_render(err, sizeof err, "--case", "9", "-o", "cli.png", "cases.jsonl", NULL), 1);
    assert_non_null(strstr(err, "has 5 lines"));
    write_file("empty.jsonl", "");
    assert_int_equal(run_render(err, sizeof err, "-o", "cli.png", "empty.jsonl", NULL), 1);
    assert_non_null(strstr(err, "empty"));

    /* Bad usage: exit status 2. */
    assert_int_equal(run_render(err, sizeof err, "--case", "0", "cases.jsonl", NULL), 2);
    assert_int_equal(run_render(err, sizeof err, "--case", "x", "cases.jsonl", NULL), 2);
    assert_int_equal(run_render(err, sizeof err, "--case", "-3", "cases.jsonl", NULL), 2);
    assert_int_equal(run_render(err, sizeof err, "--case", NULL), 2);
    assert_int_equal(run_render(err, sizeof err, "--size", "10x10", "cases.jsonl", NULL), 2);
    assert_int_equal(run_render(err, sizeof err, "--size", "800", "cases.jsonl", NULL), 2);
    assert_int_equal(run_render(err, sizeof err, "-o", "out.gif", "cases.jsonl", NULL), 2);
    assert_int_equal(run_render(err, sizeof err, "--frobnicate", NULL), 2);
    assert_int_equal(run_render(err, sizeof err, "a.jsonl", "b.jsonl", NULL), 2);
    assert_int_equal(run_render(err, sizeof err, "-o", "no/such/dir/x.png", "cases.jsonl", NULL), 1);
}

static void command_reads_stdin(void** state)
{
    (void)state;
    char err[2048];
    write_file("one.jsonl", GRAZE_LINE);
    remove("stdin.png");
    fflush(stdin);
    int saved = dup(0);
    int fd = open("one.jsonl", O_RDONLY);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 0);
    close(fd);
    clearerr(stdin);
    int rc = run_render(err, sizeof err, "--size", "640x200", "-o", "stdin.png", NULL);
    dup2(saved, 0);
    close(saved);
    clearerr(stdin);
    assert_int_equal(rc, 0);
    assert_true(png_has_size("stdin.png", 640, 200));
}

/* ---- golden images ------------------------------------------------------------
 * Only the panel bodies are compared: the caption, legend and titles are
 * text, whose pixels depend on the fonts installed. The tolerance absorbs
 * antialiasing differences between cairo/pixman versions and float vs
 * double builds; a moved or missing shape exceeds it. */

enum { GOLDEN_W = 800, GOLDEN_H = 250 };

static void compare_golden(const char* name, const request* req)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.png", RENDER_GOLDEN_DIR, name);
    render_scene* sc = build(req, GOLDEN_W, GOLDEN_H);
    cairo_surface_t* got = draw_to_image(sc);
    const char* update = getenv("SWEEP_UPDATE_GOLDEN");
    if (update != NULL && strcmp(update, "1") == 0) {
        assert_int_equal(cairo_surface_write_to_png(got, path), CAIRO_STATUS_SUCCESS);
        fprintf(stderr, "wrote %s\n", path);
    }
    cairo_surface_t* want = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(want) != CAIRO_STATUS_SUCCESS) {
        fail_msg("%s: cannot read the golden image (%s)", path, cairo_status_to_string(cairo_surface_status(want)));
    }
    assert_int_equal(cairo_image_surface_get_width(want), GOLDEN_W);
    assert_int_equal(cairo_image_surface_get_height(want), GOLDEN_H);
    if (cairo_image_surface_get_format(want) != CAIRO_FORMAT_ARGB32) {
        /* cairo loads an opaque PNG as RGB24, laid out as ARGB32. */
        assert_int_equal(cairo_image_surface_get_format(want), CAIRO_FORMAT_RGB24);
    }
    double sum = 0;
    long count = 0, differing = 0;
    for (int i = 0; i < RENDER_PANELS; i++) {
        const render_rect* b = &sc->panels[i].body;
        for (int y = (int)b->y; y < (int)(b->y + b->h); y++) {
            for (int x = (int)b->x; x < (int)(b->x + b->w); x++) {
                rgb g = pixel(got, x, y), w = pixel(want, x, y);
                int dr = abs(g.r - w.r), dg = abs(g.g - w.g), db = abs(g.b - w.b);
                sum += dr + dg + db;
                differing += (dr > 48 || dg > 48 || db > 48);
                count++;
            }
        }
    }
    double mean = sum / (3.0 * (double)count), frac = (double)differing / (double)count;
    print_message("%s: mean |difference| %.4f, %ld of %ld pixels differ by > 48\n", name, mean, differing, count);
    if (!(mean < 0.5 && frac < 0.001)) {
        char out[256];
        snprintf(out, sizeof out, "%s-actual.png", name);
        cairo_surface_write_to_png(got, out);
        fail_msg("%s: mean |difference| %.3f (limit 0.5), %.4f of the pixels differ by > 48 (limit 0.001); "
                 "the picture drawn is %s",
                 name, mean, frac, out);
    }
    cairo_surface_destroy(want);
    cairo_surface_destroy(got);
    render_scene_free(sc);
    free(sc);
}

static void golden_images(void** state)
{
    (void)state;
    request req = graze_request();
    compare_golden("sweep_graze", &req);
    req = inside_box_request();
    compare_golden("inside_box", &req);
    req = distance_request();
    compare_golden("distance", &req);
    /* A turned box landing on a floor of 6 x 6 squares (a mesh). */
    sw_mesh* floor = floor_mesh(6);
    req = sweep_request(sw_make_box(sw_v3(SW_R(-1.5), SW_R(-0.5), SW_R(0.8)), sw_v3(SW_R(0.5), SW_R(0.4), SW_R(0.3)),
                                    (sw_quat){0, 0, SW_R(0.258819045), SW_R(0.965925826)}),
                        sw_v3(SW_R(2.5), 1, -1), sw_make_mesh(floor, sw_v3(0, 0, 0), sw_quat_identity(), false));
    compare_golden("mesh_floor", &req);
    sw_mesh_destroy(floor);
    /* A sphere swept through an inline scene, every hit marked. */
    char err[256];
    assert_int_equal(request_parse(SCENE_ALL_LINE, strlen(SCENE_ALL_LINE), &req, err, sizeof err), 0);
    compare_golden("scene_all", &req);
    request_free(&req);
}

int main(int argc, char** argv)
{
    /* `render_test golden` runs only the golden comparison, so it can be
     * regenerated on its own. */
    const struct CMUnitTest golden[] = {cmocka_unit_test(golden_images)};
    const struct CMUnitTest all[] = {
        cmocka_unit_test(every_shape_type),
        cmocka_unit_test(every_query_type),
        cmocka_unit_test(default_and_custom_size),
        cmocka_unit_test(contact_and_normal_pixels),
        cmocka_unit_test(contact_point_on_both_shapes),
        cmocka_unit_test(plane_boundary_through_contact),
        cmocka_unit_test(contact_view_in_plane_of_d_and_n),
        cmocka_unit_test(contact_view_head_on_falls_back),
        cmocka_unit_test(inset_when_scales_differ),
        cmocka_unit_test(views_frame_the_subject),
        cmocka_unit_test(hull_drawn_and_face_highlighted),
        cmocka_unit_test(hull_feature_paths),
        cmocka_unit_test(hull_of_many_vertices),
        cmocka_unit_test(mesh_drawn_and_triangle_highlighted),
        cmocka_unit_test(random_queries_never_crash),
        cmocka_unit_test(bad_input_is_an_error),
        cmocka_unit_test(command_line),
        cmocka_unit_test(command_reads_stdin),
    };
    if (argc > 1 && strcmp(argv[1], "golden") == 0) {
        return cmocka_run_group_tests_name("render_golden", golden, NULL, NULL);
    }
    const int failed = cmocka_run_group_tests_name("render", all, build_hulls, free_hulls);
    return failed + render_scene_tests();
}
