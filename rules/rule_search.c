#include "rules/rule_search.h"

#include <stdlib.h>
#include <string.h>

/* A state's counts as the transposition table keys them: the plies of each count, then
 * the side each runs for. */
#define KEY_SIZE (2 * RULES_MAX)

struct rule_memo_entry {
    struct position p;
    int8_t counts[KEY_SIZE];
    bool used;
    int16_t dtz_least, dtz_most; /* what the distance search has learnt of it */
    struct rule_verdict v;
};

void rule_search_clear(struct rule_search *s)
{
    if (s->memo)
        memset(s->memo, 0, s->capacity * sizeof *s->memo);
    s->used = 0;
}

int rule_verdict_rank(struct rule_verdict v)
{
    return v.wdl == WDL_WIN ? 100000 - v.plies : v.wdl == WDL_LOSS ? -100000 + v.plies : 0;
}

struct rule_verdict rule_verdict_parent(struct rule_verdict child, bool zeroing)
{
    enum wdl wdl = wdl_parent(child.wdl);
    return (struct rule_verdict){ wdl, child.plies < 0 ? -1 : child.plies + 1,
                                  rule_dtz_parent(child.dtz, wdl == WDL_DRAW, zeroing), child.beyond };
}

int rule_dtz_stored(dtm_t value, int dtz)
{
    return value == DTM_DRAW || dtz < 0 ? 0 : dtz;
}

int rule_dtz_of_stored(dtm_t value, int stored)
{
    return stored == 0 && value != DTM_DRAW && dtm_plies(value) > 0 ? RULE_DTZ_UNKNOWN : stored;
}

dtm_t rule_verdict_code(struct rule_verdict v)
{
    return v.wdl == WDL_WIN ? dtm_win(v.plies) : v.wdl == WDL_LOSS ? dtm_loss(v.plies) : DTM_DRAW;
}

struct rule_verdict rule_verdict_of_code(dtm_t code)
{
    return (struct rule_verdict){ dtm_wdl(code), code == DTM_DRAW ? -1 : dtm_plies(code),
                                  code == DTM_DRAW ? -1 : RULE_DTZ_UNKNOWN, false };
}

static const struct rule_verdict draw_verdict = { WDL_DRAW, -1, -1, false };

/* ---- the transposition table ---- */

static uint64_t state_hash(const struct position *p, const int8_t counts[KEY_SIZE])
{
    uint64_t h = p->side ? 0x9e3779b97f4a7c15u : 0;
    const uint64_t words[4] = { p->men[0], p->men[1], p->kings[0], p->kings[1] };
    for (int k = 0; k < 4; k++)
        h = (h ^ words[k]) * 0xff51afd7ed558ccdu, h ^= h >> 29;
    for (int k = 0; k < KEY_SIZE; k++)
        h = (h ^ (uint8_t)counts[k]) * 0xc4ceb9fe1a85ec53u, h ^= h >> 31;
    return h;
}

/* The slot of the state: where it is, or the empty one where it would go. */
static struct rule_memo_entry *memo_slot(struct rule_memo_entry *memo, size_t capacity,
                                         const struct position *p,
                                         const int8_t counts[KEY_SIZE])
{
    size_t i = state_hash(p, counts) & (capacity - 1);
    while (memo[i].used && !(position_equal(&memo[i].p, p) && memo[i].p.side == p->side &&
                             memcmp(memo[i].counts, counts, KEY_SIZE) == 0))
        i = (i + 1) & (capacity - 1);
    return &memo[i];
}

static int memo_grow(struct rule_search *s)
{
    size_t capacity = s->capacity ? 2 * s->capacity : 4096;
    struct rule_memo_entry *memo = calloc(capacity, sizeof *memo);
    if (!memo)
        return RULE_SEARCH_ERR_MEMORY;
    for (size_t i = 0; i < s->capacity; i++)
        if (s->memo[i].used)
            *memo_slot(memo, capacity, &s->memo[i].p, s->memo[i].counts) = s->memo[i];
    free(s->memo);
    s->memo = memo;
    s->capacity = capacity;
    return 0;
}

