#include "cli/line_play.h"

#include <stdbool.h>
#include <stdlib.h>

const char *const line_end_words[] = { "no move", "lone pieces", "repetition", "limit" };

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
    l->positions = NULL;
    l->moves = NULL;
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
        int status = damero_best_move(tb, pos, m), end;
        if (status == DAMERO_ERR_GAME_OVER) {
            if ((status = damero_game_end(tb, pos, &end, NULL)) != DAMERO_OK)
                return status;
            l->end = end == DAMERO_LONE_PIECES ? END_LONE_PIECES : END_NO_MOVE;
            return DAMERO_OK;
        }
        if (status != DAMERO_OK)
            return status;
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
