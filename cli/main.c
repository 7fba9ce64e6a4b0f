/* damero: endgame tablebases for draughts. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "core/variant.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    bool threaded; /* runs OpenMP threads (builds tables) */
} commands[] = {
    { "gen", cmd_gen, "build tables by retrograde analysis", true },
    { "info", cmd_info, "what a table holds: counts, longest wins, DTM histogram", false },
    { "probe", cmd_probe, "the value of a position and of each of its moves (WDL, DTM, MTC)",
      false },
    { "line", cmd_line, "the best line from a position, both sides playing the tables' moves",
      false },
    { "verify", cmd_verify, "each move-limit draw rule against perfect play, from the tables",
      true },
    { "perft", cmd_perft, "count move sequences to a depth (tests the move generator)", false },
};

static void print_help(FILE *out)
{
    fprintf(out,
            "usage: damero COMMAND [OPTIONS]\n"
            "\n"
            "Endgame tablebases for draughts: generation, probing, and the verification\n"
            "of move-limit draw rules.\n"
            "\n"
            "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nVariants:\n");
    for (const struct variant *v = variants; v->name; v++)
        fprintf(out, "  %-14s %s\n", v->name, v->title);
    fprintf(out, "\n'damero COMMAND --help' explains a command.\n");
}

/* OpenMP threads that wait at a barrier spin by default, burning a core each: on a
 * machine shared with other jobs that doubles the CPU time of a build and slows the
 * threads still working. The OpenMP runtime reads its waiting policy from the environment
 * once, as the program loads, so unless the user chose one (OMP_WAIT_POLICY, or GNU's
 * GOMP_SPINCOUNT), set passive waiting and start the program again. Tables do not depend
 * on it. If the program cannot be started again, it carries on with the default policy. */
static void prefer_passive_waits(char **argv)
{
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT"))
        return;
    if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    unsetenv("OMP_WAIT_POLICY"); /* not restarted: the policy is still the default */
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        print_help(stdout);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            if (commands[i].threaded)
                prefer_passive_waits(argv);
            return commands[i].run(argc - 1, argv + 1);
        }
    fprintf(stderr, "damero: unknown command '%s' (see 'damero --help')\n", argv[1]);
    return EXIT_USAGE;
}
