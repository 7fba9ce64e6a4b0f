/* A side's DTM codes held for reading in a byte each: what a build keeps of the finished
 * tables it reads (their successors' values), since those are most of its memory.
 *
 * A code that does not fit in a byte (a win or loss of more than 126 plies: rare, the
 * long wins of the largest materials) is marked DTM_BYTE_ESCAPED in its byte and kept in
 * a list beside, in increasing index order, found by binary search. */
#ifndef DAMERO_STORE_DTM_BYTES_H
#define DAMERO_STORE_DTM_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include "format/value.h"

#define DTM_BYTE_ESCAPED 255 /* the code is in the escape list (255 itself included) */

struct dtm_bytes {
    uint8_t *bytes;           /* one per index */
    uint64_t *escaped;        /* for each index whose byte is DTM_BYTE_ESCAPED, in
                                 increasing order: the index << 16 | its code */
    size_t escapes, capacity;
};

/* Empty values for n indices, to be filled with dtm_bytes_put in increasing index order.
 * Returns 0, or -1 when memory runs out. */
int dtm_bytes_init(struct dtm_bytes *d, uint64_t n);
void dtm_bytes_free(struct dtm_bytes *d);

/* Sets the code of index i (below 2^48); the indices must come in increasing order.
 * Returns 0, or -1 when memory runs out. */
static inline int dtm_bytes_put(struct dtm_bytes *d, uint64_t i, dtm_t code);

/* The code of index i. Thread-safe once filled. */
static inline dtm_t dtm_bytes_get(const struct dtm_bytes *d, uint64_t i);

/* Puts `count` codes of `side` from index `first` into context, a struct dtm_bytes[2]:
 * a table_block_taker (store/table_io.h) for reading a DTM file's values, `width` bytes
 * each, into bytes. Returns 0, or TABLE_ERR_MEMORY. */
int dtm_bytes_take(void *context, int side, uint64_t first, const void *values, uint32_t count,
                   size_t width);

/* The bytes held beyond one per index (the escape list). */
size_t dtm_bytes_extra(const struct dtm_bytes *d);

/* ---- inline parts ---- */

int dtm_bytes_escape(struct dtm_bytes *d, uint64_t i, dtm_t code);
dtm_t dtm_bytes_escaped_code(const struct dtm_bytes *d, uint64_t i);

static inline int dtm_bytes_put(struct dtm_bytes *d, uint64_t i, dtm_t code)
{
    if (code < DTM_BYTE_ESCAPED) {
        d->bytes[i] = (uint8_t)code;
        return 0;
    }
    return dtm_bytes_escape(d, i, code);
}

static inline dtm_t dtm_bytes_get(const struct dtm_bytes *d, uint64_t i)
{
    uint8_t b = d->bytes[i];
    return b != DTM_BYTE_ESCAPED ? b : dtm_bytes_escaped_code(d, i);
}

#endif
