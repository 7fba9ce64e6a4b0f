/* damero verify: every move-limit rule of a variant against perfect play. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/api_json.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/threads.h"
#include "cli/verify_report.h"
#include "gen/build.h"
#include "probe/damero.h"
#include "rules/coverage.h"
#include "verify/summary.h"
#include "verify/verify.h"

static const char help[] =
    "usage: damero verify [--variant NAME|all] [--pieces N] [--dir DIR] [--json]\n"
    "                     [--markdown FILE] [--threads T]\n"
    "\n"
    "Checks each move-limit draw rule of a variant (the forzosa, three kings against one,\n"
    "the 16/5/25-move rules, the no-progress counts) against the tables, building the\n"
    "tables it needs that are missing. For a rule that demands a win within N moves it\n"
    "reports, per side to move and per reading of the limit, the positions it covers, the\n"
    "wins, the longest win in the rule's unit with its line, and how many wins need more\n"
    "than the limit (the rule turns them into draws); then, by the moves already played\n"
    "on its count when its ending arises, the positions won, drawn and lost under the rule\n"
    "alone and under all the variant's rules at once. For a no-progress count it reports,\n"
    "per ending, the longest moves-to-conversion of a win and the wins beyond the limit,\n"
    "and the line from the longest of all to the move that resets the count.\n"
    "\n"
    "  --variant NAME  one variant, or all (the default)\n"
    "  --pieces N      endings of up to N pieces (default 4)\n"
    "  --dir DIR       the table root, as for 'damero gen' (default:\n"
    "                  " DEFAULT_DIR_HELP ")\n"
    "  --json          one JSON object per variant: variant, rules (name, limit, unit,\n"
    "                  convention, results: side_to_move, positions, wins, longest_win,\n"
    "                  wins_beyond_limit, example_fen; for a rule that demands a win\n"
    "                  within N moves also by_played: per moves already played on its\n"
    "                  count, won, drawn and lost under the rule alone, and at_once: the\n"
    "                  same from 0 to 3 played under all the variant's rules at once, with\n"
    "                  drawn_by_others, the wins in time alone that the rules at once draw,\n"
    "                  and drawn_by_others_example: played, fen, plies_alone, or null; for\n"
    "                  a no-progress count longest_wait: ending, side_to_move, fen,\n"
    "                  plies, line, or null);\n"
    "                  a list of them for all variants;\n"
    "                  a failure is an object {variant, error} in its place, exit 1\n"
    "  --markdown FILE also write the report as a document, the examples drawn as boards\n"
    "                  ('-': the document on standard output, in place of the text)\n"
    "  --threads T     threads for building tables (default: every core)\n";

struct verify_args {
    const struct variant *only; /* NULL: every variant */
    const char *dir;
    const char *markdown;
    int pieces, threads;
    bool json;
};

static int parse_args(int argc, char **argv, struct verify_args *a)
{
    const struct option_spec options[] = {
        { "variant", OPTION_VARIANT_OR_ALL, .to.variant = &a->only },
        { "pieces", OPTION_NUMBER, .to.number = &a->pieces, .min = 2,
          .max = MATERIAL_MAX_PIECES },
        { "dir", OPTION_PATH, .to.text = &a->dir },
        { "json", OPTION_FLAG, .to.flag = &a->json },
        { "markdown", OPTION_PATH, .to.text = &a->markdown },
        { "threads", OPTION_NUMBER, .to.number = &a->threads, .min = 1, .max = 1024 },
        { .name = NULL },
    };
    struct operands operands;
    int status = parse_options("verify", help, options, argc, argv, &operands);

    if (status == EXIT_OK)
        status = operands_at_most("verify", &operands, 0, "");
    if (status != EXIT_OK)
        return status;
    if (a->json && a->markdown && strcmp(a->markdown, "-") == 0)
        return usage_error("verify", "--json and --markdown - would both write to standard "
                                     "output: give --markdown a file name");
    return EXIT_OK;
}

/* Whether m's WDL table is on disk without its DTM or MTC table (damero gen --metrics
 * wdl, or a set of WDL and MTC): verify builds it again, whole. */
static bool without_distances(const struct tableset *ts, const struct material *m)
{
    char path[4096];
    bool missing = false;
    tableset_path(ts, m, METRIC_WDL, path, sizeof path);
    if (access(path, F_OK) != 0)
        return false;
    for (enum table_metric metric = METRIC_DTM; metric <= METRIC_MTC; metric++) {
        tableset_path(ts, m, metric, path, sizeof path);
        missing |= access(path, F_OK) != 0;
    }
    return missing;
}

