#!/usr/bin/env bash
# kfuse's main job on an example (default: the article's add_relu): set up,
# build, then run it with kfuse-run (kernel summary eager vs fused, first
# call and steady state, profiler table, check against the unfused program
# on the CPU), then the kernel report with the reason for every boundary,
# and the fused kernels as IR.
#   bash scripts/run.sh [examples/NAME.mlir] [kfuse-run options, e.g. --fusion=off]
set -euo pipefail
cd "$(dirname "$0")/.."
example="${1:-examples/add_relu.mlir}"
shift || true
# The build's own progress (ninja's [n/N] lines; a first build takes
# minutes) goes to stderr, so that stdout holds the report alone.
echo "== building: scripts/build.sh ==" >&2
bash scripts/build.sh >&2
echo "== build/bin/kfuse-run $example --check $* =="
extra=()
# The MLP's batch is dynamic: give it one.
if grep -q "tensor<?x" "$example"; then extra=(--dim d0=64); fi
build/bin/kfuse-run "$example" --check "${extra[@]}" "$@"
echo
echo "== kernel report: kfuse-opt $example --kf-kernel-report =="
build/bin/kfuse-opt "$example" --kf-kernel-report -o /dev/null
echo
echo "== fused kernels: kfuse-opt $example --kf-to-linalg --kf-form-kernels =="
build/bin/kfuse-opt "$example" --kf-to-linalg --kf-form-kernels
