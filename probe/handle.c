/* The handle: a folder of tables opened, its tables listed (each file opened and checked
 * on first use, or all at once by damero_check), the zstd contexts its threads share,
 * and the errors every call of the library leaves for damero_error_message. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/array.h"
#include "probe/cache.h"
#include "probe/internal.h"

_Static_assert(DAMERO_MAX_CACHE_BYTES == BLOCK_CACHE_MAX_BYTES, "the public bound is the cache's");

static _Thread_local char last_error[3 * PATH_SIZE];

/* ---- listing the folder ---- */

static enum table_metric metric_of_suffix(const char *name, size_t *base_length)
{
    size_t n = strlen(name);
    for (int metric = METRIC_WDL; metric <= METRIC_LAST; metric++) {
        const char *suffix = table_metric_suffix((enum table_metric)metric);
        size_t k = strlen(suffix);
        if (n > k && strcmp(name + n - k, suffix) == 0) {
            *base_length = n - k;
            return (enum table_metric)metric;
        }
    }
    return 0;
}

static struct tb_table *table_for(damero_tb *tb, const struct material *m)
{
    struct tb_table **slot = &tb->by_code[material_code(m)];
    if (!*slot && (*slot = calloc(1, sizeof **slot))) {
        (*slot)->m = *m;
        if (pthread_mutex_init(&(*slot)->lock, NULL) != 0) {
            free(*slot);
            *slot = NULL;
        }
    }
    return *slot;
}

/* Notes one file of the directory if its name is a table's; other files are skipped.
 * Nothing is read: the file is opened when a probe first needs it. */
static int list_file(damero_tb *tb, const char *name)
{
    char material[MATERIAL_NAME_SIZE + 1], err[256];
    size_t base = 0;
    enum table_metric metric = metric_of_suffix(name, &base);
    struct material m;
    if (!metric || base > MATERIAL_NAME_SIZE)
        return DAMERO_OK;
    memcpy(material, name, base);
    material[base] = '\0';
    if (material_parse(tb->v, material, &m, err, sizeof err) < 0 || !material_is_canonical(&m))
        return DAMERO_OK;
    struct tb_table *t = table_for(tb, &m);
    if (!t)
        return probe_fail(DAMERO_ERR_MEMORY, "out of memory opening %s/%s", tb->dir, name);
    atomic_init(&t->file[metric - 1].state, FILE_LISTED);
    tb->num_files++;
    if (metric == METRIC_WDL && material_pieces(&m) > tb->max_pieces)
        tb->max_pieces = material_pieces(&m);
    return DAMERO_OK;
}

static int list_directory(damero_tb *tb)
{
    DIR *d = opendir(tb->dir);
    struct dirent *e;
    int status = DAMERO_OK;
    if (!d && errno == ENOENT)
        return DAMERO_OK; /* no tables of this variant yet: every probe says so */
    if (!d)
        return probe_fail(DAMERO_ERR_IO, "cannot read the table folder %s: %s", tb->dir,
                          strerror(errno));
    while (status == DAMERO_OK && (e = readdir(d)))
        status = list_file(tb, e->d_name);
    closedir(d);
    if (status == DAMERO_OK && block_cache_reserve_files(tb->cache, tb->num_files) < 0)
        status = probe_fail(DAMERO_ERR_MEMORY, "out of memory opening %s", tb->dir);
    return status;
}

/* ---- opening a file ---- */

static void table_file_path(const damero_tb *tb, const struct tb_table *t,
                            enum table_metric metric, char path[2 * PATH_SIZE])
{
    char name[MATERIAL_NAME_SIZE];
    material_name(&t->m, name);
    snprintf(path, 2 * PATH_SIZE, "%s/%s%s", tb->dir, name, table_metric_suffix(metric));
}

static struct file_stamp file_stamp_of(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return (struct file_stamp){ .present = false };
    return (struct file_stamp){ true, st.st_dev, st.st_ino, (uint64_t)st.st_size,
                                st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ctim.tv_sec,
                                st.st_ctim.tv_nsec };
}

static bool stamps_equal(const struct file_stamp *a, const struct file_stamp *b)
{
    return a->present == b->present && a->device == b->device && a->inode == b->inode &&
           a->size == b->size && a->modified_s == b->modified_s &&
           a->modified_ns == b->modified_ns && a->changed_s == b->changed_s &&
           a->changed_ns == b->changed_ns;
}

