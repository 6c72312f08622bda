"""Shared fixtures: the `slidetable` command to compare with, and a cache directory of the
tests' own (so the package and the command build and find the same default tables)."""

import os
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def _binary() -> str:
    named = os.environ.get("SLIDETABLE_CLI")
    if named:
        return named
    built = REPO / "target" / "release" / "slidetable"
    if built.exists():
        return str(built)
    found = shutil.which("slidetable")
    if found:
        return found
    pytest.exit("no slidetable command: build it (cargo build --release -p slidetable-cli) "
                "or name it in $SLIDETABLE_CLI", returncode=2)


@pytest.fixture(scope="session", autouse=True)
def own_cache(tmp_path_factory):
    """Default tables in a fresh cache directory, shared by the package and the command."""
    cache = tmp_path_factory.mktemp("cache")
    saved = {k: os.environ.get(k) for k in ("XDG_CACHE_HOME", "SLIDETABLE_TABLE")}
    os.environ["XDG_CACHE_HOME"] = str(cache)
    os.environ.pop("SLIDETABLE_TABLE", None)
    yield cache
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


class Cli:
    """Runs the `slidetable` command."""

    def __init__(self, binary: str):
        self.binary = binary

    def run(self, *args: str, input: str = "", check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([self.binary, *args], input=input, capture_output=True,
                              text=True, env=os.environ.copy())
        if check and done.returncode != 0:
            raise AssertionError(f"slidetable {' '.join(args)}: exit {done.returncode}: "
                                 f"{done.stderr}")
        return done

    def lines(self, *args: str, input: str = "") -> list:
        return self.run(*args, input=input).stdout.splitlines()

    def error(self, *args: str, input: str = "") -> str:
        """The message of a bad line, without `slidetable: <stdin>: line N: `."""
        done = self.run(*args, input=input, check=False)
        assert done.returncode != 0, done.stdout
        message = done.stderr.strip().splitlines()[0]
        return message.split(": line 1: ", 1)[-1].removeprefix("slidetable: ")


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(_binary())


@pytest.fixture(scope="session")
def korf() -> list:
    """Korf's 100 instances: (instance, optimal length, nodes in Korf's paper, 16 cells)."""
    rows = []
    for line in (REPO / "data" / "korf100.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        v = [int(x) for x in line.split()]
        rows.append((v[0], v[1], v[2], v[3:]))
    return rows
