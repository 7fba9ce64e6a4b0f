/* A reference move generator for the tests, written from docs/rules.md alone (Turkish
 * draughts: its section 8).
 *
 * It is meant to be obviously right rather than fast, and independent of core/movegen.c:
 * the board is a plain 2-D array indexed [file][rank] (as White sees it: file 0 = a,
 * rank 0 = 1; a1 is playable), steps are explicit (file, rank) offsets, captures are found
 * by a recursive search with explicit "captured so far" marks, and capture precedence is a
 * lexicographic comparison of whole sequences. It reads only the variant's rule row (and
 * its board's size, and whether every square is played on), and uses geometry_bit_at only
 * to read a struct position in and to turn its own squares into bit numbers for
 * comparison. Nothing from movegen.c is called.
 *
 * The rules it implements (docs/rules.md, the common rules and each variant's):
 *  - capture is compulsory; a capture is one move however many pieces it takes;
 *  - the lines are the diagonals, or, on a board where every square is played on (Turkish
 *    draughts), the ranks and files;
 *  - jumped pieces stay on the board until the move ends: they block, and cannot be jumped
 *    twice; or, where remove_captured_at_once, each leaves the board as it is jumped; the
 *    capturing piece's own starting square counts as empty;
 *  - where no_capture_reversal, a jump may not go straight back the way the last one came;
 *  - men step one square forward (White up, Black down), and on the straight board
 *    sideways too; they capture in those directions, and backward too where
 *    men_capture_backward; a man may not jump a king where !men_capture_kings;
 *  - kings step one square or, where flying_kings, any distance along an empty line;
 *    a flying king jumps the first piece on a line and lands on any empty square
 *    beyond it up to the next piece, but when some of those squares let the capture go
 *    on, only on those;
 *  - a man that reaches the last rank during a capture: where promote_mid_capture it is
 *    crowned at once and goes on capturing as a king; otherwise it goes on as a man and is
 *    crowned only if the move ends there;
 *  - among captures, the precedence criteria of the row, in order: most pieces; with a
 *    king rather than a man; most kings taken; the one that meets a king earliest. */
#ifndef DAMERO_REFERENCE_MOVEGEN_H
#define DAMERO_REFERENCE_MOVEGEN_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/position.h"
#include "core/variant.h"

enum ref_piece { REF_EMPTY, REF_WHITE_MAN, REF_WHITE_KING, REF_BLACK_MAN, REF_BLACK_KING };

#define REF_MAX_SIZE 10    /* files (= ranks) of the largest board */
#define REF_MAX_JUMPS 24   /* a side never has more pieces than this to lose */
#define REF_MAX_MOVES 8192 /* candidate sequences of one position, before precedence */

struct ref_board {
    int size;                                  /* 8 or 10 */
    bool straight;                             /* every square played, lines straight */
    int square[REF_MAX_SIZE][REF_MAX_SIZE];    /* [file][rank], an enum ref_piece */
    enum side to_move;
};

struct ref_square {
    int file, rank;
};

/* One move. For a capture, jumped[] lists the pieces taken in the order they are jumped,
 * and landed[] where the piece came down after each (see ref_options: two captures that
 * differ only there are one move unless keep_touchdowns is set). */
struct ref_move {
    struct ref_square from, to;
    int num_jumps;
    struct ref_square jumped[REF_MAX_JUMPS];
    struct ref_square landed[REF_MAX_JUMPS];
    bool jumped_king[REF_MAX_JUMPS]; /* whether each piece taken was a king */
    bool by_king;                    /* the moving piece was a king when the move began */
    bool promotes;                   /* a man that ends the move as a king */
};

struct ref_move_list {
    int count;
    bool overflow; /* more than REF_MAX_MOVES candidates: the list is incomplete */
    struct ref_move moves[REF_MAX_MOVES];
};

/* What the rules did on the positions seen so far, for reporting how much of them the
 * tests reached; never read by the generator itself. */
