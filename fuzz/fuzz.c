/* Decoding, reporting and the geometry-free result checks of the fuzz
 * targets (see fuzz.h). */
#include "fuzz.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* sqrt(REAL_MIN) / SW_TOLERANCE: the smallest magnitude decoded outside
 * strict builds (see oracle.h on FZ_SCALE_FLOOR). */
#ifdef SWEEP_DOUBLE
#define FZ_FLUSH (1.4916681462400413e-154L / SW_TOLERANCE)
#else
#define FZ_FLUSH (1.0842021724855044e-19L / SW_TOLERANCE)
#endif

#ifdef SWEEP_DOUBLE
#define FZ_REAL_MIN DBL_MIN
#define FZ_REAL_TRUE_MIN DBL_TRUE_MIN
#define FZ_REAL_MAX DBL_MAX
#define FZ_NEXT_UP(x) nextafter((x), INFINITY)
#else
#define FZ_REAL_MIN FLT_MIN
#define FZ_REAL_TRUE_MIN FLT_TRUE_MIN
#define FZ_REAL_MAX FLT_MAX
#define FZ_NEXT_UP(x) nextafterf((x), INFINITY)
#endif

/* ---- decoding ------------------------------------------------------------ */

/* Values that sit on the library's boundaries: signed zeros, the range
 * limit and the first value past it, subnormals, the non-finite values,
 * the scales of typical scenes and an exact 90-degree quaternion part. */
enum { TABLE_SIZE = 32 };
static sw_real table[TABLE_SIZE];

static void fill_table(void)
{
    const sw_real values[TABLE_SIZE] = {
        0,
        -SW_R(0.0),
        1,
        -1,
        SW_R(0.5),
        2,
        SW_R(1e-3),
        -SW_R(1e-3),
        SW_R(1e3),
        -SW_R(1e3),
        SW_R(1e4),
        -SW_R(1e4),
        SW_EPSILON,
        FZ_REAL_MIN,
        FZ_REAL_TRUE_MIN,
        -FZ_REAL_TRUE_MIN,
        SW_MAX_COORD,
        -SW_MAX_COORD,
        FZ_NEXT_UP(SW_MAX_COORD),
        sw_sqrt(SW_MAX_COORD),
        1 / SW_MAX_COORD,
        FZ_REAL_MAX,
        (sw_real)NAN,
        -(sw_real)NAN,
        (sw_real)INFINITY,
        -(sw_real)INFINITY,
        SW_R(1.0) / 3,
        sw_sqrt(SW_R(0.5)),
        SW_R(1e-7),
        SW_R(1e7),
        SW_R(0.1),
        SW_TOLERANCE,
    };
    memcpy(table, values, sizeof table);
}

/* The hulls built from the current input (shapes a and b at most), freed
 * when the next input begins. */
static sw_hull* live_hulls[2];

/* The points of the hull being checked, if any: while a shape is decoded
 * the describe callback would print the previous input's shapes (and a
 * freed hull), so the failure prints these points instead. */
static const sw_vec3* hull_points;
static int hull_point_count;

void fz_begin(fz_in* in, const uint8_t* data, size_t size)
{
    for (int i = 0; i < 2; ++i) {
        sw_hull_destroy(live_hulls[i]);
        live_hulls[i] = NULL;
    }
    memset(in, 0, sizeof *in);
    in->p = data;
    in->n = size;
    in->raw_extents = (fz_byte(in) & 1) != 0;
}

uint8_t fz_byte(fz_in* in)
{
    if (in->n == 0) {
        return 0;
    }
    --in->n;
    return *in->p++;
}

bool fz_bool(fz_in* in) { return (fz_byte(in) & 1) != 0; }

static int8_t fz_int8(fz_in* in) { return (int8_t)fz_byte(in); }

static int16_t fz_int16(fz_in* in)
{
    const uint16_t lo = fz_byte(in);
    const uint16_t hi = fz_byte(in);
    return (int16_t)(uint16_t)(lo | hi << 8);
}

