#include "verify/summary.h"

#include <stdio.h>
#include <string.h>

bool outcomes_alone(const struct rule_report *r, const struct rule_result *t, int played,
                    struct outcome_counts *out)
{
    int left = win_plies_left(&r->rule->readings[t->reading], played, t->strong_to_move);
    if (left < 0)
        return false;
    out->won = wins_within(t, left);
    out->lost = t->lone_wins;
    out->drawn = t->positions - out->won - out->lost;
    return true;
}

/* Makes x's example of a win the other rules draw sum's when it is better: fewer moves
 * played, then a longer win under the rule alone (verify/at_once.c picks the same way). */
static void take_others_example(struct rule_result *sum, const struct rule_result *x)
{
    if (x->others_played < 0 ||
        (sum->others_played >= 0 &&
         (x->others_played > sum->others_played ||
          (x->others_played == sum->others_played && x->others_plies <= sum->others_plies))))
        return;
    sum->others_played = x->others_played;
    sum->others_plies = x->others_plies;
    memcpy(sum->others_fen, x->others_fen, sizeof sum->others_fen);
}

/* Adds result x of one material into sum; the materials' names are listed. */
static void add_into(struct rule_result *sum, const struct rule_result *x)
{
    size_t used = strlen(sum->ending);
    if (used + strlen(x->ending) + 2 < sizeof sum->ending)
        snprintf(sum->ending + used, sizeof sum->ending - used, "%s%s", used ? "," : "",
                 x->ending);
    sum->positions += x->positions;
    sum->wins += x->wins;
    sum->wins_beyond_limit += x->wins_beyond_limit;
    sum->wins_before += x->wins_before;
    sum->convertible_before += x->convertible_before;
    sum->lone_wins += x->lone_wins;
    for (int p = 0; p < WIN_PLIES_MAX; p++)
        sum->wins_by_plies[p] += x->wins_by_plies[p];
    for (int played = 0; played <= PLAYED_MAX; played++) {
        for (int o = 0; o < OUTCOMES; o++)
            sum->at_once[played][o] += x->at_once[played][o];
        sum->drawn_by_others[played] += x->drawn_by_others[played];
    }
    take_others_example(sum, x);
    if (x->longest_in_time_plies > sum->longest_in_time_plies) {
        sum->longest_in_time_plies = x->longest_in_time_plies;
        memcpy(sum->in_time_fen, x->in_time_fen, sizeof sum->in_time_fen);
    }
    if (x->longest_plies > sum->longest_plies) {
        sum->longest_plies = x->longest_plies;
        sum->longest = x->longest;
        memcpy(sum->example_fen, x->example_fen, sizeof sum->example_fen);
    }
}

/* The results of every material for one side to move and reading, added up: a "must
 * win within" rule is one count over all the endings it covers. */
static struct rule_result total(const struct rule_report *r, bool strong_to_move, int reading)
{
    struct rule_result sum = { .strong_to_move = strong_to_move, .reading = reading,
                               .longest_plies = -1, .longest = -1,
                               .longest_in_time_plies = -1, .others_played = -1 };
    for (int k = 0; k < r->num_results; k++) {
        const struct rule_result *x = &r->results[k];
        if (x->strong_to_move == strong_to_move && x->reading == reading)
            add_into(&sum, x);
    }
    return sum;
}

/* The wins, the wins beyond the limit and the longest win of one reading, over every
 * ending and both sides to move. */
static void count_reading(const struct rule_report *r, int reading, struct reading_summary *out)
{
    out->longest = -1;
    for (int k = 0; k < r->num_results; k++) {
        const struct rule_result *x = &r->results[k];
        if (x->reading != reading)
            continue;
        out->wins += x->wins;
        out->beyond += x->wins_beyond_limit;
        if (x->longest > out->longest)
            out->longest = x->longest;
    }
}

