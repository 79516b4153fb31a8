/* Convex hulls from point sets: quickhull with polygon faces.
 *
 * Method. Quickhull (Barber, Dobkin and Huhdanpaa, "The Quickhull Algorithm
 * for Convex Hulls", 1996): start from a tetrahedron of extreme points, give
 * every other point to a face it lies outside of, and repeatedly add the
 * farthest point of a face: the faces it sees are replaced by a cone of
 * triangles from the point to their boundary (the horizon). Faces are
 * polygons in a half-edge structure, merged as soon as a new face is made,
 * in the manner of J. Lloyd's QuickHull3D, so that near-coplanar slivers
 * never live long enough to mislead later steps.
 *
 * Tolerance. tol = SW_TOLERANCE * h, h = the largest half-extent of the
 * input's bounding box: the hull's own size, not its distance from the
 * origin, so that a small hull described far from its origin keeps faces
 * (and normals) as accurate as the same hull near it. A tolerance that
 * followed the largest |coordinate| merged faces of a hull 1e2 from its
 * origin and 0.2 across by 1e-3, turning its normals by 1e-2 rad:
 * - a point becomes a vertex only if it lies more than tol outside a face of
 *   the hull built so far, so duplicates, inner points and points within tol
 *   of the surface (on a face or an edge) are not vertices;
 * - a new point sees (replaces) every face it is above, beyond rounding
 *   noise, so that each new face is convex against the faces it joins; as
 *   faces are convex only within tol, a point can be above a small face's
 *   plane far from it and below its neighbours (the plane's tilt times the
 *   distance), and the new faces would fold: so each new face must have
 *   the kept face it joins and the whole horizon below it (within 4 tol),
 *   and the kept faces that break this are seen too;
 * - two adjacent faces merge when the centroid of either lies less than m
 *   below the other's plane (coplanar within m, or not convex), provided the
 *   merged face keeps every vertex within m/2 of its plane, turns
 *   neither face's normal by more than m/2 radians (in units where the
 *   hull's half-extent is about 1: queries use face normals as separating
 *   axes) and no corner turns inward by more than m/2; m = tol at first
 *   (see below). A corner
 *   that turns inward is allowed when the faces around it are flat with the
 *   merged face (a point in the middle of a face, surrounded by coplanar
 *   faces); they are then merged in too;
 * - a vertex left on two faces (on the edge between them) is removed when
 *   it then lies within m of both, and otherwise the two faces merge; a
 *   merge that would leave a vertex that can be neither is refused;
 * - the input is flat when the (checked) hull is at most 2 tol thick
 *   along a face normal (every point within tol of a plane).
 * Quickhull gives a point its deleted face's place only among the faces it
 * makes, and merges and removals move the surface inward a little, so
 * every point is checked against the finished hull (but those inside its
 * inscribed ball); any more than tol outside goes back and quickhull
 * resumes.
 *
 * Guarantees by checking. On sets whose features are themselves about tol
 * in size (slabs a few tol thick, jitter of about tol), merges that are each
 * within tol can add up to more. So the finished hull is checked (faces
 * planar and convex within 0.9 tol, every vertex on three faces or more,
 * every vertex below every face plane within 0.9 tol, no point left
 * outside); if it fails, or a point could not be added without a folded
 * cone, it is built again with m = tol / 8, then with merges of exactly
 * coplanar faces only (within rounding), then with no merges at all, which
 * gives the exact hull up to rounding on all but adversarial sets; a set
 * whose every attempt fails is refused (SW_HULL_DEGENERATE). In a soak of
 * the unit tests (about 330 000 random and adversarial sets, both
 * precisions) 96% of the hulls
 * passed at the first level, nearly all others at the second, 900 at the
 * third and 2 at the last.
 *
 * Numbers. The points are taken relative to their bounding-box centre
 * (rounded to sw_real, so the differences are exact) and scaled by a power
 * of two so that every coordinate is at most about 1, in sw_wide. Normals
 * come from cross products accurate to a few ulps of their own length (fma,
 * where the products cancel), so that even a sliver's plane is right; plane
 * distances carry rounding errors of a few SW_WIDE_EPSILON, against a
 * tolerance of at least SW_TOLERANCE / 2 in these units: 4e6 times larger in
 * the double build (long double), 5e10 in the float build.
 *
 * Topology. The faces a new point sees are grown one by one from the face
 * it was assigned to, and a face joins only if the region stays a disk (its
 * boundary one loop), so neither rounding nor the tolerance can produce a
 * horizon that is not a single loop. Merges are refused when two faces share
 * more than one run of edges. The output is checked (every face a polygon,
 * each edge on two faces, Euler's formula) once more as it is written.
 *
 * Memory. The work structures grow with realloc (indices, never pointers);
 * no allocation happens in the middle of a change of the half-edge
 * structure: the pools are reserved before each cone is built. The result
 * is one block holding the sw_hull and all its arrays. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifdef SWEEP_DOUBLE
#define wide_frexp frexpl
#define wide_ldexp ldexpl
#else
#define wide_frexp frexp
#define wide_ldexp ldexp
#endif

/* ---- small vector helpers in the wide type --------------------------------- */

