/* An engine's first use of libdamero, as tests/test_install.sh builds it against the
 * installed library: nothing but <damero.h> and the damero_* functions.
 *
 * Usage: install_example DIR, where DIR/russian/ holds no table. Prints the library's
 * version, then one line per failed check; exits 0 when every check passed. */
#include <damero.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "FAIL: %s (line %d)\n", #cond, __LINE__);                 \
            failures++;                                                               \
        }                                                                             \
    } while (0)

int main(int argc, char **argv)
{
    damero_tb *tb = NULL;
    damero_position pos;
    int status, wdl = 99;
    const char *message;

    if (argc != 2) {
        fprintf(stderr, "usage: install_example DIR\n");
        return 2;
    }
    printf("%s\n", DAMERO_VERSION);
    /* the header's version is the library's, and is made of the numbers */
    CHECK(strcmp(damero_version(), DAMERO_VERSION) == 0);
    CHECK(DAMERO_VERSION_MAJOR >= 0 && DAMERO_VERSION_MINOR >= 0 && DAMERO_VERSION_PATCH >= 0);

    /* An unknown variant: refused, with a message. */
    status = damero_open("chess", argv[1], 1 << 20, &tb);
    CHECK(status == DAMERO_ERR_VARIANT);
    CHECK(tb == NULL);
    message = damero_error_message();
    CHECK(message != NULL && message[0] != '\0');

    /* A directory without tables opens; every probe then finds no table. */
    status = damero_open("russian", argv[1], 1 << 20, &tb);
    CHECK(status == DAMERO_OK);
    if (status != DAMERO_OK) {
        fprintf(stderr, "damero_open: %s\n", damero_error_message());
        return 1;
    }
    CHECK(strcmp(damero_variant(tb), "russian") == 0);
    CHECK(damero_max_pieces(tb) == 0);
    CHECK(damero_parse_fen(tb, "W:WKa1:BKh8", &pos) == DAMERO_OK);
    CHECK(damero_probe_wdl(tb, &pos, &wdl) == DAMERO_ERR_MISSING);

    /* An engine's own board (a1 = bit 0) probed from the cache alone: no table either,
     * said at once, and nothing read. */
    damero_layout layout;
    damero_cache_stats stats;
    uint64_t men[2] = { 0, 0 }, kings[2] = { 1, (uint64_t)1 << 31 }; /* a1, h8 */
    CHECK(damero_layout_make(tb, DAMERO_ORDER_BOTTOM_LEFT, &layout) == DAMERO_OK);
    CHECK(damero_position_from_layout(&layout, men, kings, DAMERO_WHITE, &pos) == DAMERO_OK);
    CHECK(damero_probe_wdl_cached(tb, &pos, &wdl) == DAMERO_ERR_MISSING);
    CHECK(damero_read_cache_stats(tb, &stats) == DAMERO_OK && stats.blocks_read == 0);
    damero_close(tb);
    damero_close(NULL);

    return failures == 0 ? 0 : 1;
}
