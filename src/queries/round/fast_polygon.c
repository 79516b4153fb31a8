/* Fast path of a point core (sphere, point) against a triangle or convex
 * polygon inflated by the reach: the face plane first, then the edges'
 * cylinders and the vertices' balls, each contact certified by its
 * feature's normal cone (fast.h). Where the path meets the plane outside
 * the polygon tells which edges and vertices to try first. */
#include "queries/round/fast.h"

/* The squared distance from g, an offset from an edge's start, to the
 * edge 0..e (ee = |e|^2). */
static SW_ALWAYS_INLINE double edge_dist_sq(sw_dvec g, sw_dvec e, double ee)
{
    const double u = sw_ddot(g, e);
    const sw_dvec off = sw_dmadd(g, -(u <= 0 ? 0 : (u >= ee ? 1 : u / ee)), e);
    return sw_ddot(off, off);
}

/* The vertex nearest p within tol, else `edge`: the feature of lowest
 * dimension holding a contact point found on that edge. */
static sw_feature vertex_or_edge(const sw_dvec* v, int count, int edge, sw_dvec p, double tol)
{
    sw_feature f = {SW_FEATURE_EDGE, edge};
    double best_sq = tol * tol;
    for (int i = 0; i < count; ++i) {
        const sw_dvec g = sw_dsub(p, v[i]);
        const double dist_sq = sw_ddot(g, g);
        if (dist_sq <= best_sq) {
            f = (sw_feature){SW_FEATURE_VERTEX, i};
            best_sq = dist_sq;
        }
    }
    return f;
}

/* The feature holding a point p of the face whose edge functions (|e_i|
 * times p's distance inside edge i's line) are ef: the vertex or edge
 * within tol, else the face. */
static sw_feature face_feature(const sw_dvec* v, const sw_dvec* e, const double* ef, int count, sw_dvec p, double tol)
{
    int edge = -1;
    double best = tol * tol;
    for (int i = 0; i < count; ++i) {
        /* The distance to the line bounds the distance to the edge. */
        const double ee = sw_ddot(e[i], e[i]);
        if (ef[i] * ef[i] > best * ee) {
            continue;
        }
        const double dist_sq = edge_dist_sq(sw_dsub(p, v[i]), e[i], ee);
        if (dist_sq <= best) {
            edge = i;
            best = dist_sq;
        }
    }
    if (edge < 0) {
        return (sw_feature){SW_FEATURE_FACE, 0};
    }
    return vertex_or_edge(v, count, edge, p, tol);
}

/* The running result of edge_capsules: the least cylinder entry so far
 * (time, parameter along the edge, edge), the ends beyond which each
 * edge's infinite cylinder is entered or started in (bit k: vertex k;
 * `lo` from the edge that starts there, `hi` from the edge that ends
 * there), and whether a contact was refused as unsure. */
typedef struct edge_scan {
    double best, best_u;
    int win;
    bool doubt;
    uint64_t lo, hi;
} edge_scan;

/* Edge i (from vertex i to vertex j) of edge_capsules: its cylinder's
 * entry, or the end whose ball the path reaches beyond it. */
static SW_ALWAYS_INLINE void edge_capsule(edge_scan* sc, int i, int j, const sw_dvec* v, const sw_dvec* e,
                                          const sw_dvec* in, sw_dvec f, sw_dvec d, double s0, double nd, double h,
                                          double rr, double dd)
{
    const sw_dvec m = sw_dsub(f, v[i]);
    const double ee = sw_ddot(e[i], e[i]), a = sw_ddot(in[i], m), b = sw_ddot(in[i], d);
    const double C = a * a + ee * h;
    if (!(C > 0)) {
        /* Inside the infinite cylinder, so beyond an end (the start is
         * clear of the capsule): that end's ball. */
        const double u0 = sw_ddot(m, e[i]);
        sc->lo |= (uint64_t)(u0 < 0) << i;
        sc->hi |= (uint64_t)(u0 > ee) << j;
        sc->doubt = sc->doubt || !(u0 < 0 || u0 > ee);
        return;
    }
    const double B = a * b + s0 * nd * ee;
    if (!(B < 0)) {
        return; /* moving away from the axis */
    }
    double t, disc;
    if (!sw_fast_cylinder_entry(b * b + nd * nd * ee, B, C, a * nd - s0 * b, ee, rr, &t, &disc)) {
        return;
    }
    const double u = sw_ddot(m, e[i]) + t * sw_ddot(d, e[i]);
    if (u < 0 || u > ee) {
        sc->lo |= (uint64_t)(u < 0) << i;
        sc->hi |= (uint64_t)(u > ee) << j;
        return;
    }
    if (sw_fast_cylinder_shallow(disc, ee, rr, dd)) {
        sc->doubt = true;
        return;
    }
    if (t < sc->best) {
        sc->best = t;
        sc->best_u = u;
        sc->win = i;
    }
}

