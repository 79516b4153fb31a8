/* Batches: an array of ray casts or sweeps against one scene, split into
 * contiguous chunks over C11 threads. Each query is answered by the same
 * call a caller would make, so the answers are those of one-by-one
 * calls, whatever the number of threads. */
#ifndef __STDC_NO_THREADS__
#include <threads.h>
#endif

#include "scene/scene_internal.h"

typedef struct batch {
    const sw_scene* scene;
    const sw_ray* rays;
    const sw_shape* a;
    const sw_vec3* d;
    const sw_sweep_options* opt;
    sw_hits_mode mode;
    const sw_scene_filter* filter;
    sw_scene_hit* out;
    int* hit_count;
    int begin, end;
} batch;

static int run_slice(void* arg)
{
    const batch* b = arg;
    for (int i = b->begin; i < b->end; ++i) {
        int r;
        if (b->rays) {
            r = sw_scene_raycast(b->scene, &b->rays[i], b->mode, b->filter, &b->out[i], 1);
        } else {
            r = sw_scene_sweep(b->scene, &b->a[i], b->d[i], b->opt, b->mode, b->filter, &b->out[i], 1);
        }
        if (r <= 0) {
            b->out[i] = (sw_scene_hit){{0}, 0, NULL, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        }
        if (b->hit_count) {
            b->hit_count[i] = r;
        }
    }
    return 0;
}

#define MAX_THREADS 64

static int run_batch(batch whole, int n, int threads)
{
#ifdef __STDC_NO_THREADS__
    threads = 1; /* no C11 threads here: the calling thread answers all */
#endif
    if (threads <= 1 || n < 2) {
        whole.begin = 0;
        whole.end = n;
        run_slice(&whole);
        return 0;
    }
    if (threads > MAX_THREADS) {
        threads = MAX_THREADS;
    }
    if (threads > n) {
        threads = n;
    }
#ifndef __STDC_NO_THREADS__
    batch part[MAX_THREADS];
    thrd_t id[MAX_THREADS];
    int started = 0;
    for (int k = 0; k < threads; ++k) {
        part[k] = whole;
        part[k].begin = (int)((long long)n * k / threads);
        part[k].end = (int)((long long)n * (k + 1) / threads);
    }
    /* The calling thread takes chunk 0. */
    for (int k = 1; k < threads; ++k) {
        if (thrd_create(&id[k], run_slice, &part[k]) != thrd_success) {
            break;
        }
        started = k;
    }
    run_slice(&part[0]);
    for (int k = 1; k <= started; ++k) {
        thrd_join(id[k], NULL);
    }
    /* Chunks whose thread could not start: answered here. */
    for (int k = started + 1; k < threads; ++k) {
        run_slice(&part[k]);
    }
#endif
    return 0;
}

int sw_scene_raycast_batch(const sw_scene* scene, const sw_ray* rays, int n, sw_hits_mode mode,
                           const sw_scene_filter* filter, sw_scene_hit* out, int* hit_count, int threads)
{
    SW_REQUIRE(scene && n >= 0 && (n == 0 || (rays && out)) && (mode == SW_HITS_CLOSEST || mode == SW_HITS_ANY), -1);
    const batch b = {scene, rays, NULL, NULL, NULL, mode, filter, out, hit_count, 0, 0};
    return run_batch(b, n, threads);
}

int sw_scene_sweep_batch(const sw_scene* scene, const sw_shape* a, const sw_vec3* d, int n,
                         const sw_sweep_options* opt, sw_hits_mode mode, const sw_scene_filter* filter,
                         sw_scene_hit* out, int* hit_count, int threads)
{
    SW_REQUIRE(scene && n >= 0 && (n == 0 || (a && d && out)) && (mode == SW_HITS_CLOSEST || mode == SW_HITS_ANY),
               -1);
    const batch b = {scene, NULL, a, d, opt, mode, filter, out, hit_count, 0, 0};
    return run_batch(b, n, threads);
}
