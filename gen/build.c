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
#include "gen/level_file.h"
#include "gen/rule_table.h"
#include "gen/self_check.h"
#include "gen/solve.h"
#include "gen/table_io.h"

#define MAX_MATERIALS 4096

struct plan {
    struct material list[MAX_MATERIALS]; /* building order */
    int count;
    int last_use[MAX_MATERIALS];         /* the last item that reads each one */
    double positions[MAX_MATERIALS];     /* per side to move (estimated when kings only) */
    double largest_level[MAX_MATERIALS]; /* positions per side of its largest level */
    double dtm_bytes[MAX_MATERIALS];     /* per position and side of its DTM when held */
    int reads[MAX_MATERIALS][MAX_SUCCESSORS]; /* the items each one reads: its successors */
    int num_reads[MAX_MATERIALS];
};

static int compare_materials(const void *a, const void *b) { return material_compare(a, b); }

/* Adds m and everything it depends on. */
static void add_with_successors(const struct variant *v, struct material m, bool *seen,
                                struct plan *plan)
{
    struct material next[MAX_SUCCESSORS];
    if (!material_is_canonical(&m))
        m = material_flipped(&m);
    if (seen[material_code(&m)] || plan->count == MAX_MATERIALS)
        return;
    seen[material_code(&m)] = true;
    plan->list[plan->count++] = m;
    int n = material_successors(v, &m, next, MAX_SUCCESSORS);
    for (int k = 0; k < n; k++)
        add_with_successors(v, next[k], seen, plan);
}

static int find(const struct plan *plan, const struct material *m)
{
    for (int k = 0; k < plan->count; k++)
        if (material_equal(&plan->list[k], m))
            return k;
    return -1;
}

/* Positions of a material per side to move, counting every square as open to men and
 * the symmetry reduction as perfect: close for kings only, high for men. */
static double work_estimate(const struct variant *v, const struct material *m)
{
    const struct geometry *g = v->board();
    double n = 1;
    int free = g->num_squares;
    int counts[4] = { m->men[WHITE], m->men[BLACK], m->kings[WHITE], m->kings[BLACK] };
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < counts[k]; i++)
            n *= (double)(free - i) / (i + 1);
        free -= counts[k];
    }
    return material_men(m) == 0 ? n / g->num_syms : n;
}

/* Positions of a material per side to move, and of its largest level of men advancement:
 * exact when it has men, from work_estimate when it has only kings (one level; counting
 * its symmetry classes takes a while). */
static double material_positions(const struct variant *v, const struct material *m,
                                 double *largest_level)
{
    struct material_index ix;
    struct material_levels levels;
    double n;
    *largest_level = work_estimate(v, m);
    if (material_men(m) == 0 || index_init(&ix, v, m) < 0)
        return *largest_level;
    n = (double)ix.size;
    *largest_level = n;
    if (material_levels(&ix, &levels) == 0)
        *largest_level = (double)material_levels_largest(&levels);
    material_levels_free(&levels);
    index_free(&ix);
    return n;
}

/* The bytes per position and side of m's DTM held for reading in ts: one where it fits
 * in a byte (known from its file, if it is on disk already, or in a WDL-only build),
 * else two; its MTC too where the set keeps it. */
static double dtm_bytes(const struct tableset *ts, const struct material *m)
{
    char path[4096], err[512];
    struct table_file_info info;
    if (!ts->dtm_only)
        return 2 + 2;
    if (ts->wdl_only)
        return 1;
    if (!ts->dir)
        return 2;
    tableset_path(ts, m, METRIC_DTM, path, sizeof path);
    return table_file_read_info(path, &info, err, sizeof err) == TABLE_OK &&
                   info.value_bits == 8
               ? 1
               : 2;
}

