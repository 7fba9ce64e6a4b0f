/* The public probing calls of damero.h: a position's win, draw or loss, its DTM and MTC,
 * its moves scored and the best of them, and whether its game is over; and a game's
 * first position and legal moves, which read no table. The handle they take is
 * probe/handle.c's, the values they read probe/read_value.c's. */
#include <stdlib.h>
#include <string.h>

#include "core/game_end.h"
#include "core/movegen.h"
#include "probe/internal.h"

_Static_assert(DAMERO_MAX_MOVES == MAX_MOVES, "the public bound is the move generator's");

struct scored_move {
    dtm_t dtm;        /* for the side that plays it; its WDL alone (dtm_of_wdl) when the
                         moves are not ranked by DTM */
    int mtc_plies;    /* -1 in a draw, and when the moves are not ranked by MTC */
    damero_move move;
};

/* A move's value from the position it leads to: one ply more, and a capture or man move
 * is itself the conversion. A metric the child's tables do not hold is DAMERO_NOT_BUILT
 * in the move's value (but the conversion's MTC is known without them). */
static int score_move(damero_tb *tb, const struct position *p, const struct move *m,
                      struct scored_move *out)
{
    struct position child;
    dtm_t dtm;
    mtc_t mtc;
    bool has_dtm, has_mtc;
    make_move(p, m, &child);
    int status = probe_built_value(tb, &child, &dtm, &mtc, &has_dtm, &has_mtc);
    if (status != DAMERO_OK)
        return status;
    bool converts = m->captured || (p->men[p->side] & bb_of(m->from));
    out->dtm = dtm_parent(dtm);
    out->mtc_plies = out->dtm == DTM_DRAW ? -1 : converts ? 1 : mtc_plies(mtc) + 1;
    probe_move_out(tb, m, &child, &out->move);
    out->move.value = (damero_value){
        public_wdl(dtm_wdl(out->dtm)),
        !has_dtm ? DAMERO_NOT_BUILT : out->dtm == DTM_DRAW ? -1 : dtm_plies(out->dtm),
        has_mtc || (converts && out->dtm != DTM_DRAW) ? out->mtc_plies : DAMERO_NOT_BUILT
    };
    return DAMERO_OK;
}

/* Makes the scored moves rank by what every one of them has: by DTM where all have it;
 * else by their WDL alone, then by MTC where all have it. */
static void rank_by_metrics_built(struct scored_move *scored, int count)
{
    bool all_dtm = true, all_mtc = true;
    for (int k = 0; k < count; k++) {
        all_dtm &= scored[k].move.value.dtm != DAMERO_NOT_BUILT;
        all_mtc &= scored[k].move.value.mtc != DAMERO_NOT_BUILT;
    }
    for (int k = 0; k < count && !all_dtm; k++) {
        scored[k].dtm = dtm_of_wdl(dtm_wdl(scored[k].dtm));
        if (!all_mtc)
            scored[k].mtc_plies = -1;
    }
}

/* Best first: by DTM (dtm_better), then the quicker conversion in a win and the slower in
 * a loss, then by text so that the order never depends on the move generator's. */
static int compare_moves(const void *pa, const void *pb)
{
    const struct scored_move *a = pa, *b = pb;
    if (a->dtm != b->dtm)
        return dtm_better(a->dtm, b->dtm) ? -1 : 1;
    if (a->mtc_plies != b->mtc_plies)
        return (dtm_is_win(a->dtm) ? a->mtc_plies < b->mtc_plies : a->mtc_plies > b->mtc_plies)
                   ? -1
                   : 1;
    return strcmp(a->move.text, b->move.text);
}

const char *damero_version(void)
{
    return DAMERO_VERSION;
}


const char *damero_variant_name(int k)
{
    for (int i = 0; variants[i].name; i++)
        if (i == k)
            return variants[i].name;
    return NULL;
}

int damero_probe_wdl(damero_tb *tb, const damero_position *pos, int *wdl)
{
    struct position p;
    enum wdl w;
    if (!tb || !wdl)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_probe_wdl: a NULL argument");
    int status = probe_position_in(tb, pos, &p);
    if (status == DAMERO_OK && (status = probe_wdl(tb, &p, &w)) == DAMERO_OK)
        *wdl = public_wdl(w);
    return status;
}

