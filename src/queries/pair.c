/* Pair dispatch: each query of one shape against one other (neither a
 * mesh) reduces its pair of types to one of the library's methods, or
 * answers SW_UNSUPPORTED for a pair without one. The public entry points
 * (dispatch/dispatch.c) route meshes to mesh/ and every other pair here;
 * mesh/ calls these for its triangles.
 *
 * Methods, by pair (docs/pairs.md has the table):
 * - a point or sphere against a point or sphere: the closed-form sphere
 *   sweep (sphere_sweep.c);
 * - any round shape (point, sphere, segment, capsule) against any static
 *   shape: the core-segment driver (capsule_sweep.c, core.c);
 * - overlap and distance with the round shape second: the same, mirrored;
 * - a box or hull moving against a round shape: the round shape's sweep by
 *   -d against it (core.c), seen from the other side;
 * - a box or hull against a box, hull, triangle or polygon: the
 *   separating-axis method over time (polytope_sweep.c, box_sweep.c); with
 *   a skin, B inflated is no polytope: the general convex cast (gjk.c), as
 *   for double-build magnitudes beyond 1e140;
 * - a triangle or polygon without area: its segment;
 * - a box or hull against a half-space: its support point;
 * - overlap of polytopes (flat ones included) by the separating axes,
 *   their distance by GJK with the axes repairing its witness points. */
#include "queries/round/core.h"
#include "queries/round/fast.h"
#include "queries/polytope/polytope_sweep.h"
#include "shapes/polytope.h"
#include "queries/pair.h"

/* The round shapes: a core segment (a == b for a point or sphere) plus a
 * radius. */
static bool as_capsule(const sw_shape* s, sw_capsule* c)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        *c = (sw_capsule){s->point, s->point, 0};
        return true;
    case SW_SHAPE_SEGMENT:
        *c = (sw_capsule){s->segment.a, s->segment.b, 0};
        return true;
    case SW_SHAPE_SPHERE:
        *c = (sw_capsule){s->sphere.center, s->sphere.center, s->sphere.radius};
        return true;
    case SW_SHAPE_CAPSULE:
        *c = s->capsule;
        return true;
    default:
        return false;
    }
}

/* A triangle or polygon without area (its vertices on a line, or one
 * point) as the segment between its two farthest vertices, ends[0] and
 * ends[1]: the separating axes of a flat shape need its plane, which such
 * a shape lacks, and the core method answers a segment exactly. */
static bool sliver_as_capsule(const sw_shape* s, sw_capsule* c, int ends[2])
{
    if (s->type != SW_SHAPE_TRIANGLE && s->type != SW_SHAPE_POLYGON) {
        return false;
    }
    sw_polytope p;
    sw_polytope_make(s, &p);
    if (p.nf > 0) {
        return false;
    }
    int far = 0, other = 0;
    for (int i = 1; i < p.nv; ++i) {
        far = sw_distance_sq(p.v[i], p.v[0]) > sw_distance_sq(p.v[far], p.v[0]) ? i : far;
    }
    for (int i = 0; i < p.nv; ++i) {
        other = sw_distance_sq(p.v[i], p.v[far]) > sw_distance_sq(p.v[other], p.v[far]) ? i : other;
    }
    *c = (sw_capsule){p.v[far], p.v[other], 0};
    if (ends) {
        ends[0] = far;
        ends[1] = other;
    }
    return true;
}

/* The sliver's own feature for the segment's: its end vertices, or the
 * edge of the sliver nearest the point. */
static sw_feature sliver_feature(const sw_shape* s, const int ends[2], sw_feature f, sw_vec3 point)
{
    if (f.kind == SW_FEATURE_VERTEX) {
        return (sw_feature){SW_FEATURE_VERTEX, ends[f.index]};
    }
    const int n = s->type == SW_SHAPE_TRIANGLE ? 3 : s->polygon.count;
    const sw_vec3* v = s->type == SW_SHAPE_TRIANGLE ? s->triangle.v : s->polygon.v;
    int best = 0;
    sw_real best_d = 0;
    for (int i = 0; i < n; ++i) {
        const sw_segment e = {v[i], v[(i + 1) % n]};
        sw_real u;
        const sw_real dd = sw_distance_sq(point, sw_closest_point_segment(point, &e, &u));
        if (i == 0 || dd < best_d) {
            best = i;
            best_d = dd;
        }
    }
    return (sw_feature){SW_FEATURE_EDGE, best};
}

/* A point or sphere as a ball (a point is one of radius 0). */
static sw_sphere as_ball(const sw_shape* s) { return s->type == SW_SHAPE_POINT ? (sw_sphere){s->point, 0} : s->sphere; }

