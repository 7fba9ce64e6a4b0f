/* The move generator against the rules of docs/rules.md, one test per rule clause.
 *
 * Every expected move list below was worked out by hand on a drawn board from the rules,
 * never copied from the generator's output. Square names follow each variant's notation
 * (docs/rules.md, "Notation"); the comments give the algebraic squares of numbered boards as
 * White sees them, so the positions can be drawn. */
#include "tests/test_util.h"

#include "core/game_end.h"

/* What stands on `square` for side s: 'm' for a man, 'k' for a king, '.' for neither. */
static char piece_at(const struct variant *v, const struct position *p, enum side s,
                     const char *square)
{
    int bit = square_parse(v, square, strlen(square));

    if (bit < 0)
        fail_msg("%s: %s is not a square", v->name, square);
    if (p->kings[s] & bb_of(bit))
        return 'k';
    if (p->men[s] & bb_of(bit))
        return 'm';
    return '.';
}

/* The position after playing `move` from `fen`. */
static struct position after(const char *variant, const char *fen, const char *move)
{
    const struct variant *v = test_variant(variant);
    struct position p = test_position(v, fen);

    return test_play(v, &p, move);
}

/* ---- promotion during a capture ---------------------------------------------------- */

/* Russian: "becomes a king at once and continues capturing as a king". The man b6 takes
 * c7 and lands on d8; only a flying king can then take g5 from d8 (e7, f6 empty). */
static void test_russian_crowned_mid_capture_flies_on(void **state)
{
    const struct variant *v = test_variant("russian");
    struct position p;
    (void)state;

    assert_moves("russian", "W:Wb6:Bc7,g5", "b6:d8:h4");
    p = after("russian", "W:Wb6:Bc7,g5", "b6:d8:h4");
    assert_int_equal(piece_at(v, &p, WHITE, "h4"), 'k');
    /* With e7 instead of g5 the new king jumps e7 and may land on any of f6, g5, h4
     * (none lets the capture go on); a man could land on f6 only. */
    assert_moves("russian", "W:Wb6:Bc7,e7", "b6:d8:f6 b6:d8:g5 b6:d8:h4");
}

/* International: a man "stays a man, promotes only if the move ends there". The man on 11
 * (b8) takes 7 (c9) landing on 2 (d10), then takes 8 (e9) as a man, landing on 13 (f8)
 * only; a king would also have had 19, 24, 30, 35 beyond 8. */
static void test_international_man_passes_last_rank(void **state)
{
    const struct variant *v = test_variant("international");
    struct position p;
    (void)state;

    assert_moves("international", "W:W11:B7,8", "11x2x13");
    p = after("international", "W:W11:B7,8", "11x2x13");
    assert_int_equal(piece_at(v, &p, WHITE, "13"), 'm');
    assert_int_equal(piece_at(v, &p, BLACK, "7"), '.');
    assert_int_equal(piece_at(v, &p, BLACK, "8"), '.');

    /* Ending the capture on the last rank crowns the man. */
    assert_moves("international", "W:W11:B7", "11x2");
    p = after("international", "W:W11:B7", "11x2");
    assert_int_equal(piece_at(v, &p, WHITE, "2"), 'k');
}

/* Pool: "continues as a man; promotes only if it ends there". The russian positions above
 * in pool numbering (b6 = 9, c7 = 6, d8 = 2, e7 = 7, f6 = 11, g5 = 16): the man on 2 goes
 * on with a man's backward jump over 7, and cannot fly to g5. */
static void test_pool_continues_as_man(void **state)
{
    const struct variant *v = test_variant("pool");
    struct position p;
    (void)state;

    assert_moves("pool", "W:W9:B6,7", "9x2x11");
    p = after("pool", "W:W9:B6,7", "9x2x11");
    assert_int_equal(piece_at(v, &p, WHITE, "11"), 'm');

    /* Nothing a man can take from 2: the move ends there and the man is crowned. */
    assert_moves("pool", "W:W9:B6,16", "9x2");
    p = after("pool", "W:W9:B6,16", "9x2");
    assert_int_equal(piece_at(v, &p, WHITE, "2"), 'k');
}

