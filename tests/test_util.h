/* Helpers shared by the cmocka tests. Include after cmocka.h's prerequisites. */
#ifndef DAMERO_TEST_UTIL_H
#define DAMERO_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/movegen.h"
#include "core/notation.h"

static inline const struct variant *test_variant(const char *name)
{
    const struct variant *v = variant_by_name(name);
    if (!v)
        fail_msg("no variant called %s", name);
    return v;
}

static inline struct position test_position(const struct variant *v, const char *fen)
{
    struct position p;
    char err[256];
    if (fen_parse(v, fen, &p, err, sizeof err) < 0)
        fail_msg("%s: cannot read FEN %s: %s", v->name, fen, err);
    return p;
}

static int compare_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Asserts that the legal moves of `fen` under the rules of v are exactly `expected`: move
 * texts in the variant's notation separated by spaces, in any order ("" for no legal
 * move). */
static inline void assert_rules_moves(const struct variant *v, const char *fen, unsigned flags,
                                      const char *expected)
{
    const char *variant = v->name;
    struct position p = test_position(v, fen);
    struct move_list list;
    static char got_text[MAX_MOVES][MOVE_TEXT_SIZE];
    char *got[MAX_MOVES], *want[MAX_MOVES], buffer[4096], got_line[8192] = "";
    int num_want = 0;

    generate_moves(v, &p, flags, &list);
    assert_false(list.overflow);
    for (int i = 0; i < list.count; i++) {
        move_text(v, &list.moves[i], got_text[i]);
        got[i] = got_text[i];
    }
    qsort(got, (size_t)list.count, sizeof got[0], compare_text);
    snprintf(buffer, sizeof buffer, "%s", expected);
    for (char *tok = strtok(buffer, " "); tok; tok = strtok(NULL, " "))
        want[num_want++] = tok;
    qsort(want, (size_t)num_want, sizeof want[0], compare_text);
    for (int i = 0; i < list.count; i++) {
        strcat(got_line, " ");
        strcat(got_line, got[i]);
    }
    if (num_want != list.count)
        fail_msg("%s %s: expected %d moves (%s), generated %d:%s", variant, fen, num_want,
                 expected, list.count, got_line);
    for (int i = 0; i < num_want; i++)
        if (strcmp(want[i], got[i]) != 0)
            fail_msg("%s %s: expected {%s}, generated {%s }", variant, fen, expected,
                     got_line);
}

/* The same for the variant named `variant`. */
static inline void assert_moves_flags(const char *variant, const char *fen, unsigned flags,
                                      const char *expected)
{
    assert_rules_moves(test_variant(variant), fen, flags, expected);
}

static inline void assert_moves(const char *variant, const char *fen, const char *expected)
{
    assert_moves_flags(variant, fen, 0, expected);
}

/* The position after the legal move written `text` (which must exist) of p. */
static inline struct position test_play(const struct variant *v, const struct position *p,
                                        const char *text)
{
    struct move_list list;
    char buf[MOVE_TEXT_SIZE];
    struct position next;

    generate_moves(v, p, 0, &list);
    for (int i = 0; i < list.count; i++) {
        move_text(v, &list.moves[i], buf);
        if (strcmp(buf, text) == 0) {
            make_move(p, &list.moves[i], &next);
            return next;
        }
    }
    fail_msg("%s: no legal move %s", v->name, text);
    return *p;
}

#endif
