/* Probing speed and table size: what an engine pays for a probe, and what the tables
 * cost on disk.
 *
 * On the tables `damero gen --variant V --pieces N --dir DIR` writes, times WDL probes on
 * one thread with every block cached (warm; also from the cache alone,
 * damero_probe_wdl_cached) and with no cache at all (cold: each probe
 * decompresses, from the OS page cache), DTM probes warm and probes under the move-limit
 * rules warm (damero_probe_rules, counts starting at the position), over random positions of
 * exactly N pieces drawn uniformly among all legal ones, and among the quiet ones (no
 * capture for the side to move: what a search mostly probes). Then prints, for every
 * variant with tables in DIR, their size in bits per position. The figures are markdown
 * table lines for bench/RESULTS.md.
 *
 * Usage: bench_probe [--dir DIR] [--variant V] [--pieces N] [--probes N] [--rules 1]
 *                    [--profile ROUNDS]
 *
 * --profile ROUNDS probes the quiet positions warm (WDL) ROUNDS times and prints nothing
 * else: the loop to run under `perf record`, without the other rows in the profile.
 *
 * --rules 1 adds the probes under the rules. They are left out by default: a probe under
 * the rules searches, and in some 4-piece endings (a long no-progress count that man
 * steps do not reset) the search outgrows its bound (damero.h, damero_probe_rules). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "format/index.h"
#include "format/tablefile.h"
#include "probe/damero.h"

#define SEED 0x5eed2026u /* fixed: every run probes the same positions */
/* Holds every block of the russian ≤5-piece tables decompressed (320 MB), with room
 * for the cache's shards filling unevenly. */
#define WARM_CACHE_BYTES ((size_t)1 << 30)
#define COLD_PROBES_MAX 200000 /* cold probes are ~10 times slower: a sample is enough */
#define MAX_MATERIALS 512
#define PATH_SIZE 4096

struct options {
    const char *dir, *variant;
    int pieces;
    size_t probes;
    bool rules;
    int profile_rounds; /* --profile: only warm quiet WDL probes, this many rounds */
};

/* The canonical materials of exactly N pieces, to draw positions from. */
struct pool {
    const struct variant *v;
    struct material_index ix[MAX_MATERIALS];
    uint64_t weight[MAX_MATERIALS];
    uint64_t total_weight;
    uint64_t legal;          /* positions, both sides to move and both colours */
    int n;
    int number[MAX_SQUARES]; /* bit -> public square number */
};

static uint64_t rng_state = SEED;

static uint64_t rng_next(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Below n; the modulo bias is below 1e-9 for any table size. */
static uint64_t rng_below(uint64_t n)
{
    return rng_next() % n;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_probe [--dir DIR] [--variant V] [--pieces N] [--probes N] "
                    "[--rules 1] "
                    "[--profile ROUNDS]\n");
    exit(2);
}

static struct options parse_options(int argc, char **argv)
{
    struct options o = { "tables", "russian", 5, 1000000, false, 0 };
    for (int k = 1; k < argc; k++) {
        if (k + 1 >= argc)
            usage();
        if (strcmp(argv[k], "--dir") == 0)
            o.dir = argv[++k];
        else if (strcmp(argv[k], "--variant") == 0)
            o.variant = argv[++k];
        else if (strcmp(argv[k], "--pieces") == 0)
            o.pieces = atoi(argv[++k]);
        else if (strcmp(argv[k], "--rules") == 0)
            o.rules = atoi(argv[++k]) != 0;
        else if (strcmp(argv[k], "--profile") == 0)
            o.profile_rounds = atoi(argv[++k]);
        else if (strcmp(argv[k], "--probes") == 0)
            o.probes = atol(argv[++k]) > 0 ? (size_t)atol(argv[k]) : 0;
        else
            usage();
    }
    if (o.pieces < 2 || o.pieces > MATERIAL_MAX_PIECES || o.probes == 0 ||
        !variant_by_name(o.variant))
        usage();
    return o;
}

