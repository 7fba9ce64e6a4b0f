#define _DEFAULT_SOURCE /* flock, beside POSIX */
#include "gen/build.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "gen/deal.h"
#include "gen/level_file.h"
#include "rulegen/rule_table.h"
#include "solve/self_check.h"
#include "solve/solve.h"
#include "store/table_io.h"

/* The lock of a table folder, held by the build writing into it (see lock_folder). */
#define LOCK_NAME ".damero-gen.lock"

/* Whether name is a table's temporary file: MATERIAL.SUFFIX.tmp.PID (table_file_write),
 * for every kind of table file, the rule and distance tables' included. */
static bool is_table_temporary(const char *name)
{
    const char *tag = strstr(name, ".tmp.");
    char *end;
    if (!tag || tag[5] == '\0' || tag - name < 4)
        return false;
    strtol(tag + 5, &end, 10);
    for (enum table_metric metric = METRIC_WDL; metric <= METRIC_LAST; metric++)
        if (*end == '\0' && strncmp(tag - 4, table_metric_suffix(metric), 4) == 0)
            return true;
    return false;
}

/* Removes the temporary files of tables that a run killed while writing left behind. The
 * caller holds the folder's lock, so no other build is writing: every one is stale,
 * whatever process now has the number it ends with. */
static void remove_stale_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        if (!is_table_temporary(e->d_name) && !is_level_temporary(e->d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove(path);
    }
    closedir(d);
}

#define UNLOCKED_READ_ONLY (-2) /* lock_folder: the folder cannot be written, by anyone */

/* Takes the table folder's lock (flock on dir/.damero-gen.lock), waiting while another
 * build holds it: two builds of one folder take turns, and the later one finds intact the
 * tables the earlier one wrote instead of building them again. Returns the lock's
 * descriptor (closing it lets the lock go; so does the process ending, however it ends);
 * UNLOCKED_READ_ONLY when the folder is read-only to this process (no build of ours can
 * be writing there, and tables found intact are all a run may need); or -1 with a
 * sentence in err. */
static int lock_folder(const char *dir, char *err, size_t err_size)
{
    char path[4096 + sizeof LOCK_NAME];
    snprintf(path, sizeof path, "%s/%s", dir, LOCK_NAME);
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0 && (errno == EACCES || errno == EROFS))
        return UNLOCKED_READ_ONLY;
    if (fd < 0 && errno == ELOOP) { /* O_NOFOLLOW: a link could lock someone else's file */
        snprintf(err, err_size, "the lock %s is a symbolic link; a build's lock is a plain "
                 "file of its own: remove the link (no build is running) and run again", path);
        return -1;
    }
    if (fd < 0) {
        snprintf(err, err_size, "cannot open the lock %s: %s", path, strerror(errno));
        return -1;
    }
    int locked = flock(fd, LOCK_EX | LOCK_NB);
    if (locked != 0 && errno == EWOULDBLOCK) {
        fprintf(stderr, "damero: another build is writing into %s; waiting for it\n", dir);
        do
            locked = flock(fd, LOCK_EX);
        while (locked != 0 && errno == EINTR);
    }
    if (locked != 0) {
        snprintf(err, err_size, "cannot lock %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

static int ensure_dir(const char *dir, char *err, size_t err_size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *c = path + 1; *c; c++)
        if (*c == '/') {
            *c = '\0';
            mkdir(path, 0777);
            *c = '/';
        }
    int failure = mkdir(path, 0777) == 0 ? 0 : errno;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        /* the reason first: a path of thousands of characters would push it out */
        snprintf(err, err_size, "cannot create the table directory (%s): %s",
                 strerror(failure && failure != EEXIST ? failure : ENOTDIR), dir);
        return -1;
    }
    return 0;
}

/* Whether material m's file of one metric is on disk and intact, read whole. */
static bool file_intact(const struct tableset *ts, const struct material *m,
                        enum table_metric metric, uint64_t positions)
{
    char err[512];
    return tableset_check_file(ts, m, metric, positions, err, sizeof err) == 0;
}

/* Says on stderr that the table of m on disk is built again for want of its file of
 * one metric, which this build writes: one built with fewer --metrics, or damaged. */
static void say_built_again(const struct tableset *ts, const struct material *m,
                            enum table_metric metric, const char *why)
{
    char name[MATERIAL_NAME_SIZE];
    material_name(m, name);
    fprintf(stderr, "damero: %s/%s has no %s%s file%s: building it again\n", ts->dir, name, why,
            table_metric_suffix(metric), metric == METRIC_DTM ? " (built without DTM)" : "");
}

