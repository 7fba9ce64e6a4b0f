#include "solve/solve.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/game_end.h"
#include "core/unmove.h"

/* A group of equally advanced men configurations, solved together: no move leads from one
 * to another, and every man move out of them reaches one solved before. */
struct level {
    const uint64_t *configs;
    uint64_t num_configs;
    uint64_t per_config; /* positions per configuration */
};

/* The count byte of a position during the analysis: the moves not yet shown to lose,
 * plus one when the position has an external move that does not lose (an escape), so
 * that it reaches zero exactly when the position is lost; and a flag for positions that
 * must capture, which no quiet move can have come from. Seven bits are enough: seven
 * flying kings of one side (MATERIAL_MAX_PIECES allows no more) have at most 7 x 17 king
 * moves on 10x10, plus the escape. */
#define COUNT_MASK 0x7f
#define MUST_CAPTURE 0x80

/* Where a capture or a promotion leads: the finished table of the child's material, and
 * whether the child is read there with its colours flipped (t NULL where no table is in
 * memory; the move that takes the opponent's last piece never gets this far). */
struct successor {
    const struct table *t;
    bool flipped;
};

/* Up to MATERIAL_MAX_PIECES kings or men of one side taken, and none. */
#define TAKEN_COUNTS (MATERIAL_MAX_PIECES + 1)

/* The values of the level being solved, and of the one a man's step leads to, are held by
 * their place in their level (level_place), not by index: memory holds one level at a
 * time, not the material. */
struct solver {
    const struct variant *v;
    const struct tableset *ts;
    struct table *t;
    struct divider per_config; /* by the positions per men configuration */
    uint64_t *place;      /* by men configuration: its place among its level's */
    dtm_t *dtm[2];        /* the level being solved, by side to move and place */
    mtc_t *mtc[2];
    uint8_t *count[2];
    dtm_t *above[2];      /* the finished DTM of the level one man step more advanced */
    /* A build without DTM with a level store keeps two bits a position instead (the
     * WDL values, four to a byte, wdl_packed_at): dtm and above are NULL then, and so is
     * mtc unless it also builds MTC, which needs only who wins (solve_level). */
    bool two_bits;
    bool with_mtc; /* MTC is wanted */
    /* Two bits with MTC in a level no man leaves sideways: the WDL pass lists each
     * position at its MTC, and so finds MTC as it settles who wins (solve_level). */
    bool mtc_by_plies;
    uint8_t *wdl[2];
    uint8_t *wdl_above[2];
    /* By the side that moves, the kings and the men it takes and whether it crowns: the
     * child's material follows from these alone, so its table is found once here, not
     * from each child's pieces (find_successors). */
    struct successor successors[2][TAKEN_COUNTS][TAKEN_COUNTS][2];
};

/* Two bits a position (wdl_packed_at), WDL_DRAW (0) standing also for a value not known
 * yet. Every position is written by setting bits, so threads sharing a byte do not undo
 * each other's writes: sets position j from not known to w; true for the one thread that
 * did it first. */
static bool wdl_settle(uint8_t *packed, uint64_t j, enum wdl w)
{
    unsigned shift = 2 * (j % 4);
    uint8_t before = __atomic_fetch_or(&packed[j / 4], (uint8_t)(w << shift), __ATOMIC_RELAXED);
    return ((before >> shift) & 3) == 0;
}

/* Where index i of men configuration `config` is in the arrays of its level: the
 * configuration's place among the level's, then its king placement. */
static uint64_t place_in_config(const struct solver *s, uint64_t config, uint64_t i)
{
    return s->place[config] * s->per_config.d + (i - config * s->per_config.d);
}

/* The same, finding the configuration of index i by a division. */
static uint64_t level_place(const struct solver *s, uint64_t i)
{
    return place_in_config(s, divide(i, s->per_config), i);
}

/* PASS_WDL: the DTM pass of a two-bit build, which finds who wins and not how soon. */
enum metric_pass { PASS_DTM, PASS_MTC, PASS_WDL };

/* Work on a run of consecutive indices [first, first + count) of men configuration
 * `config`, both sides to move. */
typedef void run_step(struct solver *s, uint64_t config, uint64_t first, uint64_t count,
                      void *arg);

#define CHUNK 4096

/* Runs step over every position of the level, in runs, over all threads. The positions
 * of a configuration are consecutive, so a chunk of them finds its first one with a
 * division and walks from there. */
