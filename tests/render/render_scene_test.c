/* Tests of `sweep render` on queries over a scene: the shape the answer
 * names first is B; the other hits of "all" (and the other overlaps) are
 * marked in orange where the library says; a miss, no overlap and no
 * shape within max still give a picture of the scene; a named scene is
 * built from the lines before the one drawn; a scene request is no
 * picture. The golden image scene_all is compared in render_test.c. */
#define _POSIX_C_SOURCE 200809L

// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_test.h"

static render_scene* build_line(const char* line, request* req, int w, int h)
{
    char err[512] = "";
    if (request_parse(line, strlen(line), req, err, sizeof err) != 0) {
        fail_msg("request_parse: %s", err);
    }
    render_scene* sc = malloc(sizeof *sc);
    assert_non_null(sc);
    if (render_scene_build(sc, req, w, h, err, sizeof err) == RENDER_ERROR) {
        fail_msg("render_scene_build: %s", err);
    }
    return sc;
}

static void free_scene(render_scene* sc, request* req)
{
    render_scene_free(sc);
    free(sc);
    request_free(req);
}

/* COL_MARK_POINT, the other hits' dots. */
static bool is_orange(rgb c) { return c.r > 200 && c.g > 80 && c.g < 170 && c.b < 80; }
static bool is_red(rgb c) { return c.r > 170 && c.g < 90 && c.b < 90; }

/* "all": B is the first hit, every hit is marked, and the other hits'
 * points are orange dots in the views where nothing else covers them. */
static void all_hits_marked(void** state)
{
    (void)state;
    request req;
    render_scene* sc = build_line(SCENE_ALL_LINE, &req, 1600, 500);
    assert_true(sc->over_scene && sc->has_b);
    assert_int_equal(sc->shape_count, 6);
    assert_int_equal(sc->result.count, 3);
    assert_true(sc->b_key == sc->result.hits[0].key);
    int marked = 0;
    for (int i = 0; i < sc->shape_count; i++) {
        marked += sc->marked[i];
    }
    assert_int_equal(marked, 3);
    cairo_surface_t* s = draw_to_image(sc);
    for (int k = 1; k < sc->result.count; k++) {
        int orange = 0;
        for (int i = 0; i < RENDER_PANELS; i++) {
            double x, y;
            rview_project(&sc->panels[i].view, rv3_of(sc->result.hits[k].hit.point), &x, &y);
            orange += is_orange(pixel(s, (int)x, (int)y));
        }
        if (orange < 2) {
            fail_msg("hit %d is marked orange in %d views only", k, orange);
        }
    }
    /* B's contact, as for a pair, in the top view. */
    double x, y;
    rview_project(&sc->panels[0].view, rv3_of(sc->hit.point), &x, &y);
    assert_true(is_red(pixel(s, (int)x, (int)y)));
    cairo_surface_destroy(s);
    free_scene(sc, &req);
}

/* Nothing named: no B, but the scene and A are drawn. */
static void nothing_found(void** state)
{
    (void)state;
    static const char* const lines[] = {
        "{\"op\":\"raycast\",\"origin\":[0,0,5],\"dir\":[1,0,0],\"max\":10,\"hits\":\"all\",\"scene\":["
        "{\"type\":\"sphere\",\"center\":[2,0,0],\"radius\":1},{\"type\":\"box\",\"center\":[5,0,0],"
        "\"half\":[1,1,1]}]}",
        "{\"op\":\"sweep\",\"a\":{\"type\":\"box\",\"center\":[0,0,5],\"half\":[0.5,0.5,0.5]},\"d\":[9,0,0],"
        "\"mask\":2,\"scene\":[{\"type\":\"sphere\",\"center\":[2,0,5],\"radius\":1,\"category\":1}]}",
        "{\"op\":\"overlap\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,5],\"radius\":1},\"scene\":["
        "{\"type\":\"sphere\",\"center\":[2,0,0],\"radius\":1}]}",
        "{\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[0,0,5]},\"max\":1,\"scene\":["
        "{\"type\":\"capsule\",\"a\":[2,0,0],\"b\":[4,0,1],\"radius\":0.5}]}",
        "{\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[0,0,5]},\"scene\":[]}",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        request req;
        render_scene* sc = build_line(lines[i], &req, 800, 250);
        assert_false(sc->has_b);
        assert_int_equal(sc->result.count, 0);
        cairo_surface_t* s = draw_to_image(sc);
        cairo_surface_destroy(s);
        free_scene(sc, &req);
    }
}

/* Overlap and distance: B is the overlapping shape of lowest key, or the
 * closest shape; the other overlaps are marked. */
static void overlap_and_distance(void** state)
{
    (void)state;
    request req;
    render_scene* sc =
        build_line("{\"op\":\"overlap\",\"a\":{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":2},\"scene\":["
                   "{\"type\":\"sphere\",\"center\":[2,0,0],\"radius\":1,\"key\":9},"
                   "{\"type\":\"box\",\"center\":[-2,0,0],\"half\":[1,1,1],\"key\":4},"
                   "{\"type\":\"sphere\",\"center\":[9,0,0],\"radius\":1}]}",
                   &req, 800, 250);
    assert_true(sc->has_b);
    assert_int_equal(sc->result.count, 2);
    assert_true(sc->b_key == 4);
    assert_true(sc->over.overlapping);
    cairo_surface_destroy(draw_to_image(sc));
    free_scene(sc, &req);

    sc = build_line("{\"op\":\"distance\",\"a\":{\"type\":\"point\",\"p\":[0,0,3]},\"scene\":["
                    "{\"type\":\"sphere\",\"center\":[2,0,0],\"radius\":1},"
                    "{\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1}]}",
                    &req, 800, 250);
    assert_true(sc->has_b && sc->b_key == 1);
    assert_true(sc->dist.distance == 2);
    cairo_surface_destroy(draw_to_image(sc));
    free_scene(sc, &req);
}