/* The first contact of the point f (local) moving by d with the
 * capsules of radius R around the polygon's edges, for a start clear of
 * them (s0 = n . f and nd = n . d, n the unit normal): the least entry
 * over the edges. A capsule lies inside its edge's infinite cylinder, so
 * the cylinder is tried first. A vertex's ball lies inside both its
 * edges' infinite cylinders, and a path that enters one of them level with
 * its edge meets that edge's capsule first; so the ball can be first only
 * where the path enters (or starts in) both cylinders beyond that vertex,
 * and only those balls are tried: for a triangle at most one, since each
 * edge names one end (sphere-triangle 1,030 -> 1,005 instructions a
 * query, 4.6 -> 4.2 mispredicted branches; trying every end either edge
 * named tried 0.72 balls a query). The
 * cylinder's coefficients (sw_fast_cylinder_entry's) come from the edge
 * functions of f and d: with in = n x e, |in| = |e|, and the vertices on
 * the plane, e x (f - v) = a n - s0 in and e x d = b n - nd in, so no
 * cross product is needed. The least entry over the union is its first
 * contact in exact arithmetic, whatever the order; the winner is still
 * certified by its normal cone (fast.h), and rounding at a seam may make
 * that refuse it (UNSURE). This replaced a guess of the feature from
 * where the path meets the face's plane, a cull by the prism over the
 * polygon, and tries in order: float sphere-triangle 3.58x -> 3.10x,
 * sphere-polygon 6.97x -> 6.45x (medians of five alternating runs on a
 * busy host), 1,114 -> 1,068 instructions a query (cachegrind). */
