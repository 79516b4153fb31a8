// sweep_peers: the scene workload's world in Embree 3 (see peers_scene.h).
//
// Embree has sphere and round-curve primitives, but no box, and computes
// them in float; the world is one user geometry instead, whose callbacks
// answer each object exactly (in double, from the float inputs every
// library reads), so that the answers differ from sweep's only by
// rounding and the time is Embree's tree and traversal around the same
// per-object work a caller would write. The sphere sweeps are rays against
// the objects grown by the sphere's radius (their Minkowski sums: a
// sphere or a capsule of radius r + 0.25, a box with rounded edges and
// corners), which is exact.
#include "peers_scene.h"

#if SWEEP_PEERS_EMBREE
#include <embree3/rtcore.h>
#endif

#include <cstdlib>
#include <limits>

namespace peers
{

#if SWEEP_PEERS_EMBREE

namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();

double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// The object, in double, grown by inflate.
struct Prim {
    wl_object_type type;
    double c[3];    // sphere, box: centre
    double r;       // sphere, capsule: radius (grown); box: the growth
    double rot[9];  // box: rows are its local axes in world space
    double half[3]; // box
    double a[3], b[3];
};

// Entry parameter of the ray o + t d, t >= 0, into the ball (c, r), or
// +inf; 0 when o is inside. The discriminant comes from the distance of
// the line to the centre, the root from the stable form.
double ray_ball(const double* o, const double* d, const double* c, double r)
{
    const double m[3] = {o[0] - c[0], o[1] - c[1], o[2] - c[2]};
    const double cc = dot(m, m) - r * r;
    if (cc <= 0) {
        return 0;
    }
    const double b = dot(m, d);
    if (b >= 0) {
        return kInf;
    }
    const double a = dot(d, d);
    const double tc = -b / a;
    const double p[3] = {m[0] + tc * d[0], m[1] + tc * d[1], m[2] + tc * d[2]};
    const double h = r * r - dot(p, p);
    if (h < 0) {
        return kInf;
    }
    return cc / (-b + std::sqrt(a * h));
}

// Entry into the box |x_k| <= h_k (local frame), or +inf; 0 from inside.
double ray_slabs(const double* o, const double* d, const double* h)
{
    double t0 = 0, t1 = kInf;
    for (int k = 0; k < 3; ++k) {
        if (d[k] == 0) {
            if (std::fabs(o[k]) > h[k]) {
                return kInf;
            }
            continue;
        }
        double ta = (-h[k] - o[k]) / d[k], tb = (h[k] - o[k]) / d[k];
        if (ta > tb) {
            std::swap(ta, tb);
        }
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (t0 > t1) {
            return kInf;
        }
    }
    return t0;
}

// Entry into the capsule of segment a-b and radius r: the earliest of
// its side (the infinite cylinder's entry, where it lies between the
// ends) and its two balls.
double ray_capsule(const double* o, const double* d, const double* a, const double* b, double r)
{
    double best = std::min(ray_ball(o, d, a, r), ray_ball(o, d, b, r));
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const double uu = dot(u, u);
    if (uu == 0) {
        return best;
    }
    // Components across the axis: m = o - a and d, less their parts along u.
    const double m0[3] = {o[0] - a[0], o[1] - a[1], o[2] - a[2]};
    const double mu = dot(m0, u) / uu, du = dot(d, u) / uu;
    const double m[3] = {m0[0] - mu * u[0], m0[1] - mu * u[1], m0[2] - mu * u[2]};
    const double e[3] = {d[0] - du * u[0], d[1] - du * u[1], d[2] - du * u[2]};
    const double ee = dot(e, e), me = dot(m, e), cc = dot(m, m) - r * r;
    if (cc <= 0 && mu >= 0 && mu <= 1) {
        return 0; // o inside
    }
    if (ee == 0 || me >= 0) {
        return best; // parallel to the axis, or moving away from it
    }
    // As for the ball, in the plane across the axis.
    const double tc = -me / ee;
    const double p[3] = {m[0] + tc * e[0], m[1] + tc * e[1], m[2] + tc * e[2]};
    const double h = r * r - dot(p, p);
    if (h < 0) {
        return best;
    }
    const double t = cc <= 0 ? 0 : cc / (-me + std::sqrt(ee * h));
    const double s = mu + t * du; // along the axis, 0 at a, 1 at b
    if (s >= 0 && s <= 1) {
        best = std::min(best, t);
    }
    return best;
}

// Entry into the box of half extents h grown by g (local frame): the
// union of the box grown by g along each axis alone and of the twelve
// capsules of radius g on its edges, so the earliest of their entries.
double ray_rounded_box(const double* o, const double* d, const double* h, double g)
{
    const double outer[3] = {h[0] + g, h[1] + g, h[2] + g};
    const double t_outer = ray_slabs(o, d, outer);
    if (t_outer == kInf || g == 0) {
        return t_outer;
    }
    // Where the grown box's entry lies on a face's flat part, that is the
    // answer: the rounded box lies inside the grown box.
    const double p[3] = {o[0] + t_outer * d[0], o[1] + t_outer * d[1], o[2] + t_outer * d[2]};
    int beyond = 0;
    for (int k = 0; k < 3; ++k) {
        beyond += std::fabs(p[k]) > h[k];
    }
    if (beyond <= 1) {
        return t_outer;
    }
    double best = kInf;
    for (int k = 0; k < 3; ++k) {
        double slab[3] = {h[0], h[1], h[2]};
        slab[k] += g;
        best = std::min(best, ray_slabs(o, d, slab));
    }
    for (int k = 0; k < 3; ++k) {
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        for (int j = 0; j < 4; ++j) {
            double a[3], b[3];
            a[k] = -h[k];
            b[k] = h[k];
            a[k1] = b[k1] = j & 1 ? h[k1] : -h[k1];
            a[k2] = b[k2] = j & 2 ? h[k2] : -h[k2];
            best = std::min(best, ray_capsule(o, d, a, b, g));
        }
    }
    return best;
}

double first_hit(const Prim& p, const double* o, const double* d)
{
    switch (p.type) {
    case WL_OBJECT_SPHERE:
        return ray_ball(o, d, p.c, p.r);
    case WL_OBJECT_CAPSULE:
        return ray_capsule(o, d, p.a, p.b, p.r);
    case WL_OBJECT_BOX:
    default: {
        const double m[3] = {o[0] - p.c[0], o[1] - p.c[1], o[2] - p.c[2]};
        const double lo[3] = {dot(p.rot, m), dot(p.rot + 3, m), dot(p.rot + 6, m)};
        const double ld[3] = {dot(p.rot, d), dot(p.rot + 3, d), dot(p.rot + 6, d)};
        return ray_rounded_box(lo, ld, p.half, p.r);
    }
    }
}

Prim make_prim(const wl_object& w, double inflate)
{
    Prim p{};
    p.type = w.type;
    for (int k = 0; k < 3; ++k) {
        p.c[k] = w.center[k];
        p.half[k] = w.half[k];
        p.a[k] = w.a[k];
        p.b[k] = w.b[k];
    }
    p.r = (w.type == WL_OBJECT_BOX ? 0.0 : static_cast<double>(w.radius)) + inflate;
    if (w.type == WL_OBJECT_BOX) {
        // The rotation matrix of the normalised quaternion; its rows are
        // the box's axes (local = R^T (x - c), with R's columns the axes).
        double q[4] = {w.rotation[0], w.rotation[1], w.rotation[2], w.rotation[3]};
        const double len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (double& x : q) {
            x /= len;
        }
        const double x = q[0], y = q[1], z = q[2], s = q[3];
        const double R[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - s * z), 2 * (x * z + s * y)},
                                {2 * (x * y + s * z), 1 - 2 * (x * x + z * z), 2 * (y * z - s * x)},
                                {2 * (x * z - s * y), 2 * (y * z + s * x), 1 - 2 * (x * x + y * y)}};
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                p.rot[3 * i + j] = R[j][i];
            }
        }
    }
    return p;
}

