#!/usr/bin/env bash
# kfuse's main job on an example (default: the article's add_relu): set up,
# build, then show the program and what it lowers to. The linalg IR has one
# linalg op per kernel that eager PyTorch launches.
#   bash scripts/run.sh [examples/NAME.mlir]
set -euo pipefail
cd "$(dirname "$0")/.."
example="${1:-examples/add_relu.mlir}"
bash scripts/build.sh >/dev/null
echo "== $example (kf) =="
build/bin/kfuse-opt "$example"
echo
echo "== $example lowered: kfuse-opt --kf-to-linalg =="
build/bin/kfuse-opt "$example" --kf-to-linalg
kernels=$(build/bin/kfuse-opt "$example" --kf-to-linalg |
          grep -c -E 'linalg\.(generic|matmul|transpose)' || true)
echo
echo "eager kernels (linalg ops other than accumulator fills): $kernels"