/* English: reaching the last rank "move ends, promotes". Same position as the pool test:
 * the new king on 2 could jump 7 to 11, but the move ends on crowning. */
static void test_english_move_ends_on_crowning(void **state)
{
    const struct variant *v = test_variant("english");
    struct position p;
    (void)state;

    assert_moves("english", "W:W9:B6,7", "9x2");
    p = after("english", "W:W9:B6,7", "9x2");
    assert_int_equal(piece_at(v, &p, WHITE, "2"), 'k');
    assert_int_equal(piece_at(v, &p, BLACK, "7"), 'm');
}

/* ---- capture precedence ------------------------------------------------------------ */

/* International: "most pieces (king = man)", no tie-break on kings (the FMJD rules, not
 * the guide «Reglas de damas internacionales»). The man on 33 (f4) can take 28, 17 (two
 * men), or K29, 19 (a king and a man), or 39 alone: both two-piece captures are legal,
 * the one-piece capture is not. */
static void test_international_majority(void **state)
{
    (void)state;
    assert_moves("international", "W:W33:B17,19,28,K29,39", "33x22x11 33x24x13");
}

/* Brazilian: "most pieces" as international. The man e3 takes d4, b6 (two men), or Kf4,
 * f6 (a king and a man), or d2 alone (backward). */
static void test_brazilian_majority(void **state)
{
    (void)state;
    assert_moves("brazilian", "W:We3:Bb6,d2,d4,Kf4,f6", "e3:c5:a7 e3:g5:e7");
}

/* Spanish quality rule, the encyclopedia article «Damas», Reglamento rule 27: "the black
 * man must capture the white man and the white king rather than two white men". Black man 22 (e6) takes 19, 12 (two men) or
 * 18, K10 (a man and a king). */
static void test_spanish_quality(void **state)
{
    (void)state;
    assert_moves("spanish", "B:W12,K10,18,19:B22", "22x13x6");
    /* With 10 a man the two captures are worth the same: free choice. */
    assert_moves("spanish", "B:W10,12,18,19:B22", "22x15x8 22x13x6");
}

/* Spanish: "most pieces, then most kings": the count comes first. Black man 30 (e8) takes
 * three men 27, 20, 12 or two kings K26, K18. */
static void test_spanish_quantity_before_quality(void **state)
{
    (void)state;
    assert_moves("spanish", "B:W12,20,K18,K26,27:B30", "30x23x16x7");
}

/* Spanish: men capture backward "no", neither to start a capture nor during one. White
 * man 14 (e4): 11 (d3) behind it with 7 empty cannot be taken; after taking 19 and
 * landing on 23 (c6), 20 (b5) behind it with 16 empty cannot be taken either. */
static void test_spanish_men_do_not_capture_backward(void **state)
{
    (void)state;
    assert_moves("spanish", "W:W14:B11", "14-18 14-19");
    assert_moves("spanish", "W:W14:B19,20", "14x23");
}

/* Czech: "free choice, but a king must capture if any king can". The king a5 can take c3
 * (landing d2 or e1); the man e3 could take two (d4, d6) but may not. */
static void test_czech_king_must_capture(void **state)
{
    (void)state;
    assert_moves("czech", "W:We3,Ka5:Bc3,d4,d6", "a5:d2 a5:e1");
}

/* Czech: when no king can capture, free choice among the men's captures, whatever they
 * take: e3 takes two, h2 takes one, the king a5 has nothing to take. */
static void test_czech_free_choice_without_king_capture(void **state)
{
    (void)state;
    assert_moves("czech", "W:We3,h2,Ka5:Bd4,d6,g3", "e3:c5:e7 h2:f4");
}

/* Italian step 1, "most pieces", before step 2: the man 22 (d3) takes 18, 10 (two men);
 * the king 24 (h3) could take only 20. */
