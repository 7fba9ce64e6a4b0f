/* The block cache of a probing handle: decompressed table blocks, shared by every thread
 * that probes, within a memory budget the caller sets.
 *
 * The cache is split into shards, each with its own lock, so that threads probing
 * different blocks rarely wait for each other. A lookup copies the one value it needs
 * while holding the shard's lock: no block is ever used after it has been evicted.
 * Eviction is CLOCK (second chance), which keeps the blocks probed again and again. */
#ifndef DAMERO_CACHE_H
#define DAMERO_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct block_cache;

/* A cache of at most `bytes` bytes of blocks. Returns NULL when bytes is 0 (the caller
 * then keeps nothing) or memory runs out (*failed is then set). */
struct block_cache *block_cache_create(size_t bytes, bool *failed);
void block_cache_free(struct block_cache *c);

/* When block `key` is cached, stores its value k in *value and returns true. c may be
 * NULL (nothing cached). Thread-safe. */
bool block_cache_value(struct block_cache *c, uint64_t key, uint32_t k, unsigned *value);

/* Hands a decompressed block to the cache (which frees it when it is evicted, or at once
 * when it cannot be kept) and returns its value k. `data` holds `count` values of
 * `value_bits` bits in `bytes` bytes, as table_raw_value() reads them. Thread-safe. */
unsigned block_cache_insert(struct block_cache *c, uint64_t key, uint8_t *data,
                            uint32_t value_bits, uint32_t count, size_t bytes, uint32_t k);

#endif
