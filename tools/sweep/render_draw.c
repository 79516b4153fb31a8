/* `sweep render`: laying out and framing the views, and drawing them
 * (answering is in render_answer.c, the legend in render_legend.c, a
 * scene's other shapes in render_scene.c). Nothing here depends on the
 * shape type; that is all in render_shapes.c. */
#include "render_style.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-svg.h>

/* The contact normal, when the answer has one. */
static bool answer_normal(const render_scene* sc, rv3* n)
{
    if (render_is_hit(sc)) {
        *n = rv3_of(sc->hit.normal);
        return true;
    }
    if (sc->op == REQ_OVERLAP && render_answered(sc) && sc->over.overlapping) {
        *n = rv3_of(sc->over.normal);
        return true;
    }
    return false;
}

/* Where A's centre passes closest to B (sampled; it only places the views),
 * and B's point nearest to it. */
static void closest_approach(const render_scene* sc, rv3* a_center, rv3* b_point)
{
    rv3 c0 = rs_center(&sc->a);
    double best = INFINITY;
    const int samples = sc->moves ? 64 : 0;
    for (int i = 0; i <= samples; i++) {
        rv3 c = samples > 0 ? rv3_madd(c0, (double)i / samples, sc->d) : c0;
        rv3 q = rs_closest_point(&sc->b, rv3_make(0, 0, 0), c);
        double dist = rv3_length(rv3_sub(c, q));
        if (dist < best) {
            best = dist;
            *a_center = c;
            *b_point = q;
        }
    }
}

/* Decides what the views must show: the anchor, whether B is framed only
 * near A, and the inset. */
static void plan_framing(render_scene* sc)
{
    rv3 ca, qb;
    closest_approach(sc, &ca, &qb);

    double size_a = rs_size(&sc->a), size_b = rs_size(&sc->b);
    double len_d = sc->moves ? rv3_length(sc->d) : 0;
    double extent = 0; /* the span of the contact or closest points */
    sc->anchor = ca;
    if (render_is_hit(sc)) {
        sc->anchor = rv3_of(sc->hit.point);
    } else if (sc->op == REQ_OVERLAP && render_answered(sc) && sc->over.overlapping) {
        sc->anchor = rv3_of(sc->over.point);
        extent = (double)sc->over.depth;
    } else if (render_has_distance(sc)) {
        rv3 pa = rv3_of(sc->dist.point_a), pb = rv3_of(sc->dist.point_b);
        sc->anchor = rv3_scale(rv3_add(pa, pb), 0.5);
        extent = rv3_length(rv3_sub(pb, pa));
    }

    /* A huge B (a floor under a pebble) is framed only near A; a container
     * is the whole scene and always framed. */
    double moving = size_a + len_d;
    rv3 qa = rs_closest_point(&sc->b, rv3_make(0, 0, 0), sc->anchor);
    sc->b_window_size = fmax(0.6 * moving, 1.5 * rv3_length(rv3_sub(sc->anchor, qa)));
    if (!(sc->b_window_size > 0)) {
        /* A point on a plane: any window shows it. */
        sc->b_window_size = 1;
    }
    sc->b_window = !rs_is_bounded(&sc->b) || (sc->op != REQ_SWEEP_INSIDE && size_b > 8 * moving);

    double sizes[3] = {size_a, size_b, len_d};
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < 3; i++) {
        if (sizes[i] > 0) {
            lo = fmin(lo, sizes[i]);
            hi = fmax(hi, sizes[i]);
        }
    }
    sc->scale_ratio = hi > 0 ? hi / lo : 1;
    sc->needs_inset = sc->scale_ratio > RENDER_INSET_RATIO;
    if (sc->needs_inset) {
        sc->focus = sc->anchor;
        if (sc->moves && !render_is_hit(sc)) {
            /* A miss: zoom where they pass closest, on the gap if it is
             * small enough to show with the smaller shape, else on that. */
            double gap = rv3_length(rv3_sub(qb, ca));
            if (gap < 10 * lo) {
                sc->focus = rv3_scale(rv3_add(ca, qb), 0.5);
                extent = gap;
            } else {
                sc->focus = size_a <= size_b ? ca : qb;
            }
        }
        sc->focus_size = fmax(5 * lo, 1.5 * extent);
    }
}