int damero_probe_wdl_many(damero_tb *tb, const damero_position *positions, size_t n,
                          int *wdl, int *statuses)
{
    enum wdl batch_wdl[WDL_BATCH];
    int batch_status[WDL_BATCH];
    size_t first_failed = n;
    int first_status = DAMERO_OK;
    if (!tb || (n > 0 && (!positions || !wdl)))
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_probe_wdl_many: a NULL argument");
    for (size_t start = 0; start < n; start += WDL_BATCH) {
        size_t count = n - start < WDL_BATCH ? n - start : WDL_BATCH;
        probe_wdl_batch(tb, positions + start, count, batch_wdl, batch_status);
        for (size_t k = 0; k < count; k++) {
            if (batch_status[k] == DAMERO_OK)
                wdl[start + k] = public_wdl(batch_wdl[k]);
            else if (first_failed == n) {
                first_failed = start + k;
                first_status = batch_status[k];
            }
            if (statuses)
                statuses[start + k] = batch_status[k];
        }
    }
    if (first_failed == n)
        return DAMERO_OK;
    /* later failures wrote over its message: probing it again tells it */
    int again, status = damero_probe_wdl(tb, &positions[first_failed], &again);
    return status != DAMERO_OK ? status
                               : probe_fail(first_status, "position %zu of the batch could "
                                            "not be probed", first_failed);
}

int damero_probe(damero_tb *tb, const damero_position *pos, damero_value *value)
{
    struct position p;
    dtm_t dtm;
    mtc_t mtc;
    if (!tb || !value)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_probe: a NULL argument");
    bool has_dtm, has_mtc;
    int status = probe_position_in(tb, pos, &p);
    if (status == DAMERO_OK &&
        (status = probe_built_value(tb, &p, &dtm, &mtc, &has_dtm, &has_mtc)) == DAMERO_OK)
        *value = public_built_value(dtm, mtc, has_dtm, has_mtc);
    return status;
}

int damero_root_moves(damero_tb *tb, const damero_position *pos, damero_move *moves,
                      int capacity, int *count)
{
    struct position p;
    if (!tb || !count || (capacity > 0 && !moves))
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_root_moves: a NULL argument");
    struct lookup l;
    enum game_end over;
    int status = probe_position_in(tb, pos, &p);
    if (status == DAMERO_OK)
        status = probe_lookup(tb, &p, &l, &over);
    if (status != DAMERO_OK)
        return status;
    if (over != GAME_GOES_ON) { /* over by the rule on lone pieces: no move is played */
        *count = 0;
        return DAMERO_OK;
    }
    struct move_list *list = malloc(sizeof *list);
    struct scored_move *scored = malloc(MAX_MOVES * sizeof *scored);
    if (!list || !scored) {
        status = probe_fail(DAMERO_ERR_MEMORY, "out of memory scoring moves");
        goto done;
    }
    generate_moves(tb->v, &p, 0, list);
    *count = list->count;
    for (int k = 0; k < list->count && status == DAMERO_OK; k++)
        status = score_move(tb, &p, &list->moves[k], &scored[k]);
    if (status != DAMERO_OK)
        goto done;
    if (list->count > capacity) {
        status = probe_fail(DAMERO_ERR_ARGUMENT, "the position has %d moves, room was given for %d",
                      list->count, capacity);
        goto done;
    }
    rank_by_metrics_built(scored, list->count);
    qsort(scored, (size_t)list->count, sizeof *scored, compare_moves);
    for (int k = 0; k < list->count; k++)
        moves[k] = scored[k].move;
done:
    free(list);
    free(scored);
    return status;
}

int damero_game_end(const damero_tb *tb, const damero_position *pos, int *end,
                    const char **words)
{
    struct position p;
    if (!tb || !end)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_game_end: a NULL argument");
    int status = probe_position_in(tb, pos, &p);
    if (status != DAMERO_OK)
        return status;
    if (position_pieces(&p, p.side) && !position_pieces(&p, side_other(p.side)))
        return probe_no_opponent(&p);
    bool by_rule = lone_piece_end(tb->v, &p) != GAME_GOES_ON;
    if (words)
        *words = by_rule ? lone_piece_words(tb->v) : NULL;
    if (by_rule)
        *end = DAMERO_LONE_PIECES;
    else
        *end = count_moves(tb->v, &p, 0) == 0 ? DAMERO_NO_MOVE : DAMERO_PLAYING;
    return DAMERO_OK;
}

