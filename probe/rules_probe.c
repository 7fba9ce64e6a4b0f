/* Values under the move-limit rules (damero.h, "Values under the move-limit rules").
 *
 * The state of a game is its position and its counts (format/rule_state.h). Its value
 * under the rules is found by a search of the game tree under the counts: a game over is
 * decided; a count that has run out draws; otherwise the side to move takes its best
 * move (a win by the fewest plies, then a draw, then a loss by the most plies). The
 * tables cut the search short where they settle the answer: the rules only ever turn
 * wins and losses into draws, so a draw without the rules is a draw under them, and a
 * win or loss that needs more plies than a count has left (to the end of the game, or
 * to the next conversion: count_cannot_hold) is a draw. Every other move runs a
 * count on towards its limit or makes progress that cannot be undone (a capture, a man
 * move, a promotion), so the search ends; where no count runs at all, the tables' value
 * is taken and the answer says so (tables_beyond). Each call keeps its own transposition
 * table of the states it has solved, so calls share nothing. */
#include "probe/damero.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "format/rule_state.h"
#include "probe/probe_fail.h"

#define MAX_STATES ((size_t)1 << 22)

struct verdict {
    int wdl;        /* enum damero_wdl */
    int plies;      /* -1 in a draw */
    bool beyond;    /* a tables' value was taken where no count runs */
};

struct memo_entry {
    struct position p;
    int8_t counts[RULES_MAX];
    bool used;
    struct verdict v;
};

struct search {
    damero_tb *tb;
    struct rule_row row;
    struct memo_entry *memo;
    size_t capacity, used; /* capacity: a power of two */
    int number_of_bit[64];
};

/* ---- positions between the public numbering and the board's bits ---- */

static uint64_t bits_to_numbers(const struct search *s, bb_t bits)
{
    uint64_t numbers = 0;
    int bit;
    BB_FOR_EACH(bit, bits)
        numbers |= (uint64_t)1 << (s->number_of_bit[bit] - 1);
    return numbers;
}

static void to_public(const struct search *s, const struct position *p, damero_position *out)
{
    for (int side = 0; side < 2; side++) {
        out->men[side] = bits_to_numbers(s, p->men[side]);
        out->kings[side] = bits_to_numbers(s, p->kings[side]);
    }
    out->side_to_move = (int)p->side;
}

static bb_t numbers_to_bits(const struct variant *v, uint64_t numbers)
{
    bb_t bits = 0;
    int bit;
    BB_FOR_EACH(bit, numbers)
        bits |= bb_of(square_from_number(v, bit + 1));
    return bits;
}

/* pos on the board; it has been checked by damero_probe first. */
static void to_internal(const struct variant *v, const damero_position *pos, struct position *p)
{
    for (int side = 0; side < 2; side++) {
        p->men[side] = numbers_to_bits(v, pos->men[side]);
        p->kings[side] = numbers_to_bits(v, pos->kings[side]);
    }
    p->side = (enum side)pos->side_to_move;
}

static int search_init(struct search *s, damero_tb *tb, int reading)
{
    const struct variant *v = tb ? variant_by_name(damero_variant(tb)) : NULL;
    memset(s, 0, sizeof *s);
    s->tb = tb;
    if (!v || rule_row_init(&s->row, v, reading) < 0)
        return probe_fail(DAMERO_ERR_ARGUMENT, "the reading must be 0 (each rule's first) "
                                               "or 1 (the second, where a rule has two)");
    int bit;
    BB_FOR_EACH(bit, v->board()->board)
        s->number_of_bit[bit] = square_number(v, bit);
    return DAMERO_OK;
}

/* ---- the transposition table ---- */

static uint64_t state_hash(const struct position *p, const int8_t counts[RULES_MAX])
{
    uint64_t h = p->side ? 0x9e3779b97f4a7c15u : 0;
    const uint64_t words[4] = { p->men[0], p->men[1], p->kings[0], p->kings[1] };
    for (int k = 0; k < 4; k++)
        h = (h ^ words[k]) * 0xff51afd7ed558ccdu, h ^= h >> 29;
    for (int k = 0; k < RULES_MAX; k++)
        h = (h ^ (uint8_t)counts[k]) * 0xc4ceb9fe1a85ec53u, h ^= h >> 31;
    return h;
}

/* The slot of the state: where it is, or the empty one where it would go. */
static struct memo_entry *memo_slot(struct memo_entry *memo, size_t capacity,
                                    const struct position *p, const int8_t counts[RULES_MAX])
{
    size_t i = state_hash(p, counts) & (capacity - 1);
    while (memo[i].used && !(position_equal(&memo[i].p, p) && memo[i].p.side == p->side &&
                             memcmp(memo[i].counts, counts, RULES_MAX) == 0))
        i = (i + 1) & (capacity - 1);
    return &memo[i];
}

