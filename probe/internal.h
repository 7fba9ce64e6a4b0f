/* probe/internal.h: what the files of probe/ share to make libdamero, and nothing more.
 *
 * Private to probe/: only the C files of probe/ include it. It is never installed, and
 * no other folder (cli/, tests/, bench/, ...) may include it: they use the public header
 * probe/damero.h. Which file holds what:
 *
 *   probe/handle.c      the handle: opening a folder, its tables and their files (each
 *                       opened and checked on first use), the zstd contexts, the errors
 *   probe/board.c       positions and moves between the public square numbers and the
 *                       internal bitboards
 *   probe/read_value.c  a position's value read from its table through the block cache
 *   probe/damero.c      the public probing calls
 *   probe/rules_probe.c the public calls under the move-limit rules
 *   probe/cached.c      the probe that answers from the block cache alone (in search)
 *   probe/cache_stats.c the handle's counts of lookups, blocks read and bytes
 *   probe/layout.c      an engine's board layout: its bit orders, positions converted
 *   probe/cache.c       the block cache (probe/cache.h) */
#ifndef DAMERO_PROBE_INTERNAL_H
#define DAMERO_PROBE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

#include "core/game_end.h"
#include "core/movegen.h"
#include "core/position.h"
#include "format/index.h"
#include "format/lookup.h"
#include "format/material.h"
#include "format/tablefile.h"
#include "format/value.h"
#include "probe/damero.h"
#include "rules/rule_state.h"

/* ---- the handle ---- */

#define NUM_METRICS METRIC_LAST
#define PATH_SIZE 4096

/* One table file of a material: listed when the handle opens, opened and checked on
 * first use. The state moves from FILE_LISTED to FILE_OPEN or FILE_FAILED, and from
 * FILE_FAILED back to FILE_LISTED when the file has changed since it failed or
 * damero_forget_failures forgets it, always under the material's lock; FILE_OPEN is
 * final. A probe that reads FILE_OPEN (acquire) sees the map, the cache number and the
 * material's index as they were made before (release). */
enum file_state { FILE_ABSENT, FILE_LISTED, FILE_OPEN, FILE_FAILED };

/* A file as stat() sees it: which one it is, its size and its times (ctime changes with
 * its permissions too). Two stamps that differ mean the file was replaced, rewritten or
 * repaired; present is false where there was no file. */
struct file_stamp {
    bool present;
    uint64_t device, inode, size;
    int64_t modified_s, modified_ns, changed_s, changed_ns;
};

/* What a rule table's block is to the DTM file's block of the same number; zero (as the
 * block array is allocated) until first read. */
enum block_likeness { BLOCK_UNKNOWN = 0, BLOCK_SAME, BLOCK_DIFFERENT };

struct tb_file {
    atomic_int state;      /* enum file_state */
    struct table_map map;  /* once FILE_OPEN */
    uint32_t cache_file;   /* once FILE_OPEN: the file's number in the block cache */
    int status;            /* once FILE_FAILED: why, as a damero status and a sentence */
    char *message;
    struct file_stamp failed_as; /* once FILE_FAILED: the file as it stood when it was
                                    tried; a probe that finds it changed tries again */
    /* A rule table's blocks, once FILE_OPEN: whether each holds the very values of the
     * DTM file's block of the same number (BLOCK_SAME), learnt when first read. Most do
     * (the rules change few positions' values), and for those a probe under the rules
     * takes the DTM it has already read instead of looking the block up. */
    _Atomic uint8_t *same_as_dtm;
};

/* One material's tables: its index and whichever of its files exist. */
struct tb_table {
    struct material m;
    pthread_mutex_t lock;                /* held while one of the files opens */
    bool indexed;                        /* ix is built (under lock) */
    struct material_index ix;            /* once any file is FILE_OPEN */
    struct tb_file file[NUM_METRICS];    /* by metric - 1 */
};

/* The handle's statistics (damero_cache_stats), counted in stripes so that threads
 * probing at once do not fight over one cache line: each thread adds to a stripe of its
 * own (probe_stripe), and a reading sums them all. A stripe is padded to 128 bytes, so
 * that the counters of two never share a 64-byte line however the handle is aligned. */
#define STATS_STRIPE_BITS 5
#define STATS_STRIPES (1 << STATS_STRIPE_BITS)
struct stats_stripe {
    _Atomic uint64_t hits, misses, blocks_read, bytes_read, bytes_decompressed;
    uint8_t padding[128 - 5 * sizeof(uint64_t)];
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
    struct rule_row rows[2];               /* the move-limit rules, rows[reading - 1] */
    bool rows_ready;                       /* rows[] hold them (else no rules can be read) */
    int bit_of_number[MAX_SQUARES + 1];    /* square number -> internal bit */
    int number_of_bit[MAX_SQUARES];        /* internal bit -> square number, 0 if none */
    struct stats_stripe stats[STATS_STRIPES];
};

