/* Fast paths of a point or segment core against a box, in the box's frame.
 *
 * A point: Ericson's slab test against the box grown by the reach
 * ("Real-Time Collision Detection", 5.5.7). The box inflated by the reach
 * (a rounded box) lies inside the grown box, so a path that misses the
 * grown box misses. A path that enters the grown box through a face, the
 * entry point's other two coordinates within the box's own half extents,
 * touches that face of the rounded box there first: the face's plane
 * supports the rounded box and the path crosses it inward. From an entry
 * beside the face, the path's distance from the box is walked piece by
 * piece (point_box_walk). Starts within reach are left to the general
 * driver.
 *
 * A segment core: the caps, then the edges' capsules (box_edges), below. */
#include "queries/round/fast.h"

/* The query in the box's frame (its origin is the box's centre): the box's
 * axes u and half extents h, the ends of A's core p0 (and p1, unless NULL)
 * and the motion v. B's extent goes into q's size; false when the query is
 * out of the fast paths' range. */
static SW_ALWAYS_INLINE bool box_frame(sw_fast_query* q, const sw_box* b, sw_dvec* u, double* h, double* p0, double* p1,
                                       double* v)
{
    sw_internal_box_axes(b, u);
    h[0] = b->half.x;
    h[1] = b->half.y;
    h[2] = b->half.z;
    if (!sw_fast_set_size(q, sw_dmax(sw_dmax(h[0], h[1]), h[2]))) {
        return false;
    }
    for (int k = 0; k < 3; ++k) {
        p0[k] = sw_ddot(q->a0, u[k]);
        if (p1) {
            p1[k] = sw_ddot(q->a1, u[k]);
        }
        v[k] = sw_ddot(q->d, u[k]);
    }
    return true;
}

/* q with A's core p0-p1 and motion v in the box's frame, for the edges'
 * segment pairs. */
static SW_ALWAYS_INLINE sw_fast_query box_query(const sw_fast_query* q, const double* p0, const double* p1,
                                                const double* v)
{
    sw_fast_query qb = *q;
    qb.a0 = (sw_dvec){p0[0], p0[1], p0[2]};
    qb.a1 = (sw_dvec){p1[0], p1[1], p1[2]};
    qb.d = (sw_dvec){v[0], v[1], v[2]};
    return qb;
}

/* Box edge 4 m + j along axis m whose other two coordinates have the signs
 * sg (shapes.h): bit 0 of j the sign on axis m + 1, bit 1 on m + 2. */
static int edge_of_signs(int m, const double* sg)
{
    const int m1 = m == 2 ? 0 : m + 1, m2 = m1 == 2 ? 0 : m1 + 1;
    return 4 * m + (sg[m1] > 0 ? 1 : 0) + (sg[m2] > 0 ? 2 : 0);
}

/* The box's feature at a point of its surface that is on the rim (or
 * within the feature tolerance of it) along the axes where sg is -1 or +1
 * and inside along those where it is 0: one such axis a face, two an edge,
 * three a vertex (numbering in shapes.h). */
static SW_ALWAYS_INLINE sw_feature box_feature(const double* sg)
{
    const int outs = (sg[0] != 0) + (sg[1] != 0) + (sg[2] != 0);
    if (outs == 1) {
        const int k = sg[0] != 0 ? 0 : (sg[1] != 0 ? 1 : 2);
        return (sw_feature){SW_FEATURE_FACE, 2 * k + (sg[k] > 0 ? 1 : 0)};
    }
    if (outs == 2) {
        return (sw_feature){SW_FEATURE_EDGE, edge_of_signs(sg[0] == 0 ? 0 : (sg[1] == 0 ? 1 : 2), sg)};
    }
    return (sw_feature){SW_FEATURE_VERTEX, (sg[0] > 0) | (sg[1] > 0) << 1 | (sg[2] > 0) << 2};
}

/* A vector of the box's frame (axes u) in the query's frame. */
static SW_ALWAYS_INLINE sw_dvec from_box(const sw_dvec* u, sw_dvec a)
{
    return sw_dadd(sw_dadd(sw_dscale(u[0], a.x), sw_dscale(u[1], a.y)), sw_dscale(u[2], a.z));
}

