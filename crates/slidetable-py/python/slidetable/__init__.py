"""Exact answers for sliding-tile puzzles, from tables of every state's distance.

slidetable searches a puzzle's whole state space backwards from the goal once, stores every
state's optimal distance and the first move of an optimal path, and answers any question by
looking it up: how many moves, which moves, whether a puzzle is solvable.

- ``Table``: every board up to 14 cells (the 8-puzzle's 3x3 among them). ``Table.default``
  is the table the ``slidetable`` command uses, made on first use; ``Table.open`` reads a
  file; ``Table.generate`` makes one in memory.
- ``Fifteen``: the 15-puzzle (4x4), solved optimally by IDA* on additive pattern databases.
- ``TwentyFour``: the 24-puzzle (5x5), solved optimally by IDA* on additive pattern
  databases and their reflection (Korf and Felner's 6-6-6-6 by default).
- ``dataset`` / ``dataset_chunks``: every state with its distance and first optimal move,
  as numpy arrays, for training and evaluating learned heuristics.
- ``manhattan``, ``linear_conflict``, ``misplaced``, ``pattern``: the classic heuristics
  over numpy arrays of puzzles.
- ``search`` (and ``Fifteen.search``): one puzzle solved online by BFS, bidirectional BFS,
  Dijkstra, A* or IDA*, with the figures ``slidetable search --json --stats`` gives
  (expanded, generated, bound, time…) as a dict, for a results table.

A puzzle is a string as the command line reads it (``"2 3 4 1 5 x 7 6 8"``,
``"23415x768"``; ``bytes``, a ``bytearray`` or a ``memoryview`` of them alike), a sequence of
integers with 0 for the blank, a 1-D array, or a grid of the board's shape in reading order
(``[[4, 1, 2], [5, 0, 3]]`` on 2x3, a 2-D array of shape (rows, cols)), answered as the same
puzzle given flat; a batch is any array-like of puzzles: a 2-D integer array of any dtype,
byte order and memory order (one puzzle per row), a 3-D array of grids (N, rows, cols) or a
list of grids, a pandas DataFrame (its values; one column of strings reads as its Series),
a list or tuple of puzzles, an array or Series of strings, an iterator of puzzles (a generator, a file's lines: read whole first).
A grid of another shape than the board's is refused (``ValueError``), never reshaped.
Bad input raises ``ValueError`` with the command line's message; a request larger than
memory raises ``MemoryError`` before anything is allocated; Ctrl-C stops every long call
with ``KeyboardInterrupt``. A goal may be named: ``goal="korf"`` (the blank first, as in
Korf's 100 instances) or ``goal="standard"`` (tiles in order, the blank last). Moves are the way the blank moves: ``u d l r``, codes 0 1 2 3 (``MOVES``).
"""

from typing import Any, Callable, Iterator, NamedTuple, Optional

import numpy as np

from ._slidetable import (
    DEFAULT_PARTITION,
    FIRST_USE_PARTITION,
    __version__,
    MOVES,
    Fifteen,
    Table,
    TwentyFour,
    linear_conflict,
    manhattan,
    misplaced,
    pattern,
    search,
)

__all__ = [
    "__version__",
    "DEFAULT_PARTITION",
    "FIRST_USE_PARTITION",
    "MOVES",
    "Dataset",
    "Fifteen",
    "Table",
    "TwentyFour",
    "dataset",
    "dataset_chunks",
    "linear_conflict",
    "manhattan",
    "misplaced",
    "pattern",
    "search",
]


class Dataset(NamedTuple):
    """States with their exact distances and first optimal moves, row by row.

    ``states``: ``uint8`` array, one puzzle per row (0 the blank). ``distance``: ``int16``
    array, the fewest moves to the goal. ``move``: ``int8`` array, the code of the first move
    of an optimal path (``MOVES[code]``; -1 for the goal itself).
    """

    states: np.ndarray
    distance: np.ndarray
    move: np.ndarray

    def to_frame(self) -> Any:
        """The rows as a pandas DataFrame: one column per cell (``cell0``, ``cell1``, …, the
        tile in that cell, 0 the blank), then ``distance`` and ``move``. Needs pandas."""
        import pandas as pd

        columns = {f"cell{i}": self.states[:, i] for i in range(self.states.shape[1])}
        columns["distance"] = self.distance
        columns["move"] = self.move
        return pd.DataFrame(columns)


def _table(board: str, table: Optional[Table]) -> Table:
    return table if table is not None else Table.default(board)


def dataset(
    board: str = "3x3",
    goal: Any = None,
    table: Optional[Table] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> Dataset:
    """Every state that can reach the goal, with its distance and first optimal move.

    ``board`` names the cache's default table (made on first use, as ``Table.default``);
    ``table`` uses another. ``goal`` defaults to the table's goal (tiles in order, blank
    last). The 3x3 board gives 181,440 rows.

    Memory: 15 bytes a row for a board of 12 cells. Up to 10 cells a whole dataset is at
    most 1,814,400 rows (27 MB); the 12-cell boards (2x6, 3x4, 4x3, 6x2) have 239,500,800
    states, 3.6 GB as one dataset: read them with ``dataset_chunks`` instead.
    ``progress(done, total)``, if given, follows the one long part of a 12-cell table's
    first call, as ``dataset_chunks`` says.
    """
    t = _table(board, table)
    return Dataset(*t.dataset(goal, progress=progress))


def dataset_chunks(
    board: str = "3x3",
    rows: int = 10_000_000,
    goal: Any = None,
    table: Optional[Table] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> Iterator[Dataset]:
    """The rows of ``dataset(board, goal, table)`` in chunks of at most ``rows`` rows, in order.

    For the 12-cell boards, whose whole dataset does not fit in memory comfortably. The
    first chunk of a 12-cell board takes seconds more: its table stores distances mod 3, so
    every distance is recovered once (240 MB, kept with the table for later calls);
    ``progress(done, total)``, if given, is called every tenth of a second meanwhile with the
    states settled, and once more at the end with ``done == total``.

    Memory, measured (peak resident size of the whole Python process, a 3x4 table opened
    from a file): a pass over all 239,500,800 rows in chunks of 10 million peaked at 743 MB
    (the 240 MB of recovered distances, the 60 MB table, and two chunks of 150 MB: the one
    the loop holds and the next); in chunks of 1 million, at 400 MB.
    """
    if rows < 1:
        raise ValueError(f"rows must be at least 1, not {rows}")
    t = _table(board, table)
    total = t.state_count
    for start in range(0, total, rows):
        yield Dataset(*t.dataset(goal, start, min(start + rows, total), progress))
