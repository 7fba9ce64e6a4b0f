#include "verify/verify.h"

#include <stdlib.h>
#include <string.h>

#include "verify/at_once.h"
#include "verify/count_start.h"
#include "verify/reset_line.h"
#include "rules/coverage.h"
#include "rulegen/reset_distance.h"

/* ---- counting a rule's positions and wins ---- */

uint64_t wins_within(const struct rule_result *r, int plies)
{
    uint64_t n = 0;
    for (int k = 0; k <= plies && k < WIN_PLIES_MAX; k++)
        n += r->wins_by_plies[k];
    return n;
}

int played_plies(const struct limit_reading *r, int played)
{
    return r->unit == UNIT_PLIES ? played : 2 * played;
}

int win_plies_left(const struct limit_reading *r, int played, bool strong_to_move)
{
    return reading_plies(r, LIMIT_WIN_WITHIN, strong_to_move) - played_plies(r, played);
}

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
    r->longest_plies = r->longest = r->longest_in_time_plies = r->others_played = -1;
    return r;
}

/* Counts `weight` won positions like p, won in `plies`, for every reading's result. */
static void count_win(const struct move_limit_rule *rule, struct rule_result *res[],
                      const struct variant *v, const struct position *p, int plies,
                      int weight)
{
    bool strong_to_move = res[0]->strong_to_move;
    for (int k = 0; k < move_limit_readings(rule); k++) {
        const struct limit_reading *r = &rule->readings[k];
        res[k]->wins += (uint64_t)weight;
        if (rule->kind == LIMIT_WIN_WITHIN)
            res[k]->wins_by_plies[plies < WIN_PLIES_MAX ? plies : WIN_PLIES_MAX - 1] +=
                (uint64_t)weight;
        if (plies > reading_plies(r, rule->kind, strong_to_move)) {
            res[k]->wins_beyond_limit += (uint64_t)weight;
        } else if (rule->kind == LIMIT_WIN_WITHIN && plies > res[k]->longest_in_time_plies) {
            res[k]->longest_in_time_plies = plies;
            fen_print(v, p, res[k]->in_time_fen);
        }
        if (plies > res[k]->longest_plies) {
            res[k]->longest_plies = plies;
            /* in a no-progress count the winner is the side to move */
            res[k]->longest = plies_in_unit(plies, r->unit,
                                            rule->kind == LIMIT_NO_PROGRESS || strong_to_move);
            fen_print(v, p, res[k]->example_fen);
        }
    }
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

/* Whether the lone side wins at (side, i) under a "must win within" rule's reading of
 * the tables (the strong side is White in them). */
static bool lone_side_wins(const struct move_limit_rule *rule, const struct table *t,
                           enum side side, uint64_t i)
{
    dtm_t d = t->dtm[side][i];
    return rule->kind == LIMIT_WIN_WITHIN && (side == WHITE ? dtm_is_loss(d) : dtm_is_win(d));
}

/* Counts every legal position of t that meets the precondition, per side to move. */
static int count_positions(const struct variant *v, const struct table *t,
                           const struct move_limit_rule *rule, const struct condition *c,
                           const uint16_t *distance, struct rule_result *res[2][MAX_READINGS],
                           struct rule_report *out)
{
    for (int side = WHITE; side <= BLACK; side++)
        for (int k = 0; k < move_limit_readings(rule); k++)
            if (!(res[side][k] = add_result(out, &t->m, side == WHITE, k)))
                return -1;
    for (int side = WHITE; side <= BLACK; side++)
        for (uint64_t i = 0; i < t->ix.size; i++) {
            struct position p, members[NUM_SYMS];
            index_position(&t->ix, i, (enum side)side, &p);
            int n = index_class_members(&t->ix, &p, members);
            int plies = win_plies(rule, t, distance, (enum side)side, i);
            bool lone_wins = lone_side_wins(rule, t, (enum side)side, i);
            for (int k = 0; k < n; k++) {
                if (!condition_meets(c, &members[k]))
                    continue;
                for (int r = 0; r < move_limit_readings(rule); r++) {
                    res[side][r]->positions++;
                    res[side][r]->lone_wins += lone_wins;
                }
                if (plies >= 0)
                    count_win(rule, res[side], v, &members[k], plies, 1);
            }
        }
    return 0;
}

/* The lines of a no-progress rule's examples of t (reading 0, both sides to move) to the
 * reset, along the distance its wins were measured by. */
static int play_reset_lines(const struct tableset *ts, const struct table *t,
                            const struct move_limit_rule *rule, const uint16_t *distance,
                            struct rule_result *res[2][MAX_READINGS])
{
    for (int side = WHITE; side <= BLACK; side++) {
        struct rule_result *x = res[side][0];
        struct position start;
        char err[128];
        if (!x->example_fen[0])
            continue;
        if (fen_parse(ts->v, x->example_fen, &start, err, sizeof err) < 0 ||
            reset_line(ts, t, rule, distance, &start, x->example_line,
                       sizeof x->example_line) < 0)
            return -1;
    }
    return 0;
}

static int verify_material(struct tableset *ts, const struct table *t,
                           const struct move_limit_rule *rule, const struct condition *c,
                           struct rule_report *out, char *err, size_t err_size)
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
    if (status < 0)
        snprintf(err, err_size, "out of memory (or too many results) verifying %s", rule->name);
    else if (rule->kind == LIMIT_NO_PROGRESS &&
             (status = play_reset_lines(ts, t, rule, distance, res)) < 0)
        snprintf(err, err_size, "out of memory, or no line along the distance (a bug), "
                 "playing %s's example in %s to its reset", rule->name, res[0][0]->ending);
    else if (rule->kind == LIMIT_WIN_WITHIN)
        status = count_at_once(ts, t, rule, c, res, err, err_size);
    free(distance);
    return status;
}

