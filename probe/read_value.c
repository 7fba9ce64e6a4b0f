/* A position's value read from its table: the position looked up (format/lookup.h), its
 * table's file opened on first use (probe/handle.c), the block that holds the value
 * found, and the value taken from the block cache, or the block read, decompressed and
 * kept there. WDL, DTM and MTC values, and the values under the move-limit rules that
 * the rule tables hold. */
#include <stdlib.h>

#include "probe/cache.h"
#include "probe/internal.h"
#include "rules/rule_search.h"

#define NEEDS(metric) (1u << (metric))

/* ---- the table and the place ---- */

/* Whether t's WDL file is there and was built WDL-only (damero gen --metrics wdl), so
 * that its DTM and MTC files are missing on purpose. Opens the WDL file if no probe has. */
static bool wdl_only_table(damero_tb *tb, struct tb_table *t)
{
    const struct tb_file *wdl = &t->file[METRIC_WDL - 1];
    return atomic_load_explicit(&wdl->state, memory_order_relaxed) != FILE_ABSENT &&
           probe_use_file(tb, t, METRIC_WDL) == DAMERO_OK &&
           (wdl->map.info.flags & TABLE_FLAG_WDL_ONLY);
}

/* The table holding p's value, and p in that table's colour orientation; *over instead
 * when the game has ended. `needed` says which of the table's files must exist
 * (NEEDS(METRIC_DTM) | ...). */
static int find_table(damero_tb *tb, const struct position *p, unsigned needed,
                      enum game_end *over, const struct tb_table **t,
                      struct position *oriented)
{
    struct lookup l;
    char name[MATERIAL_NAME_SIZE];
    int status = probe_lookup(tb, p, &l, over);
    if (status != DAMERO_OK || *over != GAME_GOES_ON)
        return status;
    *oriented = l.oriented;
    struct tb_table *table = tb->by_code[material_code(&l.material)];
    for (int metric = METRIC_WDL; metric <= METRIC_MTC && status == DAMERO_OK; metric++) {
        if (!(needed & NEEDS(metric)))
            continue;
        if (!table || atomic_load_explicit(&table->file[metric - 1].state,
                                           memory_order_relaxed) == FILE_ABSENT) {
            /* the material as the position has it, White's pieces first, which is also
             * how `damero gen` takes it */
            struct material as_played = material_of(p);
            bool wdl_only = table && wdl_only_table(tb, table);
            bool with_mtc = wdl_only && atomic_load_explicit(&table->file[METRIC_MTC - 1].state,
                                                             memory_order_relaxed) != FILE_ABSENT;
            material_name(&as_played, name);
            return probe_fail(DAMERO_ERR_MISSING,
                              "no %s table for %s in %s%s: build it with 'damero gen "
                              "--variant %s --dir %s %s'",
                              table_metric_suffix((enum table_metric)metric), name, tb->dir,
                              with_mtc ? " (its tables were built with 'damero gen --metrics "
                                         "wdl+mtc', without DTM)"
                              : wdl_only ? " (its tables were built WDL-only, with 'damero gen "
                                           "--metrics wdl', without DTM and MTC)"
                                         : "",
                              tb->v->name, tb->root, name);
        }
        status = probe_use_file(tb, table, (enum table_metric)metric);
    }
    *t = table;
    return status;
}

struct value_place probe_place_of(const struct tb_table *t, enum table_metric metric,
                                  enum side side, uint64_t i)
{
    const struct tb_file *f = &t->file[metric - 1];
    uint64_t b = table_block_of(&f->map, side, i);
    return (struct value_place){ &f->map, f->cache_file, b, (uint32_t)i & (f->map.block_values - 1),
                                 table_block_count(&f->map, b) };
}

/* ---- the value at a place ---- */

