/* `sweep render [-o OUT] [--case N] [--size WxH] [FILE]`: a picture of one
 * request of the `sweep query` protocol (see render.h for the drawing),
 * and writing it out. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-svg.h>

#include "commands.h"
#include "render.h"
#include "request.h"

static const char USAGE[] = "usage: sweep render [-o OUT] [--case N] [--size WxH] [FILE]\n"
                            "\n"
                            "Draws one request of the `sweep query` protocol (one JSON line, see\n"
                            "DESIGN.md section 5) read from FILE, or from standard input when FILE is\n"
                            "absent or \"-\". The library answers the request and the picture shows it\n"
                            "in four orthographic views: top (x right, y up), front (x right, z up),\n"
                            "side (y right, z up), and a contact view in the plane of the displacement\n"
                            "d and the contact normal n. Each view is framed on the shapes and the\n"
                            "contact; when the sizes in the query differ by more than 100x, an inset\n"
                            "zooms on the contact. A caption gives the operation, hit or miss, t,\n"
                            "depth and feature. A mesh is drawn shaded, with the triangle hit\n"
                            "highlighted; its \"obj\" file is read as `sweep query` reads it.\n"
                            "A query over a scene draws every shape of the scene thin, the shape\n"
                            "hit (or overlapping, or closest) as B, and the other hits of \"all\" (or\n"
                            "the other overlaps) outlined in orange. A named scene is built by the\n"
                            "scene requests of the lines before the one drawn, as `sweep query`\n"
                            "builds it.\n"
                            "\n"
                            "options:\n"
                            "  -o, --output OUT  the picture to write; .png or .svg picks the format\n"
                            "                    (default sweep.png)\n"
                            "  --case N          draw line N (1-based) of a JSON Lines file (default 1)\n"
                            "  --size WxH        picture size in pixels (default 1600x500)\n"
                            "  -h, --help        show this help\n"
                            "\n"
                            "exit status: 0 when the picture was written (also for a pair of shapes\n"
                            "the library does not support yet: the picture then shows the shapes only\n"
                            "and says so); 1 on bad input or when OUT cannot be written; 2 on bad usage.\n";

static int usage_error(const char* fmt, const char* arg)
{
    fprintf(stderr, "sweep render: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(try 'sweep render --help')\n");
    return 2;
}

/* Whether arg is the long option `name`, as "--name" (the value is the
 * next argument) or "--name=VALUE" (*val is set to VALUE). */
static bool is_option(const char* arg, const char* name, const char** val)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) {
        return false;
    }
    if (arg[n] == '=') {
        *val = arg + n + 1;
        return true;
    }
    return arg[n] == '\0';
}

/* A whole decimal number in [lo, hi]. */
static bool parse_long(const char* s, long lo, long hi, long* out)
{
    if (*s < '0' || *s > '9') {
        return false;
    }
    char* end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || v < lo || v > hi) {
        return false;
    }
    *out = v;
    return *end == '\0';
}

static bool parse_size(const char* s, int* w, int* h)
{
    const char* x = strchr(s, 'x');
    if (x == NULL || x - s >= 16) {
        return false;
    }
    char head[16];
    memcpy(head, s, (size_t)(x - s));
    head[x - s] = '\0';
    long lw, lh;
    if (!parse_long(head, RENDER_MIN_WIDTH, RENDER_MAX_SIDE, &lw) ||
        !parse_long(x + 1, RENDER_MIN_HEIGHT, RENDER_MAX_SIDE, &lh)) {
        return false;
    }
    *w = (int)lw;
    *h = (int)lh;
    return true;
}

/* Applies the scene request on this line (scene_create, scene_add, ...) to
 * scenes, as `sweep query` does when it reads it; any other line, and a bad
 * one, changes nothing. Only lines whose op starts "scene_" are parsed in
 * full. */
