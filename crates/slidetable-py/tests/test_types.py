"""The type stubs say what a call returns: an `int` (or a path's `str`) for one puzzle, an
array for a list of strings, and no promise (`Any`) where only the shape at run time tells
one puzzle from many (an array, a list of lists: a grid or rows); and the stubs themselves
pass the checker (no overloads that overlap with different answers) and match the module at
run time (every class, method, parameter and default, by mypy's stubtest). Checked by mypy, the
type checker most users run, on a program of typical calls; CI installs it
(SLIDETABLE_TYPES_TEST=required), elsewhere the tests are skipped without it."""

import os
import subprocess
import sys
import textwrap

import pytest

PROGRAM = textwrap.dedent(
    """
    from typing import Any, Optional, assert_type

    import numpy as np
    import numpy.typing as npt

    import slidetable
    from slidetable import Fifteen, Table, TwentyFour

    def check(t: Table, f: Fifteen, w: TwentyFour, a: npt.NDArray[np.uint8]) -> None:
        one = "8 1 3 4 0 2 7 6 5"
        assert_type(t.distance(one), int)
        assert_type(t.distance(b"813402765"), int)
        assert_type(t.distance([8, 1, 3, 4, 0, 2, 7, 6, 5]), int)
        assert_type(t.distance((8, 1, 3, 4, 0, 2, 7, 6, 5)), int)
        assert_type(t.distance([one, one]), npt.NDArray[np.int32])
        assert_type(t.distance(a), Any)
        assert_type(t.distance([[8, 1, 3], [4, 0, 2], [7, 6, 5]]), Any)
        assert_type(t.path(one), Optional[str])
        assert_type(t.path([8, 1, 3, 4, 0, 2, 7, 6, 5]), Optional[str])
        assert_type(t.path([one, one]), npt.NDArray[np.object_])
        assert_type(t.path(a), Any)
        assert_type(f.distance(one), int)
        assert_type(f.distance([one]), npt.NDArray[np.int32])
        assert_type(f.estimate(one), int)
        assert_type(f.estimate(a), Any)
        assert_type(w.distance(one), int)
        assert_type(w.estimate(one), int)
        assert_type(w.estimate([one]), npt.NDArray[np.int32])
        assert_type(slidetable.manhattan(one), int)
        assert_type(slidetable.manhattan([one, one]), npt.NDArray[np.int32])
        assert_type(slidetable.linear_conflict([8, 1, 3, 4, 0, 2, 7, 6, 5]), int)
        assert_type(slidetable.misplaced(one, board="3x3"), int)
        assert_type(slidetable.misplaced(a), Any)
        assert_type(slidetable.pattern(one, f), int)
        d = t.distance(one)
        for _ in range(d):
            pass
    """
)


def need_mypy():
    """Skips the test without mypy, unless CI requires it."""
    try:
        import mypy  # noqa: F401
    except ImportError:
        if os.environ.get("SLIDETABLE_TYPES_TEST") == "required":
            raise
        pytest.skip("mypy is not installed")


def mypy(tmp_path, *args):
    """mypy --strict on `args`: its exit code and what it printed."""
    need_mypy()
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--cache-dir", str(tmp_path / "cache"), *args],
        capture_output=True, text=True,
    )
    return run.returncode, run.stdout + run.stderr


def test_the_stubs_type_one_puzzle_as_int_and_a_list_of_strings_as_an_array(tmp_path):
    program = tmp_path / "calls.py"
    program.write_text(PROGRAM)
    code, said = mypy(tmp_path, str(program))
    assert code == 0, said


def test_the_stubs_pass_the_type_checker(tmp_path):
    # The package as installed; pandas, imported for a frame's sake, has no stubs of its own.
    code, said = mypy(tmp_path, "--ignore-missing-imports", "-p", "slidetable")
    assert code == 0, said


# The stubs' own names for the shapes they take: type aliases, absent at run time.
ALIASES = ["Grid", "Puzzle", "Puzzles", "OnePuzzle", "Texts", "Depth", "SearchProgress"]


def test_the_stubs_match_the_module_at_run_time(tmp_path):
    need_mypy()
    # No configuration of the user's (a mypy.ini, a pyproject.toml) changes the check.
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n")
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text(
        "".join(f"slidetable._slidetable.{name}\n" for name in ALIASES)
        + "slidetable._slidetable.__all__\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "slidetable._slidetable",
         "--allowlist", str(allowlist), "--ignore-disjoint-bases",
         "--mypy-config-file", str(config)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
