/* `sweep render`: everything that depends on the shape type.
 *
 * Every shape the library knows is convex and can be written as the convex
 * hull of a few "core" points inflated by a radius (a sphere is one point
 * and its radius, a capsule two points, a box eight corners and radius 0).
 * An orthographic projection keeps that form: the silhouette is the 2-D hull
 * of the projected core points inflated by the projected radius, and the
 * volume swept along d is the same with the core points at 0 and at d. So
 * most drawing is generic, and a shape type only says what its core is and
 * how its outline and features look (a hull's core is its placed vertices,
 * radius 0). A plane, being unbounded, has its own cases, and so has a
 * mesh, which is not convex (render_mesh.c; its core is only its bounding
 * box, for the size and centre); a type without a case here (a shape added
 * to the library later) is drawn as the convex hull of its support points
 * until it gets one. */
#include "render_shapes.h"

#include "render_mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double TAU = 6.283185307179586;
/* Pixel radius of the dot that stands for a point or a shape too small to
 * see at the view's scale. */
static const double DOT_RADIUS_PX = 2.5;
/* Pixel radius of the ring that marks a vertex hit. */
static const double FEATURE_RING_PX = 5.0;

double rv3_length(rv3 a) { return sqrt(rv3_dot(a, a)); }

double rv3_normalize(rv3* v)
{
    double len = rv3_length(*v);
    if (!(len > 0)) {
        return 0;
    }
    *v = rv3_scale(*v, 1 / len);
    return len;
}

void rbox2_add_point(rbox2* b, double u, double v)
{
    if (b->empty) {
        b->min_u = b->max_u = u;
        b->min_v = b->max_v = v;
        b->empty = false;
        return;
    }
    b->min_u = fmin(b->min_u, u);
    b->max_u = fmax(b->max_u, u);
    b->min_v = fmin(b->min_v, v);
    b->max_v = fmax(b->max_v, v);
}

void rbox2_add_box(rbox2* b, const rbox2* o)
{
    if (!o->empty) {
        rbox2_add_point(b, o->min_u, o->min_v);
        rbox2_add_point(b, o->max_u, o->max_v);
    }
}

void rbox2_add_world(rbox2* b, const rview* v, rv3 p)
{
    rv3 q = rv3_sub(p, v->origin);
    rbox2_add_point(b, rv3_dot(q, v->right), rv3_dot(q, v->up));
}

/* Directions sampled on a shape type without a case here. */
enum { SUPPORT_SAMPLES = 64 };

/* ---- the per-type description: core points, radius ----------------------- */

/* The columns of the rotation matrix of quaternion q (normalised here). */
static void quat_frame(sw_quat q, rv3 axes[3])
{
    double x = q.x, y = q.y, z = q.z, w = q.w;
    double len = sqrt(x * x + y * y + z * z + w * w);
    if (!(len > 0)) {
        /* Invalid input never reaches the renderer; identity keeps this total. */
        x = y = z = 0;
        w = len = 1;
    }
    x /= len;
    y /= len;
    z /= len;
    w /= len;
    /* Columns of the rotation matrix of the unit quaternion (x, y, z, w). */
    axes[0] = rv3_make(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w));
    axes[1] = rv3_make(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w));
    axes[2] = rv3_make(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y));
}

static void box_frame(const sw_box* b, rv3 axes[3]) { quat_frame(b->rotation, axes); }

/* A placed hull: x_world = rotation * x_local + position. */
typedef struct hull_frame {
    rv3 axes[3];
    rv3 position;
} hull_frame;

static hull_frame hull_frame_of(const sw_hull_instance* h)
{
    hull_frame f;
    quat_frame(h->rotation, f.axes);
    f.position = rv3_of(h->position);
    return f;
}

static rv3 hull_place(const hull_frame* f, sw_vec3 p)
{
    return rv3_madd(rv3_madd(rv3_madd(f->position, p.x, f->axes[0]), p.y, f->axes[1]), p.z, f->axes[2]);
}

/* Vertex i of the placed hull. */
static rv3 hull_vertex(const sw_hull_instance* h, const hull_frame* f, int i)
{
    return hull_place(f, h->hull->vertices[i]);
}

/* The outward normal of face i of the placed hull. */
static rv3 hull_face_normal(const sw_hull_instance* h, const hull_frame* f, int i)
{
    const sw_vec3 n = h->hull->faces[i].normal;
    return rv3_madd(rv3_madd(rv3_scale(f->axes[0], n.x), n.y, f->axes[1]), n.z, f->axes[2]);
}

/* Corner i of the box: bit k of i set means +half on local axis k (the
 * numbering of shapes.h). */
static rv3 box_corner(const sw_box* b, const rv3 axes[3], int i)
{
    double h[3] = {b->half.x, b->half.y, b->half.z};
    rv3 p = rv3_of(b->center);
    for (int k = 0; k < 3; k++) {
        p = rv3_madd(p, (i >> k & 1) ? h[k] : -h[k], axes[k]);
    }
    return p;
}

/* Directions for sampling the support function of a shape type the
 * renderer has no case for: a Fibonacci sphere. */
static rv3 sample_direction(int i, int n)
{
    double z = 1 - (2 * i + 1) / (double)n;
    double r = sqrt(fmax(0, 1 - z * z));
    double phi = 2.399963229728653 * i; /* the golden angle */
    return rv3_make(r * cos(phi), r * sin(phi), z);
}

/* The shape as conv(core) inflated by *radius; returns the number of core
 * points written, or 0 for a plane (unbounded: see the plane_* helpers). */
