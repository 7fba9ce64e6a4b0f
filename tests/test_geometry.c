/* The boards: squares, steps, rays and symmetries. */
#include "tests/test_util.h"

static void check_board(const struct geometry *g, int n)
{
    assert_int_equal(g->files, n);
    assert_int_equal(g->num_squares, n * n / 2);
    assert_int_equal(bb_count(g->board), n * n / 2);
    for (int i = 0; i < g->num_squares; i++) {
        int b = g->square_bit[i];
        assert_int_equal(g->dense_of[b], i);
        assert_int_equal((g->file_of[b] + g->rank_of[b]) % 2, 0); /* a1 is playable */
        for (int d = 0; d < NUM_DIRS; d++) {
            int t = g->step[b][d];
            /* A step and its opposite come back; a step is the direction's shift. */
            if (t >= 0) {
                assert_int_equal(g->step[t][direction_opposite((enum direction)d)], b);
                assert_int_equal(t - b, g->shift[d]);
                assert_true(bb_step(g, bb_of(b), (enum direction)d) == bb_of(t));
            } else {
                assert_true(bb_step(g, bb_of(b), (enum direction)d) == 0);
            }
            /* A ray is the chain of steps. */
            bb_t ray = 0;
            for (int s = g->step[b][d]; s >= 0; s = g->step[s][d])
                ray |= bb_of(s);
            assert_true(ray == g->ray[b][d]);
        }
        /* Every symmetry maps playable squares to playable squares and is its own inverse. */
        for (int s = 0; s < NUM_SYMS; s++) {
            int image = g->symmetric[s][b];
            assert_true(g->board & bb_of(image));
            assert_int_equal(g->symmetric[s][image], b);
        }
    }
    /* The main diagonal a1-h8 (a1-j10) is invariant under all four symmetries. */
    bb_t diagonal = 0;
    for (int k = 0; k < n; k++)
        diagonal |= bb_of(geometry_bit_at(g, k, k));
    for (int s = 0; s < NUM_SYMS; s++)
        assert_true(geometry_transform(g, (enum symmetry)s, diagonal) == diagonal);
    /* The corner a1 goes to the far corner under the turn and the anti-diagonal mirror. */
    int a1 = geometry_bit_at(g, 0, 0), top = geometry_bit_at(g, n - 1, n - 1);
    assert_int_equal(g->symmetric[SYM_ROTATE_180][a1], top);
    assert_int_equal(g->symmetric[SYM_ANTI_DIAGONAL][a1], top);
    assert_int_equal(g->symmetric[SYM_MAIN_DIAGONAL][a1], a1);
    /* A square off the board or not playable has no bit. */
    assert_int_equal(geometry_bit_at(g, 1, 0), -1);
    assert_int_equal(geometry_bit_at(g, n, n), -1);
    assert_int_equal(geometry_bit_at(g, -1, 1), -1);
}

static void test_boards(void **state)
{
    (void)state;
    check_board(geometry_8x8(), 8);
    check_board(geometry_10x10(), 10);
}

/* The long diagonals: 8 squares from a1 on 8x8, 17 squares seen by a king in the centre
 * of 10x10 (e5 sees 4+5 on one diagonal and 4+4 on the other). */
static void test_rays(void **state)
{
    const struct geometry *g8 = geometry_8x8(), *g10 = geometry_10x10();
    int a1 = geometry_bit_at(g8, 0, 0), e5 = geometry_bit_at(g10, 4, 4);
    int seen = 0;

    (void)state;
    assert_int_equal(bb_count(g8->ray[a1][DIR_UP_RIGHT]), 7);
    assert_int_equal(bb_count(g8->ray[a1][DIR_UP_LEFT]), 0);
    for (int d = 0; d < NUM_DIRS; d++)
        seen += bb_count(g10->ray[e5][d]);
    assert_int_equal(seen, 17);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boards),
        cmocka_unit_test(test_rays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
