/* The move-limit rule checker (gen/verify.c) against brute force, on small tables built in
 * memory: for every rule checked here, the counts of its report (positions, wins, wins
 * beyond each reading's limit, the longest win) equal counts made here position by
 * position; the forzosa's positions before the count starts (wins_before,
 * convertible_before) equal an attractor computed here over explicit positions; counts
 * reset only by a capture or a promotion equal a distance computed here the same way; and
 * a rule that cannot be answered is reported with its reason.
 *
 * Independent of verify.c and of the index: positions are listed by placing pieces on
 * the board's squares, preconditions are tested on the geometry, limits are hand-worked
 * numbers or reading_plies() (itself checked on hand-worked values), and values come
 * from tableset_value() one position at a time. */
#define _XOPEN_SOURCE 700
#include "tests/probe_util.h"

#include "gen/build.h"
#include "tests/file_util.h"
#include "verify/verify.h"

/* ---- tables ---- */

/* The tables of each variant the tests read, built once in memory (group setup). */
static struct tableset spanish_ts, russian_ts, pool_ts, czech_ts, international_ts;

static struct material parse_material(const struct variant *v, const char *name)
{
    struct material m;
    char err[256];
    if (material_parse(v, name, &m, err, sizeof err) < 0)
        fail_msg("%s: %s", v->name, err);
    return m;
}

/* Every material of 2 to `pieces` pieces, then the named ones (NULL-terminated, or NULL),
 * with what they depend on, into ts (in memory only). */
static void build_tables(struct tableset *ts, const char *variant, int pieces,
                         const char *const *names)
{
    const struct variant *v = test_variant(variant);
    struct material wanted[64];
    struct build_options options = { 0 };
    char err[512];
    int n = 0;
    for (int k = 2; k <= pieces; k++)
        n += material_list(v, k, wanted + n, 64 - n);
    for (; names && *names; names++)
        wanted[n++] = parse_material(v, *names);
    tableset_init(ts, v, NULL);
    if (build_materials(ts, wanted, n, &options, err, sizeof err) < 0)
        fail_msg("%s: %s", variant, err);
}

static int setup(void **state)
{
    (void)state;
    /* the 4-piece tables only where a rule reads them: all kings, so quick to build */
    build_tables(&spanish_ts, "spanish", 3, (const char *const[]){ "KKKvK", NULL });
    build_tables(&russian_ts, "russian", 3, (const char *const[]){ "KKKvK", "KKvKK", NULL });
    build_tables(&pool_ts, "pool", 2, (const char *const[]){ "KKKvK", NULL });
    build_tables(&czech_ts, "czech", 3, NULL);
    build_tables(&international_ts, "international", 3, NULL);
    return 0;
}

static const struct move_limit_rule *rule_named(const struct variant *v, const char *name)
{
    for (const struct move_limit_rule *r = v->move_limits; r->name; r++)
        if (strcmp(r->name, name) == 0)
            return r;
    fail_msg("%s has no move-limit rule called %s", v->name, name);
    return NULL;
}

static int readings_of(const struct move_limit_rule *rule)
{
    return rule->readings[1].limit ? 2 : 1;
}

/* One report at a time, static so that a failed assertion leaks nothing. */
static struct rule_report report_buffer;

/* verify_rule's report, which must come back without an error. */
static struct rule_report *verify(struct tableset *ts, int max_pieces,
                                  const struct move_limit_rule *rule)
{
    char err[512] = "";
    if (verify_rule(ts, max_pieces, rule, &report_buffer, err, sizeof err) != 0)
        fail_msg("%s %s: %s", ts->v->name, rule->name, err);
    return &report_buffer;
}

/* ---- the limits in plies, by hand ---- */

static void test_reading_plies(void **state)
{
    (void)state;
    const struct limit_reading twelve = { 12, UNIT_STRONG_MOVES, "" };
    const struct limit_reading sixteen = { 16, UNIT_MOVES_EACH, "" };
    const struct limit_reading twenty_five = { 25, UNIT_MOVES_EACH, "" };
    const struct limit_reading fifteen_plies = { 15, UNIT_PLIES, "" };
    const struct limit_reading forty_plies = { 40, UNIT_PLIES, "" };

    /* the strong side's 12th move: 12 of its moves and 11 of the other side's between
     * them when it moves first, one more of the other side's when that side does */
    assert_int_equal(reading_plies(&twelve, LIMIT_WIN_WITHIN, true), 23);
    assert_int_equal(reading_plies(&twelve, LIMIT_WIN_WITHIN, false), 24);
    /* "16 moves each" to win: the same count, the strong side's 16th move */
    assert_int_equal(reading_plies(&sixteen, LIMIT_WIN_WITHIN, true), 31);
    assert_int_equal(reading_plies(&sixteen, LIMIT_WIN_WITHIN, false), 32);
    /* 25 moves each without progress: 50 plies whoever moves first */
    assert_int_equal(reading_plies(&twenty_five, LIMIT_NO_PROGRESS, true), 50);
    assert_int_equal(reading_plies(&twenty_five, LIMIT_NO_PROGRESS, false), 50);
    /* plies are plies */
    assert_int_equal(reading_plies(&fifteen_plies, LIMIT_WIN_WITHIN, true), 15);
    assert_int_equal(reading_plies(&fifteen_plies, LIMIT_WIN_WITHIN, false), 15);
    assert_int_equal(reading_plies(&forty_plies, LIMIT_NO_PROGRESS, false), 40);

    /* and back: a win in 23 plies with the strong side to move is its 12th move, in 24
     * plies with the other side to move too, in 25 its 13th */
    assert_int_equal(plies_in_unit(23, UNIT_STRONG_MOVES, true), 12);
    assert_int_equal(plies_in_unit(24, UNIT_STRONG_MOVES, false), 12);
    assert_int_equal(plies_in_unit(25, UNIT_STRONG_MOVES, true), 13);
    assert_int_equal(plies_in_unit(25, UNIT_PLIES, true), 25);

    /* the rules as the variants hold them */
    const struct move_limit_rule *forzosa = rule_named(test_variant("spanish"), "forzosa");
    assert_int_equal(reading_plies(&forzosa->readings[0], forzosa->kind, true), 23);
    assert_int_equal(reading_plies(&forzosa->readings[0], forzosa->kind, false), 24);
    assert_int_equal(reading_plies(&forzosa->readings[1], forzosa->kind, true), 25);
    assert_int_equal(reading_plies(&forzosa->readings[1], forzosa->kind, false), 26);
    const struct move_limit_rule *three = rule_named(test_variant("international"),
                                                     "3 pieces v 1 king");
    assert_int_equal(reading_plies(&three->readings[0], three->kind, true), 31);
    assert_int_equal(reading_plies(&three->readings[0], three->kind, false), 32);
    const struct move_limit_rule *kings = rule_named(test_variant("international"),
                                                     "kings only 25");
    assert_int_equal(reading_plies(&kings->readings[0], kings->kind, true), 50);
    const struct move_limit_rule *plies = rule_named(test_variant("spanish"), "40 plies");
    assert_int_equal(reading_plies(&plies->readings[0], plies->kind, true), 40);
}

