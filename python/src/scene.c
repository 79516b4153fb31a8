/* Scene: the library's scene under integer keys, holding the Shape
 * objects it was given (a shape points at its hull, mesh or polygon
 * vertices, which must outlive its place in the scene). Queries run
 * without the GIL; while one runs, the scene refuses to change (a
 * RuntimeError), since the library's scenes may be read by many threads
 * at once but changed by none meanwhile. Included by module.c. */

typedef struct {
    PyObject_HEAD sw_scene* scene;
    PyObject* shapes; /* dict: key -> Shape */
    int readers;      /* queries running without the GIL */
} SceneObject;

static PyTypeObject SceneType;

static int Scene_init(SceneObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, ":Scene", names)) {
        return -1;
    }
    if (self->scene) {
        PyErr_SetString(PyExc_RuntimeError, "Scene.__init__ called twice");
        return -1;
    }
    self->scene = sw_scene_create();
    self->shapes = PyDict_New();
    if (!self->scene || !self->shapes) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Scene_dealloc(SceneObject* self)
{
    sw_scene_destroy(self->scene);
    Py_XDECREF(self->shapes);
    Py_TYPE(self)->tp_free((PyObject*)self);
}

static int py_scene_ready(SceneObject* self, int changing)
{
    if (!self->scene) {
        PyErr_SetString(PyExc_ValueError, "this Scene was not initialised");
        return -1;
    }
    if (changing && self->readers > 0) {
        PyErr_SetString(PyExc_RuntimeError, "the scene cannot change while another thread queries it");
        return -1;
    }
    return 0;
}

static int py_scene_error(sw_scene_error e, long long key)
{
    if (e == SW_SCENE_OK) {
        return 0;
    }
    PyObject* type = e == SW_SCENE_UNKNOWN_KEY     ? PyExc_KeyError
                     : e == SW_SCENE_OUT_OF_MEMORY ? PyExc_MemoryError
                                                   : PyExc_ValueError;
    PyErr_Format(type, "key %lld: %s", key, sw_scene_error_string(e));
    return -1;
}

static int py_u64(PyObject* obj, const char* what, uint64_t* out)
{
    if (!obj || obj == Py_None) {
        *out = UINT64_MAX;
        return 0;
    }
    const unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "%s must be an integer from 0 to 2**64 - 1", what);
        return -1;
    }
    *out = v;
    return 0;
}

static PyObject* Scene_add(SceneObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"key", "shape", "category", "mask", NULL};
    long long key;
    PyObject *so, *cat = NULL, *mask = NULL;
    const sw_shape* s;
    uint64_t c, m;
    if (py_scene_ready(self, 1) < 0 ||
        !PyArg_ParseTupleAndKeywords(args, kw, "LO|OO:add", names, &key, &so, &cat, &mask) ||
        py_shape_arg(so, "shape", &s) < 0 || py_u64(cat, "category", &c) < 0 || py_u64(mask, "mask", &m) < 0) {
        return NULL;
    }
    if (py_scene_error(sw_scene_add(self->scene, key, s, c, m, NULL), key) < 0) {
        return NULL;
    }
    PyObject* k = PyLong_FromLongLong(key);
    if (!k || PyDict_SetItem(self->shapes, k, so) < 0) {
        Py_XDECREF(k);
        sw_scene_remove(self->scene, key);
        return NULL;
    }
    Py_DECREF(k);
    Py_RETURN_NONE;
}

static PyObject* Scene_remove(SceneObject* self, PyObject* args)
{
    long long key;
    if (py_scene_ready(self, 1) < 0 || !PyArg_ParseTuple(args, "L:remove", &key) ||
        py_scene_error(sw_scene_remove(self->scene, key), key) < 0) {
        return NULL;
    }
    PyObject* k = PyLong_FromLongLong(key);
    if (!k || PyDict_DelItem(self->shapes, k) < 0) {
        Py_XDECREF(k);
        return NULL;
    }
    Py_DECREF(k);
    Py_RETURN_NONE;
}

