#!/usr/bin/env bash
# Whole-process timings for BENCHMARKS.md, measured side by side in one run.
#
#   scripts/bench.sh            # everything (a few minutes)
#   scripts/bench.sh --quick    # fewer runs
#
# Needs: cargo, python3, gcc/g++ (for the seed programs), hyperfine, /usr/bin/time.
# Results: target/bench/*.md (hyperfine tables) and a summary on stdout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

runs=10
slow_runs=3
if [ "${1:-}" = "--quick" ]; then
    runs=3
    slow_runs=1
fi
for tool in hyperfine python3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is required (apt-get install $tool)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is required (apt-get install time)" >&2; exit 1; }

cargo build --release -q -p slidetable-cli
bash scripts/seeds/build.sh >/dev/null
st=$root/target/release/slidetable
seeds=$root/target/seeds/bin
work=$root/target/bench
mkdir -p "$work"
table=$work/3x3.slt

echo "== machine"
echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GiB"
echo "slidetable $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(rustc --version)"

echo "== inputs (seeded, reproducible)"
gen() { # name count seed format [flags...]
    local out=$work/$1; shift
    [ -s "$out" ] || python3 scripts/puzzles.py --count "$1" --seed "$2" --format "$3" "${@:4}" > "$out"
}
gen 1m.txt 1000000 1 line --solvable-only
gen 1m.hiho 1000000 1 hiho --solvable-only
gen 100k.x 100000 2 x --solvable-only
gen 100k.hdu3567 100000 3 hdu3567 --goal-random --solvable-only
[ -s "$work/4k.x" ] || head -n 4000 "$work/100k.x" > "$work/4k.x"
[ -s "$work/5m.txt" ] || for _ in 1 2 3 4 5; do cat "$work/1m.txt"; done > "$work/5m.txt"
wc -l "$work"/1m.txt "$work"/5m.txt "$work"/100k.x | sed 's/^/  /'

echo "== generate (whole process, 9 sections, includes fsync)"
hyperfine -N --warmup 1 --runs "$runs" --export-markdown "$work/generate.md" \
    "$st generate -o $table"

echo "== distance and path over 1,000,000 puzzles; the seed's HihoCoder program on the same puzzles"
hyperfine -N --warmup 1 --runs "$runs" --export-markdown "$work/batch.md" \
    "$st distance --table $table $work/1m.txt" \
    "$st path --table $table $work/1m.txt" \
    "$st path --order dlru --table $table $work/1m.txt"
hyperfine --warmup 1 --runs "$slow_runs" --export-markdown "$work/vs-hiho.md" \
    "$st distance --table $table $work/1m.txt > /dev/null" \
    "$seeds/hiho1312_dijkstra < $work/1m.hiho > /dev/null"

echo "== distance --goal vs distance"
hyperfine -N --warmup 1 --runs "$runs" --export-markdown "$work/goal.md" \
    "$st distance --table $table $work/1m.txt" \
    "$st distance --table $table --goal 123804765 $work/1m.txt"

# The seed's bidirectional BFS never clears its state between cases: its fixed arrays fill
# up and it hangs after about 5,000 cases in one run (with this input, at case 5,000). So the
# side by side runs on the first 4,000 puzzles, and ours alone on all 100,000 below.
echo "== judge hdu1043 vs the seed's bidirectional BFS (000_*), same 4,000 puzzles"
hyperfine --warmup 1 --runs "$runs" --export-markdown "$work/vs-dbfs.md" \
    "$st judge hdu1043 --table $table < $work/4k.x > /dev/null" \
    "$seeds/hdu1043_dbfs < $work/4k.x > /dev/null"

echo "== judge hdu1043 over 100,000 puzzles, judge hdu3567 over 100,000 pairs"
hyperfine --warmup 1 --runs "$runs" --export-markdown "$work/judges.md" \
    "$st judge hdu1043 --table $table < $work/100k.x > /dev/null" \
    "$st judge hdu3567 --table $table < $work/100k.hdu3567 > /dev/null"

echo "== search methods vs the table, the same 200 puzzles (whole process, all puzzles in one run)"
[ -s "$work/200.txt" ] || head -n 200 "$work/1m.txt" > "$work/200.txt"
cmds=()
for m in bfs bidir dijkstra; do cmds+=("$st search --method $m $work/200.txt"); done
for m in astar idastar; do
    for h in manhattan linear-conflict; do cmds+=("$st search --method $m --heuristic $h $work/200.txt"); done
done
hyperfine -N --warmup 1 --runs "$slow_runs" --export-markdown "$work/search.md" \
    "$st distance --table $table $work/200.txt" "$st path --table $table $work/200.txt" "${cmds[@]}"

# The seeds' A* and IDA* read one puzzle per process; so do ours here. Puzzles of at most 22
# moves: the seed's IDA* takes seconds to minutes on the deepest ones.
echo "== our A*/IDA* vs the seeds' (002_*), one process per puzzle, 50 puzzles of <= 22 moves"
if [ ! -s "$work/50.x" ]; then
    # `head` closes the pipe early; that is not a failure here.
    set +o pipefail
    paste -d' ' <("$st" distance --table "$table" "$work/1m.txt" | head -n 20000) <(head -n 20000 "$work/1m.txt") \
        | awk '$1 <= 22 { $1 = ""; sub(/^ /, ""); print }' | head -n 50 | sed 's/\b0\b/x/' > "$work/50.x"
    set -o pipefail
fi
per_puzzle() { # command...
    while IFS= read -r line; do echo "$line" | "$@" > /dev/null; done < "$work/50.x"
}
export -f per_puzzle
export work
# bash, not sh: the loop is an exported bash function.
hyperfine --shell bash --warmup 1 --runs "$slow_runs" --export-markdown "$work/vs-seed-search.md" \
    "per_puzzle $st search --method astar" \
    "per_puzzle $st search --method idastar" \
    "per_puzzle $seeds/poj1077_astar" \
    "per_puzzle $seeds/poj1077_idastar"

echo "== peak memory of distance (table: $(stat -c %s "$table") bytes)"
for f in 1m.txt 5m.txt; do
    rss=$( { /usr/bin/time -v "$st" distance --table "$table" "$work/$f" > /dev/null; } 2>&1 \
        | awk -F': ' '/Maximum resident set size/ {print $2}')
    echo "  distance $f: peak RSS ${rss} KiB"
done
rss=$( { /usr/bin/time -v "$seeds/hiho1312_dijkstra" < "$work/1m.hiho" > /dev/null; } 2>&1 \
    | awk -F': ' '/Maximum resident set size/ {print $2}')
echo "  hiho1312_dijkstra 1m: peak RSS ${rss} KiB"

echo "== tables"
for f in generate batch vs-hiho goal vs-dbfs judges search vs-seed-search; do
    echo
    cat "$work/$f.md"
done
