#include "cli/verify_report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/api_json.h"
#include "cli/board.h"
#include "cli/json_out.h"
#include "cli/options.h"
#include "cli/pdn.h"
#include "core/notation.h"
#include "store/table_io.h"

struct variant_report *variant_report_new(const struct variant *v, int pieces)
{
    int n = 0;
    while (v->move_limits[n].name)
        n++;
    struct variant_report *r = calloc(1, sizeof *r + (size_t)n * sizeof r->rules[0]);
    if (r) {
        r->v = v;
        r->pieces = pieces;
        r->num_rules = n;
    }
    return r;
}

void variant_report_free(struct variant_report *r)
{
    if (!r)
        return;
    for (int k = 0; k < r->num_rules; k++) {
        struct rule_section *s = &r->rules[k];
        for (int side = 0; side < 2; side++)
            line_free(&s->line[side]);
        for (int reading = 0; reading < MAX_READINGS; reading++)
            line_free(&s->cursed[reading]);
        line_free(&s->reset);
    }
    damero_close(r->tb);
    free(r);
}

/* ---- lines ---- */

/* Plays the tables' best line from fen into l (cli/line_play.h); none when fen is "". */
static int play_example(damero_tb *tb, const char *fen, struct line *l)
{
    damero_position start;
    if (!fen[0])
        return DAMERO_OK;
    int status = damero_parse_fen(tb, fen, &start);
    if (status != DAMERO_OK)
        return status;
    if (line_init(l, MAX_LINE_PLIES, &start) < 0)
        return DAMERO_ERR_MEMORY;
    return line_play(tb, l);
}

/* Replays the moves verify wrote from a no-progress rule's longest wait x to its reset
 * into l; none when no ending has a win. */
static int replay_wait(damero_tb *tb, const struct rule_result *x, struct line *l)
{
    damero_position start;
    if (!x)
        return DAMERO_OK;
    int status = damero_parse_fen(tb, x->example_fen, &start);
    if (status != DAMERO_OK)
        return status;
    if (line_init(l, MAX_LINE_PLIES, &start) < 0)
        return DAMERO_ERR_MEMORY;
    return line_replay(tb, l, x->example_line);
}

int report_lines(const char *dir, struct variant_report *r, char *err, size_t err_size)
{
    int status = damero_open(r->v->name, dir, 64 << 20, &r->tb);
    for (int k = 0; k < r->num_rules && status == DAMERO_OK; k++) {
        struct rule_section *s = &r->rules[k];
        const struct rule_summary *sum = &s->summary;
        for (int side = 0; side < 2 && sum->win_within && status == DAMERO_OK; side++)
            status = play_example(r->tb, sum->total[0][side].example_fen, &s->line[side]);
        for (int reading = 0; sum->win_within && reading < move_limit_readings(s->report.rule) &&
                              status == DAMERO_OK; reading++)
            status = play_example(r->tb, sum->reading[reading].in_time_fen,
                                  &s->cursed[reading]);
        if (status == DAMERO_OK)
            status = replay_wait(r->tb, sum->longest_wait, &s->reset);
    }
    if (status == DAMERO_ERR_MEMORY)
        snprintf(err, err_size, "out of memory playing the examples' lines");
    else if (status != DAMERO_OK)
        snprintf(err, err_size, "%s", damero_error_message());
    return status == DAMERO_OK ? 0 : -1;
}

/* ---- words shared by the text and the Markdown ---- */

static const char *side_words(const struct rule_section *s, bool strong_to_move)
{
    if (s->report.rule->kind == LIMIT_WIN_WITHIN)
        return strong_to_move ? "strong side" : "lone side";
    return strong_to_move ? "White" : "Black";
}

static void print_reading(FILE *f, const struct limit_reading *r)
{
    fprintf(f, "%d %s (%s)", r->limit, unit_words(r->unit), r->source);
}

/* The moves of a line numbered in pairs as a player writes them ("1. 5-9 2-11 2. ..."),
 * from the move of the side the start position has to move ("1... 8-15" when that is
 * the second of its pair). */
static void print_moves(FILE *f, const struct variant_report *r, const struct line *line)
{
    bool second_first = line->plies > 0 && pdn_second_first(r->tb, &line->positions[0]);
    char number[24];
    for (int k = 0; k < line->plies; k++) {
        pdn_move_number(second_first, k, number, sizeof number);
        if (pdn_numbered(second_first, k))
            fprintf(f, "%s%s ", k ? " " : "", number);
        else
            fprintf(f, " ");
        fprintf(f, "%s", line->moves[k].text);
    }
    fprintf(f, "\n");
}

