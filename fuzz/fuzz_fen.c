/* libFuzzer target: the FEN parser of every variant, through the public API.
 *
 * Input: one byte choosing the variant, then the FEN text. A FEN that parses must print
 * back to a FEN that parses to the same position (a mismatch aborts: a finding), and the
 * position must survive damero_game_end. Anything else must be refused with a status. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/damero.h"

#define MAX_VARIANTS 32

static damero_tb *handles[MAX_VARIANTS];
static int num_handles;

static int same_position(const damero_position *a, const damero_position *b)
{
    return a->side_to_move == b->side_to_move && a->men[0] == b->men[0] &&
           a->men[1] == b->men[1] && a->kings[0] == b->kings[0] && a->kings[1] == b->kings[1];
}

static char empty[] = "/tmp/damero-fuzz-fen-XXXXXX";

static void remove_empty(void)
{
    rmdir(empty);
}

/* One handle per variant, on an empty folder: parsing needs no table. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (!mkdtemp(empty))
        abort();
    atexit(remove_empty);
    for (const char *name; num_handles < MAX_VARIANTS &&
                           (name = damero_variant_name(num_handles)) != NULL;
         num_handles++)
        if (damero_open(name, empty, 0, &handles[num_handles]) != DAMERO_OK) {
            fprintf(stderr, "fuzz_fen: %s: %s\n", name, damero_error_message());
            abort();
        }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    damero_tb *tb = handles[data[0] % num_handles];
    char *fen = malloc(size);
    if (!fen)
        return 0;
    memcpy(fen, data + 1, size - 1);
    fen[size - 1] = '\0';
    damero_position pos, again;
    char printed[DAMERO_FEN_SIZE];
    int end;
    if (damero_parse_fen(tb, fen, &pos) == DAMERO_OK) {
        if (damero_write_fen(tb, &pos, printed) != DAMERO_OK ||
            damero_parse_fen(tb, printed, &again) != DAMERO_OK ||
            !same_position(&pos, &again)) {
            fprintf(stderr, "fuzz_fen: %s: '%s' does not read back from '%s'\n",
                    damero_variant(tb), fen, printed);
            abort();
        }
        damero_game_end(tb, &pos, &end, NULL);
    }
    free(fen);
    return 0;
}