/* The foot x (box frame) of a contact with the cap of face (k, s): 0 when
 * it is in the face (closed), with *f the face, or the edge or vertex of
 * its rim within the feature tolerance; else the number of coordinates out
 * of it, with the edges beside them added to *guided (out of two, the edge
 * through their corner too). */
static int cap_foot(int k, double s, const double* x, const double* h, double ftol, sw_feature* f, unsigned* guided)
{
    double sg[3] = {0, 0, 0}, near[3] = {0, 0, 0};
    int outs = 0;
    sg[k] = near[k] = s;
    for (int i = 0; i < 3; ++i) {
        const double ax = sw_dmax(x[i], -x[i]);
        if (i != k && ax > h[i]) {
            sg[i] = x[i] > 0 ? 1 : -1;
            ++outs;
        } else if (i != k && !(ax < h[i] - ftol)) {
            near[i] = x[i] > 0 ? 1 : -1;
        }
    }
    for (int i = 0; i < 3; ++i) {
        if (i != k && sg[i] != 0) {
            *guided |= 1u << edge_of_signs(3 - k - i, sg);
        }
    }
    if (outs == 2) {
        *guided |= 1u << edge_of_signs(k, sg);
    }
    if (outs == 0) {
        *f = box_feature(near);
    }
    return outs;
}

/* Whether the axis n separates the parallelogram A's core sweeps (box
 * frame: a0 + [0, 1] ea + [0, 1] v) from the box by more than slab |n|:
 * then they never come within slab, a miss. */
static SW_ALWAYS_INLINE bool box_axis_separates(sw_dvec n, sw_dvec a0, sw_dvec ea, sw_dvec v, const double* h,
                                                double slab)
{
    const double pa = sw_ddot(ea, n), pv = sw_ddot(v, n);
    const double support = fabs(n.x) * h[0] + fabs(n.y) * h[1] + fabs(n.z) * h[2];
    const double gap = fabs(sw_ddot(a0, n) + (pa + pv) / 2) - (fabs(pa) + fabs(pv)) / 2 - support;
    return sw_fast_apart_along(gap, sw_ddot(n, n), slab);
}

/* The same for n = v x u_k (the motion v and the box's axis k): there
 * v . n is exactly 0, and the box's support and the rest take two terms
 * each. */
static SW_ALWAYS_INLINE bool box_motion_separates(int k, const double* v, const double* ea, const double* a0,
                                                  const double* h, double slab)
{
    const int k1 = k == 2 ? 0 : k + 1, k2 = k1 == 2 ? 0 : k1 + 1;
    const double pa = ea[k1] * v[k2] - ea[k2] * v[k1];
    const double support = fabs(v[k2]) * h[k1] + fabs(v[k1]) * h[k2];
    const double gap = fabs(a0[k1] * v[k2] - a0[k2] * v[k1] + pa / 2) - fabs(pa) / 2 - support;
    return sw_fast_apart_along(gap, v[k1] * v[k1] + v[k2] * v[k2], slab);
}

/* The box's edges' capsules (in the box's frame, axes u, half extents h)
 * against the core of qb, whose swept bounds are lo-hi: the guided edges
 * first, then the rest; a pair's contact is the first when the box's
 * support along its normal does not pass the contact. */
