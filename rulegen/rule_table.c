/* Building the rule tables (rulegen/rule_table.h). A material that no rule covers is solved
 * by the plain solver over the rule tables of the materials its moves reach; any other
 * whose counts run in step (only no-progress counts, none reset inside it) or that a
 * rule without a precondition covers, by layers of plies played (rulegen/rule_layers.h),
 * whose moves out are valued by the search under the rules (rules/rule_search.h), cut
 * short by the rule tables already built. The search from each position's fresh state
 * is kept to test the layers against (RULE_SOLVER_SEARCH). Why each is exact:
 * docs/how-it-works.md, "Values under the rules: the table". */
#include "rulegen/rule_table.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/lookup.h"
#include "rules/rule_search.h"
#include "rulegen/reset_distance.h"
#include "rulegen/rule_layers.h"
#include "solve/solve.h"

int rule_table_readings(const struct variant *v)
{
    struct rule_row row;
    if (rule_row_init(&row, v, 0) < 0 || row.num == 0)
        return 0;
    for (int k = 0; k < row.num; k++)
        if (move_limit_readings(row_rule(&row, k)) > 1)
            return 2;
    return 1;
}

/* ---- the materials a build reads ---- */

/* Material c's rule table of `metric` read from ts->dir into the in-memory set rules, as
 * its DTM (the plain solver and the search read it there). */
static int load_rule_table(struct tableset *ts, struct tableset *rules, const struct material *c,
                           enum table_metric metric, char *err, size_t err_size)
{
    struct table t = { .m = *c };
    struct table_file_info info;
    void *values[2] = { NULL, NULL };
    if (tableset_index_init(&t.ix, ts->v, c) < 0) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    if (tableset_read_file(ts, c, metric, t.ix.size, &info, values, err, err_size) < 0) {
        index_free(&t.ix);
        return -1;
    }
    for (int side = 0; side < 2; side++) {
        t.dtm[side] = malloc(t.ix.size * sizeof(dtm_t) + 1);
        for (uint64_t i = 0; t.dtm[side] && i < t.ix.size; i++)
            t.dtm[side][i] = info.value_bits == 16 ? ((const uint16_t *)values[side])[i]
                                                   : ((const uint8_t *)values[side])[i];
        free(values[side]);
    }
    if (!t.dtm[0] || !t.dtm[1] || tableset_add(rules, &t) < 0) {
        table_free(&t);
        snprintf(err, err_size, "out of memory reading rule tables");
        return -1;
    }
    return 0;
}

/* ---- the search over a material a rule covers ---- */

struct rule_context {
    const struct tableset *ts;     /* the tables without the rules */
    const struct tableset *rules;  /* the rule tables of the other materials, as DTM */
    const struct tableset *zeroing; /* their distance tables, the distance as DTM */
    struct material building;      /* canonical: the material whose fresh values are sought */
    const struct material_index *ix; /* building's */
    const uint16_t *distance;      /* building's reset distance (rulegen/reset_distance.h), or
                                      NULL when no count that needs it covers building */
    /* building's own fresh values and distances as the layers find them (those not
     * RULE_VALUE_PENDING are known), or NULL */
    dtm_t *const *own;
    uint16_t *const *own_dtz;
};

static int plain_value(void *context, const struct position *p, dtm_t *dtm, mtc_t *mtc)
{
    const struct rule_context *rc = context;
    *mtc = MTC_NONE;
    return tableset_value(rc->ts, p, dtm, rc->ts->dtm_only ? NULL : mtc);
}

static int fresh_value(void *context, const struct position *p, dtm_t *value, int *dtz,
                       bool *known)
{
    const struct rule_context *rc = context;
    struct lookup l;
    const struct table *t = NULL, *z = NULL;
    *known = false;
    *dtz = RULE_DTZ_UNKNOWN;
    if (lookup_position(rc->ts->v, p, &l) != LOOKUP_TABLE)
        return 0;
    if (material_equal(&l.material, &rc->building)) {
        uint64_t i = rc->own ? index_of(rc->ix, &l.oriented, NULL) : 0;
        *known = rc->own && rc->own[l.oriented.side][i] != RULE_VALUE_PENDING;
        if (*known) {
            *value = rc->own[l.oriented.side][i];
            *dtz = rule_dtz_of_stored(*value, rc->own_dtz[l.oriented.side][i]);
        }
        return 0;
    }
    t = tableset_find(rc->rules, &l.material);
    z = tableset_find(rc->zeroing, &l.material);
    *known = t != NULL;
    if (t) {
        uint64_t i = index_of(&t->ix, &l.oriented, NULL);
        *value = t->dtm[l.oriented.side][i];
        if (z)
            *dtz = rule_dtz_of_stored(*value, z->dtm[l.oriented.side][i]);
    }
    return 0;
}