/* Whether the moves were ranked by a distance (DTM or MTC): not where some lack DTM and
 * some MTC (rank_by_metrics_built), and then fails with the command that builds it. */
static int ranked_by_distance(damero_tb *tb, const damero_position *pos,
                              const damero_move *moves, int count)
{
    bool some_without_dtm = false, some_without_mtc = false;
    struct position p;
    char name[MATERIAL_NAME_SIZE];
    for (int k = 0; k < count; k++) {
        some_without_dtm |= moves[k].value.dtm == DAMERO_NOT_BUILT;
        some_without_mtc |= moves[k].value.mtc == DAMERO_NOT_BUILT;
    }
    if (!some_without_dtm || !some_without_mtc || probe_position_in(tb, pos, &p) != DAMERO_OK)
        return DAMERO_OK;
    struct material m = material_of(&p);
    material_name(&m, name);
    return probe_fail(DAMERO_ERR_MISSING,
                      "the best move needs DTM or MTC, and the tables of %s in %s hold only "
                      "WDL (as 'damero gen --metrics wdl' builds them): build them whole "
                      "with 'damero gen --variant %s --dir %s %s'",
                      name, tb->dir, tb->v->name, tb->root, name);
}

int damero_best_move(damero_tb *tb, const damero_position *pos, damero_move *best)
{
    damero_move *moves = malloc(DAMERO_MAX_MOVES * sizeof *moves);
    int count = 0;
    if (!best) {
        free(moves);
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_best_move: a NULL argument");
    }
    if (!moves)
        return probe_fail(DAMERO_ERR_MEMORY, "out of memory scoring moves");
    int status = damero_root_moves(tb, pos, moves, DAMERO_MAX_MOVES, &count);
    int end = DAMERO_PLAYING;
    const char *rule = NULL;
    if (status == DAMERO_OK && count == 0 && damero_game_end(tb, pos, &end, &rule) == DAMERO_OK)
        status = rule ? probe_fail(DAMERO_ERR_GAME_OVER, "the game is over: %s", rule)
                      : probe_fail(DAMERO_ERR_GAME_OVER, "the side to move has no legal move");
    if (status == DAMERO_OK)
        status = ranked_by_distance(tb, pos, moves, count);
    if (status == DAMERO_OK)
        *best = moves[0];
    free(moves);
    return status;
}

int damero_start_position(const damero_tb *tb, damero_position *pos)
{
    struct position p;
    if (!tb || !pos)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_start_position: a NULL argument");
    position_initial(tb->v, &p);
    probe_position_out(tb, &p, pos);
    return DAMERO_OK;
}

int damero_legal_moves(const damero_tb *tb, const damero_position *pos, damero_move *moves,
                       int capacity, int *count)
{
    struct position p, child;
    if (!tb || !count || (capacity > 0 && !moves))
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_legal_moves: a NULL argument");
    int status = probe_position_in(tb, pos, &p);
    if (status != DAMERO_OK)
        return status;
    *count = 0;
    if (lone_piece_end(tb->v, &p) != GAME_GOES_ON)
        return DAMERO_OK;
    struct move_list *list = malloc(sizeof *list);
    if (!list)
        return probe_fail(DAMERO_ERR_MEMORY, "out of memory generating moves");
    generate_moves(tb->v, &p, 0, list);
    *count = list->count;
    if (list->count > capacity)
        status = probe_fail(DAMERO_ERR_ARGUMENT, "the position has %d moves, room was given for %d",
                      list->count, capacity);
    for (int k = 0; k < list->count && status == DAMERO_OK; k++) {
        make_move(&p, &list->moves[k], &child);
        probe_move_out(tb, &list->moves[k], &child, &moves[k]);
        moves[k].value = (damero_value){ DAMERO_DRAW, -1, -1 };
    }
    free(list);
    return status;
}