static void test_italian_most_pieces(void **state)
{
    (void)state;
    assert_moves("italian", "W:W22,K24:B10,18,20", "22x13x6");
}

/* Italian step 2, "capture with a king": man 22 and king 24 can each take one man. */
static void test_italian_capture_with_king(void **state)
{
    (void)state;
    assert_moves("italian", "W:W22,K24:B18,20", "24x15");
}

/* Italian step 3, "most kings": the king 19 (e4) can take the king 14 or the man 15. */
static void test_italian_most_kings(void **state)
{
    (void)state;
    assert_moves("italian", "W:WK19:B15,K14", "19x10");
}

/* Italian step 4, "meet a king earliest": the king 19 (e4) takes K14 then 5, or 15 then
 * K7: two pieces, one king each, both with the king; the king first wins. */
static void test_italian_king_first(void **state)
{
    (void)state;
    assert_moves("italian", "W:WK19:B5,K7,K14,15", "19x10x1");
}

/* Italian: "men may never capture kings". The man 22 (d3) may not take the king 18 (c4)
 * though 13 is empty, so it moves quietly; a man beside it is taken instead. */
static void test_italian_men_do_not_capture_kings(void **state)
{
    (void)state;
    assert_moves("italian", "W:W22:BK18", "22-19");
    assert_moves("italian", "W:W22:BK18,19", "22x15");
}

/* Italian: kings are "short (one square)". The king 19 (e4) on an open board. */
static void test_italian_short_king(void **state)
{
    (void)state;
    assert_moves("italian", "W:WK19:B1", "19-14 19-15 19-22 19-23");
}

/* Russian: "free choice; a started capture must be completed". c3 takes two (d4, f6),
 * h2 takes one (g3): both legal, but c3 may not stop after d4 (no c3:e5). */
static void test_russian_free_choice_complete_capture(void **state)
{
    (void)state;
    assert_moves("russian", "W:Wc3,h2:Bd4,f6,g3", "c3:e5:g7 h2:f4");
}

/* ---- flying kings ------------------------------------------------------------------ */

/* A flying king "lands on any empty square beyond it": a1 takes d4 and may stop on any
 * of e5, f6, g7, h8, since none of them lets the capture go on. */
static void test_flying_king_landing_squares(void **state)
{
    (void)state;
    assert_moves("russian", "W:WKa1:Bd4", "a1:e5 a1:f6 a1:g7 a1:h8");
}

/* "Where landing squares differ in whether the capture can continue, the capture must
 * continue": after d4 only e5 sees another piece (f4), so f6, g7, h8 are illegal even in
 * russian, where there is no majority rule. Beyond f4 both g3 and h2 end the capture. */
static void test_flying_king_must_land_to_continue(void **state)
{
    (void)state;
    assert_moves("russian", "W:WKa1:Bd4,f4", "a1:e5:g3 a1:e5:h2");
}

/* Jumped pieces "cannot be jumped twice". The king a5 takes d2, f2, f4, d4 round the
 * diamond and lands beyond d4 on c3, b2 or a1; from c3 it faces d2 again with e1 empty
 * behind it, but may not take it a second time, so c3 does not continue and all three
 * landings are legal. */
static void test_no_piece_jumped_twice(void **state)
{
    (void)state;
    assert_moves("russian", "W:WKa5:Bd2,d4,f2,f4",
                 "a5:e1:g3:e5:c3 a5:e1:g3:e5:b2 a5:e1:g3:e5:a1");
}

/* The Turkish strike: "jumped pieces stay on the board, block". The king a1 takes d4 and
 * either c7 (via e5) or e7 then c7 (via f6, d8). From b6 the jumped d4 still stands
 * between the king and e3, so b6 cannot go on to take e3 and a5 stays legal. Were d4
 * lifted at once, only b6:f2 and b6:g1 would be allowed after d8. */
