/* The incremental tree: insertion descends toward the sibling that grows
 * the tree's total surface the least (the branch-and-bound cost of
 * Box2D's dynamic tree, greedy), then walks back up refitting boxes and
 * rotating any node whose children's heights differ by more than one. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scene/tree.h"

static double box_area(const sw_dbox* b)
{
    const double x = b->hi[0] - b->lo[0], y = b->hi[1] - b->lo[1], z = b->hi[2] - b->lo[2];
    return 2 * (x * y + y * z + z * x);
}

static sw_dbox box_union(const sw_dbox* a, const sw_dbox* b)
{
    sw_dbox u;
    for (int k = 0; k < 3; ++k) {
        u.lo[k] = a->lo[k] < b->lo[k] ? a->lo[k] : b->lo[k];
        u.hi[k] = a->hi[k] > b->hi[k] ? a->hi[k] : b->hi[k];
    }
    return u;
}

/* Node i's float copies of its children's boxes. */
static void sync(sw_tree* t, int i)
{
    sw_tree_node* n = &t->nodes[i];
    for (int c = 0; c < 2; ++c) {
        const sw_dbox* b = &t->nodes[n->child[c]].box;
        for (int k = 0; k < 3; ++k) {
            n->cb[k][c] = sw_tree_float_down(b->lo[k]);
            n->cb[k][2 + c] = sw_tree_float_up(b->hi[k]);
        }
    }
}

void sw_tree_init(sw_tree* t) { memset(t, 0, sizeof *t), t->free_list = -1, t->root = -1; }

void sw_tree_free(sw_tree* t)
{
    free(t->nodes);
    sw_tree_init(t);
}

static int alloc_node(sw_tree* t)
{
    if (t->free_list < 0) {
        const int cap = t->capacity ? 2 * t->capacity : 16;
        sw_tree_node* grown = realloc(t->nodes, (size_t)cap * sizeof *grown);
        if (!grown) {
            return -1;
        }
        t->nodes = grown;
        for (int i = t->capacity; i < cap; ++i) {
            t->nodes[i].parent = i + 1 < cap ? i + 1 : -1;
            t->nodes[i].height = -1;
        }
        t->free_list = t->capacity;
        t->capacity = cap;
    }
    const int n = t->free_list;
    t->free_list = t->nodes[n].parent;
    t->nodes[n] = (sw_tree_node){{{0}}, {-1, -1}, 0, -1, {{0, 0, 0}, {0, 0, 0}}, -1};
    t->count++;
    return n;
}

static void free_node(sw_tree* t, int n)
{
    t->nodes[n].parent = t->free_list;
    t->nodes[n].height = -1;
    t->free_list = n;
    t->count--;
}

/* Rotates node a up if its subtrees are unbalanced; returns the subtree's
 * new root. */
static int balance(sw_tree* t, int a)
{
    sw_tree_node* n = t->nodes;
    if (sw_tree_is_leaf(&n[a]) || n[a].height < 2) {
        return a;
    }
    const int b = n[a].child[0], c = n[a].child[1];
    const int diff = n[c].height - n[b].height;
    if (diff >= -1 && diff <= 1) {
        return a;
    }
    /* The taller child x rises to a's place; a takes x's shorter child. */
    const int xi = diff > 1 ? 1 : 0;
    const int x = n[a].child[xi], y = n[a].child[1 - xi];
    const int f = n[x].child[0], g = n[x].child[1];
    n[x].child[0] = a;
    n[x].parent = n[a].parent;
    n[a].parent = x;
    if (n[x].parent >= 0) {
        sw_tree_node* p = &n[n[x].parent];
        p->child[p->child[0] == a ? 0 : 1] = x;
    } else {
        t->root = x;
    }
    const int tall = n[f].height > n[g].height ? f : g, short_ = tall == f ? g : f;
    n[x].child[1] = tall;
    n[a].child[xi] = short_;
    n[short_].parent = a;
    (void)y;
    n[a].box = box_union(&n[n[a].child[0]].box, &n[n[a].child[1]].box);
    n[x].box = box_union(&n[a].box, &n[tall].box);
    n[a].height = 1 + (n[n[a].child[0]].height > n[n[a].child[1]].height ? n[n[a].child[0]].height
                                                                          : n[n[a].child[1]].height);
    n[x].height = 1 + (n[a].height > n[tall].height ? n[a].height : n[tall].height);
    sync(t, a);
    return x;
}

/* Refits and balances from node i up to the root; above the first node,
 * stops once a node's box and height come out as they were (nothing
 * above it changes). */
