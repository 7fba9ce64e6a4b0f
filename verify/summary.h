/* What `damero verify` reports of a rule, derived from its results (verify/verify.h): the
 * totals over its endings per reading and side to move, the verdicts, and the positions
 * it chooses as examples. The command only prints these (text, JSON, Markdown) and plays
 * the examples' lines. */
#ifndef DAMERO_VERIFY_SUMMARY_H
#define DAMERO_VERIFY_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "verify/verify.h"

/* Positions counted by their outcome for the strong side. */
struct outcome_counts {
    uint64_t won, drawn, lost;
};

/* One reading of a checked rule. */
struct reading_summary {
    /* over every ending and both sides to move: the wins, those that need more than the
     * limit (the rule draws them: the verdict), and the longest in the reading's unit
     * (-1 without wins) */
    uint64_t wins, beyond;
    int longest;
    /* "must win within" rules: the fewest moves already played on a count running when
     * this one starts that turn a win in time into a draw (0: none does), the wins they
     * draw with the strong side to move and with the lone side to move, and the example:
     * the longest win in time of either side to move, "" when there is none */
    int first_costly;
    uint64_t costly_wins[2];
    char in_time_fen[FEN_SIZE];
    /* "must win within" rules: the example of a win in time under the rule alone that
     * the other counts draw, of either side to move (others_played -1: none) */
    int others_played, others_plies;
    char others_fen[FEN_SIZE];
    /* a count that starts at its precondition (the forzosa): the won starts the limit
     * draws when the move that meets the precondition is not counted ([0]) or is
     * counted as move 1 ([1]) */
    uint64_t drawn_starts[2];
};

struct rule_summary {
    /* a checked "must win within" rule: its example lines and running counts apply */
    bool win_within;
    /* per reading, the results of every ending added up, strong side (no-progress
     * rules: White) to move first; the longest wins of reading 0 are the examples */
    struct rule_result total[MAX_READINGS][2];
    struct reading_summary reading[MAX_READINGS];
    /* a no-progress rule: the ending with the longest wait of all (reading 0), NULL when
     * no ending has a win */
    const struct rule_result *longest_wait;
};

/* Derives the summary of a rule's report r (any status: only a checked rule gets more
 * than zeros); out->longest_wait points into r. */
void summarize_rule(const struct rule_report *r, struct rule_summary *out);

/* Under a "must win within" rule, with `played` moves of the reading's unit already
 * played on a count running when this one starts, the positions of total t (one reading
 * and side to move of r) by outcome under the rule alone: the wins still in time, the
 * lone side's wins, and the rest, drawn. Returns false when no ply is left. */
bool outcomes_alone(const struct rule_report *r, const struct rule_result *t, int played,
                    struct outcome_counts *out);

#endif
