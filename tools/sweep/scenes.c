/* The scenes of `sweep query` (scenes.h). A library scene stores shapes by
 * value and neither owns nor lists what they point to, so each tool scene
 * keeps a table from key to what the program must free with the shape (a
 * polygon's vertices, a hull, an inline mesh) and to its category and mask
 * (scene_move keeps them, and the library has no getter for them). A
 * scene request changes nothing unless all of it succeeds. */
#include "scenes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
fail(char* err, size_t size, const char* fmt, ...)
{
    if (size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- key table (open addressing, linear probing) ------------------------------ */

typedef struct entry {
    int64_t key;
    uint64_t category, mask;
    /* Freed with the shape; NULL when the scene borrows them (inline). */
    sw_vec3* vertices;
    sw_hull* hull;
    sw_mesh* mesh;
    bool used;
} entry;

struct tool_scene {
    char* name; /* NULL for an inline scene */
    sw_scene* scene;
    int64_t added; /* shapes added so far: the next default key */
    entry* slots;  /* a power of two of them, at most half used */
    size_t cap, count;
};

struct scene_store {
    /* Few scenes per run: a list searched by name. */
    tool_scene** list;
    size_t count, cap;
};

static size_t home(int64_t key, size_t cap)
{
    /* splitmix64's finaliser: keys 0, 1, 2... spread over the table. */
    uint64_t x = (uint64_t)key;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    x ^= x >> 31;
    return (size_t)(x & (cap - 1));
}

static entry* find(const tool_scene* ts, int64_t key)
{
    if (ts->cap == 0) {
        return NULL;
    }
    for (size_t i = home(key, ts->cap);; i = (i + 1) & (ts->cap - 1)) {
        if (!ts->slots[i].used) {
            return NULL;
        }
        if (ts->slots[i].key == key) {
            return &ts->slots[i];
        }
    }
}

static void place(entry* slots, size_t cap, const entry* e)
{
    size_t i = home(e->key, cap);
    while (slots[i].used) {
        i = (i + 1) & (cap - 1);
    }
    slots[i] = *e;
}

/* Room for n more keys, so that adding them cannot fail half-way. */
static bool reserve(tool_scene* ts, size_t n)
{
    const size_t need = 2 * (ts->count + n);
    if (ts->cap >= need && ts->cap > 0) {
        return true;
    }
    size_t cap = ts->cap > 0 ? ts->cap : 16;
    while (cap < need) {
        cap *= 2;
    }
    entry* slots = calloc(cap, sizeof *slots);
    if (!slots) {
        return false;
    }
    for (size_t i = 0; i < ts->cap; ++i) {
        if (ts->slots[i].used) {
            place(slots, cap, &ts->slots[i]);
        }
    }
    free(ts->slots);
    ts->slots = slots;
    ts->cap = cap;
    return true;
}

static void release(entry* e)
{
    free(e->vertices);
    sw_hull_destroy(e->hull);
    sw_mesh_destroy(e->mesh);
    e->vertices = NULL;
    e->hull = NULL;
    e->mesh = NULL;
}

/* Removes e from the table (its data released), moving later entries of
 * the probe run back so that every key stays reachable. */
static void erase(tool_scene* ts, entry* e)
{
    release(e);
    const size_t mask = ts->cap - 1;
    size_t hole = (size_t)(e - ts->slots);
    for (size_t j = (hole + 1) & mask; ts->slots[j].used; j = (j + 1) & mask) {
        const size_t k = home(ts->slots[j].key, ts->cap);
        /* The entry at j may fill the hole unless its home lies in (hole, j]. */
        const bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);
        if (!stays) {
            ts->slots[hole] = ts->slots[j];
            hole = j;
        }
    }
    memset(&ts->slots[hole], 0, sizeof ts->slots[hole]);
    ts->count--;
}

/* ---- scenes ------------------------------------------------------------------- */

static tool_scene* scene_new(const char* name)
{
    tool_scene* ts = calloc(1, sizeof *ts);
    if (!ts) {
        return NULL;
    }
    ts->scene = sw_scene_create();
    if (name) {
        const size_t n = strlen(name) + 1;
        ts->name = malloc(n);
        if (ts->name) {
            memcpy(ts->name, name, n);
        }
    }
    if (!ts->scene || (name && !ts->name)) {
        sw_scene_destroy(ts->scene);
        free(ts->name);
        free(ts);
        return NULL;
    }
    return ts;
}

static void scene_free(tool_scene* ts)
{
    if (!ts) {
        return;
    }
    for (size_t i = 0; i < ts->cap; ++i) {
        if (ts->slots[i].used) {
            release(&ts->slots[i]);
        }
    }
    free(ts->slots);
    sw_scene_destroy(ts->scene);
    free(ts->name);
    free(ts);
}

/* "scene \"level\"" or "the inline scene", for messages. */
static void scene_label(const tool_scene* ts, char* buf, size_t size)
{
    if (ts->name) {
        /* Names come from the input: cut a long one. */
        snprintf(buf, size, "scene \"%.40s%s\"", ts->name, strlen(ts->name) > 40 ? "..." : "");
    } else {
        snprintf(buf, size, "the inline scene");
    }
}

typedef struct keyed {
    int64_t key;
    int index;
} keyed;

static int cmp_keyed(const void* pa, const void* pb)
{
    const keyed* a = pa;
    const keyed* b = pb;
    if (a->key != b->key) {
        return a->key < b->key ? -1 : 1;
    }
    return a->index < b->index ? -1 : (a->index > b->index);
}

/* Adds shapes[0..n) (named `list` in messages) to ts under their keys
 * (default: their position among all shapes ever added to ts). With take,
 * the scene takes what the shapes point to; without, it borrows it. All
 * or nothing. After adding at least a quarter of the scene's shapes (a
 * level loaded, an inline scene), the tree is rebuilt (sw_scene_optimize):
 * an incrementally grown tree answers a few times slower. */
static int add_shapes(tool_scene* ts, req_shape* shapes, int n, const char* list, bool take, char* err, size_t size)
{
    char label[64];
    scene_label(ts, label, sizeof label);
    if (n == 0) {
        return 0;
    }
    keyed* k = malloc((size_t)n * sizeof *k);
    if (!k || !reserve(ts, (size_t)n)) {
        free(k);
        return fail(err, size, "out of memory adding %s", list);
    }
    for (int i = 0; i < n; ++i) {
        k[i].key = shapes[i].has_key ? shapes[i].key : ts->added + i;
        k[i].index = i;
        if (find(ts, k[i].key)) {
            const long long key = (long long)k[i].key;
            free(k);
            return fail(err, size, "%s[%d]: key %lld is already in %s", list, i, key, label);
        }
    }
    qsort(k, (size_t)n, sizeof *k, cmp_keyed);
    for (int i = 1; i < n; ++i) {
        if (k[i].key == k[i - 1].key) {
            const int a = k[i - 1].index, b = k[i].index;
            const long long key = (long long)k[i].key;
            free(k);
            return fail(err, size, "%s[%d] and %s[%d] have the same key %lld", list, a, list, b, key);
        }
    }
    /* Back in list order: the tree is built in the order of the input. */
    for (int i = 0; i < n; ++i) {
        k[i].key = shapes[i].has_key ? shapes[i].key : ts->added + i;
    }
    for (int i = 0; i < n; ++i) {
        const req_shape* s = &shapes[i];
        const sw_scene_error e = sw_scene_add(ts->scene, k[i].key, &s->shape, s->category, s->mask, NULL);
        if (e != SW_SCENE_OK) {
            for (int j = 0; j < i; ++j) {
                sw_scene_remove(ts->scene, k[j].key);
            }
            free(k);
            return fail(err, size, "%s: the library refused %s[%d] (%s)", label, list, i, sw_scene_error_string(e));
        }
    }
    for (int i = 0; i < n; ++i) {
        req_shape* s = &shapes[i];
        entry e = {k[i].key, s->category, s->mask, NULL, NULL, NULL, true};
        if (take) {
            e.vertices = s->vertices;
            e.hull = s->hull;
            e.mesh = s->mesh;
            s->vertices = NULL;
            s->hull = NULL;
            s->mesh = NULL;
        }
        place(ts->slots, ts->cap, &e);
    }
    ts->count += (size_t)n;
    ts->added += n;
    free(k);
    if (4 * (int64_t)n >= sw_scene_count(ts->scene)) {
        sw_scene_optimize(ts->scene);
    }
    return 0;
}

/* ---- the store ---------------------------------------------------------------- */

scene_store* scene_store_create(void) { return calloc(1, sizeof(scene_store)); }

void scene_store_destroy(scene_store* store)
{
    if (!store) {
        return;
    }
    for (size_t i = 0; i < store->count; ++i) {
        scene_free(store->list[i]);
    }
    free(store->list);
    free(store);
}

static tool_scene** lookup(scene_store* store, const char* name)
{
    for (size_t i = 0; i < store->count; ++i) {
        if (strcmp(store->list[i]->name, name) == 0) {
            return &store->list[i];
        }
    }
    return NULL;
}

static int unknown_scene(const char* name, char* err, size_t size)
{
    return fail(err, size, "unknown scene \"%.40s%s\" (scene_create makes one)", name, strlen(name) > 40 ? "..." : "");
}

static int create(scene_store* store, request* req, tool_scene** out, char* err, size_t size)
{
    tool_scene** slot = lookup(store, req->scene_name);
    if (!slot && store->count == store->cap) {
        const size_t cap = store->cap ? 2 * store->cap : 4;
        tool_scene** list = realloc(store->list, cap * sizeof *list);
        if (!list) {
            return fail(err, size, "out of memory creating the scene");
        }
        store->list = list;
        store->cap = cap;
    }
    tool_scene* ts = scene_new(req->scene_name);
    if (!ts) {
        return fail(err, size, "out of memory creating the scene");
    }
    if (add_shapes(ts, req->shapes, req->shape_count, "shapes", true, err, size) != 0) {
        scene_free(ts);
        return -1;
    }
    if (slot) {
        /* Replaced: the old scene and its shapes go. */
        scene_free(*slot);
        *slot = ts;
    } else {
        store->list[store->count++] = ts;
    }
    *out = ts;
    return 0;
}

static int remove_keys(tool_scene* ts, const request* req, char* err, size_t size)
{
    char label[64];
    scene_label(ts, label, sizeof label);
    const int n = req->key_count;
    keyed* k = malloc((size_t)(n > 0 ? n : 1) * sizeof *k);
    if (!k) {
        return fail(err, size, "out of memory removing keys");
    }
    for (int i = 0; i < n; ++i) {
        k[i] = (keyed){req->keys[i], i};
        if (!find(ts, req->keys[i])) {
            free(k);
            return fail(err, size, "keys[%d]: %s has no shape with key %lld", i, label, (long long)req->keys[i]);
        }
    }
    qsort(k, (size_t)n, sizeof *k, cmp_keyed);
    for (int i = 1; i < n; ++i) {
        if (k[i].key == k[i - 1].key) {
            const int a = k[i - 1].index, b = k[i].index;
            free(k);
            return fail(err, size, "keys[%d] and keys[%d] are the same key %lld", a, b, (long long)req->keys[b]);
        }
    }
    free(k);
    for (int i = 0; i < n; ++i) {
        sw_scene_remove(ts->scene, req->keys[i]);
        erase(ts, find(ts, req->keys[i]));
    }
    return 0;
}

static int move_shape(tool_scene* ts, request* req, char* err, size_t size)
{
    char label[64];
    scene_label(ts, label, sizeof label);
    entry* e = find(ts, req->key);
    if (!e) {
        return fail(err, size, "%s has no shape with key %lld", label, (long long)req->key);
    }
    req_shape* s = &req->shapes[0];
    const uint64_t category = s->has_category ? s->category : e->category;
    const uint64_t mask = s->has_mask ? s->mask : e->mask;
    sw_scene_error r = sw_scene_move(ts->scene, req->key, &s->shape, req->velocity, req->angular_velocity);
    if (r != SW_SCENE_OK) {
        return fail(err, size, "%s: the library refused the move (%s)", label, sw_scene_error_string(r));
    }
    if (category != e->category || mask != e->mask) {
        sw_scene_set_filter(ts->scene, req->key, category, mask, NULL);
    }
    /* The scene now holds the new shape: the old one's data can go. */
    release(e);
    e->category = category;
    e->mask = mask;
    e->vertices = s->vertices;
    e->hull = s->hull;
    e->mesh = s->mesh;
    s->vertices = NULL;
    s->hull = NULL;
    s->mesh = NULL;
    return 0;
}

int scenes_apply(scene_store* store, request* req, int* count, char* err, size_t size)
{
    tool_scene* ts = NULL;
    int rc;
    if (req->op == REQ_SCENE_CREATE) {
        rc = create(store, req, &ts, err, size);
    } else {
        tool_scene** slot = lookup(store, req->scene_name);
        if (!slot) {
            return unknown_scene(req->scene_name, err, size);
        }
        ts = *slot;
        switch (req->op) {
        case REQ_SCENE_ADD:
            rc = add_shapes(ts, req->shapes, req->shape_count, "shapes", true, err, size);
            break;
        case REQ_SCENE_REMOVE:
            rc = remove_keys(ts, req, err, size);
            break;
        case REQ_SCENE_MOVE:
            rc = move_shape(ts, req, err, size);
            break;
        default:
            return fail(err, size, "not a scene request");
        }
    }
    if (rc == 0) {
        *count = sw_scene_count(ts->scene);
    }
    return rc;
}

int request_apply_scene_change(request* req, scene_store* scenes, char* err, size_t err_size)
{
    int count;
    return scenes_apply(scenes, req, &count, err, err_size);
}

/* ---- queries ------------------------------------------------------------------ */

tool_scene* tool_scene_open(scene_store* store, const request* req, char* err, size_t size)
{
    if (req->scene_name) {
        tool_scene** slot = store ? lookup(store, req->scene_name) : NULL;
        if (!slot) {
            unknown_scene(req->scene_name, err, size);
            return NULL;
        }
        return *slot;
    }
    tool_scene* ts = scene_new(NULL);
    if (!ts) {
        fail(err, size, "out of memory building the scene");
        return NULL;
    }
    if (add_shapes(ts, req->shapes, req->shape_count, "scene", false, err, size) != 0) {
        scene_free(ts);
        return NULL;
    }
    return ts;
}

void tool_scene_close(tool_scene* ts)
{
    if (ts && !ts->name) {
        scene_free(ts);
    }
}

const sw_scene* tool_scene_get(const tool_scene* ts) { return ts->scene; }

static int cmp_key(const void* pa, const void* pb)
{
    const int64_t a = *(const int64_t*)pa, b = *(const int64_t*)pb;
    return a < b ? -1 : (a > b);
}

int64_t* tool_scene_keys(const tool_scene* ts, int* count)
{
    *count = 0;
    int64_t* keys = ts->count > 0 ? malloc(ts->count * sizeof *keys) : NULL;
    if (!keys) {
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < ts->cap; ++i) {
        if (ts->slots[i].used) {
            keys[n++] = ts->slots[i].key;
        }
    }
    qsort(keys, n, sizeof *keys, cmp_key);
    *count = (int)n;
    return keys;
}

int tool_scene_query(const tool_scene* ts, const request* req, scene_result* out)
{
    memset(out, 0, sizeof *out);
    const sw_scene_filter filter = {req->mask, UINT64_MAX, NULL, NULL};
    const sw_scene* scene = ts->scene;
    if (req->op == REQ_DISTANCE) {
        const int n = sw_scene_closest(scene, &req->a, req->max_distance, &filter, &out->closest);
        out->count = n > 0 ? n : 0;
        return n < 0 ? SCENE_QUERY_INVALID : 0;
    }
    /* Closest and any give one hit; for all, a guess, then room for all. */
    int cap = req->op != REQ_OVERLAP && req->hits != SW_HITS_ALL ? 1 : 16;
    for (;;) {
        int n;
        if (req->op == REQ_OVERLAP) {
            out->overlaps = malloc((size_t)cap * sizeof *out->overlaps);
            if (!out->overlaps) {
                return SCENE_QUERY_NO_MEMORY;
            }
            n = sw_scene_overlap_all(scene, &req->a, &filter, out->overlaps, cap);
        } else {
            out->hits = malloc((size_t)cap * sizeof *out->hits);
            if (!out->hits) {
                return SCENE_QUERY_NO_MEMORY;
            }
            n = req->op == REQ_RAYCAST
                    ? sw_scene_raycast(scene, &req->ray, req->hits, &filter, out->hits, cap)
                    : sw_scene_sweep(scene, &req->a, req->d, &req->opt, req->hits, &filter, out->hits, cap);
        }
        if (n < 0) {
            return SCENE_QUERY_INVALID;
        }
        if (n <= cap) {
            out->count = n;
            return 0;
        }
        scene_result_free(out);
        cap = n;
    }
}

void scene_result_free(scene_result* r)
{
    free(r->hits);
    free(r->overlaps);
    r->hits = NULL;
    r->overlaps = NULL;
    r->count = 0;
}