static void fix_upward(sw_tree* t, int i)
{
    for (bool first = true; i >= 0; first = false) {
        const int before = i;
        const sw_dbox old_box = t->nodes[i].box;
        const int old_height = t->nodes[i].height;
        i = balance(t, i);
        sw_tree_node* n = &t->nodes[i];
        const sw_tree_node* c0 = &t->nodes[n->child[0]];
        const sw_tree_node* c1 = &t->nodes[n->child[1]];
        n->box = box_union(&c0->box, &c1->box);
        n->height = 1 + (c0->height > c1->height ? c0->height : c1->height);
        sync(t, i);
        if (!first && i == before && n->height == old_height && memcmp(&n->box, &old_box, sizeof old_box) == 0) {
            return;
        }
        i = n->parent;
    }
}

#define VISITS 4096

int sw_tree_insert(sw_tree* t, const sw_dbox* box, int proxy)
{
    const int leaf = alloc_node(t);
    if (leaf < 0) {
        return -1;
    }
    t->nodes[leaf].box = *box;
    t->nodes[leaf].proxy = proxy;
    if (t->root < 0) {
        t->root = leaf;
        return leaf;
    }
    /* The best sibling by branch and bound (Catto, GDC 2019): a sibling s
     * costs the area of s joined with the leaf plus what joining grows
     * every ancestor of s by; a subtree is searched only while its lower
     * bound (the leaf's own area plus the growth inherited so far) can
     * beat the best. */
    const double leaf_area = box_area(box);
    int s = t->root;
    sw_dbox joined = box_union(&t->nodes[s].box, box);
    double best_cost = box_area(&joined);
    int stack[2 * 64];
    double inherited[2 * 64];
    int top = 0, visits = 0;
    stack[top] = t->root;
    inherited[top++] = 0;
    /* At most VISITS nodes, a bound on the worst case only: a search cut
     * at 96 nodes left 10,000 random spheres a tree 1.7 times costlier
     * (its area sum) than the whole search, for no time saved. */
    while (top > 0 && visits++ < VISITS) {
        --top;
        const int i = stack[top];
        const double inh = inherited[top];
        const sw_tree_node* n = &t->nodes[i];
        joined = box_union(&n->box, box);
        const double direct = box_area(&joined);
        if (direct + inh < best_cost) {
            best_cost = direct + inh;
            s = i;
        }
        if (sw_tree_is_leaf(n)) {
            continue;
        }
        const double down_inh = inh + direct - box_area(&n->box);
        if (leaf_area + down_inh < best_cost && top + 2 <= 2 * 64) {
            /* The child the leaf grows less is searched first. */
            const sw_dbox u0 = box_union(&t->nodes[n->child[0]].box, box);
            const sw_dbox u1 = box_union(&t->nodes[n->child[1]].box, box);
            const int first = box_area(&u1) - box_area(&t->nodes[n->child[1]].box) <
                                      box_area(&u0) - box_area(&t->nodes[n->child[0]].box)
                                  ? 1
                                  : 0;
            stack[top] = n->child[1 - first];
            inherited[top++] = down_inh;
            stack[top] = n->child[first];
            inherited[top++] = down_inh;
        }
    }
    const int parent = alloc_node(t);
    if (parent < 0) {
        free_node(t, leaf);
        return -1;
    }
    sw_tree_node* n = t->nodes;
    const int old_parent = n[s].parent;
    n[parent].parent = old_parent;
    n[parent].child[0] = s;
    n[parent].child[1] = leaf;
    n[parent].box = box_union(&n[s].box, box);
    n[parent].height = n[s].height + 1;
    n[s].parent = parent;
    n[leaf].parent = parent;
    sync(t, parent);
    if (old_parent >= 0) {
        n[old_parent].child[n[old_parent].child[0] == s ? 0 : 1] = parent;
    } else {
        t->root = parent;
    }
    /* From the new parent up: it is unbalanced itself when it became the
     * root above a tall subtree (found: shapes each beyond and larger than
     * all before them made a chain as tall as their count). */
    fix_upward(t, parent);
    return leaf;
}

void sw_tree_remove(sw_tree* t, int leaf)
{
    sw_tree_node* n = t->nodes;
    const int parent = n[leaf].parent;
    free_node(t, leaf);
    if (parent < 0) {
        t->root = -1;
        return;
    }
    const int sibling = n[parent].child[n[parent].child[0] == leaf ? 1 : 0];
    const int grand = n[parent].parent;
    n[sibling].parent = grand;
    if (grand >= 0) {
        n[grand].child[n[grand].child[0] == parent ? 0 : 1] = sibling;
    } else {
        t->root = sibling;
    }
    free_node(t, parent);
    fix_upward(t, grand);
}

/* ---- rebuild ------------------------------------------------------------ */

typedef struct item {
    sw_dbox box;
    double c[3];
    int proxy;
} item;

#define BINS 16

/* Builds the subtree of items[begin, end) top-down, splitting by the
 * binned surface-area heuristic on the centroids' longest axis; returns
 * its root. Nodes come from the free list, which holds enough. */
/* Below this depth ranges split in halves by count: the tree is then at
 * most DEEP + 31 levels tall whatever the shapes' layout (a geometric
 * sequence of sizes and places made the heuristic alone 377 levels
 * deep), which the queries' fixed stacks cover. */
