"""slidetable.Table against the `slidetable` command on the same puzzles and tables."""

import json
import sys
import threading
import warnings

import numpy as np
import pytest

import slidetable

EXAMPLES = ["2 3 4 1 5 x 7 6 8", "8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1",
            "1 2 3 4 5 6 7 8 0", "2 1 3 4 5 6 7 8 0", "2,3,4,1,5,0,7,6,8", "23415x768"]


@pytest.fixture(scope="module")
def table():
    return slidetable.Table.default("3x3")


def random_puzzles(cells: int, count: int, seed: int) -> np.ndarray:
    """Random permutations: half of them cannot reach the goal."""
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(cells) for _ in range(count)], dtype=np.int64)


def as_lines(puzzles: np.ndarray) -> str:
    return "".join(" ".join(map(str, row)) + "\n" for row in puzzles)


def test_one_puzzle_in_every_spelling_answers_as_the_command(table, cli):
    text = "\n".join(EXAMPLES) + "\n"
    assert [str(table.distance(p)) for p in EXAMPLES] == cli.lines("distance", input=text)
    paths = cli.lines("path", input=text)
    assert [table.path(p) if table.path(p) is not None else "unsolvable" for p in EXAMPLES] == paths
    # A list, a tuple and a 1-D array of any integer dtype are the same puzzle.
    for given in ([2, 3, 4, 1, 5, 0, 7, 6, 8], (2, 3, 4, 1, 5, 0, 7, 6, 8),
                  np.array([2, 3, 4, 1, 5, 0, 7, 6, 8], dtype=np.uint16)):
        assert table.distance(given) == 19
        assert table.path(given) == paths[0]


def test_a_batch_answers_as_the_command_line_by_line(table, cli):
    puzzles = random_puzzles(9, 3000, seed=1)
    text = as_lines(puzzles)
    distances = table.distance(puzzles)
    assert distances.dtype == np.int32 and distances.shape == (3000,)
    assert [str(d) for d in distances] == cli.lines("distance", input=text)
    paths = table.path(puzzles)
    assert [p if p is not None else "unsolvable" for p in paths] == cli.lines("path", input=text)
    assert (distances == -1).sum() > 1000  # both parity classes were asked


def test_a_batch_answers_each_puzzle_as_it_is_answered_alone(table):
    # Batches are answered a block of walks at a time; one puzzle on its own. The goal itself
    # (path ""), puzzles of the other class (None) and lists of puzzles among them.
    puzzles = random_puzzles(9, 700, seed=9)
    puzzles[5] = [1, 2, 3, 4, 5, 6, 7, 8, 0]
    for batch in (puzzles, puzzles.astype(np.uint8), puzzles.tolist()):
        distances, paths = table.distance(batch), table.path(batch)
        assert list(distances) == [table.distance(p) for p in puzzles]
        assert list(paths) == [table.path(p) for p in puzzles]
    assert paths[5] == "" and distances[5] == 0
    assert all(isinstance(p, str) for p in paths if p is not None)
    assert len(table.path(puzzles[:0])) == 0 and len(table.distance(puzzles[:0])) == 0


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int16, np.uint32,
                                   np.int32, np.uint64, np.int64])
def test_any_integer_dtype_and_layout_gives_the_same_answers(table, dtype):
    puzzles = random_puzzles(9, 500, seed=2)
    expected = table.distance(puzzles)
    assert (table.distance(puzzles.astype(dtype)) == expected).all()
    # Not contiguous: every other row of a Fortran-ordered copy.
    strided = np.asfortranarray(np.repeat(puzzles, 2, axis=0).astype(dtype))[::2]
    assert (table.distance(strided) == expected).all()


def test_other_goals_and_letter_orders_answer_as_the_command(table, cli):
    puzzles = random_puzzles(9, 300, seed=3)
    goal = "1 2 3 8 0 4 7 6 5"
    text = as_lines(puzzles)
    assert [str(d) for d in table.distance(puzzles, goal=goal)] == \
        cli.lines("distance", "--goal", goal, input=text)
    paths = table.path(puzzles, goal=goal, order="dlru")
    assert [p if p is not None else "unsolvable" for p in paths] == \
        cli.lines("path", "--goal", goal, "--order", "dlru", input=text)
    assert table.path("2 8 3 1 0 4 7 6 5", goal=goal, order="dlru") == "uldr"


