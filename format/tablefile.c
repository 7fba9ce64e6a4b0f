#include "format/tablefile.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "format/index.h"
#include "format/value.h"

#define MAGIC "DAMEROTB"

const char *table_metric_suffix(enum table_metric metric)
{
    switch (metric) {
    case METRIC_WDL: return ".wdl";
    case METRIC_DTM: return ".dtm";
    case METRIC_MTC: return ".mtc";
    case METRIC_RULES0: return ".ru0";
    case METRIC_RULES1: return ".ru1";
    case METRIC_ZEROING0: return ".rz0";
    case METRIC_ZEROING1: return ".rz1";
    }
    return ".unknown";
}

/* The checksums hash memory as it is: the files' bytes are the same on every machine only
 * where memory is little-endian, like the numbers the format writes. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "damero's table files are little-endian; this machine is not"
#endif

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

uint64_t table_checksum_add(uint64_t h, const void *values, size_t bytes)
{
    return hash_bytes(h, values, bytes);
}

/* Small WDL blocks keep a random probe's decompression short (a few microseconds);
 * wider values get larger blocks, which compress better. */
/* log2 of the values per block: 8192 two-bit values (2 KB), 32768 wider ones */
static uint32_t block_shift_for(uint32_t value_bits)
{
    return value_bits == 2 ? 13 : 15;
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
    AT_METRIC = 64, AT_VALUE_BITS = 68, AT_POSITIONS = 72, AT_BLOCK_VALUES = 80,
    AT_NUM_BLOCKS = 88, AT_CHECKSUM = 96, AT_FLAGS = 104, AT_HEADER_CHECKSUM = 120,
};

static uint64_t header_checksum(const uint8_t *header, const uint8_t *directory,
                                uint64_t num_blocks)
{
    uint64_t h = hash_bytes(TABLE_CHECKSUM_SEED, header, AT_HEADER_CHECKSUM);
    return hash_bytes(h, directory, (num_blocks + 1) * 8);
}

void table_encode_header(const struct table_map *map, const uint64_t *offsets, uint8_t *h,
                         uint8_t *directory)
{
    const struct table_file_info *info = &map->info;
    for (uint64_t b = 0; b <= map->num_blocks; b++)
        put_u64(directory + 8 * b, offsets[b]);
    memset(h, 0, TABLE_HEADER_SIZE);
    memcpy(h + AT_MAGIC, MAGIC, 8);
    put_u32(h + AT_FORMAT, TABLE_FORMAT_VERSION);
    put_u32(h + AT_INDEX, info->index_version);
    memcpy(h + AT_VARIANT, info->variant, TABLE_NAME_SIZE);
    memcpy(h + AT_MATERIAL, info->material, TABLE_NAME_SIZE);
    put_u32(h + AT_METRIC, (uint32_t)info->metric);
    put_u32(h + AT_VALUE_BITS, info->value_bits);
    put_u64(h + AT_POSITIONS, info->positions);
    put_u32(h + AT_BLOCK_VALUES, map->block_values);
    put_u64(h + AT_NUM_BLOCKS, map->num_blocks);
    put_u64(h + AT_CHECKSUM, info->checksum);
    put_u32(h + AT_FLAGS, info->flags);
    put_u64(h + AT_HEADER_CHECKSUM, header_checksum(h, directory, map->num_blocks));
}

int table_seal_header(uint8_t *file, size_t size)
{
    if (size < TABLE_HEADER_SIZE + 8)
        return -1;
    uint64_t num_blocks = get_u64(file + AT_NUM_BLOCKS);
    if (num_blocks >= (size - TABLE_HEADER_SIZE) / 8)
        return -1;
    put_u64(file + AT_HEADER_CHECKSUM,
            header_checksum(file, file + TABLE_HEADER_SIZE, num_blocks));
    return 0;
}

