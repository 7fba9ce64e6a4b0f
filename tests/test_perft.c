/* Perft against the published figures of docs/rules.md, for every variant and both
 * duplicate conventions. Depths are chosen so the whole suite stays fast in sanitizer
 * builds; `bench/bench_perft` and `damero perft` go deeper. */
#include "tests/test_util.h"

#include "core/cpu.h"
#include "core/perft.h"
#include "tests/random_position.h"

struct perft_case {
    const char *variant;
    const char *fen; /* NULL: the initial position */
    unsigned flags;
    int depth;       /* checks depths 1..depth */
    uint64_t nodes[12];
};

static const struct perft_case cases[] = {
    /* Depth 8-9 is where the rule sets part: russian and pool differ on mid-capture
     * promotion, english and czech on flying kings, spanish and italian on precedence. */
    { "international", NULL, 0, 8,
      { 9, 81, 658, 4265, 27117, 167140, 1049442, 6483961 } },
    { "russian", NULL, 0, 9,
      { 7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586 } },
    { "brazilian", NULL, 0, 9,
      { 7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766 } },
    { "pool", NULL, 0, 9,
      { 7, 49, 302, 1469, 7482, 37986, 190146, 929896, 4570534 } },
    { "english", NULL, 0, 9,
      { 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680 } },
    { "czech", NULL, 0, 9,
      { 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671 } },
    { "spanish", NULL, 0, 9,
      { 7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866 } },
    { "italian", NULL, 0, 9,
      { 7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875 } },
    /* The giveaway forms move as their parent rules do. */
    { "poddavki", NULL, 0, 8,
      { 7, 49, 302, 1469, 7482, 37986, 190146, 929899 } },
    { "ganapierde", NULL, 0, 8,
      { 7, 49, 302, 1469, 7361, 36473, 177532, 828783 } },
    /* Duplicates kept: captures of the same pieces in another order count apart. */
    { "international", NULL, MOVES_KEEP_DUPLICATES, 8,
      { 9, 81, 658, 4265, 27117, 167140, 1049442, 6483971 } },
    { "russian", NULL, MOVES_KEEP_DUPLICATES, 8,
      { 7, 49, 302, 1469, 7482, 37986, 190146, 929905 } },
    /* Turkish draughts: the figures another Turkish program publishes (docs/rules.md,
     * section 8); it counts every capture path, a flying king's touch-downs between two
     * jumps included: from depth 7 on its figures are those of MOVES_KEEP_PATHS. */
    { "turkish", NULL, 0, 6, { 8, 64, 708, 7538, 85090, 931312 } },
    { "turkish", NULL, MOVES_KEEP_DUPLICATES, 7,
      { 8, 64, 708, 7538, 85090, 931312, 10782308 } },
    { "turkish", NULL, MOVES_KEEP_PATHS, 7,
      { 8, 64, 708, 7538, 85090, 931312, 10782382 } },
    /* Russian with every path apart parts from the published duplicates-kept figures
     * (another Russian program's, which count orders apart only) at depth 10: 19
     * captures of a king touching down on different squares. */
    { "russian", NULL, MOVES_KEEP_PATHS, 10,
      { 7, 49, 302, 1469, 7482, 37986, 190146, 929905, 4570667, 22450647 } },
    /* A tactical middle-game position rich in multiple captures. */
    { "international",
      "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", 0, 10,
      { 6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050 } },
};

/* Deeper figures published by other programs, independent of docs/rules.md: Aart Bik's
 * English checkers perft (duplicates kept) and his international perft (duplicates
 * dropped, depth 11 also posted by Rein Halbersma). A minute in all: run with
 * `ctest -L slow`, which sets DAMERO_PERFT_DEEP. */
static const struct perft_case deep_cases[] = {
    { "english", NULL, MOVES_KEEP_DUPLICATES, 12,
      { 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128,
        388623673 } },
    { "international", NULL, 0, 11,
      { 9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763,
        1665861398 } },
    /* Turkish from depth 7 on: one move per pieces taken and end, as the reference counts
     * too (tests/test_reference.c); every capture path apart, the published 10 782 382
     * and 123 290 300 (docs/rules.md, section 8). */
    { "turkish", NULL, 0, 8,
      { 8, 64, 708, 7538, 85090, 931312, 10782308, 123285642 } },
    { "turkish", NULL, MOVES_KEEP_PATHS, 8,
      { 8, 64, 708, 7538, 85090, 931312, 10782382, 123290300 } },
};

