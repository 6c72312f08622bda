"""Puzzles as their users hold them: a grid of rows (LeetCode 773's `board`, a numpy array of
the board's shape), a batch of grids (an array of shape (N, rows, cols), a list of grids) and
text in a bytearray or memoryview. Every answer is checked against the same puzzle given flat."""

import numpy as np
import pandas as pd
import pytest

import slidetable

# LeetCode 773: board = [[4,1,2],[5,0,3]] is solved in 5 moves.
LEETCODE = [[4, 1, 2], [5, 0, 3]]
LEETCODE_FLAT = [4, 1, 2, 5, 0, 3]


@pytest.fixture(scope="module")
def small():
    return slidetable.Table.default("2x3")


@pytest.fixture(scope="module")
def eight():
    return slidetable.Table.default("3x3")


def grids(cells_rows: int, cols: int, count: int, seed: int) -> np.ndarray:
    """Random permutations as grids, shape (count, rows, cols): half cannot reach the goal."""
    rng = np.random.default_rng(seed)
    flat = np.array([rng.permutation(cells_rows * cols) for _ in range(count)], dtype=np.int64)
    return flat.reshape(count, cells_rows, cols)


def every_layout(grid: np.ndarray):
    """`grid` (2-D) in C order, Fortran order, as a transpose, as a strided slice and in other
    dtypes and byte orders: numpy's views of the same values."""
    rows, cols = grid.shape
    yield grid
    yield np.ascontiguousarray(grid)
    yield np.asfortranarray(grid)
    yield np.ascontiguousarray(grid.T).T  # a transpose's view
    big = np.full((rows * 2, cols * 3), 99, dtype=grid.dtype)
    big[::2, ::3] = grid
    yield big[::2, ::3]  # a non-contiguous slice
    yield grid[::-1][::-1]
    for dtype in (np.uint8, np.int16, ">i4", np.uint64):
        yield grid.astype(dtype)


def test_leetcode_board_is_one_puzzle_answered_as_the_flat_one(small):
    flat = small.distance(LEETCODE_FLAT)
    assert flat == 5
    for given in (LEETCODE, tuple(tuple(r) for r in LEETCODE), [np.array(r) for r in LEETCODE],
                  np.array(LEETCODE), pd.DataFrame(LEETCODE)):
        d = small.distance(given)
        assert type(d) is type(flat) and d == flat, given
        assert small.path(given) == small.path(LEETCODE_FLAT)
    for grid in every_layout(np.array(LEETCODE)):
        assert small.distance(grid) == flat, (grid.dtype, grid.strides)
        assert small.path(grid) == small.path(LEETCODE_FLAT)
    # A goal given as a grid is the same goal.
    assert small.distance(LEETCODE, goal=[[1, 2, 3], [4, 5, 0]]) == 5


