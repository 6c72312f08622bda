#!/usr/bin/env python3
"""Checks that the documentation tells the truth.

1. Examples. Runs every `$ slidetable ...` example of the code blocks of README.md and of
   docs/GUIDE.md, each document in order in its own scratch directory, and compares what it
   prints (standard output, then standard error) with the lines the document shows under it.
   The cache's default tables (3x3, 2x3, 3x4) are generated first, as a reader who has used
   slidetable before has them, so no first-use note appears. Each example is also run once
   before, from an empty cache, as a new user runs it: its standard output and exit code
   must be the same, and its standard error the same but for the first use's note and its
   numbers (a search on every core counts its nodes as its threads ran; a pipe's data never
   holds the note).

   In the expected output:
     * a line `...` stands for any number of lines (the document shows only the start);
     * `...` inside a line stands for any text (a long JSON line shortened);
     * times (`took 43.2 ms`, `12.3 ms`, `456 µs`) match any time.
   `~` is a home directory in the scratch directory, as empty as a new account's; examples
   that need a man reader (`man -l`) are not run.

2. Paths. In README.md, docs/GUIDE.md, docs/ARCHITECTURE.md and BENCHMARKS.md, every link to a file of the
   repository (`[text](path)`, `![alt](path)`, relative to the document, with an optional
   `#heading` that must be one of the target's headings or `<a id>`s) and every repository path written
   in the text (`crates/...`, `data/...`, `docs/...`, `scripts/...`, `fuzz/...`, `.ci/...`,
   `.cargo/...`, from the repository's root; a component in capitals such as `NAME` stands
   for any name) must exist.

3. Crates. Every crate docs/ARCHITECTURE.md names (`slidetable-query`, `slidetable_query`,
   `slidetable`) must be a directory of crates/, and its table of crates (a row per crate:
   the crate in backticks first, then a column headed "depends on" listing the workspace
   crates in backticks, or "none") must list exactly the workspace crates each crate's
   Cargo.toml has under [dependencies].

4. Sizes. README.md, the front door, has at most 300 lines, and BENCHMARKS.md's headline
   (everything before its "## History") at most 100: the rest belongs in docs/GUIDE.md and
   in the history.

Usage: scripts/readme.py [--bin target/release]   (CI runs it after the tests)
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME = re.compile(r"\d+(\.\d+)?\s?(ms|µs|us|ns|s)\b")
# The documents whose examples are run, in this order.
EXAMPLES = ["README.md", "docs/GUIDE.md"]
# The documents whose paths and links are checked.
LINKED = ["README.md", "docs/GUIDE.md", "docs/ARCHITECTURE.md", "BENCHMARKS.md"]
ARCHITECTURE = "docs/ARCHITECTURE.md"
# The most lines README.md, and BENCHMARKS.md before its history, may have.
README_LINES, HEADLINE_LINES = 300, 100
# A repository path in the text: a top-level directory, then the rest of the path.
REPO_PATH = re.compile(
    r"(?<![\w./~$-])((?:crates|data|docs|scripts|fuzz|\.ci|\.cargo)/[\w.*…/-]*)"
)
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]+)\)")
CRATE = re.compile(r"(?<![\w./-])slidetable(?:[-_][a-z0-9]+)*(?![\w-])")


def examples(document):
    """(line number, command, expected lines) for every `$ ` line of a code block."""
    out, block, current = [], False, None
    for number, line in enumerate(document.splitlines(), 1):
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


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


def main():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    bindir = os.path.join(target, "release")
    if len(sys.argv) == 3 and sys.argv[1] == "--bin":
        bindir = os.path.abspath(sys.argv[2])
    elif len(sys.argv) != 1:
        sys.exit("usage: scripts/readme.py [--bin DIR]")
    missing = [name for name in LINKED if not os.path.exists(os.path.join(ROOT, name))]
    if missing:
        sys.exit(f"readme: {', '.join(missing)} missing")
    wrong = check_paths() + check_crates() + check_sizes()
    for problem in wrong:
        print(problem)
    print(f"readme: {len(wrong)} wrong paths, links, crates or sizes in {', '.join(LINKED)}")
    if not os.path.exists(os.path.join(bindir, "slidetable")):
        sys.exit(f"readme: no slidetable in {bindir} (cargo build --release first)")
    scratch = tempfile.mkdtemp(prefix="slidetable-readme.")
    failures = 0
    try:
        env = environment(bindir)
        cache = os.path.join(scratch, "cache")
        generate_defaults(cache, scratch, env)
        for name in EXAMPLES:
            directory = os.path.join(scratch, name.replace("/", "-"))
            os.mkdir(directory)
            shutil.copytree(cache, os.path.join(directory, "cache"))
            differ, ran = check_examples(name, read(name), directory, env)
            print(f"readme: {ran} examples run, {differ} differ from what {name} shows")
            failures += differ
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(1 if failures or wrong else 0)


def environment(bindir):
    env = dict(os.environ)
    env.update(PATH=bindir + os.pathsep + env.get("PATH", ""), TERM="dumb")
    env.pop("SLIDETABLE_TABLE", None)
    return env


def generate_defaults(cache, scratch, env):
    for board in ("3x3", "2x3", "3x4"):
        subprocess.run(
            ["slidetable", "generate", "--board", board],
            cwd=scratch,
            env=dict(env, XDG_CACHE_HOME=cache),
            check=True,
            stdout=subprocess.DEVNULL,
        )


def check_examples(name, document, scratch, env):
    os.symlink(os.path.join(ROOT, "data"), os.path.join(scratch, "data"))
    env = dict(
        env,
        XDG_CACHE_HOME=os.path.join(scratch, "cache"),
        HOME=os.path.join(scratch, "home"),
    )
    os.mkdir(env["HOME"])
    failures, ran, last = 0, 0, 0
    for number, command, expected in examples(document):
        if "man -l" in command:
            continue
        if command == "echo $?":
            actual = [str(last)]
        else:
            with tempfile.TemporaryDirectory(dir=scratch) as empty:
                first = shell(command, scratch, dict(env, XDG_CACHE_HOME=empty))
            run = shell(command, scratch, env)
            last = run.returncode
            actual = run.stdout.splitlines() + run.stderr.splitlines()
            differ = first_use_differs(first, run)
            if differ:
                failures += 1
                print(f"{name}:{number}: $ {command}\n  from an empty cache, {differ}")
        # A blank line that ends the output cannot be told from the end of the block.
        while actual and not actual[-1].strip():
            actual.pop()
        ran += 1
        if not matches(expected, actual):
            failures += 1
            print(f"{name}:{number}: $ {command}")
            print("  expected:")
            print("".join(f"    {l}\n" for l in expected), end="")
            print("  got:")
            print("".join(f"    {l}\n" for l in actual), end="")
    return failures, ran


def shell(command, cwd, env):
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )


# The note of a default table's first use (slidetable::defaults::first_use_note).
FIRST_USE_NOTE = re.compile(r"slidetable: no (table|pattern database) at .*; generating .* once")


# A number in a message: the counts of a search on every core (the 24-puzzle's nodes) vary
# from run to run with the threads' scheduling, so standard error is compared without them.
NUMBER = re.compile(r"\d+(\.\d+)?")


def first_use_differs(first, then):
    """What a run from an empty cache did otherwise than the same run with the cache filled
    (times aside; on standard error, numbers too), or None."""
    def timeless(text):
        return TIME.sub("TIME", text)

    def countless(line):
        return NUMBER.sub("N", timeless(line))

    if first.returncode != then.returncode:
        return f"exit code {first.returncode}, not {then.returncode}"
    if timeless(first.stdout) != timeless(then.stdout):
        return f"standard output:\n{first.stdout}\nnot:\n{then.stdout}"
    notes = [l for l in first.stderr.splitlines() if FIRST_USE_NOTE.match(l)]
    rest = [countless(l) for l in first.stderr.splitlines() if not FIRST_USE_NOTE.match(l)]
    if len(notes) > 1 or rest != [countless(l) for l in then.stderr.splitlines()]:
        return f"standard error:\n{first.stderr}\nnot, but for one note:\n{then.stderr}"
    return None


def slug(heading):
    """The anchor GitHub gives a heading."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(document):
    seen, out, block = {}, set(), False
    for line in document.splitlines():
        if line.startswith("```"):
            block = not block
        elif not block and re.match(r"#{1,6} ", line):
            base = slug(line.lstrip("#"))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
        if not block:
            out.update(re.findall(r'<a id="([^"]+)"', line))
    return out


