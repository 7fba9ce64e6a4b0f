/* The handle's statistics: values found in the block cache or not, and the blocks and
 * bytes the probes read (damero_read_cache_stats). The probes count them with the
 * inline probe_count_lookup and probe_count_block of probe/internal.h, each thread in a
 * stripe of its own; reading sums the stripes. */
#include "probe/internal.h"

int damero_read_cache_stats(const damero_tb *tb, damero_cache_stats *stats)
{
    if (!tb || !stats)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_read_cache_stats: a NULL argument");
    *stats = (damero_cache_stats){ 0 };
    for (int k = 0; k < STATS_STRIPES; k++) {
        const struct stats_stripe *s = &tb->stats[k];
        stats->hits += atomic_load_explicit(&s->hits, memory_order_relaxed);
        stats->misses += atomic_load_explicit(&s->misses, memory_order_relaxed);
        stats->blocks_read += atomic_load_explicit(&s->blocks_read, memory_order_relaxed);
        stats->bytes_read += atomic_load_explicit(&s->bytes_read, memory_order_relaxed);
        stats->bytes_decompressed +=
            atomic_load_explicit(&s->bytes_decompressed, memory_order_relaxed);
    }
    return DAMERO_OK;
}

int damero_reset_cache_stats(damero_tb *tb)
{
    if (!tb)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_reset_cache_stats: a NULL argument");
    for (int k = 0; k < STATS_STRIPES; k++) {
        struct stats_stripe *s = &tb->stats[k];
        atomic_store_explicit(&s->hits, 0, memory_order_relaxed);
        atomic_store_explicit(&s->misses, 0, memory_order_relaxed);
        atomic_store_explicit(&s->blocks_read, 0, memory_order_relaxed);
        atomic_store_explicit(&s->bytes_read, 0, memory_order_relaxed);
        atomic_store_explicit(&s->bytes_decompressed, 0, memory_order_relaxed);
    }
    return DAMERO_OK;
}
