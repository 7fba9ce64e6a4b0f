#include "verify/at_once.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rule_search.h"
#include "rulegen/rule_layers.h"

#define NOT_STARTED (-2000) /* the rule's count does not start where its ending arises */

/* ---- what the search reads ---- */

/* The tables without the rules. */
static int plain_value(void *context, const struct position *p, dtm_t *dtm, mtc_t *mtc)
{
    const struct tableset *ts = context;
    *mtc = MTC_NONE;
    return tableset_value(ts, p, dtm, ts->dtm_only ? NULL : mtc);
}

/* No rule table: the search goes on below every position (the rule's count runs in
 * every state it reaches, so it never stops at a plain value). */
static int no_fresh_value(void *context, const struct position *p, dtm_t *value, int *dtz,
                          bool *known)
{
    (void)context, (void)p, (void)value;
    *dtz = RULE_DTZ_UNKNOWN;
    *known = false;
    return 0;
}

/* Makes sure ts holds the table of every material a game from m can reach. */
static int load_closure(struct tableset *ts, const struct material *m, char *err,
                        size_t err_size)
{
    struct material *list = malloc(MATERIAL_CODES * sizeof *list);
    int n = list ? material_closure(ts->v, m, list, MATERIAL_CODES) : -1;
    if (n < 0)
        snprintf(err, err_size, "out of memory");
    for (int k = 0; k < n; k++)
        if (!tableset_get(ts, &list[k], err, err_size))
            n = -1;
    free(list);
    return n < 0 ? -1 : 0;
}

/* ---- one thread's counts ---- */

struct example {
    int played, plies;  /* played -1: none */
    uint64_t order;     /* where in the walk: of equal examples the first is kept, whichever
                           thread finds it */
    char fen[FEN_SIZE];
};

struct tally {
    uint64_t at_once[MAX_READINGS][PLAYED_MAX + 1][OUTCOMES];
    uint64_t drawn_by_others[MAX_READINGS][PLAYED_MAX + 1];
    struct example example[MAX_READINGS];
};

static void tally_init(struct tally *t)
{
    memset(t, 0, sizeof *t);
    for (int r = 0; r < MAX_READINGS; r++)
        t->example[r].played = -1;
}

/* Fewer moves played first, then the longer win under the rule alone, then the first. */
static bool better_example(const struct example *a, const struct example *b)
{
    if (a->played < 0 || b->played < 0)
        return b->played < 0 && a->played >= 0;
    if (a->played != b->played)
        return a->played < b->played;
    if (a->plies != b->plies)
        return a->plies > b->plies;
    return a->order < b->order;
}

/* Adds a thread's counts to the sum: integers, so the sum does not depend on the order. */
static void tally_add(struct tally *sum, const struct tally *t)
{
    for (int r = 0; r < MAX_READINGS; r++) {
        for (int played = 0; played <= PLAYED_MAX; played++) {
            for (int o = 0; o < OUTCOMES; o++)
                sum->at_once[r][played][o] += t->at_once[r][played][o];
            sum->drawn_by_others[r][played] += t->drawn_by_others[r][played];
        }
        if (better_example(&t->example[r], &sum->example[r]))
            sum->example[r] = t->example[r];
    }
}

/* ---- one position ---- */

/* The outcome for the strong side (White in the tables) of p under the search's rules,
 * rule k's count having run `plies`, every other count as p's fresh state has it. */
static int outcome_at_once(struct rule_search *search, int k, const struct position *p,
                           int plies, enum outcome *out)
{
    struct rule_counts c;
    struct rule_verdict v;
    rule_counts_fresh(search->row, p, &c);
    if (c.plies[k] == RULE_COUNT_NOT_STARTED)
        return NOT_STARTED; /* a bug: coverage.h and rule_state.h disagree */
    c.plies[k] = plies;
    if (search->used > RULE_STATES_KEPT)
        rule_search_clear(search);
    int status = rule_search_value(search, p, &c, &v);
    enum wdl strong = p->side == WHITE || v.wdl == WDL_DRAW ? v.wdl
                      : v.wdl == WDL_WIN                   ? WDL_LOSS
                                                           : WDL_WIN;
    *out = strong == WDL_WIN ? OUTCOME_WON : strong == WDL_LOSS ? OUTCOME_LOST : OUTCOME_DRAWN;
    return status;
}

/* Counts p (a position of rule k's endings) for every reading and moves played; alone:
 * the plies of the strong side's win without the rules, -1 when it has none. */