/* Forgets why f failed: the next probe that needs it opens it again. Under t->lock. */
static void forget_failure(struct tb_file *f)
{
    free(f->message);
    f->message = NULL;
    atomic_store_explicit(&f->state, FILE_LISTED, memory_order_relaxed);
}

/* The file of t for `metric` at path, opened and checked: the header must name this
 * variant's material before the material's index is built (a kings-only material's index
 * takes long to build, wasted on an empty or foreign file), then the file's size must
 * match the index. Called under t->lock. Returns a table status, with a sentence in err. */
static int map_table_file(damero_tb *tb, struct tb_table *t, enum table_metric metric,
                          const char *path, char *err, size_t err_size)
{
    struct tb_file *f = &t->file[metric - 1];
    char name[MATERIAL_NAME_SIZE];
    material_name(&t->m, name);
    int status = table_map_open(path, &f->map, err, err_size);
    if (status != TABLE_OK)
        return status;
    struct table_file_info want = table_file_identity(tb->v, &t->m, metric, f->map.info.positions);
    status = table_file_check_identity(path, &f->map.info, &want, err, err_size);
    if (status == TABLE_OK && !t->indexed) {
        if (index_init(&t->ix, tb->v, &t->m) < 0) {
            snprintf(err, err_size, "out of memory indexing %s", name);
            status = TABLE_ERR_MEMORY;
        }
        t->indexed = status == TABLE_OK;
    }
    if (status == TABLE_OK) {
        want.positions = t->ix.size;
        status = table_file_check_identity(path, &f->map.info, &want, err, err_size);
    }
    if (status == TABLE_OK) {
        pthread_mutex_lock(&tb->cache_lock);
        int64_t number = block_cache_add_file(tb->cache, f->map.num_blocks);
        pthread_mutex_unlock(&tb->cache_lock);
        if (number < 0) {
            snprintf(err, err_size, "out of memory opening %s", path);
            status = TABLE_ERR_MEMORY;
        }
        f->cache_file = (uint32_t)number;
    }
    if (status == TABLE_OK && (metric == METRIC_RULES0 || metric == METRIC_RULES1) &&
        !(f->same_as_dtm = calloc(f->map.num_blocks, sizeof *f->same_as_dtm))) {
        snprintf(err, err_size, "out of memory opening %s", path);
        status = TABLE_ERR_MEMORY;
    }
    if (status != TABLE_OK)
        table_map_close(&f->map);
    return status;
}

/* ---- checking every file ---- */

/* Every block of an open file decompressed, which checks its checksum. */
static int check_blocks(damero_tb *tb, const struct tb_file *f, char *err, size_t err_size)
{
    uint8_t *raw = malloc(TABLE_MAX_BLOCK_BYTES);
    ZSTD_DCtx *dctx = probe_take_dctx(tb);
    int status = raw && dctx ? TABLE_OK : TABLE_ERR_MEMORY;
    if (status == TABLE_ERR_MEMORY)
        snprintf(err, err_size, "out of memory checking %s", tb->dir);
    for (uint64_t b = 0; b < f->map.num_blocks && status == TABLE_OK; b++)
        status = table_map_block(&f->map, dctx, b, raw, err, err_size);
    if (dctx)
        probe_give_dctx(tb, dctx);
    free(raw);
    return status;
}

/* One listed file checked: opened (if no probe has yet) and read through. */
static int check_file(damero_tb *tb, struct tb_table *t, enum table_metric metric,
                      damero_problem_fn report, void *context)
{
    char name[MATERIAL_NAME_SIZE + 8], err[2 * PATH_SIZE + 256];
    material_name(&t->m, name);
    strcat(name, table_metric_suffix(metric));
    int status = probe_use_file(tb, t, metric);
    if (status == DAMERO_OK) {
        int table_status = check_blocks(tb, &t->file[metric - 1], err, sizeof err);
        if (table_status == TABLE_ERR_MEMORY)
            return probe_fail(DAMERO_ERR_MEMORY, "%s", err);
        if (table_status != TABLE_OK)
            status = probe_fail(probe_status_of(table_status), "%s/%s", tb->dir, err);
    }
    if (status != DAMERO_OK && report)
        report(context, name, status, damero_error_message());
    return status;
}

/* ---- closing ---- */

