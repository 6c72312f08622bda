"""slidetable.TwentyFour against the `slidetable` command on the same small databases
(5-5-5-5-4: seconds to build; groups of three: instant), on scrambles solved in seconds:
every path replayed, lengths and figures as the command gives them, the databases written
byte for byte as the command writes them, Ctrl-C with the bound proved."""

import json
import pathlib
import random

import numpy as np
import pandas as pd
import pytest

import slidetable

GOAL = list(range(25))
MOVES = {"u": -5, "d": 5, "l": -1, "r": 1}
# Korf and Felner's instance 1 (95 moves): out of reach of small databases.
KORF_FELNER_1 = [14, 5, 9, 2, 18, 8, 23, 19, 12, 17, 15, 0, 10, 20, 4, 6, 11, 21, 1, 7, 24, 3,
                 16, 22, 13]


def replay(start, path):
    """The layout after the blank's moves `path`, each checked legal."""
    cells = [int(t) for t in start]
    blank = cells.index(0)
    for m in path:
        to = blank + MOVES[m]
        assert 0 <= to < 25, path
        assert m not in "lr" or to // 5 == blank // 5, path
        cells[blank], cells[to] = cells[to], cells[blank]
        blank = to
    return cells


def scramble(seed, moves):
    """The goal after `moves` random moves of the blank that never undo the one before."""
    rng = random.Random(seed)
    cells, blank, last = list(GOAL), 0, None
    for _ in range(moves):
        options = []
        for m, step in MOVES.items():
            to = blank + step
            if not 0 <= to < 25 or (m in "lr" and to // 5 != blank // 5):
                continue
            if last is not None and step == -MOVES[last]:
                continue
            options.append(m)
        m = rng.choice(options)
        to = blank + MOVES[m]
        cells[blank], cells[to] = cells[to], cells[blank]
        blank, last = to, m
    return cells


@pytest.fixture(scope="module")
def files(cli, tmp_path_factory):
    """5-5-5-5-4 written by the command and by the package."""
    folder = tmp_path_factory.mktemp("p25")
    by_cli = folder / "cli.slp"
    cli.run("generate", "--board", "5x5", "--pdb", "5-5-5-5-4", "-o", str(by_cli))
    by_python = folder / "python.slp"
    told = []
    twentyfour = slidetable.TwentyFour.generate(by_python, pdb="5-5-5-5-4",
                                                progress=lambda d, t: told.append((d, t)))
    return by_cli, by_python, twentyfour, told


@pytest.fixture(scope="module")
def puzzles():
    """Twelve scrambles of 40 to 62 moves, and the goal: seconds each on 5-5-5-5-4."""
    return [scramble(seed, 40 + 2 * seed) for seed in range(12)] + [GOAL]


def test_generate_writes_the_commands_file_byte_for_byte(files):
    by_cli, by_python, twentyfour, told = files
    assert by_python.read_bytes() == by_cli.read_bytes()
    assert twentyfour.file == str(by_python)
    assert twentyfour.partition == "5-5-5-5-4"
    assert twentyfour.board == "5x5"
    assert twentyfour.database_goal == GOAL
    assert twentyfour.groups[0] == [1, 2, 3, 4, 5] and twentyfour.groups[4] == [21, 22, 23, 24]
    assert twentyfour.reflects
    assert told and told[-1][0] == told[-1][1] == 4 * 6375600 + 303600


def test_solve_and_distance_answer_as_the_command(files, puzzles, cli):
    by_cli, _, _, _ = files
    twentyfour = slidetable.TwentyFour.open(by_cli)
    text = "".join(" ".join(map(str, p)) + "\n" for p in puzzles)
    lengths = [int(x) for x in cli.lines("distance", "--board", "5x5", "--table", str(by_cli),
                                          input=text)]
    paths = twentyfour.solve_many(np.array(puzzles, dtype=np.uint8))
    assert [len(p) for p in paths] == lengths
    for start, path in zip(puzzles, paths):
        assert replay(start, path) == GOAL
    assert twentyfour.distance(puzzles).tolist() == lengths
    assert twentyfour.solve(puzzles[3]) == paths[3]
    assert twentyfour.distance(" ".join(map(str, puzzles[3]))) == lengths[3]
    assert twentyfour.solve(GOAL) == ""
    # Estimates never exceed the truth.
    assert (twentyfour.estimate(puzzles) <= np.array(lengths)).all()


def test_every_input_shape_is_read_as_the_package_reads_puzzles(files, puzzles):
    _, _, twentyfour, _ = files
    rows = np.array(puzzles[:4], dtype=np.int64)
    expected = twentyfour.distance(rows).tolist()
    assert twentyfour.distance(np.asfortranarray(rows.astype(np.uint16))).tolist() == expected
    assert twentyfour.distance(rows.T.copy().T).tolist() == expected
    assert twentyfour.distance(pd.DataFrame(rows, columns=[f"c{i}" for i in range(25)],
                                            index=[7, 8, 9, 10])).tolist() == expected
    assert twentyfour.distance([tuple(p) for p in puzzles[:4]]).tolist() == expected
    assert twentyfour.distance(pd.Series(puzzles[0])) == expected[0]


def test_bad_input_is_named_and_the_other_class_is_none(files):
    _, _, twentyfour, _ = files
    with pytest.raises(ValueError, match="^expected 25 tiles, found 3$"):
        twentyfour.solve([1, 2, 3])
    bad = np.array([GOAL, GOAL[:24] + [25]])
    with pytest.raises(ValueError, match=r"^row 1: tile 25 is not on a 5x5 board"):
        twentyfour.distance(bad)
    with pytest.raises(ValueError, match=r"^row 0: expected 25 tiles, found 16$"):
        twentyfour.distance(np.zeros((2, 16), dtype=np.uint8))
    with pytest.raises(ValueError, match="appears twice"):
        twentyfour.solve([0] * 25)
    with pytest.raises(ValueError, match=r"^tile -1 is not on a 5x5 board \(tiles are 1..24, the blank is 0\)$"):
        twentyfour.solve([-1] + GOAL[1:])
    other = [0, 2, 1] + GOAL[3:]
    assert twentyfour.solve(other) is None
    assert twentyfour.distance(other) == -1
    assert twentyfour.search(other)["solvable"] is False


def test_search_gives_what_the_command_gives(files, puzzles, cli):
    by_cli, _, _, _ = files
    twentyfour = slidetable.TwentyFour.open(by_cli)
    line = " ".join(map(str, puzzles[5]))
    printed = json.loads(cli.run("search", "--method", "idastar", "--board", "5x5", "--json",
                                 "--table", str(by_cli), input=line + "\n").stdout)
    reports = []
    record = twentyfour.search(puzzles[5], progress=lambda *r: reports.append(r))
    assert record["distance"] == printed["distance"]
    assert record["puzzle"] == printed["puzzle"]
    assert record["method"] == "idastar" and record["heuristic"] == "pdb"
    assert record["partition"] == printed["partition"] == "5-5-5-5-4"
    assert record["database"] == str(by_cli)
    stats = record["stats"]
    assert stats["bound"] == record["distance"]
    assert stats["generated"] >= stats["expanded"] >= record["distance"]
    assert stats["iterations"] >= 1 and stats["milliseconds"] > 0
    assert replay(puzzles[5], record["path"]) == GOAL
    for row, bound, expanded, seconds in reports:
        assert row == 0 and bound <= record["distance"] and expanded >= 0 and seconds >= 0


def test_a_stopped_search_keeps_its_figures_and_a_true_bound(files):
    _, _, twentyfour, _ = files
    record = twentyfour.search(KORF_FELNER_1, max_expanded=200_000)
    assert record["distance"] is None and record["path"] is None
    assert record["solvable"] is True
    assert "no solution is shorter than" in record["error"]
    assert 0 < record["stats"]["bound"] <= 95
    assert record["stats"]["expanded"] >= 200_000


def test_open_refuses_what_is_not_a_24_puzzle_database(tmp_path, cli):
    with pytest.raises(FileNotFoundError):
        slidetable.TwentyFour.open(tmp_path / "missing.slp")
    table = tmp_path / "3x3.slt"
    cli.run("generate", "-o", str(table))
    with pytest.raises(ValueError, match="3x3.slt"):
        slidetable.TwentyFour.open(table)
    # 8-8-8 is a partition this build takes, refused here for memory with the figures and
    # the build in parts; a group past a 64-bit rank is no partition at all.
    with pytest.raises(ValueError, match=r"the 8-8-8 pattern databases of 5x5 need 316\.2 GB "
                                         r"of memory.*a build in parts"):
        slidetable.TwentyFour.generate(pdb="8-8-8")
    with pytest.raises(ValueError, match="partition '14-10': a group of 14 tiles"):
        slidetable.TwentyFour.generate(pdb="14-10")


def test_the_default_file_is_the_commands(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert slidetable.TwentyFour.default_path() == str(tmp_path / "slidetable" / "5x5.slp")
    with pytest.raises(FileNotFoundError, match="slidetable generate --board 5x5"):
        slidetable.TwentyFour.default()
    made = slidetable.TwentyFour.default(build="3-3-3-3-3-3-3-3")
    assert made.file == slidetable.TwentyFour.default_path()
    assert slidetable.TwentyFour.default().partition == made.partition == "3-3-3-3-3-3-3-3"
    # Made already: opened, not built again.
    assert slidetable.TwentyFour.default(build="5-5-5-5-4").partition == "3-3-3-3-3-3-3-3"
    assert "TwentyFour(partition='3-3-3-3-3-3-3-3'" in repr(made)


INTERRUPTED = r"""
import signal, sys
# Ctrl-C is KeyboardInterrupt here whatever the launcher left: a job a shell starts in the
# background without job control inherits SIGINT ignored, and Python then keeps it so.
signal.signal(signal.SIGINT, signal.default_int_handler)
import slidetable
hard = [int(x) for x in sys.argv[2].split()]
t = slidetable.TwentyFour.generate(pdb="3-3-3-3-3-3-3-3")
calls = {
    "solve": lambda: t.solve(hard),
    "search": lambda: t.search(hard),
    "solve_many": lambda: t.solve_many([hard, hard]),
    "distance": lambda: t.distance([hard, hard]),
}
print("ready", flush=True)
try:
    calls[sys.argv[1]]()
    print("returned", flush=True)
except KeyboardInterrupt as e:
    print("KeyboardInterrupt", e.bound, e, flush=True)
"""


@pytest.mark.parametrize("call", ["solve", "search", "solve_many", "distance"])
def test_ctrl_c_raises_keyboard_interrupt_with_the_bound_proved(call):
    import signal
    import subprocess
    import sys
    import time
    child = subprocess.Popen([sys.executable, "-c", INTERRUPTED, call,
                              " ".join(map(str, KORF_FELNER_1))],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "ready\n", child.stderr.read()
        time.sleep(1.5)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        line = child.stdout.readline()
        waited = time.monotonic() - sent
        assert line.startswith("KeyboardInterrupt "), (line, child.stderr.read())
        _, bound, message = line.split(" ", 2)
        assert 0 < int(bound) <= 95
        row = "row 0: " if call in ("solve_many", "distance") else ""
        assert message.startswith(row + "search stopped at its request to stop after "), message
        assert message.rstrip().endswith(f"no solution is shorter than {bound} moves"), message
        assert waited < 0.5, f"{call}: KeyboardInterrupt {waited:.2f} s after SIGINT"
    finally:
        child.kill()
        child.wait()


def test_stubs_and_help_name_the_class():
    assert "24-puzzle" in slidetable.TwentyFour.__doc__
    stubs = (pathlib.Path(slidetable.__file__).parent / "_slidetable.pyi").read_text()
    assert "class TwentyFour" in stubs
    assert "TwentyFour" in slidetable.__all__


def test_strided_arrays_other_dtypes_and_the_search_figures(files, puzzles):
    """Slices with steps are read as their values; floats, bools and integers past any tile
    are refused by name, never read as tiles; a solved search's `peak_open` is its deepest
    path, the solution's length (as IDA* on 4x4 reports it)."""
    _, _, twentyfour, _ = files
    rows = np.array(puzzles[:4], dtype=np.int64)
    expected = twentyfour.distance(rows).tolist()
    assert twentyfour.distance(rows[::2]).tolist() == expected[::2]
    wide = np.zeros((4, 50), dtype=np.int32)
    wide[:, ::2] = rows
    assert twentyfour.distance(wide[:, ::2]).tolist() == expected
    with pytest.raises(TypeError, match="not of float64"):
        twentyfour.distance(rows.astype(float))
    with pytest.raises(TypeError, match="not of bool"):
        twentyfour.solve(np.array(GOAL, dtype=bool))
    with pytest.raises(ValueError, match="tile 1099511627777 is not on a 5x5 board"):
        twentyfour.solve([2**40 + 1] + GOAL[1:])
    record = twentyfour.search(puzzles[0])
    assert record["stats"]["peak_open"] == record["distance"] > 0


def test_databases_larger_than_the_memory_are_refused_before_the_search(tmp_path, monkeypatch):
    # A sparse file as long as 8-8-8's: refused from its length, as the command refuses it,
    # before a byte is read; the variable is the way past the check.
    big = tmp_path / "5x5-888.slp"
    with open(big, "wb") as f:
        f.truncate(130_827_312_000)
    monkeypatch.setenv("SLIDETABLE_AVAILABLE_MEMORY", "24000000000")
    with pytest.raises(ValueError, match=r"the pattern databases take 130\.8 GB and 24\.0 GB "
                                         r"of memory is available.*SLIDETABLE_AVAILABLE_MEMORY"):
        slidetable.TwentyFour.open(big)
    big.unlink()


def test_a_5x5_grid_and_a_batch_of_grids_are_read_as_the_flat_puzzles(files, puzzles):
    _, _, twentyfour, _ = files
    flat = np.array([scramble(seed, 14) for seed in range(3)], dtype=np.int64)
    batch = flat.reshape(3, 5, 5)
    want = twentyfour.distance(flat).tolist()
    for given in (batch, np.asfortranarray(batch), batch.tolist(), batch.astype(">u2")):
        assert twentyfour.distance(given).tolist() == want
        assert twentyfour.estimate(given).tolist() == twentyfour.estimate(flat).tolist()
    assert list(twentyfour.solve_many(batch)) == list(twentyfour.solve_many(flat))
    for shown in (batch[0], batch[0].tolist(), np.ascontiguousarray(batch[0].T).T):
        assert twentyfour.distance(shown) == want[0]
        assert twentyfour.solve(shown) == twentyfour.solve(flat[0])
        assert twentyfour.search(shown)["distance"] == want[0]
        assert twentyfour.estimate(shown) == twentyfour.estimate(flat[0])
    with pytest.raises(ValueError, match=r"^a grid of 4 rows of 4 on a 5x5 board: expected 5 rows of 5"):
        twentyfour.distance(np.arange(16).reshape(4, 4))
