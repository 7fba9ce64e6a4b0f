/* damero: endgame tablebases for draughts. */
#include "cli/commands.h"

int main(int argc, char **argv)
{
    return run_damero(argc, argv);
}
