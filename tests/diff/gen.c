/* Case generators: one random shape generator per type, and recipes shared
 * by every pair of an operation (grazing just inside / outside the band,
 * sliding contacts, far offsets, tiny next to huge, long thin segments,
 * zero displacement, zero radius, degenerate segments, touching at t = 0,
 * deep overlap, exact head-on, ...). Every number is rounded to sw_real
 * when it is stored, so the library and the reference see the same
 * values. Recipes that aim at a boundary ask the reference where it is. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

typedef struct gen {
    swt_rng* r;
    const diff_pair* p;
    double size;      /* typical dimension of the shapes */
    double origin[3]; /* common offset of every position */
} gen;

static sw_real R(double x) { return (sw_real)x; }

static sw_vec3 V(const double v[3]) { return sw_v3(R(v[0]), R(v[1]), R(v[2])); }

static void vset(double out[3], double x, double y, double z)
{
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static void vmadd(double out[3], const double a[3], double s, const double b[3])
{
    for (int k = 0; k < 3; ++k) {
        out[k] = a[k] + s * b[k];
    }
}

static double vdot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void vof(double out[3], ref_vec v) { vset(out, (double)v.x, (double)v.y, (double)v.z); }

/* A random position within `extent` of the origin offset. */
static void gen_pos(gen* g, double extent, double out[3])
{
    for (int k = 0; k < 3; ++k) {
        out[k] = g->origin[k] + swt_rng_range(g->r, -extent, extent);
    }
}

static double gen_radius(gen* g)
{
    const double u = swt_rng_unit(g->r);
    if (u < 0.08) {
        return 0;
    }
    if (u < 0.16) {
        return g->size * swt_rng_log_range(g->r, 1e-3, 1e-1);
    }
    return g->size * swt_rng_range(g->r, 0.05, 1);
}

static sw_quat gen_rotation(gen* g)
{
    if (swt_rng_chance(g->r, 0.35)) {
        return sw_quat_identity();
    }
    /* Not normalised on purpose: the library normalises on use. */
    const double len = swt_rng_range(g->r, 0.25, 4);
    double q[4], n = 0;
    do {
        n = 0;
        for (int k = 0; k < 4; ++k) {
            q[k] = swt_rng_range(g->r, -1, 1);
            n += q[k] * q[k];
        }
    } while (n < 1e-2);
    n = sqrt(n);
    sw_quat out = {R(q[0] * len / n), R(q[1] * len / n), R(q[2] * len / n), R(q[3] * len / n)};
    return out;
}

/* A convex polygon of 3..8 vertices on an ellipse around c, in either
 * winding (store: its vertex array). */
static sw_shape gen_polygon(gen* g, const double c[3], sw_vec3* store)
{
    for (int attempt = 0; attempt < 8; ++attempt) {
        double n[3], u[3], v[3];
        swt_rng_dir(g->r, n);
        swt_rng_dir(g->r, u);
        vmadd(u, u, -vdot(u, n), n);
        const double ul = sqrt(vdot(u, u));
        if (!(ul > 1e-3)) {
            continue;
        }
        for (int k = 0; k < 3; ++k) {
            u[k] /= ul;
        }
        v[0] = n[1] * u[2] - n[2] * u[1];
        v[1] = n[2] * u[0] - n[0] * u[2];
        v[2] = n[0] * u[1] - n[1] * u[0];
        const int count = 3 + swt_rng_int(g->r, 6);
        const double ra = g->size * swt_rng_range(g->r, 0.3, 1.5), rb = ra * swt_rng_range(g->r, 0.3, 1);
        double angle[REF_MAX_VERTS];
        for (int i = 0; i < count; ++i) {
            angle[i] = swt_rng_range(g->r, 0, 6.283185307179586);
        }
        for (int i = 1; i < count; ++i) {
            for (int j = i; j > 0 && angle[j - 1] > angle[j]; --j) {
                const double tmp = angle[j];
                angle[j] = angle[j - 1];
                angle[j - 1] = tmp;
            }
        }
        const bool reverse = swt_rng_chance(g->r, 0.5);
        for (int i = 0; i < count; ++i) {
            const double a = angle[reverse ? count - 1 - i : i];
            double p[3];
            for (int k = 0; k < 3; ++k) {
                p[k] = c[k] + ra * cos(a) * u[k] + rb * sin(a) * v[k];
            }
            store[i] = V(p);
        }
        const sw_shape s = sw_make_polygon(store, count, swt_rng_chance(g->r, 0.3));
        bool trapped;
        /* A polygon whose validation traps is kept: the query traps too
         * and the case is reported. */
        if (diff_guarded_valid(&s, &trapped) || trapped) {
            return s;
        }
    }
    for (int i = 0; i < 3; ++i) {
        double p[3] = {c[0], c[1], c[2]};
        p[i] += g->size;
        store[i] = V(p);
    }
    return sw_make_polygon(store, 3, false);
}

static sw_shape gen_triangle(gen* g, const double c[3])
{
    double p[3][3];
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
            p[i][k] = c[k] + g->size * swt_rng_range(g->r, -1.2, 1.2);
        }
    }
    const double u = swt_rng_unit(g->r);
    if (u < 0.03) {
        /* Zero area: collinear. */
        const double s = swt_rng_range(g->r, -0.5, 1.5);
        for (int k = 0; k < 3; ++k) {
            p[2][k] = p[0][k] + s * (p[1][k] - p[0][k]);
        }
    } else if (u < 0.05) {
        memcpy(p[2], p[1], sizeof p[2]);
    }
    return sw_make_triangle(V(p[0]), V(p[1]), V(p[2]), swt_rng_chance(g->r, 0.3));
}

static sw_shape gen_plane(gen* g, const double c[3])
{
    double n[3];
    swt_rng_dir(g->r, n);
    const double len = swt_rng_range(g->r, 0.5, 3);
    for (int k = 0; k < 3; ++k) {
        n[k] *= len;
    }
    const sw_vec3 nr = V(n);
    return sw_make_plane(nr, R((double)nr.x * c[0] + (double)nr.y * c[1] + (double)nr.z * c[2]));
}

/* q (any length) applied to v, in double. */
static void rotate_d(sw_quat q, const double v[3], double out[3])
{
    double x = q.x, y = q.y, z = q.z, w = q.w;
    const double len = sqrt(x * x + y * y + z * z + w * w);
    x /= len, y /= len, z /= len, w /= len;
    /* v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z) */
    const double t[3] = {2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])};
    out[0] = v[0] + w * t[0] + (y * t[2] - z * t[1]);
    out[1] = v[1] + w * t[1] + (z * t[0] - x * t[2]);
    out[2] = v[2] + w * t[2] + (x * t[1] - y * t[0]);
}

/* A point cloud of 4..16 points around the origin for a hull, of one of
 * the families the hull pairs must survive; returns its count. */