static void make_plan(const struct tableset *ts, const struct material *wanted, int n,
                      struct plan *plan)
{
    const struct variant *v = ts->v;
    bool seen[MATERIAL_CODES] = { false };
    struct material next[MAX_SUCCESSORS];
    plan->count = 0;
    for (int k = 0; k < n; k++)
        add_with_successors(v, wanted[k], seen, plan);
    qsort(plan->list, (size_t)plan->count, sizeof plan->list[0], compare_materials);
    for (int k = 0; k < plan->count; k++) {
        plan->last_use[k] = k;
        plan->positions[k] = material_positions(v, &plan->list[k], &plan->largest_level[k]);
        plan->dtm_bytes[k] = dtm_bytes(ts, &plan->list[k]);
    }
    for (int k = 0; k < plan->count; k++) {
        int s = material_successors(v, &plan->list[k], next, MAX_SUCCESSORS);
        plan->num_reads[k] = 0;
        for (int j = 0; j < s; j++) {
            int at = find(plan, &next[j]);
            if (at < 0)
                continue;
            plan->reads[k][plan->num_reads[k]++] = at;
            if (plan->last_use[at] < k)
                plan->last_use[at] = k;
        }
    }
}

/* Whether item k of the plan reads item j. */
static bool plan_reads(const struct plan *plan, int k, int j)
{
    for (int r = 0; r < plan->num_reads[k]; r++)
        if (plan->reads[k][r] == j)
            return true;
    return false;
}

/* The first item from k on that reads item j (plan->count when none does). */
static int next_reader(const struct plan *plan, int j, int k)
{
    for (; k < plan->count; k++)
        if (plan_reads(plan, k, j))
            return k;
    return plan->count;
}

/* The memory model (docs/how-it-works.md, "Memory and scale"): the bytes per position, both
 * sides to move together, that a build holds. Solving holds, for each position of the
 * level being solved, its DTM and MTC (2 bytes each per side), its count byte, and the
 * DTM of the level before (2 bytes); with a table directory, that is all (LEVEL_BYTES
 * per position of the largest level), and then the table files are assembled one metric
 * at a time (at most 2 bytes per position and side, ASSEMBLY_BYTES) with one level read
 * back (READ_BYTES per position of it). Without a directory the table's DTM and MTC stay
 * in memory (WHOLE_BYTES). Each finished table it reads is held as its DTM, in a byte
 * where it fits (dtm_bytes), and its MTC too where the set keeps it, for the self-check. The rest (the agenda, the index, the
 * program) is a share on top and a fixed amount. */
#define LEVEL_BYTES (2 * (2 + 2 + 1 + 2))
#define READ_BYTES (2 * (2 + 2 + 1))
#define ASSEMBLY_BYTES (2 * 2)
#define WHOLE_BYTES (2 * (2 + 2))
#define WORK_SHARE 0.15
#define FIXED_BYTES (16.0 * 1024 * 1024)

/* The bytes of assembling the table files of a material of `positions` positions per
 * side whose largest level has `level`. */
static double assembly_bytes(double positions, double level)
{
    return READ_BYTES * level + ASSEMBLY_BYTES * positions;
}

static double held_bytes(const struct plan *plan, int j)
{
    return 2 * plan->dtm_bytes[j] * plan->positions[j];
}

static double memory_total(double solving, double held)
{
    return (solving + held) * (1 + WORK_SHARE) + FIXED_BYTES;
}

/* What building item k of the plan needs at least at its peak: the bytes of the table
 * being solved, and of the finished tables held for reading then. Solving reads its
 * successors; assembling its files does not, and drops them first when they would not
 * fit beside it (build_one), so that its peak is then its own. */
static void memory_at(const struct tableset *ts, const struct plan *plan, int k,
                      double *solving, double *held)
{
    double level = plan->largest_level[k], all = plan->positions[k];
    *solving = LEVEL_BYTES * level + (ts->dir ? 0 : WHOLE_BYTES * all);
    *held = 0;
    for (int r = 0; r < plan->num_reads[k]; r++)
        *held += held_bytes(plan, plan->reads[k][r]);
    if (ts->dir && assembly_bytes(all, level) > *solving + *held) {
        *solving = assembly_bytes(all, level);
        *held = 0;
    }
}

/* The bytes of the finished tables in memory now. */
static double held_now(const struct tableset *ts)
{
    double bytes = 0;
    for (int c = 0; c < MATERIAL_CODES; c++)
        if (ts->by_code[c])
            bytes += 2 * (ts->by_code[c]->dtm8[0] ? 1 : ts->dtm_only ? 2 : 2 + 2) *
                     (double)ts->by_code[c]->ix.size;
    return bytes;
}

