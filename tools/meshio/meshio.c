/* Mesh files through assimp's C API (see meshio.h).
 *
 * assimp is asked for no triangulation: its triangulator may split a
 * polygon along any diagonal, and the protocol numbers triangles as a fan
 * from each face's first vertex (DESIGN.md §5), so the fan is cut here.
 * Vertices are taken as assimp gives them (ai_real, float in Debian's
 * build); identical vertices are joined so that a file's shared corners
 * stay shared. */
#define _POSIX_C_SOURCE 200809L

#include "meshio.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

typedef struct cache_entry {
    char* path;
    sw_meshio_data data;
    sw_mesh* mesh; /* built on the first sw_meshio_mesh */
    struct cache_entry* next;
} cache_entry;

static cache_entry* cache_head;

/* A path quoted in a message, cut so one long path cannot swamp it. */
static void quote_path(const char* path, char* buf, size_t size)
{
    const size_t max = 120;
    if (strlen(path) <= max) {
        snprintf(buf, size, "'%s'", path);
    } else {
        snprintf(buf, size, "'%.*s...'", (int)max, path);
    }
}

static int fail(char* err, size_t errlen, const char* path, const char* fmt, const char* detail)
{
    if (errlen > 0) {
        char quoted[160];
        quote_path(path, quoted, sizeof quoted);
        snprintf(err, errlen, fmt, quoted, detail);
        /* One line: assimp's messages may carry newlines. */
        for (char* c = err; *c; ++c) {
            if (*c == '\n' || *c == '\r' || *c == '\t') {
                *c = ' ';
            }
        }
    }
    return -1;
}

static cache_entry* find(const char* path)
{
    for (cache_entry* e = cache_head; e; e = e->next) {
        if (strcmp(e->path, path) == 0) {
            return e;
        }
    }
    return NULL;
}

/* Counts the vertices and fan triangles of the scene; false when either
 * passes the library's limit (the int arithmetic below must not wrap). */
static bool count_scene(const struct aiScene* scene, long* vertex_count, long* triangle_count)
{
    long nv = 0, nt = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const struct aiMesh* mesh = scene->mMeshes[m];
        nv += (long)mesh->mNumVertices;
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const unsigned n = mesh->mFaces[f].mNumIndices;
            if (n >= 3) {
                nt += (long)n - 2;
            }
        }
        if (nv > SW_MAX_MESH_TRIANGLES || nt > SW_MAX_MESH_TRIANGLES) {
            return false;
        }
    }
    *vertex_count = nv;
    *triangle_count = nt;
    return true;
}

/* Copies the scene's meshes, one after another, into *out. Returns NULL
 * or the reason it failed (a format string taking the quoted path). */
static const char* copy_scene(const struct aiScene* scene, sw_meshio_data* out)
{
    long nv, nt;
    if (!count_scene(scene, &nv, &nt)) {
        return "%s has more than the library's limit of triangles or vertices%s";
    }
    if (nt == 0) {
        return "%s has no triangles%s";
    }
    out->vertices = malloc((size_t)nv * sizeof *out->vertices);
    out->indices = malloc((size_t)nt * 3 * sizeof *out->indices);
    if (!out->vertices || !out->indices) {
        return "%s: out of memory%s";
    }
    int base = 0, t = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const struct aiMesh* mesh = scene->mMeshes[m];
        for (unsigned i = 0; i < mesh->mNumVertices; ++i) {
            const struct aiVector3D p = mesh->mVertices[i];
            const sw_vec3 v = sw_v3((sw_real)p.x, (sw_real)p.y, (sw_real)p.z);
            /* sw_is_valid_real rejects NaN, infinities and |x| > SW_MAX_COORD. */
            if (!sw_is_valid_real(v.x) || !sw_is_valid_real(v.y) || !sw_is_valid_real(v.z)) {
                return "%s: coordinate out of range (not finite or beyond the library's limit)%s";
            }
            out->vertices[base + (int)i] = v;
        }
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const struct aiFace* face = &mesh->mFaces[f];
            for (unsigned k = 1; k + 1 < face->mNumIndices; ++k) {
                const unsigned corner[3] = {face->mIndices[0], face->mIndices[k], face->mIndices[k + 1]};
                for (int c = 0; c < 3; ++c) {
                    if (corner[c] >= mesh->mNumVertices) {
                        return "%s: a face refers to a vertex that does not exist%s";
                    }
                    out->indices[3 * t + c] = base + (int)corner[c];
                }
                ++t;
            }
        }
        base += (int)mesh->mNumVertices;
    }
    out->vertex_count = base;
    out->triangle_count = t;
    return NULL;
}

static void free_data(sw_meshio_data* d)
{
    free(d->vertices);
    free(d->indices);
    *d = (sw_meshio_data){0};
}

int sw_meshio_load(const char* path, const sw_meshio_data** out, char* err, size_t errlen)
{
    if (errlen > 0) {
        err[0] = '\0';
    }
    *out = NULL;
    const cache_entry* hit = find(path);
    if (hit) {
        *out = &hit->data;
        return 0;
    }
    /* assimp's message for a missing file names neither the file nor the
     * reason: ask the system first. Only regular files: a directory has
     * nothing to read, and a pipe or device could block for ever. */
    struct stat st;
    if (stat(path, &st) != 0) {
        return fail(err, errlen, path, "cannot open %s: %s", strerror(errno));
    }
    if (!S_ISREG(st.st_mode)) {
        return fail(err, errlen, path, "cannot read %s: %s", "not a regular file");
    }
    FILE* probe = fopen(path, "rb");
    if (!probe) {
        return fail(err, errlen, path, "cannot open %s: %s", strerror(errno));
    }
    fclose(probe);

    /* No aiProcess_Triangulate (the fan is cut in copy_scene); joining
     * identical vertices only renumbers them, faces keep their order. */
    const struct aiScene* scene = aiImportFile(path, aiProcess_JoinIdenticalVertices);
    if (!scene) {
        const char* why = aiGetErrorString();
        return fail(err, errlen, path, "cannot read %s: %s", why && why[0] ? why : "not a mesh file assimp reads");
    }
    cache_entry* e = calloc(1, sizeof *e);
    const char* why = e ? copy_scene(scene, &e->data) : "%s: out of memory%s";
    aiReleaseImport(scene);
    if (!why) {
        e->path = strdup(path);
        if (!e->path) {
            why = "%s: out of memory%s";
        }
    }
    if (why) {
        if (e) {
            free_data(&e->data);
            free(e->path);
            free(e);
        }
        return fail(err, errlen, path, why, "");
    }
    e->next = cache_head;
    cache_head = e;
    *out = &e->data;
    return 0;
}

const sw_mesh* sw_meshio_mesh(const char* path, char* err, size_t errlen)
{
    const sw_meshio_data* data;
    if (sw_meshio_load(path, &data, err, errlen) != 0) {
        return NULL;
    }
    cache_entry* e = find(path);
    if (!e->mesh) {
        sw_mesh_error error = SW_MESH_OK;
        e->mesh = sw_mesh_create(data->vertices, data->vertex_count, data->indices, data->triangle_count, &error);
        if (!e->mesh) {
            fail(err, errlen, path, "%s: %s", sw_mesh_error_string(error));
            return NULL;
        }
    }
    return e->mesh;
}

void sw_meshio_clear(void)
{
    while (cache_head) {
        cache_entry* e = cache_head;
        cache_head = e->next;
        sw_mesh_destroy(e->mesh);
        free_data(&e->data);
        free(e->path);
        free(e);
    }
}
