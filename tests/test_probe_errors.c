/* The probing library (damero.h) refuses what it cannot answer, with the right status and
 * a message naming the problem: damaged, truncated, foreign and stray table files when a
 * probe first needs them (and only there: the other tables keep answering), and in
 * damero_check; a damaged block at probe time, missing tables, bad positions and FENs, unknown
 * variants and directories, NULL arguments, too little room for the moves, a game that
 * is over. Every damaged-file case damages a fresh copy of tables built once. */
#define _XOPEN_SOURCE 700 /* nftw, in file_util.h */
#include "tests/file_util.h"
#include "tests/probe_util.h"

#include <sys/stat.h>
#include <unistd.h>

#include "format/index.h"
#include "tests/craft_util.h"

#define PIECES 3

struct fixture {
    char base[TEMP_DIR_SIZE]; /* everything the tests write is under here */
    char master[128];         /* master/russian: every russian table of up to PIECES pieces */
    char english[128];        /* english/english: KvK of english checkers */
    int copies;
};

static void build_tables(const char *variant, const char *root, const char *const *names,
                         int pieces)
{
    const struct variant *v = test_variant(variant);
    struct material wanted[64];
    build_on_disk(v, root, wanted, test_materials(v, pieces, names, wanted, 64));
}

static int group_setup(void **state)
{
    static const char *const kvk[] = { "KvK", NULL };
    struct fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    if (temp_dir_make(f->base, "probe-errors") < 0) {
        free(f);
        return -1;
    }
    snprintf(f->master, sizeof f->master, "%s/master", f->base);
    snprintf(f->english, sizeof f->english, "%s/english", f->base);
    if (mkdir(f->master, 0777) != 0 || mkdir(f->english, 0777) != 0)
        return -1;
    build_tables("russian", f->master, NULL, PIECES);
    build_tables("english", f->english, kvk, 0);
    *state = f;
    return 0;
}

static int group_teardown(void **state)
{
    struct fixture *f = *state;
    temp_dir_remove(f->base);
    free(f);
    return 0;
}

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buffer[1 << 16];
    size_t n;
    assert_non_null(in);
    assert_non_null(out);
    while ((n = fread(buffer, 1, sizeof buffer, in)) > 0)
        assert_int_equal(fwrite(buffer, 1, n, out), n);
    assert_int_equal(ferror(in), 0);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

/* A fresh copy of the russian tables: root/russian/<files>. Writes root. */
static void fresh_copy(struct fixture *f, char root[128])
{
    char from[512], to[512];
    const struct variant *v = test_variant("russian");
    struct material m[64];
    int n = test_materials(v, PIECES, NULL, m, 64);
    snprintf(root, 128, "%s/copy%d", f->base, ++f->copies);
    snprintf(to, sizeof to, "%s/russian", root);
    assert_int_equal(mkdir(root, 0777), 0);
    assert_int_equal(mkdir(to, 0777), 0);
    for (int i = 0; i < n; i++)
        for (enum table_metric metric = METRIC_WDL; metric <= METRIC_MTC; metric++) {
            char name[MATERIAL_NAME_SIZE];
            material_name(&m[i], name);
            snprintf(from, sizeof from, "%s/russian/%s%s", f->master, name,
                     table_metric_suffix(metric));
            snprintf(to, sizeof to, "%s/russian/%s%s", root, name,
                     table_metric_suffix(metric));
            copy_file(from, to);
        }
}

static void table_path(const char *root, const char *file, char path[256])
{
    snprintf(path, 256, "%s/russian/%s", root, file);
}

static uint64_t read_u64(const char *path, long offset)
{
    FILE *f = fopen(path, "rb");
    uint8_t bytes[8];
    uint64_t v = 0;
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    assert_int_equal(fread(bytes, 1, 8, f), 8);
    fclose(f);
    for (int i = 7; i >= 0; i--)
        v = v << 8 | bytes[i];
    return v;
}

static void assert_message_has(const char *what, const char *words)
{
    const char *message = damero_error_message();
    if (!strstr(message, words))
        fail_msg("%s: message '%s' does not say '%s'", what, message, words);
}

/* What damero_check reported: how many bad files, and the last one's name and status. */
struct problems {
    int count;
    char file[64];
    int status;
};

static void note_problem(void *context, const char *file, int status, const char *message)
{
    struct problems *p = context;
    p->count++;
    snprintf(p->file, sizeof p->file, "%s", file);
    p->status = status;
    assert_non_null(message);
}

/* The probe of fen that reads one file: the WDL one, or the DTM and MTC ones. */
static int probe_fen(damero_tb *tb, const char *fen, bool wdl_file)
{
    damero_position pos;
    damero_value value;
    int wdl;
    if (damero_parse_fen(tb, fen, &pos) != DAMERO_OK)
        fail_msg("%s: %s", fen, damero_error_message());
    return wdl_file ? damero_probe_wdl(tb, &pos, &wdl) : damero_probe(tb, &pos, &value);
}

/* The russian tables under root open, as only the file `file` (at path) is damaged: a
 * probe of fen, which needs it, fails with `status` and a message naming path and
 * holding `words`, the same again on a second try; a probe of another material (MvM)
 * still answers; damero_check lists that file alone. */