static bool is_round(sw_shape_type t) { return t <= SW_SHAPE_CAPSULE; }
static bool is_ball(sw_shape_type t) { return t == SW_SHAPE_POINT || t == SW_SHAPE_SPHERE; }
/* The types answered here: every type but a mesh. */
static bool is_type(sw_shape_type t) { return (unsigned)t < SW_SHAPE_TYPE_COUNT && t != SW_SHAPE_MESH; }
static bool is_solid(sw_shape_type t) { return t == SW_SHAPE_BOX || t == SW_SHAPE_HULL; }

/* The round shape s's core and radius in *c; whether the core is one
 * point, known from the type for a point or sphere (a segment or capsule
 * of zero length is one too). */
static bool round_core(const sw_shape* s, sw_capsule* c)
{
    as_capsule(s, c);
    return is_ball(s->type) || sw_internal_same_point(c->a, c->b);
}

bool sw_internal_pair_sweep_supported(sw_shape_type a, sw_shape_type b)
{
    return (is_round(a) || is_solid(a)) && is_type(b);
}
bool sw_internal_pair_raycast_supported(sw_shape_type b) { return is_type(b); }
bool sw_internal_pair_sweep_inside_supported(sw_shape_type a, sw_shape_type b)
{
    return is_ball(a) && (b == SW_SHAPE_SPHERE || b == SW_SHAPE_BOX);
}
/* Overlap and distance: every pair but two half-spaces, whose depth and
 * distance are unbounded or meaningless (docs/pairs.md). */
bool sw_internal_pair_overlap_supported(sw_shape_type a, sw_shape_type b)
{
    return is_type(a) && is_type(b) && !(a == SW_SHAPE_PLANE && b == SW_SHAPE_PLANE);
}

/* The feature of the round shape c that a moving polytope touched, named
 * by the normal n (from c toward the polytope), whose cone it must contain:
 * an end cap when n leans towards that end, the side when n is
 * perpendicular to the axis within half the contract's 1e-3 rad. Unlike
 * the contact point minus r n, this is as accurate for a huge radius as for
 * a small one, and it holds on an initial overlap too, where n is the
 * direction the polytope is pushed out of c and the point says nothing. */
static sw_feature round_feature(const sw_capsule* c, sw_vec3 n)
{
    const sw_vec3 axis = sw_sub(c->b, c->a);
    const sw_real len = sw_length(axis);
    const sw_real along = sw_dot(axis, n);
    if (!(len > 0) || along < (sw_real)-5e-4 * len) {
        return (sw_feature){SW_FEATURE_VERTEX, 0};
    }
    if (along > (sw_real)5e-4 * len) {
        return (sw_feature){SW_FEATURE_VERTEX, 1};
    }
    return (sw_feature){SW_FEATURE_EDGE, 0};
}

/* A box or hull a moving by d against the round shape c (B; features:
 * its ends and side, when it has any): c moving by -d against a,
 * translated back by t d and seen from a's side. */
static sw_hit sweep_against_round(const sw_shape* a, sw_vec3 d, const sw_capsule* c, bool has_features,
                                  const sw_sweep_options* opt)
{
    sw_hit h;
    /* Without a skin the fast path's contact point is on both surfaces:
     * only the frame moves. */
    if (a->type == SW_SHAPE_BOX && !(sw_internal_skin(opt) > 0) &&
        sw_fast_sweep(c->a, c->b, c->radius, sw_neg(d), a, NULL, opt, &h)) {
        if (h.hit) {
            h.normal = sw_neg(h.normal);
            h.point = sw_madd(h.point, h.t, d);
            h.feature = has_features ? round_feature(c, h.normal) : (sw_feature){SW_FEATURE_NONE, 0};
        }
        return h;
    }
    sw_core core;
    sw_core_make(a, &core);
    h = sw_internal_sweep_core(c->a, c->b, c->radius, sw_neg(d), &core, opt);
    if (!h.hit) {
        return h;
    }
    h.normal = sw_neg(h.normal);
    /* The contact point was c's, within skin of a; a's is the point of a
     * nearest it (itself when inside a), and the frame moves by t d. */
    const sw_vec3 p = sw_core_to_local(&core, h.point);
    sw_vec3 pa, pb, gap;
    sw_core_closest(&core, p, p, &pa, &pb, &gap);
    h.point = sw_madd(sw_core_to_world(&core, pb), h.t, d);
    h.feature = has_features ? round_feature(c, h.normal) : (sw_feature){SW_FEATURE_NONE, 0};
    return h;
}