/* Keeps the formatted sentence as this thread's last error (damero_error_message) and
 * returns status. */
int probe_fail(int status, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* The damero status of a table file's error (TABLE_ERR_...). */
int probe_status_of(int table_status);

/* A zstd context to decompress with, from the handle's pool (or a new one; NULL when
 * memory runs out), and its return to the pool once the block is read. Thread-safe. */
ZSTD_DCtx *probe_take_dctx(damero_tb *tb);
void probe_give_dctx(damero_tb *tb, ZSTD_DCtx *d);

/* Opens t's file for `metric` on its first use, unless another thread has. A file that
 * cannot be opened fails every later call the same way, with its own status and message,
 * until the file changes (a stat() per call tells) or damero_forget_failures forgets it;
 * out of memory is not remembered (a later call tries again). Thread-safe. */
int probe_open_file(damero_tb *tb, struct tb_table *t, enum table_metric metric);

/* Makes t's file for `metric` ready to read, opening it on first use (probe_open_file).
 * Thread-safe. The test of a file already open is inline: every probe asks for two to
 * four files, and a call to probe_open_file, whose frame holds a buffer for a message,
 * cost more than the test itself. */
static inline int probe_use_file(damero_tb *tb, struct tb_table *t, enum table_metric metric)
{
    if (atomic_load_explicit(&t->file[metric - 1].state, memory_order_acquire) == FILE_OPEN)
        return DAMERO_OK;
    return probe_open_file(tb, t, metric);
}

/* The handle's move-limit rules under reading (1 or 2, as damero.h numbers it; the row's
 * own `reading` is the index, 0 or 1), made when it opened; NULL for another reading. */
const struct rule_row *probe_rule_row(const damero_tb *tb, int reading);

/* ---- positions and moves, public and internal ---- */

/* Fills the handle's tables between square numbers and internal bits. */
void probe_number_squares(damero_tb *tb);

/* pos on the internal board, checked as every call checks it (squares, side to move, a
 * position that can stand). Returns a damero status. */
int probe_position_in(const damero_tb *tb, const damero_position *pos, struct position *p);

/* p in the public square numbering. */
void probe_position_out(const damero_tb *tb, const struct position *p, damero_position *pos);

/* The move m, which leads to child, as the public API gives it: all but its value. */
void probe_move_out(const damero_tb *tb, const struct move *m, const struct position *child,
                    damero_move *out);

/* ---- the statistics ---- */

/* The stripe of the calling thread: picked by where its stack is, so that threads
 * (whose stacks lie megabytes apart) mostly count in different stripes, with no
 * thread-local variable (the shared library's would cost a call to __tls_get_addr on
 * every lookup, and initial-exec TLS cannot be had when Python loads the library late).
 * Two threads sharing a stripe only wait for each other: the adds are atomic. */
static inline struct stats_stripe *probe_stripe(damero_tb *tb)
{
    char here;
    uint64_t h = ((uint64_t)(uintptr_t)&here >> 16) * 0x9e3779b97f4a7c15ull;
    return &tb->stats[h >> (64 - STATS_STRIPE_BITS)];
}

/* One value looked up in the cache: found there (hit) or not. Thread-safe. */
static inline void probe_count_lookup(damero_tb *tb, bool hit)
{
    struct stats_stripe *s = probe_stripe(tb);
    atomic_fetch_add_explicit(hit ? &s->hits : &s->misses, 1, memory_order_relaxed);
}

/* Block b of map read from its file and decompressed. Thread-safe. */
static inline void probe_count_block(damero_tb *tb, const struct table_map *map, uint64_t b)
{
    struct stats_stripe *s = probe_stripe(tb);
    atomic_fetch_add_explicit(&s->blocks_read, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->bytes_read, map->offsets[b + 1] - map->offsets[b],
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&s->bytes_decompressed, table_block_bytes(map, b),
                              memory_order_relaxed);
}

/* ---- values ---- */

/* Where the value of index i for `side` to move stands in one of t's files: the block,
 * the place in it, and what the cache needs to read it there. */
struct value_place {
    const struct table_map *map;
    uint32_t cache_file;
    uint64_t block;
    uint32_t k, count;
};

/* The place of index i for `side` to move in t's file of `metric`, which is open. */
struct value_place probe_place_of(const struct tb_table *t, enum table_metric metric,
                                  enum side side, uint64_t i);

/* The most positions probe_wdl_batch takes: enough for their memory to be fetched at
 * once, which hides it. */
#define WDL_BATCH 16

/* The failure for a position where only the side to move has pieces. */
int probe_no_opponent(const struct position *p);

/* Where p's value is stored (format/lookup.h), as a damero status: DAMERO_OK with *over
 * set when the game has ended (the side to move has no piece left, or the rule on lone
 * pieces ends it), else DAMERO_OK with *over GAME_GOES_ON and *l filled, or an error for a
 * position no table holds. */
int probe_lookup(const damero_tb *tb, const struct position *p, struct lookup *l,
                 enum game_end *over);

/* p's WDL from the WDL tables, the captures played where the side to move must take.
 * Returns a damero status. Thread-safe. */
int probe_wdl(damero_tb *tb, const struct position *p, enum wdl *out);

/* The WDL of p, where the side to move must capture (its WDL file holds a don't-care
 * there): the captures played and the positions they lead to probed with child_wdl
 * (probe_wdl, or the probe from the cache alone). Returns DAMERO_OK, or the first status
 * other than DAMERO_OK child_wdl returns. Thread-safe. */
typedef int (*probe_wdl_fn)(damero_tb *tb, const struct position *p, enum wdl *out);
int probe_wdl_by_captures(damero_tb *tb, const struct position *p, probe_wdl_fn child_wdl,
                          enum wdl *out);

/* probe_position_in and probe_wdl of n positions (at most WDL_BATCH), the memory their
 * values stand in fetched for all of them at once rather than one after the other: each
 * position's status into statuses[k], and its WDL into wdl[k] where that is DAMERO_OK.
 * Thread-safe. */
void probe_wdl_batch(damero_tb *tb, const damero_position *positions, size_t n,
                     enum wdl *wdl, int *statuses);

/* The DTM and MTC of p, as damero_probe reads them. Returns a damero status. */
int probe_plain_value(damero_tb *tb, const struct position *p, dtm_t *dtm, mtc_t *mtc);

/* What of p's value the tables hold (damero_probe): its DTM and MTC as
 * probe_plain_value reads them, both *has_dtm and *has_mtc true; or, where p's material
 * has no DTM file, its WDL as dtm_of_wdl codes it (from the WDL file) with *has_dtm false,
 * and its MTC where the MTC file is there (else *has_mtc false); both where the side to
 * move has no move (the game is over, no table needed). Returns a damero status:
 * DAMERO_ERR_MISSING where neither a DTM nor a WDL file is there. Thread-safe. */
int probe_built_value(damero_tb *tb, const struct position *p, dtm_t *dtm, mtc_t *mtc,
                      bool *has_dtm, bool *has_mtc);

/* The value under the rules of p's fresh state, from the rule table of p's material
 * under the reading of index `reading` (rule_row.reading: 0 for the first): *known is
 * false when that table is not there (nor any value of a position whose game is over);
 * and its distance to zeroing from the distance table beside it, RULE_DTZ_UNKNOWN when
 * that is not there (-1 is never given: a draw's is 0). A table that is there but cannot
 * be read fails as the other tables do. Returns a damero status. Thread-safe. */
int probe_rules_fresh(damero_tb *tb, const struct position *p, int reading, dtm_t *value,
                      int *dtz, bool *known);

/* At once what the probe under the rules first reads of p: its DTM and MTC, and its
 * rule table's value and distance under reading as probe_rules_fresh gives them, with one
 * lookup of the material and the index; where p is a draw, which it is under the rules
 * too, the rule table is not read and *fresh is that draw (*known true, with or without
 * rule tables). *m is p's material (material_of(p)), as the lookup found it. Returns a
 * damero status. Thread-safe. */
int probe_values(damero_tb *tb, const struct position *p, int reading, dtm_t *dtm,
                 mtc_t *mtc, dtm_t *fresh, int *dtz, bool *known, struct material *m);

/* A WDL as the public calls give it (enum damero_wdl). */
static inline int public_wdl(enum wdl w)
{
    return w == WDL_WIN ? DAMERO_WIN : w == WDL_LOSS ? DAMERO_LOSS : DAMERO_DRAW;
}

/* DTM and MTC codes as damero_probe returns them. */
static inline damero_value public_value(dtm_t dtm, mtc_t mtc)
{
    damero_value v = { public_wdl(dtm_wdl(dtm)), -1, -1 };
    if (dtm != DTM_DRAW) {
        v.dtm = dtm_plies(dtm);
        v.mtc = mtc == MTC_NONE ? -1 : mtc_plies(mtc);
    }
    return v;
}

/* public_value, with the metrics the tables do not hold marked DAMERO_NOT_BUILT. */
static inline damero_value public_built_value(dtm_t dtm, mtc_t mtc, bool has_dtm,
                                              bool has_mtc)
{
    damero_value v = public_value(dtm, mtc);
    v.dtm = has_dtm ? v.dtm : DAMERO_NOT_BUILT;
    v.mtc = has_mtc ? v.mtc : DAMERO_NOT_BUILT;
    return v;
}

#endif
