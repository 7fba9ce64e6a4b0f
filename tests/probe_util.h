/* Helpers shared by the tests of the probing library (damero.h): tables built on disk
 * where damero_open finds them, and positions as damero.h takes them. */
#ifndef DAMERO_PROBE_UTIL_H
#define DAMERO_PROBE_UTIL_H

#include "tests/test_util.h"

#include "gen/build.h"
#include "probe/damero.h"

/* The materials of v of 2 to `pieces` pieces in building order, then those named in
 * `names` (a NULL-terminated list, or NULL), into wanted (room for capacity). Returns how
 * many. */
static inline int test_materials(const struct variant *v, int pieces,
                                 const char *const *names, struct material *wanted,
                                 int capacity)
{
    char err[512];
    int n = 0;
    for (int k = 2; k <= pieces; k++)
        n += material_list(v, k, wanted + n, capacity - n);
    for (; names && *names; names++) {
        if (n == capacity)
            fail_msg("%s: more than %d materials", v->name, capacity);
        if (material_parse(v, *names, &wanted[n++], err, sizeof err) < 0)
            fail_msg("%s", err);
    }
    return n;
}

/* Builds the tables of the n materials (and of what they depend on) into root/<variant>,
 * where damero_open(variant, root, ...) finds them, and their rule tables too (damero gen
 * --rules) when rule_tables is set. */
static inline void build_on_disk_rules(const struct variant *v, const char *root,
                                       const struct material *wanted, int n, bool rule_tables)
{
    struct build_options options = { .rule_tables = rule_tables };
    struct tableset ts;
    char err[512], dir[256];
    snprintf(dir, sizeof dir, "%s/%s", root, v->name);
    tableset_init(&ts, v, dir);
    if (build_materials(&ts, wanted, n, &options, err, sizeof err) < 0)
        fail_msg("%s: %s", v->name, err);
    tableset_free(&ts);
}

/* The same with the rule tables when DAMERO_TEST_RULE_TABLES is set in the environment,
 * so that a test's checks run on the probe under the rules that reads them. */
static inline void build_on_disk(const struct variant *v, const char *root,
                                 const struct material *wanted, int n)
{
    build_on_disk_rules(v, root, wanted, n, getenv("DAMERO_TEST_RULE_TABLES") != NULL);
}

/* The public bitboard of a set of squares: bit n-1 for square number n. Keeps the
 * numbers of the last variant asked for: not for several threads at once. */
static inline uint64_t numbered(const struct variant *v, bb_t squares)
{
    static const struct variant *cached;
    static int number[MAX_SQUARES];
    int bit;
    if (cached != v) {
        for (bit = 0; bit < MAX_SQUARES; bit++)
            number[bit] = bb_of(bit) & v->board()->board ? square_number(v, bit) : 0;
        cached = v;
    }
    uint64_t out = 0;
    BB_FOR_EACH(bit, squares)
        out |= (uint64_t)1 << (number[bit] - 1);
    return out;
}

/* p as damero.h takes it. */
static inline damero_position public_position(const struct variant *v,
                                              const struct position *p)
{
    damero_position out = { .side_to_move = (int)p->side };
    for (int s = 0; s < 2; s++) {
        out.men[s] = numbered(v, p->men[s]);
        out.kings[s] = numbered(v, p->kings[s]);
    }
    return out;
}

#endif
