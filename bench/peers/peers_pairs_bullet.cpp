// sweep_peers: the pair workloads through Bullet 3's convex casts (see
// peers_pairs.h).
#include "peers_pairs.h"

#if SWEEP_PEERS_BULLET
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <BulletCollision/NarrowPhaseCollision/btContinuousConvexCollision.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btSubSimplexConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <btBulletCollisionCommon.h>
#endif

namespace peers
{

#if SWEEP_PEERS_BULLET

static_assert(sizeof(btScalar) == sizeof(float), "sweep_peers reads Bullet's float build");

namespace
{

btVector3 vec(const float* p) { return btVector3(p[0], p[1], p[2]); }

// The shape, with no margin beyond the solid: a sphere's and a capsule's
// margin is their radius (Bullet's own convention, the shape is exact);
// a box, triangle and hull are given margin 0, so that their corners are
// sharp (a box keeps its margin inside its half extents, so setMargin(0)
// leaves its size; a triangle and a hull would otherwise be grown by
// 0.04). `at` places it: a capsule's local Y is turned onto its axis.
btConvexShape* make_shape(const wl_pair_shape& s, const PairHull* hull, btTransform& at)
{
    at.setIdentity();
    switch (s.type) {
    case WL_PAIR_SHAPE_SPHERE:
        at.setOrigin(vec(s.center));
        return new btSphereShape(s.radius);
    case WL_PAIR_SHAPE_CAPSULE: {
        const btVector3 a = vec(s.a), b = vec(s.b);
        const btVector3 axis = b - a;
        at.setOrigin((a + b) * btScalar(0.5));
        at.setRotation(shortestArcQuat(btVector3(0, 1, 0), axis.normalized()));
        // The height is the distance between the two ends' centres.
        return new btCapsuleShape(s.radius, axis.length());
    }
    case WL_PAIR_SHAPE_TRIANGLE: {
        auto* t = new btTriangleShape(vec(s.v[0]), vec(s.v[1]), vec(s.v[2]));
        t->setMargin(0);
        return t;
    }
    case WL_PAIR_SHAPE_BOX: {
        auto* box = new btBoxShape(vec(s.half));
        box->setMargin(0);
        at.setOrigin(vec(s.center));
        at.setRotation(btQuaternion(s.rotation[0], s.rotation[1], s.rotation[2], s.rotation[3]));
        return box;
    }
    case WL_PAIR_SHAPE_HULL:
    default: {
        // The hull's vertices (the points sw_hull_create kept; the others
        // lie inside and never support it).
        auto* h = new btConvexHullShape(hull->vertices.data(), static_cast<int>(hull->vertices.size() / 3),
                                        3 * sizeof(float));
        h->setMargin(0);
        at.setOrigin(vec(s.center));
        return h;
    }
    }
}

enum Caster { GJK, CONTINUOUS, SUBSIMPLEX };

class BulletMethod : public PairMethod
{
  public:
    BulletMethod(const PairInput& in, Caster caster) : caster_(caster)
    {
        const size_t n = in.queries.size();
        for (size_t i = 0; i < n; ++i) {
            const wl_pair_query& q = in.queries[i];
            btTransform fa, fb;
            a_.emplace_back(make_shape(q.a, in.hull_a.empty() ? nullptr : &in.hull_a[i], fa));
            b_.emplace_back(make_shape(q.b, in.hull_b.empty() ? nullptr : &in.hull_b[i], fb));
            from_a_.push_back(fa);
            btTransform ta = fa;
            ta.setOrigin(fa.getOrigin() + vec(q.d));
            to_a_.push_back(ta);
            from_b_.push_back(fb);
        }
    }

    Answer answer(size_t i) const override
    {
        btVoronoiSimplexSolver simplex;
        btConvexCast::CastResult r;
        bool hit;
        // B is static: toB = fromB.
        if (caster_ == GJK) {
            btGjkConvexCast cast(a_[i].get(), b_[i].get(), &simplex);
            hit = cast.calcTimeOfImpact(from_a_[i], to_a_[i], from_b_[i], from_b_[i], r);
        } else if (caster_ == CONTINUOUS) {
            btContinuousConvexCollision cast(a_[i].get(), b_[i].get(), &simplex, &epa_);
            hit = cast.calcTimeOfImpact(from_a_[i], to_a_[i], from_b_[i], from_b_[i], r);
        } else {
            btSubsimplexConvexCast cast(a_[i].get(), b_[i].get(), &simplex);
            hit = cast.calcTimeOfImpact(from_a_[i], to_a_[i], from_b_[i], from_b_[i], r);
        }
        // The casts' fraction starts at BT_LARGE_FLOAT; the subsimplex cast
        // can stop past the end of the path and still return true.
        if (!hit || !(r.m_fraction <= 1)) {
            return Answer{};
        }
        return Answer{true, static_cast<double>(r.m_fraction), -1};
    }

  private:
    Caster caster_;
    std::vector<std::unique_ptr<btConvexShape>> a_, b_;
    std::vector<btTransform> from_a_, to_a_, from_b_;
    mutable btGjkEpaPenetrationDepthSolver epa_;
};

} // namespace

std::vector<PeerMethod> bullet_pair_methods(const PairInput& in)
{
    std::vector<PeerMethod> m;
    m.push_back(PeerMethod{"bullet gjk", "", std::make_unique<BulletMethod>(in, GJK)});
    m.push_back(PeerMethod{"bullet continuous", "", std::make_unique<BulletMethod>(in, CONTINUOUS)});
    m.push_back(PeerMethod{"bullet subsimplex", "", std::make_unique<BulletMethod>(in, SUBSIMPLEX)});
    return m;
}

std::string bullet_pairs_describe()
{
    return "bullet: " + std::to_string(btGetVersion()) +
           ", calcTimeOfImpact of btGjkConvexCast ('gjk'), btContinuousConvexCollision with "
           "btGjkEpaPenetrationDepthSolver ('continuous'), btSubsimplexConvexCast ('subsimplex'), each with a "
           "btVoronoiSimplexSolver; margin 0 on boxes, triangles and hulls";
}

#else

std::vector<PeerMethod> bullet_pair_methods(const PairInput&) { return {}; }
std::string bullet_pairs_describe() { return "bullet: skipped (not found when configured: install libbullet-dev)"; }

#endif

} // namespace peers
