#include "gen/level_file.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "store/table_io.h"

#define LEVEL_MAGIC "DAMEROLV"
/* 2: a WDL-only build keeps two bits a position; 3: the largest values again at the end
 * of the frame, under its checksum; 4: the MTC beside two bits (--metrics wdl+mtc) */
#define LEVEL_FILE_VERSION 4
#define LEVEL_COMPRESSION 1 /* the files live minutes: fast beats small */

struct level_header {
    char magic[8];
    uint32_t version, index_version;
    uint32_t material_code;
    int32_t rank;
    uint64_t positions; /* per side to move */
    uint32_t contents; /* enum level_contents */
    uint32_t max_dtm, max_mtc; /* the largest values, which decide the files' widths (the
                                * frame ends with them again: see largest_values) */
    char variant[32];
};

/* What a level holds for each side to move: its DTM, MTC and capture bytes; or, in a
 * build without DTM, its WDL in two bits (solve/solve.h), and its MTC where the build
 * writes MTC. */
enum level_contents { LEVEL_DTM_MTC = 0, LEVEL_WDL = 1, LEVEL_WDL_MTC = 2 };

static enum level_contents contents_of(const struct tableset *ts)
{
    if (!ts->wdl_only)
        return LEVEL_DTM_MTC;
    return ts->with_mtc ? LEVEL_WDL_MTC : LEVEL_WDL;
}

/* The values of one level, read back or held in memory; any pointer may be NULL to skip
 * those. A level without DTM has only wdl (two bits a position), and mtc where it is
 * built. */
struct level_values {
    dtm_t *dtm[2];
    mtc_t *mtc[2];
    uint8_t *captures[2];
    uint8_t *wdl[2];
};

/* One array of a level's values for one side, where it is in memory and its size. */
struct level_part {
    void *values;
    size_t bytes;
};

#define MOST_PARTS 3

/* The arrays of one side of a level of `positions` positions, in the order of its file:
 * those enum level_contents names. Writing, holding and reading a level all follow it.
 * Returns how many there are. */
static int level_parts(enum level_contents contents, const struct level_values *v, int side,
                       uint64_t positions, struct level_part out[MOST_PARTS])
{
    int n = 0;
    if (contents == LEVEL_DTM_MTC) {
        out[n++] = (struct level_part){ v->dtm[side], positions * sizeof(dtm_t) };
        out[n++] = (struct level_part){ v->mtc[side], positions * sizeof(mtc_t) };
        out[n++] = (struct level_part){ v->captures[side], positions };
        return n;
    }
    out[n++] = (struct level_part){ v->wdl[side], wdl_packed_bytes(positions) };
    if (contents == LEVEL_WDL_MTC)
        out[n++] = (struct level_part){ v->mtc[side], positions * sizeof(mtc_t) };
    return n;
}

/* The arrays of a level just solved, to be written or copied (never written to). */
static struct level_values finished_values(const struct finished_level *l)
{
    struct level_values v;
    for (int side = 0; side < 2; side++) {
        v.dtm[side] = (dtm_t *)l->dtm[side];
        v.mtc[side] = (mtc_t *)l->mtc[side];
        v.captures[side] = (uint8_t *)l->captures[side];
        v.wdl[side] = (uint8_t *)l->wdl[side];
    }
    return v;
}

/* A level held in memory: its header and copies of its values. */
struct held_level {
    bool present;
    struct level_header h;
    struct level_values v;
};

/* As in a level file (level_parts). */
static double held_bytes_per_position(enum level_contents contents)
{
    if (contents == LEVEL_DTM_MTC)
        return sizeof(dtm_t) + sizeof(mtc_t) + 1;
    return 0.25 + (contents == LEVEL_WDL_MTC ? sizeof(mtc_t) : 0);
}

double level_files_held_bytes(const struct tableset *ts, double positions)
{
    double bytes = 2 * positions * held_bytes_per_position(contents_of(ts));
    return ts->dir && bytes <= ts->levels_held_most ? bytes : 0;
}

