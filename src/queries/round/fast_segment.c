/* Fast paths of the round-shape sweeps: points and segments against point
 * and segment cores (sphere, capsule and segment pairs), the kernel the box
 * and polygon fast paths also use for their edges. See fast.h. */
#include "queries/round/fast.h"

/* Squared distance between the segments p0-p1 and q0-q1 (either may be a
 * point): Ericson, Real-Time Collision Detection §5.1.9. */
static double segments_dist_sq(sw_dvec p0, sw_dvec p1, sw_dvec q0, sw_dvec q1)
{
    const sw_dvec d1 = sw_dsub(p1, p0), d2 = sw_dsub(q1, q0), r = sw_dsub(p0, q0);
    const double a = sw_ddot(d1, d1), e = sw_ddot(d2, d2), f = sw_ddot(d2, r);
    double s = 0, t = 0;
    if (a == 0 && e == 0) {
        return sw_ddot(r, r);
    }
    if (a == 0) {
        t = f / e;
    } else {
        const double c = sw_ddot(d1, r);
        if (e == 0) {
            s = -c / a;
        } else {
            const double b = sw_ddot(d1, d2), den = a * e - b * b;
            s = den > 0 ? (b * f - c * e) / den : 0;
            s = s < 0 ? 0 : (s > 1 ? 1 : s);
            t = (b * s + f) / e;
            if (t < 0) {
                t = 0;
                s = -c / a;
            } else if (t > 1) {
                t = 1;
                s = (b - c) / a;
            }
        }
        s = s < 0 ? 0 : (s > 1 ? 1 : s);
    }
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    const sw_dvec gap = sw_dsub(sw_dmadd(p0, s, d1), sw_dmadd(q0, t, d2));
    return sw_ddot(gap, gap);
}

static sw_feature segment_feature(sw_dvec b0, sw_dvec b1, bool b_seg, bool has_features, sw_dvec pb, double tol)
{
    sw_feature f = {SW_FEATURE_NONE, 0};
    if (!has_features) {
        return f;
    }
    f.kind = SW_FEATURE_VERTEX;
    const sw_dvec g0 = sw_dsub(pb, b0), g1 = sw_dsub(pb, b1);
    if (!b_seg || sw_ddot(g0, g0) <= tol * tol) {
        return f;
    }
    f.index = 1;
    if (sw_ddot(g1, g1) <= tol * tol) {
        return f;
    }
    f.kind = SW_FEATURE_EDGE;
    f.index = 0;
    return f;
}

/* The feature pairs of two segment cores after the edge-edge one: A's end
 * j against B's side (j), B's end i against A's side (2 + i), and A's end
 * j against B's end i (4 + 2 j + i). */
enum { CANDIDATES = 8 };

typedef struct segment_pair {
    sw_dvec a[2], b[2], ea, eb, d;
    bool a_seg, b_seg;
    double R, sla, slb;
} segment_pair;

/* Tries one pair the cores have: its contact if certified (the normal
 * keeps the rest of both segments apart). */
static SW_ALWAYS_INLINE sw_fast_status try_candidate(const segment_pair* s, int id, double* t, sw_dvec* n, sw_dvec* pa)
{
    sw_fast_status st = SW_FAST_MISS;
    bool ok = false;
    if (id < 2) {
        st = sw_fast_cylinder(s->a[id], s->d, s->b[0], s->eb, s->R, t, n);
        ok = st == SW_FAST_HIT && (!s->a_seg || sw_ddot(*n, sw_dsub(s->a[1 - id], s->a[id])) >= -s->sla);
        if (ok) {
            *pa = sw_dmadd(s->a[id], *t, s->d);
        }
    } else if (id < 4) {
        const int i = id - 2;
        /* In A's frame B's end moves by -d. */
        sw_dvec m;
        st = sw_fast_cylinder(s->b[i], sw_dscale(s->d, -1), s->a[0], s->ea, s->R, t, &m);
        ok = st == SW_FAST_HIT && (!s->b_seg || sw_ddot(m, sw_dsub(s->b[1 - i], s->b[i])) >= -s->slb);
        if (ok) {
            *n = sw_dscale(m, -1);
            *pa = sw_dmadd(s->b[i], s->R, *n);
        }
    } else {
        const int j = (id - 4) >> 1, i = (id - 4) & 1;
        st = sw_fast_ball(sw_dsub(s->a[j], s->b[i]), s->d, s->R, t, n);
        ok = st == SW_FAST_HIT && (!s->a_seg || sw_ddot(*n, sw_dsub(s->a[1 - j], s->a[j])) >= -s->sla) &&
             (!s->b_seg || sw_ddot(*n, sw_dsub(s->b[1 - i], s->b[i])) <= s->slb);
        if (ok) {
            *pa = sw_dmadd(s->a[j], *t, s->d);
        }
    }
    /* A contact hidden inside (its normal lets the rest cross) is not
     * first, and says nothing about the others. */
    return st == SW_FAST_HIT && !ok ? SW_FAST_UNSURE : st;
}

