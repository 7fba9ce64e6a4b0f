#include "rules/coverage.h"

#include <string.h>

struct condition condition_of(const struct variant *v, const struct precondition *c)
{
    const struct geometry *g = v->board();
    struct condition out = { .words = c };
    struct position white_strong = { .side = WHITE }, black_strong;
    int bit;
    BB_FOR_EACH(bit, g->board)
        if (g->file_of[bit] == g->rank_of[bit])
            white_strong.kings[WHITE] |= bb_of(bit);
    if (c->strong_man_square)
        white_strong.men[WHITE] = bb_of(square_from_number(v, c->strong_man_square));
    if (c->weak_man_square)
        white_strong.men[BLACK] = bb_of(square_from_number(v, c->weak_man_square));
    /* the colour flip maps the strong side's squares to Black's (it is its own inverse) */
    position_flip_colours(v, &white_strong, &black_strong);
    for (int strong = WHITE; strong <= BLACK; strong++) {
        const struct position *seen = strong == WHITE ? &white_strong : &black_strong;
        out.diagonal[strong] = seen->kings[strong];
        out.strong_man[strong] = seen->men[strong];
        out.weak_man[strong] = seen->men[!strong];
    }
    return out;
}

bool condition_meets_for(const struct condition *c, const struct position *p, int strong)
{
    int weak = !strong;
    return (!c->words->strong_king_on_main_diagonal || (p->kings[strong] & c->diagonal[strong])) &&
           (!c->words->lone_king_on_main_diagonal || (p->kings[weak] & c->diagonal[strong])) &&
           (p->men[strong] & c->strong_man[strong]) == c->strong_man[strong] &&
           (p->men[weak] & c->weak_man[strong]) == c->weak_man[strong];
}

bool condition_meets(const struct condition *c, const struct position *p)
{
    return condition_meets_for(c, p, WHITE);
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
