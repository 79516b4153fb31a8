/* Fuzz target: overlap (penetration depth) and distance queries: every
 * sw_overlap_* and sw_distance_* entry point (a round shape against each
 * static shape, and the _shape forms against any), the dispatcher's
 * sw_overlap and sw_distance over shapes of every type (and their mirrored
 * pair, which must agree), and the closest-point kernels. Results are
 * checked against long-double closest points and distances (oracle.h).
 *
 * Input: header, entry point selector, shape a, shape b (types fixed by
 * the entry point, any type for the general forms). */
#include <math.h>

#include "fuzz.h"
#include "oracle.h"

typedef enum entry {
    OVERLAP_POINT_SPHERE,
    OVERLAP_SPHERE_SPHERE,
    OVERLAP_SEGMENT_SPHERE,
    OVERLAP_CAPSULE_CAPSULE,
    DISTANCE_POINT_SEGMENT,
    DISTANCE_SEGMENT_SEGMENT,
    DISTANCE_SPHERE_SPHERE,
    DISTANCE_SEGMENT_SPHERE,
    DISTANCE_CAPSULE_CAPSULE,
    OVERLAP_CAPSULE_PLANE,
    OVERLAP_CAPSULE_TRIANGLE,
    OVERLAP_CAPSULE_POLYGON,
    OVERLAP_CAPSULE_BOX,
    OVERLAP_CAPSULE_SHAPE,
    DISTANCE_CAPSULE_PLANE,
    DISTANCE_CAPSULE_TRIANGLE,
    DISTANCE_CAPSULE_POLYGON,
    DISTANCE_CAPSULE_BOX,
    DISTANCE_CAPSULE_SHAPE,
    OVERLAP_DISPATCH,
    DISTANCE_DISPATCH,
    CLOSEST_POINT_SEGMENT,
    CLOSEST_POINTS_SEGMENTS,
    ENTRY_COUNT
} entry;

static const struct {
    const char* name;
    sw_shape_type a, b; /* SW_SHAPE_TYPE_COUNT: any type */
} entries[ENTRY_COUNT] = {
    {"sw_overlap_point_sphere", SW_SHAPE_POINT, SW_SHAPE_SPHERE},
    {"sw_overlap_sphere_sphere", SW_SHAPE_SPHERE, SW_SHAPE_SPHERE},
    {"sw_overlap_segment_sphere", SW_SHAPE_SEGMENT, SW_SHAPE_SPHERE},
    {"sw_overlap_capsule_capsule", SW_SHAPE_CAPSULE, SW_SHAPE_CAPSULE},
    {"sw_distance_point_segment", SW_SHAPE_POINT, SW_SHAPE_SEGMENT},
    {"sw_distance_segment_segment", SW_SHAPE_SEGMENT, SW_SHAPE_SEGMENT},
    {"sw_distance_sphere_sphere", SW_SHAPE_SPHERE, SW_SHAPE_SPHERE},
    {"sw_distance_segment_sphere", SW_SHAPE_SEGMENT, SW_SHAPE_SPHERE},
    {"sw_distance_capsule_capsule", SW_SHAPE_CAPSULE, SW_SHAPE_CAPSULE},
    {"sw_overlap_capsule_plane", SW_SHAPE_CAPSULE, SW_SHAPE_PLANE},
    {"sw_overlap_capsule_triangle", SW_SHAPE_CAPSULE, SW_SHAPE_TRIANGLE},
    {"sw_overlap_capsule_polygon", SW_SHAPE_CAPSULE, SW_SHAPE_POLYGON},
    {"sw_overlap_capsule_box", SW_SHAPE_CAPSULE, SW_SHAPE_BOX},
    {"sw_overlap_capsule_shape", SW_SHAPE_CAPSULE, SW_SHAPE_TYPE_COUNT},
    {"sw_distance_capsule_plane", SW_SHAPE_CAPSULE, SW_SHAPE_PLANE},
    {"sw_distance_capsule_triangle", SW_SHAPE_CAPSULE, SW_SHAPE_TRIANGLE},
    {"sw_distance_capsule_polygon", SW_SHAPE_CAPSULE, SW_SHAPE_POLYGON},
    {"sw_distance_capsule_box", SW_SHAPE_CAPSULE, SW_SHAPE_BOX},
    {"sw_distance_capsule_shape", SW_SHAPE_CAPSULE, SW_SHAPE_TYPE_COUNT},
    {"sw_overlap", SW_SHAPE_TYPE_COUNT, SW_SHAPE_TYPE_COUNT},
    {"sw_distance", SW_SHAPE_TYPE_COUNT, SW_SHAPE_TYPE_COUNT},
    {"sw_closest_point_segment", SW_SHAPE_POINT, SW_SHAPE_SEGMENT},
    {"sw_closest_points_segments", SW_SHAPE_SEGMENT, SW_SHAPE_SEGMENT},
};