static int reset_distance(void *context, const struct position *p, int *plies)
{
    const struct rule_context *rc = context;
    struct lookup l;
    *plies = -1;
    if (rc->distance && lookup_position(rc->ts->v, p, &l) == LOOKUP_TABLE &&
        material_equal(&l.material, &rc->building)) {
        uint16_t d = rc->distance[l.oriented.side * rc->ix->size +
                                  index_of(rc->ix, &l.oriented, NULL)];
        *plies = d == NO_DISTANCE ? -1 : d;
    }
    return 0;
}

/* The fresh values of every position of the material and their distances to zeroing as
 * stored (rule_dtz_stored: where the search does not know it, 0), by the search, on
 * every thread. Returns 0, or a status of the search's or the oracle's. */
static int search_material(const struct rule_oracle *oracle, const struct rule_row *row,
                           const struct material_index *ix, dtm_t *values[2],
                           uint16_t *dtz[2])
{
    int failure = 0;
#pragma omp parallel
    {
        struct rule_search search;
        rule_search_init(&search, row, oracle, RULE_STATES_MAX);
#pragma omp for schedule(dynamic, 256)
        for (uint64_t j = 0; j < 2 * ix->size; j++) {
            struct position p;
            struct rule_counts fresh;
            struct rule_verdict v;
            enum side side = (enum side)(j / ix->size);
            uint64_t i = j % ix->size;
            int status;
#pragma omp atomic read
            status = failure;
            if (status != 0)
                continue;
            if (search.used > RULE_STATES_KEPT)
                rule_search_clear(&search);
            index_position(ix, i, side, &p);
            rule_counts_fresh(row, &p, &fresh);
            status = rule_search_value(&search, &p, &fresh, &v);
            values[side][i] = rule_verdict_code(v);
            dtz[side][i] = (uint16_t)rule_dtz_stored(values[side][i], v.dtz);
            if (status != 0) {
#pragma omp atomic write
                failure = status;
            }
        }
        rule_search_free(&search);
    }
    return failure;
}

/* A status of the search's or the oracle's as a sentence in err; returns 0 or -1. */
static int say_failure(int failure, char *err, size_t err_size)
{
    if (failure == RULE_SEARCH_ERR_TOO_MANY)
        snprintf(err, err_size, "a position needs a search of more than %zu states under "
                 "the rules", RULE_STATES_MAX);
    else if (failure != 0)
        snprintf(err, err_size, failure == RULE_SEARCH_ERR_MEMORY
                                    ? "out of memory searching under the rules"
                                    : "a table the search under the rules reads is missing");
    return failure ? -1 : 0;
}

/* ---- one material ---- */

/* Whether a rule covers m: at all, one without a precondition (whose count then runs in
 * every state of the material), and a no-progress one that only captures and promotions
 * reset (whose cut needs the reset distance). */
static void coverage_of(const struct rule_row *row, const struct material_index *ix,
                        bool *any, bool *from_start, bool *needs_distance)
{
    struct position p;
    index_position(ix, 0, WHITE, &p);
    *any = *from_start = *needs_distance = false;
    for (int k = 0; k < row->num; k++) {
        enum side strong;
        if (!rule_in_force(row, k, &p, &strong))
            continue;
        *any = true;
        *from_start |= !rule_has_precondition(row_rule(row, k));
        *needs_distance |= row_rule(row, k)->kind == LIMIT_NO_PROGRESS &&
                           row_rule(row, k)->reset == RESET_CAPTURE_OR_PROMOTION;
    }
}

/* m's reset distance into *distance (malloc'd), from its table in ts. Returns 0, or -1
 * with err. */
static int distance_of(const struct tableset *ts, const struct material *m,
                       uint16_t **distance, char *err, size_t err_size)
{
    const struct table *t = tableset_find(ts, m);
    *distance = t ? malloc((2 * t->ix.size + 1) * sizeof **distance) : NULL;
    if (*distance && distance_to_capture_or_promotion(ts, t, *distance) == 0)
        return 0;
    free(*distance);
    *distance = NULL;
    snprintf(err, err_size, "out of memory measuring the distance to a capture or promotion");
    return -1;
}

