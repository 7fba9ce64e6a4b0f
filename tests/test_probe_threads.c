/* The probing library under threads: many threads probing one handle at once, with a
 * block cache far smaller than the tables (so that blocks are evicted and read again all
 * the time while the threads race), get exactly the answers one thread gets alone, and so
 * do a handle without a cache, one whose cache holds a few blocks only (evicted while
 * other threads read them), and a fresh handle whose files the threads open as they first
 * need them; WDL probed a batch at a time (damero_probe_wdl_many) gives the same too, and
 * so does the probe from the cache alone (damero_probe_wdl_cached) wherever it answers.
 * The handle's statistics, counted by every thread at once, lose no count: without a
 * cache, the threads' lookups and blocks read are exactly the sum of what each job counts
 * alone. `./run.sh tsan` runs this test under ThreadSanitizer. */
#define _XOPEN_SOURCE 700 /* nftw, in file_util.h */
#include "tests/file_util.h"
#include "tests/probe_util.h"

#include <pthread.h>
#include <time.h>

#include "format/index.h"
#include "tests/random_position.h"

/* ThreadSanitizer makes everything 5 to 10 times slower, and the tables are built on one
 * thread under it (see tests/CMakeLists.txt): 3 pieces then, still three times the cache. */
#ifdef __SANITIZE_THREAD__
#define PIECES 3
#define NUM_POSITIONS 50000
#define SMALL_CACHE (128 << 10) /* one shard; 3-piece tables: about 400 KB decompressed */
#else
#define PIECES 4
#define NUM_POSITIONS 200000
#define SMALL_CACHE (256 << 10) /* one shard; 4-piece tables: over 10 MB decompressed */
#endif
#define NUM_THREADS 4
/* A cache of a few blocks (pages of 2 KB, a DTM or MTC block takes 16): nearly every
 * probe evicts a block that other threads are reading. */
#define TINY_CACHE (100 << 10)

static int setup(void **state) { return temp_dir_setup(state, "probe-threads"); }

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* n random positions, each a random index of a random material with a random side to
 * move, half of them colour-flipped (a material the library looks up through the flip).
 * Like an engine's probes, most come from a few hot spots (HOT_SPOTS ranges of a block's
 * worth of indices, a side to move each), which nearly fill the cache; the rest come from
 * anywhere and keep evicting them. So the threads meet on the same blocks, hit, miss,
 * insert and evict all at once. */
#define HOT_SPOTS 2
#define HOT_SPAN 32768 /* the values of a DTM or MTC block */

static damero_position *random_positions(const struct variant *v,
                                         const struct material *materials, int n_materials,
                                         int n)
{
    struct material_index *ix = calloc((size_t)n_materials, sizeof *ix);
    damero_position *out = malloc((size_t)n * sizeof *out);
    uint64_t state = 0x9E3779B97F4A7C15ull;
    struct {
        int k;
        enum side side;
        uint64_t first, count;
    } hot[HOT_SPOTS];
    assert_non_null(ix);
    assert_non_null(out);
    for (int k = 0; k < n_materials; k++)
        assert_int_equal(index_init(&ix[k], v, &materials[k]), 0);
    for (int h = 0; h < HOT_SPOTS; h++) {
        int k;
        do /* a material of the most pieces: the others may be tiny */
            k = (int)(random_next(&state) % (uint64_t)n_materials);
        while (material_pieces(&materials[k]) < PIECES);
        uint64_t spans = (ix[k].size + HOT_SPAN - 1) / HOT_SPAN;
        hot[h].k = k;
        hot[h].side = (enum side)(random_next(&state) & 1);
        hot[h].first = random_next(&state) % spans * HOT_SPAN;
        hot[h].count = ix[k].size - hot[h].first < HOT_SPAN ? ix[k].size - hot[h].first
                                                            : HOT_SPAN;
    }
    for (int i = 0; i < n; i++) {
        struct position p, twin;
        uint64_t r = random_next(&state);
        if (r % 16 != 0) {
            int h = (int)(r / 16 % HOT_SPOTS);
            index_position(&ix[hot[h].k], hot[h].first + random_next(&state) % hot[h].count,
                           hot[h].side, &p);
        } else {
            const struct material_index *x = &ix[r / 16 % (uint64_t)n_materials];
            index_position(x, random_next(&state) % x->size,
                           (enum side)(random_next(&state) & 1), &p);
        }
        if (random_next(&state) & 1) {
            position_flip_colours(v, &p, &twin);
            p = twin;
        }
        out[i] = public_position(v, &p);
    }
    for (int k = 0; k < n_materials; k++)
        index_free(&ix[k]);
    free(ix);
    return out;
}

struct answer {
    int wdl_status, wdl;
    int status;
    damero_value value;
};

struct job {
    damero_tb *tb;
    const damero_position *positions;
    int n;
    unsigned seed;                /* 0: in order; else a shuffled order from this seed */
    bool many;                    /* also probe WDL with damero_probe_wdl_many */
    pthread_barrier_t *start;     /* NULL: no waiting */
    struct answer *answers;       /* by position, whatever the order of probing */
};

