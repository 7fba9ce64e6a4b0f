#include "core/movegen.h"

#include <string.h>

#include "core/cpu.h"

/* For the hottest helpers, which must be inlined where gcc would not on its own: the two
 * capture searches below would otherwise call them. */
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* A man captures in the directions it steps in, and backward too in some variants. */
static bool man_may_capture_toward(const struct variant *v, const struct geometry *g,
                                   enum side s, enum direction d)
{
    return v->men_capture_backward || (g->man_dir_mask[s] >> d & 1);
}

/* The nearest square of `set` from the start of a ray in direction d: rays in the "up"
 * directions run to higher bits, the others to lower bits. */
static int nearest(const struct geometry *g, bb_t set, enum direction d)
{
    return g->shift[d] > 0 ? bb_first(set) : 63 - __builtin_clzll(set);
}

/* ---- captures ---------------------------------------------------------------------- */

/* The state of the depth-first search over one piece's capture sequences.
 *
 * Where jumped pieces stay on the board until the move ends, `empty` is fixed and the
 * pieces jumped so far block. Where they leave at once (remove_captured_at_once), each
 * jump adds its piece's square to `empty`, so that it can be crossed and landed on again;
 * the sequence may then not turn back where the variant says so (no_capture_reversal),
 * which the search tracks as the direction of the last jump. */
struct capture_search {
    const struct variant *v;
    const struct geometry *g;
    unsigned flags;
    struct move_list *list;
    bb_t enemy, enemy_kings;
    bb_t empty;           /* includes the capturing piece's starting square */
    bool no_reversal;     /* a jump may not go back the way the last one came */
    bb_t men_may_jump;    /* enemy pieces a man is allowed to take */
    bb_t crown;           /* the mover's promotion rank */
    enum side side;
    int from;
    bool started_as_king;
    bool crowned;         /* became a king during this capture */
    bb_t captured;
    int jumps;
    uint8_t landing[MAX_JUMPS], jumped[MAX_JUMPS];
};

/* The precedence of a capture: a number that is larger for the capture the variant's
 * criteria prefer, with the criteria packed from most to least significant. */
static ALWAYS_INLINE uint32_t capture_precedence(const struct capture_search *cs)
{
    unsigned rules = cs->v->precedence;
    uint32_t key = 0;

    if (rules & PRECEDENCE_MOST_PIECES)
        key |= (uint32_t)cs->jumps << 24;
    if (rules & PRECEDENCE_WITH_KING)
        key |= (uint32_t)cs->started_as_king << 23;
    if (rules & PRECEDENCE_MOST_KINGS)
        key |= (uint32_t)bb_count(cs->captured & cs->enemy_kings) << 16;
    if (rules & PRECEDENCE_KING_FIRST) {
        /* Earlier kings weigh more; 16 jumps cover the 12 pieces of an 8x8 side. */
        for (int i = 0; i < cs->jumps && i < 16; i++)
            if (cs->enemy_kings & bb_of(cs->jumped[i]))
                key |= 1u << (15 - i);
    }
    return key;
}

/* Whether capture m, already listed, is the one the search `cs` has just found ending on
 * `to`. */
static bool same_capture(const struct move *m, const struct capture_search *cs, int to,
                         bool promotes)
{
    if (m->from != cs->from || m->to != to || m->captured != cs->captured ||
        m->promotes != promotes)
        return false;
    return !(cs->flags & MOVES_KEEP_DUPLICATES) ||
           memcmp(m->jumped, cs->jumped, (size_t)cs->jumps) == 0;
}

/* Lists the capture the search has just found ending on `to`, unless a better capture is
 * known or it is already listed; drops the listed moves when it is a better capture than
 * they are, so all listed moves share one precedence. The move is written straight into
 * the list, and only once it is known to belong there: the record is large. */