/* The value at `at` read from the file, its block then kept in the cache. */
static int read_block_value(damero_tb *tb, const struct value_place *at, unsigned *value)
{
    const struct table_map *map = at->map;
    uint32_t bits = map->info.value_bits;
    char err[512];
    size_t bytes = table_block_bytes(map, at->block);
    uint8_t *data = block_cache_buffer(bytes);
    ZSTD_DCtx *dctx = probe_take_dctx(tb);
    int status = data && dctx ? table_map_block(map, dctx, at->block, data, err, sizeof err)
                              : TABLE_ERR_MEMORY;
    if (dctx)
        probe_give_dctx(tb, dctx);
    if (status == TABLE_OK) {
        probe_count_block(tb, map, at->block);
        *value = block_cache_insert(tb->cache, at->cache_file, at->block, data, bits,
                                    at->count, bytes, at->k);
    } else
        block_cache_discard(data);
    if (status == TABLE_ERR_MEMORY)
        return probe_fail(DAMERO_ERR_MEMORY, "out of memory reading %s", tb->dir);
    if (status != TABLE_OK)
        return probe_fail(probe_status_of(status), "%s/%s", tb->dir, err);
    return DAMERO_OK;
}

/* The value at `at`: from the cache, else from the file (read_block_value). The cache's
 * answer is inline: a probe reads two to four values, and the frame of the call that
 * reads a block (a buffer for a message) cost more than taking the cache's. */
static inline int read_value_at(damero_tb *tb, const struct value_place *at, unsigned *value)
{
    bool hit = block_cache_value(tb->cache, at->cache_file, at->block,
                                 at->map->info.value_bits, at->count, at->k, value);
    probe_count_lookup(tb, hit);
    return hit ? DAMERO_OK : read_block_value(tb, at, value);
}

/* The stored value of index i for `side` to move in one of t's files. */
static int read_value(damero_tb *tb, const struct tb_table *t, enum table_metric metric,
                      enum side side, uint64_t i, unsigned *value)
{
    struct value_place at = probe_place_of(t, metric, side, i);
    return read_value_at(tb, &at, value);
}

/* ---- WDL ---- */

int probe_wdl_by_captures(damero_tb *tb, const struct position *p, probe_wdl_fn child_wdl,
                          enum wdl *out)
{
    struct move_list list;
    generate_moves(tb->v, p, 0, &list);
    *out = WDL_LOSS;
    for (int k = 0; k < list.count && *out != WDL_WIN; k++) {
        struct position child;
        enum wdl value;
        make_move(p, &list.moves[k], &child);
        int status = child_wdl(tb, &child, &value);
        if (status != DAMERO_OK)
            return status;
        if (wdl_parent(value) == WDL_WIN || (wdl_parent(value) == WDL_DRAW && *out == WDL_LOSS))
            *out = wdl_parent(value);
    }
    return DAMERO_OK;
}

/* p's WDL, or where to read it: *at is filled and true returned when the value stands
 * in a WDL file; otherwise *out holds it (the game is over, or the captures were played
 * and probed), or the status says why it cannot be known. */
static int wdl_locate(damero_tb *tb, const struct position *p, struct value_place *at,
                      bool *in_file, enum wdl *out)
{
    const struct tb_table *t = NULL;
    struct position q;
    enum game_end over;
    *in_file = false;
    int status = find_table(tb, p, NEEDS(METRIC_WDL), &over, &t, &q);
    if (status != DAMERO_OK || over != GAME_GOES_ON) {
        *out = dtm_wdl(dtm_game_end(over));
        return status;
    }
    if ((t->file[METRIC_WDL - 1].map.info.flags & TABLE_FLAG_CAPTURES_DONT_CARE) &&
        has_capture(tb->v, &q))
        return probe_wdl_by_captures(tb, &q, probe_wdl, out);
    *at = probe_place_of(t, METRIC_WDL, q.side, index_of(&t->ix, &q, NULL));
    *in_file = true;
    return DAMERO_OK;
}

/* ---- DTM and MTC, and the values under the rules ---- */

/* DTM and MTC of p from the DTM and MTC files. When the game goes on and both are read,
 * *t, *q and *i name where p's values stand (for the rule table beside them); otherwise
 * *t is NULL. */
static int dtm_mtc_at(damero_tb *tb, const struct position *p, dtm_t *dtm, mtc_t *mtc,
                      const struct tb_table **t, struct position *q, uint64_t *i)
{
    enum game_end over;
    unsigned d, c;
    *t = NULL;
    int status = find_table(tb, p, NEEDS(METRIC_DTM) | NEEDS(METRIC_MTC), &over, t, q);
    if (status != DAMERO_OK || over != GAME_GOES_ON) {
        *t = NULL;
        *dtm = dtm_game_end(over);
        *mtc = mtc_game_end(over);
        return status;
    }
    *i = index_of(&(*t)->ix, q, NULL);
    if ((status = read_value(tb, *t, METRIC_DTM, q->side, *i, &d)) != DAMERO_OK ||
        (status = read_value(tb, *t, METRIC_MTC, q->side, *i, &c)) != DAMERO_OK) {
        *t = NULL;
        return status;
    }
    *dtm = (dtm_t)d;
    *mtc = (mtc_t)c;
    return DAMERO_OK;
}