static void replay(const char* line, size_t len, scene_store* scenes)
{
    json_error_t jerr;
    json_t* root = request_json_load(line, len, &jerr);
    const char* op = json_string_value(json_object_get(root, "op"));
    const bool scene_change = op != NULL && strncmp(op, "scene_", 6) == 0;
    json_decref(root);
    if (!scene_change) {
        return;
    }
    request req;
    char err[512];
    if (request_parse(line, len, &req, err, sizeof err) == 0 && req_op_is_scene_change(req.op)) {
        request_apply_scene_change(&req, scenes, err, sizeof err);
    }
    request_free(&req);
}

/* Reads line `want` (1-based) of f into *line (without its line end),
 * replaying the scene requests of the lines before it. Returns false when
 * f has fewer lines (*lines = how many it has) or on a read error or lack
 * of memory (*failed = true). */
static bool read_line(FILE* f, long want, scene_store* scenes, char** line, size_t* len, long* lines, bool* failed)
{
    size_t cap = 0;
    ssize_t n;
    *lines = 0;
    *failed = false;
    while ((n = getline(line, &cap, f)) >= 0) {
        if (++*lines == want) {
            break;
        }
        replay(*line, (size_t)n, scenes);
    }
    if (n < 0) {
        *failed = ferror(f) != 0 || !feof(f);
        return false;
    }
    if (n > 0 && (*line)[n - 1] == '\n') {
        n--;
    }
    if (n > 0 && (*line)[n - 1] == '\r') {
        n--;
    }
    (*line)[n] = '\0';
    *len = (size_t)n;
    return true;
}

static bool is_blank(const char* s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != ' ' && s[i] != '\t') {
            return false;
        }
    }
    return true;
}

int cmd_render(int argc, char** argv)
{
    const char* out = "sweep.png";
    const char* in_path = NULL;
    long want = 1;
    int width = RENDER_DEFAULT_WIDTH, height = RENDER_DEFAULT_HEIGHT;

    for (int i = 1; i < argc; i++) {
        const char* arg = argv[i];
        const char* val = NULL;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(USAGE, stdout);
            return 0;
        }
        bool is_out = strcmp(arg, "-o") == 0 || is_option(arg, "--output", &val);
        bool is_case = !is_out && is_option(arg, "--case", &val);
        bool is_size = !is_out && !is_case && is_option(arg, "--size", &val);
        if (is_out || is_case || is_size) {
            if (val == NULL) {
                if (i + 1 >= argc) {
                    return usage_error("%s needs a value", arg);
                }
                val = argv[++i];
            }
            if (is_out) {
                if (!render_path_is_png(val) && !render_path_is_svg(val)) {
                    return usage_error("output '%s' must end in .png or .svg", val);
                }
                out = val;
            } else if (is_case) {
                if (!parse_long(val, 1, LONG_MAX, &want)) {
                    return usage_error("--case needs a line number >= 1, not '%s'", val);
                }
            } else if (!parse_size(val, &width, &height)) {
                return usage_error("--size needs WxH within 320x120 to 8192x8192, not '%s'", val);
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return usage_error("unknown option '%s'", arg);
        } else if (in_path != NULL) {
            return usage_error("one input file only ('%s' is extra)", arg);
        } else {
            in_path = arg;
        }
    }

    const bool from_stdin = in_path == NULL || strcmp(in_path, "-") == 0;
    const char* in_name = from_stdin ? "<stdin>" : in_path;
    FILE* f = from_stdin ? stdin : fopen(in_path, "rb");
    if (f == NULL) {
        fprintf(stderr, "sweep render: %s: %s\n", in_path, strerror(errno));
        return 1;
    }
    scene_store* scenes = scene_store_create();
    if (scenes == NULL) {
        fprintf(stderr, "sweep render: out of memory\n");
        if (!from_stdin) {
            fclose(f);
        }
        return 1;
    }
    /* Input the parser let through by mistake becomes an error message
     * instead of the debug build's abort, as in `sweep query`. */
    request_catch_invalid_input();
    size_t len = 0;
    long lines = 0;
    bool failed = false;
    char* line = NULL;
    const bool found = read_line(f, want, scenes, &line, &len, &lines, &failed);
    if (!from_stdin) {
        fclose(f);
    }
    int status = 1;
    request req;
    memset(&req, 0, sizeof req);
    char err[512];
    if (!found) {
        if (failed) {
            fprintf(stderr, "sweep render: %s: cannot read the input\n", in_name);
        } else if (lines == 0) {
            fprintf(stderr, "sweep render: %s: no request (the input is empty)\n", in_name);
        } else {
            fprintf(stderr, "sweep render: %s: no line %ld (the input has %ld line%s)\n", in_name, want, lines,
                    lines == 1 ? "" : "s");
        }
    } else if (is_blank(line, len)) {
        fprintf(stderr, "sweep render: %s: line %ld is blank\n", in_name, want);
    } else if (request_parse(line, len, &req, err, sizeof err) != 0) {
        fprintf(stderr, "sweep render: %s: line %ld: %s\n", in_name, want, err);
    } else {
        render_status st = render_request_in(&req, scenes, out, width, height, err, sizeof err);
        if (st == RENDER_ERROR) {
            fprintf(stderr, "sweep render: %s: line %ld: %s\n", in_name, want, err);
        } else {
            status = 0;
            if (st == RENDER_UNANSWERED) {
                fprintf(stderr,
                        "sweep render: note: the library does not support this pair yet; %s shows the shapes only\n",
                        out);
            }
        }
    }
    free(line);
    request_free(&req);
    scene_store_destroy(scenes);
    return status;
}

