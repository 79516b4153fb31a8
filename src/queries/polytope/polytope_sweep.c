/* Polytope against polytope: the separating-axis method over time.
 *
 * A(t) = A + t d touches B exactly when t d lies in the Minkowski
 * difference M = B - A, a convex polytope whose faces have the normals of
 * B's faces, of A's faces (reversed) and of the edge pairs whose arcs cross
 * on the Gauss map (B's edge and A's edge reversed). Each face L, h of M
 * (L unit, h = max over M of L.x) is one constraint t (L.d) <= h, so the
 * sweep is a ray cast from the origin against M: the first time is the
 * largest entry bound, the contact normal that face's L (from B toward A),
 * and with t = 0 inside M the depth is the smallest h (the origin's
 * distance to M's boundary). A supporting plane of M that is not a face
 * (two-sided axes of a flat B, whose edges have no Gauss-map arc) only adds
 * a redundant constraint, so the answers stay exact.
 *
 * Everything runs in double, in B's local frame: A's placement is mapped
 * into it once, and B's face normals are used as stored. */
#include <float.h>
#include "queries/polytope/polytope_internal.h"

bool sw_internal_moved_solid(const sw_shape* a, sw_vec3 off, sw_shape* out)
{
    *out = *a;
    if (a->type == SW_SHAPE_BOX) {
        out->box.center = sw_add(a->box.center, off);
    } else if (a->type == SW_SHAPE_HULL) {
        out->hull.position = sw_add(a->hull.position, off);
    } else {
        return false;
    }
    return sw_is_valid_shape(out);
}

/* The hit at time t (in [0, 1]) with the frame normal n; d in the world,
 * dl in the frame. */
static sw_hit sweep_hit(const sw_shape* a, const sw_shape* b, const pair* pr, sw_vec3 d, pv dl, double t, pv n_frame,
                        double tol)
{
    sw_hit h = {0};
    const sw_vec3 n = sw_pt_unit_world(pr, n_frame);
    if (pr->pb.one_sided) {
        const sw_vec3 front = pr->pb.front;
        if (!(sw_dot(d, front) < 0 && sw_dot(n, front) > 0)) {
            return h;
        }
    }
    contact_info ci;
    double gap;
    sw_pt_contact_point_gap(&pr->A, pv_scale(dl, t), &pr->B, n_frame, tol, &ci, &gap);
    h.hit = true;
    h.t = (sw_real)t;
    h.normal = n;
    h.point = sw_pt_to_world_point(pr, ci.point);
    /* Supporting sets that miss each other by more than the tolerance: the
     * axis won a near tie (nearly parallel edges, whose cross product the
     * tilt between them sets) and its supporting features do not touch;
     * the shapes' closest points at t do. */
    sw_shape at;
    if (gap > 2 * tol && sw_internal_moved_solid(a, sw_scale(d, (sw_real)t), &at)) {
        const sw_distance_result r = sw_internal_distance_polytopes(&at, b);
        if (r.status == SW_OK) {
            h.point = sw_scale(sw_add(r.point_a, r.point_b), (sw_real)0.5);
        }
    }
    h.feature = sw_pt_feature_of(&pr->B, &ci, n_frame, 2 * tol);
    return h;
}