/* Whether the separating-axis code (polytope_sweep.c, unscaled double)
 * can take the pair: magnitudes within `limit` of 1. The sweep's local
 * walk has terms of the fourth power of the coordinates (limit 1e60); the
 * full method, overlap and distance only squares before a unit vector
 * (1e140). Beyond, the general methods, which work in a frame scaled to
 * the query's size, answer. Only the double build's range reaches that
 * far. */
static bool polytope_scale_ok(const sw_shape* a, const sw_shape* b, sw_vec3 d, double limit)
{
#ifdef SWEEP_DOUBLE
    const sw_aabb ba = sw_shape_bounds(a), bb = sw_shape_bounds(b);
    const double m =
        sw_max(sw_max(sw_max(sw_max_abs(ba.min), sw_max_abs(ba.max)), sw_max(sw_max_abs(bb.min), sw_max_abs(bb.max))),
               sw_max_abs(d));
    return m < limit && (m > 1 / limit || m == 0);
#else
    /* Float coordinates stay within SW_MAX_COORD (1e18): nothing to check. */
    (void)a, (void)b, (void)d, (void)limit;
    return true;
#endif
}

static sw_hit sweep_polytope(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    if (b->type == SW_SHAPE_PLANE) {
        return sw_internal_sweep_polytope_plane(a, d, &b->plane, opt);
    }
    sw_capsule c = {{0, 0, 0}, {0, 0, 0}, 0};
    if (as_capsule(b, &c)) {
        return sweep_against_round(a, d, &c, b->type == SW_SHAPE_SEGMENT || b->type == SW_SHAPE_CAPSULE, opt);
    }
    int ends[2];
    if (sliver_as_capsule(b, &c, ends)) {
        if (b->type == SW_SHAPE_TRIANGLE ? b->triangle.one_sided : b->polygon.one_sided) {
            return (sw_hit){0}; /* no area, no front: a one-sided sliver stops nothing (as for round shapes) */
        }
        sw_hit h = sweep_against_round(a, d, &c, true, opt);
        if (h.hit) {
            h.feature = sliver_feature(b, ends, h.feature, h.point);
        }
        return h;
    }
    if (sw_internal_skin(opt) > 0 || !polytope_scale_ok(a, b, d, 1e140)) {
        return sw_gjk_sweep(a, d, b, opt);
    }
    if (!polytope_scale_ok(a, b, d, 1e60)) {
        return sw_internal_sweep_polytopes_full(a, d, b, opt); /* no walk: its terms are quartic */
    }
    return sw_internal_sweep_polytopes(a, d, b, opt);
}

/* A valid segment or capsule b whose core is shorter than 1e-40 of the
 * query's magnitude (m, or b's own) as the same shape with both ends at
 * its first: the round family's closed forms carry fourth powers of the
 * core's length, which underflow below about 1e-80 of the query (a sphere
 * swept onto a capsule 1e-100 long hit at t = 2/3 for 0.42, finding of
 * fuzz_dispatch). Moving the end by at most its length is far inside the
 * tolerance. False when b is left as it is. */
static bool collapse_tiny_core(const sw_shape* b, double m, sw_shape* out)
{
    if (!b || (b->type != SW_SHAPE_SEGMENT && b->type != SW_SHAPE_CAPSULE) || !sw_internal_shape_ok(b)) {
        return false;
    }
    const sw_vec3 p = b->type == SW_SHAPE_SEGMENT ? b->segment.a : b->capsule.a;
    const sw_vec3 q = b->type == SW_SHAPE_SEGMENT ? b->segment.b : b->capsule.b;
    const double len = sw_max_abs(sw_sub(q, p));
    const double own = sw_max(sw_max_abs(p), sw_max_abs(q));
    if (!(len > 0) || !(len <= 1e-40 * sw_max(m, own))) {
        return false;
    }
    *out = *b;
    if (b->type == SW_SHAPE_SEGMENT) {
        out->segment.b = p;
    } else {
        out->capsule.b = p;
    }
    return true;
}