/* The state's entry, or NULL. */
static const struct rule_memo_entry *memo_find(const struct rule_search *s,
                                               const struct position *p,
                                               const int8_t counts[KEY_SIZE])
{
    if (!s->capacity)
        return NULL;
    const struct rule_memo_entry *e = memo_slot(s->memo, s->capacity, p, counts);
    return e->used ? e : NULL;
}

/* Stores the state's verdict, or replaces it where the state is there already (what the
 * distance search learnt of it stays). */
static int memo_store(struct rule_search *s, const struct position *p,
                      const int8_t counts[KEY_SIZE], struct rule_verdict v)
{
    struct rule_memo_entry *e = s->capacity ? memo_slot(s->memo, s->capacity, p, counts) : NULL;
    if (e && e->used) {
        e->v = v;
        return 0;
    }
    if (s->used >= s->max_states)
        return RULE_SEARCH_ERR_TOO_MANY;
    if (2 * (s->used + 1) > s->capacity && memo_grow(s) != 0)
        return RULE_SEARCH_ERR_MEMORY;
    e = memo_slot(s->memo, s->capacity, p, counts);
    *e = (struct rule_memo_entry){ .p = *p, .used = true, .dtz_least = 1, .dtz_most = INT16_MAX,
                                   .v = v };
    memcpy(e->counts, counts, KEY_SIZE);
    s->used++;
    return 0;
}

/* Keeps what the distance search has learnt of the state worth v: its distance is from
 * least to most (known when they meet). */
static int memo_learn(struct rule_search *s, const struct position *p,
                      const int8_t counts[KEY_SIZE], struct rule_verdict v, int least, int most)
{
    int status = memo_store(s, p, counts, v);
    if (status != 0)
        return status;
    struct rule_memo_entry *e = memo_slot(s->memo, s->capacity, p, counts);
    e->dtz_least = (int16_t)(least > e->dtz_least ? least : e->dtz_least);
    e->dtz_most = (int16_t)(most < e->dtz_most ? most : e->dtz_most);
    if (e->dtz_least == e->dtz_most)
        e->v.dtz = e->dtz_least;
    return 0;
}

static void counts_key(const struct rule_counts *c, int8_t key[KEY_SIZE])
{
    for (int k = 0; k < RULES_MAX; k++)
        key[k] = (int8_t)c->plies[k], key[RULES_MAX + k] = (int8_t)c->strong[k];
}

/* ---- the cuts ---- */

static int plies_left(const struct rule_row *row, const struct position *p,
                      const struct rule_counts *c, int k)
{
    return rule_limit_plies(row, k, p, c) - c->plies[k];
}

/* The fewest plies the winner needs before rule k's count stops binding, at p (won or
 * lost without the rules), or -1 when not known. A "win within" count ends only with the
 * game: the DTM. A no-progress count stops binding when it is reset or its ending is
 * left, each a capture or a man move, a conversion; a win under the rules keeps the win
 * without them at every step, so it converts within the count: the MTC (the fewest plies
 * to a conversion that keeps the win, the loser delaying it the most), or for a count
 * that man steps do not reset, the reset distance where the oracle knows it. */
static int plies_needed(const struct rule_search *s, int k, const struct position *p,
                        dtm_t dtm, mtc_t mtc)
{
    const struct move_limit_rule *rule = row_rule(s->row, k);
    const struct rule_oracle *o = s->oracle;
    int distance = -1;
    if (rule->kind == LIMIT_WIN_WITHIN)
        return dtm_plies(dtm);
    if (rule->reset == RESET_CAPTURE_OR_PROMOTION && o->reset_distance &&
        o->reset_distance(o->context, p, &distance) == 0 && distance >= 0)
        return distance;
    return mtc == MTC_NONE ? -1 : mtc_plies(mtc);
}

/* Whether a running count has too few plies left for the winner to get out of it. */
static bool count_cannot_hold(const struct rule_search *s, const struct position *p,
                              const struct rule_counts *c, dtm_t dtm, mtc_t mtc)
{
    for (int k = 0; k < s->row->num; k++)
        if (c->plies[k] != RULE_COUNT_NOT_STARTED &&
            plies_needed(s, k, p, dtm, mtc) > plies_left(s->row, p, c, k))
            return true;
    return false;
}

