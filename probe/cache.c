#define _DEFAULT_SOURCE /* MADV_HUGEPAGE in sys/mman.h */
#include "probe/cache.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/array.h"
#include "format/tablefile.h"

/* Blocks are stored in pages of PAGE_BYTES (a full WDL block takes one; a DTM or MTC
 * block, at most TABLE_MAX_BLOCK_BYTES, several), carved out of chunks of CHUNK_BYTES:
 * the size of a huge page, so that random probes over a large cache do not also miss
 * the TLB on every block (measured: bench/JOURNAL.md, issue 14). Pages all being the
 * same size, a block evicted always leaves room that any other block can use. */
#define PAGE_BYTES 2048
#define PAGE_WORDS (PAGE_BYTES / 8)
#define MAX_PAGES (TABLE_MAX_BLOCK_BYTES / PAGE_BYTES)
#define CHUNK_BYTES ((size_t)2 << 20)
#define MIN_SHARD_BYTES CHUNK_BYTES /* a shard takes whole chunks */
#define MAX_SHARDS 64
#define NO_FILE UINT32_MAX

/* A page's words are atomic: a probe may read a page while an insert rewrites it for
 * another block, and then sees that its block's entry changed (below) and ignores what
 * it read. */
typedef _Atomic uint64_t page_word;

/* The CLOCK's place for one cached block, or none. Written and read under the shard's
 * lock, but for the page list, which lookups of blocks of several pages read. Slots and
 * pages are never freed while the cache lives, only reused, so a lookup that raced an
 * eviction reads memory that is still the cache's. */
struct slot {
    uint32_t file;                  /* NO_FILE when the slot holds no block */
    uint32_t num_pages;
    uint64_t block;
    _Atomic(page_word *) page[MAX_PAGES];
};

/* Where a block is, read without a lock, like a sequence lock: `seq` changes whenever
 * the block is evicted (so its pages may be reused), and a lookup that reads the same
 * seq before and after reading the value read the block's own bytes. `where` is the
 * block's first page when its pages follow each other in memory (one page, or a run:
 * no hop through the slot), its slot with SEVERAL_PAGES set when they are scattered,
 * NULL when the block is not cached; REFERENCED
 * is the CLOCK's mark, set when the block was probed since the hand last passed. */
struct block_entry {
    _Atomic uint64_t seq;
    atomic_uintptr_t where;
};
#define SEVERAL_PAGES ((uintptr_t)1)
#define REFERENCED ((uintptr_t)2)
#define WHERE_BITS (SEVERAL_PAGES | REFERENCED) /* pages and slots are aligned to more */

struct shard {
    pthread_mutex_t lock;       /* held to insert and evict; lookups take none */
    struct slot **ring;         /* the CLOCK's places: slots, full or empty */
    size_t length, allocated, most_places;
    size_t hand;
    struct slot **empty;        /* the empty slots of the ring, a stack */
    size_t num_empty, empty_allocated;
    page_word **free_pages;     /* a stack */
    size_t num_free, free_allocated;
    void **chunks;              /* every chunk taken, to free at the end */
    size_t num_chunks, chunks_allocated;
    size_t bytes_taken, budget; /* chunks' bytes taken so far, and at most */
};

struct block_cache {
    struct block_entry **blocks;   /* by file, then block number */
    size_t num_files, files_capacity;
    int num_shards;                /* a power of two */
    struct shard shards[];
};

static struct shard *shard_of(struct block_cache *c, uint32_t file, uint64_t block)
{
    uint64_t h = ((uint64_t)file << 40 ^ block) * 0x9e3779b97f4a7c15ull;
    return &c->shards[(h >> 40) & (uint64_t)(c->num_shards - 1)]; /* a mask: no division */
}

/* A shard of `budget` bytes. Its memory is taken as blocks come, so that a large cache
 * costs nothing until it fills. */
static int shard_init(struct shard *s, size_t budget)
{
    if (pthread_mutex_init(&s->lock, NULL) != 0)
        return -1;
    s->most_places = budget / PAGE_BYTES;
    s->budget = budget;
    return 0;
}

