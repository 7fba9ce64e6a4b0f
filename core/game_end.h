/* How a game ends before anyone moves: the variant's rule on lone pieces.
 *
 * A side with no legal move has lost (won, in the giveaway variants); that is found by
 * generating moves. Some variants also end the game by the material left on the board,
 * whoever is to move and whatever moves there are: Turkish draughts is drawn when each
 * side has one piece left. The rule is a field of the variant's row (variant.h); the move
 * generator does not apply it, everything that values positions does (the solver, the
 * self-check, the lookup of a position's value, the tests' brute-force solver). */
#ifndef DAMERO_GAME_END_H
#define DAMERO_GAME_END_H

#include "core/position.h"

/* For the side to move. */
enum game_end { GAME_GOES_ON, GAME_WON, GAME_DRAWN, GAME_LOST };

/* Whether the variant's rule on lone pieces has ended the game in p, and how. Depends
 * only on the pieces each side has. Thread-safe. */
enum game_end lone_piece_end(const struct variant *v, const struct position *p);

/* The rule in words, for messages: "one piece each: a draw"; NULL when the variant has
 * none. */
const char *lone_piece_words(const struct variant *v);

#endif
