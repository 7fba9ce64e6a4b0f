#include "cli/api_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/probing.h"

/* ["dtm", "mtc"]: the metrics of v that the tables do not hold, in that order. */
static json_t *not_built_json(const damero_value *v)
{
    json_t *list = json_array();
    if (v->dtm == DAMERO_NOT_BUILT)
        json_append(&list, json_string("dtm"));
    if (v->mtc == DAMERO_NOT_BUILT)
        json_append(&list, json_string("mtc"));
    return list;
}

json_t *json_with_value(json_t *object, const damero_value *v)
{
    json_t *fields = json_pack("{s:s, s:o, s:o}", "wdl", wdl_word(v->wdl), "dtm",
                               json_count(v->dtm), "mtc", json_count(v->mtc));
    if (fields && (v->dtm == DAMERO_NOT_BUILT || v->mtc == DAMERO_NOT_BUILT))
        fields = json_with(fields, "not_built", not_built_json(v));
    if (!object || !fields || json_object_update(object, fields) < 0) {
        json_decref(object);
        object = NULL;
    }
    json_decref(fields);
    return object;
}

static json_t *move_json(damero_tb *tb, const damero_move *m, const char *category)
{
    char after[DAMERO_FEN_SIZE];
    json_t *object = json_with(json_with_value(json_pack("{s:s}", "move", m->text), &m->value),
                               "category", json_string(category));

    if (damero_write_fen(tb, &m->after, after) == DAMERO_OK)
        object = json_with(object, "after", json_string(after));
    return object;
}

const char *category_word(int plain_wdl, const damero_rules_value *rules)
{
    if (!rules)
        return plain_wdl == DAMERO_DRAW ? "draw" : "unknown";
    if (rules->wdl != DAMERO_DRAW)
        return rules->wdl == DAMERO_WIN ? "win" : "loss";
    return plain_wdl == DAMERO_WIN ? "cursed-win" : plain_wdl == DAMERO_LOSS ? "blessed-loss"
                                                                             : "draw";
}

/* The category where the variant has no move-limit rule: the plain value's. */
static const char *plain_category(int wdl)
{
    return category_word(wdl, &(damero_rules_value){ .wdl = wdl });
}

/* The stop function of a category's search: it is asked every 1024 states, and stops at
 * the (CATEGORY_ASKS + 1)th ask. A count of states, not a time, so that the answer is
 * the same whatever the load. */
static int asks_spent(void *context)
{
    int *left = context;
    return --*left < 0;
}

/* damero_probe_rules (first reading, counts starting at pos) within CATEGORY_ASKS, or
 * NULL when it needs more or fails (a set without DTM, memory). */
static const damero_rules_value *bounded_rules_value(damero_tb *tb, const damero_position *pos,
                                                     damero_rules_value *value)
{
    int left = CATEGORY_ASKS, status;

    damero_set_stop(asks_spent, &left);
    status = damero_probe_rules(tb, pos, NULL, 1, value);
    damero_set_stop(NULL, NULL);
    return status == DAMERO_OK ? value : NULL;
}

/* The category of a move for the side that plays it: that of the position it leads to,
 * for the other side, turned over. */
static const char *turned_over(const char *category)
{
    static const char *const pairs[][2] = { { "win", "loss" },
                                            { "cursed-win", "blessed-loss" } };

    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        for (int side = 0; side < 2; side++)
            if (strcmp(category, pairs[i][side]) == 0)
                return pairs[i][!side];
    return category; /* draw, unknown */
}

/* The category of each of the count moves of pos (categories[i]), where the variant has
 * move-limit rules: the position each leads to, with the counts after the move, searched
 * under the rules within CATEGORY_ASKS in all (a won or lost move past them "unknown");
 * a plain draw needs no search. */
static void move_categories(damero_tb *tb, const damero_position *pos, const damero_move *moves,
                            int count, const char **categories)
{
    damero_counts start, after;
    damero_rules_value value;
    int left = CATEGORY_ASKS, status;

    status = damero_counts_start(tb, pos, &start);
    damero_set_stop(asks_spent, &left);
    for (int i = 0; i < count; i++) {
        categories[i] = "unknown";
        if (moves[i].value.wdl == DAMERO_DRAW)
            categories[i] = "draw";
        else if (status == DAMERO_OK && left >= 0 &&
                 damero_counts_after(tb, pos, &start, &moves[i], &after) == DAMERO_OK &&
                 damero_probe_rules(tb, &moves[i].after, &after, 1, &value) == DAMERO_OK)
            categories[i] = turned_over(category_word(value.plain.wdl, &value));
    }
    damero_set_stop(NULL, NULL);
}

