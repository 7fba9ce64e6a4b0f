/* A brute-force endgame solver, independent of gen/: the yardstick the generator's tables
 * are checked against, position by position.
 *
 * It shares nothing with the generator but the move generator of core/ (generate_moves,
 * make_move). No index, no symmetry, no un-moves: it lists every position of the
 * requested materials, follows every legal move to build the explicit graph of all
 * positions they can reach (smaller materials and finished games included), and solves
 * that graph by value iteration, one ply at a time outward from the finished games;
 * bf_check then tests every node's value against the recurrences below. It is meant to be
 * simple and obviously right rather than fast.
 *
 * Values are for the side to move (see ../probe/value.h for the definitions; this file
 * keeps its own plain representation so that it does not borrow the encoding either):
 * - A side with no legal move has lost, or won in a giveaway variant: DTM 0, MTC 0.
 * - The variant's rule on lone pieces, read here from the row itself (bf_rule_result),
 *   ends the game before any move: one piece each is a draw (Turkish draughts); a lone
 *   man against a lone king has lost (the other reading). A decided end has DTM 0,
 *   MTC 0; a drawn one neither.
 * - DTM: plies to the end of the game, the winner taking the shortest way, the loser the
 *   longest. A position nobody can force to an end is a draw.
 * - MTC: a conversion is a capture or a man move (a promotion is a man move). For a won
 *   position the fewest plies the winner needs until a conversion after which the
 *   position is still won; for a lost one the most plies the loser can delay that:
 *     winner: min over moves to a position lost for the opponent of
 *             (conversion ? 1 : 1 + MTC(child))
 *     loser:  max over all moves of (conversion ? 1 : 1 + MTC(child))
 *   Draws have none. */
#ifndef DAMERO_BRUTE_SOLVER_H
#define DAMERO_BRUTE_SOLVER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"

enum bf_result { BF_DRAW, BF_WIN, BF_LOSS };

#define BF_UNKNOWN (-1)                 /* dtm or mtc not (yet) resolved */
#define BF_CONVERSION ((uint32_t)1 << 31) /* edge flag: the move is a capture or a man move */
#define BF_NONE UINT32_MAX              /* bf_find: no such node */

struct bf_solver {
    const struct variant *v;
    uint32_t count, capacity;   /* nodes */
    struct position *pos;
    uint32_t roots;             /* nodes 0..roots-1 are the listed materials' positions */

    /* Successors in one array: node i's are edges[edge_start[i] .. edge_start[i + 1]),
     * each a node number, with BF_CONVERSION set for a capture or a man move. Nodes are
     * expanded in order, so each node's edges are contiguous. */
    uint32_t *edge_start;
    uint32_t *edges;
    size_t edge_count, edge_capacity;

    /* Open addressing (linear probing) from a position to its node number + 1. */
    uint32_t *slots;
    uint32_t slot_mask;

    /* The solution: result, DTM plies and MTC plies per node (BF_UNKNOWN for a draw). */
    uint8_t *result;
    int16_t *dtm;
    int16_t *mtc;
    int max_dtm, max_mtc;       /* over all nodes: how many sweeps the solve took */
};

static inline uint64_t bf_hash(const struct position *p)
{
    uint64_t h = p->men[WHITE] * 0x9E3779B97F4A7C15ull;
    h ^= (h >> 29) ^ p->men[BLACK] * 0xC2B2AE3D27D4EB4Full;
    h ^= (h >> 31) ^ p->kings[WHITE] * 0x165667B19E3779F9ull;
    h ^= (h >> 27) ^ p->kings[BLACK] * 0xD6E8FEB86659FD93ull;
    h ^= (uint64_t)p->side * 0x94D049BB133111EBull;
    h ^= h >> 32;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 29);
}

static inline void *bf_grow(void *array, size_t *capacity, size_t needed, size_t item)
{
    if (needed <= *capacity)
        return array;
    size_t n = *capacity ? *capacity : 1024;
    while (n < needed)
        n *= 2;
    void *bigger = realloc(array, n * item);
    if (!bigger)
        abort(); /* a test helper: running out of memory is not a case to handle */
    *capacity = n;
    return bigger;
}

