/* Materials: which pieces each side has, written like KKMvK (White first, kings then men).
 *
 * A table is built once per material in its canonical colour orientation: the side with
 * more pieces (then more kings) is White. A position of the mirrored material, like KvKK,
 * is looked up through the colour flip (position_flip_colours). Every material a move can
 * reach has fewer pieces (a capture) or as many pieces and fewer men (a promotion), so
 * building in order of pieces, then men, builds every dependency first. */
#ifndef DAMERO_MATERIAL_H
#define DAMERO_MATERIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/position.h"

#define MATERIAL_MAX_PIECES 8 /* pieces on the board in all; far beyond what can be built */
/* Room for the name of any position's material, not only of a table's: a position of 9
 * or more pieces is named in messages ("no table has 9 pieces", a move's material). */
#define MATERIAL_NAME_SIZE (MAX_SQUARES + 2)

struct material {
    int kings[2]; /* indexed by enum side */
    int men[2];
};

static inline int material_side_pieces(const struct material *m, enum side s)
{
    return m->kings[s] + m->men[s];
}

static inline int material_pieces(const struct material *m)
{
    return material_side_pieces(m, WHITE) + material_side_pieces(m, BLACK);
}

static inline int material_men(const struct material *m) { return m->men[WHITE] + m->men[BLACK]; }

static inline bool material_equal(const struct material *a, const struct material *b)
{
    return a->kings[0] == b->kings[0] && a->kings[1] == b->kings[1] &&
           a->men[0] == b->men[0] && a->men[1] == b->men[1];
}

/* A small number naming the material, for direct lookup tables. */
#define MATERIAL_CODES ((MATERIAL_MAX_PIECES + 1) * (MATERIAL_MAX_PIECES + 1) * \
                        (MATERIAL_MAX_PIECES + 1) * (MATERIAL_MAX_PIECES + 1))
static inline int material_code(const struct material *m)
{
    int n = MATERIAL_MAX_PIECES + 1;
    return ((m->kings[WHITE] * n + m->men[WHITE]) * n + m->kings[BLACK]) * n + m->men[BLACK];
}

/* Reads a signature like "KKMvK". Both sides need at least one piece, and the variant
 * caps pieces per side. Returns 0, or -1 with a sentence in err. */
int material_parse(const struct variant *v, const char *text, struct material *m, char *err,
                   size_t err_size);

/* Writes the signature of m ("KKMvK"). */
void material_name(const struct material *m, char name[MATERIAL_NAME_SIZE]);

/* The material of a position. */
struct material material_of(const struct position *p);

/* The same material with colours swapped. */
struct material material_flipped(const struct material *m);

/* Whether m is in canonical orientation (the one tables are built for). */
bool material_is_canonical(const struct material *m);

/* Whether swapping colours gives the same material (KvK, KMvKM): its table then holds
 * each position twice, once per colour. */
bool material_is_symmetric(const struct material *m);

/* Orders materials for building: fewer pieces first, then fewer men, then by name. */
int material_compare(const struct material *a, const struct material *b);

/* Every canonical material of the variant with n pieces in all, 2 <= n, in building
 * order. Returns how many were written (at most capacity). */
int material_list(const struct variant *v, int pieces, struct material *out, int capacity);

#define MAX_SUCCESSORS 256 /* more than material_successors() ever writes */

/* The canonical materials one move of m can reach that still have pieces on both sides:
 * after captures (any number of pieces of the side not moving) and after a man's
 * promotion, sorted in building order. Returns how many were written. */
int material_successors(const struct variant *v, const struct material *m,
                        struct material *out, int capacity);

/* m's successors, theirs, and so on (m excluded): every material a game from m can
 * reach. Returns how many were written (at most capacity), or -1 when memory runs out. */
int material_closure(const struct variant *v, const struct material *m,
                     struct material *out, int capacity);

/* Positions of m per side to move, counting every square as open to men and the symmetry
 * reduction as perfect: close for kings only, high for men (index_init counts them
 * exactly, slowly for kings only). What planning and progress weigh materials by. */
double material_positions_estimate(const struct variant *v, const struct material *m);

#endif