static void free_table(struct tb_table *t)
{
    for (int k = 0; k < NUM_METRICS; k++) {
        if (atomic_load(&t->file[k].state) == FILE_OPEN)
            table_map_close(&t->file[k].map);
        free(t->file[k].message);
        free((void *)t->file[k].same_as_dtm);
    }
    if (t->indexed)
        index_free(&t->ix);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* ---- exported ---- */

int probe_fail(int status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last_error, sizeof last_error, format, args);
    va_end(args);
    return status;
}

const char *damero_error_message(void)
{
    return last_error;
}

int probe_status_of(int table_status)
{
    switch (table_status) {
    case TABLE_ERR_IO: return DAMERO_ERR_IO;
    case TABLE_ERR_FORMAT: return DAMERO_ERR_FORMAT;
    case TABLE_ERR_TRUNCATED: return DAMERO_ERR_TRUNCATED;
    case TABLE_ERR_VERSION: return DAMERO_ERR_VERSION;
    case TABLE_ERR_CORRUPT: return DAMERO_ERR_CORRUPT;
    case TABLE_ERR_MEMORY: return DAMERO_ERR_MEMORY;
    case TABLE_ERR_VARIANT: return DAMERO_ERR_VARIANT;
    }
    return DAMERO_OK;
}

ZSTD_DCtx *probe_take_dctx(damero_tb *tb)
{
    ZSTD_DCtx *d = NULL;
    pthread_mutex_lock(&tb->dctx_lock);
    if (tb->dctx_free > 0)
        d = tb->dctx_pool[--tb->dctx_free];
    pthread_mutex_unlock(&tb->dctx_lock);
    return d ? d : ZSTD_createDCtx();
}

void probe_give_dctx(damero_tb *tb, ZSTD_DCtx *d)
{
    pthread_mutex_lock(&tb->dctx_lock);
    /* when there is no room to keep it, the context is freed */
    if (array_reserve(&tb->dctx_pool, &tb->dctx_capacity, tb->dctx_free + 1,
                      sizeof *tb->dctx_pool) == 0) {
        tb->dctx_pool[tb->dctx_free++] = d;
        d = NULL;
    }
    pthread_mutex_unlock(&tb->dctx_lock);
    ZSTD_freeDCtx(d);
}

int probe_open_file(damero_tb *tb, struct tb_table *t, enum table_metric metric)
{
    struct tb_file *f = &t->file[metric - 1];
    char err[2 * PATH_SIZE + 256], path[2 * PATH_SIZE];
    int status = DAMERO_OK;
    table_file_path(tb, t, metric, path);
    /* stamped before it is tried: a file replaced while it was being tried differs from
     * the stamp, and is tried again */
    struct file_stamp now = file_stamp_of(path);
    pthread_mutex_lock(&t->lock);
    if (atomic_load_explicit(&f->state, memory_order_relaxed) == FILE_FAILED &&
        !stamps_equal(&f->failed_as, &now))
        forget_failure(f);
    if (atomic_load_explicit(&f->state, memory_order_relaxed) == FILE_LISTED) {
        int table_status = map_table_file(tb, t, metric, path, err, sizeof err);
        if (table_status == TABLE_ERR_MEMORY) {
            pthread_mutex_unlock(&t->lock);
            return probe_fail(DAMERO_ERR_MEMORY, "%s", err);
        }
        if (table_status != TABLE_OK) {
            f->status = probe_status_of(table_status);
            f->message = strdup(err);
            f->failed_as = now;
        }
        atomic_store_explicit(&f->state, table_status == TABLE_OK ? FILE_OPEN : FILE_FAILED,
                              memory_order_release);
    }
    /* the sentence copied under the lock: damero_forget_failures may free it after */
    if (atomic_load_explicit(&f->state, memory_order_relaxed) == FILE_FAILED)
        status = probe_fail(f->status, "%s", f->message ? f->message : "out of memory");
    pthread_mutex_unlock(&t->lock);
    return status;
}

int damero_forget_failures(damero_tb *tb)
{
    int forgotten = 0;
    for (int c = 0; tb && c < MATERIAL_CODES; c++) {
        struct tb_table *t = tb->by_code[c];
        if (!t)
            continue;
        pthread_mutex_lock(&t->lock);
        for (int k = 0; k < NUM_METRICS; k++)
            if (atomic_load_explicit(&t->file[k].state, memory_order_relaxed) == FILE_FAILED) {
                forget_failure(&t->file[k]);
                forgotten++;
            }
        pthread_mutex_unlock(&t->lock);
    }
    return forgotten;
}

