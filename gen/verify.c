#include "verify.h"

#include <stdlib.h>
#include <string.h>

#include "movegen.h"

/* A rule's precondition as bitboards, in the table's orientation (White strong). */
struct condition {
    const struct precondition *words;
    bb_t diagonal;              /* the long diagonal: file == rank */
    bb_t strong_man, weak_man;  /* 0: no condition */
};

static struct condition condition_of(const struct variant *v, const struct precondition *c)
{
    const struct geometry *g = v->board();
    struct condition out = { .words = c };
    int bit;
    BB_FOR_EACH(bit, g->board)
        if (g->file_of[bit] == g->rank_of[bit])
            out.diagonal |= bb_of(bit);
    if (c->strong_man_square)
        out.strong_man = bb_of(square_from_number(v, c->strong_man_square));
    if (c->weak_man_square)
        out.weak_man = bb_of(square_from_number(v, c->weak_man_square));
    return out;
}

/* The long diagonal is mapped onto itself by the four symmetries, so the positions of a
 * symmetry class all meet such a precondition or all miss it. */
static bool meets(const struct condition *c, const struct position *p)
{
    return (!c->words->strong_king_on_main_diagonal || (p->kings[WHITE] & c->diagonal)) &&
           (!c->words->lone_king_on_main_diagonal || (p->kings[BLACK] & c->diagonal)) &&
           (p->men[WHITE] & c->strong_man) == c->strong_man &&
           (p->men[BLACK] & c->weak_man) == c->weak_man;
}

static bool has_precondition(const struct move_limit_rule *rule)
{
    return rule->precondition.words != NULL;
}

/* Whether canonical material m (White the strong side) is an ending the rule covers. */
static bool covers(const struct move_limit_rule *rule, const struct material *m)
{
    const struct ending *e = &rule->ending;
    int total = material_pieces(m), strong = material_side_pieces(m, WHITE);
    char name[MATERIAL_NAME_SIZE];
    if ((e->min_total && total < e->min_total) || (e->max_total && total > e->max_total))
        return false;
    switch (e->kind) {
    case ENDING_VS_LONE_KING:
        return m->kings[BLACK] == 1 && m->men[BLACK] == 0 && strong >= e->min_pieces &&
               strong <= e->max_pieces && m->kings[WHITE] >= e->min_kings &&
               m->men[WHITE] <= e->max_men;
    case ENDING_MATERIAL:
        material_name(m, name);
        return strcmp(name, e->material) == 0;
    case ENDING_KINGS_ONLY:
        return material_men(m) == 0;
    case ENDING_BOTH_HAVE_KINGS:
        return m->kings[WHITE] > 0 && m->kings[BLACK] > 0;
    case ENDING_ANY:
        return true;
    }
    return false;
}

int rule_materials(const struct variant *v, const struct move_limit_rule *rule,
                   int max_pieces, struct material *out, int capacity)
{
    struct material all[1024];
    int n = 0;
    for (int pieces = 2; pieces <= max_pieces; pieces++) {
        int count = material_list(v, pieces, all, 1024);
        for (int k = 0; k < count && n < capacity; k++)
            if (covers(rule, &all[k]))
                out[n++] = all[k];
    }
    return n;
}

/* ---- must win within N: DTM ---- */

static struct rule_result *add_result(struct rule_report *out, const struct material *m,
                                      bool strong_to_move, int reading)
{
    if (out->num_results == MAX_RULE_RESULTS)
        return NULL;
    struct rule_result *r = &out->results[out->num_results++];
    memset(r, 0, sizeof *r);
    material_name(m, r->ending);
    r->strong_to_move = strong_to_move;
    r->reading = reading;
    r->longest_plies = r->longest = -1;
    return r;
}

static int num_readings(const struct move_limit_rule *rule)
{
    return rule->readings[1].limit ? 2 : 1;
}

/* Counts `weight` won positions like p, won in `plies`, for every reading's result. */
static void count_win(const struct move_limit_rule *rule, struct rule_result *res[],
                      const struct variant *v, const struct position *p, int plies,
                      int weight)
{
    bool strong_to_move = res[0]->strong_to_move;
    for (int k = 0; k < num_readings(rule); k++) {
        const struct limit_reading *r = &rule->readings[k];
        res[k]->wins += (uint64_t)weight;
        if (plies > reading_plies(r, rule->kind, strong_to_move))
            res[k]->wins_beyond_limit += (uint64_t)weight;
        if (plies > res[k]->longest_plies) {
            res[k]->longest_plies = plies;
            /* in a no-progress count the winner is the side to move */
            res[k]->longest = plies_in_unit(plies, r->unit,
                                            rule->kind == LIMIT_NO_PROGRESS || strong_to_move);
            fen_print(v, p, res[k]->example_fen);
        }
    }
}

