/* How long a build will take on this machine (`damero gen --estimate`): the plan's
 * positions at rates measured here and now, by solving the variant's smallest materials
 * in a temporary folder as a build would, with the same metrics and threads.
 *
 * The rate is not one figure: a position of a kings-only material costs more than one
 * with men (its symmetry classes, the kings' long moves), so the calibration measures
 * it per class of material (kings only, with men). A material of more pieces than the
 * calibration solved is priced at the rate of its class at the calibration's largest
 * piece count, times its pieces over that count: each piece adds its moves to generate
 * and undo (russian: 3.7 M positions per second at 4 pieces, 3.0 M at 5, as 4/5
 * predicts). It does not see whether the tables of the largest materials, outgrowing the
 * processor's caches, slow them further: bench/RESULTS.md says how close the estimate
 * comes on builds of 4 to 7 pieces. */
#ifndef DAMERO_GEN_TIME_ESTIMATE_H
#define DAMERO_GEN_TIME_ESTIMATE_H

#include <stddef.h>

#include "gen/plan.h"
#include "store/tableset.h"

enum work_class { WORK_KINGS_ONLY, WORK_WITH_MEN, WORK_CLASSES };

/* The class of material m. */
enum work_class work_class_of(const struct material *m);

/* What the calibration solved and how long it took. */
struct calibration {
    int pieces;  /* it solved every material of 2 to `pieces` pieces */
    int threads; /* on this many threads */
    /* by class and number of pieces: the positions solved (both sides to move) and the
     * processor seconds they took (user and system, every thread) */
    double positions[WORK_CLASSES][MATERIAL_MAX_PIECES + 1];
    double cpu_seconds[WORK_CLASSES][MATERIAL_MAX_PIECES + 1];
    double wall_seconds; /* of the whole calibration */
};

/* Solves every material of ts's variant up to the most pieces whose positions, all
 * together, stay under a limit (a second or two of work), in a fresh temporary folder
 * removed afterwards, built as ts builds (its metrics), on the OpenMP threads. Returns
 * 0, or -1 with a sentence in err (the temporary folder cannot be made, or the solve
 * fails). */
int calibrate(const struct tableset *ts, struct calibration *c, char *err, size_t err_size);

/* The processor seconds per position (both sides to move) of a material of class `cls`
 * with `pieces` pieces, from the calibration: as measured up to c->pieces, in proportion
 * to the pieces beyond. */
double seconds_per_position(const struct calibration *c, enum work_class cls, int pieces);

/* The time the plan's materials still to solve (not found on disk) will take. */
struct time_estimate {
    struct calibration calibration; /* what it is based on */
    int materials;       /* to solve */
    double positions;    /* of them, both sides to move */
    double cpu_seconds;  /* processor time, every thread */
    double wall_seconds; /* on c->threads threads that have a core each */
};

void estimate_time(const struct plan *plan, const struct calibration *c,
                   struct time_estimate *e);

/* The cost of solving `positions` positions of m, for the progress of a build, which has
 * no calibration: in proportion to its pieces, as beyond the calibration. */
double material_cost(const struct material *m, double positions);

#endif
