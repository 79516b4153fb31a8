/* The hull builder: merging faces that are coplanar within the
 * tolerance, or not convex across an edge. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "shapes/hull_internal.h"

/* ---- merging faces ----------------------------------------------------------------- */

typedef struct merge_chain {
    int first, last; /* the run of fi's edges that border g */
} merge_chain;

/* Whether every face around vertex u (entered by half-edge h) other than
 * fi and g has its vertices within `limit` of the plane (n, offset). */
static bool flat_star(const qh* q, int h, int fi, int g, sw_wvec n, sw_wide offset, sw_wide limit)
{
    int x = h;
    do {
        const int face = q->e[x].face;
        if (face != fi && face != g) {
            int y = x;
            do {
                const sw_wide d = sw_wdot(n, q->p[q->e[y].head]) - offset;
                if (!(d <= limit && -d <= limit)) {
                    return false;
                }
                y = q->e[y].next;
            } while (y != x);
        }
        x = q->e[q->e[x].next].twin;
    } while (x != h);
    return true;
}

/* Whether faces fi and g = the face across fi's edge e may merge: they
 * share one run of edges, the merged face is planar within tol / 2, and
 * convex within tol / 2 at the two corners where the loops join, unless
 * the faces around such a corner are flat with the merged face too: a
 * point in the middle of a face is surrounded by coplanar faces whose
 * pairwise merges are not convex at it until the last one, which leaves it
 * inside. */
static bool can_merge(qh* q, int fi, int e, merge_chain* chain)
{
    const int g = q->e[q->e[e].twin].face;
    if (g == fi) {
        return false;
    }
    /* One run of shared edges in fi, shorter than either loop. */
    int shared = 0, runs = 0, x = q->f[fi].edge;
    do {
        const bool s = q->e[q->e[x].twin].face == g;
        const bool s_next = q->e[q->e[q->e[x].next].twin].face == g;
        shared += s;
        runs += s && !s_next;
        x = q->e[x].next;
    } while (x != q->f[fi].edge);
    if (runs != 1 || shared >= q->f[fi].count || shared >= q->f[g].count) {
        return false;
    }
    int first = e, last = e;
    while (q->e[q->e[q->e[first].prev].twin].face == g) {
        first = q->e[first].prev;
    }
    while (q->e[q->e[q->e[last].next].twin].face == g) {
        last = q->e[last].next;
    }
    /* g's edges bordering fi must be exactly the twins of the run. */
    int g_shared = 0;
    x = q->f[g].edge;
    do {
        g_shared += q->e[q->e[x].twin].face == fi;
        x = q->e[x].next;
    } while (x != q->f[g].edge);
    if (g_shared != shared) {
        return false;
    }

    /* The merged loop: fi's vertices from head(next(last)) round to
     * u = head(prev(first)), then g's off the run, up to w = head(last). */
    const int p = q->e[first].prev, nx = q->e[last].next;
    const int gn = q->e[q->e[first].twin].next, gp = q->e[q->e[last].twin].prev;
    q->loop.n = 0;
    for (x = nx;; x = q->e[x].next) {
        if (!ivec_push(&q->loop, q->e[x].head)) {
            return false;
        }
        if (x == p) {
            break;
        }
    }
    const int iu = q->loop.n - 1;
    for (x = gn;; x = q->e[x].next) {
        if (!ivec_push(&q->loop, q->e[x].head)) {
            return false;
        }
        if (x == gp) {
            break;
        }
    }
    const int iw = q->loop.n - 1;
    const int* vs = q->loop.v;
    const int count = q->loop.n;

    /* The merged plane: Newell's vectors add up over faces sharing edges;
     * the offset is the mean over the loop. Every vertex of both faces
     * (the run's inner ones too) must lie within tol / 2 of it. */
    const sw_wvec nw = wadd(q->f[fi].newell, q->f[g].newell);
    const sw_wide len = sw_wide_sqrt(sw_wdot(nw, nw));
    if (!(len > 0)) {
        return false;
    }
    const sw_wvec n = wscale(nw, 1 / len);
    const sw_wide limit = q->merge / 2;
    /* And turn neither face's normal by more than limit radians. Queries
     * take face normals as separating axes; an axis turned by a reaches
     * a * 2 (the hull's extent, about 2 here) off across the hull, so
     * this keeps every face's plane as good as its vertices. Planarity
     * alone would not: two thin faces along a rim, each tol wide, merged
     * within tol, turn by about a radian. */
    const sw_wide lim2 = limit * limit;
    for (int k = 0; k < 2; ++k) {
        const sw_wvec c = sw_wcross(n, q->f[k ? g : fi].normal);
        if (!(sw_wdot(c, c) <= lim2)) {
            return false;
        }
    }
    sw_wide sum = 0;
    for (int i = 0; i < count; ++i) {
        sum += sw_wdot(n, q->p[vs[i]]);
    }
    const sw_wide offset = sum / count;
    for (int i = 0; i < count; ++i) {
        const sw_wide d = sw_wdot(n, q->p[vs[i]]) - offset;
        if (!(d <= limit && -d <= limit)) {
            return false;
        }
    }
    for (x = first; x != last; x = q->e[x].next) {
        const sw_wide d = sw_wdot(n, q->p[q->e[x].head]) - offset;
        if (!(d <= limit && -d <= limit)) {
            return false;
        }
    }

    /* The corners where the loops join: u between a = tail(p) and
     * b = head(gn), w between c = tail(gp) and d = head(nx). */
    const int corners[2][4] = {{iu, p, p, gn}, {iw, last, gp, nx}};
    for (int i = 0; i < 2; ++i) {
        const int k = corners[i][0];
        const int a = vs[(k + count - 1) % count], u = vs[k], b = vs[(k + 1) % count];
        /* Not turning inward by more than tol / 2, unless the faces around
         * it are flat with the merged face. */
        if (!(sw_qh_corner_out(q, a, u, b, n) >= -limit) && !flat_star(q, corners[i][1], fi, g, n, offset, limit)) {
            return false;
        }
        /* Left on the merged face and one other, u will be removed: only
         * if it then lies within tol of both (see remove_two_face_vertex). */
        const int h = q->e[q->e[corners[i][2]].twin].face;
        if (h == q->e[q->e[corners[i][3]].twin].face) {
            if (!sw_qh_below_without(q, nw, vs, count, k, q->merge)) {
                return false;
            }
            /* h's loop from u: the edge entering u is the one before
             * u -> a (the twin of a -> u). */
            const int from_u = q->e[corners[i][2]].twin;
            if (q->f[h].count > 3 && (!sw_qh_loop_of(q, &q->loop2, q->e[from_u].prev) ||
                                      !sw_qh_below_without(q, q->f[h].newell, q->loop2.v, q->loop2.n, 0, q->merge))) {
                return false;
            }
        }
    }
    chain->first = first;
    chain->last = last;
    return true;
}

