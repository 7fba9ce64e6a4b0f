/* The probing library behind damero.h: table files opened at open, blocks read and
 * decompressed on demand into a shared cache, positions converted between the public
 * square numbering and the internal bitboards. */
#include "probe/damero.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include "core/array.h"
#include "core/game_end.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "format/index.h"
#include "format/lookup.h"
#include "rules/rule_search.h"
#include "rules/rule_state.h"
#include "format/tablefile.h"
#include "format/value.h"
#include "probe/cache.h"
#include "probe/probe_fail.h"
#include "probe/probe_rules.h"

_Static_assert(DAMERO_MAX_MOVES == MAX_MOVES, "the public bound is the move generator's");
_Static_assert(DAMERO_SQUARE_NAME_SIZE == SQUARE_NAME_SIZE, "the public size is notation's");
_Static_assert(DAMERO_MAX_CACHE_BYTES == BLOCK_CACHE_MAX_BYTES, "the public bound is the cache's");

#define NUM_METRICS METRIC_LAST
#define PATH_SIZE 4096

/* One table file of a material: listed when the handle opens, opened and checked on
 * first use. The state only ever moves from FILE_LISTED to FILE_OPEN or FILE_FAILED, under
 * the material's lock; a probe that reads FILE_OPEN (acquire) sees the map, the cache
 * number and the material's index as they were made before (release). */
enum file_state { FILE_ABSENT, FILE_LISTED, FILE_OPEN, FILE_FAILED };

struct tb_file {
    atomic_int state;      /* enum file_state */
    struct table_map map;  /* once FILE_OPEN */
    uint32_t cache_file;   /* once FILE_OPEN: the file's number in the block cache */
    int status;            /* once FILE_FAILED: why, as a damero status and a sentence */
    char *message;
    /* A rule table's blocks, once FILE_OPEN: whether each holds the very values of the
     * DTM file's block of the same number (BLOCK_SAME), learnt when first read. Most do
     * (the rules change few positions' values), and for those a probe under the rules
     * takes the DTM it has already read instead of looking the block up. */
    _Atomic uint8_t *same_as_dtm;
};

enum block_likeness { BLOCK_UNKNOWN = 0, BLOCK_SAME, BLOCK_DIFFERENT };

/* One material's tables: its index and whichever of its three files exist. */
struct tb_table {
    struct material m;
    pthread_mutex_t lock;                /* held while one of the files opens */
    bool indexed;                        /* ix is built (under lock) */
    struct material_index ix;            /* once any file is FILE_OPEN */
    struct tb_file file[NUM_METRICS];    /* by metric - 1 */
};

struct damero_tb {
    const struct variant *v;
    char root[PATH_SIZE];                  /* dir, as given to damero_open */
    char dir[PATH_SIZE];                   /* dir/<variant> */
    struct tb_table *by_code[MATERIAL_CODES];
    int max_pieces;
    size_t num_files;                      /* table files listed */
    struct block_cache *cache;
    pthread_mutex_t cache_lock;            /* serializes registering files in the cache */
    pthread_mutex_t dctx_lock;             /* guards the pool of zstd contexts */
    ZSTD_DCtx **dctx_pool;
    size_t dctx_free, dctx_capacity;
    struct rule_row rows[2];               /* the variant's move-limit rules, by reading */
    bool rows_ready;                       /* rows[] hold them (else no rules can be read) */
    int bit_of_number[MAX_SQUARES + 1];    /* square number -> internal bit */
    int number_of_bit[MAX_SQUARES];        /* internal bit -> square number, 0 if none */
};

static _Thread_local char last_error[3 * PATH_SIZE];

const char *damero_version(void)
{
    return DAMERO_VERSION;
}

const char *damero_error_message(void)
{
    return last_error;
}

static int fail(int status, const char *format, ...) __attribute__((format(printf, 2, 3)));

static int fail(int status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last_error, sizeof last_error, format, args);
    va_end(args);
    return status;
}

int probe_fail(int status, const char *message)
{
    return fail(status, "%s", message);
}

/* The damero status of a table file error. */
static int status_of(int table_status)
{
    switch (table_status) {
    case TABLE_ERR_IO: return DAMERO_ERR_IO;
    case TABLE_ERR_FORMAT: return DAMERO_ERR_FORMAT;
    case TABLE_ERR_TRUNCATED: return DAMERO_ERR_TRUNCATED;
    case TABLE_ERR_VERSION: return DAMERO_ERR_VERSION;
    case TABLE_ERR_CORRUPT: return DAMERO_ERR_CORRUPT;
    case TABLE_ERR_MEMORY: return DAMERO_ERR_MEMORY;
    case TABLE_ERR_VARIANT: return DAMERO_ERR_VARIANT;
    }
    return DAMERO_OK;
}

/* ---- zstd contexts: one per thread that is decompressing, reused ---- */

static ZSTD_DCtx *take_dctx(damero_tb *tb)
{
    ZSTD_DCtx *d = NULL;
    pthread_mutex_lock(&tb->dctx_lock);
    if (tb->dctx_free > 0)
        d = tb->dctx_pool[--tb->dctx_free];
    pthread_mutex_unlock(&tb->dctx_lock);
    return d ? d : ZSTD_createDCtx();
}

static void give_dctx(damero_tb *tb, ZSTD_DCtx *d)
{
    pthread_mutex_lock(&tb->dctx_lock);
    /* when there is no room to keep it, the context is freed */
    if (array_reserve(&tb->dctx_pool, &tb->dctx_capacity, tb->dctx_free + 1,
                      sizeof *tb->dctx_pool) == 0) {
        tb->dctx_pool[tb->dctx_free++] = d;
        d = NULL;
    }
    pthread_mutex_unlock(&tb->dctx_lock);
    ZSTD_freeDCtx(d);
}

/* ---- opening ---- */

static enum table_metric metric_of_suffix(const char *name, size_t *base_length)
{
    size_t n = strlen(name);
    for (int metric = METRIC_WDL; metric <= METRIC_LAST; metric++) {
        const char *suffix = table_metric_suffix((enum table_metric)metric);
        size_t k = strlen(suffix);
        if (n > k && strcmp(name + n - k, suffix) == 0) {
            *base_length = n - k;
            return (enum table_metric)metric;
        }
    }
    return 0;
}

static struct tb_table *table_for(damero_tb *tb, const struct material *m)
{
    struct tb_table **slot = &tb->by_code[material_code(m)];
    if (!*slot && (*slot = calloc(1, sizeof **slot))) {
        (*slot)->m = *m;
        if (pthread_mutex_init(&(*slot)->lock, NULL) != 0) {
            free(*slot);
            *slot = NULL;
        }
    }
    return *slot;
}

