// sweep_peers: the scene rows (see peers_scene.h): for worlds of 100 to
// 100,000 objects at W8's density (W8 is the 10k world), the build, W8's
// rays and sphere sweeps (closest hit) through sweep, Embree and Bullet,
// ns per query, sweep's ratios to each, and how the answers differ; on W8
// also rays over one and two threads. Every answer of sweep's scene is
// also checked against its own pair queries, object by object ('self').
#include <cstring>
#include <ctime>
#include <memory>
#include <thread>

#include <sweep/scene.h>

#include "peers_scene.h"

namespace peers
{

namespace
{

constexpr int kWorlds = 4;
constexpr int kWorldObjects[kWorlds] = {100, 1000, 10000, 100000};
const char* const kWorldNames[kWorlds] = {"100", "1k", "10k", "100k"};

enum SceneOp { S_BUILD, S_RAY, S_SPHERE, S_THREADS, S_OP_COUNT };
const char* const kSceneOpA[S_OP_COUNT] = {"build", "point", "sphere", "threads-point"};

std::string row_name(int world, SceneOp op) { return std::string(kSceneOpA[op]) + "-scene-" + kWorldNames[world]; }

bool kept(const Options& o, int world, SceneOp op)
{
    if (op == S_THREADS && kWorldObjects[world] != WL_WORLD_OBJECTS) {
        return false;
    }
    return !o.filter || row_name(world, op).find(o.filter) != std::string::npos;
}

// ---- sweep ----------------------------------------------------------------

struct SweepWorld {
    const wl_world& w;
    const std::vector<wl_query>& qs;
    sw_scene* scene = nullptr;
    std::vector<sw_shape> shapes;
    std::vector<std::array<double, 6>> bounds; // each shape's box, lo then hi
    std::vector<sw_ray> rays;
    std::vector<sw_shape> spheres;
    std::vector<sw_vec3> d;
    double ns = 0; // the build: every shape added, one by one, then sw_scene_optimize

    SweepWorld(const wl_world& world, const std::vector<wl_query>& queries) : w(world), qs(queries)
    {
        for (int i = 0; i < w.count; ++i) {
            const wl_object& o = w.objects[i];
            const sw_quat q = {static_cast<sw_real>(o.rotation[0]), static_cast<sw_real>(o.rotation[1]),
                               static_cast<sw_real>(o.rotation[2]), static_cast<sw_real>(o.rotation[3])};
            shapes.push_back(o.type == WL_OBJECT_SPHERE ? sw_make_sphere(v3(o.center), static_cast<sw_real>(o.radius))
                             : o.type == WL_OBJECT_BOX
                                 ? sw_make_box(v3(o.center), v3(o.half), q)
                                 : sw_make_capsule(v3(o.a), v3(o.b), static_cast<sw_real>(o.radius)));
            const sw_aabb b = sw_shape_bounds(&shapes.back());
            bounds.push_back({static_cast<double>(b.min.x), static_cast<double>(b.min.y), static_cast<double>(b.min.z),
                              static_cast<double>(b.max.x), static_cast<double>(b.max.y),
                              static_cast<double>(b.max.z)});
        }
        for (const wl_query& q : qs) {
            rays.push_back(sw_ray{v3(q.origin), v3(q.d), 1});
            d.push_back(v3(q.d));
            spheres.push_back(sw_make_sphere(v3(q.origin), static_cast<sw_real>(WL_WORLD_SWEEP_RADIUS)));
        }
        const double t0 = now_ns();
        scene = sw_scene_create();
        for (int i = 0; scene && i < w.count; ++i) {
            const sw_scene_error e = sw_scene_add(scene, i, &shapes[static_cast<size_t>(i)], 1, ~uint64_t{0}, nullptr);
            if (e != SW_SCENE_OK) {
                std::fprintf(stderr, "sweep_peers: sw_scene_add: %s\n", sw_scene_error_string(e));
                std::exit(1);
            }
        }
        // As scene.h advises once a level is loaded; Bullet's broadphase is
        // optimized likewise.
        if (scene) {
            sw_scene_optimize(scene);
        }
        ns = now_ns() - t0;
        if (!scene) {
            std::fprintf(stderr, "sweep_peers: sw_scene_create failed\n");
            std::exit(1);
        }
    }
    ~SweepWorld() { sw_scene_destroy(scene); }
    SweepWorld(const SweepWorld&) = delete;
    SweepWorld& operator=(const SweepWorld&) = delete;

