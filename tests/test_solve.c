/* The generator's tables against an independent brute-force solver (brute_solver.h),
 * position by position: WDL, DTM and MTC, for every variant on every material of 2 and
 * 3 pieces, and on KKKvK for the 8x8 variants (with DAMERO_SOLVE_DEEP, `ctest -L slow`,
 * on every material of 4 pieces of the 8x8 variants); and the WDL of a WDL-only build
 * (damero gen --metrics wdl, solved in two bits a position) on the same materials.
 *
 * The two share only core/'s move generator; a mistake they could share there is what
 * the anchors are for: positions whose values were worked out by hand, checked through
 * the brute-force solver alone. */
#define _XOPEN_SOURCE 700 /* nftw, for tests/file_util.h */
#include "tests/file_util.h"

#include "core/clock.h"
#include "format/material.h"
#include "gen/build.h"
#include "store/tableset.h"
#include "tests/brute_solver.h"

#define MAX_REPORTED 8 /* mismatching positions printed per variant */
#define MAX_WANTED 64  /* materials checked per variant */

/* ---- values as the tables encode them (../probe/value.h), written out here ---------- */

/* The DTM code of a brute-force value: 0 a draw, 1 + 2d a win in d plies, 2 + 2d a loss
 * in d plies. */
static unsigned encode_dtm(int result, int plies)
{
    return result == BF_DRAW ? 0u : result == BF_WIN ? 1u + 2u * (unsigned)plies
                                                     : 2u + 2u * (unsigned)plies;
}

/* The MTC code: 0 for a draw (none), else 1 + plies. */
static unsigned encode_mtc(int result, int plies)
{
    return result == BF_DRAW ? 0u : 1u + (unsigned)plies;
}

static const char *describe_dtm(unsigned dtm, char *buf, size_t size)
{
    if (dtm == 0)
        snprintf(buf, size, "draw");
    else
        snprintf(buf, size, "%s in %u plies", dtm & 1 ? "win" : "loss", (dtm - 1) / 2);
    return buf;
}

static const char *describe_mtc(unsigned mtc, char *buf, size_t size)
{
    if (mtc == 0)
        snprintf(buf, size, "no MTC");
    else
        snprintf(buf, size, "MTC %u plies", mtc - 1);
    return buf;
}

/* ---- the brute-force solver alone, on positions worked out by hand ------------------ */

struct anchor {
    const char *variant, *fen;
    int result, dtm, mtc; /* for the side to move; dtm and mtc in plies */
    const char *why;
};