static void check_cases(const struct perft_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const struct perft_case *c = &cases[i];
        const struct variant *v = test_variant(c->variant);
        struct position p;

        if (c->fen)
            p = test_position(v, c->fen);
        else
            position_initial(v, &p);
        for (int d = 1; d <= c->depth; d++) {
            uint64_t nodes = perft(v, &p, d, c->flags);
            if (nodes != c->nodes[d - 1])
                fail_msg("%s%s depth %d: %llu nodes, published %llu", c->variant,
                         c->flags ? " (duplicates kept)" : "", d, (unsigned long long)nodes,
                         (unsigned long long)c->nodes[d - 1]);
        }
    }
}

static void test_perft_published(void **state)
{
    (void)state;
    check_cases(cases, sizeof cases / sizeof cases[0]);
}

static void test_perft_deep(void **state)
{
    (void)state;
    if (!getenv("DAMERO_PERFT_DEEP"))
        skip();
    check_cases(deep_cases, sizeof deep_cases / sizeof deep_cases[0]);
}

/* perft(0) is the position itself; a side with no move has no successors. */
static void test_perft_edges(void **state)
{
    const struct variant *v = test_variant("russian");
    struct position p;

    (void)state;
    position_initial(v, &p);
    assert_int_equal(perft(v, &p, 0, 0), 1);
    p = test_position(v, "W:Wa1:Bh8");
    assert_int_equal(perft(v, &p, 1, 0), 1); /* a1-b2 only */
    p = test_position(v, "B:Wa1:B");
    assert_int_equal(perft(v, &p, 3, 0), 0); /* Black has no piece: no move */
}

/* Counting the moves (perft's last ply, which has ways of its own to count captures)
 * gives the length of the list generate_moves makes, in every variant and under both
 * duplicate conventions; men-heavy positions, where captures of men abound. */
static void test_count_matches_list(void **state)
{
    (void)state;
    for (const struct variant *v = variants; v->name; v++) {
        uint64_t seed = 14;
        for (int i = 0; i < 20000; i++) {
            struct position p = random_position(v, &seed, 1 + i % 12, i % 4 * 5);
            for (unsigned flags = 0; flags <= MOVES_KEEP_DUPLICATES; flags++) {
                struct move_list list;
                generate_moves(v, &p, flags, &list);
                if (count_moves(v, &p, flags) != list.count) {
                    char fen[FEN_SIZE];
                    fen_print(v, &p, fen);
                    fail_msg("%s %s: %d moves counted, %d listed", v->name, fen,
                             count_moves(v, &p, flags), list.count);
                }
            }
        }
    }
}

/* Whether two generated moves are the same move: the same squares, pieces taken and
 * jumps, in the same order. */
static bool same_move(const struct move *a, const struct move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured &&
           a->num_jumps == b->num_jumps && a->promotes == b->promotes &&
           memcmp(a->jumped, b->jumped, a->num_jumps) == 0 &&
           memcmp(a->landing, b->landing, a->num_jumps) == 0;
}

/* The solver's count of the kings' quiet moves (solve/solve.c) is -1 exactly where the
 * list holds captures, else the number of listed moves that start on a king; and its
 * split of the moves is generate_moves' list with those moves taken out, the rest in
 * order. Positions with many kings, where it is asked most. */