static void expect_file_fails(const char *root, const char *file, const char *fen, int status,
                              const char *path, const char *words, const char *what)
{
    damero_tb *tb;
    bool wdl_file = strstr(file, ".wdl") != NULL;
    struct problems problems = { 0 };
    int files = 0;
    if (damero_open("russian", root, 1 << 20, &tb) != DAMERO_OK)
        fail_msg("%s: damero_open: %s", what, damero_error_message());
    for (int again = 0; again < 2; again++) {
        int got = probe_fen(tb, fen, wdl_file);
        if (got != status)
            fail_msg("%s: probing %s returned %d, not %d (%s)", what, fen, got, status,
                     damero_error_message());
        assert_message_has(what, path);
        assert_message_has(what, words);
    }
    for (int metric_wdl = 0; metric_wdl < 2; metric_wdl++)
        if (probe_fen(tb, "W:Wc3:Bf6", metric_wdl) != DAMERO_OK)
            fail_msg("%s: MvM: %s", what, damero_error_message());
    assert_int_equal(damero_check(tb, note_problem, &problems, &files), status);
    assert_message_has(what, path);
    assert_int_equal(problems.count, 1);
    assert_string_equal(problems.file, file);
    assert_int_equal(problems.status, status);
    assert_true(files > 20);
    damero_close(tb);
}

/* damero_open fails with `status`, and its message names path and holds `words`. */
static void expect_open_fails(const char *root, int status, const char *path, const char *words,
                              const char *what)
{
    damero_tb *tb = (damero_tb *)1;
    int got = damero_open("russian", root, 1 << 20, &tb);
    if (got != status)
        fail_msg("%s: damero_open returned %d, not %d (%s)", what, got, status,
                 got ? damero_error_message() : "opened");
    assert_null(tb);
    assert_message_has(what, path);
    assert_message_has(what, words);
}

/* ---- damaged files, refused when first needed ---- */

static void test_truncated(void **state)
{
    char root[128], path[256];
    long size;

    fresh_copy(*state, root);
    table_path(root, "KMvK.wdl", path);
    size = file_size(path);
    assert_int_equal(truncate(path, size / 2), 0);
    expect_file_fails(root, "KMvK.wdl", "W:WKa1,c3:BKh8", DAMERO_ERR_TRUNCATED, path, "truncated",
                      "cut to half");

    /* shorter than the header, the magic still there */
    fresh_copy(*state, root);
    table_path(root, "KMvK.wdl", path);
    assert_int_equal(truncate(path, 100), 0);
    expect_file_fails(root, "KMvK.wdl", "W:WKa1,c3:BKh8", DAMERO_ERR_TRUNCATED, path, "truncated",
                      "cut to 100 bytes");

    /* too short to tell from any other file */
    fresh_copy(*state, root);
    table_path(root, "KMvK.wdl", path);
    assert_int_equal(truncate(path, 4), 0);
    expect_file_fails(root, "KMvK.wdl", "W:WKa1,c3:BKh8", DAMERO_ERR_FORMAT, path,
                      "not a damero table", "cut to 4 bytes");

    /* one byte short: the directory says where the file ends */
    fresh_copy(*state, root);
    table_path(root, "MMvM.mtc", path);
    assert_int_equal(truncate(path, file_size(path) - 1), 0);
    expect_file_fails(root, "MMvM.mtc", "W:Wa1,c1:Bf8", DAMERO_ERR_TRUNCATED, path, "truncated",
                      "one byte short");
}

static void test_header_flipped(void **state)
{
    char root[128], path[256];
    /* a bit of the variant's name, and of the values' checksum: only the header checksum
     * tells */
    const long offsets[] = { 17, 100 };
    for (size_t k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
        fresh_copy(*state, root);
        table_path(root, "KKvM.dtm", path);
        patch_byte(path, offsets[k], 0x01);
        expect_file_fails(root, "KKvM.dtm", "W:WKa1,Kc1:Bf8", DAMERO_ERR_CORRUPT, path,
                          "header checksum", "header flipped");
    }
}

static void test_format_version(void **state)
{
    char root[128], path[256];
    fresh_copy(*state, root);
    table_path(root, "KvK.wdl", path);
    patch_byte(path, 8, 0x05); /* format version 2 -> 7 */
    expect_file_fails(root, "KvK.wdl", "W:WKa1:BKh8", DAMERO_ERR_VERSION, path, "format version 7",
                      "version patched");
}

static void test_other_variant(void **state)
{
    struct fixture *f = *state;
    char root[128], path[256], from[256];
    fresh_copy(f, root);
    table_path(root, "KvK.wdl", path);
    snprintf(from, sizeof from, "%s/english/KvK.wdl", f->english);
    copy_file(from, path);
    expect_file_fails(root, "KvK.wdl", "W:WKa1:BKh8", DAMERO_ERR_VARIANT, path, "english",
                      "english KvK.wdl");
}

static void test_not_a_table(void **state)
{
    char root[128], path[256];
    FILE *out;
    fresh_copy(*state, root);
    table_path(root, "KKvK.dtm", path);
    out = fopen(path, "w");
    assert_non_null(out);
    for (int i = 0; i < 20; i++)
        fputs("this is a text file, long enough to hold a header and more.\n", out);
    fclose(out);
    expect_file_fails(root, "KKvK.dtm", "W:WKa1,Kc1:BKh8", DAMERO_ERR_FORMAT, path,
                      "not a damero table", "text file");

    /* an empty file too */
    fresh_copy(*state, root);
    table_path(root, "KKvK.dtm", path);
    out = fopen(path, "w");
    assert_non_null(out);
    fclose(out);
    expect_file_fails(root, "KKvK.dtm", "W:WKa1,Kc1:BKh8", DAMERO_ERR_FORMAT, path,
                      "not a damero table", "empty file");
}

/* Files whose names are not tables' are none of the library's business. */
static void test_other_files_ignored(void **state)
{
    const char *names[] = { "README", "notes.wdl", "KvK.wdl.tmp.1234", "KvK", "vK.dtm",
                            "KKKKKKKKKKvK.dtm", ".wdl" };
    char root[128], path[256];
    damero_tb *tb;
    fresh_copy(*state, root);
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        table_path(root, names[k], path);
        FILE *out = fopen(path, "w");
        assert_non_null(out);
        fputs("not a table\n", out);
        fclose(out);
    }
    if (damero_open("russian", root, 0, &tb) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    assert_int_equal(damero_max_pieces(tb), PIECES);
    damero_close(tb);
}

