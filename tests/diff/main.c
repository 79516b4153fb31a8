/* sweep_soak: the differential test engine's driver.
 *
 *   sweep_soak [--op OP] [--pair NAME] [--seed N] [--cases N]
 *              [--seconds S] [--out failures.jsonl] [--summary-json FILE]
 *              [--case K] [--verbose] [--list]
 *
 * Without --seconds (the fast mode registered in CTest) it runs --cases
 * cases of every selected pair from a fixed seed (default: 400 per sweep
 * pair, 160 for polytope against polytope, 2000-4000 for the cheaper
 * operations, 500 for their polytope pairs). With
 * --seconds it keeps going round the pairs until the time is up (the
 * soak), printing a progress line every few seconds. Every failing case is
 * written to --out as one `sweep query` line. Per pair it prints the cases
 * run and the worst errors relative to scale; --summary-json FILE ("-" for
 * stdout) writes the same as one JSON object per pair. --case K replays
 * case K of the selected pair(s) verbosely. Exit status 1 if any case
 * failed or a pair the dispatcher supports has no generator/reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff.h"

/* ---- registry ------------------------------------------------------------ */

static bool type_has_generator(sw_shape_type t) { return t < SW_SHAPE_TYPE_COUNT; }

static sw_shape sample_shape(sw_shape_type t)
{
    switch (t) {
    case SW_SHAPE_SEGMENT:
        return sw_make_segment(sw_v3(0, 0, 0), sw_v3(1, 0, 0));
    case SW_SHAPE_SPHERE:
        return sw_make_sphere(sw_v3(0, 0, 0), 1);
    case SW_SHAPE_CAPSULE:
        return sw_make_capsule(sw_v3(0, 0, 0), sw_v3(1, 0, 0), 1);
    case SW_SHAPE_BOX:
        return sw_make_box(sw_v3(0, 0, 0), sw_v3(1, 1, 1), sw_quat_identity());
    case SW_SHAPE_PLANE:
        return sw_make_plane(sw_v3(0, 0, 1), 0);
    case SW_SHAPE_TRIANGLE:
        return sw_make_triangle(sw_v3(0, 0, 0), sw_v3(1, 0, 0), sw_v3(0, 1, 0), false);
    case SW_SHAPE_POLYGON: {
        static const sw_vec3 square[4] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        return sw_make_polygon(square, 4, false);
    }
    case SW_SHAPE_HULL: {
        /* Built once and kept for the run (a NULL hull: not covered). */
        static sw_hull* tetra;
        static const sw_vec3 corners[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        if (!tetra) {
            tetra = sw_hull_create(corners, 4, NULL);
        }
        return sw_make_hull(tetra, sw_v3(0, 0, 0), sw_quat_identity());
    }
    default:
        return sw_make_point(sw_v3(0, 0, 0));
    }
}

/* Whether the engine can generate and check the pair. */
static bool covered(diff_op op, sw_shape_type a, sw_shape_type b)
{
    if (!type_has_generator(a) || !type_has_generator(b)) {
        return false;
    }
    /* Meshes (gen_mesh.c, mesh.c): the union of their triangles, each a
     * pair of the other shape and a triangle. */
    if (a == SW_SHAPE_MESH || b == SW_SHAPE_MESH) {
        const sw_shape_type other = a == SW_SHAPE_MESH ? b : a;
        return other != SW_SHAPE_MESH && op != OP_SWEEP_INSIDE &&
               covered(op, op == OP_SWEEP ? a : other, SW_SHAPE_TRIANGLE);
    }
    const sw_shape sa = sample_shape(a), sb = sample_shape(b);
    ref_shape ra, rb;
    if (!ref_from_shape(&sa, &ra) || !ref_from_shape(&sb, &rb)) {
        return false;
    }
    if (op == OP_SWEEP_INSIDE) {
        return (a == SW_SHAPE_POINT || a == SW_SHAPE_SPHERE) && (b == SW_SHAPE_SPHERE || b == SW_SHAPE_BOX);
    }
    return ref_has_distance(&ra, &rb);
}

static bool supported(diff_op op, sw_shape_type a, sw_shape_type b)
{
    switch (op) {
    case OP_SWEEP:
        return sw_sweep_supported(a, b);
    case OP_RAYCAST:
        return a == SW_SHAPE_POINT && sw_raycast_supported(b);
    case OP_SWEEP_INSIDE:
        return sw_sweep_inside_supported(a, b);
    case OP_OVERLAP:
        return sw_overlap_supported(a, b);
    case OP_DISTANCE:
        return sw_distance_supported(a, b);
    case OP_COUNT:
        break;
    }
    return false;
}

int diff_registry(diff_pair* pairs, int max)
{
    int n = 0;
    for (int op = 0; op < OP_COUNT; ++op) {
        for (int a = 0; a < SW_SHAPE_TYPE_COUNT; ++a) {
            for (int b = 0; b < SW_SHAPE_TYPE_COUNT; ++b) {
                if (!supported((diff_op)op, (sw_shape_type)a, (sw_shape_type)b) || n >= max) {
                    continue;
                }
                diff_pair* p = &pairs[n++];
                p->op = (diff_op)op;
                p->a = (sw_shape_type)a;
                p->b = (sw_shape_type)b;
                p->covered = covered(p->op, p->a, p->b);
                if (op == OP_RAYCAST) {
                    snprintf(p->name, sizeof p->name, "raycast:%s", sw_shape_type_name(p->b));
                } else {
                    snprintf(p->name, sizeof p->name, "%s:%s:%s", diff_op_name(p->op), sw_shape_type_name(p->a),
                             sw_shape_type_name(p->b));
                }
            }
        }
    }
    return n;
}

/* ---- driver -------------------------------------------------------------- */

typedef struct run {
    diff_pair pair;
    uint64_t seed;
    long next;
    long printed;
    diff_stats st;
} run;

typedef struct options {
    const char* op;
    const char* pair;
    uint64_t seed;
    long cases;
    double seconds;
    const char* out;
    const char* summary;
    long replay;
    long max_print;
    bool verbose, list;
} options;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(void)
{
    fputs("usage: sweep_soak [--op OP] [--pair NAME] [--seed N] [--cases N] [--seconds S]\n"
          "                  [--out FILE] [--summary-json FILE|-] [--case K] [--max-print N]\n"
          "                  [--verbose] [--list]\n",
          stderr);
}

static bool parse(int argc, char** argv, options* o)
{
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--verbose")) {
            o->verbose = true;
        } else if (!strcmp(a, "--list")) {
            o->list = true;
        } else if (!v) {
            return false;
        } else if (!strcmp(a, "--op")) {
            o->op = v, ++i;
        } else if (!strcmp(a, "--pair")) {
            o->pair = v, ++i;
        } else if (!strcmp(a, "--seed")) {
            o->seed = strtoull(v, NULL, 0), ++i;
        } else if (!strcmp(a, "--cases")) {
            o->cases = strtol(v, NULL, 0), ++i;
        } else if (!strcmp(a, "--seconds")) {
            o->seconds = strtod(v, NULL), ++i;
        } else if (!strcmp(a, "--out")) {
            o->out = v, ++i;
        } else if (!strcmp(a, "--summary-json")) {
            o->summary = v, ++i;
        } else if (!strcmp(a, "--max-print")) {
            o->max_print = strtol(v, NULL, 0), ++i;
        } else if (!strcmp(a, "--case")) {
            o->replay = strtol(v, NULL, 0), ++i;
        } else {
            return false;
        }
    }
    return true;
}

