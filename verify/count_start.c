#include "verify/count_start.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/movegen.h"

/* Positions before the count starts (forzosa): state codes of the attractor. */
#define TO_GOAL UINT32_MAX       /* the strong side wins at once */
#define TO_FAIL (UINT32_MAX - 1) /* the material changes against the strong side */
#define ENTERS_COUNT (1u << 31)  /* the move meets the precondition: the count starts */

struct moves_graph {
    uint64_t *first[2];  /* per side to move and index: where its moves start in `to` */
    uint32_t *to;        /* the index moved to (the other side to move), or a code */
    size_t count, capacity;
};

static int graph_add(struct moves_graph *g, uint32_t code)
{
    if (array_reserve(&g->to, &g->capacity, g->count + 1, sizeof *g->to) < 0)
        return -1;
    g->to[g->count++] = code;
    return 0;
}

/* The moves of every position of t that does not meet the precondition. */
static int build_graph(const struct variant *v, const struct table *t,
                       const struct condition *c, struct moves_graph *g)
{
    uint64_t n = t->ix.size;
    struct move_list *list = malloc(sizeof *list);
    memset(g, 0, sizeof *g);
    g->first[0] = malloc((n + 1) * sizeof *g->first[0]);
    g->first[1] = malloc((n + 1) * sizeof *g->first[1]);
    if (!list || !g->first[0] || !g->first[1]) {
        free(list);
        return -1;
    }
    for (int side = WHITE; side <= BLACK; side++)
        for (uint64_t i = 0; i < n; i++) {
            struct position p, child;
            g->first[side][i] = g->count;
            index_position(&t->ix, i, (enum side)side, &p);
            if (condition_meets(c, &p))
                continue;
            generate_moves(v, &p, 0, list);
            /* no move ends the game, for the strong side when the lone side has lost */
            bool mover_lost = dtm_is_loss(dtm_no_move(v));
            if (list->count == 0 &&
                graph_add(g, (side == BLACK) == mover_lost ? TO_GOAL : TO_FAIL) < 0)
                goto fail;
            for (int k = 0; k < list->count; k++) {
                make_move(&p, &list->moves[k], &child);
                struct material after = material_of(&child);
                uint32_t code;
                /* leaving the material ends this: well when the lone side has nothing
                 * left, otherwise it is counted against the strong side */
                if (!material_equal(&after, &t->m))
                    code = position_pieces(&child, BLACK) == 0 ? TO_GOAL : TO_FAIL;
                else
                    code = (uint32_t)index_of(&t->ix, &child, NULL) |
                           (condition_meets(c, &child) ? ENTERS_COUNT : 0);
                if (graph_add(g, code) < 0)
                    goto fail;
            }
        }
    g->first[0][n] = g->first[1][0];
    g->first[1][n] = g->count;
    free(list);
    return 0;
fail:
    free(list);
    return -1;
}

static void graph_free(struct moves_graph *g)
{
    free(g->first[0]);
    free(g->first[1]);
    free(g->to);
}

/* Whether a move to a position with `side` to move (code) is a success for the strong
 * side, given the set found so far for that side. A move that starts the count succeeds
 * when the strong side then wins within the limit: limit_plies[side] plies. */
static bool leads_in(const struct table *t, uint32_t code, enum side side,
                     const int limit_plies[2], const uint8_t *in)
{
    if (code == TO_GOAL)
        return true;
    if (code == TO_FAIL)
        return false;
    uint32_t j = code & ~ENTERS_COUNT;
    if (code & ENTERS_COUNT) {
        dtm_t d = t->dtm[side][j];
        return (side == WHITE ? dtm_is_win(d) : dtm_is_loss(d)) &&
               dtm_plies(d) <= limit_plies[side];
    }
    return in[j];
}

/* The least fixed point: the strong side needs one good move, the lone side has only
 * moves into the set. */
static void attract(const struct table *t, const struct moves_graph *g,
                    const int limit_plies[2], uint8_t *in[2])
{
    uint64_t n = t->ix.size;
    bool changed = true;
    memset(in[0], 0, n);
    memset(in[1], 0, n);
    while (changed) {
        changed = false;
        for (int side = WHITE; side <= BLACK; side++)
            for (uint64_t i = 0; i < n; i++) {
                uint64_t a = g->first[side][i], b = g->first[side][i + 1];
                if (in[side][i] || a == b)
                    continue;
                bool all = true, any = false;
                for (uint64_t e = a; e < b; e++) {
                    bool good = leads_in(t, g->to[e], (enum side)(side ^ 1), limit_plies,
                                         in[side ^ 1]);
                    all &= good;
                    any |= good;
                }
                if (side == WHITE ? any : all) {
                    in[side][i] = 1;
                    changed = true;
                }
            }
    }
}

int count_convertible(const struct variant *v, const struct table *t,
                             const struct move_limit_rule *rule, const struct condition *c,
                             struct rule_result *res[2][MAX_READINGS])
{
    struct moves_graph g;
    uint8_t *in[2] = { malloc(t->ix.size + 1), malloc(t->ix.size + 1) };
    int status = in[0] && in[1] ? build_graph(v, t, c, &g) : -1;
    for (int k = 0; status == 0 && k < move_limit_readings(rule); k++) {
        const int limit_plies[2] = { reading_plies(&rule->readings[k], rule->kind, true),
                                     reading_plies(&rule->readings[k], rule->kind, false) };
        attract(t, &g, limit_plies, in);
        for (int side = WHITE; side <= BLACK; side++)
            for (uint64_t i = 0; i < t->ix.size; i++) {
                struct position p;
                index_position(&t->ix, i, (enum side)side, &p);
                dtm_t d = t->dtm[side][i];
                if (condition_meets(c, &p) || !(side == WHITE ? dtm_is_win(d) : dtm_is_loss(d)))
                    continue;
                int weight = index_class_size(&t->ix, &p);
                res[side][k]->wins_before += (uint64_t)weight;
                if (in[side][i])
                    res[side][k]->convertible_before += (uint64_t)weight;
            }
    }
    if (in[0] && in[1])
        graph_free(&g);
    free(in[0]);
    free(in[1]);
    return status;
}