/* An empty file named like a large kings-only material: its index (minutes to build on
 * the 10x10 board) is never built, since the file is refused first. A regression shows
 * as this test taking minutes, and the check failing if the index were trusted. */
static void test_empty_large_kings_file(void **state)
{
    struct fixture *f = *state;
    char root[128], path[256];
    damero_tb *tb;
    struct problems problems = { 0 };
    damero_position pos;
    int wdl;
    snprintf(root, sizeof root, "%s/kings", f->base);
    snprintf(path, sizeof path, "%s/international", root);
    assert_int_equal(mkdir(root, 0777), 0);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/international/KKKKvKKK.wdl", root);
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fclose(out);
    if (damero_open("international", root, 1 << 20, &tb) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    assert_int_equal(damero_max_pieces(tb), 7);
    assert_int_equal(damero_parse_fen(tb, "W:WK1,K2,K3,K4:BK46,K47,K48", &pos), DAMERO_OK);
    assert_int_equal(damero_probe_wdl(tb, &pos, &wdl), DAMERO_ERR_FORMAT);
    assert_message_has("empty KKKKvKKK.wdl", path);
    assert_int_equal(damero_check(tb, note_problem, &problems, NULL), DAMERO_ERR_FORMAT);
    assert_int_equal(problems.count, 1);
    damero_close(tb);
}

/* ---- a damaged block: found when it is read ---- */

static void test_damaged_block(void **state)
{
    struct fixture *f = *state;
    const struct variant *v = test_variant("russian");
    char root[128], path[256];
    struct material m;
    struct material_index ix;
    damero_tb *intact, *damaged[2];
    char err[256];

    /* a byte in the middle of the first block (White to move) of KMvK.dtm */
    fresh_copy(f, root);
    table_path(root, "KMvK.dtm", path);
    uint64_t num_blocks = read_u64(path, 88);
    long blocks = TABLE_HEADER_SIZE + (long)(num_blocks + 1) * 8;
    uint64_t first = read_u64(path, TABLE_HEADER_SIZE), end = read_u64(path, TABLE_HEADER_SIZE + 8);
    assert_true(num_blocks >= 2 && end > first + 16);
    patch_byte(path, blocks + (long)(first + end) / 2, 0x10);

    /* not seen at open, with a cache and without */
    if (damero_open("russian", f->master, 1 << 20, &intact) != DAMERO_OK ||
        damero_open("russian", root, 1 << 20, &damaged[0]) != DAMERO_OK ||
        damero_open("russian", root, 0, &damaged[1]) != DAMERO_OK)
        fail_msg("%s", damero_error_message());

    assert_int_equal(material_parse(v, "KMvK", &m, err, sizeof err), 0);
    assert_int_equal(index_init(&ix, v, &m), 0);
    uint64_t failures[2] = { 0 };
    /* every 13th position: each probe of the damaged block decompresses it again */
    for (int side = 0; side < 2; side++)
        for (uint64_t i = 0; i < ix.size; i += 13) {
            struct position p;
            damero_value want, got;
            int wdl;
            index_position(&ix, i, (enum side)side, &p);
            damero_position pos = public_position(v, &p);
            assert_int_equal(damero_probe(intact, &pos, &want), DAMERO_OK);
            for (int k = 0; k < 2; k++) {
                /* twice: a damaged block is not kept, nor anything made of it */
                int first_status = 0;
                for (int again = 0; again < 2; again++) {
                    int status = damero_probe(damaged[k], &pos, &got);
                    if (again)
                        assert_int_equal(status, first_status);
                    first_status = status;
                    if (status == DAMERO_ERR_CORRUPT) {
                        assert_message_has("damaged block", "KMvK.dtm");
                        assert_message_has("damaged block", "damaged");
                        failures[k] += !again;
                    } else {
                        assert_int_equal(status, DAMERO_OK);
                        assert_int_equal(got.wdl, want.wdl);
                        assert_int_equal(got.dtm, want.dtm);
                        assert_int_equal(got.mtc, want.mtc);
                    }
                }
                /* the WDL file is whole */
                assert_int_equal(damero_probe_wdl(damaged[k], &pos, &wdl), DAMERO_OK);
                assert_int_equal(wdl, want.wdl);
            }
        }
    /* damero_check reads every block: it finds the damage without any probe */
    damero_tb *checked;
    struct problems problems = { 0 };
    if (damero_open("russian", root, 0, &checked) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    assert_int_equal(damero_check(checked, note_problem, &problems, NULL), DAMERO_ERR_CORRUPT);
    assert_int_equal(problems.count, 1);
    assert_string_equal(problems.file, "KMvK.dtm");
    damero_close(checked);
    /* the positions of the damaged block fail, the others (Black to move) do not */
    assert_true(failures[0] > 0);
    assert_int_equal(failures[0], failures[1]);
    assert_true(failures[0] <= ix.size / 13 + 1);
    index_free(&ix);
    damero_close(intact);
    damero_close(damaged[0]);
    damero_close(damaged[1]);
}

/* ---- files changed under a running prober ---- */

/* Probes every position of material `name` (both sides to move) through tb; each probe
 * must return DAMERO_OK or one of the statuses a damaged file gives. Returns how many
 * failed. */
static int probe_all(damero_tb *tb, const char *name)
{
    const struct variant *v = test_variant("russian");
    struct material m;
    struct material_index ix;
    char err[256];
    int failed = 0;
    assert_int_equal(material_parse(v, name, &m, err, sizeof err), 0);
    assert_int_equal(index_init(&ix, v, &m), 0);
    for (int side = 0; side < 2; side++)
        for (uint64_t i = 0; i < ix.size; i++) {
            struct position p;
            damero_value value;
            int wdl;
            index_position(&ix, i, (enum side)side, &p);
            damero_position pos = public_position(v, &p);
            int statuses[2] = { damero_probe(tb, &pos, &value), damero_probe_wdl(tb, &pos, &wdl) };
            for (int k = 0; k < 2; k++) {
                int s = statuses[k];
                if (s != DAMERO_OK && s != DAMERO_ERR_TRUNCATED && s != DAMERO_ERR_CORRUPT &&
                    s != DAMERO_ERR_IO)
                    fail_msg("%s: probe returned %d (%s)", name, s, damero_error_message());
                failed += s != DAMERO_OK;
            }
        }
    index_free(&ix);
    return failed;
}

/* Probes one KMvK position through both paths, so that all three of KMvK's files are
 * open (they open on first use) before the test changes them under the prober. */
static void open_kmvk_files(damero_tb *tb)
{
    assert_int_equal(probe_fen(tb, "W:WKa1,c3:BKh8", true), DAMERO_OK);
    assert_int_equal(probe_fen(tb, "W:WKa1,c3:BKh8", false), DAMERO_OK);
}

/* A table truncated while a prober has it open (an interrupted copy over it) gives an
 * error status, not a signal: blocks are read from the file, not from a mapping. */
static void test_truncated_under_prober(void **state)
{
    char root[128], path[256];
    damero_tb *tb;
    fresh_copy(*state, root);
    if (damero_open("russian", root, 0, &tb) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    open_kmvk_files(tb);
    const char *files[] = { "KMvK.dtm", "KMvK.mtc", "KMvK.wdl" };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        table_path(root, files[k], path);
        assert_int_equal(truncate(path, k == 0 ? file_size(path) / 2 : 0), 0);
    }
    assert_true(probe_all(tb, "KMvK") > 0);
    assert_int_equal(probe_all(tb, "KKvK"), 0); /* the other tables are untouched */
    damero_close(tb);
}

/* A table rewritten in place under a prober (`cp` of another table over it): each probe
 * gives a value or an error status, never a crash. */
static void test_rewritten_under_prober(void **state)
{
    struct fixture *f = *state;
    char root[128], path[256], from[256];
    damero_tb *tb;
    fresh_copy(f, root);
    if (damero_open("russian", root, 0, &tb) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    open_kmvk_files(tb);
    const char *pairs[][2] = { { "KMvK.dtm", "KvK.dtm" }, { "KMvK.mtc", "MMvM.mtc" },
                               { "KMvK.wdl", "KKvM.dtm" } };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        table_path(root, pairs[k][0], path);
        snprintf(from, sizeof from, "%s/russian/%s", f->master, pairs[k][1]);
        copy_file(from, path);
    }
    probe_all(tb, "KMvK");
    damero_close(tb);
}

/* A FIFO, a directory or a device named like a table is refused when first needed, at
 * once (a blocking open of a FIFO would wait for a writer forever). */
static void test_not_regular_files(void **state)
{
    char root[128], path[256];
    fresh_copy(*state, root);
    table_path(root, "KKvK.wdl", path);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0644), 0);
    expect_file_fails(root, "KKvK.wdl", "W:WKa1,Kc1:BKh8", DAMERO_ERR_IO, path, "a FIFO", "FIFO");

    fresh_copy(*state, root);
    table_path(root, "KvK.dtm", path);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0777), 0);
    expect_file_fails(root, "KvK.dtm", "W:WKa1:BKh8", DAMERO_ERR_IO, path, "a directory",
                      "directory");

    fresh_copy(*state, root);
    table_path(root, "KvK.mtc", path);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(symlink("/dev/zero", path), 0);
    expect_file_fails(root, "KvK.mtc", "W:WKa1:BKh8", DAMERO_ERR_IO, path, "a device",
                      "/dev/zero");
}

