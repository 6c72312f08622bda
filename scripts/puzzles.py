#!/usr/bin/env python3
"""Generate reproducible random 8-puzzle inputs for benchmarks and cross-checks.

    puzzles.py --count N --seed S --format FMT [--solvable-only] [--goal-random]

A puzzle is a permutation of the tiles 1..8 and the blank on a 3x3 board,
written row-major.  Each start state is drawn uniformly from all 9! = 362880
permutations, so without --solvable-only about half of them are unsolvable.
With --solvable-only it is drawn uniformly from the 181440 permutations that
can reach the goal: those whose inversion count over the 8 tiles (blank
ignored) has the same parity as the goal's.  (On a 3-wide board the blank's
row does not matter.)

Formats (N puzzles; output goes to stdout, '\\n' line endings):
  line     one puzzle per line, 9 space-separated tokens, blank = 0
           e.g. "2 3 4 1 5 0 7 6 8"                  (goal 1 2 3 4 5 6 7 8 0)
  x        same, blank = x  (POJ 1077 / HDU 1043 input)
           e.g. "2 3 4 1 5 x 7 6 8"                  (goal 1 2 3 4 5 6 7 8 x)
  hiho     HihoCoder 1312: first line N, then each puzzle as 3 lines of 3
           ints, blank = 0                            (goal 1 2 3 4 5 6 7 8 0)
  pair     two lines per puzzle: start (9 ints), goal (9 ints), blank = 0;
           the goal is 1 2 3 4 5 6 7 8 0, or with --goal-random a uniformly
           random permutation drawn per puzzle
  hdu3567  HDU 3567 "Eight II": first line N, then per puzzle two 9-char
           lines, start then goal, blank = X, e.g. "12X453786"; goal
           12345678X, or random per puzzle with --goal-random

--goal-random is only meaningful for pair and hdu3567; the other formats have
a fixed goal and reject it.

The output depends only on (--count, --seed, --format, --solvable-only,
--goal-random) and uses Python's Mersenne Twister (random.Random(seed)), so it
is stable across runs and machines for a given Python 3 version.  Puzzle k of
a run is the same whichever format is chosen (for the same seed and flags),
so e.g. `--format x` and `--format hiho` describe the same boards.
Generates 1,000,000 puzzles in about a second or two (Python stdlib only).
"""

import argparse
import itertools
import random
import sys

FORMATS = ("line", "x", "hiho", "pair", "hdu3567")
GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def parity(perm):
    """Inversion parity of the tiles 1..8 (the blank 0 is ignored).

    Reference implementation; the generator uses the equivalent fast table
    from tile_parity_table() (checked against this one by --self-test)."""
    tiles = [t for t in perm if t]
    inv = 0
    for i in range(len(tiles)):
        for j in range(i + 1, len(tiles)):
            if tiles[j] < tiles[i]:
                inv += 1
    return inv & 1


_FLIP = bytes([1, 0]) + bytes(range(2, 256))


def full_parity_table(n):
    """bytes: inversion parity of every permutation of range(n), in
    itertools.permutations (lexicographic) order.  The first element j of a
    permutation contributes j inversions, the rest is again lexicographic,
    so P(n) = concat over j of P(n-1), flipped when j is odd."""
    table = b"\x00"
    for m in range(2, n + 1):
        flipped = table.translate(_FLIP)
        table = b"".join(flipped if j & 1 else table for j in range(m))
    return table


def tile_parity_table(perms):
    """bytes: parity of the 8 tiles (blank = element 0 ignored) for each
    permutation of range(9) in lexicographic order.  Removing the blank, the
    smallest element, at position k removes exactly k inversions."""
    full = full_parity_table(9)
    return bytes(f ^ (p.index(0) & 1) for f, p in zip(full, perms))


# Per format: the 9 symbols standing for 0 (blank), 1, ..., 8.  Permuting the
# symbols keeps itertools' order, so index i is the same board in every format.
ALPHABET = {
    "line": "012345678", "pair": "012345678", "hiho": "012345678",
    "x": "x12345678", "hdu3567": "X12345678",
}


def render_table(fmt):
    """Text of every permutation (itertools order) in the given format."""
    sym = itertools.permutations(ALPHABET[fmt])
    if fmt in ("line", "pair", "x"):
        return [" ".join(p) for p in sym]
    if fmt == "hiho":
        return ["%s %s %s\n%s %s %s\n%s %s %s" % p for p in sym]
    if fmt == "hdu3567":
        return ["".join(p) for p in sym]
    raise ValueError(fmt)


def self_test():
    perms = list(itertools.permutations(range(9)))
    fast = tile_parity_table(perms)
    assert len(fast) == len(perms) == 362880
    for i, p in enumerate(perms):
        assert fast[i] == parity(p), p
    assert sum(fast) == 181440
    for fmt in FORMATS:
        texts = render_table(fmt)
        assert len(texts) == 362880
    print("self-test ok")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Generate reproducible random 8-puzzle inputs.",
        epilog="Formats: " + ", ".join(FORMATS) + ". See the module docstring for details.")
    ap.add_argument("--count", type=int, required=True, help="number of puzzles (>= 0)")
    ap.add_argument("--seed", type=int, required=True, help="RNG seed (any integer)")
    ap.add_argument("--format", choices=FORMATS, required=True)
    ap.add_argument("--solvable-only", action="store_true",
                    help="only emit puzzles whose start can reach the goal")
    ap.add_argument("--goal-random", action="store_true",
                    help="pair/hdu3567 only: random goal per puzzle instead of 12345678_")
    if argv is None:
        argv = sys.argv[1:]
    if argv == ["--self-test"]:
        return self_test()
    args = ap.parse_args(argv)
    if args.count < 0:
        ap.error("--count must be >= 0")
    if args.goal_random and args.format not in ("pair", "hdu3567"):
        ap.error("--goal-random only applies to --format pair or hdu3567")

    rng = random.Random(args.seed)
    n = args.count
    perms = list(itertools.permutations(range(9)))
    nperm = len(perms)
    goal_idx = perms.index(GOAL)
    texts = render_table(args.format)

    # Tile parity of every permutation, and the indices of each parity class.
    if args.solvable_only:
        par = tile_parity_table(perms)
        by_parity = ([i for i in range(nperm) if not par[i]],
                     [i for i in range(nperm) if par[i]])

    if args.goal_random:
        goals = rng.choices(range(nperm), k=n)
    else:
        goals = None

    if not args.solvable_only:
        starts = rng.choices(range(nperm), k=n)
    elif goals is None:
        starts = rng.choices(by_parity[par[goal_idx]], k=n)
    else:
        # Draw a uniform index into the half with the goal's parity.
        half = len(by_parity[0])  # == len(by_parity[1]) == 9!/2
        raw = rng.choices(range(half), k=n)
        starts = [by_parity[par[g]][r] for g, r in zip(goals, raw)]
    del perms

    out = sys.stdout
    if args.format in ("hiho", "hdu3567"):
        out.write("%d\n" % n)
    if args.format in ("line", "x", "hiho"):
        body = "\n".join([texts[i] for i in starts])
    else:
        if goals is None:
            fixed_goal = texts[goal_idx]
            body = "\n".join([texts[i] + "\n" + fixed_goal for i in starts])
        else:
            body = "\n".join([texts[i] + "\n" + texts[g] for i, g in zip(starts, goals)])
    if n:
        out.write(body)
        out.write("\n")
    out.flush()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # e.g. `puzzles.py ... | head`: not an error.
        sys.stderr.close()
        sys.exit(0)
