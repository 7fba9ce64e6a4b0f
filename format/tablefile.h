/* The table file: one metric (WDL, DTM or MTC) of one material, both sides to move.
 *
 * Layout, all numbers little-endian (the checksums hash values as a little-endian machine
 * holds them in memory, so damero builds only for little-endian machines):
 *   header (TABLE_HEADER_SIZE bytes): magic "DAMEROTB", format version, index version,
 *     variant and material names, metric, bits per value, positions per side to move,
 *     values per block, number of blocks, a checksum of every value, flags, and a
 *     checksum of the header and directory (offsets in docs/how-it-works.md);
 *   block directory: num_blocks + 1 offsets from the start of the blocks;
 *   blocks: each a zstd frame (with its content checksum) holding block_values values
 *     (fewer in a side's last block), White to move first, then Black.
 * How a block stores its values depends on their width: 2-bit values (WDL) four to a
 * byte, lowest bits first; bytes as they are; 16-bit values as a plane of low bytes
 * followed by a plane of high bytes, which compresses better. WDL blocks are small, so
 * that a prober reading one position decompresses little.
 *
 * With TABLE_FLAG_CAPTURES_DONT_CARE, the value of a position where the side to move
 * must capture is not its value but whatever compresses best; a prober plays the
 * captures and probes the positions they lead to.
 *
 * Any block can be read alone, so a prober can fetch positions at random. Files are
 * written under a temporary name in the same directory and renamed when complete, so a
 * table is either whole or absent. */
#ifndef DAMERO_TABLEFILE_H
#define DAMERO_TABLEFILE_H

#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

#include "format/material.h"

#define TABLE_FORMAT_VERSION 2
#define TABLE_HEADER_SIZE 128
#define TABLE_NAME_SIZE 24
#define TABLE_MAX_BLOCK_BYTES 65536 /* decompressed */

/* METRIC_RULES0 and METRIC_RULES1: the value under the move-limit rules of each
 * position's fresh state, under reading 0 or 1, coded as DTM values are (the rule tables:
 * docs/how-it-works.md, "Values under the rules: the table"). METRIC_ZEROING0 and
 * METRIC_ZEROING1: the distance to zeroing of the same states (the plies to the end of
 * the game or to the next zeroing move that keeps the value under the rules), 0 where
 * the rule table says draw (the distance tables: "The distance to zeroing"). */
enum table_metric {
    METRIC_WDL = 1,
    METRIC_DTM = 2,
    METRIC_MTC = 3,
    METRIC_RULES0 = 4,
    METRIC_RULES1 = 5,
    METRIC_ZEROING0 = 6,
    METRIC_ZEROING1 = 7,
    METRIC_LAST = METRIC_ZEROING1,
};

/* The rule table's metric of a reading (0 or 1). */
static inline enum table_metric table_metric_rules(int reading)
{
    return reading ? METRIC_RULES1 : METRIC_RULES0;
}

/* The distance table's metric of a reading (0 or 1). */
static inline enum table_metric table_metric_zeroing(int reading)
{
    return reading ? METRIC_ZEROING1 : METRIC_ZEROING0;
}

/* TABLE_FLAG_WDL_ONLY marks the WDL file of a table built without DTM and MTC (damero
 * gen --metrics wdl): no .dtm or .mtc file goes with it, and its values are exact (no
 * don't-cares), since later builds read them. */
enum table_flags { TABLE_FLAG_CAPTURES_DONT_CARE = 1, TABLE_FLAG_WDL_ONLY = 2 };

/* What went wrong reading a table; the functions below return these (0 or negative). */
enum table_status {
    TABLE_OK = 0,
    TABLE_ERR_IO = -1,        /* the file cannot be opened or read */
    TABLE_ERR_FORMAT = -2,    /* not a damero table, or its header makes no sense */
    TABLE_ERR_TRUNCATED = -3, /* shorter (or longer) than its header says */
    TABLE_ERR_VERSION = -4,   /* written by another format version */
    TABLE_ERR_CORRUPT = -5,   /* a checksum does not match: the file is damaged */
    TABLE_ERR_MEMORY = -6,
    TABLE_ERR_VARIANT = -7,   /* a table of another variant */
};

