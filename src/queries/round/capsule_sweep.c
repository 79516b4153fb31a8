/* Sweeps of round shapes (a core segment plus a radius) against every
 * static shape, through B's core (queries/core.h). */
#include "queries/round/core.h"
#include "queries/round/fast.h"

/* Below this distance between cores, relative to their size, the direction
 * between the closest points is rounding noise. */
static sw_real touching_tol(const sw_core* b, sw_vec3 a0, sw_vec3 a1)
{
    return 16 * SW_EPSILON * sw_max(b->extent, sw_max(sw_max_abs(a0), sw_max_abs(a1)));
}

/* The rounding of a point's coordinates in B's local frame: below it the
 * gap between closest points has no direction. */
static sw_real rounding_noise(const sw_core* b, sw_vec3 a0, sw_vec3 a1)
{
    return 8 * SW_EPSILON * (sw_max_abs(b->origin) + b->extent + sw_max(sw_max_abs(a0), sw_max_abs(a1)));
}

/* How far the segment a0-a1 must move along the unit n to clear B's core:
 * B's extent along n beyond A's lowest point. */
static sw_real core_push(const sw_core* b, sw_vec3 a0, sw_vec3 a1, sw_vec3 n)
{
    return sw_core_support(b, n) - sw_min(sw_dot(n, a0), sw_dot(n, a1));
}

sw_overlap_result sw_internal_overlap_at(const sw_core* b, sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_real reach,
                                         sw_real dist, sw_vec3 pa, sw_vec3 pb, sw_vec3 gap, sw_feature* feature)
{
    sw_overlap_result out = {0};
    out.overlapping = true;
    const sw_real ftol = sw_core_feature_tol(b, a0, a1, sw_v3(0, 0, 0), reach);
    if (b->kind == SW_CORE_PLANE) {
        /* Signed distance: the depth below the surface counts too. */
        out.normal = b->n;
        out.depth = sw_max(reach - dist, 0);
        out.point = sw_madd(pa, -ra, b->n);
    } else if (dist > rounding_noise(b, a0, a1)) {
        /* Apart by more than the rounding of B's local frame: the gap has a
         * direction, which the features make exact. */
        out.normal = sw_core_contact_normal(b, a0, a1, pa, pb, gap, ftol);
        out.depth = sw_max(reach - dist, 0);
        /* On the line pb + s n, A covers [dist - ra, dist + ra] and B
         * (inflated) [-(reach - ra), reach - ra]: A's deepest point if in B. */
        sw_vec3 along = gap;
        sw_normalize(&along);
        out.point = sw_madd(pb, sw_max(dist - ra, -(reach - ra)), along);
        /* A gap only a little above the rounding still tilts the normal of
         * a long shape; when a separating axis separates the cores better
         * (A needs a shorter push along it), it is the better normal. But
         * only if it separates them by the distance (within tol), which
         * the depth says: a plane's separation, unlike the distance, is
         * as sensitive to its normal's tilt as the shape is long. A
         * capsule 7e10 long, 14.1 from a flat box, had a normal right to
         * 1e-10 rad and separated by 7.8 along it; an axis separated by
         * 10 and took its place with the depth reach - 14.1, leaving A
         * 0.49 inside (tol 0.07; fuzz finding 52). */
        sw_vec3 axis;
        sw_core_axis_depth(b, a0, a1, &axis);
        const sw_real axis_push = core_push(b, a0, a1, axis);
        if (axis_push < core_push(b, a0, a1, out.normal) && axis_push <= 2 * ftol - dist) {
            out.normal = axis;
        }
        /* The gap's own direction, where the features' normal is a worse
         * push by more than the tolerance: a B far smaller than the
         * feature tolerance (a triangle 100 across, 1.3e13 from a ball's
         * centre) has its features named loosely, and their normal was
         * 0.1 rad off (a push 4.6e10 short, against a tolerance of
         * 3.3e8). */
        if (core_push(b, a0, a1, along) < core_push(b, a0, a1, out.normal) - 2 * ftol) {
            out.normal = along;
        }
    } else {
        /* Touching or crossing: the separating axes give a direction that
         * does not depend on the noisy gap, and the depth of the push along
         * it (negative when they separate the cores). The gap's own
         * direction, if any, competes: the shorter push wins. */
        sw_real push = sw_core_axis_depth(b, a0, a1, &out.normal);
        if (gap.x != 0 || gap.y != 0 || gap.z != 0) {
            const sw_vec3 n = sw_core_contact_normal(b, a0, a1, pa, pb, gap, ftol);
            const sw_real along = core_push(b, a0, a1, n);
            if (along < push) {
                push = along;
                out.normal = n;
            }
        }
        out.depth = sw_max(reach + sw_max(push, -dist), 0);
        out.point = pb; /* a point of both cores, up to the rounding */
    }
    if (feature) {
        *feature = sw_core_feature(b, pb, ftol);
    }
    out.normal = sw_core_dir_to_world(b, out.normal);
    out.point = sw_core_to_world(b, out.point);
    return out;
}