static PyObject* Scene_move(SceneObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"key", "shape", "velocity", "angular_velocity", NULL};
    long long key;
    PyObject *so, *vo = NULL, *wo = NULL;
    const sw_shape* s;
    sw_vec3 v = sw_v3(0, 0, 0), w = sw_v3(0, 0, 0);
    if (py_scene_ready(self, 1) < 0 ||
        !PyArg_ParseTupleAndKeywords(args, kw, "LO|OO:move", names, &key, &so, &vo, &wo) ||
        py_shape_arg(so, "shape", &s) < 0 || (vo && py_vec3(vo, "velocity", &v) < 0) ||
        (wo && py_vec3(wo, "angular_velocity", &w) < 0) ||
        py_scene_error(sw_scene_move(self->scene, key, s, v, w), key) < 0) {
        return NULL;
    }
    PyObject* k = PyLong_FromLongLong(key);
    if (!k || PyDict_SetItem(self->shapes, k, so) < 0) {
        Py_XDECREF(k);
        return NULL;
    }
    Py_DECREF(k);
    Py_RETURN_NONE;
}

static PyObject* Scene_set_filter(SceneObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"key", "category", "mask", NULL};
    long long key;
    PyObject *cat = NULL, *mask = NULL;
    uint64_t c, m;
    if (py_scene_ready(self, 1) < 0 ||
        !PyArg_ParseTupleAndKeywords(args, kw, "L|OO:set_filter", names, &key, &cat, &mask) ||
        py_u64(cat, "category", &c) < 0 || py_u64(mask, "mask", &m) < 0 ||
        py_scene_error(sw_scene_set_filter(self->scene, key, c, m, NULL), key) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject* Scene_optimize(SceneObject* self, PyObject* noargs)
{
    (void)noargs;
    if (py_scene_ready(self, 1) < 0) {
        return NULL;
    }
    sw_scene_optimize(self->scene);
    Py_RETURN_NONE;
}

static PyObject* Scene_shape(SceneObject* self, PyObject* args)
{
    long long key;
    if (py_scene_ready(self, 0) < 0 || !PyArg_ParseTuple(args, "L:shape", &key)) {
        return NULL;
    }
    PyObject* k = PyLong_FromLongLong(key);
    if (!k) {
        return NULL;
    }
    PyObject* s = PyDict_GetItemWithError(self->shapes, k);
    Py_DECREF(k);
    if (!s) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_KeyError, "key %lld: no shape has the key", key);
        }
        return NULL;
    }
    Py_INCREF(s);
    return s;
}

static PyObject* Scene_keys(SceneObject* self, PyObject* noargs)
{
    (void)noargs;
    if (py_scene_ready(self, 0) < 0) {
        return NULL;
    }
    PyObject* keys = PyDict_Keys(self->shapes);
    if (keys && PyList_Sort(keys) < 0) {
        Py_CLEAR(keys);
    }
    return keys;
}

static Py_ssize_t Scene_len(SceneObject* self) { return self->scene ? sw_scene_count(self->scene) : 0; }

static int Scene_contains(SceneObject* self, PyObject* key)
{
    return self->shapes ? PyDict_Contains(self->shapes, key) : 0;
}

/* ---- queries ---------------------------------------------------------------------- */

typedef struct py_query {
    sw_scene_filter filter;
    const sw_scene_filter* f; /* NULL: every shape */
    sw_hits_mode mode;
} py_query;

static int py_query_get(py_query* q, PyObject* hits, PyObject* mask, PyObject* category)
{
    memset(q, 0, sizeof *q);
    q->mode = SW_HITS_CLOSEST;
    if (hits && hits != Py_None) {
        const char* s = PyUnicode_Check(hits) ? PyUnicode_AsUTF8(hits) : NULL;
        if (s && strcmp(s, "closest") == 0) {
            q->mode = SW_HITS_CLOSEST;
        } else if (s && strcmp(s, "any") == 0) {
            q->mode = SW_HITS_ANY;
        } else if (s && strcmp(s, "all") == 0) {
            q->mode = SW_HITS_ALL;
        } else {
            PyErr_Format(PyExc_ValueError, "hits must be 'closest', 'any' or 'all' (got %R)", hits);
            return -1;
        }
    }
    if ((mask && mask != Py_None) || (category && category != Py_None)) {
        if (py_u64(mask, "mask", &q->filter.mask) < 0 || py_u64(category, "category", &q->filter.category) < 0) {
            return -1;
        }
        q->f = &q->filter;
    }
    return 0;
}

