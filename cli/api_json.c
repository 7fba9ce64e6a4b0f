#include "cli/api_json.h"

#include <stdlib.h>
#include <string.h>

#include "cli/probing.h"

json_t *json_with_value(json_t *object, const damero_value *v)
{
    json_t *fields = json_pack("{s:s, s:o, s:o}", "wdl", wdl_word(v->wdl), "dtm",
                               json_count(v->dtm), "mtc", json_count(v->mtc));
    if (!object || !fields || json_object_update(object, fields) < 0) {
        json_decref(object);
        object = NULL;
    }
    json_decref(fields);
    return object;
}

static json_t *move_json(damero_tb *tb, const damero_move *m)
{
    char after[DAMERO_FEN_SIZE];
    json_t *object = json_with_value(json_pack("{s:s}", "move", m->text), &m->value);

    if (damero_write_fen(tb, &m->after, after) == DAMERO_OK)
        object = json_with(object, "after", json_string(after));
    return object;
}

int position_json(damero_tb *tb, const damero_position *pos, damero_move *moves,
                  json_t **json)
{
    char fen[DAMERO_FEN_SIZE];
    damero_value value;
    json_t *list;
    int count, status;

    *json = NULL;
    if ((status = damero_probe(tb, pos, &value)) != DAMERO_OK ||
        (status = damero_root_moves(tb, pos, moves, DAMERO_MAX_MOVES, &count)) != DAMERO_OK ||
        (status = damero_write_fen(tb, pos, fen)) != DAMERO_OK)
        return status;
    list = json_array();
    for (int i = 0; i < count && list; i++)
        json_append(&list, move_json(tb, &moves[i]));
    *json = json_pack("{s:s, s:s}", "variant", damero_variant(tb), "fen", fen);
    *json = json_with(json_with_value(*json, &value), "moves", list);
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
    return *json ? DAMERO_OK : DAMERO_ERR_MEMORY;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(((const damero_move *)a)->text, ((const damero_move *)b)->text);
}

int legal_moves_json(damero_tb *tb, const damero_position *pos, damero_move *moves,
                     json_t **json)
{
    char after[DAMERO_FEN_SIZE];
    json_t *list;
    int count, status;

    *json = NULL;
    if ((status = damero_legal_moves(tb, pos, moves, DAMERO_MAX_MOVES, &count)) != DAMERO_OK ||
        (status = fen_json(tb, pos, json)) != DAMERO_OK)
        return status;
    qsort(moves, (size_t)count, sizeof *moves, by_text);
    list = json_array();
    for (int i = 0; i < count && list; i++)
        json_append(&list, damero_write_fen(tb, &moves[i].after, after) == DAMERO_OK
                               ? json_pack("{s:s, s:s}", "move", moves[i].text, "after", after)
                               : NULL);
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
