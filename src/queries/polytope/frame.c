/* The pair of a polytope query in B's frame: placing A and B, mapping
 * back to the world, the overlap point, bounding balls. */
#include <float.h>
#include "queries/polytope/polytope_internal.h"

static double shape_extent(const sw_polytope* p)
{
    double e = 0;
    for (int i = 0; i < p->nv; ++i) {
        const double m = pv_max_abs(pv_of(p->v[i]));
        e = m > e ? m : e;
    }
    return e + pv_max_abs(pv_of(p->origin));
}

void sw_pt_make_pair(const sw_shape* a, const sw_shape* b, sw_vec3 d, pair* pr)
{
    sw_polytope_make(a, &pr->pa);
    sw_polytope_make(b, &pr->pb);
    /* The frame is B's own; a flat B has world vertices and no rotation,
     * so its frame sits at its first vertex. */
    pr->qb = pr->pb.q;
    pr->ob = pr->pb.flat ? pr->pb.v[0] : pr->pb.origin;
    pr->b_identity = pr->qb.x == 0 && pr->qb.y == 0 && pr->qb.z == 0;
    place(&pr->pa, pr->ob, pr->qb, pr->b_identity, &pr->A);
    pr->B.p = &pr->pb;
    pr->B.identity = true;
    pr->B.o = pr->pb.flat ? pv_scale(pv_of(pr->ob), -1) : pv3(0, 0, 0);
    pr->B.h = pr->pb.type == SW_SHAPE_BOX ? pv_of(pr->pb.vbuf[7]) : pv3(0, 0, 0);
    pr->B.xs = NULL;
    const double ea = shape_extent(&pr->pa), eb = shape_extent(&pr->pb);
    const double ed = pv_max_abs(pv_of(d));
    pr->scale = ea > eb ? (ea > ed ? ea : ed) : (eb > ed ? eb : ed);
}

static sw_vec3 to_world_dir(const pair* pr, pv v)
{
    const sw_vec3 n = pv_narrow(v);
    return pr->b_identity ? n : sw_quat_rotate(pr->qb, n);
}
sw_vec3 sw_pt_to_world_point(const pair* pr, pv v)
{
    if (pr->b_identity) {
        return pv_narrow(pv_add(v, pv_of(pr->ob)));
    }
    return sw_add(sw_quat_rotate(pr->qb, pv_narrow(v)), pr->ob);
}

sw_vec3 sw_pt_unit_world(const pair* pr, pv n)
{
    sw_vec3 w = to_world_dir(pr, n);
    sw_normalize(&w);
    return w;
}

/* Cyrus-Beck: the part [s0, s1] of the line o + s u inside the placed
 * solid or flat polytope, widened by slack; false when empty. */
static bool clip_line(const placed* P, pv o, pv u, double slack, double* s0, double* s1)
{
    const sw_polytope* p = P->p;
    double lo = -DBL_MAX, hi = DBL_MAX;
    const int nplanes = p->flat ? p->nf + p->ne : p->nf;
    for (int i = 0; i < nplanes; ++i) {
        pv N;
        double off;
        if (!p->flat) {
            N = pl_face_normal(P, i);
            off = p->f[i].offset + pv_dot(N, P->o);
        } else if (i < p->nf) {
            N = pl_face_normal(P, i);
            off = pv_dot(N, pl_vertex(P, 0));
        } else {
            /* A flat polygon's side: through edge k, outward in its plane. */
            const int k = i - p->nf;
            const pv a = pl_vertex(P, p->e[k].v[0]);
            N = pv_cross(pv_sub(pl_vertex(P, p->e[k].v[1]), a), pl_face_normal(P, 0));
            if (!pv_unit(&N)) {
                continue;
            }
            off = pv_dot(N, a);
        }
        const double a = pv_dot(N, u), c = off + slack - pv_dot(N, o);
        /* A bound beyond 1e300 of u's lengths constrains nothing here. */
        if (a == 0) {
            if (c < 0) {
                return false;
            }
            continue;
        }
        const double q =
            pv_abs(a) >= 1 || pv_abs(c) <= 1e300 * pv_abs(a) ? c / a : ((c < 0) == (a < 0) ? 1e300 : -1e300);
        if (a > 0) {
            hi = q < hi ? q : hi;
        } else if (a < 0) {
            lo = q > lo ? q : lo;
        }
    }
    *s0 = lo;
    *s1 = hi;
    return lo <= hi;
}

/* A point of A (shifted by nothing) inside B: on the line through the
 * touching configuration's contact point along n, else on an edge of one
 * crossing the other. Tried first with no slack, where any such point lies
 * in both (up to rounding), then with slack tol for a mere touch that
 * rounding leaves empty: the slack is kept as a last resort because it
 * widens a thin sliver's wedge far beyond tol. */