static void test_jumped_pieces_block(void **state)
{
    (void)state;
    assert_moves("russian", "W:WKa1:Bc7,d4,e3,e7", "a1:e5:b8 a1:f6:d8:b6 a1:f6:d8:a5");
}

/* "The capturing piece's own starting square counts as empty" (movegen.h; docs/rules.md lets
 * a king land on any empty square). The king c3 takes d4, d6, b6 and lands on a5; its
 * last jump runs back over c3 to take d2. The short capture c3:e1 is a free choice. */
static void test_own_square_empty_during_capture(void **state)
{
    (void)state;
    assert_moves("russian", "W:WKc3:Bb6,d2,d4,d6", "c3:e5:c7:a5:e1 c3:e1");
}

/* ---- duplicates -------------------------------------------------------------------- */

/* The only legal move of `fen` with `flags`, which must be one of the texts a or b. */
static void assert_single_move_of(const char *variant, const char *fen, unsigned flags,
                                  const char *a, const char *b)
{
    const struct variant *v = test_variant(variant);
    struct position p = test_position(v, fen);
    struct move_list list;
    char text[MOVE_TEXT_SIZE];

    generate_moves(v, &p, flags, &list);
    assert_int_equal(list.count, 1);
    move_text(v, &list.moves[0], text);
    if (strcmp(text, a) != 0 && strcmp(text, b) != 0)
        fail_msg("%s %s: expected %s or %s, generated %s", variant, fen, a, b, text);
}

/* Duplicates (movegen.h, docs/rules.md, the perft reference figures): the russian man c3 goes round
 * d4, f4, f2, d2 either way and comes home to c3. Same pieces, same end: one move by
 * default, two when duplicates are kept since the order differs. */
static void test_duplicates_same_pieces_other_order(void **state)
{
    (void)state;
    assert_single_move_of("russian", "W:Wc3:Bd2,d4,f2,f4", 0,
                          "c3:e5:g3:e1:c3", "c3:e1:g3:e5:c3");
    assert_moves_flags("russian", "W:Wc3:Bd2,d4,f2,f4", MOVES_KEEP_DUPLICATES,
                       "c3:e5:g3:e1:c3 c3:e1:g3:e5:c3");
}

/* "Sequences that differ only in where a flying king touched down between two captures
 * count once": a1 takes d4, touches down on e5 or f6 (both see g7), takes g7 and lands
 * on h8. One move, with duplicates kept too; two when every capture path counts. */
static void test_duplicates_touchdown_counts_once(void **state)
{
    (void)state;
    assert_single_move_of("russian", "W:WKa1:Bd4,g7", 0, "a1:e5:h8", "a1:f6:h8");
    assert_single_move_of("russian", "W:WKa1:Bd4,g7", MOVES_KEEP_DUPLICATES,
                          "a1:e5:h8", "a1:f6:h8");
    assert_moves_flags("russian", "W:WKa1:Bd4,g7", MOVES_KEEP_PATHS, "a1:e5:h8 a1:f6:h8");
}

/* ---- giveaway variants and no legal move ------------------------------------------- */

/* Poddavki is "russian rules, objective reversed", ganapierde "spanish rules": the moves
 * are the parents' (mid-capture crowning; the quality rule). */
static void test_giveaway_moves_as_parent(void **state)
{
    (void)state;
    assert_moves("poddavki", "W:Wb6:Bc7,g5", "b6:d8:h4");
    assert_moves("ganapierde", "B:W12,K10,18,19:B22", "22x13x6");
    assert_moves("ganapierde", "B:W12,20,K18,K26,27:B30", "30x23x16x7");
}

/* "A side with no legal move (no pieces, or all blocked)": an empty list. */
static void test_no_legal_move(void **state)
{
    (void)state;
    /* The man h2 is blocked by g3, which f4 shields from capture. */
    assert_moves("russian", "W:Wh2:Bf4,g3", "");
    /* The king a1 has one diagonal, held by b2 and c3. */
    assert_moves("russian", "W:WKa1:Bb2,c3", "");
    assert_moves("international", "W:WK46:B37,41", "");
    /* No pieces at all. */
    assert_moves("russian", "W:W:Bd4", "");
    assert_moves("spanish", "B:W1:B", "");
}