/* Whether the fresh value `fresh` of p decides the state (p, c), and then its value
 * (docs/how-it-works.md, "Values under the rules: the table", 1-3): a fresh draw is a
 * draw; a win or loss in d plies stays so when every count that differs from the fresh
 * one has d plies left, and is a draw when a "win within" count has fewer. A count's
 * limit stays what it is at p along every line (its strong side and the side that moved
 * first in it do not change). The distance to zeroing is the fresh one, fresh_dtz, where
 * the counts keep it (rule_counts_keep_distance) or where it is the plies. */
static bool fresh_decides(const struct rule_row *row, const struct position *p,
                          const struct rule_counts *c, dtm_t fresh, int fresh_dtz,
                          struct rule_verdict *out)
{
    struct rule_verdict v = rule_verdict_of_code(fresh);
    bool all_hold = true;
    /* where the fresh distance is the plies, it is the state's too: a state's distance
     * is never shorter than its fresh state's (c's lines zero at a subset of the moves
     * where the fresh ones do, and keep fewer wins) and never longer than its plies */
    if (fresh_dtz != RULE_DTZ_UNKNOWN && v.wdl != WDL_DRAW &&
        (fresh_dtz == v.plies || rule_counts_keep_distance(row, p, c)))
        v.dtz = fresh_dtz;
    if (v.wdl == WDL_DRAW) {
        *out = draw_verdict;
        return true;
    }
    unsigned differing = rule_counts_differing(row, p, c);
    for (int k = 0; k < row->num; k++) {
        if (!((differing >> k) & 1))
            continue; /* not running, or as the fresh one: it runs as it does there */
        int left = plies_left(row, p, c, k);
        if (row_rule(row, k)->kind == LIMIT_WIN_WITHIN && left < v.plies) {
            *out = draw_verdict;
            return true;
        }
        all_hold &= left >= v.plies;
    }
    if (all_hold)
        *out = v;
    return all_hold;
}

static bool any_count_runs(const struct rule_row *row, const struct rule_counts *c)
{
    for (int k = 0; k < row->num; k++)
        if (c->plies[k] != RULE_COUNT_NOT_STARTED)
            return true;
    return false;
}

/* ---- the search ---- */

static int solve(struct rule_search *s, const struct position *p, const struct rule_counts *c,
                 struct rule_verdict *out);

/* The best rank a move can have under the rules, from the value of where it leads
 * without them: the rules only turn wins and losses into draws, so a move that wins in d
 * plies without them wins in d or more under them, or draws; any other move at best draws. */
static int rank_bound(dtm_t child_plain)
{
    struct rule_verdict plain = rule_verdict_parent(rule_verdict_of_code(child_plain), false);
    return plain.wdl == WDL_WIN ? rule_verdict_rank(plain) : 0;
}

struct candidate {
    struct position child;
    int bound;
    int move;
};

/* Highest bound first; the generator's order among equals. */
static int compare_candidates(const void *pa, const void *pb)
{
    const struct candidate *a = pa, *b = pb;
    if (a->bound != b->bound)
        return a->bound > b->bound ? -1 : 1;
    return a->move - b->move;
}

/* The distance to zeroing of the moves seen so far: the winner's is the least over the
 * moves that win, the loser's the most over all (every move of a lost state loses). A
 * winning move whose distance is not known makes the least unknown unless another has
 * 1; any move's, the most. */
struct dtz_range {
    int least, most;        /* 0: no move seen yet */
    bool least_unknown, most_unknown;
};

static void dtz_add(struct dtz_range *r, struct rule_verdict move)
{
    bool unknown = move.dtz == RULE_DTZ_UNKNOWN;
    r->most_unknown |= unknown;
    if (move.wdl == WDL_WIN) {
        r->least_unknown |= unknown;
        if (!unknown && (r->least == 0 || move.dtz < r->least))
            r->least = move.dtz;
    }
    if (move.dtz > r->most)
        r->most = move.dtz;
}

static int dtz_of(const struct dtz_range *r, enum wdl wdl)
{
    if (wdl == WDL_DRAW)
        return -1;
    if (wdl == WDL_WIN)
        return r->least == 1 || !r->least_unknown ? r->least : RULE_DTZ_UNKNOWN;
    return r->most_unknown ? RULE_DTZ_UNKNOWN : r->most;
}

