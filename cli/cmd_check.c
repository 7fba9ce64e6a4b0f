/* damero check: every table file of a directory read through and checked, each problem
 * listed, through the public API (damero_check). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/api_json.h"
#include "cli/commands.h"
#include "cli/json_out.h"
#include "cli/options.h"
#include "probe/damero.h"

static const char help[] =
    "usage: damero check [--variant NAME] [--json] [--dir DIR | DIR]\n"
    "\n"
    "Checks every table file under DIR now, as a probe would check the files it needs when\n"
    "it first reads them: header, block directory and that the file is the table its name\n"
    "says, then every block's checksum. Prints one line per bad file (its path and what is\n"
    "wrong; rebuild it with 'damero gen', which replaces damaged files), then one line per\n"
    "variant with how many files were checked. Exits 0 when every file is sound, 1 when any\n"
    "is not.\n"
    "\n"
    "  --variant NAME  only this variant's folder (default: every variant's folder there is)\n"
    "  --json          one JSON object: dir, bad (the bad files in all) and variants, a list\n"
    "                  of {variant, files (how many were checked), bad, problems: a list of\n"
    "                  {file (its name in the variant's folder), error (what is wrong)}};\n"
    "                  variants is empty when DIR holds no tables. When the check cannot\n"
    "                  run (DIR is not a directory of tables), {dir, error} instead. The\n"
    "                  exit code is as without --json.\n"
    "  --dir DIR       the table root, as given to 'damero gen --dir' (default:\n"
    "                  " DEFAULT_DIR_HELP "); the root may also be the one operand\n";

struct check_args {
    const char *variant; /* NULL: every variant */
    const char *dir;
    bool json;
};

static int parse_args(int argc, char **argv, struct check_args *a)
{
    const struct option_spec options[] = {
        { "variant", OPTION_VARIANT_NAME, .to.text = &a->variant },
        { "json", OPTION_FLAG, .to.flag = &a->json },
        { "dir", OPTION_PATH, .to.text = &a->dir },
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

/* The bad files of one variant's folder: printed as they are found or, with --json, kept
 * for the document. */
struct folder_report {
    bool json;
    int bad;
    json_t *problems; /* with --json: [{file, error}, ...]; NULL once memory ran out */
};

static void note_problem(void *context, const char *file, int status, const char *message)
{
    struct folder_report *r = context;
    (void)status;
    r->bad++;
    if (r->json) /* out of memory leaves r->problems NULL, and json_print says so */
        json_append(&r->problems, json_pack("{s:s, s:s}", "file", file, "error", message));
    else
        printf("%s\n", message);
}

/* Checks one variant's folder: prints its count, or with --json appends its object to
 * *variants. Returns how many files were bad, or -1 when the check could not run
 * (damero_error_message() says why). */
static int check_variant(const char *variant, const char *dir, bool json, json_t **variants)
{
    struct folder_report r = { json, 0, json ? json_array() : NULL };
    damero_tb *tb;
    int files = 0;

    if (damero_open(variant, dir, 0, &tb) != DAMERO_OK) {
        json_decref(r.problems);
        return -1;
    }
    int status = damero_check(tb, note_problem, &r, &files);
    damero_close(tb);
    if (status == DAMERO_ERR_MEMORY) {
        json_decref(r.problems);
        return -1;
    }
    if (json)
        json_append(variants, json_pack("{s:s, s:i, s:i, s:o}", "variant", variant, "files",
                                        files, "bad", r.bad, "problems", r.problems));
    else
        printf("%s: %d table file%s checked, %d bad\n", variant, files,
               files == 1 ? "" : "s", r.bad);
    return r.bad;
}

/* The one JSON document of --json: {dir, bad, variants}. Returns the exit code. */
static int print_json(const char *dir, int bad, json_t *variants)
{
    json_t *document = json_pack("{s:s, s:i, s:o}", "dir", dir, "bad", bad, "variants",
                                 variants);
    if (json_print("check", document) < 0)
        return EXIT_FAILURE_RUN;
    return bad ? EXIT_FAILURE_RUN : EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
    struct check_args a = { NULL, default_table_dir(), false };
    int status = parse_args(argc, argv, &a), bad = 0, checked = 0;
    json_t *variants = NULL; /* with --json: each variant's object */
    const char *name;
    char folder[4096], message[4200];
    struct stat st;

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    if (stat(a.dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(message, sizeof message, "%s is not a directory of tables (build some with "
                 "'damero gen --dir %s')", a.dir, a.dir);
        return input_failure("check", a.json, "dir", a.dir, EXIT_FAILURE_RUN, message);
    }
    if (a.json)
        variants = json_array();
    for (int k = 0; (name = damero_variant_name(k)); k++) {
        snprintf(folder, sizeof folder, "%s/%s", a.dir, name);
        if (a.variant ? strcmp(a.variant, name) != 0 : stat(folder, &st) != 0)
            continue;
        int problems = check_variant(name, a.dir, a.json, &variants);
        if (problems < 0) {
            json_decref(variants);
            return input_failure("check", a.json, "dir", a.dir, EXIT_FAILURE_RUN,
                                 damero_error_message());
        }
        bad += problems;
        checked++;
    }
    if (a.json)
        return print_json(a.dir, bad, variants);
    if (checked == 0)
        printf("no tables in %s\n", a.dir);
    return bad ? EXIT_FAILURE_RUN : EXIT_OK;
}
