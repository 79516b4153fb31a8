/* `sweep render`: answering the request (a pair through the library's
 * dispatcher, a query over a scene through sw_scene_*), the captions, and
 * building the picture. */
#include "render.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- answering a pair ------------------------------------------------------- */

static int invalid_shape(const char* which, const sw_shape* s, char* err, size_t err_size)
{
    const char* why = sw_shape_invalid_reason(s);
    if (why != NULL) {
        snprintf(err, err_size, "shape %s: %s", which, why);
        return -1;
    }
    return 0;
}

/* Checks the request before the library sees it: in builds with
 * SWEEP_ASSERTS invalid input would reach the assert handler. */
static int validate(const request* req, char* err, size_t err_size)
{
    if (req_op_is_scene_change(req->op)) {
        snprintf(err, err_size, "a scene request changes a scene and has no picture (draw a query over the scene)");
        return -1;
    }
    if (!req->over_scene && invalid_shape("b", &req->b, err, err_size) != 0) {
        return -1;
    }
    switch (req->op) {
    case REQ_SWEEP:
        if (!sw_is_valid_sweep_options(&req->opt)) {
            snprintf(err, err_size, "skin must be finite and >= 0");
            return -1;
        }
        /* fall through */
    case REQ_SWEEP_INSIDE:
        if (!sw_is_valid_vec3(req->d)) {
            snprintf(err, err_size, "displacement d must be finite");
            return -1;
        }
        /* fall through */
    case REQ_OVERLAP:
    case REQ_DISTANCE:
        return invalid_shape("a", &req->a, err, err_size);
    case REQ_RAYCAST:
        if (!sw_is_valid_ray(&req->ray)) {
            snprintf(err, err_size, "ray needs a finite origin and dir and a finite max >= 0");
            return -1;
        }
        return 0;
    default:
        break;
    }
    snprintf(err, err_size, "unknown op");
    return -1;
}

static void answer(render_scene* sc, const request* req)
{
    sc->op = req->op;
    sc->b = req->b;
    sc->has_b = true;
    sc->impact = rv3_make(0, 0, 0);
    switch (req->op) {
    case REQ_SWEEP:
    case REQ_SWEEP_INSIDE:
        sc->a = req->a;
        sc->moves = true;
        sc->d = rv3_of(req->d);
        sc->hit = req->op == REQ_SWEEP ? sw_sweep(&req->a, req->d, &req->b, &req->opt)
                                       : sw_sweep_inside(&req->a, req->d, &req->b);
        sc->skin = req->op == REQ_SWEEP ? req->opt.skin : 0;
        sc->status = sc->hit.status;
        sc->impact = rv3_scale(sc->d, sc->hit.t);
        return;
    case REQ_RAYCAST:
        sc->a = sw_make_point(req->ray.origin);
        sc->moves = true;
        sc->d = rv3_scale(rv3_of(req->ray.dir), req->ray.max);
        sc->hit = sw_raycast(&req->ray, &req->b);
        sc->status = sc->hit.status;
        /* t is in units of dir, not a fraction of the whole ray. */
        sc->impact = rv3_scale(rv3_of(req->ray.dir), sc->hit.t);
        return;
    case REQ_OVERLAP:
        sc->a = req->a;
        sc->over = sw_overlap(&req->a, &req->b);
        sc->status = sc->over.status;
        return;
    case REQ_DISTANCE:
        sc->a = req->a;
        sc->dist = sw_distance(&req->a, &req->b);
        sc->status = sc->dist.status;
        return;
    default:
        return;
    }
}

/* ---- answering over a scene ---------------------------------------------------- */

static int cmp_key(const void* pa, const void* pb)
{
    const int64_t a = *(const int64_t*)pa, b = *(const int64_t*)pb;
    return a < b ? -1 : (a > b);
}

/* The index of key among the scene's shapes, or -1. */
static int shape_index(const render_scene* sc, int64_t key)
{
    const int64_t* at =
        sc->shape_count > 0 ? bsearch(&key, sc->keys, (size_t)sc->shape_count, sizeof key, cmp_key) : NULL;
    return at ? (int)(at - sc->keys) : -1;
}

static void mark(render_scene* sc, int64_t key)
{
    const int i = shape_index(sc, key);
    if (i >= 0) {
        sc->marked[i] = true;
    }
}