static void test_king_count_matches_list(void **state)
{
    (void)state;
    for (const struct variant *v = variants; v->name; v++) {
        uint64_t seed = 15;
        for (int i = 0; i < 20000; i++) {
            struct position p = random_position(v, &seed, 1 + i % 6, 50 + i % 3 * 25);
            struct move_list list;
            int expected = 0;
            generate_moves(v, &p, 0, &list);
            for (int k = 0; k < list.count; k++) {
                if (list.moves[k].captured != 0)
                    expected = -1;
                else if (p.kings[p.side] & bb_of(list.moves[k].from))
                    expected++;
            }
            char fen[FEN_SIZE];
            fen_print(v, &p, fen);
            if (count_quiet_king_moves(v, &p) != expected)
                fail_msg("%s %s: %d quiet king moves counted, %d listed", v->name, fen,
                         count_quiet_king_moves(v, &p), expected);
            struct move_list rest;
            int left_out = generate_moves_but_king_quiet(v, &p, 0, &rest), n = 0;
            if (left_out != (expected < 0 ? 0 : expected))
                fail_msg("%s %s: %d quiet king moves left out, %d listed", v->name, fen,
                         left_out, expected);
            for (int k = 0; k < list.count; k++) {
                if (list.moves[k].captured == 0 && (p.kings[p.side] & bb_of(list.moves[k].from)))
                    continue;
                if (n >= rest.count || !same_move(&rest.moves[n], &list.moves[k]))
                    fail_msg("%s %s: move %d of the split list differs", v->name, fen, n);
                n++;
            }
            if (n != rest.count)
                fail_msg("%s %s: %d moves split off, %d expected", v->name, fen, rest.count, n);
        }
    }
}

/* The colour flip (turn the board, swap colours and the side to move) is a symmetry of
 * every variant: the flipped position has the same move tree. Flipping twice is nothing. */
static void test_colour_flip_symmetry(void **state)
{
    (void)state;
    for (const struct variant *v = variants; v->name; v++) {
        uint64_t seed = 2026;
        for (int i = 0; i < 300; i++) {
            struct position p = random_position(v, &seed, 1 + i % 8, 40), flipped, back;
            char fen[FEN_SIZE];
            position_flip_colours(v, &p, &flipped);
            position_flip_colours(v, &flipped, &back);
            assert_true(position_equal(&p, &back));
            if (perft(v, &p, 3, 0) != perft(v, &flipped, 3, 0)) {
                fen_print(v, &p, fen);
                fail_msg("%s %s: perft 3 differs from its colour flip", v->name, fen);
            }
        }
    }
}

/* On the orthogonal board men step left and right alike, so the mirror of the files is a
 * symmetry of Turkish draughts too (docs/rules.md, section 8: what the index could use). */
static void test_turkish_mirror_symmetry(void **state)
{
    const struct variant *v = test_variant("turkish");
    const struct geometry *g = v->board();
    uint64_t seed = 16;

    (void)state;
    for (int i = 0; i < 300; i++) {
        struct position p = random_position(v, &seed, 1 + i % 8, 40), mirrored = p;
        for (int s = WHITE; s <= BLACK; s++) {
            mirrored.men[s] = geometry_transform(g, SYM_MIRROR_FILES, p.men[s]);
            mirrored.kings[s] = geometry_transform(g, SYM_MIRROR_FILES, p.kings[s]);
        }
        if (perft(v, &p, 3, 0) != perft(v, &mirrored, 3, 0)) {
            char fen[FEN_SIZE];
            fen_print(v, &p, fen);
            fail_msg("turkish %s: perft 3 differs from its mirror image", fen);
        }
    }
}

/* The run-time choice of instruction set (core/cpu.h) obeys DAMERO_CPU=baseline, under
 * which ctest runs this test a second time (perft_baseline): the published counts above
 * then check the baseline copies. */
static void test_cpu_choice(void **state)
{
    const char *forced = getenv("DAMERO_CPU");

    (void)state;
    if (forced && strcmp(forced, "baseline") == 0) {
        assert_false(cpu_use_fast());
        assert_string_equal(cpu_level_name(), "baseline");
    }
#if CPU_DISPATCH
    else {
        __builtin_cpu_init();
        assert_int_equal(cpu_use_fast(), __builtin_cpu_supports("popcnt") &&
                                             __builtin_cpu_supports("bmi") &&
                                             __builtin_cpu_supports("bmi2"));
    }
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_published),
        cmocka_unit_test(test_perft_deep),
        cmocka_unit_test(test_perft_edges),
        cmocka_unit_test(test_count_matches_list),
        cmocka_unit_test(test_king_count_matches_list),
        cmocka_unit_test(test_colour_flip_symmetry),
        cmocka_unit_test(test_turkish_mirror_symmetry),
        cmocka_unit_test(test_cpu_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
