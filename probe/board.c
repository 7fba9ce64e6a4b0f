/* Positions and moves between the public square numbering (damero.h: bit n-1 for square
 * n, as the variant's players number the board) and the internal bitboards, and the
 * public calls of damero.h's section "The board". */
#include <string.h>

#include "core/notation.h"
#include "probe/internal.h"

_Static_assert(DAMERO_SQUARE_NAME_SIZE == SQUARE_NAME_SIZE, "the public size is notation's");

static bb_t to_bits(const damero_tb *tb, uint64_t numbers)
{
    bb_t bits = 0;
    int bit;
    BB_FOR_EACH(bit, numbers)
        bits |= bb_of(tb->bit_of_number[bit + 1]);
    return bits;
}

static uint64_t to_numbers(const damero_tb *tb, bb_t bits)
{
    uint64_t numbers = 0;
    int bit;
    BB_FOR_EACH(bit, bits)
        numbers |= (uint64_t)1 << (tb->number_of_bit[bit] - 1);
    return numbers;
}

void probe_number_squares(damero_tb *tb)
{
    const struct geometry *g = tb->v->board();
    memset(tb->number_of_bit, 0, sizeof tb->number_of_bit);
    for (int n = 0; n <= MAX_SQUARES; n++)
        tb->bit_of_number[n] = -1;
    for (int n = 1; n <= g->num_squares; n++) {
        int bit = square_from_number(tb->v, n);
        tb->bit_of_number[n] = bit;
        tb->number_of_bit[bit] = n;
    }
}

int probe_position_in(const damero_tb *tb, const damero_position *in, struct position *out)
{
    char err[256];
    int squares = tb->v->board()->num_squares;
    uint64_t outside = squares >= 64 ? 0 : ~(uint64_t)0 << squares;
    if (!in)
        return probe_fail(DAMERO_ERR_ARGUMENT, "no position given");
    if ((in->men[0] | in->men[1] | in->kings[0] | in->kings[1]) & outside)
        return probe_fail(DAMERO_ERR_POSITION, "a piece stands beyond square %d", squares);
    if (in->side_to_move != DAMERO_WHITE && in->side_to_move != DAMERO_BLACK)
        return probe_fail(DAMERO_ERR_POSITION, "the side to move is neither white nor black");
    for (int s = 0; s < 2; s++) {
        out->men[s] = to_bits(tb, in->men[s]);
        out->kings[s] = to_bits(tb, in->kings[s]);
    }
    out->side = (enum side)in->side_to_move;
    if (position_validate(tb->v, out, err, sizeof err) < 0)
        return probe_fail(DAMERO_ERR_POSITION, "%s", err);
    return DAMERO_OK;
}

void probe_position_out(const damero_tb *tb, const struct position *in, damero_position *out)
{
    for (int s = 0; s < 2; s++) {
        out->men[s] = to_numbers(tb, in->men[s]);
        out->kings[s] = to_numbers(tb, in->kings[s]);
    }
    out->side_to_move = (int)in->side;
}

void probe_move_out(const damero_tb *tb, const struct move *m, const struct position *child,
                    damero_move *out)
{
    move_text(tb->v, m, out->text);
    out->from = tb->number_of_bit[m->from];
    out->to = tb->number_of_bit[m->to];
    out->captures = m->num_jumps;
    probe_position_out(tb, child, &out->after);
}

void damero_board_shape(const damero_tb *tb, damero_board *board)
{
    const struct geometry *g = tb->v->board();
    *board = (damero_board){ g->files, g->ranks, g->num_squares, tb->v->algebraic };
}

int damero_square_at(const damero_tb *tb, int column, int row)
{
    const struct geometry *g = tb->v->board();
    if (column < 0 || column >= g->files)
        return 0;
    /* variants played on the other colour show the mirror image of the geometry */
    int bit = geometry_bit_at(g, tb->v->mirrored ? g->files - 1 - column : column, row);
    return bit < 0 ? 0 : tb->number_of_bit[bit];
}

int damero_square_name(const damero_tb *tb, int square, char name[DAMERO_SQUARE_NAME_SIZE])
{
    if (!tb || !name)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_square_name: a NULL argument");
    int bit = square >= 1 && square <= MAX_SQUARES ? tb->bit_of_number[square] : -1;
    if (bit < 0)
        return probe_fail(DAMERO_ERR_POSITION, "the %s board has no square %d", tb->v->name,
                          square);
    square_name(tb->v, bit, name);
    return DAMERO_OK;
}

int damero_parse_fen(const damero_tb *tb, const char *fen, damero_position *pos)
{
    struct position p;
    char err[256];
    if (!tb || !fen || !pos)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_parse_fen: a NULL argument");
    if (fen_parse(tb->v, fen, &p, err, sizeof err) < 0)
        return probe_fail(DAMERO_ERR_POSITION, "%s", err);
    probe_position_out(tb, &p, pos);
    return DAMERO_OK;
}

int damero_write_fen(const damero_tb *tb, const damero_position *pos, char fen[DAMERO_FEN_SIZE])
{
    struct position p;
    if (!tb || !fen)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_write_fen: a NULL argument");
    int status = probe_position_in(tb, pos, &p);
    if (status == DAMERO_OK)
        fen_print(tb->v, &p, fen);
    return status;
}
