#include "format/coverage.h"

#include <string.h>

struct condition condition_of(const struct variant *v, const struct precondition *c)
{
    const struct geometry *g = v->board();
    struct condition out = { .words = c };
    int bit;
    BB_FOR_EACH(bit, g->board)
        if (g->file_of[bit] == g->rank_of[bit])
            out.diagonal |= bb_of(bit);
    if (c->strong_man_square)
        out.strong_man = bb_of(square_from_number(v, c->strong_man_square));
    if (c->weak_man_square)
        out.weak_man = bb_of(square_from_number(v, c->weak_man_square));
    return out;
}

bool condition_meets(const struct condition *c, const struct position *p)
{
    return (!c->words->strong_king_on_main_diagonal || (p->kings[WHITE] & c->diagonal)) &&
           (!c->words->lone_king_on_main_diagonal || (p->kings[BLACK] & c->diagonal)) &&
           (p->men[WHITE] & c->strong_man) == c->strong_man &&
           (p->men[BLACK] & c->weak_man) == c->weak_man;
}

bool rule_has_precondition(const struct move_limit_rule *rule)
{
    return rule->precondition.words != NULL;
}

bool rule_covers(const struct move_limit_rule *rule, const struct material *m)
{
    const struct ending *e = &rule->ending;
    int total = material_pieces(m), strong = material_side_pieces(m, WHITE);
    char name[MATERIAL_NAME_SIZE];
    if ((e->min_total && total < e->min_total) || (e->max_total && total > e->max_total))
        return false;
    switch (e->kind) {
    case ENDING_VS_LONE_KING:
        return m->kings[BLACK] == 1 && m->men[BLACK] == 0 && strong >= e->min_pieces &&
               strong <= e->max_pieces && m->kings[WHITE] >= e->min_kings &&
               m->men[WHITE] <= e->max_men;
    case ENDING_MATERIAL:
        material_name(m, name);
        return strcmp(name, e->material) == 0;
    case ENDING_KINGS_ONLY:
        return material_men(m) == 0;
    case ENDING_BOTH_HAVE_KINGS:
        return m->kings[WHITE] > 0 && m->kings[BLACK] > 0;
    case ENDING_ANY:
        return true;
    }
    return false;
}

int rule_materials(const struct variant *v, const struct move_limit_rule *rule,
                   int max_pieces, struct material *out, int capacity)
{
    struct material all[1024];
    int n = 0;
    for (int pieces = 2; pieces <= max_pieces; pieces++) {
        int count = material_list(v, pieces, all, 1024);
        for (int k = 0; k < count && n < capacity; k++)
            if (rule_covers(rule, &all[k]))
                out[n++] = all[k];
    }
    return n;
}

int rule_pieces_needed(const struct variant *v, const struct move_limit_rule *rule)
{
    for (int pieces = 2; pieces <= MATERIAL_MAX_PIECES; pieces++) {
        struct material all[1024];
        int count = material_list(v, pieces, all, 1024);
        for (int k = 0; k < count; k++)
            if (rule_covers(rule, &all[k]))
                return pieces;
    }
    return MATERIAL_MAX_PIECES + 1;
}
