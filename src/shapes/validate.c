/* Validity predicates for every input type. Each test is written with
 * isfinite first, so a NaN fails it without raising FE_INVALID. */
#include "internal.h"

bool sw_is_valid_real(sw_real v) { return sw_internal_real_ok(v); }

bool sw_is_valid_vec3(sw_vec3 v) { return sw_internal_vec3_ok(v); }

/* Inline forms for this file: validation runs on every query. */
#define sw_is_valid_real sw_internal_real_ok
#define sw_is_valid_vec3 sw_internal_vec3_ok
#define valid_radius sw_internal_radius_ok

bool sw_is_valid_quat(sw_quat q)
{
    if (!sw_quat_is_finite(q)) {
        return false;
    }
    /* Compare the largest component with 0 rather than the squared length,
     * which can underflow to 0 for a tiny but usable quaternion. */
    sw_real m = sw_max(sw_max(sw_abs(q.x), sw_abs(q.y)), sw_max(sw_abs(q.z), sw_abs(q.w)));
    return m > 0 && m <= SW_MAX_COORD;
}

bool sw_is_valid_sphere(const sw_sphere* s) { return s && sw_is_valid_vec3(s->center) && valid_radius(s->radius); }

bool sw_is_valid_segment(const sw_segment* s) { return s && sw_is_valid_vec3(s->a) && sw_is_valid_vec3(s->b); }

bool sw_is_valid_capsule(const sw_capsule* c)
{
    return c && sw_is_valid_vec3(c->a) && sw_is_valid_vec3(c->b) && valid_radius(c->radius);
}

bool sw_is_valid_box(const sw_box* b)
{
    return b && sw_is_valid_vec3(b->center) && valid_radius(b->half.x) && valid_radius(b->half.y) &&
           valid_radius(b->half.z) && sw_is_valid_quat(b->rotation);
}

bool sw_is_valid_plane(const sw_plane* p)
{
    sw_vec3 n;
    sw_real offset;
    return p && sw_is_valid_vec3(p->normal) && sw_is_valid_real(p->offset) && sw_internal_plane_unit(p, &n, &offset);
}

bool sw_is_valid_triangle(const sw_triangle* t)
{
    return t && sw_is_valid_vec3(t->v[0]) && sw_is_valid_vec3(t->v[1]) && sw_is_valid_vec3(t->v[2]);
}

/* The vertex after i (no modulo: validation runs on every query, and an
 * integer division costs more than the rest of a turn). */
static int next_vertex(const sw_polygon* p, int i) { return i + 1 < p->count ? i + 1 : 0; }

/* An edge of zero length (a repeated vertex): a - b is zero only when a
 * equals b. */
static bool is_zero(sw_vec3 e) { return e.x == 0 && e.y == 0 && e.z == 0; }

/* Why a polygon is invalid, or NULL. Planarity and convexity are judged
 * within SW_TOLERANCE times the polygon's scale, relative to v[0]. */
static const char* polygon_invalid_reason(const sw_polygon* p)
{
    if (!p || !p->v) {
        return "polygon vertices are missing";
    }
    if (p->count < 3 || p->count > SW_MAX_POLYGON_VERTICES) {
        return "polygon must have 3 to 64 vertices";
    }
    sw_real scale = 0;
    for (int i = 0; i < p->count; ++i) {
        if (!sw_is_valid_vec3(p->v[i])) {
            return "polygon vertices must be finite and within range";
        }
        scale = sw_max(scale, sw_max_abs(p->v[i]));
    }
    sw_vec3 n = sw_internal_polygon_normal(p->v, p->count);
    const sw_real area2 = sw_normalize(&n);
    const sw_real tol = SW_TOLERANCE * scale;
    sw_real ext = 0;
    for (int i = 1; i < p->count; ++i) {
        ext = sw_max(ext, sw_max_abs(sw_sub(p->v[i], p->v[0])));
    }
    if (area2 <= 16 * SW_EPSILON * ext * ext) {
        /* No area: valid only if every vertex is on one line (a bow-tie
         * whose halves cancel has no net area but is not collinear). */
        int far = 0;
        for (int i = 1; i < p->count; ++i) {
            if (sw_length_sq(sw_sub(p->v[i], p->v[0])) > sw_length_sq(sw_sub(p->v[far], p->v[0]))) {
                far = i;
            }
        }
        sw_vec3 dir = sw_sub(p->v[far], p->v[0]);
        if (sw_normalize(&dir) == 0) {
            return NULL; /* every vertex at one point */
        }
        for (int i = 0; i < p->count; ++i) {
            const sw_vec3 off = sw_sub(p->v[i], p->v[0]);
            if (sw_length(sw_madd(off, -sw_dot(off, dir), dir)) > tol) {
                return "polygon is not convex (its vertices wind both ways)";
            }
        }
        return NULL; /* collinear: answered as its edges */
    }
    for (int i = 0; i < p->count; ++i) {
        if (sw_abs(sw_dot(n, sw_sub(p->v[i], p->v[0]))) > tol) {
            return "polygon is not planar";
        }
    }
    /* Convex and simple in O(n): every turn bends the same way as n (within
     * tol), and walking the boundary the direction along a fixed in-plane
     * axis changes sign at most twice, so the polygon winds once (a
     * pentagram turns consistently but reverses four times). */
    const sw_vec3 axis = sw_any_perpendicular(n);
    sw_vec3 e[SW_MAX_POLYGON_VERTICES];
    for (int i = 0; i < p->count; ++i) {
        e[i] = sw_sub(p->v[next_vertex(p, i)], p->v[i]);
    }
    /* Each turn is taken between consecutive edges of non-zero length: a
     * repeated vertex between them would hide the turn (a spike out and
     * back along an edge, beside a turn the wrong way). */
    int first = 0;
    while (is_zero(e[first])) {
        ++first; /* stops: the polygon has area, so some edge is not zero */
    }
    for (int k = 1, prev = first, i = first; k <= p->count; ++k) {
        i = next_vertex(p, i);
        if (is_zero(e[i])) {
            continue;
        }
        const sw_real turn = sw_dot(sw_cross(e[prev], e[i]), n);
        /* The length (a square root) only for a turn the wrong way. */
        if (turn < 0 && turn < -tol * sw_length(e[prev])) {
            return "polygon is not convex (or its vertices are not in boundary order)";
        }
        prev = i;
    }
    /* Along two in-plane axes: a spike out and back along an edge
     * perpendicular to one of them (repeated vertices around it hide its
     * turns) reverses along the other. Along the second, only edges longer
     * than the rounding count. */
    const sw_vec3 axes[2] = {axis, sw_cross(n, axis)};
    for (int k = 0; k < 2; ++k) {
        const sw_real least = k == 0 ? 0 : tol;
        int reversals = 0;
        sw_real last = 0;
        for (int i = 0; i < p->count; ++i) {
            const sw_real along = sw_dot(e[i], axes[k]);
            if (sw_abs(along) > least) {
                reversals += last != 0 && (along > 0) != (last > 0);
                last = along;
            }
        }
        /* Close the loop: compare the last direction with the first. */
        for (int i = 0; i < p->count; ++i) {
            const sw_real along = sw_dot(e[i], axes[k]);
            if (sw_abs(along) > least) {
                reversals += (along > 0) != (last > 0);
                break;
            }
        }
        if (reversals > 2) {
            return "polygon is not convex (its boundary winds more than once)";
        }
    }
    return NULL;
}