void table_block_layout(struct table_map *map)
{
    map->block_shift = block_shift_for(map->info.value_bits);
    map->block_values = (uint32_t)1 << map->block_shift;
    map->blocks_per_side = (map->info.positions + map->block_values - 1) / map->block_values;
    map->num_blocks = 2 * map->blocks_per_side;
}

size_t table_encode_block(const struct table_map *map, const void *const values[2],
                           uint64_t b, uint8_t *out)
{
    int side = b >= map->blocks_per_side;
    uint64_t first = (b % map->blocks_per_side) * map->block_values;
    uint32_t n = table_block_count(map, b);
    size_t bytes = table_block_bytes(map, b);
    if (map->info.value_bits == 2) {
        const uint8_t *v = (const uint8_t *)values[side] + first;
        memset(out, 0, bytes);
        for (uint32_t i = 0; i < n; i++)
            out[i >> 2] |= (uint8_t)((v[i] & 3) << (2 * (i & 3)));
    } else if (map->info.value_bits == 8) {
        memcpy(out, (const uint8_t *)values[side] + first, n);
    } else {
        const uint16_t *v = (const uint16_t *)values[side] + first;
        for (uint32_t i = 0; i < n; i++) {
            out[i] = (uint8_t)v[i];
            out[n + i] = (uint8_t)(v[i] >> 8);
        }
    }
    return bytes;
}

void table_decode_block_to(const struct table_map *map, uint64_t b, const uint8_t *raw,
                           void *out)
{
    uint32_t n = table_block_count(map, b);
    uint32_t bits = map->info.value_bits;
    if (bits == 16) {
        uint16_t *v = out;
        for (uint32_t i = 0; i < n; i++)
            v[i] = (uint16_t)table_raw_value(bits, raw, n, i);
    } else {
        uint8_t *v = out;
        for (uint32_t i = 0; i < n; i++)
            v[i] = (uint8_t)table_raw_value(bits, raw, n, i);
    }
}

unsigned table_metric_max_value(enum table_metric metric)
{
    switch (metric) {
    case METRIC_WDL: return WDL_LOSS;
    case METRIC_DTM: return dtm_loss(DTM_MAX_PLIES);
    case METRIC_MTC: return mtc_of_plies(DTM_MAX_PLIES);
    case METRIC_RULES0:
    case METRIC_RULES1: return dtm_loss(DTM_MAX_PLIES);
    case METRIC_ZEROING0:
    case METRIC_ZEROING1: return DTM_MAX_PLIES;
    }
    return 0;
}

/* Reads n bytes at offset of fd into buffer. Returns TABLE_OK, TABLE_ERR_TRUNCATED when
 * the file ends first, or TABLE_ERR_IO (errno set). */
