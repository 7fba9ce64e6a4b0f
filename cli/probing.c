#include "cli/probing.h"

#include <stdio.h>

#include "cli/api_json.h"
#include "cli/options.h"

struct table_args table_args_default(void)
{
    return (struct table_args){ .dir = default_table_dir(), .cache_bytes = (size_t)DEFAULT_CACHE_MB << 20 };
}

int table_operands(const char *cmd, const struct operands *operands, struct table_args *a)
{
    if (a->fen) /* from --fen */
        return operands_at_most(cmd, operands, 0, " (the FEN is given with --fen already)");
    if (operands->count == 0)
        return usage_error(cmd, "give the position as a FEN (or as --fen FEN)");
    int status = operands_at_most(cmd, operands, 1, " (quote a FEN that holds spaces)");
    if (status == EXIT_OK)
        a->fen = operands->arg[0];
    return status;
}

int table_open_position(const char *cmd, const struct table_args *a, damero_tb **tb,
                        damero_position *pos)
{
    if (damero_open(a->variant, a->dir, a->cache_bytes, tb) != DAMERO_OK)
        return position_failure(cmd, a, EXIT_FAILURE_RUN);
    if (damero_parse_fen(*tb, a->fen, pos) != DAMERO_OK)
        return position_failure(cmd, a, EXIT_USAGE);
    return EXIT_OK;
}

int position_failure(const char *cmd, const struct table_args *a, int code)
{
    return input_failure(cmd, a->json, "fen", a->fen, code, damero_error_message());
}

int print_built_json(const char *cmd, const struct table_args *a, int built, json_t *json)
{
    /* out of memory leaves json NULL, and json_print says so */
    if (built != DAMERO_OK && built != DAMERO_ERR_MEMORY)
        return position_failure(cmd, a, EXIT_FAILURE_RUN);
    return json_print(cmd, json) < 0 ? EXIT_FAILURE_RUN : EXIT_OK;
}

int probe_failure(const char *cmd)
{
    fprintf(stderr, "damero %s: %s\n", cmd, damero_error_message());
    return EXIT_FAILURE_RUN;
}

/* Appends n letters to name, as room allows. */
static void put_letters(char *name, size_t size, size_t *at, char letter, int n)
{
    for (; n > 0 && *at + 1 < size; n--)
        name[(*at)++] = letter;
}

void position_material(const damero_position *pos, char *name, size_t size)
{
    size_t at = 0;
    for (int side = DAMERO_WHITE; side <= DAMERO_BLACK; side++) {
        if (side == DAMERO_BLACK)
            put_letters(name, size, &at, 'v', 1);
        put_letters(name, size, &at, 'K', __builtin_popcountll(pos->kings[side]));
        put_letters(name, size, &at, 'M', __builtin_popcountll(pos->men[side]));
    }
    if (size > 0)
        name[at] = '\0';
}

void build_command(const damero_tb *tb, const char *dir, const damero_position *pos,
                   char *command, size_t size)
{
    char material[64];
    position_material(pos, material, sizeof material);
    snprintf(command, size, "'damero gen --variant %s --dir %s %s'", damero_variant(tb), dir,
             material);
}

const char *wdl_word(int wdl)
{
    return wdl == DAMERO_WIN ? "win" : wdl == DAMERO_LOSS ? "loss" : "draw";
}

const char *side_word(int side)
{
    return side == DAMERO_WHITE ? "White" : "Black";
}
