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
 * never prints and never aborts. (DAMERO_NOT_CACHED, positive, is no failure: the
 * probe from the cache alone saying it did not answer.)
 *
 * Threads: after damero_open() returns, any number of threads may probe one handle at
 * once (table files are opened on first use, under a lock of their own). damero_close() must not run while another thread still uses the handle.
 *
 * What each call is for, as its comment's "Use:" says: during search, damero_probe_wdl,
 * damero_probe_wdl_many and damero_probe_wdl_cached (damero_probe too where the distance
 * is wanted); at the
 * root, damero_root_moves, damero_best_move and the calls under the move-limit rules;
 * the others at start-up and shutdown, or by tools (a board on screen, a game viewer,
 * damero check). */
#ifndef DAMERO_H
#define DAMERO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header: the one place the project's version number is written
 * (CMakeLists.txt reads it from here). From 1.0, MAJOR is raised when a change breaks
 * programs built against an older header, MINOR when functions are added, PATCH for
 * fixes, and the shared library's soname is libdamero.so.MAJOR. While MAJOR is 0 a new
 * MINOR may break programs (semantic versioning), so the soname is libdamero.so.0.MINOR:
 * a program built against 0.2 does not load 0.3. damero_version() says which library a
 * program actually runs with. */
#define DAMERO_VERSION_MAJOR 0
#define DAMERO_VERSION_MINOR 3
#define DAMERO_VERSION_PATCH 0
#define DAMERO_STRINGIFY_(x) #x
#define DAMERO_STRINGIFY(x) DAMERO_STRINGIFY_(x)
#define DAMERO_VERSION                                                                  \
    DAMERO_STRINGIFY(DAMERO_VERSION_MAJOR) "." DAMERO_STRINGIFY(DAMERO_VERSION_MINOR) "." \
        DAMERO_STRINGIFY(DAMERO_VERSION_PATCH)

enum damero_status {
    DAMERO_NOT_CACHED = 1,     /* not a failure: damero_probe_wdl_cached could not answer
                                  from the cache, and left no message */
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
    DAMERO_ERR_GAME_OVER = -11, /* the game is over: the side to move has no legal move, or
                                  the variant's rule on lone pieces ended it (for best_move) */
    DAMERO_ERR_STOPPED = -12   /* the thread's stop function (damero_set_stop) stopped a
                                  search under the rules before it ended */
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
    int dtm;  /* plies to the end of the game under best play; -1 in a draw;
                 DAMERO_NOT_BUILT where the tables hold no DTM for it */
    int mtc;  /* plies to the next capture or man move under best play, that move
                 included; -1 in a draw; DAMERO_NOT_BUILT where the tables hold no MTC
                 for it */
} damero_value;

/* damero_value.dtm or .mtc where the tables were built without that metric (damero gen
 * --metrics wdl builds WDL alone; a set may also hold WDL and MTC without DTM): the
 * value's wdl is still exact, from the WDL table. A set without DTM lets an engine
 * probe WDL, and MTC where it is there, through the same calls. */
#define DAMERO_NOT_BUILT (-2)

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

/* The version of the library running, "MAJOR.MINOR.PATCH" (DAMERO_VERSION as the library
 * was built): a program built against another header can compare. Thread-safe.
 * Use: at start-up. */
const char *damero_version(void);

/* The message of the last call in this thread that failed: one sentence naming what went
 * wrong and, where it can, how to fix it ("no .wdl table for KKKMvK in tables/russian:
 * build it with 'damero gen --variant russian --dir tables KKKMvK'"). Valid until this
 * thread's next failed call. Thread-safe. Use: after any call that failed. */
const char *damero_error_message(void);

