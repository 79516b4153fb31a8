/* Scenes over threads (DESIGN.md §2b, sweep/scene.h): batches over 0 to 100
 * threads answer exactly as one-by-one calls, and several threads query one
 * scene at once (with a callback filter) while a batch runs over threads of
 * its own, each getting the answers a lone thread gets. `make test-tsan`
 * runs this under ThreadSanitizer. */
#include <stdio.h>
#include <threads.h>

#include "scene_gen.h"

#if defined(__SANITIZE_THREAD__)
#define TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN_BUILD 1
#endif
#endif

#ifdef TSAN_BUILD
/* ThreadSanitizer does not intercept C11 threads (glibc's thrd_create
 * reaches pthread_create through an internal symbol; a thread TSan did
 * not see starting crashes it: google/sanitizers#1603). Under TSan this
 * program defines thrd_create and thrd_join over pthreads, which it
 * intercepts; the library's batches (linked statically) and the threads
 * below call these. */
#include <pthread.h>
#include <stdint.h>

typedef struct tsan_start {
    thrd_start_t fn;
    void* arg;
} tsan_start;

static void* tsan_trampoline(void* p)
{
    const tsan_start s = *(tsan_start*)p;
    free(p);
    return (void*)(intptr_t)s.fn(s.arg);
}

int thrd_create(thrd_t* thr, thrd_start_t fn, void* arg)
{
    tsan_start* s = malloc(sizeof *s);
    if (!s) {
        return thrd_nomem;
    }
    s->fn = fn;
    s->arg = arg;
    pthread_t t;
    if (pthread_create(&t, NULL, tsan_trampoline, s) != 0) {
        free(s);
        return thrd_error;
    }
    *thr = (thrd_t)t;
    return thrd_success;
}

int thrd_join(thrd_t thr, int* res)
{
    void* r;
    if (pthread_join((pthread_t)thr, &r) != 0) {
        return thrd_error;
    }
    if (res) {
        *res = (int)(intptr_t)r;
    }
    return thrd_success;
}
#endif

/* ---- batches and threads ------------------------------------------------------------- */

enum { BATCH = 301 };

typedef struct batch_data {
    world w;
    sw_ray rays[BATCH];
    sw_shape a[BATCH];
    sw_vec3 d[BATCH];
    sw_vec3 poly[BATCH][8];
} batch_data;

static batch_data* batch_world(void)
{
    batch_data* b = calloc(1, sizeof *b);
    assert_non_null(b);
    world_init(&b->w, 1500 / SPEED, 0, V(3, -2, 1), 11);
    for (int i = 0; i < 1500 / SPEED; ++i) {
        add_one(&b->w);
    }
    swt_rng* r = &b->w.rng;
    for (int i = 0; i < BATCH; ++i) {
        double dir[3];
        swt_rng_dir(r, dir);
        b->rays[i] =
            (sw_ray){jitter(r, b->w.center, b->w.half), V(dir[0], dir[1], dir[2]), R(urand(r, 0, 2 * b->w.half))};
        b->a[i] = make_shape(r, moving_types[i % 6], jitter(r, b->w.center, b->w.half), b->poly[i]);
        swt_rng_dir(r, dir);
        const double len = urand(r, 0, 2 * b->w.half);
        b->d[i] = V(dir[0] * len, dir[1] * len, dir[2] * len);
    }
    return b;
}