/* Whether the axis n separates the parallelogram A's core sweeps
 * (a0 + [0, 1] ea + [0, 1] d) from B's core by more than slab |n|: then
 * no two points of them come within slab, a miss. */
static SW_ALWAYS_INLINE bool axis_separates(const segment_pair* s, sw_dvec w0, sw_dvec n, double slab)
{
    const double pa = sw_ddot(s->ea, n), pd = sw_ddot(s->d, n), pb = sw_ddot(s->eb, n);
    /* A's interval minus B's along n: its centre and half width. */
    const double gap = fabs(sw_ddot(w0, n) + (pa + pd - pb) / 2) - (fabs(pa) + fabs(pd) + fabs(pb)) / 2;
    return sw_fast_apart_along(gap, sw_ddot(n, n), slab);
}

/* What the caller of fast_segments knows, which decides the tests it
 * makes: nothing (the start's test and every cull), a start clear of B
 * inflated by more than the margin with the plane of A's path already
 * culled (the other culls), or a clear start with B culled by its bounds
 * (no cull). The culls only ever turn a miss into an earlier miss. */
typedef enum segment_known { KNOWN_NOTHING, KNOWN_CLEAR_PATH_PLANE, KNOWN_CLEAR_BOUNDED } segment_known;

/* Point or segment against a point or segment core b0-b1 (local). Inlined
 * into each caller, so that constants fold away (b0 = 0 for a round B). A
 * point core (a0 = a1, so ea is exactly zero) has only the pairs of its
 * one end. */
