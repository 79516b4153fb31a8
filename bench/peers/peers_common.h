// sweep_peers: what the mesh rows (peers.cpp) and the scene rows
// (peers_scene.cpp) share: options, answers, the clock, timing and the
// comparison of answers.
#ifndef SWEEP_PEERS_COMMON_H
#define SWEEP_PEERS_COMMON_H

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <sweep/sweep.h>

#include "workloads.h"

namespace peers
{

// |dt| beyond this (t is a fraction of the path) is a disagreement: 1e-4
// of the path length.
constexpr double kTolerance = 1e-4;

struct Options {
    int queries = WL_DEFAULT_QUERIES;
    int runs = 5;
    const char* filter = nullptr;
    const char* data_dir = nullptr;
    int show = 3;           // disagreements printed per workload and peer
    bool self_check = true; // scene rows: every answer against the brute force
};

struct Answer {
    bool hit = false;
    double t = 0;
    int triangle = -1; // the triangle hit, or the scene object's key; -1 when unknown
};

inline double now_ns()
{
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// x printed with `format`, or "-" when it was not measured (x <= 0)
// unless any value is wanted.
inline std::string number(const char* format, double x, bool any = false)
{
    char buf[32];
    if (!any && !(x > 0)) {
        return "-";
    }
    std::snprintf(buf, sizeof buf, format, x);
    return buf;
}

inline volatile double sink;

// Answers every query into `out` by `answer` (size_t -> Answer), a pass
// that also warms the caches, then returns the median over runs of the ns
// per query of further passes, each run repeating the pass to last about
// 5 ms. A pass of over a second (Bullet's sweeps on the 1M terrain) is
// timed once, by the answering pass, to keep the program's run short.
template <class F> double answer_and_time(const Options& o, size_t n, std::vector<Answer>& out, F answer)
{
    out.resize(n);
    double t0 = now_ns();
    for (size_t i = 0; i < n; ++i) {
        out[i] = answer(i);
    }
    const double once = now_ns() - t0;
    if (once > 1e9) {
        return once / static_cast<double>(n);
    }
    const int reps = once > 5e6 ? 1 : std::min(40, static_cast<int>(5e6 / std::max(once, 1.0)) + 1);
    std::vector<double> ns;
    for (int k = 0; k < o.runs; ++k) {
        double acc = 0;
        t0 = now_ns();
        for (int r = 0; r < reps; ++r) {
            for (size_t i = 0; i < n; ++i) {
                acc += answer(i).t;
            }
        }
        ns.push_back((now_ns() - t0) / (static_cast<double>(reps) * static_cast<double>(n)));
        sink = sink + acc;
    }
    return median(ns);
}

// Median build time in ms over `samples` builds; build() returns the time
// of one build (the peers' set-up outside it is not timed).
inline double time_builds(int samples, const std::function<double()>& build)
{
    std::vector<double> ms;
    for (int k = 0; k < samples; ++k) {
        ms.push_back(build() * 1e-6);
    }
    return median(ms);
}

inline sw_vec3 v3(const float* p)
{
    return sw_v3(static_cast<sw_real>(p[0]), static_cast<sw_real>(p[1]), static_cast<sw_real>(p[2]));
}

struct Disagreement {
    int hit_miss = 0; // one hits, the other does not
    int dt = 0;       // both hit, |dt| > kTolerance
    double worst_dt = 0;
};

inline bool differs(const Answer& a, const Answer& b)
{
    return a.hit != b.hit || (a.hit && std::fabs(a.t - b.t) > kTolerance);
}

inline Disagreement compare(const std::vector<Answer>& s, const std::vector<Answer>& p)
{
    Disagreement d;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i].hit != p[i].hit) {
            ++d.hit_miss;
        } else if (s[i].hit) {
            const double dt = std::fabs(s[i].t - p[i].t);
            d.worst_dt = std::max(d.worst_dt, dt);
            d.dt += dt > kTolerance;
        }
    }
    return d;
}

// what: "tri" for a mesh's triangle, "key" for a scene's object.
inline std::string answer_text(const Answer& a, const char* what = "tri")
{
    char buf[64];
    if (!a.hit) {
        return "miss";
    }
    if (a.triangle >= 0) {
        std::snprintf(buf, sizeof buf, "t %.7f %s %d", a.t, what, a.triangle);
    } else {
        std::snprintf(buf, sizeof buf, "t %.7f", a.t);
    }
    return buf;
}

inline std::string disagreement_text(const Disagreement* d)
{
    char buf[64];
    if (!d) {
        return "-";
    }
    std::snprintf(buf, sizeof buf, "%d %d (max %.1e)", d->hit_miss, d->dt, d->worst_dt);
    return buf;
}

} // namespace peers

#if SWEEP_PEERS_EMBREE
#include <embree3/rtcore.h>

// Embree's ray for query q: from its origin along d, t in units of d (as
// sweep's), nothing hit yet.
inline RTCRayHit embree_ray(const wl_query& q)
{
    RTCRayHit r{};
    r.ray.org_x = q.origin[0];
    r.ray.org_y = q.origin[1];
    r.ray.org_z = q.origin[2];
    r.ray.dir_x = q.d[0];
    r.ray.dir_y = q.d[1];
    r.ray.dir_z = q.d[2];
    r.ray.tnear = 0;
    r.ray.tfar = 1;
    r.ray.mask = ~0u;
    r.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    r.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    return r;
}
#endif

#endif