static const struct anchor anchors[] = {
    /* Kings at the two ends of the short diagonal a3-c1: neither can jump the other (no
     * square beyond), and neither stands in a corner. A king on an edge square can never
     * be taken, and a king anywhere but in a corner can always move to an edge square
     * that is not a corner: of its rays (two from an edge square, four inside) only those
     * along the long diagonal end in a corner (a1, h8), so at least two rays end on a
     * non-corner edge, and the other king blocks at most one of them (or stands where it
     * can be taken). So each side can keep out of reach forever. */
    { "russian", "W:WKc1:BKa3", BF_DRAW, BF_UNKNOWN, BF_UNKNOWN, "no one can force anything" },
    { "russian", "B:WKc1:BKa3", BF_DRAW, BF_UNKNOWN, BF_UNKNOWN, "no one can force anything" },
    /* The capture of the last black piece ends the game: a win in one ply, a conversion. */
    { "russian", "W:WKa1:BKd4", BF_WIN, 1, 1, "takes the last piece" },
    /* The corner trap: from a1 the only moves run up the long diagonal towards the king
     * on h8, which then takes with a1 free behind. Two plies: a king move (not a
     * conversion), then the capture (one). */
    { "russian", "W:WKa1:BKh8", BF_LOSS, 2, 2, "cornered on the long diagonal" },
    { "russian", "B:WKa1:BKh8", BF_LOSS, 2, 2, "cornered on the long diagonal" },
    /* White sets the trap with c3-h8 (no capture exists: a1 is a corner): a king move
     * (1 ply, not a conversion) into the position above, lost in 2 with MTC 2. */
    { "russian", "W:WKc3:BKa1", BF_WIN, 3, 3, "sets the corner trap" },
    /* The same trap set by a man crowning on h8: DTM 3 again, but the crowning is a man
     * move, so the conversion comes at once: MTC 1. */
    { "russian", "W:Wg7:BKa1", BF_WIN, 3, 1, "crowns into the corner trap" },
    /* The white man on h2 is blocked by g3, and g3 is covered by f4: no legal move. */
    { "russian", "W:Wh2:Bf4,g3", BF_LOSS, 0, 0, "blocked, no move" },
    /* Giveaway: the side that cannot move has won. */
    { "poddavki", "W:Wh2:Bf4,g3", BF_WIN, 0, 0, "blocked, no move, so won" },
    /* Giveaway: the compulsory capture of Black's last piece leaves Black without a move,
     * so Black wins: White loses in 1, and the capture is a conversion. */
    { "poddavki", "W:WKa1:BKd4", BF_LOSS, 1, 1, "must take the last piece" },
    /* The same corner trap on the 10x10 board: 46 is a1 and 5 is j10, the two ends of
     * the long diagonal, so the king on 46 can only walk up to the king on 5. */
    { "international", "W:WK46:BK5", BF_LOSS, 2, 2, "cornered on the long diagonal" },
    /* Turkish: one piece each ends the game, drawn, though White could take d6 (d5 and
     * d7 empty) and win at once were the game played on. */
    { "turkish", "W:WKd4:BKd6", BF_DRAW, BF_UNKNOWN, BF_UNKNOWN, "one piece each" },
    /* Black must take c1 (a1 cannot be taken: nothing beyond it), which leaves one piece
     * each: a draw, whatever Black would rather do. */
    { "turkish", "B:WKa1,Kc1:BKb1", BF_DRAW, BF_UNKNOWN, BF_UNKNOWN,
      "forced into one piece each" },
};

static void solve_material_of(struct bf_solver *s, const struct variant *v,
                              const struct position *p)
{
    bf_init(s, v);
    bf_add_material(s, bb_count(p->kings[WHITE]), bb_count(p->men[WHITE]),
                    bb_count(p->kings[BLACK]), bb_count(p->men[BLACK]));
    assert_true(bf_solve(s));
}

static void test_anchors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof anchors / sizeof anchors[0]; i++) {
        const struct anchor *a = &anchors[i];
        const struct variant *v = test_variant(a->variant);
        struct position p = test_position(v, a->fen);
        struct bf_solver s;
        char a_dtm[64], a_mtc[64], b_dtm[64], b_mtc[64];

        solve_material_of(&s, v, &p);
        uint32_t node = bf_find(&s, &p);
        assert_true(node < s.roots);
        unsigned want_dtm = encode_dtm(a->result, a->dtm);
        unsigned want_mtc = encode_mtc(a->result, a->mtc);
        unsigned dtm = encode_dtm(s.result[node], s.dtm[node]);
        unsigned mtc = encode_mtc(s.result[node], s.mtc[node]);
        if (dtm != want_dtm || mtc != want_mtc)
            fail_msg("brute force, %s %s (%s): expected %s, %s; solved %s, %s", a->variant,
                     a->fen, a->why, describe_dtm(want_dtm, a_dtm, sizeof a_dtm),
                     describe_mtc(want_mtc, a_mtc, sizeof a_mtc),
                     describe_dtm(dtm, b_dtm, sizeof b_dtm),
                     describe_mtc(mtc, b_mtc, sizeof b_mtc));
        bf_free(&s);
    }
}

