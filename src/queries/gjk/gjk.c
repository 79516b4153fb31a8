/* The general convex methods (include/sweep/convex.h): GJK distance, the
 * GJK ray cast / conservative-advancement shape cast and EPA, for any pair
 * of bounded shapes.
 *
 * How it works
 * - Every shape is a polytope core (a point set, a box or a hull) plus a
 *   radius; the iterations see only the cores, so they end on an exact
 *   feature pair (a finite set of vertices), and the radii are added at
 *   the end, which is what makes spheres and capsules exact.
 * - Everything runs in a frame at B's reference point, scaled by a power
 *   of two so that the query's extent is about 1 (exact, and no product
 *   the iteration forms can overflow), in `gr` (gjk_internal.h): double
 *   in the float build, whose inputs are then exact and its arithmetic
 *   2^29 times finer than its tolerance; long double in the double build,
 *   where double left too little room on thin or tiny-next-to-huge pairs.
 * - The simplex sub-algorithm is the signed-volumes method of Montanari,
 *   Petrinic and Barbieri (2017) in a 3-D form: the origin's side of each
 *   face and edge is decided from volumes and areas of the simplex itself,
 *   never from Johnson's recursive determinant table, whose cancellation
 *   makes it pick no valid subset (or a wrong one) on the nearly
 *   degenerate simplices that face-on-face contacts produce. Edges of the
 *   simplex are taken from its witness points (a_j - a_i) - (b_j - b_i),
 *   which keeps them exact however far M lies from the origin.
 * - Termination is principled: stop when the duality gap (upper bound
 *   |v| minus the support plane's lower bound) is at the rounding level,
 *   when the support point is already in the simplex (vertices are known
 *   by index), or when |v| stops decreasing (cycling); iteration counts
 *   are bounded in any case.
 * - The final normal is "polished": among the raw normal and the normals
 *   the final feature pair suggests (box axes, a polygon's normal, the
 *   plane of three vertices of one shape, the cross product of an edge of
 *   each, the raw normal made perpendicular to an edge), the one that
 *   separates best wins. Each candidate is scored by a support query, so
 *   the choice is a certified bound, never a guess. */
#include "queries/gjk/gjk_internal.h"

#ifdef SW_GJK_STATS
sw_gjk_stats sw_gjk_stats_counters;
#endif

bool sw_gjk_simplex_has(const simplex* s, const svert* w)
{
    for (int i = 0; i < s->n; ++i) {
        if (s->v[i].ia == w->ia && s->v[i].ib == w->ib) {
            return true;
        }
    }
    return false;
}

/* Edge j - i of M from the witnesses: exact differences of nearby points. */
static gv edge_of(const svert* s, int i, int j) { return gsub(gsub(s[j].a, s[i].a), gsub(s[j].b, s[i].b)); }

/* A sub-simplex and the closest point of its hull to the origin. */
typedef struct sub {
    int n;
    int idx[4];
    gr lam[4];
    gv v;
    gr vv;
} sub;

static void keep_sub(sub* best, const sub* r)
{
    if (best->n == 0 || r->vv < best->vv) {
        *best = *r;
    }
}

static void sub_point(sub* r, const gv* y, int i)
{
    r->n = 1;
    r->idx[0] = i;
    r->lam[0] = 1;
    r->v = y[i];
    r->vv = gdot(y[i], y[i]);
}

static void sub_segment(sub* r, const svert* s, const gv* y, int i, int j)
{
    const gv e = edge_of(s, i, j);
    const gr ee = gdot(e, e);
    const gr t = -gdot(y[i], e);
    if (!(ee > 0) || t <= 0) {
        sub_point(r, y, i);
        return;
    }
    if (t >= ee) {
        sub_point(r, y, j);
        return;
    }
    const gr u = t / ee;
    r->n = 2;
    r->idx[0] = i;
    r->idx[1] = j;
    r->lam[0] = 1 - u;
    r->lam[1] = u;
    r->v = gmadd(y[i], u, e);
    r->vv = gdot(r->v, r->v);
}

