/* libFuzzer target: table files as a prober and the generator's reader meet them.
 *
 * Input: one byte, then a table file's bytes. The byte's low seven bits choose which of
 * the files of four small russian tables (KvK, KvM, MvM, KKvK: .wdl, .dtm, .mtc, and the
 * rule and distance tables .ru0, .ru1, .rz0, .rz1) the bytes replace in a folder of
 * intact tables; unless its high bit is set, the header checksum is
 * recomputed first (table_seal_header), so that mutations reach the code past it. The
 * folder is then opened with damero_open, positions of the material probed (WDL,
 * DTM and MTC, the moves at the root, which probe the tables they lead to, and the values
 * under the rules of both readings, which read the rule tables), and the
 * file read whole as gen and info read it (when its header claims at most MAX_WHOLE_READ
 * positions: a whole read takes memory for every position it claims). Every call must
 * return a status, never crash. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/notation.h"
#include "format/index.h"
#include "gen/build.h"
#include "store/table_io.h"
#include "probe/damero.h"

static const char *const materials[] = { "KvK", "KvM", "MvM", "KKvK" };
#define NUM_MATERIALS 4
#define NUM_FILES (METRIC_LAST * NUM_MATERIALS) /* every metric, from METRIC_WDL (1) */
#define MAX_WHOLE_READ (1 << 20) /* positions per side */
#define SAMPLES 48                /* positions probed per side to move */

static char root[] = "/tmp/damero-fuzz-table-XXXXXX";
static char folder[sizeof root + 16];
static const struct variant *russian;
static struct material_index indexes[NUM_MATERIALS];
static uint8_t *intact[NUM_FILES]; /* each file's bytes as built */
static size_t intact_size[NUM_FILES];

static void file_path(int k, char *path, size_t size)
{
    snprintf(path, size, "%s/%s%s", folder, materials[k % NUM_MATERIALS],
             table_metric_suffix((enum table_metric)(METRIC_WDL + k / NUM_MATERIALS)));
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "fuzz_table: cannot write %s\n", path);
        abort();
    }
}

static void remove_root(void)
{
    char path[256];
    for (int k = 0; k < NUM_FILES; k++) {
        file_path(k, path, sizeof path);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/.damero-gen.lock", folder);
    remove(path);
    rmdir(folder);
    rmdir(root);
}

/* Builds the tables once, their rule tables too, and keeps their bytes to put back after
 * each input. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    struct material wanted[NUM_MATERIALS];
    struct build_options options = { .rule_tables = true };
    struct tableset ts;
    char err[512], path[256];
    (void)argc, (void)argv;
    russian = variant_by_name("russian");
    if (!mkdtemp(root))
        abort();
    atexit(remove_root);
    snprintf(folder, sizeof folder, "%s/russian", root);
    for (int m = 0; m < NUM_MATERIALS; m++)
        if (material_parse(russian, materials[m], &wanted[m], err, sizeof err) < 0 ||
            index_init(&indexes[m], russian, &wanted[m]) < 0)
            abort();
    tableset_init(&ts, russian, folder);
    if (build_materials(&ts, wanted, NUM_MATERIALS, &options, err, sizeof err) < 0) {
        fprintf(stderr, "fuzz_table: %s\n", err);
        abort();
    }
    tableset_free(&ts);
    for (int k = 0; k < NUM_FILES; k++) {
        file_path(k, path, sizeof path);
        FILE *f = fopen(path, "rb");
        if (!f || fseek(f, 0, SEEK_END) != 0 || ftell(f) < 0)
            abort();
        intact_size[k] = (size_t)ftell(f);
        rewind(f);
        if (!(intact[k] = malloc(intact_size[k] + 1)) ||
            fread(intact[k], 1, intact_size[k], f) != intact_size[k])
            abort();
        fclose(f);
    }
    return 0;
}

/* Probes SAMPLES positions of material m spread over its table, each side to move, through
 * every entry point that reads values; under the rules too when `rules` (a search where a
 * rule table fails, dear: only when one was given). */
static void probe_material(damero_tb *tb, int m, bool rules)
{
    static damero_move moves[DAMERO_MAX_MOVES];
    uint64_t step = indexes[m].size / SAMPLES + 1;
    for (int side = 0; side < 2; side++)
        for (uint64_t i = 0; i < indexes[m].size; i += step) {
            struct position p;
            damero_position pos = { .side_to_move = side };
            char fen[FEN_SIZE];
            damero_value value;
            damero_counts counts;
            damero_rules_value under_rules;
            int wdl, count;
            index_position(&indexes[m], i, (enum side)side, &p);
            fen_print(russian, &p, fen);
            if (damero_parse_fen(tb, fen, &pos) != DAMERO_OK)
                continue;
            damero_probe_wdl(tb, &pos, &wdl);
            damero_probe(tb, &pos, &value);
            if ((i / step) % 8 == 0)
                damero_root_moves(tb, &pos, moves, DAMERO_MAX_MOVES, &count);
            if (rules && (i / step) % 4 == 0 &&
                damero_counts_start(tb, &pos, &counts) == DAMERO_OK)
                for (int reading = 1; reading <= 2; reading++)
                    damero_probe_rules(tb, &pos, &counts, reading, &under_rules);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256], err[1024];
    if (size < 1)
        return 0;
    int k = (data[0] & 0x7f) % NUM_FILES;
    uint8_t *file = malloc(size);
    if (!file)
        return 0;
    memcpy(file, data + 1, size - 1);
    if (!(data[0] & 0x80))
        table_seal_header(file, size - 1);
    file_path(k, path, sizeof path);
    write_file(path, file, size - 1);
    free(file);

    damero_tb *tb;
    if (damero_open("russian", root, 1 << 16, &tb) == DAMERO_OK) {
        probe_material(tb, k % NUM_MATERIALS, k / NUM_MATERIALS + 1 >= METRIC_RULES0);
        damero_close(tb);
    }
    /* a header may claim any number of positions, and a whole read takes memory for them
     * all (as it must for a real table): only the claims of small tables are read */
    struct table_file_info info;
    void *values[2];
    if (table_file_read_info(path, &info, err, sizeof err) == TABLE_OK &&
        info.positions <= MAX_WHOLE_READ &&
        table_file_read(path, &info, values, err, sizeof err) == TABLE_OK) {
        free(values[0]);
        free(values[1]);
    }
    /* and block by block, as a build reads the tables it holds in bytes */
    struct table_map map;
    if (table_map_open(path, &map, err, sizeof err) == TABLE_OK) {
        table_map_read_blocks(&map, NULL, NULL, err, sizeof err);
        table_map_close(&map);
    }
    write_file(path, intact[k], intact_size[k]);
    return 0;
}