static sw_fast_status box_edges(const sw_fast_query* qb, const sw_dvec* u, const double* h, const double* lo,
                                const double* hi, unsigned guided, sw_fast_contact* c)
{
    const double R = qb->reach, slab = R + qb->margin, hmax = sw_dmax(sw_dmax(h[0], h[1]), h[2]);
    bool doubt = false;
    for (int pass = 0; pass < 2; ++pass) {
        for (unsigned set = pass == 0 ? guided : 0xfffu & ~guided; set != 0; set &= set - 1) {
            const int idx = sw_fast_lowest_bit(set);
            const int m = idx >> 2;
            const int m1 = m == 2 ? 0 : m + 1, m2 = m1 == 2 ? 0 : m1 + 1;
            const double x1 = idx & 1 ? h[m1] : -h[m1], x2 = idx & 2 ? h[m2] : -h[m2];
            if (lo[m1] > x1 + slab || hi[m1] < x1 - slab || lo[m2] > x2 + slab || hi[m2] < x2 - slab) {
                continue;
            }
            double e0[3], e1[3];
            e0[m] = -h[m];
            e1[m] = h[m];
            e0[m1] = e1[m1] = x1;
            e0[m2] = e1[m2] = x2;
            const sw_dvec b0 = {e0[0], e0[1], e0[2]}, b1 = {e1[0], e1[1], e1[2]};
            const sw_fast_status st = sw_fast_segment_edge(qb, b0, b1, c);
            if (st != SW_FAST_HIT) {
                doubt = doubt || st == SW_FAST_UNSURE;
                continue;
            }
            const sw_dvec n = c->n, pb = sw_dmadd(c->pa, -R, n);
            const double support = fabs(n.x) * h[0] + fabs(n.y) * h[1] + fabs(n.z) * h[2];
            if (!(support <= sw_ddot(n, pb) + SW_FAST_CONE_SLACK * hmax)) {
                doubt = true; /* a contact hidden inside */
                continue;
            }
            /* Back to the query's frame; B's vertex (bit k: +h on axis k)
             * or edge. */
            if (c->feature.kind == SW_FEATURE_VERTEX) {
                const int end = c->feature.index;
                c->feature.index = (end << m) | ((idx & 1) << m1) | (((idx >> 1) & 1) << m2);
            } else {
                c->feature = (sw_feature){SW_FEATURE_EDGE, idx};
            }
            const sw_dvec nw = from_box(u, n);
            c->n = sw_dscale(nw, 1 / sqrt(sw_ddot(nw, nw)));
            c->pa = from_box(u, c->pa);
            return SW_FAST_HIT;
        }
    }
    return doubt ? SW_FAST_UNSURE : SW_FAST_MISS;
}

/* The contact of a point core with the box inflated by the reach R, past
 * the slab entry `enter` whose foot is outside the face's rim: the squared
 * distance of x(t) = p + t v from the box, g(t) = sum over the axes of
 * (|x_k| - h_k)^2 where |x_k| > h_k, is convex (the distance to a convex
 * set is), and piecewise quadratic between the times where a coordinate
 * crosses +-h_k. Its first root of g = R^2 is the contact: walk the pieces
 * from `enter` (where g > R^2), each a ball, cylinder or plane in the axes
 * that are out (the vertex, edge or face of that piece), until a root lies
 * in its piece; where g stops falling, it never comes back down: a miss.
 * No candidate to certify, and at most one root per piece. */