/* A list of n records, one(items + i * size) each; NULL on failure. */
typedef PyObject* py_record_fn(const void* item);

static PyObject* py_list_of(const void* items, int n, size_t size, py_record_fn* one)
{
    PyObject* list = PyList_New(n);
    for (int i = 0; list && i < n; ++i) {
        PyObject* r = one((const unsigned char*)items + (size_t)i * size);
        if (!r) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, r);
    }
    return list;
}

static PyObject* py_scene_hit_record(const void* item) { return py_scene_hit(item); }

static PyObject* py_scene_overlap_record(const void* item)
{
    const sw_scene_overlap* o = item;
    return py_record(&SceneOverlapType, "(LdNN)", (long long)o->key, (double)o->overlap.depth,
                     py_tuple3(o->overlap.normal), py_tuple3(o->overlap.point));
}

static PyObject* py_contact_record(const void* item)
{
    const sw_scene_contact* k = item;
    return py_record(&ContactType, "(LdNNNiNNN)", (long long)k->key, (double)k->distance, py_tuple3(k->point_a),
                     py_tuple3(k->point_b), py_tuple3(k->normal), k->triangle, py_tuple3(k->velocity),
                     py_tuple3(k->angular_velocity), py_tuple3(k->point_velocity));
}

/* The list (ALL) or the one hit or None (CLOSEST, ANY) of a scene query. */
static PyObject* py_scene_hits(const sw_scene_hit* out, int found, sw_hits_mode mode)
{
    if (mode != SW_HITS_ALL) {
        if (found == 0) {
            Py_RETURN_NONE;
        }
        return py_scene_hit(&out[0]);
    }
    return py_list_of(out, found, sizeof *out, py_scene_hit_record);
}

/* Runs a scene query that returns how many results it found in all:
 * first into a stack array, and again into one large enough when more
 * were found. call(ctx, out, capacity) runs without the GIL. */
typedef int py_scene_call(void* ctx, void* out, int capacity);

static int py_scene_collect(SceneObject* self, py_scene_call* call, void* ctx, size_t size, void* stack, int stack_n,
                            void** out)
{
    int found;
    ++self->readers;
    Py_BEGIN_ALLOW_THREADS found = call(ctx, stack, stack_n);
    Py_END_ALLOW_THREADS-- self->readers;
    *out = stack;
    if (found > stack_n) {
        void* big = PyMem_Malloc((size_t)found * size);
        if (!big) {
            PyErr_NoMemory();
            return -1;
        }
        ++self->readers;
        Py_BEGIN_ALLOW_THREADS found = call(ctx, big, found);
        Py_END_ALLOW_THREADS-- self->readers;
        *out = big;
    }
    if (found < 0) {
        PyErr_SetString(PyExc_ValueError, "invalid input to the scene query");
        if (*out != stack) {
            PyMem_Free(*out);
        }
        return -1;
    }
    return found;
}

typedef struct py_cast_ctx {
    const sw_scene* scene;
    const sw_shape* a; /* NULL: a ray */
    sw_ray ray;
    sw_vec3 d;
    sw_sweep_options opt;
    sw_real margin;
    py_query q;
} py_cast_ctx;

static int py_call_cast(void* ctx, void* out, int capacity)
{
    const py_cast_ctx* c = ctx;
    const int n = c->q.mode == SW_HITS_ALL ? capacity : 1;
    return c->a ? sw_scene_sweep(c->scene, c->a, c->d, &c->opt, c->q.mode, c->q.f, out, n)
                : sw_scene_raycast(c->scene, &c->ray, c->q.mode, c->q.f, out, n);
}

static PyObject* py_scene_cast(SceneObject* self, py_cast_ctx* c)
{
    sw_scene_hit stack[16];
    void* out;
    c->scene = self->scene;
    const int found = py_scene_collect(self, py_call_cast, c, sizeof(sw_scene_hit), stack, 16, &out);
    if (found < 0) {
        return NULL;
    }
    PyObject* r = py_scene_hits(out, found, c->q.mode);
    if (out != stack) {
        PyMem_Free(out);
    }
    return r;
}

