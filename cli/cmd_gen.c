/* damero gen: build tables, every material up to a number of pieces or named ones. */
#define _DEFAULT_SOURCE /* getloadavg, beside POSIX */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/json_out.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/threads.h"
#include "gen/build.h"
#include "gen/deal.h"

static const char help[] =
    "usage: damero gen --variant NAME (--pieces N | MATERIAL...) [--threads T] [--dir DIR]\n"
    "                  [--self-check] [--memory GB] [--estimate]\n"
    "                  [--metrics all|wdl|wdl+mtc] [--rules] [--hold-levels MB] [--json]\n"
    "\n"
    "Builds endgame tables (WDL, DTM and MTC, both sides to move) by retrograde analysis,\n"
    "with every table they depend on, fewest pieces first. Tables already built and intact\n"
    "are kept. Each material's files go to DIR/VARIANT/MATERIAL.{wdl,dtm,mtc}.\n"
    "\n"
    "  --variant NAME  the rules (see 'damero --help' for the list)\n"
    "  --pieces N      every material of 2 to N pieces (N from 2 to 8)\n"
    "  MATERIAL        a material such as KKKvK or KMvK: White's pieces, 'v', Black's;\n"
    "                  K = king, M = man, kings first\n"
    "  --threads T     use T threads (default: every core); the tables are the same\n"
    "  --dir DIR       the table root (default: " DEFAULT_DIR_HELP ")\n"
    "  --self-check    recompute every position of every table (built or found) from its\n"
    "                  moves and stop at the first that disagrees ('--verify' is the old\n"
    "                  name, kept for now; 'damero verify' is another command)\n"
    "  --memory GB     the memory the build may use (default: three quarters of the\n"
    "                  machine's RAM); a build whose estimated peak does not fit is refused\n"
    "                  before it starts, naming the material and the memory it needs\n"
    "  --estimate      print the plan's size, estimated peak memory and time, build\n"
    "                  nothing; for the time it first solves the variant's materials of\n"
    "                  up to 4 pieces (3 on 10x10) in a temporary folder, a second or\n"
    "                  two, with the same --threads and --metrics\n"
    "  --json          with --estimate: print the plan as one JSON object instead, each\n"
    "                  material with its positions, wave, process, the materials it\n"
    "                  reads, its memory and processor time (bench/cluster_model.py)\n"
    "  --metrics wdl   build WDL tables only (MATERIAL.wdl, exact values): no DTM or MTC,\n"
    "                  less time and memory; probes and 'damero verify' that need DTM or\n"
    "                  MTC say they are missing. 'all' (the default) builds all three\n"
    "  --metrics wdl+mtc\n"
    "                  build WDL and MTC without DTM (MATERIAL.wdl as with 'wdl', and\n"
    "                  MATERIAL.mtc as with 'all'): what an engine needs to make progress\n"
    "                  in a won ending, solved in half the memory of 'all'. 'wdl,mtc' is\n"
    "                  the same\n"
    "  --rules         also build the rule tables, MATERIAL.ru0 for reading 1 (and .ru1 for\n"
    "                  reading 2, where a rule has a second reading): each position's\n"
    "                  value under the variant's move-limit rules, so that probes under\n"
    "                  the rules (probe --rules) are lookups rather than searches, and\n"
    "                  beside each the distance table, MATERIAL.rz0 (.rz1): the same\n"
    "                  states' distance to zeroing. Variants without rules have none\n"
    "  --hold-levels MB\n"
    "                  a material whose solved levels take at most MB megabytes keeps\n"
    "                  them in memory (default 64: it solves in seconds); a larger one\n"
    "                  writes each level to a file in DIR as soon as it is solved, so that\n"
    "                  a build stopped inside it resumes from its last level. 0: every\n"
    "                  material writes its levels to files\n"
    "\n"
    "A progress bar is drawn on stderr when it is a terminal. The summary on stdout gives\n"
    "the tables built and found, positions solved and positions per second.\n";

#define MAX_WANTED 512

struct gen_args {
    const struct variant *v;
    const char *dir;
    int pieces, threads;
    bool self_check, estimate_only, rule_tables, json;
    int metrics; /* --metrics: its place in metrics_words */
    double memory_gb; /* 0: the default share of the machine's RAM */
    int hold_levels_mb; /* -1: the default (LEVELS_HELD_DEFAULT) */
    struct material wanted[MAX_WANTED];
    int num_wanted;
};

#define GB (1024.0 * 1024 * 1024)

/* The default budget: three quarters of the machine's RAM, leaving room for the system
 * and the page cache the table files are read through, shared evenly by the processes of
 * a job that run on this machine. */
