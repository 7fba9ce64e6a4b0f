/* Square numbering in every notation, FEN round trips, and every class of bad FEN. */
#include "tests/test_util.h"

#include "tests/random_position.h"

static int bit_at(const struct variant *v, int file, int rank)
{
    return geometry_bit_at(v->board(), file, rank);
}

/* Each numbering as docs/rules.md states it, read in board coordinates (a1 = file 0 rank 0;
 * mirrored boards are the reflection a<->h of the canonical one). */
static void test_numbering(void **state)
{
    const struct variant *intl = test_variant("international");
    const struct variant *english = test_variant("english");
    const struct variant *spanish = test_variant("spanish");
    const struct variant *italian = test_variant("italian");

    (void)state;
    assert_int_equal(square_from_number(intl, 1), bit_at(intl, 1, 9));   /* b10 */
    assert_int_equal(square_from_number(intl, 46), bit_at(intl, 0, 0));  /* a1 */
    assert_int_equal(square_from_number(intl, 50), bit_at(intl, 8, 0));  /* i1 */
    assert_int_equal(square_from_number(intl, 51), -1);
    assert_int_equal(square_from_number(english, 1), bit_at(english, 1, 7));  /* b8 */
    assert_int_equal(square_from_number(english, 4), bit_at(english, 7, 7));  /* h8 */
    assert_int_equal(square_from_number(english, 5), bit_at(english, 0, 6));  /* a7 */
    assert_int_equal(square_from_number(english, 29), bit_at(english, 0, 0)); /* a1 */
    assert_int_equal(square_from_number(english, 32), bit_at(english, 6, 0)); /* g1 */
    /* Spanish: 1 is the mirrored board's h1, i.e. canonical a1; the main diagonal runs
     * 1 to 32; numbers run right to left as the player sees them (left to right here). */
    assert_int_equal(square_from_number(spanish, 1), bit_at(spanish, 0, 0));
    assert_int_equal(square_from_number(spanish, 2), bit_at(spanish, 2, 0));
    assert_int_equal(square_from_number(spanish, 5), bit_at(spanish, 1, 1));
    assert_int_equal(square_from_number(spanish, 32), bit_at(spanish, 7, 7));
    /* Italian: 1 is the top-left square as White sees the mirrored board (a8), i.e.
     * canonical h8; 32 is its h1, canonical a1. */
    assert_int_equal(square_from_number(italian, 1), bit_at(italian, 7, 7));
    assert_int_equal(square_from_number(italian, 4), bit_at(italian, 1, 7));
    assert_int_equal(square_from_number(italian, 32), bit_at(italian, 0, 0));
    /* Turkish: every square, a1 = 1, b1 = 2, ..., h1 = 8, a2 = 9, ..., h8 = 64. */
    const struct variant *turkish = test_variant("turkish");
    assert_int_equal(square_from_number(turkish, 1), bit_at(turkish, 0, 0));
    assert_int_equal(square_from_number(turkish, 2), bit_at(turkish, 1, 0));
    assert_int_equal(square_from_number(turkish, 9), bit_at(turkish, 0, 1));
    assert_int_equal(square_from_number(turkish, 64), bit_at(turkish, 7, 7));
    assert_int_equal(square_from_number(turkish, 65), -1);
    /* Every numbering is a bijection onto the playable squares. */
    for (const struct variant *v = variants; v->name; v++) {
        bb_t seen = 0;
        for (int n = 1; n <= v->board()->num_squares; n++) {
            int b = square_from_number(v, n);
            assert_true(b >= 0 && !(seen & bb_of(b)));
            assert_int_equal(square_number(v, b), n);
            seen |= bb_of(b);
        }
        assert_true(seen == v->board()->board);
    }
}

/* Each variant's own starting position, written as its players write it. */
static void test_initial_positions(void **state)
{
    static const struct {
        const char *variant, *fen;
    } cases[] = {
        { "international", "W:W31-50:B1-20" },
        { "english", "B:W21-32:B1-12" },
        { "pool", "B:W21-32:B1-12" },
        { "spanish", "W:W1-12:B21-32" },
        { "italian", "W:W21-32:B1-12" },
        { "russian", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:"
                     "Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8" },
        /* sixteen men on the second and third ranks, the back ranks empty */
        { "turkish", "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:"
                     "Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7" },
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct variant *v = test_variant(cases[i].variant);
        struct position initial, parsed = test_position(v, cases[i].fen);
        position_initial(v, &initial);
        assert_true(position_equal(&initial, &parsed));
    }
}

static void test_print(void **state)
{
    const struct variant *intl = test_variant("international");
    const struct variant *russian = test_variant("russian");
    struct position p;
    char fen[FEN_SIZE];

    (void)state;
    p = test_position(intl, "W:W31,32,K45:B1,2,K7");
    fen_print(intl, &p, fen);
    assert_string_equal(fen, "W:W31,32,K45:B1,2,K7");
    p = test_position(russian, " B:BKh8, a7 :WKc3. ");
    fen_print(russian, &p, fen);
    assert_string_equal(fen, "B:WKc3:Ba7,Kh8");
    /* Turkish: squares in numbering order, a1, b1, ..., h8 */
    const struct variant *turkish = test_variant("turkish");
    p = test_position(turkish, "B:WKh1,b2,a3:BKa8,d7,e6");
    fen_print(turkish, &p, fen);
    assert_string_equal(fen, "B:WKh1,b2,a3:Be6,d7,Ka8");
}

