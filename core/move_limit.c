#include "core/move_limit.h"

int reading_plies(const struct limit_reading *r, enum limit_kind kind, bool strong_to_move)
{
    if (r->unit == UNIT_PLIES)
        return r->limit;
    /* a win must come by the strong side's N-th move, whether "moves of the strong side"
     * or "moves each" is said; a no-progress count runs over N moves of both sides */
    if (kind == LIMIT_WIN_WITHIN)
        return strong_to_move ? 2 * r->limit - 1 : 2 * r->limit;
    return 2 * r->limit;
}

int plies_in_unit(int plies, enum limit_unit unit, bool strong_to_move)
{
    if (unit == UNIT_PLIES)
        return plies;
    return strong_to_move ? (plies + 1) / 2 : plies / 2;
}

const char *unit_words(enum limit_unit unit)
{
    switch (unit) {
    case UNIT_STRONG_MOVES: return "moves of the strong side";
    case UNIT_MOVES_EACH: return "moves each";
    case UNIT_PLIES: return "plies";
    }
    return "";
}