/* Opens the tables of a variant: the files dir/<variant>/<material>.{wdl,dtm,mtc} that
 * `damero gen --dir dir` writes. Opening only lists which tables there are: it reads no
 * table file and starts no thread. Each file is opened and its header and block directory
 * checked when a probe first needs it (once, whichever thread asks first); a damaged,
 * truncated or foreign file then fails the probes that need it, with its own status and
 * message, and every other table keeps working. damero_check() checks every file at once.
 * Values are read a block at a time and kept in a cache of at most cache_bytes bytes (0
 * keeps nothing: every probe decompresses).
 *
 * variant:     "international", "brazilian", "russian", "pool", "spanish", "czech",
 *              "italian", "english", "poddavki", "ganapierde" or "turkish".
 * dir:         the tables' root directory, as given to `damero gen --dir`.
 * cache_bytes: the most memory the cached blocks' values may take (the cache's own
 *              bookkeeping adds about 8 bytes per block of every table file used, plus
 *              allocator overhead); 16 MB to 256 MB suit an engine. The memory is taken
 *              as blocks are read, not at open. At most DAMERO_MAX_CACHE_BYTES.
 * tb:          receives the handle (NULL on failure).
 *
 * Returns DAMERO_OK, or DAMERO_ERR_ARGUMENT (cache_bytes above DAMERO_MAX_CACHE_BYTES),
 * DAMERO_ERR_VARIANT (unknown variant), DAMERO_ERR_IO (dir is not a directory, or its
 * <variant> folder cannot be read), or DAMERO_ERR_MEMORY. When dir exists but holds no
 * <variant> folder, the handle opens with no tables (every probe then reports
 * DAMERO_ERR_MISSING): tables may simply not be built yet.
 *
 * Use: at start-up, once per variant and folder; never during search (a handle costs
 * a listing of the folder, and probes share one). */
int damero_open(const char *variant, const char *dir, size_t cache_bytes, damero_tb **tb);

/* The largest cache_bytes damero_open() takes: 1 TiB. */
#define DAMERO_MAX_CACHE_BYTES ((size_t)1 << 40)

/* Called by damero_check() for each table file with a problem: its name in the variant's
 * folder ("KKvK.dtm"), a damero status and the sentence damero_error_message() would give. */
typedef void (*damero_problem_fn)(void *context, const char *file, int status,
                                  const char *message);

/* Checks every table file of the handle now, rather than on first use: its header, block
 * directory and identity as a probe would, then every block's checksum (this reads the
 * whole file: seconds for large tables). A file found bad fails later probes that need it,
 * as if a probe had found it.
 *
 * report:  unless NULL, called once per bad file, in the calling thread.
 * context: passed to report as is.
 * files:   unless NULL, receives the number of table files checked.
 *
 * Returns DAMERO_OK when every file is sound; otherwise the status of the first bad file
 * (DAMERO_ERR_IO, _FORMAT, _TRUNCATED, _VERSION, _CORRUPT or _VARIANT) with its message,
 * or DAMERO_ERR_MEMORY (the check stopped). Thread-safe: other threads may probe meanwhile.
 * Use: by tools (damero check), or at start-up where reading every file is affordable;
 * never during search. */
int damero_check(damero_tb *tb, damero_problem_fn report, void *context, int *files);

/* Forgets every table file of the handle that failed to open (damaged, truncated, of
 * another variant, not a regular file, unreadable), so that the next probe that needs
 * one opens and checks it again, as on first use. Without this call, a failed file is
 * opened again anyway by the next probe that needs it once the file has changed (a
 * stat() of it, at every such probe, finds another inode, size, modification or change
 * time), as when `damero gen` has rebuilt it; this call covers what stat cannot see.
 * Files that opened stay open: a file damaged inside a block that is replaced under the
 * prober is still read from the file it opened (see damero_open), until the tables are
 * opened again.
 *
 * Returns the number of files forgotten (0 also for a NULL handle). Thread-safe: other
 * threads may probe meanwhile. Use: when tables have been rebuilt or repaired under a
 * running prober (damero serve calls it on SIGHUP); never during search. */
int damero_forget_failures(damero_tb *tb);

/* Closes the table files and frees the handle. NULL is allowed. Use: at shutdown, once
 * no thread probes the handle. */
void damero_close(damero_tb *tb);

/* The variant's name as given to damero_open, and the most pieces of any material that
 * has a WDL table (0 when there is none). Thread-safe. Use: anywhere, during search
 * too: damero_max_pieces is a field read, for an engine to skip positions with more
 * pieces before it probes. */
const char *damero_variant(const damero_tb *tb);
int damero_max_pieces(const damero_tb *tb);

/* The name of the k-th variant this library knows (k from 0), in a fixed order:
 * "international", "brazilian", ...; NULL when k is past the last. Thread-safe.
 * Use: by tools (listing the variants). */
const char *damero_variant_name(int k);