/* Before assembling the files of t: drops every finished table from memory when they
 * would not fit beside the assembly in the budget (they are read again when needed). */
static void room_to_assemble(struct tableset *ts, const struct table *t, double budget)
{
    struct material_levels levels;
    double level = (double)t->ix.size;
    if (budget <= 0 || material_levels(&t->ix, &levels) < 0)
        return;
    level = (double)material_levels_largest(&levels);
    material_levels_free(&levels);
    if (memory_total(assembly_bytes((double)t->ix.size, level), held_now(ts)) <= budget)
        return;
    for (int c = 0; c < MATERIAL_CODES; c++)
        if (ts->by_code[c])
            tableset_forget(ts, &ts->by_code[c]->m);
}

/* The item of the plan that needs the most memory, and the figures of that peak. */
static void estimate_plan(const struct tableset *ts, const struct plan *plan,
                          struct build_estimate *e)
{
    memset(e, 0, sizeof *e);
    for (int k = 0; k < plan->count; k++) {
        double solving, held;
        memory_at(ts, plan, k, &solving, &held);
        e->positions += 2 * plan->positions[k];
        if (memory_total(solving, held) <= e->peak_bytes)
            continue;
        e->peak_bytes = memory_total(solving, held);
        e->peak_solving = solving;
        e->peak_held = held;
        e->peak_material = plan->list[k];
        e->peak_positions = plan->positions[k];
    }
    e->materials = plan->count;
}

#define GB (1024.0 * 1024 * 1024)

void memory_text(double bytes, char *out, size_t size)
{
    if (bytes >= GB)
        snprintf(out, size, "%.2f GB", bytes / GB);
    else
        snprintf(out, size, "%.0f MB", bytes / (1024 * 1024));
}

/* Refuses, before any work, a plan whose peak does not fit in the budget. */
static int check_budget(const struct variant *v, const struct build_estimate *e, double budget,
                        char *err, size_t err_size)
{
    char name[MATERIAL_NAME_SIZE], peak[32], solving[32], held[32], limit[32];
    if (budget <= 0 || e->peak_bytes <= budget)
        return 0;
    material_name(&e->peak_material, name);
    memory_text(e->peak_bytes, peak, sizeof peak);
    memory_text(e->peak_solving, solving, sizeof solving);
    memory_text(e->peak_held, held, sizeof held);
    memory_text(budget, limit, sizeof limit);
    snprintf(err, err_size,
             "%s %s needs about %s (%.3g positions per side to move: %s to solve it, %s of "
             "finished tables held for reading), more than the budget of %s; give more with "
             "--memory GB if the machine has it, or build fewer pieces",
             v->name, name, peak, e->peak_positions, solving, held, limit);
    return -1;
}

/* The lock of a table folder, held by the build writing into it (see lock_folder). */
#define LOCK_NAME ".damero-gen.lock"

/* Whether name is a table's temporary file: MATERIAL.SUFFIX.tmp.PID (table_file_write). */
static bool is_table_temporary(const char *name)
{
    const char *tag = strstr(name, ".tmp.");
    char *end;
    if (!tag || tag[5] == '\0' || tag - name < 4)
        return false;
    strtol(tag + 5, &end, 10);
    for (enum table_metric metric = METRIC_WDL; metric <= METRIC_MTC; metric++)
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
        snprintf(err, err_size, "cannot create the table directory %s: %s", dir,
                 strerror(failure && failure != EEXIST ? failure : ENOTDIR));
        return -1;
    }
    return 0;
}

/* The progress bar: materials done, the one being solved, the rate and the time left,
 * estimated from the positions still to solve. */
struct progress {
    bool on;
    double start, last_shown, material_start;
    double done_work, total_work, current_work, current_fraction;
    int done, total;
    int levels_done, levels_total; /* of the material being solved; 0 of 0 otherwise */
    char name[MATERIAL_NAME_SIZE + 16]; /* the material, and " self-check" during it */
};

