/* The Python module over the library: shapes, hulls, meshes and scenes as
 * Python objects, every query, and numpy batches that run without the GIL.
 *
 * Compiled twice (float.c, double.c), once per precision, against the
 * single header; SWEEP_DOUBLE decides sw_real and the module's name. Every
 * number a caller gives is checked before the library sees it (finite,
 * within SW_MAX_COORD, radii >= 0), so a bad value is a Python exception
 * naming the argument, never a NaN passed off as an answer. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#ifndef __STDC_NO_THREADS__
#include <threads.h>
#endif

#include <sweep.h>

#include "meshio.h"

#ifdef SWEEP_DOUBLE
#define PY_MODULE_NAME "_double"
#define PY_INIT PyInit__double
#define NPY_REAL NPY_FLOAT64
#else
#define PY_MODULE_NAME "_float"
#define PY_INIT PyInit__float
#define NPY_REAL NPY_FLOAT32
#endif
#define PY_QUALIFIED(name) "sweep." PY_MODULE_NAME "." name

/* ---- numbers and vectors ------------------------------------------------- */

/* x as sw_real: finite and within SW_MAX_COORD (and >= 0 when nonneg). */
static int py_real(PyObject* obj, const char* what, int nonneg, sw_real* out)
{
    const double x = PyFloat_AsDouble(obj);
    if (x == -1.0 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "%s must be a real number", what);
        return -1;
    }
    if (!isfinite(x) || fabs(x) > (double)SW_MAX_COORD) {
        char limit[32];
        PyOS_snprintf(limit, sizeof limit, "%g", (double)SW_MAX_COORD);
        PyErr_Format(PyExc_ValueError, "%s must be finite and within %s in magnitude (got %R)", what, limit, obj);
        return -1;
    }
    if (nonneg && x < 0) {
        PyErr_Format(PyExc_ValueError, "%s must be >= 0 (got %R)", what, obj);
        return -1;
    }
    *out = (sw_real)x;
    return 0;
}