/* ---- Turkish draughts (docs/rules.md, section 8) -------------------------------- */

/* The rules of Turkish draughts with one field changed: a reading damero does not play. */
static struct variant turkish_with(bool promote_mid_capture)
{
    struct variant v = *test_variant("turkish");
    v.promote_mid_capture = promote_mid_capture;
    return v;
}

/* "A man moves one square straight forward or sideways, never backward or diagonally."
 * White's man d4 steps to d5, c4 or e4; on the edge a2 has no square to its left; Black's
 * man d5 steps down. */
static void test_turkish_man_steps(void **state)
{
    (void)state;
    assert_moves("turkish", "W:Wd4:Bh7", "d4-c4 d4-d5 d4-e4");
    assert_moves("turkish", "W:Wa2:Bh7", "a2-a3 a2-b2");
    assert_moves("turkish", "B:Wa2:Bd5", "d5-c5 d5-d4 d5-e5");
}

/* "A king moves any distance straight over empty squares": from d4 on an empty board,
 * its rank and its file, 3 + 4 + 4 + 3 squares. */
static void test_turkish_king_moves(void **state)
{
    (void)state;
    assert_moves("turkish", "W:WKd4:Bh7",
                 "d4-a4 d4-b4 d4-c4 d4-e4 d4-f4 d4-g4 d4-h4 d4-d1 d4-d2 d4-d3 d4-d5 d4-d6 "
                 "d4-d7 d4-d8");
}

/* "A man captures forward or sideways by jumping an adjacent piece, never backward." The
 * man d4 takes c4 (to b4) or e4 (to f4), a free choice of one piece each; d3 behind it
 * cannot be taken. A man's capture may turn: a4 takes a5, then b6 sideways. */
static void test_turkish_man_captures_sideways(void **state)
{
    (void)state;
    assert_moves("turkish", "W:Wd4:Bc4,d3,e4", "d4xb4 d4xf4");
    assert_moves("turkish", "W:Wd4:Bd3", "d4-c4 d4-d5 d4-e4");
    assert_moves("turkish", "W:Wa4:Ba5,b6", "a4xa6xc6");
}

/* "A king captures a single piece at any distance and lands on any empty square beyond":
 * a4 takes d4 and stops on e4, f4, g4 or h4. */
static void test_turkish_flying_capture(void **state)
{
    (void)state;
    assert_moves("turkish", "W:WKa4:Bd4", "a4xe4 a4xf4 a4xg4 a4xh4");
}

/* "Captured pieces are removed one by one as they are jumped": a removal can open a jump,
 * and a square can be crossed twice. (Black's pieces on the first rank are kings: a black
 * man never stands there.) The king h1 takes f1 (landing on d1: c1 beyond it
 * stops the way), d3 (to d4), g4 (to h4), h2 (back home on h1), then c1, on a line through
 * f1's square, now empty, and through g1, e1 and d1, crossed before: five pieces, landing
 * on b1 or a1. Had f1 stayed until the end of the move, the last jump would be blocked,
 * and no capture would take more than four pieces. */
static void test_turkish_removal_opens_jumps(void **state)
{
    (void)state;
    assert_moves("turkish", "W:WKh1:BKc1,Kf1,h2,d3,g4", "h1xd1xd4xh4xh1xb1 h1xd1xd4xh4xh1xa1");
}

/* "Within a capture a piece may not turn 180 degrees between two jumps": after taking d6
 * (landing on d7 or d8) the king d4 may not come back down to take d2, nor after d2 go
 * back up to take d6, though d6 and d4 are empty by then. Three one-piece captures. */
static void test_turkish_king_may_not_turn_back(void **state)
{
    (void)state;
    assert_moves("turkish", "W:WKd4:Bd2,d6", "d4xd1 d4xd7 d4xd8");
}

