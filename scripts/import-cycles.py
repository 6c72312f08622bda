#!/usr/bin/env python3
"""Import cycles between the top-level modules of each crate: exit 1 and name them if any.

A module is a file `src/NAME.rs` (with its submodules under `src/NAME/`); `lib.rs` or
`main.rs` is the crate's root. Module A uses module B when A's code names `crate::B` (a path
or a `use` group), or names an item the root takes from B (`pub use B::Item` or `use B::Item`); a name the root
gives another crate (`use other_crate as name`) is no module. The
root's own code uses B when it names `B::` outside `mod`/`pub use` lines. A cycle is a
strongly connected set of two modules or more.

    python3 scripts/import-cycles.py            # every crate under crates/
    python3 scripts/import-cycles.py crates/slidetable-query
"""

import re
import sys
from pathlib import Path

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def crate_modules(src):
    """Top-level module name -> its source text (the file and every file under its folder)."""
    modules = {}
    for path in sorted(src.glob("*.rs")):
        name = path.stem
        if name in ("lib", "main"):
            continue
        text = path.read_text()
        folder = src / name
        if folder.is_dir():
            text += "".join(p.read_text() for p in sorted(folder.rglob("*.rs")))
        modules[name] = strip_comments(text)
    for folder in sorted(p for p in src.iterdir() if p.is_dir()):
        if folder.name not in modules and (folder / "mod.rs").exists():
            modules[folder.name] = strip_comments(
                "".join(p.read_text() for p in sorted(folder.rglob("*.rs")))
            )
    return modules


def use_groups(text):
    """Every path a `crate::...` mention or `use crate::{...}` group names, as lists of
    segments after `crate`."""
    paths = []
    for m in re.finditer(r"\bcrate::", text):
        paths.extend(expand(text, m.end(), []))
    return paths


def expand(text, at, prefix):
    """The paths starting at `text[at:]` (after `crate::`), with braces expanded."""
    out = []
    i = at
    segs = list(prefix)
    while True:
        m = re.match(r"\s*(" + IDENT + r")\s*", text[i:])
        if m and text[i:].lstrip().startswith("{") is False:
            segs.append(m.group(1))
            i += m.end()
            if text.startswith("::", i):
                i += 2
                continue
            out.append(segs)
            return out
        rest = text[i:].lstrip()
        if rest.startswith("{"):
            i = len(text) - len(rest) + 1
            depth, start = 1, i
            while depth and i < len(text):
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            inner = text[start : i - 1]
            for part in split_top(inner):
                part = part.strip()
                if part and part != "self":
                    out.extend(expand(part, 0, segs))
                elif part == "self":
                    out.append(segs)
            return out
        out.append(segs)
        return out


def split_top(text):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


def reexports(root_text, modules):
    """Item name -> module, for the root's `use MODULE::...` lines (`pub` or not: either way
    `crate::Item` then names the module's item)."""
    found = {}
    for m in re.finditer(r"(?:^|\n)\s*(?:pub(?:\([^)]*\))?\s+)?use\s+(" + IDENT + r")::", root_text):
        module = m.group(1)
        if module not in modules:
            continue
        for path in expand(root_text, m.end(), []):
            if path:
                found[path[-1]] = module
                if len(path) > 1:
                    found.setdefault(path[0], module)
    for m in re.finditer(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+(" + IDENT + r")\s+as\s+(" + IDENT + r")\s*;", root_text, flags=re.M):
        if m.group(1) not in modules:
            found[m.group(2)] = None
    return found


def graph(crate):
    src = crate / "src"
    root = src / "lib.rs" if (src / "lib.rs").exists() else src / "main.rs"
    modules = crate_modules(src)
    root_text = strip_comments(root.read_text())
    again = reexports(root_text, modules)
    edges = {name: set() for name in modules}
    edges["<root>"] = set()
    for name, text in modules.items():
        for path in use_groups(text):
            if not path:
                continue
            head = path[0]
            target = head if head in modules else again.get(head, "<root>")
            if target is not None and target != name:
                edges[name].add(target)
    own = "\n".join(
        line
        for line in root_text.splitlines()
        if not re.match(r"\s*(pub(\([^)]*\))?\s+)?(mod|use)\b", line)
    )
    for name in modules:
        if re.search(r"\b" + name + r"::", own):
            edges["<root>"].add(name)
    return edges


def cycles(edges):
    """Strongly connected sets of two nodes or more (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    crates = [Path(a) for a in sys.argv[1:]] or sorted(Path("crates").iterdir())
    bad = 0
    for crate in crates:
        if not (crate / "src").is_dir():
            continue
        edges = graph(crate)
        for comp in cycles(edges):
            bad += 1
            links = [f"{a} -> {b}" for a in comp for b in sorted(edges[a]) if b in comp]
            print(f"{crate.name}: import cycle among {', '.join(comp)}: {'; '.join(links)}")
    if bad:
        sys.exit(1)
    print(f"no import cycles among the modules of {len(crates)} crates")


if __name__ == "__main__":
    main()
