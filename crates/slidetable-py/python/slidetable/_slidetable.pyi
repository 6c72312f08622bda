"""Type stubs of the native module (see ``slidetable``'s docstring)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, final, overload

import numpy as np
import numpy.typing as npt

Grid = Sequence[Sequence[int]]
"""One puzzle as the board's rows, in reading order: ``[[4, 1, 2], [5, 0, 3]]`` on 2x3."""
Puzzle = Union[str, bytes, bytearray, memoryview, Sequence[int], Grid, npt.NDArray[np.integer]]
"""One puzzle: text as the command line reads it (a str, or bytes, a bytearray or a memoryview
of them), integers (0 the blank), a 1-D array, or a grid of the board's shape (a list of rows,
a 2-D array of shape (rows, cols)), answered as the same puzzle given flat."""
Puzzles = Union[npt.NDArray[Any], Sequence[Union[str, bytes, bytearray, Sequence[int], Grid]], Any]
"""A batch: any array-like of puzzles (a 2-D integer array of any dtype, byte order and memory
order, one puzzle per row; a 3-D array of grids, shape (N, rows, cols), or a list of grids; a
pandas DataFrame, by its values; a list or tuple of puzzles; an array or Series of strings; an
iterator of puzzles, read whole first). A grid of another shape than the board's is refused."""
OnePuzzle = Union[str, bytes, bytearray, memoryview, Sequence[int]]
"""What is always one puzzle, whatever its length: text, or a flat sequence of integers. The
stubs type a call on it as one answer (an ``int``, a path's ``str``)."""
Texts = Union[List[str], List[bytes], Tuple[Union[str, bytes, bytearray, memoryview], ...]]
"""A list or tuple of texts: always a batch, typed as an array of answers (a list or a
tuple, not any sequence, since a ``str`` is a sequence of texts too). An array, a frame
or a list of lists is one puzzle or many by its shape at run time (a grid, or rows), so the
stubs promise nothing there (``Any``)."""
Depth = Union[int, Tuple[int, int]]

MOVES: str
DEFAULT_PARTITION: str
"""The 15-puzzle's default databases when `slidetable generate --board 4x4` has made them: "7-8"."""
FIRST_USE_PARTITION: str
"""The databases `Fifteen.default()` builds on first use when the 7-8 ones are missing: "6-6-3"."""
__version__: str

@final
class Table:
    """A table of every state's distance and first optimal move, for one board."""

    @staticmethod
    def open(path: Union[str, "PathLike[str]"]) -> "Table": ...
    @staticmethod
    def default(
        board: str = "3x3", progress: Optional[Callable[[int, int], Any]] = None
    ) -> "Table": ...
    @staticmethod
    def generate(board: str = "3x3", goal: Optional[Puzzle] = None, cost: str = "unit") -> "Table": ...
    @property
    def board(self) -> str: ...
    @property
    def goal(self) -> List[int]: ...
    @property
    def goals(self) -> List[List[int]]: ...
    @property
    def file(self) -> Optional[str]: ...
    @property
    def encoding(self) -> str: ...
    @property
    def cost(self) -> str: ...
    @property
    def state_count(self) -> int: ...
    @overload
    def distance(self, puzzle: OnePuzzle, goal: Optional[Puzzle] = None) -> int: ...
    @overload
    def distance(self, puzzle: Texts, goal: Optional[Puzzle] = None) -> npt.NDArray[np.int32]: ...
    @overload
    def distance(self, puzzle: Puzzles, goal: Optional[Puzzle] = None) -> Any: ...
    @overload
    def path(self, puzzle: OnePuzzle, goal: Optional[Puzzle] = None, order: Optional[str] = None) -> Optional[str]: ...
    @overload
    def path(self, puzzle: Texts, goal: Optional[Puzzle] = None, order: Optional[str] = None) -> npt.NDArray[np.object_]: ...
    @overload
    def path(self, puzzle: Puzzles, goal: Optional[Puzzle] = None, order: Optional[str] = None) -> Any: ...
    def random(
        self,
        depth: Depth,
        count: Optional[int] = None,
        seed: Optional[int] = None,
        distinct: bool = False,
        goal: Optional[Puzzle] = None,
        progress: Optional[Callable[[int, int], Any]] = None,
    ) -> npt.NDArray[np.uint8]: ...
    def histogram(self, goal: Optional[Puzzle] = None) -> npt.NDArray[np.uint64]: ...
    def hardest(
        self, goal: Optional[Puzzle] = None, progress: Optional[Callable[[int, int], Any]] = None
    ) -> npt.NDArray[np.uint8]: ...
    def dataset(
        self,
        goal: Optional[Puzzle] = None,
        start: int = 0,
        stop: Optional[int] = None,
        progress: Optional[Callable[[int, int], Any]] = None,
    ) -> Tuple[npt.NDArray[np.uint8], npt.NDArray[np.int16], npt.NDArray[np.int8]]: ...