static SW_ALWAYS_INLINE sw_fast_status edge_capsules(const sw_dvec* v, const sw_dvec* e, const sw_dvec* in, int count,
                                                     sw_dvec f, sw_dvec d, double s0, double nd, double R,
                                                     sw_fast_contact* c)
{
    const double rr = R * R, dd = sw_ddot(d, d), h = s0 * s0 - rr;
    edge_scan sc = {2, 0, -1, false, 0, 0};
    /* A triangle's three edges written out: gcc 12 keeps the loop, whose
     * body is too large to unroll whole (sphere-triangle 1,079 -> 1,052
     * instructions a query, mispredicted branches 6.3 -> 4.6). */
    if (count == 3) {
        edge_capsule(&sc, 0, 1, v, e, in, f, d, s0, nd, h, rr, dd);
        edge_capsule(&sc, 1, 2, v, e, in, f, d, s0, nd, h, rr, dd);
        edge_capsule(&sc, 2, 0, v, e, in, f, d, s0, nd, h, rr, dd);
    } else {
        for (int i = 0; i < count; ++i) {
            edge_capsule(&sc, i, i + 1 < count ? i + 1 : 0, v, e, in, f, d, s0, nd, h, rr, dd);
        }
    }
    double best = sc.best, best_u = sc.best_u;
    int win = sc.win;
    bool doubt = sc.doubt;
    uint64_t balls = sc.lo & sc.hi;
    sw_dvec n = {0, 0, 0};
    for (; balls != 0; balls &= balls - 1) {
        const int k = sw_fast_lowest_bit(balls);
        double t;
        sw_dvec m;
        const sw_fast_status st = sw_fast_ball(sw_dsub(f, v[k]), d, R, &t, &m);
        doubt = doubt || st == SW_FAST_UNSURE;
        if (st == SW_FAST_HIT && t < best) {
            best = t;
            win = count + k;
            n = m;
        }
    }
    if (win < 0) {
        return doubt ? SW_FAST_UNSURE : SW_FAST_MISS;
    }
    /* Certified when the normal points out across the edge, or away from
     * both of the vertex's edges. */
    const double sl = SW_FAST_CONE_SLACK * SW_FAST_CONE_SLACK;
    bool ok;
    if (win < count) {
        const sw_dvec at = sw_dmadd(sw_dsub(f, v[win]), best, d);
        const sw_dvec off = sw_dmadd(at, -best_u / sw_ddot(e[win], e[win]), e[win]);
        n = sw_dscale(off, 1 / sqrt(sw_ddot(off, off)));
        const double dm = -sw_ddot(n, in[win]);
        ok = dm >= 0 || dm * dm <= sl * sw_ddot(in[win], in[win]);
    } else {
        const int k = win - count;
        const sw_dvec en = e[k], ep = e[k > 0 ? k - 1 : count - 1];
        const double dn = sw_ddot(n, en), dp = -sw_ddot(n, ep);
        ok = (dn <= 0 || dn * dn <= sl * sw_ddot(en, en)) && (dp <= 0 || dp * dp <= sl * sw_ddot(ep, ep));
    }
    if (!ok) {
        return SW_FAST_UNSURE; /* a contact hidden inside: not first */
    }
    c->t = best;
    c->n = n;
    c->pa = sw_dmadd(f, best, d);
    c->feature = (sw_feature){win < count ? SW_FEATURE_EDGE : SW_FEATURE_VERTEX, win < count ? win : win - count};
    return SW_FAST_HIT;
}

/* Whether the line through o along d crosses the polygon, decided so that
 * a mesh is watertight (after Woop, Benthin and Wald, "Watertight
 * ray/triangle intersection", 2013): each vertex is sheared into the
 * line's frame by a computation that depends on the vertex and the line
 * alone, so two polygons sharing an edge compute its edge function as
 * exact negatives of each other (each product in its own statement: no
 * fused multiply-add may break the symmetry), and its sign gives the
 * crossing to one of them. A crossing exactly on the edge touches both
 * (touching is contact, DESIGN.md §2), so it is never lost. */
static bool line_through_polygon(const sw_vec3* vw, int count, sw_vec3 o, sw_dvec d)
{
    const double dv[3] = {d.x, d.y, d.z};
    const double ax = fabs(d.x), ay = fabs(d.y), az = fabs(d.z);
    const int kz = ax > ay ? (ax > az ? 0 : 2) : (ay > az ? 1 : 2);
    const int kx = kz == 2 ? 0 : kz + 1, ky = kx == 2 ? 0 : kx + 1;
    const double sx = dv[kx] / dv[kz], sy = dv[ky] / dv[kz];
    double x[SW_MAX_POLYGON_VERTICES], y[SW_MAX_POLYGON_VERTICES], e[SW_MAX_POLYGON_VERTICES];
    for (int i = 0; i < count; ++i) {
        const double p[3] = {(double)vw[i].x - o.x, (double)vw[i].y - o.y, (double)vw[i].z - o.z};
        x[i] = p[kx] - sx * p[kz];
        y[i] = p[ky] - sy * p[kz];
    }
    double area = 0;
    for (int i = 0; i < count; ++i) {
        const int j = i + 1 < count ? i + 1 : 0;
        const double xy = x[i] * y[j];
        const double yx = y[i] * x[j];
        e[i] = xy - yx;
        area += e[i];
    }
    if (!(area != 0)) {
        return false; /* seen edge-on */
    }
    const double s = area > 0 ? 1 : -1;
    for (int i = 0; i < count; ++i) {
        if (s * e[i] < 0) {
            return false;
        }
    }
    return true;
}