/* ---- the contact view's orientation ------------------------------------- */

static double sin_between(rv3 unit, rv3 v)
{
    double len = rv3_length(v);
    return len > 0 ? rv3_length(rv3_cross(unit, v)) / len : 0;
}

static bool axis_of(const sw_shape* s, rv3* axis)
{
    if (s->type == SW_SHAPE_SEGMENT) {
        *axis = rv3_sub(rv3_of(s->segment.b), rv3_of(s->segment.a));
        return true;
    }
    if (s->type == SW_SHAPE_CAPSULE) {
        *axis = rv3_sub(rv3_of(s->capsule.b), rv3_of(s->capsule.a));
        return true;
    }
    return false;
}

/* The fourth view lies in the plane of the displacement d and the normal n,
 * i.e. looks along d x n, where an approach and its contact are easiest to
 * judge. Without a usable pair (head-on contact, a miss, no motion) it
 * falls back to the next most telling plane. */
static void contact_basis(const render_scene* sc, rv3* right, rv3* up, char* title, size_t title_size)
{
    rv3 zero = rv3_make(0, 0, 0);
    rv3 p = zero, s = zero, n;
    const char *p_name = "", *s_name = "";
    rv3 ca, qb;
    closest_approach(sc, &ca, &qb);
    rv3 centers = rv3_sub(rs_center(&sc->b), rs_center(&sc->a));
    if (sc->moves) {
        p = sc->d;
        p_name = sc->op == REQ_RAYCAST ? "dir" : "d";
        if (answer_normal(sc, &n)) {
            s = n;
            s_name = "n";
        } else {
            s = rv3_sub(qb, ca);
            s_name = "closest approach";
        }
    } else if (answer_normal(sc, &n)) {
        p = n;
        p_name = "n";
        s = centers;
        s_name = "centres";
    } else if (render_has_distance(sc)) {
        p = rv3_sub(rv3_of(sc->dist.point_b), rv3_of(sc->dist.point_a));
        p_name = "closest points";
        s = centers;
        s_name = "centres";
    } else {
        p = centers;
        p_name = "centres";
    }
    if (rv3_normalize(&p) == 0) {
        p = s;
        p_name = s_name;
        s = zero;
        s_name = "";
        if (rv3_normalize(&p) == 0) {
            /* Nothing to orient by: an isometric view. */
            *right = rv3_scale(rv3_make(1, 1, 0), 1 / sqrt(2.0));
            *up = rv3_scale(rv3_make(-1, 1, 2), 1 / sqrt(6.0));
            snprintf(title, title_size, "contact view (isometric)");
            return;
        }
    }

    /* Candidates for the second direction, best first; the given one needs
     * only to be clearly not parallel, the others to be well apart. */
    rv3 cand[8];
    const char* cand_name[8];
    double need[8];
    int k = 0;
    if (rv3_length(s) > 0) {
        cand[k] = s, cand_name[k] = s_name, need[k++] = 0.05;
    }
    rv3 axis;
    if (axis_of(&sc->a, &axis)) {
        cand[k] = axis, cand_name[k] = "A's axis", need[k++] = 0.2;
    }
    if (axis_of(&sc->b, &axis)) {
        cand[k] = axis, cand_name[k] = "B's axis", need[k++] = 0.2;
    }
    const char* chosen = NULL;
    rv3 second = zero;
    for (int i = 0; i < k && chosen == NULL; i++) {
        if (sin_between(p, cand[i]) >= need[i]) {
            chosen = cand_name[i];
            second = cand[i];
        }
    }
    if (chosen == NULL) {
        /* The world axis most perpendicular to p, z first on ties. */
        static const char* names[3] = {"the z axis", "the y axis", "the x axis"};
        rv3 axes[3] = {rv3_make(0, 0, 1), rv3_make(0, 1, 0), rv3_make(1, 0, 0)};
        double best = -1;
        for (int i = 0; i < 3; i++) {
            double sn = sin_between(p, axes[i]);
            if (sn > best + 1e-9) {
                best = sn;
                chosen = names[i];
                second = axes[i];
            }
        }
    }
    *right = p;
    *up = rv3_madd(second, -rv3_dot(second, p), p);
    rv3_normalize(up);
    snprintf(title, title_size, "contact view (plane of %s and %s)", p_name, chosen);
}