static inline void bf_init(struct bf_solver *s, const struct variant *v)
{
    memset(s, 0, sizeof *s);
    s->v = v;
    s->slot_mask = (1u << 16) - 1;
    s->slots = calloc((size_t)s->slot_mask + 1, sizeof *s->slots);
    if (!s->slots)
        abort();
}

static inline void bf_free(struct bf_solver *s)
{
    free(s->pos);
    free(s->edge_start);
    free(s->edges);
    free(s->slots);
    free(s->result);
    free(s->dtm);
    free(s->mtc);
    memset(s, 0, sizeof *s);
}

/* The node of p, or BF_NONE. */
static inline uint32_t bf_find(const struct bf_solver *s, const struct position *p)
{
    for (uint64_t h = bf_hash(p);; h++) {
        uint32_t slot = s->slots[h & s->slot_mask];
        if (slot == 0)
            return BF_NONE;
        if (position_equal(&s->pos[slot - 1], p))
            return slot - 1;
    }
}

/* The node of p, added (unexpanded) when it is new. */
static inline uint32_t bf_intern(struct bf_solver *s, const struct position *p)
{
    uint32_t found = bf_find(s, p);
    if (found != BF_NONE)
        return found;
    /* Keep the table at most half full: double it and re-insert every node. */
    if (2 * ((size_t)s->count + 1) > (size_t)s->slot_mask + 1) {
        uint32_t mask = 2 * s->slot_mask + 1;
        free(s->slots);
        s->slots = calloc((size_t)mask + 1, sizeof *s->slots);
        if (!s->slots)
            abort();
        s->slot_mask = mask;
        for (uint32_t i = 0; i < s->count; i++) {
            uint64_t h = bf_hash(&s->pos[i]);
            while (s->slots[h & mask])
                h++;
            s->slots[h & mask] = i + 1;
        }
    }
    size_t cap = s->capacity;
    s->pos = bf_grow(s->pos, &cap, (size_t)s->count + 1, sizeof *s->pos);
    s->capacity = (uint32_t)cap;
    s->pos[s->count] = *p;
    uint64_t h = bf_hash(p);
    while (s->slots[h & s->slot_mask])
        h++;
    s->slots[h & s->slot_mask] = s->count + 1;
    return s->count++;
}

/* The result the variant's rule on lone pieces gives p for its side to move, or -1 when
 * the rule does not end the game there. Written from the rule's words, not from
 * core/game_end.c. */
static inline int bf_rule_result(const struct variant *v, const struct position *p)
{
    enum side s = p->side, o = side_other(s);
    int mine = bb_count(p->men[s] | p->kings[s]), theirs = bb_count(p->men[o] | p->kings[o]);

    if (mine != 1 || theirs != 1)
        return -1;
    if (v->lone_pieces == LONE_PIECES_DRAW)
        return BF_DRAW;
    if (v->lone_pieces == LONE_MAN_LOSES_TO_KING && p->men[s] && p->kings[o])
        return BF_LOSS;
    if (v->lone_pieces == LONE_MAN_LOSES_TO_KING && p->kings[s] && p->men[o])
        return BF_WIN;
    return -1;
}

/* Whether a man of side `side` can stand on rank r: not on its promotion rank, and not
 * behind the ranks it starts on (men never move back). */
static inline bool bf_man_rank(const struct variant *v, enum side side, int r)
{
    int ranks = v->board()->ranks, own = side == WHITE ? r : ranks - 1 - r;
    return own >= v->men_first_rank && own < ranks - 1;
}

/* Places the pieces of `group` and of the groups after it (white kings, white men, black
 * kings, black men), each group's pieces on increasing squares so that every set of
 * squares is placed once. */
static inline void bf_place(struct bf_solver *s, struct position *p, const int count[4],
                            int group, int placed, int from_square)
{
    const struct geometry *g = s->v->board();

    if (group == 4) {
        for (int side = WHITE; side <= BLACK; side++) {
            p->side = (enum side)side;
            bf_intern(s, p);
        }
        return;
    }
    if (placed == count[group]) {
        bf_place(s, p, count, group + 1, 0, 0);
        return;
    }
    enum side side = group < 2 ? WHITE : BLACK;
    bool king = group % 2 == 0;
    bb_t allowed = g->board & ~position_occupied(p);
    for (int i = from_square; i < g->num_squares; i++) {
        bb_t bit = bb_of(g->square_bit[i]);
        if (!(allowed & bit) || (!king && !bf_man_rank(s->v, side, g->rank_of[g->square_bit[i]])))
            continue;
        bb_t *set = king ? &p->kings[side] : &p->men[side];
        *set |= bit;
        bf_place(s, p, count, group, placed + 1, i + 1);
        *set &= ~bit;
    }
}

