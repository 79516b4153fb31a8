/* The general convex sweep and ray cast (include/sweep/convex.h): GJK's
 * ray cast with a reach (conservative advancement) over the cores of
 * gjk/, for any pair of bounded shapes, its start and its answers checked
 * against the polytope family's exact static tests. */
#include "queries/gjk/gjk_internal.h"
#include "queries/round/core.h"
#include "queries/polytope/polytope_sweep.h"

/* ---- conservative advancement ---------------------------------------------------- */

typedef struct cast_result {
    bool hit;
    gr t;
    gv n_last; /* the last advancement's direction (B toward A) */
    bool have_last;
} cast_result;

/* First t in [0, 1] at which the point x = -t d comes within R of M, from
 * GJK's simplex at t = 0 (van den Bergen's ray cast, with a reach: each
 * step moves to the support plane's offset by R, a Newton step on the
 * convex distance, so it never passes the contact). */
static cast_result cast(const gjk_pair* P, gr R, gr tau, simplex* s, gv* v)
{
    cast_result out = {false, 0, {0, 0, 0}, false};
    const gv d = P->d;
    gv x = g3(0, 0, 0);
    gr t = 0;
    int it = 0;
    for (; it < CAST_MAX_ITERATIONS; ++it) {
        const gr vv = gdot(*v, *v);
        const gr len = gr_sqrt(vv);
        if (len - R <= tau) {
            out.hit = true;
            break;
        }
        const svert w = support_m(P, gneg(*v));
        STAT(++sw_gjk_stats_counters.cast_iterations);
        const gr lower = gdot(*v, gsub(w.p, x)) / len;
        const bool known = sw_gjk_simplex_has(s, &w);
        if (lower - R > tau) {
            /* The support plane (pushed out by R) separates x: move to it. */
            const gr rate = gdot(*v, d) / len;
            const gr gap = lower - R;
            if (!(rate < 0) || gap > (1 - t) * -rate) {
                break; /* moving away, or the plane is beyond t = 1 */
            }
            t += gap / -rate;
            x = gscale(d, -t);
            out.n_last = gscale(*v, 1 / len);
            out.have_last = true;
            STAT(++sw_gjk_stats_counters.cast_advances);
        } else if (known) {
            /* Converged at x with the lower bound within reach. */
            out.hit = true;
            break;
        }
        if (!known) {
            s->v[s->n++] = w;
        }
        const gr next = sw_gjk_simplex_solve(s, x, v);
        if (!(lower - R > tau) && !(next < vv)) {
            out.hit = true; /* no progress at a point within reach */
            break;
        }
    }
#ifdef SW_GJK_STATS
    if (it > sw_gjk_stats_counters.max_cast_iterations) {
        sw_gjk_stats_counters.max_cast_iterations = it;
    }
#endif
    if (it == CAST_MAX_ITERATIONS) {
        /* Out of steps (a grazing pass): a hit if A is within the
         * tolerance of touching where it stopped. */
        out.hit = glen(*v) - R <= SW_TOLERANCE;
    }
    out.t = t;
    return out;
}

/* ---- features ---------------------------------------------------------------- */

/* B's feature of lowest dimension within tol of B's core point pb: the
 * specialised routines' rule and numbering (sw_core_feature, hulls
 * included: the face p lies on among nearly coplanar ones). */
static sw_feature name_feature(const sw_shape* b, sw_vec3 pb, gr world_size)
{
    const gr tol = SW_TOLERANCE / 2 * world_size;
    sw_core core;
    sw_core_make(b, &core);
    return sw_core_feature(&core, sw_core_to_local(&core, pb), (sw_real)tol);
}

/* ---- entry points ---------------------------------------------------------------- */

/* How far the plane with unit normal n separates the pair's shapes at
 * rest, in world units (the pair's frame is the world's translated and
 * scaled by k: directions are the same in both). */
static gr world_separation(const gjk_pair* P, gv n) { return separation(P, n, g3(0, 0, 0)) / P->f.k; }

