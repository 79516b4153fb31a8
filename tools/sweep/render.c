/* `sweep render`: placeholder until the renderer lands. */
#include <stdio.h>

#include "commands.h"

int cmd_render(int argc, char** argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sweep render: not built yet\n");
    return 2;
}
