/* How a long computation tells its caller how far it has come. The caller draws it (the
 * command: cli/progress.h); the computation only calls back. */
#ifndef DAMERO_SOLVE_PROGRESS_H
#define DAMERO_SOLVE_PROGRESS_H

/* Where a computation made of parts (a build's materials, verify's rules' endings)
 * stands as one of its parts starts. */
struct progress_part {
    const char *parts;  /* what the parts are, plural: "materials" */
    const char *name;   /* the part starting; "done" after the last */
    int done, total;    /* parts finished, of how many */
    /* the work (positions per side to move) of the parts finished, of this one, and of
     * them all: the rate shown is from it */
    double work_done, work, total_work;
    /* the same work weighted by what a unit of it costs, where parts differ (a build's
     * positions of more pieces take longer: gen/time_estimate.h), else equal to it: the
     * time left is estimated from it */
    double cost_done, cost, total_cost;
};

/* report() is called now and then with the fraction done (0 to 1) of the work under way,
 * always on the same thread; a NULL pointer to this struct means nobody asked. */
struct progress_report {
    void (*report)(void *context, double fraction);
    void *context;
    /* when not NULL, also told how many groups of work (the solver's levels of men
     * advancement) are done, of how many, before each report() */
    void (*steps)(void *context, int done, int total);
    /* when not NULL, told as each part of a computation made of parts starts, and once
     * after the last */
    void (*part)(void *context, const struct progress_part *part);
};

/* Tells progress (when someone asked, and for parts) that `part` starts. */
static inline void progress_tell_part(const struct progress_report *progress,
                                      const struct progress_part *part)
{
    if (progress && progress->part)
        progress->part(progress->context, part);
}

#endif
