#!/usr/bin/env bash
# kfuse's main job on an example (default: the article's add_relu): set up,
# build, then show the program, its kernels and memory traffic eager and
# fused with the reason for every boundary, and the fused kernels as IR.
#   bash scripts/run.sh [examples/NAME.mlir] [report options, e.g. fusion=none]
set -euo pipefail
cd "$(dirname "$0")/.."
example="${1:-examples/add_relu.mlir}"
options="${2:-}"
bash scripts/build.sh >/dev/null
echo "== $example =="
build/bin/kfuse-opt "$example"
echo
echo "== kernel report: kfuse-opt $example --kf-kernel-report${options:+=$options} =="
build/bin/kfuse-opt "$example" "--kf-kernel-report${options:+=$options}" -o /dev/null
echo
echo "== fused kernels: kfuse-opt $example --kf-to-linalg --kf-form-kernels =="
build/bin/kfuse-opt "$example" --kf-to-linalg --kf-form-kernels
