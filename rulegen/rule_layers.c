/* The values under the rules by layers (rulegen/rule_layers.h). A fresh state's counts are
 * its "flavour": which counts run (at 0) and for which side. Inside the material, until a
 * move starts, resets or ends a count (a zeroing move) or leaves the material, every state
 * reached from a fresh state of flavour f is a position and the plies k that all of f's
 * counts have run, the same for all of them. V_k(p), its value, is the game's end where p
 * has no move, a draw where f's counts have run out at k, and otherwise the best of p's
 * moves: a move inside the material that keeps f's counts running leads to V_{k+1}; any
 * other move is an exit, valued by the search from the state it leads to (the rule tables
 * of the other materials, or this one's values already found, decide most such states at
 * once). An exit that carries a running count on ("win within" counts run to the end of
 * the game) leads to a state that depends on k, and is valued again in every layer; one
 * that carries none, once. The layers are solved from the last (every count of f run out)
 * back to V_0, which is the fresh value of the positions of flavour f; each reads only the
 * one after it, so two arrays hold them.
 *
 * Where the counts run in step (rule_counts_in_step) there is one flavour and every exit
 * leads to a fresh state, valued once. Where man steps reset the counts, the material is
 * solved a level of men advancement at a time, the most advanced first (solve/solve.h,
 * material_levels): a man step leads to a fresh state of a level already solved, and the
 * moves that keep the counts running (king moves) stay within the level. Elsewhere the
 * whole material is one group. Where a rule with a precondition starts its count inside
 * the material (the russian main road), the flavours with more counts running are solved
 * first: a move that starts the count leads to a state of such a flavour.
 *
 * What does not depend on k is found once per group: the positions whose value is the
 * same in every layer (the game is over, or a draw without the rules: "settled"), and for
 * each other position the best of its exits that do not depend on k. What is left of its
 * moves inside (those to positions that are not settled and that could do better than
 * that exit: without the rules they win in d plies, so under them in d or more, or draw)
 * is kept as a graph, which every layer walks. Why this is exact: docs/how-it-works.md,
 * "Values under the rules: the table". */
#include "rulegen/rule_layers.h"

#include <stdlib.h>
#include <string.h>

#include "solve/solve.h"

/* A position's value in every layer is its own (settled), or the best of its moves: of
 * its graph edges, of its best exit that does not depend on k (SHAPE_EXIT), and of its
 * exits that do, valued layer by layer (SHAPE_VARYING). */
enum { SHAPE_SETTLED = 1, SHAPE_EXIT = 2, SHAPE_VARYING = 4 };

/* A distance to zeroing in the layers' arrays that is not known (an exit led to a state
 * whose distance the search did not find). */
#define LAYER_DTZ_UNKNOWN UINT16_MAX

/* The material's states are numbered j = side * ix->size + index. A group's states are
 * numbered t from 0: both sides to move of its men configurations, king placements in
 * order (group_state). */