/* ---- layout and framing ------------------------------------------------- */

/* Adds what a view must show, relative to the view's origin. */
static void subject_bounds(const render_scene* sc, const rview* v, rbox2* box)
{
    rv3 zero = rv3_make(0, 0, 0);
    rs_add_bounds(box, v, &sc->a, zero);
    if (sc->moves) {
        rs_add_bounds(box, v, &sc->a, sc->d);
    }
    rbox2_add_world(box, v, sc->anchor);
    if (sc->op == REQ_OVERLAP && render_answered(sc) && sc->over.overlapping) {
        rbox2_add_world(box, v, rv3_madd(rv3_of(sc->over.point), sc->over.depth, rv3_of(sc->over.normal)));
    }
    if (render_has_distance(sc)) {
        rbox2_add_world(box, v, rv3_of(sc->dist.point_a));
        rbox2_add_world(box, v, rv3_of(sc->dist.point_b));
    }
    if (sc->over_scene) {
        render_scene_bounds(sc, v, box);
    }
    if (!sc->b_window) {
        /* B, and its skin's outline around it. */
        rbox2 b = rbox2_empty();
        rs_add_bounds(&b, v, &sc->b, zero);
        if (!b.empty) {
            rbox2_add_point(box, b.min_u - sc->skin, b.min_v - sc->skin);
            rbox2_add_point(box, b.max_u + sc->skin, b.max_v + sc->skin);
        }
        return;
    }
    /* Only the part of B near the anchor. */
    rv3 q = rs_closest_point(&sc->b, zero, sc->anchor);
    rbox2 near = rbox2_empty();
    rbox2_add_world(&near, v, q);
    double h = sc->b_window_size / 2;
    near.min_u -= h;
    near.max_u += h;
    near.min_v -= h;
    near.max_v += h;
    rbox2 whole = rbox2_empty();
    rs_add_bounds(&whole, v, &sc->b, zero);
    if (!whole.empty) {
        near.min_u = fmax(near.min_u, whole.min_u);
        near.max_u = fmin(near.max_u, whole.max_u);
        near.min_v = fmax(near.min_v, whole.min_v);
        near.max_v = fmin(near.max_v, whole.max_v);
    }
    if (near.min_u <= near.max_u && near.min_v <= near.max_v) {
        rbox2_add_box(box, &near);
    }
}

/* Scales and centres view v so that box (view coordinates relative to
 * v->origin) fills rect less a margin. */
static void fit_view(rview* v, rbox2 box, render_rect rect, double margin_px)
{
    double w = box.max_u - box.min_u, h = box.max_v - box.min_v;
    double size = fmax(w, h);
    if (!(size > 0)) {
        /* Everything is one point: any scale shows it. */
        size = 1;
    }
    /* A flat subject still gets some height, so its scale stays finite. */
    w = fmax(w, 0.05 * size);
    h = fmax(h, 0.05 * size);
    double avail_w = fmax(rect.w - 2 * margin_px, 1), avail_h = fmax(rect.h - 2 * margin_px, 1);
    v->scale = fmin(avail_w / w, avail_h / h);
    v->origin =
        rv3_madd(rv3_madd(v->origin, (box.min_u + box.max_u) / 2, v->right), (box.min_v + box.max_v) / 2, v->up);
    v->ox = rect.x + rect.w / 2;
    v->oy = rect.y + rect.h / 2;
}