static PyObject* Scene_raycast(SceneObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"origin", "dir", "max", "hits", "mask", "category", NULL};
    PyObject *o, *dir, *max = NULL, *hits = NULL, *mask = NULL, *cat = NULL;
    py_cast_ctx c;
    memset(&c, 0, sizeof c);
    if (py_scene_ready(self, 0) < 0 ||
        !PyArg_ParseTupleAndKeywords(args, kw, "OO|O$OOO:raycast", names, &o, &dir, &max, &hits, &mask, &cat) ||
        py_ray(o, dir, max, &c.ray) < 0 || py_query_get(&c.q, hits, mask, cat) < 0) {
        return NULL;
    }
    if (!sw_is_valid_ray(&c.ray)) {
        PyErr_SetString(PyExc_ValueError, "raycast: max * dir must stay within the coordinate limit");
        return NULL;
    }
    return py_scene_cast(self, &c);
}

static PyObject* Scene_sweep(SceneObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"a", "d", "hits", "skin", "ignore_separating", "mask", "category", NULL};
    PyObject *ao, *dobj, *hits = NULL, *skin = NULL, *mask = NULL, *cat = NULL;
    int ign = 0;
    py_cast_ctx c;
    memset(&c, 0, sizeof c);
    if (py_scene_ready(self, 0) < 0 ||
        !PyArg_ParseTupleAndKeywords(args, kw, "OO|$OOpOO:sweep", names, &ao, &dobj, &hits, &skin, &ign, &mask, &cat) ||
        py_shape_arg(ao, "a", &c.a) < 0 || py_movable(c.a, "sweep") < 0 || py_vec3(dobj, "d", &c.d) < 0 ||
        py_options(skin, ign, &c.opt) < 0 || py_query_get(&c.q, hits, mask, cat) < 0) {
        return NULL;
    }
    return py_scene_cast(self, &c);
}

static int py_call_overlap(void* ctx, void* out, int capacity)
{
    const py_cast_ctx* c = ctx;
    return sw_scene_overlap_all(c->scene, c->a, c->q.f, out, capacity);
}

static int py_call_contacts(void* ctx, void* out, int capacity)
{
    const py_cast_ctx* c = ctx;
    return sw_scene_contacts(c->scene, c->a, c->margin, c->q.f, out, capacity);
}

static PyObject* Scene_overlap(SceneObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"a", "mask", "category", NULL};
    PyObject *ao, *mask = NULL, *cat = NULL;
    py_cast_ctx c;
    memset(&c, 0, sizeof c);
    if (py_scene_ready(self, 0) < 0 ||
        !PyArg_ParseTupleAndKeywords(args, kw, "O|$OO:overlap", names, &ao, &mask, &cat) ||
        py_shape_arg(ao, "a", &c.a) < 0 || py_query_get(&c.q, NULL, mask, cat) < 0) {
        return NULL;
    }
    c.scene = self->scene;
    sw_scene_overlap stack[16];
    void* out;
    const int found = py_scene_collect(self, py_call_overlap, &c, sizeof(sw_scene_overlap), stack, 16, &out);
    if (found < 0) {
        return NULL;
    }
    PyObject* list = py_list_of(out, found, sizeof(sw_scene_overlap), py_scene_overlap_record);
    if (out != stack) {
        PyMem_Free(out);
    }
    return list;
}

static PyObject* Scene_contacts(SceneObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"a", "margin", "mask", "category", NULL};
    PyObject *ao, *margin, *mask = NULL, *cat = NULL;
    py_cast_ctx c;
    memset(&c, 0, sizeof c);
    if (py_scene_ready(self, 0) < 0 ||
        !PyArg_ParseTupleAndKeywords(args, kw, "OO|$OO:contacts", names, &ao, &margin, &mask, &cat) ||
        py_shape_arg(ao, "a", &c.a) < 0 || py_real(margin, "margin", 1, &c.margin) < 0 ||
        py_query_get(&c.q, NULL, mask, cat) < 0) {
        return NULL;
    }
    c.scene = self->scene;
    sw_scene_contact stack[16];
    void* out;
    const int found = py_scene_collect(self, py_call_contacts, &c, sizeof(sw_scene_contact), stack, 16, &out);
    if (found < 0) {
        return NULL;
    }
    PyObject* list = py_list_of(out, found, sizeof(sw_scene_contact), py_contact_record);
    if (out != stack) {
        PyMem_Free(out);
    }
    return list;
}

