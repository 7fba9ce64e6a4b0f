/* Rules whose count starts at an event (the forzosa starts when a strong king occupies
 * the main diagonal): from which won positions before the event the strong side can
 * force it in a position it then wins within the limit. An attractor over the moves of
 * the material's positions that do not meet the precondition, least fixed point: the
 * strong side needs one good move, the lone side must have only good ones. */
#ifndef DAMERO_VERIFY_COUNT_START_H
#define DAMERO_VERIFY_COUNT_START_H

#include "store/tableset.h"
#include "rules/coverage.h"
#include "verify/verify.h"

/* For each side to move and reading k, adds to res[side][k] the won positions of t
 * before the count starts (wins_before) and those the strong side can convert in time
 * (convertible_before). Returns 0, or -1 when memory runs out. */
int count_convertible(const struct variant *v, const struct table *t,
                      const struct move_limit_rule *rule, const struct condition *c,
                      struct rule_result *res[2][MAX_READINGS]);

#endif
