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

/* What ends a game besides a side having no legal move: a rule on lone pieces, by the
 * material left on the board (game_end.h reads it). */
enum lone_piece_rule {
    LONE_PIECES_PLAY_ON,      /* nothing: the game goes on until a side cannot move */
    LONE_PIECES_DRAW,         /* one piece each: the game is drawn */
    LONE_MAN_LOSES_TO_KING,   /* a single man against a single king: the man's side has lost */
};

struct variant {
    const char *name;         /* as typed on the command line */
    const char *title;        /* as printed for a person */
    int pdn_gametype;         /* PDN GameType code, 0 where there is none */
    const struct geometry *(*board)(void);
    int men_per_side;         /* in the initial position, filling whole ranks */
    int men_first_rank;       /* the nearest rank (from 0) a side's men start on: 0, or 1
                               * where the back rank starts empty. Men never move back,
                               * so no man ever stands behind it. */
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
    bool remove_captured_at_once; /* each piece jumped leaves the board at once, so its
                               * square can be crossed again and its going can open a new
                               * jump (else jumped pieces stay until the move ends: they
                               * block, and cannot be jumped twice) */
    bool no_capture_reversal; /* a capture may not turn back (180 degrees) between two
                               * jumps; where jumped pieces stay, the piece just jumped
                               * blocks the way back anyway */
    bool giveaway;            /* objective reversed: a side with no legal move wins */
    enum lone_piece_rule lone_pieces;

    /* Notation: squares are either algebraic (a1 playable) or numbered 1..N. Numbered
     * boards may be shown mirrored (played on the other colour); numbering then runs over
     * the board as the player sees it, from the top or the bottom rank, left to right or
     * right to left. */
    bool algebraic;
    char capture_mark;        /* between the squares of a capture: ':' or 'x' */
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
