/* damero line: the game both sides play from a position when each takes its best move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/api_json.h"
#include "cli/board.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/line_play.h"
#include "cli/pdn.h"
#include "cli/probing.h"
#include "cli/rules_args.h"
#include "core/variant.h"

static const char help[] =
    "usage: damero line --variant NAME [--dir DIR] [--boards | --json | --pdn] [--max-plies N]\n"
    "                   [--rules] [--count RULE=N]... [--reading N] (FEN | --fen FEN)\n"
    "\n"
    "Prints the value of the position FEN (in the variant's notation), then plays the\n"
    "best move of the tables from both sides: a win takes the shortest way, a loss the\n"
    "longest, so a won position ends after exactly its DTM plies. The moves are numbered\n"
    "in pairs as players write them, a pair starting with the side the variant lets move\n"
    "first (\"1. c3:g7 d8-c7\"; \"1... e5:b2\" when the line starts with the other side).\n"
    "The line stops when the game is over (the side to move has no legal move, or the\n"
    "variant's rule on lone pieces ends it), when a position repeats (a draw by\n"
    "repetition), or at the limit. Where the tables hold no DTM (damero gen --metrics\n"
    "wdl, or WDL and MTC alone), both sides play by MTC instead: the winner the quickest\n"
    "capture or man move that keeps the win, the loser the slowest; the win is sure, not\n"
    "the shortest, and the output says so (\"played_by\": \"mtc\" in --json). With WDL\n"
    "alone there is no line: the error gives the 'damero gen' command that builds one.\n"
    "Boards of the start and the final positions are drawn as White sees them, each\n"
    "playable square showing its piece (w, b: men; W, B: kings) or its name.\n"
    "\n" TABLE_OPTIONS_HELP FEN_OPTION_HELP
    "  --boards        draw the board after every ply (one side's move) too, one move a row\n"
    "  --json          one JSON object: variant, fen (the start, as damero writes it),\n"
    "                  result (\"win\", \"draw\" or \"loss\" for the side to move at the\n"
    "                  start), plies, moves (a list of move texts) and end (\"no move\",\n"
    "                  \"lone pieces\", \"repetition\" or \"limit\"); no boards. A\n"
    "                  position that cannot be played (a bad FEN, a missing table, a bad\n"
    "                  --count) gives {fen, error: the sentence} instead, exit code as\n"
    "                  without --json; mistakes in the options are told on stderr\n"
    "  --pdn           the line as a PDN game: tags Event, GameType, FEN (the start) and\n"
    "                  Result (1-0, 0-1, 1/2-1/2, or * at the limit), the moves, and damero's\n"
    "                  comments on the start's value and on how the line ends\n"
    "  --max-plies N   stop after N plies (default: 1000, at most 100000)\n"
    "With --rules, --count or --reading, both sides play the best move under the\n"
    "move-limit rules instead (damero probe --help): the line also stops when a count runs\n"
    "out, a draw (end \"count\" in --json, which also gains \"rules_result\").\n"
    RULES_OPTIONS_HELP;

#define DEFAULT_MAX_PLIES 1000
#define MOST_PLIES 100000

struct line_args {
    struct table_args t;
    bool boards;
    bool pdn;
    int max_plies;
    struct rules_args rules;
};

static int parse_args(int argc, char **argv, struct line_args *a)
{
    const struct option_spec options[] = {
        { "variant", OPTION_VARIANT_NAME, .to.text = &a->t.variant, .required = true },
        TABLE_OPTIONS(&a->t),
        FEN_OPTION(&a->t),
        { "boards", OPTION_FLAG, .to.flag = &a->boards },
        { "pdn", OPTION_FLAG, .to.flag = &a->pdn },
        { "max-plies", OPTION_NUMBER, .to.number = &a->max_plies, .min = 0, .max = MOST_PLIES },
        RULES_OPTIONS(&a->rules),
        { .name = NULL },
    };
    struct operands operands;
    int status = parse_options("line", help, options, argc, argv, &operands);

    if (status != EXIT_OK)
        return status;
    if (a->boards + a->t.json + a->pdn > 1)
        return usage_error("line", "--boards, --json and --pdn do not go together");
    return table_operands("line", &operands, &a->t);
}

/* "win in 7 plies", "loss in 1 ply", "draw"; where the tables hold no DTM, "win (no DTM
 * table; MTC 3 plies)". */
