/* Building a mesh: validation, the bounding-volume hierarchy and the flat
 * (internal) edges, all in one heap block.
 *
 * The hierarchy is built top-down with a binned surface-area heuristic
 * (16 bins on each axis, centroids): a node starts as one child holding
 * all its triangles and splits its child of largest area until it has four
 * children or none can be split (ranges of at most SW_MESH_LEAF_MAX
 * triangles are leaves). Triangles are then stored in leaf order, so a
 * leaf is one contiguous range and its triangles sit together in memory.
 *
 * Flat edges: vertices are welded by exact coordinates (so a triangle
 * soup whose copies of a vertex agree bit for bit is still one surface),
 * each edge is looked up in a hash table by its two welded vertices, and
 * an edge of exactly two triangles whose normals, oriented by the edge's
 * direction in each, agree within SW_MESH_FLAT_ANGLE is flat. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "shapes/mesh_data.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define BINS 16

static float fmin2(float a, float b) { return a < b ? a : b; }
static float fmax2(float a, float b) { return a > b ? a : b; }
/* Below this level ranges are split in halves by count, whatever their
 * shape: the tree is then at most DEEP + 26 levels deep (2^26 triangles),
 * which SW_MESH_STACK in query.c covers. */
#define DEEP 36

/* Per-triangle build data: float bounds rounded outward, and centroid. */
typedef struct prim {
    float lo[4], hi[4]; /* 4 wide for the binning's vector min and max */
    float c[3];
} prim;

typedef struct builder {
    const prim* prims;
    int32_t* ids; /* permuted in place into leaf order */
    sw_mesh_node* nodes;
    int node_count, node_cap;
    int depth;
    bool failed;
} builder;

/* x rounded down / up to a float (a double build's coordinates may lie
 * between floats, or beyond their range: then +-infinity, still
 * conservative). */
static float round_down(double x)
{
    if (!(x <= FLT_MAX)) {
        return FLT_MAX; /* no float conversion that overflows (traps) */
    }
    if (x < -FLT_MAX) {
        return -INFINITY;
    }
    float f = (float)x;
    return (double)f > x ? nextafterf(f, -INFINITY) : f;
}
static float round_up_float(double x)
{
    if (!(x >= -FLT_MAX)) {
        return -FLT_MAX;
    }
    if (x > FLT_MAX) {
        return INFINITY;
    }
    float f = (float)x;
    return (double)f < x ? nextafterf(f, INFINITY) : f;
}

static float half_area(const float lo[3], const float hi[3])
{
    const float x = hi[0] - lo[0], y = hi[1] - lo[1], z = hi[2] - lo[2];
    return x * y + y * z + z * x;
}

static void range_bounds(const builder* b, int begin, int end, float lo[3], float hi[3])
{
    for (int k = 0; k < 3; ++k) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
    for (int i = begin; i < end; ++i) {
        const prim* p = &b->prims[b->ids[i]];
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin2(lo[k], p->lo[k]);
            hi[k] = fmax2(hi[k], p->hi[k]);
        }
    }
}

/* Bins per unit of a centroid extent, 0 for an extent that is 0 or not
 * finite. clang computes a guarded division before its guard (and
 * vectorised it over the three axes with an unused fourth lane), which
 * raises the divide-by-zero trap the tests enable: the divisor is chosen
 * first, through a volatile it cannot fold away. */
static float bin_scale(float ext)
{
    const bool usable = ext > 0 && isfinite(ext);
    volatile float divisor = usable ? ext : 1;
    const float scale = (float)BINS * (1 - 1e-6f) / divisor;
    return usable ? scale : 0;
}

/* The bounds of a range, kept with it through the build. */
typedef struct range {
    int begin, end;
    float lo[3], hi[3];
} range;

static float range_area(const range* r) { return half_area(r->lo, r->hi); }

/* Splits r in two by the binned SAH into *left and *right (bounds
 * included); by count when the centroids coincide or the range lies
 * below DEEP. Ranges above BIG_RANGE bin only the centroids' longest axis:
 * three times fewer bins to fill, for a tree within a few percent. */
