/* Lines under the move-limit rules, as `damero line --rules` plays them (cli/line_play.c),
 * over many positions and counts, not only the examples of tests/test_probe_cli.sh:
 *
 * - the line never passes a count: at every position before its last, no count has run
 *   out (the counts followed move by move with damero_counts_after, from the start's);
 *   a line that stops on a count ends exactly where one has run out;
 * - it ends in a win exactly when the start's value under the rules is a win or a loss:
 *   the side that the value says wins is the one left without a move, after exactly the
 *   value's plies; a draw under the rules ends in a draw (a count run out, a repetition,
 *   the rule on lone pieces), never in a win. */
#define _XOPEN_SOURCE 700
#include "tests/probe_util.h"

#include "cli/line_play.h"
#include "tests/file_util.h"
#include "tests/random_position.h"

#define MAX_LINE 400

struct line_check {
    const char *variant;
    const char *material;  /* NULL: every material of up to 3 pieces */
    int lines;             /* random starts */
    int reading;           /* 1 or 2, as damero.h numbers them */
    int played_min, played_max; /* plies already run on each running count, drawn at random;
                                   -1: the counts start at the position */
};

/* A random start of the check's material (or of any material of up to 3 pieces). */
static bool random_start(damero_tb *tb, const struct variant *v, const struct material_index *ix,
                         uint64_t *seed, damero_position *pos)
{
    struct position p;
    if (ix) {
        index_position(ix, random_next(seed) % ix->size, (enum side)(random_next(seed) & 1),
                       &p);
    } else {
        p = random_position(v, seed, 2, 50);
        if (position_pieces(&p, WHITE) + position_pieces(&p, BLACK) > 3)
            return false;
    }
    *pos = public_position(v, &p);
    damero_value plain;
    int end;
    /* a position that stands and still goes on */
    return damero_probe(tb, pos, &plain) == DAMERO_OK &&
           damero_game_end(tb, pos, &end, NULL) == DAMERO_OK && end == DAMERO_PLAYING;
}

/* The counts at the start: those that start there, then each running one pushed on by a
 * random number of plies. */
static void start_counts(damero_tb *tb, const damero_position *pos, const struct line_check *ch,
                         uint64_t *seed, damero_counts *counts)
{
    assert_int_equal(damero_counts_start(tb, pos, counts), DAMERO_OK);
    if (ch->played_min < 0)
        return;
    for (int k = 0; k < damero_rule_count(tb); k++)
        if (counts->plies[k] != DAMERO_COUNT_NOT_STARTED)
            counts->plies[k] = ch->played_min +
                               (int)(random_next(seed) % (uint64_t)(ch->played_max -
                                                                    ch->played_min + 1));
}

/* Plays the line from pos under counts and checks it against its start's value. Returns
 * whether the start is won or lost under the rules. */