static SW_ALWAYS_INLINE sw_fast_status fast_segments(const sw_fast_query* q, sw_dvec b0, sw_dvec b1, bool has_features,
                                                     segment_known known, sw_fast_contact* c)
{
    segment_pair s;
    s.a[0] = q->a0;
    s.a[1] = q->a1;
    s.b[0] = b0;
    s.b[1] = b1;
    s.d = q->d;
    s.R = q->reach;
    s.ea = sw_dsub(q->a1, q->a0);
    s.eb = sw_dsub(b1, b0);
    const double aa = sw_ddot(s.ea, s.ea), bb = sw_ddot(s.eb, s.eb), dd = sw_ddot(s.d, s.d);
    s.a_seg = aa > 0;
    s.b_seg = bb > 0;
    const double R = s.R;
    /* Cull, for a point B: the bounding balls of the cores, A's moving
     * along its path. Against a segment B it caught few of the queries
     * the planes of the paths (below) do not, for a division and an
     * unpredictable branch on all (float capsule-capsule 1,013 -> 984
     * instructions a query, capsule-segment 922 -> 902, capsule-triangle
     * 1,644 -> 1,617); against a point B only the plane of A's path is
     * left. The balls still settle most starts (below). */
    const double la = sqrt(aa), lb = sqrt(bb);
    const sw_dvec w = sw_dscale(sw_dsub(sw_dadd(s.a[0], s.a[1]), sw_dadd(b0, b1)), 0.5);
    const double bound = (la + lb) / 2 + R + q->margin;
    if (known != KNOWN_CLEAR_BOUNDED && !s.b_seg) {
        const double wd = sw_ddot(w, s.d);
        const sw_dvec closest = sw_dmadd(w, wd < 0 ? (-wd < dd ? -wd / dd : 1) : 0, s.d);
        if (sw_ddot(closest, closest) > bound * bound) {
            return SW_FAST_MISS;
        }
    }
    /* A start in or near contact is the general driver's (the balls
     * settle most starts without the closest points). */
    const double start = R + q->margin;
    if (known == KNOWN_NOTHING && !(sw_ddot(w, w) > bound * bound) &&
        !(segments_dist_sq(s.a[0], s.a[1], b0, b1) > start * start)) {
        return SW_FAST_UNSURE;
    }
    const bool curved = R > SW_FAST_MIN_REACH * q->size;
    if (!curved && !(R == 0 && s.a_seg && s.b_seg)) {
        return SW_FAST_UNSURE;
    }
    /* Cull: the planes of the paths of A's core and of B's core seen from
     * A (the edges' own axis ea x eb is the lines' test below); a point
     * core has no plane (its axis is 0). */
    const sw_dvec w0 = sw_dsub(s.a[0], b0);
    if (known != KNOWN_CLEAR_BOUNDED &&
        ((known == KNOWN_NOTHING && s.a_seg && axis_separates(&s, w0, sw_dcross(s.ea, s.d), start)) ||
         (s.b_seg && axis_separates(&s, w0, sw_dcross(s.d, s.eb), start)))) {
        return SW_FAST_MISS;
    }
    s.sla = SW_FAST_CONE_SLACK * la;
    s.slb = SW_FAST_CONE_SLACK * lb;
    double t = 0;
    sw_dvec n = {0, 0, 0}, pa = {0, 0, 0};
    bool found = false;
    /* Where the lines come closest at the guess time, which end points
     * are out: they order the other feature pairs. */
    int first = -1, second = -1, third = -1;
    /* Interior of both edges: the flat face of the inflated Minkowski
     * difference, whose normal is the edges' common perpendicular. */
    if (s.a_seg && s.b_seg) {
        const sw_dvec axb = sw_dcross(s.ea, s.eb);
        const double nn = sw_ddot(axb, axb);
        if (nn > 1e-6 * aa * bb) {
            /* Reciprocals, each taken once: the divisions' latency, not
             * their count, set this path's time. */
            const double len = sqrt(nn), inv_len = 1 / len, inv_nn = 1 / nn;
            /* b0's offset perpendicular to edge a, as sw_cast_edge_edge. */
            const sw_dvec w0p = sw_dmadd(w0, -sw_ddot(w0, s.ea) / aa, s.ea);
            const double s0 = sw_ddot(w0p, axb) * inv_len;
            const double side = s0 > 0 ? 1 : -1;
            const double gap = side * s0 - R, closing = -side * sw_ddot(s.d, axb) * inv_len;
            /* The segments are no closer than their lines, whose distance
             * is linear in t: beyond R at both ends, a miss. */
            if (gap > q->margin && !(closing > 0 && gap <= closing)) {
                return SW_FAST_MISS;
            }
            if (!curved && !(gap > 0)) {
                return SW_FAST_UNSURE; /* coplanar edges without a reach */
            }
            const double tg = gap > 0 && closing > 0 ? (gap <= closing ? gap / closing : 1) : 0;
            const sw_dvec wt = sw_dmadd(w0, tg, s.d);
            const double ab = sw_ddot(s.ea, s.eb), aw = sw_ddot(s.ea, wt), bw = sw_ddot(s.eb, wt);
            const double sa = (ab * bw - bb * aw) * inv_nn, sb = (aa * bw - ab * aw) * inv_nn;
            const bool a_in = sa >= 0 && sa <= 1, b_in = sb >= 0 && sb <= 1;
            if (gap > 0 && closing > 0 && gap <= closing && a_in && b_in) {
                if (closing < 1e-4 * sqrt(dd)) {
                    return SW_FAST_UNSURE;
                }
                t = tg;
                n = sw_dscale(axb, side * inv_len);
                pa = sw_dadd(sw_dmadd(s.a[0], t, s.d), sw_dscale(s.ea, sa));
                found = true;
            } else if (!curved) {
                return SW_FAST_MISS; /* zero reach: only crossing lines touch */
            } else {
                /* Guess by the closest points of the segments at tg, found
                 * by clamping (Ericson §5.1.9); a side missed, its ends
                 * next (nearer first). No cull here by the times where the
                 * lines' closest parameters come within the reach of [0, 1]:
                 * after the planes of the paths it caught 3.5% of the
                 * bench's capsule-capsule queries and cost the rest more
                 * than it saved (1,057 -> 1,003 instructions a query
                 * without it; capsule-triangle 1,687 -> 1,638). */
                int j = sa > (a_in ? 0.5 : 1), i = sb > (b_in ? 0.5 : 1);
                if (a_in) {
                    first = 2 + i;
                } else if (b_in) {
                    first = j;
                } else {
                    const double sbj = (bw + j * ab) / bb;
                    if (sbj >= 0 && sbj <= 1) {
                        first = j;
                        i = sbj > 0.5;
                    } else {
                        i = sbj > 1;
                        const double sai = (i * ab - aw) / aa;
                        const bool in = sai >= 0 && sai <= 1;
                        j = sai > (in ? 0.5 : 1);
                        first = in ? 2 + i : 4 + 2 * j + i;
                    }
                }
                second = first < 4 ? 4 + 2 * j + i : j;
                third = first < 2 ? 5 + 2 * j - i : (first < 4 ? 6 - 2 * j + i : 2 + i);
            }
        } else if (!curved) {
            return SW_FAST_UNSURE;
        }
    }
    if (!found) {
        /* The pairs the cores have (a point has no side and one end): the
         * guesses first, then the rest in order. */
        const unsigned have = (s.a_seg ? 0xffu : 0x31u) & (s.b_seg ? 0xffu : 0x54u);
        const int guess[3] = {first, second, third};
        unsigned left = have;
        bool doubt = false;
        for (int k = 0; k < 3 && guess[k] >= 0 && !found; ++k) {
            left &= ~(1u << guess[k]);
            const sw_fast_status st = try_candidate(&s, guess[k], &t, &n, &pa);
            found = st == SW_FAST_HIT;
            doubt = doubt || st == SW_FAST_UNSURE;
        }
        for (; left != 0 && !found; left &= left - 1) {
            const sw_fast_status st = try_candidate(&s, sw_fast_lowest_bit(left), &t, &n, &pa);
            found = st == SW_FAST_HIT;
            doubt = doubt || st == SW_FAST_UNSURE;
        }
        if (!found) {
            return doubt ? SW_FAST_UNSURE : SW_FAST_MISS;
        }
    }
    c->t = t;
    c->n = n;
    c->pa = pa;
    c->feature = segment_feature(b0, b1, s.b_seg, has_features, sw_dmadd(pa, -R, n), q->ftol);
    return SW_FAST_HIT;
}

