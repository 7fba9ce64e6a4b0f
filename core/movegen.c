#include "core/movegen.h"

#include <string.h>

#include "core/cpu.h"

/* For the hottest helpers, which must be inlined where gcc would not on its own: the two
 * capture searches below would otherwise call them. */
#define ALWAYS_INLINE inline __attribute__((always_inline))

#define ALL_DIRS ((1u << NUM_DIRS) - 1)

/* The copies of the hot code. The baseline reads the board's steps from its geometry and
 * runs on any processor (core/cpu.h). Where the processor has popcnt and BMI there is a
 * copy for each board layout, with that layout's steps as constants (LAYOUT_STEPS): the
 * commonest operation of the generator, a step of a whole set of squares, is then a
 * rotation by an immediate and a mask in a register. The functions that take `copy` are
 * always inlined with it constant. */
enum copy { COPY_BASELINE, COPY_DIAGONAL_8, COPY_DIAGONAL_10, COPY_ORTHOGONAL_8, NUM_COPIES };

/* The board layout a layout copy is compiled for. */
static ALWAYS_INLINE enum board_layout layout_of_copy(const enum copy copy)
{
    return (enum board_layout)(copy - COPY_DIAGONAL_8);
}

/* The copy to run on the board g. */
static inline enum copy copy_for(const struct geometry *g)
{
    return CPU_DISPATCH && cpu_use_fast() ? (enum copy)(COPY_DIAGONAL_8 + g->layout)
                                          : COPY_BASELINE;
}

/* bb_step in a copy. */
static ALWAYS_INLINE bb_t step(const struct geometry *g, bb_t b, enum direction d,
                               const enum copy copy)
{
    return copy == COPY_BASELINE ? bb_step(g, b, d) : layout_step(layout_of_copy(copy), b, d);
}

/* The shift of a step in direction d, in a copy. */
static ALWAYS_INLINE int step_shift(const struct geometry *g, enum direction d,
                                    const enum copy copy)
{
    return copy == COPY_BASELINE ? g->shift[d] : LAYOUT_STEPS[layout_of_copy(copy)].shift[d];
}

/* The directions a man of side s steps in: their number, the i-th (forward first), and
 * all of them as bits, in a copy. */
static ALWAYS_INLINE int num_man_dirs(const struct geometry *g, const enum copy copy)
{
    return copy == COPY_BASELINE ? g->num_man_dirs
                                 : LAYOUT_STEPS[layout_of_copy(copy)].num_man_dirs;
}

static ALWAYS_INLINE enum direction man_dir(const struct geometry *g, enum side s, int i,
                                            const enum copy copy)
{
    return copy == COPY_BASELINE ? g->man_dir[s][i]
                                 : LAYOUT_STEPS[layout_of_copy(copy)].man_dir[s][i];
}

static ALWAYS_INLINE unsigned man_dir_mask(const struct geometry *g, enum side s,
                                           const enum copy copy)
{
    return copy == COPY_BASELINE ? g->man_dir_mask[s]
                                 : LAYOUT_STEPS[layout_of_copy(copy)].man_dir_mask[s];
}

/* The playable squares, in a copy. */
static ALWAYS_INLINE bb_t board_squares(const struct geometry *g, const enum copy copy)
{
    return copy == COPY_BASELINE ? g->board : LAYOUT_STEPS[layout_of_copy(copy)].board;
}

/* The directions a man of side s captures in (bits): those it steps in, and backward too
 * in some variants. */