/* Notes one file of the directory if its name is a table's; other files are skipped.
 * Nothing is read: the file is opened when a probe first needs it. */
static int list_file(damero_tb *tb, const char *name)
{
    char material[MATERIAL_NAME_SIZE + 1], err[256];
    size_t base = 0;
    enum table_metric metric = metric_of_suffix(name, &base);
    struct material m;
    if (!metric || base > MATERIAL_NAME_SIZE)
        return DAMERO_OK;
    memcpy(material, name, base);
    material[base] = '\0';
    if (material_parse(tb->v, material, &m, err, sizeof err) < 0 || !material_is_canonical(&m))
        return DAMERO_OK;
    struct tb_table *t = table_for(tb, &m);
    if (!t)
        return fail(DAMERO_ERR_MEMORY, "out of memory opening %s/%s", tb->dir, name);
    atomic_init(&t->file[metric - 1].state, FILE_LISTED);
    tb->num_files++;
    if (metric == METRIC_WDL && material_pieces(&m) > tb->max_pieces)
        tb->max_pieces = material_pieces(&m);
    return DAMERO_OK;
}

static int list_directory(damero_tb *tb)
{
    DIR *d = opendir(tb->dir);
    struct dirent *e;
    int status = DAMERO_OK;
    if (!d && errno == ENOENT)
        return DAMERO_OK; /* no tables of this variant yet: every probe says so */
    if (!d)
        return fail(DAMERO_ERR_IO, "cannot read the table folder %s: %s", tb->dir,
                    strerror(errno));
    while (status == DAMERO_OK && (e = readdir(d)))
        status = list_file(tb, e->d_name);
    closedir(d);
    if (status == DAMERO_OK && block_cache_reserve_files(tb->cache, tb->num_files) < 0)
        status = fail(DAMERO_ERR_MEMORY, "out of memory opening %s", tb->dir);
    return status;
}

/* The file of t for `metric`, opened and checked: the header must name this variant's
 * material before the material's index is built (a kings-only material's index takes
 * long to build, wasted on an empty or foreign file), then the file's size must match
 * the index. Called under t->lock. Returns a table status, with a sentence in err. */
static int map_table_file(damero_tb *tb, struct tb_table *t, enum table_metric metric,
                          char *err, size_t err_size)
{
    struct tb_file *f = &t->file[metric - 1];
    char name[MATERIAL_NAME_SIZE], path[2 * PATH_SIZE];
    material_name(&t->m, name);
    snprintf(path, sizeof path, "%s/%s%s", tb->dir, name, table_metric_suffix(metric));
    int status = table_map_open(path, &f->map, err, err_size);
    if (status != TABLE_OK)
        return status;
    struct table_file_info want = table_file_identity(tb->v, &t->m, metric, f->map.info.positions);
    status = table_file_check_identity(path, &f->map.info, &want, err, err_size);
    if (status == TABLE_OK && !t->indexed) {
        if (index_init(&t->ix, tb->v, &t->m) < 0) {
            snprintf(err, err_size, "out of memory indexing %s", name);
            status = TABLE_ERR_MEMORY;
        }
        t->indexed = status == TABLE_OK;
    }
    if (status == TABLE_OK) {
        want.positions = t->ix.size;
        status = table_file_check_identity(path, &f->map.info, &want, err, err_size);
    }
    if (status == TABLE_OK) {
        pthread_mutex_lock(&tb->cache_lock);
        int64_t number = block_cache_add_file(tb->cache, f->map.num_blocks);
        pthread_mutex_unlock(&tb->cache_lock);
        if (number < 0) {
            snprintf(err, err_size, "out of memory opening %s", path);
            status = TABLE_ERR_MEMORY;
        }
        f->cache_file = (uint32_t)number;
    }
    if (status == TABLE_OK && (metric == METRIC_RULES0 || metric == METRIC_RULES1) &&
        !(f->same_as_dtm = calloc(f->map.num_blocks, sizeof *f->same_as_dtm))) {
        snprintf(err, err_size, "out of memory opening %s", path);
        status = TABLE_ERR_MEMORY;
    }
    if (status != TABLE_OK)
        table_map_close(&f->map);
    return status;
}

/* Opens t's file for `metric` on its first use, unless another thread has (use_file). A
 * file that cannot be opened fails every later call the same way, with its own status and
 * message; out of memory is not remembered (a later call tries again). Thread-safe. */
static int open_file(damero_tb *tb, struct tb_table *t, enum table_metric metric)
{
    struct tb_file *f = &t->file[metric - 1];
    char err[2 * PATH_SIZE + 256];
    pthread_mutex_lock(&t->lock);
    if (atomic_load_explicit(&f->state, memory_order_relaxed) == FILE_LISTED) {
        int status = map_table_file(tb, t, metric, err, sizeof err);
        if (status == TABLE_ERR_MEMORY) {
            pthread_mutex_unlock(&t->lock);
            return fail(DAMERO_ERR_MEMORY, "%s", err);
        }
        if (status != TABLE_OK) {
            f->status = status_of(status);
            f->message = strdup(err);
        }
        atomic_store_explicit(&f->state, status == TABLE_OK ? FILE_OPEN : FILE_FAILED,
                              memory_order_release);
    }
    pthread_mutex_unlock(&t->lock);
    if (atomic_load_explicit(&f->state, memory_order_relaxed) == FILE_OPEN)
        return DAMERO_OK;
    return fail(f->status, "%s", f->message ? f->message : "out of memory");
}

/* Makes t's file for `metric` ready to read, opening it on first use (open_file).
 * Thread-safe. The test of a file already open is inline: every probe asks for two to
 * four files, and a call to open_file, whose frame holds a buffer for a message, cost
 * more than the test itself. */
static inline int use_file(damero_tb *tb, struct tb_table *t, enum table_metric metric)
{
    if (atomic_load_explicit(&t->file[metric - 1].state, memory_order_acquire) == FILE_OPEN)
        return DAMERO_OK;
    return open_file(tb, t, metric);
}

static void number_squares(damero_tb *tb)
{
    const struct geometry *g = tb->v->board();
    memset(tb->number_of_bit, 0, sizeof tb->number_of_bit);
    for (int n = 0; n <= MAX_SQUARES; n++)
        tb->bit_of_number[n] = -1;
    for (int n = 1; n <= g->num_squares; n++) {
        int bit = square_from_number(tb->v, n);
        tb->bit_of_number[n] = bit;
        tb->number_of_bit[bit] = n;
    }
}

