#include "store/table_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

/* WDL files are written once and probed often, and they are what an engine keeps: they
 * get a strong level. 15 gives within 0.3% of 19's size (russian up to 5 pieces) at a
 * third of the time, which keeps building fast. */
static int compression_level(uint32_t value_bits)
{
    return value_bits == 2 ? 15 : 5;
}

#define BATCH_BLOCKS 256 /* compressed together in memory, then written */

struct compressed {
    void *data;
    size_t size;
};

static int compress_batch(const struct table_map *map, const void *const values[2],
                          uint64_t first, uint64_t count, struct compressed *out)
{
    int failed = 0;
#pragma omp parallel reduction(| : failed)
    {
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        uint8_t *raw = malloc(TABLE_MAX_BLOCK_BYTES);
        size_t bound = ZSTD_compressBound(TABLE_MAX_BLOCK_BYTES);
        if (!cctx || !raw) {
            failed = 1;
        } else {
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel,
                                   compression_level(map->info.value_bits));
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
        }
#pragma omp for schedule(dynamic, 1)
        for (uint64_t k = 0; k < count; k++) {
            out[k].data = NULL;
            if (failed)
                continue;
            size_t n = table_encode_block(map, values, first + k, raw);
            out[k].data = malloc(bound);
            if (!out[k].data) {
                failed = 1;
                continue;
            }
            out[k].size = ZSTD_compress2(cctx, out[k].data, bound, raw, n);
            if (ZSTD_isError(out[k].size))
                failed = 1;
        }
        ZSTD_freeCCtx(cctx);
        free(raw);
    }
    return failed ? -1 : 0;
}

/* Where the values to write come from: both sides at once, or one side at a time from
 * fill() into buffer (then values[] both point to it). */
struct value_source {
    const void *values[2];
    table_side_filler fill;
    void *context;
    void *buffer;
};

/* Makes the values of `side` ready in s and adds them to the checksum *h. Returns 0, or
 * -1 with a sentence in err (fill failed). */
static int source_side(struct value_source *s, const struct table_map *map, int side,
                       uint64_t *h, char *err, size_t err_size)
{
    if (s->fill) {
        if (s->fill(s->context, side, s->buffer, err, err_size) < 0)
            return -1;
        s->values[0] = s->values[1] = s->buffer;
    }
    *h = table_checksum_add(*h, s->values[side],
                            map->info.positions * table_value_bytes(&map->info));
    return 0;
}

/* Compresses and writes every block, side by side, noting their offsets and taking the
 * checksum of the values into map->info. Returns 0, -1 when writing failed (errno says
 * why), -2 when compressing did (out of memory, or zstd), or -3 when the source failed
 * (err says why). */
static int write_blocks(FILE *f, struct table_map *map, struct value_source *s,
                        uint64_t *offsets, char *err, size_t err_size)
{
    struct compressed batch[BATCH_BLOCKS];
    uint64_t h = TABLE_CHECKSUM_SEED;
    int result = 0;
    offsets[0] = 0;
    for (int side = 0; side < 2 && result == 0; side++) {
        uint64_t end = (uint64_t)(side + 1) * map->blocks_per_side;
        if (source_side(s, map, side, &h, err, err_size) < 0)
            result = -3;
        for (uint64_t first = end - map->blocks_per_side; first < end && result == 0;
             first += BATCH_BLOCKS) {
            uint64_t count = end - first < BATCH_BLOCKS ? end - first : BATCH_BLOCKS;
            if (compress_batch(map, s->values, first, count, batch) < 0)
                result = -2;
            for (uint64_t k = 0; k < count; k++) {
                if (result == 0 && fwrite(batch[k].data, 1, batch[k].size, f) != batch[k].size)
                    result = -1;
                if (result == 0)
                    offsets[first + k + 1] = offsets[first + k] + batch[k].size;
                free(batch[k].data);
            }
        }
    }
    map->info.checksum = h;
    return result;
}

FILE *file_create_exclusive(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (fd >= 0 && !f) {
        int saved = errno;
        close(fd);
        remove(path);
        errno = saved;
    }
    return f;
}

