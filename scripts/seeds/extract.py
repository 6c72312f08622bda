#!/usr/bin/env python3
"""Extract the reference 8-puzzle programs embedded in the seed documents.

The seed documents (blog posts saved as text, see scripts/seeds/README.md) each
contain one or more C/C++ programs surrounded by prose.  This script cuts each
program out *verbatim* -- from its first ``#include`` to the closing brace of
``main`` -- and then applies a small, explicit list of mechanical repairs that
are needed only to make the text compile (damage done by the blog/HTML round
trip: lost line breaks, lost ``//``, non-breaking spaces, a ``\\n`` escape that
became a real newline, a name clash with libc).  No algorithmic bug is fixed.

Every repair is a named function below, registered in ``REPAIRS``, and every
use of a repair states how many substitutions it must make; if a seed file
changes so that a repair no longer applies exactly, extraction fails loudly
instead of silently producing something different.

Usage:
    extract.py --seeds DIR --out DIR [--list]

Writes, for every program:
    OUT/<name>.<c|cpp>        the repaired source (what build.sh compiles)
    OUT/orig/<name>.<c|cpp>   the raw cut, before repairs (diff it to audit)
and OUT/manifest.tsv with one line per program:
    name<TAB>lang<TAB>path-of-repaired-source<TAB>seed-file<TAB>repairs
The manifest is also printed on stdout.  Files are only rewritten when their
content changes, so mtimes stay stable and build.sh can skip rebuilds.

Python 3 standard library only.
"""

import argparse
import glob
import os
import re
import sys


class ExtractError(Exception):
    pass


# ---------------------------------------------------------------------------
# Lexical helpers: classify characters of C/C++ text as code / comment /
# string literal / char literal, so that brace matching and the non-ASCII
# check are not fooled by braces or prose inside comments and strings.
# ---------------------------------------------------------------------------

def lex_segments(text):
    """Split text into (kind, start, end) with kind in code/comment/string/char."""
    segs = []
    i, n = 0, len(text)
    start, kind = 0, "code"

    def flush(upto, new_kind):
        nonlocal start, kind
        if upto > start:
            segs.append((kind, start, upto))
        start, kind = upto, new_kind

    while i < n:
        c = text[i]
        if kind == "code":
            if text.startswith("//", i):
                flush(i, "comment")
                j = text.find("\n", i)
                i = n if j < 0 else j
                flush(i, "code")
                continue
            if text.startswith("/*", i):
                flush(i, "comment")
                j = text.find("*/", i + 2)
                i = n if j < 0 else j + 2
                flush(i, "code")
                continue
            if c == '"' or c == "'":
                flush(i, "string" if c == '"' else "char")
                j = i + 1
                while j < n and text[j] != c and text[j] != "\n":
                    j += 2 if text[j] == "\\" else 1
                i = min(j + 1, n)
                flush(i, "code")
                continue
        i += 1
    flush(n, "code")
    return segs


def structural_mask(text):
    """Same length as text; comments and literal contents blanked to spaces."""
    out = list(text)
    for kind, s, e in lex_segments(text):
        if kind != "code":
            for k in range(s, e):
                if out[k] != "\n":
                    out[k] = " "
    return "".join(out)


def non_ascii_outside_comments(text):
    """[(line_no, snippet)] for non-ASCII characters in code or literals."""
    bad = []
    for kind, s, e in lex_segments(text):
        if kind == "comment":
            continue
        for k in range(s, e):
            if ord(text[k]) > 127:
                line_no = text.count("\n", 0, k) + 1
                ls = text.rfind("\n", 0, k) + 1
                le = text.find("\n", k)
                le = len(text) if le < 0 else le
                bad.append((line_no, repr(text[k]), text[ls:le].strip()[:80]))
    return bad


MAIN_RE = re.compile(r"\bint\s+main\s*\(")
INCLUDE_RE = re.compile(r"#\s*include\b")