/* ---- every position of a material, by placing pieces ---- */

struct placement {
    const struct geometry *g;
    int count;                     /* pieces */
    bool king[MATERIAL_MAX_PIECES];
    enum side side[MATERIAL_MAX_PIECES];
    struct position p;
    void (*visit)(const struct position *p, void *ctx);
    void *ctx;
};

/* Places piece k and those after it: pieces of one kind on increasing squares, so each
 * set of squares comes once; men never on their promotion rank; both sides to move. */
static void place(struct placement *e, int k, int from)
{
    const struct geometry *g = e->g;
    if (k == e->count) {
        for (int side = WHITE; side <= BLACK; side++) {
            e->p.side = (enum side)side;
            e->visit(&e->p, e->ctx);
        }
        return;
    }
    bool same_kind = k > 0 && e->king[k] == e->king[k - 1] && e->side[k] == e->side[k - 1];
    for (int d = same_kind ? from : 0; d < g->num_squares; d++) {
        bb_t square = bb_of(g->square_bit[d]);
        if (square & position_occupied(&e->p))
            continue;
        if (!e->king[k] && (square & promotion_rank(g, e->side[k])))
            continue;
        bb_t *set = e->king[k] ? &e->p.kings[e->side[k]] : &e->p.men[e->side[k]];
        *set |= square;
        place(e, k + 1, d + 1);
        *set &= ~square;
    }
}

static void for_each_position(const struct variant *v, const struct material *m,
                              void (*visit)(const struct position *, void *), void *ctx)
{
    struct placement e = { .g = v->board(), .visit = visit, .ctx = ctx };
    for (int side = WHITE; side <= BLACK; side++) {
        for (int k = 0; k < m->kings[side]; k++) {
            e.king[e.count] = true;
            e.side[e.count++] = (enum side)side;
        }
        for (int k = 0; k < m->men[side]; k++) {
            e.king[e.count] = false;
            e.side[e.count++] = (enum side)side;
        }
    }
    place(&e, 0, 0);
}

/* ---- preconditions, on the geometry ---- */

static bool on_main_diagonal(const struct geometry *g, bb_t squares)
{
    int bit;
    BB_FOR_EACH(bit, squares)
        if (g->file_of[bit] == g->rank_of[bit])
            return true;
    return false;
}

/* White is the strong side (the canonical material). */
static bool precondition_met(const struct variant *v, const struct precondition *c,
                             const struct position *p)
{
    const struct geometry *g = v->board();
    if (c->strong_king_on_main_diagonal && !on_main_diagonal(g, p->kings[WHITE]))
        return false;
    if (c->lone_king_on_main_diagonal && !on_main_diagonal(g, p->kings[BLACK]))
        return false;
    if (c->strong_man_square &&
        !(p->men[WHITE] & bb_of(square_from_number(v, c->strong_man_square))))
        return false;
    if (c->weak_man_square &&
        !(p->men[BLACK] & bb_of(square_from_number(v, c->weak_man_square))))
        return false;
    return true;
}

/* ---- no progress, reset only by a capture or a promotion: a distance, by brute force ---- */

/* Every position of one material, both sides to move, with its distance: for a won
 * position the fewest plies its winner needs until a capture or a promotion, keeping to
 * winning moves; for a lost one the most plies its loser can delay that (0 when it has no
 * move). Found level by level over the explicit positions and their moves; a move that
 * leaves the material is a capture or a promotion. */
struct distances {
    struct material m;
    uint32_t count, capacity;
    struct position *pos;
    int *dist;              /* -1 for a draw */
    uint32_t *slots, mask;  /* open addressing: a position -> its number + 1 */
};

#define NOT_FOUND UINT32_MAX
#define RESETS UINT32_MAX   /* a move that captures or promotes */

static uint64_t position_hash(const struct position *p)
{
    uint64_t h = p->side + 1;
    const bb_t parts[4] = { p->men[WHITE], p->men[BLACK], p->kings[WHITE], p->kings[BLACK] };
    for (int k = 0; k < 4; k++) {
        h = (h ^ parts[k]) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 31;
    }
    return h;
}

static uint32_t distances_find(const struct distances *d, const struct position *p)
{
    for (uint64_t h = position_hash(p);; h++) {
        uint32_t slot = d->slots[h & d->mask];
        if (slot == 0)
            return NOT_FOUND;
        if (position_equal(&d->pos[slot - 1], p))
            return slot - 1;
    }
}

static void distances_add(const struct position *p, void *ctx)
{
    struct distances *d = ctx;
    if (d->count == d->capacity) {
        d->capacity = d->capacity ? 2 * d->capacity : 4096;
        d->pos = realloc(d->pos, d->capacity * sizeof *d->pos);
        assert_non_null(d->pos);
    }
    d->pos[d->count++] = *p;
}

static void distances_free(struct distances *d)
{
    free(d->pos);
    free(d->dist);
    free(d->slots);
}

