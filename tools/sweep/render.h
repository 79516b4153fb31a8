/* `sweep render`: a picture of one request of the `sweep query` protocol.
 *
 * render_scene_build answers the request with the library's dispatcher (or
 * over a scene, with sw_scene_*) and lays out the picture: a caption strip on top, four views side by side
 * (top, front, side, and a "contact view" in the plane of the displacement
 * and the normal), and a legend strip at the bottom. Text is drawn only in
 * the caption, the legend and the panels' title bars, never in a panel's
 * body, so tests can compare bodies pixel by pixel whatever the fonts. */
#ifndef SWEEP_TOOL_RENDER_H
#define SWEEP_TOOL_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include <cairo.h>

#include "render_shapes.h"
#include "request.h"
#include "scenes.h"

enum {
    RENDER_DEFAULT_WIDTH = 1600,
    RENDER_DEFAULT_HEIGHT = 500,
    RENDER_MIN_WIDTH = 320,
    RENDER_MIN_HEIGHT = 120,
    RENDER_MAX_SIDE = 8192,
    RENDER_PANELS = 4
};

/* An inset is added when the sizes in the query (each shape's extent, the
 * displacement's length) differ by more than this factor. */
#define RENDER_INSET_RATIO 100.0

typedef struct render_rect {
    double x, y, w, h;
} render_rect;

typedef struct render_panel {
    char title[160];
    render_rect title_bar; /* the panel's label (text) */
    render_rect body;      /* the drawing; no text */
    rview view;
    bool has_inset; /* a zoomed copy of the drawing around the focus */
    render_rect inset;
    rview inset_view;
    double zoom; /* inset scale / view scale */
} render_panel;

typedef enum render_status {
    RENDER_ERROR = -1,     /* nothing drawn; see the message */
    RENDER_OK = 0,         /* the picture shows the library's answer */
    RENDER_UNANSWERED = 1, /* the library has no method for the pair: shapes only */
} render_status;

typedef struct render_scene {
    int width, height;
    req_op op;
    sw_status status; /* the library's status for the request */

    /* The query as shapes: A moves by d over the whole query (a ray cast is
     * a point A at the origin moving by dir * max); B is static. */
    sw_shape a, b;
    bool moves;
    rv3 d;
    double skin; /* a sweep's skin: A stops within skin of B */

    /* The answer. */
    sw_hit hit;             /* sweep, raycast, sweep_inside */
    rv3 impact;             /* A's translation at the time of impact */
    sw_overlap_result over; /* overlap */
    sw_distance_result dist;

    /* Framing. */
    rv3 anchor;    /* the point that matters most: contact, closest approach */
    bool b_window; /* B is so much bigger that only its part near A is framed */
    double b_window_size;
    bool needs_inset;
    rv3 focus;          /* the inset's centre */
    double focus_size;  /* the inset's side, in world units */
    double scale_ratio; /* largest / smallest non-zero size in the query */

    render_panel panels[RENDER_PANELS];
    render_rect caption, legend;
    double font_size;
    char caption_line[2][512];

    /* A query over a scene (render_answer.c, render_scene.c). b is the
     * shape the answer names first: the first hit, the overlapping shape of
     * lowest key, the closest shape; without one (a miss, nothing
     * overlapping or within max), has_b is false and b is a point at A's
     * start that only frames the views. */
    bool over_scene;
    bool has_b; /* also true for every pair */
    int64_t b_key;
    int shape_count; /* every shape of the scene, by increasing key */
    sw_shape* shapes;
    int64_t* keys;
    bool* marked; /* named by the answer: a hit (all), an overlap */
    scene_result result;
} render_scene;

static inline bool render_answered(const render_scene* sc) { return sc->status == SW_OK; }
static inline bool render_is_hit(const render_scene* sc) { return sc->moves && render_answered(sc) && sc->hit.hit; }
/* Whether a distance answer is there to draw (not a scene's "nothing
 * within max"). */
static inline bool render_has_distance(const render_scene* sc)
{
    return sc->op == REQ_DISTANCE && render_answered(sc) && sc->has_b;
}

/* Answers req and lays out a width x height picture of it (0 for either
 * means the default). Returns RENDER_OK, RENDER_UNANSWERED (the library
 * does not support the pair; the picture shows the shapes only), or
 * RENDER_ERROR with a message in err (invalid input, bad size, a scene
 * request, an unknown scene). A named scene is looked up in `scenes`
 * (render_scene_build: none), which must outlive the picture, as must
 * req. Release the picture with render_scene_free. */
render_status render_scene_build_in(render_scene* sc, const request* req, scene_store* scenes, int width, int height,
                                    char* err, size_t err_size);
render_status render_scene_build(render_scene* sc, const request* req, int width, int height, char* err,
                                 size_t err_size);
/* Frees what a picture of a query over a scene holds (not sc itself). */
void render_scene_free(render_scene* sc);

/* render_draw.c's framing for render_answer.c: where the views look, then
 * the panels. */
void render_plan(render_scene* sc);
void render_draw_legend(const render_scene* sc, cairo_t* cr);

/* A scene's other shapes (render_scene.c): their bounds the views must
 * frame, their drawing under the query's, and the marks of the other hits
 * or overlaps over it. */
void render_scene_bounds(const render_scene* sc, const rview* v, rbox2* box);
void render_scene_draw_shapes(const render_scene* sc, cairo_t* cr, const rview* v);
void render_scene_draw_marks(const render_scene* sc, cairo_t* cr, const rview* v);

/* Draws the picture onto cr, which covers sc->width x sc->height pixels. */
void render_scene_draw(const render_scene* sc, cairo_t* cr);

/* Writes the picture to path, as SVG when path ends in ".svg" and PNG when
 * it ends in ".png" (either case). Returns 0, or -1 with a message in err. */
int render_scene_write(const render_scene* sc, const char* path, char* err, size_t err_size);

/* render_scene_build_in then render_scene_write; returns the build's
 * status (RENDER_ERROR when either fails). */
render_status render_request_in(const request* req, scene_store* scenes, const char* path, int width, int height,
                                char* err, size_t err_size);
render_status render_request(const request* req, const char* path, int width, int height, char* err, size_t err_size);

/* Whether path ends in ".png" or ".svg" (either case). */
bool render_path_is_png(const char* path);
bool render_path_is_svg(const char* path);

#endif
