#!/usr/bin/env python3
"""Fails when a file under ember/ includes a header of a higher layer.

Usage: tools/layers/check_layers.py [repo-root]
The layers are written in tools/layers/layers.txt; this script only reads them.
Prints every offending include as file:line, and the folder edges it found.
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
root = os.path.abspath(root)

layer_of = {}
umbrellas = set()
with open(os.path.join(root, "tools", "layers", "layers.txt")) as f:
    for line in f:
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "layer":
            for folder in words[2:]:
                layer_of[folder] = int(words[1])
        elif words[0] == "umbrella":
            umbrellas.update(words[1:])
        else:
            sys.exit(f"layers.txt: cannot read line: {line.rstrip()}")


def folder_of(path):
    """ember/<folder>/... -> folder; ember/<folder>.h -> folder; umbrellas -> None."""
    parts = path.split("/")
    if len(parts) > 1:
        return parts[0]
    name = parts[0]
    if name in umbrellas:
        return None
    return name.rsplit(".", 1)[0]


include = re.compile(r'^\s*#\s*include\s+"ember/([^"]+)"')
errors = []
edges = {}
for dirpath, _, files in os.walk(os.path.join(root, "ember")):
    for name in sorted(files):
        path = os.path.join(dirpath, name)
        rel = os.path.relpath(path, os.path.join(root, "ember"))
        src = folder_of(rel)
        if src is None:  # the umbrellas themselves
            continue
        if src not in layer_of:
            errors.append(f"ember/{rel}: folder '{src}' has no layer in tools/layers/layers.txt")
            continue
        with open(path, errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = include.match(line)
                if not m:
                    continue
                dst = folder_of(m.group(1))
                where = f"ember/{rel}:{lineno}: includes ember/{m.group(1)}"
                if dst is None:
                    errors.append(f"{where}, an umbrella header (include what the file uses)")
                elif dst not in layer_of:
                    errors.append(f"{where}: folder '{dst}' has no layer")
                elif layer_of[dst] > layer_of[src]:
                    errors.append(f"{where}: layer {layer_of[dst]} ({dst}) is above layer {layer_of[src]} ({src})")
                elif dst != src:
                    edges[(src, dst)] = edges.get((src, dst), 0) + 1

for e in errors:
    print(e)
if "-v" in sys.argv or errors:
    print("folder edges (includes):")
    for (s, d), n in sorted(edges.items(), key=lambda kv: (layer_of[kv[0][0]], kv[0])):
        print(f"  {s} (layer {layer_of[s]}) -> {d} (layer {layer_of[d]}): {n}")
if errors:
    print(f"check_layers: {len(errors)} include(s) point up a layer")
    sys.exit(1)
print(f"check_layers: every include under ember/ points to its own layer or below ({sum(edges.values())} cross-folder includes)")
