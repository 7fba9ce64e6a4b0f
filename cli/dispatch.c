/* damero's command line: the subcommands, and run_damero, which picks one from argv. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "core/variant.h"
#include "probe/damero.h"

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
    { "check", cmd_check, "check every table file of a directory and list each problem", false },
    { "annotate", cmd_annotate, "PDN games with the tables' value at every position they reach",
      false },
    { "serve", cmd_serve, "a web page to explore the tables, and an HTTP API (JSON)", false },
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
    fprintf(out, "\n'damero help COMMAND' (or 'damero COMMAND --help') explains a command.\n"
                 "Tables are read and written under --dir DIR, by default $DAMERO_TABLES, or\n"
                 "tables in the current directory when it is not set.\n");
}

static const struct command *command_named(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
    fprintf(stderr, "damero: unknown command '%s' (see 'damero --help')\n", name);
    return NULL;
}

bool command_is_threaded(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].threaded;
    return false;
}

/* damero help [COMMAND]: the overview, or the command's own --help. */
static int help(int argc, char **argv)
{
    const struct command *c;
    if (argc < 3) {
        print_help(stdout);
        return EXIT_OK;
    }
    if (argc > 3)
        return usage_error("help", "give one command, not '%s %s'", argv[2], argv[3]);
    if (!(c = command_named(argv[2])))
        return EXIT_USAGE;
    char *args[] = { argv[2], "--help", NULL };
    return c->run(2, args);
}

int run_damero(int argc, char **argv)
{
    const struct command *c;
    if (argc < 2) {
        print_help(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0)
        return help(argc, argv);
    if (strcmp(argv[1], "--version") == 0) {
        printf("damero %s\n", damero_version());
        return EXIT_OK;
    }
    if (!(c = command_named(argv[1])))
        return EXIT_USAGE;
    return c->run(argc - 1, argv + 1);
}
