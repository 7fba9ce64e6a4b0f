/* What the rule-aware probe (probe/rules_probe.c) reads from the handle in
 * probe/damero.c, on the library's internal positions: the values without the rules, and
 * the rule tables (gen/rule_table.h). */
#ifndef DAMERO_PROBE_RULES_H
#define DAMERO_PROBE_RULES_H

#include <stdbool.h>

#include "format/value.h"
#include "probe/damero.h"

/* The DTM and MTC of p, as damero_probe reads them. Returns a damero status. */
int probe_plain_value(damero_tb *tb, const struct position *p, dtm_t *dtm, mtc_t *mtc);

/* The value under the rules of p's fresh state, from the rule table of p's material
 * under reading (0 or 1): *known is false when that table is not there (nor any value
 * of a position whose game is over). A table that is there but cannot be read fails as
 * the other tables do. Returns a damero status. Thread-safe. */
int probe_rules_fresh(damero_tb *tb, const struct position *p, int reading, dtm_t *value,
                      bool *known);

#endif