static void distances_solve(struct distances *d, const struct tableset *ts,
                            const struct material *m)
{
    const struct variant *v = ts->v;
    struct move_list *list = malloc(sizeof *list);
    uint32_t *edges = NULL, *first, *pending;
    size_t num_edges = 0, edge_capacity = 0;
    uint8_t *won;
    memset(d, 0, sizeof *d);
    d->m = *m;
    for_each_position(v, m, distances_add, d);

    uint32_t n = d->count;
    d->mask = 1;
    while (d->mask < 2 * n)
        d->mask *= 2;
    d->slots = calloc(d->mask, sizeof *d->slots);
    d->mask--;
    d->dist = malloc(n * sizeof *d->dist);
    first = malloc((n + 1) * sizeof *first);
    pending = malloc(n * sizeof *pending);
    won = malloc(n);
    assert_true(list && d->slots && d->dist && first && pending && won);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t h = position_hash(&d->pos[i]);
        while (d->slots[h & d->mask])
            h++;
        d->slots[h & d->mask] = i + 1;
    }

    /* the moves the distance follows: the winner's winning ones, all of the loser's */
    uint32_t num_pending = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct position *p = &d->pos[i];
        dtm_t value;
        first[i] = (uint32_t)num_edges;
        d->dist[i] = -1;
        assert_int_equal(tableset_value(ts, p, &value, NULL), 0);
        if (value == DTM_DRAW)
            continue;
        won[i] = dtm_is_win(value);
        generate_moves(v, p, 0, list);
        if (list->count == 0) {
            assert_false(won[i]);
            d->dist[i] = 0;
            continue;
        }
        pending[num_pending++] = i;
        for (int k = 0; k < list->count; k++) {
            struct position child;
            dtm_t after;
            make_move(p, &list->moves[k], &child);
            assert_int_equal(tableset_value(ts, &child, &after, NULL), 0);
            if (won[i] && !dtm_is_loss(after))
                continue;
            struct material cm = material_of(&child);
            uint32_t to = RESETS;
            if (material_equal(&cm, m)) {
                to = distances_find(d, &child);
                assert_int_not_equal(to, NOT_FOUND);
            }
            if (num_edges == edge_capacity) {
                edge_capacity = edge_capacity ? 2 * edge_capacity : 1 << 16;
                edges = realloc(edges, edge_capacity * sizeof *edges);
                assert_non_null(edges);
            }
            edges[num_edges++] = to;
        }
    }
    first[n] = (uint32_t)num_edges;

    /* level by level: what level L settles uses only distances below L */
    for (int level = 1; num_pending > 0; level++) {
        uint32_t left = 0;
        for (uint32_t k = 0; k < num_pending; k++) {
            uint32_t i = pending[k];
            int best = -1, worst = 0;
            bool all = true;
            for (uint32_t e = first[i]; e < first[i + 1]; e++) {
                uint32_t to = edges[e];
                int plies = to == RESETS ? 1
                            : d->dist[to] >= 0 && d->dist[to] < level ? 1 + d->dist[to]
                                                                     : -1;
                if (plies < 0)
                    all = false;
                else if (best < 0 || plies < best)
                    best = plies;
                if (plies > worst)
                    worst = plies;
            }
            if (won[i] && best >= 0) {
                assert_int_equal(best, level);
                d->dist[i] = level;
            } else if (!won[i] && all) {
                assert_int_equal(worst, level);
                d->dist[i] = level;
            } else {
                pending[left++] = i;
            }
        }
        if (left == num_pending)
            fail_msg("%d positions of a material never reach a capture or promotion",
                     (int)left);
        num_pending = left;
    }
    free(list);
    free(edges);
    free(first);
    free(pending);
    free(won);
}

/* ---- counts, position by position ---- */

struct brute_count {
    uint64_t positions, wins, beyond[MAX_READINGS];
    int longest_plies; /* -1 without wins */
    /* must-win-within rules: the wins by plies (longer ones share the last entry), the
     * lone side's wins */
    uint64_t by_plies[WIN_PLIES_MAX], lone_wins;
};

struct brute {
    const struct variant *v;
    const struct tableset *ts;
    const struct move_limit_rule *rule;
    struct distances *distances; /* a no-progress rule reset by a capture or promotion */
    struct brute_count count[2]; /* by side to move */
};

/* The plies of the win a rule counts in p, or -1 when p is not such a win: for a
 * must-win-within rule the DTM of a win by the strong side (White) whoever is to move,
 * for a no-progress rule the MTC of a win by the side to move, or its distance to a
 * capture or promotion when only those reset the count. */
static int win_plies(const struct brute *b, const struct position *p)
{
    dtm_t dtm;
    mtc_t mtc;
    if (tableset_value(b->ts, p, &dtm, &mtc) != 0) {
        char fen[FEN_SIZE];
        fen_print(b->v, p, fen);
        fail_msg("%s: no value for %s", b->v->name, fen);
    }
    if (b->rule->kind == LIMIT_NO_PROGRESS) {
        if (!dtm_is_win(dtm))
            return -1;
        if (b->distances) {
            uint32_t i = distances_find(b->distances, p);
            assert_int_not_equal(i, NOT_FOUND);
            assert_true(b->distances->dist[i] > 0);
            return b->distances->dist[i];
        }
        assert_int_not_equal(mtc, MTC_NONE);
        return mtc_plies(mtc);
    }
    bool strong_wins = p->side == WHITE ? dtm_is_win(dtm) : dtm_is_loss(dtm);
    return strong_wins ? dtm_plies(dtm) : -1;
}

static void count_position(const struct position *p, void *ctx)
{
    struct brute *b = ctx;
    struct brute_count *c = &b->count[p->side];
    if (!precondition_met(b->v, &b->rule->precondition, p))
        return;
    c->positions++;
    int plies = win_plies(b, p);
    if (b->rule->kind == LIMIT_WIN_WITHIN && plies < 0) {
        dtm_t dtm;
        mtc_t mtc;
        assert_int_equal(tableset_value(b->ts, p, &dtm, &mtc), 0);
        c->lone_wins += p->side == WHITE ? dtm_is_loss(dtm) : dtm_is_win(dtm);
    }
    if (plies < 0)
        return;
    c->wins++;
    if (b->rule->kind == LIMIT_WIN_WITHIN)
        c->by_plies[plies < WIN_PLIES_MAX ? plies : WIN_PLIES_MAX - 1]++;
    if (plies > c->longest_plies)
        c->longest_plies = plies;
    for (int k = 0; k < readings_of(b->rule); k++)
        if (plies > reading_plies(&b->rule->readings[k], b->rule->kind, p->side == WHITE))
            c->beyond[k]++;
}

/* The distances of the last material counted, kept in a static so that a failed
 * assertion leaks nothing; freed by the next count, by brute_free and by teardown. */
static struct distances distances_held;

static void distances_release(void)
{
    distances_free(&distances_held);
    memset(&distances_held, 0, sizeof distances_held);
}

/* Counts the positions of m for the rule (brute_free it). */
static void brute_count(const struct tableset *ts, const struct move_limit_rule *rule,
                        const struct material *m, struct brute *b)
{
    memset(b, 0, sizeof *b);
    b->v = ts->v;
    b->ts = ts;
    b->rule = rule;
    b->count[WHITE].longest_plies = b->count[BLACK].longest_plies = -1;
    if (rule->kind == LIMIT_NO_PROGRESS && rule->reset == RESET_CAPTURE_OR_PROMOTION) {
        distances_release();
        distances_solve(&distances_held, ts, m);
        b->distances = &distances_held;
    }
    for_each_position(ts->v, m, count_position, b);
}

static void brute_free(struct brute *b)
{
    if (b->distances)
        distances_release();
    b->distances = NULL;
}

/* A win in `plies` in a unit, counted by hand: the moves of the side that wins among
 * them when `winner_moves_first`, else those of the side that moves second. */
static int plies_as_unit(int plies, enum limit_unit unit, bool winner_moves_first)
{
    if (unit == UNIT_PLIES)
        return plies;
    return winner_moves_first ? (plies + 1) / 2 : plies / 2;
}

