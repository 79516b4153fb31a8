/* Scene queries: the tree picks the shapes a query may touch, in double;
 * each is answered by the dispatcher (sw_sweep, sw_raycast, sw_overlap,
 * sw_distance), which works in the pair's own frame.
 *
 * A ray cast or sweep is, for the tree, A's bounding box (centre c,
 * half-extents e, grown by the skin and a margin for the slab test's
 * rounding) moving along c + s d, s in [0, 1]. Closest hits visit the
 * nearer child first and skip a subtree only when it starts beyond the
 * best hit, so equal times are all seen and the lower key wins whatever
 * the order. */
#include <string.h>

#include "scene/scene_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A walk keeps at most one sibling a level, plus the node in hand: the
 * scene keeps its tree at most SW_TREE_MAX_HEIGHT tall. */
#define STACK (SW_TREE_MAX_HEIGHT + 8)

typedef struct seg {
    double c[3], e[3];
    double smax;
    /* The same in float for inner nodes (their children's boxes are
     * float): e grown by a margin for float's rounding. */
    float fc[3], fe[3], finv[3];
    bool all; /* beyond float's range: every inner node passes */
#if defined(__SSE2__)
    __m128 off4[3], inv4[3]; /* child_entries' per-axis constants */
#endif
} seg;

typedef struct qctx qctx;
/* Answers proxy p; returns false to stop the traversal (ANY found one). */
typedef bool leaf_fn(qctx* q, int p);

struct qctx {
    const sw_scene* scene;
    const sw_scene_filter* filter;
    seg s;
    /* ray cast or sweep */
    const sw_ray* ray;
    const sw_shape* a;
    sw_vec3 d;
    const sw_sweep_options* opt;
    sw_hits_mode mode;
    sw_scene_hit* out;
    int capacity;
    int found;
    sw_scene_hit best; /* CLOSEST */
    /* overlap, contacts, distance */
    sw_scene_overlap* overlaps;
    sw_scene_contact* contacts;
    sw_real margin;
    sw_scene_distance closest;
    double best_dist; /* closest: the best distance so far (or the limit) */
};


static void make_seg(seg* s, const sw_scene* scene, const sw_dbox* box, sw_vec3 d, double grow)
{
    /* The float slabs' margin grows with the scene's extent too, which
     * bounds every (plane - c) * inv below float's range (no overflow). */
    double world = 0;
    if (scene->tree.root >= 0) {
        const sw_dbox* r = &scene->tree.nodes[scene->tree.root].box;
        for (int k = 0; k < 3; ++k) {
            world = sw_dmax(world, sw_dmax(fabs(r->lo[k]), fabs(r->hi[k])));
        }
    }
    double size = 0;
    for (int k = 0; k < 3; ++k) {
        size = sw_dmax(size, sw_dmax(fabs(box->lo[k]), fabs(box->hi[k])));
    }
    const double dd[3] = {d.x, d.y, d.z};
    for (int k = 0; k < 3; ++k) {
        size = sw_dmax(size, fabs(dd[k]));
    }
    const double margin = 1e-13 * size + grow + 1e-300;
    for (int k = 0; k < 3; ++k) {
        s->c[k] = 0.5 * box->lo[k] + 0.5 * box->hi[k];
        s->e[k] = 0.5 * box->hi[k] - 0.5 * box->lo[k] + margin;
    }
    s->smax = 1;
    const double fmargin = 4e-6 * (size + world + grow) + 1e-30;
    s->all = !(size + world + fmargin < 1e30);
    for (int k = 0; k < 3; ++k) {
        if (s->all) {
            s->fc[k] = s->fe[k] = s->finv[k] = 0; /* float would overflow: every node passes */
            continue;
        }
        s->fc[k] = (float)s->c[k];
        s->fe[k] = (float)(s->e[k] + fmargin);
        /* A component below the margin's thousandth: that, so that the
         * float slabs stay finite. */
        double di = dd[k];
        if (fabs(di) < 1e-3 * fmargin) {
            di = di < 0 ? -1e-3 * fmargin : 1e-3 * fmargin;
        }
        s->finv[k] = (float)(1 / di);
    }
#if defined(__SSE2__)
    for (int k = 0; k < 3; ++k) {
        s->off4[k] = _mm_set_ps(s->fe[k] - s->fc[k], s->fe[k] - s->fc[k], -s->fe[k] - s->fc[k], -s->fe[k] - s->fc[k]);
        s->inv4[k] = _mm_set1_ps(s->finv[k]);
    }
#endif
}

