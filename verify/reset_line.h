/* The line a player can replay from a no-progress rule's example to the move that resets
 * its count: the winner takes the quickest way to a reset that keeps the win, the loser
 * the longest delay, move by move along the distance verify measured (the tables' MTC
 * when a capture or man move resets the count, rulegen/reset_distance.h when only a
 * capture or promotion does). */
#ifndef DAMERO_VERIFY_RESET_LINE_H
#define DAMERO_VERIFY_RESET_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "core/move_limit.h"
#include "store/tableset.h"

/* Writes into out the moves from start, a won position of material t (its side to move
 * wins), to the reset (or the end of the game when it comes first), as move texts
 * separated by spaces. distance: the states' distances to a capture or promotion
 * (rule->reset RESET_CAPTURE_OR_PROMOTION), NULL for the tables' MTC. Returns the plies
 * written, or -1 when out is too small or no move follows the distance (a bug). The
 * tables of every material a capture or promotion leads to must be in ts. */
int reset_line(const struct tableset *ts, const struct table *t,
               const struct move_limit_rule *rule, const uint16_t *distance,
               const struct position *start, char *out, size_t size);

#endif