bool sw_is_valid_polygon(const sw_polygon* p) { return polygon_invalid_reason(p) == NULL; }

bool sw_is_valid_ray(const sw_ray* r)
{
    if (!r || !sw_is_valid_vec3(r->origin) || !sw_is_valid_vec3(r->dir) || !valid_radius(r->max)) {
        return false;
    }
    /* The query's reach, max * dir, must itself be a valid displacement. */
    sw_real m = sw_max_abs(r->dir);
    return m == 0 || r->max <= SW_MAX_COORD / m;
}

bool sw_is_valid_sweep_options(const sw_sweep_options* o) { return o && valid_radius(o->skin); }

const char* sw_shape_invalid_reason(const sw_shape* s)
{
    if (!s) {
        return "shape is missing";
    }
    switch (s->type) {
    case SW_SHAPE_POINT:
        return sw_is_valid_vec3(s->point) ? NULL : "point coordinates must be finite and within range";
    case SW_SHAPE_SEGMENT:
        return sw_is_valid_segment(&s->segment) ? NULL : "segment end points must be finite and within range";
    case SW_SHAPE_SPHERE:
        if (!sw_is_valid_vec3(s->sphere.center)) {
            return "sphere center must be finite and within range";
        }
        return valid_radius(s->sphere.radius) ? NULL : "sphere radius must be >= 0, finite and within range";
    case SW_SHAPE_CAPSULE:
        if (!sw_is_valid_vec3(s->capsule.a) || !sw_is_valid_vec3(s->capsule.b)) {
            return "capsule end points must be finite and within range";
        }
        return valid_radius(s->capsule.radius) ? NULL : "capsule radius must be >= 0, finite and within range";
    case SW_SHAPE_BOX:
        if (!sw_is_valid_vec3(s->box.center)) {
            return "box center must be finite and within range";
        }
        if (!valid_radius(s->box.half.x) || !valid_radius(s->box.half.y) || !valid_radius(s->box.half.z)) {
            return "box half extents must be >= 0, finite and within range";
        }
        return sw_is_valid_quat(s->box.rotation) ? NULL : "box rotation must be a finite, non-zero quaternion";
    case SW_SHAPE_PLANE:
        if (!sw_is_valid_vec3(s->plane.normal) || !sw_is_valid_real(s->plane.offset)) {
            return "plane normal and offset must be finite and within range";
        }
        if (!(sw_max_abs(s->plane.normal) > 0)) {
            return "plane normal must not be zero";
        }
        return sw_is_valid_plane(&s->plane) ? NULL : "plane offset / |normal| is out of range";
    case SW_SHAPE_TRIANGLE:
        return sw_is_valid_triangle(&s->triangle) ? NULL : "triangle vertices must be finite and within range";
    case SW_SHAPE_POLYGON:
        return polygon_invalid_reason(&s->polygon);
    case SW_SHAPE_HULL:
        if (!s->hull.hull) {
            return "hull is missing";
        }
        if (!sw_is_valid_vec3(s->hull.position) || !sw_is_valid_quat(s->hull.rotation)) {
            return "hull position and rotation must be finite, the rotation non-zero";
        }
        return sw_is_valid_hull_instance(&s->hull) ? NULL : "placed hull vertices are out of range";
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    return "unknown shape type";
}

bool sw_is_valid_hull_instance(const sw_hull_instance* h)
{
    if (!h || !h->hull || !sw_is_valid_vec3(h->position) || !sw_is_valid_quat(h->rotation)) {
        return false;
    }
    /* Every placed vertex lies within radius of the placed centre. */
    sw_quat q = h->rotation;
    sw_quat_normalize(&q);
    const sw_vec3 c = sw_add(sw_quat_rotate(q, h->hull->center), h->position);
    return sw_max_abs(c) + h->hull->radius <= SW_MAX_COORD;
}

bool sw_is_valid_shape(const sw_shape* s) { return sw_shape_invalid_reason(s) == NULL; }
