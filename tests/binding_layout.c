/* The layout of damero.h as the compiler lays it out, printed as text for the Python
 * binding's layout test (tests/test_binding_layout.py), which compares it with the
 * ctypes copies in python/damero.py. One line each:
 *
 *   struct NAME SIZE                 every public struct, by its typedef name
 *   field NAME.FIELD OFFSET SIZE     every field of it, in declaration order
 *   constant NAME VALUE              every enumerator and numeric #define
 *
 * The lists below are written by hand; the test also reads damero.h's declarations and
 * fails when this program leaves one out, so a field or value added to the header cannot
 * slip past unseen. */
#include <stddef.h>
#include <stdio.h>

#include "probe/damero.h"

#define STRUCT(type) printf("struct %s %zu\n", #type, sizeof(type))
#define FIELD(type, field) \
    printf("field %s.%s %zu %zu\n", #type, #field, offsetof(type, field), \
           sizeof(((type *)0)->field))
#define CONSTANT(name) printf("constant %s %lld\n", #name, (long long)(name))

static void print_structs(void)
{
    STRUCT(damero_position);
    FIELD(damero_position, men);
    FIELD(damero_position, kings);
    FIELD(damero_position, side_to_move);

    STRUCT(damero_value);
    FIELD(damero_value, wdl);
    FIELD(damero_value, dtm);
    FIELD(damero_value, mtc);

    STRUCT(damero_move);
    FIELD(damero_move, text);
    FIELD(damero_move, from);
    FIELD(damero_move, to);
    FIELD(damero_move, captures);
    FIELD(damero_move, after);
    FIELD(damero_move, value);

    STRUCT(damero_board);
    FIELD(damero_board, columns);
    FIELD(damero_board, rows);
    FIELD(damero_board, squares);
    FIELD(damero_board, algebraic);

    STRUCT(damero_counts);
    FIELD(damero_counts, plies);
    FIELD(damero_counts, strong);

    STRUCT(damero_rule_info);
    FIELD(damero_rule_info, name);
    FIELD(damero_rule_info, words);
    FIELD(damero_rule_info, readings);
    FIELD(damero_rule_info, limit);
    FIELD(damero_rule_info, unit);
    FIELD(damero_rule_info, source);

    STRUCT(damero_rules_value);
    FIELD(damero_rules_value, plain);
    FIELD(damero_rules_value, wdl);
    FIELD(damero_rules_value, plies);
    FIELD(damero_rules_value, rule);
    FIELD(damero_rules_value, tables_beyond);
    FIELD(damero_rules_value, counts);
    FIELD(damero_rules_value, dtz);

    STRUCT(damero_rules_move);
    FIELD(damero_rules_move, move);
    FIELD(damero_rules_move, value);

    STRUCT(damero_layout);
    FIELD(damero_layout, bits);
    FIELD(damero_layout, number);
    FIELD(damero_layout, bit);

    STRUCT(damero_cache_stats);
    FIELD(damero_cache_stats, hits);
    FIELD(damero_cache_stats, misses);
    FIELD(damero_cache_stats, blocks_read);
    FIELD(damero_cache_stats, bytes_read);
    FIELD(damero_cache_stats, bytes_decompressed);
}

static void print_constants(void)
{
    /* enum damero_status */
    CONSTANT(DAMERO_NOT_CACHED);
    CONSTANT(DAMERO_OK);
    CONSTANT(DAMERO_ERR_ARGUMENT);
    CONSTANT(DAMERO_ERR_VARIANT);
    CONSTANT(DAMERO_ERR_POSITION);
    CONSTANT(DAMERO_ERR_MISSING);
    CONSTANT(DAMERO_ERR_IO);
    CONSTANT(DAMERO_ERR_FORMAT);
    CONSTANT(DAMERO_ERR_TRUNCATED);
    CONSTANT(DAMERO_ERR_VERSION);
    CONSTANT(DAMERO_ERR_CORRUPT);
    CONSTANT(DAMERO_ERR_MEMORY);
    CONSTANT(DAMERO_ERR_GAME_OVER);
    CONSTANT(DAMERO_ERR_STOPPED);
    /* enum damero_color, damero_wdl, damero_end, damero_count_side, damero_order */
    CONSTANT(DAMERO_WHITE);
    CONSTANT(DAMERO_BLACK);
    CONSTANT(DAMERO_LOSS);
    CONSTANT(DAMERO_DRAW);
    CONSTANT(DAMERO_WIN);
    CONSTANT(DAMERO_PLAYING);
    CONSTANT(DAMERO_NO_MOVE);
    CONSTANT(DAMERO_LONE_PIECES);
    CONSTANT(DAMERO_STRONG_UNSAID);
    CONSTANT(DAMERO_STRONG_WHITE);
    CONSTANT(DAMERO_STRONG_BLACK);
    CONSTANT(DAMERO_ORDER_NUMBERS);
    CONSTANT(DAMERO_ORDER_BOTTOM_LEFT);
    CONSTANT(DAMERO_ORDER_TOP_LEFT);
    /* the numeric #defines */
    CONSTANT(DAMERO_VERSION_MAJOR);
    CONSTANT(DAMERO_VERSION_MINOR);
    CONSTANT(DAMERO_VERSION_PATCH);
    CONSTANT(DAMERO_MOVE_TEXT_SIZE);
    CONSTANT(DAMERO_MAX_MOVES);
    CONSTANT(DAMERO_FEN_SIZE);
    CONSTANT(DAMERO_MAX_CACHE_BYTES);
    CONSTANT(DAMERO_SQUARE_NAME_SIZE);
    CONSTANT(DAMERO_MAX_RULES);
    CONSTANT(DAMERO_COUNT_NOT_STARTED);
    CONSTANT(DAMERO_DTZ_UNKNOWN);
    CONSTANT(DAMERO_NOT_BUILT);
}

int main(void)
{
    print_structs();
    print_constants();
    return 0;
}
