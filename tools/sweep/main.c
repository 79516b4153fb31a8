/* The `sweep` program: `sweep COMMAND [ARGS...]`. */
#include <stdio.h>
#include <string.h>

#include "sweep/sweep.h"

#include "bench.h"
#include "commands.h"
#include "meshio.h"
#include "request.h"

typedef struct command {
    const char* name;
    int (*run)(int argc, char** argv);
    const char* summary;
} command;

static const command commands[] = {
    {"query", cmd_query, "answer JSON Lines requests (sweep, raycast, overlap, distance, scenes)"},
    {"render", cmd_render, "draw a query to an image"},
    {"demo", cmd_demo, "bouncing spheres moved only by sweeps, with a no-tunnelling check"},
    {"bench", cmd_bench, "time every sweep and ray cast pair (ns per query, ratios to sphere-sphere)"},
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

static void usage(FILE* f)
{
    fputs("usage: sweep COMMAND [ARGS...]\n"
          "       sweep --help | --version\n"
          "\n"
          "Commands:\n",
          f);
    for (int i = 0; i < COMMAND_COUNT; ++i) {
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    }
    fputs("\n'sweep COMMAND --help' describes a command.\n", f);
}

static const command* find_command(const char* name)
{
    for (int i = 0; i < COMMAND_COUNT; ++i) {
        if (strcmp(commands[i].name, name) == 0) {
            return &commands[i];
        }
    }
    return NULL;
}

int main(int argc, char** argv)
{
    /* A program compiled for one precision linked with a library of the
     * other would misread every shape; refuse rather than answer wrongly. */
    if (strcmp(sw_precision(), SW_PRECISION_NAME) != 0) {
        fprintf(stderr, "sweep: built for %s but linked with a %s library\n", SW_PRECISION_NAME, sw_precision());
        return 2;
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char* name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0) {
        printf("sweep %s (%s precision)\n", sw_version(), sw_precision());
        return 0;
    }
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return 0;
        }
        const command* c = find_command(argv[2]);
        if (!c) {
            fprintf(stderr, "sweep: unknown command '%s' (try 'sweep --help')\n", argv[2]);
            return 2;
        }
        char help[] = "--help";
        char* args[] = {argv[2], help, NULL};
        return c->run(2, args);
    }
    const command* c = find_command(name);
    if (!c) {
        fprintf(stderr, "sweep: unknown command '%s' (try 'sweep --help')\n", name);
        return 2;
    }
    /* Requests may name mesh files ("obj"); each is read once per run. */
    request_set_mesh_loader(sw_meshio_mesh);
    const int status = c->run(argc - 1, argv + 1);
    sw_meshio_clear();
    return status;
}
