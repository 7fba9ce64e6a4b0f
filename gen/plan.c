#include "gen/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/level_file.h"
#include "store/table_io.h"

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

/* The sizes of item k of the plan: its positions per side to move, of its largest level
 * of men advancement, and its men configurations; exact when it has men, from
 * material_positions_estimate when it has only kings (one level; counting its symmetry classes takes
 * a while). */
static void size_item(const struct variant *v, struct plan *plan, int k)
{
    struct material_index ix;
    const struct material *m = &plan->list[k];
    plan->positions[k] = plan->largest_level[k] = material_positions_estimate(v, m);
    plan->men_configs[k] = 1;
    if (material_men(m) == 0 || index_init(&ix, v, m) < 0)
        return;
    plan->positions[k] = (double)ix.size;
    plan->largest_level[k] = largest_level(v, &ix);
    plan->men_configs[k] = (double)ix.men_count;
    index_free(&ix);
}

/* Whether m's file of one metric is on disk as that of m's table (its header read:
 * whether the values are intact the build finds out when it reads them). */
static bool file_on_disk(const struct tableset *ts, const struct material *m,
                         enum table_metric metric, struct table_file_info *info)
{
    char path[4096], name[MATERIAL_NAME_SIZE], err[512];
    if (!ts->dir)
        return false;
    tableset_path(ts, m, metric, path, sizeof path);
    material_name(m, name);
    return table_file_read_info(path, info, err, sizeof err) == TABLE_OK &&
           info->metric == metric && info->index_version == INDEX_VERSION &&
           strcmp(info->variant, ts->v->name) == 0 && strcmp(info->material, name) == 0;
}

/* Whether m's table is on disk, every file a build of this set reads or checks: it is
 * read, not solved. */
static bool table_on_disk(const struct tableset *ts, const struct material *m)
{
    struct table_file_info info;
    for (enum table_metric metric = METRIC_WDL; metric <= METRIC_MTC; metric++)
        if (tableset_builds(ts, metric) && !file_on_disk(ts, m, metric, &info))
            return false;
    return true;
}

/* The bytes per position and side of a finished table held for reading in ts: its DTM
 * in a byte where the set holds them so (a table read from its file in a dtm_only set,
 * dtm_bytes.h), ESCAPE_BYTES on top for the codes that do not fit; two bytes where it
 * is solved in memory; and its MTC too where the set keeps it. */