    Answer answer(SceneOp op, size_t i) const
    {
        sw_scene_hit h;
        const int n = op == S_RAY ? sw_scene_raycast(scene, &rays[i], SW_HITS_CLOSEST, nullptr, &h, 1)
                                  : sw_scene_sweep(scene, &spheres[i], d[i], nullptr, SW_HITS_CLOSEST, nullptr, &h, 1);
        if (n < 0) {
            std::fprintf(stderr, "sweep_peers: scene query %zu refused\n", i);
            std::exit(1);
        }
        return n > 0 ? Answer{true, static_cast<double>(h.hit.t), static_cast<int>(h.key)} : Answer{};
    }

    // The first hit over every shape one by one, through the pair queries
    // (sw_raycast, sw_sweep), the lower key first on equal t: what the
    // scene must answer, bit for bit. A shape whose box, grown by the
    // sphere's radius, the path misses is skipped (a slab test in double,
    // with a margin).
    Answer brute(SceneOp op, size_t i) const
    {
        const double reach = (op == S_RAY ? 0 : WL_WORLD_SWEEP_RADIUS) + 1e-6 * w.side;
        const double o[3] = {qs[i].origin[0], qs[i].origin[1], qs[i].origin[2]};
        const double dd[3] = {qs[i].d[0], qs[i].d[1], qs[i].d[2]};
        Answer best;
        for (size_t k = 0; k < shapes.size(); ++k) {
            double t0 = 0, t1 = 1;
            for (int a = 0; a < 3 && t0 <= t1; ++a) {
                const double lo = bounds[k][a] - reach - o[a], hi = bounds[k][3 + a] + reach - o[a];
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
            const sw_hit h =
                op == S_RAY ? sw_raycast(&rays[i], &shapes[k]) : sw_sweep(&spheres[i], d[i], &shapes[k], nullptr);
            if (h.status == SW_OK && h.hit && (!best.hit || static_cast<double>(h.t) < best.t)) {
                best = Answer{true, static_cast<double>(h.t), static_cast<int>(k)};
            }
        }
        return best;
    }

    // Distance from the query's point (or sphere) at t to the nearest shape
    // of the scene, and that shape's key.
    double gap(SceneOp op, size_t i, double t, int* key) const
    {
        const sw_vec3 at = sw_madd(rays[i].origin, static_cast<sw_real>(t), d[i]);
        const sw_shape a =
            op == S_RAY ? sw_make_point(at) : sw_make_sphere(at, static_cast<sw_real>(WL_WORLD_SWEEP_RADIUS));
        sw_scene_distance r;
        if (sw_scene_closest(scene, &a, -1, nullptr, &r) != 1) {
            *key = -1;
            return NAN;
        }
        *key = static_cast<int>(r.key);
        return static_cast<double>(r.distance.distance);
    }

    // The contract's scale of query i: its largest coordinate or
    // displacement component (the shapes near it are smaller).
    double scale(size_t i) const
    {
        double s = 0;
        for (int k = 0; k < 3; ++k) {
            s = std::max(
                {s, std::fabs(static_cast<double>(qs[i].origin[k])), std::fabs(static_cast<double>(qs[i].d[k]))});
        }
        return s;
    }
};

const char* type_name(wl_object_type t)
{
    return t == WL_OBJECT_SPHERE ? "sphere" : (t == WL_OBJECT_BOX ? "box" : "capsule");
}

// ---- one workload ---------------------------------------------------------

struct Peers {
    const EmbreeWorld* embree = nullptr; // rays: the world; sweeps: the grown world
    const BulletWorld* bullet = nullptr;
};

// Whether the evidence says sweep is wrong where it and a peer differ:
// sweep's hit touches nothing (farther than 4x the contract's tolerance
// at the query's scale from every shape, by sw_scene_closest), or the
// peer's hit comes earlier (or where sweep misses) and there the query
// touches a shape within a tenth of that tolerance (Bullet stops a few
// 1e-5 of the scale short of the surface: that is not a touch), unless
// Embree, whose callbacks are exact, agrees with sweep (a graze within
// the tolerance, which the contract lets either way).
bool suspect(const SweepWorld& sw, SceneOp op, size_t i, const Answer& s, const Answer& p, const Answer* exact)
{
    const double tol = static_cast<double>(SW_TOLERANCE) * sw.scale(i);
    int key;
    if (s.hit && !(sw.gap(op, i, s.t, &key) <= 4 * tol)) {
        return true;
    }
    if (exact && !differs(s, *exact)) {
        return false;
    }
    return p.hit && (!s.hit || p.t < s.t - kTolerance) && sw.gap(op, i, p.t, &key) <= 0.1 * tol;
}

void show(const Options& o, const SweepWorld& sw, SceneOp op, const char* peer, const std::vector<Answer>& s,
          const std::vector<Answer>& p, const std::vector<char>& sus)
{
    int shown = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < s.size() && shown < o.show; ++i) {
            if (!differs(s[i], p[i]) || sus[i] != (pass == 0)) {
                continue;
            }
            ++shown;
            const wl_query& q = sw.qs[i];
            std::printf("    %s #%zu%s: origin (%.9g, %.9g, %.9g) d (%.9g, %.9g, %.9g)\n", peer, i,
                        sus[i] ? " SUSPECT" : "", q.origin[0], q.origin[1], q.origin[2], q.d[0], q.d[1], q.d[2]);
            std::printf("      sweep %s | %s %s\n", answer_text(s[i], "key").c_str(), peer,
                        answer_text(p[i], "key").c_str());
            for (int side = 0; side < 2; ++side) {
                const Answer& a = side ? p[i] : s[i];
                if (!a.hit) {
                    continue;
                }
                int key;
                const double g = sw.gap(op, i, a.t, &key);
                std::printf("      at %s's t: nearest shape %d (%s), distance %.3g%s\n", side ? peer : "sweep", key,
                            key >= 0 ? type_name(sw.w.objects[key].type) : "-", g,
                            a.triangle >= 0 && a.triangle < sw.w.count
                                ? (std::string("; hit ") + type_name(sw.w.objects[a.triangle].type)).c_str()
                                : "");
            }
        }
    }
}

void print_header()
{
    std::printf("%-22s %7s %9s %9s %9s %8s %8s %5s  %-22s %-22s %4s %4s %7s\n", "workload", "objects", "sweep ns",
                "embree ns", "bullet ns", "sw/emb", "sw/bul", "hits", "vs embree: h/m dt", "vs bullet: h/m dt", "both",
                "self", "suspect");
}

void run_queries(const Options& o, int world, SceneOp op, const SweepWorld& sw, const Peers& peers)
{
    const size_t n = sw.qs.size();
    std::vector<Answer> s, e, b;
    const double sweep_ns = answer_and_time(o, n, s, [&](size_t i) { return sw.answer(op, i); });
    double embree_ns = 0, bullet_ns = 0;
    Disagreement de, db;
    if (peers.embree && peers.embree->available()) {
        embree_ns = answer_and_time(o, n, e, [&](size_t i) { return peers.embree->cast(sw.qs[i]); });
        de = compare(s, e);
    }
    if (peers.bullet && peers.bullet->available()) {
        bullet_ns = answer_and_time(o, n, b, [&](size_t i) {
            return op == S_RAY ? peers.bullet->ray(sw.qs[i]) : peers.bullet->sweep(sw.qs[i]);
        });
        db = compare(s, b);
    }
    int both = 0, self = 0, hits = 0, suspects = 0;
    const bool two = !e.empty() && !b.empty();
    std::vector<char> sus_e(n, 0), sus_b(n, 0);
    for (size_t i = 0; i < n; ++i) {
        both += two && differs(s[i], e[i]) && differs(s[i], b[i]) && !differs(e[i], b[i]);
        if (o.self_check) {
            const Answer x = sw.brute(op, i);
            self += x.hit != s[i].hit || (x.hit && (x.t != s[i].t || x.triangle != s[i].triangle));
        }
        sus_e[i] = !e.empty() && differs(s[i], e[i]) && suspect(sw, op, i, s[i], e[i], nullptr);
        sus_b[i] = !b.empty() && differs(s[i], b[i]) && suspect(sw, op, i, s[i], b[i], e.empty() ? nullptr : &e[i]);
        hits += s[i].hit;
        suspects += sus_e[i] || sus_b[i];
    }
    char rate[16];
    std::snprintf(rate, sizeof rate, "%.2f", hits / static_cast<double>(n));
    std::printf("%-22s %7d %9s %9s %9s %8s %8s %5s  %-22s %-22s %4s %4s %7d\n", row_name(world, op).c_str(), sw.w.count,
                number("%.1f", sweep_ns).c_str(), number("%.1f", embree_ns).c_str(), number("%.1f", bullet_ns).c_str(),
                number("%.3gx", embree_ns > 0 ? sweep_ns / embree_ns : 0).c_str(),
                number("%.3gx", bullet_ns > 0 ? sweep_ns / bullet_ns : 0).c_str(), rate,
                disagreement_text(e.empty() ? nullptr : &de).c_str(),
                disagreement_text(b.empty() ? nullptr : &db).c_str(), two ? std::to_string(both).c_str() : "-",
                o.self_check ? std::to_string(self).c_str() : "-", suspects);
    if (!e.empty()) {
        show(o, sw, op, "embree", s, e, sus_e);
    }
    if (!b.empty()) {
        show(o, sw, op, "bullet", s, b, sus_b);
    }
    std::fflush(stdout);
}

// ---- threads --------------------------------------------------------------

struct PassTime {
    double ns;    // per ray
    double cores; // the process's CPU time over the wall time
};

// ns per ray of `pass` (which casts every ray once), median over the runs,
// each run repeating it to last about 5 ms; and how many cores were busy
// meanwhile (2 when both threads of a two-thread pass had one throughout).
template <class F> PassTime time_passes(const Options& o, size_t n, F pass)
{
    double t0 = now_ns();
    pass();
    const double once = now_ns() - t0;
    const int reps = once > 5e6 ? 1 : std::min(40, static_cast<int>(5e6 / std::max(once, 1.0)) + 1);
    std::vector<double> ns, cores;
    for (int k = 0; k < o.runs; ++k) {
        const std::clock_t c0 = std::clock();
        t0 = now_ns();
        for (int r = 0; r < reps; ++r) {
            pass();
        }
        const double wall = now_ns() - t0;
        cores.push_back(static_cast<double>(std::clock() - c0) * (1e9 / CLOCKS_PER_SEC) / wall);
        ns.push_back(wall / (static_cast<double>(reps) * static_cast<double>(n)));
    }
    return PassTime{median(ns), median(cores)};
}

// W8's rays over one and two threads: sweep's sw_scene_raycast_batch, and
// Embree's rtcIntersect1 from the calling thread alone, or from it and a
// std::thread started for each pass, each casting half of the rays (as
// the batch does: it starts one thread and answers the first half
// itself).
void run_threads(const Options& o, int world, const SweepWorld& sw, const EmbreeWorld* embree)
{
    const size_t n = sw.qs.size();
    std::vector<sw_scene_hit> out(n);
    PassTime sweep_ns[2], embree_ns[2] = {{0, 0}, {0, 0}};
    for (int k = 0; k < 2; ++k) {
        sweep_ns[k] = time_passes(o, n, [&] {
            sw_scene_raycast_batch(sw.scene, sw.rays.data(), static_cast<int>(n), SW_HITS_CLOSEST, nullptr, out.data(),
                                   nullptr, k + 1);
        });
    }
    if (embree && embree->available()) {
        std::vector<double> ts(n);
        auto part = [&](size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i) {
                ts[i] = embree->cast(sw.qs[i]).t;
            }
        };
        embree_ns[0] = time_passes(o, n, [&] { part(0, n); });
        embree_ns[1] = time_passes(o, n, [&] {
            std::thread other(part, n / 2, n);
            part(0, n / 2);
            other.join();
        });
    }
    const double se = sweep_ns[0].ns / sweep_ns[1].ns;
    const double ee = embree_ns[1].ns > 0 ? embree_ns[0].ns / embree_ns[1].ns : 0;
    std::printf("%-22s %7d  ns per ray over 1 and 2 threads: sweep (sw_scene_raycast_batch) %.1f, %.1f (%.2fx, %.2f "
                "cores busy); embree (rtcIntersect1, std::thread) %s, %s (%s, %s cores busy); sw/emb %s, %s\n",
                row_name(world, S_THREADS).c_str(), sw.w.count, sweep_ns[0].ns, sweep_ns[1].ns, se, sweep_ns[1].cores,
                number("%.1f", embree_ns[0].ns).c_str(), number("%.1f", embree_ns[1].ns).c_str(),
                number("%.2fx", ee).c_str(), number("%.2f", embree_ns[1].cores).c_str(),
                number("%.3gx", embree_ns[0].ns > 0 ? sweep_ns[0].ns / embree_ns[0].ns : 0).c_str(),
                number("%.3gx", embree_ns[1].ns > 0 ? sweep_ns[1].ns / embree_ns[1].ns : 0).c_str());
    std::fflush(stdout);
}