/* ---- a material no rule covers: the plain solver ---- */

/* The exits of the moves out of a material no rule covers, for its distance to zeroing:
 * for each position of material c (the rule table `value` and the distance table
 * `distance` of c), its fresh value under the rules with, as plies, 0 where a count runs
 * in its fresh state (no count runs before the move, so the move into it zeroes) and its
 * distance otherwise. The plain solver over these gives each position its distance as
 * its plies: the winner's fewest over the moves that win, the loser's most. Returns 0,
 * -1 when memory runs out, -2 when a distance it needs is not known. */
static int add_exits(struct tableset *exits, const struct rule_row *row,
                     const struct table *value, const struct table *distance)
{
    struct table t = { .m = value->m };
    if (tableset_index_init(&t.ix, row->v, &t.m) < 0)
        return -1;
    uint64_t n = t.ix.size;
    for (int side = 0; side < 2; side++)
        if (!(t.dtm[side] = malloc(n * sizeof(dtm_t) + 1))) {
            table_free(&t);
            return -1;
        }
    uint64_t unknown = 0;
#pragma omp parallel for schedule(static, 4096) reduction(+ : unknown)
    for (uint64_t j = 0; j < 2 * n; j++) {
        int side = (int)(j / n);
        uint64_t i = j % n;
        dtm_t code = value->dtm[side][i];
        struct position p;
        struct rule_counts fresh;
        bool counting = false;
        if (code != DTM_DRAW) {
            index_position(&t.ix, i, (enum side)side, &p);
            rule_counts_fresh(row, &p, &fresh);
            for (int k = 0; k < row->num; k++)
                counting |= fresh.plies[k] != RULE_COUNT_NOT_STARTED;
            int plies = counting ? 0 : rule_dtz_of_stored(code, distance->dtm[side][i]);
            unknown += plies == RULE_DTZ_UNKNOWN;
            code = dtm_is_win(code) ? dtm_win(plies) : dtm_loss(plies);
        }
        t.dtm[side][i] = code;
    }
    if (unknown > 0 || tableset_add(exits, &t) < 0) {
        table_free(&t);
        return unknown > 0 ? -2 : -1;
    }
    return 0;
}

/* The values and distances of m, which no rule covers, into *out: the plain solver over
 * the rule tables of the materials its moves reach (no count runs before a move out of
 * m, so the counts after it are the fresh ones), and again over their exits (add_exits)
 * for the distance. */
static int solve_uncovered(struct tableset *ts, const struct tableset *rules,
                           const struct tableset *zeroing, const struct rule_row *row,
                           const struct material *m, struct rule_values *out, char *err,
                           size_t err_size)
{
    struct tableset exits;
    struct table by_exits = { .m = *m };
    int status = solve_material(rules, m, NULL, NULL, &out->t, err, err_size);
    tableset_init(&exits, ts->v, NULL);
    exits.dtm_only = exits.wdl_only = true;
    for (int c = 0; c < MATERIAL_CODES && status == 0; c++) {
        const struct table *value = rules->by_code[c], *distance = zeroing->by_code[c];
        int added = value && distance ? add_exits(&exits, row, value, distance) : 0;
        if (added < 0) {
            /* a material that no count covers is left only for those that count from
             * the start or in step, or that no count covers: the last alone have no
             * count in their fresh states, and their distances are all known */
            snprintf(err, err_size, added == -2 ? "a distance to zeroing that the next "
                     "material needs is not known (a bug)" : "out of memory");
            status = -1;
        }
    }
    if (status == 0)
        status = solve_material(&exits, m, NULL, NULL, &by_exits, err, err_size);
    uint64_t n = out->t.ix.size;
    for (int side = 0; side < 2 && status == 0; side++) {
        if (!(out->dtz[side] = malloc(n * sizeof(uint16_t) + 1))) {
            snprintf(err, err_size, "out of memory");
            status = -1;
            break;
        }
        for (uint64_t i = 0; i < n; i++) {
            dtm_t v = out->t.dtm[side][i], d = by_exits.dtm[side][i];
            out->dtz[side][i] = (uint16_t)(v == DTM_DRAW ? 0 : dtm_plies(d));
            if (dtm_wdl(v) != dtm_wdl(d)) {
                snprintf(err, err_size, "the distance to zeroing disagrees with the value "
                         "under the rules (a bug)");
                status = -1;
                break;
            }
        }
    }
    table_free(&by_exits);
    tableset_free(&exits);
    return status;
}

/* ---- one material ---- */

