/* Long-double reference geometry and query solver (see ref.h). */
#include "ref.h"

#include "ref_polytope.h"

#include <float.h>
#include <math.h>
#include <string.h>

ref_real rv_len(ref_vec a) { return sqrtl(rv_dot(a, a)); }

ref_real rv_normalize(ref_vec* a)
{
    const ref_real len = rv_len(*a);
    if (!(len > 0)) {
        return 0;
    }
    *a = rv_scale(*a, 1 / len);
    return len;
}

ref_real rv_angle(ref_vec a, ref_vec b) { return atan2l(rv_len(rv_cross(a, b)), rv_dot(a, b)); }

ref_real rv_max_abs(ref_vec a) { return fmaxl(fabsl(a.x), fmaxl(fabsl(a.y), fabsl(a.z))); }

static ref_real clamp01(ref_real x) { return x < 0 ? 0 : (x > 1 ? 1 : x); }

/* a*b - c*d to within a few ulps (Kahan: the rounding error of c*d is
 * recovered with an fma), where the plain form cancels catastrophically. */
static ref_real diff_of_products(ref_real a, ref_real b, ref_real c, ref_real d)
{
    const ref_real w = c * d;
    const ref_real e = fmal(c, d, -w);
    return fmal(a, b, -w) - e;
}

/* Cross product accurate to a few ulps per component. */
static ref_vec cross_accurate(ref_vec a, ref_vec b)
{
    return rv(diff_of_products(a.y, b.z, a.z, b.y), diff_of_products(a.z, b.x, a.x, b.z),
              diff_of_products(a.x, b.y, a.y, b.x));
}

/* ---- shapes ------------------------------------------------------------- */

static void hull_of(ref_shape* out, sw_shape_type type, sw_vec3 a, sw_vec3 b, int n, sw_real radius)
{
    out->type = type;
    out->kind = REF_HULL;
    out->n = n;
    out->v[0] = rv_of(a);
    out->v[1] = rv_of(b);
    out->radius = radius;
}

/* Newell's normal relative to v0 (for a triangle (v1-v0) x (v2-v0)). */
static void poly_of(ref_shape* out, sw_shape_type type, const sw_vec3* v, int n, bool one_sided)
{
    out->type = type;
    out->kind = REF_POLY;
    out->n = n;
    out->one_sided = one_sided;
    ref_vec sum = rv(0, 0, 0);
    for (int i = 0; i < n; ++i) {
        out->v[i] = rv_of(v[i]);
    }
    ref_real ext_sq = 0;
    for (int i = 1; i < n; ++i) {
        ext_sq = fmaxl(ext_sq, rv_dot(rv_sub(out->v[i], out->v[0]), rv_sub(out->v[i], out->v[0])));
        if (i + 1 < n) {
            sum = rv_add(sum, rv_cross(rv_sub(out->v[i], out->v[0]), rv_sub(out->v[i + 1], out->v[0])));
        }
    }
    if (rv_dot(sum, sum) < 1e-6L * ext_sq * ext_sq) {
        /* A sliver: plain crosses of double inputs leave its normal noise. */
        sum = rv(0, 0, 0);
        for (int i = 1; i + 1 < n; ++i) {
            sum = rv_add(sum, cross_accurate(rv_sub(out->v[i], out->v[0]), rv_sub(out->v[i + 1], out->v[0])));
        }
    }
    out->normal = sum;
    if (!(rv_normalize(&out->normal) > 0)) {
        out->normal = rv(0, 0, 0);
        return;
    }
    if (n > 3) {
        /* A polygon is planar only to within rounding of its inputs: flatten
         * it onto the plane through its centroid, or the distance jumps (by
         * that rounding) where a crossing point moves past an edge. */
        ref_vec c = rv(0, 0, 0);
        for (int i = 0; i < n; ++i) {
            c = rv_add(c, out->v[i]);
        }
        c = rv_scale(c, 1.0L / n);
        for (int i = 0; i < n; ++i) {
            out->v[i] = rv_madd(out->v[i], -rv_dot(out->normal, rv_sub(out->v[i], c)), out->normal);
        }
    }
}