// Bounds in double, then rounded outward to float.
void prim_bounds(const Prim& p, double lo[3], double hi[3])
{
    for (int k = 0; k < 3; ++k) {
        switch (p.type) {
        case WL_OBJECT_SPHERE:
            lo[k] = p.c[k] - p.r;
            hi[k] = p.c[k] + p.r;
            break;
        case WL_OBJECT_CAPSULE:
            lo[k] = std::min(p.a[k], p.b[k]) - p.r;
            hi[k] = std::max(p.a[k], p.b[k]) + p.r;
            break;
        case WL_OBJECT_BOX:
        default: {
            // World axis k in the box's frame is column k of rot's rows.
            const double e = std::fabs(p.rot[k]) * p.half[0] + std::fabs(p.rot[3 + k]) * p.half[1] +
                             std::fabs(p.rot[6 + k]) * p.half[2] + p.r;
            lo[k] = p.c[k] - e;
            hi[k] = p.c[k] + e;
        }
        }
        // A margin for the rounding of the above.
        const double pad = 1e-12 * (std::fabs(lo[k]) + std::fabs(hi[k]));
        lo[k] -= pad;
        hi[k] += pad;
    }
}

float down(double x)
{
    const float f = static_cast<float>(x);
    return static_cast<double>(f) > x ? std::nextafter(f, -std::numeric_limits<float>::infinity()) : f;
}

float up(double x)
{
    const float f = static_cast<float>(x);
    return static_cast<double>(f) < x ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
}

