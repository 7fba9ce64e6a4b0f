/* The state of a game under its variant's move-limit rules: the counts.
 *
 * The value of a position under the rules depends on the position and on how far each
 * rule's count has run (docs/rules.md, 5.10, defines the state precisely). This is the
 * one place that says when a count starts, runs on, resets, ends and runs out; the
 * rule-aware probe (probe/rules_probe.c) walks games with it. It needs no table. */
#ifndef DAMERO_FORMAT_RULE_STATE_H
#define DAMERO_FORMAT_RULE_STATE_H

#include <stdbool.h>

#include "core/movegen.h"
#include "format/coverage.h"

#define RULES_MAX 8                 /* more rules than any variant's row has */
#define RULE_COUNT_NOT_STARTED (-1)

/* For each rule of the row, in the row's order: the plies played since its count
 * started, or RULE_COUNT_NOT_STARTED (also for a rule not in force). */
struct rule_counts {
    int plies[RULES_MAX];
};

/* A variant's rules, ready to test positions against, under one reading. */
struct rule_row {
    const struct variant *v;
    int num;                        /* rules in the row */
    int reading;                    /* 0: each rule's first reading; 1: its second, where
                                       it has one (else its only one) */
    struct condition cond[RULES_MAX];
};

/* What a move did that a count cares about. */
struct move_facts {
    bool capture, man_move, promotion;
};

/* Returns 0, or -1 when the row has more than RULES_MAX rules or reading is not 0 or 1. */
int rule_row_init(struct rule_row *row, const struct variant *v, int reading);

static inline const struct move_limit_rule *row_rule(const struct rule_row *row, int k)
{
    return &row->v->move_limits[k];
}

/* Whether rule k covers p's material (its precondition aside), and which side is the
 * strong one (the side with more pieces; White when both have as many). */
bool rule_in_force(const struct rule_row *row, int k, const struct position *p,
                   enum side *strong);

/* The facts of move m of p. */
struct move_facts move_facts_of(const struct position *p, const struct move *m);

/* Completes counts for p: a rule not in force gets RULE_COUNT_NOT_STARTED, unless it is a
 * "win within" rule whose count runs (such a count runs until the game ends); a rule in
 * force whose count has not started starts it at p when it has no precondition or p
 * meets it (the ending arises, or the precondition is first met, here). */
void rule_counts_settle(const struct rule_row *row, const struct position *p,
                        struct rule_counts *counts);

/* The counts after a move with facts f from p (counts settled for p) to child. */
void rule_counts_after(const struct rule_row *row, const struct position *p,
                       const struct rule_counts *in, struct move_facts f,
                       const struct position *child, struct rule_counts *out);

/* The plies rule k's running count allows, `count` plies played, seen from p: the
 * strong side is the side with more pieces at p. */
int rule_limit_plies(const struct rule_row *row, int k, const struct position *p, int count);

/* The fewest and the most plies rule k's count can allow, whatever the position: the
 * limit of a count in moves is one ply longer when the strong side did not move first,
 * and which side that is can change with the material (rule_limit_plies). */
void rule_limit_bounds(const struct rule_row *row, int k, int *least, int *most);

/* The first rule whose count has run out at p (the game is then drawn), or -1. */
int rule_counts_expired(const struct rule_row *row, const struct position *p,
                        const struct rule_counts *counts);

#endif
