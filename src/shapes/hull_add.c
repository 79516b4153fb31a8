/* The hull builder: adding a point (the visible region, its horizon and
 * the new cone of faces), and the initial tetrahedron. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "shapes/hull_internal.h"

/* ---- adding a point ---------------------------------------------------------------- */

/* Whether face g can join the visible region (stamp st) with the region
 * staying a disk: g borders it along one run of edges (not its whole loop),
 * and g's other vertices are not on the region's boundary. Adds it if so
 * (the caller has reserved room in q->visible). */
static bool try_add_visible(qh* q, int g, unsigned st)
{
    const int e0 = q->f[g].edge;
    int shared = 0, runs = 0, count = 0, e = e0;
    do {
        const bool s = q->f[q->e[q->e[e].twin].face].visible == st;
        const bool s_next = q->f[q->e[q->e[q->e[e].next].twin].face].visible == st;
        shared += s;
        runs += s && !s_next;
        ++count;
        e = q->e[e].next;
    } while (e != e0);
    if (runs != 1 || shared == count) {
        return false;
    }
    /* A vertex between two edges not shared must be new to the boundary,
     * or the region would touch itself there. */
    do {
        const int nx = q->e[e].next;
        if (q->f[q->e[q->e[e].twin].face].visible != st && q->f[q->e[q->e[nx].twin].face].visible != st &&
            q->vmark[q->e[e].head] == st) {
            return false;
        }
        e = nx;
    } while (e != e0);
    do {
        const int nx = q->e[e].next;
        const bool s = q->f[q->e[q->e[e].twin].face].visible == st;
        const bool s_next = q->f[q->e[q->e[nx].twin].face].visible == st;
        /* Between two shared edges: inside the region from now on. */
        q->vmark[q->e[e].head] = s && s_next ? 0 : st;
        e = nx;
    } while (e != e0);
    q->f[g].visible = st;
    q->visible.v[q->visible.n++] = g;
    return true;
}

/* Appends fi's neighbours that are not yet in the region, rejected or
 * waiting to `to`. */
static bool queue_neighbours(qh* q, int fi, unsigned st, ivec* to)
{
    const int e0 = q->f[fi].edge;
    int e = e0;
    do {
        const int g = q->e[q->e[e].twin].face;
        if (q->f[g].visible != st && q->f[g].rejected != st && q->f[g].queued != st) {
            q->f[g].queued = st;
            if (!ivec_push(to, g)) {
                return false;
            }
        }
        e = q->e[e].next;
    } while (e != e0);
    return true;
}

/* The horizon: the loop of the visible region's boundary edges, in
 * order, into q->horizon (empty when out of memory). From a boundary edge
 * a -> b, the next one starts at b: turn around b through visible faces
 * until one borders the rest. */
static void walk_horizon(qh* q, unsigned st)
{
    q->horizon.n = 0;
    int start = -1;
    for (int i = 0; i < q->visible.n && start < 0; ++i) {
        const int fi = q->visible.v[i];
        int e = q->f[fi].edge;
        do {
            if (q->f[q->e[q->e[e].twin].face].visible != st) {
                start = e;
                break;
            }
            e = q->e[e].next;
        } while (e != q->f[fi].edge);
    }
    int e = start;
    do {
        if (!ivec_push(&q->horizon, e)) {
            q->horizon.n = 0;
            return;
        }
        int nx = q->e[e].next;
        while (q->f[q->e[q->e[nx].twin].face].visible == st) {
            nx = q->e[q->e[nx].twin].next;
        }
        e = nx;
    } while (e != start);
}

/* Whether vertex v lies more than 4 tol above the plane through a with
 * normal n: a fold, not the tolerance of merged faces (the finished hull
 * is checked within tol anyway). */
bool sw_qh_above(const qh* q, sw_wvec n, sw_wvec a, int v) { return sw_wdot(n, sw_wsub(q->p[v], a)) > 4 * q->tol; }

