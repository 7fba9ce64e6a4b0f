/* The deadline on request heads of damero serve (cli/serve_watch.h). */
#include "cli/serve_watch.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

static long ms_since(const struct timespec *then, const struct timespec *now)
{
    return (now->tv_sec - then->tv_sec) * 1000 + (now->tv_nsec - then->tv_nsec) / 1000000;
}

/* Shuts the sockets of the connections whose head is late. Under w->lock: a connection
 * is removed under it before its socket is closed, so every fd here is still open. */
static void cut_late(struct watch *w)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    for (struct watched *c = w->first; c; c = c->next)
        if (!c->in_request && !c->cut && ms_since(&c->since, &now) > w->head_ms) {
            shutdown(c->fd, SHUT_RDWR);
            c->cut = true;
            w->cuts++;
        }
}

static void *watch_main(void *arg)
{
    struct watch *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += WATCH_PERIOD_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        if (pthread_cond_timedwait(&w->wake, &w->lock, &until) == ETIMEDOUT)
            cut_late(w);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

int watch_start(struct watch *w, long head_ms)
{
    *w = (struct watch){ .head_ms = head_ms };
    if (pthread_mutex_init(&w->lock, NULL) != 0)
        return -1;
    if (pthread_cond_init(&w->wake, NULL) != 0) {
        pthread_mutex_destroy(&w->lock);
        return -1;
    }
    if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        return -1;
    }
    return 0;
}

void watch_stop(struct watch *w)
{
    pthread_mutex_lock(&w->lock);
    w->stopping = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    while (w->first) {
        struct watched *c = w->first;
        w->first = c->next;
        free(c);
    }
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
}

struct watched *watch_add(struct watch *w, int fd)
{
    struct watched *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fd = fd;
    clock_gettime(CLOCK_MONOTONIC, &c->since);
    pthread_mutex_lock(&w->lock);
    c->next = w->first;
    if (w->first)
        w->first->prev = c;
    w->first = c;
    pthread_mutex_unlock(&w->lock);
    return c;
}

void watch_remove(struct watch *w, struct watched *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&w->lock);
    if (c->prev)
        c->prev->next = c->next;
    else
        w->first = c->next;
    if (c->next)
        c->next->prev = c->prev;
    pthread_mutex_unlock(&w->lock);
    free(c);
}

void watch_request_started(struct watch *w, struct watched *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&w->lock);
    c->in_request = true;
    pthread_mutex_unlock(&w->lock);
}

void watch_request_done(struct watch *w, struct watched *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&w->lock);
    c->in_request = false;
    clock_gettime(CLOCK_MONOTONIC, &c->since);
    pthread_mutex_unlock(&w->lock);
}
