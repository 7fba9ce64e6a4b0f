/* Sharing a plan among the processes of a job (damero-mpi, docs/cluster.md): the plan
 * cut into waves of materials that do not read one another, and each wave's materials
 * dealt out to the processes, the same way in every process. */
#ifndef DAMERO_GEN_DEAL_H
#define DAMERO_GEN_DEAL_H

#include "gen/plan.h"

/* wave[k]: the wave of item k of the plan. Waves are runs of the plan's building order
 * (fewest pieces first, then fewest men): a wave ends before the first item that reads
 * an item of it, so no item reads one of its own wave or a later one, and the job waits
 * for every process only between waves. Returns the number of waves. */
int plan_waves(const struct plan *plan, int wave[MAX_MATERIALS]);

/* owner[k]: the process, 0 to processes - 1, that builds item k. Within each wave the
 * largest items are dealt first, each to the process with the fewest positions of the
 * wave so far (the lowest numbered on a tie), so that the wave's work is shared out
 * about evenly; it depends only on the plan and the number of processes. */
void plan_deal(const struct plan *plan, const int wave[MAX_MATERIALS], int processes,
               int owner[MAX_MATERIALS]);

#endif