struct table_file_info {
    char variant[TABLE_NAME_SIZE];
    char material[TABLE_NAME_SIZE];
    enum table_metric metric;
    uint32_t index_version;
    uint32_t value_bits;   /* 2, 8 or 16 */
    uint32_t flags;        /* enum table_flags */
    uint64_t positions;    /* per side to move */
    uint64_t checksum;     /* of the values, as the reader computes it */
};

/* Bytes per value in memory: 1 for 2- and 8-bit values, 2 for 16-bit ones. */
static inline size_t table_value_bytes(const struct table_file_info *info)
{
    return info->value_bits > 8 ? 2 : 1;
}

/* The file name suffix of a metric: ".wdl", ".dtm", ".mtc", ".ru0", ".ru1", ".rz0",
 * ".rz1" (four characters each). */
const char *table_metric_suffix(enum table_metric metric);

/* The identity that material m's file of one metric must have: variant, material,
 * metric, the index version this damero numbers positions with, and `positions` per side
 * to move (what table_file_check_identity compares; value width, flags and checksum are
 * left 0). The one place that says what a table file should be. */
struct table_file_info table_file_identity(const struct variant *v, const struct material *m,
                                           enum table_metric metric, uint64_t positions);

/* Checks that the file at path, whose header is *got, is the table `want` describes:
 * variant, material, metric, index version and positions per side (want's checksum,
 * value width and flags are not compared). Returns TABLE_OK, or TABLE_ERR_VARIANT,
 * TABLE_ERR_VERSION (another index version) or TABLE_ERR_FORMAT, with a sentence in err. */
int table_file_check_identity(const char *path, const struct table_file_info *got,
                              const struct table_file_info *want, char *err,
                              size_t err_size);

/* Checks the header and block directory only (not the values). */
int table_file_read_info(const char *path, struct table_file_info *info, char *err,
                         size_t err_size);

/* A table file open for reading blocks at random. Its header and block directory are
 * read into memory at open; each block is read with pread when it is needed, so that a
 * file truncated or rewritten under a reader gives an error status, never a signal (as a
 * mapping would). Read-only once open: any number of threads may read blocks of one map
 * at once. */
struct table_map {
    struct table_file_info info;
    int fd;                     /* valid while table_map_is_open */
    uint64_t *offsets;          /* num_blocks + 1 block offsets, from the directory */
    uint64_t blocks_at;         /* where the blocks start in the file */
    uint64_t size;              /* the file's size at open */
    uint32_t block_values;      /* a power of two: */
    uint32_t block_shift;       /* its log2 (a probe shifts where it would divide) */
    uint64_t blocks_per_side;
    uint64_t num_blocks;        /* both sides */
};

/* Opens path and checks its header and directory (not the blocks, which are checked as
 * they are decompressed). Refuses without blocking what is not a regular file (a FIFO, a
 * device, a directory). Returns TABLE_OK or a negative enum table_status, with a sentence
 * in err. */
int table_map_open(const char *path, struct table_map *map, char *err, size_t err_size);
void table_map_close(struct table_map *map);

/* Whether map holds an open file (a zeroed map does not). */
static inline int table_map_is_open(const struct table_map *map)
{
    return map->offsets != NULL;
}

/* The largest code a value of the metric may have: WDL 2, DTM a loss in DTM_MAX_PLIES,
 * MTC DTM_MAX_PLIES plies (format/value.h). A file holding more is damaged or crafted. */
unsigned table_metric_max_value(enum table_metric metric);

/* The block holding the value of position `index` for side to move `side`; the value's
 * place in it is index % map->block_values. */