@final
class Fifteen:
    """The 15-puzzle's optimal solver: IDA* on additive pattern databases."""

    @staticmethod
    def open(path: Union[str, "PathLike[str]"]) -> "Fifteen": ...
    @staticmethod
    def default(progress: Optional[Callable[[int, int], Any]] = None) -> "Fifteen": ...
    @staticmethod
    def generate(
        partition: str = "5-5-5",
        goal: Optional[Puzzle] = None,
        progress: Optional[Callable[[int, int], Any]] = None,
    ) -> "Fifteen": ...
    @property
    def board(self) -> str: ...
    @property
    def database_goal(self) -> List[int]: ...
    @property
    def groups(self) -> List[List[int]]: ...
    @property
    def file(self) -> Optional[str]: ...
    def random(self, count: Optional[int] = None, seed: Optional[int] = None, distinct: bool = False, goal: Optional[Puzzle] = None) -> npt.NDArray[np.uint8]: ...
    def solve(self, puzzle: Puzzle, goal: Optional[Puzzle] = None, order: Optional[str] = None) -> Optional[str]: ...
    def search(
        self,
        puzzle: Puzzle,
        goal: Optional[Puzzle] = None,
        order: Optional[str] = None,
        max_expanded: Optional[int] = None,
        max_seconds: Optional[float] = None,
    ) -> Dict[str, Any]: ...
    @overload
    def distance(self, puzzle: OnePuzzle, goal: Optional[Puzzle] = None) -> int: ...
    @overload
    def distance(self, puzzle: Texts, goal: Optional[Puzzle] = None) -> npt.NDArray[np.int32]: ...
    @overload
    def distance(self, puzzle: Puzzles, goal: Optional[Puzzle] = None) -> Any: ...
    def solve_many(
        self, puzzles: Union[Puzzles, Sequence[Puzzle]], goal: Optional[Puzzle] = None, order: Optional[str] = None
    ) -> npt.NDArray[np.object_]: ...
    @overload
    def estimate(self, puzzle: OnePuzzle, goal: Optional[Puzzle] = None) -> int: ...
    @overload
    def estimate(self, puzzle: Texts, goal: Optional[Puzzle] = None) -> npt.NDArray[np.int32]: ...
    @overload
    def estimate(self, puzzle: Puzzles, goal: Optional[Puzzle] = None) -> Any: ...

# progress(row, bound, expanded, seconds): the search's latest report, about once a second.
SearchProgress = Callable[[int, int, int, float], Any]