static void sub_triangle(sub* r, const svert* s, const gv* y, int i, int j, int k)
{
    const gv e1 = edge_of(s, i, j), e2 = edge_of(s, i, k);
    const gv n = gcross(e1, e2);
    const gr nn = gdot(n, n);
    const int ids[3] = {i, j, k};
    sub best = {0};
    if (nn > DEGENERATE_SIN * DEGENERATE_SIN * gdot(e1, e1) * gdot(e2, e2)) {
        /* The origin's projection p0 on the plane, and its barycentric
         * coordinates from the areas it spans with each edge (signed along
         * n), measured from p0 so that they stay accurate however far the
         * plane is from the origin. */
        const gr h = gdot(n, y[i]);
        const gv p0 = gscale(n, h / nn);
        const gv q[3] = {gsub(y[i], p0), gsub(y[j], p0), gsub(y[k], p0)};
        gr b[3];
        for (int m = 0; m < 3; ++m) {
            b[m] = gdot(n, gcross(q[(m + 1) % 3], q[(m + 2) % 3]));
        }
        if (b[0] > 0 && b[1] > 0 && b[2] > 0) {
            const gr sum = b[0] + b[1] + b[2];
            r->n = 3;
            for (int m = 0; m < 3; ++m) {
                r->idx[m] = ids[m];
                r->lam[m] = b[m] / sum;
            }
            r->v = p0;
            r->vv = h * h / nn;
            return;
        }
        /* Outside: the closest point is on an edge the origin is beyond. */
        for (int m = 0; m < 3; ++m) {
            if (b[m] <= 0) {
                sub t = {0};
                sub_segment(&t, s, y, ids[(m + 1) % 3], ids[(m + 2) % 3]);
                keep_sub(&best, &t);
            }
        }
        *r = best;
        return;
    }
    /* Degenerate: the best of its edges. */
    for (int m = 0; m < 3; ++m) {
        sub t = {0};
        sub_segment(&t, s, y, ids[m], ids[(m + 1) % 3]);
        keep_sub(&best, &t);
    }
    *r = best;
}

