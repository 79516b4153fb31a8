/* The separating-axis constraints of a polytope pair: each face L, h of
 * the Minkowski difference M = B - A is one constraint t (L.d) <= h on
 * the sweep's time (see polytope_sweep.c). */
#include <float.h>
#include "queries/polytope/polytope_internal.h"


static void constrain(sat* s, pv L, double h)
{
    const double v = pv_dot(L, s->d);
    if (v < 0) {
        const double t = sw_pt_ratio(h, v);
        if (t > s->enter) {
            s->enter = t;
            s->n_enter = L;
        }
    } else if (v > 0) {
        const double t = sw_pt_ratio(h, v);
        s->exit = t < s->exit ? t : s->exit;
    } else if (h < 0) {
        s->never = true;
    }
    if (h < s->depth) {
        s->depth = h;
        s->n_depth = L;
    }
}

/* Both orientations of an axis that need not be a face normal of M. */
static void constrain_both(sat* s, pv L, const placed* A, const placed* B)
{
    double alo, ahi, blo, bhi;
    pl_range(A, L, &alo, &ahi);
    pl_range(B, L, &blo, &bhi);
    constrain(s, L, bhi - alo);
    constrain(s, pv_scale(L, -1), ahi - blo);
}

/* Two boxes: the fifteen axes of the classic oriented-box test in B's
 * frame, where B's axes are the coordinate axes and A's the columns of r,
 * every projection in O(1). */
static void collect_boxes(sat* s, const placed* A, const placed* B)
{
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double* r = A->identity ? identity : A->r;
    double ar[9];
    for (int i = 0; i < 9; ++i) {
        ar[i] = pv_abs(r[i]);
    }
    const double ha[3] = {A->h.x, A->h.y, A->h.z}, hb[3] = {B->h.x, B->h.y, B->h.z};
    const double o[3] = {A->o.x, A->o.y, A->o.z};
    for (int k = 0; k < 3; ++k) {
        const double ra = ha[0] * ar[3 * k] + ha[1] * ar[3 * k + 1] + ha[2] * ar[3 * k + 2];
        const pv e = pv3(k == 0, k == 1, k == 2);
        constrain(s, e, hb[k] - o[k] + ra);
        constrain(s, pv_scale(e, -1), hb[k] + o[k] + ra);
    }
    pv a[3];
    for (int j = 0; j < 3; ++j) {
        a[j] = pv3(r[j], r[3 + j], r[6 + j]);
        const double rb = hb[0] * ar[j] + hb[1] * ar[3 + j] + hb[2] * ar[6 + j];
        const double c = a[j].x * o[0] + a[j].y * o[1] + a[j].z * o[2];
        constrain(s, a[j], rb - c + ha[j]);
        constrain(s, pv_scale(a[j], -1), rb + c + ha[j]);
    }
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 3; ++j) {
            /* e_k x a_j */
            pv L = k == 0 ? pv3(0, -a[j].z, a[j].y) : (k == 1 ? pv3(a[j].z, 0, -a[j].x) : pv3(-a[j].y, a[j].x, 0));
            const double len2 = pv_dot(L, L);
            if (!(len2 > 1e-24)) {
                continue; /* parallel edges: the face axes cover them */
            }
            const double inv = 1 / sqrt(len2);
            L = pv_scale(L, inv);
            const double rb = hb[0] * pv_abs(L.x) + hb[1] * pv_abs(L.y) + hb[2] * pv_abs(L.z);
            const double ra =
                ha[0] * pv_abs(pv_dot(L, a[0])) + ha[1] * pv_abs(pv_dot(L, a[1])) + ha[2] * pv_abs(pv_dot(L, a[2]));
            const double c = L.x * o[0] + L.y * o[1] + L.z * o[2];
            constrain(s, L, rb - c + ra);
            constrain(s, pv_scale(L, -1), rb + c + ra);
        }
    }
}

