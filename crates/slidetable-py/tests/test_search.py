"""slidetable.search and Fifteen.search: the figures of `slidetable search --json --stats`,
as a dict, checked against the command and against the table's exact distances."""

import json

import pytest

import slidetable

PUZZLES = ["2 3 4 1 5 0 7 6 8", "8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 0 8", "1 2 3 4 5 6 7 8 0"]
KORF_GOAL = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"


def command_records(cli, *args, input):
    """The command's JSON records (the summary goes to standard error)."""
    done = cli.run("search", "--json", "--stats", *args, input=input, check=False)
    return [json.loads(line) for line in done.stdout.splitlines()]


def without_time(record):
    """A record with its times left out: they differ from run to run."""
    out = dict(record)
    out["stats"] = {k: v for k, v in record["stats"].items() if k != "milliseconds"}
    out.pop("error", None)
    return out


@pytest.mark.parametrize("method,heuristic", [
    ("bfs", "manhattan"), ("bidir", "manhattan"), ("dijkstra", "manhattan"),
    ("astar", "linear-conflict"), ("idastar", "manhattan"), ("idastar", "misplaced"),
])
def test_search_gives_what_the_command_gives(cli, method, heuristic):
    # The command refuses a heuristic for a method that uses none.
    guided = ["--heuristic", heuristic] if method in ("astar", "idastar") else []
    expected = command_records(cli, "--method", method, *guided,
                               input="\n".join(PUZZLES) + "\n")
    given = {"heuristic": heuristic} if guided else {}
    got = [slidetable.search(p, method=method, **given) for p in PUZZLES]
    assert [without_time(g) for g in got] == [without_time(e) for e in expected]
    for g in got:
        assert g["method"] == method
        assert g["heuristic"] == (heuristic if method in ("astar", "idastar") else None)
        assert g["stats"]["bound"] == g["distance"]
        assert g["stats"]["milliseconds"] >= 0
        assert ("iterations" in g["stats"]) == (method == "idastar")
        assert "error" not in g


def test_a_stopped_search_keeps_its_figures_and_a_true_bound(cli):
    table = slidetable.Table.default("3x3")
    for method in ["bfs", "bidir", "dijkstra", "astar", "idastar"]:
        for puzzle in PUZZLES[:2]:
            got = slidetable.search(puzzle, method=method, max_expanded=200)
            assert got["distance"] is None and got["path"] is None, got
            assert got["solvable"] is True
            assert "limit" in got["error"]
            assert got["stats"]["expanded"] == 200
            assert got["stats"]["branching_factor"] is None
            assert 1 <= got["stats"]["bound"] <= table.distance(puzzle), got
            expected = command_records(cli, "--method", method, "--max-expanded", "200",
                                       input=puzzle + "\n")
            assert without_time(got) == without_time(expected[0])
    # A time limit of nothing stops at the first clock reading.
    got = slidetable.search(PUZZLES[1], method="bfs", max_seconds=0)
    assert got["distance"] is None and "time limit" in got["error"]


def test_other_boards_goals_and_bad_input():
    # The other class is answered at once, with no search to report.
    got = slidetable.search("2 1 3 4 5 6 7 8 0")
    assert got["solvable"] is False and got["distance"] is None and "stats" not in got
    got = slidetable.search("1 2 3 0 4 5", board="2x3", method="bfs")
    assert got["distance"] == slidetable.Table.default("2x3").distance("1 2 3 0 4 5")
    got = slidetable.search("1 2 3 8 0 4 7 6 5", goal="1 2 3 8 0 4 7 6 5")
    assert got["distance"] == 0 and got["stats"]["bound"] == 0
    with pytest.raises(ValueError, match="method"):
        slidetable.search(PUZZLES[0], method="dfs")
    with pytest.raises(ValueError, match="heuristic"):
        slidetable.search(PUZZLES[0], heuristic="euclid")
    with pytest.raises(ValueError, match="max_seconds"):
        slidetable.search(PUZZLES[0], max_seconds=-1)
    with pytest.raises(ValueError):
        slidetable.search("1 2 3 4 5 6", board="3x3")


@pytest.fixture(scope="module")
def databases(cli, tmp_path_factory):
    path = tmp_path_factory.mktemp("pdb-search") / "4x4-555.slt"
    cli.run("generate", "--board", "4x4", "--pdb", "5-5-5", "-o", str(path))
    return path, slidetable.Fifteen.open(path)