static const struct rule_result *find_result(const struct rule_report *report,
                                             const char *ending, bool strong_to_move,
                                             int reading)
{
    const struct rule_result *found = NULL;
    for (int k = 0; k < report->num_results; k++) {
        const struct rule_result *r = &report->results[k];
        if (strcmp(r->ending, ending) == 0 && r->strong_to_move == strong_to_move &&
            r->reading == reading) {
            if (found)
                fail_msg("%s: two results for %s, %s to move, reading %d",
                         report->rule->name, ending, strong_to_move ? "White" : "Black",
                         reading);
            found = r;
        }
    }
    if (!found)
        fail_msg("%s: no result for %s, %s to move, reading %d", report->rule->name, ending,
                 strong_to_move ? "White" : "Black", reading);
    return found;
}

/* The example of the longest win is such a position. */
static void check_example(const struct brute *b, const struct material *m, enum side side,
                          const struct rule_result *r)
{
    const struct variant *v = b->v;
    struct position p = test_position(v, r->example_fen);
    struct material got = material_of(&p);
    assert_true(material_equal(&got, m));
    assert_int_equal(p.side, side);
    assert_true(precondition_met(v, &b->rule->precondition, &p));
    assert_int_equal(win_plies(b, &p), r->longest_plies);
}

/* A must-win-within rule's wins by their plies, which say how many a count already
 * running when this one starts leaves in time (wins_within), the lone side's wins, and
 * the longest win in time, the first such a count turns into a draw. */
static void check_by_plies(const struct brute *b, const struct material *m, enum side side,
                           const struct rule_result *r)
{
    const struct brute_count *c = &b->count[side];
    uint64_t within = 0;
    int limit = reading_plies(&b->rule->readings[r->reading], b->rule->kind, side == WHITE);
    int longest_in_time = -1;
    assert_int_equal(r->lone_wins, c->lone_wins);
    for (int plies = 0; plies < WIN_PLIES_MAX; plies++) {
        within += c->by_plies[plies];
        assert_int_equal(wins_within(r, plies), within);
        if (c->by_plies[plies] && plies <= limit)
            longest_in_time = plies;
    }
    assert_int_equal(r->longest_in_time_plies, longest_in_time);
    if (longest_in_time < 0) {
        assert_string_equal(r->in_time_fen, "");
        return;
    }
    struct position p = test_position(b->v, r->in_time_fen);
    struct material got = material_of(&p);
    assert_true(material_equal(&got, m));
    assert_int_equal(p.side, side);
    assert_int_equal(win_plies(b, &p), longest_in_time);
}

#define EQUAL_COUNT(what, mine, theirs)                                                  \
    do {                                                                                 \
        if ((uint64_t)(mine) != (uint64_t)(theirs))                                      \
            fail_msg("%s %s, %s, %s to move, reading %d: %s %llu by brute force, %llu "  \
                     "in the report", v->name, rule->name, name, side == WHITE ? "White" \
                     : "Black", k, what, (unsigned long long)(mine),                     \
                     (unsigned long long)(theirs));                                      \
    } while (0)

/* Checks the report of a rule over tables of up to max_pieces pieces against brute force
 * on each of the materials it should cover (NULL-terminated names; NULL: every material
 * of up to max_pieces pieces). */
static void check_rule_counts(struct tableset *ts, const struct move_limit_rule *rule,
                              int max_pieces, const char *const *names)
{
    const struct variant *v = ts->v;
    struct material materials[64];
    int n = 0;
    if (names)
        for (; *names; names++)
            materials[n++] = parse_material(v, *names);
    else
        for (int k = 2; k <= max_pieces; k++)
            n += material_list(v, k, materials + n, 64 - n);

    struct rule_report *report = verify(ts, max_pieces, rule);
    if (report->status != RULE_CHECKED)
        fail_msg("%s %s: status %d: %s", v->name, rule->name, report->status,
                 report->message);
    assert_int_equal(report->num_results, n * 2 * readings_of(rule));

    for (int i = 0; i < n; i++) {
        char name[MATERIAL_NAME_SIZE];
        struct brute b;
        material_name(&materials[i], name);
        brute_count(ts, rule, &materials[i], &b);
        for (int side = WHITE; side <= BLACK; side++) {
            const struct brute_count *c = &b.count[side];
            for (int k = 0; k < readings_of(rule); k++) {
                const struct rule_result *r = find_result(report, name, side == WHITE, k);
                /* no-progress rules: the side to move is the one that wins */
                bool winner_first = rule->kind == LIMIT_NO_PROGRESS || side == WHITE;
                print_message("%s %s, %s, %s to move, %d %s: %llu positions, %llu wins, "
                              "%llu beyond the limit, longest %d plies\n", v->name, rule->name,
                              name, side == WHITE ? "White" : "Black", rule->readings[k].limit,
                              unit_words(rule->readings[k].unit),
                              (unsigned long long)c->positions, (unsigned long long)c->wins,
                              (unsigned long long)c->beyond[k], c->longest_plies);
                EQUAL_COUNT("positions", c->positions, r->positions);
                EQUAL_COUNT("wins", c->wins, r->wins);
                EQUAL_COUNT("wins beyond the limit", c->beyond[k], r->wins_beyond_limit);
                assert_int_equal(r->longest_plies, c->longest_plies);
                if (c->wins == 0) {
                    assert_int_equal(r->longest, -1);
                    assert_string_equal(r->example_fen, "");
                } else {
                    int unit = plies_as_unit(c->longest_plies, rule->readings[k].unit,
                                             winner_first);
                    if (r->longest != unit)
                        fail_msg("%s %s, %s, %s to move, reading %d: the longest win, %d "
                                 "plies, is %d %s, the report says %d", v->name, rule->name,
                                 name, side == WHITE ? "White" : "Black", k, c->longest_plies,
                                 unit, unit_words(rule->readings[k].unit), r->longest);
                    check_example(&b, &materials[i], (enum side)side, r);
                }
                check_by_plies(&b, &materials[i], (enum side)side, r);
                if (!rule->counts_from_precondition) {
                    assert_int_equal(r->wins_before, 0);
                    assert_int_equal(r->convertible_before, 0);
                }
            }
        }
        brute_free(&b);
    }
}

/* The same for the variant's rule named rule_name. */
static void check_rule(struct tableset *ts, const char *rule_name, int max_pieces,
                       const char *const *names)
{
    check_rule_counts(ts, rule_named(ts->v, rule_name), max_pieces, names);
}

/* ---- must win within N ---- */