static int hull_cloud(gen* g, double size, double pts[][3], const char** family)
{
    const int count = 4 + swt_rng_int(g->r, 13);
    const int pick = swt_rng_int(g->r, 100);
    double axes[3] = {size, size, size};
    if (pick < 30) {
        /* Box-like: corners of a box (some of them), the rest on its faces
         * or inside, now and then every point jittered by a hair (faces
         * that are nearly, not exactly, coplanar). */
        *family = "box";
        for (int k = 0; k < 3; ++k) {
            axes[k] = size * swt_rng_range(g->r, 0.1, 1.5);
        }
        const int first = swt_rng_int(g->r, 8);
        for (int i = 0; i < count; ++i) {
            if (i < 8) {
                const int corner = (first + i * 5) % 8;
                for (int k = 0; k < 3; ++k) {
                    pts[i][k] = (corner >> k & 1) ? axes[k] : -axes[k];
                }
            } else {
                for (int k = 0; k < 3; ++k) {
                    pts[i][k] = axes[k] * swt_rng_range(g->r, -1, 1);
                }
                if (swt_rng_chance(g->r, 0.6)) {
                    const int k = swt_rng_int(g->r, 3);
                    pts[i][k] = swt_rng_sign(g->r) * axes[k];
                }
            }
        }
        if (swt_rng_chance(g->r, 0.3)) {
            const double hair = size * swt_rng_log_range(g->r, 1e-9, 1e-3);
            for (int i = 0; i < count; ++i) {
                for (int k = 0; k < 3; ++k) {
                    pts[i][k] += hair * swt_rng_range(g->r, -1, 1);
                }
            }
        }
        return count;
    }
    if (pick < 50) {
        *family = "ball";
    } else if (pick < 65) {
        /* Long and thin, 1000:1: a needle or a slab. */
        *family = "thin";
        const int k = swt_rng_int(g->r, 3);
        if (swt_rng_chance(g->r, 0.5)) {
            axes[(k + 1) % 3] = axes[(k + 2) % 3] = size * 1e-3;
        } else {
            axes[k] = size * 1e-3;
        }
    } else if (pick < 80) {
        /* Nearly coplanar: a disc thicker than the flat limit by 10-1e4. */
        *family = "flat";
        axes[swt_rng_int(g->r, 3)] = size * (double)SW_TOLERANCE * swt_rng_log_range(g->r, 10, 1e4);
    } else {
        *family = "tetra";
        const int n = 4;
        for (int i = 0; i < n; ++i) {
            double u[3];
            swt_rng_dir(g->r, u);
            const double rho = size * swt_rng_range(g->r, 0.3, 1.2);
            vset(pts[i], u[0] * rho, u[1] * rho, u[2] * rho);
        }
        return n;
    }
    for (int i = 0; i < count; ++i) {
        double u[3];
        swt_rng_dir(g->r, u);
        /* On the surface of the ellipsoid, or inside it. */
        const double rho = swt_rng_chance(g->r, 0.7) ? 1 : cbrt(swt_rng_unit(g->r));
        for (int k = 0; k < 3; ++k) {
            pts[i][k] = u[k] * rho * axes[k];
        }
    }
    return count;
}

/* A hull centred near c (its placed centre), owned by the case's slot. */
static sw_shape gen_hull(gen* g, const double c[3], diff_case* dc, int slot)
{
    if (dc->hulls[slot]) {
        sw_hull_destroy(dc->hulls[slot]);
        dc->hulls[slot] = NULL;
    }
    double size = g->size;
    const double u = swt_rng_unit(g->r);
    if (u < 0.05) {
        size *= 1e-3; /* tiny next to the other shape */
    } else if (u < 0.08) {
        size *= 1e3; /* huge */
    }
    /* Now and then the hull's own points far from its frame's origin
     * (placed back near c by the position). */
    double local[3] = {0, 0, 0};
    if (swt_rng_chance(g->r, 0.15)) {
        double dir[3];
        swt_rng_dir(g->r, dir);
        const double far = fmin(swt_rng_log_range(g->r, 1e3, 1e4) * size, (double)SW_MAX_COORD / 100);
        vset(local, dir[0] * far, dir[1] * far, dir[2] * far);
    }
    /* A cloud may come out flat, or thinner than the reference can tell
     * from the rounding of its placement: then another. */
    const sw_quat q = gen_rotation(g);
    sw_shape out = sw_make_point(V(c));
    for (int attempt = 0; attempt < 9; ++attempt) {
        double pts[16][3];
        sw_vec3 in[16];
        const char* family;
        int n = hull_cloud(g, size, pts, &family);
        if (attempt == 8) {
            /* A plain tetrahedron. */
            n = 4;
            for (int i = 0; i < 4; ++i) {
                vset(pts[i], i == 1 ? size : 0, i == 2 ? size : 0, i == 3 ? size : 0);
            }
        }
        for (int i = 0; i < n; ++i) {
            for (int k = 0; k < 3; ++k) {
                pts[i][k] += local[k];
            }
            in[i] = V(pts[i]);
        }
        sw_hull* h = sw_hull_create(in, n, NULL);
        if (!h) {
            continue;
        }
        double centre[3] = {h->center.x, h->center.y, h->center.z}, placed[3];
        rotate_d(q, centre, placed);
        const double pos[3] = {c[0] - placed[0], c[1] - placed[1], c[2] - placed[2]};
        out = sw_make_hull(h, V(pos), q);
        ref_shape check;
        if (ref_from_shape(&out, &check)) {
            dc->hulls[slot] = h;
            return out;
        }
        sw_hull_destroy(h);
    }
    return sw_make_point(V(c)); /* unreachable unless sw_hull_create fails on a tetrahedron */
}

void diff_case_free(diff_case* c)
{
    for (int i = 0; i < 2; ++i) {
        sw_hull_destroy(c->hulls[i]);
        c->hulls[i] = NULL;
    }
    sw_mesh_destroy(c->mesh);
    free(c->mesh_v);
    free(c->mesh_tri);
    c->mesh = NULL;
    c->mesh_v = NULL;
    c->mesh_tri = NULL;
}

/* A shape of the given type centred near `c`, in the case's slot (0 for
 * a, 1 for b: polygon vertices and hulls are stored there). */