/* Pixel length of the normal arrow in a rectangle. */
static double arrow_length(render_rect r) { return 0.16 * fmin(r.w, r.h); }

static void frame_panel(const render_scene* sc, render_panel* p)
{
    rview* v = &p->view;
    v->origin = sc->anchor;
    v->section_point = rs_closest_point(&sc->b, rv3_make(0, 0, 0), sc->anchor);
    rbox2 box = rbox2_empty();
    subject_bounds(sc, v, &box);
    double margin = 10 + 0.06 * fmin(p->body.w, p->body.h);
    fit_view(v, box, p->body, margin);

    /* The normal arrow has a fixed pixel length: grow the frame until its
     * tip fits too (a few rounds converge well enough; the body clips). */
    rv3 n;
    if (answer_normal(sc, &n)) {
        /* The arrow starts at the end of the penetration vector, if any. */
        rv3 from = sc->op == REQ_OVERLAP ? rv3_madd(rv3_of(sc->over.point), sc->over.depth, n)
                                         : rv3_madd(rv3_of(sc->hit.point), sc->hit.overlapping ? sc->hit.depth : 0, n);
        for (int i = 0; i < 3; i++) {
            rbox2 grown = box;
            double scale = v->scale;
            v->origin = sc->anchor;
            rbox2_add_world(&grown, v, rv3_madd(from, 1.15 * arrow_length(p->body) / scale, n));
            fit_view(v, grown, p->body, margin);
        }
    }

    p->has_inset = false;
    if (!sc->needs_inset) {
        return;
    }
    double side = 0.42 * fmin(p->body.w, p->body.h);
    rview iv = *v;
    iv.origin = sc->focus;
    iv.scale = (side - 8) / sc->focus_size;
    p->zoom = iv.scale / v->scale;
    if (p->zoom < 2.5) {
        return;
    }
    /* Put the inset in the body's corner farthest from the focus. */
    double fx, fy;
    rview_project(v, sc->focus, &fx, &fy);
    double cx = p->body.x + p->body.w / 2, cy = p->body.y + p->body.h / 2;
    double pad = 6;
    p->inset.w = p->inset.h = side;
    p->inset.x = fx > cx ? p->body.x + pad : p->body.x + p->body.w - side - pad;
    p->inset.y = fy > cy ? p->body.y + pad : p->body.y + p->body.h - side - pad;
    iv.ox = p->inset.x + side / 2;
    iv.oy = p->inset.y + side / 2;
    p->inset_view = iv;
    p->has_inset = true;
}

static void layout(render_scene* sc)
{
    double w = sc->width, h = sc->height;
    /* Text scales with the picture, but a narrow picture must not get
     * text too big for its panels' titles. */
    double fs = fmin(fmax(fmin(h / 36, w / 115), 7), 22);
    sc->font_size = fs;
    sc->caption = (render_rect){0, 0, w, 2 * 1.45 * fs + 0.9 * fs};
    sc->legend = (render_rect){0, h - 2.0 * fs, w, 2.0 * fs};
    double top = sc->caption.h, bottom = sc->legend.y;
    double title_h = 1.55 * fs;
    double gap = 4;

    rv3 rights[3] = {rv3_make(1, 0, 0), rv3_make(1, 0, 0), rv3_make(0, 1, 0)};
    rv3 ups[3] = {rv3_make(0, 1, 0), rv3_make(0, 0, 1), rv3_make(0, 0, 1)};
    static const char* titles[3] = {"top (x right, y up)", "front (x right, z up)", "side (y right, z up)"};
    for (int i = 0; i < RENDER_PANELS; i++) {
        render_panel* p = &sc->panels[i];
        double x0 = floor(i * w / RENDER_PANELS), x1 = floor((i + 1) * w / RENDER_PANELS);
        p->title_bar = (render_rect){x0 + gap, top, x1 - x0 - 2 * gap, title_h};
        p->body = (render_rect){x0 + gap, top + title_h, x1 - x0 - 2 * gap, fmax(bottom - top - title_h - gap, 1)};
        if (i < 3) {
            p->view.right = rights[i];
            p->view.up = ups[i];
            snprintf(p->title, sizeof p->title, "%s", titles[i]);
        } else {
            contact_basis(sc, &p->view.right, &p->view.up, p->title, sizeof p->title);
        }
        frame_panel(sc, p);
        if (p->has_inset) {
            size_t len = strlen(p->title);
            snprintf(p->title + len, sizeof p->title - len, ", inset x%.3g", p->zoom);
        }
    }
}

