"""What Python users hand over besides lists and arrays, each answered right or refused with
words that say what to give instead: containers without an order (a set, a dict), numpy's
masked arrays, a frame holding an id column beside its puzzles, a string split into its
characters, and a file's text read whole as one string."""

import numpy as np
import pandas as pd
import pytest

import slidetable

PUZZLE = [8, 1, 3, 4, 0, 2, 7, 6, 5]
TEXT = "8 1 3 4 0 2 7 6 5"
DISTANCE = 14


@pytest.fixture(scope="module")
def eight():
    return slidetable.Table.default("3x3")


@pytest.mark.parametrize(
    "unordered",
    [
        set(PUZZLE),
        frozenset(PUZZLE),
        dict.fromkeys(PUZZLE),
        dict.fromkeys(PUZZLE).keys(),
        {i: t for i, t in enumerate(PUZZLE)},
    ],
    ids=["set", "frozenset", "dict", "dict keys", "dict of cells"],
)
def test_a_container_without_an_order_is_refused_not_read_in_its_own_order(eight, unordered):
    # A set of the tiles 0..8 iterates as 0 1 2 … 8: it was answered 22, a puzzle nobody gave.
    for call in (eight.distance, eight.path, slidetable.manhattan):
        with pytest.raises(TypeError, match="no order"):
            call(unordered)
    # In a batch, and as a grid's row.
    with pytest.raises(TypeError, match="row 1: .*no order"):
        eight.distance([PUZZLE, unordered])
    with pytest.raises(TypeError, match="no order"):
        eight.distance([[8, 1, 3], set([4, 0, 2]), [7, 6, 5]])


def test_dict_values_and_ranges_keep_their_order_and_are_read(eight):
    assert eight.distance({i: t for i, t in enumerate(PUZZLE)}.values()) == DISTANCE
    assert eight.distance(range(9)) == eight.distance("0 1 2 3 4 5 6 7 8")


def test_a_masked_tile_is_refused_and_an_array_without_one_is_read(eight):
    rows = np.array([PUZZLE, [1, 2, 3, 4, 5, 6, 7, 8, 0]])
    masked = np.ma.masked_array(rows, mask=[[0] * 8 + [1], [0] * 9])
    # The masked tile's value was read as if it were given: [14, 0].
    with pytest.raises(ValueError, match="masked"):
        eight.distance(masked)
    with pytest.raises(ValueError, match="masked"):
        eight.distance(masked[0])
    with pytest.raises(ValueError, match="masked"):
        eight.distance(masked.reshape(2, 3, 3))
    with pytest.raises(ValueError, match="masked"):
        eight.distance(masked[0].reshape(3, 3))
    clear = np.ma.masked_array(rows, mask=False)
    assert list(eight.distance(clear)) == [DISTANCE, 0]
    assert eight.distance(clear[0]) == DISTANCE
    assert eight.distance(masked.filled(0)[1]) == 0


def test_a_frame_with_an_id_column_beside_its_puzzles_says_to_give_the_column(eight):
    frame = pd.DataFrame({"id": [1, 2], "puzzle": [TEXT, "1 2 3 4 5 6 7 8 0"]})
    # It said "a grid of 2 rows of 2 on a 3x3 board".
    with pytest.raises(ValueError, match=r"2 columns.*df\['puzzle'\]"):
        eight.distance(frame)
    assert list(eight.distance(frame["puzzle"])) == [DISTANCE, 0]
    assert list(eight.distance(frame[["puzzle"]])) == [DISTANCE, 0]


def test_a_string_split_into_characters_says_a_list_of_strings_is_many_puzzles(eight):
    with pytest.raises(ValueError, match="row 0: expected 9 tiles, found 1.*one string"):
        eight.distance(list("813402765"))
    with pytest.raises(ValueError, match="one string"):
        eight.distance(tuple(TEXT.split()))


def test_text_of_several_lines_says_a_string_is_one_puzzle(eight):
    text = TEXT + "\n1 2 3 4 5 6 7 8 0\n"
    with pytest.raises(ValueError, match=r"found 18.*splitlines"):
        eight.distance(text)
    assert list(eight.distance(text.splitlines())) == [DISTANCE, 0]
    # One puzzle over several lines (a grid typed as text) is one puzzle, as before.
    assert eight.distance("8 1 3\n4 0 2\n7 6 5") == DISTANCE
