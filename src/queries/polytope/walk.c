/* The polytope sweep's local walk over M's faces (see the comment
 * below): the entry face without visiting every edge pair. */
#include <float.h>
#include "queries/polytope/polytope_internal.h"

/* ---- a local walk over M's faces ------------------------------------------
 *
 * Visiting every edge pair costs O(Ea Eb). The entry face can instead be
 * found by a walk: any axis L with exact support values is a supporting
 * plane of M, so its time t_L = h / (L.d) (L.d < 0) is a lower bound of the
 * entry time; when the supporting features of A(t_L) and B along L overlap,
 * t_L d lies in M and t_L is the entry time. When they do not, t_L d lies
 * outside the face, beyond an edge of M: the face across it (incident to a
 * vertex of the face, so built from features at the supporting vertices)
 * gives a later entry bound or an exit bound below t_L (a certain miss).
 * The walk only steers; every answer it gives is certified by exact
 * (all-vertex) projections, and the full method answers when it stalls. */


static void build_graph(const placed* P, graph* g)
{
    const sw_polytope* p = P->p;
    for (int i = 0; i < p->nv; ++i) {
        g->x[i] = pl_vertex(P, i);
        g->start[i] = 0;
    }
    g->start[p->nv] = 0;
    for (int i = 0; i < p->ne; ++i) {
        ++g->start[p->e[i].v[0] + 1];
        ++g->start[p->e[i].v[1] + 1];
    }
    for (int i = 0; i < p->nv; ++i) {
        g->start[i + 1] += g->start[i];
    }
    int fill[WALK_MAX_VERTICES];
    for (int i = 0; i < p->nv; ++i) {
        fill[i] = g->start[i];
    }
    for (int i = 0; i < p->ne; ++i) {
        const int v0 = p->e[i].v[0], v1 = p->e[i].v[1];
        g->he[fill[v0]] = i;
        g->nbr[fill[v0]++] = v1;
        g->he[fill[v1]] = i;
        g->nbr[fill[v1]++] = v0;
    }
}

/* The vertex maximising L . x, by hill-climbing from vertex s: on a
 * convex polytope a local maximum is the maximum. */
static int climb(const graph* g, pv L, int s, double* value)
{
    double best = pv_dot(L, g->x[s]);
    for (;;) {
        int next = -1;
        for (int k = g->start[s]; k < g->start[s + 1]; ++k) {
            const double x = pv_dot(L, g->x[g->nbr[k]]);
            if (x > best) {
                best = x;
                next = g->nbr[k];
            }
        }
        if (next < 0) {
            *value = best;
            return s;
        }
        s = next;
    }
}


/* Evaluates the axis L (unit) with supports climbed from sa (A, along -L)
 * and sb (B, along L). */
enum { KNOWN_NONE = 0, KNOWN_A = 1, KNOWN_B = 2, KNOWN_BOTH = 3 };

static void walk_axis(walker* w, pv L, int sa, int sb, int known)
{
    double va, vb;
    const double v = pv_dot(L, w->d);
    if (known != KNOWN_BOTH) {
        /* A climb only raises h above its value at the starting supports,
         * which moves an entry bound earlier and an exit bound later: an
         * axis that cannot beat the best entry or exit so far even there
         * is skipped without climbing (ratio is monotone in h). */
        const double h0 = pv_dot(L, w->gb.x[sb]) - pv_dot(L, w->ga.x[sa]);
        if (v < 0 ? sw_pt_ratio(h0, v) <= w->cand_t : (v > 0 ? sw_pt_ratio(h0, v) >= w->exit_t : h0 >= 0)) {
            return;
        }
    }
    if (known & KNOWN_B) {
        vb = pv_dot(L, w->gb.x[sb]);
    } else {
        sb = climb(&w->gb, L, sb, &vb);
    }
    if (known & KNOWN_A) {
        va = -pv_dot(L, w->ga.x[sa]);
    } else {
        sa = climb(&w->ga, pv_scale(L, -1), sa, &va);
    }
    const double h = vb + va;
    if (v < 0) {
        const double t = sw_pt_ratio(h, v);
        if (t > w->cand_t) {
            w->cand_t = t;
            w->cand_L = L;
            w->cand_sa = sa;
            w->cand_sb = sb;
        }
    } else if (v > 0) {
        const double t = sw_pt_ratio(h, v);
        if (t < w->exit_t) {
            w->exit_t = t;
            w->exit_L = L;
        }
    } else if (h < 0) {
        w->never = true;
        w->never_L = L;
    }
}

