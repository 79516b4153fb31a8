// sweep_peers: the pair workloads W1-W5 (peers_pairs.cpp) first, then the
// bench's mesh workloads (bench/workloads.c: the bunny,
// value-noise terrains of 1k to 1M triangles, W6 rays and W7 sphere and
// capsule sweeps) through sweep, Embree 3 and Bullet 3, on the same input:
// ns per query for each, sweep's ratio to each peer, build times, and how
// often the answers differ. Embree and Bullet work in float and are not
// exact, so differences are counted, not failed. Single thread. The scene
// workload W8 follows (peers_scene.cpp).
//
// Optional (not part of `make test`); `make bench-peers` builds and runs it.
// A peer whose Debian package was missing at configure time is skipped.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <sweep/sweep.h>

#include "peers_common.h"
#include "peers_pairs.h"
#include "peers_scene.h"
#include "workloads.h"

#if SWEEP_PEERS_EMBREE
#include <embree3/rtcore.h>
#endif
#if SWEEP_PEERS_BULLET
#include <btBulletCollisionCommon.h>
#endif

namespace
{

using namespace peers;

enum Op { OP_BUILD, OP_RAY, OP_SPHERE, OP_CAPSULE, OP_COUNT };
const char* const kOpA[OP_COUNT] = {"build", "point", "sphere", "capsule"};

// As in the bench: capsules on the bunny and the 1M terrain only.
bool has_op(wl_mesh_id id, Op op) { return op != OP_CAPSULE || id == WL_BUNNY || id == WL_TERRAIN_1M; }

std::string row_name(wl_mesh_id id, Op op) { return std::string(kOpA[op]) + "-mesh-" + wl_mesh_name(id); }

bool kept(const Options& o, wl_mesh_id id, Op op)
{
    return has_op(id, op) && (!o.filter || row_name(id, op).find(o.filter) != std::string::npos);
}

// ---- sweep ----------------------------------------------------------------

struct SweepSide {
    sw_mesh* mesh = nullptr;
    sw_shape shape{};
    std::vector<sw_ray> rays;
    std::vector<sw_shape> spheres, capsules;
    std::vector<sw_vec3> d;

    ~SweepSide() { sw_mesh_destroy(mesh); }

    double build(const wl_mesh& m)
    {
        std::vector<sw_vec3> v(static_cast<size_t>(m.vertex_count));
        const double t0 = now_ns();
        for (int i = 0; i < m.vertex_count; ++i) {
            v[static_cast<size_t>(i)] = v3(m.v + 3 * i);
        }
        sw_mesh_destroy(mesh);
        sw_mesh_error error = SW_MESH_OK;
        mesh = sw_mesh_create(v.data(), m.vertex_count, m.tri, m.triangle_count, &error);
        const double ns = now_ns() - t0;
        if (!mesh) {
            std::fprintf(stderr, "sweep_peers: sw_mesh_create: %s\n", sw_mesh_error_string(error));
            std::exit(1);
        }
        shape = sw_make_mesh(mesh, sw_v3(0, 0, 0), sw_quat_identity(), false);
        return ns;
    }

    void prepare(const std::vector<wl_query>& qs)
    {
        for (const wl_query& q : qs) {
            const sw_vec3 o = v3(q.origin), dq = v3(q.d), axis = v3(q.axis);
            rays.push_back(sw_ray{o, dq, 1});
            d.push_back(dq);
            spheres.push_back(sw_make_sphere(o, static_cast<sw_real>(WL_SPHERE_RADIUS)));
            capsules.push_back(sw_make_capsule(sw_madd(o, -static_cast<sw_real>(WL_CAPSULE_HALF), axis),
                                               sw_madd(o, static_cast<sw_real>(WL_CAPSULE_HALF), axis),
                                               static_cast<sw_real>(WL_CAPSULE_RADIUS)));
        }
    }

    sw_hit query(Op op, size_t i) const
    {
        return op == OP_RAY      ? sw_raycast(&rays[i], &shape)
               : op == OP_SPHERE ? sw_sweep(&spheres[i], d[i], &shape, nullptr)
                                 : sw_sweep(&capsules[i], d[i], &shape, nullptr);
    }

