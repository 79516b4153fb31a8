// sweep_peers: the pair rows (see peers_pairs.h): workloads W1-W5, one
// moving shape against one static shape per query, through sweep's
// sw_sweep (the reference: exact up to its contract), sweep's
// sw_sweep_batch over all of them in one call, Bullet 3's three
// convex casts and FCL's conservative advancement: ns per query, each
// peer's time as a multiple of sweep's, and how their answers differ from
// sweep's. Hand-made cases with known answers check first that every
// method reads the inputs alike and reports t as a fraction of d.
#include <cstring>

#include "peers_pairs.h"

namespace peers
{

namespace
{

std::string row_name(int id) { return std::string("pairs-") + wl_pair_name(static_cast<wl_pair_id>(id)); }

bool kept(const Options& o, int id) { return !o.filter || row_name(id).find(o.filter) != std::string::npos; }

// The contract's tolerance at the workloads' scale (coordinates up to
// about the cube's side).
constexpr double kScale = WL_PAIR_CUBE;
// sweep's hit farther than this from B (by its distance query) touches
// nothing: 4x the tolerance.
constexpr double kTouch = 4 * static_cast<double>(SW_TOLERANCE) * kScale;
// A peer's earlier hit with A this close to B (a tenth of the tolerance)
// is a contact that sweep missed.
constexpr double kGraze = 0.1 * static_cast<double>(SW_TOLERANCE) * kScale;

sw_vec3 vec(const float* p) { return v3(p); }

// ---- sweep ----------------------------------------------------------------

class SweepPairs : public PairMethod
{
  public:
    // Builds the shapes, and W5's hulls (for the peers too, into in).
    explicit SweepPairs(PairInput& in)
    {
        const bool hulls = in.id == WL_PAIR_HULL_HULL;
        for (const wl_pair_query& q : in.queries) {
            a_.push_back(make(q.a, hulls ? &in.hull_a : nullptr));
            b_.push_back(make(q.b, hulls ? &in.hull_b : nullptr));
            d_.push_back(vec(q.d));
        }
    }
    ~SweepPairs() override
    {
        for (sw_hull* h : hulls_) {
            sw_hull_destroy(h);
        }
    }
    SweepPairs(const SweepPairs&) = delete;
    SweepPairs& operator=(const SweepPairs&) = delete;

    sw_hit hit(size_t i) const { return sw_sweep(&a_[i], d_[i], &b_[i], nullptr); }

    // Every query in one sw_sweep_batch call, into out.
    void batch(std::vector<sw_hit>& out) const
    {
        out.resize(a_.size());
        if (sw_sweep_batch(a_.data(), d_.data(), b_.data(), static_cast<int>(a_.size()), nullptr, out.data()) != 0) {
            std::fprintf(stderr, "sweep_peers: sw_sweep_batch failed\n");
            std::exit(1);
        }
    }

    Answer answer(size_t i) const override
    {
        const sw_hit h = hit(i);
        return h.hit ? Answer{true, static_cast<double>(h.t), -1} : Answer{};
    }

    // The distance from A moved to t to B, by the library's distance
    // query: about 0 at a first contact.
    double gap(size_t i, double t) const
    {
        sw_shape a = a_[i];
        const sw_vec3 off = sw_scale(d_[i], static_cast<sw_real>(t));
        switch (a.type) {
        case SW_SHAPE_SPHERE:
            a.sphere.center = sw_add(a.sphere.center, off);
            break;
        case SW_SHAPE_CAPSULE:
            a.capsule.a = sw_add(a.capsule.a, off);
            a.capsule.b = sw_add(a.capsule.b, off);
            break;
        case SW_SHAPE_BOX:
            a.box.center = sw_add(a.box.center, off);
            break;
        case SW_SHAPE_HULL:
            a.hull.position = sw_add(a.hull.position, off);
            break;
        default:
            return NAN;
        }
        const sw_distance_result r = sw_distance(&a, &b_[i]);
        return r.status == SW_OK ? static_cast<double>(r.distance) : NAN;
    }

    int hull_vertices() const
    {
        int n = 0;
        for (const sw_hull* h : hulls_) {
            n += h->vertex_count;
        }
        return n;
    }
    size_t hull_count() const { return hulls_.size(); }

  private:
    std::vector<sw_shape> a_, b_;
    std::vector<sw_vec3> d_;
    std::vector<sw_hull*> hulls_;

