#include "cli/line_play.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/probing.h"

const char *const line_end_words[] = { "no move", "lone pieces", "repetition", "limit",
                                       "count" };

int line_init(struct line *l, int max_plies, const damero_position *start)
{
    *l = (struct line){ .max_plies = max_plies };
    l->positions = malloc(((size_t)max_plies + 1) * sizeof *l->positions);
    l->moves = malloc(((size_t)max_plies + 1) * sizeof *l->moves);
    if (!l->positions || !l->moves)
        return -1;
    l->positions[0] = *start;
    return 0;
}

void line_free(struct line *l)
{
    free(l->positions);
    free(l->moves);
    free(l->choices);
    l->positions = NULL;
    l->moves = NULL;
    l->choices = NULL;
}

int line_under_rules(damero_tb *tb, struct line *l, const damero_counts *counts, int reading)
{
    l->rules = true;
    l->reading = reading;
    l->counts = *counts;
    if (!(l->choices = malloc(DAMERO_MAX_MOVES * sizeof *l->choices)))
        return DAMERO_ERR_MEMORY;
    return damero_probe_rules(tb, &l->positions[0], &l->counts, reading, &l->start);
}

bool line_has_distance(const damero_tb *tb, const char *dir, const struct line *l,
                       const damero_value *start, char *message, size_t size)
{
    char build[256];
    if (start->dtm != DAMERO_NOT_BUILT || start->mtc != DAMERO_NOT_BUILT)
        return true;
    build_command(tb, dir, &l->positions[0], build, sizeof build);
    snprintf(message, size, "a line needs DTM or MTC tables, and these hold only WDL (as "
             "'damero gen --metrics wdl' builds them): build them whole with %s", build);
    return false;
}

/* The best move of pos under the rules, as damero_best_move gives the tables' best (and
 * DAMERO_ERR_GAME_OVER when there is none); the counts run on to those after it. */
static int best_move_under_rules(damero_tb *tb, struct line *l, const damero_position *pos,
                                 damero_move *best)
{
    int count;
    int status = damero_root_moves_rules(tb, pos, &l->counts, l->reading, l->choices,
                                         DAMERO_MAX_MOVES, &count);
    if (status != DAMERO_OK)
        return status;
    if (count == 0)
        return DAMERO_ERR_GAME_OVER;
    *best = l->choices[0].move;
    l->counts = l->choices[0].value.counts;
    return DAMERO_OK;
}

/* Whether, under the rules, a count has run out at pos while the game goes on (a game
 * that the move reaching the limit ended stands). Sets l->run_out. */
static int count_run_out(damero_tb *tb, struct line *l, const damero_position *pos,
                         bool *out)
{
    int end, status;
    *out = false;
    if (!l->rules)
        return DAMERO_OK;
    if ((status = damero_game_end(tb, pos, &end, NULL)) != DAMERO_OK || end != DAMERO_PLAYING)
        return status;
    status = damero_counts_run_out(tb, pos, &l->counts, l->reading, &l->run_out);
    *out = l->run_out >= 0;
    return status;
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

int line_play(damero_tb *tb, struct line *l)
{
    int since = 0; /* the ply after the last capture or man move */

    for (;;) {
        const damero_position *pos = &l->positions[l->plies];
        damero_move *m = &l->moves[l->plies];
        bool run_out;
        int status = count_run_out(tb, l, pos, &run_out), end;
        if (status != DAMERO_OK)
            return status;
        if (run_out) {
            l->end = END_COUNT;
            return DAMERO_OK;
        }
        status = l->rules ? best_move_under_rules(tb, l, pos, m) : damero_best_move(tb, pos, m);
        if (status == DAMERO_ERR_GAME_OVER) {
            if ((status = damero_game_end(tb, pos, &end, NULL)) != DAMERO_OK)
                return status;
            l->end = end == DAMERO_LONE_PIECES ? END_LONE_PIECES : END_NO_MOVE;
            return DAMERO_OK;
        }
        if (status != DAMERO_OK)
            return status;
        l->by_mtc |= m->value.dtm == DAMERO_NOT_BUILT;
        if (l->plies == l->max_plies) {
            l->end = END_LIMIT;
            return DAMERO_OK;
        }
        if (m->captures || m->after.men[0] != pos->men[0] || m->after.men[1] != pos->men[1])
            since = l->plies + 1;
        l->positions[++l->plies] = m->after;
        if (repeats(l, since)) {
            l->end = END_REPETITION;
            return DAMERO_OK;
        }
    }
}

/* The legal move of pos written `text` (its length len) into *m. */
static int find_move(damero_tb *tb, const damero_position *pos, const char *text, size_t len,
                     damero_move *m)
{
    damero_move moves[DAMERO_MAX_MOVES];
    int count, status = damero_legal_moves(tb, pos, moves, DAMERO_MAX_MOVES, &count);
    for (int k = 0; status == DAMERO_OK && k < count; k++)
        if (strlen(moves[k].text) == len && strncmp(moves[k].text, text, len) == 0) {
            *m = moves[k];
            return DAMERO_OK;
        }
    return status == DAMERO_OK ? DAMERO_ERR_ARGUMENT : status;
}

int line_replay(damero_tb *tb, struct line *l, const char *moves)
{
    l->end = END_LIMIT;
    for (const char *at = moves + strspn(moves, " "); *at; at += strspn(at, " ")) {
        size_t len = strcspn(at, " ");
        if (l->plies == l->max_plies)
            return DAMERO_ERR_ARGUMENT;
        int status = find_move(tb, &l->positions[l->plies], at, len, &l->moves[l->plies]);
        if (status != DAMERO_OK)
            return status;
        l->positions[l->plies + 1] = l->moves[l->plies].after;
        l->plies++;
        at += len;
    }
    return DAMERO_OK;
}
