/* The general convex methods (issue 5): GJK distance, the GJK ray cast /
 * shape cast and EPA, cross-checked
 * - against the library's exact routines, which answer every round shape
 *   (point, segment, sphere, capsule) against every primitive;
 * - against brute-force references for the pairs no exact routine answers
 *   (polytopes and hulls): separating axes for penetration depth and (over
 *   time) for the time of impact, edges against shapes for distance;
 * - against certificates that need no reference: points on both shapes,
 *   separating planes, the push that separates, the feature named holding
 *   the contact;
 * then GJK's classic failure modes as named cases.
 *
 * Errors are measured in units of the contract's tol * scale (DESIGN §3)
 * and the worst of each kind is printed at the end. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_support.h"

/* Two methods each within tol * scale of the truth are within 2 of each
 * other; a certificate computed here (in double) holds within 1 (plus the
 * exact routine it uses). */
#define AGREE 2.0
#define CERT 2.0

/* ---- worst errors, in units of tol * scale ------------------------------------ */

enum {
    W_DIST,
    W_DIST_POINT,
    W_OV_DEPTH,
    W_OV_POINT,
    W_OV_PUSH,
    W_SW_T,
    W_SW_POINT,
    W_SW_PLANE,
    W_SW_DEPTH,
    W_SW_FEATURE,
    W_RAY_T,
    W_COUNT
};
static const char* const w_name[W_COUNT] = {
    "distance",    "distance points", "overlap depth",     "overlap point", "overlap push",    "sweep t*|d|",
    "sweep point", "sweep plane",     "sweep start depth", "sweep feature", "raycast t*|dir|",
};
static double worst[W_COUNT];
static double worst_angle; /* radians, where the normal is unique */
static char worst_angle_at[160];
static long checks, feature_mismatches, feature_compares;
/* Normals more than 1e-3 rad apart where the reference's separates the
 * cores worse than the general method's (the reference was wrong). */
static long reference_normal_worse;
static double reference_normal_worst;
static char reference_normal_at[160];

static char worst_at[W_COUNT][160];
static const sw_shape *cur_a, *cur_b;
static const char* cur_what;
static int cur_case;

static void note_angle(double ang)
{
    if (ang > worst_angle) {
        worst_angle = ang;
        snprintf(worst_angle_at, sizeof worst_angle_at, "%s case %d, %s vs %s", cur_what, cur_case,
                 sw_shape_type_name(cur_a->type), sw_shape_type_name(cur_b->type));
    }
}

static void note(int which, double err_in_tol)
{
    if (err_in_tol > worst[which]) {
        worst[which] = err_in_tol;
        snprintf(worst_at[which], sizeof worst_at[which], "%s case %d, %s vs %s", cur_what, cur_case,
                 sw_shape_type_name(cur_a->type), sw_shape_type_name(cur_b->type));
    }
}

/* ---- vectors in double ---------------------------------------------------------- */

typedef struct dv {
    double x, y, z;
} dv;

static dv dvv(double x, double y, double z)
{
    dv v = {x, y, z};
    return v;
}
static dv dof(sw_vec3 v) { return dvv(v.x, v.y, v.z); }
static sw_vec3 dto(dv v) { return sw_v3((sw_real)v.x, (sw_real)v.y, (sw_real)v.z); }
static dv dadd(dv a, dv b) { return dvv(a.x + b.x, a.y + b.y, a.z + b.z); }
static dv dsub(dv a, dv b) { return dvv(a.x - b.x, a.y - b.y, a.z - b.z); }
static dv dscale(dv a, double s) { return dvv(a.x * s, a.y * s, a.z * s); }
static double ddot(dv a, dv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dv dcross(dv a, dv b) { return dvv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static double dlen(dv a) { return sqrt(ddot(a, a)); }
static double dmaxabs(dv a) { return fmax(fabs(a.x), fmax(fabs(a.y), fabs(a.z))); }
static double dnormalize(dv* a)
{
    const double m = dmaxabs(*a);
    if (!(m > 0)) {
        return 0;
    }
    dv u = dscale(*a, 1 / m);
    const double l = dlen(u);
    *a = dscale(u, 1 / l);
    return l * m;
}
static double vmax(sw_vec3 v) { return dmaxabs(dof(v)); }
static double angle(dv a, dv b) { return atan2(dlen(dcross(a, b)), ddot(a, b)); }

typedef struct dq {
    double x, y, z, w;
} dq;
static dq dq_of(sw_quat q)
{
    const double l = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    dq r = {q.x / l, q.y / l, q.z / l, q.w / l};
    return r;
}
static dv dq_rotate(dq q, dv v)
{
    const dv u = dvv(q.x, q.y, q.z);
    const dv t = dscale(dcross(u, v), 2);
    return dadd(dadd(v, dscale(t, q.w)), dcross(u, t));
}

/* ---- hand-built hulls (the queries need only the struct) ---------------------- */

typedef struct thull {
    sw_hull h;
    sw_vec3 v[24];
    int src[24];
    sw_hull_edge e[64];
    sw_hull_face f[24];
    int fv[128];
} thull;

/* faces: for each face its vertex count then its vertices in cyclic order
 * (either winding: it is made counter-clockwise from outside), 0 ends. */
static void thull_make(thull* t, const sw_vec3* v, int nv, const int* faces)
{
    memset(t, 0, sizeof *t);
    dv lo = dof(v[0]), hi = dof(v[0]), mean = dvv(0, 0, 0);
    for (int i = 0; i < nv; ++i) {
        t->v[i] = v[i];
        t->src[i] = i;
        const dv p = dof(v[i]);
        lo = dvv(fmin(lo.x, p.x), fmin(lo.y, p.y), fmin(lo.z, p.z));
        hi = dvv(fmax(hi.x, p.x), fmax(hi.y, p.y), fmax(hi.z, p.z));
        mean = dadd(mean, dscale(p, 1.0 / nv));
    }
    int nf = 0, nfv = 0, ne = 0;
    for (const int* p = faces; *p; p += 1 + *p) {
        const int c = *p;
        dv n = dvv(0, 0, 0), centroid = dvv(0, 0, 0);
        for (int i = 0; i < c; ++i) {
            const dv a = dof(v[p[1 + i]]), b = dof(v[p[1 + (i + 1) % c]]);
            n = dadd(n, dcross(a, b));
            centroid = dadd(centroid, dscale(a, 1.0 / c));
        }
        const bool flip = ddot(n, dsub(centroid, mean)) < 0;
        dnormalize(&n);
        if (flip) {
            n = dscale(n, -1);
        }
        t->f[nf].first = nfv;
        t->f[nf].count = c;
        for (int i = 0; i < c; ++i) {
            t->fv[nfv + i] = p[1 + (flip ? c - 1 - i : i)];
        }
        t->f[nf].normal = dto(n);
        t->f[nf].offset = (sw_real)ddot(n, dof(v[t->fv[nfv]]));
        for (int i = 0; i < c; ++i) {
            const int a = t->fv[nfv + i], b = t->fv[nfv + (i + 1) % c];
            const int lo_v = a < b ? a : b, hi_v = a < b ? b : a;
            int found = -1;
            for (int k = 0; k < ne; ++k) {
                found = t->e[k].v[0] == lo_v && t->e[k].v[1] == hi_v ? k : found;
            }
            if (found < 0) {
                found = ne++;
                t->e[found].v[0] = lo_v;
                t->e[found].v[1] = hi_v;
            }
            t->e[found].face[a < b ? 0 : 1] = nf;
        }
        nfv += c;
        ++nf;
    }
    /* Edges sorted by (v[0], v[1]), as hull.h numbers them. */
    for (int i = 1; i < ne; ++i) {
        for (int j = i; j > 0 && (t->e[j - 1].v[0] > t->e[j].v[0] ||
                                  (t->e[j - 1].v[0] == t->e[j].v[0] && t->e[j - 1].v[1] > t->e[j].v[1]));
             --j) {
            const sw_hull_edge tmp = t->e[j];
            t->e[j] = t->e[j - 1];
            t->e[j - 1] = tmp;
        }
    }
    const dv c = dscale(dadd(lo, hi), 0.5);
    double r = 0;
    for (int i = 0; i < nv; ++i) {
        r = fmax(r, dlen(dsub(dof(v[i]), c)));
    }
    t->h.vertex_count = nv;
    t->h.edge_count = ne;
    t->h.face_count = nf;
    t->h.vertices = t->v;
    t->h.source = t->src;
    t->h.edges = t->e;
    t->h.faces = t->f;
    t->h.face_vertices = t->fv;
    t->h.center = dto(c);
    t->h.radius = (sw_real)r;
}

static const int cube_faces[] = {4, 0, 2, 6, 4, 4, 1, 3, 7, 5, 4, 0, 1, 5, 4, 4,
                                 2, 3, 7, 6, 4, 0, 1, 3, 2, 4, 4, 5, 7, 6, 0};
static const int tetra_faces[] = {3, 0, 1, 2, 3, 0, 1, 3, 3, 0, 2, 3, 3, 1, 2, 3, 0};
static const int prism_faces[] = {3, 0, 1, 2, 3, 3, 4, 5, 4, 0, 1, 4, 3, 4, 1, 2, 5, 4, 4, 2, 0, 3, 5, 0};
static const int hexprism_faces[] = {6, 0, 1, 2, 3, 4, 5, 6, 6, 7,  8, 9, 10, 11, 4,  0,  1, 7, 6, 4, 1,  2, 8,
                                     7, 4, 2, 3, 9, 8, 4, 3, 4, 10, 9, 4, 4,  5,  11, 10, 4, 5, 0, 6, 11, 0};

/* The box's vertices in its numbering (bit k: +half on axis k). */
static void cube_vertices(sw_vec3 h, sw_vec3* v)
{
    for (int i = 0; i < 8; ++i) {
        v[i] = sw_v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
    }
}

/* ---- random shapes ------------------------------------------------------------ */

static swt_rng rng;

static double rnd(double lo, double hi) { return swt_rng_range(&rng, lo, hi); }
static dv rnd_dir(void)
{
    double v[3];
    swt_rng_dir(&rng, v);
    return dvv(v[0], v[1], v[2]);
}
static sw_quat rnd_quat(void)
{
    double q[4], l = 0;
    for (int i = 0; i < 4; ++i) {
        q[i] = rnd(-1, 1);
        l += q[i] * q[i];
    }
    l = sqrt(l);
    sw_quat r = {(sw_real)(q[0] / l), (sw_real)(q[1] / l), (sw_real)(q[2] / l), (sw_real)(q[3] / l)};
    return r;
}

/* A shape with the storage its pointers use; never copied once made. */
typedef struct gshape {
    sw_shape s;
    sw_vec3 buf[SW_MAX_POLYGON_VERTICES];
    thull th;
} gshape;

typedef enum kind { K_POINT, K_SEGMENT, K_SPHERE, K_CAPSULE, K_BOX, K_TRIANGLE, K_POLYGON, K_HULL, K_COUNT } kind;

static sw_vec3 at(dv c, dv off) { return dto(dadd(c, off)); }

/* A random hull: a cube, tetrahedron, prism or hexagonal prism under a
 * random linear map (which keeps it convex and its faces planar). */
static void make_hull_shape(gshape* g, dv c, double size)
{
    sw_vec3 v[24];
    const int* faces;
    int nv;
    switch (swt_rng_int(&rng, 4)) {
    case 0:
        cube_vertices(sw_v3(1, 1, 1), v);
        nv = 8;
        faces = cube_faces;
        break;
    case 1:
        v[0] = sw_v3(1, 1, 1), v[1] = sw_v3(1, -1, -1), v[2] = sw_v3(-1, 1, -1), v[3] = sw_v3(-1, -1, 1);
        nv = 4;
        faces = tetra_faces;
        break;
    case 2:
        for (int i = 0; i < 3; ++i) {
            const double a = 2 * M_PI * i / 3;
            v[i] = sw_v3((sw_real)cos(a), (sw_real)sin(a), -1);
            v[i + 3] = sw_v3((sw_real)cos(a), (sw_real)sin(a), 1);
        }
        nv = 6;
        faces = prism_faces;
        break;
    default:
        for (int i = 0; i < 6; ++i) {
            const double a = 2 * M_PI * i / 6;
            v[i] = sw_v3((sw_real)cos(a), (sw_real)sin(a), -1);
            v[i + 6] = sw_v3((sw_real)cos(a), (sw_real)sin(a), 1);
        }
        nv = 12;
        faces = hexprism_faces;
        break;
    }
    /* A random, well-conditioned linear map. */
    double m[3][3];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            m[i][j] = (i == j ? rnd(0.3, 1.0) : rnd(-0.3, 0.3)) * size;
        }
    }
    for (int i = 0; i < nv; ++i) {
        const dv p = dof(v[i]);
        v[i] = sw_v3((sw_real)(m[0][0] * p.x + m[0][1] * p.y + m[0][2] * p.z),
                     (sw_real)(m[1][0] * p.x + m[1][1] * p.y + m[1][2] * p.z),
                     (sw_real)(m[2][0] * p.x + m[2][1] * p.y + m[2][2] * p.z));
    }
    thull_make(&g->th, v, nv, faces);
    g->s = sw_make_hull(&g->th.h, dto(c), swt_rng_chance(&rng, 0.3) ? sw_quat_identity() : rnd_quat());
}