    Answer answer(Op op, size_t i) const
    {
        const sw_hit h = query(op, i);
        return Answer{h.hit, static_cast<double>(h.t), h.hit ? h.triangle : -1};
    }

    // Distance to the mesh of A moved to t (the ray's point, the sphere,
    // the capsule), by the library's distance query: about 0 at a first
    // contact, clearly positive where the answer touched nothing.
    double gap(Op op, size_t i, double t) const
    {
        const sw_vec3 off = sw_scale(d[i], static_cast<sw_real>(t));
        sw_shape a = op == OP_RAY      ? sw_make_point(sw_add(rays[i].origin, off))
                     : op == OP_SPHERE ? spheres[i]
                                       : capsules[i];
        if (op == OP_SPHERE) {
            a.sphere.center = sw_add(a.sphere.center, off);
        } else if (op == OP_CAPSULE) {
            a.capsule.a = sw_add(a.capsule.a, off);
            a.capsule.b = sw_add(a.capsule.b, off);
        }
        const sw_distance_result r = sw_distance(&a, &shape);
        return r.status == SW_OK ? static_cast<double>(r.distance) : NAN;
    }

    // The first hit over every triangle one by one, through the library's
    // single-triangle queries: no hierarchy, to tell who is right when the
    // answers differ. A triangle whose box, grown by A's reach, the path
    // of A's centre misses is skipped (a slab test in double).
    Answer brute(const wl_mesh& m, Op op, size_t i) const
    {
        const double reach = (op == OP_RAY      ? 0
                              : op == OP_SPHERE ? WL_SPHERE_RADIUS
                                                : WL_CAPSULE_RADIUS + WL_CAPSULE_HALF) +
                             1e-6;
        const double o[3] = {rays[i].origin.x, rays[i].origin.y, rays[i].origin.z};
        const double dd[3] = {d[i].x, d[i].y, d[i].z};
        Answer best;
        for (int k = 0; k < m.triangle_count; ++k) {
            const int* t = m.tri + 3 * k;
            double t0 = 0, t1 = 1;
            for (int a = 0; a < 3 && t0 <= t1; ++a) {
                const float* p0 = m.v + 3 * t[0];
                const float* p1 = m.v + 3 * t[1];
                const float* p2 = m.v + 3 * t[2];
                const double lo = std::min({p0[a], p1[a], p2[a]}) - reach - o[a];
                const double hi = std::max({p0[a], p1[a], p2[a]}) + reach - o[a];
                if (dd[a] == 0) {
                    t1 = lo <= 0 && hi >= 0 ? t1 : -1;
                } else {
                    t0 = std::max(t0, std::min(lo / dd[a], hi / dd[a]));
                    t1 = std::min(t1, std::max(lo / dd[a], hi / dd[a]));
                }
            }
            if (t0 > t1) {
                continue;
            }
            const sw_shape tri = sw_make_triangle(v3(m.v + 3 * t[0]), v3(m.v + 3 * t[1]), v3(m.v + 3 * t[2]), false);
            const sw_hit h = op == OP_RAY      ? sw_raycast(&rays[i], &tri)
                             : op == OP_SPHERE ? sw_sweep(&spheres[i], d[i], &tri, nullptr)
                                               : sw_sweep(&capsules[i], d[i], &tri, nullptr);
            if (h.hit && (!best.hit || h.t < best.t)) {
                best = Answer{true, static_cast<double>(h.t), k};
            }
        }
        return best;
    }
};

// ---- Embree ---------------------------------------------------------------

#if SWEEP_PEERS_EMBREE
struct EmbreeSide {
    RTCDevice device = nullptr;
    RTCScene scene = nullptr;
    std::vector<RTCRayHit> rays;