/* ---- a failed file opened again ---- */

/* A file that failed to open fails every probe that needs it while it stays as it was,
 * and is opened again by the next one once it has changed: replaced by a rename (as
 * damero gen writes), or repaired in place; a FIFO replaced by the table. */
static void test_failed_file_reopened(void **state)
{
    struct fixture *f = *state;
    char root[128], path[256], good[256];
    damero_tb *tb;
    fresh_copy(f, root);
    table_path(root, "KMvK.wdl", path);
    snprintf(good, sizeof good, "%s/russian/KMvK.wdl", f->master);
    assert_int_equal(truncate(path, file_size(path) / 2), 0);
    assert_int_equal(damero_open("russian", root, 1 << 20, &tb), DAMERO_OK);
    for (int again = 0; again < 3; again++)
        assert_int_equal(probe_fen(tb, "W:WKa1,c3:BKh8", true), DAMERO_ERR_TRUNCATED);
    char fixed[300];
    snprintf(fixed, sizeof fixed, "%s.new", path); /* not a table's name: not listed */
    copy_file(good, fixed);
    assert_int_equal(rename(fixed, path), 0);
    assert_int_equal(probe_fen(tb, "W:WKa1,c3:BKh8", true), DAMERO_OK);

    /* repaired in place: the same inode, another size */
    table_path(root, "KKvM.dtm", path);
    snprintf(good, sizeof good, "%s/russian/KKvM.dtm", f->master);
    assert_int_equal(truncate(path, 100), 0);
    assert_int_equal(probe_fen(tb, "W:WKa1,Kc1:Bf8", false), DAMERO_ERR_TRUNCATED);
    copy_file(good, path);
    assert_int_equal(probe_fen(tb, "W:WKa1,Kc1:Bf8", false), DAMERO_OK);

    /* a FIFO, then the table */
    table_path(root, "KKvK.wdl", path);
    snprintf(good, sizeof good, "%s/russian/KKvK.wdl", f->master);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0644), 0);
    assert_int_equal(probe_fen(tb, "W:WKa1,Kc1:BKh8", true), DAMERO_ERR_IO);
    assert_int_equal(unlink(path), 0);
    copy_file(good, path);
    assert_int_equal(probe_fen(tb, "W:WKa1,Kc1:BKh8", true), DAMERO_OK);
    assert_int_equal(damero_check(tb, NULL, NULL, NULL), DAMERO_OK);
    damero_close(tb);
}