static int edge_list(const placed* P, const graph* g, int* stamp, const int* idx, int k, int round, bool reversed,
                     wedge* out)
{
    const sw_polytope* p = P->p;
    int n = 0;
    for (int i = 0; i < k; ++i) {
        for (int m = g->start[idx[i]]; m < g->start[idx[i] + 1]; ++m) {
            const int ei = g->he[m];
            if (stamp[ei] == round) {
                continue;
            }
            stamp[ei] = round;
            if (n == WALK_MAX_LIST) {
                return -1;
            }
            const sw_hull_edge* e = &p->e[ei];
            wedge* x = &out[n++];
            x->base = g->x[e->v[0]];
            x->dir = pv_sub(g->x[e->v[1]], x->base);
            x->dir2 = pv_dot(x->dir, x->dir);
            x->v = idx[i];
            if (!p->flat) {
                x->n1 = pl_face_normal(P, e->face[0]);
                x->n2 = pl_face_normal(P, e->face[1]);
                if (reversed) {
                    x->n1 = pv_scale(x->n1, -1);
                    x->n2 = pv_scale(x->n2, -1);
                }
                x->c = pv_cross(x->n1, x->n2);
                x->c2 = pv_dot(x->c, x->c);
            }
        }
    }
    return n;
}

/* The candidates around the supporting sets of the current axis: B's
 * faces at B's set, A's faces at A's set, and the edge pairs between. */
static void walk_round(walker* w, const int* ia, int ka, const int* ib, int kb, int round)
{
    const placed* A = &w->pr->A;
    const placed* B = &w->pr->B;
    const sw_polytope* pa = A->p;
    const sw_polytope* pb = B->p;
    const int sa0 = w->sa, sb0 = w->sb;
    /* B's faces. */
    if (pb->flat) {
        for (int f = 0; f < pb->nf; ++f) {
            walk_axis(w, pl_face_normal(B, f), sa0, ib[0], KNOWN_B);
        }
    } else {
        for (int i = 0; i < kb; ++i) {
            for (int k = w->gb.start[ib[i]]; k < w->gb.start[ib[i] + 1]; ++k) {
                const sw_hull_edge* e = &pb->e[w->gb.he[k]];
                for (int s = 0; s < 2; ++s) {
                    if (w->stamp_fb[e->face[s]] != round) {
                        w->stamp_fb[e->face[s]] = round;
                        walk_axis(w, pl_face_normal(B, e->face[s]), sa0, ib[i], KNOWN_B);
                    }
                }
            }
        }
    }
    /* A's faces, reversed. */
    for (int i = 0; i < ka; ++i) {
        for (int k = w->ga.start[ia[i]]; k < w->ga.start[ia[i] + 1]; ++k) {
            const sw_hull_edge* e = &pa->e[w->ga.he[k]];
            for (int s = 0; s < 2; ++s) {
                if (w->stamp_fa[e->face[s]] != round) {
                    w->stamp_fa[e->face[s]] = round;
                    walk_axis(w, pv_scale(pl_face_normal(A, e->face[s]), -1), ia[i], sb0, KNOWN_A);
                }
            }
        }
    }
    /* Edge pairs: the distinct edges at each set, with their Gauss-map
     * arcs (A's reversed) computed once. */
    wedge* ea = w->ea;
    wedge* eb = w->eb;
    const int na = edge_list(A, &w->ga, w->stamp_ea, ia, ka, round, true, ea);
    const int nb = edge_list(B, &w->gb, w->stamp_eb, ib, kb, round, false, eb);
    if (na < 0 || nb < 0) {
        w->overflow = true;
        return;
    }
    const double slack = 1e-6;
    for (int i = 0; i < na; ++i) {
        const wedge* x = &ea[i];
        for (int j = 0; j < nb; ++j) {
            const wedge* y = &eb[j];
            bool sure = false; /* the arcs surely cross */
            if (pb->flat) {
                /* A flat B's edge arc lies on the great circle across it. */
                const double s1 = pv_dot(x->n1, y->dir), s2 = pv_dot(x->n2, y->dir);
                if (s1 * s2 > slack * y->dir2) {
                    continue;
                }
            } else if (x->c2 > 1e-2) {
                /* The same conservative test as the full method, without
                 * normalising: a pair it is not sure of is kept. */
                const double s1 = pv_dot(y->n1, x->c), s2 = pv_dot(y->n2, x->c);
                if (s1 * s2 > slack * x->c2) {
                    continue;
                }
                if (y->c2 > 1e-2) {
                    const double a1b = pv_dot(x->n1, y->c), a2b = pv_dot(x->n2, y->c);
                    const double q = s1 * a2b, qq = slack * slack * x->c2 * y->c2;
                    if (a1b * a2b > slack * y->c2 || (q < 0 && q * q > qq)) {
                        continue;
                    }
                    sure = s1 * s2 < -slack * x->c2 && a1b * a2b < -slack * y->c2 && q > 0 && q * q > qq;
                }
            }
            /* In double, |L|^2 neither underflows nor overflows for
             * float or double coordinates of the valid range. */
            pv L = pv_cross(y->dir, x->dir);
            const double len_sq = pv_dot(L, L);
            if (!(len_sq > 0)) {
                continue;
            }
            L = pv_scale(L, 1 / sqrt(len_sq));
            /* Outward from B at the edge (B's normals there point away
             * from its centre); both ways where that is unclear. */
            const double side = pv_dot(L, pv_sub(y->base, w->cb));
            if (pv_abs(side) <= 1e-9 * w->pr->scale) {
                walk_axis(w, L, x->v, y->v, KNOWN_NONE);
                walk_axis(w, pv_scale(L, -1), x->v, y->v, KNOWN_NONE);
            } else {
                /* Where the arcs surely cross, the edges are the supports
                 * (up to a merged hull's tolerance: the walk only steers
                 * by these values, answers are re-projected exactly). */
                walk_axis(w, side < 0 ? pv_scale(L, -1) : L, x->v, y->v, sure ? KNOWN_BOTH : KNOWN_NONE);
            }
        }
    }
}

