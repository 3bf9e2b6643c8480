#!/usr/bin/env bash
# Steady-state time of a full f32 sum on the CPU (the host build of the GPU
# kernels, through kfuse-run), for one or more kfuse builds side by side in
# one run, alternating builds each round. A benchmark, not a test.
#   bash bench/cpu-sum.sh [N] [BIN_DIR ...]    # default: 10000000 build/bin
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000000}
shift || true
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/bin)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/sum.mlir" <<'MLIR'
func.func @sum(%x: tensor<?xf32>) -> tensor<f32> {
  %s = kf.sum %x : tensor<?xf32>
  return %s : tensor<f32>
}
MLIR
printf '%-40s %8s %12s\n' build round ms/call
for round in 1 2 3; do
  for bin in "${bins[@]}"; do
    "$bin/kfuse-run" "$tmp/sum.mlir" --dim d0="$n" --device=cpu --warmup=2 --repeat=20 \
      --format=json > "$tmp/out.json"
    ms=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['steady']['ms_per_call'])" "$tmp/out.json")
    printf '%-40s %8s %12s\n' "$bin" "$round" "$ms"
  done
done
