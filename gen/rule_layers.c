/* The values under the rules by layers (gen/rule_layers.h). Inside a material whose
 * counts run in step, a state under the rules is a position and the plies k its counts
 * have run, the same for all. V_k(p), its value, is the game's end where p has no move,
 * a draw where the counts have run out at k, and otherwise the best of p's moves: a move
 * that resets or ends the counts (one out of the material; a man step too where man
 * steps reset them) leads to a fresh state, whose value does not depend on k (the search
 * gives it from the rule tables of the other materials, or from this one's values
 * already found), a move that does not to V_{k+1}. The layers are solved from the last
 * (every count run out) back to V_0, the fresh values; each reads only the one after it,
 * so two arrays hold them.
 *
 * Where man steps reset the counts, the material is solved a level of men advancement at
 * a time, the most advanced first (gen/solve.h, material_levels): a man step leads to a
 * fresh state of a level already solved, and the moves that keep the counts running
 * (king moves) stay within the level. Elsewhere the whole material is one group.
 *
 * What does not depend on k is found once per group: the positions whose value is the
 * same in every layer (the game is over, or a draw without the rules: "settled"), and
 * for each other position the best of its moves that reset the counts or lead to a
 * settled position (its "exit"). What is left of its moves (those to positions that are
 * not settled and that could do better than the exit: without the rules they win in d
 * plies, so under them in d or more, or draw) is kept as a graph, which every layer
 * walks. Why this is exact: docs/how-it-works.md, "Values under the rules: the table". */
#include "gen/rule_layers.h"

#include <stdlib.h>
#include <string.h>

#include "gen/solve.h"

/* A position's value in every layer is its own, or the best of its moves: of its graph
 * edges, and of its exit when it has one. */
enum shape { SHAPE_SETTLED, SHAPE_MOVES, SHAPE_MOVES_AND_EXIT };

/* The material's states are numbered j = side * ix->size + index. A group's states are
 * numbered t from 0: both sides to move of its men configurations, king placements in
 * order (group_state). */
struct layers {
    const struct rule_row *row;
    const struct rule_oracle *oracle;
    const struct material_index *ix;
    bool steps_reset;   /* a man step resets the counts: it leaves the group */
    /* the group being solved: its men configurations (NULL: every index), */
    const uint64_t *configs;
    uint64_t num_configs, per_config, states;
    /* and its graph, by t */
    uint8_t *shape;
    dtm_t *exit;        /* settled: the value; else the best exit, if any */
    uint64_t *first;    /* the edges of state t: to[first[t]] to to[first[t + 1] - 1], */
    uint64_t *to;       /* which are states j */
};

/* The state j of the group's state t. */
static uint64_t group_state(const struct layers *L, uint64_t t)
{
    if (!L->configs)
        return t;
    uint64_t per_side = L->num_configs * L->per_config, r = t % per_side;
    return (t / per_side) * L->ix->size + L->configs[r / L->per_config] * L->per_config +
           r % L->per_config;
}

/* What a thread needs. */
struct worker {
    struct rule_search search;
    struct move_list *list;
};

static bool settled(dtm_t plain)
{
    return plain == DTM_DRAW || dtm_plies(plain) == 0;
}

/* Whether move m of position p of the material keeps the counts running and leads to a
 * state that is not settled (*in), and then its number and its value without the
 * rules. A move that neither captures nor promotes keeps the material, in the
 * orientation of the position it leaves, the material's own; a man step resets the
 * counts where L->steps_reset. Returns 0 or the oracle's status. */
static int inside(const struct layers *L, const struct position *p, const struct move *m,
                  const struct position *child, bool *in, uint64_t *j, dtm_t *plain)
{
    mtc_t mtc;
    *in = false;
    if (m->captured || m->promotes ||
        (L->steps_reset && (p->men[p->side] & bb_of(m->from)) != 0))
        return 0;
    int status = L->oracle->plain(L->oracle->context, child, plain, &mtc);
    *in = status == 0 && !settled(*plain);
    if (*in)
        *j = (uint64_t)child->side * L->ix->size + index_of(L->ix, child, NULL);
    return status;
}

