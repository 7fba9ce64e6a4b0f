/* core/movegen.c against an independent, deliberately simple reference generator
 * (reference_movegen.h) on random positions of every variant.
 *
 * Perft from the initial position rarely meets kings or long king captures, which are
 * what endgame tables are made of; random positions with 1..12 pieces a side and any
 * share of kings do. For each position the SET of legal moves must be the same under both
 * duplicate conventions: a move is (from, to, pieces taken, promotes), and with
 * MOVES_KEEP_DUPLICATES also the order in which the pieces are taken. The reference is
 * itself checked first against the perft figures of docs/rules.md. */
#include "tests/test_util.h"

#include "tests/random_position.h"
#include "tests/reference_movegen.h"

#ifndef POSITIONS_PER_VARIANT
#define POSITIONS_PER_VARIANT 20000
#endif
#define MAX_REPORTED 3 /* mismatching positions printed per variant */

/* ---- the reference against the published perft figures ---------------------------- */

#define REF_PERFT_MAX_DEPTH 8

static struct ref_move_list *perft_lists[REF_PERFT_MAX_DEPTH + 1];

/* Perft with the reference; every capture sequence apart when keep_sequences (orders, and
 * touch-downs where ref_options says so), else one move per pieces taken and end. */
static uint64_t ref_perft(const struct variant *v, const struct ref_board *b, int depth,
                          bool keep_sequences)
{
    struct ref_move_list *list = perft_lists[depth];
    uint64_t nodes = 0;

    ref_generate_moves(v, b, list);
    assert_false(list->overflow);
    if (!keep_sequences)
        ref_unique_moves(list, false);
    if (depth == 1)
        return (uint64_t)list->count;
    for (int i = 0; i < list->count; i++) {
        struct ref_board next;
        ref_make_move(b, &list->moves[i], &next);
        nodes += ref_perft(v, &next, depth - 1, keep_sequences);
    }
    return nodes;
}

struct ref_perft_case {
    const char *variant;
    const char *fen; /* NULL: the initial position */
    int depth;
    uint64_t nodes[REF_PERFT_MAX_DEPTH];
};

/* docs/rules.md, the perft reference figures, duplicates dropped. */
static const struct ref_perft_case ref_perft_cases[] = {
    { "international", NULL, 5, { 9, 81, 658, 4265, 27117 } },
    { "russian", NULL, 5, { 7, 49, 302, 1469, 7482 } },
    { "brazilian", NULL, 5, { 7, 49, 302, 1469, 7473 } },
    { "pool", NULL, 5, { 7, 49, 302, 1469, 7482 } },
    { "english", NULL, 5, { 7, 49, 302, 1469, 7361 } },
    { "czech", NULL, 5, { 7, 49, 302, 1469, 7361 } },
    { "spanish", NULL, 6, { 7, 49, 302, 1469, 7361, 36473 } },
    { "italian", NULL, 5, { 7, 49, 302, 1469, 7361 } },
    { "international", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", 7,
      { 6, 12, 30, 73, 215, 590, 1944 } },
    /* docs/rules.md, section 8: the figures another Turkish draughts program publishes */
    { "turkish", NULL, 5, { 8, 64, 708, 7538, 85090 } },
};

static void alloc_perft_lists(void)
{
    for (int d = 0; d <= REF_PERFT_MAX_DEPTH; d++)
        assert_non_null(perft_lists[d] = malloc(sizeof *perft_lists[d]));
}

static void free_perft_lists(void)
{
    for (int d = 0; d <= REF_PERFT_MAX_DEPTH; d++)
        free(perft_lists[d]);
}

static void test_reference_perft(void **state)
{
    (void)state;
    alloc_perft_lists();
    for (size_t i = 0; i < sizeof ref_perft_cases / sizeof ref_perft_cases[0]; i++) {
        const struct ref_perft_case *c = &ref_perft_cases[i];
        const struct variant *v = test_variant(c->variant);
        struct position p;
        struct ref_board b;

        if (c->fen)
            p = test_position(v, c->fen);
        else
            position_initial(v, &p);
        ref_board_from_position(v, &p, &b);
        for (int d = 1; d <= c->depth; d++) {
            uint64_t nodes = ref_perft(v, &b, d, false);
            if (nodes != c->nodes[d - 1])
                fail_msg("reference %s %s depth %d: %llu nodes, published %llu", c->variant,
                         c->fen ? c->fen : "(initial)", d, (unsigned long long)nodes,
                         (unsigned long long)c->nodes[d - 1]);
        }
    }
    free_perft_lists();
}

/* Turkish draughts from depth 7 on, where the figures another program publishes part
 * from damero's (docs/rules.md, section 8): 10 782 308 at depth 7 with each capture counted once
 * per pieces taken and end (core's count, tests/test_perft.c), 10 782 382 when captures
 * that differ only in where a flying king touched down between two jumps count apart, as
 * that program counts; at depth 8, 123 285 642 and 123 290 300. The reference, with and
 * without touch-downs, gives both; depth 8 with `ctest -L slow` (DAMERO_PERFT_DEEP). */