static int shape_core(const sw_shape* s, rv3 core[RS_MAX_CORE], double* radius)
{
    *radius = 0;
    switch (s->type) {
    case SW_SHAPE_POINT:
        core[0] = rv3_of(s->point);
        return 1;
    case SW_SHAPE_SEGMENT:
        core[0] = rv3_of(s->segment.a);
        core[1] = rv3_of(s->segment.b);
        return 2;
    case SW_SHAPE_SPHERE:
        core[0] = rv3_of(s->sphere.center);
        *radius = s->sphere.radius;
        return 1;
    case SW_SHAPE_CAPSULE:
        core[0] = rv3_of(s->capsule.a);
        core[1] = rv3_of(s->capsule.b);
        *radius = s->capsule.radius;
        return 2;
    case SW_SHAPE_BOX: {
        rv3 axes[3];
        box_frame(&s->box, axes);
        for (int i = 0; i < 8; i++) {
            core[i] = box_corner(&s->box, axes, i);
        }
        return 8;
    }
    case SW_SHAPE_PLANE:
        return 0;
    case SW_SHAPE_TRIANGLE:
        for (int i = 0; i < 3; i++) {
            core[i] = rv3_of(s->triangle.v[i]);
        }
        return 3;
    case SW_SHAPE_POLYGON: {
        int n = s->polygon.count < RS_MAX_CORE ? s->polygon.count : RS_MAX_CORE;
        for (int i = 0; i < n; i++) {
            core[i] = rv3_of(s->polygon.v[i]);
        }
        return n;
    }
    case SW_SHAPE_HULL: {
        const hull_frame f = hull_frame_of(&s->hull);
        int n = s->hull.hull->vertex_count < RS_MAX_CORE ? s->hull.hull->vertex_count : RS_MAX_CORE;
        for (int i = 0; i < n; i++) {
            core[i] = hull_vertex(&s->hull, &f, i);
        }
        return n;
    }
    case SW_SHAPE_MESH: {
        /* The corners of the placed bounds: the size and centre. */
        const sw_aabb box = sw_shape_bounds(s);
        for (int i = 0; i < 8; i++) {
            core[i] = rv3_make((i & 1) ? box.max.x : box.min.x, (i & 2) ? box.max.y : box.min.y,
                               (i & 4) ? box.max.z : box.min.z);
        }
        return 8;
    }
    default:
        break;
    }
    for (int i = 0; i < SUPPORT_SAMPLES; i++) {
        rv3 d = sample_direction(i, SUPPORT_SAMPLES);
        core[i] = rv3_of(sw_shape_support(s, sw_v3((sw_real)d.x, (sw_real)d.y, (sw_real)d.z)));
    }
    return SUPPORT_SAMPLES;
}

/* ---- planes: half-spaces {x : n.x <= offset} ------------------------------
 * A half-space projects onto the whole view unless its normal lies in the
 * view plane, which would paint most views grey. It is drawn instead as its
 * section by the view plane through the view's section point (render_draw.c
 * picks the plane's point nearest the contact, so the boundary passes
 * through the contact in every view): a half-plane. */

static rv3 plane_unit_normal(const sw_plane* p, double* offset)
{
    rv3 n = rv3_of(p->normal);
    double len = rv3_normalize(&n);
    *offset = len > 0 ? p->offset / len : 0;
    return n;
}

static rv3 plane_closest(const sw_plane* p, rv3 q)
{
    double o;
    rv3 n = plane_unit_normal(p, &o);
    return rv3_madd(q, -fmax(0, rv3_dot(n, q) - o), n);
}

/* The section, of the half-space raised by `raise` along its normal, in
 * pixel coordinates: the solid is where c0 + cx * x + cy * y <= 0. Returns
 * false when the plane faces the viewer (its normal is nearly along the
 * line of sight). */
static bool plane_section(const rview* v, const sw_plane* p, double raise, double* c0, double* cx, double* cy)
{
    double o;
    rv3 n = plane_unit_normal(p, &o);
    o += raise;
    double a = rv3_dot(n, v->right), b = rv3_dot(n, v->up);
    if (sqrt(a * a + b * b) < 0.05) {
        return false;
    }
    /* x_world(px, py) = origin + (px - ox) / scale * right
     *                   - (py - oy) / scale * up + depth * fwd */
    rv3 fwd = rv3_cross(v->right, v->up);
    double depth = rv3_dot(rv3_sub(v->section_point, v->origin), fwd);
    *cx = a / v->scale;
    *cy = -b / v->scale;
    *c0 = rv3_dot(n, v->origin) + depth * rv3_dot(n, fwd) - o - *cx * v->ox - *cy * v->oy;
    return true;
}

static void path_plane_silhouette(cairo_t* cr, const rview* v, const sw_plane* p, double raise)
{
    double sq[4][2] = {{v->ox - RS_REACH_PX, v->oy - RS_REACH_PX},
                       {v->ox + RS_REACH_PX, v->oy - RS_REACH_PX},
                       {v->ox + RS_REACH_PX, v->oy + RS_REACH_PX},
                       {v->ox - RS_REACH_PX, v->oy + RS_REACH_PX}};
    double c0, cx, cy;
    if (!plane_section(v, p, raise, &c0, &cx, &cy)) {
        cairo_rectangle(cr, sq[0][0], sq[0][1], 2 * RS_REACH_PX, 2 * RS_REACH_PX);
        return;
    }
    /* Clip the square by the half-plane (one Sutherland-Hodgman step). */
    bool started = false;
    for (int i = 0; i < 4; i++) {
        const double* a = sq[i];
        const double* b = sq[(i + 1) % 4];
        double fa = c0 + cx * a[0] + cy * a[1], fb = c0 + cx * b[0] + cy * b[1];
        if (fa <= 0) {
            if (!started) {
                cairo_move_to(cr, a[0], a[1]);
                started = true;
            } else {
                cairo_line_to(cr, a[0], a[1]);
            }
        }
        if ((fa <= 0) != (fb <= 0)) {
            double t = fa / (fa - fb);
            double x = a[0] + t * (b[0] - a[0]), y = a[1] + t * (b[1] - a[1]);
            if (!started) {
                cairo_move_to(cr, x, y);
                started = true;
            } else {
                cairo_line_to(cr, x, y);
            }
        }
    }
    if (started) {
        cairo_close_path(cr);
    }
}