static ALWAYS_INLINE unsigned man_capture_dirs(const struct variant *v,
                                               const struct geometry *g, enum side s,
                                               const enum copy copy)
{
    return v->men_capture_backward ? ALL_DIRS : man_dir_mask(g, s, copy);
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
    bool counting;        /* only counted: the list's records need not say the way */
    struct move_list *list;
    bb_t enemy, enemy_kings;
    bb_t empty;           /* includes the capturing piece's starting square */
    bool no_reversal;     /* a jump may not go back the way the last one came */
    bb_t men_may_jump;    /* enemy pieces a man is allowed to take */
    bb_t crown;           /* the mover's promotion rank */
    unsigned man_dirs;    /* the directions a man captures in (bits) */
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
    if ((cs->flags & MOVES_KEEP_DUPLICATES) &&
        memcmp(m->jumped, cs->jumped, (size_t)cs->jumps) != 0)
        return false;
    /* the last landing is `to`: the squares touched down on between jumps differ */
    return !(cs->flags & MOVES_KEEP_TOUCHDOWNS) ||
           memcmp(m->landing, cs->landing, (size_t)cs->jumps) == 0;
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
    if (cs->counting && !(cs->flags & MOVES_KEEP_PATHS))
        return; /* a count tells captures apart by what same_capture reads, no more */
    /* Whole arrays, bytes past the jumps included (never read): a copy of a known size
     * is a few register moves, one of a variable size a call. */
    memcpy(m->jumped, cs->jumped, sizeof m->jumped);
    memcpy(m->landing, cs->landing, sizeof m->landing);
}

#define NO_DIRECTION (-1)

/* The search below is written once and compiled twice, once for each kind of capture:
 * where jumped pieces stay until the move ends (`lift` false: continue_staying) and where
 * they leave at once (`lift` true: continue_lifting). The functions taking `lift` are
 * inlined with it constant, so each kind gets its own code, and the variants whose pieces
 * stay pay nothing for the others' bookkeeping. Only the lifting search tracks the
 * direction of the last jump: where pieces stay, the one just jumped blocks the way back.
 *
 * Each kind is compiled again for each copy (`copy` constant): the search is most of
 * perft's time, and its bit arithmetic gains from BMI's shifts and bit tricks and from
 * constant steps. A copy recurses into itself only, so the choice is made once per move
 * generation. */

#define CONTINUATION_PROTOTYPES(copy, attributes)                                       \
    attributes static void continue_staying_##copy(struct capture_search *cs, int square, \
                                                   bool as_king, unsigned jumps);        \
    attributes static void continue_lifting_##copy(struct capture_search *cs, int square, \
                                                   bool as_king, int came, unsigned jumps);

/* What a continuation is told of a short piece's next jumps: their directions, found by
 * the caller (short_jump_dirs), or JUMPS_TO_FIND. */
#define JUMPS_TO_FIND (1u << NUM_DIRS)
CONTINUATION_PROTOTYPES(baseline, )
#if CPU_DISPATCH
CONTINUATION_PROTOTYPES(diagonal_8_fast, CPU_FAST_TARGET)
CONTINUATION_PROTOTYPES(diagonal_10_fast, CPU_FAST_TARGET)
CONTINUATION_PROTOTYPES(orthogonal_8_fast, CPU_FAST_TARGET)
#endif

/* The first piece a flying king at `square` meets in direction d, or -1. */
static int first_piece(const struct capture_search *cs, int square, enum direction d)
{
    bb_t blockers = cs->g->ray[square][d] & ~cs->empty;
    return blockers ? ray_nearest(cs->g, blockers, d) : -1;
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
        int over = ray_nearest(g, blockers, (enum direction)d);
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

/* What a man or a short king may take next: a man perhaps not the kings. */
static ALWAYS_INLINE bb_t short_takeable(const struct capture_search *cs, bool as_king)
{
    return (as_king ? cs->enemy : cs->men_may_jump) & ~cs->captured;
}

/* The directions a piece may jump in next, after a jump in direction `came`. */
static ALWAYS_INLINE unsigned piece_jump_dirs(const struct capture_search *cs, bool as_king,
                                              int came, const bool lift)
{
    return next_jump_dirs(cs, came, lift) & (as_king ? ALL_DIRS : cs->man_dirs);
}

/* The directions of `dirs` (bits) in which a man or a short king on the square `at` (a
 * set of one) has a jump over a piece of `takeable` to a square of `empty`. All four are
 * tried without a branch: whether a direction has a jump is the search's least
 * predictable question, asked once for the four. */
static ALWAYS_INLINE unsigned short_jump_dirs(const struct geometry *g, bb_t at,
                                             bb_t takeable, bb_t empty, unsigned dirs,
                                             const enum copy copy)
{
    unsigned found = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        bb_t over = step(g, at, (enum direction)d, copy) & takeable;
        found |= (unsigned)((step(g, over, (enum direction)d, copy) & empty) != 0) << d;
    }
    return found & dirs;
}

