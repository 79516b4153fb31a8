/* A placed mesh as a shape: its placement in double, validity, bounds,
 * support and world triangles, read from the mesh's block (mesh_data.h);
 * building meshes and querying them are the mesh layer's (src/mesh). */
#include <math.h>
#include <string.h>

#include "shapes/mesh_data.h"

void sw_internal_mesh_place(const sw_mesh_instance* m, sw_mesh_place* pl)
{
    pl->p[0] = m->position.x;
    pl->p[1] = m->position.y;
    pl->p[2] = m->position.z;
    if (m->rotation.x == 0 && m->rotation.y == 0 && m->rotation.z == 0) {
        static const double identity[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        memcpy(pl->r, identity, sizeof identity);
        pl->rotated = false;
        return;
    }
    /* Normalised in double (scaled by the largest component first, so
     * that neither a tiny nor a huge quaternion under- or overflows). */
    const sw_quat q = m->rotation;
    const double big = fmax(fmax(fabs((double)q.x), fabs((double)q.y)), fmax(fabs((double)q.z), fabs((double)q.w)));
    double x = q.x / big, y = q.y / big, z = q.z / big, w = q.w / big;
    const double len = sqrt(x * x + y * y + z * z + w * w);
    x /= len, y /= len, z /= len, w /= len;
    pl->rotated = !(x == 0 && y == 0 && z == 0);
    const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                            {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                            {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    memcpy(pl->r, r, sizeof r);
}

bool sw_is_valid_mesh_instance(const sw_mesh_instance* m)
{
    if (!m || !m->mesh || !sw_is_valid_vec3(m->position) || !sw_is_valid_quat(m->rotation)) {
        return false;
    }
    /* Every placed vertex lies within |bounds| * sqrt(3) of the position. */
    return sw_max_abs(m->position) + m->mesh->radius * (sw_real)1.7320509 <= SW_MAX_COORD;
}

bool sw_mesh_world_triangle(const sw_mesh_instance* m, int i, sw_vec3 v[3])
{
    if (!sw_is_valid_mesh_instance(m) || i < 0 || i >= m->mesh->triangle_count) {
        return false;
    }
    sw_mesh_place pl;
    sw_internal_mesh_place(m, &pl);
    sw_internal_mesh_world_tri(m->mesh, &pl, m->mesh->slot[i], v);
    return true;
}

sw_aabb sw_internal_mesh_bounds(const sw_mesh_instance* m)
{
    sw_mesh_place pl;
    sw_internal_mesh_place(m, &pl);
    const sw_mesh* mesh = m->mesh;
    sw_aabb box = {{SW_MAX_COORD, SW_MAX_COORD, SW_MAX_COORD}, {-SW_MAX_COORD, -SW_MAX_COORD, -SW_MAX_COORD}};
    if (!pl.rotated) {
        box.min = sw_internal_mesh_world(&pl, mesh->bmin);
        box.max = sw_internal_mesh_world(&pl, mesh->bmax);
        return box;
    }
    for (int i = 0; i < mesh->used_vertices; ++i) {
        const sw_vec3 p = sw_internal_mesh_world(&pl, mesh->v[i]);
        box.min = sw_vmin(box.min, p);
        box.max = sw_vmax(box.max, p);
    }
    return box;
}

sw_vec3 sw_internal_mesh_support(const sw_mesh_instance* m, sw_vec3 dir)
{
    sw_mesh_place pl;
    sw_internal_mesh_place(m, &pl);
    const sw_mesh* mesh = m->mesh;
    sw_vec3 best = sw_internal_mesh_world(&pl, mesh->v[0]);
    sw_real best_d = sw_dot(best, dir);
    for (int i = 1; i < mesh->used_vertices; ++i) {
        const sw_vec3 p = sw_internal_mesh_world(&pl, mesh->v[i]);
        const sw_real d = sw_dot(p, dir);
        if (d > best_d) {
            best = p;
            best_d = d;
        }
    }
    return best;
}