static void make_shape(gshape* g, kind k, dv c, double size)
{
    const double r = swt_rng_chance(&rng, 0.2) ? 0 : size * rnd(0.05, 0.6);
    const dv e = dscale(rnd_dir(), size * rnd(0.2, 1.0));
    switch (k) {
    case K_POINT:
        g->s = sw_make_point(dto(c));
        break;
    case K_SEGMENT:
        g->s = sw_make_segment(at(c, e), at(c, dscale(e, -1)));
        break;
    case K_SPHERE:
        g->s = sw_make_sphere(dto(c), (sw_real)(r > 0 ? r : size * 0.5));
        break;
    case K_CAPSULE:
        g->s = sw_make_capsule(at(c, e), at(c, dscale(e, -1)), (sw_real)r);
        break;
    case K_BOX: {
        sw_vec3 h = dto(dvv(size * rnd(0.1, 1), size * rnd(0.1, 1), size * rnd(0.1, 1)));
        if (swt_rng_chance(&rng, 0.05)) {
            h.z = 0; /* flat */
        }
        g->s = sw_make_box(dto(c), h, swt_rng_chance(&rng, 0.3) ? sw_quat_identity() : rnd_quat());
        break;
    }
    case K_TRIANGLE:
        g->s = sw_make_triangle(at(c, dscale(rnd_dir(), size)), at(c, dscale(rnd_dir(), size)),
                                at(c, dscale(rnd_dir(), size)), false);
        break;
    case K_POLYGON: {
        const int n = 3 + swt_rng_int(&rng, 8);
        const dv nrm = rnd_dir();
        dv u = dcross(nrm, fabs(nrm.x) < 0.5 ? dvv(1, 0, 0) : dvv(0, 1, 0));
        dnormalize(&u);
        const dv w = dcross(nrm, u);
        const double start = rnd(0, 2 * M_PI), rad = size * rnd(0.3, 1);
        for (int i = 0; i < n; ++i) {
            const double a = start + 2 * M_PI * (i + rnd(-0.3, 0.3)) / n;
            g->buf[i] = at(c, dadd(dscale(u, rad * cos(a)), dscale(w, rad * sin(a))));
        }
        g->s = sw_make_polygon(g->buf, n, false);
        break;
    }
    case K_HULL:
    case K_COUNT:
        make_hull_shape(g, c, size);
        break;
    }
}

static bool is_round(const sw_shape* s) { return s->type <= SW_SHAPE_CAPSULE; }

static double shape_scale(const sw_shape* s)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        return vmax(s->point);
    case SW_SHAPE_SEGMENT:
        return fmax(vmax(s->segment.a), vmax(s->segment.b));
    case SW_SHAPE_SPHERE:
        return fmax(vmax(s->sphere.center), s->sphere.radius);
    case SW_SHAPE_CAPSULE:
        return fmax(fmax(vmax(s->capsule.a), vmax(s->capsule.b)), s->capsule.radius);
    case SW_SHAPE_BOX:
        return fmax(vmax(s->box.center), vmax(s->box.half));
    case SW_SHAPE_TRIANGLE:
        return fmax(vmax(s->triangle.v[0]), fmax(vmax(s->triangle.v[1]), vmax(s->triangle.v[2])));
    case SW_SHAPE_POLYGON: {
        double m = 0;
        for (int i = 0; i < s->polygon.count; ++i) {
            m = fmax(m, vmax(s->polygon.v[i]));
        }
        return m;
    }
    case SW_SHAPE_HULL: {
        const dq q = dq_of(s->hull.rotation);
        double m = 0;
        for (int i = 0; i < s->hull.hull->vertex_count; ++i) {
            m = fmax(m, dmaxabs(dadd(dq_rotate(q, dof(s->hull.hull->vertices[i])), dof(s->hull.position))));
        }
        return m;
    }
    default:
        return 0;
    }
}

static double radius_of(const sw_shape* s)
{
    return s->type == SW_SHAPE_SPHERE ? s->sphere.radius : (s->type == SW_SHAPE_CAPSULE ? s->capsule.radius : 0);
}

/* s translated by off; polygons write their vertices to buf. */
static sw_shape translated(const sw_shape* s, dv off, sw_vec3* buf)
{
    sw_shape t = *s;
    switch (s->type) {
    case SW_SHAPE_POINT:
        t.point = at(dof(s->point), off);
        break;
    case SW_SHAPE_SEGMENT:
        t.segment.a = at(dof(s->segment.a), off);
        t.segment.b = at(dof(s->segment.b), off);
        break;
    case SW_SHAPE_SPHERE:
        t.sphere.center = at(dof(s->sphere.center), off);
        break;
    case SW_SHAPE_CAPSULE:
        t.capsule.a = at(dof(s->capsule.a), off);
        t.capsule.b = at(dof(s->capsule.b), off);
        break;
    case SW_SHAPE_BOX:
        t.box.center = at(dof(s->box.center), off);
        break;
    case SW_SHAPE_TRIANGLE:
        for (int i = 0; i < 3; ++i) {
            t.triangle.v[i] = at(dof(s->triangle.v[i]), off);
        }
        break;
    case SW_SHAPE_POLYGON:
        for (int i = 0; i < s->polygon.count; ++i) {
            buf[i] = at(dof(s->polygon.v[i]), off);
        }
        t.polygon.v = buf;
        break;
    case SW_SHAPE_HULL:
        t.hull.position = at(dof(s->hull.position), off);
        break;
    default:
        break;
    }
    return t;
}

/* The shape without its radius (sphere -> point, capsule -> segment). */
static sw_shape core_of(const sw_shape* s)
{
    if (s->type == SW_SHAPE_SPHERE) {
        return sw_make_point(s->sphere.center);
    }
    if (s->type == SW_SHAPE_CAPSULE) {
        return sw_make_segment(s->capsule.a, s->capsule.b);
    }
    return *s;
}

static void print_shape(const char* name, const sw_shape* s)
{
    const sw_vec3* v = NULL;
    int n = 0;
    print_error("  %s: %s", name, sw_shape_type_name(s->type));
    switch (s->type) {
    case SW_SHAPE_POINT:
        v = &s->point, n = 1;
        break;
    case SW_SHAPE_SEGMENT:
        v = &s->segment.a, n = 2;
        break;
    case SW_SHAPE_SPHERE:
        v = &s->sphere.center, n = 1;
        print_error(" r=%.9g", (double)s->sphere.radius);
        break;
    case SW_SHAPE_CAPSULE:
        v = &s->capsule.a, n = 2;
        print_error(" r=%.9g", (double)s->capsule.radius);
        break;
    case SW_SHAPE_BOX:
        print_error(" c=(%.9g,%.9g,%.9g) h=(%.9g,%.9g,%.9g) q=(%.9g,%.9g,%.9g,%.9g)", (double)s->box.center.x,
                    (double)s->box.center.y, (double)s->box.center.z, (double)s->box.half.x, (double)s->box.half.y,
                    (double)s->box.half.z, (double)s->box.rotation.x, (double)s->box.rotation.y,
                    (double)s->box.rotation.z, (double)s->box.rotation.w);
        break;
    case SW_SHAPE_TRIANGLE:
        v = s->triangle.v, n = 3;
        break;
    case SW_SHAPE_POLYGON:
        v = s->polygon.v, n = s->polygon.count;
        break;
    case SW_SHAPE_HULL:
        v = s->hull.hull->vertices, n = s->hull.hull->vertex_count;
        print_error(" p=(%.9g,%.9g,%.9g) q=(%.9g,%.9g,%.9g,%.9g) local", (double)s->hull.position.x,
                    (double)s->hull.position.y, (double)s->hull.position.z, (double)s->hull.rotation.x,
                    (double)s->hull.rotation.y, (double)s->hull.rotation.z, (double)s->hull.rotation.w);
        break;
    default:
        break;
    }
    for (int i = 0; i < n; ++i) {
        print_error(" (%.9g,%.9g,%.9g)", (double)v[i].x, (double)v[i].y, (double)v[i].z);
    }
    print_error("\n");
}

static void print_hit(const char* name, sw_hit h)
{
    print_error("  %s: status=%d hit=%d ov=%d t=%.9g depth=%.9g p=(%.9g,%.9g,%.9g) n=(%.9g,%.9g,%.9g) f=%d/%d\n", name,
                h.status, h.hit, h.overlapping, (double)h.t, (double)h.depth, (double)h.point.x, (double)h.point.y,
                (double)h.point.z, (double)h.normal.x, (double)h.normal.y, (double)h.normal.z, h.feature.kind,
                h.feature.index);
}

