/* A kill -9 at a chosen point of a build, for tests/test_resume.sh: preloaded into
 * `damero gen` (LD_PRELOAD), it lets the build rename its level files into place
 * (MATERIAL.levelNNN, gen/level_file.c) and kills the process with SIGKILL right after the
 * Nth, N from the variable DAMERO_KILL_AT_LEVEL_FILE. A test that polled the folder from the
 * shell and killed the build from outside missed the levels of a small material on a
 * quiet machine (a material's levels can all be written between two polls); this stops
 * it inside a material every time. With DAMERO_KILL_RANK set, only the process of an MPI
 * job (damero-mpi) of that rank is killed (OpenMPI tells each its rank in
 * OMPI_COMM_WORLD_RANK). Nothing in damero knows of it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int rename(const char *from, const char *to)
{
    static int (*real_rename)(const char *, const char *);
    static int renamed;
    if (!real_rename)
        real_rename = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    int result = real_rename(from, to);
    const char *kill_at = getenv("DAMERO_KILL_AT_LEVEL_FILE");
    const char *rank = getenv("DAMERO_KILL_RANK"), *mine = getenv("OMPI_COMM_WORLD_RANK");
    if (rank && (!mine || strcmp(rank, mine) != 0))
        return result;
    if (result == 0 && kill_at && strstr(to, ".level") &&
        __atomic_add_fetch(&renamed, 1, __ATOMIC_SEQ_CST) == atoi(kill_at))
        raise(SIGKILL);
    return result;
}
