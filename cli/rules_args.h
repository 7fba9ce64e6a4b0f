/* The options of `damero probe` that ask for values under the move-limit rules
 * (damero.h, "Values under the move-limit rules"): --rules, --count and --reading, and
 * how the answer is printed. */
#ifndef DAMERO_CLI_RULES_ARGS_H
#define DAMERO_CLI_RULES_ARGS_H

#include <stdbool.h>

#include "cli/options.h"
#include "probe/damero.h"

/* Rows of an option table (cli/options.h), r a struct rules_args: --rules and --reading,
 * for a command that carries the counts itself (annotate). */
#define RULES_READING_OPTIONS(r)                                                   \
    { "rules", OPTION_FLAG, .to.flag = &(r)->on },                                 \
    { "reading", OPTION_NUMBER, .to.number = &(r)->reading, .min = 1, .max = 2,     \
      .implies = &(r)->on }

/* The same and --count, which may be repeated. */
#define RULES_OPTIONS(r)                                                           \
    RULES_READING_OPTIONS(r),                                                      \
    { "count", OPTION_LIST, .to.list = { (r)->count, &(r)->num_counts },          \
      .max = DAMERO_MAX_RULES, .implies = &(r)->on }

#define RULES_OPTIONS_HELP \
    "  --rules         also the value under the variant's move-limit rules (docs/rules.md,\n" \
    "                  5.10): win, draw or loss when every count is respected, with the\n" \
    "                  plies to the end of the game under them; a win the rules make a\n" \
    "                  draw is called a cursed win, a loss they make a draw a blessed loss\n" \
    "  --count RULE=N[:SIDE]\n" \
    "                  rule RULE (its number in the list printed, or its name) has run N\n" \
    "                  plies since its count started (0 to 120, or not-started); may be\n" \
    "                  repeated. Counts not given start at the position where it starts\n" \
    "                  them (the ending arises there). SIDE (white or black) is the side\n" \
    "                  a \"win within\" count is for, the one with more pieces when it\n" \
    "                  started: needed only once captures leave as many pieces each.\n" \
    "                  Implies --rules\n" \
    "  --reading N     1: each rule's first reading of its limit (default); 2: the second,\n" \
    "                  for the rules whose sources differ. Implies --rules\n"

/* A command's struct rules_args before its options are read: the first reading. */
#define RULES_ARGS_DEFAULT { .reading = 1 }

struct rules_args {
    bool on;
    int reading;                        /* 1 or 2, as damero.h numbers them */
    int num_counts;
    const char *count[DAMERO_MAX_RULES]; /* "RULE=N" as given */
};

/* The counts the --count options give, for tb's rules; the others not started. Returns
 * EXIT_OK, or EXIT_USAGE with the error (naming the rules) in message. */
int rules_counts(const damero_tb *tb, const struct rules_args *r, damero_counts *counts,
                 char *message, size_t size);

/* The value under the rules, as lines of text after the plain value. */
void print_rules_text(const damero_tb *tb, const struct rules_args *r,
                      const damero_rules_value *v);

/* A move's value under the rules: "win 25", "draw (cursed win)", "loss 24". */
void rules_value_words(const damero_rules_value *v, char *out, size_t size);

#endif
