/* What `damero probe` and `damero line` share: the options naming the tables and the
 * position, opening both through the public API (damero.h), and the words for values. */
#ifndef DAMERO_CLI_PROBING_H
#define DAMERO_CLI_PROBING_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/json_out.h"
#include "cli/options.h"
#include "probe/damero.h"

/* Rows of an option table (cli/options.h), t a struct table_args: where the tables are
 * and the answer in JSON, for the commands that take --variant as well. */
#define TABLE_OPTIONS(t)                                   \
    { "dir", OPTION_PATH, .to.text = &(t)->dir },          \
    { "json", OPTION_FLAG, .to.flag = &(t)->json }

/* --fen FEN, the position, for the commands that also take it as their one operand (as
 * perft does). */
#define FEN_OPTION(t) { "fen", OPTION_TEXT, .to.text = &(t)->fen }

/* The help of --fen. */
#define FEN_OPTION_HELP \
    "  --fen FEN       the same as the FEN operand (as every command takes a position)\n"

/* --cache MB, the block cache of damero_open, for the commands that take it. */
#define CACHE_OPTION(t) \
    { "cache", OPTION_MEGABYTES, .to.bytes = &(t)->cache_bytes, .min = 0, .max = 1 << 20 }

/* The help of --variant and --dir. */
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

/* Checks the operands: one FEN, which goes to a->fen, or none when --fen gave it. Returns
 * EXIT_OK or EXIT_USAGE after printing the error. */
int table_operands(const char *cmd, const struct operands *operands, struct table_args *a);

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

/* The material of pos as 'damero gen' takes it: White's kings and men, 'v', Black's
 * ("KKMvK"). */
void position_material(const damero_position *pos, char *name, size_t size);

/* The command that builds the tables of pos's material whole (DTM and MTC with the WDL),
 * quoted: "'damero gen --variant russian --dir tables KvMM'". */
void build_command(const damero_tb *tb, const char *dir, const damero_position *pos,
                   char *command, size_t size);

/* "win", "draw" or "loss". */
const char *wdl_word(int wdl);

/* "White" or "Black". */
const char *side_word(int side);

#endif
