/* Polytopes at rest: overlap (least penetration along the separating
 * axes), the axis of least overlap, and distance (GJK, checked against
 * the edges and faces). */
#include <float.h>
#include "queries/polytope/polytope_internal.h"

/* The separating axes of the pair at rest: s->depth is the least overlap
 * of their extents along any axis (negative: the most that one
 * separates them by), along s->n_depth, from B toward A. */
static void static_axes(const pair* pr, sat* s)
{
    *s = (sat){.enter = -DBL_MAX, .exit = DBL_MAX, .never = false, .depth = DBL_MAX};
    s->d = pv3(0, 0, 0);
    s->n_depth = pv3(0, 0, 1);
    sw_pt_collect(s, &pr->A, &pr->B);
}

double sw_internal_polytope_axis(const sw_shape* a, const sw_shape* b, sw_vec3* normal)
{
    pair pr;
    sw_pt_make_pair(a, b, sw_v3(0, 0, 0), &pr);
    sat s;
    static_axes(&pr, &s);
    *normal = sw_pt_unit_world(&pr, s.n_depth);
    return s.depth;
}

/* How far point p lies from the farther of a and b (their vertices'
 * hulls); DBL_MAX where a distance fails. */
static double off_both(const sw_shape* a, const sw_shape* b, sw_vec3 p)
{
    const sw_capsule q = {p, p, 0};
    const sw_distance_result da = sw_distance_capsule_shape(&q, a), db = sw_distance_capsule_shape(&q, b);
    if (da.status != SW_OK || db.status != SW_OK) {
        return DBL_MAX;
    }
    return da.distance > db.distance ? (double)da.distance : (double)db.distance;
}

sw_overlap_result sw_internal_overlap_polytopes(const sw_shape* a, const sw_shape* b)
{
    pair pr;
    sw_pt_make_pair(a, b, sw_v3(0, 0, 0), &pr);
    sat s;
    static_axes(&pr, &s);
    sw_overlap_result r = {0};
    if (s.depth < 0) {
        return r;
    }
    const double tol = SW_TOLERANCE / 4 * pr.scale;
    r.overlapping = true;
    r.depth = (sw_real)s.depth;
    r.normal = sw_pt_unit_world(&pr, s.n_depth);
    r.point = sw_pt_to_world_point(&pr, sw_pt_overlap_point(&pr, s.n_depth, s.depth, tol));
    if (s.depth <= 16 * tol) {
        /* Barely overlapping: the point comes from clipping by face planes,
         * and where two planes meet at a thin hull's rim (nearly parallel
         * faces) their rounding moves the wedge's edge far beyond tol
         * (a hull 1e-10 thick and 3 wide: 5.5e-5). The supporting
         * features' contact lies within the depth of both shapes; take it,
         * or it moved by half the depth either way, where one is nearer to
         * them by the vertices' distance. */
        contact_info ci;
        sw_pt_contact_point(&pr.A, pv_scale(s.n_depth, s.depth), &pr.B, s.n_depth, tol, &ci);
        double best = off_both(a, b, r.point);
        for (int k = -1; k <= 1; ++k) {
            /* The contact, and half the depth to either side of it along
             * the normal (into the middle of the overlap). */
            const sw_vec3 alt = sw_pt_to_world_point(&pr, pv_madd(ci.point, k * s.depth / 2, s.n_depth));
            const double off = off_both(a, b, alt);
            if (off < best) {
                best = off;
                r.point = alt;
            }
        }
    }
    return r;
}

/* How far x lies outside the placed polytope P (<= 0 inside a solid): the
 * largest excess over its face planes; for a flat one, the distance to its
 * plane or its largest excess over its edges' lines within that plane. */
static double outside_by(const placed* P, pv x)
{
    const sw_polytope* p = P->p;
    double most = -DBL_MAX;
    if (!p->flat) {
        for (int f = 0; f < p->nf; ++f) {
            const pv n = pl_face_normal(P, f);
            const double e = pv_dot(n, x) - (p->f[f].offset + pv_dot(n, P->o));
            most = e > most ? e : most;
        }
        return most;
    }
    const pv n = pl_face_normal(P, 0);
    most = pv_abs(pv_dot(n, pv_sub(x, pl_vertex(P, 0))));
    for (int i = 0; i < p->ne; ++i) {
        const pv a = pl_vertex(P, p->e[i].v[0]);
        pv side = pv_cross(pv_sub(pl_vertex(P, p->e[i].v[1]), a), n);
        if (pv_unit(&side)) {
            const double e = pv_dot(side, pv_sub(x, a));
            most = e > most ? e : most;
        }
    }
    return most;
}