void render_plan(render_scene* sc)
{
    plan_framing(sc);
    layout(sc);
}

/* ---- drawing -------------------------------------------------------------- */

void render_draw_arrow(cairo_t* cr, double x0, double y0, double x1, double y1, double head)
{
    double dx = x1 - x0, dy = y1 - y0;
    double len = sqrt(dx * dx + dy * dy);
    if (!(len > 0)) {
        return;
    }
    dx /= len;
    dy /= len;
    head = fmin(head, 0.6 * len);
    double bx = x1 - head * dx, by = y1 - head * dy;
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, bx, by);
    cairo_stroke(cr);
    cairo_move_to(cr, x1, y1);
    cairo_line_to(cr, bx - 0.45 * head * dy, by + 0.45 * head * dx);
    cairo_line_to(cr, bx + 0.45 * head * dy, by - 0.45 * head * dx);
    cairo_close_path(cr);
    cairo_fill(cr);
}

/* A direction in 3-D as an arrow of pixel length len from world point p; a
 * direction nearly along the line of sight becomes the usual symbol: a dot
 * in a ring when it points at the viewer, a cross when it points away. */
static void draw_direction(cairo_t* cr, const rview* v, rv3 p, rv3 dir, double len)
{
    double x, y;
    rview_project(v, p, &x, &y);
    if (!rs_in_reach(v, x, y)) {
        return;
    }
    double du = rv3_dot(dir, v->right), dv = rv3_dot(dir, v->up);
    double in_plane = sqrt(du * du + dv * dv);
    cairo_set_line_width(cr, 2.5);
    if (in_plane >= 0.25) {
        render_draw_arrow(cr, x, y, x + len * du, y - len * dv, 11);
        return;
    }
    double r = 7;
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, r, 0, TAU);
    cairo_stroke(cr);
    if (rv3_dot(dir, rv3_cross(v->right, v->up)) > 0) {
        cairo_arc(cr, x, y, 2.2, 0, TAU);
        cairo_fill(cr);
    } else {
        double c = r * 0.7;
        cairo_move_to(cr, x - c, y - c);
        cairo_line_to(cr, x + c, y + c);
        cairo_move_to(cr, x - c, y + c);
        cairo_line_to(cr, x + c, y - c);
        cairo_stroke(cr);
    }
}

void render_draw_dot(cairo_t* cr, const rview* v, rv3 p, rgba fill, double r)
{
    double x, y;
    rview_project(v, p, &x, &y);
    if (!rs_in_reach(v, x, y)) {
        return;
    }
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, r, 0, TAU);
    set_rgba(cr, fill);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
}