static PyObject* Scene_closest(SceneObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"a", "max_distance", "mask", "category", NULL};
    PyObject *ao, *maxd = NULL, *mask = NULL, *cat = NULL;
    const sw_shape* a;
    sw_real mx = -1;
    py_query q;
    if (py_scene_ready(self, 0) < 0 ||
        !PyArg_ParseTupleAndKeywords(args, kw, "O|O$OO:closest", names, &ao, &maxd, &mask, &cat) ||
        py_shape_arg(ao, "a", &a) < 0 || (maxd && maxd != Py_None && py_real(maxd, "max_distance", 1, &mx) < 0) ||
        py_query_get(&q, NULL, mask, cat) < 0) {
        return NULL;
    }
    sw_scene_distance out;
    int found;
    ++self->readers;
    Py_BEGIN_ALLOW_THREADS found = sw_scene_closest(self->scene, a, mx, q.f, &out);
    Py_END_ALLOW_THREADS-- self->readers;
    if (found < 0) {
        PyErr_Format(PyExc_ValueError, "closest: the scene does not answer a %s", sw_shape_type_name(a->type));
        return NULL;
    }
    if (found == 0) {
        Py_RETURN_NONE;
    }
    return py_record(&SceneDistanceType, "(LdNN)", (long long)out.key, (double)out.distance.distance,
                     py_tuple3(out.distance.point_a), py_tuple3(out.distance.point_b));
}

/* ---- batches ----------------------------------------------------------------------- */

/* Queries per call of the library's batch: the shapes and answers of one
 * chunk live in buffers of a few megabytes, whatever the batch's size. */
#define PY_CHUNK 16384
#define PY_MAX_THREADS 64

/* One thread's share of a scene batch: queries [begin, end), answered a
 * chunk at a time by the library's batch call on this thread. */
typedef struct py_share {
    const sw_scene* scene;
    const py_batch* in;
    const sw_sweep_options* opt;
    const py_query* q;
    py_scene_rec* rec;
    npy_intp begin, end;
    int rc; /* 0, -1 (out of memory) or -2 (an invalid query) */
} py_share;

static int py_run_share(void* arg)
{
    py_share* sh = arg;
    const py_batch* in = sh->in;
    const npy_intp n = sh->end - sh->begin;
    const size_t chunk = (size_t)(n < PY_CHUNK ? (n > 0 ? n : 1) : PY_CHUNK);
    const int rays = in->kind == PY_BATCH_RAYS;
    sw_scene_hit* out = PyMem_RawMalloc(chunk * sizeof(sw_scene_hit));
    int* count = PyMem_RawMalloc(chunk * sizeof(int));
    sw_ray* ray = rays ? PyMem_RawMalloc(chunk * sizeof(sw_ray)) : NULL;
    sw_shape* shape = rays ? NULL : PyMem_RawMalloc(chunk * sizeof(sw_shape));
    sw_vec3* d = rays ? NULL : PyMem_RawMalloc(chunk * sizeof(sw_vec3));
    sh->rc = !out || !count || (rays ? !ray : !shape || !d) ? -1 : 0;
    for (npy_intp first = sh->begin; first < sh->end && sh->rc == 0; first += (npy_intp)chunk) {
        const int m = (int)(sh->end - first < (npy_intp)chunk ? sh->end - first : (npy_intp)chunk);
        for (int i = 0; i < m; ++i) {
            if (rays) {
                ray[i] = py_batch_ray(in, first + i);
            } else {
                shape[i] = py_batch_shape(in, first + i);
                d[i] = py_row(in->d, first + i);
            }
        }
        const int r = rays
                          ? sw_scene_raycast_batch(sh->scene, ray, m, sh->q->mode, sh->q->f, out, count, 1)
                          : sw_scene_sweep_batch(sh->scene, shape, d, m, sh->opt, sh->q->mode, sh->q->f, out, count, 1);
        for (int i = 0; i < m; ++i) {
            if (r != 0 || count[i] < 0) {
                sh->rc = -2;
                break;
            }
            py_store_scene_hit(&sh->rec[first + i], &out[i], count[i]);
        }
    }
    PyMem_RawFree(out), PyMem_RawFree(count), PyMem_RawFree(ray), PyMem_RawFree(shape), PyMem_RawFree(d);
    return 0;
}

