/* libFuzzer target: PDN files as `damero annotate` reads them.
 *
 * Input: one byte, then a PDN file's bytes. The file is written to a temporary folder
 * holding the russian tables of up to 3 pieces as tables/russian (the default --dir),
 * and annotated: the byte's low bits choose --json, --rules and --variant russian (so
 * that games without a GameType tag are followed too). The reader meets broken tags,
 * comments and variations never closed, NUL bytes, numbers of every size; the games it
 * reads are followed against the tables and written back. Output goes to /dev/null; every
 * input must end with an exit code, never a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "gen/build.h"

static char root[] = "/tmp/damero-fuzz-pdn-XXXXXX";

static void remove_root(void)
{
    char command[sizeof root + 16];
    snprintf(command, sizeof command, "rm -rf %s", root);
    if (system(command) != 0)
        fprintf(stderr, "fuzz_pdn: could not remove %s\n", root);
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
        fprintf(stderr, "fuzz_pdn: %s\n", err);
        abort();
    }
    tableset_free(&ts);
    if (!freopen("/dev/null", "w", stdout)) /* stderr: run_fuzzers.sh closes it for us */
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *args[8] = { "damero", "annotate" };
    int argc = 2;
    if (size == 0)
        return 0;
    FILE *f = fopen("game.pdn", "wb");
    if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f) != 0)
        abort();
    if (data[0] & 1)
        args[argc++] = "--json";
    if (data[0] & 2)
        args[argc++] = "--rules";
    if (data[0] & 4) {
        args[argc++] = "--variant";
        args[argc++] = "russian";
    }
    args[argc++] = "game.pdn";
    args[argc] = NULL;
    run_damero(argc, args);
    fflush(stdout);
    return 0;
}
