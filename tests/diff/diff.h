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
    /* A mesh case (b, or a of an overlap or distance, is a mesh): the
     * mesh, owned by the case, and the arrays it was built from (for the
     * JSON line); diff_case_free frees them. */
    sw_mesh* mesh;
    sw_vec3* mesh_v;
    int* mesh_tri;
    int mesh_nv, mesh_nt;
    const char* mesh_family;
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

/* Frees the hulls and the mesh a generated case owns (and forgets them). */
void diff_case_free(diff_case* c);

/* gen.c's random shape of a type, centred near c, of typical dimension
 * size (stored in dc's slot, as diff_generate does), and its translation
 * by off (added in long double, rounded once per coordinate). */
sw_shape diff_random_shape(swt_rng* r, sw_shape_type type, const double c[3], double size, diff_case* dc, int slot);
void diff_translate_shape(sw_shape* s, ref_vec off);

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
 * and counted as a violation. A mesh case goes to diff_check_mesh. */
void diff_check(const diff_case* c, uint64_t case_seed, diff_stats* st, diff_outcome* out, bool verbose);

/* ---- judging a given answer, one pair at a time (the mesh judge) --------- */

/* The answers of one query (the field of the case's operation). */
typedef struct diff_answers {
    sw_hit h;
    sw_overlap_result o;
    sw_distance_result dr;
} diff_answers;

/* How one triangle of a mesh is judged beyond the pair's contract.
 * scale: the mesh query's scale (DESIGN §3: the triangles within reach),
 * used when above the pair's own. flat: the contact lies on a flat edge
 * or vertex of the mesh (DESIGN §2a), whose face normal flat_normal (unit;
 * on A's side when flat_sided, else either sign) is then accepted as the
 * normal; flat_only: on nothing else (no real edge or vertex within the
 * band), and then required. flat_start: the contact at t = 0 lies near
 * flat features, where the library reads ignore_separating with the face
 * normal: either answer, unless flat_start_only (on them alone) and
 * flat_start_sided: then start_normal (the face normal on A's side)
 * decides. */
typedef struct diff_judge_opts {
    ref_real scale;
    bool flat, flat_only, flat_sided;
    ref_vec flat_normal;
    bool flat_start, flat_start_only, flat_start_sided;
    ref_vec start_normal;
} diff_judge_opts;

typedef enum diff_expect { DIFF_EITHER, DIFF_MUST_HIT, DIFF_MUST_MISS } diff_expect;

/* What the reference of one pair demands: a hit, a miss or either (the
 * rules of check.c: grazing band, one-sided tolerance, ignore_separating);
 * for sweeps, whether the exact contact is steep (its time judged within
 * band / |d|, else the shallow-approach rule). */
typedef struct diff_demand {
    diff_expect expect;
    bool steep;
    ref_real scale, band;
} diff_demand;

/* The case's exact image and its reference answer. */
void diff_solve(const diff_case* c, ref_case* rc, ref_result* rr);
void diff_demand_of(const diff_case* c, uint64_t case_seed, const ref_result* rr, const diff_judge_opts* jo,
                    diff_demand* dm);
/* Minimum of the case's g over [t0, t1] (sweeps). */
ref_real diff_gmin_on(const diff_case* c, ref_real t0, ref_real t1);
/* Judges the answer r of the case's operation against the reference rr
 * (from diff_solve) on the whole contract, adding violations to out and
 * worst errors to st (not its counters). jo may be NULL. */
void diff_judge(const diff_case* c, uint64_t case_seed, const ref_result* rr, const diff_answers* r,
                const diff_judge_opts* jo, diff_stats* st, diff_outcome* out);

/* ---- meshes (mesh.c) -------------------------------------------------------- */

/* Judges the library's answer r of a mesh case (b a mesh, or a of an
 * overlap or distance) against the brute-force union of its placed
 * triangles (sw_mesh_world_triangle), each judged by diff_judge: the
 * answer must be a valid answer for the triangle it names (one of the
 * deepest or closest for overlap and distance), and no triangle the
 * reference must hit may be hit earlier (or deeper at t = 0). Adds
 * violations to out and worst errors to st (diff_check counts). */
void diff_judge_mesh(const diff_case* c, uint64_t case_seed, const diff_answers* r, diff_stats* st, diff_outcome* out,
                     bool verbose);

/* Mesh families for the generators and the unit test. A family builds
 * vertex and index arrays (malloc'd, the caller frees them) at size
 * `size` around the origin; the mesh's triangles lie within about size of
 * it. */
typedef enum diff_mesh_family {
    DIFF_MESH_FLOOR,      /* a tessellated square grid */
    DIFF_MESH_TERRAIN,    /* a height field */
    DIFF_MESH_STAIRS,     /* steps: treads and risers */
    DIFF_MESH_ICOSPHERE,  /* closed, subdivided once */
    DIFF_MESH_BOX,        /* closed, 12 triangles */
    DIFF_MESH_SOUP,       /* unconnected random triangles */
    DIFF_MESH_DEGENERATE, /* zero-area triangles among good ones */
    DIFF_MESH_MIXED,      /* tiny triangles beside huge ones */
    DIFF_MESH_FAMILY_COUNT
} diff_mesh_family;

const char* diff_mesh_family_name(diff_mesh_family f);
/* Builds family f's arrays; returns the triangle count (0 on failure). */
int diff_mesh_build(diff_mesh_family f, swt_rng* r, double size, sw_vec3** v, int* nv, int** tri);

/* Generates a mesh case of the pair (b a mesh, or a of an overlap or
 * distance) into c, which then owns the mesh. */
void diff_generate_mesh(const diff_pair* p, uint64_t seed, diff_case* c);

/* sw_is_valid_shape with a floating-point trap caught (*trapped). */
bool diff_guarded_valid(const sw_shape* s, bool* trapped);

/* Arms the SIGFPE catcher used by diff_check (call once at start). */
void diff_install_trap_catcher(void);

/* Writes the case as one `sweep query` line (DESIGN §5) with id. */
void diff_write_json(FILE* f, const diff_case* c, const char* id);

#endif