/* Goes on from `square` after a jump in direction `came`, in the copy `copy`. */
static ALWAYS_INLINE void continue_in_copy(struct capture_search *cs, int square,
                                           bool as_king, enum direction came,
                                           unsigned jumps, const bool lift,
                                           const enum copy copy)
{
#define CONTINUE_IN(name)                                       \
    do {                                                        \
        if (lift)                                               \
            continue_lifting_##name(cs, square, as_king, came, jumps); \
        else                                                    \
            continue_staying_##name(cs, square, as_king, jumps);       \
    } while (0)
    switch (copy) {
#if CPU_DISPATCH
    case COPY_DIAGONAL_8: CONTINUE_IN(diagonal_8_fast); break;
    case COPY_DIAGONAL_10: CONTINUE_IN(diagonal_10_fast); break;
    case COPY_ORTHOGONAL_8: CONTINUE_IN(orthogonal_8_fast); break;
#endif
    default: CONTINUE_IN(baseline); break;
    }
#undef CONTINUE_IN
}

/* Lands after jumping `over` in direction d on `land`, then goes on capturing or ends the
 * move there. */
static ALWAYS_INLINE void jump_to(struct capture_search *cs, int over, int land,
                                  bool as_king, enum direction d, const bool lift,
                                  const enum copy copy)
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
    /* Most captures end after a short piece's jump: seen here with a few shifts, the
     * search records them without a call that would find no jump, and otherwise tells
     * the call the jumps it found. */
    unsigned jumps = JUMPS_TO_FIND;
    if (!(as_king && cs->v->flying_kings))
        jumps = short_jump_dirs(cs->g, bb_of(land), short_takeable(cs, as_king), cs->empty,
                                piece_jump_dirs(cs, as_king, d, lift), copy);
    if (!jumps)
        record_capture(cs, land);
    else
        continue_in_copy(cs, land, as_king, d, jumps, lift, copy);
    cs->crowned = crowned_before;
    if (lift)
        cs->empty &= ~bb_of(over);
    cs->captured &= ~bb_of(over);
    cs->jumps--;
}

/* Every capture a flying king can make next from `square` in direction d. Where some of
 * the squares beyond the jumped piece let the capture go on, only those may be used. */
static ALWAYS_INLINE bool flying_jumps(struct capture_search *cs, int square,
                                       enum direction d, const bool lift, const enum copy copy)
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
            jump_to(cs, over, lands[i], true, d, lift, copy);
    return true;
}

/* The capture a man or a short king makes next from `square` in direction d, one that
 * short_jump_dirs found. Two shifts of the square's bit, rather than two dependent loads
 * from the step table: this is the commonest step of the search. */
static ALWAYS_INLINE void short_jump(struct capture_search *cs, int square,
                                     enum direction d, bool as_king, const bool lift,
                                     const enum copy copy)
{
    const struct geometry *g = cs->g;
    bb_t over = step(g, bb_of(square), d, copy) & short_takeable(cs, as_king);
    bb_t land = step(g, over, d, copy) & cs->empty;

    jump_to(cs, bb_first(over), bb_first(land), as_king, d, lift, copy);
}

/* Goes on capturing from `square`, the last jump having gone in direction `came`. */
static ALWAYS_INLINE void continue_capture(struct capture_search *cs, int square,
                                           bool as_king, int came, unsigned jumps,
                                           const bool lift, const enum copy copy)
{
    unsigned dirs = piece_jump_dirs(cs, as_king, came, lift);
    bool jumped = false;

    if (as_king && cs->v->flying_kings) {
        for (int d = 0; d < NUM_DIRS; d++)
            if (dirs >> d & 1)
                jumped |= flying_jumps(cs, square, (enum direction)d, lift, copy);
    } else {
        if (jumps == JUMPS_TO_FIND)
            jumps = short_jump_dirs(cs->g, bb_of(square), short_takeable(cs, as_king),
                                    cs->empty, dirs, copy);
        jumped = jumps != 0;
        for (; jumps; jumps &= jumps - 1)
            short_jump(cs, square, (enum direction)bb_first(jumps), as_king, lift, copy);
    }
    if (!jumped && cs->jumps > 0)
        record_capture(cs, square);
}