/* ---- The board, as the variant's players see it (for drawing one) ----
 *
 * Use: by tools (a board on screen, a FEN read or written); the FEN calls at the root
 * too, never during search (they read and write text). */

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

/* ---- An engine's own board layout (for search: no FEN text) ----
 *
 * An engine keeps its board as bitboards in an order of its own. A layout maps that
 * order to damero_position's (bit n-1 for square n of the variant's numbering), so that
 * an engine converts its board with a few instructions per piece, and damero's
 * positions back, without writing or reading a FEN. The orders, by the bit of the
 * engine's board (0-based), the board as White sees it (White at the bottom, as
 * damero_square_at draws it), counting the squares played on only (all 64 in turkish):
 *
 *   DAMERO_ORDER_NUMBERS     bit k is square k+1 of the variant's own numbering:
 *                            damero_position's order itself.
 *   DAMERO_ORDER_BOTTOM_LEFT bit 0 is the lowest rank's leftmost square played on (a1
 *                            on the usual boards, b1 on the mirrored spanish and italian
 *                            ones), then along that rank to the right, then the next rank
 *                            up: on 8x8 a1 c1 e1 g1 b2 ... h8 = 0..31, on 10x10 a1 c1 ...
 *                            i1 b2 ... j10 = 0..49, turkish a1 b1 ... h8 = 0..63. The
 *                            usual order of 8x8 engines of the russian family.
 *   DAMERO_ORDER_TOP_LEFT    bit 0 is the top rank's leftmost square played on, then
 *                            along that rank to the right, then the next rank down: on
 *                            8x8 b8 d8 f8 h8 a7 ... g1 = 0..31, on 10x10 b10 d10 ... j10
 *                            a9 ... i1 = 0..49. The international and english numbers
 *                            less one, the order of engines that index by them.
 *
 * Another order (one with ghost squares between the ranks, say) is a layout too: fill
 * `number` from damero_square_at and `bit` as its inverse. */
enum damero_order {
    DAMERO_ORDER_NUMBERS = 0,
    DAMERO_ORDER_BOTTOM_LEFT = 1,
    DAMERO_ORDER_TOP_LEFT = 2
};

typedef struct damero_layout {
    int bits;              /* the engine's bits the board uses: 0..bits-1 */
    uint8_t number[64];    /* engine bit k -> the variant's square number (0: none) */
    uint8_t bit[65];       /* square number n (1..64) -> the engine's bit (bit[0] unused) */
} damero_layout;

/* Fills layout with the variant's squares in `order` (enum damero_order). Returns
 * DAMERO_OK, or DAMERO_ERR_ARGUMENT (a NULL argument, an unknown order). Thread-safe.
 * Use: at start-up, once; the conversions below then take the layout. */
int damero_layout_make(const damero_tb *tb, int order, damero_layout *layout);

/* A board in the engine's layout as damero_position: men[c] and kings[c] are the
 * engine's bitboards of color c (enum damero_color), side_to_move DAMERO_WHITE or
 * DAMERO_BLACK. Costs a few instructions per piece; checks only that every bit set is
 * a square of the layout (the probes check the rest, as for any position).
 * Returns DAMERO_OK, DAMERO_ERR_ARGUMENT (a NULL pointer) or DAMERO_ERR_POSITION (a bit
 * that is no square, or a side to move that is neither color). Thread-safe.
 * Use: during search, before each probe. */
int damero_position_from_layout(const damero_layout *layout, const uint64_t men[2],
                                const uint64_t kings[2], int side_to_move,
                                damero_position *pos);

/* The inverse: pos (a position damero gave, such as a move's `after`) as the engine's
 * bitboards. Returns DAMERO_OK, DAMERO_ERR_ARGUMENT (a NULL pointer) or
 * DAMERO_ERR_POSITION (a square the layout does not have). Thread-safe. Use: at the
 * root (the positions of damero_root_moves), or anywhere. */