static sw_fast_status point_box_walk(const sw_fast_query* q, const sw_dvec* u, const double* h, const double* p,
                                     const double* v, double enter, double exit, sw_fast_contact* c)
{
    const double R = q->reach, rr = R * R;
    if (!(R > SW_FAST_MIN_REACH * q->size)) {
        return SW_FAST_UNSURE; /* a curved contact needs a reach (fast.h) */
    }
    const double vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    const double end = sw_dmin(exit, 1);
    /* Each axis's side just after t: -1 below -h, 0 within, +1 above h. */
    int side[3];
    for (int k = 0; k < 3; ++k) {
        const double x = p[k] + enter * v[k];
        side[k] = x > h[k] || (x == h[k] && v[k] > 0) ? 1 : (x < -h[k] || (x == -h[k] && v[k] < 0) ? -1 : 0);
    }
    double t = enter;
    /* Each step crosses one plane x_k = +-h_k, each crossed at most once. */
    for (int step = 0; step < 7; ++step) {
        double next = end;
        int crossing = -1;
        for (int k = 0; k < 3; ++k) {
            /* The plane axis k crosses next: from out, its own side's (when
             * moving in); from within, the one it moves toward. */
            const int toward = v[k] > 0 ? 1 : (v[k] < 0 ? -1 : 0);
            if (toward != 0 && side[k] != toward) {
                const double tk = ((side[k] != 0 ? side[k] : toward) * h[k] - p[k]) / v[k];
                if (tk < next) {
                    next = tk;
                    crossing = k;
                }
            }
        }
        /* The piece's quadratic from t: |f + s dv|^2 = R^2 in the axes out. */
        sw_dvec f = {0, 0, 0}, dv = {0, 0, 0};
        double* fk = &f.x;
        double* dk = &dv.x;
        for (int k = 0; k < 3; ++k) {
            if (side[k] != 0) {
                fk[k] = p[k] + t * v[k] - side[k] * h[k];
                dk[k] = v[k];
            }
        }
        const double b = sw_ddot(f, dv);
        if (!(b < 0)) {
            return SW_FAST_MISS; /* g no longer falls, and it is convex */
        }
        const double cc = sw_ddot(f, f) - rr;
        if (!(cc > 0)) {
            return SW_FAST_UNSURE; /* touching at a crossing, within rounding */
        }
        const sw_dvec fxd = sw_dcross(f, dv);
        const double disc = sw_ddot(dv, dv) * rr - sw_ddot(fxd, fxd);
        if (disc >= 0) {
            const double s = cc / (sqrt(disc) - b);
            if (t + s <= next) {
                /* |n . v| = sqrt(disc) / R: a grazing contact is the
                 * driver's, as in the kernels. */
                if (disc < SW_FAST_SHALLOW * SW_FAST_SHALLOW * vv * rr) {
                    return SW_FAST_UNSURE;
                }
                const sw_dvec at = sw_dmadd(f, s, dv);
                const sw_dvec n = sw_dscale(at, 1 / sqrt(sw_ddot(at, at)));
                c->t = t + s;
                /* B's feature: the axes out, and those within the feature
                 * tolerance of the rim. */
                double sg[3];
                for (int k = 0; k < 3; ++k) {
                    const double x = p[k] + c->t * v[k];
                    sg[k] = side[k] != 0 ? side[k] : (fabs(x) >= h[k] - q->ftol ? (x > 0 ? 1 : -1) : 0);
                }
                c->feature = box_feature(sg);
                const sw_dvec nw = from_box(u, n);
                c->n = sw_dscale(nw, 1 / sqrt(sw_ddot(nw, nw)));
                c->pa = sw_dmadd(q->a0, c->t, q->d);
                return SW_FAST_HIT;
            }
        }
        if (crossing < 0) {
            return SW_FAST_MISS; /* the end of the motion, or of the grown box */
        }
        t = next;
        side[crossing] = side[crossing] != 0 ? 0 : (v[crossing] > 0 ? 1 : -1);
    }
    return SW_FAST_UNSURE;
}

sw_fast_status sw_fast_point_box(sw_fast_query* q, const sw_box* b, sw_fast_contact* c)
{
    sw_dvec u[3];
    double h[3], p[3], v[3];
    if (!box_frame(q, b, u, h, p, NULL, v)) {
        return SW_FAST_UNSURE;
    }
    double enter = -INFINITY, exit = INFINITY;
    int axis = -1;
    for (int k = 0; k < 3; ++k) {
        const double e = h[k] + q->reach;
        if (v[k] == 0) {
            if (p[k] > e || p[k] < -e) {
                return SW_FAST_MISS;
            }
            continue;
        }
        const double t0 = (-e - p[k]) / v[k], t1 = (e - p[k]) / v[k];
        const double lo = sw_dmin(t0, t1), hi = sw_dmax(t0, t1);
        if (lo > enter) {
            enter = lo;
            axis = k;
        }
        exit = sw_dmin(exit, hi);
    }
    if (enter > exit || enter > 1 || exit < 0) {
        return SW_FAST_MISS;
    }
    if (axis < 0) {
        return SW_FAST_UNSURE;
    }
    /* A start within reach (or within rounding of it) is the driver's. */
    const double gap = sw_dmax(p[axis], -p[axis]) - (h[axis] + q->reach);
    if (!(gap > q->margin) || !(enter > 0)) {
        return SW_FAST_UNSURE;
    }
    const double s = p[axis] > 0 ? 1 : -1;
    double x[3];
    for (int k = 0; k < 3; ++k) {
        x[k] = p[k] + enter * v[k];
    }
    sw_feature f;
    unsigned guided = 0;
    if (cap_foot(axis, s, x, h, q->ftol, &f, &guided) == 0) {
        c->t = enter;
        c->n = sw_dscale(u[axis], s / sqrt(sw_ddot(u[axis], u[axis])));
        c->pa = sw_dmadd(q->a0, enter, q->d);
        c->feature = f;
        return SW_FAST_HIT;
    }
    return point_box_walk(q, u, h, p, v, enter, exit, c);
}