/* Selector byte: the low 3 bits pick how the value is made, the high 5 bits
 * (arg) parameterise it. Small integers and short fractions dominate, as in
 * hand-written tests, because they make exact contacts likely. */
sw_real fz_real(fz_in* in)
{
    static const sw_real divisors[8] = {3, 5, 6, 7, 9, 10, 100, 1000};
    const uint8_t sel = fz_byte(in);
    const unsigned arg = sel >> 3;
    sw_real v = 0;
    switch (sel & 7) {
    case 0: /* an integer in [-16, 15], no further bytes */
        v = (sw_real)((int)arg - 16);
        break;
    case 1:
        v = fz_int8(in);
        break;
    case 2: /* an exact dyadic fraction */
        v = (sw_real)ldexp(fz_int8(in), -(int)(1 + arg));
        break;
    case 3:
        v = table[arg];
        break;
    case 4: /* k * 10^e, e in [-16, 15]: spreads magnitudes */
        v = (sw_real)(fz_int16(in) * powl(10, (int)arg - 16));
        break;
    case 5: { /* a raw bit pattern */
        uint8_t bytes[sizeof(sw_real)];
        for (size_t i = 0; i < sizeof bytes; ++i) {
            bytes[i] = fz_byte(in);
        }
        memcpy(&v, bytes, sizeof v);
        break;
    }
    case 6: /* a recent value, maybe negated or one ulp up: coincidences */
        v = in->recent[(in->count - 1 - (arg & 7)) & 7];
        if (arg & 8) {
            v = -v;
        }
        if (arg & 16) {
            v = FZ_NEXT_UP(v);
        }
        break;
    default: /* a fraction that no binary format holds exactly */
        v = fz_int8(in) / divisors[arg & 7];
        break;
    }
#ifndef FZ_STRICT
    /* Below FZ_FLUSH squared lengths underflow and §3's purely relative
     * tolerance cannot be met (known finding 1 in README.md): flush to zero
     * unless the strict build asks for it. */
    if (fabsl((long double)v) < FZ_FLUSH) {
        v = 0;
    }
#endif
    in->recent[in->count++ & 7] = v;
    return v;
}

sw_real fz_extent(fz_in* in)
{
    const sw_real v = fz_real(in);
    return in->raw_extents ? v : (sw_real)fabsl(v);
}

sw_vec3 fz_vec3(fz_in* in)
{
    sw_vec3 v;
    v.x = fz_real(in);
    v.y = fz_real(in);
    v.z = fz_real(in);
    return v;
}

sw_quat fz_quat(fz_in* in)
{
    sw_quat q;
    q.x = fz_real(in);
    q.y = fz_real(in);
    q.z = fz_real(in);
    q.w = fz_real(in);
    return q;
}

sw_sphere fz_sphere(fz_in* in)
{
    sw_sphere s;
    s.center = fz_vec3(in);
    s.radius = fz_extent(in);
    return s;
}

sw_box fz_box(fz_in* in)
{
    sw_box b;
    b.center = fz_vec3(in);
    b.half.x = fz_extent(in);
    b.half.y = fz_extent(in);
    b.half.z = fz_extent(in);
    b.rotation = fz_quat(in);
    return b;
}

sw_plane fz_plane(fz_in* in)
{
    sw_plane p;
    p.normal = fz_vec3(in);
    p.offset = fz_real(in);
    return p;
}

sw_triangle fz_triangle(fz_in* in)
{
    sw_triangle t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < 3; ++i) {
        t.v[i] = fz_vec3(in);
    }
    t.one_sided = fz_bool(in);
    return t;
}

