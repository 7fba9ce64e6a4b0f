/* How a long computation tells its caller how far it has come. */
#ifndef DAMERO_SOLVE_PROGRESS_H
#define DAMERO_SOLVE_PROGRESS_H

/* report() is called now and then with the fraction done (0 to 1), always on the same
 * thread; a NULL pointer to this struct means nobody asked. */
struct progress_report {
    void (*report)(void *context, double fraction);
    void *context;
    /* when not NULL, also told how many groups of work (the solver's levels of men
     * advancement) are done, of how many, before each report() */
    void (*steps)(void *context, int done, int total);
};

#endif