/* Reads a material's tables from disk if every file the build writes is there and
 * intact (those it does not read are checked here: the WDL file, and the MTC file where
 * it is not held). A table without a file this build writes (its .dtm or .mtc, left out
 * by a build with fewer --metrics) is built again, and says so. */
static bool load_existing(struct tableset *ts, const struct material *m)
{
    char err[512];
    if (!ts->dir)
        return false;
    if (!ts->wdl_only && tableset_built_without_dtm(ts, m)) {
        say_built_again(ts, m, METRIC_DTM, "");
        return false;
    }
    const struct table *t = tableset_get(ts, m, err, sizeof err);
    if (!t)
        return false;
    bool whole = file_intact(ts, m, METRIC_WDL, t->ix.size);
    if (whole && tableset_builds(ts, METRIC_MTC) && !t->mtc[WHITE] &&
        !file_intact(ts, m, METRIC_MTC, t->ix.size)) {
        say_built_again(ts, m, METRIC_MTC, "intact ");
        whole = false;
    }
    if (!whole)
        tableset_forget(ts, m);
    return whole;
}

/* Solves m, of about `positions` positions per side. With a table directory, each
 * level goes to its own file as soon as it is solved (a killed build resumes from the
 * last one; a small material's levels are held in memory instead), the table files are
 * assembled from them, and the table is read back when a later material needs it;
 * without one, the table stays in the set. Counts it in *report. */
static int build_one(struct tableset *ts, const struct material *m, double positions,
                     double budget, const struct progress_report *progress,
                     struct build_report *report, char *err, size_t err_size)
{
    struct table t;
    char name[MATERIAL_NAME_SIZE];
    struct level_files files;
    struct level_store store;
    if (level_files_init(&files, ts, m, positions, err, err_size) < 0)
        return -1;
    level_files_store(&files, &store);
    if (solve_material(ts, m, ts->dir ? &store : NULL, progress, &t, err, err_size) < 0) {
        level_files_release(&files);
        return -1;
    }
    report->built++;
    report->positions_built += 2 * t.ix.size;
    report->levels_resumed += files.found;
    if (ts->dir) {
        room_to_assemble(ts, &t, budget);
        int result = level_files_assemble(&files, &t, err, err_size);
        if (result == 0)
            level_files_remove(ts, m); /* and an earlier build's, when held this time */
        level_files_release(&files);
        table_free(&t);
        return result;
    }
    level_files_release(&files);
    if (tableset_add(ts, &t) < 0) {
        material_name(m, name);
        snprintf(err, err_size, "out of memory keeping the table of %s", name);
        table_free(&t);
        return -1;
    }
    return 0;
}

/* Builds item k of the plan, or reads it when found intact, and self-checks it and
 * builds its rule tables as asked. `writes`: the folder is this build's to write. */
static int build_item(struct tableset *ts, const struct plan *plan, int k, bool writes,
                      const struct build_options *options, struct build_report *report,
                      struct progress_part *part, char *err, size_t err_size)
{
    const struct material *m = &plan->list[k];
    char name[MATERIAL_NAME_SIZE], checking[MATERIAL_NAME_SIZE + 16];
    material_name(m, name);
    part->name = name;
    part->work = plan->positions[k];
    progress_tell_part(options->progress, part);
    if (ts->dir)
        make_room(ts, plan, k, options->memory_budget);
    if (tableset_find(ts, m)) {
        /* built earlier in this process */
    } else if (load_existing(ts, m)) {
        report->found++;
        if (writes)
            level_files_remove(ts, m); /* left by a build killed as it finished */
    } else if (tableset_get_successors(ts, m, err, err_size) < 0 ||
               build_one(ts, m, plan->positions[k], options->memory_budget, options->progress,
                         report, err, err_size) < 0) {
        return -1;
    }
    if (options->self_check) {
        char why[1024];
        uint64_t bad;
        if (!tableset_get(ts, m, err, err_size) ||
            tableset_get_successors(ts, m, err, err_size) < 0)
            return -1;
        snprintf(checking, sizeof checking, "%s self-check", name);
        part->name = checking;
        progress_tell_part(options->progress, part);
        if ((bad = self_check_table(ts, m, options->progress, why, sizeof why)) != 0) {
            snprintf(err, err_size, "%s %s: %llu positions disagree with their moves; "
                     "first: %s", ts->v->name, name, (unsigned long long)bad, why);
            return -1;
        }
        report->self_checked++;
    }
    if (options->rule_tables && rule_tables_build(ts, m, NULL, err, err_size) < 0)
        return -1;
    return 0;
}