/* A world-space length from a to b with ticks across both ends. */
static void draw_dimension(cairo_t* cr, const rview* v, rv3 a, rv3 b)
{
    double x0, y0, x1, y1;
    rview_project(v, a, &x0, &y0);
    rview_project(v, b, &x1, &y1);
    double dx = x1 - x0, dy = y1 - y0;
    double len = sqrt(dx * dx + dy * dy);
    double cx0 = x0, cy0 = y0, cx1 = x1, cy1 = y1;
    if (!rs_clip_segment(v, &cx0, &cy0, &cx1, &cy1)) {
        return;
    }
    cairo_set_line_width(cr, 3);
    cairo_move_to(cr, cx0, cy0);
    cairo_line_to(cr, cx1, cy1);
    cairo_stroke(cr);
    if (len > 0) {
        double tx = -dy / len * 6, ty = dx / len * 6;
        cairo_set_line_width(cr, 2);
        if (rs_in_reach(v, x0, y0)) {
            cairo_move_to(cr, x0 - tx, y0 - ty);
            cairo_line_to(cr, x0 + tx, y0 + ty);
        }
        if (rs_in_reach(v, x1, y1)) {
            cairo_move_to(cr, x1 - tx, y1 - ty);
            cairo_line_to(cr, x1 + tx, y1 + ty);
        }
        cairo_stroke(cr);
    }
}

