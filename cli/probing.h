/* What `damero probe` and `damero line` share: the options naming the tables and the
 * position, opening both through the public API (damero.h), and the words for values. */
#ifndef DAMERO_CLI_PROBING_H
#define DAMERO_CLI_PROBING_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli/json_out.h"
#include "probe/damero.h"

/* The options both commands take, first in their getopt_long tables. */
#define TABLE_LONGOPTS                           \
    { "variant", required_argument, NULL, 'v' }, \
    { "dir", required_argument, NULL, 'd' },     \
    { "json", no_argument, NULL, 'j' },          \
    { "help", no_argument, NULL, 'h' }

/* --cache MB, for the commands that take it (table_option handles it). */
#define CACHE_LONGOPT { "cache", required_argument, NULL, 'c' }

/* Their help. */
#define TABLE_OPTIONS_HELP \
    "  --variant NAME  the rules (see 'damero --help' for the list)\n" \
    "  --dir DIR       the table root, as given to 'damero gen --dir' (default:\n" \
    "                  " DEFAULT_DIR_HELP ");\n" \
    "                  the tables are read from DIR/NAME/\n"

/* The block cache of damero_open, in MB (the range the header suggests for an engine). */
#define DEFAULT_CACHE_MB 64

struct table_args {
    const char *variant;
    const char *dir;
    const char *fen;
    bool json;
    size_t cache_bytes;
};

/* The arguments before parsing: tables in "tables", the default cache. */
struct table_args table_args_default(void);

/* Handles opt, an option of TABLE_LONGOPTS or CACHE_LONGOPT, or one getopt_long did not
 * know (a command that takes only some of them lists only those). Returns EXIT_OK, -1
 * after printing help (the command then exits with EXIT_OK), or EXIT_USAGE after
 * printing the error. */
int table_option(const char *cmd, const char *help, int opt, char *const *argv,
                 struct table_args *a);

/* Checks what follows the options: --variant was given and one FEN is left. Returns
 * EXIT_OK or EXIT_USAGE after printing the error. */
int table_operands(const char *cmd, int argc, char *const *argv, struct table_args *a);

/* Opens the variant's tables and reads the FEN. Returns EXIT_OK, or an exit code after
 * reporting what went wrong (position_failure): EXIT_USAGE for a bad FEN,
 * EXIT_FAILURE_RUN when the tables cannot be opened (*tb is then NULL). */
int table_open_position(const char *cmd, const struct table_args *a, damero_tb **tb,
                        damero_position *pos);

/* Reports damero_error_message() as the failure of the position a->fen: with --json as
 * {"fen": FEN, "error": sentence} on stdout, else on stderr (input_failure). Returns code. */
int position_failure(const char *cmd, const struct table_args *a, int code);

/* Prints json, which a builder of cli/api_json.h made with the status `built`: the JSON
 * on stdout, or position_failure when the build failed on a probe. Returns the exit
 * code. */
int print_built_json(const char *cmd, const struct table_args *a, int built, json_t *json);

/* Prints "damero CMD: <damero_error_message()>" on stderr; returns EXIT_FAILURE_RUN. */
int probe_failure(const char *cmd);

/* "win", "draw" or "loss". */
const char *wdl_word(int wdl);

/* "White" or "Black". */
const char *side_word(int side);

#endif
