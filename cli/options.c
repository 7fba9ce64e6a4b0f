#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/variant.h"
#include "probe/damero.h"

int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "damero %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'damero %s --help')\n", cmd);
    return EXIT_USAGE;
}

/* Appends to the text in buf (size bytes), cut short when it is full. */
static void append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

/* ---- the values ---- */

static int read_number(const char *cmd, const struct option_spec *o, const char *text,
                       int *value)
{
    char *end;
    long n;

    errno = 0;
    n = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || n < o->min || n > o->max)
        return usage_error(cmd, "--%s takes a whole number from %d to %d, not '%s'", o->name,
                           o->min, o->max, text);
    *value = (int)n;
    return EXIT_OK;
}

static int read_megabytes(const char *cmd, const struct option_spec *o, const char *text)
{
    int mb = 0;
    int status = read_number(cmd, o, text, &mb);
    if (status == EXIT_OK)
        *o->to.bytes = (size_t)mb << 20;
    return status;
}

static int read_gigabytes(const char *cmd, const struct option_spec *o, const char *text)
{
    char *end;
    double gb;

    errno = 0;
    gb = strtod(text, &end);
    /* from a megabyte to a million gigabytes: written the other way, NaN is refused */
    if (errno || end == text || *end != '\0' || !(gb >= 0.001 && gb <= 1e6))
        return usage_error(cmd, "--%s takes a number of gigabytes such as 16 or 0.5, not '%s'",
                           o->name, text);
    *o->to.gigabytes = gb;
    return EXIT_OK;
}

static int read_path(const char *cmd, const struct option_spec *o, const char *text)
{
    /* an empty --dir would otherwise write at the filesystem's root */
    if (text[0] == '\0')
        return usage_error(cmd, "--%s needs a name, not an empty one ('.' is this directory)",
                           o->name);
    *o->to.text = text;
    return EXIT_OK;
}

/* "'wdl' (WDL tables only) or 'all' (WDL, DTM and MTC)" */
static int read_word(const char *cmd, const struct option_spec *o, const char *text)
{
    char choices[512] = "";

    for (int k = 0; o->words[k].word; k++) {
        if (strcmp(o->words[k].word, text) == 0) {
            *o->to.number = k;
            return EXIT_OK;
        }
        append(choices, sizeof choices, "%s'%s' (%s)",
               k == 0 ? "" : o->words[k + 1].word ? ", " : " or ", o->words[k].word,
               o->words[k].meaning);
    }
    return usage_error(cmd, "--%s takes %s, not '%s'", o->name, choices, text);
}

/* A variant's name, as damero.h spells it, or NULL after the error, which lists them. */
static const char *read_variant_name(const char *cmd, const struct option_spec *o,
                                     const char *text)
{
    char names[512] = "";
    const char *known;

    for (int k = 0; (known = damero_variant_name(k)); k++) {
        if (strcmp(known, text) == 0)
            return known;
        append(names, sizeof names, " %s", known);
    }
    usage_error(cmd, "unknown variant '%s'; the variants are:%s%s", text, names,
                o->kind == OPTION_VARIANT_OR_ALL ? ", or all (every one)" : "");
    return NULL;
}

static int read_variant(const char *cmd, const struct option_spec *o, const char *text)
{
    if (o->kind == OPTION_VARIANT_OR_ALL && strcmp(text, "all") == 0) {
        *o->to.variant = NULL;
        return EXIT_OK;
    }
    const char *name = read_variant_name(cmd, o, text);
    if (!name)
        return EXIT_USAGE;
    if (o->kind == OPTION_VARIANT_NAME)
        *o->to.text = name;
    else
        *o->to.variant = variant_by_name(name);
    return EXIT_OK;
}

static int add_to_list(const char *cmd, const struct option_spec *o, const char *text)
{
    if (*o->to.list.count == o->max)
        return usage_error(cmd, "--%s can be given at most %d times", o->name, o->max);
    o->to.list.items[(*o->to.list.count)++] = text;
    return EXIT_OK;
}

/* Reads the value of option o (NULL when it takes none) into the place its row names.
 * Returns EXIT_OK, EXIT_USAGE after the error, or OPTIONS_HELP_SHOWN. */
static int read_option(const char *cmd, const char *help, const struct option_spec *o,
                       const char *value)
{
    switch (o->kind) {
    case OPTION_FLAG: *o->to.flag = true; return EXIT_OK;
    case OPTION_HELP: fputs(help, stdout); return OPTIONS_HELP_SHOWN;
    case OPTION_NUMBER: return read_number(cmd, o, value, o->to.number);
    case OPTION_MEGABYTES: return read_megabytes(cmd, o, value);
    case OPTION_GIGABYTES: return read_gigabytes(cmd, o, value);
    case OPTION_TEXT: *o->to.text = value; return EXIT_OK;
    case OPTION_PATH: return read_path(cmd, o, value);
    case OPTION_WORD: return read_word(cmd, o, value);
    case OPTION_VARIANT:
    case OPTION_VARIANT_OR_ALL:
    case OPTION_VARIANT_NAME: return read_variant(cmd, o, value);
    case OPTION_LIST: return add_to_list(cmd, o, value);
    }
    return EXIT_USAGE; /* not reached: every kind is handled above */
}

/* ---- the table, for getopt_long ---- */

/* What getopt_long returns for row k: beyond every letter a short option may have. */
#define FIRST_ROW 256