@pytest.mark.parametrize("line", ["1 2 3 4 5 6 7 8", "1 2 3 4 5 6 7 8 8", "1 2 3 4 5 6 7 8 9",
                                  "abc", "1 2 3 4 5 6 7 8 -1", "1 2 3 4 5 6 7 x 0",
                                  "1 2 3 4 5 6 7 8 0 9 10 11 12 13 14 15",
                                  "1 2 3 4 5 6 7 8 0 9 10 11", "12345670"])
def test_a_bad_puzzle_raises_value_error_with_the_commands_message(table, cli, line):
    expected = cli.error("distance", input=line + "\n")
    with pytest.raises(ValueError) as raised:
        table.distance(line)
    # A count of another board's tiles: the same words, then the advice on the board to use
    # (the command's names a flag, the package's a class).
    message = str(raised.value)
    if expected.startswith("expected "):
        assert message.split(" (")[0] == expected.split(" (")[0], (expected, message)
    else:
        assert message == expected


def test_bad_rows_of_an_array_are_named_by_row(table):
    puzzles = random_puzzles(9, 100, seed=4)
    puzzles[70, 0] = puzzles[70, 1]
    puzzles[90, 0] = 9
    with pytest.raises(ValueError, match=r"^row 70: tile \d appears twice$"):
        table.distance(puzzles)
    with pytest.raises(ValueError, match=r"^row 0: expected 9 tiles, found 8: 8 tiles fit a 2x4"):
        table.distance(puzzles[:, :8])
    with pytest.raises(TypeError, match="array of integers"):
        table.distance(puzzles.astype(np.float64))
    with pytest.raises(ValueError, match=r"^tile -1 is not on a 3x3 board"):
        table.distance([-1, 1, 2, 3, 4, 5, 6, 7, 8])
    with pytest.raises(TypeError):
        table.distance(3.5)


def test_bad_arguments_are_refused_with_the_commands_words(table, cli):
    with pytest.raises(ValueError, match="is not an order of the four moves"):
        table.path(EXAMPLES[0], order="dlrx")
    with pytest.raises(ValueError, match="^depth: no state is 40 moves from 1 2 3 4 5 6 7 8 0: "
                                         "the farthest are 31 moves away$"):
        table.random(40)
    assert "no state is 40 moves" in cli.run("random", "--depth", "40", check=False).stderr
    with pytest.raises(ValueError, match="empty range"):
        table.random((3, 2))
    with pytest.raises(ValueError, match="^goal: tile 1 appears twice$"):
        table.distance(EXAMPLES[0], goal="1 1 2 3 4 5 6 7 8")
    with pytest.raises(ValueError, match="board size 'three' is not of the form RxC"):
        slidetable.Table.default("three")
    with pytest.raises(ValueError, match="tables of every state go up to 14 cells"):
        slidetable.Table.generate("4x4")


def test_random_draws_what_the_command_draws_with_the_same_seed(table, cli):
    for args in (["20", 5, False], [(28, 31), 4, False], ["3", 8, True]):
        depth, count, distinct = args
        depth_arg = depth if isinstance(depth, str) else f"{depth[0]}..{depth[1]}"
        command = ["random", "--depth", depth_arg, "--count", str(count), "--seed", "7"]
        if distinct:
            command.append("--distinct")
        expected = cli.lines(*command)
        drawn = table.random(int(depth) if isinstance(depth, str) else depth, count, seed=7,
                             distinct=distinct)
        assert drawn.dtype == np.uint8 and drawn.shape == (count, 9)
        assert [" ".join(map(str, row)) for row in drawn] == expected
    with pytest.raises(ValueError, match="only 8 states are 3 moves from the goal"):
        table.random(3, 9, distinct=True)


def test_histogram_and_hardest_are_the_commands(table, cli):
    info = json.loads(cli.run("info", "--board", "3x3", "--json").stdout)
    standard = [s for s in info["sections"] if s["goal"] == [1, 2, 3, 4, 5, 6, 7, 8, 0]][0]
    assert table.histogram().tolist() == standard["histogram"]
    assert table.histogram().dtype == np.uint64
    hardest = [line.split("\t")[0] for line in cli.lines("hardest")]
    assert [" ".join(map(str, row)) for row in table.hardest()] == hardest
    goal = "1 2 3 8 0 4 7 6 5"
    hardest = [line.split("\t")[0] for line in cli.lines("hardest", "--goal", goal)]
    assert [" ".join(map(str, row)) for row in table.hardest(goal=goal)] == hardest


