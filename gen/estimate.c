#include "gen/estimate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/table_io.h"

static int compare_materials(const void *a, const void *b) { return material_compare(a, b); }

/* Adds m and everything it depends on. */
static void add_with_successors(const struct variant *v, struct material m, bool *seen,
                                struct plan *plan)
{
    struct material next[MAX_SUCCESSORS];
    if (!material_is_canonical(&m))
        m = material_flipped(&m);
    if (seen[material_code(&m)] || plan->count == MAX_MATERIALS)
        return;
    seen[material_code(&m)] = true;
    plan->list[plan->count++] = m;
    int n = material_successors(v, &m, next, MAX_SUCCESSORS);
    for (int k = 0; k < n; k++)
        add_with_successors(v, next[k], seen, plan);
}

static int find(const struct plan *plan, const struct material *m)
{
    for (int k = 0; k < plan->count; k++)
        if (material_equal(&plan->list[k], m))
            return k;
    return -1;
}

/* Positions of a material per side to move, counting every square as open to men and
 * the symmetry reduction as perfect: close for kings only, high for men. */
static double work_estimate(const struct variant *v, const struct material *m)
{
    const struct geometry *g = v->board();
    double n = 1;
    int free = g->num_squares;
    int counts[4] = { m->men[WHITE], m->men[BLACK], m->kings[WHITE], m->kings[BLACK] };
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < counts[k]; i++)
            n *= (double)(free - i) / (i + 1);
        free -= counts[k];
    }
    return material_men(m) == 0 ? n / g->num_syms : n;
}

void men_progress_counts(const struct variant *v, const struct material *m,
                         uint64_t counts[MAX_MEN_PROGRESS + 1])
{
    /* ways[w][b][p]: the ways to place w White men and b Black men on the squares seen
     * so far with progress p; each square in turn is left empty or gets a man of a side
     * that may stand there, from the most men down so that each square is used once */
    uint64_t ways[MATERIAL_MAX_PIECES + 1][MATERIAL_MAX_PIECES + 1][MAX_MEN_PROGRESS + 1];
    const struct geometry *g = v->board();
    bb_t allowed[2] = { man_squares(v, WHITE), man_squares(v, BLACK) };
    int white = m->men[WHITE], black = m->men[BLACK];
    memset(ways, 0, sizeof ways);
    ways[0][0][0] = 1;
    int sq;
    BB_FOR_EACH(sq, g->board) {
        int gain[2] = { g->rank_of[sq], g->ranks - 1 - g->rank_of[sq] };
        bool may[2] = { (allowed[WHITE] & bb_of(sq)) != 0, (allowed[BLACK] & bb_of(sq)) != 0 };
        for (int w = white; w >= 0; w--)
            for (int b = black; b >= 0; b--)
                for (int p = MAX_MEN_PROGRESS; p >= 0; p--) {
                    if (may[WHITE] && w > 0 && p >= gain[WHITE])
                        ways[w][b][p] += ways[w - 1][b][p - gain[WHITE]];
                    if (may[BLACK] && b > 0 && p >= gain[BLACK])
                        ways[w][b][p] += ways[w][b - 1][p - gain[BLACK]];
                }
    }
    memcpy(counts, ways[white][black], (MAX_MEN_PROGRESS + 1) * sizeof *counts);
}

/* The positions per side to move of the largest level of men advancement of ix's
 * material. */
static double largest_level(const struct variant *v, const struct material_index *ix)
{
    uint64_t counts[MAX_MEN_PROGRESS + 1], most = 0;
    men_progress_counts(v, &ix->m, counts);
    for (int p = 0; p <= MAX_MEN_PROGRESS; p++)
        if (counts[p] > most)
            most = counts[p];
    return (double)most * (double)(ix->reduced ? ix->size : ix->king_count);
}

/* Positions of a material per side to move, and of its largest level of men advancement:
 * exact when it has men, from work_estimate when it has only kings (one level; counting
 * its symmetry classes takes a while). */
static double material_positions(const struct variant *v, const struct material *m,
                                 double *largest)
{
    struct material_index ix;
    *largest = work_estimate(v, m);
    if (material_men(m) == 0 || index_init(&ix, v, m) < 0)
        return *largest;
    double n = (double)ix.size;
    *largest = largest_level(v, &ix);
    index_free(&ix);
    return n;
}

/* The bytes per position and side of m's DTM held for reading in ts: one where it fits
 * in a byte (known from its file, if it is on disk already, or in a WDL-only build),
 * else two; its MTC too where the set keeps it. */
