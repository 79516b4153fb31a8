/* Fast path of a point core (sphere, point) against a triangle or convex
 * polygon inflated by the reach: the face plane first, then the edges'
 * cylinders and the vertices' balls, each contact certified by its
 * feature's normal cone (fast.h). Where the path meets the plane outside
 * the polygon tells which edges and vertices to try first. */
#include "queries/fast.h"

/* The squared distance from g, an offset from an edge's start, to the
 * edge 0..e (ee = |e|^2). */
static SW_FAST_ALWAYS_INLINE double edge_dist_sq(sw_dvec g, sw_dvec e, double ee)
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

/* Sets of features as bit masks: bit k is feature k of try_feature (the
 * edges, then the vertices), in two words for up to 64 vertices. */
typedef struct feature_set {
    uint64_t w[2];
} feature_set;

static inline void feature_add(feature_set* s, int k) { s->w[k >> 6] |= (uint64_t)1 << (k & 63); }

typedef struct polygon_query {
    const sw_dvec *v, *e, *in;
    int count;
    sw_dvec f, d;
    double R;
} polygon_query;

/* Tries edge k's cylinder (k < count), certified when the normal points
 * out across the edge, or vertex k - count's ball, certified when the
 * normal points away from both neighbours. */
static SW_FAST_ALWAYS_INLINE sw_fast_status try_feature(const polygon_query* p, int k, sw_fast_contact* c)
{
    double t;
    sw_dvec m;
    bool ok;
    sw_fast_status st;
    const double sl = SW_FAST_CONE_SLACK * SW_FAST_CONE_SLACK;
    if (k < p->count) {
        st = sw_fast_cylinder(p->f, p->d, p->v[k], p->e[k], p->R, &t, &m);
        const double dm = st == SW_FAST_HIT ? -sw_ddot(m, p->in[k]) : 0;
        ok = dm >= 0 || dm * dm <= sl * sw_ddot(p->in[k], p->in[k]);
    } else {
        const int i = k - p->count;
        st = sw_fast_ball(sw_dsub(p->f, p->v[i]), p->d, p->R, &t, &m);
        const sw_dvec en = p->e[i], ep = p->e[i > 0 ? i - 1 : p->count - 1];
        const double dn = st == SW_FAST_HIT ? sw_ddot(m, en) : 0, dp = st == SW_FAST_HIT ? -sw_ddot(m, ep) : 0;
        ok = (dn <= 0 || dn * dn <= sl * sw_ddot(en, en)) && (dp <= 0 || dp * dp <= sl * sw_ddot(ep, ep));
    }
    if (st != SW_FAST_HIT) {
        return st;
    }
    if (!ok) {
        return SW_FAST_UNSURE; /* a contact hidden inside: not first */
    }
    c->t = t;
    c->n = m;
    c->pa = sw_dmadd(p->f, t, p->d);
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

static SW_FAST_ALWAYS_INLINE polygon_plane plane_of(const sw_polygon_frame* ready, const sw_vec3* vw, int count,
                                                    sw_dvec* v)
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
static SW_FAST_ALWAYS_INLINE bool polygon_usable(sw_fast_query* q, polygon_plane* p, bool ready)
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
static SW_FAST_ALWAYS_INLINE bool polygon_edges(const sw_polygon_frame* ready, const sw_dvec* v, int count, sw_dvec n,
                                                sw_dvec* e, sw_dvec* in, bool test_zero)
{
    if (ready) {
        return !ready->zero_edge && !ready->bent;
    }
    return sw_polygon_edges(NULL, v, count, n, e, in) || !test_zero;
}

static SW_FAST_ALWAYS_INLINE sw_fast_status point_polygon(sw_fast_query* q, sw_vec3 a0w, const sw_vec3* vw, int count,
                                                          const sw_polygon_frame* ready, bool one_sided,
                                                          sw_fast_contact* c)
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
    /* The face: the path reaches the plane offset by R over the polygon.
     * Otherwise the point where it meets that plane (or comes closest to
     * the polygon's plane) shows the edges it passes outside of. */
    sw_dvec guide;
    if (gap > 0 && closing > 0) {
        const double t = gap <= closing ? gap / closing : 1;
        const sw_dvec at = sw_dmadd(f, t, d), foot = sw_dmadd(at, -side * R, n);
        guide = foot;
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
    } else {
        if (!curved && !(gap > 0)) {
            return SW_FAST_UNSURE;
        }
        const double t = nd != 0 && -s0 / nd >= 0 ? (-s0 / nd <= 1 ? -s0 / nd : 1) : 0;
        guide = sw_dmadd(sw_dmadd(f, t, d), -sw_ddot(n, sw_dmadd(f, t, d)), n);
        for (int i = 0; i < count; ++i) {
            ef[i] = sw_ddot(in[i], sw_dsub(guide, v[i]));
        }
    }
    /* Cull: the path misses the prism that holds the inflated polygon
     * (the slab, and each edge's plane pushed out by R). After the face,
     * which needs no cull: a path that meets the inflated face over the
     * polygon is inside the prism there, and the cull's square root and
     * division per edge cost more than the face's test (sphere-triangle,
     * float, seven alternating runs of the pair: 2.71x -> 2.55x; sphere-polygon
     * 5.47x -> 5.51x). Not for a ray (no reach), which only the face can
     * stop: the face's test is the same cull, at one edge function per
     * edge. */
    double lo = 0, hi = 1;
    if (nd != 0 && R > 0) {
        const double inv = 1 / nd, t1 = (-slab - s0) * inv, t2 = (slab - s0) * inv;
        lo = sw_dmax(lo, sw_dmin(t1, t2));
        hi = sw_dmin(hi, sw_dmax(t1, t2));
    }
    for (int i = 0; i < (R > 0 ? count : 0) && lo <= hi; ++i) {
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
    if (!(lo <= hi)) {
        return SW_FAST_MISS;
    }
    if (!curved) {
        /* Without a reach only the face stops the point; with a tiny one
         * the driver decides. */
        return R == 0 ? SW_FAST_MISS : SW_FAST_UNSURE;
    }
    /* The guess: the feature whose Voronoi region holds the guide point. */
    const polygon_query pq = {v, e, in, count, f, d, R};
    int guess = -1;
    for (int i = 0; i < count && guess < count; ++i) {
        if (ef[i] < 0) {
            const double u = sw_ddot(sw_dsub(guide, v[i]), e[i]);
            guess = u < 0 ? count + i : (u > sw_ddot(e[i], e[i]) ? count + (i + 1 < count ? i + 1 : 0) : i);
        }
    }
    /* The guess, then the features near the guide point (the edges it is
     * outside of and their vertices: edges first), then the rest; as bit
     * masks, which cost less than passes over the features. */
    feature_set near = {{0, 0}}, first = {{0, 0}}, all;
    for (int i = 0; i < count; ++i) {
        if (ef[i] < 0) {
            feature_add(&near, i);
            feature_add(&near, count + i);
            feature_add(&near, count + (i + 1 < count ? i + 1 : 0));
        }
    }
    if (guess >= 0) {
        feature_add(&first, guess);
    }
    const int features = 2 * count;
    all.w[0] = features >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << features) - 1;
    all.w[1] = features >= 128 ? ~(uint64_t)0 : (features > 64 ? ((uint64_t)1 << (features - 64)) - 1 : 0);
    const int words = features > 64 ? 2 : 1;
    bool doubt = false;
    for (int g = 0; g < 3; ++g) {
        for (int w = 0; w < words; ++w) {
            const uint64_t m0 = g == 0 ? first.w[w] : (g == 1 ? near.w[w] : all.w[w] & ~near.w[w]) & ~first.w[w];
            for (uint64_t m = m0; m != 0; m &= m - 1) {
                const int k = 64 * w + sw_fast_lowest_bit(m), i = k < count ? k : k - count;
                const sw_fast_status st = try_feature(&pq, k, c);
                if (st == SW_FAST_HIT) {
                    c->feature = k < count ? vertex_or_edge(v, count, i, sw_dmadd(c->pa, -R, c->n), q->ftol)
                                           : (sw_feature){SW_FEATURE_VERTEX, i};
                    return one_sided && !(nd < 0 && sw_ddot(c->n, n) > 0) ? SW_FAST_MISS : SW_FAST_HIT;
                }
                doubt = doubt || st == SW_FAST_UNSURE;
            }
        }
    }
    return doubt ? SW_FAST_UNSURE : SW_FAST_MISS;
}