int damero_open(const char *variant, const char *dir, size_t cache_bytes, damero_tb **out)
{
    if (!out)
        return fail(DAMERO_ERR_ARGUMENT, "damero_open: no place for the handle");
    *out = NULL;
    if (!variant || !dir)
        return fail(DAMERO_ERR_ARGUMENT, "damero_open: the variant and directory are needed");
    const struct variant *v = variant_by_name(variant);
    if (!v)
        return fail(DAMERO_ERR_VARIANT, "unknown variant '%s'", variant);
    if (cache_bytes > DAMERO_MAX_CACHE_BYTES)
        return fail(DAMERO_ERR_ARGUMENT, "a cache of %zu bytes is more than damero can use "
                    "(DAMERO_MAX_CACHE_BYTES, 1 TiB): ask for less", cache_bytes);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return fail(DAMERO_ERR_IO, "%s is not a directory of tables", dir);
    damero_tb *tb = calloc(1, sizeof *tb);
    bool failed = false;
    if (!tb || pthread_mutex_init(&tb->dctx_lock, NULL) != 0) {
        free(tb);
        return fail(DAMERO_ERR_MEMORY, "out of memory opening the tables");
    }
    if (pthread_mutex_init(&tb->cache_lock, NULL) != 0) {
        pthread_mutex_destroy(&tb->dctx_lock);
        free(tb);
        return fail(DAMERO_ERR_MEMORY, "out of memory opening the tables");
    }
    tb->v = v;
    snprintf(tb->root, sizeof tb->root, "%s", dir);
    snprintf(tb->dir, sizeof tb->dir, "%s/%s", dir, v->name);
    number_squares(tb);
    tb->rows_ready = rule_row_init(&tb->rows[0], tb->v, 0) == 0 &&
                     rule_row_init(&tb->rows[1], tb->v, 1) == 0;
    tb->cache = block_cache_create(cache_bytes, &failed);
    int status = failed ? fail(DAMERO_ERR_MEMORY, "out of memory for a cache of %zu bytes",
                               cache_bytes)
                        : list_directory(tb);
    if (status != DAMERO_OK) {
        damero_close(tb);
        return status;
    }
    *out = tb;
    return DAMERO_OK;
}

