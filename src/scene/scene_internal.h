/* A scene's layout (scene.c changes it, query.c and batch.c read it). */
#ifndef SWEEP_SCENE_INTERNAL_H
#define SWEEP_SCENE_INTERNAL_H

#include "internal.h"
#include "scene/tree.h"
#include "sweep/scene.h"

typedef struct sw_proxy {
    sw_shape shape;
    sw_dbox tight; /* the shape's bounds */
    int64_t key;
    uint64_t category, mask;
    void* user;
    sw_vec3 v, w;
    int leaf;      /* its tree leaf (whose box is the fat box); -1: a free proxy */
    bool moved;    /* moved since added: keeps a fat box through rebuilds */
    int next_free;
} sw_proxy;

struct sw_scene {
    sw_tree tree;
    sw_proxy* proxies;
    int proxy_capacity;
    int proxy_free;
    int count;
    /* Key -> proxy, open addressing: slot < 0 empty, -2 deleted. */
    int* slots;
    int slot_capacity; /* a power of two */
    int slot_used;     /* filled and deleted slots */
    int changes;       /* insertions and removals in the tree since its last rebuild */
};

/* The proxy of key, or -1. */
int sw_internal_scene_find(const sw_scene* s, int64_t key);

/* Box of a valid shape, in double, widened outward by a few ulps of its
 * size (bounds of rotated shapes are computed with rounding). */
sw_dbox sw_internal_shape_dbox(const sw_shape* s);

#endif