/* damero_forget_failures forgets the files that failed, and only those: each is tried
 * again (and fails again, unchanged) by the next probe that needs it. */
static void test_forget_failures(void **state)
{
    char root[128], path[256];
    damero_tb *tb;
    fresh_copy(*state, root);
    table_path(root, "KMvK.wdl", path);
    assert_int_equal(truncate(path, file_size(path) / 2), 0);
    table_path(root, "KvK.dtm", path);
    assert_int_equal(truncate(path, 10), 0);
    assert_int_equal(damero_open("russian", root, 1 << 20, &tb), DAMERO_OK);
    assert_int_equal(damero_forget_failures(tb), 0); /* nothing tried yet */
    assert_int_equal(probe_fen(tb, "W:WKa1,c3:BKh8", true), DAMERO_ERR_TRUNCATED);
    assert_int_equal(probe_fen(tb, "W:WKa1:BKh8", false), DAMERO_ERR_TRUNCATED);
    assert_int_equal(probe_fen(tb, "W:Wc3:Bf6", true), DAMERO_OK);
    assert_int_equal(damero_forget_failures(tb), 2);
    assert_int_equal(damero_forget_failures(tb), 0);
    assert_int_equal(probe_fen(tb, "W:WKa1,c3:BKh8", true), DAMERO_ERR_TRUNCATED);
    assert_message_has("tried again", "KMvK.wdl");
    assert_int_equal(damero_forget_failures(tb), 1);
    assert_int_equal(damero_forget_failures(NULL), 0);
    damero_close(tb);
}

/* ---- values beyond their metric's range, in files whose checksums are all valid ---- */

/* A DTM of 0xFFFF (a "win in 32767 plies", beyond any table) and a WDL code of 3 are
 * reported as damage, not read as values. */
static void test_values_out_of_range(void **state)
{
    const struct variant *v = test_variant("russian");
    const char *cases[][2] = { { "KMvK.dtm", "65535" }, { "KMvK.mtc", "65535" },
                               { "KMvK.wdl", "3" } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char root[128];
        damero_tb *tb;
        struct material m;
        struct material_index ix;
        struct position p;
        char err[1024];
        damero_value value;
        int wdl;
        char path[256];
        fresh_copy(*state, root);
        table_path(root, cases[k][0], path);
        if (craft_value(path, WHITE, 0, (unsigned)atoi(cases[k][1]), err, sizeof err) < 0)
            fail_msg("%s", err);
        if (damero_open("russian", root, 1 << 20, &tb) != DAMERO_OK)
            fail_msg("%s", damero_error_message());
        assert_int_equal(material_parse(v, "KMvK", &m, err, sizeof err), 0);
        assert_int_equal(index_init(&ix, v, &m), 0);
        index_position(&ix, 0, WHITE, &p);
        damero_position pos = public_position(v, &p);
        int status = k < 2 ? damero_probe(tb, &pos, &value) : damero_probe_wdl(tb, &pos, &wdl);
        if (status != DAMERO_ERR_CORRUPT)
            fail_msg("%s = %s: probe returned %d", cases[k][0], cases[k][1], status);
        assert_message_has(cases[k][0], cases[k][0]);
        assert_message_has(cases[k][0], "range");
        index_free(&ix);
        damero_close(tb);
    }
}

/* ---- what the tables cannot answer ---- */