/* The shape of p and its settled value or its exit, each move valued by the search from
 * the state it leads to: a fresh one when the move resets or ends the counts (it leaves
 * the material, or it is a man step where they reset), one the search decides at once
 * when it reaches a settled position. Returns 0, or a status of the oracle's or the
 * search's. */
static int exits(const struct layers *L, struct worker *w, const struct position *p,
                 uint8_t *shape, dtm_t *exit)
{
    const struct rule_oracle *o = L->oracle;
    struct rule_counts fresh;
    mtc_t mtc;
    int status = o->plain(o->context, p, exit, &mtc);
    *shape = SHAPE_SETTLED;
    if (status != 0 || settled(*exit))
        return status;
    *shape = SHAPE_MOVES;
    rule_counts_fresh(L->row, p, &fresh);
    generate_moves(L->row->v, p, 0, w->list);
    for (int k = 0; k < w->list->count; k++) {
        const struct move *m = &w->list->moves[k];
        struct position child;
        struct rule_counts after;
        struct rule_verdict v;
        uint64_t j;
        dtm_t plain;
        bool in;
        make_move(p, m, &child);
        if ((status = inside(L, p, m, &child, &in, &j, &plain)) != 0)
            return status;
        if (in)
            continue;
        rule_counts_after(L->row, p, &fresh, move_facts_of(p, m), &child, &after);
        if ((status = rule_search_value(&w->search, &child, &after, &v)) != 0)
            return status;
        dtm_t value = dtm_parent(rule_verdict_code(v));
        if (*shape == SHAPE_MOVES || dtm_better(value, *exit))
            *exit = value;
        *shape = SHAPE_MOVES_AND_EXIT;
    }
    return 0;
}

/* The graph edges of p (not settled, its shape and exit found): the moves to states that
 * are not settled and could do better than the exit. Counts them into *count, and
 * writes their states to `to` when it is not NULL. Returns 0 or the oracle's status. */
static int edges(const struct layers *L, struct worker *w, const struct position *p,
                 uint8_t shape, dtm_t exit, int *count, uint64_t *to)
{
    *count = 0;
    generate_moves(L->row->v, p, 0, w->list);
    for (int k = 0; k < w->list->count; k++) {
        struct position child;
        uint64_t j;
        dtm_t plain;
        bool in;
        make_move(p, &w->list->moves[k], &child);
        int status = inside(L, p, &w->list->moves[k], &child, &in, &j, &plain);
        if (status != 0)
            return status;
        /* the best the move can be under the rules: its win without them, or a draw */
        dtm_t bound = dtm_is_win(dtm_parent(plain)) ? dtm_parent(plain) : DTM_DRAW;
        if (!in || (shape == SHAPE_MOVES_AND_EXIT && !dtm_better(bound, exit)))
            continue;
        if (to)
            to[*count] = j;
        (*count)++;
    }
    return 0;
}

/* V_k of the group's state t, from V_{k+1} in next (by state j), and its distance to
 * zeroing into *dtz (0 in a draw and where the game is over) from layer k + 1's in
 * next_dtz; `expired`: whether the counts have run out at k for t's side to move. Every
 * exit zeroes (it resets or ends every count, or ends the game), so an exit's distance
 * is 1; a graph edge's is 1 more than where it leads. The winner takes the least over
 * the moves that win, the loser the most over all (no losing move is ever left out of
 * the graph: a move's bound, a win or a draw, is better than a losing exit). */