/* ---- output --------------------------------------------------------------- */

/* Case-insensitive, since "OUT.PNG" is as clear as "out.png". */
static bool has_suffix(const char* path, const char* suffix)
{
    size_t n = strlen(path), k = strlen(suffix);
    if (n <= k) {
        return false;
    }
    for (size_t i = 0; i < k; i++) {
        if (tolower((unsigned char)path[n - k + i]) != tolower((unsigned char)suffix[i])) {
            return false;
        }
    }
    return true;
}

bool render_path_is_png(const char* path) { return has_suffix(path, ".png"); }
bool render_path_is_svg(const char* path) { return has_suffix(path, ".svg"); }

int render_scene_write(const render_scene* sc, const char* path, char* err, size_t err_size)
{
    bool svg = render_path_is_svg(path);
    if (!svg && !render_path_is_png(path)) {
        snprintf(err, err_size, "%s: cannot tell the format; the output must end in .png or .svg", path);
        return -1;
    }
    cairo_surface_t* surface = svg ? cairo_svg_surface_create(path, sc->width, sc->height)
                                   : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, sc->width, sc->height);
    cairo_status_t st = cairo_surface_status(surface);
    if (st == CAIRO_STATUS_SUCCESS) {
        cairo_t* cr = cairo_create(surface);
        render_scene_draw(sc, cr);
        st = cairo_status(cr);
        cairo_destroy(cr);
    }
    if (st == CAIRO_STATUS_SUCCESS && !svg) {
        st = cairo_surface_write_to_png(surface, path);
    }
    /* An SVG is written out when the surface is finished. */
    cairo_surface_finish(surface);
    if (st == CAIRO_STATUS_SUCCESS) {
        st = cairo_surface_status(surface);
    }
    cairo_surface_destroy(surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, err_size, "%s: cannot write the picture (%s)", path, cairo_status_to_string(st));
        return -1;
    }
    return 0;
}

render_status render_request_in(const request* req, scene_store* scenes, const char* path, int width, int height,
                                char* err, size_t err_size)
{
    render_scene* sc = malloc(sizeof *sc);
    if (sc == NULL) {
        snprintf(err, err_size, "out of memory");
        return RENDER_ERROR;
    }
    render_status status = render_scene_build_in(sc, req, scenes, width, height, err, err_size);
    if (status != RENDER_ERROR && render_scene_write(sc, path, err, err_size) != 0) {
        status = RENDER_ERROR;
    }
    render_scene_free(sc);
    free(sc);
    return status;
}

render_status render_request(const request* req, const char* path, int width, int height, char* err, size_t err_size)
{
    return render_request_in(req, NULL, path, width, height, err, err_size);
}