#define BIG_RANGE 65536
static void split_range(builder* b, const range* r, int level, range* left, range* right)
{
    const int begin = r->begin, end = r->end;
    float clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = begin; i < end; ++i) {
        const prim* p = &b->prims[b->ids[i]];
        for (int k = 0; k < 3; ++k) {
            clo[k] = fmin2(clo[k], p->c[k]);
            chi[k] = fmax2(chi[k], p->c[k]);
        }
    }
    float scale[3];
    int longest = 0;
    for (int k = 0; k < 3; ++k) {
        const float ext = chi[k] - clo[k];
        scale[k] = bin_scale(ext);
        longest = ext > chi[longest] - clo[longest] ? k : longest;
    }
    if (end - begin > BIG_RANGE) {
        for (int k = 0; k < 3; ++k) {
            scale[k] = k == longest ? scale[k] : 0;
        }
    }
    int count[3][BINS] = {{0}};
    float blo[3][BINS][4], bhi[3][BINS][4];
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < BINS; ++j) {
            for (int c = 0; c < 4; ++c) {
                blo[k][j][c] = INFINITY;
                bhi[k][j][c] = -INFINITY;
            }
        }
    }
    int best_axis = -1, best_bin = 0;
    if (level <= DEEP) {
        for (int i = begin; i < end; ++i) {
            const prim* p = &b->prims[b->ids[i]];
            for (int k = 0; k < 3; ++k) {
                if (scale[k] == 0) {
                    continue;
                }
                int j = (int)((p->c[k] - clo[k]) * scale[k]);
                j = j < 0 ? 0 : (j >= BINS ? BINS - 1 : j);
                count[k][j]++;
#if defined(__SSE2__)
                _mm_storeu_ps(blo[k][j], _mm_min_ps(_mm_loadu_ps(blo[k][j]), _mm_loadu_ps(p->lo)));
                _mm_storeu_ps(bhi[k][j], _mm_max_ps(_mm_loadu_ps(bhi[k][j]), _mm_loadu_ps(p->hi)));
#else
                for (int c = 0; c < 4; ++c) {
                    blo[k][j][c] = fmin2(blo[k][j][c], p->lo[c]);
                    bhi[k][j][c] = fmax2(bhi[k][j][c], p->hi[c]);
                }
#endif
            }
        }
        float best = INFINITY;
        for (int k = 0; k < 3; ++k) {
            if (scale[k] == 0) {
                continue;
            }
            /* Right-to-left sweep: area and count of bins [j, BINS). */
            float rarea[BINS];
            int rcount[BINS];
            float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
            int n = 0;
            for (int j = BINS - 1; j > 0; --j) {
                for (int c = 0; c < 3; ++c) {
                    lo[c] = fmin2(lo[c], blo[k][j][c]);
                    hi[c] = fmax2(hi[c], bhi[k][j][c]);
                }
                n += count[k][j];
                rarea[j] = n ? half_area(lo, hi) : 0;
                rcount[j] = n;
            }
            for (int c = 0; c < 3; ++c) {
                lo[c] = INFINITY;
                hi[c] = -INFINITY;
            }
            n = 0;
            for (int j = 1; j < BINS; ++j) {
                for (int c = 0; c < 3; ++c) {
                    lo[c] = fmin2(lo[c], blo[k][j - 1][c]);
                    hi[c] = fmax2(hi[c], bhi[k][j - 1][c]);
                }
                n += count[k][j - 1];
                if (n == 0 || rcount[j] == 0) {
                    continue;
                }
                const float cost = half_area(lo, hi) * (float)n + rarea[j] * (float)rcount[j];
                if (cost < best) {
                    best = cost;
                    best_axis = k;
                    best_bin = j;
                }
            }
        }
    }
    int mid = begin + (end - begin) / 2;
    if (best_axis >= 0) {
        int i = begin, j = end - 1;
        while (i <= j) {
            const prim* p = &b->prims[b->ids[i]];
            int bin = (int)((p->c[best_axis] - clo[best_axis]) * scale[best_axis]);
            bin = bin < 0 ? 0 : (bin >= BINS ? BINS - 1 : bin);
            if (bin < best_bin) {
                ++i;
            } else {
                const int32_t t = b->ids[i];
                b->ids[i] = b->ids[j];
                b->ids[j--] = t;
            }
        }
        if (i > begin && i < end) {
            /* The sides' bounds are their bins'. */
            *left = (range){begin, i, {INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
            *right = (range){i, end, {INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
            for (int k = 0; k < BINS; ++k) {
                range* side = k < best_bin ? left : right;
                for (int c = 0; c < 3; ++c) {
                    side->lo[c] = fmin2(side->lo[c], blo[best_axis][k][c]);
                    side->hi[c] = fmax2(side->hi[c], bhi[best_axis][k][c]);
                }
            }
            return;
        }
    }
    left->begin = begin, left->end = mid;
    right->begin = mid, right->end = end;
    range_bounds(b, begin, mid, left->lo, left->hi);
    range_bounds(b, mid, end, right->lo, right->hi);
}

static int32_t leaf_code(int begin, int count) { return ~(int32_t)(((uint32_t)begin << 3) | (uint32_t)count); }

/* Builds the subtree of range r at depth `level`; returns its child
 * code. */
static int32_t build_range(builder* b, const range* r, int level)
{
    if (b->failed) {
        return leaf_code(0, 0);
    }
    if (level > b->depth) {
        b->depth = level;
    }
    if (r->end - r->begin <= SW_MESH_LEAF_MAX) {
        return leaf_code(r->begin, r->end - r->begin);
    }
    range kids[4] = {*r};
    int n = 1;
    while (n < 4) {
        int pick = -1;
        for (int c = 0; c < n; ++c) {
            if (kids[c].end - kids[c].begin > SW_MESH_LEAF_MAX &&
                (pick < 0 || range_area(&kids[c]) > range_area(&kids[pick]))) {
                pick = c;
            }
        }
        if (pick < 0) {
            break;
        }
        const range whole = kids[pick];
        split_range(b, &whole, level, &kids[pick], &kids[n]);
        ++n;
    }
    if (b->node_count == b->node_cap) {
        const int cap = b->node_cap * 2;
        sw_mesh_node* grown = realloc(b->nodes, (size_t)cap * sizeof *grown);
        if (!grown) {
            b->failed = true;
            return leaf_code(0, 0);
        }
        b->nodes = grown;
        b->node_cap = cap;
    }
    const int self = b->node_count++;
    sw_mesh_node node;
    for (int c = 0; c < 4; ++c) {
        for (int k = 0; k < 3; ++k) {
            node.lo[k][c] = c < n ? kids[c].lo[k] : INFINITY;
            node.hi[k][c] = c < n ? kids[c].hi[k] : -INFINITY;
        }
        node.child[c] = leaf_code(0, 0);
    }
    for (int c = 0; c < n; ++c) {
        node.child[c] = build_range(b, &kids[c], level + 1);
    }
    b->nodes[self] = node;
    return self;
}

/* ---- flat edges ------------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static uint64_t vertex_hash(sw_vec3 v)
{
    /* +0 and -0 are one point. */
    const double c[3] = {(double)v.x + 0.0, (double)v.y + 0.0, (double)v.z + 0.0};
    uint64_t h = 0;
    for (int k = 0; k < 3; ++k) {
        uint64_t bits;
        memcpy(&bits, &c[k], sizeof bits);
        h = mix(h ^ bits) + (uint64_t)k;
    }
    return h;
}

static size_t table_size(size_t n)
{
    size_t s = 16;
    while (s < 2 * n) {
        s *= 2;
    }
    return s;
}

/* weld[i] = the first vertex with vertex i's coordinates. */
static bool weld_vertices(const sw_vec3* v, int n, int32_t* weld)
{
    const size_t size = table_size((size_t)n);
    int32_t* table = malloc(size * sizeof *table);
    if (!table) {
        return false;
    }
    memset(table, 0xff, size * sizeof *table);
    for (int i = 0; i < n; ++i) {
        size_t h = (size_t)vertex_hash(v[i]) & (size - 1);
        for (;;) {
            const int32_t j = table[h];
            if (j < 0) {
                table[h] = i;
                weld[i] = i;
                break;
            }
            if (v[j].x == v[i].x && v[j].y == v[i].y && v[j].z == v[i].z) {
                weld[i] = j;
                break;
            }
            h = (h + 1) & (size - 1);
        }
    }
    free(table);
    return true;
}

/* Triangle t's normal (not unit) in double: the flatness test needs its
 * direction to far better than SW_MESH_FLAT_ANGLE, not exactly. */
static void tri_normal(const sw_vec3* v, const int* idx, int t, double n[3])
{
    const sw_vec3 a = v[idx[3 * t]], b = v[idx[3 * t + 1]], c = v[idx[3 * t + 2]];
    const double e1[3] = {(double)b.x - a.x, (double)b.y - a.y, (double)b.z - a.z};
    const double e2[3] = {(double)c.x - a.x, (double)c.y - a.y, (double)c.z - a.z};
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

/* Whether triangles t0 and t1, which share the edge whose first welded
 * vertex is s0 in t0 and s1 in t1, are coplanar there. Consistent
 * windings run the shared edge in opposite directions; a triangle that
 * runs it the same way is flipped. */
static bool edge_is_flat(const double* normals, int t0, int t1, bool same_direction)
{
    const double* n0 = normals + 3 * (size_t)t0;
    const double* n1 = normals + 3 * (size_t)t1;
    const double l0 = sqrt(n0[0] * n0[0] + n0[1] * n0[1] + n0[2] * n0[2]);
    const double l1 = sqrt(n1[0] * n1[0] + n1[1] * n1[1] + n1[2] * n1[2]);
    if (!(l0 > 0) || !(l1 > 0) || !isfinite(l0 * l1)) {
        return false; /* a triangle without area has no plane */
    }
    const double c[3] = {n0[1] * n1[2] - n0[2] * n1[1], n0[2] * n1[0] - n0[0] * n1[2], n0[0] * n1[1] - n0[1] * n1[0]};
    const double sin_angle = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / (l0 * l1);
    const double cos_angle = (same_direction ? -1 : 1) * (n0[0] * n1[0] + n0[1] * n1[1] + n0[2] * n1[2]) / (l0 * l1);
    return cos_angle > 0 && sin_angle <= SW_MESH_FLAT_ANGLE;
}

/* flags[t] bit k: edge k of input triangle t is flat. Each welded vertex
 * lists the triangles around it (counting sort, so the lists follow the
 * vertices' order and stay in cache for meshes whose nearby vertices
 * have nearby indices); an edge a -> b looks for the other triangles
 * holding b in a's list. Returns the number of flat triangle edges, or -1
 * when out of memory. */
static int find_flat_edges(const sw_vec3* v, int nv, const int* idx, int nt, uint8_t* flags)
{
    int32_t* weld = malloc((size_t)nv * sizeof *weld);
    int32_t* start = calloc((size_t)nv + 1, sizeof *start);
    int32_t* around = malloc(3 * (size_t)nt * sizeof *around);
    double* normals = malloc(3 * (size_t)nt * sizeof *normals);
    int flat = -1;
    if (!weld || !start || !around || !normals || !weld_vertices(v, nv, weld)) {
        goto done;
    }
    for (int t = 0; t < nt; ++t) {
        tri_normal(v, idx, t, normals + 3 * (size_t)t);
        for (int k = 0; k < 3; ++k) {
            start[weld[idx[3 * t + k]] + 1]++;
        }
    }
    for (int i = 0; i < nv; ++i) {
        start[i + 1] += start[i];
    }
    for (int t = 0; t < nt; ++t) {
        for (int k = 0; k < 3; ++k) {
            const int32_t w = weld[idx[3 * t + k]];
            /* start[w] advances as w's list fills; it is restored below. */
            around[start[w]++] = t;
        }
    }
    for (int i = nv; i > 0; --i) {
        start[i] = start[i - 1];
    }
    start[0] = 0;
    flat = 0;
    memset(flags, 0, (size_t)nt);
    for (int t = 0; t < nt; ++t) {
        for (int k = 0; k < 3; ++k) {
            const int32_t a = weld[idx[3 * t + k]], b = weld[idx[3 * t + (k + 1) % 3]];
            if (a == b) {
                continue; /* a collapsed edge joins nothing */
            }
            int other = -1, users = 1;
            bool same = false;
            for (int32_t i = start[a]; i < start[a + 1]; ++i) {
                const int u = around[i];
                if (u == t || (i > start[a] && around[i - 1] == u)) {
                    continue;
                }
                for (int m = 0; m < 3; ++m) {
                    if (weld[idx[3 * u + m]] == b) {
                        other = u;
                        users++;
                        /* u runs a -> b (as t does) when a comes just before b. */
                        same = weld[idx[3 * u + (m + 2) % 3]] == a;
                        break;
                    }
                }
            }
            if (users == 2 && edge_is_flat(normals, t, other, same)) {
                flags[t] |= (uint8_t)(SW_MESH_FLAT_EDGE0 << k);
                flat++;
            }
        }
    }
done:
    free(weld);
    free(start);
    free(around);
    free(normals);
    return flat;
}

/* ---- creation --------------------------------------------------------- */

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

static sw_mesh* fail(sw_mesh_error* error, sw_mesh_error e)
{
    if (error) {
        *error = e;
    }
    return NULL;
}

sw_mesh* sw_mesh_create(const sw_vec3* vertices, int vertex_count, const int* indices, int triangle_count,
                        sw_mesh_error* error)
{
    if (!vertices || !indices || triangle_count < 1 || vertex_count < 1) {
        return fail(error, SW_MESH_NO_TRIANGLES);
    }
    if (triangle_count > SW_MAX_MESH_TRIANGLES || vertex_count > SW_MAX_MESH_TRIANGLES) {
        return fail(error, SW_MESH_TOO_LARGE);
    }
    for (int i = 0; i < 3 * triangle_count; ++i) {
        if (indices[i] < 0 || indices[i] >= vertex_count) {
            return fail(error, SW_MESH_INVALID_INDEX);
        }
    }
    /* Only the vertices the triangles use must be valid: check them all
     * anyway, since an unused NaN is most likely a caller's bug. */
    for (int i = 0; i < vertex_count; ++i) {
        if (!sw_is_valid_vec3(vertices[i])) {
            return fail(error, SW_MESH_INVALID_VERTEX);
        }
    }
    const size_t nt = (size_t)triangle_count;
    prim* prims = malloc(nt * sizeof *prims);
    int32_t* ids = malloc(nt * sizeof *ids);
    uint8_t* flags = malloc(nt);
    builder b = {prims, ids, NULL, 0, triangle_count / 2 + 1, 0, false};
    b.nodes = malloc((size_t)b.node_cap * sizeof *b.nodes);
    if (!prims || !ids || !flags || !b.nodes) {
        free(prims), free(ids), free(flags), free(b.nodes);
        return fail(error, SW_MESH_OUT_OF_MEMORY);
    }
    sw_vec3 bmin = vertices[indices[0]], bmax = bmin;
    for (size_t t = 0; t < nt; ++t) {
        prim* p = &prims[t];
        for (int k = 0; k < 3; ++k) {
            const sw_vec3 q = vertices[indices[3 * t + (size_t)k]];
            const double c[3] = {q.x, q.y, q.z};
            bmin = sw_vmin(bmin, q);
            bmax = sw_vmax(bmax, q);
            for (int a = 0; a < 3; ++a) {
                const float lo = round_down(c[a]), hi = round_up_float(c[a]);
                p->lo[a] = k ? fmin2(p->lo[a], lo) : lo;
                p->hi[a] = k ? fmax2(p->hi[a], hi) : hi;
            }
        }
        p->lo[3] = p->hi[3] = 0;
        for (int a = 0; a < 3; ++a) {
            p->c[a] = 0.5f * p->lo[a] + 0.5f * p->hi[a];
        }
        ids[t] = (int32_t)t;
    }
    range all = {0, triangle_count, {0, 0, 0}, {0, 0, 0}};
    range_bounds(&b, 0, triangle_count, all.lo, all.hi);
    const int32_t root = build_range(&b, &all, 1);
    if (root < 0 && !b.failed) {
        /* A mesh of at most SW_MESH_LEAF_MAX triangles: one node holding
         * the leaf, so that traversal always starts at a node. */
        sw_mesh_node node;
        for (int c = 0; c < 4; ++c) {
            for (int k = 0; k < 3; ++k) {
                node.lo[k][c] = INFINITY;
                node.hi[k][c] = -INFINITY;
            }
            node.child[c] = leaf_code(0, 0);
        }
        for (int k = 0; k < 3; ++k) {
            node.lo[k][0] = all.lo[k];
            node.hi[k][0] = all.hi[k];
        }
        node.child[0] = root;
        b.nodes[b.node_count++] = node;
        b.depth = 1;
    }
    free(prims);
    const int flat = b.failed ? -1 : find_flat_edges(vertices, vertex_count, indices, triangle_count, flags);
    if (flat < 0) {
        free(ids), free(flags), free(b.nodes);
        return fail(error, SW_MESH_OUT_OF_MEMORY);
    }
    /* Vertices renumbered in order of first use by the triangles in leaf
     * order, so that a leaf's vertices sit together in memory; unused
     * vertices are dropped. */
    int32_t* remap = malloc((size_t)vertex_count * sizeof *remap);
    if (!remap) {
        free(ids), free(flags), free(b.nodes);
        return fail(error, SW_MESH_OUT_OF_MEMORY);
    }
    memset(remap, 0xff, (size_t)vertex_count * sizeof *remap);
    int32_t used = 0;
    for (size_t j = 0; j < 3 * nt; ++j) {
        const int i = indices[3 * (size_t)ids[j / 3] + j % 3];
        if (remap[i] < 0) {
            remap[i] = used++;
        }
    }
    /* One block: header, nodes, vertices, then the per-triangle arrays. */
    const size_t nn = (size_t)b.node_count, nv = (size_t)used;
    const size_t o_nodes = align64(sizeof(sw_mesh));
    const size_t o_v = align64(o_nodes + nn * sizeof(sw_mesh_node));
    const size_t o_tri = align64(o_v + nv * sizeof(sw_vec3));
    const size_t o_id = o_tri + 3 * nt * sizeof(int32_t);
    const size_t o_slot = o_id + nt * sizeof(int32_t);
    const size_t o_flags = o_slot + nt * sizeof(int32_t);
    const size_t total = o_flags + nt;
    /* Aligned by hand: aligned_alloc is C11, and the single header allows C99. */
    unsigned char* raw = malloc(align64(total) + 64);
    if (!raw) {
        free(ids), free(flags), free(b.nodes), free(remap);
        return fail(error, SW_MESH_OUT_OF_MEMORY);
    }
    unsigned char* block = raw + (64 - (uintptr_t)raw % 64) % 64;
    sw_mesh* m = (sw_mesh*)block;
    sw_mesh_node* nodes = (sw_mesh_node*)(block + o_nodes);
    sw_vec3* v = (sw_vec3*)(block + o_v);
    int32_t* tri = (int32_t*)(block + o_tri);
    int32_t* id = (int32_t*)(block + o_id);
    int32_t* slot = (int32_t*)(block + o_slot);
    uint8_t* fl = block + o_flags;
    memcpy(nodes, b.nodes, nn * sizeof *nodes);
    for (int i = 0; i < vertex_count; ++i) {
        if (remap[i] >= 0) {
            v[remap[i]] = vertices[i];
        }
    }
    for (size_t j = 0; j < nt; ++j) {
        const size_t t = (size_t)ids[j];
        tri[3 * j] = remap[indices[3 * t]];
        tri[3 * j + 1] = remap[indices[3 * t + 1]];
        tri[3 * j + 2] = remap[indices[3 * t + 2]];
        id[j] = (int32_t)t;
        slot[t] = (int32_t)j;
        fl[j] = flags[t];
    }
    *m = (sw_mesh){vertex_count, used, triangle_count, b.node_count, b.depth, flat, align64(total), bmin, bmax, 0,
                   nodes, v, tri, id, fl, slot, raw};
    m->radius = sw_max(sw_max_abs(bmin), sw_max_abs(bmax));
    free(ids), free(flags), free(b.nodes), free(remap);
    if (error) {
        *error = SW_MESH_OK;
    }
    return m;
}

void sw_mesh_destroy(sw_mesh* mesh)
{
    if (mesh) {
        free(mesh->block);
    }
}

const char* sw_mesh_error_string(sw_mesh_error error)
{
    switch (error) {
    case SW_MESH_OK:
        return "ok";
    case SW_MESH_NO_TRIANGLES:
        return "a mesh needs at least one triangle (and non-NULL arrays)";
    case SW_MESH_TOO_LARGE:
        return "too many triangles or vertices for a mesh";
    case SW_MESH_INVALID_VERTEX:
        return "mesh vertices must be finite and within range";
    case SW_MESH_INVALID_INDEX:
        return "mesh index out of range (must be >= 0 and < vertex count)";
    case SW_MESH_OUT_OF_MEMORY:
        return "out of memory";
    }
    return "unknown mesh error";
}

sw_mesh_info sw_mesh_get_info(const sw_mesh* m)
{
    sw_mesh_info info = {0};
    if (m) {
        info = (sw_mesh_info){m->vertex_count, m->triangle_count, m->node_count, m->depth,
                              m->flat_edges,   m->bytes,          m->bmin,       m->bmax};
    }
    return info;
}

bool sw_mesh_triangle(const sw_mesh* m, int i, sw_vec3 v[3], bool flat[3])
{
    if (!m || i < 0 || i >= m->triangle_count) {
        return false;
    }
    const int j = m->slot[i];
    for (int k = 0; k < 3; ++k) {
        v[k] = m->v[m->tri[3 * j + k]];
        if (flat) {
            flat[k] = (m->flags[j] >> k) & 1;
        }
    }
    return true;
}