static uint64_t case_seed(const run* r, long index) { return swt_mix(r->seed, (uint64_t)index); }

/* Library failures this engine found that are still open, each named by
 * the default seed, its pair and case and its build: reported as KNOWN and
 * not counted, so that a run fails on new failures only. Remove an entry
 * with its fix (a known case that passes is reported, so that the entry
 * goes too). */
typedef struct known_failure {
    const char* pair;
    long index;
    bool double_build;
    const char* why;
} known_failure;

/* The empty entry keeps the array non-empty, as C11 requires. */
static const known_failure known_failures[] = {
    /* A hull 3e-9 thick and 150 wide at 1.7e9 from the origin against one
     * triangle of a mesh: the library answers depth 45.9277690 along
     * (0.9236, 0.3835, 0), the reference 47.67 along (-0.85, -0.53, 0).
     * The reference is the one wrong: the least overlap over every plane
     * through three points of the pair, and every edge-pair axis, in 50
     * digits (mpmath, the hull placed from its local points) is
     * 45.9277690814 along the library's axis, the same answer moved to the
     * origin is unchanged, and the library's point lies on the triangle
     * and within 1.3e-7 of the hull (band 1.7e-3). The long-double model
     * of a hull this thin this far out misses that face. */
    {"overlap:mesh:hull", 113, true, "the reference's model of a 3e-9-thick hull at 1.7e9 (library verified)"},
    {NULL, -1, false, NULL},
};

static const known_failure* known_failure_of(const run* r, long index, const options* o)
{
    const bool double_build = SW_TOLERANCE < 1e-6;
    for (size_t i = 0; i < sizeof known_failures / sizeof known_failures[0]; ++i) {
        const known_failure* k = &known_failures[i];
        if (k->pair && o->seed == 20240601 && k->index == index && k->double_build == double_build &&
            !strcmp(k->pair, r->pair.name)) {
            return k;
        }
    }
    return NULL;
}

