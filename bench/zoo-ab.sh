#!/usr/bin/env bash
# The 11 real models of bench/zoo_cpu.py (imported at its input sizes)
# compiled by two kfuse-compile builds (A and B, e.g. the last commit's and
# the work tree's), run by one kfuse-run on the CPU alternately, A B A B ...
# ROUNDS times, so that both see the same machine. Prints each model's
# minimum steady-state time per call, the sum of its kernels' minimum times
# (steadier on a noisy machine: a call's time also holds the launches and
# whatever else the machine did) and B / A of both, and with --kernels each
# kernel's minimum (the kernels the two builds name alike).
#   bash bench/zoo-ab.sh A/kfuse-compile B/kfuse-compile [ROUNDS] [--kernels] [MODEL ...]
# Needs kfuse's virtual environment (scripts/setup.sh: torch, transformers,
# timm, torchvision).
set -euo pipefail
cd "$(dirname "$0")/.."
a="$1"; b="$2"; shift 2
rounds=3
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then rounds="$1"; shift; fi
kernels=0
if [ $# -gt 0 ] && [ "$1" = "--kernels" ]; then kernels=1; shift; fi
python="${KFUSE_VENV:-$HOME/.cache/kfuse/venv}/bin/python"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
HF_HUB_OFFLINE=1 "$python" - "$work" "$@" <<'PY'
import os, sys, warnings
import numpy as np, torch
sys.path[:0] = ["importer", "bench"]
from zoo_cpu import real_models
from kfuse_import.importer import import_module
out = sys.argv[1]
with torch.no_grad(), warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for name, model, args in real_models(sys.argv[2:]):
        p = import_module(model.eval(), args, entry="graph")
        open(f"{out}/{name}.mlir", "w").write(p.text)
        os.makedirs(f"{out}/{name}.inputs")
        for i, x in enumerate(p.inputs):
            np.save(f"{out}/{name}.inputs/arg{i}.npy", x)
PY
echo "A: $a"; echo "B: $b"; echo "$(nproc) cores, $rounds rounds, $(date -u +%Y-%m-%d)"
printf '%-24s %10s %10s %7s %10s %10s %7s\n' model "A ms/call" "B ms/call" "B / A" \
  "A kernels" "B kernels" "B / A"
for p in "$work"/*.mlir; do
  name="$(basename "$p" .mlir)"
  "$a" "$p" --emit=lib --variants=host_fused -o "$work/$name.A.so"
  "$b" "$p" --emit=lib --variants=host_fused -o "$work/$name.B.so"
  for i in $(seq "$rounds"); do
    for side in A B; do
      build/bin/kfuse-run "$work/$name.$side.so" --input-dir "$work/$name.inputs" --device=cpu \
        --warmup=3 --repeat=20 --format=json 2>/dev/null > "$work/$name.$side.$i.json"
    done
  done
  python3 - "$name" "$rounds" "$kernels" "$work/$name" <<'PY'
import json, sys
name, rounds, kernels, base = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
runs = {s: [json.load(open(f"{base}.{s}.{i}.json")) for i in range(1, rounds + 1)] for s in "AB"}
total = {s: min(r["steady"]["ms_per_call"] for r in runs[s]) for s in "AB"}
best = {s: {} for s in "AB"}
for s in "AB":
    for r in runs[s]:
        for k in r["kernels"]:
            best[s][k["name"]] = min(best[s].get(k["name"], 1e18), k["min_us"])
ksum = {s: sum(best[s].values()) / 1e3 for s in "AB"}
print(f"{name:<24} {total['A']:10.3f} {total['B']:10.3f} {total['B'] / total['A']:7.2f} "
      f"{ksum['A']:10.3f} {ksum['B']:10.3f} {ksum['B'] / ksum['A']:7.2f}")
if kernels:
    for k in sorted(best["A"], key=lambda k: -best["A"][k])[:8]:
        if k in best["B"]:
            print(f"  {k[:52]:<52} {best['A'][k]:9.1f} {best['B'][k]:9.1f} us")
PY
done