def cut_program(text, cursor, collapsed=False):
    """Find the next program at/after cursor.

    Returns (start, end): start = the first '#include', end = one past the
    closing brace of main's body.

    collapsed=True is for a document whose program was flattened onto a single
    line (003): there a '//' comment hides the rest of the program from any
    lexer, so the program is taken to run from '#include' to the end of that
    line, which must end with '}'.  (After repairs, extract_all re-checks with
    the normal brace matcher that main's body really closes there.)
    """
    mask = structural_mask(text)
    m = INCLUDE_RE.search(mask, cursor)
    if not m:
        return None
    start = m.start()
    if collapsed:
        eol = text.find("\n", start)
        eol = len(text) if eol < 0 else eol
        end = len(text[:eol].rstrip())
        if not text[:end].endswith("}"):
            raise ExtractError("collapsed program line does not end with '}'")
        return start, end
    mm = MAIN_RE.search(mask, start)
    if not mm:
        raise ExtractError("found #include at offset %d but no main() after it" % start)
    brace = mask.find("{", mm.end())
    if brace < 0:
        raise ExtractError("main() without a body")
    depth = 0
    for k in range(brace, len(mask)):
        if mask[k] == "{":
            depth += 1
        elif mask[k] == "}":
            depth -= 1
            if depth == 0:
                return start, k + 1
    raise ExtractError("unbalanced braces in main() starting at offset %d" % brace)


# ---------------------------------------------------------------------------
# Repairs.  Each takes the text and returns (new_text, n_substitutions).
# ---------------------------------------------------------------------------

def repair_split_preprocessor_lines(text):
    """003: the whole program was collapsed onto ONE line, so
    '#include<stdio.h> #include<stdlib.h> #define NUM 362880 typedef ...'
    would make the rest of the program part of the NUM macro.  Put each
    #include and the '#define NAME VALUE' on a line of its own."""
    text, n1 = re.subn(r"(#include\s*<[^>\n]+>)[ \t]+", r"\1\n", text)
    text, n2 = re.subn(r"(#define[ \t]+\w+[ \t]+[^\s]+)[ \t]+", r"\1\n", text)
    return text, n1 + n2


def repair_line_comments_to_block(text):
    """003: with the line breaks gone, a '// Record map. int map[9]; ...'
    comment swallows all code after it.  Rewrite '// <text up to and including
    the first ". ">' as a '/* <text> */' block comment so the code that
    followed on the (lost) next line is compiled again."""
    return re.subn(r"//([^\n]*?\.) ", r"/*\1 */ ", text)


def repair_rename_remove(text):
    """003: the program defines 'vertex* remove(void)' (heap pop) which clashes
    with 'int remove(const char *)' declared by <stdio.h>.  Rename the
    function (definition and call) to heap_remove; comments untouched."""
    return re.subn(r"\bremove(\s*\()", r"heap_remove\1", text)


def repair_restore_lost_line_comment(text):
    """000/bfs: 'bool issame(char *a,char *b)判断是否出现过,...' -- the blog lost
    the '//' in front of a trailing Chinese comment.  Re-insert '//' between
    the closing ')' of the signature and the CJK prose."""
    return re.subn(r"(?m)^([^\n/]*\))([\u3000-\u303f\u4e00-\u9fff\uff00-\uffef][^\n]*)$",
                   r"\1//\2", text)


def repair_nbsp_to_space(text):
    """000/dbfs: a U+00A0 NO-BREAK SPACE sits in the code
    ('htb[1].a[0]=str[0];<NBSP>'); gcc rejects it as a stray byte.  Replace
    it (and any other NBSP) by an ASCII space."""
    n = text.count("\u00a0")
    return text.replace("\u00a0", " "), n


def repair_rejoin_newline_escape(text):
    """000/dbfs: 'printf("\\n");' was rendered with a real line break inside the
    string literal (printf(" <newline> ");).  Turn it back into the two-char
    escape \\n."""
    return re.subn(r'"\n"', r'"\\n"', text)


REPAIRS = {f.__name__[len("repair_"):]: f for f in [
    repair_split_preprocessor_lines,
    repair_line_comments_to_block,
    repair_rename_remove,
    repair_restore_lost_line_comment,
    repair_nbsp_to_space,
    repair_rejoin_newline_escape,
]}


# ---------------------------------------------------------------------------
# What each seed contains, in document order.  'repairs' are applied, in
# order, to the cut program; tuples are (repair, expected substitutions).
# 'collapsed': the program sits on one line (see cut_program).
# ---------------------------------------------------------------------------