int damero_position_to_layout(const damero_layout *layout, const damero_position *pos,
                              uint64_t men[2], uint64_t kings[2], int *side_to_move);

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
 * DAMERO_ERR_CORRUPT (a damaged block, or one holding a value beyond its metric's range),
 * DAMERO_ERR_TRUNCATED or DAMERO_ERR_IO (a file cut short or unreadable since it was
 * opened: reopen the tables), DAMERO_ERR_MEMORY, or, when a table file needed is opened
 * and found bad, DAMERO_ERR_IO, _FORMAT, _TRUNCATED, _VERSION or _VARIANT (the same for
 * every later probe that needs that file). Thread-safe.
 *
 * Use: during search, the call meant for it: one value read, from the cache once warm. */
int damero_probe_wdl(damero_tb *tb, const damero_position *pos, int *wdl);

/* damero_probe_wdl() of n positions at once, for an engine that has several to probe
 * (the children of a node): the library fetches the memory their values stand in
 * together rather than one after the other, which saves most of a warm probe's time
 * waiting for memory (bench/JOURNAL.md, issue 14, has the figures).
 *
 * positions: n positions. wdl: receives n values, as damero_probe_wdl() gives them; that
 * of a position that could not be probed is left as it was. statuses: NULL, or receives
 * n statuses, each what damero_probe_wdl() returns for the position.
 *
 * Returns DAMERO_OK when every position was probed; otherwise the status of the first
 * that was not (damero_error_message() tells why), the others being probed still, or
 * DAMERO_ERR_ARGUMENT (tb, positions or wdl NULL). Thread-safe. Use: during search. */
int damero_probe_wdl_many(damero_tb *tb, const damero_position *positions, size_t n, int *wdl,
                          int *statuses);

/* damero_probe_wdl() from the block cache alone: the value when it is in memory, else
 * DAMERO_NOT_CACHED at once. It never opens, reads or decompresses a table file, so it
 * never waits on the disk: the probe for the depths of a search where a value is only
 * worth having if it comes for free (other engines call it a conditional probe). The
 * values not answered can be probed with damero_probe_wdl where waiting is affordable
 * (nearer the root), which also caches their blocks for the next time.
 *
 * wdl: receives DAMERO_WIN, DAMERO_DRAW or DAMERO_LOSS when the status is DAMERO_OK;
 *      left as it was otherwise.
 *
 * Returns DAMERO_OK; DAMERO_NOT_CACHED (no failure, and no message for
 * damero_error_message) when the value's block is not in the cache, when its table file
 * has not been opened by a probe yet, or when the handle has no cache (damero_open with
 * cache_bytes 0); or, without reading anything, the failures of damero_probe_wdl that
 * need no read: DAMERO_ERR_POSITION, DAMERO_ERR_MISSING (no table for the material), or
 * the status of a table file already found bad. A position where the side to move must
 * capture is answered from its captures' values, when all of those it needs are cached
 * (DAMERO_NOT_CACHED otherwise); one whose game is over, at once. Counted in
 * damero_cache_stats: a hit when answered from the cache, a miss when not.
 * Thread-safe. Use: during search, the call that never waits. */
int damero_probe_wdl_cached(damero_tb *tb, const damero_position *pos, int *wdl);

/* What the handle's block cache has done since damero_open or the last
 * damero_reset_cache_stats: how often a value was found in it, and what the probes read
 * from the table files. */
typedef struct damero_cache_stats {
    uint64_t hits;               /* values found in the cache */
    uint64_t misses;             /* values not found there: their block was then read
                                    (damero_probe_wdl_cached: left unanswered) */
    uint64_t blocks_read;        /* blocks read from table files and decompressed by the
                                    probes (damero_check's reading is not counted) */
    uint64_t bytes_read;         /* the bytes of those blocks in the files (compressed) */
    uint64_t bytes_decompressed; /* their bytes once decompressed */
} damero_cache_stats;

/* Reads the handle's statistics into stats. Every probe of any thread counts, with
 * atomic adds; read while other threads probe, the fields are each exact but may be a
 * few counts apart from each other. Returns DAMERO_OK, or DAMERO_ERR_ARGUMENT for a NULL
 * argument. Thread-safe. Use: anywhere, between searches or by tools (it sums a few
 * dozen counters: cheap, but not free). */
int damero_read_cache_stats(const damero_tb *tb, damero_cache_stats *stats);

/* Sets the handle's statistics back to zero (the cache itself keeps its blocks). Probes
 * running meanwhile in other threads may count just before or after the reset. Returns
 * DAMERO_OK, or DAMERO_ERR_ARGUMENT for a NULL handle. Thread-safe. Use: between
 * searches, before measuring. */
int damero_reset_cache_stats(damero_tb *tb);

/* The value of pos with its DTM and MTC, from the DTM and MTC tables (not the WDL ones).
 * A position where the side to move has no piece or no move is over: its DTM and MTC
 * are 0. One where the variant's rule on lone pieces ends the game (damero_game_end) is
 * over too, with the rule's result: in Turkish draughts, one piece each, a draw.
 *
 * Where the material's tables were built without DTM (damero gen --metrics wdl, or a
 * set of WDL and MTC), the wdl comes from the WDL table, as damero_probe_wdl gives it,
 * value->dtm is DAMERO_NOT_BUILT, and value->mtc is the MTC table's (or DAMERO_NOT_BUILT
 * too where there is none): what is there, and what is not, marked.
 *
 * Returns as damero_probe_wdl (DAMERO_ERR_MISSING where the material has neither a DTM
 * nor a WDL table). Thread-safe. Use: at the root, or during search where the distance is
 * wanted (two values read where damero_probe_wdl reads one). */
int damero_probe(damero_tb *tb, const damero_position *pos, damero_value *value);

/* Every legal move of pos with its value for the side to move, best first: wins by the
 * fewest plies, then draws, then losses by the most plies (ties: the quicker conversion
 * for a win, the slower for a loss, then the move's text). Where a move's DTM is
 * DAMERO_NOT_BUILT (damero_probe: tables built without DTM), the moves are ranked by
 * their wdl, then by MTC (a win by the quicker conversion, a loss by the slower), then by
 * text; where an MTC is DAMERO_NOT_BUILT too, by wdl, then text. A capture or man move
 * is itself the conversion: its MTC is 1 ply in a win or loss whatever tables there are.
 *
 * moves:    room for `capacity` moves; DAMERO_MAX_MOVES is always enough.
 * count:    receives the number of legal moves (0 when the game is over).
 *
 * Returns DAMERO_OK; DAMERO_ERR_ARGUMENT when the position has more moves than capacity
 * (*count says how many); or an error of damero_probe for the position a move leads to.
 * Thread-safe. Use: at the root (one damero_probe per move). */
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
 * or one where only the side to move has pieces left). Thread-safe. Use: at the root and
 * by tools. */
