/* damero probe: the value of a position and of each of its moves, from the tables. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli/api_json.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/probing.h"
#include "cli/rules_args.h"

static const char help[] =
    "usage: damero probe --variant NAME [--dir DIR] [--json] [--cache MB]\n"
    "                    [--rules] [--count RULE=N]... [--reading N] (FEN | --fen FEN)\n"
    "       damero probe --variant NAME [--dir DIR] [--json] [--cache MB] [--input FILE]\n"
    "\n"
    "Prints what the position FEN (in the variant's notation, e.g. W:WKa1,Kc3,Ke1:BKh8 or\n"
    "B:W18,K28:BK1) is worth to the side to move: win, draw or loss, with DTM (plies to\n"
    "the end of the game, the winner taking the shortest way and the loser the longest) and\n"
    "MTC (plies to the next capture or man move, the winner keeping the win). Then every\n"
    "legal move, best first, with its value, DTM and MTC in plies, for the side to move and\n"
    "counted from before the move. A side with no legal move has lost (won, in the giveaway\n"
    "variants): DTM 0. Where the variant's rule on lone pieces ends the game (turkish: one\n"
    "piece each is a draw), there is no move either. The tables of the position's\n"
    "material, and of every material its\n"
    "captures lead to, must have been built with 'damero gen'. Tables built without DTM\n"
    "(--metrics wdl, or WDL and MTC alone) give the value, and MTC where built; a metric\n"
    "not built is said so, with the 'damero gen' command that builds it, and the moves are\n"
    "ranked by value, then MTC (a win by the quickest, a loss by the slowest).\n"
    "\n"
    "Without a FEN, probes many positions: one FEN a line from FILE (--input) or standard\n"
    "input, the tables opened once, and prints one line per position, in order: the FEN as\n"
    "given, then its value, DTM and MTC in plies ('-' in a draw, 'not-built' for a metric\n"
    "the tables lack), as in\n"
    "  W:WKc3:Bd8,f6 win 9 3\n"
    "or, for a line that cannot be probed, the FEN and 'error:' with the reason; the run goes\n"
    "on, and exits 1 at the end when any line failed. Blank lines are skipped.\n"
    "\n" TABLE_OPTIONS_HELP FEN_OPTION_HELP
    "  --json          one JSON object: variant, fen (as damero writes it), wdl (\"win\",\n"
    "                  \"draw\" or \"loss\"), dtm, mtc, category and moves, a list of {move,\n"
    "                  wdl, dtm, mtc, category, after (the FEN the move leads to)}, best\n"
    "                  first; dtm and mtc in plies, null in a draw; where the tables lack a\n"
    "                  metric, null and not_built, the list of those (\"dtm\", \"mtc\");\n"
    "                  category the value under the move-limit rules as Lichess names it\n"
    "                  (win, cursed-win, draw, blessed-loss, loss; unknown where a short\n"
    "                  search cannot settle it, and then unknown_because says why and how\n"
    "                  to settle it: docs/commands.md, serve)\n"
    "                  (batch: one JSON object a line, {fen, wdl, dtm, mtc} or {fen, error})\n"
    "                  (with --rules: \"rules\", the value under the rules, and the same\n"
    "                  in every move, its counts those after the move)\n"
    "                  A position that cannot be probed (a bad FEN, a missing table, a\n"
    "                  bad --count) gives {fen, error: the sentence} instead, with the\n"
    "                  exit code as without --json; an --input FILE that cannot be read\n"
    "                  {input, error}. Mistakes in the options are told on stderr.\n"
    "  --input FILE    the FENs to probe, one a line ('-': standard input, the default\n"
    "                  when no FEN is given)\n"
    "  --cache MB      the most memory the table block cache may use (default: 64)\n"
    RULES_OPTIONS_HELP
    "\n"
    "A ply is one side's move. Where a count is also given in moves, those are the moves\n"
    "of the side to move: (plies + 1) / 2, rounded down (a win in 7 plies is 4 moves of\n"
    "the winner's; a loss in 6 plies is 3 moves of the loser's).\n";

static int parse_args(int argc, char **argv, struct table_args *a, struct rules_args *rules,
                      const char **input)
{
    const struct option_spec options[] = {
        { "variant", OPTION_VARIANT_NAME, .to.text = &a->variant, .required = true },
        TABLE_OPTIONS(a),
        FEN_OPTION(a),
        RULES_OPTIONS(rules),
        CACHE_OPTION(a),
        { "input", OPTION_TEXT, .to.text = input },
        { .name = NULL },
    };
    struct operands operands;
    int status = parse_options("probe", help, options, argc, argv, &operands);

    if (status != EXIT_OK)
        return status;
    if ((operands.count == 0 && !a->fen) || *input) { /* a batch: FENs from a file */
        if (operands.count > 0 || a->fen)
            return usage_error("probe", "give the FENs either as --input or as one FEN "
                                        "(operand or --fen), not both");
        if (rules->on)
            return usage_error("probe", "--rules, --count and --reading take one FEN operand, "
                                        "not a batch");
        if (!*input)
            *input = "-";
        return EXIT_OK;
    }
    return table_operands("probe", &operands, a);
}