void run_world(const Options& o, int world)
{
    wl_world w;
    if (wl_make_world(kWorldObjects[world], &w) != 0) {
        std::printf("%-22s skipped: out of memory\n", row_name(world, S_BUILD).c_str());
        return;
    }
    std::vector<wl_query> qs(static_cast<size_t>(o.queries));
    wl_make_world_queries(&w, o.queries, qs.data());
    {
        const SweepWorld sw(w, qs);
        const bool rays = kept(o, world, S_RAY) || kept(o, world, S_THREADS);
        const bool sweeps = kept(o, world, S_SPHERE);
        std::unique_ptr<EmbreeWorld> embree_rays, embree_grown;
        std::unique_ptr<BulletWorld> bullet(new BulletWorld(w));
        if (rays || kept(o, world, S_BUILD)) {
            embree_rays.reset(new EmbreeWorld(w, 0));
        }
        if (sweeps) {
            embree_grown.reset(new EmbreeWorld(w, WL_WORLD_SWEEP_RADIUS));
        }
        if (kept(o, world, S_BUILD)) {
            std::printf("%-22s %7d  build ms (one build): sweep %.2f (sw_scene_add one by one, sw_scene_optimize), "
                        "embree %s, bullet %s\n",
                        row_name(world, S_BUILD).c_str(), w.count, sw.ns * 1e-6,
                        number("%.2f", embree_rays->build_ns() * 1e-6).c_str(),
                        number("%.2f", bullet->build_ns() * 1e-6).c_str());
        }
        if (kept(o, world, S_RAY)) {
            run_queries(o, world, S_RAY, sw, Peers{embree_rays.get(), bullet.get()});
        }
        if (sweeps) {
            run_queries(o, world, S_SPHERE, sw, Peers{embree_grown.get(), bullet.get()});
        }
        if (kept(o, world, S_THREADS)) {
            run_threads(o, world, sw, embree_rays.get());
        }
    }
    wl_world_free(&w);
}

} // namespace