sw_fast_status sw_fast_segment_pair(const sw_fast_query* q, sw_dvec b0, sw_dvec b1, sw_fast_contact* c)
{
    return fast_segments(q, b0, b1, true, KNOWN_NOTHING, c);
}

sw_fast_status sw_fast_segment_edge(const sw_fast_query* q, sw_dvec b0, sw_dvec b1, sw_fast_contact* c)
{
    return fast_segments(q, b0, b1, true, KNOWN_CLEAR_BOUNDED, c);
}

sw_fast_status sw_fast_segment_side(const sw_fast_query* q, sw_dvec b0, sw_dvec b1, sw_fast_contact* c)
{
    return fast_segments(q, b0, b1, true, KNOWN_CLEAR_PATH_PLANE, c);
}

bool sw_fast_sweep_round(sw_vec3 a0, sw_vec3 a1, bool a_point, sw_real ra, sw_vec3 d, const sw_shape* b, double skin,
                         sw_hit* out)
{
    sw_fast_query q;
    sw_vec3 b1w;
    sw_real rb = 0;
    bool features = true;
    switch (b->type) {
    case SW_SHAPE_POINT:
        q.origin = b1w = b->point;
        features = false;
        break;
    case SW_SHAPE_SPHERE:
        q.origin = b1w = b->sphere.center;
        rb = b->sphere.radius;
        features = false;
        break;
    case SW_SHAPE_SEGMENT:
        q.origin = b->segment.a;
        b1w = b->segment.b;
        break;
    default:
        q.origin = b->capsule.a;
        b1w = b->capsule.b;
        rb = b->capsule.radius;
        break;
    }
    q.d = sw_dv(d);
    q.ra = ra;
    q.reach = (double)ra + rb + skin;
    q.a0 = sw_dv_local(a0, q.origin);
    q.a1 = a_point ? q.a0 : sw_dv_local(a1, q.origin);
    const sw_dvec b1 = sw_dv_local(b1w, q.origin);
    q.size =
        sw_dmax(sw_dmax(sw_dmax(sw_dmax_abs(b1), q.reach), sw_dmax(sw_dmax_abs(sw_dv(q.origin)), sw_dmax_abs(q.d))),
                sw_dmax(sw_dmax_abs(q.a0), sw_dmax_abs(q.a1)));
    sw_fast_contact c;
    const sw_fast_status st = sw_fast_set_size(&q, 0)
                                  ? fast_segments(&q, (sw_dvec){0, 0, 0}, b1, features, KNOWN_NOTHING, &c)
                                  : SW_FAST_UNSURE;
    return sw_fast_answer(&q, st, &c, out);
}

