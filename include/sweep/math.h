/* sweep — math layer: vectors, quaternions, rigid transforms and robust
 * scalar helpers, all in sw_real. Small types are passed and returned by
 * value; every operation here is inline except the quadratic solver. */
#ifndef SWEEP_MATH_H
#define SWEEP_MATH_H

#include <math.h>
#include <stdbool.h>

#include "sweep/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_vec3 {
    sw_real x, y, z;
} sw_vec3;

/* Rotation quaternion [x, y, z, w] (w is the scalar part). */
typedef struct sw_quat {
    sw_real x, y, z, w;
} sw_quat;

/* Rigid transform: x -> rotate(q, x) + p. `q` must be unit length. */
typedef struct sw_xform {
    sw_quat q;
    sw_vec3 p;
} sw_xform;

/* ---- scalars ------------------------------------------------------------ */

static inline sw_real sw_abs(sw_real a)
{
#ifdef SWEEP_DOUBLE
    return fabs(a);
#else
    return fabsf(a);
#endif
}
static inline sw_real sw_min(sw_real a, sw_real b) { return a < b ? a : b; }
static inline sw_real sw_max(sw_real a, sw_real b) { return a > b ? a : b; }
static inline sw_real sw_clamp(sw_real a, sw_real lo, sw_real hi) { return a < lo ? lo : (a > hi ? hi : a); }
static inline sw_real sw_sqrt(sw_real a)
{
#ifdef SWEEP_DOUBLE
    return sqrt(a);
#else
    return sqrtf(a);
#endif
}
/* True when a is neither NaN nor infinite. Classification raises no
 * floating-point exception, unlike an ordered comparison with a NaN. */
static inline bool sw_is_finite(sw_real a) { return isfinite(a) != 0; }

/* Real roots of a*t^2 + b*t + c = 0, in ascending order.
 * Uses the stable form q = -(b + sign(b) sqrt(b^2 - 4ac)) / 2, roots q/a and
 * c/q, so neither root suffers cancellation. Degenerate cases: a = 0 is
 * solved as the linear equation b*t + c = 0 (one root); a = b = 0 has no
 * isolated root (returns 0 roots, whether or not c = 0). A negative
 * discriminant gives 0 roots; a zero one gives the double root twice.
 * Returns the number of roots written (0, 1 or 2). Inputs must be finite
 * and small enough that b^2 and 4ac do not overflow. */
SW_API int sw_solve_quadratic(sw_real a, sw_real b, sw_real c, sw_real* t0, sw_real* t1);

/* ---- vectors ------------------------------------------------------------ */

