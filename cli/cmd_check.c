/* damero check: every table file of a directory read through and checked, each problem
 * listed, through the public API (damero_check). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/probing.h"

static const char help[] =
    "usage: damero check [--variant NAME] [--dir DIR | DIR]\n"
    "\n"
    "Checks every table file under DIR now, as a probe would check the files it needs when\n"
    "it first reads them: header, block directory and that the file is the table its name\n"
    "says, then every block's checksum. Prints one line per bad file (its path and what is\n"
    "wrong; rebuild it with 'damero gen', which replaces damaged files), then one line per\n"
    "variant with how many files were checked. Exits 0 when every file is sound, 1 when any\n"
    "is not.\n"
    "\n"
    "  --variant NAME  only this variant's folder (default: every variant's folder there is)\n"
    "  --dir DIR       the table root, as given to 'damero gen --dir' (default:\n"
    "                  " DEFAULT_DIR_HELP "); the root may also be the one operand\n";

struct check_args {
    const char *variant; /* NULL: every variant */
    const char *dir;
};

static int parse_args(int argc, char **argv, struct check_args *a)
{
    const struct option_spec options[] = {
        { "variant", OPTION_VARIANT_NAME, .to.text = &a->variant },
        { "dir", OPTION_TEXT, .to.text = &a->dir }, /* read only: "" is no directory */
        { .name = NULL },
    };
    struct operands operands;
    int status = parse_options("check", help, options, argc, argv, &operands);

    if (status == EXIT_OK)
        status = operands_at_most("check", &operands, 1, "");
    if (status == EXIT_OK && operands.count == 1)
        a->dir = operands.arg[0];
    return status;
}

static void print_problem(void *context, const char *file, int status, const char *message)
{
    int *problems = context;
    (void)file;
    (void)status;
    printf("%s\n", message);
    (*problems)++;
}

/* Checks one variant's folder; returns how many files were bad, or -1 when the check
 * could not run (after saying why). */
static int check_variant(const char *variant, const char *dir)
{
    damero_tb *tb;
    int problems = 0, files = 0;
    if (damero_open(variant, dir, 0, &tb) != DAMERO_OK) {
        probe_failure("check");
        return -1;
    }
    int status = damero_check(tb, print_problem, &problems, &files);
    damero_close(tb);
    if (status == DAMERO_ERR_MEMORY) {
        probe_failure("check");
        return -1;
    }
    printf("%s: %d table file%s checked, %d bad\n", variant, files, files == 1 ? "" : "s",
           problems);
    return problems;
}

int cmd_check(int argc, char **argv)
{
    struct check_args a = { NULL, default_table_dir() };
    int status = parse_args(argc, argv, &a), bad = 0, variants = 0;
    const char *name;
    char folder[4096];
    struct stat st;

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    if (stat(a.dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "damero check: %s is not a directory of tables (build some with "
                        "'damero gen --dir %s')\n", a.dir, a.dir);
        return EXIT_FAILURE_RUN;
    }
    for (int k = 0; (name = damero_variant_name(k)); k++) {
        snprintf(folder, sizeof folder, "%s/%s", a.dir, name);
        if (a.variant ? strcmp(a.variant, name) != 0 : stat(folder, &st) != 0)
            continue;
        int problems = check_variant(name, a.dir);
        if (problems < 0)
            return EXIT_FAILURE_RUN;
        bad += problems;
        variants++;
    }
    if (variants == 0)
        printf("no tables in %s\n", a.dir);
    return bad ? EXIT_FAILURE_RUN : EXIT_OK;
}
