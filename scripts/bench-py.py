#!/usr/bin/env python3
"""Times the Python package against its targets (BENCHMARKS.md, "The Python package"):

  * 1,000,000 3x3 puzzles in a uint8 array -> distances (`Table.distance`), and the first
    100,000 of them -> paths (`Table.path`), each beside the command on the same puzzles;
  * `slidetable.dataset("3x3")`, every state with its distance and first move;
  * Korf's 100 instances solved by `Fifteen.solve_many` beside the command
    (`slidetable path --table PDB --goal G` on the same 100 lines), run after run alternately.

Each figure is the median of --runs runs, wall clock, with the process's CPU time beside it
(both threads of the batch count; `RAYON_NUM_THREADS=1` holds the package and the command to one
thread each, as issue 41's target 4 compares them). Run it with the package installed (pip install
./crates/slidetable-py) and the command built (cargo build --release -p slidetable-cli):

    python3 scripts/bench-py.py --pdb ~/.cache/slidetable/4x4.slt --runs 11
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

import slidetable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KORF_GOAL = " ".join(map(str, range(16)))


def timed(f):
    """(wall seconds, CPU seconds of this process) of one call of f."""
    wall, cpu = time.perf_counter(), time.process_time()
    f()
    return time.perf_counter() - wall, time.process_time() - cpu


def child(command, text):
    """(wall seconds, CPU seconds) of the command run on `text`, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, input=text, stdout=subprocess.DEVNULL, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median(pairs):
    return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--pdb", help="the 7-8 pattern database (slidetable generate --board 4x4)")
    parser.add_argument("--cli", default=os.path.join(ROOT, "target", "release", "slidetable"))
    args = parser.parse_args()

    table = slidetable.Table.default("3x3")
    data = slidetable.dataset("3x3")
    rng = np.random.default_rng(1)
    puzzles = np.ascontiguousarray(data.states[rng.integers(0, len(data.states), 1_000_000)])
    rows = []

    # The command on the same puzzles as text, alternately with the package, for the ratio.
    lines = "".join(" ".join(map(str, row)) + "\n" for row in puzzles)
    package, command = [], []
    for _ in range(args.runs):
        package.append(timed(lambda: table.distance(puzzles)))
        command.append(child([args.cli, "distance", "--table", table.file], lines))
    p, c = median(package), median(command)
    rows.append(("1,000,000 puzzles -> `Table.distance` (uint8 array)", *p,
                 f"<= 1.5x: {p[0] / c[0]:.2f}x the command"))
    rows.append(("1,000,000 puzzles -> `slidetable distance --table` (text, whole process)", *c,
                 "1.00x"))
    few = np.ascontiguousarray(puzzles[:100_000])
    few_lines = "".join(lines.splitlines(keepends=True)[:100_000])
    package, command = [], []
    for _ in range(args.runs):
        package.append(timed(lambda: table.path(few)))
        command.append(child([args.cli, "path", "--table", table.file], few_lines))
    p, c = median(package), median(command)
    rows.append(("100,000 puzzles -> `Table.path` (uint8 array, strings)", *p,
                 f"<= 2x: {p[0] / c[0]:.2f}x the command"))
    rows.append(("100,000 puzzles -> `slidetable path --table` (text, whole process)", *c,
                 "1.00x"))
    runs = [timed(lambda: slidetable.dataset("3x3")) for _ in range(args.runs)]
    rows.append(('`dataset("3x3")` (181,440 rows)', *median(runs), "<= 50 ms"))

    if args.pdb:
        korf = np.loadtxt(os.path.join(ROOT, "data", "korf100.txt"), dtype=np.int64,
                          comments="#")[:, 3:]
        text = "".join(" ".join(map(str, row)) + "\n" for row in korf)
        opened = []
        first_open = timed(lambda: opened.append(slidetable.Fifteen.open(args.pdb)))
        fifteen = opened[0]
        expected = subprocess.run([args.cli, "path", "--table", args.pdb, "--goal", KORF_GOAL],
                                  input=text, capture_output=True, text=True,
                                  check=True).stdout.splitlines()
        assert list(fifteen.solve_many(korf, goal=KORF_GOAL)) == expected, "answers differ"
        python, command, python_open = [], [], []
        for _ in range(args.runs):
            python.append(timed(lambda: fifteen.solve_many(korf, goal=KORF_GOAL)))
            python_open.append(timed(lambda: slidetable.Fifteen.open(args.pdb).solve_many(
                korf, goal=KORF_GOAL)))
            command.append(child([args.cli, "path", "--table", args.pdb, "--goal", KORF_GOAL],
                                 text))
        p, c = median(python), median(command)
        rows.append(("Korf's 100: `Fifteen.solve_many` (database open)", *p,
                     f"{p[0] / c[0]:.2f}x the command"))
        po = median(python_open)
        rows.append(("Korf's 100: `Fifteen.open` + `solve_many`", *po,
                     f"{po[0] / c[0]:.2f}x the command"))
        rows.append(("Korf's 100: `slidetable path --table` (whole process)", *c, "1.00x"))
        print(f"first Fifteen.open of {args.pdb}: {first_open[0] * 1e3:.1f} ms", file=sys.stderr)

    print(f"| what | wall (median of {args.runs}) | CPU | target / ratio |")
    print("|---|---:|---:|---|")
    for what, wall, cpu, target in rows:
        cpu_text = f"{cpu * 1e3:.1f} ms" if cpu is not None else "-"
        print(f"| {what} | {wall * 1e3:.1f} ms | {cpu_text} | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
