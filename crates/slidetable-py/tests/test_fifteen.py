"""slidetable.Fifteen and the heuristics against Korf's published optimal lengths and the
`slidetable` command on the same 5-5-5 databases (the small ones: a second to build)."""

import json

import numpy as np
import pytest

import slidetable

KORF_GOAL = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"


@pytest.fixture(scope="module")
def databases(cli, tmp_path_factory):
    """The 5-5-5 databases, written by the command and opened here."""
    path = tmp_path_factory.mktemp("pdb") / "4x4-555.slt"
    cli.run("generate", "--board", "4x4", "--pdb", "5-5-5", "-o", str(path))
    return path, slidetable.Fifteen.open(path)


@pytest.fixture(scope="module")
def easiest(korf):
    """The 12 instances Korf's IDA* solved with the fewest nodes: seconds with 5-5-5."""
    return sorted(korf, key=lambda row: row[2])[:12]


def test_a_batch_of_korf_instances_gets_the_published_optimal_lengths(databases, easiest):
    _, fifteen = databases
    puzzles = np.array([row[3] for row in easiest], dtype=np.uint8)
    paths = fifteen.solve_many(puzzles, goal=KORF_GOAL)
    assert [len(p) for p in paths] == [row[1] for row in easiest]
    # Each path is a solution: replay it.
    for start, path in zip(puzzles, paths):
        assert replay(start, path) == list(range(16))
    assert fifteen.distance(puzzles, goal=KORF_GOAL).tolist() == [row[1] for row in easiest]


def test_solve_answers_as_the_command(databases, easiest, cli):
    path, fifteen = databases
    puzzles = ["5 1 4 6 10 3 2 8 14 11 13 12 9 0 7 15",
               "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
               "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"]
    puzzles += [" ".join(map(str, row[3])) for row in easiest[:3]]
    text = "\n".join(puzzles) + "\n"
    expected = cli.lines("path", "--table", str(path), input=text)
    assert [fifteen.solve(p) if fifteen.solve(p) is not None else "unsolvable"
            for p in puzzles] == expected
    assert list(fifteen.solve_many(puzzles)) == [None if e == "unsolvable" else e
                                                 for e in expected]
    ordered = cli.lines("path", "--table", str(path), "--order", "dlru", "--goal", KORF_GOAL,
                        input=text)
    assert [fifteen.solve(p, goal=KORF_GOAL, order="dlru") or "unsolvable" for p in puzzles] \
        == [o if o else "unsolvable" for o in ordered]
    assert [str(fifteen.distance(p)) for p in puzzles] == \
        cli.lines("distance", "--table", str(path), input=text)


def test_random_draws_what_the_command_draws_with_the_same_seed(databases, cli):
    _, fifteen = databases
    drawn = fifteen.random(50, seed=7)
    assert drawn.dtype == np.uint8 and drawn.shape == (50, 16)
    expected = cli.lines("random", "--board", "4x4", "--count", "50", "--seed", "7")
    assert [" ".join(map(str, row)) for row in drawn] == expected
    # Another goal: none of its puzzles reaches the standard one; no layout twice.
    other = "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0"
    odd = fifteen.random(40, seed=3, goal=other, distinct=True)
    assert [" ".join(map(str, row)) for row in odd] == cli.lines(
        "random", "--board", "4x4", "--count", "40", "--seed", "3", "--goal", other,
        "--distinct")
    assert all(fifteen.distance(p) == -1 for p in odd[:2])
    assert len({bytes(row) for row in odd}) == 40
    assert (fifteen.random(4, seed=9) == fifteen.random(4, seed=9)).all()


def test_databases_built_in_memory_are_the_commands(databases):
    _, opened = databases
    made = slidetable.Fifteen.generate("5-5-5")
    assert made.groups == opened.groups and made.database_goal == opened.database_goal
    assert made.file is None and "in memory" in repr(made) and "5-5-5" in repr(made)
    puzzle = "5 1 4 6 10 3 2 8 14 11 13 12 9 0 7 15"
    assert made.solve(puzzle) == opened.solve(puzzle)