static void shard_free(struct shard *s)
{
    for (size_t e = 0; e < s->length; e++)
        free(s->ring[e]);
    for (size_t k = 0; k < s->num_chunks; k++)
        free(s->chunks[k]);
    free(s->ring);
    free(s->empty);
    free(s->free_pages);
    free(s->chunks);
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

/* Byte `offset` of the block at `where`, or -1 when a page is missing (the slot is
 * changing: the caller then finds seq changed too). Acquire loads, so that the caller's
 * second look at seq comes after them. */
static int block_byte(uintptr_t where, uint32_t offset)
{
    page_word *page = (page_word *)(where & ~WHERE_BITS); /* the block's run of pages */
    uint32_t in_page = offset;
    if (where & SEVERAL_PAGES) {
        struct slot *e = (struct slot *)(where & ~WHERE_BITS);
        if (offset / PAGE_BYTES >= MAX_PAGES ||
            !(page = atomic_load_explicit(&e->page[offset / PAGE_BYTES], memory_order_acquire)))
            return -1;
        in_page = offset % PAGE_BYTES;
    }
    uint64_t word = atomic_load_explicit(&page[in_page / 8], memory_order_acquire);
    return (int)(word >> (8 * (in_page % 8)) & 0xff);
}

/* Value k of the block at `where`, read as table_raw_value() reads a block's bytes;
 * false when a page is missing. */
static bool block_value(uintptr_t where, uint32_t value_bits, uint32_t count, uint32_t k,
                        unsigned *value)
{
    int low = block_byte(where, value_bits == 2 ? k >> 2 : k);
    if (low < 0)
        return false;
    if (value_bits == 2) {
        *value = (unsigned)(low >> (2 * (k & 3))) & 3;
        return true;
    }
    if (value_bits == 8) {
        *value = (unsigned)low;
        return true;
    }
    int high = block_byte(where, count + k);
    *value = (unsigned)low | (unsigned)high << 8;
    return high >= 0;
}

bool block_cache_value(struct block_cache *c, uint32_t file, uint64_t block,
                       uint32_t value_bits, uint32_t count, uint32_t k, unsigned *value)
{
    if (!c)
        return false;
    struct block_entry *entry = &c->blocks[file][block];
    uint64_t seq = atomic_load_explicit(&entry->seq, memory_order_acquire);
    uintptr_t where = atomic_load_explicit(&entry->where, memory_order_acquire);
    unsigned v;
    /* a block evicted under the lookup counts as a miss: it is read again */
    if (!where || !block_value(where, value_bits, count, k, &v) ||
        atomic_load_explicit(&entry->seq, memory_order_relaxed) != seq)
        return false;
    /* the mark is set once per turn of the hand: lookups seldom write */
    if (!(where & REFERENCED))
        atomic_compare_exchange_strong_explicit(&entry->where, &where, where | REFERENCED,
                                                memory_order_relaxed, memory_order_relaxed);
    *value = v;
    return true;
}

void block_cache_prefetch_entry(struct block_cache *c, uint32_t file, uint64_t block)
{
    if (c)
        __builtin_prefetch(&c->blocks[file][block]);
}

void block_cache_prefetch_value(struct block_cache *c, uint32_t file, uint64_t block,
                                uint32_t value_bits, uint32_t k)
{
    if (!c)
        return;
    uintptr_t where = atomic_load_explicit(&c->blocks[file][block].where, memory_order_relaxed);
    uint32_t offset = value_bits == 2 ? k >> 2 : k;
    /* a slot of scattered pages is read first: the bytes wait for the lookup */
    if (where && !(where & SEVERAL_PAGES))
        __builtin_prefetch((const char *)(where & ~WHERE_BITS) + offset);
    else if ((where & SEVERAL_PAGES) && offset / PAGE_BYTES < MAX_PAGES)
        __builtin_prefetch(&((struct slot *)(where & ~WHERE_BITS))->page[offset / PAGE_BYTES]);
}

/* One more chunk of pages for s, while its budget allows; -1 when it does not (or memory
 * runs out). Chunks of a full huge page are aligned to one and marked for huge pages. */
static int add_chunk(struct shard *s)
{
    size_t bytes = s->budget - s->bytes_taken;
    void *chunk;
    bytes = (bytes < CHUNK_BYTES ? bytes : CHUNK_BYTES) / PAGE_BYTES * PAGE_BYTES;
    if (bytes == 0 ||
        array_reserve(&s->chunks, &s->chunks_allocated, s->num_chunks + 1, sizeof *s->chunks) < 0 ||
        /* room for every page taken: all may be free at once */
        array_reserve(&s->free_pages, &s->free_allocated,
                      (s->bytes_taken + bytes) / PAGE_BYTES, sizeof *s->free_pages) < 0 ||
        posix_memalign(&chunk, bytes == CHUNK_BYTES ? CHUNK_BYTES : 64, bytes) != 0)
        return -1;
#ifdef MADV_HUGEPAGE
    if (bytes == CHUNK_BYTES)
        madvise(chunk, bytes, MADV_HUGEPAGE); /* a hint: without it, ordinary pages */
#endif
    s->chunks[s->num_chunks++] = chunk;
    s->bytes_taken += bytes;
    for (size_t k = bytes / PAGE_BYTES; k-- > 0;)
        s->free_pages[s->num_free++] = (page_word *)((char *)chunk + k * PAGE_BYTES);
    return 0;
}

/* Empties slot e of the ring: its pages go back to the shard, after its block's entry
 * is cleared and its seq changed (release: before the pages are written again), so that
 * lookups that read the entry before see the change. */
static void evict(struct block_cache *c, struct shard *s, struct slot *e)
{
    struct block_entry *entry = &c->blocks[e->file][e->block];
    atomic_store_explicit(&entry->where, 0, memory_order_relaxed);
    atomic_store_explicit(&entry->seq, atomic_load_explicit(&entry->seq, memory_order_relaxed) + 1,
                          memory_order_release);
    /* the last first: the next block taking them gets them in order, one run again */
    for (uint32_t p = e->num_pages; p-- > 0;)
        s->free_pages[s->num_free++] = atomic_load_explicit(&e->page[p], memory_order_relaxed);
    e->num_pages = 0;
    e->file = NO_FILE;
    s->empty[s->num_empty++] = e; /* room made when the slot joined the ring */
}

/* Evicts blocks by the CLOCK (second chance) until `pages` pages are free; false when
 * they cannot be (every slot already empty). */
static bool evict_until(struct block_cache *c, struct shard *s, size_t pages)
{
    /* two turns of the hand clear every mark and evict every block */
    for (size_t steps = 0; s->num_free < pages; steps++) {
        if (steps > 2 * s->length || s->length == 0)
            return false;
        struct slot *e = s->ring[s->hand];
        s->hand = (s->hand + 1) % s->length;
        if (e->file == NO_FILE)
            continue;
        /* lookups set the mark meanwhile: cleared by an atomic and */
        if (atomic_fetch_and_explicit(&c->blocks[e->file][e->block].where, ~REFERENCED,
                                      memory_order_relaxed) & REFERENCED)
            continue;
        evict(c, s, e);
    }
    return true;
}

/* A new empty slot at the end of the ring, while it may grow; NULL when it may not or
 * memory runs out. */
static struct slot *grow_ring(struct shard *s)
{
    struct slot *e;
    if (s->length == s->most_places ||
        array_reserve(&s->ring, &s->allocated, s->length + 1, sizeof *s->ring) < 0 ||
        array_reserve(&s->empty, &s->empty_allocated, s->length + 1, sizeof *s->empty) < 0 ||
        !(e = calloc(1, sizeof *e)))
        return NULL;
    e->file = NO_FILE;
    s->ring[s->length++] = e;
    return e;
}

/* An empty slot and `pages` free pages: fresh memory while the budget allows, else
 * room the CLOCK makes. NULL when the block cannot be kept. */
static struct slot *make_room(struct block_cache *c, struct shard *s, size_t pages)
{
    if (pages > s->budget / PAGE_BYTES)
        return NULL;
    while (s->num_free < pages && add_chunk(s) == 0)
        ;
    if (!evict_until(c, s, pages))
        return NULL;
    /* every block takes a page, so a full ring has no free page: one is empty or can grow */
    return s->num_empty > 0 ? s->empty[--s->num_empty] : grow_ring(s);
}

/* The 8 bytes of data from `first` on as a word, the first the lowest; bytes from
 * `bytes` on count as 0. */
static uint64_t little_endian_word(const uint8_t *data, size_t first, size_t bytes)
{
    uint64_t word = 0;
    if (first + 8 <= bytes) { /* the common case, which the compiler makes one load */
        for (size_t b = 0; b < 8; b++)
            word |= (uint64_t)data[first + b] << (8 * b);
        return word;
    }
    for (size_t b = 0; first + b < bytes; b++)
        word |= (uint64_t)data[first + b] << (8 * b);
    return word;
}

/* Fills the empty slot e with block `block` of `file` (`bytes` bytes at data), pages
 * taken from s, and returns where lookups find it (struct block_entry): its first page
 * when the pages follow each other in memory (one page, or pages taken in order from a
 * fresh chunk or from one evicted block), else the slot with its list of pages. The bytes are
 * packed little-endian into the words, as block_byte() reads them, whatever the
 * machine's byte order; release stores, so that a lookup that reads them sees the
 * eviction that freed the pages before. */
static uintptr_t fill(struct shard *s, struct slot *e, uint32_t file, uint64_t block,
                      const uint8_t *data, size_t bytes)
{
    e->file = file;
    e->block = block;
    e->num_pages = (uint32_t)((bytes + PAGE_BYTES - 1) / PAGE_BYTES);
    for (uint32_t p = 0; p < e->num_pages; p++) {
        page_word *page = s->free_pages[--s->num_free];
        atomic_store_explicit(&e->page[p], page, memory_order_release);
        for (size_t w = 0; w < PAGE_WORDS; w++) {
            size_t first = (size_t)p * PAGE_BYTES + 8 * w;
            atomic_store_explicit(&page[w], little_endian_word(data, first, bytes),
                                  memory_order_release);
        }
    }
    page_word *first = atomic_load_explicit(&e->page[0], memory_order_relaxed);
    for (uint32_t p = 1; p < e->num_pages; p++)
        if (atomic_load_explicit(&e->page[p], memory_order_relaxed) != first + p * PAGE_WORDS)
            return (uintptr_t)e | SEVERAL_PAGES;
    return (uintptr_t)first;
}

uint8_t *block_cache_buffer(size_t bytes)
{
    return malloc(bytes);
}

void block_cache_discard(uint8_t *data)
{
    free(data);
}

unsigned block_cache_insert(struct block_cache *c, uint32_t file, uint64_t block,
                            uint8_t *data, uint32_t value_bits, uint32_t count,
                            size_t bytes, uint32_t k)
{
    unsigned value = table_raw_value(value_bits, data, count, k);
    if (c) {
        struct shard *s = shard_of(c, file, block);
        struct block_entry *entry = &c->blocks[file][block];
        struct slot *e;
        pthread_mutex_lock(&s->lock);
        /* another thread may have brought the same block meanwhile; a block that cannot
         * be kept is read again by the next probe */
        if (!atomic_load_explicit(&entry->where, memory_order_relaxed) &&
            (e = make_room(c, s, (bytes + PAGE_BYTES - 1) / PAGE_BYTES)))
            atomic_store_explicit(&entry->where, fill(s, e, file, block, data, bytes) | REFERENCED,
                                  memory_order_release);
        pthread_mutex_unlock(&s->lock);
    }
    free(data);
    return value;
}