sw_polygon fz_polygon(fz_in* in)
{
    static const int counts[16] = {
        3, 3, 4, 4, 5, 6, 7, 8, 12, 16, 32, SW_MAX_POLYGON_VERTICES, 0, 2, 1, SW_MAX_POLYGON_VERTICES + 1};
    sw_polygon p;
    memset(&p, 0, sizeof p);
    const uint8_t how = fz_byte(in);
    p.count = counts[how & 15];
    p.one_sided = (how & 16) != 0;
    sw_vec3* v = in->polygon_vertices[in->polygons++ & 1];
    p.v = (how & 0xe0) == 0xe0 ? NULL : v;
    if (how & 32) {
        for (int i = 0; i < p.count; ++i) {
            v[i] = fz_vec3(in);
        }
        return p;
    }
    const sw_vec3 c = fz_vec3(in), u = fz_vec3(in), w = fz_vec3(in);
    const long double turn = 6.283185307179586476925286766559L;
    for (int i = 0; i < p.count; ++i) {
        const long double a = turn * i / p.count, ca = cosl(a), sa = sinl(a);
        v[i].x = (sw_real)(c.x + ca * u.x + sa * w.x);
        v[i].y = (sw_real)(c.y + ca * u.y + sa * w.y);
        v[i].z = (sw_real)(c.z + ca * u.z + sa * w.z);
    }
    return p;
}

sw_ray fz_ray(fz_in* in)
{
    sw_ray r;
    r.origin = fz_vec3(in);
    r.dir = fz_vec3(in);
    r.max = fz_extent(in);
    return r;
}

/* Whether p is one of the n points, bit for bit. */
static bool is_input_point(sw_vec3 p, const sw_vec3* pts, int n)
{
    for (int i = 0; i < n; ++i) {
        if (memcmp(&p, &pts[i], sizeof p) == 0) {
            return true;
        }
    }
    return false;
}

/* What sw_hull_create promises (hull.h): vertices are input points, every
 * face a polygon of at least three vertices with a unit normal, each edge
 * on two faces, V - E + F = 2, and every input point below every face
 * plane within the tolerance of the hull's extent plus the rounding of
 * the stored plane. */
static void check_hull(const sw_hull* h, const sw_vec3* pts, int n)
{
    const int V = h->vertex_count, E = h->edge_count, F = h->face_count;
    FZ_CHECK(V >= 4 && V <= SW_MAX_HULL_VERTICES && V - E + F == 2, "hull with V %d, E %d, F %d", V, E, F);
    long double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, big = 0;
    for (int i = 0; i < V; ++i) {
        const sw_vec3 v = h->vertices[i];
        FZ_CHECK(is_input_point(v, pts, n), "hull vertex %d is not an input point", i);
        const long double c[3] = {v.x, v.y, v.z};
        for (int k = 0; k < 3; ++k) {
            lo[k] = fminl(lo[k], c[k]);
            hi[k] = fmaxl(hi[k], c[k]);
            big = fmaxl(big, fabsl(c[k]));
        }
    }
    long double half = 0;
    for (int k = 0; k < 3; ++k) {
        half = fmaxl(half, (hi[k] - lo[k]) / 2);
    }
    int corners = 0;
    for (int f = 0; f < F; ++f) {
        const sw_hull_face* face = &h->faces[f];
        FZ_CHECK(face->count >= 3 && face->first >= 0, "hull face %d has %d vertices", f, face->count);
        corners += face->count;
        const long double nn = (long double)face->normal.x * face->normal.x +
                               (long double)face->normal.y * face->normal.y +
                               (long double)face->normal.z * face->normal.z;
        FZ_CHECK(fabsl(sqrtl(nn) - 1) <= FZ_UNIT_TOL, "hull face %d normal of length %Lg", f, sqrtl(nn));
        /* 4 tol for the merges, and the stored normal's rounding across
         * the coordinates' magnitude. */
        const long double slack = 4 * SW_TOLERANCE * half + 16 * SW_EPSILON * big;
        for (int i = 0; i < n; ++i) {
            const long double above = (long double)face->normal.x * pts[i].x + (long double)face->normal.y * pts[i].y +
                                      (long double)face->normal.z * pts[i].z - face->offset;
            FZ_CHECK(above <= slack, "input point %d lies %Lg above hull face %d (allowed %Lg)", i, above, f, slack);
        }
    }
    FZ_CHECK(corners == 2 * E, "hull faces have %d corners for %d edges", corners, E);
    for (int i = 0; i < E; ++i) {
        const sw_hull_edge* e = &h->edges[i];
        FZ_CHECK(e->v[0] >= 0 && e->v[0] < e->v[1] && e->v[1] < V && e->face[0] >= 0 && e->face[0] < F &&
                     e->face[1] >= 0 && e->face[1] < F && e->face[0] != e->face[1],
                 "hull edge %d is %d-%d on faces %d, %d", i, e->v[0], e->v[1], e->face[0], e->face[1]);
    }
}

