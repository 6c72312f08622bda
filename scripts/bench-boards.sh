#!/usr/bin/env bash
# Generation figures for every board up to 12 cells (BENCHMARKS.md, "Boards"): for each board
# the median of RUNS runs of `slidetable generate --board B -o FILE` under /usr/bin/time
# (wall time, peak RSS), states settled per second, the file's size, and the standard goal's
# maximum distance with how many states reach it (from `slidetable info --json`).
# Usage: scripts/bench-boards.sh [BOARD...]   (RUNS=3 by default; extra generate flags in FLAGS)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p slidetable-cli
bin=target/release/slidetable
out=target/bench/boards
mkdir -p "$out"
runs=${RUNS:-3}
boards=("$@")
if [ ${#boards[@]} -eq 0 ]; then
    boards=(2x2 2x3 3x2 2x4 4x2 3x3 2x5 5x2 3x4 4x3 2x6 6x2)
fi
echo "| board | sections x states | encoding | wall (median of $runs) | peak RSS | states/s | file size | max distance (states) |"
echo "|---|---|---|---|---|---|---|---|"
for b in "${boards[@]}"; do
    table="$out/$b.slt"
    for _ in $(seq "$runs"); do
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        /usr/bin/time -f "%M" -o "$out/$b.rss" "$bin" generate --board "$b" ${FLAGS:-} -o "$table" >/dev/null
        echo "$(echo "$(date +%s.%N) - $start" | bc -l) $(cat "$out/$b.rss")" >>"$out/$b.time"
    done
    "$bin" info --json "$table" >"$out/$b.json"
    python3 - "$b" "$out/$b.time" "$out/$b.json" "$runs" <<'PY'
import json, statistics, sys
board, times, info, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = [l.split() for l in open(times) if l.strip()][-runs:]
wall = statistics.median(float(r[0]) for r in rows)
rss = statistics.median(int(r[1]) for r in rows)
d = json.load(open(info))
n = len(d["sections"])
states = d["sections"][0]["entries"]
rows_, cols = map(int, board.split("x"))
standard = list(range(1, rows_ * cols)) + [0]
s = next((s for s in d["sections"] if s["goal"] == standard), d["sections"][-1])
def rate(r):
    return f"{r / 1e6:.1f} M" if r >= 1e6 else f"{r / 1e3:.0f} k"
def sec(t):
    return f"{t:.2f} s" if t >= 1 else f"{t * 1e3:.0f} ms"
spread = f'{sec(min(float(r[0]) for r in rows))}–{sec(max(float(r[0]) for r in rows))}'
print(f'| {board} | {n} x {states:,} | {d["encoding"]} | {sec(wall)} ({spread}) | {rss/1024:.0f} MiB '
      f'| {rate(n * states / wall)} | {d["file_size"]:,} B | {s["max_distance"]} ({s["histogram"][-1]:,}) |')
PY
    rm -f "$out/$b.time" "$out/$b.rss"
done