static struct ref_stats {
    long landings_refused;   /* flying-king landings dropped by the must-continue rule */
    long crowned_mid_capture; /* men crowned during a capture that went on as kings */
    long passed_last_rank;   /* men that left the last rank during a capture, still men */
    long captures_refused;   /* complete captures dropped by the precedence criteria */
} ref_stats;

/* How the generator counts: with keep_touchdowns, captures that take the same pieces in
 * the same order to the same square but touch down on different squares in between are
 * moves apart (the convention of another Turkish draughts program's perft figures). */
static struct ref_options {
    bool keep_touchdowns;
} ref_options;

/* The four directions as (file, rank) steps: the diagonals, or the ranks and files. */
static const int ref_diagonal[4][2] = { { -1, +1 }, { +1, +1 }, { -1, -1 }, { +1, -1 } };
static const int ref_straight[4][2] = { { 0, +1 }, { 0, -1 }, { -1, 0 }, { +1, 0 } };

static inline int ref_dfile(const struct ref_board *b, int d)
{
    return b->straight ? ref_straight[d][0] : ref_diagonal[d][0];
}

static inline int ref_drank(const struct ref_board *b, int d)
{
    return b->straight ? ref_straight[d][1] : ref_diagonal[d][1];
}

static inline bool ref_on_board(const struct ref_board *b, int file, int rank)
{
    return file >= 0 && file < b->size && rank >= 0 && rank < b->size;
}

static inline int ref_owner(int piece) /* WHITE, BLACK, or -1 for an empty square */
{
    if (piece == REF_WHITE_MAN || piece == REF_WHITE_KING)
        return WHITE;
    if (piece == REF_BLACK_MAN || piece == REF_BLACK_KING)
        return BLACK;
    return -1;
}

static inline bool ref_is_king(int piece)
{
    return piece == REF_WHITE_KING || piece == REF_BLACK_KING;
}

static inline int ref_forward(enum side s) /* the rank step of a man's forward move */
{
    return s == WHITE ? +1 : -1;
}

static inline int ref_last_rank(const struct ref_board *b, enum side s) /* crowning rank */
{
    return s == WHITE ? b->size - 1 : 0;
}

/* Whether a man of side s steps in direction (df, dr): forward, and on the straight board
 * sideways too. */
static inline bool ref_man_steps(const struct ref_board *b, enum side s, int df, int dr)
{
    (void)df;
    return dr == ref_forward(s) || (b->straight && dr == 0);
}

/* ---- boards in and out ------------------------------------------------------------- */

static inline void ref_board_from_position(const struct variant *v, const struct position *p,
                                           struct ref_board *b)
{
    const struct geometry *g = v->board();

    memset(b, 0, sizeof *b);
    b->size = g->files;
    b->straight = g->num_squares == g->files * g->ranks;
    b->to_move = p->side;
    for (int f = 0; f < b->size; f++) {
        for (int r = 0; r < b->size; r++) {
            int bit = geometry_bit_at(g, f, r);
            if (bit < 0)
                continue;
            bb_t m = (bb_t)1 << bit;
            if (p->men[WHITE] & m)
                b->square[f][r] = REF_WHITE_MAN;
            else if (p->kings[WHITE] & m)
                b->square[f][r] = REF_WHITE_KING;
            else if (p->men[BLACK] & m)
                b->square[f][r] = REF_BLACK_MAN;
            else if (p->kings[BLACK] & m)
                b->square[f][r] = REF_BLACK_KING;
        }
    }
}

/* The bit number core uses for a square, for comparing results only. */
static inline int ref_bit(const struct variant *v, struct ref_square s)
{
    return geometry_bit_at(v->board(), s.file, s.rank);
}

/* The board after m (one of the moves generated for b). */
static inline void ref_make_move(const struct ref_board *b, const struct ref_move *m,
                                 struct ref_board *out)
{
    int piece = b->square[m->from.file][m->from.rank];

    *out = *b;
    out->square[m->from.file][m->from.rank] = REF_EMPTY;
    for (int i = 0; i < m->num_jumps; i++)
        out->square[m->jumped[i].file][m->jumped[i].rank] = REF_EMPTY;
    if (m->promotes)
        piece = b->to_move == WHITE ? REF_WHITE_KING : REF_BLACK_KING;
    out->square[m->to.file][m->to.rank] = piece;
    out->to_move = b->to_move == WHITE ? BLACK : WHITE;
}