static sw_wvec wadd(sw_wvec a, sw_wvec b) { return (sw_wvec){a.x + b.x, a.y + b.y, a.z + b.z}; }
static sw_wvec wscale(sw_wvec a, sw_wide s) { return (sw_wvec){a.x * s, a.y * s, a.z * s}; }

/* ---- growable int arrays ------------------------------------------------------ */

typedef struct ivec {
    int* v;
    int n, cap;
} ivec;

static bool ivec_reserve(ivec* a, int extra)
{
    if (extra <= a->cap - a->n) {
        return true;
    }
    int cap = a->cap > 0 ? a->cap : 64;
    while (cap - a->n < extra) {
        if (cap > INT_MAX / 2) {
            return false;
        }
        cap *= 2;
    }
    int* v = realloc(a->v, (size_t)cap * sizeof *v);
    if (!v) {
        return false;
    }
    a->v = v;
    a->cap = cap;
    return true;
}

static bool ivec_push(ivec* a, int x)
{
    if (!ivec_reserve(a, 1)) {
        return false;
    }
    a->v[a->n++] = x;
    return true;
}

/* ---- the half-edge structure -------------------------------------------------- */

/* A half-edge of a face's counter-clockwise loop (seen from outside), from
 * the head of `prev` to `head`. */
typedef struct qh_edge {
    int head; /* point index */
    int next, prev, twin, face;
} qh_edge;

typedef struct qh_face {
    int edge;         /* a half-edge of the loop; the free-list link when not alive */
    int count;        /* vertices */
    sw_wvec newell;   /* Newell's vector: twice the vector area */
    sw_wvec normal;   /* unit, outward (0 for a face without area) */
    sw_wide offset;   /* normal . x on the plane (through the centroid) */
    sw_wvec centroid; /* mean of the vertices */
    sw_wide area;
    /* Points outside this face (more than tol above it), linked by
     * qh.next_point. */
    int outside, outside_tail;
    /* Per-step marks: equal to qh.stamp when set in the current step. */
    unsigned visible, rejected, queued, touched, in_work;
    int touched_next, work_next; /* intrusive lists of the current step */
    bool alive, in_queue;
} qh_face;

typedef struct qh {
    const sw_wvec* p; /* scaled points */
    int* next_point;  /* links of the outside lists */
    unsigned* vmark;  /* per point: on the boundary of the visible region */
    sw_wide tol;
    sw_wide noise; /* bound on the rounding error of a plane distance */
    sw_wide merge; /* the scale of merging (tol, or less: see build) */
    bool folded;   /* a point could not be added (find_horizon) */

    qh_edge* e;
    int e_n, e_cap, e_free;
    qh_face* f;
    int f_n, f_cap, f_free;

    unsigned stamp;
    ivec queue; /* faces with outside points, first in first out */
    int queue_head;
    ivec visible, cand, defer, horizon, loop, loop2;
    int unclaimed, unclaimed_tail; /* points of deleted faces */
    int* degree;                   /* per point: faces around it (hull_valid) */
    int touched;                   /* faces made or changed in this step */
    int work;                      /* faces to check for two-face vertices */
} qh;

static int tail_of(const qh* q, int e) { return q->e[q->e[e].prev].head; }

/* Makes room for `edges` new half-edges and `faces` new faces, so that the
 * changes that follow cannot fail half-way. */
static bool reserve_pools(qh* q, int edges, int faces)
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

static int new_edge(qh* q)
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

static void free_edge(qh* q, int i)
{
    q->e[i].face = -1;
    q->e[i].next = q->e_free;
    q->e_free = i;
}

static int new_face(qh* q)
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

static void free_face(qh* q, int i)
{
    release_points(q, i);
    q->f[i].alive = false;
    q->f[i].edge = q->f_free;
    q->f_free = i;
}

/* Newell's normal (relative to the first vertex), centroid, plane. */
static void face_update(qh* q, int fi)
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

static sw_wide face_distance(const qh* q, int fi, sw_wvec p) { return sw_wdot(q->f[fi].normal, p) - q->f[fi].offset; }

/* Adds the face to this step's list of faces made or changed, which the
 * unclaimed points are given back to. */
static void touch(qh* q, int fi)
{
    if (q->f[fi].touched != q->stamp) {
        q->f[fi].touched = q->stamp;
        q->f[fi].touched_next = q->touched;
        q->touched = fi;
    }
}

static void add_work(qh* q, int fi)
{
    if (q->f[fi].in_work != q->stamp) {
        q->f[fi].in_work = q->stamp;
        q->f[fi].work_next = q->work;
        q->work = fi;
    }
}

