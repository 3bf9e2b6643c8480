#!/usr/bin/env bash
# Steady-state CPU time (kfuse-run, the host runtime) of a shared value
# read broadcast both ways or transposed beside a read in place, fused
# into its reader's kernel or not, side by side in each round:
#   outer_mul: tanh((x * x)[:, None] * (x * x)[None, :]), one kernel (x * x
#              copied into the product) against --fusion=pointwise=false;
#   outer_exp: the same with exp(x): its own kernel (math functions are not
#              copied), against pointwise=false;
#   transposed: tanh(x).t() * (-v)[:, None] - v + tanh(x), one kernel (tanh
#              recomputed for both reads) against --fusion=recompute=false.
# A benchmark, not a test.
#   bash bench/shared-subexpressions.sh [BIN_DIR]      # default: build/bin
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. bench/cpu-ms.sh
program() { # OP N: the program with static shapes, in $tmp/OP_N.mlir
  local op=$1 N=$2
  case $op in
    outer_mul|outer_exp)
      local y="%y = kf.mul %x, %x : tensor<${N}xf32>, tensor<${N}xf32>"
      [ "$op" = outer_exp ] && y="%y = kf.exp %x : tensor<${N}xf32>"
      cat > "$tmp/${op}_${N}.mlir" <<MLIR
func.func @main(%x: tensor<${N}xf32>) -> tensor<${N}x${N}xf32> {
  $y
  %a = kf.reshape %y [${N}, 1] : tensor<${N}xf32>
  %b = kf.reshape %y [1, ${N}] : tensor<${N}xf32>
  %s = kf.mul %a, %b : tensor<${N}x1xf32>, tensor<1x${N}xf32>
  %e = kf.tanh %s : tensor<${N}x${N}xf32>
  return %e : tensor<${N}x${N}xf32>
}
MLIR
      ;;
    transposed)
      cat > "$tmp/${op}_${N}.mlir" <<MLIR
func.func @main(%x: tensor<${N}x${N}xf32>, %v: tensor<${N}xf32>) -> tensor<${N}x${N}xf32> {
  %y = kf.tanh %x : tensor<${N}x${N}xf32>
  %t = kf.transpose %y [1, 0] : tensor<${N}x${N}xf32>
  %w = kf.neg %v : tensor<${N}xf32>
  %a = kf.reshape %w [${N}, 1] : tensor<${N}xf32>
  %s = kf.mul %t, %a : tensor<${N}x${N}xf32>, tensor<${N}x1xf32>
  %r = kf.add %s, %w : tensor<${N}x${N}xf32>, tensor<${N}xf32>
  %q = kf.add %r, %y : tensor<${N}x${N}xf32>, tensor<${N}x${N}xf32>
  return %q : tensor<${N}x${N}xf32>
}
MLIR
      ;;
  esac
}
bench_machine
ms() { kfuse_ms "$1" 2 10 --fusion="$2"; } # FILE FUSION
printf '%-11s %6s %6s %9s %9s %10s\n' op N round "fused ms" "off ms" "off/fused"
for op in outer_mul outer_exp transposed; do
  off=pointwise=false
  [ "$op" = transposed ] && off=recompute=false
  for N in 1024 4096; do
    program "$op" "$N"
    for round in 1 2 3; do
      on=$(ms "$tmp/${op}_${N}.mlir" on)
      other=$(ms "$tmp/${op}_${N}.mlir" "$off")
      printf '%-11s %6s %6s %9s %9s %10.2f\n' "$op" "$N" "$round" "$on" "$other" \
        "$(/usr/bin/python3 -c "print($other / $on)")"
    done
  done
done