static void free_table(struct tb_table *t)
{
    for (int k = 0; k < NUM_METRICS; k++) {
        if (atomic_load(&t->file[k].state) == FILE_OPEN)
            table_map_close(&t->file[k].map);
        free(t->file[k].message);
        free((void *)t->file[k].same_as_dtm);
    }
    if (t->indexed)
        index_free(&t->ix);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

void damero_close(damero_tb *tb)
{
    if (!tb)
        return;
    for (int c = 0; c < MATERIAL_CODES; c++)
        if (tb->by_code[c])
            free_table(tb->by_code[c]);
    block_cache_free(tb->cache);
    for (size_t i = 0; i < tb->dctx_free; i++)
        ZSTD_freeDCtx(tb->dctx_pool[i]);
    free(tb->dctx_pool);
    pthread_mutex_destroy(&tb->cache_lock);
    pthread_mutex_destroy(&tb->dctx_lock);
    free(tb);
}

const char *damero_variant(const damero_tb *tb)
{
    return tb ? tb->v->name : "";
}

int damero_max_pieces(const damero_tb *tb)
{
    return tb ? tb->max_pieces : 0;
}

const char *damero_variant_name(int k)
{
    for (int i = 0; variants[i].name; i++)
        if (i == k)
            return variants[i].name;
    return NULL;
}

/* ---- the board ---- */

void damero_board_shape(const damero_tb *tb, damero_board *board)
{
    const struct geometry *g = tb->v->board();
    *board = (damero_board){ g->files, g->ranks, g->num_squares, tb->v->algebraic };
}

int damero_square_at(const damero_tb *tb, int column, int row)
{
    const struct geometry *g = tb->v->board();
    if (column < 0 || column >= g->files)
        return 0;
    /* variants played on the other colour show the mirror image of the geometry */
    int bit = geometry_bit_at(g, tb->v->mirrored ? g->files - 1 - column : column, row);
    return bit < 0 ? 0 : tb->number_of_bit[bit];
}

int damero_square_name(const damero_tb *tb, int square, char name[DAMERO_SQUARE_NAME_SIZE])
{
    if (!tb || !name)
        return fail(DAMERO_ERR_ARGUMENT, "damero_square_name: a NULL argument");
    int bit = square >= 1 && square <= MAX_SQUARES ? tb->bit_of_number[square] : -1;
    if (bit < 0)
        return fail(DAMERO_ERR_POSITION, "the %s board has no square %d", tb->v->name, square);
    square_name(tb->v, bit, name);
    return DAMERO_OK;
}

/* ---- positions ---- */

static bb_t to_bits(const damero_tb *tb, uint64_t numbers)
{
    bb_t bits = 0;
    int bit;
    BB_FOR_EACH(bit, numbers)
        bits |= bb_of(tb->bit_of_number[bit + 1]);
    return bits;
}

static uint64_t to_numbers(const damero_tb *tb, bb_t bits)
{
    uint64_t numbers = 0;
    int bit;
    BB_FOR_EACH(bit, bits)
        numbers |= (uint64_t)1 << (tb->number_of_bit[bit] - 1);
    return numbers;
}

static int to_internal(const damero_tb *tb, const damero_position *in, struct position *out)
{
    char err[256];
    int squares = tb->v->board()->num_squares;
    uint64_t outside = squares >= 64 ? 0 : ~(uint64_t)0 << squares;
    if (!in)
        return fail(DAMERO_ERR_ARGUMENT, "no position given");
    if ((in->men[0] | in->men[1] | in->kings[0] | in->kings[1]) & outside)
        return fail(DAMERO_ERR_POSITION, "a piece stands beyond square %d", squares);
    if (in->side_to_move != DAMERO_WHITE && in->side_to_move != DAMERO_BLACK)
        return fail(DAMERO_ERR_POSITION, "the side to move is neither white nor black");
    for (int s = 0; s < 2; s++) {
        out->men[s] = to_bits(tb, in->men[s]);
        out->kings[s] = to_bits(tb, in->kings[s]);
    }
    out->side = (enum side)in->side_to_move;
    if (position_validate(tb->v, out, err, sizeof err) < 0)
        return fail(DAMERO_ERR_POSITION, "%s", err);
    return DAMERO_OK;
}

static void to_public(const damero_tb *tb, const struct position *in, damero_position *out)
{
    for (int s = 0; s < 2; s++) {
        out->men[s] = to_numbers(tb, in->men[s]);
        out->kings[s] = to_numbers(tb, in->kings[s]);
    }
    out->side_to_move = (int)in->side;
}

int damero_parse_fen(const damero_tb *tb, const char *fen, damero_position *pos)
{
    struct position p;
    char err[256];
    if (!tb || !fen || !pos)
        return fail(DAMERO_ERR_ARGUMENT, "damero_parse_fen: a NULL argument");
    if (fen_parse(tb->v, fen, &p, err, sizeof err) < 0)
        return fail(DAMERO_ERR_POSITION, "%s", err);
    to_public(tb, &p, pos);
    return DAMERO_OK;
}

int damero_write_fen(const damero_tb *tb, const damero_position *pos, char fen[DAMERO_FEN_SIZE])
{
    struct position p;
    if (!tb || !fen)
        return fail(DAMERO_ERR_ARGUMENT, "damero_write_fen: a NULL argument");
    int status = to_internal(tb, pos, &p);
    if (status == DAMERO_OK)
        fen_print(tb->v, &p, fen);
    return status;
}

/* ---- reading values ---- */

#define NEEDS(metric) (1u << (metric))

/* The failure for a position where only the side to move has pieces. */
static int no_opponent(const struct position *p)
{
    return fail(DAMERO_ERR_POSITION, "%s has no piece: the game is already over",
                p->side == WHITE ? "black" : "white");
}

/* Where p's value is stored (format/lookup.h), as a damero status: DAMERO_OK with *over
 * set when the game has ended (the side to move has no piece left, or the rule on lone
 * pieces ends it), else DAMERO_OK with *over GAME_GOES_ON and *l filled, or an error for a
 * position no table holds. */
static int lookup(const damero_tb *tb, const struct position *p, struct lookup *l,
                  enum game_end *over)
{
    *over = GAME_GOES_ON;
    switch (lookup_position(tb->v, p, l)) {
    case LOOKUP_GAME_OVER:
        *over = l->over;
        return DAMERO_OK;
    case LOOKUP_NO_OPPONENT:
        return no_opponent(p);
    case LOOKUP_TOO_MANY:
        return fail(DAMERO_ERR_MISSING, "no table has %d pieces",
                    bb_count(position_occupied(p)));
    case LOOKUP_TABLE:
        break;
    }
    return DAMERO_OK;
}

/* Whether t's WDL file is there and was built WDL-only (damero gen --metrics wdl), so
 * that its DTM and MTC files are missing on purpose. Opens the WDL file if no probe has. */
static bool wdl_only_table(damero_tb *tb, struct tb_table *t)
{
    const struct tb_file *wdl = &t->file[METRIC_WDL - 1];
    return atomic_load_explicit(&wdl->state, memory_order_relaxed) != FILE_ABSENT &&
           use_file(tb, t, METRIC_WDL) == DAMERO_OK &&
           (wdl->map.info.flags & TABLE_FLAG_WDL_ONLY);
}

/* The table holding p's value, and p in that table's colour orientation; *over instead
 * when the game has ended. `needed` says which of the table's files must exist
 * (NEEDS(METRIC_DTM) | ...). */
static int find_table(damero_tb *tb, const struct position *p, unsigned needed,
                      enum game_end *over, const struct tb_table **t,
                      struct position *oriented)
{
    struct lookup l;
    char name[MATERIAL_NAME_SIZE];
    int status = lookup(tb, p, &l, over);
    if (status != DAMERO_OK || *over != GAME_GOES_ON)
        return status;
    *oriented = l.oriented;
    struct tb_table *table = tb->by_code[material_code(&l.material)];
    for (int metric = METRIC_WDL; metric <= METRIC_MTC && status == DAMERO_OK; metric++) {
        if (!(needed & NEEDS(metric)))
            continue;
        if (!table || atomic_load_explicit(&table->file[metric - 1].state,
                                           memory_order_relaxed) == FILE_ABSENT) {
            /* the material as the position has it, White's pieces first, which is also
             * how `damero gen` takes it */
            struct material as_played = material_of(p);
            bool wdl_only = table && wdl_only_table(tb, table);
            material_name(&as_played, name);
            return fail(DAMERO_ERR_MISSING,
                        "no %s table for %s in %s%s: build it with 'damero gen --variant %s "
                        "--dir %s %s'",
                        table_metric_suffix((enum table_metric)metric), name, tb->dir,
                        wdl_only ? " (its tables were built WDL-only, with 'damero gen "
                                   "--metrics wdl', without DTM and MTC)"
                                 : "",
                        tb->v->name, tb->root, name);
        }
        status = use_file(tb, table, (enum table_metric)metric);
    }
    *t = table;
    return status;
}

/* Where the value of index i for `side` to move stands in one of t's files: the block,
 * the place in it, and what the cache needs to read it there. */
struct value_place {
    const struct table_map *map;
    uint32_t cache_file;
    uint64_t block;
    uint32_t k, count;
};

static struct value_place place_of(const struct tb_table *t, enum table_metric metric,
                                   enum side side, uint64_t i)
{
    const struct tb_file *f = &t->file[metric - 1];
    uint64_t b = table_block_of(&f->map, side, i);
    return (struct value_place){ &f->map, f->cache_file, b, (uint32_t)i & (f->map.block_values - 1),
                                 table_block_count(&f->map, b) };
}

/* The value at `at` read from the file, its block then kept in the cache. */
static int read_block_value(damero_tb *tb, const struct value_place *at, unsigned *value)
{
    const struct table_map *map = at->map;
    uint32_t bits = map->info.value_bits;
    char err[512];
    size_t bytes = table_block_bytes(map, at->block);
    uint8_t *data = block_cache_buffer(bytes);
    ZSTD_DCtx *dctx = take_dctx(tb);
    int status = data && dctx ? table_map_block(map, dctx, at->block, data, err, sizeof err)
                              : TABLE_ERR_MEMORY;
    if (dctx)
        give_dctx(tb, dctx);
    if (status == TABLE_OK)
        *value = block_cache_insert(tb->cache, at->cache_file, at->block, data, bits,
                                    at->count, bytes, at->k);
    else
        block_cache_discard(data);
    if (status == TABLE_ERR_MEMORY)
        return fail(DAMERO_ERR_MEMORY, "out of memory reading %s", tb->dir);
    if (status != TABLE_OK)
        return fail(status_of(status), "%s/%s", tb->dir, err);
    return DAMERO_OK;
}

/* The value at `at`: from the cache, else from the file (read_block_value). The cache's
 * answer is inline: a probe reads two to four values, and the frame of the call that
 * reads a block (a buffer for a message) cost more than taking the cache's. */
static inline int read_value_at(damero_tb *tb, const struct value_place *at, unsigned *value)
{
    if (block_cache_value(tb->cache, at->cache_file, at->block, at->map->info.value_bits,
                          at->count, at->k, value))
        return DAMERO_OK;
    return read_block_value(tb, at, value);
}

/* The stored value of index i for `side` to move in one of t's files. */
static int read_value(damero_tb *tb, const struct tb_table *t, enum table_metric metric,
                      enum side side, uint64_t i, unsigned *value)
{
    struct value_place at = place_of(t, metric, side, i);
    return read_value_at(tb, &at, value);
}

static enum wdl wdl_parent(enum wdl child)
{
    return child == WDL_WIN ? WDL_LOSS : child == WDL_LOSS ? WDL_WIN : WDL_DRAW;
}

static int wdl_of(damero_tb *tb, const struct position *p, enum wdl *out);

/* A position where the side to move must capture: its WDL file holds a don't-care, so
 * the captures are played and the positions they lead to probed. */
static int wdl_by_captures(damero_tb *tb, const struct position *p, enum wdl *out)
{
    struct move_list list;
    generate_moves(tb->v, p, 0, &list);
    *out = WDL_LOSS;
    for (int k = 0; k < list.count && *out != WDL_WIN; k++) {
        struct position child;
        enum wdl value;
        make_move(p, &list.moves[k], &child);
        int status = wdl_of(tb, &child, &value);
        if (status != DAMERO_OK)
            return status;
        if (wdl_parent(value) == WDL_WIN || (wdl_parent(value) == WDL_DRAW && *out == WDL_LOSS))
            *out = wdl_parent(value);
    }
    return DAMERO_OK;
}

/* p's WDL, or where to read it: *at is filled and true returned when the value stands
 * in a WDL file; otherwise *out holds it (the game is over, or the captures were played
 * and probed), or the status says why it cannot be known. */
static int wdl_locate(damero_tb *tb, const struct position *p, struct value_place *at,
                      bool *in_file, enum wdl *out)
{
    const struct tb_table *t = NULL;
    struct position q;
    enum game_end over;
    *in_file = false;
    int status = find_table(tb, p, NEEDS(METRIC_WDL), &over, &t, &q);
    if (status != DAMERO_OK || over != GAME_GOES_ON) {
        *out = dtm_wdl(dtm_game_end(over));
        return status;
    }
    if ((t->file[METRIC_WDL - 1].map.info.flags & TABLE_FLAG_CAPTURES_DONT_CARE) &&
        has_capture(tb->v, &q))
        return wdl_by_captures(tb, &q, out);
    *at = place_of(t, METRIC_WDL, q.side, index_of(&t->ix, &q, NULL));
    *in_file = true;
    return DAMERO_OK;
}

static int wdl_of(damero_tb *tb, const struct position *p, enum wdl *out)
{
    struct value_place at;
    bool in_file;
    unsigned value;
    int status = wdl_locate(tb, p, &at, &in_file, out);
    if (status != DAMERO_OK || !in_file)
        return status;
    status = read_value_at(tb, &at, &value);
    *out = (enum wdl)value;
    return status;
}

/* DTM and MTC of p from the DTM and MTC files. When the game goes on and both are read,
 * *t, *q and *i name where p's values stand (for the rule table beside them); otherwise
 * *t is NULL. */
static int dtm_mtc_at(damero_tb *tb, const struct position *p, dtm_t *dtm, mtc_t *mtc,
                      const struct tb_table **t, struct position *q, uint64_t *i)
{
    enum game_end over;
    unsigned d, c;
    *t = NULL;
    int status = find_table(tb, p, NEEDS(METRIC_DTM) | NEEDS(METRIC_MTC), &over, t, q);
    if (status != DAMERO_OK || over != GAME_GOES_ON) {
        *t = NULL;
        *dtm = dtm_game_end(over);
        *mtc = mtc_game_end(over);
        return status;
    }
    *i = index_of(&(*t)->ix, q, NULL);
    if ((status = read_value(tb, *t, METRIC_DTM, q->side, *i, &d)) != DAMERO_OK ||
        (status = read_value(tb, *t, METRIC_MTC, q->side, *i, &c)) != DAMERO_OK) {
        *t = NULL;
        return status;
    }
    *dtm = (dtm_t)d;
    *mtc = (mtc_t)c;
    return DAMERO_OK;
}

static int dtm_of(damero_tb *tb, const struct position *p, dtm_t *dtm, mtc_t *mtc)
{
    const struct tb_table *t;
    struct position q;
    uint64_t i;
    return dtm_mtc_at(tb, p, dtm, mtc, &t, &q, &i);
}

const struct rule_row *probe_rule_row(const damero_tb *tb, int reading)
{
    return tb && tb->rows_ready && (reading == 0 || reading == 1) ? &tb->rows[reading] : NULL;
}

int probe_position_in(const damero_tb *tb, const damero_position *pos, struct position *p)
{
    return to_internal(tb, pos, p);
}

int probe_plain_value(damero_tb *tb, const struct position *p, dtm_t *dtm, mtc_t *mtc)
{
    return dtm_of(tb, p, dtm, mtc);
}

/* Whether block b of t's rule table (`metric`) holds the very values of block b of its
 * DTM file (both decompressed and compared value by value); BLOCK_UNKNOWN when either
 * cannot be read (the read that follows then says why). */
static enum block_likeness compare_with_dtm(damero_tb *tb, const struct tb_table *t,
                                            enum table_metric metric, uint64_t b)
{
    const struct table_map *rules = &t->file[metric - 1].map;
    const struct table_map *dtm = &t->file[METRIC_DTM - 1].map;
    if (rules->block_values != dtm->block_values)
        return BLOCK_DIFFERENT;
    char err[512];
    uint8_t *raw_rules = malloc(table_block_bytes(rules, b));
    uint8_t *raw_dtm = malloc(table_block_bytes(dtm, b));
    ZSTD_DCtx *dctx = take_dctx(tb);
    enum block_likeness likeness = BLOCK_UNKNOWN;
    if (raw_rules && raw_dtm && dctx &&
        table_map_block(rules, dctx, b, raw_rules, err, sizeof err) == TABLE_OK &&
        table_map_block(dtm, dctx, b, raw_dtm, err, sizeof err) == TABLE_OK) {
        uint32_t n = table_block_count(rules, b);
        likeness = BLOCK_SAME;
        for (uint32_t k = 0; k < n && likeness == BLOCK_SAME; k++)
            if (table_raw_value(rules->info.value_bits, raw_rules, n, k) !=
                table_raw_value(dtm->info.value_bits, raw_dtm, n, k))
                likeness = BLOCK_DIFFERENT;
    }
    if (dctx)
        give_dctx(tb, dctx);
    free(raw_rules);
    free(raw_dtm);
    return likeness;
}

/* The distance to zeroing of index i, whose value under the rules is `value`, from t's
 * distance table of `metric`, when the file is there and knows it; else *dtz stays
 * RULE_DTZ_UNKNOWN. */
static int zeroing_at(damero_tb *tb, struct tb_table *t, enum table_metric metric,
                      enum side side, uint64_t i, dtm_t value, int *dtz)
{
    unsigned v;
    if (atomic_load_explicit(&t->file[metric - 1].state, memory_order_relaxed) == FILE_ABSENT)
        return DAMERO_OK;
    int status = use_file(tb, t, metric);
    struct value_place at = place_of(t, metric, side, i);
    if (status == DAMERO_OK && (status = read_value_at(tb, &at, &v)) == DAMERO_OK)
        *dtz = rule_dtz_of_stored(value, (int)v);
    return status;
}

/* The value of index i of t's rule table under `metric`, when the file is there, and
 * (unless it is a draw) its distance to zeroing from the distance table beside it, when
 * that is there (else RULE_DTZ_UNKNOWN). dtm, when not NULL, is the DTM of the same
 * index, already read: where the rule table's block holds the DTM file's values, it is
 * the answer. */
static int rules_value_at(damero_tb *tb, struct tb_table *t, enum table_metric metric,
                          enum side side, uint64_t i, const dtm_t *dtm, dtm_t *value,
                          int *dtz, bool *known)
{
    unsigned v = 0;
    enum table_metric zeroing = metric == METRIC_RULES1 ? METRIC_ZEROING1 : METRIC_ZEROING0;
    *known = false;
    *dtz = RULE_DTZ_UNKNOWN;
    if (!t || atomic_load_explicit(&t->file[metric - 1].state, memory_order_relaxed) ==
                  FILE_ABSENT)
        return DAMERO_OK;
    int status = use_file(tb, t, metric);
    if (status != DAMERO_OK)
        return status;
    struct value_place at = place_of(t, metric, side, i);
    _Atomic uint8_t *same = &t->file[metric - 1].same_as_dtm[at.block];
    if (dtm && atomic_load_explicit(same, memory_order_relaxed) == BLOCK_UNKNOWN)
        atomic_store_explicit(same, compare_with_dtm(tb, t, metric, at.block),
                              memory_order_relaxed);
    if (dtm && atomic_load_explicit(same, memory_order_relaxed) == BLOCK_SAME) {
        *value = *dtm;
        *known = true;
    } else {
        status = read_value_at(tb, &at, &v);
        *value = (dtm_t)v;
        *known = status == DAMERO_OK;
    }
    if (*known && *value != DTM_DRAW)
        status = zeroing_at(tb, t, zeroing, side, i, *value, dtz);
    return status;
}

int probe_rules_fresh(damero_tb *tb, const struct position *p, int reading, dtm_t *value,
                      int *dtz, bool *known)
{
    struct lookup l;
    enum game_end over;
    *known = false;
    *dtz = RULE_DTZ_UNKNOWN;
    int status = lookup(tb, p, &l, &over);
    if (status != DAMERO_OK || over != GAME_GOES_ON)
        return status;
    struct tb_table *t = tb->by_code[material_code(&l.material)];
    enum table_metric metric = table_metric_rules(reading);
    if (!t || atomic_load_explicit(&t->file[metric - 1].state, memory_order_relaxed) ==
                  FILE_ABSENT)
        return DAMERO_OK;
    if ((status = use_file(tb, t, metric)) != DAMERO_OK) /* the index is made there */
        return status;
    return rules_value_at(tb, t, metric, l.oriented.side, index_of(&t->ix, &l.oriented, NULL),
                          NULL, value, dtz, known);
}

int probe_values(damero_tb *tb, const struct position *p, int reading, dtm_t *dtm,
                 mtc_t *mtc, dtm_t *fresh, int *dtz, bool *known, struct material *m)
{
    const struct tb_table *t;
    struct position q;
    uint64_t i;
    *known = false;
    *dtz = RULE_DTZ_UNKNOWN;
    int status = dtm_mtc_at(tb, p, dtm, mtc, &t, &q, &i);
    /* t holds the canonical material; the lookup swapped colours (and the side to move)
     * where p has it the other way round */
    *m = !t ? material_of(p) : q.side == p->side ? t->m : material_flipped(&t->m);
    if (!t)
        return status;
    if (*dtm == DTM_DRAW) {
        /* a draw is one under the rules: nothing more to read, and known, so that the
         * probe answers it without starting a search */
        *fresh = DTM_DRAW;
        *dtz = 0;
        *known = true;
        return status;
    }
    return rules_value_at(tb, (struct tb_table *)t, table_metric_rules(reading), q.side, i,
                          dtm, fresh, dtz, known);
}

static int public_wdl(enum wdl w)
{
    return w == WDL_WIN ? DAMERO_WIN : w == WDL_LOSS ? DAMERO_LOSS : DAMERO_DRAW;
}

static damero_value public_value(dtm_t dtm, mtc_t mtc)
{
    damero_value v = { public_wdl(dtm_wdl(dtm)), -1, -1 };
    if (dtm != DTM_DRAW) {
        v.dtm = dtm_plies(dtm);
        v.mtc = mtc == MTC_NONE ? -1 : mtc_plies(mtc);
    }
    return v;
}

damero_value probe_public_value(dtm_t dtm, mtc_t mtc)
{
    return public_value(dtm, mtc);
}

int damero_probe_wdl(damero_tb *tb, const damero_position *pos, int *wdl)
{
    struct position p;
    enum wdl w;
    if (!tb || !wdl)
        return fail(DAMERO_ERR_ARGUMENT, "damero_probe_wdl: a NULL argument");
    int status = to_internal(tb, pos, &p);
    if (status == DAMERO_OK && (status = wdl_of(tb, &p, &w)) == DAMERO_OK)
        *wdl = public_wdl(w);
    return status;
}

#define WDL_BATCH 16 /* positions whose memory is fetched at once: more than enough to hide it */

/* One position of a batch of WDL probes: where its value stands, once located. */
struct batch_probe {
    struct value_place at;
    bool in_file;
    int status;
    enum wdl wdl;
};

/* Probes positions [first, first + n) of a batch in three passes, so that the memory
 * the values stand in is fetched for all of them at once rather than one after the
 * other: locate each value (and ask for its block's cache entry), ask for the bytes
 * the entries point to, then read. */
static void probe_wdl_batch(damero_tb *tb, const damero_position *positions,
                            struct batch_probe *probes, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        struct batch_probe *b = &probes[k];
        struct position p;
        b->in_file = false;
        b->status = to_internal(tb, &positions[k], &p);
        if (b->status == DAMERO_OK)
            b->status = wdl_locate(tb, &p, &b->at, &b->in_file, &b->wdl);
        if (b->in_file)
            block_cache_prefetch_entry(tb->cache, b->at.cache_file, b->at.block);
    }
    for (size_t k = 0; k < n; k++)
        if (probes[k].in_file)
            block_cache_prefetch_value(tb->cache, probes[k].at.cache_file, probes[k].at.block,
                                       probes[k].at.map->info.value_bits, probes[k].at.k);
    for (size_t k = 0; k < n; k++) {
        unsigned value;
        if (!probes[k].in_file)
            continue;
        probes[k].status = read_value_at(tb, &probes[k].at, &value);
        probes[k].wdl = (enum wdl)value;
    }
}

