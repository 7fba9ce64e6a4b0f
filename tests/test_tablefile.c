/* Table files: what is written is read back exactly, a write leaves either the whole file
 * or nothing, and every kind of damage is refused with a message naming it. Each test
 * works in its own fresh directory under /tmp. */
#define _XOPEN_SOURCE 700 /* nftw, in file_util.h */
#include "tests/file_util.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/value.h"
#include "store/dtm_bytes.h"
#include "store/table_io.h"
#include "tests/random_position.h"

struct fixture {
    char dir[TEMP_DIR_SIZE];
    char path[128]; /* dir/KMvK.dtm, the file most tests write */
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    if (temp_dir_make(f->dir, "tablefile") < 0) {
        free(f);
        return -1;
    }
    snprintf(f->path, sizeof f->path, "%s/KMvK.dtm", f->dir);
    *state = f;
    return 0;
}

/* Removes the directory and whatever the test left in it. */
static int teardown(void **state)
{
    struct fixture *f = *state;
    temp_dir_remove(f->dir);
    free(f);
    return 0;
}

/* The names in dir other than . and .., joined by spaces, sorted by readdir's whim. */
static int list_dir(const char *dir, char *out, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    out[0] = '\0';
    assert_non_null(d);
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(out + strlen(out), size - strlen(out), "%s%s", n ? " " : "", e->d_name);
            n++;
        }
    closedir(d);
    return n;
}

static struct table_file_info test_info(uint32_t value_bits, uint64_t positions)
{
    struct table_file_info info = { .metric = METRIC_DTM, .index_version = 1,
                                    .value_bits = value_bits, .positions = positions };
    snprintf(info.variant, sizeof info.variant, "russian");
    snprintf(info.material, sizeof info.material, "KMvK");
    return info;
}

/* Values like a real table's: long runs (which compress) broken by noise (which does not),
 * over the whole range a DTM of the value width may have, different for the two sides. */
static void *test_values(uint32_t value_bits, uint64_t n, int side)
{
    uint8_t *bytes = malloc(n * (value_bits > 8 ? 2 : 1) + 1);
    uint64_t state = 0x2545F4914F6CDD1Dull + (uint64_t)side;
    assert_non_null(bytes);
    for (uint64_t i = 0; i < n; i++) {
        uint16_t v = (i / 37) % 3 == 0 ? (uint16_t)random_next(&state) : (uint16_t)(i / 500);
        if (value_bits == 2)
            bytes[i] = (uint8_t)(v % 3);
        else if (value_bits == 8)
            bytes[i] = (uint8_t)v;
        else
            ((uint16_t *)bytes)[i] = v <= dtm_loss(DTM_MAX_PLIES) ? v : dtm_loss(DTM_MAX_PLIES);
    }
    return bytes;
}

static void write_test_table(const char *path, uint32_t value_bits, uint64_t positions)
{
    struct table_file_info info = test_info(value_bits, positions);
    void *values[2] = { test_values(value_bits, positions, 0),
                        test_values(value_bits, positions, 1) };
    char err[512];
    if (table_file_write(path, &info, (const void *const *)values, err, sizeof err) < 0)
        fail_msg("writing %s: %s", path, err);
    free(values[0]);
    free(values[1]);
}

/* The file read block by block into bytes, as a build holds the tables it reads
 * (store/dtm_bytes.h): the same values, those that do not fit a byte from the escapes. */
static void check_read_as_bytes(const char *path, uint64_t positions, uint32_t value_bits,
                                void *const values[2])
{
    struct table_map map;
    struct dtm_bytes d[2];
    char err[512];
    uint64_t escaped = 0;
    if (table_map_open(path, &map, err, sizeof err) != TABLE_OK)
        fail_msg("opening %s: %s", path, err);
    assert_int_equal(dtm_bytes_init(&d[0], positions), 0);
    assert_int_equal(dtm_bytes_init(&d[1], positions), 0);
    if (table_map_read_blocks(&map, dtm_bytes_take, d, err, sizeof err) != TABLE_OK)
        fail_msg("reading %s block by block: %s", path, err);
    for (int side = 0; side < 2; side++) {
        for (uint64_t i = 0; i < positions; i++) {
            unsigned want = value_bits == 16 ? ((const uint16_t *)values[side])[i]
                                             : ((const uint8_t *)values[side])[i];
            if (dtm_bytes_get(&d[side], i) != want)
                fail_msg("side %d index %llu: %u read as %u", side, (unsigned long long)i,
                         want, dtm_bytes_get(&d[side], i));
            escaped += want >= DTM_BYTE_ESCAPED;
        }
        assert_int_equal(d[side].escapes, escaped);
        escaped = 0;
        dtm_bytes_free(&d[side]);
    }
    table_map_close(&map);
}

