/* `sweep render`: a query over a scene. The shape the answer names first is
 * B, drawn by render_draw.c as for a pair; here are the scene's other
 * shapes, thin and under everything, and the other shapes the answer names
 * (the other hits of "all", the other overlaps), filled and outlined in
 * orange with their contact points. */
#include <math.h>

#include "render_style.h"

static bool is_b(const render_scene* sc, int i) { return sc->has_b && sc->keys[i] == sc->b_key; }

/* How much bigger than the query a scene's shapes may be and still be
 * framed whole: a query then stays at least a twentieth of the view. */
#define SCENE_FRAME_RATIO 20.0

/* Framed: the whole scene when it is not much bigger than the query (A and
 * its path, B; or when the query has no size, a point); else the shapes
 * the answer names and those near the query, when not much bigger than
 * it. The rest is drawn where it falls. */
void render_scene_bounds(const render_scene* sc, const rview* v, rbox2* box)
{
    const rv3 zero = rv3_make(0, 0, 0);
    double ref = rs_size(&sc->a) + (sc->moves ? rv3_length(sc->d) : 0);
    if (!box->empty) {
        ref = fmax(ref, fmax(box->max_u - box->min_u, box->max_v - box->min_v));
    }
    rbox2 all = rbox2_empty();
    for (int i = 0; i < sc->shape_count; i++) {
        rs_add_bounds(&all, v, &sc->shapes[i], zero);
    }
    if (!all.empty && (!(ref > 0) || fmax(all.max_u - all.min_u, all.max_v - all.min_v) <= SCENE_FRAME_RATIO * ref)) {
        rbox2_add_box(box, &all);
        return;
    }
    /* Near: within ref of what is framed so far. */
    rbox2 near = *box;
    near.min_u -= ref;
    near.min_v -= ref;
    near.max_u += ref;
    near.max_v += ref;
    for (int i = 0; i < sc->shape_count; i++) {
        if (is_b(sc, i) || rs_size(&sc->shapes[i]) > SCENE_FRAME_RATIO * ref) {
            continue;
        }
        rbox2 b = rbox2_empty();
        rs_add_bounds(&b, v, &sc->shapes[i], zero);
        const bool is_near = !box->empty && !b.empty && b.max_u >= near.min_u && b.min_u <= near.max_u &&
                             b.max_v >= near.min_v && b.min_v <= near.max_v;
        if (sc->marked[i] || is_near) {
            rbox2_add_box(box, &b);
        }
    }
}

/* The triangle a hit of "all" names on a mesh other than B, or -1. */
static int hit_triangle(const render_scene* sc, int64_t key)
{
    if (sc->op != REQ_SWEEP && sc->op != REQ_RAYCAST) {
        return -1;
    }
    for (int i = 0; i < sc->result.count; i++) {
        if (sc->result.hits[i].key == key) {
            return sc->result.hits[i].hit.triangle;
        }
    }
    return -1;
}

void render_scene_draw_shapes(const render_scene* sc, cairo_t* cr, const rview* v)
{
    const rv3 zero = rv3_make(0, 0, 0);
    for (int pass = 0; pass < 2; pass++) {
        /* The shapes the answer names go over the others. */
        for (int i = 0; i < sc->shape_count; i++) {
            if (is_b(sc, i) || sc->marked[i] != (pass == 1)) {
                continue;
            }
            const sw_shape* s = &sc->shapes[i];
            rs_path_silhouette(cr, v, s, zero);
            set_rgba(cr, pass == 1 ? COL_B_FILL : COL_SCENE_FILL);
            cairo_fill(cr);
            if (pass == 1 && rs_path_triangle(cr, v, s, hit_triangle(sc, sc->keys[i]))) {
                set_rgba(cr, COL_TRIANGLE);
                cairo_fill(cr);
            }
            /* A mesh's outline is its border, contours and creases, which
             * also shows one seen edge-on. */
            rs_path_outline(cr, v, s, zero);
            set_rgba(cr, pass == 1 ? COL_MARK_EDGE : COL_SCENE_EDGE);
            cairo_set_line_width(cr, pass == 1 ? 2 : 0.8);
            cairo_stroke(cr);
        }
    }
}

void render_scene_draw_marks(const render_scene* sc, cairo_t* cr, const rview* v)
{
    const scene_result* r = &sc->result;
    /* The first hit or overlap is B's, drawn in full by render_draw.c. */
    for (int i = 1; i < r->count && sc->op != REQ_DISTANCE; i++) {
        const rv3 p = rv3_of(sc->op == REQ_OVERLAP ? r->overlaps[i].overlap.point : r->hits[i].hit.point);
        render_draw_dot(cr, v, p, COL_MARK_POINT, 3.5);
    }
}
