#!/usr/bin/env python3
"""Checks that README.md tells the truth: runs every `$ slidetable ...` example of its code
blocks, in order, in one scratch directory, and compares what it prints (standard output,
then standard error) with the lines the README shows under it. The cache's default tables
(3x3, 2x3, 3x4) are generated first, as a reader who has used slidetable before has them,
so no first-use note appears.

In the README's expected output:
  * a line `...` stands for any number of lines (the README shows only the start);
  * `...` inside a line stands for any text (a long JSON line shortened);
  * times (`took 43.2 ms`, `12.3 ms`, `456 µs`) match any time.
Examples that write outside the scratch directory (`completions ... > ~/...`) or need a
man reader (`man -l`) are run without their redirection or not at all.

Usage: scripts/readme.py [--bin target/release]   (CI runs it after the tests)
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME = re.compile(r"\d+(\.\d+)?\s?(ms|µs|us|ns|s)\b")


def examples(readme):
    """(line number, command, expected lines) for every `$ ` line of a code block."""
    out, block, current = [], False, None
    for number, line in enumerate(readme.splitlines(), 1):
        if line.startswith("```"):
            block = not block
            current = None
            continue
        if not block:
            continue
        if line.startswith("$ "):
            current = (number, line[2:], [])
            out.append(current)
        elif current is not None:
            current[2].append(line)
    # A blank line that ends an example's output cannot be told from the end of the block.
    for _, _, expected in out:
        while expected and not expected[-1].strip():
            expected.pop()
    return out


def pattern(expected):
    parts, at = [], 0
    for m in TIME.finditer(expected):
        parts.append(literal(expected[at : m.start()]))
        parts.append(TIME.pattern)
        at = m.end()
    parts.append(literal(expected[at:]))
    return re.compile("".join(parts) + r"\Z")


def literal(text):
    text = re.escape(text)
    return text.replace(re.escape("..."), ".*").replace(re.escape("…"), ".*")


def matches(expected, actual):
    """Line by line; a lone `...` takes any number of lines."""
    if not expected:
        return not actual
    head = expected[0]
    if head.strip() in ("...", "…"):
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    return bool(pattern(head).match(actual[0])) and matches(expected[1:], actual[1:])


def main():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    bindir = os.path.join(target, "release")
    if len(sys.argv) == 3 and sys.argv[1] == "--bin":
        bindir = os.path.abspath(sys.argv[2])
    if not os.path.exists(os.path.join(bindir, "slidetable")):
        sys.exit(f"readme: no slidetable in {bindir} (cargo build --release first)")
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    scratch = tempfile.mkdtemp(prefix="slidetable-readme.")
    try:
        failures, ran = check(readme, scratch, bindir)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"readme: {ran} examples run, {failures} differ from what README.md shows")
    sys.exit(1 if failures else 0)


def check(readme, scratch, bindir):
    os.symlink(os.path.join(ROOT, "data"), os.path.join(scratch, "data"))
    env = dict(os.environ)
    env.update(
        PATH=bindir + os.pathsep + env.get("PATH", ""),
        XDG_CACHE_HOME=os.path.join(scratch, "cache"),
        HOME=os.path.join(scratch, "home"),
        TERM="dumb",
    )
    env.pop("SLIDETABLE_TABLE", None)
    for board in ("3x3", "2x3", "3x4"):
        subprocess.run(
            ["slidetable", "generate", "--board", board],
            cwd=scratch,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    failures, ran, last = 0, 0, 0
    for number, command, expected in examples(readme):
        if "man -l" in command:
            continue
        if command.startswith("slidetable completions"):
            command = command.split(">")[0]
            expected = ["..."]
        if command == "echo $?":
            actual = [str(last)]
        else:
            run = subprocess.run(
                ["bash", "-o", "pipefail", "-c", command],
                cwd=scratch,
                env=env,
                capture_output=True,
                text=True,
            )
            last = run.returncode
            actual = run.stdout.splitlines() + run.stderr.splitlines()
        # A blank line that ends the output cannot be told from the end of the block.
        while actual and not actual[-1].strip():
            actual.pop()
        ran += 1
        if not matches(expected, actual):
            failures += 1
            print(f"README.md:{number}: $ {command}")
            print("  expected:")
            print("".join(f"    {l}\n" for l in expected), end="")
            print("  got:")
            print("".join(f"    {l}\n" for l in actual), end="")
    return failures, ran


if __name__ == "__main__":
    main()
