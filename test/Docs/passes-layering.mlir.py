"""The house of passes/ as docs/ARCHITECTURE.md draws it, checked.

Reads the layers from the fenced block after "<!-- passes-layers -->" in
docs/ARCHITECTURE.md (one line a layer, bottom first: `N: folder folder`),
then every `#include "passes/..."` of passes/ (a folder-to-folder arrow).
Fails, naming the file and the include, when an arrow does not run to a
strictly lower layer (so there is no circle and nothing looks up), when a
folder of passes/ is in no layer or a layer names a folder that does not
exist, when a folder holds more than 20 source files (.cpp and .h), or when a source
file is over 500 lines. Prints the layers and the arrows between folders
for FileCheck.
"""
import collections
import os
import re
import sys

src = sys.argv[1]
root = os.path.join(src, "passes")
doc = open(os.path.join(src, "docs", "ARCHITECTURE.md")).read()
m = re.search(r"<!-- passes-layers -->\s*```\n(.*?)```", doc, re.S)
if not m:
    sys.exit("docs/ARCHITECTURE.md has no <!-- passes-layers --> block")
layer_of = {}
for line in m.group(1).splitlines():
    number, _, folders = line.partition(":")
    for f in folders.split():
        layer_of[f] = int(number)

errors = []
folders = sorted(
    os.path.relpath(d, src) for d, _, files in os.walk(root)
    if any(f.endswith((".cpp", ".h")) for f in files))
for f in folders:
    if f not in layer_of:
        errors.append(f"{f}: in no layer of docs/ARCHITECTURE.md")
for f in layer_of:
    if f not in folders:
        errors.append(f"{f}: a layer names it, but it holds no source")

arrows = collections.Counter()
for d in folders:
    sources = [f for f in os.listdir(os.path.join(src, d)) if f.endswith((".cpp", ".h"))]
    if len(sources) > 20:
        errors.append(f"{d}: {len(sources)} source files (.cpp and .h; at most 20)")
    for name in sorted(sources):
        path = os.path.join(d, name)
        lines = open(os.path.join(src, path)).read().splitlines()
        if len(lines) > 500:
            errors.append(f"{path}: {len(lines)} lines (at most 500)")
        for line in lines:
            inc = re.match(r'#include "(passes/[^"]+)"', line)
            if not inc or inc.group(1).endswith(".inc"):
                continue
            to = os.path.dirname(inc.group(1))
            if to == d:
                continue
            arrows[(d, to)] += 1
            if d in layer_of and to in layer_of and layer_of[to] >= layer_of[d]:
                errors.append(f"{path} includes {inc.group(1)}: layer {layer_of[d]} "
                              f"-> layer {layer_of[to]}, not down")

for e in errors:
    print("error:", e)
for n in sorted(set(layer_of.values())):
    print(f"layer {n}:", " ".join(sorted(f for f, l in layer_of.items() if l == n)))
for (a, b), n in sorted(arrows.items()):
    print(f"arrow {a} -> {b}")
sys.exit(1 if errors else 0)
