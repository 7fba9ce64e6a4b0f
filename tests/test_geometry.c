/* The boards: squares, steps, rays, men's directions and symmetries. */
#include "tests/test_util.h"

/* What every board must be: steps that undo each other and match their shift and mask,
 * rays that chain steps, symmetries that are permutations of the squares. */
static void check_board(const struct geometry *g, int n, int squares, int syms)
{
    assert_int_equal(g->files, n);
    assert_int_equal(g->ranks, n);
    assert_int_equal(g->num_squares, squares);
    assert_int_equal(bb_count(g->board), squares);
    assert_int_equal(g->num_syms, syms);
    /* The constant steps the move generator is compiled with are the board's. */
    const struct layout_steps *constant = &LAYOUT_STEPS[g->layout];
    assert_true(constant->board == g->board);
    for (int d = 0; d < NUM_DIRS; d++) {
        assert_int_equal(constant->shift[d], g->shift[d]);
        assert_true(constant->step_mask[d] == g->step_mask[d]);
    }
    assert_int_equal(constant->num_man_dirs, g->num_man_dirs);
    for (int side = 0; side < 2; side++) {
        assert_int_equal(constant->man_dir_mask[side], g->man_dir_mask[side]);
        for (int i = 0; i < g->num_man_dirs; i++)
            assert_int_equal(constant->man_dir[side][i], g->man_dir[side][i]);
    }
    for (int i = 0; i < g->num_squares; i++) {
        int b = g->square_bit[i];
        assert_int_equal(g->dense_of[b], i);
        assert_int_equal(geometry_bit_at(g, g->file_of[b], g->rank_of[b]), b);
        for (int d = 0; d < NUM_DIRS; d++) {
            int t = g->step[b][d];
            /* A step and its opposite come back; a step is the direction's shift, and
             * one step of the whole board (bb_step) agrees with it: nothing wraps. */
            if (t >= 0) {
                assert_int_equal(g->step[t][direction_opposite((enum direction)d)], b);
                assert_int_equal(t - b, g->shift[d]);
                assert_int_equal(g->file_of[t] - g->file_of[b], g->dfile[d]);
                assert_int_equal(g->rank_of[t] - g->rank_of[b], g->drank[d]);
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
        /* Every symmetry maps playable squares to playable squares (one to one: below, the
         * board's image is the whole board); the half turn is its own inverse. */
        for (int s = 0; s < g->num_syms; s++)
            assert_true(g->board & bb_of(g->symmetric[s][b]));
        assert_true(geometry_transform(g, SYM_ROTATE_180,
                                       geometry_transform(g, SYM_ROTATE_180, bb_of(b))) ==
                    bb_of(b));
    }
    for (int s = 0; s < g->num_syms; s++)
        assert_true(geometry_transform(g, (enum symmetry)s, g->board) == g->board);
    /* The main diagonal a1-h8 (a1-j10) is invariant under the four symmetries that keep
     * colours. */
    bb_t diagonal = 0;
    for (int k = 0; k < n; k++)
        diagonal |= bb_of(geometry_bit_at(g, k, k));
    for (int s = 0; s < 4; s++)
        assert_true(geometry_transform(g, (enum symmetry)s, diagonal) == diagonal);
    /* The corner a1 goes to the far corner under the turn and the anti-diagonal mirror. */
    int a1 = geometry_bit_at(g, 0, 0), top = geometry_bit_at(g, n - 1, n - 1);
    assert_int_equal(g->symmetric[SYM_ROTATE_180][a1], top);
    assert_int_equal(g->symmetric[SYM_ANTI_DIAGONAL][a1], top);
    assert_int_equal(g->symmetric[SYM_MAIN_DIAGONAL][a1], a1);
    /* A square off the board has no bit. */
    assert_int_equal(geometry_bit_at(g, n, n), -1);
    assert_int_equal(geometry_bit_at(g, -1, 1), -1);
    /* Men step forward (up for White, down for Black), forward directions first. */
    for (int s = WHITE; s <= BLACK; s++)
        for (int i = 0; i < g->num_man_dirs; i++) {
            int drank = g->drank[g->man_dir[s][i]];
            assert_int_equal(drank, i < g->num_man_forward ? (s == WHITE ? 1 : -1) : 0);
            assert_true(g->man_dir_mask[s] >> g->man_dir[s][i] & 1);
        }
}

static void test_boards(void **state)
{
    (void)state;
    check_board(geometry_8x8(), 8, 32, 4);
    check_board(geometry_10x10(), 10, 50, 4);
    check_board(geometry_8x8_orthogonal(), 8, 64, 8);
    /* the diagonal boards play on the dark squares only: a1 yes, b1 no */
    assert_int_equal(geometry_bit_at(geometry_8x8(), 1, 0), -1);
    assert_int_equal(geometry_bit_at(geometry_10x10(), 1, 0), -1);
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

/* The orthogonal board: a1 = bit 0 to h8 = bit 63, rank by rank; a king on d4 sees its
 * rank and its file, 14 squares; a sideways step never wraps to the next rank; men step
 * up, left and right (White), down, left and right (Black); eight symmetries. */
static void test_orthogonal_board(void **state)
{
    const struct geometry *g = geometry_8x8_orthogonal();
    int d4 = geometry_bit_at(g, 3, 3), h1 = geometry_bit_at(g, 7, 0);
    int a2 = geometry_bit_at(g, 0, 1), seen = 0;

    (void)state;
    assert_int_equal(geometry_bit_at(g, 0, 0), 0);
    assert_int_equal(h1, 7);
    assert_int_equal(a2, 8);
    assert_int_equal(geometry_bit_at(g, 7, 7), 63);
    for (int d = 0; d < NUM_DIRS; d++)
        seen += bb_count(g->ray[d4][d]);
    assert_int_equal(seen, 14);
    assert_int_equal(g->step[h1][DIR_RIGHT], -1);
    assert_int_equal(g->step[a2][DIR_LEFT], -1);
    assert_true(bb_step(g, bb_of(h1), DIR_RIGHT) == 0); /* not a2 */
    assert_true(bb_step(g, bb_of(a2), DIR_LEFT) == 0);  /* not h1 */
    assert_true(bb_step(g, g->rank_mask[7], DIR_UP) == 0);
    assert_int_equal(g->man_dir[WHITE][0], DIR_UP);
    assert_int_equal(g->man_dir[BLACK][0], DIR_DOWN);
    assert_int_equal(g->num_man_dirs, 3);
    assert_int_equal(g->num_man_forward, 1);
    assert_int_equal(g->symmetric[SYM_ROTATE_90][geometry_bit_at(g, 0, 0)],
                     geometry_bit_at(g, 0, 7)); /* a1 -> a8 */
    assert_int_equal(g->symmetric[SYM_MIRROR_FILES][d4], geometry_bit_at(g, 4, 3)); /* e4 */
    assert_int_equal(g->symmetric[SYM_MIRROR_RANKS][d4], geometry_bit_at(g, 3, 4)); /* d5 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boards),
        cmocka_unit_test(test_rays),
        cmocka_unit_test(test_orthogonal_board),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
