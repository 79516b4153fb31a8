/* `sweep render`: the legend strip at the bottom of the picture, one swatch
 * per mark the picture shows. */
#include <math.h>

#include "render_style.h"

typedef enum swatch {
    SWATCH_B,
    SWATCH_SKIN,
    SWATCH_CONTAINER,
    SWATCH_A_START,
    SWATCH_SWEPT,
    SWATCH_A_SOLID,
    SWATCH_A_END,
    SWATCH_PATH,
    SWATCH_CONTACT,
    SWATCH_NORMAL,
    SWATCH_PEN,
    SWATCH_DIST,
    SWATCH_FEAT,
    SWATCH_TRIANGLE,
    SWATCH_SCENE,
    SWATCH_MARK
} swatch;

static void draw_swatch(cairo_t* cr, swatch s, double x, double y, double w, double h)
{
    double cy = y + h / 2;
    cairo_set_dash(cr, NULL, 0, 0);
    switch (s) {
    case SWATCH_B:
    case SWATCH_CONTAINER:
        cairo_rectangle(cr, x, y, w, h);
        set_rgba(cr, s == SWATCH_B ? COL_B_FILL : COL_B_CONTAINER_FILL);
        cairo_fill_preserve(cr);
        set_rgba(cr, COL_B_EDGE);
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
        return;
    case SWATCH_SKIN:
        cairo_rectangle(cr, x, y, w, h);
        set_rgba(cr, COL_B_EDGE);
        cairo_set_line_width(cr, 1);
        render_stroke_dashed(cr, 3, 3);
        return;
    case SWATCH_A_START:
    case SWATCH_A_END:
        cairo_rectangle(cr, x, y, w, h);
        set_rgba(cr, COL_A_START);
        cairo_set_line_width(cr, 1.5);
        if (s == SWATCH_A_START) {
            render_stroke_dashed(cr, 5, 4);
        } else {
            render_stroke_dashed(cr, 1.5, 3.5);
        }
        return;
    case SWATCH_SWEPT:
        cairo_rectangle(cr, x, y, w, h);
        set_rgba(cr, COL_SWEPT);
        cairo_fill(cr);
        return;
    case SWATCH_A_SOLID:
        cairo_rectangle(cr, x, y, w, h);
        set_rgba(cr, COL_A_SOLID);
        cairo_fill_preserve(cr);
        set_rgba(cr, COL_A_EDGE);
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
        return;
    case SWATCH_PATH:
        set_rgba(cr, COL_PATH);
        cairo_set_line_width(cr, 1.3);
        cairo_move_to(cr, x, cy);
        cairo_line_to(cr, x + w - 8, cy);
        render_stroke_dashed(cr, 7, 4);
        render_draw_arrow(cr, x + w - 8, cy, x + w, cy, 8);
        return;
    case SWATCH_CONTACT:
        cairo_new_sub_path(cr);
        cairo_arc(cr, x + w / 2, cy, 4.5, 0, TAU);
        set_rgba(cr, COL_CONTACT);
        cairo_fill(cr);
        return;
    case SWATCH_NORMAL:
        set_rgba(cr, COL_NORMAL);
        cairo_set_line_width(cr, 2.5);
        render_draw_arrow(cr, x, cy, x + w, cy, 10);
        return;
    case SWATCH_PEN:
        set_rgba(cr, COL_PENETRATION);
        cairo_set_line_width(cr, 3);
        cairo_move_to(cr, x, cy);
        cairo_line_to(cr, x + w, cy);
        cairo_move_to(cr, x, cy - 5);
        cairo_line_to(cr, x, cy + 5);
        cairo_move_to(cr, x + w, cy - 5);
        cairo_line_to(cr, x + w, cy + 5);
        cairo_stroke(cr);
        return;
    case SWATCH_DIST:
        set_rgba(cr, COL_DISTANCE);
        cairo_set_line_width(cr, 2);
        cairo_move_to(cr, x, cy);
        cairo_line_to(cr, x + w, cy);
        render_stroke_dashed(cr, 6, 3);
        return;
    case SWATCH_FEAT:
        set_rgba(cr, COL_FEATURE);
        cairo_set_line_width(cr, 4);
        cairo_move_to(cr, x, cy);
        cairo_line_to(cr, x + w, cy);
        cairo_stroke(cr);
        return;
    case SWATCH_TRIANGLE:
        cairo_rectangle(cr, x, y, w, h);
        set_rgba(cr, COL_TRIANGLE);
        cairo_fill(cr);
        return;
    case SWATCH_SCENE:
    case SWATCH_MARK:
        cairo_rectangle(cr, x, y, w, h);
        set_rgba(cr, s == SWATCH_SCENE ? COL_SCENE_FILL : COL_B_FILL);
        cairo_fill_preserve(cr);
        set_rgba(cr, s == SWATCH_SCENE ? COL_SCENE_EDGE : COL_MARK_EDGE);
        cairo_set_line_width(cr, s == SWATCH_SCENE ? 0.8 : 2);
        cairo_stroke(cr);
        return;
    }
}

