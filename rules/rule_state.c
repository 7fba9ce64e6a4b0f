#include "rules/rule_state.h"

#include <string.h>

/* Whether rule k covers material m, and its strong side then: the side with more pieces
 * (White when both have as many). */
static bool covers(const struct rule_row *row, int k, const struct material *m,
                   enum side *strong)
{
    if (material_side_pieces(m, WHITE) >= material_side_pieces(m, BLACK) &&
        rule_covers(row_rule(row, k), m)) {
        *strong = WHITE;
        return true;
    }
    struct material flipped = material_flipped(m);
    *strong = BLACK;
    return material_side_pieces(&flipped, WHITE) >= material_side_pieces(&flipped, BLACK) &&
           rule_covers(row_rule(row, k), &flipped);
}

/* Whether m has a material code (no more than MATERIAL_MAX_PIECES pieces). */
static bool has_code(const struct material *m)
{
    return material_pieces(m) <= MATERIAL_MAX_PIECES;
}

int rule_row_init(struct rule_row *row, const struct variant *v, int reading)
{
    int n = 0;
    while (v->move_limits[n].name)
        n++;
    if (n > RULES_MAX || reading < 0 || reading > 1)
        return -1;
    row->v = v;
    row->num = n;
    row->reading = reading;
    row->preconditioned = 0;
    for (int k = 0; k < n; k++) {
        row->cond[k] = condition_of(v, &v->move_limits[k].precondition);
        if (rule_has_precondition(&v->move_limits[k]))
            row->preconditioned |= 1u << k;
    }
    memset(row->in_force, 0, sizeof row->in_force);
    memset(row->strong_black, 0, sizeof row->strong_black);
    struct material m;
    int most = MATERIAL_MAX_PIECES;
    for (m.kings[WHITE] = 0; m.kings[WHITE] <= most; m.kings[WHITE]++)
        for (m.men[WHITE] = 0; m.men[WHITE] <= most; m.men[WHITE]++)
            for (m.kings[BLACK] = 0; m.kings[BLACK] <= most; m.kings[BLACK]++)
                for (m.men[BLACK] = 0; m.men[BLACK] <= most; m.men[BLACK]++)
                    for (int k = 0; k < n && has_code(&m); k++) {
                        enum side strong;
                        if (!covers(row, k, &m, &strong))
                            continue;
                        row->in_force[material_code(&m)] |= (uint8_t)(1u << k);
                        if (strong == BLACK)
                            row->strong_black[material_code(&m)] |= (uint8_t)(1u << k);
                    }
    return 0;
}

/* Which rules cover a material, and for which side: bit k of `rules` set when rule k
 * covers it, of `black` when its strong side is then Black. */
struct forces {
    unsigned rules, black;
};

static struct forces forces_of(const struct rule_row *row, const struct material *m)
{
    struct forces f = { 0, 0 };
    if (has_code(m))
        return (struct forces){ row->in_force[material_code(m)],
                                row->strong_black[material_code(m)] };
    for (int k = 0; k < row->num; k++) {
        enum side strong;
        if (covers(row, k, m, &strong)) {
            f.rules |= 1u << k;
            f.black |= (strong == BLACK ? 1u : 0u) << k;
        }
    }
    return f;
}

/* Whether rule k is in force by f, and its strong side then. */
static bool in_force(struct forces f, int k, enum side *strong)
{
    *strong = (f.black >> k) & 1 ? BLACK : WHITE;
    return (f.rules >> k) & 1;
}

bool rule_in_force(const struct rule_row *row, int k, const struct position *p,
                   enum side *strong)
{
    struct material m = material_of(p);
    return in_force(forces_of(row, &m), k, strong);
}

/* Whether p meets rule k's precondition, seen with the strong side as White. */
static bool precondition_met(const struct rule_row *row, int k, const struct position *p,
                             enum side strong)
{
    return !((row->preconditioned >> k) & 1) ||
           condition_meets_for(&row->cond[k], p, (int)strong);
}

struct move_facts move_facts_of(const struct position *p, const struct move *m)
{
    return (struct move_facts){ .capture = m->captured != 0,
                                .man_move = (p->men[p->side] & bb_of(m->from)) != 0,
                                .promotion = m->promotes };
}

/* Whether rule k's count, once started, runs until the game ends: a "win within" rule
 * asks for the end of the game, whatever captures happen on the way (the forzosa's
 * lone king taking a sacrificed king ends neither the ending's count nor the task). */
static bool runs_to_the_end(const struct rule_row *row, int k)
{
    return row_rule(row, k)->kind == LIMIT_WIN_WITHIN;
}

/* Starts rule k's count at p, whose rules in force are f, when it has not been running
 * before p (or leaves it not started), with the side it runs for where that matters. */