/* A count of plies, and the moves of the side to move it holds; or the command that
 * builds the metric, where the tables do not hold it. */
static void print_plies(const char *metric, const damero_value *value, int plies, int side,
                        const char *build)
{
    if (plies == DAMERO_NOT_BUILT)
        printf("%-9s not built: %s builds it\n", metric, build);
    else if (value->wdl == DAMERO_DRAW)
        printf("%-9s none (a draw)\n", metric);
    else
        printf("%-9s %d %s (%d move%s of %s)\n", metric, plies, plies == 1 ? "ply" : "plies",
               (plies + 1) / 2, (plies + 1) / 2 == 1 ? "" : "s", side_word(side));
}

/* The position's value; count is its number of moves, rule the lone-piece rule that
 * ended the game, or NULL. */
static void print_value_text(const char *fen, const struct table_args *a, damero_tb *tb,
                             const damero_position *pos, const damero_value *value, int count,
                             const char *rule)
{
    static const char *const verb[] = { "loses", "draws", "wins" }; /* by wdl + 1 */
    char build[256];

    printf("position  %s (%s)\n", fen, a->variant);
    if (rule)
        printf("value     %s to move %s: the game is over, %s\n", side_word(pos->side_to_move),
               verb[value->wdl + 1], rule);
    else
        printf("value     %s to move %s%s\n", side_word(pos->side_to_move),
               verb[value->wdl + 1], count ? "" : ": it has no legal move");
    build_command(tb, a->dir, pos, build, sizeof build);
    print_plies("DTM", value, value->dtm, pos->side_to_move, build);
    print_plies("MTC", value, value->mtc, pos->side_to_move, build);
}

/* A DTM or MTC in plies as a table cell: "-" in a draw, "not built" where the tables do
 * not hold it. */
static void plies_cell(int plies, char cell[16])
{
    if (plies == DAMERO_NOT_BUILT)
        snprintf(cell, 16, "not built");
    else if (plies < 0)
        snprintf(cell, 16, "-");
    else
        snprintf(cell, 16, "%d", plies);
}

/* One row of the moves table; extra is printed after the MTC column. */
static void print_move_row(const damero_move *m, const char *extra)
{
    char dtm[16], mtc[16];
    plies_cell(m->value.dtm, dtm);
    plies_cell(m->value.mtc, mtc);
    printf("%-24s %-5s  %9s  %9s%s\n", m->text, wdl_word(m->value.wdl), dtm, mtc, extra);
}

/* Under the moves, how they were ranked where a metric is not built (damero_root_moves). */
static void print_ranking(const damero_move *moves, int count)
{
    bool without_dtm = false, without_mtc = false;
    for (int i = 0; i < count; i++) {
        without_dtm |= moves[i].value.dtm == DAMERO_NOT_BUILT;
        without_mtc |= moves[i].value.mtc == DAMERO_NOT_BUILT;
    }
    if (without_dtm && without_mtc)
        printf("(no DTM or MTC table: the moves are ranked by value alone)\n");
    else if (without_dtm)
        printf("(no DTM table: the moves are ranked by value, then MTC)\n");
}

static void print_text(const char *fen, const struct table_args *a, damero_tb *tb,
                       const damero_position *pos, const damero_value *value,
                       const damero_move *moves, int count, const char *rule)
{
    print_value_text(fen, a, tb, pos, value, count, rule);
    if (count == 0)
        return;
    printf("\n%-24s %-5s  %9s  %9s\n", "move", "value", "DTM plies", "MTC plies");
    for (int i = 0; i < count; i++)
        print_move_row(&moves[i], "");
    print_ranking(moves, count);
}

