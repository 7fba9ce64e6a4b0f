/* A dense numbering of the positions of one material: a bijection between them and
 * 0..size-1, the same for either side to move.
 *
 * The men come first (major part): White's men on the squares a White man can stand on
 * (man_squares: below White's promotion rank, and not behind the ranks White's men start
 * on), then Black's men on Black's such squares that White's men leave free. Each such
 * men configuration owns a run of king_count indices, which number the placements of
 * White's kings and then Black's kings on the squares the men leave.
 *
 * A material of kings only is reduced by the symmetries of the board (four on the
 * diagonal boards, eight on the orthogonal one): only one position of each class (its
 * representative: the one whose unreduced number is the smallest) gets an index, and
 * index_of() maps every position to its representative's. */
#ifndef DAMERO_INDEX_H
#define DAMERO_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "core/divider.h"
#include "format/material.h"

#define INDEX_VERSION 1 /* bump when the numbering changes: old tables become unreadable */

struct material_index {
    const struct geometry *g;
    struct material m;
    bool reduced;          /* kings only: one index per class of symmetric positions */
    uint64_t men_count;    /* men configurations */
    uint64_t king_count;   /* king placements per men configuration */
    uint64_t size;         /* positions per side to move */

    /* private */
    struct divider by_king_count;       /* king_count */
    struct divider by_black_placements; /* placements of Black's kings per White's */
    bb_t men_allowed[2];   /* squares a man of each side may stand on */
    uint64_t *black_men_start; /* per White men combination: first men index (and a sentinel) */
    uint64_t white_combinations;
    /* reduced: per 64 unreduced indexes, which are representatives and how many come
     * before; side by side, so that numbering a position reads one cache line */
    struct class_word { uint64_t bits, rank; } *classes;
    /* reduced: the word of classes holding representative number 64 k, for every k, and
     * the last word after them: the search for the i-th representative starts between
     * two of these, a few words apart and close in memory, instead of over all the words
     * (fewer than 2^32: the largest material has 3.5e9 unreduced placements) */
    uint32_t *select_from;
    uint64_t unreduced_size;
    uint8_t image[NUM_SYMS][MAX_SQUARES]; /* reduced: dense square -> its image's */
};

/* Prepares the numbering of material m on the variant's board, on the calling thread
 * (libdamero starts no thread). Returns 0, or -1 when memory runs out. */
int index_init(struct material_index *ix, const struct variant *v, const struct material *m);

/* index_init in steps, for the generator, which finds the symmetry classes of a kings-only
 * material on all its threads: index_start; then index_mark_classes for every word w below
 * index_class_words (none when the material has men), in any order and on any thread;
 * then index_count_classes. index_start returns as index_init. */
int index_start(struct material_index *ix, const struct variant *v, const struct material *m);
uint64_t index_class_words(const struct material_index *ix);
void index_mark_classes(struct material_index *ix, uint64_t w);
void index_count_classes(struct material_index *ix);
void index_free(struct material_index *ix);

/* The index of p, whose material must be exactly ix->m (p->side is ignored). For a
 * reduced material this is the index of p's representative, and *representative (when
 * not NULL) says whether p is that representative itself. Thread-safe. */
uint64_t index_of(const struct material_index *ix, const struct position *p,
                  bool *representative);

/* The two parts of index_of() in a material with men (not reduced), for a caller that
 * meets one men configuration many times: the configuration of p's men, and p's index
 * given that configuration. Thread-safe. */
uint64_t index_men_config_of(const struct material_index *ix, const struct position *p);
uint64_t index_of_in_config(const struct material_index *ix, uint64_t men_config,
                            const struct position *p);

/* The position with index i and side to move `side` (for a reduced material, the
 * representative). Thread-safe. */
void index_position(const struct material_index *ix, uint64_t i, enum side side,
                    struct position *out);

/* The same, in two steps, for walking the indices of one men configuration: its men
 * (no kings), then the kings of index i, which must belong to that configuration. */
void index_men_position(const struct material_index *ix, uint64_t men_config, enum side side,
                        struct position *out);
void index_place_kings(const struct material_index *ix, uint64_t i, struct position *p);

/* index_of() of p, whose men are those of configuration men_config, with its king of
 * `side` on square `square` put on each square of `squares` (empty ones) instead, the
 * other pieces staying: the positions one king move away, numbered without building them. Writes the indices to out in increasing order of
 * the squares and returns how many. Not for a reduced material. Thread-safe.
 * Use: the retrograde solver's predecessors by king moves. */
int index_of_king_moves(const struct material_index *ix, uint64_t men_config,
                        const struct position *p, enum side side, int square, bb_t squares,
                        uint64_t *out);

/* The images of a kings-only position's kings under the board's symmetries, as sets of
 * dense square numbers: what index_of_moved() needs to number the positions one
 * king move away without mapping each of them afresh. */
struct king_images {
    uint64_t white[NUM_SYMS], black[NUM_SYMS];
};
void index_king_images(const struct material_index *ix, const struct position *p,
                       struct king_images *out);

/* index_of() in a reduced (kings-only) material of the position whose kings' images are
 * *im, with how many of the board's symmetries map it onto itself in *fixing: 1 for most
 * positions; in general the board's number of symmetries over its index_class_size.
 * Thread-safe. */
uint64_t index_of_images(const struct material_index *ix, const struct king_images *im,
                         int *fixing);

/* index_of_images() of the position whose kings' images are *im after a king of `side`
 * moved from square `from` to square `to` (square bits), *im unchanged: a predecessor's
 * number without mapping it afresh. Thread-safe. */
uint64_t index_of_moved(const struct material_index *ix, const struct king_images *im,
                        enum side side, int from, int to, int *fixing);

/* The men configuration of index i (0..men_count-1; always 0 in a reduced material, whose
 * size is below king_count), and how far its men have advanced:
 * every man move raises this by exactly one, so configurations can be solved from the
 * most advanced down. */
static inline uint64_t index_men_config(const struct material_index *ix, uint64_t i)
{
    return divide(i, ix->by_king_count);
}
int index_men_progress(const struct material_index *ix, uint64_t men_config);

/* index_men_progress() of every men configuration (progress[0..men_count-1]): Black's
 * sets are stepped through in order rather than each decoded, many times faster for
 * materials of many men. */
void index_men_progress_all(const struct material_index *ix, int *progress);

/* How many distinct positions the representative p stands for (1 to the board's number
 * of symmetries; 1 when the material is not reduced). */
int index_class_size(const struct material_index *ix, const struct position *p);

/* The distinct images of p under the board's symmetries (just p when not reduced), p first.
 * Returns how many were written. */
int index_class_members(const struct material_index *ix, const struct position *p,
                        struct position out[NUM_SYMS]);

#endif
