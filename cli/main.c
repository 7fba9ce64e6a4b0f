/* damero: endgame tablebases for draughts. */
#include "cli/commands.h"
#include "cli/threads.h"

int main(int argc, char **argv)
{
    if (argc >= 2 && command_is_threaded(argv[1]))
        threads_prefer_passive_waits(argv);
    return run_damero(argc, argv);
}