/* A sequence of n reals (a list, tuple or numpy array). */
static int py_reals(PyObject* obj, const char* what, int n, sw_real* out)
{
    PyObject* seq = PySequence_Fast(obj, "");
    if (!seq) {
        PyErr_Format(PyExc_TypeError, "%s must be a sequence of %d numbers", what, n);
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s must have %d components (got %zd)", what, n, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        if (py_real(PySequence_Fast_GET_ITEM(seq, i), what, 0, &out[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static int py_vec3(PyObject* obj, const char* what, sw_vec3* v)
{
    sw_real r[3];
    if (py_reals(obj, what, 3, r) < 0) {
        return -1;
    }
    *v = sw_v3(r[0], r[1], r[2]);
    return 0;
}

/* A rotation [qx, qy, qz, qw]; None is the identity. */
static int py_quat(PyObject* obj, const char* what, sw_quat* q)
{
    if (!obj || obj == Py_None) {
        *q = sw_quat_identity();
        return 0;
    }
    sw_real r[4];
    if (py_reals(obj, what, 4, r) < 0) {
        return -1;
    }
    if (r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 0) {
        PyErr_Format(PyExc_ValueError, "%s must not be the zero quaternion", what);
        return -1;
    }
    q->x = r[0], q->y = r[1], q->z = r[2], q->w = r[3];
    return 0;
}

static PyObject* py_tuple3(sw_vec3 v) { return Py_BuildValue("(ddd)", (double)v.x, (double)v.y, (double)v.z); }

/* ---- numpy arrays ---------------------------------------------------------- */

/* obj as a C-contiguous array of sw_real of shape (n, cols) (cols 0: shape
 * (n,)); n < 0 takes the array's own length. Integer and floating dtypes
 * are converted; any other dtype, or another shape, is a TypeError or
 * ValueError naming the argument. */
static PyArrayObject* py_real_array(PyObject* obj, const char* what, npy_intp n, int cols)
{
    PyArrayObject* raw = (PyArrayObject*)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (!raw) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be an array of numbers", what);
        return NULL;
    }
    const char kind = PyArray_DESCR(raw)->kind;
    if (kind != 'f' && kind != 'i' && kind != 'u') {
        PyErr_Format(PyExc_TypeError, "%s must hold real numbers (got dtype %R)", what, PyArray_DESCR(raw));
        Py_DECREF(raw);
        return NULL;
    }
    const int want_ndim = cols ? 2 : 1;
    if (PyArray_NDIM(raw) != want_ndim || (cols && PyArray_DIM(raw, 1) != cols) ||
        (n >= 0 && PyArray_DIM(raw, 0) != n)) {
        if (cols) {
            PyErr_Format(PyExc_ValueError, "%s must have shape (%s, %d)", what, n >= 0 ? "N" : "n", cols);
        } else {
            PyErr_Format(PyExc_ValueError, "%s must have shape (N,)", what);
        }
        Py_DECREF(raw);
        return NULL;
    }
    PyArrayObject* a =
        (PyArrayObject*)PyArray_FROM_OTF((PyObject*)raw, NPY_REAL, NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(raw);
    return a;
}

/* Checks every value of a converted real array (finite, within
 * SW_MAX_COORD, and >= 0 when nonneg); names the first bad one. A float64
 * value beyond the float range became infinity in the conversion, so it
 * is caught here too. */
static int py_check_array(PyArrayObject* a, const char* what, int nonneg)
{
    const sw_real* v = PyArray_DATA(a);
    const npy_intp count = PyArray_SIZE(a);
    for (npy_intp i = 0; i < count; ++i) {
        if (!sw_is_valid_real(v[i]) || (nonneg && v[i] < 0)) {
            const int cols = PyArray_NDIM(a) == 2 ? (int)PyArray_DIM(a, 1) : 1;
            char value[48];
            PyOS_snprintf(value, sizeof value, "%g", (double)v[i]);
            const char* why = nonneg && v[i] < 0 ? "negative" : "not finite or beyond the coordinate limit";
            if (cols > 1) {
                PyErr_Format(PyExc_ValueError, "%s[%zd][%d] = %s is %s", what, (Py_ssize_t)(i / cols), (int)(i % cols),
                             value, why);
            } else {
                PyErr_Format(PyExc_ValueError, "%s[%zd] = %s is %s", what, (Py_ssize_t)i, value, why);
            }
            return -1;
        }
    }
    return 0;
}

/* A radius argument of a batch: a number (every query) or an array (N,). */
typedef struct py_radii {
    PyArrayObject* array; /* NULL when one value */
    sw_real value;
} py_radii;

static int py_get_radii(PyObject* obj, const char* what, npy_intp n, py_radii* r)
{
    r->array = NULL;
    if (PyFloat_Check(obj) || PyLong_Check(obj) || PyArray_IsScalar(obj, Number)) {
        return py_real(obj, what, 1, &r->value);
    }
    r->array = py_real_array(obj, what, n, 0);
    if (!r->array || py_check_array(r->array, what, 1) < 0) {
        Py_XDECREF(r->array);
        r->array = NULL;
        return -1;
    }
    return 0;
}

static sw_real py_radius_at(const py_radii* r, npy_intp i)
{
    return r->array ? ((const sw_real*)PyArray_DATA(r->array))[i] : r->value;
}

/* ---- results ----------------------------------------------------------------- */

static PyTypeObject HitType, OverlapType, DistanceType, SceneHitType, SceneOverlapType, SceneDistanceType, ContactType;

static PyStructSequence_Field hit_fields[] = {
    {"hit", "A touches B at some t in [0, 1] (ray: [0, max])"},
    {"overlapping", "A already touches B (within skin) at t = 0"},
    {"t", "time of impact, a fraction of d (ray: in units of dir)"},
    {"depth", "penetration depth at t = 0 (0 for a contact at t > 0)"},
    {"point", "contact point (x, y, z)"},
    {"normal", "unit normal from B toward A"},
    {"feature", "(kind, index) of B's feature hit: kind 'none', 'vertex', 'edge' or 'face'"},
    {"triangle", "for a mesh B, the index of the triangle hit; else 0"},
    {NULL, NULL}};
static PyStructSequence_Desc hit_desc = {PY_QUALIFIED("Hit"), "The answer of a sweep or ray cast.", hit_fields, 8};

static PyStructSequence_Field overlap_fields[] = {
    {"overlapping", "the shapes touch or overlap"},
    {"depth", "penetration depth"},
    {"normal", "direction of the shortest translation of A that separates them"},
    {"point", "a deepest point of A"},
    {NULL, NULL}};
static PyStructSequence_Desc overlap_desc = {PY_QUALIFIED("Overlap"), "The answer of an overlap query.", overlap_fields,
                                             4};

static PyStructSequence_Field distance_fields[] = {
    {"distance", "distance between the shapes (0 when they touch or overlap)"},
    {"point_a", "closest point on A"},
    {"point_b", "closest point on B"},
    {NULL, NULL}};
static PyStructSequence_Desc distance_desc = {PY_QUALIFIED("Distance"), "The answer of a distance query.",
                                              distance_fields, 3};

static PyStructSequence_Field scene_hit_fields[] = {
    {"key", "the key of the shape hit"},
    {"hit", "always True"},
    {"overlapping", "A already touches the shape at t = 0"},
    {"t", "time of impact"},
    {"depth", "penetration depth at t = 0"},
    {"point", "contact point"},
    {"normal", "unit normal from the shape toward A"},
    {"feature", "(kind, index) of the shape's feature hit"},
    {"triangle", "for a mesh, the index of the triangle hit; else 0"},
    {"velocity", "the shape's linear velocity (Scene.move)"},
    {"angular_velocity", "the shape's angular velocity about its centre"},
    {"point_velocity", "velocity of the shape's material at the contact point"},
    {NULL, NULL}};
static PyStructSequence_Desc scene_hit_desc = {
    PY_QUALIFIED("SceneHit"), "One shape's answer to a scene sweep or ray cast.", scene_hit_fields, 12};

static PyStructSequence_Field scene_overlap_fields[] = {{"key", "the key of the shape"},
                                                        {"depth", "penetration depth"},
                                                        {"normal", "separating direction, toward A"},
                                                        {"point", "a deepest point of A"},
                                                        {NULL, NULL}};
static PyStructSequence_Desc scene_overlap_desc = {PY_QUALIFIED("SceneOverlap"), "A shape A overlaps in a scene.",
                                                   scene_overlap_fields, 4};

static PyStructSequence_Field scene_distance_fields[] = {{"key", "the key of the closest shape"},
                                                         {"distance", "its distance to A"},
                                                         {"point_a", "closest point on A"},
                                                         {"point_b", "closest point on the shape"},
                                                         {NULL, NULL}};
static PyStructSequence_Desc scene_distance_desc = {PY_QUALIFIED("SceneDistance"), "The closest shape of a scene.",
                                                    scene_distance_fields, 4};

static PyStructSequence_Field contact_fields[] = {{"key", "the key of the shape"},
                                                  {"distance", "signed distance (negative: penetration depth)"},
                                                  {"point_a", "closest point on A (a deepest point when overlapping)"},
                                                  {"point_b", "closest point on the shape"},
                                                  {"normal", "unit normal from the shape toward A"},
                                                  {"triangle", "for a mesh, the triangle nearest A; else 0"},
                                                  {"velocity", "the shape's linear velocity"},
                                                  {"angular_velocity", "the shape's angular velocity"},
                                                  {"point_velocity", "velocity of the shape's material at point_b"},
                                                  {NULL, NULL}};
static PyStructSequence_Desc contact_desc = {PY_QUALIFIED("Contact"), "A shape within a margin of A.", contact_fields,
                                             9};

static PyObject* py_feature(sw_feature f) { return Py_BuildValue("(si)", sw_feature_kind_name(f.kind), f.index); }

/* Fills items [first, first + 8) of a struct sequence with a hit's fields. */
static int py_fill_hit(PyObject* seq, int first, const sw_hit* h)
{
    PyObject* items[8] = {PyBool_FromLong(h->hit),
                          PyBool_FromLong(h->overlapping),
                          PyFloat_FromDouble((double)h->t),
                          PyFloat_FromDouble((double)h->depth),
                          py_tuple3(h->point),
                          py_tuple3(h->normal),
                          py_feature(h->feature),
                          PyLong_FromLong(h->triangle)};
    int ok = 1;
    for (int i = 0; i < 8; ++i) {
        if (!items[i]) {
            ok = 0;
        }
    }
    if (!ok) {
        for (int i = 0; i < 8; ++i) {
            Py_XDECREF(items[i]);
        }
        return -1;
    }
    for (int i = 0; i < 8; ++i) {
        PyStructSequence_SET_ITEM(seq, first + i, items[i]);
    }
    return 0;
}

/* A struct sequence of `type` from Py_BuildValue-style values, one per field. */
static PyObject* py_record(PyTypeObject* type, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    PyObject* values = Py_VaBuildValue(fmt, ap);
    va_end(ap);
    if (!values) {
        return NULL;
    }
    PyObject* seq = PyStructSequence_New(type);
    if (!seq) {
        Py_DECREF(values);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(values); ++i) {
        PyObject* item = PyTuple_GET_ITEM(values, i);
        Py_INCREF(item);
        PyStructSequence_SET_ITEM(seq, i, item);
    }
    Py_DECREF(values);
    return seq;
}

static PyObject* py_hit(const sw_hit* h)
{
    PyObject* seq = PyStructSequence_New(&HitType);
    if (seq && py_fill_hit(seq, 0, h) < 0) {
        Py_CLEAR(seq);
    }
    return seq;
}

static PyObject* py_overlap(const sw_overlap_result* o)
{
    return py_record(&OverlapType, "(OdNN)", o->overlapping ? Py_True : Py_False, (double)o->depth,
                     py_tuple3(o->normal), py_tuple3(o->point));
}

static PyObject* py_distance(const sw_distance_result* d)
{
    return py_record(&DistanceType, "(dNN)", (double)d->distance, py_tuple3(d->point_a), py_tuple3(d->point_b));
}

static PyObject* py_scene_hit(const sw_scene_hit* s)
{
    PyObject* seq = PyStructSequence_New(&SceneHitType);
    if (!seq) {
        return NULL;
    }
    PyObject* key = PyLong_FromLongLong(s->key);
    PyObject* v = py_tuple3(s->velocity);
    PyObject* w = py_tuple3(s->angular_velocity);
    PyObject* pv = py_tuple3(s->point_velocity);
    if (!key || !v || !w || !pv || py_fill_hit(seq, 1, &s->hit) < 0) {
        Py_XDECREF(key), Py_XDECREF(v), Py_XDECREF(w), Py_XDECREF(pv);
        Py_DECREF(seq);
        return NULL;
    }
    PyStructSequence_SET_ITEM(seq, 0, key);
    PyStructSequence_SET_ITEM(seq, 9, v);
    PyStructSequence_SET_ITEM(seq, 10, w);
    PyStructSequence_SET_ITEM(seq, 11, pv);
    return seq;
}

/* ---- Shape ------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD sw_shape s;
    PyObject* owner; /* the Hull or Mesh the shape places, or NULL */
    sw_vec3 polygon[SW_MAX_POLYGON_VERTICES];
} ShapeObject;

static PyTypeObject ShapeType;

static PyObject* py_new_shape(sw_shape s, PyObject* owner)
{
    ShapeObject* o = PyObject_New(ShapeObject, &ShapeType);
    if (!o) {
        return NULL;
    }
    o->s = s;
    o->owner = owner;
    Py_XINCREF(owner);
    if (s.type == SW_SHAPE_POLYGON) {
        memcpy(o->polygon, s.polygon.v, (size_t)s.polygon.count * sizeof(sw_vec3));
        o->s.polygon.v = o->polygon;
    }
    const char* reason = sw_shape_invalid_reason(&o->s);
    if (reason) {
        PyErr_Format(PyExc_ValueError, "invalid %s: %s", sw_shape_type_name(s.type), reason);
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject*)o;
}

static void Shape_dealloc(ShapeObject* self)
{
    Py_XDECREF(self->owner);
    PyObject_Free(self);
}

static PyObject* Shape_get_type(ShapeObject* self, void* closure)
{
    (void)closure;
    return PyUnicode_FromString(sw_shape_type_name(self->s.type));
}

static PyObject* Shape_bounds(ShapeObject* self, PyObject* noargs)
{
    (void)noargs;
    if (self->s.type == SW_SHAPE_PLANE) {
        PyErr_SetString(PyExc_ValueError, "a plane has no bounds");
        return NULL;
    }
    const sw_aabb b = sw_shape_bounds(&self->s);
    return Py_BuildValue("(NN)", py_tuple3(b.min), py_tuple3(b.max));
}

static PyObject* Shape_repr(ShapeObject* self)
{
    const sw_shape* s = &self->s;
    char buf[256];
    switch (s->type) {
    case SW_SHAPE_POINT:
        PyOS_snprintf(buf, sizeof buf, "point(%g, %g, %g)", (double)s->point.x, (double)s->point.y, (double)s->point.z);
        break;
    case SW_SHAPE_SPHERE:
        PyOS_snprintf(buf, sizeof buf, "sphere(center=(%g, %g, %g), radius=%g)", (double)s->sphere.center.x,
                      (double)s->sphere.center.y, (double)s->sphere.center.z, (double)s->sphere.radius);
        break;
    case SW_SHAPE_CAPSULE:
        PyOS_snprintf(buf, sizeof buf, "capsule(a=(%g, %g, %g), b=(%g, %g, %g), radius=%g)", (double)s->capsule.a.x,
                      (double)s->capsule.a.y, (double)s->capsule.a.z, (double)s->capsule.b.x, (double)s->capsule.b.y,
                      (double)s->capsule.b.z, (double)s->capsule.radius);
        break;
    case SW_SHAPE_BOX:
        PyOS_snprintf(buf, sizeof buf, "box(center=(%g, %g, %g), half=(%g, %g, %g))", (double)s->box.center.x,
                      (double)s->box.center.y, (double)s->box.center.z, (double)s->box.half.x, (double)s->box.half.y,
                      (double)s->box.half.z);
        break;
    case SW_SHAPE_POLYGON:
        PyOS_snprintf(buf, sizeof buf, "polygon(%d vertices)", s->polygon.count);
        break;
    case SW_SHAPE_HULL:
        PyOS_snprintf(buf, sizeof buf, "hull(%d vertices, position=(%g, %g, %g))", s->hull.hull->vertex_count,
                      (double)s->hull.position.x, (double)s->hull.position.y, (double)s->hull.position.z);
        break;
    case SW_SHAPE_MESH:
        PyOS_snprintf(buf, sizeof buf, "mesh(%d triangles, position=(%g, %g, %g))",
                      sw_mesh_get_info(s->mesh.mesh).triangle_count, (double)s->mesh.position.x,
                      (double)s->mesh.position.y, (double)s->mesh.position.z);
        break;
    default:
        PyOS_snprintf(buf, sizeof buf, "%s(...)", sw_shape_type_name(s->type));
        break;
    }
    return PyUnicode_FromFormat("<sweep %s %s>", SW_PRECISION_NAME, buf);
}

static PyGetSetDef Shape_getset[] = {
    {"type", (getter)Shape_get_type, NULL, "the shape's type name ('sphere', 'box', ...)", NULL}, {NULL}};
static PyMethodDef Shape_methods[] = {
    {"bounds", (PyCFunction)Shape_bounds, METH_NOARGS, "bounds() -> ((min x, y, z), (max x, y, z))"}, {NULL}};

static PyTypeObject ShapeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = PY_QUALIFIED("Shape"),
    .tp_basicsize = sizeof(ShapeObject),
    .tp_dealloc = (destructor)Shape_dealloc,
    .tp_repr = (reprfunc)Shape_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A shape (immutable). Made by point(), segment(), sphere(), capsule(), box(), plane(),\n"
              "triangle(), polygon(), Hull.place() and Mesh.place().",
    .tp_getset = Shape_getset,
    .tp_methods = Shape_methods,
};

