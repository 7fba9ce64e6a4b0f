/* The best line from a position: both sides play the tables' best move until the game
 * ends, a position repeats or a limit is reached. What `damero line`, `damero serve` and
 * `damero annotate` share. */
#ifndef DAMERO_CLI_LINE_PLAY_H
#define DAMERO_CLI_LINE_PLAY_H

#include "probe/damero.h"

enum line_end { END_NO_MOVE, END_LONE_PIECES, END_REPETITION, END_LIMIT };

/* "no move", "lone pieces", "repetition" or "limit". */
extern const char *const line_end_words[];

/* The line played: positions[0] is the start, positions[i] the one after ply i, which
 * moves[i - 1] played. */
struct line {
    damero_position *positions; /* max_plies + 1 of them */
    damero_move *moves;         /* max_plies + 1: the move found at the limit is not played */
    int max_plies;
    int plies;
    enum line_end end;
    int repeated; /* END_REPETITION: the ply after which the last position stood before */
};

/* Room for a line of at most max_plies plies from start. Returns 0, or -1 when memory
 * runs out (line_free is still safe). */
int line_init(struct line *l, int max_plies, const damero_position *start);
void line_free(struct line *l);

/* Plays best moves from l->positions[0]. Returns DAMERO_OK, or the error of the probe
 * that failed (its sentence in damero_error_message()). Thread-safe (one line per thread). */
int line_play(damero_tb *tb, struct line *l);

#endif