def test_a_3x3_grid_is_one_puzzle(eight):
    solved = [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
    assert eight.distance(solved) == 0 and eight.path(solved) == ""
    hard = np.array([8, 6, 7, 2, 5, 4, 3, 0, 1]).reshape(3, 3)
    for grid in every_layout(hard):
        assert eight.distance(grid) == 31
        assert eight.path(grid) == eight.path(hard.ravel())
        assert eight.path(grid, order="dlru") == eight.path(hard.ravel(), order="dlru")
    assert eight.distance(hard.tolist()) == 31


def test_a_batch_of_grids_is_answered_as_the_same_puzzles_flat(small, eight):
    for table, rows, cols in ((small, 2, 3), (eight, 3, 3)):
        batch = grids(rows, cols, 500, seed=rows * cols)
        flat = batch.reshape(500, rows * cols)
        want = table.distance(flat)
        paths = list(table.path(flat))
        shapes = [batch, np.asfortranarray(batch), batch.astype(np.uint8),
                  batch.astype(">i2"),
                  np.ascontiguousarray(batch.transpose(1, 2, 0)).transpose(2, 0, 1),
                  np.ascontiguousarray(batch.transpose(0, 2, 1)).transpose(0, 2, 1)]
        for given in shapes:
            got = table.distance(given)
            assert got.dtype == np.int32 and got.shape == (500,)
            assert got.tolist() == want.tolist()
            assert list(table.path(given)) == paths
        # A strided slice of the batch, and one of each grid.
        assert table.distance(batch[::3]).tolist() == want[::3].tolist()
        big = np.zeros((500, rows * 2, cols), dtype=np.int64)
        big[:, ::2, :] = batch
        assert table.distance(big[:, ::2, :]).tolist() == want.tolist()
        # A list of grids, a tuple of grids, a list of 2-D arrays.
        assert table.distance(batch.tolist()).tolist() == want.tolist()
        assert table.distance(tuple(map(np.asarray, batch[:5]))).tolist() == want[:5].tolist()
        assert list(table.path(batch[:7].tolist())) == paths[:7]
        assert table.distance(np.zeros((0, rows, cols), dtype=np.uint8)).shape == (0,)


def test_a_grid_of_another_shape_is_refused_with_both_shapes(small, eight):
    three = [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
    message = r"^a grid of 3 rows of 3 on a 2x3 board: expected 2 rows of 3"
    with pytest.raises(ValueError, match=message):
        small.distance(three)
    with pytest.raises(ValueError, match=message):
        small.distance(np.array(three))
    with pytest.raises(ValueError, match=r"^a grid of 3 rows of 2 on a 2x3 board: expected 2 rows of 3"):
        small.distance(np.array(LEETCODE).T)  # the transpose is another shape, never reshaped
    with pytest.raises(ValueError, match=r"^a grid of 2 rows of 3 on a 3x3 board: expected 3 rows of 3"):
        eight.distance(LEETCODE)
    with pytest.raises(ValueError, match=r"^grids of 3 rows of 3 on a 2x3 board: expected 2 rows of 3"):
        small.distance(np.array([three, three]))
    with pytest.raises(ValueError, match=r"^row 1: a grid of 3 rows of 3 on a 2x3 board: expected 2 rows of 3"):
        small.distance([LEETCODE, three])
    with pytest.raises(ValueError, match=r"^row 1 of the grid has 2 tiles on a 2x3 board: expected 2 rows of 3$"):
        small.distance([[4, 1, 2], [5, 0]])
    # A bad tile in a grid is named as in the flat puzzle.
    with pytest.raises(ValueError, match=r"^tile 9 is not on a 2x3 board"):
        small.distance([[4, 1, 2], [5, 0, 9]])
    with pytest.raises(ValueError, match=r"^row 1: tile \d appears twice"):
        small.distance(np.array([LEETCODE, [[4, 4, 2], [5, 0, 3]]]))
    with pytest.raises(ValueError, match=r"not an array of 4 dimensions"):
        small.distance(np.zeros((1, 1, 2, 3), dtype=np.uint8))


def test_text_in_a_bytearray_or_memoryview_is_read_as_bytes_are(eight):
    text = b"123405678"
    want = eight.distance(text)
    assert want == eight.distance("123405678") == eight.distance([1, 2, 3, 4, 0, 5, 6, 7, 8])
    for given in (bytearray(text), memoryview(text), memoryview(bytearray(text)),
                  memoryview(b"xx" + text)[2:]):
        assert eight.distance(given) == want, given
        assert eight.path(given) == eight.path(text)
        assert slidetable.manhattan(given) == slidetable.manhattan(text)
    assert eight.distance([bytearray(b"123456780"), memoryview(b"1 2 3 4 5 6 7 0 8")]).tolist() == [0, 1]
    assert eight.distance(bytearray(b"1 2 3 4 5 6 7 8 0"), goal=bytearray(b"123456780")) == 0


def test_the_heuristics_and_search_read_grids(eight):
    hard = [[8, 6, 7], [2, 5, 4], [3, 0, 1]]
    flat = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    for function in (slidetable.manhattan, slidetable.linear_conflict, slidetable.misplaced):
        want = function(flat)
        assert function(hard) == want and function(np.array(hard)) == want
        assert function(hard, board="3x3") == want
        assert function(np.asfortranarray(hard)) == want
        batch = grids(3, 3, 50, seed=5)
        assert function(batch).tolist() == function(batch.reshape(50, 9)).tolist()
        assert function(batch.tolist()).tolist() == function(batch.reshape(50, 9)).tolist()
    # A grid names its board by its shape: 2x3 needs no board=.
    assert slidetable.manhattan(LEETCODE) == slidetable.manhattan(LEETCODE_FLAT, board="2x3")
    assert slidetable.manhattan(np.array([LEETCODE] * 3)).tolist() == [
        slidetable.manhattan(LEETCODE_FLAT, board="2x3")] * 3
    got = slidetable.search(hard)
    assert got["distance"] == 31 and got["puzzle"] == flat
    assert slidetable.search(np.array(LEETCODE), method="bfs")["distance"] == 5
    assert slidetable.search(LEETCODE, method="bfs", goal=[[1, 2, 3], [4, 5, 0]])["distance"] == 5


def test_an_iterator_among_the_puzzles_is_read_whole(eight):
    # Looking for a grid must not take the first tile of a row given as an iterator.
    rows = [iter([1, 2, 3, 4, 5, 6, 7, 8, 0]), [1, 2, 3, 4, 5, 6, 7, 0, 8]]
    assert eight.distance(rows).tolist() == [0, 1]
    assert eight.distance(iter([[1, 2, 3], [4, 5, 6], [7, 8, 0]])) == 0
    assert eight.distance(iter([[[1, 2, 3], [4, 5, 6], [7, 8, 0]]])).tolist() == [0]


def test_a_4x4_grid_without_a_board_is_told_to_name_it():
    # Rows of 4 tiles are 2x2 puzzles when no board is given; a 4x4 grid read so is refused
    # (never answered as four 2x2 puzzles) with what to do.
    grid = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15]).reshape(4, 4)
    with pytest.raises(ValueError, match=r'^row \d+: tile \d+ is not on a 2x2 board.*a grid of 4 '
                                         r'rows of 4\? give board="4x4"\)$'):
        slidetable.manhattan(grid)
    assert slidetable.manhattan(grid, board="4x4") == 1
    assert slidetable.manhattan(grid.tolist(), board="4x4") == 1