/* The same under the move-limit rules: the counts and the value under them, and a column
 * with each move's value under them, the moves in that order. */
static void print_rules_moves_text(const char *fen, const struct table_args *a, damero_tb *tb,
                                   const struct rules_args *r, const damero_position *pos,
                                   const damero_rules_value *value,
                                   const damero_rules_move *moves, int count, const char *rule)
{
    char words[64], extra[80];
    print_value_text(fen, a, tb, pos, &value->plain, count, rule);
    print_rules_text(tb, r, value);
    if (count == 0)
        return;
    printf("\n%-24s %-5s  %9s  %9s  %s\n", "move", "value", "DTM plies", "MTC plies",
           "under the rules");
    for (int i = 0; i < count; i++) {
        rules_value_words(&moves[i].value, words, sizeof words);
        snprintf(extra, sizeof extra, "  %s", words);
        print_move_row(&moves[i].move, extra);
    }
}

static int print_json(damero_tb *tb, const struct table_args *a, const damero_position *pos,
                      damero_move *moves)
{
    json_t *json;
    int built = position_json(tb, pos, moves, &json);
    return print_built_json("probe", a, built, json);
}

/* Probes the position and its moves, and prints them. */
static int probe(damero_tb *tb, const struct table_args *a, const damero_position *pos,
                 damero_move *moves)
{
    damero_value value;
    char fen[DAMERO_FEN_SIZE];
    const char *rule;
    int count, end;

    if (a->json)
        return print_json(tb, a, pos, moves);
    if (damero_probe(tb, pos, &value) != DAMERO_OK ||
        damero_root_moves(tb, pos, moves, DAMERO_MAX_MOVES, &count) != DAMERO_OK ||
        damero_game_end(tb, pos, &end, &rule) != DAMERO_OK ||
        damero_write_fen(tb, pos, fen) != DAMERO_OK)
        return position_failure("probe", a, EXIT_FAILURE_RUN);
    print_text(fen, a, tb, pos, &value, moves, count, rule);
    return EXIT_OK;
}

