#!/usr/bin/env bash
# How kfuse-compile's time and memory grow with program length: for each N,
# a generated program of N ops through `kfuse-compile --emit=ptx` and
# `--emit=lib` (four variants: GPU and host, fused and eager), and the
# first `kfuse-run` of it (--device=cpu, no cache: what a user waits for;
# it builds only the version it runs, the host's fused one). Prints, for
# each, the wall seconds,
# the CPU seconds (user + system: on a shared machine the wall clock
# includes waiting) with CPU seconds per 1,000 ops (flat when the growth is
# linear), and the peak resident memory. A benchmark, not a test.
#   bash bench/compile-scaling.sh [--mixed] [N ...]   # default: 250 500 1000 2000
# The programs: a chain of N relus over tensor<1024xf32> (relu_chain.py:
# one fused kernel, N eager ones), or with --mixed a chain of N softmax,
# layer_norm, tanh, add and mul over tensor<32x64xf32>, each reading the
# previous result, add and mul an earlier one too (mixed_chain.py: one
# fused row kernel, about 3.4 N eager kernels). KFUSE_BIN=DIR picks the
# build; each compilation is stopped after KFUSE_TIMEOUT seconds (default
# 900) and shown as "timeout".
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${KFUSE_BIN:-build/bin}
limit=${KFUSE_TIMEOUT:-900}
generator=bench/relu_chain.py
if [ "${1:-}" = "--mixed" ]; then
  generator=bench/mixed_chain.py
  shift
fi
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(250 500 1000 2000)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure N ARGS...: runs kfuse-compile ARGS under the time limit; prints
# "wall cpu cpu-per-1k-ops peak-MB", or "timeout - - -" ("failed - - -",
# the error shown). The limit is inside the measurement, so that the CPU
# time and the peak memory are kfuse-compile's own.
measure() {
  local n=$1 status=0 tool=kfuse-compile
  shift
  if [ "$1" = --run ]; then
    tool=kfuse-run
    shift
  fi
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" \
    timeout "$limit" "$bin/$tool" "$@" >/dev/null 2>"$tmp/err" || status=$?
  if [ "$status" = 124 ]; then
    echo "timeout - - -"
    return
  elif [ "$status" != 0 ]; then
    echo "failed - - -"
    sed 's/^/  /' "$tmp/err" >&2
    return
  fi
  read -r wall user sys rss < <(tail -1 "$tmp/time")
  python3 -c "c = $user + $sys; print(f'{$wall:.1f} {c:.1f} {c * 1000 / $n:.1f} {$rss / 1024:.0f}')"
}

printf "%7s | %30s | %30s | %30s\n" "" "--emit=ptx" "--emit=lib" "first kfuse-run (--device=cpu)"
printf "%7s | %6s %7s %8s %6s | %6s %7s %8s %6s | %6s %7s %8s %6s\n" "ops" \
  "wall s" "cpu s" "cpu/1k" "MB" "wall s" "cpu s" "cpu/1k" "MB" "wall s" "cpu s" "cpu/1k" "MB"
for n in "${sizes[@]}"; do
  python3 "$generator" "$n" > "$tmp/program.mlir"
  read -r pw pc pk pm < <(measure "$n" "$tmp/program.mlir" --emit=ptx -o "$tmp/out.ptx")
  read -r lw lc lk lm < <(measure "$n" "$tmp/program.mlir" --emit=lib -o "$tmp/out.so")
  read -r rw rc rk rm < <(measure "$n" --run "$tmp/program.mlir" --device=cpu --no-cache \
    --warmup=0 --repeat=0)
  printf "%7s | %6s %7s %8s %6s | %6s %7s %8s %6s | %6s %7s %8s %6s\n" "$n" "$pw" "$pc" "$pk" \
    "$pm" "$lw" "$lc" "$lk" "$lm" "$rw" "$rc" "$rk" "$rm"
done
