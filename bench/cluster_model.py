#!/usr/bin/env python3
"""A model of a damero-mpi build on a cluster: how long it takes, how much memory each
process needs and how many bytes cross the network, on N processes of T threads.

It replays the plan that `damero gen --estimate --json` prints (the materials in building
order, their positions, successors, memory need and processor seconds at the rates
measured by the estimate's calibration) in one of two modes:

  whole   what damero-mpi does today (gen/deal.c): each wave's materials dealt out, the
          largest first, each to the process with the least work of the wave so far; a
          process reads its materials' successors from the shared file system unless it
          built them, solves, writes the files; the wave ends when its slowest process
          ends (a barrier).
  ranges  the design (docs/how-it-works.md, "Beyond one machine"): every material's
          levels split over all N processes, so that a material takes its processor time
          over N * T threads, plus an exchange of its values (2 bits a position) per
          level at the network's bandwidth, plus every process reading its successors.

Assumptions (stated in bench/RESULTS.md and docs/cluster.md): a thread does the work of
one calibration thread (the same processor, a core to itself, no slowdown of tables
outgrowing the caches); the file system and the network move bytes at the stated
bandwidths with no latency; a finished WDL file takes --bits-per-position bits.

    damero gen --variant russian --pieces 8 --metrics wdl --estimate --json > plan.json
    bench/cluster_model.py plan.json --processes 16 64 256 --threads 32
"""
import argparse
import json
import sys

GB = 1e9


def deal(materials, processes):
    """The owner of each material, as gen/deal.c deals them: each wave's materials in
    order of work (the larger first, the earlier on a tie) to the process with the least
    work of that wave so far (the lowest numbered on a tie)."""
    owner = [0] * len(materials)
    for items in wave_items(materials):
        load = [0.0] * processes
        for k in sorted(items, key=lambda k: (-work(materials[k]), k)):
            least = min(range(processes), key=lambda p: (load[p], p))
            owner[k] = least
            load[least] += work(materials[k])
    return owner


FOUND_SHARE = 0.05  # gen/deal.c: a table found on disk is only read and checked


def work(m):
    return m["positions"] / 2 * (FOUND_SHARE if m["found"] else 1)


def waves_of(materials):
    """The wave of each material, as gen/deal.c cuts them: a wave ends before the first
    material that reads one of it."""
    wave, current, start = [], 0, 0
    for k, m in enumerate(materials):
        if any(r >= start for r in m["reads"]):
            current, start = current + 1, k
        wave.append(current)
    return wave


def wave_items(materials):
    """The materials of each wave, in the plan's order."""
    waves = []
    for k, w in enumerate(waves_of(materials)):
        if w == len(waves):
            waves.append([])
        waves[w].append(k)
    return waves


def file_bytes(m, bits):
    return m["positions"] * bits / 8


def whole(plan, processes, threads, cores, net):
    """Whole materials per process: (seconds, bytes moved, memory per process, the
    critical path: the largest material's own time)."""
    materials = plan["materials"]
    owner = deal(materials, processes)
    seconds = moved = 0.0
    memory = [0.0] * processes
    for items in wave_items(materials):
        busy = [0.0] * processes
        wave_bytes = wave_cpu = 0.0
        for k in items:
            m, p = materials[k], owner[k]
            read = sum(file_bytes(materials[r], net["bits"]) for r in m["reads"]
                       if owner[r] != p)
            written = 0 if m["found"] else file_bytes(m, net["bits"])
            busy[p] += m["cpu_seconds"] / threads + (read + written) / net["node"]
            wave_bytes += read + written
            wave_cpu += m["cpu_seconds"]
            memory[p] = max(memory[p], m["memory_bytes"])
        # the slowest process; or all the cores, when the job has fewer than threads
        # (the processes waiting at the barrier sleep, leaving theirs); or the file system
        seconds += max(max(busy), wave_cpu / cores, wave_bytes / net["aggregate"])
        moved += wave_bytes
    largest = max(materials, key=lambda m: m["cpu_seconds"])
    return seconds, moved, max(memory), largest["cpu_seconds"] / threads