/* The scene's shapes (copied: what they point to belongs to the named
 * scene or to the request) and the answer; b is the shape named first. */
static int answer_scene(render_scene* sc, const request* req, scene_store* scenes, char* err, size_t err_size)
{
    tool_scene* ts = tool_scene_open(scenes, req, err, err_size);
    if (ts == NULL) {
        return -1;
    }
    const int q = tool_scene_query(ts, req, &sc->result);
    int n = 0;
    sc->keys = q == 0 ? tool_scene_keys(ts, &n) : NULL;
    sc->shapes = n > 0 ? malloc((size_t)n * sizeof *sc->shapes) : NULL;
    sc->marked = n > 0 ? calloc((size_t)n, sizeof *sc->marked) : NULL;
    if (q != 0 || (n > 0 && (sc->shapes == NULL || sc->marked == NULL))) {
        tool_scene_close(ts);
        snprintf(err, err_size, "%s",
                 q == SCENE_QUERY_INVALID ? "the library rejected the request as invalid input" : "out of memory");
        return -1;
    }
    sc->shape_count = n;
    for (int i = 0; i < n; i++) {
        sc->shapes[i] = *sw_scene_shape(tool_scene_get(ts), sc->keys[i]);
    }
    tool_scene_close(ts);

    const scene_result* r = &sc->result;
    sc->op = req->op;
    sc->over_scene = true;
    sc->status = SW_OK;
    sc->has_b = r->count > 0;
    sc->a = req->op == REQ_RAYCAST ? sw_make_point(req->ray.origin) : req->a;
    switch (req->op) {
    case REQ_SWEEP:
    case REQ_RAYCAST:
        sc->moves = true;
        sc->skin = req->op == REQ_SWEEP ? req->opt.skin : 0;
        sc->d = req->op == REQ_SWEEP ? rv3_of(req->d) : rv3_scale(rv3_of(req->ray.dir), req->ray.max);
        for (int i = 0; i < r->count; i++) {
            mark(sc, r->hits[i].key);
        }
        if (sc->has_b) {
            sc->hit = r->hits[0].hit;
            sc->b_key = r->hits[0].key;
        }
        /* A ray's t is in units of dir. */
        sc->impact = req->op == REQ_SWEEP ? rv3_scale(sc->d, sc->hit.t) : rv3_scale(rv3_of(req->ray.dir), sc->hit.t);
        break;
    case REQ_OVERLAP:
        for (int i = 0; i < r->count; i++) {
            mark(sc, r->overlaps[i].key);
        }
        if (sc->has_b) {
            sc->over = r->overlaps[0].overlap;
            sc->b_key = r->overlaps[0].key;
        }
        break;
    default:
        if (sc->has_b) {
            sc->dist = r->closest.distance;
            sc->b_key = r->closest.key;
            mark(sc, sc->b_key);
        }
        break;
    }
    const int b = sc->has_b ? shape_index(sc, sc->b_key) : -1;
    if (b >= 0) {
        sc->b = sc->shapes[b];
    } else {
        /* No shape named: a stand-in at A that only frames the views. */
        sc->has_b = false;
        const rv3 c = rs_center(&sc->a);
        sc->b = sw_make_point(sw_v3((sw_real)c.x, (sw_real)c.y, (sw_real)c.z));
    }
    return 0;
}

void render_scene_free(render_scene* sc)
{
    scene_result_free(&sc->result);
    free(sc->shapes);
    free(sc->keys);
    free(sc->marked);
    sc->shapes = NULL;
    sc->keys = NULL;
    sc->marked = NULL;
    sc->shape_count = 0;
}

/* ---- captions ------------------------------------------------------------ */

static const char* op_name(req_op op)
{
    switch (op) {
    case REQ_SWEEP:
        return "sweep";
    case REQ_RAYCAST:
        return "raycast";
    case REQ_SWEEP_INSIDE:
        return "sweep_inside";
    case REQ_OVERLAP:
        return "overlap";
    case REQ_DISTANCE:
        return "distance";
    default:
        break;
    }
    return "?";
}

#define V3F "(%.6g, %.6g, %.6g)"
/* + 0.0 turns -0 into 0, which reads better. */
#define V3A(v) (double)(v).x + 0.0, (double)(v).y + 0.0, (double)(v).z + 0.0

