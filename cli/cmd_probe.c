/* damero probe: the value of a position and of each of its moves, from the tables. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/probing.h"
#include "cli/rules_args.h"

static const char help[] =
    "usage: damero probe --variant NAME [--dir DIR] [--json] [--cache MB]\n"
    "                    [--rules] [--count RULE=N]... [--reading N] FEN\n"
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
    "captures lead to, must have been built with 'damero gen'.\n"
    "\n" TABLE_OPTIONS_HELP
    "  --json          one JSON object: variant, fen (as damero writes it), wdl (\"win\",\n"
    "                  \"draw\" or \"loss\"), dtm, mtc and moves, a list of {move, wdl, dtm,\n"
    "                  mtc, after (the FEN the move leads to)}, best first; dtm and mtc in\n"
    "                  plies, null in a draw\n"
    "                  (with --rules: \"rules\", the value under the rules, and the\n"
    "                  same in every move, its counts those after the move)\n"
    "  --cache MB      the most memory the table block cache may use (default: 64)\n"
    RULES_OPTIONS_HELP
    "\n"
    "A ply is one side's move. Where a count is also given in moves, those are the moves\n"
    "of the side to move: (plies + 1) / 2, rounded down (a win in 7 plies is 4 moves of\n"
    "the winner's; a loss in 6 plies is 3 moves of the loser's).\n";

struct probe_args {
    struct table_args t;
    struct rules_args rules;
};

static int parse_args(int argc, char **argv, struct probe_args *pa)
{
    struct table_args *a = &pa->t;
    static const struct option longopts[] = {
        TABLE_LONGOPTS,
        RULES_LONGOPTS,
        { "cache", required_argument, NULL, 'c' },
        { NULL, 0, NULL, 0 },
    };
    int opt, status, cache_mb;

    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == 'c') {
            if (parse_int("probe", "--cache", optarg, 0, 1 << 20, &cache_mb) < 0)
                return EXIT_USAGE;
            a->cache_bytes = (size_t)cache_mb << 20;
        } else if ((status = rules_option("probe", opt, &pa->rules)) != 1) {
            if (status != EXIT_OK)
                return status;
        } else if ((status = table_option("probe", help, opt, argv, a)) != EXIT_OK) {
            return status;
        }
    }
    return table_operands("probe", argc, argv, a);
}

/* A count of plies, and the moves of the side to move it holds. */
static void print_plies(const char *metric, const damero_value *value, int plies, int side)
{
    if (value->wdl == DAMERO_DRAW)
        printf("%-9s none (a draw)\n", metric);
    else
        printf("%-9s %d %s (%d move%s of %s)\n", metric, plies, plies == 1 ? "ply" : "plies",
               (plies + 1) / 2, (plies + 1) / 2 == 1 ? "" : "s", side_word(side));
}

/* What probe found: the position's value and its moves, best first; with --rules
 * (rules not NULL) the value under the rules and the moves in their order. */
struct probed {
    damero_value value;
    const char *end_rule;          /* the rule on lone pieces that ended the game, or NULL */
    int count;
    damero_move *moves;
    damero_rules_value rules;
    damero_rules_move *rules_moves; /* NULL without --rules */
};

static const damero_move *probed_move(const struct probed *pr, int i)
{
    return pr->rules_moves ? &pr->rules_moves[i].move : &pr->moves[i];
}

static void print_text(const char *fen, const struct probe_args *pa, damero_tb *tb,
                       const damero_position *pos, const struct probed *pr)
{
    const struct table_args *a = &pa->t;
    const damero_value *value = &pr->value;
    const char *rule = pr->end_rule;
    int count = pr->count;
    char words[64];
    static const char *const verb[] = { "loses", "draws", "wins" }; /* by wdl + 1 */

    printf("position  %s (%s)\n", fen, a->variant);
    if (rule)
        printf("value     %s to move %s: the game is over, %s\n", side_word(pos->side_to_move),
               verb[value->wdl + 1], rule);
    else
        printf("value     %s to move %s%s\n", side_word(pos->side_to_move),
               verb[value->wdl + 1], count ? "" : ": it has no legal move");
    print_plies("DTM", value, value->dtm, pos->side_to_move);
    print_plies("MTC", value, value->mtc, pos->side_to_move);
    if (pr->rules_moves)
        print_rules_text(tb, &pa->rules, &pr->rules);
    if (count == 0)
        return;
    printf("\n%-24s %-5s  %9s  %9s%s\n", "move", "value", "DTM plies", "MTC plies",
           pr->rules_moves ? "  under the rules" : "");
    for (int i = 0; i < count; i++) {
        const damero_move *m = probed_move(pr, i);
        const damero_value *v = &m->value;
        if (v->wdl == DAMERO_DRAW)
            printf("%-24s %-5s  %9s  %9s", m->text, "draw", "-", "-");
        else
            printf("%-24s %-5s  %9d  %9d", m->text, wdl_word(v->wdl), v->dtm, v->mtc);
        if (pr->rules_moves)
            rules_value_words(&pr->rules_moves[i].value, words, sizeof words);
        printf("%s%s\n", pr->rules_moves ? "  " : "", pr->rules_moves ? words : "");
    }
}