int file_sync_directory(const char *path)
{
    size_t n = strlen(path);
    char *dir = malloc(n + 2);
    if (!dir)
        return -1;
    memcpy(dir, path, n + 1);
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0'; /* "/KvK.dtm" is in "/" */
    else
        *slash = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0)
        return -1;
    int result = fsync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

/* Writes the table into the open temporary file f: blocks first, after room for the
 * header and directory, whose offsets they give; then those; then syncs. Returns 0, or -1
 * with a sentence in err. */
static int write_contents(FILE *f, const char *path, struct table_map *map,
                          struct value_source *s, uint8_t *directory, uint64_t *offsets,
                          char *err, size_t err_size)
{
    uint8_t header[TABLE_HEADER_SIZE];
    uint64_t num_blocks = map->num_blocks;
    int result = fseek(f, (long)(TABLE_HEADER_SIZE + (num_blocks + 1) * 8), SEEK_SET);
    if (result == 0)
        result = write_blocks(f, map, s, offsets, err, err_size);
    if (result == -3)
        return -1;
    if (result == -2) {
        snprintf(err, err_size, "cannot write %s: compression failed (out of memory?)", path);
        return -1;
    }
    if (result == 0) {
        table_encode_header(map, offsets, header, directory);
        if (fseek(f, 0, SEEK_SET) != 0 || fwrite(header, 1, sizeof header, f) != sizeof header ||
            fwrite(directory, 8, num_blocks + 1, f) != num_blocks + 1 || fflush(f) != 0 ||
            fsync(fileno(f)) != 0)
            result = -1;
    }
    if (result != 0)
        snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
    return result;
}

static int write_file(const char *path, const struct table_file_info *info,
                      struct value_source *s, char *err, size_t err_size)
{
    struct table_map map = { .info = *info };
    table_block_layout(&map);
    uint8_t *directory = malloc((map.num_blocks + 1) * 8);
    uint64_t *offsets = malloc((map.num_blocks + 1) * sizeof *offsets);
    size_t tmp_size = strlen(path) + 32;
    char *tmp = malloc(tmp_size);
    FILE *f = NULL;
    int result = -1;

