/* `sweep query [FILE]`: answers JSON Lines requests (DESIGN.md §5), one
 * answer line per input line, in order, in constant memory (besides the
 * named scenes the input creates, kept until the end). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "commands.h"
#include "request.h"

/* A line longer than this leaves its buffer behind only until the next
 * line, so one huge line does not pin its memory for the rest of the run. */
enum { KEEP_LINE_BUFFER = 1 << 20 };

/* True when the next read from `in` may block. The output is block
 * buffered for speed, so it is flushed before such a read: a program that
 * writes one request and waits for its answer (a coprocess) then gets it.
 * Streams without a file descriptor (fmemopen, in fuzzers) never block. */
static bool input_may_block(FILE* in)
{
    const int fd = fileno(in);
    if (fd < 0) {
        return false;
    }
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    return poll(&pfd, 1, 0) == 0;
}

int query_stream(FILE* in, FILE* out, long* bad_lines)
{
    char* line = NULL;
    size_t cap = 0;
    long line_no = 0, bad = 0;
    int status = 0;
    char err[512];
    /* The named scenes live as long as this run of the loop. */
    scene_store* scenes = scene_store_create();
    if (!scenes) {
        errno = ENOMEM;
        return -1;
    }
    for (;;) {
        if (input_may_block(in) && fflush(out) != 0) {
            status = -1;
            break;
        }
        const ssize_t n = getline(&line, &cap, in);
        if (n < 0) {
            if (!feof(in)) {
                status = -1; /* read error or out of memory; errno says which */
            }
            break;
        }
        ++line_no;
        request req;
        int rc = request_parse(line, (size_t)n, &req, err, sizeof err);
        if (rc == 0) {
            rc = request_answer(&req, scenes, out, err, sizeof err);
        }
        if (rc != 0) {
            request_print_error(out, req.id, line_no, err);
            ++bad;
        }
        request_free(&req);
        if (ferror(out)) {
            status = -1;
            break;
        }
        if (cap > KEEP_LINE_BUFFER) {
            free(line);
            line = NULL;
            cap = 0;
        }
    }
    free(line);
    scene_store_destroy(scenes);
    if (fflush(out) != 0) {
        status = -1;
    }
    if (bad_lines) {
        *bad_lines = bad;
    }
    return status;
}