int damero_probe_wdl_many(damero_tb *tb, const damero_position *positions, size_t n,
                          int *wdl, int *statuses)
{
    struct batch_probe probes[WDL_BATCH];
    size_t first_failed = n;
    int first_status = DAMERO_OK;
    if (!tb || (n > 0 && (!positions || !wdl)))
        return fail(DAMERO_ERR_ARGUMENT, "damero_probe_wdl_many: a NULL argument");
    for (size_t start = 0; start < n; start += WDL_BATCH) {
        size_t count = n - start < WDL_BATCH ? n - start : WDL_BATCH;
        probe_wdl_batch(tb, positions + start, probes, count);
        for (size_t k = 0; k < count; k++) {
            if (probes[k].status == DAMERO_OK)
                wdl[start + k] = public_wdl(probes[k].wdl);
            else if (first_failed == n) {
                first_failed = start + k;
                first_status = probes[k].status;
            }
            if (statuses)
                statuses[start + k] = probes[k].status;
        }
    }
    if (first_failed == n)
        return DAMERO_OK;
    /* later failures wrote over its message: probing it again tells it */
    int again, status = damero_probe_wdl(tb, &positions[first_failed], &again);
    return status != DAMERO_OK ? status
                               : fail(first_status, "position %zu of the batch could not be "
                                      "probed", first_failed);
}

