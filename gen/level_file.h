/* The levels of men advancement of a material being built, each kept in its own file
 * (DIR/MATERIAL.levelNN) as soon as it is solved: memory holds only the level in flight,
 * and a build killed at any moment resumes from the last level it finished. When every
 * level is done, the table files are assembled from them, one metric at a time, and the
 * level files removed.
 *
 * A level file is a fixed header (its material, level, size and largest values) and one
 * zstd frame with its checksum: for each side to move, the level's DTM (16-bit), its MTC
 * (16-bit) and a byte per position, nonzero where the side to move must capture; in a
 * WDL-only build, for each side only the WDL, two bits a position (gen/solve.h). Values are in the machine's byte order: these files live only
 * while their material is being built, on the machine that builds it. */
#ifndef DAMERO_LEVEL_FILE_H
#define DAMERO_LEVEL_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/solve.h"
#include "gen/tableset.h"

struct level_files {
    const struct tableset *ts; /* with a directory */
    struct material m;
    int found; /* levels found finished (by a build killed before), counted by the store */
};

/* A store (gen/solve.h) that keeps the levels of files->m in files in files->ts->dir,
 * each written through a temporary name and renamed when whole. files must outlive it. */
void level_files_store(struct level_files *files, struct level_store *store);

/* Writes the table files of t (its material and index; the values are in its level
 * files) from the level files: WDL, and DTM and MTC unless the build is WDL-only. Holds
 * one metric of the table and the values of one level at a time. Returns 0, or -1 with a
 * sentence in err. */
int level_files_assemble(const struct tableset *ts, const struct table *t, char *err,
                         size_t err_size);

/* Removes the level files of material m. */
void level_files_remove(const struct tableset *ts, const struct material *m);

/* Whether a file name is that of a level file's temporary (MATERIAL.levelNN.tmp.PID). */
bool is_level_temporary(const char *name);

#endif
