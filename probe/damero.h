/* damero.h: probing draughts endgame tables.
 *
 * The one public header of libdamero. An engine or a tool opens the tables of one variant
 * (as `damero gen` writes them), then asks what a position is worth and which moves keep
 * that value:
 *
 *     damero_tb *tb;
 *     damero_position pos;
 *     int wdl;
 *     if (damero_open("russian", "tables", 64 << 20, &tb) != DAMERO_OK)
 *         fprintf(stderr, "%s\n", damero_error_message());
 *     damero_parse_fen(tb, "W:WKa1,Kc1,Ke1:BKh8", &pos);
 *     if (damero_probe_wdl(tb, &pos, &wdl) == DAMERO_OK && wdl == DAMERO_WIN) ...
 *
 * Values are for the side to move. DTM (distance to mate) is the number of plies until the
 * game ends under best play, the winner taking the shortest way and the loser the longest.
 * MTC (moves to conversion) is the number of plies until the next capture or man move
 * under best play, that capture or man move included, the winner keeping the win (see
 * "The solver" in docs/how-it-works.md for the details).
 *
 * Positions are bitboards in the variant's own square numbering: bit n-1 stands for
 * square n, numbered as the variant's federation numbers the board (1..32 or 1..50; the
 * algebraic variants count a1, c1, e1, g1, b2, ... h8 as 1..32, and Turkish draughts,
 * played on every square, a1, b1, ..., h1, a2, ... h8 as 1..64).
 *
 * Errors: every function that can fail returns an enum damero_status (DAMERO_OK is 0,
 * failures are negative) and leaves a sentence for damero_error_message(). The library
 * never prints and never aborts.
 *
 * Threads: after damero_open() returns, any number of threads may probe one handle at
 * once. damero_close() must not run while another thread still uses the handle. */
#ifndef DAMERO_H
#define DAMERO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DAMERO_VERSION "0.1.0"

enum damero_status {
    DAMERO_OK = 0,
    DAMERO_ERR_ARGUMENT = -1,  /* a NULL pointer, or too little room for the result */
    DAMERO_ERR_VARIANT = -2,   /* an unknown variant, or a table file of another variant */
    DAMERO_ERR_POSITION = -3,  /* the position or FEN cannot stand on the variant's board */
    DAMERO_ERR_MISSING = -4,   /* no table for the position's material, or for a material
                                  one of its captures leads to */
    DAMERO_ERR_IO = -5,        /* a directory or file cannot be opened or read */
    DAMERO_ERR_FORMAT = -6,    /* a file is not a damero table, or its header is damaged */
    DAMERO_ERR_TRUNCATED = -7, /* a file is shorter (or longer) than its header says */
    DAMERO_ERR_VERSION = -8,   /* a table of a format or index version this library does not read */
    DAMERO_ERR_CORRUPT = -9,   /* a checksum does not match: the file is damaged */
    DAMERO_ERR_MEMORY = -10,   /* out of memory */
    DAMERO_ERR_GAME_OVER = -11 /* the game is over: the side to move has no legal move, or
                                  the variant's rule on lone pieces ended it (for best_move) */
};

enum damero_color { DAMERO_WHITE = 0, DAMERO_BLACK = 1 };

/* Results for the side to move. */
enum damero_wdl { DAMERO_LOSS = -1, DAMERO_DRAW = 0, DAMERO_WIN = 1 };

typedef struct damero_position {
    uint64_t men[2];   /* by enum damero_color: bit n-1 set when a man stands on square n */
    uint64_t kings[2];
    int side_to_move;  /* DAMERO_WHITE or DAMERO_BLACK */
} damero_position;

typedef struct damero_value {
    int wdl;  /* enum damero_wdl */
    int dtm;  /* plies to the end of the game under best play; -1 in a draw */
    int mtc;  /* plies to the next capture or man move under best play, that move
                 included; -1 in a draw */
} damero_value;

#define DAMERO_MOVE_TEXT_SIZE 80
#define DAMERO_MAX_MOVES 512 /* more legal moves than any position has */
#define DAMERO_FEN_SIZE 256

