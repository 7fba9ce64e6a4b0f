/* damero perft: node counts of the move generator, to compare with published figures. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "core/clock.h"
#include "core/notation.h"
#include "core/perft.h"

static const char help[] =
    "usage: damero perft --variant NAME --depth D [--keep-duplicates | --keep-paths]\n"
    "                    [--divide] [FEN]\n"
    "\n"
    "Counts the move sequences of 1..D plies from the position FEN (in the variant's own\n"
    "notation, e.g. W:W31,32,K45:B1,2,K7 or, algebraic, W:Wc3,Kd4:Bf6; the initial one by\n"
    "default)\n"
    "and prints one line per depth: depth, nodes, seconds, nodes per second.\n"
    "\n"
    "  --variant NAME     the rules (see 'damero --help' for the list)\n"
    "  --depth D          the deepest count, 1 to 20 plies\n"
    "  --fen FEN          the same as the FEN operand (as every command takes a position)\n"
    "  --keep-duplicates  count captures that take the same pieces in another order as\n"
    "                     different moves (by default they are one move, as players see it)\n"
    "  --keep-paths       count every capture path apart: --keep-duplicates, and a flying\n"
    "                     king touching down elsewhere between two jumps (the Turkish\n"
    "                     figures published beyond depth 6 count so)\n"
    "  --divide           after the counts, the nodes below each move at the root\n";

static void print_divide(const struct variant *v, const struct position *p, int depth,
                         unsigned flags)
{
    struct move_list list;

    generate_moves(v, p, flags, &list);
    for (int i = 0; i < list.count; i++) {
        struct position next;
        char text[MOVE_TEXT_SIZE];
        make_move(p, &list.moves[i], &next);
        move_text(v, &list.moves[i], text);
        printf("%-24s %" PRIu64 "\n", text, perft(v, &next, depth - 1, flags));
    }
}

int cmd_perft(int argc, char **argv)
{
    const struct variant *v = NULL;
    const char *fen = NULL;
    int depth = 0;
    bool keep_duplicates = false, keep_paths = false, divide = false;
    const struct option_spec options[] = {
        { "variant", OPTION_VARIANT, .to.variant = &v, .required = true },
        { "depth", OPTION_NUMBER, .to.number = &depth, .min = 1, .max = 20, .required = true },
        { "fen", OPTION_TEXT, .to.text = &fen },
        { "keep-duplicates", OPTION_FLAG, .to.flag = &keep_duplicates },
        { "keep-paths", OPTION_FLAG, .to.flag = &keep_paths },
        { "divide", OPTION_FLAG, .to.flag = &divide },
        { .name = NULL },
    };
    struct operands operands;
    struct position p;
    char err[256];
    int status = parse_options("perft", help, options, argc, argv, &operands);

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    status = operands_at_most("perft", &operands, fen ? 0 : 1,
                              " (give one FEN, quoted if it holds spaces)");
    if (status != EXIT_OK)
        return status;
    if (operands.count == 1)
        fen = operands.arg[0];
    unsigned flags = keep_paths ? MOVES_KEEP_PATHS : keep_duplicates ? MOVES_KEEP_DUPLICATES : 0;
    if (fen) {
        if (fen_parse(v, fen, &p, err, sizeof err) < 0)
            return usage_error("perft", "%s", err);
    } else {
        position_initial(v, &p);
    }
    for (int d = 1; d <= depth; d++) {
        double start = seconds_now();
        uint64_t nodes = perft(v, &p, d, flags);
        double elapsed = seconds_now() - start;
        printf("%2d %14" PRIu64 " %10.3f s %12.0f nodes/s\n", d, nodes, elapsed,
               elapsed > 0 ? (double)nodes / elapsed : 0.0);
        fflush(stdout);
    }
    if (divide)
        print_divide(v, &p, depth, flags);
    return EXIT_OK;
}
