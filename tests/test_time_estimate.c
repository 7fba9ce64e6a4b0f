/* The build's time estimate (gen/time_estimate.h): the rate of each class of material
 * taken from the calibration, scaled by pieces beyond it, and only the materials still
 * to solve counted. The calibrations here are made up: no timing is asserted. */
#include "tests/test_util.h"

#include "gen/build.h"
#include "gen/time_estimate.h"

/* A calibration up to 4 pieces on 2 threads: kings only 1 microsecond a position, with
 * men a quarter of one. */
static struct calibration made_up(void)
{
    struct calibration c = { .pieces = 4, .threads = 2 };
    c.positions[WORK_KINGS_ONLY][4] = 2e6;
    c.cpu_seconds[WORK_KINGS_ONLY][4] = 2;
    c.positions[WORK_WITH_MEN][4] = 8e6;
    c.cpu_seconds[WORK_WITH_MEN][4] = 2;
    c.positions[WORK_WITH_MEN][3] = 1e5; /* not the rate used: the largest count is */
    c.cpu_seconds[WORK_WITH_MEN][3] = 1;
    return c;
}

static struct material parse(const struct variant *v, const char *name)
{
    struct material m;
    char err[256];
    if (material_parse(v, name, &m, err, sizeof err) < 0)
        fail_msg("%s: %s", name, err);
    return m;
}

static void test_classes(void **state)
{
    (void)state;
    const struct variant *v = test_variant("russian");
    struct material kings = parse(v, "KKvK"), men = parse(v, "KMvK");
    assert_int_equal(work_class_of(&kings), WORK_KINGS_ONLY);
    assert_int_equal(work_class_of(&men), WORK_WITH_MEN);
}

/* Up to the calibration's pieces, its rate at its largest count; beyond, in proportion
 * to the pieces. */
static void test_rate_by_pieces(void **state)
{
    (void)state;
    struct calibration c = made_up();
    assert_float_equal(seconds_per_position(&c, WORK_KINGS_ONLY, 4), 1e-6, 1e-12);
    assert_float_equal(seconds_per_position(&c, WORK_WITH_MEN, 3), 0.25e-6, 1e-12);
    assert_float_equal(seconds_per_position(&c, WORK_WITH_MEN, 4), 0.25e-6, 1e-12);
    assert_float_equal(seconds_per_position(&c, WORK_WITH_MEN, 6), 0.25e-6 * 6 / 4, 1e-12);
    assert_float_equal(seconds_per_position(&c, WORK_KINGS_ONLY, 7), 1e-6 * 7 / 4, 1e-12);
}

/* A class the calibration solved only at fewer pieces is priced from there. */
static void test_rate_of_a_class_measured_lower(void **state)
{
    (void)state;
    struct calibration c = made_up();
    c.positions[WORK_KINGS_ONLY][4] = c.cpu_seconds[WORK_KINGS_ONLY][4] = 0;
    c.positions[WORK_KINGS_ONLY][3] = 1e6;
    c.cpu_seconds[WORK_KINGS_ONLY][3] = 3;
    assert_float_equal(seconds_per_position(&c, WORK_KINGS_ONLY, 3), 3e-6, 1e-12);
    assert_float_equal(seconds_per_position(&c, WORK_KINGS_ONLY, 5), 3e-6 * 5 / 3, 1e-12);
}

/* The plan's materials at their class's rate, those found on disk left out; the wall
 * time the processor time shared by the threads. */
static void test_estimate_counts_what_is_solved(void **state)
{
    (void)state;
    const struct variant *v = test_variant("russian");
    struct tableset ts;
    struct plan *plan = malloc(sizeof *plan);
    struct material wanted = parse(v, "KMvKK");
    struct calibration c = made_up();
    struct time_estimate e;
    assert_non_null(plan);
    tableset_init(&ts, v, NULL);
    make_plan(&ts, &wanted, 1, plan);
    double cpu = 0, positions = 0;
    for (int k = 0; k < plan->count; k++) {
        const struct material *m = &plan->list[k];
        positions += 2 * plan->positions[k];
        cpu += 2 * plan->positions[k] *
               seconds_per_position(&c, work_class_of(m), material_pieces(m));
    }
    estimate_time(plan, &c, &e);
    assert_int_equal(e.materials, plan->count);
    assert_float_equal(e.positions, positions, 1e-3);
    assert_float_equal(e.cpu_seconds, cpu, 1e-9);
    assert_float_equal(e.wall_seconds, cpu / 2, 1e-9);
    assert_int_equal(e.calibration.pieces, 4);

    int last = plan->count - 1;
    const struct material *m = &plan->list[last];
    plan->found[last] = true;
    estimate_time(plan, &c, &e);
    assert_int_equal(e.materials, plan->count - 1);
    assert_float_equal(e.cpu_seconds,
                       cpu - 2 * plan->positions[last] *
                                 seconds_per_position(&c, work_class_of(m), material_pieces(m)),
                       1e-9);
    tableset_free(&ts);
    free(plan);
}

/* The parts a build tells, the last one ("done") kept, and the cost of each as it starts
 * summed. */
struct told {
    struct progress_part last;
    double costs;
};

static void on_part(void *context, const struct progress_part *part)
{
    struct told *told = context;
    told->last = *part;
    told->costs += part->cost;
}

static void on_fraction(void *context, double fraction)
{
    (void)context;
    (void)fraction;
}

/* A build's progress weighs each material's positions by its pieces, so that the time
 * left is not taken for less than it is while the small materials go first. */
static void test_build_progress_costs_by_pieces(void **state)
{
    (void)state;
    const struct variant *v = test_variant("russian");
    struct tableset ts;
    struct material wanted = parse(v, "KMvK");
    struct told told = { 0 };
    struct progress_report progress = { .report = on_fraction, .context = &told,
                                        .part = on_part };
    struct build_options options = { .progress = &progress };
    char err[256];
    assert_int_equal(material_cost(&wanted, 10), 30);
    tableset_init(&ts, v, NULL);
    assert_int_equal(build_materials(&ts, &wanted, 1, &options, err, sizeof err), 0);
    double cost = 0;
    for (int c = 0; c < MATERIAL_CODES; c++)
        if (ts.by_code[c])
            cost += material_cost(&ts.by_code[c]->m, (double)ts.by_code[c]->ix.size);
    assert_string_equal(told.last.name, "done");
    assert_float_equal(told.last.cost_done, told.last.total_cost, 1e-6);
    assert_float_equal(told.costs, told.last.total_cost, 1e-6);
    /* kings only: the plan's estimated sizes, not the index's; within a few per cent */
    assert_true(told.last.total_cost > 0.9 * cost && told.last.total_cost < 1.1 * cost);
    tableset_free(&ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_rate_by_pieces),
        cmocka_unit_test(test_rate_of_a_class_measured_lower),
        cmocka_unit_test(test_estimate_counts_what_is_solved),
        cmocka_unit_test(test_build_progress_costs_by_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
