"""Reads bench/cpu_compare.py's --out JSON: every row timed by both."""
import json
import sys

data = json.load(open(sys.argv[1]))
rows = data["rows"]
print("rows", len(rows))
for name in ("kfuse", "numpy"):
    timed = all(r["frameworks"][name].get("median_s", 0) > 0 and
                r["frameworks"][name]["ratio_to_best"] >= 1.0 for r in rows)
    print(name, "timed in every row" if timed else "NOT timed in every row")
