#define _DEFAULT_SOURCE /* mkdtemp, beside POSIX */
#include "gen/time_estimate.h"

#include <dirent.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "gen/build.h"

/* The calibration solves every material up to the most pieces whose positions (both
 * sides to move, all together) stay under this: on 8x8 boards up to 4 pieces (6.9
 * million, about 2 processor seconds), on 10x10 up to 3. */
#define CALIBRATION_POSITIONS 8e6

enum work_class work_class_of(const struct material *m)
{
    return material_men(m) == 0 ? WORK_KINGS_ONLY : WORK_WITH_MEN;
}

/* The materials of every piece count from 2 to `pieces` of v, in building order.
 * Returns how many. */
static int materials_up_to(const struct variant *v, int pieces, struct material *out,
                           int capacity)
{
    int count = 0;
    for (int n = 2; n <= pieces; n++)
        count += material_list(v, n, out + count, capacity - count);
    return count;
}

/* The positions (both sides to move) of every material of v up to `pieces` pieces. */
static double positions_up_to(const struct tableset *ts, int pieces, struct plan *plan)
{
    struct material list[MAX_MATERIALS];
    double all = 0;
    make_plan(ts, list, materials_up_to(ts->v, pieces, list, MAX_MATERIALS), plan);
    for (int k = 0; k < plan->count; k++)
        all += 2 * plan->positions[k];
    return all;
}

/* Removes the calibration's folder and the files in it (the tables, the lock). */
static void remove_folder(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char path[4096 + 256];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Solves the plan's materials one at a time into cal, each timed on its own. */
static int solve_timed(struct tableset *cal, const struct plan *plan, struct calibration *c,
                       char *err, size_t err_size)
{
    struct build_report report;
    struct build_options options = { .report = &report };
    for (int k = 0; k < plan->count; k++) {
        const struct material *m = &plan->list[k];
        double start = cpu_seconds_now();
        if (build_materials(cal, m, 1, &options, err, err_size) < 0)
            return -1;
        int n = material_pieces(m);
        c->cpu_seconds[work_class_of(m)][n] += cpu_seconds_now() - start;
        c->positions[work_class_of(m)][n] += (double)report.positions_built;
    }
    return 0;
}

int calibrate(const struct tableset *ts, struct calibration *c, char *err, size_t err_size)
{
    char dir[4096];
    const char *tmp = getenv("TMPDIR");
    struct plan *plan = malloc(sizeof *plan);
    struct tableset cal;
    memset(c, 0, sizeof *c);
    if (!plan) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    tableset_init(&cal, ts->v, NULL);
    cal.wdl_only = ts->wdl_only; /* built as the plan will be */
    cal.with_mtc = ts->with_mtc;
    cal.dtm_only = ts->dtm_only;
    c->pieces = 2;
    while (c->pieces < MATERIAL_MAX_PIECES &&
           positions_up_to(&cal, c->pieces + 1, plan) <= CALIBRATION_POSITIONS)
        c->pieces++;
    positions_up_to(&cal, c->pieces, plan);
    snprintf(dir, sizeof dir, "%s/damero-calibration.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(err, err_size, "cannot make a temporary folder to time a few small "
                 "materials in (%s): set TMPDIR to a folder that can be written", dir);
        free(plan);
        return -1;
    }
    cal.dir = dir;
    c->threads = omp_get_max_threads();
    double start = seconds_now();
    int result = solve_timed(&cal, plan, c, err, err_size);
    c->wall_seconds = seconds_now() - start;
    tableset_free(&cal);
    remove_folder(dir);
    free(plan);
    return result;
}

double seconds_per_position(const struct calibration *c, enum work_class cls, int pieces)
{
    int top = c->pieces;
    while (top > 2 && c->positions[cls][top] == 0)
        top--;
    double measured = c->positions[cls][top] > 0
                          ? c->cpu_seconds[cls][top] / c->positions[cls][top] : 0;
    /* beyond the calibration, each piece adds its moves to generate and undo */
    return pieces > top ? measured * pieces / top : measured;
}

double material_cost(const struct material *m, double positions)
{
    return positions * material_pieces(m);
}

void estimate_time(const struct plan *plan, const struct calibration *c,
                   struct time_estimate *e)
{
    memset(e, 0, sizeof *e);
    e->calibration = *c;
    for (int k = 0; k < plan->count; k++) {
        const struct material *m = &plan->list[k];
        if (plan->found[k])
            continue;
        double positions = 2 * plan->positions[k];
        e->materials++;
        e->positions += positions;
        e->cpu_seconds +=
            positions * seconds_per_position(c, work_class_of(m), material_pieces(m));
    }
    e->wall_seconds = e->cpu_seconds / (c->threads > 0 ? c->threads : 1);
}