/* Runs the shares: each on a thread of its own (the calling thread takes
 * the first); a share whose thread cannot start runs here. Contiguous
 * shares started once, rather than the library's threads for each chunk,
 * so that no chunk waits for its slowest part. */
static void py_run_shares(py_share* sh, int k)
{
#ifndef __STDC_NO_THREADS__
    thrd_t id[PY_MAX_THREADS];
    bool started[PY_MAX_THREADS] = {false};
    for (int i = 1; i < k; ++i) {
        started[i] = thrd_create(&id[i], py_run_share, &sh[i]) == thrd_success;
    }
    py_run_share(&sh[0]);
    for (int i = 1; i < k; ++i) {
        if (started[i]) {
            thrd_join(id[i], NULL);
        } else {
            py_run_share(&sh[i]);
        }
    }
#else
    for (int i = 0; i < k; ++i) {
        py_run_share(&sh[i]);
    }
#endif
}

static PyObject* py_scene_batch(SceneObject* self, py_batch_kind kind, PyObject* args, PyObject* kw)
{
    static char* sphere_names[] = {"centers",           "radii", "d",        "hits",    "skin",
                                   "ignore_separating", "mask",  "category", "threads", NULL};
    static char* capsule_names[] = {"p0",   "p1",       "radii",   "d", "hits", "skin", "ignore_separating",
                                    "mask", "category", "threads", NULL};
    static char* ray_names[] = {"origins", "dirs", "max", "hits", "mask", "category", "threads", NULL};
    PyObject *p0 = NULL, *p1 = NULL, *radii = NULL, *d = NULL, *hits = NULL, *skin = NULL, *mask = NULL, *cat = NULL;
    int ign = 0, threads = 1, ok;
    if (py_scene_ready(self, 0) < 0) {
        return NULL;
    }
    if (kind == PY_BATCH_SPHERES) {
        ok = PyArg_ParseTupleAndKeywords(args, kw, "OOO|$OOpOOi:sweep_spheres", sphere_names, &p0, &radii, &d, &hits,
                                         &skin, &ign, &mask, &cat, &threads);
    } else if (kind == PY_BATCH_CAPSULES) {
        ok = PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$OOpOOi:sweep_capsules", capsule_names, &p0, &p1, &radii, &d,
                                         &hits, &skin, &ign, &mask, &cat, &threads);
    } else {
        ok = PyArg_ParseTupleAndKeywords(args, kw, "OO|O$OOOi:raycast_many", ray_names, &p0, &d, &radii, &hits, &mask,
                                         &cat, &threads);
    }
    sw_sweep_options opt;
    py_query q;
    if (!ok || py_options(skin, ign, &opt) < 0 || py_query_get(&q, hits, mask, cat) < 0) {
        return NULL;
    }
    if (q.mode == SW_HITS_ALL) {
        PyErr_SetString(PyExc_ValueError, "batches take hits='closest' or 'any'");
        return NULL;
    }
    const char* const names[3][4] = {
        {"centers", "", "radii", "d"}, {"p0", "p1", "radii", "d"}, {"origins", "", "max", "dirs"}};
    py_batch in;
    if (py_batch_get(&in, kind, p0, p1, radii, d, names[kind]) < 0) {
        py_batch_free(&in);
        return NULL;
    }
    PyArrayObject* result = py_new_records(py_scene_dtype, in.n);
    if (!result) {
        py_batch_free(&in);
        return NULL;
    }
    /* At most one thread per chunk, and no more than PY_MAX_THREADS. */
    npy_intp k = threads < 1 ? 1 : threads > PY_MAX_THREADS ? PY_MAX_THREADS : threads;
    k = k > (in.n + PY_CHUNK - 1) / PY_CHUNK ? (in.n + PY_CHUNK - 1) / PY_CHUNK : k;
    k = k < 1 ? 1 : k;
    py_share sh[PY_MAX_THREADS];
    for (npy_intp i = 0; i < k; ++i) {
        sh[i] = (py_share){self->scene, &in, &opt, &q, PyArray_DATA(result), in.n * i / k, in.n * (i + 1) / k, 0};
    }
    ++self->readers;
    Py_BEGIN_ALLOW_THREADS py_run_shares(sh, (int)k);
    Py_END_ALLOW_THREADS-- self->readers;
    py_batch_free(&in);
    for (npy_intp i = 0; i < k; ++i) {
        if (sh[i].rc != 0) {
            Py_DECREF(result);
            return sh[i].rc == -1 ? PyErr_NoMemory()
                                  : PyErr_Format(PyExc_ValueError, "invalid input to the scene batch");
        }
    }
    return (PyObject*)result;
}

