/* What the tables say about a move-limit rule (core/move_limit.h): for each side to move
 * and each reading of the limit, how many positions the rule covers, how many are won,
 * the longest win in the rule's unit, and how many wins the limit turns into draws.
 *
 * "Must win within N" rules are read from DTM: a win within the limit exists exactly when
 * the DTM is within it. No-progress rules reset by a capture or man move are read from
 * MTC, per material; those reset only by a capture or promotion from the same distance
 * with man steps not counted (rulegen/reset_distance.h). A rule whose count starts when
 * its precondition is first met (the forzosa) also gets the positions before that: from
 * which of them the strong side can force entering the count in a position it then wins
 * in time (verify/count_start.h). Which positions a rule covers: rules/coverage.h. */
#ifndef DAMERO_VERIFY_H
#define DAMERO_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "core/notation.h"
#include "solve/progress.h"
#include "store/tableset.h"

enum rule_status {
    RULE_CHECKED,
    RULE_NO_POSITION,    /* tables exist, but no position meets the precondition */
    RULE_NEEDS_PIECES,   /* its endings have more pieces than the tables built */
};

#define MAX_RULE_RESULTS 512
#define MAX_RULE_MATERIALS 256  /* the materials of one rule's endings */
#define WIN_PLIES_MAX 128   /* wins_by_plies: longer wins share the last entry */
#define PLAYED_MAX 3        /* at_once: 0 to 3 moves already played on the rule's count */
#define RESET_LINE_SIZE 2048 /* example_line: room for the moves of a long wait */

/* A position's outcome for the strong side (at_once's second index). */
enum outcome { OUTCOME_WON, OUTCOME_DRAWN, OUTCOME_LOST, OUTCOMES };

struct rule_result {
    char ending[MATERIAL_NAME_SIZE]; /* the material, strong (or White) side first; in a
                                        total, the materials */
    bool strong_to_move;             /* no-progress rules: White to move */
    int reading;                     /* index into the rule's readings */
    uint64_t positions;              /* legal positions the rule covers */
    uint64_t wins;                   /* won by the strong side (no-progress: side to move) */
    uint64_t wins_beyond_limit;      /* wins that need more than the limit */
    int longest_plies;               /* the longest such win (DTM or MTC), -1 without wins */
    int longest;                     /* the same in the reading's unit */
    char example_fen[FEN_SIZE];      /* a position of the longest win, "" without wins */
    /* no-progress rules, reading 0: the moves from example_fen to the reset, separated by
     * spaces (verify/reset_line.h); "" without wins */
    char example_line[RESET_LINE_SIZE];
    /* counts_from_precondition: the won positions before the count starts, and those
     * from which the strong side can force a start it then wins in time */
    uint64_t wins_before, convertible_before;
    /* "must win within" rules: the strong side's wins by their plies (DTM), and the
     * positions the lone side wins, which the rule does not limit */
    uint64_t wins_by_plies[WIN_PLIES_MAX];
    uint64_t lone_wins;
    /* the longest win within the limit (-1: none), the first a count already running when
     * this one starts turns into a draw, and a position of it */
    int longest_in_time_plies;
    char in_time_fen[FEN_SIZE];
    /* "must win within" rules under all of the variant's rules at once (docs/rules.md
     * 5.10, verify/at_once.h), per number of moves of the reading's unit already played
     * on this rule's count when its ending arises (0 to PLAYED_MAX; none counted where
     * that leaves no ply): the positions by their outcome for the strong side, and the
     * wins in time under this rule alone that the other counts turn into draws; the
     * example of those is the one with the fewest moves played (others_played, -1 when
     * there is none), then the longest win under the rule alone (others_plies) */
    uint64_t at_once[PLAYED_MAX + 1][OUTCOMES];
    uint64_t drawn_by_others[PLAYED_MAX + 1];
    int others_played, others_plies;
    char others_fen[FEN_SIZE];
};

/* The wins of r that take at most `plies` plies. */
uint64_t wins_within(const struct rule_result *r, int plies);

/* The plies a "must win within" count of reading r allows from a position where it has
 * run `played` moves of r's unit, the strong side to move or not (negative: none left). */
int win_plies_left(const struct limit_reading *r, int played, bool strong_to_move);

/* The plies a count has run when `played` moves of the reading's unit have been played on
 * it (moves: both sides' plies; plies: themselves). */
int played_plies(const struct limit_reading *r, int played);

struct rule_report {
    const struct move_limit_rule *rule;
    enum rule_status status;
    char message[256];               /* why, when not RULE_CHECKED */
    int num_results;
    struct rule_result results[MAX_RULE_RESULTS];
};

/* The most positions per side to move of a material verify can walk: its move graphs
 * number states (both sides to move) in 32 bits, one bit kept for a mark. */
#define VERIFY_MAX_POSITIONS ((uint64_t)1 << 30)

/* Checks one rule against the tables in ts of every material of up to max_pieces pieces
 * (they must be built). Returns 0, or -1 with a sentence in err when a table cannot be
 * read or memory runs out. */
int verify_rule(struct tableset *ts, int max_pieces, const struct move_limit_rule *rule,
                struct rule_report *out, char *err, size_t err_size);

/* Checks every rule of ts's variant as verify_rule does, the k-th of its move_limits into
 * *reports[k], telling progress (NULL: nobody asked) as each rule's material starts (the
 * parts: every rule's materials, weighted by their positions) and once after the last.
 * Returns 0, or -1 with a sentence in err. */
int verify_rules(struct tableset *ts, int max_pieces, struct rule_report *const reports[],
                 const struct progress_report *progress, char *err, size_t err_size);

#endif
