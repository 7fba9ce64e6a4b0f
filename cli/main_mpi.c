/* damero-mpi: `damero gen` shared by the processes of an MPI job (docs/cluster.md).
 *
 *   mpirun -np N damero-mpi --variant russian --pieces 6 --dir /shared/tables
 *
 * takes the options of `damero gen`. Each process builds the materials of each wave that
 * are dealt to it (gen/deal.h) with the one solver, into the shared folder; all of them
 * wait for one another between waves. A second program rather than an option of `damero`,
 * so that the `damero` command and libdamero never need the MPI runtime. */
#include <fcntl.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/threads.h"
#include "gen/build.h"

/* Process 0 speaks for the job until the build starts: what can go wrong before (the
 * arguments, the plan, the memory budget, the shared folder) is the same in every
 * process, and so would be their messages. The other processes' stderr goes to
 * /dev/null until then (quiet_stderr keeps it); their stdout for good, as process 0
 * prints the job's summary. */
struct job {
    int quiet_stderr; /* -1 once stderr is restored */
    bool started;     /* the build has started: the processes have waited for all once */
};

static void silence(int fd)
{
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, fd);
        close(null);
    }
}

static void speak_again(struct job *job)
{
    if (job->quiet_stderr < 0)
        return;
    dup2(job->quiet_stderr, STDERR_FILENO);
    close(job->quiet_stderr);
    job->quiet_stderr = -1;
}

#define WAIT_STEP_MS 10

static void wait_for_all(void *ctx)
{
    struct job *job = ctx;
    job->started = true;
    speak_again(job); /* from the first wait on, each process's errors are its own */
    /* Not MPI_Barrier, which polls: a process waits here for the wave's largest material,
     * minutes or hours on a cluster, and would burn a core that a process beside it on
     * the machine could use. Asked every WAIT_STEP_MS instead. */
    MPI_Request barrier;
    int done = 0;
    struct timespec step = { .tv_nsec = WAIT_STEP_MS * 1000000L };
    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
    while (MPI_Test(&barrier, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        nanosleep(&step, NULL);
}

static void combine(void *ctx, double *sums, int n_sums, double *most, int n_most)
{
    (void)ctx;
    if (n_sums > 0)
        MPI_Allreduce(MPI_IN_PLACE, sums, n_sums, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (n_most > 0)
        MPI_Allreduce(MPI_IN_PLACE, most, n_most, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

/* The job's processes on this machine, which share its memory. */
static int processes_on_this_machine(void)
{
    MPI_Comm local;
    int count = 1;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) ==
        MPI_SUCCESS) {
        MPI_Comm_size(local, &count);
        MPI_Comm_free(&local);
    }
    return count;
}

int main(int argc, char **argv)
{
    threads_prefer_passive_waits(argv);
    int provided; /* only the main thread calls MPI: OpenMP's threads solve */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    struct job job = { .quiet_stderr = -1 };
    struct build_ranks ranks = { .wait_for_all = wait_for_all, .combine = combine,
                                 .ctx = &job };
    MPI_Comm_rank(MPI_COMM_WORLD, &ranks.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks.count);
    ranks.on_this_machine = processes_on_this_machine();
    if (ranks.rank > 0) {
        fflush(stdout);
        silence(STDOUT_FILENO);
        job.quiet_stderr = dup(STDERR_FILENO);
        silence(STDERR_FILENO);
    }
    /* argv[0] stands for the subcommand, as `damero gen` has it */
    int status = cmd_gen_shared(argc, argv, &ranks);
    fflush(stdout);
    speak_again(&job);
    if (status == EXIT_USAGE || status == EXIT_OK) { /* the same in every process */
        MPI_Finalize();
        return status;
    }
    /* Before the start, process 0 has said why (the others' messages would be the same);
     * the others may be waiting for it, so the job is ended all the same. */
    if (job.started)
        fprintf(stderr, "damero-mpi: process %d of %d failed: ending the job; run the same "
                "command again to resume from the tables finished\n", ranks.rank, ranks.count);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, status);
    return status;
}