void sw_pt_collect(sat* s, const placed* A, const placed* B)
{
    if (A->p->type == SW_SHAPE_BOX && B->p->type == SW_SHAPE_BOX) {
        collect_boxes(s, A, B);
        return;
    }
    const sw_polytope* pa = A->p;
    const sw_polytope* pb = B->p;
    /* B's faces: h = B's offset - min over A. */
    for (int f = 0; f < pb->nf; ++f) {
        const pv L = pl_face_normal(B, f);
        double alo, ahi;
        pl_range(A, L, &alo, &ahi);
        const double off = pb->flat ? pv_dot(L, pl_vertex(B, 0)) : pb->f[f].offset;
        constrain(s, L, off - alo);
    }
    /* A's faces, reversed: h = max over B - A's offset. */
    for (int f = 0; f < pa->nf; ++f) {
        const pv N = pl_face_normal(A, f);
        double blo, bhi;
        pl_range(B, pv_scale(N, -1), &blo, &bhi);
        const double off = pa->flat ? pv_dot(N, pl_vertex(A, 0)) : pa->f[f].offset + pv_dot(N, A->o);
        constrain(s, pv_scale(N, -1), bhi + off);
    }
    if (pa->flat && pb->flat) {
        /* Two flat shapes in one plane are apart only along a normal of
         * an edge within that plane, which no cross product of edges
         * gives. */
        const placed* flats[2] = {A, B};
        for (int k = 0; k < 2; ++k) {
            const placed* P = flats[k];
            const pv front = pl_dir(P, pv_of(P->p->front));
            for (int i = 0; i < P->p->ne; ++i) {
                pv L = pv_cross(pl_edge_dir(P, i), front);
                if (pv_unit(&L)) {
                    constrain_both(s, L, A, B);
                }
            }
        }
    }
    const bool box_a = pa->type == SW_SHAPE_BOX, box_b = pb->type == SW_SHAPE_BOX;
    if (pa->flat || pb->flat || (box_a && box_b)) {
        /* A flat shape's edges have no arcs; two boxes have only nine edge
         * directions, each projected in O(1): every axis both ways, once
         * per direction (a box's edges 4 * axis share one). */
        const int na = box_a ? 3 : pa->ne, nb = box_b ? 3 : pb->ne;
        for (int i = 0; i < na; ++i) {
            const pv ea = pl_edge_dir(A, box_a ? 4 * i : i);
            for (int j = 0; j < nb; ++j) {
                pv L = pv_cross(pl_edge_dir(B, box_b ? 4 * j : j), ea);
                if (pv_unit(&L)) {
                    constrain_both(s, L, A, B);
                }
            }
        }
        return;
    }
    /* Edge pairs: an axis is needed only where the two edges' arcs cross
     * on the Gauss map. The arcs come from the stored face normals, which
     * a hull merged within a tolerance or a thin hull (faces across a rim
     * nearly opposite) give only roughly; so the test keeps every pair it
     * is not sure of, and each kept axis is projected in full (both ways,
     * directions from the edges' end points): a kept axis that is no face
     * of M is still a supporting plane, so extra axes never hurt. B's face
     * normals' sides of each A arc's great circle are computed once per A
     * edge. */
    double side[2 * SW_MAX_HULL_VERTICES];
    const double slack = 1e-6;
    for (int i = 0; i < pa->ne; ++i) {
        const sw_hull_edge* e = &pa->e[i];
        pv a1 = pv_scale(pl_face_normal(A, e->face[0]), -1);
        pv a2 = pv_scale(pl_face_normal(A, e->face[1]), -1);
        pv ea = pv_cross(a1, a2);
        const bool sure_a = pv_dot(ea, ea) > 1e-2 && pv_unit(&ea);
        for (int f = 0; sure_a && f < pb->nf; ++f) {
            side[f] = pv_dot(pv_of(pb->f[f].normal), ea);
        }
        const pv da = pv_sub(pl_vertex(A, e->v[1]), pl_vertex(A, e->v[0]));
        for (int j = 0; j < pb->ne; ++j) {
            const sw_hull_edge* g = &pb->e[j];
            const pv b1 = pv_of(pb->f[g->face[0]].normal);
            const pv b2 = pv_of(pb->f[g->face[1]].normal);
            if (sure_a) {
                if (side[g->face[0]] * side[g->face[1]] > slack) {
                    continue;
                }
                pv eb = pv_cross(b1, b2);
                if (pv_dot(eb, eb) > 1e-2 && pv_unit(&eb)) {
                    const double b1a = side[g->face[0]], a1b = pv_dot(a1, eb), a2b = pv_dot(a2, eb);
                    if (a1b * a2b > slack || b1a * a2b < -slack) {
                        continue;
                    }
                }
            }
            pv L = pv_cross(pv_sub(pl_vertex(B, g->v[1]), pl_vertex(B, g->v[0])), da);
            if (pv_unit(&L)) {
                constrain_both(s, L, A, B);
            }
        }
    }
}
