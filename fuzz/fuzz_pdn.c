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

#include "cli/commands.h"
#include "fuzz/tables_root.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    enter_tables_root("fuzz_pdn");
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
