/* `sweep render [-o OUT] [--case N] [--size WxH] [FILE]`: a picture of one
 * request of the `sweep query` protocol (see render.h for the drawing). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Reads line `want` (1-based) of f into a new buffer (without its line
 * end). Returns NULL when f has fewer lines (*lines = how many it has) or
 * on a read error or lack of memory (*failed = true). */
static char* read_line(FILE* f, long want, size_t* len, long* lines, bool* failed)
{
    size_t cap = 0, n = 0;
    char* buf = NULL;
    long line = 1;
    int c, last = EOF;
    bool found = false;
    *failed = false;
    while ((c = getc(f)) != EOF) {
        last = c;
        if (line < want) {
            line += c == '\n';
            continue;
        }
        found = true;
        if (c == '\n') {
            break;
        }
        if (n + 2 > cap) {
            cap = cap == 0 ? 256 : 2 * cap;
            char* grown = realloc(buf, cap);
            if (grown == NULL) {
                free(buf);
                *failed = true;
                return NULL;
            }
            buf = grown;
        }
        buf[n++] = (char)c;
    }
    if (ferror(f)) {
        free(buf);
        *failed = true;
        return NULL;
    }
    if (!found) {
        /* The last line counts even without a final newline. */
        *lines = last == EOF ? 0 : line - (last == '\n');
        free(buf);
        return NULL;
    }
    if (buf == NULL) {
        buf = malloc(1);
        if (buf == NULL) {
            *failed = true;
            return NULL;
        }
    }
    if (n > 0 && buf[n - 1] == '\r') {
        n--;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
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
    size_t len = 0;
    long lines = 0;
    bool failed = false;
    char* line = read_line(f, want, &len, &lines, &failed);
    if (!from_stdin) {
        fclose(f);
    }
    if (line == NULL) {
        if (failed) {
            fprintf(stderr, "sweep render: %s: cannot read the input\n", in_name);
        } else if (lines == 0) {
            fprintf(stderr, "sweep render: %s: no request (the input is empty)\n", in_name);
        } else {
            fprintf(stderr, "sweep render: %s: no line %ld (the input has %ld line%s)\n", in_name, want, lines,
                    lines == 1 ? "" : "s");
        }
        return 1;
    }
    if (is_blank(line, len)) {
        fprintf(stderr, "sweep render: %s: line %ld is blank\n", in_name, want);
        free(line);
        return 1;
    }

    request req;
    memset(&req, 0, sizeof req);
    char err[512];
    int rc = request_parse(line, len, &req, err, sizeof err);
    free(line);
    if (rc != 0) {
        fprintf(stderr, "sweep render: %s: line %ld: %s\n", in_name, want, err);
        request_free(&req);
        return 1;
    }

    /* Input the parser let through by mistake becomes an error message
     * instead of the debug build's abort, as in `sweep query`. */
    request_catch_invalid_input();
    render_status st = render_request(&req, out, width, height, err, sizeof err);
    request_free(&req);
    if (st == RENDER_ERROR) {
        fprintf(stderr, "sweep render: %s: line %ld: %s\n", in_name, want, err);
        return 1;
    }
    if (st == RENDER_UNANSWERED) {
        fprintf(stderr, "sweep render: note: the library does not support this pair yet; %s shows the shapes only\n",
                out);
    }
    return 0;
}
