/* A "must win within" rule under all of its variant's rules at once (docs/rules.md 5.10):
 * the rule's count may already have run some moves when its ending arises (the lone king
 * takes one of four kings and the 15-move count runs on), and the other counts of the
 * row run beside it (the 5-move main-road count, the no-progress counts), so that a win
 * in time under the rule alone can be a draw under the rules together.
 *
 * The state of a position p of the rule's endings with `played` moves already played:
 * the rule's count at that many plies (played_plies), its strong side the side with more
 * pieces; every other count as p's fresh state has it (rule_counts_fresh: the counts
 * that apply at p just started, the others not running). Its value is the rule search's
 * (rules/rule_search.h) over the tables without the rules: exact, since the rule's own
 * count runs until the game ends, so that no state reached is valued beyond the counts.
 *
 * Reading k of the rule is taken with reading k of the row (rule_row_init): the other
 * rules' reading k where they have two, their only one otherwise. */
#ifndef DAMERO_VERIFY_AT_ONCE_H
#define DAMERO_VERIFY_AT_ONCE_H

#include "rules/coverage.h"
#include "store/tableset.h"
#include "verify/verify.h"

/* For each side to move and reading k, adds to res[side][k] the outcomes under all the
 * rules at once of every legal position of t that meets c (each member of a symmetry
 * class, as the rule's own counts are made), for 0 to PLAYED_MAX moves played, and the
 * wins in time under the rule alone that they draw (at_once, drawn_by_others, others_*).
 * Loads the tables of every material a game from t can reach into ts. Counts nothing for
 * a rule that is not one of its variant's (move_limits). Returns 0, or -1 with a
 * sentence in err. */
int count_at_once(struct tableset *ts, const struct table *t, const struct move_limit_rule *rule,
                  const struct condition *c, struct rule_result *res[2][MAX_READINGS],
                  char *err, size_t err_size);

#endif