def test_the_dataset_is_every_state_with_its_distance_and_first_move(table):
    data = slidetable.dataset("3x3")
    assert data.states.shape == (181440, 9) and data.states.dtype == np.uint8
    assert data.distance.dtype == np.int16 and data.move.dtype == np.int8
    # Every state once, each a permutation of the goal's class.
    assert len({row.tobytes() for row in data.states}) == 181440
    assert (table.distance(data.states) == data.distance).all()
    assert np.bincount(data.distance).tolist() == table.histogram().tolist()
    # The first move is the table's path's first letter; -1 only at the goal.
    sample = np.random.default_rng(5).choice(181440, 2000, replace=False)
    for i in sample:
        path = table.path(data.states[i])
        assert (slidetable.MOVES[data.move[i]] if data.move[i] >= 0 else "") == path[:1]
    assert (data.move == -1).sum() == 1
    # Chunks are the same rows, in order.
    chunks = list(slidetable.dataset_chunks("3x3", rows=50000))
    assert [len(c.states) for c in chunks] == [50000, 50000, 50000, 31440]
    assert (np.concatenate([c.states for c in chunks]) == data.states).all()
    assert (np.concatenate([c.move for c in chunks]) == data.move).all()


def test_a_table_file_written_by_the_command_opens(cli, tmp_path):
    path = tmp_path / "2x3.slt"
    cli.run("generate", "--board", "2x3", "-o", str(path))
    opened = slidetable.Table.open(path)
    made = slidetable.Table.generate("2x3")
    assert opened.file == str(path) and made.file is None
    assert opened.board == "2x3" and "path=" in repr(opened) and "in memory" in repr(made)
    puzzles = random_puzzles(6, 200, seed=6)
    expected = cli.lines("distance", "--table", str(path), input=as_lines(puzzles))
    assert [str(d) for d in opened.distance(puzzles)] == expected
    assert (made.distance(puzzles) == opened.distance(puzzles)).all()
    assert slidetable.Table.default("2x3").distance(puzzles).tolist() == \
        opened.distance(puzzles).tolist()


def test_a_weighted_table_answers_costs_as_the_command(cli, tmp_path):
    path = tmp_path / "2x3-tile.slt"
    cli.run("generate", "--board", "2x3", "--cost", "tile", "-o", str(path))
    made = slidetable.Table.generate("2x3", cost="tile")
    assert made.cost == "tile"
    assert made.distance("4 1 2 5 0 3") == 15 and made.path("4 1 2 5 0 3") == "lurrd"
    puzzles = random_puzzles(6, 200, seed=7)
    expected = cli.lines("distance", "--table", str(path), input=as_lines(puzzles))
    assert [str(d) for d in made.distance(puzzles)] == expected


def test_a_goal_table_answers_for_its_goal():
    goal = "1 2 3 8 0 4 7 6 5"
    made = slidetable.Table.generate("3x3", goal=goal)
    assert made.goal == [1, 2, 3, 8, 0, 4, 7, 6, 5] and len(made.goals) == 1
    assert made.distance("2 8 3 1 0 4 7 6 5") == 4
    assert made.histogram()[-1] == 148  # blank in the centre: 148 states 30 moves away


def test_files_that_are_no_tables_raise_with_the_commands_message(cli, tmp_path):
    with pytest.raises(FileNotFoundError, match="cannot read"):
        slidetable.Table.open(tmp_path / "missing.slt")
    bad = tmp_path / "bad.slt"
    bad.write_bytes(b"not a table at all" * 10)
    expected = cli.run("distance", "--table", str(bad), input="1 2 3 4 5 6 7 8 0\n",
                       check=False).stderr.strip().removeprefix("slidetable: ")
    with pytest.raises(ValueError) as raised:
        slidetable.Table.open(bad)
    assert str(raised.value) == expected


def test_a_default_table_of_another_board_is_refused(tmp_path, cli, monkeypatch):
    path = tmp_path / "2x3.slt"
    cli.run("generate", "--board", "2x3", "-o", str(path))
    monkeypatch.setenv("SLIDETABLE_TABLE", str(path))
    expected = cli.run("distance", input="1 2 3 4 5 6 7 8 0\n", check=False).stderr
    with pytest.raises(ValueError) as raised:
        slidetable.Table.default("3x3")
    assert str(raised.value) in expected
    assert "but the default table must be for 3x3 boards with unit costs" in str(raised.value)


