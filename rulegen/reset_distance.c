#include "rulegen/reset_distance.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/movegen.h"

/* The moves inside one material between its won and lost positions (state = side *
 * size + index), forward and backward, for the distance below. */
struct state_graph {
    uint64_t n;
    uint64_t *first, *back_first; /* n + 1 each */
    uint32_t *to, *from;
    uint8_t *resets;              /* per state: 1 when a move that keeps its value resets */
};

static void state_graph_free(struct state_graph *g)
{
    free(g->first);
    free(g->back_first);
    free(g->to);
    free(g->from);
    free(g->resets);
}

static dtm_t state_dtm(const struct table *t, uint64_t s)
{
    return t->dtm[s >= t->ix.size][s % t->ix.size];
}

/* The moves of state s that the distance follows: for a won position the winning ones,
 * for a lost one all. A capture or promotion resets the count (noted in *resets), any
 * other move stays in the material: its target is written to `to` (when not NULL).
 * Returns how many targets. */
static int state_moves(const struct tableset *ts, const struct table *t, uint64_t s,
                       struct move_list *list, uint32_t *to, uint8_t *resets)
{
    enum side side = (enum side)(s >= t->ix.size);
    dtm_t d = state_dtm(t, s);
    struct position p, child;
    int n = 0;
    *resets = 0;
    if (d == DTM_DRAW)
        return 0;
    index_position(&t->ix, s % t->ix.size, side, &p);
    generate_moves(ts->v, &p, 0, list);
    for (int k = 0; k < list->count; k++) {
        const struct move *m = &list->moves[k];
        dtm_t after;
        make_move(&p, m, &child);
        tableset_value(ts, &child, &after, NULL);
        if (dtm_is_win(d) && !dtm_is_win(dtm_parent(after)))
            continue; /* the winner keeps to winning moves */
        if (m->captured || m->promotes) {
            *resets = 1;
            continue;
        }
        if (to)
            to[n] = (uint32_t)((side_other(side) == BLACK ? t->ix.size : 0) +
                               index_of(&t->ix, &child, NULL));
        n++;
    }
    return n;
}

/* Runs state_moves over every state on every thread: counting each state's targets
 * into first[s + 1], or (fill) writing them where first says. */
static int walk_states(const struct tableset *ts, const struct table *t,
                       struct state_graph *g, bool fill)
{
    int failed = 0;
#pragma omp parallel reduction(| : failed)
    {
        struct move_list *list = malloc(sizeof *list);
        failed = !list;
#pragma omp for schedule(dynamic, 1024)
        for (uint64_t s = 0; s < g->n; s++) {
            if (!list)
                continue;
            int n = state_moves(ts, t, s, list, fill ? g->to + g->first[s] : NULL,
                                &g->resets[s]);
            if (!fill)
                g->first[s + 1] = (uint64_t)n;
        }
        free(list);
    }
    return failed ? -1 : 0;
}

static int build_state_graph(const struct tableset *ts, const struct table *t,
                             struct state_graph *g)
{
    uint64_t n = 2 * t->ix.size;
    memset(g, 0, sizeof *g);
    g->n = n;
    g->first = calloc(n + 1, sizeof *g->first);
    g->back_first = calloc(n + 2, sizeof *g->back_first);
    g->resets = malloc(n + 1);
    if (!g->first || !g->back_first || !g->resets || walk_states(ts, t, g, false) < 0)
        return -1;
    for (uint64_t s = 0; s < n; s++)
        g->first[s + 1] += g->first[s];
    if (!(g->to = malloc((g->first[n] + 1) * sizeof *g->to)) ||
        !(g->from = malloc((g->first[n] + 1) * sizeof *g->from)) ||
        walk_states(ts, t, g, true) < 0)
        return -1;
    /* the moves backward, by a counting sort on their targets */
    for (uint64_t e = 0; e < g->first[n]; e++)
        g->back_first[g->to[e] + 2]++;
    for (uint64_t s = 0; s < n; s++)
        g->back_first[s + 2] += g->back_first[s + 1];
    for (uint64_t s = 0; s < n; s++)
        for (uint64_t e = g->first[s]; e < g->first[s + 1]; e++)
            g->from[g->back_first[g->to[e] + 1]++] = (uint32_t)s;
    return 0;
}

/* Distances grow one level at a time, like the generator's agendas: the states at each
 * distance. */
struct level {
    uint32_t *states;
    size_t count, capacity;
};

struct levels {
    struct level *at;
    size_t num;
};

static int level_push(struct levels *l, int level, uint32_t s)
{
    if (array_reserve(&l->at, &l->num, (size_t)level + 1, sizeof *l->at) < 0)
        return -1;
    struct level *at = &l->at[level];
    if (array_reserve(&at->states, &at->capacity, at->count + 1, sizeof *at->states) < 0)
        return -1;
    at->states[at->count++] = s;
    return 0;
}

static void levels_free(struct levels *l)
{
    for (size_t k = 0; k < l->num; k++)
        free(l->at[k].states);
    free(l->at);
}

int distance_to_capture_or_promotion(const struct tableset *ts, const struct table *t,
                                     uint16_t *dist)
{
    struct state_graph g;
    struct levels l = { 0 };
    uint64_t n = 2 * t->ix.size;
    uint16_t *longest = malloc((n + 1) * sizeof *longest); /* lost: the worst so far */
    uint32_t *left = malloc((n + 1) * sizeof *left);       /* lost: moves not settled */
    int status = longest && left ? build_state_graph(ts, t, &g) : -1;
    for (uint64_t s = 0; status == 0 && s < n; s++) {
        dtm_t d = state_dtm(t, s);
        dist[s] = NO_DISTANCE;
        left[s] = (uint32_t)(g.first[s + 1] - g.first[s]);
        longest[s] = g.resets[s]; /* a resetting move delays by one ply */
        if (dtm_is_win(d) && g.resets[s])
            dist[s] = 1;
        else if (dtm_is_loss(d) && left[s] == 0)
            dist[s] = longest[s];
        if (dist[s] != NO_DISTANCE)
            status = level_push(&l, dist[s], (uint32_t)s);
    }
    /* l.at may move as levels are added: read each level's states through it */
    for (int level = 0; status == 0 && (size_t)level < l.num; level++)
        for (size_t k = 0; status == 0 && k < l.at[level].count; k++) {
            uint32_t s = l.at[level].states[k];
            bool won = dtm_is_win(state_dtm(t, s));
            for (uint64_t e = g.back_first[s]; status == 0 && e < g.back_first[s + 1]; e++) {
                uint32_t p = g.from[e];
                if (won) { /* p lost: one more of its moves settled */
                    if (level + 1 > longest[p])
                        longest[p] = (uint16_t)(level + 1);
                    if (--left[p] == 0)
                        status = level_push(&l, dist[p] = longest[p], p);
                } else if (dist[p] == NO_DISTANCE) { /* p won: the first way is the shortest */
                    status = level_push(&l, dist[p] = (uint16_t)(level + 1), p);
                }
            }
        }
    if (longest && left)
        state_graph_free(&g);
    levels_free(&l);
    free(longest);
    free(left);
    return status;
}
