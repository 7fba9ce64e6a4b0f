/* Board geometry: the diagonal boards (8x8 and 10x10) and the orthogonal 8x8 board.
 *
 * Every board is pictured from White's side: ranks 0.. bottom to top, files 0.. left to
 * right. On the diagonal boards the playable squares are those where file + rank is even
 * (a1 is playable) and pieces move along diagonals; variants played on the other colour
 * are the mirror image of this geometry, and only their notation knows about it (see
 * notation.h). On the orthogonal board every square is playable and pieces move along
 * ranks and files (Turkish draughts).
 *
 * Squares are bit numbers in a 64-bit bitboard, laid out so that a step in one direction
 * is the same shift everywhere:
 * - diagonal boards: one "ghost" bit after every second rank, bit(f, r) = ((2h + 1) r + f)
 *   / 2 where h = files / 2. A diagonal step is +h, +h+1, -h or -h-1, and a step off the
 *   left or right edge lands on a ghost bit, which is never part of the board.
 * - the orthogonal board fills all 64 bits, bit(f, r) = 8 r + f. A step is +8, -8, +1 or
 *   -1; a sideways step off one edge would wrap round to the other, so each direction has
 *   a mask of the squares a step can arrive on (on the diagonal boards it is the board).
 *
 * Everything a move generator needs to know about a board is here, as data: the
 * directions, the directions men step in, rays, and the symmetries. */
#ifndef DAMERO_GEOMETRY_H
#define DAMERO_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t bb_t;

#define MAX_SQUARES 64 /* bit numbers are below this */
#define MAX_SIDE 10    /* files (= ranks) of the largest board */

/* The four directions of a board, as seen from White's side: the diagonals on the
 * diagonal boards, the ranks and files on the orthogonal one. Directions d and d ^ 3 are
 * opposite. */
enum direction {
    DIR_UP_LEFT = 0, DIR_UP_RIGHT = 1, DIR_DOWN_LEFT = 2, DIR_DOWN_RIGHT = 3, /* diagonal */
    DIR_LEFT = 0, DIR_UP = 1, DIR_DOWN = 2, DIR_RIGHT = 3,                    /* orthogonal */
    NUM_DIRS = 4
};

/* The symmetries of a square board. The first four keep the colour of a square and are
 * those of the diagonal boards; the orthogonal board has all eight. */
enum symmetry {
    SYM_IDENTITY, SYM_ROTATE_180, SYM_MAIN_DIAGONAL, SYM_ANTI_DIAGONAL,
    SYM_ROTATE_90, SYM_ROTATE_270, SYM_MIRROR_FILES, SYM_MIRROR_RANKS,
    NUM_SYMS
};

#define MAX_MAN_DIRS 3 /* a man steps forward (one or two directions) and perhaps sideways */

/* The three boards' layouts, and the step of each direction on each as constants: the
 * move generator's hot code is compiled once per layout (core/movegen.c), where a step is
 * then a rotation by an immediate and a mask in a register, not two loads from the board.
 * test_geometry checks these against the steps geometry_init builds. */
enum board_layout { LAYOUT_DIAGONAL_8, LAYOUT_DIAGONAL_10, LAYOUT_ORTHOGONAL_8, NUM_LAYOUTS };

struct layout_steps {
    int shift[NUM_DIRS];         /* as struct geometry's shift */
    bb_t step_mask[NUM_DIRS];    /* as struct geometry's step_mask */
    bb_t board;                  /* all playable squares */
    int num_man_dirs;            /* as struct geometry's man directions */
    enum direction man_dir[2][MAX_MAN_DIRS];
    unsigned man_dir_mask[2];
};

#define DIAGONAL_MEN                                                               \
    .num_man_dirs = 2,                                                             \
    .man_dir = { { DIR_UP_LEFT, DIR_UP_RIGHT }, { DIR_DOWN_LEFT, DIR_DOWN_RIGHT } }, \
    .man_dir_mask = { 1u << DIR_UP_LEFT | 1u << DIR_UP_RIGHT,                      \
                      1u << DIR_DOWN_LEFT | 1u << DIR_DOWN_RIGHT }
#define DIAGONAL_8_BOARD 0xf7fbfdfefull     /* bits 0-35 but the ghosts 4, 13, 22, 31 */
#define DIAGONAL_10_BOARD 0x7dffbff7feffdfull /* bits 0-54 but the ghosts 5, 16, ..., 49 */
static const struct layout_steps LAYOUT_STEPS[NUM_LAYOUTS] = {
    [LAYOUT_DIAGONAL_8] = {
        .shift = { 4, 5, -5, -4 },
        .step_mask = { DIAGONAL_8_BOARD, DIAGONAL_8_BOARD, DIAGONAL_8_BOARD, DIAGONAL_8_BOARD },
        .board = DIAGONAL_8_BOARD, DIAGONAL_MEN },
    [LAYOUT_DIAGONAL_10] = {
        .shift = { 5, 6, -6, -5 },
        .step_mask = { DIAGONAL_10_BOARD, DIAGONAL_10_BOARD, DIAGONAL_10_BOARD,
                       DIAGONAL_10_BOARD },
        .board = DIAGONAL_10_BOARD, DIAGONAL_MEN },
    [LAYOUT_ORTHOGONAL_8] = {
        .shift = { -1, 8, -8, 1 },
        /* the squares a step can arrive on: not file h going left, not rank 1 going
         * up, not rank 8 going down, not file a going right */
        .step_mask = { 0x7f7f7f7f7f7f7f7full, 0xffffffffffffff00ull, 0x00ffffffffffffffull,
                       0xfefefefefefefefeull },
        .board = ~0ull,
        .num_man_dirs = 3,
        .man_dir = { { DIR_UP, DIR_LEFT, DIR_RIGHT }, { DIR_DOWN, DIR_LEFT, DIR_RIGHT } },
        .man_dir_mask = { 1u << DIR_UP | 1u << DIR_LEFT | 1u << DIR_RIGHT,
                          1u << DIR_DOWN | 1u << DIR_LEFT | 1u << DIR_RIGHT } },
};


