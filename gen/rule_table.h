/* The rule tables: for each position, its value under the variant's move-limit rules in
 * its fresh state (docs/how-it-works.md, "Values under the rules: the table"), one file
 * per reading (.ru0, and .ru1 when a rule of the row has a second reading). */
#ifndef DAMERO_RULE_TABLE_H
#define DAMERO_RULE_TABLE_H

#include <stddef.h>

#include "gen/tableset.h"

/* How many rule tables a material of v has: one per reading of its row (0 without rules). */
int rule_table_readings(const struct variant *v);

/* Builds the rule tables of canonical material m into ts->dir, those not already there
 * whole. m's tables and those of every material its moves reach must be on disk or in
 * ts, with the rule tables of the latter (a build goes in building order). Does nothing
 * without rules, without a directory, or in a WDL-only set (which has no DTM). Sets
 * *built (when not NULL) to the files written. Returns 0, or -1 with a sentence in err. */
int rule_tables_build(struct tableset *ts, const struct material *m, int *built, char *err,
                      size_t err_size);

#endif