static dtm_t layer_value(const struct layers *L, uint64_t t, bool expired, const dtm_t *next,
                         const uint16_t *next_dtz, uint16_t *dtz)
{
    uint8_t shape = L->shape[t];
    dtm_t best = L->exit[t];
    bool has_exit = shape == SHAPE_MOVES_AND_EXIT;
    int least_win = has_exit && dtm_is_win(best) ? 1 : DTM_MAX_PLIES, most = has_exit;
    *dtz = 0;
    if (shape == SHAPE_SETTLED)
        return best;
    if (expired)
        return DTM_DRAW;
    for (uint64_t e = L->first[t]; e < L->first[t + 1]; e++) {
        dtm_t value = dtm_parent(next[L->to[e]]);
        int distance = 1 + next_dtz[L->to[e]];
        if ((shape == SHAPE_MOVES && e == L->first[t]) || dtm_better(value, best))
            best = value;
        if (dtm_is_win(value) && distance < least_win)
            least_win = distance;
        if (distance > most)
            most = distance;
    }
    if (best != DTM_DRAW)
        *dtz = (uint16_t)(dtm_is_win(best) ? least_win : most);
    return best;
}

/* Whether the counts of every state of the material with k plies played have run out,
 * for each side to move (the fresh counts are the same in every position of the
 * material, each running one at k; whether they have run out depends on the position
 * only by its side to move, rule_limit_plies). */
static void expired_at(const struct layers *L, int k, bool expired[2])
{
    for (int side = 0; side < 2; side++) {
        struct position p;
        struct rule_counts c;
        index_position(L->ix, 0, (enum side)side, &p);
        rule_counts_fresh(L->row, &p, &c);
        for (int r = 0; r < L->row->num; r++)
            if (c.plies[r] != RULE_COUNT_NOT_STARTED)
                c.plies[r] = k;
        expired[side] = rule_counts_expired(L->row, &p, &c) >= 0;
    }
}

/* The first k at which the counts have run out whoever is to move. */
static int last_layer(const struct layers *L)
{
    for (int k = 0;; k++) {
        bool expired[2];
        expired_at(L, k, expired);
        if (expired[0] && expired[1])
            return k;
    }
}

/* Runs pass 0 (shapes, exits and edge counts into first[t + 1]) or pass 1 (the edges)
 * over every state of the group on the calling team of threads; the first status met
 * lands in *failure. */
static void graph_pass(struct layers *L, struct worker *w, int pass, int *failure)
{
#pragma omp for schedule(dynamic, 256)
    for (uint64_t t = 0; t < L->states; t++) {
        struct position p;
        uint64_t j = group_state(L, t);
        int status, count = 0;
#pragma omp atomic read
        status = *failure;
        if (status != 0 || (pass == 1 && L->shape[t] == SHAPE_SETTLED))
            continue;
        if (w->search.used > RULE_STATES_KEPT)
            rule_search_clear(&w->search);
        index_position(L->ix, j % L->ix->size, (enum side)(j / L->ix->size), &p);
        if (pass == 0)
            status = exits(L, w, &p, &L->shape[t], &L->exit[t]);
        if (status == 0 && L->shape[t] != SHAPE_SETTLED)
            status = edges(L, w, &p, L->shape[t], L->exit[t], &count,
                           pass == 0 ? NULL : &L->to[L->first[t]]);
        if (pass == 0)
            L->first[t + 1] = L->shape[t] == SHAPE_SETTLED ? 0 : (uint64_t)count;
        if (status != 0) {
#pragma omp atomic write
            *failure = status;
        }
    }
}

static void free_graph(struct layers *L)
{
    free(L->shape);
    free(L->exit);
    free(L->first);
    free(L->to);
    L->shape = NULL, L->exit = NULL, L->first = NULL, L->to = NULL;
}

/* Builds the group's shapes, exits and graph. Returns 0, or a status of the oracle's or
 * the search's, or RULE_SEARCH_ERR_MEMORY. */