    sw_shape make(const wl_pair_shape& s, std::vector<PairHull>* hull_out)
    {
        switch (s.type) {
        case WL_PAIR_SHAPE_SPHERE:
            return sw_make_sphere(vec(s.center), static_cast<sw_real>(s.radius));
        case WL_PAIR_SHAPE_CAPSULE:
            return sw_make_capsule(vec(s.a), vec(s.b), static_cast<sw_real>(s.radius));
        case WL_PAIR_SHAPE_TRIANGLE:
            return sw_make_triangle(vec(s.v[0]), vec(s.v[1]), vec(s.v[2]), false);
        case WL_PAIR_SHAPE_BOX: {
            const sw_quat q = {static_cast<sw_real>(s.rotation[0]), static_cast<sw_real>(s.rotation[1]),
                               static_cast<sw_real>(s.rotation[2]), static_cast<sw_real>(s.rotation[3])};
            return sw_make_box(vec(s.center), vec(s.half), q);
        }
        case WL_PAIR_SHAPE_HULL:
        default: {
            std::vector<sw_vec3> p;
            for (int k = 0; k < WL_PAIR_HULL_POINTS; ++k) {
                p.push_back(vec(s.points[k]));
            }
            sw_hull_error error = SW_HULL_OK;
            sw_hull* h = sw_hull_create(p.data(), WL_PAIR_HULL_POINTS, &error);
            if (!h) {
                std::fprintf(stderr, "sweep_peers: sw_hull_create: %s\n", sw_hull_error_string(error));
                std::exit(1);
            }
            hulls_.push_back(h);
            if (hull_out) {
                // The peers' hull: the same vertices (input points, exactly)
                // and faces.
                PairHull ph;
                for (int k = 0; k < h->vertex_count; ++k) {
                    ph.vertices.push_back(static_cast<float>(h->vertices[k].x));
                    ph.vertices.push_back(static_cast<float>(h->vertices[k].y));
                    ph.vertices.push_back(static_cast<float>(h->vertices[k].z));
                }
                for (int f = 0; f < h->face_count; ++f) {
                    ph.faces.push_back(h->faces[f].count);
                    for (int k = 0; k < h->faces[f].count; ++k) {
                        ph.faces.push_back(h->face_vertices[h->faces[f].first + k]);
                    }
                }
                ph.face_count = h->face_count;
                hull_out->push_back(std::move(ph));
            }
            return sw_make_hull(h, vec(s.center), sw_quat_identity());
        }
        }
    }
};

// ---- hand-made cases ------------------------------------------------------

// A shape of the workloads' kinds, filled by hand.
wl_pair_shape shape(wl_pair_shape_type type, float x, float y, float z)
{
    wl_pair_shape s;
    std::memset(&s, 0, sizeof s);
    s.type = type;
    s.center[0] = x;
    s.center[1] = y;
    s.center[2] = z;
    s.rotation[3] = 1;
    return s;
}

wl_pair_shape sphere(float x, float r)
{
    wl_pair_shape s = shape(WL_PAIR_SHAPE_SPHERE, x, 0, 0);
    s.radius = r;
    return s;
}

// A capsule centred at (x, 0, 0) along axis `axis` (0, 1, 2).
wl_pair_shape capsule(float x, int axis, float half, float r)
{
    wl_pair_shape s = shape(WL_PAIR_SHAPE_CAPSULE, x, 0, 0);
    s.radius = r;
    std::memcpy(s.a, s.center, sizeof s.a);
    std::memcpy(s.b, s.center, sizeof s.b);
    s.a[axis] -= half;
    s.b[axis] += half;
    return s;
}

// A box of half extents h at (x, 0, 0), turned by `deg` degrees about z.
wl_pair_shape box(float x, float h, double deg)
{
    wl_pair_shape s = shape(WL_PAIR_SHAPE_BOX, x, 0, 0);
    s.half[0] = s.half[1] = s.half[2] = h;
    const double a = deg * 3.14159265358979323846 / 360;
    s.rotation[2] = static_cast<float>(std::sin(a));
    s.rotation[3] = static_cast<float>(std::cos(a));
    return s;
}

// The hull of the cube [-h, h]^3 (its 8 corners, and 24 points inside).
wl_pair_shape cube_hull(float x, float h)
{
    wl_pair_shape s = shape(WL_PAIR_SHAPE_HULL, x, 0, 0);
    for (int k = 0; k < WL_PAIR_HULL_POINTS; ++k) {
        for (int c = 0; c < 3; ++c) {
            s.points[k][c] = k < 8 ? ((k >> c) & 1 ? h : -h) : h * 0.1f * static_cast<float>((k + c) % 7 - 3);
        }
    }
    return s;
}

wl_pair_shape triangle_at(float x)
{
    wl_pair_shape s = shape(WL_PAIR_SHAPE_TRIANGLE, x, 0, 0);
    const float v[3][3] = {{x, -1, -1}, {x, 1, -1}, {x, 0, 1}};
    std::memcpy(s.v, v, sizeof v);
    return s;
}

struct Case {
    const char* what;
    double t; // the exact answer
    wl_pair_query q;
};

// Cases whose first contact is known: A from the origin along (10, 0, 0)
// (head-on) or (10, 2, 0) against B at (5, 0, 0).
std::vector<Case> cases(wl_pair_id id)
{
    auto q = [](wl_pair_shape a, wl_pair_shape b, float dy = 0) {
        wl_pair_query r;
        r.a = a;
        r.b = b;
        r.d[0] = 10;
        r.d[1] = dy;
        r.d[2] = 0;
        return r;
    };
    switch (id) {
    case WL_PAIR_SPHERE_SPHERE:
        return {{"sphere r 0.5 -> sphere r 1", 0.35, q(sphere(0, 0.5f), sphere(5, 1))}};
    case WL_PAIR_CAPSULE_CAPSULE:
        // A along y (its half-length does not count), B along z, then along
        // x (its half-length counts); then A along y moving up by 2 as well
        // (its end passes y = 0 at t 0.25: (5 - 10t)^2 + (2t - 0.5)^2 = 1.5^2).
        return {{"capsule y r 0.5 -> capsule z r 1", 0.35, q(capsule(0, 1, 0.5f, 0.5f), capsule(5, 2, 1, 1))},
                {"capsule y r 0.5 -> capsule x h 1 r 0.5", 0.3, q(capsule(0, 1, 0.5f, 0.5f), capsule(5, 0, 1, 0.5f))},
                {"capsule y r 0.5 along (10, 2, 0) -> capsule z r 1", (102 - std::sqrt(836.0)) / 208,
                 q(capsule(0, 1, 0.5f, 0.5f), capsule(5, 2, 1, 1), 2)}};
    case WL_PAIR_SPHERE_TRIANGLE:
        return {{"sphere r 0.5 -> triangle in x = 5", 0.45, q(sphere(0, 0.5f), triangle_at(5))}};
    case WL_PAIR_BOX_BOX:
        return {{"box h 0.5 -> box h 1", 0.35, q(box(0, 0.5f, 0), box(5, 1, 0))},
                {"box h 0.5 -> box h 1 turned 45 deg about z", (4.5 - std::sqrt(2.0)) / 10,
                 q(box(0, 0.5f, 0), box(5, 1, 45))}};
    case WL_PAIR_HULL_HULL:
    default:
        return {{"cube hull h 0.5 -> cube hull h 1", 0.35, q(cube_hull(0, 0.5f), cube_hull(5, 1))}};
    }
}

// Every method on the hand-made cases: t, or "miss"; a method more than
// 1e-3 off the known answer is marked '!'.
void check_conventions(wl_pair_id id)
{
    const std::vector<Case> cs = cases(id);
    PairInput in{id, {}, {}, {}};
    for (const Case& c : cs) {
        in.queries.push_back(c.q);
    }
    const SweepPairs sweep(in);
    const std::vector<PeerMethod> bullet = bullet_pair_methods(in), fcl = fcl_pair_methods(in);
    for (size_t i = 0; i < cs.size(); ++i) {
        std::string line = "  check " + std::string(cs[i].what) + ": exact " + number("%.6f", cs[i].t, true);
        auto add = [&](const std::string& name, const Answer& a) {
            line += ", " + name + " " + (a.hit ? number("%.6f", a.t, true) : std::string("miss"));
            if (!a.hit || std::fabs(a.t - cs[i].t) > 1e-3) {
                line += " !";
            }
        };
        add("sweep", sweep.answer(i));
        for (const auto* peer : {&bullet, &fcl}) {
            for (const PeerMethod& m : *peer) {
                if (m.method) {
                    add(m.name, m.method->answer(i));
                }
            }
        }
        std::printf("%s\n", line.c_str());
    }
}

// ---- the rows -------------------------------------------------------------

struct Stats {
    int hits = 0;
    int hit_miss = 0, hit_miss_start = 0; // one hits, the other misses; of which sweep starts in contact
    int dt = 0;                           // both hit, |dt| > kTolerance
    double worst_dt = 0;
    double median_dt = 0; // of t_peer - t_sweep, where both hit
    int suspect = 0;
};

Stats compare_pairs(const SweepPairs& sweep, const std::vector<Answer>& s, const std::vector<Answer>& p,
                    std::vector<char>& sus)
{
    Stats st;
    std::vector<double> dts;
    sus.assign(s.size(), 0);
    for (size_t i = 0; i < s.size(); ++i) {
        st.hits += p[i].hit;
        if (s[i].hit != p[i].hit) {
            ++st.hit_miss;
            st.hit_miss_start += s[i].hit && s[i].t == 0;
        } else if (s[i].hit) {
            const double dt = p[i].t - s[i].t;
            dts.push_back(dt);
            st.worst_dt = std::max(st.worst_dt, std::fabs(dt));
            st.dt += std::fabs(dt) > kTolerance;
        }
        if (differs(s[i], p[i])) {
            // sweep's hit touches nothing, or the peer's earlier hit (or
            // its hit where sweep misses) is a contact by sweep's own
            // distance query.
            const bool far = s[i].hit && sweep.gap(i, s[i].t) > kTouch;
            const bool earlier =
                p[i].hit && (!s[i].hit || p[i].t < s[i].t - kTolerance) && sweep.gap(i, p[i].t) <= kGraze;
            sus[i] = far || earlier;
            st.suspect += sus[i];
        }
    }
    if (!dts.empty()) {
        st.median_dt = median(dts);
    }
    return st;
}

void show(const Options& o, const SweepPairs& sweep, const PairInput& in, const char* name,
          const std::vector<Answer>& s, const std::vector<Answer>& p, const std::vector<char>& sus)
{
    int shown = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < s.size() && shown < o.show; ++i) {
            if (!differs(s[i], p[i]) || sus[i] != (pass == 0)) {
                continue;
            }
            ++shown;
            const wl_pair_query& q = in.queries[i];
            std::printf(
                "    %s #%zu%s: |d| %.4g: sweep %s (gap %s) | %s %s (gap %s)\n", name, i, sus[i] ? " SUSPECT" : "",
                std::sqrt(static_cast<double>(q.d[0]) * q.d[0] + static_cast<double>(q.d[1]) * q.d[1] +
                          static_cast<double>(q.d[2]) * q.d[2]),
                answer_text(s[i]).c_str(), s[i].hit ? number("%.3g", sweep.gap(i, s[i].t), true).c_str() : "-", name,
                answer_text(p[i]).c_str(), p[i].hit ? number("%.3g", sweep.gap(i, p[i].t), true).c_str() : "-");
        }
    }
}

