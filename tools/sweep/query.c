/* `sweep query [FILE]`: answers JSON Lines requests (DESIGN.md §5), one
 * answer line per input line, in order, in constant memory. */
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
            rc = request_answer(&req, out, err, sizeof err);
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