void render_draw_legend(const render_scene* sc, cairo_t* cr)
{
    swatch items[16];
    const char* labels[16];
    int n = 0;
#define ITEM(s, text) (items[n] = (s), labels[n++] = (text))
    const bool hit = render_is_hit(sc);
    /* Over a scene, B is the shape the answer names first, if any. */
    const char* b_label = "B";
    if (sc->over_scene) {
        b_label = sc->moves ? "B: shape hit first" : (sc->op == REQ_OVERLAP ? "B: overlapping" : "B: closest shape");
    }
    if (sc->over_scene) {
        int marked = 0;
        for (int i = 0; i < sc->shape_count; i++) {
            marked += sc->marked[i];
        }
        ITEM(SWATCH_SCENE, "scene");
        if (marked > 1) {
            ITEM(SWATCH_MARK, sc->moves ? "other hits" : "other overlaps");
        }
    }
    if (sc->moves) {
        if (sc->has_b) {
            ITEM(sc->op == REQ_SWEEP_INSIDE ? SWATCH_CONTAINER : SWATCH_B,
                 sc->op == REQ_SWEEP_INSIDE ? "B (container)" : b_label);
        }
        if (sc->has_b && sc->skin > 0) {
            ITEM(SWATCH_SKIN, "B + skin");
        }
        ITEM(SWATCH_A_START, sc->op == REQ_RAYCAST ? "ray origin" : "A at start");
        ITEM(SWATCH_SWEPT, "volume A sweeps");
        if (hit) {
            ITEM(SWATCH_A_SOLID, "A at impact");
        } else {
            ITEM(SWATCH_A_END, "A at t = 1");
        }
        ITEM(SWATCH_PATH, sc->op == REQ_RAYCAST ? "ray (dir * max)" : "path d");
        if (hit) {
            ITEM(SWATCH_CONTACT, "contact point");
            ITEM(SWATCH_NORMAL, "normal (B to A)");
            if (sc->b.type == SW_SHAPE_MESH) {
                ITEM(SWATCH_TRIANGLE, "triangle hit");
            }
            if (sc->hit.feature.kind != SW_FEATURE_NONE) {
                ITEM(SWATCH_FEAT, "feature of B");
            }
            if (sc->hit.overlapping && sc->hit.depth > 0) {
                ITEM(SWATCH_PEN, "normal * depth");
            }
        }
    } else {
        if (sc->has_b) {
            ITEM(SWATCH_B, b_label);
        }
        ITEM(SWATCH_A_SOLID, "A");
        if (sc->op == REQ_OVERLAP && render_answered(sc) && sc->over.overlapping) {
            ITEM(SWATCH_CONTACT, "deepest point of A");
            ITEM(SWATCH_NORMAL, "normal (B to A)");
            ITEM(SWATCH_PEN, "penetration (normal * depth)");
        }
        if (render_has_distance(sc)) {
            ITEM(SWATCH_DIST, "closest points (A blue, B grey)");
        }
    }
#undef ITEM

    double fs = sc->font_size * 0.9;
    render_select_font(cr, fs, false);
    double sw = 2.2 * fs, gap = 0.5 * fs, spacing = 1.4 * fs;
    double total = 0;
    for (int i = 0; i < n; i++) {
        cairo_text_extents_t ext;
        cairo_text_extents(cr, labels[i], &ext);
        total += sw + gap + ext.x_advance + (i + 1 < n ? spacing : 0);
    }
    /* Shrink everything to fit a narrow picture (with room for hinting,
     * which makes small text relatively wider). */
    double k = total > sc->legend.w - 16 ? 0.93 * (sc->legend.w - 16) / total : 1;
    fs *= k;
    sw *= k;
    gap *= k;
    spacing *= k;
    render_select_font(cr, fs, false);
    double x = 8, y = sc->legend.y + (sc->legend.h - 0.9 * fs) / 2;
    for (int i = 0; i < n; i++) {
        draw_swatch(cr, items[i], x, y, sw, 0.9 * fs);
        x += sw + gap;
        set_rgba(cr, COL_TEXT);
        cairo_move_to(cr, x, y + 0.8 * fs);
        cairo_show_text(cr, labels[i]);
        cairo_text_extents_t ext;
        cairo_text_extents(cr, labels[i], &ext);
        x += ext.x_advance + spacing;
    }
}