static int read_at(int fd, void *buffer, size_t n, uint64_t offset)
{
    uint8_t *to = buffer;
    while (n > 0) {
        ssize_t got = pread(fd, to, n, (off_t)offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return TABLE_ERR_IO;
        if (got == 0)
            return TABLE_ERR_TRUNCATED;
        to += got;
        n -= (size_t)got;
        offset += (uint64_t)got;
    }
    return TABLE_OK;
}

/* Checks the header h (the file's first bytes, `have` of them, of a file of map->size
 * bytes) and fills map from it. */
static int decode_header(const char *path, const uint8_t *h, size_t have, struct table_map *map,
                         char *err, size_t err_size)
{
    struct table_file_info *info = &map->info;
    if (have < 8 || memcmp(h + AT_MAGIC, MAGIC, 8) != 0) {
        snprintf(err, err_size, "%s is not a damero table (no header)", path);
        return TABLE_ERR_FORMAT;
    }
    if (have < TABLE_HEADER_SIZE) {
        snprintf(err, err_size, "%s: the file is truncated (%zu bytes, shorter than the header)",
                 path, have);
        return TABLE_ERR_TRUNCATED;
    }
    if (get_u32(h + AT_FORMAT) != TABLE_FORMAT_VERSION) {
        snprintf(err, err_size, "%s has table format version %u; this damero reads version %d",
                 path, get_u32(h + AT_FORMAT), TABLE_FORMAT_VERSION);
        return TABLE_ERR_VERSION;
    }
    memset(info, 0, sizeof *info);
    memcpy(info->variant, h + AT_VARIANT, TABLE_NAME_SIZE);
    memcpy(info->material, h + AT_MATERIAL, TABLE_NAME_SIZE);
    info->variant[TABLE_NAME_SIZE - 1] = info->material[TABLE_NAME_SIZE - 1] = '\0';
    info->index_version = get_u32(h + AT_INDEX);
    info->metric = (enum table_metric)get_u32(h + AT_METRIC);
    info->value_bits = get_u32(h + AT_VALUE_BITS);
    info->positions = get_u64(h + AT_POSITIONS);
    info->checksum = get_u64(h + AT_CHECKSUM);
    info->flags = get_u32(h + AT_FLAGS);
    bool sane = info->metric >= METRIC_WDL && info->metric <= METRIC_LAST &&
                (info->value_bits == 2 || info->value_bits == 8 || info->value_bits == 16) &&
                info->positions < ((uint64_t)1 << 48);
    if (sane) {
        table_block_layout(map);
        sane = get_u32(h + AT_BLOCK_VALUES) == map->block_values &&
               get_u64(h + AT_NUM_BLOCKS) == map->num_blocks;
    }
    if (!sane) {
        snprintf(err, err_size, "%s: the header is damaged", path);
        return TABLE_ERR_FORMAT;
    }
    map->blocks_at = TABLE_HEADER_SIZE + (map->num_blocks + 1) * 8;
    if (map->blocks_at > map->size) {
        snprintf(err, err_size, "%s: the file is truncated (no room for its block directory)",
                 path);
        return TABLE_ERR_TRUNCATED;
    }
    return TABLE_OK;
}

/* The largest compressed block a file may hold: what zstd may make of the largest block. */
static uint64_t max_compressed_block(void)
{
    return ZSTD_compressBound(TABLE_MAX_BLOCK_BYTES);
}

/* Reads the block directory into map->offsets and checks it against the header's checksum
 * and the file's size. */
static int read_directory(const char *path, int fd, const uint8_t *header, struct table_map *map,
                          char *err, size_t err_size)
{
    size_t bytes = (size_t)(map->num_blocks + 1) * 8;
    uint8_t *directory = malloc(bytes);
    map->offsets = malloc((size_t)(map->num_blocks + 1) * sizeof *map->offsets);
    if (!directory || !map->offsets) {
        free(directory);
        snprintf(err, err_size, "out of memory reading %s", path);
        return TABLE_ERR_MEMORY;
    }
    int status = read_at(fd, directory, bytes, TABLE_HEADER_SIZE);
    if (status == TABLE_ERR_IO)
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
    else if (status != TABLE_OK)
        snprintf(err, err_size, "%s: the file is truncated (no room for its block directory)",
                 path);
    else if (header_checksum(header, directory, map->num_blocks) !=
             get_u64(header + AT_HEADER_CHECKSUM)) {
        snprintf(err, err_size, "%s: header checksum mismatch (the file is damaged)", path);
        status = TABLE_ERR_CORRUPT;
    }
    for (uint64_t b = 0; status == TABLE_OK && b <= map->num_blocks; b++) {
        map->offsets[b] = get_u64(directory + 8 * b);
        if (b > 0 && (map->offsets[b] < map->offsets[b - 1] ||
                      map->offsets[b] - map->offsets[b - 1] > max_compressed_block())) {
            snprintf(err, err_size, "%s: the block directory is damaged", path);
            status = TABLE_ERR_CORRUPT;
        }
    }
    free(directory);
    if (status != TABLE_OK)
        return status;
    uint64_t end = map->blocks_at + map->offsets[map->num_blocks];
    if (map->offsets[0] != 0 || end < map->blocks_at) {
        snprintf(err, err_size, "%s: the block directory is damaged", path);
        return TABLE_ERR_CORRUPT;
    }
    if (end != map->size) {
        snprintf(err, err_size, "%s: the file is %s (%llu bytes, the directory says %llu)",
                 path, end > map->size ? "truncated" : "too long",
                 (unsigned long long)map->size, (unsigned long long)end);
        return TABLE_ERR_TRUNCATED;
    }
    return TABLE_OK;
}

/* What a file that is not a regular file is, for the message refusing it. */
static const char *file_kind(mode_t mode)
{
    return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO"
         : S_ISCHR(mode) || S_ISBLK(mode) ? "a device" : S_ISSOCK(mode) ? "a socket"
         : "not a regular file";
}

/* Opens path for reading without blocking (a FIFO named like a table must not hang the
 * reader) and checks that it is a regular file. Returns the descriptor, or -1 with a
 * sentence in err; *size: the file's size. */
static int open_regular(const char *path, uint64_t *size, char *err, size_t err_size)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "%s is %s, not a table file: remove it or rename it", path,
                 file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    *size = (uint64_t)st.st_size;
    return fd;
}