static double default_budget(const struct build_ranks *ranks)
{
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    int sharing = ranks ? ranks->on_this_machine : 1;
    return pages > 0 && page_size > 0 ? 0.75 * (double)pages * (double)page_size / sharing : 0;
}

static void print_estimate(const struct gen_args *a, const struct build_estimate *e,
                           double budget)
{
    char name[MATERIAL_NAME_SIZE], peak[32], solving[32], held[32], limit[32], expected[32];
    material_name(&e->peak_material, name);
    memory_text(e->expected_bytes, expected, sizeof expected);
    memory_text(e->peak_bytes, peak, sizeof peak);
    memory_text(e->peak_solving, solving, sizeof solving);
    memory_text(e->peak_held, held, sizeof held);
    memory_text(budget, limit, sizeof limit);
    printf("%s: %d materials, %.4g positions (both sides to move)\n", a->v->name, e->materials,
           e->positions);
    printf("peak memory about %s, %s %s (%.4g positions per side): %s for it, "
           "%s of finished tables held for reading\n",
           peak, e->peak_found ? "reading (found on disk)" : "solving", name,
           e->peak_positions, solving, held);
    printf("that is %.2f bytes per position of %s (both sides to move), %.2f of them to "
           "%s it\n", e->peak_bytes / (2 * e->peak_positions), name,
           e->peak_solving / (2 * e->peak_positions), e->peak_found ? "check" : "solve");
    printf("budget %s: %s\n", limit, e->peak_bytes <= budget ? "fits" : "does not fit");
    if (e->peak_bytes <= budget)
        printf("with it, finished tables are kept for later materials while they fit: peak "
               "about %s\n", expected);
}

/* seconds as "2 h 5 min", "7 min 30 s" or "12 s". */
static void duration_text(double seconds, char *out, size_t size)
{
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(out, size, "%ld h %ld min", s / 3600, (s % 3600 + 30) / 60);
    else if (s >= 60)
        snprintf(out, size, "%ld min %ld s", s / 60, s % 60);
    else
        snprintf(out, size, "%.1f s", seconds);
}

/* The time the build will take, and what the estimate rests on: the rates measured on
 * the calibration's materials. */
static void print_time_estimate(const struct gen_args *a, const struct time_estimate *e)
{
    const struct calibration *c = &e->calibration;
    char wall[32], cpu[32];
    duration_text(e->wall_seconds, wall, sizeof wall);
    duration_text(e->cpu_seconds, cpu, sizeof cpu);
    printf("time about %s wall on %d thread%s (%s of processor time) to solve %d "
           "material%s, %.4g positions: an estimate\n", wall, c->threads,
           c->threads == 1 ? "" : "s", cpu, e->materials, e->materials == 1 ? "" : "s",
           e->positions);
    printf("calibrated here on every %s material of up to %d pieces (%.1f s wall): kings "
           "only %.2f M, with men %.2f M positions per processor-second\n",
           a->v->name, c->pieces, c->wall_seconds,
           1e-6 / seconds_per_position(c, WORK_KINGS_ONLY, c->pieces),
           1e-6 / seconds_per_position(c, WORK_WITH_MEN, c->pieces));
    printf("a position of more pieces costs more in proportion (of %d pieces, %d/%d as "
           "much); the self-check and rule tables are not counted\n", c->pieces + 2,
           c->pieces + 2, c->pieces);
    double load[1];
    if (getloadavg(load, 1) == 1)
        printf("the wall time assumes each thread has a core to itself; load average now "
               "%.1f on %ld cores\n", load[0], sysconf(_SC_NPROCESSORS_ONLN));
}

/* The words of --metrics, in the order of enum metrics. */
enum metrics { METRICS_ALL, METRICS_WDL, METRICS_WDL_MTC, METRICS_WDL_MTC_COMMA };
static const struct option_word metrics_words[] = {
    { "all", "WDL, DTM and MTC" },
    { "wdl", "WDL tables only" },
    { "wdl+mtc", "WDL and MTC, no DTM" },
    { "wdl,mtc", "the same" },
    { NULL, NULL },
};

/* Material k of the plan as JSON: what the cluster model (bench/cluster_model.py)
 * replays. */
static json_t *material_json(const struct plan *plan, int k, const int *wave, const int *owner,
                             const struct build_estimate *e, const struct calibration *c)
{
    const struct material *m = &plan->list[k];
    char name[MATERIAL_NAME_SIZE];
    material_name(m, name);
    double positions = 2 * plan->positions[k];
    double cpu = plan->found[k] ? 0
                                : positions * seconds_per_position(c, work_class_of(m),
                                                                   material_pieces(m));
    json_t *reads = json_array();
    for (int r = 0; r < plan->num_reads[k]; r++)
        json_append(&reads, json_integer(plan->reads[k][r]));
    return json_pack("{s:s, s:i, s:b, s:f, s:f, s:b, s:i, s:i, s:o, s:f, s:f, s:f}", "name",
                     name, "pieces", material_pieces(m), "kings_only",
                     work_class_of(m) == WORK_KINGS_ONLY, "positions", positions,
                     "largest_level", 2 * plan->largest_level[k], "found", plan->found[k],
                     "wave", wave[k], "process", owner[k], "reads", reads, "memory_bytes",
                     e->item_bytes[k], "solving_bytes", e->item_solving[k], "cpu_seconds", cpu);
}

