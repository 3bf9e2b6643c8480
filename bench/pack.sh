#!/usr/bin/env bash
# Builds what bench/gpu-check.sh needs on a GPU machine that has no MLIR:
# kfuse-run and the runtime, every example compiled with --emit=lib and its
# results computed here on the CPU (inputs come from a seed, so the GPU run
# draws the same ones), the benchmark's programs (bench/gpu/*.mlir filled in
# at the benchmark's sizes by gpu_bench.py --build, one library a family),
# the model rows (bench/models.py's GPT-2 block and Llama MLP through
# kfuse-import, with the Python of scripts/setup.sh's venv or
# KFUSE_TORCH_PYTHON: skipped with a note where none has PyTorch; models.py
# travels too, the reference on the GPU), the matmul tile sweep (a library
# a SPEC of KFUSE_MATMUL_TILES, comma-separated, kfuse-compile
# --matmul-tiles; the entry sm_90a builds the same matmuls for sm_90a, the
# wgmma kernel; empty: no sweep; skipped with a note where kfuse-compile
# lacks the option) and 100 random programs for the differential check.
# Writes build/gpu-bundle/ (about 45 MiB; the device tool carries at most
# 64 MiB: past 55, random programs are left out). The GPU code is for
# KFUSE_GPU_CHIP (default sm_90, the H100 and H200 the device tool lends):
# the tensor-core matmul needs sm_80 or later, and kfuse's default chip,
# sm_75, would benchmark the SIMT kernel instead.
#   bash bench/pack.sh
set -euo pipefail
chip="${KFUSE_GPU_CHIP:-sm_90}"
tiles="${KFUSE_MATMUL_TILES-64x64x32/2x2/2,128x64x32/2x2/4/8,128x128x32/2x2/3/8,128x128x32/2x2/4/8,128x128x64/2x2/3/8,128x128x32/2x4/4/8,128x256x32/2x4/3/8,256x128x32/4x2/3/8,128x256x64/2x4/3/8,sm_90a}"
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
out=build/gpu-bundle
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/programs" "$out/ref"
cp build/bin/kfuse-run "$out/bin/"
cp build/lib/libkfuse_runtime.so "$out/lib/"
cp bench/gpu-check.sh bench/gpu_bench.py bench/models.py test/harness/kf_fuzz.py \
  test/harness/kf_gen.py "$out/"
mkdir -p "$out/gpubench"
cp bench/gpubench/*.py "$out/gpubench/"
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
# add_relu (gpu_bench.py's rows("full")), the two model rows, and the
# matmul sweep's libraries (f16 and bf16 at 2048, 4096 and 8192, f16 at
# 1024, a library a SPEC); "$out/bench/build.json" says what was built.
/usr/bin/python3 bench/gpu_bench.py --build --sizes full --kfuse-compile build/bin/kfuse-compile \
  --programs "$out/bench" --compile-arg=--host-cpu=x86-64-v3 --compile-arg=--gpu-chip="$chip" \
  --matmul-tiles "$tiles"
# KFUSE_FUZZ_COUNT (default 100) random programs (kf_fuzz.py, seed 11), a
# library each and its float64 reference, for the differential check on the
# GPU (fused on the GPU against unfused on the CPU): about 0.36 MB each
# (200 would not travel), and the GPU run has time for about 100.
/usr/bin/python3 test/harness/kf_fuzz.py --kfuse-opt build/bin/kfuse-opt \
  --kfuse-compile build/bin/kfuse-compile --pack "$out/fuzz" --seed 11 \
  --count "${KFUSE_FUZZ_COUNT:-100}"
# The device tool carries at most 64 MiB: over KFUSE_BUNDLE_MIB (default
# 55), the last random programs make way.
/usr/bin/python3 - "$out" "${KFUSE_BUNDLE_MIB:-55}" <<'PY'
import os
import sys
out, limit = sys.argv[1], float(sys.argv[2]) * (1 << 20)
def size():
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
listing = os.path.join(out, "fuzz", "programs.txt")
lines = open(listing).read().split("\n")
head, programs = lines[0], [x for x in lines[1:] if x.strip()]
dropped = 0
while size() > limit and programs:
    name = programs.pop().split()[0]
    for suffix in (".so", ".reference.so", ".mlir"):
        path = os.path.join(out, "fuzz", name + suffix)
        if os.path.exists(path):
            os.remove(path)
    dropped += 1
with open(listing, "w") as f:
    f.write(head + "\n" + "\n".join(programs) + "\n")
if dropped:
    print(f"pack: {dropped} random programs left out: the bundle was over {sys.argv[2]} MiB")
print(f"pack: {len(programs)} random programs, {size() / (1 << 20):.1f} MiB in all")
PY
du -sh "$out"