    EmbreeSide()
    {
        // One thread, for the build too: the bench is single-threaded.
        device = rtcNewDevice("threads=1,set_affinity=0");
        if (!device) {
            std::fprintf(stderr, "sweep_peers: rtcNewDevice failed (error %d)\n", rtcGetDeviceError(nullptr));
            std::exit(1);
        }
    }
    ~EmbreeSide()
    {
        if (scene) {
            rtcReleaseScene(scene);
        }
        rtcReleaseDevice(device);
    }

    double build(const wl_mesh& m)
    {
        if (scene) {
            rtcReleaseScene(scene);
        }
        const double t0 = now_ns();
        scene = rtcNewScene(device);
        RTCGeometry g = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
        auto* v = static_cast<float*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                                              3 * sizeof(float), static_cast<size_t>(m.vertex_count)));
        auto* t = static_cast<unsigned*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                                                 3 * sizeof(unsigned),
                                                                 static_cast<size_t>(m.triangle_count)));
        std::memcpy(v, m.v, 3 * sizeof(float) * static_cast<size_t>(m.vertex_count));
        std::memcpy(t, m.tri, 3 * sizeof(unsigned) * static_cast<size_t>(m.triangle_count));
        rtcCommitGeometry(g);
        rtcAttachGeometry(scene, g);
        rtcReleaseGeometry(g);
        rtcCommitScene(scene);
        const double ns = now_ns() - t0;
        if (rtcGetDeviceError(device) != RTC_ERROR_NONE) {
            std::fprintf(stderr, "sweep_peers: Embree failed to build the scene\n");
            std::exit(1);
        }
        return ns;
    }

    void prepare(const std::vector<wl_query>& qs)
    {
        for (const wl_query& q : qs) {
            rays.push_back(embree_ray(q));
        }
    }

    // The ray is copied: rtcIntersect1 writes its answer into it.
    RTCRayHit cast(size_t i) const
    {
        RTCIntersectContext context;
        rtcInitIntersectContext(&context);
        RTCRayHit r = rays[i];
        rtcIntersect1(scene, &context, &r);
        return r;
    }

    Answer answer(size_t i) const
    {
        const RTCRayHit r = cast(i);
        const bool hit = r.hit.geomID != RTC_INVALID_GEOMETRY_ID;
        return Answer{hit, hit ? static_cast<double>(r.ray.tfar) : 0, hit ? static_cast<int>(r.hit.primID) : -1};
    }
};
#endif

// ---- Bullet ---------------------------------------------------------------

#if SWEEP_PEERS_BULLET
static_assert(sizeof(btScalar) == sizeof(float), "sweep_peers shares float vertices with Bullet's float build");

struct BulletSide {
    btTriangleIndexVertexArray* array = nullptr;
    btBvhTriangleMeshShape* shape = nullptr;
    btCollisionObject object;
    btSphereShape sphere{static_cast<btScalar>(WL_SPHERE_RADIUS)};
    // Bullet's capsule lies along its local Y; each query rotates Y onto
    // its axis. The height is the distance between the two ends' centres.
    btCapsuleShape capsule{static_cast<btScalar>(WL_CAPSULE_RADIUS), static_cast<btScalar>(2 * WL_CAPSULE_HALF)};
    std::vector<btTransform> from, to, capsule_from, capsule_to;

    ~BulletSide() { release(); }

    void release()
    {
        delete shape;
        delete array;
        shape = nullptr;
        array = nullptr;
    }

    // Bullet reads the caller's arrays in place (m must outlive this).
    double build(wl_mesh& m)
    {
        release();
        const double t0 = now_ns();
        array = new btTriangleIndexVertexArray(m.triangle_count, m.tri, 3 * sizeof(int), m.vertex_count, m.v,
                                               3 * sizeof(float));
        shape = new btBvhTriangleMeshShape(array, true, true);
        const double ns = now_ns() - t0;
        object.setCollisionShape(shape);
        object.setWorldTransform(btTransform::getIdentity());
        return ns;
    }

