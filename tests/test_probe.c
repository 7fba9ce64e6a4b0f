/* The probing library (damero.h) against the generator: every position of small tables,
 * probed through the public API from files on disk, has the value the generator holds in
 * memory, including the positions whose WDL is stored as a don't-care, probed one at a
 * time and a batch at a time. */
#define _XOPEN_SOURCE 700 /* nftw, in file_util.h */
#include "tests/file_util.h"
#include "tests/probe_util.h"

static int setup(void **state) { return temp_dir_setup(state, "probe"); }

/* Builds every material of up to `pieces` pieces: into dir/<variant> for the library,
 * and separately in memory (ts), where the generator keeps every table it solved. */
static void build_all(struct tableset *ts, const struct variant *v, const char *dir,
                      int pieces)
{
    struct material wanted[256];
    struct build_options options = { 0 };
    char err[512];
    int n = test_materials(v, pieces, NULL, wanted, 256);
    build_on_disk(v, dir, wanted, n);
    tableset_init(ts, v, NULL);
    if (build_materials(ts, wanted, n, &options, err, sizeof err) < 0)
        fail_msg("%s: %s", v->name, err);
}

static int expected_wdl(dtm_t dtm)
{
    return dtm == DTM_DRAW ? DAMERO_DRAW : dtm_is_win(dtm) ? DAMERO_WIN : DAMERO_LOSS;
}

struct tally {
    uint64_t positions, captures;
};

/* Positions probed again a batch at a time (damero_probe_wdl_many), with the WDL the
 * generator gives each. */
#define BATCH 37 /* not a multiple of the library's own batches */
struct batch {
    damero_position pos[BATCH];
    int want[BATCH];
    int n;
};

static void flush_batch(damero_tb *tb, const struct variant *v, struct batch *b)
{
    int wdl[BATCH];
    char fen[DAMERO_FEN_SIZE] = "?";
    if (damero_probe_wdl_many(tb, b->pos, (size_t)b->n, wdl, NULL) != DAMERO_OK)
        fail_msg("%s: a batch: %s", v->name, damero_error_message());
    for (int k = 0; k < b->n; k++)
        if (wdl[k] != b->want[k]) {
            damero_write_fen(tb, &b->pos[k], fen);
            fail_msg("%s %s: in a batch wdl %d, the generator %d", v->name, fen, wdl[k],
                     b->want[k]);
        }
    b->n = 0;
}

static void add_to_batch(damero_tb *tb, const struct variant *v, struct batch *b,
                         const damero_position *pos, int want)
{
    b->pos[b->n] = *pos;
    b->want[b->n++] = want;
    if (b->n == BATCH)
        flush_batch(tb, v, b);
}

/* Probes p (and its colour-flipped twin) and compares with the generator's value. */
static void check_position(damero_tb *tb, const struct tableset *ts, const struct position *p,
                           struct tally *tally, struct batch *batch)
{
    const struct variant *v = ts->v;
    struct position twin;
    dtm_t dtm;
    mtc_t mtc;
    assert_int_equal(tableset_value(ts, p, &dtm, &mtc), 0);
    position_flip_colours(v, p, &twin);
    const struct position *both[2] = { p, &twin };
    for (int k = 0; k < 2; k++) {
        damero_position pos = public_position(v, both[k]);
        damero_value value;
        int wdl;
        char fen[FEN_SIZE];
        if (damero_probe_wdl(tb, &pos, &wdl) != DAMERO_OK ||
            damero_probe(tb, &pos, &value) != DAMERO_OK) {
            fen_print(v, both[k], fen);
            fail_msg("%s %s: %s", v->name, fen, damero_error_message());
        }
        int want_dtm = dtm == DTM_DRAW ? -1 : dtm_plies(dtm);
        int want_mtc = dtm == DTM_DRAW ? -1 : mtc_plies(mtc);
        if (wdl != expected_wdl(dtm) || value.wdl != wdl || value.dtm != want_dtm ||
            value.mtc != want_mtc) {
            fen_print(v, both[k], fen);
            fail_msg("%s %s: library says wdl %d (%d), dtm %d, mtc %d; generator %d, %d, %d",
                     v->name, fen, wdl, value.wdl, value.dtm, value.mtc, expected_wdl(dtm),
                     want_dtm, want_mtc);
        }
        add_to_batch(tb, v, batch, &pos, expected_wdl(dtm));
    }
    tally->positions++;
    tally->captures += has_capture(v, p);
}