static bool overlap_point_with(const pair* pr, const contact_info* ci, pv n, double depth, double slack, pv* out)
{
    double a0, a1, b0, b1;
    if (clip_line(&pr->A, ci->point, n, slack, &a0, &a1) && clip_line(&pr->B, ci->point, n, slack, &b0, &b1)) {
        const double lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
        if (lo <= hi) {
            /* Exactly, [-depth, 0] lies in both near the contact (A
             * reaches depth below the contact plane, B is below it). */
            const double mid = -depth / 2;
            *out = pv_madd(ci->point, mid < lo ? lo : (mid > hi ? hi : mid), n);
            return true;
        }
    }
    const placed* solids[2] = {&pr->A, &pr->B};
    for (int k = 0; k < 2; ++k) {
        const placed* P = solids[k];
        const placed* Q = solids[1 - k];
        for (int i = 0; i < P->p->ne; ++i) {
            const pv a = pl_vertex(P, P->p->e[i].v[0]);
            const pv u = pv_sub(pl_vertex(P, P->p->e[i].v[1]), a);
            double s0, s1;
            if (clip_line(Q, a, u, slack, &s0, &s1)) {
                s0 = s0 < 0 ? 0 : s0;
                s1 = s1 > 1 ? 1 : s1;
                if (s0 <= s1) {
                    *out = pv_madd(a, (s0 + s1) / 2, u);
                    return true;
                }
            }
        }
    }
    return false;
}

pv sw_pt_overlap_point(const pair* pr, pv n, double depth, double tol)
{
    contact_info ci;
    sw_pt_contact_point(&pr->A, pv_scale(n, depth), &pr->B, n, tol, &ci);
    pv p;
    if (overlap_point_with(pr, &ci, n, depth, 0, &p) || overlap_point_with(pr, &ci, n, depth, tol, &p)) {
        return p;
    }
    return ci.point;
}

/* A ball around the placed polytope: centre and radius in the frame. */
double sw_pt_bounding_ball(const placed* P, pv* c)
{
    const sw_polytope* p = P->p;
    if (p->type == SW_SHAPE_BOX) {
        *c = P->o;
        return sqrt(pv_dot(P->h, P->h));
    }
    if (p->hull) {
        *c = pv_add(pl_dir(P, pv_of(p->hull->center)), P->o);
        return p->hull->radius;
    }
    *c = pl_vertex(P, 0);
    double r2 = 0;
    for (int i = 1; i < p->nv; ++i) {
        const pv e = pv_sub(pl_vertex(P, i), *c);
        const double q = pv_dot(e, e);
        r2 = q > r2 ? q : r2;
    }
    return sqrt(r2);
}

/* Whether balls (ca, ra) and (cb, rb) stay apart while the first moves
 * by d; scale bounds the coordinates, whose rounding the reach covers. */
static bool swept_balls_apart(pv ca, double ra, pv cb, double rb, pv d, double scale)
{
    const pv f = pv_sub(ca, cb);
    const double dd = pv_dot(d, d);
    double t = dd > 0 ? -pv_dot(f, d) / dd : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    const pv g = pv_madd(f, t, d);
    const double reach = (ra + rb) * (1 + 1e-9) + 1e-9 * scale;
    return pv_dot(g, g) > reach * reach;
}

/* Whether the balls around A and B stay apart over the whole motion: a
 * cheap certain miss. */
bool sw_pt_balls_apart(const pair* pr, pv d)
{
    pv ca, cb;
    const double ra = sw_pt_bounding_ball(&pr->A, &ca), rb = sw_pt_bounding_ball(&pr->B, &cb);
    return swept_balls_apart(ca, ra, cb, rb, d, pr->scale);
}

/* A ball around a box or hull in the world, from its header alone (a
 * hull's stored centre and radius), and a bound on its coordinates;
 * false for other shapes. */
static bool shape_ball(const sw_shape* s, pv* c, double* r, double* extent)
{
    if (s->type == SW_SHAPE_BOX) {
        *c = pv_of(s->box.center);
        const pv h = pv_of(s->box.half);
        *r = sqrt(pv_dot(h, h));
    } else if (s->type == SW_SHAPE_HULL) {
        sw_quat q = s->hull.rotation;
        sw_quat_normalize(&q);
        double m[9];
        sw_internal_quat_matrix(q.x, q.y, q.z, q.w, m);
        const pv local = pv_of(s->hull.hull->center);
        *c = pv_add(mat_mul(m, local), pv_of(s->hull.position));
        *r = s->hull.hull->radius;
        *extent = pv_max_abs(pv_of(s->hull.position)) + pv_max_abs(local) + *r;
        return true;
    } else {
        return false;
    }
    *extent = pv_max_abs(*c) + *r;
    return true;
}

bool sw_pt_shapes_apart(const sw_shape* a, sw_vec3 d, const sw_shape* b)
{
    pv ca, cb;
    double ra, rb, ea, eb;
    if (!shape_ball(a, &ca, &ra, &ea) || !shape_ball(b, &cb, &rb, &eb)) {
        return false;
    }
    const pv dv = pv_of(d);
    const double ed = pv_max_abs(dv);
    const double scale = ea > eb ? (ea > ed ? ea : ed) : (eb > ed ? eb : ed);
    return swept_balls_apart(ca, ra, cb, rb, dv, 4 * scale);
}