static double dtm_bytes(const struct tableset *ts, const struct material *m)
{
    char path[4096], err[512];
    struct table_file_info info;
    if (!ts->dtm_only)
        return 2 + 2;
    if (ts->wdl_only)
        return 1;
    if (!ts->dir)
        return 2;
    tableset_path(ts, m, METRIC_DTM, path, sizeof path);
    return table_file_read_info(path, &info, err, sizeof err) == TABLE_OK &&
                   info.value_bits == 8
               ? 1
               : 2;
}

void make_plan(const struct tableset *ts, const struct material *wanted, int n,
               struct plan *plan)
{
    const struct variant *v = ts->v;
    bool seen[MATERIAL_CODES] = { false };
    struct material next[MAX_SUCCESSORS];
    plan->count = 0;
    for (int k = 0; k < n; k++)
        add_with_successors(v, wanted[k], seen, plan);
    qsort(plan->list, (size_t)plan->count, sizeof plan->list[0], compare_materials);
    for (int k = 0; k < plan->count; k++) {
        plan->last_use[k] = k;
        plan->positions[k] = material_positions(v, &plan->list[k], &plan->largest_level[k]);
        plan->dtm_bytes[k] = dtm_bytes(ts, &plan->list[k]);
    }
    for (int k = 0; k < plan->count; k++) {
        int s = material_successors(v, &plan->list[k], next, MAX_SUCCESSORS);
        plan->num_reads[k] = 0;
        for (int j = 0; j < s; j++) {
            int at = find(plan, &next[j]);
            if (at < 0)
                continue;
            plan->reads[k][plan->num_reads[k]++] = at;
            if (plan->last_use[at] < k)
                plan->last_use[at] = k;
        }
    }
}

/* Whether item k of the plan reads item j. */
static bool plan_reads(const struct plan *plan, int k, int j)
{
    for (int r = 0; r < plan->num_reads[k]; r++)
        if (plan->reads[k][r] == j)
            return true;
    return false;
}

/* The first item from k on that reads item j (plan->count when none does). */
static int next_reader(const struct plan *plan, int j, int k)
{
    for (; k < plan->count; k++)
        if (plan_reads(plan, k, j))
            return k;
    return plan->count;
}

/* The memory model (docs/how-it-works.md, "Memory and scale"): the bytes per position, both
 * sides to move together, that a build holds. Solving holds, for each position of the
 * level being solved, its DTM and MTC (2 bytes each per side), its count byte, and the
 * DTM of the level before (2 bytes); with a table directory, that is all (LEVEL_BYTES
 * per position of the largest level), and then the table files are assembled one metric
 * at a time (at most 2 bytes per position and side, ASSEMBLY_BYTES) with one level read
 * back (READ_BYTES per position of it). Without a directory the table's DTM and MTC stay
 * in memory (WHOLE_BYTES). Each finished table it reads is held as its DTM, in a byte
 * where it fits (dtm_bytes), and its MTC too where the set keeps it, for the self-check. The rest (the agenda, the index, the
 * program) is a share on top and a fixed amount. */
#define LEVEL_BYTES (2 * (2 + 2 + 1 + 2))
#define READ_BYTES (2 * (2 + 2 + 1))
#define ASSEMBLY_BYTES (2 * 2)
#define WHOLE_BYTES (2 * (2 + 2))
#define WORK_SHARE 0.15
#define FIXED_BYTES (16.0 * 1024 * 1024)

/* The bytes of assembling the table files of a material of `positions` positions per
 * side whose largest level has `level`. */
static double assembly_bytes(double positions, double level)
{
    return READ_BYTES * level + ASSEMBLY_BYTES * positions;
}

static double held_bytes(const struct plan *plan, int j)
{
    return 2 * plan->dtm_bytes[j] * plan->positions[j];
}

static double memory_total(double solving, double held)
{
    return (solving + held) * (1 + WORK_SHARE) + FIXED_BYTES;
}

/* What building item k of the plan needs at least at its peak: the bytes of the table
 * being solved, and of the finished tables held for reading then. Solving reads its
 * successors; assembling its files does not, and drops them first when they would not
 * fit beside it (build_one), so that its peak is then its own. */
