#!/usr/bin/env bash
# On a machine with a CUDA GPU and no MLIR: runs every example on the GPU
# and compares with the CPU results computed by bench/pack.sh; runs the 200
# packed random programs fused on the GPU against the unfused program on
# the CPU (kfuse-run --check, test/harness/kf_fuzz.py --prebuilt); times the
# article's add+relu at 1e6, 1e7 and 1e8 elements fused and unfused, as
# GB/s against a device-to-device copy, PyTorch eager and torch.compile
# measured in the same run (when PyTorch is installed). Under 5 minutes.
#   bash bench/pack.sh                      # on the development machine
#   bash bench/gpu-check.sh [BUNDLE] [OUT]  # on the GPU machine
# BUNDLE defaults to build/gpu-bundle; results go to OUT (default
# $OUT or BUNDLE/results): gpu-check.json, gpu-check.md, traces, outputs.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bundle="${1:-build/gpu-bundle}"
out="${2:-${OUT:-$bundle/results}}"
[ -f "$bundle/gpu_bench.py" ] || { echo "gpu-check: no bundle at $bundle (run bench/pack.sh)"; exit 1; }
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null \
  | sed 's/^/gpu: /' || echo "gpu: nvidia-smi not found"
exec python3 "$bundle/gpu_bench.py" --bundle "$bundle" --out "$out"
