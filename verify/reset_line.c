#include "verify/reset_line.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "core/notation.h"

/* The distance to the reset of p, a position of material t. */
static int state_distance(const struct table *t, const uint16_t *distance,
                          const struct position *p)
{
    uint64_t i = index_of(&t->ix, p, NULL);
    if (distance)
        return distance[(uint64_t)p->side * t->ix.size + i];
    return mtc_plies(t->mtc[p->side][i]);
}

/* Whether m, played from p, resets the rule's count. */
static bool resets(const struct move_limit_rule *rule, const struct position *p,
                   const struct move *m)
{
    if (m->captured)
        return true;
    if (rule->reset == RESET_CAPTURE_OR_MAN_MOVE)
        return (p->men[p->side] & bb_of(m->from)) != 0;
    return m->promotes;
}

/* The move of p along the distance d (> 0): for the winner a reset that keeps the win
 * when d is 1, else a move to a lost position one ply nearer; for the loser a move to a
 * won position one ply nearer, else (d is 1: every move resets) a reset. Returns the
 * move's place in list, or -1 when none is found. The tables of every material p's
 * moves lead to must be in ts. */
static int next_move(const struct tableset *ts, const struct table *t,
                     const struct move_limit_rule *rule, const uint16_t *distance,
                     const struct position *p, int d, const struct move_list *list)
{
    dtm_t here, after;
    struct position child;
    int reset = -1;
    if (tableset_value(ts, p, &here, NULL) < 0)
        return -1;
    for (int k = 0; k < list->count; k++) {
        const struct move *m = &list->moves[k];
        make_move(p, m, &child);
        if (tableset_value(ts, &child, &after, NULL) < 0)
            return -1; /* its table is not in memory: verify loads them (a bug) */
        bool keeps = dtm_is_win(here) == dtm_is_win(dtm_parent(after));
        if (!keeps)
            continue;
        if (resets(rule, p, m)) {
            if (reset < 0)
                reset = k;
            continue;
        }
        if (state_distance(t, distance, &child) == d - 1)
            return k;
    }
    return d == 1 ? reset : -1;
}

int reset_line(const struct tableset *ts, const struct table *t,
               const struct move_limit_rule *rule, const uint16_t *distance,
               const struct position *start, char *out, size_t size)
{
    struct move_list *list = malloc(sizeof *list);
    struct position p = *start;
    size_t used = 0;
    int plies = 0;
    out[0] = '\0';
    if (!list)
        return -1;
    for (int d = state_distance(t, distance, &p); d > 0; d--) {
        char text[MOVE_TEXT_SIZE];
        generate_moves(ts->v, &p, 0, list);
        int k = next_move(ts, t, rule, distance, &p, d, list);
        if (k < 0 || used + MOVE_TEXT_SIZE + 1 > size) {
            plies = -1;
            break;
        }
        move_text(ts->v, &list->moves[k], text);
        used += (size_t)snprintf(out + used, size - used, "%s%s", plies ? " " : "", text);
        plies++;
        if (resets(rule, &p, &list->moves[k]))
            break;
        struct position next;
        make_move(&p, &list->moves[k], &next);
        p = next;
    }
    free(list);
    return plies;
}