sw_overlap_result sw_internal_overlap_core(const sw_core* b, sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_real reach,
                                           sw_feature* feature)
{
    sw_overlap_result none = {0};
    if (sw_core_apart(b, a0, a1, reach)) {
        return none;
    }
    sw_vec3 pa, pb, gap;
    const sw_real dist = sw_core_closest(b, a0, a1, &pa, &pb, &gap);
    /* Touching is judged up to the rounding of the distance itself, so
     * that a shape resting exactly on another (a segment lying along a
     * sliver, say) starts in contact instead of grazing it later. */
    if (!(dist <= reach + touching_tol(b, a0, a1))) {
        return none;
    }
    return sw_internal_overlap_at(b, a0, a1, ra, reach, dist, pa, pb, gap, feature);
}

sw_hit sw_internal_sweep_core(sw_vec3 a0w, sw_vec3 a1w, sw_real ra, sw_vec3 dw, const sw_core* b,
                              const sw_sweep_options* opt)
{
    sw_hit out = {0};
    const sw_vec3 a0 = sw_core_to_local(b, a0w), a1 = sw_core_to_local(b, a1w);
    const sw_vec3 d = sw_core_dir_to_local(b, dw);
    const sw_real reach = ra + b->radius + sw_internal_skin(opt);

    sw_feature feature;
    const sw_overlap_result start = sw_internal_overlap_core(b, a0, a1, ra, reach, &feature);
    if (start.overlapping) {
        if (b->one_sided || (sw_internal_ignore_separating(opt) && sw_dot(dw, start.normal) >= 0)) {
            return out;
        }
        out.hit = out.overlapping = true;
        out.depth = start.depth;
        out.normal = start.normal;
        out.point = start.point;
        out.feature = feature;
        return out;
    }
    if (d.x == 0 && d.y == 0 && d.z == 0) {
        return out;
    }
    const sw_contact found = sw_core_first_contact(b, a0, a1, d, reach);
    if (!found.hit) {
        return out;
    }
    sw_contact c = found;
    /* The contact's normal must keep A(t) and B apart. Where several
     * features touch at once it may not: edges nearly parallel (left to the
     * end-point kernels), a segment landing flat on a face and on one of its
     * edges, a point passing exactly through a vertex or an edge. Then the
     * closest points at time t give the normal (their gap has a direction
     * when there is a reach); with no reach, the separating axis of the
     * touching pair does. */
    const sw_real slack = sw_core_feature_tol(b, a0, a1, d, reach);
    if (b->kind != SW_CORE_PLANE) {
        const sw_vec3 at0 = sw_madd(a0, c.t, d), at1 = sw_madd(a1, c.t, d);
        const sw_vec3 pb = sw_madd(c.pa, -reach, c.normal);
        const bool a_clear =
            sw_dot(c.normal, sw_sub(at0, pb)) >= reach - slack && sw_dot(c.normal, sw_sub(at1, pb)) >= reach - slack;
        const bool b_clear = sw_core_support(b, c.normal) - sw_dot(c.normal, pb) <= slack;
        if (!(a_clear && b_clear)) {
            sw_vec3 pa_t, pb_t, gap, n;
            const sw_real dist = sw_core_closest(b, at0, at1, &pa_t, &pb_t, &gap);
            if (reach > slack && dist > rounding_noise(b, at0, at1)) {
                c.normal = sw_core_contact_normal(b, at0, at1, pa_t, pb_t, gap, slack);
                /* Measured from B's closest point: A's may be an end of A
                 * that won a near tie with a point beside it (the normal
                 * then is that of A's side, see feature_normal). */
                c.pa = sw_madd(pb_t, reach, c.normal);
            } else if ((reach <= slack || b->kind == SW_CORE_HULL) &&
                       -sw_core_axis_depth(b, at0, at1, &n) >= reach - slack - b->hull_tol) {
                /* Also a hull whose closest points say the cores meet where a
                 * kernel found them reach apart: its faces hold only to its
                 * own tolerance, which may exceed the reach. */
                c.normal = n; /* the touching point stays: only its normal was wrong */
            }
        }
    }
    /* A one-sided face stops only a front contact made moving against it. */
    if (b->one_sided && !(sw_dot(d, b->n) < 0 && sw_dot(c.normal, b->n) > 0)) {
        return out;
    }
    out.hit = true;
    out.t = c.t;
    out.normal = sw_core_dir_to_world(b, c.normal);
    out.point = sw_core_to_world(b, sw_madd(c.pa, -ra, c.normal));
    out.feature = sw_core_feature(b, sw_madd(c.pa, -reach, c.normal), sw_core_feature_tol(b, a0, a1, d, reach));
    return out;
}

