#!/usr/bin/env python3
"""Counts the places a newcomer touches to add a unary or binary op, and checks the count
against the checklist in the table's header ("Adding an op": its numbered steps name the
files).

A place is a hand-written file that names every differentiable row of the table (by the
op's name, or for a binary FUNCTOR(Name) row by its functor): a list a new op must join. Files
that expand the table with X-macros never name a row, and generated golden files are not
hand-written, so neither counts. The test fails when such a list appears that the checklist
does not name, or when the checklist names a file that is not one (run from the checkout's
root, or pass it as the argument).
"""
import os
import re
import sys

ROOTS = ["ember", "tests", "tools", "compat", "bench", "examples", "fuzz"]
SUFFIXES = (".cpp", ".h", ".def", ".py")

TABLES = {
    "ember/tables/unary.def": re.compile(r"^EMBER_UNARY_OP\((\w+),[^\n]*?,\s*(GRAD|GRAD_JVP|NONDIFF|NOT_IMPLEMENTED)\b", re.M),
    "ember/tables/binary.def": re.compile(
        r"^EMBER_BINARY_(?:OP|KERNEL)\((\w+),\s*\w+,\s*\w+,\s*(?:ELEMENT\(.*?\)|FUNCTOR\((\w+)\)),\s*"
        r"(GRAD|NONDIFF|NOT_IMPLEMENTED|RECORDED_ELSEWHERE)\b",
        re.M),
}


def sources(root):
    for top in ROOTS:
        for dirpath, _, filenames in os.walk(os.path.join(root, top)):
            if os.path.relpath(dirpath, root).startswith(os.path.join("tests", "golden")):
                continue  # generated
            for f in filenames:
                if f.endswith(SUFFIXES):
                    path = os.path.join(dirpath, f)
                    yield os.path.relpath(path, root), open(path, errors="replace").read()


def differentiable_rows(table_text, table):
    rows = []
    for m in TABLES[table].finditer(table_text):
        if table.endswith("unary.def"):
            name, grad = m.group(1), m.group(2)
            words = [name]
        else:
            # A FUNCTOR(Name) row is also named by its functor; an ELEMENT row only by its name.
            name, functor, grad = m.group(1), m.group(2), m.group(3)
            words = [name] + ([functor] if functor else [])
        if grad.startswith("GRAD"):
            rows.append(words)
    return rows


def checklist(table_text):
    """The files named by the numbered steps of the header's 'Adding an op' list."""
    header = table_text[table_text.index("// Adding an op"):table_text.index("// clang-format off")]
    steps = re.findall(r"^//\s+\d+\.(.*(?:\n//\s{5,}.*)*)", header, re.M)
    files = set()
    for step in steps:
        files.update(re.findall(r"((?:ember/|kernels/|tools/|tests/)[\w/]+\.(?:cpp|h|py|def))", step))
    # Paths in the checklist are written from ember/ for library files.
    return {f if f.startswith(("tools/", "tests/", "ember/")) else "ember/" + f for f in files}, len(steps)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = dict(sources(root))
    failed = False
    for table in TABLES:
        text = files[table]
        rows = differentiable_rows(text, table)
        assert rows, f"{table}: no differentiable rows parsed"
        places = {table}
        for path, body in files.items():
            if path == table:
                continue
            if all(any(re.search(r"\b" + w + r"\b", body) for w in words) for words in rows):
                places.add(path)
        listed, steps = checklist(text)
        listed.add(table)
        print(f"{table}: adding a differentiable op touches {len(places)} places: {', '.join(sorted(places))}")
        if places != listed or steps != len(places):
            failed = True
            print(f"  the checklist ({steps} steps) names {', '.join(sorted(listed))}", file=sys.stderr)
    if failed:
        print("count_op_places: the tables' checklists do not match the places an op must be added to", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