/* The most levels a material of the set can have (as material_levels counts them). */
static int most_levels(const struct tableset *ts)
{
    return 2 * MATERIAL_MAX_PIECES * ts->v->board()->ranks + 1;
}

static void level_path(const struct tableset *ts, const struct material *m, int rank,
                       char *path, size_t size)
{
    char name[MATERIAL_NAME_SIZE];
    material_name(m, name);
    snprintf(path, size, "%s/%s.level%03d", ts->dir, name, rank);
}

bool is_level_temporary(const char *name)
{
    const char *tag = strstr(name, ".level");
    char *end;
    if (!tag || strncmp(tag + 9, ".tmp.", 5) != 0 || tag[14] == '\0')
        return false;
    strtol(tag + 14, &end, 10);
    return *end == '\0';
}

/* The header a level file of m must have (max_dtm and max_mtc aside). */
static struct level_header expected_header(const struct tableset *ts, const struct material *m,
                                           int rank, uint64_t positions)
{
    struct level_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, LEVEL_MAGIC, sizeof h.magic);
    h.version = LEVEL_FILE_VERSION;
    h.index_version = INDEX_VERSION;
    h.material_code = (uint32_t)material_code(m);
    h.rank = rank;
    h.positions = positions;
    h.contents = contents_of(ts);
    snprintf(h.variant, sizeof h.variant, "%s", ts->v->name);
    return h;
}

static bool same_level(const struct level_header *a, const struct level_header *b)
{
    struct level_header x = *a, y = *b;
    x.max_dtm = x.max_mtc = y.max_dtm = y.max_mtc = 0;
    return memcmp(&x, &y, sizeof x) == 0;
}

/* --- writing --------------------------------------------------------------------------- */

/* Compresses `bytes` bytes (the last piece of the frame when `last`) into f. */
static int compress_into(FILE *f, ZSTD_CCtx *cctx, const void *data, size_t bytes, bool last,
                         void *buffer, size_t buffer_size)
{
    ZSTD_inBuffer in = { data, bytes, 0 };
    ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
    size_t left;
    do {
        ZSTD_outBuffer out = { buffer, buffer_size, 0 };
        left = ZSTD_compressStream2(cctx, &out, &in, mode);
        if (ZSTD_isError(left) || fwrite(buffer, 1, out.pos, f) != out.pos)
            return -1;
    } while (last ? left != 0 : in.pos < in.size);
    return 0;
}

static uint32_t largest(const uint16_t *const values[2], uint64_t n)
{
    unsigned most = 0;
    for (int side = 0; side < 2 && values[side]; side++) {
#pragma omp parallel for schedule(static) reduction(max : most)
        for (uint64_t i = 0; i < n; i++)
            most = values[side][i] > most ? values[side][i] : most;
    }
    return most;
}

/* The header's largest values, which the frame ends with: a damaged header would
 * otherwise choose a table file's width unseen (too narrow a width cuts values). */
static void largest_values(const struct level_header *h, uint32_t out[2])
{
    out[0] = h->max_dtm;
    out[1] = h->max_mtc;
}

static int write_level_contents(FILE *f, const struct level_header *h,
                                const struct finished_level *l)
{
    uint32_t largest[2];
    largest_values(h, largest);
    size_t buffer_size = ZSTD_CStreamOutSize();
    void *buffer = malloc(buffer_size);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    int result = buffer && cctx && fwrite(h, sizeof *h, 1, f) == 1 ? 0 : -1;
    if (result == 0) {
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, LEVEL_COMPRESSION);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
        /* zstd without threads refuses this; it then compresses on this thread */
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, omp_get_max_threads());
    }
    struct level_values v = finished_values(l);
    for (int side = 0; side < 2 && result == 0; side++) {
        struct level_part parts[MOST_PARTS];
        int n = level_parts(h->contents, &v, side, l->positions, parts);
        for (int k = 0; k < n && result == 0; k++)
            result = compress_into(f, cctx, parts[k].values, parts[k].bytes, false, buffer,
                                   buffer_size);
    }
    if (result == 0)
        result = compress_into(f, cctx, largest, sizeof largest, true, buffer, buffer_size);
    if (result == 0 && (fflush(f) != 0 || fsync(fileno(f)) != 0))
        result = -1;
    ZSTD_freeCCtx(cctx);
    free(buffer);
    return result;
}

