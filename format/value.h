/* How the tables encode a position's value, for the side to move.
 *
 * DTM (distance to mate): the plies until the game ends under best play, the winner
 * taking the shortest way and the loser the longest. Encoded in one unsigned number so
 * that a table is a plain array: 0 is a draw, 1 + 2d a win in d plies, 2 + 2d a loss in
 * d plies. In the ordinary variants a win takes an odd number of plies and a loss an even
 * one (a side with no move has lost at 0 plies); in the giveaway variants it is the
 * reverse (a side with no move has won at 0 plies).
 *
 * MTC (moves to conversion): for a won position, the fewest plies the winner needs until
 * a capture or a man move, by either side, after which the position is still won; for a
 * lost position, the most plies the loser can delay that. A position where the game is
 * over has MTC 0. Encoded as 0 for a draw (no MTC) and 1 + plies otherwise.
 *
 * WDL: 0 draw, 1 win, 2 loss, for the side to move. */
#ifndef DAMERO_VALUE_H
#define DAMERO_VALUE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/game_end.h"
#include "core/variant.h"

typedef uint16_t dtm_t;
typedef uint16_t mtc_t;

enum wdl { WDL_DRAW = 0, WDL_WIN = 1, WDL_LOSS = 2 };

#define DTM_DRAW ((dtm_t)0)
#define DTM_MAX_PLIES 32766
#define MTC_NONE ((mtc_t)0)

static inline dtm_t dtm_win(int plies) { return (dtm_t)(1 + 2 * plies); }
static inline dtm_t dtm_loss(int plies) { return (dtm_t)(2 + 2 * plies); }
static inline bool dtm_is_win(dtm_t v) { return v & 1; }
static inline bool dtm_is_loss(dtm_t v) { return v != 0 && !(v & 1); }
static inline int dtm_plies(dtm_t v) { return (v - 1) >> 1; } /* of a win or a loss */

static inline enum wdl dtm_wdl(dtm_t v)
{
    return v == DTM_DRAW ? WDL_DRAW : dtm_is_win(v) ? WDL_WIN : WDL_LOSS;
}

/* The DTM code that stands for a WDL value where only WDL is known (a WDL-only build):
 * a win or a loss in 0 plies. Which positions are won, drawn and lost does not depend on
 * the distances. */
static inline dtm_t dtm_of_wdl(enum wdl w)
{
    return w == WDL_WIN ? dtm_win(0) : w == WDL_LOSS ? dtm_loss(0) : DTM_DRAW;
}

/* The WDL for the side that moved, of a move leading to a position worth `child` to
 * the side to move there. */
static inline enum wdl wdl_parent(enum wdl child)
{
    return child == WDL_WIN ? WDL_LOSS : child == WDL_LOSS ? WDL_WIN : WDL_DRAW;
}

/* The value for the side that moved, of a move leading to a position worth `child` to
 * the side to move there. */
static inline dtm_t dtm_parent(dtm_t child)
{
    if (child == DTM_DRAW)
        return DTM_DRAW;
    return dtm_is_win(child) ? dtm_loss(dtm_plies(child) + 1) : dtm_win(dtm_plies(child) + 1);
}

/* Whether a is better than b for the side to move: a shorter win, a draw rather than a
 * loss, a longer loss. */
static inline bool dtm_better(dtm_t a, dtm_t b)
{
    /* rank: wins first by fewest plies, then the draw, then losses by most plies */
    int64_t ra = a == DTM_DRAW ? 0 : dtm_is_win(a) ? 1000000 - dtm_plies(a) : -1000000 + dtm_plies(a);
    int64_t rb = b == DTM_DRAW ? 0 : dtm_is_win(b) ? 1000000 - dtm_plies(b) : -1000000 + dtm_plies(b);
    return ra > rb;
}

/* The value of a position whose side to move has no legal move: the game is over. */
static inline dtm_t dtm_no_move(const struct variant *v)
{
    return v->giveaway ? dtm_win(0) : dtm_loss(0);
}

/* The value of a position where the game is over without a move: no plies to go, or a
 * draw. */
static inline dtm_t dtm_game_end(enum game_end e)
{
    return e == GAME_WON ? dtm_win(0) : e == GAME_LOST ? dtm_loss(0) : DTM_DRAW;
}

#define VALUE_TEXT_SIZE 48

/* A value in words: "win in 5 plies, MTC 3", "loss in 4 plies, MTC 2", "draw". */
static inline void value_text(dtm_t dtm, mtc_t mtc, char out[VALUE_TEXT_SIZE])
{
    if (dtm == DTM_DRAW)
        snprintf(out, VALUE_TEXT_SIZE, mtc == MTC_NONE ? "draw" : "draw, MTC %d", (int)mtc - 1);
    else
        snprintf(out, VALUE_TEXT_SIZE, "%s in %d plies, MTC %d", dtm_is_win(dtm) ? "win" : "loss",
                 dtm_plies(dtm), (int)mtc - 1);
}

static inline mtc_t mtc_of_plies(int plies) { return (mtc_t)(1 + plies); }
static inline int mtc_plies(mtc_t v) { return v - 1; }

/* The MTC of a position where the game is over without a move: 0 plies when decided,
 * none in a draw. */
static inline mtc_t mtc_game_end(enum game_end e)
{
    return e == GAME_DRAWN ? MTC_NONE : mtc_of_plies(0);
}

#endif