/* Entry value of the float box [lo, hi] for the segment, or +inf when it
 * is missed by smax. */
static float slab_entry(const seg* s, const float lo[3], const float hi[3], float smax)
{
    float t0 = 0, t1 = smax;
    for (int k = 0; k < 3; ++k) {
        float a = (lo[k] - s->fe[k] - s->fc[k]) * s->finv[k];
        float z = (hi[k] + s->fe[k] - s->fc[k]) * s->finv[k];
        if (a > z) {
            const float x = a;
            a = z;
            z = x;
        }
        t0 = a > t0 ? a : t0;
        t1 = z < t1 ? z : t1;
    }
    return t0 <= t1 ? t0 : INFINITY;
}

/* Entry values of inner node n's two children (+inf when missed by
 * smax), in float: per axis one vector (lo0 - e - c, lo1 - e - c,
 * hi0 + e - c, hi1 + e - c) * inv, whose halves are then each child's
 * near and far sides in either order. */
#if defined(__SSE2__)
static void child_entries(const seg* s, const sw_tree_node* n, float smax, float out[2])
{
    __m128 t0 = _mm_setzero_ps(), t1 = _mm_set1_ps(smax);
    for (int k = 0; k < 3; ++k) {
        const __m128 v = _mm_mul_ps(_mm_add_ps(_mm_loadu_ps(n->cb[k]), s->off4[k]), s->inv4[k]);
        const __m128 w = _mm_movehl_ps(v, v); /* the hi sides in lanes 0 and 1 */
        /* NaN-safe: minps and maxps return their second operand then. */
        t0 = _mm_max_ps(_mm_min_ps(v, w), t0);
        t1 = _mm_min_ps(_mm_max_ps(v, w), t1);
    }
    float a[4], b[4];
    _mm_storeu_ps(a, t0);
    _mm_storeu_ps(b, t1);
    for (int c = 0; c < 2; ++c) {
        out[c] = (a[c] <= b[c] || s->all) ? a[c] : INFINITY;
    }
}
#else
static void child_entries(const seg* s, const sw_tree_node* n, float smax, float out[2])
{
    for (int c = 0; c < 2; ++c) {
        const float lo[3] = {n->cb[0][c], n->cb[1][c], n->cb[2][c]};
        const float hi[3] = {n->cb[0][2 + c], n->cb[1][2 + c], n->cb[2][2 + c]};
        out[c] = s->all ? 0 : slab_entry(s, lo, hi, smax);
    }
}
#endif

/* Entry value of box b (double, rounded outward to float here) for the
 * segment, or +inf when it is missed by smax: the float test of the inner
 * nodes, for one box. */
static double box_entry(const seg* s, const sw_dbox* b)
{
    if (s->all) {
        return 0;
    }
    float lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
        lo[k] = sw_tree_float_down(b->lo[k]);
        hi[k] = sw_tree_float_up(b->hi[k]);
    }
    return slab_entry(s, lo, hi, (float)s->smax * (1 + 1e-6f) + 1e-30f);
}

static bool passes(const qctx* q, const sw_proxy* x)
{
    const sw_scene_filter* f = q->filter;
    if (!f) {
        return true;
    }
    if (!(x->category & f->mask) || !(x->mask & f->category)) {
        return false;
    }
    return !f->fn || f->fn(f->ctx, x->key, x->user);
}

static void walk_tree(qctx* q, leaf_fn* fn)
{
    const sw_tree* t = &q->scene->tree;
    if (t->root < 0) {
        return;
    }
    int stack[STACK];
    double enter[STACK];
    int top = 0;
    stack[top] = t->root;
    enter[top++] = 0;
    while (top > 0) {
        --top;
        const int i = stack[top];
        if (enter[top] > q->s.smax) {
            continue;
        }
        const sw_tree_node* n = &t->nodes[i];
        if (sw_tree_is_leaf(n)) {
            const sw_proxy* x = &q->scene->proxies[n->proxy];
            if (passes(q, x) && box_entry(&q->s, &x->tight) <= q->s.smax && !fn(q, n->proxy)) {
                return;
            }
            continue;
        }
        float en2[2];
        child_entries(&q->s, n, (float)q->s.smax * (1 + 1e-6f) + 1e-30f, en2);
        const double e0 = en2[0], e1 = en2[1];
        /* Far child first on the stack, so the near one is popped first. */
        const int near = e1 < e0 ? 1 : 0;
        const double en = near ? e1 : e0, ef = near ? e0 : e1;
        if (ef <= q->s.smax && top < STACK) {
            stack[top] = n->child[1 - near];
            enter[top++] = ef;
        }
        if (en <= q->s.smax && top < STACK) {
            stack[top] = n->child[near];
            enter[top++] = en;
        }
    }
}