static void *copy_of(const void *data, size_t bytes)
{
    void *copy = malloc(bytes + 1);
    if (copy)
        memcpy(copy, data, bytes);
    return copy;
}

/* A copy of one array of a finished level, or NULL when the level has none (*whole
 * becomes false when memory runs out). */
static void *copy_part(const void *data, size_t bytes, bool *whole)
{
    void *copy = data ? copy_of(data, bytes) : NULL;
    *whole &= copy != NULL || !data;
    return copy;
}

/* Keeps copies of a finished level's values in files->held: the arrays it has. */
static int hold_level(struct level_files *files, const struct level_header *h,
                      const struct finished_level *l, char *err, size_t err_size)
{
    struct held_level *held = &files->held[l->rank];
    uint64_t n = l->positions;
    bool whole = true;
    held->h = *h;
    for (int side = 0; side < 2; side++) {
        held->v.dtm[side] = copy_part(l->dtm[side], n * sizeof(dtm_t), &whole);
        held->v.mtc[side] = copy_part(l->mtc[side], n * sizeof(mtc_t), &whole);
        held->v.captures[side] = copy_part(l->captures[side], n, &whole);
        held->v.wdl[side] = copy_part(l->wdl[side], wdl_packed_bytes(n), &whole);
    }
    held->present = whole;
    if (!whole) {
        char name[MATERIAL_NAME_SIZE];
        material_name(&files->m, name);
        snprintf(err, err_size, "out of memory holding the levels of %s", name);
    }
    return whole ? 0 : -1;
}

