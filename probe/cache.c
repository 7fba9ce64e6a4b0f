#include "probe/cache.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "format/tablefile.h"

#define MIN_SHARD_BYTES (256 * 1024) /* several of the largest blocks */
#define MAX_SHARDS 64
#define SMALLEST_COMMON_BLOCK 2048   /* a full WDL block */

struct cached_block {
    uint64_t block;
    uint32_t file;
    uint32_t bytes;
    uint8_t data[];
};

/* A pointer to a cached block, with REFERENCED set when it was probed since the clock
 * hand last passed; 0 when the block is not cached. */
typedef uintptr_t block_ref;
#define REFERENCED ((block_ref)1)

static struct cached_block *block_of(block_ref r)
{
    return (struct cached_block *)(r & ~REFERENCED);
}

struct shard {
    pthread_mutex_t lock;
    struct cached_block **ring; /* the blocks this shard holds, NULL for a free place */
    size_t length;              /* places in the ring so far: it grows as blocks come */
    size_t allocated;           /* room for places (array_reserve) */
    size_t most_places;         /* how long the ring may grow */
    size_t hand;
    size_t bytes, budget;
};

struct block_cache {
    block_ref **blocks;            /* by file, then block number */
    size_t num_files, files_capacity;
    int num_shards;                /* a power of two */
    struct shard shards[];
};

static struct shard *shard_of(struct block_cache *c, uint32_t file, uint64_t block)
{
    uint64_t h = ((uint64_t)file << 40 ^ block) * 0x9e3779b97f4a7c15ull;
    return &c->shards[(h >> 40) & (uint64_t)(c->num_shards - 1)]; /* a mask: no division */
}

/* A shard of `budget` bytes. Its ring is allocated as blocks come, so that a large cache
 * costs nothing until it fills. */
static int shard_init(struct shard *s, size_t budget)
{
    if (pthread_mutex_init(&s->lock, NULL) != 0)
        return -1;
    s->most_places = budget / SMALLEST_COMMON_BLOCK + 16;
    s->budget = budget;
    return 0;
}

static void shard_free(struct shard *s)
{
    for (size_t e = 0; e < s->length; e++)
        free(s->ring[e]);
    free(s->ring);
    pthread_mutex_destroy(&s->lock);
}

struct block_cache *block_cache_create(size_t bytes, bool *failed)
{
    *failed = false;
    if (bytes == 0 || bytes > BLOCK_CACHE_MAX_BYTES) {
        *failed = bytes != 0;
        return NULL;
    }
    int n = 1;
    while (n < MAX_SHARDS && bytes / (size_t)(2 * n) >= MIN_SHARD_BYTES)
        n *= 2;
    struct block_cache *c = calloc(1, sizeof *c + (size_t)n * sizeof c->shards[0]);
    if (!c) {
        *failed = true;
        return NULL;
    }
    for (; c->num_shards < n; c->num_shards++)
        if (shard_init(&c->shards[c->num_shards], bytes / (size_t)n) < 0) {
            block_cache_free(c);
            *failed = true;
            return NULL;
        }
    return c;
}

void block_cache_free(struct block_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->num_shards; i++)
        shard_free(&c->shards[i]);
    for (size_t f = 0; f < c->num_files; f++)
        free(c->blocks[f]);
    free(c->blocks);
    free(c);
}

int block_cache_reserve_files(struct block_cache *c, size_t files)
{
    if (!c)
        return 0;
    return array_reserve(&c->blocks, &c->files_capacity, files, sizeof *c->blocks);
}

int64_t block_cache_add_file(struct block_cache *c, uint64_t num_blocks)
{
    if (!c)
        return 0;
    /* never grown here: lookups may be reading c->blocks */
    if (c->num_files >= c->files_capacity ||
        !(c->blocks[c->num_files] = calloc(num_blocks + 1, sizeof **c->blocks)))
        return -1;
    return (int64_t)c->num_files++;
}

bool block_cache_value(struct block_cache *c, uint32_t file, uint64_t block,
                       uint32_t value_bits, uint32_t count, uint32_t k, unsigned *value)
{
    if (!c)
        return false;
    struct shard *s = shard_of(c, file, block);
    pthread_mutex_lock(&s->lock);
    block_ref r = c->blocks[file][block];
    if (r) {
        *value = table_raw_value(value_bits, block_of(r)->data, count, k);
        if (!(r & REFERENCED))
            c->blocks[file][block] = r | REFERENCED;
    }
    pthread_mutex_unlock(&s->lock);
    return r != 0;
}

/* A new place at the end of the ring, while it may still grow; -1 when it may not (or
 * memory runs out: the clock then reuses the places there are). */
static ptrdiff_t grow_ring(struct shard *s)
{
    if (s->length == s->most_places ||
        array_reserve(&s->ring, &s->allocated, s->length + 1, sizeof *s->ring) < 0)
        return -1;
    s->ring[s->length] = NULL;
    return (ptrdiff_t)s->length++;
}

/* Finds a place for `bytes` more: a new one while they fit in the budget and the ring may
 * grow, else with the clock, evicting until they fit. Returns the place, or -1 when they
 * cannot fit even in an empty shard. */
static ptrdiff_t make_room(struct block_cache *c, struct shard *s, size_t bytes)
{
    if (bytes > s->budget)
        return -1;
    ptrdiff_t place;
    if (s->bytes + bytes <= s->budget && (place = grow_ring(s)) >= 0)
        return place;
    if (s->length == 0)
        return -1;
    for (;;) {
        place = (ptrdiff_t)s->hand;
        struct cached_block *b = s->ring[place];
        s->hand = (s->hand + 1) % s->length;
        if (b) {
            block_ref *r = &c->blocks[b->file][b->block];
            if (*r & REFERENCED) {
                *r &= ~REFERENCED;
                continue;
            }
            *r = 0;
            s->bytes -= b->bytes;
            free(b);
            s->ring[place] = NULL;
        }
        if (s->bytes + bytes <= s->budget)
            return place;
    }
}

static struct cached_block *block_of_data(uint8_t *data)
{
    return (struct cached_block *)(data - offsetof(struct cached_block, data));
}

uint8_t *block_cache_buffer(size_t bytes)
{
    struct cached_block *b = malloc(sizeof *b + bytes);
    return b ? b->data : NULL;
}

void block_cache_discard(uint8_t *data)
{
    if (data)
        free(block_of_data(data));
}

unsigned block_cache_insert(struct block_cache *c, uint32_t file, uint64_t block,
                            uint8_t *data, uint32_t value_bits, uint32_t count,
                            size_t bytes, uint32_t k)
{
    unsigned value = table_raw_value(value_bits, data, count, k);
    struct cached_block *b = block_of_data(data);
    if (c) {
        struct shard *s = shard_of(c, file, block);
        ptrdiff_t place;
        b->block = block;
        b->file = file;
        b->bytes = (uint32_t)bytes;
        pthread_mutex_lock(&s->lock);
        /* another thread may have brought the same block meanwhile; a block that cannot
         * be kept is read again by the next probe */
        if (!c->blocks[file][block] && (place = make_room(c, s, bytes)) >= 0) {
            s->ring[place] = b;
            s->bytes += bytes;
            c->blocks[file][block] = (block_ref)b | REFERENCED;
            b = NULL;
        }
        pthread_mutex_unlock(&s->lock);
    }
    free(b);
    return value;
}
