// The single header used from C++: its declarations compiled as C++ (with
// -Wall -Wextra -Wpedantic -Werror), the implementation linked from a C
// file. A sphere swept into a box, a ray into a one-triangle mesh and a
// sweep through a scene, each checked against its known answer.
#include <cmath>
#include <cstdio>

#include <sweep.h>

static bool near(double a, double b) { return std::fabs(a - b) < 1e-5; }

int main()
{
    const sw_shape ball = sw_make_sphere(sw_v3(0, 0, 0), SW_R(0.5));
    const sw_shape box = sw_make_box(sw_v3(4, 0, 0), sw_v3(1, 1, 1), sw_quat_identity());
    const sw_hit h = sw_sweep(&ball, sw_v3(10, 0, 0), &box, nullptr);
    if (h.status != SW_OK || !h.hit || !near(h.t, 0.25) || !near(h.normal.x, -1)) {
        std::printf("cpp: box sweep wrong: t = %g\n", (double)h.t);
        return 1;
    }

    const sw_vec3 v[3] = {sw_v3(0, -1, -1), sw_v3(0, 2, -1), sw_v3(0, -1, 2)};
    const int idx[3] = {0, 1, 2};
    sw_mesh_error err;
    sw_mesh* mesh = sw_mesh_create(v, 3, idx, 1, &err);
    if (!mesh) {
        std::printf("cpp: mesh: %s\n", sw_mesh_error_string(err));
        return 1;
    }
    const sw_shape m = sw_make_mesh(mesh, sw_v3(3, 0, 0), sw_quat_identity(), false);
    sw_ray ray;
    ray.origin = sw_v3(0, 0, 0);
    ray.dir = sw_v3(1, 0, 0);
    ray.max = 10;
    const sw_hit r = sw_raycast(&ray, &m);
    if (!r.hit || !near(r.t, 3) || r.triangle != 0) {
        std::printf("cpp: mesh ray wrong: t = %g\n", (double)r.t);
        return 1;
    }

    // The box's face at x = 3 and the mesh moved to x = 2: the ball (radius
    // 0.5) meets the mesh first, at t = 0.15.
    const sw_shape wall = sw_make_mesh(mesh, sw_v3(2, 0, 0), sw_quat_identity(), false);
    sw_scene* scene = sw_scene_create();
    if (sw_scene_add(scene, 1, &box, 1, ~0ull, nullptr) != SW_SCENE_OK ||
        sw_scene_add(scene, 2, &wall, 1, ~0ull, nullptr) != SW_SCENE_OK) {
        std::printf("cpp: scene add failed\n");
        return 1;
    }
    sw_scene_hit sh;
    if (sw_scene_sweep(scene, &ball, sw_v3(10, 0, 0), nullptr, SW_HITS_CLOSEST, nullptr, &sh, 1) != 1 ||
        sh.key != 2 || !near(sh.hit.t, 0.15) || sh.hit.triangle != 0) {
        std::printf("cpp: scene sweep wrong\n");
        return 1;
    }
    sw_scene_destroy(scene);
    sw_mesh_destroy(mesh);
    std::printf("cpp consumer: ok (%s)\n", sw_precision());
    return 0;
}
