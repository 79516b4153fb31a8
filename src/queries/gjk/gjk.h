/* The general convex methods (private part): iteration counters for
 * measuring the methods, compiled in only with SW_GJK_STATS (a timing or
 * soak program builds the library sources with it; the library proper
 * keeps no mutable state). */
#ifndef SWEEP_QUERIES_GJK_H
#define SWEEP_QUERIES_GJK_H

#ifdef SW_GJK_STATS
typedef struct sw_gjk_stats {
    long queries;
    long gjk_iterations;  /* support calls of the distance iteration */
    long cast_iterations; /* support calls of the ray cast (after the start) */
    long cast_advances;   /* conservative-advancement steps */
    long epa_iterations;  /* polytope expansions */
    long epa_runs;
    long epa_gave_up; /* stopped by capacity or a broken polytope */
    int max_gjk_iterations, max_cast_iterations, max_epa_iterations;
} sw_gjk_stats;
extern sw_gjk_stats sw_gjk_stats_counters;
#endif

#endif
