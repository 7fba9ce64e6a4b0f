#include "store/dtm_bytes.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "format/tablefile.h"

int dtm_bytes_init(struct dtm_bytes *d, uint64_t n)
{
    memset(d, 0, sizeof *d);
    d->bytes = malloc(n + 1);
    return d->bytes ? 0 : -1;
}

void dtm_bytes_free(struct dtm_bytes *d)
{
    free(d->bytes);
    free(d->escaped);
    memset(d, 0, sizeof *d);
}

int dtm_bytes_escape(struct dtm_bytes *d, uint64_t i, dtm_t code)
{
    if (array_reserve(&d->escaped, &d->capacity, d->escapes + 1, sizeof *d->escaped) < 0)
        return -1;
    d->bytes[i] = DTM_BYTE_ESCAPED;
    d->escaped[d->escapes++] = i << 16 | code;
    return 0;
}

dtm_t dtm_bytes_escaped_code(const struct dtm_bytes *d, uint64_t i)
{
    size_t lo = 0, hi = d->escapes; /* the index is in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->escaped[mid] >> 16 <= i)
            lo = mid;
        else
            hi = mid;
    }
    return (dtm_t)(d->escaped[lo] & 0xffff);
}

size_t dtm_bytes_extra(const struct dtm_bytes *d)
{
    return d->capacity * sizeof *d->escaped;
}

int dtm_bytes_take(void *context, int side, uint64_t first, const void *values, uint32_t count,
                   size_t width)
{
    struct dtm_bytes *d = &((struct dtm_bytes *)context)[side];
    for (uint32_t k = 0; k < count; k++) {
        dtm_t code = width == 2 ? ((const uint16_t *)values)[k] : ((const uint8_t *)values)[k];
        if (dtm_bytes_put(d, first + k, code) < 0)
            return TABLE_ERR_MEMORY;
    }
    return TABLE_OK;
}