/* Two polytopes that start within the skin of each other (GJK found
 * their cores apart): the overlap answer's normal old competes with the
 * direction of their closest points (the polytope distance, exact edge
 * by edge but for box-box and large hulls) and with the separating axis
 * that separates them most (where they touch within rounding, the
 * closest points have no direction).
 * The one along which the planes separate A from B most wins, if by more
 * than tol: it goes into out (depth, normal, point) and B's point into
 * *pb. The simplex the overlap answer reads its normal, depth and point
 * from is ill-conditioned on a needle: a flat box 2e14 long, 0.33 from a
 * triangle 4 across near its middle, with a skin of 16, got a normal
 * along which they overlap by 1e14, that depth and a point 3.9e6 from
 * the triangle (fuzz finding 53). The closest points' direction does not
 * always win: nearly touching, their gap is rounding, and a face's
 * normal separates better. */
static bool start_apart(const gjk_pair* P, const sw_shape* a, const sw_shape* b, gv old, sw_real skin, sw_hit* out,
                        sw_vec3* pb)
{
    const gr tol = SW_TOLERANCE * P->world_size;
    gr best = world_separation(P, old) + tol;
    bool better = false;
    const sw_distance_result r = sw_internal_distance_polytopes(a, b);
    sw_vec3 n = sw_sub(r.point_a, r.point_b);
    if (r.status == SW_OK && sw_normalize(&n) > 0) {
        const gr sep = world_separation(P, gof(n));
        if (sep > best) {
            best = sep;
            better = true;
            /* The distance itself where the plane confirms it (its
             * supports round at the shapes' extent). */
            out->depth = sw_max(skin - (sep >= r.distance - tol ? r.distance : (sw_real)sep), 0);
            out->normal = n;
            out->point = r.point_a;
            *pb = r.point_b;
        }
    }
    sw_vec3 axis;
    const double overlap = sw_internal_polytope_axis(a, b, &axis);
    const gr sep = world_separation(P, gof(axis));
    if (sep > best) {
        better = true;
        out->depth = sw_max(skin - (sep >= -overlap - tol ? (sw_real)-overlap : (sw_real)sep), 0);
        out->normal = axis;
        if (r.status == SW_OK) {
            out->point = r.point_a;
            *pb = r.point_b;
        }
    }
    return better;
}

