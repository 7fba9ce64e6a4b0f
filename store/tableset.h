/* The solved tables of one variant that a build or a check can read: kept in memory once
 * solved or loaded, read from the table directory when needed.
 *
 * A lookup takes any position whose material has a table (in either colour orientation)
 * or where the side to move has no piece left. */
#ifndef DAMERO_STORE_TABLESET_H
#define DAMERO_STORE_TABLESET_H

#include <stdbool.h>
#include <stddef.h>

#include "format/index.h"
#include "format/value.h"
#include "store/dtm_bytes.h"
#include "store/table_io.h"

/* One solved material: DTM and MTC for each side to move, by index (MTC NULL in a set
 * that holds DTM only). */
struct table {
    struct material m;       /* canonical */
    struct material_index ix;
    dtm_t *dtm[2];           /* indexed by side to move, then by index */
    mtc_t *mtc[2];
    /* Instead of dtm[] (then NULL), in a dtm_only set for a table read from its files:
     * the DTM in a byte a position, the few codes that do not fit in a list beside (a
     * little over half the memory). Read through tableset_value. */
    struct dtm_bytes dtm8[2];
};

struct tableset {
    const struct variant *v;
    const char *dir;         /* the variant's table directory, NULL to keep tables in memory only */
    bool dtm_only;           /* hold finished tables without their MTC (mtc[] NULL), and
                              * those read from files with their DTM in bytes (dtm8[]):
                              * the solver reads only DTM, so a build holds a quarter as
                              * much */
    bool wdl_only;           /* tables are built without DTM (damero gen --metrics wdl,
                              * or wdl+mtc with with_mtc): a finished table is read from
                              * its WDL file (flagged TABLE_FLAG_WDL_ONLY) into dtm8[] as
                              * the codes of a win or loss in 0 plies, or from its DTM file
                              * when it has one (set dtm_only too) */
    bool with_mtc;           /* with wdl_only: the build writes MTC beside the WDL (damero
                              * gen --metrics wdl+mtc), which needs only who wins; and a
                              * table read without dtm_only gets its MTC too */
    double levels_held_most; /* bytes: a material being built whose levels take at most
                              * this much holds them in memory rather than in level files
                              * (gen/level_file.h); 0 writes every level to a file */
    struct table *by_code[MATERIAL_CODES]; /* by material_code() of the canonical material */
};

/* index_init on all the OpenMP threads: the symmetry classes of a large kings-only
 * material take seconds to find on one. Returns 0, or -1 when memory runs out. */
int tableset_index_init(struct material_index *ix, const struct variant *v,
                        const struct material *m);

/* The default of levels_held_most: a material whose levels fit in it solves in
 * seconds, so that a killed build loses little by solving it again. */
#define LEVELS_HELD_DEFAULT (64.0 * 1024 * 1024)

/* An empty set for variant v. dir is where table files are read (and written by a
 * build): usually "tables/<variant>". NULL keeps everything in memory. */
void tableset_init(struct tableset *ts, const struct variant *v, const char *dir);
void tableset_free(struct tableset *ts);

/* The table of canonical material m: already in memory, or read from its files (checking
 * them). Returns NULL with a sentence in err when there is none or it cannot be read (one
 * that says so when the table was built WDL-only and DTM is wanted).
 * Not thread-safe (it may add to the set); look up first, then share. */
const struct table *tableset_get(struct tableset *ts, const struct material *m, char *err,
                                 size_t err_size);

/* Makes sure the table of every material a move from m can reach (material_successors)
 * is in memory, reading it when needed. Returns 0, or -1 with a sentence in err. */
int tableset_get_successors(struct tableset *ts, const struct material *m, char *err,
                            size_t err_size);

/* The table of canonical material m if it is in memory, else NULL. Thread-safe. */
const struct table *tableset_find(const struct tableset *ts, const struct material *m);

/* Frees the table of canonical material m, if it is in memory; with ts->dir set, the
 * next tableset_get() reads it again. Not thread-safe. */
void tableset_forget(struct tableset *ts, const struct material *m);

/* Adds a table solved by the caller; the set owns it from now on (and frees its MTC in a
 * dtm_only set). Returns 0, or -1 when memory runs out. */
int tableset_add(struct tableset *ts, struct table *t);

/* The DTM of index i of table t, `side` to move, wherever t holds it (dtm[] or dtm8[]). */
static inline dtm_t table_dtm(const struct table *t, enum side side, uint64_t i)
{
    return t->dtm8[0].bytes ? dtm_bytes_get(&t->dtm8[side], i) : t->dtm[side][i];
}

/* The DTM and MTC of p for its side to move (either may be NULL; ask for MTC only in a
 * set that holds it, not dtm_only). A position where the
 * side to move has no piece left, or where the variant's rule on lone pieces ends the
 * game, is the end of the game. Returns 0, or -1 when p's material is not in memory.
 * Thread-safe. */
int tableset_value(const struct tableset *ts, const struct position *p, dtm_t *dtm,
                   mtc_t *mtc);

/* Whether a build of ts writes the file of `metric` (WDL, DTM or MTC): WDL always, DTM
 * unless it is built without (wdl_only), MTC unless it is built WDL alone. */
bool tableset_builds(const struct tableset *ts, enum table_metric metric);

/* Whether m's WDL file in ts->dir is that of a table built without DTM (flagged
 * TABLE_FLAG_WDL_ONLY: damero gen --metrics wdl or wdl+mtc). */
bool tableset_built_without_dtm(const struct tableset *ts, const struct material *m);

/* Whether m's file of one metric is in ts->dir, intact or not. */
bool tableset_has_file(const struct tableset *ts, const struct material *m,
                       enum table_metric metric);

/* The path of material m's file of one metric in ts->dir ("dir/KKvK.dtm"). */
void tableset_path(const struct tableset *ts, const struct material *m,
                   enum table_metric metric, char *path, size_t path_size);

/* Reads material m's file of one metric whole (as table_file_read) and checks that it is
 * that table: variant, material, metric, index version, and `positions` per side.
 * Returns 0, or -1 with a sentence in err. */
int tableset_read_file(const struct tableset *ts, const struct material *m,
                       enum table_metric metric, uint64_t positions,
                       struct table_file_info *info, void *values[2], char *err,
                       size_t err_size);

/* Checks material m's file of one metric whole (identity, every block, the checksum)
 * without holding its values: a few megabytes at a time. Returns 0, or -1 with a
 * sentence in err. */
int tableset_check_file(const struct tableset *ts, const struct material *m,
                        enum table_metric metric, uint64_t positions, char *err,
                        size_t err_size);

/* The bytes table t holds in memory, both sides (its values, not its index). */
double table_held_bytes(const struct table *t);

/* Frees a table not (or no longer) owned by a set. */
void table_free(struct table *t);

#endif