void bounds_callback(const RTCBoundsFunctionArguments* args)
{
    const auto* prims = static_cast<const Prim*>(args->geometryUserPtr);
    double lo[3], hi[3];
    prim_bounds(prims[args->primID], lo, hi);
    RTCBounds* b = args->bounds_o;
    b->lower_x = down(lo[0]);
    b->lower_y = down(lo[1]);
    b->lower_z = down(lo[2]);
    b->upper_x = up(hi[0]);
    b->upper_y = up(hi[1]);
    b->upper_z = up(hi[2]);
}

// rtcIntersect1 only: one ray at a time (N == 1).
void intersect_callback(const RTCIntersectFunctionNArguments* args)
{
    if (!args->valid[0]) {
        return;
    }
    const auto* prims = static_cast<const Prim*>(args->geometryUserPtr);
    auto* rh = reinterpret_cast<RTCRayHit*>(args->rayhit);
    RTCRay& ray = rh->ray;
    const double o[3] = {ray.org_x, ray.org_y, ray.org_z};
    const double d[3] = {ray.dir_x, ray.dir_y, ray.dir_z};
    const double t = first_hit(prims[args->primID], o, d);
    if (t >= static_cast<double>(ray.tnear) && t <= static_cast<double>(ray.tfar)) {
        ray.tfar = static_cast<float>(t);
        rh->hit.geomID = args->geomID;
        rh->hit.primID = args->primID;
        rh->hit.instID[0] = args->context->instID[0];
    }
}

} // namespace

struct EmbreeWorld::Impl {
    RTCDevice device = nullptr;
    RTCScene scene = nullptr;
    std::vector<Prim> prims;
    double ns = 0;
};

EmbreeWorld::EmbreeWorld(const wl_world& w, double inflate) : impl_(new Impl)
{
    // One thread for the build: the comparison is single-threaded (the
    // threads row casts from its own std::threads).
    impl_->device = rtcNewDevice("threads=1,set_affinity=0");
    if (!impl_->device) {
        std::fprintf(stderr, "sweep_peers: rtcNewDevice failed (error %d)\n", rtcGetDeviceError(nullptr));
        std::exit(1);
    }
    const double t0 = now_ns();
    impl_->prims.reserve(static_cast<size_t>(w.count));
    for (int i = 0; i < w.count; ++i) {
        impl_->prims.push_back(make_prim(w.objects[i], inflate));
    }
    impl_->scene = rtcNewScene(impl_->device);
    RTCGeometry g = rtcNewGeometry(impl_->device, RTC_GEOMETRY_TYPE_USER);
    rtcSetGeometryUserPrimitiveCount(g, static_cast<unsigned>(w.count));
    rtcSetGeometryUserData(g, impl_->prims.data());
    rtcSetGeometryBoundsFunction(g, bounds_callback, nullptr);
    rtcSetGeometryIntersectFunction(g, intersect_callback);
    rtcCommitGeometry(g);
    rtcAttachGeometry(impl_->scene, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(impl_->scene);
    impl_->ns = now_ns() - t0;
    if (rtcGetDeviceError(impl_->device) != RTC_ERROR_NONE) {
        std::fprintf(stderr, "sweep_peers: Embree failed to build the world\n");
        std::exit(1);
    }
}

EmbreeWorld::~EmbreeWorld()
{
    rtcReleaseScene(impl_->scene);
    rtcReleaseDevice(impl_->device);
    delete impl_;
}

bool EmbreeWorld::available() const { return true; }

double EmbreeWorld::build_ns() const { return impl_->ns; }

Answer EmbreeWorld::cast(const wl_query& q) const
{
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    RTCRayHit r = embree_ray(q);
    rtcIntersect1(impl_->scene, &context, &r);
    const bool hit = r.hit.geomID != RTC_INVALID_GEOMETRY_ID;
    return Answer{hit, hit ? static_cast<double>(r.ray.tfar) : 0, hit ? static_cast<int>(r.hit.primID) : -1};
}

std::string EmbreeWorld::describe()
{
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "embree: %d.%d.%d, one user geometry (exact callbacks in double), rtcIntersect1; sweeps are rays "
                  "against the objects grown by r",
                  RTC_VERSION_MAJOR, RTC_VERSION_MINOR, RTC_VERSION_PATCH);
    return buf;
}

#else

struct EmbreeWorld::Impl {
};
EmbreeWorld::EmbreeWorld(const wl_world&, double) : impl_(nullptr) {}
EmbreeWorld::~EmbreeWorld() = default;
bool EmbreeWorld::available() const { return false; }
double EmbreeWorld::build_ns() const { return 0; }
Answer EmbreeWorld::cast(const wl_query&) const { return Answer{}; }
std::string EmbreeWorld::describe() { return "embree: skipped (not found when configured: install libembree-dev)"; }

#endif

} // namespace peers