/* The fresh values of m under one reading and their distances into *out. */
static int solve_rules(struct tableset *ts, struct tableset *rules, struct tableset *zeroing,
                       const struct material *m, int reading, enum rule_solver solver,
                       struct rule_values *out, char *err, size_t err_size)
{
    struct rule_row row;
    char name[MATERIAL_NAME_SIZE];
    bool any, from_start, needs_distance;
    uint16_t *distance = NULL;
    struct table *t = &out->t;
    rule_row_init(&row, ts->v, reading);
    material_name(m, name);
    if (tableset_index_init(&t->ix, ts->v, m) < 0) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    coverage_of(&row, &t->ix, &any, &from_start, &needs_distance);
    if (!any) {
        /* no count runs or starts inside m */
        index_free(&t->ix);
        return solve_uncovered(ts, rules, zeroing, &row, m, out, err, err_size);
    }
    bool in_step = rule_counts_in_step(&row, m);
    bool layers = solver == RULE_SOLVER_ANY && (in_step || from_start);
    if (!layers && !from_start) {
        snprintf(err, err_size, "%s: only rules with a precondition cover it, which the "
                 "rule tables do not handle", name);
        return -1;
    }
    t->m = *m;
    for (int side = 0; side < 2; side++)
        if (!(t->dtm[side] = malloc(t->ix.size * sizeof(dtm_t) + 1)) ||
            !(out->dtz[side] = malloc(t->ix.size * sizeof(uint16_t) + 1))) {
            snprintf(err, err_size, "out of memory");
            return -1;
        }
    /* in step, every exit leads to a fresh state: the searches valuing them need no cut */
    if (!in_step && needs_distance && distance_of(ts, m, &distance, err, err_size) < 0)
        return -1;
    struct rule_context rc = { ts, rules, zeroing, *m, &t->ix, distance,
                               layers ? t->dtm : NULL, layers ? out->dtz : NULL };
    const struct rule_oracle oracle = { &rc, plain_value, fresh_value, reset_distance, NULL };
    int status = layers ? rule_layers_solve(&row, &oracle, &t->ix, t->dtm, out->dtz)
                        : search_material(&oracle, &row, &t->ix, t->dtm, out->dtz);
    free(distance);
    return say_failure(status, err, err_size);
}

/* The materials a rule table of m reads: m and the closure of its successors. */
struct gathered {
    struct material *list;
    bool *loaded;   /* read into ts for this build, to be forgotten after it */
    int count;
};

/* Makes sure ts holds the tables of m and of what its moves reach, rules the rule
 * tables of the latter under `reading`, and zeroing their distance tables. */
static int gather(struct tableset *ts, struct tableset *rules, struct tableset *zeroing,
                  const struct material *m, int reading, struct gathered *g, char *err,
                  size_t err_size)
{
    g->list = malloc((MATERIAL_CODES + 1) * sizeof *g->list);
    g->loaded = calloc(MATERIAL_CODES + 1, sizeof *g->loaded);
    g->count = g->list && g->loaded ? material_closure(ts->v, m, g->list + 1, MATERIAL_CODES) : -1;
    if (g->count < 0) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    g->list[0] = *m;
    g->count++;
    for (int k = 0; k < g->count; k++) {
        g->loaded[k] = !tableset_find(ts, &g->list[k]);
        if (!tableset_get(ts, &g->list[k], err, err_size) ||
            (k > 0 && (load_rule_table(ts, rules, &g->list[k], table_metric_rules(reading),
                                       err, err_size) < 0 ||
                       load_rule_table(ts, zeroing, &g->list[k],
                                       table_metric_zeroing(reading), err, err_size) < 0)))
            return -1;
    }
    return 0;
}

/* Forgets what gather read into ts, and frees g. */
static void ungather(struct tableset *ts, struct gathered *g)
{
    for (int k = 0; k < g->count; k++)
        if (g->loaded[k])
            tableset_forget(ts, &g->list[k]);
    free(g->list);
    free(g->loaded);
}

/* The values in bytes (malloc'd into out) when they all fit; returns the width of the
 * values to write: 8 (out) or 16 (in as it is), or 0 when memory runs out (out then
 * holds nothing to free). */