/* Whether the point p (of the face plane, outside an edge's line) lies
 * within tol of an edge. line_through_polygon shears the vertices into
 * the frame of the line's origin, where a far origin rounds the edge
 * functions by more than a thin polygon's own: a ray 1.5e13 from a sliver
 * 38 long, nearly along its direction, passed 8.5e7 from all three edge
 * lines (tol 2.4e9), the rounding made their signs agree, and a hit was
 * reported 1.5e13 from the sliver (fuzz finding 51). Near all three
 * lines is not near the sliver: the distance to the edges themselves,
 * in the polygon's frame, does not depend on the origin; where it puts
 * the point beyond tol, the driver decides. */
static bool near_edges(const sw_dvec* v, const sw_dvec* e, int count, sw_dvec p, double tol)
{
    for (int i = 0; i < count; ++i) {
        if (edge_dist_sq(sw_dsub(p, v[i]), e[i], sw_ddot(e[i], e[i])) <= tol * tol) {
            return true;
        }
    }
    return false;
}

/* Whether a point of the face plane whose edge functions are ef is
 * within tol of an edge's line, and outside none by more: near the rim.
 * Elsewhere a ray's crossing is decided by the polygon's
 * own frame: the watertight test matters only where two polygons sharing
 * an edge could both, or neither, claim the crossing, within rounding of
 * that edge, and from a far origin its shear rounds by more than a small
 * polygon's size (near_edges). */
static bool near_rim(const sw_dvec* e, const double* ef, int count, double tol)
{
    bool near = false;
    for (int i = 0; i < count; ++i) {
        const bool close = ef[i] * ef[i] <= tol * tol * sw_ddot(e[i], e[i]);
        if (ef[i] < 0 && !close) {
            return false; /* clearly outside */
        }
        near = near || close;
    }
    return near;
}

/* The polygon's offsets, extent, Newell normal and its length: from
 * validation's frame (a polygon), else computed here (a triangle) into v,
 * the length once the extent is known to be in range. */
typedef struct polygon_plane {
    const sw_dvec* v;
    sw_dvec nrm;
    double ext, area2;
} polygon_plane;

static SW_ALWAYS_INLINE polygon_plane plane_of(const sw_polygon_frame* ready, const sw_vec3* vw, int count, sw_dvec* v)
{
    if (ready) {
        return (polygon_plane){ready->v, ready->nrm, ready->ext, ready->area2};
    }
    polygon_plane p = {v, {0, 0, 0}, 0, 0};
    p.ext = sw_polygon_offsets(vw, count, v, &p.nrm);
    return p;
}

/* Takes the polygon's extent into q's size (q's origin is its first
 * vertex); false for a polygon too thin for the fast paths (the rounding
 * of its vertices tilts its normal) or a query out of their range (where
 * |nrm|^2 could overflow): the driver answers. */
static SW_ALWAYS_INLINE bool polygon_usable(sw_fast_query* q, polygon_plane* p, bool ready)
{
    const double ext = p->ext;
    if (!sw_fast_set_size(q, ext)) {
        return false;
    }
    if (!ready) {
        p->area2 = sqrt(sw_ddot(p->nrm, p->nrm));
    }
    return p->area2 > SW_FAST_MIN_REACH * ext * ext &&
           p->area2 > 0x1p20 * DBL_EPSILON * (sw_dmax_abs(sw_dv(q->origin)) + ext) * ext;
}

/* The edges and their in-plane normals with the unit normal n (into e and
 * in), unless validation's frame has them; false on a repeated vertex,
 * which would break the vertex cones, and on a turn the wrong way, where
 * the polygon is not the intersection of its edges' half-planes. A
 * triangle (no frame) that polygon_usable let through has neither (a
 * zero edge makes its offsets' cross product exactly zero), so the test
 * is redundant there: the point path skips it (test_zero false; 25
 * instructions a query), the segment path keeps it (without it gcc 12
 * compiled that path into 100 more). */
