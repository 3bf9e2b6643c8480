#!/usr/bin/env bash
# How kernel formation scales with program length: a chain of N relus over
# tensor<1024xf32> (one fused kernel) through `kfuse-opt --kf-to-linalg
# --kf-form-kernels` and through `kfuse-compile --emit=ptx`, for each N.
# Prints a table of wall-clock seconds (and CPU seconds: on a shared
# machine the wall clock includes waiting). A benchmark, not a test.
#   bash bench/form-kernels-scaling.sh [N ...]     # default: 1000 4000 10000
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${KFUSE_BIN:-build/bin}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 4000 10000)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A chain of n relus: %1 = relu %0, %2 = relu %1, ..., returned.
generate() { python3 bench/relu_chain.py "$1"; }

seconds() { # runs "$@"; prints its wall-clock and CPU (user + system) seconds
  /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null
  read -r wall user sys < "$tmp/time"
  python3 -c "print(f'{$wall:.2f} ({$user + $sys:.2f} cpu)')"
}

printf "%8s  %22s  %22s\n" "ops" "form-kernels (s)" "kfuse-compile ptx (s)"
for n in "${sizes[@]}"; do
  generate "$n" > "$tmp/chain.mlir"
  form=$(seconds "$bin/kfuse-opt" "$tmp/chain.mlir" --kf-to-linalg --kf-form-kernels -o "$tmp/out.mlir")
  ptx=$(seconds "$bin/kfuse-compile" "$tmp/chain.mlir" --emit=ptx -o "$tmp/out.ptx")
  printf "%8s  %22s  %22s\n" "$n" "$form" "$ptx"
done
