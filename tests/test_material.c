/* Materials: signatures read and written, colour orientation, the lists a build walks, and
 * the materials one move can reach (which a build must finish first). */
#include "tests/test_util.h"

#include "format/index.h"
#include "format/material.h"

#define LIST_CAPACITY 512

static struct material parse_ok(const struct variant *v, const char *text)
{
    struct material m;
    char err[256];
    if (material_parse(v, text, &m, err, sizeof err) < 0)
        fail_msg("%s: cannot read %s: %s", v->name, text, err);
    return m;
}

static void expect_name(const struct material *m, const char *expected)
{
    char name[MATERIAL_NAME_SIZE];
    material_name(m, name);
    assert_string_equal(name, expected);
}

/* Any position's material can be named, also a whole board's, far beyond the tables:
 * messages name the material of a position that has too many pieces to be probed. */
static void test_name_of_a_full_board(void **state)
{
    (void)state;
    struct material m = { { 0, 0 }, { 20, 20 } };
    char expected[64];
    memset(expected, 'M', 41);
    expected[20] = 'v';
    expected[41] = '\0';
    expect_name(&m, expected);
    struct material kings = { { MAX_SQUARES / 2, MAX_SQUARES / 2 }, { 0, 0 } };
    char name[MATERIAL_NAME_SIZE];
    material_name(&kings, name);
    assert_int_equal(strlen(name), MAX_SQUARES + 1);
}

/* Reading then writing gives the text back, and the counts are the letters'. */
static void test_parse_name_round_trip(void **state)
{
    const struct variant *v = test_variant("international");
    const char *names[] = { "KvK", "MvM", "KvM", "MvK", "KKKvK", "KKMvK", "KMvKM",
                            "KMMvKKM", "MMMMvMMMM", "KKKKKKKvK" };
    (void)state;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        struct material m = parse_ok(v, names[k]);
        expect_name(&m, names[k]);
    }
    struct material m = parse_ok(v, "KKMvKMM");
    assert_int_equal(m.kings[WHITE], 2);
    assert_int_equal(m.men[WHITE], 1);
    assert_int_equal(m.kings[BLACK], 1);
    assert_int_equal(m.men[BLACK], 2);
    assert_int_equal(material_pieces(&m), 6);
    assert_int_equal(material_men(&m), 3);
}

/* Each bad signature is refused with a message naming the problem, and the output is not
 * touched. */
static void expect_refused(const struct variant *v, const char *text, const char *words)
{
    struct material m = { { 7, 7 }, { 7, 7 } };
    char err[256] = "";
    if (material_parse(v, text, &m, err, sizeof err) == 0)
        fail_msg("%s: '%s' was read as a material", v->name, text);
    if (!strstr(err, words))
        fail_msg("%s: the message for '%s' is '%s', without '%s'", v->name, text, err, words);
    assert_int_equal(m.kings[WHITE], 7);
    assert_int_equal(m.men[BLACK], 7);
}

static void test_parse_errors(void **state)
{
    const struct variant *russian = test_variant("russian");
    (void)state;
    expect_refused(russian, "", "is not a material");
    expect_refused(russian, "KK", "is not a material");
    expect_refused(russian, "KvKv", "is not a material");
    expect_refused(russian, "KvvK", "is not a material");
    expect_refused(russian, "vK", "White needs at least one piece");
    expect_refused(russian, "Kv", "Black needs at least one piece");
    expect_refused(russian, "v", "needs at least one piece");
    expect_refused(russian, "KxvK", "unexpected 'x'");
    expect_refused(russian, "kvk", "unexpected 'k'");
    expect_refused(russian, "KvK ", "unexpected ' '");
    /* kings before men, on either side */
    expect_refused(russian, "MKvK", "unexpected 'K'");
    expect_refused(russian, "KvMK", "unexpected 'K'");
    /* a side cannot have more pieces than it starts with (12 in russian) ... */
    expect_refused(russian, "KKKKKKKKKKKKKvK", "13 pieces for one side, russian has 12");
    /* ... and the board no more than the indexing handles */
    expect_refused(russian, "KKKKKvKKKK", "more than 8 pieces");
}

static struct material flip_of(const char *text)
{
    struct material m = parse_ok(test_variant("russian"), text);
    return material_flipped(&m);
}

