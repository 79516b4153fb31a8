/* Validity predicates for every input type. Each test is written with
 * isfinite first, so a NaN fails it without raising FE_INVALID. */
#include "internal.h"
#include "shapes/polygon_frame.h"

bool sw_is_valid_real(sw_real v) { return sw_internal_real_ok(v); }

bool sw_is_valid_vec3(sw_vec3 v) { return sw_internal_vec3_ok(v); }

/* Inline forms for this file: validation runs on every query. */
#define sw_is_valid_real sw_internal_real_ok
#define sw_is_valid_vec3 sw_internal_vec3_ok
#define valid_radius sw_internal_radius_ok

bool sw_is_valid_quat(sw_quat q) { return sw_internal_quat_ok(q); }

bool sw_is_valid_sphere(const sw_sphere* s) { return sw_internal_sphere_ok(s); }

bool sw_is_valid_segment(const sw_segment* s) { return sw_internal_segment_ok(s); }

bool sw_is_valid_capsule(const sw_capsule* c) { return sw_internal_capsule_ok(c); }

bool sw_is_valid_box(const sw_box* b) { return sw_internal_box_ok(b); }

bool sw_is_valid_plane(const sw_plane* p)
{
    sw_vec3 n;
    sw_real offset;
    return p && sw_is_valid_vec3(p->normal) && sw_is_valid_real(p->offset) && sw_internal_plane_unit(p, &n, &offset);
}

bool sw_is_valid_triangle(const sw_triangle* t) { return sw_internal_triangle_ok(t); }

/* A collinear polygon (no area) is valid only if every vertex is on one
 * line: a bow-tie whose halves cancel has no net area but is not. */
static const char* collinear_invalid_reason(const sw_polygon* p, sw_real tol)
{
    int far = 0;
    for (int i = 1; i < p->count; ++i) {
        if (sw_length_sq(sw_sub(p->v[i], p->v[0])) > sw_length_sq(sw_sub(p->v[far], p->v[0]))) {
            far = i;
        }
    }
    sw_vec3 dir = sw_sub(p->v[far], p->v[0]);
    if (sw_normalize(&dir) == 0) {
        return NULL; /* every vertex at one point */
    }
    for (int i = 0; i < p->count; ++i) {
        const sw_vec3 off = sw_sub(p->v[i], p->v[0]);
        if (sw_length(sw_madd(off, -sw_dot(off, dir), dir)) > tol) {
            return "polygon is not convex (its vertices wind both ways)";
        }
    }
    return NULL; /* collinear: answered as its edges */
}

/* Direction reversals of a closed boundary along one axis: each edge's
 * component along it, counted only beyond `least`, compared with the
 * last counted one (and the last with the first, closing the loop). */
typedef struct reversals {
    double least, first, last;
    int count;
} reversals;

static void count_reversal(reversals* r, double along)
{
    if (fabs(along) > r->least) {
        if (r->last != 0) {
            r->count += (along > 0) != (r->last > 0);
        } else {
            r->first = along;
        }
        r->last = along;
    }
}

static int closed_reversals(const reversals* r) { return r->count + (r->last != 0 && (r->first > 0) != (r->last > 0)); }

/* Whether the boundary turns from edge a (ia = n x a) to edge b against n
 * by more than tol as seen from both edges: each one's far end beyond tol
 * of the other one's line ((a x b) . n = ia . b; the lengths, square
 * roots, only for a turn the wrong way). Seen from a's line alone (b's far
 * end), a turn after an edge far shorter than tol, whose direction is
 * rounding (a vertex repeated 1 ulp away at 3e4), refused a polygon
 * within 1.4e-4 of convex (tol 0.28; soak seed 11, case 1262). */
static bool turns_wrong_way(sw_dvec a, sw_dvec ia, sw_dvec b, double tol)
{
    const double turn = sw_ddot(ia, b);
    return turn < 0 && turn < -tol * sqrt(sw_dmax(sw_ddot(a, a), sw_ddot(b, b)));
}

/* Whether the boundary turns from edge a to edge b against n beyond the
 * rounding of the turn: ia . b = |a| |b| sin of the turn. */
static bool bends_back(sw_dvec a, sw_dvec ia, sw_dvec b)
{
    const double turn = sw_ddot(ia, b);
    return turn < 0 && -turn > 16 * DBL_EPSILON * sqrt(sw_ddot(a, a)) * sqrt(sw_ddot(b, b));
}