int damero_probe(damero_tb *tb, const damero_position *pos, damero_value *value)
{
    struct position p;
    dtm_t dtm;
    mtc_t mtc;
    if (!tb || !value)
        return fail(DAMERO_ERR_ARGUMENT, "damero_probe: a NULL argument");
    int status = to_internal(tb, pos, &p);
    if (status == DAMERO_OK && (status = dtm_of(tb, &p, &dtm, &mtc)) == DAMERO_OK)
        *value = public_value(dtm, mtc);
    return status;
}

/* ---- moves at the root ---- */

struct scored_move {
    dtm_t dtm;        /* for the side that plays it */
    int mtc_plies;    /* -1 in a draw */
    damero_move move;
};

/* The move m, which leads to child, as the public API gives it: all but its value. */
static void describe_move(const damero_tb *tb, const struct move *m,
                          const struct position *child, damero_move *out)
{
    move_text(tb->v, m, out->text);
    out->from = tb->number_of_bit[m->from];
    out->to = tb->number_of_bit[m->to];
    out->captures = m->num_jumps;
    to_public(tb, child, &out->after);
}

/* A move's value from the position it leads to: one ply more, and a capture or man move
 * is itself the conversion. */
static int score_move(damero_tb *tb, const struct position *p, const struct move *m,
                      struct scored_move *out)
{
    struct position child;
    dtm_t dtm;
    mtc_t mtc;
    make_move(p, m, &child);
    int status = dtm_of(tb, &child, &dtm, &mtc);
    if (status != DAMERO_OK)
        return status;
    bool converts = m->captured || (p->men[p->side] & bb_of(m->from));
    out->dtm = dtm_parent(dtm);
    out->mtc_plies = out->dtm == DTM_DRAW ? -1 : converts ? 1 : mtc_plies(mtc) + 1;
    describe_move(tb, m, &child, &out->move);
    out->move.value = (damero_value){ public_wdl(dtm_wdl(out->dtm)),
                                      out->dtm == DTM_DRAW ? -1 : dtm_plies(out->dtm),
                                      out->mtc_plies };
    return DAMERO_OK;
}

