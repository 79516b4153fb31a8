/* The hull builder's output: the sw_hull block with its vertices, edges
 * and faces in their documented order. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "shapes/hull_internal.h"

/* ---- the output ---------------------------------------------------------------------- */

typedef struct sort_key {
    int a, b, c, d;
} sort_key;

static int cmp_key(const void* pa, const void* pb)
{
    const sort_key* x = pa;
    const sort_key* y = pb;
    if (x->a != y->a) {
        return x->a < y->a ? -1 : 1;
    }
    if (x->b != y->b) {
        return x->b < y->b ? -1 : 1;
    }
    return (x->c > y->c) - (x->c < y->c);
}

static size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* Rounds a non-negative wide value to sw_real, upward. */
static sw_real round_up(sw_wide x)
{
    sw_real r = (sw_real)x;
    if ((sw_wide)r < x) {
#ifdef SWEEP_DOUBLE
        r = nextafter(r, INFINITY);
#else
        r = nextafterf(r, INFINITY);
#endif
    }
    return r;
}

/* Writes the hull of the alive faces into one block, with the documented
 * numbering. Returns NULL with *error set on failure. */
sw_hull* sw_qh_output_hull(const qh* q, const sw_vec3* points, int n, sw_hull_error* error)
{
    /* Vertices: the points the faces use, in input order. */
    int* vid = malloc((size_t)n * sizeof *vid);
    if (!vid) {
        *error = SW_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    for (int i = 0; i < n; ++i) {
        vid[i] = -1;
    }
    int face_count = 0, corner_count = 0;
    for (int fi = 0; fi < q->f_n; ++fi) {
        if (!q->f[fi].alive) {
            continue;
        }
        ++face_count;
        int e = q->f[fi].edge, count = 0;
        do {
            vid[q->e[e].head] = 0;
            ++count;
            e = q->e[e].next;
        } while (e != q->f[fi].edge);
        if (count < 3) {
            free(vid);
            *error = SW_HULL_FLAT;
            return NULL;
        }
        corner_count += count;
    }
    int vertex_count = 0;
    for (int i = 0; i < n; ++i) {
        if (vid[i] == 0) {
            vid[i] = vertex_count++;
        }
    }
    const int edge_count = corner_count / 2;
    /* Euler's formula; anything else means a hull thinner than the
     * tolerance collapsed under its merges: it is flat for our purposes. */
    if (corner_count % 2 != 0 || face_count < 4 || vertex_count - edge_count + face_count != 2) {
        free(vid);
        *error = SW_HULL_FLAT;
        return NULL;
    }
    if (vertex_count > SW_MAX_HULL_VERTICES) {
        free(vid);
        *error = SW_HULL_TOO_MANY_VERTICES;
        return NULL;
    }

    size_t size = align_up(sizeof(sw_hull), SW_ALIGNOF(sw_vec3));
    const size_t off_vertices = size;
    size = align_up(size + (size_t)vertex_count * sizeof(sw_vec3), SW_ALIGNOF(sw_hull_face));
    const size_t off_faces = size;
    size = align_up(size + (size_t)face_count * sizeof(sw_hull_face), SW_ALIGNOF(sw_hull_edge));
    const size_t off_edges = size;
    size = align_up(size + (size_t)edge_count * sizeof(sw_hull_edge), SW_ALIGNOF(int));
    const size_t off_source = size;
    size += (size_t)vertex_count * sizeof(int);
    const size_t off_corners = size;
    size += (size_t)corner_count * sizeof(int);

    unsigned char* block = calloc(1, size);
    sort_key* keys = malloc((size_t)(corner_count > face_count ? corner_count : face_count) * sizeof *keys);
    int* loops = malloc((size_t)corner_count * sizeof *loops);
    int* loop_start = malloc((size_t)face_count * sizeof *loop_start);
    int* face_of = malloc((size_t)face_count * sizeof *face_of);
    if (!block || !keys || !loops || !loop_start || !face_of) {
        free(block);
        free(keys);
        free(loops);
        free(loop_start);
        free(face_of);
        free(vid);
        *error = SW_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    sw_hull* hull = (sw_hull*)block;
    sw_vec3* vertices = (sw_vec3*)(block + off_vertices);
    sw_hull_face* faces = (sw_hull_face*)(block + off_faces);
    sw_hull_edge* edges = (sw_hull_edge*)(block + off_edges);
    int* source = (int*)(block + off_source);
    int* corners = (int*)(block + off_corners);

    for (int i = 0; i < n; ++i) {
        if (vid[i] >= 0) {
            vertices[vid[i]] = points[i];
            source[vid[i]] = i;
        }
    }

    /* Each face's loop from its smallest vertex; faces sorted by their
     * first two vertices (which decide: an edge a -> b has one face). */
    int used = 0, fcount = 0;
    for (int fi = 0; fi < q->f_n; ++fi) {
        if (!q->f[fi].alive) {
            continue;
        }
        const int e0 = q->f[fi].edge;
        int low = e0, e = e0;
        do {
            if (vid[q->e[e].head] < vid[q->e[low].head]) {
                low = e;
            }
            e = q->e[e].next;
        } while (e != e0);
        loop_start[fcount] = used;
        face_of[fcount] = fi;
        e = low;
        do {
            loops[used++] = vid[q->e[e].head];
            e = q->e[e].next;
        } while (e != low);
        keys[fcount] = (sort_key){loops[loop_start[fcount]], loops[loop_start[fcount] + 1], fcount, used};
        ++fcount;
    }
    qsort(keys, (size_t)face_count, sizeof *keys, cmp_key);
    int first = 0;
    for (int i = 0; i < face_count; ++i) {
        const int s = loop_start[keys[i].c];
        const int count = keys[i].d - s;
        memcpy(corners + first, loops + s, (size_t)count * sizeof *corners);
        faces[i].first = first;
        faces[i].count = count;
        first += count;
    }

    /* Planes: the builder's normal (the one hull_valid checked every point
     * against; the frame's shift and power-of-two scale do not turn it),
     * then the mean offset along the stored (rounded) normal. Not Newell's
     * normal of the input vertices: the builder's coordinates are the
     * input's rounded relative to the centre (a point 1e-8 from a coordinate
     * plane next to one 1e12 out loses those digits), and a face narrow
     * across a long span (49 wide, 7.7e11 long) turns by such a rounding
     * enough that the exact vertices' plane had a hull vertex 7.7e11 away
     * 155 above it, far past tol. The builder's plane holds every point
     * within tol of their rounded places, so within tol plus that rounding
     * of the input. */
    for (int i = 0; i < face_count; ++i) {
        const int* c = corners + faces[i].first;
        const int count = faces[i].count;
        bool ok;
        const sw_vec3 nr = sw_wunit(q->f[face_of[keys[i].c]].normal, &ok);
        sw_wide sum = 0;
        for (int j = 0; j < count; ++j) {
            sum += sw_wdot(sw_wv(nr), sw_wv(vertices[c[j]]));
        }
        faces[i].normal = nr;
        faces[i].offset = (sw_real)(sum / count);
    }

    /* Edges: each face's a -> b, sorted by (min, max); face[0] runs
     * v[0] -> v[1]. */
    int h = 0;
    for (int i = 0; i < face_count; ++i) {
        const int* c = corners + faces[i].first;
        for (int j = 0; j < faces[i].count; ++j) {
            const int a = c[j], b = c[(j + 1) % faces[i].count];
            keys[h++] = (sort_key){a < b ? a : b, a < b ? b : a, a < b ? 0 : 1, i};
        }
    }
    qsort(keys, (size_t)corner_count, sizeof *keys, cmp_key);
    bool consistent = true;
    for (int i = 0; i < edge_count; ++i) {
        const sort_key* x = &keys[2 * i];
        const sort_key* y = &keys[2 * i + 1];
        consistent = consistent && x->a == y->a && x->b == y->b && x->c == 0 && y->c == 1;
        edges[i].v[0] = x->a;
        edges[i].v[1] = x->b;
        edges[i].face[0] = x->d;
        edges[i].face[1] = y->d;
    }
    free(keys);
    free(loops);
    free(loop_start);
    free(face_of);
    free(vid);
    if (!consistent) {
        free(block);
        *error = SW_HULL_FLAT;
        return NULL;
    }

    /* Bounding-box centre and the radius around it (rounded up, so that it
     * bounds every vertex). */
    sw_wvec lo = sw_wv(vertices[0]), hi = lo;
    for (int i = 1; i < vertex_count; ++i) {
        const sw_wvec v = sw_wv(vertices[i]);
        lo = (sw_wvec){v.x < lo.x ? v.x : lo.x, v.y < lo.y ? v.y : lo.y, v.z < lo.z ? v.z : lo.z};
        hi = (sw_wvec){v.x > hi.x ? v.x : hi.x, v.y > hi.y ? v.y : hi.y, v.z > hi.z ? v.z : hi.z};
    }
    const sw_vec3 center = sw_wv_narrow(wscale(wadd(lo, hi), (sw_wide)0.5));
    sw_wide r_sq = 0;
    for (int i = 0; i < vertex_count; ++i) {
        const sw_wvec d = sw_wsub(sw_wv(vertices[i]), sw_wv(center));
        const sw_wide dd = sw_wdot(d, d);
        r_sq = dd > r_sq ? dd : r_sq;
    }

    hull->vertex_count = vertex_count;
    hull->edge_count = edge_count;
    hull->face_count = face_count;
    hull->vertices = vertices;
    hull->source = source;
    hull->edges = edges;
    hull->faces = faces;
    hull->face_vertices = corners;
    hull->center = center;
    /* A few ulps of margin for the rounding of r_sq and its root. */
    hull->radius = round_up(sw_wide_sqrt(r_sq) * (1 + 8 * SW_WIDE_EPSILON));
    *error = SW_HULL_OK;
    return hull;
}