/* A vector perpendicular to the unit n, of length at least 1, without a
 * branch (after Stark, "Efficient construction of perpendicular vectors
 * without branching", 2009): its dot product with n is |x||z| + |y||z|
 * - |z|(|x| + |y|) = 0. Choosing the axis least aligned with n was a
 * branch on the normal's components, which its square root and division
 * settle last, unpredictable for polygons facing any way; flushing the
 * work queued behind it cost 10 ns of a random pentagon's 64 (medians of
 * alternating runs over 2,048 pentagons; the same choice made without a
 * branch saved 5). */
static sw_dvec perpendicular(sw_dvec n)
{
    return (sw_dvec){copysign(n.z, n.x), copysign(n.z, n.y), -copysign(fabs(n.x) + fabs(n.y), n.z)};
}

/* Why the boundary of the polygon of frame f is not convex and simple
 * within tol, or NULL; f->bent records a turn the wrong way beyond
 * rounding. In O(n): every turn bends the same way as n (within
 * tol), and walking the boundary the direction along a fixed in-plane
 * axis changes sign at most twice, so the polygon winds once (a
 * pentagram turns consistently but reverses four times). Each turn is
 * taken between consecutive edges of non-zero length: a repeated vertex
 * between them would hide the turn (a spike out and back along an edge,
 * beside a turn the wrong way). The reversals are counted along two
 * in-plane axes: a spike out and back along an edge perpendicular to
 * one of them (repeated vertices around it hide its turns) reverses
 * along the other. Along both, only an edge's component beyond tol
 * counts: a boundary that zigzags within tol (a bent edge split at
 * nearly collinear vertices, float rounding at a large offset) is
 * convex within tol, and counted along an axis across the zigzag it
 * was refused as winding twice. On 3,000,000 adversarial polygons per
 * precision (three seeds), every polygon this accepts lies within 5.1
 * tol of its convex hull, and beyond 2 tol only with edges near tol in
 * length (4.1 tol with the axes of perpendicular() chosen by branch,
 * before: the axes move the verdict only within that margin). */
static const char* convexity_reason(sw_polygon_frame* f, double tol)
{
    /* Two in-plane axes of one length, not normalised: tol scales instead. */
    const sw_dvec axis0 = perpendicular(f->n), axis1 = sw_dcross(f->n, axis0);
    const double axis_sq = sw_ddot(axis0, axis0);
    /* The common case first: no zero edge, every turn strictly positive,
     * and every edge's component along the in-plane axis g beyond twice
     * least. The edges' directions then turn one way by less than pi
     * each, so their signs along g change exactly twice per winding, and
     * along axis0 and axis1, where small components are skipped, at most
     * as often: when g counts two, the full test below passes too; when g
     * counts more, it refuses too. (Beyond least alone, a spike out and
     * back 1-2 tol long, which both axes skip and g does not, was refused
     * here and accepted there.) g mixes the two axes at a skew ratio, so
     * that the edges of axis-aligned polygons (common) are not
     * perpendicular to it. Same verdicts as the full test on 3,000,000
     * adversarial polygons in each precision. */
    if (!f->zero_edge) {
        const double mix = 0.7548776662466927;
        const sw_dvec g = sw_dmadd(axis0, mix, axis1);
        const double least_sq = 4 * tol * tol * axis_sq * (1 + mix * mix);
        const int count = f->count;
        bool clean = true, wrong_turn = false;
        int changes = 0;
        double last = sw_ddot(f->e[count - 1], g);
        for (int i = 0, prev = count - 1; i < count; prev = i++) {
            const double turn = sw_ddot(f->in[prev], f->e[i]), along = sw_ddot(f->e[i], g);
            wrong_turn = wrong_turn || turns_wrong_way(f->e[prev], f->in[prev], f->e[i], tol);
            clean = clean && turn > 0 && along * along > least_sq;
            changes += (along > 0) != (last > 0);
            last = along;
        }
        if (wrong_turn) {
            return "polygon is not convex (or its vertices are not in boundary order)";
        }
        if (clean) {
            return changes > 2 ? "polygon is not convex (its boundary winds more than once)" : NULL;
        }
    }
    const double least = tol * sqrt(axis_sq);
    reversals along0 = {least, 0, 0, 0}, along1 = {least, 0, 0, 0};
    int first = -1, prev = -1;
    bool wrong_turn = false;
    for (int i = 0; i < f->count; ++i) {
        const sw_dvec e = f->e[i];
        if (e.x == 0 && e.y == 0 && e.z == 0) {
            continue;
        }
        if (prev >= 0) {
            wrong_turn = wrong_turn || turns_wrong_way(f->e[prev], f->in[prev], e, tol);
            f->bent = f->bent || bends_back(f->e[prev], f->in[prev], e);
        } else {
            first = i; /* some edge is not zero: the polygon has area */
        }
        prev = i;
        count_reversal(&along0, sw_ddot(e, axis0));
        count_reversal(&along1, sw_ddot(e, axis1));
    }
    f->bent = f->bent || bends_back(f->e[prev], f->in[prev], f->e[first]);
    if (wrong_turn || turns_wrong_way(f->e[prev], f->in[prev], f->e[first], tol)) {
        return "polygon is not convex (or its vertices are not in boundary order)";
    }
    if (closed_reversals(&along0) > 2 || closed_reversals(&along1) > 2) {
        return "polygon is not convex (its boundary winds more than once)";
    }
    return NULL;
}