static struct {
    entry entry;
    sw_shape a, b;
    sw_overlap_result overlap, overlap_mirror;
    sw_distance_result distance, distance_mirror;
} cur;

static void describe(FILE* out)
{
    fprintf(out, "  %s\n", entries[cur.entry].name);
    fz_print_shape(out, "a", &cur.a);
    fz_print_shape(out, "b", &cur.b);
    switch (cur.entry) {
    case OVERLAP_DISPATCH:
        fz_print_overlap(out, "overlap(b, a)", &cur.overlap_mirror);
        /* fall through */
    case OVERLAP_POINT_SPHERE:
    case OVERLAP_SPHERE_SPHERE:
    case OVERLAP_SEGMENT_SPHERE:
    case OVERLAP_CAPSULE_CAPSULE:
    case OVERLAP_CAPSULE_PLANE:
    case OVERLAP_CAPSULE_TRIANGLE:
    case OVERLAP_CAPSULE_POLYGON:
    case OVERLAP_CAPSULE_BOX:
    case OVERLAP_CAPSULE_SHAPE:
        fz_print_overlap(out, "result", &cur.overlap);
        break;
    case DISTANCE_DISPATCH:
        fz_print_distance(out, "distance(b, a)", &cur.distance_mirror);
        /* fall through */
    case DISTANCE_POINT_SEGMENT:
    case DISTANCE_SEGMENT_SEGMENT:
    case DISTANCE_SPHERE_SPHERE:
    case DISTANCE_SEGMENT_SPHERE:
    case DISTANCE_CAPSULE_CAPSULE:
    case DISTANCE_CAPSULE_PLANE:
    case DISTANCE_CAPSULE_TRIANGLE:
    case DISTANCE_CAPSULE_POLYGON:
    case DISTANCE_CAPSULE_BOX:
    case DISTANCE_CAPSULE_SHAPE:
        fz_print_distance(out, "result", &cur.distance);
        break;
    default:
        break; /* the closest-point kernels report their values in the message */
    }
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    (void)argc;
    (void)argv;
    fz_init(describe);
    return 0;
}

static long double pair_tol(void) { return fz_tol(fz_scale_shape(fz_scale_shape(0, &cur.a), &cur.b)); }

/* The oracles take the round shape first: a mirrored pair is checked as
 * (b, a) with the normal reversed (or the closest points swapped). */
static void check_overlap(const sw_shape* a, const sw_shape* b, const sw_overlap_result* r, bool valid, bool supported)
{
    fz_check_overlap(r, valid, supported);
    if (!valid || !supported) {
        return;
    }
    sw_capsule ca, cb;
    const bool round_a = fz_as_capsule(a, &ca), round_b = fz_as_capsule(b, &cb);
    if (round_a && round_b) {
        fz_check_overlap_capsules(&ca, &cb, r);
    }
    if (round_a) {
        fz_check_overlap_round(&ca, b, r);
    } else if (round_b) {
        sw_overlap_result m = *r;
        m.normal = sw_neg(m.normal);
        fz_check_overlap_round(&cb, a, &m);
    }
}