static ALWAYS_INLINE void record_capture(struct capture_search *cs, int to)
{
    struct move_list *list = cs->list;
    uint32_t precedence = capture_precedence(cs);
    bool promotes = !cs->started_as_king && (cs->crowned || (cs->crown & bb_of(to)));

    if (list->count > 0) {
        uint32_t best = list->moves[0].precedence;
        if (precedence < best)
            return;
        if (precedence > best)
            list->count = 0;
    }
    for (int i = 0; i < list->count; i++)
        if (same_capture(&list->moves[i], cs, to, promotes))
            return;
    if (list->count == MAX_MOVES) {
        list->overflow = true;
        return;
    }
    struct move *m = &list->moves[list->count++];
    m->from = (uint8_t)cs->from;
    m->to = (uint8_t)to;
    m->captured = cs->captured;
    m->num_jumps = (uint8_t)cs->jumps;
    m->promotes = promotes;
    m->precedence = precedence;
    memcpy(m->landing, cs->landing, (size_t)cs->jumps);
    memcpy(m->jumped, cs->jumped, (size_t)cs->jumps);
}

#define ALL_DIRS ((1u << NUM_DIRS) - 1)
#define NO_DIRECTION (-1)

/* The search below is written once and compiled twice, once for each kind of capture:
 * where jumped pieces stay until the move ends (`lift` false: continue_staying) and where
 * they leave at once (`lift` true: continue_lifting). The functions taking `lift` are
 * inlined with it constant, so each kind gets its own code, and the variants whose pieces
 * stay pay nothing for the others' bookkeeping. Only the lifting search tracks the
 * direction of the last jump: where pieces stay, the one just jumped blocks the way back. */

static void continue_staying(struct capture_search *cs, int square, bool as_king);
static void continue_lifting(struct capture_search *cs, int square, bool as_king, int came);

/* The first piece a flying king at `square` meets in direction d, or -1. */
static int first_piece(const struct capture_search *cs, int square, enum direction d)
{
    bb_t blockers = cs->g->ray[square][d] & ~cs->empty;
    return blockers ? nearest(cs->g, blockers, d) : -1;
}

/* The directions the next jump may take after a jump in direction `came` (NO_DIRECTION
 * before the first jump): all of them, but the way back where the variant forbids it.
 * Where jumped pieces stay, the piece just jumped blocks the way back anyway. */
static ALWAYS_INLINE unsigned next_jump_dirs(const struct capture_search *cs, int came,
                                             const bool lift)
{
    if (!lift || !cs->no_reversal || came == NO_DIRECTION)
        return ALL_DIRS;
    return ALL_DIRS & ~(1u << direction_opposite((enum direction)came));
}

/* Whether a flying king on `square` has a jump in one of the directions `dirs` (bits)
 * over a piece of `takeable` to an empty square; every square not in `empty` blocks its
 * way. */
static ALWAYS_INLINE bool flying_king_has_jump(const struct geometry *g, int square,
                                               bb_t takeable, bb_t empty, unsigned dirs)
{
    for (int d = 0; d < NUM_DIRS; d++) {
        if (!(dirs >> d & 1))
            continue;
        bb_t blockers = g->ray[square][d] & ~empty;
        if (!blockers)
            continue;
        int over = nearest(g, blockers, (enum direction)d);
        int land = g->step[over][d];
        if ((takeable & bb_of(over)) && land >= 0 && (empty & bb_of(land)))
            return true;
    }
    return false;
}

/* The empty squares once `over` is jumped: the same, or with its square where jumped
 * pieces leave at once. */
static ALWAYS_INLINE bb_t empty_after(const struct capture_search *cs, int over,
                                      const bool lift)
{
    return lift ? cs->empty | bb_of(over) : cs->empty;
}

/* Lands after jumping `over` in direction d on `land`, then goes on capturing or ends the
 * move there. */
static inline void jump_to(struct capture_search *cs, int over, int land, bool as_king,
                                  enum direction d, const bool lift)
{
    bool crowned_before = cs->crowned;

