/* Sets without DTM through the probing library (damero.h): a WDL-only set (damero gen
 * --metrics wdl) and a set of WDL and MTC (a whole build with its .dtm files removed),
 * russian up to 3 pieces, against the generator's values in memory. Every position
 * probes to the generator's WDL (and MTC), the absent metrics marked DAMERO_NOT_BUILT;
 * sampled positions have their moves scored as the whole set scores them and ranked by
 * WDL then MTC; and the best move, played from both sides by MTC, converts in exactly the
 * MTC plies each time (or the game ends then) and wins. */
#define _XOPEN_SOURCE 700 /* nftw, in file_util.h */
#include <dirent.h>
#include <unistd.h>

#include "tests/file_util.h"
#include "tests/probe_util.h"

#define PIECES 3
#define SAMPLE 7    /* one position in SAMPLE has its moves and its line checked */
#define MAX_LINE 2000

static int setup(void **state) { return temp_dir_setup(state, "probe_without_dtm"); }

/* The three sets of russian tables under f->dir: whole/ (as damero gen builds them),
 * wdl_mtc/ (the same without its .dtm files) and wdl/ (damero gen --metrics wdl); and the
 * generator's values in memory, in ts. */
struct sets {
    const struct variant *v;
    struct tableset ts;
    damero_tb *whole, *wdl_mtc, *wdl;
};

static void remove_dtm_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    assert_non_null(d);
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".dtm")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            assert_int_equal(unlink(path), 0);
        }
    closedir(d);
}

static damero_tb *open_set(const char *root)
{
    damero_tb *tb;
    if (damero_open("russian", root, 1 << 20, &tb) != DAMERO_OK)
        fail_msg("%s: %s", root, damero_error_message());
    return tb;
}

static void build_sets(struct temp_dir *f, struct sets *s)
{
    struct material wanted[256];
    struct build_options options = { 0 };
    struct tableset wdl;
    char err[512], root[3][200], dir[256];
    s->v = test_variant("russian");
    int n = test_materials(s->v, PIECES, NULL, wanted, 256);
    snprintf(root[0], sizeof root[0], "%s/whole", f->dir);
    snprintf(root[1], sizeof root[1], "%s/wdl_mtc", f->dir);
    snprintf(root[2], sizeof root[2], "%s/wdl", f->dir);
    build_on_disk_rules(s->v, root[0], wanted, n, false);
    build_on_disk_rules(s->v, root[1], wanted, n, false);
    snprintf(dir, sizeof dir, "%s/russian", root[1]);
    remove_dtm_files(dir);
    snprintf(dir, sizeof dir, "%s/russian", root[2]);
    tableset_init(&wdl, s->v, dir);
    wdl.wdl_only = wdl.dtm_only = true;
    if (build_materials(&wdl, wanted, n, &options, err, sizeof err) < 0)
        fail_msg("%s", err);
    tableset_free(&wdl);
    tableset_init(&s->ts, s->v, NULL);
    if (build_materials(&s->ts, wanted, n, &options, err, sizeof err) < 0)
        fail_msg("%s", err);
    s->whole = open_set(root[0]);
    s->wdl_mtc = open_set(root[1]);
    s->wdl = open_set(root[2]);
}

static void free_sets(struct sets *s)
{
    damero_close(s->whole);
    damero_close(s->wdl_mtc);
    damero_close(s->wdl);
    tableset_free(&s->ts);
}

static int wdl_of(dtm_t dtm)
{
    return dtm == DTM_DRAW ? DAMERO_DRAW : dtm_is_win(dtm) ? DAMERO_WIN : DAMERO_LOSS;
}

/* damero_probe of pos in both sets without DTM: the generator's WDL, and its MTC where
 * the MTC table is there; the rest DAMERO_NOT_BUILT, but where the game is over (no
 * table needed: the generator's DTM and MTC, 0). */
