# Counts the global memory a row kernel's PTX moves for one row: per
# .entry, the bytes of its ld.global and st.global instructions (a .vN
# access moves N times its type's width), times the threads of its block
# (.maxntid). Valid where each access runs once a thread (no loop: a
# branch back to an earlier label is counted and printed as `loops`).
import re
import sys

ACCESS = re.compile(r"^\s*(?:@%p\d+\s+)?(ld|st)\.global(?:\.nc)?(?:\.v(\d))?\.[bfsu](\d+)\s")
ENTRY = re.compile(r"^\.visible \.entry (\w+)\(")
THREADS = re.compile(r"^\.maxntid (\d+), 1, 1")
LABEL = re.compile(r"^(\$L__\w+):")
BRANCH = re.compile(r"\bbra(?:\.uni)?\s+(\$L__\w+);")

entries = []
for line in open(sys.argv[1]):
    if m := ENTRY.match(line):
        entries.append({"name": m.group(1), "threads": 0, "ld": 0, "st": 0, "loops": 0,
                        "labels": set()})
        continue
    if not entries:
        continue
    e = entries[-1]
    if m := THREADS.match(line):
        e["threads"] = int(m.group(1))
    elif m := LABEL.match(line):
        e["labels"].add(m.group(1))
    elif m := ACCESS.match(line):
        e[m.group(1)] += int(m.group(2) or 1) * int(m.group(3)) // 8
    elif (m := BRANCH.search(line)) and m.group(1) in e["labels"]:
        e["loops"] += 1
for e in entries:
    t = e["threads"]
    print(f"{e['name']}: {t} threads, a row loads {e['ld'] * t} bytes, stores {e['st'] * t} "
          f"bytes, loops {e['loops']}")