    void prepare(const std::vector<wl_query>& qs)
    {
        for (const wl_query& q : qs) {
            const btVector3 o(q.origin[0], q.origin[1], q.origin[2]);
            const btVector3 e = o + btVector3(q.d[0], q.d[1], q.d[2]);
            from.emplace_back(btQuaternion::getIdentity(), o);
            to.emplace_back(btQuaternion::getIdentity(), e);
            const btQuaternion r = shortestArcQuat(btVector3(0, 1, 0), btVector3(q.axis[0], q.axis[1], q.axis[2]));
            capsule_from.emplace_back(r, o);
            capsule_to.emplace_back(r, e);
        }
    }

    Answer answer(Op op, size_t i)
    {
        if (op == OP_RAY) {
            btCollisionWorld::ClosestRayResultCallback cb(from[i].getOrigin(), to[i].getOrigin());
            btCollisionWorld::rayTestSingle(from[i], to[i], &object, shape, object.getWorldTransform(), cb);
            return Answer{cb.hasHit(), cb.hasHit() ? static_cast<double>(cb.m_closestHitFraction) : 0, -1};
        }
        const bool caps = op == OP_CAPSULE;
        const btTransform& f = caps ? capsule_from[i] : from[i];
        const btTransform& t = caps ? capsule_to[i] : to[i];
        btCollisionWorld::ClosestConvexResultCallback cb(f.getOrigin(), t.getOrigin());
        const btConvexShape* cast = caps ? static_cast<btConvexShape*>(&capsule) : &sphere;
        // No allowed penetration: the first touch, as sweep reports it.
        btCollisionWorld::objectQuerySingle(cast, f, t, &object, shape, object.getWorldTransform(), cb, 0);
        return Answer{cb.hasHit(), cb.hasHit() ? static_cast<double>(cb.m_closestHitFraction) : 0, -1};
    }
};
#endif

// ---- comparison and report ------------------------------------------------

struct Workload {
    const wl_mesh& mesh;
    const std::vector<wl_query>& queries;
    const SweepSide& sweep;
};

// A distance at most this is a touch: four times the contract's tolerance
// at the queries' scale (about 1, DESIGN.md section 3).
constexpr double kTouch = 4 * static_cast<double>(SW_TOLERANCE);

// Whether the evidence says sweep is wrong where it and a peer differ:
// sweep's hit touches nothing (by the library's distance query), or the
// peer touches the mesh earlier than sweep's hit (or where sweep misses)
// and sweep's own triangles, one by one, agree with the peer. Bullet's
// early hits stop a few 1e-4 short of the surface, so they do not count.
bool suspect(const Workload& w, Op op, size_t i, const Answer& s, const Answer& p)
{
    if (s.hit && w.sweep.gap(op, i, s.t) > kTouch) {
        return true;
    }
    if (!p.hit || (s.hit && p.t >= s.t - kTolerance) || !(w.sweep.gap(op, i, p.t) <= kTouch)) {
        return false;
    }
    const Answer b = w.sweep.brute(w.mesh, op, i);
    return b.hit && (!s.hit || b.t < s.t - kTolerance);
}

// Prints up to o.show of the queries where sweep and the peer differ,
// those marked suspect first, with the brute-force answer (every triangle
// through the library's own single-triangle query) and the distances at
// each answer's t, to say which is right.
void show_disagreements(const Options& o, const Workload& w, Op op, const char* peer, const std::vector<Answer>& s,
                        const std::vector<Answer>& p, const std::vector<char>& sus)
{
    int shown = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < s.size() && shown < o.show; ++i) {
            if (!differs(s[i], p[i]) || sus[i] != (pass == 0)) {
                continue;
            }
            ++shown;
            const wl_query& q = w.queries[i];
            const Answer b = w.sweep.brute(w.mesh, op, i);
            std::printf("    %s #%zu%s: origin (%.9g, %.9g, %.9g) d (%.9g, %.9g, %.9g) axis (%.6g, %.6g, %.6g)\n", peer,
                        i, sus[i] ? " SUSPECT" : "", q.origin[0], q.origin[1], q.origin[2], q.d[0], q.d[1], q.d[2],
                        q.axis[0], q.axis[1], q.axis[2]);
            std::printf("      sweep %s | %s %s | brute force %s\n", answer_text(s[i]).c_str(), peer,
                        answer_text(p[i]).c_str(), answer_text(b).c_str());
            std::printf("      distance to the mesh at sweep's t %s, at %s's t %s\n",
                        s[i].hit ? number("%.3g", w.sweep.gap(op, i, s[i].t), true).c_str() : "-", peer,
                        p[i].hit ? number("%.3g", w.sweep.gap(op, i, p[i].t), true).c_str() : "-");
        }
    }
}

