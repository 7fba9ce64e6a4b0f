/* damero line: the game both sides play from a position when each takes its best move. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/board.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/probing.h"
#include "cli/rules_args.h"

static const char help[] =
    "usage: damero line --variant NAME [--dir DIR] [--boards] [--json] [--max-plies N]\n"
    "                   [--rules] [--count RULE=N]... [--reading N] FEN\n"
    "\n"
    "Plays the best move of the tables from both sides, starting from the position FEN\n"
    "(in the variant's notation), and prints each ply (one side's move) with its value for\n"
    "the side that plays it, its DTM counted from before the move. A win takes the\n"
    "shortest way, a loss the longest, so a won position ends after exactly its DTM plies.\n"
    "The line stops when the game is over (the side to move has no legal move, or the\n"
    "variant's rule on lone pieces ends it), when a position repeats (a draw by\n"
    "repetition), or at the limit. Boards of the start and the\n"
    "final positions are drawn as White sees them, each playable square showing its piece\n"
    "(w, b: men; W, B: kings) or its name.\n"
    "\n" TABLE_OPTIONS_HELP
    "  --boards        draw the board after every ply too\n"
    "  --json          one JSON object: variant, fen (the start, as damero writes it),\n"
    "                  result (\"win\", \"draw\" or \"loss\" for the side to move at the\n"
    "                  start), plies, moves (a list of move texts) and end (\"no move\",\n"
    "                  \"lone pieces\", \"repetition\" or \"limit\"); no boards\n"
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
    int max_plies;
    struct rules_args rules;
};

enum line_end { END_NO_MOVE, END_LONE_PIECES, END_REPETITION, END_LIMIT, END_COUNT };

static const char *const end_words[] = { "no move", "lone pieces", "repetition", "limit",
                                         "count" };

/* The line played: positions[0] is the start, positions[i] the one after ply i, which
 * moves[i - 1] played. */
struct line {
    damero_position *positions;
    damero_move *moves;
    int plies;
    enum line_end end;
    int repeated; /* END_REPETITION: the ply after which the last position stood before */
    int run_out;  /* END_COUNT: the rule whose count ran out */
    damero_counts counts;          /* with --rules: the counts at the last position */
    damero_rules_value rules_start; /* with --rules: the start's value under the rules */
    damero_rules_move *choices;    /* with --rules: room for the moves of one position */
};

static int parse_args(int argc, char **argv, struct line_args *a)
{
    static const struct option longopts[] = {
        TABLE_LONGOPTS,
        { "boards", no_argument, NULL, 'b' },
        { "max-plies", required_argument, NULL, 'm' },
        RULES_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    int opt, status;

    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == 'b') {
            a->boards = true;
        } else if (opt == 'm') {
            if (parse_int("line", "--max-plies", optarg, 0, MOST_PLIES, &a->max_plies) < 0)
                return EXIT_USAGE;
        } else if ((status = rules_option("line", opt, &a->rules)) != 1) {
            if (status != EXIT_OK)
                return status;
        } else if ((status = table_option("line", help, opt, argv, &a->t)) != EXIT_OK) {
            return status;
        }
    }
    if (a->boards && a->t.json)
        return usage_error("line", "--boards and --json do not go together");
    return table_operands("line", argc, argv, &a->t);
}

static bool same_position(const damero_position *a, const damero_position *b)
{
    return a->men[0] == b->men[0] && a->men[1] == b->men[1] && a->kings[0] == b->kings[0] &&
           a->kings[1] == b->kings[1] && a->side_to_move == b->side_to_move;
}

/* Whether the last position stood before since ply `since`; sets l->repeated. Only
 * positions after the last capture or man move can come back, so only those are read. */
static bool repeats(struct line *l, int since)
{
    for (int i = since; i < l->plies; i++)
        if (same_position(&l->positions[i], &l->positions[l->plies])) {
            l->repeated = i;
            return true;
        }
    return false;
}

/* The best move of pos under the rules, as damero_best_move gives the tables' best (and
 * DAMERO_ERR_GAME_OVER when there is none); the counts run on to those after it. */
static int best_move_under_rules(damero_tb *tb, const struct line_args *a, struct line *l,
                                 const damero_position *pos, damero_move *best)
{
    int count;
    int status = damero_root_moves_rules(tb, pos, &l->counts, a->rules.reading, l->choices,
                                         DAMERO_MAX_MOVES, &count);
    if (status != DAMERO_OK)
        return status;
    if (count == 0)
        return DAMERO_ERR_GAME_OVER;
    *best = l->choices[0].move;
    l->counts = l->choices[0].value.counts;
    return DAMERO_OK;
}

/* Whether a count has run out at pos (with --rules) while the game goes on: a game
 * ended by the move that reached the limit stands. Sets l->run_out. */
static int count_run_out(damero_tb *tb, const struct line_args *a, struct line *l,
                         const damero_position *pos, bool *out)
{
    int end, status;
    *out = false;
    if (!a->rules.on)
        return DAMERO_OK;
    if ((status = damero_game_end(tb, pos, &end, NULL)) != DAMERO_OK || end != DAMERO_PLAYING)
        return status;
    status = damero_counts_run_out(tb, pos, &l->counts, a->rules.reading, &l->run_out);
    *out = l->run_out >= 0;
    return status;
}

/* Plays best moves from l->positions[0] (under the rules with --rules) until the game
 * ends, a count runs out, a position repeats or max_plies are played. */