void print_header()
{
    std::printf("%-22s %-18s %9s %8s %6s %11s %5s %9s %10s %7s\n", "workload", "method", "ns", "x sweep", "hits",
                "h/m (start)", "dt", "max |dt|", "median dt", "suspect");
}

int hits_of(const std::vector<sw_hit>& h)
{
    int n = 0;
    for (const sw_hit& x : h) {
        n += x.hit;
    }
    return n;
}

void run_workload(const Options& o, wl_pair_id id)
{
    PairInput in{id, std::vector<wl_pair_query>(static_cast<size_t>(o.queries)), {}, {}};
    wl_make_pair_queries(id, o.queries, in.queries.data());
    const SweepPairs sweep(in);
    std::vector<Answer> s;
    const double sweep_ns = answer_and_time(o, in.queries.size(), s, [&](size_t i) { return sweep.answer(i); });
    int hits = 0, start = 0;
    double worst_gap = 0; // the largest distance from A to B at sweep's t over its hits
    for (size_t i = 0; i < s.size(); ++i) {
        hits += s[i].hit;
        start += s[i].hit && s[i].t == 0;
        if (s[i].hit) {
            worst_gap = std::max(worst_gap, sweep.gap(i, s[i].t));
        }
    }
    const double n = static_cast<double>(s.size());
    char extra[96] = "";
    if (sweep.hull_count() > 0) {
        std::snprintf(extra, sizeof extra, "; hulls of %.1f vertices on average",
                      sweep.hull_vertices() / static_cast<double>(sweep.hull_count()));
    }
    std::printf("%-22s %-18s %9.1f %8s %6.3f %11s %5s %9s %10s %7s   (%d start in contact; A within %.1e of B at "
                "every hit's t%s)\n",
                row_name(id).c_str(), "sweep", sweep_ns, "1", hits / n, "-", "-", "-", "-", "-", start, worst_gap,
                extra);
    // sw_sweep_batch over the same inputs, timed as the passes above (one
    // call a pass); its answers must be sweep's.
    std::vector<sw_hit> bhits;
    sweep.batch(bhits);
    int batch_differs = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const Answer a = bhits[i].hit ? Answer{true, static_cast<double>(bhits[i].t), -1} : Answer{};
        batch_differs += a.hit != s[i].hit || a.t != s[i].t;
    }
    std::vector<double> batch_ns;
    const double once_t0 = now_ns();
    sweep.batch(bhits);
    const double once = now_ns() - once_t0;
    const int reps = std::min(40, static_cast<int>(5e6 / std::max(once, 1.0)) + 1);
    for (int k = 0; k < o.runs; ++k) {
        const double t0 = now_ns();
        for (int r = 0; r < reps; ++r) {
            sweep.batch(bhits);
        }
        batch_ns.push_back((now_ns() - t0) / (static_cast<double>(reps) * n));
        sink = sink + static_cast<double>(bhits[0].t);
    }
    const double bns = median(batch_ns);
    std::printf("%-22s %-18s %9.1f %8s %6.3f %11s %5s %9s %10s %7s   (%d answers differ from sweep's)\n",
                row_name(id).c_str(), "sweep batch", bns, number("%.3gx", bns / sweep_ns).c_str(), hits_of(bhits) / n,
                "-", "-", "-", "-", "-", batch_differs);
    if (batch_differs > 0) {
        std::fprintf(stderr, "sweep_peers: sw_sweep_batch differs from sw_sweep on %d queries\n", batch_differs);
        std::exit(1);
    }
    std::vector<PeerMethod> methods = bullet_pair_methods(in);
    for (PeerMethod& m : fcl_pair_methods(in)) {
        methods.push_back(std::move(m));
    }
    for (const PeerMethod& m : methods) {
        if (!m.method) {
            std::printf("%-22s %-18s %s\n", row_name(id).c_str(), m.name.c_str(), m.note.c_str());
            continue;
        }
        std::vector<Answer> p;
        const double ns = answer_and_time(o, in.queries.size(), p, [&](size_t i) { return m.method->answer(i); });
        std::vector<char> sus;
        const Stats st = compare_pairs(sweep, s, p, sus);
        char hm[32];
        std::snprintf(hm, sizeof hm, "%d (%d)", st.hit_miss, st.hit_miss_start);
        std::printf("%-22s %-18s %9.1f %8s %6.3f %11s %5d %9s %10s %7d%s%s\n", row_name(id).c_str(), m.name.c_str(), ns,
                    number("%.3gx", ns / sweep_ns).c_str(), st.hits / n, hm, st.dt,
                    number("%.1e", st.worst_dt, true).c_str(), number("%+.1e", st.median_dt, true).c_str(), st.suspect,
                    m.note.empty() ? "" : "   ", m.note.c_str());
        show(o, sweep, in, m.name.c_str(), s, p, sus);
        std::fflush(stdout);
    }
}

} // namespace