static void test_reference_turkish_deeper(void **state)
{
    static const uint64_t once[] = { 10782308, 123285642 }, apart[] = { 10782382, 123290300 };
    const struct variant *v = test_variant("turkish");
    int deepest = getenv("DAMERO_PERFT_DEEP") ? 8 : 7;
    struct position p;
    struct ref_board b;

    (void)state;
    alloc_perft_lists();
    position_initial(v, &p);
    ref_board_from_position(v, &p, &b);
    for (int d = 7; d <= deepest; d++) {
        assert_int_equal(ref_perft(v, &b, d, false), once[d - 7]);
        ref_options.keep_touchdowns = true;
        assert_int_equal(ref_perft(v, &b, d, true), apart[d - 7]);
        ref_options.keep_touchdowns = false;
    }
    free_perft_lists();
}

/* The first position of that difference, found by walking the tree: after 1. a3-a4 a6-a5
 * 2. a4xa6xa8 b6-b5 3. a8-a5 e6-e5, the new king on a5 takes b5 and e5 and lands on f5,
 * g5 or h5: three moves. Between the two jumps it may touch down on c5 or d5 (both see
 * e5), so counted by touch-down there are six sequences. */
static void test_reference_touchdowns(void **state)
{
    const struct variant *v = test_variant("turkish");
    struct position p = test_position(v, "W:Wa2,b2,c2,d2,e2,f2,g2,h2,b3,c3,d3,e3,f3,g3,h3,"
                                         "Ka5:Bb5,e5,c6,d6,f6,g6,h6,b7,c7,d7,e7,f7,g7,h7");
    static struct ref_move_list list;
    struct ref_board b;

    (void)state;
    ref_board_from_position(v, &p, &b);
    ref_generate_moves(v, &b, &list);
    assert_int_equal(list.count, 3);
    ref_options.keep_touchdowns = true;
    ref_generate_moves(v, &b, &list);
    ref_options.keep_touchdowns = false;
    assert_int_equal(list.count, 6);
    for (int i = 0; i < list.count; i++)
        assert_int_equal(list.moves[i].num_jumps, 2);
}

/* ---- comparing the two generators -------------------------------------------------- */

/* A move as both generators are compared on. */
struct key {
    int from, to;
    bb_t captured;
    bool promotes;
    int num_jumps;             /* with MOVES_KEEP_DUPLICATES: */
    int jumped[REF_MAX_JUMPS]; /* the pieces in the order taken */
    int landed[REF_MAX_JUMPS]; /* with MOVES_KEEP_TOUCHDOWNS: where it came down after each */
    int index;              /* in the generator's own list, for printing */
};

static int compare_keys(const void *pa, const void *pb)
{
    const struct key *a = pa, *b = pb;

    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    if (a->to != b->to)
        return a->to < b->to ? -1 : 1;
    if (a->captured != b->captured)
        return a->captured < b->captured ? -1 : 1;
    if (a->promotes != b->promotes)
        return a->promotes ? 1 : -1;
    if (a->num_jumps != b->num_jumps)
        return a->num_jumps < b->num_jumps ? -1 : 1;
    for (int i = 0; i < a->num_jumps; i++) {
        if (a->jumped[i] != b->jumped[i])
            return a->jumped[i] < b->jumped[i] ? -1 : 1;
        if (a->landed[i] != b->landed[i])
            return a->landed[i] < b->landed[i] ? -1 : 1;
    }
    return 0;
}

static struct key core_key(const struct move *m, unsigned flags, int index)
{
    struct key k;

    memset(&k, 0, sizeof k);
    k.from = m->from;
    k.to = m->to;
    k.captured = m->captured;
    k.promotes = m->promotes;
    k.index = index;
    if (flags & MOVES_KEEP_DUPLICATES) {
        k.num_jumps = m->num_jumps;
        for (int i = 0; i < m->num_jumps && i < REF_MAX_JUMPS; i++) {
            k.jumped[i] = m->jumped[i];
            k.landed[i] = flags & MOVES_KEEP_TOUCHDOWNS ? m->landing[i] : 0;
        }
    }
    return k;
}

static struct key ref_key(const struct variant *v, const struct ref_move *m, unsigned flags,
                          int index)
{
    struct key k;

    memset(&k, 0, sizeof k);
    k.from = ref_bit(v, m->from);
    k.to = ref_bit(v, m->to);
    for (int i = 0; i < m->num_jumps; i++)
        k.captured |= bb_of(ref_bit(v, m->jumped[i]));
    k.promotes = m->promotes;
    k.index = index;
    if (flags & MOVES_KEEP_DUPLICATES) {
        k.num_jumps = m->num_jumps;
        for (int i = 0; i < m->num_jumps; i++) {
            k.jumped[i] = ref_bit(v, m->jumped[i]);
            k.landed[i] = flags & MOVES_KEEP_TOUCHDOWNS ? ref_bit(v, m->landed[i]) : 0;
        }
    }
    return k;
}

