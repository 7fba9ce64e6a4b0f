/* An engine with its own functions named as libdamero's internal ones: it must link
 * against the static and the shared library alike (no "multiple definition"), and each
 * side must call its own functions. tests/test_install.sh builds and runs it.
 *
 * Usage: clash_example DIR, where DIR/russian/ holds no table. Exits 0 when every check
 * passed, printing one line per failed check otherwise. */
#include <damero.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "FAIL: %s (line %d)\n", #cond, __LINE__);                 \
            failures++;                                                               \
        }                                                                             \
    } while (0)

/* The engine's own: other signatures and other results than libdamero's functions of
 * these names, so that a call going to the wrong one shows. */
int generate_moves(int depth) { return 1000 + depth; }
int make_move(int move) { return 2000 + move; }
long perft(int depth) { return 3000 + depth; }
int fen_parse(const char *fen) { return (int)strlen(fen); }
int index_of(int square) { return 4000 + square; }
int count_moves(void) { return 5000; }
int has_capture(void) { return 6000; }
int square_name(void) { return 7000; }
int variant_by_name(void) { return 8000; }
int position_validate(void) { return 9000; }
int material_parse(void) { return 10000; }
int table_map_open(void) { return 11000; }
int block_cache_create(void) { return 12000; }
int array_reserve(void) { return 13000; }
int variants;
int geometry_8x8;

int main(int argc, char **argv)
{
    damero_tb *tb = NULL;
    damero_position pos;
    damero_move moves[DAMERO_MAX_MOVES];
    int end = -1, count = -1;

    if (argc != 2) {
        fprintf(stderr, "usage: clash_example DIR\n");
        return 2;
    }
    CHECK(generate_moves(1) == 1001 && make_move(2) == 2002 && perft(3) == 3003);
    CHECK(fen_parse("abc") == 3 && index_of(4) == 4004 && count_moves() == 5000);
    CHECK(has_capture() == 6000 && square_name() == 7000 && variant_by_name() == 8000);
    CHECK(position_validate() == 9000 && material_parse() == 10000);
    CHECK(table_map_open() == 11000 && block_cache_create() == 12000);
    CHECK(array_reserve() == 13000 && variants == 0 && geometry_8x8 == 0);

    /* The library's own move generator, FEN reader and board, through damero_*. */
    if (damero_open("russian", argv[1], 1 << 20, &tb) != DAMERO_OK) {
        fprintf(stderr, "damero_open: %s\n", damero_error_message());
        return 1;
    }
    CHECK(damero_parse_fen(tb, "W:Wc3:Bf8", &pos) == DAMERO_OK);
    CHECK(damero_game_end(tb, &pos, &end, NULL) == DAMERO_OK && end == DAMERO_PLAYING);
    CHECK(damero_parse_fen(tb, "W:Wa1:Bb2,c3", &pos) == DAMERO_OK);
    CHECK(damero_game_end(tb, &pos, &end, NULL) == DAMERO_OK && end == DAMERO_NO_MOVE);
    CHECK(damero_parse_fen(tb, "W:Wc3:Bf8", &pos) == DAMERO_OK);
    CHECK(damero_root_moves(tb, &pos, moves, DAMERO_MAX_MOVES, &count) == DAMERO_ERR_MISSING);
    damero_close(tb);
    return failures == 0 ? 0 : 1;
}
