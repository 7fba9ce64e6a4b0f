/* Retrograde analysis of one material: DTM and MTC for both sides to move.
 *
 * Man moves cannot be undone, so the men configurations are solved from the most
 * advanced down, all those equally advanced together; within them only king moves are
 * iterated. Captures, man moves and promotions read values already known: of a finished
 * material, or of a more advanced configuration of this one. The work on each group is
 * spread over OpenMP threads, and the result does not depend on how many there are. */
#ifndef DAMERO_SOLVE_H
#define DAMERO_SOLVE_H

#include <stddef.h>

#include "gen/progress.h"
#include "gen/tableset.h"

/* Solves canonical material m, whose successors (material_successors) must all be in
 * memory in ts. On success returns 0 and fills *out (free it with table_free, or give it
 * to ts with tableset_add). Returns -1 with a sentence in err when memory runs out.
 * progress (may be NULL) hears between groups of configurations, on the calling thread. */
int solve_material(const struct tableset *ts, const struct material *m,
                   const struct progress_report *progress, struct table *out, char *err,
                   size_t err_size);

#endif
