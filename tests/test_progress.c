/* The progress bar's time left (cli/progress.h): from the cost of the work, not its
 * positions, so that a build whose later positions cost more is not told it is nearly
 * done. */
#include "tests/test_util.h"

#include "cli/progress.h"

static void test_time_left_from_cost(void **state)
{
    (void)state;
    /* half the positions done in 10 s, but a third of the cost: 20 s left, not 10 */
    struct progress_part p = { .work_done = 50, .work = 10, .total_work = 100,
                               .cost_done = 50, .cost = 20, .total_cost = 150 };
    assert_float_equal(progress_seconds_left(&p, 0, 10), 20, 1e-9);
    /* half of the part under way done too: 60 of 150 */
    assert_float_equal(progress_seconds_left(&p, 0.5, 10), 10.0 * 90 / 60, 1e-9);
    /* nothing done yet: nothing to go by */
    struct progress_part start = { .cost = 20, .total_cost = 150 };
    assert_float_equal(progress_seconds_left(&start, 0, 3), 0, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_left_from_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