/* ---- ray casts and sweeps ----------------------------------------------- */

static sw_vec3 point_velocity(const sw_proxy* x, sw_vec3 p)
{
    return sw_add(x->v, sw_cross(x->w, sw_sub(p, sw_shape_center(&x->shape))));
}

static bool before(const sw_scene_hit* a, const sw_scene_hit* b)
{
    return a->hit.t < b->hit.t || (a->hit.t == b->hit.t && a->key < b->key);
}

/* Keeps h among the first `capacity` hits in (t, key) order. */
static void insert_sorted(qctx* q, const sw_scene_hit* h)
{
    int at = q->found < q->capacity ? q->found : q->capacity;
    if (at == q->capacity && (at == 0 || !before(h, &q->out[at - 1]))) {
        q->found++;
        return;
    }
    if (at == q->capacity) {
        --at;
    }
    while (at > 0 && before(h, &q->out[at - 1])) {
        q->out[at] = q->out[at - 1];
        --at;
    }
    q->out[at] = *h;
    q->found++;
}

static bool take_hit(qctx* q, const sw_proxy* x, sw_hit h)
{
    if (h.status != SW_OK || !h.hit) {
        return true;
    }
    const sw_scene_hit sh = {h, x->key, x->user, x->v, x->w, point_velocity(x, h.point)};
    switch (q->mode) {
    case SW_HITS_ANY:
        q->best = sh;
        q->found = 1;
        return false;
    case SW_HITS_ALL:
        insert_sorted(q, &sh);
        return true;
    case SW_HITS_CLOSEST:
    default:
        if (q->found == 0 || before(&sh, &q->best)) {
            q->best = sh;
            q->found = 1;
            /* In units of the segment: a ray's t is in units of dir. */
            const double s = q->ray ? (q->ray->max > 0 ? (double)h.t / q->ray->max : 0) : (double)h.t;
            q->s.smax = s * (1 + 1e-12) + 1e-300;
        }
        return true;
    }
}

static bool ray_leaf(qctx* q, int p)
{
    const sw_proxy* x = &q->scene->proxies[p];
    return take_hit(q, x, sw_raycast(q->ray, &x->shape));
}

static bool sweep_leaf(qctx* q, int p)
{
    const sw_proxy* x = &q->scene->proxies[p];
    return take_hit(q, x, sw_sweep(q->a, q->d, &x->shape, q->opt));
}

static int finish(qctx* q)
{
    if (q->mode != SW_HITS_ALL && q->found && q->capacity > 0) {
        q->out[0] = q->best;
    }
    return q->found;
}

static qctx start(const sw_scene* scene, sw_hits_mode mode, const sw_scene_filter* filter, sw_scene_hit* out,
                  int capacity)
{
    qctx q;
    memset(&q, 0, sizeof q);
    q.scene = scene;
    q.filter = filter;
    q.mode = mode;
    q.out = out;
    q.capacity = out ? capacity : 0;
    return q;
}

static bool mode_ok(sw_hits_mode m) { return m == SW_HITS_CLOSEST || m == SW_HITS_ANY || m == SW_HITS_ALL; }

int sw_scene_raycast(const sw_scene* scene, const sw_ray* ray, sw_hits_mode mode, const sw_scene_filter* filter,
                     sw_scene_hit* out, int capacity)
{
    SW_REQUIRE(scene && sw_is_valid_ray(ray) && mode_ok(mode) && capacity >= 0, -1);
    qctx q = start(scene, mode, filter, out, capacity);
    q.ray = ray;
    const sw_dbox at = {{ray->origin.x, ray->origin.y, ray->origin.z}, {ray->origin.x, ray->origin.y, ray->origin.z}};
    make_seg(&q.s, scene, &at, sw_scale(ray->dir, ray->max), 0);
    walk_tree(&q, ray_leaf);
    return finish(&q);
}

