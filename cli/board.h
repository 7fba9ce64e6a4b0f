/* An ASCII picture of a position, as White sees the board. Drawn through damero.h only,
 * as any program using the library could draw it. */
#ifndef DAMERO_CLI_BOARD_H
#define DAMERO_CLI_BOARD_H

#include <stdio.h>

#include "probe/damero.h"

/* Prints pos on out, White at the bottom and the board turned as the variant plays it
 * (spanish and italian on the other colour). Each playable square shows its piece (w, b
 * for men, W, B for kings) or, when empty, its name in the variant's notation; algebraic
 * variants get file letters and rank numbers around the board. */
void board_print(FILE *out, const damero_tb *tb, const damero_position *pos);

#endif