/* The stronger side (more pieces, then more kings) is White in a table. */
static void test_orientation(void **state)
{
    const struct variant *v = test_variant("russian");
    struct {
        const char *name;
        bool canonical, symmetric;
        const char *flipped;
    } cases[] = {
        { "KvK", true, true, "KvK" },       { "KMvKM", true, true, "KMvKM" },
        { "KvM", true, false, "MvK" },      { "MvK", false, false, "KvM" },
        { "KKvK", true, false, "KvKK" },    { "KvKK", false, false, "KKvK" },
        { "MMvK", true, false, "KvMM" },    { "KvMM", false, false, "MMvK" },
        { "KMvKK", false, false, "KKvKM" }, { "KKvKM", true, false, "KMvKK" },
        { "MMMvKK", true, false, "KKvMMM" },
    };
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct material m = parse_ok(v, cases[k].name), f = flip_of(cases[k].name), back;
        if (material_is_canonical(&m) != cases[k].canonical)
            fail_msg("%s: canonical should be %d", cases[k].name, cases[k].canonical);
        assert_int_equal(material_is_symmetric(&m), cases[k].symmetric);
        expect_name(&f, cases[k].flipped);
        back = material_flipped(&f);
        assert_true(material_equal(&back, &m));
        /* exactly one orientation is canonical, unless both are the same */
        assert_true(material_is_canonical(&m) || material_is_canonical(&f));
        if (!cases[k].symmetric)
            assert_false(material_is_canonical(&m) && material_is_canonical(&f));
    }
}

/* The material of a position counts its pieces. */
static void test_material_of(void **state)
{
    const struct variant *v = test_variant("russian");
    struct position p = test_position(v, "W:WKa1,c3,e3:BKh8,b6");
    struct material m = material_of(&p);
    (void)state;
    expect_name(&m, "KMMvKM");
}

/* The tables of n pieces, counted without material.c: a side of w pieces has w + 1
 * compositions (0..w kings); the ordered pairs (White's, Black's) with at least one piece
 * each come in colour-flip pairs sharing one table, except the symmetric ones (both sides
 * alike), which are their own flip. */
static int count_canonical_materials(int pieces)
{
    int ordered = 0, symmetric = 0;
    for (int w = 1; w < pieces; w++) {
        int b = pieces - w;
        ordered += (w + 1) * (b + 1);
        if (w == b)
            symmetric += w + 1;
    }
    return (ordered + symmetric) / 2;
}

/* material_list gives each table of n pieces once, in building order. */
static void test_list(void **state)
{
    static struct material list[LIST_CAPACITY];
    (void)state;
    /* by hand: KvK KvM MvM; KKvK KKvM KMvK KMvM MMvK MMvM */
    assert_int_equal(count_canonical_materials(2), 3);
    assert_int_equal(count_canonical_materials(3), 6);
    for (const struct variant *v = variants; v->name; v++)
        for (int n = 2; n <= MATERIAL_MAX_PIECES; n++) {
            int count = material_list(v, n, list, LIST_CAPACITY);
            assert_int_equal(count, count_canonical_materials(n));
            for (int k = 0; k < count; k++) {
                assert_int_equal(material_pieces(&list[k]), n);
                assert_true(material_is_canonical(&list[k]));
                assert_true(material_side_pieces(&list[k], BLACK) >= 1);
                if (k > 0)
                    assert_true(material_compare(&list[k - 1], &list[k]) < 0);
            }
        }
    /* the ones of 3 pieces by name, in building order: fewer men first */
    int count = material_list(test_variant("russian"), 3, list, LIST_CAPACITY);
    const char *expected[] = { "KKvK", "KKvM", "KMvK", "KMvM", "MMvK", "MMvM" };
    assert_int_equal(count, 6);
    for (int k = 0; k < count; k++)
        expect_name(&list[k], expected[k]);
    /* a small capacity is respected */
    assert_true(material_list(test_variant("russian"), 4, list, 2) <= 2);
}

static void expect_successors(const char *variant, const char *name, const char *expected)
{
    const struct variant *v = test_variant(variant);
    struct material m = parse_ok(v, name), next[64];
    char got[512] = "", one[MATERIAL_NAME_SIZE];
    int n = material_successors(v, &m, next, 64);
    for (int k = 0; k < n; k++) {
        material_name(&next[k], one);
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", k ? " " : "", one);
    }
    if (strcmp(got, expected) != 0)
        fail_msg("%s %s: successors {%s}, expected {%s}", variant, name, got, expected);
}

/* Worked by hand, in building order. KMvK: White crowns (KKvK); Black takes the man (KvK)
 * or the king (MvK, whose table is KvM); taking Black's only piece ends the game, so that
 * is no table. */