static int count_position(struct rule_search search[], const struct move_limit_rule *rule,
                          int k, const struct position *p, int alone, uint64_t order,
                          struct tally *t)
{
    for (int r = 0; r < move_limit_readings(rule); r++)
        for (int played = 0; played <= PLAYED_MAX; played++) {
            const struct limit_reading *lr = &rule->readings[r];
            int left = win_plies_left(lr, played, p->side == WHITE);
            enum outcome o;
            if (left < 0)
                break;
            int status = outcome_at_once(&search[r], k, p, played_plies(lr, played), &o);
            if (status != 0)
                return status;
            t->at_once[r][played][o]++;
            if (alone < 0 || alone > left || o != OUTCOME_DRAWN)
                continue; /* not a win in time under the rule alone that the others draw */
            t->drawn_by_others[r][played]++;
            struct example e = { played, alone, order, "" };
            if (better_example(&e, &t->example[r])) {
                fen_print(search[r].row->v, p, e.fen);
                t->example[r] = e;
            }
        }
    return 0;
}

/* ---- the material ---- */

/* A status of the search's or the oracle's as a sentence in err; returns -1. */
static int say_failure(int failure, const struct move_limit_rule *rule, char *err,
                       size_t err_size)
{
    snprintf(err, err_size, "%s under all the rules at once: %s", rule->name,
             failure == RULE_SEARCH_ERR_TOO_MANY ? "a position needs too large a search"
             : failure == RULE_SEARCH_ERR_MEMORY ? "out of memory"
             : failure == NOT_STARTED ? "its count does not start in a position of its ending"
                                      : "a table the search reads is missing");
    return -1;
}

/* The counts of one side to move, over every thread. */
static int count_side(const struct table *t, const struct rule_row rows[],
                      const struct rule_oracle *oracle, const struct move_limit_rule *rule,
                      int k, const struct condition *c, enum side side, struct tally *sum)
{
    int failure = 0;
    tally_init(sum);
#pragma omp parallel
    {
        struct rule_search search[MAX_READINGS];
        struct tally mine;
        tally_init(&mine);
        for (int r = 0; r < move_limit_readings(rule); r++)
            rule_search_init(&search[r], &rows[r], oracle, RULE_STATES_MAX);
#pragma omp for schedule(dynamic, 64)
        for (uint64_t i = 0; i < t->ix.size; i++) {
            struct position p, members[NUM_SYMS];
            int status;
#pragma omp atomic read
            status = failure;
            if (status != 0)
                continue;
            index_position(&t->ix, i, side, &p);
            dtm_t d = t->dtm[side][i];
            int alone = (side == WHITE ? dtm_is_win(d) : dtm_is_loss(d)) ? dtm_plies(d) : -1;
            int n = index_class_members(&t->ix, &p, members);
            for (int m = 0; m < n && status == 0; m++)
                if (condition_meets(c, &members[m]))
                    status = count_position(search, rule, k, &members[m], alone,
                                            i * NUM_SYMS + (uint64_t)m, &mine);
            if (status != 0) {
#pragma omp atomic write
                failure = status;
            }
        }
#pragma omp critical
        tally_add(sum, &mine);
        for (int r = 0; r < move_limit_readings(rule); r++)
            rule_search_free(&search[r]);
    }
    return failure;
}

int count_at_once(struct tableset *ts, const struct table *t, const struct move_limit_rule *rule,
                  const struct condition *c, struct rule_result *res[2][MAX_READINGS],
                  char *err, size_t err_size)
{
    const struct variant *v = ts->v;
    const struct rule_oracle oracle = { ts, plain_value, no_fresh_value, NULL, NULL };
    struct rule_row rows[MAX_READINGS];
    int k = 0;
    while (v->move_limits[k].name && &v->move_limits[k] != rule)
        k++;
    if (!v->move_limits[k].name)
        return 0; /* not one of the row's rules (a test's): no rules to be at once with */
    if (load_closure(ts, &t->m, err, err_size) < 0)
        return -1;
    for (int r = 0; r < move_limit_readings(rule); r++)
        if (rule_row_init(&rows[r], v, r) < 0) {
            snprintf(err, err_size, "%s has more than %d move-limit rules", v->name, RULES_MAX);
            return -1;
        }
    for (int side = WHITE; side <= BLACK; side++) {
        struct tally sum;
        int failure = count_side(t, rows, &oracle, rule, k, c, (enum side)side, &sum);
        if (failure != 0)
            return say_failure(failure, rule, err, err_size);
        for (int r = 0; r < move_limit_readings(rule); r++) {
            struct rule_result *x = res[side][r];
            memcpy(x->at_once, sum.at_once[r], sizeof x->at_once);
            memcpy(x->drawn_by_others, sum.drawn_by_others[r], sizeof x->drawn_by_others);
            x->others_played = sum.example[r].played;
            x->others_plies = sum.example[r].plies;
            memcpy(x->others_fen, sum.example[r].fen, sizeof x->others_fen);
        }
    }
    return 0;
}