/* "The sequence taking the most pieces must be chosen; kings and men count the same": the
 * man d4 takes d5 and c6 (two men); the man f2 could take only the king f3. */
static void test_turkish_most_pieces(void **state)
{
    (void)state;
    assert_moves("turkish", "W:Wd4,f2:Bd5,c6,Kf3", "d4xd6xb6");
}

/* "A man reaching the last rank becomes a king": at the end of a capture, b6 takes b7
 * and is crowned on b8. */
static void test_turkish_crowned_at_end_of_capture(void **state)
{
    const struct variant *v = test_variant("turkish");
    struct position p;
    (void)state;

    assert_moves("turkish", "W:Wb6:Bb7", "b6xb8");
    p = after("turkish", "W:Wb6:Bb7", "b6xb8");
    assert_int_equal(piece_at(v, &p, WHITE, "b8"), 'k');
}

/* A man reaching the last rank during a capture "is crowned at once and goes on as a
 * king" (the reading damero plays, docs/rules.md, section 8). c6 takes c7 and is crowned on c8;
 * as a king it takes the king f8, three squares away, landing on g8 or h8 (it may not turn
 * back down). A man on c8 would have had nothing to take: under the other reading the
 * capture ends there. */
static void test_turkish_crowned_mid_capture(void **state)
{
    const struct variant *v = test_variant("turkish");
    struct variant men_stay = turkish_with(false);
    struct position p;
    (void)state;

    assert_moves("turkish", "W:Wc6:Bc7,Kf8", "c6xc8xg8 c6xc8xh8");
    p = after("turkish", "W:Wc6:Bc7,Kf8", "c6xc8xh8");
    assert_int_equal(piece_at(v, &p, WHITE, "h8"), 'k');
    assert_rules_moves(&men_stay, "W:Wc6:Bc7,Kf8", 0, "c6xc8");
    /* With a king on d8, beside c8, a man could take it too, landing on e8 only; the new
     * king lands on any of e8 to h8. */
    assert_moves("turkish", "W:Wc6:Bc7,Kd8", "c6xc8xe8 c6xc8xf8 c6xc8xg8 c6xc8xh8");
    assert_rules_moves(&men_stay, "W:Wc6:Bc7,Kd8", 0, "c6xc8xe8");
}

/* Captures that take the same pieces in the same order to the same square, a flying king
 * touching down on different squares in between, are one move (docs/rules.md, section 8 on the
 * perft figures): the king a5 takes b5, touches down on c5 or d5 (both see e5), takes e5
 * and lands on f5, g5 or h5: three moves, with duplicates kept too; six capture paths,
 * as the published Turkish perft figures count them. */
static void test_turkish_touchdowns_count_once(void **state)
{
    const struct variant *v = test_variant("turkish");
    struct position p = test_position(v, "W:WKa5:Bb5,e5");
    bb_t taken = bb_of(square_parse(v, "b5", 2)) | bb_of(square_parse(v, "e5", 2));
    struct move_list list;
    (void)state;

    static const unsigned flags[] = { 0, MOVES_KEEP_DUPLICATES, MOVES_KEEP_PATHS };
    for (int f = 0; f < 3; f++) {
        generate_moves(v, &p, flags[f], &list);
        assert_int_equal(list.count, flags[f] == MOVES_KEEP_PATHS ? 6 : 3);
        for (int i = 0; i < list.count; i++)
            assert_true(list.moves[i].captured == taken);
    }
}

/* "A side left with one piece against one piece": the game is over, drawn (docs/rules.md, section 8:
 * the federation's rule, damero's reading), whatever the pieces and whoever is to move;
 * with more pieces it goes on. Under the other reading a lone man against a lone king has
 * lost. The move generator still lists moves: the rule is applied by what values
 * positions (core/game_end.h). */
