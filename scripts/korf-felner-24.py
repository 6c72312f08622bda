#!/usr/bin/env python3
"""Korf and Felner's 24-puzzle instances (data/korf-felner-24.txt) solved one after another by
`slidetable search --method idastar --board 5x5` on the 6-6-6-6 databases, each within
--timeout seconds: a Markdown row per instance (docs/SEARCH.md, "The 24-puzzle") with our
length, expanded and generated nodes and time beside the published length and nodes, and the
ratio of our generated nodes to theirs. A length that differs from the published one stops the
run with exit 1; an instance past its time limit gets a row with the bound it proved.

    python3 scripts/korf-felner-24.py --table 5x5.slp --instances 40,1 --timeout 600
"""

import argparse
import json
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="target/release/slidetable")
    ap.add_argument("--table", required=True, help="the 6-6-6-6 file of generate --board 5x5")
    ap.add_argument("--data", default="data/korf-felner-24.txt")
    ap.add_argument("--instances", default="", help="comma-separated numbers (default: all)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per instance")
    args = ap.parse_args()

    rows = {}
    with open(args.data) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.split()
            rows[int(fields[0])] = (int(fields[1]), int(fields[2]), " ".join(fields[3:]))
    wanted = [int(x) for x in args.instances.split(",") if x] or sorted(rows)

    print("| # | length | published | expanded | generated | time (s) | published nodes | generated / published |")
    print("|---|---|---|---|---|---|---|---|")
    for no in wanted:
        length, nodes, puzzle = rows[no]
        cmd = [args.binary, "search", "--method", "idastar", "--board", "5x5", "--table",
               args.table, "--json", "--stats", "--timeout", str(args.timeout)]
        done = subprocess.run(cmd, input=puzzle + "\n", capture_output=True, text=True)
        if done.returncode == 1 and done.stdout.strip() == "unknown":
            note = done.stderr.strip().splitlines()[-1]
            print(f"| {no} | — | {length} | | | > {args.timeout:.0f} | {nodes:,} | {note} |", flush=True)
            continue
        if done.returncode != 0:
            sys.exit(f"korf-felner-24: instance {no}: exit {done.returncode}: {done.stderr}")
        record = json.loads(done.stdout)
        stats = record["stats"]
        if record["distance"] != length:
            print(f"| {no} | {record['distance']} | {length} | LENGTH DIFFERS |", flush=True)
            sys.exit(1)
        print(
            f"| {no} | {record['distance']} | {length} | {stats['expanded']:,} | "
            f"{stats['generated']:,} | {stats['milliseconds'] / 1e3:.1f} | {nodes:,} | "
            f"{stats['generated'] / nodes:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
