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
