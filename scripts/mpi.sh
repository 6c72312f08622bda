#!/usr/bin/env bash
# The search in parts under MPI (Open MPI's mpirun, one machine, processes oversubscribed):
#
#   scripts/mpi.sh            # CI: 2x5 on 1-4 processes (and on 1 and 3 in 64-bit ranks), the
#                             #     5x5 pattern databases 5-5-5-5-4 on 1-3 (and in 64-bit
#                             #     placement ranks on 2), 4x4
#                             #     and 3x5 within D moves on
#                             #     1-4, 3x5 refused for memory on 2 processes of one
#                             #     machine, 3x4 on 2, a killed run resumed
#                             #     (refused on another number of processes; tables and
#                             #     5x5 5-5-5-5-4), a stopped
#                             #     process ended by the level timeout (tables and 5x5), a second run into a
#                             #     directory in use refused, a --parts directory made or
#                             #     refused, Ctrl-C to mpirun resumed
#                             #     (a table of every state, and one within D moves), and
#                             #     what Ctrl-C to mpirun of a 5x5 build says is kept
#   scripts/mpi.sh --measure [BEFORE]
#                             # docs/SCALE.md: 3x4 on 1, 2 and 4 processes, per-level figures;
#                             # with BEFORE (another slidetable built with the mpi feature),
#                             # each run of it beside a run of this one, $MPI_ROUNDS rounds
#                             # (default 3), medians
#
# Each run's parts are merged and compared byte for byte with `generate` on one process.
# Needs: mpirun and an MPI library (Debian: openmpi-bin libopenmpi-dev), clang (to build
# the mpi crate), cargo, cmp.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
for tool in mpirun cmp; do
    command -v "$tool" >/dev/null || { echo "mpi: $tool is required (apt-get install openmpi-bin libopenmpi-dev clang)" >&2; exit 1; }
done
# Containers run as root; Open MPI refuses root unless told this twice.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# No network interfaces to probe on one machine: shared memory and loopback only, through
# the ob1 layer those transports belong to (without it each process also starts the layers
# for PSM2 and OFI hardware first: 0.25 s a run, 2x3 on -np 2 0.67 -> 0.42 s, docs/SCALE.md).
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
# Each process searches its slice on every core (rayon threads): no binding of a process to
# one core (Open MPI's default for as many processes as cores), and a process waiting in a
# collective call yields its core to the others' threads instead of polling.
export OMPI_MCA_hwloc_base_binding_policy=none OMPI_MCA_mpi_yield_when_idle=1

cargo build --release --locked -q -p slidetable-cli
plain=$root/target/release/slidetable
work=$root/target/mpi-check
rm -rf "$work"
mkdir -p "$work"
cp "$plain" "$work/slidetable"
st=$work/slidetable
cargo build --release --locked -q -p slidetable-cli --features mpi
cp "$root/target/release/slidetable" "$work/slidetable-mpi"
mst=$work/slidetable-mpi
# Leave the ordinary binary in place for whatever runs next (cargo links it again; copying
# over it would write into the mpi build's own file, a hard link to it).
rm -f "$root/target/release/slidetable"
cargo build --release --locked -q -p slidetable-cli

fail() { echo "mpi: $*" >&2; exit 1; }

# generate_parts BOARD NP DIR [ARGS...]: the parts of BOARD from NP processes.
generate_parts() {
    local board=$1 np=$2 dir=$3
    shift 3
    rm -rf "$dir"
    mkdir -p "$dir"
    mpirun --oversubscribe -np "$np" "$mst" generate --board "$board" --parts "$dir" "$@" \
        >"$dir.out" 2>"$dir.err" || { cat "$dir.err" >&2; fail "$board on $np processes failed"; }
}

