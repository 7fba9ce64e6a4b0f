/* The gate of damero serve's costly requests (cli/serve_gate.h). */
#include "cli/serve_gate.h"

#include <time.h>

int gate_init(struct gate *g, int workers, int queue)
{
    *g = (struct gate){ .workers = workers, .queue = queue };
    if (pthread_mutex_init(&g->lock, NULL) != 0)
        return -1;
    if (pthread_cond_init(&g->freed, NULL) != 0) {
        pthread_mutex_destroy(&g->lock);
        return -1;
    }
    return 0;
}

void gate_free(struct gate *g)
{
    pthread_cond_destroy(&g->freed);
    pthread_mutex_destroy(&g->lock);
}

static struct timespec poll_time(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += GATE_POLL_MS * 1000000L;
    t.tv_sec += t.tv_nsec / 1000000000L;
    t.tv_nsec %= 1000000000L;
    return t;
}

enum gate_entry gate_enter(struct gate *g, int (*give_up)(void *context), void *context)
{
    enum gate_entry entry = GATE_IN;
    pthread_mutex_lock(&g->lock);
    if (g->running >= g->workers && g->waiting >= g->queue) {
        pthread_mutex_unlock(&g->lock);
        return GATE_FULL;
    }
    g->waiting++;
    while (g->running >= g->workers && entry == GATE_IN) {
        struct timespec until = poll_time();
        pthread_cond_timedwait(&g->freed, &g->lock, &until);
        if (g->running >= g->workers && give_up(context))
            entry = GATE_GAVE_UP;
    }
    g->waiting--;
    if (entry == GATE_IN)
        g->running++;
    pthread_mutex_unlock(&g->lock);
    return entry;
}

void gate_leave(struct gate *g)
{
    pthread_mutex_lock(&g->lock);
    g->running--;
    pthread_cond_signal(&g->freed);
    pthread_mutex_unlock(&g->lock);
}