/* The heading of a dated entry of bench/JOURNAL.md: the machine and the date. */
static void print_machine(void)
{
    char line[256], model[256] = "unknown processor", date[32];
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
            model[strcspn(model, "\n")] = '\0';
            break;
        }
    if (f)
        fclose(f);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    printf("### %s — %s, %ld cores, gcc %s\n\n", date, model, sysconf(_SC_NPROCESSORS_ONLN),
           __VERSION__);
}

static void table_path(const char *dir, const struct variant *v, const struct material *m,
                       enum table_metric metric, char path[PATH_SIZE])
{
    char name[MATERIAL_NAME_SIZE];
    material_name(m, name);
    snprintf(path, PATH_SIZE, "%s/%s/%s%s", dir, v->name, name, table_metric_suffix(metric));
}

/* Every probe of an N-piece position may lead to any smaller table (captures). */
static void require_tables(const struct options *o, const struct variant *v)
{
    struct material list[MAX_MATERIALS];
    char path[PATH_SIZE];
    for (int pieces = 2; pieces <= o->pieces; pieces++) {
        int n = material_list(v, pieces, list, MAX_MATERIALS);
        for (int k = 0; k < n; k++)
            for (int metric = METRIC_WDL; metric <= METRIC_MTC; metric++) {
                table_path(o->dir, v, &list[k], (enum table_metric)metric, path);
                if (access(path, R_OK) != 0) {
                    fprintf(stderr, "bench_probe: missing %s: run damero gen --variant %s "
                            "--pieces %d --dir %s\n", path, v->name, o->pieces, o->dir);
                    exit(1);
                }
            }
    }
}

/* A reduced material counts 4 slots (index, symmetry) per stored position, of which
 * the duplicate images are rejected when drawn: that makes every legal position
 * equally likely. A non-symmetric material stands for its colour flip too. */
static void pool_init(struct pool *pool, const struct variant *v, int pieces)
{
    struct material list[MAX_MATERIALS];
    pool->v = v;
    pool->n = material_list(v, pieces, list, MAX_MATERIALS);
    pool->total_weight = pool->legal = 0;
    for (int k = 0; k < pool->n; k++) {
        if (index_init(&pool->ix[k], v, &list[k]) < 0) {
            fprintf(stderr, "bench_probe: out of memory\n");
            exit(1);
        }
        pool->weight[k] = 2 * pool->ix[k].size * (pool->ix[k].reduced ? 4 : 1) *
                          (material_is_symmetric(&list[k]) ? 1 : 2);
        pool->total_weight += pool->weight[k];
        pool->legal += 2 * pool->ix[k].unreduced_size * (material_is_symmetric(&list[k]) ? 1 : 2);
    }
    for (int bit = 0; bit < MAX_SQUARES; bit++)
        pool->number[bit] = bb_of(bit) & v->board()->board ? square_number(v, bit) : 0;
}

static void pool_free(struct pool *pool)
{
    for (int k = 0; k < pool->n; k++)
        index_free(&pool->ix[k]);
}

/* One legal position of N pieces, uniformly; false when the draw is rejected. */
static bool draw_once(const struct pool *pool, struct position *p)
{
    uint64_t r = rng_below(pool->total_weight);
    int k = 0;
    while (r >= pool->weight[k])
        r -= pool->weight[k++];
    const struct material_index *ix = &pool->ix[k];
    index_position(ix, rng_below(ix->size), (enum side)rng_below(2), p);
    if (ix->reduced) {
        struct position members[NUM_SYMS];
        int count = index_class_members(ix, p, members);
        int pick = (int)rng_below(4);
        if (pick >= count)
            return false;
        *p = members[pick];
    }
    if (!material_is_symmetric(&ix->m) && rng_below(2)) {
        struct position flipped;
        position_flip_colours(pool->v, p, &flipped);
        *p = flipped;
    }
    return true;
}

static damero_position to_public(const struct pool *pool, const struct position *p)
{
    damero_position out = { .side_to_move = (int)p->side };
    int bit;
    for (int s = 0; s < 2; s++) {
        BB_FOR_EACH(bit, p->men[s])
            out.men[s] |= (uint64_t)1 << (pool->number[bit] - 1);
        BB_FOR_EACH(bit, p->kings[s])
            out.kings[s] |= (uint64_t)1 << (pool->number[bit] - 1);
    }
    return out;
}