int rule_dtz_parent(int child_dtz, bool drawn, bool zeroing)
{
    return drawn ? -1 : zeroing ? 1 : child_dtz < 0 ? child_dtz : child_dtz + 1;
}

/* The best move of p under the counts c, searched: the moves in the order of their
 * bounds (rank_bound), until the best found is as good as any bound left. A won state
 * whose moves left may win too does not know its distance to zeroing then (one of them
 * may zero sooner), unless a move found zeroes at once: searching them all for it cost
 * more than 4 million states where the plies alone needed a few thousand (russian
 * W:WKa1,Kb2,c3:BKh6 without rule tables). */
static int solve_moves(struct rule_search *s, const struct position *p,
                       const struct rule_counts *c, struct rule_verdict *out)
{
    const struct rule_oracle *o = s->oracle;
    struct move_list *list = malloc(sizeof *list);
    struct candidate *cand = malloc(MAX_MOVES * sizeof *cand);
    int status = list && cand ? 0 : RULE_SEARCH_ERR_MEMORY;
    struct dtz_range dtz = { 0, 0, false, false };
    bool beyond = false;
    if (status == 0)
        generate_moves(s->row->v, p, 0, list);
    for (int k = 0; status == 0 && k < list->count; k++) {
        dtm_t dtm;
        mtc_t mtc;
        make_move(p, &list->moves[k], &cand[k].child);
        status = o->plain(o->context, &cand[k].child, &dtm, &mtc);
        cand[k].bound = rank_bound(dtm);
        cand[k].move = k;
    }
    if (status == 0)
        qsort(cand, (size_t)list->count, sizeof *cand, compare_candidates);
    for (int k = 0; status == 0 && k < list->count; k++) {
        if (k > 0 && rule_verdict_rank(*out) >= cand[k].bound) {
            dtz.least_unknown |= out->wdl == WDL_WIN && cand[k].bound > 0;
            break; /* no move left can do better */
        }
        const struct move *m = &list->moves[cand[k].move];
        struct rule_counts after;
        struct rule_verdict v;
        rule_counts_after(s->row, p, c, move_facts_of(p, m), &cand[k].child, &after);
        if ((status = solve(s, &cand[k].child, &after, &v)) != 0)
            break; /* stopped, or out of memory: v holds nothing */
        v = rule_verdict_parent(v, rule_counts_zeroing(s->row, c, &after));
        beyond |= v.beyond;
        dtz_add(&dtz, v);
        if (k == 0 || rule_verdict_rank(v) > rule_verdict_rank(*out))
            *out = v;
    }
    if (status == 0) {
        out->dtz = dtz_of(&dtz, out->wdl);
        out->beyond = beyond;
    }
    free(list);
    free(cand);
    return status;
}

static int solve(struct rule_search *s, const struct position *p, const struct rule_counts *c,
                 struct rule_verdict *out)
{
    const struct rule_oracle *o = s->oracle;
    dtm_t dtm, fresh;
    mtc_t mtc;
    int fresh_dtz;
    bool known;
    if (o->stop && ++s->visits % RULE_SEARCH_STOP_EVERY == 0 && o->stop(o->context))
        return RULE_SEARCH_ERR_STOPPED;
    int status = o->plain(o->context, p, &dtm, &mtc);
    if (status != 0)
        return status;
    if (dtm != DTM_DRAW && dtm_plies(dtm) == 0) { /* the game is over */
        *out = (struct rule_verdict){ dtm_wdl(dtm), 0, 0, false };
        return 0;
    }
    if (dtm == DTM_DRAW || rule_counts_expired(s->row, p, c) >= 0 ||
        count_cannot_hold(s, p, c, dtm, mtc)) {
        *out = draw_verdict;
        return 0;
    }
    if ((status = o->fresh(o->context, p, &fresh, &fresh_dtz, &known)) != 0)
        return status;
    if (known && fresh_decides(s->row, p, c, fresh, fresh_dtz, out))
        return 0;
    if (!known && !any_count_runs(s->row, c)) {
        *out = (struct rule_verdict){ dtm_wdl(dtm), dtm_plies(dtm), RULE_DTZ_UNKNOWN, true };
        return 0;
    }
    int8_t key[KEY_SIZE];
    counts_key(c, key);
    const struct rule_memo_entry *e = memo_find(s, p, key);
    if (e) {
        *out = e->v;
        return 0;
    }
    status = solve_moves(s, p, c, out);
    /* counts that run in step keep the fresh distance wherever the state is won or lost,
     * also where the fresh value did not decide it (fewer plies left than it needs) */
    if (status == 0 && known && out->dtz == RULE_DTZ_UNKNOWN && out->wdl != WDL_DRAW &&
        fresh_dtz != RULE_DTZ_UNKNOWN && rule_counts_keep_distance(s->row, p, c))
        out->dtz = fresh_dtz;
    return status == 0 ? memo_store(s, p, key, *out) : status;
}