/* Adds every position of the material (White's kings and men, Black's kings and men),
 * both sides to move, as roots. Call before bf_solve, once per material. */
static inline void bf_add_material(struct bf_solver *s, int white_kings, int white_men,
                                   int black_kings, int black_men)
{
    const int count[4] = { white_kings, white_men, black_kings, black_men };
    struct position p = { 0 };

    bf_place(s, &p, count, 0, 0, 0);
    s->roots = s->count;
}

/* Adds every position reachable from the roots and records the moves between them. */
static inline void bf_expand(struct bf_solver *s)
{
    struct move_list *list = malloc(sizeof *list);
    size_t starts = 0;

    if (!list)
        abort();
    for (uint32_t i = 0; i < s->count; i++) { /* s->count grows as successors are found */
        struct position p = s->pos[i];        /* copied: bf_intern may move s->pos */

        s->edge_start = bf_grow(s->edge_start, &starts, (size_t)i + 2, sizeof *s->edge_start);
        s->edge_start[i] = (uint32_t)s->edge_count;
        if (bf_rule_result(s->v, &p) >= 0) {
            list->count = 0; /* the game is over: no move is played */
        } else {
            generate_moves(s->v, &p, 0, list);
            if (list->overflow)
                abort();
        }
        for (int k = 0; k < list->count; k++) {
            const struct move *m = &list->moves[k];
            struct position next;
            make_move(&p, m, &next);
            uint32_t child = bf_intern(s, &next);
            bool conversion = m->captured != 0 || (p.men[p.side] & bb_of(m->from));
            s->edges = bf_grow(s->edges, &s->edge_capacity, s->edge_count + 1, sizeof *s->edges);
            s->edges[s->edge_count++] = child | (conversion ? BF_CONVERSION : 0);
        }
        s->edge_start[i + 1] = (uint32_t)s->edge_count;
    }
    free(list);
}

#define BF_EDGES(s, i, e) \
    for (uint32_t e = (s)->edge_start[i]; e < (s)->edge_start[(i) + 1]; e++)
#define BF_CHILD(s, e) ((s)->edges[e] & ~BF_CONVERSION)
#define BF_IS_CONVERSION(s, e) (((s)->edges[e] & BF_CONVERSION) != 0)

/* The moves backwards: node j's predecessors are parents[parent_start[j] ..
 * parent_start[j + 1]), read off the successor lists (not from un-moves). */
static inline void bf_reverse(struct bf_solver *s, uint32_t **parent_start, uint32_t **parents)
{
    uint32_t *start = calloc((size_t)s->count + 1, sizeof *start);
    uint32_t *list = malloc((s->edge_count ? s->edge_count : 1) * sizeof *list);

    if (!start || !list)
        abort();
    for (size_t e = 0; e < s->edge_count; e++)
        start[BF_CHILD(s, e) + 1]++;
    for (uint32_t j = 0; j < s->count; j++)
        start[j + 1] += start[j];
    for (uint32_t i = 0; i < s->count; i++)
        BF_EDGES(s, i, e) {
            uint32_t c = BF_CHILD(s, e);
            list[start[c]++] = i; /* start[c] runs to start[c + 1], restored below */
        }
    for (uint32_t j = s->count; j > 0; j--)
        start[j] = start[j - 1];
    start[0] = 0;
    *parent_start = start;
    *parents = list;
}

/* Whether node i (unresolved) has DTM d: a win when a child was lost at d-1 (the first
 * such d is the shortest win), a loss when every child is a win of d-1 plies or fewer
 * (unresolved until now, so the longest is exactly d-1). Children resolved at d during
 * the same level fail both tests, so levels can be filled in place. */
static inline bool bf_dtm_at(struct bf_solver *s, uint32_t i, int d)
{
    bool win = false, all_won_before = true;

    BF_EDGES(s, i, e) {
        uint32_t c = BF_CHILD(s, e);
        if (s->result[c] == BF_LOSS && s->dtm[c] == d - 1) {
            win = true;
            break;
        }
        if (!(s->result[c] == BF_WIN && s->dtm[c] <= d - 1))
            all_won_before = false;
    }
    if (!win && !all_won_before)
        return false;
    s->result[i] = win ? BF_WIN : BF_LOSS;
    s->dtm[i] = (int16_t)d;
    return true;
}