/* The value iteration's output obeys the definitions as recurrences, node by node. */
static void test_brute_force_consistent(void **state)
{
    static const struct {
        const char *variant;
        int counts[4]; /* White kings, men, Black kings, men */
    } cases[] = {
        { "russian", { 1, 1, 0, 1 } },   { "poddavki", { 0, 2, 1, 0 } },
        { "english", { 2, 0, 0, 1 } },   { "italian", { 1, 0, 0, 2 } },
        { "ganapierde", { 1, 1, 1, 0 } }, { "international", { 0, 1, 0, 1 } },
        { "turkish", { 1, 1, 1, 0 } },
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct variant *v = test_variant(cases[i].variant);
        const int *c = cases[i].counts;
        struct bf_solver s;
        char fen[FEN_SIZE];

        bf_init(&s, v);
        bf_add_material(&s, c[0], c[1], c[2], c[3]);
        assert_true(bf_solve(&s));
        uint32_t bad = bf_check(&s);
        if (bad != BF_NONE) {
            fen_print(v, &s.pos[bad], fen);
            fail_msg("brute force, %s %s: value breaks the definitions", v->name, fen);
        }
        bf_free(&s);
    }
}

/* ---- the generator against the brute-force solver ----------------------------------- */

struct totals {
    long count[3]; /* by enum bf_result */
};

static void count_result(struct totals *t, unsigned dtm)
{
    t->count[dtm == 0 ? BF_DRAW : dtm & 1 ? BF_WIN : BF_LOSS]++;
}

static void add_material(const struct variant *v, const char *name, struct material *out,
                         int *n)
{
    char err[256];
    if (material_parse(v, name, &out[*n], err, sizeof err) < 0)
        fail_msg("%s: %s: %s", v->name, name, err);
    (*n)++;
}

/* The materials to check: all of 2 and 3 pieces; on the 32-square boards KKKvK too, and
 * with DAMERO_SOLVE_DEEP set (`ctest -L slow`) all of 4 pieces; on the 64-square board
 * (Turkish, whose 4-piece graphs are some twenty times larger) KKvKM and KKKvK with
 * DAMERO_SOLVE_DEEP. */
static int wanted_materials(const struct variant *v, struct material *out)
{
    bool deep = getenv("DAMERO_SOLVE_DEEP") != NULL;
    int squares = v->board()->num_squares, n = 0;
    int most = squares == 32 && deep ? 4 : 3;

    for (int pieces = 2; pieces <= most; pieces++)
        n += material_list(v, pieces, out + n, MAX_WANTED - n);
    if (squares == 32 && !deep)
        add_material(v, "KKKvK", out, &n);
    if (squares == 64 && deep) {
        add_material(v, "KKvKM", out, &n);
        add_material(v, "KKKvK", out, &n);
    }
    assert_true(n > 0 && n < MAX_WANTED);
    return n;
}

/* Compares the generator's value of q (a position of the graph, or its colour flip) with
 * the brute-force value of node i. Returns whether they agree; prints the first few
 * disagreements. */
static bool compare_position(const struct variant *v, const struct tableset *ts,
                             const struct bf_solver *s, uint32_t i, const struct position *q,
                             unsigned *gen_dtm_out, int *reported)
{
    dtm_t dtm;
    mtc_t mtc;
    unsigned want_dtm = encode_dtm(s->result[i], s->dtm[i]);
    unsigned want_mtc = encode_mtc(s->result[i], s->mtc[i]);
    char fen[FEN_SIZE], a[64], b[64], c[64], d[64];

    if (tableset_value(ts, q, &dtm, &mtc) < 0) {
        fen_print(v, q, fen);
        fail_msg("%s %s: the generator has no value for this position", v->name, fen);
    }
    if (gen_dtm_out)
        *gen_dtm_out = dtm;
    if (dtm == want_dtm && mtc == want_mtc)
        return true;
    if ((*reported)++ < MAX_REPORTED) {
        fen_print(v, q, fen); /* only here: printing is slower than the comparison */
        print_error("%s %s: brute force %s, %s; generator %s, %s\n", v->name, fen,
                    describe_dtm(want_dtm, a, sizeof a), describe_mtc(want_mtc, b, sizeof b),
                    describe_dtm(dtm, c, sizeof c), describe_mtc(mtc, d, sizeof d));
    }
    return false;
}

