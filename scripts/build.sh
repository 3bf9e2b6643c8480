#!/usr/bin/env bash
# Sets up (scripts/setup.sh), configures and builds kfuse into build/.
# Two jobs: the machines this runs on have two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++
fi
# The tools, and everything `cmake --install` copies (test/Install installs
# this build): the libraries and generated headers are built for the tools,
# and named here so that the install stays complete if a tool stops using one.
ninja -C build -j "${KFUSE_JOBS:-2}" kfuse-opt kfuse-compile kfuse-run kfuse_fake_cuda \
  KfDialect KfusePasses kfuse_runtime KfDialectDocGen KfusePassesDocGen