static void print_json_value(const damero_value *value)
{
    printf("\"wdl\": \"%s\", \"dtm\": ", wdl_word(value->wdl));
    print_json_count(value->dtm);
    printf(", \"mtc\": ");
    print_json_count(value->mtc);
}

static void print_json(damero_tb *tb, const char *fen, const struct probe_args *pa,
                       const struct probed *pr)
{
    char after[DAMERO_FEN_SIZE];
    printf("{\"variant\": \"%s\", \"fen\": \"%s\", ", pa->t.variant, fen);
    print_json_value(&pr->value);
    if (pr->rules_moves)
        print_rules_json(tb, &pa->rules, &pr->rules);
    printf(", \"moves\": [");
    for (int i = 0; i < pr->count; i++) {
        const damero_move *m = probed_move(pr, i);
        printf("%s{\"move\": \"%s\", ", i ? ", " : "", m->text);
        print_json_value(&m->value);
        if (damero_write_fen(tb, &m->after, after) == DAMERO_OK)
            printf(", \"after\": \"%s\"", after);
        if (pr->rules_moves)
            print_rules_json(tb, &pa->rules, &pr->rules_moves[i].value);
        printf("}");
    }
    printf("]}\n");
}

/* Probes the position and its moves, and prints them. */
static int probe(damero_tb *tb, const struct probe_args *pa, const damero_position *pos,
                 struct probed *pr)
{
    char fen[DAMERO_FEN_SIZE];
    damero_counts counts;
    int end, status;

    if (pr->rules_moves && (status = rules_counts("probe", tb, &pa->rules, &counts)) != EXIT_OK)
        return status;
    if (damero_probe(tb, pos, &pr->value) != DAMERO_OK ||
        damero_root_moves(tb, pos, pr->moves, DAMERO_MAX_MOVES, &pr->count) != DAMERO_OK ||
        damero_game_end(tb, pos, &end, &pr->end_rule) != DAMERO_OK ||
        damero_write_fen(tb, pos, fen) != DAMERO_OK)
        return probe_failure("probe");
    if (pr->rules_moves &&
        (damero_probe_rules(tb, pos, &counts, pa->rules.reading, &pr->rules) != DAMERO_OK ||
         damero_root_moves_rules(tb, pos, &counts, pa->rules.reading, pr->rules_moves,
                                 DAMERO_MAX_MOVES, &pr->count) != DAMERO_OK))
        return probe_failure("probe");
    if (pa->t.json)
        print_json(tb, fen, pa, pr);
    else
        print_text(fen, pa, tb, pos, pr);
    return EXIT_OK;
}

int cmd_probe(int argc, char **argv)
{
    struct probe_args a = { .t = table_args_default() };
    struct probed pr = { 0 };
    damero_tb *tb = NULL;
    damero_position pos;
    int status = parse_args(argc, argv, &a);

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    pr.moves = malloc(DAMERO_MAX_MOVES * sizeof *pr.moves);
    if (a.rules.on)
        pr.rules_moves = malloc(DAMERO_MAX_MOVES * sizeof *pr.rules_moves);
    if (!pr.moves || (a.rules.on && !pr.rules_moves)) {
        fprintf(stderr, "damero probe: out of memory\n");
        status = EXIT_FAILURE_RUN;
    } else if ((status = table_open_position("probe", &a.t, &tb, &pos)) == EXIT_OK) {
        status = probe(tb, &a, &pos, &pr);
    }
    damero_close(tb);
    free(pr.moves);
    free(pr.rules_moves);
    return status;
}