static int py_shape_arg(PyObject* obj, const char* what, const sw_shape** s)
{
    if (!PyObject_TypeCheck(obj, &ShapeType)) {
        PyErr_Format(PyExc_TypeError, "%s must be a sweep shape of this module's precision (%s), not %.100s", what,
                     SW_PRECISION_NAME, Py_TYPE(obj)->tp_name);
        return -1;
    }
    *s = &((ShapeObject*)obj)->s;
    return 0;
}

/* ---- shape constructors ---------------------------------------------------- */

static PyObject* py_point(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"p", NULL};
    PyObject* p;
    sw_vec3 v;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:point", names, &p) || py_vec3(p, "p", &v) < 0) {
        return NULL;
    }
    return py_new_shape(sw_make_point(v), NULL);
}

static PyObject* py_segment(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"a", "b", NULL};
    PyObject *a, *b;
    sw_vec3 va, vb;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:segment", names, &a, &b) || py_vec3(a, "a", &va) < 0 ||
        py_vec3(b, "b", &vb) < 0) {
        return NULL;
    }
    return py_new_shape(sw_make_segment(va, vb), NULL);
}

static PyObject* py_sphere(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"center", "radius", NULL};
    PyObject *c, *r;
    sw_vec3 vc;
    sw_real rr;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:sphere", names, &c, &r) || py_vec3(c, "center", &vc) < 0 ||
        py_real(r, "radius", 1, &rr) < 0) {
        return NULL;
    }
    return py_new_shape(sw_make_sphere(vc, rr), NULL);
}