int damero_game_end(const damero_tb *tb, const damero_position *pos, int *end,
                    const char **words);

/* The best move of pos, as the first of damero_root_moves: the shortest win, a drawing
 * move in a draw, the longest loss. Playing it from both sides ends a won game in exactly
 * the DTM plies. Where the tables hold no DTM, the quickest conversion that keeps the win
 * (the slowest in a loss), by MTC: playing it from both sides converts in exactly the
 * MTC plies, and so, conversion after conversion, wins, though not in the fewest plies.
 * Returns as damero_root_moves, DAMERO_ERR_GAME_OVER when the game is over
 * (damero_game_end), or DAMERO_ERR_MISSING where the tables of pos's material hold
 * neither DTM nor MTC (built WDL-only): a winning move alone may go round in circles,
 * so there is no best one; the message says how to build what it needs. Thread-safe.
 * Use: at the root. */
int damero_best_move(damero_tb *tb, const damero_position *pos, damero_move *best);

/* ---- A game, before it reaches the tables (for a game viewer or a PDN reader) ---- */

/* The position a game of the variant starts from, with the side its rules let move first
 * (Black in pool and english checkers). Needs no table.
 * Returns DAMERO_OK, or DAMERO_ERR_ARGUMENT for a NULL argument. Thread-safe.
 * Use: by tools (a game viewer, a PDN reader). */
int damero_start_position(const damero_tb *tb, damero_position *pos);

/* Every legal move of pos, in no particular order, without reading a table: each with its
 * text, squares, captures and the position it leads to; its value is not known here and
 * is left as { DAMERO_DRAW, -1, -1 } (damero_root_moves gives it). None when the game is
 * over (damero_game_end), as with damero_root_moves.
 *
 * moves:    room for `capacity` moves; DAMERO_MAX_MOVES is always enough.
 * count:    receives the number of legal moves.
 *
 * Returns DAMERO_OK; DAMERO_ERR_ARGUMENT when the position has more moves than capacity
 * (*count says how many); DAMERO_ERR_POSITION; or DAMERO_ERR_MEMORY. Thread-safe.
 * Use: by tools (a game viewer, a PDN reader); an engine has its own move generator. */