bool scene_rows_kept(const Options& o)
{
    for (int world = 0; world < kWorlds; ++world) {
        for (int op = 0; op < S_OP_COUNT; ++op) {
            if (kept(o, world, static_cast<SceneOp>(op))) {
                return true;
            }
        }
    }
    return false;
}

void run_scene(const Options& o)
{
    if (!scene_rows_kept(o)) {
        return;
    }
    std::printf(
        "\nscene rows (W8): spheres, boxes and capsules (sizes %g-%g, boxes randomly rotated, capsules on random "
        "axes), %d in a cube of side %g, other worlds at the same density; rays and spheres (r %g) from the "
        "sphere of radius the side toward the cube, |d| = 2 sides, closest hit\n",
        WL_WORLD_SIZE_MIN, WL_WORLD_SIZE_MAX, WL_WORLD_OBJECTS, WL_WORLD_SIDE, WL_WORLD_SWEEP_RADIUS);
    std::printf("%s\n%s\n\n", EmbreeWorld::describe().c_str(), BulletWorld::describe().c_str());
    // Embree's first scene pays a one-time start (about 10 ms here): paid
    // before the first timed build.
    wl_world warm;
    if (wl_make_world(100, &warm) == 0) {
        const EmbreeWorld e(warm, 0);
        wl_world_free(&warm);
    }
    print_header();
    for (int world = 0; world < kWorlds; ++world) {
        bool any = false;
        for (int op = 0; op < S_OP_COUNT; ++op) {
            any = any || kept(o, world, static_cast<SceneOp>(op));
        }
        if (any) {
            run_world(o, world);
        }
    }
}

} // namespace peers
