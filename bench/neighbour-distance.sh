#!/usr/bin/env bash
# Steady-state CPU time (kfuse-run, the host runtime) of a small
# reduction read by a row reduction: the farthest neighbour of each of N
# points in 3-D, ((x[:, None] - x[None]) ** 2).sum(2).max(1), and a softmax
# over the negative squared distances. Three plans side by side, one
# after the other in each round: the sums unrolled into the max's row
# kernel (one kernel, the default), the sums as their own kernel
# (--fusion=small-reduction=false: a row kernel over rows of 3, then the
# max; issue 26's "before"), and the pairs, sums and max as three kernels
# (--fusion=reduction-prologue=false).
# A benchmark, not a test.
#   bash bench/neighbour-distance.sh [BIN_DIR]      # default: build/bin
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. bench/cpu-ms.sh
program() { # OP N: the program with static shapes, in $tmp/OP_N.mlir
  local op=$1 N=$2 tail
  case $op in
    farthest) tail="%m = kf.max %s dims [1] : tensor<${N}x${N}xf32>
  return %m : tensor<${N}xf32>"; ret="tensor<${N}xf32>" ;;
    softmax) tail="%n = kf.neg %s : tensor<${N}x${N}xf32>
  %m = kf.softmax %n dim 1 : tensor<${N}x${N}xf32>
  return %m : tensor<${N}x${N}xf32>"; ret="tensor<${N}x${N}xf32>" ;;
  esac
  cat > "$tmp/${op}_${N}.mlir" <<MLIR
func.func @main(%x: tensor<${N}x3xf32>) -> $ret {
  %a = kf.reshape %x [${N}, 1, 3] : tensor<${N}x3xf32>
  %b = kf.reshape %x [1, ${N}, 3] : tensor<${N}x3xf32>
  %d = kf.sub %a, %b : tensor<${N}x1x3xf32>, tensor<1x${N}x3xf32>
  %q = kf.mul %d, %d : tensor<${N}x${N}x3xf32>, tensor<${N}x${N}x3xf32>
  %s = kf.sum %q dims [2] : tensor<${N}x${N}x3xf32>
  $tail
}
MLIR
}
bench_machine
ms() { kfuse_ms "$1" 2 10 --fusion="$2"; } # FILE FUSION
printf '%-9s %6s %6s %9s %9s %9s %10s %10s\n' op N round "one ms" "sums ms" "three ms" "sums/one" "three/one"
for op in farthest softmax; do
  for N in 1024 4096; do
    program "$op" "$N"
    for round in 1 2 3; do
      one=$(ms "$tmp/${op}_${N}.mlir" on)
      sums=$(ms "$tmp/${op}_${N}.mlir" small-reduction=false)
      three=$(ms "$tmp/${op}_${N}.mlir" reduction-prologue=false)
      printf '%-9s %6s %6s %9s %9s %9s %10.2f %10.2f\n' "$op" "$N" "$round" "$one" "$sums" "$three" \
        "$(/usr/bin/python3 -c "print($sums / $one)")" "$(/usr/bin/python3 -c "print($three / $one)")"
    done
  done
done