int damero_legal_moves(const damero_tb *tb, const damero_position *pos, damero_move *moves,
                       int capacity, int *count);

/* ---- Values under the move-limit rules ----
 *
 * Many variants draw an ending when the strong side has not won, or nobody has made
 * progress, within a number of moves: the forzosa, three kings against one, "15 moves
 * with kings only", ... (docs/rules.md, section 5). The tables above answer as if no such
 * rule existed. The calls below answer under the rules: the state of a game is its
 * position plus, for each rule of the variant, how far the rule's count has run, and the
 * game is drawn the moment a count runs out (docs/rules.md, 5.10, defines each count).
 *
 * A win that the rules make a draw (plain.wdl DAMERO_WIN, wdl DAMERO_DRAW) is a "cursed
 * win"; a loss they make a draw a "blessed loss".
 *
 * Where a rule's sources read its limit differently, `reading` chooses: 1 takes every
 * rule's first reading, 2 the second of the rules that have two (the others keep their
 * only one); reading r's limit is damero_rule_info.limit[r - 1]. damero_rule() names the
 * readings. Readings are numbered 1 and 2 since 0.3.0 (0.2 took 0 and 1): a reading of 0
 * is refused with DAMERO_ERR_ARGUMENT. */

#define DAMERO_MAX_RULES 8          /* more rules than any variant has */
#define DAMERO_COUNT_NOT_STARTED (-1)

/* The side a running "win within" count is for (damero_counts.strong). */
enum damero_count_side {
    DAMERO_STRONG_UNSAID = 0,   /* the side with more pieces at pos */
    DAMERO_STRONG_WHITE = 1,
    DAMERO_STRONG_BLACK = 2
};

/* The counts of a game, filled by the engine from its game's history (or by
 * damero_counts_start and damero_counts_after), one per rule of the variant in the order
 * of damero_rule():
 *
 * plies[k]: the plies (single moves, either side) played since rule k's count started
 *           in the game, or DAMERO_COUNT_NOT_STARTED. A rule starts counting when its
 *           ending arises (a "win within N" rule) or at its last reset (a no-progress
 *           rule: the last capture, man move or promotion, as the rule says); a rule with
 *           a precondition (the forzosa: a strong king on the main diagonal) starts when
 *           the precondition is first met in the ending. "Not started" means the count
 *           has not started before pos: it then starts at pos if pos starts it (its
 *           ending and precondition hold), so that counts of all DAMERO_COUNT_NOT_STARTED
 *           read "the ending arises here". A count given for a rule that does not cover
 *           pos is ignored. Entries past the variant's rules are ignored.
 * strong[k]: for a running count of a "win within" rule (the forzosa, three kings
 *           against one, ...), the side it is for: the side that had more pieces when it
 *           started (enum damero_count_side). The limit in plies depends on it (a count in
 *           moves allows one ply more when that side did not move first), and captures
 *           on the way can leave as many pieces each (one king against one), where pos no
 *           longer tells. DAMERO_STRONG_UNSAID (0, what a zeroed struct holds) takes the
 *           side with more pieces at pos, and is an error (DAMERO_ERR_ARGUMENT) where
 *           both sides have as many. Ignored for other counts. The library's calls fill
 *           it for every running "win within" count and leave it DAMERO_STRONG_UNSAID
 *           for the others, so counts passed from call to call carry it. */
typedef struct damero_counts {
    int plies[DAMERO_MAX_RULES];
    int strong[DAMERO_MAX_RULES];
} damero_counts;

typedef struct damero_rule_info {
    const char *name;         /* short: "forzosa", "main road" */
    const char *words;        /* the rule in a sentence */
    int readings;             /* 1 or 2 */
    int limit[2];             /* each reading's limit, in its unit: reading r's limit[r - 1] */
    const char *unit[2];      /* "moves of the strong side", "moves each" or "plies" */
    const char *source[2];    /* who reads it so */
} damero_rule_info;

/* The number of move-limit rules of the handle's variant (0 to DAMERO_MAX_RULES).
 * Use: at start-up and by tools. */
int damero_rule_count(const damero_tb *tb);

/* Describes rule k (0 <= k < damero_rule_count). The strings are constants. Returns
 * DAMERO_OK, or DAMERO_ERR_ARGUMENT when there is no rule k. Thread-safe. Use: at
 * start-up and by tools. */