/* The line as a PDN game a player can load and replay (Markdown only: a code block). */
static void print_pdn(FILE *f, const struct variant_report *r, const struct line *line)
{
    char fen[DAMERO_FEN_SIZE];
    struct pdn_writer w;
    if (line->plies == 0 || damero_write_fen(r->tb, &line->positions[0], fen) != DAMERO_OK)
        return;
    fprintf(f, "\n```pdn\n");
    pdn_write_gametype(f, r->v->pdn_gametype);
    pdn_write_tag(f, "FEN", fen);
    pdn_writer_init(&w, f, pdn_second_first(r->tb, &line->positions[0]));
    for (int k = 0; k < line->plies; k++)
        pdn_write_move(&w, line->moves[k].text);
    pdn_write_end(&w, "*");
    fprintf(f, "```\n");
}

static void print_heading(FILE *f, bool md, const struct variant_report *r,
                          const struct rule_section *s)
{
    const struct move_limit_rule *rule = s->report.rule;
    fprintf(f, md ? "\n### %s: %s\n\n" : "\n%s: %s\n", r->v->name, rule->name);
    fprintf(f, "%s%s\n", md ? "" : "  ", rule->words);
    fprintf(f, "%sEndings: %s", md ? "\n" : "  ", rule->ending.words);
    if (s->report.status == RULE_CHECKED && rule->kind == LIMIT_WIN_WITHIN)
        fprintf(f, " (%s)", s->summary.total[0][0].ending);
    if (rule->precondition.words)
        fprintf(f, ", with %s", rule->precondition.words);
    fprintf(f, ".%s\n", rule->counts_from_precondition
                            ? " The count starts when the precondition is first met."
                            : "");
    for (int k = 0; k < move_limit_readings(rule); k++) {
        fprintf(f, md ? "- reading %d: " : "  reading %d: ", k + 1);
        print_reading(f, &rule->readings[k]);
        fprintf(f, "\n");
    }
    if (s->report.status != RULE_CHECKED)
        fprintf(f, md ? "\n**Not checked:** %s.\n" : "  NOT CHECKED: %s.\n", s->report.message);
}

static void print_row(FILE *f, bool md, const char *cells[], int n, const int widths[])
{
    for (int k = 0; k < n; k++) {
        if (md)
            fprintf(f, "| %s ", cells[k]);
        else
            fprintf(f, k ? " %-*s" : "  %-*s", k == n - 1 ? 0 : widths[k], cells[k]);
    }
    fprintf(f, md ? "|\n" : "\n");
}

static void print_rule_line(FILE *f, bool md, const char *cells[], int n, const int widths[])
{
    print_row(f, md, cells, n, widths);
    if (md) {
        for (int k = 0; k < n; k++)
            fprintf(f, "|---");
        fprintf(f, "|\n");
    }
}

/* The table of a "must win within" rule: per reading and side to move. */
static void print_win_table(FILE *f, bool md, const struct rule_section *s)
{
    static const int widths[] = { 8, 12, 11, 11, 8, 13 };
    const char *head[] = { "reading", "to move", "positions", "wins", "longest", "beyond limit" };
    print_rule_line(f, md, head, 6, widths);
    for (int k = 0; k < move_limit_readings(s->report.rule); k++)
        for (int side = 0; side < 2; side++) {
            const struct rule_result *t = &s->summary.total[k][side];
            char reading[8], positions[24], wins[24], longest[16], beyond[24];
            snprintf(reading, sizeof reading, "%d", k + 1);
            snprintf(positions, sizeof positions, "%" PRIu64, t->positions);
            snprintf(wins, sizeof wins, "%" PRIu64, t->wins);
            snprintf(longest, sizeof longest, t->longest < 0 ? "-" : "%d", t->longest);
            snprintf(beyond, sizeof beyond, "%" PRIu64, t->wins_beyond_limit);
            const char *cells[] = { reading, side_words(s, side == 0), positions, wins, longest,
                                    beyond };
            print_row(f, md, cells, 6, widths);
        }
}

