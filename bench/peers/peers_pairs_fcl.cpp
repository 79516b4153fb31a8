// sweep_peers: the pair workloads through FCL's continuousCollide (see
// peers_pairs.h). FCL is used in double, the precision its library is
// built for; the inputs are the workloads' floats, read exactly.
#include "peers_pairs.h"

#if SWEEP_PEERS_FCL
#include <fcl/config.h>
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/geometry/shape/triangle_p.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/narrowphase/continuous_collision.h>
#endif

namespace peers
{

#if SWEEP_PEERS_FCL

namespace
{

using Vec = fcl::Vector3d;

Vec vec(const float* p) { return Vec(p[0], p[1], p[2]); }

// The shape and its place: a capsule's local Z turned onto its axis. A
// triangle is a TriangleP, or with `triangle_mesh` a one-triangle
// BVHModel<OBBRSS>, in world space (FCL 0.7's continuousCollide has no
// method for TriangleP).
fcl::CollisionGeometryd* make_shape(const wl_pair_shape& s, const PairHull* hull, bool triangle_mesh,
                                    fcl::Transform3d& at)
{
    at.setIdentity();
    switch (s.type) {
    case WL_PAIR_SHAPE_SPHERE:
        at.translation() = vec(s.center);
        return new fcl::Sphered(s.radius);
    case WL_PAIR_SHAPE_CAPSULE: {
        const Vec a = vec(s.a), b = vec(s.b);
        const Vec axis = b - a;
        at.translation() = 0.5 * (a + b);
        at.linear() = fcl::Quaterniond::FromTwoVectors(Vec::UnitZ(), axis.normalized()).toRotationMatrix();
        // lz: the distance between the two ends' centres.
        return new fcl::Capsuled(s.radius, axis.norm());
    }
    case WL_PAIR_SHAPE_TRIANGLE: {
        if (!triangle_mesh) {
            return new fcl::TrianglePd(vec(s.v[0]), vec(s.v[1]), vec(s.v[2]));
        }
        auto* m = new fcl::BVHModel<fcl::OBBRSSd>();
        m->beginModel(1, 3);
        m->addTriangle(vec(s.v[0]), vec(s.v[1]), vec(s.v[2]));
        m->endModel();
        return m;
    }
    case WL_PAIR_SHAPE_BOX: {
        at.translation() = vec(s.center);
        fcl::Quaterniond q(s.rotation[3], s.rotation[0], s.rotation[1], s.rotation[2]);
        at.linear() = q.normalized().toRotationMatrix();
        return new fcl::Boxd(2.0 * s.half[0], 2.0 * s.half[1], 2.0 * s.half[2]);
    }
    case WL_PAIR_SHAPE_HULL:
    default: {
        auto v = std::make_shared<std::vector<Vec>>();
        for (size_t k = 0; k + 2 < hull->vertices.size(); k += 3) {
            v->push_back(vec(&hull->vertices[k]));
        }
        auto f = std::make_shared<std::vector<int>>(hull->faces);
        at.translation() = vec(s.center);
        return new fcl::Convexd(v, hull->face_count, f);
    }
    }
}

class FclMethod : public PairMethod
{
  public:
    // The request's defaults (10 iterations, toc_err 1e-4, GST_LIBCCD)
    // but for the motion (linear) and the solver.
    FclMethod(const PairInput& in, fcl::CCDSolverType solver, bool triangle_mesh)
    {
        request_.ccd_motion_type = fcl::CCDM_LINEAR;
        request_.ccd_solver_type = solver;
        const size_t n = in.queries.size();
        for (size_t i = 0; i < n; ++i) {
            const wl_pair_query& q = in.queries[i];
            fcl::Transform3d fa, fb;
            a_.emplace_back(make_shape(q.a, in.hull_a.empty() ? nullptr : &in.hull_a[i], triangle_mesh, fa));
            b_.emplace_back(make_shape(q.b, in.hull_b.empty() ? nullptr : &in.hull_b[i], triangle_mesh, fb));
            a_.back()->computeLocalAABB();
            b_.back()->computeLocalAABB();
            from_a_.push_back(fa);
            fcl::Transform3d ta = fa;
            ta.translation() += vec(q.d);
            to_a_.push_back(ta);
            from_b_.push_back(fb);
        }
    }

    Answer answer(size_t i) const override
    {
        fcl::ContinuousCollisionResultd r;
        // B is static: its end transform is its start.
        fcl::continuousCollide(a_[i].get(), from_a_[i], to_a_[i], b_[i].get(), from_b_[i], from_b_[i], request_, r);
        if (!r.is_collide) {
            return Answer{};
        }
        return Answer{true, r.time_of_contact, -1};
    }

    // Whether the solver has a method for the pair of node types (the
    // call would print a warning and answer -1 otherwise): conservative
    // advancement's table, or for the naive solver discrete collide's.
    static bool supported(fcl::CCDSolverType solver, fcl::NODE_TYPE a, fcl::NODE_TYPE b)
    {
        using Solver = fcl::detail::GJKSolver_libccd<double>;
        if (solver == fcl::CCDC_NAIVE) {
            // collide() looks a shape-mesh pair up as mesh-shape.
            const auto& table = fcl::getCollisionFunctionLookTable<Solver>();
            return table.collision_matrix[a][b] != nullptr || table.collision_matrix[b][a] != nullptr;
        }
        const auto& table = fcl::getConservativeAdvancementFunctionLookTable<Solver>();
        return table.conservative_advancement_matrix[a][b] != nullptr;
    }

  private:
    fcl::ContinuousCollisionRequestd request_;
    std::vector<std::unique_ptr<fcl::CollisionGeometryd>> a_, b_;
    std::vector<fcl::Transform3d> from_a_, to_a_, from_b_;
};

} // namespace

std::vector<PeerMethod> fcl_pair_methods(const PairInput& in)
{
    std::vector<PeerMethod> m;
    for (const fcl::CCDSolverType solver : {fcl::CCDC_CONSERVATIVE_ADVANCEMENT, fcl::CCDC_NAIVE}) {
        const std::string name = solver == fcl::CCDC_NAIVE ? "fcl naive" : "fcl ca";
        bool mesh = false;
        std::string note;
        if (in.id == WL_PAIR_SPHERE_TRIANGLE && !FclMethod::supported(solver, fcl::GEOM_SPHERE, fcl::GEOM_TRIANGLE)) {
            if (!FclMethod::supported(solver, fcl::GEOM_SPHERE, fcl::BV_OBBRSS)) {
                m.push_back(
                    PeerMethod{name, "unsupported: no method for sphere-TriangleP nor sphere-BVHModel", nullptr});
                continue;
            }
            mesh = true;
            note = "sphere-TriangleP unsupported; B is a 1-triangle BVHModel<OBBRSS>";
        }
        m.push_back(PeerMethod{name, note, std::make_unique<FclMethod>(in, solver, mesh)});
    }
    return m;
}

std::string fcl_pairs_describe()
{
    return std::string("fcl: ") + FCL_VERSION +
           ", continuousCollide, CCDM_LINEAR, CCDC_CONSERVATIVE_ADVANCEMENT ('ca') and CCDC_NAIVE ('naive', the "
           "request's default solver: 10 samples of the path), GST_LIBCCD, in double";
}

#else

std::vector<PeerMethod> fcl_pair_methods(const PairInput&) { return {}; }
std::string fcl_pairs_describe() { return "fcl: skipped (not found when configured: install libfcl-dev)"; }

#endif

} // namespace peers