/* Whether the won or lost node i (MTC unresolved) has MTC k: a winner through a
 * conversion into a lost child (k = 1) or a king move to a lost child of MTC k-1; a loser
 * when every move is a conversion (worth 1) or a king move to a child of MTC k-1 or
 * less. As above, children resolved at k fail the tests. */
static inline bool bf_mtc_at(struct bf_solver *s, uint32_t i, int k)
{
    bool done;

    if (s->result[i] == BF_WIN) {
        done = false;
        BF_EDGES(s, i, e) {
            uint32_t c = BF_CHILD(s, e);
            if (s->result[c] == BF_LOSS &&
                (BF_IS_CONVERSION(s, e) ? k == 1 : s->mtc[c] == k - 1)) {
                done = true;
                break;
            }
        }
    } else {
        done = true;
        BF_EDGES(s, i, e) {
            int16_t m = s->mtc[BF_CHILD(s, e)];
            if (!BF_IS_CONVERSION(s, e) && (m == BF_UNKNOWN || m > k - 1)) {
                done = false;
                break;
            }
        }
    }
    if (done)
        s->mtc[i] = (int16_t)k;
    return done;
}

/* Value iteration, one level (ply) at a time, from the finished games (level 0). A node
 * that gets DTM d >= 1 has a child of DTM exactly d-1 (the loss that wins it, or the
 * longest of the wins that lose it), so level d only needs to look at the predecessors of
 * level d-1: the same result as sweeping every node at every level, without rescanning
 * the draws. Likewise for MTC from level 2 on (a value k >= 2 comes from a king move to a
 * child of MTC k-1); level 1 can come from a conversion alone, so it sweeps every node.
 * An empty level ends each iteration: nothing can be resolved beyond it. */
static inline bool bf_solve_values(struct bf_solver *s)
{
    uint32_t *parent_start, *parents;
    uint32_t *level = malloc(((size_t)s->count + 1) * sizeof *level);
    uint32_t *next = malloc(((size_t)s->count + 1) * sizeof *next);
    int32_t *seen = malloc(((size_t)s->count + 1) * sizeof *seen); /* level last looked at */
    uint32_t n_level = 0, n_next;
    bool giveaway = s->v->giveaway;

    if (!level || !next || !seen)
        abort();
    bf_reverse(s, &parent_start, &parents);

    /* DTM. Level 0: no legal move, lost (won in a giveaway variant); or the rule on lone
     * pieces has decided the game. A game the rule draws stays a draw. */
    for (uint32_t i = 0; i < s->count; i++) {
        int rule = bf_rule_result(s->v, &s->pos[i]);
        bool terminal = s->edge_start[i] == s->edge_start[i + 1] && rule != BF_DRAW;
        s->result[i] = rule >= 0 ? (uint8_t)rule : terminal ? (giveaway ? BF_WIN : BF_LOSS)
                                                            : BF_DRAW;
        s->dtm[i] = terminal ? 0 : BF_UNKNOWN;
        s->mtc[i] = terminal ? 0 : BF_UNKNOWN;
        seen[i] = -1;
        if (terminal)
            level[n_level++] = i;
    }
    for (int d = 1; n_level > 0; d++) {
        n_next = 0;
        for (uint32_t k = 0; k < n_level; k++)
            for (uint32_t p = parent_start[level[k]]; p < parent_start[level[k] + 1]; p++) {
                uint32_t i = parents[p];
                if (s->dtm[i] != BF_UNKNOWN || seen[i] == d)
                    continue;
                seen[i] = d;
                if (bf_dtm_at(s, i, d))
                    next[n_next++] = i;
            }
        if (n_next)
            s->max_dtm = d;
        memcpy(level, next, n_next * sizeof *level);
        n_level = n_next;
    }

    /* MTC, for the nodes the DTM pass decided. Level 1 looks at all of them. */
    for (uint32_t i = 0; i < s->count; i++)
        seen[i] = -1;
    n_level = 0;
    for (uint32_t i = 0; i < s->count; i++)
        if (s->result[i] != BF_DRAW && s->mtc[i] == BF_UNKNOWN && bf_mtc_at(s, i, 1))
            level[n_level++] = i;
    if (n_level)
        s->max_mtc = 1;
    for (int k = 2; n_level > 0; k++) {
        n_next = 0;
        for (uint32_t j = 0; j < n_level; j++)
            for (uint32_t p = parent_start[level[j]]; p < parent_start[level[j] + 1]; p++) {
                uint32_t i = parents[p];
                if (s->result[i] == BF_DRAW || s->mtc[i] != BF_UNKNOWN || seen[i] == k)
                    continue;
                seen[i] = k;
                if (bf_mtc_at(s, i, k))
                    next[n_next++] = i;
            }
        if (n_next)
            s->max_mtc = k;
        memcpy(level, next, n_next * sizeof *level);
        n_level = n_next;
    }
    free(parent_start);
    free(parents);
    free(level);
    free(next);
    free(seen);

    /* MTC <= DTM along the winner's fastest line, so every decided node has one. */
    for (uint32_t i = 0; i < s->count; i++)
        if (s->result[i] != BF_DRAW && s->mtc[i] == BF_UNKNOWN)
            return false;
    return true;
}