/* Per material, the rows with a win (no-progress rules). */
static void print_progress_table(FILE *f, bool md, const struct rule_section *s)
{
    static const int widths[] = { 9, 8, 11, 11, 12, 13, 13 };
    const char *head[] = { "ending", "to move", "positions", "wins", "longest plies",
                           "beyond (1)", "beyond (2)" };
    int columns = move_limit_readings(s->report.rule) == 2 ? 7 : 6;
    print_rule_line(f, md, head, columns, widths);
    for (int k = 0; k < s->report.num_results; k++) {
        const struct rule_result *x = &s->report.results[k];
        if (x->reading != 0)
            continue;
        const struct rule_result *other = columns == 7 ? &s->report.results[k + 1] : x;
        char positions[24], wins[24], longest[16], beyond[24], beyond2[24];
        snprintf(positions, sizeof positions, "%" PRIu64, x->positions);
        snprintf(wins, sizeof wins, "%" PRIu64, x->wins);
        snprintf(longest, sizeof longest, x->longest_plies < 0 ? "-" : "%d", x->longest_plies);
        snprintf(beyond, sizeof beyond, "%" PRIu64, x->wins_beyond_limit);
        snprintf(beyond2, sizeof beyond2, "%" PRIu64, other->wins_beyond_limit);
        const char *cells[] = { x->ending, side_words(s, x->strong_to_move), positions, wins,
                                longest, beyond, beyond2 };
        print_row(f, md, cells, columns, widths);
    }
}

/* ---- a count already running when the rule's count starts ---- */

/* The table of a "must win within" rule by the moves already played on its count when
 * its ending arises: under the rule alone (from the DTM), or under all of the variant's
 * rules at once (verify/at_once.h), with the wins in time under the rule alone that the
 * other counts draw. */
static void print_played_table(FILE *f, bool md, const struct rule_section *s, bool at_once)
{
    static const int widths[] = { 8, 12, 7, 11, 11, 8, 15 };
    const char *head[] = { "reading", "to move", "played", "won", "drawn", "lost",
                           "drawn by others" };
    int columns = at_once ? 7 : 6;
    print_rule_line(f, md, head, columns, widths);
    for (int k = 0; k < move_limit_readings(s->report.rule); k++)
        for (int side = 0; side < 2; side++) {
            const struct rule_result *t = &s->summary.total[k][side];
            struct outcome_counts c;
            for (int played = 0;
                 played <= PLAYED_MAX && outcomes_alone(&s->report, t, played, &c);
                 played++) {
                if (at_once)
                    c = (struct outcome_counts){ t->at_once[played][OUTCOME_WON],
                                                 t->at_once[played][OUTCOME_DRAWN],
                                                 t->at_once[played][OUTCOME_LOST] };
                char reading[8], n[8], w[24], d[24], l[24], o[24];
                snprintf(reading, sizeof reading, "%d", k + 1);
                snprintf(n, sizeof n, "%d", played);
                snprintf(w, sizeof w, "%" PRIu64, c.won);
                snprintf(d, sizeof d, "%" PRIu64, c.drawn);
                snprintf(l, sizeof l, "%" PRIu64, c.lost);
                snprintf(o, sizeof o, "%" PRIu64, t->drawn_by_others[played]);
                const char *cells[] = { reading, side_words(s, side == 0), n, w, d, l, o };
                print_row(f, md, cells, columns, widths);
            }
        }
}

static void print_running_table(FILE *f, bool md, const struct rule_section *s)
{
    fprintf(f, md ? "\nUnder the rule alone, by the moves already played on a count that runs "
                    "when this one starts (0: a fresh count); won, drawn and lost for the "
                    "strong side:\n\n"
                  : "  under the rule alone, by the moves already played on a count running "
                    "when this one starts\n  (0: a fresh count); won, drawn and lost for the "
                    "strong side:\n");
    print_played_table(f, md, s, false);
}

/* Under all of the variant's rules at once: the table, then per reading an example of a
 * win in time under the rule alone that the other counts draw. */
static void print_at_once(FILE *f, bool md, const struct variant_report *r,
                          const struct rule_section *s)
{
    const struct move_limit_rule *rule = s->report.rule;
    fprintf(f, md ? "\nUnder all of %s's rules at once (the rule's count at the moves already "
                    "played, every other count as the position's fresh state has it; reading "
                    "k of the rule with reading k of the others that have two); won, drawn "
                    "and lost for the strong side, and the wins in time under the rule alone "
                    "that the other counts turn into draws:\n\n"
                  : "  under all of %s's rules at once (the rule's count at the moves already "
                    "played, every other\n  count as the position's fresh state has it; "
                    "reading k of the rule with reading k of the\n  others that have two); "
                    "won, drawn and lost for the strong side, and the wins in time\n  under "
                    "the rule alone that the other counts turn into draws:\n",
            r->v->name);
    print_played_table(f, md, s, true);
    if (md)
        fprintf(f, "\n");
    for (int k = 0; k < move_limit_readings(rule); k++) {
        const struct reading_summary *x = &s->summary.reading[k];
        fprintf(f, md ? "- reading %d: " : "    reading %d: ", k + 1);
        if (x->others_played < 0)
            fprintf(f, "the other counts draw no win in time under the rule alone.\n");
        else
            fprintf(f, "e.g. %s%s%s with %d already played (%s): won in %d plies under the "
                       "rule alone, drawn under the rules at once.\n",
                    md ? "`" : "", x->others_fen, md ? "`" : "", x->others_played,
                    unit_words(rule->readings[k].unit), x->others_plies);
    }
}