/* n random positions, quiet ones only if asked; *drawn counts the legal positions
 * drawn on the way, to tell how many are quiet. */
static damero_position *draw_positions(const struct pool *pool, size_t n, bool quiet,
                                       uint64_t *drawn)
{
    damero_position *out = malloc(n * sizeof *out);
    struct position p;
    if (!out) {
        fprintf(stderr, "bench_probe: out of memory\n");
        exit(1);
    }
    *drawn = 0;
    for (size_t k = 0; k < n;) {
        if (!draw_once(pool, &p))
            continue;
        ++*drawn;
        if (!quiet || !has_capture(pool->v, &p))
            out[k++] = to_public(pool, &p);
    }
    return out;
}

static damero_tb *open_tables(const struct options *o, size_t cache_bytes)
{
    damero_tb *tb;
    if (damero_open(o->variant, o->dir, cache_bytes, &tb) != DAMERO_OK) {
        fprintf(stderr, "bench_probe: %s\n", damero_error_message());
        exit(1);
    }
    return tb;
}

enum probe_kind {
    PROBE_WDL,
    PROBE_DTM,
    PROBE_RULES, /* damero_probe_rules with the counts starting at the position */
    PROBE_WDL_MANY, /* damero_probe_wdl_many, MANY_AT_ONCE positions a call */
    PROBE_WDL_CACHED, /* damero_probe_wdl_cached: every block must be cached already */
};

/* Positions a call to damero_probe_wdl_many: about the children of a node in a search. */
#define MANY_AT_ONCE 16

static int probe_one(damero_tb *tb, const damero_position *pos, enum probe_kind kind)
{
    damero_value value;
    damero_rules_value rules;
    switch (kind) {
    case PROBE_WDL: return damero_probe_wdl(tb, pos, &value.wdl);
    case PROBE_DTM: return damero_probe(tb, pos, &value);
    case PROBE_RULES: return damero_probe_rules(tb, pos, NULL, 1, &rules);
    case PROBE_WDL_MANY: return damero_probe_wdl_many(tb, pos, 1, &value.wdl, NULL);
    case PROBE_WDL_CACHED: return damero_probe_wdl_cached(tb, pos, &value.wdl);
    }
    return DAMERO_ERR_ARGUMENT;
}

/* CPU seconds of the calling thread: on a machine shared with other jobs, wall time
 * counts their turns too. */
static double thread_cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Probes positions [k, k + count): one call to damero_probe_wdl_many for PROBE_WDL_MANY,
 * else one call each. */
static int probe_some(damero_tb *tb, const damero_position *pos, size_t count,
                      enum probe_kind kind)
{
    int wdl[MANY_AT_ONCE], status = DAMERO_OK;
    if (kind == PROBE_WDL_MANY)
        return damero_probe_wdl_many(tb, pos, count, wdl, NULL);
    for (size_t k = 0; k < count && status == DAMERO_OK; k++)
        status = probe_one(tb, &pos[k], kind);
    return status;
}

/* Seconds to probe every position once; its CPU seconds in *cpu. */
static double probe_all(damero_tb *tb, const damero_position *pos, size_t n,
                        enum probe_kind kind, double *cpu)
{
    double start = seconds_now(), cpu_start = thread_cpu_seconds();
    for (size_t k = 0; k < n; k += MANY_AT_ONCE) {
        int status = probe_some(tb, &pos[k], n - k < MANY_AT_ONCE ? n - k : MANY_AT_ONCE, kind);
        if (status != DAMERO_OK) {
            fprintf(stderr, "bench_probe: %s\n", damero_error_message());
            exit(1);
        }
    }
    *cpu = thread_cpu_seconds() - cpu_start;
    return seconds_now() - start;
}

/* One row: an untimed pass first (fills the cache, brings the files into the page
 * cache), then the timed one. */
static void measure(damero_tb *tb, const char *probe, const char *cache, const char *which,
                    const damero_position *pos, size_t n, enum probe_kind kind)
{
    double cpu;
    probe_all(tb, pos, n, kind, &cpu);
    double seconds = probe_all(tb, pos, n, kind, &cpu);
    printf("| %s | %s | %s | %zu | %.3f | %.3f | %.2f | %.3f | %.2f |\n", probe, cache, which, n,
           seconds, seconds / (double)n * 1e6, (double)n / seconds / 1e6, cpu / (double)n * 1e6,
           (double)n / cpu / 1e6);
    fflush(stdout);
}