static int play(damero_tb *tb, const struct line_args *a, struct line *l)
{
    int since = 0; /* the ply after the last capture or man move */
    int max_plies = a->max_plies;

    for (;;) {
        const damero_position *pos = &l->positions[l->plies];
        damero_move *m = &l->moves[l->plies];
        bool run_out;
        if (count_run_out(tb, a, l, pos, &run_out) != DAMERO_OK)
            return probe_failure("line");
        if (run_out) {
            l->end = END_COUNT;
            return EXIT_OK;
        }
        int status = a->rules.on ? best_move_under_rules(tb, a, l, pos, m)
                                 : damero_best_move(tb, pos, m), end;
        if (status == DAMERO_ERR_GAME_OVER) {
            if (damero_game_end(tb, pos, &end, NULL) != DAMERO_OK)
                return probe_failure("line");
            l->end = end == DAMERO_LONE_PIECES ? END_LONE_PIECES : END_NO_MOVE;
            return EXIT_OK;
        }
        if (status != DAMERO_OK)
            return probe_failure("line");
        if (l->plies == max_plies) {
            l->end = END_LIMIT;
            return EXIT_OK;
        }
        if (m->captures || m->after.men[0] != pos->men[0] || m->after.men[1] != pos->men[1])
            since = l->plies + 1;
        l->positions[++l->plies] = m->after;
        if (repeats(l, since)) {
            l->end = END_REPETITION;
            return EXIT_OK;
        }
    }
}

/* "win in 7 plies", "loss in 1 ply", "draw". */
static void value_text(const damero_value *value, char *text, size_t size)
{
    if (value->wdl == DAMERO_DRAW)
        snprintf(text, size, "draw");
    else
        snprintf(text, size, "%s in %d %s", wdl_word(value->wdl), value->dtm,
                 value->dtm == 1 ? "ply" : "plies");
}

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

static void print_ply(const struct line *l, int ply)
{
    const damero_move *m = &l->moves[ply - 1];
    char value[64];

    value_text(&m->value, value, sizeof value);
    printf("%5d. %-16s %s: %s\n", ply, m->text,
           side_word(l->positions[ply - 1].side_to_move), value);
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
    char value[64];
    int status;

    value_text(start, value, sizeof value);
    printf("%s, %s to move: %s", a->t.variant, side_word(l->positions[0].side_to_move),
           value);
    if (a->rules.on) {
        char words[64];
        rules_value_words(&l->rules_start, words, sizeof words);
        printf("; under the rules (reading %d): %s", a->rules.reading + 1, words);
    }
    printf("\n");
    if ((status = print_board(tb, &l->positions[0])) != EXIT_OK)
        return status;
    for (int ply = 1; ply <= l->plies; ply++) {
        print_ply(l, ply);
        if ((a->boards || ply == l->plies) &&
            (status = print_board(tb, &l->positions[ply])) != EXIT_OK)
            return status;
    }
    return print_end(tb, l);
}

static int print_json(damero_tb *tb, const struct line_args *a, const damero_value *start,
                      const struct line *l)
{
    char fen[DAMERO_FEN_SIZE];

    if (damero_write_fen(tb, &l->positions[0], fen) != DAMERO_OK)
        return probe_failure("line");
    printf("{\"variant\": \"%s\", \"fen\": \"%s\", \"result\": \"%s\", \"plies\": %d, "
           "\"moves\": [", a->t.variant, fen, wdl_word(start->wdl), l->plies);
    for (int i = 0; i < l->plies; i++)
        printf("%s\"%s\"", i ? ", " : "", l->moves[i].text);
    printf("], \"end\": \"%s\"", end_words[l->end]);
    if (a->rules.on)
        printf(", \"rules_result\": \"%s\"", wdl_word(l->rules_start.wdl));
    printf("}\n");
    return EXIT_OK;
}

/* Values the start, plays the line and prints it. */
static int run_line(damero_tb *tb, const struct line_args *a, struct line *l)
{
    damero_value start;
    int status;

    if (damero_probe(tb, &l->positions[0], &start) != DAMERO_OK)
        return probe_failure("line");
    if (a->rules.on) {
        if ((status = rules_counts("line", tb, &a->rules, &l->counts)) != EXIT_OK)
            return status;
        if (damero_probe_rules(tb, &l->positions[0], &l->counts, a->rules.reading,
                               &l->rules_start) != DAMERO_OK)
            return probe_failure("line");
    }
    if ((status = play(tb, a, l)) != EXIT_OK)
        return status;
    return a->t.json ? print_json(tb, a, &start, l) : print_text(tb, a, &start, l);
}

int cmd_line(int argc, char **argv)
{
    struct line_args a = { .t = table_args_default(), .max_plies = DEFAULT_MAX_PLIES };
    struct line l = { 0 };
    damero_tb *tb = NULL;
    int status = parse_args(argc, argv, &a);

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    /* one move more than the plies: the move found at the limit is not played */
    l.positions = malloc(((size_t)a.max_plies + 1) * sizeof *l.positions);
    l.moves = malloc(((size_t)a.max_plies + 1) * sizeof *l.moves);
    if (a.rules.on)
        l.choices = malloc(DAMERO_MAX_MOVES * sizeof *l.choices);
    if (!l.positions || !l.moves || (a.rules.on && !l.choices)) {
        fprintf(stderr, "damero line: out of memory\n");
        status = EXIT_FAILURE_RUN;
    } else if ((status = table_open_position("line", &a.t, &tb, &l.positions[0])) == EXIT_OK) {
        status = run_line(tb, &a, &l);
    }
    damero_close(tb);
    free(l.positions);
    free(l.moves);
    free(l.choices);
    return status;
}