static SW_ALWAYS_INLINE bool polygon_edges(const sw_polygon_frame* ready, const sw_dvec* v, int count, sw_dvec n,
                                           sw_dvec* e, sw_dvec* in, bool test_zero)
{
    if (ready) {
        return !ready->zero_edge && !ready->bent;
    }
    return sw_polygon_edges(NULL, v, count, n, e, in) || !test_zero;
}

static SW_ALWAYS_INLINE sw_fast_status point_polygon(sw_fast_query* q, sw_vec3 a0w, const sw_vec3* vw, int count,
                                                     const sw_polygon_frame* ready, bool one_sided, sw_fast_contact* c)
{
    sw_dvec vl[SW_MAX_POLYGON_VERTICES], el[SW_MAX_POLYGON_VERTICES], inl[SW_MAX_POLYGON_VERTICES];
    double ef[SW_MAX_POLYGON_VERTICES];
    polygon_plane pp = plane_of(ready, vw, count, vl);
    const sw_dvec *v = pp.v, *e = ready ? ready->e : el, *in = ready ? ready->in : inl;
    if (!polygon_usable(q, &pp, ready != NULL)) {
        return SW_FAST_UNSURE;
    }
    const sw_dvec n = ready ? ready->n : sw_dscale(pp.nrm, 1 / pp.area2);
    const sw_dvec f = q->a0, d = q->d;
    const double R = q->reach;
    const double s0 = sw_ddot(n, f), nd = sw_ddot(n, d);
    /* Cull: the path stays on one side of the slab |n . x| <= R. */
    const double slab = R + q->margin;
    if ((s0 > slab && s0 + nd > slab) || (s0 < -slab && s0 + nd < -slab)) {
        return SW_FAST_MISS;
    }
    if (!polygon_edges(ready, v, count, n, el, inl, false)) {
        return SW_FAST_UNSURE;
    }
    const double dd = sw_ddot(d, d);
    /* A start in or near contact is the general driver's. */
    if (!(s0 > slab || s0 < -slab)) {
        const sw_dvec foot = sw_dmadd(f, -s0, n);
        bool inside = true;
        double dist_sq = sw_ddot(f, f);
        for (int i = 0; i < count; ++i) {
            inside = inside && sw_ddot(in[i], sw_dsub(foot, v[i])) >= 0;
            dist_sq = sw_dmin(dist_sq, edge_dist_sq(sw_dsub(f, v[i]), e[i], sw_ddot(e[i], e[i])));
        }
        if (inside || !(dist_sq > slab * slab)) {
            return SW_FAST_UNSURE;
        }
    }
    const bool curved = R > SW_FAST_MIN_REACH * q->size;
    const double side = s0 > 0 ? 1 : -1;
    const double gap = side * s0 - R, closing = -side * nd;
    /* The face: the path reaches the plane offset by R over the polygon;
     * otherwise the edges' capsules. */
    if (gap > 0 && closing > 0) {
        const double t = gap <= closing ? gap / closing : 1;
        const sw_dvec at = sw_dmadd(f, t, d), foot = sw_dmadd(at, -side * R, n);
        bool inside = true;
        for (int i = 0; i < count; ++i) {
            ef[i] = sw_ddot(in[i], sw_dsub(foot, v[i]));
            inside = inside && ef[i] >= 0;
        }
        if (R == 0 && gap <= closing && near_rim(e, ef, count, q->ftol)) {
            const bool local = inside;
            inside = line_through_polygon(vw, count, a0w, d);
            if (inside && !local && !near_edges(v, e, count, foot, q->ftol)) {
                return SW_FAST_UNSURE;
            }
        }
        if (inside && gap <= closing) {
            /* A path nearly parallel to the face puts the foot anywhere. */
            if (closing < 1e-4 * sqrt(dd)) {
                return SW_FAST_UNSURE;
            }
            c->t = t;
            c->n = sw_dscale(n, side);
            c->pa = at;
            c->feature = face_feature(v, e, ef, count, foot, q->ftol);
            return one_sided && !(nd < 0 && side > 0) ? SW_FAST_MISS : SW_FAST_HIT;
        }
    } else if (!curved && !(gap > 0)) {
        return SW_FAST_UNSURE;
    }
    if (!curved) {
        /* Without a reach only the face stops the point; with a tiny one
         * the driver decides, unless the path misses the prism that holds
         * the inflated polygon (the slab, and each edge's plane pushed out
         * by the reach and the margin). */
        if (!(R > 0)) {
            return SW_FAST_MISS;
        }
        double lo = 0, hi = 1;
        if (nd != 0) {
            const double inv = 1 / nd, t1 = (-slab - s0) * inv, t2 = (slab - s0) * inv;
            lo = sw_dmax(lo, sw_dmin(t1, t2));
            hi = sw_dmin(hi, sw_dmax(t1, t2));
        }
        for (int i = 0; i < count && lo <= hi; ++i) {
            const double a = -sw_ddot(in[i], sw_dsub(f, v[i])), b = -sw_ddot(in[i], d);
            const double limit = slab * sqrt(sw_ddot(e[i], e[i]));
            if (b > 0) {
                hi = sw_dmin(hi, (limit - a) / b);
            } else if (b < 0) {
                lo = sw_dmax(lo, (limit - a) / b);
            } else if (a > limit) {
                hi = -1;
            }
        }
        return lo <= hi ? SW_FAST_UNSURE : SW_FAST_MISS;
    }
    const sw_fast_status st = edge_capsules(v, e, in, count, f, d, s0, nd, R, c);
    if (st != SW_FAST_HIT) {
        return st;
    }
    if (c->feature.kind == SW_FEATURE_EDGE) {
        c->feature = vertex_or_edge(v, count, c->feature.index, sw_dmadd(c->pa, -R, c->n), q->ftol);
    }
    return one_sided && !(nd < 0 && sw_ddot(c->n, n) > 0) ? SW_FAST_MISS : SW_FAST_HIT;
}