static inline sw_vec3 sw_v3(sw_real x, sw_real y, sw_real z)
{
    sw_vec3 v = {x, y, z};
    return v;
}
static inline sw_vec3 sw_add(sw_vec3 a, sw_vec3 b) { return sw_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline sw_vec3 sw_sub(sw_vec3 a, sw_vec3 b) { return sw_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline sw_vec3 sw_neg(sw_vec3 a) { return sw_v3(-a.x, -a.y, -a.z); }
static inline sw_vec3 sw_scale(sw_vec3 a, sw_real s) { return sw_v3(a.x * s, a.y * s, a.z * s); }
/* a + s * b */
static inline sw_vec3 sw_madd(sw_vec3 a, sw_real s, sw_vec3 b)
{
    return sw_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
static inline sw_vec3 sw_mul(sw_vec3 a, sw_vec3 b) { return sw_v3(a.x * b.x, a.y * b.y, a.z * b.z); }
static inline sw_real sw_dot(sw_vec3 a, sw_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline sw_vec3 sw_cross(sw_vec3 a, sw_vec3 b)
{
    return sw_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline sw_real sw_length_sq(sw_vec3 a) { return sw_dot(a, a); }
static inline sw_real sw_length(sw_vec3 a) { return sw_sqrt(sw_dot(a, a)); }
static inline sw_real sw_distance_sq(sw_vec3 a, sw_vec3 b) { return sw_length_sq(sw_sub(a, b)); }
static inline sw_vec3 sw_lerp(sw_vec3 a, sw_vec3 b, sw_real t) { return sw_madd(a, t, sw_sub(b, a)); }
static inline sw_vec3 sw_vmin(sw_vec3 a, sw_vec3 b)
{
    return sw_v3(sw_min(a.x, b.x), sw_min(a.y, b.y), sw_min(a.z, b.z));
}
static inline sw_vec3 sw_vmax(sw_vec3 a, sw_vec3 b)
{
    return sw_v3(sw_max(a.x, b.x), sw_max(a.y, b.y), sw_max(a.z, b.z));
}
/* Largest absolute component. */
static inline sw_real sw_max_abs(sw_vec3 a) { return sw_max(sw_abs(a.x), sw_max(sw_abs(a.y), sw_abs(a.z))); }
static inline bool sw_vec3_is_finite(sw_vec3 a) { return sw_is_finite(a.x) && sw_is_finite(a.y) && sw_is_finite(a.z); }

/* Normalises *v in place and returns its former length. A zero vector is
 * left unchanged and 0 is returned, so the caller branches on the length
 * instead of dividing by it. The vector is first scaled by its largest
 * component, so that neither huge components (a cross product of large
 * coordinates) overflow nor tiny ones underflow when squared. */
static inline sw_real sw_normalize(sw_vec3* v)
{
    const sw_real m = sw_max_abs(*v);
    if (!(m > 0)) {
        return 0;
    }
    /* Divide (not multiply by 1 / m, which overflows for a subnormal m). */
    const sw_vec3 u = sw_v3(v->x / m, v->y / m, v->z / m);
    const sw_real len = sw_length(u); /* in [1, sqrt(3)] */
    *v = sw_scale(u, 1 / len);
    return len * m;
}

/* Some unit vector perpendicular to the unit vector n. */
static inline sw_vec3 sw_any_perpendicular(sw_vec3 n)
{
    /* Cross with the axis least aligned with n; the result has length >= sqrt(2/3). */
    sw_vec3 axis = sw_abs(n.x) <= sw_abs(n.y) && sw_abs(n.x) <= sw_abs(n.z)
                       ? sw_v3(1, 0, 0)
                       : (sw_abs(n.y) <= sw_abs(n.z) ? sw_v3(0, 1, 0) : sw_v3(0, 0, 1));
    sw_vec3 p = sw_cross(n, axis);
    sw_normalize(&p);
    return p;
}

/* ---- quaternions and transforms ---------------------------------------- */

static inline sw_quat sw_quat_identity(void)
{
    sw_quat q = {0, 0, 0, 1};
    return q;
}
static inline bool sw_quat_is_finite(sw_quat q)
{
    return sw_is_finite(q.x) && sw_is_finite(q.y) && sw_is_finite(q.z) && sw_is_finite(q.w);
}
/* Normalises *q in place and returns its former length; a zero quaternion
 * is left unchanged and 0 returned. Scaled by the largest component first,
 * like sw_normalize. */
static inline sw_real sw_quat_normalize(sw_quat* q)
{
    const sw_real m = sw_max(sw_max(sw_abs(q->x), sw_abs(q->y)), sw_max(sw_abs(q->z), sw_abs(q->w)));
    if (!(m > 0)) {
        return 0;
    }
    const sw_real x = q->x / m, y = q->y / m, z = q->z / m, w = q->w / m;
    const sw_real len = sw_sqrt(x * x + y * y + z * z + w * w);
    const sw_real inv = 1 / len;
    q->x = x * inv;
    q->y = y * inv;
    q->z = z * inv;
    q->w = w * inv;
    return len * m;
}

static inline sw_quat sw_quat_conjugate(sw_quat q)
{
    sw_quat c = {-q.x, -q.y, -q.z, q.w};
    return c;
}
static inline sw_quat sw_quat_mul(sw_quat a, sw_quat b)
{
    sw_quat r = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                 a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return r;
}
/* Rotates v by the unit quaternion q: v + 2w(u x v) + 2u x (u x v). */
static inline sw_vec3 sw_quat_rotate(sw_quat q, sw_vec3 v)
{
    sw_vec3 u = sw_v3(q.x, q.y, q.z);
    sw_vec3 t = sw_scale(sw_cross(u, v), 2);
    return sw_add(sw_madd(v, q.w, t), sw_cross(u, t));
}
/* Rotates v by the inverse of the unit quaternion q. */
static inline sw_vec3 sw_quat_inv_rotate(sw_quat q, sw_vec3 v) { return sw_quat_rotate(sw_quat_conjugate(q), v); }

static inline sw_xform sw_xform_identity(void)
{
    sw_xform x = {{0, 0, 0, 1}, {0, 0, 0}};
    return x;
}
static inline sw_vec3 sw_xform_point(sw_xform x, sw_vec3 v) { return sw_add(sw_quat_rotate(x.q, v), x.p); }
static inline sw_vec3 sw_xform_inv_point(sw_xform x, sw_vec3 v) { return sw_quat_inv_rotate(x.q, sw_sub(v, x.p)); }
/* a * b: apply b first, then a. */
static inline sw_xform sw_xform_mul(sw_xform a, sw_xform b)
{
    sw_xform r;
    r.q = sw_quat_mul(a.q, b.q);
    r.p = sw_xform_point(a, b.p);
    return r;
}
static inline sw_xform sw_xform_inverse(sw_xform x)
{
    sw_xform r;
    r.q = sw_quat_conjugate(x.q);
    r.p = sw_quat_rotate(r.q, sw_neg(x.p));
    return r;
}

#ifdef __cplusplus
}
#endif

#endif
