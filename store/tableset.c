#include "store/tableset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/lookup.h"

int tableset_index_init(struct material_index *ix, const struct variant *v,
                        const struct material *m)
{
    if (index_start(ix, v, m) < 0)
        return -1;
    uint64_t words = index_class_words(ix);
#pragma omp parallel for schedule(static)
    for (uint64_t w = 0; w < words; w++)
        index_mark_classes(ix, w);
    index_count_classes(ix);
    return 0;
}

void tableset_init(struct tableset *ts, const struct variant *v, const char *dir)
{
    memset(ts, 0, sizeof *ts);
    ts->v = v;
    ts->dir = dir;
    ts->levels_held_most = LEVELS_HELD_DEFAULT;
}

void table_free(struct table *t)
{
    if (!t)
        return;
    index_free(&t->ix);
    for (int side = WHITE; side <= BLACK; side++) {
        free(t->dtm[side]);
        free(t->mtc[side]);
        dtm_bytes_free(&t->dtm8[side]);
        t->dtm[side] = t->mtc[side] = NULL;
    }
}

double table_held_bytes(const struct table *t)
{
    double bytes = 0, n = (double)t->ix.size;
    for (int side = WHITE; side <= BLACK; side++)
        bytes += (t->dtm8[side].bytes ? n + (double)dtm_bytes_extra(&t->dtm8[side]) : 0) +
                 (t->dtm[side] ? 2 * n : 0) + (t->mtc[side] ? 2 * n : 0);
    return bytes;
}

void tableset_free(struct tableset *ts)
{
    for (int c = 0; c < MATERIAL_CODES; c++) {
        table_free(ts->by_code[c]);
        free(ts->by_code[c]);
        ts->by_code[c] = NULL;
    }
}

void tableset_forget(struct tableset *ts, const struct material *m)
{
    struct table **slot = &ts->by_code[material_code(m)];
    table_free(*slot);
    free(*slot);
    *slot = NULL;
}

const struct table *tableset_find(const struct tableset *ts, const struct material *m)
{
    return ts->by_code[material_code(m)];
}

int tableset_add(struct tableset *ts, struct table *t)
{
    struct table *copy = malloc(sizeof *copy);
    if (!copy)
        return -1;
    for (int side = WHITE; side <= BLACK && ts->dtm_only; side++) {
        free(t->mtc[side]);
        t->mtc[side] = NULL;
    }
    *copy = *t;
    ts->by_code[material_code(&t->m)] = copy;
    return 0;
}

bool tableset_builds(const struct tableset *ts, enum table_metric metric)
{
    return metric == METRIC_WDL || (metric == METRIC_DTM && !ts->wdl_only) ||
           (metric == METRIC_MTC && (!ts->wdl_only || ts->with_mtc));
}

void tableset_path(const struct tableset *ts, const struct material *m,
                   enum table_metric metric, char *path, size_t path_size)
{
    char name[MATERIAL_NAME_SIZE];
    material_name(m, name);
    snprintf(path, path_size, "%s/%s%s", ts->dir, name, table_metric_suffix(metric));
}

int tableset_read_file(const struct tableset *ts, const struct material *m,
                       enum table_metric metric, uint64_t positions,
                       struct table_file_info *info, void *values[2], char *err,
                       size_t err_size)
{
    struct table_file_info want = table_file_identity(ts->v, m, metric, positions);
    char path[4096];
    tableset_path(ts, m, metric, path, sizeof path);
    if (table_file_read(path, info, values, err, err_size) < 0)
        return -1;
    if (table_file_check_identity(path, info, &want, err, err_size) == TABLE_OK)
        return 0;
    free(values[0]);
    free(values[1]);
    values[0] = values[1] = NULL;
    return -1;
}

/* Reads one metric's file of table t into 16-bit values. */
static int load_metric(const struct tableset *ts, const struct table *t, enum table_metric metric,
                       uint16_t *out[2], char *err, size_t err_size)
{
    struct table_file_info info;
    void *values[2];

    if (tableset_read_file(ts, &t->m, metric, t->ix.size, &info, values, err, err_size) < 0)
        return -1;
    for (int side = WHITE; side <= BLACK; side++) {
        if (info.value_bits == 16) {
            out[side] = values[side];
            continue;
        }
        out[side] = malloc(info.positions * sizeof(uint16_t) + 1);
        for (uint64_t i = 0; out[side] && i < info.positions; i++)
            out[side][i] = ((uint8_t *)values[side])[i];
        free(values[side]);
    }
    if (!out[WHITE] || !out[BLACK]) {
        snprintf(err, err_size, "out of memory reading a table");
        free(out[WHITE]);
        free(out[BLACK]);
        return -1;
    }
    return 0;
}