/* The case under test, printed when a check fails. */
static sw_vec3 cur_d;
static double cur_skin;
static sw_hit cur_hit; /* the sweep under test, if any */
static bool cur_hit_set;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        ++checks;                                                                                                      \
        if (!(cond)) {                                                                                                 \
            print_error("%s case %d: ", cur_what, cur_case);                                                           \
            print_error(__VA_ARGS__);                                                                                  \
            print_error("\n");                                                                                         \
            print_shape("a", cur_a);                                                                                   \
            print_shape("b", cur_b);                                                                                   \
            print_error("  d=(%.9g,%.9g,%.9g) skin=%.9g\n", (double)cur_d.x, (double)cur_d.y, (double)cur_d.z,         \
                        cur_skin);                                                                                     \
            if (cur_hit_set) {                                                                                         \
                print_hit("gjk", cur_hit);                                                                             \
            }                                                                                                          \
            fail();                                                                                                    \
        }                                                                                                              \
    } while (0)

/* ---- shapes as polytopes in double (the brute-force references) ----------------- */

#define TP_MAX 256
typedef struct tpoly {
    int nv, ne, nn;
    dv v[TP_MAX];
    int e[TP_MAX][2];
    dv n[TP_MAX]; /* face normals and other axes the shape contributes */
    bool flat, segment;
} tpoly;

static void tpoly_of(const sw_shape* s, tpoly* p)
{
    memset(p, 0, sizeof *p);
    const sw_shape c = core_of(s);
    switch (c.type) {
    case SW_SHAPE_POINT:
        p->nv = 1;
        p->v[0] = dof(c.point);
        break;
    case SW_SHAPE_SEGMENT:
        p->nv = 2;
        p->v[0] = dof(c.segment.a);
        p->v[1] = dof(c.segment.b);
        p->ne = 1;
        p->e[0][0] = 0, p->e[0][1] = 1;
        p->segment = true;
        break;
    case SW_SHAPE_BOX: {
        const dq q = dq_of(c.box.rotation);
        const dv ax[3] = {dq_rotate(q, dvv(1, 0, 0)), dq_rotate(q, dvv(0, 1, 0)), dq_rotate(q, dvv(0, 0, 1))};
        const double h[3] = {c.box.half.x, c.box.half.y, c.box.half.z};
        p->nv = 8;
        for (int i = 0; i < 8; ++i) {
            dv x = dof(c.box.center);
            for (int k = 0; k < 3; ++k) {
                x = dadd(x, dscale(ax[k], (i >> k & 1) ? h[k] : -h[k]));
            }
            p->v[i] = x;
        }
        for (int i = 0; i < 8; ++i) {
            for (int k = 0; k < 3; ++k) {
                if (!(i >> k & 1)) {
                    p->e[p->ne][0] = i;
                    p->e[p->ne++][1] = i | 1 << k;
                }
            }
        }
        for (int k = 0; k < 3; ++k) {
            p->n[p->nn++] = ax[k];
        }
        break;
    }
    case SW_SHAPE_TRIANGLE:
    case SW_SHAPE_POLYGON: {
        const bool tri = c.type == SW_SHAPE_TRIANGLE;
        p->nv = tri ? 3 : c.polygon.count;
        for (int i = 0; i < p->nv; ++i) {
            p->v[i] = dof(tri ? c.triangle.v[i] : c.polygon.v[i]);
        }
        dv n = dvv(0, 0, 0);
        for (int i = 1; i + 1 < p->nv; ++i) {
            n = dadd(n, dcross(dsub(p->v[i], p->v[0]), dsub(p->v[i + 1], p->v[0])));
        }
        for (int i = 0; i < p->nv; ++i) {
            p->e[i][0] = i;
            p->e[i][1] = (i + 1) % p->nv;
        }
        p->ne = p->nv;
        if (dnormalize(&n) > 0) {
            p->flat = true;
            p->n[p->nn++] = n;
            for (int i = 0; i < p->nv; ++i) {
                p->n[p->nn++] = dcross(dsub(p->v[(i + 1) % p->nv], p->v[i]), n);
            }
        }
        break;
    }
    case SW_SHAPE_HULL: {
        const dq q = dq_of(c.hull.rotation);
        const sw_hull* h = c.hull.hull;
        p->nv = h->vertex_count;
        for (int i = 0; i < p->nv; ++i) {
            p->v[i] = dadd(dq_rotate(q, dof(h->vertices[i])), dof(c.hull.position));
        }
        for (int i = 0; i < h->edge_count && i < TP_MAX; ++i) {
            p->e[p->ne][0] = h->edges[i].v[0];
            p->e[p->ne++][1] = h->edges[i].v[1];
        }
        for (int i = 0; i < h->face_count && i < TP_MAX; ++i) {
            p->n[p->nn++] = dq_rotate(q, dof(h->faces[i].normal));
        }
        break;
    }
    default:
        break;
    }
}

static void interval(const tpoly* p, dv u, double* lo, double* hi)
{
    *lo = *hi = ddot(p->v[0], u);
    for (int i = 1; i < p->nv; ++i) {
        const double x = ddot(p->v[i], u);
        *lo = fmin(*lo, x);
        *hi = fmax(*hi, x);
    }
}

/* Candidate separating axes of the pair: every face normal of the
 * Minkowski difference is among them (face normals, edge x edge), plus the
 * in-plane directions its lower-dimensional cases need. */
static int sat_axes(const tpoly* a, const tpoly* b, dv* axes, int max)
{
    int n = 0;
#define PUSH(u)                                                                                                        \
    do {                                                                                                               \
        dv u_ = (u);                                                                                                   \
        if (n < max && dnormalize(&u_) > 0) {                                                                          \
            axes[n++] = u_;                                                                                            \
        }                                                                                                              \
    } while (0)
    for (int i = 0; i < a->nn; ++i) {
        PUSH(a->n[i]);
    }
    for (int i = 0; i < b->nn; ++i) {
        PUSH(b->n[i]);
    }
    for (int i = 0; i < a->ne; ++i) {
        const dv ea = dsub(a->v[a->e[i][1]], a->v[a->e[i][0]]);
        for (int j = 0; j < b->ne; ++j) {
            const dv eb = dsub(b->v[b->e[j][1]], b->v[b->e[j][0]]);
            const dv c = dcross(ea, eb);
            PUSH(c);
            if (a->segment || b->segment) {
                PUSH(dcross(ea, c));
                PUSH(dcross(eb, c));
            }
        }
    }
    const tpoly* segs[2] = {a, b};
    for (int s = 0; s < 2; ++s) {
        if (segs[s]->segment) {
            dv e = dsub(segs[s]->v[1], segs[s]->v[0]);
            if (dnormalize(&e) > 0) {
                const dv p = dcross(e, fabs(e.x) < 0.5 ? dvv(1, 0, 0) : dvv(0, 1, 0));
                PUSH(p);
                PUSH(dcross(e, p));
            }
        }
    }
    if (a->nv == 1 && b->nv == 1) {
        PUSH(dvv(1, 0, 0));
        PUSH(dsub(a->v[0], b->v[0]));
    }
#undef PUSH
    return n;
}

#define MAX_AXES 40000

/* Penetration depth of the cores (separating axes), or -1 when an axis
 * separates them (then *axis_gap is its gap). */
static double sat_depth(const tpoly* a, const tpoly* b, dv* best_axis)
{
    static dv axes[MAX_AXES];
    const int n = sat_axes(a, b, axes, MAX_AXES);
    CHECK(n < MAX_AXES, "too many separating axes for the reference");
    double depth = INFINITY;
    for (int i = 0; i < n; ++i) {
        double alo, ahi, blo, bhi;
        interval(a, axes[i], &alo, &ahi);
        interval(b, axes[i], &blo, &bhi);
        const double up = bhi - alo, down = ahi - blo;
        if (up < 0 || down < 0) {
            return -1;
        }
        if (fmin(up, down) < depth) {
            depth = fmin(up, down);
            if (best_axis) {
                *best_axis = up <= down ? axes[i] : dscale(axes[i], -1);
            }
        }
    }
    return depth;
}

/* Exact distance (the library's routines) from a segment or point to a
 * core shape; a hull is its faces (the segment is known to be outside). */
static double seg_core_distance(sw_vec3 p, sw_vec3 q, const sw_shape* core)
{
    const sw_shape seg = sw_make_segment(p, q);
    if (core->type != SW_SHAPE_HULL) {
        return sw_distance(&seg, core).distance;
    }
    const sw_hull* h = core->hull.hull;
    const dq rot = dq_of(core->hull.rotation);
    double best = INFINITY;
    for (int f = 0; f < h->face_count; ++f) {
        /* A fan of triangles: a merged face is planar only to within the
         * builder's tolerance, which a polygon need not pass. */
        sw_vec3 v[3];
        for (int i = 0; i < h->faces[f].count; ++i) {
            const sw_vec3 p =
                at(dq_rotate(rot, dof(h->vertices[h->face_vertices[h->faces[f].first + i]])), dof(core->hull.position));
            v[i == 0 ? 0 : (i == 1 ? 1 : 2)] = p;
            if (i >= 2) {
                const sw_shape tri = sw_make_triangle(v[0], v[1], v[2], false);
                best = fmin(best, sw_distance(&seg, &tri).distance);
                v[1] = v[2];
            }
        }
    }
    return best;
}

/* Signed distance between the solids (minus the penetration depth when
 * they overlap): the library's exact routines where they answer the pair,
 * the brute-force references elsewhere. */
/* When set, the references are the library's specialised routines
 * wherever it has one (round shapes against hulls, the separating-axis
 * sweep of polytope pairs): the cross-check of those routines. */
static bool specialised;

static double ref_sd(const sw_shape* a, const sw_shape* b)
{
    const bool hull = a->type == SW_SHAPE_HULL || b->type == SW_SHAPE_HULL;
    if ((is_round(a) || is_round(b)) && (!hull || (specialised && sw_distance_supported(a->type, b->type)))) {
        const sw_distance_result r = sw_distance(a, b);
        return r.distance > 0 ? r.distance : -sw_overlap(a, b).depth;
    }
    static tpoly pa, pb;
    tpoly_of(a, &pa);
    tpoly_of(b, &pb);
    const double rr = radius_of(a) + radius_of(b);
    const double depth = sat_depth(&pa, &pb, NULL);
    if (depth >= 0) {
        return -depth - rr;
    }
    const sw_shape ca = core_of(a), cb = core_of(b);
    double best = INFINITY;
    for (int i = 0; i < pa.ne; ++i) {
        best = fmin(best, seg_core_distance(dto(pa.v[pa.e[i][0]]), dto(pa.v[pa.e[i][1]]), &cb));
    }
    for (int i = 0; i < pb.ne; ++i) {
        best = fmin(best, seg_core_distance(dto(pb.v[pb.e[i][0]]), dto(pb.v[pb.e[i][1]]), &ca));
    }
    if (pa.ne == 0) {
        best = fmin(best, seg_core_distance(dto(pa.v[0]), dto(pa.v[0]), &cb));
    }
    if (pb.ne == 0) {
        best = fmin(best, seg_core_distance(dto(pb.v[0]), dto(pb.v[0]), &ca));
    }
    return best - rr;
}

/* Distance from the point p to the solid s (0 inside). */
static double point_distance(sw_vec3 p, const sw_shape* s)
{
    const sw_shape pt = sw_make_point(p);
    return fmax(ref_sd(&pt, s), 0);
}

