/* Fuzz target: ray casts, directly against each static shape
 * (sw_raycast_sphere, _capsule, _plane, _triangle, _polygon, _box), through
 * sw_raycast_shape and through the dispatcher (sw_raycast), with shapes of
 * every type. Balls are checked against the long-double ball cast, every
 * shape against its long-double distance along the ray (oracle.h).
 *
 * Input: header, entry point selector, ray (origin, dir, max), then the
 * shape (of the entry's type, any type for the general forms). */
#include <math.h>

#include "fuzz.h"
#include "oracle.h"

enum { ANY = SW_SHAPE_TYPE_COUNT };

typedef enum entry { SPHERE, CAPSULE, PLANE, TRIANGLE, POLYGON, BOX, SHAPE, DISPATCH, ENTRY_COUNT } entry;

static const struct {
    const char* name;
    int b; /* a shape type, or ANY */
} entries[ENTRY_COUNT] = {
    {"sw_raycast_sphere", SW_SHAPE_SPHERE},
    {"sw_raycast_capsule", SW_SHAPE_CAPSULE},
    {"sw_raycast_plane", SW_SHAPE_PLANE},
    {"sw_raycast_triangle", SW_SHAPE_TRIANGLE},
    {"sw_raycast_polygon", SW_SHAPE_POLYGON},
    {"sw_raycast_box", SW_SHAPE_BOX},
    {"sw_raycast_shape", ANY},
    {"sw_raycast", ANY},
};

static struct {
    entry entry;
    sw_ray ray;
    sw_shape b;
    sw_hit hit;
} cur;

static void describe(FILE* out)
{
    fprintf(out, "  %s\n", entries[cur.entry].name);
    fz_print_vec3(out, "ray.origin", cur.ray.origin);
    fz_print_vec3(out, "ray.dir", cur.ray.dir);
    fz_print_real(out, "ray.max", cur.ray.max);
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

/* Whatever B is, a hit point lies on the ray at t. */
static void check_on_ray(const sw_ray* ray, const sw_shape* b, const sw_hit* h)
{
    long double scale = fz_scale_shape(fz_scale_vec3(0, ray->origin), b);
    for (int k = 0; k < 3; ++k) {
        const long double dk = k == 0 ? ray->dir.x : (k == 1 ? ray->dir.y : ray->dir.z);
        scale = fmaxl(scale, fabsl(dk * ray->max));
    }
    const long double tol = fz_tol(scale);
    const long double t = h->t;
    const long double ex = ray->origin.x + t * ray->dir.x - h->point.x;
    const long double ey = ray->origin.y + t * ray->dir.y - h->point.y;
    const long double ez = ray->origin.z + t * ray->dir.z - h->point.z;
    const long double off = sqrtl(ex * ex + ey * ey + ez * ez);
    FZ_CHECK(off <= FZ_SLACK * tol, "the hit point is %Lg from origin + t * dir (tol %Lg)", off, tol);
}

static sw_hit call(void)
{
    const sw_ray* r = &cur.ray;
    const sw_shape* b = &cur.b;
    switch (cur.entry) {
    case SPHERE:
        return sw_raycast_sphere(r, &b->sphere);
    case CAPSULE:
        return sw_raycast_capsule(r, &b->capsule);
    case PLANE:
        return sw_raycast_plane(r, &b->plane);
    case TRIANGLE:
        return sw_raycast_triangle(r, &b->triangle);
    case POLYGON:
        return sw_raycast_polygon(r, &b->polygon);
    case BOX:
        return sw_raycast_box(r, &b->box);
    case SHAPE:
        return sw_raycast_shape(r, b);
    default:
        return sw_raycast(r, b);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fz_in in;
    fz_begin(&in, data, size);
    cur.entry = (entry)(fz_byte(&in) % ENTRY_COUNT);
    cur.ray = fz_ray(&in);
    const int tb = entries[cur.entry].b;
    cur.b = tb == ANY ? fz_shape(&in) : fz_shape_of(&in, (sw_shape_type)tb);

    const bool valid = sw_is_valid_ray(&cur.ray) && sw_is_valid_shape(&cur.b);
    const bool supported = cur.entry != DISPATCH || sw_raycast_supported(cur.b.type);
    fz_begin_query();
    cur.hit = call();
    fz_check_hit(&cur.hit, valid, supported, valid ? cur.ray.max : 0);
    if (!valid || !supported) {
        return 0;
    }
    if (cur.hit.hit) {
        check_on_ray(&cur.ray, &cur.b, &cur.hit);
    }
    if (cur.b.type == SW_SHAPE_POINT || cur.b.type == SW_SHAPE_SPHERE) {
        const bool point = cur.b.type == SW_SHAPE_POINT;
        const fz_ball_cast cast = {
            .c0 = cur.ray.origin,
            .v = cur.ray.dir,
            .tmax = cur.ray.max,
            .cb = point ? cur.b.point : cur.b.sphere.center,
            .rb = point ? 0 : cur.b.sphere.radius,
        };
        fz_check_ball_cast(&cast, &cur.hit);
    }
    fz_check_raycast_shape(&cur.ray, &cur.b, &cur.hit);
    return 0;
}