def test_bad_input_raises_value_error_with_the_commands_message(databases, cli):
    path, fifteen = databases
    for line in ["1 2 3", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"]:
        expected = cli.error("distance", "--table", str(path), input=line + "\n")
        with pytest.raises(ValueError) as raised:
            fifteen.solve(line)
        assert str(raised.value) == expected
    goal = "1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15"
    expected = cli.run("distance", "--table", str(path), "--goal", goal,
                       input="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n", check=False).stderr
    with pytest.raises(ValueError) as raised:
        fifteen.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", goal=goal)
    assert str(raised.value) in expected and "no symmetry" in str(raised.value)
    with pytest.raises(ValueError, match="partition '5-5'"):
        slidetable.Fifteen.generate("5-5")
    with pytest.raises(FileNotFoundError, match="missing.slt: cannot read"):
        slidetable.Fifteen.open(path.parent / "missing.slt")


def test_the_heuristics_never_exceed_the_truth_and_agree_with_the_command(databases, easiest,
                                                                           cli):
    _, fifteen = databases
    puzzles = np.array([row[3] for row in easiest], dtype=np.int64)
    truth = np.array([row[1] for row in easiest])
    md = slidetable.manhattan(puzzles, goal=KORF_GOAL)
    lc = slidetable.linear_conflict(puzzles, goal=KORF_GOAL)
    pdb = slidetable.pattern(puzzles, fifteen, goal=KORF_GOAL)
    assert (md <= lc).all() and (lc <= truth).all() and (pdb <= truth).all()
    assert (pdb >= md).all()
    assert fifteen.estimate(puzzles, goal=KORF_GOAL).tolist() == pdb.tolist()
    assert slidetable.manhattan("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15") == 1
    # On the 3x3 board, every state against the command's report of the same heuristic.
    data = slidetable.dataset("3x3")
    for name, function in [("manhattan", slidetable.manhattan),
                           ("linear-conflict", slidetable.linear_conflict),
                           ("misplaced", slidetable.misplaced)]:
        h = function(data.states)
        report = json.loads(cli.run("heuristic", "--name", name, "--json").stdout)
        means = [row["mean_estimate"] for row in report["distances"]]
        ours = [h[data.distance == d].mean() for d in range(len(means))]
        assert np.allclose(ours, means)
        assert report["worst_underestimate"]["estimate"] == int(
            function(report["worst_underestimate"]["puzzle"]))
    with pytest.raises(ValueError, match="12 tiles: give the board"):
        slidetable.manhattan(np.zeros((2, 12), dtype=np.uint8))
    assert slidetable.manhattan([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11], board="3x4") == 1


def replay(start, path):
    """The cells after the blank moves along `path` on the 4x4 board."""
    cells = list(map(int, start))
    step = {"u": -4, "d": 4, "l": -1, "r": 1}
    for m in path:
        b = cells.index(0)
        to = b + step[m]
        assert 0 <= to < 16 and (m in "ud" or to // 4 == b // 4)
        cells[b], cells[to] = cells[to], cells[b]
    return cells


def standard_class(tiles) -> bool:
    """Whether a 15-puzzle can reach the standard goal (tiles in order, the blank last)."""
    order = [t for t in tiles if t]
    inversions = sum(a > b for i, a in enumerate(order) for b in order[i + 1:])
    return (inversions + tiles.index(0) // 4) % 2 == 1


def test_korf_names_the_goal_with_the_blank_first(databases, easiest):
    _, fifteen = databases
    number, length, nodes, tiles = easiest[0]
    assert len(fifteen.solve(tiles, goal="korf")) == length
    assert fifteen.distance(tiles, goal="KORF") == length
    assert fifteen.solve(tiles, goal="korf") == fifteen.solve(tiles, goal=list(range(16)))


def test_a_puzzle_of_the_other_goals_class_is_told_which_goal_solves_it(databases, easiest):
    _, databases = databases
    assert standard_class(list(range(1, 16)) + [0])
    tiles = next(k[3] for k in easiest if not standard_class(k[3]))
    shown = " ".join(map(str, tiles))
    with pytest.warns(UserWarning, match=f"^{shown} cannot reach the goal 1 2 3 4 5 6 7 8 9 10 "
                                         f"11 12 13 14 15 0 \\(the other parity class\\); it "
                                         f"reaches goal=\"korf\" \\(0 1 2 3 "):
        assert databases.solve(tiles) is None
    with pytest.warns(UserWarning, match="reaches goal=\"korf\""):
        assert databases.distance(tiles) == -1


def test_the_version_is_the_workspaces():
    import pathlib
    import re
    cargo = (pathlib.Path(__file__).resolve().parents[3] / "Cargo.toml").read_text()
    assert slidetable.__version__ == re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
    assert "__version__" in slidetable.__all__


def test_the_default_partitions_are_named_as_default_uses_them():
    # The 7-8 databases when the command has made them, else the 6-6-3 built on first use:
    # both names exported, so a notebook can say which one `Fifteen.default()` opened.
    assert slidetable.DEFAULT_PARTITION == "7-8"
    assert slidetable.FIRST_USE_PARTITION == "6-6-3"
    assert "FIRST_USE_PARTITION" in slidetable.__all__


def test_a_4x4_grid_and_a_batch_of_grids_are_read_as_the_flat_puzzles(databases, easiest):
    _, fifteen = databases
    flat = np.array([row[3] for row in easiest[:3]], dtype=np.int64)
    batch = flat.reshape(3, 4, 4)
    goal = np.array(KORF_GOAL.split(), dtype=np.int64)
    want = fifteen.distance(flat, goal=KORF_GOAL).tolist()
    for given in (batch, np.asfortranarray(batch), batch.tolist(), batch.astype(np.uint8)):
        assert fifteen.distance(given, goal=goal.reshape(4, 4)).tolist() == want
        assert fifteen.estimate(given, goal=KORF_GOAL).tolist() == fifteen.estimate(
            flat, goal=KORF_GOAL).tolist()
        assert slidetable.pattern(given, fifteen, goal=KORF_GOAL).tolist() == slidetable.pattern(
            flat, fifteen, goal=KORF_GOAL).tolist()
    assert list(fifteen.solve_many(batch, goal=KORF_GOAL)) == list(
        fifteen.solve_many(flat, goal=KORF_GOAL))
    grid = batch[0]
    for shown in (grid, grid.tolist(), np.asfortranarray(grid), np.ascontiguousarray(grid.T).T):
        assert fifteen.distance(shown, goal=KORF_GOAL) == want[0]
        assert fifteen.solve(shown, goal=KORF_GOAL) == fifteen.solve(flat[0], goal=KORF_GOAL)
        assert fifteen.search(shown, goal=KORF_GOAL)["distance"] == want[0]
        assert slidetable.manhattan(shown, board="4x4", goal=KORF_GOAL) == slidetable.manhattan(
            flat[0], goal=KORF_GOAL)
    with pytest.raises(ValueError, match=r"^a grid of 3 rows of 3 on a 4x4 board: expected 4 rows of 4"):
        fifteen.distance(np.arange(9).reshape(3, 3))