def ranges(plan, processes, threads, cores, net):
    """Each material split over every process, one after another: its processor time
    over all the job's cores (threads: as whole's, unused), every process reading its successors' files, and its values (2
    bits a position) exchanged once per level, each process receiving the others' share.
    Memory: the successors held whole, the table being solved shared out."""
    seconds = moved = memory = 0.0
    for m in plan["materials"]:
        succ = sum(file_bytes(plan["materials"][r], net["bits"]) for r in m["reads"])
        read_time = max(succ / net["node"], processes * succ / net["aggregate"])
        exchange = m["positions"] / 4 * (processes - 1) / processes  # per process
        write = 0 if m["found"] else file_bytes(m, net["bits"])
        seconds += (m["cpu_seconds"] / cores + read_time +
                    exchange / net["node"] + write / net["aggregate"])
        moved += processes * (succ + exchange) + write
        held = m["memory_bytes"] - m["solving_bytes"]
        memory = max(memory, held + m["solving_bytes"] / processes)
    largest = max(plan["materials"], key=lambda m: m["cpu_seconds"])
    return seconds, moved, memory, largest["cpu_seconds"] / cores


def duration(seconds):
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 60:.1f} min" if seconds >= 60 else f"{seconds:.1f} s"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("plan", help="the output of damero gen --estimate --json ('-': stdin)")
    ap.add_argument("--processes", type=int, nargs="+", default=[16, 64, 256])
    ap.add_argument("--threads", type=int, default=32, help="threads per process (32)")
    ap.add_argument("--node-bandwidth", type=float, default=1.0,
                    help="GB/s a process reads and writes the shared files and the "
                         "network at (1)")
    ap.add_argument("--aggregate-bandwidth", type=float, default=10.0,
                    help="GB/s the shared file system gives all processes together (10)")
    ap.add_argument("--bits-per-position", type=float, default=0.26,
                    help="bits of a finished WDL file per position (0.26: russian 7 "
                         "pieces; international 6: 0.16)")
    ap.add_argument("--cores", type=int, default=0,
                    help="the cores the whole job has, when fewer than processes x threads "
                         "(a test on one machine; 0: a core for every thread)")
    ap.add_argument("--json", action="store_true", help="one JSON line per row")
    a = ap.parse_args()
    if min(a.processes) < 1 or a.threads < 1 or a.cores < 0:
        sys.exit("cluster_model: --processes and --threads count from 1, --cores from 0 "
                 "(0: a core for every thread)")
    try:
        with open(a.plan) if a.plan != "-" else sys.stdin as f:
            plan = json.load(f)
        plan["materials"][0]["cpu_seconds"]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        sys.exit(f"cluster_model: {a.plan} is not a plan ({e}): make one with damero gen "
                 "--variant V --pieces P --estimate --json > plan.json")
    net = {"node": a.node_bandwidth * GB, "aggregate": a.aggregate_bandwidth * GB,
           "bits": a.bits_per_position}
    print(f"{plan['variant']} {plan['metrics']}: {len(plan['materials'])} materials, "
          f"{sum(m['positions'] for m in plan['materials']):.3g} positions, "
          f"{duration(plan['cpu_seconds'])} of processor time; {a.threads} threads a process")
    for mode, model in (("whole", whole), ("ranges", ranges)):
        for n in a.processes:
            cores = min(a.cores, n * a.threads) if a.cores else n * a.threads
            seconds, moved, memory, critical = model(plan, n, a.threads, cores, net)
            row = {"mode": mode, "processes": n, "seconds": seconds, "bytes_moved": moved,
                   "memory_per_process": memory, "largest_material_seconds": critical}
            if a.json:
                print(json.dumps(row))
            else:
                print(f"{mode:6} {n:4} processes: {duration(seconds):>9}, largest material "
                      f"{duration(critical)}, {memory / GB:.1f} GB a process, "
                      f"{moved / GB:.0f} GB moved")


if __name__ == "__main__":
    main()
