/* Fuzz target: the sweeps of the round shapes with options: sphere against
 * sphere and point, two moving spheres, and every entry point of
 * capsule_sweep.h (sphere, capsule and segment against each static shape,
 * and sw_sweep_capsule_shape against any). Ball pairs are checked against
 * the long-double ball cast, every pair against the long-double distance
 * to B over A's path (oracle.h).
 *
 * Input: header, entry point selector, shape a (of the entry's type),
 * displacement d, shape b, b's displacement (moving spheres only) and the
 * options. */
#include "fuzz.h"
#include "oracle.h"

enum { ANY = SW_SHAPE_TYPE_COUNT };

typedef enum entry {
    SPHERE_SPHERE,
    SPHERE_POINT,
    MOVING_SPHERES,
    SPHERE_SEGMENT,
    SPHERE_CAPSULE,
    SPHERE_PLANE,
    SPHERE_TRIANGLE,
    SPHERE_POLYGON,
    SPHERE_BOX,
    CAPSULE_POINT,
    CAPSULE_SEGMENT,
    CAPSULE_SPHERE,
    CAPSULE_CAPSULE,
    CAPSULE_PLANE,
    CAPSULE_TRIANGLE,
    CAPSULE_POLYGON,
    CAPSULE_BOX,
    SEGMENT_SEGMENT,
    SEGMENT_TRIANGLE,
    SEGMENT_POLYGON,
    SEGMENT_BOX,
    CAPSULE_SHAPE,
    ENTRY_COUNT
} entry;

static const struct {
    const char* name;
    sw_shape_type a;
    int b; /* a shape type, or ANY */
} entries[ENTRY_COUNT] = {
    {"sw_sweep_sphere_sphere", SW_SHAPE_SPHERE, SW_SHAPE_SPHERE},
    {"sw_sweep_sphere_point", SW_SHAPE_SPHERE, SW_SHAPE_POINT},
    {"sw_sweep_moving_spheres", SW_SHAPE_SPHERE, SW_SHAPE_SPHERE},
    {"sw_sweep_sphere_segment", SW_SHAPE_SPHERE, SW_SHAPE_SEGMENT},
    {"sw_sweep_sphere_capsule", SW_SHAPE_SPHERE, SW_SHAPE_CAPSULE},
    {"sw_sweep_sphere_plane", SW_SHAPE_SPHERE, SW_SHAPE_PLANE},
    {"sw_sweep_sphere_triangle", SW_SHAPE_SPHERE, SW_SHAPE_TRIANGLE},
    {"sw_sweep_sphere_polygon", SW_SHAPE_SPHERE, SW_SHAPE_POLYGON},
    {"sw_sweep_sphere_box", SW_SHAPE_SPHERE, SW_SHAPE_BOX},
    {"sw_sweep_capsule_point", SW_SHAPE_CAPSULE, SW_SHAPE_POINT},
    {"sw_sweep_capsule_segment", SW_SHAPE_CAPSULE, SW_SHAPE_SEGMENT},
    {"sw_sweep_capsule_sphere", SW_SHAPE_CAPSULE, SW_SHAPE_SPHERE},
    {"sw_sweep_capsule_capsule", SW_SHAPE_CAPSULE, SW_SHAPE_CAPSULE},
    {"sw_sweep_capsule_plane", SW_SHAPE_CAPSULE, SW_SHAPE_PLANE},
    {"sw_sweep_capsule_triangle", SW_SHAPE_CAPSULE, SW_SHAPE_TRIANGLE},
    {"sw_sweep_capsule_polygon", SW_SHAPE_CAPSULE, SW_SHAPE_POLYGON},
    {"sw_sweep_capsule_box", SW_SHAPE_CAPSULE, SW_SHAPE_BOX},
    {"sw_sweep_segment_segment", SW_SHAPE_SEGMENT, SW_SHAPE_SEGMENT},
    {"sw_sweep_segment_triangle", SW_SHAPE_SEGMENT, SW_SHAPE_TRIANGLE},
    {"sw_sweep_segment_polygon", SW_SHAPE_SEGMENT, SW_SHAPE_POLYGON},
    {"sw_sweep_segment_box", SW_SHAPE_SEGMENT, SW_SHAPE_BOX},
    {"sw_sweep_capsule_shape", SW_SHAPE_CAPSULE, ANY},
};

static struct {
    entry entry;
    sw_shape a, b;
    sw_vec3 d, db;
    sw_sweep_options opt_storage;
    const sw_sweep_options* opt;
    sw_hit hit;
} cur;

static void describe(FILE* out)
{
    fprintf(out, "  %s\n", entries[cur.entry].name);
    fz_print_shape(out, "a", &cur.a);
    fz_print_vec3(out, "d", cur.d);
    fz_print_shape(out, "b", &cur.b);
    if (cur.entry == MOVING_SPHERES) {
        fz_print_vec3(out, "db", cur.db);
    }
    fz_print_options(out, cur.opt);
    fz_print_hit(out, "result", &cur.hit);
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    (void)argc;
    (void)argv;
    fz_init(describe);
    return 0;
}

