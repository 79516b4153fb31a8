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
#include "shapes/hull_internal.h"

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
bool sw_qh_run(qh* q)
{
    /* A backstop: each point is an eye at most a few times, and the queue
     * pops a few faces per eye. Past a generous budget this level gives
     * up like a fold, and the next one (or SW_HULL_DEGENERATE) answers.
     * (The hang fuzzing found was the outside list's cycle, below; no
     * input is known to reach this budget.) */
    long budget = 64L * (q->distinct + 16);
    while (q->queue_head < q->queue.n) {
        if (--budget < 0) {
            q->folded = true;
            return true;
        }
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
        int listed = 0;
        for (int pt = f->outside; pt >= 0; pt = q->next_point[pt]) {
            if (++listed > q->n_points) {
                /* A point on two faces' lists joined them into a cycle
                 * (fuzzing found one that spun for minutes): this level
                 * gives up. */
                q->folded = true;
                return true;
            }
            const sw_wide d = sw_qh_face_distance(q, fi, p[pt]);
            if (d > best_d) {
                best_d = d;
                eye = pt;
            }
        }
        int pt = f->outside;
        f->outside = f->outside_tail = -1;
        while (pt >= 0) {
            const int nx = q->next_point[pt];
            const sw_wide d = sw_qh_face_distance(q, fi, p[pt]);
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
        const int added = sw_qh_add_point(q, eye, fi);
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
    if (!sw_qh_loop_of(q, &q->loop, q->f[fi].edge) || !ivec_reserve(&q->loop2, 2 * q->loop.n + 1)) {
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
bool sw_qh_hull_valid(qh* q, int* degree)
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
            const sw_wide d = sw_qh_face_distance(q, fi, q->p[q->e[e].head]);
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
            if (!(sw_qh_face_distance(q, fi, q->p[q->horizon.v[i]]) <= limit)) {
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
    q->distinct = m;
    q->n_points = n;
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
            const sw_wide d = -sw_qh_face_distance(q, fi, c);
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
                const sw_wide dist = sw_qh_face_distance(q, fi, q->p[pt]);
                if (dist > top) {
                    top = dist;
                    best = fi;
                }
            }
        }
        if (best >= 0) {
            ++back;
            if (!sw_qh_add_outside(q, best, pt)) {
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
        const sw_wide d = -sw_qh_face_distance(q, fi, q->p[q->horizon.v[i]]);
        depth = d > depth ? d : depth;
    }
    return !(depth > 2 * q->tol);
}

/* Whether the hull is flat along any face's normal (q->horizon holding
 * its vertices: not after a level gave up, when it holds a step's
 * horizon). */
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
    if (!sw_qh_initial_simplex(q, idx, m, simplex)) {
        *error = SW_HULL_FLAT;
        return -1;
    }
    *error = SW_HULL_OUT_OF_MEMORY;
    if (!sw_qh_build_tetrahedron(q, simplex)) {
        return -1;
    }
    for (int i = 0; i < m; ++i) {
        const int pt = idx[i];
        if (pt == simplex[0] || pt == simplex[1] || pt == simplex[2] || pt == simplex[3]) {
            continue;
        }
        int best = 0;
        sw_wide top = sw_qh_face_distance(q, 0, q->p[pt]);
        for (int fi = 1; fi < 4; ++fi) {
            const sw_wide d = sw_qh_face_distance(q, fi, q->p[pt]);
            if (d > top) {
                top = d;
                best = fi;
            }
        }
        if (top > q->tol && !sw_qh_add_outside(q, best, pt)) {
            return -1;
        }
    }

    /* Quickhull, then the final check of every point: any that ended up
     * more than tol outside a face goes back to it and quickhull resumes
     * (a few rounds at most). */
    int back = 1;
    for (int round = 0; round < 8 && back > 0; ++round) {
        if (!sw_qh_run(q)) {
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
    if (back != 0 || !sw_qh_hull_valid(q, q->degree)) {
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
            return sw_qh_output_hull(q, points, n, error);
        }
    }
    /* Even the exact hull failed its check: quickhull could not add a
     * point without folding, on sets of nearly coincident or coplanar
     * points over a long span (fuzzing found two). A hull that breaks the
     * promises of sw_hull_create is not returned. */
    *error = !q->folded && is_flat(q) ? SW_HULL_FLAT : SW_HULL_DEGENERATE;
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