def test_fifteen_search_reports_its_databases(databases, korf):
    path, fifteen = databases
    easiest = sorted(korf, key=lambda row: row[2])[:3]
    for _, length, _, tiles in easiest:
        got = fifteen.search(tiles, goal=KORF_GOAL)
        assert got["distance"] == length and len(got["path"]) == length
        assert got["method"] == "idastar" and got["heuristic"] == "pdb"
        assert got["partition"] == "5-5-5" and got["database"] == str(path)
        assert got["stats"]["bound"] == length
        assert got["stats"]["iterations"] >= 1
        stopped = fifteen.search(tiles, goal=KORF_GOAL, max_expanded=50)
        assert stopped["distance"] is None and "limit" in stopped["error"]
        assert stopped["stats"]["expanded"] == 50
        assert stopped["stats"]["bound"] <= length
    built = slidetable.Fifteen.generate("5-5-5").search("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")
    assert built["database"] is None and built["distance"] == 1


@pytest.mark.parametrize("method", ["bfs", "bidir", "dijkstra"])
def test_a_heuristic_given_to_a_blind_method_is_refused_as_the_command_refuses_it(cli, method):
    done = cli.run("search", "--method", method, "--heuristic", "linear-conflict",
                   input=PUZZLES[0] + "\n", check=False)
    assert done.returncode == 2
    expected = done.stderr.strip().removeprefix("slidetable: ")
    assert expected == (f"--heuristic linear-conflict: --method {method} takes no heuristic "
                        "(astar and idastar do)")
    for heuristic in ["linear-conflict", "manhattan"]:
        with pytest.raises(ValueError) as raised:
            slidetable.search(PUZZLES[0], method=method, heuristic=heuristic)
        assert str(raised.value) == expected.replace("linear-conflict", heuristic)
    # Without one, the default call searches blind, as the command does.
    got = slidetable.search(PUZZLES[0], method=method)
    assert got["distance"] == 19 and got["heuristic"] is None


def test_the_guided_methods_take_manhattan_when_no_heuristic_is_given():
    for method in ["astar", "idastar"]:
        assert slidetable.search(PUZZLES[0], method=method)["heuristic"] == "manhattan"
        assert (slidetable.search(PUZZLES[0], method=method)["stats"]["expanded"]
                == slidetable.search(PUZZLES[0], method=method,
                                     heuristic="manhattan")["stats"]["expanded"])


# Ctrl-C during every long call: KeyboardInterrupt within half a second of the signal, in a
# process of its own that the test interrupts.

INTERRUPTED = r"""
import signal, sys, time
# Ctrl-C is KeyboardInterrupt here whatever the launcher left: a job a shell starts in the
# background without job control inherits SIGINT ignored, and Python then keeps it so.
signal.signal(signal.SIGINT, signal.default_int_handler)
import numpy as np
import slidetable
hard = [int(x) for x in sys.argv[2].split()]
korf = list(range(16))
which = sys.argv[1]
f = slidetable.Fifteen.generate("5-5-5") if which.startswith("Fifteen") else None
calls = {
    "search idastar": lambda: slidetable.search(hard, method="idastar", goal=korf),
    "search bfs": lambda: slidetable.search(hard, method="bfs", goal=korf),
    # Under a second each on an idle machine: asked again and again, so that the signal
    # lands inside a call whatever the machine's speed.
    "Fifteen.solve": lambda: [f.solve(hard, goal=korf) for _ in range(1000)],
    "Fifteen.search": lambda: [f.search(hard, goal=korf) for _ in range(1000)],
    "Fifteen.solve_many": lambda: f.solve_many([hard] * 40, goal=korf),
    "Fifteen.distance": lambda: f.distance(np.array([hard] * 40), goal=korf),
    "Fifteen.random": lambda: f.random(10**9 // 16),
    "Table.generate": lambda: slidetable.Table.generate("3x4"),
}
print("ready", flush=True)
try:
    calls[which]()
    print("returned", flush=True)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
except MemoryError:
    print("MemoryError", flush=True)
"""


@pytest.mark.parametrize("call", ["search idastar", "search bfs", "Fifteen.solve",
                                  "Fifteen.search", "Fifteen.solve_many", "Fifteen.distance",
                                  "Fifteen.random", "Table.generate"])