static void check_value(const struct sets *s, const damero_position *pos, dtm_t dtm,
                        mtc_t mtc, const char *fen)
{
    damero_value got;
    int end;
    assert_int_equal(damero_game_end(s->wdl, pos, &end, NULL), DAMERO_OK);
    int want_mtc = dtm == DTM_DRAW ? -1 : mtc_plies(mtc);
    int want_dtm = end == DAMERO_PLAYING ? DAMERO_NOT_BUILT : dtm == DTM_DRAW ? -1 : dtm_plies(dtm);
    int want_wdl_mtc = end == DAMERO_PLAYING ? DAMERO_NOT_BUILT : want_mtc;
    if (damero_probe(s->wdl, pos, &got) != DAMERO_OK)
        fail_msg("%s WDL only: %s", fen, damero_error_message());
    if (got.wdl != wdl_of(dtm) || got.dtm != want_dtm || got.mtc != want_wdl_mtc)
        fail_msg("%s WDL only: %d %d %d, want %d %d %d", fen, got.wdl, got.dtm, got.mtc,
                 wdl_of(dtm), want_dtm, want_wdl_mtc);
    if (damero_probe(s->wdl_mtc, pos, &got) != DAMERO_OK)
        fail_msg("%s WDL+MTC: %s", fen, damero_error_message());
    if (got.wdl != wdl_of(dtm) || got.dtm != want_dtm || got.mtc != want_mtc)
        fail_msg("%s WDL+MTC: %d %d %d, want %d %d %d", fen, got.wdl, got.dtm, got.mtc,
                 wdl_of(dtm), want_dtm, want_mtc);
}

/* The move of `moves` with m's text. */
static const damero_move *same_move(const damero_move *moves, int count, const damero_move *m)
{
    for (int k = 0; k < count; k++)
        if (strcmp(moves[k].text, m->text) == 0)
            return &moves[k];
    fail_msg("%s: not among the whole set's moves", m->text);
    return NULL;
}

/* Whether a, ranked just before b, should come after it by WDL, then MTC (mtc_too). */
static bool ranked_wrongly(const damero_value *a, const damero_value *b, bool mtc_too)
{
    if (a->wdl != b->wdl)
        return a->wdl < b->wdl;
    if (!mtc_too || a->wdl == DAMERO_DRAW)
        return false;
    return a->wdl == DAMERO_WIN ? a->mtc > b->mtc : a->mtc < b->mtc;
}

/* The moves of pos in the set tb (mtc: it has MTC tables) against the whole set's: the
 * same WDL, the same MTC where built, a DTM only where the game ends (no table read);
 * ranked by WDL, then MTC. */
static void check_moves(const struct sets *s, damero_tb *tb, bool mtc,
                        const damero_position *pos, const char *fen)
{
    static damero_move whole[DAMERO_MAX_MOVES], moves[DAMERO_MAX_MOVES];
    int n_whole = 0, n = 0;
    if (damero_root_moves(s->whole, pos, whole, DAMERO_MAX_MOVES, &n_whole) != DAMERO_OK ||
        damero_root_moves(tb, pos, moves, DAMERO_MAX_MOVES, &n) != DAMERO_OK)
        fail_msg("%s: %s", fen, damero_error_message());
    assert_int_equal(n, n_whole);
    for (int k = 0; k < n; k++) {
        const damero_value *got = &moves[k].value, *want = &same_move(whole, n, &moves[k])->value;
        bool mtc_right = mtc ? got->mtc == want->mtc
                             : got->mtc == DAMERO_NOT_BUILT || got->mtc == want->mtc;
        if (got->wdl != want->wdl || !mtc_right ||
            (got->dtm != DAMERO_NOT_BUILT && got->dtm != want->dtm))
            fail_msg("%s %s: %d %d %d, the whole set %d %d %d", fen, moves[k].text, got->wdl,
                     got->dtm, got->mtc, want->wdl, want->dtm, want->mtc);
        if (k > 0 && ranked_wrongly(&moves[k - 1].value, got, mtc))
            fail_msg("%s: %s ranked before %s", fen, moves[k - 1].text, moves[k].text);
    }
}

/* Both sides play the best move of the WDL+MTC set from pos, won or lost for the side to
 * move: each conversion comes after exactly the MTC plies, and the game ends with the
 * side that was winning winning (not always in the DTM plies, longer or shorter: the loser
 * too plays by MTC, delaying the conversion rather than the end). */