/* The wins in time of total t that a count already at `played` draws. */
static uint64_t wins_drawn_at(const struct rule_report *r, const struct rule_result *t,
                              int played)
{
    struct outcome_counts fresh = { 0 }, at_played = { 0 };
    outcomes_alone(r, t, 0, &fresh);
    outcomes_alone(r, t, played, &at_played);
    return fresh.won - at_played.won;
}

/* The fewest moves already played on a running count that turn a win into a draw, with
 * the sides' totals t of one reading: 0 when even a count with no ply left loses none
 * (no win at all). */
static int first_costly(const struct rule_report *r, const struct rule_result t[2])
{
    struct outcome_counts fresh[2], now[2];
    for (int side = 0; side < 2; side++)
        outcomes_alone(r, &t[side], 0, &fresh[side]);
    for (int played = 1;; played++) {
        if (!outcomes_alone(r, &t[0], played, &now[0]) ||
            !outcomes_alone(r, &t[1], played, &now[1]))
            return 0;
        if (now[0].won + now[1].won < fresh[0].won + fresh[1].won)
            return played;
    }
}

/* What a "must win within" rule adds for one reading: the running counts and the
 * examples, from the sides' totals t. */
static void summarize_win_within(const struct rule_report *r, const struct rule_result t[2],
                                 struct reading_summary *out)
{
    out->first_costly = first_costly(r, t);
    for (int side = 0; out->first_costly > 0 && side < 2; side++)
        out->costly_wins[side] = wins_drawn_at(r, &t[side], out->first_costly);
    int side = t[0].longest_in_time_plies >= t[1].longest_in_time_plies ? 0 : 1;
    memcpy(out->in_time_fen, t[side].in_time_fen, sizeof out->in_time_fen);
    struct rule_result merged = t[0];
    take_others_example(&merged, &t[1]);
    out->others_played = merged.others_played;
    out->others_plies = merged.others_plies;
    memcpy(out->others_fen, merged.others_fen, sizeof out->others_fen);
}

/* The forzosa's question, "12 or 13 moves?": the won starts drawn under each reading of
 * the move that meets the precondition, not counted (the count starts after it) or
 * counted as move 1 (the lone side then moves with one move of the count used). */
static void count_drawn_starts(const struct rule_report *r, const struct rule_result t[2],
                               struct reading_summary *out)
{
    for (int counted = 0; counted < 2; counted++)
        for (int side = counted ? 1 : 0; side < 2; side++) {
            struct outcome_counts now = { 0 };
            outcomes_alone(r, &t[side], counted, &now);
            out->drawn_starts[counted] += t[side].wins - now.won;
        }
}

/* A no-progress rule's ending with the longest wait (reading 0), or NULL. */
static const struct rule_result *longest_wait(const struct rule_report *r)
{
    const struct rule_result *longest = NULL;
    for (int k = 0; k < r->num_results; k++) {
        const struct rule_result *x = &r->results[k];
        if (x->reading == 0 && (!longest || x->longest_plies > longest->longest_plies))
            longest = x;
    }
    return longest && longest->longest_plies >= 0 ? longest : NULL;
}

void summarize_rule(const struct rule_report *r, struct rule_summary *out)
{
    const struct move_limit_rule *rule = r->rule;
    memset(out, 0, sizeof *out);
    if (r->status != RULE_CHECKED)
        return;
    out->win_within = rule->kind == LIMIT_WIN_WITHIN;
    for (int k = 0; k < move_limit_readings(rule); k++) {
        struct rule_result *t = out->total[k];
        t[0] = total(r, true, k);
        t[1] = total(r, false, k);
        count_reading(r, k, &out->reading[k]);
        if (out->win_within)
            summarize_win_within(r, t, &out->reading[k]);
        if (rule->counts_from_precondition)
            count_drawn_starts(r, t, &out->reading[k]);
    }
    if (rule->kind == LIMIT_NO_PROGRESS)
        out->longest_wait = longest_wait(r);
}