def exists(path):
    """A path of the repository; a component in capitals (NAME, TARGET) or `*` is any name."""
    parts = [
        "*" if re.fullmatch(r"[A-Z][A-Z0-9_]*", p) or "*" in p or "…" in p else p
        for p in path.split("/")
    ]
    return bool(glob.glob(os.path.join(ROOT, *parts)))


def check_paths():
    wrong = []
    for name in LINKED:
        document = read(name)
        here = os.path.dirname(name)
        for number, line in enumerate(document.splitlines(), 1):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"[a-z]+:", target):
                    continue
                path, _, fragment = target.partition("#")
                file = os.path.normpath(os.path.join(here, path)) if path else name
                if not os.path.exists(os.path.join(ROOT, file)):
                    wrong.append(f"{name}:{number}: link to {target}: no {file}")
                elif fragment and file.endswith(".md") and fragment not in anchors(read(file)):
                    wrong.append(f"{name}:{number}: link to {target}: no heading #{fragment} in {file}")
            for m in REPO_PATH.finditer(LINK.sub("", line)):
                path = m.group(1).rstrip(".,;:")
                if not exists(path.rstrip("/")):
                    wrong.append(f"{name}:{number}: {path} does not exist")
    return wrong


def check_sizes():
    wrong = []
    lines = len(read("README.md").splitlines())
    if lines > README_LINES:
        wrong.append(f"README.md: {lines} lines, over {README_LINES} (move the detail to docs/GUIDE.md)")
    headline = read("BENCHMARKS.md").split("\n## History", 1)[0]
    lines = len(headline.splitlines())
    if lines > HEADLINE_LINES:
        wrong.append(f"BENCHMARKS.md: {lines} lines before its History, over {HEADLINE_LINES}")
    return wrong