sw_hit sw_internal_sweep_round_driver(sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d, const sw_shape* b,
                                      const sw_sweep_options* opt)
{
    if (b->type == SW_SHAPE_MESH) {
        return sw_internal_hit_status(SW_UNSUPPORTED); /* meshes go through sw_sweep */
    }
    sw_core core;
    sw_core_make(b, &core);
    return sw_internal_sweep_core(a0, a1, ra, d, &core, opt);
}

sw_hit sw_internal_sweep_round_polygon(sw_vec3 a0, sw_vec3 a1, bool a_point, sw_real ra, sw_vec3 d, const sw_shape* b,
                                       const sw_sweep_options* opt)
{
    const bool ray = ra == 0 && sw_internal_skin(opt) == 0 && a_point;
    const sw_polygon_frame* f = sw_internal_polygon_prepared(&b->polygon, !ray);
    sw_polygon_frame_store store;
    sw_polygon_frame frame;
    if (!f) {
        SW_REQUIRE(sw_internal_polygon_check(&b->polygon, &frame, &store, !ray) == NULL, SW_INVALID_HIT);
        f = &frame;
    }
    sw_hit fast;
    if (sw_fast_sweep_shape(a0, a1, a_point, ra, d, b, f, opt, &fast)) {
        return fast;
    }
    return sw_internal_sweep_round_driver(a0, a1, ra, d, b, opt);
}

sw_hit sw_sweep_capsule_shape(const sw_capsule* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(sw_is_valid_capsule(a) && sw_is_valid_vec3(d) && sw_internal_options_valid(opt), SW_INVALID_HIT);
    return sw_internal_sweep_round(a->a, a->b, sw_internal_same_point(a->a, a->b), a->radius, d, b, opt);
}

/* ---- typed entry points: each names its pair, then uses the general form ---- */

static sw_capsule of_sphere(const sw_sphere* s)
{
    /* An invalid (NULL) sphere becomes an invalid capsule for the check. */
    sw_capsule c = {{0, 0, 0}, {0, 0, 0}, -1};
    if (s) {
        c = (sw_capsule){s->center, s->center, s->radius};
    }
    return c;
}

static sw_capsule of_segment(const sw_segment* s)
{
    sw_capsule c = {{0, 0, 0}, {0, 0, 0}, -1};
    if (s) {
        c = (sw_capsule){s->a, s->b, 0};
    }
    return c;
}

static sw_hit sweep_capsule(const sw_capsule* a, sw_vec3 d, sw_shape b, const sw_sweep_options* opt)
{
    return sw_sweep_capsule_shape(a, d, &b, opt);
}

sw_hit sw_sweep_sphere_segment(const sw_sphere* a, sw_vec3 d, const sw_segment* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    const sw_capsule ca = of_sphere(a);
    return sweep_capsule(&ca, d, sw_make_segment(b->a, b->b), opt);
}