static sw_hit sweep_polytopes(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt,
                              bool use_walk)
{
    if (use_walk && a->type == SW_SHAPE_BOX) {
        sw_hit h;
        if (b->type == SW_SHAPE_BOX && sw_internal_sweep_boxes(&a->box, d, &b->box, &h)) {
            return h;
        }
        if ((b->type == SW_SHAPE_TRIANGLE || b->type == SW_SHAPE_POLYGON) &&
            sw_internal_sweep_box_flat(&a->box, d, b, &h)) {
            return h;
        }
    }
    if (sw_pt_shapes_apart(a, d, b)) {
        return (sw_hit){0};
    }
    pair pr;
    sw_pt_make_pair(a, b, d, &pr);
    if (sw_pt_balls_apart(&pr, pr.b_identity ? pv_of(d) : pv_of(sw_quat_inv_rotate(pr.qb, d)))) {
        return (sw_hit){0};
    }
    const pv dl = pr.b_identity ? pv_of(d) : pv_of(sw_quat_inv_rotate(pr.qb, d));
    const double tol = SW_TOLERANCE / 4 * pr.scale;
    sw_hit h = {0};
    /* A box against a box, triangle or polygon has few edge pairs, each
     * projected cheaply: the full method is faster than the walk there. */
    const bool boxes = pr.pa.type == SW_SHAPE_BOX && (pr.pb.type == SW_SHAPE_BOX || pr.pb.flat);
    if (use_walk && !boxes && !(pr.pb.flat && pr.pb.nf == 0) && pr.pa.nv <= WALK_MAX_VERTICES &&
        pr.pb.nv <= WALK_MAX_VERTICES && pr.pa.ne <= WALK_MAX_EDGES && pr.pb.ne <= WALK_MAX_EDGES &&
        pr.pa.nf <= WALK_MAX_FACES && pr.pb.nf <= WALK_MAX_FACES) {
        walker w;
        w.pr = &pr;
        /* The walk places every vertex in its graphs first: the exact
         * projections read them there. */
        pr.A.xs = w.ga.x;
        pr.B.xs = w.gb.x;
        double t = 0;
        pv nl = pv3(0, 0, 1);
        const walk_result r = sw_pt_walk(&w, dl, tol, &t, &nl);
        if (r == WALK_MISS) {
            return h;
        }
        if (r == WALK_HIT) {
            return sweep_hit(a, b, &pr, d, dl, t, nl, tol);
        }
        pr.A.xs = NULL; /* the graphs end here */
        pr.B.xs = NULL;
    }
    sat s = {.enter = -DBL_MAX, .exit = DBL_MAX, .never = false, .depth = DBL_MAX};
    s.d = dl;
    s.n_enter = pv3(0, 0, 1);
    s.n_depth = pv3(0, 0, 1);
    sw_pt_collect(&s, &pr.A, &pr.B);

    if (s.depth >= 0) {
        /* Touching or overlapping at t = 0. */
        const sw_vec3 n = sw_pt_unit_world(&pr, s.n_depth);
        if (pr.pb.one_sided || (sw_internal_ignore_separating(opt) && sw_dot(d, n) >= 0)) {
            return h;
        }
        h.hit = true;
        h.overlapping = true;
        h.depth = (sw_real)s.depth;
        h.normal = n;
        const pv p = sw_pt_overlap_point(&pr, s.n_depth, s.depth, tol);
        h.point = sw_pt_to_world_point(&pr, p);
        contact_info ci;
        sw_pt_contact_point(&pr.A, pv_scale(s.n_depth, s.depth), &pr.B, s.n_depth, tol, &ci);
        h.feature = sw_pt_feature_of(&pr.B, &ci, s.n_depth, 2 * tol);
        return h;
    }
    if (s.never || s.enter > s.exit || s.enter > 1 || s.exit < 0) {
        return h;
    }
    return sweep_hit(a, b, &pr, d, s.d, s.enter < 0 ? 0 : s.enter, s.n_enter, tol);
}

sw_hit sw_internal_sweep_polytopes(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    return sweep_polytopes(a, d, b, opt, true);
}

sw_hit sw_internal_sweep_polytopes_full(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    return sweep_polytopes(a, d, b, opt, false);
}

/* ---- against a half-space ------------------------------------------------ */

/* A's lowest point along the plane's unit normal n, and its height below
 * the plane (negative: below). */
static sw_vec3 lowest(const sw_shape* a, sw_vec3 n, sw_real offset, sw_real* height)
{
    const sw_vec3 p = sw_shape_support(a, sw_neg(n));
    *height = sw_dot(n, p) - offset;
    return p;
}

sw_hit sw_internal_sweep_polytope_plane(const sw_shape* a, sw_vec3 d, const sw_plane* b, const sw_sweep_options* opt)
{
    sw_vec3 n = {0, 0, 1};
    sw_real offset = 0;
    sw_internal_plane_unit(b, &n, &offset);
    const sw_real skin = sw_internal_skin(opt);
    sw_real height;
    const sw_vec3 p = lowest(a, n, offset, &height);
    sw_hit h = {0};
    const sw_feature face = {SW_FEATURE_FACE, 0};
    if (height <= skin) {
        if (sw_internal_ignore_separating(opt) && sw_dot(d, n) >= 0) {
            return h;
        }
        h.hit = true;
        h.overlapping = true;
        h.depth = skin - height;
        h.normal = n;
        h.point = p;
        h.feature = face;
        return h;
    }
    const sw_real v = sw_dot(n, d);
    if (!(v < 0) || height - skin > -v) {
        return h;
    }
    h.hit = true;
    h.t = sw_min((height - skin) / -v, 1);
    h.normal = n;
    h.point = sw_madd(p, h.t, d);
    h.feature = face;
    return h;
}

sw_overlap_result sw_internal_overlap_polytope_plane(const sw_shape* a, const sw_plane* b)
{
    sw_vec3 n = {0, 0, 1};
    sw_real offset = 0, height;
    sw_internal_plane_unit(b, &n, &offset);
    const sw_vec3 p = lowest(a, n, offset, &height);
    sw_overlap_result r = {0};
    if (height <= 0) {
        r.overlapping = true;
        r.depth = -height;
        r.normal = n;
        r.point = p;
    }
    return r;
}

sw_distance_result sw_internal_distance_polytope_plane(const sw_shape* a, const sw_plane* b)
{
    sw_vec3 n = {0, 0, 1};
    sw_real offset = 0, height;
    sw_internal_plane_unit(b, &n, &offset);
    const sw_vec3 p = lowest(a, n, offset, &height);
    sw_distance_result r = {0};
    r.distance = sw_max(height, 0);
    r.point_a = p;
    r.point_b = sw_madd(p, -sw_max(height, 0), n);
    return r;
}