static void value_text(const damero_value *value, char *text, size_t size)
{
    if (value->wdl == DAMERO_DRAW)
        snprintf(text, size, "draw");
    else if (value->dtm == DAMERO_NOT_BUILT)
        snprintf(text, size, "%s (no DTM table; MTC %d %s)", wdl_word(value->wdl), value->mtc,
                 value->mtc == 1 ? "ply" : "plies");
    else
        snprintf(text, size, "%s in %d %s", wdl_word(value->wdl), value->dtm,
                 value->dtm == 1 ? "ply" : "plies");
}

/* What a line played by MTC is, where the tables hold no DTM. */
static const char by_mtc_words[] =
    "No DTM table: both sides played by MTC, the winner taking the quickest capture or man "
    "move that keeps the win, the loser the slowest; the win is sure, though not in the "
    "fewest plies.";

static int print_board(damero_tb *tb, const damero_position *pos)
{
    char fen[DAMERO_FEN_SIZE];

    if (damero_write_fen(tb, pos, fen) != DAMERO_OK)
        return probe_failure("line");
    printf("\n");
    board_print(stdout, tb, pos);
    printf("%s to move: %s\n\n", side_word(pos->side_to_move), fen);
    return EXIT_OK;
}

/* The moves of the line as players write them, numbered in pairs from the side the
 * variant lets move first: a pair a row ("   12. c3-d4            f6-e5", "    1... e5:b2"
 * when the line starts with the second move of a pair), or with --boards a move a row,
 * each followed by its board. The final board ends the list. */
static int print_moves(damero_tb *tb, const struct line_args *a, const struct line *l)
{
    bool second_first = pdn_second_first(tb, &l->positions[0]);
    char number[24];
    int status;

    for (int ply = 0; ply < l->plies; ply++) {
        bool second = (ply + second_first) % 2 == 1, last = ply + 1 == l->plies;
        if (pdn_numbered(second_first, ply) || a->boards) {
            pdn_move_number(second_first, ply, number, sizeof number);
            printf("%6s ", number);
        }
        if (second || last || a->boards)
            printf("%s\n", l->moves[ply].text);
        else
            printf("%-16s ", l->moves[ply].text);
        if ((a->boards || last) && (status = print_board(tb, &l->positions[ply + 1])) != EXIT_OK)
            return status;
    }
    return EXIT_OK;
}

/* How the line ended, in a sentence. */
static int print_end(damero_tb *tb, const struct line *l)
{
    const damero_position *last = &l->positions[l->plies];
    damero_value value;
    const char *rule;
    int mover, winner, end;

    if (l->end == END_LIMIT) {
        printf("Stopped after %d plies (--max-plies).\n", l->plies);
        return EXIT_OK;
    }
    if (l->end == END_COUNT) {
        damero_rule_info info;
        if (damero_rule(tb, l->run_out, &info) != DAMERO_OK)
            return probe_failure("line");
        printf("The %s count has run out after %d plies: a draw.\n", info.name, l->plies);
        return EXIT_OK;
    }
    if (l->end == END_REPETITION) {
        if (l->repeated == 0)
            printf("The position after ply %d is the start again: a draw by repetition.\n",
                   l->plies);
        else
            printf("The position after ply %d repeats the one after ply %d: a draw by "
                   "repetition.\n", l->plies, l->repeated);
        return EXIT_OK;
    }
    if (l->end == END_LONE_PIECES) {
        if (damero_game_end(tb, last, &end, &rule) != DAMERO_OK)
            return probe_failure("line");
        printf("The game is over after %d %s: %s.\n", l->plies, l->plies == 1 ? "ply" : "plies",
               rule);
        return EXIT_OK;
    }
    /* the winner is the rules' to say: the giveaway variants reverse it */
    if (damero_probe(tb, last, &value) != DAMERO_OK)
        return probe_failure("line");
    mover = last->side_to_move;
    winner = value.wdl == DAMERO_WIN ? mover : 1 - mover;
    printf("%s has no %s: %s wins after %d %s.\n", side_word(mover),
           last->men[mover] | last->kings[mover] ? "legal move" : "piece left",
           side_word(winner), l->plies, l->plies == 1 ? "ply" : "plies");
    return EXIT_OK;
}

static int print_text(damero_tb *tb, const struct line_args *a, const damero_value *start,
                      const struct line *l)
{
    char value[80];
    int status;

    value_text(start, value, sizeof value);
    printf("%s, %s to move: %s", a->t.variant, side_word(l->positions[0].side_to_move),
           value);
    if (l->rules) {
        rules_value_words(&l->start, value, sizeof value);
        printf("; under the rules (reading %d): %s", l->reading, value);
    }
    printf("\n");
    if ((status = print_board(tb, &l->positions[0])) != EXIT_OK ||
        (status = print_moves(tb, a, l)) != EXIT_OK ||
        (status = print_end(tb, l)) != EXIT_OK)
        return status;
    if (l->by_mtc)
        printf("%s\n", by_mtc_words);
    return EXIT_OK;
}

