/* Values under the move-limit rules (damero.h, "Values under the move-limit rules").
 *
 * The state of a game is its position and its counts (rules/rule_state.h). Its value
 * under the rules is found by rules/rule_search.c: a game over is decided; a count that
 * has run out draws; the rule table of the position's material (rulegen/rule_table.h), where
 * `damero gen --rules` built it, decides every state but a win whose no-progress count
 * has fewer plies left than the win needs; otherwise the search goes on below, a win by
 * the fewest plies first, then a draw, then a loss by the most plies (docs/how-it-works.md,
 * "Values under the rules: the table"). Without rule tables, where no count runs the
 * tables' value is taken and the answer says so (tables_beyond). Each call keeps its own
 * transposition table of the states it has solved, so calls share nothing. */
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "probe/internal.h"
#include "rules/rule_search.h"

#define MAX_STATES ((size_t)1 << 22)

/* The public strong sides are the internal ones plus one: a copy that the compiler
 * vectorises rather than a choice per count, at every probe under the rules. */
_Static_assert(DAMERO_STRONG_WHITE == WHITE + 1 && DAMERO_STRONG_BLACK == BLACK + 1 &&
               DAMERO_STRONG_UNSAID == RULE_STRONG_NONE + 1, "strong sides differ by one");
_Static_assert(DAMERO_MAX_RULES == RULES_MAX, "as many counts in both");

struct search {
    damero_tb *tb;
    const struct rule_row *row;     /* the handle's */
    struct rule_oracle oracle;
    struct rule_search rs;
    /* the position whose plain value the call has already probed, and that value: the
     * search asks for it first, and a probe that a lookup answers costs a third less
     * for not reading it twice */
    struct position known;
    struct material known_material;
    dtm_t known_dtm, known_fresh;
    int known_dtz;
    mtc_t known_mtc;
    bool has_known, fresh_known;
};

/* ---- what the search reads ---- */

/* The calling thread's stop function and its context (damero_set_stop). */
static _Thread_local damero_stop_fn thread_stop;
static _Thread_local void *thread_stop_context;

/* The search's stop question, put to the thread's stop function: the search runs in the
 * thread that called, so the function it set is the one to ask. */
static int ask_thread_stop(void *context)
{
    (void)context;
    return thread_stop(thread_stop_context);
}

static bool is_known(const struct search *s, const struct position *p)
{
    return s->has_known && position_equal(&s->known, p) && s->known.side == p->side;
}

static int plain_value(void *context, const struct position *p, dtm_t *dtm, mtc_t *mtc)
{
    const struct search *s = context;
    if (is_known(s, p)) {
        *dtm = s->known_dtm;
        *mtc = s->known_mtc;
        return DAMERO_OK;
    }
    return probe_plain_value(s->tb, p, dtm, mtc);
}

static int fresh_value(void *context, const struct position *p, dtm_t *value, int *dtz,
                       bool *known)
{
    const struct search *s = context;
    if (is_known(s, p)) {
        *value = s->known_fresh;
        *dtz = s->known_dtz;
        *known = s->fresh_known;
        return DAMERO_OK;
    }
    return probe_rules_fresh(s->tb, p, s->row->reading, value, dtz, known);
}

static int search_init(struct search *s, damero_tb *tb, int reading)
{
    const struct rule_row *row = probe_rule_row(tb, reading);
    /* field by field: zeroing the whole (about 300 bytes, with the position it may
     * remember) was a tenth of a probe's cost under the rules */
    s->tb = tb;
    s->row = row;
    s->has_known = s->fresh_known = false;
    /* no reset distance here: the MTC cuts the counts that man steps do not reset */
    s->oracle = (struct rule_oracle){ s, plain_value, fresh_value, NULL,
                                      thread_stop ? ask_thread_stop : NULL };
    rule_search_init(&s->rs, s->row, &s->oracle, MAX_STATES); /* freed whatever follows */
    /* 0 was the first reading before 0.3.0: old code fails loudly, not silently */
    if (reading != 1 && reading != 2)
        return probe_fail(DAMERO_ERR_ARGUMENT, "reading %d: readings are numbered 1 (each "
                          "rule's first) and 2 (the second, where a rule has two) since "
                          "damero 0.3.0, where 0.2 took 0 and 1", reading);
    if (!row)
        return probe_fail(DAMERO_ERR_ARGUMENT, "a NULL handle");
    return DAMERO_OK;
}

/* ---- the counts, and the verdict under them ---- */

/* The counts of a call in the state's form, settled for p; counts in range, and the
 * side of every running "win within" count known. */
