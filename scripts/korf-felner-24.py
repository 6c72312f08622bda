#!/usr/bin/env python3
"""Korf and Felner's 24-puzzle instances (data/korf-felner-24.txt) solved one after another by
`slidetable search --method idastar --board 5x5` on the 6-6-6-6 databases, each within
--timeout seconds and the whole run within --budget seconds: a Markdown row per instance
(docs/SEARCH.md, "The 24-puzzle") with our length, expanded and generated nodes, CPU and wall
time beside the published length and nodes, and the ratio of our generated nodes to theirs;
then the totals over the instances solved. A length that differs from the published one stops
the run with exit 1; an instance past its time limit gets a row with the bound it proved.

    python3 scripts/korf-felner-24.py --table 5x5.slp --instances 40,1 --timeout 600
    python3 scripts/korf-felner-24.py --table 5x5.slp --order published --budget 7200

--order published takes the instances from the fewest published nodes up, so that a run with a
budget solves as many as it can; the default is the file's order.
"""

import argparse
import json
import os
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="target/release/slidetable")
    ap.add_argument("--table", required=True, help="the 6-6-6-6 file of generate --board 5x5")
    ap.add_argument("--data", default="data/korf-felner-24.txt")
    ap.add_argument("--instances", default="", help="comma-separated numbers (default: all)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per instance")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds for the whole run: no instance starts after it, and the one "
                         "running is given only what is left")
    ap.add_argument("--order", choices=["file", "published"], default="file")
    args = ap.parse_args()

    rows = {}
    with open(args.data) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.split()
            rows[int(fields[0])] = (int(fields[1]), int(fields[2]), " ".join(fields[3:]))
    wanted = [int(x) for x in args.instances.split(",") if x] or sorted(rows)
    unknown = [no for no in wanted if no not in rows]
    if unknown:
        sys.exit(f"korf-felner-24: --instances: no instance {unknown[0]} in {args.data}")
    if args.order == "published":
        wanted.sort(key=lambda no: rows[no][1])

    began = time.monotonic()
    solved, generated, published, cpu = 0, 0, 0, 0.0
    print("| # | length | published | expanded | generated | CPU (s) | wall (s) | published nodes | generated / published |")
    print("|---|---|---|---|---|---|---|---|---|")
    for no in wanted:
        limit = args.timeout
        if args.budget is not None:
            left = args.budget - (time.monotonic() - began)
            if left < 1:
                break
            limit = min(limit, left)
        length, nodes, puzzle = rows[no]
        cmd = [args.binary, "search", "--method", "idastar", "--board", "5x5", "--table",
               args.table, "--json", "--stats", "--timeout", f"{limit:.0f}"]
        before = os.times()
        start = time.monotonic()
        done = subprocess.run(cmd, input=puzzle + "\n", capture_output=True, text=True)
        wall = time.monotonic() - start
        after = os.times()
        used = (after.children_user - before.children_user) + (
            after.children_system - before.children_system)
        record = json.loads(done.stdout) if done.stdout.strip() else {}
        if done.returncode == 1 and "error" in record:
            note = record["error"]
            print(f"| {no} | — | {length} | | | {used:.1f} | > {limit:.0f} | {nodes:,} | {note} |",
                  flush=True)
            continue
        if done.returncode != 0:
            sys.exit(f"korf-felner-24: instance {no}: exit {done.returncode}: {done.stderr}")
        stats = record["stats"]
        if record["distance"] != length:
            print(f"| {no} | {record['distance']} | {length} | LENGTH DIFFERS |", flush=True)
            sys.exit(1)
        solved += 1
        generated += stats["generated"]
        published += nodes
        cpu += used
        print(
            f"| {no} | {record['distance']} | {length} | {stats['expanded']:,} | "
            f"{stats['generated']:,} | {used:.1f} | {wall:.1f} | {nodes:,} | "
            f"{stats['generated'] / nodes:.2f} |",
            flush=True,
        )
    if solved:
        print(f"\n{solved} of {len(wanted)} solved in {time.monotonic() - began:.0f} s "
              f"({cpu:.0f} CPU-s): {generated:,} generated against {published:,} published "
              f"({generated / published:.2f}), every length as published.")
    else:
        print(f"\nnone of {len(wanted)} solved in {time.monotonic() - began:.0f} s.")


if __name__ == "__main__":
    main()