/* Whether the point p lies within tol of the shape s. Either distance is
 * attained, so either one within tol proves it: the cores' closest points
 * (exact, but a polygon thinner than its vertices' rounding is its segment
 * there, off by its width) or GJK (no model, but on a polygon 6.5e12 long
 * and 32 wide it put a point of the polygon 16.8 away from it, finding
 * 23). */
static bool point_on(sw_vec3 p, const sw_shape* s, double tol)
{
    const sw_capsule q = {p, p, 0};
    if ((double)sw_distance_capsule_shape(&q, s).distance <= tol) {
        return true;
    }
    const sw_shape qs = sw_make_point(p);
    return (double)sw_gjk_distance(&qs, s).distance <= tol;
}

/* Whether s is a box whose two smaller half extents are within tol of its
 * long axis; *seg is then that axis. */
static bool needle_box(const sw_shape* s, double tol, sw_capsule* seg)
{
    if (s->type != SW_SHAPE_BOX) {
        return false;
    }
    const sw_vec3 h = s->box.half;
    const int k = h.x >= h.y && h.x >= h.z ? 0 : (h.y >= h.z ? 1 : 2);
    const double o1 = k == 0 ? h.y : h.x, o2 = k == 2 ? h.y : h.z;
    if (!(sqrt(o1 * o1 + o2 * o2) <= tol)) {
        return false;
    }
    sw_vec3 axes[3];
    sw_box_axes(&s->box, axes);
    const sw_real len = k == 0 ? h.x : (k == 1 ? h.y : h.z);
    *seg = (sw_capsule){sw_madd(s->box.center, -len, axes[k]), sw_madd(s->box.center, len, axes[k]), 0};
    return sw_is_valid_capsule(seg);
}

/* Edge i of a polytope view, in world coordinates (a flat view's placement
 * is the identity, so its edges are its vertices exactly). */
static sw_capsule view_edge(const sw_polytope* p, int i)
{
    const sw_hull_edge* e = &p->e[i];
    return (sw_capsule){sw_add(sw_quat_rotate(p->q, p->v[e->v[0]]), p->origin),
                        sw_add(sw_quat_rotate(p->q, p->v[e->v[1]]), p->origin), 0};
}

/* The least distance of an edge of either shape to the other, for two
 * polytopes with at most 64 edges in all, but two boxes (their separating
 * axes make GJK's answer exact; a larger hull is left to GJK for speed).
 * It is exact: two convex polytopes that do not
 * meet are closest at a vertex against a face or an edge against an edge,
 * both on an edge of one; two that meet have an edge of one meeting the
 * other (a vertex of their intersection lies on three faces' planes, two
 * of them from one shape, which is that shape's edge; coplanar flats
 * have an edge of one lying in the other). Each edge is a segment core
 * against the other's core, the path the fuzzers hold to the contract at
 * every scale. GJK stalled on such pairs: a polygon 2.7e11 long and 28
 * wide touching a triangle 16 across, 14.1 in one order and 0 in the
 * other (finding 48); a triangle 1e11 long beside a box, 15.1 against
 * 6.88, and a box 6.2e12 long beside a triangle, 2052 against 7.98
 * (finding 50); a hull 4.1e11 long beside another, 9.67 against 7.30
 * (finding 54). False, leaving GJK to answer, for the other pairs and
 * when a box's corner lies beyond SW_MAX_COORD. */
static bool distance_by_edges(const sw_shape* a, const sw_shape* b, sw_distance_result* out)
{
    sw_polytope views[2];
    if (!sw_polytope_make(a, &views[0]) || !sw_polytope_make(b, &views[1]) || views[0].ne + views[1].ne > 64 ||
        (a->type == SW_SHAPE_BOX && b->type == SW_SHAPE_BOX)) {
        return false;
    }
    sw_distance_result best = {0};
    bool have = false;
    for (int side = 0; side < 2; ++side) {
        const sw_polytope* view = &views[side];
        for (int i = 0; i < view->ne; ++i) {
            const sw_capsule edge = view_edge(view, i);
            if (!sw_is_valid_capsule(&edge)) {
                return false; /* a box corner beyond SW_MAX_COORD */
            }
            sw_distance_result r = sw_distance_capsule_shape(&edge, side == 0 ? b : a);
            if (r.status != SW_OK) {
                *out = r;
                return true;
            }
            r = side == 0 ? r : sw_internal_distance_mirrored(r);
            if (!have || r.distance < best.distance) {
                best = r;
                have = true;
            }
            if (best.distance == 0) {
                *out = best;
                return true;
            }
        }
    }
    *out = best;
    return true;
}

sw_distance_result sw_internal_distance_polytopes_far(const sw_shape* a, const sw_shape* b)
{
    sw_distance_result r;
    if (distance_by_edges(a, b, &r)) {
        return r;
    }
    return sw_gjk_distance(a, b);
}