/* The whole contents of the file at path (malloc'd), its size in *size. */
static uint8_t *read_all(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    *size = file_size(path);
    uint8_t *bytes = malloc((size_t)*size + 1);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, (size_t)*size, f), (size_t)*size);
    fclose(f);
    return bytes;
}

/* Hands a side of values[2] over to table_file_write_by_side. */
struct both_sides {
    void *const *values;
    size_t bytes;
};

static int copy_side(void *context, int side, void *values, char *err, size_t err_size)
{
    const struct both_sides *b = context;
    (void)err, (void)err_size;
    memcpy(values, b->values[side], b->bytes);
    return 0;
}

/* Written one side at a time, the file is the same bytes as written whole. */
static void check_written_by_side(struct fixture *f, const struct table_file_info *info,
                                  void *const values[2])
{
    char err[512], by_side[160];
    long whole_size, side_size;
    struct both_sides b = { values, info->positions * table_value_bytes(info) };
    void *buffer = malloc(b.bytes + 1);
    snprintf(by_side, sizeof by_side, "%s/by_side.dtm", f->dir);
    assert_non_null(buffer);
    if (table_file_write_by_side(by_side, info, buffer, copy_side, &b, err, sizeof err) < 0)
        fail_msg("writing %s side by side: %s", by_side, err);
    uint8_t *whole = read_all(f->path, &whole_size), *sides = read_all(by_side, &side_size);
    assert_int_equal(side_size, whole_size);
    assert_memory_equal(sides, whole, (size_t)whole_size);
    remove(by_side);
    free(whole);
    free(sides);
    free(buffer);
}

static void check_round_trip(struct fixture *f, uint32_t value_bits, uint64_t positions)
{
    struct table_file_info info = test_info(value_bits, positions), got, header;
    void *values[2] = { test_values(value_bits, positions, 0),
                        test_values(value_bits, positions, 1) };
    void *read[2];
    char err[512], names[512];

    if (table_file_write(f->path, &info, (const void *const *)values, err, sizeof err) < 0)
        fail_msg("writing %llu values of %u bits: %s", (unsigned long long)positions,
                 value_bits, err);
    /* only the table itself: the temporary name was renamed away */
    assert_int_equal(list_dir(f->dir, names, sizeof names), 1);
    assert_string_equal(names, "KMvK.dtm");
    if (table_file_read(f->path, &got, read, err, sizeof err) < 0)
        fail_msg("reading back %llu values of %u bits: %s", (unsigned long long)positions,
                 value_bits, err);
    assert_string_equal(got.variant, "russian");
    assert_string_equal(got.material, "KMvK");
    assert_int_equal(got.metric, METRIC_DTM);
    assert_int_equal(got.index_version, 1);
    assert_int_equal(got.value_bits, value_bits);
    assert_int_equal(got.positions, positions);
    for (int side = 0; side < 2 && positions > 0; side++)
        assert_memory_equal(read[side], values[side], positions * (value_bits > 8 ? 2 : 1));
    /* the header alone says the same, including the checksum the write computed */
    if (table_file_read_info(f->path, &header, err, sizeof err) < 0)
        fail_msg("reading the header: %s", err);
    assert_string_equal(header.variant, "russian");
    assert_string_equal(header.material, "KMvK");
    assert_int_equal(header.metric, METRIC_DTM);
    assert_int_equal(header.value_bits, value_bits);
    assert_int_equal(header.positions, positions);
    assert_int_equal(header.checksum, got.checksum);
    if (value_bits > 2)
        check_read_as_bytes(f->path, positions, value_bits, values);
    check_written_by_side(f, &info, values);
    for (int side = 0; side < 2; side++) {
        free(values[side]);
        free(read[side]);
    }
}