static int print_json(damero_tb *tb, const struct line_args *a, const struct line *l)
{
    json_t *json;
    int built = line_json(tb, l, &json);
    return print_built_json("line", &a->t, built, json);
}

/* The result of the game the line plays, as PDN writes it. */
static int pdn_result(damero_tb *tb, const struct line *l, const char **result)
{
    const damero_position *last = &l->positions[l->plies];
    damero_value value;

    if (l->end == END_LIMIT || l->end == END_REPETITION || l->end == END_COUNT) {
        *result = l->end == END_LIMIT ? "*" : "1/2-1/2";
        return DAMERO_OK;
    }
    /* the game is over: the rules say who won (the giveaway variants reverse it) */
    int status = damero_probe(tb, last, &value);
    bool white_wins = (value.wdl == DAMERO_WIN) == (last->side_to_move == DAMERO_WHITE);
    *result = value.wdl == DAMERO_DRAW ? "1/2-1/2" : white_wins ? "1-0" : "0-1";
    return status;
}

static int print_pdn(damero_tb *tb, const struct line_args *a, const damero_value *start,
                     const struct line *l)
{
    const struct variant *v = variant_by_name(a->t.variant);
    char fen[DAMERO_FEN_SIZE], text[160];
    struct pdn_writer w;
    const char *result;

    if (damero_write_fen(tb, &l->positions[0], fen) != DAMERO_OK ||
        pdn_result(tb, l, &result) != DAMERO_OK)
        return probe_failure("line");
    pdn_write_tag(stdout, "Event", "damero line");
    pdn_write_gametype(stdout, v->pdn_gametype);
    pdn_write_tag(stdout, "FEN", fen);
    pdn_write_tag(stdout, "Result", result);
    pdn_writer_init(&w, stdout, pdn_second_first(tb, &l->positions[0]));
    snprintf(text, sizeof text, "%s %s to move: ", PDN_OWN_COMMENT,
             side_word(l->positions[0].side_to_move));
    value_text(start, text + strlen(text), sizeof text - strlen(text));
    pdn_write_comment(&w, text);
    for (int i = 0; i < l->plies; i++)
        pdn_write_move(&w, l->moves[i].text);
    snprintf(text, sizeof text, "%s the line ends: %s%s", PDN_OWN_COMMENT,
             line_end_words[l->end], l->by_mtc ? "; played by MTC (no DTM table)" : "");
    pdn_write_comment(&w, text);
    pdn_write_end(&w, result);
    return EXIT_OK;
}

/* Values the start, plays the line and prints it. */
static int run_line(damero_tb *tb, const struct line_args *a, struct line *l)
{
    damero_value start;
    damero_counts counts;
    char message[512];
    int status;

    if (a->rules.on) {
        status = rules_counts(tb, &a->rules, &counts, message, sizeof message);
        if (status != EXIT_OK)
            return input_failure("line", a->t.json, "fen", a->t.fen, status, message);
        if (line_under_rules(tb, l, &counts, a->rules.reading) != DAMERO_OK)
            return position_failure("line", &a->t, EXIT_FAILURE_RUN);
    }
    if (damero_probe(tb, &l->positions[0], &start) != DAMERO_OK)
        return position_failure("line", &a->t, EXIT_FAILURE_RUN);
    if (!line_has_distance(tb, a->t.dir, l, &start, message, sizeof message))
        return input_failure("line", a->t.json, "fen", a->t.fen, EXIT_FAILURE_RUN, message);
    if (line_play(tb, l) != DAMERO_OK)
        return position_failure("line", &a->t, EXIT_FAILURE_RUN);
    if (a->pdn)
        return print_pdn(tb, a, &start, l);
    return a->t.json ? print_json(tb, a, l) : print_text(tb, a, &start, l);
}

int cmd_line(int argc, char **argv)
{
    struct line_args a = { .t = table_args_default(), .max_plies = DEFAULT_MAX_PLIES,
                           .rules = RULES_ARGS_DEFAULT };
    struct line l = { 0 };
    damero_tb *tb = NULL;
    damero_position start;
    int status = parse_args(argc, argv, &a);

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    status = table_open_position("line", &a.t, &tb, &start);
    if (status == EXIT_OK && line_init(&l, a.max_plies, &start) < 0) {
        fprintf(stderr, "damero line: out of memory\n");
        status = EXIT_FAILURE_RUN;
    }
    if (status == EXIT_OK)
        status = run_line(tb, &a, &l);
    damero_close(tb);
    line_free(&l);
    return status;
}