/* A kept face that must join the visible region for the cone to be convex,
 * or -1 when it is: every new face (a, b, eye) over a horizon edge a -> b
 * must have below it (within 4 tol) the kept face across that edge and
 * every other horizon vertex. A vertex above it is hidden by the eye: one
 * of the kept faces at it (across the horizon edges into and out of it)
 * is returned; the caller tries them in turn (*second). */
static int folded_face(const qh* q, int eye, int* second)
{
    *second = -1;
    for (int i = 0; i < q->horizon.n; ++i) {
        const int h = q->horizon.v[i];
        const sw_wvec a = q->p[tail_of(q, h)];
        sw_wvec n = sw_wcross_acc(sw_wsub(q->p[q->e[h].head], a), sw_wsub(q->p[eye], a));
        const sw_wide len = sw_wide_sqrt(sw_wdot(n, n));
        if (!(len > 0)) {
            continue;
        }
        n = wscale(n, 1 / len);
        const int kept = q->e[q->e[h].twin].face;
        int e = q->f[kept].edge;
        do {
            if (sw_qh_above(q, n, a, q->e[e].head)) {
                return kept;
            }
            e = q->e[e].next;
        } while (e != q->f[kept].edge);
        for (int j = 0; j < q->horizon.n; ++j) {
            const int hj = q->horizon.v[j];
            if (sw_qh_above(q, n, a, q->e[hj].head)) {
                *second = q->e[q->e[q->horizon.v[(j + 1) % q->horizon.n]].twin].face;
                return q->e[q->e[hj].twin].face;
            }
        }
    }
    return -1;
}

/* The faces the eye sees (it is above their plane by more than rounding
 * noise: seeing only the faces it is more than tol above would leave new
 * faces tilted inward against their neighbours, by tol at the eye and by
 * more at a neighbour's far vertices), grown from f0 as a disk, and the
 * horizon: the loop of the region's boundary edges, in order. A face whose
 * joining would pinch the region waits until the faces around it have
 * joined, and stays out if they never do. Returns 1, 0 when the cone
 * would fold and cannot be mended, -1 when out of memory. */
static int find_horizon(qh* q, int eye, int f0)
{
    const unsigned st = q->stamp;
    const sw_wvec pe = q->p[eye];
    q->visible.n = q->cand.n = q->defer.n = q->horizon.n = 0;
    if (!ivec_push(&q->visible, f0)) {
        return -1;
    }
    q->f[f0].visible = st;
    int e = q->f[f0].edge;
    do {
        q->vmark[q->e[e].head] = st;
        e = q->e[e].next;
    } while (e != q->f[f0].edge);
    if (!queue_neighbours(q, f0, st, &q->cand)) {
        return -1;
    }
    bool progress = true;
    while (progress && q->cand.n > 0) {
        progress = false;
        q->defer.n = 0;
        for (int i = 0; i < q->cand.n; ++i) {
            const int g = q->cand.v[i];
            if (!(sw_qh_face_distance(q, g, pe) > q->noise)) {
                q->f[g].rejected = st;
                continue;
            }
            if (!ivec_reserve(&q->visible, 1)) {
                return -1;
            }
            if (try_add_visible(q, g, st)) {
                progress = true;
                if (!queue_neighbours(q, g, st, &q->defer)) {
                    return -1;
                }
            } else if (!ivec_push(&q->defer, g)) {
                return -1;
            }
        }
        const ivec t = q->cand;
        q->cand = q->defer;
        q->defer = t;
    }

    /* Folded cones: faces that are convex only within tol let an eye be
     * above a small face's plane far from the face (the plane's tilt times
     * the distance) while below its nearly coplanar neighbours; the cone
     * over that face alone would fold back over it. So the cone is checked
     * (folded_face) and the kept faces it needs join the region. */
    for (;;) {
        walk_horizon(q, st);
        if (q->horizon.n == 0) {
            return -1;
        }
        int second;
        const int folded = folded_face(q, eye, &second);
        if (folded < 0) {
            return 1;
        }
        if (!ivec_reserve(&q->visible, 1)) {
            return -1;
        }
        if (!try_add_visible(q, folded, st) && (second < 0 || !try_add_visible(q, second, st))) {
            return 0; /* it cannot join without pinching the region */
        }
    }
}

