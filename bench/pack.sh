#!/usr/bin/env bash
# Builds what bench/gpu-check.sh needs on a GPU machine that has no MLIR:
# kfuse-run and the runtime, every example compiled with --emit=lib and its
# results computed here on the CPU (inputs come from a seed, so the GPU run
# draws the same ones), the benchmark's programs (bench/gpu/*.mlir filled in
# at the benchmark's sizes by gpu_bench.py --build, one library a family),
# and 200 random programs for the differential check. Writes
# build/gpu-bundle/ (about 30 MB; the device tool carries at most 64 MiB).
# The GPU code is for KFUSE_GPU_CHIP (default sm_90, the H200 the device
# tool lends): the tensor-core matmul needs sm_80 or later, and kfuse's
# default chip, sm_75, would benchmark the SIMT kernel instead.
#   bash bench/pack.sh
set -euo pipefail
chip="${KFUSE_GPU_CHIP:-sm_90}"
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
out=build/gpu-bundle
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/programs" "$out/ref"
cp build/bin/kfuse-run "$out/bin/"
cp build/lib/libkfuse_runtime.so "$out/lib/"
cp bench/gpu-check.sh bench/gpu_bench.py test/harness/kf_fuzz.py test/harness/kf_gen.py "$out/"
# Portable host code: x86-64-v3 (AVX2) runs on every recent x86 server.
for src in examples/*.mlir; do
  name=$(basename "$src" .mlir)
  build/bin/kfuse-compile "$src" --emit=lib --host-cpu=x86-64-v3 --gpu-chip="$chip" \
    -o "$out/programs/$name.so"
done
for src in examples/*.mlir; do
  name=$(basename "$src" .mlir)
  dims=()
  if grep -q "tensor<?x" "$src"; then dims=(--dim d0=64); fi
  build/bin/kfuse-run "$out/programs/$name.so" --device=cpu --seed=1 "${dims[@]}" \
    --warmup=0 --repeat=0 --quiet --output "result0=$out/ref/$name.npy"
done
# The benchmark rows: softmax, layer_norm, matmul f16/bf16/f32, transpose,
# add_relu (gpu_bench.py's rows("full")).
/usr/bin/python3 bench/gpu_bench.py --build --sizes full --kfuse-compile build/bin/kfuse-compile \
  --programs "$out/bench" --compile-arg=--host-cpu=x86-64-v3 --compile-arg=--gpu-chip="$chip"
# 200 random programs (kf_fuzz.py, seed 11), a library each, for the
# differential check on the GPU (fused on the GPU against unfused on the CPU).
/usr/bin/python3 test/harness/kf_fuzz.py --kfuse-opt build/bin/kfuse-opt \
  --kfuse-compile build/bin/kfuse-compile --pack "$out/fuzz" --seed 11 --count 200
du -sh "$out"