/* The command: a named scene from the lines before the one drawn (bad
 * lines and other queries among them change nothing); a scene request, an
 * unknown scene and a plane in a scene are errors. */
static void command_replays_scene_lines(void** state)
{
    (void)state;
    char err[2048];
    write_file("scene.jsonl",
               "{\"op\":\"scene_create\",\"scene\":\"level\",\"shapes\":[{\"type\":\"sphere\",\"center\":[3,0,0],"
               "\"radius\":1}]}\n"
               "{\"op\":\"scene_add\",\"scene\":\"level\",\"shapes\":[{\"type\":\"box\",\"center\":[6,0,0],"
               "\"half\":[1,1,1]},{\"type\":\"hull\",\"points\":[[8,-1,-1],[10,-1,-1],[8,1,-1],[8,-1,1]]}]}\n"
               "not json\n"
               "{\"op\":\"scene_add\",\"scene\":\"level\",\"shapes\":[{\"type\":\"point\",\"p\":[0,0,0],\"key\":0}]}\n"
               "{\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":12,\"scene\":\"level\","
               "\"hits\":\"all\"}\n"
               "{\"op\":\"scene_remove\",\"scene\":\"level\",\"keys\":[0]}\n"
               "{\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":12,\"scene\":\"level\"}\n"
               "{\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"scene\":\"other\"}\n"
               "{\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"scene\":[{\"type\":\"plane\","
               "\"normal\":[0,0,1],\"offset\":0}]}\n");
    remove("scene.png");
    assert_int_equal(run_render(err, sizeof err, "--case", "5", "-o", "scene.png", "scene.jsonl", NULL), 0);
    assert_true(png_has_size("scene.png", 1600, 500));
    assert_int_equal(
        run_render(err, sizeof err, "--case", "7", "--size", "800x250", "-o", "scene.svg", "scene.jsonl", NULL), 0);
    assert_int_equal(run_render(err, sizeof err, "--case", "1", "-o", "scene.png", "scene.jsonl", NULL), 1);
    assert_non_null(strstr(err, "line 1: a scene request changes a scene and has no picture"));
    assert_int_equal(run_render(err, sizeof err, "--case", "8", "-o", "scene.png", "scene.jsonl", NULL), 1);
    assert_non_null(strstr(err, "line 8: unknown scene \"other\""));
    assert_int_equal(run_render(err, sizeof err, "--case", "9", "-o", "scene.png", "scene.jsonl", NULL), 1);
    assert_non_null(strstr(err, "line 9: a plane cannot be in a scene"));
}

/* A scene changed as `sweep render` replays the earlier lines
 * (request_apply_scene_change) is the one render_scene_build_in draws,
 * velocities included; without the store its name is unknown. */
static void replayed_scene_is_the_query_scene(void** state)
{
    (void)state;
    scene_store* store = scene_store_create();
    assert_non_null(store);
    static const char* const lines[] = {
        "{\"op\":\"scene_create\",\"scene\":\"s\",\"shapes\":[{\"type\":\"sphere\",\"center\":[3,0,0],\"radius\":1},"
        "{\"type\":\"sphere\",\"center\":[6,0,0],\"radius\":1}]}",
        "{\"op\":\"scene_move\",\"scene\":\"s\",\"key\":1,\"shape\":{\"type\":\"sphere\",\"center\":[6,0,0],"
        "\"radius\":1},\"velocity\":[0,1,0]}",
    };
    char err[512];
    for (size_t i = 0; i < 2; i++) {
        request r;
        assert_int_equal(request_parse(lines[i], strlen(lines[i]), &r, err, sizeof err), 0);
        assert_int_equal(request_apply_scene_change(&r, store, err, sizeof err), 0);
        request_free(&r);
    }
    const char* q =
        "{\"op\":\"raycast\",\"origin\":[0,0,0],\"dir\":[1,0,0],\"max\":10,\"scene\":\"s\",\"hits\":\"all\"}";
    request req;
    assert_int_equal(request_parse(q, strlen(q), &req, err, sizeof err), 0);
    render_scene* sc = malloc(sizeof *sc);
    assert_non_null(sc);
    assert_int_equal(render_scene_build_in(sc, &req, store, 800, 250, err, sizeof err), RENDER_OK);
    assert_int_equal(sc->shape_count, 2);
    assert_int_equal(sc->result.count, 2);
    assert_true(sc->result.hits[1].velocity.y == 1);
    render_scene_free(sc);
    /* Without the store the name is unknown. */
    assert_int_equal(render_scene_build(sc, &req, 800, 250, err, sizeof err), RENDER_ERROR);
    assert_non_null(strstr(err, "unknown scene \"s\""));
    render_scene_free(sc);
    free(sc);
    request_free(&req);
    scene_store_destroy(store);
}

int render_scene_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_hits_marked),
        cmocka_unit_test(nothing_found),
        cmocka_unit_test(overlap_and_distance),
        cmocka_unit_test(command_replays_scene_lines),
        cmocka_unit_test(replayed_scene_is_the_query_scene),
    };
    return cmocka_run_group_tests_name("render_scene", tests, NULL, NULL);
}