#define DEEP 40

static int build_subtree(sw_tree* t, item* items, int begin, int end, int level)
{
    if (end - begin == 1) {
        const int leaf = alloc_node(t);
        t->nodes[leaf].box = items[begin].box;
        t->nodes[leaf].proxy = items[begin].proxy;
        return leaf;
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = begin; i < end; ++i) {
        for (int k = 0; k < 3; ++k) {
            lo[k] = items[i].c[k] < lo[k] ? items[i].c[k] : lo[k];
            hi[k] = items[i].c[k] > hi[k] ? items[i].c[k] : hi[k];
        }
    }
    int axis = 0;
    for (int k = 1; k < 3; ++k) {
        axis = hi[k] - lo[k] > hi[axis] - lo[axis] ? k : axis;
    }
    int mid = begin + (end - begin) / 2;
    const double ext = hi[axis] - lo[axis];
    if (level <= DEEP && ext > 0 && isfinite(ext)) {
        volatile double divisor = ext; /* not hoisted above the test (clang) */
        const double scale = BINS * (1 - 1e-9) / divisor;
        int count[BINS] = {0};
        sw_dbox bin[BINS];
        for (int j = 0; j < BINS; ++j) {
            for (int k = 0; k < 3; ++k) {
                bin[j].lo[k] = INFINITY;
                bin[j].hi[k] = -INFINITY;
            }
        }
        for (int i = begin; i < end; ++i) {
            int j = (int)((items[i].c[axis] - lo[axis]) * scale);
            j = j < 0 ? 0 : (j >= BINS ? BINS - 1 : j);
            count[j]++;
            bin[j] = box_union(&bin[j], &items[i].box);
        }
        double right_area[BINS];
        int right_count[BINS];
        sw_dbox acc = bin[BINS - 1];
        int n = count[BINS - 1];
        for (int j = BINS - 1; j > 0; --j) {
            if (j < BINS - 1) {
                acc = box_union(&acc, &bin[j]);
                n += count[j];
            }
            right_area[j] = n ? box_area(&acc) : 0;
            right_count[j] = n;
        }
        double best = INFINITY;
        int best_bin = -1;
        acc = bin[0];
        n = count[0];
        for (int j = 1; j < BINS; ++j) {
            if (j > 1) {
                acc = box_union(&acc, &bin[j - 1]);
                n += count[j - 1];
            }
            if (n == 0 || right_count[j] == 0) {
                continue;
            }
            const double cost = box_area(&acc) * n + right_area[j] * right_count[j];
            if (cost < best) {
                best = cost;
                best_bin = j;
            }
        }
        if (best_bin > 0) {
            int i = begin, j = end - 1;
            while (i <= j) {
                int b = (int)((items[i].c[axis] - lo[axis]) * scale);
                b = b < 0 ? 0 : (b >= BINS ? BINS - 1 : b);
                if (b < best_bin) {
                    ++i;
                } else {
                    const item x = items[i];
                    items[i] = items[j];
                    items[j--] = x;
                }
            }
            if (i > begin && i < end) {
                mid = i;
            }
        }
    }
    const int self = alloc_node(t);
    const int c0 = build_subtree(t, items, begin, mid, level + 1), c1 = build_subtree(t, items, mid, end, level + 1);
    sw_tree_node* n = &t->nodes[self];
    n->child[0] = c0;
    n->child[1] = c1;
    t->nodes[c0].parent = self;
    t->nodes[c1].parent = self;
    n->box = box_union(&t->nodes[c0].box, &t->nodes[c1].box);
    n->height = 1 + (t->nodes[c0].height > t->nodes[c1].height ? t->nodes[c0].height : t->nodes[c1].height);
    sync(t, self);
    return self;
}

bool sw_tree_rebuild(sw_tree* t)
{
    if (t->root < 0) {
        return true;
    }
    const int leaves = (t->count + 1) / 2;
    item* items = malloc((size_t)leaves * sizeof *items);
    if (!items) {
        return false;
    }
    int n = 0;
    for (int i = 0; i < t->capacity; ++i) {
        const sw_tree_node* x = &t->nodes[i];
        if (x->height == 0 && sw_tree_is_leaf(x)) {
            items[n] = (item){x->box, {0, 0, 0}, x->proxy};
            for (int k = 0; k < 3; ++k) {
                items[n].c[k] = 0.5 * x->box.lo[k] + 0.5 * x->box.hi[k];
            }
            ++n;
        }
    }
    /* Every node back on the free list, then the new tree from it. */
    t->free_list = -1;
    for (int i = t->capacity - 1; i >= 0; --i) {
        t->nodes[i].parent = t->free_list;
        t->nodes[i].height = -1;
        t->free_list = i;
    }
    t->count = 0;
    t->root = build_subtree(t, items, 0, n, 0);
    t->nodes[t->root].parent = -1;
    free(items);
    return true;
}
