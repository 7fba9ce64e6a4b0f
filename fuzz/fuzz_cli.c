/* libFuzzer target: the command line, as `damero` parses and runs it.
 *
 * Input: the arguments after "damero", separated by NUL bytes (at most MAX_ARGS). They
 * run in a folder holding the russian tables of up to 3 pieces as tables/russian (the
 * default --dir), so that probe, line and info reach real work. The commands that build
 * tables (gen, verify), count to a depth (perft) or serve until stopped (serve) would
 * spend minutes on one input: those inputs are skipped, and their shared option parsers (variants, numbers, paths)
 * are reached through the others. Output goes to /dev/null; every input must end with an
 * exit code, never a crash. */
#define _DEFAULT_SOURCE /* getopt's reset, below */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "fuzz/tables_root.h"

#define MAX_ARGS 16

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    enter_tables_root("fuzz_cli");
    /* standard input empty, so that a batch probe reading it (no FEN given) ends at once */
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "r", stdin))
        abort();
    return 0;
}

/* Whether the command named would build tables, count to a depth or serve. */
static int is_long_running(const char *command)
{
    return strcmp(command, "gen") == 0 || strcmp(command, "verify") == 0 ||
           strcmp(command, "perft") == 0 || strcmp(command, "serve") == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *args[MAX_ARGS + 2];
    int argc = 0;
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    args[argc++] = "damero";
    for (size_t at = 0; at <= size && argc <= MAX_ARGS; at += strlen(text + at) + 1)
        args[argc++] = text + at;
    args[argc] = NULL;
    if (argc < 2 || !is_long_running(args[1]))
        run_damero(argc, args);
    fflush(stdout);
    /* getopt keeps a pointer into the last argv when a run stopped inside a cluster of
     * short options ("-hx"): optind = 0 makes the next parse start afresh */
    optind = 0;
    char *none[] = { "damero", NULL };
    getopt(1, none, "");
    free(text);
    return 0;
}
