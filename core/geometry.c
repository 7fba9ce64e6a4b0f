#include "core/geometry.h"

#include <string.h>

static struct geometry board_8x8, board_10x10, board_8x8_orthogonal;

/* The two kinds of board: the steps of their four directions (as seen from White's side),
 * the squares that are playable, how a square is laid out in the bitboard, and the
 * directions men move in. */
struct board_kind {
    int dfile[NUM_DIRS], drank[NUM_DIRS];
    bool (*playable)(int file, int rank);
    int (*bit_of)(int files, int file, int rank);
    int num_man_forward, num_man_dirs;
    enum direction white_man_dir[MAX_MAN_DIRS];
    int num_syms;
};

static bool dark_square(int file, int rank) { return (file + rank) % 2 == 0; }
static bool any_square(int file, int rank) { (void)file; (void)rank; return true; }

/* Half the squares, with a ghost bit after every second rank (geometry.h). */
static int ghost_bit(int files, int file, int rank) { return ((files + 1) * rank + file) / 2; }
static int plain_bit(int files, int file, int rank) { return files * rank + file; }

static const struct board_kind diagonal = {
    .dfile = { -1, +1, -1, +1 }, .drank = { +1, +1, -1, -1 },
    .playable = dark_square, .bit_of = ghost_bit,
    .num_man_forward = 2, .num_man_dirs = 2,
    .white_man_dir = { DIR_UP_LEFT, DIR_UP_RIGHT },
    .num_syms = 4,
};

static const struct board_kind orthogonal = {
    .dfile = { -1, 0, 0, +1 }, .drank = { 0, +1, -1, 0 },
    .playable = any_square, .bit_of = plain_bit,
    .num_man_forward = 1, .num_man_dirs = 3,
    .white_man_dir = { DIR_UP, DIR_LEFT, DIR_RIGHT },
    .num_syms = 8,
};

int geometry_bit_at(const struct geometry *g, int file, int rank)
{
    if (file < 0 || file >= g->files || rank < 0 || rank >= g->ranks)
        return -1;
    return g->bit_at[file][rank];
}

/* Image of (file, rank) under a symmetry of a square board of side n. */
static void symmetric_coords(int n, enum symmetry s, int *file, int *rank)
{
    int f = *file, r = *rank;
    switch (s) {
    case SYM_IDENTITY: break;
    case SYM_ROTATE_180: f = n - 1 - *file; r = n - 1 - *rank; break;
    case SYM_MAIN_DIAGONAL: f = *rank; r = *file; break;
    case SYM_ANTI_DIAGONAL: f = n - 1 - *rank; r = n - 1 - *file; break;
    case SYM_ROTATE_90: f = *rank; r = n - 1 - *file; break;
    case SYM_ROTATE_270: f = n - 1 - *rank; r = *file; break;
    case SYM_MIRROR_FILES: f = n - 1 - *file; break;
    case SYM_MIRROR_RANKS: r = n - 1 - *rank; break;
    default: break;
    }
    *file = f;
    *rank = r;
}

/* Black's man direction for White's d: forward is down for Black, left stays left. */
static enum direction for_black(const struct board_kind *k, enum direction d)
{
    for (int e = 0; e < NUM_DIRS; e++)
        if (k->dfile[e] == k->dfile[d] && k->drank[e] == -k->drank[d])
            return (enum direction)e;
    return d;
}

static void build_squares(struct geometry *g, const struct board_kind *k, int n)
{
    memset(g, 0, sizeof *g);
    g->files = g->ranks = n;
    for (int b = 0; b < MAX_SQUARES; b++)
        g->file_of[b] = g->rank_of[b] = g->dense_of[b] = -1;
    for (int f = 0; f < MAX_SIDE; f++)
        for (int r = 0; r < MAX_SIDE; r++)
            g->bit_at[f][r] = -1;
    for (int r = 0; r < n; r++) {
        for (int f = 0; f < n; f++) {
            if (!k->playable(f, r))
                continue;
            int b = k->bit_of(n, f, r);
            g->bit_at[f][r] = b;
            g->file_of[b] = f;
            g->rank_of[b] = r;
            g->dense_of[b] = g->num_squares;
            g->square_bit[g->num_squares++] = b;
            g->board |= bb_of(b);
            g->rank_mask[r] |= bb_of(b);
        }
    }
}