#define CONTINUATIONS(name, attributes, copy)                                            \
    attributes static void continue_staying_##name(struct capture_search *cs, int square, \
                                                   bool as_king, unsigned jumps)         \
    {                                                                                   \
        continue_capture(cs, square, as_king, NO_DIRECTION, jumps, false, copy);        \
    }                                                                                   \
    attributes static void continue_lifting_##name(struct capture_search *cs, int square, \
                                                   bool as_king, int came, unsigned jumps) \
    {                                                                                   \
        continue_capture(cs, square, as_king, came, jumps, true, copy);                 \
    }
CONTINUATIONS(baseline, , COPY_BASELINE)
#if CPU_DISPATCH
CONTINUATIONS(diagonal_8_fast, CPU_FAST_TARGET, COPY_DIAGONAL_8)
CONTINUATIONS(diagonal_10_fast, CPU_FAST_TARGET, COPY_DIAGONAL_10)
CONTINUATIONS(orthogonal_8_fast, CPU_FAST_TARGET, COPY_ORTHOGONAL_8)
#endif

/* The squares from which a jump goes over a piece of `victims` to a square of `empty`:
 * two steps from the empty squares in direction `back`, the way opposite the jump's, the
 * first onto a victim. */
static ALWAYS_INLINE bb_t jump_origins(const struct geometry *g, bb_t empty, bb_t victims,
                                       enum direction back, const enum copy copy)
{
    return step(g, step(g, empty, back, copy) & victims, back, copy);
}

/* The pieces of `pieces` that can jump over a piece of `victims` to a square of `empty`,
 * one step each way, in any direction. */
static ALWAYS_INLINE bb_t jumpers_any_way(const struct geometry *g, bb_t pieces,
                                          bb_t victims, bb_t empty, const enum copy copy)
{
    bb_t origins = 0;
    for (int back = 0; back < NUM_DIRS; back++)
        origins |= jump_origins(g, empty, victims, (enum direction)back, copy);
    return origins & pieces;
}

/* For each direction d, the squares from which a man of the side to move would jump in
 * direction d, whether a man stands there or not: over a piece it may take, to an empty
 * square. 0 for the directions men do not capture in. */
static ALWAYS_INLINE void man_jump_origins(const struct variant *v, const struct geometry *g,
                                           const struct position *p, bb_t empty,
                                           bb_t origins[NUM_DIRS], const enum copy copy)
{
    enum side s = p->side, o = side_other(s);
    bb_t victims = v->men_capture_kings ? position_pieces(p, o) : p->men[o];
    unsigned dirs = man_capture_dirs(v, g, s, copy);

    for (int d = 0; d < NUM_DIRS; d++)
        origins[d] = dirs >> d & 1
                         ? jump_origins(g, empty, victims,
                                        direction_opposite((enum direction)d), copy)
                         : 0;
}

/* The men of the side to move that have a first jump, from their man_jump_origins. */
static ALWAYS_INLINE bb_t men_that_can_capture(const struct position *p,
                                               const bb_t origins[NUM_DIRS])
{
    return (origins[0] | origins[1] | origins[2] | origins[3]) & p->men[p->side];
}

/* Every capture of the pieces `starters` (the side to move's, from capture_starters, with
 * the men's jumps by direction in `origins`), in the copy `copy`; only their number if
 * `counting`. */