/* Why a thin polygon is not convex within tol, or NULL. The queries
 * answer a polygon whose area could be rounding of its extent's as the
 * segment between its extreme vertices a and b (the farthest from v[0],
 * and the farthest from that one: core.c, polytope.c), which is right
 * when the polygon is convex: the triangle of a, b and any vertex lies in
 * it, so every vertex is within area2 / |b - a| of their line. A vertex
 * beyond that by more than tol makes the polygon non-convex, and the
 * turn the wrong way can hide from convexity_reason in edges shorter
 * than tol: two spikes 1.7e7 long at a right angle, joined by vertices
 * 16 apart (tol 168), passed, and the segment between the spikes' tips
 * passed 8.4e6 from the rest. In units of the extent (its square can
 * leave double's range); only for polygons thin enough to become
 * segments (twice the queries' bound). Out of line: it rarely runs (the
 * caller tests the area first). */
static SW_NOINLINE const char* thin_invalid_reason(const sw_polygon_frame* f, sw_vec3 v0, double tol)
{
    const int count = f->count;
    if (!(f->ext >= DBL_MIN)) {
        return NULL; /* 1 / ext would overflow; far below any tolerance */
    }
    const double inv = 1 / f->ext;
    sw_dvec u[SW_MAX_POLYGON_VERTICES];
    sw_dvec nrm = {0, 0, 0};
    for (int i = 0; i < count; ++i) {
        u[i] = sw_dscale(f->v[i], inv);
        if (i > 1) {
            nrm = sw_dadd(nrm, sw_dcross(u[i - 1], u[i]));
        }
    }
    const double area2 = sqrt(sw_ddot(nrm, nrm));
    if (!(area2 <= 256 * SW_EPSILON * (1 + sw_max_abs(v0) * inv))) {
        return NULL;
    }
    int a = 0, b = 0;
    for (int i = 1; i < count; ++i) {
        a = sw_ddot(u[i], u[i]) > sw_ddot(u[a], u[a]) ? i : a;
    }
    for (int i = 0; i < count; ++i) {
        const sw_dvec ib = sw_dsub(u[b], u[a]), ii = sw_dsub(u[i], u[a]);
        b = sw_ddot(ii, ii) > sw_ddot(ib, ib) ? i : b;
    }
    const sw_dvec ab = sw_dsub(u[b], u[a]);
    const double len = sqrt(sw_ddot(ab, ab));
    const double allowed = tol * inv * len + area2;
    for (int i = 0; i < count; ++i) {
        const sw_dvec c = sw_dcross(sw_dsub(u[i], u[a]), ab);
        if (sqrt(sw_ddot(c, c)) > allowed) {
            return "polygon is not convex (its vertices wind both ways)";
        }
    }
    return NULL;
}

/* A bound on the rounding of each component of the frame's Newell normal
 * (8 count (count + 8) u ext^2, u = DBL_EPSILON / 2, generously). */
static double newell_rounding(int count, double ext)
{
    return 8.0 * count * (count + 8) * (DBL_EPSILON / 2) * ext * ext;
}

/* Planarity from the frame's double offsets and its unit normal n, where
 * that decides it: the Newell normal's rounding is bounded
 * (newell_rounding), and a vertex's offset
 * from the plane is trusted only farther than twice its error bound from
 * tol. Returns 1 when every vertex is certainly within tol, -1 when one is
 * certainly beyond, 0 when the wide type must decide (a tiny area, a
 * vertex near tol, an extent where the squared area could leave double's
 * range). In float builds the wide type is double itself and decides as
 * before; in double builds it is long double (x87), which costs twice the
 * rest of validation. The heights of the offsets over the plane go to
 * height, if it measures them (*measured). */
