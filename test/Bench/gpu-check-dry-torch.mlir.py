"""Reads bench/gpu_bench.py's gpu-check.json (dry run with PyTorch): every
row timed four ways, its kfuse graph captured once and replayed."""
import json
import sys

data = json.load(open(sys.argv[1]))
rows = data["rows"]
print(f"rows {len(rows)}, errors {sum('error' in r for r in rows)}")
methods = ("kfuse_graph_on", "kfuse_graph_off", "torch_eager", "torch_compile")
bad = [r["row"] for r in rows
       if not all(r.get(m + "_us", 0) > 0 for m in methods) or "compile_note" in r
       or r["graph"]["captures"] != 1 or r["graph"]["replays"] != 9]
print("every row:" if not bad else f"NOT every row ({', '.join(bad)}):",
      "kfuse graph on and off, torch eager and torch.compile timed; 1 capture, 9 replays")