/* owner[k]: the process that builds item k, and wave[k] its wave (gen/deal.h); every
 * item this process's, in one wave, when it builds alone. */
static void deal_items(const struct plan *plan, const struct build_ranks *ranks,
                       int owner[MAX_MATERIALS], int wave[MAX_MATERIALS])
{
    for (int k = 0; k < plan->count; k++)
        owner[k] = wave[k] = 0;
    if (!ranks)
        return;
    plan_waves(plan, wave);
    plan_deal(plan, wave, ranks->count, owner);
}

/* The job's report from each process's: the counts summed, the time the longest. */
static void combine_reports(const struct build_ranks *ranks, struct build_report *report)
{
    double sums[] = { report->built, report->found, report->self_checked,
                      report->levels_resumed, (double)report->positions_built };
    double most[] = { report->seconds };
    ranks->combine(ranks->ctx, sums, 5, most, 1);
    report->built = (int)sums[0];
    report->found = (int)sums[1];
    report->self_checked = (int)sums[2];
    report->levels_resumed = (int)sums[3];
    report->positions_built = (uint64_t)sums[4];
    report->seconds = most[0];
}

static void wait_for_all(const struct build_ranks *ranks)
{
    if (ranks)
        ranks->wait_for_all(ranks->ctx);
}

static int build_plan(struct tableset *ts, const struct plan *plan,
                      const struct build_options *options, char *err, size_t err_size)
{
    double start = seconds_now();
    struct build_report report = { 0 };
    struct progress_part part = { .parts = "materials", .total = plan->count };
    const struct build_ranks *ranks = options->ranks;
    int lock = -1, owner[MAX_MATERIALS], wave[MAX_MATERIALS];
    /* in a job, process 0 takes the folder's lock for all of them */
    bool leader = !ranks || ranks->rank == 0;

    if (ts->dir && (ensure_dir(ts->dir, err, err_size) < 0 ||
                    (leader && (lock = lock_folder(ts->dir, err, err_size)) == -1)))
        return -1;
    if (lock >= 0)
        remove_stale_temporaries(ts->dir);
    wait_for_all(ranks); /* nobody writes before the lock is held and the folder clean */
    bool writes = leader ? lock >= 0 : true;
    deal_items(plan, ranks, owner, wave);
    for (int k = 0; k < plan->count; k++) {
        part.total_work += plan->positions[k];
        part.total_cost += material_cost(&plan->list[k], plan->positions[k]);
    }

    for (int k = 0; k < plan->count; k++) {
        /* every process counts every material, so that the progress is the job's */
        part.cost = material_cost(&plan->list[k], plan->positions[k]);
        if (k > 0 && wave[k] != wave[k - 1])
            wait_for_all(ranks); /* the next wave reads what this one wrote */
        if (owner[k] == (ranks ? ranks->rank : 0) &&
            build_item(ts, plan, k, writes, options, &report, &part, err, err_size) < 0)
            goto fail;
        part.done = k + 1;
        part.work_done += plan->positions[k];
        part.cost_done += part.cost;
        /* with a directory to reload from, keep in memory only what is still needed */
        if (ts->dir)
            for (int j = 0; j <= k; j++)
                if (plan->last_use[j] == k && tableset_find(ts, &plan->list[j]))
                    tableset_forget(ts, &plan->list[j]);
    }
    part.name = "done";
    part.work = part.cost = 0;
    progress_tell_part(options->progress, &part);
    report.seconds = seconds_now() - start;
    wait_for_all(ranks); /* every process has finished */
    if (ranks)
        combine_reports(ranks, &report);
    if (options->report)
        *options->report = report;
    if (lock >= 0)
        close(lock);
    return 0;
fail:
    if (lock >= 0)
        close(lock);
    return -1;
}

int build_materials(struct tableset *ts, const struct material *wanted, int n,
                    const struct build_options *options, char *err, size_t err_size)
{
    struct plan *plan = malloc(sizeof *plan);
    if (!plan) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    make_plan(ts, wanted, n, plan);
    struct build_estimate estimate;
    estimate_plan(ts, plan, options->memory_budget, &estimate);
    if (options->estimate)
        *options->estimate = estimate;
    if (options->plan)
        *options->plan = *plan;
    int result = check_budget(ts->v, &estimate, options->memory_budget, err, err_size);
    struct calibration calibration;
    if (result == 0 && options->time_estimate &&
        (result = calibrate(ts, &calibration, err, err_size)) == 0)
        estimate_time(plan, &calibration, options->time_estimate);
    if (result == 0 && !options->estimate_only)
        result = build_plan(ts, plan, options, err, err_size);
    free(plan);
    return result;
}