/* A hull of 4 to 24 decoded points (coincident, coplanar and collinear
 * ones are likely: fz_vec3 favours small integers and repeats), placed by
 * a decoded position and rotation. When the points have no hull (flat,
 * invalid) the instance's hull is NULL, which every query must reject. */
static sw_hull_instance fz_hull(fz_in* in)
{
    sw_vec3 pts[24];
    const int n = 4 + fz_byte(in) % 21;
    bool finite = true;
    for (int i = 0; i < n; ++i) {
        pts[i] = fz_vec3(in);
        finite = finite && isfinite(pts[i].x) && isfinite(pts[i].y) && isfinite(pts[i].z) &&
                 fabsl(pts[i].x) <= SW_MAX_COORD && fabsl(pts[i].y) <= SW_MAX_COORD && fabsl(pts[i].z) <= SW_MAX_COORD;
    }
    sw_hull_error err = SW_HULL_OK;
    sw_hull* h = sw_hull_create(pts, n, &err);
    hull_points = pts;
    hull_point_count = n;
    if (h) {
        FZ_CHECK(err == SW_HULL_OK && finite, "a hull of invalid points (error %d)", (int)err);
        check_hull(h, pts, n);
    } else {
        FZ_CHECK(err == (finite ? SW_HULL_FLAT : SW_HULL_INVALID_POINT) || err == SW_HULL_TOO_MANY_VERTICES ||
                     err == SW_HULL_DEGENERATE,
                 "sw_hull_create failed with \"%s\"", sw_hull_error_string(err));
    }
    hull_points = NULL;
    sw_hull** slot = live_hulls[0] ? &live_hulls[1] : &live_hulls[0];
    if (*slot) {
        /* A third hull in one input, which no target decodes. */
        sw_hull_destroy(h);
        h = NULL;
    } else {
        *slot = h;
    }
    sw_hull_instance inst;
    inst.hull = h;
    inst.position = fz_vec3(in);
    inst.rotation = fz_quat(in);
    return inst;
}

sw_shape fz_shape(fz_in* in)
{
    /* Two extra values: the count itself and a far one, both invalid. */
    const unsigned pick = fz_byte(in) % (SW_SHAPE_TYPE_COUNT + 2);
    return fz_shape_of(in, pick <= SW_SHAPE_TYPE_COUNT ? (sw_shape_type)pick : (sw_shape_type)1000);
}

sw_shape fz_shape_of(fz_in* in, sw_shape_type type)
{
    sw_shape s;
    memset(&s, 0, sizeof s);
    s.type = type;
    switch (type) {
    case SW_SHAPE_POINT:
        s.point = fz_vec3(in);
        break;
    case SW_SHAPE_SEGMENT:
        s.segment.a = fz_vec3(in);
        s.segment.b = fz_vec3(in);
        break;
    case SW_SHAPE_SPHERE:
        s.sphere = fz_sphere(in);
        break;
    case SW_SHAPE_CAPSULE:
        s.capsule.a = fz_vec3(in);
        s.capsule.b = fz_vec3(in);
        s.capsule.radius = fz_extent(in);
        break;
    case SW_SHAPE_BOX:
        s.box = fz_box(in);
        break;
    case SW_SHAPE_PLANE:
        s.plane = fz_plane(in);
        break;
    case SW_SHAPE_TRIANGLE:
        s.triangle = fz_triangle(in);
        break;
    case SW_SHAPE_POLYGON:
        s.polygon = fz_polygon(in);
        break;
    case SW_SHAPE_HULL:
        s.hull = fz_hull(in);
        break;
    default:
        /* A type this file does not know yet stays zero-filled: the library
         * must still reject or answer it without crashing. */
        break;
    }
    return s;
}