static PyObject* py_capsule(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"a", "b", "radius", NULL};
    PyObject *a, *b, *r;
    sw_vec3 va, vb;
    sw_real rr;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO:capsule", names, &a, &b, &r) || py_vec3(a, "a", &va) < 0 ||
        py_vec3(b, "b", &vb) < 0 || py_real(r, "radius", 1, &rr) < 0) {
        return NULL;
    }
    return py_new_shape(sw_make_capsule(va, vb, rr), NULL);
}

static PyObject* py_box(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"center", "half", "rotation", NULL};
    PyObject *c, *h, *q = NULL;
    sw_vec3 vc, vh;
    sw_quat rq;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:box", names, &c, &h, &q) || py_vec3(c, "center", &vc) < 0 ||
        py_vec3(h, "half", &vh) < 0 || py_quat(q, "rotation", &rq) < 0) {
        return NULL;
    }
    return py_new_shape(sw_make_box(vc, vh, rq), NULL);
}

static PyObject* py_plane(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"normal", "offset", NULL};
    PyObject *n, *d;
    sw_vec3 vn;
    sw_real off;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:plane", names, &n, &d) || py_vec3(n, "normal", &vn) < 0 ||
        py_real(d, "offset", 0, &off) < 0) {
        return NULL;
    }
    return py_new_shape(sw_make_plane(vn, off), NULL);
}

static PyObject* py_triangle(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"v0", "v1", "v2", "one_sided", NULL};
    PyObject *a, *b, *c;
    int one_sided = 0;
    sw_vec3 v[3];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|p:triangle", names, &a, &b, &c, &one_sided) ||
        py_vec3(a, "v0", &v[0]) < 0 || py_vec3(b, "v1", &v[1]) < 0 || py_vec3(c, "v2", &v[2]) < 0) {
        return NULL;
    }
    return py_new_shape(sw_make_triangle(v[0], v[1], v[2], one_sided != 0), NULL);
}

static PyObject* py_polygon(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"vertices", "one_sided", NULL};
    PyObject* obj;
    int one_sided = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|p:polygon", names, &obj, &one_sided)) {
        return NULL;
    }
    PyArrayObject* a = py_real_array(obj, "vertices", -1, 3);
    if (!a) {
        return NULL;
    }
    const npy_intp n = PyArray_DIM(a, 0);
    if (n < 3 || n > SW_MAX_POLYGON_VERTICES) {
        PyErr_Format(PyExc_ValueError, "a polygon has 3 to %d vertices (got %zd)", SW_MAX_POLYGON_VERTICES,
                     (Py_ssize_t)n);
        Py_DECREF(a);
        return NULL;
    }
    if (py_check_array(a, "vertices", 0) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    sw_vec3 v[SW_MAX_POLYGON_VERTICES];
    const sw_real* r = PyArray_DATA(a);
    for (npy_intp i = 0; i < n; ++i) {
        v[i] = sw_v3(r[3 * i], r[3 * i + 1], r[3 * i + 2]);
    }
    Py_DECREF(a);
    return py_new_shape(sw_make_polygon(v, (int)n, one_sided != 0), NULL);
}