int sw_scene_sweep(const sw_scene* scene, const sw_shape* a, sw_vec3 d, const sw_sweep_options* opt,
                   sw_hits_mode mode, const sw_scene_filter* filter, sw_scene_hit* out, int capacity)
{
    SW_REQUIRE(scene && a && sw_is_valid_shape(a) && a->type != SW_SHAPE_PLANE && a->type != SW_SHAPE_MESH &&
                   sw_is_valid_vec3(d) && sw_internal_options_valid(opt) && mode_ok(mode) && capacity >= 0,
               -1);
    qctx q = start(scene, mode, filter, out, capacity);
    q.a = a;
    q.d = d;
    q.opt = opt;
    const sw_dbox box = sw_internal_shape_dbox(a);
    make_seg(&q.s, scene, &box, d, (double)sw_internal_skin(opt));
    walk_tree(&q, sweep_leaf);
    return finish(&q);
}

/* ---- overlap, contacts, distance ---------------------------------------- */

static int64_t overlap_key(const void* arr, int i) { return ((const sw_scene_overlap*)arr)[i].key; }
static int64_t contact_key(const void* arr, int i) { return ((const sw_scene_contact*)arr)[i].key; }

/* Counts a result and keeps it among the first `capacity` in key order
 * (arr holds elements of `size` bytes whose keys key_of reads). */
static void keep_by_key(qctx* q, void* arr, size_t size, const void* item, int64_t key,
                        int64_t (*key_of)(const void* arr, int i))
{
    int at = q->found < q->capacity ? q->found : q->capacity;
    q->found++;
    if (at == q->capacity && (at == 0 || key > key_of(arr, at - 1))) {
        return;
    }
    if (at == q->capacity) {
        --at; /* the last kept one makes room */
    }
    int pos = at;
    while (pos > 0 && key < key_of(arr, pos - 1)) {
        --pos;
    }
    char* base = arr;
    memmove(base + (size_t)(pos + 1) * size, base + (size_t)pos * size, (size_t)(at - pos) * size);
    memcpy(base + (size_t)pos * size, item, size);
}

static bool overlap_leaf(qctx* q, int p)
{
    const sw_proxy* x = &q->scene->proxies[p];
    const sw_overlap_result r = sw_overlap(q->a, &x->shape);
    if (r.status != SW_OK || !r.overlapping) {
        return true;
    }
    const sw_scene_overlap o = {r, x->key, x->user};
    keep_by_key(q, q->overlaps, sizeof o, &o, o.key, overlap_key);
    return true;
}

int sw_scene_overlap_all(const sw_scene* scene, const sw_shape* a, const sw_scene_filter* filter,
                         sw_scene_overlap* out, int capacity)
{
    SW_REQUIRE(scene && a && sw_is_valid_shape(a) && a->type != SW_SHAPE_PLANE && a->type != SW_SHAPE_MESH &&
                   capacity >= 0,
               -1);
    qctx q = start(scene, SW_HITS_ALL, filter, NULL, 0);
    q.a = a;
    q.overlaps = out;
    q.capacity = out ? capacity : 0;
    const sw_dbox box = sw_internal_shape_dbox(a);
    make_seg(&q.s, scene, &box, sw_v3(0, 0, 0), 0);
    q.s.smax = 0;
    walk_tree(&q, overlap_leaf);
    return q.found;
}

static bool contact_leaf(qctx* q, int p)
{
    const sw_proxy* x = &q->scene->proxies[p];
    const sw_distance_result r = sw_distance(q->a, &x->shape);
    if (r.status != SW_OK || r.distance > q->margin) {
        return true;
    }
    sw_scene_contact c = {x->key, x->user, r.distance, r.point_a, r.point_b, sw_v3(0, 0, 0), 0, x->v, x->w,
                          sw_v3(0, 0, 0)};
    if (r.distance > 0) {
        sw_vec3 n = sw_sub(r.point_a, r.point_b);
        c.normal = sw_normalize(&n) > 0 ? n : sw_v3(0, 0, 1);
    } else {
        const sw_overlap_result o = sw_overlap(q->a, &x->shape);
        c.distance = o.overlapping ? -o.depth : 0;
        c.normal = o.overlapping ? o.normal : sw_v3(0, 0, 1);
        if (o.overlapping) {
            c.point_a = c.point_b = o.point;
        }
    }
    if (x->shape.type == SW_SHAPE_MESH) {
        /* The triangle nearest A: a zero-length sweep with the contact's
         * reach names it, on the mesh taken two-sided (distance and
         * overlap are, and a one-sided mesh's sweep ignores a triangle A
         * starts behind). */
        sw_shape both = x->shape;
        both.mesh.one_sided = false;
        const sw_sweep_options opt = {sw_max(q->margin, 0), false};
        const sw_hit h = sw_sweep(q->a, sw_v3(0, 0, 0), &both, &opt);
        c.triangle = h.hit ? h.triangle : 0;
    }
    c.point_velocity = point_velocity(x, c.point_b);
    keep_by_key(q, q->contacts, sizeof c, &c, c.key, contact_key);
    return true;
}