// Marks in sus the queries where the peer's answer shows sweep wrong.
void find_suspects(const Workload& w, Op op, const std::vector<Answer>& s, const std::vector<Answer>& p,
                   std::vector<char>& sus)
{
    for (size_t i = 0; i < s.size(); ++i) {
        sus[i] = sus[i] || (differs(s[i], p[i]) && suspect(w, op, i, s[i], p[i]));
    }
}

void print_header()
{
    std::printf("%-22s %9s %9s %9s %9s %8s %8s %6s  %-19s %-19s %4s %7s\n", "workload", "triangles", "sweep ns",
                "embree ns", "bullet ns", "sw/emb", "sw/bul", "hits", "vs embree: h/m dt", "vs bullet: h/m dt", "both",
                "suspect");
}

void run_workload(const Options& o, const Workload& w, Op op, wl_mesh_id id, void* embree_side, void* bullet_side)
{
    const size_t n = w.queries.size();
    std::vector<Answer> s, e, b;
    const double sweep_ns = answer_and_time(o, n, s, [&](size_t i) { return w.sweep.answer(op, i); });
    double embree_ns = 0, bullet_ns = 0;
    Disagreement de, db;
#if SWEEP_PEERS_EMBREE
    if (op == OP_RAY) {
        const auto* es = static_cast<const EmbreeSide*>(embree_side);
        embree_ns = answer_and_time(o, n, e, [&](size_t i) { return es->answer(i); });
        de = compare(s, e);
    }
#else
    (void)embree_side;
#endif
#if SWEEP_PEERS_BULLET
    auto* bs = static_cast<BulletSide*>(bullet_side);
    bullet_ns = answer_and_time(o, n, b, [&](size_t i) { return bs->answer(op, i); });
    db = compare(s, b);
#else
    (void)bullet_side;
#endif
    // Queries where sweep differs from both peers while they agree.
    int both = 0;
    const bool two = !e.empty() && !b.empty();
    for (size_t i = 0; two && i < n; ++i) {
        both += differs(s[i], e[i]) && differs(s[i], b[i]) && !differs(e[i], b[i]);
    }
    std::vector<char> sus_e(n, 0), sus_b(n, 0);
    if (!e.empty()) {
        find_suspects(w, op, s, e, sus_e);
    }
    if (!b.empty()) {
        find_suspects(w, op, s, b, sus_b);
    }
    int hits = 0, suspects = 0;
    for (size_t i = 0; i < n; ++i) {
        hits += s[i].hit;
        suspects += sus_e[i] || sus_b[i];
    }
    char hit_rate[16];
    std::snprintf(hit_rate, sizeof hit_rate, "%.2f", hits / static_cast<double>(n));
    std::printf("%-22s %9d %9s %9s %9s %8s %8s %6s  %-19s %-19s %4s %7d\n", row_name(id, op).c_str(),
                w.mesh.triangle_count, number("%.1f", sweep_ns).c_str(), number("%.1f", embree_ns).c_str(),
                number("%.1f", bullet_ns).c_str(), number("%.3gx", embree_ns > 0 ? sweep_ns / embree_ns : 0).c_str(),
                number("%.3gx", bullet_ns > 0 ? sweep_ns / bullet_ns : 0).c_str(), hit_rate,
                disagreement_text(e.empty() ? nullptr : &de).c_str(),
                disagreement_text(b.empty() ? nullptr : &db).c_str(), two ? std::to_string(both).c_str() : "-",
                suspects);
    if (!e.empty()) {
        show_disagreements(o, w, op, "embree", s, e, sus_e);
    }
    if (!b.empty()) {
        show_disagreements(o, w, op, "bullet", s, b, sus_b);
    }
    std::fflush(stdout);
}