static int memo_grow(struct search *s)
{
    size_t capacity = s->capacity ? 2 * s->capacity : 4096;
    struct memo_entry *memo = calloc(capacity, sizeof *memo);
    if (!memo)
        return probe_fail(DAMERO_ERR_MEMORY, "out of memory searching under the rules");
    for (size_t i = 0; i < s->capacity; i++)
        if (s->memo[i].used)
            *memo_slot(memo, capacity, &s->memo[i].p, s->memo[i].counts) = s->memo[i];
    free(s->memo);
    s->memo = memo;
    s->capacity = capacity;
    return DAMERO_OK;
}

static int memo_store(struct search *s, const struct position *p,
                      const int8_t counts[RULES_MAX], struct verdict v)
{
    if (s->used >= MAX_STATES)
        return probe_fail(DAMERO_ERR_MEMORY, "the search under the rules needs more than "
                                             "4 million states");
    if (2 * (s->used + 1) > s->capacity && memo_grow(s) != DAMERO_OK)
        return DAMERO_ERR_MEMORY;
    struct memo_entry *e = memo_slot(s->memo, s->capacity, p, counts);
    *e = (struct memo_entry){ .p = *p, .used = true, .v = v };
    memcpy(e->counts, counts, RULES_MAX);
    s->used++;
    return DAMERO_OK;
}

/* ---- the search ---- */

/* Wins first by the fewest plies, then draws, then losses by the most plies. */
static int verdict_rank(struct verdict v)
{
    return v.wdl == DAMERO_WIN ? 100000 - v.plies : v.wdl == DAMERO_LOSS ? -100000 + v.plies : 0;
}

/* The value of a move for the side that plays it, from the value after it. */
static struct verdict verdict_parent(struct verdict child)
{
    return (struct verdict){ -child.wdl, child.plies < 0 ? -1 : child.plies + 1, child.beyond };
}

static const struct verdict draw_verdict = { DAMERO_DRAW, -1, false };

/* Whether a running count has too few plies left for the winner to get out of it. A
 * "win within" count ends only with the game: the DTM must be within what is left. A
 * no-progress count stops binding when it is reset or its ending is left, each a capture
 * or a man move, a conversion; a win under the rules keeps the win without them at every
 * step, so it converts within the count: the MTC (the fewest plies to a conversion that
 * keeps the win, the loser delaying it the most) must be within what is left. */
static bool count_cannot_hold(const struct rule_row *row, const struct position *p,
                              const struct rule_counts *c, damero_value plain)
{
    for (int k = 0; k < row->num; k++) {
        if (c->plies[k] == RULE_COUNT_NOT_STARTED)
            continue;
        int left = rule_limit_plies(row, k, p, c->plies[k]) - c->plies[k];
        int needed = row_rule(row, k)->kind == LIMIT_WIN_WITHIN ? plain.dtm : plain.mtc;
        if (needed > left)
            return true;
    }
    return false;
}

static bool any_count_runs(const struct rule_row *row, const struct rule_counts *c)
{
    for (int k = 0; k < row->num; k++)
        if (c->plies[k] != RULE_COUNT_NOT_STARTED)
            return true;
    return false;
}

static int solve(struct search *s, const struct position *p, const struct rule_counts *c,
                 struct verdict *out);

/* The best move of p under the counts c, searched. */
static int solve_moves(struct search *s, const struct position *p, const struct rule_counts *c,
                       struct verdict *out)
{
    struct move_list *list = malloc(sizeof *list);
    if (!list)
        return probe_fail(DAMERO_ERR_MEMORY, "out of memory searching under the rules");
    generate_moves(s->row.v, p, 0, list);
    int status = DAMERO_OK;
    bool beyond = false;
    for (int k = 0; k < list->count && status == DAMERO_OK; k++) {
        struct position child;
        struct rule_counts after;
        struct verdict v;
        make_move(p, &list->moves[k], &child);
        rule_counts_after(&s->row, p, c, move_facts_of(p, &list->moves[k]), &child, &after);
        status = solve(s, &child, &after, &v);
        v = verdict_parent(v);
        beyond |= v.beyond;
        if (k == 0 || verdict_rank(v) > verdict_rank(*out))
            *out = v;
    }
    out->beyond = beyond;
    free(list);
    return status;
}