static void sub_tetrahedron(sub* r, const svert* s, const gv* y)
{
    static const int face[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    sub best = {0};
    gr bary[4];
    bool outside[4];
    bool any = false, degenerate = false;
    for (int f = 0; f < 4; ++f) {
        const int i = face[f][0], j = face[f][1], k = face[f][2];
        const gv e1 = edge_of(s, i, j), e2 = edge_of(s, i, k), e3 = edge_of(s, i, f);
        const gv n = gcross(e1, e2);
        /* Vertex f's side of face f and the origin's side. */
        const gr side = gdot(n, e3);
        const gr origin = -gdot(n, y[i]);
        if (!(gabs(side) > DEGENERATE_SIN * glen(e1) * glen(e2) * glen(e3))) {
            degenerate = true;
            break;
        }
        outside[f] = !(origin * side > 0);
        any = any || outside[f];
        bary[f] = origin / side;
    }
    if (!degenerate && !any) {
        const gr sum = bary[0] + bary[1] + bary[2] + bary[3];
        r->n = 4;
        for (int m = 0; m < 4; ++m) {
            r->idx[m] = m;
            r->lam[m] = bary[m] / sum;
        }
        r->v = g3(0, 0, 0);
        r->vv = 0;
        return;
    }
    for (int f = 0; f < 4; ++f) {
        if (degenerate || outside[f]) {
            sub t = {0};
            sub_triangle(&t, s, y, face[f][0], face[f][1], face[f][2]);
            keep_sub(&best, &t);
        }
    }
    *r = best;
}

/* Closest point of the simplex's hull to x: reduces the simplex to the
 * smallest subset holding it, sets the weights, and returns |v|^2 with v =
 * that point - x. */
gr sw_gjk_simplex_solve(simplex* s, gv x, gv* v)
{
    gv y[4];
    for (int i = 0; i < s->n; ++i) {
        y[i] = gsub(s->v[i].p, x);
    }
    sub r = {0};
    switch (s->n) {
    case 1:
        sub_point(&r, y, 0);
        break;
    case 2:
        sub_segment(&r, s->v, y, 0, 1);
        break;
    case 3:
        sub_triangle(&r, s->v, y, 0, 1, 2);
        break;
    default:
        sub_tetrahedron(&r, s->v, y);
        break;
    }
    simplex t;
    t.n = r.n;
    for (int i = 0; i < r.n; ++i) {
        t.v[i] = s->v[r.idx[i]];
        t.lam[i] = r.lam[i];
    }
    *s = t;
    *v = r.v;
    return r.vv;
}

/* The witnesses' weighted points. */
gv sw_gjk_simplex_a(const simplex* s)
{
    gv p = g3(0, 0, 0);
    for (int i = 0; i < s->n; ++i) {
        p = gmadd(p, s->lam[i], s->v[i].a);
    }
    return p;
}
gv sw_gjk_simplex_b(const simplex* s)
{
    gv p = g3(0, 0, 0);
    for (int i = 0; i < s->n; ++i) {
        p = gmadd(p, s->lam[i], s->v[i].b);
    }
    return p;
}
static gv simplex_p(const simplex* s)
{
    gv p = g3(0, 0, 0);
    for (int i = 0; i < s->n; ++i) {
        p = gmadd(p, s->lam[i], s->v[i].p);
    }
    return p;
}

/* ---- GJK distance -------------------------------------------------------------- */

/* Closest point of M to x, from the simplex s (empty or warm). Returns true
 * when x is in M (to within the rounding); *v = closest point - x. */
bool sw_gjk_iterate(const gjk_pair* P, gv x, simplex* s, gv* v)
{
    if (s->n == 0) {
        gv dir = gsub(gsub(body_ref(&P->a), body_ref(&P->b)), x);
        if (gzero(dir)) {
            dir = g3(1, 0, 0);
        }
        s->v[0] = support_m(P, gneg(dir));
        s->lam[0] = 1;
        s->n = 1;
        STAT(++sw_gjk_stats_counters.gjk_iterations);
    }
    gr vv = sw_gjk_simplex_solve(s, x, v);
    for (int it = 0; it < GJK_MAX_ITERATIONS; ++it) {
#ifdef SW_GJK_STATS
        if (it > sw_gjk_stats_counters.max_gjk_iterations) {
            sw_gjk_stats_counters.max_gjk_iterations = it;
        }
#endif
        if (s->n == 4 || vv <= NOISE * NOISE) {
            return true;
        }
        const gr len = gr_sqrt(vv);
        const svert w = support_m(P, gneg(*v));
        STAT(++sw_gjk_stats_counters.gjk_iterations);
        /* Duality gap: |v| is an upper bound on the distance, the support
         * plane through w a lower one. */
        const gr lower = gdot(*v, gsub(w.p, x)) / len;
        if (len - lower <= NOISE || sw_gjk_simplex_has(s, &w)) {
            return false;
        }
        const simplex keep = *s;
        const gv vkeep = *v;
        s->v[s->n++] = w;
        const gr next = sw_gjk_simplex_solve(s, x, v);
        if (!(next < vv)) {
            /* No progress: rounding has the last word (cycling). */
            *s = keep;
            *v = vkeep;
            return false;
        }
        vv = next;
    }
    return false;
}

/* A contact point on M's boundary that GJK found inside a tetrahedron (by a
 * rounding-sized margin) gets its weights from the tetrahedron's face
 * nearest to it instead: the tetrahedron's weights divide by its height,
 * which for a thin one turns the margin into thousands of ulps between the
 * two witness points. */
void sw_gjk_simplex_to_boundary(simplex* s, gv x, gv* v)
{
    if (s->n != 4) {
        return;
    }
    static const int face[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    int best = 0;
    gr best_d = 0;
    for (int f = 0; f < 4; ++f) {
        gv n = gcross(edge_of(s->v, face[f][0], face[f][1]), edge_of(s->v, face[f][0], face[f][2]));
        if (gnormalize(&n) == 0) {
            continue;
        }
        const gr dist = gabs(gdot(n, gsub(s->v[face[f][0]].p, x)));
        if (f == 0 || dist < best_d) {
            best = f;
            best_d = dist;
        }
    }
    simplex t;
    t.n = 3;
    for (int i = 0; i < 3; ++i) {
        t.v[i] = s->v[face[best][i]];
    }
    sw_gjk_simplex_solve(&t, x, v);
    *s = t;
}

/* ---- candidate normals ------------------------------------------------------ */


static void offer_axis(pick* pk, const gjk_pair* P, gv x, gv u, gv raw)
{
    if (gnormalize(&u) == 0) {
        return;
    }
    if (gdot(u, raw) < 0) {
        u = gneg(u);
    }
    /* A candidate far from raw is no correction of its rounding (a raw
     * normal is within far less than 8 degrees); skipping it saves two
     * support calls. */
    if (gdot(u, raw) < POLISH_COS) {
        return;
    }
    const gr sep = separation(P, u, x);
    if (sep > pk->sep) {
        pk->sep = sep;
        pk->n = u;
    }
}

static gv without(gv v, gv axis)
{
    if (gnormalize(&axis) == 0) {
        return v;
    }
    return gmadd(v, -gdot(v, axis), axis);
}

static void offer_body(pick* pk, const gjk_pair* P, gv x, const body* b, gv raw)
{
    if (b->kind == BODY_BOX) {
        for (int k = 0; k < 3; ++k) {
            offer_axis(pk, P, x, b->axis[k], raw);
        }
    } else if (b->flat) {
        offer_axis(pk, P, x, b->normal, raw);
    }
}

/* The normal at x (unit, from B toward A) that separates A(t) and B best
 * among raw and the directions the feature pair pts suggests. */
pick sw_gjk_polish(const gjk_pair* P, gv x, gv raw, const svert* pts, int n)
{
    if (gnormalize(&raw) == 0) {
        raw = g3(0, 0, 1); /* never left without a unit normal */
    }
    pick pk = {raw, separation(P, raw, x)};
    offer_body(&pk, P, x, &P->a, raw);
    offer_body(&pk, P, x, &P->b, raw);
    /* The distinct vertices of each shape in the final feature pair. */
    gv a[3], b[3];
    int na = 0, nb = 0;
    for (int i = 0; i < n; ++i) {
        bool seen_a = false, seen_b = false;
        for (int j = 0; j < i; ++j) {
            seen_a = seen_a || pts[j].ia == pts[i].ia;
            seen_b = seen_b || pts[j].ib == pts[i].ib;
        }
        if (!seen_a && na < 3) {
            a[na++] = pts[i].a;
        }
        if (!seen_b && nb < 3) {
            b[nb++] = pts[i].b;
        }
    }
    if (na >= 3) {
        offer_axis(&pk, P, x, gcross(gsub(a[1], a[0]), gsub(a[2], a[0])), raw);
    }
    if (nb >= 3) {
        offer_axis(&pk, P, x, gcross(gsub(b[1], b[0]), gsub(b[2], b[0])), raw);
    }
    if (na >= 2 && nb >= 2) {
        offer_axis(&pk, P, x, gcross(gsub(a[1], a[0]), gsub(b[1], b[0])), raw);
    }
    if (na >= 2) {
        offer_axis(&pk, P, x, without(raw, gsub(a[1], a[0])), raw);
    }
    if (nb >= 2) {
        offer_axis(&pk, P, x, without(raw, gsub(b[1], b[0])), raw);
    }
    return pk;
}

/* ---- EPA --------------------------------------------------------------------- */

typedef struct epa_face {
    gv n;                /* outward unit normal */
    gr dist;             /* n . v[0]: the plane's distance from the origin */
    short v[3];          /* vertices */
    short adj[3];        /* face across edge e (v[e] -> v[e+1]) */
    unsigned char ae[3]; /* that face's edge index */
    bool alive, ok;
} epa_face;

typedef struct epa {
    svert v[EPA_MAX_VERTICES];
    epa_face f[EPA_MAX_FACES];
    int nv, nf;
    short horizon_f[EPA_MAX_FACES];
    unsigned char horizon_e[EPA_MAX_FACES];
    int nh;
    bool overflow;
} epa;

static int epa_face_add(epa* E, int i, int j, int k)
{
    int slot = -1;
    for (int f = 0; f < E->nf && slot < 0; ++f) {
        slot = E->f[f].alive ? -1 : f;
    }
    if (slot < 0) {
        if (E->nf == EPA_MAX_FACES) {
            return -1;
        }
        slot = E->nf++;
    }
    epa_face* F = &E->f[slot];
    F->v[0] = (short)i;
    F->v[1] = (short)j;
    F->v[2] = (short)k;
    F->alive = true;
    /* Unlinked until epa_link: an expansion that fails half-way leaves
     * faces without neighbours, which a later silhouette must not follow
     * (found: an uninitialised index into the face array). */
    F->adj[0] = F->adj[1] = F->adj[2] = -1;
    F->ae[0] = F->ae[1] = F->ae[2] = 0;
    const gv e1 = edge_of(E->v, i, j), e2 = edge_of(E->v, i, k);
    gv n = gcross(e1, e2);
    const gr len = gnormalize(&n);
    F->ok = len > DEGENERATE_SIN * glen(e1) * glen(e2);
    F->n = n;
    F->dist = gdot(n, E->v[i].p);
    return slot;
}

static void epa_link(epa* E, int f, int e, int g, int ge)
{
    E->f[f].adj[e] = (short)g;
    E->f[f].ae[e] = (unsigned char)ge;
    E->f[g].adj[ge] = (short)f;
    E->f[g].ae[ge] = (unsigned char)e;
}

/* Faces visible from w, reached across edge e of face f: removed; the
 * first invisible ones give the horizon, in order around it. */
static void epa_silhouette(epa* E, int f, int e, const svert* w)
{
    if (f < 0 || f >= E->nf) {
        E->overflow = true; /* an unlinked edge: the polytope cannot grow */
        return;
    }
    epa_face* F = &E->f[f];
    if (!F->alive) {
        return;
    }
    if (F->ok && gdot(F->n, gsub(w->p, E->v[F->v[0]].p)) <= NOISE) {
        if (E->nh < EPA_MAX_FACES) {
            E->horizon_f[E->nh] = (short)f;
            E->horizon_e[E->nh++] = (unsigned char)e;
        } else {
            E->overflow = true;
        }
        return;
    }
    F->alive = false;
    epa_silhouette(E, F->adj[(e + 1) % 3], F->ae[(e + 1) % 3], w);
    epa_silhouette(E, F->adj[(e + 2) % 3], F->ae[(e + 2) % 3], w);
}

/* Adds vertex w beyond face f; false when the polytope cannot take it. */
static bool epa_expand(epa* E, int f, const svert* w)
{
    if (E->nv == EPA_MAX_VERTICES) {
        return false;
    }
    const int wi = E->nv;
    E->v[E->nv++] = *w;
    E->nh = 0;
    E->overflow = false;
    E->f[f].alive = false;
    for (int e = 0; e < 3; ++e) {
        epa_silhouette(E, E->f[f].adj[e], E->f[f].ae[e], w);
    }
    if (E->overflow || E->nh < 3) {
        return false;
    }
    int created[EPA_MAX_FACES];
    const int nh = E->nh;
    for (int h = 0; h < nh; ++h) {
        const epa_face* G = &E->f[E->horizon_f[h]];
        const int e = E->horizon_e[h];
        /* Shares the horizon edge, reversed: edge 0 = v[e+1] -> v[e]. */
        created[h] = epa_face_add(E, G->v[(e + 1) % 3], G->v[e], wi);
        if (created[h] < 0) {
            return false;
        }
        epa_link(E, created[h], 0, E->horizon_f[h], e);
    }
    /* Edge 1 (b -> w) of one new face is edge 2 (w -> a) of the next. */
    for (int h = 0; h < nh; ++h) {
        const int fb = E->f[created[h]].v[1];
        int found = -1;
        for (int m = 0; m < nh && found < 0; ++m) {
            found = E->f[created[m]].v[0] == fb ? m : -1;
        }
        if (found < 0) {
            return false;
        }
        epa_link(E, created[h], 1, created[found], 2);
    }
    return true;
}

typedef struct epa_result {
    gv n;    /* push direction of A (B toward A), unit */
    gr push; /* separating push along n (may be slightly negative) */
    svert tri[3];
    int ntri;
} epa_result;

/* Points of M farthest from the line / plane of the first points, along
 * the directions given; true when one leaves it by more than the rounding. */
static bool epa_grow(const gjk_pair* P, svert* pts, int n, const gv* dirs, int ndirs)
{
    gr best = 0;
    svert found = {0};
    for (int i = 0; i < ndirs; ++i) {
        const svert w = support_m(P, dirs[i]);
        gv off = gsub(w.p, pts[0].p);
        if (n == 2) {
            off = without(off, edge_of(pts, 0, 1));
        } else if (n == 3) {
            gv nrm = gcross(edge_of(pts, 0, 1), edge_of(pts, 0, 2));
            gnormalize(&nrm);
            off = gscale(nrm, gdot(off, nrm));
        }
        const gr len = glen(off);
        if (len > best) {
            best = len;
            found = w;
        }
    }
    if (best > 16 * NOISE) {
        pts[n] = found;
        return true;
    }
    return false;
}

/* Penetration of the cores: the shortest push of A that separates them,
 * from GJK's final simplex s (which holds the origin). hint orients the
 * answer when M is flat (no push needed, every normal of its plane works). */
static epa_result epa_run(const gjk_pair* P, const simplex* s, gv hint)
{
    epa_result out;
    svert pts[4];
    int n = s->n;
    for (int i = 0; i < n; ++i) {
        pts[i] = s->v[i];
    }
    out.ntri = n < 3 ? n : 3;
    for (int i = 0; i < out.ntri; ++i) {
        out.tri[i] = pts[i];
    }
    /* Blow the simplex up to a tetrahedron around the origin. */
    if (n == 1) {
        const gv dirs[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        if (epa_grow(P, pts, 1, dirs, 6)) {
            n = 2;
        } else {
            out.n = gzero(hint) ? g3(0, 0, 1) : hint;
            gnormalize(&out.n);
            out.push = 0;
            return out;
        }
    }
    if (n == 2) {
        gv e = edge_of(pts, 0, 1);
        gnormalize(&e);
        const sw_vec3 p1 = sw_any_perpendicular(gto(e));
        const gv u = gof(p1), w = gcross(e, u);
        const gv dirs[4] = {u, gneg(u), w, gneg(w)};
        if (epa_grow(P, pts, 2, dirs, 4)) {
            n = 3;
        } else {
            out.n = without(gzero(hint) ? g3(0, 0, 1) : hint, e);
            if (gnormalize(&out.n) == 0) {
                out.n = u;
            }
            out.push = 0;
            return out;
        }
    }
    if (n == 3) {
        gv nrm = gcross(edge_of(pts, 0, 1), edge_of(pts, 0, 2));
        if (gnormalize(&nrm) == 0) {
            /* Three points in a line (rounding): search off that line. */
            nrm = gof(sw_any_perpendicular(gto(edge_of(pts, 0, 1))));
        }
        const gv dirs[2] = {nrm, gneg(nrm)};
        if (epa_grow(P, pts, 3, dirs, 2)) {
            n = 4;
        } else {
            out.n = gdot(nrm, hint) < 0 ? gneg(nrm) : nrm;
            out.push = 0;
            return out;
        }
    }
    epa E;
    E.nv = 4;
    E.nf = 0;
    for (int i = 0; i < 4; ++i) {
        E.v[i] = pts[i];
    }
    /* Orient: with e01 . (e02 x e03) < 0 the faces below point outward. */
    if (gdot(edge_of(E.v, 0, 1), gcross(edge_of(E.v, 0, 2), edge_of(E.v, 0, 3))) > 0) {
        const svert t = E.v[1];
        E.v[1] = E.v[2];
        E.v[2] = t;
    }
    static const int tf[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (int f = 0; f < 4; ++f) {
        epa_face_add(&E, tf[f][0], tf[f][1], tf[f][2]);
    }
    for (int f = 0; f < 4; ++f) {
        for (int e = 0; e < 3; ++e) {
            const int a = E.f[f].v[e], b = E.f[f].v[(e + 1) % 3];
            for (int g = 0; g < 4; ++g) {
                for (int ge = 0; ge < 3; ++ge) {
                    if (E.f[g].v[ge] == b && E.f[g].v[(ge + 1) % 3] == a) {
                        E.f[f].adj[e] = (short)g;
                        E.f[f].ae[e] = (unsigned char)ge;
                    }
                }
            }
        }
    }
    STAT(++sw_gjk_stats_counters.epa_runs);
    gr best_h = 0;
    bool have = false;
    int it = 0;
    for (; it < EPA_MAX_ITERATIONS; ++it) {
        int f = -1;
        for (int g = 0; g < E.nf; ++g) {
            if (E.f[g].alive && E.f[g].ok && (f < 0 || E.f[g].dist < E.f[f].dist)) {
                f = g;
            }
        }
        if (f < 0) {
            break;
        }
        const epa_face F = E.f[f];
        const svert w = support_m(P, F.n);
        STAT(++sw_gjk_stats_counters.epa_iterations);
        const gr h = gdot(F.n, w.p);
        if (!have || h < best_h) {
            have = true;
            best_h = h;
            out.n = gneg(F.n);
            out.ntri = 3;
            for (int i = 0; i < 3; ++i) {
                out.tri[i] = E.v[F.v[i]];
            }
        }
        bool dup = false;
        for (int i = 0; i < E.nv && !dup; ++i) {
            dup = E.v[i].ia == w.ia && E.v[i].ib == w.ib;
        }
        if (h - F.dist <= NOISE || dup) {
            break;
        }
        if (!epa_expand(&E, f, &w)) {
            STAT(++sw_gjk_stats_counters.epa_gave_up);
            break;
        }
    }
#ifdef SW_GJK_STATS
    if (it > sw_gjk_stats_counters.max_epa_iterations) {
        sw_gjk_stats_counters.max_epa_iterations = it;
    }
#endif
    if (!have) {
        out.n = gzero(hint) ? g3(0, 0, 1) : hint;
        gnormalize(&out.n);
        out.push = -separation(P, out.n, g3(0, 0, 0));
        return out;
    }
    out.push = best_h;
    return out;
}

/* The overlap answer for cores at GJK's result (s, v, inside) with the
 * reach R = ra + rb (+ skin) known to be met. */
start_contact sw_gjk_overlap_answer(const gjk_pair* P, const simplex* s, bool inside, gr R, gv hint)
{
    start_contact c;
    c.crossing = false;
    const gr ra = P->a.radius;
    const gv pa = sw_gjk_simplex_a(s), pb = sw_gjk_simplex_b(s);
    gv g = simplex_p(s);
    const gr dist = inside ? 0 : glen(g);
    c.pb = pb;
    if (dist > 256 * NOISE) {
        /* Cores apart: the gap's direction, polished by the feature pair. */
        gnormalize(&g);
        const pick pk = sw_gjk_polish(P, g3(0, 0, 0), g, s->v, s->n);
        c.n = pk.n;
        c.depth = gmax(R - pk.sep, 0);
        /* On the line pb + s g, A covers [dist - ra, dist + ra] and B
         * (inflated) [-(R - ra), R - ra]: A's deepest point if in B. */
        c.point = gmadd(pb, gmax(dist - ra, -(R - ra)), g);
        return c;
    }
    /* Cores crossing (or touching): EPA, then the polish. */
    const epa_result e = epa_run(P, s, hint);
    const pick pk = sw_gjk_polish(P, g3(0, 0, 0), e.n, e.tri, e.ntri);
    c.n = pk.n;
    c.depth = gmax(R - pk.sep, 0);
    c.point = gscale(gadd(pa, pb), 0.5);
    /* Crossing cores, and witnesses (the same point, exactly) further
     * apart than the tolerance (the frame's extent is about 1). */
    c.crossing = pk.sep <= -256 * NOISE && glen(gsub(pa, pb)) > SW_TOLERANCE;
    if (!(pk.sep <= -256 * NOISE)) {
        /* Cores only touching: the common point from the boundary face. */
        simplex t = *s;
        gv v;
        sw_gjk_simplex_to_boundary(&t, g3(0, 0, 0), &v);
        c.point = gscale(gadd(sw_gjk_simplex_a(&t), sw_gjk_simplex_b(&t)), 0.5);
        c.pb = sw_gjk_simplex_b(&t);
    }
    return c;
}

sw_overlap_result sw_gjk_overlap(const sw_shape* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_OVERLAP);
    SW_REQUIRE(has_vertices(a) && has_vertices(b), SW_INVALID_OVERLAP);
    if (any_mesh(a, b)) {
        return sw_internal_overlap_status(SW_UNSUPPORTED);
    }
    if (!bounded(a) || !bounded(b)) {
        return sw_internal_overlap_status(SW_UNSUPPORTED);
    }
    sw_overlap_result out = {0};
    gjk_pair P;
    sw_gjk_pair_make(&P, a, b, sw_v3(0, 0, 0), 0);
    STAT(++sw_gjk_stats_counters.queries);
    const gr R = P.a.radius + P.b.radius;
    simplex s = {0};
    gv v;
    const bool inside = sw_gjk_iterate(&P, g3(0, 0, 0), &s, &v);
    if (!inside && !(glen(v) <= R + NOISE)) {
        return out;
    }
    const start_contact c = sw_gjk_overlap_answer(&P, &s, inside, R, g3(0, 0, 1));
    out.overlapping = true;
    out.depth = (sw_real)(c.depth / P.f.k);
    out.normal = gto(c.n);
    out.point = to_world(&P.f, c.point);
    return out;
}

sw_distance_result sw_gjk_distance(const sw_shape* a, const sw_shape* b)
{
    SW_REQUIRE(sw_is_valid_shape(a) && sw_is_valid_shape(b), SW_INVALID_DISTANCE);
    SW_REQUIRE(has_vertices(a) && has_vertices(b), SW_INVALID_DISTANCE);
    if (any_mesh(a, b)) {
        return sw_internal_distance_status(SW_UNSUPPORTED);
    }
    if (!bounded(a) || !bounded(b)) {
        return sw_internal_distance_status(SW_UNSUPPORTED);
    }
    sw_distance_result out = {0};
    gjk_pair P;
    sw_gjk_pair_make(&P, a, b, sw_v3(0, 0, 0), 0);
    STAT(++sw_gjk_stats_counters.queries);
    const gr ra = P.a.radius, rb = P.b.radius, R = ra + rb;
    simplex s = {0};
    gv v;
    const bool inside = sw_gjk_iterate(&P, g3(0, 0, 0), &s, &v);
    const gv pa = sw_gjk_simplex_a(&s), pb = sw_gjk_simplex_b(&s);
    gv g = simplex_p(&s);
    const gr dist = inside ? 0 : gnormalize(&g);
    if (inside || !(dist > R + NOISE)) {
        /* Touching or overlapping: one common point. */
        gv common = gscale(gadd(pa, pb), 0.5);
        if (dist > 256 * NOISE) {
            common = gmadd(pb, gmax(dist - ra, -rb), g);
        }
        out.point_a = out.point_b = to_world(&P.f, common);
        return out;
    }
    out.distance = (sw_real)((dist - R) / P.f.k);
    out.point_a = to_world(&P.f, gmadd(pa, -ra, g));
    out.point_b = to_world(&P.f, gmadd(pb, rb, g));
    return out;
}
