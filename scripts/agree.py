#!/usr/bin/env python3
"""Agreement between slidetable and the seed programs (scripts/seeds/README.md).

    python3 scripts/agree.py [--jobs N] [--seed S]

Builds the seed C/C++ programs (scripts/seeds/build.sh) and the release
`slidetable` binary, writes a 3x3 table into a temporary directory, draws
seeded random puzzles with scripts/puzzles.py and checks, puzzle by puzzle:

  hiho1312_dijkstra  exact distances for every board: `slidetable judge hihocoder1312`
                     prints the very same output (5,000 boards, half unsolvable).
  (hiho as oracle)   `slidetable judge hdu1043` on 3,000 boards: every path replays
                     legally to the goal, its length is the seed's distance, and
                     it says `unsolvable` exactly where the seed says
                     `No Solution!`.
  hdu1043_dbfs       the same 3,000 boards in one process: same solvability, its
                     lengths never shorter than ours; equal but for its known
                     state leak between cases (counted, not failed).
  hdu1043_bfs        plain BFS from the start expanding u, d, l, r, one board per
                     process (200): its path is the smallest optimal path under
                     u < d < l < r, so it must equal ours character for character.
  pair_bfs           300 start/goal pairs with random goals, one per process:
                     the same count as `slidetable judge pair`.
  poj1077_bfs        250 solvable and 50 unsolvable boards, one per process (not
                     the goal state, on which it crashes): same solvability, and
                     the same path as ours (also a u, d, l, r BFS from the start).
  poj1077_idastar    100 boards at most 22 moves from the goal (chosen with our
                     `distance`) and 20 unsolvable ones: same solvability and
                     length. Its print() maps direction indices to `u l d r`
                     while the search uses `u d l r`, so its `l` and `d` are
                     swapped; with them swapped back, the path must replay to the
                     goal.
  poj1077_astar      130 solvable and 20 unsolvable boards: same solvability,
                     never shorter than ours (it is sometimes longer, a known
                     bug: counted, not failed).

Our own paths are replayed here too (legal, reach the goal). Prints one summary
line per seed program, then `N passed, M failed` (N checks, one per puzzle and
program); exits 1 if any check failed or a program could not be run.

Environment: SLIDETABLE_SEEDS (where the seed texts are; see build.sh),
SLIDETABLE_BIN (use this slidetable binary instead of building one).
The real table cache is never touched: slidetable runs with SLIDETABLE_TABLE
removed and XDG_CACHE_HOME/HOME inside the temporary directory.
"""

import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
UNSOLVABLE = "unsolvable"
STEP = {"u": -3, "d": 3, "l": -1, "r": 1}
# How many failures of one kind are printed in full.
SHOWN = 5


def replay(tiles, path):
    """The board after the blank moves along `path` (u d l r, either case), or
    None if a letter is not a move or a move leaves the board."""
    t = list(tiles)
    b = t.index(0)
    for c in path.lower():
        if c not in STEP:
            return None
        row, col = divmod(b, 3)
        if (c == "u" and row == 0) or (c == "d" and row == 2) \
                or (c == "l" and col == 0) or (c == "r" and col == 2):
            return None
        n = b + STEP[c]
        t[b], t[n] = t[n], t[b]
        b = n
    return tuple(t)


def swap_l_d(path):
    return path.translate(str.maketrans("ld", "dl"))


def x_text(tiles):
    return " ".join("x" if v == 0 else str(v) for v in tiles)


def line_text(tiles):
    return " ".join(map(str, tiles))


def board_of(line):
    return tuple(0 if tok in ("x", "X", "0") else int(tok) for tok in line.split())


class Failed(Exception):
    """A program could not be built or run: the whole run fails."""


def run(cmd, stdin, env=None, timeout=120):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                           env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %ss" % timeout
    except OSError as e:
        raise Failed("cannot run %s: %s" % (cmd[0], e))
    return p, None


def must(cmd, stdin="", env=None, timeout=300):
    p, err = run(cmd, stdin, env, timeout)
    if err or p.returncode != 0:
        raise Failed("%s failed (%s):\n%s%s" % (
            " ".join(cmd), err or "exit %d" % p.returncode,
            p.stdout[-2000:] if p else "", p.stderr[-2000:] if p else ""))
    return p.stdout


