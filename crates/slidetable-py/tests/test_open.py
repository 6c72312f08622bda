"""Table.open and Fifteen.open open a file as what it holds, as the command line does (one
opening, either kind), and refuse the other kind with the command line's message, naming
the file."""

import pytest

import slidetable


@pytest.fixture(scope="module")
def files(cli, tmp_path_factory):
    """A 2x3 table of every state and 15-puzzle pattern databases (5-5-5), made by the
    command."""
    d = tmp_path_factory.mktemp("kinds")
    table, patterns = d / "2x3.slt", d / "4x4-555.slt"
    cli.run("generate", "--board", "2x3", "-o", str(table))
    cli.run("generate", "--board", "4x4", "--pdb", "5-5-5", "-o", str(patterns))
    return table, patterns


def test_a_table_of_every_state_opens_as_a_table(files, cli):
    table, _ = files
    opened = slidetable.Table.open(table)
    assert opened.board == "2x3"
    puzzles = ["4 1 2 5 0 3", "1 2 3 4 5 0", "0 1 2 3 4 5"]
    expected = [int(x) for x in cli.lines("distance", "--table", str(table),
                                          input="\n".join(puzzles) + "\n")]
    assert [opened.distance(p) for p in puzzles] == expected


def test_pattern_databases_open_as_pattern_databases(files, cli):
    _, patterns = files
    opened = slidetable.Fifteen.open(patterns)
    assert opened.board == "4x4"
    assert opened.file == str(patterns)
    assert [len(g) for g in opened.groups] == [5, 5, 5]
    puzzles = ["1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
               "5 1 3 4 2 6 7 8 9 10 11 12 13 14 15 0"]
    expected = cli.lines("path", "--board", "4x4", "--table", str(patterns),
                         input="\n".join(puzzles) + "\n")
    assert [opened.solve(p) for p in puzzles] == expected


def test_pattern_databases_are_refused_as_a_table_in_the_commands_words(files, cli):
    _, patterns = files
    done = cli.run("stats", "--table", str(patterns), check=False)
    assert done.returncode == 1
    expected = done.stderr.strip().removeprefix("slidetable: ")
    assert expected.startswith(f"table {patterns}: this is a pattern database")
    with pytest.raises(ValueError) as raised:
        slidetable.Table.open(patterns)
    assert str(raised.value) == expected


def test_a_table_is_refused_as_pattern_databases_in_the_commands_words(files, cli):
    table, _ = files
    done = cli.run("search", "--method", "idastar", "--heuristic", "pdb", "--table", str(table),
                   "--board", "2x3",
                   input="4 1 2 5 0 3\n", check=False)
    assert done.returncode == 1
    expected = done.stderr.strip().removeprefix("slidetable: ")
    assert expected == (f"table {table}: this is a table of every state, not pattern "
                        "databases (make them with `slidetable generate --board 2x3 --pdb "
                        "PARTITION -o PATH`)")
    with pytest.raises(ValueError) as raised:
        slidetable.Fifteen.open(table)
    assert str(raised.value) == expected


def test_a_table_within_d_moves_is_refused_in_the_commands_words(cli, tmp_path):
    """A table of the states within D moves (`generate --max-depth D`) opens as neither kind:
    the message is the command line's, naming the file and the commands that read it."""
    within = tmp_path / "2x3-9.slb"
    cli.run("generate", "--board", "2x3", "--max-depth", "9", "-o", str(within))
    done = cli.run("hardest", "--table", str(within), check=False)
    assert done.returncode == 1
    expected = done.stderr.strip().removeprefix("slidetable: ")
    assert expected == (f"table {within}: this is a table of the states within 9 moves "
                        "(`generate --max-depth`), not of every state: the command line's "
                        "`distance`, `path`, `info` and `stats` read it")
    for kind in (slidetable.Table, slidetable.Fifteen):
        with pytest.raises(ValueError) as raised:
            kind.open(within)
        assert str(raised.value) == expected
