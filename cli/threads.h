/* The threads of a build: as many as asked for, or as many as can start. */
#ifndef DAMERO_CLI_THREADS_H
#define DAMERO_CLI_THREADS_H

/* Sets OpenMP's thread count to `wanted` (0: every core), or to fewer when no more
 * threads can start, saying so on stderr for command `cmd`. OpenMP ends the process
 * when it cannot create a thread it counted on ("libgomp: Thread creation failed"),
 * as under an address-space limit (ulimit -v) too small for the threads' stacks: the
 * threads are tried first, all at once; when not all of them start, half of those that
 * did are used, leaving room for the work. */
void threads_start(const char *cmd, int wanted);

/* Makes OpenMP's waiting threads sleep rather than spin, unless the user chose (see
 * threads.c): starts the program again with OMP_WAIT_POLICY=passive. Call first thing. */
void threads_prefer_passive_waits(char **argv);

#endif
