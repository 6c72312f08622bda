#!/usr/bin/env bash
# Build the reference 8-puzzle programs embedded in the seed documents.
#
#   scripts/seeds/build.sh
#
# Seeds directory: $SLIDETABLE_SEEDS if set, else <repo root>/../shared/seeds.
# Steps: extract.py cuts each program out of the seed texts (with the small,
# named repairs documented there and in README.md) into target/seeds/src/,
# then each program is compiled with -O2 into target/seeds/bin/<name>.
# Compiler output goes to target/seeds/log/<name>.log.
#
# Idempotent: a binary is only rebuilt when its source or the compile command
# changed.  Needs bash, python3, gcc and g++ (override with $CC / $CXX);
# no network.  Prints the absolute paths of the built binaries, one per line.
set -euo pipefail

die() { echo "build.sh: error: $*" >&2; exit 1; }

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)
SEEDS=${SLIDETABLE_SEEDS:-$ROOT/../shared/seeds}

if [[ ! -d $SEEDS ]]; then
    die "seeds directory not found: $SEEDS
  (set SLIDETABLE_SEEDS=/path/to/seeds, the directory holding 000_*.txt .. 003_*.txt)"
fi
SEEDS=$(cd "$SEEDS" && pwd)

CC=${CC:-gcc}
CXX=${CXX:-g++}
PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || die "python3 not found (set PYTHON)"

OUT=$ROOT/target/seeds
mkdir -p "$OUT/src" "$OUT/bin" "$OUT/log"

manifest=$("$PYTHON" "$SCRIPT_DIR/extract.py" --seeds "$SEEDS" --out "$OUT/src") \
    || die "extraction failed (see message above)"
[[ -n $manifest ]] || die "extract.py produced no programs"

built=()
while IFS=$'\t' read -r name lang src seed repairs; do
    case $lang in
        c)   compiler=$CC;  flags=(-O2 -std=gnu11) ;;
        cpp) compiler=$CXX; flags=(-O2 -std=gnu++17) ;;
        *)   die "unknown language '$lang' for $name" ;;
    esac
    command -v "$compiler" >/dev/null 2>&1 || die "compiler '$compiler' not found (needed for $name)"
    bin=$OUT/bin/$name
    log=$OUT/log/$name.log
    stamp=$OUT/bin/.$name.cmd
    cmd="$compiler ${flags[*]} -o $bin $src"
    if [[ -x $bin && -f $stamp && $bin -nt $src && "$(cat "$stamp")" == "$cmd" ]]; then
        echo "build.sh: $name up to date" >&2
    else
        echo "build.sh: compiling $name ($seed; repairs: $repairs)" >&2
        if ! "$compiler" "${flags[@]}" -o "$bin.tmp" "$src" >"$log" 2>&1; then
            cat "$log" >&2
            rm -f "$bin.tmp"
            die "compiling $name failed (log: $log)"
        fi
        mv -f "$bin.tmp" "$bin"
        printf '%s\n' "$cmd" >"$stamp"
    fi
    built+=("$bin")
done <<<"$manifest"

printf '%s\n' "${built[@]}"
