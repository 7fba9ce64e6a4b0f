"""bench/cluster_model.py: its waves and its deal are the program's (gen/deal.c) on the
plan `damero gen --estimate --json` prints, and its time of whole materials is the sum
of each wave's slowest process on a plan made by hand.

usage: test_cluster_model.py DAMERO [DAMERO_MPI]
With DAMERO_MPI (an MPI build), the deal is compared with what damero-mpi deals to 3
processes under mpirun; without, with the 1 process of damero gen."""
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree's bench/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
import cluster_model  # noqa: E402

NO_BYTES = {"node": 1e9, "aggregate": 1e10, "bits": 0}


def material(cpu, reads=()):
    return {"positions": 2 * cpu, "found": False, "cpu_seconds": cpu,
            "reads": list(reads), "memory_bytes": cpu, "solving_bytes": cpu}


def test_wave_maxima():
    # wave 1 dealt the largest first to the least loaded of 2: 4 to process 0, 3 to
    # process 1, then 2 to process 1 (3 < 4): its slowest is process 1 with 5
    plan = {"materials": [material(10), material(4, [0]), material(3, [0]),
                          material(2, [0]), material(7, [1, 2])]}
    assert cluster_model.waves_of(plan["materials"]) == [0, 1, 1, 1, 2]
    assert cluster_model.deal(plan["materials"], 2) == [0, 0, 1, 1, 0]
    seconds, moved, memory, critical = cluster_model.whole(plan, 2, 1, 2, NO_BYTES)
    assert seconds == 10 + 5 + 7, seconds
    assert (moved, memory, critical) == (0, 10, 10)
    # with 1 process every wave is its sum
    assert cluster_model.whole(plan, 1, 1, 1, NO_BYTES)[0] == 10 + 9 + 7


def test_reads_only_what_another_process_built():
    net = {"node": 1.0, "aggregate": 1e12, "bits": 8}  # a byte a position, a byte a second
    plan = {"materials": [material(0), material(0), material(0, [0, 1])]}
    plan["materials"][0]["positions"] = 100
    plan["materials"][1]["positions"] = 10
    # 2 processes: material 0 (the larger) on process 0, 1 on process 1, and material 2 on
    # process 0, which reads 1's 10 bytes; each writes its own
    seconds, moved = cluster_model.whole(plan, 2, 1, 2, net)[:2]
    assert moved == 100 + 10 + 10, moved
    assert seconds == 100 + 10, seconds


def test_not_a_plan():
    model = cluster_model.__file__
    for stdin in ("{}", "not json"):
        run = subprocess.run([sys.executable, model, "-"], input=stdin, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        assert run.returncode == 1 and "--estimate --json > plan.json" in run.stderr, run


def plan_of(command):
    out = subprocess.run(command, check=True, stdout=subprocess.PIPE, timeout=600).stdout
    return json.loads(out)


def test_program_plan(damero, damero_mpi):
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--variant", "russian", "--pieces", "5", "--threads", "1", "--estimate",
                "--json", "--dir", tmp]
        if damero_mpi:
            plan = plan_of(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", "3",
                            damero_mpi, *args])
        else:
            plan = plan_of([damero, "gen", *args])
    materials = plan["materials"]
    assert len(materials) == 45 and plan["processes"] == (3 if damero_mpi else 1)
    waves = cluster_model.waves_of(materials)
    assert waves == [m["wave"] for m in materials]
    assert max(waves) == 14  # docs/cluster.md: 15 waves
    owners = cluster_model.deal(materials, plan["processes"])
    assert owners == [m["process"] for m in materials]
    assert len(set(owners)) == plan["processes"]
    # the model's time is what the plan's processor seconds give on one process
    seconds = cluster_model.whole(plan, 1, 1, 1, NO_BYTES)[0]
    assert abs(seconds - plan["cpu_seconds"]) < 1e-6 * seconds, (seconds, plan["cpu_seconds"])


def main():
    damero = sys.argv[1]
    damero_mpi = sys.argv[2] if len(sys.argv) > 2 else None
    test_wave_maxima()
    test_reads_only_what_another_process_built()
    test_not_a_plan()
    test_program_plan(damero, damero_mpi)
    print("cluster_model: ok")


if __name__ == "__main__":
    main()
