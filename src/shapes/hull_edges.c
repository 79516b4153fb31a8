/* The hull builder's half-edge structure: pools, faces' planes and
 * outside sets, and the removal of vertices left on two faces. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "shapes/hull_internal.h"

/* Makes room for `edges` new half-edges and `faces` new faces, so that the
 * changes that follow cannot fail half-way. */
bool sw_qh_reserve_pools(qh* q, int edges, int faces)
{
    if (edges > q->e_cap - q->e_n) {
        if (q->e_n > INT_MAX / 2 - edges) {
            return false;
        }
        int cap = 2 * (q->e_n + edges);
        qh_edge* e = realloc(q->e, (size_t)cap * sizeof *e);
        if (!e) {
            return false;
        }
        q->e = e;
        q->e_cap = cap;
    }
    if (faces > q->f_cap - q->f_n) {
        if (q->f_n > INT_MAX / 2 - faces) {
            return false;
        }
        int cap = 2 * (q->f_n + faces);
        qh_face* f = realloc(q->f, (size_t)cap * sizeof *f);
        if (!f) {
            return false;
        }
        q->f = f;
        q->f_cap = cap;
    }
    return true;
}

int sw_qh_new_edge(qh* q)
{
    int i = q->e_free;
    if (i >= 0) {
        q->e_free = q->e[i].next;
    } else {
        i = q->e_n++;
    }
    q->e[i] = (qh_edge){-1, -1, -1, -1, -1};
    return i;
}

void sw_qh_free_edge(qh* q, int i)
{
    q->e[i].face = -1;
    q->e[i].next = q->e_free;
    q->e_free = i;
}

int sw_qh_new_face(qh* q)
{
    int i = q->f_free;
    if (i >= 0) {
        q->f_free = q->f[i].edge;
    } else {
        i = q->f_n++;
    }
    memset(&q->f[i], 0, sizeof q->f[i]);
    q->f[i].edge = -1;
    q->f[i].outside = q->f[i].outside_tail = -1;
    q->f[i].alive = true;
    return i;
}

/* Moves the face's outside points to the unclaimed list. */
static void release_points(qh* q, int fi)
{
    qh_face* f = &q->f[fi];
    if (f->outside < 0) {
        return;
    }
    if (q->unclaimed < 0) {
        q->unclaimed = f->outside;
    } else {
        q->next_point[q->unclaimed_tail] = f->outside;
    }
    q->unclaimed_tail = f->outside_tail;
    f->outside = f->outside_tail = -1;
}

void sw_qh_free_face(qh* q, int i)
{
    release_points(q, i);
    q->f[i].alive = false;
    q->f[i].edge = q->f_free;
    q->f_free = i;
}

/* Newell's normal (relative to the first vertex), centroid, plane. */
void sw_qh_face_update(qh* q, int fi)
{
    qh_face* f = &q->f[fi];
    const int e0 = f->edge;
    const sw_wvec v0 = q->p[q->e[e0].head];
    sw_wvec n = {0, 0, 0}, c = v0;
    int count = 1;
    for (int e = q->e[e0].next; e != e0; e = q->e[e].next) {
        const sw_wvec v = q->p[q->e[e].head];
        const int nx = q->e[e].next;
        if (nx != e0) {
            n = wadd(n, sw_wcross_acc(sw_wsub(v, v0), sw_wsub(q->p[q->e[nx].head], v0)));
        }
        c = wadd(c, v);
        ++count;
    }
    const sw_wide len = sw_wide_sqrt(sw_wdot(n, n));
    f->count = count;
    f->newell = n;
    f->normal = len > 0 ? wscale(n, 1 / len) : (sw_wvec){0, 0, 0};
    f->area = len / 2;
    f->centroid = wscale(c, (sw_wide)1 / count);
    f->offset = sw_wdot(f->normal, f->centroid);
}

sw_wide sw_qh_face_distance(const qh* q, int fi, sw_wvec p) { return sw_wdot(q->f[fi].normal, p) - q->f[fi].offset; }

/* Adds the face to this step's list of faces made or changed, which the
 * unclaimed points are given back to. */
void sw_qh_touch(qh* q, int fi)
{
    if (q->f[fi].touched != q->stamp) {
        q->f[fi].touched = q->stamp;
        q->f[fi].touched_next = q->touched;
        q->touched = fi;
    }
}

void sw_qh_add_work(qh* q, int fi)
{
    if (q->f[fi].in_work != q->stamp) {
        q->f[fi].in_work = q->stamp;
        q->f[fi].work_next = q->work;
        q->work = fi;
    }
}

bool sw_qh_add_outside(qh* q, int fi, int pt)
{
    qh_face* f = &q->f[fi];
    q->next_point[pt] = -1;
    if (f->outside < 0) {
        f->outside = pt;
    } else {
        q->next_point[f->outside_tail] = pt;
    }
    f->outside_tail = pt;
    if (!f->in_queue) {
        if (!ivec_push(&q->queue, fi)) {
            return false;
        }
        f->in_queue = true;
    }
    return true;
}

/* How far corner u of a loop a -> u -> b lies outside the chord a -> b,
 * in the plane of normal n (negative when the corner turns inward). */