    if (!directory || !offsets || !tmp) {
        snprintf(err, err_size, "out of memory writing %s", path);
        goto done;
    }
    snprintf(tmp, tmp_size, "%s.tmp.%ld", path, (long)getpid());
    if (!(f = file_create_exclusive(tmp))) {
        snprintf(err, err_size, "cannot create %s: %s%s", tmp, strerror(errno),
                 errno == EEXIST || errno == ELOOP ? " (something else is there: remove it)"
                                                   : "");
        goto done;
    }
    result = write_contents(f, path, &map, s, directory, offsets, err, err_size);
    if (fclose(f) != 0 && result == 0) {
        snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
        result = -1;
    }
    if (result == 0 && rename(tmp, path) != 0) {
        snprintf(err, err_size, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        result = -1;
    }
    if (result == 0 && file_sync_directory(path) != 0) {
        snprintf(err, err_size, "cannot sync the directory of %s: %s", path, strerror(errno));
        result = -1;
    }
    if (result != 0)
        remove(tmp);
done:
    free(directory);
    free(offsets);
    free(tmp);
    return result;
}

int table_file_write(const char *path, const struct table_file_info *info,
                     const void *const values[2], char *err, size_t err_size)
{
    struct value_source s = { .values = { values[0], values[1] } };
    return write_file(path, info, &s, err, err_size);
}

int table_file_write_by_side(const char *path, const struct table_file_info *info,
                             void *buffer, table_side_filler fill, void *context, char *err,
                             size_t err_size)
{
    struct value_source s = { .fill = fill, .context = context, .buffer = buffer };
    return write_file(path, info, &s, err, err_size);
}

/* What is wrong with block b of map, read again for its message. */
static void describe_block(const struct table_map *map, uint64_t b, char *why, size_t why_size)
{
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    uint8_t *raw = malloc(TABLE_MAX_BLOCK_BYTES);
    snprintf(why, why_size, "out of memory");
    if (dctx && raw && table_map_block(map, dctx, b, raw, why, why_size) == TABLE_OK)
        snprintf(why, why_size, "block %llu could not be read", (unsigned long long)b);
    ZSTD_freeDCtx(dctx);
    free(raw);
}

/* Blocks decompressed at once by table_map_read_blocks: work for every thread, and at
 * most 4 MB of values (64 blocks of 32768 16-bit values). */
#define BLOCKS_AT_ONCE 64

/* Decompresses blocks [from, to) of map into out, block k at out + (k - from) *
 * block_bytes; returns the first that cannot be read, or `to`. */
static uint64_t decompress_run(const struct table_map *map, uint64_t from, uint64_t to,
                               uint8_t *out, size_t block_bytes)
{
    uint64_t first = to;
#pragma omp parallel reduction(min : first)
    {
        ZSTD_DCtx *dctx = ZSTD_createDCtx();
        uint8_t *raw = malloc(TABLE_MAX_BLOCK_BYTES);
        char err[256];
#pragma omp for schedule(dynamic, 1)
        for (uint64_t b = from; b < to; b++) {
            if (!dctx || !raw || table_map_block(map, dctx, b, raw, err, sizeof err) < 0)
                first = b < first ? b : first;
            else
                table_decode_block_to(map, b, raw, out + (b - from) * block_bytes);
        }
        ZSTD_freeDCtx(dctx);
        free(raw);
    }
    return first;
}

int table_map_read_blocks(const struct table_map *map, table_block_taker take, void *context,
                          char *err, size_t err_size)
{
    size_t width = table_value_bytes(&map->info), block_bytes = map->block_values * width;
    uint8_t *buffer = malloc(BLOCKS_AT_ONCE * block_bytes);
    uint64_t h = TABLE_CHECKSUM_SEED;
    int status = TABLE_OK;
    if (!buffer) {
        snprintf(err, err_size, "out of memory reading a table");
        return TABLE_ERR_MEMORY;
    }
    for (uint64_t from = 0; status == TABLE_OK && from < map->num_blocks; from += BLOCKS_AT_ONCE) {
        uint64_t to = from + BLOCKS_AT_ONCE < map->num_blocks ? from + BLOCKS_AT_ONCE
                                                               : map->num_blocks;
        uint64_t bad = decompress_run(map, from, to, buffer, block_bytes);
        if (bad < to) {
            char why[192];
            describe_block(map, bad, why, sizeof why);
            snprintf(err, err_size, "a damaged block: %s", why);
            status = TABLE_ERR_CORRUPT;
        }
        for (uint64_t b = from; status == TABLE_OK && b < to; b++) {
            uint32_t count = table_block_count(map, b);
            const uint8_t *values = buffer + (b - from) * block_bytes;
            h = table_checksum_add(h, values, count * width);
            if (take)
                status = take(context, b >= map->blocks_per_side,
                              (b % map->blocks_per_side) * map->block_values, values, count,
                              width);
        }
    }
    if (status == TABLE_OK && h != map->info.checksum) {
        snprintf(err, err_size, "checksum mismatch (the file is damaged)");
        status = TABLE_ERR_CORRUPT;
    }
    free(buffer);
    return status;
}

/* Copies a block's values into their place in values[2] (a table_block_taker). */
static int take_into_arrays(void *context, int side, uint64_t first, const void *values,
                            uint32_t count, size_t width)
{
    uint8_t **arrays = context;
    memcpy(arrays[side] + first * width, values, count * width);
    return TABLE_OK;
}

int table_file_read(const char *path, struct table_file_info *info, void *values[2], char *err,
                    size_t err_size)
{
    struct table_map map;
    char why[256];
    int status = table_map_open(path, &map, err, err_size);
    values[0] = values[1] = NULL;
    if (status != TABLE_OK)
        return status;
    *info = map.info;
    for (int side = 0; side < 2 && status == TABLE_OK; side++)
        if (!(values[side] = malloc(info->positions * table_value_bytes(info) + 1))) {
            snprintf(err, err_size, "out of memory reading %s", path);
            status = TABLE_ERR_MEMORY;
        }
    if (status == TABLE_OK &&
        (status = table_map_read_blocks(&map, take_into_arrays, values, why, sizeof why)) !=
            TABLE_OK)
        snprintf(err, err_size, "%s: %s", path, why);
    table_map_close(&map);
    if (status != TABLE_OK) {
        free(values[0]);
        free(values[1]);
        values[0] = values[1] = NULL;
    }
    return status;
}