/* Why a category is "unknown" and how to settle it: said in the answer where one is. */
static const char unknown_words[] =
    "a search under the move-limit rules, bounded to about 5000 states for the position "
    "and as many for all its moves together (best first), could not settle it; the rules' "
    "full search settles it (damero probe --rules, /api/VARIANT/rules), and the rule "
    "tables (damero gen --rules) make it a lookup";

/* Whether the position's category or one of its count moves' is "unknown". */
static bool any_unknown(const char *category, const char **categories, int count)
{
    bool unknown = strcmp(category, "unknown") == 0;
    for (int i = 0; i < count && !unknown; i++)
        unknown = strcmp(categories[i], "unknown") == 0;
    return unknown;
}

int position_json(damero_tb *tb, const damero_position *pos, damero_move *moves,
                  json_t **json)
{
    const char **categories = malloc(DAMERO_MAX_MOVES * sizeof *categories);
    char fen[DAMERO_FEN_SIZE];
    damero_value value;
    damero_rules_value rules;
    const char *category;
    json_t *list = NULL;
    int count, status;

    *json = NULL;
    if (!categories)
        return DAMERO_ERR_MEMORY;
    if ((status = damero_probe(tb, pos, &value)) != DAMERO_OK ||
        (status = damero_root_moves(tb, pos, moves, DAMERO_MAX_MOVES, &count)) != DAMERO_OK ||
        (status = damero_write_fen(tb, pos, fen)) != DAMERO_OK) {
        free(categories);
        return status;
    }
    if (damero_rule_count(tb) == 0) {
        /* no move-limit rules: the plain value is the value under them */
        category = plain_category(value.wdl);
        for (int i = 0; i < count; i++)
            categories[i] = plain_category(moves[i].value.wdl);
    } else {
        category = category_word(value.wdl, bounded_rules_value(tb, pos, &rules));
        move_categories(tb, pos, moves, count, categories);
    }
    list = json_array();
    for (int i = 0; i < count && list; i++)
        json_append(&list, move_json(tb, &moves[i], categories[i]));
    *json = json_pack("{s:s, s:s}", "variant", damero_variant(tb), "fen", fen);
    *json = json_with(json_with_value(*json, &value), "category", json_string(category));
    if (any_unknown(category, categories, count))
        *json = json_with(*json, "unknown_because", json_string(unknown_words));
    free(categories);
    *json = json_with(*json, "moves", list);
    return *json ? DAMERO_OK : DAMERO_ERR_MEMORY;
}

json_t *rules_value_json(const damero_tb *tb, int reading, const damero_rules_value *v)
{
    damero_rule_info info;
    json_t *counts = json_object(), *strong = json_object(), *binding = json_null();

    for (int k = 0; k < damero_rule_count(tb) && counts && strong; k++) {
        if (damero_rule(tb, k, &info) != DAMERO_OK)
            continue;
        counts = json_with(counts, info.name, json_count(v->counts.plies[k]));
        if (v->counts.strong[k] != DAMERO_STRONG_UNSAID)
            strong = json_with(strong, info.name,
                               json_string(v->counts.strong[k] == DAMERO_STRONG_WHITE
                                               ? "white" : "black"));
    }
    if (v->rule >= 0 && damero_rule(tb, v->rule, &info) == DAMERO_OK)
        binding = json_string(info.name);
    if (!counts || !strong || !binding) {
        json_decref(counts);
        json_decref(strong);
        json_decref(binding);
        return NULL;
    }
    return json_pack("{s:i, s:s, s:o, s:o, s:b, s:b, s:b, s:o, s:o, s:o}", "reading",
                     reading, "wdl", wdl_word(v->wdl), "plies", json_count(v->plies),
                     "dtz", json_count(v->dtz), "cursed",
                     v->wdl == DAMERO_DRAW && v->plain.wdl == DAMERO_WIN, "blessed",
                     v->wdl == DAMERO_DRAW && v->plain.wdl == DAMERO_LOSS, "exact",
                     !v->tables_beyond, "binding", binding, "counts", counts,
                     "strong", strong);
}

int position_rules_json(damero_tb *tb, const damero_position *pos, int reading,
                        const damero_rules_value *value, const damero_rules_move *moves,
                        int count, json_t **json)
{
    char fen[DAMERO_FEN_SIZE];
    json_t *list;
    int status;

    *json = NULL;
    if ((status = damero_write_fen(tb, pos, fen)) != DAMERO_OK)
        return status;
    list = json_array();
    for (int i = 0; i < count && list; i++)
        json_append(&list, json_with(move_json(tb, &moves[i].move,
                                               category_word(moves[i].move.value.wdl,
                                                             &moves[i].value)),
                                     "rules",
                                     rules_value_json(tb, reading, &moves[i].value)));
    *json = json_pack("{s:s, s:s}", "variant", damero_variant(tb), "fen", fen);
    *json = json_with(json_with_value(*json, &value->plain), "category",
                      json_string(category_word(value->plain.wdl, value)));
    *json = json_with(*json, "rules",
                      rules_value_json(tb, reading, value));
    *json = json_with(*json, "moves", list);
    return *json ? DAMERO_OK : DAMERO_ERR_MEMORY;
}

