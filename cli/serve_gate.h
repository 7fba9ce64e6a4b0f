/* The gate of damero serve's costly requests (the searches under the rules): at most
 * `workers` run at once, at most `queue` more wait for a place, and a request that finds
 * the queue full is refused at once rather than left to wait behind work it cannot
 * overtake. A waiting request also leaves the queue when its budget is spent or its
 * client has gone (give_up, asked every GATE_POLL_MS). */
#ifndef DAMERO_CLI_SERVE_GATE_H
#define DAMERO_CLI_SERVE_GATE_H

#include <pthread.h>

#define GATE_POLL_MS 20

struct gate {
    pthread_mutex_t lock;
    pthread_cond_t freed;     /* a running request has left */
    int workers, queue;       /* the bounds */
    int running, waiting;
};

enum gate_entry {
    GATE_IN,        /* the request runs: gate_leave when it is done */
    GATE_FULL,      /* `queue` requests wait already: refused */
    GATE_GAVE_UP    /* give_up said so while it waited */
};

/* Returns 0, or -1 when the lock or condition cannot be made. */
int gate_init(struct gate *g, int workers, int queue);
void gate_free(struct gate *g);

enum gate_entry gate_enter(struct gate *g, int (*give_up)(void *context), void *context);
void gate_leave(struct gate *g);

#endif