/* The boundary line of the section, when it passes near the view. */
static void path_plane_outline(cairo_t* cr, const rview* v, const sw_plane* p, double raise)
{
    double c0, cx, cy;
    if (!plane_section(v, p, raise, &c0, &cx, &cy)) {
        return;
    }
    double g = sqrt(cx * cx + cy * cy);
    double f = c0 + cx * v->ox + cy * v->oy;
    if (!(g > 0) || fabs(f) / g > RS_REACH_PX) {
        return;
    }
    /* The boundary's point nearest the view's centre, and its direction. */
    double x0 = v->ox - f * cx / (g * g), y0 = v->oy - f * cy / (g * g);
    double tx = -cy / g, ty = cx / g;
    cairo_move_to(cr, x0 - RS_REACH_PX * tx, y0 - RS_REACH_PX * ty);
    cairo_line_to(cr, x0 + RS_REACH_PX * tx, y0 + RS_REACH_PX * ty);
}

bool rs_is_bounded(const sw_shape* s) { return s->type != SW_SHAPE_PLANE; }

rv3 rs_center(const sw_shape* s)
{
    if (s->type == SW_SHAPE_PLANE) {
        double o;
        rv3 n = plane_unit_normal(&s->plane, &o);
        return rv3_scale(n, o);
    }
    rv3 core[RS_MAX_CORE];
    double r;
    int n = shape_core(s, core, &r);
    rv3 c = rv3_make(0, 0, 0);
    for (int i = 0; i < n; i++) {
        c = rv3_add(c, core[i]);
    }
    return n > 0 ? rv3_scale(c, 1.0 / n) : c;
}

double rs_size(const sw_shape* s)
{
    rv3 core[RS_MAX_CORE];
    double r;
    int n = shape_core(s, core, &r);
    if (n == 0) {
        return 0;
    }
    rv3 lo = core[0], hi = core[0];
    for (int i = 1; i < n; i++) {
        lo = rv3_make(fmin(lo.x, core[i].x), fmin(lo.y, core[i].y), fmin(lo.z, core[i].z));
        hi = rv3_make(fmax(hi.x, core[i].x), fmax(hi.y, core[i].y), fmax(hi.z, core[i].z));
    }
    rv3 e = rv3_sub(hi, lo);
    return fmax(e.x, fmax(e.y, e.z)) + 2 * r;
}

/* Closest point of segment a-b to q. */
static rv3 closest_on_segment(rv3 a, rv3 b, rv3 q)
{
    rv3 ab = rv3_sub(b, a);
    double len_sq = rv3_dot(ab, ab);
    double t = len_sq > 0 ? rv3_dot(rv3_sub(q, a), ab) / len_sq : 0;
    return rv3_madd(a, fmin(fmax(t, 0), 1), ab);
}

/* Closest point of the ball (c, r) to q (q itself when inside). */
static rv3 closest_on_ball(rv3 c, double r, rv3 q)
{
    rv3 dir = rv3_sub(q, c);
    double len = rv3_normalize(&dir);
    return len <= r ? q : rv3_madd(c, r, dir);
}

rv3 rs_closest_point(const sw_shape* s, rv3 offset, rv3 q)
{
    q = rv3_sub(q, offset);
    rv3 p = q;
    switch (s->type) {
    case SW_SHAPE_POINT:
        p = rv3_of(s->point);
        break;
    case SW_SHAPE_SEGMENT:
        p = closest_on_segment(rv3_of(s->segment.a), rv3_of(s->segment.b), q);
        break;
    case SW_SHAPE_SPHERE:
        p = closest_on_ball(rv3_of(s->sphere.center), s->sphere.radius, q);
        break;
    case SW_SHAPE_CAPSULE: {
        rv3 x = closest_on_segment(rv3_of(s->capsule.a), rv3_of(s->capsule.b), q);
        p = closest_on_ball(x, s->capsule.radius, q);
        break;
    }
    case SW_SHAPE_BOX: {
        rv3 axes[3];
        box_frame(&s->box, axes);
        rv3 c = rv3_of(s->box.center);
        rv3 rel = rv3_sub(q, c);
        double h[3] = {s->box.half.x, s->box.half.y, s->box.half.z};
        p = c;
        for (int k = 0; k < 3; k++) {
            p = rv3_madd(p, fmin(fmax(rv3_dot(rel, axes[k]), -h[k]), h[k]), axes[k]);
        }
        break;
    }
    case SW_SHAPE_PLANE:
        p = plane_closest(&s->plane, q);
        break;
    case SW_SHAPE_MESH:
        p = rmesh_closest_point(&s->mesh, q);
        break;
    default: {
        /* Good enough to frame a view: the nearest core point. */
        rv3 core[RS_MAX_CORE];
        double r;
        int n = shape_core(s, core, &r);
        double best = INFINITY;
        for (int i = 0; i < n; i++) {
            double d = rv3_length(rv3_sub(core[i], q));
            if (d < best) {
                best = d;
                p = core[i];
            }
        }
        break;
    }
    }
    return rv3_add(p, offset);
}

