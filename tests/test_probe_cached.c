/* The probe from the cache alone (damero_probe_wdl_cached) and the handle's statistics
 * (damero_read_cache_stats): over every position of the russian tables of up to 3
 * pieces, the probe answers nothing a fresh handle has not read (and reads nothing
 * itself), answers everything once the blocks are cached, with the values
 * damero_probe_wdl gives; the counts of hits, misses, blocks and bytes are exactly those
 * of the block read, against the file's own block directory. */
#define _XOPEN_SOURCE 700 /* nftw, in file_util.h */
#include "tests/file_util.h"
#include "tests/probe_util.h"

#include <unistd.h>

#include "format/index.h"
#include "format/lookup.h"
#include "format/tablefile.h"

#define PIECES 3
#define CACHE (64 << 20) /* far more than the 3-piece tables decompressed */
#define QUIET "W:WKa1,Kc1:BKh8" /* no capture: its WDL is read from its own block */

static int setup(void **state) { return temp_dir_setup(state, "probe-cached"); }

static void build_tables(const char *dir)
{
    struct material materials[64];
    const struct variant *v = test_variant("russian");
    build_on_disk(v, dir, materials, test_materials(v, PIECES, NULL, materials, 64));
}

static damero_position public_fen(const struct variant *v, const char *fen)
{
    struct position p = test_position(v, fen);
    return public_position(v, &p);
}

