/* The table file: one metric (WDL, DTM or MTC) of one material, both sides to move.
 *
 * Layout, all numbers little-endian:
 *   header (TABLE_HEADER_SIZE bytes): magic "DAMEROTB", format version, index version,
 *     variant and material names, metric, bytes per value, positions per side to move,
 *     values per block, number of blocks, a checksum of every value, and a checksum of
 *     the header and directory;
 *   block directory: num_blocks + 1 offsets from the start of the blocks;
 *   blocks: each a zstd frame holding block_values values (fewer in a side's last
 *     block), White to move first, then Black. Two-byte values are stored as a plane of
 *     low bytes followed by a plane of high bytes, which compresses better.
 * Any block can be read alone, so a prober can fetch positions at random.
 *
 * Files are written under a temporary name in the same directory and renamed when
 * complete, so a table is either whole or absent. */
#ifndef DAMERO_TABLEFILE_H
#define DAMERO_TABLEFILE_H

#include <stddef.h>
#include <stdint.h>

#define TABLE_FORMAT_VERSION 1
#define TABLE_HEADER_SIZE 128
#define TABLE_BLOCK_VALUES 32768
#define TABLE_NAME_SIZE 24

enum table_metric { METRIC_WDL = 1, METRIC_DTM = 2, METRIC_MTC = 3 };

struct table_file_info {
    char variant[TABLE_NAME_SIZE];
    char material[TABLE_NAME_SIZE];
    enum table_metric metric;
    uint32_t index_version;
    uint32_t value_bytes;  /* 1 or 2 */
    uint64_t positions;    /* per side to move */
    uint64_t checksum;     /* of the values, as table_checksum() computes it */
};

/* The file name suffix of a metric: ".wdl", ".dtm", ".mtc". */
const char *table_metric_suffix(enum table_metric metric);

/* Writes a table: values[side] holds info->positions values of info->value_bytes bytes
 * each (uint8_t or uint16_t). The checksum in info is computed here. Compression uses
 * every OpenMP thread; the bytes written do not depend on their number. Returns 0, or -1
 * with a sentence in err (and no file left behind). */
int table_file_write(const char *path, const struct table_file_info *info,
                     const void *const values[2], char *err, size_t err_size);

/* Reads a whole table and checks it: header, versions, sizes and checksums. On success
 * *info is filled and values[side] are malloc'd arrays of info->positions values (free
 * them). Returns 0, or -1 with a sentence in err naming what is wrong. */
int table_file_read(const char *path, struct table_file_info *info, void *values[2],
                    char *err, size_t err_size);

/* Reads and checks only the header. Returns 0, or -1 with a sentence in err. */
int table_file_read_info(const char *path, struct table_file_info *info, char *err,
                         size_t err_size);

#endif