/* min over s of u . x */
static double support_min(const sw_shape* s, dv u) { return ddot(u, dof(sw_shape_support(s, dto(dscale(u, -1))))); }
static double support_max(const sw_shape* s, dv u) { return ddot(u, dof(sw_shape_support(s, dto(u)))); }

/* Distance from p to feature f of b's core; +infinity when b has no such
 * feature. */
static double feature_distance(const sw_shape* b, sw_feature f, dv p)
{
    const sw_shape c = core_of(b);
    if (f.kind == SW_FEATURE_NONE) {
        return c.type == SW_SHAPE_POINT ? 0 : INFINITY;
    }
    static tpoly t;
    tpoly_of(&c, &t);
    if (f.kind == SW_FEATURE_VERTEX) {
        return f.index >= 0 && f.index < t.nv ? dlen(dsub(p, t.v[f.index])) : INFINITY;
    }
    if (f.kind == SW_FEATURE_EDGE) {
        sw_vec3 e0, e1;
        if (c.type == SW_SHAPE_BOX) {
            if (f.index < 0 || f.index >= 12) {
                return INFINITY;
            }
            const int axis = f.index / 4, j = f.index % 4;
            const int other = ((j & 1) << ((axis + 1) % 3)) | (((j >> 1) & 1) << ((axis + 2) % 3));
            e0 = dto(t.v[other]), e1 = dto(t.v[other | 1 << axis]);
        } else if (c.type == SW_SHAPE_HULL) {
            if (f.index < 0 || f.index >= c.hull.hull->edge_count) {
                return INFINITY;
            }
            e0 = dto(t.v[c.hull.hull->edges[f.index].v[0]]), e1 = dto(t.v[c.hull.hull->edges[f.index].v[1]]);
        } else {
            if (f.index < 0 || f.index >= t.ne) {
                return INFINITY;
            }
            e0 = dto(t.v[t.e[f.index][0]]), e1 = dto(t.v[t.e[f.index][1]]);
        }
        const sw_shape seg = sw_make_segment(e0, e1);
        return point_distance(dto(p), &seg);
    }
    /* A face. */
    sw_vec3 v[SW_MAX_POLYGON_VERTICES];
    int n = 0;
    if (c.type == SW_SHAPE_BOX) {
        if (f.index < 0 || f.index >= 6) {
            return INFINITY;
        }
        const int axis = f.index / 2, side = f.index % 2;
        const int u = (axis + 1) % 3, w = (axis + 2) % 3;
        const int order[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        for (int i = 0; i < 4; ++i) {
            v[n++] = dto(t.v[side << axis | order[i][0] << u | order[i][1] << w]);
        }
    } else if (c.type == SW_SHAPE_HULL) {
        const sw_hull* h = c.hull.hull;
        if (f.index < 0 || f.index >= h->face_count) {
            return INFINITY;
        }
        /* A fan of triangles (see seg_core_distance). */
        double best = INFINITY;
        const int* fv = h->face_vertices + h->faces[f.index].first;
        for (int i = 2; i < h->faces[f.index].count; ++i) {
            const sw_shape tri = sw_make_triangle(dto(t.v[fv[0]]), dto(t.v[fv[i - 1]]), dto(t.v[fv[i]]), false);
            best = fmin(best, point_distance(dto(p), &tri));
        }
        return best;
    } else if (c.type == SW_SHAPE_TRIANGLE || c.type == SW_SHAPE_POLYGON) {
        if (f.index != 0) {
            return INFINITY;
        }
        for (int i = 0; i < t.nv; ++i) {
            v[n++] = dto(t.v[i]);
        }
    } else {
        return INFINITY;
    }
    const sw_shape poly = sw_make_polygon(v, n, false);
    return point_distance(dto(p), &poly);
}

/* ---- checks ------------------------------------------------------------------- */

/* Gap between the cores of A moved by off and B along the direction u, in
 * double from their vertices: the unique normal of a contact (cores apart,
 * or a face) is the direction that maximises it. */
static double core_gap(const sw_shape* a, dv off, const sw_shape* b, dv u)
{
    static tpoly pa, pb;
    tpoly_of(a, &pa);
    tpoly_of(b, &pb);
    dnormalize(&u);
    double alo, ahi, blo, bhi;
    interval(&pa, u, &alo, &ahi);
    interval(&pb, u, &blo, &bhi);
    return alo + ddot(u, off) - bhi;
}

/* The general method's unique normal gn against the reference's rn: within
 * 1e-3 rad, or else the better separating direction of the two (the
 * reference's own error shows here, and is counted). */
static void check_normal(dv gn, dv rn, const sw_shape* a, dv off, const sw_shape* b, double scale, const char* what)
{
    const double ang = angle(gn, rn);
    if (ang <= 1e-3) {
        note_angle(ang);
        return;
    }
    const double sg = core_gap(a, off, b, gn), sr = core_gap(a, off, b, rn);
    CHECK(sg >= sr - 1e-14 * scale, "%s normal %.3g rad from the reference's, which separates better (%.3g > %.3g)",
          what, ang, sr, sg);
    ++reference_normal_worse;
    if (ang > reference_normal_worst) {
        reference_normal_worst = ang;
        snprintf(reference_normal_at, sizeof reference_normal_at, "%s case %d, %s vs %s", cur_what, cur_case,
                 sw_shape_type_name(cur_a->type), sw_shape_type_name(cur_b->type));
    }
}

static double pair_scale(const sw_shape* a, const sw_shape* b, sw_vec3 d, double skin)
{
    return fmax(fmax(shape_scale(a), shape_scale(b)), fmax(vmax(d), skin));
}

static void check_distance(const sw_shape* a, const sw_shape* b)
{
    cur_hit_set = false;
    cur_a = a, cur_b = b, cur_d = sw_v3(0, 0, 0), cur_skin = 0;
    const double tl = SWT_TOL * pair_scale(a, b, cur_d, 0);
    const sw_distance_result g = sw_gjk_distance(a, b);
    CHECK(g.status == SW_OK, "status %d", g.status);
    const double ref = fmax(ref_sd(a, b), 0);
    note(W_DIST, fabs(g.distance - ref) / tl);
    CHECK(fabs(g.distance - ref) <= AGREE * tl, "distance %.9g, reference %.9g", (double)g.distance, ref);
    const double pa = point_distance(g.point_a, a), pb = point_distance(g.point_b, b);
    const double gap = dlen(dsub(dof(g.point_b), dof(g.point_a)));
    note(W_DIST_POINT, fmax(fmax(pa, pb), fabs(gap - g.distance)) / tl);
    CHECK(pa <= CERT * tl && pb <= CERT * tl, "points off the shapes by %.3g and %.3g", pa, pb);
    CHECK(fabs(gap - g.distance) <= CERT * tl, "points %.9g apart, distance %.9g", gap, (double)g.distance);
}

/* The push certificate: A moved by depth along n only touches B. */
static void check_push(const sw_shape* a, const sw_shape* b, double depth, sw_vec3 n, double tl, int which)
{
    sw_vec3 buf[SW_MAX_POLYGON_VERTICES];
    const sw_shape moved = translated(a, dscale(dof(n), depth), buf);
    const double sd = ref_sd(&moved, b);
    note(which, fabs(sd) / tl);
    CHECK(fabs(sd) <= CERT * tl, "after the push of %.9g along (%.9g,%.9g,%.9g) the signed distance is %.3g", depth,
          (double)n.x, (double)n.y, (double)n.z, sd);
}

static void check_overlap(const sw_shape* a, const sw_shape* b)
{
    cur_hit_set = false;
    cur_a = a, cur_b = b, cur_d = sw_v3(0, 0, 0), cur_skin = 0;
    const double tl = SWT_TOL * pair_scale(a, b, cur_d, 0);
    const sw_overlap_result g = sw_gjk_overlap(a, b);
    CHECK(g.status == SW_OK, "status %d", g.status);
    const double sd = ref_sd(a, b);
    if (g.overlapping != (sd <= 0)) {
        /* Either answer within the band where they only touch. */
        CHECK(fabs(sd) <= AGREE * tl && g.depth <= AGREE * tl, "overlapping %d, reference signed distance %.9g",
              g.overlapping, sd);
        return;
    }
    if (!g.overlapping) {
        return;
    }
    note(W_OV_DEPTH, fabs(g.depth + sd) / tl);
    CHECK(fabs(g.depth + sd) <= AGREE * tl, "depth %.9g, reference %.9g", (double)g.depth, -sd);
    assert_unit(g.normal);
    const double pa = point_distance(g.point, a), pb = point_distance(g.point, b);
    note(W_OV_POINT, fmax(pa, pb) / tl);
    CHECK(pa <= CERT * tl && pb <= CERT * tl, "point off the shapes by %.3g and %.3g", pa, pb);
    check_push(a, b, g.depth, g.normal, tl, W_OV_PUSH);
    /* Where the cores are apart the normal is unique: the exact routine's. */
    const bool hull = a->type == SW_SHAPE_HULL || b->type == SW_SHAPE_HULL;
    if ((is_round(a) || is_round(b)) && (!hull || specialised)) {
        const sw_shape ca = core_of(a), cb = core_of(b);
        if (sw_distance(&ca, &cb).distance > 0.01 * pair_scale(a, b, cur_d, 0)) {
            check_normal(dof(g.normal), dof(sw_overlap(a, b).normal), a, dvv(0, 0, 0), b, pair_scale(a, b, cur_d, 0),
                         "overlap");
        }
    }
}

/* A reference sweep: the exact routine for a round moving shape, the
 * mirrored one for a round static shape, separating axes over time for
 * two polytopes, otherwise none (certificates only). */
typedef struct ref_sweep {
    bool known, hit, overlapping, normal_unique;
    double t, depth;
    dv n;
} ref_sweep;

/* Separating axes over time (no radius, no skin): the first time every
 * axis overlaps; the normal is the axis that entered last, unique when no
 * other (non-parallel) axis enters within 1e-3 of it. */
static ref_sweep sat_sweep(const sw_shape* a, sw_vec3 dw, const sw_shape* b)
{
    static dv axes[MAX_AXES];
    ref_sweep r = {0};
    static tpoly pa, pb;
    tpoly_of(a, &pa);
    tpoly_of(b, &pb);
    const dv d = dof(dw);
    const int n = sat_axes(&pa, &pb, axes, MAX_AXES);
    CHECK(n < MAX_AXES, "too many separating axes for the reference");
    double enter = 0, leave = 1, second = -INFINITY;
    dv best = dvv(0, 0, 0);
    bool moved = false;
    for (int i = 0; i < n; ++i) {
        double alo, ahi, blo, bhi;
        interval(&pa, axes[i], &alo, &ahi);
        interval(&pb, axes[i], &blo, &bhi);
        const double s = ddot(axes[i], d);
        double t0, t1;
        if (s == 0) {
            if (alo > bhi || ahi < blo) {
                r.known = true;
                return r;
            }
            continue;
        }
        t0 = (blo - ahi) / s, t1 = (bhi - alo) / s;
        if (t0 > t1) {
            const double tmp = t0;
            t0 = t1;
            t1 = tmp;
        }
        if (t0 > enter) {
            if (!(moved && fabs(ddot(axes[i], best)) > 1 - 1e-9)) {
                second = fmax(second, enter);
            }
            enter = t0;
            moved = true;
            /* From B toward A: against the motion along the axis. */
            best = s > 0 ? dscale(axes[i], -1) : axes[i];
        } else if (!(moved && fabs(ddot(axes[i], best)) > 1 - 1e-9)) {
            second = fmax(second, t0);
        }
        leave = fmin(leave, t1);
    }
    r.known = true;
    r.hit = enter <= leave;
    r.t = enter;
    r.overlapping = !moved;
    r.n = best;
    r.normal_unique = moved && (enter - second) * dlen(d) > 1e-3 * pair_scale(a, b, dw, 0);
    return r;
}

static ref_sweep reference_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    ref_sweep r = {0};
    const double skin = opt ? opt->skin : 0;
    const bool round_pair = radius_of(a) + radius_of(b) + skin > 0.01 * pair_scale(a, b, d, skin);
    if (specialised && !is_round(a) && !is_round(b) && skin == 0 && sw_sweep_supported(a->type, b->type)) {
        /* The separating-axis sweep over time; its normal is unique where
         * the brute-force one says so. */
        const sw_hit h = sw_sweep(a, d, b, opt);
        r = sat_sweep(a, d, b);
        r.hit = h.hit, r.overlapping = h.overlapping, r.t = h.t, r.depth = h.depth, r.n = dof(h.normal);
    } else if (is_round(a) && (b->type != SW_SHAPE_HULL || (specialised && sw_sweep_supported(a->type, b->type)))) {
        const sw_hit h = sw_sweep(a, d, b, opt);
        r.known = true;
        r.hit = h.hit, r.overlapping = h.overlapping, r.t = h.t, r.depth = h.depth, r.n = dof(h.normal);
        r.normal_unique = round_pair;
    } else if (specialised && is_round(b) && sw_sweep_supported(a->type, b->type)) {
        /* The dispatcher's own mirrored sweep. */
        const sw_hit h = sw_sweep(a, d, b, opt);
        r.known = true;
        r.hit = h.hit, r.overlapping = h.overlapping, r.t = h.t, r.depth = h.depth, r.n = dof(h.normal);
        r.normal_unique = round_pair;
    } else if (is_round(b) && (a->type != SW_SHAPE_HULL || (specialised && sw_sweep_supported(b->type, a->type)))) {
        /* A by d against B is B by -d against A, mirrored. */
        const sw_hit h = sw_sweep(b, sw_v3(-d.x, -d.y, -d.z), a, opt);
        r.known = true;
        r.hit = h.hit, r.overlapping = h.overlapping, r.t = h.t, r.depth = h.depth, r.n = dscale(dof(h.normal), -1);
        r.normal_unique = round_pair;
    } else if (radius_of(a) + radius_of(b) == 0 && skin == 0) {
        r = sat_sweep(a, d, b);
    }
    return r;
}