void rs_add_bounds(rbox2* b, const rview* v, const sw_shape* s, rv3 offset)
{
    if (s->type == SW_SHAPE_MESH) {
        /* Never moved: a mesh is never the moving shape. */
        rmesh_add_bounds(b, v, &s->mesh);
        return;
    }
    rv3 core[RS_MAX_CORE];
    double r;
    int n = shape_core(s, core, &r);
    for (int i = 0; i < n; i++) {
        rv3 q = rv3_sub(rv3_add(core[i], offset), v->origin);
        double u = rv3_dot(q, v->right), w = rv3_dot(q, v->up);
        rbox2_add_point(b, u - r, w - r);
        rbox2_add_point(b, u + r, w + r);
    }
}

/* ---- far-off geometry -------------------------------------------------------
 * cairo keeps coordinates in 24.8 fixed point, so a path beyond about 8e6
 * pixels wraps around. An inset zoomed 1e5 times on a tiny shape beside a
 * huge one puts the huge one's outline that far out, so such paths are built
 * here in double and clipped to the square of half side RS_REACH_PX around
 * the view's origin pixel before cairo sees them. */

typedef struct pt2 {
    double x, y;
} pt2;

typedef struct poly {
    pt2* p;
    int n, cap;
    bool failed; /* out of memory: the path is dropped, not drawn wrong */
} poly;

static void poly_add(poly* q, double x, double y)
{
    if (q->failed) {
        return;
    }
    if (q->n == q->cap) {
        int cap = q->cap == 0 ? 256 : 2 * q->cap;
        pt2* grown = realloc(q->p, (size_t)cap * sizeof *grown);
        if (grown == NULL) {
            q->failed = true;
            return;
        }
        q->p = grown;
        q->cap = cap;
    }
    q->p[q->n].x = x;
    q->p[q->n].y = y;
    q->n++;
}

/* Keeps the part of polygon in on the side s * (coordinate axis) <= bound
 * (one Sutherland-Hodgman step); axis 0 is x, 1 is y. */
static void poly_clip(const poly* in, poly* out, int axis, double s, double bound)
{
    out->n = 0;
    for (int i = 0; i < in->n; i++) {
        pt2 a = in->p[i], b = in->p[(i + 1) % in->n];
        double fa = s * (axis == 0 ? a.x : a.y) - bound, fb = s * (axis == 0 ? b.x : b.y) - bound;
        if (fa <= 0) {
            poly_add(out, a.x, a.y);
        }
        if ((fa <= 0) != (fb <= 0)) {
            double t = fa / (fa - fb);
            poly_add(out, a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
        }
    }
    out->failed = out->failed || in->failed;
}

/* Adds closed polygon q, clipped to the view's reach, to the path. */
static void path_clipped_polygon(cairo_t* cr, const rview* v, poly* q)
{
    poly tmp = {0};
    const double bounds[4][3] = {{0, 1, v->ox + RS_REACH_PX},
                                 {0, -1, -(v->ox - RS_REACH_PX)},
                                 {1, 1, v->oy + RS_REACH_PX},
                                 {1, -1, -(v->oy - RS_REACH_PX)}};
    for (int i = 0; i < 4; i++) {
        poly_clip(q, &tmp, (int)bounds[i][0], bounds[i][1], bounds[i][2]);
        poly swap = *q;
        *q = tmp;
        tmp = swap;
    }
    free(tmp.p);
    if (q->failed || q->n < 3) {
        return;
    }
    cairo_new_sub_path(cr);
    cairo_move_to(cr, q->p[0].x, q->p[0].y);
    for (int i = 1; i < q->n; i++) {
        cairo_line_to(cr, q->p[i].x, q->p[i].y);
    }
    cairo_close_path(cr);
}

/* Points along the arc of centre c and radius r from angle a0 to a1
 * (increasing), dense (0.1 px sag) only where the arc may pass near the
 * view: within the angles, seen from c, of the disc around the view that
 * holds the reach square. Coarse chords elsewhere stay out of that sector,
 * so they never cut the visible part. */
static void arc_points(poly* q, const rview* v, pt2 c, double r, double a0, double a1)
{
    while (a1 < a0) {
        a1 += TAU;
    }
    double dx = v->ox - c.x, dy = v->oy - c.y;
    double dist = sqrt(dx * dx + dy * dy), rho = sqrt(2.0) * RS_REACH_PX;
    double phi = atan2(dy, dx);
    double half = dist > rho ? asin(rho / dist) : TAU;
    double dense = fmax(sqrt(0.8 / fmax(r, 1e-9)), 2 * fmin(half, TAU / 2) / 4096);
    double a = a0;
    poly_add(q, c.x + r * cos(a), c.y + r * sin(a));
    while (a < a1) {
        double off = remainder(a - phi, TAU);
        double step = dense;
        if (fabs(off) > half) {
            /* Outside the window: coarse steps, landing on its near edge. */
            double to_edge = off < 0 ? -half - off : TAU - half - off;
            step = fmin(TAU / 64, fmax(to_edge, dense));
        }
        a = fmin(a + step, a1);
        poly_add(q, c.x + r * cos(a), c.y + r * sin(a));
    }
}

bool rs_in_reach(const rview* v, double x, double y)
{
    return fabs(x - v->ox) <= RS_REACH_PX && fabs(y - v->oy) <= RS_REACH_PX;
}

bool rs_clip_segment(const rview* v, double* x0, double* y0, double* x1, double* y1)
{
    /* Liang-Barsky against the reach square. */
    double dx = *x1 - *x0, dy = *y1 - *y0;
    double t0 = 0, t1 = 1;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {*x0 - (v->ox - RS_REACH_PX), (v->ox + RS_REACH_PX) - *x0, *y0 - (v->oy - RS_REACH_PX),
                         (v->oy + RS_REACH_PX) - *y0};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0) {
                return false;
            }
            continue;
        }
        double t = q[i] / p[i];
        if (p[i] < 0) {
            t0 = fmax(t0, t);
        } else {
            t1 = fmin(t1, t);
        }
    }
    if (t0 > t1) {
        return false;
    }
    double ax = *x0 + t0 * dx, ay = *y0 + t0 * dy;
    *x1 = *x0 + t1 * dx;
    *y1 = *y0 + t1 * dy;
    *x0 = ax;
    *y0 = ay;
    return true;
}

