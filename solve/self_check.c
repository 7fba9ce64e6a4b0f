#include "solve/self_check.h"

#include <omp.h>
#include <stdio.h>

#include "core/game_end.h"
#include "core/movegen.h"
#include "core/notation.h"

struct expected {
    dtm_t dtm;
    mtc_t mtc;
};

/* What a move is worth to the mover: its DTM, and its contribution to the MTC (one ply
 * for a conversion, else one more than the MTC after it). */
static void move_value(const struct tableset *ts, const struct position *p, const struct move *m,
                       dtm_t *dtm, int *plies)
{
    struct position child;
    dtm_t child_dtm = DTM_DRAW;
    mtc_t child_mtc = MTC_NONE;
    bool conversion = m->captured != 0 || (p->men[p->side] & bb_of(m->from));

    make_move(p, m, &child);
    tableset_value(ts, &child, &child_dtm, &child_mtc);
    *dtm = dtm_parent(child_dtm);
    *plies = conversion ? 1 : 1 + mtc_plies(child_mtc);
}

static struct expected expected_value(const struct tableset *ts, const struct position *p)
{
    struct move_list list;
    struct expected e = { dtm_no_move(ts->v), mtc_of_plies(0) };
    dtm_t dtm[MAX_MOVES];
    int plies[MAX_MOVES], best_mtc = -1;
    enum game_end end = lone_piece_end(ts->v, p);

    if (end != GAME_GOES_ON)
        return (struct expected){ dtm_game_end(end), mtc_game_end(end) };
    generate_moves(ts->v, p, 0, &list);
    if (list.count == 0)
        return e;
    for (int k = 0; k < list.count; k++) {
        move_value(ts, p, &list.moves[k], &dtm[k], &plies[k]);
        if (k == 0 || dtm_better(dtm[k], e.dtm))
            e.dtm = dtm[k];
    }
    /* MTC: the winner's fastest conversion that keeps the win, the loser's slowest */
    for (int k = 0; k < list.count; k++) {
        if (dtm_is_win(e.dtm) && dtm_is_win(dtm[k]) && (best_mtc < 0 || plies[k] < best_mtc))
            best_mtc = plies[k];
        if (dtm_is_loss(e.dtm) && plies[k] > best_mtc)
            best_mtc = plies[k];
    }
    e.mtc = e.dtm == DTM_DRAW ? MTC_NONE : mtc_of_plies(best_mtc);
    return e;
}

static void describe(const struct tableset *ts, const struct position *p, dtm_t dtm, mtc_t mtc,
                     struct expected e, char *err, size_t err_size)
{
    char fen[FEN_SIZE], stored[VALUE_TEXT_SIZE], expected[VALUE_TEXT_SIZE];
    fen_print(ts->v, p, fen);
    value_text(dtm, mtc, stored);
    value_text(e.dtm, e.mtc, expected);
    snprintf(err, err_size, "%s: the table says %s; its moves give %s", fen, stored, expected);
}

uint64_t self_check_table(const struct tableset *ts, const struct material *m,
                          const struct progress_report *progress, char *err,
                          size_t err_size)
{
    const struct table *t = tableset_find(ts, m);
    uint64_t bad = 0, first_bad = UINT64_MAX;

    if (!t) {
        snprintf(err, err_size, "no table to check");
        return 1;
    }
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : bad) reduction(min : first_bad)
    for (uint64_t j = 0; j < 2 * t->ix.size; j++) {
        struct position p;
        enum side side = (enum side)(j / t->ix.size);
        uint64_t i = j % t->ix.size;
        if (progress && omp_get_thread_num() == 0 && j % 65536 == 0)
            progress->report(progress->context, (double)j / (double)(2 * t->ix.size));
        index_position(&t->ix, i, side, &p);
        struct expected e = expected_value(ts, &p);
        if (e.dtm != t->dtm[side][i] || e.mtc != t->mtc[side][i]) {
            bad++;
            if (j < first_bad)
                first_bad = j;
        }
    }
    if (bad) {
        struct position p;
        enum side side = (enum side)(first_bad / t->ix.size);
        uint64_t i = first_bad % t->ix.size;
        index_position(&t->ix, i, side, &p);
        describe(ts, &p, t->dtm[side][i], t->mtc[side][i], expected_value(ts, &p), err,
                 err_size);
    }
    return bad;
}
