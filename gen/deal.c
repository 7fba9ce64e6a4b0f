#include "gen/deal.h"

int plan_waves(const struct plan *plan, int wave[MAX_MATERIALS])
{
    int current = 0, start = 0;
    for (int k = 0; k < plan->count; k++) {
        for (int r = 0; r < plan->num_reads[k]; r++)
            if (plan->reads[k][r] >= start) {
                current++;
                start = k;
                break;
            }
        wave[k] = current;
    }
    return plan->count > 0 ? current + 1 : 0;
}

/* The work of item k for dealing: its positions; a table found on disk is only read and
 * checked, a small share of solving it. */
#define FOUND_SHARE 0.05
static double work_of(const struct plan *plan, int k)
{
    return plan->positions[k] * (plan->found[k] ? FOUND_SHARE : 1);
}

/* Whether item i is dealt before item j: the larger first, the earlier in the plan on a
 * tie. */
static bool dealt_before(const struct plan *plan, int i, int j)
{
    double wi = work_of(plan, i), wj = work_of(plan, j);
    return wi != wj ? wi > wj : i < j;
}

/* Deals items[0..n) (one wave, in dealing order) to the processes, each to the one
 * with the least work so far. A wave has at most MAX_MATERIALS items, so no more
 * processes than that ever get one. */
static void deal_wave(const struct plan *plan, const int *items, int n, int processes,
                      int owner[MAX_MATERIALS])
{
    double load[MAX_MATERIALS] = { 0 };
    if (processes > MAX_MATERIALS)
        processes = MAX_MATERIALS;
    for (int i = 0; i < n; i++) {
        int least = 0;
        for (int p = 1; p < processes; p++)
            if (load[p] < load[least])
                least = p;
        owner[items[i]] = least;
        load[least] += work_of(plan, items[i]);
    }
}

void plan_deal(const struct plan *plan, const int wave[MAX_MATERIALS], int processes,
               int owner[MAX_MATERIALS])
{
    int items[MAX_MATERIALS];
    for (int start = 0, end; start < plan->count; start = end) {
        int n = 0;
        for (end = start; end < plan->count && wave[end] == wave[start]; end++) {
            /* insertion into dealing order: a wave holds a few dozen items */
            int at = n++;
            for (; at > 0 && dealt_before(plan, end, items[at - 1]); at--)
                items[at] = items[at - 1];
            items[at] = end;
        }
        deal_wave(plan, items, n, processes, owner);
    }
}
