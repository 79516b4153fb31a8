/* Shape constructors, names, bounds and support functions. */
#include "internal.h"
#include "shapes/mesh_data.h"

sw_shape sw_make_point(sw_vec3 p)
{
    sw_shape s = {.type = SW_SHAPE_POINT, .point = p};
    return s;
}

sw_shape sw_make_segment(sw_vec3 a, sw_vec3 b)
{
    sw_shape s = {.type = SW_SHAPE_SEGMENT, .segment = {a, b}};
    return s;
}

sw_shape sw_make_sphere(sw_vec3 center, sw_real radius)
{
    sw_shape s = {.type = SW_SHAPE_SPHERE, .sphere = {center, radius}};
    return s;
}

sw_shape sw_make_capsule(sw_vec3 a, sw_vec3 b, sw_real radius)
{
    sw_shape s = {.type = SW_SHAPE_CAPSULE, .capsule = {a, b, radius}};
    return s;
}

sw_shape sw_make_box(sw_vec3 center, sw_vec3 half, sw_quat rotation)
{
    sw_shape s = {.type = SW_SHAPE_BOX, .box = {center, half, rotation}};
    return s;
}

sw_shape sw_make_plane(sw_vec3 normal, sw_real offset)
{
    sw_shape s = {.type = SW_SHAPE_PLANE, .plane = {normal, offset}};
    return s;
}

sw_shape sw_make_triangle(sw_vec3 v0, sw_vec3 v1, sw_vec3 v2, bool one_sided)
{
    sw_shape s = {.type = SW_SHAPE_TRIANGLE, .triangle = {{v0, v1, v2}, one_sided}};
    return s;
}

sw_shape sw_make_polygon(const sw_vec3* v, int count, bool one_sided)
{
    sw_shape s = {.type = SW_SHAPE_POLYGON, .polygon = {.v = v, .count = count, .one_sided = one_sided}};
    return s;
}

sw_shape sw_make_hull(const sw_hull* hull, sw_vec3 position, sw_quat rotation)
{
    sw_shape s = {.type = SW_SHAPE_HULL, .hull = {hull, position, rotation}};
    return s;
}

sw_shape sw_make_mesh(const sw_mesh* mesh, sw_vec3 position, sw_quat rotation, bool one_sided)
{
    sw_shape s = {.type = SW_SHAPE_MESH, .mesh = {mesh, position, rotation, one_sided}};
    return s;
}

const char* sw_shape_type_name(sw_shape_type type)
{
    static const char* const names[SW_SHAPE_TYPE_COUNT] = {"point", "segment",  "sphere",  "capsule", "box",
                                                           "plane", "triangle", "polygon", "hull", "mesh"};
    return (unsigned)type < SW_SHAPE_TYPE_COUNT ? names[type] : "?";
}

/* The columns of q's rotation: sw_quat_rotate of the unit vectors with the
 * products by 0 and 1 left out, the rest in its order, so that the axes
 * rounded to sw_real (sw_box_axes) are the same numbers (but for the sign
 * of a zero) at a third of the cost. This runs on every box query. */
void sw_internal_box_axes(const sw_box* b, sw_dvec axes[3])
{
    /* The rotation of the quaternion as given, with s = 2 / |q|^2 in place
     * of normalising it (no square root), in double: float components'
     * squares fit it as they are; a double build's quaternion is first
     * scaled by its largest component, so that |q|^2 is in [1, 4]. */
    double x = b->rotation.x, y = b->rotation.y, z = b->rotation.z, w = b->rotation.w;
#ifdef SWEEP_DOUBLE
    double m = sw_dmax(sw_dmax(fabs(x), fabs(y)), sw_dmax(fabs(z), fabs(w)));
    if (m > 0 && m < 0x1p-900) {
        /* Tiny components (subnormal ones too): 1 / m would overflow to
         * infinity and the axes become NaN, so scale by a power of two
         * first, which is exact. */
        x *= 0x1p900, y *= 0x1p900, z *= 0x1p900, w *= 0x1p900, m *= 0x1p900;
    }
    const double inv = m > 0 ? 1 / m : 0;
    x *= inv;
    y *= inv;
    z *= inv;
    w *= inv;
#endif
    const double qq = x * x + y * y + z * z + w * w;
    const double s = qq > 0 ? 2 / qq : 0; /* a zero quaternion: the identity */
    const double xs = x * s, ys = y * s, zs = z * s;
    const double wx = w * xs, wy = w * ys, wz = w * zs;
    const double xx = x * xs, xy = x * ys, xz = x * zs, yy = y * ys, yz = y * zs, zz = z * zs;
    axes[0] = (sw_dvec){1 - (yy + zz), xy + wz, xz - wy};
    axes[1] = (sw_dvec){xy - wz, 1 - (xx + zz), yz + wx};
    axes[2] = (sw_dvec){xz + wy, yz - wx, 1 - (xx + yy)};
}

void sw_box_axes(const sw_box* b, sw_vec3 axes[3])
{
    sw_dvec u[3];
    sw_internal_box_axes(b, u);
    for (int k = 0; k < 3; ++k) {
        axes[k] = sw_v3((sw_real)u[k].x, (sw_real)u[k].y, (sw_real)u[k].z);
    }
}

static sw_aabb aabb_of_segment(sw_vec3 a, sw_vec3 b, sw_real r)
{
    sw_vec3 rr = sw_v3(r, r, r);
    sw_aabb box = {sw_sub(sw_vmin(a, b), rr), sw_add(sw_vmax(a, b), rr)};
    return box;
}