/* Best first: by DTM (dtm_better), then the quicker conversion in a win and the slower in
 * a loss, then by text so that the order never depends on the move generator's. */
static int compare_moves(const void *pa, const void *pb)
{
    const struct scored_move *a = pa, *b = pb;
    if (a->dtm != b->dtm)
        return dtm_better(a->dtm, b->dtm) ? -1 : 1;
    if (a->mtc_plies != b->mtc_plies)
        return (dtm_is_win(a->dtm) ? a->mtc_plies < b->mtc_plies : a->mtc_plies > b->mtc_plies)
                   ? -1
                   : 1;
    return strcmp(a->move.text, b->move.text);
}

int damero_root_moves(damero_tb *tb, const damero_position *pos, damero_move *moves,
                      int capacity, int *count)
{
    struct position p;
    if (!tb || !count || (capacity > 0 && !moves))
        return fail(DAMERO_ERR_ARGUMENT, "damero_root_moves: a NULL argument");
    struct lookup l;
    enum game_end over;
    int status = to_internal(tb, pos, &p);
    if (status == DAMERO_OK)
        status = lookup(tb, &p, &l, &over);
    if (status != DAMERO_OK)
        return status;
    if (over != GAME_GOES_ON) { /* over by the rule on lone pieces: no move is played */
        *count = 0;
        return DAMERO_OK;
    }
    struct move_list *list = malloc(sizeof *list);
    struct scored_move *scored = malloc(MAX_MOVES * sizeof *scored);
    if (!list || !scored) {
        status = fail(DAMERO_ERR_MEMORY, "out of memory scoring moves");
        goto done;
    }
    generate_moves(tb->v, &p, 0, list);
    *count = list->count;
    for (int k = 0; k < list->count && status == DAMERO_OK; k++)
        status = score_move(tb, &p, &list->moves[k], &scored[k]);
    if (status != DAMERO_OK)
        goto done;
    if (list->count > capacity) {
        status = fail(DAMERO_ERR_ARGUMENT, "the position has %d moves, room was given for %d",
                      list->count, capacity);
        goto done;
    }
    qsort(scored, (size_t)list->count, sizeof *scored, compare_moves);
    for (int k = 0; k < list->count; k++)
        moves[k] = scored[k].move;
done:
    free(list);
    free(scored);
    return status;
}

