/* Batches of pair queries (include/sweep/batch.h). The input is taken in
 * blocks of SW_BATCH_LANES; in each block the lanes of the vectorised pairs
 * (a sphere or point against a sphere or point) are gathered unchecked into
 * structure-of-arrays scratch and cast together (ball.c, which tests each
 * lane's numbers); every other lane, and every lane the kernel cannot
 * certify, is answered by its single call, so the answers are the single
 * calls' bit for bit. */
#include "batch/ball.h"

static bool batch_is_ball(sw_shape_type t) { return t == SW_SHAPE_POINT || t == SW_SHAPE_SPHERE; }

/* A point or sphere as its centre and radius, as the pair dispatch reads
 * it (a point is a ball of radius 0). */
static void batch_ball_of(const sw_shape* s, sw_vec3* c, sw_real* r)
{
    *c = s->type == SW_SHAPE_POINT ? s->point : s->sphere.center;
    *r = s->type == SW_SHAPE_POINT ? 0 : s->sphere.radius;
}

static void batch_put(sw_ball_lanes* l, int k, sw_vec3 a, sw_real ra, sw_vec3 d, sw_vec3 b, sw_real rb, sw_real reach,
                      sw_real max)
{
    l->ax[k] = a.x, l->ay[k] = a.y, l->az[k] = a.z, l->ra[k] = ra;
    l->dx[k] = d.x, l->dy[k] = d.y, l->dz[k] = d.z;
    l->bx[k] = b.x, l->by[k] = b.y, l->bz[k] = b.z;
    l->rb[k] = rb, l->reach[k] = reach, l->max[k] = max;
}

/* Copies lane 0 into the unused lanes m..: the kernel runs over every
 * lane, and a copy of a valid one raises no exception. */
static void batch_pad(sw_ball_lanes* l, int m)
{
    for (int k = m; k < SW_BATCH_LANES; ++k) {
        batch_put(l, k, sw_v3(l->ax[0], l->ay[0], l->az[0]), l->ra[0], sw_v3(l->dx[0], l->dy[0], l->dz[0]),
                  sw_v3(l->bx[0], l->by[0], l->bz[0]), l->rb[0], l->reach[0], l->max[0]);
    }
}

/* The kernel's answer for lane k as the single call would write it. */
static sw_hit batch_hit_of(const sw_ball_lanes* l, int k)
{
    sw_hit h = {0};
    if (l->kind[k] == SW_BATCH_HIT) {
        h.hit = true;
        h.t = l->t[k];
        h.normal = sw_v3(l->nx[k], l->ny[k], l->nz[k]);
        h.point = sw_v3(l->px[k], l->py[k], l->pz[k]);
    }
    return h;
}

/* A ball holding a valid point, segment, sphere, capsule, box or triangle
 * (centre c, radius *r, in double); false for the other types. */
static bool batch_bound(const sw_shape* s, double c[3], double* r)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        c[0] = s->point.x, c[1] = s->point.y, c[2] = s->point.z;
        *r = 0;
        return true;
    case SW_SHAPE_SPHERE:
        c[0] = s->sphere.center.x, c[1] = s->sphere.center.y, c[2] = s->sphere.center.z;
        *r = s->sphere.radius;
        return true;
    case SW_SHAPE_SEGMENT:
    case SW_SHAPE_CAPSULE: {
        const sw_vec3 p = s->type == SW_SHAPE_SEGMENT ? s->segment.a : s->capsule.a;
        const sw_vec3 q = s->type == SW_SHAPE_SEGMENT ? s->segment.b : s->capsule.b;
        const double h[3] = {((double)q.x - p.x) / 2, ((double)q.y - p.y) / 2, ((double)q.z - p.z) / 2};
        c[0] = p.x + h[0], c[1] = p.y + h[1], c[2] = p.z + h[2];
        *r = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]) + (s->type == SW_SHAPE_CAPSULE ? s->capsule.radius : 0);
        return true;
    }
    case SW_SHAPE_BOX: {
        const sw_vec3 h = s->box.half;
        c[0] = s->box.center.x, c[1] = s->box.center.y, c[2] = s->box.center.z;
        *r = sqrt((double)h.x * h.x + (double)h.y * h.y + (double)h.z * h.z);
        return true;
    }
    case SW_SHAPE_TRIANGLE: {
        const sw_vec3* v = s->triangle.v;
        for (int k = 0; k < 3; ++k) {
            c[k] = ((double)(&v[0].x)[k] + (&v[1].x)[k] + (&v[2].x)[k]) / 3;
        }
        double r2 = 0;
        for (int i = 0; i < 3; ++i) {
            const double e[3] = {v[i].x - c[0], v[i].y - c[1], v[i].z - c[2]};
            const double q = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
            r2 = q > r2 ? q : r2;
        }
        *r = sqrt(r2);
        return true;
    }
    default:
        return false;
    }
}

/* Whether the single call surely answers a miss (all fields zero): both
 * shapes valid and bounded here, and their balls, A's moving by d, stay
 * farther apart than the skin by 1e-3 of the query's scale (DESIGN.md §3:
 * a hit is reported only within tol * scale of touching, tol <= 1e-5; the
 * margin also covers the balls' rounding). A cheap answer for the misses
 * of the pairs the vector kernel does not take. */
