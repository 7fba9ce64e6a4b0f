/* The values under the rules by layers (gen/rule_layers.h). Inside a material whose
 * counts run in step, a state is a position and the plies k its counts have run, the
 * same for all. V_k(p), its value, is the game's end where p has no move, a draw where
 * the counts have run out at k, and otherwise the best of p's moves: a move out of the
 * material leads to a fresh state, whose value does not depend on k (the search gives it
 * from the rule tables of the other materials), a move inside it to V_{k+1}. The layers
 * are solved from the last (every count run out) back to V_0, the fresh values; each
 * reads only the one after it, so two arrays per side hold them. Why this is exact:
 * docs/how-it-works.md, "Values under the rules: the table". */
#include "gen/rule_layers.h"

#include <stdlib.h>

#include "format/lookup.h"

/* A position's value in every layer is its own (the game is over, or a draw without the
 * rules) or the best of its moves. */
enum shape { SHAPE_SETTLED, SHAPE_MOVES, SHAPE_MOVES_AND_EXIT };

struct layers {
    const struct rule_row *row;
    const struct material_index *ix;
    uint8_t *shape[2];
    dtm_t *exit[2];        /* settled: the value; else the best move out of the material */
};

/* Whether child, reached by a move of a position of the material, is in the material,
 * and its side to move and index there. */
static bool stays(const struct layers *L, const struct position *child, enum side *side,
                  uint64_t *i)
{
    struct lookup l;
    if (lookup_position(L->row->v, child, &l) != LOOKUP_TABLE ||
        !material_equal(&l.material, &L->ix->m))
        return false;
    *side = l.oriented.side;
    *i = index_of(L->ix, &l.oriented, NULL);
    return true;
}

/* The shape of p and its settled value or the best of its moves out of the material,
 * each valued by the search from the state the move leads to (a fresh one: the counts
 * in step are reset or ended by it). */
static int shape_of(const struct layers *L, const struct rule_oracle *o,
                    struct rule_search *search, struct move_list *list,
                    const struct position *p, uint8_t *shape, dtm_t *exit)
{
    dtm_t dtm;
    mtc_t mtc;
    struct rule_counts fresh;
    int status = o->plain(o->context, p, &dtm, &mtc);
    if (status != 0 || dtm == DTM_DRAW || dtm_plies(dtm) == 0) {
        *shape = SHAPE_SETTLED;
        *exit = dtm;
        return status;
    }
    *shape = SHAPE_MOVES;
    rule_counts_fresh(L->row, p, &fresh);
    generate_moves(L->row->v, p, 0, list);
    for (int k = 0; k < list->count; k++) {
        struct position child;
        struct rule_counts after;
        struct rule_verdict v;
        enum side side;
        uint64_t i;
        make_move(p, &list->moves[k], &child);
        if (stays(L, &child, &side, &i))
            continue;
        rule_counts_after(L->row, p, &fresh, move_facts_of(p, &list->moves[k]), &child, &after);
        if ((status = rule_search_value(search, &child, &after, &v)) != 0)
            return status;
        dtm_t value = dtm_parent(rule_verdict_code(v));
        if (*shape == SHAPE_MOVES || dtm_better(value, *exit))
            *exit = value;
        *shape = SHAPE_MOVES_AND_EXIT;
    }
    return 0;
}

/* V_k of position i of `side`, the counts c run k plies, from V_{k+1} in next. */
static dtm_t layer_value(const struct layers *L, enum side side, uint64_t i,
                         const struct rule_counts *c, dtm_t *const next[2],
                         struct move_list *list)
{
    struct position p;
    uint8_t shape = L->shape[side][i];
    dtm_t best = L->exit[side][i];
    if (shape == SHAPE_SETTLED)
        return best;
    index_position(L->ix, i, side, &p);
    if (rule_counts_expired(L->row, &p, c) >= 0)
        return DTM_DRAW;
    bool any = shape == SHAPE_MOVES_AND_EXIT;
    generate_moves(L->row->v, &p, 0, list);
    for (int k = 0; k < list->count; k++) {
        struct position child;
        enum side child_side;
        uint64_t j;
        make_move(&p, &list->moves[k], &child);
        if (!stays(L, &child, &child_side, &j))
            continue;
        dtm_t value = dtm_parent(next[child_side][j]);
        if (!any || dtm_better(value, best))
            best = value;
        any = true;
    }
    return best;
}

