/* The rule tables by layers (rulegen/rule_layers.h) against the search from every position
 * (rules/rule_search.h): both ways of rule_table_values give the same value to every
 * position of materials whose counts run in step, and which materials those are. */
#define _XOPEN_SOURCE 700
#include "tests/test_util.h"

#include "rules/rule_search.h"
#include "rules/rule_state.h"
#include "gen/build.h"
#include "rulegen/rule_table.h"
#include "tests/file_util.h"

static struct material test_material(const struct variant *v, const char *name)
{
    struct material m;
    char err[256];
    if (material_parse(v, name, &m, err, sizeof err) < 0)
        fail_msg("%s", err);
    return m;
}

static bool in_step(const char *variant, const char *material, int reading)
{
    const struct variant *v = test_variant(variant);
    struct material m = test_material(v, material);
    struct rule_row row;
    assert_int_equal(rule_row_init(&row, v, reading), 0);
    return rule_counts_in_step(&row, &m);
}

/* Which materials the layers solve: the counts in step, decided from the rule row. */
static void test_which_materials(void **state)
{
    (void)state;
    assert_true(in_step("russian", "KKvKM", 0));  /* the 30 moves, not reset by a man step */
    assert_true(in_step("russian", "KKMvK", 1));
    assert_true(in_step("russian", "KKvKK", 0));  /* the kings-only 15 and the 30 together */
    assert_true(in_step("spanish", "KKvK", 0));   /* 40 plies, kings only */
    assert_false(in_step("russian", "KKKvK", 0)); /* three kings against one must win within 15 */
    assert_false(in_step("russian", "KKvK", 0));  /* two pieces against one king: 5 moves */
    assert_true(in_step("czech", "KMvK", 0));     /* a man step resets the 15 moves: it
                                                     leads to a fresh state, as captures do */
    assert_true(in_step("brazilian", "KKMvKM", 0));
    assert_false(in_step("spanish", "KKMvKM", 0)); /* the saque de peon has a precondition */
    assert_false(in_step("russian", "MvK", 0));   /* no rule covers it */
}

/* Builds the tables of `material` with the rule tables of every material it reaches
 * into dir, then for each reading compares the layers with the search position by
 * position. `rules_matter`: some fresh value differs from the value without the rules. */
static void compare(const char *dir, const char *variant, const char *material,
                    bool rules_matter)
{
    const struct variant *v = test_variant(variant);
    struct material m = test_material(v, material);
    struct build_options options = { .rule_tables = true };
    struct tableset ts;
    char err[512], path[TEMP_DIR_SIZE + 32];
    snprintf(path, sizeof path, "%s/%s", dir, variant);
    tableset_init(&ts, v, path);
    if (build_materials(&ts, &m, 1, &options, err, sizeof err) < 0)
        fail_msg("%s %s: %s", variant, material, err);
    if (!tableset_get(&ts, &m, err, sizeof err)) /* its values without the rules */
        fail_msg("%s", err);
    uint64_t changed = 0; /* positions the rules change: a longer win or loss, or a draw */
    uint64_t with_dtz = 0; /* won or lost positions whose distance the search knows */
    uint64_t decided = 0, layers_known = 0; /* won or lost positions; those the layers know */
    for (int reading = 0; reading < rule_table_readings(v); reading++) {
        struct rule_values by_layers, by_search;
        if (rule_table_values(&ts, &m, reading, RULE_SOLVER_ANY, &by_layers, err,
                              sizeof err) < 0 ||
            rule_table_values(&ts, &m, reading, RULE_SOLVER_SEARCH, &by_search, err,
                              sizeof err) < 0)
            fail_msg("%s %s reading %d: %s", variant, material, reading, err);
        const struct table layers = by_layers.t, search = by_search.t;
        for (int side = 0; side < 2; side++)
            for (uint64_t i = 0; i < layers.ix.size; i++) {
                struct position p;
                dtm_t value = layers.dtm[side][i], plain;
                if (value != search.dtm[side][i])
                    fail_msg("%s %s reading %d, side %d, index %llu: layers %u, search %u",
                             variant, material, reading, side, (unsigned long long)i,
                             value, search.dtm[side][i]);
                /* the layers' distance (a minimum and a maximum over the graph, layer by
                 * layer) against the search's, where the search knows it */
                int searched = rule_dtz_of_stored(value, by_search.dtz[side][i]);
                with_dtz += searched != RULE_DTZ_UNKNOWN && value != DTM_DRAW;
                decided += value != DTM_DRAW && dtm_plies(value) > 0;
                layers_known += rule_dtz_of_stored(value, by_layers.dtz[side][i]) != RULE_DTZ_UNKNOWN &&
                                value != DTM_DRAW && dtm_plies(value) > 0;
                if (searched != RULE_DTZ_UNKNOWN && by_layers.dtz[side][i] != searched)
                    fail_msg("%s %s reading %d, side %d, index %llu: distance to zeroing "
                             "by layers %u, by the search %u", variant, material, reading,
                             side, (unsigned long long)i, by_layers.dtz[side][i],
                             by_search.dtz[side][i]);
                index_position(&layers.ix, i, (enum side)side, &p);
                assert_int_equal(tableset_value(&ts, &p, &plain, NULL), 0);
                changed += value != plain;
            }
        print_message("%s %s reading %d: %llu positions each side to move the same, %llu "
                      "changed by the rules so far, %llu distances to zeroing the same; "
                      "%llu of %llu known by layers\n",
                      variant, material, reading, (unsigned long long)layers.ix.size,
                      (unsigned long long)changed, (unsigned long long)with_dtz,
                      (unsigned long long)layers_known, (unsigned long long)decided);
        rule_values_free(&by_layers);
        rule_values_free(&by_search);
    }
    assert_true((changed > 0) == rules_matter);
    assert_true(with_dtz > 0); /* and the distances were compared */
    tableset_free(&ts);
}

static void test_layers_as_search(void **state)
{
    const char *dir = ((struct temp_dir *)*state)->dir;
    compare(dir, "russian", "KKvKM", true); /* the 30 moves: 60 plies, or 30 under reading 1 */
    compare(dir, "russian", "KKvKK", true); /* the kings-only 15 (reset by a capture or a
                                               man move) and the 30 moves at once */
    /* the 15 moves, reset by a man step, which leads to a fresh state of the material: by
     * levels of men advancement. No fresh state of so few pieces needs 15 moves without
     * a man move (test_rules_probe checks this material with counts running) */
    compare(dir, "czech", "KMvK", false);
    compare(dir, "russian", "KKvK", true);
    compare(dir, "russian", "KMvK", true);
    compare(dir, "russian", "KKKvK", true);
    compare(dir, "international", "KKvK", false);
    compare(dir, "international", "KKKvK", false);
    compare(dir, "spanish", "KKKvK", true);
}

static int setup(void **state)
{
    return temp_dir_setup(state, "rule-layers");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_which_materials),
        cmocka_unit_test_setup_teardown(test_layers_as_search, setup, temp_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