/* ---- one rule ---- */

static bool any_position(const struct rule_report *out)
{
    for (int k = 0; k < out->num_results; k++)
        if (out->results[k].positions > 0)
            return true;
    return false;
}

/* verify_rule, telling progress (NULL: nobody asked) as each material starts: `part`
 * counts the materials of every rule checked in one run. */
static int check_rule(struct tableset *ts, int max_pieces, const struct move_limit_rule *rule,
                      const struct progress_report *progress, struct progress_part *part,
                      struct rule_report *out, char *err, size_t err_size)
{
    const struct variant *v = ts->v;
    struct material materials[MAX_RULE_MATERIALS];
    struct condition c = condition_of(v, &rule->precondition);
    int n = rule_materials(v, rule, max_pieces, materials, MAX_RULE_MATERIALS);

    memset(out, 0, sizeof *out);
    out->rule = rule;
    if (n == 0) {
        out->status = RULE_NEEDS_PIECES;
        snprintf(out->message, sizeof out->message,
                 "its endings have %d pieces or more; these tables go up to %d "
                 "(use --pieces %d)", rule_pieces_needed(v, rule), max_pieces,
                 rule_pieces_needed(v, rule));
        return 0;
    }
    for (int k = 0; k < n; k++) {
        char name[MATERIAL_NAME_SIZE];
        material_name(&materials[k], name);
        part->name = name;
        part->work = part->cost = material_positions_estimate(v, &materials[k]);
        progress_tell_part(progress, part);
        const struct table *t = tableset_get(ts, &materials[k], err, err_size);
        int status;
        /* the distance to a capture or promotion, and the line to a no-progress count's
         * reset, look where those moves lead */
        if (!t || (rule->kind == LIMIT_NO_PROGRESS &&
                   tableset_get_successors(ts, &materials[k], err, err_size) < 0))
            return -1;
        if (t->ix.size > VERIFY_MAX_POSITIONS) {
            snprintf(err, err_size, "%s has %llu positions per side to move; verify walks "
                     "materials of up to %llu", name, (unsigned long long)t->ix.size,
                     (unsigned long long)VERIFY_MAX_POSITIONS);
            return -1;
        }
        status = verify_material(ts, t, rule, &c, out, err, err_size);
        if (ts->dir) /* it can be read again: keep memory for the next, larger ones */
            tableset_forget(ts, &materials[k]);
        if (status < 0)
            return -1;
        part->done++;
        part->work_done += part->work;
        part->cost_done += part->cost;
    }
    if (!any_position(out)) {
        out->status = RULE_NO_POSITION;
        snprintf(out->message, sizeof out->message, "no position of %s has %s",
                 rule->ending.words, rule_has_precondition(rule) ? rule->precondition.words
                                                            : "a table");
    }
    return 0;
}

int verify_rule(struct tableset *ts, int max_pieces, const struct move_limit_rule *rule,
                struct rule_report *out, char *err, size_t err_size)
{
    struct progress_part part = { 0 };
    return check_rule(ts, max_pieces, rule, NULL, &part, out, err, err_size);
}

/* The parts of checking every rule of v: one per rule and material, weighted by the
 * material's positions. */
static struct progress_part rules_parts(const struct variant *v, int max_pieces)
{
    struct progress_part part = { .parts = "rule endings" };
    struct material materials[MAX_RULE_MATERIALS];
    for (const struct move_limit_rule *rule = v->move_limits; rule->name; rule++) {
        int n = rule_materials(v, rule, max_pieces, materials, MAX_RULE_MATERIALS);
        part.total += n;
        for (int k = 0; k < n; k++)
            part.total_work += material_positions_estimate(v, &materials[k]);
    }
    part.total_cost = part.total_work; /* a position costs as much in any of them */
    return part;
}

int verify_rules(struct tableset *ts, int max_pieces, struct rule_report *const reports[],
                 const struct progress_report *progress, char *err, size_t err_size)
{
    struct progress_part part = rules_parts(ts->v, max_pieces);
    for (int k = 0; ts->v->move_limits[k].name; k++)
        if (check_rule(ts, max_pieces, &ts->v->move_limits[k], progress, &part, reports[k],
                       err, err_size) < 0)
            return -1;
    part.name = "done";
    part.work = part.cost = 0;
    progress_tell_part(progress, &part);
    return 0;
}