class Tally:
    """Checks of one seed program: one per puzzle."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.notes = []
        self.started = time.monotonic()

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            if self.failed <= SHOWN:
                print("  FAIL %s: %s" % (self.name, what), flush=True)
            elif self.failed == SHOWN + 1:
                print("  FAIL %s: (further failures not shown)" % self.name, flush=True)

    def summary(self, extra=""):
        secs = time.monotonic() - self.started
        print("%-18s %5d checks, %5d passed, %d failed%s  [%.1fs]" % (
            self.name + ":", self.passed + self.failed, self.passed, self.failed,
            "; " + extra if extra else "", secs), flush=True)


class Agreement:
    def __init__(self, args, tmp):
        self.jobs = args.jobs
        self.seed = args.seed
        self.tmp = tmp
        self.tallies = []
        self.env = dict(os.environ)
        self.env.pop("SLIDETABLE_TABLE", None)
        self.env["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
        self.env["HOME"] = os.path.join(tmp, "home")
        self.table = os.path.join(tmp, "3x3.slt")
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs)

    # -- setup ------------------------------------------------------------------------------

    def build(self):
        t = time.monotonic()
        out = must(["bash", os.path.join(ROOT, "scripts/seeds/build.sh")])
        self.seeds = {os.path.basename(p): p for p in out.split()}
        for name in ("hiho1312_dijkstra", "hdu1043_dbfs", "hdu1043_bfs", "pair_bfs",
                     "poj1077_bfs", "poj1077_idastar", "poj1077_astar"):
            if name not in self.seeds:
                raise Failed("build.sh did not build %s" % name)
        self.bin = os.environ.get("SLIDETABLE_BIN")
        if not self.bin:
            must(["cargo", "build", "--release", "--quiet", "-p", "slidetable-cli"])
            target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
            self.bin = os.path.join(target, "release", "slidetable")
        if not os.access(self.bin, os.X_OK):
            raise Failed("no slidetable binary at %s" % self.bin)
        must([self.bin, "generate", "-o", self.table], env=self.env)
        print("built the seed programs and %s, table in %s  [%.1fs]" % (
            os.path.relpath(self.bin, ROOT), self.tmp, time.monotonic() - t), flush=True)

    def puzzles(self, fmt, count, seed, *flags):
        return must([sys.executable, os.path.join(ROOT, "scripts/puzzles.py"),
                     "--count", str(count), "--seed", str(self.seed + seed),
                     "--format", fmt, *flags])

    def boards(self, count, seed, *flags):
        """Boards (tuples, 0 = blank) as puzzles.py draws them."""
        return [board_of(l) for l in self.puzzles("line", count, seed, *flags).splitlines()]

    def ours(self, *args, stdin=""):
        return must([self.bin, *args], stdin, env=self.env)

    def our_paths(self, boards):
        """`slidetable judge hdu1043` on boards: the path, or `unsolvable`, for each."""
        out = self.ours("judge", "hdu1043", "--table", self.table,
                        stdin="".join(x_text(b) + "\n" for b in boards))
        lines = out.split("\n")
        if lines[-1] != "" or len(lines) != len(boards) + 1:
            raise Failed("judge hdu1043 printed %d lines for %d boards" % (len(lines) - 1, len(boards)))
        return lines[:-1]

    def our_distances(self, boards):
        out = self.ours("distance", "--table", self.table,
                        stdin="".join(line_text(b) + "\n" for b in boards))
        return [None if l == "-1" else int(l) for l in out.split()]

    def each(self, cmd, inputs, timeout=60):
        """Runs `cmd` once per input, `jobs` at a time: (stdout, error) each."""
        def one(text):
            p, err = run(cmd, text, timeout=timeout)
            if err:
                return None, err
            if p.returncode != 0:
                return p.stdout, "exit %d, stderr %r" % (p.returncode, p.stderr[-200:])
            return p.stdout, None
        return list(self.pool.map(one, inputs))

    def both_solved(self, t, boards, ours, results):
        """(board, seed's path, our path, what is wrong with ours) for each board both
        solved; a seed that failed, or an unsolvable answer on either side, is checked
        here (both must say unsolvable)."""
        for b, o, (out, err) in zip(boards, ours, results):
            if err:
                t.check(False, "%s: %s" % (x_text(b), err))
                continue
            a = out.strip()
            if UNSOLVABLE in (a, o):
                t.check(a == o, "%s: seed %r, ours %r" % (x_text(b), a, o))
                continue
            yield b, a, o, self.our_problem(b, o)

    def tally(self, name):
        t = Tally(name)
        self.tallies.append(t)
        return t

    @staticmethod
    def our_problem(board, path):
        """What is wrong with our path for `board` (legal, reaches the goal), or None."""
        end = replay(board, path)
        if end == GOAL:
            return None
        return "our path %r %s" % (path, "leaves the board" if end is None else "ends on %s" % (end,))

    # -- the seed programs -----------------------------------------------------------------

    def hiho(self):
        t = self.tally("hiho1312_dijkstra")
        text = self.puzzles("hiho", 5000, 1312)
        theirs = must([self.seeds["hiho1312_dijkstra"]], text).splitlines()
        ours = self.ours("judge", "hihocoder1312", "--table", self.table, stdin=text).splitlines()
        boards = self.boards(5000, 1312)
        if len(theirs) != 5000 or len(ours) != 5000:
            raise Failed("hiho: %d seed lines, %d of ours, for 5000 boards" % (len(theirs), len(ours)))
        for b, a, o in zip(boards, theirs, ours):
            t.check(a == o, "%s: seed %r, ours %r" % (line_text(b), a, o))
        t.summary("%d distances, %d No Solution!" % (
            sum(a != "No Solution!" for a in theirs), sum(a == "No Solution!" for a in theirs)))

    def hdu(self):
        """Our hdu paths against the hiho seed's distances; then hdu1043_dbfs."""
        t = self.tally("slidetable hdu")
        count, seed = 3000, 1043
        boards = self.boards(count, seed)
        oracle = must([self.seeds["hiho1312_dijkstra"]], self.puzzles("hiho", count, seed)).splitlines()
        ours = self.our_paths(boards)
        for b, want, path in zip(boards, oracle, ours):
            if want == "No Solution!" or path == UNSOLVABLE:
                t.check(want == "No Solution!" and path == UNSOLVABLE,
                        "%s: seed says %r, we print %r" % (x_text(b), want, path))
                continue
            ok = replay(b, path) == GOAL and len(path) == int(want)
            t.check(ok, "%s: our path %r (%d moves) vs distance %s%s" % (
                x_text(b), path, len(path), want,
                "" if replay(b, path) == GOAL else ", does not reach the goal"))
        t.summary("every path replayed, length = hiho1312_dijkstra's distance (the oracle)")

        t = self.tally("hdu1043_dbfs")
        theirs = must([self.seeds["hdu1043_dbfs"]], self.puzzles("x", count, seed)).split("\n")
        if len(theirs) != count + 1:
            raise Failed("hdu1043_dbfs printed %d lines for %d boards" % (len(theirs) - 1, count))
        longer = invalid = 0
        for b, a, o in zip(boards, theirs, ours):
            if UNSOLVABLE in (a, o):
                t.check(a == o, "%s: seed %r, ours %r" % (x_text(b), a, o))
                continue
            invalid += replay(b, a) != GOAL
            t.check(len(a) >= len(o), "%s: seed's %r (%d) is SHORTER than ours %r (%d)" % (
                x_text(b), a, len(a), o, len(o)))
            longer += len(a) > len(o)
        t.summary("%d of %d solvable answers longer than ours (its known state leak), "
                  "%d of its paths invalid" % (longer, sum(o != UNSOLVABLE for o in ours), invalid))
        self.hdu_boards, self.hdu_ours = boards, ours

    def hdu_bfs(self):
        t = self.tally("hdu1043_bfs")
        boards, ours = self.hdu_boards[:200], self.hdu_ours[:200]
        results = self.each([self.seeds["hdu1043_bfs"]], [x_text(b) + "\n" for b in boards])
        for b, o, (out, err) in zip(boards, ours, results):
            if err:
                t.check(False, "%s: %s" % (x_text(b), err))
                continue
            t.check(out.strip() == o,
                    "%s: seed %r, ours %r" % (x_text(b), out.strip(), o))
        t.summary("identical paths (both the smallest optimal path under u<d<l<r)")

    def pair(self):
        t = self.tally("pair_bfs")
        lines = self.puzzles("pair", 300, 9, "--goal-random").splitlines()
        inputs = ["%s\n%s\n" % (lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]
        theirs = self.each([self.seeds["pair_bfs"]], inputs)
        ours = self.each([self.bin, "judge", "pair", "--table", self.table], inputs)
        unreachable = 0
        for text, (a, aerr), (o, oerr) in zip(inputs, theirs, ours):
            what = text.replace("\n", " / ").strip(" /")
            if aerr or oerr:
                t.check(False, "%s: seed %s, ours %s" % (what, aerr or "ok", oerr or "ok"))
                continue
            t.check(a == o, "%s: seed %r, ours %r" % (what, a.strip(), o.strip()))
            unreachable += o.strip() == "-1"
        t.summary("identical counts (%d pairs unreachable)" % unreachable)

    def poj_bfs(self):
        t = self.tally("poj1077_bfs")
        # Mostly solvable boards: an unsolvable one makes it search a whole component (0.2 s).
        boards = [b for b in self.boards(251, 1077, "--solvable-only") if b != GOAL][:250]
        boards += [b for b in self.boards(150, 1078) if not solvable(b)][:50]
        ours = self.our_paths(boards)
        results = self.each([self.seeds["poj1077_bfs"]], [x_text(b) + "\n" for b in boards])
        for b, a, o, bad in self.both_solved(t, boards, ours, results):
            t.check(not bad and a == o, "%s: %s" % (
                x_text(b), bad or "seed %r (%d), ours %r (%d)" % (a, len(a), o, len(o))))
        t.summary("same length, identical paths")

    def poj_idastar(self):
        t = self.tally("poj1077_idastar")
        pool = self.boards(400, 179, "--solvable-only")
        dist = self.our_distances(pool)
        boards = [b for b, d in zip(pool, dist) if d is not None and d <= 22][:100]
        if len(boards) < 100:
            raise Failed("only %d boards within 22 moves" % len(boards))
        boards += [b for b in self.boards(60, 180) if b not in boards
                   and not solvable(b)][:20]
        ours = self.our_paths(boards)
        results = self.each([self.seeds["poj1077_idastar"]], [x_text(b) + "\n" for b in boards])
        raw_valid = 0
        for b, a, o, bad in self.both_solved(t, boards, ours, results):
            fixed = swap_l_d(a)
            raw_valid += replay(b, a) == GOAL
            t.check(not bad and len(a) == len(o) and replay(b, fixed) == GOAL,
                    "%s: %s" % (x_text(b), bad or
                                "seed %r (%d moves; l/d swapped %r %s), ours %r (%d)" % (
                                    a, len(a), fixed,
                                    "reaches the goal" if replay(b, fixed) == GOAL
                                    else "does not reach it", o, len(o))))
        t.summary("same lengths; its letters replay only with l and d swapped back "
                  "(%d raw strings were valid as printed)" % raw_valid)

    def poj_astar(self):
        t = self.tally("poj1077_astar")
        boards = [b for b in self.boards(131, 77, "--solvable-only") if b != GOAL][:130]
        boards += [b for b in self.boards(60, 78) if not solvable(b)][:20]
        ours = self.our_paths(boards)
        results = self.each([self.seeds["poj1077_astar"]], [x_text(b) + "\n" for b in boards])
        longer = invalid = reachable = 0
        for b, a, o, bad in self.both_solved(t, boards, ours, results):
            reachable += 1
            t.check(not bad and len(a) >= len(o), "%s: %s" % (
                x_text(b), bad or "seed's %r (%d) is SHORTER than ours %r (%d)" % (
                    a, len(a), o, len(o))))
            longer += len(a) > len(o)
            invalid += replay(b, a) != GOAL
        t.summary("%d of %d solvable answers longer than ours (its known non-optimality), "
                  "%d of its paths invalid" % (longer, reachable, invalid))


def solvable(tiles):
    """Whether a board can reach GOAL: even inversion count among the tiles."""
    v = [x for x in tiles if x]
    return sum(v[i] > v[j] for i in range(8) for j in range(i + 1, 8)) % 2 == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                    help="single-case programs run in parallel (default: CPU count)")
    ap.add_argument("--seed", type=int, default=0,
                    help="added to every puzzle seed (default 0: the same puzzles every run)")
    args = ap.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="slidetable-agree-") as tmp:
        a = Agreement(args, tmp)
        broken = None
        try:
            a.build()
            for step in (a.hiho, a.hdu, a.hdu_bfs, a.pair, a.poj_bfs, a.poj_idastar, a.poj_astar):
                step()
        except Failed as e:
            broken = str(e)
            print("agree.py: error: %s" % broken, file=sys.stderr, flush=True)
        finally:
            a.pool.shutdown()
    passed = sum(t.passed for t in a.tallies)
    failed = sum(t.failed for t in a.tallies) + (1 if broken else 0)
    print("took %.1fs" % (time.monotonic() - started))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