/* ---- captures ---------------------------------------------------------------------- */

struct ref_search {
    const struct variant *v;
    struct ref_board *b;   /* the moving piece's start square is emptied during its search,
                              and so are the pieces jumped where they leave at once */
    enum side side;
    struct ref_square from;
    bool started_as_king;
    bool captured[REF_MAX_SIZE][REF_MAX_SIZE]; /* jumped so far (on the board, or not) */
    int num_jumps;
    struct ref_square jumped[REF_MAX_JUMPS], landed[REF_MAX_JUMPS];
    bool jumped_king[REF_MAX_JUMPS];
    int last_df, last_dr;  /* the last jump's step; (0, 0) before the first */
    struct ref_move_list *out;
};

struct ref_jump {
    struct ref_square over, land;
};

/* Every single jump the capturing piece standing on (f, r) can make next, as a king or a
 * man; returns how many were written to jumps[] (room for 4 * REF_MAX_SIZE). */
static inline int ref_next_jumps(const struct ref_search *s, int f, int r, bool as_king,
                                 struct ref_jump jumps[])
{
    const struct ref_board *b = s->b;
    bool flying = as_king && s->v->flying_kings;
    int n = 0;

    for (int d = 0; d < 4; d++) {
        int df = ref_dfile(b, d), dr = ref_drank(b, d);

        if (!as_king && !s->v->men_capture_backward && !ref_man_steps(b, s->side, df, dr))
            continue; /* a man's backward jump where men capture only forward */
        if (s->v->no_capture_reversal && s->num_jumps > 0 && df == -s->last_df &&
            dr == -s->last_dr)
            continue; /* straight back the way the last jump came */

        /* The piece to jump: the next square for a man or a short king, the first
         * occupied square along the diagonal for a flying king. */
        int of = f + df, orank = r + dr;
        if (flying)
            while (ref_on_board(b, of, orank) && b->square[of][orank] == REF_EMPTY) {
                of += df;
                orank += dr;
            }
        if (!ref_on_board(b, of, orank))
            continue;
        int victim = b->square[of][orank];
        if (victim == REF_EMPTY || ref_owner(victim) == (int)s->side)
            continue;
        if (s->captured[of][orank])
            continue; /* already jumped: it blocks, and cannot be taken twice */
        if (!as_king && !s->v->men_capture_kings && ref_is_king(victim))
            continue;

        /* Landing squares: the empty ones right beyond it (only the first for a man or a
         * short king). */
        int lf = of + df, lr = orank + dr;
        while (ref_on_board(b, lf, lr) && b->square[lf][lr] == REF_EMPTY) {
            jumps[n].over = (struct ref_square){ of, orank };
            jumps[n].land = (struct ref_square){ lf, lr };
            n++;
            if (!flying)
                break;
            lf += df;
            lr += dr;
        }
    }
    return n;
}

/* Adds a finished capture to the list, unless the same sequence is already there (the
 * same pieces in the same order to the same square: flying kings can reach it through
 * different touch-down squares). */
static inline void ref_record(struct ref_search *s, struct ref_square to, bool crowned)
{
    struct ref_move m;

    memset(&m, 0, sizeof m);
    m.from = s->from;
    m.to = to;
    m.num_jumps = s->num_jumps;
    m.by_king = s->started_as_king;
    m.promotes = !s->started_as_king &&
                 (crowned || to.rank == ref_last_rank(s->b, s->side));
    for (int i = 0; i < s->num_jumps; i++) {
        m.jumped[i] = s->jumped[i];
        m.landed[i] = s->landed[i];
        m.jumped_king[i] = s->jumped_king[i];
    }
    for (int i = 0; i < s->out->count; i++) {
        const struct ref_move *o = &s->out->moves[i];
        bool same = o->from.file == m.from.file && o->from.rank == m.from.rank &&
                    o->to.file == m.to.file && o->to.rank == m.to.rank &&
                    o->num_jumps == m.num_jumps && o->promotes == m.promotes;
        for (int j = 0; same && j < m.num_jumps; j++)
            same = o->jumped[j].file == m.jumped[j].file &&
                   o->jumped[j].rank == m.jumped[j].rank &&
                   (!ref_options.keep_touchdowns || (o->landed[j].file == m.landed[j].file &&
                                                     o->landed[j].rank == m.landed[j].rank));
        if (same)
            return;
    }
    if (s->out->count == REF_MAX_MOVES) {
        s->out->overflow = true;
        return;
    }
    s->out->moves[s->out->count++] = m;
}