    cs->jumped[cs->jumps] = (uint8_t)over;
    cs->landing[cs->jumps] = (uint8_t)land;
    cs->jumps++;
    cs->captured |= bb_of(over);
    if (lift)
        cs->empty |= bb_of(over);
    if (!as_king && (cs->crown & bb_of(land)) && cs->v->promote_mid_capture) {
        cs->crowned = true;
        as_king = true;
    }
    if (lift)
        continue_lifting(cs, land, as_king, d);
    else
        continue_staying(cs, land, as_king);
    cs->crowned = crowned_before;
    if (lift)
        cs->empty &= ~bb_of(over);
    cs->captured &= ~bb_of(over);
    cs->jumps--;
}

/* Every capture a flying king can make next from `square` in direction d. Where some of
 * the squares beyond the jumped piece let the capture go on, only those may be used. */
static inline bool flying_jumps(struct capture_search *cs, int square, enum direction d,
                                       const bool lift)
{
    const struct geometry *g = cs->g;
    int over = first_piece(cs, square, d);
    int lands[16], num_lands = 0;
    bool any_continues = false, continues[16];

    if (over < 0 || !(cs->enemy & ~cs->captured & bb_of(over)))
        return false;
    for (int l = g->step[over][d]; l >= 0 && (cs->empty & bb_of(l)); l = g->step[l][d])
        lands[num_lands++] = l;
    if (num_lands == 0)
        return false;
    bb_t takeable = cs->enemy & ~cs->captured & ~bb_of(over);
    bb_t empty = empty_after(cs, over, lift);
    unsigned dirs = next_jump_dirs(cs, d, lift);
    for (int i = 0; i < num_lands; i++)
        any_continues |= continues[i] =
            flying_king_has_jump(g, lands[i], takeable, empty, dirs);
    for (int i = 0; i < num_lands; i++)
        if (continues[i] || !any_continues)
            jump_to(cs, over, lands[i], true, d, lift);
    return true;
}

/* The capture a man or a short king can make next from `square` in direction d. */
static inline bool short_jump(struct capture_search *cs, int square, enum direction d,
                                     bool as_king, const bool lift)
{
    const struct geometry *g = cs->g;
    bb_t takeable = (as_king ? cs->enemy : cs->men_may_jump) & ~cs->captured;
    int over = g->step[square][d];
    int land = over < 0 ? -1 : g->step[over][d];

    if (land < 0 || !(takeable & bb_of(over)) || !(cs->empty & bb_of(land)))
        return false;
    jump_to(cs, over, land, as_king, d, lift);
    return true;
}

/* Goes on capturing from `square`, the last jump having gone in direction `came`. */
static ALWAYS_INLINE void continue_capture(struct capture_search *cs, int square, bool as_king,
                                           int came, const bool lift)
{
    unsigned dirs = next_jump_dirs(cs, came, lift);
    bool jumped = false;

    for (int d = 0; d < NUM_DIRS; d++) {
        if (!(dirs >> d & 1))
            continue;
        if (as_king && cs->v->flying_kings)
            jumped |= flying_jumps(cs, square, (enum direction)d, lift);
        else if (as_king || man_may_capture_toward(cs->v, cs->g, cs->side, (enum direction)d))
            jumped |= short_jump(cs, square, (enum direction)d, as_king, lift);
    }
    if (!jumped && cs->jumps > 0)
        record_capture(cs, square);
}

static void continue_staying(struct capture_search *cs, int square, bool as_king)
{
    continue_capture(cs, square, as_king, NO_DIRECTION, false);
}

static void continue_lifting(struct capture_search *cs, int square, bool as_king, int came)
{
    continue_capture(cs, square, as_king, came, true);
}

/* The squares from which a jump goes over a piece of `victims` to a square of `empty`:
 * two steps from the empty squares in direction `back`, the way opposite the jump's, the
 * first onto a victim. */
