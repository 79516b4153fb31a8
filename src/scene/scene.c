/* Scene changes: the proxies (one per shape), the key table, and the
 * tree's fat boxes. A moved shape whose new bounds still fit its fat box
 * keeps its leaf; otherwise it is reinserted with a box grown by a tenth
 * of its size on each side, so that a shape moving a little each step is
 * reinserted only every few steps. */
#include <stdlib.h>
#include <string.h>

#include "scene/scene_internal.h"

const char* sw_scene_error_string(sw_scene_error e)
{
    switch (e) {
    case SW_SCENE_OK:
        return "ok";
    case SW_SCENE_INVALID_SHAPE:
        return "invalid shape (or a plane, which a scene cannot hold)";
    case SW_SCENE_DUPLICATE_KEY:
        return "a shape with this key is already in the scene";
    case SW_SCENE_UNKNOWN_KEY:
        return "no shape with this key in the scene";
    case SW_SCENE_INVALID_VELOCITY:
        return "velocities must be finite and within range";
    case SW_SCENE_OUT_OF_MEMORY:
        return "out of memory";
    }
    return "unknown scene error";
}

sw_scene* sw_scene_create(void)
{
    sw_scene* s = calloc(1, sizeof *s);
    if (!s) {
        return NULL;
    }
    sw_tree_init(&s->tree);
    s->proxy_free = -1;
    return s;
}

void sw_scene_destroy(sw_scene* s)
{
    if (s) {
        sw_tree_free(&s->tree);
        free(s->proxies);
        free(s->slots);
        free(s);
    }
}

int sw_scene_count(const sw_scene* s) { return s ? s->count : 0; }

