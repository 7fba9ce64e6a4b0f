/* Which positions a move-limit rule covers: its endings (materials) and its
 * precondition (core/move_limit.h), as bitboards to test positions against. */
#ifndef DAMERO_RULES_COVERAGE_H
#define DAMERO_RULES_COVERAGE_H

#include <stdbool.h>

#include "core/move_limit.h"
#include "core/notation.h"
#include "format/material.h"

/* A rule's precondition as bitboards, in a table's orientation (White the strong side). */
struct condition {
    const struct precondition *words;
    /* by the strong side (WHITE, BLACK): the squares as that side sees them, so that a
     * position with Black the strong side is tested without flipping its colours */
    bb_t diagonal[2];               /* the long diagonal: file == rank */
    bb_t strong_man[2], weak_man[2]; /* 0: no condition */
};

struct condition condition_of(const struct variant *v, const struct precondition *c);

/* Whether p, White the strong side, meets the precondition. The long diagonal is mapped
 * onto itself by the four symmetries, so the positions of a symmetry class all meet
 * such a precondition or all miss it. */
bool condition_meets(const struct condition *c, const struct position *p);

/* The same with `strong` the strong side: as condition_meets on p's colours flipped
 * when it is BLACK. */
bool condition_meets_for(const struct condition *c, const struct position *p, int strong);

bool rule_has_precondition(const struct move_limit_rule *rule);

/* Whether canonical material m (White the strong side) is an ending the rule covers. */
bool rule_covers(const struct move_limit_rule *rule, const struct material *m);

/* The canonical materials of up to max_pieces pieces that a rule covers, in building
 * order; returns how many were written (at most capacity). */
int rule_materials(const struct variant *v, const struct move_limit_rule *rule,
                   int max_pieces, struct material *out, int capacity);

/* The fewest pieces an ending of the rule has (MATERIAL_MAX_PIECES + 1 when none). */
int rule_pieces_needed(const struct variant *v, const struct move_limit_rule *rule);

#endif
