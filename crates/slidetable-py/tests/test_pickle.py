"""Tables and solvers cross a pickle, as `multiprocessing`, `concurrent.futures`, joblib and
`copy.deepcopy` send them: one opened from a file as its path and header, opened again and
checked where it is unpickled (a file changed in between is refused, never read as the table
that was pickled); one made in memory as its bytes. Every copy answers as the original."""

import concurrent.futures
import copy
import multiprocessing
import os
import pickle
import shutil

import pytest

import slidetable

EIGHT = ["8 1 3 4 0 2 7 6 5", "1 2 3 4 5 6 7 8 0", "8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 8 7 0"]
FIFTEEN = ["1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"]
TWENTYFOUR = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24"


def copies(obj):
    """`obj` through pickle at every protocol, and through `copy`."""
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        yield pickle.loads(pickle.dumps(obj, protocol=protocol))
    yield copy.copy(obj)
    yield copy.deepcopy(obj)


def test_a_table_from_a_file_is_pickled_by_its_path_and_answers_as_itself(tmp_path):
    table = slidetable.Table.default("3x3")
    assert table.file is not None
    # The path and the header, not the 363 KB of entries.
    assert len(pickle.dumps(table)) < 4096
    for other in copies(table):
        assert other.file == table.file
        assert repr(other) == repr(table)
        assert list(other.distance(EIGHT)) == list(table.distance(EIGHT))
        assert list(other.path(EIGHT)) == list(table.path(EIGHT))


def test_a_table_opened_by_a_relative_path_is_found_from_another_directory(tmp_path, monkeypatch):
    # A worker started elsewhere (joblib, a cluster's job) reads the same file: the path is
    # kept whole, not as the caller typed it.
    shutil.copy(slidetable.Table.default("3x3").file, tmp_path / "rel.slt")
    monkeypatch.chdir(tmp_path)
    pickled = pickle.dumps(slidetable.Table.open("rel.slt"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.chdir(elsewhere)
    table = pickle.loads(pickled)
    assert table.file == str(tmp_path / "rel.slt")
    assert table.distance(EIGHT[0]) == 14


def test_a_table_made_in_memory_is_pickled_with_its_bytes_and_goal():
    table = slidetable.Table.generate("2x3", goal="1 2 3 4 0 5")
    for other in copies(table):
        assert other.file is None
        assert other.goal == [1, 2, 3, 4, 0, 5]
        assert other.distance("1 2 3 0 4 5") == table.distance("1 2 3 0 4 5") == 1
        assert list(other.histogram()) == list(table.histogram())


def test_a_table_file_changed_after_pickling_is_refused_not_read(tmp_path):
    path = tmp_path / "t.slt"
    shutil.copy(slidetable.Table.default("3x3").file, path)
    pickled = pickle.dumps(slidetable.Table.open(path))
    # Another table written over it: the pickle must not answer from it.
    slidetable_2x3 = slidetable.Table.default("2x3").file
    shutil.copy(slidetable_2x3, path)
    with pytest.raises(ValueError, match="t.slt: not the table that was pickled"):
        pickle.loads(pickled)
    path.unlink()
    with pytest.raises(FileNotFoundError, match="t.slt"):
        pickle.loads(pickled)


def test_the_15_puzzle_databases_cross_a_pickle_from_a_file_and_from_memory(tmp_path):
    opened = slidetable.Fifteen.default()
    built = slidetable.Fifteen.generate("4-4-4-3")
    for original in (opened, built):
        for other in copies(original):
            assert repr(other) == repr(original)
            assert list(other.distance(FIFTEEN)) == list(original.distance(FIFTEEN))
    path = tmp_path / "f.slt"
    shutil.copy(opened.file, path)
    pickled = pickle.dumps(slidetable.Fifteen.open(path))
    path.write_bytes(b"no database")
    with pytest.raises(ValueError, match="f.slt"):
        pickle.loads(pickled)


def test_the_24_puzzle_databases_cross_a_pickle(tmp_path):
    built = slidetable.TwentyFour.generate(pdb="3-3-3-3-3-3-3-3")
    path = tmp_path / "w.slp"
    opened = slidetable.TwentyFour.generate(path, pdb="3-3-3-3-3-3-3-3")
    for original in (built, opened):
        for other in copies(original):
            assert repr(other) == repr(original)
            assert other.distance(TWENTYFOUR) == original.distance(TWENTYFOUR) == 1


def distances(table, puzzles):
    return [int(d) for d in table.distance(puzzles)]


def test_a_pool_of_processes_takes_the_table_as_an_argument():
    table = slidetable.Table.default("3x3")
    expected = distances(table, EIGHT)
    # Spawned processes (macOS's and Windows' default) get every argument by pickle.
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
        answers = list(pool.map(distances, [table, table], [EIGHT, EIGHT]))
    assert answers == [expected, expected]
