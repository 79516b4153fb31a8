/* `sweep render`: the mesh's cases of render_shapes.c (render_mesh.c). A
 * mesh is many triangles and not convex, so it does not fit the convex
 * core-and-radius form of the other shapes; everything is computed from
 * its placed triangles (sw_mesh_world_triangle), in double. */
#ifndef SWEEP_TOOL_RENDER_MESH_H
#define SWEEP_TOOL_RENDER_MESH_H

#include "render_shapes.h"

/* The point of the placed mesh nearest to q (the library's distance). */
rv3 rmesh_closest_point(const sw_mesh_instance* m, rv3 q);

/* Adds the view bounds of every placed vertex. */
void rmesh_add_bounds(rbox2* b, const rview* v, const sw_mesh_instance* m);

/* The union of the projected triangles, each inflated by r_px pixels, with
 * every piece wound the same way so that the nonzero fill covers them all. */
void rmesh_path_union(cairo_t* cr, const rview* v, const sw_mesh_instance* m, double r_px);

/* The lines that show the mesh's shape: edges of one triangle (its
 * border), of three or more, where the surface turns away from the viewer
 * (contours) and sharp creases. */
void rmesh_path_outline(cairo_t* cr, const rview* v, const sw_mesh_instance* m);

/* Fills the triangles back to front, shaded by their angle to a light near
 * the viewer. */
void rmesh_draw_shaded(cairo_t* cr, const rview* v, const sw_mesh_instance* m, const rs_shading* shading);

/* A one-line description ("mesh of 12 triangles, 8 vertices at (0, 0, 0)"). */
void rmesh_describe(const sw_mesh_instance* m, char* buf, size_t size);

#endif