typedef struct damero_move {
    char text[DAMERO_MOVE_TEXT_SIZE]; /* as players write it: "31-27", "c3:e5:c7" */
    int from, to;                     /* square numbers */
    int captures;                     /* pieces taken, 0 for a quiet move */
    damero_position after;            /* the position the move leads to */
    damero_value value;               /* what the move is worth to the side that plays it:
                                         dtm and mtc count from before the move */
} damero_move;

typedef struct damero_tb damero_tb;

/* The message of the last call in this thread that failed: one sentence naming what went
 * wrong ("no table for KKKMvK in tables/russian"). Valid until this thread's next failed
 * call. Thread-safe. */
const char *damero_error_message(void);

/* Opens the tables of a variant: the files dir/<variant>/<material>.{wdl,dtm,mtc} that
 * `damero gen --dir dir` writes. Every table file there is mapped and its header and
 * block directory checked; other files are ignored. Values are read later, a block at a
 * time, and kept in a cache of at most cache_bytes bytes (0 keeps nothing: every probe
 * decompresses).
 *
 * variant:     "international", "brazilian", "russian", "pool", "spanish", "czech",
 *              "italian", "english", "poddavki", "ganapierde" or "turkish".
 * dir:         the tables' root directory, as given to `damero gen --dir`.
 * cache_bytes: the most memory the cached blocks' values may take (the cache's own
 *              bookkeeping adds about 8 bytes per block of every table file, plus
 *              allocator overhead); 16 MB to 256 MB suit an engine.
 * tb:          receives the handle (NULL on failure).
 *
 * Returns DAMERO_OK, or DAMERO_ERR_VARIANT (unknown variant, or a file of another one),
 * DAMERO_ERR_IO (dir is not a directory), DAMERO_ERR_FORMAT, DAMERO_ERR_TRUNCATED,
 * DAMERO_ERR_VERSION, DAMERO_ERR_CORRUPT (naming the bad file), or DAMERO_ERR_MEMORY.
 * When dir exists but holds no <variant> folder, the handle opens with no tables (every
 * probe then reports DAMERO_ERR_MISSING): tables may simply not be built yet. */
int damero_open(const char *variant, const char *dir, size_t cache_bytes, damero_tb **tb);

/* Unmaps the tables and frees the handle. NULL is allowed. */
void damero_close(damero_tb *tb);

/* The variant's name as given to damero_open, and the most pieces of any material that
 * has a WDL table (0 when there is none). Thread-safe. */
const char *damero_variant(const damero_tb *tb);
int damero_max_pieces(const damero_tb *tb);

/* The name of the k-th variant this library knows (k from 0), in a fixed order:
 * "international", "brazilian", ...; NULL when k is past the last. Thread-safe. */
const char *damero_variant_name(int k);

/* ---- The board, as the variant's players see it (for drawing one) ---- */

#define DAMERO_SQUARE_NAME_SIZE 16

typedef struct damero_board {
    int columns, rows; /* 8 or 10 each */
    int squares;       /* playable squares, numbered 1..squares (all 64 in turkish) */
    int algebraic;     /* 1 when the variant names squares a1..h8, 0 when by number */
} damero_board;

/* The shape of the variant's board. Thread-safe. */
void damero_board_shape(const damero_tb *tb, damero_board *board);

/* The number of the square at (column, row) of the board as the variant's players see
 * it, White at the bottom: column 0 at the left, row 0 at the bottom. Variants played on
 * the other colour (spanish, italian) show the board that way round. Returns 0 when no
 * piece can stand there (or column and row are off the board). Thread-safe. */
int damero_square_at(const damero_tb *tb, int column, int row);

/* The name of square number `square` as the variant writes it ("32", "c3") into name.
 * Returns DAMERO_OK, or DAMERO_ERR_POSITION when there is no such square. Thread-safe. */
int damero_square_name(const damero_tb *tb, int square, char name[DAMERO_SQUARE_NAME_SIZE]);