static void for_each_run(struct solver *s, const struct level *l, run_step *step, void *arg)
{
    uint64_t total = l->num_configs * l->per_config;
    uint64_t chunks = (total + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(dynamic, 1) if (chunks > 2)
    for (uint64_t c = 0; c < chunks; c++) {
        uint64_t k = c * CHUNK / l->per_config, offset = c * CHUNK % l->per_config;
        uint64_t left = total - c * CHUNK < CHUNK ? total - c * CHUNK : CHUNK;
        for (; left > 0; k++, offset = 0) {
            uint64_t run = l->per_config - offset < left ? l->per_config - offset : left;
            step(s, l->configs[k], l->configs[k] * l->per_config + offset, run, arg);
            left -= run;
        }
    }
}

/* The men's steps of one men configuration met so far, with the configuration each
 * leads to: what depends on the men alone, found once per run of the configuration's
 * positions instead of once per child (man_step_index). A step is told by its two
 * squares, whichever side makes it. */
#define MEN_STEPS_MAX (MATERIAL_MAX_PIECES * NUM_DIRS)
struct men_steps {
    int count;
    struct {
        uint8_t from, to;
        uint64_t config;
    } step[MEN_STEPS_MAX];
};

/* Work on one position: p holds its men and side to move, and its kings when the walk
 * places them (else index_place_kings places them when needed); i is its index and j its
 * place in the level; steps, the men's steps of its configuration met so far. */
typedef void position_step(struct solver *s, struct position *p, uint64_t i, uint64_t j,
                           struct men_steps *steps);

struct position_walk {
    position_step *step;
    bool place_kings; /* once for both sides to move: the step needs them everywhere */
};

static void step_positions(struct solver *s, uint64_t config, uint64_t first, uint64_t count,
                           void *arg)
{
    const struct position_walk *walk = arg;
    struct position men, placed, p;
    struct men_steps steps = { .count = 0 }; /* a run is of one configuration */
    index_men_position(&s->t->ix, config, WHITE, &men);
    for (uint64_t i = first; i < first + count; i++) {
        placed = men;
        if (walk->place_kings)
            index_place_kings(&s->t->ix, i, &placed);
        for (int side = WHITE; side <= BLACK; side++) {
            p = placed;
            p.side = (enum side)side;
            walk->step(s, &p, i, place_in_config(s, config, i), &steps);
        }
    }
}

/* Runs step on every position of the level, both sides to move, over all threads,
 * decoding the men once per configuration (and with place_kings, the kings once per
 * index). */
static void for_each_position(struct solver *s, const struct level *l, position_step *step,
                              bool place_kings)
{
    struct position_walk walk = { step, place_kings };
    for_each_run(s, l, step_positions, &walk);
}

/* Whether men step sideways on this board (Turkish draughts): such a step leaves the men
 * as advanced as they were, so it stays in the level, and the levels' configurations are
 * linked by moves that can be undone. */
static bool men_step_sideways(const struct geometry *g)
{
    return g->num_man_dirs > g->num_man_forward;
}

/* The moves the DTM pass iterates are those that stay in the level: the kings' quiet
 * moves (generate_moves_but_king_quiet counts them apart) and the men's sideways steps,
 * which this tells from the other moves listed. The MTC pass iterates king moves only:
 * a man's step, sideways or not, is a conversion, worth one ply. */
static bool is_sideways_step(const struct geometry *g, const struct move *m)
{
    return m->captured == 0 && g->rank_of[m->from] == g->rank_of[m->to];
}

/* The place in the level of the position `child` a man's quiet step m leads to: its men
 * configuration from `steps`, found and kept there the first time the step is met, and
 * its kings ranked. */
static uint64_t man_step_place(const struct solver *s, struct men_steps *steps,
                               const struct move *m, const struct position *child)
{
    const struct material_index *ix = &s->t->ix;
    int k = 0;
    while (k < steps->count && (steps->step[k].from != m->from || steps->step[k].to != m->to))
        k++;
    if (k == steps->count) {
        steps->step[k].from = m->from;
        steps->step[k].to = m->to;
        steps->step[k].config = index_men_config_of(ix, child);
        steps->count++;
    }
    uint64_t config = steps->step[k].config;
    return place_in_config(s, config, index_of_in_config(ix, config, child));
}

/* Fills s->successors for every number of kings and men one side can take from the
 * other and either way of crowning, from the material being solved. */
static void find_successors(struct solver *s)
{
    const struct material *m = &s->t->m;
    for (int side = WHITE; side <= BLACK; side++) {
        enum side o = side_other((enum side)side);
        for (int kings = 0; kings <= m->kings[o]; kings++)
            for (int men = 0; men <= m->men[o]; men++)
                for (int crowns = 0; crowns <= (m->men[side] > 0); crowns++) {
                    struct material child = *m;
                    child.kings[o] -= kings;
                    child.men[o] -= men;
                    child.men[side] -= crowns;
                    child.kings[side] += crowns;
                    bool flipped = !material_is_canonical(&child);
                    struct material canonical = flipped ? material_flipped(&child) : child;
                    s->successors[side][kings][men][crowns] =
                        (struct successor){ tableset_find(s->ts, &canonical), flipped };
                }
    }
}

/* How many pieces of `taken` a capture took: mostly none or one of a kind, which needs no
 * count (a portable build counts bits through a call into libgcc). */
static int taken_count(bb_t taken)
{
    return (taken & (taken - 1)) == 0 ? taken != 0 : bb_count(taken);
}

/* The value of the position a capture or a promotion leads to, as tableset_value finds
 * it, but with its table from s->successors: the end of the game when the opponent has
 * no piece left or the rule on lone pieces ends it, else the table's value. */
static dtm_t successor_dtm(const struct solver *s, const struct move *m,
                           const struct position *p, const struct position *child)
{
    enum side o = child->side;
    if (position_pieces(child, o) == 0)
        return dtm_no_move(s->v);
    enum game_end end = lone_piece_end(s->v, child);
    if (end != GAME_GOES_ON)
        return dtm_game_end(end);
    const struct successor *to =
        &s->successors[p->side][taken_count(m->captured & p->kings[o])]
                      [taken_count(m->captured & p->men[o])][m->promotes];
    if (!to->t) /* not in memory: tableset_value leaves it a draw too */
        return DTM_DRAW;
    struct position oriented = *child;
    if (to->flipped)
        position_flip_colours(s->v, child, &oriented);
    return table_dtm(to->t, oriented.side, index_of(&to->t->ix, &oriented, NULL));
}

/* The value of the position a move from p leaves the configuration for: a man's quiet
 * step stays in this material (a configuration solved before), anything else reaches a
 * finished table. */
static dtm_t child_dtm(const struct solver *s, struct men_steps *steps, const struct move *m,
                       const struct position *p, const struct position *child)
{
    if (m->captured == 0 && !m->promotes) {
        uint64_t j = man_step_place(s, steps, m, child);
        return s->two_bits ? dtm_of_wdl(wdl_packed_at(s->wdl_above[child->side], j))
                           : s->above[child->side][j];
    }
    return successor_dtm(s, m, p, child);
}

/* Stores a position's initial values at place j. Two bits keep only what is final: a
 * win, or a loss or a draw with no move left to wait for. */
static void put_initial(struct solver *s, enum side side, uint64_t j, dtm_t dtm, mtc_t mtc,
                        uint8_t count)
{
    s->count[side][j] = count;
    if (s->mtc[side])
        s->mtc[side][j] = mtc;
    if (!s->two_bits)
        s->dtm[side][j] = dtm;
    else if (dtm_is_win(dtm) || (count & COUNT_MASK) == 0)
        wdl_settle(s->wdl[side], j, dtm_wdl(dtm));
}

/* Who wins the position at place j of the level, `side` to move, once it is final: read
 * from its two bits or its DTM. All the MTC pass needs to know of it. */
static enum wdl wdl_at(const struct solver *s, enum side side, uint64_t j)
{
    return s->two_bits ? wdl_packed_at(s->wdl[side], j) : dtm_wdl(s->dtm[side][j]);
}

/* Values from the moves that leave the configuration; counts the ones that stay. MTC is
 * known already where every move leaves (one ply to the conversion) or none exists. */
static void init_position(struct solver *s, struct position *p, uint64_t i, uint64_t j,
                          struct men_steps *steps)
{
    struct position child;
    struct move_list list;
    dtm_t best = DTM_DRAW;
    bool any_external = false;
    int internal = 0;
    enum side side = p->side;

    (void)i; /* the walk placed the kings */
    enum game_end end = lone_piece_end(s->v, p);
    if (end != GAME_GOES_ON) {
        /* the game is over as it stands: final, no move to wait for */
        put_initial(s, side, j, dtm_game_end(end), mtc_game_end(end), 0);
        return;
    }
    /* the kings' quiet moves stay here: counted without listing them (they are most of
     * the moves where there are kings) */
    internal = generate_moves_but_king_quiet(s->v, p, 0, &list);
    int moves = internal + list.count;
    bool capture = list.count > 0 && list.moves[0].captured != 0;
    for (int k = 0; k < list.count; k++) {
        if (is_sideways_step(s->t->ix.g, &list.moves[k])) {
            internal++;
            continue;
        }
        if (s->two_bits && dtm_is_win(best)) /* won: two bits need no shorter win */
            continue;
        make_move(p, &list.moves[k], &child);
        dtm_t value = dtm_parent(child_dtm(s, steps, &list.moves[k], p, &child));
        if (!any_external || dtm_better(value, best))
            best = value;
        any_external = true;
    }

    /* best is a win at the latest (king moves may find a shorter one), or a pending loss
     * (all external moves lose), or unknown */
    dtm_t dtm = moves == 0 ? dtm_no_move(s->v) : best;
    mtc_t mtc = MTC_NONE;
    if (moves == 0)
        mtc = mtc_of_plies(0);
    else if ((internal == 0 && best != DTM_DRAW) || dtm_is_win(best))
        mtc = mtc_of_plies(1);
    int escape = any_external && !dtm_is_loss(best);
    put_initial(s, side, j, dtm, mtc,
                (uint8_t)((internal == 0 ? 0 : internal + escape) | (capture ? MUST_CAPTURE : 0)));
}

static int compare_indices(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Keeps one in f of the copies of each index of out[0..n), where each index has a multiple
 * of f copies: sorted, every f-th entry. Returns how many are kept. */
static int keep_one_in(uint64_t *out, int n, int f)
{
    int kept = 0;
    qsort(out, (size_t)n, sizeof *out, compare_indices);
    for (int k = 0; k < n; k += f)
        out[kept++] = out[k];
    return kept;
}

/* predecessors() in a reduced (kings-only) material, where p stands for its class C and
 * a representative r must be listed once per move of r into C, M(r, C) times, while only
 * p itself is unmoved. Count the moves x -> q with x in r's class D and q in C: the
 * symmetries map moves onto moves and each class onto itself, so every q in C is reached
 * from D by as many moves as p is, N (p's unmoves whose predecessor is in D), and every x
 * in D moves into C as often as r does: |C| N = |D| M(r, C). A class has S / f members (S
 * symmetries, f of them fixing each member), so M(r, C) = N f(r) / f(p): each unmove into
 * D lists r f(r) times, and where p has a symmetry of its own (f(p) > 1, rare) one in f(p)
 * of r's copies is kept. The images of a position have its captures too, so all of D
 * shares r's MUST_CAPTURE flag. Kings only: the level's unmoves are the king unmoves. */
static int reduced_predecessors(const struct solver *s, const struct position *p, uint64_t *out)
{
    const struct material_index *ix = &s->t->ix;
    enum side mover = side_other(p->side);
    struct unmove_list list;
    struct king_images images;
    const uint8_t *count = s->count[mover];
    int n = 0, fixing_p, fixing;

    index_king_images(ix, p, &images);
    index_of_images(ix, &images, &fixing_p);
    generate_king_unmoves(s->v, p, &list);
    for (int u = 0; u < list.count; u++) {
        /* the predecessor is p with the king that moved back on `from` */
        const struct unmove *back = &list.moves[u];
        uint64_t i = index_of_moved(ix, &images, mover, back->to, back->from, &fixing);
        if (count[level_place(s, i)] & MUST_CAPTURE)
            continue;
        for (int c = 0; c < fixing; c++)
            out[n++] = i;
    }
    return fixing_p == 1 ? n : keep_one_in(out, n, fixing_p);
}

/* A position of the level: its index, and its place in the level's arrays. */
struct spot {
    uint64_t index, place;
};

/* The predecessors of p by a king move of the side not to move, in men configuration
 * `config` (a king move keeps it): numbered from p's kings with one of them on another
 * square, with no position built nor division. */
static int king_predecessors(const struct solver *s, const struct position *p, uint64_t config,
                             struct spot *out)
{
    enum side mover = side_other(p->side);
    bb_t occupied = position_occupied(p);
    uint64_t indices[MAX_MOVES];
    int found = 0, k;
    BB_FOR_EACH(k, p->kings[mover]) {
        bb_t origins = 0; /* quiet king moves go both ways: where it sees is where it came from */
        for (int d = 0; d < NUM_DIRS; d++)
            origins |= king_quiet_targets(s->v, s->t->ix.g, k, (enum direction)d, occupied);
        found += index_of_king_moves(&s->t->ix, config, p, mover, k, origins, indices + found);
    }
    for (int u = 0; u < found; u++)
        out[u] = (struct spot){ indices[u], place_in_config(s, config, indices[u]) };
    return found;
}

/* The predecessors of p by a man's sideways step (Turkish), which changes the men
 * configuration. */
static int sideways_predecessors(const struct solver *s, const struct position *p,
                                 struct spot *out)
{
    struct unmove_list list;
    struct position pred;
    generate_sideways_unmoves(s->v, p, &list);
    for (int u = 0; u < list.count; u++) {
        unmake_move(p, &list.moves[u], &pred);
        out[u].index = index_of(&s->t->ix, &pred, NULL);
        out[u].place = level_place(s, out[u].index);
    }
    return list.count;
}

/* The positions with the other side to move whose move leads to p (or, in a reduced
 * material, to any position p stands for), among the moves the pass iterates. Each such
 * move is listed once, so that a position is listed as many times as it has moves into
 * p's class. At most NUM_SYMS * MAX_MOVES. */
static int predecessors(const struct solver *s, enum metric_pass pass, const struct position *p,
                        uint64_t config, struct spot *out)
{
    const uint8_t *count = s->count[side_other(p->side)];
    int n = 0, found;

    if (s->t->ix.reduced) {
        uint64_t indices[NUM_SYMS * MAX_MOVES];
        n = reduced_predecessors(s, p, indices);
        for (int k = 0; k < n; k++)
            out[k] = (struct spot){ indices[k], level_place(s, indices[k]) };
        return n;
    }
    found = king_predecessors(s, p, config, out);
    if (pass != PASS_MTC && men_step_sideways(s->t->ix.g))
        found += sideways_predecessors(s, p, out + found);
    for (int u = 0; u < found; u++) /* far apart: fetched while the others are read */
        __builtin_prefetch(&count[out[u].place]);
    for (int u = 0; u < found; u++) /* those that must capture have no quiet move */
        if (!(count[out[u].place] & MUST_CAPTURE))
            out[n++] = out[u];
    return n;
}

/* The positions that become final at each ply, waiting to tell their predecessors. An
 * entry is a side (top bit) and an index. A position can be listed at a ply it no longer
 * has (a win found shorter later): entries are checked when taken. */
struct bucket {
    uint64_t *items;
    size_t count, capacity;
};

struct agenda {
    struct bucket *at;   /* by plies */
    size_t size;
    bool failed;         /* out of memory */
};

#define ENTRY(side, i) ((uint64_t)(side) << 63 | (i))
#define ENTRY_SIDE(e) ((enum side)((e) >> 63))
#define ENTRY_INDEX(e) ((e) & ~((uint64_t)1 << 63))

/* Appends n entries at `plies`. Not thread-safe: threads share an agenda through the
 * critical section in flush() and found_final(). */
static void agenda_add(struct agenda *a, int plies, const uint64_t *items, size_t n)
{
    if (n == 0)
        return;
    if (array_reserve(&a->at, &a->size, (size_t)plies + 1, sizeof *a->at) < 0 ||
        array_reserve(&a->at[plies].items, &a->at[plies].capacity, a->at[plies].count + n,
                      sizeof *items) < 0) {
        a->failed = true;
        return;
    }
    struct bucket *b = &a->at[plies];
    memcpy(b->items + b->count, items, n * sizeof *items);
    b->count += n;
}

static void agenda_free(struct agenda *a)
{
    for (size_t k = 0; k < a->size; k++)
        free(a->at[k].items);
    free(a->at);
    memset(a, 0, sizeof *a);
}

/* What one thread found while telling predecessors at `plies`: the positions now final at
 * plies + 1, gathered before they join the agenda. */
#define LOCAL_ENTRIES 1024
struct findings {
    struct agenda *agenda;
    int next_plies;
    uint64_t items[LOCAL_ENTRIES];
    size_t count;
};

static void flush(struct findings *f)
{
#pragma omp critical(agenda)
    agenda_add(f->agenda, f->next_plies, f->items, f->count);
    f->count = 0;
}

static void found_final(struct findings *f, int plies, enum side side, uint64_t i)
{
    uint64_t e = ENTRY(side, i);
    if (plies != f->next_plies) {
#pragma omp critical(agenda)
        agenda_add(f->agenda, plies, &e, 1);
        return;
    }
    f->items[f->count++] = e;
    if (f->count == LOCAL_ENTRIES)
        flush(f);
}

/* Lowers *slot to `value` unless it holds a smaller nonzero value already (for DTM wins
 * and for MTC codes, smaller nonzero is shorter); true when it did. */
static bool lower_to(uint16_t *slot, uint16_t value, bool (*keeps)(uint16_t cur, uint16_t value))
{
    uint16_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
    while (!keeps(cur, value))
        if (__atomic_compare_exchange_n(slot, &cur, value, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
            return true;
    return false;
}

static bool keeps_shorter_win(uint16_t cur, uint16_t win) { return dtm_is_win(cur) && cur <= win; }
static bool keeps_shorter_mtc(uint16_t cur, uint16_t mtc) { return cur != MTC_NONE && cur <= mtc; }

/* One more move of the position at place j shown to lose; true when it was the last one. */
static bool refute_move(struct solver *s, enum side side, uint64_t j)
{
    return (__atomic_sub_fetch(&s->count[side][j], 1, __ATOMIC_RELAXED) & COUNT_MASK) == 0;
}

/* Whether the position at place j, `side` to move, is final with this code: a win, or a
 * loss with every move refuted (a pending loss may still turn out a draw or a win). */
static bool is_final(const struct solver *s, enum metric_pass pass, enum side side, uint64_t j,
                     uint16_t code)
{
    uint16_t v = pass == PASS_DTM ? s->dtm[side][j] : s->mtc[side][j];
    if (v != code)
        return false;
    if (wdl_at(s, side, j) == WDL_WIN)
        return true;
    return (__atomic_load_n(&s->count[side][j], __ATOMIC_RELAXED) & COUNT_MASK) == 0;
}

/* DTM: predecessor (side, at) of a position final at `plies`, lost there or not. */
static void tell_dtm(struct solver *s, enum side side, struct spot at, bool lost, int plies,
                     struct findings *f)
{
    dtm_t *slot = &s->dtm[side][at.place];
    if (lost) {
        if (lower_to(slot, dtm_win(plies + 1), keeps_shorter_win))
            found_final(f, plies + 1, side, at.index);
    } else if (refute_move(s, side, at.place)) {
        /* every move loses; the longest way decides, external ones included */
        int pending = dtm_is_loss(*slot) ? dtm_plies(*slot) : 0;
        int longest = pending > plies + 1 ? pending : plies + 1;
        *slot = dtm_loss(longest);
        found_final(f, longest, side, at.index);
    }
}

/* MTC: the same, for a position won or lost whose MTC is `plies`. */
static void tell_mtc(struct solver *s, enum side side, struct spot at, bool lost, int plies,
                     struct findings *f)
{
    enum wdl pred = wdl_at(s, side, at.place);
    mtc_t *slot = &s->mtc[side][at.place];
    if (lost && pred == WDL_WIN) {
        if (lower_to(slot, mtc_of_plies(plies + 1), keeps_shorter_mtc))
            found_final(f, plies + 1, side, at.index);
    } else if (!lost && pred == WDL_LOSS && refute_move(s, side, at.place)) {
        *slot = mtc_of_plies(plies + 1);
        found_final(f, plies + 1, side, at.index);
    }
}

/* WDL in two bits: the same, without distances. A position is listed when it becomes
 * won or lost, by the one thread that settles it; by plies of MTC, its MTC is that ply.
 * One already settled is left alone after a plain read: counting its moves down, or
 * setting it won again with an atomic operation, would be wasted (most predecessors of a
 * lost position are won already). */
static void tell_wdl(struct solver *s, enum side side, struct spot at, bool lost, int plies,
                     struct findings *f)
{
    if ((__atomic_load_n(&s->wdl[side][at.place / 4], __ATOMIC_RELAXED) >>
         (2 * (at.place % 4)) & 3) != WDL_DRAW)
        return;
    if (lost ? !wdl_settle(s->wdl[side], at.place, WDL_WIN)
             : !refute_move(s, side, at.place) || !wdl_settle(s->wdl[side], at.place, WDL_LOSS))
        return;
    if (s->mtc_by_plies)
        s->mtc[side][at.place] = mtc_of_plies(plies + 1);
    found_final(f, plies + 1, side, at.index);
}

/* Whether the position at place j of the level, final, is lost. */
static bool is_lost(const struct solver *s, enum side side, uint64_t j)
{
    return wdl_at(s, side, j) == WDL_LOSS;
}

/* Position p (place j of men configuration `config`), final at `plies` in the pass,
 * tells its predecessors. */
static void propagate(struct solver *s, enum metric_pass pass, const struct position *p,
                      uint64_t config, uint64_t j, int plies, struct findings *f)
{
    struct spot preds[NUM_SYMS * MAX_MOVES];
    enum side other = side_other(p->side);
    bool lost = is_lost(s, p->side, j);
    /* where the rule on lone pieces ends the game, it ends it in every position of the
     * material: no move within it is ever played */
    if (lone_piece_end(s->v, p) != GAME_GOES_ON)
        return;
    int n = predecessors(s, pass, p, config, preds);
    for (int k = 0; k < n; k++) {
        if (pass == PASS_DTM)
            tell_dtm(s, other, preds[k], lost, plies, f);
        else if (pass == PASS_MTC)
            tell_mtc(s, other, preds[k], lost, plies, f);
        else
            tell_wdl(s, other, preds[k], lost, plies, f);
    }
}

/* The code the position at place j holds if it is final at `plies` in the pass. */
static uint16_t code_at(const struct solver *s, enum metric_pass pass, enum side side,
                        uint64_t j, int plies)
{
    if (pass == PASS_MTC)
        return mtc_of_plies(plies);
    return dtm_is_win(s->dtm[side][j]) ? dtm_win(plies) : dtm_loss(plies);
}

/* Whether the entry (side, place j) taken from the agenda at `plies` still holds (a DTM or MTC
 * may have been lowered since it was listed; two bits are set once, and listed once). */
static bool still_final(const struct solver *s, enum metric_pass pass, enum side side,
                        uint64_t j, int plies)
{
    return pass == PASS_WDL || is_final(s, pass, side, j, code_at(s, pass, side, j, plies));
}

/* The ply at which the initial pass lists the position at place j, `side` to move, or -1
 * if it is not final yet. */
static int initial_plies(const struct solver *s, enum metric_pass pass, enum side side,
                         uint64_t j)
{
    if (pass == PASS_WDL && wdl_packed_at(s->wdl[side], j) == WDL_DRAW)
        return -1;
    if (pass == PASS_WDL) /* by plies of MTC: 0 where the game is over, else 1 */
        return s->mtc_by_plies ? mtc_plies(s->mtc[side][j]) : 0;
    uint16_t v = pass == PASS_DTM ? s->dtm[side][j] : s->mtc[side][j];
    if (v == 0 || !is_final(s, pass, side, j, v))
        return -1;
    return pass == PASS_DTM ? dtm_plies(v) : mtc_plies(v);
}

struct fill {
    enum metric_pass pass;
    struct agenda *local; /* one per thread, merged at the end */
};

static void fill_run(struct solver *s, uint64_t config, uint64_t first, uint64_t count,
                     void *arg)
{
    const struct fill *f = arg;
    struct agenda *a = &f->local[omp_get_thread_num()];
    for (int side = WHITE; side <= BLACK; side++)
        for (uint64_t i = first; i < first + count; i++) {
            int plies = initial_plies(s, f->pass, (enum side)side, place_in_config(s, config, i));
            uint64_t e = ENTRY(side, i);
            if (plies >= 0)
                agenda_add(a, plies, &e, 1);
        }
}

/* Lists every position final after the initial pass, at its ply. */
static void fill_agenda(struct solver *s, const struct level *l, enum metric_pass pass,
                        struct agenda *a)
{
    int threads = omp_get_max_threads();
    struct fill f = { pass, calloc((size_t)threads, sizeof(struct agenda)) };
    if (!f.local) {
        a->failed = true;
        return;
    }
    for_each_run(s, l, fill_run, &f);
    for (int k = 0; k < threads; k++) {
        for (size_t plies = 0; plies < f.local[k].size; plies++)
            agenda_add(a, (int)plies, f.local[k].at[plies].items, f.local[k].at[plies].count);
        a->failed |= f.local[k].failed;
        agenda_free(&f.local[k]);
    }
    free(f.local);
}

/* Ply by ply, each position final at that ply tells its predecessors, which may become
 * final at a later ply; every position is told about exactly once. */
static int iterate(struct solver *s, const struct level *l, enum metric_pass pass)
{
    struct agenda a = { 0 };
    fill_agenda(s, l, pass, &a);
    for (int plies = 0; (size_t)plies < a.size && !a.failed; plies++) {
        const struct bucket now = a.at[plies]; /* later buckets may move, not this one */
        a.at[plies] = (struct bucket){ 0 };
#pragma omp parallel if (now.count > 2048)
        {
            /* the men of the configuration decoded last: entries come mostly in runs of
             * one configuration (the initial ones in index order, the others from king
             * moves, which keep it), so only their kings are decoded */
            uint64_t men_config = UINT64_MAX;
            struct position men;
            struct findings *f = malloc(sizeof *f);
            if (f) {
                f->agenda = &a;
                f->next_plies = plies + 1;
                f->count = 0;
            } else {
#pragma omp atomic write
                a.failed = true;
            }
#pragma omp for schedule(dynamic, 64)
            for (size_t k = 0; k < now.count; k++) {
                enum side side = ENTRY_SIDE(now.items[k]);
                uint64_t i = ENTRY_INDEX(now.items[k]), config = index_men_config(&s->t->ix, i);
                uint64_t j = place_in_config(s, config, i);
                struct position p;
                if (!f || !still_final(s, pass, side, j, plies))
                    continue;
                if (config != men_config) {
                    index_men_position(&s->t->ix, config, side, &men);
                    men_config = config;
                }
                p = men;
                p.side = side;
                index_place_kings(&s->t->ix, i, &p);
                propagate(s, pass, &p, config, j, plies, f);
            }
            if (f)
                flush(f);
            free(f);
        }
        free(now.items);
    }
    bool failed = a.failed;
    agenda_free(&a);
    return failed ? -1 : 0;
}

/* Positions whose moves were not all refuted are draws, whatever their external moves
 * promised (two bits hold only final values: what is not won or lost is drawn). Then a
 * lost position's count becomes its king moves (all of them lose), for the MTC pass;
 * where it has none, every move it has is a conversion: one ply. */
static void settle_position(struct solver *s, struct position *p, uint64_t i, uint64_t j,
                            struct men_steps *steps)
{
    (void)steps; /* no child is looked at */
    mtc_t *mtc = &s->mtc[p->side][j];
    uint8_t *count = &s->count[p->side][j];
    if (!s->two_bits && dtm_is_loss(s->dtm[p->side][j]) && (*count & COUNT_MASK) != 0)
        s->dtm[p->side][j] = DTM_DRAW;
    enum wdl w = wdl_at(s, p->side, j);
    if (w == WDL_DRAW)
        *mtc = MTC_NONE;
    *count &= MUST_CAPTURE;
    if (w == WDL_LOSS && *mtc == MTC_NONE) {
        index_place_kings(&s->t->ix, i, p);
        int king_moves = count_quiet_king_moves(s->v, p);
        if (king_moves < 0) /* a capture is compulsory: no king's quiet move is legal */
            king_moves = 0;
        *count |= (uint8_t)king_moves;
        if (king_moves == 0)
            *mtc = mtc_of_plies(1);
    }
}

/* A won position with a man's sideways step to a lost position converts at once: MTC one
 * ply. Read once every position of the level is settled. */
static void seed_sideways_mtc(struct solver *s, struct position *p, uint64_t i, uint64_t j,
                              struct men_steps *steps)
{
    struct move_list list;
    struct position child;
    if (wdl_at(s, p->side, j) != WDL_WIN || s->mtc[p->side][j] != MTC_NONE)
        return;
    index_place_kings(&s->t->ix, i, p);
    generate_moves_but_king_quiet(s->v, p, 0, &list); /* a king's move is no conversion */
    for (int k = 0; k < list.count; k++) {
        if (!is_sideways_step(s->t->ix.g, &list.moves[k]))
            continue;
        make_move(p, &list.moves[k], &child);
        if (is_lost(s, child.side, man_step_place(s, steps, &list.moves[k], &child))) {
            s->mtc[p->side][j] = mtc_of_plies(1);
            return;
        }
    }
}

static int solve_level(struct solver *s, const struct level *l)
{
    bool kings = s->t->m.kings[WHITE] + s->t->m.kings[BLACK] > 0;
    bool sideways = men_step_sideways(s->t->ix.g) && material_men(&s->t->m) > 0;
    if (s->two_bits) {
        /* what is not known won or lost when no more is found is drawn: WDL_DRAW */
        uint64_t n = wdl_packed_bytes(l->num_configs * l->per_config);
        memset(s->wdl[WHITE], 0, n);
        memset(s->wdl[BLACK], 0, n);
    }
    /* Where every move that stays in the level is a king's, the WDL pass finds MTC too:
     * listed at their MTC (0 where the game is over, 1 where a conversion decides), the
     * positions are settled ply by ply of MTC, a win with its first lost king-move child
     * (the least MTC, plus one), a loss with its last won one (the most). A man's
     * sideways step is a conversion, which a pass over the level's moves cannot tell by
     * plies: there the MTC pass follows. */
    s->mtc_by_plies = s->two_bits && s->with_mtc && !sideways;
    for_each_position(s, l, init_position, true);
    if ((kings || sideways) && iterate(s, l, s->two_bits ? PASS_WDL : PASS_DTM) < 0)
        return -1;
    if (s->two_bits && (!s->with_mtc || s->mtc_by_plies))
        return 0;
    /* MTC reads only who wins each position of the level, whether from its DTM or from
     * two bits: a conversion is one ply whatever the value it reaches */
    for_each_position(s, l, settle_position, false);
    if (!s->with_mtc) /* no MTC wanted: its pass is skipped, its values left unused */
        return 0;
    if (sideways)
        for_each_position(s, l, seed_sideways_mtc, false);
    if (kings && iterate(s, l, PASS_MTC) < 0)
        return -1;
    return 0;
}

int material_levels(const struct material_index *ix, struct material_levels *out)
{
    int levels = 2 * MATERIAL_MAX_PIECES * ix->g->ranks + 1;
    uint64_t *order = malloc(ix->men_count * sizeof *order);
    int *rank = malloc(ix->men_count * sizeof *rank);
    uint64_t *start = calloc((size_t)levels + 1, sizeof *start);
    uint64_t *fill = calloc((size_t)levels + 1, sizeof *fill);
    uint64_t *place = malloc(ix->men_count * sizeof *place);
    int result = 0;
    if (!order || !rank || !start || !fill || !place) {
        free(order);
        free(start);
        free(place);
        order = start = place = NULL;
        result = -1;
    } else {
        /* a counting sort, stable: a level's configurations in increasing order */
        index_men_progress_all(ix, rank);
        for (uint64_t c = 0; c < ix->men_count; c++)
            rank[c] = levels - 1 - rank[c];
        for (uint64_t c = 0; c < ix->men_count; c++)
            start[rank[c] + 1]++;
        for (int k = 0; k < levels; k++)
            start[k + 1] += start[k];
        memcpy(fill, start, (size_t)levels * sizeof *fill);
        for (uint64_t c = 0; c < ix->men_count; c++) {
            place[c] = fill[rank[c]] - start[rank[c]];
            order[fill[rank[c]]++] = c;
        }
    }
    free(rank);
    free(fill);
    *out = (struct material_levels){
        .order = order,
        .start = start,
        .place = place,
        .count = levels,
        .per_config = ix->reduced ? ix->size : ix->king_count,
    };
    return result;
}

void material_levels_free(struct material_levels *l)
{
    free(l->order);
    free(l->start);
    free(l->place);
    memset(l, 0, sizeof *l);
}

uint64_t material_levels_largest(const struct material_levels *l)
{
    uint64_t most = 0;
    for (int k = 0; k < l->count; k++)
        if (l->start[k + 1] - l->start[k] > most)
            most = l->start[k + 1] - l->start[k];
    return most * l->per_config;
}

/* With no level store, the finished level goes into the table's own arrays, by index. */
static void keep_level(struct solver *s, const struct level *l)
{
    for (int side = WHITE; side <= BLACK; side++) {
#pragma omp parallel for schedule(static)
        for (uint64_t k = 0; k < l->num_configs; k++) {
            uint64_t to = l->configs[k] * l->per_config, from = k * l->per_config;
            memcpy(s->t->dtm[side] + to, s->dtm[side] + from, l->per_config * sizeof(dtm_t));
            memcpy(s->t->mtc[side] + to, s->mtc[side] + from, l->per_config * sizeof(mtc_t));
        }
    }
}

/* Hands the finished level to the store: its values, and which positions must capture
 * (the count bytes keep only that flag from now on). */
static int store_level(struct solver *s, const struct level *l, int rank,
                       const struct level_store *store, char *err, size_t err_size)
{
    uint64_t n = l->num_configs * l->per_config;
    for (int side = WHITE; side <= BLACK; side++) {
#pragma omp parallel for schedule(static)
        for (uint64_t j = 0; j < n; j++)
            s->count[side][j] &= MUST_CAPTURE;
    }
    struct finished_level done = { .rank = rank, .positions = n };
    for (int side = WHITE; side <= BLACK; side++) {
        done.mtc[side] = s->with_mtc ? s->mtc[side] : NULL;
        if (s->two_bits) {
            done.wdl[side] = s->wdl[side];
            continue;
        }
        done.dtm[side] = s->dtm[side];
        done.captures[side] = s->count[side];
    }
    return store->put(store->context, &done, err, err_size);
}

static void free_work(struct solver *s)
{
    for (int side = WHITE; side <= BLACK; side++) {
        free(s->dtm[side]);
        free(s->mtc[side]);
        free(s->count[side]);
        free(s->above[side]);
        free(s->wdl[side]);
        free(s->wdl_above[side]);
    }
}

/* The working arrays, for the largest level; and with no store, the table's own. */
static int allocate_work(struct solver *s, const struct material_levels *levels, bool whole)
{
    uint64_t most = material_levels_largest(levels), n = s->t->ix.size;
    int failed = 0;
    for (int side = WHITE; side <= BLACK; side++) {
        failed |= !(s->count[side] = malloc(most + 1));
        if (!s->two_bits || s->with_mtc)
            failed |= !(s->mtc[side] = malloc(most * sizeof(mtc_t) + 1));
        if (s->two_bits) {
            failed |= !(s->wdl[side] = malloc(wdl_packed_bytes(most) + 1));
            failed |= !(s->wdl_above[side] = malloc(wdl_packed_bytes(most) + 1));
            continue;
        }
        failed |= !(s->dtm[side] = malloc(most * sizeof(dtm_t) + 1));
        failed |= !(s->above[side] = malloc(most * sizeof(dtm_t) + 1));
        if (whole) {
            failed |= !(s->t->dtm[side] = malloc(n * sizeof(dtm_t) + 1));
            failed |= !(s->t->mtc[side] = malloc(n * sizeof(mtc_t) + 1));
        }
    }
    return failed ? -1 : 0;
}

/* The first level that the store does not have (levels.count when it has them all). */
static int first_unfinished(const struct material_levels *levels, const struct level_store *store)
{
    int k = 0;
    while (store && k < levels->count &&
           (levels->start[k + 1] == levels->start[k] ||
            store->has(store->context, k, (levels->start[k + 1] - levels->start[k]) *
                                              levels->per_config)))
        k++;
    return k;
}

static void swap_levels(struct solver *s)
{
    for (int side = WHITE; side <= BLACK; side++) {
        dtm_t *solved = s->dtm[side];
        s->dtm[side] = s->above[side];
        s->above[side] = solved;
        uint8_t *solved_wdl = s->wdl[side];
        s->wdl[side] = s->wdl_above[side];
        s->wdl_above[side] = solved_wdl;
    }
}

int solve_material(const struct tableset *ts, const struct material *m,
                   const struct level_store *store, const struct progress_report *progress,
                   struct table *out, char *err, size_t err_size)
{
    struct solver s = { .v = ts->v, .ts = ts, .t = out, .two_bits = ts->wdl_only && store,
                        .with_mtc = !ts->wdl_only || ts->with_mtc };
    struct material_levels levels = { 0 };

    memset(out, 0, sizeof *out);
    out->m = *m;
    if (tableset_index_init(&out->ix, ts->v, m) < 0 || material_levels(&out->ix, &levels) < 0 ||
        allocate_work(&s, &levels, store == NULL) < 0)
        goto no_memory;
    s.per_config = divider_of(levels.per_config);
    s.place = levels.place;
    find_successors(&s);
    int levels_total = 0, levels_done = 0, first = first_unfinished(&levels, store);
    for (int k = 0; k < levels.count; k++)
        levels_total += levels.start[k + 1] > levels.start[k];
    for (int k = 0; k < first; k++)
        levels_done += levels.start[k + 1] > levels.start[k];
    /* resuming: the level before the first to solve is where its men's steps lead */
    if (first > 0 && first < levels.count && levels.start[first] > levels.start[first - 1] &&
        store->read_values(store->context, first - 1,
                           (levels.start[first] - levels.start[first - 1]) * levels.per_config,
                           s.two_bits ? NULL : s.above, s.two_bits ? s.wdl_above : NULL, err,
                           err_size) < 0)
        goto failed;
    for (int k = first; k < levels.count; k++) {
        struct level l = {
            .configs = levels.order + levels.start[k],
            .num_configs = levels.start[k + 1] - levels.start[k],
            .per_config = levels.per_config,
        };
        if (l.num_configs > 0 && solve_level(&s, &l) < 0)
            goto no_memory;
        if (l.num_configs > 0 && !store)
            keep_level(&s, &l);
        else if (l.num_configs > 0 && store_level(&s, &l, k, store, err, err_size) < 0)
            goto failed;
        swap_levels(&s); /* an empty level leaves nothing for the next: no man steps there */
        if (l.num_configs == 0)
            continue;
        levels_done++;
        if (progress && progress->steps)
            progress->steps(progress->context, levels_done, levels_total);
        if (progress)
            progress->report(progress->context,
                             (double)levels.start[k + 1] / (double)out->ix.men_count);
    }
    free_work(&s);
    material_levels_free(&levels);
    return 0;

no_memory:
    snprintf(err, err_size, "out of memory solving a table of %llu positions per side",
             (unsigned long long)out->ix.size);
failed:
    free_work(&s);
    material_levels_free(&levels);
    table_free(out);
    return -1;
}
