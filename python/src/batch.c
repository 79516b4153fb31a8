/* Batches against one shape: N spheres or capsules swept by N
 * displacements, or N rays, answered in C without the GIL into a
 * structured numpy array (one record per query, the fields of a Hit).
 * Each record is what the one-by-one call returns. Included by module.c. */

/* One record of a batch; the numpy dtype is built from these offsets. */
typedef struct py_hit_rec {
    sw_real t, depth;
    sw_real point[3], normal[3];
    int32_t triangle, feature_index;
    int8_t hit, overlapping, feature_kind;
} py_hit_rec;

/* A scene batch's record: the hit, the shape's key and velocities. */
typedef struct py_scene_rec {
    int64_t key;
    py_hit_rec h;
    sw_real velocity[3], angular_velocity[3], point_velocity[3];
} py_scene_rec;

static PyArray_Descr* py_hit_dtype;
static PyArray_Descr* py_scene_dtype;

static void py_store_hit(py_hit_rec* r, const sw_hit* h)
{
    r->t = h->t;
    r->depth = h->depth;
    r->point[0] = h->point.x, r->point[1] = h->point.y, r->point[2] = h->point.z;
    r->normal[0] = h->normal.x, r->normal[1] = h->normal.y, r->normal[2] = h->normal.z;
    r->triangle = h->triangle;
    r->feature_index = h->feature.index;
    r->hit = h->hit;
    r->overlapping = h->overlapping;
    r->feature_kind = (int8_t)h->feature.kind;
}

static void py_store_v(sw_real* out, sw_vec3 v) { out[0] = v.x, out[1] = v.y, out[2] = v.z; }

static void py_store_scene_hit(py_scene_rec* r, const sw_scene_hit* s, int found)
{
    if (found != 1) {
        memset(r, 0, sizeof *r);
        return;
    }
    r->key = s->key;
    py_store_hit(&r->h, &s->hit);
    py_store_v(r->velocity, s->velocity);
    py_store_v(r->angular_velocity, s->angular_velocity);
    py_store_v(r->point_velocity, s->point_velocity);
}

/* A dtype from (name, format, offset) triples and the record size. */
static PyArray_Descr* py_make_dtype(const char* const* names, const char* const* formats, const size_t* offsets, int n,
                                    size_t itemsize)
{
    PyObject* spec = Py_BuildValue("{s:N,s:N,s:N,s:n}", "names", PyList_New(n), "formats", PyList_New(n), "offsets",
                                   PyList_New(n), "itemsize", (Py_ssize_t)itemsize);
    if (!spec) {
        return NULL;
    }
    PyObject* ln = PyDict_GetItemString(spec, "names");
    PyObject* lf = PyDict_GetItemString(spec, "formats");
    PyObject* lo = PyDict_GetItemString(spec, "offsets");
    for (int i = 0; i < n; ++i) {
        PyList_SET_ITEM(ln, i, PyUnicode_FromString(names[i]));
        PyList_SET_ITEM(lf, i, PyUnicode_FromString(formats[i]));
        PyList_SET_ITEM(lo, i, PyLong_FromSize_t(offsets[i]));
    }
    PyArray_Descr* d = NULL;
    if (!PyArray_DescrConverter(spec, &d)) {
        d = NULL;
    }
    Py_DECREF(spec);
    return d;
}

#ifdef SWEEP_DOUBLE
#define PY_R "f8"
#define PY_R3 "(3,)f8"
#else
#define PY_R "f4"
#define PY_R3 "(3,)f4"
#endif

