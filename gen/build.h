/* Building tables: a material and everything it depends on, in building order. */
#ifndef DAMERO_BUILD_H
#define DAMERO_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/plan.h"
#include "gen/time_estimate.h"
#include "solve/progress.h"
#include "store/tableset.h"

/* What a build did, for its summary. */
struct build_report {
    int built, found;          /* tables solved, and tables read intact from disk */
    int self_checked;          /* tables run through the self-check (solve/self_check.h) */
    int levels_resumed;        /* levels of men advancement found finished by a build
                                * killed before, and not solved again */
    uint64_t positions_built;  /* positions solved, both sides to move */
    double seconds;
};

/* The processes of a job that share a build (damero-mpi, docs/cluster.md): each builds
 * the items of the plan dealt to it (gen/deal.h) into the one shared folder, and all wait
 * for one another between waves. Process 0 holds the folder's lock for the job. */
struct build_ranks {
    int rank, count;     /* this process, of count */
    int on_this_machine; /* the job's processes on this machine, sharing its memory */
    /* returns once every process has called it */
    void (*wait_for_all)(void *ctx);
    /* sums[0..n_sums) summed over the processes and most[0..n_most) their maxima, in
     * every process */
    void (*combine)(void *ctx, double *sums, int n_sums, double *most, int n_most);
    void *ctx;
};

struct build_options {
    bool self_check; /* recompute every table built or found from its moves */
    /* told how far the build has come, one part per material (NULL: nobody asked) */
    const struct progress_report *progress;
    struct build_report *report; /* filled in when not NULL */
    double memory_budget; /* bytes; a plan whose estimated peak exceeds it is refused
                           * before any work (0: no limit) */
    bool estimate_only; /* stop after the estimate and the budget check */
    struct build_estimate *estimate; /* filled in when not NULL */
    /* when not NULL, filled in with the time the plan will take, timing a few small
     * materials first (gen/time_estimate.h): seconds of work */
    struct time_estimate *time_estimate;
    struct plan *plan; /* when not NULL, filled in with the build's plan (--estimate --json) */
    bool rule_tables; /* also build each material's rule tables (rulegen/rule_table.h) */
    /* the job's processes, when several share the build (NULL: this process alone); the
     * report is then the job's */
    const struct build_ranks *ranks;
};

/* Builds the n materials in `wanted` (any orientation) and every material they depend on
 * that ts does not have yet, fewest pieces first. With ts->dir set, tables already on
 * disk and intact are read instead of rebuilt, and each new table is written there
 * (through a temporary name). Returns 0, or -1 with a sentence in err (a plan that does
 * not fit options->memory_budget names the material and the memory it needs). */
int build_materials(struct tableset *ts, const struct material *wanted, int n,
                    const struct build_options *options, char *err, size_t err_size);

#endif
