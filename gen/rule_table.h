/* The rule tables: for each position, its value under the variant's move-limit rules in
 * its fresh state (docs/how-it-works.md, "Values under the rules: the table"), one file
 * per reading (.ru0, and .ru1 when a rule of the row has a second reading). */
#ifndef DAMERO_RULE_TABLE_H
#define DAMERO_RULE_TABLE_H

#include <stddef.h>

#include "gen/tableset.h"

/* How many rule tables a material of v has: one per reading of its row (0 without rules). */
int rule_table_readings(const struct variant *v);

/* How rule_table_values solves a material that rules cover. */
enum rule_solver {
    RULE_SOLVER_ANY,     /* by layers where its counts run in step, else by the search */
    RULE_SOLVER_SEARCH,  /* by the search from every position (what the layers are
                            tested against) */
};

/* The fresh values of canonical material m under one reading into *t (its index and
 * DTM arrays; table_free frees them), as rule_tables_build writes them, by `solver`. The
 * tables rule_tables_build reads must be there. Returns 0, or -1 with a sentence in err. */
int rule_table_values(struct tableset *ts, const struct material *m, int reading,
                      enum rule_solver solver, struct table *t, char *err, size_t err_size);

/* Builds the rule tables of canonical material m into ts->dir, those not already there
 * whole. m's tables and those of every material its moves reach must be on disk or in
 * ts, with the rule tables of the latter (a build goes in building order). Does nothing
 * without rules, without a directory, or in a WDL-only set (which has no DTM). Sets
 * *built (when not NULL) to the files written. Returns 0, or -1 with a sentence in err. */
int rule_tables_build(struct tableset *ts, const struct material *m, int *built, char *err,
                      size_t err_size);

#endif
