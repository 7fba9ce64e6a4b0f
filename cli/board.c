#include "board.h"

#include <stdio.h>

#include "notation.h"

/* The board's internal file for the column the player sees: mirrored variants are
 * played on the other colour, their picture the mirror image of the geometry. */
static int file_of_column(const struct variant *v, const struct geometry *g, int column)
{
    return v->mirrored ? g->files - 1 - column : column;
}

/* What a square shows: its piece, or its name when it is empty. */
static void square_text(const struct variant *v, const struct position *p, int bit,
                        char text[SQUARE_NAME_SIZE])
{
    static const char piece[2][2] = { { 'w', 'W' }, { 'b', 'B' } }; /* [side][king] */
    bb_t b = bb_of(bit);

    for (int s = WHITE; s <= BLACK; s++)
        if (position_pieces(p, (enum side)s) & b) {
            snprintf(text, SQUARE_NAME_SIZE, "%c", piece[s][(p->kings[s] & b) != 0]);
            return;
        }
    square_name(v, bit, text);
}

static void print_files(FILE *out, const struct variant *v, const struct geometry *g)
{
    if (!v->algebraic)
        return;
    fprintf(out, "   ");
    for (int column = 0; column < g->files; column++)
        fprintf(out, "  %c", 'a' + column);
    fprintf(out, "\n");
}

/* One rank, built in a line so that the trailing blanks of empty squares can go. */
static void print_rank(FILE *out, const struct variant *v, const struct geometry *g,
                       const struct position *p, int rank)
{
    char line[128];
    int len = snprintf(line, sizeof line, v->algebraic ? "%2d " : "   ", rank + 1);

    for (int column = 0; column < g->files; column++) {
        int bit = geometry_bit_at(g, file_of_column(v, g, column), rank);
        char text[SQUARE_NAME_SIZE] = "";
        if (bit >= 0)
            square_text(v, p, bit, text);
        len += snprintf(line + len, sizeof line - (size_t)len, " %2s", text);
    }
    if (v->algebraic)
        len += snprintf(line + len, sizeof line - (size_t)len, "  %d", rank + 1);
    while (len > 0 && line[len - 1] == ' ')
        len--;
    fprintf(out, "%.*s\n", len, line);
}

void board_print(FILE *out, const struct variant *v, const struct position *p)
{
    const struct geometry *g = v->board();

    print_files(out, v, g);
    for (int rank = g->ranks - 1; rank >= 0; rank--)
        print_rank(out, v, g, p, rank);
    print_files(out, v, g);
}
