/* The JSON of a position and of a best line: what `damero probe --json` and `damero line
 * --json` print and what `damero serve` answers, built in one place so that they agree. */
#ifndef DAMERO_CLI_API_JSON_H
#define DAMERO_CLI_API_JSON_H

#include "cli/json_out.h"
#include "cli/line_play.h"
#include "probe/damero.h"

/* Adds wdl, dtm and mtc (null in a draw) to object and returns it; and, where the tables
 * hold no DTM or MTC for it (DAMERO_NOT_BUILT, then null too), not_built, the list of
 * those metrics (["dtm"], ["dtm", "mtc"]). Frees object and returns NULL when memory runs
 * out. */
json_t *json_with_value(json_t *object, const damero_value *v);

/* The states a category may search, in asks of the stop function (one per 1024 states:
 * about 5000 states, a few milliseconds) before it gives up and says "unknown". */
#define CATEGORY_ASKS 4

/* The value under the move-limit rules (first reading, counts starting at the position)
 * in Lichess's words: "win", "cursed-win" (a win the rules make a draw), "draw",
 * "blessed-loss", "loss"; rules NULL where it is not known: "draw" for a plain draw
 * (the rules only add draws), else "unknown". plain_wdl: enum damero_wdl. */
const char *category_word(int plain_wdl, const damero_rules_value *rules);

/* {variant, fen, wdl, dtm, mtc, category, moves: [{move, wdl, dtm, mtc, category, after},
 * ...]}, moves best first (damero_root_moves), dtm and mtc in plies or null in a draw,
 * category as category_word says: where the variant has move-limit rules, from a search
 * under them of at most CATEGORY_ASKS (cheap where the rule tables are built), "unknown"
 * for a win or loss it cannot settle within that, and then unknown_because, the sentence
 * that says why and how to settle it. moves is room for DAMERO_MAX_MOVES.
 * The thread's stop function (damero_set_stop) is NULL after the call. Returns DAMERO_OK
 * with *json set, or the damero error (with its sentence) and *json NULL;
 * DAMERO_ERR_MEMORY when the JSON cannot be built. Thread-safe. */
int position_json(damero_tb *tb, const damero_position *pos, damero_move *moves,
                  json_t **json);

/* {reading, wdl, plies, cursed, blessed, exact, binding, counts, strong}: a value under
 * the move-limit rules (damero_probe_rules), reading 1 or 2; plies null in a draw, binding
 * the name of the count that runs out first in a cursed win or blessed loss (else null),
 * counts each rule's plies played by name (null: not started), strong the side ("white"
 * or "black") each running "win within" count is for, by name. NULL when memory runs
 * out. Thread-safe. */
json_t *rules_value_json(const damero_tb *tb, int reading, const damero_rules_value *v);

/* position_json's object for a probe under the rules: {variant, fen, wdl, dtm, mtc,
 * category, rules, moves: [{move, wdl, dtm, mtc, category, after, rules}, ...]} (category from
 * the rules values given), the moves as
 * damero_root_moves_rules orders them (count of them in moves). Returns as
 * position_json. */
int position_rules_json(damero_tb *tb, const damero_position *pos, int reading,
                        const damero_rules_value *value, const damero_rules_move *moves,
                        int count, json_t **json);

/* {variant, fen (the start), result (the start's wdl), plies, moves: [move texts], end}
 * of a played line; under the rules also rules_result (the start's wdl under them); where
 * the tables hold no DTM, played_by: "mtc" (l->by_mtc). Returns as position_json. */
int line_json(damero_tb *tb, const struct line *l, json_t **json);

/* {variant, fen, moves: [{move, after, category}, ...]}: the legal moves without their
 * values (damero_legal_moves), in the order of their texts, each with its category where
 * it leads into the tables ("unknown" where not); for a position outside the tables.
 * Returns as position_json. */
int legal_moves_json(damero_tb *tb, const damero_position *pos, damero_move *moves,
                     json_t **json);

/* The error object of every --json output and of the HTTP API: object (what the failed
 * input was, e.g. {"fen": FEN}; or an empty object) with "error", the sentence saying what
 * went wrong, added. Returns it, or NULL when memory runs out (object freed). */
json_t *json_with_error(json_t *object, const char *message);

/* Reports a failure on the command's input (a FEN, a file, a table, a count): with json,
 * {key: input, "error": message} on one line of stdout; else "damero CMD: message" on
 * stderr. Returns code, the command's exit code. */
int input_failure(const char *cmd, bool json, const char *key, const char *input, int code,
                  const char *message);

/* {variant, fen}. Returns as position_json. */
int fen_json(damero_tb *tb, const damero_position *pos, json_t **json);

#endif
