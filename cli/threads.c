#include "cli/threads.h"

#include <omp.h>
#include <pthread.h>
#include <stdio.h>

/* Each trial thread waits on the mutex the caller holds, so that all of them stand at
 * once, each with its stack, as OpenMP's team will. */
static void *wait_for_release(void *mutex)
{
    pthread_mutex_lock(mutex);
    pthread_mutex_unlock(mutex);
    return NULL;
}

/* How many of `wanted` threads (the calling one among them) can stand at once. */
static int threads_that_start(int wanted)
{
    enum { MOST = 1024 }; /* --threads allows no more */
    pthread_t started[MOST];
    pthread_mutex_t release = PTHREAD_MUTEX_INITIALIZER;
    int count = 1;

    pthread_mutex_lock(&release);
    while (count < wanted && count < MOST &&
           pthread_create(&started[count - 1], NULL, wait_for_release, &release) == 0)
        count++;
    pthread_mutex_unlock(&release);
    for (int k = 0; k < count - 1; k++)
        pthread_join(started[k], NULL);
    return count;
}

void threads_start(const char *cmd, int wanted)
{
    if (wanted <= 0)
        wanted = omp_get_max_threads();
    int can = threads_that_start(wanted);
    if (can < wanted) {
        /* the stacks took all the room there was: half of them leave some to work in */
        int use = can > 1 ? can / 2 : 1;
        fprintf(stderr, "damero %s: only %d of %d threads could start (the address-space "
                "limit, ulimit -v, leaves no room for their stacks): running with %d, to "
                "leave memory for the work; the tables are the same\n", cmd, can, wanted, use);
        can = use;
    }
    omp_set_num_threads(can);
}