static void check_distance(const sw_shape* a, const sw_shape* b, const sw_distance_result* r, bool valid,
                           bool supported)
{
    fz_check_distance(r, valid, supported);
    if (!valid || !supported) {
        return;
    }
    sw_capsule ca, cb;
    const bool round_a = fz_as_capsule(a, &ca), round_b = fz_as_capsule(b, &cb);
    if (round_a && round_b) {
        fz_check_distance_capsules(&ca, &cb, r);
    }
    if (round_a) {
        fz_check_distance_round(&ca, b, r);
    } else if (round_b) {
        sw_distance_result m = *r;
        m.point_a = r->point_b;
        m.point_b = r->point_a;
        fz_check_distance_round(&cb, a, &m);
    }
}

/* (a, b) and (b, a) describe the same configuration: the same depth (or
 * distance) up to the tolerance of each answer, whatever the shapes. */
static void check_mirrored_overlap(void)
{
    const sw_overlap_result *r = &cur.overlap, *m = &cur.overlap_mirror;
    if (r->status != SW_OK || m->status != SW_OK) {
        FZ_CHECK(r->status == m->status, "overlap(a, b) is %s, overlap(b, a) %s", sw_status_name(r->status),
                 sw_status_name(m->status));
        return;
    }
    const long double tol = pair_tol(), slack = FZ_SLACK * tol;
    const long double d1 = r->overlapping ? r->depth : 0, d2 = m->overlapping ? m->depth : 0;
    FZ_CHECK(r->overlapping == m->overlapping || fmaxl(d1, d2) <= FZ_BAND * tol,
             "overlap(a, b) = %d with depth %.17Lg but overlap(b, a) = %d with depth %.17Lg (tol %Lg)",
             (int)r->overlapping, d1, (int)m->overlapping, d2, tol);
    FZ_CHECK(fabsl(d1 - d2) <= 2 * slack, "depths %.17Lg and %.17Lg of the mirrored pair differ (tol %Lg)", d1, d2,
             tol);
}

