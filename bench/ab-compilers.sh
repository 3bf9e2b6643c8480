#!/usr/bin/env bash
# The same programs compiled by two kfuse-compile builds (A and B, e.g. the
# last commit's and the work tree's), run by one kfuse-run on the CPU,
# interleaved A B A B ... ROUNDS times, so that both see the same machine.
# Prints each program's median steady-state time per call and B / A.
#   bash bench/ab-compilers.sh A/kfuse-compile B/kfuse-compile [ROUNDS] [PROGRAM.mlir ...]
# (default: examples/add_relu.mlir and a chain of relus over 1e6 floats)
set -euo pipefail
cd "$(dirname "$0")/.."
a="$1"; b="$2"; rounds="${3:-7}"; shift 3 || shift $#
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
programs=("$@")
if [ ${#programs[@]} -eq 0 ]; then
  python3 - "$work/relu8.mlir" <<'PY'
import sys
t = "tensor<1000000xf32>"
body = [f"  %v{i} = kf.relu %v{i - 1} : {t}" for i in range(1, 9)]
open(sys.argv[1], "w").write("\n".join(
    [f"func.func @relu8(%v0: {t}) -> {t} {{"] + body + [f"  return %v8 : {t}", "}"]) + "\n")
PY
  programs=(examples/add_relu.mlir "$work/relu8.mlir")
fi
run=build/bin/kfuse-run
echo "A: $a"; echo "B: $b"; echo "$(nproc) cores, $rounds rounds, $(date -u +%Y-%m-%d)"
printf '%-28s %12s %12s %8s\n' program "A ms/call" "B ms/call" "B / A"
for p in "${programs[@]}"; do
  name="$(basename "$p" .mlir)"
  "$a" "$p" --emit=lib -o "$work/$name.A.so"
  "$b" "$p" --emit=lib -o "$work/$name.B.so"
  for i in $(seq "$rounds"); do
    for side in A B; do
      "$run" "$work/$name.$side.so" --device=cpu --warmup=3 --repeat=20 --format=json 2>/dev/null \
        | python3 -c "import json,sys; print(json.load(sys.stdin)['steady']['ms_per_call'])" \
        >> "$work/$name.$side.times"
    done
  done
  python3 - "$name" "$work/$name.A.times" "$work/$name.B.times" <<'PY'
import statistics, sys
a = statistics.median(float(x) for x in open(sys.argv[2]))
b = statistics.median(float(x) for x in open(sys.argv[3]))
print(f"{sys.argv[1]:<28} {a:12.3f} {b:12.3f} {b / a:8.2f}")
PY
done