def test_the_gil_is_released_while_a_batch_runs(table):
    puzzles = np.tile(random_puzzles(9, 1000, seed=8), (400, 1))
    # The main thread gives the GIL up only when the batch releases it: Python's own switch
    # would come after 2 s.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(2.0)
    ticks = []
    running = threading.Event()
    stop = threading.Event()

    def count():
        running.set()
        while not stop.is_set():
            ticks.append(1)

    thread = threading.Thread(target=count)
    thread.start()
    running.wait()
    before = len(ticks)
    table.path(puzzles)  # holding the GIL throughout would leave the counter still
    during = len(ticks) - before
    stop.set()
    thread.join()
    sys.setswitchinterval(interval)
    assert during > 0


def test_help_and_stubs_document_the_package():
    assert "every state" in slidetable.__doc__
    assert "int32" in slidetable.Table.distance.__doc__
    assert "seed" in slidetable.Table.random.__doc__
    import pathlib
    package = pathlib.Path(slidetable.__file__).parent
    assert (package / "py.typed").exists() and (package / "_slidetable.pyi").exists()


@pytest.fixture(scope="module")
def two_bit_2x5(cli, tmp_path_factory):
    """A 2x5 table in 2-bit entries, as 2x7's: with SLIDETABLE_LEVEL_PASS=1 its whole-table
    questions go through the level pass as a 14-cell table's do (no distance recovered)."""
    path = tmp_path_factory.mktemp("levels") / "2x5-2bit.slt"
    cli.run("generate", "--board", "2x5", "--encoding", "2bit", "-o", str(path))
    return path


def test_whole_table_calls_by_levels_answer_as_the_command(two_bit_2x5, cli, monkeypatch):
    # The byte a state first (the pass not asked for), then the level pass, then the command
    # with the pass: one answer.
    table = slidetable.Table.open(two_bit_2x5)
    rows = lambda a: [" ".join(map(str, row)) for row in a]
    plain = {
        "random": rows(table.random(20, 6, seed=11)),
        "range": rows(table.random((30, 33), 5, seed=3, distinct=True)),
        "hardest": rows(table.hardest()),
    }
    monkeypatch.setenv("SLIDETABLE_LEVEL_PASS", "1")
    table = slidetable.Table.open(two_bit_2x5)
    seen = []
    progress = lambda done, total: seen.append((done, total))
    assert rows(table.random(20, 6, seed=11, progress=progress)) == plain["random"]
    assert seen and seen[-1] == (seen[-1][1], seen[-1][1])
    assert sum(table.histogram()[:21]) == seen[-1][1]
    assert rows(table.hardest()) == plain["hardest"]
    command = cli.lines("hardest", "--table", str(two_bit_2x5))
    assert rows(table.hardest()) == [line.split("\t")[0] for line in command]
    by_levels = rows(table.random((30, 33), 5, seed=3, distinct=True))
    command = cli.lines("random", "--table", str(two_bit_2x5), "--depth", "30..33",
                        "--count", "5", "--seed", "3", "--distinct")
    assert by_levels == command
    # A range counts distance by distance: other puzzles than the byte a state's, as far.
    assert len(set(by_levels)) == 5 and all(30 <= table.distance(p) <= 33 for p in by_levels)
    assert all(30 <= table.distance(p) <= 33 for p in plain["range"])
    with pytest.raises(ValueError, match="depth: "):
        table.random(56)
    # A slice of the dataset: every row's distance walked in the mapped table.
    data = table.dataset(start=1000, stop=3000)
    assert (table.distance(data[0]) == data[1]).all()