static uint32_t values_in_bytes(const uint16_t *const in[2], uint64_t n, uint8_t *out[2])
{
    for (int side = 0; side < 2; side++)
        for (uint64_t i = 0; i < n; i++)
            if (in[side][i] > UINT8_MAX)
                return 16;
    for (int side = 0; side < 2; side++) {
        if (!(out[side] = malloc(n + 1))) {
            free(out[0]); /* the first side's bytes, when the second's do not fit */
            out[0] = NULL;
            return 0;
        }
        for (uint64_t i = 0; i < n; i++)
            out[side][i] = (uint8_t)in[side][i];
    }
    return 8;
}

/* Writes material m's values (n per side) as its table of `metric`, in bytes when they
 * all fit (as the DTM files are: half the bytes for zstd and the probe's cache to hold). */
static int write_values(const struct tableset *ts, const struct material *m,
                        enum table_metric metric, uint64_t n, const uint16_t *const in[2],
                        char *err, size_t err_size)
{
    char path[4096];
    struct table_file_info info = table_file_identity(ts->v, m, metric, n);
    uint8_t *bytes[2] = { NULL, NULL };
    const void *values[2] = { in[0], in[1] };
    info.value_bits = values_in_bytes(in, n, bytes);
    if (info.value_bits == 0) {
        snprintf(err, err_size, "out of memory writing a rule table");
        return -1;
    }
    if (info.value_bits == 8)
        values[0] = bytes[0], values[1] = bytes[1];
    tableset_path(ts, m, metric, path, sizeof path);
    int status = table_file_write(path, &info, values, err, err_size);
    free(bytes[0]);
    free(bytes[1]);
    return status;
}

void rule_values_free(struct rule_values *r)
{
    table_free(&r->t);
    free(r->dtz[0]);
    free(r->dtz[1]);
    r->dtz[0] = r->dtz[1] = NULL;
}

int rule_table_values(struct tableset *ts, const struct material *m, int reading,
                      enum rule_solver solver, struct rule_values *out, char *err,
                      size_t err_size)
{
    struct tableset rules, zeroing;
    struct gathered g = { 0 };
    *out = (struct rule_values){ .t = { .m = *m } };
    tableset_init(&rules, ts->v, NULL);
    tableset_init(&zeroing, ts->v, NULL);
    /* the plain solver reads DTM only */
    rules.dtm_only = rules.wdl_only = zeroing.dtm_only = zeroing.wdl_only = true;
    int status = gather(ts, &rules, &zeroing, m, reading, &g, err, err_size);
    if (status == 0)
        status = solve_rules(ts, &rules, &zeroing, m, reading, solver, out, err, err_size);
    tableset_free(&rules);
    tableset_free(&zeroing);
    ungather(ts, &g);
    return status;
}

static int build_reading(struct tableset *ts, const struct material *m, int reading, char *err,
                         size_t err_size)
{
    struct rule_values r;
    int status = rule_table_values(ts, m, reading, RULE_SOLVER_ANY, &r, err, err_size);
    if (status == 0)
        status = write_values(ts, m, table_metric_rules(reading), r.t.ix.size,
                              (const uint16_t *const[2]){ r.t.dtm[0], r.t.dtm[1] }, err,
                              err_size);
    if (status == 0)
        status = write_values(ts, m, table_metric_zeroing(reading), r.t.ix.size,
                              (const uint16_t *const[2]){ r.dtz[0], r.dtz[1] }, err,
                              err_size);
    rule_values_free(&r);
    return status;
}

/* Whether material m's file of `metric` is there whole. */
static bool file_intact(struct tableset *ts, const struct material *m, enum table_metric metric,
                        uint64_t positions)
{
    struct table_file_info info;
    void *values[2];
    char ignored[512];
    if (tableset_read_file(ts, m, metric, positions, &info, values, ignored,
                           sizeof ignored) < 0)
        return false;
    free(values[0]);
    free(values[1]);
    return true;
}

int rule_tables_build(struct tableset *ts, const struct material *m, int *built, char *err,
                      size_t err_size)
{
    int readings = ts->dir && !ts->wdl_only ? rule_table_readings(ts->v) : 0, written = 0;
    for (int reading = 0; reading < readings; reading++) {
        struct material_index ix;
        if (tableset_index_init(&ix, ts->v, m) < 0) {
            snprintf(err, err_size, "out of memory");
            return -1;
        }
        bool intact = file_intact(ts, m, table_metric_rules(reading), ix.size) &&
                      file_intact(ts, m, table_metric_zeroing(reading), ix.size);
        index_free(&ix);
        if (intact)
            continue;
        if (build_reading(ts, m, reading, err, err_size) < 0)
            return -1;
        written += 2;
    }
    if (built)
        *built = written;
    return 0;
}
