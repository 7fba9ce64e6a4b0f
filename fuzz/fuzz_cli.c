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
#include <unistd.h>

#include "cli/commands.h"
#include "gen/build.h"

#define MAX_ARGS 16

static char root[] = "/tmp/damero-fuzz-cli-XXXXXX";

static void remove_root(void)
{
    char command[sizeof root + 16];
    snprintf(command, sizeof command, "rm -rf %s", root);
    if (system(command) != 0)
        fprintf(stderr, "fuzz_cli: could not remove %s\n", root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const struct variant *v = variant_by_name("russian");
    struct material wanted[64];
    struct build_options options = { 0 };
    struct tableset ts;
    char err[512], dir[sizeof root + 16];
    int n = 0;
    (void)argc, (void)argv;
    if (!mkdtemp(root) || chdir(root) != 0)
        abort();
    atexit(remove_root);
    for (int pieces = 2; pieces <= 3; pieces++)
        n += material_list(v, pieces, wanted + n, 64 - n);
    snprintf(dir, sizeof dir, "%s/tables/russian", root);
    tableset_init(&ts, v, dir);
    if (build_materials(&ts, wanted, n, &options, err, sizeof err) < 0) {
        fprintf(stderr, "fuzz_cli: %s\n", err);
        abort();
    }
    tableset_free(&ts);
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
