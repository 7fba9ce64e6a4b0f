/* The board as damero.h describes it, for programs that draw one: the variants' names,
 * each board's shape, which square stands where as the variant's players see it, and
 * each square's name, checked against the FEN reader; whether a game is over, which
 * needs no table either; and an engine's board layouts (damero_layout), both ways. */
#define _XOPEN_SOURCE 700 /* nftw, in file_util.h */
#include "tests/file_util.h"

#include "core/variant.h"
#include "probe/damero.h"

static int setup(void **state)
{
    return temp_dir_setup(state, "probe-board"); /* an empty table directory is enough */
}

static damero_tb *open_variant(const struct temp_dir *f, const char *variant)
{
    damero_tb *tb = NULL;
    if (damero_open(variant, f->dir, 0, &tb) != DAMERO_OK)
        fail_msg("damero_open(%s): %s", variant, damero_error_message());
    return tb;
}

/* Every rule row, in order, and nothing after. */
static void test_variant_names(void **state)
{
    (void)state;
    int k = 0;
    for (; variants[k].name; k++)
        assert_string_equal(damero_variant_name(k), variants[k].name);
    assert_null(damero_variant_name(k));
    assert_null(damero_variant_name(-1));
    assert_null(damero_variant_name(1000));
}

/* Each square number stands at exactly one place of the picture, and its name reads
 * back through the FEN reader as that very square. */
static void test_every_square_once(void **state)
{
    const struct temp_dir *f = *state;
    for (int k = 0; variants[k].name; k++) {
        damero_tb *tb = open_variant(f, variants[k].name);
        damero_board board;
        int seen[65] = { 0 }, placed = 0;
        damero_board_shape(tb, &board);
        assert_int_equal(board.columns, variants[k].board()->files);
        assert_int_equal(board.rows, variants[k].board()->ranks);
        assert_int_equal(board.squares, variants[k].board()->num_squares);
        assert_int_equal(board.algebraic, variants[k].algebraic);
        for (int row = -1; row <= board.rows; row++)
            for (int column = -1; column <= board.columns; column++) {
                int n = damero_square_at(tb, column, row);
                if (n == 0)
                    continue;
                assert_in_range(n, 1, board.squares);
                assert_int_equal(seen[n]++, 0);
                placed++;
                /* on the diagonal boards playable squares alternate: no two side by side
                 * in a row; on the orthogonal board every square is played on */
                if (board.squares == board.columns * board.rows)
                    assert_int_equal(damero_square_at(tb, column + 1, row),
                                     column + 1 < board.columns ? n + 1 : 0);
                else
                    assert_int_equal(damero_square_at(tb, column + 1, row), 0);
            }
        assert_int_equal(placed, board.squares);
        for (int n = 1; n <= board.squares; n++) {
            char name[DAMERO_SQUARE_NAME_SIZE], other[DAMERO_SQUARE_NAME_SIZE], fen[64];
            damero_position pos;
            assert_int_equal(damero_square_name(tb, n, name), DAMERO_OK);
            assert_int_equal(damero_square_name(tb, n == 1 ? 2 : 1, other), DAMERO_OK);
            if (!board.algebraic)
                assert_int_equal(atoi(name), n);
            /* a king, which may stand on any square, against one elsewhere */
            snprintf(fen, sizeof fen, "W:WK%s:BK%s", name, other);
            assert_int_equal(damero_parse_fen(tb, fen, &pos), DAMERO_OK);
            assert_true(pos.kings[DAMERO_WHITE] == (uint64_t)1 << (n - 1));
        }
        damero_close(tb);
    }
}