static bool batch_surely_misses(const sw_shape* a, sw_vec3 d, const sw_shape* b, sw_real skin)
{
    double ca[3], cb[3], ra, rb;
    if (!batch_bound(a, ca, &ra) || !batch_bound(b, cb, &rb) || !sw_internal_shape_ok(a) || !sw_internal_shape_ok(b) ||
        !sw_internal_vec3_ok(d)) {
        return false;
    }
    const double dv[3] = {d.x, d.y, d.z};
    double f[3], scale = skin, dd = 0, fd = 0;
    for (int k = 0; k < 3; ++k) {
        f[k] = ca[k] - cb[k];
        dd += dv[k] * dv[k];
        fd += f[k] * dv[k];
        const double m = fabs(ca[k]) + ra + fabs(cb[k]) + rb + fabs(dv[k]);
        scale = m > scale ? m : scale;
    }
    double t = dd > 0 ? -fd / dd : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    double g2 = 0;
    for (int k = 0; k < 3; ++k) {
        const double g = f[k] + t * dv[k];
        g2 += g * g;
    }
    const double reach = ra + rb + skin + 1e-3 * scale;
    return g2 > reach * reach;
}

int sw_sweep_batch(const sw_shape* a, const sw_vec3* d, const sw_shape* b, int n, const sw_sweep_options* opt,
                   sw_hit* out)
{
    SW_REQUIRE(n >= 0 && (n == 0 || (a && d && b && out)), -1);
    /* Bad options: every lane's single call reports them. */
    const bool vector = sw_internal_options_valid(opt);
    const sw_real skin = sw_internal_skin(opt);
    sw_ball_kernel* kernel = sw_batch_ball_kernel();
    sw_ball_lanes l;
    int idx[SW_BATCH_LANES];
    for (int i0 = 0; i0 < n; i0 += SW_BATCH_LANES) {
        const int end = n - i0 < SW_BATCH_LANES ? n : i0 + SW_BATCH_LANES;
        int m = 0;
        for (int i = i0; i < end; ++i) {
            const sw_shape *sa = &a[i], *sb = &b[i];
            if (vector && batch_is_ball(sa->type) && batch_is_ball(sb->type)) {
                /* Unchecked: the kernel tests every lane's numbers and
                 * leaves an invalid one to its single call. */
                sw_vec3 ca, cb;
                sw_real ra, rb;
                batch_ball_of(sa, &ca, &ra);
                batch_ball_of(sb, &cb, &rb);
#ifdef SWEEP_DOUBLE
                const sw_real reach = (double)ra + rb + skin;
#else
                const sw_real reach = ra + rb + skin;
#endif
                batch_put(&l, m, ca, ra, d[i], cb, rb, reach, 1);
                idx[m++] = i;
                continue;
            }
            out[i] = vector && batch_surely_misses(sa, d[i], sb, skin) ? (sw_hit){0} : sw_sweep(sa, d[i], sb, opt);
        }
        if (m == 0) {
            continue;
        }
        batch_pad(&l, m);
        sw_batch_run_ball(kernel, &l, false);
        for (int k = 0; k < m; ++k) {
            const int i = idx[k];
            out[i] = l.kind[k] == SW_BATCH_SCALAR ? sw_sweep(&a[i], d[i], &b[i], opt) : batch_hit_of(&l, k);
        }
    }
    return 0;
}

/* Whether the ray is valid, certified without sw_is_valid_ray's division:
 * its numbers valid and max * |dir| well inside the range. Otherwise the
 * single call decides. */
static bool batch_ray_ok(const sw_ray* r)
{
    if (!sw_internal_vec3_ok(r->origin) || !sw_internal_vec3_ok(r->dir) || !sw_internal_radius_ok(r->max)) {
        return false;
    }
    return (double)r->max * (double)sw_max_abs(r->dir) <= 0.5 * (double)SW_MAX_COORD;
}

int sw_raycast_batch(const sw_ray* rays, const sw_shape* b, int n, sw_hit* out)
{
    SW_REQUIRE(n >= 0 && (n == 0 || (rays && b && out)), -1);
    sw_ball_kernel* kernel = sw_batch_ball_kernel();
    sw_ball_lanes l;
    int idx[SW_BATCH_LANES];
    for (int i0 = 0; i0 < n; i0 += SW_BATCH_LANES) {
        const int end = n - i0 < SW_BATCH_LANES ? n : i0 + SW_BATCH_LANES;
        int m = 0;
        for (int i = i0; i < end; ++i) {
            const sw_ray* r = &rays[i];
            const sw_shape* sb = &b[i];
            /* A ray is a point swept by max * dir; B unchecked, as in a
             * sweep's lanes. */
            const bool ray_ok = batch_ray_ok(r);
            const sw_vec3 reach = sw_scale(r->dir, r->max);
            if (ray_ok && batch_is_ball(sb->type)) {
                sw_vec3 cb;
                sw_real rb;
                batch_ball_of(sb, &cb, &rb);
                batch_put(&l, m, r->origin, 0, reach, cb, rb, rb, r->max);
                idx[m++] = i;
                continue;
            }
            const sw_shape origin = sw_make_point(r->origin);
            out[i] = ray_ok && batch_surely_misses(&origin, reach, sb, 0) ? (sw_hit){0} : sw_raycast(r, sb);
        }
        if (m == 0) {
            continue;
        }
        batch_pad(&l, m);
        sw_batch_run_ball(kernel, &l, true);
        for (int k = 0; k < m; ++k) {
            const int i = idx[k];
            out[i] = l.kind[k] == SW_BATCH_SCALAR ? sw_raycast(&rays[i], &b[i]) : batch_hit_of(&l, k);
        }
    }
    return 0;
}
