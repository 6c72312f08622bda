#!/usr/bin/env python3
"""Query figures on one large table (BENCHMARKS.md, "2×7"): for each binary given, side by
side in one run,

  * a batch of COUNT random puzzles through `distance` and through `path`, whole process
    (median of --runs runs);
  * each of the first SINGLE puzzles as its own process (`distance`, then `path`): the mean
    and the maximum wall time per puzzle, open included, as a user asking one question sees it.

The puzzles are drawn with `slidetable random --board B --count COUNT --seed SEED` (uniform over
the solvable layouts, no table needed), so a run is reproducible. Every binary's answers are
compared: a figure is printed only when all binaries printed the same bytes.

    python3 scripts/bench-table.py --table /big/2x7.slt --board 2x7 \\
        --binary old=./slidetable-old --binary new=target/release/slidetable
"""

import argparse
import statistics
import subprocess
import sys
import time


def run(cmd, stdin_bytes):
    start = time.perf_counter()
    done = subprocess.run(cmd, input=stdin_bytes, capture_output=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"bench-table: {' '.join(cmd)} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return wall, done.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--table", required=True)
    ap.add_argument("--board", required=True)
    ap.add_argument("--binary", action="append", required=True, help="NAME=PATH (repeat)")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--single", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()

    binaries = [b.split("=", 1) for b in args.binary]
    if any(len(b) != 2 for b in binaries):
        sys.exit("bench-table: --binary takes NAME=PATH")
    first = binaries[0][1]
    _, puzzles = run([first, "random", "--board", args.board, "--count", str(args.count), "--seed", str(args.seed)], None)
    lines = puzzles.splitlines(keepends=True)
    print(f"{args.count} puzzles: random --board {args.board} --count {args.count} --seed {args.seed}")

    for command in ("distance", "path"):
        walls = {name: [] for name, _ in binaries}
        outputs = {}
        for _ in range(args.runs):
            for name, path in binaries:  # alternately, so load falls on every binary alike
                wall, out = run([path, command, "--table", args.table], puzzles)
                walls[name].append(wall)
                outputs[name] = out
        if len(set(outputs.values())) != 1:
            sys.exit(f"bench-table: the binaries' {command} answers differ")
        for name, _ in binaries:
            print(f"{command} batch of {args.count}, {name}: median {statistics.median(walls[name]):.3f} s of {args.runs} runs")

        per = {name: [] for name, _ in binaries}
        for line in lines[: args.single]:
            answers = set()
            for name, path in binaries:
                wall, out = run([path, command, "--table", args.table], line)
                per[name].append(wall)
                answers.add(out)
            if len(answers) != 1:
                sys.exit(f"bench-table: the binaries' {command} answers differ on {line.decode().strip()}")
        for name, _ in binaries:
            times = per[name]
            print(f"{command} one puzzle a process, {name}: mean {statistics.mean(times) * 1000:.1f} ms, "
                  f"max {max(times) * 1000:.1f} ms over {len(times)} puzzles")


if __name__ == "__main__":
    main()