/* Opens material m's file of one metric and checks that it is that table (as
 * tableset_read_file). Returns 0, or -1 with a sentence in err. */
static int open_checked(const struct tableset *ts, const struct material *m,
                        enum table_metric metric, uint64_t positions, struct table_map *map,
                        char *path, size_t path_size, char *err, size_t err_size)
{
    struct table_file_info want = table_file_identity(ts->v, m, metric, positions);
    tableset_path(ts, m, metric, path, path_size);
    if (table_map_open(path, map, err, err_size) != TABLE_OK)
        return -1;
    if (table_file_check_identity(path, &map->info, &want, err, err_size) == TABLE_OK)
        return 0;
    table_map_close(map);
    return -1;
}

/* Reads the values of an open table block by block into take(context); returns 0, or
 * -1 with a sentence in err naming the file. */
static int read_blocks(const struct table_map *map, const char *path, table_block_taker take,
                       void *context, char *err, size_t err_size)
{
    char why[512] = "out of memory";
    if (table_map_read_blocks(map, take, context, why, sizeof why) == TABLE_OK)
        return 0;
    snprintf(err, err_size, "%s: %s", path, why);
    return -1;
}

int tableset_check_file(const struct tableset *ts, const struct material *m,
                        enum table_metric metric, uint64_t positions, char *err,
                        size_t err_size)
{
    char path[4096];
    struct table_map map;
    if (open_checked(ts, m, metric, positions, &map, path, sizeof path, err, err_size) < 0)
        return -1;
    int result = read_blocks(&map, path, NULL, NULL, err, err_size);
    table_map_close(&map);
    return result;
}

/* Reads table t's DTM file into bytes (dtm8[]) block by block, so that neither side is
 * ever held at two bytes a position: how a build holds the tables it reads. */
static int load_dtm_bytes(const struct tableset *ts, struct table *t, char *err,
                          size_t err_size)
{
    char path[4096];
    struct table_map map;
    if (open_checked(ts, &t->m, METRIC_DTM, t->ix.size, &map, path, sizeof path, err,
                     err_size) < 0)
        return -1;
    int result = -1;
    if (dtm_bytes_init(&t->dtm8[WHITE], t->ix.size) < 0 ||
        dtm_bytes_init(&t->dtm8[BLACK], t->ix.size) < 0)
        snprintf(err, err_size, "out of memory reading %s", path);
    else
        result = read_blocks(&map, path, dtm_bytes_take, t->dtm8, err, err_size);
    table_map_close(&map);
    if (result < 0) {
        dtm_bytes_free(&t->dtm8[WHITE]);
        dtm_bytes_free(&t->dtm8[BLACK]);
    }
    return result;
}

/* The DTM of table t: in bytes in a dtm_only set, else in 16 bits. */
static int load_dtm(const struct tableset *ts, struct table *t, char *err, size_t err_size)
{
    return ts->dtm_only ? load_dtm_bytes(ts, t, err, err_size)
                        : load_metric(ts, t, METRIC_DTM, t->dtm, err, err_size);
}

bool tableset_built_without_dtm(const struct tableset *ts, const struct material *m)
{
    char path[4096], err[512];
    struct table_file_info info;
    tableset_path(ts, m, METRIC_WDL, path, sizeof path);
    return table_file_read_info(path, &info, err, sizeof err) == TABLE_OK &&
           (info.flags & TABLE_FLAG_WDL_ONLY);
}

/* The DTM of table t as a WDL-only build needs it: from its WDL-only file (dtm_of_wdl),
 * or from the DTM file of a table built whole. */