/* The key in the variant's square names: "31x27,18>13+K" (pieces in the order taken) or
 * "31x{18,27}>13+K" (the set of pieces taken). */
static void key_text(const struct variant *v, const struct key *k, char *buf, size_t size)
{
    char name[SQUARE_NAME_SIZE];
    size_t n = 0;
    int bit;

    square_name(v, k->from, name);
    n += (size_t)snprintf(buf + n, size - n, "%s", name);
    if (k->num_jumps > 0) {
        for (int i = 0; i < k->num_jumps && n < size; i++) {
            square_name(v, k->jumped[i], name);
            n += (size_t)snprintf(buf + n, size - n, "%c%s", i ? ',' : 'x', name);
        }
    } else if (k->captured) {
        int first = 1;
        BB_FOR_EACH(bit, k->captured) {
            if (n >= size)
                break;
            square_name(v, bit, name);
            n += (size_t)snprintf(buf + n, size - n, "%s%s", first ? "x{" : ",", name);
            first = 0;
        }
        if (n < size)
            n += (size_t)snprintf(buf + n, size - n, "}");
    }
    if (n < size) {
        square_name(v, k->to, name);
        n += (size_t)snprintf(buf + n, size - n, "%s%s%s", k->captured ? ">" : "-", name,
                              k->promotes ? "+K" : "");
    }
}

static struct key core_keys[MAX_MOVES], ref_keys[REF_MAX_MOVES];

/* Compares core's moves with the reference's under one duplicate convention; prints the
 * differences and returns false when they are not the same set. */
static bool same_moves(const struct variant *v, const struct position *p, unsigned flags,
                       const struct move_list *core, const struct ref_move_list *ref,
                       bool report)
{
    int nc = core->count, nr = 0;
    bool same = !core->overflow;
    char text[MOVE_TEXT_SIZE], line[512], fen[FEN_SIZE];

    for (int i = 0; i < nc; i++)
        core_keys[i] = core_key(&core->moves[i], flags, i);
    for (int i = 0; i < ref->count; i++)
        ref_keys[i] = ref_key(v, &ref->moves[i], flags, i);
    qsort(core_keys, (size_t)nc, sizeof core_keys[0], compare_keys);
    qsort(ref_keys, (size_t)ref->count, sizeof ref_keys[0], compare_keys);
    /* The reference lists every path apart; the keys keep what flags tell apart. */
    for (int i = 0; i < ref->count; i++)
        if (nr == 0 || compare_keys(&ref_keys[nr - 1], &ref_keys[i]) != 0)
            ref_keys[nr++] = ref_keys[i];

    /* Core's own consistency: no move twice, and jumped[] naming exactly `captured`. */
    for (int i = 0; i < nc; i++) {
        const struct move *m = &core->moves[core_keys[i].index];
        bb_t jumped = 0;
        for (int j = 0; j < m->num_jumps && j < MAX_JUMPS; j++)
            jumped |= bb_of(m->jumped[j]);
        if ((i > 0 && compare_keys(&core_keys[i - 1], &core_keys[i]) == 0) ||
            jumped != m->captured || bb_count(m->captured) != m->num_jumps)
            same = false;
    }

    int i = 0, j = 0;
    bool differ = false;
    while (i < nc || j < nr) {
        int c = i == nc ? 1 : j == nr ? -1 : compare_keys(&core_keys[i], &ref_keys[j]);
        if (c == 0) {
            i++;
            j++;
        } else {
            differ = true;
            if (c < 0)
                i++;
            else
                j++;
        }
    }
    if (!differ && same)
        return true;
    if (!report)
        return false;

    fen_print(v, p, fen);
    print_error("%s %s%s: core has %d moves%s, the reference %d\n", v->name, fen,
                flags == MOVES_KEEP_PATHS ? " (every path)" : flags ? " (duplicates kept)" : "", nc, core->overflow ? " (overflow)" : "", nr);
    i = j = 0;
    while (i < nc || j < nr) {
        int c = i == nc ? 1 : j == nr ? -1 : compare_keys(&core_keys[i], &ref_keys[j]);
        if (c == 0) {
            i++;
            j++;
        } else if (c < 0) {
            move_text(v, &core->moves[core_keys[i].index], text);
            key_text(v, &core_keys[i], line, sizeof line);
            print_error("  only core:      %-24s (%s)\n", text, line);
            i++;
        } else {
            ref_move_print(&ref->moves[ref_keys[j].index], text, sizeof text);
            key_text(v, &ref_keys[j], line, sizeof line);
            print_error("  only reference: %-24s (%s)\n", text, line);
            j++;
        }
    }
    for (i = 0; i < nc; i++)
        if (i > 0 && compare_keys(&core_keys[i - 1], &core_keys[i]) == 0) {
            key_text(v, &core_keys[i], line, sizeof line);
            print_error("  core lists twice: %s\n", line);
        }
    return false;
}