static void show_progress(struct progress *pr)
{
    double now = seconds_now(), elapsed = now - pr->start, in_material = now - pr->material_start;
    double work = pr->done_work + pr->current_fraction * pr->current_work;
    double rate = elapsed > 0 ? work * 2 / elapsed : 0;
    double left = work > 0 ? elapsed * (pr->total_work - work) / work : 0;
    double material_left = pr->current_fraction > 0
                               ? in_material * (1 - pr->current_fraction) / pr->current_fraction
                               : 0;
    int width = 24, filled = (int)(width * work / (pr->total_work > 0 ? pr->total_work : 1));
    if (!pr->on)
        return;
    pr->last_shown = now;
    fprintf(stderr, "\r[%.*s%*s] %d/%d materials  %-16s level %d/%d  %6.1f M positions/s  "
            "%5.0f s left (material %.0f s) ",
            filled, "########################", width - filled, "", pr->done, pr->total,
            pr->name, pr->levels_done, pr->levels_total, rate / 1e6, left, material_left);
    fflush(stderr);
}

static void report_levels(void *context, int done, int total)
{
    struct progress *pr = context;
    pr->levels_done = done;
    pr->levels_total = total;
}

static void report_solving(void *context, double fraction)
{
    struct progress *pr = context;
    pr->current_fraction = fraction;
    if (seconds_now() - pr->last_shown > 0.5)
        show_progress(pr);
}

/* Whether material m's file of one metric is on disk and intact, read whole. */
static bool file_intact(const struct tableset *ts, const struct material *m,
                        enum table_metric metric, uint64_t positions)
{
    char err[512];
    struct table_file_info info;
    void *values[2];
    if (tableset_read_file(ts, m, metric, positions, &info, values, err, sizeof err) < 0)
        return false;
    free(values[0]);
    free(values[1]);
    return true;
}

/* Reads a material's tables from disk if all its files are there and intact (those a
 * build does not read too: the WDL file, and the MTC file where only DTM is held). */
static bool load_existing(struct tableset *ts, const struct material *m)
{
    char err[512];
    const struct table *t = ts->dir ? tableset_get(ts, m, err, sizeof err) : NULL;
    if (!t)
        return false;
    if (!file_intact(ts, m, METRIC_WDL, t->ix.size) ||
        (ts->dtm_only && !ts->wdl_only && !file_intact(ts, m, METRIC_MTC, t->ix.size))) {
        tableset_forget(ts, m);
        return false;
    }
    return true;
}

/* Solves m. With a table directory, each level goes to its own file as soon as it is
 * solved (a killed build resumes from the last one), the table files are assembled from
 * them, and the table is read back when a later material needs it; without one, the
 * table stays in the set. Counts it in *report. */
static int build_one(struct tableset *ts, const struct material *m, double budget,
                     struct progress *pr, struct build_report *report, char *err,
                     size_t err_size)
{
    struct table t;
    char name[MATERIAL_NAME_SIZE];
    struct progress_report progress = { report_solving, pr, report_levels };
    struct level_files files = { ts, *m, 0 };
    struct level_store store;
    level_files_store(&files, &store);
    if (solve_material(ts, m, ts->dir ? &store : NULL, &progress, &t, err, err_size) < 0)
        return -1;
    report->built++;
    report->positions_built += 2 * t.ix.size;
    report->levels_resumed += files.found;
    if (ts->dir) {
        room_to_assemble(ts, &t, budget);
        int result = level_files_assemble(ts, &t, err, err_size);
        if (result == 0)
            level_files_remove(ts, m);
        table_free(&t);
        return result;
    }
    if (tableset_add(ts, &t) < 0) {
        material_name(m, name);
        snprintf(err, err_size, "out of memory keeping the table of %s", name);
        table_free(&t);
        return -1;
    }
    return 0;
}

/* Before item k: frees finished tables that k does not read, those read again latest
 * first, until what k needs and what stays fit the budget. Tables are kept while they
 * fit, so that they are not read from disk again. */
