/* Files and directories for the cmocka tests: a fresh directory under /tmp and its
 * removal, a file's size, a byte flipped in place. nftw needs _XOPEN_SOURCE: define it
 * (700) at the top of the test, before any header. */
#ifndef DAMERO_FILE_UTIL_H
#define DAMERO_FILE_UTIL_H

#if !defined(_XOPEN_SOURCE) || _XOPEN_SOURCE < 500
#error "file_util.h: #define _XOPEN_SOURCE 700 before any header (for nftw)"
#endif

#include "tests/test_util.h"

#include <ftw.h>
#include <sys/stat.h>

#define TEMP_DIR_SIZE 64

/* Makes a fresh directory /tmp/damero-test-NAME-XXXXXX, its path in dir. Returns 0, or -1
 * (errno set). */
static inline int temp_dir_make(char dir[TEMP_DIR_SIZE], const char *name)
{
    snprintf(dir, TEMP_DIR_SIZE, "/tmp/damero-test-%s-XXXXXX", name);
    return mkdtemp(dir) ? 0 : -1;
}

static inline int temp_dir_remove_entry(const char *path, const struct stat *st, int flag,
                                        struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Removes dir and everything under it (links themselves, not what they point to). */
static inline void temp_dir_remove(const char *dir)
{
    nftw(dir, temp_dir_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A fresh directory for each test, as cmocka's setup and teardown: *state is a struct
 * temp_dir. A test's setup is one line: return temp_dir_setup(state, "NAME"). */
struct temp_dir {
    char dir[TEMP_DIR_SIZE];
};

static inline int temp_dir_setup(void **state, const char *name)
{
    struct temp_dir *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    if (temp_dir_make(t->dir, name) < 0) {
        free(t);
        return -1;
    }
    *state = t;
    return 0;
}

static inline int temp_dir_teardown(void **state)
{
    struct temp_dir *t = *state;
    temp_dir_remove(t->dir);
    free(t);
    return 0;
}

static inline long file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (long)st.st_size;
}

/* Flips the bits of xor_mask in the byte at offset of the file at path. */
static inline void patch_byte(const char *path, long offset, uint8_t xor_mask)
{
    FILE *f = fopen(path, "r+b");
    int c;
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    c = fgetc(f);
    assert_true(c != EOF);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    assert_int_equal(fputc(c ^ xor_mask, f), c ^ xor_mask);
    assert_int_equal(fclose(f), 0);
}

#endif