static ALWAYS_INLINE void generate_captures(const struct variant *v,
                                            const struct geometry *g,
                                            const struct position *p, bb_t starters,
                                            const bb_t origins[NUM_DIRS], unsigned flags,
                                            bool counting, struct move_list *list,
                                            const enum copy copy)
{
    enum side s = p->side, o = side_other(s);
    /* Set field by field: an initialiser would zero the arrays too, which cost as much as
     * the search of a one-piece capture (the search writes them before it reads them). */
    struct capture_search cs;
    cs.v = v;
    cs.g = g;
    cs.flags = flags;
    cs.counting = counting;
    cs.list = list;
    cs.enemy = position_pieces(p, o);
    cs.enemy_kings = p->kings[o];
    cs.men_may_jump = v->men_capture_kings ? position_pieces(p, o) : p->men[o];
    cs.crown = promotion_rank(g, s);
    cs.man_dirs = man_capture_dirs(v, g, s, copy);
    cs.no_reversal = v->no_capture_reversal;
    cs.crowned = false;
    cs.captured = 0;
    cs.jumps = 0;
    bb_t empty = board_squares(g, copy) & ~position_occupied(p);
    int from;

    BB_FOR_EACH(from, starters) {
        cs.from = from;
        cs.empty = empty | bb_of(from);
        cs.started_as_king = (p->kings[s] & bb_of(from)) != 0;
        /* A man's first jumps are those of its origins (man_jump_origins: the same
         * pieces to take, the same empty squares but its own, which a first jump does
         * not land on). */
        unsigned first = JUMPS_TO_FIND;
        if (!cs.started_as_king) {
            first = 0;
            for (int d = 0; d < NUM_DIRS; d++)
                first |= (unsigned)(origins[d] >> from & 1) << d;
        }
        /* The first jump inline, the rest by calls: most captures are one jump. */
        if (v->remove_captured_at_once)
            continue_capture(&cs, from, cs.started_as_king, NO_DIRECTION, first, true, copy);
        else
            continue_capture(&cs, from, cs.started_as_king, NO_DIRECTION, first, false, copy);
    }
}

/* The kings of `kings` that have a first jump over a piece of `enemy`. */
static ALWAYS_INLINE bb_t kings_that_can_capture(const struct variant *v,
                                                 const struct geometry *g, bb_t kings,
                                                 bb_t enemy, bb_t empty, const enum copy copy)
{
    bb_t found = 0;
    int k;

    if (!v->flying_kings)
        return jumpers_any_way(g, kings, enemy, empty, copy);
    BB_FOR_EACH(k, kings)
        if (flying_king_has_jump(g, k, enemy, empty, ALL_DIRS))
            found |= bb_of(k);
    return found;
}

/* The pieces of the side to move that have a first jump, on the variant's board g: none
 * when it has no capture. Found once per move generation and handed to the search; the
 * men's jumps by direction are left in `origins` (man_jump_origins). */
static ALWAYS_INLINE bb_t capture_starters(const struct variant *v,
                                           const struct geometry *g,
                                           const struct position *p, bb_t origins[NUM_DIRS],
                                           const enum copy copy)
{
    bb_t empty = board_squares(g, copy) & ~position_occupied(p);

    man_jump_origins(v, g, p, empty, origins, copy);
    return men_that_can_capture(p, origins) |
           kings_that_can_capture(v, g, p->kings[p->side],
                                  position_pieces(p, side_other(p->side)), empty, copy);
}

/* The number of captures when each is a single jump of a man, or -1 when some capture
 * might be longer or rank above another. Most captures at perft's last ply are of this
 * kind, and counting them takes a few whole-board steps instead of the search.
 *
 * A man landing after its jump in direction d goes on only by a jump in another direction
 * e than back (the piece it just took blocks or may not be taken again). Such a jump
 * neither crosses nor lands on the squares the first jump changed, so it is one of the
 * man jumps of the position as it stands: its landing is in origins[e]. No two single
 * jumps share their man and the piece taken, so none is another's duplicate. A man
 * crowned on landing may go on as a king (promote_mid_capture), and captures of kings may
 * rank above others; both are left to the search. `origins` are those of
 * man_jump_origins, and no king of the side to move has a jump. */
