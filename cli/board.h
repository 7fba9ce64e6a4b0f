/* An ASCII picture of a position, as White sees the board. */
#ifndef DAMERO_CLI_BOARD_H
#define DAMERO_CLI_BOARD_H

#include <stdio.h>

#include "position.h"
#include "variant.h"

/* Prints p on out, White at the bottom and the board turned as the variant plays it
 * (spanish and italian on the other colour). Each playable square shows its piece (w, b
 * for men, W, B for kings) or, when empty, its name in the variant's notation; algebraic
 * variants get file letters and rank numbers around the board. */
void board_print(FILE *out, const struct variant *v, const struct position *p);

#endif
