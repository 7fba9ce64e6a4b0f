#include "cli/rules_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "cli/probing.h"

/* The rule named or numbered (from 1) by the text before '=', or -1. */
static int rule_of(const damero_tb *tb, const char *text, size_t len)
{
    damero_rule_info info;
    char *end;
    long k = strtol(text, &end, 10);
    if (end == text + len && len > 0 && k >= 1 && k <= damero_rule_count(tb))
        return (int)k - 1;
    for (int j = 0; j < damero_rule_count(tb); j++)
        if (damero_rule(tb, j, &info) == DAMERO_OK && strlen(info.name) == len &&
            strncmp(info.name, text, len) == 0)
            return j;
    return -1;
}

/* Why `given` is not a count, naming the variant's rules, in message. */
static void bad_count(const damero_tb *tb, const char *given, char *message, size_t size)
{
    damero_rule_info info;
    size_t n = (size_t)snprintf(message, size,
                                "--count takes RULE=N or RULE=N:SIDE, RULE one of the %s rules "
                                "by number or name, N the plies played since its count started "
                                "(0 to 120) or not-started, SIDE white or black (the side the "
                                "count is for); not '%s'. The rules:",
                                damero_variant(tb), given);
    for (int k = 0; k < damero_rule_count(tb) && n < size; k++)
        if (damero_rule(tb, k, &info) == DAMERO_OK)
            n += (size_t)snprintf(message + n, size - n, " %d \"%s\"%s", k + 1, info.name,
                                  k + 1 < damero_rule_count(tb) ? "," : "");
    if (damero_rule_count(tb) == 0 && n < size)
        snprintf(message + n, size - n, " none");
}

/* The side after N in "RULE=N:SIDE" (text points after N): DAMERO_STRONG_UNSAID when
 * there is none, -1 when it is not a side. */
static int count_side(const char *text)
{
    if (*text == '\0')
        return DAMERO_STRONG_UNSAID;
    if (strcmp(text, ":white") == 0)
        return DAMERO_STRONG_WHITE;
    if (strcmp(text, ":black") == 0)
        return DAMERO_STRONG_BLACK;
    return -1;
}

int rules_counts(const damero_tb *tb, const struct rules_args *r, damero_counts *counts,
                 char *message, size_t size)
{
    *counts = (damero_counts){ 0 };
    for (int k = 0; k < DAMERO_MAX_RULES; k++)
        counts->plies[k] = DAMERO_COUNT_NOT_STARTED;
    for (int k = 0; k < r->num_counts; k++) {
        const char *eq = strrchr(r->count[k], '=');
        int rule = eq ? rule_of(tb, r->count[k], (size_t)(eq - r->count[k])) : -1;
        char *end;
        long plies = eq ? strtol(eq + 1, &end, 10) : -1;
        if (eq && strcmp(eq + 1, "not-started") == 0)
            plies = DAMERO_COUNT_NOT_STARTED, end = (char *)"";
        int side = eq ? count_side(end) : -1;
        if (rule < 0 || end == eq + 1 || side < 0 || plies < DAMERO_COUNT_NOT_STARTED ||
            plies > 120) {
            bad_count(tb, r->count[k], message, size);
            return EXIT_USAGE;
        }
        counts->plies[rule] = (int)plies;
        counts->strong[rule] = side;
    }
    return EXIT_OK;
}

void rules_value_words(const damero_rules_value *v, char *out, size_t size)
{
    if (v->wdl != DAMERO_DRAW)
        snprintf(out, size, "%s %d", wdl_word(v->wdl), v->plies);
    else if (v->plain.wdl == DAMERO_WIN)
        snprintf(out, size, "draw (cursed win)");
    else if (v->plain.wdl == DAMERO_LOSS)
        snprintf(out, size, "draw (blessed loss)");
    else
        snprintf(out, size, "draw");
}

void print_rules_text(const damero_tb *tb, const struct rules_args *r,
                      const damero_rules_value *v)
{
    static const char *const verb[] = { "loses", "draws", "wins" }; /* by wdl + 1 */
    damero_rule_info info;
    char words[64];
    printf("\nrules     %s, reading %d:\n", damero_variant(tb), r->reading);
    for (int k = 0; k < damero_rule_count(tb); k++) {
        if (damero_rule(tb, k, &info) != DAMERO_OK)
            continue;
        /* a rule with one reading keeps it under the second */
        int reading = r->reading <= info.readings ? r->reading : 1;
        printf("  %d %-18s %3d %-25s ", k + 1, info.name, info.limit[reading - 1],
               info.unit[reading - 1]);
        if (v->counts.plies[k] == DAMERO_COUNT_NOT_STARTED)
            printf("no count\n");
        else if (v->counts.strong[k] != DAMERO_STRONG_UNSAID)
            printf("%d plies played, for %s\n", v->counts.plies[k],
                   v->counts.strong[k] == DAMERO_STRONG_WHITE ? "White" : "Black");
        else
            printf("%d plies played\n", v->counts.plies[k]);
    }
    rules_value_words(v, words, sizeof words);
    if (v->wdl != DAMERO_DRAW && v->dtz >= 0)
        printf("under the rules: %s, in %d plies; the next zeroing move (a count starts or "
               "resets, or the game ends) in %d\n", verb[v->wdl + 1], v->plies, v->dtz);
    else if (v->wdl != DAMERO_DRAW)
        printf("under the rules: %s, in %d plies\n", verb[v->wdl + 1], v->plies);
    else
        printf("under the rules: %s", words);
    if (v->wdl == DAMERO_DRAW && v->rule >= 0 && damero_rule(tb, v->rule, &info) == DAMERO_OK)
        printf(": the %s count runs out first", info.name);
    if (v->wdl == DAMERO_DRAW)
        printf("\n");
    if (v->tables_beyond)
        printf("(the tables' value was taken where no count runs: a count that would "
               "start later on such a line is not followed)\n");
}