static void test_spanish_forzosa(void **state)
{
    (void)state;
    const struct variant *v = spanish_ts.v;
    const struct move_limit_rule *rule = rule_named(v, "forzosa");
    struct material m = parse_material(v, "KKKvK");
    struct brute b;
    brute_count(&spanish_ts, rule, &m, &b);
    /* by hand: three white kings not all off the 8 squares of the main diagonal, the
     * black king on any of the 29 squares left */
    uint64_t on_diagonal = (32 * 31 * 30 / 6 - 24 * 23 * 22 / 6) * 29;
    assert_int_equal(b.count[WHITE].positions, on_diagonal);
    assert_int_equal(b.count[BLACK].positions, on_diagonal);
    check_rule(&spanish_ts, "forzosa", 4, (const char *const[]){ "KKKvK", NULL });
}

static void test_russian_three_kings(void **state)
{
    (void)state;
    const struct variant *v = russian_ts.v;
    struct material m = parse_material(v, "KKKvK");
    struct brute b;
    brute_count(&russian_ts, rule_named(v, "3 kings v 1"), &m, &b);
    assert_int_equal(b.count[WHITE].positions, 32 * 31 * 30 / 6 * 29);
    check_rule(&russian_ts, "3 kings v 1", 4, (const char *const[]){ "KKKvK", NULL });
}

static void test_russian_main_road(void **state)
{
    (void)state;
    const struct variant *v = russian_ts.v;
    struct material m = parse_material(v, "KKKvK");
    struct brute b;
    brute_count(&russian_ts, rule_named(v, "main road"), &m, &b);
    /* the black king on one of the 8 squares of a1-h8, the white kings on the 31 left */
    assert_int_equal(b.count[BLACK].positions, 8 * (31 * 30 * 29 / 6));
    check_rule(&russian_ts, "main road", 4, (const char *const[]){ "KKKvK", NULL });
}

static void test_russian_two_pieces(void **state)
{
    (void)state;
    check_rule(&russian_ts, "2 pieces v 1 king", 4,
               (const char *const[]){ "KvK", "KKvK", "KMvK", NULL });
}

static void test_pool_three_kings(void **state)
{
    (void)state;
    check_rule(&pool_ts, "3 kings v 1", 4, (const char *const[]){ "KKKvK", NULL });
}

static void test_international_two_pieces(void **state)
{
    (void)state;
    const struct variant *v = international_ts.v;
    struct material m = parse_material(v, "KMvK");
    struct brute b;
    brute_count(&international_ts, rule_named(v, "2 pieces v 1 king"), &m, &b);
    /* the man off White's last rank (45 squares), then the kings on 49 and 48 */
    assert_int_equal(b.count[WHITE].positions, 45 * 49 * 48);
    check_rule(&international_ts, "2 pieces v 1 king", 3,
               (const char *const[]){ "KvK", "KKvK", "KMvK", NULL });
}

/* ---- no progress: MTC ---- */

static void test_russian_kings_only(void **state)
{
    (void)state;
    check_rule(&russian_ts, "kings only 15", 4,
               (const char *const[]){ "KvK", "KKvK", "KKKvK", "KKvKK", NULL });
}

static void test_international_kings_only(void **state)
{
    (void)state;
    check_rule(&international_ts, "kings only 25", 3,
               (const char *const[]){ "KvK", "KKvK", NULL });
}

static void test_czech_fifteen_moves(void **state)
{
    (void)state;
    check_rule(&czech_ts, "15 moves", 3, NULL);
}

static void test_spanish_forty_plies(void **state)
{
    (void)state;
    check_rule(&spanish_ts, "40 plies", 3, NULL);
}

/* Limits far below the longest wins, so that many wins go beyond them: made-up rules. */
static void test_tight_limits(void **state)
{
    (void)state;
    const struct move_limit_rule kings_only = {
        .name = "kings only, tight",
        .words = "Kings only: a draw after 2 moves each (or 3 plies) without progress.",
        .ending = { .kind = ENDING_KINGS_ONLY, .words = "kings only" },
        .kind = LIMIT_NO_PROGRESS, .reset = RESET_CAPTURE_OR_MAN_MOVE,
        .readings = { { 2, UNIT_MOVES_EACH, "this test" }, { 3, UNIT_PLIES, "this test" } },
    };
    check_rule_counts(&russian_ts, &kings_only, 4,
                      (const char *const[]){ "KvK", "KKvK", "KKKvK", "KKvKK", NULL });
    const struct move_limit_rule any = {
        .name = "every ending, tight",
        .words = "A draw after 1 move each (or 1 ply) without progress.",
        .ending = { .kind = ENDING_ANY, .words = "every ending" },
        .kind = LIMIT_NO_PROGRESS, .reset = RESET_CAPTURE_OR_MAN_MOVE,
        .readings = { { 1, UNIT_MOVES_EACH, "this test" }, { 1, UNIT_PLIES, "this test" } },
    };
    check_rule_counts(&spanish_ts, &any, 3, NULL);
    const struct move_limit_rule win = {
        .name = "kings v 1, tight",
        .words = "One to three kings against a king must win within 3 moves (or 4 plies).",
        .ending = { .kind = ENDING_VS_LONE_KING, .min_pieces = 1, .max_pieces = 3,
                    .min_kings = 1, .max_men = 0, .words = "1 to 3 kings against 1 king" },
        .kind = LIMIT_WIN_WITHIN,
        .readings = { { 3, UNIT_STRONG_MOVES, "this test" }, { 4, UNIT_PLIES, "this test" } },
    };
    check_rule_counts(&russian_ts, &win, 4,
                      (const char *const[]){ "KvK", "KKvK", "KKKvK", NULL });
}

/* ---- the forzosa before the count starts: an attractor over explicit positions ---- */

/* Spanish KKKvK, White the strong side: positions keyed by the dense squares of the three
 * white kings (in increasing order) and of the black king. */
#define SQUARES 32
#define KEYS (SQUARES * SQUARES * SQUARES * SQUARES)

/* Where a move leads, for the strong side: */
#define EDGE_WIN UINT32_MAX          /* the black king taken, or Black left without a move */
#define EDGE_LOSE (UINT32_MAX - 1)   /* a white king taken, or White without a move */
#define EDGE_STARTS ((uint32_t)1 << 30) /* into the precondition: the count starts */

static uint32_t key_of(const struct geometry *g, const struct position *p)
{
    int w[3], n = 0, bit;
    BB_FOR_EACH(bit, p->kings[WHITE])
        w[n++] = g->dense_of[bit];
    assert_int_equal(n, 3);
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (w[j] < w[i]) {
                int t = w[i];
                w[i] = w[j];
                w[j] = t;
            }
    int black = g->dense_of[bb_first(p->kings[BLACK])];
    return (uint32_t)(((w[0] * SQUARES + w[1]) * SQUARES + w[2]) * SQUARES + black);
}

