/* The report of `damero verify`: each rule's results with the optimal line of its
 * longest win, printed as text or JSON on stdout and, when asked, written as a Markdown
 * document. */
#ifndef DAMERO_CLI_VERIFY_REPORT_H
#define DAMERO_CLI_VERIFY_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/line_play.h"
#include "probe/damero.h"
#include "verify/summary.h"
#include "verify/verify.h"

#define MAX_LINE_PLIES 256

/* One rule's report and what verify derives from it (verify/summary.h), with the lines
 * the tables' best moves play from its examples: its longest wins (strong side to move,
 * then the lone side) when it demands a win within a limit, and per reading its longest
 * win in time (the first that a count already running when this one starts turns into a
 * draw); for a no-progress rule, the line verify measured from its longest wait to the
 * move that resets the count. A line not played has no positions. */
struct rule_section {
    struct rule_report report;
    struct rule_summary summary;
    struct line line[2];
    struct line cursed[MAX_READINGS];
    struct line reset; /* a no-progress rule: from its longest wait to the reset */
};

struct variant_report {
    const struct variant *v;
    damero_tb *tb;         /* the tables, opened by report_lines: lines and boards */
    int pieces;
    int num_rules;
    struct rule_section rules[];
};

/* A report with room for each of v's rules; NULL when memory runs out. */
struct variant_report *variant_report_new(const struct variant *v, int pieces);
void variant_report_free(struct variant_report *r);

/* Opens the tables in dir/<variant> through the probe library, which then draws the
 * report's boards, and plays the line of every example the rules' summaries choose
 * (cli/line_play.h). Returns 0, or -1 with a sentence in err. */
int report_lines(const char *dir, struct variant_report *r, char *err, size_t err_size);

/* One line of the closing summary: a rule under one reading. */
struct summary_row {
    char variant[24], rule[48], limit[48], wins[24], longest[24], beyond[48];
    char convention[160]; /* how the count was counted, where another way changes it */
};

#define MAX_SUMMARY_ROWS 128

/* Where the report goes. */
struct report_output {
    bool json;
    bool single;           /* one variant: a JSON object rather than a list */
    int variants;          /* printed so far */
    int num_rows;
    struct summary_row rows[MAX_SUMMARY_ROWS];
    FILE *markdown;        /* NULL when not asked; stdout for "-", in place of the text */
    char markdown_path[4096], markdown_tmp[4128];
};

/* Starts the report (the markdown file under a temporary name; markdown "-": the
 * document on stdout instead of the text report). Returns 0, or -1 with a sentence in
 * err. */
int report_begin(struct report_output *out, bool json, bool single, const char *markdown,
                 int pieces, char *err, size_t err_size);

/* Prints one variant's report (and writes it into the markdown document). */
void report_variant(struct report_output *out, const struct variant_report *r);

/* Reports that variant v could not be verified: with JSON, an object {variant, error} in
 * the output in place of its report; else a sentence on stderr. */
void report_failure(struct report_output *out, const struct variant *v, const char *message);

/* Ends the report: prints the summary (text) or closes the JSON list, and renames the
 * markdown document into place when `complete`, else removes it. Returns 0, or -1 with a sentence in err. */
int report_end(struct report_output *out, bool complete, char *err, size_t err_size);

#endif
