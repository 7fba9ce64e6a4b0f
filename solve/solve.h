/* Retrograde analysis of one material: DTM and MTC for both sides to move.
 *
 * Man moves cannot be undone, so the men configurations are solved from the most
 * advanced down, all those equally advanced together; within them only king moves are
 * iterated. Captures, man moves and promotions read values already known: of a finished
 * material, or of a more advanced configuration of this one. The work on each group is
 * spread over OpenMP threads, and the result does not depend on how many there are. */
#ifndef DAMERO_SOLVE_SOLVE_H
#define DAMERO_SOLVE_SOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solve/progress.h"
#include "store/tableset.h"

/* The levels of men advancement of a material, most advanced first: level k holds the
 * men configurations order[start[k]] to order[start[k + 1] - 1], in increasing order
 * (a level may be empty). A man's quiet step leads from level k to level k - 1. A level's
 * values are held by place: configuration c's positions are place[c] * per_config to
 * place[c] * per_config + per_config - 1 in its level, in the order of their indices. */
struct material_levels {
    uint64_t *order;     /* men configurations, level by level */
    uint64_t *start;     /* count + 1 entries */
    uint64_t *place;     /* by men configuration: its place among its level's */
    int count;
    uint64_t per_config; /* positions per men configuration */
};

/* Fills *out for the material of ix. Returns 0, or -1 when memory runs out. */
int material_levels(const struct material_index *ix, struct material_levels *out);
void material_levels_free(struct material_levels *l);

/* The positions per side to move of the largest level. */
uint64_t material_levels_largest(const struct material_levels *l);

/* WDL in two bits a position, four to a byte, the first position in the low bits: how
 * a WDL-only build holds and keeps a level. */
static inline uint64_t wdl_packed_bytes(uint64_t positions) { return (positions + 3) / 4; }
static inline enum wdl wdl_packed_at(const uint8_t *packed, uint64_t j)
{
    return (enum wdl)((packed[j / 4] >> (2 * (j % 4))) & 3);
}

/* A level just solved: positions per side to move, by place in the level. A build
 * without DTM with a store solves in two bits a position: it has wdl[], and mtc[] when
 * it builds MTC too, and no other values. */
struct finished_level {
    int rank;                  /* its number in struct material_levels */
    uint64_t positions;
    const dtm_t *dtm[2];       /* by side to move */
    const mtc_t *mtc[2];       /* NULL in a build without MTC (--metrics wdl) */
    const uint8_t *captures[2]; /* nonzero where the side to move must capture */
    const uint8_t *wdl[2];     /* a two-bit build's, wdl_packed_at; else NULL */
};

/* Where a build keeps each level as soon as it is solved, so that memory holds only the
 * level in flight, and where a killed build finds the levels it finished. Each function
 * returns 0, or -1 with a sentence in err (has: whether level `rank` of `positions`
 * positions per side is kept whole). */
struct level_store {
    void *context;
    bool (*has)(void *context, int rank, uint64_t positions);
    /* the DTM of a level; in a WDL-only build its two-bit WDL into wdl (dtm NULL) */
    int (*read_values)(void *context, int rank, uint64_t positions, dtm_t *dtm[2],
                       uint8_t *wdl[2], char *err, size_t err_size);
    int (*put)(void *context, const struct finished_level *level, char *err,
               size_t err_size);
};

/* Solves canonical material m, whose successors (material_successors) must all be in
 * memory in ts. Level by level, most advanced first, it holds the working values of one
 * level and the finished DTM of the one before. With a store, each finished level goes
 * to it, and the levels it has already are not solved again (resuming a killed build):
 * *out then holds the material and its index only; a set without DTM (ts->wdl_only) is
 * then solved in two bits a position, WDL without distances, and its MTC (ts->with_mtc)
 * from those two bits. Without one, *out gets every value (dtm[] and mtc[]; in a set
 * without MTC the MTC pass is skipped and mtc[] unused). On success returns 0 (free *out with table_free, or give it to ts
 * with tableset_add). Returns -1 with a sentence in err when memory runs out or the store
 * fails. progress (may be NULL) hears between levels, on the calling thread. */
int solve_material(const struct tableset *ts, const struct material *m,
                   const struct level_store *store, const struct progress_report *progress,
                   struct table *out, char *err, size_t err_size);

#endif