/* ---- Hull ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD sw_hull* hull;
} HullObject;

static PyTypeObject HullType;

/* Copies an (n, 3) real array into sw_vec3s (PyMem; the caller frees). */
static sw_vec3* py_vec3s(PyArrayObject* a)
{
    const npy_intp n = PyArray_DIM(a, 0);
    sw_vec3* v = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof(sw_vec3));
    if (!v) {
        PyErr_NoMemory();
        return NULL;
    }
    const sw_real* r = PyArray_DATA(a);
    for (npy_intp i = 0; i < n; ++i) {
        v[i] = sw_v3(r[3 * i], r[3 * i + 1], r[3 * i + 2]);
    }
    return v;
}

static int Hull_init(HullObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"points", NULL};
    PyObject* obj;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:Hull", names, &obj)) {
        return -1;
    }
    PyArrayObject* a = py_real_array(obj, "points", -1, 3);
    if (!a) {
        return -1;
    }
    if (py_check_array(a, "points", 0) < 0) {
        Py_DECREF(a);
        return -1;
    }
    const npy_intp n = PyArray_DIM(a, 0);
    if (n < 4 || n > SW_MAX_HULL_POINTS) {
        PyErr_Format(PyExc_ValueError, "a hull takes 4 to %d points (got %zd)", SW_MAX_HULL_POINTS, (Py_ssize_t)n);
        Py_DECREF(a);
        return -1;
    }
    sw_vec3* v = py_vec3s(a);
    Py_DECREF(a);
    if (!v) {
        return -1;
    }
    sw_hull_error err = SW_HULL_OK;
    sw_hull* hull = sw_hull_create(v, (int)n, &err);
    PyMem_Free(v);
    if (!hull) {
        PyErr_Format(PyExc_ValueError, "points: %s", sw_hull_error_string(err));
        return -1;
    }
    sw_hull_destroy(self->hull);
    self->hull = hull;
    return 0;
}

static void Hull_dealloc(HullObject* self)
{
    sw_hull_destroy(self->hull);
    Py_TYPE(self)->tp_free((PyObject*)self);
}

static int py_hull_ready(HullObject* self)
{
    if (!self->hull) {
        PyErr_SetString(PyExc_ValueError, "this Hull was not initialised");
        return -1;
    }
    return 0;
}

static PyObject* Hull_place(HullObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"position", "rotation", NULL};
    PyObject *p = NULL, *q = NULL;
    sw_vec3 pos = sw_v3(0, 0, 0);
    sw_quat rot;
    if (py_hull_ready(self) < 0 || !PyArg_ParseTupleAndKeywords(args, kw, "|OO:place", names, &p, &q) ||
        (p && py_vec3(p, "position", &pos) < 0) || py_quat(q, "rotation", &rot) < 0) {
        return NULL;
    }
    return py_new_shape(sw_make_hull(self->hull, pos, rot), (PyObject*)self);
}

static PyObject* Hull_get_vertices(HullObject* self, void* closure)
{
    (void)closure;
    if (py_hull_ready(self) < 0) {
        return NULL;
    }
    npy_intp dims[2] = {self->hull->vertex_count, 3};
    PyArrayObject* a = (PyArrayObject*)PyArray_SimpleNew(2, dims, NPY_REAL);
    if (a) {
        memcpy(PyArray_DATA(a), self->hull->vertices, (size_t)dims[0] * sizeof(sw_vec3));
    }
    return (PyObject*)a;
}

static PyObject* Hull_get_counts(HullObject* self, void* which)
{
    if (py_hull_ready(self) < 0) {
        return NULL;
    }
    const intptr_t k = (intptr_t)which;
    return PyLong_FromLong(k == 0   ? self->hull->vertex_count
                           : k == 1 ? self->hull->edge_count
                                    : self->hull->face_count);
}

static PyGetSetDef Hull_getset[] = {
    {"vertices", (getter)Hull_get_vertices, NULL, "the hull's vertices, (n, 3), in feature order", NULL},
    {"vertex_count", (getter)Hull_get_counts, NULL, "number of vertices", (void*)0},
    {"edge_count", (getter)Hull_get_counts, NULL, "number of edges", (void*)1},
    {"face_count", (getter)Hull_get_counts, NULL, "number of faces", (void*)2},
    {NULL}};
static PyMethodDef Hull_methods[] = {
    {"place", (PyCFunction)(void (*)(void))Hull_place, METH_VARARGS | METH_KEYWORDS,
     "place(position=(0, 0, 0), rotation=None) -> Shape: the hull rotated, then moved to position"},
    {NULL}};

static PyTypeObject HullType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = PY_QUALIFIED("Hull"),
    .tp_basicsize = sizeof(HullObject),
    .tp_dealloc = (destructor)Hull_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Hull(points): the convex hull of an (n, 3) array of points (4 to 100000 of them).\n"
              "ValueError when the points are flat, degenerate or give more than 1024 vertices.",
    .tp_getset = Hull_getset,
    .tp_methods = Hull_methods,
    .tp_init = (initproc)Hull_init,
    .tp_new = PyType_GenericNew,
};

