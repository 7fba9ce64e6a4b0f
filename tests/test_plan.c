/* The waves and the dealing of a plan among processes (gen/deal.h), and the memory
 * estimate's level sizes (gen/plan.h): the men configurations of each
 * advancement, counted square by square, must equal what the solver finds by unranking
 * every configuration (material_levels in solve/solve.h), level by level. */
#include "tests/test_util.h"

#include "format/index.h"
#include "gen/deal.h"
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

/* The plan of every material of `variant` up to `pieces` (malloc'd: it is large). */
static struct plan *test_plan(const char *variant, int pieces)
{
    const struct variant *v = test_variant(variant);
    struct material wanted[512];
    struct tableset ts;
    int n = 0;
    for (int p = 2; p <= pieces; p++)
        n += material_list(v, p, wanted + n, 512 - n);
    struct plan *plan = malloc(sizeof *plan);
    assert_non_null(plan);
    tableset_init(&ts, v, NULL);
    make_plan(&ts, wanted, n, plan);
    tableset_free(&ts);
    return plan;
}

/* No item reads one of its own wave or a later one, and a wave ends only where the next
 * item reads one of it: each wave's first item (but the first's) reads the wave before. */
static void test_waves(void **state)
{
    (void)state;
    static const char *const variants[] = { "russian", "international", "turkish" };
    int wave[MAX_MATERIALS];
    for (size_t c = 0; c < sizeof variants / sizeof variants[0]; c++) {
        struct plan *plan = test_plan(variants[c], 5);
        int waves = plan_waves(plan, wave);
        assert_int_equal(wave[0], 0);
        assert_int_equal(wave[plan->count - 1], waves - 1);
        for (int k = 0; k < plan->count; k++) {
            bool reads_wave_before = false;
            for (int r = 0; r < plan->num_reads[k]; r++) {
                assert_true(wave[plan->reads[k][r]] < wave[k]);
                reads_wave_before |= wave[plan->reads[k][r]] == wave[k] - 1;
            }
            if (k > 0 && wave[k] != wave[k - 1]) {
                assert_int_equal(wave[k], wave[k - 1] + 1);
                assert_true(reads_wave_before);
            }
        }
        free(plan);
    }
}

/* Every item goes to one process of those there are, the same every time; a lone
 * process gets them all; and within a wave the work is shared as dealing the largest
 * first to the least loaded shares it: no process has more than the least loaded one
 * plus the largest item of the wave, and with more processes than items each item has a
 * process to itself. */
static void test_deal(void **state)
{
    (void)state;
    struct plan *plan = test_plan("russian", 5);
    int wave[MAX_MATERIALS], owner[MAX_MATERIALS], again[MAX_MATERIALS];
    int waves = plan_waves(plan, wave);
    plan_deal(plan, wave, 1, owner);
    for (int k = 0; k < plan->count; k++)
        assert_int_equal(owner[k], 0);
    for (int processes = 2; processes <= 64; processes *= 2) {
        plan_deal(plan, wave, processes, owner);
        plan_deal(plan, wave, processes, again);
        assert_memory_equal(owner, again, (size_t)plan->count * sizeof owner[0]);
        for (int w = 0; w < waves; w++) {
            double load[64] = { 0 }, largest = 0;
            int items = 0, used = 0;
            for (int k = 0; k < plan->count; k++) {
                if (wave[k] != w)
                    continue;
                assert_true(owner[k] >= 0 && owner[k] < processes);
                used += load[owner[k]] == 0;
                load[owner[k]] += plan->positions[k];
                largest = plan->positions[k] > largest ? plan->positions[k] : largest;
                items++;
            }
            double most = 0, least = load[0];
            for (int p = 0; p < processes; p++) {
                most = load[p] > most ? load[p] : most;
                least = load[p] < least ? load[p] : least;
            }
            assert_true(most <= least + largest);
            assert_int_equal(used, items < processes ? items : processes);
        }
    }
    free(plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_equal_unranked),
        cmocka_unit_test(test_kings_only),
        cmocka_unit_test(test_waves),
        cmocka_unit_test(test_deal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