static sw_aabb points_bounds(const sw_vec3* v, int count)
{
    sw_aabb box = {v[0], v[0]};
    for (int i = 1; i < count; ++i) {
        box.min = sw_vmin(box.min, v[i]);
        box.max = sw_vmax(box.max, v[i]);
    }
    return box;
}

static sw_vec3 points_support(const sw_vec3* v, int count, sw_vec3 dir)
{
    int best = 0;
    sw_real best_dot = sw_dot(v[0], dir);
    for (int i = 1; i < count; ++i) {
        sw_real dd = sw_dot(v[i], dir);
        if (dd > best_dot) {
            best = i;
            best_dot = dd;
        }
    }
    return v[best];
}

sw_aabb sw_shape_bounds(const sw_shape* s)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        return aabb_of_segment(s->point, s->point, 0);
    case SW_SHAPE_SEGMENT:
        return aabb_of_segment(s->segment.a, s->segment.b, 0);
    case SW_SHAPE_SPHERE:
        return aabb_of_segment(s->sphere.center, s->sphere.center, s->sphere.radius);
    case SW_SHAPE_CAPSULE:
        return aabb_of_segment(s->capsule.a, s->capsule.b, s->capsule.radius);
    case SW_SHAPE_BOX: {
        sw_vec3 ax[3];
        sw_box_axes(&s->box, ax);
        const sw_vec3 h = s->box.half;
        /* Extent along world axis k: sum over box axes of |axis_k| * half. */
        sw_vec3 e = sw_v3(sw_abs(ax[0].x) * h.x + sw_abs(ax[1].x) * h.y + sw_abs(ax[2].x) * h.z,
                          sw_abs(ax[0].y) * h.x + sw_abs(ax[1].y) * h.y + sw_abs(ax[2].y) * h.z,
                          sw_abs(ax[0].z) * h.x + sw_abs(ax[1].z) * h.y + sw_abs(ax[2].z) * h.z);
        sw_aabb box = {sw_sub(s->box.center, e), sw_add(s->box.center, e)};
        return box;
    }
    case SW_SHAPE_PLANE: {
        sw_vec3 m = sw_v3(SW_MAX_COORD, SW_MAX_COORD, SW_MAX_COORD);
        sw_aabb all = {sw_neg(m), m};
        return all;
    }
    case SW_SHAPE_TRIANGLE:
        return points_bounds(s->triangle.v, 3);
    case SW_SHAPE_POLYGON:
        return points_bounds(s->polygon.v, s->polygon.count);
    case SW_SHAPE_HULL: {
        const sw_hull_instance* h = &s->hull;
        sw_quat q = h->rotation;
        sw_quat_normalize(&q);
        sw_aabb box = {{SW_MAX_COORD, SW_MAX_COORD, SW_MAX_COORD}, {-SW_MAX_COORD, -SW_MAX_COORD, -SW_MAX_COORD}};
        for (int i = 0; i < h->hull->vertex_count; ++i) {
            const sw_vec3 p = sw_add(sw_quat_rotate(q, h->hull->vertices[i]), h->position);
            box.min = sw_vmin(box.min, p);
            box.max = sw_vmax(box.max, p);
        }
        return box;
    }
    case SW_SHAPE_MESH:
        return sw_internal_mesh_bounds(&s->mesh);
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    sw_aabb none = {{0, 0, 0}, {0, 0, 0}};
    return none;
}

/* Support of a segment inflated by r along dir. */
static sw_vec3 support_segment(sw_vec3 a, sw_vec3 b, sw_real r, sw_vec3 dir)
{
    sw_vec3 p = sw_dot(sw_sub(b, a), dir) > 0 ? b : a;
    sw_vec3 n = dir;
    if (r > 0 && sw_normalize(&n) > 0) {
        p = sw_madd(p, r, n);
    }
    return p;
}

sw_vec3 sw_shape_support(const sw_shape* s, sw_vec3 dir)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        return s->point;
    case SW_SHAPE_SEGMENT:
        return support_segment(s->segment.a, s->segment.b, 0, dir);
    case SW_SHAPE_SPHERE:
        return support_segment(s->sphere.center, s->sphere.center, s->sphere.radius, dir);
    case SW_SHAPE_CAPSULE:
        return support_segment(s->capsule.a, s->capsule.b, s->capsule.radius, dir);
    case SW_SHAPE_BOX: {
        sw_vec3 ax[3];
        sw_box_axes(&s->box, ax);
        const sw_real h[3] = {s->box.half.x, s->box.half.y, s->box.half.z};
        sw_vec3 p = s->box.center;
        for (int k = 0; k < 3; ++k) {
            sw_real side = sw_dot(ax[k], dir);
            if (side != 0) {
                p = sw_madd(p, side > 0 ? h[k] : -h[k], ax[k]);
            }
        }
        return p;
    }
    case SW_SHAPE_PLANE: {
        sw_vec3 n;
        sw_real offset;
        (void)dir;
        return sw_internal_plane_unit(&s->plane, &n, &offset) ? sw_scale(n, offset) : sw_v3(0, 0, 0);
    }
    case SW_SHAPE_TRIANGLE:
        return points_support(s->triangle.v, 3, dir);
    case SW_SHAPE_POLYGON:
        return points_support(s->polygon.v, s->polygon.count, dir);
    case SW_SHAPE_HULL: {
        const sw_hull_instance* h = &s->hull;
        sw_quat q = h->rotation;
        sw_quat_normalize(&q);
        const sw_vec3 p = points_support(h->hull->vertices, h->hull->vertex_count, sw_quat_inv_rotate(q, dir));
        return sw_add(sw_quat_rotate(q, p), h->position);
    }
    case SW_SHAPE_MESH:
        return sw_internal_mesh_support(&s->mesh, dir);
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    return sw_v3(0, 0, 0);
}