static inline bb_t jump_origins(const struct geometry *g, bb_t empty, bb_t victims,
                                enum direction back)
{
    return bb_step(g, bb_step(g, empty, back) & victims, back);
}

/* The pieces of `pieces` that can jump over a piece of `victims` to a square of `empty`,
 * one step each way, in any direction. */
static bb_t jumpers_any_way(const struct geometry *g, bb_t pieces, bb_t victims, bb_t empty)
{
    bb_t origins = 0;
    for (int back = 0; back < NUM_DIRS; back++)
        origins |= jump_origins(g, empty, victims, (enum direction)back);
    return origins & pieces;
}

/* The men of the side to move that have a first jump; only they can start a capture. */
static bb_t men_that_can_capture(const struct variant *v, const struct geometry *g,
                                 const struct position *p, bb_t empty)
{
    enum side s = p->side, o = side_other(s);
    bb_t victims = v->men_capture_kings ? position_pieces(p, o) : p->men[o];
    bb_t origins = 0;

    if (v->men_capture_backward)
        return jumpers_any_way(g, p->men[s], victims, empty);
    for (int i = 0; i < g->num_man_dirs; i++)
        origins |= jump_origins(g, empty, victims, direction_opposite(g->man_dir[s][i]));
    return origins & p->men[s];
}

/* Every capture of the pieces `starters` (the side to move's, from capture_starters). */
static void generate_captures(const struct variant *v, const struct geometry *g,
                              const struct position *p, bb_t starters, unsigned flags,
                              struct move_list *list)
{
    enum side s = p->side, o = side_other(s);
    struct capture_search cs = {
        .v = v, .g = g, .flags = flags, .list = list, .side = s,
        .enemy = position_pieces(p, o), .enemy_kings = p->kings[o],
        .men_may_jump = v->men_capture_kings ? position_pieces(p, o) : p->men[o],
        .crown = promotion_rank(g, s),
        .no_reversal = v->no_capture_reversal,
    };
    bb_t empty = g->board & ~position_occupied(p);
    int from;

    BB_FOR_EACH(from, starters) {
        cs.from = from;
        cs.empty = empty | bb_of(from);
        cs.started_as_king = (p->kings[s] & bb_of(from)) != 0;
        if (v->remove_captured_at_once)
            continue_lifting(&cs, from, cs.started_as_king, NO_DIRECTION);
        else
            continue_staying(&cs, from, cs.started_as_king);
    }
}

/* The kings of `kings` that have a first jump over a piece of `enemy`. */
static bb_t kings_that_can_capture(const struct variant *v, const struct geometry *g,
                                   bb_t kings, bb_t enemy, bb_t empty)
{
    bb_t found = 0;
    int k;

    if (!v->flying_kings)
        return jumpers_any_way(g, kings, enemy, empty);
    BB_FOR_EACH(k, kings)
        if (flying_king_has_jump(g, k, enemy, empty, ALL_DIRS))
            found |= bb_of(k);
    return found;
}

/* The pieces of the side to move that have a first jump, on the variant's board g: none
 * when it has no capture. Found once per move generation and handed to the search. */
static bb_t capture_starters(const struct variant *v, const struct geometry *g,
                             const struct position *p)
{
    bb_t empty = g->board & ~position_occupied(p);

    return men_that_can_capture(v, g, p, empty) |
           kings_that_can_capture(v, g, p->kings[p->side],
                                  position_pieces(p, side_other(p->side)), empty);
}

bool has_capture(const struct variant *v, const struct position *p)
{
    return capture_starters(v, v->board(), p) != 0;
}

/* ---- quiet moves ------------------------------------------------------------------- */

static void add_quiet(struct move_list *list, int from, int to, bool promotes)
{
    struct move *m;

    if (list->count == MAX_MOVES) {
        list->overflow = true;
        return;
    }
    m = &list->moves[list->count++];
    m->captured = 0;
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->num_jumps = 0;
    m->promotes = promotes;
    m->precedence = 0;
}

