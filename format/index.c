#include "format/index.h"

#include <stdlib.h>
#include <string.h>

#include "core/cpu.h"

/* The hot functions below are compiled twice, for the baseline and for processors with
 * popcnt and BMI2 (core/cpu.h): the helpers they use must be inlined into each copy. */
#define ALWAYS_INLINE inline __attribute__((always_inline))

#define MAX_CHOOSE 64

/* binomial[n][k] = n choose k, for every n and k the boards can need */
static uint64_t binomial[MAX_CHOOSE + 1][MATERIAL_MAX_PIECES + 1];

__attribute__((constructor)) static void binomial_init(void)
{
    for (int n = 0; n <= MAX_CHOOSE; n++) {
        binomial[n][0] = 1;
        for (int k = 1; k <= MATERIAL_MAX_PIECES; k++)
            binomial[n][k] = n == 0 ? 0 : binomial[n - 1][k - 1] + binomial[n - 1][k];
    }
}

static uint64_t choose(int n, int k) { return n < 0 ? 0 : binomial[n][k]; }

/* The r-th set of k positions (as bits 0..n-1) in the order set_rank numbers them, for
 * small k: that order is colexicographic, which is plain numeric order of the bit sets,
 * so the same list serves every mask, and decoding is a lookup and a bit deposit. Sets of
 * up to three cover the 64 squares of the orthogonal board; sets of four, the 50 of the
 * largest diagonal board (on 64 squares they would take 5 MB, in every program that
 * links the library). */
#define UNRANK_MAX_K 4
static const int unrank_max_n[UNRANK_MAX_K + 1] = { 0, 64, 64, 64, 50 };
static bb_t *unrank_table[UNRANK_MAX_K + 1];

__attribute__((constructor)) static void unrank_init(void)
{
    for (int k = 1; k <= UNRANK_MAX_K; k++) {
        uint64_t count = 1;
        for (int i = 0; i < k; i++)
            count = count * (uint64_t)(unrank_max_n[k] - i) / (uint64_t)(i + 1);
        unrank_table[k] = malloc(count * sizeof(bb_t));
        if (!unrank_table[k])
            continue; /* set_unrank falls back to searching */
        bb_t set = ((bb_t)1 << k) - 1;
        for (uint64_t r = 0; r < count; r++) {
            unrank_table[k][r] = set;
            bb_t low = set & -set, ripple = set + low; /* the next set with k bits */
            set = ripple | (((set ^ ripple) >> 2) / low);
        }
    }
}

/* The squares of mask at the positions given as bits of `positions`. With `fast`, one
 * BMI2 instruction (written out: only the _fast copies may hold it, and the compiler's
 * intrinsic would refuse to appear in a function that is not compiled for BMI2). */
static ALWAYS_INLINE bb_t deposit(bb_t positions, bb_t mask, const bool fast)
{
#if CPU_DISPATCH
    if (fast) {
        bb_t out;
        __asm__("pdep %2, %1, %0" : "=r"(out) : "r"(positions), "rm"(mask));
        return out;
    }
#else
    (void)fast;
#endif
    bb_t out = 0;
    for (; mask; mask &= mask - 1, positions >>= 1)
        if (positions & 1)
            out |= mask & -mask;
    return out;
}

/* The j-th (from 0) square of mask. */
static ALWAYS_INLINE int select_square(bb_t mask, int j, const bool fast)
{
    return bb_first(deposit(bb_of(j), mask, fast));
}

/* Combinatorial number of a set of squares among the squares of mask: the sum over the
 * set's squares, in increasing order i = 1, 2, ..., of C(position of the square in mask, i). */
static ALWAYS_INLINE uint64_t set_rank(bb_t mask, bb_t set)
{
    uint64_t r = 0;
    int i = 1, b;
    BB_FOR_EACH(b, set)
        r += choose(bb_count(mask & (bb_of(b) - 1)), i++);
    return r;
}

/* The set of k squares of mask numbered r by set_rank: from the highest square down,
 * each is the largest position n with C(n, i) <= what is left of r. */