sw_wide sw_qh_corner_out(const qh* q, int a, int u, int b, sw_wvec n)
{
    const sw_wvec pa = q->p[a];
    const sw_wvec ab = sw_wsub(q->p[b], pa);
    const sw_wide len = sw_wide_sqrt(sw_wdot(ab, ab));
    const sw_wide out = sw_wdot(sw_wcross_acc(sw_wsub(q->p[u], pa), ab), n);
    return len > 0 ? out / len : 0;
}

/* Whether vertex vs[xi] of the loop vs[0 .. n-1] (Newell's vector nw)
 * lies at most `limit` above the plane the loop has without it. Removing
 * x from a -> x -> b takes cross(x - a, b - a) off Newell's vector. */
bool sw_qh_below_without(const qh* q, sw_wvec nw, const int* vs, int n, int xi, sw_wide limit)
{
    const sw_wvec x = q->p[vs[xi]], a = q->p[vs[(xi + n - 1) % n]], b = q->p[vs[(xi + 1) % n]];
    sw_wvec m = sw_wsub(nw, sw_wcross_acc(sw_wsub(x, a), sw_wsub(b, a)));
    const sw_wide len = sw_wide_sqrt(sw_wdot(m, m));
    if (!(len > 0) || n < 4) {
        return false;
    }
    m = wscale(m, 1 / len);
    sw_wide sum = 0;
    for (int i = 0; i < n; ++i) {
        if (i != xi) {
            sum += sw_wdot(m, q->p[vs[i]]);
        }
    }
    return sw_wdot(m, x) - sum / (n - 1) <= limit;
}

/* The vertices of the loop of half-edge `start` into `to`, from
 * head(start); false when out of memory. */
bool sw_qh_loop_of(qh* q, ivec* to, int start)
{
    to->n = 0;
    int e = start;
    do {
        if (!ivec_push(to, q->e[e].head)) {
            return false;
        }
        e = q->e[e].next;
    } while (e != start);
    return true;
}

/* ---- removing vertices that are left on two faces ----------------------------- */

/* Vertex x = head(ein) of face fi, whose two edges ein (z -> x) and
 * out (x -> y) both border face h: x lies on the edge between the two faces
 * only, so it is removed and z -> y becomes one edge. A triangle h (or fi)
 * then has no area left and is removed too. Returns false when the
 * neighbourhood is not the expected one (nothing is changed). */
bool sw_qh_remove_two_face_vertex(qh* q, int fi, int ein)
{
    const int out = q->e[ein].next;
    const int to = q->e[out].twin; /* y -> x, in h */
    const int ti = q->e[ein].twin; /* x -> z, in h */
    const int h = q->e[to].face;
    if (q->e[to].next != ti) {
        return false;
    }
    if (q->f[fi].count == 3) {
        /* Removing x from fi would leave two vertices: remove fi instead,
         * seen from h, if h has room. */
        return q->f[h].count > 3 && sw_qh_remove_two_face_vertex(q, h, to);
    }
    /* Only if x ends within tol of the faces that lose it (the other faces
     * have it below them already; a point within tol of the hull is not a
     * vertex): otherwise removing it would cut the hull. A triangle h goes
     * altogether. */
    if (!sw_qh_loop_of(q, &q->loop, ein) || !sw_qh_below_without(q, q->f[fi].newell, q->loop.v, q->loop.n, 0, q->merge)) {
        return false;
    }
    if (q->f[h].count > 3 &&
        (!sw_qh_loop_of(q, &q->loop, to) || !sw_qh_below_without(q, q->f[h].newell, q->loop.v, q->loop.n, 0, q->merge))) {
        return false;
    }
    const int y = q->e[out].head;
    if (q->f[h].count == 3) {
        const int k = q->e[ti].next; /* z -> y */
        const int kk = q->e[k].twin; /* y -> z */
        const int kf = q->e[kk].face;
        if (q->e[k].next != to || kf == fi || kf == h) {
            return false;
        }
        q->e[ein].head = y;
        q->e[ein].next = q->e[out].next;
        q->e[q->e[out].next].prev = ein;
        q->f[fi].edge = ein;
        q->e[ein].twin = kk;
        q->e[kk].twin = ein;
        sw_qh_free_edge(q, out);
        sw_qh_free_edge(q, to);
        sw_qh_free_edge(q, ti);
        sw_qh_free_edge(q, k);
        sw_qh_free_face(q, h);
        sw_qh_face_update(q, fi);
        sw_qh_touch(q, fi);
        sw_qh_touch(q, kf);
        sw_qh_add_work(q, fi);
        sw_qh_add_work(q, kf);
        return true;
    }
    const int z = q->e[ti].head;
    q->e[ein].head = y;
    q->e[ein].next = q->e[out].next;
    q->e[q->e[out].next].prev = ein;
    q->f[fi].edge = ein;
    q->e[to].head = z;
    q->e[to].next = q->e[ti].next;
    q->e[q->e[ti].next].prev = to;
    q->f[h].edge = to;
    q->e[ein].twin = to;
    q->e[to].twin = ein;
    sw_qh_free_edge(q, out);
    sw_qh_free_edge(q, ti);
    sw_qh_face_update(q, fi);
    sw_qh_face_update(q, h);
    sw_qh_touch(q, fi);
    sw_qh_touch(q, h);
    sw_qh_add_work(q, fi);
    sw_qh_add_work(q, h);
    return true;
}
