#include "core/game_end.h"

enum game_end lone_piece_end(const struct variant *v, const struct position *p)
{
    enum side s = p->side, o = side_other(s);

    if (v->lone_pieces == LONE_PIECES_PLAY_ON ||
        bb_count(position_pieces(p, s)) != 1 || bb_count(position_pieces(p, o)) != 1)
        return GAME_GOES_ON;
    if (v->lone_pieces == LONE_PIECES_DRAW)
        return GAME_DRAWN;
    /* LONE_MAN_LOSES_TO_KING */
    if (p->men[s] && p->kings[o])
        return GAME_LOST;
    if (p->kings[s] && p->men[o])
        return GAME_WON;
    return GAME_GOES_ON;
}

const char *lone_piece_words(const struct variant *v)
{
    switch (v->lone_pieces) {
    case LONE_PIECES_PLAY_ON: return NULL;
    case LONE_PIECES_DRAW: return "one piece each: a draw";
    case LONE_MAN_LOSES_TO_KING: return "a lone man against a lone king has lost";
    }
    return NULL;
}
