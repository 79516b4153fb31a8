/* Mesh files for the tools (sweep query, render, bench, the viewer): OBJ,
 * PLY, STL, glTF and the other formats assimp reads, as one vertex array
 * and one index array ready for sw_mesh_create. Not part of the library,
 * which stays libc + libm.
 *
 * Faces of more than three vertices are split as a fan from their first
 * vertex, in file order; points and lines are skipped. Meshes of several
 * parts (groups, materials) are concatenated in the order assimp lists
 * them, with their node transforms ignored (a file's coordinates as
 * written). Loaded files are cached by path for the life of the process
 * (assimp's import costs tens of milliseconds a call). Coordinates pass
 * through assimp's 32-bit floats, so a double build sees them rounded to
 * float; a non-finite one, or one beyond SW_MAX_COORD, fails the load.
 * The cache is not thread-safe: load from one thread (or lock). */
#ifndef SWEEP_TOOLS_MESHIO_H
#define SWEEP_TOOLS_MESHIO_H

#include <stddef.h>

#include <sweep/sweep.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_meshio_data {
    sw_vec3* vertices;
    int vertex_count;
    int* indices; /* 3 per triangle */
    int triangle_count;
} sw_meshio_data;

/* Loads `path` into *out (owned by the cache: do not free; valid until
 * sw_meshio_clear). Returns 0, or -1 with a one-line reason in err
 * ("cannot open 'x.obj': No such file or directory", "'x.obj' has no
 * triangles", "'x.obj': coordinate out of range"). */
int sw_meshio_load(const char* path, const sw_meshio_data** out, char* err, size_t errlen);

/* The built sw_mesh of `path`, built once and cached with the file;
 * NULL with a reason in err on failure. */
const sw_mesh* sw_meshio_mesh(const char* path, char* err, size_t errlen);

/* Frees every cached file and mesh. */
void sw_meshio_clear(void);

#ifdef __cplusplus
}
#endif

#endif