/* Whether the point p of the polygon's plane (local) is in the closed
 * polygon; ef receives its edge functions. */
static SW_ALWAYS_INLINE bool in_polygon(const sw_dvec* v, const sw_dvec* in, int count, sw_dvec p, double* ef)
{
    bool inside = true;
    for (int i = 0; i < count; ++i) {
        ef[i] = sw_ddot(in[i], sw_dsub(p, v[i]));
        inside = inside && ef[i] >= 0;
    }
    return inside;
}

/* A segment core against a triangle or polygon inflated by the reach: the
 * union of the prism over the polygon (|n . x| <= R) and its edges'
 * capsules. The prism's sides lie inside the capsules, so the core first
 * touches a cap with its lower end (or with all of it, when parallel, where
 * the capsule of an edge it lies across is touched too), or an edge's
 * capsule: the cap first, then each edge's segment pair, every contact
 * certified against the whole polygon (fast.h). */
static SW_ALWAYS_INLINE sw_fast_status segment_polygon(sw_fast_query* q, const sw_vec3* vw, int count,
                                                       const sw_polygon_frame* ready, bool one_sided,
                                                       sw_fast_contact* c)
{
    sw_dvec vl[SW_MAX_POLYGON_VERTICES], el[SW_MAX_POLYGON_VERTICES], inl[SW_MAX_POLYGON_VERTICES];
    double ef[SW_MAX_POLYGON_VERTICES];
    polygon_plane pp = plane_of(ready, vw, count, vl);
    const sw_dvec *v = pp.v, *e = ready ? ready->e : el, *in = ready ? ready->in : inl;
    const double ext = pp.ext;
    if (!polygon_usable(q, &pp, ready != NULL)) {
        return SW_FAST_UNSURE;
    }
    const sw_dvec n = ready ? ready->n : sw_dscale(pp.nrm, 1 / pp.area2);
    const sw_dvec a0 = q->a0, a1 = q->a1, d = q->d, ea = sw_dsub(a1, a0);
    const double R = q->reach, slab = R + q->margin;
    const double s0 = sw_ddot(n, a0), s1 = sw_ddot(n, a1), nd = sw_ddot(n, d);
    /* Cull: the swept core stays on one side of the slab. */
    const double low = sw_dmin(s0, s1), high = sw_dmax(s0, s1);
    if (low + sw_dmin(nd, 0) > slab || high + sw_dmax(nd, 0) < -slab) {
        return SW_FAST_MISS;
    }
    if (!polygon_edges(ready, v, count, n, el, inl, true)) {
        return SW_FAST_UNSURE;
    }
    /* Cull: the polygon stays beyond the slab on one side of the plane
     * A's core sweeps (normal ea x d); an edge whose ends do is passed by.
     * The edges' pairs made this cull each for itself, after their
     * bounding balls and the start's test: it ended 76% of the pairs a
     * bench miss tried (1.8 pairs of about 330 instructions a miss). No
     * cull by each edge's plane pushed out by R before it: behind the
     * slab's it cost more than it saved (float capsule-triangle 1,617 ->
     * 1,534 instructions and 6.7 -> 5.9 mispredicted branches a query
     * without it; timed 6.4x -> 5.6x, segment-polygon prepared 4.7x ->
     * 3.7x). */
    uint64_t above = 0, below = 0;
    const sw_dvec sweep_n = sw_dcross(ea, d);
    const double sweep_nn = sw_ddot(sweep_n, sweep_n);
    if (sweep_nn > DBL_MIN / DBL_EPSILON) {
        const double lim = slab * slab * sweep_nn;
        for (int k = 0; k < count; ++k) {
            const double h = sw_ddot(sweep_n, sw_dsub(v[k], a0));
            /* sw_fast_apart_along without branches: the sides are data. */
            const unsigned far = h * h > lim;
            above |= (uint64_t)(far & (h > 0)) << k;
            below |= (uint64_t)(far & (h < 0)) << k;
        }
        const uint64_t all = count < 64 ? ((uint64_t)1 << count) - 1 : ~(uint64_t)0;
        if (above == all || below == all) {
            return SW_FAST_MISS;
        }
    }
    /* A start in or near contact is the driver's: an end within the slab
     * over the polygon, or the core crossing it (the edges' pairs check
     * the rest). */
    const bool clear = low > slab || high < -slab;
    if (!clear) {
        const double s[2] = {s0, s1};
        const sw_dvec a[2] = {a0, a1};
        for (int j = 0; j < 2; ++j) {
            if (!(s[j] > slab || s[j] < -slab) && in_polygon(v, in, count, sw_dmadd(a[j], -s[j], n), ef)) {
                return SW_FAST_UNSURE;
            }
        }
        if ((s0 < 0) != (s1 < 0) && s0 != s1) {
            const sw_dvec x = sw_dmadd(a0, s0 / (s0 - s1), ea);
            if (in_polygon(v, in, count, sw_dmadd(x, -sw_ddot(n, x), n), ef)) {
                return SW_FAST_UNSURE;
            }
        }
    }
    /* The caps: both ends on one side, the lower one first; the higher one
     * only where the core is parallel to the face (within the slack). Where
     * the lower end meets the cap's plane (or comes closest to the face's
     * plane), outside the polygon, shows the edges to try first. */
    bool guided = false;
    if ((s0 > 0 && s1 > 0) || (s0 < 0 && s1 < 0)) {
        const double side = s0 > 0 ? 1 : -1, closing = -side * nd;
        const double h[2] = {side * s0, side * s1};
        const sw_dvec a[2] = {a0, a1};
        const double slack = sw_fast_level_slack(q, sqrt(sw_ddot(ea, ea)));
        /* Ends level within the slack (a core landing flat) report a1, as
         * the driver does. */
        const int lower = !(h[0] < h[1] - slack);
        for (int k = 0; k < 2; ++k) {
            const int j = k == 0 ? lower : 1 - lower;
            const double gap = h[j] - R;
            if (!(h[1 - j] - h[j] >= -slack) || !(gap > 0 && closing > 0)) {
                break;
            }
            const double t = gap <= closing ? gap / closing : 1;
            const sw_dvec at = sw_dmadd(a[j], t, d), foot = sw_dmadd(at, -side * R, n);
            const bool inside = in_polygon(v, in, count, foot, ef);
            guided = true;
            if (inside && gap <= closing) {
                if (closing < 1e-4 * sqrt(sw_ddot(d, d))) {
                    return SW_FAST_UNSURE; /* nearly parallel: the foot could be anywhere */
                }
                c->t = t;
                c->n = sw_dscale(n, side);
                c->pa = at;
                c->feature = face_feature(v, e, ef, count, foot, q->ftol);
                return one_sided && !(nd < 0 && side > 0) ? SW_FAST_MISS : SW_FAST_HIT;
            }
        }
    }
    /* The edges' capsules: a pair's contact is the first when its plane
     * keeps the whole polygon on B's side. */
    const double slack = SW_FAST_CONE_SLACK * ext;
    bool doubt = false;
    for (int k = 0; k < 2 * count; ++k) {
        /* The edges passed outside of, then the rest. */
        const int i = k < count ? k : k - count;
        if (guided && (k < count) != (ef[i] < 0)) {
            continue;
        }
        if (!guided && k >= count) {
            break;
        }
        const int j = i + 1 < count ? i + 1 : 0;
        const uint64_t ends = (uint64_t)1 << i | (uint64_t)1 << j;
        if ((above & ends) == ends || (below & ends) == ends) {
            continue;
        }
        const sw_fast_status st =
            clear ? sw_fast_segment_side(q, v[i], v[j], c) : sw_fast_segment_pair(q, v[i], v[j], c);
        if (st != SW_FAST_HIT) {
            doubt = doubt || st == SW_FAST_UNSURE;
            continue;
        }
        const sw_dvec pb = sw_dmadd(c->pa, -R, c->n);
        bool first = true;
        for (int m = 0; m < count && first; ++m) {
            first = sw_ddot(c->n, sw_dsub(v[m], pb)) <= slack;
        }
        if (!first) {
            doubt = true; /* a contact hidden inside */
            continue;
        }
        c->feature = vertex_or_edge(v, count, i, pb, q->ftol);
        return one_sided && !(nd < 0 && sw_ddot(c->n, n) > 0) ? SW_FAST_MISS : SW_FAST_HIT;
    }
    return doubt ? SW_FAST_UNSURE : SW_FAST_MISS;
}

