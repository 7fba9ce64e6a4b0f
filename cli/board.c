#include "cli/board.h"

#include <stdio.h>

/* What a square shows: its piece, or its name when it is empty. */
static void square_text(const damero_tb *tb, const damero_position *pos, int square,
                        char text[DAMERO_SQUARE_NAME_SIZE])
{
    static const char piece[2][2] = { { 'w', 'W' }, { 'b', 'B' } }; /* [side][king] */
    uint64_t b = (uint64_t)1 << (square - 1);

    for (int s = DAMERO_WHITE; s <= DAMERO_BLACK; s++)
        if ((pos->men[s] | pos->kings[s]) & b) {
            snprintf(text, DAMERO_SQUARE_NAME_SIZE, "%c", piece[s][(pos->kings[s] & b) != 0]);
            return;
        }
    damero_square_name(tb, square, text);
}

static void print_files(FILE *out, const damero_board *board)
{
    if (!board->algebraic)
        return;
    fprintf(out, "   ");
    for (int column = 0; column < board->columns; column++)
        fprintf(out, "  %c", 'a' + column);
    fprintf(out, "\n");
}

/* One row, built in a line so that the trailing blanks of empty squares can go. */
static void print_row(FILE *out, const damero_tb *tb, const damero_board *board,
                      const damero_position *pos, int row)
{
    char line[128];
    int len = snprintf(line, sizeof line, board->algebraic ? "%2d " : "   ", row + 1);

    for (int column = 0; column < board->columns; column++) {
        int square = damero_square_at(tb, column, row);
        char text[DAMERO_SQUARE_NAME_SIZE] = "";
        if (square > 0)
            square_text(tb, pos, square, text);
        len += snprintf(line + len, sizeof line - (size_t)len, " %2s", text);
    }
    if (board->algebraic)
        len += snprintf(line + len, sizeof line - (size_t)len, "  %d", row + 1);
    while (len > 0 && line[len - 1] == ' ')
        len--;
    fprintf(out, "%.*s\n", len, line);
}

void board_print(FILE *out, const damero_tb *tb, const damero_position *pos)
{
    damero_board board;
    damero_board_shape(tb, &board);
    print_files(out, &board);
    for (int row = board.rows - 1; row >= 0; row--)
        print_row(out, tb, &board, pos, row);
    print_files(out, &board);
}