static int planarity_in_double(const sw_polygon_frame* f, double tol, sw_dvec n, double inv_area2, double* height,
                               bool* measured)
{
    const double u = DBL_EPSILON / 2, ext = f->ext, area2 = f->area2;
    if (!(ext > 1e-70 && ext < 1e70)) {
        return 0;
    }
    const double err = newell_rounding(f->count, ext);
    if (!(area2 > 16 * SW_EPSILON * ext * ext + 4 * err)) {
        return 0;
    }
    if (f->count == 3) {
        return 1; /* a triangle with area lies in its plane */
    }
    const double off_err = 2 * (6 * err * ext * inv_area2 + 10 * u * ext);
    int verdict = 1;
    for (int i = 0; i < f->count; ++i) {
        height[i] = sw_ddot(n, f->v[i]);
        const double off = fabs(height[i]);
        if (off > tol + off_err) {
            return -1;
        }
        if (!(off <= tol - off_err)) {
            verdict = 0;
        }
    }
    *measured = true;
    return verdict;
}

/* Planarity in the wide type, where double could not decide: why the
 * polygon is not planar, or NULL with *n its unit normal, or *collinear
 * for a polygon without area, whose vertices must then be on one line.
 * Not in sw_real: a sliver's normal from sw_real cross products is tilted
 * by about eps |e|^2 / area (4e-4 rad in float for a triangle 32 long and
 * 0.01 wide), which moved its own vertices out of its plane by 40
 * tolerances. */
static const char* planarity_wide(const sw_polygon* p, sw_real tol, sw_dvec* n, bool* collinear)
{
    const int count = p->count;
    const sw_wvec ow = sw_wv(p->v[0]);
    sw_wvec r[SW_MAX_POLYGON_VERTICES];
    sw_wvec nw = {0, 0, 0};
    sw_wide ext = 0;
    for (int i = 0; i < count; ++i) {
        r[i] = sw_wsub(sw_wv(p->v[i]), ow);
        const sw_wide m = sw_wmax_abs(r[i]);
        ext = m > ext ? m : ext;
        if (i > 1) {
            const sw_wvec c = sw_wcross(r[i - 1], r[i]);
            nw = (sw_wvec){nw.x + c.x, nw.y + c.y, nw.z + c.z};
        }
    }
    const sw_wide area2 = sw_wide_sqrt(sw_wdot(nw, nw));
    *collinear = area2 <= 16 * SW_EPSILON * ext * ext;
    if (*collinear) {
        return collinear_invalid_reason(p, tol);
    }
    if (count == 3) {
        return NULL; /* a triangle with area: its offsets would only show its normal's rounding */
    }
    const sw_wvec nu = {nw.x / area2, nw.y / area2, nw.z / area2};
    for (int i = 0; i < count; ++i) {
        const sw_wide off = sw_wdot(nu, r[i]);
        if ((off < 0 ? -off : off) > tol) {
            return "polygon is not planar";
        }
    }
    *n = (sw_dvec){(double)nu.x, (double)nu.y, (double)nu.z};
    return NULL;
}

/* The frame's edges, with n: from the vertices as given in double builds
 * (sw_polygon_edges), from the offsets in float builds, where they are
 * the same differences of floats, without converting every vertex twice. */
static SW_ALWAYS_INLINE void frame_edges(sw_polygon_frame* f, const sw_vec3* vw, int count, sw_dvec n)
{
    f->n = n;
#ifndef SWEEP_DOUBLE
    vw = NULL;
#endif
    f->zero_edge = !sw_polygon_edges(vw, f->v, count, n, f->e, f->in);
}

/* The polygon the fast paths answer: its offsets and edges moved along
 * the frame's normal onto the plane through v[0], by no more than the
 * planarity tolerance, with the offsets' heights over it (planarity_in_
 * double), as the driver's core does (flatten_polygon, queries/core.c), so
 * that the face, taken in that plane, and the edges meet without a crack.
 * After the verdict, which must not depend on it: moved before, the
 * offsets gave float builds' convexity test other edges, and a polygon
 * sw_is_valid_polygon accepts could be refused by a sweep. The in-plane
 * normals, at right angles to n, do not change. */