static uint64_t key_hash(int64_t key)
{
    uint64_t x = (uint64_t)key;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

int sw_internal_scene_find(const sw_scene* s, int64_t key)
{
    if (!s || s->slot_capacity == 0) {
        return -1;
    }
    size_t h = (size_t)key_hash(key) & (size_t)(s->slot_capacity - 1);
    for (;;) {
        const int p = s->slots[h];
        if (p == -1) {
            return -1;
        }
        if (p >= 0 && s->proxies[p].key == key) {
            return p;
        }
        h = (h + 1) & (size_t)(s->slot_capacity - 1);
    }
}

static void slot_put(int* slots, int capacity, const sw_proxy* proxies, int p)
{
    size_t h = (size_t)key_hash(proxies[p].key) & (size_t)(capacity - 1);
    while (slots[h] >= 0) {
        h = (h + 1) & (size_t)(capacity - 1);
    }
    slots[h] = p;
}

/* Room for one more key: the table at most half full, deleted slots
 * counted. */
static bool grow_slots(sw_scene* s)
{
    if (2 * (s->slot_used + 1) <= s->slot_capacity) {
        return true;
    }
    int cap = 16;
    while (cap < 4 * (s->count + 1)) {
        cap *= 2;
    }
    int* slots = malloc((size_t)cap * sizeof *slots);
    if (!slots) {
        return false;
    }
    memset(slots, 0xff, (size_t)cap * sizeof *slots);
    for (int i = 0; i < s->slot_capacity; ++i) {
        if (s->slots[i] >= 0) {
            slot_put(slots, cap, s->proxies, s->slots[i]);
        }
    }
    free(s->slots);
    s->slots = slots;
    s->slot_capacity = cap;
    s->slot_used = s->count;
    return true;
}

sw_dbox sw_internal_shape_dbox(const sw_shape* shape)
{
    const sw_aabb b = sw_shape_bounds(shape);
    const double lo[3] = {b.min.x, b.min.y, b.min.z}, hi[3] = {b.max.x, b.max.y, b.max.z};
    double size = 0;
    for (int k = 0; k < 3; ++k) {
        size = fmax(size, fmax(fabs(lo[k]), fabs(hi[k])));
    }
    const double pad = 8 * SW_EPSILON * size;
    sw_dbox d;
    for (int k = 0; k < 3; ++k) {
        d.lo[k] = lo[k] - pad;
        d.hi[k] = hi[k] + pad;
    }
    return d;
}

static sw_dbox fatten(const sw_dbox* b)
{
    sw_dbox f = *b;
    for (int k = 0; k < 3; ++k) {
        const double grow = 0.1 * (b->hi[k] - b->lo[k]) + 0.1 * ((b->hi[0] - b->lo[0]) + (b->hi[1] - b->lo[1]) +
                                                                  (b->hi[2] - b->lo[2])) / 3;
        f.lo[k] -= grow;
        f.hi[k] += grow;
    }
    return f;
}

/* Rebuilds the tree top-down (see sw_scene_optimize). */
static void rebuild(sw_scene* s)
{
    /* Leaves of shapes that never moved take their tight boxes; the
     * others keep their fat ones, so that small moves stay cheap. */
    for (int i = 0; i < s->tree.capacity; ++i) {
        sw_tree_node* n = &s->tree.nodes[i];
        if (n->height == 0 && sw_tree_is_leaf(n) && !s->proxies[n->proxy].moved) {
            n->box = s->proxies[n->proxy].tight;
        }
    }
    if (sw_tree_rebuild(&s->tree)) {
        for (int i = 0; i < s->tree.capacity; ++i) {
            const sw_tree_node* n = &s->tree.nodes[i];
            if (n->height == 0 && sw_tree_is_leaf(n)) {
                s->proxies[n->proxy].leaf = i;
            }
        }
    }
    s->changes = 0;
}

void sw_scene_optimize(sw_scene* s)
{
    if (s) {
        rebuild(s);
    }
}

/* Besides sw_scene_optimize, the tree is rebuilt whole once the
 * insertions and removals since its last rebuild outnumber twice its
 * shapes (and 1,024): a world that keeps changing keeps a good tree, at
 * an amortised cost below that of the changes themselves. */
static void after_change(sw_scene* s)
{
    ++s->changes;
    /* The insertions' rotations balance only along the path they walk:
     * shapes each beyond and larger than all before them still make a
     * chain. A tree taller than the queries' stacks allow is rebuilt
     * (its rebuild is at most 72 levels tall: tree.c). */
    const bool tall = s->tree.root >= 0 && s->tree.nodes[s->tree.root].height > SW_TREE_MAX_HEIGHT;
    if (tall || (s->changes > 1024 && s->changes > 2 * s->count)) {
        rebuild(s);
    }
}

static bool shape_ok(const sw_shape* shape) { return shape && sw_is_valid_shape(shape) && shape->type != SW_SHAPE_PLANE; }

sw_scene_error sw_scene_add(sw_scene* s, int64_t key, const sw_shape* shape, uint64_t category, uint64_t mask,
                            void* user)
{
    if (!s || !shape_ok(shape)) {
        return SW_SCENE_INVALID_SHAPE;
    }
    if (sw_internal_scene_find(s, key) >= 0) {
        return SW_SCENE_DUPLICATE_KEY;
    }
    if (!grow_slots(s)) {
        return SW_SCENE_OUT_OF_MEMORY;
    }
    if (s->proxy_free < 0) {
        const int cap = s->proxy_capacity ? 2 * s->proxy_capacity : 16;
        sw_proxy* grown = realloc(s->proxies, (size_t)cap * sizeof *grown);
        if (!grown) {
            return SW_SCENE_OUT_OF_MEMORY;
        }
        s->proxies = grown;
        for (int i = s->proxy_capacity; i < cap; ++i) {
            s->proxies[i].leaf = -1;
            s->proxies[i].next_free = i + 1 < cap ? i + 1 : -1;
        }
        s->proxy_free = s->proxy_capacity;
        s->proxy_capacity = cap;
    }
    const int p = s->proxy_free;
    sw_proxy* x = &s->proxies[p];
    const sw_dbox tight = sw_internal_shape_dbox(shape);
    const sw_dbox fat = fatten(&tight);
    const int leaf = sw_tree_insert(&s->tree, &fat, p);
    if (leaf < 0) {
        return SW_SCENE_OUT_OF_MEMORY;
    }
    s->proxy_free = x->next_free;
    *x = (sw_proxy){*shape, tight, key, category, mask, user, {0, 0, 0}, {0, 0, 0}, leaf, false, -1};
    slot_put(s->slots, s->slot_capacity, s->proxies, p);
    s->slot_used++;
    s->count++;
    after_change(s);
    return SW_SCENE_OK;
}

sw_scene_error sw_scene_remove(sw_scene* s, int64_t key)
{
    const int p = sw_internal_scene_find(s, key);
    if (p < 0) {
        return SW_SCENE_UNKNOWN_KEY;
    }
    /* Mark its slot deleted. */
    size_t h = (size_t)key_hash(key) & (size_t)(s->slot_capacity - 1);
    while (s->slots[h] != p) {
        h = (h + 1) & (size_t)(s->slot_capacity - 1);
    }
    s->slots[h] = -2;
    sw_proxy* x = &s->proxies[p];
    sw_tree_remove(&s->tree, x->leaf);
    x->leaf = -1;
    x->next_free = s->proxy_free;
    s->proxy_free = p;
    s->count--;
    after_change(s);
    return SW_SCENE_OK;
}

static bool inside(const sw_dbox* in, const sw_dbox* out)
{
    for (int k = 0; k < 3; ++k) {
        if (in->lo[k] < out->lo[k] || in->hi[k] > out->hi[k]) {
            return false;
        }
    }
    return true;
}

sw_scene_error sw_scene_move(sw_scene* s, int64_t key, const sw_shape* shape, sw_vec3 v, sw_vec3 w)
{
    const int p = sw_internal_scene_find(s, key);
    if (p < 0) {
        return SW_SCENE_UNKNOWN_KEY;
    }
    if (!shape_ok(shape)) {
        return SW_SCENE_INVALID_SHAPE;
    }
    if (!sw_is_valid_vec3(v) || !sw_is_valid_vec3(w)) {
        return SW_SCENE_INVALID_VELOCITY;
    }
    sw_proxy* x = &s->proxies[p];
    const sw_dbox tight = sw_internal_shape_dbox(shape);
    x->moved = true;
    if (!inside(&tight, &s->tree.nodes[x->leaf].box)) {
        const sw_dbox fat = fatten(&tight);
        sw_tree_remove(&s->tree, x->leaf);
        /* The removal freed two nodes, so the insertion cannot fail. */
        x->leaf = sw_tree_insert(&s->tree, &fat, p);
        after_change(s);
    }
    x->shape = *shape;
    x->tight = tight;
    x->v = v;
    x->w = w;
    return SW_SCENE_OK;
}

sw_scene_error sw_scene_set_filter(sw_scene* s, int64_t key, uint64_t category, uint64_t mask, void* user)
{
    const int p = sw_internal_scene_find(s, key);
    if (p < 0) {
        return SW_SCENE_UNKNOWN_KEY;
    }
    s->proxies[p].category = category;
    s->proxies[p].mask = mask;
    s->proxies[p].user = user;
    return SW_SCENE_OK;
}

const sw_shape* sw_scene_shape(const sw_scene* s, int64_t key)
{
    const int p = sw_internal_scene_find(s, key);
    return p < 0 ? NULL : &s->proxies[p].shape;
}

sw_vec3 sw_shape_center(const sw_shape* s)
{
    switch (s->type) {
    case SW_SHAPE_POINT:
        return s->point;
    case SW_SHAPE_SEGMENT:
        return sw_lerp(s->segment.a, s->segment.b, SW_R(0.5));
    case SW_SHAPE_SPHERE:
        return s->sphere.center;
    case SW_SHAPE_CAPSULE:
        return sw_lerp(s->capsule.a, s->capsule.b, SW_R(0.5));
    case SW_SHAPE_BOX:
        return s->box.center;
    case SW_SHAPE_TRIANGLE:
        return sw_scale(sw_add(sw_add(s->triangle.v[0], s->triangle.v[1]), s->triangle.v[2]), SW_R(1.0) / 3);
    case SW_SHAPE_POLYGON: {
        sw_vec3 c = sw_v3(0, 0, 0);
        for (int i = 0; i < s->polygon.count; ++i) {
            c = sw_add(c, s->polygon.v[i]);
        }
        return s->polygon.count > 0 ? sw_scale(c, 1 / (sw_real)s->polygon.count) : c;
    }
    case SW_SHAPE_HULL:
        return s->hull.position;
    case SW_SHAPE_MESH:
        return s->mesh.position;
    case SW_SHAPE_PLANE:
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    return sw_v3(0, 0, 0);
}
