/* What the rule-aware probe (probe/rules_probe.c) reads from the handle in
 * probe/damero.c, on the library's internal positions: the values without the rules, and
 * the rule tables (rulegen/rule_table.h). */
#ifndef DAMERO_PROBE_RULES_H
#define DAMERO_PROBE_RULES_H

#include <stdbool.h>

#include "rules/rule_state.h"
#include "format/value.h"
#include "probe/damero.h"

/* The handle's move-limit rules under reading (0 or 1), made when it opened; NULL for
 * another reading. */
const struct rule_row *probe_rule_row(const damero_tb *tb, int reading);

/* pos on the internal board, checked as every call checks it (squares, side to move, a
 * position that can stand). Returns a damero status. */
int probe_position_in(const damero_tb *tb, const damero_position *pos, struct position *p);

/* The DTM and MTC of p, as damero_probe reads them. Returns a damero status. */
int probe_plain_value(damero_tb *tb, const struct position *p, dtm_t *dtm, mtc_t *mtc);

/* The value under the rules of p's fresh state, from the rule table of p's material
 * under reading (0 or 1): *known is false when that table is not there (nor any value
 * of a position whose game is over); and its distance to zeroing from the distance table
 * beside it, RULE_DTZ_UNKNOWN when that is not there (-1 is never given: a draw's is 0).
 * A table that is there but cannot be read fails as the other tables do. Returns a
 * damero status. Thread-safe. */
int probe_rules_fresh(damero_tb *tb, const struct position *p, int reading, dtm_t *value,
                      int *dtz, bool *known);

/* At once what the probe under the rules first reads of p: its DTM and MTC, and its
 * rule table's value and distance under reading as probe_rules_fresh gives them, with one lookup of the
 * material and the index; where p is a draw, which it is under the rules too, the rule
 * table is not read and *fresh is that draw (*known true, with or without rule tables).
 * *m is p's material (material_of(p)), as the lookup found it. Returns a damero status.
 * Thread-safe. */
int probe_values(damero_tb *tb, const struct position *p, int reading, dtm_t *dtm,
                 mtc_t *mtc, dtm_t *fresh, int *dtz, bool *known, struct material *m);

/* DTM and MTC codes as damero_probe returns them. */
damero_value probe_public_value(dtm_t dtm, mtc_t mtc);

#endif