/* Positions before the count starts (forzosa): state codes of the attractor. */
#define TO_GOAL UINT32_MAX       /* the strong side wins at once */
#define TO_FAIL (UINT32_MAX - 1) /* the material changes against the strong side */
#define ENTERS_COUNT (1u << 31)  /* the move meets the precondition: the count starts */

struct moves_graph {
    uint64_t *first[2];  /* per side to move and index: where its moves start in `to` */
    uint32_t *to;        /* the index moved to (the other side to move), or a code */
    uint64_t count, capacity;
};

static int graph_add(struct moves_graph *g, uint32_t code)
{
    if (g->count == g->capacity) {
        uint64_t capacity = g->capacity ? 2 * g->capacity : 1 << 16;
        uint32_t *grown = realloc(g->to, capacity * sizeof *grown);
        if (!grown)
            return -1;
        g->to = grown;
        g->capacity = capacity;
    }
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
            if (meets(c, &p))
                continue;
            generate_moves(v, &p, 0, list);
            if (list->count == 0 && graph_add(g, side == BLACK ? TO_GOAL : TO_FAIL) < 0)
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
                           (meets(c, &child) ? ENTERS_COUNT : 0);
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

/* The attractor per reading, counted over the won positions before the count starts. */
static int count_convertible(const struct variant *v, const struct table *t,
                             const struct move_limit_rule *rule, const struct condition *c,
                             struct rule_result *res[2][MAX_READINGS])
{
    struct moves_graph g;
    uint8_t *in[2] = { malloc(t->ix.size + 1), malloc(t->ix.size + 1) };
    int status = in[0] && in[1] ? build_graph(v, t, c, &g) : -1;
    for (int k = 0; status == 0 && k < num_readings(rule); k++) {
        const int limit_plies[2] = { reading_plies(&rule->readings[k], rule->kind, true),
                                     reading_plies(&rule->readings[k], rule->kind, false) };
        attract(t, &g, limit_plies, in);
        for (int side = WHITE; side <= BLACK; side++)
            for (uint64_t i = 0; i < t->ix.size; i++) {
                struct position p;
                index_position(&t->ix, i, (enum side)side, &p);
                dtm_t d = t->dtm[side][i];
                if (meets(c, &p) || !(side == WHITE ? dtm_is_win(d) : dtm_is_loss(d)))
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

/* ---- no progress: MTC, or a distance to the next capture or promotion ---- */

#define NO_DISTANCE UINT16_MAX

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

/* Distances grow one level at a time, like the generator's agendas. */
struct levels {
    uint32_t **items;
    uint64_t *count, *capacity;
    int num;
};

static int level_push(struct levels *l, int level, uint32_t s)
{
    if (level >= l->num) {
        int num = level + 64;
        uint32_t **items = realloc(l->items, (size_t)num * sizeof *items);
        uint64_t *count = items ? realloc(l->count, (size_t)num * sizeof *count) : NULL;
        uint64_t *capacity = count ? realloc(l->capacity, (size_t)num * sizeof *capacity) : NULL;
        if (items)
            l->items = items;
        if (count)
            l->count = count;
        if (!capacity)
            return -1;
        l->capacity = capacity;
        for (int k = l->num; k < num; k++) {
            l->items[k] = NULL;
            l->count[k] = l->capacity[k] = 0;
        }
        l->num = num;
    }
    if (l->count[level] == l->capacity[level]) {
        uint64_t capacity = l->capacity[level] ? 2 * l->capacity[level] : 256;
        uint32_t *grown = realloc(l->items[level], capacity * sizeof *grown);
        if (!grown)
            return -1;
        l->items[level] = grown;
        l->capacity[level] = capacity;
    }
    l->items[level][l->count[level]++] = s;
    return 0;
}

static void levels_free(struct levels *l)
{
    for (int k = 0; k < l->num; k++)
        free(l->items[k]);
    free(l->items);
    free(l->count);
    free(l->capacity);
}

/* For each won position, the fewest plies the winner needs until a capture or a
 * promotion, keeping the win; for each lost one, the most the loser can delay it (0
 * when the game is over). The MTC of the tables, with man steps no longer counted as
 * conversions, computed level by level from the positions that convert at once. */
static int distance_to_capture_or_promotion(const struct tableset *ts, const struct table *t,
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
    for (int level = 0; status == 0 && level < l.num; level++)
        for (uint64_t k = 0; status == 0 && k < l.count[level]; k++) {
            uint32_t s = l.items[level][k];
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

/* The plies of the win a rule measures at (side, i), or -1 when there is none: a win of
 * the strong side by DTM for a "win within" rule; for a no-progress rule a win of the
 * side to move by its MTC, or by `distance` when given. */
static int win_plies(const struct move_limit_rule *rule, const struct table *t,
                     const uint16_t *distance, enum side side, uint64_t i)
{
    dtm_t d = t->dtm[side][i];
    if (rule->kind == LIMIT_WIN_WITHIN)
        return (side == WHITE ? dtm_is_win(d) : dtm_is_loss(d)) ? dtm_plies(d) : -1;
    if (!dtm_is_win(d))
        return -1;
    return distance ? distance[(uint64_t)side * t->ix.size + i] : mtc_plies(t->mtc[side][i]);
}

/* Counts every legal position of t that meets the precondition, per side to move. */
static int count_positions(const struct variant *v, const struct table *t,
                           const struct move_limit_rule *rule, const struct condition *c,
                           const uint16_t *distance, struct rule_result *res[2][MAX_READINGS],
                           struct rule_report *out)
{
    for (int side = WHITE; side <= BLACK; side++)
        for (int k = 0; k < num_readings(rule); k++)
            if (!(res[side][k] = add_result(out, &t->m, side == WHITE, k)))
                return -1;
    for (int side = WHITE; side <= BLACK; side++)
        for (uint64_t i = 0; i < t->ix.size; i++) {
            struct position p, members[NUM_SYMS];
            index_position(&t->ix, i, (enum side)side, &p);
            int n = index_class_members(&t->ix, &p, members);
            int plies = win_plies(rule, t, distance, (enum side)side, i);
            for (int k = 0; k < n; k++) {
                if (!meets(c, &members[k]))
                    continue;
                for (int r = 0; r < num_readings(rule); r++)
                    res[side][r]->positions++;
                if (plies >= 0)
                    count_win(rule, res[side], v, &members[k], plies, 1);
            }
        }
    return 0;
}

static int verify_material(struct tableset *ts, const struct table *t,
                           const struct move_limit_rule *rule, const struct condition *c,
                           struct rule_report *out)
{
    struct rule_result *res[2][MAX_READINGS];
    uint16_t *distance = NULL;
    int status = 0;
    if (rule->reset == RESET_CAPTURE_OR_PROMOTION &&
        (!(distance = malloc((2 * t->ix.size + 1) * sizeof *distance)) ||
         distance_to_capture_or_promotion(ts, t, distance) < 0))
        status = -1;
    if (status == 0)
        status = count_positions(ts->v, t, rule, c, distance, res, out);
    if (status == 0 && rule->counts_from_precondition)
        status = count_convertible(ts->v, t, rule, c, res);
    free(distance);
    return status;
}

/* ---- one rule ---- */

/* The fewest pieces an ending of the rule has (beyond max_pieces when none is built). */
static int pieces_needed(const struct variant *v, const struct move_limit_rule *rule)
{
    for (int pieces = 2; pieces <= MATERIAL_MAX_PIECES; pieces++) {
        struct material all[1024];
        int count = material_list(v, pieces, all, 1024);
        for (int k = 0; k < count; k++)
            if (covers(rule, &all[k]))
                return pieces;
    }
    return MATERIAL_MAX_PIECES + 1;
}

static bool any_position(const struct rule_report *out)
{
    for (int k = 0; k < out->num_results; k++)
        if (out->results[k].positions > 0)
            return true;
    return false;
}

int verify_rule(struct tableset *ts, int max_pieces, const struct move_limit_rule *rule,
                struct rule_report *out, char *err, size_t err_size)
{
    const struct variant *v = ts->v;
    struct material materials[256];
    struct condition c = condition_of(v, &rule->precondition);
    int n = rule_materials(v, rule, max_pieces, materials, 256);

    memset(out, 0, sizeof *out);
    out->rule = rule;
    if (n == 0) {
        out->status = RULE_NEEDS_PIECES;
        snprintf(out->message, sizeof out->message,
                 "its endings have %d pieces or more; these tables go up to %d "
                 "(use --pieces %d)", pieces_needed(v, rule), max_pieces,
                 pieces_needed(v, rule));
        return 0;
    }
    for (int k = 0; k < n; k++) {
        const struct table *t = tableset_get(ts, &materials[k], err, err_size);
        int status;
        /* the distance to a capture or promotion looks where those moves lead */
        if (!t || (rule->reset == RESET_CAPTURE_OR_PROMOTION &&
                   tableset_get_successors(ts, &materials[k], err, err_size) < 0))
            return -1;
        status = verify_material(ts, t, rule, &c, out);
        if (ts->dir) /* it can be read again: keep memory for the next, larger ones */
            tableset_forget(ts, &materials[k]);
        if (status < 0) {
            snprintf(err, err_size, "out of memory (or too many results) verifying %s",
                     rule->name);
            return -1;
        }
    }
    if (!any_position(out)) {
        out->status = RULE_NO_POSITION;
        snprintf(out->message, sizeof out->message, "no position of %s has %s",
                 rule->ending.words, has_precondition(rule) ? rule->precondition.words
                                                            : "a table");
    }
    return 0;
}