const sw_sweep_options* fz_options(fz_in* in, sw_sweep_options* storage)
{
    const uint8_t b = fz_byte(in);
    if (b & 1) {
        return NULL;
    }
    memset(storage, 0, sizeof *storage);
    storage->skin = (b & 2) ? fz_extent(in) : 0;
    storage->ignore_separating = (b & 4) != 0;
    return storage;
}

/* ---- reporting ----------------------------------------------------------- */

static fz_describe_fn* describe_input;
static int assert_calls;

/* Returns so that the query finishes with its invalid-input result, which
 * the checks then inspect; the count says whether it was called. */
static void count_assert(const char* what, const char* file, int line)
{
    (void)what;
    (void)file;
    (void)line;
    ++assert_calls;
}

void fz_init(fz_describe_fn* describe)
{
    describe_input = describe;
    fill_table();
    sw_set_assert_handler(count_assert);
    const char* expected = sizeof(sw_real) == sizeof(double) ? "double" : "float";
    if (strcmp(sw_precision(), expected) != 0) {
        fprintf(stderr, "sweep fuzz: library built for %s, target for %s\n", sw_precision(), expected);
        abort();
    }
}

_Noreturn void fz_fail(const char* file, int line, const char* fmt, ...)
{
    fprintf(stderr, "\nsweep fuzz [%s]: invariant violated at %s:%d\n  ", sw_precision(), file, line);
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fprintf(stderr, "\ninput:\n");
    if (hull_points) {
        fprintf(stderr, "  sw_hull_create of %d points\n", hull_point_count);
        for (int i = 0; i < hull_point_count; ++i) {
            char name[16];
            snprintf(name, sizeof name, "p%d", i);
            fz_print_vec3(stderr, name, hull_points[i]);
        }
    } else if (describe_input) {
        describe_input(stderr);
    }
    fflush(stderr);
    abort();
}

void fz_print_real(FILE* out, const char* name, sw_real v)
{
    fprintf(out, "  %s = %.17g (%a)\n", name, (double)v, (double)v);
}

void fz_print_vec3(FILE* out, const char* name, sw_vec3 v)
{
    fprintf(out, "  %s = [%.17g, %.17g, %.17g] ([%a, %a, %a])\n", name, (double)v.x, (double)v.y, (double)v.z,
            (double)v.x, (double)v.y, (double)v.z);
}

void fz_print_shape(FILE* out, const char* name, const sw_shape* s)
{
    fprintf(out, "  %s: %s (type %d)\n", name, sw_shape_type_name(s->type), (int)s->type);
    switch (s->type) {
    case SW_SHAPE_POINT:
        fz_print_vec3(out, "  p", s->point);
        break;
    case SW_SHAPE_SEGMENT:
        fz_print_vec3(out, "  a", s->segment.a);
        fz_print_vec3(out, "  b", s->segment.b);
        break;
    case SW_SHAPE_SPHERE:
        fz_print_vec3(out, "  center", s->sphere.center);
        fz_print_real(out, "  radius", s->sphere.radius);
        break;
    case SW_SHAPE_CAPSULE:
        fz_print_vec3(out, "  a", s->capsule.a);
        fz_print_vec3(out, "  b", s->capsule.b);
        fz_print_real(out, "  radius", s->capsule.radius);
        break;
    case SW_SHAPE_BOX:
        fz_print_vec3(out, "  center", s->box.center);
        fz_print_vec3(out, "  half", s->box.half);
        fprintf(out, "    rotation = [%.17g, %.17g, %.17g, %.17g]\n", (double)s->box.rotation.x,
                (double)s->box.rotation.y, (double)s->box.rotation.z, (double)s->box.rotation.w);
        break;
    case SW_SHAPE_PLANE:
        fz_print_vec3(out, "  normal", s->plane.normal);
        fz_print_real(out, "  offset", s->plane.offset);
        break;
    case SW_SHAPE_TRIANGLE:
        fz_print_vec3(out, "  v0", s->triangle.v[0]);
        fz_print_vec3(out, "  v1", s->triangle.v[1]);
        fz_print_vec3(out, "  v2", s->triangle.v[2]);
        fprintf(out, "    one_sided = %d\n", (int)s->triangle.one_sided);
        break;
    case SW_SHAPE_POLYGON:
        fprintf(out, "    count = %d, one_sided = %d%s\n", s->polygon.count, (int)s->polygon.one_sided,
                s->polygon.v ? "" : ", v = NULL");
        for (int i = 0; s->polygon.v && i < s->polygon.count; ++i) {
            char name[16];
            snprintf(name, sizeof name, "  v%d", i);
            fz_print_vec3(out, name, s->polygon.v[i]);
        }
        break;
    case SW_SHAPE_HULL:
        if (!s->hull.hull) {
            fprintf(out, "    hull = NULL\n");
        }
        for (int i = 0; s->hull.hull && i < s->hull.hull->vertex_count; ++i) {
            char name[16];
            snprintf(name, sizeof name, "  v%d", i);
            fz_print_vec3(out, name, s->hull.hull->vertices[i]);
        }
        fz_print_vec3(out, "  position", s->hull.position);
        fprintf(out, "    rotation = [%.17g, %.17g, %.17g, %.17g]\n", (double)s->hull.rotation.x,
                (double)s->hull.rotation.y, (double)s->hull.rotation.z, (double)s->hull.rotation.w);
        break;
    default:
        break;
    }
}