struct layers {
    const struct rule_row *row;
    const struct rule_oracle *oracle;
    const struct material_index *ix;
    struct rule_counts flavour; /* the counts of the flavour solved, at k = 0 */
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

/* The flavour's counts with k plies played. */
static struct rule_counts counts_at(const struct layers *L, int k)
{
    struct rule_counts c = L->flavour;
    for (int r = 0; r < RULES_MAX; r++)
        if (c.plies[r] != RULE_COUNT_NOT_STARTED)
            c.plies[r] = k;
    return c;
}

static bool counts_equal(const struct rule_counts *a, const struct rule_counts *b)
{
    for (int r = 0; r < RULES_MAX; r++)
        if (a->plies[r] != b->plies[r] || a->strong[r] != b->strong[r])
            return false;
    return true;
}

/* What a move of a position of the material is in the layers. */
enum move_kind {
    MOVE_EDGE,    /* inside, the flavour's counts running on, to a position not settled */
    MOVE_EXIT,    /* anything else whose value does not depend on k */
    MOVE_VARYING  /* an exit that carries a running count on: valued in every layer */
};

/* The kind of move m of p, which leads to child, and for an edge the state j it leads to;
 * *plain: the child's value without the rules. The counts after a move that keeps the
 * material and none at 0 are those of k + 1 whatever k is (only their plies change), so
 * one look at k = 0 tells them. Returns 0 or the oracle's status. */
static int classify(const struct layers *L, const struct position *p, const struct move *m,
                    const struct position *child, enum move_kind *kind, uint64_t *j,
                    dtm_t *plain)
{
    mtc_t mtc;
    struct rule_counts before = counts_at(L, 0), after, edge = counts_at(L, 1);
    int status = L->oracle->plain(L->oracle->context, child, plain, &mtc);
    *kind = MOVE_EXIT;
    if (status != 0 || settled(*plain))
        return status;
    rule_counts_after(L->row, p, &before, move_facts_of(p, m), child, &after);
    if (!m->captured && !m->promotes && counts_equal(&after, &edge)) {
        /* it keeps the material, in the orientation of the position it leaves */
        *kind = MOVE_EDGE;
        *j = (uint64_t)child->side * L->ix->size + index_of(L->ix, child, NULL);
        return 0;
    }
    for (int r = 0; r < RULES_MAX; r++)
        if (after.plies[r] > 0) /* carried on from before: k + 1 */
            *kind = MOVE_VARYING;
    return 0;
}

/* The value of exit m of p (to child) with k plies played, for the side that plays it,
 * and its distance to zeroing: 1 when the move zeroes, else one more than the search's
 * distance after it (RULE_DTZ_UNKNOWN when the search does not know it). Returns 0 or a
 * status of the oracle's or the search's. */
static int exit_value(const struct layers *L, struct worker *w, const struct position *p,
                      const struct move *m, const struct position *child, int k,
                      struct rule_verdict *out)
{
    struct rule_counts before = counts_at(L, k), after;
    struct rule_verdict v;
    rule_counts_after(L->row, p, &before, move_facts_of(p, m), child, &after);
    int status = rule_search_value(&w->search, child, &after, &v);
    *out = rule_verdict_parent(v, rule_counts_zeroing(L->row, &before, &after));
    return status;
}

/* The shape of p and its settled value or its best exit that does not depend on k, each
 * valued by the search from the state it leads to (at k = 0: it does not depend on k).
 * Returns 0, or a status of the oracle's or the search's. */
static int exits(const struct layers *L, struct worker *w, const struct position *p,
                 uint8_t *shape, dtm_t *exit)
{
    const struct rule_oracle *o = L->oracle;
    mtc_t mtc;
    int status = o->plain(o->context, p, exit, &mtc);
    *shape = SHAPE_SETTLED;
    if (status != 0 || settled(*exit))
        return status;
    *shape = 0;
    generate_moves(L->row->v, p, 0, w->list);
    for (int k = 0; k < w->list->count; k++) {
        const struct move *m = &w->list->moves[k];
        struct position child;
        struct rule_verdict v;
        enum move_kind kind;
        uint64_t j;
        dtm_t plain;
        make_move(p, m, &child);
        if ((status = classify(L, p, m, &child, &kind, &j, &plain)) != 0)
            return status;
        if (kind == MOVE_VARYING)
            *shape |= SHAPE_VARYING;
        if (kind != MOVE_EXIT)
            continue;
        if ((status = exit_value(L, w, p, m, &child, 0, &v)) != 0)
            return status;
        dtm_t value = rule_verdict_code(v);
        if (!(*shape & SHAPE_EXIT) || dtm_better(value, *exit))
            *exit = value;
        *shape |= SHAPE_EXIT;
    }
    return 0;
}

/* The graph edges of p (not settled, its shape and exit found): the moves inside to
 * states that are not settled and could do better than the exit. Counts them into
 * *count, and writes their states to `to` when it is not NULL. Returns 0 or the oracle's
 * status. */
static int edges(const struct layers *L, struct worker *w, const struct position *p,
                 uint8_t shape, dtm_t exit, int *count, uint64_t *to)
{
    *count = 0;
    generate_moves(L->row->v, p, 0, w->list);
    for (int k = 0; k < w->list->count; k++) {
        struct position child;
        enum move_kind kind;
        uint64_t j;
        dtm_t plain;
        make_move(p, &w->list->moves[k], &child);
        int status = classify(L, p, &w->list->moves[k], &child, &kind, &j, &plain);
        if (status != 0)
            return status;
        /* the best the move can be under the rules: its win without them, or a draw */
        dtm_t bound = dtm_is_win(dtm_parent(plain)) ? dtm_parent(plain) : DTM_DRAW;
        if (kind != MOVE_EDGE || ((shape & SHAPE_EXIT) && !dtm_better(bound, exit)))
            continue;
        if (to)
            to[*count] = j;
        (*count)++;
    }
    return 0;
}

/* The distances to zeroing of the moves seen so far (as rules/rule_search.c takes
 * them): the winner's is the least over the moves that win, the loser's the most over
 * all; a winning move whose distance is not known makes the least unknown unless another
 * has 1, any move's the most. */
struct distances {
    int least_win, most;
    bool least_unknown, most_unknown;
};

static void distances_add(struct distances *d, dtm_t value, int distance)
{
    bool unknown = distance == RULE_DTZ_UNKNOWN;
    d->most_unknown |= unknown;
    if (dtm_is_win(value)) {
        d->least_unknown |= unknown;
        if (!unknown && distance < d->least_win)
            d->least_win = distance;
    }
    if (distance > d->most)
        d->most = distance;
}

/* The distance of a state worth `best` (not a draw), as the layers store it. */
static uint16_t distance_of(const struct distances *d, dtm_t best)
{
    if (dtm_is_win(best))
        return d->least_win == 1 || !d->least_unknown ? (uint16_t)d->least_win
                                                       : LAYER_DTZ_UNKNOWN;
    return d->most_unknown ? LAYER_DTZ_UNKNOWN : (uint16_t)d->most;
}

/* V_k of the group's state t (position j), from V_{k+1} in next (by state j), and its
 * distance to zeroing into *dtz (0 in a draw and where the game is over) from layer
 * k + 1's in next_dtz; `expired`: whether the flavour's counts have run out at k for t's
 * side to move. An exit that does not depend on k zeroes (it starts, resets or ends a
 * count, or ends the game: no count runs on through it), so its distance is 1; a graph
 * edge's is 1 more than where it leads; an exit that depends on k is valued by the
 * search. No losing move is ever left out of the graph: a move's bound, a win or a draw,
 * is better than a losing exit. Returns 0 or a status of the oracle's or the search's. */
static int layer_value(const struct layers *L, struct worker *w, uint64_t t, uint64_t j,
                       int k, bool expired, const dtm_t *next, const uint16_t *next_dtz,
                       dtm_t *value, uint16_t *dtz)
{
    uint8_t shape = L->shape[t];
    dtm_t best = L->exit[t];
    bool any = shape & SHAPE_EXIT;
    struct distances d = { DTM_MAX_PLIES, 0, false, false };
    *dtz = 0;
    *value = best;
    if (shape & SHAPE_SETTLED)
        return 0;
    *value = DTM_DRAW;
    if (expired)
        return 0;
    if (any)
        distances_add(&d, best, 1);
    for (uint64_t e = L->first[t]; e < L->first[t + 1]; e++) {
        dtm_t v = dtm_parent(next[L->to[e]]);
        uint16_t after = next_dtz[L->to[e]];
        if (!any || dtm_better(v, best))
            best = v;
        any = true;
        distances_add(&d, v, after == LAYER_DTZ_UNKNOWN ? RULE_DTZ_UNKNOWN : 1 + after);
    }
    if (shape & SHAPE_VARYING) {
        struct position p;
        index_position(L->ix, j % L->ix->size, (enum side)(j / L->ix->size), &p);
        generate_moves(L->row->v, &p, 0, w->list);
        for (int n = 0; n < w->list->count; n++) {
            const struct move *m = &w->list->moves[n];
            struct position child;
            struct rule_verdict v;
            enum move_kind kind;
            uint64_t to;
            dtm_t plain;
            make_move(&p, m, &child);
            int status = classify(L, &p, m, &child, &kind, &to, &plain);
            if (status == 0 && kind == MOVE_VARYING)
                status = exit_value(L, w, &p, m, &child, k, &v);
            if (status != 0)
                return status;
            if (kind != MOVE_VARYING)
                continue;
            dtm_t code = rule_verdict_code(v);
            if (!any || dtm_better(code, best))
                best = code;
            any = true;
            if (code != DTM_DRAW)
                distances_add(&d, code, v.dtz);
        }
    }
    *value = best;
    if (best != DTM_DRAW)
        *dtz = distance_of(&d, best);
    return 0;
}

/* Whether the flavour's counts with k plies played have run out, for each side to move
 * (whether they have run out depends on the position only by its side to move,
 * rule_limit_plies). */
static void expired_at(const struct layers *L, int k, bool expired[2])
{
    for (int side = 0; side < 2; side++) {
        struct position p;
        struct rule_counts c = counts_at(L, k);
        index_position(L->ix, 0, (enum side)side, &p);
        expired[side] = rule_counts_expired(L->row, &p, &c) >= 0;
    }
}

/* The first k at which the flavour's counts have run out whoever is to move (every
 * flavour has a count running, which runs out: rule_layers_solve). */
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
        if (status != 0 || (pass == 1 && (L->shape[t] & SHAPE_SETTLED)))
            continue;
        if (w->search.used > RULE_STATES_KEPT)
            rule_search_clear(&w->search);
        index_position(L->ix, j % L->ix->size, (enum side)(j / L->ix->size), &p);
        if (pass == 0)
            status = exits(L, w, &p, &L->shape[t], &L->exit[t]);
        if (status == 0 && !(L->shape[t] & SHAPE_SETTLED))
            status = edges(L, w, &p, L->shape[t], L->exit[t], &count,
                           pass == 0 ? NULL : &L->to[L->first[t]]);
        if (pass == 0)
            L->first[t + 1] = (L->shape[t] & SHAPE_SETTLED) ? 0 : (uint64_t)count;
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

/* The calling thread's worker, in a parallel region: a thread that cannot have one sets
 * *failure before any thread of the team goes on. */
static void worker_start(struct worker *w, const struct layers *L, int *failure)
{
    w->list = malloc(sizeof *w->list);
    rule_search_init(&w->search, L->row, L->oracle, RULE_STATES_MAX);
    if (!w->list) {
#pragma omp atomic write
        *failure = RULE_SEARCH_ERR_MEMORY;
    }
#pragma omp barrier
}

static void worker_free(struct worker *w)
{
    rule_search_free(&w->search);
    free(w->list);
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
            struct worker w;
            worker_start(&w, L, &failure);
            graph_pass(L, &w, pass, &failure);
            worker_free(&w);
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

/* One layer of the group on the calling team of threads: V_k into now (by state j)
 * from V_{k+1} in next; the first status met lands in *failure. */
static void solve_layer(const struct layers *L, struct worker *w, int k, const dtm_t *next,
                        const uint16_t *next_dtz, dtm_t *now, uint16_t *now_dtz,
                        int *failure)
{
    uint64_t n = L->ix->size;
    bool expired[2];
    expired_at(L, k, expired);
#pragma omp for schedule(dynamic, 4096)
    for (uint64_t t = 0; t < L->states; t++) {
        uint64_t j = group_state(L, t);
        int status;
#pragma omp atomic read
        status = *failure;
        if (status != 0)
            continue;
        if (w->search.used > RULE_STATES_KEPT)
            rule_search_clear(&w->search);
        status = layer_value(L, w, t, j, k, expired[j >= n], next, next_dtz, &now[j],
                             &now_dtz[j]);
        if (status != 0) {
#pragma omp atomic write
            *failure = status;
        }
    }
}

/* The layers of one group, from the last to V_0, whose values and distances go to
 * values and dtz (by side and index) for the positions whose fresh state is of the
 * flavour (flavour_of, by state j, the flavour's number `which`). layer and distance:
 * two arrays each of a value per state j of the material. */
static int solve_group(struct layers *L, const uint8_t *flavour_of, int which,
                       dtm_t *layer[2], uint16_t *distance[2], dtm_t *values[2],
                       uint16_t *dtz[2])
{
    uint64_t n = L->ix->size;
    int status = build_graph(L), last = last_layer(L);
    if (status == 0) {
#pragma omp parallel
        {
            struct worker w;
            worker_start(&w, L, &status);
            for (int k = last; k >= 0; k--) /* each layer ends at the loop's barrier */
                solve_layer(L, &w, k, layer[(k + 1) % 2], distance[(k + 1) % 2],
                            layer[k % 2], distance[k % 2], &status);
            worker_free(&w);
        }
    }
    if (status == 0) {
#pragma omp parallel for schedule(static, 4096)
        for (uint64_t t = 0; t < L->states; t++) {
            uint64_t j = group_state(L, t);
            if (flavour_of[j] != which)
                continue;
            values[j / n][j % n] = layer[0][j];
            dtz[j / n][j % n] = distance[0][j] == LAYER_DTZ_UNKNOWN ? 0 : distance[0][j];
        }
    }
    free_graph(L);
    return status;
}

/* The flavours of the material's fresh states, into list (at most RULES_FLAVOURS_MAX,
 * those with more counts running first) and flavour_of (by state j, a number in list).
 * Returns their number, or -1 when there are more. */
#define RULES_FLAVOURS_MAX 16
static int running(const struct rule_counts *c)
{
    int n = 0;
    for (int r = 0; r < RULES_MAX; r++)
        n += c->plies[r] != RULE_COUNT_NOT_STARTED;
    return n;
}

static int find_flavours(const struct rule_row *row, const struct material_index *ix,
                         struct rule_counts list[RULES_FLAVOURS_MAX], uint8_t *flavour_of)
{
    int count = 0;
    for (uint64_t j = 0; j < 2 * ix->size; j++) {
        struct position p;
        struct rule_counts c;
        int f = 0;
        index_position(ix, j % ix->size, (enum side)(j / ix->size), &p);
        rule_counts_fresh(row, &p, &c);
        while (f < count && !counts_equal(&list[f], &c))
            f++;
        if (f == count) {
            if (count == RULES_FLAVOURS_MAX)
                return -1;
            list[count++] = c;
        }
        flavour_of[j] = (uint8_t)f;
    }
    /* the most counts running first: a move that starts a count leads to such a state */
    uint8_t order[RULES_FLAVOURS_MAX], rank[RULES_FLAVOURS_MAX];
    struct rule_counts sorted[RULES_FLAVOURS_MAX];
    for (int f = 0; f < count; f++)
        order[f] = (uint8_t)f;
    for (int a = 1; a < count; a++)
        for (int b = a; b > 0 && running(&list[order[b]]) > running(&list[order[b - 1]]); b--) {
            uint8_t swap = order[b];
            order[b] = order[b - 1], order[b - 1] = swap;
        }
    for (int f = 0; f < count; f++)
        sorted[f] = list[order[f]], rank[order[f]] = (uint8_t)f;
    for (int f = 0; f < count; f++)
        list[f] = sorted[f];
    for (uint64_t j = 0; j < 2 * ix->size; j++)
        flavour_of[j] = rank[flavour_of[j]];
    return count;
}

int rule_layers_solve(const struct rule_row *row, const struct rule_oracle *oracle,
                      const struct material_index *ix, dtm_t *values[2], uint16_t *dtz[2])
{
    struct layers L = { .row = row, .oracle = oracle, .ix = ix };
    bool steps_reset = rule_steps_reset(row, &ix->m);
    struct material_levels levels = { 0 };
    struct rule_counts flavours[RULES_FLAVOURS_MAX];
    uint64_t n = ix->size;
    dtm_t *layer[2] = { malloc(2 * n * sizeof(dtm_t)), malloc(2 * n * sizeof(dtm_t)) };
    uint16_t *distance[2] = { malloc(2 * n * sizeof(uint16_t)), malloc(2 * n * sizeof(uint16_t)) };
    uint8_t *flavour_of = malloc(2 * n + 1);
    int status = layer[0] && layer[1] && distance[0] && distance[1] && flavour_of &&
                         (!steps_reset || material_levels(ix, &levels) == 0)
                     ? 0
                     : RULE_SEARCH_ERR_MEMORY;
    int num_flavours = status == 0 ? find_flavours(row, ix, flavours, flavour_of) : 0;
    if (num_flavours < 0)
        status = RULE_SEARCH_ERR_TOO_MANY;
    for (int side = 0; side < 2 && status == 0; side++)
        for (uint64_t i = 0; i < n; i++)
            values[side][i] = RULE_VALUE_PENDING;
    /* a level at a time where man steps reset the counts (a man step leads to a level
     * already solved), else the whole material as one; within it, a flavour at a time */
    int num_groups = steps_reset ? levels.count : 1;
    for (int group = 0; group < num_groups && status == 0; group++) {
        L.configs = steps_reset ? levels.order + levels.start[group] : NULL;
        L.num_configs = steps_reset ? levels.start[group + 1] - levels.start[group] : 0;
        L.per_config = ix->king_count;
        L.states = steps_reset ? 2 * L.num_configs * L.per_config : 2 * n;
        for (int f = 0; f < num_flavours && status == 0 && L.states > 0; f++) {
            L.flavour = flavours[f];
            status = solve_group(&L, flavour_of, f, layer, distance, values, dtz);
        }
    }
    if (steps_reset)
        material_levels_free(&levels);
    free(flavour_of);
    free(layer[0]);
    free(layer[1]);
    free(distance[0]);
    free(distance[1]);
    return status;
}