struct geometry {
    int files, ranks;            /* 8x8 or 10x10 */
    int num_squares;             /* playable squares: 32, 50 or 64 */
    int shift[NUM_DIRS];         /* bit offset of one step in each direction */
    int dfile[NUM_DIRS], drank[NUM_DIRS]; /* the same step in files and ranks */
    bb_t step_mask[NUM_DIRS];    /* the squares a step in each direction can arrive on */
    bb_t board;                  /* all playable squares */
    bb_t rank_mask[MAX_SIDE];    /* playable squares of each rank */
    int file_of[MAX_SQUARES];    /* -1 for bits that are not squares */
    int rank_of[MAX_SQUARES];
    int square_bit[MAX_SQUARES]; /* dense index 0..num_squares-1 -> bit, rank-major */
    int dense_of[MAX_SQUARES];   /* bit -> dense index, -1 for ghosts */
    int bit_at[MAX_SIDE][MAX_SIDE]; /* [file][rank] -> bit, -1 when not playable */
    int step[MAX_SQUARES][NUM_DIRS]; /* neighbouring square's bit, -1 off the board */
    bb_t ray[MAX_SQUARES][NUM_DIRS]; /* every square beyond, up to the edge */

    /* Where men go, by side: the directions a man steps in (and captures in; the
     * variants whose men capture backward add the others), forward ones first: the two
     * forward diagonals, or straight ahead and then the two sideways steps. */
    int num_man_dirs, num_man_forward;
    enum direction man_dir[2][MAX_MAN_DIRS];
    unsigned man_dir_mask[2];    /* the same as bits 1 << direction */

    enum board_layout layout;    /* which of LAYOUT_STEPS its steps are */
    int num_syms;                /* symmetries of the board: 4 (diagonal) or 8 */
    int symmetric[NUM_SYMS][MAX_SQUARES]; /* image of each square under each symmetry */
};

/* The boards. All are built once, before main() runs any of this code, by
 * geometry_init(); they are read-only afterwards and safe to share between threads. */
const struct geometry *geometry_8x8(void);
const struct geometry *geometry_10x10(void);
const struct geometry *geometry_8x8_orthogonal(void);

/* Bit of the square at (file, rank), or -1 when that square is off the board or not
 * playable. */
int geometry_bit_at(const struct geometry *g, int file, int rank);

/* Image of a set of squares under a symmetry (one of the board's num_syms). */
bb_t geometry_transform(const struct geometry *g, enum symmetry s, bb_t squares);

static inline enum direction direction_opposite(enum direction d) { return (enum direction)(d ^ 3); }

static inline int bb_count(bb_t b) { return __builtin_popcountll(b); }
static inline int bb_first(bb_t b) { return __builtin_ctzll(b); }
static inline bb_t bb_of(int bit) { return (bb_t)1 << bit; }

/* Every square of b (squares of the board g) moved one step in direction d; squares
 * leaving the board vanish.
 *
 * A rotation by the step's shift rather than a shift: one instruction, and no choice of
 * shifting left or right to wait for (the move generator's commonest operation). It is
 * the shift wherever bits do not wrap round; those that wrap never land on the board:
 * on the diagonal boards the board ends more than a step's shift below bit 64 (so only
 * a step down wraps, onto bits above the board), and on the orthogonal board a wrapping
 * bit lands on the edge the step cannot arrive on, outside step_mask. */
static inline bb_t bb_shifted(bb_t b, int shift, bb_t arrivals)
{
    unsigned r = (unsigned)shift & 63;
    return ((b << r) | (b >> (-r & 63))) & arrivals;
}

static inline bb_t bb_step(const struct geometry *g, bb_t b, enum direction d)
{
    return bb_shifted(b, g->shift[d], g->step_mask[d]);
}

/* bb_step on a board of layout l, for code compiled for that layout (l constant). */
static inline bb_t layout_step(enum board_layout l, bb_t b, enum direction d)
{
    return bb_shifted(b, LAYOUT_STEPS[l].shift[d], LAYOUT_STEPS[l].step_mask[d]);
}

#define BB_FOR_EACH(bit, set) \
    for (bb_t bb_rest_ = (set); bb_rest_ && ((bit) = bb_first(bb_rest_), 1); bb_rest_ &= bb_rest_ - 1)

#endif
