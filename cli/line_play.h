/* The best line from a position: both sides play the tables' best move (or the best
 * under the move-limit rules) until the game ends, a count runs out, a position repeats
 * or a limit is reached. What `damero line`, `damero serve` and
 * `damero annotate` share. */
#ifndef DAMERO_CLI_LINE_PLAY_H
#define DAMERO_CLI_LINE_PLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/damero.h"

enum line_end { END_NO_MOVE, END_LONE_PIECES, END_REPETITION, END_LIMIT, END_COUNT };

/* "no move", "lone pieces", "repetition", "limit" or "count". */
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
    bool by_mtc;  /* a move was chosen by MTC, the tables holding no DTM for it */

    /* Under the move-limit rules (line_under_rules): */
    bool rules;
    int reading;                   /* 1 or 2, as damero_probe_rules takes it */
    damero_counts counts;          /* the counts at the last position */
    damero_rules_value start;      /* the start's value under the rules */
    int run_out;                   /* END_COUNT: the rule whose count ran out */
    damero_rules_move *choices;    /* room for the moves of one position */
};

/* Room for a line of at most max_plies plies from start. Returns 0, or -1 when memory
 * runs out (line_free is still safe). */
int line_init(struct line *l, int max_plies, const damero_position *start);
void line_free(struct line *l);

/* Makes line_play play the best moves under the move-limit rules, the counts at the start
 * being `counts` (reading 1 or 2), and values the start under them (l->start). Returns
 * DAMERO_OK, DAMERO_ERR_MEMORY, or the error of damero_probe_rules. */
int line_under_rules(damero_tb *tb, struct line *l, const damero_counts *counts, int reading);

/* Whether the tables hold a distance (DTM or MTC) for the start, whose value is `start`:
 * a line plays best moves, and a best move needs one (damero_best_move). If not, the
 * sentence that says so and how to build one (dir: the table root) goes to message. */
bool line_has_distance(const damero_tb *tb, const char *dir, const struct line *l,
                       const damero_value *start, char *message, size_t size);

/* Plays best moves from l->positions[0] until the game ends, a count runs out (under the
 * rules), a position repeats or max_plies are played: by DTM, or by MTC where the tables
 * hold no DTM (l->by_mtc). Returns DAMERO_OK, or the error of the probe
 * that failed (its sentence in damero_error_message()). Thread-safe (one line per thread). */
int line_play(damero_tb *tb, struct line *l);

/* Plays `moves`, move texts separated by spaces as damero writes them, from
 * l->positions[0] (a line verify measured: cli/verify_report.c); l->end is END_LIMIT
 * after them. Returns DAMERO_OK, DAMERO_ERR_ARGUMENT when a move is not legal where it
 * stands or they are more than l->max_plies, or the error of damero_legal_moves. */
int line_replay(damero_tb *tb, struct line *l, const char *moves);

#endif