static int build_graph(struct layers *L)
{
    uint64_t states = L->states;
    int failure = 0;
    L->shape = malloc(states + 1);
    L->exit = malloc((states + 1) * sizeof *L->exit);
    L->first = malloc((states + 1) * sizeof *L->first);
    if (!L->shape || !L->exit || !L->first)
        return RULE_SEARCH_ERR_MEMORY;
    L->first[0] = 0;
    for (int pass = 0; pass < 2 && failure == 0; pass++) {
#pragma omp parallel
        {
            struct worker w = { .list = malloc(sizeof *w.list) };
            rule_search_init(&w.search, L->row, L->oracle, RULE_STATES_MAX);
            if (!w.list) {
#pragma omp atomic write
                failure = RULE_SEARCH_ERR_MEMORY;
            }
#pragma omp barrier
            graph_pass(L, &w, pass, &failure);
            rule_search_free(&w.search);
            free(w.list);
        }
        if (pass == 0 && failure == 0) {
            for (uint64_t t = 0; t < states; t++)
                L->first[t + 1] += L->first[t];
            if (!(L->to = malloc((L->first[states] + 1) * sizeof *L->to)))
                failure = RULE_SEARCH_ERR_MEMORY;
        }
    }
    return failure;
}

/* The layers of one group, from the last to V_0, whose values and distances go to
 * values and dtz (by side and index). layer and distance: two arrays each of a value per
 * state j of the material. */
static int solve_group(struct layers *L, int last, dtm_t *layer[2], uint16_t *distance[2],
                       dtm_t *values[2], uint16_t *dtz[2])
{
    uint64_t n = L->ix->size;
    int status = build_graph(L);
    for (int k = last; k >= 0 && status == 0; k--) {
        const dtm_t *next = layer[(k + 1) % 2];
        const uint16_t *next_dtz = distance[(k + 1) % 2];
        dtm_t *now = layer[k % 2];
        uint16_t *now_dtz = distance[k % 2];
        bool expired[2];
        expired_at(L, k, expired);
#pragma omp parallel for schedule(static, 4096)
        for (uint64_t t = 0; t < L->states; t++) {
            uint64_t j = group_state(L, t);
            now[j] = layer_value(L, t, expired[j >= n], next, next_dtz, &now_dtz[j]);
        }
    }
    if (status == 0) {
#pragma omp parallel for schedule(static, 4096)
        for (uint64_t t = 0; t < L->states; t++) {
            uint64_t j = group_state(L, t);
            values[j / n][j % n] = layer[0][j];
            dtz[j / n][j % n] = distance[0][j];
        }
    }
    free_graph(L);
    return status;
}

int rule_layers_solve(const struct rule_row *row, const struct rule_oracle *oracle,
                      const struct material_index *ix, dtm_t *values[2], uint16_t *dtz[2])
{
    struct layers L = { .row = row, .oracle = oracle, .ix = ix,
                        .steps_reset = rule_steps_reset(row, &ix->m) };
    struct material_levels levels = { 0 };
    uint64_t n = ix->size;
    dtm_t *layer[2] = { malloc(2 * n * sizeof(dtm_t)), malloc(2 * n * sizeof(dtm_t)) };
    uint16_t *distance[2] = { malloc(2 * n * sizeof(uint16_t)), malloc(2 * n * sizeof(uint16_t)) };
    int status = layer[0] && layer[1] && distance[0] && distance[1] &&
                         (!L.steps_reset || material_levels(ix, &levels) == 0)
                     ? 0
                     : RULE_SEARCH_ERR_MEMORY;
    int last = status == 0 ? last_layer(&L) : 0;
    for (int side = 0; side < 2 && status == 0; side++)
        for (uint64_t i = 0; i < n; i++)
            values[side][i] = RULE_VALUE_PENDING;
    if (status == 0 && !L.steps_reset) {
        L.states = 2 * n;
        status = solve_group(&L, last, layer, distance, values, dtz);
    }
    for (int level = 0; L.steps_reset && level < levels.count && status == 0; level++) {
        L.configs = levels.order + levels.start[level];
        L.num_configs = levels.start[level + 1] - levels.start[level];
        L.per_config = ix->king_count;
        L.states = 2 * L.num_configs * L.per_config;
        if (L.states > 0)
            status = solve_group(&L, last, layer, distance, values, dtz);
    }
    if (L.steps_reset)
        material_levels_free(&levels);
    free(layer[0]);
    free(layer[1]);
    free(distance[0]);
    free(distance[1]);
    return status;
}