int rule_search_value(struct rule_search *s, const struct position *p,
                      const struct rule_counts *c, struct rule_verdict *out)
{
    return solve(s, p, c, out);
}

/* ---- the distance to zeroing, exactly ---- */

/* A move of a won or lost state that keeps its value, for the distance search. */
struct distance_move {
    struct position child;
    struct rule_counts after;
    struct rule_verdict child_value; /* the state after it, for the side to move there */
    int dtz;                         /* the move's, or RULE_DTZ_UNKNOWN */
    int bound;                       /* the least it can be in a win, the most in a loss */
};

static int bound_ascending(const void *pa, const void *pb)
{
    const struct distance_move *a = pa, *b = pb;
    return (a->bound > b->bound) - (a->bound < b->bound);
}

static int bound_descending(const void *pa, const void *pb)
{
    return bound_ascending(pb, pa);
}

/* The least distance a state of p can have: its fresh state's where a distance table
 * knows it (never shorter: see fresh_decides), else 1. */
static int fresh_floor(struct rule_search *s, const struct position *p, int *floor)
{
    dtm_t fresh;
    int dtz;
    bool known;
    int status = s->oracle->fresh(s->oracle->context, p, &fresh, &dtz, &known);
    *floor = status == 0 && known && fresh != DTM_DRAW && dtz > 0 ? dtz : 1;
    return status;
}

/* The most the distance of a state (p, c) worth a win or loss in `plies` can be: its
 * plies, and the plies left of each running count (a line the winner keeps zeroes or
 * ends the game before any count runs out). */
static int dtz_ceiling(const struct rule_search *s, const struct position *p,
                       const struct rule_counts *c, int plies)
{
    int most = plies;
    for (int k = 0; k < s->row->num; k++)
        if (c->plies[k] != RULE_COUNT_NOT_STARTED && plies_left(s->row, p, c, k) < most)
            most = plies_left(s->row, p, c, k);
    return most;
}

/* The moves of p under c that keep the value `wdl` (in a win the winning ones; in a loss
 * all), each with its distance where the values after them tell it, and its bound: in a
 * win the least it can be (one more than the floor after a move that does not zero), in
 * a loss the most (one more than the ceiling after it). */
static int distance_moves(struct rule_search *s, const struct position *p,
                          const struct rule_counts *c, enum wdl wdl,
                          struct distance_move *moves, int *count)
{
    struct move_list *list = malloc(sizeof *list);
    int status = list ? 0 : RULE_SEARCH_ERR_MEMORY;
    *count = 0;
    if (status == 0)
        generate_moves(s->row->v, p, 0, list);
    for (int k = 0; status == 0 && k < list->count; k++) {
        struct distance_move *m = &moves[*count];
        make_move(p, &list->moves[k], &m->child);
        rule_counts_after(s->row, p, c, move_facts_of(p, &list->moves[k]), &m->child,
                          &m->after);
        if ((status = solve(s, &m->child, &m->after, &m->child_value)) != 0)
            break;
        struct rule_verdict move = rule_verdict_parent(m->child_value,
                                                       rule_counts_zeroing(s->row, c, &m->after));
        if (move.wdl != wdl)
            continue;
        int floor = 1;
        if (move.dtz == RULE_DTZ_UNKNOWN && wdl == WDL_WIN)
            status = fresh_floor(s, &m->child, &floor);
        m->dtz = move.dtz;
        m->bound = move.dtz != RULE_DTZ_UNKNOWN ? move.dtz
                   : wdl == WDL_WIN ? 1 + floor
                                    : 1 + dtz_ceiling(s, &m->child, &m->after, m->child_value.plies);
        (*count)++;
    }
    free(list);
    return status;
}