static void test_turkish_one_piece_each(void **state)
{
    const struct variant *v = test_variant("turkish");
    struct variant man_loses = *v;
    (void)state;

    man_loses.lone_pieces = LONE_MAN_LOSES_TO_KING;
    assert_int_equal(lone_piece_end(v, &(struct position){ 0 }), GAME_GOES_ON);
    struct position kk = test_position(v, "W:WKd4:BKd6"), km = test_position(v, "W:WKd4:Bd6");
    struct position mk = test_position(v, "W:Wd4:BKd6"), mm = test_position(v, "B:Wd4:Bd6");
    struct position more = test_position(v, "W:WKd4,a2:BKd6");
    assert_int_equal(lone_piece_end(v, &kk), GAME_DRAWN);
    assert_int_equal(lone_piece_end(v, &km), GAME_DRAWN);
    assert_int_equal(lone_piece_end(v, &mm), GAME_DRAWN);
    assert_int_equal(lone_piece_end(v, &more), GAME_GOES_ON);
    assert_moves("turkish", "W:WKd4:BKd6", "d4xd7 d4xd8");
    assert_int_equal(lone_piece_end(&man_loses, &km), GAME_WON);
    assert_int_equal(lone_piece_end(&man_loses, &mk), GAME_LOST);
    assert_int_equal(lone_piece_end(&man_loses, &kk), GAME_GOES_ON);
    assert_int_equal(lone_piece_end(&man_loses, &mm), GAME_GOES_ON);
    assert_int_equal(lone_piece_end(test_variant("russian"),
                                    &(struct position){ .men = { 1, 1u << 31 } }),
                     GAME_GOES_ON);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_russian_crowned_mid_capture_flies_on),
        cmocka_unit_test(test_international_man_passes_last_rank),
        cmocka_unit_test(test_pool_continues_as_man),
        cmocka_unit_test(test_english_move_ends_on_crowning),
        cmocka_unit_test(test_international_majority),
        cmocka_unit_test(test_brazilian_majority),
        cmocka_unit_test(test_spanish_quality),
        cmocka_unit_test(test_spanish_quantity_before_quality),
        cmocka_unit_test(test_spanish_men_do_not_capture_backward),
        cmocka_unit_test(test_czech_king_must_capture),
        cmocka_unit_test(test_czech_free_choice_without_king_capture),
        cmocka_unit_test(test_italian_most_pieces),
        cmocka_unit_test(test_italian_capture_with_king),
        cmocka_unit_test(test_italian_most_kings),
        cmocka_unit_test(test_italian_king_first),
        cmocka_unit_test(test_italian_men_do_not_capture_kings),
        cmocka_unit_test(test_italian_short_king),
        cmocka_unit_test(test_russian_free_choice_complete_capture),
        cmocka_unit_test(test_flying_king_landing_squares),
        cmocka_unit_test(test_flying_king_must_land_to_continue),
        cmocka_unit_test(test_no_piece_jumped_twice),
        cmocka_unit_test(test_jumped_pieces_block),
        cmocka_unit_test(test_own_square_empty_during_capture),
        cmocka_unit_test(test_duplicates_same_pieces_other_order),
        cmocka_unit_test(test_duplicates_touchdown_counts_once),
        cmocka_unit_test(test_giveaway_moves_as_parent),
        cmocka_unit_test(test_no_legal_move),
        cmocka_unit_test(test_turkish_man_steps),
        cmocka_unit_test(test_turkish_king_moves),
        cmocka_unit_test(test_turkish_man_captures_sideways),
        cmocka_unit_test(test_turkish_flying_capture),
        cmocka_unit_test(test_turkish_removal_opens_jumps),
        cmocka_unit_test(test_turkish_king_may_not_turn_back),
        cmocka_unit_test(test_turkish_most_pieces),
        cmocka_unit_test(test_turkish_crowned_at_end_of_capture),
        cmocka_unit_test(test_turkish_crowned_mid_capture),
        cmocka_unit_test(test_turkish_touchdowns_count_once),
        cmocka_unit_test(test_turkish_one_piece_each),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
