/* Failing a libdamero call from another file of the library: the message is kept for
 * damero_error_message() (probe/damero.c holds it, per thread). */
#ifndef DAMERO_PROBE_FAIL_H
#define DAMERO_PROBE_FAIL_H

/* Keeps message as this thread's last error and returns status. */
int probe_fail(int status, const char *message);

#endif