static ALWAYS_INLINE bb_t set_unrank(bb_t mask, uint64_t r, int k, const bool fast)
{
    bb_t set = 0;
    int top = bb_count(mask);
    if (k == 0)
        return 0;
    if (k <= UNRANK_MAX_K && top <= unrank_max_n[k] && unrank_table[k])
        return deposit(unrank_table[k][r], mask, fast);
    for (int i = k; i >= 1; i--) {
        int lo = i - 1, hi = top - 1; /* C(lo, i) = 0 <= r always */
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (choose(mid, i) <= r)
                lo = mid;
            else
                hi = mid - 1;
        }
        r -= choose(lo, i);
        set |= bb_of(select_square(mask, lo, fast));
        top = lo;
    }
    return set;
}

/* Number of the kings' placement on the free squares. */
static ALWAYS_INLINE uint64_t kings_rank(const struct material_index *ix, bb_t free, bb_t wk, bb_t bk)
{
    int after_white = bb_count(free) - ix->m.kings[WHITE];
    return set_rank(free, wk) * choose(after_white, ix->m.kings[BLACK]) +
           set_rank(free & ~wk, bk);
}

/* The kings' placement r on the free squares, which the men leave (all of the board in a
 * reduced material). */
static ALWAYS_INLINE void kings_unrank(const struct material_index *ix, bb_t free, uint64_t r,
                                       bb_t *wk, bb_t *bk, const bool fast)
{
    uint64_t white = divide(r, ix->by_black_placements);
    *wk = set_unrank(free, white, ix->m.kings[WHITE], fast);
    *bk = set_unrank(free & ~*wk, r - white * ix->by_black_placements.d, ix->m.kings[BLACK],
                     fast);
}

static ALWAYS_INLINE uint64_t men_rank(const struct material_index *ix, bb_t wm, bb_t bm)
{
    uint64_t w = set_rank(ix->men_allowed[WHITE], wm);
    return ix->black_men_start[w] + set_rank(ix->men_allowed[BLACK] & ~wm, bm);
}