/* Adds point `eye`, which lies more than tol outside face f0. Returns 1, 0
 * when the eye cannot be added (see find_horizon; nothing changed), -1
 * when out of memory. */
int sw_qh_add_point(qh* q, int eye, int f0)
{
    ++q->stamp;
    const int found = find_horizon(q, eye, f0);
    if (found <= 0) {
        return found;
    }
    const int k = q->horizon.n;
    if (!sw_qh_reserve_pools(q, 3 * k, k)) {
        return -1;
    }
    q->touched = -1;
    q->work = -1;

    /* The cone: triangle (a, b, eye) over each horizon edge a -> b. */
    int first_side = -1, prev_side = -1;
    for (int i = 0; i < k; ++i) {
        const int h = q->horizon.v[i];
        const int a = tail_of(q, h), b = q->e[h].head, t = q->e[h].twin;
        const int fi = sw_qh_new_face(q);
        const int x = sw_qh_new_edge(q), y = sw_qh_new_edge(q), z = sw_qh_new_edge(q);
        q->e[x] = (qh_edge){b, y, z, t, fi};
        q->e[y] = (qh_edge){eye, z, x, -1, fi};
        q->e[z] = (qh_edge){a, x, y, -1, fi};
        q->e[t].twin = x;
        if (prev_side >= 0) {
            q->e[prev_side].twin = z;
            q->e[z].twin = prev_side;
        } else {
            first_side = z;
        }
        prev_side = y;
        q->f[fi].edge = x;
        sw_qh_face_update(q, fi);
        sw_qh_touch(q, fi);
    }
    q->e[prev_side].twin = first_side;
    q->e[first_side].twin = prev_side;

    /* The seen faces go; their points wait to be given back, and the
     * vertices inside the region (hidden by the eye; against a merged face,
     * which is planar only within tol / 2, not always by much) go to the
     * final check. */
    for (int i = 0; i < q->visible.n; ++i) {
        const int fi = q->visible.v[i];
        const int e0 = q->f[fi].edge;
        int e = e0;
        do {
            const int nx = q->e[e].next;
            sw_qh_free_edge(q, e);
            e = nx;
        } while (e != e0);
        sw_qh_free_face(q, fi);
    }

    /* Merges, over the cone's faces: the k newest entries of the touched
     * list, which only grows at its head (a dead face keeps its link). */
    const int cone = q->touched;
    for (int mode = MERGE_WRT_LARGER; mode <= MERGE_NONCONVEX; ++mode) {
        for (int fi = cone, i = 0; i < k; fi = q->f[fi].touched_next, ++i) {
            while (q->f[fi].alive && sw_qh_merge_one(q, fi, mode)) {
            }
        }
    }

    /* Give the unclaimed points to the farthest face they are outside of,
     * among the faces made or changed in this step. */
    int pt = q->unclaimed;
    q->unclaimed = q->unclaimed_tail = -1;
    while (pt >= 0) {
        const int nx = q->next_point[pt];
        int best = -1;
        sw_wide top = -INFINITY;
        for (int fi = q->touched; fi >= 0; fi = q->f[fi].touched_next) {
            if (q->f[fi].alive) {
                const sw_wide d = sw_qh_face_distance(q, fi, q->p[pt]);
                if (d > top) {
                    top = d;
                    best = fi;
                }
            }
        }
        if (top > q->tol && !sw_qh_add_outside(q, best, pt)) {
            return -1;
        }
        pt = nx;
    }
    return 1;
}

/* ---- the initial tetrahedron ------------------------------------------------------ */

/* Finds four points spanning the most volume it easily can (extreme points,
 * the farthest from their line, then from their plane) and builds the
 * tetrahedron; false when every point lies within tol of a plane. */
