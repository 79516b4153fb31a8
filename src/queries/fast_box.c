/* Fast path of a point core (point, sphere) against a box: Ericson's
 * slab test against the box grown by the reach ("Real-Time Collision
 * Detection", 5.5.7), in the box's frame.
 *
 * The box inflated by the reach (a rounded box) lies inside the box grown
 * by the reach on every side, so a path that misses the grown box misses.
 * A path that enters the grown box through the middle of a face (the
 * entry point's other two coordinates within the box's own half extents,
 * by more than the feature tolerance) touches that face of the rounded box
 * there first: the face's plane supports the rounded box and the path
 * crosses it inward. An entry beside one edge tries that edge's cylinder,
 * certified by its normal's cone. Corner regions, starts within reach and
 * degenerate inputs are left to the general driver. */
#include "queries/fast.h"

sw_fast_status sw_fast_point_box(sw_fast_query* q, const sw_box* b, sw_fast_contact* c)
{
    sw_vec3 axes[3];
    sw_box_axes(b, axes);
    const double h[3] = {b->half.x, b->half.y, b->half.z};
    if (!sw_fast_set_size(q, sw_dmax(sw_dmax(h[0], h[1]), h[2]))) {
        return SW_FAST_UNSURE;
    }
    /* The point and the motion in the box's frame (the query's origin is
     * the box's centre). */
    sw_dvec u[3];
    double p[3], v[3];
    for (int k = 0; k < 3; ++k) {
        u[k] = sw_dv(axes[k]);
        p[k] = sw_ddot(q->a0, u[k]);
        v[k] = sw_ddot(q->d, u[k]);
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
    int out = -1, outs = 0;
    for (int k = 0; k < 3; ++k) {
        if (k != axis) {
            const double x = p[k] + enter * v[k];
            if (!(sw_dmax(x, -x) < h[k] - q->ftol)) {
                out = k;
                ++outs;
            }
        }
    }
    const bool plus = p[axis] > 0;
    if (outs == 0) {
        c->t = enter;
        c->n = sw_dscale(u[axis], (plus ? 1 : -1) / sqrt(sw_ddot(u[axis], u[axis])));
        c->pa = sw_dmadd(q->a0, enter, q->d);
        c->feature = (sw_feature){SW_FEATURE_FACE, 2 * axis + (plus ? 1 : 0)};
        return SW_FAST_HIT;
    }
    if (outs > 1) {
        return SW_FAST_UNSURE; /* a corner region: three edges and a vertex */
    }
    /* An edge region: the edge along m on the sides the point enters from;
     * its cylinder's contact is first when its normal lies in the edge's
     * cone (towards both faces' outsides). */
    const int m = 3 - axis - out;
    const double sa = plus ? 1 : -1, so = p[out] + enter * v[out] > 0 ? 1 : -1;
    double corner[3], along[3] = {0, 0, 0};
    corner[axis] = sa * h[axis];
    corner[out] = so * h[out];
    corner[m] = -h[m];
    along[m] = 2 * h[m];
    const sw_dvec f = {p[0], p[1], p[2]}, vv = {v[0], v[1], v[2]};
    const sw_dvec e0 = {corner[0], corner[1], corner[2]}, e = {along[0], along[1], along[2]};
    double t;
    sw_dvec n;
    /* A reach too small for a curved contact's normal (a point: none). */
    if (!(h[m] > 0) || !(q->reach >= SW_FAST_MIN_REACH * q->size) ||
        sw_fast_cylinder(f, vv, e0, e, q->reach, &t, &n) != SW_FAST_HIT) {
        return SW_FAST_UNSURE;
    }
    const double na = (axis == 0 ? n.x : (axis == 1 ? n.y : n.z)) * sa;
    const double no = (out == 0 ? n.x : (out == 1 ? n.y : n.z)) * so;
    if (!(na > SW_FAST_CONE_SLACK) || !(no > SW_FAST_CONE_SLACK) || !(t > 0) || t > 1) {
        return SW_FAST_UNSURE;
    }
    c->t = t;
    c->n = sw_dadd(sw_dadd(sw_dscale(u[0], n.x), sw_dscale(u[1], n.y)), sw_dscale(u[2], n.z));
    c->n = sw_dscale(c->n, 1 / sqrt(sw_ddot(c->n, c->n)));
    c->pa = sw_dmadd(q->a0, t, q->d);
    /* Box edge 4 m + j: bit 0 of j the side of axis m + 1, bit 1 of m + 2
     * (shapes.h, polytope.c). */
    const int next = (m + 1) % 3;
    const double s_next = next == axis ? sa : so, s_after = next == axis ? so : sa;
    c->feature = (sw_feature){SW_FEATURE_EDGE, 4 * m + (s_next > 0 ? 1 : 0) + (s_after > 0 ? 2 : 0)};
    return SW_FAST_HIT;
}

/* Box edge 4 m + j along axis m whose other two coordinates have the signs
 * sg (shapes.h): bit 0 of j the sign on axis m + 1, bit 1 on m + 2. */
static int box_edge(int m, const double* sg)
{
    const int m1 = m == 2 ? 0 : m + 1, m2 = m1 == 2 ? 0 : m1 + 1;
    return 4 * m + (sg[m1] > 0 ? 1 : 0) + (sg[m2] > 0 ? 2 : 0);
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
    sw_vec3 axes[3];
    sw_box_axes(b, axes);
    const double h[3] = {b->half.x, b->half.y, b->half.z};
    const double hmax = sw_dmax(sw_dmax(h[0], h[1]), h[2]);
    if (!(h[0] > 0 && h[1] > 0 && h[2] > 0) || !sw_fast_set_size(q, hmax)) {
        return SW_FAST_UNSURE;
    }
    sw_dvec u[3];
    double p[2][3], v[3];
    for (int k = 0; k < 3; ++k) {
        u[k] = sw_dv(axes[k]);
        p[0][k] = sw_ddot(q->a0, u[k]);
        p[1][k] = sw_ddot(q->a1, u[k]);
        v[k] = sw_ddot(q->d, u[k]);
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
    sw_fast_query qb = *q;
    qb.a0 = (sw_dvec){p[0][0], p[0][1], p[0][2]};
    qb.a1 = (sw_dvec){p[1][0], p[1][1], p[1][2]};
    qb.d = (sw_dvec){v[0], v[1], v[2]};
    const sw_dvec ea = sw_dsub(qb.a1, qb.a0);
    const double slack_a = SW_FAST_CONE_SLACK * sqrt(sw_ddot(ea, ea));
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
            /* The foot's other coordinates: out of the face (sg), or in
             * it but within the feature tolerance of its rim (near). */
            double sg[3] = {0, 0, 0}, near[3] = {0, 0, 0};
            int outs = 0, nears = 0;
            sg[k] = near[k] = s;
            for (int i = 0; i < 3; ++i) {
                const double x = p[j][i] + t * v[i], ax = sw_dmax(x, -x);
                if (i != k && ax > h[i]) {
                    sg[i] = x > 0 ? 1 : -1;
                    ++outs;
                } else if (i != k && !(ax < h[i] - q->ftol)) {
                    near[i] = x > 0 ? 1 : -1;
                    ++nears;
                }
            }
            if (outs == 0) {
                if (closing < 1e-4 * sqrt(sw_ddot(qb.d, qb.d))) {
                    return SW_FAST_UNSURE; /* nearly parallel: the foot could be anywhere */
                }
                c->t = t;
                c->n = sw_dscale(u[k], s / sqrt(sw_ddot(u[k], u[k])));
                c->pa = sw_dmadd(j ? q->a1 : q->a0, t, q->d);
                c->feature = (sw_feature){SW_FEATURE_FACE, 2 * k + (s > 0 ? 1 : 0)};
                if (nears == 2) {
                    c->feature =
                        (sw_feature){SW_FEATURE_VERTEX, (near[0] > 0) | (near[1] > 0) << 1 | (near[2] > 0) << 2};
                }
                for (int i = 0; i < 3 && nears == 1; ++i) {
                    if (i != k && near[i] != 0) {
                        c->feature = (sw_feature){SW_FEATURE_EDGE, box_edge(3 - k - i, near)};
                    }
                }
                return SW_FAST_HIT;
            }
            /* The edges of the cap's face on the sides the foot is out of
             * (and, out of two, the edge through their corner). */
            for (int i = 0; i < 3; ++i) {
                if (i != k && sg[i] != 0) {
                    guided |= 1u << box_edge(3 - k - i, sg);
                }
            }
            if (outs == 2) {
                guided |= 1u << box_edge(k, sg);
            }
        }
    }
    bool doubt = false;
    for (int pass = 0; pass < 2; ++pass) {
        for (unsigned left = pass == 0 ? guided : 0xfffu & ~guided; left != 0; left &= left - 1) {
            int idx = 0;
            while (!(left >> idx & 1u)) {
                ++idx;
            }
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
            const sw_fast_status st = sw_fast_segment_pair(&qb, b0, b1, c);
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
            const sw_dvec nw = sw_dadd(sw_dadd(sw_dscale(u[0], n.x), sw_dscale(u[1], n.y)), sw_dscale(u[2], n.z));
            c->n = sw_dscale(nw, 1 / sqrt(sw_ddot(nw, nw)));
            c->pa = sw_dadd(sw_dadd(sw_dscale(u[0], c->pa.x), sw_dscale(u[1], c->pa.y)), sw_dscale(u[2], c->pa.z));
            return SW_FAST_HIT;
        }
    }
    return doubt ? SW_FAST_UNSURE : SW_FAST_MISS;
}