/* A segment core against a box inflated by the reach, in the box's frame:
 * the union of the box grown by the reach along each axis alone (three
 * prisms) and its twelve edges' capsules, the prisms' sides lying inside
 * the capsules. As for a polygon (fast_polygon.c), A first touches a cap
 * with the lower end of its core, certified when the whole core is outside
 * the cap's plane, or an edge's capsule: the edges beside the caps' missed
 * feet first, then the rest, each contact certified by the box's support
 * along its normal. A start whose core is not clear of the grown box along
 * some axis is the driver's, as are flat boxes. */
sw_fast_status sw_fast_segment_box(sw_fast_query* q, const sw_box* b, sw_fast_contact* c)
{
    sw_dvec u[3];
    double h[3], p[2][3], v[3];
    if (!box_frame(q, b, u, h, p[0], p[1], v) || !(h[0] > 0 && h[1] > 0 && h[2] > 0)) {
        return SW_FAST_UNSURE;
    }
    const double R = q->reach, slab = R + q->margin;
    /* Cull by the swept core's bounds; a start clear along no axis is the
     * driver's. */
    double lo[3], hi[3];
    bool clear = false;
    for (int k = 0; k < 3; ++k) {
        const double lo0 = sw_dmin(p[0][k], p[1][k]), hi0 = sw_dmax(p[0][k], p[1][k]);
        lo[k] = lo0 + sw_dmin(v[k], 0);
        hi[k] = hi0 + sw_dmax(v[k], 0);
        if (lo[k] > h[k] + slab || hi[k] < -h[k] - slab) {
            return SW_FAST_MISS;
        }
        clear = clear || lo0 > h[k] + slab || hi0 < -h[k] - slab;
    }
    if (!clear) {
        return SW_FAST_UNSURE;
    }
    const sw_fast_query qb = box_query(q, p[0], p[1], v);
    const sw_dvec ea = sw_dsub(qb.a1, qb.a0);
    const double slack_a = sw_fast_level_slack(&qb, sqrt(sw_ddot(ea, ea)));
    /* Cull before the caps and edges: the box's axes crossed with the
     * motion, then the plane of A's path (the axes themselves were the
     * bounds' test; crossed with A's core they cost more than they cull). */
    const double core[3] = {ea.x, ea.y, ea.z};
    for (int k = 0; k < 3; ++k) {
        if (box_motion_separates(k, v, core, p[0], h, slab)) {
            return SW_FAST_MISS;
        }
    }
    if (box_axis_separates(sw_dcross(ea, qb.d), qb.a0, ea, qb.d, h, slab)) {
        return SW_FAST_MISS;
    }
    unsigned guided = 0;
    for (int k = 0; k < 3; ++k) {
        const double e = h[k] + R;
        const double s = p[0][k] > e && p[1][k] > e ? 1 : (p[0][k] < -e && p[1][k] < -e ? -1 : 0);
        const double closing = -s * v[k];
        if (s == 0 || !(closing > 0)) {
            continue;
        }
        const double hh[2] = {s * p[0][k], s * p[1][k]};
        /* Ends level within the slack (a core landing flat) report a1, as
         * the driver does. */
        const int lower = !(hh[0] < hh[1] - slack_a);
        for (int w = 0; w < 2; ++w) {
            const int j = w == 0 ? lower : 1 - lower;
            const double gap = hh[j] - e;
            if (!(hh[1 - j] - hh[j] >= -slack_a) || !(gap <= closing)) {
                break;
            }
            const double t = gap / closing;
            double x[3];
            for (int i = 0; i < 3; ++i) {
                x[i] = p[j][i] + t * v[i];
            }
            sw_feature f;
            const int outs = cap_foot(k, s, x, h, q->ftol, &f, &guided);
            if (outs == 0) {
                if (closing < 1e-4 * sqrt(sw_ddot(qb.d, qb.d))) {
                    return SW_FAST_UNSURE; /* nearly parallel: the foot could be anywhere */
                }
                c->t = t;
                c->n = sw_dscale(u[k], s / sqrt(sw_ddot(u[k], u[k])));
                c->pa = sw_dmadd(j ? q->a1 : q->a0, t, q->d);
                c->feature = f;
                return SW_FAST_HIT;
            }
        }
    }
    return box_edges(&qb, u, h, lo, hi, guided, c);
}