static void check_mirrored_distance(void)
{
    const sw_distance_result *r = &cur.distance, *m = &cur.distance_mirror;
    if (r->status != SW_OK || m->status != SW_OK) {
        FZ_CHECK(r->status == m->status, "distance(a, b) is %s, distance(b, a) %s", sw_status_name(r->status),
                 sw_status_name(m->status));
        return;
    }
    const long double tol = pair_tol();
    FZ_CHECK(fabsl((long double)r->distance - m->distance) <= 2 * FZ_SLACK * tol,
             "distances %.17g and %.17g of the mirrored pair differ (tol %Lg)", (double)r->distance,
             (double)m->distance, tol);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fz_in in;
    fz_begin(&in, data, size);
    cur.entry = (entry)(fz_byte(&in) % ENTRY_COUNT);
    const sw_shape_type ta = entries[cur.entry].a, tb = entries[cur.entry].b;
    cur.a = ta == SW_SHAPE_TYPE_COUNT ? fz_shape(&in) : fz_shape_of(&in, ta);
    cur.b = tb == SW_SHAPE_TYPE_COUNT ? fz_shape(&in) : fz_shape_of(&in, tb);
    const sw_shape *a = &cur.a, *b = &cur.b;
    const bool valid = sw_is_valid_shape(a) && sw_is_valid_shape(b);

    fz_begin_query();
    switch (cur.entry) {
    case OVERLAP_POINT_SPHERE:
        cur.overlap = sw_overlap_point_sphere(a->point, &b->sphere);
        break;
    case OVERLAP_SPHERE_SPHERE:
        cur.overlap = sw_overlap_sphere_sphere(&a->sphere, &b->sphere);
        break;
    case OVERLAP_SEGMENT_SPHERE:
        cur.overlap = sw_overlap_segment_sphere(&a->segment, &b->sphere);
        break;
    case OVERLAP_CAPSULE_CAPSULE:
        cur.overlap = sw_overlap_capsule_capsule(&a->capsule, &b->capsule);
        break;
    case DISTANCE_POINT_SEGMENT:
        cur.distance = sw_distance_point_segment(a->point, &b->segment);
        break;
    case DISTANCE_SEGMENT_SEGMENT:
        cur.distance = sw_distance_segment_segment(&a->segment, &b->segment);
        break;
    case DISTANCE_SPHERE_SPHERE:
        cur.distance = sw_distance_sphere_sphere(&a->sphere, &b->sphere);
        break;
    case DISTANCE_SEGMENT_SPHERE:
        cur.distance = sw_distance_segment_sphere(&a->segment, &b->sphere);
        break;
    case DISTANCE_CAPSULE_CAPSULE:
        cur.distance = sw_distance_capsule_capsule(&a->capsule, &b->capsule);
        break;
    case OVERLAP_CAPSULE_PLANE:
        cur.overlap = sw_overlap_capsule_plane(&a->capsule, &b->plane);
        break;
    case OVERLAP_CAPSULE_TRIANGLE:
        cur.overlap = sw_overlap_capsule_triangle(&a->capsule, &b->triangle);
        break;
    case OVERLAP_CAPSULE_POLYGON:
        cur.overlap = sw_overlap_capsule_polygon(&a->capsule, &b->polygon);
        break;
    case OVERLAP_CAPSULE_BOX:
        cur.overlap = sw_overlap_capsule_box(&a->capsule, &b->box);
        break;
    case OVERLAP_CAPSULE_SHAPE:
        cur.overlap = sw_overlap_capsule_shape(&a->capsule, b);
        break;
    case DISTANCE_CAPSULE_PLANE:
        cur.distance = sw_distance_capsule_plane(&a->capsule, &b->plane);
        break;
    case DISTANCE_CAPSULE_TRIANGLE:
        cur.distance = sw_distance_capsule_triangle(&a->capsule, &b->triangle);
        break;
    case DISTANCE_CAPSULE_POLYGON:
        cur.distance = sw_distance_capsule_polygon(&a->capsule, &b->polygon);
        break;
    case DISTANCE_CAPSULE_BOX:
        cur.distance = sw_distance_capsule_box(&a->capsule, &b->box);
        break;
    case DISTANCE_CAPSULE_SHAPE:
        cur.distance = sw_distance_capsule_shape(&a->capsule, b);
        break;
    case OVERLAP_DISPATCH:
        cur.overlap = sw_overlap(a, b);
        check_overlap(a, b, &cur.overlap, valid, sw_overlap_supported(a->type, b->type));
        fz_begin_query();
        cur.overlap_mirror = sw_overlap(b, a);
        check_overlap(b, a, &cur.overlap_mirror, valid, sw_overlap_supported(b->type, a->type));
        check_mirrored_overlap();
        return 0;
    case DISTANCE_DISPATCH:
        cur.distance = sw_distance(a, b);
        check_distance(a, b, &cur.distance, valid, sw_distance_supported(a->type, b->type));
        fz_begin_query();
        cur.distance_mirror = sw_distance(b, a);
        check_distance(b, a, &cur.distance_mirror, valid, sw_distance_supported(b->type, a->type));
        check_mirrored_distance();
        return 0;
    case CLOSEST_POINT_SEGMENT:
        /* These kernels have no invalid-input result: valid input only. */
        if (valid) {
            sw_real u = -1;
            const sw_vec3 q = sw_closest_point_segment(a->point, &b->segment, &u);
            fz_check_closest_point_segment(a->point, &b->segment, q, u);
        }
        return 0;
    default:
        if (valid) {
            sw_vec3 ca, cb;
            const sw_real dist_sq = sw_closest_points_segments(&a->segment, &b->segment, &ca, &cb);
            fz_check_closest_points_segments(&a->segment, &b->segment, ca, cb, dist_sq);
        }
        return 0;
    }
    if (cur.entry <= OVERLAP_CAPSULE_CAPSULE ||
        (cur.entry >= OVERLAP_CAPSULE_PLANE && cur.entry <= OVERLAP_CAPSULE_SHAPE)) {
        check_overlap(a, b, &cur.overlap, valid, true);
    } else {
        check_distance(a, b, &cur.distance, valid, true);
    }
    return 0;
}