static void test_batches(void** state)
{
    (void)state;
    batch_data* b = batch_world();
    static sw_scene_hit want[BATCH], got[BATCH];
    static int want_n[BATCH], got_n[BATCH];
    const sw_sweep_options opt = {R(0.05), true};
    sw_scene_filter mask = {5, ~(uint64_t)0, NULL, NULL};
    const sw_scene_filter* filters[2] = {NULL, &mask};
    long answered = 0, hits = 0;
    for (int sweep = 0; sweep < 2; ++sweep) {
        for (int m = 0; m < 2; ++m) {
            for (int fi = 0; fi < 2; ++fi) {
                const sw_hits_mode mode = m ? SW_HITS_ANY : SW_HITS_CLOSEST;
                for (int i = 0; i < BATCH; ++i) {
                    /* Exactly what the batch stores for a miss. */
                    want[i] = (sw_scene_hit){{0}, 0, NULL, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
                    want_n[i] =
                        sweep ? sw_scene_sweep(b->w.scene, &b->a[i], b->d[i], &opt, mode, filters[fi], &want[i], 1)
                              : sw_scene_raycast(b->w.scene, &b->rays[i], mode, filters[fi], &want[i], 1);
                    hits += want_n[i] > 0;
                }
                static const int threads[] = {0, 1, 2, 3, 4, 100};
                for (int k = 0; k < 6; ++k) {
                    memset(got, 0xab, sizeof got);
                    memset(got_n, 0xab, sizeof got_n);
                    const int r = sweep ? sw_scene_sweep_batch(b->w.scene, b->a, b->d, BATCH, &opt, mode, filters[fi],
                                                               got, got_n, threads[k])
                                        : sw_scene_raycast_batch(b->w.scene, b->rays, BATCH, mode, filters[fi], got,
                                                                 got_n, threads[k]);
                    assert_int_equal(r, 0);
                    assert_memory_equal(got_n, want_n, sizeof want_n);
                    for (int i = 0; i < BATCH; ++i) {
                        if (!identical_hits(&got[i], &want[i])) {
                            print_message("batch (%s, mode %d, %d threads): query %d differs\n",
                                          sweep ? "sweep" : "raycast", m, threads[k], i);
                            fail();
                        }
                    }
                    answered += BATCH;
                }
            }
        }
    }
    print_message("batches: %ld answers over 0-100 threads identical (every field bit for bit) to one-by-one calls "
                  "(%ld hits)\n",
                  answered, hits * 6);
    world_free(&b->w);
    free(b);
}

/* Several threads query one scene at once, each comparing with the answers
 * the main thread got alone. */
enum { THREADS = 4 };

typedef struct reader {
    const batch_data* b;
    const sw_scene_hit* closest; /* per query: sweep CLOSEST */
    const int* closest_n;
    const sw_scene_hit* all; /* per query: up to 8 ray hits, ALL */
    const int* all_n;
    const sw_scene_distance* near;
    const int* overlaps;
    const sw_scene_filter* filter;
    int first, mismatches;
} reader;

static int read_scene(void* arg)
{
    reader* t = arg;
    const batch_data* b = t->b;
    for (int k = 0; k < BATCH; ++k) {
        const int i = (t->first + k) % BATCH;
        sw_scene_hit h, all[8];
        int n = sw_scene_sweep(b->w.scene, &b->a[i], b->d[i], NULL, SW_HITS_CLOSEST, t->filter, &h, 1);
        t->mismatches += n != t->closest_n[i] || (n == 1 && !identical_hits(&h, &t->closest[i]));
        n = sw_scene_raycast(b->w.scene, &b->rays[i], SW_HITS_ALL, t->filter, all, 8);
        t->mismatches += n != t->all_n[i];
        for (int k2 = 0; k2 < n && k2 < 8; ++k2) {
            t->mismatches += !identical_hits(&all[k2], &t->all[8 * i + k2]);
        }
        sw_scene_distance dd;
        n = sw_scene_closest(b->w.scene, &b->a[i], -1, t->filter, &dd);
        t->mismatches += n != 1 || !identical_distances(&dd, &t->near[i]);
        sw_scene_overlap ov[4];
        t->mismatches += sw_scene_overlap_all(b->w.scene, &b->a[i], t->filter, ov, 4) != t->overlaps[i];
    }
    return 0;
}

static void test_threads(void** state)
{
    (void)state;
    batch_data* b = batch_world();
    static sw_scene_hit closest[BATCH], all[8 * BATCH];
    static int all_n[BATCH], overlaps[BATCH], closest_n[BATCH];
    static sw_scene_distance near[BATCH];
    /* A callback filter: called from every thread at once. */
    static cb_ctx ctx = {3, false, 0, 0};
    const sw_scene_filter filter = {~(uint64_t)0, ~(uint64_t)0, cb_filter, &ctx};
    for (int i = 0; i < BATCH; ++i) {
        closest_n[i] = sw_scene_sweep(b->w.scene, &b->a[i], b->d[i], NULL, SW_HITS_CLOSEST, &filter, &closest[i], 1);
        all_n[i] = sw_scene_raycast(b->w.scene, &b->rays[i], SW_HITS_ALL, &filter, &all[8 * i], 8);
        assert_int_equal(sw_scene_closest(b->w.scene, &b->a[i], -1, &filter, &near[i]), 1);
        overlaps[i] = sw_scene_overlap_all(b->w.scene, &b->a[i], &filter, NULL, 0);
    }
    reader t[THREADS + 1];
    thrd_t id[THREADS];
    for (int k = 0; k <= THREADS; ++k) {
        t[k] = (reader){b, closest, closest_n, all, all_n, near, overlaps, &filter, k * BATCH / (THREADS + 1), 0};
    }
    for (int k = 0; k < THREADS; ++k) {
        assert_int_equal(thrd_create(&id[k], read_scene, &t[k]), thrd_success);
    }
    /* The batches run at the same time, over threads of their own. */
    static sw_scene_hit got[BATCH], want[BATCH];
    static int got_n[BATCH];
    assert_int_equal(sw_scene_raycast_batch(b->w.scene, b->rays, BATCH, SW_HITS_CLOSEST, &filter, got, got_n, 3), 0);
    read_scene(&t[THREADS]);
    int mismatches = 0;
    for (int k = 0; k < THREADS; ++k) {
        assert_int_equal(thrd_join(id[k], NULL), thrd_success);
        mismatches += t[k].mismatches;
    }
    mismatches += t[THREADS].mismatches;
    for (int i = 0; i < BATCH; ++i) {
        want[i] = (sw_scene_hit){{0}, 0, NULL, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        const int n = sw_scene_raycast(b->w.scene, &b->rays[i], SW_HITS_CLOSEST, &filter, &want[i], 1);
        mismatches += n != got_n[i] || !identical_hits(&want[i], &got[i]);
    }
    assert_int_equal(mismatches, 0);
    print_message("threads: %d readers and a 3-thread batch queried one scene of %d shapes at once, %d queries "
                  "each, answers identical\n",
                  THREADS + 1, b->w.live, 4 * BATCH);
    world_free(&b->w);
    free(b);
}

int main(void)
{
    swt_install_assert_recorder();
    swt_trap_fp();
    const struct CMUnitTest tests[] = {swt_test(test_batches), swt_test(test_threads)};
    return cmocka_run_group_tests_name("scene_threads", tests, NULL, NULL);
}
