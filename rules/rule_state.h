/* The state of a game under its variant's move-limit rules: the counts.
 *
 * The value of a position under the rules depends on the position and on how far each
 * rule's count has run (docs/rules.md, 5.10, defines the state precisely). This is the
 * one place that says when a count starts, runs on, resets, ends and runs out; the
 * rule-aware probe (probe/rules_probe.c) walks games with it. It needs no table. */
#ifndef DAMERO_RULES_RULE_STATE_H
#define DAMERO_RULES_RULE_STATE_H

#include <stdbool.h>

#include "core/movegen.h"
#include "rules/coverage.h"
#include "format/material.h"

#define RULES_MAX 8                 /* more rules than any variant's row has */
#define RULE_COUNT_NOT_STARTED (-1)
#define RULE_STRONG_NONE (-1)

/* For each rule of the row, in the row's order: the plies played since its count
 * started, or RULE_COUNT_NOT_STARTED (also for a rule not in force); and for a running
 * "win within" count, the side it runs for (the side with more pieces when it started:
 * captures can leave as many pieces each, and the limit depends on whether that side
 * moved first), else RULE_STRONG_NONE. */
struct rule_counts {
    int plies[RULES_MAX];
    int strong[RULES_MAX];          /* enum side, or RULE_STRONG_NONE */
};

/* A variant's rules, ready to test positions against, under one reading. */
struct rule_row {
    const struct variant *v;
    int num;                        /* rules in the row */
    int reading;                    /* 0: each rule's first reading; 1: its second, where
                                       it has one (else its only one) */
    struct condition cond[RULES_MAX];
    unsigned preconditioned;        /* bit k set when rule k has a precondition */
    /* by material_code, for materials of up to MATERIAL_MAX_PIECES pieces: bit k set
     * when rule k covers the material, and when its strong side is then Black (a probe
     * under the rules asks at every call; the answer depends on the material only) */
    uint8_t in_force[MATERIAL_CODES], strong_black[MATERIAL_CODES];
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

/* Whether the counts run in step inside canonical material m: every rule in force there
 * is a no-progress rule without a precondition (its count starts at 0 in every fresh
 * state of m, and no count starts inside m), that a capture and a promotion reset (or
 * end, when the rule does not cover where they lead), and that a man step (where m has
 * men) either resets for all of them or for none. Then every state reached inside m from
 * a fresh state, until a move resets or ends the counts, has all its running counts at
 * the same plies, and that move leads to a fresh state: of another material, or of m
 * itself after a man step that resets them (rule_steps_reset). False when no rule
 * covers m. */
bool rule_counts_in_step(const struct rule_row *row, const struct material *m);

/* Whether a man step resets the counts in force in m (m has men, and its first rule in
 * force, like every other when rule_counts_in_step, is reset by a man move). */
bool rule_steps_reset(const struct rule_row *row, const struct material *m);

/* The facts of move m of p. */
struct move_facts move_facts_of(const struct position *p, const struct move *m);

/* Completes counts for p: a rule not in force gets RULE_COUNT_NOT_STARTED, unless it is a
 * "win within" rule whose count runs (such a count runs until the game ends); a rule in
 * force whose count has not started starts it at p when it has no precondition or p
 * meets it (the ending arises, or the precondition is first met, here). A running "win
 * within" count whose strong side is RULE_STRONG_NONE gets the side with more pieces at
 * p; with as many each, the position does not tell and it stays RULE_STRONG_NONE
 * (rule_counts_strong_unknown). Other counts get RULE_STRONG_NONE. */
void rule_counts_settle(const struct rule_row *row, const struct position *p,
                        struct rule_counts *counts);

/* The same, m being p's material (material_of(p)), which a probe has from its lookup. */
void rule_counts_settle_for(const struct rule_row *row, const struct position *p,
                            const struct material *m, struct rule_counts *counts);

/* The fresh counts of p: as rule_counts_settle gives them from none. */
void rule_counts_fresh(const struct rule_row *row, const struct position *p,
                       struct rule_counts *out);

/* The same, m being p's material (material_of(p)). */
void rule_counts_fresh_for(const struct rule_row *row, const struct position *p,
                           const struct material *m, struct rule_counts *out);

/* The counts after a move with facts f from p (counts settled for p) to child. */
void rule_counts_after(const struct rule_row *row, const struct position *p,
                       const struct rule_counts *in, struct move_facts f,
                       const struct position *child, struct rule_counts *out);

/* The running counts of `counts` (settled for p) that are not what p's fresh state has
 * (rule_counts_fresh): bit k set for rule k. Cheaper than making the fresh counts. */
unsigned rule_counts_differing(const struct rule_row *row, const struct position *p,
                               const struct rule_counts *counts);

/* The first running "win within" count of settled counts whose strong side is not
 * known (the caller gave none and p has as many pieces each), or -1. */
int rule_counts_strong_unknown(const struct rule_row *row, const struct rule_counts *counts);

/* The plies rule k's running count (settled for p, its strong side known) allows: a
 * "win within" count in moves allows one ply more when its strong side did not move
 * first, which the plies played and p's side to move tell. */
int rule_limit_plies(const struct rule_row *row, int k, const struct position *p,
                     const struct rule_counts *counts);

/* Whether a move that takes the counts from `before` to `after` (rule_counts_after) is a
 * zeroing move: a count started or was reset by it (it is at 0 after it), or a count
 * that ran before it no longer runs (its ending was left). The distance to zeroing under
 * the rules is the plies to the next such move or the end of the game. */
bool rule_counts_zeroing(const struct rule_row *row, const struct rule_counts *before,
                         const struct rule_counts *after);

/* Whether the state (p, counts), counts settled for p, has the distance to zeroing of
 * p's fresh state wherever the fresh value is its value: its counts are the fresh ones,
 * or p's material runs its counts in step (rule_counts_in_step) and the counts running
 * are exactly the fresh ones, all at the same plies (inside such a material the state
 * with k plies played is won or lost exactly when the fresh one's distance fits in what
 * is left of the count, and then with that distance: docs/how-it-works.md, "The distance
 * to zeroing"). */
bool rule_counts_keep_distance(const struct rule_row *row, const struct position *p,
                               const struct rule_counts *counts);

/* The first rule whose count has run out at p (the game is then drawn), or -1. */
int rule_counts_expired(const struct rule_row *row, const struct position *p,
                        const struct rule_counts *counts);

#endif
