// sweep_peers: the scene workload's world in Bullet 3 (see peers_scene.h).
#include "peers_scene.h"

#if SWEEP_PEERS_BULLET
#include <btBulletCollisionCommon.h>
#endif

#include <memory>

namespace peers
{

#if SWEEP_PEERS_BULLET

struct BulletWorld::Impl {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &config};
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btCollisionObject>> objects;
    btSphereShape cast{static_cast<btScalar>(WL_WORLD_SWEEP_RADIUS)};
    double ns = 0;

    ~Impl()
    {
        for (auto& o : objects) {
            world.removeCollisionObject(o.get());
        }
    }
};

namespace
{

btVector3 vec(const float* p) { return btVector3(p[0], p[1], p[2]); }

// The object's shape and its place (a capsule's Y turned onto its axis).
btCollisionShape* make_shape(const wl_object& w, btTransform& at)
{
    at.setIdentity();
    switch (w.type) {
    case WL_OBJECT_SPHERE:
        at.setOrigin(vec(w.center));
        return new btSphereShape(w.radius);
    case WL_OBJECT_BOX: {
        auto* box = new btBoxShape(vec(w.half));
        // Bullet keeps a box's margin inside its half extents and rounds
        // its corners by it; with none, it is the same box as the others'.
        box->setMargin(0);
        at.setOrigin(vec(w.center));
        at.setRotation(btQuaternion(w.rotation[0], w.rotation[1], w.rotation[2], w.rotation[3]));
        return box;
    }
    case WL_OBJECT_CAPSULE:
    default: {
        const btVector3 a = vec(w.a), b = vec(w.b);
        const btVector3 axis = b - a;
        at.setOrigin((a + b) * btScalar(0.5));
        at.setRotation(shortestArcQuat(btVector3(0, 1, 0), axis.normalized()));
        return new btCapsuleShape(w.radius, axis.length());
    }
    }
}

} // namespace

BulletWorld::BulletWorld(const wl_world& w) : impl_(new Impl)
{
    const double t0 = now_ns();
    impl_->shapes.reserve(static_cast<size_t>(w.count));
    impl_->objects.reserve(static_cast<size_t>(w.count));
    for (int i = 0; i < w.count; ++i) {
        btTransform at;
        impl_->shapes.emplace_back(make_shape(w.objects[i], at));
        auto* o = new btCollisionObject();
        o->setCollisionShape(impl_->shapes.back().get());
        o->setWorldTransform(at);
        o->setCollisionFlags(btCollisionObject::CF_STATIC_OBJECT);
        o->setUserIndex(i);
        impl_->objects.emplace_back(o);
        impl_->world.addCollisionObject(o, btBroadphaseProxy::StaticFilter,
                                        btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter);
    }
    // The broadphase's trees were built by insertion; rebuilt top-down, as
    // a caller who adds a static world at once would.
    impl_->broadphase.optimize();
    impl_->ns = now_ns() - t0;
}

BulletWorld::~BulletWorld() { delete impl_; }

bool BulletWorld::available() const { return true; }

double BulletWorld::build_ns() const { return impl_->ns; }

Answer BulletWorld::ray(const wl_query& q) const
{
    const btVector3 from(q.origin[0], q.origin[1], q.origin[2]);
    const btVector3 to = from + btVector3(q.d[0], q.d[1], q.d[2]);
    btCollisionWorld::ClosestRayResultCallback cb(from, to);
    impl_->world.rayTest(from, to, cb);
    if (!cb.hasHit()) {
        return Answer{};
    }
    return Answer{true, static_cast<double>(cb.m_closestHitFraction), cb.m_collisionObject->getUserIndex()};
}

Answer BulletWorld::sweep(const wl_query& q) const
{
    const btVector3 from(q.origin[0], q.origin[1], q.origin[2]);
    const btVector3 to = from + btVector3(q.d[0], q.d[1], q.d[2]);
    btCollisionWorld::ClosestConvexResultCallback cb(from, to);
    impl_->world.convexSweepTest(&impl_->cast, btTransform(btQuaternion::getIdentity(), from),
                                 btTransform(btQuaternion::getIdentity(), to), cb, 0);
    if (!cb.hasHit()) {
        return Answer{};
    }
    return Answer{true, static_cast<double>(cb.m_closestHitFraction), cb.m_hitCollisionObject->getUserIndex()};
}

std::string BulletWorld::describe()
{
    return "bullet: " + std::to_string(btGetVersion()) +
           ", btCollisionWorld + btDbvtBroadphase (optimized), rayTest, convexSweepTest (btSphereShape)";
}

#else

struct BulletWorld::Impl {
};
BulletWorld::BulletWorld(const wl_world&) : impl_(nullptr) {}
BulletWorld::~BulletWorld() = default;
bool BulletWorld::available() const { return false; }
double BulletWorld::build_ns() const { return 0; }
Answer BulletWorld::ray(const wl_query&) const { return Answer{}; }
Answer BulletWorld::sweep(const wl_query&) const { return Answer{}; }
std::string BulletWorld::describe() { return "bullet: skipped (not found when configured: install libbullet-dev)"; }

#endif

} // namespace peers