/* --estimate --json: the plan and its estimates as one JSON object; each material's
 * wave and process as the job's processes (1 for damero gen) deal them (gen/deal.h). */
static int print_plan_json(const struct gen_args *a, const struct plan *plan,
                           const struct build_estimate *e, const struct time_estimate *t,
                           const struct build_ranks *ranks)
{
    int wave[MAX_MATERIALS], owner[MAX_MATERIALS], processes = ranks ? ranks->count : 1;
    plan_waves(plan, wave);
    plan_deal(plan, wave, processes, owner);
    json_t *materials = json_array();
    for (int k = 0; k < plan->count; k++)
        json_append(&materials, material_json(plan, k, wave, owner, e, &t->calibration));
    const struct calibration *c = &t->calibration;
    json_t *calibration = json_pack(
        "{s:i, s:i, s:f, s:f, s:f}", "pieces", c->pieces, "threads", c->threads, "wall_seconds",
        c->wall_seconds, "kings_only_rate",
        1 / seconds_per_position(c, WORK_KINGS_ONLY, c->pieces), "with_men_rate",
        1 / seconds_per_position(c, WORK_WITH_MEN, c->pieces));
    json_t *object = json_pack("{s:s, s:s, s:i, s:f, s:f, s:f, s:o, s:o}", "variant",
                               a->v->name, "metrics", metrics_words[a->metrics].word,
                               "processes", processes, "peak_bytes", e->peak_bytes,
                               "cpu_seconds", t->cpu_seconds, "wall_seconds", t->wall_seconds,
                               "calibration", calibration, "materials", materials);
    return json_print("gen", object) < 0 ? EXIT_FAILURE_RUN : EXIT_OK;
}

static int parse_args(int argc, char **argv, struct gen_args *a)
{
    const struct option_spec options[] = {
        { "variant", OPTION_VARIANT, .to.variant = &a->v, .required = true },
        { "pieces", OPTION_NUMBER, .to.number = &a->pieces, .min = 2,
          .max = MATERIAL_MAX_PIECES },
        { "threads", OPTION_NUMBER, .to.number = &a->threads, .min = 1, .max = 1024 },
        { "dir", OPTION_PATH, .to.text = &a->dir },
        { "self-check", OPTION_FLAG, .to.flag = &a->self_check },
        { "verify", OPTION_FLAG, .to.flag = &a->self_check }, /* the old name of --self-check */
        { "memory", OPTION_GIGABYTES, .to.gigabytes = &a->memory_gb },
        { "estimate", OPTION_FLAG, .to.flag = &a->estimate_only },
        { "json", OPTION_FLAG, .to.flag = &a->json },
        { "metrics", OPTION_WORD, .to.number = &a->metrics, .words = metrics_words },
        { "rules", OPTION_FLAG, .to.flag = &a->rule_tables },
        { "hold-levels", OPTION_NUMBER, .to.number = &a->hold_levels_mb, .min = 0,
          .max = 1 << 20 },
        { .name = NULL },
    };
    struct operands operands;
    char err[256];
    int status = parse_options("gen", help, options, argc, argv, &operands);

    if (status != EXIT_OK)
        return status;
    if (a->json && !a->estimate_only)
        return usage_error("gen", "--json prints the plan of --estimate: add --estimate, or "
                                  "leave --json out");
    const char *without = a->metrics == METRICS_WDL ? "DTM and MTC" : "DTM";
    if (a->metrics != METRICS_ALL && a->self_check)
        return usage_error("gen", "--self-check checks DTM and MTC; --metrics %s does not "
                           "build %s: leave one out", metrics_words[a->metrics].word, without);
    if (a->metrics != METRICS_ALL && a->rule_tables)
        return usage_error("gen", "--rules reads DTM and MTC; --metrics %s does not build "
                           "%s: leave one out", metrics_words[a->metrics].word, without);
    for (int k = 0; k < operands.count; k++) {
        if (a->num_wanted == MAX_WANTED)
            return usage_error("gen", "more than %d materials", MAX_WANTED);
        if (material_parse(a->v, operands.arg[k], &a->wanted[a->num_wanted++], err,
                           sizeof err) < 0)
            return usage_error("gen", "%s", err);
    }
    if (a->pieces == 0 && a->num_wanted == 0)
        return usage_error("gen", "name the materials, or give --pieces");
    for (int n = 2; n <= a->pieces; n++)
        a->num_wanted += material_list(a->v, n, a->wanted + a->num_wanted,
                                       MAX_WANTED - a->num_wanted);
    return EXIT_OK;
}