void run_mesh(const Options& o, wl_mesh_id id)
{
    wl_mesh m;
    char err[512];
    if (wl_make_mesh(id, o.data_dir, &m, err, sizeof err) != 0) {
        std::printf("%-22s skipped: %s\n", wl_mesh_name(id), err);
        return;
    }
    // At most three builds of the 1M terrain (about a second each here).
    const int builds = m.triangle_count > 200000 ? std::min(o.runs, 3) : o.runs;
    SweepSide sweep;
    const double sweep_ms = time_builds(builds, [&] { return sweep.build(m); });
    void* embree_side = nullptr;
    void* bullet_side = nullptr;
    double embree_ms = 0, bullet_ms = 0;
#if SWEEP_PEERS_EMBREE
    EmbreeSide embree;
    embree_ms = time_builds(builds, [&] { return embree.build(m); });
    embree_side = &embree;
#endif
#if SWEEP_PEERS_BULLET
    BulletSide bullet;
    bullet_ms = time_builds(builds, [&] { return bullet.build(m); });
    bullet_side = &bullet;
#endif
    if (kept(o, id, OP_BUILD)) {
        const sw_mesh_info info = sw_mesh_get_info(sweep.mesh);
        std::printf("%-22s %9d  build ms (median of %d): sweep %.2f (%.1f bytes/triangle, depth %d), embree %s, bullet "
                    "%s\n",
                    row_name(id, OP_BUILD).c_str(), m.triangle_count, builds, sweep_ms,
                    static_cast<double>(info.bytes) / info.triangle_count, info.depth,
                    number("%.2f", embree_ms).c_str(), number("%.2f", bullet_ms).c_str());
    }
    std::vector<wl_query> qs(static_cast<size_t>(o.queries));
    wl_make_queries(&m, wl_query_seed(id), o.queries, qs.data());
    sweep.prepare(qs);
#if SWEEP_PEERS_EMBREE
    embree.prepare(qs);
#endif
#if SWEEP_PEERS_BULLET
    bullet.prepare(qs);
#endif
    const Workload w{m, qs, sweep};
    for (int op = OP_RAY; op < OP_COUNT; ++op) {
        if (kept(o, id, static_cast<Op>(op))) {
            run_workload(o, w, static_cast<Op>(op), id, embree_side, bullet_side);
        }
    }
#if SWEEP_PEERS_BULLET
    bullet.release(); // before m's arrays, which it reads
#endif
    wl_mesh_free(&m);
}

