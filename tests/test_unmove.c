/* Un-moves agree with moves: on random positions of every variant, the reverse of each
 * quiet move is among the successor's un-moves, and the forward move of each un-move is
 * a legal move of the predecessor that leads back to the position. */
#include "tests/test_util.h"

#include "core/unmove.h"
#include "tests/random_position.h"

#define POSITIONS_PER_VARIANT 3000

static enum unmove_kind kind_of(const struct position *p, const struct move *m)
{
    if (p->kings[p->side] & bb_of(m->from))
        return UNMOVE_KING;
    return m->promotes ? UNMOVE_PROMOTION : UNMOVE_MAN;
}

static bool listed(const struct unmove_list *list, int from, int to, enum unmove_kind kind)
{
    for (int i = 0; i < list->count; i++)
        if (list->moves[i].from == from && list->moves[i].to == to && list->moves[i].kind == kind)
            return true;
    return false;
}

/* Every quiet move of p is undone by an un-move of its successor. */
static void check_moves_reversed(const struct variant *v, const struct position *p)
{
    struct move_list moves;
    struct unmove_list unmoves;
    char fen[FEN_SIZE];

    generate_moves(v, p, 0, &moves);
    assert_false(moves.overflow);
    for (int i = 0; i < moves.count; i++) {
        const struct move *m = &moves.moves[i];
        struct position next, back;
        struct unmove u = { m->from, m->to, (uint8_t)kind_of(p, m) };

        if (m->num_jumps > 0)
            continue;
        make_move(p, m, &next);
        generate_unmoves(v, &next, &unmoves);
        assert_false(unmoves.overflow);
        if (!listed(&unmoves, m->from, m->to, (enum unmove_kind)u.kind)) {
            fen_print(v, p, fen);
            fail_msg("%s %s: the reverse of a quiet move is not an un-move", v->name, fen);
        }
        unmake_move(&next, &u, &back);
        assert_true(position_equal(&back, p));
    }
}

/* Every un-move of p leads from a legal predecessor by one of its legal moves. */
static void check_unmoves_legal(const struct variant *v, const struct position *p)
{
    struct unmove_list unmoves;
    char fen[FEN_SIZE], err[256];

    generate_unmoves(v, p, &unmoves);
    for (int i = 0; i < unmoves.count; i++) {
        const struct unmove *u = &unmoves.moves[i];
        struct position before, after;
        struct move_list moves;
        bool found = false;

        unmake_move(p, u, &before);
        assert_int_equal(position_validate(v, &before, err, sizeof err), 0);
        generate_moves(v, &before, 0, &moves);
        for (int j = 0; j < moves.count && !found; j++) {
            const struct move *m = &moves.moves[j];
            if (m->from != u->from || m->to != u->to || m->num_jumps > 0)
                continue;
            make_move(&before, m, &after);
            found = position_equal(&after, p) && kind_of(&before, m) == u->kind;
        }
        if (!found) {
            fen_print(v, p, fen);
            fail_msg("%s %s: un-move %d has no legal forward move", v->name, fen, i);
        }
    }
}

static void test_unmoves_agree_with_moves(void **state)
{
    (void)state;
    for (const struct variant *v = variants; v->name; v++) {
        uint64_t seed = 0x9E3779B97F4A7C15ull;
        for (int i = 0; i < POSITIONS_PER_VARIANT; i++) {
            /* Sparse and crowded boards, few and many kings. */
            struct position p = random_position(v, &seed, 1 + i % 10, (i % 4) * 30);
            check_moves_reversed(v, &p);
            check_unmoves_legal(v, &p);
        }
    }
}

/* The number of un-moves of `fen`: all of them, or with `level` the solver's within a
 * level (generate_king_unmoves and generate_sideways_unmoves). */
static int unmove_count(const char *variant, const char *fen, bool level)
{
    const struct variant *v = test_variant(variant);
    struct position p = test_position(v, fen);
    struct unmove_list list;

    if (!level) {
        generate_unmoves(v, &p, &list);
        return list.count;
    }
    generate_king_unmoves(v, &p, &list);
    int kings = list.count;
    generate_sideways_unmoves(v, &p, &list);
    return kings + list.count;
}

/* A king alone on the board can have come from any square it sees; a man from behind. */
static void test_unmove_counts(void **state)
{
    const struct variant *russian = test_variant("russian");
    struct unmove_list list;
    struct position p;

    (void)state;
    /* Black to move, so White moved: its king on d4 came from one of the 13 squares it
     * sees on an empty board, less c3, b2, a1 (behind its own man) and h8 (Black's): 9;
     * its man on c3 came from b2 or d2. */
    assert_int_equal(unmove_count("russian", "B:WKd4,c3:Bh8", false), 9 + 2);
    /* A short king comes from a neighbouring square only; a king on the crowning rank may
     * also be a man just crowned. English: White crowns on 1-4; 2 is d8, beside c7, e7. */
    assert_int_equal(unmove_count("english", "B:WK2:B27", false), 2 + 2);
    /* White's man on e5 came from f4, not from d4, where it would have had to take c5. */
    p = test_position(russian, "B:We5:Bc5");
    generate_unmoves(russian, &p, &list);
    assert_int_equal(list.count, 1);
    assert_int_equal(list.moves[0].from, square_parse(russian, "f4", 2));
    assert_int_equal(list.moves[0].kind, UNMOVE_MAN);
}

/* Turkish: a man came from behind or from either side; never from its own back rank,
 * where no man stands; a king on the last rank may be a man that stepped up, not one that
 * stepped sideways along it. */
static void test_turkish_unmove_counts(void **state)
{
    (void)state;
    assert_int_equal(unmove_count("turkish", "B:Wd4:Bh7", false), 3); /* d3, c4, e4 */
    assert_int_equal(unmove_count("turkish", "B:Wd2:Bh7", false), 2); /* c2, e2; not d1 */
    /* The king d8 came from any of the 14 squares it sees but h8, where White would have
     * had to take h2 (h7 to h3 empty, h1 beyond); or it is the man d7 crowned. */
    assert_int_equal(unmove_count("turkish", "B:WKd8:Bh2", false), 13 + 1);
    /* The solver's un-moves within a level: king moves, and men's sideways steps only. */
    assert_int_equal(unmove_count("turkish", "B:WKa1,d4:Bh7", true), 14 + 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unmoves_agree_with_moves),
        cmocka_unit_test(test_unmove_counts),
        cmocka_unit_test(test_turkish_unmove_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