void render_stroke_dashed(cairo_t* cr, double on, double off)
{
    double dash[2] = {on, off};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

/* A contact point p with its normal n; with a penetration depth, the
 * translation n * depth that separates the shapes, and the normal's arrow
 * continues from its end (the point that then touches B's boundary). */
static void draw_contact(cairo_t* cr, const rview* v, rv3 p, rv3 n, double depth, double arrow_px)
{
    rv3 tip = rv3_madd(p, depth, n);
    set_rgba(cr, COL_NORMAL);
    draw_direction(cr, v, tip, n, arrow_px);
    if (depth > 0) {
        set_rgba(cr, COL_PENETRATION);
        draw_dimension(cr, v, p, tip);
    }
    render_draw_dot(cr, v, p, COL_CONTACT, 4.5);
}

/* Everything a view shows, in the order that keeps the important marks on
 * top: volumes, shapes, outlines, path, points, arrows. */
static void draw_subject(const render_scene* sc, cairo_t* cr, const rview* v, double arrow_px)
{
    rv3 zero = rv3_make(0, 0, 0);
    const bool hit = render_is_hit(sc);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);

    /* A scene's other shapes lie under the query's. */
    if (sc->over_scene) {
        render_scene_draw_shapes(sc, cr, v);
    }
    /* A shaded B (a mesh) hides what lies under it: the volume A sweeps
     * then goes over it. */
    const bool b_shaded = sc->has_b && rs_draw_shaded(cr, v, &sc->b, &B_SHADING);
    if (sc->moves) {
        rs_path_swept(cr, v, &sc->a, sc->d);
        set_rgba(cr, COL_SWEPT);
        cairo_fill(cr);
    }
    if (sc->has_b && !b_shaded) {
        rs_path_silhouette(cr, v, &sc->b, zero);
        set_rgba(cr, sc->op == REQ_SWEEP_INSIDE ? COL_B_CONTAINER_FILL : COL_B_FILL);
        cairo_fill(cr);
    }
    /* A mesh's triangle that was hit, under A. */
    if (hit && rs_path_triangle(cr, v, &sc->b, sc->hit.triangle)) {
        set_rgba(cr, COL_TRIANGLE);
        cairo_fill(cr);
    }

    /* A where the answer puts it: at the impact, or where it stands. */
    bool a_solid = !sc->moves || hit;
    rv3 a_at = hit ? sc->impact : zero;
    if (a_solid) {
        rs_path_silhouette(cr, v, &sc->a, a_at);
        set_rgba(cr, COL_A_SOLID);
        cairo_fill(cr);
    }

    if (sc->has_b) {
        rs_path_outline(cr, v, &sc->b, zero);
        set_rgba(cr, COL_B_EDGE);
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
    }
    if (sc->has_b && sc->skin > 0 && rs_is_union(&sc->b)) {
        /* Twice the width: only the outer half of the stroke is left. */
        set_rgba(cr, COL_B_EDGE);
        cairo_set_line_width(cr, 2);
        const double dash[2] = {3, 3};
        cairo_set_dash(cr, dash, 2, 0);
        rs_stroke_union_outline(cr, v, &sc->b, sc->skin);
        cairo_set_dash(cr, NULL, 0, 0);
    } else if (sc->has_b && sc->skin > 0) {
        rs_path_inflated(cr, v, &sc->b, sc->skin);
        set_rgba(cr, COL_B_EDGE);
        cairo_set_line_width(cr, 1);
        render_stroke_dashed(cr, 3, 3);
    }
    if (hit && rs_path_feature(cr, v, &sc->b, sc->hit.feature, sc->hit.triangle)) {
        set_rgba(cr, COL_FEATURE);
        cairo_set_line_width(cr, 4);
        cairo_stroke(cr);
    }

    if (sc->moves) {
        rs_path_outline(cr, v, &sc->a, zero);
        set_rgba(cr, COL_A_START);
        cairo_set_line_width(cr, 1.5);
        render_stroke_dashed(cr, 5, 4);
        if (!hit) {
            /* A miss: where A ends up, dotted. */
            rs_path_outline(cr, v, &sc->a, sc->d);
            cairo_set_line_width(cr, 1.5);
            render_stroke_dashed(cr, 1.5, 3.5);
        }
    }
    if (a_solid) {
        rs_path_outline(cr, v, &sc->a, a_at);
        set_rgba(cr, COL_A_EDGE);
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
    }

    if (sc->moves) {
        rv3 c = rs_center(&sc->a);
        double x0, y0, x1, y1;
        rview_project(v, c, &x0, &y0);
        rview_project(v, rv3_add(c, sc->d), &x1, &y1);
        set_rgba(cr, COL_PATH);
        cairo_set_line_width(cr, 1.3);
        double dash[2] = {7, 4};
        cairo_set_dash(cr, dash, 2, 0);
        double dx = x1 - x0, dy = y1 - y0;
        double len = sqrt(dx * dx + dy * dy);
        if (len > 1) {
            /* The head is solid; only the shaft is dashed. */
            double head = fmin(10, 0.6 * len);
            double bx = x1 - dx / len * head, by = y1 - dy / len * head;
            double sx0 = x0, sy0 = y0, sx1 = bx, sy1 = by;
            if (rs_clip_segment(v, &sx0, &sy0, &sx1, &sy1)) {
                cairo_move_to(cr, sx0, sy0);
                cairo_line_to(cr, sx1, sy1);
                cairo_stroke(cr);
            }
            cairo_set_dash(cr, NULL, 0, 0);
            if (rs_in_reach(v, x1, y1)) {
                render_draw_arrow(cr, bx, by, x1, y1, head);
            }
        }
        cairo_set_dash(cr, NULL, 0, 0);
    }

    if (render_has_distance(sc)) {
        rv3 pa = rv3_of(sc->dist.point_a), pb = rv3_of(sc->dist.point_b);
        double x0, y0, x1, y1;
        rview_project(v, pa, &x0, &y0);
        rview_project(v, pb, &x1, &y1);
        if (rs_clip_segment(v, &x0, &y0, &x1, &y1)) {
            set_rgba(cr, COL_DISTANCE);
            cairo_set_line_width(cr, 2);
            cairo_move_to(cr, x0, y0);
            cairo_line_to(cr, x1, y1);
            render_stroke_dashed(cr, 6, 3);
        }
        render_draw_dot(cr, v, pb, COL_B_EDGE, 4.5);
        render_draw_dot(cr, v, pa, COL_A_START, 4.5);
    }

    if (sc->over_scene) {
        render_scene_draw_marks(sc, cr, v);
    }
    if (sc->op == REQ_OVERLAP && render_answered(sc) && sc->over.overlapping) {
        draw_contact(cr, v, rv3_of(sc->over.point), rv3_of(sc->over.normal), sc->over.depth, arrow_px);
    }
    if (hit) {
        draw_contact(cr, v, rv3_of(sc->hit.point), rv3_of(sc->hit.normal), sc->hit.overlapping ? sc->hit.depth : 0,
                     arrow_px);
    }
}

