// sweep_peers: the scene workload W8 (bench/workloads.h: spheres, boxes
// and capsules in a cube; rays and sphere sweeps, closest hit) and its
// growth, through sweep's scenes, Embree 3 and Bullet 3.
//
// peers_scene.cpp drives the rows and holds sweep's side;
// peers_scene_embree.cpp and peers_scene_bullet.cpp the peers' worlds,
// behind these small classes so that no peer's header is needed here.
#ifndef SWEEP_PEERS_SCENE_H
#define SWEEP_PEERS_SCENE_H

#include "peers_common.h"

namespace peers
{

// Whether any scene row's name contains o.filter (all without a filter).
bool scene_rows_kept(const Options& o);
// The scene rows, with their own header.
void run_scene(const Options& o);

// Embree 3: every object of the world, grown by `inflate` (0 for rays;
// the swept sphere's radius for the sweeps, which are then rays against
// the grown objects), as one user geometry whose bounds and intersection
// callbacks are exact (in double); default scene flags and build quality,
// a device of one thread (the build is single-threaded).
class EmbreeWorld
{
  public:
    EmbreeWorld(const wl_world& w, double inflate);
    ~EmbreeWorld();
    EmbreeWorld(const EmbreeWorld&) = delete;
    EmbreeWorld& operator=(const EmbreeWorld&) = delete;

    bool available() const; // false when built without Embree
    double build_ns() const;
    // The ray from q.origin along q.d, t in [0, 1]: rtcIntersect1.
    Answer cast(const wl_query& q) const;
    static std::string describe();

  private:
    struct Impl;
    Impl* impl_;
};

// Bullet 3: a btCollisionWorld (btDbvtBroadphase, optimized top-down once
// the objects are in) of one btCollisionObject per object: btSphereShape,
// btBoxShape (margin 0, so its corners are sharp), btCapsuleShape (its Y
// turned onto the capsule's axis).
class BulletWorld
{
  public:
    explicit BulletWorld(const wl_world& w);
    ~BulletWorld();
    BulletWorld(const BulletWorld&) = delete;
    BulletWorld& operator=(const BulletWorld&) = delete;

    bool available() const;
    double build_ns() const;
    // rayTest with ClosestRayResultCallback.
    Answer ray(const wl_query& q) const;
    // convexSweepTest of a btSphereShape of radius WL_WORLD_SWEEP_RADIUS,
    // ClosestConvexResultCallback, no allowed penetration.
    Answer sweep(const wl_query& q) const;
    static std::string describe();

  private:
    struct Impl;
    Impl* impl_;
};

} // namespace peers

#endif