static void check_variant(struct temp_dir *f, const char *name, int pieces)
{
    const struct variant *v = test_variant(name);
    struct tableset ts;
    damero_tb *tb;
    struct tally tally = { 0 };
    struct batch batch = { .n = 0 };
    build_all(&ts, v, f->dir, pieces);
    if (damero_open(name, f->dir, 1 << 20, &tb) != DAMERO_OK)
        fail_msg("%s: %s", name, damero_error_message());
    assert_int_equal(damero_max_pieces(tb), pieces);
    for (int c = 0; c < MATERIAL_CODES; c++) {
        const struct table *t = ts.by_code[c];
        for (int side = 0; t && side < 2; side++)
            for (uint64_t i = 0; i < t->ix.size; i++) {
                struct position p;
                index_position(&t->ix, i, (enum side)side, &p);
                check_position(tb, &ts, &p, &tally, &batch);
            }
    }
    flush_batch(tb, v, &batch);
    /* the don't-care path was taken, often */
    assert_true(tally.captures > tally.positions / 100);
    damero_close(tb);
    tableset_free(&ts);
}

/* A WDL-only build (damero gen --metrics wdl, solved in two bits a position): every
 * position probes to the WDL of the whole build, and damero_probe gives that WDL with DTM
 * and MTC marked DAMERO_NOT_BUILT (0 where the side to move has no move: the game is
 * over). */
static void check_wdl_only(struct temp_dir *f, const char *name, int pieces)
{
    const struct variant *v = test_variant(name);
    struct material wanted[256];
    struct build_options options = { 0 };
    struct tableset ts, wdl;
    damero_tb *tb;
    char err[512], dir[256];
    int n = test_materials(v, pieces, NULL, wanted, 256);
    snprintf(dir, sizeof dir, "%s/%s", f->dir, v->name);
    tableset_init(&wdl, v, dir);
    wdl.wdl_only = wdl.dtm_only = true;
    if (build_materials(&wdl, wanted, n, &options, err, sizeof err) < 0)
        fail_msg("%s: %s", v->name, err);
    tableset_free(&wdl);
    tableset_init(&ts, v, NULL);
    if (build_materials(&ts, wanted, n, &options, err, sizeof err) < 0)
        fail_msg("%s: %s", v->name, err);
    if (damero_open(name, f->dir, 1 << 20, &tb) != DAMERO_OK)
        fail_msg("%s: %s", name, damero_error_message());
    assert_int_equal(damero_max_pieces(tb), pieces);
    for (int c = 0; c < MATERIAL_CODES; c++) {
        const struct table *t = ts.by_code[c];
        for (int side = 0; t && side < 2; side++)
            for (uint64_t i = 0; i < t->ix.size; i++) {
                struct position p;
                damero_value value;
                int got;
                char fen[FEN_SIZE];
                index_position(&t->ix, i, (enum side)side, &p);
                damero_position pos = public_position(v, &p);
                fen_print(v, &p, fen);
                if (damero_probe_wdl(tb, &pos, &got) != DAMERO_OK)
                    fail_msg("%s %s: %s", name, fen, damero_error_message());
                if (got != expected_wdl(t->dtm[side][i]))
                    fail_msg("%s %s: WDL-only table says %d, the whole build %d", name, fen,
                             got, expected_wdl(t->dtm[side][i]));
                int end;
                assert_int_equal(damero_game_end(tb, &pos, &end, NULL), DAMERO_OK);
                if (end == DAMERO_LONE_PIECES) /* over by the rule: no table is read */
                    continue;
                int built = end == DAMERO_NO_MOVE ? 0 : DAMERO_NOT_BUILT; /* over: known */
                if (damero_probe(tb, &pos, &value) != DAMERO_OK || value.wdl != got ||
                    value.dtm != built || value.mtc != built)
                    fail_msg("%s %s: a DTM probe of WDL-only tables: %d %d %d (%s)", name,
                             fen, value.wdl, value.dtm, value.mtc, damero_error_message());
            }
    }
    damero_close(tb);
    tableset_free(&ts);
}

static void test_wdl_only_russian(void **state) { check_wdl_only(*state, "russian", 4); }
static void test_wdl_only_turkish(void **state) { check_wdl_only(*state, "turkish", 3); }
static void test_wdl_only_international(void **state)
{
    check_wdl_only(*state, "international", 3);
}

static void test_every_position_russian(void **state) { check_variant(*state, "russian", 4); }
static void test_every_position_english(void **state) { check_variant(*state, "english", 3); }
static void test_every_position_international(void **state)
{
    check_variant(*state, "international", 3);
}
static void test_every_position_poddavki(void **state) { check_variant(*state, "poddavki", 3); }
static void test_every_position_italian(void **state) { check_variant(*state, "italian", 3); }
/* the orthogonal board, and the positions the rule on lone pieces ends */
static void test_every_position_turkish(void **state) { check_variant(*state, "turkish", 3); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_position_russian, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_every_position_english, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_every_position_international, setup,
                                        temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_every_position_poddavki, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_every_position_italian, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_every_position_turkish, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_wdl_only_russian, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_wdl_only_turkish, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_wdl_only_international, setup, temp_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
