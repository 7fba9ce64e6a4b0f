/* Board geometry of the diagonal boards (8x8 and 10x10).
 *
 * Every board is pictured from White's side: ranks 0.. bottom to top, files 0.. left to
 * right, and the playable squares are those where file + rank is even (a1 is playable).
 * Variants played on the other colour are the mirror image of this geometry; only their
 * notation knows about it (see notation.h).
 *
 * Squares are bit numbers in a 64-bit bitboard laid out with one "ghost" bit after every
 * second rank: bit(f, r) = ((2h + 1) r + f) / 2 where h = files / 2. With that layout a
 * diagonal step is the same shift everywhere (+h, +h+1, -h, -h-1) and a step off the left
 * or right edge lands on a ghost bit, which is never part of the board mask. */
#ifndef DAMERO_GEOMETRY_H
#define DAMERO_GEOMETRY_H

#include <stdint.h>

typedef uint64_t bb_t;

#define MAX_SQUARES 64  /* bit numbers are below this */

/* Diagonal directions, as seen from White's side. The two "up" ones are White's forward
 * directions and Black's backward ones. */
enum direction { DIR_UP_LEFT, DIR_UP_RIGHT, DIR_DOWN_LEFT, DIR_DOWN_RIGHT, NUM_DIRS };

/* The four symmetries of the board that keep playable squares playable. */
enum symmetry { SYM_IDENTITY, SYM_ROTATE_180, SYM_MAIN_DIAGONAL, SYM_ANTI_DIAGONAL, NUM_SYMS };

struct geometry {
    int files, ranks;            /* 8x8 or 10x10 */
    int num_squares;             /* playable squares: 32 or 50 */
    int shift[NUM_DIRS];         /* bit offset of one step in each direction */
    bb_t board;                  /* all playable squares */
    bb_t rank_mask[10];          /* playable squares of each rank */
    int file_of[MAX_SQUARES];    /* -1 for bits that are not squares */
    int rank_of[MAX_SQUARES];
    int square_bit[MAX_SQUARES]; /* dense index 0..num_squares-1 -> bit, rank-major */
    int dense_of[MAX_SQUARES];   /* bit -> dense index, -1 for ghosts */
    int step[MAX_SQUARES][NUM_DIRS]; /* neighbouring square's bit, -1 off the board */
    bb_t ray[MAX_SQUARES][NUM_DIRS]; /* every square beyond, up to the edge */
    int symmetric[NUM_SYMS][MAX_SQUARES]; /* image of each square under each symmetry */
};

/* The two boards. Both are built once, before main() runs any of this code, by
 * geometry_init(); they are read-only afterwards and safe to share between threads. */
const struct geometry *geometry_8x8(void);
const struct geometry *geometry_10x10(void);

/* Bit of the square at (file, rank), or -1 when that square is off the board or not
 * playable. */
int geometry_bit_at(const struct geometry *g, int file, int rank);

/* Image of a set of squares under a symmetry. */
bb_t geometry_transform(const struct geometry *g, enum symmetry s, bb_t squares);

static inline enum direction direction_opposite(enum direction d) { return (enum direction)(d ^ 3); }

static inline int bb_count(bb_t b) { return __builtin_popcountll(b); }
static inline int bb_first(bb_t b) { return __builtin_ctzll(b); }
static inline bb_t bb_of(int bit) { return (bb_t)1 << bit; }

/* Every square of b moved one step in direction d; squares leaving the board vanish. */
static inline bb_t bb_step(const struct geometry *g, bb_t b, enum direction d)
{
    int s = g->shift[d];
    return (s > 0 ? b << s : b >> -s) & g->board;
}

#define BB_FOR_EACH(bit, set) \
    for (bb_t bb_rest_ = (set); bb_rest_ && ((bit) = bb_first(bb_rest_), 1); bb_rest_ &= bb_rest_ - 1)

#endif
