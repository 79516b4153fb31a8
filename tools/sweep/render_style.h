/* `sweep render`: the palette and the drawing helpers shared by
 * render_draw.c (the views), render_legend.c and render_scene.c. One place
 * for the palette so the legend always matches the drawing. Only the
 * renderer's files include it. */
#ifndef SWEEP_TOOL_RENDER_STYLE_H
#define SWEEP_TOOL_RENDER_STYLE_H

#include "render.h"

static const double TAU = 6.283185307179586;

typedef struct rgba {
    double r, g, b, a;
} rgba;

static const rgba COL_BACKGROUND = {1, 1, 1, 1};
static const rgba COL_PANEL_EDGE = {0.78, 0.78, 0.8, 1};
static const rgba COL_TITLE_BAR = {0.94, 0.94, 0.96, 1};
static const rgba COL_TEXT = {0.1, 0.1, 0.12, 1};
static const rgba COL_B_FILL = {0.55, 0.56, 0.6, 0.35};
static const rgba COL_B_CONTAINER_FILL = {0.55, 0.56, 0.6, 0.12};
static const rgba COL_B_EDGE = {0.2, 0.2, 0.25, 1};
static const rgba COL_SWEPT = {0.35, 0.6, 1.0, 0.22};
static const rgba COL_A_START = {0.1, 0.35, 0.85, 1};
static const rgba COL_A_SOLID = {0.12, 0.42, 0.95, 0.75};
static const rgba COL_A_EDGE = {0.02, 0.15, 0.5, 1};
static const rgba COL_PATH = {0.3, 0.3, 0.32, 1};
static const rgba COL_FEATURE = {1.0, 0.62, 0.0, 0.85};
static const rgba COL_TRIANGLE = {1.0, 0.7, 0.2, 0.55};
/* A mesh B is shaded (render_mesh.c) from these greys, which straddle the
 * flat B_FILL seen on white. */
static const rs_shading B_SHADING = {{0.9, 0.91, 0.93}, {0.5, 0.52, 0.57}, {0.42, 0.43, 0.48}, 0.8};
static const rgba COL_CONTACT = {0.88, 0.05, 0.1, 1};
static const rgba COL_NORMAL = {0.88, 0.05, 0.1, 1};
static const rgba COL_PENETRATION = {0.65, 0.05, 0.7, 1};
static const rgba COL_DISTANCE = {0.05, 0.55, 0.2, 1};
static const rgba COL_INSET_FRAME = {0.45, 0.45, 0.5, 1};
static const rgba COL_HIT = {0.75, 0.1, 0.1, 1};
static const rgba COL_MISS = {0.35, 0.35, 0.4, 1};
/* A scene's other shapes: thin, under everything; those the answer also
 * names (other hits, other overlaps) outlined in the feature's orange. */
static const rgba COL_SCENE_FILL = {0.55, 0.56, 0.6, 0.1};
static const rgba COL_SCENE_EDGE = {0.35, 0.36, 0.42, 0.8};
static const rgba COL_MARK_EDGE = {1.0, 0.55, 0.0, 0.95};
static const rgba COL_MARK_POINT = {1.0, 0.45, 0.0, 1};

static inline void set_rgba(cairo_t* cr, rgba c) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a); }

/* An arrow from (x0, y0) to (x1, y1) with a solid head (render_draw.c). */
void render_draw_arrow(cairo_t* cr, double x0, double y0, double x1, double y1, double head);
/* Strokes the current path dashed, then turns dashes off. */
void render_stroke_dashed(cairo_t* cr, double on, double off);
void render_select_font(cairo_t* cr, double size, bool bold);
/* A dot of radius r pixels at world point p, ringed in white. */
void render_draw_dot(cairo_t* cr, const rview* v, rv3 p, rgba fill, double r);

#endif