/* ---- generic 2-D geometry: rounded convex hulls ------------------------- */

static int cmp_pt2(const void* pa, const void* pb)
{
    const pt2* a = pa;
    const pt2* b = pb;
    if (a->x != b->x) {
        return a->x < b->x ? -1 : 1;
    }
    if (a->y != b->y) {
        return a->y < b->y ? -1 : 1;
    }
    return 0;
}

static double cross2(pt2 o, pt2 a, pt2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

/* Andrew's monotone chain. Sorts p in place and writes the hull to h (room
 * for n + 1 points) with positive signed area in raw coordinates, without
 * collinear points; returns its size (1 when every point coincides, 2 when
 * they are collinear). */
static int convex_hull(pt2* p, int n, pt2* h)
{
    if (n == 0) {
        return 0;
    }
    qsort(p, (size_t)n, sizeof *p, cmp_pt2);
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && cross2(h[k - 2], h[k - 1], p[i]) <= 0) {
            k--;
        }
        h[k++] = p[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; i--) {
        while (k >= lower && cross2(h[k - 2], h[k - 1], p[i]) <= 0) {
            k--;
        }
        h[k++] = p[i];
    }
    k--; /* the last point repeats the first */
    if (k < 1) {
        k = 1;
    }
    if (k == 2 && h[0].x == h[1].x && h[0].y == h[1].y) {
        k = 1;
    }
    return k;
}

/* path_rounded_hull with its work arrays: h for the chain (2n + 1 points),
 * a0 and a1 for the arcs' angles (n + 1 each). */
static void path_rounded_hull_in(cairo_t* cr, const rview* v, pt2* p, int n, double r, pt2* h, double* a0, double* a1)
{
    int k = convex_hull(p, n, h);
    if (k == 0) {
        return;
    }
    double min_x = h[0].x, max_x = h[0].x, min_y = h[0].y, max_y = h[0].y;
    for (int i = 1; i < k; i++) {
        min_x = fmin(min_x, h[i].x);
        max_x = fmax(max_x, h[i].x);
        min_y = fmin(min_y, h[i].y);
        max_y = fmax(max_y, h[i].y);
    }
    /* Something under a few pixels across would vanish: draw it as a dot. */
    if (fmax(max_x - min_x, max_y - min_y) + 2 * r < 2 * DOT_RADIUS_PX) {
        r = fmax(r, DOT_RADIUS_PX);
    }
    /* The outward normal of edge e (positive orientation) is (e.y, -e.x);
     * the arc around a vertex turns from the incoming edge's normal to the
     * outgoing one's. */
    for (int i = 0; i < k; i++) {
        pt2 prev = h[(i + k - 1) % k], cur = h[i], next = h[(i + 1) % k];
        a0[i] = k == 1 ? 0 : atan2(-(cur.x - prev.x), cur.y - prev.y);
        a1[i] = k == 1 ? TAU : atan2(-(next.x - cur.x), next.y - cur.y);
    }
    bool near = rs_in_reach(v, min_x - r, min_y - r) && rs_in_reach(v, max_x + r, max_y + r);
    if (!near) {
        poly q = {0};
        for (int i = 0; i < k; i++) {
            if (r > 0) {
                arc_points(&q, v, h[i], r, a0[i], a1[i]);
            } else {
                poly_add(&q, h[i].x, h[i].y);
            }
        }
        path_clipped_polygon(cr, v, &q);
        free(q.p);
        return;
    }
    cairo_new_sub_path(cr);
    for (int i = 0; i < k; i++) {
        if (r > 0) {
            cairo_arc(cr, h[i].x, h[i].y, r, a0[i], a1[i]);
        } else {
            cairo_line_to(cr, h[i].x, h[i].y);
        }
    }
    cairo_close_path(cr);
}

/* Adds the closed path of the hull of the pixel points p inflated by r
 * pixels: offset edges joined by arcs around the hull's vertices, which for
 * two points is a stadium and for one a circle. */
static void path_rounded_hull(cairo_t* cr, const rview* v, pt2* p, int n, double r)
{
    /* Allocated: a hull's core makes these too big for the stack. Out of
     * memory: nothing is drawn. */
    pt2* h = malloc((size_t)(2 * n + 1) * sizeof *h);
    double* a0 = malloc((size_t)(n + 1) * sizeof *a0);
    double* a1 = malloc((size_t)(n + 1) * sizeof *a1);
    if (h != NULL && a0 != NULL && a1 != NULL) {
        path_rounded_hull_in(cr, v, p, n, r, h, a0, a1);
    }
    free(h);
    free(a0);
    free(a1);
}

static int project_core(const rview* v, const rv3* core, int n, rv3 offset, pt2* out)
{
    for (int i = 0; i < n; i++) {
        rview_project(v, rv3_add(core[i], offset), &out[i].x, &out[i].y);
    }
    return n;
}

