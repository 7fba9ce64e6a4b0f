/* The levels of men advancement of a material being built, each kept in its own file
 * (DIR/MATERIAL.levelNN) as soon as it is solved: memory holds only the level in flight,
 * and a build killed at any moment resumes from the last level it finished. When every
 * level is done, the table files are assembled from them, one metric at a time, and the
 * level files removed.
 *
 * A level file is a fixed header (its material, level, size and largest values) and one
 * zstd frame with its checksum: for each side to move, the level's DTM (16-bit), its MTC
 * (16-bit) and a byte per position, nonzero where the side to move must capture; in a
 * build without DTM, for each side the WDL, two bits a position (solve/solve.h), and
 * then its MTC (16-bit) where it builds MTC (--metrics wdl+mtc); then, under the frame's
 * checksum, the header's largest DTM and MTC again. Values are in the
 * machine's byte order: these files live only while their material is being built, on
 * the machine that builds it. A killed build's level file is trusted only when it is
 * read through, its checksum right: a damaged one is solved again.
 *
 * A small material's levels are held in memory instead (ts->levels_held_most):
 * it is solved in seconds, so a killed build loses little by solving it again, while a
 * file per level (created, synced, renamed, read back, removed) would cost more than the
 * solving itself in a set of many small materials. */
#ifndef DAMERO_LEVEL_FILE_H
#define DAMERO_LEVEL_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "solve/solve.h"
#include "store/tableset.h"

struct held_level;

struct level_files {
    const struct tableset *ts; /* with a directory */
    struct material m;
    int found; /* levels found finished (by a build killed before), counted by the store */
    struct held_level *held; /* by level, when they are held in memory; else NULL */
};

/* The bytes that the levels of a material of `positions` positions per side to move
 * built in ts take together when they are held in memory; 0 when they go to files
 * (more than ts->levels_held_most, or no directory). */
double level_files_held_bytes(const struct tableset *ts, double positions);

/* Sets up *files for material m of ts, of about `positions` positions per side: its
 * levels are held in memory where level_files_held_bytes says so, else go to files in
 * ts->dir. Returns 0, or -1 with a sentence in err (out of memory). Release with
 * level_files_release. */
int level_files_init(struct level_files *files, const struct tableset *ts,
                     const struct material *m, double positions, char *err,
                     size_t err_size);

/* Frees the levels held in memory (the files on disk stay: level_files_remove). */
void level_files_release(struct level_files *files);

/* A store (solve/solve.h) that keeps the levels of files->m as level_files_init set up,
 * files each written through a temporary name and renamed when whole. files must
 * outlive it. */
void level_files_store(struct level_files *files, struct level_store *store);

/* Writes the table files of t (its material and index; the values are in files) from
 * the levels: WDL, and DTM and MTC where the build writes them (tableset_builds). Holds one metric of the
 * table and the values of one level at a time (beside the levels held in memory).
 * Returns 0, or -1 with a sentence in err. */
int level_files_assemble(const struct level_files *files, const struct table *t, char *err,
                         size_t err_size);

/* Removes the level files of material m. */
void level_files_remove(const struct tableset *ts, const struct material *m);

/* Whether a file name is that of a level file's temporary (MATERIAL.levelNN.tmp.PID). */
bool is_level_temporary(const char *name);

#endif