/* Reads a FEN in the variant's notation ("W:W31,32,K45:B1,2,K7" or "B:WKa1:BKh8") into
 * pos, checking that the position can stand on the board. Returns DAMERO_OK or
 * DAMERO_ERR_POSITION. Thread-safe. */
int damero_parse_fen(const damero_tb *tb, const char *fen, damero_position *pos);

/* Writes pos as a FEN into fen. Returns DAMERO_OK or DAMERO_ERR_POSITION. Thread-safe. */
int damero_write_fen(const damero_tb *tb, const damero_position *pos,
                     char fen[DAMERO_FEN_SIZE]);

/* The win, draw or loss of pos for the side to move, from the WDL tables: the fastest
 * probe. Where the side to move must capture, the library plays the captures and probes
 * the positions they lead to, so those tables must be present too. Each capture so
 * resolved takes about 32 KB of the calling thread's stack, at most one per piece.
 *
 * wdl: receives DAMERO_WIN, DAMERO_DRAW or DAMERO_LOSS.
 *
 * Returns DAMERO_OK, DAMERO_ERR_POSITION, DAMERO_ERR_MISSING (no table for the material),
 * DAMERO_ERR_CORRUPT (a damaged block) or DAMERO_ERR_MEMORY. Thread-safe. */
int damero_probe_wdl(damero_tb *tb, const damero_position *pos, int *wdl);

/* The value of pos with its DTM and MTC, from the DTM and MTC tables (not the WDL ones).
 * A position where the side to move has no piece or no move is over: its DTM and MTC
 * are 0. One where the variant's rule on lone pieces ends the game (damero_game_end) is
 * over too, with the rule's result: in Turkish draughts, one piece each, a draw. Returns
 * as damero_probe_wdl; DAMERO_ERR_MISSING also where the tables were built WDL-only
 * (damero gen --metrics wdl), which damero_error_message() then says. Thread-safe. */
int damero_probe(damero_tb *tb, const damero_position *pos, damero_value *value);

/* Every legal move of pos with its value for the side to move, best first: wins by the
 * fewest plies, then draws, then losses by the most plies (ties: the quicker conversion
 * for a win, the slower for a loss, then the move's text).
 *
 * moves:    room for `capacity` moves; DAMERO_MAX_MOVES is always enough.
 * count:    receives the number of legal moves (0 when the game is over).
 *
 * Returns DAMERO_OK; DAMERO_ERR_ARGUMENT when the position has more moves than capacity
 * (*count says how many); or an error of damero_probe for the position a move leads to.
 * Thread-safe. */
int damero_root_moves(damero_tb *tb, const damero_position *pos, damero_move *moves,
                      int capacity, int *count);

/* How a game stands before anyone moves. */
enum damero_end {
    DAMERO_PLAYING = 0,     /* the side to move has a legal move */
    DAMERO_NO_MOVE = 1,     /* it has no piece or no legal move: it has lost (won, in the
                               giveaway variants) */
    DAMERO_LONE_PIECES = 2  /* the variant's rule on lone pieces has ended the game, moves
                               or not: in Turkish draughts one piece each is a draw */
};

/* Whether the game is over at pos, and why. Needs no table.
 *
 * end:   receives an enum damero_end.
 * words: unless NULL, receives the rule in words with DAMERO_LONE_PIECES ("one piece
 *        each: a draw"), NULL otherwise; a constant string.
 *
 * Returns DAMERO_OK, or DAMERO_ERR_POSITION (a position that cannot stand on the board,
 * or one where only the side to move has pieces left). Thread-safe. */
int damero_game_end(const damero_tb *tb, const damero_position *pos, int *end,
                    const char **words);

/* The best move of pos, as the first of damero_root_moves: the shortest win, a drawing
 * move in a draw, the longest loss. Playing it from both sides ends a won game in exactly
 * the DTM plies. Returns as damero_root_moves, or DAMERO_ERR_GAME_OVER when the game is
 * over (damero_game_end). Thread-safe. */
int damero_best_move(damero_tb *tb, const damero_position *pos, damero_move *best);

#ifdef __cplusplus
}
#endif

#endif