/* Per reading, the first running count that costs wins: how many, and the longest win
 * in time, which goes first, with its line. */
static void print_first_cursed(FILE *f, bool md, const struct variant_report *r,
                               const struct rule_section *s)
{
    const struct move_limit_rule *rule = s->report.rule;
    for (int k = 0; k < move_limit_readings(rule); k++) {
        const struct reading_summary *x = &s->summary.reading[k];
        fprintf(f, md ? "- reading %d: " : "    reading %d: ", k + 1);
        if (x->first_costly == 0) {
            fprintf(f, "no win to lose.\n");
            continue;
        }
        const struct line *line = &s->cursed[k];
        fprintf(f, "with %d already played (%s), %" PRIu64 " wins in time are draws (%" PRIu64
                   " with the strong side to move), e.g. %s%s%s, won in %d plies with a fresh "
                   "count.\n",
                x->first_costly, unit_words(rule->readings[k].unit),
                x->costly_wins[0] + x->costly_wins[1], x->costly_wins[0], md ? "`" : "",
                x->in_time_fen, md ? "`" : "", line->plies);
        fprintf(f, md ? "  Line: " : "      line: ");
        print_moves(f, r, line);
    }
}

static void print_running(FILE *f, bool md, const struct variant_report *r,
                          const struct rule_section *s)
{
    print_running_table(f, md, s);
    fprintf(f, md ? "\nThe first wins a running count turns into draws:\n\n"
                  : "  the first wins a running count turns into draws:\n");
    print_first_cursed(f, md, r, s);
    print_at_once(f, md, r, s);
}

/* The forzosa's question, "12 or 13 moves?", under each reading of the move that
 * occupies the diagonal: not counted (the count starts after it: damero's reading), or
 * counted as move 1 (the lone side then moves with one move of the count used). */
static void print_occupying_move(FILE *f, bool md, const struct rule_section *s)
{
    const struct move_limit_rule *rule = s->report.rule;
    for (int counted = 0; counted < 2; counted++) {
        fprintf(f, md ? "\n%s " : "  %s ",
                counted ? "Counting the move that occupies the diagonal as move 1:"
                        : "Not counting the move that occupies the diagonal (damero's reading, "
                          "the count starts after it):");
        for (int k = 0; k < move_limit_readings(rule); k++) {
            uint64_t drawn_wins = s->summary.reading[k].drawn_starts[counted];
            fprintf(f, "%s%d %s ", k ? "; " : "", rule->readings[k].limit,
                    unit_words(rule->readings[k].unit));
            if (drawn_wins)
                fprintf(f, "leave %" PRIu64 " won starts drawn", drawn_wins);
            else
                fprintf(f, "win every won start in time");
        }
        fprintf(f, ".\n");
    }
}

static void print_board(FILE *f, const struct variant_report *r, const char *fen)
{
    damero_position pos;
    if (damero_parse_fen(r->tb, fen, &pos) == DAMERO_OK)
        board_print(f, r->tb, &pos);
}

/* A no-progress rule's longest wait of all its endings, with the position. */
static void print_longest_progress(FILE *f, bool md, const struct variant_report *r,
                                   const struct rule_section *s)
{
    const struct rule_result *longest = s->summary.longest_wait;
    if (!longest)
        return;
    fprintf(f, md ? "\nLongest, %s, %s to move: %d plies to a reset, `%s`\n\n```\n"
                  : "  longest: %s, %s to move, %d plies to a reset, %s\n",
            longest->ending, side_words(s, longest->strong_to_move), longest->longest_plies,
            longest->example_fen);
    if (md) {
        print_board(f, r, longest->example_fen);
        fprintf(f, "```\n\n");
    }
    fprintf(f, md ? "Line to the reset: " : "    line to the reset: ");
    print_moves(f, r, &s->reset);
    if (md)
        print_pdn(f, r, &s->reset);
}