int damero_rule(const damero_tb *tb, int k, damero_rule_info *info);

/* The counts at pos when every ending there has just arisen: 0 for each rule that covers
 * pos (and whose precondition pos meets), DAMERO_COUNT_NOT_STARTED for the others.
 * Returns DAMERO_OK, DAMERO_ERR_ARGUMENT or DAMERO_ERR_POSITION. Thread-safe. Use: at
 * the root, as the game is played (it reads no table). */
int damero_counts_start(const damero_tb *tb, const damero_position *pos,
                        damero_counts *counts);

/* The counts after `move` (one of pos's moves, as damero_root_moves gives them) is played
 * from pos with counts: each count runs on by one ply, is reset, ends (its ending left)
 * or starts. Returns DAMERO_OK, DAMERO_ERR_ARGUMENT or DAMERO_ERR_POSITION. Thread-safe.
 * Use: at the root, after each move of the game (it reads no table). */
int damero_counts_after(const damero_tb *tb, const damero_position *pos,
                        const damero_counts *counts, const damero_move *move,
                        damero_counts *after);

/* Which count has run out at pos, drawing the game: the index of the first such rule
 * (for damero_rule), or -1 when none has (a game that has ended otherwise is not asked
 * about here). counts as damero_probe_rules takes them; reading 1 or 2. Returns
 * DAMERO_OK with *rule set, DAMERO_ERR_ARGUMENT or DAMERO_ERR_POSITION. Thread-safe.
 * Use: at the root, as the game is played (it reads no table). */
int damero_counts_run_out(const damero_tb *tb, const damero_position *pos,
                          const damero_counts *counts, int reading, int *rule);

typedef struct damero_rules_value {
    damero_value plain;  /* the value without the rules, as damero_probe gives it */
    int wdl;             /* enum damero_wdl under the rules, for the side to move */
    int plies;           /* under the rules: the plies to the end of the game, the winner
                            taking the fewest that stay within every count, the loser the
                            most; -1 in a draw. Playing a move whose value keeps wdl and
                            lowers plies by one stays within the rules. */
    int rule;            /* in a cursed win or a blessed loss, the running count with the
                            fewest plies left (index for damero_rule); otherwise -1 */
    int tables_beyond;   /* 1 when the search met a won or lost position in which no count
                            runs and took the tables' value there: a count that would start
                            later on that line (a rule's ending reached by a capture or
                            promotion) is not followed. 0: the value is exact. Never 1
                            where the rule tables (damero gen --rules) are there. */
    damero_counts counts; /* the counts of pos as the value takes them: the given ones,
                            those that start at pos started (0), those of rules not in
                            force DAMERO_COUNT_NOT_STARTED */
    int dtz;             /* under the rules, the distance to zeroing: the plies to the end
                            of the game or to the next zeroing move that keeps the value
                            under the rules, the winner taking the fewest, the loser the
                            most; -1 in a draw, DAMERO_DTZ_UNKNOWN rarely, where the
                            call cannot know it (see below). A zeroing move is one after which
                            a count has started or been reset (it is at 0), or a count that
                            ran no longer does: the analogue of a capture or pawn move under
                            chess's 50-move rule. dtz <= plies. Playing a move whose value
                            keeps wdl and whose dtz is one less (or that zeroes) stays within
                            the rules, as plies does; dtz says how soon the counts change. */
} damero_rules_value;

/* damero_rules_value.dtz where the call does not know it. Where the value came without
 * it (a rule table whose distance table does not hold the state's, or a search that
 * stopped at the first move as good as the rest might be), the call searches for the
 * distance below the moves (bounded by the fresh distances and the plies, at most 4096
 * new states); it is left unknown where that bound runs out or the search meets a value
 * taken beyond the tables (tables_beyond). Over random russian 4- and 5-piece positions
 * with the rule tables and their counts started 0 to 19 plies earlier: 6 of 9 881 won or
 * lost. A distance given is exact. */
#define DAMERO_DTZ_UNKNOWN (-2)