/* Builds the graph from the roots and solves it. Returns false if MTC is left undefined
 * somewhere, which the definitions rule out (a bug here). */
static inline bool bf_solve(struct bf_solver *s)
{
    bf_expand(s);
    s->result = malloc(((size_t)s->count + 1) * sizeof *s->result);
    s->dtm = malloc(((size_t)s->count + 1) * sizeof *s->dtm);
    s->mtc = malloc(((size_t)s->count + 1) * sizeof *s->mtc);
    if (!s->result || !s->dtm || !s->mtc)
        abort();
    return bf_solve_values(s);
}

/* Checks the solution against the definitions, node by node, as recurrences: a win at d
 * has a child lost at d-1 and none lost earlier; a loss at d has only won children, the
 * longest at d-1; a draw has no lost child and, unless it is a finished game, a drawn
 * one; and MTC is the min (winner) or max (loser) of the move values. Returns the first
 * node that fails, or BF_NONE. A second, independent look at the iteration's output. */
static inline uint32_t bf_check(const struct bf_solver *s)
{
    for (uint32_t i = 0; i < s->count; i++) {
        int best_loss = -1, longest_win = -1, drawn = 0, lost_children = 0;
        int mtc_win = INT16_MAX, mtc_loss = -1;
        bool terminal = s->edge_start[i] == s->edge_start[i + 1];
        int rule = bf_rule_result(s->v, &s->pos[i]);

        BF_EDGES(s, i, e) {
            uint32_t c = BF_CHILD(s, e);
            int value = BF_IS_CONVERSION(s, e) ? 1 : 1 + s->mtc[c];
            if (s->result[c] == BF_LOSS) {
                lost_children++;
                if (best_loss < 0 || s->dtm[c] < best_loss)
                    best_loss = s->dtm[c];
                if (value < mtc_win)
                    mtc_win = value;
            } else if (s->result[c] == BF_WIN) {
                if (s->dtm[c] > longest_win)
                    longest_win = s->dtm[c];
                if (value > mtc_loss)
                    mtc_loss = value;
            } else {
                drawn++;
            }
        }
        if (rule == BF_DRAW) {
            if (!terminal || s->result[i] != BF_DRAW || s->dtm[i] != BF_UNKNOWN ||
                s->mtc[i] != BF_UNKNOWN)
                return i;
        } else if (terminal) {
            int end = rule >= 0 ? rule : s->v->giveaway ? BF_WIN : BF_LOSS;
            if (s->result[i] != end || s->dtm[i] != 0 || s->mtc[i] != 0)
                return i;
        } else if (s->result[i] == BF_WIN) {
            if (!lost_children || s->dtm[i] != best_loss + 1 || s->mtc[i] != mtc_win)
                return i;
        } else if (s->result[i] == BF_LOSS) {
            if (lost_children || drawn || s->dtm[i] != longest_win + 1 || s->mtc[i] != mtc_loss)
                return i;
        } else if (lost_children || !drawn || s->dtm[i] != BF_UNKNOWN ||
                   s->mtc[i] != BF_UNKNOWN) {
            return i;
        }
    }
    return BF_NONE;
}

#endif