#if defined(__GNUC__)
#define RENDER_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RENDER_PRINTF(f, a)
#endif

/* Appends to buf (a fixed array of size `size`) at *len. */
static void append(char* buf, size_t size, size_t* len, const char* fmt, ...) RENDER_PRINTF(4, 5);

static void append(char* buf, size_t size, size_t* len, const char* fmt, ...)
{
    if (*len >= size) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, size - *len, fmt, ap);
    va_end(ap);
    if (n > 0) {
        *len += (size_t)n;
        if (*len >= size) {
            *len = size - 1;
        }
    }
}

/* "scene \"level\" (closest)", in ASCII: a name cut short must not
 * leave a broken UTF-8 sequence, which cairo refuses. */
static void scene_caption_name(const render_scene* sc, const request* req, char* buf, size_t size)
{
    size_t n = 0;
    if (req->scene_name) {
        append(buf, size, &n, "scene \"");
        const char* s = req->scene_name;
        for (int i = 0; s[i] && i < 32; ++i) {
            const unsigned char c = (unsigned char)s[i];
            append(buf, size, &n, "%c", c >= 0x20 && c < 0x7f ? (char)c : '?');
        }
        append(buf, size, &n, "%s\"", strlen(s) > 32 ? "..." : "");
    } else {
        append(buf, size, &n, "inline scene");
    }
    static const char* const modes[] = {"closest", "any", "all"};
    if (sc->moves) {
        append(buf, size, &n, " (%s)", modes[req->hits]);
    }
}

static void build_captions(render_scene* sc, const request* req)
{
    char* l1 = sc->caption_line[0];
    char* l2 = sc->caption_line[1];
    const size_t size = sizeof sc->caption_line[0];
    size_t n1 = 0, n2 = 0;
    const char* bname = sw_shape_type_name(sc->b.type);
    const char* aname = sw_shape_type_name(sc->a.type);
    char scene_name[96];
    if (sc->over_scene) {
        scene_caption_name(sc, req, scene_name, sizeof scene_name);
        bname = scene_name;
    }
    switch (sc->op) {
    case REQ_SWEEP:
        append(l1, size, &n1, "sweep %s -> %s:", aname, bname);
        break;
    case REQ_RAYCAST:
        append(l1, size, &n1, "raycast -> %s:", bname);
        break;
    case REQ_SWEEP_INSIDE:
        append(l1, size, &n1, "sweep_inside %s in %s:", aname, bname);
        break;
    case REQ_OVERLAP:
    case REQ_DISTANCE:
        append(l1, size, &n1, "%s %s / %s:", op_name(sc->op), aname, bname);
        break;
    default:
        break;
    }
    if (sc->over_scene && sc->moves && req->hits == SW_HITS_ALL && sc->has_b) {
        append(l1, size, &n1, " %d hits, the first at key %lld:", sc->result.count, (long long)sc->b_key);
    } else if (sc->over_scene && sc->op == REQ_OVERLAP && sc->has_b) {
        append(l1, size, &n1, " %d overlapping, the first at key %lld:", sc->result.count, (long long)sc->b_key);
    } else if (sc->over_scene && sc->has_b) {
        append(l1, size, &n1, " key %lld:", (long long)sc->b_key);
    }
    if (!render_answered(sc)) {
        append(l1, size, &n1, " %s by this build of the library (shapes only)",
               sc->status == SW_UNSUPPORTED ? "UNSUPPORTED" : sw_status_name(sc->status));
    } else if (sc->moves) {
        const sw_hit* h = &sc->hit;
        if (!h->hit) {
            append(l1, size, &n1, " MISS");
        } else {
            append(l1, size, &n1, " %s  t = %.6g%s  depth = %.6g  feature = %s",
                   h->overlapping ? "HIT (overlapping at start)" : "HIT", (double)h->t,
                   sc->op == REQ_RAYCAST ? " (units of dir)" : "", (double)h->depth,
                   sw_feature_kind_name(h->feature.kind));
            if (h->feature.kind != SW_FEATURE_NONE) {
                append(l1, size, &n1, " %d", h->feature.index);
            }
            if (sc->b.type == SW_SHAPE_MESH) {
                append(l1, size, &n1, " of triangle %d", h->triangle);
            }
            append(l1, size, &n1, "  point = " V3F "  normal = " V3F, V3A(h->point), V3A(h->normal));
        }
    } else if (sc->op == REQ_OVERLAP) {
        const sw_overlap_result* o = &sc->over;
        if (!o->overlapping) {
            append(l1, size, &n1, " SEPARATE");
        } else {
            append(l1, size, &n1, " OVERLAPPING  depth = %.6g  point = " V3F "  normal = " V3F, (double)o->depth,
                   V3A(o->point), V3A(o->normal));
        }
    } else if (!sc->has_b) {
        append(l1, size, &n1, " NOTHING within max %.6g", (double)req->max_distance);
    } else {
        const sw_distance_result* d = &sc->dist;
        append(l1, size, &n1, " distance = %.6g  point_a = " V3F "  point_b = " V3F, (double)d->distance,
               V3A(d->point_a), V3A(d->point_b));
    }

    char desc[256];
    if (sc->op == REQ_RAYCAST) {
        append(l2, size, &n2, "ray origin " V3F " dir " V3F " max %.6g", V3A(req->ray.origin), V3A(req->ray.dir),
               (double)req->ray.max);
    } else {
        rs_describe(&sc->a, desc, sizeof desc);
        append(l2, size, &n2, "A: %s", desc);
        if (sc->moves) {
            append(l2, size, &n2, "   d " V3F, V3A(req->d));
        }
    }
    if (sc->has_b) {
        rs_describe(&sc->b, desc, sizeof desc);
        append(l2, size, &n2, "   B: %s", desc);
    }
    if (sc->over_scene) {
        append(l2, size, &n2, "   %d shape%s in the scene", sc->shape_count, sc->shape_count == 1 ? "" : "s");
        if (req->mask != UINT64_MAX) {
            append(l2, size, &n2, "   mask 0x%llx", (unsigned long long)req->mask);
        }
    }
    if (sc->op == REQ_SWEEP && req->opt.skin > 0) {
        append(l2, size, &n2, "   skin %.6g", (double)req->opt.skin);
    }
    if (sc->op == REQ_SWEEP && req->opt.ignore_separating) {
        append(l2, size, &n2, "   ignore_separating");
    }
    if (req->id != NULL) {
        /* ASCII only, so cutting it short never splits a UTF-8 sequence
         * (cairo refuses invalid UTF-8 and the picture would fail). */
        char* id = json_dumps(req->id, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII);
        if (id != NULL) {
            append(l2, size, &n2, "   id %.60s", id);
            free(id);
        }
    }
}

