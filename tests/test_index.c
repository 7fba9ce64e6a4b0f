/* The index of a material: a bijection between its legal positions and 0..size-1, checked
 * exhaustively on small materials against placements enumerated square by square; the
 * symmetry classes of kings-only materials; and the advancement order of men. */
#include "tests/test_util.h"

#include "format/index.h"
#include "tests/random_position.h"

/* The materials checked exhaustively on each board: every one of 2 and 3 pieces. */
static const char *const small_materials[] = { "KvK",  "KvM",  "MvM",  "KKvK", "KKvM",
                                               "KMvK", "KMvM", "MMvK", "MMvM" };

static struct material material_named(const struct variant *v, const char *name)
{
    struct material m;
    char err[256];
    if (material_parse(v, name, &m, err, sizeof err) < 0)
        fail_msg("%s: %s", name, err);
    return m;
}

static uint64_t binomial(int n, int k)
{
    uint64_t r = 1;
    if (k < 0 || k > n)
        return 0;
    for (int i = 1; i <= k; i++)
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

/* State of one exhaustive enumeration. */
struct census {
    const struct variant *v;
    const struct material_index *ix;
    const char *name;
    uint64_t placements;  /* every legal placement, as enumerated */
    uint8_t *hits;        /* per index: placements mapped there */
    uint8_t *reps;        /* per index: of those, the ones flagged as representative */
};

static void fail_at(const struct census *c, const struct position *p, const char *what)
{
    char fen[FEN_SIZE];
    fen_print(c->v, p, fen);
    fail_msg("%s %s, %s: %s", c->v->name, c->name, fen, what);
}

/* Whether q is p under one of the board's symmetries. */
static bool is_image(const struct geometry *g, const struct position *p, const struct position *q)
{
    for (int s = 0; s < g->num_syms; s++) {
        struct position image = *p;
        for (int c = WHITE; c <= BLACK; c++) {
            image.kings[c] = geometry_transform(g, (enum symmetry)s, p->kings[c]);
            image.men[c] = geometry_transform(g, (enum symmetry)s, p->men[c]);
        }
        if (position_equal(&image, q))
            return true;
    }
    return false;
}

/* One enumerated placement: where the index sends it, and back. */
static void visit(struct census *c, const struct position *p)
{
    const struct material_index *ix = c->ix;
    bool representative = false;
    struct position back;
    uint64_t i = index_of(ix, p, &representative);

    c->placements++;
    if (i >= ix->size)
        fail_at(c, p, "index beyond the size");
    index_position(ix, i, p->side, &back);
    if (!ix->reduced) {
        if (c->hits[i]++)
            fail_at(c, p, "two placements share an index");
        if (!representative)
            fail_at(c, p, "not its own representative in an unreduced material");
        if (!position_equal(&back, p))
            fail_at(c, p, "index_position does not give the placement back");
        return;
    }
    c->hits[i]++;
    c->reps[i] += representative;
    if (!is_image(ix->g, p, &back))
        fail_at(c, p, "its representative is not one of its symmetric images");
    if (representative && !position_equal(&back, p))
        fail_at(c, p, "flagged as representative but index_position gives another position");
}

/* Whether a man of side s may stand on rank r: not on its promotion rank, nor behind the
 * ranks its side's men start on (read from the rule row here, not from man_squares). */
static bool man_may_stand(const struct variant *v, int s, int r)
{
    int ranks = v->board()->ranks, own = s == WHITE ? r : ranks - 1 - r;
    return own >= v->men_first_rank && own < ranks - 1;
}

/* Every placement of the material: White's men, Black's men (only where men may stand),
 * White's kings, Black's kings, each group in increasing square order. */
static void place(struct census *c, struct position *p, int group, int need, int from)
{
    const struct geometry *g = c->v->board();
    const struct material *m = &c->ix->m;
    const int counts[4] = { m->men[WHITE], m->men[BLACK], m->kings[WHITE], m->kings[BLACK] };
    bb_t *sets[4] = { &p->men[WHITE], &p->men[BLACK], &p->kings[WHITE], &p->kings[BLACK] };

    if (need == 0) {
        if (group == 3)
            visit(c, p);
        else
            place(c, p, group + 1, counts[group + 1], 0);
        return;
    }
    for (int d = from; d < g->num_squares; d++) {
        bb_t square = bb_of(g->square_bit[d]);
        if (position_occupied(p) & square)
            continue;
        if (group < 2 && !man_may_stand(c->v, group, g->rank_of[g->square_bit[d]]))
            continue;
        *sets[group] |= square;
        place(c, p, group, need - 1, d + 1);
        *sets[group] &= ~square;
    }
}

/* Every index gives a legal position of the material, which indexes back to it. */
static void check_round_trip(const struct variant *v, const struct material_index *ix,
                             const char *name)
{
    char err[256], fen[FEN_SIZE];
    for (uint64_t i = 0; i < ix->size; i++) {
        enum side side = (enum side)(i % 2);
        struct position p;
        bool representative = false;
        index_position(ix, i, side, &p);
        struct material got = material_of(&p);
        if (position_validate(v, &p, err, sizeof err) < 0 || !material_equal(&got, &ix->m) ||
            p.side != side || (p.men[WHITE] & promotion_rank(ix->g, WHITE)) ||
            (p.men[BLACK] & promotion_rank(ix->g, BLACK))) {
            fen_print(v, &p, fen);
            fail_msg("%s %s: index %llu gives %s, not a legal position of it (%s)", v->name,
                     name, (unsigned long long)i, fen, err);
        }
        if (index_of(ix, &p, &representative) != i || !representative) {
            fen_print(v, &p, fen);
            fail_msg("%s %s: index %llu gives %s, which indexes elsewhere", v->name, name,
                     (unsigned long long)i, fen);
        }
        /* the side to move is not part of the index */
        p.side = side_other(side);
        assert_int_equal(index_of(ix, &p, NULL), i);
    }
}

/* In a reduced material, every position one king move (to any free square) from r is
 * numbered from r's images as index_of() numbers it, fixed by as many symmetries. */
static void check_moved(const struct material_index *ix, const struct position *r)
{
    const struct geometry *g = ix->g;
    struct king_images from_r;
    index_king_images(ix, r, &from_r);
    for (int side = WHITE; side <= BLACK; side++) {
        int from, to;
        BB_FOR_EACH(from, r->kings[side]) {
            bb_t free = g->board & ~(r->kings[WHITE] | r->kings[BLACK]);
            BB_FOR_EACH(to, free) {
                struct position q = *r;
                struct king_images from_q;
                int fixing_moved, fixing_q;
                q.kings[side] ^= bb_of(from) | bb_of(to);
                index_king_images(ix, &q, &from_q);
                uint64_t i = index_of_moved(ix, &from_r, (enum side)side, from, to,
                                            &fixing_moved);
                assert_int_equal(i, index_of(ix, &q, NULL));
                assert_int_equal(index_of_images(ix, &from_q, &fixing_q), i);
                assert_int_equal(fixing_moved, fixing_q);
            }
        }
    }
}

static void check_material(const struct variant *v, const char *name)
{
    struct material m = material_named(v, name);
    const struct geometry *g = v->board();
    struct material_index ix;
    struct census c = { .v = v, .ix = &ix, .name = name };
    struct position p = { .side = WHITE };

    assert_int_equal(index_init(&ix, v, &m), 0);
    assert_true(material_equal(&ix.m, &m));
    assert_int_equal(ix.reduced, material_men(&m) == 0);
    check_round_trip(v, &ix, name);

    c.hits = calloc(ix.size, 1);
    c.reps = calloc(ix.size, 1);
    assert_non_null(c.hits);
    assert_non_null(c.reps);
    place(&c, &p, 0, m.men[WHITE], 0);

    if (!ix.reduced) {
        /* a bijection: as many placements as indices, none shared (checked in visit) */
        if (c.placements != ix.size)
            fail_msg("%s %s: %llu legal placements, index size %llu", v->name, name,
                     (unsigned long long)c.placements, (unsigned long long)ix.size);
        assert_int_equal(ix.men_count * ix.king_count, ix.size);
    } else {
        /* kings anywhere: no square is barred */
        uint64_t expected = binomial(g->num_squares, m.kings[WHITE]) *
                            binomial(g->num_squares - m.kings[WHITE], m.kings[BLACK]);
        uint64_t covered = 0;
        assert_int_equal(c.placements, expected);
        for (uint64_t i = 0; i < ix.size; i++) {
            struct position r, members[NUM_SYMS];
            index_position(&ix, i, WHITE, &r);
            int size = index_class_size(&ix, &r);
            if (c.reps[i] != 1 || c.hits[i] != size)
                fail_msg("%s %s: index %llu: %d placements, %d flagged representative, class "
                         "size %d", v->name, name, (unsigned long long)i, c.hits[i], c.reps[i],
                         size);
            /* the members: distinct images of r, r first */
            assert_int_equal(index_class_members(&ix, &r, members), size);
            assert_true(position_equal(&members[0], &r));
            for (int a = 0; a < size; a++) {
                /* each member numbered as r, fixed by as many symmetries as r */
                int fixing = 0;
                struct king_images images;
                index_king_images(&ix, &members[a], &images);
                assert_int_equal(index_of_images(&ix, &images, &fixing), i);
                assert_int_equal(fixing * size, g->num_syms);
                assert_true(is_image(g, &r, &members[a]));
                for (int b = 0; b < a; b++)
                    assert_false(position_equal(&members[a], &members[b]));
            }
            check_moved(&ix, &r);
            covered += (uint64_t)size;
        }
        assert_int_equal(covered, expected);
        /* the reduction is real: about one position in as many as the board has
         * symmetries (more where classes are smaller) */
        assert_true(ix.size * (uint64_t)g->num_syms >= expected &&
                    ix.size * (uint64_t)(g->num_syms - 1) < expected);
    }
    free(c.hits);
    free(c.reps);
    index_free(&ix);
}

/* Every material of 2 and 3 pieces, and `more`, up to NULL. */
static void check_small_materials(const char *variant, const char *const *more)
{
    const struct variant *v = test_variant(variant);
    for (size_t k = 0; k < sizeof small_materials / sizeof small_materials[0]; k++)
        check_material(v, small_materials[k]);
    for (; *more; more++)
        check_material(v, *more);
}

static void test_small_materials_8x8(void **state)
{
    static const char *const more[] = { "KKKvK", "KKvKK", "KKvKM", "KMvKM", "MMvMM", NULL };
    (void)state;
    check_small_materials("russian", more);
}

static void test_small_materials_10x10(void **state)
{
    static const char *const none[] = { NULL };
    (void)state;
    check_small_materials("international", none);
}

static void test_small_materials_orthogonal(void **state)
{
    static const char *const more[] = { "KMvKM", NULL };
    (void)state;
    check_small_materials("turkish", more);
}

/* Sizes known by counting. KvM on 8x8: 28 squares for the man (not rank 1, where Black
 * crowns) times 31 for the king. Kings-only classes by Burnside's lemma, the mean number
 * of placements each symmetry fixes: the half turn and the reflection in the other long
 * diagonal fix no square (its squares are not playable), the main diagonal fixes its own
 * squares (8 or 10). KvK: (32*31 + 8*7) / 4 = 262 and (50*49 + 10*9) / 4 = 635. KKvK on
 * 8x8: the black king on the diagonal and the white pair on it (C(7,2) = 21) or mirror
 * images of each other (24/2 = 12), so (C(32,2)*30 + 8*33) / 4 = 3786. */
static void check_size(const char *variant, const char *name, uint64_t expected)
{
    const struct variant *v = test_variant(variant);
    struct material m = material_named(v, name);
    struct material_index ix;
    assert_int_equal(index_init(&ix, v, &m), 0);
    if (ix.size != expected)
        fail_msg("%s %s: size %llu, expected %llu", variant, name, (unsigned long long)ix.size,
                 (unsigned long long)expected);
    index_free(&ix);
}

static void test_sizes(void **state)
{
    (void)state;
    check_size("russian", "KvM", 28 * 31);
    check_size("russian", "KvK", 262);
    check_size("international", "KvK", 635);
    check_size("russian", "KKvK", 3786);
    /* White's men on ranks 1-9 (45 squares), Black's on ranks 2-10: 40 squares both may
     * use, 5 only White's, 5 only Black's. Two white men, `shared` of them on the 40,
     * then the black man on the 45 - shared left to it. */
    uint64_t expected = 0;
    for (int shared = 0; shared <= 2; shared++)
        expected += binomial(5, 2 - shared) * binomial(40, shared) * (45 - (uint64_t)shared);
    check_size("international", "MMvM", expected);
    /* Turkish: a man stands on 48 squares (not its own back rank nor the last one), a
     * king on any of the others. Kings-only classes by Burnside's lemma over the eight
     * symmetries of the square: only the two diagonal reflections fix squares (the 8 of
     * their diagonal); the turns and the mirrors of files or ranks fix none. KvK:
     * (64*63 + 2*8*7) / 8 = 518. KKvK: the black king on the diagonal and the white pair
     * on it (C(7,2) = 21) or mirror images (56/2 = 28): (C(64,2)*62 + 2*8*49) / 8 = 15722. */
    check_size("turkish", "KvM", 48 * 63);
    check_size("turkish", "MvM", 48 * 47); /* both sides' men on ranks 2 to 7 */
    check_size("turkish", "KvK", 518);
    check_size("turkish", "KKvK", 15722);
}

/* Every man move that neither captures nor crowns raises the men's progress by one, or
 * keeps it where it steps sideways (Turkish), and a king move leaves the men configuration
 * as it is: the order the solver relies on. */
static void check_progress(const struct variant *v, const char *name, int samples)
{
    struct material m = material_named(v, name);
    struct material_index ix;
    struct move_list moves;
    uint64_t seed = 0x5DEECE66Dull;
    int man_moves = 0, king_moves = 0;
    char fen[FEN_SIZE];

    assert_int_equal(index_init(&ix, v, &m), 0);
    for (int k = 0; k < samples; k++) {
        struct position p;
        uint64_t i = random_next(&seed) % ix.size;
        index_position(&ix, i, (enum side)(random_next(&seed) & 1), &p);
        int progress = index_men_progress(&ix, index_men_config(&ix, i));
        generate_moves(v, &p, 0, &moves);
        for (int j = 0; j < moves.count; j++) {
            const struct move *mv = &moves.moves[j];
            struct position q;
            if (mv->num_jumps > 0 || mv->promotes)
                continue;
            make_move(&p, mv, &q);
            uint64_t after = index_men_config(&ix, index_of(&ix, &q, NULL));
            bool man = p.men[p.side] & bb_of(mv->from);
            int step = ix.g->rank_of[mv->from] != ix.g->rank_of[mv->to];
            if (man ? index_men_progress(&ix, after) == progress + step
                    : after == index_men_config(&ix, i)) {
                man ? man_moves++ : king_moves++;
                continue;
            }
            fen_print(v, &p, fen);
            fail_msg("%s %s: %s, the %s move %d changes the men's progress from %d to %d",
                     v->name, name, fen, man ? "man" : "king", j, progress,
                     index_men_progress(&ix, after));
        }
    }
    /* the samples did exercise both kinds */
    assert_true(man_moves > samples / 2);
    assert_true(king_moves > samples / 2);
    index_free(&ix);
}

/* The number of n-piece positions of checkers as Schaeffer et al. published it ("Checkers
 * Is Solved", Science 2007; OEIS A055213): every placement of n pieces, one-sided ones
 * included, side to move not counted. The index's unreduced sizes must add up to it. */
static void test_published_position_counts(void **state)
{
    (void)state;
    static const uint64_t published[] = { 0, 120, 6972, 261224, 7092774 };
    const struct variant *v = test_variant("english");
    for (int n = 1; n <= 4; n++) {
        uint64_t total = 0;
        for (int wk = 0; wk <= n; wk++)
            for (int wm = 0; wk + wm <= n; wm++)
                for (int bk = 0; wk + wm + bk <= n; bk++) {
                    struct material m = { { wk, bk }, { wm, n - wk - wm - bk } };
                    struct material_index ix;
                    assert_int_equal(index_init(&ix, v, &m), 0);
                    total += ix.men_count * ix.king_count;
                    index_free(&ix);
                }
        if (total != published[n])
            fail_msg("%d pieces: %llu positions, published %llu", n,
                     (unsigned long long)total, (unsigned long long)published[n]);
    }
}

static void test_men_progress(void **state)
{
    (void)state;
    check_progress(test_variant("russian"), "KMvKM", 3000);
    check_progress(test_variant("russian"), "KMMvKM", 3000);
    check_progress(test_variant("international"), "KMMvKM", 3000);
    check_progress(test_variant("english"), "KMvKMM", 3000);
    check_progress(test_variant("turkish"), "KMvKM", 3000);
}

static int progress_of(const struct material_index *ix, const struct variant *v,
                       const char *fen)
{
    struct position p = test_position(v, fen);
    return index_men_progress(ix, index_men_config(ix, index_of(ix, &p, NULL)));
}

/* Progress counts the ranks the men have advanced: 0 with every man on its own back rank;
 * a man one step from crowning has come ranks - 2. */
static void test_progress_values(void **state)
{
    const struct variant *v = test_variant("russian");
    struct material m = material_named(v, "MvM");
    struct material_index ix;
    (void)state;
    assert_int_equal(index_init(&ix, v, &m), 0);
    assert_int_equal(progress_of(&ix, v, "W:Wa1:Bh8"), 0);
    assert_int_equal(progress_of(&ix, v, "W:Wb2:Bg7"), 1 + 1);
    assert_int_equal(progress_of(&ix, v, "W:Wg7:Bb2"), 6 + 6);
    assert_int_equal(progress_of(&ix, v, "B:Wc1:Bd2"), 0 + 6);
    index_free(&ix);
}

/* The progress of every configuration at once (stepping through Black's sets) is that of
 * each decoded alone: men on both sides, one side only, none, every board. */
static void check_progress_all(const char *variant, const char *name)
{
    const struct variant *v = test_variant(variant);
    struct material m = material_named(v, name);
    struct material_index ix;
    assert_int_equal(index_init(&ix, v, &m), 0);
    int *all = malloc(ix.men_count * sizeof *all);
    assert_non_null(all);
    index_men_progress_all(&ix, all);
    for (uint64_t c = 0; c < ix.men_count; c++)
        if (all[c] != index_men_progress(&ix, c))
            fail_msg("%s %s: configuration %llu has progress %d, %d decoded alone", variant,
                     name, (unsigned long long)c, all[c], index_men_progress(&ix, c));
    free(all);
    index_free(&ix);
}

static void test_men_progress_all(void **state)
{
    (void)state;
    check_progress_all("russian", "MMvMM");
    check_progress_all("russian", "KMMMvK");
    check_progress_all("russian", "KvMMM");
    check_progress_all("russian", "KKvK");
    check_progress_all("international", "MMvMM");
    check_progress_all("english", "KMvMMM");
    check_progress_all("turkish", "MMvM");
}

/* core/divider.h: the quotient and remainder by multiplication equal the processor's, for
 * divisors of every size (powers of two and their neighbours, where the method's rounding
 * is tightest, and the index's own) and numerators up to the largest it promises. */
static void test_divider(void **state)
{
    (void)state;
    uint64_t divisors[200], n_divisors = 0;
    for (int l = 0; l < 64; l++) {
        uint64_t power = (uint64_t)1 << l;
        divisors[n_divisors++] = power;
        divisors[n_divisors++] = power + 1;
        if (power > 2)
            divisors[n_divisors++] = power - 1;
    }
    divisors[n_divisors++] = UINT64_MAX;
    divisors[n_divisors++] = 3 * 2 * 496; /* KKvK's king placements on 32 squares, say */
    divisors[n_divisors++] = 1225 * 48;
    uint64_t top = ((uint64_t)1 << DIVIDER_NUMERATOR_BITS) - 1, x = 88172645463325252u;
    for (uint64_t k = 0; k < n_divisors; k++) {
        struct divider by = divider_of(divisors[k]);
        for (int t = 0; t < 2000; t++) {
            /* small numbers, numbers near multiples of d, and any below 2^62 */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint64_t d = divisors[k], near = (x % 1000) * d + (uint64_t)(t % 3) - 1;
            uint64_t n = t < 200 ? (uint64_t)t : t < 400 ? top - (uint64_t)(t - 200)
                       : t % 2 && near <= top ? near : x & top;
            if (divide(n, by) != n / d || remainder_of(n, by) != n % d)
                fail_msg("%llu / %llu: %llu, remainder %llu", (unsigned long long)n,
                         (unsigned long long)d, (unsigned long long)divide(n, by),
                         (unsigned long long)remainder_of(n, by));
        }
    }
}

/* index_of_king_moves numbers the positions one king away as index_of numbers them once
 * built: every king of both sides put on every empty square, in every 101st position (a
 * prime, so that both sides' kings and the men configurations all vary). */
static void check_king_moves(const char *variant, const char *name)
{
    const struct variant *v = test_variant(variant);
    struct material m = material_named(v, name);
    struct material_index ix;
    uint64_t got[64];
    assert_int_equal(index_init(&ix, v, &m), 0);
    for (uint64_t i = 0; i < ix.size; i += 101) {
        struct position p;
        index_position(&ix, i, WHITE, &p);
        bb_t empty = ix.g->board & ~position_occupied(&p);
        for (int side = WHITE; side <= BLACK; side++) {
            int k, to;
            BB_FOR_EACH(k, p.kings[side]) {
                int n = index_of_king_moves(&ix, index_men_config(&ix, i), &p, (enum side)side,
                                            k, empty, got), at = 0;
                assert_int_equal(n, bb_count(empty));
                BB_FOR_EACH(to, empty) {
                    struct position moved = p;
                    moved.kings[side] = (p.kings[side] & ~bb_of(k)) | bb_of(to);
                    if (got[at++] != index_of(&ix, &moved, NULL))
                        fail_msg("%s %s: index %llu, king %d to %d", variant, name,
                                 (unsigned long long)i, k, to);
                }
            }
        }
    }
    index_free(&ix);
}

static void test_king_moves(void **state)
{
    (void)state;
    check_king_moves("russian", "KKMvKM");
    check_king_moves("russian", "KMvKKM");
    check_king_moves("international", "KKvKM");
    check_king_moves("turkish", "KKMvKM");
}

/* index_of in its two parts, the men configuration and then the index within it, gives
 * every position of a material with men its own index (every 7th index: all the
 * configurations and both sides' kings vary). */
static void check_in_config(const char *variant, const char *name)
{
    const struct variant *v = test_variant(variant);
    struct material m = material_named(v, name);
    struct material_index ix;
    assert_int_equal(index_init(&ix, v, &m), 0);
    for (uint64_t i = 0; i < ix.size; i += 7) {
        struct position p;
        index_position(&ix, i, WHITE, &p);
        uint64_t config = index_men_config_of(&ix, &p);
        if (config != index_men_config(&ix, i) || index_of_in_config(&ix, config, &p) != i)
            fail_msg("%s %s: index %llu", variant, name, (unsigned long long)i);
    }
    index_free(&ix);
}

static void test_in_config(void **state)
{
    (void)state;
    check_in_config("russian", "KKMvKM");
    check_in_config("international", "KMvMM");
    check_in_config("turkish", "KMvKM");
    check_in_config("english", "MMvM");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_materials_8x8),
        cmocka_unit_test(test_small_materials_10x10),
        cmocka_unit_test(test_small_materials_orthogonal),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_published_position_counts),
        cmocka_unit_test(test_men_progress),
        cmocka_unit_test(test_progress_values),
        cmocka_unit_test(test_men_progress_all),
        cmocka_unit_test(test_divider),
        cmocka_unit_test(test_king_moves),
        cmocka_unit_test(test_in_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