/* The value of pos under the variant's move-limit rules, given the counts (NULL: as
 * damero_counts_start gives them) and the reading (1 or 2, see above).
 *
 * Cost: a draw without the rules, or a win or loss that a count's remaining plies cannot
 * hold (by DTM, or by MTC for a count reset by captures and man moves), is answered from
 * the tables at about the cost of damero_probe. Where the rule tables of the reading are
 * there (MATERIAL.ru0, .ru1: damero gen --rules), one more lookup (in the same block
 * cache; none where the rule table's block holds the very values of the DTM block, as
 * most do, which the library learns the first time it reads the block), and for a win
 * or loss one more for the distance to zeroing (MATERIAL.rz0, .rz1), answers every
 * other state but a win (or loss) whose no-progress count, already running when pos was
 * reached, has fewer plies left than the win needs; there the call searches, no deeper
 * than that count has plies left. Without rule tables the call searches the game tree
 * under the counts, with a transposition table, probing the DTM and MTC tables at every
 * node: from about a thousand probes for a fresh 5-move count to a few hundred thousand
 * for a long count in a large ending; the search takes memory (about 100 bytes per
 * state) and returns DAMERO_ERR_MEMORY beyond 4 million states. Where the distance to
 * zeroing is not known from the tables or the search, the call searches for it (at most
 * 4096 states; see DAMERO_DTZ_UNKNOWN): over random russian positions with the rule
 * tables and running counts, that added 5% to the mean cost of a call at 4 pieces, 1%
 * at 5.
 *
 * Returns DAMERO_OK, DAMERO_ERR_ARGUMENT (a NULL pointer, a reading other than 1 or 2),
 * DAMERO_ERR_STOPPED (the thread's stop function stopped the search: damero_set_stop),
 * or an error of damero_probe; DAMERO_ERR_MISSING also where the tables hold no DTM or no
 * MTC (the rules' counts are weighed against both), which the message names. Thread-safe.
 *
 * Use: at the root and by tools; not during search, where a call may search itself (see
 * Cost). */
int damero_probe_rules(damero_tb *tb, const damero_position *pos,
                       const damero_counts *counts, int reading, damero_rules_value *value);

/* A function that a search under the rules asks, now and then, whether to give up:
 * nonzero stops it. context: as given to damero_set_stop. It runs in the thread that made
 * the call, in the middle of the search: it must be quick (a clock read, a poll) and must
 * not call the library on the same handle. */
typedef int (*damero_stop_fn)(void *context);

/* Sets the calling thread's stop function: from now on, every call under the rules this
 * thread makes (damero_probe_rules, damero_root_moves_rules) asks it every 1024 states it
 * searches (about a millisecond), and where it returns nonzero gives up at once,
 * returning DAMERO_ERR_STOPPED; the answer is then not known, and nothing is kept of the
 * search. Calls that do not search (a rule table answers) never ask it. NULL removes it.
 * Each thread has its own; it stays set until changed, for every handle. A call that was
 * not stopped answers exactly as without a stop function.
 *
 * stop:    the function, or NULL.
 * context: passed to stop as is.
 *
 * Thread-safe (it touches only the calling thread's setting). Use: by servers and
 * graphical tools that bound how long a call may take, or drop it when nobody waits for
 * the answer any more (damero serve stops a search when its time is spent or its client
 * has gone); at the root, never during search. */
void damero_set_stop(damero_stop_fn stop, void *context);

typedef struct damero_rules_move {
    damero_move move;            /* the move and its value without the rules */
    damero_rules_value value;    /* what it is worth under the rules to the side that plays
                                    it: plies count from before the move; value.counts are
                                    the counts after it, for the next call */
} damero_rules_move;

/* Every legal move of pos scored under the rules, best first: wins under the rules by
 * the fewest plies, then draws (a win that the rules make a draw before a plain draw,
 * before a blessed loss), then losses by the most plies; ties as damero_root_moves.
 * counts and reading as damero_probe_rules; moves has room for capacity moves. Where a
 * count has already run out at pos (damero_counts_run_out), the game is drawn there and
 * every move scores a draw (its rule that count where the move's plain value is not a
 * draw), as damero_probe_rules says of pos.
 * Returns as damero_root_moves and damero_probe_rules. Costs about one damero_probe_rules
 * per move (the moves' searches share one transposition table). Thread-safe. Use: at the
 * root. */
int damero_root_moves_rules(damero_tb *tb, const damero_position *pos,
                            const damero_counts *counts, int reading,
                            damero_rules_move *moves, int capacity, int *count);

#ifdef __cplusplus
}
#endif

#endif