/* Sizes: one value; one block exactly; a partial last block of each side; and an empty
 * table (no block at all), which the format allows. */
static void test_round_trip_one_byte(void **state)
{
    check_round_trip(*state, 8, 1);
    check_round_trip(*state, 8, 32768);
    check_round_trip(*state, 8, 100000);
    check_round_trip(*state, 8, 0);
}

/* Two-byte values are stored as byte planes: a mix-up of the planes or of the blocks'
 * order shows as a wrong value. */
static void test_round_trip_two_bytes(void **state)
{
    check_round_trip(*state, 16, 1);
    check_round_trip(*state, 16, 32768 + 1);
    check_round_trip(*state, 16, 100000);
    check_round_trip(*state, 16, 0);
}

/* 2-bit values (WDL) are packed four to a byte in blocks of 8192: a partial byte, a
 * partial block and whole blocks all come back. */
static void test_round_trip_two_bits(void **state)
{
    check_round_trip(*state, 2, 1);
    check_round_trip(*state, 2, 8194);
    check_round_trip(*state, 2, 100001);
    check_round_trip(*state, 2, 0);
}

/* Every metric keeps its code and has its own suffix. */
static void test_metrics(void **state)
{
    struct fixture *f = *state;
    const enum table_metric metrics[] = { METRIC_WDL, METRIC_DTM, METRIC_MTC };
    const char *suffixes[] = { ".wdl", ".dtm", ".mtc" };
    for (int k = 0; k < 3; k++) {
        struct table_file_info info = test_info(8, 10), got;
        uint8_t values[2][10] = { { 0 }, { 1, 2, 3 } };
        const void *const pointers[2] = { values[0], values[1] };
        char err[512];
        info.metric = metrics[k];
        assert_string_equal(table_metric_suffix(metrics[k]), suffixes[k]);
        assert_int_equal(table_file_write(f->path, &info, pointers, err, sizeof err), 0);
        assert_int_equal(table_file_read_info(f->path, &got, err, sizeof err), 0);
        assert_int_equal(got.metric, metrics[k]);
    }
}

/* Rewriting a table replaces it whole. */
static void test_overwrite(void **state)
{
    struct fixture *f = *state;
    struct table_file_info got;
    void *values[2];
    char err[512];
    write_test_table(f->path, 16, 100000);
    write_test_table(f->path, 8, 5);
    assert_int_equal(table_file_read(f->path, &got, values, err, sizeof err), 0);
    assert_int_equal(got.positions, 5);
    assert_int_equal(got.value_bits, 8);
    free(values[0]);
    free(values[1]);
}

/* Asserts that reading path fails, whole and (when header_too) header only, with a
 * message naming the file and containing `words` (or `words2` when not NULL); and that
 * reading it block by block fails too, if it opens. */
static void expect_refused(const char *path, bool header_too, const char *words,
                           const char *words2, const char *what)
{
    struct table_file_info info;
    void *values[2] = { (void *)1, (void *)1 };
    char err[512] = "";

    if (table_file_read(path, &info, values, err, sizeof err) == 0)
        fail_msg("%s: the table was read as if intact", what);
    assert_null(values[0]);
    assert_null(values[1]);
    if (!strstr(err, path) || !(strstr(err, words) || (words2 && strstr(err, words2))))
        fail_msg("%s: message '%s' does not name the file and '%s'", what, err, words);
    struct table_map map;
    if (table_map_open(path, &map, err, sizeof err) == TABLE_OK) {
        if (table_map_read_blocks(&map, NULL, NULL, err, sizeof err) == TABLE_OK)
            fail_msg("%s: the table was read block by block as if intact", what);
        table_map_close(&map);
    }
    if (!header_too)
        return;
    err[0] = '\0';
    if (table_file_read_info(path, &info, err, sizeof err) == 0)
        fail_msg("%s: the header was read as if intact", what);
    if (!strstr(err, path) || !(strstr(err, words) || (words2 && strstr(err, words2))))
        fail_msg("%s (header only): message '%s' does not name the file and '%s'", what, err,
                 words);
}

/* A table cut short anywhere is refused: inside the header, inside the directory, and
 * inside the blocks (even by one byte). */
