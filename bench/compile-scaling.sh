#!/usr/bin/env bash
# How kfuse-compile's time grows with program length: a chain of N relus
# over tensor<1024xf32> (one fused kernel, N eager kernels) through
# `kfuse-compile --emit=ptx` and `--emit=lib` (four variants: GPU and host,
# fused and eager), for each N. Prints wall-clock seconds and seconds per
# 1,000 ops (flat when the growth is linear). A benchmark, not a test.
#   bash bench/compile-scaling.sh [N ...]     # default: 250 500 1000 2000
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${KFUSE_BIN:-build/bin}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(250 500 1000 2000)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A chain of n relus: %v1 = relu %v0, %v2 = relu %v1, ..., returned.
generate() { python3 bench/relu_chain.py "$1"; }

seconds() { # runs "$@" and prints its wall-clock seconds
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}

per1000() { python3 -c "print(f'{$1 * 1000 / $2:.2f}')"; }

printf "%8s  %10s  %10s  %10s  %10s\n" "ops" "ptx (s)" "s/1k ops" "lib (s)" "s/1k ops"
for n in "${sizes[@]}"; do
  generate "$n" > "$tmp/chain.mlir"
  ptx=$(seconds "$bin/kfuse-compile" "$tmp/chain.mlir" --emit=ptx -o "$tmp/out.ptx")
  lib=$(seconds "$bin/kfuse-compile" "$tmp/chain.mlir" --emit=lib -o "$tmp/out.so")
  printf "%8s  %10s  %10s  %10s  %10s\n" "$n" "$ptx" "$(per1000 "$ptx" "$n")" \
    "$lib" "$(per1000 "$lib" "$n")"
done
