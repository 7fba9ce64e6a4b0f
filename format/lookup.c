#include "format/lookup.h"

enum lookup_status lookup_position(const struct variant *v, const struct position *p,
                                   struct lookup *out)
{
    if (position_pieces(p, p->side) == 0) {
        /* no piece, no move: lost, or won in the giveaway variants */
        out->over = v->giveaway ? GAME_WON : GAME_LOST;
        return LOOKUP_GAME_OVER;
    }
    /* a capture that takes the last piece ends the game: no one is to move after it */
    if (position_pieces(p, side_other(p->side)) == 0)
        return LOOKUP_NO_OPPONENT;
    if ((out->over = lone_piece_end(v, p)) != GAME_GOES_ON)
        return LOOKUP_GAME_OVER;
    struct material m = material_of(p);
    if (material_pieces(&m) > MATERIAL_MAX_PIECES)
        return LOOKUP_TOO_MANY;
    out->flipped = !material_is_canonical(&m);
    out->oriented = *p;
    if (out->flipped) {
        position_flip_colours(v, p, &out->oriented);
        m = material_flipped(&m);
    }
    out->material = m;
    return LOOKUP_TABLE;
}