static void test_truncated(void **state)
{
    struct fixture *f = *state;
    char what[64];
    write_test_table(f->path, 16, 100000);
    long size = file_size(f->path);
    /* 100000 values a side: 4 blocks each, a directory of 9 offsets after the header */
    long lengths[] = { size - 1, size / 2, TABLE_HEADER_SIZE + 9 * 8 + 1,
                       TABLE_HEADER_SIZE + 9 * 8, TABLE_HEADER_SIZE + 20, TABLE_HEADER_SIZE,
                       TABLE_HEADER_SIZE - 1, 8, 0 };
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        write_test_table(f->path, 16, 100000);
        assert_int_equal(truncate(f->path, lengths[k]), 0);
        snprintf(what, sizeof what, "cut to %ld of %ld bytes", lengths[k], size);
        /* below a whole header there is no telling it from something else */
        if (lengths[k] < TABLE_HEADER_SIZE)
            expect_refused(f->path, true, "truncated", "not a damero table", what);
        else
            expect_refused(f->path, lengths[k] < TABLE_HEADER_SIZE + 9 * 8, "truncated",
                           NULL, what);
    }
}

/* A file grown at the end (a bad copy, two writers) is refused too. */
static void test_too_long(void **state)
{
    struct fixture *f = *state;
    write_test_table(f->path, 8, 1000);
    FILE *out = fopen(f->path, "ab");
    assert_non_null(out);
    fputs("junk", out);
    fclose(out);
    expect_refused(f->path, false, "too long", NULL, "4 bytes appended");
}

/* One changed byte anywhere is caught: in each header field, in the directory, in a
 * block's compressed data. */
static void test_flipped_bytes(void **state)
{
    struct fixture *f = *state;
    char what[64];
    /* header fields: variant, material, metric, value width, positions, block values,
     * block count, value checksum, header checksum */
    long offsets[] = { 17, 41, 64, 68, 73, 80, 88, 100, 121 };
    write_test_table(f->path, 16, 100000);
    long size = file_size(f->path);
    long data = TABLE_HEADER_SIZE + 9 * 8;

    for (size_t k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
        write_test_table(f->path, 16, 100000);
        patch_byte(f->path, offsets[k], 0x01);
        snprintf(what, sizeof what, "header byte %ld flipped", offsets[k]);
        expect_refused(f->path, false, "damaged", NULL, what);
    }
    for (long at = TABLE_HEADER_SIZE; at < data; at += 8 * 3 + 1) {
        write_test_table(f->path, 16, 100000);
        patch_byte(f->path, at, 0x10);
        snprintf(what, sizeof what, "directory byte %ld flipped", at);
        expect_refused(f->path, false, "damaged", NULL, what);
    }
    for (long at = data + 3; at < size; at += (size - data) / 7) {
        write_test_table(f->path, 16, 100000);
        patch_byte(f->path, at, 0x80);
        snprintf(what, sizeof what, "data byte %ld of %ld flipped", at, size);
        expect_refused(f->path, false, "damaged", NULL, what);
    }
}

/* The magic and the format version come first and are checked by the header-only read
 * too; a newer format is named as such, not as damage. */
static void test_wrong_format(void **state)
{
    struct fixture *f = *state;
    write_test_table(f->path, 8, 1000);
    patch_byte(f->path, 8, 0x05); /* format version 2 -> 7 */
    expect_refused(f->path, true, "format version 7", NULL, "format version patched");

    write_test_table(f->path, 8, 1000);
    patch_byte(f->path, 0, 0x20); /* "DAMEROTB" -> "dAMEROTB" */
    expect_refused(f->path, true, "not a damero table", NULL, "magic patched");
}

static void test_not_a_table(void **state)
{
    struct fixture *f = *state;
    FILE *out = fopen(f->path, "w");
    assert_non_null(out);
    for (int i = 0; i < 20; i++)
        fputs("this is a text file, long enough to hold a header and more.\n", out);
    fclose(out);
    expect_refused(f->path, true, "not a damero table", NULL, "text file");

    out = fopen(f->path, "w");
    assert_non_null(out);
    fclose(out);
    expect_refused(f->path, true, "not a damero table", NULL, "empty file");
}

static void test_missing(void **state)
{
    struct fixture *f = *state;
    expect_refused(f->path, true, "No such file", NULL, "missing file");
}