static void memory_at(const struct tableset *ts, const struct plan *plan, int k,
                      double *solving, double *held)
{
    double level = plan->largest_level[k], all = plan->positions[k];
    *solving = LEVEL_BYTES * level + (ts->dir ? 0 : WHOLE_BYTES * all);
    *held = 0;
    for (int r = 0; r < plan->num_reads[k]; r++)
        *held += held_bytes(plan, plan->reads[k][r]);
    if (ts->dir && assembly_bytes(all, level) > *solving + *held) {
        *solving = assembly_bytes(all, level);
        *held = 0;
    }
}

/* The bytes of the finished tables in memory now. */
static double held_now(const struct tableset *ts)
{
    double bytes = 0;
    for (int c = 0; c < MATERIAL_CODES; c++)
        if (ts->by_code[c])
            bytes += 2 * (ts->by_code[c]->dtm8[0] ? 1 : ts->dtm_only ? 2 : 2 + 2) *
                     (double)ts->by_code[c]->ix.size;
    return bytes;
}

/* Before assembling the files of t: drops every finished table from memory when they
 * would not fit beside the assembly in the budget (they are read again when needed). */
void room_to_assemble(struct tableset *ts, const struct table *t, double budget)
{
    double all = (double)t->ix.size, level = largest_level(ts->v, &t->ix);
    if (budget <= 0 || memory_total(assembly_bytes(all, level), held_now(ts)) <= budget)
        return;
    for (int c = 0; c < MATERIAL_CODES; c++)
        if (ts->by_code[c])
            tableset_forget(ts, &ts->by_code[c]->m);
}

/* The item of the plan that needs the most memory, and the figures of that peak. */
void estimate_plan(const struct tableset *ts, const struct plan *plan,
                   struct build_estimate *e)
{
    memset(e, 0, sizeof *e);
    for (int k = 0; k < plan->count; k++) {
        double solving, held;
        memory_at(ts, plan, k, &solving, &held);
        e->positions += 2 * plan->positions[k];
        if (memory_total(solving, held) <= e->peak_bytes)
            continue;
        e->peak_bytes = memory_total(solving, held);
        e->peak_solving = solving;
        e->peak_held = held;
        e->peak_material = plan->list[k];
        e->peak_positions = plan->positions[k];
    }
    e->materials = plan->count;
}

#define GB (1024.0 * 1024 * 1024)

void memory_text(double bytes, char *out, size_t size)
{
    if (bytes >= GB)
        snprintf(out, size, "%.2f GB", bytes / GB);
    else
        snprintf(out, size, "%.0f MB", bytes / (1024 * 1024));
}

/* Refuses, before any work, a plan whose peak does not fit in the budget. */
int check_budget(const struct variant *v, const struct build_estimate *e, double budget,
                 char *err, size_t err_size)
{
    char name[MATERIAL_NAME_SIZE], peak[32], solving[32], held[32], limit[32];
    if (budget <= 0 || e->peak_bytes <= budget)
        return 0;
    material_name(&e->peak_material, name);
    memory_text(e->peak_bytes, peak, sizeof peak);
    memory_text(e->peak_solving, solving, sizeof solving);
    memory_text(e->peak_held, held, sizeof held);
    memory_text(budget, limit, sizeof limit);
    snprintf(err, err_size,
             "%s %s needs about %s (%.3g positions per side to move: %s to solve it, %s of "
             "finished tables held for reading), more than the budget of %s; give more with "
             "--memory GB if the machine has it, or build fewer pieces",
             v->name, name, peak, e->peak_positions, solving, held, limit);
    return -1;
}

/* Before item k: frees finished tables that k does not read, those read again latest
 * first, until what k needs and what stays fit the budget. Tables are kept while they
 * fit, so that they are not read from disk again. */
void make_room(struct tableset *ts, const struct plan *plan, int k, double budget)
{
    double solving, held, kept = 0;
    memory_at(ts, plan, k, &solving, &held);
    for (int j = 0; j < k; j++)
        if (tableset_find(ts, &plan->list[j]) && !plan_reads(plan, k, j))
            kept += held_bytes(plan, j);
    while (budget > 0 && kept > 0 && memory_total(solving, held + kept) > budget) {
        int latest = -1, latest_use = -1;
        for (int j = 0; j < k; j++) {
            int use = next_reader(plan, j, k);
            if (tableset_find(ts, &plan->list[j]) && !plan_reads(plan, k, j) && use > latest_use) {
                latest = j;
                latest_use = use;
            }
        }
        tableset_forget(ts, &plan->list[latest]);
        kept -= held_bytes(plan, latest);
    }
}