static void check_line(const struct sets *s, const damero_position *start, const char *fen)
{
    damero_position pos = *start;
    damero_value value;
    damero_move best;
    int winner = -1, plies = 0, to_conversion = -1, end;
    for (;; plies++) {
        assert_int_equal(damero_probe(s->wdl_mtc, &pos, &value), DAMERO_OK);
        if (winner < 0)
            winner = value.wdl == DAMERO_WIN ? pos.side_to_move : 1 - pos.side_to_move;
        if (to_conversion < 0)
            to_conversion = value.mtc;
        int status = damero_best_move(s->wdl_mtc, &pos, &best);
        if (status == DAMERO_ERR_GAME_OVER)
            break;
        if (status != DAMERO_OK || plies == MAX_LINE)
            fail_msg("%s after %d plies: %s", fen, plies, damero_error_message());
        /* the end of the game ends the count too (MTC 0 there) */
        assert_int_equal(damero_game_end(s->wdl_mtc, &best.after, &end, NULL), DAMERO_OK);
        bool converts = best.captures > 0 || best.after.men[0] != pos.men[0] ||
                        best.after.men[1] != pos.men[1] || end != DAMERO_PLAYING;
        to_conversion--;
        if (converts != (to_conversion == 0))
            fail_msg("%s: the conversion after ply %d, MTC said %d more", fen, plies + 1,
                     to_conversion);
        if (converts)
            to_conversion = -1;
        pos = best.after;
    }
    assert_int_equal(damero_game_end(s->wdl_mtc, &pos, &end, NULL), DAMERO_OK);
    if (end != DAMERO_NO_MOVE || pos.side_to_move == winner)
        fail_msg("%s: the line ends after %d plies, %s to move, end %d", fen, plies,
                 pos.side_to_move == winner ? "the winner" : "the loser", end);
}

/* What needs DTM fails, naming it: the best move of the WDL-only set where no move has a
 * distance, and the value under the move-limit rules in both sets. Returns whether the
 * best move failed so. */
static bool check_needs_dtm(const struct sets *s, const damero_position *pos, const char *fen)
{
    damero_move best;
    damero_rules_value rules;
    int status = damero_best_move(s->wdl, pos, &best);
    if (status != DAMERO_OK &&
        (status != DAMERO_ERR_MISSING || !strstr(damero_error_message(), "needs DTM or MTC")))
        fail_msg("%s: best move of WDL only: %s", fen, damero_error_message());
    if (status == DAMERO_OK && best.value.mtc == DAMERO_NOT_BUILT)
        fail_msg("%s: a best move %s without a distance", fen, best.text);
    if (damero_probe_rules(s->wdl_mtc, pos, NULL, 1, &rules) != DAMERO_ERR_MISSING ||
        !strstr(damero_error_message(), ".dtm"))
        fail_msg("%s: under the rules without DTM: %s", fen, damero_error_message());
    return status != DAMERO_OK;
}

static void test_sets_without_dtm(void **state)
{
    struct sets s;
    long sampled = 0, lines = 0, unranked = 0;
    build_sets(*state, &s);
    for (int c = 0; c < MATERIAL_CODES; c++) {
        const struct table *t = s.ts.by_code[c];
        for (int side = 0; t && side < 2; side++)
            for (uint64_t i = 0; i < t->ix.size; i++) {
                struct position p;
                char fen[FEN_SIZE];
                int end;
                index_position(&t->ix, i, (enum side)side, &p);
                damero_position pos = public_position(s.v, &p);
                fen_print(s.v, &p, fen);
                check_value(&s, &pos, t->dtm[side][i], t->mtc[side][i], fen);
                if (i % SAMPLE != 0 ||
                    damero_game_end(s.wdl, &pos, &end, NULL) != DAMERO_OK || end != DAMERO_PLAYING)
                    continue;
                sampled++;
                check_moves(&s, s.wdl_mtc, true, &pos, fen);
                check_moves(&s, s.wdl, false, &pos, fen);
                unranked += check_needs_dtm(&s, &pos, fen);
                if (t->dtm[side][i] != DTM_DRAW) {
                    check_line(&s, &pos, fen);
                    lines++;
                }
            }
    }
    print_message("%ld positions' moves checked, %ld lines played by MTC, %ld without a "
                  "best move in the WDL-only set\n", sampled, lines, unranked);
    assert_true(lines > 1000 && unranked > 100);
    free_sets(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sets_without_dtm, setup, temp_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