static void test_successors_by_hand(void **state)
{
    (void)state;
    expect_successors("russian", "KvK", "");
    expect_successors("russian", "KvM", "KvK");
    expect_successors("russian", "MvM", "KvM");
    expect_successors("russian", "KKvK", "KvK");
    expect_successors("russian", "KMvK", "KvK KvM KKvK");
    /* White crowns (KMvM); Black takes a man (MvM), takes one and crowns (MvK = KvM), or
     * crowns (MMvK) */
    expect_successors("russian", "MMvM", "KvM MvM KMvM MMvK");
    /* either side: takes the king (KMvM) or the man (KMvK), crowns (KKvKM), or both (KKvM,
     * KKvK) */
    expect_successors("russian", "KMvKM", "KKvK KKvM KMvK KMvM KKvKM");
    /* Black's king takes the king (MMvK), a man (KMvK), both men at once (KvK), or the
     * king and a man (MvK = KvM); White crowns (KKMvK) */
    expect_successors("russian", "KMMvK", "KvK KvM KMvK MMvK KKMvK");
}

static bool listed(const struct material *list, int n, const struct material *m)
{
    for (int k = 0; k < n; k++)
        if (material_equal(&list[k], m))
            return true;
    return false;
}

/* Plays every move of positions of material m (every `stride`-th index, both sides to
 * move) and checks that each material it reaches, other than m itself and the end of the
 * game, is listed. With `complete`, also that everything listed is reached. */
static void check_successors_reached(const char *variant, const char *name, uint64_t stride,
                                     bool complete)
{
    const struct variant *v = test_variant(variant);
    struct material m = parse_ok(v, name), next[64], reached[64];
    struct material_index ix;
    struct move_list moves;
    int n = material_successors(v, &m, next, 64), num_reached = 0;
    char fen[FEN_SIZE], got[MATERIAL_NAME_SIZE];

    for (int k = 0; k < n; k++) {
        assert_true(material_is_canonical(&next[k]));
        assert_true(material_side_pieces(&next[k], WHITE) > 0);
        assert_true(material_side_pieces(&next[k], BLACK) > 0);
        /* built before m, so a build can read it */
        if (material_compare(&next[k], &m) >= 0)
            fail_msg("%s %s: successor %d is not before it in building order", variant, name, k);
    }
    assert_int_equal(index_init(&ix, v, &m), 0);
    for (uint64_t i = 0; i < ix.size; i += stride)
        for (int side = WHITE; side <= BLACK; side++) {
            struct position p;
            index_position(&ix, i, (enum side)side, &p);
            generate_moves(v, &p, 0, &moves);
            for (int j = 0; j < moves.count; j++) {
                struct position q;
                make_move(&p, &moves.moves[j], &q);
                struct material r = material_of(&q);
                if (!material_is_canonical(&r))
                    r = material_flipped(&r);
                if (material_equal(&r, &m) || material_side_pieces(&r, WHITE) == 0 ||
                    material_side_pieces(&r, BLACK) == 0)
                    continue;
                if (!listed(next, n, &r)) {
                    fen_print(v, &p, fen);
                    material_name(&r, got);
                    fail_msg("%s %s: %s reaches %s, not a listed successor", variant, name, fen,
                             got);
                }
                if (!listed(reached, num_reached, &r))
                    reached[num_reached++] = r;
            }
        }
    index_free(&ix);
    if (complete && num_reached != n)
        fail_msg("%s %s: %d successors listed, %d reached", variant, name, n, num_reached);
}

/* Every material a move reaches is listed; in russian (men take kings, promotion during a
 * capture) everything listed is reached too. Italian men cannot take kings, so there it
 * is a superset. */
static void test_successors_played(void **state)
{
    (void)state;
    const char *small[] = { "KvK", "KvM", "MvM", "KKvK", "KKvM", "KMvK", "KMvM", "MMvK", "MMvM" };
    for (size_t k = 0; k < sizeof small / sizeof small[0]; k++) {
        check_successors_reached("russian", small[k], 1, true);
        check_successors_reached("italian", small[k], 1, false);
        check_successors_reached("international", small[k], 3, true);
    }
    check_successors_reached("russian", "KMvKM", 29, true);
    check_successors_reached("russian", "KMMvK", 17, true);
    check_successors_reached("pool", "MMvMM", 31, true);
    check_successors_reached("english", "KKvKM", 23, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_name_round_trip),
        cmocka_unit_test(test_name_of_a_full_board),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_orientation),
        cmocka_unit_test(test_material_of),
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_successors_by_hand),
        cmocka_unit_test(test_successors_played),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
