/* damero's command line: the subcommands, and run_damero, which picks one from argv. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "core/variant.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    { "gen", cmd_gen, "build tables by retrograde analysis" },
    { "info", cmd_info, "what a table holds: counts, longest wins, DTM histogram" },
    { "probe", cmd_probe, "the value of a position and of each of its moves (WDL, DTM, MTC)" },
    { "line", cmd_line, "the best line from a position, both sides playing the tables' moves" },
    { "verify", cmd_verify, "each move-limit draw rule against perfect play, from the tables" },
    { "perft", cmd_perft, "count move sequences to a depth (tests the move generator)" },
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

int run_damero(int argc, char **argv)
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
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "damero: unknown command '%s' (see 'damero --help')\n", argv[1]);
    return EXIT_USAGE;
}