/* The last k in [0, n) with starts[k] <= r, for increasing starts with starts[0] <= r. */
static uint64_t last_at_most(const uint64_t *starts, uint64_t n, uint64_t r)
{
    uint64_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (starts[mid] <= r)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static ALWAYS_INLINE void men_unrank(const struct material_index *ix, uint64_t r, bb_t *wm,
                                     bb_t *bm, const bool fast)
{
    /* the last White combination whose run starts at or before r */
    uint64_t lo = last_at_most(ix->black_men_start, ix->white_combinations, r);
    *wm = set_unrank(ix->men_allowed[WHITE], lo, ix->m.men[WHITE], fast);
    *bm = set_unrank(ix->men_allowed[BLACK] & ~*wm, r - ix->black_men_start[lo],
                     ix->m.men[BLACK], fast);
}

/* The set of dense square numbers (as bits) of the images of the squares. */
static ALWAYS_INLINE uint64_t image_set(const struct material_index *ix, enum symmetry s, const int *dense,
                          int n)
{
    uint64_t set = 0;
    for (int i = 0; i < n; i++)
        set |= (uint64_t)1 << ix->image[s][dense[i]];
    return set;
}

/* The unreduced number of the kings on the dense squares tw (White) and tb (Black): where
 * the number of a square among the free ones is a count of the bits below it. */
static ALWAYS_INLINE uint64_t dense_kings_rank(const struct material_index *ix, uint64_t tw, uint64_t tb)
{
    uint64_t per_white = choose(ix->g->num_squares - ix->m.kings[WHITE], ix->m.kings[BLACK]);
    uint64_t white = 0, black = 0;
    int i = 1, d;
    BB_FOR_EACH(d, tw)
        white += choose(d, i++);
    i = 1;
    BB_FOR_EACH(d, tb)
        black += choose(d - bb_count(tw & (((uint64_t)1 << d) - 1)), i++);
    return white * per_white + black;
}

/* The smallest of the kings' images under the board's symmetries, given as sets of dense
 * square numbers (im->white[s], im->black[s] for symmetry s, the identity first), in
 * *min_w and *min_b; returns whether the identity's image is that smallest one, the
 * representative of its class. With `give_up`, stops at the first smaller image and
 * returns false, leaving *min_w and *min_b unset; else *fixing (when not NULL) gets how
 * many symmetries map the kings onto that image, as many as map them onto themselves.
 * The hot path of a reduced material's index, so it compares sets rather than numbering
 * each image: set_rank's order is the numeric order of the sets, White's number counts
 * first, and Black's squares are numbered among those White leaves, the same for two
 * images with the same White set. */
static ALWAYS_INLINE bool smallest_image(int num_syms, const struct king_images *im,
                                         bool give_up, uint64_t *min_w, uint64_t *min_b,
                                         int *fixing)
{
    uint64_t best_w = im->white[SYM_IDENTITY], best_b = im->black[SYM_IDENTITY];
    int ties = 1;
    for (int s = SYM_IDENTITY + 1; s < num_syms; s++) {
        uint64_t tw = im->white[s];
        if (tw > best_w)
            continue;
        uint64_t tb = im->black[s];
        if (tw < best_w || tb < best_b) {
            if (give_up)
                return false;
            best_w = tw;
            best_b = tb;
            ties = 1;
        } else if (tb == best_b) {
            ties++;
        }
    }
    *min_w = best_w;
    *min_b = best_b;
    if (fixing)
        *fixing = ties;
    return best_w == im->white[SYM_IDENTITY] && best_b == im->black[SYM_IDENTITY];
}

/* The images of the kings `set` under every symmetry, into sets[s]. */
static ALWAYS_INLINE void side_images(const struct material_index *ix, bb_t set, uint64_t *sets)
{
    const struct geometry *g = ix->g;
    int dense[MATERIAL_MAX_PIECES], n = 0, b;
    sets[SYM_IDENTITY] = 0;
    BB_FOR_EACH(b, set)
        sets[SYM_IDENTITY] |= (uint64_t)1 << (dense[n++] = g->dense_of[b]);
    for (int s = SYM_IDENTITY + 1; s < g->num_syms; s++)
        sets[s] = image_set(ix, (enum symmetry)s, dense, n);
}

static ALWAYS_INLINE void king_images_body(const struct material_index *ix, bb_t wk, bb_t bk,
                                           struct king_images *out)
{
    side_images(ix, wk, out->white);
    side_images(ix, bk, out->black);
}

/* The unreduced number of the representative of (wk, bk); *own (when not NULL) says
 * whether (wk, bk) is that representative. */
static ALWAYS_INLINE uint64_t class_min(const struct material_index *ix, bb_t wk, bb_t bk, bool *own)
{
    struct king_images im;
    uint64_t min_w, min_b;
    king_images_body(ix, wk, bk, &im);
    bool is_own = smallest_image(ix->g->num_syms, &im, false, &min_w, &min_b, NULL);
    if (own)
        *own = is_own;
    return dense_kings_rank(ix, min_w, min_b);
}

uint64_t index_class_words(const struct material_index *ix)
{
    return ix->reduced ? ix->unreduced_size / 64 + 1 : 0;
}

static ALWAYS_INLINE void index_mark_classes_body(struct material_index *ix, uint64_t w,
                                                  const bool fast)
{
    bb_t board = ix->g->board, wk = 0;
    uint64_t bits = 0, white = UINT64_MAX;
    struct king_images images;
    for (uint64_t r = w * 64; r < (w + 1) * 64 && r < ix->unreduced_size; r++) {
        /* kings_unrank, with White's kings decoded and mapped once for the run of
         * placements that share them (as many as Black's placements, most of a word or
         * more) */
        uint64_t white_r = divide(r, ix->by_black_placements);
        if (white_r != white) {
            white = white_r;
            wk = set_unrank(board, white, ix->m.kings[WHITE], fast);
            side_images(ix, wk, images.white);
        }
        bb_t bk = set_unrank(board & ~wk, r - white * ix->by_black_placements.d,
                             ix->m.kings[BLACK], fast);
        uint64_t min_w, min_b;
        side_images(ix, bk, images.black);
        if (smallest_image(ix->g->num_syms, &images, true, &min_w, &min_b, NULL))
            bits |= (uint64_t)1 << (r % 64);
    }
    ix->classes[w].bits = bits;
}

CPU_CLONES(void, index_mark_classes, (struct material_index *ix, uint64_t w), (ix, w))

void index_mark_classes(struct material_index *ix, uint64_t w)
{
    CPU_CHOOSE(index_mark_classes)(ix, w);
}

void index_count_classes(struct material_index *ix)
{
    uint64_t words = index_class_words(ix);
    if (!ix->reduced)
        return;
    for (uint64_t w = 0; w < words; w++)
        ix->classes[w + 1].rank = ix->classes[w].rank + (uint64_t)bb_count(ix->classes[w].bits);
    ix->size = ix->classes[words].rank;
    uint64_t k = 0;
    for (uint64_t w = 0; w < words; w++)
        for (; k * 64 < ix->classes[w + 1].rank; k++)
            ix->select_from[k] = (uint32_t)w;
    ix->select_from[k] = (uint32_t)(words - 1);
}

static int build_men_starts(struct material_index *ix)
{
    ix->white_combinations = choose(bb_count(ix->men_allowed[WHITE]), ix->m.men[WHITE]);
    ix->black_men_start = malloc((ix->white_combinations + 1) * sizeof *ix->black_men_start);
    if (!ix->black_men_start)
        return -1;
    ix->black_men_start[0] = 0;
    for (uint64_t w = 0; w < ix->white_combinations; w++) {
        bb_t wm = set_unrank(ix->men_allowed[WHITE], w, ix->m.men[WHITE], false);
        int free = bb_count(ix->men_allowed[BLACK] & ~wm);
        ix->black_men_start[w + 1] = ix->black_men_start[w] + choose(free, ix->m.men[BLACK]);
    }
    ix->men_count = ix->black_men_start[ix->white_combinations];
    return 0;
}

int index_start(struct material_index *ix, const struct variant *v, const struct material *m)
{
    const struct geometry *g = v->board();
    int men = material_men(m);

    memset(ix, 0, sizeof *ix);
    ix->g = g;
    ix->m = *m;
    ix->reduced = men == 0;
    for (int s = WHITE; s <= BLACK; s++)
        ix->men_allowed[s] = man_squares(v, (enum side)s);
    ix->by_black_placements = divider_of(choose(g->num_squares - men - m->kings[WHITE],
                                                m->kings[BLACK]));
    ix->king_count = choose(g->num_squares - men, m->kings[WHITE]) * ix->by_black_placements.d;
    ix->by_king_count = divider_of(ix->king_count);
    if (build_men_starts(ix) < 0)
        goto fail;
    ix->size = ix->men_count * ix->king_count;
    ix->unreduced_size = ix->size;
    for (int sym = 0; sym < g->num_syms; sym++)
        for (int d = 0; d < g->num_squares; d++)
            ix->image[sym][d] = (uint8_t)g->dense_of[g->symmetric[sym][g->square_bit[d]]];
    if (ix->reduced) {
        uint64_t words = index_class_words(ix);
        ix->classes = calloc(words + 1, sizeof *ix->classes); /* and a sentinel: the total */
        /* one per 64 representatives, of which there are fewer than placements */
        ix->select_from = malloc((words + 1) * sizeof *ix->select_from);
        if (!ix->classes || !ix->select_from)
            goto fail;
    }
    return 0;
fail:
    index_free(ix);
    return -1;
}

int index_init(struct material_index *ix, const struct variant *v, const struct material *m)
{
    if (index_start(ix, v, m) < 0)
        return -1;
    for (uint64_t w = 0; w < index_class_words(ix); w++)
        index_mark_classes(ix, w);
    index_count_classes(ix);
    return 0;
}

void index_free(struct material_index *ix)
{
    free(ix->black_men_start);
    free(ix->classes);
    free(ix->select_from);
    ix->black_men_start = NULL;
    ix->classes = NULL;
    ix->select_from = NULL;
}

/* The index of the representative whose unreduced number is r. */
static ALWAYS_INLINE uint64_t reduced_index(const struct material_index *ix, uint64_t r)
{
    const struct class_word *word = &ix->classes[r / 64];
    uint64_t below = word->bits & (((uint64_t)1 << (r % 64)) - 1);
    return word->rank + (uint64_t)bb_count(below);
}

static ALWAYS_INLINE uint64_t index_of_kings_body(const struct material_index *ix,
                                                  uint64_t men_config, const struct position *p,
                                                  bool *representative, const bool fast)
{
    (void)fast;
    if (ix->reduced) {
        uint64_t min = class_min(ix, p->kings[WHITE], p->kings[BLACK], representative);
        return reduced_index(ix, min);
    }
    if (representative)
        *representative = true;
    bb_t men = p->men[WHITE] | p->men[BLACK];
    return men_config * ix->king_count +
           kings_rank(ix, ix->g->board & ~men, p->kings[WHITE], p->kings[BLACK]);
}

static ALWAYS_INLINE int index_of_king_moves_body(const struct material_index *ix,
                                                  uint64_t men_config, const struct position *p,
                                                  enum side side, int square, bb_t squares,
                                                  uint64_t *out, const bool fast)
{
    bb_t free = ix->g->board & ~(p->men[WHITE] | p->men[BLACK]);
    bb_t wk = p->kings[WHITE], bk = p->kings[BLACK];
    uint64_t base = men_config * ix->king_count;
    int n = 0, to;
    (void)fast;
    if (side == WHITE) {
        BB_FOR_EACH(to, squares)
            out[n++] = base + kings_rank(ix, free, (wk & ~bb_of(square)) | bb_of(to), bk);
        return n;
    }
    /* White's kings stay: their part of the number is found once */
    base += set_rank(free, wk) * choose(bb_count(free) - ix->m.kings[WHITE], ix->m.kings[BLACK]);
    BB_FOR_EACH(to, squares)
        out[n++] = base + set_rank(free & ~wk, (bk & ~bb_of(square)) | bb_of(to));
    return n;
}

CPU_CLONES(int, index_of_king_moves,
           (const struct material_index *ix, uint64_t men_config, const struct position *p,
            enum side side, int square, bb_t squares, uint64_t *out),
           (ix, men_config, p, side, square, squares, out))

int index_of_king_moves(const struct material_index *ix, uint64_t men_config,
                        const struct position *p, enum side side, int square, bb_t squares,
                        uint64_t *out)
{
    return CPU_CHOOSE(index_of_king_moves)(ix, men_config, p, side, square, squares, out);
}

void index_king_images(const struct material_index *ix, const struct position *p,
                       struct king_images *out)
{
    king_images_body(ix, p->kings[WHITE], p->kings[BLACK], out);
}

static ALWAYS_INLINE uint64_t index_of_images_body(const struct material_index *ix,
                                                   const struct king_images *im, int *fixing,
                                                   const bool fast)
{
    uint64_t min_w, min_b;
    (void)fast;
    smallest_image(ix->g->num_syms, im, false, &min_w, &min_b, fixing);
    return reduced_index(ix, dense_kings_rank(ix, min_w, min_b));
}

CPU_CLONES(uint64_t, index_of_images,
           (const struct material_index *ix, const struct king_images *im, int *fixing),
           (ix, im, fixing))

uint64_t index_of_images(const struct material_index *ix, const struct king_images *im,
                         int *fixing)
{
    return CPU_CHOOSE(index_of_images)(ix, im, fixing);
}

static ALWAYS_INLINE uint64_t index_of_moved_body(const struct material_index *ix,
                                                  const struct king_images *im, enum side side,
                                                  int from, int to, int *fixing, const bool fast)
{
    const struct geometry *g = ix->g;
    struct king_images moved = *im;
    uint64_t *sets = side == WHITE ? moved.white : moved.black;
    int dense_from = g->dense_of[from], dense_to = g->dense_of[to];
    for (int s = SYM_IDENTITY; s < g->num_syms; s++)
        sets[s] = (sets[s] & ~((uint64_t)1 << ix->image[s][dense_from])) |
                  (uint64_t)1 << ix->image[s][dense_to];
    return index_of_images_body(ix, &moved, fixing, fast);
}

CPU_CLONES(uint64_t, index_of_moved,
           (const struct material_index *ix, const struct king_images *im, enum side side,
            int from, int to, int *fixing),
           (ix, im, side, from, to, fixing))

uint64_t index_of_moved(const struct material_index *ix, const struct king_images *im,
                        enum side side, int from, int to, int *fixing)
{
    return CPU_CHOOSE(index_of_moved)(ix, im, side, from, to, fixing);
}

static ALWAYS_INLINE uint64_t index_of_body(const struct material_index *ix,
                                            const struct position *p, bool *representative,
                                            const bool fast)
{
    uint64_t men_config = ix->reduced ? 0 : men_rank(ix, p->men[WHITE], p->men[BLACK]);
    return index_of_kings_body(ix, men_config, p, representative, fast);
}

CPU_CLONES(uint64_t, index_of,
           (const struct material_index *ix, const struct position *p, bool *representative),
           (ix, p, representative))

uint64_t index_of(const struct material_index *ix, const struct position *p,
                  bool *representative)
{
    return CPU_CHOOSE(index_of)(ix, p, representative);
}

static ALWAYS_INLINE uint64_t index_men_config_of_body(const struct material_index *ix,
                                                       const struct position *p,
                                                       const bool fast)
{
    (void)fast;
    return men_rank(ix, p->men[WHITE], p->men[BLACK]);
}

CPU_CLONES(uint64_t, index_men_config_of,
           (const struct material_index *ix, const struct position *p), (ix, p))

uint64_t index_men_config_of(const struct material_index *ix, const struct position *p)
{
    return CPU_CHOOSE(index_men_config_of)(ix, p);
}

static ALWAYS_INLINE uint64_t index_of_in_config_body(const struct material_index *ix,
                                                      uint64_t men_config,
                                                      const struct position *p,
                                                      const bool fast)
{
    return index_of_kings_body(ix, men_config, p, NULL, fast);
}

CPU_CLONES(uint64_t, index_of_in_config,
           (const struct material_index *ix, uint64_t men_config, const struct position *p),
           (ix, men_config, p))

uint64_t index_of_in_config(const struct material_index *ix, uint64_t men_config,
                            const struct position *p)
{
    return CPU_CHOOSE(index_of_in_config)(ix, men_config, p);
}

/* The unreduced number of the i-th representative. */
static ALWAYS_INLINE uint64_t class_select(const struct material_index *ix, uint64_t i,
                                           const bool fast)
{
    /* the last word whose rank is <= i: at or after the one holding representative
     * 64 (i / 64), at or before the one holding 64 (i / 64 + 1) */
    uint64_t lo = ix->select_from[i / 64], hi = (uint64_t)ix->select_from[i / 64 + 1] + 1;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (ix->classes[mid].rank <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo * 64 +
           (uint64_t)select_square(ix->classes[lo].bits, (int)(i - ix->classes[lo].rank), fast);
}

static ALWAYS_INLINE void index_men_position_body(const struct material_index *ix,
                                                  uint64_t men_config, enum side side,
                                                  struct position *out, const bool fast)
{
    memset(out, 0, sizeof *out);
    out->side = side;
    if (!ix->reduced)
        men_unrank(ix, men_config, &out->men[WHITE], &out->men[BLACK], fast);
}

CPU_CLONES(void, index_men_position,
           (const struct material_index *ix, uint64_t men_config, enum side side,
            struct position *out),
           (ix, men_config, side, out))

void index_men_position(const struct material_index *ix, uint64_t men_config, enum side side,
                        struct position *out)
{
    CPU_CHOOSE(index_men_position)(ix, men_config, side, out);
}

static ALWAYS_INLINE void index_place_kings_body(const struct material_index *ix, uint64_t i,
                                                 struct position *p, const bool fast)
{
    if (ix->reduced) {
        kings_unrank(ix, ix->g->board, class_select(ix, i, fast), &p->kings[WHITE],
                     &p->kings[BLACK], fast);
        return;
    }
    bb_t men = p->men[WHITE] | p->men[BLACK];
    kings_unrank(ix, ix->g->board & ~men, remainder_of(i, ix->by_king_count), &p->kings[WHITE],
                 &p->kings[BLACK], fast);
}

CPU_CLONES(void, index_place_kings,
           (const struct material_index *ix, uint64_t i, struct position *p), (ix, i, p))

void index_place_kings(const struct material_index *ix, uint64_t i, struct position *p)
{
    CPU_CHOOSE(index_place_kings)(ix, i, p);
}

static ALWAYS_INLINE void index_position_body(const struct material_index *ix, uint64_t i,
                                              enum side side, struct position *out,
                                              const bool fast)
{
    index_men_position_body(ix, index_men_config(ix, i), side, out, fast);
    index_place_kings_body(ix, i, out, fast);
}

CPU_CLONES(void, index_position,
           (const struct material_index *ix, uint64_t i, enum side side, struct position *out),
           (ix, i, side, out))

void index_position(const struct material_index *ix, uint64_t i, enum side side,
                    struct position *out)
{
    CPU_CHOOSE(index_position)(ix, i, side, out);
}

int index_men_progress(const struct material_index *ix, uint64_t men_config)
{
    const struct geometry *g = ix->g;
    bb_t wm, bm;
    int progress = 0, b;
    men_unrank(ix, men_config, &wm, &bm, false);
    BB_FOR_EACH(b, wm)
        progress += g->rank_of[b];
    BB_FOR_EACH(b, bm)
        progress += g->ranks - 1 - g->rank_of[b];
    return progress;
}

/* The next larger set of as many elements as set (not empty) in a word: the order in
 * which set_rank numbers the sets (colex). */
static uint64_t next_same_count(uint64_t set)
{
    uint64_t lowest = set & -set, raised = set + lowest;
    return raised | (((raised ^ set) >> 2) >> bb_first(lowest));
}

/* The progress of Black's men on the free squares: by the dense number of each free
 * square, what a black man there has advanced. */
static void black_progress_by_place(const struct material_index *ix, bb_t free, int *out)
{
    int b, d = 0;
    BB_FOR_EACH(b, free)
        out[d++] = ix->g->ranks - 1 - ix->g->rank_of[b];
}

void index_men_progress_all(const struct material_index *ix, int *progress)
{
    const struct geometry *g = ix->g;
    int black_men = ix->m.men[BLACK];
    for (uint64_t w = 0; w < ix->white_combinations; w++) {
        bb_t wm = set_unrank(ix->men_allowed[WHITE], w, ix->m.men[WHITE], false);
        int white = 0, by_place[MAX_SQUARES], b;
        BB_FOR_EACH(b, wm)
            white += g->rank_of[b];
        black_progress_by_place(ix, ix->men_allowed[BLACK] & ~wm, by_place);
        /* Black's sets in rank order: their dense numbers as bits, each the next larger */
        uint64_t set = black_men == 0 ? 0 : ((uint64_t)1 << black_men) - 1;
        for (uint64_t r = ix->black_men_start[w]; r < ix->black_men_start[w + 1]; r++) {
            int black = 0, d;
            BB_FOR_EACH(d, set)
                black += by_place[d];
            progress[r] = white + black;
            if (set != 0)
                set = next_same_count(set);
        }
    }
}

int index_class_members(const struct material_index *ix, const struct position *p,
                        struct position out[NUM_SYMS])
{
    int n = 0;
    for (int s = 0; s < (ix->reduced ? ix->g->num_syms : 1); s++) {
        struct position image = *p;
        for (int c = WHITE; c <= BLACK; c++)
            image.kings[c] = geometry_transform(ix->g, (enum symmetry)s, p->kings[c]);
        bool seen = false;
        for (int j = 0; j < n; j++)
            seen = seen || position_equal(&out[j], &image);
        if (!seen)
            out[n++] = image;
    }
    return n;
}

int index_class_size(const struct material_index *ix, const struct position *p)
{
    struct position members[NUM_SYMS];
    return index_class_members(ix, p, members);
}
