#include "core/geometry.h"

#include <string.h>

static struct geometry board_8x8, board_10x10;

static int bit_of(int files, int file, int rank) { return ((files + 1) * rank + file) / 2; }

int geometry_bit_at(const struct geometry *g, int file, int rank)
{
    if (file < 0 || file >= g->files || rank < 0 || rank >= g->ranks || (file + rank) % 2)
        return -1;
    return bit_of(g->files, file, rank);
}

/* Image of (file, rank) under a symmetry of a square board. */
static void symmetric_coords(int n, enum symmetry s, int *file, int *rank)
{
    int f = *file, r = *rank;
    switch (s) {
    case SYM_IDENTITY: break;
    case SYM_ROTATE_180: f = n - 1 - *file; r = n - 1 - *rank; break;
    case SYM_MAIN_DIAGONAL: f = *rank; r = *file; break;
    case SYM_ANTI_DIAGONAL: f = n - 1 - *rank; r = n - 1 - *file; break;
    default: break;
    }
    *file = f;
    *rank = r;
}

static void build(struct geometry *g, int n)
{
    static const int dfile[NUM_DIRS] = { -1, +1, -1, +1 };
    static const int drank[NUM_DIRS] = { +1, +1, -1, -1 };

    memset(g, 0, sizeof *g);
    g->files = g->ranks = n;
    for (int d = 0; d < NUM_DIRS; d++)
        g->shift[d] = bit_of(n, 1 + dfile[d], 1 + drank[d]) - bit_of(n, 1, 1);
    for (int b = 0; b < MAX_SQUARES; b++) {
        g->file_of[b] = g->rank_of[b] = g->dense_of[b] = -1;
        for (int d = 0; d < NUM_DIRS; d++)
            g->step[b][d] = -1;
    }
    for (int r = 0; r < n; r++) {
        for (int f = r % 2; f < n; f += 2) {
            int b = bit_of(n, f, r);
            g->file_of[b] = f;
            g->rank_of[b] = r;
            g->dense_of[b] = g->num_squares;
            g->square_bit[g->num_squares++] = b;
            g->board |= bb_of(b);
            g->rank_mask[r] |= bb_of(b);
        }
    }
    for (int i = 0; i < g->num_squares; i++) {
        int b = g->square_bit[i];
        int f = g->file_of[b], r = g->rank_of[b];
        for (int d = 0; d < NUM_DIRS; d++) {
            g->step[b][d] = geometry_bit_at(g, f + dfile[d], r + drank[d]);
            for (int k = 1;; k++) {
                int t = geometry_bit_at(g, f + k * dfile[d], r + k * drank[d]);
                if (t < 0)
                    break;
                g->ray[b][d] |= bb_of(t);
            }
        }
        for (int s = 0; s < NUM_SYMS; s++) {
            int sf = f, sr = r;
            symmetric_coords(n, (enum symmetry)s, &sf, &sr);
            g->symmetric[s][b] = bit_of(n, sf, sr);
        }
    }
}

/* Built at load time so that the tables are ready and read-only before any thread runs. */
__attribute__((constructor)) static void geometry_init(void)
{
    build(&board_8x8, 8);
    build(&board_10x10, 10);
}

const struct geometry *geometry_8x8(void) { return &board_8x8; }
const struct geometry *geometry_10x10(void) { return &board_10x10; }

bb_t geometry_transform(const struct geometry *g, enum symmetry s, bb_t squares)
{
    bb_t image = 0;
    int b;
    BB_FOR_EACH(b, squares)
        image |= bb_of(g->symmetric[s][b]);
    return image;
}