static bool add_outside(qh* q, int fi, int pt)
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
static sw_wide corner_out(const qh* q, int a, int u, int b, sw_wvec n)
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
static bool below_without(const qh* q, sw_wvec nw, const int* vs, int n, int xi, sw_wide limit)
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
static bool loop_of(qh* q, ivec* to, int start)
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
static bool remove_two_face_vertex(qh* q, int fi, int ein)
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
        return q->f[h].count > 3 && remove_two_face_vertex(q, h, to);
    }
    /* Only if x ends within tol of the faces that lose it (the other faces
     * have it below them already; a point within tol of the hull is not a
     * vertex): otherwise removing it would cut the hull. A triangle h goes
     * altogether. */
    if (!loop_of(q, &q->loop, ein) || !below_without(q, q->f[fi].newell, q->loop.v, q->loop.n, 0, q->merge)) {
        return false;
    }
    if (q->f[h].count > 3 &&
        (!loop_of(q, &q->loop, to) || !below_without(q, q->f[h].newell, q->loop.v, q->loop.n, 0, q->merge))) {
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
        free_edge(q, out);
        free_edge(q, to);
        free_edge(q, ti);
        free_edge(q, k);
        free_face(q, h);
        face_update(q, fi);
        touch(q, fi);
        touch(q, kf);
        add_work(q, fi);
        add_work(q, kf);
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
    free_edge(q, out);
    free_edge(q, ti);
    face_update(q, fi);
    face_update(q, h);
    touch(q, fi);
    touch(q, h);
    add_work(q, fi);
    add_work(q, h);
    return true;
}

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
        if (!(corner_out(q, a, u, b, n) >= -limit) && !flat_star(q, corners[i][1], fi, g, n, offset, limit)) {
            return false;
        }
        /* Left on the merged face and one other, u will be removed: only
         * if it then lies within tol of both (see remove_two_face_vertex). */
        const int h = q->e[q->e[corners[i][2]].twin].face;
        if (h == q->e[q->e[corners[i][3]].twin].face) {
            if (!below_without(q, nw, vs, count, k, q->merge)) {
                return false;
            }
            /* h's loop from u: the edge entering u is the one before
             * u -> a (the twin of a -> u). */
            const int from_u = q->e[corners[i][2]].twin;
            if (q->f[h].count > 3 && (!loop_of(q, &q->loop2, q->e[from_u].prev) ||
                                      !below_without(q, q->f[h].newell, q->loop2.v, q->loop2.n, 0, q->merge))) {
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
        free_edge(q, q->e[x].twin);
        free_edge(q, x);
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
    free_face(q, g);
    face_update(q, fi);
    touch(q, fi);
    add_work(q, fi);
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
                if (remove_two_face_vertex(q, fi, e)) {
                    break;
                }
                if (can_merge(q, fi, e, &chain)) {
                    merge_faces(q, fi, chain);
                    break;
                }
            } else if (corner_out(q, tail_of(q, e), q->e[e].head, q->e[out].head, q->f[fi].normal) < -q->merge / 2 &&
                       flat_star(q, e, fi, fi, q->f[fi].normal, q->f[fi].offset, q->merge / 2) &&
                       can_merge(q, fi, out, &chain)) {
                merge_faces(q, fi, chain);
                break;
            }
            e = out;
        } while (e != e0);
    }
}

enum { MERGE_WRT_LARGER, MERGE_NONCONVEX };

/* Merges one neighbour of fi into it when their edge is not convex by a
 * margin of tol: in the first pass only when the larger face finds the
 * other's centroid not clearly below it, in the second when either does. */
