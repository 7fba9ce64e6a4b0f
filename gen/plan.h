/* The plan of a build (the materials in building order, what each reads) and the memory
 * model that sizes it: the estimate that `damero gen --estimate` prints, the budget check
 * made before any work, and the choice of finished tables to drop from memory on the way
 * (docs/how-it-works.md, "Memory and scale"). */
#ifndef DAMERO_GEN_PLAN_H
#define DAMERO_GEN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/tableset.h"

#define MAX_MATERIALS 4096

struct plan {
    struct material list[MAX_MATERIALS]; /* building order */
    int count;
    int last_use[MAX_MATERIALS];         /* the last item that reads each one */
    double positions[MAX_MATERIALS];     /* per side to move (estimated when kings only) */
    double largest_level[MAX_MATERIALS]; /* positions per side of its largest level */
    double dtm_bytes[MAX_MATERIALS];     /* per position and side of its DTM when held */
    double men_configs[MAX_MATERIALS];   /* its men configurations (1 when kings only) */
    bool found[MAX_MATERIALS];           /* its files are on disk: read, not solved */
    int reads[MAX_MATERIALS][MAX_SUCCESSORS]; /* the items each one reads: its successors */
    int num_reads[MAX_MATERIALS];
};

/* What a build will need, from the memory model: its peak and the material being solved
 * then. */
struct build_estimate {
    int materials;              /* in the plan: the ones asked for and their dependencies */
    double positions;           /* in the plan, both sides to move */
    double peak_bytes;          /* the most memory held at once, overheads included */
    double peak_solving;        /* of which: the table being solved at the peak */
    double peak_held;           /* and the finished tables held for reading then */
    double expected_bytes;      /* the peak with the budget given: finished tables are
                                 * kept in memory while they fit, for materials that
                                 * read them later (at least peak_bytes) */
    struct material peak_material;
    bool peak_found;            /* that material's table is on disk: read and checked */
    double peak_positions;      /* per side to move, of that material */
    /* the least each item of the plan needs, as peak_bytes (what the process building
     * it holds), and of that the table being solved, as peak_solving */
    double item_bytes[MAX_MATERIALS], item_solving[MAX_MATERIALS];
};

/* bytes as "1.25 GB", or "310 MB" below a gigabyte, for messages. */
void memory_text(double bytes, char *out, size_t size);

/* The most a material's men can have advanced (index_men_progress): every man on the
 * rank before its promotion rank. */
#define MAX_MEN_PROGRESS (MATERIAL_MAX_PIECES * (MAX_SIDE - 1))

/* counts[p]: how many men configurations of material m (format/index.h) have advanced by
 * p (index_men_progress), the sizes of its levels in men configurations. Counted square
 * by square rather than by unranking every configuration, which takes seconds for the
 * 7-piece materials with many men. Thread-safe. */
void men_progress_counts(const struct variant *v, const struct material *m,
                         uint64_t counts[MAX_MEN_PROGRESS + 1]);

/* Fills *plan with the n materials in `wanted` (any orientation) and every material they
 * depend on, fewest pieces first, with their sizes and what each reads. */
void make_plan(const struct tableset *ts, const struct material *wanted, int n,
               struct plan *plan);

/* The item of the plan that needs the most memory, and the figures of that peak: the
 * least the build needs (the successors of the material being solved in memory, nothing
 * else); and what it will hold with `budget` bytes (0: no limit), keeping tables while
 * they fit. */
void estimate_plan(const struct tableset *ts, const struct plan *plan, double budget,
                   struct build_estimate *e);

/* Returns 0 when the estimate fits the budget in bytes (0: no limit), else -1 with a
 * sentence in err naming the material and the memory it needs. */
int check_budget(const struct variant *v, const struct build_estimate *e, double budget,
                 char *err, size_t err_size);

/* Before item k of the plan: frees finished tables in ts that k does not read, those
 * read again latest first, until what k needs and what stays fit the budget. */
void make_room(struct tableset *ts, const struct plan *plan, int k, double budget);

/* Before assembling the files of t: drops every finished table in ts when they would not
 * fit beside the assembly in the budget (they are read again when needed). */
void room_to_assemble(struct tableset *ts, const struct table *t, double budget);

#endif