bool pair_rows_kept(const Options& o)
{
    for (int id = 0; id < WL_PAIR_COUNT; ++id) {
        if (kept(o, id)) {
            return true;
        }
    }
    return false;
}

void run_pairs(const Options& o)
{
    if (!pair_rows_kept(o)) {
        return;
    }
    std::printf("\npair rows (W1-W5): A moving by d (|d| uniform in [0, %g], toward B with jitter) against a static "
                "B, both in a cube of side %g, sizes %g-%g\n",
                WL_PAIR_PATH_MAX, WL_PAIR_CUBE, WL_PAIR_SIZE_MIN, WL_PAIR_SIZE_MAX);
    std::printf("jitter:");
    for (int id = 0; id < WL_PAIR_COUNT; ++id) {
        std::printf(" %s %g", wl_pair_name(static_cast<wl_pair_id>(id)), wl_pair_jitter(static_cast<wl_pair_id>(id)));
    }
    std::printf("\nsweep: sw_sweep (the reference); sweep batch: sw_sweep_batch, every query in one call, its "
                "answers checked equal to sw_sweep's\n%s\n%s\n",
                bullet_pairs_describe().c_str(), fcl_pairs_describe().c_str());
    std::printf("'x sweep': the method's time over sweep's; 'h/m': one hits, the other misses (in brackets: of them, "
                "where sweep starts in contact); 'dt': both hit, |t - t_sweep| > 1e-4 of the path; 'median dt': "
                "t - t_sweep where both hit; 'suspect': the evidence says sweep is wrong\n\n");
    for (int id = 0; id < WL_PAIR_COUNT; ++id) {
        if (kept(o, id)) {
            check_conventions(static_cast<wl_pair_id>(id));
        }
    }
    std::printf("\n");
    print_header();
    for (int id = 0; id < WL_PAIR_COUNT; ++id) {
        if (kept(o, id)) {
            run_workload(o, static_cast<wl_pair_id>(id));
        }
    }
}

} // namespace peers