static int solve(struct search *s, const struct position *p, const struct rule_counts *c,
                 struct verdict *out)
{
    damero_position pos;
    damero_value plain;
    to_public(s, p, &pos);
    int status = damero_probe(s->tb, &pos, &plain);
    if (status != DAMERO_OK)
        return status;
    if (plain.wdl != DAMERO_DRAW && plain.dtm == 0) { /* the game is over */
        *out = (struct verdict){ plain.wdl, 0, false };
        return DAMERO_OK;
    }
    if (plain.wdl == DAMERO_DRAW || rule_counts_expired(&s->row, p, c) >= 0 ||
        count_cannot_hold(&s->row, p, c, plain)) {
        *out = draw_verdict;
        return DAMERO_OK;
    }
    if (!any_count_runs(&s->row, c)) {
        *out = (struct verdict){ plain.wdl, plain.dtm, true };
        return DAMERO_OK;
    }
    int8_t key[RULES_MAX];
    for (int k = 0; k < RULES_MAX; k++)
        key[k] = (int8_t)c->plies[k];
    if (s->capacity) {
        struct memo_entry *e = memo_slot(s->memo, s->capacity, p, key);
        if (e->used) {
            *out = e->v;
            return DAMERO_OK;
        }
    }
    status = solve_moves(s, p, c, out);
    return status == DAMERO_OK ? memo_store(s, p, key, *out) : status;
}

/* ---- the public calls ---- */