static void make_room(struct tableset *ts, const struct plan *plan, int k, double budget)
{
    double solving, held, kept = 0;
    memory_at(ts, plan, k, &solving, &held);
    for (int j = 0; j < k; j++)
        if (tableset_find(ts, &plan->list[j]) && !plan_reads(plan, k, j))
            kept += held_bytes(plan, j);
    while (budget > 0 && kept > 0 && memory_total(solving, held + kept) > budget) {
        int latest = -1, latest_use = -1;
        for (int j = 0; j < k; j++) {
            int use = next_reader(plan, j, k);
            if (tableset_find(ts, &plan->list[j]) && !plan_reads(plan, k, j) && use > latest_use) {
                latest = j;
                latest_use = use;
            }
        }
        tableset_forget(ts, &plan->list[latest]);
        kept -= held_bytes(plan, latest);
    }
}

static int build_plan(struct tableset *ts, const struct plan *plan,
                      const struct build_options *options, char *err, size_t err_size)
{
    struct progress pr = { .on = options->progress, .start = seconds_now() };
    struct build_report report = { 0 };
    int lock = -1;

    if (ts->dir && (ensure_dir(ts->dir, err, err_size) < 0 ||
                    (lock = lock_folder(ts->dir, err, err_size)) == -1))
        return -1;
    if (lock >= 0)
        remove_stale_temporaries(ts->dir);
    pr.total = plan->count;
    for (int k = 0; k < plan->count; k++)
        pr.total_work += plan->positions[k];

    for (int k = 0; k < plan->count; k++) {
        const struct material *m = &plan->list[k];
        material_name(m, pr.name);
        pr.current_work = plan->positions[k];
        pr.current_fraction = 0;
        pr.material_start = seconds_now();
        pr.levels_done = pr.levels_total = 0;
        show_progress(&pr);
        if (ts->dir)
            make_room(ts, plan, k, options->memory_budget);
        if (tableset_find(ts, m)) {
            /* built earlier in this process */
        } else if (load_existing(ts, m)) {
            report.found++;
            if (lock >= 0)
                level_files_remove(ts, m); /* left by a build killed as it finished */
        } else {
            if (tableset_get_successors(ts, m, err, err_size) < 0 ||
                build_one(ts, m, options->memory_budget, &pr, &report, err, err_size) < 0)
                goto fail;
        }
        if (options->self_check) {
            char why[1024], name[MATERIAL_NAME_SIZE];
            uint64_t bad;
            struct progress_report progress = { report_solving, &pr, NULL };
            material_name(m, name);
            if (!tableset_get(ts, m, err, err_size) ||
                tableset_get_successors(ts, m, err, err_size) < 0)
                goto fail;
            snprintf(pr.name, sizeof pr.name, "%s self-check", name);
            pr.current_fraction = 0;
            pr.material_start = seconds_now();
            pr.levels_done = pr.levels_total = 0;
            if ((bad = self_check_table(ts, m, &progress, why, sizeof why)) != 0) {
                snprintf(err, err_size, "%s %s: %llu positions disagree with their moves; "
                         "first: %s", ts->v->name, name, (unsigned long long)bad, why);
                goto fail;
            }
            report.self_checked++;
        }
        if (options->rule_tables && rule_tables_build(ts, m, NULL, err, err_size) < 0)
            goto fail;
        pr.done = k + 1;
        pr.done_work += plan->positions[k];
        /* with a directory to reload from, keep in memory only what is still needed */
        if (ts->dir)
            for (int j = 0; j <= k; j++)
                if (plan->last_use[j] == k && tableset_find(ts, &plan->list[j]))
                    tableset_forget(ts, &plan->list[j]);
    }
    snprintf(pr.name, sizeof pr.name, "done");
    pr.current_work = 0;
    show_progress(&pr);
    if (pr.on)
        fputc('\n', stderr);
    report.seconds = seconds_now() - pr.start;
    if (options->report)
        *options->report = report;
    if (lock >= 0)
        close(lock);
    return 0;
fail:
    if (pr.on)
        fputc('\n', stderr);
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
    estimate_plan(ts, plan, &estimate);
    if (options->estimate)
        *options->estimate = estimate;
    int result = check_budget(ts->v, &estimate, options->memory_budget, err, err_size);
    if (result == 0 && !options->estimate_only)
        result = build_plan(ts, plan, options, err, err_size);
    free(plan);
    return result;
}