# same BOARD NP: parts of NP processes merge into the one-process table's bytes.
same() {
    local board=$1 np=$2
    local one=$work/$board.slt dir=$work/$board-$np
    # The standard goal (tiles in order, blank last), the one section a table in parts has.
    local cells=$(( ${board%x*} * ${board#*x} ))
    local goal="$(seq -s ' ' 1 $((cells - 1))) 0"
    [ -f "$one" ] || "$st" generate --board "$board" --encoding 2bit --goal "$goal" -o "$one" >/dev/null
    local start=$(date +%s.%N)
    generate_parts "$board" "$np" "$dir"
    local end=$(date +%s.%N)
    "$st" merge "$dir" -o "$dir.slt" >/dev/null
    cmp "$one" "$dir.slt" || fail "$board on $np processes: merged parts differ from generate"
    printf 'mpi: %s on %d process(es): merged parts identical to generate (%s s)\n' \
        "$board" "$np" "$(awk "BEGIN { printf \"%.1f\", $end - $start }")"
}

if [ "${1:-}" = "--measure" ]; then
    before=${2:-}
    if [ -z "$before" ]; then
        for np in 1 2 4; do
            same 3x4 "$np"
            echo "== 3x4, $np process(es): per level"
            cat "$work/3x4-$np.err"
        done
        exit 0
    fi
    [ -x "$before" ] || fail "$before is not an executable"
    cp "$before" "$work/slidetable-before"
    after=$mst
    # Old and new alternate in each round, so that both see the same load; medians of 3.
    for np in 1 2 4; do
        for round in $(seq 1 "${MPI_ROUNDS:-3}"); do
            for which in before after; do
                if [ "$which" = before ]; then mst=$work/slidetable-before; else mst=$after; fi
                line=$(same 3x4 "$np")
                secs=$(echo "$line" | sed -n 's/.*(\([0-9.]*\) s)$/\1/p')
                echo "$which $np $round $secs" >>"$work/times"
                cp "$work/3x4-$np.err" "$work/3x4-$np-$which.err"
                echo "mpi: 3x4 -np $np round $round $which: $secs s (load $(cut -d' ' -f1 /proc/loadavg))"
            done
        done
    done
    mst=$after
    for np in 1 2 4; do
        for which in before after; do
            median=$(awk -v w="$which" -v n="$np" '$1 == w && $2 == n { print $4 }' "$work/times" \
                | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
            echo "== 3x4, $np process(es), $which: median $median s; per level (last round)"
            cat "$work/3x4-$np-$which.err"
        done
    done
    exit 0
fi

for np in 1 2 3 4; do
    same 2x5 "$np"
done
# same_within BOARD D NP: the states within D moves in parts of NP processes merge into the
# one-process file, and every level is the published count (OEIS A089484 for 4x4, A346737
# for 3x5: crates/slidetable-gen/tests/data/published-levels.txt).
same_within() {
    local board=$1 depth=$2 np=$3
    local one=$work/$board-within-$depth.slt dir=$work/$board-within-$depth-$np
    [ -f "$one" ] || "$st" generate --board "$board" --max-depth "$depth" -o "$one" >/dev/null
    generate_parts "$board" "$np" "$dir" --max-depth "$depth"
    "$st" merge "$dir" -o "$dir.slt" >/dev/null
    cmp "$one" "$dir.slt" || fail "$board within $depth on $np processes: merged parts differ from generate"
    local id=A089484
    [ "$board" = 4x4 ] || id=A346737
    local published got
    published=$(sed -n "s/^$id [^:]*: //p" crates/slidetable-gen/tests/data/published-levels.txt \
        | tr ' ' '\n' | head -n $((depth + 1)) | paste -sd' ')
    got=$("$st" info "$dir" | sed -n 's/^histogram //p')
    [ "$got" = "$published" ] || fail "$board within $depth on $np processes: levels $got, published $published"
    printf 'mpi: %s within %d moves on %d process(es): levels as %s, merged parts identical to generate\n' \
        "$board" "$depth" "$np" "$id"
}
for np in 1 2 3 4; do
    same_within 4x4 16 "$np"
    same_within 3x5 17 "$np"
done

# A process without the memory its slice needs: every process refuses together before the
# search, part 0's process says it once (naming the part and the figures), no MPI abort.
dir=$work/short
rm -rf "$dir"
mkdir -p "$dir"
SLIDETABLE_AVAILABLE_MEMORY=100000000 mpirun --oversubscribe -np 2 -x SLIDETABLE_AVAILABLE_MEMORY \
    "$mst" generate --board 3x4 --parts "$dir" >"$dir.out" 2>"$dir.err" \
    && fail "a run short of memory ended well"
[ "$(grep -c 'search in parts needs' "$dir.err")" = 1 ] \
    || { cat "$dir.err" >&2; fail "short of memory: not one message"; }
grep -q MPI_ABORT "$dir.err" && { cat "$dir.err" >&2; fail "short of memory: MPI's abort"; }
echo "mpi: short of memory on 2 processes: $(grep -m1 'search in parts needs' "$dir.err" | cut -c1-110)..."

# 15 and 16 cells: accepted, and refused on this machine's memory by every process together
# (one message, no MPI abort), the processes MPI puts on one machine sharing its memory, with
# the machines the board takes.
dir=$work/fifteen
rm -rf "$dir"
mkdir -p "$dir"
mpirun --oversubscribe -np 2 "$mst" generate --board 3x5 --parts "$dir" >"$dir.out" 2>"$dir.err" \
    && fail "3x5 on one machine ended well"
[ "$(grep -c 'a process of the 3x5 search in parts needs 122.6 GB of memory (slice entries 81.7 GB' "$dir.err")" = 1 ] \
    || { cat "$dir.err" >&2; fail "3x5: not one message with the figures"; }
grep -q 'shared by 2 processes on this machine' "$dir.err" \
    || { cat "$dir.err" >&2; fail "3x5: the 2 processes on this machine not counted"; }
grep -q 'at least [0-9]* machines with this machine' "$dir.err" \
    || { cat "$dir.err" >&2; fail "3x5: no count of machines"; }
grep -q MPI_ABORT "$dir.err" && { cat "$dir.err" >&2; fail "3x5: MPI's abort"; }
echo "mpi: 3x5 on 2 processes of one machine: $(grep -o 'but .* each' "$dir.err" | head -1)"

# A --parts directory whose parent does not exist, or that is a file: refused before the
# search by every process together, for a table of every state, one within D moves and the
# 24-puzzle's pattern databases alike:
# one message (part 0's), no MPI abort, nothing said of running the command again, exit 1.
# A missing directory whose parent exists is made.
for what in missing file; do
    dir=$work/no-such-dir
    rm -rf "$dir"
    if [ "$what" = file ]; then touch "$dir"; else dir=$dir/deeper; fi
    for args in "--board 2x5" "--board 4x4 --max-depth 10" "--board 5x5 --pdb 4-4-4-4-4-4"; do
        # shellcheck disable=SC2086
        if mpirun --oversubscribe -np 2 "$mst" generate $args --parts "$dir" >"$work/no-dir.out" 2>"$work/no-dir.err"; then
            fail "a $what --parts directory ($args) ended well"
        fi
        [ "$(grep -c '^slidetable: ' "$work/no-dir.err")" = 1 ] \
            || { cat "$work/no-dir.err" >&2; fail "a $what --parts directory ($args): not one message"; }
        grep -q MPI_ABORT "$work/no-dir.err" && { cat "$work/no-dir.err" >&2; fail "a $what --parts directory ($args): MPI's abort"; }
        grep -q 'same command' "$work/no-dir.err" && { cat "$work/no-dir.err" >&2; fail "a $what --parts directory ($args): told to run it again"; }
        grep -q 'part [0-9]* of' "$work/no-dir.err" && { cat "$work/no-dir.err" >&2; fail "a $what --parts directory ($args): said by one part"; }
    done
    echo "mpi: a $what --parts directory on 2 processes: $(head -1 "$work/no-dir.err" | cut -c1-100)"
done
rm -rf "$work/no-such-dir"
mpirun --oversubscribe -np 2 "$mst" generate --board 2x5 --parts "$work/no-such-dir" >/dev/null 2>"$work/no-dir.err" \
    || { cat "$work/no-dir.err" >&2; fail "a --parts directory not made yet: not made"; }
[ -f "$work/no-such-dir/manifest" ] || fail "a --parts directory not made yet: no manifest"
rm -rf "$work/no-such-dir"
echo "mpi: a --parts directory not made yet, on 2 processes: made"

# The search in 64-bit ranks (what 15 and 16 cells take) on 1-3 processes of a small board:
# the same parts, merged into the one-process table's bytes.
for np in 1 3; do
    dir=$work/2x5-wide-$np
    rm -rf "$dir"
    mkdir -p "$dir"
    SLIDETABLE_WIDE_RANKS=1 mpirun --oversubscribe -np "$np" -x SLIDETABLE_WIDE_RANKS \
        "$mst" generate --board 2x5 --parts "$dir" >"$dir.out" 2>"$dir.err" \
        || { cat "$dir.err" >&2; fail "2x5 in 64-bit ranks on $np processes failed"; }
    "$st" merge "$dir" -o "$dir.slt" >/dev/null
    cmp "$work/2x5.slt" "$dir.slt" || fail "2x5 in 64-bit ranks on $np processes: merged parts differ"
    echo "mpi: 2x5 in 64-bit ranks on $np process(es): merged parts identical to generate"
done

# The 24-puzzle's pattern databases in parts: 5-5-5-5-4 on 1-3 processes, and a partition in
# 64-bit placement ranks (what groups of 8 tiles and more take) on 2, merged into the bytes of
# the one-process build.
one25=$work/5x5-55554.slp
"$st" generate --board 5x5 --pdb 5-5-5-5-4 -o "$one25" >/dev/null
for np in 1 2 3; do
    dir=$work/5x5-55554-$np
    rm -rf "$dir"
    mkdir -p "$dir"
    start=$(date +%s.%N)
    mpirun --oversubscribe -np "$np" "$mst" generate --board 5x5 --pdb 5-5-5-5-4 --parts "$dir" \
        >"$dir.out" 2>"$dir.err" || { cat "$dir.err" >&2; fail "5x5 5-5-5-5-4 on $np processes failed"; }
    end=$(date +%s.%N)
    "$st" merge "$dir" -o "$dir.slp" >/dev/null
    cmp "$one25" "$dir.slp" || fail "5x5 5-5-5-5-4 on $np processes: merged parts differ from generate"
    printf 'mpi: 5x5 5-5-5-5-4 on %d process(es): merged parts identical to generate (%s s)\n' \
        "$np" "$(awk "BEGIN { printf \"%.1f\", $end - $start }")"
done
dir=$work/5x5-wide-2
rm -rf "$dir"
mkdir -p "$dir"
"$st" generate --board 5x5 --pdb 4-4-4-4-4-4 -o "$dir.one.slp" >/dev/null
SLIDETABLE_WIDE_RANKS=1 mpirun --oversubscribe -np 2 -x SLIDETABLE_WIDE_RANKS \
    "$mst" generate --board 5x5 --pdb 4-4-4-4-4-4 --parts "$dir" >"$dir.out" 2>"$dir.err" \
    || { cat "$dir.err" >&2; fail "5x5 4-4-4-4-4-4 in 64-bit ranks on 2 processes failed"; }
"$st" merge "$dir" -o "$dir.slp" >/dev/null
cmp "$dir.one.slp" "$dir.slp" || fail "5x5 in 64-bit placement ranks on 2 processes: merged parts differ"
echo "mpi: 5x5 4-4-4-4-4-4 in 64-bit placement ranks on 2 processes: merged parts identical to generate"

# A 12-cell board on 2 processes (1-2 minutes on an idle 2-core machine; 1 and 4 in --measure).
same 3x4 2

# A process killed midway: mpirun ends with an error, no manifest; the same command resumes
# from the last level every part has a checkpoint of (one at the end of every level here),
# into the same bytes.
dir=$work/killed
rm -rf "$dir"
mkdir -p "$dir"
SLIDETABLE_CHECKPOINT_SECONDS=0 mpirun --oversubscribe -np 2 -x SLIDETABLE_CHECKPOINT_SECONDS \
    "$mst" generate --board 2x5 --parts "$dir" >"$dir.out" 2>"$dir.err" &
launcher=$!
state=$dir/part-0001-of-0002.state
for _ in $(seq 1 600); do
    if [ -f "$state" ] && [ "$(sed -n 's/^level //p' "$state" 2>/dev/null || echo 0)" -ge 20 ] 2>/dev/null; then
        break
    fi
    sleep 0.05
done
pid=$(sed -n 's/^pid //p' "$state")
level=$(sed -n 's/^level //p' "$state")
kill -KILL "$pid"
if wait "$launcher"; then fail "mpirun ended well after a process was killed"; fi
[ ! -e "$dir/manifest" ] || fail "a killed run left a manifest"
echo "mpi: process $pid killed at level $level: mpirun failed, no manifest"
# Another number of processes (3, or the plain binary's 1) is refused, naming the count the
# run needs and --restart, and the checkpoints stay.
before=$(ls "$dir" | sort)
for np in 3 1; do
    if [ "$np" = 1 ]; then
        "$st" generate --board 2x5 --parts "$dir" >"$dir.out" 2>"$dir.err" && fail "a run on 1 process resumed 2 parts"
    else
        mpirun --oversubscribe -np "$np" "$mst" generate --board 2x5 --parts "$dir" \
            >"$dir.out" 2>"$dir.err" && fail "a run on $np processes resumed 2 parts"
    fi
    grep -q "it holds an interrupted run in 2 parts .*rerun it on 2 processes to resume it, or add --restart" "$dir.err" \
        || { cat "$dir.err" >&2; fail "-np $np: no refusal naming 2 processes and --restart"; }
    [ "$(ls "$dir" | sort)" = "$before" ] || fail "-np $np changed the interrupted run's files"
done
echo "mpi: the killed run on 3 processes and on 1: refused, its checkpoints kept: $(grep -m1 'interrupted run' "$dir.err" | cut -c1-100)..."
# A short level timeout and an outer one: a resumed run that hangs fails here in a minute.
timeout 300 mpirun --oversubscribe -np 2 "$mst" generate --board 2x5 --parts "$dir" \
    --level-timeout 60 >"$dir.out" 2>"$dir.err" \
    || { cat "$dir.err" >&2; fail "the resumed run failed"; }
grep -q "^resuming from level" "$dir.err" || fail "the rerun did not resume: $(head -3 "$dir.err")"
"$st" merge "$dir" -o "$dir.slt" >/dev/null
cmp "$work/2x5.slt" "$dir.slt" || fail "the resumed run's parts differ from generate"
echo "mpi: $(grep '^resuming' "$dir.err"); merged parts identical to generate"

# One process that cannot go on (its saved state damaged) while the other waits for it in a
# collective call: the run ends at once with its message, not at the level timeout.
dir=$work/damaged
rm -rf "$dir"
mkdir -p "$dir"
generate_parts 2x5 2 "$dir"
rm "$dir/manifest"
printf 'board 2x5\nlevel banana\n' >"$dir/part-0001-of-0002.state"
start=$(date +%s)
if timeout 300 mpirun --oversubscribe -np 2 "$mst" generate --board 2x5 --parts "$dir" \
    >"$dir.out" 2>"$dir.err"; then
    fail "a run with a damaged state file ended well"
fi
took=$(( $(date +%s) - start ))
grep -q "part-0001-of-0002.state" "$dir.err" || { cat "$dir.err" >&2; fail "the damaged state file is not named"; }
[ "$took" -lt 30 ] || fail "a damaged state file ended the run after $took s"
echo "mpi: a damaged state file of part 1: the run ended after ${took} s with: $(grep -m1 'part-0001-of-0002.state' "$dir.err" | cut -c1-110)..."

# A process that stops answering (SIGSTOP): the others end the run after --level-timeout.
dir=$work/stopped
rm -rf "$dir"
mkdir -p "$dir"
mpirun --oversubscribe -np 2 "$mst" generate --board 2x5 --parts "$dir" --level-timeout 3 \
    >"$dir.out" 2>"$dir.err" &
launcher=$!
state=$dir/part-0001-of-0002.state
for _ in $(seq 1 600); do
    [ -f "$state" ] && grep -q '^pid ' "$state" && break
    sleep 0.05
done
# stopped_ends WHAT PID MESSAGE: process PID of the run $launcher (output in $dir.err) is
# stopped; the run must end within a minute, with MESSAGE from another process.
stopped_ends() {
    local what=$1 pid=$2 message=$3
    kill -STOP "$pid"
    local start=$(date +%s)
    if wait "$launcher"; then fail "$what: mpirun ended well with a stopped process"; fi
    took=$(( $(date +%s) - start ))
    kill -KILL "$pid" 2>/dev/null || true
    grep -q "$message" "$dir.err" || { cat "$dir.err" >&2; fail "$what: no timeout message"; }
    [ "$took" -lt 60 ] || fail "$what: the timeout took $took s"
    echo "mpi: a stopped process of $what: the run ended after ${took} s with: $(grep -m1 'level-timeout' "$dir.err" | cut -c1-110)..."
}
stopped_ends "2x5" "$(sed -n 's/^pid //p' "$state")" "did not finish within --level-timeout 3 s"
[ ! -e "$dir/manifest" ] || fail "a stopped run left a manifest"

# The same for the 24-puzzle's pattern databases in parts, which have no levels: the others
# end the run once no placement has been settled for --level-timeout.
dir=$work/stopped25
rm -rf "$dir"
mpirun --oversubscribe -np 2 "$mst" generate --board 5x5 --pdb 5-5-5-5-4 --parts "$dir" \
    --level-timeout 3 >"$dir.out" 2>"$dir.err" &
launcher=$!
pid=
for _ in $(seq 1 600); do
    pid=$(pgrep -P "$launcher" -f 'generate --board 5x5' | tail -1 || true)
    [ -n "$pid" ] && [ -d "$dir" ] && break
    sleep 0.05
done
[ -n "$pid" ] || fail "the 5x5 build in parts did not start"
sleep 0.5
stopped_ends "the 5x5 build" "$pid" "no placement settled within --level-timeout 3 s"

# Ctrl-C to mpirun of a 5x5 build in parts once every part has kept group 0: each process
# names the groups it keeps and its own checkpoints of them, and how to resume.
dir=$work/interrupted25
rm -rf "$dir"
mpirun --oversubscribe -np 2 "$mst" generate --board 5x5 --pdb 5-5-5-5-4 --parts "$dir" \
    >"$dir.out" 2>"$dir.err" &
launcher=$!
for _ in $(seq 1 2400); do
    [ -f "$dir/pattern-part-0-of-2.group-0.checkpoint" ] \
        && [ -f "$dir/pattern-part-1-of-2.group-0.checkpoint" ] && break
    sleep 0.05
done
[ -f "$dir/pattern-part-1-of-2.group-0.checkpoint" ] || fail "the 5x5 build in parts in $dir kept no group"
kill -INT "$launcher"
if wait "$launcher"; then fail "the 5x5 build: mpirun ended well after Ctrl-C"; fi
for k in 0 1; do
    grep -q "part $k of 2: interrupted; groups\? 0[0-9, ]* of the build \(is\|are\) kept in $dir/pattern-part-$k-of-2.group-0.checkpoint.*: run the same command again (on as many processes)" "$dir.err" \
        || { cat "$dir.err" >&2; fail "Ctrl-C to mpirun of a 5x5 build: part $k did not say what it keeps"; }
done
echo "mpi: Ctrl-C to mpirun of a 5x5 build: $(grep -m1 'interrupted' "$dir.err" | cut -c1-120)..."
rm -rf "$dir"

# A process of a 5x5 build in parts killed once every part has kept group 0: mpirun fails and
# no part is written; another number of processes is refused, changing nothing; the same
# command takes the groups every part kept and builds the rest, into the same bytes.
dir=$work/killed25
rm -rf "$dir"
mpirun --oversubscribe -np 2 "$mst" generate --board 5x5 --pdb 5-5-5-5-4 --parts "$dir" \
    >"$dir.out" 2>"$dir.err" &
launcher=$!
kept=$dir/pattern-part-1-of-2.group-0.checkpoint
for _ in $(seq 1 2400); do
    [ -f "$dir/pattern-part-0-of-2.group-0.checkpoint" ] && [ -f "$kept" ] && break
    sleep 0.05
done
[ -f "$kept" ] || fail "the 5x5 build in parts kept no group"
pid=$(grep -a -m1 '^pid ' "$kept" | cut -d' ' -f2)
kill -KILL "$pid"
if wait "$launcher"; then fail "the 5x5 build: mpirun ended well after a process was killed"; fi
! ls "$dir"/pattern-part-*.slp >/dev/null 2>&1 || fail "a killed 5x5 build left part files"
echo "mpi: 5x5 5-5-5-5-4 on 2 processes: process $pid killed after group 0: mpirun failed, no part written"
before=$(ls "$dir" | sort)
if mpirun --oversubscribe -np 3 "$mst" generate --board 5x5 --pdb 5-5-5-5-4 --parts "$dir" \
    >"$dir.out" 2>"$dir.err"; then
    fail "a 5x5 build on 3 processes resumed 2 parts"
fi
grep -q "it holds an interrupted run in 2 parts .*rerun it on 2 processes to resume it, or add --restart" "$dir.err" \
    || { cat "$dir.err" >&2; fail "5x5 on 3 processes: no refusal naming 2 processes and --restart"; }
[ "$(grep -c 'interrupted run' "$dir.err")" = 1 ] || fail "5x5 on 3 processes: not refused once"
[ "$(ls "$dir" | sort)" = "$before" ] || fail "5x5 on 3 processes changed the interrupted build's files"
timeout 300 mpirun --oversubscribe -np 2 "$mst" generate --board 5x5 --pdb 5-5-5-5-4 --parts "$dir" \
    >"$dir.out" 2>"$dir.err" || { cat "$dir.err" >&2; fail "the resumed 5x5 build failed"; }
grep -q "^resuming: took group 0" "$dir.err" || fail "the 5x5 rerun did not resume: $(head -3 "$dir.err")"
"$st" merge "$dir" -o "$dir.slp" >/dev/null
cmp "$one25" "$dir.slp" || fail "the resumed 5x5 build's merged parts differ from generate"
! ls "$dir"/*.checkpoint >/dev/null 2>&1 || fail "the resumed 5x5 build left checkpoints"
echo "mpi: $(grep -m1 '^resuming' "$dir.err" | cut -c1-60)...; merged parts identical to generate"

# Two runs in one directory: the second (on 2 processes, or the plain binary) is refused while
# the first holds the directory's lock, and changes nothing; Ctrl-C to the first's mpirun makes
# its processes say what is kept and how to resume, and the same command resumes it into the
# same bytes.
dir=$work/twice
rm -rf "$dir"
mkdir -p "$dir"
SLIDETABLE_CHECKPOINT_SECONDS=0 mpirun --oversubscribe -np 2 -x SLIDETABLE_CHECKPOINT_SECONDS \
    "$mst" generate --board 3x4 --parts "$dir" >"$dir.out" 2>"$dir.err" &
launcher=$!
state=$dir/part-0001-of-0002.state
for _ in $(seq 1 2400); do
    if [ -f "$state" ] && [ "$(sed -n 's/^level //p' "$state" 2>/dev/null || echo 0)" -ge 20 ] 2>/dev/null; then
        break
    fi
    sleep 0.05
done
[ -f "$state" ] || fail "the first run in $dir wrote no state"
"$st" generate --board 3x4 --parts "$dir" >"$dir.second.out" 2>"$dir.second.err" \
    && fail "a second run into a locked directory ended well"
grep -q "another slidetable is generating $dir" "$dir.second.err" \
    || { cat "$dir.second.err" >&2; fail "the second run did not name the lock"; }
mpirun --oversubscribe -np 2 "$mst" generate --board 3x4 --parts "$dir" \
    >"$dir.second.out" 2>"$dir.second.err" && fail "a second mpirun into a locked directory ended well"
grep -q "another slidetable is generating $dir" "$dir.second.err" \
    || { cat "$dir.second.err" >&2; fail "the second mpirun did not name the lock"; }
echo "mpi: a second run into a directory in use: refused with: $(grep -m1 'another slidetable' "$dir.second.err" | cut -c1-100)..."
kill -INT "$launcher"
if wait "$launcher"; then fail "mpirun ended well after Ctrl-C"; fi
[ ! -e "$dir/manifest" ] || fail "an interrupted run left a manifest"
grep -q "part [01] of 2: interrupted; the search is kept up to level [0-9]* in $dir/part-000[01]-of-0002.checkpoint" "$dir.err" \
    || { cat "$dir.err" >&2; fail "Ctrl-C to mpirun: no word of what is kept"; }
echo "mpi: Ctrl-C to mpirun: $(grep -m1 '^slidetable: part [01] of 2: interrupted' "$dir.err" | cut -c1-120)..."
timeout 600 mpirun --oversubscribe -np 2 "$mst" generate --board 3x4 --parts "$dir" \
    --level-timeout 120 >"$dir.out" 2>"$dir.err" || { cat "$dir.err" >&2; fail "the resumed 3x4 run failed"; }
grep -q "^resuming from level" "$dir.err" || fail "the 3x4 rerun did not resume: $(head -3 "$dir.err")"
"$st" merge "$dir" -o "$dir.slt" >/dev/null
cmp "$work/3x4.slt" "$dir.slt" || fail "the resumed 3x4 run's parts differ from generate"
echo "mpi: $(grep '^resuming' "$dir.err"); merged parts identical to generate"

# The search within D moves keeps checkpoints too: Ctrl-C to mpirun in the middle makes its
# processes say what is kept; another number of processes is refused, naming the
# checkpoints; the same command resumes into the parts of a run never stopped. Within 25
# moves: the processes stop about a second after mpirun's Ctrl-C (levels 15-22 of 4x4 take
# that long on an idle machine), and a run within 22 moves could end first.
dir=$work/within-stopped
rm -rf "$dir"
mkdir -p "$dir"
"$st" generate --board 4x4 --max-depth 25 -o "$work/4x4-within-25.slt" >/dev/null 2>&1
SLIDETABLE_CHECKPOINT_SECONDS=0 mpirun --oversubscribe -np 2 -x SLIDETABLE_CHECKPOINT_SECONDS \
    "$mst" generate --board 4x4 --max-depth 25 --parts "$dir" >"$dir.out" 2>"$dir.err" &
launcher=$!
checkpoint=$dir/part-0001-of-0002.slb.checkpoint
for _ in $(seq 1 2400); do
    level=$(head -c 4096 "$checkpoint" 2>/dev/null | grep -a -m1 '^level ' | cut -d' ' -f2 || true)
    [ "${level:-0}" -ge 14 ] && break
    sleep 0.05
done
[ "${level:-0}" -ge 14 ] || fail "the run within 25 moves in $dir wrote no checkpoint of level 14"
kill -INT "$launcher"
if wait "$launcher"; then fail "mpirun within D ended well after Ctrl-C"; fi
[ ! -e "$dir/manifest" ] || fail "an interrupted run within D left a manifest"
grep -q "part [01] of 2: interrupted; the search is kept up to level [0-9]* in $dir/part-000[01]-of-0002.slb.checkpoint" "$dir.err" \
    || { cat "$dir.err" >&2; fail "Ctrl-C to mpirun within D: no word of what is kept"; }
echo "mpi: Ctrl-C to mpirun within D: $(grep -m1 '^slidetable: part [01] of 2: interrupted' "$dir.err" | cut -c1-120)..."
mpirun --oversubscribe -np 3 "$mst" generate --board 4x4 --max-depth 25 --parts "$dir" \
    >"$dir.three.out" 2>"$dir.three.err" && fail "a run within D on 3 processes resumed 2 parts"
grep -q "it holds an interrupted run in 2 parts .*rerun it on 2 processes to resume it, or add --restart" "$dir.three.err" \
    || { cat "$dir.three.err" >&2; fail "the run within D on 3 processes did not say why"; }
timeout 600 mpirun --oversubscribe -np 2 "$mst" generate --board 4x4 --max-depth 25 --parts "$dir" \
    --level-timeout 120 >"$dir.out" 2>"$dir.err" || { cat "$dir.err" >&2; fail "the resumed run within D failed"; }
grep -q "^resuming from level" "$dir.err" || fail "the rerun within D did not resume: $(head -3 "$dir.err")"
"$st" merge "$dir" -o "$dir.slt" >/dev/null
cmp "$work/4x4-within-25.slt" "$dir.slt" || fail "the resumed run within D: merged parts differ from generate"
ls "$dir" | grep -q 'slb\.checkpoint\|slb\.next' && fail "the resumed run within D left checkpoints"
echo "mpi: within D, $(grep '^resuming' "$dir.err"); merged parts identical to generate"