static bool check_line(damero_tb *tb, const damero_position *pos, const damero_counts *counts,
                       int reading)
{
    struct line l;
    char fen[DAMERO_FEN_SIZE];
    assert_int_equal(line_init(&l, MAX_LINE, pos), 0);
    assert_int_equal(line_under_rules(tb, &l, counts, reading), DAMERO_OK);
    assert_int_equal(line_play(tb, &l), DAMERO_OK);
    damero_write_fen(tb, pos, fen);

    /* the counts followed move by move: none runs out before the last position */
    damero_counts c = l.start.counts;
    int run_out = -1;
    for (int i = 0; i <= l.plies; i++) {
        assert_int_equal(damero_counts_run_out(tb, &l.positions[i], &c, reading, &run_out),
                         DAMERO_OK);
        if (i < l.plies && run_out >= 0)
            fail_msg("%s: rule %d's count has run out %d plies into the line", fen, run_out, i);
        if (i < l.plies)
            assert_int_equal(damero_counts_after(tb, &l.positions[i], &c, &l.moves[i], &c),
                             DAMERO_OK);
    }
    assert_int_not_equal(l.end, END_LIMIT);
    if (l.end == END_COUNT)
        assert_true(run_out >= 0);

    /* a win exactly when the value says so, in exactly its plies */
    const damero_position *last = &l.positions[l.plies];
    int end;
    damero_value final;
    assert_int_equal(damero_game_end(tb, last, &end, NULL), DAMERO_OK);
    assert_int_equal(damero_probe(tb, last, &final), DAMERO_OK);
    bool decisive = end == DAMERO_NO_MOVE ||
                    (end == DAMERO_LONE_PIECES && final.wdl != DAMERO_DRAW);
    bool decided = l.start.wdl != DAMERO_DRAW;
    if (decisive != decided || (decided && l.plies != l.start.plies))
        fail_msg("%s: value under the rules %d in %d plies, the line ends (%s) after %d",
                 fen, l.start.wdl, l.start.plies, line_end_words[l.end], l.plies);
    if (decided) {
        /* the last side to move lost (won, in the giveaway variants); the start's side
         * moved at the even plies */
        bool start_side_wins = (final.wdl == DAMERO_WIN) == (l.plies % 2 == 0);
        assert_int_equal(start_side_wins, l.start.wdl == DAMERO_WIN);
    }
    line_free(&l);
    return decided;
}

/* A line under a reading other than 1 and 2 (0: the first before 0.3.0) is refused. */
static void check_refused(damero_tb *tb, const damero_position *pos,
                          const damero_counts *counts)
{
    struct line l;
    for (int reading = 0; reading <= 3; reading += 3) {
        assert_int_equal(line_init(&l, MAX_LINE, pos), 0);
        assert_int_equal(line_under_rules(tb, &l, counts, reading), DAMERO_ERR_ARGUMENT);
        line_free(&l);
    }
}

static void run_lines(const char *root, const struct line_check *ch)
{
    const struct variant *v = variant_by_name(ch->variant);
    struct material wanted[64];
    const char *names[] = { ch->material, NULL };
    int n = test_materials(v, 3, ch->material ? names : NULL, wanted, 64);
    build_on_disk(v, root, wanted, n);

    struct material_index ix;
    if (ch->material)
        assert_int_equal(index_init(&ix, v, &wanted[n - 1]), 0);
    damero_tb *tb;
    assert_int_equal(damero_open(v->name, root, 16 << 20, &tb), DAMERO_OK);
    uint64_t seed = 2026;
    int lines = 0, decided = 0;
    while (lines < ch->lines) {
        damero_position pos;
        damero_counts counts;
        if (!random_start(tb, v, ch->material ? &ix : NULL, &seed, &pos))
            continue;
        start_counts(tb, &pos, ch, &seed, &counts);
        if (lines == 0)
            check_refused(tb, &pos, &counts);
        decided += check_line(tb, &pos, &counts, ch->reading);
        lines++;
    }
    print_message("%s %s reading %d: %d lines, %d won or lost under the rules\n", v->name,
                  ch->material ? ch->material : "(up to 3 pieces)", ch->reading, lines, decided);
    /* both outcomes were met: the check could have failed either way */
    assert_true(decided > 0 && decided < lines);
    damero_close(tb);
    if (ch->material)
        index_free(&ix);
}

static int setup(void **state)
{
    return temp_dir_setup(state, "rules-line");
}

static void test_lines(void **state)
{
    static const struct line_check checks[] = {
        { "russian", NULL, 200, 1, -1, -1 },
        { "russian", NULL, 200, 2, 0, 8 },
        { "international", NULL, 150, 1, -1, -1 },
        { "english", "KKvK", 100, 1, 60, 78 },
        { "russian", "KKKvK", 30, 1, 20, 28 },
        { "spanish", "KKKvK", 30, 2, 14, 24 },
    };
    for (size_t k = 0; k < sizeof checks / sizeof *checks; k++)
        run_lines(((struct temp_dir *)*state)->dir, &checks[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lines, setup, temp_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