def test_a_pass_without_the_memory_is_refused_and_one_stopped_raises(two_bit_2x5, monkeypatch):
    monkeypatch.setenv("SLIDETABLE_LEVEL_PASS", "1")
    table = slidetable.Table.open(two_bit_2x5)
    monkeypatch.setenv("SLIDETABLE_AVAILABLE_MEMORY", "1000")
    with pytest.raises(MemoryError, match=r"hardest on a 2x5 table reads it level by level, in "
                       r"one bit a state \(226800 bytes\) beside its 453600 bytes of entries"):
        table.hardest()
    with pytest.raises(MemoryError, match="a dataset of 1814400 rows of the 2x5 table takes"):
        table.dataset()
    # A value that is not a number of bytes is refused with its name, not ignored.
    monkeypatch.setenv("SLIDETABLE_AVAILABLE_MEMORY", "1e9")
    with pytest.raises(ValueError, match="SLIDETABLE_AVAILABLE_MEMORY"):
        table.dataset()
    with pytest.raises(ValueError, match="SLIDETABLE_AVAILABLE_MEMORY"):
        table.random(20, count=10)
    monkeypatch.delenv("SLIDETABLE_AVAILABLE_MEMORY")

    def interrupt(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        table.hardest(progress=interrupt)
    # The table answers as before.
    assert len(table.hardest()) == table.histogram()[-1]


# Array-likes of puzzles: every shape is read by the library's one reader, and each is checked
# against the answers of its rows asked one by one as strings (another path through it).

def per_row(table, rows) -> list:
    return [table.distance(" ".join(str(int(v)) for v in row)) for row in rows]


LAYOUTS = {
    "C order": lambda a: np.ascontiguousarray(a),
    "Fortran order": lambda a: np.asfortranarray(a),
    "transpose of a transpose": lambda a: np.ascontiguousarray(a.T).T,
    "every other row": lambda a: np.repeat(a, 2, axis=0)[::2],
    "rows reversed": lambda a: np.ascontiguousarray(a[::-1])[::-1],
}


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int16, np.uint32,
                                   np.int32, np.uint64, np.int64])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_memory_order_and_dtype_reads_its_rows(table, dtype, layout):
    puzzles = random_puzzles(9, 40, seed=11).astype(dtype)
    given = LAYOUTS[layout](puzzles)
    assert given.shape == puzzles.shape and (given == puzzles).all()
    assert list(table.distance(given)) == per_row(table, puzzles)
    assert list(table.path(given)) == [table.path(" ".join(map(str, r))) for r in puzzles]


def test_a_transpose_is_read_as_its_values_not_its_memory(table):
    # The case: the rows of L.T are L's columns.
    L = np.array([[(i + 2 * j) % 9 for j in range(9)] for i in range(9)])
    assert list(table.distance(L.T)) == [22, -1, -1, -1, -1, 0, 20, 26, 22]
    assert list(table.distance(L.T)) == per_row(table, L.T)
    assert list(slidetable.manhattan(L.T)) == [slidetable.manhattan(list(r)) for r in L.T]


def test_sliced_arrays_are_their_values(table):
    wide = random_puzzles(9, 30, seed=12)
    for given in (wide[::2], wide[:, ::-1], wide[::-3, ::-1], wide.T.copy().T[5:17]):
        assert list(table.distance(given)) == per_row(table, given)


def test_pandas_frames_and_series_are_their_values():
    pd = pytest.importorskip("pandas")
    table = slidetable.Table.default("3x3")
    rows = [[2, 3, 4, 1, 5, 0, 7, 6, 8], [8, 6, 7, 2, 5, 4, 3, 0, 1]]
    # Integer column labels 0..8 are "0 1 2 … 8": never read in place of the values.
    frame = pd.DataFrame(rows)
    assert list(table.distance(frame)) == [19, 31]
    assert list(table.distance(pd.DataFrame(rows, columns=list("abcdefghi")))) == [19, 31]
    assert list(table.distance(frame.T.T)) == [19, 31]
    assert list(table.distance(frame.astype("int16"))) == [19, 31]
    assert list(table.distance(pd.Series(["2 3 4 1 5 x 7 6 8", "867254301"]))) == [19, 31]
    # A Series of integers is one puzzle, as a list of integers is.
    assert table.distance(pd.Series(rows[0])) == 19
    # A frame of one column of strings (`df[["puzzle"]]`) is that column, as its Series is;
    # so is a 2-D array of one column of strings.
    lines = ["2 3 4 1 5 x 7 6 8", "867254301"]
    column = pd.DataFrame({"puzzle": lines})[["puzzle"]]
    assert list(table.distance(column)) == [19, 31]
    assert list(slidetable.manhattan(column)) == [slidetable.manhattan(t) for t in lines]
    assert list(table.distance(np.array([[t] for t in lines]))) == [19, 31]
    assert list(table.distance(np.array([[t] for t in lines], dtype=object))) == [19, 31]
    # A column of integers stays rows of one tile each, refused, never read as one puzzle.
    with pytest.raises(ValueError, match=r"^row 0: expected 9 tiles, found 1"):
        table.distance(pd.DataFrame({"tile": rows[0]})[["tile"]].astype(object))
    assert list(slidetable.manhattan(frame)) == [slidetable.manhattan(r) for r in rows]