def test_ctrl_c_raises_keyboard_interrupt_at_once(call, korf):
    import signal
    import subprocess
    import sys
    import time
    # Korf's instance 88: 65 moves, hours of IDA* on Manhattan distance, minutes on 5-5-5.
    hardest = max(korf, key=lambda k: k[2])[3]
    child = subprocess.Popen([sys.executable, "-c", INTERRUPTED, call,
                              " ".join(map(str, hardest))],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "ready\n", child.stderr.read()
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        line = child.stdout.readline()
        waited = time.monotonic() - sent
        if line == "MemoryError\n":
            pytest.skip(f"{call}: this machine has too little memory for a long draw")
        assert line == "KeyboardInterrupt\n", (line, child.stderr.read())
        assert waited < 0.5, f"{call}: KeyboardInterrupt {waited:.2f} s after SIGINT"
    finally:
        child.kill()
        child.wait()


def test_search_is_bounded_in_memory_as_the_command_line_bounds_it(korf):
    import subprocess
    import sys
    hardest = max(korf, key=lambda k: k[2])[3]
    script = r"""
import resource, sys
limit = 2_500_000 * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import slidetable
r = slidetable.search([int(x) for x in sys.argv[1].split()], method="bfs",
                      goal=list(range(16)))
print(r["path"], r["error"])
"""
    done = subprocess.run([sys.executable, "-c", script, " ".join(map(str, hardest))],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("None search stopped at its memory limit of "), done.stdout


def test_limits_are_refused_with_their_names():
    with pytest.raises(ValueError, match=r"^max_expanded=-1: give a whole number from 0 to \d+$"):
        slidetable.search(PUZZLES[2], max_expanded=-1)
    with pytest.raises(ValueError, match=r"^max_seconds=-1\.0: give a number of seconds, 0 or "
                                         r"more$"):
        slidetable.search(PUZZLES[2], max_seconds=-1.0)
    # More seconds than a clock counts: no limit, as the command line's --timeout 1e300.
    assert slidetable.search(PUZZLES[2], max_seconds=1e300)["path"] == "r"
    assert slidetable.search(PUZZLES[2], max_seconds=float("inf"))["path"] == "r"


def test_heuristics_take_the_functions_spelling_too():
    for name in ("linear_conflict", "linear-conflict"):
        found = slidetable.search(PUZZLES[1], heuristic=name)
        assert found["heuristic"] == "linear-conflict" and found["distance"] == 31


def test_pdb_searches_on_the_15_puzzles_databases_as_the_command_does(cli):
    puzzle = "5 1 4 6 10 3 2 8 14 11 13 12 9 0 7 15"
    for method in ("idastar", "astar"):
        found = slidetable.search(puzzle, method=method, heuristic="pdb")
        [command] = command_records(cli, "--board", "4x4", "--method", method,
                                    "--heuristic", "pdb", input=puzzle + "\n")
        assert (found["distance"], found["path"]) == (command["distance"], command["path"])
        assert found["stats"]["expanded"] == command["stats"]["expanded"]
        assert (found["heuristic"], found["partition"]) == ("pdb", command["partition"])


def test_pdb_on_every_board_and_partition_as_the_command_chooses(cli):
    # Other boards than 4x4, and pdb-PARTITION spellings: the databases the command line
    # builds for them, the same search (issue 39: refused in Python).
    cases = [(PUZZLES[1], "3x3", "pdb"), (PUZZLES[1], "3x3", "pdb-3-5"),
             ("5 1 4 6 10 3 2 8 14 11 13 12 9 0 7 15", "4x4", "pdb-5-5-5"),
             ("1 2 0 3 5 6 7 4", "2x4", "pdb")]
    for puzzle, board, heuristic in cases:
        found = slidetable.search(puzzle, heuristic=heuristic, board=board)
        [command] = command_records(cli, "--board", board, "--method", "idastar",
                                    "--heuristic", heuristic,
                                    input=puzzle + "\n")
        assert (found["distance"], found["path"]) == (command["distance"], command["path"])
        assert found["stats"]["expanded"] == command["stats"]["expanded"], heuristic
        assert (found["heuristic"], found["partition"], found["database"]) == (
            heuristic, command["partition"], None)
    with pytest.raises(ValueError, match="^heuristic pdb-4-5: partition '4-5'"):
        slidetable.search(PUZZLES[1], heuristic="pdb-4-5")
    with pytest.raises(ValueError, match="takes no heuristic"):
        slidetable.search(PUZZLES[1], method="bfs", heuristic="pdb-4-4")
