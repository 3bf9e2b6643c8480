"""Reads bench/gpu_bench.py's gpu-check.json (dry run with PyTorch): every
row timed four ways (the matmuls three: no torch.compile), its kfuse graph
captured once and replayed; the model rows with the module's parameters
and inputs; the tile sweep's rows (kfuse graph on and torch eager) where
kfuse-compile (argv[2]) has --matmul-tiles, else the note that says the
sweep was skipped."""
import json
import subprocess
import sys

data = json.load(open(sys.argv[1]))
rows = data["rows"]
standard = [r for r in rows if not r.get("tiles")]
sweep = [r for r in rows if r.get("tiles")]
print(f"rows, errors {sum('error' in r for r in rows)}")
four = ("kfuse_graph_on", "kfuse_graph_off", "torch_eager", "torch_compile")
bad = []
for r in standard:
    methods = four[:3] if r["family"] == "matmul" else four
    if (not all(r.get(m + "_us", 0) > 0 for m in methods)
            or ("compile_note" in r) != (r["family"] == "matmul")
            or r["graph"]["captures"] != 1 or r["graph"]["replays"] != 9):
        bad.append(r["row"])
print("every row:" if not bad else f"NOT every row ({', '.join(bad)}):",
      "kfuse graph on and off, torch eager and torch.compile timed (the matmuls: no "
      "torch.compile); 1 capture, 9 replays")
models = [r for r in standard if r["family"] == "model"]
print("model rows: " + ", ".join(r["row"] for r in models) + "; "
      + " and ".join(str(r.get("arguments")) for r in models)
      + " arguments (the parameters, then the inputs)")
help_text = subprocess.run([sys.argv[2], "--help"], capture_output=True, text=True).stdout
if "matmul-tiles" in help_text:
    want = ["matmul_f16_32x32 tiles=64x64x32/2x2/2", "matmul_bf16_32x32 tiles=64x64x32/2x2/2",
            "matmul_f32_32x32 tiles=64x64x32/2x2/2"]
    ok = ([r["row"] for r in sweep] == want and all(
        r.get("kfuse_graph_on_us", 0) > 0 and r.get("torch_eager_us", 0) > 0
        and "kfuse_graph_off_us" not in r and "torch_compile_us" not in r
        and r["graph"]["captures"] == 1 for r in sweep))
    md = open(sys.argv[1][:-len("json")] + "md").read()
    ok = ok and "matmul tile sweep: kfuse graph on against cuBLAS" in md and \
        "| matmul_f16_32x32 | " in md
else:
    ok = not sweep and any("matmul tile sweep skipped" in n for n in data["notes"])
print("sweep:" if ok else "NOT sweep:", "as kfuse-compile's --matmul-tiles allows")