/* Probes the position and its moves under the move-limit rules, and prints them. */
static int probe_rules(damero_tb *tb, const struct table_args *a, const struct rules_args *r,
                       const damero_position *pos)
{
    damero_rules_move *moves = malloc(DAMERO_MAX_MOVES * sizeof *moves);
    damero_rules_value value;
    damero_counts counts;
    char fen[DAMERO_FEN_SIZE], message[512];
    const char *rule;
    int count, end, status;

    if (!moves) {
        fprintf(stderr, "damero probe: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    status = rules_counts(tb, r, &counts, message, sizeof message);
    if (status != EXIT_OK)
        input_failure("probe", a->json, "fen", a->fen, status, message);
    else if (damero_probe_rules(tb, pos, &counts, r->reading, &value) != DAMERO_OK ||
             damero_root_moves_rules(tb, pos, &counts, r->reading, moves, DAMERO_MAX_MOVES,
                                     &count) != DAMERO_OK ||
             damero_game_end(tb, pos, &end, &rule) != DAMERO_OK ||
             damero_write_fen(tb, pos, fen) != DAMERO_OK)
        status = position_failure("probe", a, EXIT_FAILURE_RUN);
    if (status == EXIT_OK && a->json) {
        json_t *json;
        int built = position_rules_json(tb, pos, r->reading, &value, moves, count, &json);
        status = print_built_json("probe", a, built, json);
    } else if (status == EXIT_OK) {
        print_rules_moves_text(fen, a, tb, r, pos, &value, moves, count, rule);
    }
    free(moves);
    return status;
}

/* ---- many positions ---- */

/* A line of a batch that has no value: the FEN as given and why. */
static void print_line_error(const char *fen, const char *why, bool json)
{
    if (json)
        json_print("probe", json_with_error(json_pack("{s:s}", "fen", fen), why));
    else
        printf("%s error: %s\n", fen, why);
}

/* A DTM or MTC in a batch line, then `after`: "-" in a draw, "not-built" where the
 * tables do not hold it. */
static void print_batch_plies(int plies, char after)
{
    if (plies == DAMERO_NOT_BUILT)
        printf("not-built%c", after);
    else if (plies < 0)
        printf("-%c", after);
    else
        printf("%d%c", plies, after);
}

/* One line of a batch: the value of the FEN, or the reason there is none. Returns
 * whether it was probed. */
static bool probe_line(damero_tb *tb, const char *fen, bool json)
{
    damero_position pos;
    damero_value value;
    int status = damero_parse_fen(tb, fen, &pos);
    if (status == DAMERO_OK)
        status = damero_probe(tb, &pos, &value);
    if (status != DAMERO_OK) {
        print_line_error(fen, damero_error_message(), json);
    } else if (json) {
        if (json_print("probe", json_with_value(json_pack("{s:s}", "fen", fen), &value)) < 0)
            return false;
    } else {
        printf("%s %s ", fen, wdl_word(value.wdl));
        print_batch_plies(value.dtm, ' ');
        print_batch_plies(value.mtc, '\n');
    }
    return status == DAMERO_OK;
}

/* A line holding NUL bytes (a file saved as UTF-16, or not text at all): refused with
 * its text shown, each NUL as "\0", rather than cut at the first. Returns whether it
 * was one. */
static bool refuse_nul_line(const char *line, size_t length, bool json)
{
    const char *nul = memchr(line, '\0', length);
    if (!nul)
        return false;
    char *shown = malloc(2 * length + 1), why[160];
    size_t n = 0;
    for (size_t k = 0; shown && k < length; k++)
        if (line[k] == '\0')
            shown[n++] = '\\', shown[n++] = '0';
        else
            shown[n++] = line[k];
    if (shown)
        shown[n] = '\0';
    snprintf(why, sizeof why, "a NUL byte at column %zu: a FEN is text (a file saved as "
             "UTF-16 must be converted first: iconv -f UTF-16 -t UTF-8)",
             (size_t)(nul - line) + 1);
    print_line_error(shown ? shown : "", why, json);
    free(shown);
    return true;
}

/* Probes every line of `in`. Returns the exit code. */
static int probe_stream(damero_tb *tb, FILE *in, const char *name, bool json)
{
    char *line = NULL;
    size_t size = 0;
    ssize_t length;
    long failed = 0;
    while ((length = getline(&line, &size, in)) >= 0) {
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r' ||
                              line[length - 1] == ' ' || line[length - 1] == '\t'))
            line[--length] = '\0';
        if (refuse_nul_line(line, (size_t)length, json)) {
            failed++;
            continue;
        }
        const char *fen = line + strspn(line, " \t");
        if (*fen)
            failed += !probe_line(tb, fen, json);
    }
    bool read_error = ferror(in);
    free(line);
    if (read_error) {
        fprintf(stderr, "damero probe: cannot read %s\n", name);
        return EXIT_FAILURE_RUN;
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "damero probe: cannot write the results\n");
        return EXIT_FAILURE_RUN;
    }
    if (failed)
        fprintf(stderr, "damero probe: %ld line%s could not be probed\n", failed,
                failed == 1 ? "" : "s");
    return failed ? EXIT_FAILURE_RUN : EXIT_OK;
}

static int probe_batch(const struct table_args *a, const char *input)
{
    damero_tb *tb = NULL;
    bool from_stdin = strcmp(input, "-") == 0;
    FILE *in = from_stdin ? stdin : fopen(input, "r");
    char message[512];
    if (!in) {
        snprintf(message, sizeof message, "cannot open %s: %s", input, strerror(errno));
        return input_failure("probe", a->json, "input", input, EXIT_FAILURE_RUN, message);
    }
    int status = damero_open(a->variant, a->dir, a->cache_bytes, &tb) == DAMERO_OK
                     ? probe_stream(tb, in, from_stdin ? "standard input" : input, a->json)
                     : input_failure("probe", a->json, "input", input, EXIT_FAILURE_RUN,
                                     damero_error_message());
    damero_close(tb);
    if (!from_stdin)
        fclose(in);
    return status;
}

int cmd_probe(int argc, char **argv)
{
    struct table_args a = table_args_default();
    struct rules_args rules = RULES_ARGS_DEFAULT;
    damero_tb *tb = NULL;
    damero_position pos;
    damero_move *moves;
    const char *input = NULL;
    int status = parse_args(argc, argv, &a, &rules, &input);

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    if (input)
        return probe_batch(&a, input);
    if (!(moves = malloc(DAMERO_MAX_MOVES * sizeof *moves))) {
        fprintf(stderr, "damero probe: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    status = table_open_position("probe", &a, &tb, &pos);
    if (status == EXIT_OK)
        status = rules.on ? probe_rules(tb, &a, &rules, &pos) : probe(tb, &a, &pos, moves);
    damero_close(tb);
    free(moves);
    return status;
}