static void start_count(const struct rule_row *row, int k, const struct position *p,
                        struct forces f, struct rule_counts *counts)
{
    enum side strong;
    bool starts = in_force(f, k, &strong) && precondition_met(row, k, p, strong);
    counts->plies[k] = starts ? 0 : RULE_COUNT_NOT_STARTED;
    counts->strong[k] = starts && runs_to_the_end(row, k) ? (int)strong : RULE_STRONG_NONE;
}

/* The side with more pieces in m, or RULE_STRONG_NONE when both have as many. */
static int side_with_more(const struct material *m)
{
    int white = material_side_pieces(m, WHITE), black = material_side_pieces(m, BLACK);
    return white == black ? RULE_STRONG_NONE : white > black ? WHITE : BLACK;
}

void rule_counts_settle(const struct rule_row *row, const struct position *p,
                        struct rule_counts *counts)
{
    struct material m = material_of(p);
    rule_counts_settle_for(row, p, &m, counts);
}

void rule_counts_settle_for(const struct rule_row *row, const struct position *p,
                            const struct material *m, struct rule_counts *counts)
{
    struct forces f = forces_of(row, m);
    for (int k = 0; k < row->num; k++) {
        enum side strong;
        bool running = counts->plies[k] != RULE_COUNT_NOT_STARTED;
        if (!running && !((f.rules >> k) & 1)) { /* not started, not in force: stays so */
            counts->strong[k] = RULE_STRONG_NONE;
            continue;
        }
        if (!running)
            start_count(row, k, p, f, counts);
        else if (!runs_to_the_end(row, k))
            counts->strong[k] = RULE_STRONG_NONE;
        else if (counts->strong[k] == RULE_STRONG_NONE)
            counts->strong[k] = side_with_more(m);
        if (running && !in_force(f, k, &strong) && !runs_to_the_end(row, k))
            counts->plies[k] = RULE_COUNT_NOT_STARTED;
    }
    for (int k = row->num; k < RULES_MAX; k++) {
        counts->plies[k] = RULE_COUNT_NOT_STARTED;
        counts->strong[k] = RULE_STRONG_NONE;
    }
}

void rule_counts_fresh(const struct rule_row *row, const struct position *p,
                       struct rule_counts *out)
{
    struct material m = material_of(p);
    rule_counts_fresh_for(row, p, &m, out);
}

/* What rule_counts_settle_for makes of counts none of which has started, without its
 * tests of running counts: only the rules in force start, the others stay not started.
 * A probe under the rules makes these at every call, and settling them rule by rule
 * cost a tenth of its time (bench/JOURNAL.md). */
void rule_counts_fresh_for(const struct rule_row *row, const struct position *p,
                           const struct material *m, struct rule_counts *out)
{
    struct forces f = forces_of(row, m);
    for (int k = 0; k < RULES_MAX; k++) {
        out->plies[k] = RULE_COUNT_NOT_STARTED;
        out->strong[k] = RULE_STRONG_NONE;
    }
    for (unsigned rules = f.rules; rules; rules &= rules - 1)
        start_count(row, __builtin_ctz(rules), p, f, out);
}

unsigned rule_counts_differing(const struct rule_row *row, const struct position *p,
                               const struct rule_counts *counts)
{
    unsigned differ = 0;
    struct forces f;
    bool forces_known = false;
    for (int k = 0; k < row->num; k++) {
        struct rule_counts fresh;
        if (counts->plies[k] == RULE_COUNT_NOT_STARTED)
            continue;
        if (counts->plies[k] != 0) { /* a fresh count is 0 or not started */
            differ |= 1u << k;
            continue;
        }
        if (!forces_known) {
            struct material m = material_of(p);
            f = forces_of(row, &m);
            forces_known = true;
        }
        start_count(row, k, p, f, &fresh);
        if (fresh.plies[k] != 0 || fresh.strong[k] != counts->strong[k])
            differ |= 1u << k;
    }
    return differ;
}

int rule_counts_strong_unknown(const struct rule_row *row, const struct rule_counts *counts)
{
    for (int k = 0; k < row->num; k++)
        if (counts->plies[k] != RULE_COUNT_NOT_STARTED && runs_to_the_end(row, k) &&
            counts->strong[k] == RULE_STRONG_NONE)
            return k;
    return -1;
}

/* Whether the move resets a no-progress count of rule k. */
static bool resets(const struct move_limit_rule *rule, struct move_facts f)
{
    switch (rule->reset) {
    case RESET_NONE:
        return false;
    case RESET_CAPTURE_OR_MAN_MOVE:
        return f.capture || f.man_move;
    case RESET_CAPTURE_OR_PROMOTION:
        return f.capture || f.promotion;
    }
    return false;
}