/* The summary on stdout: the tables built, the speed, the peak memory (of the largest
 * process, in a job). */
static void print_summary(const struct gen_args *a, const char *dir,
                          const struct build_report *report, const struct build_ranks *ranks)
{
    printf("%s: %d table%s built, %d found intact, in %s\n", a->v->name, report->built,
           report->built == 1 ? "" : "s", report->found, dir);
    printf("%" PRIu64 " positions solved in %.1f s (%.1f M positions/s, ",
           report->positions_built, report->seconds,
           report->seconds > 0 ? (double)report->positions_built / report->seconds / 1e6 : 0.0);
    if (ranks)
        printf("%d process%s of ", ranks->count, ranks->count == 1 ? "" : "es");
    printf("%d threads)\n", omp_get_max_threads());
    if (report->levels_resumed > 0)
        printf("%d levels of men advancement found finished by a build stopped before: "
               "not solved again\n", report->levels_resumed);
    if (a->self_check)
        printf("%d tables self-checked: every position agrees with its moves\n",
               report->self_checked);
    struct rusage usage;
    double peak_mb = getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_maxrss / 1024.0 : 0;
    if (ranks)
        ranks->combine(ranks->ctx, NULL, 0, &peak_mb, 1);
    if (peak_mb > 0)
        printf("peak memory %.1f MB%s\n", peak_mb, ranks ? " (the largest process)" : "");
}

int cmd_gen(int argc, char **argv)
{
    return cmd_gen_shared(argc, argv, NULL);
}

int cmd_gen_shared(int argc, char **argv, const struct build_ranks *ranks)
{
    struct gen_args a = { .dir = default_table_dir(), .hold_levels_mb = -1 };
    struct build_report report;
    struct build_estimate estimate;
    struct time_estimate time_estimate;
    struct build_options options = { .report = &report, .estimate = &estimate, .ranks = ranks };
    struct progress_bar bar;
    struct tableset ts;
    char dir[4096], err[2048];
    int status = parse_args(argc, argv, &a);

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    threads_start("gen", a.threads);
    options.self_check = a.self_check;
    options.estimate_only = a.estimate_only;
    /* in a job only process 0's output is kept (cli/main_mpi.c): the others need no
     * calibration of their own */
    bool prints = !ranks || ranks->rank == 0;
    if (a.estimate_only && prints)
        options.time_estimate = &time_estimate;
    if (a.json && !(options.plan = malloc(sizeof *options.plan))) {
        fprintf(stderr, "damero gen: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    options.rule_tables = a.rule_tables;
    options.memory_budget = a.memory_gb > 0 ? a.memory_gb * GB : default_budget(ranks);
    snprintf(dir, sizeof dir, "%s/%s", a.dir, a.v->name);
    tableset_init(&ts, a.v, dir);
    /* solving reads DTM only; the self-check reads MTC too, and so do the rule tables'
     * searches, which MTC cuts short */
    ts.dtm_only = !a.self_check && !a.rule_tables;
    ts.wdl_only = a.metrics != METRICS_ALL;
    ts.with_mtc = a.metrics == METRICS_WDL_MTC || a.metrics == METRICS_WDL_MTC_COMMA;
    if (a.hold_levels_mb >= 0)
        ts.levels_held_most = a.hold_levels_mb * 1024.0 * 1024;
    progress_bar_init(&bar, isatty(STDERR_FILENO));
    options.progress = progress_bar_callbacks(&bar);
    status = build_materials(&ts, a.wanted, a.num_wanted, &options, err, sizeof err);
    progress_bar_end(&bar);
    tableset_free(&ts);
    if (a.estimate_only && !a.json) /* the answer, whether it fits or not */
        print_estimate(&a, &estimate, options.memory_budget);
    if (status < 0 && ranks)
        fprintf(stderr, "damero gen: process %d of %d: %s\n", ranks->rank, ranks->count, err);
    else if (status < 0)
        fprintf(stderr, "damero gen: %s\n", err);
    if (status == 0 && a.json && prints)
        status = print_plan_json(&a, options.plan, &estimate, &time_estimate, ranks);
    free(options.plan);
    if (status < 0)
        return EXIT_FAILURE_RUN;
    if (a.json)
        return status;
    if (a.estimate_only && prints)
        print_time_estimate(&a, &time_estimate);
    else if (!a.estimate_only)
        print_summary(&a, dir, &report, ranks);
    return EXIT_OK;
}