/* Signed distance of A(t) from B inflated by skin. */
static double sd_at(const sw_shape* a, sw_vec3 d, double t, const sw_shape* b, double skin)
{
    sw_vec3 buf[SW_MAX_POLYGON_VERTICES];
    const sw_shape at_t = translated(a, dscale(dof(d), t), buf);
    return ref_sd(&at_t, b) - skin;
}

static void check_sweep_with(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt, sw_hit g,
                             int which_t)
{
    const double skin = opt ? opt->skin : 0;
    cur_a = a, cur_b = b, cur_d = d, cur_skin = skin;
    cur_hit = g, cur_hit_set = true;
    const double scale = pair_scale(a, b, d, skin), tl = SWT_TOL * scale;
    const double dl = dlen(dof(d));
    CHECK(g.status == SW_OK, "status %d", g.status);
    const bool one_sided = (b->type == SW_SHAPE_TRIANGLE && b->triangle.one_sided) ||
                           (b->type == SW_SHAPE_POLYGON && b->polygon.one_sided);
    /* ignore_separating: a start in contact moving along or away from the
     * start normal is no hit, either answer where |d . n| <= 2e-3 |d|. */
    if (opt && opt->ignore_separating && sd_at(a, d, 0, b, skin) <= AGREE * tl && !one_sided) {
        sw_sweep_options plain = *opt;
        plain.ignore_separating = false;
        const sw_hit h0 = sw_gjk_sweep(a, d, b, &plain);
        const double along = ddot(dof(d), dof(h0.normal));
        if (h0.overlapping) {
            if (!g.hit) {
                CHECK(along >= -2e-3 * dl, "ignored a start with d . n = %.3g", along);
                return;
            }
            CHECK(g.overlapping && along <= 2e-3 * dl, "kept a start with d . n = %.3g", along);
        }
    }
    ref_sweep r = reference_sweep(a, d, b, opt);
    if (r.known && r.hit != g.hit) {
        /* Either answer in the grazing band. */
        if (g.hit) {
            const double sd = sd_at(a, d, g.t, b, skin);
            CHECK(sd <= AGREE * tl || one_sided, "hit at t=%.9g where the signed distance is %.3g; reference misses",
                  (double)g.t, sd);
        } else {
            double deepest = 0;
            for (int i = 0; i <= 8; ++i) {
                deepest = fmin(deepest, sd_at(a, d, r.t + (1 - r.t) * i / 8, b, skin));
            }
            CHECK(-deepest <= AGREE * tl || one_sided, "missed; reference hits at t=%.9g and A sinks %.3g in", r.t,
                  -deepest);
        }
        return;
    }
    if (!g.hit) {
        if (!r.known && !one_sided) {
            /* Certificate of a miss: never within reach at sampled times. */
            for (int i = 0; i <= 16; ++i) {
                const double sd = sd_at(a, d, i / 16.0, b, skin);
                CHECK(sd >= -AGREE * tl, "missed, but at t=%.4g the signed distance is %.3g", i / 16.0, sd);
            }
        }
        return;
    }
    assert_unit(g.normal);
    if (g.overlapping) {
        CHECK(g.t == 0, "overlapping at t=%.9g", (double)g.t);
        const double sd = sd_at(a, d, 0, b, skin);
        note(W_SW_DEPTH, fabs(g.depth + sd) / tl);
        CHECK(fabs(g.depth + sd) <= AGREE * tl, "start depth %.9g, reference %.9g", (double)g.depth, -sd);
        const sw_shape ca = core_of(a), cb = core_of(b);
        if (r.known && r.overlapping && is_round(a) && b->type != SW_SHAPE_HULL &&
            sw_distance(&ca, &cb).distance > 0.01 * scale) {
            /* Cores apart: the start normal is the closest points' own. */
            check_normal(dof(g.normal), r.n, a, dvv(0, 0, 0), b, scale, "start");
        }
        return;
    }
    CHECK(g.depth == 0, "depth %.9g at t > 0", (double)g.depth);
    /* Time: the reference's, or where A is within reach of B and was not
     * before (the convex distance falls through the reach once). */
    const double sd = sd_at(a, d, g.t, b, skin);
    if (r.known && !r.overlapping) {
        const double err = fabs(g.t - r.t) * dl;
        const bool shallow = fabs(ddot(r.n, dof(d))) < 0.1 * dl;
        note(which_t, shallow ? fmin(err, fabs(sd)) / tl : err / tl);
        CHECK(err <= AGREE * tl || (shallow && fabs(sd) <= AGREE * tl), "t=%.9g, reference %.9g (err %.3g tol)",
              (double)g.t, r.t, err / tl);
    } else {
        note(which_t, fabs(sd) / tl);
        CHECK(fabs(sd) <= AGREE * tl, "at t=%.9g the signed distance is %.3g", (double)g.t, sd);
        if (g.t > 0) {
            const double before = sd_at(a, d, g.t * 0.5, b, skin);
            CHECK(before >= -AGREE * tl, "at t/2 the signed distance is %.3g", before);
        }
    }
    /* Point: on A(t), at distance skin from B. */
    sw_vec3 buf[SW_MAX_POLYGON_VERTICES];
    const sw_shape a_t = translated(a, dscale(dof(d), g.t), buf);
    const double on_a = point_distance(g.point, &a_t), on_b = fabs(point_distance(g.point, b) - skin);
    note(W_SW_POINT, fmax(on_a, on_b) / tl);
    CHECK(on_a <= CERT * tl && on_b <= CERT * tl, "point off A(t) by %.3g, off B + skin by %.3g", on_a, on_b);
    /* Normal: a separating plane through the point. */
    const dv n = dof(g.normal), p = dof(g.point);
    const double b_out = support_max(b, n) + skin - ddot(n, p);
    const double a_in = ddot(n, p) - support_min(&a_t, n);
    note(W_SW_PLANE, fmax(b_out, a_in) / tl);
    CHECK(b_out <= CERT * tl && a_in <= CERT * tl, "plane: B sticks out %.3g, A(t) %.3g", b_out, a_in);
    if (r.known && r.normal_unique) {
        check_normal(n, r.n, a, dscale(dof(d), g.t), b, scale, "contact");
    }
    /* Feature: holds B's core point of the contact. */
    const dv q = dsub(p, dscale(n, skin + radius_of(b)));
    const double fd = feature_distance(b, g.feature, q);
    note(W_SW_FEATURE, fd / tl);
    CHECK(fd <= CERT * tl, "feature %d/%d is %.3g from the contact", g.feature.kind, g.feature.index, fd);
    if (is_round(a) && b->type != SW_SHAPE_HULL && which_t == W_SW_T) {
        const sw_hit e = sw_sweep(a, d, b, opt);
        ++feature_compares;
        feature_mismatches += e.feature.kind != g.feature.kind || e.feature.index != g.feature.index;
    }
}

static void check_sweep(const sw_shape* a, sw_vec3 d, const sw_shape* b, const sw_sweep_options* opt)
{
    check_sweep_with(a, d, b, opt, sw_gjk_sweep(a, d, b, opt), W_SW_T);
}

static void check_raycast(sw_vec3 origin, sw_vec3 dir, double max, const sw_shape* b)
{
    const sw_ray ray = {origin, dir, (sw_real)max};
    const sw_hit g = sw_gjk_raycast(&ray, b);
    /* As the point sweep by max * dir, with t back in units of the sweep. */
    const sw_shape a = sw_make_point(origin);
    sw_hit as_sweep = g;
    as_sweep.t = max > 0 ? (sw_real)(g.t / max) : 0;
    check_sweep_with(&a, sw_scale(dir, (sw_real)max), b, NULL, as_sweep, W_RAY_T);
    if (b->type != SW_SHAPE_HULL) {
        const sw_hit r = sw_raycast(&ray, b);
        const double tl = SWT_TOL * pair_scale(&a, b, sw_scale(dir, (sw_real)max), 0);
        if (r.hit && g.hit && !r.overlapping && !g.overlapping) {
            const double err = fabs(g.t - r.t) * dlen(dof(dir));
            const bool shallow = fabs(ddot(dof(r.normal), dof(dir))) < 0.1 * dlen(dof(dir));
            CHECK(err <= AGREE * tl || shallow, "ray t=%.9g, exact routine %.9g", (double)g.t, (double)r.t);
        }
    }
}