static void rect_path(cairo_t* cr, render_rect r) { cairo_rectangle(cr, r.x, r.y, r.w, r.h); }

void render_select_font(cairo_t* cr, double size, bool bold)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

/* Shows text at (x, baseline y), shrunk to fit max_w. */
static void show_fitted(cairo_t* cr, const char* text, double x, double y, double size, double max_w, bool bold)
{
    /* Hinted advances do not scale linearly with the size: re-measure. */
    for (int i = 0; i < 4; i++) {
        render_select_font(cr, size, bold);
        cairo_text_extents_t ext;
        cairo_text_extents(cr, text, &ext);
        if (!(ext.x_advance > max_w)) {
            break;
        }
        size *= 0.98 * max_w / ext.x_advance;
    }
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, text);
}

static void draw_panel(const render_scene* sc, cairo_t* cr, const render_panel* p)
{
    set_rgba(cr, COL_TITLE_BAR);
    rect_path(cr, p->title_bar);
    cairo_fill(cr);
    set_rgba(cr, COL_TEXT);
    show_fitted(cr, p->title, p->title_bar.x + 6, p->title_bar.y + p->title_bar.h * 0.7, sc->font_size * 0.95,
                p->title_bar.w - 12, false);

    cairo_save(cr);
    rect_path(cr, p->body);
    cairo_clip(cr);
    draw_subject(sc, cr, &p->view, arrow_length(p->body));
    if (p->has_inset) {
        /* Mark the zoomed region, then draw the inset over a plain ground. */
        double fx, fy;
        rview_project(&p->view, sc->focus, &fx, &fy);
        double half = sc->focus_size * p->view.scale / 2;
        set_rgba(cr, COL_INSET_FRAME);
        cairo_set_line_width(cr, 1);
        cairo_rectangle(cr, fx - half, fy - half, 2 * half, 2 * half);
        cairo_stroke(cr);

        cairo_save(cr);
        rect_path(cr, p->inset);
        cairo_clip(cr);
        set_rgba(cr, COL_BACKGROUND);
        cairo_paint(cr);
        draw_subject(sc, cr, &p->inset_view, arrow_length(p->inset));
        cairo_restore(cr);
        rect_path(cr, p->inset);
        set_rgba(cr, COL_INSET_FRAME);
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
    }
    cairo_restore(cr);

    rect_path(cr, p->body);
    set_rgba(cr, COL_PANEL_EDGE);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
}

static void draw_caption(const render_scene* sc, cairo_t* cr)
{
    double fs = sc->font_size;
    bool hit = sc->moves
                   ? render_is_hit(sc)
                   : (sc->op == REQ_OVERLAP ? render_answered(sc) && sc->over.overlapping : render_has_distance(sc));
    /* A coloured bar at the left says hit or miss at a glance. */
    cairo_rectangle(cr, 0, 0, 6, sc->caption.h);
    set_rgba(cr, hit ? COL_HIT : COL_MISS);
    cairo_fill(cr);
    set_rgba(cr, COL_TEXT);
    show_fitted(cr, sc->caption_line[0], 14, 0.4 * fs + 1.1 * fs, fs, sc->width - 24, true);
    show_fitted(cr, sc->caption_line[1], 14, 0.4 * fs + 2.55 * fs, fs * 0.9, sc->width - 24, false);
}

void render_scene_draw(const render_scene* sc, cairo_t* cr)
{
    cairo_save(cr);
    set_rgba(cr, COL_BACKGROUND);
    cairo_paint(cr);
    draw_caption(sc, cr);
    for (int i = 0; i < RENDER_PANELS; i++) {
        draw_panel(sc, cr, &sc->panels[i]);
    }
    render_draw_legend(sc, cr);
    cairo_restore(cr);
}