static damero_tb *open_master(struct fixture *f)
{
    damero_tb *tb;
    if (damero_open("russian", f->master, 1 << 20, &tb) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    return tb;
}

static damero_position fen_position(damero_tb *tb, const char *fen)
{
    damero_position pos;
    if (damero_parse_fen(tb, fen, &pos) != DAMERO_OK)
        fail_msg("%s: %s", fen, damero_error_message());
    return pos;
}

static void expect_missing(damero_tb *tb, const char *fen, const char *material)
{
    damero_position pos = fen_position(tb, fen);
    damero_value value;
    int wdl;
    assert_int_equal(damero_probe_wdl(tb, &pos, &wdl), DAMERO_ERR_MISSING);
    assert_message_has(fen, material);
    assert_int_equal(damero_probe(tb, &pos, &value), DAMERO_ERR_MISSING);
    assert_message_has(fen, material);
}

static void test_missing_material(void **state)
{
    struct fixture *f = *state;
    damero_tb *tb = open_master(f);
    expect_missing(tb, "W:WKa1,Kc1,Ke1:BKh8,Kg7", "KKKvKK"); /* 5 pieces */
    expect_missing(tb, "W:WKa1,Kc1:BKh8,Kg7", "KKvKK");       /* 4 */
    /* 4, more black pieces: named as the position has them, as `damero gen` takes it */
    expect_missing(tb, "B:WKa1:BKh8,Kg7,e7", "KvKKM");
    assert_message_has("the fix", "build it with 'damero gen --variant russian --dir ");
    assert_message_has("the fix", "/master KvKKM'");
    damero_close(tb);
}

/* damero_probe_wdl_many: a position that cannot be probed fails alone, with its own
 * status; the others get their values, the first failure is returned with its message,
 * and a NULL argument is refused. */
static void test_many_with_failures(void **state)
{
    damero_tb *tb = open_master(*state);
    const char *fens[] = { "W:WKa1:BKh8", "W:WKa1,Kc1,Ke1:BKh8,Kg7", "B:WKa1,Kc1:BKh8",
                           "W:WKa1,Kc1:BKh8,Kg7", "W:WKa1,Kc1:BKh8" };
    enum { N = sizeof fens / sizeof fens[0] };
    damero_position pos[N];
    int wdl[N], statuses[N], want[N];
    for (int k = 0; k < N; k++) {
        pos[k] = fen_position(tb, fens[k]);
        wdl[k] = 99;
    }
    pos[2].men[0] |= (uint64_t)1 << 40; /* a piece beyond square 32 */
    for (int k = 0; k < N; k++)
        statuses[k] = damero_probe_wdl(tb, &pos[k], &want[k]);
    assert_int_equal(damero_probe_wdl_many(tb, pos, N, wdl, statuses), DAMERO_ERR_MISSING);
    assert_message_has("the first failure", "KKKvKK");
    int want_status[N] = { DAMERO_OK, DAMERO_ERR_MISSING, DAMERO_ERR_POSITION,
                           DAMERO_ERR_MISSING, DAMERO_OK };
    for (int k = 0; k < N; k++) {
        assert_int_equal(statuses[k], want_status[k]);
        assert_int_equal(wdl[k], statuses[k] == DAMERO_OK ? want[k] : 99);
    }
    assert_int_equal(damero_probe_wdl_many(tb, pos + 2, 1, wdl, NULL), DAMERO_ERR_POSITION);
    assert_int_equal(damero_probe_wdl_many(tb, pos, 0, NULL, NULL), DAMERO_OK);
    assert_int_equal(damero_probe_wdl_many(NULL, pos, 1, wdl, NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_probe_wdl_many(tb, NULL, 1, wdl, NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_probe_wdl_many(tb, pos, 1, NULL, NULL), DAMERO_ERR_ARGUMENT);
    damero_close(tb);
}

/* A position whose own table is there but where a capture leads to a material that is
 * not: the WDL probe plays the capture and misses KvK. */
static void test_missing_after_capture(void **state)
{
    char root[128], path[256];
    damero_tb *tb;
    int wdl;
    fresh_copy(*state, root);
    table_path(root, "KvK.wdl", path);
    assert_int_equal(unlink(path), 0);
    if (damero_open("russian", root, 1 << 20, &tb) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    damero_position pos = fen_position(tb, "W:WKa1:Bb2,Kh8"); /* a1 must take b2 */
    assert_int_equal(damero_probe_wdl(tb, &pos, &wdl), DAMERO_ERR_MISSING);
    assert_message_has("capture into KvK", "no .wdl table for KvK");
    damero_close(tb);
}

static void test_bad_fen(void **state)
{
    damero_tb *tb = open_master(*state);
    const char *fens[] = { "", "garbage", "W:WKz9:BKh8", "X:WKa1:BKh8", "W:WKa1,Ka1:BKh8",
                           "W:WKa1:BKa1", "W:Wb8:BKh8" /* a man on its crowning rank */,
                           "W:WKa1:BKh8 junk", "W:WKb1:BKh8" /* not a playable square */ };
    for (size_t k = 0; k < sizeof fens / sizeof fens[0]; k++) {
        damero_position pos;
        if (damero_parse_fen(tb, fens[k], &pos) != DAMERO_ERR_POSITION)
            fail_msg("FEN '%s' was not refused as a position", fens[k]);
        if (damero_error_message()[0] == '\0')
            fail_msg("FEN '%s': no message", fens[k]);
    }
    damero_close(tb);
}

static void test_bad_position(void **state)
{
    damero_tb *tb = open_master(*state);
    damero_position ok = fen_position(tb, "W:WKa1,Kc1:BKh8"), pos;
    damero_value value;
    damero_move moves[64];
    char fen[DAMERO_FEN_SIZE];
    int wdl, count;

    pos = ok;
    pos.kings[DAMERO_BLACK] |= (uint64_t)1 << 40; /* square 41 of 32 */
    assert_int_equal(damero_probe_wdl(tb, &pos, &wdl), DAMERO_ERR_POSITION);
    assert_message_has("square 41", "beyond square 32");
    assert_int_equal(damero_probe(tb, &pos, &value), DAMERO_ERR_POSITION);
    assert_int_equal(damero_root_moves(tb, &pos, moves, 64, &count), DAMERO_ERR_POSITION);
    assert_int_equal(damero_write_fen(tb, &pos, fen), DAMERO_ERR_POSITION);

    pos = ok;
    pos.side_to_move = 2;
    assert_int_equal(damero_probe_wdl(tb, &pos, &wdl), DAMERO_ERR_POSITION);
    assert_int_equal(damero_probe(tb, &pos, &value), DAMERO_ERR_POSITION);

    pos = ok;
    pos.men[DAMERO_BLACK] = pos.kings[DAMERO_WHITE] & -pos.kings[DAMERO_WHITE]; /* twice */
    assert_int_equal(damero_probe_wdl(tb, &pos, &wdl), DAMERO_ERR_POSITION);
    assert_int_equal(damero_probe(tb, &pos, &value), DAMERO_ERR_POSITION);

    /* the side not to move has no piece: the game ended before */
    pos = ok;
    pos.kings[DAMERO_BLACK] = 0;
    assert_int_equal(damero_probe_wdl(tb, &pos, &wdl), DAMERO_ERR_POSITION);
    assert_message_has("no black piece", "no piece");
    assert_int_equal(damero_probe(tb, &pos, &value), DAMERO_ERR_POSITION);
    assert_int_equal(damero_root_moves(tb, &pos, moves, 64, &count), DAMERO_ERR_POSITION);
    pos.side_to_move = DAMERO_BLACK; /* while the side to move without a piece has lost */
    assert_int_equal(damero_probe(tb, &pos, &value), DAMERO_OK);
    assert_int_equal(value.wdl, DAMERO_LOSS);
    assert_int_equal(value.dtm, 0);
    assert_int_equal(damero_root_moves(tb, &pos, moves, 64, &count), DAMERO_OK);
    assert_int_equal(count, 0);
    damero_close(tb);
}

static void test_unknown_variant(void **state)
{
    struct fixture *f = *state;
    damero_tb *tb = (damero_tb *)1;
    assert_int_equal(damero_open("checkers", f->master, 0, &tb), DAMERO_ERR_VARIANT);
    assert_null(tb);
    assert_message_has("unknown variant", "checkers");
}

static void test_directories(void **state)
{
    struct fixture *f = *state;
    char dir[256];
    damero_tb *tb = (damero_tb *)1;
    int wdl;

    snprintf(dir, sizeof dir, "%s/nowhere", f->base);
    assert_int_equal(damero_open("russian", dir, 0, &tb), DAMERO_ERR_IO);
    assert_null(tb);
    assert_message_has("no directory", dir);

    /* a file is no directory either */
    snprintf(dir, sizeof dir, "%s/russian/KvK.wdl", f->master);
    tb = (damero_tb *)1;
    assert_int_equal(damero_open("russian", dir, 0, &tb), DAMERO_ERR_IO);
    assert_null(tb);
    assert_message_has("a file", dir);

    /* a directory without tables of the variant opens, and knows nothing */
    const char *variants[] = { "english", "international", "poddavki" };
    const char *fens[] = { "W:WK29:BK4", "W:WK46:BK5", "W:WKa1:BKh8" };
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        if (damero_open(variants[k], f->master, 1 << 20, &tb) != DAMERO_OK)
            fail_msg("%s: %s", variants[k], damero_error_message());
        assert_int_equal(damero_max_pieces(tb), 0);
        assert_string_equal(damero_variant(tb), variants[k]);
        damero_position pos = fen_position(tb, fens[k]);
        assert_int_equal(damero_probe_wdl(tb, &pos, &wdl), DAMERO_ERR_MISSING);
        damero_close(tb);
    }
    /* and so does an empty variant directory */
    snprintf(dir, sizeof dir, "%s/empty", f->base);
    assert_int_equal(mkdir(dir, 0777), 0);
    char sub[300];
    snprintf(sub, sizeof sub, "%s/russian", dir);
    assert_int_equal(mkdir(sub, 0777), 0);
    if (damero_open("russian", dir, 0, &tb) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    assert_int_equal(damero_max_pieces(tb), 0);
    damero_close(tb);
}

/* cache_bytes: beyond DAMERO_MAX_CACHE_BYTES refused (a size whose shards' rings wrapped
 * to 0 places once opened and then died of a division by zero); the largest allowed and
 * tiny ones give the same values as no cache, and the largest is not allocated up front. */
static void test_cache_sizes(void **state)
{
    struct fixture *f = *state;
    const size_t refused[] = { ((size_t)1 << 49) - ((size_t)1 << 21), DAMERO_MAX_CACHE_BYTES + 1,
                               SIZE_MAX };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        damero_tb *tb = (damero_tb *)1;
        assert_int_equal(damero_open("russian", f->master, refused[k], &tb), DAMERO_ERR_ARGUMENT);
        assert_null(tb);
        assert_message_has("huge cache", "DAMERO_MAX_CACHE_BYTES");
    }
    const struct variant *v = test_variant("russian");
    const size_t sizes[] = { DAMERO_MAX_CACHE_BYTES, 1, 3000, 1 << 20 };
    damero_tb *plain, *cached;
    struct material m;
    struct material_index ix;
    char err[256];
    if (damero_open("russian", f->master, 0, &plain) != DAMERO_OK)
        fail_msg("%s", damero_error_message());
    assert_int_equal(material_parse(v, "KKvM", &m, err, sizeof err), 0);
    assert_int_equal(index_init(&ix, v, &m), 0);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        if (damero_open("russian", f->master, sizes[k], &cached) != DAMERO_OK)
            fail_msg("%zu bytes: %s", sizes[k], damero_error_message());
        /* twice over: the second pass reads what the cache kept */
        for (int pass = 0; pass < 2; pass++)
            for (int side = 0; side < 2; side++)
                for (uint64_t i = 0; i < ix.size; i += 7) {
                    struct position p;
                    damero_value want, got;
                    index_position(&ix, i, (enum side)side, &p);
                    damero_position pos = public_position(v, &p);
                    assert_int_equal(damero_probe(plain, &pos, &want), DAMERO_OK);
                    assert_int_equal(damero_probe(cached, &pos, &got), DAMERO_OK);
                    assert_memory_equal(&want, &got, sizeof want);
                }
        damero_close(cached);
    }
    index_free(&ix);
    damero_close(plain);
}

/* A variant folder that cannot be read is an error, not "no tables yet" (only a missing
 * one is that); here it is a file. */
static void test_unreadable_variant_folder(void **state)
{
    struct fixture *f = *state;
    char root[256], path[300];
    snprintf(root, sizeof root, "%s/folder-is-file", f->base);
    assert_int_equal(mkdir(root, 0777), 0);
    snprintf(path, sizeof path, "%s/russian", root);
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fclose(out);
    expect_open_fails(root, DAMERO_ERR_IO, path, "Not a directory", "variant folder a file");
}

/* A message about a file deep in the tree keeps its reason: the message has room for a
 * long path. */
static void test_long_path_message(void **state)
{
    struct fixture *f = *state;
    char root[2048], from[256], to[2200];
    int n = snprintf(root, sizeof root, "%s", f->base);
    while (n < 1500) {
        n += snprintf(root + n, sizeof root - (size_t)n, "/a-long-folder-name-%d", n);
        assert_int_equal(mkdir(root, 0777), 0);
    }
    snprintf(to, sizeof to, "%s/russian", root);
    assert_int_equal(mkdir(to, 0777), 0);
    snprintf(from, sizeof from, "%s/russian/KvK.wdl", f->master);
    snprintf(to, sizeof to, "%s/russian/KvK.wdl", root);
    copy_file(from, to);
    assert_int_equal(truncate(to, file_size(to) - 1), 0);
    damero_tb *tb;
    assert_int_equal(damero_open("russian", root, 1 << 20, &tb), DAMERO_OK);
    assert_int_equal(probe_fen(tb, "W:WKa1:BKh8", true), DAMERO_ERR_TRUNCATED);
    assert_message_has("long path", to);
    assert_message_has("long path", "the directory says");
    damero_close(tb);
}

static void test_null_arguments(void **state)
{
    struct fixture *f = *state;
    damero_tb *tb = (damero_tb *)1;
    damero_value value;
    damero_move move, moves[64];
    char fen[DAMERO_FEN_SIZE];
    int wdl, count;

    assert_int_equal(damero_open(NULL, f->master, 0, &tb), DAMERO_ERR_ARGUMENT);
    assert_null(tb);
    tb = (damero_tb *)1;
    assert_int_equal(damero_open("russian", NULL, 0, &tb), DAMERO_ERR_ARGUMENT);
    assert_null(tb);
    assert_int_equal(damero_open("russian", f->master, 0, NULL), DAMERO_ERR_ARGUMENT);
    damero_close(NULL);
    assert_string_equal(damero_variant(NULL), "");
    assert_int_equal(damero_max_pieces(NULL), 0);

    tb = open_master(f);
    damero_position pos = fen_position(tb, "W:WKa1,Kc1:BKh8");
    assert_int_equal(damero_parse_fen(NULL, "W:WKa1:BKh8", &pos), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_parse_fen(tb, NULL, &pos), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_parse_fen(tb, "W:WKa1:BKh8", NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_write_fen(NULL, &pos, fen), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_write_fen(tb, NULL, fen), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_write_fen(tb, &pos, NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_probe_wdl(NULL, &pos, &wdl), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_probe_wdl(tb, NULL, &wdl), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_probe_wdl(tb, &pos, NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_probe(NULL, &pos, &value), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_probe(tb, NULL, &value), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_probe(tb, &pos, NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_root_moves(NULL, &pos, moves, 64, &count), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_root_moves(tb, NULL, moves, 64, &count), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_root_moves(tb, &pos, NULL, 64, &count), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_root_moves(tb, &pos, moves, 64, NULL), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_best_move(NULL, &pos, &move), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_best_move(tb, NULL, &move), DAMERO_ERR_ARGUMENT);
    assert_int_equal(damero_best_move(tb, &pos, NULL), DAMERO_ERR_ARGUMENT);
    damero_close(tb);
}

static void test_too_little_room(void **state)
{
    damero_tb *tb = open_master(*state);
    damero_position pos = fen_position(tb, "W:WKa1,Kc1:BKh8");
    damero_move moves[64];
    int count = -1, n;

    assert_int_equal(damero_root_moves(tb, &pos, moves, 64, &count), DAMERO_OK);
    n = count;
    assert_true(n > 2);
    count = -1;
    assert_int_equal(damero_root_moves(tb, &pos, moves, n - 1, &count), DAMERO_ERR_ARGUMENT);
    assert_int_equal(count, n);
    assert_message_has("room", "room");
    count = -1;
    assert_int_equal(damero_root_moves(tb, &pos, NULL, 0, &count), DAMERO_ERR_ARGUMENT);
    assert_int_equal(count, n);
    count = -1;
    assert_int_equal(damero_root_moves(tb, &pos, moves, n, &count), DAMERO_OK);
    assert_int_equal(count, n);
    damero_close(tb);
}

static void test_game_over(void **state)
{
    damero_tb *tb = open_master(*state);
    damero_position pos = fen_position(tb, "W:Wa1:Bb2,c3"); /* a1 is blocked */
    damero_move best, moves[4];
    damero_value value;
    int count = -1;

    assert_int_equal(damero_best_move(tb, &pos, &best), DAMERO_ERR_GAME_OVER);
    assert_message_has("no move", "no legal move");
    assert_int_equal(damero_root_moves(tb, &pos, moves, 4, &count), DAMERO_OK);
    assert_int_equal(count, 0);
    assert_int_equal(damero_probe(tb, &pos, &value), DAMERO_OK);
    assert_int_equal(value.wdl, DAMERO_LOSS);
    assert_int_equal(value.dtm, 0);
    damero_close(tb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_header_flipped),
        cmocka_unit_test(test_format_version),
        cmocka_unit_test(test_other_variant),
        cmocka_unit_test(test_not_a_table),
        cmocka_unit_test(test_other_files_ignored),
        cmocka_unit_test(test_empty_large_kings_file),
        cmocka_unit_test(test_damaged_block),
        cmocka_unit_test(test_truncated_under_prober),
        cmocka_unit_test(test_rewritten_under_prober),
        cmocka_unit_test(test_not_regular_files),
        cmocka_unit_test(test_failed_file_reopened),
        cmocka_unit_test(test_forget_failures),
        cmocka_unit_test(test_values_out_of_range),
        cmocka_unit_test(test_missing_material),
        cmocka_unit_test(test_many_with_failures),
        cmocka_unit_test(test_missing_after_capture),
        cmocka_unit_test(test_bad_fen),
        cmocka_unit_test(test_bad_position),
        cmocka_unit_test(test_unknown_variant),
        cmocka_unit_test(test_directories),
        cmocka_unit_test(test_unreadable_variant_folder),
        cmocka_unit_test(test_long_path_message),
        cmocka_unit_test(test_cache_sizes),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_too_little_room),
        cmocka_unit_test(test_game_over),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