static void print_examples(FILE *f, bool md, const struct variant_report *r,
                           const struct rule_section *s)
{
    const struct move_limit_rule *rule = s->report.rule;
    for (int side = 0; side < 2; side++) {
        const struct rule_result *t = &s->summary.total[0][side];
        const struct line *line = &s->line[side];
        if (!line->positions)
            continue;
        fprintf(f, md ? "\nLongest win, %s to move: %d %s (%d plies), `%s`\n\n"
                      : "  longest win, %s to move: %d %s (%d plies), %s\n",
                side_words(s, side == 0), t->longest, unit_words(rule->readings[0].unit),
                t->longest_plies, t->example_fen);
        if (md) {
            fprintf(f, "```\n");
            print_board(f, r, t->example_fen);
            fprintf(f, "```\n\n");
        }
        fprintf(f, md ? "Line: " : "    line: ");
        print_moves(f, r, line);
        if (md)
            print_pdn(f, r, line);
    }
    if (rule->kind == LIMIT_NO_PROGRESS)
        print_longest_progress(f, md, r, s);
}

static void print_before_count(FILE *f, bool md, const struct rule_section *s)
{
    if (!s->report.rule->counts_from_precondition)
        return;
    fprintf(f, md ? "\nBefore the count starts (won positions without the precondition):\n\n"
                  : "  before the count starts (won positions without the precondition):\n");
    for (int k = 0; k < move_limit_readings(s->report.rule); k++)
        for (int side = 0; side < 2; side++) {
            const struct rule_result *t = &s->summary.total[k][side];
            fprintf(f, "%sreading %d, %s to move: %" PRIu64 " won, %" PRIu64
                       " can force a start won in time, %" PRIu64 " cannot\n",
                    md ? "- " : "    ", k + 1, side_words(s, side == 0), t->wins_before,
                    t->convertible_before, t->wins_before - t->convertible_before);
        }
}

/* Where the count starts at its precondition (the forzosa), the convention a reading's
 * answer depends on, and the other convention's answer: "the move that occupies the
 * diagonal not counted; counted as move 1, 158 won starts are drawn"; "" for other
 * rules, or where the other convention changes nothing. */
static void convention_words(const struct rule_section *s, int k, char *out, size_t size)
{
    out[0] = '\0';
    if (!s->report.rule->counts_from_precondition)
        return;
    const uint64_t *drawn = s->summary.reading[k].drawn_starts;
    if (drawn[0] == drawn[1])
        return;
    if (drawn[1])
        snprintf(out, size, "the move that occupies the diagonal not counted; counted as "
                 "move 1, %" PRIu64 " won starts are drawn", drawn[1]);
    else
        snprintf(out, size, "the move that occupies the diagonal not counted; counted as "
                 "move 1, every won start is won in time");
}

static void print_verdict(FILE *f, bool md, const struct rule_section *s)
{
    const struct move_limit_rule *rule = s->report.rule;
    char convention[160];
    for (int k = 0; k < move_limit_readings(rule); k++) {
        uint64_t wins = s->summary.reading[k].wins, beyond = s->summary.reading[k].beyond;
        fprintf(f, md ? "\n**Verdict (reading %d):** " : "  verdict (reading %d): ", k + 1);
        if (beyond == 0)
            fprintf(f, "%d %s is enough for every one of the %" PRIu64 " won positions",
                    rule->readings[k].limit, unit_words(rule->readings[k].unit), wins);
        else
            fprintf(f, "%" PRIu64 " of the %" PRIu64 " won positions need more than %d %s: "
                       "the rule turns them into draws",
                    beyond, wins, rule->readings[k].limit, unit_words(rule->readings[k].unit));
        convention_words(s, k, convention, sizeof convention);
        fprintf(f, convention[0] ? " (%s).\n" : ".\n", convention);
    }
}

static void print_section(FILE *f, bool md, const struct variant_report *r,
                          const struct rule_section *s)
{
    print_heading(f, md, r, s);
    if (s->report.status != RULE_CHECKED)
        return;
    if (md)
        fprintf(f, "\n");
    if (s->report.rule->kind == LIMIT_WIN_WITHIN)
        print_win_table(f, md, s);
    else
        print_progress_table(f, md, s);
    if (s->report.rule->kind == LIMIT_WIN_WITHIN)
        print_running(f, md, r, s);
    print_examples(f, md, r, s);
    print_before_count(f, md, s);
    if (s->report.rule->counts_from_precondition)
        print_occupying_move(f, md, s);
    print_verdict(f, md, s);
}

static void print_text(FILE *f, bool md, const struct variant_report *r)
{
    fprintf(f, md ? "\n## %s\n\n%s, endings of up to %d pieces.\n"
                  : "\n== %s: %s, endings of up to %d pieces ==\n",
            md ? r->v->title : r->v->name, md ? r->v->name : r->v->title, r->pieces);
    if (r->num_rules == 0)
        fprintf(f, "%sNo move-limit rule is recorded for %s.\n", md ? "\n" : "  ", r->v->name);
    for (int k = 0; k < r->num_rules; k++)
        print_section(f, md, r, &r->rules[k]);
}