int table_map_open(const char *path, struct table_map *map, char *err, size_t err_size)
{
    uint8_t header[TABLE_HEADER_SIZE];
    memset(map, 0, sizeof *map);
    map->fd = open_regular(path, &map->size, err, err_size);
    if (map->fd < 0)
        return TABLE_ERR_IO;
    size_t have = map->size < TABLE_HEADER_SIZE ? (size_t)map->size : TABLE_HEADER_SIZE;
    int status = read_at(map->fd, header, have, 0);
    if (status != TABLE_OK) {
        snprintf(err, err_size, "cannot read %s: %s", path,
                 status == TABLE_ERR_IO ? strerror(errno) : "it was cut while being read");
        status = TABLE_ERR_IO;
    }
    if (status == TABLE_OK)
        status = decode_header(path, header, have, map, err, err_size);
    if (status == TABLE_OK)
        status = read_directory(path, map->fd, header, map, err, err_size);
    if (status != TABLE_OK) {
        close(map->fd);
        free(map->offsets);
        memset(map, 0, sizeof *map);
    }
    return status;
}

void table_map_close(struct table_map *map)
{
    if (table_map_is_open(map))
        close(map->fd);
    free(map->offsets);
    memset(map, 0, sizeof *map);
}

/* Whether every value of decompressed block b is within its metric's range. */
static bool block_values_in_range(const struct table_map *map, uint64_t b, const uint8_t *raw)
{
    uint32_t n = table_block_count(map, b), bits = map->info.value_bits;
    unsigned most = table_metric_max_value(map->info.metric);
    if (bits == 2 && most == WDL_LOSS) {
        /* 3 is the only 2-bit code beyond WDL_LOSS: both bits of a pair set */
        for (size_t i = 0; i < table_block_bytes(map, b); i++)
            if (raw[i] & (raw[i] >> 1) & 0x55)
                return false;
        return true;
    }
    if (most >= (1u << bits) - 1)
        return true;
    unsigned over = 0;
    for (uint32_t k = 0; k < n; k++)
        over |= table_raw_value(bits, raw, n, k) > most;
    return !over;
}

/* The message for block b of map that cannot be used: "KMvK.dtm: block 3 is damaged (why)". */
static void block_error(const struct table_map *map, uint64_t b, const char *what,
                        const char *why, char *err, size_t err_size)
{
    snprintf(err, err_size, "%s%s: block %llu %s (%s)", map->info.material,
             table_metric_suffix(map->info.metric), (unsigned long long)b, what, why);
}