int damero_game_end(const damero_tb *tb, const damero_position *pos, int *end,
                    const char **words)
{
    struct position p;
    if (!tb || !end)
        return fail(DAMERO_ERR_ARGUMENT, "damero_game_end: a NULL argument");
    int status = to_internal(tb, pos, &p);
    if (status != DAMERO_OK)
        return status;
    if (position_pieces(&p, p.side) && !position_pieces(&p, side_other(p.side)))
        return no_opponent(&p);
    bool by_rule = lone_piece_end(tb->v, &p) != GAME_GOES_ON;
    if (words)
        *words = by_rule ? lone_piece_words(tb->v) : NULL;
    if (by_rule)
        *end = DAMERO_LONE_PIECES;
    else
        *end = count_moves(tb->v, &p, 0) == 0 ? DAMERO_NO_MOVE : DAMERO_PLAYING;
    return DAMERO_OK;
}

int damero_best_move(damero_tb *tb, const damero_position *pos, damero_move *best)
{
    damero_move *moves = malloc(DAMERO_MAX_MOVES * sizeof *moves);
    int count = 0;
    if (!best) {
        free(moves);
        return fail(DAMERO_ERR_ARGUMENT, "damero_best_move: a NULL argument");
    }
    if (!moves)
        return fail(DAMERO_ERR_MEMORY, "out of memory scoring moves");
    int status = damero_root_moves(tb, pos, moves, DAMERO_MAX_MOVES, &count);
    int end = DAMERO_PLAYING;
    const char *rule = NULL;
    if (status == DAMERO_OK && count == 0 && damero_game_end(tb, pos, &end, &rule) == DAMERO_OK)
        status = rule ? fail(DAMERO_ERR_GAME_OVER, "the game is over: %s", rule)
                      : fail(DAMERO_ERR_GAME_OVER, "the side to move has no legal move");
    if (status == DAMERO_OK)
        *best = moves[0];
    free(moves);
    return status;
}

/* ---- checking every file ---- */

/* Every block of an open file decompressed, which checks its checksum. */
static int check_blocks(damero_tb *tb, const struct tb_file *f, char *err, size_t err_size)
{
    uint8_t *raw = malloc(TABLE_MAX_BLOCK_BYTES);
    ZSTD_DCtx *dctx = take_dctx(tb);
    int status = raw && dctx ? TABLE_OK : TABLE_ERR_MEMORY;
    if (status == TABLE_ERR_MEMORY)
        snprintf(err, err_size, "out of memory checking %s", tb->dir);
    for (uint64_t b = 0; b < f->map.num_blocks && status == TABLE_OK; b++)
        status = table_map_block(&f->map, dctx, b, raw, err, err_size);
    if (dctx)
        give_dctx(tb, dctx);
    free(raw);
    return status;
}

/* One listed file checked: opened (if no probe has yet) and read through. */
static int check_file(damero_tb *tb, struct tb_table *t, enum table_metric metric,
                      damero_problem_fn report, void *context)
{
    char name[MATERIAL_NAME_SIZE + 8], err[2 * PATH_SIZE + 256];
    material_name(&t->m, name);
    strcat(name, table_metric_suffix(metric));
    int status = use_file(tb, t, metric);
    if (status == DAMERO_OK) {
        int table_status = check_blocks(tb, &t->file[metric - 1], err, sizeof err);
        if (table_status == TABLE_ERR_MEMORY)
            return fail(DAMERO_ERR_MEMORY, "%s", err);
        if (table_status != TABLE_OK)
            status = fail(status_of(table_status), "%s/%s", tb->dir, err);
    }
    if (status != DAMERO_OK && report)
        report(context, name, status, damero_error_message());
    return status;
}

int damero_check(damero_tb *tb, damero_problem_fn report, void *context, int *files)
{
    int first = DAMERO_OK, checked = 0;
    char first_message[sizeof last_error] = "";
    if (!tb)
        return fail(DAMERO_ERR_ARGUMENT, "damero_check: a NULL argument");
    for (int c = 0; c < MATERIAL_CODES; c++) {
        struct tb_table *t = tb->by_code[c];
        for (int metric = METRIC_WDL; t && metric <= METRIC_LAST; metric++) {
            if (atomic_load(&t->file[metric - 1].state) == FILE_ABSENT)
                continue;
            int status = check_file(tb, t, (enum table_metric)metric, report, context);
            checked++;
            if (status == DAMERO_ERR_MEMORY)
                return status;
            if (status != DAMERO_OK && first == DAMERO_OK) {
                first = status;
                snprintf(first_message, sizeof first_message, "%s", damero_error_message());
            }
        }
    }
    if (files)
        *files = checked;
    return first == DAMERO_OK ? DAMERO_OK : fail(first, "%s", first_message);
}

int damero_start_position(const damero_tb *tb, damero_position *pos)
{
    struct position p;
    if (!tb || !pos)
        return fail(DAMERO_ERR_ARGUMENT, "damero_start_position: a NULL argument");
    position_initial(tb->v, &p);
    to_public(tb, &p, pos);
    return DAMERO_OK;
}

int damero_legal_moves(const damero_tb *tb, const damero_position *pos, damero_move *moves,
                       int capacity, int *count)
{
    struct position p, child;
    if (!tb || !count || (capacity > 0 && !moves))
        return fail(DAMERO_ERR_ARGUMENT, "damero_legal_moves: a NULL argument");
    int status = to_internal(tb, pos, &p);
    if (status != DAMERO_OK)
        return status;
    *count = 0;
    if (lone_piece_end(tb->v, &p) != GAME_GOES_ON)
        return DAMERO_OK;
    struct move_list *list = malloc(sizeof *list);
    if (!list)
        return fail(DAMERO_ERR_MEMORY, "out of memory generating moves");
    generate_moves(tb->v, &p, 0, list);
    *count = list->count;
    if (list->count > capacity)
        status = fail(DAMERO_ERR_ARGUMENT, "the position has %d moves, room was given for %d",
                      list->count, capacity);
    for (int k = 0; k < list->count && status == DAMERO_OK; k++) {
        make_move(&p, &list->moves[k], &child);
        describe_move(tb, &list->moves[k], &child, &moves[k]);
        moves[k].value = (damero_value){ DAMERO_DRAW, -1, -1 };
    }
    free(list);
    return status;
}