def test_lists_tuples_and_strings_of_puzzles(table):
    rows = [[2, 3, 4, 1, 5, 0, 7, 6, 8], [1, 2, 3, 4, 5, 6, 7, 8, 0], [2, 1, 3, 4, 5, 6, 7, 8, 0]]
    want = [19, 0, -1]
    assert list(table.distance(rows)) == want
    assert list(table.distance(tuple(tuple(r) for r in rows))) == want
    assert list(table.distance([np.array(r, dtype=np.uint8) for r in rows])) == want
    assert list(table.distance(["2 3 4 1 5 x 7 6 8", "123456780", "2,1,3,4,5,6,7,8,0"])) == want
    assert list(table.distance(np.array(["2 3 4 1 5 x 7 6 8", "123456780"]))) == want[:2]
    assert list(table.path(rows)) == [table.path(r) for r in rows]
    assert list(slidetable.manhattan(rows)) == [slidetable.manhattan(r) for r in rows]
    assert table.distance([]).shape == (0,)
    with pytest.raises(ValueError, match=r"^row 1: expected 9 tiles, found 3$"):
        table.distance([rows[0], [1, 2, 3]])
    with pytest.raises(ValueError, match=r"^row 2: tile 9 is not on a 3x3 board"):
        table.distance(["123456780", "123456780", "1 2 3 4 5 6 7 0 9"])


def test_an_iterator_of_puzzles_is_read_whole(table, tmp_path):
    # A generator, a map or a file is read once: its first puzzle was taken to see what it
    # held and then lost, every answer after it one row early (19 dropped from [19, 31, 0]).
    rows = [[2, 3, 4, 1, 5, 0, 7, 6, 8], [8, 6, 7, 2, 5, 4, 3, 0, 1], [1, 2, 3, 4, 5, 6, 7, 8, 0]]
    want = [19, 31, 0]
    assert list(table.distance(iter(rows))) == want
    assert list(table.distance(r for r in rows)) == want
    assert list(table.distance(map(tuple, rows))) == want
    assert list(table.path(iter(rows))) == [table.path(r) for r in rows]
    assert list(table.path(iter(rows), order="dlru")) == [table.path(r, order="dlru") for r in rows]
    assert table.distance(iter(rows[0])) == 19
    lines = tmp_path / "puzzles.txt"
    lines.write_text("".join(" ".join(map(str, r)) + "\n" for r in rows))
    with open(lines) as f:
        assert list(table.distance(f)) == want
    estimates = [slidetable.manhattan(r) for r in rows]
    assert list(slidetable.manhattan(iter(rows))) == estimates
    assert list(slidetable.manhattan(iter(rows), board="3x3")) == estimates
    assert list(slidetable.misplaced(r for r in rows)) == [slidetable.misplaced(r) for r in rows]
    assert slidetable.search(iter(rows[0]))["distance"] == 19
    assert slidetable.search(iter(rows[0]), heuristic="pdb")["distance"] == 19


def test_a_byte_order_mark_is_skipped_as_the_command_skips_it(table, cli, tmp_path):
    # A file saved by Notepad starts with a byte-order mark, which Python's open() keeps in
    # the first line ("\ufeff2 3 4 ..."): the command skips it, and so does the package (the
    # mark was refused as "unknown tile '\xef'", a byte the string does not hold).
    lines = tmp_path / "notepad.txt"
    lines.write_text("2 3 4 1 5 x 7 6 8\n8 6 7 2 5 4 3 0 1\n", encoding="utf-8-sig")
    want = [int(d) for d in cli.lines("distance", str(lines))]
    assert want == [19, 31]
    with open(lines) as f:
        assert list(table.distance(f)) == want
    with open(lines) as f:
        assert list(table.distance(f.read().splitlines())) == want
    assert table.distance("\ufeff23415x768") == 19
    assert table.distance("\ufeff2 3 4 1 5 x 7 6 8".encode()) == 19
    assert table.path("\ufeff2 3 4 1 5 x 7 6 8") == table.path("2 3 4 1 5 x 7 6 8")


