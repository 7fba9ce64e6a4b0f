/* The self-check a table can be run through (`damero gen --self-check`): every
 * position's DTM and MTC must be what its moves give, from the values of the positions
 * they lead to. It does not share code with the solver beyond the move generator, the
 * index and the lookup of a position's table (format/lookup.h). */
#ifndef DAMERO_SOLVE_SELF_CHECK_H
#define DAMERO_SOLVE_SELF_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "solve/progress.h"
#include "store/tableset.h"

/* Checks every position of the table of canonical material m in ts (its successors must
 * be in ts too). Returns the number of positions found wrong; when there are any, err
 * names the first one (lowest index, White to move first) and what was expected.
 * progress (may be NULL) hears from the calling thread as the check goes. */
uint64_t self_check_table(const struct tableset *ts, const struct material *m,
                          const struct progress_report *progress, char *err,
                          size_t err_size);

#endif