static int put_level(void *context, const struct finished_level *l, char *err, size_t err_size)
{
    struct level_files *files = context;
    char path[4096], tmp[4200];
    struct level_header h = expected_header(files->ts, &files->m, l->rank, l->positions);
    h.max_dtm = largest(l->dtm, l->positions);
    h.max_mtc = l->mtc[0] ? largest(l->mtc, l->positions) : 0;
    if (files->held)
        return hold_level(files, &h, l, err, err_size);
    level_path(files->ts, &files->m, l->rank, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = file_create_exclusive(tmp);
    if (!f) {
        snprintf(err, err_size, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    int result = write_level_contents(f, &h, l);
    int saved = errno;
    if (fclose(f) != 0)
        result = -1;
    if (result == 0 && rename(tmp, path) == 0 && file_sync_directory(path) == 0)
        return 0;
    snprintf(err, err_size, "cannot write %s: %s", path, strerror(result < 0 ? saved : errno));
    remove(tmp);
    return -1;
}

/* --- reading --------------------------------------------------------------------------- */

struct level_reader {
    FILE *f;
    ZSTD_DCtx *dctx;
    void *input;
    size_t input_size;
    ZSTD_inBuffer in;
    size_t last; /* what zstd said last: 0 once the frame has ended, checksum checked */
};

/* Opens a level file and checks its header against `want`; *h gets it. */
static int reader_open(struct level_reader *r, const char *path, const struct level_header *want,
                       struct level_header *h)
{
    memset(r, 0, sizeof *r);
    r->input_size = ZSTD_DStreamInSize();
    r->f = fopen(path, "rb");
    r->dctx = ZSTD_createDCtx();
    r->input = malloc(r->input_size);
    r->last = 1;
    if (!r->f || !r->dctx || !r->input || fread(h, sizeof *h, 1, r->f) != 1 ||
        !same_level(h, want))
        return -1;
    r->in = (ZSTD_inBuffer){ r->input, 0, 0 };
    return 0;
}

static void reader_close(struct level_reader *r)
{
    if (r->f)
        fclose(r->f);
    ZSTD_freeDCtx(r->dctx);
    free(r->input);
}

/* Decompresses the next `bytes` bytes into out (NULL: skips them). */
static int reader_read(struct level_reader *r, void *out, size_t bytes)
{
    static _Thread_local uint8_t scratch[1 << 16];
    while (bytes > 0) {
        size_t size = out ? bytes : (bytes < sizeof scratch ? bytes : sizeof scratch);
        ZSTD_outBuffer o = { out ? out : scratch, size, 0 };
        while (o.pos < o.size) {
            if (r->in.pos == r->in.size) {
                r->in.size = fread(r->input, 1, r->input_size, r->f);
                r->in.pos = 0;
                if (r->in.size == 0)
                    return -1; /* the file ends early */
            }
            r->last = ZSTD_decompressStream(r->dctx, &o, &r->in);
            if (ZSTD_isError(r->last))
                return -1;
        }
        bytes -= size;
        if (out)
            out = (uint8_t *)out + size;
    }
    return 0;
}

/* Whether the frame ends here, its checksum right, and the file with it. */
static bool reader_at_end(struct level_reader *r)
{
    uint8_t extra;
    while (r->last != 0) {
        ZSTD_outBuffer o = { &extra, 1, 0 };
        if (r->in.pos == r->in.size) {
            r->in.size = fread(r->input, 1, r->input_size, r->f);
            r->in.pos = 0;
            if (r->in.size == 0)
                return false;
        }
        r->last = ZSTD_decompressStream(r->dctx, &o, &r->in);
        if (ZSTD_isError(r->last) || o.pos != 0)
            return false;
    }
    return r->in.pos == r->in.size && fgetc(r->f) == EOF;
}

/* Reads the level file at path, whose header must be `want`, into v (NULL pointers skip
 * values). Returns 0 when the file is whole: the header wanted, with the largest values
 * the frame ends with, the frame's checksum right, nothing after it; else -1. */
static int read_level_file(const char *path, const struct level_header *want,
                           struct level_values *v)
{
    struct level_reader r;
    struct level_header h;
    int result = reader_open(&r, path, want, &h);
    for (int side = 0; side < 2 && result == 0; side++) {
        struct level_part parts[MOST_PARTS];
        int n = level_parts(want->contents, v, side, want->positions, parts);
        for (int k = 0; k < n && result == 0; k++)
            result = reader_read(&r, parts[k].values, parts[k].bytes);
    }
    uint32_t largest[2], in_header[2];
    if (result == 0) {
        largest_values(&h, in_header);
        result = reader_read(&r, largest, sizeof largest);
    }
    if (result == 0 && (memcmp(largest, in_header, sizeof largest) != 0 || !reader_at_end(&r)))
        result = -1;
    reader_close(&r);
    return result;
}

/* Reads the level file with the header `want` into v (NULL pointers skip values). */
static int read_level(const struct level_files *files, const struct level_header *want,
                      struct level_values *v, char *err, size_t err_size)
{
    char path[4096];
    level_path(files->ts, &files->m, want->rank, path, sizeof path);
    if (read_level_file(path, want, v) == 0)
        return 0;
    /* resuming checks every level file it trusts (has_level): the next build solves this
     * one again */
    snprintf(err, err_size, "the level file %s is damaged or from another build; build "
             "again", path);
    return -1;
}

/* The level held in memory with the header `want`, or NULL when it is not held whole. */
static const struct held_level *held_level(const struct level_files *files,
                                           const struct level_header *want)
{
    const struct held_level *held = &files->held[want->rank];
    return held->present && same_level(&held->h, want) ? held : NULL;
}

/* The values of level `rank` of files->m (`positions` per side): those held in memory,
 * or read from its file into *buffer. NULL, with a sentence in err, when it is missing
 * or damaged. */
static const struct level_values *level_values_of(const struct level_files *files, int rank,
                                                  uint64_t positions,
                                                  struct level_values *buffer, char *err,
                                                  size_t err_size)
{
    struct level_header want = expected_header(files->ts, &files->m, rank, positions);
    if (!files->held)
        return read_level(files, &want, buffer, err, err_size) == 0 ? buffer : NULL;
    const struct held_level *held = held_level(files, &want);
    if (!held) {
        char name[MATERIAL_NAME_SIZE];
        material_name(&files->m, name);
        snprintf(err, err_size, "level %d of %s was not kept; build again", rank, name);
    }
    return held ? &held->v : NULL;
}

/* The header of level `rank` of files->m (`positions` per side) where it is kept: held
 * whole, or a level file with the right header. Returns 0, or -1 when it is not. */
static int find_level(const struct level_files *files, int rank, uint64_t positions,
                      struct level_header *h)
{
    char path[4096];
    struct level_reader r;
    struct level_header want = expected_header(files->ts, &files->m, rank, positions);
    if (files->held) {
        const struct held_level *held = held_level(files, &want);
        if (held)
            *h = held->h;
        return held ? 0 : -1;
    }
    level_path(files->ts, &files->m, rank, path, sizeof path);
    int found = reader_open(&r, path, &want, h);
    reader_close(&r);
    return found;
}

/* Whether the level file with header h is whole, read through, its checksum checked:
 * a killed build's file is trusted only then. Says on stderr when it is damaged. */
static bool level_file_whole(const struct level_files *files, const struct level_header *h)
{
    char path[4096];
    struct level_values skipped = { 0 };
    level_path(files->ts, &files->m, h->rank, path, sizeof path);
    if (read_level_file(path, h, &skipped) == 0)
        return true;
    fprintf(stderr, "damero: the level file %s is damaged: solving its level again\n", path);
    return false;
}

/* A level file with another header (another build, an older format) is not this build's
 * level: it is solved again, and its file replaced. */
static bool has_level(void *context, int rank, uint64_t positions)
{
    struct level_files *files = context;
    struct level_header h;
    bool found = find_level(files, rank, positions, &h) == 0 &&
                 (files->held || level_file_whole(files, &h));
    files->found += found;
    return found;
}

static int read_level_values(void *context, int rank, uint64_t positions, dtm_t *dtm[2],
                             uint8_t *wdl[2], char *err, size_t err_size)
{
    const struct level_files *files = context;
    struct level_values v = { .dtm = { dtm ? dtm[0] : NULL, dtm ? dtm[1] : NULL },
                              .wdl = { wdl ? wdl[0] : NULL, wdl ? wdl[1] : NULL } };
    const struct level_values *kept = level_values_of(files, rank, positions, &v, err,
                                                      err_size);
    for (int side = 0; side < 2 && kept && kept != &v; side++) {
        if (dtm)
            memcpy(dtm[side], kept->dtm[side], positions * sizeof(dtm_t));
        if (wdl)
            memcpy(wdl[side], kept->wdl[side], wdl_packed_bytes(positions));
    }
    return kept ? 0 : -1;
}

int level_files_init(struct level_files *files, const struct tableset *ts,
                     const struct material *m, double positions, char *err,
                     size_t err_size)
{
    *files = (struct level_files){ .ts = ts, .m = *m };
    if (level_files_held_bytes(ts, positions) > 0 && !(files->held = calloc(most_levels(ts), sizeof *files->held))) {
        snprintf(err, err_size, "out of memory holding the levels of a material");
        return -1;
    }
    return 0;
}

void level_files_release(struct level_files *files)
{
    for (int rank = 0; files->held && rank < most_levels(files->ts); rank++)
        for (int side = 0; side < 2; side++) {
            free(files->held[rank].v.dtm[side]);
            free(files->held[rank].v.mtc[side]);
            free(files->held[rank].v.captures[side]);
            free(files->held[rank].v.wdl[side]);
        }
    free(files->held);
    files->held = NULL;
}

void level_files_store(struct level_files *files, struct level_store *store)
{
    *store = (struct level_store){ files, has_level, read_level_values, put_level };
}

void level_files_remove(const struct tableset *ts, const struct material *m)
{
    char path[4096];
    for (int rank = 0; rank < most_levels(ts); rank++) {
        level_path(ts, m, rank, path, sizeof path);
        remove(path);
    }
}

/* --- assembling ------------------------------------------------------------------------ */

/* One metric's values for the whole table, by index: 8 or 16 bits wide. */
struct metric_values {
    enum table_metric metric;
    unsigned bits;
    void *values[2];
};

static void set_value(struct metric_values *out, int side, uint64_t i, unsigned value)
{
    if (out->bits == 16)
        ((uint16_t *)out->values[side])[i] = (uint16_t)value;
    else
        ((uint8_t *)out->values[side])[i] = (uint8_t)value;
}

#define CAPTURE_FLAG 0x80 /* beside a WDL value while assembling: must capture here */

/* The value of one metric of a position of a level. */
static unsigned metric_value(const struct level_values *v, enum table_metric metric, int side,
                             uint64_t j)
{
    if (metric == METRIC_DTM)
        return v->dtm[side][j];
    if (metric == METRIC_MTC)
        return v->mtc[side][j];
    if (v->wdl[side])
        return wdl_packed_at(v->wdl[side], j);
    return dtm_wdl(v->dtm[side][j]) | (v->captures[side][j] ? CAPTURE_FLAG : 0);
}

/* Puts one level's values of the metric for one side at their indices. */
static void scatter(const struct material_levels *levels, int rank, const struct level_values *v,
                    int side, struct metric_values *out)
{
    const uint64_t *configs = levels->order + levels->start[rank];
    uint64_t num_configs = levels->start[rank + 1] - levels->start[rank], n = levels->per_config;
#pragma omp parallel for schedule(static)
    for (uint64_t k = 0; k < num_configs; k++)
        for (uint64_t j = 0; j < n; j++)
            set_value(out, side, configs[k] * n + j, metric_value(v, out->metric, side, k * n + j));
}

/* The WDL values where the side to move must capture become the value before (a
 * don't-care the prober resolves by playing the captures: long runs compress best); in
 * a WDL-only build, whose files later builds read, they stay exact. */
static void resolve_captures(const struct tableset *ts, uint8_t *wdl, uint64_t n)
{
    uint8_t previous = WDL_DRAW;
    for (uint64_t i = 0; i < n; i++) {
        if ((wdl[i] & CAPTURE_FLAG) && !ts->wdl_only)
            wdl[i] = previous;
        wdl[i] &= (uint8_t)~CAPTURE_FLAG;
        previous = wdl[i];
    }
}

struct assembly {
    const struct level_files *files;
    const struct tableset *ts;
    const struct table *t;
    struct material_levels levels;
    struct level_values level; /* the values of one level read from its file */
    unsigned max_dtm, max_mtc;
};

/* Reads every level and puts its values of the metric for one side in out. */
static int gather(struct assembly *a, int side, struct metric_values *out, char *err,
                  size_t err_size)
{
    for (int rank = 0; rank < a->levels.count; rank++) {
        uint64_t configs = a->levels.start[rank + 1] - a->levels.start[rank];
        if (configs == 0)
            continue;
        const struct level_values *v = level_values_of(
            a->files, rank, configs * a->levels.per_config, &a->level, err, err_size);
        if (!v)
            return -1;
        scatter(&a->levels, rank, v, side, out);
    }
    return 0;
}

/* One side's values of the metric (a table_side_filler): gathered from the levels, and
 * for WDL the captures resolved. */
struct side_filling {
    struct assembly *a;
    struct metric_values *out;
};

static int fill_side(void *context, int side, void *values, char *err, size_t err_size)
{
    struct side_filling *f = context;
    f->out->values[side] = values;
    if (gather(f->a, side, f->out, err, err_size) < 0)
        return -1;
    if (f->out->metric == METRIC_WDL)
        resolve_captures(f->a->ts, values, f->a->t->ix.size);
    return 0;
}

/* The largest DTM and MTC of the table, from the levels' headers. */
static int find_largest(struct assembly *a, char *err, size_t err_size)
{
    for (int rank = 0; rank < a->levels.count; rank++) {
        struct level_header h;
        uint64_t configs = a->levels.start[rank + 1] - a->levels.start[rank];
        if (configs == 0)
            continue;
        if (find_level(a->files, rank, configs * a->levels.per_config, &h) < 0) {
            char name[MATERIAL_NAME_SIZE];
            material_name(&a->t->m, name);
            snprintf(err, err_size, "level %d of %s is missing or from another build; "
                     "build again", rank, name);
            return -1;
        }
        a->max_dtm = h.max_dtm > a->max_dtm ? h.max_dtm : a->max_dtm;
        a->max_mtc = h.max_mtc > a->max_mtc ? h.max_mtc : a->max_mtc;
    }
    return 0;
}

/* Gathers and writes one metric's file, one side at a time (so that only one side's
 * values are held): values 8 bits wide when they fit (which halves what zstd works on),
 * 16 otherwise; WDL values are 8 bits in memory, 2 in the file. Each side reads every
 * level once. */
static int assemble_metric(struct assembly *a, enum table_metric metric, char *err,
                           size_t err_size)
{
    const struct tableset *ts = a->ts;
    uint64_t n = a->t->ix.size;
    unsigned most = metric == METRIC_DTM ? a->max_dtm : metric == METRIC_MTC ? a->max_mtc : 0;
    struct metric_values out = { metric, most > UINT8_MAX ? 16 : 8, { NULL, NULL } };
    struct side_filling filling = { a, &out };
    struct table_file_info info = table_file_identity(ts->v, &a->t->m, metric, n);
    char path[4096];
    void *buffer = malloc(n * (out.bits / 8) + 1);
    if (!buffer) {
        snprintf(err, err_size, "out of memory writing a table");
        return -1;
    }
    info.value_bits = metric == METRIC_WDL ? 2 : out.bits;
    info.flags = metric != METRIC_WDL ? 0
                 : ts->wdl_only       ? TABLE_FLAG_WDL_ONLY
                                      : TABLE_FLAG_CAPTURES_DONT_CARE;
    tableset_path(ts, &a->t->m, metric, path, sizeof path);
    int result = table_file_write_by_side(path, &info, buffer, fill_side, &filling, err,
                                          err_size);
    free(buffer);
    return result;
}

/* Room in v for the values of a level of `most` positions per side. Returns 0, or -1
 * when memory runs out (free what it has either way). */
static int allocate_level(enum level_contents contents, uint64_t most, struct level_values *v)
{
    bool failed = false;
    for (int side = 0; side < 2; side++) {
        if (contents == LEVEL_DTM_MTC) {
            failed |= !(v->dtm[side] = malloc(most * sizeof(dtm_t) + 1));
            failed |= !(v->captures[side] = malloc(most + 1));
        } else {
            failed |= !(v->wdl[side] = malloc(wdl_packed_bytes(most) + 1));
        }
        if (contents != LEVEL_WDL)
            failed |= !(v->mtc[side] = malloc(most * sizeof(mtc_t) + 1));
    }
    return failed ? -1 : 0;
}

int level_files_assemble(const struct level_files *files, const struct table *t, char *err,
                         size_t err_size)
{
    const struct tableset *ts = files->ts;
    struct assembly a = { .files = files, .ts = ts, .t = t };
    int result = material_levels(&t->ix, &a.levels);
    /* room to read one level's file; held levels are read where they are */
    uint64_t most = result == 0 && !files->held ? material_levels_largest(&a.levels) : 0;
    if (result == 0)
        result = allocate_level(contents_of(ts), most, &a.level);
    if (result < 0)
        snprintf(err, err_size, "out of memory writing a table");
    if (result == 0)
        result = find_largest(&a, err, err_size);
    for (enum table_metric metric = METRIC_WDL; metric <= METRIC_MTC && result == 0; metric++)
        if (tableset_builds(ts, metric))
            result = assemble_metric(&a, metric, err, err_size);
    for (int side = 0; side < 2; side++) {
        free(a.level.dtm[side]);
        free(a.level.mtc[side]);
        free(a.level.captures[side]);
        free(a.level.wdl[side]);
    }
    material_levels_free(&a.levels);
    return result;
}