static ALWAYS_INLINE int count_single_man_jumps(const struct variant *v,
                                                const struct geometry *g,
                                                const struct position *p,
                                                const bb_t origins[NUM_DIRS],
                                                const enum copy copy)
{
    enum side s = p->side, o = side_other(s);
    bb_t victims = v->men_capture_kings ? position_pieces(p, o) : p->men[o];
    bb_t crowning = v->promote_mid_capture ? promotion_rank(g, s) : 0;
    int count = 0;

    if ((v->precedence & (PRECEDENCE_MOST_KINGS | PRECEDENCE_KING_FIRST)) &&
        (victims & p->kings[o]))
        return -1;
    for (int d = 0; d < NUM_DIRS; d++) {
        bb_t jumpers = origins[d] & p->men[s];
        bb_t landings =
            step(g, step(g, jumpers, (enum direction)d, copy), (enum direction)d, copy);
        bb_t goes_on = crowning;
        for (int e = 0; e < NUM_DIRS; e++)
            if (e != (int)direction_opposite((enum direction)d))
                goes_on |= origins[e];
        if (landings & goes_on)
            return -1;
        count += bb_count(jumpers);
    }
    return count;
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

/* The men's quiet moves, in the board's order of man directions (forward first), which
 * lists are in. */
static ALWAYS_INLINE void generate_men_quiet(const struct geometry *g, const struct position *p,
                                             struct move_list *list, const enum copy copy)
{
    enum side s = p->side;
    bb_t empty = board_squares(g, copy) & ~position_occupied(p);
    bb_t crown = promotion_rank(g, s);
    int t;

    for (int i = 0; i < num_man_dirs(g, copy); i++) {
        enum direction d = man_dir(g, s, i, copy);
        BB_FOR_EACH(t, step(g, p->men[s], d, copy) & empty)
            add_quiet(list, t - step_shift(g, d, copy), t, (crown & bb_of(t)) != 0);
    }
}

static ALWAYS_INLINE void generate_king_quiet(const struct variant *v, const struct geometry *g,
                                              const struct position *p, struct move_list *list)
{
    bb_t occupied = position_occupied(p);
    int k, t;

    BB_FOR_EACH(k, p->kings[p->side]) {
        for (int d = 0; d < NUM_DIRS; d++)
            BB_FOR_EACH(t, king_quiet_targets(v, g, k, (enum direction)d, occupied))
                add_quiet(list, k, t, false);
    }
}

/* The quiet moves of `kings`: the squares each reaches, counted without listing them. */
static ALWAYS_INLINE int count_king_targets(const struct variant *v, const struct geometry *g,
                                            bb_t kings, bb_t occupied)
{
    int count = 0, k;
    BB_FOR_EACH(k, kings) {
        for (int d = 0; d < NUM_DIRS; d++)
            count += bb_count(king_quiet_targets(v, g, k, (enum direction)d, occupied));
    }
    return count;
}

/* ---- the public entry points ------------------------------------------------------- */

static void list_clear(struct move_list *list)
{
    list->count = 0;
    list->overflow = false;
}

/* Defines NAME_SUFFIX(PARAMS), returning NAME_body(ARGS, copy) with its copy constant. */
#define MOVEGEN_COPY(ret, name, suffix, attributes, copy, params, args)                  \
    attributes static ret name##_##suffix params                                          \
    {                                                                                     \
        return name##_body(CPU_UNPAREN_ args, copy);                                      \
    }

/* Defines NAME_baseline(PARAMS) and the layout copies NAME_diagonal_8_fast ..., and the
 * table NAME_copies of them in the order of enum copy. PARAMS and ARGS are parenthesised
 * lists; the first parameter is the board, which chooses the copy (copy_for). */
#if CPU_DISPATCH
#define MOVEGEN_COPIES(ret, name, params, args)                                           \
    MOVEGEN_COPY(ret, name, baseline, , COPY_BASELINE, params, args)                      \
    MOVEGEN_COPY(ret, name, diagonal_8_fast, CPU_FAST_TARGET, COPY_DIAGONAL_8, params, args) \
    MOVEGEN_COPY(ret, name, diagonal_10_fast, CPU_FAST_TARGET, COPY_DIAGONAL_10, params,   \
                 args)                                                                    \
    MOVEGEN_COPY(ret, name, orthogonal_8_fast, CPU_FAST_TARGET, COPY_ORTHOGONAL_8, params, \
                 args)                                                                    \
    static ret(*const name##_copies[NUM_COPIES]) params = {                               \
        name##_baseline, name##_diagonal_8_fast, name##_diagonal_10_fast,                 \
        name##_orthogonal_8_fast };
#else
#define MOVEGEN_COPIES(ret, name, params, args)                                           \
    MOVEGEN_COPY(ret, name, baseline, , COPY_BASELINE, params, args)                      \
    static ret(*const name##_copies[1]) params = { name##_baseline };
#endif

/* generate_moves in a copy, for the position p with `mover` to move. With list_king_quiet
 * false the kings' quiet moves are counted, not listed; returns how many were left out. */
static ALWAYS_INLINE int generate_moves_of(const struct geometry *g, const struct variant *v,
                                           const struct position *p, unsigned flags,
                                           struct move_list *list, const enum side mover,
                                           const bool list_king_quiet, const enum copy copy)
{
    struct position moving = *p;
    moving.side = mover; /* the same, but a constant for what follows */
    p = &moving;
    bb_t origins[NUM_DIRS];
    bb_t starters = capture_starters(v, g, p, origins, copy);

    list_clear(list);
    if (starters) {
        generate_captures(v, g, p, starters, origins, flags, false, list, copy);
        return 0;
    }
    generate_men_quiet(g, p, list, copy);
    if (!list_king_quiet)
        return count_king_targets(v, g, p->kings[mover], position_occupied(p));
    generate_king_quiet(v, g, p, list);
    return 0;
}

/* generate_moves_of with the side to move a constant: where men go, and which of the
 * position's sets are whose, are then known when compiled. */
static ALWAYS_INLINE int generate_moves_split(const struct geometry *g, const struct variant *v,
                                              const struct position *p, unsigned flags,
                                              struct move_list *list,
                                              const bool list_king_quiet, const enum copy copy)
{
    if (p->side == WHITE)
        return generate_moves_of(g, v, p, flags, list, WHITE, list_king_quiet, copy);
    return generate_moves_of(g, v, p, flags, list, BLACK, list_king_quiet, copy);
}

/* generate_moves in a copy. */
static ALWAYS_INLINE int generate_moves_body(const struct geometry *g,
                                             const struct variant *v,
                                             const struct position *p, unsigned flags,
                                             struct move_list *list, const enum copy copy)
{
    return generate_moves_split(g, v, p, flags, list, true, copy);
}

MOVEGEN_COPIES(int, generate_moves,
               (const struct geometry *g, const struct variant *v, const struct position *p,
                unsigned flags, struct move_list *list),
               (g, v, p, flags, list))

void generate_moves(const struct variant *v, const struct position *p, unsigned flags,
                    struct move_list *list)
{
    const struct geometry *g = v->board();
    generate_moves_copies[copy_for(g)](g, v, p, flags, list);
}

/* generate_moves_but_king_quiet in a copy. */
static ALWAYS_INLINE int generate_moves_but_king_quiet_body(const struct geometry *g,
                                                            const struct variant *v,
                                                            const struct position *p,
                                                            unsigned flags,
                                                            struct move_list *list,
                                                            const enum copy copy)
{
    return generate_moves_split(g, v, p, flags, list, false, copy);
}

MOVEGEN_COPIES(int, generate_moves_but_king_quiet,
               (const struct geometry *g, const struct variant *v, const struct position *p,
                unsigned flags, struct move_list *list),
               (g, v, p, flags, list))

int generate_moves_but_king_quiet(const struct variant *v, const struct position *p,
                                  unsigned flags, struct move_list *list)
{
    const struct geometry *g = v->board();
    return generate_moves_but_king_quiet_copies[copy_for(g)](g, v, p, flags, list);
}

/* has_capture in a copy. */
static ALWAYS_INLINE bool has_capture_body(const struct geometry *g, const struct variant *v,
                                           const struct position *p, const enum copy copy)
{
    bb_t origins[NUM_DIRS];
    return capture_starters(v, g, p, origins, copy) != 0;
}

MOVEGEN_COPIES(bool, has_capture,
               (const struct geometry *g, const struct variant *v, const struct position *p),
               (g, v, p))

bool has_capture(const struct variant *v, const struct position *p)
{
    const struct geometry *g = v->board();
    return has_capture_copies[copy_for(g)](g, v, p);
}

/* count_moves in a copy: counting quiet moves is counting squares. */
static ALWAYS_INLINE int count_moves_body(const struct geometry *g, const struct variant *v,
                                          const struct position *p, unsigned flags,
                                          const enum copy copy)
{
    enum side s = p->side;
    bb_t occupied = position_occupied(p), empty = board_squares(g, copy) & ~occupied;
    bb_t origins[NUM_DIRS];
    bb_t starters = capture_starters(v, g, p, origins, copy);
    unsigned man_dirs = man_dir_mask(g, s, copy);
    int count = 0;

    if (starters) {
        if (!(starters & p->kings[s])) {
            int single = count_single_man_jumps(v, g, p, origins, copy);
            if (single >= 0)
                return single;
        }
        struct move_list list; /* not zeroed: 32 KB on the hottest path */
        list_clear(&list);
        generate_captures(v, g, p, starters, origins, flags, true, &list, copy);
        return list.count;
    }
    /* Over all four directions, so that each step's direction is a constant. */
    for (int d = 0; d < NUM_DIRS; d++)
        if (man_dirs >> d & 1)
            count += bb_count(step(g, p->men[s], (enum direction)d, copy) & empty);
    return count + count_king_targets(v, g, p->kings[s], occupied);
}

MOVEGEN_COPIES(int, count_moves,
               (const struct geometry *g, const struct variant *v, const struct position *p,
                unsigned flags),
               (g, v, p, flags))

int count_moves(const struct variant *v, const struct position *p, unsigned flags)
{
    const struct geometry *g = v->board();
    return count_moves_copies[copy_for(g)](g, v, p, flags);
}

/* count_replies in a copy, for the moves of `mover`, the side to move in p: count_moves
 * inlined with the replying side a constant. */
static ALWAYS_INLINE uint64_t count_replies_of(const struct geometry *g,
                                               const struct variant *v,
                                               const struct position *p,
                                               const struct move_list *list, unsigned flags,
                                               const enum side mover, const enum copy copy)
{
    uint64_t total = 0;
    for (int i = 0; i < list->count; i++) {
        struct position next;
        make_move(p, &list->moves[i], &next);
        next.side = side_other(mover);
        total += (uint64_t)count_moves_body(g, v, &next, flags, copy);
    }
    return total;
}

static ALWAYS_INLINE uint64_t count_replies_body(const struct geometry *g,
                                                 const struct variant *v,
                                                 const struct position *p,
                                                 const struct move_list *list, unsigned flags,
                                                 const enum copy copy)
{
    if (p->side == WHITE)
        return count_replies_of(g, v, p, list, flags, WHITE, copy);
    return count_replies_of(g, v, p, list, flags, BLACK, copy);
}

MOVEGEN_COPIES(uint64_t, count_replies,
               (const struct geometry *g, const struct variant *v, const struct position *p,
                const struct move_list *list, unsigned flags),
               (g, v, p, list, flags))

uint64_t count_replies(const struct variant *v, const struct position *p,
                       const struct move_list *list, unsigned flags)
{
    const struct geometry *g = v->board();
    return count_replies_copies[copy_for(g)](g, v, p, list, flags);
}

/* count_quiet_king_moves in a copy. */
static ALWAYS_INLINE int count_quiet_king_moves_body(const struct geometry *g,
                                                     const struct variant *v,
                                                     const struct position *p,
                                                     const enum copy copy)
{
    bb_t origins[NUM_DIRS];
    if (capture_starters(v, g, p, origins, copy))
        return -1;
    return count_king_targets(v, g, p->kings[p->side], position_occupied(p));
}

MOVEGEN_COPIES(int, count_quiet_king_moves,
               (const struct geometry *g, const struct variant *v, const struct position *p),
               (g, v, p))

int count_quiet_king_moves(const struct variant *v, const struct position *p)
{
    const struct geometry *g = v->board();
    return count_quiet_king_moves_copies[copy_for(g)](g, v, p);
}