/* Whether block b of t's rule table (`metric`) holds the very values of block b of its
 * DTM file (both decompressed and compared value by value); BLOCK_UNKNOWN when either
 * cannot be read (the read that follows then says why). */
static enum block_likeness compare_with_dtm(damero_tb *tb, const struct tb_table *t,
                                            enum table_metric metric, uint64_t b)
{
    const struct table_map *rules = &t->file[metric - 1].map;
    const struct table_map *dtm = &t->file[METRIC_DTM - 1].map;
    if (rules->block_values != dtm->block_values)
        return BLOCK_DIFFERENT;
    char err[512];
    uint8_t *raw_rules = malloc(table_block_bytes(rules, b));
    uint8_t *raw_dtm = malloc(table_block_bytes(dtm, b));
    ZSTD_DCtx *dctx = probe_take_dctx(tb);
    enum block_likeness likeness = BLOCK_UNKNOWN;
    if (raw_rules && raw_dtm && dctx &&
        table_map_block(rules, dctx, b, raw_rules, err, sizeof err) == TABLE_OK &&
        table_map_block(dtm, dctx, b, raw_dtm, err, sizeof err) == TABLE_OK) {
        probe_count_block(tb, rules, b);
        probe_count_block(tb, dtm, b);
        uint32_t n = table_block_count(rules, b);
        likeness = BLOCK_SAME;
        for (uint32_t k = 0; k < n && likeness == BLOCK_SAME; k++)
            if (table_raw_value(rules->info.value_bits, raw_rules, n, k) !=
                table_raw_value(dtm->info.value_bits, raw_dtm, n, k))
                likeness = BLOCK_DIFFERENT;
    }
    if (dctx)
        probe_give_dctx(tb, dctx);
    free(raw_rules);
    free(raw_dtm);
    return likeness;
}

/* The distance to zeroing of index i, whose value under the rules is `value`, from t's
 * distance table of `metric`, when the file is there and knows it; else *dtz stays
 * RULE_DTZ_UNKNOWN. */
static int zeroing_at(damero_tb *tb, struct tb_table *t, enum table_metric metric,
                      enum side side, uint64_t i, dtm_t value, int *dtz)
{
    unsigned v;
    if (atomic_load_explicit(&t->file[metric - 1].state, memory_order_relaxed) == FILE_ABSENT)
        return DAMERO_OK;
    int status = probe_use_file(tb, t, metric);
    struct value_place at = probe_place_of(t, metric, side, i);
    if (status == DAMERO_OK && (status = read_value_at(tb, &at, &v)) == DAMERO_OK)
        *dtz = rule_dtz_of_stored(value, (int)v);
    return status;
}

/* The value of index i of t's rule table under `metric`, when the file is there, and
 * (unless it is a draw) its distance to zeroing from the distance table beside it, when
 * that is there (else RULE_DTZ_UNKNOWN). dtm, when not NULL, is the DTM of the same
 * index, already read: where the rule table's block holds the DTM file's values, it is
 * the answer. */
static int rules_value_at(damero_tb *tb, struct tb_table *t, enum table_metric metric,
                          enum side side, uint64_t i, const dtm_t *dtm, dtm_t *value,
                          int *dtz, bool *known)
{
    unsigned v = 0;
    enum table_metric zeroing = metric == METRIC_RULES1 ? METRIC_ZEROING1 : METRIC_ZEROING0;
    *known = false;
    *dtz = RULE_DTZ_UNKNOWN;
    if (!t || atomic_load_explicit(&t->file[metric - 1].state, memory_order_relaxed) ==
                  FILE_ABSENT)
        return DAMERO_OK;
    int status = probe_use_file(tb, t, metric);
    if (status != DAMERO_OK)
        return status;
    struct value_place at = probe_place_of(t, metric, side, i);
    _Atomic uint8_t *same = &t->file[metric - 1].same_as_dtm[at.block];
    if (dtm && atomic_load_explicit(same, memory_order_relaxed) == BLOCK_UNKNOWN)
        atomic_store_explicit(same, compare_with_dtm(tb, t, metric, at.block),
                              memory_order_relaxed);
    if (dtm && atomic_load_explicit(same, memory_order_relaxed) == BLOCK_SAME) {
        *value = *dtm;
        *known = true;
    } else {
        status = read_value_at(tb, &at, &v);
        *value = (dtm_t)v;
        *known = status == DAMERO_OK;
    }
    if (*known && *value != DTM_DRAW)
        status = zeroing_at(tb, t, zeroing, side, i, *value, dtz);
    return status;
}