void usage(FILE* f)
{
    std::fputs("usage: sweep_peers [--queries N] [--runs N] [--filter TEXT] [--data DIR] [--show N] [--no-self]\n"
               "\n"
               "First the pair rows ('pairs-P' for P = sphere-sphere, capsule-capsule,\n"
               "sphere-triangle, box-box, hull-hull; --filter pairs keeps them alone):\n"
               "workloads W1-W5, one shape moving against one static shape, through sweep's\n"
               "sw_sweep, Bullet 3's btGjkConvexCast, btContinuousConvexCollision and\n"
               "btSubsimplexConvexCast, and FCL's continuousCollide (conservative\n"
               "advancement, and the naive solver, the request's default); hand-made cases\n"
               "with known answers are checked first. Then:\n"
               "\n"
               "the mesh workloads of `sweep bench` (rows 'build-mesh-M', 'point-mesh-M',\n"
               "'sphere-mesh-M', 'capsule-mesh-M' for M = bunny, terrain1k .. terrain1m) through\n"
               "sweep, Embree 3 (rays) and Bullet 3 (rays, sphere and capsule sweeps), single\n"
               "thread, and prints the median ns per query over N runs (default 5), sweep's\n"
               "ratio to each peer, and the disagreements with each: 'h/m' queries one hits\n"
               "and the other misses, 'dt' both hit with |dt| > 1e-4 of the path, with the\n"
               "largest |dt|; 'both' counts queries where sweep differs from two peers that\n"
               "agree; 'suspect' those where the evidence says sweep is wrong: its hit is\n"
               "farther than 4x its tolerance from the mesh (by sweep's distance query), or\n"
               "a peer touches the mesh before sweep's hit and the brute force (every\n"
               "triangle through sweep's single-triangle query) finds that earlier hit too.\n"
               "--show N prints the first N disagreements per peer (default 3; suspects\n"
               "first) with the brute-force answer and the distances at each answer's t.\n"
               "--queries sets the queries per workload (default 4096, as the bench);\n"
               "--filter keeps the rows whose names contain TEXT; --data holds bunny.obj.\n"
               "\n"
               "Then the scene rows (workload W8 and its growth; --filter scene keeps them\n"
               "alone): 'build-scene-N', 'point-scene-N' (rays) and 'sphere-scene-N' (spheres\n"
               "of radius 0.25 swept), closest hit, for worlds of N = 100, 1k, 10k (W8) and\n"
               "100k spheres, boxes and capsules, through sweep's scenes, Embree (one user\n"
               "geometry with exact callbacks; the sweeps as rays against the objects grown\n"
               "by 0.25) and Bullet (btCollisionWorld: rayTest, convexSweepTest); and\n"
               "'threads-point-scene-10k', W8's rays over 1 and 2 threads (sweep's batch,\n"
               "Embree's rtcIntersect1 from std::threads). Their 'self' column counts the\n"
               "answers of sweep's scene unlike the brute force over its own pair queries\n"
               "(which must be none; --no-self skips that check).\n",
               f);
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const bool more = i + 1 < argc;
        if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!std::strcmp(argv[i], "--queries") && more) {
            o.queries = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--runs") && more) {
            o.runs = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--filter") && more) {
            o.filter = argv[++i];
        } else if (!std::strcmp(argv[i], "--data") && more) {
            o.data_dir = argv[++i];
        } else if (!std::strcmp(argv[i], "--show") && more) {
            o.show = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--no-self")) {
            o.self_check = false;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (o.queries < 1 || o.runs < 1 || o.show < 0) {
        std::fprintf(stderr, "sweep_peers: --queries and --runs must be positive\n");
        return 2;
    }
    std::printf("sweep_peers: sweep %s (%s), %d queries per workload, median of %d runs, single thread\n", sw_version(),
                sw_precision(), o.queries, o.runs);
    run_pairs(o);
    bool any_mesh = false;
    for (int id = 0; id < WL_MESH_COUNT; ++id) {
        for (int op = 0; op < OP_COUNT; ++op) {
            any_mesh = any_mesh || kept(o, static_cast<wl_mesh_id>(id), static_cast<Op>(op));
        }
    }
    if (any_mesh) {
        std::printf("\nmesh rows (W6, W7):\n");
#if SWEEP_PEERS_EMBREE
        std::printf("embree: %d.%d.%d, rtcIntersect1, default scene flags and build quality\n", RTC_VERSION_MAJOR,
                    RTC_VERSION_MINOR, RTC_VERSION_PATCH);
#else
        std::printf("embree: skipped (not found when configured: install libembree-dev)\n");
#endif
#if SWEEP_PEERS_BULLET
        std::printf("bullet: %d, btBvhTriangleMeshShape (quantized), rayTestSingle, objectQuerySingle\n",
                    btGetVersion());
#else
        std::printf("bullet: skipped (not found when configured: install libbullet-dev)\n");
#endif
        std::printf("\n");
        print_header();
    }
    for (int id = 0; id < WL_MESH_COUNT; ++id) {
        bool any = false;
        for (int op = 0; op < OP_COUNT; ++op) {
            any = any || kept(o, static_cast<wl_mesh_id>(id), static_cast<Op>(op));
        }
        if (any) {
            run_mesh(o, static_cast<wl_mesh_id>(id));
        }
    }
    run_scene(o);
    return 0;
}
