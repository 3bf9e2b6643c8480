#!/usr/bin/env bash
# Steady-state CPU time (the host build of the GPU kernels, through
# kfuse-run) of a row reduction whose result is written transposed:
# softmax(x).t().contiguous() and layer_norm(x).t().contiguous() over R
# rows of C, with the transposed-epilogue rule (one kernel: the row's
# vector passes, 16 rows staged and written down the result's columns 16
# at a time) and without it (the row kernel writes its result, a
# transpose kernel reads it back); and x.sum(1) beside x.t().contiguous()
# (one kernel reading x once, or the row sum and the transpose kernel),
# side by side in one run, alternating each round.
# A benchmark, not a test.
#   bash bench/transposed-epilogue.sh [BIN_DIR]      # default: build/bin
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. bench/cpu-ms.sh
program() { # OP R C: the program with static shapes, in $tmp/OP_R_C.mlir
  local op=$1 R=$2 C=$3
  if [ "$op" = sum_beside ]; then # x.sum(1) and x.t().contiguous(): siblings
    cat > "$tmp/${op}_${R}_${C}.mlir" <<MLIR
func.func @main(%x: tensor<${R}x${C}xf32>) -> (tensor<${R}xf32>, tensor<${C}x${R}xf32>) {
  %s = kf.sum %x dims [1] : tensor<${R}x${C}xf32>
  %t = kf.transpose %x [1, 0] : tensor<${R}x${C}xf32>
  %c = kf.contiguous %t : tensor<${C}x${R}xf32>
  return %s, %c : tensor<${R}xf32>, tensor<${C}x${R}xf32>
}
MLIR
    return
  fi
  local body
  case $op in
    softmax) body="%s = kf.softmax %x dim 1 : tensor<${R}x${C}xf32>" ;;
    layer_norm) body="%s = kf.layer_norm %x normalized_shape [${C}] eps 1.0e-5 : tensor<${R}x${C}xf32>" ;;
  esac
  cat > "$tmp/${op}_${R}_${C}.mlir" <<MLIR
func.func @main(%x: tensor<${R}x${C}xf32>) -> tensor<${C}x${R}xf32> {
  $body
  %t = kf.transpose %s [1, 0] : tensor<${R}x${C}xf32>
  %c = kf.contiguous %t : tensor<${C}x${R}xf32>
  return %c : tensor<${C}x${R}xf32>
}
MLIR
}
bench_machine
ms() { kfuse_ms "$1" 3 20 --fusion="$2"; } # FILE FUSION
printf '%-11s %-11s %6s %9s %9s %8s\n' op "R x C" round "fused ms" "off ms" "off/fused"
for op in softmax layer_norm sum_beside; do
  for shape in 256x256 1024x1024 4096x1024 1024x4096 8192x512; do
    R=${shape%x*}; C=${shape#*x}
    program "$op" "$R" "$C"
    for round in 1 2 3; do
      on=$(ms "$tmp/${op}_${R}_${C}.mlir" on)
      off=$(ms "$tmp/${op}_${R}_${C}.mlir" transposed-epilogue=false)
      printf '%-11s %-11s %6s %9s %9s %8.2f\n' "$op" "$shape" "$round" "$on" "$off" \
        "$(/usr/bin/python3 -c "print($off / $on)")"
    done
  done
done