/* ---- exported ---- */

int probe_no_opponent(const struct position *p)
{
    return probe_fail(DAMERO_ERR_POSITION, "%s has no piece: the game is already over",
                      p->side == WHITE ? "black" : "white");
}

int probe_lookup(const damero_tb *tb, const struct position *p, struct lookup *l,
                 enum game_end *over)
{
    *over = GAME_GOES_ON;
    switch (lookup_position(tb->v, p, l)) {
    case LOOKUP_GAME_OVER:
        *over = l->over;
        return DAMERO_OK;
    case LOOKUP_NO_OPPONENT:
        return probe_no_opponent(p);
    case LOOKUP_TOO_MANY:
        return probe_fail(DAMERO_ERR_MISSING, "no table has %d pieces",
                          bb_count(position_occupied(p)));
    case LOOKUP_TABLE:
        break;
    }
    return DAMERO_OK;
}

int probe_wdl(damero_tb *tb, const struct position *p, enum wdl *out)
{
    struct value_place at;
    bool in_file;
    unsigned value;
    int status = wdl_locate(tb, p, &at, &in_file, out);
    if (status != DAMERO_OK || !in_file)
        return status;
    status = read_value_at(tb, &at, &value);
    *out = (enum wdl)value;
    return status;
}

/* Three passes: locate each value (and ask for its block's cache entry), ask for the
 * bytes the entries point to, then read. */
void probe_wdl_batch(damero_tb *tb, const damero_position *positions, size_t n,
                     enum wdl *wdl, int *statuses)
{
    struct value_place at[WDL_BATCH];
    bool in_file[WDL_BATCH];
    for (size_t k = 0; k < n; k++) {
        struct position p;
        in_file[k] = false;
        statuses[k] = probe_position_in(tb, &positions[k], &p);
        if (statuses[k] == DAMERO_OK)
            statuses[k] = wdl_locate(tb, &p, &at[k], &in_file[k], &wdl[k]);
        if (in_file[k])
            block_cache_prefetch_entry(tb->cache, at[k].cache_file, at[k].block);
    }
    for (size_t k = 0; k < n; k++)
        if (in_file[k])
            block_cache_prefetch_value(tb->cache, at[k].cache_file, at[k].block,
                                       at[k].map->info.value_bits, at[k].k);
    for (size_t k = 0; k < n; k++) {
        unsigned value;
        if (!in_file[k])
            continue;
        statuses[k] = read_value_at(tb, &at[k], &value);
        wdl[k] = (enum wdl)value;
    }
}

int probe_plain_value(damero_tb *tb, const struct position *p, dtm_t *dtm, mtc_t *mtc)
{
    const struct tb_table *t;
    struct position q;
    uint64_t i;
    return dtm_mtc_at(tb, p, dtm, mtc, &t, &q, &i);
}

/* Whether t has a file of `metric` (opened or not). */
static bool has_file(const struct tb_table *t, enum table_metric metric)
{
    return atomic_load_explicit(&t->file[metric - 1].state, memory_order_relaxed) !=
           FILE_ABSENT;
}

/* p's value where its material t lacks the DTM or the MTC file (probe_built_value): the
 * DTM, else the WDL, and the MTC where it is there; both where the side to move has no
 * move, the game over. l is p's lookup. */