@final
class TwentyFour:
    """The 24-puzzle's optimal solver: IDA* on additive pattern databases and their reflection."""

    @staticmethod
    def open(path: Union[str, "PathLike[str]"]) -> "TwentyFour": ...
    @staticmethod
    def default(
        build: Optional[str] = None, progress: Optional[Callable[[int, int], Any]] = None
    ) -> "TwentyFour": ...
    @staticmethod
    def default_path() -> str: ...
    @staticmethod
    def generate(
        path: Optional[Union[str, "PathLike[str]"]] = None,
        pdb: str = "6-6-6-6",
        progress: Optional[Callable[[int, int], Any]] = None,
    ) -> "TwentyFour": ...
    @property
    def board(self) -> str: ...
    @property
    def partition(self) -> str: ...
    @property
    def groups(self) -> List[List[int]]: ...
    @property
    def database_goal(self) -> List[int]: ...
    @property
    def reflects(self) -> bool: ...
    @property
    def file(self) -> Optional[str]: ...
    def solve(self, puzzle: Puzzle, progress: Optional[SearchProgress] = None) -> Optional[str]: ...
    def search(
        self,
        puzzle: Puzzle,
        max_expanded: Optional[int] = None,
        max_seconds: Optional[float] = None,
        progress: Optional[SearchProgress] = None,
    ) -> Dict[str, Any]: ...
    @overload
    def distance(self, puzzle: OnePuzzle, progress: Optional[SearchProgress] = None) -> int: ...
    @overload
    def distance(self, puzzle: Texts, progress: Optional[SearchProgress] = None) -> npt.NDArray[np.int32]: ...
    @overload
    def distance(self, puzzle: Puzzles, progress: Optional[SearchProgress] = None) -> Any: ...
    def solve_many(
        self, puzzles: Union[Puzzles, Sequence[Puzzle]], progress: Optional[SearchProgress] = None
    ) -> npt.NDArray[np.object_]: ...
    @overload
    def estimate(self, puzzle: OnePuzzle) -> int: ...
    @overload
    def estimate(self, puzzle: Texts) -> npt.NDArray[np.int32]: ...
    @overload
    def estimate(self, puzzle: Puzzles) -> Any: ...

@overload
def manhattan(puzzles: OnePuzzle, board: Optional[str] = None, goal: Optional[Puzzle] = None) -> int: ...
@overload
def manhattan(puzzles: Texts, board: Optional[str] = None, goal: Optional[Puzzle] = None) -> npt.NDArray[np.int32]: ...
@overload
def manhattan(puzzles: Puzzles, board: Optional[str] = None, goal: Optional[Puzzle] = None) -> Any: ...
@overload
def linear_conflict(puzzles: OnePuzzle, board: Optional[str] = None, goal: Optional[Puzzle] = None) -> int: ...
@overload
def linear_conflict(puzzles: Texts, board: Optional[str] = None, goal: Optional[Puzzle] = None) -> npt.NDArray[np.int32]: ...
@overload
def linear_conflict(puzzles: Puzzles, board: Optional[str] = None, goal: Optional[Puzzle] = None) -> Any: ...
@overload
def misplaced(puzzles: OnePuzzle, board: Optional[str] = None, goal: Optional[Puzzle] = None) -> int: ...
@overload
def misplaced(puzzles: Texts, board: Optional[str] = None, goal: Optional[Puzzle] = None) -> npt.NDArray[np.int32]: ...
@overload
def misplaced(puzzles: Puzzles, board: Optional[str] = None, goal: Optional[Puzzle] = None) -> Any: ...
@overload
def pattern(puzzles: OnePuzzle, databases: Fifteen, goal: Optional[Puzzle] = None) -> int: ...
@overload
def pattern(puzzles: Texts, databases: Fifteen, goal: Optional[Puzzle] = None) -> npt.NDArray[np.int32]: ...
@overload
def pattern(puzzles: Puzzles, databases: Fifteen, goal: Optional[Puzzle] = None) -> Any: ...
def search(
    puzzle: Puzzle,
    method: str = "idastar",
    heuristic: Optional[str] = None,
    board: Optional[str] = None,
    goal: Optional[Puzzle] = None,
    max_expanded: Optional[int] = None,
    max_seconds: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Dict[str, Any]: ...
