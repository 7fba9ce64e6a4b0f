/* Squares, positions (FEN) and moves written in each variant's own notation.
 *
 * Numbered variants name squares 1..32 or 1..50 as their federations do (see the
 * variant row's numbering fields); russian, brazilian, czech and poddavki use algebraic
 * names with a1 playable, and turkish algebraic names of all 64 squares. FEN is the PDN
 * form `W:W31,32,K45:B1,2,K7`: side to move, then each side's squares, K before a king;
 * PDN ranges such as `W31-35` are read too. */
#ifndef DAMERO_NOTATION_H
#define DAMERO_NOTATION_H

#include <stddef.h>

#include "core/movegen.h"
#include "core/position.h"

#define SQUARE_NAME_SIZE 16 /* "50" or "h8"; room for any int keeps -Wformat-truncation quiet */
#define FEN_SIZE 256       /* enough for any position on the largest board */
#define MOVE_TEXT_SIZE (MAX_JUMPS * 3 + 8)

/* The square's number (1..N) in a numbered variant, its position in the variant's
 * numbering even for algebraic variants. */
int square_number(const struct variant *v, int bit);

/* The bit of the square numbered n (1..N), or -1 when there is no such square. */
int square_from_number(const struct variant *v, int n);

/* Writes the square's name ("31" or "c3") to name. */
void square_name(const struct variant *v, int bit, char name[SQUARE_NAME_SIZE]);

/* The bit of the square written as the len characters at text, or -1 when they do not
 * name a playable square of the variant's board. An algebraic board's squares may also
 * be written as numbers, as programs that number them write them: from the top rank,
 * left to right (on 8x8, b8 = 1, h8 = 4, a1 = 29, g1 = 32). */
int square_parse(const struct variant *v, const char *text, size_t len);

/* Reads a FEN into p and checks the position (position_validate). Returns 0, or -1 with
 * a sentence naming what is wrong in err. p is unchanged on error. */
int fen_parse(const struct variant *v, const char *fen, struct position *p, char *err,
              size_t err_size);

/* Writes p as a FEN, each side's squares in increasing order. */
void fen_print(const struct variant *v, const struct position *p, char fen[FEN_SIZE]);

/* Writes m as players write it: `31-27` and `28x19x23`, `c3-d4` and `c3:e5:c7`, or
 * `d3-d4` and `d4xd6xf6` (the variant's capture mark), with every square a capturing
 * piece lands on. */
void move_text(const struct variant *v, const struct move *m, char text[MOVE_TEXT_SIZE]);

#endif
