#include "cli/probing.h"

#include <stdio.h>

#include "cli/api_json.h"
#include "cli/options.h"

struct table_args table_args_default(void)
{
    return (struct table_args){ .dir = default_table_dir(), .cache_bytes = (size_t)DEFAULT_CACHE_MB << 20 };
}

int table_option(const char *cmd, const char *help, int opt, char *const *argv,
                 struct table_args *a)
{
    switch (opt) {
    case 'v':
        /* checked here rather than left to damero_open, which also refuses a table file
         * of another variant: an unknown name is a usage error, with the list of names */
        if (!(a->variant = parse_variant_name(cmd, optarg)))
            return EXIT_USAGE;
        return EXIT_OK;
    case 'd': return (a->dir = parse_path(cmd, "--dir", optarg)) ? EXIT_OK : EXIT_USAGE;
    case 'j': a->json = true; return EXIT_OK;
    case 'c': return parse_cache(cmd, optarg, &a->cache_bytes) < 0 ? EXIT_USAGE : EXIT_OK;
    case 'h': fputs(help, stdout); return -1;
    default: return option_error(cmd, opt, argv);
    }
}

int table_operands(const char *cmd, int argc, char *const *argv, struct table_args *a)
{
    if (!a->variant)
        return usage_error(cmd, "--variant is required");
    if (optind >= argc)
        return usage_error(cmd, "give the position as a FEN");
    if (optind < argc - 1)
        return usage_error(cmd, "unexpected argument '%s' (quote a FEN that holds spaces)",
                           argv[optind + 1]);
    a->fen = argv[optind];
    return EXIT_OK;
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

const char *wdl_word(int wdl)
{
    return wdl == DAMERO_WIN ? "win" : wdl == DAMERO_LOSS ? "loss" : "draw";
}

const char *side_word(int side)
{
    return side == DAMERO_WHITE ? "White" : "Black";
}