bool sw_qh_initial_simplex(qh* q, const int* idx, int m, int out[4])
{
    int ext[6];
    for (int k = 0; k < 3; ++k) {
        ext[2 * k] = ext[2 * k + 1] = idx[0];
    }
    for (int i = 1; i < m; ++i) {
        const sw_wvec v = q->p[idx[i]];
        const sw_wide c[3] = {v.x, v.y, v.z};
        for (int k = 0; k < 3; ++k) {
            const sw_wvec lo = q->p[ext[2 * k]], hi = q->p[ext[2 * k + 1]];
            const sw_wide clo[3] = {lo.x, lo.y, lo.z}, chi[3] = {hi.x, hi.y, hi.z};
            if (c[k] < clo[k]) {
                ext[2 * k] = idx[i];
            }
            if (c[k] > chi[k]) {
                ext[2 * k + 1] = idx[i];
            }
        }
    }
    sw_wide best = -1;
    int i0 = idx[0], i1 = idx[0];
    for (int a = 0; a < 6; ++a) {
        for (int b = a + 1; b < 6; ++b) {
            const sw_wvec d = sw_wsub(q->p[ext[b]], q->p[ext[a]]);
            const sw_wide len_sq = sw_wdot(d, d);
            if (len_sq > best) {
                best = len_sq;
                i0 = ext[a];
                i1 = ext[b];
            }
        }
    }
    if (!(sw_wide_sqrt(best) > q->tol)) {
        return false;
    }
    const sw_wvec p0 = q->p[i0];
    sw_wvec u = sw_wsub(q->p[i1], p0);
    u = wscale(u, 1 / sw_wide_sqrt(sw_wdot(u, u)));
    best = -1;
    int i2 = i0;
    for (int i = 0; i < m; ++i) {
        const sw_wvec c = sw_wcross(sw_wsub(q->p[idx[i]], p0), u);
        const sw_wide d_sq = sw_wdot(c, c);
        if (d_sq > best) {
            best = d_sq;
            i2 = idx[i];
        }
    }
    if (!(sw_wide_sqrt(best) > q->tol)) {
        return false;
    }
    sw_wvec n = sw_wcross_acc(sw_wsub(q->p[i1], p0), sw_wsub(q->p[i2], p0));
    n = wscale(n, 1 / sw_wide_sqrt(sw_wdot(n, n)));
    best = 0;
    int i3 = i0;
    for (int i = 0; i < m; ++i) {
        const sw_wide d = sw_wdot(n, sw_wsub(q->p[idx[i]], p0));
        if ((d < 0 ? -d : d) > (best < 0 ? -best : best)) {
            best = d;
            i3 = idx[i];
        }
    }
    if (!((best < 0 ? -best : best) > q->tol)) {
        return false;
    }
    if (best > 0) {
        /* The fourth point is sw_qh_above (0, 1, 2): turn that face over. */
        const int t = i1;
        i1 = i2;
        i2 = t;
    }
    out[0] = i0;
    out[1] = i1;
    out[2] = i2;
    out[3] = i3;
    return true;
}

bool sw_qh_build_tetrahedron(qh* q, const int v[4])
{
    static const int tri[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
    if (!sw_qh_reserve_pools(q, 12, 4)) {
        return false;
    }
    int edges[12];
    for (int t = 0; t < 4; ++t) {
        const int fi = sw_qh_new_face(q);
        for (int j = 0; j < 3; ++j) {
            edges[3 * t + j] = sw_qh_new_edge(q);
        }
        for (int j = 0; j < 3; ++j) {
            const int e = edges[3 * t + j];
            q->e[e].head = v[tri[t][(j + 1) % 3]];
            q->e[e].next = edges[3 * t + (j + 1) % 3];
            q->e[e].prev = edges[3 * t + (j + 2) % 3];
            q->e[e].face = fi;
        }
        q->f[fi].edge = edges[3 * t];
    }
    for (int a = 0; a < 12; ++a) {
        for (int b = 0; b < 12; ++b) {
            if (q->e[edges[a]].head == tail_of(q, edges[b]) && tail_of(q, edges[a]) == q->e[edges[b]].head) {
                q->e[edges[a]].twin = edges[b];
            }
        }
    }
    for (int fi = 0; fi < 4; ++fi) {
        sw_qh_face_update(q, fi);
    }
    return true;
}