def test_a_big_endian_array_is_read_as_its_values(table):
    # Arrays read from files written elsewhere (np.fromfile(f, ">i4"), FITS, HDF5) hold
    # their integers in the other byte order: they were refused as "not of integers".
    puzzles = random_puzzles(9, 20, seed=13)
    want = per_row(table, puzzles)
    for dtype in (">i2", ">u2", ">i4", ">u4", ">i8", ">u8"):
        given = puzzles.astype(dtype)
        for shown in (given, np.asfortranarray(given), given[::-1][::-1], given.T.copy().T):
            assert list(table.distance(shown)) == want, dtype
        assert list(table.path(given)) == [table.path(list(r)) for r in puzzles]
        assert list(slidetable.manhattan(given)) == [slidetable.manhattan(list(r)) for r in puzzles]
        assert table.distance(given[0]) == want[0]
    with pytest.raises(ValueError, match=r"^row 0: tile 300 is not on a 3x3 board"):
        table.distance(np.full((2, 9), 300, dtype=">i4"))


def test_a_float_array_is_refused_with_what_to_do(table):
    for given in (np.arange(9, dtype=np.float64), np.zeros((2, 9), dtype=np.float32)):
        with pytest.raises(TypeError, match=r"^puzzles are an array of integers, not of "
                                            r"float\d+ \(\d dimensions?\): tiles are whole "
                                            r"numbers; convert whole-valued floats with "
                                            r"\.astype\(int\)$"):
            table.distance(given)
    with pytest.raises(TypeError, match=r"^a tile is an integer, not float \(1\.5\)$"):
        table.distance([1.5] * 9)


def test_values_beyond_any_tile_are_named_as_given(table):
    top = np.iinfo(np.uint64).max
    with pytest.raises(ValueError, match=f"^tile {top} is not on a 3x3 board"):
        table.distance(np.array([top, 1, 2, 3, 4, 5, 6, 7, 0], dtype=np.uint64))
    with pytest.raises(ValueError, match=f"^row 1: tile {top} is not on a 3x3 board"):
        table.distance(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [top, 1, 2, 3, 4, 5, 6, 7, 0]],
                                dtype=np.uint64))
    with pytest.raises(ValueError, match=f"^tile {2**70} is not on a 3x3 board"):
        table.distance([2**70, 1, 2, 3, 4, 5, 6, 7, 0])
    with pytest.raises(ValueError, match=f"^tile {-2**70} is not on a 3x3 board"):
        table.distance([-2**70, 1, 2, 3, 4, 5, 6, 7, 0])
    with pytest.raises(ValueError, match=f"^tile {2**200} is not on a 3x3 board"):
        table.distance([2**200, 1, 2, 3, 4, 5, 6, 7, 0])


# Requests larger than memory: MemoryError before anything is allocated, never an abort of
# the interpreter. Run under an address-space limit in a process of their own.

MEMORY_CHECKS = r"""
import resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import numpy as np, slidetable
t = slidetable.Table.default("3x3")
f = slidetable.Fifteen.generate("5-5-5")
calls = {
    "Table.random(20, count=10**12)": lambda: t.random(20, count=10**12),
    "Table.random(20, count=10**9)": lambda: t.random(20, count=10**9),
    "Table.random(20, count=10**9, distinct=True)": lambda: t.random(20, count=10**9, distinct=True),
    "Fifteen.random(10**12)": lambda: f.random(10**12),
    "Fifteen.random(10**8, distinct=True)": lambda: f.random(10**8, distinct=True),
}
for name, call in calls.items():
    try:
        call()
        print(name, "answered")
    except MemoryError as e:
        print(name, "MemoryError:", e)
# 30 million rows (270 MB) answered a chunk at a time: no copy of every row first.
rows = np.tile(np.array([[2, 3, 4, 1, 5, 0, 7, 6, 8]], dtype=np.uint8), (30_000_000, 1))
d = t.distance(rows)
print("distance", d.shape[0], int(d.min()), int(d.max()))
"""


