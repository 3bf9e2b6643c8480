#!/usr/bin/env bash
# Steady-state CPU time (the host build of the GPU kernels, through
# kfuse-run) of summed matmuls: an LSTM's gates x @ Wx + h @ Wh + b (batch
# B, input and hidden H, 4H gates), with the matmul-chain rule (one kernel,
# one accumulator; the products never written) and without it (the first
# product written and read back by the second matmul's epilogue), side by
# side in one run, alternating each round. A benchmark, not a test.
#   bash bench/matmul-chain.sh [BIN_DIR]      # default: build/bin
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. bench/cpu-ms.sh
program() { # B H: the gates' program with static shapes, in $tmp/gates_B_H.mlir
  local B=$1 H=$2 G=$(( 4 * $2 ))
  cat > "$tmp/gates_$1_$2.mlir" <<MLIR
func.func @gates(%x: tensor<${B}x${H}xf32>, %wx: tensor<${H}x${G}xf32>, %h: tensor<${B}x${H}xf32>, %wh: tensor<${H}x${G}xf32>, %b: tensor<${G}xf32>) -> tensor<${B}x${G}xf32> {
  %0 = kf.matmul %x, %wx : tensor<${B}x${H}xf32>, tensor<${H}x${G}xf32>
  %1 = kf.matmul %h, %wh : tensor<${B}x${H}xf32>, tensor<${H}x${G}xf32>
  %2 = kf.add %0, %1 : tensor<${B}x${G}xf32>, tensor<${B}x${G}xf32>
  %3 = kf.add %2, %b : tensor<${B}x${G}xf32>, tensor<${G}xf32>
  return %3 : tensor<${B}x${G}xf32>
}
MLIR
}
bench_machine
ms() { kfuse_ms "$tmp/gates_$1_$2.mlir" 3 20 --fusion="$3"; } # B H FUSION
printf '%-12s %6s %10s %10s %8s\n' "B x H" round "chain ms" "off ms" "off/chain"
for shape in 64x256 256x256 1024x512 4096x32 16384x16 8192x64; do
  B=${shape%x*}; H=${shape#*x}
  program "$B" "$H"
  for round in 1 2 3; do
    on=$(ms "$B" "$H" on)
    off=$(ms "$B" "$H" matmul-chain=false)
    printf '%-12s %6s %10s %10s %8.2f\n' "$shape" "$round" "$on" "$off" \
      "$(/usr/bin/python3 -c "print($off / $on)")"
  done
done
