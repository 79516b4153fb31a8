/* `sweep render`: orthographic views and the drawing of each shape type.
 *
 * Every shape-type-specific piece of the renderer lives in render_shapes.c,
 * so a new shape (plane, triangle, polygon, hull, mesh) adds one case to each
 * switch there and nothing elsewhere; a mesh's cases call render_mesh.c. Geometry is done in double whatever the
 * library's sw_real, so a tiny shape far from the origin still projects to
 * the right pixel. */
#ifndef SWEEP_TOOL_RENDER_SHAPES_H
#define SWEEP_TOOL_RENDER_SHAPES_H

#include <stdbool.h>
#include <stddef.h>

#include <cairo.h>

#include "sweep/sweep.h"

typedef struct rv3 {
    double x, y, z;
} rv3;

static inline rv3 rv3_make(double x, double y, double z)
{
    rv3 v = {x, y, z};
    return v;
}
static inline rv3 rv3_of(sw_vec3 v) { return rv3_make(v.x, v.y, v.z); }
static inline rv3 rv3_add(rv3 a, rv3 b) { return rv3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline rv3 rv3_sub(rv3 a, rv3 b) { return rv3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline rv3 rv3_scale(rv3 a, double s) { return rv3_make(a.x * s, a.y * s, a.z * s); }
/* a + s * b */
static inline rv3 rv3_madd(rv3 a, double s, rv3 b) { return rv3_make(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline double rv3_dot(rv3 a, rv3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline rv3 rv3_cross(rv3 a, rv3 b)
{
    return rv3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
double rv3_length(rv3 a);
/* Normalises *v and returns its former length; a zero vector is left as is
 * and 0 returned. */
double rv3_normalize(rv3* v);

/* An orthographic view: world point p maps to the pixel
 * (ox + dot(p - origin, right) * scale, oy - dot(p - origin, up) * scale).
 * right and up are unit and orthogonal; right x up points at the viewer.
 * An unbounded shape (a plane) is drawn as its section by the view plane
 * at the depth of section_point. */
typedef struct rview {
    rv3 right, up, origin;
    double ox, oy, scale;
    rv3 section_point;
} rview;

static inline void rview_project(const rview* v, rv3 p, double* x, double* y)
{
    rv3 q = rv3_sub(p, v->origin);
    *x = v->ox + rv3_dot(q, v->right) * v->scale;
    *y = v->oy - rv3_dot(q, v->up) * v->scale;
}

/* Far-off geometry is clipped to the square of this half side (pixels)
 * around the view's origin pixel: beyond any picture, and well within
 * cairo's fixed-point range (about 8e6 pixels). */
#define RS_REACH_PX 50000.0

/* Whether pixel (x, y) lies within the view's reach. */
bool rs_in_reach(const rview* v, double x, double y);

/* Clips the pixel segment to the view's reach; false when nothing is left. */
bool rs_clip_segment(const rview* v, double* x0, double* y0, double* x1, double* y1);

/* 2-D bounds in view coordinates (dot with right, dot with up). */
typedef struct rbox2 {
    double min_u, min_v, max_u, max_v;
    bool empty;
} rbox2;

static inline rbox2 rbox2_empty(void)
{
    rbox2 b = {0, 0, 0, 0, true};
    return b;
}
void rbox2_add_point(rbox2* b, double u, double v);
void rbox2_add_box(rbox2* b, const rbox2* o);
/* Adds the view coordinates of world point p (relative to the view's
 * origin). */
void rbox2_add_world(rbox2* b, const rview* v, rv3 p);

/* Most core points a shape has (a hull's vertices). Arrays of this size
 * live on the stack (24 KB of rv3); the larger work arrays of the 2-D hull
 * are allocated. */
enum { RS_MAX_CORE = 1024 };
_Static_assert(SW_MAX_POLYGON_VERTICES <= RS_MAX_CORE, "a polygon's vertices must fit the renderer's core");
_Static_assert(SW_MAX_HULL_VERTICES <= RS_MAX_CORE, "a hull's vertices must fit the renderer's core");

/* False for a plane: it has no size and is framed only near the subject. */
bool rs_is_bounded(const sw_shape* s);

/* A point of reference of the shape: a sphere's or box's centre, the middle
 * of a segment or capsule. The path of a moving shape is drawn through it. */
rv3 rs_center(const sw_shape* s);

/* The largest extent of the shape's bounding box (0 for a point or a
 * plane). */
double rs_size(const sw_shape* s);

/* The point of the shape (translated by offset) nearest to q. */
rv3 rs_closest_point(const sw_shape* s, rv3 offset, rv3 q);

/* Adds the view bounds of the shape translated by offset (nothing for a
 * plane). */
void rs_add_bounds(rbox2* b, const rview* v, const sw_shape* s, rv3 offset);

/* Closed path of the shape's projected silhouette (translated by offset),
 * to fill; a point or tiny shape gets a dot a few pixels wide. */
void rs_path_silhouette(cairo_t* cr, const rview* v, const sw_shape* s, rv3 offset);

/* Closed path of the projection of the volume the shape sweeps when it moves
 * from offset 0 to offset d. */
void rs_path_swept(cairo_t* cr, const rview* v, const sw_shape* s, rv3 d);

/* Path of the shape's outline, to stroke: a sphere's circle, a capsule's
 * two arcs and tangent lines, a box's 12 projected edges, a hull's
 * silhouette and the edges of its faces turned towards the viewer. */
void rs_path_outline(cairo_t* cr, const rview* v, const sw_shape* s, rv3 offset);

/* Closed path of the outline of the shape inflated by skin (the shape
 * plus a ball of radius skin), which is what a sweep with a skin touches. */
void rs_path_inflated(cairo_t* cr, const rview* v, const sw_shape* s, double skin);

/* Path of the given feature of the shape, to stroke thickly: a vertex as a
 * small ring, an edge as its line, a face as its boundary (by the shape's
 * own numbering: shapes.h for a box, hull.h for a hull, and for a mesh the
 * numbering of its triangle `triangle`, which other shapes ignore). Returns
 * false (and adds nothing) when the shape has no such feature. */
bool rs_path_feature(cairo_t* cr, const rview* v, const sw_shape* s, sw_feature f, int triangle);

/* ---- shapes made of many pieces (meshes) ------------------------------------
 * A mesh is not convex: its silhouette is the union of its triangles, it is
 * drawn shaded so that its relief reads, and the triangle a query hit is
 * highlighted. The functions below (in render_mesh.c) do nothing (and
 * return false) for the other shapes, whose drawing they leave as it was. */

/* The colours of a shaded shape: each face is coloured between dark (seen
 * edge-on from the light) and lit (facing it), its edges drawn in `edge`
 * where they are long enough to tell apart, each colour mixed with white
 * as if painted with `alpha` on the white ground (the shape is drawn
 * first). */
typedef struct rs_shading {
    double lit[3], dark[3], edge[3];
    double alpha;
} rs_shading;

/* Draws the shape shaded, back to front; false (nothing drawn) for a shape
 * that is filled flat with its silhouette instead. */
bool rs_draw_shaded(cairo_t* cr, const rview* v, const sw_shape* s, const rs_shading* shading);

/* Whether the shape's silhouette and inflated paths are unions of many
 * closed pieces (a mesh): filling them is right, but a stroke would trace
 * every piece, so their outline is drawn by rs_stroke_union_outline. */
bool rs_is_union(const sw_shape* s);

/* Strokes only the outer boundary of the union that rs_path_inflated gives
 * (skin 0: the silhouette), with the current source, line width and dash:
 * the stroke is drawn in a group and the union's inside cleared. */
void rs_stroke_union_outline(cairo_t* cr, const rview* v, const sw_shape* s, double skin);

/* Path of a mesh's triangle i (a query's sw_hit.triangle), to fill; false
 * for other shapes or an i out of range. */
bool rs_path_triangle(cairo_t* cr, const rview* v, const sw_shape* s, int i);

/* ---- paths shared with render_mesh.c ------------------------------------- */

/* The segment a-b, clipped to the view's reach. */
void rs_path_line(cairo_t* cr, const rview* v, rv3 a, rv3 b);
/* The closed polygon through the world points pts, clipped to the reach. */
void rs_path_polygon(cairo_t* cr, const rview* v, const rv3* pts, int n);
/* The 2-D convex hull of the projected points inflated by r_px pixels. */
void rs_path_rounded(cairo_t* cr, const rview* v, const rv3* pts, int n, double r_px);

/* A one-line description of the shape for the caption
 * ("sphere center (0, 0, 0) radius 1"). */
void rs_describe(const sw_shape* s, char* buf, size_t size);

#endif