struct forzosa {
    const struct variant *v;
    const struct tableset *ts;
    const struct precondition *pre;
    /* the positions before the count, per side to move, and their moves */
    uint32_t count[2];
    struct position *pos[2];
    uint32_t *key[2];       /* key_of(pos[side][i]) */
    uint32_t *first[2];     /* moves of pos[side][i]: edges[first[i] .. first[i + 1]) */
    uint32_t *edges;        /* a key (| EDGE_STARTS), EDGE_WIN or EDGE_LOSE */
    size_t num_edges, capacity;
    dtm_t *dtm[2];          /* by key, for the positions the count starts in */
};

static void add_edge(struct forzosa *f, uint32_t edge)
{
    if (f->num_edges == f->capacity) {
        f->capacity = f->capacity ? 2 * f->capacity : 1 << 20;
        f->edges = realloc(f->edges, f->capacity * sizeof *f->edges);
        assert_non_null(f->edges);
    }
    f->edges[f->num_edges++] = edge;
}

static void collect(const struct position *p, void *ctx)
{
    struct forzosa *f = ctx;
    const struct geometry *g = f->v->board();
    dtm_t dtm;
    assert_int_equal(tableset_value(f->ts, p, &dtm, NULL), 0);
    f->dtm[p->side][key_of(g, p)] = dtm;
    if (precondition_met(f->v, f->pre, p))
        return;
    f->key[p->side][f->count[p->side]] = key_of(g, p);
    f->pos[p->side][f->count[p->side]++] = *p;
}

static void expand(struct forzosa *f, enum side side)
{
    const struct geometry *g = f->v->board();
    struct move_list *list = malloc(sizeof *list);
    assert_non_null(list);
    f->first[side] = malloc(((size_t)f->count[side] + 1) * sizeof *f->first[side]);
    assert_non_null(f->first[side]);
    for (uint32_t i = 0; i < f->count[side]; i++) {
        const struct position *p = &f->pos[side][i];
        f->first[side][i] = (uint32_t)f->num_edges;
        generate_moves(f->v, p, 0, list);
        if (list->count == 0)
            add_edge(f, side == BLACK ? EDGE_WIN : EDGE_LOSE);
        for (int k = 0; k < list->count; k++) {
            struct position child;
            make_move(p, &list->moves[k], &child);
            if (!child.kings[BLACK])
                add_edge(f, EDGE_WIN);
            else if (bb_count(child.kings[WHITE]) < 3)
                add_edge(f, EDGE_LOSE);
            else
                add_edge(f, key_of(g, &child) |
                                (precondition_met(f->v, f->pre, &child) ? EDGE_STARTS : 0));
        }
    }
    f->first[side][f->count[side]] = (uint32_t)f->num_edges;
    free(list);
}

/* Whether a move (edge) into a position with `to_move` to move is good for White. */
static bool good(const struct forzosa *f, uint32_t edge, enum side to_move,
                 const int limit[2], uint8_t *const in[2])
{
    if (edge == EDGE_WIN)
        return true;
    if (edge == EDGE_LOSE)
        return false;
    uint32_t key = edge & ~EDGE_STARTS;
    if (edge & EDGE_STARTS) {
        dtm_t d = f->dtm[to_move][key];
        bool white_wins = to_move == WHITE ? dtm_is_win(d) : dtm_is_loss(d);
        return white_wins && dtm_plies(d) <= limit[to_move];
    }
    return in[to_move][key];
}

/* The positions before the count from which White forces a start it wins in time: plain
 * value iteration up to the fixed point. */
static void attractor(const struct forzosa *f, const int limit[2], uint8_t *const in[2])
{
    bool changed = true;
    memset(in[WHITE], 0, KEYS);
    memset(in[BLACK], 0, KEYS);
    while (changed) {
        changed = false;
        for (int side = WHITE; side <= BLACK; side++)
            for (uint32_t i = 0; i < f->count[side]; i++) {
                uint32_t key = f->key[side][i];
                if (in[side][key])
                    continue;
                bool any = false, all = true;
                for (uint32_t e = f->first[side][i]; e < f->first[side][i + 1]; e++) {
                    bool ok = good(f, f->edges[e], side_other((enum side)side), limit, in);
                    any |= ok;
                    all &= ok;
                }
                if (side == WHITE ? any : all) {
                    in[side][key] = 1;
                    changed = true;
                }
            }
    }
}

static void test_spanish_forzosa_before(void **state)
{
    (void)state;
    const struct variant *v = spanish_ts.v;
    const struct geometry *g = v->board();
    const struct move_limit_rule *rule = rule_named(v, "forzosa");
    struct material m = parse_material(v, "KKKvK");
    struct forzosa f = { .v = v, .ts = &spanish_ts, .pre = &rule->precondition };
    uint32_t all = 32 * 31 * 30 / 6 * 29;
    uint8_t *in[2];

    assert_int_equal(g->num_squares, SQUARES);
    for (int side = WHITE; side <= BLACK; side++) {
        f.pos[side] = malloc(all * sizeof *f.pos[side]);
        f.key[side] = malloc(all * sizeof *f.key[side]);
        f.dtm[side] = calloc(KEYS, sizeof *f.dtm[side]);
        in[side] = malloc(KEYS);
        assert_true(f.pos[side] && f.key[side] && f.dtm[side] && in[side]);
    }
    for_each_position(v, &m, collect, &f);
    /* by hand: no white king on the 8 squares of the main diagonal */
    assert_int_equal(f.count[WHITE], 24 * 23 * 22 / 6 * 29);
    assert_int_equal(f.count[BLACK], 24 * 23 * 22 / 6 * 29);
    expand(&f, WHITE);
    expand(&f, BLACK);

    struct rule_report *report = verify(&spanish_ts, 4, rule);
    assert_int_equal(report->status, RULE_CHECKED);
    for (int k = 0; k < readings_of(rule); k++) {
        const int limit[2] = { reading_plies(&rule->readings[k], LIMIT_WIN_WITHIN, true),
                               reading_plies(&rule->readings[k], LIMIT_WIN_WITHIN, false) };
        attractor(&f, limit, in);
        for (int side = WHITE; side <= BLACK; side++) {
            uint64_t wins = 0, convertible = 0;
            for (uint32_t i = 0; i < f.count[side]; i++) {
                uint32_t key = f.key[side][i];
                dtm_t d = f.dtm[side][key];
                bool white_wins = side == WHITE ? dtm_is_win(d) : dtm_is_loss(d);
                wins += white_wins;
                if (in[side][key]) {
                    if (!white_wins) {
                        char fen[FEN_SIZE];
                        fen_print(v, &f.pos[side][i], fen);
                        fail_msg("forzosa reading %d: %s converts but is not a win", k, fen);
                    }
                    convertible++;
                }
            }
            const struct rule_result *r = find_result(report, "KKKvK", side == WHITE, k);
            print_message("forzosa, %d moves, %s to move: %llu wins before the count, %llu "
                          "convertible (report: %llu, %llu)\n", rule->readings[k].limit,
                          side == WHITE ? "White" : "Black", (unsigned long long)wins,
                          (unsigned long long)convertible,
                          (unsigned long long)r->wins_before,
                          (unsigned long long)r->convertible_before);
            assert_int_equal(r->wins_before, wins);
            assert_int_equal(r->convertible_before, convertible);
            assert_true(r->convertible_before <= r->wins_before);
        }
    }
    for (int side = WHITE; side <= BLACK; side++) {
        free(f.pos[side]);
        free(f.key[side]);
        free(f.first[side]);
        free(f.dtm[side]);
        free(in[side]);
    }
    free(f.edges);
}

