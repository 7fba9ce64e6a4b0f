/* What the subcommands of `damero` share: exit codes, error messages, option values. */
#ifndef DAMERO_CLI_OPTIONS_H
#define DAMERO_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

struct variant; /* core/variant.h, for the commands that use the rules themselves */

enum exit_code { EXIT_OK = 0, EXIT_FAILURE_RUN = 1, EXIT_USAGE = 2 };

/* Prints "damero CMD: message" and a hint to CMD --help on stderr; returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The usage error for what getopt_long returned as `opt` when it was not an option of
 * the command: ':' for an option missing its value, anything else for an unknown one.
 * Returns EXIT_USAGE. */
int option_error(const char *cmd, int opt, char *const *argv);

/* The name of the variant called name, as damero.h knows it, or NULL after printing an
 * error that lists the variants. */
const char *parse_variant_name(const char *cmd, const char *name);

/* The same, as the variant's rule row (core/variant.h). */
const struct variant *parse_variant(const char *cmd, const char *name);

/* Parses a whole decimal number in [min, max]; returns 0, or -1 after printing an error
 * naming the option. */
int parse_int(const char *cmd, const char *option, const char *text, int min, int max,
              int *value);

/* Parses the MB of a --cache option into *bytes; returns 0, or -1 after printing an
 * error. */
int parse_cache(const char *cmd, const char *text, size_t *bytes);

/* The table root when no --dir is given: $DAMERO_TABLES when set and not empty, else
 * "tables" (in the current directory). */
const char *default_table_dir(void);

/* The help line of that default, for every command's --dir. */
#define DEFAULT_DIR_HELP "$DAMERO_TABLES, or tables when it is not set"

/* A file or directory name given to an option: text, or NULL after printing an error
 * when it is empty (an empty --dir would otherwise write at the filesystem's root). */
const char *parse_path(const char *cmd, const char *option, const char *text);

#endif