/* Whether the point p of the polygon's plane (local) is in the closed
 * polygon; ef receives its edge functions. */
static SW_FAST_ALWAYS_INLINE bool in_polygon(const sw_dvec* v, const sw_dvec* in, int count, sw_dvec p, double* ef)
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
static SW_FAST_ALWAYS_INLINE sw_fast_status segment_polygon(sw_fast_query* q, const sw_vec3* vw, int count,
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
    const sw_dvec a0 = q->a0, a1 = q->a1, d = q->d;
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
    /* Cull: the swept core (a parallelogram) stays beyond the plane of one
     * edge pushed out by R. */
    for (int i = 0; i < count; ++i) {
        const double o0 = -sw_ddot(in[i], sw_dsub(a0, v[i])), o1 = -sw_ddot(in[i], sw_dsub(a1, v[i]));
        const double least = sw_dmin(o0, o1) + sw_dmin(-sw_ddot(in[i], d), 0);
        if (least > 0 && least * least > slab * slab * sw_ddot(e[i], e[i])) {
            return SW_FAST_MISS;
        }
    }
    /* A start in or near contact is the driver's: an end within the slab
     * over the polygon, or the core crossing it (the edges' pairs check
     * the rest). */
    if (!(low > slab) && !(high < -slab)) {
        const double s[2] = {s0, s1};
        const sw_dvec a[2] = {a0, a1};
        for (int j = 0; j < 2; ++j) {
            if (!(s[j] > slab || s[j] < -slab) && in_polygon(v, in, count, sw_dmadd(a[j], -s[j], n), ef)) {
                return SW_FAST_UNSURE;
            }
        }
        if ((s0 < 0) != (s1 < 0) && s0 != s1) {
            const sw_dvec x = sw_dmadd(a0, s0 / (s0 - s1), sw_dsub(a1, a0));
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
        const sw_dvec ea = sw_dsub(a1, a0);
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
        const sw_fast_status st = sw_fast_segment_pair(q, v[i], v[i + 1 < count ? i + 1 : 0], c);
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