SEEDS = [
    {
        "prefix": "000_",
        "programs": [
            {"name": "hdu1043_bfs", "lang": "cpp",
             "repairs": [("restore_lost_line_comment", 1)]},
            {"name": "hdu1043_dbfs", "lang": "cpp",
             "repairs": [("nbsp_to_space", 1), ("rejoin_newline_escape", 1)]},
        ],
    },
    {
        "prefix": "001_",
        "programs": [
            {"name": "pair_bfs", "lang": "cpp", "repairs": []},
        ],
    },
    {
        "prefix": "002_",
        "programs": [
            {"name": "poj1077_bfs", "lang": "cpp", "repairs": []},
            {"name": "poj1077_astar", "lang": "cpp", "repairs": []},
            {"name": "poj1077_idastar", "lang": "cpp", "repairs": []},
        ],
    },
    {
        "prefix": "003_",
        "collapsed": True,
        "programs": [
            {"name": "hiho1312_dijkstra", "lang": "c",
             "repairs": [("split_preprocessor_lines", 3),
                         ("line_comments_to_block", 5),
                         ("rename_remove", 2)]},
        ],
    },
]


def apply_repairs(text, repairs, where):
    for rname, expected in repairs:
        text, n = REPAIRS[rname](text)
        if n != expected:
            raise ExtractError("%s: repair %r made %d substitutions, expected %d"
                               % (where, rname, n, expected))
    return text


def write_if_changed(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            if f.read() == content:
                return
    except FileNotFoundError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(content)
    os.replace(tmp, path)


def find_seed_file(seeds_dir, prefix):
    hits = sorted(glob.glob(os.path.join(seeds_dir, prefix + "*.txt")))
    if len(hits) != 1:
        raise ExtractError("expected exactly one %s*.txt in %s, found %d"
                           % (prefix, seeds_dir, len(hits)))
    return hits[0]


def extract_all(seeds_dir, out_dir):
    rows = []
    for seed in SEEDS:
        path = find_seed_file(seeds_dir, seed["prefix"])
        base = os.path.basename(path)
        with open(path, encoding="utf-8") as f:
            doc = f.read()
        collapsed = seed.get("collapsed", False)
        cursor = 0
        for prog in seed["programs"]:
            found = cut_program(doc, cursor, collapsed)
            if not found:
                raise ExtractError("%s: program %s not found (fewer programs than expected)"
                                   % (base, prog["name"]))
            s, e = found
            cursor = e
            raw = doc[s:e] + "\n"
            code = apply_repairs(raw, prog["repairs"], "%s/%s" % (base, prog["name"]))
            # Sanity: the repaired program must end exactly at main's closing brace.
            recut = cut_program(code, 0)
            if recut is None or code[recut[1]:].strip():
                raise ExtractError("%s/%s: after repairs main() does not end at the end of the code"
                                   % (base, prog["name"]))
            bad = non_ascii_outside_comments(code)
            if bad:
                raise ExtractError("%s/%s: non-ASCII outside comments after repairs: %r"
                                   % (base, prog["name"], bad[:5]))
            fname = "%s.%s" % (prog["name"], prog["lang"])
            write_if_changed(os.path.join(out_dir, "orig", fname), raw)
            write_if_changed(os.path.join(out_dir, fname), code)
            rows.append((prog["name"], prog["lang"], os.path.join(out_dir, fname),
                         base, ",".join(r for r, _ in prog["repairs"]) or "-"))
        if cut_program(doc, cursor, collapsed):
            raise ExtractError("%s: more programs than expected after %s"
                               % (base, seed["programs"][-1]["name"]))
    manifest = "".join("\t".join(r) + "\n" for r in rows)
    write_if_changed(os.path.join(out_dir, "manifest.tsv"), manifest)
    return manifest


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", help="directory with 000_*.txt .. 003_*.txt")
    ap.add_argument("--out", help="output directory for extracted sources")
    ap.add_argument("--list", action="store_true", help="only describe the repairs and exit")
    args = ap.parse_args()
    if args.list:
        for name, fn in REPAIRS.items():
            print("%s: %s" % (name, " ".join(fn.__doc__.split())))
        return 0
    if not args.seeds or not args.out:
        ap.error("--seeds and --out are required")
    if not os.path.isdir(args.seeds):
        print("extract.py: seeds directory not found: %s" % args.seeds, file=sys.stderr)
        return 2
    try:
        sys.stdout.write(extract_all(args.seeds, os.path.abspath(args.out)))
    except ExtractError as e:
        print("extract.py: error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