void fz_print_options(FILE* out, const sw_sweep_options* opt)
{
    if (!opt) {
        fprintf(out, "  options: NULL\n");
        return;
    }
    fprintf(out, "  options: skin = %.17g (%a), ignore_separating = %d\n", (double)opt->skin, (double)opt->skin,
            (int)opt->ignore_separating);
}

void fz_print_hit(FILE* out, const char* name, const sw_hit* h)
{
    fprintf(out, "  %s: status %s, hit %d, overlapping %d, feature %d/%d\n", name, sw_status_name(h->status),
            (int)h->hit, (int)h->overlapping, (int)h->feature.kind, h->feature.index);
    fz_print_real(out, "  t", h->t);
    fz_print_real(out, "  depth", h->depth);
    fz_print_vec3(out, "  point", h->point);
    fz_print_vec3(out, "  normal", h->normal);
}

void fz_print_overlap(FILE* out, const char* name, const sw_overlap_result* r)
{
    fprintf(out, "  %s: status %s, overlapping %d\n", name, sw_status_name(r->status), (int)r->overlapping);
    fz_print_real(out, "  depth", r->depth);
    fz_print_vec3(out, "  normal", r->normal);
    fz_print_vec3(out, "  point", r->point);
}

void fz_print_distance(FILE* out, const char* name, const sw_distance_result* r)
{
    fprintf(out, "  %s: status %s\n", name, sw_status_name(r->status));
    fz_print_real(out, "  distance", r->distance);
    fz_print_vec3(out, "  point_a", r->point_a);
    fz_print_vec3(out, "  point_b", r->point_b);
}

/* ---- checks independent of geometry -------------------------------------- */

void fz_begin_query(void) { assert_calls = 0; }

/* Invalid input must reach the handler (when the library was built to call
 * it); valid input never. */
static void check_asserts(bool valid)
{
    if (valid) {
        FZ_CHECK(assert_calls == 0, "the assert handler was called %d times on valid input", assert_calls);
    }
#if defined(FZ_LIBRARY_ASSERTS) && FZ_LIBRARY_ASSERTS
    else {
        FZ_CHECK(assert_calls > 0, "invalid input did not reach the assert handler");
    }
#endif
}

static bool vec3_is_zero(sw_vec3 v) { return v.x == 0 && v.y == 0 && v.z == 0; }