static int value_from_files_built(damero_tb *tb, struct tb_table *t,
                                  const struct position *p, const struct lookup *l, dtm_t *dtm,
                                  mtc_t *mtc, bool *has_dtm, bool *has_mtc)
{
    enum side side = l->oriented.side;
    unsigned d = DTM_DRAW, c = MTC_NONE;
    enum wdl w = WDL_DRAW;
    int status = DAMERO_OK;
    if (count_moves(tb->v, p, 0) == 0) { /* over: no table needed to say so */
        *dtm = dtm_no_move(tb->v);
        *mtc = mtc_of_plies(0);
        return DAMERO_OK;
    }
    *has_dtm = has_file(t, METRIC_DTM);
    *has_mtc = has_file(t, METRIC_MTC);
    if (*has_dtm)
        status = probe_use_file(tb, t, METRIC_DTM);
    else
        status = probe_wdl(tb, p, &w); /* opens the WDL file, and with it the index */
    if (status == DAMERO_OK && *has_mtc)
        status = probe_use_file(tb, t, METRIC_MTC);
    uint64_t i = status == DAMERO_OK ? index_of(&t->ix, &l->oriented, NULL) : 0;
    if (status == DAMERO_OK && *has_dtm)
        status = read_value(tb, t, METRIC_DTM, side, i, &d);
    if (status == DAMERO_OK && *has_mtc)
        status = read_value(tb, t, METRIC_MTC, side, i, &c);
    *dtm = *has_dtm ? (dtm_t)d : dtm_of_wdl(w);
    *mtc = (mtc_t)c;
    return status;
}

int probe_built_value(damero_tb *tb, const struct position *p, dtm_t *dtm, mtc_t *mtc,
                      bool *has_dtm, bool *has_mtc)
{
    struct lookup l;
    enum game_end over;
    *has_dtm = *has_mtc = true;
    int status = probe_plain_value(tb, p, dtm, mtc);
    if (status != DAMERO_ERR_MISSING) /* the usual case: both there, read at once */
        return status;
    if (probe_lookup(tb, p, &l, &over) != DAMERO_OK || over != GAME_GOES_ON)
        return status;
    struct tb_table *t = tb->by_code[material_code(&l.material)];
    if (!t || (!has_file(t, METRIC_DTM) && !has_file(t, METRIC_WDL)))
        return status; /* nothing to answer from: probe_plain_value's message stands */
    return value_from_files_built(tb, t, p, &l, dtm, mtc, has_dtm, has_mtc);
}

int probe_rules_fresh(damero_tb *tb, const struct position *p, int reading, dtm_t *value,
                      int *dtz, bool *known)
{
    struct lookup l;
    enum game_end over;
    *known = false;
    *dtz = RULE_DTZ_UNKNOWN;
    int status = probe_lookup(tb, p, &l, &over);
    if (status != DAMERO_OK || over != GAME_GOES_ON)
        return status;
    struct tb_table *t = tb->by_code[material_code(&l.material)];
    enum table_metric metric = table_metric_rules(reading);
    if (!t || atomic_load_explicit(&t->file[metric - 1].state, memory_order_relaxed) ==
                  FILE_ABSENT)
        return DAMERO_OK;
    if ((status = probe_use_file(tb, t, metric)) != DAMERO_OK) /* the index is made there */
        return status;
    return rules_value_at(tb, t, metric, l.oriented.side, index_of(&t->ix, &l.oriented, NULL),
                          NULL, value, dtz, known);
}

int probe_values(damero_tb *tb, const struct position *p, int reading, dtm_t *dtm,
                 mtc_t *mtc, dtm_t *fresh, int *dtz, bool *known, struct material *m)
{
    const struct tb_table *t;
    struct position q;
    uint64_t i;
    *known = false;
    *dtz = RULE_DTZ_UNKNOWN;
    int status = dtm_mtc_at(tb, p, dtm, mtc, &t, &q, &i);
    /* t holds the canonical material; the lookup swapped colours (and the side to move)
     * where p has it the other way round */
    *m = !t ? material_of(p) : q.side == p->side ? t->m : material_flipped(&t->m);
    if (!t)
        return status;
    if (*dtm == DTM_DRAW) {
        /* a draw is one under the rules: nothing more to read, and known, so that the
         * probe answers it without starting a search */
        *fresh = DTM_DRAW;
        *dtz = 0;
        *known = true;
        return status;
    }
    return rules_value_at(tb, (struct tb_table *)t, table_metric_rules(reading), q.side, i,
                          dtm, fresh, dtz, known);
}