static int counts_in(const struct search *s, const struct position *p,
                     const damero_counts *given, struct rule_counts *c)
{
    struct material m = is_known(s, p) ? s->known_material : material_of(p);
    if (!given) { /* every count starts at p: nothing to check */
        rule_counts_fresh_for(s->row, p, &m, c);
        return DAMERO_OK;
    }
    for (int k = 0; k < RULES_MAX; k++) {
        bool ours = k < s->row->num;
        int plies = ours ? given->plies[k] : RULE_COUNT_NOT_STARTED;
        int strong = ours ? given->strong[k] : DAMERO_STRONG_UNSAID;
        if (plies < RULE_COUNT_NOT_STARTED || plies > 120)
            return probe_fail(DAMERO_ERR_ARGUMENT, "a count is the plies played since it "
                                                   "started (0 to 120), or "
                                                   "DAMERO_COUNT_NOT_STARTED");
        if (strong < DAMERO_STRONG_UNSAID || strong > DAMERO_STRONG_BLACK)
            return probe_fail(DAMERO_ERR_ARGUMENT, "a count's strong side is "
                                                   "DAMERO_STRONG_UNSAID, _WHITE or _BLACK");
        c->plies[k] = plies;
        c->strong[k] = strong == DAMERO_STRONG_WHITE   ? WHITE
                       : strong == DAMERO_STRONG_BLACK ? BLACK
                                                       : RULE_STRONG_NONE;
    }
    rule_counts_settle_for(s->row, p, &m, c);
    int unknown = rule_counts_strong_unknown(s->row, c);
    if (unknown >= 0)
        return probe_fail(DAMERO_ERR_ARGUMENT, "the %s count runs and both sides have as many "
                          "pieces: say which side it is for (damero_counts.strong in C, "
                          "damero.Count(plies, strong) in Python, --count RULE=N:white or "
                          "RULE=N:black on the command line)",
                          row_rule(s->row, unknown)->name);
    return DAMERO_OK;
}

static void counts_out(const struct rule_counts *c, damero_counts *out)
{
    for (int k = 0; k < DAMERO_MAX_RULES; k++) {
        out->plies[k] = c->plies[k];
        out->strong[k] = c->strong[k] + 1;
    }
}

/* Checks pos and reads it, with its plain value and its rule table's value at once (the
 * search asks for both first: a probe that a lookup answers reads each once). */
static int read_position(struct search *s, const damero_position *pos, struct position *p,
                         damero_value *plain)
{
    int status = probe_position_in(s->tb, pos, p);
    if (status == DAMERO_OK)
        status = probe_values(s->tb, p, s->row->reading, &s->known_dtm, &s->known_mtc,
                              &s->known_fresh, &s->known_dtz, &s->fresh_known,
                              &s->known_material);
    if (status != DAMERO_OK)
        return status;
    s->known = *p;
    s->has_known = true;
    *plain = public_value(s->known_dtm, s->known_mtc);
    return DAMERO_OK;
}

/* The facts of a public move of pos: a capture, a man moved, a man crowned. */
static struct move_facts public_move_facts(const damero_position *pos, const damero_move *m)
{
    int side = pos->side_to_move;
    bool man = (pos->men[side] >> (m->from - 1)) & 1;
    return (struct move_facts){ .capture = m->captures > 0, .man_move = man,
                                .promotion = man && ((m->after.kings[side] >> (m->to - 1)) & 1) };
}

/* In a cursed win or a blessed loss, the running count with the fewest plies left. */
static int binding_rule(const struct rule_row *row, const struct position *p,
                        const struct rule_counts *c)
{
    int best = -1, best_left = 0;
    for (int k = 0; k < row->num; k++) {
        if (c->plies[k] == RULE_COUNT_NOT_STARTED)
            continue;
        int left = rule_limit_plies(row, k, p, c) - c->plies[k];
        if (best < 0 || left < best_left)
            best = k, best_left = left;
    }
    return best;
}

/* A search's status as a damero status. */
static int search_status(int status)
{
    if (status == RULE_SEARCH_ERR_MEMORY)
        return probe_fail(DAMERO_ERR_MEMORY, "out of memory searching under the rules");
    if (status == RULE_SEARCH_ERR_TOO_MANY)
        return probe_fail(DAMERO_ERR_MEMORY, "the search under the rules needs more than "
                                             "4 million states");
    if (status == RULE_SEARCH_ERR_STOPPED)
        return probe_fail(DAMERO_ERR_STOPPED, "the search under the rules was stopped: the "
                                              "thread's stop function (damero_set_stop) "
                                              "asked it to");
    return status;
}

/* The verdict for p under settled counts c (p's fresh counts, when `fresh`): where they
 * are p's fresh counts and its rule table gave their value (read with p's plain value),
 * that value, which is what the search would answer first; else the search. Where the
 * distance to zeroing is not known then, the search looks for it below the moves. */
