#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ with real inputs from data/, so the fuzzers start from inputs
# that get deep. The corpora themselves are not committed (.gitignore).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/judge corpus/puzzle_line corpus/table_tail corpus/table_reader

# judge: the first byte picks the format, in the order of Format::ALL.
formats=(poj1077 hdu1043 acwing845 hihocoder1312 pair luogu1379 hdu3567 uva10085 leetcode773 uva652)
for i in "${!formats[@]}"; do
    f=${formats[$i]}
    { printf "\\x$(printf %02x "$i")"; cat "../data/judges/$f/input.txt"; } >"corpus/judge/$f"
done

# puzzle_line: the first byte picks the board (3x3, 2x3, 3x4, 4x4).
n=0
while IFS= read -r line; do
    printf '\x00%s' "$line" >"corpus/puzzle_line/example-$((n += 1))"
done <../data/examples/puzzles.txt
printf '\x0123x415' >corpus/puzzle_line/2x3
printf '\x021 2 3 4 5 6 7 8 9 10 11 0' >corpus/puzzle_line/3x4
printf '\x035,1,4,6,10,3,2,8,14,11,13,12,9,x,7,15' >corpus/puzzle_line/4x4

# table_tail: the first byte picks the table (byte / 4 % 3: bytes, 2-bit, tile costs) and the
# mode (byte % 4: tail, payload, resealed payload, header patch).
for byte in 0 1 2 3 4 5 6 7 8 9 10 11; do
    printf "\\x$(printf %02x "$byte")\\x04\\x08\\x0c\\x10\\x14" >"corpus/table_tail/mode-$byte"
done

# table_reader: a whole real table, if the binary is built.
if [ -x ../target/release/slidetable ]; then
    ../target/release/slidetable generate --board 2x3 -o corpus/table_reader/2x3 >/dev/null
    ../target/release/slidetable generate --board 2x2 -o corpus/table_reader/2x2 >/dev/null
    ../target/release/slidetable generate --board 2x3 --encoding 2bit \
        -o corpus/table_reader/2x3-2bit >/dev/null
    ../target/release/slidetable generate --board 2x3 --cost tile \
        -o corpus/table_reader/2x3-tile >/dev/null
fi
echo "seeded: $(ls corpus/* | wc -l) inputs"
