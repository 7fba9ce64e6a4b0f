/* The options of the subcommands of `damero`: each command declares its options as a
 * table (struct option_spec), and parse_options reads argv against it, with the same
 * error messages for every command. Also what they share besides: exit codes, usage
 * errors, the default table root. */
#ifndef DAMERO_CLI_OPTIONS_H
#define DAMERO_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct variant; /* core/variant.h, for the commands that use the rules themselves */

enum exit_code { EXIT_OK = 0, EXIT_FAILURE_RUN = 1, EXIT_USAGE = 2 };

/* What parse_options returns when it printed the command's help: the command ends there,
 * with EXIT_OK. It is the one negative status. */
#define OPTIONS_HELP_SHOWN (-1)

/* Prints "damero CMD: message" and a hint to CMD --help on stderr; returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* How an option's value is read and checked, and so which member of option_spec.to
 * receives it. */
enum option_kind {
    OPTION_FLAG,           /* no value: *to.flag becomes true */
    OPTION_NUMBER,         /* a whole number from min to max: *to.number */
    OPTION_MEGABYTES,      /* a whole number of MB from min to max: *to.bytes, in bytes */
    OPTION_GIGABYTES,      /* a number of GB such as 16 or 0.5: *to.gigabytes */
    OPTION_TEXT,           /* any text: *to.text */
    OPTION_PATH,           /* a file or directory name, not empty: *to.text */
    OPTION_WORD,           /* one of words: *to.number, its place in words */
    OPTION_VARIANT,        /* a variant's name: *to.variant, its rule row */
    OPTION_VARIANT_OR_ALL, /* the same, or "all": *to.variant NULL */
    OPTION_VARIANT_NAME,   /* a variant's name: *to.text, as damero.h spells it (checked
                            * here, not left to damero_open: an unknown name is a usage
                            * error, which lists the names) */
    OPTION_LIST,           /* repeatable: each value is added to to.list, at most max */
    OPTION_HELP,           /* no value: prints the command's help (every command has it) */
};

/* A word an OPTION_WORD option takes, and what it means (the error message lists them). */
struct option_word {
    const char *word;
    const char *meaning;
};

/* One option of a command: a row of its table, which ends with { .name = NULL }.
 * Rows name the places their values go, so a command builds its table where those
 * places are, before parsing:
 *   { "depth", OPTION_NUMBER, .to.number = &depth, .min = 1, .max = 20, .required = true }
 */
struct option_spec {
    const char *name;          /* the long name, without "--" */
    enum option_kind kind;
    union {
        bool *flag;
        int *number;
        size_t *bytes;
        double *gigabytes;
        const char **text;
        const struct variant **variant;
        struct {
            const char **items;
            int *count;
        } list;
    } to;
    int min, max;              /* OPTION_NUMBER, OPTION_MEGABYTES; OPTION_LIST: max */
    const struct option_word *words; /* OPTION_WORD: ended by a NULL word */
    bool required;             /* the command does not run without it */
    bool *implies;             /* set to true as well when the option is given */
    char short_name;           /* the letter of "-x", or 0 */
};

/* The operands: what is left of argv once the options are read, in order (options and
 * operands may come in any order; "--" ends the options). */
struct operands {
    char **arg;
    int count;
};

/* Reads the options of argv (argv[0] is the command's name) against the table options:
 * each value is checked and stored as its row says, --help (-h) prints help. Returns
 * EXIT_OK with the operands, EXIT_USAGE after printing what is wrong (an unknown option,
 * a value missing, out of range or given to an option that takes none, a required option
 * absent), OPTIONS_HELP_SHOWN, or EXIT_FAILURE_RUN when memory runs out. */
int parse_options(const char *cmd, const char *help, const struct option_spec *options,
                  int argc, char **argv, struct operands *operands);

/* Checks that at most `most` operands were given; else prints "unexpected argument 'X'"
 * and hint (a parenthesis, or "") for the first one too many and returns EXIT_USAGE. */
int operands_at_most(const char *cmd, const struct operands *operands, int most,
                     const char *hint);

/* The table root when no --dir is given: $DAMERO_TABLES when set and not empty, else
 * "tables" (in the current directory). */
const char *default_table_dir(void);

/* The help line of that default, for every command's --dir. */
#define DEFAULT_DIR_HELP "$DAMERO_TABLES, or tables when it is not set"

#endif
