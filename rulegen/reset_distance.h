/* The distance a no-progress count measures when only a capture or a promotion resets
 * it (the russian 30/60-move rule, the spanish saque de peon): the tables' MTC with man
 * steps no longer counted as conversions. Computed per material over a graph of the
 * moves inside it between won and lost positions, level by level from the positions
 * that convert at once, as the generator's agendas do. */
#ifndef DAMERO_RULEGEN_RESET_DISTANCE_H
#define DAMERO_RULEGEN_RESET_DISTANCE_H

#include <stdint.h>

#include "store/tableset.h"

#define NO_DISTANCE UINT16_MAX

/* For each state s = side * t->ix.size + index of canonical material t: for a won
 * position, the fewest plies the winner needs until a capture or a promotion, keeping
 * the win; for a lost one, the most the loser can delay it (0 when the game is over);
 * NO_DISTANCE for a draw. dist has room for 2 * t->ix.size values. The tables every
 * capture and promotion leads to must be in ts. Returns 0, or -1 when memory runs out. */
int distance_to_capture_or_promotion(const struct tableset *ts, const struct table *t,
                                     uint16_t *dist);

#endif