/* Takes the piece of jump j: marks it captured, lifts it off the board where captured
 * pieces leave at once, and records the jump; returns the piece, for ref_unjump. */
static inline int ref_jump(struct ref_search *s, const struct ref_jump *j)
{
    int victim = s->b->square[j->over.file][j->over.rank];

    s->captured[j->over.file][j->over.rank] = true;
    if (s->v->remove_captured_at_once)
        s->b->square[j->over.file][j->over.rank] = REF_EMPTY;
    s->jumped[s->num_jumps] = j->over;
    s->landed[s->num_jumps] = j->land;
    s->jumped_king[s->num_jumps] = ref_is_king(victim);
    s->num_jumps++;
    return victim;
}

static inline void ref_unjump(struct ref_search *s, const struct ref_jump *j, int victim)
{
    s->num_jumps--;
    s->b->square[j->over.file][j->over.rank] = victim;
    s->captured[j->over.file][j->over.rank] = false;
}

/* The direction of jump j, as a step: the signs of its file and rank differences. */
static inline void ref_jump_step(const struct ref_jump *j, int *df, int *dr)
{
    *df = (j->land.file > j->over.file) - (j->land.file < j->over.file);
    *dr = (j->land.rank > j->over.rank) - (j->land.rank < j->over.rank);
}

/* Goes on capturing from (f, r), where the piece stands after s->num_jumps jumps; records
 * the capture when no jump is left. `crowned`: a man that became a king on the way. */
static inline void ref_capture_from(struct ref_search *s, int f, int r, bool as_king,
                                    bool crowned)
{
    struct ref_jump jumps[4 * REF_MAX_SIZE], further[4 * REF_MAX_SIZE];
    bool continues[4 * REF_MAX_SIZE], king_after[4 * REF_MAX_SIZE];
    int n = ref_next_jumps(s, f, r, as_king, jumps);
    int last_df = s->last_df, last_dr = s->last_dr;

    if (n == 0) {
        if (s->num_jumps > 0)
            ref_record(s, (struct ref_square){ f, r }, crowned);
        return;
    }
    if (s->num_jumps == REF_MAX_JUMPS) {
        s->out->overflow = true;
        return;
    }

    /* What the piece is after each jump, and whether it can jump again from there. */
    for (int i = 0; i < n; i++) {
        struct ref_jump *j = &jumps[i];
        king_after[i] = as_king || (s->v->promote_mid_capture &&
                                    j->land.rank == ref_last_rank(s->b, s->side));
        int victim = ref_jump(s, j);
        ref_jump_step(j, &s->last_df, &s->last_dr);
        continues[i] = ref_next_jumps(s, j->land.file, j->land.rank, king_after[i], further) > 0;
        ref_unjump(s, j, victim);
        s->last_df = last_df;
        s->last_dr = last_dr;
    }

    for (int i = 0; i < n; i++) {
        struct ref_jump *j = &jumps[i];

        /* Must continue: if another landing beyond the same piece lets the capture go on,
         * a landing that does not is not allowed. */
        bool another_continues = false;
        for (int k = 0; k < n; k++)
            if (jumps[k].over.file == j->over.file && jumps[k].over.rank == j->over.rank &&
                continues[k])
                another_continues = true;
        if (another_continues && !continues[i]) {
            ref_stats.landings_refused++;
            continue;
        }
        if (king_after[i] && !as_king && continues[i])
            ref_stats.crowned_mid_capture++;
        if (!as_king && r == ref_last_rank(s->b, s->side))
            ref_stats.passed_last_rank++;

        int victim = ref_jump(s, j);
        ref_jump_step(j, &s->last_df, &s->last_dr);
        ref_capture_from(s, j->land.file, j->land.rank, king_after[i],
                         crowned || (king_after[i] && !as_king));
        ref_unjump(s, j, victim);
        s->last_df = last_df;
        s->last_dr = last_dr;
    }
}