/* ---- random pairs ------------------------------------------------------------- */

/* A pair near each other: B around an offset, A at a random distance, a
 * motion aimed roughly at B. */
typedef struct gpair {
    gshape a, b;
    sw_vec3 d;
    sw_sweep_options opt;
} gpair;

static void make_pair(gpair* p, kind ka, kind kb, double offset)
{
    const double size_b = swt_rng_log_range(&rng, 0.01, 10), size_a = size_b * swt_rng_log_range(&rng, 0.1, 10);
    const dv cb = dadd(dscale(rnd_dir(), offset), dscale(rnd_dir(), size_b * rnd(0, 0.5)));
    const double reach = size_a + size_b;
    const dv ca = dadd(cb, dscale(rnd_dir(), reach * swt_rng_log_range(&rng, 0.05, 4)));
    make_shape(&p->b, kb, cb, size_b);
    make_shape(&p->a, ka, ca, size_a);
    const dv aim = dadd(dsub(cb, ca), dscale(rnd_dir(), reach * rnd(0, 0.7)));
    p->d = dto(dscale(aim, swt_rng_chance(&rng, 0.1) ? rnd(0, 0.5) : rnd(0.5, 2.5)));
    if (swt_rng_chance(&rng, 0.05)) {
        p->d = sw_v3(0, 0, 0);
    }
    p->opt.skin = swt_rng_chance(&rng, 0.25) ? (sw_real)(size_b * rnd(0, 0.3)) : 0;
    p->opt.ignore_separating = swt_rng_chance(&rng, 0.2);
}

static double random_offset(void)
{
    const double r = swt_rng_unit(&rng);
    return r < 0.6 ? 0 : (r < 0.85 ? swt_rng_log_range(&rng, 1, 100) : 1e4);
}

static const kind round_kinds[] = {K_POINT, K_SEGMENT, K_SPHERE, K_CAPSULE};
static const kind all_kinds[] = {K_POINT, K_SEGMENT, K_SPHERE, K_CAPSULE, K_BOX, K_TRIANGLE, K_POLYGON, K_HULL};

/* Cases per pair; GJK_SOAK=k runs k times as many with other seeds. */
#define N_ROUND (400 * soak())
#define N_POLY (150 * soak())

static int soak(void)
{
    const char* s = getenv("GJK_SOAK");
    return s && atoi(s) > 0 ? atoi(s) : 1;
}

static void seed(const char* name) { swt_rng_seed(&rng, swt_mix(swt_hash_str(name), (uint64_t)soak())); }

/* Every round shape against every primitive: the exact routines answer. */
static void round_shapes_against_exact_routines(void** state)
{
    (void)state;
    static gpair p;
    seed("gjk round");
    cur_what = "round";
    for (int ia = 0; ia < 4; ++ia) {
        for (int ib = 0; ib < 7; ++ib) {
            for (int i = 0; i < N_ROUND; ++i) {
                cur_case = i;
                make_pair(&p, round_kinds[ia], all_kinds[ib], random_offset());
                check_distance(&p.a.s, &p.b.s);
                check_overlap(&p.a.s, &p.b.s);
                check_sweep(&p.a.s, p.d, &p.b.s, &p.opt);
                if (round_kinds[ia] == K_POINT) {
                    const double max = rnd(0.5, 3);
                    check_raycast(p.a.s.point, sw_scale(p.d, (sw_real)(1 / max)), max, &p.b.s);
                }
            }
        }
    }
}

/* Every other pair: polytopes and hulls in either role. */
static void polytope_pairs_against_references(void** state)
{
    (void)state;
    static gpair p;
    seed("gjk polytope");
    cur_what = "polytope";
    for (int ia = 0; ia < 8; ++ia) {
        for (int ib = 0; ib < 8; ++ib) {
            if (ia < 4 && ib < 7) {
                continue; /* the round pairs above */
            }
            for (int i = 0; i < N_POLY; ++i) {
                cur_case = i;
                make_pair(&p, all_kinds[ia], all_kinds[ib], random_offset());
                check_distance(&p.a.s, &p.b.s);
                check_overlap(&p.a.s, &p.b.s);
                check_sweep(&p.a.s, p.d, &p.b.s, &p.opt);
                p.opt.skin = 0;
                check_sweep(&p.a.s, p.d, &p.b.s, &p.opt);
            }
        }
    }
}

/* A hull of a box's corners, placed like the box, answers as the box. */
static void hull_of_a_box_answers_as_the_box(void** state)
{
    (void)state;
    static gpair p;
    static thull th;
    seed("gjk hull box");
    cur_what = "hull = box";
    for (int i = 0; i < 400 * soak(); ++i) {
        cur_case = i;
        make_pair(&p, round_kinds[i % 4], K_BOX, random_offset());
        if (p.b.s.box.half.z == 0) {
            continue; /* a hull is never flat (SW_HULL_FLAT) */
        }
        sw_vec3 v[8];
        cube_vertices(p.b.s.box.half, v);
        thull_make(&th, v, 8, cube_faces);
        const sw_shape hull = sw_make_hull(&th.h, p.b.s.box.center, p.b.s.box.rotation);
        const double tl = SWT_TOL * pair_scale(&p.a.s, &hull, p.d, p.opt.skin);
        cur_a = &p.a.s, cur_b = &hull, cur_d = p.d, cur_skin = p.opt.skin;
        const sw_hit hb = sw_gjk_sweep(&p.a.s, p.d, &p.b.s, &p.opt), hh = sw_gjk_sweep(&p.a.s, p.d, &hull, &p.opt);
        CHECK(hb.hit == hh.hit && hb.overlapping == hh.overlapping, "box %d/%d, hull %d/%d", hb.hit, hb.overlapping,
              hh.hit, hh.overlapping);
        if (hb.hit) {
            CHECK(fabs(hb.t - hh.t) * dlen(dof(p.d)) <= tl && fabs(hb.depth - hh.depth) <= tl, "t %.9g / %.9g",
                  (double)hb.t, (double)hh.t);
        }
        const sw_distance_result db = sw_gjk_distance(&p.a.s, &p.b.s), dh = sw_gjk_distance(&p.a.s, &hull);
        CHECK(fabs(db.distance - dh.distance) <= tl, "distance %.9g / %.9g", (double)db.distance, (double)dh.distance);
        check_sweep(&p.a.s, p.d, &hull, &p.opt);
        check_distance(&p.a.s, &hull);
        check_overlap(&p.a.s, &hull);
    }
}

/* Hulls from sw_hull_create (quickhull) of random point clouds, against
 * every shape and each other, when the hull module builds them. */
static sw_hull* random_hull(int max_points)
{
    sw_vec3 pts[64];
    const int n = 4 + swt_rng_int(&rng, max_points - 3);
    const double size = swt_rng_log_range(&rng, 0.05, 5);
    const dv stretch = dvv(rnd(0.2, 1), rnd(0.2, 1), rnd(0.2, 1));
    for (int k = 0; k < n; ++k) {
        const dv u = rnd_dir();
        pts[k] = dto(dscale(dvv(u.x * stretch.x, u.y * stretch.y, u.z * stretch.z), size * rnd(0.5, 1)));
    }
    return sw_hull_create(pts, n, NULL);
}

static void hulls_from_point_clouds(void** state)
{
    (void)state;
    static gpair p;
    seed("gjk quickhull");
    cur_what = "quickhull";
    int built = 0;
    for (int i = 0; i < 200 * soak(); ++i) {
        cur_case = i;
        make_pair(&p, all_kinds[i % 8], all_kinds[(i / 8) % 8], random_offset());
        sw_hull* h = random_hull(60);
        sw_hull* h2 = random_hull(60);
        if (!h || !h2) {
            sw_hull_destroy(h);
            sw_hull_destroy(h2);
            continue; /* not built yet, or a flat cloud */
        }
        ++built;
        const sw_aabb box = sw_shape_bounds(&p.b.s);
        const sw_shape hull = sw_make_hull(h, sw_scale(sw_add(box.min, box.max), 0.5f), rnd_quat());
        const sw_aabb abox = sw_shape_bounds(&p.a.s);
        const dv ca = dof(sw_scale(sw_add(abox.min, abox.max), 0.5f));
        const sw_shape hull2 = sw_make_hull(h2, swt_rng_chance(&rng, 0.5) ? dto(ca) : hull.hull.position, rnd_quat());
        check_distance(&p.a.s, &hull);
        check_overlap(&p.a.s, &hull);
        check_sweep(&p.a.s, p.d, &hull, &p.opt);
        check_sweep(&hull, p.d, &p.b.s, &p.opt);
        check_distance(&hull2, &hull);
        check_overlap(&hull2, &hull);
        sw_sweep_options plain = p.opt;
        plain.skin = 0;
        check_sweep(&hull2, p.d, &hull, &plain);
        check_sweep(&hull2, p.d, &hull, &p.opt);
        sw_hull_destroy(h);
        sw_hull_destroy(h2);
    }
    if (built == 0) {
        print_message("gjk: sw_hull_create builds no hull yet; quickhull pairs not run\n");
    }
}

/* The specialised routines where they exist for the pairs above (the
 * separating-axis sweep of polytopes, round shapes against hull cores)
 * against the general methods. */
static void specialised_routines_against_general_methods(void** state)
{
    (void)state;
    static gpair p;
    seed("gjk specialised");
    cur_what = "specialised";
    specialised = true;
    double saved[W_COUNT];
    static char saved_at[W_COUNT][160];
    memcpy(saved, worst, sizeof worst);
    memcpy(saved_at, worst_at, sizeof worst_at);
    memset(worst, 0, sizeof worst);
    for (int ia = 0; ia < 8; ++ia) {
        for (int ib = 0; ib < 8; ++ib) {
            if (ia < 4 && ib < 7) {
                continue; /* the round pairs above */
            }
            for (int i = 0; i < N_POLY; ++i) {
                cur_case = i;
                make_pair(&p, all_kinds[ia], all_kinds[ib], random_offset());
                if (!is_round(&p.b.s)) {
                    p.opt.skin = 0; /* with a skin the dispatcher calls the general cast */
                }
                check_sweep(&p.a.s, p.d, &p.b.s, &p.opt);
                if (is_round(&p.a.s)) {
                    check_distance(&p.a.s, &p.b.s);
                    check_overlap(&p.a.s, &p.b.s);
                }
            }
        }
    }
    specialised = false;
    print_message("gjk (%s) against the specialised routines of polytope and hull pairs, in tol * scale:\n",
                  sw_precision());
    for (int i = 0; i < W_COUNT; ++i) {
        if (worst[i] > 0) {
            print_message("  %-20s %.3g  (%s)\n", w_name[i], worst[i], worst_at[i]);
        }
        if (saved[i] >= worst[i]) {
            worst[i] = saved[i];
            memcpy(worst_at[i], saved_at[i], sizeof worst_at[i]);
        }
    }
}

/* ---- named cases: GJK's classic failure modes ---------------------------------- */

static const sw_quat ID = {0, 0, 0, 1};

