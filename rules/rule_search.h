/* The value of a state (a position and its counts) under the move-limit rules, by a
 * search of the game tree under the counts, cut short wherever the tables decide.
 *
 * Shared by the probing library (probe/rules_probe.c) and the generator of the rule
 * tables (rulegen/rule_table.c): what it reads comes through a rule_oracle, so that each
 * reads its own way (table files through a cache, or arrays in memory). The cuts and why
 * they are exact: docs/how-it-works.md, "Values under the rules: the table". */
#ifndef DAMERO_RULES_RULE_SEARCH_H
#define DAMERO_RULES_RULE_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "rules/rule_state.h"
#include "format/value.h"

/* How the search reads values. Each function returns 0, or a negative status of the
 * caller's that the search passes back. */
struct rule_oracle {
    void *context;
    /* The DTM and MTC of p without the rules (mtc MTC_NONE when unknown). */
    int (*plain)(void *context, const struct position *p, dtm_t *dtm, mtc_t *mtc);
    /* The value under the rules of p's fresh state (counts as rule_counts_fresh gives
     * them), coded as a DTM, when a rule table holds it (*known); else the search goes
     * on below p, and where no count runs takes the plain value (flagged `beyond`).
     * *dtz: the fresh state's distance to zeroing when a distance table holds it (and
     * *known), else RULE_DTZ_UNKNOWN (rule_dtz_of_stored reads a stored one). */
    int (*fresh)(void *context, const struct position *p, dtm_t *value, int *dtz,
                 bool *known);
    /* Optional (NULL: not known): for a position won or lost without the rules, the
     * plies to the next capture or promotion, the winner keeping the win and taking the
     * fewest, the loser the most (rulegen/reset_distance.h), or -1 when not known for p. A
     * no-progress count reset only by those is cut by it, else by the MTC, which counts
     * man steps too and so is never more. */
    int (*reset_distance)(void *context, const struct position *p, int *plies);
    /* Optional (NULL: never stop): asked every RULE_SEARCH_STOP_EVERY states the search
     * visits; nonzero stops it with RULE_SEARCH_ERR_STOPPED. For a caller that bounds a
     * search's time, or drops it when nobody waits for the answer any more. */
    int (*stop)(void *context);
};

#define RULE_SEARCH_ERR_MEMORY (-1000)   /* out of memory */
#define RULE_SEARCH_ERR_TOO_MANY (-1001) /* more states than max_states */
#define RULE_SEARCH_ERR_STOPPED (-1002)  /* the oracle's stop function said so */

/* How many states the search visits between two questions to the oracle's stop
 * function: about a millisecond of search, so that a stop is heard at once and the
 * question costs nothing beside the probes. */
#define RULE_SEARCH_STOP_EVERY 1024

#define RULE_DTZ_UNKNOWN (-2)

struct rule_verdict {
    enum wdl wdl;
    int plies;      /* -1 in a draw */
    int dtz;        /* the plies to the end of the game or to the next zeroing move
                       (rule_counts_zeroing) that keeps the value under the rules, the
                       winner taking the fewest, the loser the most; -1 in a draw;
                       RULE_DTZ_UNKNOWN where the search took a value without it (a rule
                       table's fresh value, or `beyond`) */
    bool beyond;    /* a plain value was taken where no count runs and no rule table
                       held the fresh value: an approximation */
};

struct rule_memo_entry;

/* One search: its rules, its oracle and its transposition table. Not shared between
 * threads; the transposition table may be kept across calls of the same row, reading
 * and oracle. */
struct rule_search {
    const struct rule_row *row;
    const struct rule_oracle *oracle;
    size_t max_states;              /* the transposition table's bound */
    size_t distance_states;         /* rule_search_distance's: max_states / 1024 */
    struct rule_memo_entry *memo;
    size_t capacity, used;          /* capacity: 0 or a power of two */
    unsigned visits;                /* states visited, for the stop function */
};

/* Inline, as a probe under the rules starts and ends one at every call and most calls
 * never search (a rule table answers). */
static inline void rule_search_init(struct rule_search *s, const struct rule_row *row,
                                    const struct rule_oracle *oracle, size_t max_states)
{
    *s = (struct rule_search){ .row = row, .oracle = oracle, .max_states = max_states,
                               .distance_states = max_states / 1024 };
}

static inline void rule_search_free(struct rule_search *s)
{
    if (s->memo) /* none where nothing was searched */
        free(s->memo);
    s->memo = NULL;
    s->capacity = s->used = 0;
}

/* Empties the transposition table (keeping its memory). */
void rule_search_clear(struct rule_search *s);

/* The value of p under counts c (settled for p). Returns 0, a status of the oracle's,
 * RULE_SEARCH_ERR_MEMORY, RULE_SEARCH_ERR_TOO_MANY or RULE_SEARCH_ERR_STOPPED. */
int rule_search_value(struct rule_search *s, const struct position *p,
                      const struct rule_counts *c, struct rule_verdict *out);

/* Where v (the value of p under counts c, as rule_search_value gave it) is a win or a
 * loss whose distance to zeroing it does not know, searches for it: the least d, from
 * the fresh state's distance (a state's is never less) up to the plies (never more), such
 * that some winning move (in a win) or every move (in a loss) zeroes or leads to a state
 * whose distance is at most d - 1, asked again below it unless the bounds answer. It
 * stays unknown where the search meets a value taken `beyond`, or needs more than
 * distance_states new states. Returns 0, a status of the oracle's,
 * RULE_SEARCH_ERR_MEMORY or RULE_SEARCH_ERR_STOPPED. */
int rule_search_distance(struct rule_search *s, const struct position *p,
                         const struct rule_counts *c, struct rule_verdict *v);

/* Wins first by the fewest plies, then draws, then losses by the most plies. */
int rule_verdict_rank(struct rule_verdict v);

/* The value of a move for the side that plays it, from the value after it; `zeroing`:
 * the move is a zeroing one (rule_counts_zeroing, or it ends the game). */
struct rule_verdict rule_verdict_parent(struct rule_verdict child, bool zeroing);

/* A move's distance to zeroing for the side that plays it, from the distance after it:
 * -1 when the move draws; 1 when it zeroes; else one more than after it, or
 * RULE_DTZ_UNKNOWN when that is not known. */
int rule_dtz_parent(int child_dtz, bool drawn, bool zeroing);

/* The distance to zeroing a distance table stores for a state whose value under the
 * rules is `value` (coded as a DTM): 0 in a draw, where the game is over, and where the
 * generator did not know it (a win or loss in more than 0 plies never has 0); and back,
 * RULE_DTZ_UNKNOWN for the last. */
int rule_dtz_stored(dtm_t value, int dtz);
int rule_dtz_of_stored(dtm_t value, int stored);

/* A verdict as a DTM code (its wdl and plies), and back (dtz RULE_DTZ_UNKNOWN). */
dtm_t rule_verdict_code(struct rule_verdict v);
struct rule_verdict rule_verdict_of_code(dtm_t code);

#endif
