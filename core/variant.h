/* The rules of each variant, as data: one row per variant.
 *
 * Everything that differs between the variants the project covers is a field here, so
 * that the move generator, the notation and (later) the generator read the row and never
 * ask which variant they are playing. Adding a variant means adding a row. */
#ifndef DAMERO_VARIANT_H
#define DAMERO_VARIANT_H

#include <stdbool.h>

#include "core/geometry.h"
#include "core/move_limit.h"

enum side { WHITE, BLACK };

static inline enum side side_other(enum side s) { return (enum side)(s ^ 1); }

/* Criteria that restrict the choice among captures, applied in this order of priority;
 * a variant's row lists the ones it uses. Among the legal captures only those that are
 * best on the first criterion survive, then on the second, and so on. With none of them
 * the player chooses freely among all captures. */
enum capture_precedence {
    PRECEDENCE_MOST_PIECES = 1 << 0, /* capture the most pieces (a king counts as a man) */
    PRECEDENCE_WITH_KING = 1 << 1,   /* capture with a king rather than a man */
    PRECEDENCE_MOST_KINGS = 1 << 2,  /* capture the most kings */
    PRECEDENCE_KING_FIRST = 1 << 3,  /* capture the sequence that meets a king earliest */
};

struct variant {
    const char *name;         /* as typed on the command line */
    const char *title;        /* as printed for a person */
    int pdn_gametype;         /* PDN GameType code, 0 where there is none */
    const struct geometry *(*board)(void);
    int men_per_side;         /* in the initial position, on the ranks nearest each player */
    enum side first_to_move;
    bool men_capture_backward;
    bool flying_kings;        /* kings move and capture any distance (else one square) */
    bool men_capture_kings;   /* false in Italian: a man may never jump a king */
    bool promote_mid_capture; /* a man reaching the last rank during a capture becomes a king
                               * at once and goes on capturing as one; otherwise it goes on
                               * as a man and is crowned only if the move ends there (where
                               * men cannot capture backward, reaching the last rank always
                               * ends the capture) */
    unsigned precedence;      /* enum capture_precedence flags */
    bool giveaway;            /* objective reversed: a side with no legal move wins */

    /* Notation: squares are either algebraic (a1 playable) or numbered 1..N. Numbered
     * boards may be shown mirrored (played on the other colour); numbering then runs over
     * the board as the player sees it, from the top or the bottom rank, left to right or
     * right to left. */
    bool algebraic;
    bool mirrored;
    bool number_from_top;
    bool number_left_to_right;

    /* The move-limit draw rules (move_limit.h), ending with one whose name is NULL. */
    const struct move_limit_rule *move_limits;
};

/* The rows, in a fixed order; the array ends with a row whose name is NULL. */
extern const struct variant variants[];

/* The row named name (case-sensitive), or NULL when there is none. */
const struct variant *variant_by_name(const char *name);

#endif
