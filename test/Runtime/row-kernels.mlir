// The reduction kernels of test/GPU/row-kernels.mlir run on the CPU through
// kfuse-run (the host runtime runs a row a block, on every core), checked
// against numpy and against the unfused program.
// RUN: %run-check %S/../GPU/row-kernels.mlir --input "arg0=f32[4x8]" \
// RUN:   --expect "softmax(arg0)" -- --entry=softmax_rows --device=cpu --repeat=1 --check \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX: kernels {{ *}}5 {{ *}}1
// SOFTMAX: check against the CPU, unfused: {{.*}}: ok
// SOFTMAX: run_check: result0 float32[4, 8] matches numpy
// RUN: %run-check %S/../GPU/row-kernels.mlir --input "arg0=f32[64x16]" \
// RUN:   --expect "arg0.sum(0)" -- --entry=sum_dim0 --device=cpu --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=DIM0
// DIM0: run_check: result0 float32[16] matches numpy
// RUN: %run-check %S/../GPU/row-kernels.mlir --input "arg0=f32[37x512]" \
// RUN:   --expect "(arg0 - arg0.mean(-1, keepdims=True)) / np.sqrt(arg0.var(-1, keepdims=True) + 1e-5)" \
// RUN:   -- --entry=layer_norm_rows --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=LN
// LN: check against the CPU, unfused: {{.*}}: ok
// LN: run_check: result0 float32[37, 512] matches numpy
// RUN: %run-check %S/../GPU/row-kernels.mlir --input "arg0=f32[1000]" \
// RUN:   --expect "arg0.sum(dtype=np.float64).astype(np.float32)" -- --entry=full_sum --device=cpu --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=FULL
// FULL: run_check: result0 float32[] matches numpy
// RUN: %run-check %S/../GPU/row-kernels.mlir --input "arg0=i32[8x100]" \
// RUN:   --expect "arg0.max(1, keepdims=True)" -- --entry=max_keepdim --device=cpu --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=MAX
// MAX: run_check: result0 int32[8, 1] matches numpy
// Rows of at most 64 four at a time, and a block's last three alone:
// RUN: %run-check %S/Inputs/short-rows.mlir --input "arg0=f32[23x40]" \
// RUN:   --expect "softmax(arg0)" -- --entry=softmax40 --device=cpu --repeat=1 --check \
// RUN:   | FileCheck %s --check-prefix=SHORT
// RUN: %run-check %S/Inputs/short-rows.mlir --input "arg0=f32[29x64]" --input "arg1=f32[64]" --input "arg2=f32[64]" \
// RUN:   --expect "(arg0 - arg0.mean(-1, keepdims=True)) / np.sqrt(arg0.var(-1, keepdims=True) + 1e-5) * arg1 + arg2" \
// RUN:   -- --entry=layer_norm64 --device=cpu --repeat=1 --check | FileCheck %s --check-prefix=SHORT
// SHORT: check against the CPU, unfused: {{.*}}: ok
// SHORT: run_check: result0 float32[{{.*}}] matches numpy
func.func private @none()
//
// No rows, and rows of no columns (the sum of nothing is 0, the max of
// nothing -inf as numpy's initial value gives).
// RUN: %run-check %S/Inputs/row-sum-dynamic.mlir --input "arg0=f32[0x5]" --expect "arg0.sum(1)" \
// RUN:   -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=NOROWS
// NOROWS: run_check: result0 float32[0] matches numpy
// RUN: %run-check %S/Inputs/row-sum-dynamic.mlir --input "arg0=f32[3x0]" --expect "arg0.sum(1)" \
// RUN:   -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=NOCOLS
// NOCOLS: run_check: result0 float32[3] matches numpy