void rs_path_silhouette(cairo_t* cr, const rview* v, const sw_shape* s, rv3 offset)
{
    if (s->type == SW_SHAPE_PLANE) {
        /* Never moved: a plane is never the moving shape. */
        path_plane_silhouette(cr, v, &s->plane, 0);
        return;
    }
    if (s->type == SW_SHAPE_MESH) {
        rmesh_path_union(cr, v, &s->mesh, 0);
        return;
    }
    rv3 core[RS_MAX_CORE];
    double r;
    int n = shape_core(s, core, &r);
    pt2 p[RS_MAX_CORE];
    project_core(v, core, n, offset, p);
    path_rounded_hull(cr, v, p, n, r * v->scale);
}

void rs_path_swept(cairo_t* cr, const rview* v, const sw_shape* s, rv3 d)
{
    if (s->type == SW_SHAPE_PLANE) {
        path_plane_silhouette(cr, v, &s->plane, 0);
        return;
    }
    rv3 core[RS_MAX_CORE];
    double r;
    int n = shape_core(s, core, &r);
    pt2 p[2 * RS_MAX_CORE];
    project_core(v, core, n, rv3_make(0, 0, 0), p);
    project_core(v, core, n, d, p + n);
    path_rounded_hull(cr, v, p, 2 * n, r * v->scale);
}

void rs_path_inflated(cairo_t* cr, const rview* v, const sw_shape* s, double skin)
{
    if (s->type == SW_SHAPE_PLANE) {
        /* Cut where the skin's surface lies above the section point. */
        double o;
        rview lifted = *v;
        lifted.section_point = rv3_madd(v->section_point, skin, plane_unit_normal(&s->plane, &o));
        path_plane_outline(cr, &lifted, &s->plane, skin);
        return;
    }
    if (s->type == SW_SHAPE_MESH) {
        rmesh_path_union(cr, v, &s->mesh, skin * v->scale);
        return;
    }
    rv3 core[RS_MAX_CORE];
    double r;
    int n = shape_core(s, core, &r);
    pt2 p[RS_MAX_CORE];
    project_core(v, core, n, rv3_make(0, 0, 0), p);
    path_rounded_hull(cr, v, p, n, (r + skin) * v->scale);
}

static void path_line(cairo_t* cr, const rview* v, rv3 a, rv3 b)
{
    double x0, y0, x1, y1;
    rview_project(v, a, &x0, &y0);
    rview_project(v, b, &x1, &y1);
    if (rs_clip_segment(v, &x0, &y0, &x1, &y1)) {
        cairo_move_to(cr, x0, y0);
        cairo_line_to(cr, x1, y1);
    }
}

static void path_ring(cairo_t* cr, const rview* v, rv3 c, double r_px)
{
    double x, y;
    rview_project(v, c, &x, &y);
    if (!rs_in_reach(v, x, y)) {
        return;
    }
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, r_px, 0, TAU);
    cairo_close_path(cr);
}

/* Closed polygon through the world points pts. */
static void path_points(cairo_t* cr, const rview* v, const rv3* pts, int n)
{
    poly q = {0};
    for (int i = 0; i < n; i++) {
        double x, y;
        rview_project(v, pts[i], &x, &y);
        poly_add(&q, x, y);
    }
    path_clipped_polygon(cr, v, &q);
    free(q.p);
}

/* Closed polygon through a triangle's or polygon's vertices (at most
 * RS_MAX_CORE), translated by offset. */
static void path_polygon(cairo_t* cr, const rview* v, const sw_vec3* pts, int n, rv3 offset)
{
    rv3 w[RS_MAX_CORE];
    n = n < RS_MAX_CORE ? n : RS_MAX_CORE;
    for (int i = 0; i < n; i++) {
        w[i] = rv3_add(rv3_of(pts[i]), offset);
    }
    path_points(cr, v, w, n);
}

/* Shortest mean length, in pixels, of the front edges that are drawn: a
 * finer mesh would only darken the hull. */
static const double HULL_EDGE_MIN_PX = 6.0;

/* The edges of a hull's faces that face the viewer (a face whose outward
 * normal has a component towards the viewer), so the visible side reads
 * as a solid; hidden edges are left out, and all of them when they would
 * be too short to tell apart (a hull of many small faces, far away). */
static void path_hull_front_edges(cairo_t* cr, const rview* v, const sw_hull_instance* h, rv3 offset)
{
    const hull_frame f = hull_frame_of(h);
    const rv3 towards_viewer = rv3_cross(v->right, v->up);
    for (int pass = 0; pass < 2; pass++) {
        double total = 0;
        int count = 0;
        for (int i = 0; i < h->hull->edge_count; i++) {
            const sw_hull_edge* e = &h->hull->edges[i];
            if (!(rv3_dot(hull_face_normal(h, &f, e->face[0]), towards_viewer) > 0 ||
                  rv3_dot(hull_face_normal(h, &f, e->face[1]), towards_viewer) > 0)) {
                continue;
            }
            const rv3 a = rv3_add(hull_vertex(h, &f, e->v[0]), offset);
            const rv3 b = rv3_add(hull_vertex(h, &f, e->v[1]), offset);
            if (pass == 0) {
                double x0, y0, x1, y1;
                rview_project(v, a, &x0, &y0);
                rview_project(v, b, &x1, &y1);
                total += hypot(x1 - x0, y1 - y0);
                count++;
            } else {
                path_line(cr, v, a, b);
            }
        }
        if (pass == 0 && !(count > 0 && total >= HULL_EDGE_MIN_PX * count)) {
            return;
        }
    }
}