static int verdict_of(struct search *s, const struct position *p, const struct rule_counts *c,
                      bool fresh, struct rule_verdict *v)
{
    int status = DAMERO_OK;
    if (s->fresh_known && is_known(s, p) &&
        (fresh || rule_counts_differing(s->row, p, c) == 0)) {
        *v = rule_verdict_of_code(s->known_fresh);
        if (v->wdl != WDL_DRAW)
            v->dtz = s->known_dtz;
    } else {
        status = rule_search_value(&s->rs, p, c, v);
    }
    if (status == DAMERO_OK && v->dtz == RULE_DTZ_UNKNOWN)
        status = rule_search_distance(&s->rs, p, c, v);
    return search_status(status);
}

/* The value under the rules of p with settled counts c (p's fresh counts, when
 * `fresh`), its plain value known. */
static int rules_value(struct search *s, const struct position *p, const struct rule_counts *c,
                       bool fresh, damero_value plain, damero_rules_value *out)
{
    struct rule_verdict v;
    int status = verdict_of(s, p, c, fresh, &v);
    if (status != DAMERO_OK)
        return status;
    /* field by field, every one: a compound literal zeroed the struct first (rep stos,
     * as costly as the rest of this function) */
    out->plain = plain;
    out->wdl = public_wdl(v.wdl);
    out->plies = v.plies;
    out->dtz = v.dtz;
    out->rule = -1;
    out->tables_beyond = v.beyond;
    counts_out(c, &out->counts);
    if (v.wdl == WDL_DRAW && plain.wdl != DAMERO_DRAW)
        out->rule = binding_rule(s->row, p, c);
    return DAMERO_OK;
}

/* Wins first by the fewest plies, then draws, then losses by the most plies. */
static int public_rank(int wdl, int plies)
{
    return wdl == DAMERO_WIN ? 100000 - plies : wdl == DAMERO_LOSS ? -100000 + plies : 0;
}

static int compare_rules_moves(const void *pa, const void *pb)
{
    const damero_rules_move *a = pa, *b = pb;
    int ra = public_rank(a->value.wdl, a->value.plies);
    int rb = public_rank(b->value.wdl, b->value.plies);
    /* ties under the rules: as damero_root_moves orders without them */
    int pa_rank = public_rank(a->value.plain.wdl, a->value.plain.dtm);
    int pb_rank = public_rank(b->value.plain.wdl, b->value.plain.dtm);
    if (ra != rb)
        return ra > rb ? -1 : 1;
    if (pa_rank != pb_rank)
        return pa_rank > pb_rank ? -1 : 1;
    return strcmp(a->move.text, b->move.text);
}

/* Scores one move of pos (counts c settled for p): its counts after and its value.
 * `expired`: the count that has already run out at p (the game is drawn there, so no
 * move changes that), or -1. */
static int score_rules_move(struct search *s, const damero_position *pos,
                            const struct position *p, const struct rule_counts *c, int expired,
                            damero_rules_move *out)
{
    struct position child;
    struct rule_counts after;
    damero_rules_value v;
    damero_value child_plain;
    int status = read_position(s, &out->move.after, &child, &child_plain);
    if (status == DAMERO_OK) {
        rule_counts_after(s->row, p, c, public_move_facts(pos, &out->move), &child, &after);
        if (expired >= 0) {
            v = (damero_rules_value){ .plain = child_plain, .wdl = DAMERO_DRAW, .plies = -1,
                                      .rule = out->move.value.wdl != DAMERO_DRAW ? expired : -1,
                                      .dtz = -1 };
            counts_out(&after, &v.counts);
        } else {
            status = rules_value(s, &child, &after, false, child_plain, &v);
        }
    }
    if (status != DAMERO_OK)
        return status;
    /* the value for the side that plays the move, one ply earlier */
    bool zeroing = expired < 0 && rule_counts_zeroing(s->row, c, &after);
    out->value = (damero_rules_value){ .plain = out->move.value, .wdl = -v.wdl,
                                       .plies = v.plies < 0 ? -1 : v.plies + 1, .rule = v.rule,
                                       .tables_beyond = v.tables_beyond, .counts = v.counts,
                                       .dtz = rule_dtz_parent(v.dtz, v.wdl == DAMERO_DRAW,
                                                              zeroing) };
    return DAMERO_OK;
}

/* ---- the public calls ---- */

void damero_set_stop(damero_stop_fn stop, void *context)
{
    thread_stop = stop;
    thread_stop_context = context;
}

int damero_rule_count(const damero_tb *tb)
{
    const struct rule_row *row = probe_rule_row(tb, 1);
    return row ? row->num : 0;
}

int damero_rule(const damero_tb *tb, int k, damero_rule_info *info)
{
    if (!info || k < 0 || k >= damero_rule_count(tb))
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_rule: no such rule");
    const struct move_limit_rule *rule = &variant_by_name(damero_variant(tb))->move_limits[k];
    *info = (damero_rule_info){ .name = rule->name, .words = rule->words,
                                .readings = move_limit_readings(rule) };
    for (int r = 0; r < info->readings; r++) {
        info->limit[r] = rule->readings[r].limit;
        info->unit[r] = unit_words(rule->readings[r].unit);
        info->source[r] = rule->readings[r].source;
    }
    return DAMERO_OK;
}