static void print_speed_table(const struct options *o, const damero_position *all,
                              const damero_position *quiet)
{
    size_t cold = o->probes < COLD_PROBES_MAX ? o->probes : COLD_PROBES_MAX;
    char warm[32];
    snprintf(warm, sizeof warm, "warm, %zu MB", WARM_CACHE_BYTES >> 20);
    printf("| probe | cache | positions | probes | seconds | µs/probe | M probes/s "
           "| CPU µs/probe | M probes/CPU s |\n"
           "|---|---|---|---|---|---|---|---|---|\n");
    damero_tb *tb = open_tables(o, WARM_CACHE_BYTES);
    measure(tb, "WDL", warm, "all", all, o->probes, PROBE_WDL);
    measure(tb, "WDL", warm, "quiet", quiet, o->probes, PROBE_WDL);
    measure(tb, "WDL, 16 a call (damero_probe_wdl_many)", warm, "all", all, o->probes,
            PROBE_WDL_MANY);
    measure(tb, "WDL, 16 a call (damero_probe_wdl_many)", warm, "quiet", quiet, o->probes,
            PROBE_WDL_MANY);
    /* after the rows above, which cached every block the positions need */
    measure(tb, "WDL from the cache alone (damero_probe_wdl_cached)", warm, "all", all,
            o->probes, PROBE_WDL_CACHED);
    measure(tb, "WDL from the cache alone (damero_probe_wdl_cached)", warm, "quiet", quiet,
            o->probes, PROBE_WDL_CACHED);
    measure(tb, "DTM+MTC", warm, "all", all, o->probes, PROBE_DTM);
    measure(tb, "DTM+MTC", warm, "quiet", quiet, o->probes, PROBE_DTM);
    if (o->rules) {
        measure(tb, "under the rules", warm, "all", all, o->probes, PROBE_RULES);
        measure(tb, "under the rules", warm, "quiet", quiet, o->probes, PROBE_RULES);
    }
    damero_close(tb);
    tb = open_tables(o, 0);
    measure(tb, "WDL", "cold, 0 bytes", "quiet", quiet, cold, PROBE_WDL);
    measure(tb, "WDL", "cold, 0 bytes", "all", all, cold, PROBE_WDL);
    damero_close(tb);
}

/* --profile: the warm quiet WDL loop alone, for perf record. */
static void profile_warm_wdl(const struct options *o, const damero_position *quiet)
{
    double cpu;
    damero_tb *tb = open_tables(o, WARM_CACHE_BYTES);
    for (int round = 0; round <= o->profile_rounds; round++) /* round 0 fills the cache */
        probe_all(tb, quiet, o->probes, PROBE_WDL, &cpu);
    damero_close(tb);
}

static void bench_speed(const struct options *o)
{
    const struct variant *v = variant_by_name(o->variant);
    struct pool *pool = malloc(sizeof *pool);
    uint64_t drawn; /* legal positions drawn to find the quiet ones */
    if (!pool) {
        fprintf(stderr, "bench_probe: out of memory\n");
        exit(1);
    }
    require_tables(o, v);
    pool_init(pool, v, o->pieces);
    damero_position *all = draw_positions(pool, o->probes, false, &drawn);
    damero_position *quiet = draw_positions(pool, o->probes, true, &drawn);
    if (o->profile_rounds > 0) {
        profile_warm_wdl(o, quiet);
        exit(0);
    }
    printf("`bench_probe --dir %s --variant %s --pieces %d`: %d materials, %" PRIu64
           " legal positions (both sides to move, both colours), seed %#x; %.1f%% of them "
           "quiet. One thread.\n\n",
           o->dir, v->name, o->pieces, pool->n, pool->legal, SEED,
           100.0 * (double)o->probes / (double)drawn);
    print_speed_table(o, all, quiet);
    free(all);
    free(quiet);
    pool_free(pool);
    free(pool);
}