/* Whether a man step resets rule k's count (in a material with men). */
static bool step_resets(const struct rule_row *row, int k, const struct material *m)
{
    const struct move_facts step = { .man_move = true };
    return material_men(m) > 0 && resets(row_rule(row, k), step);
}

bool rule_counts_in_step(const struct rule_row *row, const struct material *m)
{
    struct forces f = forces_of(row, m);
    const struct move_facts capture = { .capture = true },
                            promotion = { .man_move = true, .promotion = true };
    int first = -1; /* the first rule in force, whose man steps the others must match */
    for (int k = 0; k < row->num; k++) {
        const struct move_limit_rule *rule = row_rule(row, k);
        if (!((f.rules >> k) & 1))
            continue;
        if (first < 0)
            first = k;
        if (rule->kind != LIMIT_NO_PROGRESS || rule_has_precondition(rule) ||
            step_resets(row, k, m) != step_resets(row, first, m) || !resets(rule, capture) ||
            (material_men(m) > 0 && !resets(rule, promotion)))
            return false;
    }
    return f.rules != 0;
}

bool rule_steps_reset(const struct rule_row *row, const struct material *m)
{
    struct forces f = forces_of(row, m);
    for (int k = 0; k < row->num; k++)
        if ((f.rules >> k) & 1)
            return step_resets(row, k, m);
    return false;
}

bool rule_counts_keep_distance(const struct rule_row *row, const struct position *p,
                               const struct rule_counts *counts)
{
    if (rule_counts_differing(row, p, counts) == 0)
        return true;
    struct material m = material_of(p);
    if (!rule_counts_in_step(row, &m))
        return false;
    unsigned in_force_here = forces_of(row, &m).rules;
    int plies = RULE_COUNT_NOT_STARTED;
    for (int k = 0; k < row->num; k++) {
        bool running = counts->plies[k] != RULE_COUNT_NOT_STARTED;
        if (running != (((in_force_here >> k) & 1) != 0))
            return false;
        if (running && plies != RULE_COUNT_NOT_STARTED && counts->plies[k] != plies)
            return false;
        if (running)
            plies = counts->plies[k];
    }
    return true;
}

void rule_counts_after(const struct rule_row *row, const struct position *p,
                       const struct rule_counts *in, struct move_facts f,
                       const struct position *child, struct rule_counts *out)
{
    struct material before_m = material_of(p), after_m = material_of(child);
    struct forces before = forces_of(row, &before_m), after = forces_of(row, &after_m);
    for (int k = 0; k < RULES_MAX; k++) {
        enum side strong;
        int count = k < row->num ? in->plies[k] : RULE_COUNT_NOT_STARTED;
        bool running = count != RULE_COUNT_NOT_STARTED;
        out->strong[k] = RULE_STRONG_NONE;
        if (k >= row->num)
            out->plies[k] = RULE_COUNT_NOT_STARTED;
        else if (running && runs_to_the_end(row, k))
            out->plies[k] = count + 1, out->strong[k] = in->strong[k];
        else if (!in_force(after, k, &strong))
            out->plies[k] = RULE_COUNT_NOT_STARTED; /* the ending is left: the count ends */
        else if (running && in_force(before, k, &strong))
            out->plies[k] = resets(row_rule(row, k), f) ? 0 : count + 1;
        else
            start_count(row, k, child, after, out); /* the ending arises here */
    }
}

/* The reading of rule k that the row's reading chooses. */
static const struct limit_reading *row_reading(const struct rule_row *row, int k)
{
    const struct move_limit_rule *rule = row_rule(row, k);
    return &rule->readings[row->reading < move_limit_readings(rule) ? row->reading : 0];
}

int rule_limit_plies(const struct rule_row *row, int k, const struct position *p,
                     const struct rule_counts *counts)
{
    const struct move_limit_rule *rule = row_rule(row, k);
    /* the side to move when the count started */
    enum side first = counts->plies[k] % 2 ? side_other(p->side) : p->side;
    return reading_plies(row_reading(row, k), rule->kind, (int)first == counts->strong[k]);
}

int rule_counts_expired(const struct rule_row *row, const struct position *p,
                        const struct rule_counts *counts)
{
    for (int k = 0; k < row->num; k++)
        if (counts->plies[k] != RULE_COUNT_NOT_STARTED &&
            counts->plies[k] >= rule_limit_plies(row, k, p, counts))
            return k;
    return -1;
}

bool rule_counts_zeroing(const struct rule_row *row, const struct rule_counts *before,
                         const struct rule_counts *after)
{
    for (int k = 0; k < row->num; k++)
        if (after->plies[k] == 0 || (before->plies[k] != RULE_COUNT_NOT_STARTED &&
                                     after->plies[k] == RULE_COUNT_NOT_STARTED))
            return true;
    return false;
}
