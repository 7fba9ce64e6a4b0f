/* damero: endgame tablebases for draughts. */
#include <stdlib.h>
#include <unistd.h>

#include "cli/commands.h"

/* OpenMP threads that wait at a barrier spin by default, burning a core each: on a
 * machine shared with other jobs that doubles the CPU time of a build and slows the
 * threads still working. The OpenMP runtime reads its waiting policy from the environment
 * once, as the program loads, so unless the user chose one (OMP_WAIT_POLICY, or GNU's
 * GOMP_SPINCOUNT), set passive waiting and start the program again. Tables do not depend
 * on it. If the program cannot be started again, it carries on with the default policy. */
static void prefer_passive_waits(char **argv)
{
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT"))
        return;
    if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    unsetenv("OMP_WAIT_POLICY"); /* not restarted: the policy is still the default */
}

int main(int argc, char **argv)
{
    if (argc >= 2 && command_is_threaded(argv[1]))
        prefer_passive_waits(argv);
    return run_damero(argc, argv);
}