/* ---- rules that cannot be answered are reported, not skipped ---- */

static void test_needs_pieces(void **state)
{
    (void)state;
    /* three kings against one: 4 pieces, with tables of 3 */
    struct rule_report *report =
        verify(&russian_ts, 3, rule_named(russian_ts.v, "3 kings v 1"));
    assert_int_equal(report->status, RULE_NEEDS_PIECES);
    assert_int_equal(report->num_results, 0);
    assert_non_null(strstr(report->message, "4 pieces"));

    report = verify(&international_ts, 3,
                    rule_named(international_ts.v, "3 pieces v 1 king"));
    assert_int_equal(report->status, RULE_NEEDS_PIECES);
    assert_non_null(strstr(report->message, "4 pieces"));
}

static void test_no_position(void **state)
{
    (void)state;
    /* a man on square 1 in an ending without men */
    const struct move_limit_rule rule = {
        .name = "impossible",
        .words = "A king against a king with a man on 1 must win within 5 moves.",
        .ending = { .kind = ENDING_MATERIAL, .material = "KvK",
                    .words = "a king against a king" },
        .precondition = { .strong_man_square = 1, .words = "a strong man on 1" },
        .kind = LIMIT_WIN_WITHIN,
        .readings = { { 5, UNIT_STRONG_MOVES, "this test" } },
    };
    struct rule_report *report = verify(&russian_ts, 4, &rule);
    assert_int_equal(report->status, RULE_NO_POSITION);
    assert_non_null(strstr(report->message, "a king against a king"));
    assert_non_null(strstr(report->message, "a strong man on 1"));
    for (int k = 0; k < report->num_results; k++)
        assert_int_equal(report->results[k].positions, 0);
}

/* Counts reset only by a capture or a promotion (a man's step goes on counting): made-up
 * rules over the russian endings with men that the tables here hold, with the limits of
 * "kings 30" and tight ones. */
static void test_capture_or_promotion(void **state)
{
    (void)state;
    const struct move_limit_rule *kings_30 = rule_named(russian_ts.v, "kings 30");
    assert_int_equal(kings_30->reset, RESET_CAPTURE_OR_PROMOTION);
    struct move_limit_rule three = *kings_30;
    three.name = "kings 30, 3 pieces";
    three.ending.min_total = three.ending.max_total = 3;
    three.ending.words = "both sides with kings, 3 pieces";
    check_rule_counts(&russian_ts, &three, 4, (const char *const[]){ "KKvK", "KMvK", NULL });
    const struct move_limit_rule tight = {
        .name = "tight, capture or promotion",
        .words = "A draw after 2 moves each (or 3 plies) without a capture or promotion.",
        .ending = { .kind = ENDING_ANY, .max_total = 3, .words = "up to 3 pieces" },
        .kind = LIMIT_NO_PROGRESS, .reset = RESET_CAPTURE_OR_PROMOTION,
        .readings = { { 2, UNIT_MOVES_EACH, "this test" }, { 3, UNIT_PLIES, "this test" } },
    };
    check_rule_counts(&russian_ts, &tight, 3, NULL);
    check_rule_counts(&spanish_ts, &tight, 3, NULL);

    /* the saque de peon's precondition (a king on the main diagonal, men on 2 and 9) with
     * one king fewer on each side, so that it fits in 3 pieces */
    struct move_limit_rule saque = *rule_named(spanish_ts.v, "saque de peon");
    saque.name = "saque de peon, 3 pieces";
    saque.ending.material = "KMvM";
    saque.ending.words = "a king and a man against a man";
    struct brute b;
    struct material m = parse_material(spanish_ts.v, "KMvM");
    brute_count(&spanish_ts, &saque, &m, &b);
    assert_true(b.count[WHITE].positions > 0 && b.count[WHITE].wins > 0);
    brute_free(&b);
    check_rule_counts(&spanish_ts, &saque, 3, (const char *const[]){ "KMvM", NULL });
}

/* Rules whose endings have more pieces than the tables, or whose tables are missing, are
 * reported as such: not an empty report. */
static void test_capture_or_promotion_reported(void **state)
{
    (void)state;
    struct rule_report *report = verify(&spanish_ts, 4, rule_named(spanish_ts.v,
                                                                   "saque de peon"));
    assert_int_equal(report->status, RULE_NEEDS_PIECES);
    assert_non_null(strstr(report->message, "5 pieces"));
    report = verify(&russian_ts, 4, rule_named(russian_ts.v, "kings 60"));
    assert_int_equal(report->status, RULE_NEEDS_PIECES);
    assert_non_null(strstr(report->message, "6 pieces"));
    /* "kings 30" at 4 pieces reads KKMvK, KMvKM, ...: not built here */
    char err[512] = "";
    assert_int_equal(verify_rule(&russian_ts, 4, rule_named(russian_ts.v, "kings 30"),
                                 &report_buffer, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "table"));
}

static void test_missing_table(void **state)
{
    (void)state;
    /* kings only up to 4 pieces, with international tables of 3: KKKvK is not there */
    char err[512] = "";
    assert_int_equal(verify_rule(&international_ts, 4,
                                 rule_named(international_ts.v, "kings only 25"),
                                 &report_buffer, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "KKKvK"));
}

/* ---- under all the rules at once, against the library's probe ---- */

/* One rule's starts, counted by hand from damero_probe_rules on tables on disk: the rule's
 * count given at `played` moves of the reading's unit (for White, the strong side), every
 * other count not started, which the library reads as "the ending arises here". */
struct at_once_count {
    damero_tb *tb;
    const struct variant *v;
    const struct move_limit_rule *rule;
    int k, reading, played;            /* reading: the index into rule->readings */
    uint64_t outcome[2][OUTCOMES];     /* per side to move, for White */
    uint64_t drawn_by_others[2];       /* won in time by DTM, drawn under the rules */
};

