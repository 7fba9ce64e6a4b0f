#include "core/perft.h"

uint64_t perft(const struct variant *v, const struct position *p, int depth, unsigned flags)
{
    struct move_list list;
    uint64_t nodes = 0;

    if (depth == 0)
        return 1;
    if (depth == 1)
        return (uint64_t)count_moves(v, p, flags);
    generate_moves(v, p, flags, &list);
    if (depth == 2)
        return count_replies(v, p, &list, flags);
    for (int i = 0; i < list.count; i++) {
        struct position next;
        make_move(p, &list.moves[i], &next);
        nodes += perft(v, &next, depth - 1, flags);
    }
    return nodes;
}