int line_json(damero_tb *tb, const struct line *l, json_t **json)
{
    char fen[DAMERO_FEN_SIZE];
    damero_value start;
    json_t *list;
    int status;

    *json = NULL;
    if ((status = damero_probe(tb, &l->positions[0], &start)) != DAMERO_OK ||
        (status = damero_write_fen(tb, &l->positions[0], fen)) != DAMERO_OK)
        return status;
    list = json_array();
    for (int i = 0; i < l->plies && list; i++)
        json_append(&list, json_string(l->moves[i].text));
    *json = json_pack("{s:s, s:s, s:s, s:i, s:o, s:s}", "variant", damero_variant(tb), "fen",
                      fen, "result", wdl_word(start.wdl), "plies", l->plies, "moves", list,
                      "end", line_end_words[l->end]);
    if (l->rules)
        *json = json_with(*json, "rules_result", json_string(wdl_word(l->start.wdl)));
    if (l->by_mtc)
        *json = json_with(*json, "played_by", json_string("mtc"));
    return *json ? DAMERO_OK : DAMERO_ERR_MEMORY;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(((const damero_move *)a)->text, ((const damero_move *)b)->text);
}

/* The category of each legal move of pos (categories[i]), a position the tables may not
 * hold: a move into the tables (a capture into a smaller material) as position_json
 * gives it, with its WDL set in moves[i].value; "unknown" where the position it leads to
 * is beyond them too. */
static void legal_move_categories(damero_tb *tb, const damero_position *pos,
                                  damero_move *moves, int count, const char **categories)
{
    bool known[DAMERO_MAX_MOVES];
    int wdl;

    for (int i = 0; i < count; i++) {
        known[i] = damero_probe_wdl(tb, &moves[i].after, &wdl) == DAMERO_OK;
        moves[i].value.wdl = known[i] ? -wdl : DAMERO_DRAW; /* the mover's */
    }
    if (damero_rule_count(tb) == 0)
        for (int i = 0; i < count; i++)
            categories[i] = plain_category(moves[i].value.wdl);
    else
        move_categories(tb, pos, moves, count, categories);
    for (int i = 0; i < count; i++)
        if (!known[i])
            categories[i] = "unknown";
}

int legal_moves_json(damero_tb *tb, const damero_position *pos, damero_move *moves,
                     json_t **json)
{
    const char **categories = malloc(DAMERO_MAX_MOVES * sizeof *categories);
    char after[DAMERO_FEN_SIZE];
    json_t *list;
    int count, status;

    *json = NULL;
    if (!categories)
        return DAMERO_ERR_MEMORY;
    if ((status = damero_legal_moves(tb, pos, moves, DAMERO_MAX_MOVES, &count)) != DAMERO_OK ||
        (status = fen_json(tb, pos, json)) != DAMERO_OK) {
        free(categories);
        return status;
    }
    qsort(moves, (size_t)count, sizeof *moves, by_text);
    legal_move_categories(tb, pos, moves, count, categories);
    list = json_array();
    for (int i = 0; i < count && list; i++)
        json_append(&list, damero_write_fen(tb, &moves[i].after, after) == DAMERO_OK
                               ? json_pack("{s:s, s:s, s:s}", "move", moves[i].text, "after",
                                           after, "category", categories[i])
                               : NULL);
    free(categories);
    *json = json_with(*json, "moves", list);
    return *json ? DAMERO_OK : DAMERO_ERR_MEMORY;
}

int fen_json(damero_tb *tb, const damero_position *pos, json_t **json)
{
    char fen[DAMERO_FEN_SIZE];
    int status = damero_write_fen(tb, pos, fen);

    *json = NULL;
    if (status != DAMERO_OK)
        return status;
    *json = json_pack("{s:s, s:s}", "variant", damero_variant(tb), "fen", fen);
    return *json ? DAMERO_OK : DAMERO_ERR_MEMORY;
}

json_t *json_with_error(json_t *object, const char *message)
{
    return json_with(object, "error", json_string(message));
}

int input_failure(const char *cmd, bool json, const char *key, const char *input, int code,
                  const char *message)
{
    if (json)
        json_print(cmd, json_with_error(json_pack("{s:s}", key, input), message));
    else
        fprintf(stderr, "damero %s: %s\n", cmd, message);
    return code;
}