/* The squares a king on k can move to in direction d without capturing. */
static bb_t king_targets(const struct variant *v, const struct geometry *g, int k,
                         enum direction d, bb_t occupied)
{
    if (!v->flying_kings) {
        int t = g->step[k][d];
        return t >= 0 && !(occupied & bb_of(t)) ? bb_of(t) : 0;
    }
    bb_t ray = g->ray[k][d], blockers = ray & occupied;
    if (!blockers)
        return ray;
    int b = nearest(g, blockers, d);
    return ray & ~g->ray[b][d] & ~bb_of(b);
}

static void generate_quiet(const struct variant *v, const struct geometry *g,
                           const struct position *p, struct move_list *list)
{
    enum side s = p->side;
    bb_t occupied = position_occupied(p), empty = g->board & ~occupied;
    bb_t crown = promotion_rank(g, s);
    int k, t;

    for (int i = 0; i < g->num_man_dirs; i++) {
        enum direction d = g->man_dir[s][i];
        BB_FOR_EACH(t, bb_step(g, p->men[s], d) & empty)
            add_quiet(list, t - g->shift[d], t, (crown & bb_of(t)) != 0);
    }
    BB_FOR_EACH(k, p->kings[s]) {
        for (int d = 0; d < NUM_DIRS; d++)
            BB_FOR_EACH(t, king_targets(v, g, k, (enum direction)d, occupied))
                add_quiet(list, k, t, false);
    }
}

/* ---- the public entry points ------------------------------------------------------- */

static void list_clear(struct move_list *list)
{
    list->count = 0;
    list->overflow = false;
}

void generate_moves(const struct variant *v, const struct position *p, unsigned flags,
                    struct move_list *list)
{
    const struct geometry *g = v->board();

    bb_t starters = capture_starters(v, g, p);

    list_clear(list);
    if (starters)
        generate_captures(v, g, p, starters, flags, list);
    else
        generate_quiet(v, g, p, list);
}

/* count_moves, compiled twice (core/cpu.h): counting quiet moves is counting squares. */
static ALWAYS_INLINE int count_moves_body(const struct variant *v, const struct position *p,
                                          unsigned flags, const bool fast)
{
    const struct geometry *g = v->board();
    enum side s = p->side;
    bb_t occupied = position_occupied(p), empty = g->board & ~occupied;
    bb_t starters = capture_starters(v, g, p);
    int count = 0, k;

    if (starters) {
        struct move_list list; /* not zeroed: 32 KB on the hottest path */
        list_clear(&list);
        generate_captures(v, g, p, starters, flags, &list);
        return list.count;
    }
    for (int i = 0; i < g->num_man_dirs; i++)
        count += bb_count(bb_step(g, p->men[s], g->man_dir[s][i]) & empty);
    BB_FOR_EACH(k, p->kings[s]) {
        for (int d = 0; d < NUM_DIRS; d++)
            count += bb_count(king_targets(v, g, k, (enum direction)d, occupied));
    }
    (void)fast; /* the compiler picks popcnt by itself in the fast copy */
    return count;
}

CPU_CLONES(int, count_moves, (const struct variant *v, const struct position *p, unsigned flags),
           (v, p, flags))

int count_moves(const struct variant *v, const struct position *p, unsigned flags)
{
    return CPU_CHOOSE(count_moves)(v, p, flags);
}

void make_move(const struct position *p, const struct move *m, struct position *out)
{
    enum side s = p->side, o = side_other(s);
    bb_t from = bb_of(m->from), to = bb_of(m->to);
    bool king = (p->kings[s] & from) != 0;

    *out = *p;
    out->men[s] &= ~from;
    out->kings[s] &= ~from;
    if (king || m->promotes)
        out->kings[s] |= to;
    else
        out->men[s] |= to;
    out->men[o] &= ~m->captured;
    out->kings[o] &= ~m->captured;
    out->side = o;
}