/* ---- Mesh ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD sw_mesh* mesh;
} MeshObject;

static PyTypeObject MeshType;

static int py_mesh_build(MeshObject* self, const sw_vec3* v, int nv, const int* idx, int nt)
{
    sw_mesh_error err = SW_MESH_OK;
    sw_mesh* mesh;
    Py_BEGIN_ALLOW_THREADS mesh = sw_mesh_create(v, nv, idx, nt, &err);
    Py_END_ALLOW_THREADS if (!mesh)
    {
        PyErr_Format(err == SW_MESH_OUT_OF_MEMORY ? PyExc_MemoryError : PyExc_ValueError, "mesh: %s",
                     sw_mesh_error_string(err));
        return -1;
    }
    sw_mesh_destroy(self->mesh);
    self->mesh = mesh;
    return 0;
}

static int Mesh_init(MeshObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"vertices", "indices", NULL};
    PyObject *vobj, *iobj;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:Mesh", names, &vobj, &iobj)) {
        return -1;
    }
    PyArrayObject* va = py_real_array(vobj, "vertices", -1, 3);
    if (!va) {
        return -1;
    }
    if (py_check_array(va, "vertices", 0) < 0) {
        Py_DECREF(va);
        return -1;
    }
    PyArrayObject* raw = (PyArrayObject*)PyArray_FromAny(iobj, NULL, 0, 0, 0, NULL);
    if (!raw || (PyArray_DESCR(raw)->kind != 'i' && PyArray_DESCR(raw)->kind != 'u')) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "indices must be an array of integers, shape (T, 3)");
        Py_XDECREF(raw);
        Py_DECREF(va);
        return -1;
    }
    if (PyArray_NDIM(raw) != 2 || PyArray_DIM(raw, 1) != 3) {
        PyErr_SetString(PyExc_ValueError, "indices must have shape (T, 3)");
        Py_DECREF(raw);
        Py_DECREF(va);
        return -1;
    }
    PyArrayObject* ia =
        (PyArrayObject*)PyArray_FROM_OTF((PyObject*)raw, NPY_INT64, NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(raw);
    if (!ia) {
        Py_DECREF(va);
        return -1;
    }
    const npy_intp nv = PyArray_DIM(va, 0), nt = PyArray_DIM(ia, 0);
    int rc = -1;
    sw_vec3* v = NULL;
    int* idx = NULL;
    if (nv < 1 || nt < 1 || nv > SW_MAX_MESH_TRIANGLES || nt > SW_MAX_MESH_TRIANGLES) {
        PyErr_Format(PyExc_ValueError, "a mesh has 1 to %d vertices and triangles (got %zd and %zd)",
                     SW_MAX_MESH_TRIANGLES, (Py_ssize_t)nv, (Py_ssize_t)nt);
        goto done;
    }
    const int64_t* i64 = PyArray_DATA(ia);
    for (npy_intp i = 0; i < 3 * nt; ++i) {
        if (i64[i] < 0 || i64[i] >= nv) {
            PyErr_Format(PyExc_ValueError, "indices[%zd][%d] = %lld is not a vertex index (0 to %zd)",
                         (Py_ssize_t)(i / 3), (int)(i % 3), (long long)i64[i], (Py_ssize_t)(nv - 1));
            goto done;
        }
    }
    v = py_vec3s(va);
    idx = PyMem_Malloc((size_t)(3 * nt) * sizeof(int));
    if (!v || !idx) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        goto done;
    }
    for (npy_intp i = 0; i < 3 * nt; ++i) {
        idx[i] = (int)i64[i];
    }
    rc = py_mesh_build(self, v, (int)nv, idx, (int)nt);
done:
    PyMem_Free(v);
    PyMem_Free(idx);
    Py_DECREF(va);
    Py_DECREF(ia);
    return rc;
}

static PyObject* Mesh_load(PyObject* cls, PyObject* args)
{
    PyObject* path_obj;
    if (!PyArg_ParseTuple(args, "O&:load", PyUnicode_FSConverter, &path_obj)) {
        return NULL;
    }
    const char* path = PyBytes_AS_STRING(path_obj);
    MeshObject* self = (MeshObject*)((PyTypeObject*)cls)->tp_alloc((PyTypeObject*)cls, 0);
    if (!self) {
        Py_DECREF(path_obj);
        return NULL;
    }
    char err[512];
    const sw_meshio_data* d = NULL;
    int rc;
    /* assimp's reader and the meshio cache run under the GIL: the cache
     * is not thread-safe. The file's data is dropped once the mesh is
     * built, so that loading many files does not keep them all. */
    rc = sw_meshio_load(path, &d, err, sizeof err);
    if (rc == 0) {
        rc = py_mesh_build(self, d->vertices, d->vertex_count, d->indices, d->triangle_count);
    } else {
        PyErr_Format(PyExc_OSError, "%s", err);
    }
    sw_meshio_clear();
    Py_DECREF(path_obj);
    if (rc < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject*)self;
}

static void Mesh_dealloc(MeshObject* self)
{
    sw_mesh_destroy(self->mesh);
    Py_TYPE(self)->tp_free((PyObject*)self);
}

static int py_mesh_ready(MeshObject* self)
{
    if (!self->mesh) {
        PyErr_SetString(PyExc_ValueError, "this Mesh was not initialised");
        return -1;
    }
    return 0;
}

static PyObject* Mesh_place(MeshObject* self, PyObject* args, PyObject* kw)
{
    static char* names[] = {"position", "rotation", "one_sided", NULL};
    PyObject *p = NULL, *q = NULL;
    int one_sided = 0;
    sw_vec3 pos = sw_v3(0, 0, 0);
    sw_quat rot;
    if (py_mesh_ready(self) < 0 || !PyArg_ParseTupleAndKeywords(args, kw, "|OOp:place", names, &p, &q, &one_sided) ||
        (p && py_vec3(p, "position", &pos) < 0) || py_quat(q, "rotation", &rot) < 0) {
        return NULL;
    }
    return py_new_shape(sw_make_mesh(self->mesh, pos, rot, one_sided != 0), (PyObject*)self);
}

static PyObject* Mesh_triangle(MeshObject* self, PyObject* args)
{
    int i;
    if (py_mesh_ready(self) < 0 || !PyArg_ParseTuple(args, "i:triangle", &i)) {
        return NULL;
    }
    sw_vec3 v[3];
    if (!sw_mesh_triangle(self->mesh, i, v, NULL)) {
        PyErr_Format(PyExc_IndexError, "triangle %d out of range", i);
        return NULL;
    }
    return Py_BuildValue("(NNN)", py_tuple3(v[0]), py_tuple3(v[1]), py_tuple3(v[2]));
}

static PyObject* Mesh_get_info(MeshObject* self, void* which)
{
    if (py_mesh_ready(self) < 0) {
        return NULL;
    }
    const sw_mesh_info info = sw_mesh_get_info(self->mesh);
    switch ((intptr_t)which) {
    case 0:
        return PyLong_FromLong(info.vertex_count);
    case 1:
        return PyLong_FromLong(info.triangle_count);
    case 2:
        return PyLong_FromSize_t(info.bytes);
    default:
        return Py_BuildValue("(NN)", py_tuple3(info.bounds_min), py_tuple3(info.bounds_max));
    }
}