static void flatten_frame(sw_polygon_frame* f, const double* height)
{
    const sw_dvec n = f->n;
    const int count = f->count;
    for (int i = 0; i < count; ++i) {
        const int j = i + 1 < count ? i + 1 : 0;
        f->v[i] = sw_dmadd(f->v[i], -height[i], n);
        f->e[i] = sw_dmadd(f->e[i], height[i] - height[j], n);
    }
}

/* Planarity and convexity are judged within SW_TOLERANCE times the
 * polygon's scale, relative to v[0]. This runs on every query: a pass
 * for the vertices' validity and the scale, one for the frame's offsets
 * and normal, one for the plane (see planarity_in_double), one for the
 * edges and one for convexity_reason; one square root for the normal's
 * length and one for the in-plane axis (another only for a turn the
 * wrong way). */
const char* sw_internal_polygon_check(const sw_polygon* p, sw_polygon_frame* f, sw_polygon_frame_store* store,
                                      bool flatten)
{
    f->v = store->v;
    f->e = store->e;
    f->in = store->in;
    if (!p || !p->v) {
        return "polygon vertices are missing";
    }
    const int count = p->count;
    if (count < 3 || count > SW_MAX_POLYGON_VERTICES) {
        return "polygon must have 3 to 64 vertices";
    }
    sw_real scale = 0;
    for (int i = 0; i < count; ++i) {
        if (!sw_is_valid_vec3(p->v[i])) {
            return "polygon vertices must be finite and within range";
        }
        scale = sw_max(scale, sw_max_abs(p->v[i]));
    }
    const sw_real tol = SW_TOLERANCE * scale;
    f->count = count;
    f->bent = false;
    f->ext = sw_polygon_offsets(p->v, count, f->v, &f->nrm);
    /* Beyond this range |nrm|^2 could leave double's: the wide type then
     * decides (planarity_in_double), and the fast paths refuse. */
    f->area2 = f->ext > 1e-70 && f->ext < 1e70 ? sqrt(sw_ddot(f->nrm, f->nrm)) : 0;
    /* The fast paths' normal (as for a triangle, which they frame alone). */
    const double inv_area2 = f->area2 > 0 ? 1 / f->area2 : 0;
    const sw_dvec nd = sw_dscale(f->nrm, inv_area2);
    double height[SW_MAX_POLYGON_VERTICES];
    bool measured = false;
    const int flat = planarity_in_double(f, tol, nd, inv_area2, height, &measured);
    if (flat < 0) {
        return "polygon is not planar";
    }
    sw_dvec n = nd;
    bool collinear = false;
    if (flat == 0) {
        const char* reason = planarity_wide(p, tol, &n, &collinear);
        if (reason) {
            return reason;
        }
    }
    if (collinear) {
        frame_edges(f, p->v, count, nd); /* valid, answered as its edges (the fast paths refuse it) */
        return NULL;
    }
    frame_edges(f, p->v, count, n);
    const char* reason = NULL;
    if (count > 3) { /* a triangle with area is convex */
        /* Most polygons are far from thin, and the frame's area says so:
         * twice thin_invalid_reason's bound (with scale >= |v[0]|), plus
         * twice the bound on the Newell sums' rounding (as in
         * planarity_in_double), leave room for the rounding between the
         * two areas. The frame's area is 0 beyond an extent of 1e+-70. */
        const double ext = f->ext;
        const double thin = 512 * SW_EPSILON * ext * (ext + scale) + 2 * newell_rounding(count, ext);
        reason = f->area2 > thin ? NULL : thin_invalid_reason(f, p->v[0], tol);
        reason = reason ? reason : convexity_reason(f, tol);
    }
    if (flat == 0) {
        frame_edges(f, p->v, count, nd);
    }
    /* Unmeasured, the area or the extent is one the fast paths refuse. */
    if (flatten && measured && !reason) {
        flatten_frame(f, height);
    }
    return reason;
}

/* Kept out of line: the frame is large, and only polygons need it. */
static const char* polygon_invalid_reason(const sw_polygon* p)
{
    if (p && sw_internal_polygon_prepared(p, false)) {
        return NULL; /* validated when prepared */
    }
    sw_polygon_frame_store store;
    sw_polygon_frame f;
    return sw_internal_polygon_check(p, &f, &store, false);
}

bool sw_is_valid_polygon(const sw_polygon* p) { return polygon_invalid_reason(p) == NULL; }