static inline uint64_t table_block_of(const struct table_map *map, int side, uint64_t index)
{
    return (uint64_t)side * map->blocks_per_side + (index >> map->block_shift);
}

/* The number of values in block b and its decompressed size in bytes (inline: every
 * probe asks; no division, which cost a probe more than the rest of the lookup). */
static inline uint32_t table_block_count(const struct table_map *map, uint64_t b)
{
    uint64_t in_side = b >= map->blocks_per_side ? b - map->blocks_per_side : b;
    uint64_t first = in_side << map->block_shift;
    uint64_t left = map->info.positions - first;
    return left < map->block_values ? (uint32_t)left : map->block_values;
}

static inline size_t table_block_bytes(const struct table_map *map, uint64_t b)
{
    size_t n = table_block_count(map, b);
    return map->info.value_bits == 2 ? (n + 3) / 4 : n * table_value_bytes(&map->info);
}

/* Reads block b from the file and decompresses it into raw (table_block_bytes(map, b)
 * bytes) with dctx, checking its checksum and that every value is in the metric's range.
 * Thread-safe given one dctx per thread. Returns TABLE_OK; TABLE_ERR_CORRUPT when the
 * block is damaged, TABLE_ERR_TRUNCATED or TABLE_ERR_IO when it cannot be read (the file
 * was cut or replaced under the reader), TABLE_ERR_MEMORY; with a sentence in err naming
 * the file ("KKvK.dtm: block 3 ..."). */
int table_map_block(const struct table_map *map, ZSTD_DCtx *dctx, uint64_t b, uint8_t *raw,
                    char *err, size_t err_size);

/* ---- Encoding, shared by the writer (store/table_io.c) and the readers ---- */

/* Fills map's block geometry (block_values, blocks_per_side, num_blocks) from map->info:
 * the same for the file written and the file read. */
void table_block_layout(struct table_map *map);

/* The checksum of a table's values (info->positions per side, in memory widths), taken
 * piece by piece: from TABLE_CHECKSUM_SEED, the values of side 0 then side 1 in order,
 * each piece but a side's last a multiple of 8 bytes long (a block's values are). */
#define TABLE_CHECKSUM_SEED 0xcbf29ce484222325ull
uint64_t table_checksum_add(uint64_t h, const void *values, size_t bytes);

/* Block b of values[2] as stored in the file, into out (TABLE_MAX_BLOCK_BYTES); returns
 * its size in bytes, table_block_bytes(map, b). */
size_t table_encode_block(const struct table_map *map, const void *const values[2], uint64_t b,
                          uint8_t *out);

/* The inverse: a decompressed block b into out, its table_block_count(map, b) values in
 * memory widths. */
void table_decode_block_to(const struct table_map *map, uint64_t b, const uint8_t *raw,
                           void *out);

/* The header (TABLE_HEADER_SIZE bytes) and block directory ((num_blocks + 1) * 8 bytes)
 * of a file whose blocks start at offsets[0..num_blocks] (offsets[num_blocks]: the end),
 * checksum included. */
void table_encode_header(const struct table_map *map, const uint64_t *offsets,
                         uint8_t *header, uint8_t *directory);

/* Recomputes the header checksum of a table file held in memory (`size` bytes) from its
 * header and directory, as the writer does: for tools that craft damaged files on
 * purpose (the fuzzer), so that what lies past the checksum is reached. Returns 0, or -1
 * when the bytes are too short to hold the header and the directory it names. */
int table_seal_header(uint8_t *file, size_t size);

/* Value k of a decompressed block of `count` values of the given width. */
static inline unsigned table_raw_value(uint32_t value_bits, const uint8_t *raw, uint32_t count,
                                       uint32_t k)
{
    if (value_bits == 2)
        return (raw[k >> 2] >> (2 * (k & 3))) & 3;
    if (value_bits == 8)
        return raw[k];
    return raw[k] | (unsigned)raw[count + k] << 8;
}

#endif