/* Terminates, and exactly, at tiny gaps: shapes 1e-6 * scale apart. */
static void tiny_distances(void** state)
{
    (void)state;
    cur_what = "tiny";
    const double gaps[] = {1e-6, 1e-7, 0};
    for (int i = 0; i < 3; ++i) {
        cur_case = i;
        const double g = gaps[i];
        const sw_shape box = sw_make_box(V(0, 0, 0), V(1, 1, 1), ID);
        const sw_shape rot = sw_make_box(V(0, 0, 2 + g), V(1, 1, 1), (sw_quat){0, 0, 0.38268343f, 0.92387953f});
        const sw_shape sph = sw_make_sphere(V(0.3, 0.2, 1.5 + g), 0.5f);
        const sw_shape tri = sw_make_triangle(V(-1, -1, 1 + g), V(2, -1, 1 + g), V(0, 2, 1 + g), false);
        const sw_shape* others[] = {&rot, &sph, &tri};
        for (int k = 0; k < 3; ++k) {
            check_distance(others[k], &box);
            check_overlap(others[k], &box);
            check_sweep(others[k], V(0.1, 0, -1), &box, NULL);
            const sw_distance_result r = sw_gjk_distance(others[k], &box);
            /* The float build rounds the inputs themselves at 6e-8. */
            assert_near(g, r.distance, SWT_TOL * 4);
        }
    }
}

/* Degenerate simplices: support points collinear or coplanar (box face
 * parallel to box face, segment parallel to an edge, coplanar triangles). */
static void degenerate_simplices(void** state)
{
    (void)state;
    cur_what = "degenerate";
    const sw_shape box = sw_make_box(V(0, 0, 0), V(1, 1, 1), ID);
    const sw_shape above = sw_make_box(V(0.5, 0.25, 2.5), V(1, 1, 0.5), ID);
    const sw_distance_result r = sw_gjk_distance(&above, &box);
    assert_near(1, r.distance, SWT_TOL * 4);
    check_distance(&above, &box);
    const sw_hit h = sw_gjk_sweep(&above, V(0, 0, -2), &box, NULL);
    assert_true(h.hit && !h.overlapping);
    assert_near(0.5, h.t, SWT_TOL * 4);
    assert_vec_near(V(0, 0, 1), h.normal, SWT_TOL * 4);
    assert_int_equal(h.feature.kind, SW_FEATURE_FACE);
    assert_int_equal(h.feature.index, 5);
    check_sweep(&above, V(0, 0, -2), &box, NULL);
    /* Deep face-on-face overlap: EPA on a polytope full of coplanar faces. */
    const sw_shape sunk = sw_make_box(V(0.5, 0.25, 1.25), V(1, 1, 0.5), ID);
    const sw_overlap_result o = sw_gjk_overlap(&sunk, &box);
    assert_true(o.overlapping);
    assert_near(0.25, o.depth, SWT_TOL * 4);
    assert_vec_near(V(0, 0, 1), o.normal, SWT_TOL * 4);
    check_overlap(&sunk, &box);
    /* A segment parallel to a box edge; coplanar triangles; a flat box. */
    const sw_shape seg = sw_make_segment(V(-3, 1.5, 1.5), V(3, 1.5, 1.5));
    check_distance(&seg, &box);
    check_sweep(&seg, V(0, -1, -1), &box, NULL);
    const sw_shape t1 = sw_make_triangle(V(0, 0, 0), V(2, 0, 0), V(0, 2, 0), false);
    const sw_shape t2 = sw_make_triangle(V(0.5, 0.5, 0), V(3, 0.5, 0), V(0.5, 3, 0), false);
    check_distance(&t2, &t1);
    check_overlap(&t2, &t1);
    check_sweep(&t2, V(-1, -1, 0), &t1, NULL);
    const sw_shape t3 = sw_make_triangle(V(3, 0, 0), V(5, 0, 0), V(3, 2, 0), false);
    check_sweep(&t3, V(-4, 0.1, 0), &t1, NULL);
    const sw_shape flat = sw_make_box(V(0, 0, 3), V(1, 1, 0), ID);
    check_sweep(&flat, V(0.2, 0.1, -4), &box, NULL);
    check_overlap(&flat, &box);
    /* Every simplex degenerate: two points, a point on a segment. */
    const sw_shape p0 = sw_make_point(V(1, 2, 3)), p1 = sw_make_point(V(1, 2, 3));
    const sw_overlap_result pp = sw_gjk_overlap(&p0, &p1);
    assert_true(pp.overlapping);
    assert_near(0, pp.depth, 0);
    assert_unit(pp.normal);
    const sw_shape s2 = sw_make_segment(V(0, 2, 3), V(2, 2, 3));
    check_overlap(&p0, &s2);
    check_distance(&p0, &s2);
}

/* Cycling: nearly parallel faces, where rounding makes the support point
 * alternate between the ends of a face. */
static void nearly_parallel_faces(void** state)
{
    (void)state;
    cur_what = "parallel";
    for (int i = 0; i < 8; ++i) {
        cur_case = i;
        const double tilt = pow(10.0, -2 - i); /* down to 1e-9 rad */
        const sw_quat q = {0, (sw_real)sin(tilt / 2), 0, (sw_real)cos(tilt / 2)};
        const sw_shape box = sw_make_box(V(0, 0, 0), V(1, 1, 1), ID);
        const sw_shape a = sw_make_box(V(0.3, -0.2, 2.5), V(1.2, 0.7, 0.5), q);
        check_distance(&a, &box);
        check_sweep(&a, V(0.05, 0, -1), &box, NULL);
        check_overlap(&a, &box);
        const sw_shape sunk = sw_make_box(V(0.3, -0.2, 1.3), V(1.2, 0.7, 0.5), q);
        check_overlap(&sunk, &box);
        const sw_shape c = sw_make_capsule(V(-2, 0.3, 1.5), V(2, 0.3, (sw_real)(1.5 + 4 * tilt)), 0.25f);
        check_sweep(&c, V(0, 0, -1), &box, NULL);
        check_distance(&c, &box);
    }
}

/* Exactly touching: distance 0, depth 0, a start in contact. */
static void touching_exactly(void** state)
{
    (void)state;
    cur_what = "touching";
    const sw_shape box = sw_make_box(V(0, 0, 0), V(1, 1, 1), ID);
    const sw_shape on = sw_make_box(V(0.5, 0.5, 2), V(1, 1, 1), ID);
    const sw_shape corner = sw_make_box(V(2, 2, 2), V(1, 1, 1), ID);
    const sw_shape sph = sw_make_sphere(V(0, 0, 2), 1);
    const sw_shape* all[] = {&on, &corner, &sph};
    for (int i = 0; i < 3; ++i) {
        cur_case = i;
        const sw_distance_result r = sw_gjk_distance(all[i], &box);
        assert_near(0, r.distance, SWT_TOL * 4);
        const sw_overlap_result o = sw_gjk_overlap(all[i], &box);
        assert_true(o.overlapping);
        assert_near(0, o.depth, SWT_TOL * 4);
        const sw_hit h = sw_gjk_sweep(all[i], V(0, 0, -1), &box, NULL);
        assert_true(h.hit && h.overlapping);
        assert_near(0, h.depth, SWT_TOL * 4);
        /* Moving away from contact, with ignore_separating: no hit. */
        const sw_sweep_options ign = {0, true};
        assert_miss(sw_gjk_sweep(all[i], V(0, 0, 1), &box, &ign));
        check_overlap(all[i], &box);
        check_distance(all[i], &box);
    }
    const sw_hit slide = sw_gjk_sweep(&on, V(1, 0, 0), &box, NULL);
    assert_true(slide.hit && slide.overlapping);
    assert_vec_near(V(0, 0, 1), slide.normal, SWT_TOL * 4);
}

/* Deep overlap: one shape well inside the other, either way round. */
static void deep_overlap(void** state)
{
    (void)state;
    cur_what = "deep";
    const sw_shape big = sw_make_box(V(0, 0, 0), V(3, 2, 1), (sw_quat){0.1f, 0.2f, 0.3f, 0.9f});
    const sw_shape small = sw_make_box(V(0.1, 0.2, 0.1), V(0.2, 0.3, 0.1), (sw_quat){0.3f, 0.1f, 0.2f, 0.9f});
    const sw_shape sph = sw_make_sphere(V(0.2, 0.1, 0), 0.4f);
    const sw_shape engulf = sw_make_sphere(V(0.2, 0.1, 0), 10);
    const sw_shape cap = sw_make_capsule(V(-0.5, 0, 0), V(0.5, 0.1, 0.1), 0.3f);
    /* Coincident shapes: every support direction ties. */
    const sw_shape twin = big;
    const sw_shape flush = sw_make_box(V(0, 0, 0), V(3, 2, 0.5f), (sw_quat){0.1f, 0.2f, 0.3f, 0.9f});
    const sw_shape* in[] = {&small, &sph, &cap, &engulf, &twin, &flush};
    for (int i = 0; i < 6; ++i) {
        cur_case = i;
        check_overlap(in[i], &big);
        check_overlap(&big, in[i]);
        check_sweep(in[i], V(1, 1, 1), &big, NULL);
        check_distance(in[i], &big);
        const sw_overlap_result o = sw_gjk_overlap(in[i], &big);
        assert_true(o.overlapping && o.depth > 0.1);
    }
    /* The twin box: the shortest push is along its thinnest axis, 2 * 1. */
    assert_near(2, sw_gjk_overlap(&twin, &big).depth, SWT_TOL * 16);
}

/* Zero radius: a capsule of radius 0 is a segment, a sphere of radius 0 a
 * point; the answers match exactly-typed shapes. */
static void zero_radius(void** state)
{
    (void)state;
    cur_what = "zero radius";
    const sw_shape box = sw_make_box(V(0, 0, 0), V(1, 1, 1), (sw_quat){0.2f, 0.1f, 0, 0.97f});
    const sw_shape c0 = sw_make_capsule(V(-1, 2, 3), V(1, 3, 2), 0), s0 = sw_make_segment(V(-1, 2, 3), V(1, 3, 2));
    const sw_shape b0 = sw_make_sphere(V(-1, 2, 3), 0), p0 = sw_make_point(V(-1, 2, 3));
    const sw_vec3 d = V(0.5, -3, -3);
    const sw_hit hc = sw_gjk_sweep(&c0, d, &box, NULL), hs = sw_gjk_sweep(&s0, d, &box, NULL);
    assert_true(hc.hit && hs.hit);
    assert_near(hs.t, hc.t, 0);
    assert_vec_near(hs.normal, hc.normal, 0);
    const sw_hit hb = sw_gjk_sweep(&b0, d, &box, NULL), hp = sw_gjk_sweep(&p0, d, &box, NULL);
    assert_near(hp.t, hb.t, 0);
    check_sweep(&c0, d, &box, NULL);
    check_sweep(&b0, d, &box, NULL);
    check_distance(&c0, &box);
}

