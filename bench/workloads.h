/* The workloads of the bench (`sweep bench`) and of the peer comparison
 * (bench/peers): the pairs (W1-W5, at the end; only sweep_peers runs them
 * so far), the meshes and the scene, and their queries, generated from
 * fixed seeds so both programs, and every library they time, see the same
 * input.
 *
 * Meshes are scaled to fit [-0.5, 0.5]^3 and centred on the origin; their
 * vertices are stored in float, so a float library (Embree, Bullet) and
 * sweep in either precision get the same triangles, unrounded.
 *
 * Queries (workloads W6 and W7): each starts on the sphere of radius 1 around
 * the mesh's centre and moves by d, of length 2, toward a random point of
 * the mesh's bounds. W6 casts a ray (dir = d, max 1, closest hit); W7
 * sweeps a sphere and a capsule, centred on the start, along the same
 * paths. t is a fraction of d in both. */
#ifndef SWEEP_BENCH_WORKLOADS_H
#define SWEEP_BENCH_WORKLOADS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WL_START_RADIUS 1.0    /* sphere of the starts, around the mesh's centre */
#define WL_PATH_LENGTH 2.0     /* |d| */
#define WL_SPHERE_RADIUS 0.005 /* W7 sphere */
#define WL_CAPSULE_RADIUS 0.005
#define WL_CAPSULE_HALF 0.01 /* half the capsule's segment */

/* Queries per workload when the program is not told otherwise. */
enum { WL_DEFAULT_QUERIES = 4096 };

/* The meshes, in the order the programs print them. */
typedef enum wl_mesh_id {
    WL_BUNNY,        /* /work/shared/data/bunny.obj, 3,674 triangles */
    WL_TERRAIN_1K,   /* 22 x 22 cells: 968 triangles */
    WL_TERRAIN_10K,  /* 71 x 71: 10,082 */
    WL_TERRAIN_100K, /* 224 x 224: 100,352 */
    WL_TERRAIN_1M,   /* 707 x 707 (708 x 708 vertices): 999,698 */
    WL_MESH_COUNT
} wl_mesh_id;

typedef struct wl_mesh {
    float* v; /* 3 per vertex */
    int vertex_count;
    int* tri; /* 3 vertex indices per triangle */
    int triangle_count;
    float lo[3], hi[3]; /* bounds of the vertices */
    float center[3];    /* of the bounds */
} wl_mesh;

typedef struct wl_query {
    float origin[3]; /* the ray's origin; the sphere's and the capsule's centre */
    float d[3];      /* the ray's dir (max 1) and the sweeps' displacement */
    float axis[3];   /* the capsule's unit axis */
} wl_query;

/* "bunny", "terrain1k", "terrain10k", "terrain100k", "terrain1m". */
const char* wl_mesh_name(wl_mesh_id id);

/* The directory of bunny.obj built in (SWEEP_BENCH_DATA_DIR). */
const char* wl_default_data_dir(void);

/* Makes mesh `id` into *out (free it with wl_mesh_free); data_dir (NULL
 * for the default) holds bunny.obj. Returns 0, or -1 with a one-line
 * reason in err. */
int wl_make_mesh(wl_mesh_id id, const char* data_dir, wl_mesh* out, char* err, size_t errlen);

/* A terrain of cells x cells squares, two triangles each, of the value
 * noise height field (the same field at every resolution). */
int wl_make_terrain(int cells, wl_mesh* out);

void wl_mesh_free(wl_mesh* m);

/* The seed of mesh id's queries; the terrains share one, so the growth
 * rows cast the same paths (up to the meshes' slightly different bounds). */
uint64_t wl_query_seed(wl_mesh_id id);

/* count queries against m from seed into out. */
void wl_make_queries(const wl_mesh* m, uint64_t seed, int count, wl_query* out);

/* ---- the scene workload (W8) -----------------------------------------------
 *
 * A world of objects in a cube centred on the origin: spheres, boxes and
 * capsules in turn (object i is a sphere when i % 3 == 0, a box when 1, a
 * capsule when 2), centred at uniform random points of the cube. Every
 * size is uniform in [0.1, 1]: a sphere's radius; a box's three half
 * extents, the box turned by a uniform random rotation; a capsule's radius
 * and half-length, along a uniform random axis. Values are rounded to
 * float, so every library reads the same objects.
 *
 * The W8 world has 10,000 objects in a cube of side 100. Worlds of other
 * sizes (the growth rows) keep its density: the side scales with the cube
 * root of the count (21.5 for 100 objects, 215 for 100,000), and so do the
 * queries' sphere and length, so that a query crosses the same number of
 * objects per unit of its path and its cost reflects the tree.
 *
 * Queries start on the sphere of radius side (100 for W8) around the
 * origin and move by d, of length 2 * side (200), toward a uniform random
 * point of the cube: a ray (dir = d, max 1, closest hit) and a sphere of
 * radius WL_WORLD_SWEEP_RADIUS swept by d. t is a fraction of d. */

#define WL_WORLD_OBJECTS 10000     /* W8 */
#define WL_WORLD_SIDE 100.0        /* W8's cube */
#define WL_WORLD_SWEEP_RADIUS 0.25 /* the swept sphere */
#define WL_WORLD_SIZE_MIN 0.1
#define WL_WORLD_SIZE_MAX 1.0

