/* The block cache of a probing handle: decompressed table blocks, shared by every thread
 * that probes, within a memory budget the caller sets.
 *
 * Each table file registered gets an array with a pointer per block, so that a lookup
 * is a load from that small array, one from the block's slot and one from its data:
 * random probes are bound by memory latency, and every hop saved counts. A lookup takes
 * no lock and writes nothing shared (but a slot's CLOCK mark, once per turn of the
 * hand): a slot is a sequence lock, and the lookup that raced an eviction sees it and
 * counts as a miss (cache.c says how). The blocks are split into shards, each with its
 * own lock, so that threads inserting different blocks rarely wait for each other.
 * Eviction is CLOCK (second chance), which keeps the blocks probed again and again. */
#ifndef DAMERO_CACHE_H
#define DAMERO_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct block_cache;

/* The largest cache: 1 TiB, far beyond any machine's memory today, and small enough that
 * no count of places or shards can wrap. */
#define BLOCK_CACHE_MAX_BYTES ((size_t)1 << 40)

/* A cache of at most `bytes` bytes of blocks. Its memory is taken as blocks come, so a
 * large cache is quick to make. Returns NULL when bytes is 0 (the caller then keeps
 * nothing), more than BLOCK_CACHE_MAX_BYTES or memory runs out (*failed is then set). */
struct block_cache *block_cache_create(size_t bytes, bool *failed);
void block_cache_free(struct block_cache *c);

/* Makes room for `files` files in all, so that registering them never moves what
 * lookups read. Returns 0, or -1 when memory runs out. c may be NULL. Not thread-safe:
 * call it before probing. */
int block_cache_reserve_files(struct block_cache *c, size_t files);

/* Registers a file of num_blocks blocks; returns its number for the calls below, or -1
 * when memory runs out or no room was reserved for it. c may be NULL (returns 0). Safe
 * while other threads look up and insert blocks of files registered before; calls to it
 * must not overlap each other. */
int64_t block_cache_add_file(struct block_cache *c, uint64_t num_blocks);

/* When block `block` of file `file` is cached, stores its value k in *value and returns
 * true. The block holds `count` values of `value_bits` bits (the caller knows them from
 * the table, which saves reading them from the block). c may be NULL (nothing cached).
 * Thread-safe. */
bool block_cache_value(struct block_cache *c, uint32_t file, uint64_t block,
                       uint32_t value_bits, uint32_t count, uint32_t k, unsigned *value);

/* Asks the processor to fetch what block_cache_value() will read first for block `block`
 * of `file` (its entry), without waiting for it: a batch of lookups then waits for
 * memory once rather than once each. c may be NULL. Thread-safe. */
void block_cache_prefetch_entry(struct block_cache *c, uint32_t file, uint64_t block);

/* The same for the bytes of value k (of value_bits bits), once the entry is fetched (else
 * it waits for it). Thread-safe. */
void block_cache_prefetch_value(struct block_cache *c, uint32_t file, uint64_t block,
                                uint32_t value_bits, uint32_t k);

/* A buffer for a decompressed block of `bytes` bytes, which block_cache_insert() copies
 * into the cache and frees. NULL when memory runs out. */
uint8_t *block_cache_buffer(size_t bytes);

/* Frees a block_cache_buffer() that was not inserted (NULL is allowed). */
void block_cache_discard(uint8_t *data);

/* Hands a block read into a block_cache_buffer() to the cache, which keeps a copy if it
 * can and frees the buffer, and returns its value k. `data` holds `count` values of `value_bits`
 * bits in `bytes` bytes, as table_raw_value() reads them. c may be NULL. Thread-safe. */
unsigned block_cache_insert(struct block_cache *c, uint32_t file, uint64_t block,
                            uint8_t *data, uint32_t value_bits, uint32_t count,
                            size_t bytes, uint32_t k);

#endif