static void run_case(run* r, long index, FILE* out, const options* o)
{
    diff_case c;
    diff_outcome res;
    const uint64_t cs = case_seed(r, index);
    diff_generate(&r->pair, cs, &c);
    if (o->verbose) {
        printf("%s case %ld:\n  ", r->pair.name, index);
        diff_write_json(stdout, &c, "replay");
    }
    diff_check(&c, cs, &r->st, &res, o->verbose);
    const known_failure* known = known_failure_of(r, index, o);
    if (res.violations == 0) {
        if (known) {
            printf("KNOWN %s case %ld passes now: remove it from known_failures\n", r->pair.name, index);
        }
        diff_case_free(&c);
        return;
    }
    if (known) {
        r->st.failures--;
        r->st.known++;
        printf("KNOWN %s case %ld (%s): %s\n", r->pair.name, index, known->why, res.why);
        diff_case_free(&c);
        return;
    }
    char id[160];
    snprintf(id, sizeof id, "%s seed=%llu case=%ld recipe=%s", r->pair.name, (unsigned long long)o->seed, index,
             c.recipe);
    if (out) {
        diff_write_json(out, &c, id);
        fflush(out);
    }
    if (r->printed < o->max_print && !o->verbose) {
        r->printed++;
        printf("FAIL %s case %ld (recipe %s, %s%s): %s\n  ", r->pair.name, index, c.recipe, c.scale_tag,
               c.offset ? ", offset" : "", res.why);
        diff_write_json(stdout, &c, id);
    }
    diff_case_free(&c);
}

static void print_summary(const run* r, const options* o, FILE* json)
{
    const diff_stats* s = &r->st;
    printf("%-28s cases %7ld  hits %6ld  overlaps %6ld  band %5ld  failures %ld%s%s\n", r->pair.name, s->cases, s->hits,
           s->overlaps, s->band, s->failures, s->traps ? " (with FP traps)" : "", s->known ? " (and known ones)" : "");
    printf("%-28s worst/scale: time %.2e  shallow %.2e  point %.2e  depth %.2e  distance %.2e  normal %.2e rad "
           "(%ld checked)  [tol %.0e]\n",
           "", s->time, s->shallow, s->point, s->depth, s->distance, s->normal, s->normals_checked, SWT_TOL);
    if (json) {
        fprintf(json,
                "{\"pair\":\"%s\",\"op\":\"%s\",\"a\":\"%s\",\"b\":\"%s\",\"precision\":\"%s\",\"tol\":%.3g,"
                "\"seed\":%llu,\"cases\":%ld,\"hits\":%ld,\"overlaps\":%ld,\"misses\":%ld,\"band\":%ld,"
                "\"failures\":%ld,\"traps\":%ld,\"normals_checked\":%ld,\"worst\":{\"time\":%.3g,\"shallow\":%.3g,"
                "\"point\":%.3g,\"depth\":%.3g,\"distance\":%.3g,\"normal_rad\":%.3g}}\n",
                r->pair.name, diff_op_name(r->pair.op),
                r->pair.op == OP_RAYCAST ? "ray" : sw_shape_type_name(r->pair.a), sw_shape_type_name(r->pair.b),
                sw_precision(), SWT_TOL, (unsigned long long)o->seed, s->cases, s->hits, s->overlaps, s->misses,
                s->band, s->failures, s->traps, s->normals_checked, s->time, s->shallow, s->point, s->depth,
                s->distance, s->normal);
    }
}

/* Fast-mode cases per pair: sweeps cost ~1 ms each (root-finding plus
 * normal-stability perturbations), the rest far less; a sweep of one
 * polytope against another several ms (separating axes and feature pairs). */
static long fast_cases_of(const diff_pair* p)
{
    /* A mesh case solves every triangle within reach: a sweep costs tens of
     * pair sweeps. */
    if (p->a == SW_SHAPE_MESH || p->b == SW_SHAPE_MESH) {
        static const long mesh_cases[OP_COUNT] = {40, 120, 0, 120, 80};
        const bool solid = p->a == SW_SHAPE_BOX || p->a == SW_SHAPE_HULL;
        return p->op == OP_SWEEP && solid ? 20 : mesh_cases[p->op];
    }
    static const long fast_cases[OP_COUNT] = {400, 2000, 4000, 2000, 3000};
    const bool solid_a = p->a == SW_SHAPE_BOX || p->a == SW_SHAPE_HULL;
    const bool solid_b = p->b == SW_SHAPE_BOX || p->b == SW_SHAPE_HULL || p->b == SW_SHAPE_TRIANGLE ||
                         p->b == SW_SHAPE_POLYGON || p->b == SW_SHAPE_PLANE;
    if (p->op == OP_SWEEP && solid_a && solid_b) {
        return 160;
    }
    /* Overlap and distance of two polytopes, flat shapes or half-spaces
     * (but two half-spaces): hulls cost ~1 ms each to build and convert. */
    const bool solid_pair =
        (solid_a || p->a == SW_SHAPE_TRIANGLE || p->a == SW_SHAPE_POLYGON || p->a == SW_SHAPE_PLANE) && solid_b;
    if ((p->op == OP_OVERLAP || p->op == OP_DISTANCE) && solid_pair) {
        return 500;
    }
    return fast_cases[p->op];
}