static sw_shape gen_shape(gen* g, sw_shape_type type, const double c[3], diff_case* dc, int slot)
{
    sw_vec3* store = dc->verts[slot];
    switch (type) {
    case SW_SHAPE_POINT:
        return sw_make_point(V(c));
    case SW_SHAPE_SPHERE:
        return sw_make_sphere(V(c), R(gen_radius(g)));
    case SW_SHAPE_SEGMENT:
    case SW_SHAPE_CAPSULE: {
        double u[3], a[3], b[3];
        swt_rng_dir(g->r, u);
        const double h = swt_rng_chance(g->r, 0.06) ? 0 : g->size * swt_rng_range(g->r, 0.05, 1.5);
        vmadd(a, c, -h, u);
        vmadd(b, c, h, u);
        if (type == SW_SHAPE_SEGMENT) {
            return sw_make_segment(V(a), V(b));
        }
        return sw_make_capsule(V(a), V(b), R(gen_radius(g)));
    }
    case SW_SHAPE_BOX: {
        double h[3];
        for (int k = 0; k < 3; ++k) {
            h[k] = g->size * swt_rng_range(g->r, 0.1, 1.5);
        }
        if (swt_rng_chance(g->r, 0.03)) {
            h[swt_rng_int(g->r, 3)] = 0;
        }
        return sw_make_box(V(c), V(h), gen_rotation(g));
    }
    case SW_SHAPE_PLANE:
        return gen_plane(g, c);
    case SW_SHAPE_TRIANGLE:
        return gen_triangle(g, c);
    case SW_SHAPE_POLYGON:
        return gen_polygon(g, c, store);
    case SW_SHAPE_HULL:
        return gen_hull(g, c, dc, slot);
    case SW_SHAPE_MESH: /* gen_mesh.c */
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    return sw_make_point(V(c));
}

sw_shape diff_random_shape(swt_rng* r, sw_shape_type type, const double c[3], double size, diff_case* dc, int slot)
{
    const diff_pair p = {0};
    gen g = {r, &p, size, {c[0], c[1], c[2]}};
    return gen_shape(&g, type, c, dc, slot);
}

/* Moves a shape by the long-double vector off (rounded per coordinate). */
static void translate_shape_ld(sw_shape* s, ref_vec off)
{
    /* Add in long double and round once, so small shifts of far shapes are
     * not lost to a double rounding of the offset itself. */
    sw_vec3* pts[REF_MAX_VERTS] = {NULL};
    switch (s->type) {
    case SW_SHAPE_POINT:
        pts[0] = &s->point;
        break;
    case SW_SHAPE_SPHERE:
        pts[0] = &s->sphere.center;
        break;
    case SW_SHAPE_SEGMENT:
        pts[0] = &s->segment.a;
        pts[1] = &s->segment.b;
        break;
    case SW_SHAPE_CAPSULE:
        pts[0] = &s->capsule.a;
        pts[1] = &s->capsule.b;
        break;
    case SW_SHAPE_BOX:
        pts[0] = &s->box.center;
        break;
    case SW_SHAPE_PLANE: {
        const ref_real o = (ref_real)s->plane.offset + rv_dot(rv_of(s->plane.normal), off);
        s->plane.offset = (sw_real)o;
        break;
    }
    case SW_SHAPE_TRIANGLE:
        for (int i = 0; i < 3; ++i) {
            pts[i] = &s->triangle.v[i];
        }
        break;
    case SW_SHAPE_POLYGON:
        /* The case owns the vertex array (diff_case.verts). */
        for (int i = 0; i < s->polygon.count && i < REF_MAX_VERTS; ++i) {
            pts[i] = (sw_vec3*)&s->polygon.v[i];
        }
        break;
    case SW_SHAPE_HULL:
        pts[0] = &s->hull.position;
        break;
    case SW_SHAPE_MESH:
        pts[0] = &s->mesh.position;
        break;
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    for (int i = 0; i < REF_MAX_VERTS; ++i) {
        if (pts[i]) {
            const ref_vec v = rv_add(rv_of(*pts[i]), off);
            *pts[i] = sw_v3((sw_real)v.x, (sw_real)v.y, (sw_real)v.z);
        }
    }
}

static void translate_shape(sw_shape* s, const double off[3]) { translate_shape_ld(s, rv(off[0], off[1], off[2])); }

void diff_translate_shape(sw_shape* s, ref_vec off) { translate_shape_ld(s, off); }

static void set_radius(sw_shape* s, double r)
{
    if (s->type == SW_SHAPE_SPHERE) {
        s->sphere.radius = R(r);
    } else if (s->type == SW_SHAPE_CAPSULE) {
        s->capsule.radius = R(r);
    }
}

/* A representative point of the shape's core (its centre, or a random
 * point along a segment). */
static void core_point(gen* g, const sw_shape* s, double out[3])
{
    ref_shape rs;
    ref_from_shape(s, &rs);
    switch (rs.kind) {
    case REF_BOX: {
        ref_vec p = rs.center;
        for (int k = 0; k < 3; ++k) {
            p = rv_madd(p, rs.half[k] * (ref_real)swt_rng_range(g->r, -1, 1), rs.axis[k]);
        }
        vof(out, p);
        return;
    }
    case REF_PLANE: {
        /* The point of the plane below the origin offset, moved within it. */
        const ref_vec o = rv(g->origin[0], g->origin[1], g->origin[2]);
        ref_vec p = rv_madd(o, rs.offset - rv_dot(rs.normal, o), rs.normal);
        double u[3];
        swt_rng_dir(g->r, u);
        ref_vec t = rv(u[0], u[1], u[2]);
        t = rv_madd(t, -rv_dot(t, rs.normal), rs.normal);
        vof(out, rv_madd(p, g->size, t));
        return;
    }
    case REF_POLY:
    case REF_POLYTOPE: {
        ref_real w[REF_MAX_VERTS], sum = 0;
        for (int i = 0; i < rs.n; ++i) {
            w[i] = (ref_real)swt_rng_unit(g->r);
            sum += w[i];
        }
        ref_vec p = rv(0, 0, 0);
        for (int i = 0; i < rs.n; ++i) {
            p = rv_madd(p, w[i] / sum, rs.v[i]);
        }
        vof(out, p);
        return;
    }
    case REF_HULL:
        break;
    }
    const ref_real u = rs.n > 1 ? (ref_real)swt_rng_unit(g->r) : 0;
    vof(out, rv_madd(rs.v[0], u, rv_sub(rs.v[rs.n > 1 ? 1 : 0], rs.v[0])));
}

static double case_band(const diff_case* c)
{
    ref_case rc;
    diff_to_ref(c, &rc);
    return (double)(ref_scale(&rc) * (ref_real)SW_TOLERANCE);
}

/* Targets relative to the band, for "just inside / just outside". */
static double band_target(gen* g, double band)
{
    static const double k[] = {0, 0.25, -0.25, 0.5, -0.5, 1.5, -1.5, 3, -3, 10, -10, 1e3};
    return band * k[swt_rng_int(g->r, (int)(sizeof k / sizeof k[0]))];
}

/* ---- sweeps and ray casts (A moving) ------------------------------------ */

static void gen_options(gen* g, diff_case* c)
{
    c->opt = (sw_sweep_options){0};
    c->opt_null = false;
    if (g->p->op != OP_SWEEP) {
        return;
    }
    const double u = swt_rng_unit(g->r);
    if (u < 0.55) {
        c->opt.skin = 0;
    } else if (u < 0.8) {
        c->opt.skin = R(g->size * swt_rng_range(g->r, 0, 0.5));
    } else if (u < 0.88) {
        c->opt.skin = R(g->size * 1e-4 * swt_rng_unit(g->r));
    } else {
        c->opt.skin = R(g->size * swt_rng_range(g->r, 0.5, 3));
    }
    c->opt.ignore_separating = swt_rng_chance(g->r, 0.3);
    c->opt_null = c->opt.skin == 0 && !c->opt.ignore_separating && swt_rng_chance(g->r, 0.5);
}

/* Scales d so that the reference's exit happens at t = 1 + eps. */
static void scale_to_exit(gen* g, diff_case* c)
{
    ref_case rc;
    ref_result rr;
    diff_to_ref(c, &rc);
    ref_solve(&rc, &rr);
    if (rr.hit && rr.t > 0) {
        static const double eps[] = {0, 0, 1e-7, -1e-7, 1e-5, -1e-5, 1e-3, -1e-3};
        const double s = (double)rr.t * (1 + eps[swt_rng_int(g->r, (int)(sizeof eps / sizeof eps[0]))]);
        c->d = sw_v3(R(c->d.x * s), R(c->d.y * s), R(c->d.z * s));
    }
}

/* Moves B along the closest-point direction at time t so that g(t)
 * becomes `target` (for convex shapes the closest pair is kept). */
static void shift_b_to(diff_case* c, ref_real t, double target)
{
    ref_case rc;
    diff_to_ref(c, &rc);
    const ref_shape at = ref_translated(&rc.a, rv_scale(rc.d, t));
    ref_witness w;
    const ref_real g = ref_sdist(&at, &rc.b, &w) - rc.skin;
    if (!w.has_normal) {
        return;
    }
    translate_shape_ld(&c->b, rv_scale(w.normal, g - (ref_real)target));
}

static void aim(gen* g, diff_case* c, double scale_lo, double scale_hi)
{
    double from[3], to[3], d[3];
    core_point(g, &c->a, from);
    core_point(g, &c->b, to);
    const double spread = g->size * swt_rng_range(g->r, 0, 1);
    for (int k = 0; k < 3; ++k) {
        to[k] += spread * swt_rng_range(g->r, -1, 1);
    }
    const double s = swt_rng_range(g->r, scale_lo, scale_hi);
    for (int k = 0; k < 3; ++k) {
        d[k] = (to[k] - from[k]) * s;
    }
    c->d = V(d);
}

static void random_pair(gen* g, diff_case* c, double extent)
{
    double pa[3], pb[3];
    gen_pos(g, extent, pa);
    gen_pos(g, extent, pb);
    c->a = gen_shape(g, g->p->a, pa, c, 0);
    c->b = gen_shape(g, g->p->b, pb, c, 1);
}

static void random_disp(gen* g, diff_case* c, double len)
{
    double u[3];
    swt_rng_dir(g->r, u);
    for (int k = 0; k < 3; ++k) {
        u[k] *= len;
    }
    c->d = V(u);
}

static void sweep_recipe(gen* g, diff_case* c)
{
    const int pick = swt_rng_int(g->r, 100);
    random_pair(g, c, 2 * g->size);
    gen_options(g, c);
    if (pick < 12) {
        c->recipe = "random";
        random_disp(g, c, g->size * swt_rng_range(g->r, 0, 6));
    } else if (pick < 30) {
        c->recipe = "aimed";
        aim(g, c, 0.3, 2.5);
    } else if (pick < 38) {
        /* Exactly head-on: the same two coordinates for both centres and a
         * displacement along the third axis. */
        c->recipe = "head_on";
        double pa[3], pb[3], d[3] = {0, 0, 0};
        const int axis = swt_rng_int(g->r, 3);
        gen_pos(g, 2 * g->size, pa);
        memcpy(pb, pa, sizeof pb);
        pb[axis] += swt_rng_sign(g->r) * g->size * swt_rng_range(g->r, 0.5, 4);
        d[axis] = (pb[axis] - pa[axis]) * swt_rng_range(g->r, 0.2, 2);
        c->a = gen_shape(g, g->p->a, pa, c, 0);
        c->b = gen_shape(g, g->p->b, pb, c, 1);
        c->d = V(d);
    } else if (pick < 56) {
        c->recipe = "graze";
        aim(g, c, 0.5, 2.5);
        ref_case rc;
        ref_result rr;
        diff_to_ref(c, &rc);
        ref_solve(&rc, &rr);
        shift_b_to(c, rr.tmin, band_target(g, case_band(c)));
    } else if (pick < 64) {
        c->recipe = "touch_t0";
        aim(g, c, 0.2, 2);
        shift_b_to(c, 0, band_target(g, case_band(c)) * (swt_rng_chance(g->r, 0.5) ? 1 : 0));
    } else if (pick < 74) {
        /* Sliding along the contact: start touching, move perpendicular to
         * the normal, with a small normal component around the 2e-3 rule. */
        c->recipe = "slide";
        aim(g, c, 0.2, 2);
        shift_b_to(c, 0, 0);
        ref_case rc;
        diff_to_ref(c, &rc);
        ref_witness w;
        ref_sdist(&rc.a, &rc.b, &w);
        const ref_vec n = w.normal;
        if (w.has_normal) {
            static const double tilt[] = {0, 0, 1e-4, -1e-4, 1e-3, -1e-3, 3e-3, -3e-3, 0.1, -0.1};
            double u[3], nd[3], d[3];
            vof(nd, n);
            swt_rng_dir(g->r, u);
            vmadd(u, u, -vdot(u, nd), nd);
            const double len = sqrt(vdot(u, u));
            const double scale = g->size * swt_rng_range(g->r, 0.1, 4);
            const double k = tilt[swt_rng_int(g->r, (int)(sizeof tilt / sizeof tilt[0]))];
            for (int i = 0; i < 3; ++i) {
                d[i] = len > 0 ? scale * (u[i] / len + k * nd[i]) : 0;
            }
            c->d = V(d);
        }
    } else if (pick < 78) {
        c->recipe = "deep";
        double p[3];
        core_point(g, &c->b, p);
        for (int k = 0; k < 3; ++k) {
            p[k] += g->size * 0.1 * swt_rng_range(g->r, -1, 1);
        }
        c->a = gen_shape(g, g->p->a, p, c, 0);
        random_disp(g, c, g->size * swt_rng_range(g->r, 0, 3));
    } else if (pick < 82) {
        c->recipe = "zero_disp";
        c->d = sw_v3(0, 0, 0);
        if (swt_rng_chance(g->r, 0.5)) {
            shift_b_to(c, 0, band_target(g, case_band(c)));
        }
    } else if (pick < 88) {
        c->recipe = "exit_t1";
        aim(g, c, 0.5, 2.5);
        scale_to_exit(g, c);
    } else if (pick < 94) {
        c->recipe = "tiny_huge";
        const bool a_tiny = swt_rng_chance(g->r, 0.5);
        set_radius(&c->a, a_tiny ? 1e-3 * g->size : 1e3 * g->size);
        set_radius(&c->b, a_tiny ? 1e3 * g->size : 1e-3 * g->size);
        double pa[3], pb[3], gap[3];
        core_point(g, &c->a, pa);
        core_point(g, &c->b, pb);
        swt_rng_dir(g->r, gap);
        const double far = 1e3 * g->size * swt_rng_range(g->r, 1, 1.2);
        for (int k = 0; k < 3; ++k) {
            gap[k] = pb[k] + gap[k] * far - pa[k];
        }
        translate_shape(&c->a, gap);
        aim(g, c, 0.5, 2);
        if (swt_rng_chance(g->r, 0.5)) {
            ref_case rc;
            ref_result rr;
            diff_to_ref(c, &rc);
            ref_solve(&rc, &rr);
            shift_b_to(c, rr.tmin, band_target(g, case_band(c)));
        }
    } else {
        c->recipe = "zero_radius";
        set_radius(&c->a, 0);
        set_radius(&c->b, 0);
        c->opt.skin = swt_rng_chance(g->r, 0.5) ? 0 : c->opt.skin;
        c->opt_null = c->opt_null && c->opt.skin == 0;
        if (swt_rng_chance(g->r, 0.5)) {
            /* Aim exactly at B's centre: a point-on-point contact. */
            double from[3], to[3], d[3];
            core_point(g, &c->a, from);
            core_point(g, &c->b, to);
            const double s = swt_rng_range(g->r, 0.5, 2);
            for (int k = 0; k < 3; ++k) {
                d[k] = (to[k] - from[k]) * s;
            }
            c->d = V(d);
        } else {
            aim(g, c, 0.5, 2);
        }
    }
}

/* ---- polytope sweeps (a box or hull against a box, hull, polygon or plane) */

static bool is_solid_type(sw_shape_type t)
{
    return t == SW_SHAPE_BOX || t == SW_SHAPE_HULL || t == SW_SHAPE_TRIANGLE || t == SW_SHAPE_POLYGON ||
           t == SW_SHAPE_PLANE;
}

static int solid_feature_count(const ref_shape* s, sw_feature_kind kind)
{
    switch (s->kind) {
    case REF_BOX:
        return kind == SW_FEATURE_VERTEX ? 8 : (kind == SW_FEATURE_EDGE ? 12 : 6);
    case REF_POLYTOPE:
        return kind == SW_FEATURE_VERTEX ? s->n : (kind == SW_FEATURE_EDGE ? s->ne : s->nlf);
    case REF_POLY:
        return kind == SW_FEATURE_FACE ? 1 : s->n;
    case REF_PLANE:
    case REF_HULL:
        break;
    }
    return 0;
}

static ref_vec shape_centroid(const ref_shape* s)
{
    if (s->kind == REF_BOX) {
        return s->center;
    }
    ref_vec c = rv(0, 0, 0);
    for (int i = 0; i < s->n; ++i) {
        c = rv_add(c, s->v[i]);
    }
    return s->n > 0 ? rv_scale(c, 1.0L / s->n) : c;
}

/* A random face of s: a point on it (its centroid, moved toward a vertex)
 * and its outward unit normal (a flat shape: either side; a plane: its
 * normal at the point below the origin offset). False if s has none. */
static bool random_face(gen* g, const ref_shape* s, ref_vec* point, ref_vec* normal)
{
    if (s->kind == REF_PLANE) {
        const ref_vec o = rv(g->origin[0], g->origin[1], g->origin[2]);
        *point = rv_madd(o, s->offset - rv_dot(s->normal, o), s->normal);
        *normal = s->normal;
        return true;
    }
    const int nf = solid_feature_count(s, SW_FEATURE_FACE);
    ref_shape f;
    if (nf == 0 || !ref_feature_shape(s, SW_FEATURE_FACE, swt_rng_int(g->r, nf), &f) || f.kind != REF_POLY) {
        return false;
    }
    ref_vec n = f.normal;
    if (!(rv_normalize(&n) > 0)) {
        return false;
    }
    ref_vec c = shape_centroid(&f);
    const ref_real w = (ref_real)swt_rng_range(g->r, 0, 0.9);
    c = rv_add(rv_scale(c, 1 - w), rv_scale(f.v[swt_rng_int(g->r, f.n)], w));
    if (s->kind == REF_POLY) {
        n = swt_rng_chance(g->r, 0.5) ? n : rv_scale(n, -1);
    } else if (rv_dot(n, rv_sub(c, shape_centroid(s))) < 0) {
        n = rv_scale(n, -1);
    }
    *point = c;
    *normal = n;
    return true;
}

/* Direction of a random edge of s; false if it has none. */
static bool random_edge(gen* g, const ref_shape* s, ref_vec* dir)
{
    const int ne = solid_feature_count(s, SW_FEATURE_EDGE);
    ref_shape e;
    if (ne == 0 || !ref_feature_shape(s, SW_FEATURE_EDGE, swt_rng_int(g->r, ne), &e)) {
        return false;
    }
    *dir = rv_sub(e.v[1], e.v[0]);
    return rv_normalize(dir) > 0;
}

/* A unit vector perpendicular to n, random around it. */
static ref_vec random_tangent(gen* g, ref_vec n)
{
    double u[3];
    swt_rng_dir(g->r, u);
    ref_vec t = rv(u[0], u[1], u[2]);
    t = rv_madd(t, -rv_dot(t, n), n);
    if (!(rv_normalize(&t) > 0)) {
        t = rv_cross(n, fabsl(n.x) < 0.5L ? rv(1, 0, 0) : rv(0, 1, 0));
        rv_normalize(&t);
    }
    return t;
}

static void set_disp(diff_case* c, ref_vec d) { c->d = sw_v3((sw_real)d.x, (sw_real)d.y, (sw_real)d.z); }

/* Moves A (as a whole) so that its centroid is at p. */
static void place_a(diff_case* c, ref_vec p)
{
    ref_shape ra;
    ref_from_shape(&c->a, &ra);
    translate_shape_ld(&c->a, rv_sub(p, shape_centroid(&ra)));
}

/* Grazes the closest approach of the sweep: B moved so that min g is a
 * band target (just inside or outside the band). */
static void graze_min(gen* g, diff_case* c)
{
    ref_case rc;
    ref_result rr;
    diff_to_ref(c, &rc);
    ref_solve(&rc, &rr);
    shift_b_to(c, rr.tmin, band_target(g, case_band(c)));
}

/* Small components along n around the 2e-3 rule of DESIGN §2. */
static double random_tilt(gen* g)
{
    static const double tilt[] = {0, 0, 1e-4, -1e-4, 1e-3, -1e-3, 3e-3, -3e-3, 0.1, -0.1};
    return tilt[swt_rng_int(g->r, (int)(sizeof tilt / sizeof tilt[0]))];
}

static void solid_sweep_recipe(gen* g, diff_case* c)
{
    const int pick = swt_rng_int(g->r, 100);
    random_pair(g, c, 2 * g->size);
    gen_options(g, c);
    ref_shape rb;
    ref_from_shape(&c->b, &rb);
    ref_vec fp, fn;
    const double len = g->size * swt_rng_range(g->r, 0.3, 4);
    if (pick < 8) {
        c->recipe = "random";
        random_disp(g, c, g->size * swt_rng_range(g->r, 0, 6));
    } else if (pick < 18) {
        c->recipe = "aimed";
        aim(g, c, 0.3, 2.5);
    } else if (pick < 30) {
        c->recipe = "graze";
        aim(g, c, 0.5, 2.5);
        graze_min(g, c);
    } else if (pick < 38) {
        c->recipe = "touch_t0";
        aim(g, c, 0.2, 2);
        shift_b_to(c, 0, band_target(g, case_band(c)) * (swt_rng_chance(g->r, 0.5) ? 1 : 0));
    } else if (pick < 43) {
        c->recipe = "deep";
        double p[3];
        core_point(g, &c->b, p);
        place_a(c, rv(p[0], p[1], p[2]));
        random_disp(g, c, g->size * swt_rng_range(g->r, 0, 3));
    } else if (pick < 47) {
        c->recipe = "exit_t1";
        aim(g, c, 0.5, 2.5);
        scale_to_exit(g, c);
    } else if (pick < 50) {
        c->recipe = "zero_disp";
        c->d = sw_v3(0, 0, 0);
        if (swt_rng_chance(g->r, 0.5)) {
            shift_b_to(c, 0, band_target(g, case_band(c)));
        }
    } else if (pick < 56) {
        /* One shape 1e3 times smaller than the other, a gap of the big one's
         * size away. */
        c->recipe = "tiny_huge";
        const bool a_tiny = swt_rng_chance(g->r, 0.5);
        const double keep = g->size;
        double pa[3], pb[3];
        gen_pos(g, g->size, pa);
        g->size = keep * (a_tiny ? 1e-3 : 1e3);
        c->a = gen_shape(g, g->p->a, pa, c, 0);
        g->size = keep * (a_tiny ? 1e3 : 1e-3);
        gen_pos(g, g->size * 3, pb);
        c->b = gen_shape(g, g->p->b, pb, c, 1);
        g->size = keep * 1e3;
        aim(g, c, 0.5, 2);
        g->size = keep;
        if (swt_rng_chance(g->r, 0.5)) {
            graze_min(g, c);
        }
    } else if (pick < 68 && random_face(g, &rb, &fp, &fn)) {
        /* Resting on one of B's faces (or hovering within the band) and
         * moving along it, with a small component along its normal;
         * a box on a box now and then with the same rotation (face on face,
         * edges parallel). */
        c->recipe = "slide_face";
        if (c->a.type == SW_SHAPE_BOX && c->b.type == SW_SHAPE_BOX && swt_rng_chance(g->r, 0.5)) {
            c->recipe = "box_on_box";
            c->a.box.rotation = c->b.box.rotation;
        }
        place_a(c, rv_madd(fp, 3 * g->size, fn));
        ref_case rc;
        diff_to_ref(c, &rc);
        ref_witness w;
        const ref_real gap = ref_sdist(&rc.a, &rc.b, &w);
        translate_shape_ld(&c->a, rv_scale(fn, -gap + (ref_real)band_target(g, case_band(c))));
        ref_vec d = random_tangent(g, fn);
        if (swt_rng_chance(g->r, 0.3)) {
            ref_vec e;
            /* Along one of B's edges. */
            if (random_edge(g, &rb, &e)) {
                d = rv_madd(e, -rv_dot(e, fn), fn);
                rv_normalize(&d);
            }
        }
        set_disp(c, rv_scale(rv_madd(d, (ref_real)random_tilt(g), fn), (ref_real)len));
    } else if (pick < 80 && random_face(g, &rb, &fp, &fn)) {
        /* Dropped onto a face of B: a vertex of A first (A rotated at
         * random), or a face (identity rotations); grazing its rim now and
         * then. */
        c->recipe = "onto_face";
        place_a(c, rv_madd(fp, 3 * g->size, fn));
        ref_vec d = rv_madd(rv_scale(fn, -1), 0.3L * (ref_real)swt_rng_range(g->r, -1, 1), random_tangent(g, fn));
        rv_normalize(&d);
        set_disp(c, rv_scale(d, (ref_real)(g->size * swt_rng_range(g->r, 3, 6))));
        if (swt_rng_chance(g->r, 0.3)) {
            graze_min(g, c);
        }
    } else {
        /* Edge on edge: A moves along the cross product of an edge of A and
         * one of B, toward B, and grazes it (often edge against edge). */
        ref_shape ra;
        ref_from_shape(&c->a, &ra);
        ref_vec ea, eb;
        c->recipe = "edge_edge";
        if (!random_edge(g, &ra, &ea) || !random_edge(g, &rb, &eb)) {
            aim(g, c, 0.5, 2.5);
            return;
        }
        ref_vec n = rv_cross(ea, eb);
        if (!(rv_normalize(&n) > 1e-3L)) {
            n = random_tangent(g, ea);
        }
        const ref_vec cb = rb.kind == REF_PLANE ? rv(g->origin[0], g->origin[1], g->origin[2]) : shape_centroid(&rb);
        if (rb.kind == REF_PLANE ? rv_dot(n, rb.normal) < 0 : swt_rng_chance(g->r, 0.5)) {
            n = rv_scale(n, -1);
        }
        place_a(c, rv_madd(cb, 4 * g->size, n));
        set_disp(c, rv_scale(n, -(ref_real)(g->size * swt_rng_range(g->r, 4, 8))));
        graze_min(g, c);
    }
}

/* Turns a point sweep into a ray cast: origin = the point, max * dir = d. */
static void finalize_ray(gen* g, diff_case* c)
{
    c->ray.origin = c->a.point;
    const double u = swt_rng_unit(g->r);
    double max = 1;
    if (u < 0.05) {
        max = 0;
    } else if (u < 0.5) {
        max = swt_rng_log_range(g->r, 0.01, 100);
    }
    c->ray.max = R(max);
    if (c->ray.max > 0) {
        c->ray.dir = sw_v3(R(c->d.x / c->ray.max), R(c->d.y / c->ray.max), R(c->d.z / c->ray.max));
    } else {
        c->ray.dir = c->d;
    }
    c->opt = (sw_sweep_options){0};
}

/* ---- containment (A moving inside B) ----------------------------------- */

/* World position of local box coordinates (or sphere-relative offset). */
static void container_point(const sw_shape* b, const double local[3], double out[3])
{
    ref_shape rb;
    ref_from_shape(b, &rb);
    if (rb.kind == REF_BOX) {
        ref_vec p = rb.center;
        for (int k = 0; k < 3; ++k) {
            p = rv_madd(p, local[k], rb.axis[k]);
        }
        vof(out, p);
    } else {
        vof(out, rv_add(rb.v[0], rv(local[0], local[1], local[2])));
    }
}

static double container_room(const sw_shape* b)
{
    if (b->type == SW_SHAPE_SPHERE) {
        return b->sphere.radius;
    }
    return fmin(b->box.half.x, fmin(b->box.half.y, b->box.half.z));
}

static double container_half(const sw_shape* b, int k)
{
    if (b->type == SW_SHAPE_SPHERE) {
        return b->sphere.radius;
    }
    return k == 0 ? b->box.half.x : (k == 1 ? b->box.half.y : b->box.half.z);
}

static sw_shape round_shape(const diff_pair* p, const double c[3], double r)
{
    return p->a == SW_SHAPE_POINT ? sw_make_point(V(c)) : sw_make_sphere(V(c), R(r));
}

/* A random local position inside the room left for A's centre. */
static void inside_local(gen* g, const sw_shape* b, double ra, double frac, double local[3])
{
    if (b->type == SW_SHAPE_SPHERE) {
        double u[3];
        swt_rng_dir(g->r, u);
        const double rho = (b->sphere.radius - ra) * frac * cbrt(swt_rng_unit(g->r));
        vset(local, u[0] * rho, u[1] * rho, u[2] * rho);
        return;
    }
    for (int k = 0; k < 3; ++k) {
        local[k] = (container_half(b, k) - ra) * frac * swt_rng_range(g->r, -1, 1);
    }
}

static void inside_recipe(gen* g, diff_case* c)
{
    double bc[3];
    gen_pos(g, g->size, bc);
    c->b = gen_shape(g, g->p->b, bc, c, 1);
    if (c->b.type == SW_SHAPE_SPHERE) {
        c->b.sphere.radius = R(g->size * swt_rng_range(g->r, 0.5, 2));
    }
    const double room = container_room(&c->b);
    double ra = g->p->a == SW_SHAPE_POINT || swt_rng_chance(g->r, 0.1) ? 0 : room * swt_rng_range(g->r, 0, 0.9);
    double local[3], p[3];
    inside_local(g, &c->b, ra, 0.95, local);
    container_point(&c->b, local, p);
    c->a = round_shape(g->p, p, ra);
    random_disp(g, c, g->size * swt_rng_range(g->r, 0, 4));

    const int pick = swt_rng_int(g->r, 100);
    if (pick < 20) {
        c->recipe = "inside_random";
    } else if (pick < 38) {
        c->recipe = "exit_t1";
        scale_to_exit(g, c);
    } else if (pick < 52) {
        /* Shallow exit: start just inside the room and move nearly parallel
         * to the boundary there. */
        c->recipe = "graze_exit";
        const double delta = swt_rng_log_range(g->r, 1e-7, 1e-1);
        double d[3];
        if (c->b.type == SW_SHAPE_SPHERE) {
            double u[3], v[3];
            swt_rng_dir(g->r, u);
            swt_rng_dir(g->r, v);
            vmadd(v, v, -vdot(u, v), u);
            const double rho = (c->b.sphere.radius - ra) * (1 - delta);
            vset(local, u[0] * rho, u[1] * rho, u[2] * rho);
            const double len = sqrt(vdot(v, v)) > 0 ? g->size * swt_rng_range(g->r, 0.1, 3) / sqrt(vdot(v, v)) : 0;
            vset(d, v[0] * len, v[1] * len, v[2] * len);
        } else {
            const int k = swt_rng_int(g->r, 3);
            const double side = swt_rng_sign(g->r);
            inside_local(g, &c->b, ra, 0.9, local);
            local[k] = side * (container_half(&c->b, k) - ra) * (1 - delta);
            double dl[3];
            for (int i = 0; i < 3; ++i) {
                dl[i] = g->size * swt_rng_range(g->r, -2, 2);
            }
            dl[k] = side * g->size * swt_rng_log_range(g->r, 1e-6, 1e-1);
            double o[3] = {0, 0, 0}, w[3];
            /* Rotate the local displacement with the box axes. */
            container_point(&c->b, dl, w);
            container_point(&c->b, o, o);
            for (int i = 0; i < 3; ++i) {
                d[i] = w[i] - o[i];
            }
        }
        container_point(&c->b, local, p);
        c->a = round_shape(g->p, p, ra);
        c->d = V(d);
    } else if (pick < 62) {
        /* Touching the boundary from inside at t = 0, within the band. */
        c->recipe = "start_touch";
        const double target = band_target(g, case_band(c));
        if (c->b.type == SW_SHAPE_SPHERE) {
            double u[3];
            swt_rng_dir(g->r, u);
            const double rho = c->b.sphere.radius - ra - target;
            vset(local, u[0] * rho, u[1] * rho, u[2] * rho);
        } else {
            const int k = swt_rng_int(g->r, 3);
            inside_local(g, &c->b, ra, 0.9, local);
            local[k] = swt_rng_sign(g->r) * (container_half(&c->b, k) - ra - target);
        }
        container_point(&c->b, local, p);
        c->a = round_shape(g->p, p, ra);
    } else if (pick < 68) {
        c->recipe = "too_big";
        ra = g->p->a == SW_SHAPE_POINT ? 0 : room * swt_rng_range(g->r, 1, 1.5);
        vset(local, 0, 0, 0);
        container_point(&c->b, local, p);
        c->a = round_shape(g->p, p, ra);
    } else if (pick < 74) {
        c->recipe = "outside";
        double u[3];
        swt_rng_dir(g->r, u);
        const double far = 3 * fmax(container_half(&c->b, 0), fmax(container_half(&c->b, 1), container_half(&c->b, 2)));
        vset(local, u[0] * far, u[1] * far, u[2] * far);
        container_point(&c->b, local, p);
        c->a = round_shape(g->p, p, ra);
    } else if (pick < 82) {
        /* Toward a corner of the room: several faces reached at once. */
        c->recipe = "corner";
        double dl[3], w[3], d[3];
        for (int k = 0; k < 3; ++k) {
            dl[k] = swt_rng_sign(g->r) * (container_half(&c->b, k) - ra) * swt_rng_range(g->r, 1, 1.5);
        }
        vset(local, 0, 0, 0);
        container_point(&c->b, local, p);
        c->a = round_shape(g->p, p, ra);
        container_point(&c->b, dl, w);
        for (int k = 0; k < 3; ++k) {
            d[k] = w[k] - p[k];
        }
        c->d = V(d);
    } else if (pick < 88) {
        c->recipe = "zero_disp";
        c->d = sw_v3(0, 0, 0);
    } else {
        c->recipe = "tiny_huge";
        if (swt_rng_chance(g->r, 0.5) || g->p->a == SW_SHAPE_POINT) {
            ra = g->p->a == SW_SHAPE_POINT ? 0 : room * 1e-6;
        } else {
            ra = room * (1 - swt_rng_log_range(g->r, 1e-7, 1e-3));
        }
        inside_local(g, &c->b, ra, 0.5, local);
        container_point(&c->b, local, p);
        c->a = round_shape(g->p, p, ra);
        random_disp(g, c, g->size * swt_rng_range(g->r, 0, 4));
        if (swt_rng_chance(g->r, 0.5)) {
            scale_to_exit(g, c);
        }
    }
}

/* ---- overlap and distance (both static) --------------------------------- */

static bool has_segment_core(sw_shape_type t) { return t == SW_SHAPE_SEGMENT || t == SW_SHAPE_CAPSULE; }

/* Segment-cored shape from a to b (radius kept for capsules). */
static void set_core(sw_shape* s, const double a[3], const double b[3], double radius)
{
    if (s->type == SW_SHAPE_SEGMENT) {
        *s = sw_make_segment(V(a), V(b));
    } else if (s->type == SW_SHAPE_CAPSULE) {
        *s = sw_make_capsule(V(a), V(b), R(radius));
    } else if (s->type == SW_SHAPE_POINT || s->type == SW_SHAPE_SPHERE) {
        /* A round shape takes the core's midpoint. */
        const double m[3] = {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
        *s = s->type == SW_SHAPE_SPHERE ? sw_make_sphere(V(m), R(radius)) : sw_make_point(V(m));
    }
}

static void static_recipe(gen* g, diff_case* c)
{
    random_pair(g, c, 2 * g->size);
    c->d = sw_v3(0, 0, 0);
    const int pick = swt_rng_int(g->r, 100);
    if (pick < 18) {
        c->recipe = "random";
    } else if (pick < 40) {
        c->recipe = "touching";
        shift_b_to(c, 0, band_target(g, case_band(c)));
    } else if (pick < 48) {
        c->recipe = "deep";
        double p[3], q[3], off[3];
        core_point(g, &c->a, p);
        core_point(g, &c->b, q);
        for (int k = 0; k < 3; ++k) {
            off[k] = p[k] - q[k] + g->size * 0.05 * swt_rng_range(g->r, -1, 1);
        }
        translate_shape(&c->b, off);
    } else if (pick < 56) {
        /* B's core passes exactly through a point of A's core. */
        c->recipe = "crossing";
        double p[3], u[3], a[3], b[3];
        core_point(g, &c->a, p);
        swt_rng_dir(g->r, u);
        const double s0 = g->size * swt_rng_range(g->r, 0, 1.5), s1 = g->size * swt_rng_range(g->r, 0, 1.5);
        vmadd(a, p, -s0, u);
        vmadd(b, p, s1, u);
        set_core(&c->b, a, b, gen_radius(g));
        if (swt_rng_chance(g->r, 0.5)) {
            shift_b_to(c, 0, band_target(g, case_band(c)));
        }
    } else if (pick < 70) {
        /* Long, nearly parallel segments (the hard case of segment-segment
         * closest points), often long and thin. */
        c->recipe = "parallel";
        double u[3], v[3], w[3], pa[3], a0[3], a1[3], b0[3], b1[3];
        swt_rng_dir(g->r, u);
        swt_rng_dir(g->r, w);
        vmadd(w, w, -vdot(w, u), u);
        const double wl = sqrt(vdot(w, w));
        const double theta = swt_rng_log_range(g->r, 1e-9, 1e-2);
        for (int k = 0; k < 3; ++k) {
            w[k] = wl > 0 ? w[k] / wl : 0;
            v[k] = u[k] * cos(theta) + w[k] * sin(theta);
        }
        const bool thin = swt_rng_chance(g->r, 0.5);
        const double la = g->size * (thin ? 1e3 : swt_rng_range(g->r, 0.5, 3));
        const double lb = g->size * (thin ? 1e3 : swt_rng_range(g->r, 0.5, 3)) * swt_rng_range(g->r, 0.2, 1);
        const double ra = thin ? 1e-3 * g->size : gen_radius(g), rb = thin ? 1e-3 * g->size : gen_radius(g);
        gen_pos(g, g->size, pa);
        double n[3];
        swt_rng_dir(g->r, n);
        vmadd(n, n, -vdot(n, v), v);
        const double gap = g->size * (swt_rng_chance(g->r, 0.3) ? 0 : swt_rng_log_range(g->r, 1e-6, 1));
        vmadd(a0, pa, -la / 2, u);
        vmadd(a1, pa, la / 2, u);
        const double along = la * swt_rng_range(g->r, -0.7, 0.7);
        vmadd(b0, pa, along, u);
        vmadd(b0, b0, gap / fmax(sqrt(vdot(n, n)), 1e-300), n);
        vmadd(b1, b0, lb, v);
        set_core(&c->a, a0, a1, ra);
        set_core(&c->b, b0, b1, rb);
        if (swt_rng_chance(g->r, 0.4)) {
            shift_b_to(c, 0, band_target(g, case_band(c)));
        }
    } else if (pick < 76) {
        c->recipe = "coincident";
        double p[3], q[3], off[3];
        core_point(g, &c->a, p);
        core_point(g, &c->b, q);
        for (int k = 0; k < 3; ++k) {
            off[k] = p[k] - q[k];
        }
        if (has_segment_core(c->a.type) && has_segment_core(c->b.type) && swt_rng_chance(g->r, 0.5)) {
            const bool flip = swt_rng_chance(g->r, 0.5);
            const sw_vec3 a = flip ? c->a.segment.b : c->a.segment.a, b = flip ? c->a.segment.a : c->a.segment.b;
            c->b.segment.a = a;
            c->b.segment.b = b;
        } else {
            translate_shape(&c->b, off);
        }
    } else if (pick < 82) {
        c->recipe = "collinear";
        double u[3], p[3], a0[3], a1[3], b0[3], b1[3];
        swt_rng_dir(g->r, u);
        gen_pos(g, g->size, p);
        const double s[4] = {0, g->size * swt_rng_range(g->r, 0.1, 2), g->size * swt_rng_range(g->r, -1, 3),
                             g->size * swt_rng_range(g->r, -1, 3)};
        vmadd(a0, p, s[0], u);
        vmadd(a1, p, s[1], u);
        vmadd(b0, p, s[2], u);
        vmadd(b1, p, s[3], u);
        set_core(&c->a, a0, a1, gen_radius(g));
        set_core(&c->b, b0, b1, gen_radius(g));
    } else if (pick < 88) {
        c->recipe = "degenerate";
        double p[3], q[3];
        core_point(g, &c->a, p);
        core_point(g, &c->b, q);
        set_core(&c->a, p, p, gen_radius(g));
        if (swt_rng_chance(g->r, 0.5)) {
            set_core(&c->b, q, q, gen_radius(g));
        }
        if (swt_rng_chance(g->r, 0.5)) {
            shift_b_to(c, 0, band_target(g, case_band(c)));
        }
    } else if (pick < 94) {
        c->recipe = "tiny_huge";
        const bool a_tiny = swt_rng_chance(g->r, 0.5);
        set_radius(&c->a, a_tiny ? 1e-3 * g->size : 1e3 * g->size);
        set_radius(&c->b, a_tiny ? 1e3 * g->size : 1e-3 * g->size);
        shift_b_to(c, 0, band_target(g, case_band(c)));
    } else {
        c->recipe = "zero_radius";
        set_radius(&c->a, 0);
        set_radius(&c->b, 0);
        if (swt_rng_chance(g->r, 0.5)) {
            shift_b_to(c, 0, band_target(g, case_band(c)));
        }
    }
}

/* Overlap and distance of two shapes without a segment core (a box or
 * hull against a box, hull, polygon or plane). */
static void solid_static_recipe(gen* g, diff_case* c)
{
    random_pair(g, c, 2 * g->size);
    c->d = sw_v3(0, 0, 0);
    ref_shape rb;
    ref_from_shape(&c->b, &rb);
    ref_vec fp, fn;
    const bool movable = c->a.type != SW_SHAPE_PLANE;
    const int pick = swt_rng_int(g->r, 100);
    if (pick < 12) {
        c->recipe = "random";
    } else if (pick < 32) {
        c->recipe = "touching";
        shift_b_to(c, 0, band_target(g, case_band(c)));
    } else if (pick < 42) {
        c->recipe = "deep";
        if (movable) {
            double p[3];
            core_point(g, &c->b, p);
            place_a(c, rv(p[0], p[1], p[2]));
        } else {
            shift_b_to(c, 0, -g->size * swt_rng_range(g->r, 0.01, 1));
        }
    } else if (pick < 48 && movable && rb.kind != REF_PLANE) {
        c->recipe = "coincident";
        place_a(c, shape_centroid(&rb));
    } else if (pick < 62 && movable && random_face(g, &rb, &fp, &fn)) {
        /* Resting on a face of B (a box on a box: often with the same
         * rotation, face on face), within the band. */
        c->recipe = "on_face";
        if (c->a.type == SW_SHAPE_BOX && c->b.type == SW_SHAPE_BOX && swt_rng_chance(g->r, 0.5)) {
            c->recipe = "box_on_box";
            c->a.box.rotation = c->b.box.rotation;
        }
        place_a(c, rv_madd(fp, 3 * g->size, fn));
        ref_case rc;
        diff_to_ref(c, &rc);
        ref_witness w;
        const ref_real gap = ref_sdist(&rc.a, &rc.b, &w);
        translate_shape_ld(&c->a, rv_scale(fn, -gap + (ref_real)band_target(g, case_band(c))));
    } else if (pick < 84 && movable) {
        /* Across an edge-edge direction (often edge against edge), or over
         * a face (a vertex of a rotated A on it), then to a band target. */
        ref_shape ra;
        ref_from_shape(&c->a, &ra);
        ref_vec ea, eb, n = rv(0, 0, 1);
        const ref_vec cb = rb.kind == REF_PLANE ? rv(g->origin[0], g->origin[1], g->origin[2]) : shape_centroid(&rb);
        bool across = pick < 72 && random_edge(g, &ra, &ea) && random_edge(g, &rb, &eb);
        if (across) {
            n = rv_cross(ea, eb);
            across = rv_normalize(&n) > 1e-3L; /* not nearly parallel edges */
        }
        if (across) {
            c->recipe = "edge_edge";
            if (rb.kind == REF_PLANE ? rv_dot(n, rb.normal) < 0 : swt_rng_chance(g->r, 0.5)) {
                n = rv_scale(n, -1);
            }
            place_a(c, rv_madd(cb, 4 * g->size, n));
        } else if (random_face(g, &rb, &fp, &fn)) {
            c->recipe = "vertex_face";
            place_a(c, rv_madd(fp, 4 * g->size, fn));
        } else {
            c->recipe = "random";
        }
        shift_b_to(c, 0, band_target(g, case_band(c)));
    } else if (pick < 92) {
        /* One shape 1e3 times smaller than the other, touching it. */
        c->recipe = "tiny_huge";
        const bool a_tiny = swt_rng_chance(g->r, 0.5);
        const double keep = g->size;
        double pa[3], pb[3];
        gen_pos(g, keep, pa);
        gen_pos(g, keep, pb);
        g->size = keep * (a_tiny ? 1e-3 : 1e3);
        c->a = gen_shape(g, g->p->a, pa, c, 0);
        g->size = keep * (a_tiny ? 1e3 : 1e-3);
        c->b = gen_shape(g, g->p->b, pb, c, 1);
        g->size = keep;
        shift_b_to(c, 0, band_target(g, case_band(c)));
    } else {
        c->recipe = "apart";
        shift_b_to(c, 0, g->size * swt_rng_log_range(g->r, 1e-4, 3));
    }
}

static void generate_once(const diff_pair* p, uint64_t seed, diff_case* c)
{
    swt_rng r;
    swt_rng_seed(&r, seed);
    gen g = {&r, p, 1, {0, 0, 0}};
    memset(c, 0, sizeof *c);
    c->op = p->op;
    /* Size class, and now and then a far offset or an extreme scale. */
    const double u = swt_rng_unit(&r);
    c->scale_tag = "unit";
#ifdef SWEEP_DOUBLE
    const double huge_hi = 1e140, minute_lo = 1e-60;
#else
    const double huge_hi = 1e13, minute_lo = 1e-8;
#endif
    if (u < 0.04) {
        g.size = swt_rng_log_range(&r, 1e6, huge_hi);
        c->scale_tag = "huge";
    } else if (u < 0.07) {
        g.size = swt_rng_log_range(&r, minute_lo, 1e-3);
        c->scale_tag = "minute";
    } else {
        g.size = swt_rng_log_range(&r, 0.1, 100);
    }
    if (swt_rng_chance(&r, 0.25)) {
        double dir[3];
        swt_rng_dir(&r, dir);
        /* Keep every coordinate well inside SW_MAX_COORD. */
        const double far = fmin(swt_rng_log_range(&r, 1e3, 1e4) * g.size, (double)SW_MAX_COORD / 100);
        for (int k = 0; k < 3; ++k) {
            g.origin[k] = dir[k] * far;
        }
        c->offset = true;
    }
    diff_pair inner = *p;
    if (p->op == OP_RAYCAST) {
        /* Generated as a point sweep, then turned into a ray. */
        inner.a = SW_SHAPE_POINT;
        c->op = OP_SWEEP;
    }
    g.p = &inner;
    switch (p->op) {
    case OP_SWEEP:
    case OP_RAYCAST:
        if (p->op == OP_SWEEP && is_solid_type(p->a) && p->a != SW_SHAPE_PLANE && is_solid_type(p->b) &&
            (p->a == SW_SHAPE_BOX || p->a == SW_SHAPE_HULL)) {
            solid_sweep_recipe(&g, c);
        } else {
            sweep_recipe(&g, c);
        }
        break;
    case OP_SWEEP_INSIDE:
        inside_recipe(&g, c);
        break;
    case OP_OVERLAP:
    case OP_DISTANCE:
        if (is_solid_type(p->a) && is_solid_type(p->b)) {
            solid_static_recipe(&g, c);
        } else {
            static_recipe(&g, c);
        }
        break;
    case OP_COUNT:
        break;
    }
    if (p->op == OP_RAYCAST) {
        c->op = OP_RAYCAST;
        finalize_ray(&g, c);
    }
}

/* Whether the reference can take the case's hulls. It builds a hull's
 * faces itself, by brute force within its own slack; a recipe that moves a
 * hull after it was made (far from the origin, say) can leave a plate
 * 1e-14 thick whose near-coplanar faces it cannot close into a surface,
 * and a reference without faces judges nothing: it reported the library's
 * face 16 of such a plate (double, seed 61, sweep:box:hull case 78) as
 * infinitely far from the contact. */
static bool hulls_referenced(const diff_case* c)
{
    const sw_shape* shapes[2] = {&c->a, &c->b};
    for (int i = 0; i < 2; ++i) {
        ref_shape r;
        if (shapes[i]->type == SW_SHAPE_HULL && !ref_from_shape(shapes[i], &r)) {
            return false;
        }
    }
    return true;
}

void diff_generate(const diff_pair* p, uint64_t seed, diff_case* c)
{
    if (p->a == SW_SHAPE_MESH || p->b == SW_SHAPE_MESH) {
        diff_generate_mesh(p, seed, c);
        return;
    }
    /* A case the reference cannot model is drawn again from a seed of its
     * own (the rest of the run's cases are unchanged). */
    for (int attempt = 0; attempt < 8; ++attempt) {
        generate_once(p, seed + (uint64_t)attempt * 0x9E3779B97F4A7C15ull, c);
        if (hulls_referenced(c)) {
            return;
        }
        diff_case_free(c);
    }
    generate_once(p, seed, c);
}