/* ---- size on disk ---- */

struct sizes {
    int materials, max_pieces, incomplete;
    uint64_t stored, legal;         /* positions */
    uint64_t bytes[METRIC_MTC + 1]; /* by metric */
};

/* Adds material m when all three of its files are there. */
static void add_material(const char *dir, const struct variant *v, const struct material *m,
                         struct sizes *s)
{
    char path[PATH_SIZE], err[PATH_SIZE + 256] = "out of memory";
    struct table_file_info info;
    struct stat st[METRIC_MTC + 1];
    for (int metric = METRIC_WDL; metric <= METRIC_MTC; metric++) {
        table_path(dir, v, m, (enum table_metric)metric, path);
        if (stat(path, &st[metric]) != 0) {
            s->incomplete += metric == METRIC_WDL ? 0 : 1; /* no WDL: not built at all */
            return;
        }
    }
    table_path(dir, v, m, METRIC_WDL, path);
    struct material_index ix;
    if (table_file_read_info(path, &info, err, sizeof err) != TABLE_OK ||
        index_init(&ix, v, m) < 0) {
        fprintf(stderr, "bench_probe: %s\n", err);
        exit(1);
    }
    for (int metric = METRIC_WDL; metric <= METRIC_MTC; metric++)
        s->bytes[metric] += (uint64_t)st[metric].st_size;
    s->stored += 2 * info.positions;
    s->legal += 2 * ix.unreduced_size * (material_is_symmetric(m) ? 1 : 2);
    s->materials++;
    if (material_pieces(m) > s->max_pieces)
        s->max_pieces = material_pieces(m);
    index_free(&ix);
}

static void print_sizes_row(const struct variant *v, const struct sizes *s)
{
    double mb[METRIC_MTC + 1], stored[METRIC_MTC + 1], legal[METRIC_MTC + 1];
    for (int metric = METRIC_WDL; metric <= METRIC_MTC; metric++) {
        mb[metric] = (double)s->bytes[metric] / 1e6;
        stored[metric] = 8.0 * (double)s->bytes[metric] / (double)s->stored;
        legal[metric] = 8.0 * (double)s->bytes[metric] / (double)s->legal;
    }
    printf("| %s | 2-%d | %d | %" PRIu64 " | %" PRIu64 " | %.2f / %.2f / %.2f "
           "| %.3f / %.3f / %.3f | %.3f / %.3f / %.3f |%s\n",
           v->name, s->max_pieces, s->materials, s->stored, s->legal, mb[METRIC_WDL],
           mb[METRIC_DTM], mb[METRIC_MTC], stored[METRIC_WDL], stored[METRIC_DTM],
           stored[METRIC_MTC], legal[METRIC_WDL], legal[METRIC_DTM], legal[METRIC_MTC],
           s->incomplete ? " (some materials lack a DTM or MTC file: left out)" : "");
}

static void bench_sizes(const char *dir)
{
    struct material list[MAX_MATERIALS];
    char path[PATH_SIZE];
    struct stat st;
    printf("\nSize on disk of the tables in %s. Stored: both sides to move of each file's "
           "index; legal: also the colour flips and the symmetric images of kings-only "
           "positions.\n\n"
           "| variant | pieces | materials | positions stored | positions legal "
           "| MB WDL / DTM / MTC | bits/position stored, WDL / DTM / MTC "
           "| bits/position legal, WDL / DTM / MTC |\n"
           "|---|---|---|---|---|---|---|---|\n", dir);
    for (const struct variant *v = variants; v->name; v++) {
        struct sizes s = { 0 };
        snprintf(path, sizeof path, "%s/%s", dir, v->name);
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        for (int pieces = 2; pieces <= MATERIAL_MAX_PIECES; pieces++) {
            int n = material_list(v, pieces, list, MAX_MATERIALS);
            for (int k = 0; k < n; k++)
                add_material(dir, v, &list[k], &s);
        }
        if (s.materials > 0)
            print_sizes_row(v, &s);
    }
}

int main(int argc, char **argv)
{
    struct options o = parse_options(argc, argv);
    print_machine();
    bench_speed(&o);
    bench_sizes(o.dir);
    return 0;
}
