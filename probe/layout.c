/* An engine's own board layout (damero_layout): the variant's squares in the orders
 * engines keep their bitboards in, and positions converted both ways a bit at a time,
 * so that an engine probes without writing a FEN. Built from damero_square_at, the
 * board as White sees it, so that every variant's numbering and mirrored board come
 * out of its rule row, never from a list of cases here. */
#include "probe/internal.h"

/* The squares played on, rank by rank from `first_row` (0: the bottom, rows - 1: the
 * top) in steps of `step`, each rank left to right, as the engine's bits 0, 1, ... */
static void layout_by_ranks(const damero_tb *tb, int first_row, int step, damero_layout *layout)
{
    damero_board board;
    damero_board_shape(tb, &board);
    for (int row = first_row; row >= 0 && row < board.rows; row += step)
        for (int column = 0; column < board.columns; column++) {
            int n = damero_square_at(tb, column, row);
            if (n != 0)
                layout->number[layout->bits++] = (uint8_t)n;
        }
}

int damero_layout_make(const damero_tb *tb, int order, damero_layout *layout)
{
    if (!tb || !layout)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_layout_make: a NULL argument");
    *layout = (damero_layout){ 0 };
    damero_board board;
    damero_board_shape(tb, &board);
    switch (order) {
    case DAMERO_ORDER_NUMBERS:
        for (; layout->bits < board.squares; layout->bits++)
            layout->number[layout->bits] = (uint8_t)(layout->bits + 1);
        break;
    case DAMERO_ORDER_BOTTOM_LEFT:
        layout_by_ranks(tb, 0, 1, layout);
        break;
    case DAMERO_ORDER_TOP_LEFT:
        layout_by_ranks(tb, board.rows - 1, -1, layout);
        break;
    default:
        return probe_fail(DAMERO_ERR_ARGUMENT, "unknown board order %d: DAMERO_ORDER_NUMBERS, "
                          "_BOTTOM_LEFT or _TOP_LEFT", order);
    }
    for (int k = 0; k < layout->bits; k++)
        layout->bit[layout->number[k]] = (uint8_t)k;
    return DAMERO_OK;
}

/* The engine's bitboard `engine` as square numbers (bit n-1 for square n); false when a
 * bit is no square of the layout. */
static bool to_numbers(const damero_layout *layout, uint64_t engine, uint64_t *numbers)
{
    *numbers = 0;
    for (; engine; engine &= engine - 1) {
        int k = __builtin_ctzll(engine);
        if (k >= layout->bits || layout->number[k] == 0)
            return false;
        *numbers |= (uint64_t)1 << (layout->number[k] - 1);
    }
    return true;
}

/* The inverse; false when a square is not the layout's. bit[] is 0 both for square
 * number 1's bit 0 and for a square the layout lacks: number[] tells them apart. */
static bool to_engine(const damero_layout *layout, uint64_t numbers, uint64_t *engine)
{
    *engine = 0;
    for (; numbers; numbers &= numbers - 1) {
        int n = __builtin_ctzll(numbers) + 1, k = layout->bit[n];
        if (k >= layout->bits || layout->number[k] != n)
            return false;
        *engine |= (uint64_t)1 << k;
    }
    return true;
}

int damero_position_from_layout(const damero_layout *layout, const uint64_t men[2],
                                const uint64_t kings[2], int side_to_move,
                                damero_position *pos)
{
    if (!layout || !men || !kings || !pos)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_position_from_layout: a NULL argument");
    if (side_to_move != DAMERO_WHITE && side_to_move != DAMERO_BLACK)
        return probe_fail(DAMERO_ERR_POSITION, "side to move %d: DAMERO_WHITE or DAMERO_BLACK",
                          side_to_move);
    pos->side_to_move = side_to_move;
    for (int c = 0; c < 2; c++)
        if (!to_numbers(layout, men[c], &pos->men[c]) ||
            !to_numbers(layout, kings[c], &pos->kings[c]))
            return probe_fail(DAMERO_ERR_POSITION, "a piece on a bit of the engine's board "
                              "that is no square of the layout (bits 0 to %d)",
                              layout->bits - 1);
    return DAMERO_OK;
}

int damero_position_to_layout(const damero_layout *layout, const damero_position *pos,
                              uint64_t men[2], uint64_t kings[2], int *side_to_move)
{
    if (!layout || !pos || !men || !kings || !side_to_move)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_position_to_layout: a NULL argument");
    for (int c = 0; c < 2; c++)
        if (!to_engine(layout, pos->men[c], &men[c]) ||
            !to_engine(layout, pos->kings[c], &kings[c]))
            return probe_fail(DAMERO_ERR_POSITION, "a piece on a square the layout does not "
                              "have (squares 1 to %d)", layout->bits);
    *side_to_move = pos->side_to_move;
    return DAMERO_OK;
}
