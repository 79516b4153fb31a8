/* Prepared polygons: validated once, their frames kept (polygon_frame.h). */
#include <stdlib.h>
#include <string.h>

#include "shapes/polygon_frame.h"

/* The prep's block: the header, then its six frame arrays of count
 * entries, then its vertices. */
enum { FRAME_ARRAYS = 6 };

static size_t header_size(void)
{
    const size_t a = SW_ALIGNOF(sw_dvec);
    return (sizeof(sw_polygon_prep) + a - 1) / a * a;
}

/* A frame's arrays, count entries from src into dst (a frame of the same
 * scalars pointing at dst). */
static sw_polygon_frame copy_frame(const sw_polygon_frame* src, sw_dvec* dst, int count)
{
    sw_polygon_frame f = *src;
    const size_t bytes = (size_t)count * sizeof(sw_dvec);
    f.v = memcpy(dst, src->v, bytes);
    f.e = memcpy(dst + count, src->e, bytes);
    f.in = memcpy(dst + 2 * count, src->in, bytes);
    return f;
}

sw_polygon_prep* sw_polygon_prepare(const sw_vec3* v, int count, const char** reason)
{
    const sw_polygon p = {.v = v, .count = count};
    sw_polygon_frame_store flat_store, raw_store;
    sw_polygon_frame flat, raw;
    /* The same verdict twice: flatten moves the frame after it. */
    const char* why = sw_internal_polygon_check(&p, &flat, &flat_store, true);
    why = why ? why : sw_internal_polygon_check(&p, &raw, &raw_store, false);
    if (why) {
        if (reason) {
            *reason = why;
        }
        return NULL;
    }
    const size_t arrays = (size_t)FRAME_ARRAYS * (size_t)count * sizeof(sw_dvec);
    sw_polygon_prep* prep = malloc(header_size() + arrays + (size_t)count * sizeof(sw_vec3));
    if (!prep) {
        if (reason) {
            *reason = "out of memory";
        }
        return NULL;
    }
    sw_dvec* block = (sw_dvec*)((char*)prep + header_size());
    sw_vec3* vertices = memcpy((char*)block + arrays, v, (size_t)count * sizeof(sw_vec3));
    prep->flat = copy_frame(&flat, block, count);
    prep->raw = copy_frame(&raw, block + 3 * count, count);
    prep->v = vertices;
    if (reason) {
        *reason = NULL;
    }
    return prep;
}

void sw_polygon_prep_destroy(sw_polygon_prep* prep) { free(prep); }

sw_shape sw_make_prepared_polygon(const sw_polygon_prep* prep, bool one_sided)
{
    sw_shape s = {.type = SW_SHAPE_POLYGON, .polygon = {.one_sided = one_sided, .prep = prep}};
    if (prep) {
        s.polygon.v = prep->v;
        s.polygon.count = prep->flat.count;
    }
    return s;
}