int damero_counts_start(const damero_tb *tb, const damero_position *pos, damero_counts *counts)
{
    struct search s;
    struct position p;
    struct rule_counts c;
    if (!counts || !pos)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_counts_start: a NULL argument");
    int status = search_init(&s, (damero_tb *)tb, 1);
    if (status != DAMERO_OK || (status = probe_position_in(tb, pos, &p)) != DAMERO_OK)
        return status;
    counts_in(&s, &p, NULL, &c);
    counts_out(&c, counts);
    return DAMERO_OK;
}

int damero_counts_run_out(const damero_tb *tb, const damero_position *pos,
                          const damero_counts *counts, int reading, int *rule)
{
    struct search s;
    struct position p;
    struct rule_counts c;
    if (!pos || !counts || !rule)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_counts_run_out: a NULL argument");
    int status = search_init(&s, (damero_tb *)tb, reading);
    if (status != DAMERO_OK || (status = probe_position_in(tb, pos, &p)) != DAMERO_OK)
        return status;
    if ((status = counts_in(&s, &p, counts, &c)) == DAMERO_OK)
        *rule = rule_counts_expired(s.row, &p, &c);
    return status;
}

int damero_counts_after(const damero_tb *tb, const damero_position *pos,
                        const damero_counts *counts, const damero_move *move,
                        damero_counts *after)
{
    struct search s;
    struct position p, child;
    struct rule_counts c, next;
    if (!pos || !counts || !move || !after)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_counts_after: a NULL argument");
    int status = search_init(&s, (damero_tb *)tb, 1);
    if (status != DAMERO_OK || (status = probe_position_in(tb, pos, &p)) != DAMERO_OK ||
        (status = probe_position_in(tb, &move->after, &child)) != DAMERO_OK)
        return status;
    if ((status = counts_in(&s, &p, counts, &c)) != DAMERO_OK)
        return status;
    rule_counts_after(s.row, &p, &c, public_move_facts(pos, move), &child, &next);
    counts_out(&next, after);
    return DAMERO_OK;
}

int damero_probe_rules(damero_tb *tb, const damero_position *pos,
                       const damero_counts *counts, int reading, damero_rules_value *value)
{
    struct search s;
    struct position p;
    struct rule_counts c;
    damero_value plain;
    if (!value)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_probe_rules: a NULL argument");
    int status = search_init(&s, tb, reading);
    if (status == DAMERO_OK && (status = read_position(&s, pos, &p, &plain)) == DAMERO_OK &&
        (status = counts_in(&s, &p, counts, &c)) == DAMERO_OK)
        status = rules_value(&s, &p, &c, counts == NULL, plain, value);
    rule_search_free(&s.rs);
    return status;
}

int damero_root_moves_rules(damero_tb *tb, const damero_position *pos,
                            const damero_counts *counts, int reading,
                            damero_rules_move *moves, int capacity, int *count)
{
    struct search s;
    struct position p;
    struct rule_counts c;
    damero_value plain;
    damero_move *plain_moves = malloc(DAMERO_MAX_MOVES * sizeof *plain_moves);
    if (!count || (capacity > 0 && !moves) || !plain_moves) {
        free(plain_moves);
        return probe_fail(plain_moves ? DAMERO_ERR_ARGUMENT : DAMERO_ERR_MEMORY,
                          "damero_root_moves_rules: a NULL argument, or out of memory");
    }
    int status = search_init(&s, tb, reading);
    if (status == DAMERO_OK && (status = read_position(&s, pos, &p, &plain)) == DAMERO_OK &&
        (status = counts_in(&s, &p, counts, &c)) == DAMERO_OK)
        status = damero_root_moves(tb, pos, plain_moves, DAMERO_MAX_MOVES, count);
    if (status == DAMERO_OK && *count > capacity)
        status = probe_fail(DAMERO_ERR_ARGUMENT, "the position has more moves than the "
                                                 "room given");
    int expired = status == DAMERO_OK ? rule_counts_expired(s.row, &p, &c) : -1;
    for (int k = 0; status == DAMERO_OK && k < *count; k++) {
        moves[k] = (damero_rules_move){ .move = plain_moves[k] };
        /* the same transposition table serves every move: the states are the same game's */
        status = score_rules_move(&s, pos, &p, &c, expired, &moves[k]);
    }
    if (status == DAMERO_OK)
        qsort(moves, (size_t)*count, sizeof *moves, compare_rules_moves);
    free(plain_moves);
    rule_search_free(&s.rs);
    return status;
}
