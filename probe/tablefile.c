#include "tablefile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#define MAGIC "DAMEROTB"
#define ZSTD_LEVEL 5
#define BATCH_BLOCKS 256 /* compressed together in memory, then written */

const char *table_metric_suffix(enum table_metric metric)
{
    switch (metric) {
    case METRIC_WDL: return ".wdl";
    case METRIC_DTM: return ".dtm";
    case METRIC_MTC: return ".mtc";
    }
    return ".unknown";
}

/* A fast 64-bit hash of bytes, to catch corruption (not an adversary). */
static uint64_t hash_bytes(uint64_t h, const uint8_t *data, size_t n)
{
    const uint64_t prime = 0x100000001b3ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, data + i, 8);
        h = (h ^ w) * prime;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ data[i]) * prime;
    return h;
}

#define HASH_SEED 0xcbf29ce484222325ull

static uint64_t values_checksum(const struct table_file_info *info, const void *const values[2])
{
    uint64_t h = HASH_SEED;
    for (int side = 0; side < 2; side++)
        h = hash_bytes(h, values[side], info->positions * info->value_bytes);
    return h;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Header field offsets. */
enum {
    AT_MAGIC = 0, AT_FORMAT = 8, AT_INDEX = 12, AT_VARIANT = 16, AT_MATERIAL = 40,
    AT_METRIC = 64, AT_VALUE_BYTES = 68, AT_POSITIONS = 72, AT_BLOCK_VALUES = 80,
    AT_NUM_BLOCKS = 88, AT_CHECKSUM = 96, AT_HEADER_CHECKSUM = 120,
};

static uint64_t blocks_per_side(uint64_t positions)
{
    return (positions + TABLE_BLOCK_VALUES - 1) / TABLE_BLOCK_VALUES;
}

static void encode_header(const struct table_file_info *info, uint64_t num_blocks,
                          uint8_t *h)
{
    memset(h, 0, TABLE_HEADER_SIZE);
    memcpy(h + AT_MAGIC, MAGIC, 8);
    put_u32(h + AT_FORMAT, TABLE_FORMAT_VERSION);
    put_u32(h + AT_INDEX, info->index_version);
    memcpy(h + AT_VARIANT, info->variant, TABLE_NAME_SIZE);
    memcpy(h + AT_MATERIAL, info->material, TABLE_NAME_SIZE);
    put_u32(h + AT_METRIC, (uint32_t)info->metric);
    put_u32(h + AT_VALUE_BYTES, info->value_bytes);
    put_u64(h + AT_POSITIONS, info->positions);
    put_u32(h + AT_BLOCK_VALUES, TABLE_BLOCK_VALUES);
    put_u64(h + AT_NUM_BLOCKS, num_blocks);
    put_u64(h + AT_CHECKSUM, info->checksum);
}

static uint64_t header_checksum(const uint8_t *header, const uint8_t *directory,
                                uint64_t num_blocks)
{
    uint64_t h = hash_bytes(HASH_SEED, header, AT_HEADER_CHECKSUM);
    return hash_bytes(h, directory, (num_blocks + 1) * 8);
}

/* The values of block b (of either side) as stored: byte planes for two-byte values. */
static size_t block_bytes(const struct table_file_info *info, const void *const values[2],
                          uint64_t b, uint8_t *out)
{
    uint64_t per_side = blocks_per_side(info->positions);
    int side = b >= per_side;
    uint64_t first = (b - (uint64_t)side * per_side) * TABLE_BLOCK_VALUES;
    uint64_t n = info->positions - first < TABLE_BLOCK_VALUES ? info->positions - first
                                                              : TABLE_BLOCK_VALUES;
    if (info->value_bytes == 1) {
        memcpy(out, (const uint8_t *)values[side] + first, n);
        return n;
    }
    const uint16_t *v = (const uint16_t *)values[side] + first;
    for (uint64_t i = 0; i < n; i++) {
        out[i] = (uint8_t)v[i];
        out[n + i] = (uint8_t)(v[i] >> 8);
    }
    return 2 * n;
}

struct compressed {
    void *data;
    size_t size;
};

static int compress_batch(const struct table_file_info *info, const void *const values[2],
                          uint64_t first, uint64_t count, struct compressed *out)
{
    int failed = 0;
#pragma omp parallel reduction(| : failed)
    {
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        uint8_t *raw = malloc(2 * TABLE_BLOCK_VALUES);
        size_t bound = ZSTD_compressBound(2 * TABLE_BLOCK_VALUES);
        if (!cctx || !raw) {
            failed = 1;
        } else {
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, ZSTD_LEVEL);
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
        }
#pragma omp for schedule(dynamic, 1)
        for (uint64_t k = 0; k < count; k++) {
            out[k].data = NULL;
            if (failed)
                continue;
            size_t n = block_bytes(info, values, first + k, raw);
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

static int write_blocks(FILE *f, const struct table_file_info *info, const void *const values[2],
                        uint64_t num_blocks, uint64_t *offsets)
{
    struct compressed batch[BATCH_BLOCKS];
    int result = 0;
    offsets[0] = 0;
    for (uint64_t first = 0; first < num_blocks && result == 0; first += BATCH_BLOCKS) {
        uint64_t count = num_blocks - first < BATCH_BLOCKS ? num_blocks - first : BATCH_BLOCKS;
        if (compress_batch(info, values, first, count, batch) < 0)
            result = -1;
        for (uint64_t k = 0; k < count; k++) {
            if (result == 0 && fwrite(batch[k].data, 1, batch[k].size, f) != batch[k].size)
                result = -1;
            if (result == 0)
                offsets[first + k + 1] = offsets[first + k] + batch[k].size;
            free(batch[k].data);
        }
    }
    return result;
}

int table_file_write(const char *path, const struct table_file_info *info_in,
                     const void *const values[2], char *err, size_t err_size)
{
    struct table_file_info info = *info_in;
    uint64_t num_blocks = 2 * blocks_per_side(info.positions);
    uint8_t header[TABLE_HEADER_SIZE];
    uint8_t *directory = malloc((num_blocks + 1) * 8);
    uint64_t *offsets = malloc((num_blocks + 1) * sizeof *offsets);
    size_t tmp_size = strlen(path) + 32;
    char *tmp = malloc(tmp_size);
    FILE *f = NULL;

    if (!directory || !offsets || !tmp) {
        snprintf(err, err_size, "out of memory writing %s", path);
        goto fail;
    }
    snprintf(tmp, tmp_size, "%s.tmp.%ld", path, (long)getpid());
    info.checksum = values_checksum(&info, values);
    f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, err_size, "cannot write %s: %s", tmp, strerror(errno));
        goto fail;
    }
    /* blocks first, after room for the header and directory, whose offsets they give */
    if (fseek(f, (long)(TABLE_HEADER_SIZE + (num_blocks + 1) * 8), SEEK_SET) != 0 ||
        write_blocks(f, &info, values, num_blocks, offsets) < 0)
        goto write_error;
    for (uint64_t b = 0; b <= num_blocks; b++)
        put_u64(directory + 8 * b, offsets[b]);
    encode_header(&info, num_blocks, header);
    put_u64(header + AT_HEADER_CHECKSUM, header_checksum(header, directory, num_blocks));
    if (fseek(f, 0, SEEK_SET) != 0 || fwrite(header, 1, sizeof header, f) != sizeof header ||
        fwrite(directory, 8, num_blocks + 1, f) != num_blocks + 1 || fflush(f) != 0 ||
        fsync(fileno(f)) != 0)
        goto write_error;
    if (fclose(f) != 0) {
        f = NULL;
        goto write_error;
    }
    f = NULL;
    if (rename(tmp, path) != 0) {
        snprintf(err, err_size, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        goto fail;
    }
    free(directory);
    free(offsets);
    free(tmp);
    return 0;

write_error:
    snprintf(err, err_size, "cannot write %s: %s", path,
             errno ? strerror(errno) : "compression failed");
fail:
    if (f)
        fclose(f);
    if (tmp)
        remove(tmp);
    free(directory);
    free(offsets);
    free(tmp);
    return -1;
}

/* h holds the first min(file_size, TABLE_HEADER_SIZE) bytes of the file. */
static int decode_header(const char *path, const uint8_t *h, size_t file_size,
                         struct table_file_info *info, uint64_t *num_blocks, char *err,
                         size_t err_size)
{
    if (file_size < 8 || memcmp(h + AT_MAGIC, MAGIC, 8) != 0) {
        snprintf(err, err_size, "%s is not a damero table (no header)", path);
        return -1;
    }
    if (file_size < TABLE_HEADER_SIZE) {
        snprintf(err, err_size, "%s: the file is truncated (%zu bytes, shorter than the header)",
                 path, file_size);
        return -1;
    }
    if (get_u32(h + AT_FORMAT) != TABLE_FORMAT_VERSION) {
        snprintf(err, err_size, "%s has table format version %u; this damero reads version %d",
                 path, get_u32(h + AT_FORMAT), TABLE_FORMAT_VERSION);
        return -1;
    }
    memset(info, 0, sizeof *info);
    memcpy(info->variant, h + AT_VARIANT, TABLE_NAME_SIZE);
    memcpy(info->material, h + AT_MATERIAL, TABLE_NAME_SIZE);
    info->variant[TABLE_NAME_SIZE - 1] = info->material[TABLE_NAME_SIZE - 1] = '\0';
    info->index_version = get_u32(h + AT_INDEX);
    info->metric = (enum table_metric)get_u32(h + AT_METRIC);
    info->value_bytes = get_u32(h + AT_VALUE_BYTES);
    info->positions = get_u64(h + AT_POSITIONS);
    info->checksum = get_u64(h + AT_CHECKSUM);
    *num_blocks = get_u64(h + AT_NUM_BLOCKS);
    if (info->metric < METRIC_WDL || info->metric > METRIC_MTC ||
        (info->value_bytes != 1 && info->value_bytes != 2) ||
        get_u32(h + AT_BLOCK_VALUES) != TABLE_BLOCK_VALUES ||
        *num_blocks != 2 * blocks_per_side(info->positions) ||
        TABLE_HEADER_SIZE + (*num_blocks + 1) * 8 > file_size) {
        snprintf(err, err_size, "%s: the header is damaged or the file is truncated", path);
        return -1;
    }
    return 0;
}

/* The whole file in memory, or NULL with a message. */
static uint8_t *read_file(const char *path, size_t *size, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    long n;
    if (!f) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(data = malloc((size_t)n + 1)) || fread(data, 1, (size_t)n, f) != (size_t)n) {
        snprintf(err, err_size, "cannot read %s: %s", path, errno ? strerror(errno) : "short read");
        free(data);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

static int check_directory(const char *path, const uint8_t *file, size_t size,
                           uint64_t num_blocks, char *err, size_t err_size)
{
    const uint8_t *directory = file + TABLE_HEADER_SIZE;
    uint64_t data_start = TABLE_HEADER_SIZE + (num_blocks + 1) * 8;
    if (header_checksum(file, directory, num_blocks) != get_u64(file + AT_HEADER_CHECKSUM)) {
        snprintf(err, err_size, "%s: header checksum mismatch (the file is damaged)", path);
        return -1;
    }
    for (uint64_t b = 0; b < num_blocks; b++)
        if (get_u64(directory + 8 * b) > get_u64(directory + 8 * (b + 1))) {
            snprintf(err, err_size, "%s: the block directory is damaged", path);
            return -1;
        }
    if (data_start + get_u64(directory + 8 * num_blocks) != size) {
        snprintf(err, err_size, "%s: the file is %s (%zu bytes, the directory says %llu)", path,
                 data_start + get_u64(directory + 8 * num_blocks) > size ? "truncated"
                                                                          : "too long",
                 size, (unsigned long long)(data_start + get_u64(directory + 8 * num_blocks)));
        return -1;
    }
    return 0;
}

/* Decompresses every block into values[side]; returns the number of bad blocks. */
static uint64_t decompress_all(const uint8_t *file, const struct table_file_info *info,
                               uint64_t num_blocks, void *values[2])
{
    const uint8_t *directory = file + TABLE_HEADER_SIZE;
    const uint8_t *data = directory + (num_blocks + 1) * 8;
    uint64_t per_side = blocks_per_side(info->positions), bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        ZSTD_DCtx *dctx = ZSTD_createDCtx();
        uint8_t *raw = malloc(2 * TABLE_BLOCK_VALUES);
#pragma omp for schedule(dynamic, 4)
        for (uint64_t b = 0; b < num_blocks; b++) {
            int side = b >= per_side;
            uint64_t first = (b - (uint64_t)side * per_side) * TABLE_BLOCK_VALUES;
            uint64_t n = info->positions - first < TABLE_BLOCK_VALUES ? info->positions - first
                                                                      : TABLE_BLOCK_VALUES;
            uint64_t at = get_u64(directory + 8 * b);
            size_t got = dctx && raw ? ZSTD_decompressDCtx(dctx, raw, 2 * TABLE_BLOCK_VALUES,
                                                           data + at,
                                                           get_u64(directory + 8 * (b + 1)) - at)
                                     : 0;
            if (!dctx || !raw || ZSTD_isError(got) || got != n * info->value_bytes) {
                bad++;
                continue;
            }
            if (info->value_bytes == 1) {
                memcpy((uint8_t *)values[side] + first, raw, n);
            } else {
                uint16_t *v = (uint16_t *)values[side] + first;
                for (uint64_t i = 0; i < n; i++)
                    v[i] = (uint16_t)(raw[i] | raw[n + i] << 8);
            }
        }
        ZSTD_freeDCtx(dctx);
        free(raw);
    }
    return bad;
}

int table_file_read(const char *path, struct table_file_info *info, void *values[2], char *err,
                    size_t err_size)
{
    size_t size = 0;
    uint64_t num_blocks;
    uint8_t *file = read_file(path, &size, err, err_size);
    values[0] = values[1] = NULL;
    if (!file)
        return -1;
    if (decode_header(path, file, size, info, &num_blocks, err, err_size) < 0 ||
        check_directory(path, file, size, num_blocks, err, err_size) < 0)
        goto fail;
    for (int side = 0; side < 2; side++)
        if (!(values[side] = malloc(info->positions * info->value_bytes + 1))) {
            snprintf(err, err_size, "out of memory reading %s", path);
            goto fail;
        }
    uint64_t bad = decompress_all(file, info, num_blocks, values);
    if (bad) {
        snprintf(err, err_size, "%s: %llu damaged block(s)", path, (unsigned long long)bad);
        goto fail;
    }
    if (values_checksum(info, (const void *const *)values) != info->checksum) {
        snprintf(err, err_size, "%s: checksum mismatch (the file is damaged)", path);
        goto fail;
    }
    free(file);
    return 0;
fail:
    free(file);
    free(values[0]);
    free(values[1]);
    values[0] = values[1] = NULL;
    return -1;
}

int table_file_read_info(const char *path, struct table_file_info *info, char *err,
                         size_t err_size)
{
    uint8_t *start = calloc(1, TABLE_HEADER_SIZE);
    uint64_t num_blocks;
    FILE *f = fopen(path, "rb");
    long size = -1;
    int result = -1;
    if (!f || !start) {
        snprintf(err, err_size, "cannot open %s: %s", path, f ? "out of memory" : strerror(errno));
        goto done;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
        goto done;
    }
    size_t want = (size_t)size < TABLE_HEADER_SIZE ? (size_t)size : TABLE_HEADER_SIZE;
    if (fread(start, 1, want, f) != want ||
        decode_header(path, start, (size_t)size, info, &num_blocks, err, err_size) < 0)
        goto done;
    /* the header checksum covers the directory too: read it and check both */
    uint8_t *grown = realloc(start, TABLE_HEADER_SIZE + (num_blocks + 1) * 8);
    if (!grown) {
        snprintf(err, err_size, "out of memory reading %s", path);
        goto done;
    }
    start = grown;
    if (fread(start + TABLE_HEADER_SIZE, 8, num_blocks + 1, f) != num_blocks + 1) {
        snprintf(err, err_size, "%s: the file is truncated", path);
        goto done;
    }
    result = check_directory(path, start, (size_t)size, num_blocks, err, err_size);
done:
    if (f)
        fclose(f);
    free(start);
    return result;
}
