#include "cache.h"

#include <pthread.h>
#include <stdlib.h>

#include "tablefile.h"

#define MIN_SHARD_BYTES (256 * 1024) /* several of the largest blocks */
#define MAX_SHARDS 64
#define NO_ENTRY (-1)

struct entry {
    uint64_t key;
    uint8_t *data;      /* NULL when the entry is free */
    uint32_t bytes;
    uint32_t count;
    uint8_t value_bits;
    bool referenced;    /* probed since the clock hand last passed */
    int32_t next;       /* the next entry in its bucket, or in the free list */
};

struct shard {
    pthread_mutex_t lock;
    struct entry *entries;
    int32_t capacity;
    int32_t free_list;
    int32_t *buckets;
    uint32_t bucket_mask;
    int32_t hand;
    size_t bytes, budget;
};

struct block_cache {
    int num_shards;
    struct shard shards[];
};

static uint64_t mix(uint64_t key)
{
    key *= 0x9e3779b97f4a7c15ull;
    return key ^ (key >> 29);
}

static struct shard *shard_of(struct block_cache *c, uint64_t hash)
{
    return &c->shards[(hash >> 48) % (uint64_t)c->num_shards];
}

static int32_t *bucket_of(struct shard *s, uint64_t hash)
{
    return &s->buckets[hash & s->bucket_mask];
}

static int shard_init(struct shard *s, size_t budget)
{
    /* the smallest block a cache meets often is a full WDL block (2048 bytes) */
    size_t capacity = budget / 2048 + 16, buckets = 1;
    while (buckets < capacity)
        buckets <<= 1;
    s->entries = calloc(capacity, sizeof *s->entries);
    s->buckets = malloc(buckets * sizeof *s->buckets);
    if (!s->entries || !s->buckets || pthread_mutex_init(&s->lock, NULL) != 0) {
        free(s->entries);
        free(s->buckets);
        return -1;
    }
    s->capacity = (int32_t)capacity;
    s->bucket_mask = (uint32_t)(buckets - 1);
    for (size_t b = 0; b < buckets; b++)
        s->buckets[b] = NO_ENTRY;
    for (int32_t e = 0; e < s->capacity; e++)
        s->entries[e].next = e + 1 < s->capacity ? e + 1 : NO_ENTRY;
    s->free_list = 0;
    s->budget = budget;
    return 0;
}

static void shard_free(struct shard *s)
{
    for (int32_t e = 0; e < s->capacity; e++)
        free(s->entries[e].data);
    free(s->entries);
    free(s->buckets);
    pthread_mutex_destroy(&s->lock);
}

struct block_cache *block_cache_create(size_t bytes, bool *failed)
{
    *failed = false;
    if (bytes == 0)
        return NULL;
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
    free(c);
}

static int32_t find(struct shard *s, uint64_t key, uint64_t hash)
{
    int32_t e = *bucket_of(s, hash);
    while (e != NO_ENTRY && s->entries[e].key != key)
        e = s->entries[e].next;
    return e;
}

static unsigned read_entry(struct entry *entry, uint32_t k)
{
    entry->referenced = true;
    return table_raw_value(entry->value_bits, entry->data, entry->count, k);
}

bool block_cache_value(struct block_cache *c, uint64_t key, uint32_t k, unsigned *value)
{
    if (!c)
        return false;
    uint64_t hash = mix(key);
    struct shard *s = shard_of(c, hash);
    pthread_mutex_lock(&s->lock);
    int32_t e = find(s, key, hash);
    if (e != NO_ENTRY)
        *value = read_entry(&s->entries[e], k);
    pthread_mutex_unlock(&s->lock);
    return e != NO_ENTRY;
}

static void evict(struct shard *s, int32_t victim)
{
    struct entry *entry = &s->entries[victim];
    int32_t *link = bucket_of(s, mix(entry->key));
    while (*link != victim)
        link = &s->entries[*link].next;
    *link = entry->next;
    s->bytes -= entry->bytes;
    free(entry->data);
    entry->data = NULL;
    entry->next = s->free_list;
    s->free_list = victim;
}

/* Evicts with the clock until `bytes` more fit and an entry is free. Returns false when
 * they cannot fit even in an empty shard. */
static bool make_room(struct shard *s, size_t bytes)
{
    if (bytes > s->budget)
        return false;
    while (s->bytes + bytes > s->budget || s->free_list == NO_ENTRY) {
        struct entry *entry = &s->entries[s->hand];
        if (entry->data && entry->referenced)
            entry->referenced = false;
        else if (entry->data)
            evict(s, s->hand);
        s->hand = (s->hand + 1) % s->capacity;
    }
    return true;
}

unsigned block_cache_insert(struct block_cache *c, uint64_t key, uint8_t *data,
                            uint32_t value_bits, uint32_t count, size_t bytes, uint32_t k)
{
    unsigned value = table_raw_value(value_bits, data, count, k);
    if (!c) {
        free(data);
        return value;
    }
    uint64_t hash = mix(key);
    struct shard *s = shard_of(c, hash);
    pthread_mutex_lock(&s->lock);
    /* another thread may have brought the same block meanwhile */
    if (find(s, key, hash) == NO_ENTRY && make_room(s, bytes)) {
        int32_t e = s->free_list;
        struct entry *entry = &s->entries[e];
        s->free_list = entry->next;
        *entry = (struct entry){ .key = key, .data = data, .bytes = (uint32_t)bytes,
                                 .count = count, .value_bits = (uint8_t)value_bits,
                                 .referenced = true, .next = *bucket_of(s, hash) };
        *bucket_of(s, hash) = e;
        s->bytes += bytes;
        data = NULL;
    }
    pthread_mutex_unlock(&s->lock);
    free(data);
    return value;
}
