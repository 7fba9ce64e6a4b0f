/* The rule tables: for each position, its value under the variant's move-limit rules in
 * its fresh state (docs/how-it-works.md, "Values under the rules: the table"), one file
 * per reading (.ru0, and .ru1 when a rule of the row has a second reading); and beside
 * each, the distance table (.rz0, .rz1): the same states' distance to zeroing ("The
 * distance to zeroing"). */
#ifndef DAMERO_RULEGEN_RULE_TABLE_H
#define DAMERO_RULEGEN_RULE_TABLE_H

#include <stddef.h>

#include "store/tableset.h"

/* How many rule tables a material of v has: one per reading of its row (0 without rules). */
int rule_table_readings(const struct variant *v);

/* How rule_table_values solves a material that rules cover. */
enum rule_solver {
    RULE_SOLVER_ANY,     /* by layers (rulegen/rule_layers.h) */
    RULE_SOLVER_SEARCH,  /* by the search from every position (what the layers are
                            tested against) */
};

/* A material's fresh values under one reading, and their distances to zeroing. */
struct rule_values {
    struct table t;       /* the index, and the values coded as DTM in t.dtm[side] */
    uint16_t *dtz[2];     /* by side and index: the distance to zeroing, 0 in a draw */
};

void rule_values_free(struct rule_values *r);

/* The fresh values and distances of canonical material m under one reading into *out
 * (rule_values_free frees them), as rule_tables_build writes them, by `solver`. The
 * tables rule_tables_build reads must be there. Returns 0, or -1 with a sentence in err. */
int rule_table_values(struct tableset *ts, const struct material *m, int reading,
                      enum rule_solver solver, struct rule_values *out, char *err,
                      size_t err_size);

/* Builds the rule and distance tables of canonical material m into ts->dir, those not
 * already there whole (a reading's two files are built together). m's tables and those of every material its moves reach must be on disk or in
 * ts, with the rule tables of the latter (a build goes in building order). Does nothing
 * without rules, without a directory, or in a WDL-only set (which has no DTM). Sets
 * *built (when not NULL) to the files written. Returns 0, or -1 with a sentence in err. */
int rule_tables_build(struct tableset *ts, const struct material *m, int *built, char *err,
                      size_t err_size);

#endif