def test_a_goal_given_as_a_grid_is_the_flat_goal(small):
    blank_first = [[0, 1, 2], [3, 4, 5]]
    made = slidetable.Table.generate("2x3", goal=blank_first)
    assert made.goal == [0, 1, 2, 3, 4, 5]
    by_grid = slidetable.dataset("2x3", goal=[[1, 2, 3], [4, 5, 0]], table=small)
    flat = slidetable.dataset("2x3", goal=[1, 2, 3, 4, 5, 0], table=small)
    assert (by_grid.states == flat.states).all() and (by_grid.distance == flat.distance).all()
    assert small.random(5, count=3, seed=1, goal=np.array(blank_first)).tolist() == small.random(
        5, count=3, seed=1, goal=[0, 1, 2, 3, 4, 5]).tolist()


def test_every_call_reads_a_grid_alike(eight):
    # One puzzle's readers (search, goal=) and a batch's (distance) see the same grids.
    rows = [(1, 2, 3), np.array([4, 5, 6]), range(7, 9)]
    with pytest.raises(ValueError, match=r"^row 2 of the grid has 2 tiles on a 3x3 board"):
        eight.distance(rows)
    with pytest.raises(ValueError, match=r"^row 2 of the grid has 2 tiles on a 3x3 board"):
        slidetable.search(rows, board="3x3")
    with pytest.raises(ValueError, match=r"^goal: row 2 of the grid has 2 tiles on a 3x3 board"):
        eight.distance([1, 2, 3, 4, 5, 6, 7, 8, 0], goal=rows)
    rows[2] = iter([7, 8, 0])  # an iterator after the first row is read whole
    assert eight.distance(rows) == 0
    rows = [(1, 2, 3), np.array([4, 5, 6]), [7, 8, 0]]
    assert eight.distance(rows) == slidetable.search(rows)["distance"] == 0
