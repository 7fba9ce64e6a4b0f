/* The connections of damero serve, watched for a deadline on the request head: a client
 * that has not sent a whole request head within head_ms of connecting (or of its
 * previous answer, on a kept-alive connection) is cut off, however it trickles bytes in.
 * libmicrohttpd's own timeout is an idle one, reset by every byte, so without this a
 * client sending a header line every few seconds holds its connection, and its thread,
 * for as long as it likes.
 *
 * The server tells the watch when a connection opens and closes, when its request head
 * is whole (the request handler's first call) and when its answer has gone out; a thread
 * of the watch looks over them every WATCH_PERIOD_MS and shuts the socket of those past
 * the deadline (shutdown(2): libmicrohttpd then sees the connection end and closes it
 * itself). */
#ifndef DAMERO_CLI_SERVE_WATCH_H
#define DAMERO_CLI_SERVE_WATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#define WATCH_PERIOD_MS 100

struct watched {
    int fd;                  /* the connection's socket, open until watch_remove */
    struct timespec since;   /* when the head it waits for began */
    bool in_request;         /* a whole head came: the request is being answered */
    bool cut;                /* shut by the watch */
    struct watched *prev, *next;
};

struct watch {
    pthread_mutex_t lock;    /* guards the list and `stopping` */
    pthread_cond_t wake;     /* signalled to stop */
    struct watched *first;
    long head_ms;
    bool stopping;
    unsigned long cuts;      /* connections cut so far */
    pthread_t thread;
};

/* Starts the watch's thread. Returns 0, or -1 when it cannot (w is then unusable). */
int watch_start(struct watch *w, long head_ms);

/* Stops the thread and frees what is left (no connection may be added after). */
void watch_stop(struct watch *w);

/* A connection opened on fd: watched from now. NULL when out of memory (not watched). */
struct watched *watch_add(struct watch *w, int fd);

/* The connection is closing: watched no more (before its socket is closed). NULL is
 * allowed. */
void watch_remove(struct watch *w, struct watched *c);

/* Its request head is whole (the request is being answered), or its answer has gone out
 * (the next head's time starts now). NULL is allowed. */
void watch_request_started(struct watch *w, struct watched *c);
void watch_request_done(struct watch *w, struct watched *c);

#endif