static PyGetSetDef Mesh_getset[] = {
    {"vertex_count", (getter)Mesh_get_info, NULL, "vertices given", (void*)0},
    {"triangle_count", (getter)Mesh_get_info, NULL, "triangles", (void*)1},
    {"bytes", (getter)Mesh_get_info, NULL, "memory the mesh holds", (void*)2},
    {"bounds", (getter)Mesh_get_info, NULL, "local bounds of the vertices used", (void*)3},
    {NULL}};
static PyMethodDef Mesh_methods[] = {
    {"place", (PyCFunction)(void (*)(void))Mesh_place, METH_VARARGS | METH_KEYWORDS,
     "place(position=(0, 0, 0), rotation=None, one_sided=False) -> Shape"},
    {"triangle", (PyCFunction)Mesh_triangle, METH_VARARGS, "triangle(i) -> the local vertices of triangle i"},
    {"load", (PyCFunction)Mesh_load, METH_VARARGS | METH_CLASS,
     "Mesh.load(path) -> Mesh: OBJ, PLY, STL, glTF and the other formats assimp reads; faces of\n"
     "more than three vertices become fans from their first vertex, in file order. OSError for a\n"
     "file that cannot be read or has no triangles."},
    {NULL}};

static PyTypeObject MeshType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = PY_QUALIFIED("Mesh"),
    .tp_basicsize = sizeof(MeshObject),
    .tp_dealloc = (destructor)Mesh_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Mesh(vertices, indices): a triangle mesh from an (V, 3) real array and a (T, 3) integer\n"
              "array; Mesh.load(path) reads a file. Place it with place() to query it.",
    .tp_getset = Mesh_getset,
    .tp_methods = Mesh_methods,
    .tp_init = (initproc)Mesh_init,
    .tp_new = PyType_GenericNew,
};

/* ---- pair queries ----------------------------------------------------------------- */

static int py_options(PyObject* skin, int ignore_separating, sw_sweep_options* opt)
{
    memset(opt, 0, sizeof *opt);
    opt->ignore_separating = ignore_separating != 0;
    return skin ? py_real(skin, "skin", 1, &opt->skin) : 0;
}

/* A plane or a mesh cannot move (DESIGN.md §2): a ValueError. */
static int py_movable(const sw_shape* a, const char* query)
{
    if (a->type == SW_SHAPE_PLANE || a->type == SW_SHAPE_MESH) {
        PyErr_Format(PyExc_ValueError, "%s: a %s cannot be the moving shape", query, sw_shape_type_name(a->type));
        return -1;
    }
    return 0;
}

/* A status other than SW_OK as an exception; a is A's type, or
 * SW_SHAPE_TYPE_COUNT for a ray. */
static int py_status(sw_status st, const char* query, sw_shape_type a, const sw_shape* b)
{
    if (st == SW_OK) {
        return 0;
    }
    if (st == SW_UNSUPPORTED) {
        PyErr_Format(PyExc_NotImplementedError, "%s: no method for %s against %s", query,
                     a == SW_SHAPE_TYPE_COUNT ? "a ray" : sw_shape_type_name(a), sw_shape_type_name(b->type));
    } else {
        PyErr_Format(PyExc_ValueError, "%s: invalid input", query);
    }
    return -1;
}

static PyObject* py_sweep(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"a", "d", "b", "skin", "ignore_separating", NULL};
    PyObject *ao, *dobj, *bo, *skin = NULL;
    int ign = 0;
    const sw_shape *a, *b;
    sw_vec3 d;
    sw_sweep_options opt;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$Op:sweep", names, &ao, &dobj, &bo, &skin, &ign) ||
        py_shape_arg(ao, "a", &a) < 0 || py_movable(a, "sweep") < 0 || py_vec3(dobj, "d", &d) < 0 ||
        py_shape_arg(bo, "b", &b) < 0 || py_options(skin, ign, &opt) < 0) {
        return NULL;
    }
    sw_hit h;
    Py_BEGIN_ALLOW_THREADS h = sw_sweep(a, d, b, &opt);
    Py_END_ALLOW_THREADS if (py_status(h.status, "sweep", a->type, b) < 0) { return NULL; }
    return py_hit(&h);
}

static int py_ray(PyObject* origin, PyObject* dir, PyObject* max, sw_ray* r)
{
    r->max = 1;
    return py_vec3(origin, "origin", &r->origin) < 0 || py_vec3(dir, "dir", &r->dir) < 0 ||
                   (max && py_real(max, "max", 1, &r->max) < 0)
               ? -1
               : 0;
}

static PyObject* py_raycast(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"origin", "dir", "b", "max", NULL};
    PyObject *o, *dir, *bo, *max = NULL;
    const sw_shape* b;
    sw_ray r;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|O:raycast", names, &o, &dir, &bo, &max) ||
        py_ray(o, dir, max, &r) < 0 || py_shape_arg(bo, "b", &b) < 0) {
        return NULL;
    }
    if (!sw_is_valid_ray(&r)) {
        PyErr_SetString(PyExc_ValueError, "raycast: max * dir must stay within the coordinate limit");
        return NULL;
    }
    sw_hit h;
    Py_BEGIN_ALLOW_THREADS h = sw_raycast(&r, b);
    Py_END_ALLOW_THREADS if (py_status(h.status, "raycast", SW_SHAPE_TYPE_COUNT, b) < 0) { return NULL; }
    return py_hit(&h);
}

static PyObject* py_sweep_inside(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"a", "d", "b", NULL};
    PyObject *ao, *dobj, *bo;
    const sw_shape *a, *b;
    sw_vec3 d;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO:sweep_inside", names, &ao, &dobj, &bo) ||
        py_shape_arg(ao, "a", &a) < 0 || py_movable(a, "sweep_inside") < 0 || py_vec3(dobj, "d", &d) < 0 ||
        py_shape_arg(bo, "b", &b) < 0) {
        return NULL;
    }
    const sw_hit h = sw_sweep_inside(a, d, b);
    if (py_status(h.status, "sweep_inside", a->type, b) < 0) {
        return NULL;
    }
    return py_hit(&h);
}

