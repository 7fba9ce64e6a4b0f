/* The subcommands of `damero`. Each takes its own argv (argv[0] is the subcommand name)
 * and returns the process exit code (enum exit_code). */
#ifndef DAMERO_CLI_COMMANDS_H
#define DAMERO_CLI_COMMANDS_H

#include <stdbool.h>

/* The whole command line (argv[0] is the program, argv[1] the subcommand): runs the
 * subcommand, or prints the help. Returns the exit code. */
int run_damero(int argc, char **argv);

/* Whether the subcommand `name` runs OpenMP threads (it builds tables). */
bool command_is_threaded(const char *name);

int cmd_perft(int argc, char **argv);
int cmd_gen(int argc, char **argv);
/* damero gen shared by the processes of a job (cli/main_mpi.c): each builds its share of
 * the plan (gen/build.h). */
struct build_ranks;
int cmd_gen_shared(int argc, char **argv, const struct build_ranks *ranks);
int cmd_info(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_line(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_annotate(int argc, char **argv);

#endif