static void usage(FILE* f)
{
    fputs("usage: sweep query [FILE]\n"
          "\n"
          "Reads one JSON request per line from FILE (standard input when FILE is\n"
          "absent or \"-\") and writes one JSON answer per line, in the same order.\n"
          "\n"
          "Requests (every one may carry \"id\", echoed in the answer):\n"
          "  {\"op\":\"sweep\", \"a\":SHAPE, \"d\":[x,y,z], \"b\":SHAPE, \"skin\":0, \"ignore_separating\":false}\n"
          "  {\"op\":\"raycast\", \"origin\":[x,y,z], \"dir\":[x,y,z], \"max\":1, \"b\":SHAPE}\n"
          "  {\"op\":\"sweep_inside\", \"a\":SHAPE, \"d\":[x,y,z], \"b\":SHAPE}\n"
          "  {\"op\":\"overlap\", \"a\":SHAPE, \"b\":SHAPE}\n"
          "  {\"op\":\"distance\", \"a\":SHAPE, \"b\":SHAPE}\n"
          "Shapes:\n"
          "  {\"type\":\"point\", \"p\":[x,y,z]}\n"
          "  {\"type\":\"sphere\", \"center\":[x,y,z], \"radius\":r}\n"
          "  {\"type\":\"segment\", \"a\":[x,y,z], \"b\":[x,y,z]}\n"
          "  {\"type\":\"capsule\", \"a\":[x,y,z], \"b\":[x,y,z], \"radius\":r}\n"
          "  {\"type\":\"box\", \"center\":[x,y,z], \"half\":[hx,hy,hz], \"rotation\":[qx,qy,qz,qw]}\n"
          "  {\"type\":\"plane\", \"normal\":[x,y,z], \"offset\":d}   (the solid is normal.x <= d)\n"
          "  {\"type\":\"triangle\", \"v\":[[x,y,z],[x,y,z],[x,y,z]], \"one_sided\":false}\n"
          "  {\"type\":\"polygon\", \"v\":[[x,y,z],...], \"one_sided\":false}   (convex, planar, 3 to 64 points)\n"
          "  {\"type\":\"hull\", \"points\":[[x,y,z],...], \"position\":[x,y,z], \"rotation\":[qx,qy,qz,qw]}\n"
          "                    (the convex hull of 4 to 100000 points, at most 1024 vertices)\n"
          "  {\"type\":\"mesh\", \"v\":[[x,y,z],...], \"tri\":[[i,j,k],...], \"one_sided\":false,\n"
          "                    \"position\":[x,y,z], \"rotation\":[qx,qy,qz,qw]}   (static shapes only: b, or a\n"
          "                    of overlap and distance; a hit on a mesh adds \"triangle\":i to the answer)\n"
          "  {\"type\":\"mesh\", \"obj\":\"path\", ...}   (instead of v and tri: an OBJ, PLY, STL, glTF... file,\n"
          "                    read once per run; a face of n > 3 vertices is n - 2 triangles, a fan from\n"
          "                    its first vertex, numbered in file order; paths are relative to the\n"
          "                    working directory)\n"
          "Optional: skin (0), ignore_separating (false), max (1), rotation (identity), position (origin),\n"
          "one_sided (false).\n"
          "\n"
          "Scenes (kept until the end of the input; shapes may carry \"key\" (default: their position\n"
          "among all shapes added to the scene), \"category\" and \"mask\" (0 to 2^64-1, default all bits)):\n"
          "  {\"op\":\"scene_create\", \"scene\":\"level\", \"shapes\":[SHAPE,...]}   (creates or replaces)\n"
          "  {\"op\":\"scene_add\", \"scene\":\"level\", \"shapes\":[SHAPE,...]}\n"
          "  {\"op\":\"scene_remove\", \"scene\":\"level\", \"keys\":[k,...]}\n"
          "  {\"op\":\"scene_move\", \"scene\":\"level\", \"key\":k, \"shape\":SHAPE, \"velocity\":[x,y,z],\n"
          "                    \"angular_velocity\":[x,y,z]}   (velocities optional)\n"
          "  answered {\"id\":..,\"scene\":\"level\",\"count\":N}. A sweep, raycast, overlap or distance\n"
          "  names \"scene\":\"level\" (or an inline \"scene\":[SHAPE,...]) instead of \"b\", with optional\n"
          "  \"mask\" (shapes whose category shares a bit with it), \"hits\":\"closest\"|\"any\"|\"all\"\n"
          "  (sweep, raycast) and \"max\" (distance: the closest shape within max). Hits name their\n"
          "  \"key\"; all answers {\"hits\":[...]}, overlap {\"overlaps\":[...]}; see docs/protocol.md.\n"
          "\n"
          "A bad line is answered with {\"id\":..,\"error\":\"line N: ...\"} and the\n"
          "program goes on. Exit status: 0 if every line was answered, 1 if any line\n"
          "was bad, 2 on a usage or I/O error.\n",
          f);
}

int cmd_query(int argc, char** argv)
{
    const char* path = NULL;
    for (int i = 1; i < argc; ++i) {
        const char* arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "sweep query: unknown option '%s' (try 'sweep query --help')\n", arg);
            return 2;
        }
        if (path) {
            fprintf(stderr, "sweep query: only one input file may be given (try 'sweep query --help')\n");
            return 2;
        }
        path = arg;
    }

    FILE* in = stdin;
    const char* name = "standard input";
    if (path && strcmp(path, "-") != 0) {
        in = fopen(path, "r");
        if (!in) {
            fprintf(stderr, "sweep query: cannot open '%s': %s\n", path, strerror(errno));
            return 2;
        }
        name = path;
    }
    /* Answers are small; a large block buffer turns them into few writes. */
    static char out_buffer[1 << 16];
    setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
    request_catch_invalid_input();

    long bad = 0;
    const int rc = query_stream(in, stdout, &bad);
    const int saved_errno = errno;
    const bool read_failed = ferror(in) != 0;
    if (in != stdin) {
        fclose(in);
    }
    if (rc != 0) {
        if (read_failed) {
            fprintf(stderr, "sweep query: error reading %s: %s\n", name, strerror(saved_errno));
        } else {
            fprintf(stderr, "sweep query: error writing the answers: %s\n", strerror(saved_errno));
        }
        return 2;
    }
    return bad > 0 ? 1 : 0;
}