/* A write that cannot start leaves nothing, and says where it failed. */
static void test_write_into_missing_directory(void **state)
{
    struct fixture *f = *state;
    struct table_file_info info = test_info(8, 10);
    uint8_t values[2][10] = { { 0 } };
    const void *const pointers[2] = { values[0], values[1] };
    char path[256], err[512] = "", names[512];
    struct stat st;

    snprintf(path, sizeof path, "%s/nowhere/KMvK.dtm", f->dir);
    assert_int_equal(table_file_write(path, &info, pointers, err, sizeof err), -1);
    if (!strstr(err, "nowhere") || !strstr(err, "No such file"))
        fail_msg("message '%s' does not name the path and the reason", err);
    assert_int_equal(list_dir(f->dir, names, sizeof names), 0);
    assert_int_equal(stat(path, &st), -1);
}

/* A write that fails half way (here the file size limit, as a full disk would) removes
 * its temporary file and leaves an existing table as it was. */
static void test_write_fails_midway(void **state)
{
    struct fixture *f = *state;
    struct table_file_info info = test_info(16, 100000), got;
    void *values[2] = { test_values(16, 100000, 0), test_values(16, 100000, 1) };
    void *read[2];
    struct rlimit old, small;
    char err[512] = "", names[512], other[160];
    void (*old_handler)(int);
    int result;

    snprintf(other, sizeof other, "%s/KvK.dtm", f->dir);
    write_test_table(other, 8, 10); /* the table that must survive */
    write_test_table(f->path, 8, 5);
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 4096;
    old_handler = signal(SIGXFSZ, SIG_IGN); /* fail with EFBIG rather than die */
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    result = table_file_write(f->path, &info, (const void *const *)values, err, sizeof err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, old_handler);

    assert_int_equal(result, -1);
    if (!strstr(err, f->path) || !strstr(err, "too large"))
        fail_msg("message '%s' does not name the file and the reason", err);
    assert_int_equal(list_dir(f->dir, names, sizeof names), 2); /* no temporary file */
    assert_int_equal(table_file_read(f->path, &got, read, err, sizeof err), 0);
    assert_int_equal(got.positions, 5);
    free(read[0]);
    free(read[1]);
    free(values[0]);
    free(values[1]);
}

/* A symlink planted at the temporary name (NAME.tmp.PID) is not followed: the write
 * fails, naming it, and neither the link's target nor the table is touched. */
static void test_planted_symlink(void **state)
{
    struct fixture *f = *state;
    struct table_file_info info = test_info(8, 10);
    uint8_t values[2][10] = { { 0 } };
    const void *const pointers[2] = { values[0], values[1] };
    char tmp[256], victim[256], err[512] = "", text[64] = "";
    struct stat st;

    snprintf(victim, sizeof victim, "%s/victim", f->dir);
    FILE *out = fopen(victim, "w");
    assert_non_null(out);
    fputs("precious\n", out);
    fclose(out);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", f->path, (long)getpid());
    assert_int_equal(symlink(victim, tmp), 0);

    assert_int_equal(table_file_write(f->path, &info, pointers, err, sizeof err), -1);
    if (!strstr(err, tmp) || !strstr(err, "remove it"))
        fail_msg("message '%s' does not name the temporary file and what to do", err);
    FILE *in = fopen(victim, "r");
    assert_non_null(in);
    assert_non_null(fgets(text, sizeof text, in));
    fclose(in);
    assert_string_equal(text, "precious\n");
    assert_int_equal(lstat(f->path, &st), -1);
    assert_int_equal(lstat(tmp, &st), 0);
    assert_true(S_ISLNK(st.st_mode));

    /* with the link gone, the write goes through */
    assert_int_equal(unlink(tmp), 0);
    assert_int_equal(table_file_write(f->path, &info, pointers, err, sizeof err), 0);
    assert_int_equal(lstat(f->path, &st), 0);
    assert_true(S_ISREG(st.st_mode));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip_one_byte, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trip_two_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trip_two_bits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_metrics, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overwrite, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truncated, setup, teardown),
        cmocka_unit_test_setup_teardown(test_too_long, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flipped_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrong_format, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_a_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_into_missing_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_fails_midway, setup, teardown),
        cmocka_unit_test_setup_teardown(test_planted_symlink, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