/* ---- building ----------------------------------------------------------- */

render_status render_scene_build_in(render_scene* sc, const request* req, scene_store* scenes, int width, int height,
                                    char* err, size_t err_size)
{
    memset(sc, 0, sizeof *sc);
    sc->width = width > 0 ? width : RENDER_DEFAULT_WIDTH;
    sc->height = height > 0 ? height : RENDER_DEFAULT_HEIGHT;
    if (sc->width < RENDER_MIN_WIDTH || sc->height < RENDER_MIN_HEIGHT || sc->width > RENDER_MAX_SIDE ||
        sc->height > RENDER_MAX_SIDE) {
        snprintf(err, err_size, "image size %dx%d is out of range (%dx%d to %dx%d)", sc->width, sc->height,
                 RENDER_MIN_WIDTH, RENDER_MIN_HEIGHT, RENDER_MAX_SIDE, RENDER_MAX_SIDE);
        return RENDER_ERROR;
    }
    if (validate(req, err, err_size) != 0) {
        return RENDER_ERROR;
    }
    if (req->over_scene) {
        if (answer_scene(sc, req, scenes, err, err_size) != 0) {
            render_scene_free(sc);
            return RENDER_ERROR;
        }
    } else {
        answer(sc, req);
    }
    if (sc->status == SW_INVALID_INPUT) {
        snprintf(err, err_size, "the library rejected the request as invalid input");
        return RENDER_ERROR;
    }
    render_plan(sc);
    build_captions(sc, req);
    return render_answered(sc) ? RENDER_OK : RENDER_UNANSWERED;
}

render_status render_scene_build(render_scene* sc, const request* req, int width, int height, char* err,
                                 size_t err_size)
{
    return render_scene_build_in(sc, req, NULL, width, height, err, err_size);
}