static int py_batch_init(PyObject* m)
{
    const char* const names[] = {"hit",          "overlapping",   "t",       "depth", "point", "normal",
                                 "feature_kind", "feature_index", "triangle"};
    const char* const formats[] = {"?", "?", PY_R, PY_R, PY_R3, PY_R3, "i1", "i4", "i4"};
    const size_t offsets[] = {
        offsetof(py_hit_rec, hit),          offsetof(py_hit_rec, overlapping),   offsetof(py_hit_rec, t),
        offsetof(py_hit_rec, depth),        offsetof(py_hit_rec, point),         offsetof(py_hit_rec, normal),
        offsetof(py_hit_rec, feature_kind), offsetof(py_hit_rec, feature_index), offsetof(py_hit_rec, triangle)};
    py_hit_dtype = py_make_dtype(names, formats, offsets, 9, sizeof(py_hit_rec));
    if (!py_hit_dtype) {
        return -1;
    }
    const char* const snames[] = {"key",           "hit",      "overlapping", "t",
                                  "depth",         "point",    "normal",      "feature_kind",
                                  "feature_index", "triangle", "velocity",    "angular_velocity",
                                  "point_velocity"};
    const char* const sformats[] = {"i8", "?", "?", PY_R, PY_R, PY_R3, PY_R3, "i1", "i4", "i4", PY_R3, PY_R3, PY_R3};
    const size_t h = offsetof(py_scene_rec, h);
    const size_t soffsets[] = {offsetof(py_scene_rec, key),
                               h + offsetof(py_hit_rec, hit),
                               h + offsetof(py_hit_rec, overlapping),
                               h + offsetof(py_hit_rec, t),
                               h + offsetof(py_hit_rec, depth),
                               h + offsetof(py_hit_rec, point),
                               h + offsetof(py_hit_rec, normal),
                               h + offsetof(py_hit_rec, feature_kind),
                               h + offsetof(py_hit_rec, feature_index),
                               h + offsetof(py_hit_rec, triangle),
                               offsetof(py_scene_rec, velocity),
                               offsetof(py_scene_rec, angular_velocity),
                               offsetof(py_scene_rec, point_velocity)};
    py_scene_dtype = py_make_dtype(snames, sformats, soffsets, 13, sizeof(py_scene_rec));
    if (!py_scene_dtype) {
        return -1;
    }
    Py_INCREF(py_hit_dtype);
    Py_INCREF(py_scene_dtype);
    if (PyModule_AddObject(m, "hit_dtype", (PyObject*)py_hit_dtype) < 0 ||
        PyModule_AddObject(m, "scene_hit_dtype", (PyObject*)py_scene_dtype) < 0) {
        return -1;
    }
    const char* const kinds[] = {"FEATURE_NONE", "FEATURE_VERTEX", "FEATURE_EDGE", "FEATURE_FACE"};
    for (int k = 0; k < 4; ++k) {
        if (PyModule_AddIntConstant(m, kinds[k], k) < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- the batch's inputs --------------------------------------------------- */

typedef enum py_batch_kind { PY_BATCH_SPHERES, PY_BATCH_CAPSULES, PY_BATCH_RAYS } py_batch_kind;

/* The arrays of one batch, converted and checked: spheres (p0, radii, d),
 * capsules (p0, p1, radii, d) or rays (p0 = origins, d = dirs, radii =
 * max). */
typedef struct py_batch {
    py_batch_kind kind;
    npy_intp n;
    PyArrayObject *p0, *p1, *d;
    py_radii radii;
} py_batch;

static void py_batch_free(py_batch* b)
{
    Py_XDECREF(b->p0);
    Py_XDECREF(b->p1);
    Py_XDECREF(b->d);
    Py_XDECREF(b->radii.array);
}

/* Converts and checks the arrays; names: the arguments' names in order. */
static int py_batch_get(py_batch* b, py_batch_kind kind, PyObject* p0, PyObject* p1, PyObject* radii, PyObject* d,
                        const char* const* names)
{
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->p0 = py_real_array(p0, names[0], -1, 3);
    if (!b->p0) {
        return -1;
    }
    b->n = PyArray_DIM(b->p0, 0);
    if (b->n > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "a batch holds at most 2**31 - 1 queries");
        return -1;
    }
    if (py_check_array(b->p0, names[0], 0) < 0) {
        return -1;
    }
    if (kind == PY_BATCH_CAPSULES) {
        b->p1 = py_real_array(p1, names[1], b->n, 3);
        if (!b->p1 || py_check_array(b->p1, names[1], 0) < 0) {
            return -1;
        }
    }
    b->d = py_real_array(d, names[3], b->n, 3);
    if (!b->d || py_check_array(b->d, names[3], 0) < 0) {
        return -1;
    }
    if (radii) {
        if (py_get_radii(radii, names[2], b->n, &b->radii) < 0) {
            return -1;
        }
    } else {
        b->radii.value = 1;
    }
    if (kind == PY_BATCH_RAYS) {
        /* max * dir must stay within the coordinate limit (sw_is_valid_ray). */
        for (npy_intp i = 0; i < b->n; ++i) {
            const sw_real* dir = (const sw_real*)PyArray_DATA(b->d) + 3 * i;
            const sw_real mx = py_radius_at(&b->radii, i);
            for (int k = 0; k < 3; ++k) {
                if (!sw_is_valid_real(dir[k] * mx)) {
                    PyErr_Format(PyExc_ValueError, "ray %zd: max * dir beyond the coordinate limit", (Py_ssize_t)i);
                    return -1;
                }
            }
        }
    }
    return 0;
}

static sw_vec3 py_row(PyArrayObject* a, npy_intp i)
{
    const sw_real* r = (const sw_real*)PyArray_DATA(a) + 3 * i;
    return sw_v3(r[0], r[1], r[2]);
}

/* Query i of a batch as a shape and displacement (spheres, capsules). */
static sw_shape py_batch_shape(const py_batch* b, npy_intp i)
{
    const sw_real r = py_radius_at(&b->radii, i);
    return b->kind == PY_BATCH_CAPSULES ? sw_make_capsule(py_row(b->p0, i), py_row(b->p1, i), r)
                                        : sw_make_sphere(py_row(b->p0, i), r);
}

static sw_ray py_batch_ray(const py_batch* b, npy_intp i)
{
    sw_ray r;
    r.origin = py_row(b->p0, i);
    r.dir = py_row(b->d, i);
    r.max = py_radius_at(&b->radii, i);
    return r;
}

static PyArrayObject* py_new_records(PyArray_Descr* dtype, npy_intp n)
{
    Py_INCREF(dtype);
    return (PyArrayObject*)PyArray_Zeros(1, &n, dtype, 0);
}

/* ---- batches against one shape ----------------------------------------------- */

static PyObject* py_pair_batch(py_batch_kind kind, PyObject* args, PyObject* kw)
{
    static char* sphere_names[] = {"centers", "radii", "d", "b", "skin", "ignore_separating", NULL};
    static char* capsule_names[] = {"p0", "p1", "radii", "d", "b", "skin", "ignore_separating", NULL};
    static char* ray_names[] = {"origins", "dirs", "b", "max", NULL};
    PyObject *p0 = NULL, *p1 = NULL, *radii = NULL, *d = NULL, *bo = NULL, *skin = NULL;
    int ign = 0;
    int ok;
    if (kind == PY_BATCH_SPHERES) {
        ok = PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$Op:sweep_spheres", sphere_names, &p0, &radii, &d, &bo, &skin,
                                         &ign);
    } else if (kind == PY_BATCH_CAPSULES) {
        ok = PyArg_ParseTupleAndKeywords(args, kw, "OOOOO|$Op:sweep_capsules", capsule_names, &p0, &p1, &radii, &d, &bo,
                                         &skin, &ign);
    } else {
        ok = PyArg_ParseTupleAndKeywords(args, kw, "OOO|O:raycast_many", ray_names, &p0, &d, &bo, &radii);
    }
    const sw_shape* b;
    sw_sweep_options opt;
    if (!ok || py_shape_arg(bo, "b", &b) < 0 || py_options(skin, ign, &opt) < 0) {
        return NULL;
    }
    const char* const names[3][4] = {
        {"centers", "", "radii", "d"}, {"p0", "p1", "radii", "d"}, {"origins", "", "max", "dirs"}};
    py_batch in;
    if (py_batch_get(&in, kind, p0, p1, radii, d, names[kind]) < 0) {
        py_batch_free(&in);
        return NULL;
    }
    PyArrayObject* out = py_new_records(py_hit_dtype, in.n);
    if (!out) {
        py_batch_free(&in);
        return NULL;
    }
    py_hit_rec* rec = PyArray_DATA(out);
    sw_status bad = SW_OK;
    Py_BEGIN_ALLOW_THREADS for (npy_intp i = 0; i < in.n; ++i)
    {
        sw_hit h;
        if (kind == PY_BATCH_RAYS) {
            const sw_ray r = py_batch_ray(&in, i);
            h = sw_raycast(&r, b);
        } else {
            const sw_shape a = py_batch_shape(&in, i);
            h = sw_sweep(&a, py_row(in.d, i), b, &opt);
        }
        if (h.status != SW_OK) {
            bad = h.status;
            break;
        }
        py_store_hit(&rec[i], &h);
    }
    Py_END_ALLOW_THREADS py_batch_free(&in);
    if (bad != SW_OK) {
        const sw_shape_type a = kind == PY_BATCH_RAYS       ? SW_SHAPE_TYPE_COUNT
                                : kind == PY_BATCH_CAPSULES ? SW_SHAPE_CAPSULE
                                                            : SW_SHAPE_SPHERE;
        py_status(bad, kind == PY_BATCH_RAYS ? "raycast_many" : "sweep batch", a, b);
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject*)out;
}

static PyObject* py_sweep_spheres(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    return py_pair_batch(PY_BATCH_SPHERES, args, kw);
}
static PyObject* py_sweep_capsules(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    return py_pair_batch(PY_BATCH_CAPSULES, args, kw);
}
static PyObject* py_raycast_many(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    return py_pair_batch(PY_BATCH_RAYS, args, kw);
}

#define PY_BATCH_METHODS                                                                                               \
    {"sweep_spheres", (PyCFunction)(void (*)(void))py_sweep_spheres, METH_VARARGS | METH_KEYWORDS,                     \
     "sweep_spheres(centers, radii, d, b, *, skin=0, ignore_separating=False) -> array of hit_dtype:\n"                \
     "sphere i (centers[i], radii[i] or one radius for all) swept by d[i] against b."},                                \
        {"sweep_capsules", (PyCFunction)(void (*)(void))py_sweep_capsules, METH_VARARGS | METH_KEYWORDS,               \
         "sweep_capsules(p0, p1, radii, d, b, *, skin=0, ignore_separating=False) -> array of hit_dtype"},             \
        {"raycast_many", (PyCFunction)(void (*)(void))py_raycast_many, METH_VARARGS | METH_KEYWORDS,                   \
         "raycast_many(origins, dirs, b, max=1) -> array of hit_dtype (max: one number or one per ray)"},