/* ---- JSON ---- */

static json_t *line_moves_json(const struct line *line)
{
    json_t *moves = json_array();
    for (int k = 0; k < line->plies && moves; k++)
        json_append(&moves, json_string(line->moves[k].text));
    return moves;
}

static json_t *json_result(const struct rule_section *s, const struct rule_result *x,
                           const struct line *line)
{
    const struct limit_reading *r = &s->report.rule->readings[x->reading];
    json_t *o = json_pack(
        "{s:s, s:s, s:i, s:i, s:s, s:s, s:I, s:I, s:o, s:o, s:I, s:o}", "ending", x->ending,
        "side_to_move", side_words(s, x->strong_to_move), "reading", x->reading + 1, "limit",
        r->limit, "unit", unit_words(r->unit), "convention", r->source, "positions",
        (json_int_t)x->positions, "wins", (json_int_t)x->wins, "longest_win",
        json_count(x->longest), "longest_win_plies", json_count(x->longest_plies),
        "wins_beyond_limit", (json_int_t)x->wins_beyond_limit, "example_fen",
        x->example_fen[0] ? json_string(x->example_fen) : json_null());
    if (s->report.rule->counts_from_precondition) {
        o = json_with(o, "wins_before", json_integer((json_int_t)x->wins_before));
        o = json_with(o, "convertible_before", json_integer((json_int_t)x->convertible_before));
    }
    if (line && line->positions)
        o = json_with(o, "example_line", line_moves_json(line));
    return o;
}

/* Per reading, the first running count that costs wins (print_first_cursed): null when
 * none does. */
static json_t *json_first_cursed(const struct rule_section *s, int k)
{
    const struct reading_summary *x = &s->summary.reading[k];
    if (x->first_costly == 0)
        return json_null();
    return json_pack("{s:i, s:i, s:I, s:s, s:i, s:o}", "reading", k + 1, "played",
                     x->first_costly, "wins_drawn",
                     (json_int_t)(x->costly_wins[0] + x->costly_wins[1]), "example_fen",
                     x->in_time_fen,
                     "example_plies", s->cursed[k].plies,
                     "example_line", line_moves_json(&s->cursed[k]));
}

/* A "must win within" rule's results by the moves already played on a running count when
 * its count starts, from 0 (fresh) until no ply is left. */
static json_t *json_by_played(const struct rule_section *s, const struct rule_result *t)
{
    json_t *rows = json_array();
    struct outcome_counts c;
    for (int played = 0; outcomes_alone(&s->report, t, played, &c); played++)
        json_append(&rows, json_pack("{s:i, s:I, s:I, s:I}", "played", played, "won",
                                     (json_int_t)c.won, "drawn", (json_int_t)c.drawn, "lost",
                                     (json_int_t)c.lost));
    return rows;
}

/* The same under all of the variant's rules at once (verify/at_once.h), from 0 to
 * PLAYED_MAX moves played while a ply is left, with the wins in time under the rule alone
 * that the other counts draw. */
static json_t *json_at_once(const struct rule_section *s, const struct rule_result *t)
{
    json_t *rows = json_array();
    struct outcome_counts alone;
    for (int played = 0; played <= PLAYED_MAX && outcomes_alone(&s->report, t, played, &alone);
         played++)
        json_append(&rows, json_pack("{s:i, s:I, s:I, s:I, s:I}", "played", played, "won",
                                     (json_int_t)t->at_once[played][OUTCOME_WON], "drawn",
                                     (json_int_t)t->at_once[played][OUTCOME_DRAWN], "lost",
                                     (json_int_t)t->at_once[played][OUTCOME_LOST],
                                     "drawn_by_others",
                                     (json_int_t)t->drawn_by_others[played]));
    return rows;
}

/* The example of json_at_once's wins drawn by the other counts, or null. */
static json_t *json_others_example(const struct rule_result *t)
{
    if (t->others_played < 0)
        return json_null();
    return json_pack("{s:i, s:s, s:i}", "played", t->others_played, "fen", t->others_fen,
                     "plies_alone", t->others_plies);
}

/* A no-progress rule's longest wait of all its endings with its line to the reset
 * (print_longest_progress), or null when no ending has a win. */