static bool merge_one(qh* q, int fi, int mode)
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
        const sw_wide above_a = face_distance(q, fi, b->centroid);
        const sw_wide above_b = face_distance(q, g, a->centroid);
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
static bool above(const qh* q, sw_wvec n, sw_wvec a, int v) { return sw_wdot(n, sw_wsub(q->p[v], a)) > 4 * q->tol; }

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
            if (above(q, n, a, q->e[e].head)) {
                return kept;
            }
            e = q->e[e].next;
        } while (e != q->f[kept].edge);
        for (int j = 0; j < q->horizon.n; ++j) {
            const int hj = q->horizon.v[j];
            if (above(q, n, a, q->e[hj].head)) {
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
            if (!(face_distance(q, g, pe) > q->noise)) {
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
static int add_point(qh* q, int eye, int f0)
{
    ++q->stamp;
    const int found = find_horizon(q, eye, f0);
    if (found <= 0) {
        return found;
    }
    const int k = q->horizon.n;
    if (!reserve_pools(q, 3 * k, k)) {
        return -1;
    }
    q->touched = -1;
    q->work = -1;

    /* The cone: triangle (a, b, eye) over each horizon edge a -> b. */
    int first_side = -1, prev_side = -1;
    for (int i = 0; i < k; ++i) {
        const int h = q->horizon.v[i];
        const int a = tail_of(q, h), b = q->e[h].head, t = q->e[h].twin;
        const int fi = new_face(q);
        const int x = new_edge(q), y = new_edge(q), z = new_edge(q);
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
        face_update(q, fi);
        touch(q, fi);
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
            free_edge(q, e);
            e = nx;
        } while (e != e0);
        free_face(q, fi);
    }

    /* Merges, over the cone's faces: the k newest entries of the touched
     * list, which only grows at its head (a dead face keeps its link). */
    const int cone = q->touched;
    for (int mode = MERGE_WRT_LARGER; mode <= MERGE_NONCONVEX; ++mode) {
        for (int fi = cone, i = 0; i < k; fi = q->f[fi].touched_next, ++i) {
            while (q->f[fi].alive && merge_one(q, fi, mode)) {
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
                const sw_wide d = face_distance(q, fi, q->p[pt]);
                if (d > top) {
                    top = d;
                    best = fi;
                }
            }
        }
        if (top > q->tol && !add_outside(q, best, pt)) {
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
static bool initial_simplex(qh* q, const int* idx, int m, int out[4])
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
        /* The fourth point is above (0, 1, 2): turn that face over. */
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

static bool build_tetrahedron(qh* q, const int v[4])
{
    static const int tri[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
    if (!reserve_pools(q, 12, 4)) {
        return false;
    }
    int edges[12];
    for (int t = 0; t < 4; ++t) {
        const int fi = new_face(q);
        for (int j = 0; j < 3; ++j) {
            edges[3 * t + j] = new_edge(q);
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
        face_update(q, fi);
    }
    return true;
}

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
static sw_hull* output_hull(const qh* q, const sw_vec3* points, int n, sw_hull_error* error)
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

/* ---- the entry point ------------------------------------------------------------------- */

typedef struct point_key {
    sw_real x, y, z;
    int index;
} point_key;

static int cmp_point(const void* pa, const void* pb)
{
    const point_key* a = pa;
    const point_key* b = pb;
    if (a->x != b->x) {
        return a->x < b->x ? -1 : 1;
    }
    if (a->y != b->y) {
        return a->y < b->y ? -1 : 1;
    }
    if (a->z != b->z) {
        return a->z < b->z ? -1 : 1;
    }
    return (a->index > b->index) - (a->index < b->index);
}

static void qh_free(qh* q)
{
    free((void*)q->p);
    free(q->next_point);
    free(q->vmark);
    free(q->degree);
    free(q->e);
    free(q->f);
    free(q->queue.v);
    free(q->visible.v);
    free(q->cand.v);
    free(q->defer.v);
    free(q->horizon.v);
    free(q->loop.v);
    free(q->loop2.v);
}

/* Quickhull's loop: adds the farthest outside point of a face until no
 * face has any. False when out of memory. */
static bool run(qh* q)
{
    while (q->queue_head < q->queue.n) {
        const int fi = q->queue.v[q->queue_head++];
        if (q->queue_head == q->queue.n) {
            q->queue.n = q->queue_head = 0;
        }
        qh_face* f = &q->f[fi];
        const sw_wvec* p = q->p;
        f->in_queue = false;
        if (!f->alive || f->outside < 0) {
            continue;
        }
        /* The eye: the farthest outside point; points no longer outside
         * (the face may have changed since) are dropped. */
        int eye = -1;
        sw_wide best_d = q->tol;
        for (int pt = f->outside; pt >= 0; pt = q->next_point[pt]) {
            const sw_wide d = face_distance(q, fi, p[pt]);
            if (d > best_d) {
                best_d = d;
                eye = pt;
            }
        }
        int pt = f->outside;
        f->outside = f->outside_tail = -1;
        while (pt >= 0) {
            const int nx = q->next_point[pt];
            const sw_wide d = face_distance(q, fi, p[pt]);
            if (pt != eye && d > q->tol) {
                q->next_point[pt] = -1;
                if (f->outside < 0) {
                    f->outside = pt;
                } else {
                    q->next_point[f->outside_tail] = pt;
                }
                f->outside_tail = pt;
            }
            pt = nx;
        }
        if (eye < 0) {
            continue;
        }
        const int added = add_point(q, eye, fi);
        if (added < 0) {
            return false;
        }
        if (added == 0 && q->merge >= 0) {
            /* This merge level gives up (see build). Without merges the
             * faces are exact and no cone folds beyond rounding; if one
             * did, the eye would only be left out. */
            q->folded = true;
            return true;
        }
    }
    return true;
}

/* ---- checking a built hull ---------------------------------------------------------- */

/* Whether the loop of face fi, projected on its plane, is convex within
 * `limit`: it winds once counter-clockwise and every vertex lies within
 * limit of the boundary of the 2-D convex hull of the loop's vertices. */
static bool face_convex(qh* q, int fi, sw_wide limit)
{
    const sw_wvec n = q->f[fi].normal;
    /* A basis (u, w) of the plane with u x w = n. */
    sw_wvec u = (n.x < 0 ? -n.x : n.x) < (sw_wide)0.6 ? (sw_wvec){1, 0, 0} : (sw_wvec){0, 1, 0};
    u = sw_wmadd(u, -sw_wdot(u, n), n);
    u = wscale(u, 1 / sw_wide_sqrt(sw_wdot(u, u)));
    const sw_wvec w = sw_wcross(n, u);
    if (!loop_of(q, &q->loop, q->f[fi].edge) || !ivec_reserve(&q->loop2, 2 * q->loop.n + 1)) {
        return false;
    }
    const int count = q->loop.n;
    /* The hull of the projected loop: gift wrapping from the lowest point
     * (faces are small; count is at most a few hundred). */
    int start = 0;
    for (int i = 1; i < count; ++i) {
        const sw_wide ui = sw_wdot(q->p[q->loop.v[i]], u), us = sw_wdot(q->p[q->loop.v[start]], u);
        if (ui < us) {
            start = i;
        }
    }
    int* hull = q->loop2.v;
    int m = 0, cur = start;
    do {
        hull[m++] = cur;
        int next = (cur + 1) % count;
        for (int i = 0; i < count; ++i) {
            const sw_wvec a = q->p[q->loop.v[cur]];
            const sw_wvec b = sw_wsub(q->p[q->loop.v[next]], a), c = sw_wsub(q->p[q->loop.v[i]], a);
            const sw_wide turn = sw_wdot(b, u) * sw_wdot(c, w) - sw_wdot(b, w) * sw_wdot(c, u);
            const sw_wide bl = sw_wdot(b, u) * sw_wdot(b, u) + sw_wdot(b, w) * sw_wdot(b, w);
            const sw_wide cl = sw_wdot(c, u) * sw_wdot(c, u) + sw_wdot(c, w) * sw_wdot(c, w);
            if (turn < 0 || (turn == 0 && cl > bl)) {
                next = i;
            }
        }
        cur = next;
    } while (cur != start && m <= count);
    if (m > count) {
        return false;
    }
    /* Every loop vertex within limit of a hull edge, and the loop's area
     * (counter-clockwise) at least the hull's less the dents. */
    sw_wide loop_area = 0, hull_area = 0, perimeter = 0;
    const sw_wvec o = q->p[q->loop.v[0]];
    for (int i = 0; i < count; ++i) {
        const sw_wvec a = sw_wsub(q->p[q->loop.v[i]], o), b = sw_wsub(q->p[q->loop.v[(i + 1) % count]], o);
        loop_area += (sw_wdot(a, u) * sw_wdot(b, w) - sw_wdot(a, w) * sw_wdot(b, u)) / 2;
        const sw_wvec ab = sw_wsub(b, a);
        perimeter += sw_wide_sqrt(sw_wdot(ab, ab));
    }
    for (int i = 0; i < m; ++i) {
        const sw_wvec a = sw_wsub(q->p[q->loop.v[hull[i]]], o), b = sw_wsub(q->p[q->loop.v[hull[(i + 1) % m]]], o);
        hull_area += (sw_wdot(a, u) * sw_wdot(b, w) - sw_wdot(a, w) * sw_wdot(b, u)) / 2;
    }
    if (!(loop_area > 0 && hull_area - loop_area <= limit * perimeter)) {
        return false;
    }
    for (int j = 0; j < count; ++j) {
        const sw_wvec v = q->p[q->loop.v[j]];
        bool near = false;
        for (int i = 0; i < m && !near; ++i) {
            const sw_wvec a = q->p[q->loop.v[hull[i]]], b = q->p[q->loop.v[hull[(i + 1) % m]]];
            const sw_wvec ab = sw_wsub(b, a), av = sw_wsub(v, a);
            /* In the plane: the distance to the segment a-b. */
            const sw_wide abu = sw_wdot(ab, u), abw = sw_wdot(ab, w), avu = sw_wdot(av, u), avw = sw_wdot(av, w);
            const sw_wide len_sq = abu * abu + abw * abw;
            sw_wide t = len_sq > 0 ? (avu * abu + avw * abw) / len_sq : 0;
            t = t < 0 ? 0 : (t > 1 ? 1 : t);
            const sw_wide du = avu - t * abu, dw = avw - t * abw;
            near = du * du + dw * dw <= limit * limit;
        }
        if (!near) {
            return false;
        }
    }
    return true;
}

/* Whether the built hull (vertices in q->horizon) keeps every promise of
 * sw_hull within 0.9 tol (the rest is margin for the output's rounding):
 * faces planar and convex, every vertex on at least three faces, every
 * vertex below every face (the points are checked by recheck_points). */
static bool hull_valid(qh* q, int* degree)
{
    const sw_wide limit = (sw_wide)0.9 * q->tol;
    for (int i = 0; i < q->horizon.n; ++i) {
        degree[q->horizon.v[i]] = 0;
    }
    for (int fi = 0; fi < q->f_n; ++fi) {
        if (!q->f[fi].alive) {
            continue;
        }
        if (q->f[fi].count < 3 || !(q->f[fi].area > 0)) {
            return false;
        }
        int e = q->f[fi].edge;
        do {
            const sw_wide d = face_distance(q, fi, q->p[q->e[e].head]);
            if (!(d <= limit && -d <= limit)) {
                return false;
            }
            ++degree[q->e[e].head];
            e = q->e[e].next;
        } while (e != q->f[fi].edge);
        if (q->f[fi].count > 3 && !face_convex(q, fi, limit)) {
            return false;
        }
        for (int i = 0; i < q->horizon.n; ++i) {
            if (!(face_distance(q, fi, q->p[q->horizon.v[i]]) <= limit)) {
                return false;
            }
        }
    }
    for (int i = 0; i < q->horizon.n; ++i) {
        if (degree[q->horizon.v[i]] < 3) {
            return false;
        }
    }
    return true;
}

/* ---- building ---------------------------------------------------------------------- */

/* The points idx[0..m-1] relative to their bounding-box centre, scaled by
 * a power of two, and the tolerance in those units. False (with *error)
 * when the set is a single point or out of memory. */
static bool prepare(qh* q, const sw_vec3* points, int n, const int* idx, int m, sw_hull_error* error)
{
    sw_vec3 lo = points[idx[0]], hi = lo;
    for (int i = 0; i < m; ++i) {
        const sw_vec3 v = points[idx[i]];
        lo = sw_vmin(lo, v);
        hi = sw_vmax(hi, v);
    }
    /* The centre is rounded to sw_real, so that a point minus the centre,
     * and the difference of two points, are exact in sw_wide (but for
     * points of very different magnitudes). */
    const sw_wvec center = sw_wv(sw_wv_narrow(wscale(wadd(sw_wv(lo), sw_wv(hi)), (sw_wide)0.5)));
    const sw_wvec half = wscale(sw_wsub(sw_wv(hi), sw_wv(lo)), (sw_wide)0.5);
    sw_wide h = half.x > half.y ? half.x : half.y;
    h = h > half.z ? h : half.z;
    if (m < 4 || !(h > 0)) {
        *error = SW_HULL_FLAT;
        return false;
    }
    int e2;
    wide_frexp(h, &e2); /* h = f * 2^e2, f in [0.5, 1) */
    sw_wvec* p = malloc((size_t)n * sizeof *p);
    q->next_point = malloc((size_t)n * sizeof *q->next_point);
    q->vmark = calloc((size_t)n, sizeof *q->vmark);
    q->degree = malloc((size_t)n * sizeof *q->degree);
    q->p = p;
    if (!p || !q->next_point || !q->vmark || !q->degree) {
        *error = SW_HULL_OUT_OF_MEMORY;
        return false;
    }
    for (int i = 0; i < m; ++i) {
        const sw_wvec d = sw_wsub(sw_wv(points[idx[i]]), center);
        p[idx[i]] = (sw_wvec){wide_ldexp(d.x, -e2), wide_ldexp(d.y, -e2), wide_ldexp(d.z, -e2)};
    }
    q->tol = wide_ldexp((sw_wide)SW_TOLERANCE * h, -e2);
    /* Coordinates and offsets are at most about 1: a distance n . p - d is
     * off by a few SW_WIDE_EPSILON. */
    q->noise = 64 * SW_WIDE_EPSILON;
    return true;
}

/* The final check: every point that is not a vertex but lies more than
 * tol outside a face goes back to that face (quickhull releases a point
 * only to the faces it makes, and merges move the surface inward a
 * little, so a point dropped early can end up outside by about tol).
 * Points inside the hull's inscribed ball around the mean of its vertices
 * are inside every face and skipped. Returns how many went back, -1 when
 * out of memory. */
static int recheck_points(qh* q, const int* idx, int m)
{
    ++q->stamp;
    sw_wvec c = {0, 0, 0};
    int vertices = 0;
    for (int fi = 0; fi < q->f_n; ++fi) {
        if (!q->f[fi].alive) {
            continue;
        }
        int e = q->f[fi].edge;
        do {
            const int v = q->e[e].head;
            if (q->vmark[v] != q->stamp) {
                q->vmark[v] = q->stamp;
                c = wadd(c, q->p[v]);
                ++vertices;
            }
            e = q->e[e].next;
        } while (e != q->f[fi].edge);
    }
    c = wscale(c, (sw_wide)1 / vertices);
    sw_wide r = INFINITY;
    for (int fi = 0; fi < q->f_n; ++fi) {
        if (q->f[fi].alive) {
            const sw_wide d = -face_distance(q, fi, c);
            r = d < r ? d : r;
        }
    }
    const sw_wide r_sq = r > 0 ? r * r : 0;
    int back = 0;
    for (int i = 0; i < m; ++i) {
        const int pt = idx[i];
        const sw_wvec d = sw_wsub(q->p[pt], c);
        if (q->vmark[pt] == q->stamp || sw_wdot(d, d) < r_sq) {
            continue;
        }
        int best = -1;
        sw_wide top = q->tol;
        for (int fi = 0; fi < q->f_n; ++fi) {
            if (q->f[fi].alive) {
                const sw_wide dist = face_distance(q, fi, q->p[pt]);
                if (dist > top) {
                    top = dist;
                    best = fi;
                }
            }
        }
        if (best >= 0) {
            ++back;
            if (!add_outside(q, best, pt)) {
                return -1;
            }
        }
    }
    return back;
}

/* Whether the hull (vertices in q->horizon) is at most 2 tol thick along
 * the normal of face fi: every point within tol of a plane. */
static bool flat_along(const qh* q, int fi)
{
    sw_wide depth = 0;
    for (int i = 0; i < q->horizon.n; ++i) {
        const sw_wide d = -face_distance(q, fi, q->p[q->horizon.v[i]]);
        depth = d > depth ? d : depth;
    }
    return !(depth > 2 * q->tol);
}

/* Whether the hull is flat along any face's normal. */
static bool is_flat(const qh* q)
{
    for (int fi = 0; fi < q->f_n; ++fi) {
        if (q->f[fi].alive && flat_along(q, fi)) {
            return true;
        }
    }
    return false;
}

/* Quickhull over idx[0..m-1] at the current merge scale, then the final
 * check of every point (recheck_points). Returns 1 for a hull that
 * passes hull_valid, 0 for one that does not, -1 on an error (*error set:
 * flat, too many vertices, out of memory). The hull's vertices are left in
 * q->horizon. */
static int build_once(qh* q, const int* idx, int m, sw_hull_error* error)
{
    /* Start afresh (the points and the per-point arrays are kept). */
    q->e_n = q->f_n = 0;
    q->e_free = q->f_free = -1;
    q->queue.n = q->queue_head = 0;
    q->unclaimed = q->unclaimed_tail = -1;
    q->touched = q->work = -1;
    q->folded = false;

    int simplex[4];
    if (!initial_simplex(q, idx, m, simplex)) {
        *error = SW_HULL_FLAT;
        return -1;
    }
    *error = SW_HULL_OUT_OF_MEMORY;
    if (!build_tetrahedron(q, simplex)) {
        return -1;
    }
    for (int i = 0; i < m; ++i) {
        const int pt = idx[i];
        if (pt == simplex[0] || pt == simplex[1] || pt == simplex[2] || pt == simplex[3]) {
            continue;
        }
        int best = 0;
        sw_wide top = face_distance(q, 0, q->p[pt]);
        for (int fi = 1; fi < 4; ++fi) {
            const sw_wide d = face_distance(q, fi, q->p[pt]);
            if (d > top) {
                top = d;
                best = fi;
            }
        }
        if (top > q->tol && !add_outside(q, best, pt)) {
            return -1;
        }
    }

    /* Quickhull, then the final check of every point: any that ended up
     * more than tol outside a face goes back to it and quickhull resumes
     * (a few rounds at most). */
    int back = 1;
    for (int round = 0; round < 8 && back > 0; ++round) {
        if (!run(q)) {
            return -1;
        }
        if (q->folded) {
            return 0;
        }
        back = recheck_points(q, idx, m);
        if (back < 0) {
            return -1;
        }
    }

    /* The hull's vertices (in q->horizon, reused). */
    ++q->stamp;
    q->horizon.n = 0;
    int largest = -1;
    for (int fi = 0; fi < q->f_n; ++fi) {
        if (!q->f[fi].alive) {
            continue;
        }
        if (largest < 0 || q->f[fi].area > q->f[largest].area) {
            largest = fi;
        }
        int e = q->f[fi].edge;
        do {
            const int v = q->e[e].head;
            if (q->vmark[v] != q->stamp) {
                q->vmark[v] = q->stamp;
                if (!ivec_push(&q->horizon, v)) {
                    return -1;
                }
            }
            e = q->e[e].next;
        } while (e != q->f[fi].edge);
    }
    /* With too many vertices the hull is refused (unless it is a flat
     * sheet, which the largest face tells) before the checks, which take
     * time in the number of vertices times faces. */
    if (q->horizon.n > SW_MAX_HULL_VERTICES) {
        *error = flat_along(q, largest) ? SW_HULL_FLAT : SW_HULL_TOO_MANY_VERTICES;
        return -1;
    }
    /* Points still waiting (a vertex that merges keep removing and the
     * final check keeps bringing back) fail the check too. A hull that
     * fails is not judged flat: a broken face says nothing. */
    if (back != 0 || !hull_valid(q, q->degree)) {
        return 0;
    }
    if (is_flat(q)) {
        *error = SW_HULL_FLAT;
        return -1;
    }
    *error = SW_HULL_OK;
    return 1;
}

/* The hull of the distinct points idx[0..m-1]. Merging faces within the
 * tolerance gives the simplest hull, but on sets whose features are
 * themselves about tol in size (slabs a few tol thick, jitter of about tol)
 * a sequence of merges, each within tol, can add up to more; so the result
 * is checked, and built again with merging at an eighth of the scale, then
 * only of exactly coplanar faces (within rounding), then not at all, until
 * it passes. Without merges the hull is exact but for rounding, and passes
 * on all but adversarial sets (clusters a few tol across far from the
 * rest, or nearly coincident points: quickhull cannot add a point without
 * folding the faces around it), which are refused. */
static sw_hull* build(qh* q, const sw_vec3* points, int n, const int* idx, int m, sw_hull_error* error)
{
    if (!prepare(q, points, n, idx, m, error)) {
        return NULL;
    }
    const sw_wide merge[4] = {q->tol, q->tol / 8, q->noise, -1};
    for (int level = 0; level < 4; ++level) {
        q->merge = merge[level];
        const int rc = build_once(q, idx, m, error);
        if (rc < 0) {
            return NULL;
        }
        if (rc > 0) {
            return output_hull(q, points, n, error);
        }
    }
    /* Even the exact hull failed its check: quickhull could not add a
     * point without folding, on sets of nearly coincident or coplanar
     * points over a long span (fuzzing found two). A hull that breaks the
     * promises of sw_hull_create is not returned. */
    *error = is_flat(q) ? SW_HULL_FLAT : SW_HULL_DEGENERATE;
    return NULL;
}

sw_hull* sw_hull_create(const sw_vec3* points, int count, sw_hull_error* error)
{
    sw_hull_error err_local;
    if (!error) {
        error = &err_local;
    }
    if (!points || count < 4) {
        *error = SW_HULL_TOO_FEW_POINTS;
        return NULL;
    }
    if (count > SW_MAX_HULL_POINTS) {
        *error = SW_HULL_TOO_MANY_POINTS;
        return NULL;
    }
    for (int i = 0; i < count; ++i) {
        if (!sw_is_valid_vec3(points[i])) {
            *error = SW_HULL_INVALID_POINT;
            return NULL;
        }
    }
    /* Exact duplicates: only the first (in input order) takes part. */
    point_key* keys = malloc((size_t)count * sizeof *keys);
    int* idx = malloc((size_t)count * sizeof *idx);
    char* dup = calloc((size_t)count, 1);
    if (!keys || !idx || !dup) {
        free(keys);
        free(idx);
        free(dup);
        *error = SW_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    for (int i = 0; i < count; ++i) {
        keys[i] = (point_key){points[i].x, points[i].y, points[i].z, i};
    }
    qsort(keys, (size_t)count, sizeof *keys, cmp_point);
    for (int i = 1; i < count; ++i) {
        if (keys[i].x == keys[i - 1].x && keys[i].y == keys[i - 1].y && keys[i].z == keys[i - 1].z) {
            dup[keys[i].index] = 1;
        }
    }
    free(keys);
    int m = 0;
    for (int i = 0; i < count; ++i) {
        if (!dup[i]) {
            idx[m++] = i;
        }
    }
    free(dup);

    qh q;
    memset(&q, 0, sizeof q);
    q.e_free = q.f_free = -1;
    q.unclaimed = q.unclaimed_tail = -1;
    q.touched = q.work = -1;
    sw_hull* hull = build(&q, points, count, idx, m, error);
    qh_free(&q);
    free(idx);
    return hull;
}

void sw_hull_destroy(sw_hull* hull) { free(hull); }

const char* sw_hull_error_string(sw_hull_error error)
{
    switch (error) {
    case SW_HULL_OK:
        return "no error";
    case SW_HULL_TOO_FEW_POINTS:
        return "a hull needs at least 4 points";
    case SW_HULL_TOO_MANY_POINTS:
        return "more than 100000 points (SW_MAX_HULL_POINTS)";
    case SW_HULL_INVALID_POINT:
        return "a point is NaN, infinite or beyond the coordinate limit";
    case SW_HULL_FLAT:
        return "the points lie within tolerance of a plane (use a polygon, segment or point)";
    case SW_HULL_TOO_MANY_VERTICES:
        return "the hull has more than 1024 vertices (SW_MAX_HULL_VERTICES)";
    case SW_HULL_OUT_OF_MEMORY:
        return "out of memory";
    case SW_HULL_DEGENERATE:
        return "no hull convex within tolerance could be built (nearly coincident or coplanar points over a long span)";
    }
    return "unknown hull error";
}
