#include "cli/threads.h"

#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/* OpenMP threads that wait at a barrier spin by default, burning a core each: on a
 * machine shared with other jobs that doubles the CPU time of a build and slows the
 * threads still working. The OpenMP runtime reads its waiting policy from the environment
 * once, as the program loads, so unless the user chose one (OMP_WAIT_POLICY, or GNU's
 * GOMP_SPINCOUNT), set passive waiting and start the program again. Tables do not depend
 * on it. If the program cannot be started again, it carries on with the default policy. */
void threads_prefer_passive_waits(char **argv)
{
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT"))
        return;
    if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    unsetenv("OMP_WAIT_POLICY"); /* not restarted: the policy is still the default */
}