def dependencies(crate):
    """The workspace crates under [dependencies] in crates/CRATE/Cargo.toml."""
    out, section = set(), None
    with open(os.path.join(ROOT, "crates", crate, "Cargo.toml"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                section = line.strip("[]").strip()
            elif section == "dependencies":
                m = re.match(r"(slidetable[\w-]*)\s*(?:\.|=)", line)
                if m:
                    out.add(m.group(1))
    return out


def check_crates():
    document = read(ARCHITECTURE)
    crates = {d for d in os.listdir(os.path.join(ROOT, "crates"))
              if os.path.exists(os.path.join(ROOT, "crates", d, "Cargo.toml"))}
    wrong, block, column, listed = [], False, None, set()
    for number, line in enumerate(document.splitlines(), 1):
        if line.startswith("```"):
            block = not block
        for m in CRATE.finditer(line):
            crate = m.group(0).replace("_", "-")
            if crate not in crates:
                wrong.append(f"{ARCHITECTURE}:{number}: no crate {crate} in crates/")
        if block or not line.startswith("|"):
            column = None if not line.startswith("|") else column
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if column is None:
            heads = [c.lower() for c in cells]
            column = heads.index("depends on") if "depends on" in heads else None
            continue
        first = re.fullmatch(r"`(?:crates/)?(slidetable[\w-]*)`", cells[0])
        if not first or column >= len(cells):
            continue
        crate = first.group(1)
        if crate not in crates:
            continue  # reported above
        listed.add(crate)
        said = set(re.findall(r"`(slidetable[\w-]*)`", cells[column]))
        actual = dependencies(crate)
        if said != actual:
            wrong.append(
                f"{ARCHITECTURE}:{number}: {crate} depends on {', '.join(sorted(actual)) or 'none'}"
                f" (crates/{crate}/Cargo.toml), not {', '.join(sorted(said)) or 'none'}"
            )
    for crate in sorted(crates - listed):
        wrong.append(f"{ARCHITECTURE}: its table of crates has no row for {crate}")
    return wrong


if __name__ == "__main__":
    main()