/* The WDL probes again, MANY_AT_ONCE positions a call to damero_probe_wdl_many, in the
 * job's order; an answer that differs from the one probed alone is marked so that the
 * comparison fails (wdl_status -1). */
#define MANY_AT_ONCE 7
static void probe_many(struct job *job, const int *order)
{
    for (int k = 0; k < job->n; k += MANY_AT_ONCE) {
        int count = job->n - k < MANY_AT_ONCE ? job->n - k : MANY_AT_ONCE;
        damero_position batch[MANY_AT_ONCE];
        int wdl[MANY_AT_ONCE], statuses[MANY_AT_ONCE];
        for (int b = 0; b < count; b++)
            batch[b] = job->positions[order[k + b]];
        damero_probe_wdl_many(job->tb, batch, (size_t)count, wdl, statuses);
        for (int b = 0; b < count; b++) {
            struct answer *a = &job->answers[order[k + b]];
            if (statuses[b] != a->wdl_status || (statuses[b] == DAMERO_OK && wdl[b] != a->wdl))
                a->wdl_status = -1;
        }
    }
}

static void *probe_all(void *arg)
{
    struct job *job = arg;
    int *order = malloc((size_t)job->n * sizeof *order);
    if (!order)
        return "out of memory";
    for (int i = 0; i < job->n; i++)
        order[i] = i;
    if (job->seed) {
        uint64_t state = 0x2545F4914F6CDD1Dull * job->seed;
        for (int i = job->n - 1; i > 0; i--) {
            int j = (int)(random_next(&state) % (uint64_t)(i + 1));
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
    if (job->start)
        pthread_barrier_wait(job->start);
    for (int k = 0; k < job->n; k++) {
        int i = order[k];
        struct answer *a = &job->answers[i];
        memset(a, 0, sizeof *a);
        a->wdl_status = damero_probe_wdl(job->tb, &job->positions[i], &a->wdl);
        a->status = damero_probe(job->tb, &job->positions[i], &a->value);
        int cached, status = damero_probe_wdl_cached(job->tb, &job->positions[i], &cached);
        if (status != DAMERO_NOT_CACHED &&
            (status != a->wdl_status || (status == DAMERO_OK && cached != a->wdl)))
            a->wdl_status = -1; /* the comparison fails */
    }
    if (job->many)
        probe_many(job, order);
    free(order);
    return NULL;
}

static void assert_same_answers(const damero_tb *tb, const damero_position *positions,
                                const struct answer *want, const struct answer *got, int n,
                                const char *who)
{
    for (int i = 0; i < n; i++) {
        const struct answer *a = &want[i], *b = &got[i];
        if (a->wdl_status != b->wdl_status || a->status != b->status || a->wdl != b->wdl ||
            a->value.wdl != b->value.wdl || a->value.dtm != b->value.dtm ||
            a->value.mtc != b->value.mtc) {
            char fen[DAMERO_FEN_SIZE] = "?";
            damero_write_fen(tb, &positions[i], fen);
            fail_msg("%s, position %d (%s): wdl %d (status %d), value %d/%d/%d (status %d); "
                     "alone: wdl %d (status %d), value %d/%d/%d (status %d)",
                     who, i, fen, b->wdl, b->wdl_status, b->value.wdl, b->value.dtm,
                     b->value.mtc, b->status, a->wdl, a->wdl_status, a->value.wdl,
                     a->value.dtm, a->value.mtc, a->status);
        }
    }
}

/* Probes every position from NUM_THREADS threads at once, each in its own order, and
 * compares each thread's answers with `want`. Thread t runs job (t, t % 2 == 1): the
 * thread's order, damero_probe_wdl_many in odd threads. */
static void probe_in_threads(damero_tb *tb,
                             const damero_position *positions, int n,
                             const struct answer *want, const char *handle)
{
    pthread_t threads[NUM_THREADS];
    struct job jobs[NUM_THREADS];
    pthread_barrier_t start;
    char who[128];
    assert_int_equal(pthread_barrier_init(&start, NULL, NUM_THREADS), 0);
    for (int t = 0; t < NUM_THREADS; t++) {
        jobs[t] = (struct job){ tb, positions, n, (unsigned)t, t % 2 == 1, &start,
                                malloc((size_t)n * sizeof(struct answer)) };
        assert_non_null(jobs[t].answers);
        assert_int_equal(pthread_create(&threads[t], NULL, probe_all, &jobs[t]), 0);
    }
    for (int t = 0; t < NUM_THREADS; t++) {
        void *result;
        assert_int_equal(pthread_join(threads[t], &result), 0);
        if (result)
            fail_msg("thread %d: %s", t, (const char *)result);
    }
    pthread_barrier_destroy(&start);
    for (int t = 0; t < NUM_THREADS; t++) {
        snprintf(who, sizeof who, "%s, thread %d of %d", handle, t, NUM_THREADS);
        assert_same_answers(tb, positions, want, jobs[t].answers, n, who);
        free(jobs[t].answers);
    }
}

/* Without a cache, what a job counts does not depend on what other threads do (every
 * lookup misses and reads its block): the counts of the threads at once (probe_in_threads
 * just ran) must be the sum of their jobs' counts, each job run again alone. */
static void assert_counts_add_up(damero_tb *uncached, const damero_position *positions,
                                 int n, const struct answer *want)
{
    damero_cache_stats together, alone, sum = { 0 };
    struct answer *answers = malloc((size_t)n * sizeof *answers);
    assert_non_null(answers);
    assert_int_equal(damero_read_cache_stats(uncached, &together), DAMERO_OK);
    for (int t = 0; t < NUM_THREADS; t++) {
        struct job job = { uncached, positions, n, (unsigned)t, t % 2 == 1, NULL, answers };
        assert_int_equal(damero_reset_cache_stats(uncached), DAMERO_OK);
        assert_null(probe_all(&job));
        assert_same_answers(uncached, positions, want, answers, n, "no cache, alone");
        assert_int_equal(damero_read_cache_stats(uncached, &alone), DAMERO_OK);
        sum.hits += alone.hits;
        sum.misses += alone.misses;
        sum.blocks_read += alone.blocks_read;
        sum.bytes_read += alone.bytes_read;
        sum.bytes_decompressed += alone.bytes_decompressed;
    }
    assert_int_equal(together.hits, 0);
    assert_true(together.misses > together.blocks_read); /* the cached probes' misses */
    assert_int_equal(together.misses, sum.misses);
    assert_int_equal(together.blocks_read, sum.blocks_read);
    assert_int_equal(together.bytes_read, sum.bytes_read);
    assert_int_equal(together.bytes_decompressed, sum.bytes_decompressed);
    free(answers);
}

static void test_threads_agree(void **state)
{
    struct temp_dir *f = *state;
    const struct variant *v = test_variant("russian");
    struct material materials[256];
    damero_tb *small, *uncached, *fresh, *tiny;
    double t0 = seconds_now();

    int n_materials = test_materials(v, PIECES, NULL, materials, 256);
    build_on_disk(v, f->dir, materials, n_materials);
    double t1 = seconds_now();
    damero_position *positions = random_positions(v, materials, n_materials, NUM_POSITIONS);
    struct answer *alone = malloc(NUM_POSITIONS * sizeof *alone);
    assert_non_null(alone);

    if (damero_open("russian", f->dir, SMALL_CACHE, &small) != DAMERO_OK ||
        damero_open("russian", f->dir, 0, &uncached) != DAMERO_OK ||
        damero_open("russian", f->dir, SMALL_CACHE, &fresh) != DAMERO_OK ||
        damero_open("russian", f->dir, TINY_CACHE, &tiny) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    assert_int_equal(damero_max_pieces(small), PIECES);

    /* one thread alone: every position has its value, of every kind */
    struct job job = { small, positions, NUM_POSITIONS, 0, false, NULL, alone };
    assert_null(probe_all(&job));
    int count[3] = { 0 };
    for (int i = 0; i < NUM_POSITIONS; i++) {
        if (alone[i].wdl_status != DAMERO_OK || alone[i].status != DAMERO_OK)
            fail_msg("position %d: status %d, %d", i, alone[i].wdl_status, alone[i].status);
        assert_int_equal(alone[i].wdl, alone[i].value.wdl);
        count[alone[i].wdl + 1]++;
    }
    assert_true(count[0] > 0 && count[1] > 0 && count[2] > 0);
    double t2 = seconds_now();

    probe_in_threads(small, positions, NUM_POSITIONS, alone, "small cache");
    double t3 = seconds_now();
    /* a handle no probe has used: the threads race to open each file (on first use) */
    probe_in_threads(fresh, positions, NUM_POSITIONS / 16, alone, "files opened by the threads");
    /* blocks evicted while other threads read them: lookups that raced an eviction must
     * read the block again, never a value of the block that took its place */
    probe_in_threads(tiny, positions, NUM_POSITIONS / 16, alone, "tiny cache");
    /* without a cache every probe decompresses: a part of the positions is enough */
    probe_in_threads(uncached, positions, NUM_POSITIONS / 64, alone, "no cache");
    assert_counts_add_up(uncached, positions, NUM_POSITIONS / 64, alone);
    double t4 = seconds_now();
    print_message("build %.2f s, one thread %.2f s, %d threads %.2f s, no cache %.2f s\n",
                  t1 - t0, t2 - t1, NUM_THREADS, t3 - t2, t4 - t3);

    damero_close(small);
    damero_close(uncached);
    damero_close(fresh);
    damero_close(tiny);
    free(alone);
    free(positions);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_threads_agree, setup, temp_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
