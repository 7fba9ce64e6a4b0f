#include "cli/progress.h"

#include <stdio.h>
#include <string.h>

#include "core/clock.h"

double progress_seconds_left(const struct progress_part *p, double fraction, double elapsed)
{
    double cost = p->cost_done + fraction * p->cost;
    return cost > 0 ? elapsed * (p->total_cost - cost) / cost : 0;
}

/* Draws the bar over the line it was last drawn on. */
static void show(struct progress_bar *bar)
{
    const struct progress_part *p = &bar->part;
    double now = seconds_now(), elapsed = now - bar->start, in_part = now - bar->part_start;
    double work = p->work_done + bar->fraction * p->work;
    double rate = elapsed > 0 ? work * 2 / elapsed : 0; /* both sides to move */
    double left = progress_seconds_left(p, bar->fraction, elapsed);
    double part_left = bar->fraction > 0 ? in_part * (1 - bar->fraction) / bar->fraction : 0;
    double cost = p->cost_done + bar->fraction * p->cost;
    int width = 24, filled = (int)(width * cost / (p->total_cost > 0 ? p->total_cost : 1));
    char steps[32] = "";
    if (bar->steps_total > 0)
        snprintf(steps, sizeof steps, "level %d/%d", bar->steps_done, bar->steps_total);
    bar->last_shown = now;
    bar->drawn = true;
    fprintf(stderr, "\r[%.*s%*s] %d/%d %s  %-16s %-11s  %6.1f M positions/s  "
            "%5.0f s left (this one %.0f s) ",
            filled, "########################", width - filled, "", p->done, p->total,
            p->parts, bar->name, steps, rate / 1e6, left, part_left);
    fflush(stderr);
}

static void on_part(void *context, const struct progress_part *part)
{
    struct progress_bar *bar = context;
    double now = seconds_now();
    if (!bar->drawn)
        bar->start = now;
    bar->part = *part;
    snprintf(bar->name, sizeof bar->name, "%s", part->name);
    bar->part.name = bar->name;
    bar->part_start = now;
    bar->fraction = 0;
    bar->steps_done = bar->steps_total = 0;
    show(bar);
}

static void on_steps(void *context, int done, int total)
{
    struct progress_bar *bar = context;
    bar->steps_done = done;
    bar->steps_total = total;
}

static void on_fraction(void *context, double fraction)
{
    struct progress_bar *bar = context;
    bar->fraction = fraction;
    if (seconds_now() - bar->last_shown > 0.5)
        show(bar);
}

void progress_bar_init(struct progress_bar *bar, bool on)
{
    memset(bar, 0, sizeof *bar);
    bar->on = on;
    bar->callbacks = (struct progress_report){ on_fraction, bar, on_steps, on_part };
}

const struct progress_report *progress_bar_callbacks(struct progress_bar *bar)
{
    return bar->on ? &bar->callbacks : NULL;
}

void progress_bar_end(struct progress_bar *bar)
{
    if (bar->drawn)
        fputc('\n', stderr);
    bar->drawn = false;
}