bool sw_is_valid_ray(const sw_ray* r)
{
    if (!r || !sw_is_valid_vec3(r->origin) || !sw_is_valid_vec3(r->dir) || !valid_radius(r->max)) {
        return false;
    }
    /* The query's reach, max * dir, must itself be a valid displacement:
     * it is when |dir| <= 1 (max is valid); else max <= SW_MAX_COORD / m,
     * a quotient that neither overflows (as it did for a dir of 1e-21 in
     * float, raising FE_OVERFLOW) nor divides by zero. The divisor goes
     * through a volatile: clang divided before the test once this
     * function was inlined into its caller, as in the single header. */
    sw_real m = sw_max_abs(r->dir);
    volatile sw_real divisor = m > 1 ? m : 1;
    return m <= 1 || r->max <= SW_MAX_COORD / divisor;
}

bool sw_is_valid_sweep_options(const sw_sweep_options* o) { return o && valid_radius(o->skin); }

const char* sw_shape_invalid_reason(const sw_shape* s)
{
    if (!s) {
        return "shape is missing";
    }
    switch (s->type) {
    case SW_SHAPE_POINT:
        return sw_is_valid_vec3(s->point) ? NULL : "point coordinates must be finite and within range";
    case SW_SHAPE_SEGMENT:
        return sw_is_valid_segment(&s->segment) ? NULL : "segment end points must be finite and within range";
    case SW_SHAPE_SPHERE:
        if (!sw_is_valid_vec3(s->sphere.center)) {
            return "sphere center must be finite and within range";
        }
        return valid_radius(s->sphere.radius) ? NULL : "sphere radius must be >= 0, finite and within range";
    case SW_SHAPE_CAPSULE:
        if (!sw_is_valid_vec3(s->capsule.a) || !sw_is_valid_vec3(s->capsule.b)) {
            return "capsule end points must be finite and within range";
        }
        return valid_radius(s->capsule.radius) ? NULL : "capsule radius must be >= 0, finite and within range";
    case SW_SHAPE_BOX:
        if (!sw_is_valid_vec3(s->box.center)) {
            return "box center must be finite and within range";
        }
        if (!valid_radius(s->box.half.x) || !valid_radius(s->box.half.y) || !valid_radius(s->box.half.z)) {
            return "box half extents must be >= 0, finite and within range";
        }
        return sw_is_valid_quat(s->box.rotation) ? NULL : "box rotation must be a finite, non-zero quaternion";
    case SW_SHAPE_PLANE:
        if (!sw_is_valid_vec3(s->plane.normal) || !sw_is_valid_real(s->plane.offset)) {
            return "plane normal and offset must be finite and within range";
        }
        if (!(sw_max_abs(s->plane.normal) > 0)) {
            return "plane normal must not be zero";
        }
        return sw_is_valid_plane(&s->plane) ? NULL : "plane offset / |normal| is out of range";
    case SW_SHAPE_TRIANGLE:
        return sw_is_valid_triangle(&s->triangle) ? NULL : "triangle vertices must be finite and within range";
    case SW_SHAPE_POLYGON:
        return polygon_invalid_reason(&s->polygon);
    case SW_SHAPE_HULL:
        if (!s->hull.hull) {
            return "hull is missing";
        }
        if (!sw_is_valid_vec3(s->hull.position) || !sw_is_valid_quat(s->hull.rotation)) {
            return "hull position and rotation must be finite, the rotation non-zero";
        }
        return sw_is_valid_hull_instance(&s->hull) ? NULL : "placed hull vertices are out of range";
    case SW_SHAPE_MESH:
        if (!s->mesh.mesh) {
            return "mesh is missing";
        }
        if (!sw_is_valid_vec3(s->mesh.position) || !sw_is_valid_quat(s->mesh.rotation)) {
            return "mesh position and rotation must be finite, the rotation non-zero";
        }
        return sw_is_valid_mesh_instance(&s->mesh) ? NULL : "placed mesh vertices are out of range";
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    return "unknown shape type";
}

bool sw_is_valid_hull_instance(const sw_hull_instance* h)
{
    if (!h || !h->hull || !sw_is_valid_vec3(h->position) || !sw_is_valid_quat(h->rotation)) {
        return false;
    }
    /* Every placed vertex lies within radius of the placed centre. */
    sw_quat q = h->rotation;
    sw_quat_normalize(&q);
    const sw_vec3 c = sw_add(sw_quat_rotate(q, h->hull->center), h->position);
    return sw_max_abs(c) + h->hull->radius <= SW_MAX_COORD;
}

bool sw_is_valid_shape(const sw_shape* s) { return sw_shape_invalid_reason(s) == NULL; }