#define ESCAPE_BYTES 0.01
static double held_dtm_bytes(const struct tableset *ts)
{
    if (!ts->dtm_only)
        return 2 + 2;
    if (ts->wdl_only)
        return 1;
    return ts->dir ? 1 + ESCAPE_BYTES : 2;
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
        size_item(v, plan, k);
        plan->dtm_bytes[k] = held_dtm_bytes(ts);
        plan->found[k] = table_on_disk(ts, &plan->list[k]);
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

/* Whether item k needs item j in memory: it reads j, and is solved (a table found on
 * disk is read and checked on its own). */
static bool needs(const struct plan *plan, int k, int j)
{
    return !plan->found[k] && plan_reads(plan, k, j);
}

/* The first item from k on that needs item j (plan->count when none does). */
static int next_reader(const struct plan *plan, int j, int k)
{
    for (; k < plan->count; k++)
        if (needs(plan, k, j))
            return k;
    return plan->count;
}

/* The memory model (docs/how-it-works.md, "Memory and scale"): the bytes per position, both
 * sides to move together, that a build holds. Solving holds, for each position of the
 * level being solved, its DTM and MTC (2 bytes each per side), its count byte, and the
 * DTM of the level before (2 bytes); with a table directory, that is all (LEVEL_BYTES
 * per position of the largest level), and then the table files are assembled one metric
 * and one side at a time (at most 2 bytes per position of one side, ASSEMBLY_BYTES) with
 * one level read back (READ_BYTES per position of it). Without a directory the table's DTM and MTC stay
 * in memory (WHOLE_BYTES). Both list the men configurations level by level, with each
 * one's place in its level (CONFIG_BYTES per configuration: as much as a position's
 * values in a material of men only). Each finished table it reads is held as its DTM, in
 * a byte (held_dtm_bytes), and its MTC too where the set keeps it, for the self-check; a
 * table found on disk is checked a few blocks at a time, holding nothing. The rest (the
 * agenda, the index, the program) is a share on top and a fixed amount. A WDL-only build
 * solves in two bits a position: the count byte and the 2-bit WDL of the level and of the
 * level before (WDL_LEVEL_BYTES); its level files hold only the 2-bit WDL. A WDL + MTC
 * build adds the level's MTC (MTC_BYTES) to both, and assembles its MTC file as the
 * whole build does. */
#define LEVEL_BYTES (2 * (2 + 2 + 1 + 2))
#define READ_BYTES (2 * (2 + 2 + 1))
#define ASSEMBLY_BYTES (1 * 2)
#define WDL_LEVEL_BYTES (2 * (1 + 0.25 + 0.25))
#define WDL_READ_BYTES (2 * 0.25)
#define WDL_ASSEMBLY_BYTES (1 * 1)
#define MTC_BYTES (2 * 2)
#define WHOLE_BYTES (2 * (2 + 2))
#define CONFIG_BYTES (8 + 8)
#define WORK_SHARE 0.15
#define FIXED_BYTES (16.0 * 1024 * 1024)

/* The bytes of assembling the table files of a material of `positions` positions per
 * side and `configs` men configurations, whose largest level has `level`. A WDL-only
 * build assembles its WDL file alone, a byte per position and side, from levels without
 * MTC; a WDL + MTC build its MTC file too, from levels with it. */
static double assembly_bytes(const struct tableset *ts, double positions, double level,
                             double configs)
{
    bool mtc = tableset_builds(ts, METRIC_MTC);
    if (ts->wdl_only)
        return (WDL_READ_BYTES + (mtc ? MTC_BYTES : 0)) * level +
               (mtc ? ASSEMBLY_BYTES : WDL_ASSEMBLY_BYTES) * positions + CONFIG_BYTES * configs;
    return READ_BYTES * level + ASSEMBLY_BYTES * positions + CONFIG_BYTES * configs;
}

static double held_bytes(const struct plan *plan, int j)
{
    return 2 * plan->dtm_bytes[j] * plan->positions[j];
}

static double memory_total(double solving, double held)
{
    return (solving + held) * (1 + WORK_SHARE) + FIXED_BYTES;
}

/* The bytes item k holds of its own: solving it, or checking its files when found. */
static double own_bytes(const struct tableset *ts, const struct plan *plan, int k)
{
    double all = plan->positions[k];
    if (plan->found[k])
        return 0; /* checked and read a few blocks at a time */
    /* without a directory (in memory) even a WDL-only build keeps the 16-bit DTM pass */
    double level_bytes = LEVEL_BYTES;
    if (ts->wdl_only && ts->dir)
        level_bytes = WDL_LEVEL_BYTES + (tableset_builds(ts, METRIC_MTC) ? MTC_BYTES : 0);
    return level_bytes * plan->largest_level[k] + CONFIG_BYTES * plan->men_configs[k] +
           (ts->dir ? level_files_held_bytes(ts, all) : WHOLE_BYTES * all);
}

/* The finished tables item k reads: its successors, or itself when found on disk. */
static double reading_bytes(const struct plan *plan, int k)
{
    double bytes = plan->found[k] ? held_bytes(plan, k) : 0;
    for (int r = 0; r < plan->num_reads[k] && !plan->found[k]; r++)
        bytes += held_bytes(plan, plan->reads[k][r]);
    return bytes;
}

/* The bytes of assembling item k's files (0 when it has none to assemble). */
static double assembling_bytes(const struct tableset *ts, const struct plan *plan, int k)
{
    if (plan->found[k] || !ts->dir)
        return 0;
    return assembly_bytes(ts, plan->positions[k], plan->largest_level[k],
                          plan->men_configs[k]);
}

/* What building item k of the plan needs at least at its peak: the bytes of the table
 * being solved (or checked), and of the finished tables held for reading then. Solving
 * reads its successors; assembling its files does not, and drops them first when they
 * would not fit beside it (build_one), so that its peak is then its own. */
static void memory_at(const struct tableset *ts, const struct plan *plan, int k,
                      double *solving, double *held)
{
    *solving = own_bytes(ts, plan, k);
    *held = reading_bytes(plan, k);
    if (assembling_bytes(ts, plan, k) > *solving + *held) {
        *solving = assembling_bytes(ts, plan, k);
        *held = 0;
    }
}

/* The bytes of the finished tables in memory (in_memory[j] for items before k) that item
 * k does not need. */
static double kept_bytes(const struct plan *plan, int k, const bool *in_memory)
{
    double kept = 0;
    for (int j = 0; j < k; j++)
        if (in_memory[j] && !needs(plan, k, j))
            kept += held_bytes(plan, j);
    return kept;
}

/* Before item k: takes out of in_memory the finished tables k does not need, those read
 * again latest first, until what k needs and what stays fit the budget. Tables are kept
 * while they fit, so that they are not read from disk again. */
static void choose_kept(const struct tableset *ts, const struct plan *plan, int k,
                        double budget, bool *in_memory)
{
    double solving, held, kept = kept_bytes(plan, k, in_memory);
    memory_at(ts, plan, k, &solving, &held);
    while (budget > 0 && memory_total(solving, held + kept) > budget) {
        int latest = -1, latest_use = -1;
        for (int j = 0; j < k; j++) {
            int use = next_reader(plan, j, k);
            if (in_memory[j] && !needs(plan, k, j) && use > latest_use) {
                latest = j;
                latest_use = use;
            }
        }
        if (latest < 0)
            break; /* nothing left to drop */
        in_memory[latest] = false;
        kept = kept_bytes(plan, k, in_memory); /* summed again: no rounding left over */
    }
}

void make_room(struct tableset *ts, const struct plan *plan, int k, double budget)
{
    bool in_memory[MAX_MATERIALS];
    for (int j = 0; j < k; j++)
        in_memory[j] = tableset_find(ts, &plan->list[j]) != NULL;
    choose_kept(ts, plan, k, budget, in_memory);
    for (int j = 0; j < k; j++)
        if (!in_memory[j] && tableset_find(ts, &plan->list[j]))
            tableset_forget(ts, &plan->list[j]);
}

/* The peak of item k with `kept` bytes of other finished tables in memory, as the build
 * goes with the budget: solving beside them, then assembling beside them too where they
 * fit (room_to_assemble drops them all where they do not). */
static double peak_with_kept(const struct tableset *ts, const struct plan *plan, int k,
                             double kept, double budget)
{
    double held = reading_bytes(plan, k) + kept, assembling = assembling_bytes(ts, plan, k);
    double peak = memory_total(own_bytes(ts, plan, k), held);
    if (assembling > 0) {
        double beside = memory_total(assembling, held);
        double alone = budget <= 0 || beside <= budget ? beside : memory_total(assembling, 0);
        peak = alone > peak ? alone : peak;
    }
    return peak;
}

/* The bytes of the finished tables in memory now. */
static double held_now(const struct tableset *ts)
{
    double bytes = 0;
    for (int c = 0; c < MATERIAL_CODES; c++)
        if (ts->by_code[c])
            bytes += table_held_bytes(ts->by_code[c]);
    return bytes;
}

/* Before assembling the files of t: drops every finished table from memory when they
 * would not fit beside the assembly in the budget (they are read again when needed). */
void room_to_assemble(struct tableset *ts, const struct table *t, double budget)
{
    double bytes = assembly_bytes(ts, (double)t->ix.size, largest_level(ts->v, &t->ix),
                                  (double)t->ix.men_count);
    if (budget <= 0 || memory_total(bytes, held_now(ts)) <= budget)
        return;
    for (int c = 0; c < MATERIAL_CODES; c++)
        if (ts->by_code[c])
            tableset_forget(ts, &ts->by_code[c]->m);
}

/* Walks the plan as build_plan does: the least each item needs, and what it holds with
 * the budget, the tables kept in memory chosen as make_room chooses them. */
void estimate_plan(const struct tableset *ts, const struct plan *plan, double budget,
                   struct build_estimate *e)
{
    bool in_memory[MAX_MATERIALS] = { false };
    memset(e, 0, sizeof *e);
    for (int k = 0; k < plan->count; k++) {
        double solving, held;
        memory_at(ts, plan, k, &solving, &held);
        e->positions += 2 * plan->positions[k];
        if (ts->dir) /* without one, every table stays in memory (build_plan) */
            choose_kept(ts, plan, k, budget, in_memory);
        double expected = peak_with_kept(ts, plan, k, kept_bytes(plan, k, in_memory), budget);
        if (expected > e->expected_bytes)
            e->expected_bytes = expected;
        for (int r = 0; r < plan->num_reads[k]; r++)
            in_memory[plan->reads[k][r]] |= needs(plan, k, plan->reads[k][r]);
        in_memory[k] = plan->found[k] || !ts->dir;
        for (int j = 0; j <= k && ts->dir; j++)
            in_memory[j] &= plan->last_use[j] != k;
        e->item_bytes[k] = memory_total(solving, held);
        e->item_solving[k] = solving;
        if (memory_total(solving, held) <= e->peak_bytes)
            continue;
        e->peak_bytes = memory_total(solving, held);
        e->peak_solving = solving;
        e->peak_held = held;
        e->peak_material = plan->list[k];
        e->peak_found = plan->found[k];
        e->peak_positions = plan->positions[k];
    }
    if (e->expected_bytes < e->peak_bytes)
        e->expected_bytes = e->peak_bytes;
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
             "%s %s needs about %s (%.3g positions per side to move: %s to %s it, %s of "
             "finished tables held for reading), more than the budget of %s; give more with "
             "--memory GB if the machine has it, or build fewer pieces",
             v->name, name, peak, e->peak_positions, solving, e->peak_found ? "check" : "solve",
             held, limit);
    return -1;
}