/* Every command's last row. */
static const struct option_spec help_row = { "help", OPTION_HELP, .short_name = 'h' };

static bool takes_value(const struct option_spec *o)
{
    return o->kind != OPTION_FLAG && o->kind != OPTION_HELP;
}

/* A command's rows with the help row after them, as getopt_long reads them. */
struct getopt_table {
    const struct option_spec **rows;
    int count;
    struct option *longopts; /* row k returns FIRST_ROW + k */
    char *shorts;            /* ":" (report a missing value), then "x" or "x:" per letter */
    bool *given;
};

static void table_free(struct getopt_table *t)
{
    free(t->rows);
    free(t->longopts);
    free(t->shorts);
    free(t->given);
}

/* Returns 0, or -1 when memory runs out. */
static int table_build(const struct option_spec *options, struct getopt_table *t)
{
    int n = 0, letters = 0;
    while (options[n].name)
        n++;
    t->count = n + 1;
    t->rows = calloc((size_t)t->count, sizeof *t->rows);
    t->longopts = calloc((size_t)t->count + 1, sizeof *t->longopts);
    t->shorts = calloc(2 * (size_t)t->count + 2, 1);
    t->given = calloc((size_t)t->count, sizeof *t->given);
    if (!t->rows || !t->longopts || !t->shorts || !t->given) {
        table_free(t);
        return -1;
    }
    t->shorts[letters++] = ':';
    for (int k = 0; k < t->count; k++) {
        const struct option_spec *o = k < n ? &options[k] : &help_row;
        t->rows[k] = o;
        t->longopts[k] = (struct option){ o->name, takes_value(o) ? required_argument
                                                                  : no_argument,
                                          NULL, FIRST_ROW + k };
        if (o->short_name) {
            t->shorts[letters++] = o->short_name;
            if (takes_value(o))
                t->shorts[letters++] = ':';
        }
    }
    return 0;
}

/* The row getopt_long returned as opt (a row's number or a short option's letter). */
static int row_of(const struct getopt_table *t, int opt)
{
    if (opt >= FIRST_ROW)
        return opt - FIRST_ROW;
    for (int k = 0; k < t->count; k++)
        if (t->rows[k]->short_name == opt)
            return k;
    return -1;
}

/* The error for a long option getopt_long did not take: an unknown name, or the start of
 * several. */
static int unknown_long_option(const char *cmd, const struct getopt_table *t, const char *arg)
{
    const char *name = arg + 2;
    size_t length = strcspn(name, "=");
    char matches[256] = "";
    int count = 0;

    for (int k = 0; k < t->count && length > 0; k++)
        if (strncmp(t->rows[k]->name, name, length) == 0)
            append(matches, sizeof matches, "%s--%s", count++ ? ", " : "", t->rows[k]->name);
    if (count > 1)
        return usage_error(cmd, "option '%.*s' may be any of %s: write more of its name",
                           (int)length + 2, arg, matches);
    return usage_error(cmd, "unknown option '%s'", arg);
}

/* The error for what getopt_long returned when it could not take an argument. */
static int getopt_error(const char *cmd, const struct getopt_table *t, int opt,
                        char *const *argv)
{
    const char *arg = argv[optind - 1];

    /* getopt_long leaves in optopt the option it could not take (0 for an unknown long
     * one), and moves optind past the argument that held it */
    if (opt == ':')
        return usage_error(cmd, "--%s needs a value", t->rows[row_of(t, optopt)]->name);
    if (optopt >= FIRST_ROW) {
        const char *name = t->rows[optopt - FIRST_ROW]->name;
        return usage_error(cmd, "--%s takes no value: write '--%s', not '%s'", name, name, arg);
    }
    if (optopt)
        return usage_error(cmd, "unknown option '-%c'", optopt);
    return unknown_long_option(cmd, t, arg);
}

static int parse_table(const char *cmd, const char *help, struct getopt_table *t, int argc,
                       char **argv, struct operands *operands)
{
    int opt, status;

    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, t->shorts, t->longopts, NULL)) != -1) {
        if (opt == '?' || opt == ':')
            return getopt_error(cmd, t, opt, argv);
        int k = row_of(t, opt);
        if ((status = read_option(cmd, help, t->rows[k], optarg)) != EXIT_OK)
            return status;
        t->given[k] = true;
        if (t->rows[k]->implies)
            *t->rows[k]->implies = true;
    }
    for (int k = 0; k < t->count; k++)
        if (t->rows[k]->required && !t->given[k])
            return usage_error(cmd, "--%s is required", t->rows[k]->name);
    operands->arg = argv + optind;
    operands->count = argc - optind;
    return EXIT_OK;
}

int parse_options(const char *cmd, const char *help, const struct option_spec *options,
                  int argc, char **argv, struct operands *operands)
{
    struct getopt_table t;
    if (table_build(options, &t) < 0) {
        fprintf(stderr, "damero %s: out of memory\n", cmd);
        return EXIT_FAILURE_RUN;
    }
    int status = parse_table(cmd, help, &t, argc, argv, operands);
    table_free(&t);
    return status;
}

int operands_at_most(const char *cmd, const struct operands *operands, int most,
                     const char *hint)
{
    if (operands->count <= most)
        return EXIT_OK;
    return usage_error(cmd, "unexpected argument '%s'%s", operands->arg[most], hint);
}

const char *default_table_dir(void)
{
    const char *dir = getenv("DAMERO_TABLES");
    return dir && *dir ? dir : "tables";
}