static void build_directions(struct geometry *g, const struct board_kind *k)
{
    for (int d = 0; d < NUM_DIRS; d++) {
        g->dfile[d] = k->dfile[d];
        g->drank[d] = k->drank[d];
        g->shift[d] = k->bit_of(g->files, 1 + k->dfile[d], 1 + k->drank[d]) -
                      k->bit_of(g->files, 1, 1);
    }
    g->num_man_forward = k->num_man_forward;
    g->num_man_dirs = k->num_man_dirs;
    for (int i = 0; i < k->num_man_dirs; i++) {
        g->man_dir[0][i] = k->white_man_dir[i];
        g->man_dir[1][i] = for_black(k, k->white_man_dir[i]);
        for (int s = 0; s < 2; s++)
            g->man_dir_mask[s] |= 1u << g->man_dir[s][i];
    }
}

static void build_lines(struct geometry *g, const struct board_kind *k)
{
    for (int b = 0; b < MAX_SQUARES; b++)
        for (int d = 0; d < NUM_DIRS; d++)
            g->step[b][d] = -1;
    for (int i = 0; i < g->num_squares; i++) {
        int b = g->square_bit[i];
        int f = g->file_of[b], r = g->rank_of[b];
        for (int d = 0; d < NUM_DIRS; d++) {
            g->step[b][d] = geometry_bit_at(g, f + k->dfile[d], r + k->drank[d]);
            if (g->step[b][d] >= 0)
                g->step_mask[d] |= bb_of(g->step[b][d]);
            for (int s = 1;; s++) {
                int t = geometry_bit_at(g, f + s * k->dfile[d], r + s * k->drank[d]);
                if (t < 0)
                    break;
                g->ray[b][d] |= bb_of(t);
            }
        }
    }
    /* On the ghost-bit layout a step never wraps: any playable square can be arrived on
     * (the shift lands off-board steps on ghosts), so the mask is the board itself. */
    for (int d = 0; d < NUM_DIRS && k->bit_of == ghost_bit; d++)
        g->step_mask[d] = g->board;
}

static void build_symmetries(struct geometry *g, const struct board_kind *k)
{
    g->num_syms = k->num_syms;
    for (int s = 0; s < NUM_SYMS; s++)
        for (int b = 0; b < MAX_SQUARES; b++)
            g->symmetric[s][b] = -1;
    for (int i = 0; i < g->num_squares; i++) {
        int b = g->square_bit[i];
        for (int s = 0; s < g->num_syms; s++) {
            int f = g->file_of[b], r = g->rank_of[b];
            symmetric_coords(g->files, (enum symmetry)s, &f, &r);
            g->symmetric[s][b] = geometry_bit_at(g, f, r);
        }
    }
}

static void build(struct geometry *g, const struct board_kind *k, int n,
                  enum board_layout layout)
{
    build_squares(g, k, n);
    build_directions(g, k);
    build_lines(g, k);
    build_symmetries(g, k);
    g->layout = layout;
}

/* Built at load time so that the tables are ready and read-only before any thread runs. */
__attribute__((constructor)) static void geometry_init(void)
{
    build(&board_8x8, &diagonal, 8, LAYOUT_DIAGONAL_8);
    build(&board_10x10, &diagonal, 10, LAYOUT_DIAGONAL_10);
    build(&board_8x8_orthogonal, &orthogonal, 8, LAYOUT_ORTHOGONAL_8);
}

const struct geometry *geometry_8x8(void) { return &board_8x8; }
const struct geometry *geometry_10x10(void) { return &board_10x10; }
const struct geometry *geometry_8x8_orthogonal(void) { return &board_8x8_orthogonal; }

bb_t geometry_transform(const struct geometry *g, enum symmetry s, bb_t squares)
{
    bb_t image = 0;
    int b;
    BB_FOR_EACH(b, squares)
        image |= bb_of(g->symmetric[s][b]);
    return image;
}