int main(int argc, char** argv)
{
    options o = {0};
    o.seed = 20240601;
    o.replay = -1;
    o.max_print = 5;
    if (!parse(argc, argv, &o)) {
        usage();
        return 2;
    }
    swt_install_assert_recorder();
    diff_install_trap_catcher();

    static diff_pair pairs[DIFF_MAX_PAIRS];
    const int npairs = diff_registry(pairs, DIFF_MAX_PAIRS);
    static run runs[DIFF_MAX_PAIRS];
    int nruns = 0, uncovered = 0;
    for (int i = 0; i < npairs; ++i) {
        if ((o.op && strcmp(o.op, diff_op_name(pairs[i].op))) || (o.pair && strcmp(o.pair, pairs[i].name))) {
            continue;
        }
        if (o.list) {
            printf("%s%s\n", pairs[i].name, pairs[i].covered ? "" : "  (UNCOVERED)");
        }
        if (!pairs[i].covered) {
            printf("UNCOVERED %s: the dispatcher supports it, the engine has no generator or reference for it\n",
                   pairs[i].name);
            ++uncovered;
            continue;
        }
        runs[nruns].pair = pairs[i];
        runs[nruns].seed = swt_mix(o.seed, swt_hash_str(pairs[i].name));
        ++nruns;
    }
    if (o.list) {
        return 0;
    }
    if (nruns == 0 && uncovered == 0) {
        fprintf(stderr, "sweep_soak: no pair matches the selection\n");
        return 2;
    }
    if (o.replay >= 0) {
        o.verbose = true;
        for (int i = 0; i < nruns; ++i) {
            run_case(&runs[i], o.replay, NULL, &o);
        }
        return 0;
    }
    FILE* out = NULL;
    if (o.out && !(out = fopen(o.out, "w"))) {
        perror(o.out);
        return 2;
    }
    FILE* json = NULL;
    if (o.summary) {
        json = strcmp(o.summary, "-") ? fopen(o.summary, "w") : stdout;
        if (!json) {
            perror(o.summary);
            return 2;
        }
    }

    const long limit = o.cases > 0 ? o.cases : (o.seconds > 0 ? -1 : 0);
    const double start = now();
    double last_report = start;
    printf("sweep_soak: %s build, tol %.0e, seed %llu, %d pair(s), %s\n", sw_precision(), SWT_TOL,
           (unsigned long long)o.seed, nruns, o.seconds > 0 ? "soak" : "fast");
    for (;;) {
        bool more = false;
        for (int i = 0; i < nruns; ++i) {
            run* r = &runs[i];
            const long cap = limit == 0 ? fast_cases_of(&r->pair) : limit;
            const long batch = o.seconds > 0 ? 64 : cap;
            for (long k = 0; k < batch && (cap < 0 || r->next < cap); ++k) {
                run_case(r, r->next++, out, &o);
            }
            more = more || cap < 0 || r->next < cap;
        }
        const double t = now();
        if (o.seconds > 0 && t - last_report >= 5) {
            long cases = 0, failures = 0;
            for (int i = 0; i < nruns; ++i) {
                cases += runs[i].st.cases;
                failures += runs[i].st.failures;
            }
            fprintf(stderr, "[%6.0fs] %ld cases, %ld failures\n", t - start, cases, failures);
            last_report = t;
        }
        if (!more || (o.seconds > 0 && t - start >= o.seconds)) {
            break;
        }
    }
    long failures = 0;
    for (int i = 0; i < nruns; ++i) {
        print_summary(&runs[i], &o, json);
        failures += runs[i].st.failures;
    }
    printf("sweep_soak: %ld failing case(s), %d uncovered pair(s), %.1f s\n", failures, uncovered, now() - start);
    if (out) {
        fclose(out);
    }
    if (json && json != stdout) {
        fclose(json);
    }
    return failures == 0 && uncovered == 0 ? 0 : 1;
}