static PyObject* Scene_sweep_spheres(SceneObject* self, PyObject* args, PyObject* kw)
{
    return py_scene_batch(self, PY_BATCH_SPHERES, args, kw);
}
static PyObject* Scene_sweep_capsules(SceneObject* self, PyObject* args, PyObject* kw)
{
    return py_scene_batch(self, PY_BATCH_CAPSULES, args, kw);
}
static PyObject* Scene_raycast_many(SceneObject* self, PyObject* args, PyObject* kw)
{
    return py_scene_batch(self, PY_BATCH_RAYS, args, kw);
}

/* For the benchmark (python/bench_batch.py): the time of the library's own
 * batch call, sw_scene_sweep_batch, over spheres and displacements already
 * in C arrays (built outside the timed region), in seconds. What a C
 * program calling the library directly spends. */
static PyObject* Scene_bench_c_batch(SceneObject* self, PyObject* args)
{
    PyObject *centers, *radii, *d;
    int threads = 1;
    if (py_scene_ready(self, 0) < 0 || !PyArg_ParseTuple(args, "OOO|i", &centers, &radii, &d, &threads)) {
        return NULL;
    }
    py_batch in;
    const char* const names[4] = {"centers", "", "radii", "d"};
    if (py_batch_get(&in, PY_BATCH_SPHERES, centers, NULL, radii, d, names) < 0) {
        py_batch_free(&in);
        return NULL;
    }
    const size_t n = (size_t)in.n;
    sw_shape* shapes = PyMem_RawMalloc(n * sizeof(sw_shape) + 1);
    sw_vec3* ds = PyMem_RawMalloc(n * sizeof(sw_vec3) + 1);
    sw_scene_hit* out = PyMem_RawMalloc(n * sizeof(sw_scene_hit) + 1);
    int* count = PyMem_RawMalloc(n * sizeof(int) + 1);
    double seconds = -1;
    if (shapes && ds && out && count) {
        for (size_t i = 0; i < n; ++i) {
            shapes[i] = py_batch_shape(&in, (npy_intp)i);
            ds[i] = py_row(in.d, (npy_intp)i);
        }
        ++self->readers;
        Py_BEGIN_ALLOW_THREADS struct timespec t0, t1;
        timespec_get(&t0, TIME_UTC);
        sw_scene_sweep_batch(self->scene, shapes, ds, (int)n, NULL, SW_HITS_CLOSEST, NULL, out, count, threads);
        timespec_get(&t1, TIME_UTC);
        seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        Py_END_ALLOW_THREADS-- self->readers;
    }
    PyMem_RawFree(shapes), PyMem_RawFree(ds), PyMem_RawFree(out), PyMem_RawFree(count);
    py_batch_free(&in);
    if (seconds < 0) {
        return PyErr_NoMemory();
    }
    return PyFloat_FromDouble(seconds);
}