const struct rule_row *probe_rule_row(const damero_tb *tb, int reading)
{
    return tb && tb->rows_ready && (reading == 1 || reading == 2) ? &tb->rows[reading - 1]
                                                                  : NULL;
}

int damero_open(const char *variant, const char *dir, size_t cache_bytes, damero_tb **out)
{
    if (!out)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_open: no place for the handle");
    *out = NULL;
    if (!variant || !dir)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_open: the variant and directory are needed");
    const struct variant *v = variant_by_name(variant);
    if (!v)
        return probe_fail(DAMERO_ERR_VARIANT, "unknown variant '%s'", variant);
    if (cache_bytes > DAMERO_MAX_CACHE_BYTES)
        return probe_fail(DAMERO_ERR_ARGUMENT, "a cache of %zu bytes is more than damero can "
                          "use (DAMERO_MAX_CACHE_BYTES, 1 TiB): ask for less", cache_bytes);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return probe_fail(DAMERO_ERR_IO, "%s is not a directory of tables", dir);
    damero_tb *tb = calloc(1, sizeof *tb);
    bool failed = false;
    if (!tb || pthread_mutex_init(&tb->dctx_lock, NULL) != 0) {
        free(tb);
        return probe_fail(DAMERO_ERR_MEMORY, "out of memory opening the tables");
    }
    if (pthread_mutex_init(&tb->cache_lock, NULL) != 0) {
        pthread_mutex_destroy(&tb->dctx_lock);
        free(tb);
        return probe_fail(DAMERO_ERR_MEMORY, "out of memory opening the tables");
    }
    tb->v = v;
    snprintf(tb->root, sizeof tb->root, "%s", dir);
    snprintf(tb->dir, sizeof tb->dir, "%s/%s", dir, v->name);
    probe_number_squares(tb);
    tb->rows_ready = rule_row_init(&tb->rows[0], tb->v, 0) == 0 &&
                     rule_row_init(&tb->rows[1], tb->v, 1) == 0;
    tb->cache = block_cache_create(cache_bytes, &failed);
    int status = failed ? probe_fail(DAMERO_ERR_MEMORY, "out of memory for a cache of %zu "
                                     "bytes", cache_bytes)
                        : list_directory(tb);
    if (status != DAMERO_OK) {
        damero_close(tb);
        return status;
    }
    *out = tb;
    return DAMERO_OK;
}

int damero_check(damero_tb *tb, damero_problem_fn report, void *context, int *files)
{
    int first = DAMERO_OK, checked = 0;
    char first_message[sizeof last_error] = "";
    if (!tb)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_check: a NULL argument");
    for (int c = 0; c < MATERIAL_CODES; c++) {
        struct tb_table *t = tb->by_code[c];
        for (int metric = METRIC_WDL; t && metric <= METRIC_LAST; metric++) {
            if (atomic_load(&t->file[metric - 1].state) == FILE_ABSENT)
                continue;
            int status = check_file(tb, t, (enum table_metric)metric, report, context);
            checked++;
            if (status == DAMERO_ERR_MEMORY)
                return status;
            if (status != DAMERO_OK && first == DAMERO_OK) {
                first = status;
                snprintf(first_message, sizeof first_message, "%s", damero_error_message());
            }
        }
    }
    if (files)
        *files = checked;
    return first == DAMERO_OK ? DAMERO_OK : probe_fail(first, "%s", first_message);
}

void damero_close(damero_tb *tb)
{
    if (!tb)
        return;
    for (int c = 0; c < MATERIAL_CODES; c++)
        if (tb->by_code[c])
            free_table(tb->by_code[c]);
    block_cache_free(tb->cache);
    for (size_t i = 0; i < tb->dctx_free; i++)
        ZSTD_freeDCtx(tb->dctx_pool[i]);
    free(tb->dctx_pool);
    pthread_mutex_destroy(&tb->cache_lock);
    pthread_mutex_destroy(&tb->dctx_lock);
    free(tb);
}

const char *damero_variant(const damero_tb *tb)
{
    return tb ? tb->v->name : "";
}

int damero_max_pieces(const damero_tb *tb)
{
    return tb ? tb->max_pieces : 0;
}
