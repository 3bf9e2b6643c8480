#!/usr/bin/env bash
# On a machine with a CUDA GPU and no MLIR (about 6 minutes on an H100;
# --budget-s, --sweep-s and --total-s of bench/gpu_bench.py set the shares):
#  - every example on the GPU (CUDA graphs on) against the CPU results
#    bench/pack.sh computed;
#  - the benchmark (bench/gpu_bench.py): softmax 1024x1024, 4096x4096 and
#    8192x32768; layer_norm 4096x4096 and 32768x1024; matmul f16, bf16 and
#    f32 at 1024 to 8192 (against torch.matmul, i.e. cuBLAS, TF32 off); the
#    transpose x.t().contiguous() at 4096 and 8192; add_relu at 1e6, 1e7 and
#    1e8 against a device-to-device copy. Each row: kfuse with CUDA-graph
#    replay on and off, torch eager and torch.compile (not for the lone
#    matmuls: cuBLAS either way), interleaved in one process, results
#    checked against torch first; GB/s against the measured copy
#    bandwidth, TFLOP/s against the H200's dense peaks;
#  - the model rows: bench/models.py's GPT-2 block (B8 T512 D768) and Llama
#    MLP (4096 rows, 2048 -> 5632), f32, imported by kfuse-import at pack
#    time, against the module itself (eager and torch.compile);
#  - the matmul tile sweep (pack.sh's KFUSE_MATMUL_TILES): f16 and bf16 at
#    2048, 4096 and 8192 and f32 at 4096 for each SPEC, kfuse graph-on
#    against cuBLAS, checked; the table ends with each size's best SPEC. A
#    sweep row that fails is recorded and does not fail the run;
#  - the 200 packed random programs, fused on the GPU against unfused on
#    the CPU (kfuse-run --check), with what is left of the time (those not
#    run are counted as such).
# The rows run in worker processes: a row whose CUDA error stops the
# runtime (or poisons the context) is recorded and the next rows go on in
# a fresh one.
#   bash bench/pack.sh                      # on the development machine
#   bash bench/gpu-check.sh [BUNDLE] [OUT] [gpu_bench.py options]  # on the GPU machine
# BUNDLE defaults to build/gpu-bundle; results go to OUT (default $OUT or
# BUNDLE/results): gpu-check.json, gpu-check.md, workers.log, fuzz.log,
# traces, outputs. PyTorch is optional (without it: inputs from numpy,
# kfuse timed alone, the model rows unchecked). Exit status 1: a wrong
# example, a wrong or crashed standard or model row, a failed random program.
set -uo pipefail
bundle="${1:-build/gpu-bundle}"
out="${2:-${OUT:-$bundle/results}}"
[ -f "$bundle/gpu_bench.py" ] || { echo "gpu-check: no bundle at $bundle (run bench/pack.sh)"; exit 1; }
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null \
  | sed 's/^/gpu: /' || echo "gpu: nvidia-smi not found"
exec python3 "$bundle/gpu_bench.py" --bundle "$bundle" --out "$out" "${@:3}"