typedef enum wl_object_type { WL_OBJECT_SPHERE, WL_OBJECT_BOX, WL_OBJECT_CAPSULE } wl_object_type;

typedef struct wl_object {
    wl_object_type type;
    float center[3];   /* sphere and box; a capsule's is its ends' midpoint */
    float half[3];     /* box: half extents */
    float rotation[4]; /* box: unit quaternion x, y, z, w (rounded to float) */
    float a[3], b[3];  /* capsule: the segment's ends */
    float radius;      /* sphere, capsule */
} wl_object;

typedef struct wl_world {
    wl_object* objects;
    int count;
    double side;        /* the cube is [-side/2, side/2]^3 */
    double path_length; /* |d| = 2 * side */
} wl_world;

/* The world of count objects at W8's density into *out (free it with
 * wl_world_free); the same seed for every count. Returns 0, or -1 when
 * out of memory. */
int wl_make_world(int count, wl_world* out);
void wl_world_free(wl_world* w);

/* count W8 queries against w into out (axis is unused: 0). */
void wl_make_world_queries(const wl_world* w, int count, wl_query* out);

/* count new positions (3 floats each) at uniform random points of w's
 * cube, for the large moves of the bench's move rows. */
void wl_make_world_positions(const wl_world* w, int count, float* out);

/* ---- the pair workloads (W1-W5) ---------------------------------------------
 *
 * One moving shape A and one static shape B per query, for the pair
 * benchmark against other libraries (bench/peers): W1 sphere-sphere, W2
 * capsule-capsule, W3 sphere-triangle, W4 box-box, W5 hull-hull.
 *
 * Both shapes are centred at uniform random points of the cube
 * [-5, 5]^3 (side WL_PAIR_CUBE). Every size is uniform in [0.1, 1]: a
 * sphere's radius; a capsule's radius and half-length, along a uniform
 * random axis; a box's three half extents, turned by a uniform random
 * rotation; a triangle's vertices are uniform points of the ball of that
 * radius around its centre; a hull is built from WL_PAIR_HULL_POINTS
 * uniform points of the ball of that radius, in its local frame, placed at
 * its centre without rotation.
 *
 * A moves by d toward B with jitter: u = (cB - cA) / |cB - cA| + j w, with
 * w a uniform point of the unit ball and j the workload's jitter
 * (wl_pair_jitter), and d = u / |u| times a length uniform in [0,
 * WL_PAIR_PATH_MAX]. The jitter is chosen so that about 10% of the queries
 * hit (a few of them start in contact). Every value is rounded to float
 * (d from the rounded centres), so every library reads the same numbers;
 * t is a fraction of d. */

#define WL_PAIR_CUBE 10.0    /* the cube's side, centred on the origin */
#define WL_PAIR_PATH_MAX 5.0 /* |d| is uniform in [0, this] */
#define WL_PAIR_SIZE_MIN 0.1
#define WL_PAIR_SIZE_MAX 1.0
#define WL_PAIR_HULL_POINTS 32

typedef enum wl_pair_id {
    WL_PAIR_SPHERE_SPHERE,   /* W1 */
    WL_PAIR_CAPSULE_CAPSULE, /* W2 */
    WL_PAIR_SPHERE_TRIANGLE, /* W3 */
    WL_PAIR_BOX_BOX,         /* W4 */
    WL_PAIR_HULL_HULL,       /* W5 */
    WL_PAIR_COUNT
} wl_pair_id;

typedef enum wl_pair_shape_type {
    WL_PAIR_SHAPE_SPHERE,
    WL_PAIR_SHAPE_CAPSULE,
    WL_PAIR_SHAPE_TRIANGLE,
    WL_PAIR_SHAPE_BOX,
    WL_PAIR_SHAPE_HULL
} wl_pair_shape_type;

typedef struct wl_pair_shape {
    wl_pair_shape_type type;
    float center[3];                      /* a capsule's is its ends' midpoint; a hull's is its position */
    float radius;                         /* sphere, capsule */
    float a[3], b[3];                     /* capsule: the segment's ends */
    float half[3];                        /* box: half extents */
    float rotation[4];                    /* box: unit quaternion x, y, z, w (rounded to float) */
    float v[3][3];                        /* triangle: the vertices (world space) */
    float points[WL_PAIR_HULL_POINTS][3]; /* hull: the points, local frame */
} wl_pair_shape;

typedef struct wl_pair_query {
    wl_pair_shape a; /* moving by d */
    wl_pair_shape b; /* static */
    float d[3];
} wl_pair_query;

/* "sphere-sphere", "capsule-capsule", "sphere-triangle", "box-box",
 * "hull-hull"; "?" out of range. */
const char* wl_pair_name(wl_pair_id id);

/* The workload's jitter j (see above). */
double wl_pair_jitter(wl_pair_id id);

/* count queries of workload id into out, from its fixed seed. */
void wl_make_pair_queries(wl_pair_id id, int count, wl_pair_query* out);

#ifdef __cplusplus
}
#endif

#endif
