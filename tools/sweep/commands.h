/* The sweep program's subcommands. Each takes the arguments after the
 * command name (argv[0] is the command name) and returns the exit status. */
#ifndef SWEEP_TOOL_COMMANDS_H
#define SWEEP_TOOL_COMMANDS_H

int cmd_query(int argc, char** argv);
int cmd_demo(int argc, char** argv);
int cmd_render(int argc, char** argv);

#endif