static json_t *json_longest_wait(const struct rule_section *s)
{
    const struct rule_result *x = s->summary.longest_wait;
    if (!x)
        return json_null();
    return json_pack("{s:s, s:s, s:s, s:i, s:o}", "ending", x->ending, "side_to_move",
                     side_words(s, x->strong_to_move), "fen", x->example_fen, "plies",
                     x->longest_plies, "line", line_moves_json(&s->reset));
}

static json_t *json_rule(const struct rule_section *s)
{
    const struct move_limit_rule *rule = s->report.rule;
    static const char *status_words[] = { "checked", "no position", "needs more pieces" };
    json_t *results = json_array();
    json_t *o = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s}", "name", rule->name, "limit",
                          rule->readings[0].limit, "unit", unit_words(rule->readings[0].unit),
                          "convention", rule->readings[0].source, "words", rule->words,
                          "status", status_words[s->report.status]);
    if (s->report.status != RULE_CHECKED)
        o = json_with(o, "message", json_string(s->report.message));
    if (s->summary.win_within) {
        json_t *cursed = json_array();
        for (int k = 0; k < move_limit_readings(rule); k++)
            json_append(&cursed, json_first_cursed(s, k));
        o = json_with(o, "first_cursed", cursed);
        for (int k = 0; k < move_limit_readings(rule); k++)
            for (int side = 0; side < 2; side++) {
                const struct rule_result *t = &s->summary.total[k][side];
                json_t *x = json_result(s, t, &s->line[side]);
                x = json_with(x, "lone_wins", json_integer((json_int_t)t->lone_wins));
                x = json_with(x, "by_played", json_by_played(s, t));
                x = json_with(x, "at_once", json_at_once(s, t));
                x = json_with(x, "drawn_by_others_example", json_others_example(t));
                json_append(&results, x);
            }
    } else {
        for (int k = 0; k < s->report.num_results; k++)
            json_append(&results, json_result(s, &s->report.results[k], NULL));
        o = json_with(o, "longest_wait", json_longest_wait(s));
    }
    return json_with(o, "results", results);
}

static void print_json(const struct variant_report *r)
{
    json_t *rules = json_array();
    for (int k = 0; k < r->num_rules; k++)
        json_append(&rules, json_rule(&r->rules[k]));
    json_t *json = json_pack("{s:s, s:i, s:o}", "variant", r->v->name, "pieces", r->pieces,
                             "rules", rules);
    /* no newline: report_variant and report_end put the objects into a list */
    if (!json || json_dumpf(json, stdout, 0) < 0)
        fprintf(stderr, "damero verify: out of memory writing the JSON\n");
    json_decref(json);
}

/* ---- the summary ---- */

/* The longest win and the wins beyond the limit of a rule under one reading, over both
 * sides to move and every ending. */
static void add_summary_row(struct report_output *out, const struct variant_report *r,
                      const struct rule_section *s, int reading)
{
    const struct move_limit_rule *rule = s->report.rule;
    const struct limit_reading *lr = &rule->readings[reading];
    if (out->num_rows == MAX_SUMMARY_ROWS)
        return;
    struct summary_row *row = &out->rows[out->num_rows++];
    snprintf(row->variant, sizeof row->variant, "%s", r->v->name);
    snprintf(row->rule, sizeof row->rule, "%s", rule->name);
    snprintf(row->limit, sizeof row->limit, "%d %s", lr->limit, unit_words(lr->unit));
    if (s->report.status != RULE_CHECKED) {
        snprintf(row->wins, sizeof row->wins, "-");
        snprintf(row->longest, sizeof row->longest, "-");
        snprintf(row->beyond, sizeof row->beyond, "%s",
                 s->report.status == RULE_NEEDS_PIECES ? "needs more pieces" : "no position");
        return;
    }
    const struct reading_summary *x = &s->summary.reading[reading];
    snprintf(row->wins, sizeof row->wins, "%" PRIu64, x->wins);
    snprintf(row->longest, sizeof row->longest, x->longest < 0 ? "-" : "%d", x->longest);
    snprintf(row->beyond, sizeof row->beyond, "%" PRIu64, x->beyond);
    convention_words(s, reading, row->convention, sizeof row->convention);
}