static const char *describe_wdl(enum wdl w)
{
    return w == WDL_WIN ? "win" : w == WDL_LOSS ? "loss" : "draw";
}

/* The WDL of a WDL-only build (damero gen --metrics wdl), read back from its files, at
 * every node of the brute-force graph and its colour flip. Returns
 * the number of disagreements; prints the first few. */
static long wdl_only_mismatches(const struct variant *v, const struct material *wanted, int n,
                                const struct bf_solver *s)
{
    static const enum wdl of_result[] = { [BF_WIN] = WDL_WIN, [BF_DRAW] = WDL_DRAW,
                                          [BF_LOSS] = WDL_LOSS };
    char dir[TEMP_DIR_SIZE], err[256], fen[FEN_SIZE];
    struct tableset ts;
    long mismatches = 0;

    assert_int_equal(temp_dir_make(dir, "solve-wdl"), 0);
    tableset_init(&ts, v, dir);
    ts.wdl_only = ts.dtm_only = true;
    if (build_materials(&ts, wanted, n, &(struct build_options){ 0 }, err, sizeof err) < 0)
        fail_msg("%s: WDL-only build: %s", v->name, err);
    for (int k = 0; k < n; k++) /* the build keeps none: read them back from the files */
        if (!tableset_get(&ts, &wanted[k], err, sizeof err) ||
            tableset_get_successors(&ts, &wanted[k], err, sizeof err) < 0)
            fail_msg("%s: reading the WDL-only build: %s", v->name, err);
    for (uint32_t i = 0; i < s->count; i++)
        for (int flip = 0; flip < 2; flip++) {
            struct position q = s->pos[i];
            dtm_t dtm;
            if (flip)
                position_flip_colours(v, &s->pos[i], &q);
            if (tableset_value(&ts, &q, &dtm, NULL) < 0) {
                fen_print(v, &q, fen);
                fail_msg("%s %s: the WDL-only build has no value for this position", v->name,
                         fen);
            }
            if (dtm_wdl(dtm) == of_result[s->result[i]])
                continue;
            if (mismatches++ < MAX_REPORTED) {
                fen_print(v, &q, fen);
                print_error("%s %s: brute force %s; WDL-only build %s\n", v->name, fen,
                            describe_wdl(of_result[s->result[i]]), describe_wdl(dtm_wdl(dtm)));
            }
        }
    tableset_free(&ts);
    temp_dir_remove(dir);
    return mismatches;
}

