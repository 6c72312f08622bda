"""The Python examples of the package's README and of the repository's README, run as a new
user runs them: each code block line by line, in a cache of its own (so the first use builds
the default tables, as on a fresh machine). A comment that starts with a Python literal is
the value the line's expression gives (`# 19`, `# 'ullddrurdllurrdlurd'`, `# [19, 0]: ...`),
and is checked; other comments are prose. docs/GUIDE.md's block is a sketch with
placeholders (`puzzles`, `korf_instances`) and is not run here."""

import ast
import io
import pathlib
import re
import tokenize
import warnings

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
READMES = [REPO / "crates" / "slidetable-py" / "README.md", REPO / "README.md"]
# The first word of a comment, without the `:` or `,` that may end it.
FIRST_WORD = re.compile(r"#\s*(\S+?)[:,]?(?:\s|$)")


def blocks(readme: pathlib.Path) -> list:
    return re.findall(r"^```python\n(.*?)^```", readme.read_text(encoding="utf-8"), re.S | re.M)


def claimed(source: str):
    """The literal a statement's last comment starts with, or None when it is prose."""
    comments = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline)
                if t.type == tokenize.COMMENT]
    if not comments:
        return None
    m = FIRST_WORD.match(comments[-1])
    if not m:
        return None
    try:
        return (ast.literal_eval(m.group(1)),)
    except (ValueError, SyntaxError):
        return None


def plain(value):
    """A numpy array as the list it prints as; anything else as it is."""
    return value.tolist() if hasattr(value, "tolist") else value


@pytest.mark.parametrize("readme", READMES, ids=lambda p: str(p.relative_to(REPO)))
def test_the_readmes_python_runs_as_written_and_gives_what_it_says(readme, tmp_path, monkeypatch):
    pytest.importorskip("pandas")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("SLIDETABLE_TABLE", raising=False)
    monkeypatch.chdir(tmp_path)
    found = blocks(readme)
    assert found, f"no ```python block in {readme}"
    checked = 0
    for block in found:
        namespace: dict = {}
        lines = block.splitlines(keepends=True)
        for node in ast.parse(block).body:
            source = "".join(lines[node.lineno - 1:node.end_lineno])
            where = f"{readme.name}: {source.strip()}"
            with warnings.catch_warnings():
                # The first use's note (a UserWarning) is expected; anything else is not.
                warnings.simplefilter("ignore", UserWarning)
                try:
                    if isinstance(node, ast.Expr):
                        value = eval(compile(ast.Expression(node.value), readme.name, "eval"),
                                     namespace)
                    else:
                        exec(compile(ast.Module([node], []), readme.name, "exec"), namespace)
                        value = None
                except Exception as e:  # noqa: BLE001 - named in the failure
                    pytest.fail(f"{where}\nraised {type(e).__name__}: {e}")
            expected = claimed(source)
            if expected is not None and isinstance(node, ast.Expr):
                assert plain(value) == expected[0], f"{where}\ngave {value!r}"
                checked += 1
    assert checked, f"no claimed value checked in {readme}"