static void print_summary(const struct report_output *out, FILE *f, bool md)
{
    static const int widths[] = { 13, 18, 27, 10, 8, 17 };
    const char *head[] = { "variant", "rule", "limit", "wins", "longest", "beyond limit" };
    fprintf(f, md ? "\n## Summary\n\n" : "\n== summary: wins, the longest (in the limit's "
                                            "unit), and wins the limit turns into draws ==\n");
    print_rule_line(f, md, head, 6, widths);
    for (int k = 0; k < out->num_rows; k++) {
        const struct summary_row *row = &out->rows[k];
        const char *cells[] = { row->variant, row->rule, row->limit, row->wins, row->longest,
                                row->beyond };
        print_row(f, md, cells, 6, widths);
    }
    /* the counting conventions the answers above depend on, under the table */
    for (int k = 0; k < out->num_rows; k++) {
        const struct summary_row *row = &out->rows[k];
        if (row->convention[0])
            fprintf(f, md ? "\n- %s %s, %s: %s.\n" : "  note: %s %s, %s: %s.\n", row->variant,
                    row->rule, row->limit, row->convention);
    }
}

/* ---- output ---- */

/* The document under a temporary name next to path, renamed into place by report_end.
 * Returns 0, or -1 with a sentence in err. */
static int open_markdown(struct report_output *out, const char *path, char *err,
                         size_t err_size)
{
    snprintf(out->markdown_path, sizeof out->markdown_path, "%s", path);
    snprintf(out->markdown_tmp, sizeof out->markdown_tmp, "%s.tmp.%ld", path,
             (long)getpid());
    /* created exclusively: a symlink planted at the temporary name is not followed */
    if (!(out->markdown = file_create_exclusive(out->markdown_tmp))) {
        /* the user's name, not the temporary one; the temporary only where it is in the way */
        if (errno == EEXIST || errno == ELOOP)
            snprintf(err, err_size, "cannot write %s: %s is in the way (remove it)", path,
                     out->markdown_tmp);
        else
            snprintf(err, err_size, "cannot write %s: %s%s", path, strerror(errno),
                     errno == ENOENT ? " (its folder does not exist: create it first)" : "");
        return -1;
    }
    return 0;
}

int report_begin(struct report_output *out, bool json, bool single, const char *markdown,
                 int pieces, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    out->json = json;
    out->single = single;
    if (!markdown)
        return 0;
    if (strcmp(markdown, "-") == 0)
        out->markdown = stdout;
    else if (open_markdown(out, markdown, err, err_size) < 0)
        return -1;
    fprintf(out->markdown,
            "# Move-limit draw rules against perfect play\n\n"
            "Written by `damero verify` from its endgame tables (endings of up to %d pieces).\n"
            "A win's length is its distance to mate under best play (DTM): the winner takes\n"
            "the shortest way, the loser the longest. Counts are of legal positions.\n",
            pieces);
    return 0;
}

void report_variant(struct report_output *out, const struct variant_report *r)
{
    if (out->json) {
        if (!out->single)
            printf(out->variants ? ",\n" : "[\n");
        print_json(r);
    } else if (out->markdown != stdout) {
        print_text(stdout, false, r);
    }
    if (out->markdown)
        print_text(out->markdown, true, r);
    for (int k = 0; k < r->num_rules; k++)
        for (int reading = 0; reading < move_limit_readings(r->rules[k].report.rule); reading++)
            add_summary_row(out, r, &r->rules[k], reading);
    out->variants++;
}

void report_failure(struct report_output *out, const struct variant *v, const char *message)
{
    if (!out->json) {
        fprintf(stderr, "damero verify: %s: %s\n", v->name, message);
        return;
    }
    if (!out->single)
        printf(out->variants ? ",\n" : "[\n");
    /* in the list in place of the variant's report, so that the output stays one document */
    json_t *json = json_with_error(json_pack("{s:s}", "variant", v->name), message);
    if (!json || json_dumpf(json, stdout, 0) < 0)
        fprintf(stderr, "damero verify: %s: %s\n", v->name, message);
    json_decref(json);
    out->variants++;
}

int report_end(struct report_output *out, bool complete, char *err, size_t err_size)
{
    if (out->json && out->single)
        printf("\n");
    else if (out->json)
        printf(out->variants ? "\n]\n" : "[]\n");
    else if (complete && out->markdown != stdout)
        print_summary(out, stdout, false);
    if (!out->markdown)
        return 0;
    if (complete)
        print_summary(out, out->markdown, true);
    if (out->markdown == stdout)
        return 0;
    bool written = fflush(out->markdown) == 0 && fsync(fileno(out->markdown)) == 0;
    written = fclose(out->markdown) == 0 && written;
    if (complete && written && rename(out->markdown_tmp, out->markdown_path) == 0 &&
        file_sync_directory(out->markdown_path) == 0)
        return 0;
    remove(out->markdown_tmp);
    if (!complete)
        return 0;
    snprintf(err, err_size, "cannot write %s: %s", out->markdown_path, strerror(errno));
    return -1;
}