static PyMethodDef Scene_methods[] = {
    {"add", (PyCFunction)(void (*)(void))Scene_add, METH_VARARGS | METH_KEYWORDS,
     "add(key, shape, category=all bits, mask=all bits): adds a shape (not a plane) under an int64 key"},
    {"remove", (PyCFunction)Scene_remove, METH_VARARGS, "remove(key)"},
    {"move", (PyCFunction)(void (*)(void))Scene_move, METH_VARARGS | METH_KEYWORDS,
     "move(key, shape, velocity=(0, 0, 0), angular_velocity=(0, 0, 0)): a new shape for key, and the\n"
     "velocity it moved with (angular about the new shape's centre)"},
    {"set_filter", (PyCFunction)(void (*)(void))Scene_set_filter, METH_VARARGS | METH_KEYWORDS,
     "set_filter(key, category=all bits, mask=all bits)"},
    {"optimize", (PyCFunction)Scene_optimize, METH_NOARGS, "optimize(): rebuilds the tree (after loading many shapes)"},
    {"shape", (PyCFunction)Scene_shape, METH_VARARGS, "shape(key) -> the Shape under key"},
    {"keys", (PyCFunction)Scene_keys, METH_NOARGS, "keys() -> sorted list of keys"},
    {"raycast", (PyCFunction)(void (*)(void))Scene_raycast, METH_VARARGS | METH_KEYWORDS,
     "raycast(origin, dir, max=1, *, hits='closest', mask=None, category=None) -> SceneHit or None\n"
     "(a list in (t, key) order for hits='all')"},
    {"sweep", (PyCFunction)(void (*)(void))Scene_sweep, METH_VARARGS | METH_KEYWORDS,
     "sweep(a, d, *, hits='closest', skin=0, ignore_separating=False, mask=None, category=None)\n"
     "-> SceneHit or None (a list for hits='all')"},
    {"overlap", (PyCFunction)(void (*)(void))Scene_overlap, METH_VARARGS | METH_KEYWORDS,
     "overlap(a, *, mask=None, category=None) -> list of SceneOverlap, by key"},
    {"closest", (PyCFunction)(void (*)(void))Scene_closest, METH_VARARGS | METH_KEYWORDS,
     "closest(a, max_distance=None, *, mask=None, category=None) -> SceneDistance or None"},
    {"contacts", (PyCFunction)(void (*)(void))Scene_contacts, METH_VARARGS | METH_KEYWORDS,
     "contacts(a, margin, *, mask=None, category=None) -> list of Contact, by key"},
    {"sweep_spheres", (PyCFunction)(void (*)(void))Scene_sweep_spheres, METH_VARARGS | METH_KEYWORDS,
     "sweep_spheres(centers, radii, d, *, hits='closest', skin=0, ignore_separating=False, mask=None,\n"
     "category=None, threads=1) -> array of scene_hit_dtype (key and hit = False where nothing is hit)"},
    {"sweep_capsules", (PyCFunction)(void (*)(void))Scene_sweep_capsules, METH_VARARGS | METH_KEYWORDS,
     "sweep_capsules(p0, p1, radii, d, *, hits='closest', ...) -> array of scene_hit_dtype"},
    {"raycast_many", (PyCFunction)(void (*)(void))Scene_raycast_many, METH_VARARGS | METH_KEYWORDS,
     "raycast_many(origins, dirs, max=1, *, hits='closest', mask=None, category=None, threads=1)\n"
     "-> array of scene_hit_dtype"},
    {"_bench_c_batch", (PyCFunction)Scene_bench_c_batch, METH_VARARGS,
     "_bench_c_batch(centers, radii, d, threads=1) -> seconds of the C batch call alone (benchmarks)"},
    {NULL}};

static PySequenceMethods Scene_as_sequence = {
    .sq_length = (lenfunc)Scene_len,
    .sq_contains = (objobjproc)Scene_contains,
};

static PyTypeObject SceneType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = PY_QUALIFIED("Scene"),
    .tp_basicsize = sizeof(SceneObject),
    .tp_dealloc = (destructor)Scene_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Scene(): many static shapes under int64 keys, in an incremental tree; every query answers\n"
              "over all of them. Queries release the GIL; the scene cannot change while one runs.",
    .tp_as_sequence = &Scene_as_sequence,
    .tp_methods = Scene_methods,
    .tp_init = (initproc)Scene_init,
    .tp_new = PyType_GenericNew,
};