/* Merges g = the face across the run `chain` of fi's edges into fi. The
 * run's inner vertices leave the hull; vertices left on two faces at the
 * ends of the run are removed. */
static void merge_faces(qh* q, int fi, merge_chain chain)
{
    const int first = chain.first, last = chain.last;
    const int g = q->e[q->e[first].twin].face;
    const int p = q->e[first].prev, nx = q->e[last].next;
    const int gn = q->e[q->e[first].twin].next, gp = q->e[q->e[last].twin].prev;
    for (int x = gn;; x = q->e[x].next) {
        q->e[x].face = fi;
        if (x == gp) {
            break;
        }
    }
    for (int x = first;;) {
        const int after = q->e[x].next;
        sw_qh_free_edge(q, q->e[x].twin);
        sw_qh_free_edge(q, x);
        if (x == last) {
            break;
        }
        x = after;
    }
    q->e[p].next = gn;
    q->e[gn].prev = p;
    q->e[gp].next = nx;
    q->e[nx].prev = gp;
    q->f[fi].edge = p;
    sw_qh_free_face(q, g);
    sw_qh_face_update(q, fi);
    sw_qh_touch(q, fi);
    sw_qh_add_work(q, fi);
}

/* Tidies the faces in the work list after merges: a vertex left on two
 * faces is removed, or else the two faces merge; a corner turning inward
 * by more than tol / 2 whose surrounding faces are flat with its face is
 * absorbed by merging them in (it was a point in the middle of a face). */
static void settle(qh* q)
{
    while (q->work >= 0) {
        const int fi = q->work;
        q->work = q->f[fi].work_next;
        q->f[fi].in_work = 0;
        if (!q->f[fi].alive) {
            continue;
        }
        const int e0 = q->f[fi].edge;
        int e = e0;
        do {
            const int out = q->e[e].next;
            const int h = q->e[q->e[e].twin].face;
            merge_chain chain;
            if (h == q->e[q->e[out].twin].face) {
                if (sw_qh_remove_two_face_vertex(q, fi, e)) {
                    break;
                }
                if (can_merge(q, fi, e, &chain)) {
                    merge_faces(q, fi, chain);
                    break;
                }
            } else if (sw_qh_corner_out(q, tail_of(q, e), q->e[e].head, q->e[out].head, q->f[fi].normal) < -q->merge / 2 &&
                       flat_star(q, e, fi, fi, q->f[fi].normal, q->f[fi].offset, q->merge / 2) &&
                       can_merge(q, fi, out, &chain)) {
                merge_faces(q, fi, chain);
                break;
            }
            e = out;
        } while (e != e0);
    }
}


/* Merges one neighbour of fi into it when their edge is not convex by a
 * margin of tol: in the first pass only when the larger face finds the
 * other's centroid not clearly below it, in the second when either does. */
bool sw_qh_merge_one(qh* q, int fi, int mode)
{
    if (q->merge < 0) {
        return false; /* merging off: the exact hull */
    }
    const int e0 = q->f[fi].edge;
    int e = e0;
    do {
        const int g = q->e[q->e[e].twin].face;
        const qh_face* a = &q->f[fi];
        const qh_face* b = &q->f[g];
        const sw_wide above_a = sw_qh_face_distance(q, fi, b->centroid);
        const sw_wide above_b = sw_qh_face_distance(q, g, a->centroid);
        bool merge;
        if (mode == MERGE_WRT_LARGER) {
            merge = a->area > b->area ? above_a > -q->merge : above_b > -q->merge;
        } else {
            merge = above_a > -q->merge || above_b > -q->merge;
        }
        merge_chain chain;
        if (merge && can_merge(q, fi, e, &chain)) {
            merge_faces(q, fi, chain);
            settle(q);
            return true;
        }
        e = q->e[e].next;
    } while (e != e0);
    return false;
}