sw_hit sw_sweep_sphere_capsule(const sw_sphere* a, sw_vec3 d, const sw_capsule* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    const sw_capsule ca = of_sphere(a);
    return sweep_capsule(&ca, d, sw_make_capsule(b->a, b->b, b->radius), opt);
}

sw_hit sw_sweep_sphere_plane(const sw_sphere* a, sw_vec3 d, const sw_plane* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    const sw_capsule ca = of_sphere(a);
    return sweep_capsule(&ca, d, sw_make_plane(b->normal, b->offset), opt);
}

sw_hit sw_sweep_sphere_triangle(const sw_sphere* a, sw_vec3 d, const sw_triangle* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    const sw_capsule ca = of_sphere(a);
    return sweep_capsule(&ca, d, sw_make_triangle(b->v[0], b->v[1], b->v[2], b->one_sided), opt);
}

sw_hit sw_sweep_sphere_polygon(const sw_sphere* a, sw_vec3 d, const sw_polygon* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    const sw_capsule ca = of_sphere(a);
    return sweep_capsule(&ca, d, sw_internal_polygon_shape(b), opt);
}

sw_hit sw_sweep_sphere_box(const sw_sphere* a, sw_vec3 d, const sw_box* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    const sw_capsule ca = of_sphere(a);
    return sweep_capsule(&ca, d, sw_make_box(b->center, b->half, b->rotation), opt);
}

sw_hit sw_sweep_capsule_point(const sw_capsule* a, sw_vec3 d, sw_vec3 b, const sw_sweep_options* opt)
{
    return sweep_capsule(a, d, sw_make_point(b), opt);
}

sw_hit sw_sweep_capsule_segment(const sw_capsule* a, sw_vec3 d, const sw_segment* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return sweep_capsule(a, d, sw_make_segment(b->a, b->b), opt);
}

sw_hit sw_sweep_capsule_sphere(const sw_capsule* a, sw_vec3 d, const sw_sphere* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return sweep_capsule(a, d, sw_make_sphere(b->center, b->radius), opt);
}

sw_hit sw_sweep_capsule_capsule(const sw_capsule* a, sw_vec3 d, const sw_capsule* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return sweep_capsule(a, d, sw_make_capsule(b->a, b->b, b->radius), opt);
}

sw_hit sw_sweep_capsule_plane(const sw_capsule* a, sw_vec3 d, const sw_plane* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return sweep_capsule(a, d, sw_make_plane(b->normal, b->offset), opt);
}

sw_hit sw_sweep_capsule_triangle(const sw_capsule* a, sw_vec3 d, const sw_triangle* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return sweep_capsule(a, d, sw_make_triangle(b->v[0], b->v[1], b->v[2], b->one_sided), opt);
}

sw_hit sw_sweep_capsule_polygon(const sw_capsule* a, sw_vec3 d, const sw_polygon* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return sweep_capsule(a, d, sw_internal_polygon_shape(b), opt);
}

sw_hit sw_sweep_capsule_box(const sw_capsule* a, sw_vec3 d, const sw_box* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    return sweep_capsule(a, d, sw_make_box(b->center, b->half, b->rotation), opt);
}

sw_hit sw_sweep_segment_segment(const sw_segment* a, sw_vec3 d, const sw_segment* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    const sw_capsule ca = of_segment(a);
    return sweep_capsule(&ca, d, sw_make_segment(b->a, b->b), opt);
}

sw_hit sw_sweep_segment_triangle(const sw_segment* a, sw_vec3 d, const sw_triangle* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    const sw_capsule ca = of_segment(a);
    return sweep_capsule(&ca, d, sw_make_triangle(b->v[0], b->v[1], b->v[2], b->one_sided), opt);
}

sw_hit sw_sweep_segment_polygon(const sw_segment* a, sw_vec3 d, const sw_polygon* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    const sw_capsule ca = of_segment(a);
    return sweep_capsule(&ca, d, sw_internal_polygon_shape(b), opt);
}

sw_hit sw_sweep_segment_box(const sw_segment* a, sw_vec3 d, const sw_box* b, const sw_sweep_options* opt)
{
    SW_REQUIRE(b != NULL, SW_INVALID_HIT);
    const sw_capsule ca = of_segment(a);
    return sweep_capsule(&ca, d, sw_make_box(b->center, b->half, b->rotation), opt);
}