sw_distance_result sw_internal_distance_polytopes(const sw_shape* a, const sw_shape* b)
{
    sw_distance_result r;
    if (distance_by_edges(a, b, &r)) {
        return r;
    }
    r = sw_gjk_distance(a, b);
    if (r.status != SW_OK) {
        return r;
    }
    pair pr;
    sw_pt_make_pair(a, b, sw_v3(0, 0, 0), &pr);
    const double tol = SW_TOLERANCE / 4 * pr.scale;
    const pv pa = pv_of(pr.b_identity ? sw_sub(r.point_a, pr.ob) : sw_quat_inv_rotate(pr.qb, sw_sub(r.point_a, pr.ob)));
    const pv pb = pv_of(pr.b_identity ? sw_sub(r.point_b, pr.ob) : sw_quat_inv_rotate(pr.qb, sw_sub(r.point_b, pr.ob)));
    /* Plane excesses understate the distance beside a sharp vertex: then
     * the distance from the point itself. */
    bool on_shapes = outside_by(&pr.A, pa) <= tol && outside_by(&pr.B, pb) <= tol;
    /* (A point beyond SW_MAX_COORD, on a huge box, is no valid shape.) */
    if (on_shapes && r.distance > 0 && sw_is_valid_vec3(r.point_a) && sw_is_valid_vec3(r.point_b)) {
        on_shapes = point_on(r.point_a, a, tol) && point_on(r.point_b, b, tol);
    }
    if (on_shapes && (double)r.distance > 16 * tol) {
        /* Points on the shapes are not yet closest: GJK also stops when
         * rounding stalls it (a support point already in its simplex, no
         * progress), which on a pair 1e7 times longer than wide can be far
         * from the distance, even with the shapes crossing (a 64-gon
         * against a hull of extent 2e14: 24050 one way, 9971.85 the
         * other, 400 tol apart). The plane between the points must
         * separate them by the distance. */
        pv n = pv_sub(pa, pb);
        double alo, ahi, blo, bhi;
        if (pv_unit(&n)) {
            pl_range(&pr.A, n, &alo, &ahi);
            pl_range(&pr.B, n, &blo, &bhi);
            if (alo - bhi >= (double)r.distance - 4 * tol) {
                return r;
            }
        }
        /* Not certified: GJK stalled. Run from the other shape it stalls
         * elsewhere (a flat box 7.8e13 long and 20 wide against a polygon
         * 5.6 from it: 7.1e6 one way, 15.05 the other, finding 40); both
         * answers are attained by points on the shapes, so both bound the
         * distance from above, and the smaller one is kept. */
        const sw_distance_result m = sw_internal_distance_mirrored(sw_gjk_distance(b, a));
        if (m.status == SW_OK && m.distance < r.distance && sw_is_valid_vec3(m.point_a) &&
            sw_is_valid_vec3(m.point_b) && point_on(m.point_a, a, tol) && point_on(m.point_b, b, tol)) {
            r = m;
        }
    }
    /* A box within tol of its long axis (a needle 1e16 times longer than
     * wide: in GJK's frame its width is below the rounding, and GJK
     * stalls anywhere along it, finding 27) is that segment: the cores'
     * closest points answer. */
    sw_capsule seg;
    if (needle_box(a, tol, &seg)) {
        return sw_distance_capsule_shape(&seg, b);
    }
    if (needle_box(b, tol, &seg)) {
        return sw_internal_distance_mirrored(sw_distance_capsule_shape(&seg, a));
    }
    /* GJK's witnesses left their shapes (weights ill-conditioned across a
     * thin or tiny-next-to-huge pair; its distance is still right). The
     * separating axes give the exact answer where the closest features
     * are a face and anything, or two edges: the axis that separates most
     * does so by the distance, and the contact of the supporting
     * features, moved apart along it, gives the points. */
    sat s;
    static_axes(&pr, &s);
    if (s.depth >= 0) {
        /* Touching (GJK may leave a rounding-sized gap): a common point. */
        r.distance = 0;
        r.point_a = r.point_b = sw_pt_to_world_point(&pr, sw_pt_overlap_point(&pr, s.n_depth, s.depth, tol));
        return r;
    }
    if (on_shapes || -s.depth < (double)r.distance - 4 * tol) {
        return r; /* closest at a vertex against a vertex or edge: no axis tells */
    }
    contact_info ci;
    sw_pt_contact_point(&pr.A, pv_scale(s.n_depth, s.depth), &pr.B, s.n_depth, tol, &ci);
    r.distance = (sw_real)-s.depth;
    r.point_b = sw_pt_to_world_point(&pr, ci.point);
    r.point_a = sw_pt_to_world_point(&pr, pv_madd(ci.point, -s.depth, s.n_depth));
    return r;
}