static PyObject* py_overlap_fn(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"a", "b", NULL};
    PyObject *ao, *bo;
    const sw_shape *a, *b;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:overlap", names, &ao, &bo) || py_shape_arg(ao, "a", &a) < 0 ||
        py_shape_arg(bo, "b", &b) < 0) {
        return NULL;
    }
    sw_overlap_result o;
    Py_BEGIN_ALLOW_THREADS o = sw_overlap(a, b);
    Py_END_ALLOW_THREADS if (py_status(o.status, "overlap", a->type, b) < 0) { return NULL; }
    return py_overlap(&o);
}

static PyObject* py_distance_fn(PyObject* m, PyObject* args, PyObject* kw)
{
    (void)m;
    static char* names[] = {"a", "b", NULL};
    PyObject *ao, *bo;
    const sw_shape *a, *b;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:distance", names, &ao, &bo) || py_shape_arg(ao, "a", &a) < 0 ||
        py_shape_arg(bo, "b", &b) < 0) {
        return NULL;
    }
    sw_distance_result d;
    Py_BEGIN_ALLOW_THREADS d = sw_distance(a, b);
    Py_END_ALLOW_THREADS if (py_status(d.status, "distance", a->type, b) < 0) { return NULL; }
    return py_distance(&d);
}

#include "batch.c"
#include "scene.c"

/* ---- the module ----------------------------------------------------------------------- */

static PyMethodDef module_methods[] = {
    {"point", (PyCFunction)(void (*)(void))py_point, METH_VARARGS | METH_KEYWORDS, "point(p) -> Shape"},
    {"segment", (PyCFunction)(void (*)(void))py_segment, METH_VARARGS | METH_KEYWORDS, "segment(a, b) -> Shape"},
    {"sphere", (PyCFunction)(void (*)(void))py_sphere, METH_VARARGS | METH_KEYWORDS, "sphere(center, radius) -> Shape"},
    {"capsule", (PyCFunction)(void (*)(void))py_capsule, METH_VARARGS | METH_KEYWORDS,
     "capsule(a, b, radius) -> Shape: the points within radius of segment ab"},
    {"box", (PyCFunction)(void (*)(void))py_box, METH_VARARGS | METH_KEYWORDS,
     "box(center, half, rotation=None) -> Shape: half extents, rotation [qx, qy, qz, qw]"},
    {"plane", (PyCFunction)(void (*)(void))py_plane, METH_VARARGS | METH_KEYWORDS,
     "plane(normal, offset) -> Shape: the solid half-space normal . x <= offset"},
    {"triangle", (PyCFunction)(void (*)(void))py_triangle, METH_VARARGS | METH_KEYWORDS,
     "triangle(v0, v1, v2, one_sided=False) -> Shape"},
    {"polygon", (PyCFunction)(void (*)(void))py_polygon, METH_VARARGS | METH_KEYWORDS,
     "polygon(vertices, one_sided=False) -> Shape: convex, planar, 3 to 64 vertices"},
    {"sweep", (PyCFunction)(void (*)(void))py_sweep, METH_VARARGS | METH_KEYWORDS,
     "sweep(a, d, b, *, skin=0, ignore_separating=False) -> Hit: A moved by d against static B"},
    {"raycast", (PyCFunction)(void (*)(void))py_raycast, METH_VARARGS | METH_KEYWORDS,
     "raycast(origin, dir, b, max=1) -> Hit: t in units of dir, up to max"},
    {"sweep_inside", (PyCFunction)(void (*)(void))py_sweep_inside, METH_VARARGS | METH_KEYWORDS,
     "sweep_inside(a, d, b) -> Hit: A moving by d inside the container B (sphere or box)"},
    {"overlap", (PyCFunction)(void (*)(void))py_overlap_fn, METH_VARARGS | METH_KEYWORDS, "overlap(a, b) -> Overlap"},
    {"distance", (PyCFunction)(void (*)(void))py_distance_fn, METH_VARARGS | METH_KEYWORDS,
     "distance(a, b) -> Distance"},
    PY_BATCH_METHODS{NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "sweep." PY_MODULE_NAME,
                                        "sweep, " SW_PRECISION_NAME " build (see the sweep package).", -1,
                                        module_methods};

static int py_add_type(PyObject* m, PyTypeObject* t, const char* name)
{
    if (PyType_Ready(t) < 0) {
        return -1;
    }
    Py_INCREF(t);
    if (PyModule_AddObject(m, name, (PyObject*)t) < 0) {
        Py_DECREF(t);
        return -1;
    }
    return 0;
}

static int py_add_struct(PyObject* m, PyTypeObject* t, PyStructSequence_Desc* d, const char* name)
{
    if (PyStructSequence_InitType2(t, d) < 0) {
        return -1;
    }
    Py_INCREF(t);
    if (PyModule_AddObject(m, name, (PyObject*)t) < 0) {
        Py_DECREF(t);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PY_INIT(void)
{
    import_array();
    PyObject* m = PyModule_Create(&module_def);
    if (!m) {
        return NULL;
    }
    if (py_add_type(m, &ShapeType, "Shape") < 0 || py_add_type(m, &HullType, "Hull") < 0 ||
        py_add_type(m, &MeshType, "Mesh") < 0 || py_add_type(m, &SceneType, "Scene") < 0 ||
        py_add_struct(m, &HitType, &hit_desc, "Hit") < 0 ||
        py_add_struct(m, &OverlapType, &overlap_desc, "Overlap") < 0 ||
        py_add_struct(m, &DistanceType, &distance_desc, "Distance") < 0 ||
        py_add_struct(m, &SceneHitType, &scene_hit_desc, "SceneHit") < 0 ||
        py_add_struct(m, &SceneOverlapType, &scene_overlap_desc, "SceneOverlap") < 0 ||
        py_add_struct(m, &SceneDistanceType, &scene_distance_desc, "SceneDistance") < 0 ||
        py_add_struct(m, &ContactType, &contact_desc, "Contact") < 0 || py_batch_init(m) < 0 ||
        PyModule_AddStringConstant(m, "precision", SW_PRECISION_NAME) < 0 ||
        PyModule_AddStringConstant(m, "__version__", SW_VERSION_STRING) < 0 ||
        PyModule_AddObject(m, "tolerance", PyFloat_FromDouble((double)SW_TOLERANCE)) < 0 ||
        PyModule_AddObject(m, "max_coord", PyFloat_FromDouble((double)SW_MAX_COORD)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