static sw_hit call(void)
{
    const sw_shape *a = &cur.a, *b = &cur.b;
    const sw_vec3 d = cur.d;
    const sw_sweep_options* o = cur.opt;
    switch (cur.entry) {
    case SPHERE_SPHERE:
        return sw_sweep_sphere_sphere(&a->sphere, d, &b->sphere, o);
    case SPHERE_POINT:
        return sw_sweep_sphere_point(&a->sphere, d, b->point, o);
    case MOVING_SPHERES:
        return sw_sweep_moving_spheres(&a->sphere, d, &b->sphere, cur.db, o);
    case SPHERE_SEGMENT:
        return sw_sweep_sphere_segment(&a->sphere, d, &b->segment, o);
    case SPHERE_CAPSULE:
        return sw_sweep_sphere_capsule(&a->sphere, d, &b->capsule, o);
    case SPHERE_PLANE:
        return sw_sweep_sphere_plane(&a->sphere, d, &b->plane, o);
    case SPHERE_TRIANGLE:
        return sw_sweep_sphere_triangle(&a->sphere, d, &b->triangle, o);
    case SPHERE_POLYGON:
        return sw_sweep_sphere_polygon(&a->sphere, d, &b->polygon, o);
    case SPHERE_BOX:
        return sw_sweep_sphere_box(&a->sphere, d, &b->box, o);
    case CAPSULE_POINT:
        return sw_sweep_capsule_point(&a->capsule, d, b->point, o);
    case CAPSULE_SEGMENT:
        return sw_sweep_capsule_segment(&a->capsule, d, &b->segment, o);
    case CAPSULE_SPHERE:
        return sw_sweep_capsule_sphere(&a->capsule, d, &b->sphere, o);
    case CAPSULE_CAPSULE:
        return sw_sweep_capsule_capsule(&a->capsule, d, &b->capsule, o);
    case CAPSULE_PLANE:
        return sw_sweep_capsule_plane(&a->capsule, d, &b->plane, o);
    case CAPSULE_TRIANGLE:
        return sw_sweep_capsule_triangle(&a->capsule, d, &b->triangle, o);
    case CAPSULE_POLYGON:
        return sw_sweep_capsule_polygon(&a->capsule, d, &b->polygon, o);
    case CAPSULE_BOX:
        return sw_sweep_capsule_box(&a->capsule, d, &b->box, o);
    case SEGMENT_SEGMENT:
        return sw_sweep_segment_segment(&a->segment, d, &b->segment, o);
    case SEGMENT_TRIANGLE:
        return sw_sweep_segment_triangle(&a->segment, d, &b->triangle, o);
    case SEGMENT_POLYGON:
        return sw_sweep_segment_polygon(&a->segment, d, &b->polygon, o);
    case SEGMENT_BOX:
        return sw_sweep_segment_box(&a->segment, d, &b->box, o);
    default:
        return sw_sweep_capsule_shape(&a->capsule, d, b, o);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fz_in in;
    fz_begin(&in, data, size);
    cur.entry = (entry)(fz_byte(&in) % ENTRY_COUNT);
    cur.a = fz_shape_of(&in, entries[cur.entry].a);
    cur.d = fz_vec3(&in);
    const int tb = entries[cur.entry].b;
    cur.b = tb == ANY ? fz_shape(&in) : fz_shape_of(&in, (sw_shape_type)tb);
    cur.db = cur.entry == MOVING_SPHERES ? fz_vec3(&in) : sw_v3(0, 0, 0);
    cur.opt = fz_options(&in, &cur.opt_storage);

    /* Known finding 2: a relative displacement d - db beyond SW_MAX_COORD turns valid
     * input into SW_INVALID_INPUT. */
    if (cur.entry == MOVING_SPHERES && FZ_KNOWN(!sw_is_valid_vec3(sw_sub(cur.d, cur.db)))) {
        return 0;
    }
    const bool valid = sw_is_valid_shape(&cur.a) && sw_is_valid_vec3(cur.d) && sw_is_valid_shape(&cur.b) &&
                       sw_is_valid_vec3(cur.db) && (!cur.opt || sw_is_valid_sweep_options(cur.opt));
    fz_begin_query();
    cur.hit = call();
    fz_check_hit(&cur.hit, valid, true, 1);
    if (!valid) {
        return 0;
    }
    const sw_real skin = cur.opt ? cur.opt->skin : 0;
    const bool ignore = cur.opt && cur.opt->ignore_separating;
    if (cur.b.type == SW_SHAPE_POINT || (cur.a.type == SW_SHAPE_SPHERE && cur.b.type == SW_SHAPE_SPHERE)) {
        sw_capsule ca, cb;
        fz_as_capsule(&cur.a, &ca);
        fz_as_capsule(&cur.b, &cb);
        if (ca.a.x == ca.b.x && ca.a.y == ca.b.y && ca.a.z == ca.b.z) {
            /* Relative motion: A moves by d - db against B at rest; points
             * come back in world space at time t. */
            const fz_ball_cast cast = {
                .c0 = ca.a,
                .v = sw_sub(cur.d, cur.db),
                .tmax = 1,
                .ra = ca.radius,
                .cb = cb.a,
                .rb = cb.radius,
                .vb = cur.db,
                .skin = skin,
                .ignore_separating = ignore,
            };
            fz_check_ball_cast(&cast, &cur.hit);
        }
    }
    if (cur.entry != MOVING_SPHERES) {
        sw_capsule ca;
        fz_as_capsule(&cur.a, &ca);
        fz_check_round_sweep(&ca, cur.d, &cur.b, cur.opt, &cur.hit);
    }
    return 0;
}