static void test_round_trips(void **state)
{
    (void)state;
    for (const struct variant *v = variants; v->name; v++) {
        uint64_t seed = 12345;
        for (int i = 0; i < 2000; i++) {
            struct position p = random_position(v, &seed, v->men_per_side, 40), back;
            char fen[FEN_SIZE], err[256];
            fen_print(v, &p, fen);
            assert_int_equal(fen_parse(v, fen, &back, err, sizeof err), 0);
            assert_true(position_equal(&p, &back));
        }
    }
}

/* A bad FEN is refused with a message naming the problem, and leaves p untouched. */
/* A FEN written with numbers on an algebraic board (as Russian programs write them, PDN's
 * numbering: from the top, left to right) is the position its algebraic FEN gives. */
static void assert_same_position(const char *variant, const char *numbers, const char *letters)
{
    const struct variant *v = test_variant(variant);
    struct position a, b;
    char err[256];

    if (fen_parse(v, numbers, &a, err, sizeof err) != 0)
        fail_msg("%s: '%s' refused: %s", variant, numbers, err);
    if (fen_parse(v, letters, &b, err, sizeof err) != 0)
        fail_msg("%s: '%s' refused: %s", variant, letters, err);
    if (!position_equal(&a, &b))
        fail_msg("%s: '%s' is not '%s'", variant, numbers, letters);
}

static void test_numbers_on_algebraic_boards(void **state)
{
    (void)state;
    assert_same_position("russian", "W:W29,30,K32:B1,4,K5.", "W:Wa1,c1,Kg1:Bb8,h8,Ka7");
    assert_same_position("brazilian", "B:W21,28:B8,12", "B:Wa3,h2:Bg7,h6");
    assert_same_position("russian", "W:W29,c1:Bh8", "W:Wa1,c1:B4"); /* mixed */
    /* the starting position as a Russian program writes it */
    assert_same_position("russian", "W:W21,22,23,24,25,26,27,28,29,30,31,32:"
                                    "B1,2,3,4,5,6,7,8,9,10,11,12.",
                         "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:"
                         "Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8");
    /* Turkish: every square, from the top left: a8 = 1, h1 = 64 */
    assert_same_position("turkish", "W:W49,56:B9", "W:Wa2,h2:Ba7");
}

static void assert_bad_fen(const char *variant, const char *fen, const char *words)
{
    const struct variant *v = test_variant(variant);
    struct position p = { .men = { 7, 7 } }, before = p;
    char err[256] = "";

    if (fen_parse(v, fen, &p, err, sizeof err) == 0)
        fail_msg("%s: '%s' was accepted", variant, fen);
    if (!strstr(err, words))
        fail_msg("%s: '%s' gave \"%s\", which does not say \"%s\"", variant, fen, err, words);
    assert_true(position_equal(&p, &before));
}

static void test_bad_fens(void **state)
{
    (void)state;
    assert_bad_fen("international", "", "empty");
    assert_bad_fen("international", "   ", "empty");
    assert_bad_fen("international", "hello", "expected W or B");
    assert_bad_fen("international", "W:X31", "expected W or B");
    assert_bad_fen("international", "W:W51:B1", "'51' is not a square");
    assert_bad_fen("international", "W:W0:B1", "'0' is not a square");
    assert_bad_fen("english", "B:W33:B1", "'33' is not a square");
    assert_bad_fen("russian", "W:Wa2:Bh8", "'a2' is not a square");  /* not playable */
    assert_bad_fen("russian", "W:Wi1:Bh8", "'i1' is not a square");  /* off the board */
    assert_bad_fen("russian", "W:W33:Bh8", "'33' is not a square");  /* numbers 1..32 */
    assert_bad_fen("russian", "W:W0:Bh8", "'0' is not a square");
    assert_bad_fen("international", "W:Wc3:B1", "'c3' is not a square");
    assert_bad_fen("international", "W:W31,31:B1", "used twice");
    assert_bad_fen("international", "W:W31:B31", "used twice");
    assert_bad_fen("international", "W:W31-35:B1,K33", "used twice");
    assert_bad_fen("international", "W:W3:B40", "promotion rank");   /* White crowns on 1-5 */
    assert_bad_fen("international", "W:W40:B47", "promotion rank");  /* Black on 46-50 */
    assert_bad_fen("russian", "W:Wc3:Bb2,a1", "promotion rank");
    assert_bad_fen("international", "W:W6-26:B1", "too many white pieces");
    assert_bad_fen("english", "B:W13-32:B1", "too many white pieces");
    assert_bad_fen("international", "W:W31:B35-31", "lower to the higher");
    assert_bad_fen("russian", "W:Wa1-c1:Bh8", "ranges");
    assert_bad_fen("international", "W:W31:W32", "listed twice");
    assert_bad_fen("international", "W:W31 32:B1", "expected ',' or ':'");
    assert_bad_fen("international", "W:W31:B1. extra", "unexpected text");
    assert_bad_fen("international", "W:W31:B1,", "expected a square");
    /* Turkish: all 64 squares exist, men never stand behind their starting ranks */
    assert_bad_fen("turkish", "W:Wi2:Ba7", "'i2' is not a square");
    assert_bad_fen("turkish", "W:Wa9:Ba7", "'a9' is not a square");
    assert_bad_fen("turkish", "W:Wd1:Ba7", "behind the ranks");
    assert_bad_fen("turkish", "W:Wd2:Bh8", "behind the ranks");
    assert_bad_fen("turkish", "W:Wd8:Ba7", "promotion rank");
    assert_bad_fen("turkish", "W:Wd2:Ba1", "promotion rank");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbering),
        cmocka_unit_test(test_initial_positions),
        cmocka_unit_test(test_print),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_bad_fens),
        cmocka_unit_test(test_numbers_on_algebraic_boards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
