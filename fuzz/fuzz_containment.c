/* Fuzz target: containment sweeps of a sphere inside a sphere or a rotated
 * box, directly and through sw_sweep_inside with shapes of any type.
 *
 * Input: header, entry point selector, then sphere a, displacement d and
 * the container (sphere, box or any shape; a is any shape for dispatch). */
#include "fuzz.h"
#include "oracle.h"

enum { INSIDE_SPHERE, INSIDE_BOX, DISPATCH, ENTRY_COUNT };

static struct {
    int entry;
    sw_shape a, b;
    sw_vec3 d;
    sw_hit hit;
} cur;

static void describe(FILE* out)
{
    static const char* const names[ENTRY_COUNT] = {"sw_sweep_sphere_inside_sphere", "sw_sweep_sphere_inside_box",
                                                   "sw_sweep_inside"};
    fprintf(out, "  %s\n", names[cur.entry]);
    fz_print_shape(out, "a", &cur.a);
    fz_print_vec3(out, "d", cur.d);
    fz_print_shape(out, "b", &cur.b);
    fz_print_hit(out, "result", &cur.hit);
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    (void)argc;
    (void)argv;
    fz_init(describe);
    return 0;
}

static bool as_sphere(const sw_shape* s, sw_sphere* out)
{
    if (s->type == SW_SHAPE_POINT) {
        out->center = s->point;
        out->radius = 0;
        return true;
    }
    if (s->type == SW_SHAPE_SPHERE) {
        *out = s->sphere;
        return true;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fz_in in;
    fz_begin(&in, data, size);
    cur.entry = fz_byte(&in) % ENTRY_COUNT;
    if (cur.entry == DISPATCH) {
        cur.a = fz_shape(&in);
    } else {
        sw_sphere s = fz_sphere(&in);
        cur.a = sw_make_sphere(s.center, s.radius);
    }
    cur.d = fz_vec3(&in);
    if (cur.entry == INSIDE_SPHERE) {
        sw_sphere s = fz_sphere(&in);
        cur.b = sw_make_sphere(s.center, s.radius);
    } else if (cur.entry == INSIDE_BOX) {
        sw_box b = fz_box(&in);
        cur.b = sw_make_box(b.center, b.half, b.rotation);
    } else {
        cur.b = fz_shape(&in);
    }

    const bool valid = sw_is_valid_shape(&cur.a) && sw_is_valid_vec3(cur.d) && sw_is_valid_shape(&cur.b);
    const bool supported = cur.entry != DISPATCH || sw_sweep_inside_supported(cur.a.type, cur.b.type);
    fz_begin_query();
    switch (cur.entry) {
    case INSIDE_SPHERE:
        cur.hit = sw_sweep_sphere_inside_sphere(&cur.a.sphere, cur.d, &cur.b.sphere);
        break;
    case INSIDE_BOX:
        cur.hit = sw_sweep_sphere_inside_box(&cur.a.sphere, cur.d, &cur.b.box);
        break;
    default:
        cur.hit = sw_sweep_inside(&cur.a, cur.d, &cur.b);
        break;
    }
    fz_check_hit(&cur.hit, valid, supported, 1);
    sw_sphere a;
    if (!valid || !supported || !as_sphere(&cur.a, &a)) {
        return 0;
    }
    if (cur.b.type == SW_SHAPE_SPHERE) {
        fz_check_inside_sphere(&a, cur.d, &cur.b.sphere, &cur.hit);
    } else if (cur.b.type == SW_SHAPE_BOX) {
        fz_check_inside_box(&a, cur.d, &cur.b.box, &cur.hit);
    }
    return 0;
}