def test_requests_larger_than_memory_raise_memory_error():
    import subprocess
    slidetable.Table.default("3x3")  # made before the limit
    done = subprocess.run([sys.executable, "-c", MEMORY_CHECKS, str(1200 << 20)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 6, done.stdout
    for line in lines[:5]:
        assert "MemoryError: " in line and " of memory, but " in line, line
        assert "(the address-space limit (ulimit -v))" in line, line
    assert lines[5] == "distance 30000000 19 19"


# The wording of refusals: each names the argument and says what it accepts.

@pytest.mark.parametrize("depth", [-1, 2**40])
def test_a_depth_out_of_range_is_a_value_error_naming_it(table, depth):
    with pytest.raises(ValueError, match=f"^depth={depth}: give a whole number from 0 to "
                                         f"4294967295$"):
        table.random(depth)
    with pytest.raises(ValueError, match=f"^depth={depth}: "):
        table.random((0, depth))


def test_a_negative_count_is_a_value_error_naming_it(table):
    with pytest.raises(ValueError, match=r"^count=-1: give a whole number from 0 to \d+$"):
        table.random(20, count=-1)
    with pytest.raises(ValueError, match=r"^count=-1: "):
        slidetable.Fifteen.generate("5-5-5").random(-1)


def test_a_partition_error_says_its_prefix_once():
    with pytest.raises(ValueError) as raised:
        slidetable.Fifteen.generate("1-14")
    assert str(raised.value) == "partition '1-14': a group of 14 tiles is too large (at most 9)"


def test_draws_from_a_damaged_table_name_the_file(tmp_path):
    import shutil
    damaged = tmp_path / "damaged.slt"
    shutil.copy(slidetable.Table.default("2x5").file, damaged)
    data = bytearray(damaged.read_bytes())
    for at in range(len(data) // 2, len(data), 100_000):
        data[at] ^= 0xFF
    damaged.write_bytes(bytes(data))
    t = slidetable.Table.open(str(damaged))
    with pytest.raises(RuntimeError, match=f"^table {damaged}: bytes \\d+\\.\\.\\d+ do not "
                                           f"match their checksum"):
        t.random((0, 30), count=1000)


def test_a_dataset_goes_to_a_data_frame_one_column_per_cell(table):
    pytest.importorskip("pandas")
    d = slidetable.dataset("3x3")
    frame = d.to_frame()
    assert list(frame.columns) == [f"cell{i}" for i in range(9)] + ["distance", "move"]
    assert len(frame) == 181440
    assert (frame[[f"cell{i}" for i in range(9)]].to_numpy() == d.states).all()
    assert (frame["distance"].to_numpy() == d.distance).all()
    # Its cells read back as the puzzles they are.
    assert (table.distance(frame.iloc[:500, :9]) == d.distance[:500]).all()


def test_a_first_use_says_what_it_builds_and_how_long(tmp_path, monkeypatch):
    # A cache of its own: the first use of a default builds it, with the command line's note
    # as a UserWarning (what a notebook shows under the cell); the second use is silent.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    with pytest.warns(UserWarning, match=r"no table at .*2x3\.slt; generating it once "
                                         r"\(this takes a moment\)"):
        first = slidetable.Table.default("2x3")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second = slidetable.Table.default("2x3")
    assert first.distance("1 2 3 4 5 0") == second.distance("1 2 3 4 5 0") == 0
    with pytest.warns(UserWarning, match=r"generating the 6-6-3 databases once \(seconds\)"):
        slidetable.Fifteen.default()


def test_calls_that_take_seconds_tell_progress(tmp_path, monkeypatch, two_bit_2x5):
    # Every call that may take more than a second takes progress=(done, total), called at
    # the end with done == total (issue 39: dataset_chunks had none).
    def recorder():
        calls = []
        return calls, lambda done, total: calls.append((done, total))

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    calls, told = recorder()
    with pytest.warns(UserWarning):
        slidetable.Table.default("2x4", progress=told)
    assert calls and calls[-1][0] == calls[-1][1] > 0
    calls, told = recorder()
    with pytest.warns(UserWarning):
        slidetable.Fifteen.default(progress=told)
    assert calls and calls[-1][0] == calls[-1][1] > 0
    calls, told = recorder()
    slidetable.Fifteen.generate("3-3-3-3-3", progress=told)
    assert calls and calls[-1][0] == calls[-1][1] > 0
    # A 2-bit table's first chunk recovers every distance: told in states.
    calls, told = recorder()
    table = slidetable.Table.open(two_bit_2x5)
    chunks = slidetable.dataset_chunks(table=table, rows=1000, progress=told)
    next(chunks)
    assert calls[-1] == (table.state_count, table.state_count)
    assert all(0 <= d <= t for d, t in calls)