/* How the variant's precedence criteria rank two captures: > 0 when a is preferred,
 * < 0 when b is, 0 when neither. */
static inline int ref_compare_captures(const struct variant *v, const struct ref_move *a,
                                       const struct ref_move *b)
{
    if (v->precedence & PRECEDENCE_MOST_PIECES) {
        if (a->num_jumps != b->num_jumps)
            return a->num_jumps > b->num_jumps ? 1 : -1;
    }
    if (v->precedence & PRECEDENCE_WITH_KING) {
        if (a->by_king != b->by_king)
            return a->by_king ? 1 : -1;
    }
    if (v->precedence & PRECEDENCE_MOST_KINGS) {
        int ka = 0, kb = 0;
        for (int i = 0; i < a->num_jumps; i++)
            ka += a->jumped_king[i];
        for (int i = 0; i < b->num_jumps; i++)
            kb += b->jumped_king[i];
        if (ka != kb)
            return ka > kb ? 1 : -1;
    }
    if (v->precedence & PRECEDENCE_KING_FIRST) {
        /* The positions (0, 1, ...) of the kings in each jump order, compared
         * lexicographically: the first difference decides, an earlier king wins; a
         * sequence whose king positions run on after the other's end met one more. */
        int pa[REF_MAX_JUMPS], pb[REF_MAX_JUMPS], na = 0, nb = 0;
        for (int i = 0; i < a->num_jumps; i++)
            if (a->jumped_king[i])
                pa[na++] = i;
        for (int i = 0; i < b->num_jumps; i++)
            if (b->jumped_king[i])
                pb[nb++] = i;
        for (int i = 0; i < na && i < nb; i++)
            if (pa[i] != pb[i])
                return pa[i] < pb[i] ? 1 : -1;
        if (na != nb)
            return na > nb ? 1 : -1;
    }
    return 0;
}

/* ---- all moves --------------------------------------------------------------------- */

static inline void ref_add_quiet(struct ref_move_list *list, int ff, int fr, int tf, int tr,
                                 bool by_king, bool promotes)
{
    struct ref_move *m;

    if (list->count == REF_MAX_MOVES) {
        list->overflow = true;
        return;
    }
    m = &list->moves[list->count++];
    memset(m, 0, sizeof *m);
    m->from = (struct ref_square){ ff, fr };
    m->to = (struct ref_square){ tf, tr };
    m->by_king = by_king;
    m->promotes = promotes;
}

/* Every legal move of the side to move on b. Captures that take the same pieces in a
 * different order are listed apart (see ref_unique_moves). */
static inline void ref_generate_moves(const struct variant *v, const struct ref_board *board,
                                      struct ref_move_list *list)
{
    struct ref_board work = *board;
    enum side s = board->to_move;
    static struct ref_search search; /* large; tests run on one thread */

    list->count = 0;
    list->overflow = false;

    /* Captures, from every piece of the side to move. */
    for (int f = 0; f < work.size; f++) {
        for (int r = 0; r < work.size; r++) {
            int piece = work.square[f][r];
            if (ref_owner(piece) != (int)s)
                continue;
            memset(&search, 0, sizeof search);
            search.v = v;
            search.b = &work;
            search.side = s;
            search.from = (struct ref_square){ f, r };
            search.started_as_king = ref_is_king(piece);
            search.out = list;
            work.square[f][r] = REF_EMPTY; /* the start square counts as empty */
            ref_capture_from(&search, f, r, search.started_as_king, false);
            work.square[f][r] = piece;
        }
    }