static void test_generator_matches(void **state)
{
    const struct variant *v = *state;
    struct material wanted[MAX_WANTED];
    uint32_t first[MAX_WANTED + 1]; /* wanted[k]'s positions are nodes first[k]..first[k+1]-1 */
    struct totals brute[MAX_WANTED] = { 0 }, gen[MAX_WANTED] = { 0 };
    struct tableset ts;
    struct bf_solver s;
    char err[256], fen[FEN_SIZE], name[MATERIAL_NAME_SIZE];
    long mismatches = 0;
    int reported = 0;
    int n = wanted_materials(v, wanted);
    double start = seconds_now(), built, solved;

    tableset_init(&ts, v, NULL);
    if (build_materials(&ts, wanted, n, &(struct build_options){ 0 }, err, sizeof err) < 0)
        fail_msg("%s: build: %s", v->name, err);
    built = seconds_now();

    /* One graph for all the materials, so that the smaller ones they share are solved
     * once. */
    bf_init(&s, v);
    for (int k = 0; k < n; k++) {
        first[k] = s.count;
        bf_add_material(&s, wanted[k].kings[WHITE], wanted[k].men[WHITE],
                        wanted[k].kings[BLACK], wanted[k].men[BLACK]);
    }
    first[n] = s.count;
    assert_true(bf_solve(&s));
    uint32_t bad = bf_check(&s);
    if (bad != BF_NONE) {
        fen_print(v, &s.pos[bad], fen);
        fail_msg("brute force, %s %s: value breaks the definitions", v->name, fen);
    }
    solved = seconds_now();

    /* Every node of the graph (the wanted materials, everything they reach, and the
     * finished games), as it stands and with colours flipped: the generator stores one
     * orientation and must answer for both. */
    for (uint32_t i = 0; i < s.count; i++) {
        struct position flipped;
        unsigned dtm;

        if (!compare_position(v, &ts, &s, i, &s.pos[i], &dtm, &reported))
            mismatches++;
        position_flip_colours(v, &s.pos[i], &flipped);
        if (!compare_position(v, &ts, &s, i, &flipped, NULL, &reported))
            mismatches++;
        if (i < s.roots) {
            int k = 0;
            while (i >= first[k + 1])
                k++;
            count_result(&brute[k], encode_dtm(s.result[i], s.dtm[i]));
            count_result(&gen[k], dtm);
        }
    }

    if (mismatches || getenv("DAMERO_SOLVE_VERBOSE")) {
        for (int k = 0; k < n; k++) {
            material_name(&wanted[k], name);
            print_message("%s %-6s %8u positions: brute force %ld won %ld drawn %ld lost; "
                          "generator %ld won %ld drawn %ld lost\n",
                          v->name, name, first[k + 1] - first[k], brute[k].count[BF_WIN],
                          brute[k].count[BF_DRAW], brute[k].count[BF_LOSS],
                          gen[k].count[BF_WIN], gen[k].count[BF_DRAW], gen[k].count[BF_LOSS]);
        }
        print_message("%s: %u positions in the graph, longest DTM %d plies, longest MTC %d "
                      "plies; generator %.2f s, brute force %.2f s, comparison %.2f s\n",
                      v->name, s.count, s.max_dtm, s.max_mtc, built - start, solved - built,
                      seconds_now() - solved);
    }
    long wdl_mismatches = wdl_only_mismatches(v, wanted, n, &s);
    bf_free(&s);
    tableset_free(&ts);
    if (mismatches)
        fail_msg("%s: %ld positions where the generator and the brute-force solver disagree",
                 v->name, mismatches);
    if (wdl_mismatches)
        fail_msg("%s: %ld positions where the WDL-only build and the brute-force solver "
                 "disagree", v->name, wdl_mismatches);
}

int main(void)
{
    struct CMUnitTest tests[2 + 32];
    char names[32][64];
    size_t n = 0;

    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_anchors);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_brute_force_consistent);
    /* One test per variant, so that a new row is checked without touching this file. */
    for (const struct variant *v = variants; v->name && n < sizeof tests / sizeof tests[0]; v++) {
        char *name = names[n - 2];
        snprintf(name, sizeof names[0], "generator_matches_%s", v->name);
        tests[n++] = (struct CMUnitTest){ name, test_generator_matches, NULL, NULL, (void *)v };
    }
    /* The readings of the Turkish rule on lone pieces damero does not play
     * (docs/rules.md, section 8): the game played on, and a lone man lost to a lone king. Both
     * reach the solver's decided and drawn ends of a game without a move. */
    static struct variant play_on, man_loses;
    play_on = man_loses = *variant_by_name("turkish");
    play_on.name = "turkish, lone pieces play on";
    play_on.lone_pieces = LONE_PIECES_PLAY_ON;
    man_loses.name = "turkish, a lone man loses to a lone king";
    man_loses.lone_pieces = LONE_MAN_LOSES_TO_KING;
    tests[n++] = (struct CMUnitTest){ play_on.name, test_generator_matches, NULL, NULL, &play_on };
    tests[n++] = (struct CMUnitTest){ man_loses.name, test_generator_matches, NULL, NULL,
                                      &man_loses };
    return _cmocka_run_group_tests("solve", tests, n, NULL, NULL);
}
