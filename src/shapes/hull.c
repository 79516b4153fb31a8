/* Convex hulls from point sets (quickhull). */
#include <stdlib.h>

#include "internal.h"

sw_hull* sw_hull_create(const sw_vec3* points, int count, sw_hull_error* error)
{
    (void)points;
    (void)count;
    if (error) {
        *error = SW_HULL_OUT_OF_MEMORY;
    }
    return NULL;
}

void sw_hull_destroy(sw_hull* hull) { free(hull); }

const char* sw_hull_error_string(sw_hull_error error)
{
    (void)error;
    return "?";
}