#define DISTANCE_BEYOND (-1100) /* the distance search met a value taken beyond the tables */

/* Whether the distance of the state (p, c), worth v, is at most d: in a win, some
 * winning move's is at most d; in a loss, every move's is. A move that zeroes is worth 1,
 * one whose value after it tells its distance that, and below any other the question
 * is asked again for d - 1 after it, unless its bound answers it: in a win, 1 more than
 * the fresh distance after it (never less), in a loss, 1 more than the ceiling after it
 * (never more). What each answer teaches (the distance is at most d, or more) is kept in
 * the state's entry, so that the next question, for a larger d, goes no deeper than it
 * must. */
static int within(struct rule_search *s, const struct position *p,
                  const struct rule_counts *c, const struct rule_verdict *v, int d, bool *yes)
{
    if (v->dtz != RULE_DTZ_UNKNOWN) {
        *yes = v->dtz <= d;
        return 0;
    }
    if (v->beyond)
        return DISTANCE_BEYOND;
    int8_t key[KEY_SIZE];
    counts_key(c, key);
    const struct rule_memo_entry *e = memo_find(s, p, key);
    int least = e ? e->dtz_least : 1, most = dtz_ceiling(s, p, c, v->plies);
    if (e && e->dtz_most < most)
        most = e->dtz_most;
    if (d >= most || d < least) {
        *yes = d >= most;
        return 0;
    }
    bool win = v->wdl == WDL_WIN;
    int count = 0;
    struct distance_move *moves = malloc(MAX_MOVES * sizeof *moves);
    int status = moves ? distance_moves(s, p, c, v->wdl, moves, &count) : RULE_SEARCH_ERR_MEMORY;
    if (status == 0)
        qsort(moves, (size_t)count, sizeof *moves, win ? bound_ascending : bound_descending);
    *yes = !win;
    for (int k = 0; status == 0 && k < count; k++) {
        const struct distance_move *m = &moves[k];
        if (win ? m->bound > d : m->bound <= d)
            break; /* no move left can change the answer */
        bool move_within = m->dtz != RULE_DTZ_UNKNOWN && m->dtz <= d;
        if (m->dtz == RULE_DTZ_UNKNOWN)
            status = within(s, &m->child, &m->after, &m->child_value, d - 1, &move_within);
        if (move_within == win) {
            *yes = win;
            break;
        }
    }
    free(moves);
    if (status != 0)
        return status;
    return memo_learn(s, p, key, *v, *yes ? least : d + 1, *yes ? d : most);
}

/* Sets v->dtz (v: the value of p under c, won or lost): the least d, from the fresh
 * distance up to the ceiling, at which the state is within d. */
static int distance(struct rule_search *s, const struct position *p,
                    const struct rule_counts *c, struct rule_verdict *v)
{
    int floor, status = fresh_floor(s, p, &floor);
    for (int d = floor; status == 0 && d <= dtz_ceiling(s, p, c, v->plies); d++) {
        bool yes;
        if ((status = within(s, p, c, v, d, &yes)) == 0 && yes) {
            v->dtz = d;
            break;
        }
    }
    return status;
}

int rule_search_distance(struct rule_search *s, const struct position *p,
                         const struct rule_counts *c, struct rule_verdict *v)
{
    if (v->wdl == WDL_DRAW || v->dtz != RULE_DTZ_UNKNOWN || v->beyond)
        return 0;
    /* a bound of its own, below the search's: where it is reached, the distance is left
     * unknown and the search keeps room for the calls that follow */
    size_t max_states = s->max_states;
    if (s->used + s->distance_states < max_states)
        s->max_states = s->used + s->distance_states;
    int status = distance(s, p, c, v);
    s->max_states = max_states;
    return status == RULE_SEARCH_ERR_TOO_MANY || status == DISTANCE_BEYOND ? 0 : status;
}
