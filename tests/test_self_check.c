/* The self-consistency check (solve/self_check.h) behind `damero gen --self-check`: silent on a
 * solved table, and it finds a value changed anywhere. */
#include "tests/test_util.h"

#include "gen/build.h"
#include "solve/self_check.h"

static void build(struct tableset *ts, const char *variant, const char *material,
                  struct material *m)
{
    char err[512];
    const struct variant *v = test_variant(variant);
    struct build_options options = { 0 };
    tableset_init(ts, v, NULL);
    if (material_parse(v, material, m, err, sizeof err) < 0)
        fail_msg("%s", err);
    if (build_materials(ts, m, 1, &options, err, sizeof err) < 0)
        fail_msg("%s", err);
}

static void test_solved_tables_pass(void **state)
{
    (void)state;
    const char *cases[][2] = { { "russian", "KKvK" }, { "international", "KMvK" },
                               { "poddavki", "KMvM" }, { "italian", "KKvM" } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct tableset ts;
        struct material m;
        char err[1024] = "";
        build(&ts, cases[k][0], cases[k][1], &m);
        uint64_t bad = self_check_table(&ts, &m, NULL, err, sizeof err);
        if (bad)
            fail_msg("%s %s: %llu bad positions: %s", cases[k][0], cases[k][1],
                     (unsigned long long)bad, err);
        tableset_free(&ts);
    }
}

/* Every kind of damage: a win made longer, a loss made a draw, an MTC changed. */
static void test_damage_is_found(void **state)
{
    (void)state;
    struct tableset ts;
    struct material m;
    build(&ts, "russian", "KKvK", &m);
    struct table *t = ts.by_code[material_code(&m)];
    uint64_t win = UINT64_MAX, loss = UINT64_MAX;
    for (uint64_t i = 0; i < t->ix.size; i++) {
        if (win == UINT64_MAX && dtm_is_win(t->dtm[WHITE][i]) && dtm_plies(t->dtm[WHITE][i]) > 1)
            win = i;
        if (loss == UINT64_MAX && dtm_is_loss(t->dtm[BLACK][i]))
            loss = i;
    }
    assert_true(win != UINT64_MAX && loss != UINT64_MAX);

    struct { uint16_t *slot; uint16_t value; } damage[] = {
        { &t->dtm[WHITE][win], (uint16_t)(t->dtm[WHITE][win] + 2) },
        { &t->dtm[BLACK][loss], DTM_DRAW },
        { &t->mtc[WHITE][win], (uint16_t)(t->mtc[WHITE][win] + 1) },
    };
    for (size_t k = 0; k < sizeof damage / sizeof damage[0]; k++) {
        char err[1024] = "";
        uint16_t saved = *damage[k].slot;
        *damage[k].slot = damage[k].value;
        assert_true(self_check_table(&ts, &m, NULL, err, sizeof err) >= 1);
        /* the message names a position and both values */
        assert_non_null(strstr(err, "the table says"));
        assert_non_null(strstr(err, ":W") ? strstr(err, ":W") : strstr(err, ":B"));
        *damage[k].slot = saved;
        assert_int_equal(self_check_table(&ts, &m, NULL, err, sizeof err), 0);
    }
    tableset_free(&ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solved_tables_pass),
        cmocka_unit_test(test_damage_is_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
