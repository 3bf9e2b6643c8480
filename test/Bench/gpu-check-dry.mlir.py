"""Reads bench/gpu_bench.py's gpu-check.json (dry run): every row timed with
graphs on and off, its graph captured once and replayed."""
import json
import sys

data = json.load(open(sys.argv[1]))
rows = data["rows"]
print(f"rows {len(rows)}, errors {sum('error' in r for r in rows)}")
good = all(r.get("kfuse_graph_on_us", 0) > 0 and r.get("kfuse_graph_off_us", 0) > 0 and
           r["graph"]["captures"] == 1 and r["graph"]["replays"] == 9 for r in rows)
print("every row:" if good else "NOT every row:",
      "graph on and off timed, 1 capture, 9 replays")
print("torch:", data["torch"])