void rs_path_outline(cairo_t* cr, const rview* v, const sw_shape* s, rv3 offset)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        path_ring(cr, v, rv3_add(rv3_of(s->point), offset), DOT_RADIUS_PX + 1);
        return;
    case SW_SHAPE_SEGMENT:
        path_line(cr, v, rv3_add(rv3_of(s->segment.a), offset), rv3_add(rv3_of(s->segment.b), offset));
        return;
    case SW_SHAPE_BOX: {
        rv3 core[RS_MAX_CORE];
        double r;
        shape_core(s, core, &r);
        /* The 12 edges join the corners that differ in one bit. */
        for (int i = 0; i < 8; i++) {
            for (int k = 0; k < 3; k++) {
                if (!(i >> k & 1)) {
                    path_line(cr, v, rv3_add(core[i], offset), rv3_add(core[i | 1 << k], offset));
                }
            }
        }
        return;
    }
    case SW_SHAPE_PLANE:
        path_plane_outline(cr, v, &s->plane, 0);
        return;
    case SW_SHAPE_TRIANGLE:
        path_polygon(cr, v, s->triangle.v, 3, offset);
        return;
    case SW_SHAPE_POLYGON:
        path_polygon(cr, v, s->polygon.v, s->polygon.count, offset);
        return;
    case SW_SHAPE_HULL:
        rs_path_silhouette(cr, v, s, offset);
        path_hull_front_edges(cr, v, &s->hull, offset);
        return;
    case SW_SHAPE_MESH:
        rmesh_path_outline(cr, v, &s->mesh);
        return;
    default:
        /* A sphere's circle, a capsule's two half circles joined by the
         * tangent lines: the silhouette is the outline. */
        rs_path_silhouette(cr, v, s, offset);
        return;
    }
}

static bool path_box_feature(cairo_t* cr, const rview* v, const sw_box* b, sw_feature f)
{
    rv3 axes[3];
    box_frame(b, axes);
    switch (f.kind) {
    case SW_FEATURE_VERTEX:
        if (f.index < 0 || f.index >= 8) {
            return false;
        }
        path_ring(cr, v, box_corner(b, axes, f.index), FEATURE_RING_PX);
        return true;
    case SW_FEATURE_EDGE: {
        if (f.index < 0 || f.index >= 12) {
            return false;
        }
        /* Edge 4*axis + j: bit 0 of j is the sign on the next axis, bit 1
         * the sign on the one after. */
        int axis = f.index / 4, j = f.index % 4;
        int c = (j & 1) << (axis + 1) % 3 | (j >> 1 & 1) << (axis + 2) % 3;
        path_line(cr, v, box_corner(b, axes, c), box_corner(b, axes, c | 1 << axis));
        return true;
    }
    case SW_FEATURE_FACE: {
        if (f.index < 0 || f.index >= 6) {
            return false;
        }
        /* Face 2*axis + s lies at local coordinate (s ? +h : -h) on axis. */
        int axis = f.index / 2, side = f.index % 2;
        int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
        static const int order[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        rv3 corners[4];
        for (int i = 0; i < 4; i++) {
            corners[i] = box_corner(b, axes, side << axis | order[i][0] << a1 | order[i][1] << a2);
        }
        path_points(cr, v, corners, 4);
        return true;
    }
    case SW_FEATURE_NONE:
        break;
    }
    return false;
}

/* Segments and capsules: vertices 0 (a) and 1 (b), edge 0. */
static bool path_segment_feature(cairo_t* cr, const rview* v, rv3 a, rv3 b, sw_feature f)
{
    if (f.kind == SW_FEATURE_VERTEX && (f.index == 0 || f.index == 1)) {
        path_ring(cr, v, f.index == 0 ? a : b, FEATURE_RING_PX);
        return true;
    }
    if (f.kind == SW_FEATURE_EDGE && f.index == 0) {
        path_line(cr, v, a, b);
        return true;
    }
    return false;
}

/* Triangles and polygons: vertices in input order, edge i from v[i] to
 * v[i+1], face 0. */
static bool path_polygon_feature(cairo_t* cr, const rview* v, const sw_vec3* pts, int n, sw_feature f)
{
    rv3 zero = rv3_make(0, 0, 0);
    switch (f.kind) {
    case SW_FEATURE_VERTEX:
        if (f.index < 0 || f.index >= n) {
            return false;
        }
        path_ring(cr, v, rv3_of(pts[f.index]), FEATURE_RING_PX);
        return true;
    case SW_FEATURE_EDGE:
        if (f.index < 0 || f.index >= n) {
            return false;
        }
        path_line(cr, v, rv3_of(pts[f.index]), rv3_of(pts[(f.index + 1) % n]));
        return true;
    case SW_FEATURE_FACE:
        if (f.index != 0) {
            return false;
        }
        path_polygon(cr, v, pts, n, zero);
        return true;
    case SW_FEATURE_NONE:
        break;
    }
    return false;
}

/* Hulls: vertex, edge and face i in the numbering of hull.h. */
static bool path_hull_feature(cairo_t* cr, const rview* v, const sw_hull_instance* h, sw_feature f)
{
    const sw_hull* hull = h->hull;
    const hull_frame frame = hull_frame_of(h);
    switch (f.kind) {
    case SW_FEATURE_VERTEX:
        if (f.index < 0 || f.index >= hull->vertex_count) {
            return false;
        }
        path_ring(cr, v, hull_vertex(h, &frame, f.index), FEATURE_RING_PX);
        return true;
    case SW_FEATURE_EDGE:
        if (f.index < 0 || f.index >= hull->edge_count) {
            return false;
        }
        path_line(cr, v, hull_vertex(h, &frame, hull->edges[f.index].v[0]),
                  hull_vertex(h, &frame, hull->edges[f.index].v[1]));
        return true;
    case SW_FEATURE_FACE: {
        if (f.index < 0 || f.index >= hull->face_count) {
            return false;
        }
        const sw_hull_face* face = &hull->faces[f.index];
        rv3* pts = malloc((size_t)face->count * sizeof *pts);
        if (pts == NULL) {
            return false;
        }
        for (int i = 0; i < face->count; i++) {
            pts[i] = hull_vertex(h, &frame, hull->face_vertices[face->first + i]);
        }
        path_points(cr, v, pts, face->count);
        free(pts);
        return true;
    }
    case SW_FEATURE_NONE:
        break;
    }
    return false;
}

bool rs_path_feature(cairo_t* cr, const rview* v, const sw_shape* s, sw_feature f, int triangle)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
    case SW_SHAPE_SPHERE:
        return false;
    case SW_SHAPE_PLANE:
        if (f.kind != SW_FEATURE_FACE || f.index != 0) {
            return false;
        }
        path_plane_outline(cr, v, &s->plane, 0);
        return true;
    case SW_SHAPE_TRIANGLE:
        return path_polygon_feature(cr, v, s->triangle.v, 3, f);
    case SW_SHAPE_POLYGON:
        return path_polygon_feature(cr, v, s->polygon.v, s->polygon.count, f);
    case SW_SHAPE_SEGMENT:
        return path_segment_feature(cr, v, rv3_of(s->segment.a), rv3_of(s->segment.b), f);
    case SW_SHAPE_CAPSULE:
        return path_segment_feature(cr, v, rv3_of(s->capsule.a), rv3_of(s->capsule.b), f);
    case SW_SHAPE_BOX:
        return path_box_feature(cr, v, &s->box, f);
    case SW_SHAPE_HULL:
        return path_hull_feature(cr, v, &s->hull, f);
    case SW_SHAPE_MESH: {
        /* The triangle's own numbering (sweep/mesh.h). */
        sw_vec3 t[3];
        return sw_mesh_world_triangle(&s->mesh, triangle, t) && path_polygon_feature(cr, v, t, 3, f);
    }
    default:
        break;
    }
    return false;
}