static damero_tb *open_tables(const char *dir, size_t cache)
{
    damero_tb *tb;
    if (damero_open("russian", dir, cache, &tb) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    return tb;
}

/* Every position of every material of up to PIECES pieces, both sides to move. */
static damero_position *every_position(const struct variant *v, int *count)
{
    struct material materials[64];
    int n_materials = test_materials(v, PIECES, NULL, materials, 64);
    damero_position *out = NULL;
    size_t n = 0;
    for (int k = 0; k < n_materials; k++) {
        struct material_index ix;
        assert_int_equal(index_init(&ix, v, &materials[k]), 0);
        out = realloc(out, (n + 2 * ix.size) * sizeof *out);
        assert_non_null(out);
        for (int side = 0; side < 2; side++)
            for (uint64_t i = 0; i < ix.size; i++) {
                struct position p;
                index_position(&ix, i, (enum side)side, &p);
                out[n++] = public_position(v, &p);
            }
        index_free(&ix);
    }
    *count = (int)n;
    return out;
}

static damero_cache_stats stats_of(const damero_tb *tb)
{
    damero_cache_stats s;
    assert_int_equal(damero_read_cache_stats(tb, &s), DAMERO_OK);
    return s;
}

static void test_answers_only_from_the_cache(void **state)
{
    struct temp_dir *f = *state;
    const struct variant *v = test_variant("russian");
    int n, answered = 0, wdl;
    build_tables(f->dir);
    damero_position *positions = every_position(v, &n);
    int *cached = malloc((size_t)n * sizeof *cached), *want = malloc((size_t)n * sizeof *want);
    assert_non_null(cached);
    assert_non_null(want);
    damero_tb *tb = open_tables(f->dir, CACHE);

    /* a fresh handle has opened no file: only the games already over are answered, and
     * nothing is read */
    for (int i = 0; i < n; i++) {
        cached[i] = 99;
        int status = damero_probe_wdl_cached(tb, &positions[i], &cached[i]);
        assert_true(status == DAMERO_OK || status == DAMERO_NOT_CACHED);
        answered += status == DAMERO_OK;
        if (status == DAMERO_NOT_CACHED)
            assert_int_equal(cached[i], 99); /* left as it was */
    }
    assert_true(answered < n / 10);
    damero_cache_stats s = stats_of(tb);
    assert_int_equal(s.blocks_read, 0);
    assert_int_equal(s.bytes_read, 0);
    assert_int_equal(s.bytes_decompressed, 0);

    /* the probe that reads caches every block; the one from the cache then answers all,
     * the same, still reading nothing */
    for (int i = 0; i < n; i++) {
        if (damero_probe_wdl(tb, &positions[i], &want[i]) != DAMERO_OK)
            fail_msg("position %d: %s", i, damero_error_message());
        if (cached[i] != 99)
            assert_int_equal(cached[i], want[i]);
    }
    damero_cache_stats read = stats_of(tb);
    assert_true(read.blocks_read > 0);
    for (int i = 0; i < n; i++) {
        assert_int_equal(damero_probe_wdl_cached(tb, &positions[i], &wdl), DAMERO_OK);
        assert_int_equal(wdl, want[i]);
    }
    s = stats_of(tb);
    assert_int_equal(s.blocks_read, read.blocks_read);
    assert_int_equal(s.bytes_read, read.bytes_read);
    assert_int_equal(s.misses, read.misses);
    assert_true(s.hits >= read.hits + (uint64_t)(n - answered) / 2);

    /* without a cache, nothing is ever answered but games already over */
    damero_tb *uncached = open_tables(f->dir, 0);
    damero_position quiet = public_fen(v, QUIET);
    assert_int_equal(damero_probe_wdl(uncached, &quiet, &wdl), DAMERO_OK);
    assert_int_equal(damero_probe_wdl_cached(uncached, &quiet, &wdl), DAMERO_NOT_CACHED);
    damero_close(uncached);
    damero_close(tb);
    free(positions);
    free(cached);
    free(want);
}

/* The size of the block that holds fen's WDL in dir's table file, in the file and
 * decompressed, from the file's own directory. */
static void block_of(const char *dir, const char *fen, uint64_t *stored, uint64_t *raw)
{
    const struct variant *v = test_variant("russian");
    struct position p = test_position(v, fen);
    struct lookup l;
    struct material_index ix;
    struct table_map map;
    char name[MATERIAL_NAME_SIZE], path[512], err[512];
    assert_int_equal(lookup_position(v, &p, &l), LOOKUP_TABLE);
    assert_int_equal(index_init(&ix, v, &l.material), 0);
    material_name(&l.material, name);
    snprintf(path, sizeof path, "%s/russian/%s.wdl", dir, name);
    if (table_map_open(path, &map, err, sizeof err) != TABLE_OK)
        fail_msg("%s", err);
    uint64_t b = table_block_of(&map, l.oriented.side, index_of(&ix, &l.oriented, NULL));
    *stored = map.offsets[b + 1] - map.offsets[b];
    *raw = table_block_bytes(&map, b);
    table_map_close(&map);
    index_free(&ix);
}

static void assert_stats(const damero_tb *tb, uint64_t hits, uint64_t misses, uint64_t blocks,
                         uint64_t stored, uint64_t raw)
{
    damero_cache_stats s = stats_of(tb);
    assert_int_equal(s.hits, hits);
    assert_int_equal(s.misses, misses);
    assert_int_equal(s.blocks_read, blocks);
    assert_int_equal(s.bytes_read, blocks * stored);
    assert_int_equal(s.bytes_decompressed, blocks * raw);
}

static void test_statistics(void **state)
{
    struct temp_dir *f = *state;
    const struct variant *v = test_variant("russian");
    damero_position quiet = public_fen(v, QUIET);
    uint64_t stored, raw;
    int wdl;
    build_tables(f->dir);
    block_of(f->dir, QUIET, &stored, &raw);
    assert_true(stored > 0 && raw > 0);

    damero_tb *tb = open_tables(f->dir, CACHE);
    assert_stats(tb, 0, 0, 0, stored, raw);
    assert_int_equal(damero_probe_wdl_cached(tb, &quiet, &wdl), DAMERO_NOT_CACHED);
    assert_stats(tb, 0, 0, 0, stored, raw); /* the file not open yet: no lookup at all */
    assert_int_equal(damero_probe_wdl(tb, &quiet, &wdl), DAMERO_OK);
    assert_stats(tb, 0, 1, 1, stored, raw);
    assert_int_equal(damero_probe_wdl(tb, &quiet, &wdl), DAMERO_OK);
    assert_stats(tb, 1, 1, 1, stored, raw);
    assert_int_equal(damero_probe_wdl_cached(tb, &quiet, &wdl), DAMERO_OK);
    assert_stats(tb, 2, 1, 1, stored, raw);
    assert_int_equal(damero_probe_wdl_many(tb, (damero_position[]){ quiet, quiet }, 2,
                                           (int[2]){ 0 }, NULL),
                     DAMERO_OK);
    assert_stats(tb, 4, 1, 1, stored, raw);
    assert_int_equal(damero_reset_cache_stats(tb), DAMERO_OK);
    assert_stats(tb, 0, 0, 0, stored, raw);
    assert_int_equal(damero_probe_wdl(tb, &quiet, &wdl), DAMERO_OK); /* still cached */
    assert_stats(tb, 1, 0, 0, stored, raw);
    damero_close(tb);

    /* without a cache every lookup misses and reads its block; the probe from the cache
     * misses without reading */
    tb = open_tables(f->dir, 0);
    assert_int_equal(damero_probe_wdl(tb, &quiet, &wdl), DAMERO_OK);
    assert_int_equal(damero_probe_wdl(tb, &quiet, &wdl), DAMERO_OK);
    assert_stats(tb, 0, 2, 2, stored, raw);
    assert_int_equal(damero_probe_wdl_cached(tb, &quiet, &wdl), DAMERO_NOT_CACHED);
    assert_stats(tb, 0, 3, 2, stored, raw);
    damero_close(tb);
}

static void test_errors(void **state)
{
    struct temp_dir *f = *state;
    const struct variant *v = test_variant("russian");
    damero_position quiet = public_fen(v, QUIET);
    damero_position four = public_fen(v, "W:WKa1,Kc1:BKh8,Kh6");
    damero_position bad = quiet;
    damero_cache_stats s;
    char path[512];
    int wdl = 99;
    build_tables(f->dir);
    damero_tb *tb = open_tables(f->dir, CACHE);

    assert_int_equal(damero_probe_wdl_cached(NULL, &quiet, &wdl), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_probe_wdl_cached(tb, &quiet, NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_read_cache_stats(NULL, &s), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_read_cache_stats(tb, NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_reset_cache_stats(NULL), DAMERO_ERR_ARGUMENT);
    bad.kings[DAMERO_BLACK] = bad.kings[DAMERO_WHITE]; /* two pieces on one square */
    assert_int_equal(damero_probe_wdl_cached(tb, &bad, &wdl), DAMERO_ERR_POSITION);
    /* no table of 4 pieces: said at once, as damero_probe_wdl says it */
    assert_int_equal(damero_probe_wdl_cached(tb, &four, &wdl), DAMERO_ERR_MISSING);
    assert_non_null(strstr(damero_error_message(), "damero gen"));
    assert_int_equal(wdl, 99);

    /* a file found bad: its failure again, without reading it again */
    snprintf(path, sizeof path, "%s/russian/KKvK.wdl", f->dir);
    assert_int_equal(truncate(path, 100), 0);
    assert_int_equal(damero_probe_wdl_cached(tb, &quiet, &wdl), DAMERO_NOT_CACHED);
    assert_int_equal(damero_probe_wdl(tb, &quiet, &wdl), DAMERO_ERR_TRUNCATED);
    assert_int_equal(damero_probe_wdl_cached(tb, &quiet, &wdl), DAMERO_ERR_TRUNCATED);
    assert_non_null(strstr(damero_error_message(), "KKvK.wdl"));
    damero_close(tb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_answers_only_from_the_cache, setup,
                                        temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_statistics, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, temp_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