    if (list->count > 0) {
        /* Keep only the captures no other capture is preferred to. */
        int best = 0, kept = 0;
        for (int i = 1; i < list->count; i++)
            if (ref_compare_captures(v, &list->moves[i], &list->moves[best]) > 0)
                best = i;
        struct ref_move top = list->moves[best];
        for (int i = 0; i < list->count; i++)
            if (ref_compare_captures(v, &list->moves[i], &top) == 0)
                list->moves[kept++] = list->moves[i];
        ref_stats.captures_refused += list->count - kept;
        list->count = kept;
        return;
    }

    /* No capture: quiet moves. */
    for (int f = 0; f < work.size; f++) {
        for (int r = 0; r < work.size; r++) {
            int piece = work.square[f][r];
            if (ref_owner(piece) != (int)s)
                continue;
            for (int d = 0; d < 4; d++) {
                int df = ref_dfile(&work, d), dr = ref_drank(&work, d);
                if (!ref_is_king(piece)) {
                    int tf = f + df, tr = r + dr;
                    if (ref_man_steps(&work, s, df, dr) && ref_on_board(&work, tf, tr) &&
                        work.square[tf][tr] == REF_EMPTY)
                        ref_add_quiet(list, f, r, tf, tr, false,
                                      tr == ref_last_rank(&work, s));
                    continue;
                }
                for (int k = 1;; k++) {
                    int tf = f + k * df, tr = r + k * dr;
                    if (!ref_on_board(&work, tf, tr) || work.square[tf][tr] != REF_EMPTY)
                        break;
                    ref_add_quiet(list, f, r, tf, tr, true, false);
                    if (!v->flying_kings)
                        break;
                }
            }
        }
    }
}

/* Whether two moves are the same: same start, end, promotion and pieces taken, and with
 * keep_order also taken in the same order. */
static inline bool ref_same_move(const struct ref_move *a, const struct ref_move *b,
                                 bool keep_order)
{
    if (a->from.file != b->from.file || a->from.rank != b->from.rank ||
        a->to.file != b->to.file || a->to.rank != b->to.rank ||
        a->promotes != b->promotes || a->num_jumps != b->num_jumps)
        return false;
    for (int i = 0; i < a->num_jumps; i++) {
        bool found = false;
        if (keep_order)
            found = a->jumped[i].file == b->jumped[i].file &&
                    a->jumped[i].rank == b->jumped[i].rank;
        else
            for (int j = 0; j < b->num_jumps; j++)
                found |= a->jumped[i].file == b->jumped[j].file &&
                         a->jumped[i].rank == b->jumped[j].rank;
        if (!found)
            return false;
    }
    return true;
}

/* Drops moves that repeat an earlier one, as ref_same_move sees them. */
static inline void ref_unique_moves(struct ref_move_list *list, bool keep_order)
{
    int kept = 0;

    for (int i = 0; i < list->count; i++) {
        bool seen = false;
        for (int j = 0; j < kept && !seen; j++)
            seen = ref_same_move(&list->moves[j], &list->moves[i], keep_order);
        if (!seen)
            list->moves[kept++] = list->moves[i];
    }
    list->count = kept;
}

/* Writes m with the reference's own coordinates, e.g. "c3-d4" or "b6x(c7,e7)f6+K". */
static inline void ref_move_print(const struct ref_move *m, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%c%d", 'a' + m->from.file, m->from.rank + 1);

    if (m->num_jumps == 0) {
        n += snprintf(buf + n, size - (size_t)n, "-");
    } else {
        for (int i = 0; i < m->num_jumps && (size_t)n < size; i++)
            n += snprintf(buf + n, size - (size_t)n, "%c%c%d%s", i ? ',' : 'x',
                          'a' + m->jumped[i].file, m->jumped[i].rank + 1,
                          m->jumped_king[i] ? "K" : "");
        if ((size_t)n < size)
            n += snprintf(buf + n, size - (size_t)n, "/");
    }
    if ((size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "%c%d%s", 'a' + m->to.file, m->to.rank + 1,
                      m->promotes ? "+K" : "");
}

#endif