static sw_hit sweep_pair(const sw_shape* a, sw_vec3 dw, const sw_shape* b, const sw_sweep_options* opt)
{
    sw_hit out = {0};
    gjk_pair P;
    sw_gjk_pair_make(&P, a, b, dw, sw_internal_skin(opt));
    STAT(++sw_gjk_stats_counters.queries);
    const gr R = P.a.radius + P.b.radius + P.skin;
    const gr k = P.f.k;
    simplex s = {0};
    gv v;
    const bool inside = sw_gjk_iterate(&P, g3(0, 0, 0), &s, &v);
    if (inside || glen(v) <= R + NOISE) {
        if (is_one_sided(b)) {
            return out;
        }
        const start_contact c = sw_gjk_overlap_answer(&P, &s, inside, R, gneg(P.d));
        out.depth = (sw_real)(c.depth / k);
        out.normal = gto(c.n);
        out.point = to_world(&P.f, c.point);
        sw_vec3 pb = to_world(&P.f, c.pb);
        const bool apart =
            !inside && is_polytope(a) && is_polytope(b) && start_apart(&P, a, b, c.n, sw_internal_skin(opt), &out, &pb);
        if (sw_internal_ignore_separating(opt) && (apart ? sw_dot(dw, out.normal) : (sw_real)gdot(P.d, c.n)) >= 0) {
            return (sw_hit){0};
        }
        out.hit = out.overlapping = true;
        if (c.crossing && is_polytope(a) && is_polytope(b)) {
            /* The witnesses of a simplex around the origin have weights
             * divided by its volume, which on a thin Minkowski difference
             * (a box 1e9 long against a polygon 30 across) puts them 1e6
             * apart (finding 24): the separating axes' point of the
             * overlapping polytopes is a point of both. */
            const sw_overlap_result o = sw_internal_overlap_polytopes(a, b);
            if (o.overlapping) {
                out.point = o.point;
            }
        }
        out.feature = name_feature(b, pb, P.world_size);
        return out;
    }
    if (gzero(P.d)) {
        return out;
    }
    const gr tau = gmax(2 * NOISE, SW_TOLERANCE / 1024);
    const cast_result c = cast(&P, R, tau, &s, &v);
    if (!c.hit) {
        return out;
    }
    const gv x = gscale(P.d, -c.t);
    /* The cast stops once |v| is within tau of the reach, but v's direction
     * is then only within sqrt(2 tau / R) of the closest points': converge
     * the simplex at x (warm, usually no support call at all). */
    sw_gjk_iterate(&P, x, &s, &v);
    sw_gjk_simplex_to_boundary(&s, x, &v);
    const gr len = glen(v);
    gv raw;
    if (len > 64 * NOISE) {
        raw = gscale(v, 1 / len);
    } else if (c.have_last) {
        raw = c.n_last;
    } else {
        raw = gneg(P.d);
        gnormalize(&raw);
    }
    const pick pk = sw_gjk_polish(&P, x, raw, s.v, s.n);
    const gv n = pk.n;
    if (is_one_sided(b) && !(gdot(P.d, P.b.normal) < 0 && gdot(n, P.b.normal) > 0)) {
        return out;
    }
    /* A's core point at t: its start point plus t d = minus x. */
    const gv pa = gsub(sw_gjk_simplex_a(&s), x);
    out.hit = true;
    out.t = (sw_real)c.t;
    out.normal = gto(n);
    out.point = to_world(&P.f, gmadd(pa, -P.a.radius, n));
    out.feature = name_feature(b, to_world(&P.f, sw_gjk_simplex_b(&s)), P.world_size);
    if ((a->type == SW_SHAPE_BOX || a->type == SW_SHAPE_HULL) && is_polytope(b) && sw_is_valid_vec3(out.point)) {
        /* A's witness has the simplex's weights, which across a needle (a
         * box 1.3e17 long swept with a skin onto a triangle 30 across) put
         * it 3.8e11 out along A (finding 41). A point more than tol beyond
         * the skin from B is replaced by A(t)'s point nearest B. (A point
         * beyond SW_MAX_COORD, on a path that leaves the valid range, is
         * no valid input to that distance query: it stays as it is.) */
        const sw_real tol = (sw_real)(SW_TOLERANCE * P.world_size);
        const sw_capsule q = {out.point, out.point, 0};
        const sw_distance_result to_b = sw_distance_capsule_shape(&q, b);
        sw_shape at;
        if (to_b.status == SW_OK && to_b.distance > sw_internal_skin(opt) + tol &&
            sw_internal_moved_solid(a, sw_scale(dw, out.t), &at)) {
            const sw_distance_result r = sw_internal_distance_polytopes(&at, b);
            if (r.status == SW_OK) {
                out.point = r.point_a;
            }
        }
    }
    return out;
}

sw_hit sw_gjk_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_vec3(d) && sw_is_valid_shape(b) && sw_internal_options_valid(opt),
               SW_INVALID_HIT);
    /* A half-space cannot move (DESIGN.md §2): bad input, as in sw_sweep. */
    SW_REQUIRE(a->type != SW_SHAPE_PLANE, SW_INVALID_HIT);
    SW_REQUIRE(has_vertices(a) && has_vertices(b), SW_INVALID_HIT);
    if (any_mesh(a, b)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    if (!bounded(b)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    return sweep_pair(a, d, b, opt);
}

sw_hit sw_gjk_raycast(const sw_ray* ray, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_ray(ray) && sw_is_valid_shape(b), SW_INVALID_HIT);
    SW_REQUIRE(has_vertices(b), SW_INVALID_HIT);
    if (any_mesh(NULL, b)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    if (!bounded(b)) {
        return sw_internal_hit_status(SW_UNSUPPORTED);
    }
    const sw_shape a = sw_make_point(ray->origin);
    sw_hit h = sweep_pair(&a, sw_scale(ray->dir, ray->max), b, NULL);
    h.t *= ray->max;
    return h;
}