int table_map_block(const struct table_map *map, ZSTD_DCtx *dctx, uint64_t b, uint8_t *raw,
                    char *err, size_t err_size)
{
    uint64_t at = map->offsets[b];
    size_t stored = (size_t)(map->offsets[b + 1] - at); /* at most max_compressed_block() */
    size_t want = table_block_bytes(map, b);
    if (stored == 0) { /* no zstd frame is empty */
        block_error(map, b, "is damaged", "empty", err, err_size);
        return TABLE_ERR_CORRUPT;
    }
    /* most compressed blocks (every WDL one) fit on the stack: no malloc per probe */
    uint8_t small[4096];
    uint8_t *compressed = stored <= sizeof small ? small : malloc(stored);
    if (!compressed) {
        block_error(map, b, "cannot be read", "out of memory", err, err_size);
        return TABLE_ERR_MEMORY;
    }
    int status = read_at(map->fd, compressed, stored, map->blocks_at + at);
    if (status == TABLE_ERR_IO)
        block_error(map, b, "cannot be read", strerror(errno), err, err_size);
    else if (status == TABLE_ERR_TRUNCATED)
        block_error(map, b, "cannot be read",
                    "the file was cut short after it was opened; reopen the tables", err,
                    err_size);
    size_t got = status == TABLE_OK ? ZSTD_decompressDCtx(dctx, raw, want, compressed, stored)
                                    : 0;
    if (compressed != small)
        free(compressed);
    if (status != TABLE_OK)
        return status;
    if (ZSTD_isError(got) || got != want) {
        block_error(map, b, "is damaged", ZSTD_isError(got) ? ZSTD_getErrorName(got)
                                                            : "wrong size", err, err_size);
        return TABLE_ERR_CORRUPT;
    }
    if (!block_values_in_range(map, b, raw)) {
        block_error(map, b, "is damaged", "a value beyond the metric's range", err, err_size);
        return TABLE_ERR_CORRUPT;
    }
    return TABLE_OK;
}

int table_file_check_identity(const char *path, const struct table_file_info *got,
                              const struct table_file_info *want, char *err,
                              size_t err_size)
{
    if (strcmp(got->variant, want->variant) != 0) {
        snprintf(err, err_size, "%s is a table of %s, not %s", path, got->variant,
                 want->variant);
        return TABLE_ERR_VARIANT;
    }
    if (got->index_version != want->index_version) {
        snprintf(err, err_size, "%s has index version %u; this damero reads version %u "
                 "(rebuild it)", path, got->index_version, want->index_version);
        return TABLE_ERR_VERSION;
    }
    if (strcmp(got->material, want->material) != 0 || got->metric != want->metric ||
        got->positions != want->positions) {
        snprintf(err, err_size, "%s holds %s%s of %llu positions, not %s%s of %llu", path,
                 got->material, table_metric_suffix(got->metric),
                 (unsigned long long)got->positions, want->material,
                 table_metric_suffix(want->metric), (unsigned long long)want->positions);
        return TABLE_ERR_FORMAT;
    }
    return TABLE_OK;
}

int table_file_read_info(const char *path, struct table_file_info *info, char *err,
                         size_t err_size)
{
    struct table_map map;
    int status = table_map_open(path, &map, err, err_size);
    if (status == TABLE_OK) {
        *info = map.info;
        table_map_close(&map);
    }
    return status;
}

struct table_file_info table_file_identity(const struct variant *v, const struct material *m,
                                           enum table_metric metric, uint64_t positions)
{
    struct table_file_info want = { .metric = metric, .index_version = INDEX_VERSION,
                                    .positions = positions };
    char name[MATERIAL_NAME_SIZE];
    material_name(m, name);
    snprintf(want.variant, sizeof want.variant, "%s", v->name);
    /* a table's material has at most MATERIAL_MAX_PIECES pieces: its name fits */
    snprintf(want.material, sizeof want.material, "%.*s", (int)sizeof want.material - 1, name);
    return want;
}