/* Says on stderr which of the n tables wanted are there without DTM or MTC, which the
 * checks need: the build that follows makes them again, whole, rather than fail. */
static void note_without_distances(const struct tableset *ts, const struct material *wanted,
                                   int n)
{
    char name[MATERIAL_NAME_SIZE], names[512] = "";
    int count = 0;
    for (int k = 0; k < n; k++) {
        bool seen = false;
        for (int j = 0; j < k && !seen; j++)
            seen = material_equal(&wanted[j], &wanted[k]);
        if (seen || !without_distances(ts, &wanted[k]))
            continue;
        material_name(&wanted[k], name);
        if (strlen(names) + strlen(name) + 8 < sizeof names)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     count ? ", " : "", name);
        count++;
    }
    if (count > 0)
        fprintf(stderr, "damero verify: %d table%s of %s (%s) %s WDL without DTM or MTC, "
                "which the checks need: building %s again, whole\n", count,
                count == 1 ? "" : "s", ts->dir, names, count == 1 ? "holds" : "hold",
                count == 1 ? "it" : "them");
}

/* Builds what the variant's rules need, fewest pieces first. */
static int build_needed(struct tableset *ts, int pieces, struct progress_bar *bar, char *err,
                        size_t err_size)
{
    static struct material wanted[1024];
    struct build_options options = { .progress = progress_bar_callbacks(bar) };
    int n = 0, status;
    for (const struct move_limit_rule *r = ts->v->move_limits; r->name; r++)
        n += rule_materials(ts->v, r, pieces, wanted + n, 1024 - n);
    note_without_distances(ts, wanted, n);
    status = n == 0 ? 0 : build_materials(ts, wanted, n, &options, err, err_size);
    progress_bar_end(bar);
    return status;
}

/* Checks every rule of the variant against the tables into out's sections, and derives
 * their summaries. */
static int check_rules(struct tableset *ts, int pieces, struct variant_report *out,
                       struct progress_bar *bar, char *err, size_t err_size)
{
    struct rule_report **reports = malloc((size_t)(out->num_rules + 1) * sizeof *reports);
    if (!reports) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    for (int k = 0; k < out->num_rules; k++)
        reports[k] = &out->rules[k].report;
    int status = verify_rules(ts, pieces, reports, progress_bar_callbacks(bar), err, err_size);
    progress_bar_end(bar);
    free(reports);
    for (int k = 0; status == 0 && k < out->num_rules; k++)
        summarize_rule(&out->rules[k].report, &out->rules[k].summary);
    return status;
}

/* Verifies every rule of one variant into *out, the progress of the build and of the
 * checks drawn on stderr when it is a terminal. */
static int verify_variant(const struct verify_args *a, const struct variant *v,
                          struct variant_report *out, char *err, size_t err_size)
{
    struct tableset ts;
    struct progress_bar bar;
    char dir[4096];
    int status;
    snprintf(dir, sizeof dir, "%s/%s", a->dir, v->name);
    tableset_init(&ts, v, dir);
    progress_bar_init(&bar, isatty(STDERR_FILENO));
    status = build_needed(&ts, a->pieces, &bar, err, err_size);
    if (status == 0)
        status = check_rules(&ts, a->pieces, out, &bar, err, err_size);
    tableset_free(&ts);
    if (status == 0)
        status = report_lines(a->dir, out, err, err_size);
    return status;
}

int cmd_verify(int argc, char **argv)
{
    struct verify_args a = { .dir = default_table_dir(), .pieces = 4 };
    char err[2048];
    int status = parse_args(argc, argv, &a);
    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    threads_start("verify", a.threads);
    struct report_output out;
    if (report_begin(&out, a.json, a.only != NULL, a.markdown, a.pieces, err, sizeof err) < 0)
        return input_failure("verify", a.json, "markdown", a.markdown, EXIT_FAILURE_RUN, err);
    for (const struct variant *v = variants; v->name && status == EXIT_OK; v++) {
        if (a.only && a.only != v)
            continue;
        struct variant_report *r = variant_report_new(v, a.pieces);
        if (!r || verify_variant(&a, v, r, err, sizeof err) < 0) {
            report_failure(&out, v, r ? err : "out of memory");
            status = EXIT_FAILURE_RUN;
        } else {
            report_variant(&out, r);
        }
        variant_report_free(r);
    }
    if (report_end(&out, status == EXIT_OK, err, sizeof err) < 0) {
        fprintf(stderr, "damero verify: %s\n", err);
        status = EXIT_FAILURE_RUN;
    }
    return status;
}
