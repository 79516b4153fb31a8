// sweep_peers: the pair workloads W1-W5 (bench/workloads.h: sphere-sphere,
// capsule-capsule, sphere-triangle, box-box, hull-hull; one moving shape
// against one static shape) through sweep's sw_sweep, Bullet 3's convex
// casts and FCL's continuousCollide.
//
// peers_pairs.cpp drives the rows and holds sweep's side;
// peers_pairs_bullet.cpp and peers_pairs_fcl.cpp the peers' methods,
// behind this small interface so that no peer's header is needed here.
#ifndef SWEEP_PEERS_PAIRS_H
#define SWEEP_PEERS_PAIRS_H

#include <memory>
#include <string>
#include <vector>

#include "peers_common.h"

namespace peers
{

// Whether any pair row's name ("pairs-sphere-sphere", ...) contains
// o.filter (all without a filter).
bool pair_rows_kept(const Options& o);
// The pair rows, with their own header.
void run_pairs(const Options& o);

// A hull of the workload as sw_hull_create built it: its vertices (input
// points, local frame, 3 floats each) and its faces in FCL's encoding
// (per face its vertex count, then its vertex indices, counter-clockwise
// seen from outside).
struct PairHull {
    std::vector<float> vertices;
    std::vector<int> faces;
    int face_count = 0;
};

// A workload's queries, with the hulls of W5 (empty for the others), the
// i-th of each for query i.
struct PairInput {
    wl_pair_id id;
    std::vector<wl_pair_query> queries;
    std::vector<PairHull> hull_a, hull_b;
};

// One way of answering a workload's queries; the shapes and transforms
// are built beforehand (untimed), answer() is the timed call.
class PairMethod
{
  public:
    virtual ~PairMethod() = default;
    // t as a fraction of d; hit false with t 0 for a miss.
    virtual Answer answer(size_t i) const = 0;
};

// A peer's method on a workload, or the reason it has none (method null).
struct PeerMethod {
    std::string name; // "bullet gjk", ...
    std::string note; // why unsupported, or what stands in for the shape
    std::unique_ptr<PairMethod> method;
};

// Bullet 3: btGjkConvexCast, btContinuousConvexCollision (EPA depth
// solver) and btSubsimplexConvexCast, each with a btVoronoiSimplexSolver;
// empty when built without Bullet.
std::vector<PeerMethod> bullet_pair_methods(const PairInput& in);
std::string bullet_pairs_describe();

// FCL 0.7: continuousCollide, CCDM_LINEAR, conservative advancement;
// empty when built without FCL.
std::vector<PeerMethod> fcl_pair_methods(const PairInput& in);
std::string fcl_pairs_describe();

} // namespace peers

#endif