/* support_set over a graph's placed vertices: one pass of dot products,
 * kept for the filter (the vertices are already in the frame). */
static int support_set_graph(const graph* g, int nv, pv n, bool upper, double tol, int* idx, double* level)
{
    double dots[WALK_MAX_VERTICES];
    double ext = upper ? -DBL_MAX : DBL_MAX;
    for (int i = 0; i < nv; ++i) {
        const double s = pv_dot(n, g->x[i]);
        dots[i] = s;
        ext = upper ? (s > ext ? s : ext) : (s < ext ? s : ext);
    }
    *level = ext;
    int k = 0;
    for (int i = 0; i < nv && k < MAX_SUPPORT; ++i) {
        if (upper ? dots[i] >= ext - tol : dots[i] <= ext + tol) {
            idx[k++] = i;
        }
    }
    return k;
}

/* h of the axis L from every vertex (exact). */
static double exact_h(const pair* pr, pv L)
{
    double alo, ahi, blo, bhi;
    pl_range(&pr->A, L, &alo, &ahi);
    pl_range(&pr->B, L, &blo, &bhi);
    return bhi - alo;
}


/* The walk: a certain hit (time t, axis *n) or miss, else unsure. */
walk_result sw_pt_walk(walker* w, pv d, double tol, double* t_out, pv* n_out)
{
    const pair* pr = w->pr;
    const placed* A = &pr->A;
    const placed* B = &pr->B;
    build_graph(A, &w->ga);
    build_graph(B, &w->gb);
    for (int f = 0; f < A->p->nf; ++f) {
        w->stamp_fa[f] = -1;
    }
    for (int f = 0; f < B->p->nf; ++f) {
        w->stamp_fb[f] = -1;
    }
    for (int i = 0; i < A->p->ne; ++i) {
        w->stamp_ea[i] = -1;
    }
    for (int i = 0; i < B->p->ne; ++i) {
        w->stamp_eb[i] = -1;
    }
    w->overflow = false;
    w->d = d;
    w->tol_set = tol / 16;
    if (B->p->flat) {
        w->cb = pv3(0, 0, 0);
        for (int i = 0; i < B->p->nv; ++i) {
            w->cb = pv_add(w->cb, pl_vertex(B, i));
        }
        w->cb = pv_scale(w->cb, 1.0 / B->p->nv);
    } else {
        sw_pt_bounding_ball(B, &w->cb);
    }
    w->exit_t = DBL_MAX;
    w->never = false;
    /* Start: the direction from B's centre to A's where their balls first
     * meet (or come closest). */
    pv ca, cb;
    const double ra = sw_pt_bounding_ball(A, &ca), rb = sw_pt_bounding_ball(B, &cb);
    const pv f = pv_sub(ca, cb);
    const double dd = pv_dot(d, d), fd = pv_dot(f, d), ff = pv_dot(f, f), r = ra + rb;
    double t0 = dd > 0 ? -fd / dd : 0;
    const double disc = fd * fd - dd * (ff - r * r);
    if (dd > 0 && disc > 0) {
        t0 = (-fd - sqrt(disc)) / dd;
    }
    t0 = t0 < 0 ? 0 : (t0 > 1 ? 1 : t0);
    pv L = pv_madd(f, t0, d);
    if (!pv_unit(&L)) {
        L = pv3(0, 0, 1);
    }
    double va, vb;
    w->sb = climb(&w->gb, L, 0, &vb);
    w->sa = climb(&w->ga, pv_scale(L, -1), 0, &va);
    w->L = L;
    w->t = -DBL_MAX;
    for (int round = 0; round < 32; ++round) {
        int ia[MAX_SUPPORT], ib[MAX_SUPPORT];
        double la, lb;
        const int ka = support_set_graph(&w->ga, A->p->nv, w->L, false, w->tol_set, ia, &la);
        const int kb = support_set_graph(&w->gb, B->p->nv, w->L, true, w->tol_set, ib, &lb);
        if (ka >= MAX_SUPPORT || kb >= MAX_SUPPORT) {
            return WALK_UNSURE;
        }
        w->sa = ia[0];
        w->sb = ib[0];
        const double v = pv_dot(w->L, d);
        if (v < 0) {
            const double h = lb - la, t = sw_pt_ratio(h, v);
            if (t > 1) {
                return WALK_MISS;
            }
            if (t > 0 && h < 0 && w->t > -DBL_MAX) {
                contact_info ci;
                double gap;
                sw_pt_contact_point_gap(A, pv_scale(d, t), B, w->L, w->tol_set, &ci, &gap);
                if (gap <= w->tol_set) {
                    /* Certified within tolerance. A neighbouring face may
                     * still bound the entry a little later (the supporting
                     * sets are taken within tol): take the latest, as the
                     * full method would. */
                    *t_out = t;
                    *n_out = w->L;
                    /* only a later bound matters: the others are skipped
                     * unclimbed */
                    w->cand_t = t;
                    walk_round(w, ia, ka, ib, kb, round);
                    const double dlen = sqrt(pv_dot(d, d));
                    if (w->overflow) {
                        return WALK_UNSURE;
                    }
                    if (w->exit_t < t && (t - w->exit_t) * dlen > tol) {
                        const double te = sw_pt_ratio(exact_h(pr, w->exit_L), pv_dot(w->exit_L, d));
                        if ((t - te) * dlen > tol) {
                            return WALK_UNSURE; /* t d only grazes M */
                        }
                    }
                    if (w->cand_t > t) {
                        const double tc = sw_pt_ratio(exact_h(pr, w->cand_L), pv_dot(w->cand_L, d));
                        if (tc > t && (tc - t) * dlen > tol) {
                            /* t d only grazes M: the full method decides. */
                            return WALK_UNSURE;
                        }
                        if (tc > 1) {
                            return WALK_MISS; /* an exact supporting plane the path reaches after 1 */
                        }
                        if (tc > t) {
                            *t_out = tc;
                            *n_out = w->cand_L;
                        }
                    }
                    return WALK_HIT;
                }
            }
        }
        w->cand_t = -DBL_MAX;
        walk_round(w, ia, ka, ib, kb, round);
        if (w->overflow) {
            return WALK_UNSURE;
        }
        if (w->never && exact_h(pr, w->never_L) < 0) {
            return WALK_MISS;
        }
        if (w->exit_t < 0 || w->exit_t < w->cand_t) {
            /* Re-check with exact projections. */
            const double ve = pv_dot(w->exit_L, d), te = sw_pt_ratio(exact_h(pr, w->exit_L), ve);
            if (te < 0) {
                return WALK_MISS;
            }
            if (w->cand_t > -DBL_MAX) {
                const double vc = pv_dot(w->cand_L, d), tc = sw_pt_ratio(exact_h(pr, w->cand_L), vc);
                if (te < tc) {
                    return WALK_MISS;
                }
            }
        }
        if (!(w->cand_t > w->t) || w->cand_t <= 0) {
            return WALK_UNSURE;
        }
        w->t = w->cand_t;
        w->L = w->cand_L;
    }
    return WALK_UNSURE;
}