void rs_path_line(cairo_t* cr, const rview* v, rv3 a, rv3 b) { path_line(cr, v, a, b); }

void rs_path_polygon(cairo_t* cr, const rview* v, const rv3* pts, int n) { path_points(cr, v, pts, n); }

void rs_path_rounded(cairo_t* cr, const rview* v, const rv3* pts, int n, double r_px)
{
    pt2 p[RS_MAX_CORE];
    n = n < RS_MAX_CORE ? n : RS_MAX_CORE;
    project_core(v, pts, n, rv3_make(0, 0, 0), p);
    path_rounded_hull(cr, v, p, n, r_px);
}

void rs_describe(const sw_shape* s, char* buf, size_t size)
{
#define V3(v) (double)(v).x, (double)(v).y, (double)(v).z
    switch (s->type) {
    case SW_SHAPE_POINT:
        snprintf(buf, size, "point (%g, %g, %g)", V3(s->point));
        return;
    case SW_SHAPE_SEGMENT:
        snprintf(buf, size, "segment (%g, %g, %g)-(%g, %g, %g)", V3(s->segment.a), V3(s->segment.b));
        return;
    case SW_SHAPE_SPHERE:
        snprintf(buf, size, "sphere center (%g, %g, %g) r %g", V3(s->sphere.center), (double)s->sphere.radius);
        return;
    case SW_SHAPE_CAPSULE:
        snprintf(buf, size, "capsule (%g, %g, %g)-(%g, %g, %g) r %g", V3(s->capsule.a), V3(s->capsule.b),
                 (double)s->capsule.radius);
        return;
    case SW_SHAPE_BOX: {
        const sw_quat q = s->box.rotation;
        int n = snprintf(buf, size, "box center (%g, %g, %g) half (%g, %g, %g)", V3(s->box.center), V3(s->box.half));
        if (n >= 0 && (size_t)n < size && !(q.x == 0 && q.y == 0 && q.z == 0)) {
            snprintf(buf + n, size - (size_t)n, " rot [%g, %g, %g, %g]", (double)q.x, (double)q.y, (double)q.z,
                     (double)q.w);
        }
        return;
    }
    case SW_SHAPE_PLANE:
        snprintf(buf, size, "plane normal (%g, %g, %g) offset %g", V3(s->plane.normal), (double)s->plane.offset);
        return;
    case SW_SHAPE_TRIANGLE:
        snprintf(buf, size, "%striangle (%g, %g, %g) (%g, %g, %g) (%g, %g, %g)",
                 s->triangle.one_sided ? "one-sided " : "", V3(s->triangle.v[0]), V3(s->triangle.v[1]),
                 V3(s->triangle.v[2]));
        return;
    case SW_SHAPE_POLYGON:
        snprintf(buf, size, "%spolygon of %d vertices, first (%g, %g, %g)", s->polygon.one_sided ? "one-sided " : "",
                 s->polygon.count, V3(s->polygon.v[0]));
        return;
    case SW_SHAPE_HULL: {
        const sw_hull* h = s->hull.hull;
        const sw_quat q = s->hull.rotation;
        int n = snprintf(buf, size, "hull of %d vertices, %d edges, %d faces at (%g, %g, %g)", h->vertex_count,
                         h->edge_count, h->face_count, V3(s->hull.position));
        if (n >= 0 && (size_t)n < size && !(q.x == 0 && q.y == 0 && q.z == 0)) {
            snprintf(buf + n, size - (size_t)n, " rot [%g, %g, %g, %g]", (double)q.x, (double)q.y, (double)q.z,
                     (double)q.w);
        }
        return;
    }
    case SW_SHAPE_MESH:
        rmesh_describe(&s->mesh, buf, size);
        return;
    default:
        break;
    }
    snprintf(buf, size, "%s", sw_shape_type_name(s->type));
#undef V3
}
