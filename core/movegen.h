/* Legal moves under each variant's rules, and making them.
 *
 * Capture is compulsory. A capture is one move however many pieces it takes: jumped
 * pieces stay on the board until the move ends, so they block and cannot be jumped twice,
 * while the capturing piece's own starting square counts as empty. Among captures, the
 * variant's precedence criteria (most pieces, king first, ...) decide which are legal.
 * A flying king that may land on several squares beyond a piece must land where the
 * capture can go on, if any such square exists. */
#ifndef DAMERO_MOVEGEN_H
#define DAMERO_MOVEGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/position.h"

#define MAX_JUMPS 24  /* more than the pieces one side can have on the largest board */
#define MAX_MOVES 512 /* far above the legal moves of any position met in practice */

struct move {
    bb_t captured;             /* the pieces taken, empty for a quiet move */
    uint8_t from, to;          /* square bits; equal when a king's capture ends at home */
    uint8_t num_jumps;         /* pieces taken */
    bool promotes;             /* a man that ends the move as a king */
    uint32_t precedence;       /* rank among captures under the variant's criteria */
    uint8_t landing[MAX_JUMPS]; /* square after each jump, the last one is `to` */
    uint8_t jumped[MAX_JUMPS];  /* the piece taken by each jump, in order */
};

struct move_list {
    int count;
    bool overflow; /* more than MAX_MOVES moves: the list holds only the first ones */
    struct move moves[MAX_MOVES];
};

/* The nearest square of `set` from the start of a ray in direction d: rays in the "up"
 * directions run to higher bits, the others to lower bits. */
static inline int ray_nearest(const struct geometry *g, bb_t set, enum direction d)
{
    return g->shift[d] > 0 ? bb_first(set) : 63 - __builtin_clzll(set);
}

/* The squares a king on k can move to in direction d without capturing, the squares in
 * `occupied` blocking. Quiet king moves go both ways: these are also the squares from
 * which a king's quiet move in the opposite direction came to k. */
static inline __attribute__((always_inline)) bb_t
king_quiet_targets(const struct variant *v, const struct geometry *g, int k, enum direction d,
                   bb_t occupied)
{
    if (!v->flying_kings) {
        int t = g->step[k][d];
        return t >= 0 && !(occupied & bb_of(t)) ? bb_of(t) : 0;
    }
    bb_t ray = g->ray[k][d], blockers = ray & occupied;
    if (!blockers)
        return ray;
    int b = ray_nearest(g, blockers, d);
    return ray & ~g->ray[b][d] & ~bb_of(b);
}

/* How to tell capture moves apart. Two capture sequences that take the same pieces and
 * end on the same square are one move by default (as players and PDN see them). The two
 * conventions of published perft figures that count duplicates: MOVES_KEEP_DUPLICATES,
 * captures taking the pieces in a different order are moves apart; MOVES_KEEP_PATHS,
 * every capture path is, a flying king touching down on another square between two
 * jumps too. */
enum move_flags { MOVES_KEEP_DUPLICATES = 1, MOVES_KEEP_TOUCHDOWNS = 2,
                  MOVES_KEEP_PATHS = MOVES_KEEP_DUPLICATES | MOVES_KEEP_TOUCHDOWNS };

/* Every legal move of the side to move. Thread-safe (no shared state). */
void generate_moves(const struct variant *v, const struct position *p, unsigned flags,
                    struct move_list *list);

/* The solver's split of p's legal moves, where a king's quiet move keeps the men where
 * they are and every other move changes them: into list, every legal move but the kings'
 * quiet moves (the captures when there is one, else the men's quiet moves, in
 * generate_moves' order); returns the number of the kings' quiet moves, counted without
 * listing them (0 when a capture is compulsory). Thread-safe (no shared state). */
int generate_moves_but_king_quiet(const struct variant *v, const struct position *p,
                                  unsigned flags, struct move_list *list);

/* Whether the side to move has a capture, without listing them. */
bool has_capture(const struct variant *v, const struct position *p);

/* The number of legal moves; faster than generate_moves when there is no capture. */
int count_moves(const struct variant *v, const struct position *p, unsigned flags);

/* The number of legal replies to the moves of `list` (generated for p), all added up:
 * count_moves of the position after each, with the board and the code chosen once for
 * the list. Perft's last two plies. */
uint64_t count_replies(const struct variant *v, const struct position *p,
                       const struct move_list *list, unsigned flags);

/* The number of quiet moves of the side to move's kings, counted without listing them, or
 * -1 when the side to move has a capture (captures are then its only legal moves). The
 * solver's question where a king's quiet move is what stays in a material. */
int count_quiet_king_moves(const struct variant *v, const struct position *p);

/* The position after m, which must be one of the moves generated for p. Inline: perft
 * makes one move for every position it counts the moves of. Each field of `out` is
 * written once from `p`, never read back: a copy of the whole position followed by
 * changes to parts of it makes the processor wait for the copy's wide stores. */
static inline void make_move(const struct position *p, const struct move *m,
                             struct position *out)
{
    enum side s = p->side, o = side_other(s);
    bb_t from = bb_of(m->from), to = bb_of(m->to);
    bool king = (p->kings[s] & from) != 0;
    bool ends_as_king = king || m->promotes;

    out->men[s] = (p->men[s] & ~from) | (ends_as_king ? 0 : to);
    out->kings[s] = (p->kings[s] & ~from) | (ends_as_king ? to : 0);
    out->men[o] = p->men[o] & ~m->captured;
    out->kings[o] = p->kings[o] & ~m->captured;
    out->side = o;
}

#endif
