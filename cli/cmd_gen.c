/* damero gen: build tables, every material up to a number of pieces or named ones. */
#include <getopt.h>
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "gen/build.h"

static const char help[] =
    "usage: damero gen --variant NAME (--pieces N | MATERIAL...) [--threads T] [--dir DIR]\n"
    "                  [--self-check]\n"
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
    "\n"
    "A progress bar is drawn on stderr when it is a terminal. The summary on stdout gives\n"
    "the tables built and found, positions solved and positions per second.\n";

#define MAX_WANTED 512

struct gen_args {
    const struct variant *v;
    const char *dir;
    int pieces, threads;
    bool self_check;
    struct material wanted[MAX_WANTED];
    int num_wanted;
};

static int parse_args(int argc, char **argv, struct gen_args *a)
{
    static const struct option longopts[] = {
        { "variant", required_argument, NULL, 'v' },
        { "pieces", required_argument, NULL, 'p' },
        { "threads", required_argument, NULL, 't' },
        { "dir", required_argument, NULL, 'd' },
        { "self-check", no_argument, NULL, 'S' },
        { "verify", no_argument, NULL, 'S' }, /* the old name of --self-check */
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int opt;
    char err[256];

    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'v':
            if (!(a->v = parse_variant("gen", optarg)))
                return EXIT_USAGE;
            break;
        case 'p':
            if (parse_int("gen", "--pieces", optarg, 2, MATERIAL_MAX_PIECES, &a->pieces) < 0)
                return EXIT_USAGE;
            break;
        case 't':
            if (parse_int("gen", "--threads", optarg, 1, 1024, &a->threads) < 0)
                return EXIT_USAGE;
            break;
        case 'd':
            if (!(a->dir = parse_path("gen", "--dir", optarg)))
                return EXIT_USAGE;
            break;
        case 'S': a->self_check = true; break;
        case 'h': fputs(help, stdout); return -1;
        default: return option_error("gen", opt, argv);
        }
    }
    if (!a->v)
        return usage_error("gen", "--variant is required");
    for (int k = optind; k < argc; k++) {
        if (a->num_wanted == MAX_WANTED)
            return usage_error("gen", "more than %d materials", MAX_WANTED);
        if (material_parse(a->v, argv[k], &a->wanted[a->num_wanted++], err, sizeof err) < 0)
            return usage_error("gen", "%s", err);
    }
    if (a->pieces == 0 && a->num_wanted == 0)
        return usage_error("gen", "name the materials, or give --pieces");
    for (int n = 2; n <= a->pieces; n++)
        a->num_wanted += material_list(a->v, n, a->wanted + a->num_wanted,
                                       MAX_WANTED - a->num_wanted);
    return EXIT_OK;
}

int cmd_gen(int argc, char **argv)
{
    struct gen_args a = { .dir = default_table_dir() };
    struct build_report report;
    struct build_options options = { .progress = isatty(STDERR_FILENO), .report = &report };
    struct tableset ts;
    char dir[4096], err[2048];
    int status = parse_args(argc, argv, &a);

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    if (a.threads)
        omp_set_num_threads(a.threads);
    options.self_check = a.self_check;
    snprintf(dir, sizeof dir, "%s/%s", a.dir, a.v->name);
    tableset_init(&ts, a.v, dir);
    status = build_materials(&ts, a.wanted, a.num_wanted, &options, err, sizeof err);
    tableset_free(&ts);
    if (status < 0) {
        fprintf(stderr, "damero gen: %s\n", err);
        return EXIT_FAILURE_RUN;
    }
    printf("%s: %d table%s built, %d found intact, in %s\n", a.v->name, report.built,
           report.built == 1 ? "" : "s", report.found, dir);
    printf("%" PRIu64 " positions solved in %.1f s (%.1f M positions/s, %d threads)\n",
           report.positions_built, report.seconds,
           report.seconds > 0 ? (double)report.positions_built / report.seconds / 1e6 : 0.0,
           omp_get_max_threads());
    if (a.self_check)
        printf("%d tables self-checked: every position agrees with its moves\n",
               report.self_checked);
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0)
        printf("peak memory %.1f MB\n", usage.ru_maxrss / 1024.0);
    return EXIT_OK;
}