static void count_at_once_position(const struct position *p, void *ctx)
{
    struct at_once_count *a = ctx;
    const struct limit_reading *r = &a->rule->readings[a->reading];
    if (!precondition_met(a->v, &a->rule->precondition, p))
        return;
    damero_position pos = public_position(a->v, p);
    damero_counts counts;
    damero_rules_value value;
    for (int k = 0; k < DAMERO_MAX_RULES; k++) {
        counts.plies[k] = DAMERO_COUNT_NOT_STARTED;
        counts.strong[k] = DAMERO_STRONG_UNSAID;
    }
    int used = r->unit == UNIT_PLIES ? a->played : 2 * a->played;
    counts.plies[a->k] = used;
    counts.strong[a->k] = DAMERO_STRONG_WHITE;
    /* damero.h numbers the readings from 1 */
    if (damero_probe_rules(a->tb, &pos, &counts, a->reading + 1, &value) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    assert_false(value.tables_beyond);
    bool white = p->side == WHITE;
    int wdl = value.wdl == DAMERO_DRAW || white ? value.wdl
              : value.wdl == DAMERO_WIN         ? DAMERO_LOSS
                                                : DAMERO_WIN;
    enum outcome o = wdl == DAMERO_WIN    ? OUTCOME_WON
                     : wdl == DAMERO_LOSS ? OUTCOME_LOST
                                          : OUTCOME_DRAWN;
    a->outcome[p->side][o]++;
    bool plain_white_wins = value.plain.wdl == (white ? DAMERO_WIN : DAMERO_LOSS);
    if (plain_white_wins && o == OUTCOME_DRAWN &&
        value.plain.dtm <= reading_plies(r, a->rule->kind, white) - used)
        a->drawn_by_others[p->side]++;
}

/* The report's counts under all the rules at once of a rule over one material (its only
 * one here), for 0 and 1 moves played under each reading, against the probe's. Returns
 * the wins in time under the rule alone that the other counts draw, over them all. */
static uint64_t check_at_once(struct tableset *ts, const char *rule_name, const char *ending,
                              const char *root)
{
    const struct variant *v = ts->v;
    const struct move_limit_rule *rule = rule_named(v, rule_name);
    struct material wanted[64];
    struct material m = parse_material(v, ending);
    int n = test_materials(v, 3, (const char *const[]){ ending, NULL }, wanted, 64);
    struct at_once_count a = { .v = v, .rule = rule, .k = (int)(rule - v->move_limits) };
    uint64_t drawn_by_others = 0;
    /* with the rule tables, most probes are one lookup (and their values come from the
     * generator's build, not from verify's search) */
    build_on_disk_rules(v, root, wanted, n, true);
    assert_int_equal(damero_open(v->name, root, 64 << 20, &a.tb), DAMERO_OK);
    struct rule_report *report = verify(ts, 4, rule);
    for (a.reading = 0; a.reading < readings_of(rule); a.reading++)
        for (a.played = 0; a.played <= 1; a.played++) {
            memset(a.outcome, 0, sizeof a.outcome);
            memset(a.drawn_by_others, 0, sizeof a.drawn_by_others);
            for_each_position(v, &m, count_at_once_position, &a);
            for (int side = WHITE; side <= BLACK; side++) {
                const struct rule_result *r =
                    find_result(report, ending, side == WHITE, a.reading);
                print_message("%s %s, %s to move, reading %d, %d played: won %llu, drawn "
                              "%llu, lost %llu, %llu wins in time alone drawn\n", v->name,
                              rule->name, side == WHITE ? "White" : "Black", a.reading + 1,
                              a.played, (unsigned long long)a.outcome[side][OUTCOME_WON],
                              (unsigned long long)a.outcome[side][OUTCOME_DRAWN],
                              (unsigned long long)a.outcome[side][OUTCOME_LOST],
                              (unsigned long long)a.drawn_by_others[side]);
                for (int o = 0; o < OUTCOMES; o++)
                    assert_int_equal(r->at_once[a.played][o], a.outcome[side][o]);
                assert_int_equal(r->drawn_by_others[a.played], a.drawn_by_others[side]);
                drawn_by_others += a.drawn_by_others[side];
            }
        }
    damero_close(a.tb);
    return drawn_by_others;
}

/* Russian three kings against one: with the lone king on the main road, the 5-move count
 * starts too, and draws wins the 15 moves alone leave in time (docs/rules.md 5.10). */
static int at_once_setup(void **state)
{
    return temp_dir_setup(state, "verify-at-once");
}

static void test_russian_at_once(void **state)
{
    const char *root = ((struct temp_dir *)*state)->dir;
    assert_true(check_at_once(&russian_ts, "3 kings v 1", "KKKvK", root) > 0);
}

/* Spanish: the forzosa's count ends the game (12 or 13 moves) before the 40-ply count,
 * fresh beside it, can run out: the rules at once draw no win the forzosa alone leaves. */
static void test_spanish_at_once(void **state)
{
    const char *root = ((struct temp_dir *)*state)->dir;
    assert_int_equal(check_at_once(&spanish_ts, "forzosa", "KKKvK", root), 0);
}

static int teardown(void **state)
{
    (void)state;
    tableset_free(&spanish_ts);
    tableset_free(&russian_ts);
    tableset_free(&pool_ts);
    tableset_free(&czech_ts);
    tableset_free(&international_ts);
    distances_release();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reading_plies),
        cmocka_unit_test(test_spanish_forzosa),
        cmocka_unit_test(test_spanish_forzosa_before),
        cmocka_unit_test(test_russian_three_kings),
        cmocka_unit_test(test_russian_main_road),
        cmocka_unit_test(test_russian_two_pieces),
        cmocka_unit_test(test_pool_three_kings),
        cmocka_unit_test(test_international_two_pieces),
        cmocka_unit_test(test_russian_kings_only),
        cmocka_unit_test(test_international_kings_only),
        cmocka_unit_test(test_czech_fifteen_moves),
        cmocka_unit_test(test_spanish_forty_plies),
        cmocka_unit_test(test_tight_limits),
        cmocka_unit_test(test_needs_pieces),
        cmocka_unit_test(test_no_position),
        cmocka_unit_test(test_capture_or_promotion),
        cmocka_unit_test(test_capture_or_promotion_reported),
        cmocka_unit_test(test_missing_table),
        cmocka_unit_test_setup_teardown(test_russian_at_once, at_once_setup, temp_dir_teardown),
        cmocka_unit_test_setup_teardown(test_spanish_at_once, at_once_setup, temp_dir_teardown),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
