/* Whole table files in and out, for the generator: writing a solved table (compressing
 * its blocks on every OpenMP thread) and reading one back whole. The file layout is
 * format/tablefile.h's; a prober reads single blocks through table_map instead. */
#ifndef DAMERO_STORE_TABLE_IO_H
#define DAMERO_STORE_TABLE_IO_H

#include <stddef.h>
#include <stdio.h>

#include "format/tablefile.h"

/* Writes a table: values[side] holds info->positions values, uint8_t for 2- and 8-bit
 * widths (2-bit values must be below 4), uint16_t for 16 bits. The checksum in info is
 * computed here. Compression uses every OpenMP thread; the bytes written do not depend
 * on their number. The file is written as path.tmp.PID (created exclusively: whatever is
 * at that name, a planted symlink included, makes the write fail rather than be
 * followed), synced, renamed to path when whole, and the directory synced, so that a
 * finished table survives a power loss. Returns 0, or -1 with a sentence in err (and no
 * file left behind). */
int table_file_write(const char *path, const struct table_file_info *info,
                     const void *const values[2], char *err, size_t err_size);

/* Fills `values` with the info->positions values of one side, in memory widths.
 * Returns 0, or -1 with a sentence in err. */
typedef int (*table_side_filler)(void *context, int side, void *values, char *err,
                                 size_t err_size);

/* As table_file_write (the same bytes), holding one side's values at a time: fill() is
 * called for side 0 into buffer (room for info->positions values in memory widths), its
 * blocks compressed and written, then for side 1 into the same buffer. Returns 0, or -1
 * with a sentence in err (fill's own when it failed). */
int table_file_write_by_side(const char *path, const struct table_file_info *info,
                             void *buffer, table_side_filler fill, void *context, char *err,
                             size_t err_size);

/* Creates the file path for writing, only if nothing is there (O_EXCL) and without
 * following a symlink, with mode 0666 less the umask. Returns the stream, or NULL with
 * errno set. For temporary files that are renamed into place. */
FILE *file_create_exclusive(const char *path);

/* Syncs the directory that holds path, so that a rename into it is on disk. Returns 0,
 * or -1 with errno set. */
int file_sync_directory(const char *path);

/* Reads a whole table and checks it: header, versions, sizes and checksums. On success
 * *info is filled and values[side] are malloc'd arrays of info->positions values (free
 * them), in the memory widths of table_file_write. Returns TABLE_OK, or a negative
 * enum table_status with a sentence in err naming what is wrong. */
int table_file_read(const char *path, struct table_file_info *info, void *values[2],
                    char *err, size_t err_size);

/* Takes the values of one block read by table_map_read_blocks: `count` values of `side`
 * from index `first`, `width` bytes each (table_value_bytes). Returns 0, or a negative
 * status of its own that stops the reading. */
typedef int (*table_block_taker)(void *context, int side, uint64_t first, const void *values,
                                 uint32_t count, size_t width);

/* Reads every block of an open table in index order (side 0 first), handing each to
 * take() (NULL: the values are only checked), then checks the checksum: for a reader that keeps the values in another form,
 * without holding them whole at the file's width. Decompresses on every OpenMP thread,
 * a few megabytes at a time. Returns TABLE_OK; a negative enum table_status with a
 * sentence in err (the values handed over are then not to be used); or take()'s status. */
int table_map_read_blocks(const struct table_map *map, table_block_taker take, void *context,
                          char *err, size_t err_size);

#endif
