/* The memory estimate's level sizes (gen/plan.h): the men configurations of each
 * advancement, counted square by square, must equal what the solver finds by unranking
 * every configuration (material_levels in solve/solve.h), level by level. */
#include "tests/test_util.h"

#include "format/index.h"
#include "gen/plan.h"
#include "solve/solve.h"

static void check_counts(const char *variant, const char *name)
{
    const struct variant *v = test_variant(variant);
    struct material m;
    struct material_index ix;
    struct material_levels levels;
    uint64_t counts[MAX_MEN_PROGRESS + 1], total = 0;
    char err[256];
    if (material_parse(v, name, &m, err, sizeof err) < 0)
        fail_msg("%s: %s", name, err);
    assert_int_equal(index_init(&ix, v, &m), 0);
    assert_int_equal(material_levels(&ix, &levels), 0);
    men_progress_counts(v, &m, counts);
    for (int k = 0; k < levels.count; k++) {
        int progress = levels.count - 1 - k; /* the most advanced level first */
        uint64_t unranked = levels.start[k + 1] - levels.start[k];
        uint64_t counted = progress <= MAX_MEN_PROGRESS ? counts[progress] : 0;
        if (counted != unranked)
            fail_msg("%s %s, progress %d: %llu configurations counted, %llu unranked",
                     variant, name, progress, (unsigned long long)counted,
                     (unsigned long long)unranked);
        total += counted;
    }
    assert_int_equal(total, ix.men_count);
    material_levels_free(&levels);
    index_free(&ix);
}

/* Every board and both orientations of the men: the diagonal 8x8 (Russian, English,
 * whose men start on fewer ranks), the 10x10 and the orthogonal 8x8 (Turkish). */
static void test_counts_equal_unranked(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        { "russian", "MvK" },       { "russian", "KMvM" },        { "russian", "MMvMM" },
        { "russian", "KMMMvMM" },   { "english", "MMMvM" },       { "international", "MvM" },
        { "international", "KMMvMM" }, { "turkish", "MMvM" },     { "turkish", "KMMvKM" },
        { "brazilian", "KKvMMM" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check_counts(cases[k][0], cases[k][1]);
}

/* A material of kings only has one level: every configuration (the empty one) at 0. */
static void test_kings_only(void **state)
{
    (void)state;
    const struct variant *v = test_variant("russian");
    struct material m;
    uint64_t counts[MAX_MEN_PROGRESS + 1];
    char err[256];
    assert_int_equal(material_parse(v, "KKvK", &m, err, sizeof err), 0);
    men_progress_counts(v, &m, counts);
    assert_int_equal(counts[0], 1);
    for (int p = 1; p <= MAX_MEN_PROGRESS; p++)
        assert_int_equal(counts[p], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_equal_unranked),
        cmocka_unit_test(test_kings_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