bool sw_fast_sweep_triangle(sw_vec3 a0, sw_real ra, sw_vec3 d, const sw_triangle* t, double skin, sw_hit* out)
{
    sw_fast_query q;
    sw_fast_contact c;
    sw_fast_point_query(&q, a0, ra, d, t->v[0], skin);
    return sw_fast_answer(&q, point_polygon(&q, a0, t->v, 3, NULL, t->one_sided, &c), &c, out);
}

bool sw_fast_sweep_polygon(sw_vec3 a0, sw_real ra, sw_vec3 d, const sw_polygon* p, const sw_polygon_frame* f,
                           double skin, sw_hit* out)
{
    sw_fast_query q;
    sw_fast_contact c;
    sw_fast_point_query(&q, a0, ra, d, p->v[0], skin);
    return sw_fast_answer(&q, point_polygon(&q, a0, p->v, p->count, f, p->one_sided, &c), &c, out);
}

bool sw_fast_sweep_segment_triangle(sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d, const sw_triangle* t, double skin,
                                    sw_hit* out)
{
    sw_fast_query q;
    sw_fast_contact c;
    sw_fast_segment_query(&q, a0, a1, ra, d, t->v[0], skin);
    return sw_fast_answer(&q, segment_polygon(&q, t->v, 3, NULL, t->one_sided, &c), &c, out);
}

bool sw_fast_sweep_segment_polygon(sw_vec3 a0, sw_vec3 a1, sw_real ra, sw_vec3 d, const sw_polygon* p,
                                   const sw_polygon_frame* f, double skin, sw_hit* out)
{
    sw_fast_query q;
    sw_fast_contact c;
    sw_fast_segment_query(&q, a0, a1, ra, d, p->v[0], skin);
    return sw_fast_answer(&q, segment_polygon(&q, p->v, p->count, f, p->one_sided, &c), &c, out);
}