/* The counts of every state of the material with k plies played: its fresh counts (the
 * same in every position of it), each running one at k. */
static void counts_at(const struct layers *L, int k, struct rule_counts *c)
{
    struct position p;
    index_position(L->ix, 0, WHITE, &p);
    rule_counts_fresh(L->row, &p, c);
    for (int r = 0; r < L->row->num; r++)
        if (c->plies[r] != RULE_COUNT_NOT_STARTED)
            c->plies[r] = k;
}

/* The first k at which the counts have run out whoever is to move: from there on every
 * position is drawn or its game over. */
static int last_layer(const struct layers *L)
{
    for (int k = 0;; k++) {
        struct rule_counts c;
        bool out = true;
        counts_at(L, k, &c);
        for (int side = WHITE; side <= BLACK; side++) {
            struct position p;
            index_position(L->ix, 0, (enum side)side, &p);
            out &= rule_counts_expired(L->row, &p, &c) >= 0;
        }
        if (out)
            return k;
    }
}

static void layers_free(struct layers *L, dtm_t *other[2])
{
    for (int side = 0; side < 2; side++) {
        free(L->shape[side]);
        free(L->exit[side]);
        free(other[side]);
    }
}

int rule_layers_solve(const struct rule_row *row, const struct rule_oracle *oracle,
                      const struct material_index *ix, dtm_t *values[2])
{
    struct layers L = { row, ix, { NULL, NULL }, { NULL, NULL } };
    dtm_t *other[2] = { NULL, NULL };
    uint64_t n = ix->size;
    int failure = 0;
    for (int side = 0; side < 2; side++) {
        L.shape[side] = malloc(n + 1);
        L.exit[side] = malloc((n + 1) * sizeof(dtm_t));
        other[side] = malloc((n + 1) * sizeof(dtm_t));
        if (!L.shape[side] || !L.exit[side] || !other[side]) {
            layers_free(&L, other);
            return RULE_SEARCH_ERR_MEMORY;
        }
    }
    int last = last_layer(&L);
    /* layer k in buffer k % 2: the fresh values, layer 0, land in values */
    dtm_t *const buffer[2][2] = { { values[0], values[1] }, { other[0], other[1] } };
#pragma omp parallel
    {
        struct rule_search search;
        struct move_list *list = malloc(sizeof *list);
        int status = list ? 0 : RULE_SEARCH_ERR_MEMORY;
        rule_search_init(&search, row, oracle, RULE_STATES_MAX);
        if (status != 0) {
#pragma omp atomic write
            failure = status;
        }
#pragma omp barrier
#pragma omp for schedule(dynamic, 1024)
        for (uint64_t j = 0; j < 2 * n; j++) {
            struct position p;
            enum side side = (enum side)(j / n);
#pragma omp atomic read
            status = failure;
            if (status != 0)
                continue;
            if (search.used > RULE_STATES_KEPT)
                rule_search_clear(&search);
            index_position(ix, j % n, side, &p);
            status = shape_of(&L, oracle, &search, list, &p, &L.shape[side][j % n],
                              &L.exit[side][j % n]);
            if (status != 0) {
#pragma omp atomic write
                failure = status;
            }
        }
#pragma omp atomic read
        status = failure; /* the same for every thread: the loop above ended in a barrier */
        for (int k = last; k >= 0 && status == 0; k--) {
            struct rule_counts c;
            dtm_t *const *next = buffer[(k + 1) % 2], *const *now = buffer[k % 2];
            counts_at(&L, k, &c);
#pragma omp for schedule(dynamic, 1024)
            for (uint64_t j = 0; j < 2 * n; j++) {
                enum side side = (enum side)(j / n);
                now[side][j % n] = layer_value(&L, side, j % n, &c, next, list);
            }
        }
        rule_search_free(&search);
        free(list);
    }
    layers_free(&L, other);
    return failure;
}