static int load_wdl_as_dtm(const struct tableset *ts, struct table *t, char *err,
                           size_t err_size)
{
    struct table_file_info info;
    void *values[2];
    if (!tableset_built_without_dtm(ts, &t->m))
        return load_dtm(ts, t, err, err_size);
    if (tableset_read_file(ts, &t->m, METRIC_WDL, t->ix.size, &info, values, err, err_size) < 0)
        return -1;
    for (int side = WHITE; side <= BLACK && ts->dtm_only; side++) {
        uint8_t *codes = t->dtm8[side].bytes = values[side]; /* they fit in a byte: in place */
        for (uint64_t i = 0; i < info.positions; i++)
            codes[i] = (uint8_t)dtm_of_wdl((enum wdl)codes[i]);
    }
    for (int side = WHITE; side <= BLACK && !ts->dtm_only; side++) {
        t->dtm[side] = malloc(info.positions * sizeof(dtm_t) + 1);
        for (uint64_t i = 0; t->dtm[side] && i < info.positions; i++)
            t->dtm[side][i] = dtm_of_wdl((enum wdl)((uint8_t *)values[side])[i]);
        free(values[side]);
    }
    if (!ts->dtm_only && (!t->dtm[WHITE] || !t->dtm[BLACK])) {
        snprintf(err, err_size, "out of memory reading a table");
        return -1;
    }
    return 0;
}

bool tableset_has_file(const struct tableset *ts, const struct material *m,
                       enum table_metric metric)
{
    char path[4096];
    tableset_path(ts, m, metric, path, sizeof path);
    return access(path, F_OK) == 0;
}

/* The DTM (and MTC unless ts->dtm_only) of table t from its files. */
static int load_values(const struct tableset *ts, struct table *t, char *err, size_t err_size)
{
    char name[MATERIAL_NAME_SIZE];
    bool mtc = !ts->dtm_only && (!ts->wdl_only || ts->with_mtc);
    if (ts->wdl_only && load_wdl_as_dtm(ts, t, err, err_size) < 0)
        return -1;
    if (!ts->wdl_only && tableset_built_without_dtm(ts, &t->m)) {
        bool has_mtc = tableset_has_file(ts, &t->m, METRIC_MTC);
        material_name(&t->m, name);
        snprintf(err, err_size, "the %s table of %s in %s was built without DTM (damero gen "
                 "--metrics %s): it has no .dtm%s file; build it again with --metrics all",
                 ts->v->name, name, ts->dir, has_mtc ? "wdl+mtc" : "wdl",
                 has_mtc ? "" : " or .mtc");
        return -1;
    }
    if (!ts->wdl_only && load_dtm(ts, t, err, err_size) < 0)
        return -1;
    return mtc ? load_metric(ts, t, METRIC_MTC, t->mtc, err, err_size) : 0;
}

const struct table *tableset_get(struct tableset *ts, const struct material *m, char *err,
                                 size_t err_size)
{
    const struct table *found = tableset_find(ts, m);
    struct table t = { .m = *m };
    char name[MATERIAL_NAME_SIZE];

    if (found)
        return found;
    material_name(m, name);
    if (!ts->dir) {
        snprintf(err, err_size, "no %s table of %s in memory", ts->v->name, name);
        return NULL;
    }
    if (tableset_index_init(&t.ix, ts->v, m) < 0) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    if (load_values(ts, &t, err, err_size) < 0 || tableset_add(ts, &t) < 0) {
        table_free(&t);
        return NULL;
    }
    return tableset_find(ts, m);
}

int tableset_value(const struct tableset *ts, const struct position *p, dtm_t *dtm, mtc_t *mtc)
{
    struct lookup l;
    enum lookup_status where = lookup_position(ts->v, p, &l);
    const struct table *t = where == LOOKUP_TABLE ? tableset_find(ts, &l.material) : NULL;
    if (where != LOOKUP_GAME_OVER && !t)
        return -1;
    uint64_t i = t ? index_of(&t->ix, &l.oriented, NULL) : 0;
    if (dtm && t)
        *dtm = table_dtm(t, l.oriented.side, i);
    else if (dtm)
        *dtm = dtm_game_end(l.over);
    if (mtc)
        *mtc = t ? t->mtc[l.oriented.side][i] : mtc_game_end(l.over);
    return 0;
}

int tableset_get_successors(struct tableset *ts, const struct material *m, char *err,
                            size_t err_size)
{
    struct material next[MAX_SUCCESSORS];
    int n = material_successors(ts->v, m, next, MAX_SUCCESSORS);
    for (int k = 0; k < n; k++)
        if (!tableset_get(ts, &next[k], err, err_size))
            return -1;
    return 0;
}
