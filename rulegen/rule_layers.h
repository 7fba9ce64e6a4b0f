/* The fresh values under the rules of a material that a rule without a precondition
 * covers, or whose counts run in step (rule_counts_in_step), and their distances to
 * zeroing, by layers of plies played instead of a search from each position:
 * docs/how-it-works.md, "Values under the rules: the table". */
#ifndef DAMERO_RULEGEN_RULE_LAYERS_H
#define DAMERO_RULEGEN_RULE_LAYERS_H

#include "format/index.h"
#include "rules/rule_search.h"

/* The generator's searches under the rules (rulegen/rule_table.c, and here those that value
 * the moves out of the material): a thread's transposition table is emptied before a
 * position once it holds RULE_STATES_KEPT states (about 50 MB), and a search may hold
 * at most RULE_STATES_MAX. */
#define RULE_STATES_KEPT ((size_t)1 << 19)
#define RULE_STATES_MAX ((size_t)1 << 24)

/* What values[side][index] holds for a position not solved yet: no DTM code has it. */
#define RULE_VALUE_PENDING ((dtm_t)0xffff)

/* The value under the rules of every position of ix's material (canonical; a rule
 * without a precondition covers it under row, or its counts run in step) in its fresh
 * state, into values[side][index], coded as DTM, and its distance to zeroing into
 * dtz[side][index] (0 in a draw, and where an exit's distance is not known: as
 * rule_dtz_stored stores it). Where man steps reset the
 * counts (rule_steps_reset), a man step leads to a fresh state of the material itself, a
 * level of men advancement more advanced: the values are solved a level at a time, and
 * the oracle's `fresh` must give those of values[] that are no longer
 * RULE_VALUE_PENDING, with their distances (the other positions of the material are not
 * asked for). The
 * oracle gives the values without the rules and the fresh values of the other materials,
 * as to the search (which values the moves out of the material through it). On every
 * OpenMP thread; the values do not depend on their number. Returns 0, or a status of
 * the oracle's or the search's (rules/rule_search.h). */
int rule_layers_solve(const struct rule_row *row, const struct rule_oracle *oracle,
                      const struct material_index *ix, dtm_t *values[2], uint16_t *dtz[2]);

#endif