sw_hit sw_internal_pair_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(sw_internal_shape_ok(a) && sw_internal_vec3_ok(d) && sw_internal_options_valid(opt), SW_INVALID_HIT);
    /* A half-space cannot move (DESIGN.md §2): bad input, not a gap. */
    SW_REQUIRE(a->type != SW_SHAPE_PLANE, SW_INVALID_HIT);
    if (is_round(a->type) && b) {
        if (is_ball(a->type) && is_ball(b->type)) {
            SW_REQUIRE(sw_internal_shape_ok(b), SW_INVALID_HIT);
            const sw_sphere sa = as_ball(a);
            const sw_sphere sb = as_ball(b);
            return sw_internal_sweep_sphere_sphere(&sa, d, &sb, opt);
        }
        /* B is validated there: a polygon's frame serves its fast path. */
        sw_capsule ca = {{0, 0, 0}, {0, 0, 0}, 0};
        const bool point = round_core(a, &ca);
        sw_shape tiny;
        const double m = sw_max(sw_max(sw_max_abs(ca.a), sw_max_abs(ca.b)), sw_max(ca.radius, sw_max_abs(d)));
        if (collapse_tiny_core(b, m, &tiny)) {
            b = &tiny;
        }
        return sw_internal_sweep_round(ca.a, ca.b, point, ca.radius, d, b, opt);
    }
    SW_REQUIRE(sw_is_valid_shape(b), SW_INVALID_HIT);
    if (!sw_internal_pair_sweep_supported(a->type, b->type)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    return sweep_polytope(a, d, b, opt);
}

sw_hit sw_internal_pair_raycast(const sw_ray* ray, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_ray(ray), SW_INVALID_HIT);
    if (b && is_ball(b->type)) {
        SW_REQUIRE(sw_internal_shape_ok(b), SW_INVALID_HIT);
        const sw_sphere sb = as_ball(b);
        return sw_internal_raycast_sphere(ray, &sb);
    }
    return sw_internal_raycast_shape(ray, b); /* validates B */
}

sw_hit sw_internal_pair_sweep_inside(const sw_shape* a, sw_vec3 d, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_vec3(d) && sw_is_valid_shape(b), SW_INVALID_HIT);
    if (!sw_internal_pair_sweep_inside_supported(a->type, b->type)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    const sw_sphere sa = as_ball(a);
    if (b->type == SW_SHAPE_SPHERE) {
        return sw_sweep_sphere_inside_sphere(&sa, d, &b->sphere);
    }
    return sw_sweep_sphere_inside_box(&sa, d, &b->box);
}

sw_overlap_result sw_internal_pair_overlap(const sw_shape* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_OVERLAP);
    sw_capsule c;
    if (as_capsule(a, &c) || sliver_as_capsule(a, &c, NULL)) {
        return sw_overlap_capsule_shape(&c, b);
    }
    if (as_capsule(b, &c) || sliver_as_capsule(b, &c, NULL)) {
        /* Mirrored: the direction that moves B out of A moves A out of B
         * when reversed. */
        sw_overlap_result r = sw_overlap_capsule_shape(&c, a);
        r.normal = sw_neg(r.normal);
        return r;
    }
    if (!sw_internal_pair_overlap_supported(a->type, b->type)) {
        return sw_internal_overlap_status(SW_UNSUPPORTED);
    }
    if (b->type == SW_SHAPE_PLANE) {
        return sw_internal_overlap_polytope_plane(a, &b->plane);
    }
    if (a->type == SW_SHAPE_PLANE) {
        sw_overlap_result r = sw_internal_overlap_polytope_plane(b, &a->plane);
        r.normal = sw_neg(r.normal);
        return r;
    }
    if (!polytope_scale_ok(a, b, sw_v3(0, 0, 0), 1e140)) {
        return sw_gjk_overlap(a, b);
    }
    if (is_solid(a->type)) {
        return sw_internal_overlap_polytopes(a, b);
    }
    sw_overlap_result r = sw_internal_overlap_polytopes(b, a);
    r.normal = sw_neg(r.normal);
    return r;
}

sw_distance_result sw_internal_pair_distance(const sw_shape* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_DISTANCE);
    sw_capsule c;
    if (as_capsule(a, &c) || sliver_as_capsule(a, &c, NULL)) {
        return sw_distance_capsule_shape(&c, b);
    }
    if (as_capsule(b, &c) || sliver_as_capsule(b, &c, NULL)) {
        return sw_internal_distance_mirrored(sw_distance_capsule_shape(&c, a));
    }
    if (!sw_internal_pair_overlap_supported(a->type, b->type)) {
        return sw_internal_distance_status(SW_UNSUPPORTED);
    }
    if (b->type == SW_SHAPE_PLANE) {
        return sw_internal_distance_polytope_plane(a, &b->plane);
    }
    if (a->type == SW_SHAPE_PLANE) {
        return sw_internal_distance_mirrored(sw_internal_distance_polytope_plane(b, &a->plane));
    }
    if (!polytope_scale_ok(a, b, sw_v3(0, 0, 0), 1e140)) {
        /* GJK's witnesses are ill-conditioned on a polygon 1e134 wide
         * crossing a triangle 1e140 wide (7e133 off the polygon). */
        return sw_internal_distance_polytopes_far(a, b);
    }
    return sw_internal_distance_polytopes(a, b);
}