/* Columns of the normalised quaternion's rotation matrix. */
static void quat_axes(sw_quat q, ref_vec axis[3])
{
    ref_real x = q.x, y = q.y, z = q.z, w = q.w;
    const ref_real m = fmaxl(fmaxl(fabsl(x), fabsl(y)), fmaxl(fabsl(z), fabsl(w)));
    x /= m;
    y /= m;
    z /= m;
    w /= m;
    const ref_real len = sqrtl(x * x + y * y + z * z + w * w);
    x /= len;
    y /= len;
    z /= len;
    w /= len;
    axis[0] = rv(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
    axis[1] = rv(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
    axis[2] = rv(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
}

/* Outward unit normal of the vertex cycle ids[0..count) of p: an accurate
 * Newell sum, turned away from the other vertices. */
static bool cycle_normal(const ref_shape* p, const int* ids, int count, ref_vec* n)
{
    const ref_vec v0 = p->v[ids[0]];
    ref_vec sum = rv(0, 0, 0);
    for (int k = 1; k + 1 < count; ++k) {
        sum = rv_add(sum, cross_accurate(rv_sub(p->v[ids[k]], v0), rv_sub(p->v[ids[k + 1]], v0)));
    }
    if (!(rv_normalize(&sum) > 0)) {
        return false;
    }
    ref_real above = 0;
    for (int i = 0; i < p->n; ++i) {
        above += rv_dot(sum, rv_sub(p->v[i], v0));
    }
    *n = above > 0 ? rv_scale(sum, -1) : sum;
    return true;
}

/* The faces of the convex hull of p's vertices, by brute force: every
 * plane through three of them with all of them on one side (within a
 * slack far below any tolerance, for coplanar vertices), each plane once,
 * its vertices ordered counter-clockwise around its normal. Independent
 * of the library's faces, which are merged within the hull's tolerance. */
static bool polytope_faces(ref_shape* p)
{
    /* The placed vertices are rounded to the size of the numbers they came
     * from (local coordinates and position too). */
    ref_real ext = p->frame;
    for (int i = 0; i < p->n; ++i) {
        ext = fmaxl(ext, rv_max_abs(p->v[i]));
    }
    const ref_real slack = 16 * LDBL_EPSILON * ext;
    int used = 0;
    p->nf = 0;
    for (int i = 0; i < p->n; ++i) {
        for (int j = i + 1; j < p->n; ++j) {
            for (int k = j + 1; k < p->n; ++k) {
                ref_vec f = cross_accurate(rv_sub(p->v[j], p->v[i]), rv_sub(p->v[k], p->v[i]));
                if (!(rv_normalize(&f) > 0)) {
                    continue;
                }
                const ref_real off = rv_dot(f, p->v[i]);
                bool below = true, above = true;
                for (int l = 0; l < p->n && (below || above); ++l) {
                    const ref_real h = rv_dot(f, p->v[l]) - off;
                    below = below && h <= slack;
                    above = above && h >= -slack;
                }
                if (below == above) {
                    continue; /* both sides (not a face) or all on the plane (flat) */
                }
                if (above) {
                    f = rv_scale(f, -1);
                }
                bool known = false;
                for (int q = 0; q < p->nf && !known; ++q) {
                    known = rv_dot(p->fn[q], f) > 0 && fabsl(rv_dot(p->fn[q], p->v[i]) - p->foff[q]) <= slack &&
                            fabsl(rv_dot(p->fn[q], p->v[j]) - p->foff[q]) <= slack &&
                            fabsl(rv_dot(p->fn[q], p->v[k]) - p->foff[q]) <= slack;
                }
                if (known) {
                    continue;
                }
                if (p->nf >= REF_MAX_FACES) {
                    return false;
                }
                /* The plane's vertices, by angle around their centroid. */
                int ids[REF_MAX_VERTS], m = 0;
                ref_vec c = rv(0, 0, 0);
                const ref_real top = rv_dot(f, p->v[i]);
                for (int l = 0; l < p->n; ++l) {
                    if (fabsl(rv_dot(f, p->v[l]) - top) <= slack) {
                        ids[m++] = l;
                        c = rv_add(c, p->v[l]);
                    }
                }
                c = rv_scale(c, 1.0L / m);
                ref_vec u = rv_sub(p->v[ids[0]], c);
                u = rv_madd(u, -rv_dot(u, f), f);
                rv_normalize(&u);
                const ref_vec w = rv_cross(f, u);
                ref_real angle[REF_MAX_VERTS];
                for (int l = 0; l < m; ++l) {
                    const ref_vec r = rv_sub(p->v[ids[l]], c);
                    angle[l] = atan2l(rv_dot(r, w), rv_dot(r, u));
                }
                for (int l = 1; l < m; ++l) {
                    for (int q = l; q > 0 && angle[q] < angle[q - 1]; --q) {
                        const ref_real ta = angle[q];
                        angle[q] = angle[q - 1];
                        angle[q - 1] = ta;
                        const int ti = ids[q];
                        ids[q] = ids[q - 1];
                        ids[q - 1] = ti;
                    }
                }
                if (used + m > 2 * REF_MAX_EDGES) {
                    return false;
                }
                const int nf = p->nf++;
                p->fn[nf] = f;
                p->fstart[nf] = used;
                p->fcount[nf] = m;
                p->foff[nf] = -INFINITY;
                for (int l = 0; l < p->n; ++l) {
                    p->foff[nf] = fmaxl(p->foff[nf], rv_dot(f, p->v[l]));
                }
                for (int l = 0; l < m; ++l) {
                    p->fv[used++] = ids[l];
                }
            }
        }
    }
    /* Its edges: each runs i -> j in one face's cycle and j -> i in the
     * other's. */
    p->noe = 0;
    for (int f = 0; f < p->nf; ++f) {
        for (int k = 0; k < p->fcount[f]; ++k) {
            const int i = p->fv[p->fstart[f] + k], j = p->fv[p->fstart[f] + (k + 1) % p->fcount[f]];
            if (i > j) {
                continue;
            }
            for (int g = 0; g < p->nf; ++g) {
                for (int l = 0; l < p->fcount[g]; ++l) {
                    if (p->fv[p->fstart[g] + l] == j && p->fv[p->fstart[g] + (l + 1) % p->fcount[g]] == i) {
                        if (p->noe >= REF_MAX_EDGES) {
                            return false;
                        }
                        p->oev[p->noe][0] = i;
                        p->oev[p->noe][1] = j;
                        p->oef[p->noe][0] = f;
                        p->oef[p->noe][1] = g;
                        ++p->noe;
                    }
                }
            }
        }
    }
    /* A consistent surface: each edge on two faces, Euler's formula. */
    return p->nf >= 4 && 2 * p->noe == used && p->noe == p->n + p->nf - 2;
}

/* A placed hull: its vertices moved in long double, its faces its own
 * (polytope_faces); the library's faces and edges kept for the numbering. */
static bool polytope_of(ref_shape* out, const sw_shape* s)
{
    const sw_hull* h = s->hull.hull;
    if (!h || h->vertex_count < 4 || h->vertex_count > REF_MAX_VERTS || h->face_count > REF_MAX_FACES ||
        h->edge_count > REF_MAX_EDGES) {
        return false;
    }
    out->type = s->type;
    out->kind = REF_POLYTOPE;
    out->n = h->vertex_count;
    ref_vec axis[3];
    quat_axes(s->hull.rotation, axis);
    const ref_vec pos = rv_of(s->hull.position);
    out->frame = rv_max_abs(pos);
    for (int i = 0; i < out->n; ++i) {
        const ref_vec l = rv_of(h->vertices[i]);
        out->frame = fmaxl(out->frame, rv_max_abs(l));
        out->v[i] = rv_madd(rv_madd(rv_madd(pos, l.x, axis[0]), l.y, axis[1]), l.z, axis[2]);
    }
    if (!polytope_faces(out)) {
        return false;
    }
    out->nlf = h->face_count;
    int used = 0;
    for (int f = 0; f < out->nlf; ++f) {
        const sw_hull_face* face = &h->faces[f];
        if (face->count < 3 || used + face->count > 2 * REF_MAX_EDGES) {
            return false;
        }
        out->lstart[f] = used;
        out->lcount[f] = face->count;
        for (int k = 0; k < face->count; ++k) {
            const int id = h->face_vertices[face->first + k];
            if (id < 0 || id >= out->n) {
                return false;
            }
            out->lfv[used++] = id;
        }
        if (!cycle_normal(out, out->lfv + out->lstart[f], face->count, &out->lfn[f])) {
            return false;
        }
    }
    out->ne = h->edge_count;
    for (int e = 0; e < out->ne; ++e) {
        for (int k = 0; k < 2; ++k) {
            out->ev[e][k] = h->edges[e].v[k];
            out->ef[e][k] = h->edges[e].face[k];
            if (out->ev[e][k] < 0 || out->ev[e][k] >= out->n || out->ef[e][k] < 0 || out->ef[e][k] >= out->nlf) {
                return false;
            }
        }
    }
    return true;
}

bool ref_from_shape(const sw_shape* s, ref_shape* out)
{
    memset(out, 0, sizeof *out);
    switch (s->type) {
    case SW_SHAPE_POINT:
        hull_of(out, s->type, s->point, s->point, 1, 0);
        return true;
    case SW_SHAPE_SEGMENT:
        hull_of(out, s->type, s->segment.a, s->segment.b, 2, 0);
        return true;
    case SW_SHAPE_SPHERE:
        hull_of(out, s->type, s->sphere.center, s->sphere.center, 1, s->sphere.radius);
        return true;
    case SW_SHAPE_CAPSULE:
        hull_of(out, s->type, s->capsule.a, s->capsule.b, 2, s->capsule.radius);
        return true;
    case SW_SHAPE_BOX: {
        out->type = s->type;
        out->kind = REF_BOX;
        out->center = rv_of(s->box.center);
        out->half[0] = s->box.half.x;
        out->half[1] = s->box.half.y;
        out->half[2] = s->box.half.z;
        quat_axes(s->box.rotation, out->axis);
        return true;
    }
    case SW_SHAPE_PLANE: {
        out->type = s->type;
        out->kind = REF_PLANE;
        out->normal = rv_of(s->plane.normal);
        const ref_real len = rv_normalize(&out->normal);
        out->offset = (ref_real)s->plane.offset / len;
        return true;
    }
    case SW_SHAPE_TRIANGLE:
        poly_of(out, s->type, s->triangle.v, 3, s->triangle.one_sided);
        return true;
    case SW_SHAPE_POLYGON:
        if (s->polygon.count < 3 || s->polygon.count > REF_MAX_VERTS) {
            return false;
        }
        poly_of(out, s->type, s->polygon.v, s->polygon.count, s->polygon.one_sided);
        return true;
    case SW_SHAPE_HULL:
        return polytope_of(out, s);
    case SW_SHAPE_MESH: /* not modelled: judged as its triangles (tests/diff/mesh.c) */
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    return false;
}

ref_shape ref_translated(const ref_shape* s, ref_vec off)
{
    ref_shape t = *s;
    for (int i = 0; i < t.n; ++i) {
        t.v[i] = rv_add(t.v[i], off);
    }
    t.center = rv_add(t.center, off);
    if (t.kind == REF_PLANE) {
        t.offset += rv_dot(t.normal, off);
    }
    for (int f = 0; f < t.nf; ++f) {
        t.foff[f] += rv_dot(t.fn[f], off);
    }
    return t;
}

ref_real ref_shape_extent(const ref_shape* s)
{
    ref_real m = 0;
    switch (s->kind) {
    case REF_HULL:
    case REF_POLY:
        for (int i = 0; i < s->n; ++i) {
            m = fmaxl(m, rv_max_abs(s->v[i]));
        }
        return fmaxl(m, s->radius);
    case REF_BOX:
        m = rv_max_abs(s->center);
        for (int k = 0; k < 3; ++k) {
            m = fmaxl(m, s->half[k]);
        }
        return m;
    case REF_PLANE:
        return fabsl(s->offset);
    case REF_POLYTOPE:
        for (int i = 0; i < s->n; ++i) {
            m = fmaxl(m, rv_max_abs(s->v[i]));
        }
        return fmaxl(m, s->frame);
    }
    return m;
}

/* ---- boxes --------------------------------------------------------------- */

static ref_vec box_local(const ref_shape* b, ref_vec p)
{
    const ref_vec f = rv_sub(p, b->center);
    return rv(rv_dot(f, b->axis[0]), rv_dot(f, b->axis[1]), rv_dot(f, b->axis[2]));
}

static ref_vec box_world(const ref_shape* b, const ref_real q[3])
{
    ref_vec p = b->center;
    for (int k = 0; k < 3; ++k) {
        p = rv_madd(p, q[k], b->axis[k]);
    }
    return p;
}

/* Vertex i: bit k set means +h on axis k. */
static ref_vec box_vertex(const ref_shape* b, int i)
{
    ref_real q[3];
    for (int k = 0; k < 3; ++k) {
        q[k] = ((i >> k) & 1) ? b->half[k] : -b->half[k];
    }
    return box_world(b, q);
}

/* Edge 4*axis + j, parallel to axis; bit 0 of j: sign on axis+1, bit 1:
 * sign on axis+2 (1 = +h). */
static void box_edge(const ref_shape* b, int e, ref_vec out[2])
{
    const int axis = e / 4, j = e % 4;
    ref_real q[3];
    q[(axis + 1) % 3] = (j & 1) ? b->half[(axis + 1) % 3] : -b->half[(axis + 1) % 3];
    q[(axis + 2) % 3] = (j & 2) ? b->half[(axis + 2) % 3] : -b->half[(axis + 2) % 3];
    q[axis] = -b->half[axis];
    out[0] = box_world(b, q);
    q[axis] = b->half[axis];
    out[1] = box_world(b, q);
}

/* Signed distance from p to the box and its nearest boundary point (the
 * nearest box point, outside). */
static ref_real box_point_sdist(const ref_shape* b, ref_vec p, ref_vec* nearest)
{
    const ref_vec q = box_local(b, p);
    const ref_real qc[3] = {q.x, q.y, q.z};
    ref_real c[3], out_sq = 0, in_max = -INFINITY;
    int in_axis = 0;
    for (int k = 0; k < 3; ++k) {
        const ref_real e = fabsl(qc[k]) - b->half[k];
        c[k] = fminl(fmaxl(qc[k], -b->half[k]), b->half[k]);
        if (e > 0) {
            out_sq += e * e;
        }
        if (e > in_max) {
            in_max = e;
            in_axis = k;
        }
    }
    if (out_sq > 0) {
        *nearest = box_world(b, c);
        return sqrtl(out_sq);
    }
    c[in_axis] = qc[in_axis] >= 0 ? b->half[in_axis] : -b->half[in_axis];
    *nearest = box_world(b, c);
    return in_max;
}

/* Whether the segment p0-p1 meets the box (slab clipping in its frame). */
static bool box_segment_meet(const ref_shape* b, ref_vec p0, ref_vec p1, ref_vec* where)
{
    const ref_vec q0 = box_local(b, p0), q1 = box_local(b, p1);
    const ref_real a[3] = {q0.x, q0.y, q0.z}, e[3] = {q1.x - q0.x, q1.y - q0.y, q1.z - q0.z};
    ref_real lo = 0, hi = 1;
    for (int k = 0; k < 3; ++k) {
        if (e[k] == 0) {
            if (fabsl(a[k]) > b->half[k]) {
                return false;
            }
            continue;
        }
        ref_real s0 = (-b->half[k] - a[k]) / e[k], s1 = (b->half[k] - a[k]) / e[k];
        if (s0 > s1) {
            const ref_real tmp = s0;
            s0 = s1;
            s1 = tmp;
        }
        lo = fmaxl(lo, s0);
        hi = fminl(hi, s1);
        if (lo > hi) {
            return false;
        }
    }
    *where = rv_madd(p0, lo, rv_sub(p1, p0));
    return true;
}

/* ---- segments and polygons ---------------------------------------------- */

/* Closest point to p on the segment v0-v1. */
static ref_vec segment_closest(ref_vec v0, ref_vec v1, ref_vec p)
{
    const ref_vec e = rv_sub(v1, v0);
    const ref_real ee = rv_dot(e, e);
    if (!(ee > 0)) {
        return v0;
    }
    return rv_madd(v0, clamp01(rv_dot(rv_sub(p, v0), e) / ee), e);
}

static void consider(ref_vec pa, ref_vec pb, ref_real* best_sq, ref_vec* ba, ref_vec* bb)
{
    const ref_vec w = rv_sub(pa, pb);
    const ref_real sq = rv_dot(w, w);
    if (sq < *best_sq) {
        *best_sq = sq;
        *ba = pa;
        *bb = pb;
    }
}

/* Segment-segment closest points: the minimum of the convex quadratic
 * |a0 + s e1 - b0 - u e2|^2 over [0,1]^2 is either the lines' common
 * perpendicular (Cramer's rule with n = e1 x e2, accurate for nearly
 * parallel lines since |n|^2 comes from the cross product) when it falls
 * inside the square, or on one of the four edges, where the minimum is the
 * clamped projection of an end point onto the other segment. Every
 * candidate is a feasible pair, so the smallest is the exact minimum. */
static ref_real segments_distance(ref_vec a0, ref_vec a1, ref_vec b0, ref_vec b1, ref_vec* pa, ref_vec* pb)
{
    ref_real best_sq = INFINITY;
    const ref_vec e1 = rv_sub(a1, a0), e2 = rv_sub(b1, b0);
    /* Nearly parallel segments of double inputs: plain cross products round
     * by eps*|e1||e2| (and r is nearly along them too), which moves the
     * interior points along the lines by far more than the tolerance;
     * accurate ones (slower) do not. */
    ref_vec n = rv_cross(e1, e2);
    const bool near_parallel = rv_dot(n, n) < 1e-4L * rv_dot(e1, e1) * rv_dot(e2, e2);
    if (near_parallel) {
        n = cross_accurate(e1, e2);
    }
    const ref_real nn = rv_dot(n, n);
    if (nn > 0) {
        const ref_vec r = rv_sub(b0, a0);
        const ref_real s = rv_dot(near_parallel ? cross_accurate(r, e2) : rv_cross(r, e2), n) / nn;
        const ref_real u = rv_dot(near_parallel ? cross_accurate(r, e1) : rv_cross(r, e1), n) / nn;
        if (s >= 0 && s <= 1 && u >= 0 && u <= 1) {
            /* The convex quadratic's stationary point inside the square is
             * its minimum there: no edge candidate can do better. */
            *pa = rv_madd(a0, s, e1);
            *pb = rv_madd(b0, u, e2);
            return rv_len(rv_sub(*pa, *pb));
        }
    }
    consider(a0, segment_closest(b0, b1, a0), &best_sq, pa, pb);
    consider(a1, segment_closest(b0, b1, a1), &best_sq, pa, pb);
    consider(segment_closest(a0, a1, b0), b0, &best_sq, pa, pb);
    consider(segment_closest(a0, a1, b1), b1, &best_sq, pa, pb);
    return rv_len(rv_sub(*pa, *pb));
}

/* Twice the signed area of v, w, x seen along n: > 0 when x is left of
 * the line from v to w. */
static ref_real side_of(ref_vec v, ref_vec w, ref_vec x, ref_vec n)
{
    return rv_dot(rv_cross(rv_sub(w, v), rv_sub(x, v)), n);
}

/* Whether x is left of (or on) the line from v to w, seen along b's normal. */
static bool left_of(const ref_shape* b, ref_vec v, ref_vec w, ref_vec x) { return side_of(v, w, x, b->normal) >= 0; }

/* x (in the polygon's plane) inside the closed polygon, taken as the
 * convex hull of its vertices: a polygon is convex only within the
 * tolerance, and an edge far shorter than it (two vertices 0.004 apart,
 * tol 0.81) may point anywhere, its line cutting the rest in two. Inside
 * every edge's line is inside the hull; otherwise x must be left of every
 * line through two vertices that has all the vertices on its left (the
 * hull's edges, found by brute force). */
static bool poly_contains(const ref_shape* b, ref_vec x)
{
    bool inside = true;
    for (int i = 0; i < b->n && inside; ++i) {
        inside = left_of(b, b->v[i], b->v[(i + 1) % b->n], x);
    }
    for (int i = 0; i < b->n && !inside; ++i) {
        for (int j = 0; j < b->n; ++j) {
            bool hull_edge = j != i;
            for (int k = 0; k < b->n && hull_edge; ++k) {
                hull_edge = left_of(b, b->v[i], b->v[j], b->v[k]);
            }
            if (hull_edge && !left_of(b, b->v[i], b->v[j], x)) {
                return false;
            }
        }
    }
    return true;
}

/* Distance between the segment a0-a1 and the flat polygon b: 0 if the
 * segment crosses its interior, else an end point over the interior or
 * the segment against an edge. */
static ref_real segment_poly_distance(ref_vec a0, ref_vec a1, const ref_shape* b, ref_vec* pa, ref_vec* pb)
{
    ref_real best_sq = INFINITY;
    const bool flat = rv_dot(b->normal, b->normal) > 0;
    if (flat) {
        const ref_real h0 = rv_dot(b->normal, rv_sub(a0, b->v[0])), h1 = rv_dot(b->normal, rv_sub(a1, b->v[0]));
        if (((h0 <= 0 && h1 >= 0) || (h0 >= 0 && h1 <= 0)) && h0 != h1) {
            const ref_vec x = rv_madd(a0, h0 / (h0 - h1), rv_sub(a1, a0));
            const ref_vec xp = rv_madd(x, -rv_dot(b->normal, rv_sub(x, b->v[0])), b->normal);
            if (poly_contains(b, xp)) {
                /* The crossing point lies in the plane up to rounding. */
                *pa = *pb = x;
                return 0;
            }
        }
        const ref_vec ends[2] = {a0, a1};
        const ref_real h[2] = {h0, h1};
        for (int i = 0; i < 2; ++i) {
            const ref_vec proj = rv_madd(ends[i], -h[i], b->normal);
            if (poly_contains(b, proj)) {
                consider(ends[i], proj, &best_sq, pa, pb);
            }
        }
    }
    for (int i = 0; i < b->n; ++i) {
        ref_vec qa, qb;
        segments_distance(a0, a1, b->v[i], b->v[(i + 1) % b->n], &qa, &qb);
        consider(qa, qb, &best_sq, pa, pb);
    }
    return rv_len(rv_sub(*pa, *pb));
}

static ref_real segment_box_distance(ref_vec a0, ref_vec a1, const ref_shape* b, ref_vec* pa, ref_vec* pb)
{
    ref_vec x;
    if (box_segment_meet(b, a0, a1, &x)) {
        *pa = *pb = x;
        return 0;
    }
    ref_real best_sq = INFINITY;
    ref_vec n0, n1;
    box_point_sdist(b, a0, &n0);
    box_point_sdist(b, a1, &n1);
    consider(a0, n0, &best_sq, pa, pb);
    consider(a1, n1, &best_sq, pa, pb);
    for (int e = 0; e < 12; ++e) {
        ref_vec ev[2], qa, qb;
        box_edge(b, e, ev);
        segments_distance(a0, a1, ev[0], ev[1], &qa, &qb);
        consider(qa, qb, &best_sq, pa, pb);
    }
    return rv_len(rv_sub(*pa, *pb));
}

/* ---- polytopes ------------------------------------------------------------ */

/* x over face f: on the inner side of each edge of its cycle (the cycle
 * may wind either way around fn). */
static bool polytope_face_contains(const ref_shape* b, int f, ref_vec x)
{
    int pos = 0, neg = 0;
    const int* ids = b->fv + b->fstart[f];
    for (int k = 0; k < b->fcount[f]; ++k) {
        const ref_vec v = b->v[ids[k]], w = b->v[ids[(k + 1) % b->fcount[f]]];
        const ref_real side = side_of(v, w, x, b->fn[f]);
        pos += side > 0;
        neg += side < 0;
    }
    return pos == 0 || neg == 0;
}

/* Whether u is in the cone {x : x . w <= 0} up to a relative slack. */
static bool in_half_cone(ref_vec u, ref_vec w) { return rv_dot(u, w) <= 1e-12L * rv_len(u) * rv_len(w); }

/* p's distance to the polytope if p is outside it, with its nearest point
 * *q; -1 if inside. Found where p - q lies in the normal cone of the
 * feature q is on (a face, one of its own edges, a vertex): the face
 * planes alone misjudge points near a knife edge (a thin slab's rim),
 * whose planes nearly coincide, and these tests do not. */
static ref_real polytope_outside(const ref_shape* b, ref_vec p, ref_vec* q)
{
    ref_real best = -1;
    for (int f = 0; f < b->nf; ++f) {
        const ref_real h = rv_dot(b->fn[f], p) - b->foff[f];
        if (h >= 0 && (best < 0 || h < best) && polytope_face_contains(b, f, p)) {
            best = h;
            *q = rv_madd(p, -h, b->fn[f]);
        }
    }
    for (int e = 0; e < b->noe; ++e) {
        const ref_vec v0 = b->v[b->oev[e][0]], v1 = b->v[b->oev[e][1]];
        const ref_vec x = segment_closest(v0, v1, p), u = rv_sub(p, x), dir = rv_sub(v1, v0);
        const ref_real len = rv_len(u);
        if (best >= 0 && len >= best) {
            continue;
        }
        bool in = true;
        for (int k = 0; k < 2 && in; ++k) {
            /* Into face k, perpendicular to the edge (its cycle winds
             * counter-clockwise around its normal). */
            const ref_vec w = rv_cross(b->fn[b->oef[e][k]], k == 0 ? dir : rv_scale(dir, -1));
            in = in_half_cone(u, w);
        }
        if (in) {
            best = len;
            *q = x;
        }
    }
    for (int i = 0; i < b->n; ++i) {
        const ref_vec u = rv_sub(p, b->v[i]);
        const ref_real len = rv_len(u);
        if (best >= 0 && len >= best) {
            continue;
        }
        bool in = true;
        for (int e = 0; e < b->noe && in; ++e) {
            if (b->oev[e][0] == i || b->oev[e][1] == i) {
                in = in_half_cone(u, rv_sub(b->v[b->oev[e][0] == i ? b->oev[e][1] : b->oev[e][0]], b->v[i]));
            }
        }
        if (in) {
            best = len;
            *q = b->v[i];
        }
    }
    return best;
}

/* Distance between the segment a0-a1 and the polytope: 0 if an end point
 * is inside or the segment crosses a face; else the closest pair has an
 * end point and its nearest point, or lies on the segment and an edge (a
 * segment parallel to a face is closest at an end point too). */
static ref_real segment_polytope_distance(ref_vec a0, ref_vec a1, const ref_shape* b, ref_vec* pa, ref_vec* pb)
{
    ref_real best_sq = INFINITY;
    const ref_vec ends[2] = {a0, a1};
    for (int i = 0; i < 2; ++i) {
        ref_vec q;
        if (polytope_outside(b, ends[i], &q) < 0) {
            *pa = *pb = ends[i];
            return 0;
        }
        consider(ends[i], q, &best_sq, pa, pb);
    }
    for (int f = 0; f < b->nf; ++f) {
        const ref_real h0 = rv_dot(b->fn[f], a0) - b->foff[f], h1 = rv_dot(b->fn[f], a1) - b->foff[f];
        if (((h0 <= 0 && h1 >= 0) || (h0 >= 0 && h1 <= 0)) && h0 != h1) {
            const ref_vec x = rv_madd(a0, h0 / (h0 - h1), rv_sub(a1, a0));
            if (polytope_face_contains(b, f, x)) {
                *pa = *pb = x;
                return 0;
            }
        }
    }
    for (int e = 0; e < b->noe; ++e) {
        ref_vec qa, qb;
        segments_distance(a0, a1, b->v[b->oev[e][0]], b->v[b->oev[e][1]], &qa, &qb);
        consider(qa, qb, &best_sq, pa, pb);
    }
    return rv_len(rv_sub(*pa, *pb));
}

/* Signed distance from p to the polytope: inside, minus the distance to
 * the nearest face plane. */
static ref_real polytope_point_sdist(const ref_shape* b, ref_vec p)
{
    ref_vec q;
    const ref_real out = polytope_outside(b, p, &q);
    if (out >= 0) {
        return out;
    }
    ref_real inside = -INFINITY;
    for (int f = 0; f < b->nf; ++f) {
        inside = fmaxl(inside, rv_dot(b->fn[f], p) - b->foff[f]);
    }
    return fminl(inside, 0);
}

/* Directions from edge e into its two faces, perpendicular to it. */
static void polytope_wings(const ref_shape* b, int e, ref_vec w[2])
{
    const ref_vec dir = rv_sub(b->v[b->ev[e][1]], b->v[b->ev[e][0]]);
    const ref_vec n0 = b->lfn[b->ef[e][0]], n1 = b->lfn[b->ef[e][1]];
    w[0] = rv_cross(n0, dir);
    w[1] = rv_cross(n1, dir);
    if (rv_dot(w[0], n1) > 0) {
        w[0] = rv_scale(w[0], -1);
    }
    if (rv_dot(w[1], n0) > 0) {
        w[1] = rv_scale(w[1], -1);
    }
}

/* Vertices of a polytope core (box corners, polygon vertices, segment
 * ends); returns their count. */
static int core_vertices(const ref_shape* s, ref_vec* out)
{
    if (s->kind == REF_BOX) {
        for (int i = 0; i < 8; ++i) {
            out[i] = box_vertex(s, i);
        }
        return 8;
    }
    for (int i = 0; i < s->n; ++i) {
        out[i] = s->v[i];
    }
    return s->n;
}

/* Depth of the origin in M = B - A's core (the two cores meet), by brute
 * force over every plane through three points of M with all of M on one
 * side: M's facets. *normal: the outward facet normal (the direction A
 * moves to separate, from B toward A). A flat M gives 0. */
static ref_real hull_penetration(const ref_shape* a, const ref_shape* b, ref_vec* normal, bool* has_normal)
{
    ref_vec bv[REF_MAX_VERTS], m[2 * REF_MAX_VERTS];
    const int nb = core_vertices(b, bv);
    int nm = 0;
    ref_real extent = 0;
    for (int i = 0; i < a->n; ++i) {
        for (int j = 0; j < nb; ++j) {
            m[nm] = rv_sub(bv[j], a->v[i]);
            extent = fmaxl(extent, rv_max_abs(m[nm]));
            ++nm;
        }
    }
    ref_real best = INFINITY;
    *has_normal = false;
    if (!(extent > 0)) {
        return 0;
    }
    for (int i = 0; i < nm; ++i) {
        for (int j = i + 1; j < nm; ++j) {
            for (int k = j + 1; k < nm; ++k) {
                const ref_vec u = rv_sub(m[j], m[i]), v = rv_sub(m[k], m[i]);
                ref_vec f = rv_cross(u, v);
                /* A nearly collinear triple's plain cross product is rounding
                 * noise (double inputs), and so would its plane's depth be. */
                if (rv_dot(f, f) < 1e-6L * rv_dot(u, u) * rv_dot(v, v)) {
                    f = cross_accurate(u, v);
                }
                if (!(rv_normalize(&f) > 1e-24L * extent * extent)) {
                    continue;
                }
                /* Side 0 is a facet with outward normal f if every point is
                 * below the plane, side 1 (-f) if every point is above; only
                 * a facet nearer the origin than the best so far matters, and
                 * the scan stops once neither side can be a facet. */
                const ref_real offset = rv_dot(f, m[i]), slack = 1e-15L * extent;
                bool below = offset < best, above = -offset < best;
                for (int l = 0; l < nm && (below || above); ++l) {
                    const ref_real s = rv_dot(f, rv_sub(m[l], m[i]));
                    below = below && s <= slack;
                    above = above && -s <= slack;
                }
                if (below) {
                    best = offset;
                    *normal = f;
                    *has_normal = true;
                }
                if (above && -offset < best) {
                    best = -offset;
                    *normal = rv_scale(f, -1);
                    *has_normal = true;
                }
            }
        }
    }
    if (!*has_normal) {
        return 0; /* M is a segment or a point: no volume, no depth */
    }
    return fmaxl(best, 0);
}

/* The same depth from candidate axes (B's face normals and A's core
 * direction crossed with B's edges, both signs): fast enough for the
 * root-finder, which evaluates g hundreds of times. */
static ref_real axes_penetration(const ref_shape* a, const ref_shape* b)
{
    ref_vec bv[REF_MAX_VERTS], axes[REF_MAX_FACES + REF_MAX_EDGES];
    const int nb = core_vertices(b, bv);
    int na = 0;
    const ref_vec dir = rv_sub(a->v[a->n > 1 ? 1 : 0], a->v[0]);
    if (b->kind == REF_BOX) {
        for (int k = 0; k < 3; ++k) {
            axes[na++] = b->axis[k];
            axes[na++] = rv_cross(dir, b->axis[k]);
        }
    } else if (b->kind == REF_POLYTOPE) {
        for (int f = 0; f < b->nf; ++f) {
            axes[na++] = b->fn[f];
        }
        for (int e = 0; e < b->noe; ++e) {
            axes[na++] = rv_cross(dir, rv_sub(b->v[b->oev[e][1]], b->v[b->oev[e][0]]));
        }
    } else {
        axes[na++] = b->normal;
        for (int i = 0; i < b->n && na < (int)(sizeof axes / sizeof axes[0]); ++i) {
            axes[na++] = rv_cross(dir, rv_sub(b->v[(i + 1) % b->n], b->v[i]));
        }
    }
    ref_real best = INFINITY;
    for (int k = 0; k < na; ++k) {
        ref_vec u = axes[k];
        if (!(rv_normalize(&u) > 0)) {
            continue;
        }
        ref_real bmax = -INFINITY, bmin = INFINITY, amax = -INFINITY, amin = INFINITY;
        for (int j = 0; j < nb; ++j) {
            const ref_real s = rv_dot(u, bv[j]);
            bmax = fmaxl(bmax, s);
            bmin = fminl(bmin, s);
        }
        for (int i = 0; i < a->n; ++i) {
            const ref_real s = rv_dot(u, a->v[i]);
            amax = fmaxl(amax, s);
            amin = fminl(amin, s);
        }
        best = fminl(best, fminl(bmax - amin, amax - bmin));
    }
    return best < INFINITY ? fmaxl(best, 0) : 0;
}

static bool has_volume(const ref_shape* s) { return s->kind == REF_BOX || s->kind == REF_POLYTOPE; }

/* A box, polytope or polygon of non-zero area: what ref_polytope.c models. */
static bool plain_solid(const ref_shape* s)
{
    return has_volume(s) || (s->kind == REF_POLY && rv_dot(s->normal, s->normal) > 0);
}

bool ref_has_distance(const ref_shape* a, const ref_shape* b)
{
    if ((a->kind == REF_HULL && a->n <= 2) || (b->kind == REF_HULL && b->n <= 2)) {
        return true;
    }
    /* Solid pairs: a box or polytope against a box, polytope, polygon or
     * half-space, and two flat shapes or a flat shape and a half-space
     * (solid_sdist; a polygon is a thin prism there). */
    const bool flat_a = a->kind == REF_POLY || a->kind == REF_PLANE,
               flat_b = b->kind == REF_POLY || b->kind == REF_PLANE;
    if (flat_a && flat_b) {
        return !(a->kind == REF_PLANE && b->kind == REF_PLANE);
    }
    return (has_volume(a) && b->kind != REF_HULL) || (has_volume(b) && a->kind != REF_HULL);
}

/* Signed distance between the segment core of a and the core of b
 * (negative: minus the cores' penetration). fast: the penetration of
 * meeting cores from candidate axes rather than every hull facet. */
static ref_real core_sdist(const ref_shape* a, const ref_shape* b, ref_witness* w, bool fast)
{
    const ref_vec a0 = a->v[0], a1 = a->n > 1 ? a->v[1] : a->v[0];
    ref_real dist = 0;
    memset(w, 0, sizeof *w);
    switch (b->kind) {
    case REF_HULL:
        dist = segments_distance(a0, a1, b->v[0], b->n > 1 ? b->v[1] : b->v[0], &w->pa, &w->pb);
        break;
    case REF_PLANE: {
        const ref_real h0 = rv_dot(b->normal, a0) - b->offset, h1 = rv_dot(b->normal, a1) - b->offset;
        w->pa = h0 <= h1 ? a0 : a1;
        const ref_real h = fminl(h0, h1);
        w->pb = rv_madd(w->pa, -h, b->normal);
        w->normal = b->normal;
        w->has_normal = true;
        return h;
    }
    case REF_POLY:
        dist = segment_poly_distance(a0, a1, b, &w->pa, &w->pb);
        break;
    case REF_POLYTOPE:
        dist = segment_polytope_distance(a0, a1, b, &w->pa, &w->pb);
        break;
    case REF_BOX:
        if (a->n == 1 || (a1.x == a0.x && a1.y == a0.y && a1.z == a0.z)) {
            /* A point core: the box's own signed distance. */
            w->pa = a0;
            const ref_real s = box_point_sdist(b, a0, &w->pb);
            w->normal = s > 0 ? rv_sub(a0, w->pb) : rv_sub(w->pb, a0);
            w->has_normal = rv_normalize(&w->normal) > 0;
            return s;
        }
        dist = segment_box_distance(a0, a1, b, &w->pa, &w->pb);
        break;
    }
    if (dist > 0) {
        w->normal = rv_sub(w->pa, w->pb);
        w->has_normal = rv_normalize(&w->normal) > 0;
        return dist;
    }
    if (b->kind == REF_HULL) {
        return 0; /* M is flat at most: no penetration of the cores */
    }
    if (fast) {
        return -axes_penetration(a, b);
    }
    return -hull_penetration(a, b, &w->normal, &w->has_normal);
}

/* A polygon of no area as the segment between its two farthest vertices
 * (a point when they coincide). */
static ref_shape flat_as_segment(const ref_shape* p)
{
    ref_shape s;
    memset(&s, 0, sizeof s);
    s.type = p->type;
    s.kind = REF_HULL;
    s.n = 2;
    s.v[0] = s.v[1] = p->v[0];
    ref_real best = -1;
    for (int i = 0; i < p->n; ++i) {
        for (int j = i + 1; j < p->n; ++j) {
            const ref_vec e = rv_sub(p->v[j], p->v[i]);
            if (rv_dot(e, e) > best) {
                best = rv_dot(e, e);
                s.v[0] = p->v[i];
                s.v[1] = p->v[j];
            }
        }
    }
    return s;
}

static ref_real sdist(const ref_shape* a, const ref_shape* b, ref_witness* w, bool fast);

/* Signed distance of solid a above the half-space b: a's lowest vertex. */
static ref_real plane_sdist(const ref_shape* a, const ref_shape* b, ref_witness* w)
{
    ref_vec v[REF_MAX_VERTS];
    const int n = core_vertices(a, v);
    ref_real h = INFINITY;
    for (int i = 0; i < n; ++i) {
        const ref_real hi = rv_dot(b->normal, v[i]) - b->offset;
        if (hi < h) {
            h = hi;
            w->pa = v[i];
        }
    }
    w->pb = rv_madd(w->pa, -h, b->normal);
    w->normal = b->normal;
    w->has_normal = true;
    return h;
}

/* Signed distance between two solids without a segment core (a box or
 * polytope against a box, polytope, polygon or half-space), by
 * ref_polytope.c's methods on its own conversion of the shapes: when they
 * meet, the largest gap over every separating-axis candidate (face
 * normals of both and every edge direction of one crossed with every edge
 * direction of the other: the facet normals of their Minkowski difference,
 * so minus the exact depth); apart, the exact distance by brute force over
 * vertex-face, face-vertex and edge-edge pairs. */
static ref_real solid_sdist(const ref_shape* a, const ref_shape* b, ref_witness* w)
{
    memset(w, 0, sizeof *w);
    if (b->kind == REF_PLANE) {
        return plane_sdist(a, b, w);
    }
    if (a->kind == REF_PLANE) {
        const ref_real s = plane_sdist(b, a, w);
        const ref_vec p = w->pa;
        w->pa = w->pb;
        w->pb = p;
        w->normal = rv_scale(w->normal, -1);
        return s;
    }
    /* A polygon of no area is a segment core. */
    if (a->kind == REF_POLY && !(rv_dot(a->normal, a->normal) > 0)) {
        const ref_shape s = flat_as_segment(a);
        return sdist(&s, b, w, false);
    }
    if (b->kind == REF_POLY && !(rv_dot(b->normal, b->normal) > 0)) {
        const ref_shape s = flat_as_segment(b);
        return sdist(a, &s, w, false);
    }
    /* Large (fixed capacities): kept between calls, the reference runs on
     * one thread. */
    static rp_poly pa, pb;
    if (!rp_from_ref(a, &pa) || !rp_from_ref(b, &pb)) {
        w->has_normal = false;
        return NAN;
    }
    const ref_vec zero = rv(0, 0, 0);
    ref_vec n;
    const ref_real sep = rp_sep(&pa, zero, &pb, &n);
    if (sep <= 0) {
        /* They meet: the witness is A's deepest vertex along the
         * separating direction. */
        w->normal = n;
        w->has_normal = rv_normalize(&w->normal) > 0;
        ref_real lo = INFINITY;
        for (int i = 0; i < pa.nv; ++i) {
            if (rv_dot(n, pa.v[i]) < lo) {
                lo = rv_dot(n, pa.v[i]);
                w->pa = w->pb = pa.v[i];
            }
        }
        return sep;
    }
    const ref_real dist = rp_distance(&pa, zero, &pb, &n, &w->pa, &w->pb);
    w->normal = rv_sub(w->pa, w->pb);
    w->has_normal = rv_normalize(&w->normal) > 0;
    return dist;
}

static ref_real sdist(const ref_shape* a, const ref_shape* b, ref_witness* w, bool fast)
{
    if (a->kind != REF_HULL && b->kind != REF_HULL) {
        return solid_sdist(a, b, w);
    }
    if (a->kind == REF_HULL) {
        return core_sdist(a, b, w, fast) - a->radius - b->radius;
    }
    /* Mirrored: distances are symmetric, directions reverse. */
    const ref_real s = core_sdist(b, a, w, fast) - a->radius - b->radius;
    const ref_vec p = w->pa;
    w->pa = w->pb;
    w->pb = p;
    w->normal = rv_scale(w->normal, -1);
    return s;
}

ref_real ref_sdist(const ref_shape* a, const ref_shape* b, ref_witness* w) { return sdist(a, b, w, false); }

bool ref_solid_normal_unique(const ref_shape* a, const ref_shape* b, ref_real tau)
{
    if (!plain_solid(a) || !plain_solid(b)) {
        return true;
    }
    static rp_poly pa, pb;
    if (!rp_from_ref(a, &pa) || !rp_from_ref(b, &pb)) {
        return true;
    }
    rp_sweep_result r;
    rp_sweep(&pa, rv(0, 0, 0), &pb, tau, &r);
    return r.unique0;
}

ref_real ref_point_sdist(const ref_shape* s, ref_vec p)
{
    ref_vec nearest;
    switch (s->kind) {
    case REF_BOX:
        return box_point_sdist(s, p, &nearest);
    case REF_PLANE:
        return rv_dot(s->normal, p) - s->offset;
    case REF_POLY: {
        ref_vec pb;
        return segment_poly_distance(p, p, s, &nearest, &pb);
    }
    case REF_POLYTOPE:
        return polytope_point_sdist(s, p);
    case REF_HULL:
        break;
    }
    return rv_len(rv_sub(segment_closest(s->v[0], s->n > 1 ? s->v[1] : s->v[0], p), p)) - s->radius;
}

ref_real ref_support(const ref_shape* s, ref_vec n)
{
    switch (s->kind) {
    case REF_BOX: {
        ref_real h = rv_dot(n, s->center);
        for (int k = 0; k < 3; ++k) {
            h += s->half[k] * fabsl(rv_dot(n, s->axis[k]));
        }
        return h;
    }
    case REF_PLANE: {
        const ref_real along = rv_dot(n, s->normal);
        /* Finite only along the normal; within 1e-3 rad the caller's angle
         * check decides, so treat the direction as the normal. */
        if (along > 0 && rv_len(rv_cross(n, s->normal)) <= 1e-3L * along) {
            return along * s->offset;
        }
        return INFINITY;
    }
    case REF_HULL:
    case REF_POLY:
    case REF_POLYTOPE:
        break;
    }
    ref_real h = -INFINITY;
    for (int i = 0; i < s->n; ++i) {
        h = fmaxl(h, rv_dot(n, s->v[i]));
    }
    return h + s->radius * rv_len(n);
}

/* The library's face f of a polytope as a flat polygon of its own: its
 * vertices dropped onto the plane that supports them along its normal. */
static void polytope_face_shape(const ref_shape* b, int f, ref_shape* out)
{
    memset(out, 0, sizeof *out);
    out->type = SW_SHAPE_POLYGON;
    out->kind = REF_POLY;
    out->n = b->lcount[f];
    const int* ids = b->lfv + b->lstart[f];
    const ref_vec n = b->lfn[f];
    ref_real top = -INFINITY;
    for (int k = 0; k < out->n; ++k) {
        top = fmaxl(top, rv_dot(n, b->v[ids[k]]));
    }
    ref_vec sum = rv(0, 0, 0);
    for (int k = 0; k < out->n; ++k) {
        const ref_vec v = b->v[ids[k]];
        out->v[k] = rv_madd(v, top - rv_dot(n, v), n);
    }
    for (int k = 1; k + 1 < out->n; ++k) {
        sum = rv_add(sum, rv_cross(rv_sub(out->v[k], out->v[0]), rv_sub(out->v[k + 1], out->v[0])));
    }
    out->normal = rv_dot(sum, n) >= 0 ? n : rv_scale(n, -1);
}

ref_real ref_feature_distance(const ref_shape* b, sw_feature_kind kind, int index, ref_vec p)
{
    ref_vec q, r;
    switch (b->kind) {
    case REF_POLYTOPE:
        if (kind == SW_FEATURE_VERTEX && index >= 0 && index < b->n) {
            return rv_len(rv_sub(p, b->v[index]));
        }
        if (kind == SW_FEATURE_EDGE && index >= 0 && index < b->ne) {
            return rv_len(rv_sub(p, segment_closest(b->v[b->ev[index][0]], b->v[b->ev[index][1]], p)));
        }
        if (kind == SW_FEATURE_FACE && index >= 0 && index < b->nlf) {
            ref_shape face;
            polytope_face_shape(b, index, &face);
            return segment_poly_distance(p, p, &face, &q, &r);
        }
        return INFINITY;
    case REF_HULL:
        if (b->n < 2) {
            return kind == SW_FEATURE_NONE && index == 0 ? 0 : INFINITY;
        }
        if (kind == SW_FEATURE_VERTEX && (index == 0 || index == 1)) {
            return rv_len(rv_sub(p, b->v[index]));
        }
        if (kind == SW_FEATURE_EDGE && index == 0) {
            return rv_len(rv_sub(p, segment_closest(b->v[0], b->v[1], p)));
        }
        return INFINITY;
    case REF_PLANE:
        return kind == SW_FEATURE_FACE && index == 0 ? fabsl(ref_point_sdist(b, p)) : INFINITY;
    case REF_POLY:
        if (kind == SW_FEATURE_VERTEX && index >= 0 && index < b->n) {
            return rv_len(rv_sub(p, b->v[index]));
        }
        if (kind == SW_FEATURE_EDGE && index >= 0 && index < b->n) {
            return rv_len(rv_sub(p, segment_closest(b->v[index], b->v[(index + 1) % b->n], p)));
        }
        if (kind == SW_FEATURE_FACE && index == 0) {
            return segment_poly_distance(p, p, b, &q, &r);
        }
        return INFINITY;
    case REF_BOX:
        if (kind == SW_FEATURE_VERTEX && index >= 0 && index < 8) {
            return rv_len(rv_sub(p, box_vertex(b, index)));
        }
        if (kind == SW_FEATURE_EDGE && index >= 0 && index < 12) {
            ref_vec e[2];
            box_edge(b, index, e);
            return rv_len(rv_sub(p, segment_closest(e[0], e[1], p)));
        }
        if (kind == SW_FEATURE_FACE && index >= 0 && index < 6) {
            const ref_vec l = box_local(b, p);
            const ref_real lc[3] = {l.x, l.y, l.z};
            const int axis = index / 2;
            const ref_real plane = (index & 1) ? b->half[axis] : -b->half[axis];
            ref_real sq = (lc[axis] - plane) * (lc[axis] - plane);
            for (int k = 0; k < 3; ++k) {
                const ref_real e = fabsl(lc[k]) - b->half[k];
                if (k != axis && e > 0) {
                    sq += e * e;
                }
            }
            return sqrtl(sq);
        }
        return INFINITY;
    }
    return INFINITY;
}

/* How far the unit n violates "u . n <= 0" (le) or "u . n = 0" (eq), with u
 * normalised; a zero u constrains nothing. */
static ref_real cone_le(ref_vec u, ref_vec n) { return rv_normalize(&u) > 0 ? fmaxl(rv_dot(u, n), 0) : 0; }
static ref_real cone_eq(ref_vec u, ref_vec n) { return rv_normalize(&u) > 0 ? fabsl(rv_dot(u, n)) : 0; }

ref_real ref_feature_cone_excess(const ref_shape* b, sw_feature_kind kind, int index, ref_vec n)
{
    switch (b->kind) {
    case REF_POLYTOPE: {
        if (kind == SW_FEATURE_FACE && index >= 0 && index < b->nlf) {
            const ref_real c = rv_dot(n, b->lfn[index]);
            return c > 0 ? rv_len(rv_cross(n, b->lfn[index])) : 1 + fabsl(c);
        }
        if (kind == SW_FEATURE_EDGE && index >= 0 && index < b->ne) {
            /* Perpendicular to the edge, not into either face. */
            ref_vec w[2];
            polytope_wings(b, index, w);
            const ref_vec e = rv_sub(b->v[b->ev[index][1]], b->v[b->ev[index][0]]);
            return fmaxl(cone_eq(e, n), fmaxl(cone_le(w[0], n), cone_le(w[1], n)));
        }
        if (kind == SW_FEATURE_VERTEX && index >= 0 && index < b->n) {
            /* Away from every neighbour. */
            ref_real excess = 0;
            for (int e = 0; e < b->ne; ++e) {
                if (b->ev[e][0] == index || b->ev[e][1] == index) {
                    const int other = b->ev[e][0] == index ? b->ev[e][1] : b->ev[e][0];
                    excess = fmaxl(excess, cone_le(rv_sub(b->v[other], b->v[index]), n));
                }
            }
            return excess;
        }
        return INFINITY;
    }
    case REF_HULL: {
        const ref_vec e = rv_sub(b->v[b->n > 1 ? 1 : 0], b->v[0]);
        if (b->n < 2) {
            return kind == SW_FEATURE_NONE ? 0 : INFINITY;
        }
        if (kind == SW_FEATURE_EDGE && index == 0) {
            return cone_eq(e, n);
        }
        if (kind == SW_FEATURE_VERTEX && (index == 0 || index == 1)) {
            return cone_le(index == 0 ? e : rv_scale(e, -1), n);
        }
        return INFINITY;
    }
    case REF_PLANE: {
        const ref_real c = rv_dot(n, b->normal);
        if (kind != SW_FEATURE_FACE || index != 0) {
            return INFINITY;
        }
        return c > 0 ? rv_len(rv_cross(n, b->normal)) : 1 + fabsl(c);
    }
    case REF_POLY: {
        const bool flat = rv_dot(b->normal, b->normal) > 0;
        if (kind == SW_FEATURE_FACE && index == 0) {
            return flat ? rv_len(rv_cross(n, b->normal)) : INFINITY; /* either side */
        }
        if (index < 0 || index >= b->n) {
            return INFINITY;
        }
        const ref_vec ei = rv_sub(b->v[(index + 1) % b->n], b->v[index]);
        if (kind == SW_FEATURE_EDGE) {
            /* Perpendicular to the edge, not toward the polygon's inside. */
            const ref_vec in = rv_cross(b->normal, ei);
            return fmaxl(cone_eq(ei, n), flat ? cone_le(in, n) : 0);
        }
        if (kind == SW_FEATURE_VERTEX) {
            const ref_vec ep = rv_sub(b->v[index], b->v[(index + b->n - 1) % b->n]);
            return fmaxl(cone_le(ei, n), cone_le(rv_scale(ep, -1), n));
        }
        return INFINITY;
    }
    case REF_BOX: {
        /* Outward signs required on the box axes the feature is bounded by. */
        ref_real sign[3] = {0, 0, 0};
        if (kind == SW_FEATURE_FACE && index >= 0 && index < 6) {
            const ref_vec out = rv_scale(b->axis[index / 2], (index & 1) ? 1 : -1);
            const ref_real c = rv_dot(n, out);
            return c > 0 ? rv_len(rv_cross(n, out)) : 1 + fabsl(c);
        }
        if (kind == SW_FEATURE_EDGE && index >= 0 && index < 12) {
            const int axis = index / 4, j = index % 4;
            sign[(axis + 1) % 3] = (j & 1) ? 1 : -1;
            sign[(axis + 2) % 3] = (j & 2) ? 1 : -1;
            ref_real excess = cone_eq(b->axis[axis], n);
            for (int k = 0; k < 3; ++k) {
                if (sign[k] != 0) {
                    excess = fmaxl(excess, cone_le(rv_scale(b->axis[k], -sign[k]), n));
                }
            }
            return excess;
        }
        if (kind == SW_FEATURE_VERTEX && index >= 0 && index < 8) {
            ref_real excess = 0;
            for (int k = 0; k < 3; ++k) {
                excess = fmaxl(excess, cone_le(rv_scale(b->axis[k], ((index >> k) & 1) ? -1 : 1), n));
            }
            return excess;
        }
        return INFINITY;
    }
    }
    return INFINITY;
}

bool ref_feature_shape(const ref_shape* b, sw_feature_kind kind, int index, ref_shape* out)
{
    memset(out, 0, sizeof *out);
    out->type = SW_SHAPE_POLYGON;
    out->kind = REF_HULL;
    switch (b->kind) {
    case REF_POLYTOPE:
        if (kind == SW_FEATURE_VERTEX && index >= 0 && index < b->n) {
            out->n = 1;
            out->v[0] = b->v[index];
            return true;
        }
        if (kind == SW_FEATURE_EDGE && index >= 0 && index < b->ne) {
            out->n = 2;
            out->v[0] = b->v[b->ev[index][0]];
            out->v[1] = b->v[b->ev[index][1]];
            return true;
        }
        if (kind == SW_FEATURE_FACE && index >= 0 && index < b->nlf) {
            polytope_face_shape(b, index, out);
            return true;
        }
        return false;
    case REF_HULL:
        if (b->n < 2 ||
            !((kind == SW_FEATURE_VERTEX && (index == 0 || index == 1)) || (kind == SW_FEATURE_EDGE && index == 0))) {
            return false;
        }
        out->n = kind == SW_FEATURE_VERTEX ? 1 : 2;
        out->v[0] = b->v[kind == SW_FEATURE_VERTEX ? index : 0];
        out->v[1] = b->v[1];
        return true;
    case REF_POLY:
        if (kind == SW_FEATURE_FACE && index == 0) {
            *out = *b;
            out->one_sided = false;
            return true;
        }
        if ((kind != SW_FEATURE_VERTEX && kind != SW_FEATURE_EDGE) || index < 0 || index >= b->n) {
            return false;
        }
        out->n = kind == SW_FEATURE_VERTEX ? 1 : 2;
        out->v[0] = b->v[index];
        out->v[1] = b->v[(index + 1) % b->n];
        return true;
    case REF_BOX:
        if (kind == SW_FEATURE_VERTEX && index >= 0 && index < 8) {
            out->n = 1;
            out->v[0] = box_vertex(b, index);
            return true;
        }
        if (kind == SW_FEATURE_EDGE && index >= 0 && index < 12) {
            out->n = 2;
            box_edge(b, index, out->v);
            return true;
        }
        if (kind == SW_FEATURE_FACE && index >= 0 && index < 6) {
            /* Face 2 * axis + side: its four corners in boundary order. */
            const int axis = index / 2, u = (axis + 1) % 3, w = (axis + 2) % 3;
            const int corner[4] = {0, 1 << u, (1 << u) | (1 << w), 1 << w};
            ref_vec v[4];
            for (int i = 0; i < 4; ++i) {
                v[i] = box_vertex(b, corner[i] | ((index & 1) << axis));
            }
            out->kind = REF_POLY;
            out->n = 4;
            ref_vec sum = rv(0, 0, 0);
            for (int i = 0; i < 4; ++i) {
                out->v[i] = v[i];
                if (i >= 1 && i + 1 < 4) {
                    sum = rv_add(sum, rv_cross(rv_sub(v[i], v[0]), rv_sub(v[i + 1], v[0])));
                }
            }
            /* The winding's own normal (0 for a face of no area). */
            out->normal = rv_normalize(&sum) > 0 ? sum : rv(0, 0, 0);
            return true;
        }
        return false;
    case REF_PLANE:
        break;
    }
    return false;
}

/* ---- containment -------------------------------------------------------- */

ref_real ref_face_slack(const ref_shape* a, const ref_shape* b, int face)
{
    const int k = face / 2;
    const ref_real side = (face & 1) ? 1 : -1;
    return b->half[k] - a->radius - side * rv_dot(rv_sub(a->v[0], b->center), b->axis[k]);
}

ref_vec ref_face_normal(const ref_shape* b, int face) { return rv_scale(b->axis[face / 2], (face & 1) ? -1 : 1); }

ref_real ref_inside_slack(const ref_shape* a, const ref_shape* b, int* face)
{
    *face = -1;
    if (b->kind == REF_HULL) {
        return b->radius - a->radius - rv_len(rv_sub(a->v[0], b->v[0]));
    }
    ref_real best = INFINITY;
    for (int f = 0; f < 6; ++f) {
        const ref_real s = ref_face_slack(a, b, f);
        if (s < best) {
            best = s;
            *face = f;
        }
    }
    return best;
}

/* ---- queries ------------------------------------------------------------ */

ref_real ref_scale(const ref_case* c)
{
    const ref_real m = fmaxl(ref_shape_extent(&c->a), ref_shape_extent(&c->b));
    return fmaxl(fmaxl(m, rv_max_abs(c->d)), c->skin);
}

/* The sweep's solid pair as ref_polytope.c sees it, kept while the same
 * case is evaluated (g at hundreds of times): the shapes converted once,
 * the axes with their projections built once, A's motion an offset. */
static struct {
    bool valid;
    ref_shape a, b;
    ref_vec d;
    rp_poly pa, pb;
    rp_axes* axes;
} solid_cache;

/* g(t) + skin of a sweep of one solid against another (both plain_solid);
 * root: the separation alone when it is positive (exact at and below 0, a lower bound of the distance above). */
static ref_real solid_g(const ref_case* c, ref_real t, bool root)
{
    if (!solid_cache.valid || memcmp(&solid_cache.a, &c->a, sizeof c->a) ||
        memcmp(&solid_cache.b, &c->b, sizeof c->b) || memcmp(&solid_cache.d, &c->d, sizeof c->d)) {
        rp_axes_free(solid_cache.axes);
        solid_cache.axes = NULL;
        solid_cache.valid = false;
        if (!rp_from_ref(&c->a, &solid_cache.pa) || !rp_from_ref(&c->b, &solid_cache.pb)) {
            return NAN;
        }
        solid_cache.a = c->a;
        solid_cache.b = c->b;
        solid_cache.d = c->d;
        solid_cache.axes = rp_axes_build(&solid_cache.pa, c->d, &solid_cache.pb);
        solid_cache.valid = true;
    }
    ref_vec axis;
    const ref_real sep = rp_axes_g(solid_cache.axes, t, &axis);
    if (sep <= 0 || root) {
        return sep;
    }
    return rp_distance(&solid_cache.pa, rv_scale(c->d, t), &solid_cache.pb, &axis, NULL, NULL);
}

/* How g is evaluated: exactly; fast (crossing cores' penetration from
 * candidate axes, for the root-finder's many evaluations, instead of the
 * brute-force hull); or for roots only: a solid pair without skin then
 * takes its separation over the axes, exact at and below 0. */
typedef enum g_mode { G_EXACT, G_FAST, G_ROOT } g_mode;

static ref_real g_at(const ref_case* c, ref_real t, g_mode mode)
{
    const ref_shape at = ref_translated(&c->a, rv_scale(c->d, t));
    if (c->op == REF_SWEEP_INSIDE) {
        int face;
        return ref_inside_slack(&at, &c->b, &face);
    }
    if (mode != G_EXACT && plain_solid(&c->a) && plain_solid(&c->b)) {
        return solid_g(c, t, mode == G_ROOT && c->skin == 0) - c->skin;
    }
    ref_witness w;
    return sdist(&at, &c->b, &w, mode != G_EXACT) - c->skin;
}

ref_real ref_g(const ref_case* c, ref_real t) { return g_at(c, t, G_EXACT); }

static const ref_real golden = 0.6180339887498948482045868343656381L;

/* Golden-section search for the minimum of the convex g over [lo, hi]. */
static ref_real golden_min(const ref_case* c, ref_real lo, ref_real hi, ref_real* where, g_mode mode)
{
    ref_real a = lo, b = hi;
    ref_real x1 = b - golden * (b - a), x2 = a + golden * (b - a);
    ref_real f1 = g_at(c, x1, mode), f2 = g_at(c, x2, mode);
    for (int i = 0; i < 90 && b - a > 0; ++i) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - golden * (b - a);
            f1 = g_at(c, x1, mode);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + golden * (b - a);
            f2 = g_at(c, x2, mode);
        }
    }
    ref_real best = f1 <= f2 ? f1 : f2;
    *where = f1 <= f2 ? x1 : x2;
    const ref_real flo = g_at(c, lo, mode), fhi = g_at(c, hi, mode);
    if (flo <= best) {
        best = flo;
        *where = lo;
    }
    if (fhi < best) {
        best = fhi;
        *where = hi;
    }
    return best;
}

ref_real ref_gmin_on(const ref_case* c, ref_real t0, ref_real t1)
{
    if (c->op == REF_SWEEP_INSIDE || !(t1 > t0)) {
        return fminl(g_at(c, t0, G_FAST), g_at(c, t1, G_FAST));
    }
    ref_real where;
    return golden_min(c, t0, t1, &where, G_FAST);
}

/* First t in [lo, hi] with g(t) <= 0, given g(lo) > 0 >= g(hi) and g
 * monotone in between (convex g before its minimum; concave slack after
 * a positive start). */
static ref_real first_root(const ref_case* c, ref_real lo, ref_real hi)
{
    /* 80 halvings: below long double's resolution of [0, 1]. */
    for (int i = 0; i < 80; ++i) {
        const ref_real mid = lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi)) {
            break;
        }
        if (g_at(c, mid, G_ROOT) <= 0) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    return hi;
}

/* A time shortly before the first contact t (> 0, after a positive start)
 * at which g is between 1e-13 and 2e-13 scale: the gap there is far above
 * rounding and far below any tolerance. Steps back from t by doubling
 * amounts (g is monotone before t). */
static ref_real normal_time(const ref_case* c, ref_real t)
{
    const ref_real gap = 1e-13L * ref_scale(c);
    /* g changes by at most |d| per unit of t: no smaller step can reach gap. */
    const ref_real dlen = rv_len(c->d);
    for (ref_real back = dlen > 0 ? gap / dlen : t; back < t; back *= 2) {
        if (g_at(c, t - back, G_ROOT) > gap) {
            return t - back;
        }
    }
    return 0;
}

static void contact_at(const ref_case* c, ref_real t, ref_result* r)
{
    const ref_shape at = ref_translated(&c->a, rv_scale(c->d, t));
    if (c->op == REF_SWEEP_INSIDE) {
        int face;
        ref_inside_slack(&at, &c->b, &face);
        r->face = face;
        if (c->b.kind == REF_BOX) {
            r->normal = ref_face_normal(&c->b, face);
            r->has_normal = true;
        } else {
            r->normal = rv_sub(c->b.v[0], at.v[0]);
            r->has_normal = rv_normalize(&r->normal) > 0;
        }
        return;
    }
    ref_witness w;
    ref_sdist(&at, &c->b, &w);
    r->pa = w.pa;
    r->pb = w.pb;
    r->normal = w.normal;
    r->has_normal = w.has_normal;
}

/* DESIGN §2: a one-sided face counts a contact only when d . n < 0 and the
 * contact normal has normal . n > 0, and is ignored when A starts in
 * contact. */
static void apply_one_sided(const ref_case* c, ref_result* r)
{
    const ref_shape* b = &c->b;
    if (!r->hit || b->kind != REF_POLY || !b->one_sided) {
        return;
    }
    if (r->t == 0) {
        r->one_sided_reject = true;
    } else {
        const ref_real dlen = rv_len(c->d);
        const ref_real dn = rv_dot(c->d, b->normal) / dlen;
        const ref_real nn = r->has_normal ? rv_dot(r->normal, b->normal) : 0;
        r->one_sided_reject = !(dn < 0 && nn > 0);
        r->one_sided_ambiguous = fabsl(dn) <= 2e-3L || fabsl(nn) <= 2e-3L || !r->has_normal;
    }
    if (r->one_sided_reject) {
        r->hit = false;
    }
}

/* Contact normal, closest points and the one-sided rule for a hit at r->t. */
static void finish_hit(const ref_case* c, ref_result* r)
{
    contact_at(c, r->t, r);
    if (r->t > 0 && c->op != REF_SWEEP_INSIDE) {
        /* At the root the shapes touch to within rounding and the direction
         * between closest points is noise: take it from just before contact
         * (DESIGN §2). */
        ref_result before;
        contact_at(c, normal_time(c, r->t), &before);
        r->normal = before.normal;
        r->has_normal = before.has_normal;
    }
    apply_one_sided(c, r);
}

void ref_solve(const ref_case* c, ref_result* r)
{
    memset(r, 0, sizeof *r);
    r->face = -1;
    if (c->op == REF_OVERLAP || c->op == REF_DISTANCE) {
        ref_witness w;
        r->sdist = ref_sdist(&c->a, &c->b, &w);
        r->g0 = r->g1 = r->gmin = r->sdist;
        r->pa = w.pa;
        r->pb = w.pb;
        r->normal = w.normal;
        r->has_normal = w.has_normal;
        return;
    }
    r->g0 = g_at(c, 0, G_EXACT);
    r->g1 = g_at(c, 1, G_FAST);
    const bool moving = rv_max_abs(c->d) > 0;
    if (!moving) {
        r->g1 = r->gmin = r->g0;
    } else if (c->op == REF_SWEEP_INSIDE) {
        r->gmin = fminl(r->g0, r->g1);
        r->tmin = r->g0 <= r->g1 ? 0 : 1;
    } else {
        r->gmin = golden_min(c, 0, 1, &r->tmin, G_ROOT);
        if (r->gmin > 0) {
            /* Apart all along: the root mode's value is only a lower bound. */
            r->gmin = golden_min(c, 0, 1, &r->tmin, G_FAST);
        }
    }
    if (r->g0 <= 0) {
        r->hit = true;
        r->t = 0;
    } else if (r->gmin <= 0) {
        r->hit = true;
        r->t = first_root(c, 0, r->tmin);
    }
    if (r->hit) {
        finish_hit(c, r);
    }
}

static void jiggle_vec(ref_vec* v, ref_real amount, uint64_t* state)
{
    ref_real* comp[3] = {&v->x, &v->y, &v->z};
    for (int k = 0; k < 3; ++k) {
        uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        *comp[k] += ((z >> 40) & 1) ? amount : -amount;
    }
}

static void jiggle_real(ref_real* x, ref_real amount, uint64_t* state)
{
    ref_vec v = rv(*x, 0, 0);
    jiggle_vec(&v, amount, state);
    *x = fmaxl(v.x, 0);
}

static void jiggle_shape(ref_shape* s, ref_real amount, uint64_t* state)
{
    if (s->kind == REF_POLYTOPE) {
        /* Every vertex on its own (DESIGN §3's "configurations within
         * tol * scale": a small face's normal turns with its vertices), the
         * faces found again; moved as a whole if they come out flat. */
        const ref_shape keep = *s;
        for (int i = 0; i < s->n; ++i) {
            jiggle_vec(&s->v[i], amount, state);
        }
        if (!polytope_faces(s)) {
            ref_vec shift = rv(0, 0, 0);
            jiggle_vec(&shift, amount, state);
            *s = ref_translated(&keep, shift);
        }
        return;
    }
    for (int i = 0; i < s->n; ++i) {
        jiggle_vec(&s->v[i], amount, state);
    }
    switch (s->kind) {
    case REF_BOX:
        jiggle_vec(&s->center, amount, state);
        for (int k = 0; k < 3; ++k) {
            jiggle_real(&s->half[k], amount, state);
        }
        break;
    case REF_HULL:
        jiggle_real(&s->radius, amount, state);
        break;
    case REF_PLANE: {
        ref_vec o = rv(s->offset, 0, 0);
        jiggle_vec(&o, amount, state);
        s->offset = o.x;
        break;
    }
    case REF_POLY: {
        /* Keep the polygon planar: move it along its normal only. */
        const ref_shape keep = *s;
        ref_vec shift = rv(0, 0, 0);
        jiggle_vec(&shift, amount, state);
        *s = ref_translated(&keep, rv_scale(s->normal, shift.x));
        break;
    }
    case REF_POLYTOPE:
        break;
    }
}

void ref_perturb(const ref_case* c, ref_real amount, uint64_t seed, ref_case* out)
{
    uint64_t state = seed;
    *out = *c;
    jiggle_shape(&out->a, amount, &state);
    jiggle_shape(&out->b, amount, &state);
    jiggle_vec(&out->d, amount, &state);
    if (c->op == REF_SWEEP) {
        jiggle_real(&out->skin, amount, &state);
    }
}

/* The first contact of a slightly perturbed sweep whose unperturbed first
 * contact was near->t, found from a bracket around that time (g is convex,
 * so g(lo) > 0 >= g(hi) puts the first root in (lo, hi]); false when the
 * bracket does not hold and a full solve is needed. Only the fields the
 * spread uses are filled in. */
static bool solve_near(const ref_case* c, const ref_result* near, ref_result* r)
{
    if (c->op == REF_OVERLAP || c->op == REF_DISTANCE || c->op == REF_SWEEP_INSIDE || !near->hit) {
        return false;
    }
    memset(r, 0, sizeof *r);
    r->face = -1;
    if (near->t == 0) {
        if (!(g_at(c, 0, G_EXACT) <= 0)) {
            return false;
        }
        r->hit = true;
        finish_hit(c, r);
        return true;
    }
    const ref_real lo = fmaxl(near->t - 1e-3L, 0), hi = fminl(near->t + 1e-3L, 1);
    if (!(g_at(c, lo, G_ROOT) > 0 && g_at(c, hi, G_ROOT) <= 0)) {
        return false;
    }
    r->hit = true;
    r->t = first_root(c, lo, hi);
    finish_hit(c, r);
    return true;
}

/* A copy of c with A moved by *shift, or, with shift NULL, perturbed from
 * seed i, solved into *pr (near r's contact where it can). */
static void perturbed_solve(const ref_case* c, const ref_result* r, ref_real amount, const ref_vec* shift, int i,
                            uint64_t seed, ref_result* pr)
{
    ref_case p = *c;
    if (shift) {
        p.a = ref_translated(&c->a, *shift);
    } else {
        ref_perturb(c, amount, seed + (uint64_t)i * 0x632be59bd9b4e019ull, &p);
    }
    if (!solve_near(&p, r, pr)) {
        ref_solve(&p, pr);
    }
}

ref_real ref_normal_spread(const ref_case* c, const ref_result* r, ref_real amount, int trials, uint64_t seed)
{
    if (!r->has_normal) {
        return 10;
    }
    ref_real worst = 0;
    /* Two fixed trials move A by +-amount along the normal: random jiggles
     * easily all land on one side of a sign tie (a core on a face, crossing
     * cores), where the opposite normal is as valid. */
    const ref_vec along[2] = {rv_scale(r->normal, amount), rv_scale(r->normal, -amount)};
    for (int i = -2; i < trials; ++i) {
        ref_result pr;
        perturbed_solve(c, r, amount, i < 0 ? &along[i + 2] : NULL, i, seed, &pr);
        const bool needs_hit = c->op != REF_OVERLAP && c->op != REF_DISTANCE;
        if ((needs_hit && !pr.hit && !pr.one_sided_reject) || !pr.has_normal) {
            return 10;
        }
        worst = fmaxl(worst, rv_angle(r->normal, pr.normal));
    }
    return worst;
}

bool ref_one_sided_flips(const ref_case* c, const ref_result* r, ref_real amount, int trials, uint64_t seed)
{
    if (!r->has_normal) {
        return true;
    }
    /* Four fixed trials move A across its path (an end that passes through
     * B's vertex passes beside it on some side), two along the normal. */
    ref_vec e1 = rv_cross(c->d, c->b.normal);
    if (!(rv_normalize(&e1) > 0)) {
        e1 = rv_cross(c->d, rv(1, 0, 0));
        if (!(rv_normalize(&e1) > 0)) {
            e1 = rv_cross(c->d, rv(0, 1, 0));
            rv_normalize(&e1);
        }
    }
    ref_vec e2 = rv_cross(c->d, e1);
    rv_normalize(&e2);
    const ref_vec shifts[6] = {rv_scale(e1, amount),  rv_scale(e1, -amount),       rv_scale(e2, amount),
                               rv_scale(e2, -amount), rv_scale(r->normal, amount), rv_scale(r->normal, -amount)};
    for (int i = -6; i < trials; ++i) {
        ref_result pr;
        perturbed_solve(c, r, amount, i < 0 ? &shifts[i + 6] : NULL, i, seed, &pr);
        if ((pr.hit || pr.one_sided_reject) && pr.one_sided_reject != r->one_sided_reject) {
            return true;
        }
    }
    return false;
}
