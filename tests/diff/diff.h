/* The differential test engine: a registry of (operation, first shape type,
 * second shape type) entries, case generators, and the check of a library
 * answer against the long-double reference on the whole contract of
 * DESIGN.md §3. */
#ifndef SWEEP_DIFF_H
#define SWEEP_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ref.h"
#include "support.h"

typedef enum diff_op { OP_SWEEP, OP_RAYCAST, OP_SWEEP_INSIDE, OP_OVERLAP, OP_DISTANCE, OP_COUNT } diff_op;

const char* diff_op_name(diff_op op);

/* One generated query, in the build's sw_real (exactly the values the
 * library and the reference both see). For a raycast, `a` is unused. */
typedef struct diff_case {
    diff_op op;
    sw_shape a, b;
    sw_vec3 d;
    sw_ray ray;
    sw_sweep_options opt;
    bool opt_null;         /* pass NULL instead of &opt (opt is then zero) */
    const char* recipe;    /* which generator made it */
    const char* scale_tag; /* "unit", "huge" or "minute" size class */
    bool offset;           /* moved 1e3-1e4 sizes away from the origin */
    /* Vertex storage of polygon a (verts[0]) and b (verts[1]): a case that
     * holds a polygon must not be copied. */
    sw_vec3 verts[2][REF_MAX_VERTS];
    /* The hulls of a (hulls[0]) and b (hulls[1]), owned by the case: free
     * them with diff_case_free; a case that holds a hull must not be
     * copied. */
    sw_hull* hulls[2];
} diff_case;

/* A registered pair. `covered` is false when the dispatcher supports the
 * pair but the engine has no generator or reference for it: a failure. */
typedef struct diff_pair {
    diff_op op;
    sw_shape_type a, b;
    bool covered;
    char name[64];
} diff_pair;

#define DIFF_MAX_PAIRS 256

/* Every pair the dispatcher supports, in a fixed order. */
int diff_registry(diff_pair* pairs, int max);

/* Generates case `index` of the pair from seed (deterministic). The case
 * may own hulls: release it with diff_case_free. */
void diff_generate(const diff_pair* p, uint64_t seed, diff_case* c);

/* Frees the hulls a generated case owns (and forgets them). */
void diff_case_free(diff_case* c);

/* The exact long-double image of a case. */
void diff_to_ref(const diff_case* c, ref_case* rc);

/* Worst errors relative to scale (normal: radians) and counters. time is
 * |t - t_exact| * |d|; shallow the |g(t)| of contacts judged by the
 * shallow-approach rule; point the larger distance of the contact point
 * from A(t) and B; depth and distance the absolute differences. */
typedef struct diff_stats {
    long cases, hits, overlaps, misses, band, normals_checked, failures, traps;
    long known; /* failures listed as known (main.c), not counted in failures */
    double time, shallow, point, normal, depth, distance;
} diff_stats;

/* Outcome of checking one case. */
typedef struct diff_outcome {
    int violations;
    char why[512];
    bool trapped;
} diff_outcome;

/* Runs the case through the dispatcher and the reference and checks the
 * contract; updates st. A floating-point trap inside the query is caught
 * and counted as a violation. */
void diff_check(const diff_case* c, uint64_t case_seed, diff_stats* st, diff_outcome* out, bool verbose);

/* sw_is_valid_shape with a floating-point trap caught (*trapped). */
bool diff_guarded_valid(const sw_shape* s, bool* trapped);

/* Arms the SIGFPE catcher used by diff_check (call once at start). */
void diff_install_trap_catcher(void);

/* Writes the case as one `sweep query` line (DESIGN §5) with id. */
void diff_write_json(FILE* f, const diff_case* c, const char* id);

#endif