int damero_rule_count(const damero_tb *tb)
{
    struct rule_row row;
    const struct variant *v = tb ? variant_by_name(damero_variant(tb)) : NULL;
    return v && rule_row_init(&row, v, 0) == 0 ? row.num : 0;
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

/* The counts of a call in the state's form, settled for p; counts in range. */
static int counts_in(const struct search *s, const struct position *p,
                     const damero_counts *given, struct rule_counts *c)
{
    for (int k = 0; k < RULES_MAX; k++) {
        int plies = given && k < s->row.num ? given->plies[k] : RULE_COUNT_NOT_STARTED;
        if (plies < RULE_COUNT_NOT_STARTED || plies > 120)
            return probe_fail(DAMERO_ERR_ARGUMENT, "a count is the plies played since it "
                                                   "started (0 to 120), or "
                                                   "DAMERO_COUNT_NOT_STARTED");
        c->plies[k] = plies;
    }
    rule_counts_settle(&s->row, p, c);
    return DAMERO_OK;
}

static void counts_out(const struct rule_counts *c, damero_counts *out)
{
    for (int k = 0; k < DAMERO_MAX_RULES; k++)
        out->plies[k] = c->plies[k];
}

/* Checks pos (through damero_probe, which also gives its plain value) and reads it. */
static int read_position(struct search *s, const damero_position *pos, struct position *p,
                         damero_value *plain)
{
    if (!pos)
        return probe_fail(DAMERO_ERR_ARGUMENT, "no position given");
    int status = damero_probe(s->tb, pos, plain);
    if (status == DAMERO_OK)
        to_internal(s->row.v, pos, p);
    return status;
}

int damero_counts_start(const damero_tb *tb, const damero_position *pos, damero_counts *counts)
{
    struct search s;
    struct position p;
    struct rule_counts c;
    char err[256];
    if (!counts || !pos)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_counts_start: a NULL argument");
    int status = search_init(&s, (damero_tb *)tb, 0);
    if (status != DAMERO_OK)
        return status;
    to_internal(s.row.v, pos, &p);
    if (position_validate(s.row.v, &p, err, sizeof err) < 0)
        return probe_fail(DAMERO_ERR_POSITION, err);
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
    char err[256];
    if (!pos || !counts || !rule)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_counts_run_out: a NULL argument");
    int status = search_init(&s, (damero_tb *)tb, reading);
    if (status != DAMERO_OK)
        return status;
    to_internal(s.row.v, pos, &p);
    if (position_validate(s.row.v, &p, err, sizeof err) < 0)
        return probe_fail(DAMERO_ERR_POSITION, err);
    if ((status = counts_in(&s, &p, counts, &c)) == DAMERO_OK)
        *rule = rule_counts_expired(&s.row, &p, &c);
    return status;
}

/* The facts of a public move of pos: a capture, a man moved, a man crowned. */
static struct move_facts public_move_facts(const damero_position *pos, const damero_move *m)
{
    int side = pos->side_to_move;
    bool man = (pos->men[side] >> (m->from - 1)) & 1;
    return (struct move_facts){ .capture = m->captures > 0, .man_move = man,
                                .promotion = man && ((m->after.kings[side] >> (m->to - 1)) & 1) };
}

int damero_counts_after(const damero_tb *tb, const damero_position *pos,
                        const damero_counts *counts, const damero_move *move,
                        damero_counts *after)
{
    struct search s;
    struct position p, child;
    struct rule_counts c, next;
    char err[256];
    if (!pos || !counts || !move || !after)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_counts_after: a NULL argument");
    int status = search_init(&s, (damero_tb *)tb, 0);
    if (status != DAMERO_OK)
        return status;
    to_internal(s.row.v, pos, &p);
    to_internal(s.row.v, &move->after, &child);
    if (position_validate(s.row.v, &p, err, sizeof err) < 0 ||
        position_validate(s.row.v, &child, err, sizeof err) < 0)
        return probe_fail(DAMERO_ERR_POSITION, err);
    if ((status = counts_in(&s, &p, counts, &c)) != DAMERO_OK)
        return status;
    rule_counts_after(&s.row, &p, &c, public_move_facts(pos, move), &child, &next);
    counts_out(&next, after);
    return DAMERO_OK;
}

/* In a cursed win or a blessed loss, the running count with the fewest plies left. */
static int binding_rule(const struct rule_row *row, const struct position *p,
                        const struct rule_counts *c)
{
    int best = -1, best_left = 0;
    for (int k = 0; k < row->num; k++) {
        if (c->plies[k] == RULE_COUNT_NOT_STARTED)
            continue;
        int left = rule_limit_plies(row, k, p, c->plies[k]) - c->plies[k];
        if (best < 0 || left < best_left)
            best = k, best_left = left;
    }
    return best;
}

/* The value under the rules of p with settled counts c, its plain value known. */
static int rules_value(struct search *s, const struct position *p, const struct rule_counts *c,
                       damero_value plain, damero_rules_value *out)
{
    struct verdict v;
    int status = solve(s, p, c, &v);
    if (status != DAMERO_OK)
        return status;
    *out = (damero_rules_value){ .plain = plain, .wdl = v.wdl, .plies = v.plies,
                                 .rule = -1, .tables_beyond = v.beyond };
    counts_out(c, &out->counts);
    if (v.wdl == DAMERO_DRAW && plain.wdl != DAMERO_DRAW)
        out->rule = binding_rule(&s->row, p, c);
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
        status = rules_value(&s, &p, &c, plain, value);
    free(s.memo);
    return status;
}

/* Rank without the rules, for ties under them: as damero_root_moves orders. */
static int plain_rank(damero_value v)
{
    return v.wdl == DAMERO_WIN ? 100000 - v.dtm : v.wdl == DAMERO_LOSS ? -100000 + v.dtm : 0;
}

static int compare_rules_moves(const void *pa, const void *pb)
{
    const damero_rules_move *a = pa, *b = pb;
    struct verdict va = { a->value.wdl, a->value.plies, false };
    struct verdict vb = { b->value.wdl, b->value.plies, false };
    if (verdict_rank(va) != verdict_rank(vb))
        return verdict_rank(va) > verdict_rank(vb) ? -1 : 1;
    if (plain_rank(a->value.plain) != plain_rank(b->value.plain))
        return plain_rank(a->value.plain) > plain_rank(b->value.plain) ? -1 : 1;
    return strcmp(a->move.text, b->move.text);
}

/* Scores one move of pos (counts c settled for p): its counts after and its value. */
static int score_rules_move(struct search *s, const damero_position *pos,
                            const struct position *p, const struct rule_counts *c,
                            damero_rules_move *out)
{
    struct position child;
    struct rule_counts after;
    damero_rules_value v;
    damero_value child_plain;
    to_internal(s->row.v, &out->move.after, &child);
    rule_counts_after(&s->row, p, c, public_move_facts(pos, &out->move), &child, &after);
    int status = damero_probe(s->tb, &out->move.after, &child_plain);
    if (status == DAMERO_OK)
        status = rules_value(s, &child, &after, child_plain, &v);
    if (status != DAMERO_OK)
        return status;
    struct verdict parent = verdict_parent((struct verdict){ v.wdl, v.plies, false });
    out->value = (damero_rules_value){ .plain = out->move.value, .wdl = parent.wdl,
                                       .plies = parent.plies, .rule = v.rule,
                                       .tables_beyond = v.tables_beyond, .counts = v.counts };
    return DAMERO_OK;
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
    for (int k = 0; status == DAMERO_OK && k < *count; k++) {
        moves[k] = (damero_rules_move){ .move = plain_moves[k] };
        /* the same transposition table serves every move: the states are the same game's */
        status = score_rules_move(&s, pos, &p, &c, &moves[k]);
    }
    if (status == DAMERO_OK)
        qsort(moves, (size_t)*count, sizeof *moves, compare_rules_moves);
    free(plain_moves);
    free(s.memo);
    return status;
}