/* Corners as each federation draws its board, White at the bottom. */
static void test_corners(void **state)
{
    const struct temp_dir *f = *state;
    static const struct {
        const char *variant;
        int column, row, square;
        const char *name;
    } cases[] = {
        { "international", 0, 0, 46, "46" }, /* a1 */
        { "international", 1, 9, 1, "1" },  /* b10 */
        { "international", 9, 9, 5, "5" },  /* j10 */
        { "russian", 0, 0, 1, "a1" },
        { "russian", 7, 7, 32, "h8" },
        { "english", 0, 0, 29, "29" },       /* a1 */
        { "english", 1, 7, 1, "1" },         /* b8 */
        { "spanish", 7, 0, 1, "1" },         /* White's lower right, the board mirrored */
        { "spanish", 0, 0, 0, NULL },        /* not played on */
        { "italian", 0, 7, 1, "1" },         /* the top left, the board mirrored */
        { "turkish", 0, 0, 1, "a1" },        /* every square: a1 = 1, b1 = 2, ... */
        { "turkish", 1, 0, 2, "b1" },
        { "turkish", 0, 1, 9, "a2" },
        { "turkish", 7, 7, 64, "h8" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        damero_tb *tb = open_variant(f, cases[k].variant);
        char name[DAMERO_SQUARE_NAME_SIZE];
        assert_int_equal(damero_square_at(tb, cases[k].column, cases[k].row), cases[k].square);
        if (cases[k].name) {
            assert_int_equal(damero_square_name(tb, cases[k].square, name), DAMERO_OK);
            assert_string_equal(name, cases[k].name);
        }
        damero_close(tb);
    }
}

static void test_bad_squares(void **state)
{
    const struct temp_dir *f = *state;
    damero_tb *tb = open_variant(f, "russian");
    char name[DAMERO_SQUARE_NAME_SIZE];
    assert_int_equal(damero_square_name(tb, 0, name), DAMERO_ERR_POSITION);
    assert_int_equal(damero_square_name(tb, 33, name), DAMERO_ERR_POSITION);
    assert_non_null(strstr(damero_error_message(), "no square 33"));
    assert_int_equal(damero_square_name(tb, 1, NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_square_at(tb, 8, 0), 0);
    assert_int_equal(damero_square_at(tb, 0, 8), 0);
    damero_close(tb);
}

/* damero_game_end: the game goes on, is over for want of a move, or is over by the
 * variant's rule on lone pieces (Turkish: one piece each, though a capture is there). */
static void test_game_end(void **state)
{
    const struct temp_dir *f = *state;
    static const struct {
        const char *variant, *fen;
        int end;
    } cases[] = {
        { "russian", "W:Wc3:Bf6", DAMERO_PLAYING },
        { "russian", "W:Wh2:Bf4,g3", DAMERO_NO_MOVE },
        { "russian", "W:WKd4:BKf6", DAMERO_PLAYING },
        { "turkish", "W:WKd4:BKd6", DAMERO_LONE_PIECES },
        { "turkish", "B:Wd4:Ba7", DAMERO_LONE_PIECES },
        { "turkish", "W:WKd4,a2:BKd6", DAMERO_PLAYING },
        { "turkish", "W:Wa3:Ba4,a5,b3,c3", DAMERO_NO_MOVE }, /* blocked, nothing to take */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        damero_tb *tb = open_variant(f, cases[k].variant);
        damero_position pos;
        const char *words = "unset";
        int end = -1;
        assert_int_equal(damero_parse_fen(tb, cases[k].fen, &pos), DAMERO_OK);
        assert_int_equal(damero_game_end(tb, &pos, &end, &words), DAMERO_OK);
        if (end != cases[k].end)
            fail_msg("%s %s: end %d, expected %d", cases[k].variant, cases[k].fen, end,
                     cases[k].end);
        if (end == DAMERO_LONE_PIECES)
            assert_string_equal(words, "one piece each: a draw");
        else
            assert_null(words);
        damero_close(tb);
    }
    /* no table is read to know that there is no move to play */
    damero_tb *tb = open_variant(f, "turkish");
    damero_position pos;
    damero_move best;
    int end, count = -1;
    assert_int_equal(damero_parse_fen(tb, "W:WKd4:BKd6", &pos), DAMERO_OK);
    assert_int_equal(damero_root_moves(tb, &pos, &best, 1, &count), DAMERO_OK);
    assert_int_equal(count, 0);
    assert_int_equal(damero_best_move(tb, &pos, &best), DAMERO_ERR_GAME_OVER);
    assert_string_equal(damero_error_message(), "the game is over: one piece each: a draw");
    assert_int_equal(damero_parse_fen(tb, "W:WKd4:B", &pos), DAMERO_OK);
    assert_int_equal(damero_game_end(tb, &pos, &end, NULL), DAMERO_ERR_POSITION);
    assert_non_null(strstr(damero_error_message(), "already over"));
    assert_int_equal(damero_game_end(tb, &pos, NULL, NULL), DAMERO_ERR_ARGUMENT);
    damero_close(tb);
}

/* The starting positions, as the rules describe them (docs/rules.md), with the side
 * that moves first: Black in english checkers and pool. */
static void test_start_position(void **state)
{
    const struct temp_dir *f = *state;
    static const struct {
        const char *variant, *fen;
    } cases[] = {
        { "international", "W:W31-50:B1-20" },
        { "russian", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8" },
        { "english", "B:W21-32:B1-12" },
        { "turkish", "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:"
                     "Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        damero_tb *tb = open_variant(f, cases[k].variant);
        damero_position start, want;
        char got[DAMERO_FEN_SIZE], expected[DAMERO_FEN_SIZE];
        assert_int_equal(damero_start_position(tb, &start), DAMERO_OK);
        assert_int_equal(damero_parse_fen(tb, cases[k].fen, &want), DAMERO_OK);
        assert_int_equal(damero_write_fen(tb, &start, got), DAMERO_OK);
        assert_int_equal(damero_write_fen(tb, &want, expected), DAMERO_OK);
        if (strcmp(got, expected) != 0)
            fail_msg("%s: the start is %s, not %s", cases[k].variant, got, expected);
        assert_int_equal(damero_start_position(tb, NULL), DAMERO_ERR_ARGUMENT);
        damero_close(tb);
    }
}

static int by_text(const void *a, const void *b)
{
    return strcmp(((const damero_move *)a)->text, ((const damero_move *)b)->text);
}

/* The moves' texts, sorted and joined by spaces, and each one's FEN after. */
static void legal_moves(damero_tb *tb, const char *fen, char *texts, char *afters, size_t size)
{
    damero_move moves[DAMERO_MAX_MOVES];
    damero_position pos;
    char after[DAMERO_FEN_SIZE];
    int count = -1;

    assert_int_equal(damero_parse_fen(tb, fen, &pos), DAMERO_OK);
    assert_int_equal(damero_legal_moves(tb, &pos, moves, DAMERO_MAX_MOVES, &count), DAMERO_OK);
    qsort(moves, (size_t)count, sizeof moves[0], by_text);
    texts[0] = afters[0] = '\0';
    for (int k = 0; k < count; k++) {
        assert_int_equal(moves[k].value.wdl, DAMERO_DRAW);
        assert_int_equal(moves[k].value.dtm, -1);
        assert_int_equal(damero_write_fen(tb, &moves[k].after, after), DAMERO_OK);
        snprintf(texts + strlen(texts), size - strlen(texts), "%s%s", k ? " " : "", moves[k].text);
        snprintf(afters + strlen(afters), size - strlen(afters), "%s%s", k ? " " : "", after);
    }
}

/* Moves without tables: from the start (the perft figures of one ply), a capture, the
 * end of the game by the rule on lone pieces, too little room. */
static void test_legal_moves(void **state)
{
    const struct temp_dir *f = *state;
    char texts[4096], afters[8192];
    damero_tb *tb = open_variant(f, "international");
    damero_position pos;
    damero_move one;
    int count = -1;

    legal_moves(tb, "W:W31-50:B1-20", texts, afters, sizeof texts);
    assert_string_equal(texts, "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30");
    legal_moves(tb, "B:W28,K46:B22", texts, afters, sizeof afters);
    assert_string_equal(texts, "22x33");
    assert_string_equal(afters, "W:WK46:B33");
    assert_int_equal(damero_start_position(tb, &pos), DAMERO_OK);
    assert_int_equal(damero_legal_moves(tb, &pos, &one, 1, &count), DAMERO_ERR_ARGUMENT);
    assert_int_equal(count, 9);
    damero_close(tb);

    tb = open_variant(f, "russian");
    legal_moves(tb, "W:Wc3:Bd4", texts, afters, sizeof afters);
    assert_string_equal(texts, "c3:e5");
    assert_string_equal(afters, "B:We5:B");
    damero_close(tb);

    tb = open_variant(f, "turkish");
    assert_int_equal(damero_parse_fen(tb, "W:WKd4:BKd6", &pos), DAMERO_OK);
    assert_int_equal(damero_legal_moves(tb, &pos, &one, 1, &count), DAMERO_OK);
    assert_int_equal(count, 0);
    damero_close(tb);
}

/* An engine's layouts: each order a permutation of the variant's squares, the orders
 * that are some variant's own numbering equal to it, corners where the order says, and
 * positions converted both ways and read as FENs. */
static void test_layouts(void **state)
{
    const struct temp_dir *f = *state;
    /* the orders that are the variant's numbering (docs/variants.md, "Notation") */
    static const struct {
        const char *variant;
        int order;
    } numbering[] = { { "international", DAMERO_ORDER_TOP_LEFT },
                      { "english", DAMERO_ORDER_TOP_LEFT },
                      { "pool", DAMERO_ORDER_TOP_LEFT },
                      { "italian", DAMERO_ORDER_TOP_LEFT },
                      { "russian", DAMERO_ORDER_BOTTOM_LEFT },
                      { "brazilian", DAMERO_ORDER_BOTTOM_LEFT },
                      { "czech", DAMERO_ORDER_BOTTOM_LEFT },
                      { "poddavki", DAMERO_ORDER_BOTTOM_LEFT },
                      { "turkish", DAMERO_ORDER_BOTTOM_LEFT } };
    for (int v = 0; variants[v].name; v++) {
        damero_tb *tb = open_variant(f, variants[v].name);
        damero_board board;
        damero_layout layout, identity;
        damero_board_shape(tb, &board);
        assert_int_equal(damero_layout_make(tb, DAMERO_ORDER_NUMBERS, &identity), DAMERO_OK);
        for (int order = DAMERO_ORDER_NUMBERS; order <= DAMERO_ORDER_TOP_LEFT; order++) {
            int seen[65] = { 0 };
            bool is_numbering = order == DAMERO_ORDER_NUMBERS;
            assert_int_equal(damero_layout_make(tb, order, &layout), DAMERO_OK);
            assert_int_equal(layout.bits, board.squares);
            for (int k = 0; k < layout.bits; k++) {
                assert_in_range(layout.number[k], 1, board.squares);
                assert_int_equal(seen[layout.number[k]]++, 0);
                assert_int_equal(layout.bit[layout.number[k]], k);
            }
            for (size_t c = 0; c < sizeof numbering / sizeof numbering[0]; c++)
                is_numbering |= strcmp(numbering[c].variant, variants[v].name) == 0 &&
                                numbering[c].order == order;
            if ((memcmp(layout.number, identity.number, sizeof layout.number) == 0) !=
                is_numbering)
                fail_msg("%s, order %d: %s the variant's numbering", variants[v].name, order,
                         is_numbering ? "not" : "unexpectedly");
            /* bit 0 at the lower left or upper left, along the rank */
            int row = order == DAMERO_ORDER_TOP_LEFT ? board.rows - 1 : 0;
            int column = damero_square_at(tb, 0, row) ? 0 : 1;
            int step = board.squares == board.columns * board.rows ? 1 : 2; /* turkish: 1 */
            if (order != DAMERO_ORDER_NUMBERS) {
                assert_int_equal(layout.number[0], damero_square_at(tb, column, row));
                assert_int_equal(layout.number[1], damero_square_at(tb, column + step, row));
            }
        }
        damero_close(tb);
    }
}

/* Positions through a layout both ways, against the FEN of the same position. */
static void test_layout_positions(void **state)
{
    const struct temp_dir *f = *state;
    static const struct {
        const char *variant;
        int order;
        int white_king, black_man, side; /* engine bits */
        const char *fen;
    } cases[] = {
        { "international", DAMERO_ORDER_BOTTOM_LEFT, 0, 49, DAMERO_WHITE, "W:WK46:B5" },
        { "international", DAMERO_ORDER_BOTTOM_LEFT, 5, 44, DAMERO_BLACK, "B:WK41:B10" },
        { "international", DAMERO_ORDER_TOP_LEFT, 45, 0, DAMERO_WHITE, "W:WK46:B1" },
        { "russian", DAMERO_ORDER_TOP_LEFT, 0, 4, DAMERO_WHITE, "W:WKb8:Ba7" },
        { "spanish", DAMERO_ORDER_BOTTOM_LEFT, 0, 31, DAMERO_WHITE, "W:WK4:B29" },
        { "turkish", DAMERO_ORDER_TOP_LEFT, 0, 15, DAMERO_WHITE, "W:WKa8:Bh7" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        damero_tb *tb = open_variant(f, cases[c].variant);
        damero_layout layout;
        damero_position pos, want;
        uint64_t men[2] = { 0, (uint64_t)1 << cases[c].black_man };
        uint64_t kings[2] = { (uint64_t)1 << cases[c].white_king, 0 };
        uint64_t men_back[2], kings_back[2];
        char fen[DAMERO_FEN_SIZE];
        int side;
        assert_int_equal(damero_layout_make(tb, cases[c].order, &layout), DAMERO_OK);
        assert_int_equal(damero_position_from_layout(&layout, men, kings, cases[c].side, &pos),
                         DAMERO_OK);
        assert_int_equal(damero_write_fen(tb, &pos, fen), DAMERO_OK);
        assert_string_equal(fen, cases[c].fen);
        assert_int_equal(damero_parse_fen(tb, cases[c].fen, &want), DAMERO_OK);
        assert_memory_equal(pos.men, want.men, sizeof pos.men);
        assert_memory_equal(pos.kings, want.kings, sizeof pos.kings);
        assert_int_equal(pos.side_to_move, want.side_to_move);
        assert_int_equal(damero_position_to_layout(&layout, &pos, men_back, kings_back, &side),
                         DAMERO_OK);
        assert_memory_equal(men_back, men, sizeof men);
        assert_memory_equal(kings_back, kings, sizeof kings);
        assert_int_equal(side, cases[c].side);

        /* every piece on every square: both ways and back */
        for (int k = 0; k < layout.bits; k++) {
            uint64_t one[2] = { (uint64_t)1 << k, 0 }, none[2] = { 0, 0 };
            assert_int_equal(damero_position_from_layout(&layout, none, one, DAMERO_WHITE, &pos),
                             DAMERO_OK);
            assert_true(pos.kings[DAMERO_WHITE] == (uint64_t)1 << (layout.number[k] - 1));
            assert_int_equal(damero_position_to_layout(&layout, &pos, men_back, kings_back, &side),
                             DAMERO_OK);
            assert_true(kings_back[DAMERO_WHITE] == one[0]);
        }
        damero_close(tb);
    }
}

static void test_layout_errors(void **state)
{
    const struct temp_dir *f = *state;
    damero_tb *tb = open_variant(f, "russian");
    damero_layout layout;
    damero_position pos = { .kings = { 1, (uint64_t)1 << 32 } }; /* square 33: none */
    uint64_t men[2] = { 0, 0 }, kings[2] = { (uint64_t)1 << 32, 1 };
    int side;
    assert_int_equal(damero_layout_make(tb, 3, &layout), DAMERO_ERR_ARGUMENT);
    assert_non_null(strstr(damero_error_message(), "DAMERO_ORDER_NUMBERS"));
    assert_int_equal(damero_layout_make(NULL, 0, &layout), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_layout_make(tb, 0, NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_layout_make(tb, DAMERO_ORDER_TOP_LEFT, &layout), DAMERO_OK);
    /* bit 32 of an engine's 8x8 board of 32 squares */
    assert_int_equal(damero_position_from_layout(&layout, men, kings, DAMERO_WHITE, &pos),
                     DAMERO_ERR_POSITION);
    assert_non_null(strstr(damero_error_message(), "bits 0 to 31"));
    kings[0] = 2;
    assert_int_equal(damero_position_from_layout(&layout, men, kings, 2, &pos),
                     DAMERO_ERR_POSITION);
    assert_int_equal(damero_position_from_layout(&layout, NULL, kings, DAMERO_WHITE, &pos),
                     DAMERO_ERR_ARGUMENT);
    pos = (damero_position){ .kings = { 1, (uint64_t)1 << 32 } };
    assert_int_equal(damero_position_to_layout(&layout, &pos, men, kings, &side),
                     DAMERO_ERR_POSITION);
    assert_int_equal(damero_position_to_layout(&layout, &pos, men, kings, NULL),
                     DAMERO_ERR_ARGUMENT);
    damero_close(tb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variant_names),
        cmocka_unit_test_setup_teardown(test_every_square_once, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_corners, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_bad_squares, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_game_end, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_start_position, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_legal_moves, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_layouts, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_layout_positions, setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_layout_errors, setup, temp_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
