/* The clock every timed figure (perft rates, build summaries, progress) is read from:
 * monotonic, so a change of the system time cannot make a rate negative. */
#ifndef DAMERO_CLOCK_H
#define DAMERO_CLOCK_H

#include <time.h>

static inline double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The processor time the process has used, every thread together (user and system): what
 * a machine shared with other work disturbs least. */
static inline double cpu_seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
