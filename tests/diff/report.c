/* Failing cases as `sweep query` lines (DESIGN.md §5), with numbers printed
 * so that they read back to the same sw_real. */
#include "diff.h"

static void real(FILE* f, sw_real v) { fprintf(f, SWT_REAL_FMT, (double)v); }

static void vec(FILE* f, sw_vec3 v)
{
    fputc('[', f);
    real(f, v.x);
    fputc(',', f);
    real(f, v.y);
    fputc(',', f);
    real(f, v.z);
    fputc(']', f);
}

static void shape(FILE* f, const sw_shape* s)
{
    fprintf(f, "{\"type\":\"%s\"", sw_shape_type_name(s->type));
    switch (s->type) {
    case SW_SHAPE_POINT:
        fputs(",\"p\":", f);
        vec(f, s->point);
        break;
    case SW_SHAPE_SEGMENT:
        fputs(",\"a\":", f);
        vec(f, s->segment.a);
        fputs(",\"b\":", f);
        vec(f, s->segment.b);
        break;
    case SW_SHAPE_SPHERE:
        fputs(",\"center\":", f);
        vec(f, s->sphere.center);
        fputs(",\"radius\":", f);
        real(f, s->sphere.radius);
        break;
    case SW_SHAPE_CAPSULE:
        fputs(",\"a\":", f);
        vec(f, s->capsule.a);
        fputs(",\"b\":", f);
        vec(f, s->capsule.b);
        fputs(",\"radius\":", f);
        real(f, s->capsule.radius);
        break;
    case SW_SHAPE_BOX:
        fputs(",\"center\":", f);
        vec(f, s->box.center);
        fputs(",\"half\":", f);
        vec(f, s->box.half);
        fputs(",\"rotation\":[", f);
        real(f, s->box.rotation.x);
        fputc(',', f);
        real(f, s->box.rotation.y);
        fputc(',', f);
        real(f, s->box.rotation.z);
        fputc(',', f);
        real(f, s->box.rotation.w);
        fputc(']', f);
        break;
    case SW_SHAPE_PLANE:
        fputs(",\"normal\":", f);
        vec(f, s->plane.normal);
        fputs(",\"offset\":", f);
        real(f, s->plane.offset);
        break;
    case SW_SHAPE_TRIANGLE:
    case SW_SHAPE_POLYGON: {
        const bool tri = s->type == SW_SHAPE_TRIANGLE;
        const int n = tri ? 3 : s->polygon.count;
        fputs(",\"v\":[", f);
        for (int i = 0; i < n; ++i) {
            if (i) {
                fputc(',', f);
            }
            vec(f, tri ? s->triangle.v[i] : s->polygon.v[i]);
        }
        fprintf(f, "],\"one_sided\":%s", (tri ? s->triangle.one_sided : s->polygon.one_sided) ? "true" : "false");
        break;
    }
    case SW_SHAPE_HULL: {
        /* The hull's vertices as its points (in vertex order, so a hull
         * built from them numbers its features the same way), and its
         * placement. */
        const sw_hull* h = s->hull.hull;
        fputs(",\"points\":[", f);
        for (int i = 0; h && i < h->vertex_count; ++i) {
            if (i) {
                fputc(',', f);
            }
            vec(f, h->vertices[i]);
        }
        fputs("],\"position\":", f);
        vec(f, s->hull.position);
        fputs(",\"rotation\":[", f);
        real(f, s->hull.rotation.x);
        fputc(',', f);
        real(f, s->hull.rotation.y);
        fputc(',', f);
        real(f, s->hull.rotation.z);
        fputc(',', f);
        real(f, s->hull.rotation.w);
        fputc(']', f);
        break;
    }
    case SW_SHAPE_MESH:
        /* Written by mesh_shape from the case's arrays. */
        break;
    case SW_SHAPE_TYPE_COUNT:
        break;
    }
    fputc('}', f);
}

static void quat(FILE* f, sw_quat q)
{
    fputc('[', f);
    real(f, q.x);
    fputc(',', f);
    real(f, q.y);
    fputc(',', f);
    real(f, q.z);
    fputc(',', f);
    real(f, q.w);
    fputc(']', f);
}

/* A mesh shape from the arrays the case built it from (DESIGN §5). */
static void mesh_shape(FILE* f, const diff_case* c, const sw_shape* s)
{
    fputs("{\"type\":\"mesh\",\"v\":[", f);
    for (int i = 0; i < c->mesh_nv; ++i) {
        if (i) {
            fputc(',', f);
        }
        vec(f, c->mesh_v[i]);
    }
    fputs("],\"tri\":[", f);
    for (int i = 0; i < c->mesh_nt; ++i) {
        fprintf(f, "%s[%d,%d,%d]", i ? "," : "", c->mesh_tri[3 * i], c->mesh_tri[3 * i + 1], c->mesh_tri[3 * i + 2]);
    }
    fprintf(f, "],\"one_sided\":%s,\"position\":", s->mesh.one_sided ? "true" : "false");
    vec(f, s->mesh.position);
    fputs(",\"rotation\":", f);
    quat(f, s->mesh.rotation);
    fputc('}', f);
}

static void any_shape(FILE* f, const diff_case* c, const sw_shape* s)
{
    if (s->type == SW_SHAPE_MESH) {
        mesh_shape(f, c, s);
    } else {
        shape(f, s);
    }
}

/* id is printed as a JSON string; it is made of plain ASCII without
 * quotes or backslashes by the caller. */
void diff_write_json(FILE* f, const diff_case* c, const char* id)
{
    fprintf(f, "{\"op\":\"%s\"", diff_op_name(c->op));
    if (c->op == OP_RAYCAST) {
        fputs(",\"origin\":", f);
        vec(f, c->ray.origin);
        fputs(",\"dir\":", f);
        vec(f, c->ray.dir);
        fputs(",\"max\":", f);
        real(f, c->ray.max);
    } else {
        fputs(",\"a\":", f);
        any_shape(f, c, &c->a);
        if (c->op == OP_SWEEP || c->op == OP_SWEEP_INSIDE) {
            fputs(",\"d\":", f);
            vec(f, c->d);
        }
    }
    fputs(",\"b\":", f);
    any_shape(f, c, &c->b);
    if (c->op == OP_SWEEP && !c->opt_null) {
        fputs(",\"skin\":", f);
        real(f, c->opt.skin);
        fprintf(f, ",\"ignore_separating\":%s", c->opt.ignore_separating ? "true" : "false");
    }
    fprintf(f, ",\"id\":\"%s\"}\n", id);
}
