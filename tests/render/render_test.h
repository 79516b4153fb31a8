/* Helpers of the `sweep render` tests shared by render_test.c (which
 * defines them) and render_scene_test.c. */
#ifndef SWEEP_RENDER_TEST_H
#define SWEEP_RENDER_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include <cairo.h>

#include "render.h"

typedef struct rgb {
    int r, g, b;
} rgb;

/* The colour of pixel (x, y) of an opaque ARGB32 image. */
rgb pixel(cairo_surface_t* s, int x, int y);
/* Draws the picture into a new image of its size. */
cairo_surface_t* draw_to_image(const render_scene* sc);
/* Runs `sweep render ARGS...` (NULL-terminated) in-process; its standard
 * error goes to err_out. Returns the exit status. */
int run_render(char* err_out, size_t err_size, ...);
void write_file(const char* path, const char* text);
bool png_has_size(const char* path, int w, int h);

/* A sphere swept through an inline scene of six shapes, "hits":"all": it
 * hits three of them (the golden image scene_all). */
#define SCENE_ALL_LINE                                                                                                 \
    "{\"op\":\"sweep\",\"a\":{\"type\":\"sphere\",\"center\":[-3,0,0.5],\"radius\":0.4},\"d\":[8,0.5,0],"              \
    "\"hits\":\"all\",\"scene\":["                                                                                     \
    "{\"type\":\"sphere\",\"center\":[-1,0.2,0.5],\"radius\":0.5},"                                                    \
    "{\"type\":\"box\",\"center\":[1.5,0.4,0.5],\"half\":[0.3,0.6,0.5],\"rotation\":[0,0,0.25881905,0.96592583]},"     \
    "{\"type\":\"capsule\",\"a\":[3.5,-0.5,0],\"b\":[3.5,1.5,1],\"radius\":0.3},"                                      \
    "{\"type\":\"sphere\",\"center\":[0,-2,0.5],\"radius\":0.6},"                                                      \
    "{\"type\":\"box\",\"center\":[2,2.5,0.5],\"half\":[0.5,0.5,0.5]},"                                                \
    "{\"type\":\"mesh\",\"v\":[[-4,-3,-0.2],[6,-3,-0.2],[6,3,-0.2],[-4,3,-0.2]],\"tri\":[[0,1,2],[0,2,3]]}]}"

/* The scene tests (render_scene_test.c); returns the number that failed. */
int render_scene_tests(void);

#endif
