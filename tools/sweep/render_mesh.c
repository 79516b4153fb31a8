/* `sweep render`: drawing a mesh (see render_mesh.h).
 *
 * The triangles are filled back to front (the painter's order, by the
 * depth of their centroids), each shaded by the angle between its normal
 * and a light placed near the viewer, so the relief of a curved surface
 * reads in every view. The outline is the set of edges that carry shape:
 * the border, contours and creases, found by matching the triangles'
 * edges by their vertices' coordinates (as the library welds them). */
#include "render_mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Mean pixel length of the edges below which they are not drawn: a finer
 * mesh would only darken the picture (as for a hull's faces). */
static const double MESH_EDGE_MIN_PX = 6.0;
/* Two triangles meeting at more than this angle (radians, between their
 * oriented normals) form a crease, drawn with the outline. */
static const double CREASE_ANGLE = 1.2;

/* The placed triangles, 3 points each; NULL when out of memory. */
static rv3* world_triangles(const sw_mesh_instance* m, int* count)
{
    const int n = sw_mesh_get_info(m->mesh).triangle_count;
    rv3* w = malloc((size_t)n * 3 * sizeof *w);
    if (!w) {
        *count = 0;
        return NULL;
    }
    for (int i = 0; i < n; ++i) {
        sw_vec3 t[3];
        sw_mesh_world_triangle(m, i, t);
        for (int k = 0; k < 3; ++k) {
            w[3 * i + k] = rv3_of(t[k]);
        }
    }
    *count = n;
    return w;
}

rv3 rmesh_closest_point(const sw_mesh_instance* m, rv3 q)
{
    const sw_vec3 p = sw_v3((sw_real)q.x, (sw_real)q.y, (sw_real)q.z);
    if (sw_is_valid_vec3(p)) {
        const sw_shape point = sw_make_point(p);
        const sw_shape mesh = sw_make_mesh(m->mesh, m->position, m->rotation, m->one_sided);
        const sw_distance_result r = sw_distance(&point, &mesh);
        if (r.status == SW_OK) {
            return rv3_of(r.point_b);
        }
    }
    /* Beyond the library's range (framing only): the nearest point of the
     * bounds. */
    const sw_shape mesh = sw_make_mesh(m->mesh, m->position, m->rotation, m->one_sided);
    const sw_aabb box = sw_shape_bounds(&mesh);
    return rv3_make(fmin(fmax(q.x, box.min.x), box.max.x), fmin(fmax(q.y, box.min.y), box.max.y),
                    fmin(fmax(q.z, box.min.z), box.max.z));
}

void rmesh_add_bounds(rbox2* b, const rview* v, const sw_mesh_instance* m)
{
    int n;
    rv3* w = world_triangles(m, &n);
    for (int i = 0; i < 3 * n; ++i) {
        rbox2_add_world(b, v, w[i]);
    }
    free(w);
}

void rmesh_path_union(cairo_t* cr, const rview* v, const sw_mesh_instance* m, double r_px)
{
    int n;
    rv3* w = world_triangles(m, &n);
    for (int i = 0; i < n; ++i) {
        const rv3* t = &w[3 * i];
        if (r_px > 0) {
            /* A convex hull: always wound the same way. */
            rs_path_rounded(cr, v, t, 3, r_px);
            continue;
        }
        double x[3], y[3];
        for (int k = 0; k < 3; ++k) {
            rview_project(v, t[k], &x[k], &y[k]);
        }
        const double area2 = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
        if (area2 > 0) {
            rs_path_polygon(cr, v, t, 3);
        } else if (area2 < 0) {
            const rv3 flipped[3] = {t[0], t[2], t[1]};
            rs_path_polygon(cr, v, flipped, 3);
        }
    }
    free(w);
}

/* ---- the outline: edges matched by their vertices ------------------------ */

typedef struct corner {
    double x, y, z; /* local coordinates, as the library welds them */
    int index;      /* 3 * triangle + k */
} corner;

typedef struct edge {
    int lo, hi;  /* welded vertex ids, lo < hi (lo == hi: a collapsed edge) */
    int use;     /* 3 * triangle + k: edge k of the triangle */
    bool upward; /* the triangle runs the edge from lo to hi */
} edge;

static int cmp_double(double a, double b) { return a < b ? -1 : (a > b ? 1 : 0); }

static int cmp_corner(const void* pa, const void* pb)
{
    const corner *a = pa, *b = pb;
    int c = cmp_double(a->x, b->x);
    c = c ? c : cmp_double(a->y, b->y);
    c = c ? c : cmp_double(a->z, b->z);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

static int cmp_edge(const void* pa, const void* pb)
{
    const edge *a = pa, *b = pb;
    if (a->lo != b->lo) {
        return a->lo < b->lo ? -1 : 1;
    }
    if (a->hi != b->hi) {
        return a->hi < b->hi ? -1 : 1;
    }
    return (a->use > b->use) - (a->use < b->use);
}

/* The welded vertex id of every corner (3 per triangle); NULL when out of
 * memory. */
static int* weld_corners(const sw_mesh* mesh, int n)
{
    corner* c = malloc((size_t)n * 3 * sizeof *c);
    int* id = malloc((size_t)n * 3 * sizeof *id);
    if (!c || !id) {
        free(c);
        free(id);
        return NULL;
    }
    for (int i = 0; i < n; ++i) {
        sw_vec3 t[3];
        sw_mesh_triangle(mesh, i, t, NULL);
        for (int k = 0; k < 3; ++k) {
            /* + 0.0: -0 and +0 are one point. */
            c[3 * i + k] = (corner){(double)t[k].x + 0.0, (double)t[k].y + 0.0, (double)t[k].z + 0.0, 3 * i + k};
        }
    }
    qsort(c, (size_t)n * 3, sizeof *c, cmp_corner);
    int next = -1;
    for (int j = 0; j < 3 * n; ++j) {
        if (j == 0 || cmp_double(c[j].x, c[j - 1].x) || cmp_double(c[j].y, c[j - 1].y) ||
            cmp_double(c[j].z, c[j - 1].z)) {
            ++next;
        }
        id[c[j].index] = next;
    }
    free(c);
    return id;
}

/* The unit normal of placed triangle t (zero for a triangle without area). */
static rv3 unit_normal(const rv3* t)
{
    rv3 n = rv3_cross(rv3_sub(t[1], t[0]), rv3_sub(t[2], t[0]));
    rv3_normalize(&n);
    return n;
}

/* Whether the edge shared by exactly the two uses a and b carries shape:
 * a contour (one side faces the viewer, the other not) or a crease. */
static bool shows_shape(const rv3* w, const edge* a, const edge* b, rv3 towards_viewer)
{
    const rv3 n0 = unit_normal(&w[3 * (a->use / 3)]);
    rv3 n1 = unit_normal(&w[3 * (b->use / 3)]);
    if (a->upward == b->upward) {
        /* Windings that disagree: compare the surface, not the windings. */
        n1 = rv3_scale(n1, -1);
    }
    if ((rv3_dot(n0, towards_viewer) > 0) != (rv3_dot(n1, towards_viewer) > 0)) {
        return true;
    }
    return rv3_dot(n0, n1) < cos(CREASE_ANGLE);
}

void rmesh_path_outline(cairo_t* cr, const rview* v, const sw_mesh_instance* m)
{
    int n;
    rv3* w = world_triangles(m, &n);
    int* id = w ? weld_corners(m->mesh, n) : NULL;
    edge* e = id ? malloc((size_t)n * 3 * sizeof *e) : NULL;
    if (!e) {
        /* Out of memory: the shading alone shows the mesh. */
        free(w);
        free(id);
        return;
    }
    for (int u = 0; u < 3 * n; ++u) {
        const int a = id[u], b = id[u - u % 3 + (u % 3 + 1) % 3];
        e[u] = (edge){a < b ? a : b, a < b ? b : a, u, a < b};
    }
    qsort(e, (size_t)n * 3, sizeof *e, cmp_edge);
    const rv3 towards_viewer = rv3_cross(v->right, v->up);
    for (int i = 0; i < 3 * n;) {
        int j = i + 1;
        while (j < 3 * n && e[j].lo == e[i].lo && e[j].hi == e[i].hi) {
            ++j;
        }
        const int users = j - i;
        if (e[i].lo != e[i].hi && (users != 2 || shows_shape(w, &e[i], &e[i + 1], towards_viewer))) {
            const int u = e[i].use;
            rs_path_line(cr, v, w[u], w[u - u % 3 + (u % 3 + 1) % 3]);
        }
        i = j;
    }
    free(e);
    free(id);
    free(w);
}

/* ---- shading ------------------------------------------------------------------ */

typedef struct depth_key {
    double depth;
    int triangle;
} depth_key;

static int cmp_depth(const void* pa, const void* pb)
{
    const depth_key *a = pa, *b = pb;
    int c = cmp_double(a->depth, b->depth);
    return c ? c : (a->triangle > b->triangle) - (a->triangle < b->triangle);
}

/* Mean projected edge length in pixels. */
static double mean_edge_px(const rview* v, const rv3* w, int n)
{
    double total = 0;
    for (int i = 0; i < 3 * n; ++i) {
        double x0, y0, x1, y1;
        rview_project(v, w[i], &x0, &y0);
        rview_project(v, w[i - i % 3 + (i % 3 + 1) % 3], &x1, &y1);
        total += hypot(x1 - x0, y1 - y0);
    }
    return n > 0 ? total / (3.0 * n) : 0;
}

void rmesh_draw_shaded(cairo_t* cr, const rview* v, const sw_mesh_instance* m, const rs_shading* shading)
{
    int n;
    rv3* w = world_triangles(m, &n);
    depth_key* order = w ? malloc((size_t)n * sizeof *order) : NULL;
    if (!order) {
        free(w);
        return;
    }
    /* Farthest first: depth grows towards the viewer. */
    const rv3 towards_viewer = rv3_cross(v->right, v->up);
    for (int i = 0; i < n; ++i) {
        const rv3 c = rv3_add(rv3_add(w[3 * i], w[3 * i + 1]), w[3 * i + 2]);
        order[i] = (depth_key){rv3_dot(c, towards_viewer), i};
    }
    qsort(order, (size_t)n, sizeof *order, cmp_depth);
    /* A light over the viewer's left shoulder; faces are two-sided. */
    rv3 light = rv3_madd(rv3_madd(towards_viewer, -0.4, v->right), 0.6, v->up);
    rv3_normalize(&light);
    const bool edges = mean_edge_px(v, w, n) >= MESH_EDGE_MIN_PX;

    /* Opaque, so hidden faces stay hidden, in colours mixed with the white
     * ground as the other shapes' translucent fill is (B is drawn first,
     * on white; a group painted with alpha would do the same, but cairo's
     * SVG surface leaks such groups). */
    const double a = shading->alpha;
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_width(cr, edges ? 0.6 : 0.8);
    for (int j = 0; j < n; ++j) {
        const rv3* t = &w[3 * order[j].triangle];
        const rv3 nrm = unit_normal(t);
        const double k = fabs(rv3_dot(nrm, light));
        double c[3];
        for (int i = 0; i < 3; ++i) {
            c[i] = a * (shading->dark[i] + k * (shading->lit[i] - shading->dark[i])) + (1 - a);
        }
        rs_path_polygon(cr, v, t, 3);
        cairo_set_source_rgb(cr, c[0], c[1], c[2]);
        cairo_fill_preserve(cr);
        /* The stroke closes the hairline seams that anti-aliasing leaves
         * between neighbours; a triangle without area is drawn as a line. */
        if (edges || rv3_length(nrm) == 0) {
            cairo_set_source_rgb(cr, a * shading->edge[0] + (1 - a), a * shading->edge[1] + (1 - a),
                                 a * shading->edge[2] + (1 - a));
        }
        cairo_stroke(cr);
    }
    free(order);
    free(w);
}

void rmesh_describe(const sw_mesh_instance* m, char* buf, size_t size)
{
    const sw_mesh_info info = sw_mesh_get_info(m->mesh);
    const sw_quat q = m->rotation;
    int len = snprintf(buf, size, "%smesh of %d triangles, %d vertices at (%g, %g, %g)",
                       m->one_sided ? "one-sided " : "", info.triangle_count, info.vertex_count, (double)m->position.x,
                       (double)m->position.y, (double)m->position.z);
    if (len >= 0 && (size_t)len < size && !(q.x == 0 && q.y == 0 && q.z == 0)) {
        snprintf(buf + len, size - (size_t)len, " rot [%g, %g, %g, %g]", (double)q.x, (double)q.y, (double)q.z,
                 (double)q.w);
    }
}

/* ---- the renderer's entry points for shapes of many pieces (render_shapes.h) */

bool rs_draw_shaded(cairo_t* cr, const rview* v, const sw_shape* s, const rs_shading* shading)
{
    if (s->type != SW_SHAPE_MESH) {
        return false;
    }
    rmesh_draw_shaded(cr, v, &s->mesh, shading);
    return true;
}

bool rs_is_union(const sw_shape* s) { return s->type == SW_SHAPE_MESH; }

/* Largest side of the mask of rs_stroke_union_outline: a picture's side
 * (RENDER_MAX_SIDE) with room to spare. */
enum { MASK_MAX_PX = 16384 };

void rs_stroke_union_outline(cairo_t* cr, const rview* v, const sw_shape* s, double skin)
{
    /* Each piece's outline is stroked into a mask, then everything inside
     * the union is cleared from it: what is left is the outer half of the
     * stroke along the union's boundary, painted with the current source.
     * A mask surface of our own rather than a cairo group, which cairo's
     * SVG surface leaks. Pixels are user units here (identity matrix). */
    double x0, y0, x1, y1;
    cairo_clip_extents(cr, &x0, &y0, &x1, &y1);
    x0 = floor(fmax(x0, v->ox - RS_REACH_PX));
    y0 = floor(fmax(y0, v->oy - RS_REACH_PX));
    const int w = (int)ceil(fmin(x1, v->ox + RS_REACH_PX) - x0), h = (int)ceil(fmin(y1, v->oy + RS_REACH_PX) - y0);
    if (!(w > 0 && h > 0 && w <= MASK_MAX_PX && h <= MASK_MAX_PX)) {
        return;
    }
    cairo_surface_t* mask = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h);
    cairo_t* m = cairo_create(mask);
    cairo_translate(m, -x0, -y0);
    cairo_set_line_width(m, cairo_get_line_width(cr));
    cairo_set_line_join(m, cairo_get_line_join(cr));
    cairo_set_line_cap(m, cairo_get_line_cap(cr));
    const int dashes = cairo_get_dash_count(cr);
    if (dashes > 0 && dashes <= 16) {
        double dash[16], offset;
        cairo_get_dash(cr, dash, &offset);
        cairo_set_dash(m, dash, dashes, offset);
    }
    rs_path_inflated(m, v, s, skin);
    cairo_stroke(m);
    cairo_set_operator(m, CAIRO_OPERATOR_CLEAR);
    rs_path_inflated(m, v, s, skin);
    cairo_fill(m);
    cairo_destroy(m);
    cairo_mask_surface(cr, mask, x0, y0);
    cairo_surface_destroy(mask);
}

bool rs_path_triangle(cairo_t* cr, const rview* v, const sw_shape* s, int i)
{
    sw_vec3 t[3];
    if (s->type != SW_SHAPE_MESH || !sw_mesh_world_triangle(&s->mesh, i, t)) {
        return false;
    }
    const rv3 w[3] = {rv3_of(t[0]), rv3_of(t[1]), rv3_of(t[2])};
    rs_path_polygon(cr, v, w, 3);
    return true;
}
