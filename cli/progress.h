/* The progress bar that `damero gen` and `damero verify` draw on stderr: the parts done
 * (materials built, rules' endings checked), the one under way, the rate and the time
 * left, estimated from the work still to do. The computation only calls back through
 * solve/progress.h; drawing is the command's job. */
#ifndef DAMERO_CLI_PROGRESS_H
#define DAMERO_CLI_PROGRESS_H

#include <stdbool.h>

#include "solve/progress.h"

struct progress_bar {
    struct progress_report callbacks;
    bool on;       /* drawn at all (stderr a terminal) */
    bool drawn;    /* since the last progress_bar_end: the line it ends is owed */
    double start, last_shown, part_start;
    struct progress_part part; /* the part under way, its name in `name` */
    char name[64];
    double fraction;             /* of the part under way */
    int steps_done, steps_total; /* of the part under way; 0 of 0 when not told */
};

/* A bar drawn only when `on`. */
void progress_bar_init(struct progress_bar *bar, bool on);

/* What a computation calls back to draw on bar (build_options.progress, verify_rules):
 * NULL when the bar is off, so that nobody computes progress for nothing. */
const struct progress_report *progress_bar_callbacks(struct progress_bar *bar);

/* The seconds left of a computation `elapsed` seconds in, with `fraction` (0 to 1) of
 * part p done: the elapsed time scaled by the cost still to do over the cost done. */
double progress_seconds_left(const struct progress_part *p, double fraction, double elapsed);

/* Ends the line the bar was drawn on, when it was: what follows on stderr starts a line
 * of its own, and the next part told starts a new bar. */
void progress_bar_end(struct progress_bar *bar);

#endif
