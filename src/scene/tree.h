/* The scene's incremental bounding-volume tree (tree.c): a binary tree of
 * fat boxes over the shapes' proxies, changed by insertions and removals
 * with the balancing rotations of an AVL tree, as Box2D's dynamic tree
 * does. Boxes are in double, so that a double build's whole range fits
 * and a box is never narrower than the shape it holds. */
#ifndef SWEEP_SCENE_TREE_H
#define SWEEP_SCENE_TREE_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Tallest tree the scene keeps (it rebuilds a taller one); the queries'
 * stacks hold a path's siblings, one per level. */
#define SW_TREE_MAX_HEIGHT 96

typedef struct sw_dbox {
    double lo[3], hi[3];
} sw_dbox;

/* The first 64 bytes are what a query reads of an inner node: both
 * children's boxes in float, rounded outward, axis by axis as
 * {lo of child 0, lo of child 1, hi of child 0, hi of child 1} (one SSE
 * vector an axis), and the children. */
typedef struct sw_tree_node {
    float cb[3][4];
    int child[2]; /* child[0] == -1: a leaf */
    int height;   /* 0 for a leaf, -1 for a free node */
    int proxy;    /* a leaf's proxy */
    sw_dbox box;
    int parent; /* -1 for the root; the next free node on the free list */
} sw_tree_node;

typedef struct sw_tree {
    sw_tree_node* nodes;
    int capacity;
    int count;
    int free_list;
    int root;
} sw_tree;

void sw_tree_init(sw_tree* t);
void sw_tree_free(sw_tree* t);
/* Inserts a leaf for proxy with the given box; returns the leaf, or -1
 * when out of memory. */
int sw_tree_insert(sw_tree* t, const sw_dbox* box, int proxy);
void sw_tree_remove(sw_tree* t, int leaf);
/* Rebuilds the whole tree over its leaves' boxes, top-down by the binned
 * surface-area heuristic (incremental insertions give trees a few times
 * costlier to query). Leaves move to new nodes: a leaf is a node of
 * height 0 with child[0] == -1, and its proxy says whose it is. False
 * (the tree unchanged) when out of memory. */
bool sw_tree_rebuild(sw_tree* t);

/* x rounded to float toward -inf (down) or +inf (up); beyond float's
 * range, infinity (still conservative). */
static inline float sw_tree_float_up(double x)
{
    if (!(x >= -FLT_MAX)) {
        return -FLT_MAX; /* no float conversion that overflows (traps) */
    }
    if (x > FLT_MAX) {
        return INFINITY;
    }
    float f = (float)x;
    if ((double)f < x) {
        /* The next float up: one more unit in the last place for f > 0,
         * one less for f < 0 (bits of a float ordered by magnitude). */
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        b = f > 0 ? b + 1 : (f < 0 ? b - 1 : 1);
        memcpy(&f, &b, sizeof f);
    }
    return f;
}

static inline float sw_tree_float_down(double x)
{
    const float f = (float)x;
    return (double)f > x ? -sw_tree_float_up(-x) : f;
}
static inline bool sw_tree_is_leaf(const sw_tree_node* n) { return n->child[0] < 0; }

#endif