int sw_scene_contacts(const sw_scene* scene, const sw_shape* a, sw_real margin, const sw_scene_filter* filter,
                      sw_scene_contact* out, int capacity)
{
    SW_REQUIRE(scene && a && sw_is_valid_shape(a) && a->type != SW_SHAPE_PLANE && a->type != SW_SHAPE_MESH &&
                   sw_is_valid_real(margin) && margin >= 0 && capacity >= 0,
               -1);
    qctx q = start(scene, SW_HITS_ALL, filter, NULL, 0);
    q.a = a;
    q.margin = margin;
    q.contacts = out;
    q.capacity = out ? capacity : 0;
    const sw_dbox box = sw_internal_shape_dbox(a);
    make_seg(&q.s, scene, &box, sw_v3(0, 0, 0), (double)margin);
    q.s.smax = 0;
    walk_tree(&q, contact_leaf);
    return q.found;
}

/* Closest: depth first, nearer child first, pruned by the boxes' gap. */
static double box_gap(const sw_dbox* a, const sw_dbox* b)
{
    double g2 = 0;
    for (int k = 0; k < 3; ++k) {
        const double g = sw_dmax(a->lo[k] - b->hi[k], b->lo[k] - a->hi[k]);
        g2 += g > 0 ? g * g : 0;
    }
    return sqrt(g2);
}

static void closest_walk(qctx* q, const sw_dbox* abox, int i, double pad)
{
    const sw_tree_node* n = &q->scene->tree.nodes[i];
    if (sw_tree_is_leaf(n)) {
        const sw_proxy* x = &q->scene->proxies[n->proxy];
        if (!passes(q, x) || box_gap(abox, &x->tight) - pad > q->best_dist) {
            return;
        }
        const sw_distance_result r = sw_distance(q->a, &x->shape);
        if (r.status != SW_OK || (double)r.distance > q->best_dist) {
            return;
        }
        if (q->found && ((double)r.distance > (double)q->closest.distance.distance ||
                         ((double)r.distance == (double)q->closest.distance.distance && x->key > q->closest.key))) {
            return;
        }
        q->closest = (sw_scene_distance){r, x->key, x->user};
        q->found = 1;
        q->best_dist = (double)r.distance;
        return;
    }
    const double g0 = box_gap(abox, &q->scene->tree.nodes[n->child[0]].box);
    const double g1 = box_gap(abox, &q->scene->tree.nodes[n->child[1]].box);
    const int first = g1 < g0 ? 1 : 0;
    const double gf = first ? g1 : g0, gs = first ? g0 : g1;
    if (gf - pad <= q->best_dist) {
        closest_walk(q, abox, n->child[first], pad);
    }
    if (gs - pad <= q->best_dist) {
        closest_walk(q, abox, n->child[1 - first], pad);
    }
}

int sw_scene_closest(const sw_scene* scene, const sw_shape* a, sw_real max_distance, const sw_scene_filter* filter,
                     sw_scene_distance* out)
{
    SW_REQUIRE(scene && a && out && sw_is_valid_shape(a) && a->type != SW_SHAPE_PLANE && a->type != SW_SHAPE_MESH &&
                   !isnan(max_distance),
               -1);
    qctx q = start(scene, SW_HITS_CLOSEST, filter, NULL, 0);
    q.a = a;
    q.best_dist = max_distance < 0 ? INFINITY : (double)max_distance;
    const sw_dbox box = sw_internal_shape_dbox(a);
    double size = 0;
    for (int k = 0; k < 3; ++k) {
        size = sw_dmax(size, sw_dmax(fabs(box.lo[k]), fabs(box.hi[k])));
    }
    if (scene->tree.root >= 0) {
        closest_walk(&q, &box, scene->tree.root, 1e-12 * size + 1e-300);
    }
    if (q.found) {
        *out = q.closest;
    }
    return q.found;
}