/* Large offsets: the same configuration 1e4 from the origin. */
static void large_offsets(void** state)
{
    (void)state;
    cur_what = "offset";
    for (int i = 0; i < 2; ++i) {
        cur_case = i;
        const double o = i ? 1e4 : 0;
        const sw_shape box = sw_make_box(V(o, o, -o), V(1, 1, 1), (sw_quat){0.2f, 0.1f, 0, 0.97f});
        const sw_shape cap = sw_make_capsule(V(o - 1, o + 2, -o + 3), V(o + 1, o + 3, -o + 2), 0.5f);
        const sw_shape hb = sw_make_box(V(o + 0.5, o + 3, -o + 2), V(0.5, 0.25, 1), (sw_quat){0, 0.3f, 0, 0.95f});
        check_sweep(&cap, V(0.5, -3, -3), &box, NULL);
        check_sweep(&hb, V(0, -3, -2), &box, NULL);
        check_distance(&hb, &box);
        check_overlap(&cap, &box);
        const sw_hit h0 = sw_gjk_sweep(&hb, V(0, -3, -2), &box, NULL);
        assert_true(h0.hit);
    }
}

/* Long thin shapes: a needle against a plate and against a needle. */
static void long_thin_shapes(void** state)
{
    (void)state;
    cur_what = "thin";
    const sw_shape plate = sw_make_box(V(0, 0, 0), V(10, 10, 1e-3), ID);
    const sw_shape needle = sw_make_capsule(V(-50, 0.3, 3), V(50, 0.31, 3.001), 1e-3f);
    const sw_shape stick = sw_make_box(V(0.2, 0.1, 5), V(1e-3, 1e-3, 40), (sw_quat){0.01f, 0, 0, 1});
    check_sweep(&needle, V(0, 0, -5), &plate, NULL);
    check_distance(&needle, &plate);
    check_sweep(&stick, V(0, 0, -100), &plate, NULL);
    check_overlap(&stick, &plate);
    const sw_shape n2 = sw_make_segment(V(0, -50, 2), V(0.001, 50, 2));
    check_sweep(&needle, V(0, 0, -2), &n2, NULL);
    check_distance(&needle, &n2);
}

/* One-sided triangles and polygons: front contacts only; a start in
 * contact is ignored; from behind, nothing. */
static void one_sided_faces(void** state)
{
    (void)state;
    cur_what = "one-sided";
    const sw_shape tri = sw_make_triangle(V(-2, -2, 0), V(2, -2, 0), V(0, 2, 0), true);
    const sw_shape box = sw_make_box(V(0, 0, 2), V(0.5, 0.5, 0.5), (sw_quat){0.1f, 0, 0, 0.99f});
    const sw_hit front = sw_gjk_sweep(&box, V(0, 0, -3), &tri, NULL);
    assert_true(front.hit && !front.overlapping);
    assert_vec_near(V(0, 0, 1), front.normal, SWT_TOL * 8);
    const sw_shape below = sw_make_box(V(0, 0, -2), V(0.5, 0.5, 0.5), ID);
    assert_miss(sw_gjk_sweep(&below, V(0, 0, 3), &tri, NULL));
    const sw_shape across = sw_make_sphere(V(0, 0, 0.1), 0.5f);
    assert_miss(sw_gjk_sweep(&across, V(0, 0, -1), &tri, NULL));
    const sw_ray r = {V(0, 0, 5), V(0, 0, -1), 10}, back = {V(0, 0, -5), V(0, 0, 1), 10};
    const sw_hit hr = sw_gjk_raycast(&r, &tri);
    assert_true(hr.hit);
    assert_near(5, hr.t, SWT_TOL * 8);
    assert_miss(sw_gjk_raycast(&back, &tri));
    check_sweep(&across, V(0.3, 0.1, 2), &tri, NULL);
}

/* Options: a skin keeps the gap, ignore_separating drops a start moving
 * away; the initial-overlap answer gives EPA's depth and normal. */
static void options_and_start(void** state)
{
    (void)state;
    cur_what = "options";
    const sw_shape box = sw_make_box(V(0, 0, 0), V(1, 1, 1), ID);
    const sw_shape a = sw_make_box(V(0.5, 0, 3), V(0.5, 0.5, 0.5), ID);
    const sw_sweep_options skin = {0.25f, false};
    const sw_hit h = sw_gjk_sweep(&a, V(0, 0, -2), &box, &skin);
    assert_true(h.hit && !h.overlapping);
    assert_near(1.25 / 2, h.t, SWT_TOL * 4);
    assert_vec_near(V(0, 0, 1), h.normal, SWT_TOL * 4);
    assert_near(1.25, h.point.z, SWT_TOL * 4);
    check_sweep(&a, V(0, 0, -2), &box, &skin);
    /* Starting within the skin: depth = skin - distance. */
    const sw_shape near = sw_make_box(V(0.5, 0, 1.6), V(0.5, 0.5, 0.5), ID);
    const sw_hit s = sw_gjk_sweep(&near, V(0, 0, -1), &box, &skin);
    assert_true(s.hit && s.overlapping);
    assert_near(0.15, s.depth, SWT_TOL * 4);
    const sw_sweep_options both = {0.25f, true};
    assert_miss(sw_gjk_sweep(&near, V(1, 0, 0.5), &box, &both));
    assert_true(sw_gjk_sweep(&near, V(0, 0, -1), &box, &both).hit);
    /* Overlapping at the start: EPA's depth and normal. */
    const sw_shape sunk = sw_make_box(V(0.5, 0, 1.25), V(0.5, 0.5, 0.5), ID);
    const sw_hit o = sw_gjk_sweep(&sunk, V(0, 0, -1), &box, NULL);
    assert_true(o.hit && o.overlapping);
    assert_near(0.25, o.depth, SWT_TOL * 4);
    assert_vec_near(V(0, 0, 1), o.normal, SWT_TOL * 4);
    assert_near(0, o.t, 0);
    check_sweep(&sunk, V(0, 0, -1), &box, NULL);
}

/* Hull features: a sphere onto a hand-built cube hull names the hull's
 * face, edge and vertex numbering. */
static void hull_features(void** state)
{
    (void)state;
    static thull th;
    sw_vec3 v[8];
    cube_vertices(V(1, 1, 1), v);
    thull_make(&th, v, 8, cube_faces);
    const sw_shape hull = sw_make_hull(&th.h, V(0, 0, 0), ID);
    const sw_shape s = sw_make_sphere(V(0.2, 0.1, 3), 0.5f);
    const sw_hit f = sw_gjk_sweep(&s, V(0, 0, -3), &hull, NULL);
    assert_true(f.hit);
    assert_int_equal(f.feature.kind, SW_FEATURE_FACE);
    assert_vec_near(V(0, 0, 1), th.f[f.feature.index].normal, 1e-6);
    const sw_shape e = sw_make_sphere(V(3, 3, 0.2), 0.5f);
    const sw_hit he = sw_gjk_sweep(&e, V(-3, -3, 0), &hull, NULL);
    assert_int_equal(he.feature.kind, SW_FEATURE_EDGE);
    const sw_hull_edge edge = th.e[he.feature.index];
    assert_true((edge.v[0] == 3 && edge.v[1] == 7));
    const sw_shape c = sw_make_sphere(V(3, 3, 3), 0.5f);
    const sw_hit hc = sw_gjk_sweep(&c, V(-3, -3, -3), &hull, NULL);
    assert_int_equal(hc.feature.kind, SW_FEATURE_VERTEX);
    assert_int_equal(hc.feature.index, 7);
    cur_what = "hull features";
    check_sweep(&c, V(-3, -3, -3), &hull, NULL);
}

/* Planes are unbounded: unsupported; bad input is reported. */
static void unsupported_and_invalid(void** state)
{
    (void)state;
    const sw_shape plane = sw_make_plane(V(0, 0, 1), 0), sph = sw_make_sphere(V(0, 0, 2), 1);
    assert_unsupported_hit(sw_gjk_sweep(&sph, V(0, 0, -1), &plane, NULL));
    assert_int_equal(sw_gjk_distance(&sph, &plane).status, SW_UNSUPPORTED);
    assert_int_equal(sw_gjk_overlap(&plane, &sph).status, SW_UNSUPPORTED);
    const sw_ray ray = {V(0, 0, 2), V(0, 0, -1), 1};
    assert_unsupported_hit(sw_gjk_raycast(&ray, &plane));
    swt_reset_asserts();
    assert_invalid_hit(sw_gjk_sweep(&plane, V(0, 0, -1), &sph, NULL));
    swt_reset_asserts();
    const sw_shape bad = sw_make_sphere(V(0, 0, 2), -1);
    assert_invalid_hit(sw_gjk_sweep(&bad, V(0, 0, -1), &sph, NULL));
    swt_reset_asserts();
    assert_invalid_hit(sw_gjk_sweep(&sph, V(0, (sw_real)NAN, -1), &sph, NULL));
    swt_reset_asserts();
    const sw_sweep_options neg = {-1, false};
    assert_invalid_hit(sw_gjk_sweep(&sph, V(0, 0, -1), &sph, &neg));
    swt_reset_asserts();
    assert_int_equal(sw_gjk_distance(&bad, &sph).status, SW_INVALID_INPUT);
    assert_handler_called();
    swt_reset_asserts();
    assert_int_equal(sw_gjk_overlap(&sph, &bad).status, SW_INVALID_INPUT);
    assert_handler_called();
    swt_reset_asserts();
    const sw_ray neg_ray = {V(0, 0, 2), V(0, 0, -1), -1};
    assert_invalid_hit(sw_gjk_raycast(&neg_ray, &sph));
    swt_reset_asserts();
    const sw_shape no_hull = sw_make_hull(NULL, V(0, 0, 0), ID);
    assert_int_equal(sw_gjk_distance(&sph, &no_hull).status, SW_INVALID_INPUT);
}

static void report(void** state)
{
    (void)state;
    print_message("gjk (%s): %ld checks; worst errors in tol * scale:\n", sw_precision(), checks);
    for (int i = 0; i < W_COUNT; ++i) {
        print_message("  %-20s %.3g  (%s)\n", w_name[i], worst[i], worst_at[i]);
    }
    print_message("  normal angle (unique) %.3g rad (%s)\n", worst_angle, worst_angle_at);
    print_message("  the reference's unique normal was off by more than 1e-3 rad, and separated worse, in %ld cases "
                  "(worst %.3g rad, %s)\n",
                  reference_normal_worse, reference_normal_worst, reference_normal_at);
    print_message("  normal angle (unique) %.3g rad; feature differs from the exact routine's in %ld of %ld\n",
                  worst_angle, feature_mismatches, feature_compares);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        swt_test(round_shapes_against_exact_routines),
        swt_test(polytope_pairs_against_references),
        swt_test(hull_of_a_box_answers_as_the_box),
        swt_test(hulls_from_point_clouds),
        swt_test(specialised_routines_against_general_methods),
        swt_test(tiny_distances),
        swt_test(degenerate_simplices),
        swt_test(nearly_parallel_faces),
        swt_test(touching_exactly),
        swt_test(deep_overlap),
        swt_test(zero_radius),
        swt_test(large_offsets),
        swt_test(long_thin_shapes),
        swt_test(one_sided_faces),
        swt_test(options_and_start),
        swt_test(hull_features),
        swt_test(unsupported_and_invalid),
        swt_test(report),
    };
    swt_install_assert_recorder();
    swt_trap_fp();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