static void test_against_reference(void **state)
{
    const struct variant *v = *state;
    static const int king_percent[] = { 0, 15, 30, 50, 70, 100 };
    static struct move_list core;
    static struct ref_move_list ref;
    static struct ref_board board;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    int mismatches = 0, captures = 0, king_captures = 0, longest = 0, moves = 0;

    for (const char *c = v->name; *c; c++)
        seed = (seed ^ (uint8_t)*c) * 0x100000001B3ull;
    memset(&ref_stats, 0, sizeof ref_stats);
    ref_options.keep_touchdowns = true; /* every path: the keys tell what each pass keeps */

    for (int n = 0; n < POSITIONS_PER_VARIANT; n++) {
        /* Every other position has up to 12 pieces a side, the others up to 1, 2, ... 12
         * in turn (random_position picks 1..max_per_side): sparse endgames and crowded
         * boards, where long captures and precedence ties live. */
        int max_per_side = n % 2 ? 12 : 1 + (n / 2) % 12;
        int kings = king_percent[(n / 24) % 6];
        struct position p = random_position(v, &seed, max_per_side, kings);
        bool bad = false;

        ref_board_from_position(v, &p, &board);
        ref_generate_moves(v, &board, &ref);
        if (ref.overflow) {
            char fen[FEN_SIZE];
            fen_print(v, &p, fen);
            fail_msg("%s %s: more than %d candidate captures for the reference", v->name, fen,
                     REF_MAX_MOVES);
        }
        if (ref.count > 0 && ref.moves[0].num_jumps > 0) {
            bool by_king = false;
            captures++;
            for (int i = 0; i < ref.count; i++)
                by_king |= ref.moves[i].by_king;
            king_captures += by_king;
            if (ref.moves[0].num_jumps > longest)
                longest = ref.moves[0].num_jumps;
        }
        moves += ref.count;

        static const unsigned conventions[] = { 0, MOVES_KEEP_DUPLICATES, MOVES_KEEP_PATHS };
        for (int f = 0; f < 3; f++) {
            generate_moves(v, &p, conventions[f], &core);
            if (!same_moves(v, &p, conventions[f], &core, &ref, mismatches < MAX_REPORTED))
                bad = true;
        }
        mismatches += bad;
    }
    ref_options.keep_touchdowns = false;
    print_message("%-13s %d positions, %d with a capture (%d by a king, longest %d pieces), "
                  "%d capture paths and moves; %ld landings and %ld captures refused, %ld men crowned and "
                  "%ld uncrowned on the last rank mid-capture\n", v->name,
                  POSITIONS_PER_VARIANT, captures, king_captures, longest, moves,
                  ref_stats.landings_refused, ref_stats.captures_refused,
                  ref_stats.crowned_mid_capture, ref_stats.passed_last_rank);
    if (mismatches)
        fail_msg("%s: core and the reference disagree on %d of %d positions", v->name,
                 mismatches, POSITIONS_PER_VARIANT);
}

int main(void)
{
    static struct CMUnitTest tests[64];
    size_t n = 0;

    tests[n++] = (struct CMUnitTest){ .name = "reference_perft",
                                      .test_func = test_reference_perft };
    tests[n++] = (struct CMUnitTest){ .name = "reference_touchdowns",
                                      .test_func = test_reference_touchdowns };
    tests[n++] = (struct CMUnitTest){ .name = "reference_turkish_deeper",
                                      .test_func = test_reference_turkish_deeper };
    for (const struct variant *v = variants; v->name && n < sizeof tests / sizeof tests[0]; v++)
        tests[n++] = (struct CMUnitTest){ .name = v->name, .test_func = test_against_reference,
                                          .initial_state = (void *)v };
    /* The reading of Turkish mid-capture promotion damero does not play (docs/rules.md, section 8):
     * a man that reaches the last rank during a capture goes on as a man. */
    static struct variant turkish_crowned_at_end;
    turkish_crowned_at_end = *variant_by_name("turkish");
    turkish_crowned_at_end.name = "turkish, crowned at the end";
    turkish_crowned_at_end.promote_mid_capture = false;
    tests[n++] = (struct CMUnitTest){ .name = turkish_crowned_at_end.name,
                                      .test_func = test_against_reference,
                                      .initial_state = &turkish_crowned_at_end };
    return _cmocka_run_group_tests("reference", tests, n, NULL, NULL);
}