static bool vec3_is_finite(sw_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static long double length_ld(sw_vec3 v)
{
    const long double x = v.x, y = v.y, z = v.z;
    return sqrtl(x * x + y * y + z * z);
}

static bool is_unit(sw_vec3 n) { return vec3_is_finite(n) && fabsl(length_ld(n) - 1) <= FZ_UNIT_TOL; }

static bool hit_is_zero(const sw_hit* h)
{
    return !h->hit && !h->overlapping && h->t == 0 && h->depth == 0 && vec3_is_zero(h->point) &&
           vec3_is_zero(h->normal) && h->feature.kind == SW_FEATURE_NONE && h->feature.index == 0;
}

/* The status an input must get, checked; returns true when the result
 * carries an answer (status SW_OK). */
static bool check_status(sw_status got, bool valid, bool supported)
{
    const sw_status want = !valid ? SW_INVALID_INPUT : (!supported ? SW_UNSUPPORTED : SW_OK);
    FZ_CHECK(got == want, "status %s (%d), expected %s (valid %d, supported %d)", sw_status_name(got), (int)got,
             sw_status_name(want), (int)valid, (int)supported);
    return got == SW_OK;
}

void fz_check_hit(const sw_hit* h, bool valid, bool supported, sw_real tmax)
{
    check_asserts(valid);
    if (!check_status(h->status, valid, supported) || !h->hit) {
        FZ_CHECK(hit_is_zero(h), "a %s result with hit = %d has non-zero fields", sw_status_name(h->status),
                 (int)h->hit);
        return;
    }
    FZ_CHECK(isfinite(h->t) && h->t >= 0 && h->t <= tmax, "t = %.17g outside [0, %.17g]", (double)h->t, (double)tmax);
    FZ_CHECK(isfinite(h->depth) && h->depth >= 0, "depth = %.17g", (double)h->depth);
    FZ_CHECK(vec3_is_finite(h->point), "non-finite point");
    FZ_CHECK(is_unit(h->normal), "normal [%.17g, %.17g, %.17g] is not unit (|n| - 1 = %Lg)", (double)h->normal.x,
             (double)h->normal.y, (double)h->normal.z, length_ld(h->normal) - 1);
    FZ_CHECK(!h->overlapping || h->t == 0, "overlapping with t = %.17g", (double)h->t);
    FZ_CHECK(h->overlapping || h->depth == 0, "a contact at t > 0 with depth %.17g", (double)h->depth);
    FZ_CHECK(h->feature.kind >= SW_FEATURE_NONE && h->feature.kind <= SW_FEATURE_FACE && h->feature.index >= 0 &&
                 (h->feature.kind != SW_FEATURE_NONE || h->feature.index == 0),
             "feature %d/%d", (int)h->feature.kind, h->feature.index);
}

void fz_check_overlap(const sw_overlap_result* r, bool valid, bool supported)
{
    check_asserts(valid);
    if (!check_status(r->status, valid, supported) || !r->overlapping) {
        FZ_CHECK(!r->overlapping && r->depth == 0 && vec3_is_zero(r->normal) && vec3_is_zero(r->point),
                 "a %s overlap result with overlapping = %d has non-zero fields", sw_status_name(r->status),
                 (int)r->overlapping);
        return;
    }
    FZ_CHECK(isfinite(r->depth) && r->depth >= 0, "depth = %.17g", (double)r->depth);
    FZ_CHECK(vec3_is_finite(r->point), "non-finite point");
    FZ_CHECK(is_unit(r->normal), "normal [%.17g, %.17g, %.17g] is not unit", (double)r->normal.x, (double)r->normal.y,
             (double)r->normal.z);
}

void fz_check_distance(const sw_distance_result* r, bool valid, bool supported)
{
    check_asserts(valid);
    if (!check_status(r->status, valid, supported)) {
        FZ_CHECK(r->distance == 0 && vec3_is_zero(r->point_a) && vec3_is_zero(r->point_b),
                 "a %s distance result has non-zero fields", sw_status_name(r->status));
        return;
    }
    FZ_CHECK(isfinite(r->distance) && r->distance >= 0, "distance = %.17g", (double)r->distance);
    FZ_CHECK(vec3_is_finite(r->point_a) && vec3_is_finite(r->point_b), "non-finite closest points");
    FZ_CHECK(r->distance > 0 ||
                 (r->point_a.x == r->point_b.x && r->point_a.y == r->point_b.y && r->point_a.z == r->point_b.z),
             "distance 0 with different points");
}
