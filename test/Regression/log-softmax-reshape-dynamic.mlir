// Issue 13, item 1: -log_softmax(x, dim).view(-1) (the NLL-loss pattern)
// over dynamic dims. Kernel formation fused the negation, which runs over
// the d0 * d1 elements of the reshaped rows, into the row kernel; with
// dynamic sizes the row mapping took its one loop of `?` elements for the
// d0 rows, so one element a row was computed and the rest of the output
// was never written (7e22, 1e-43, 0). A pointwise op now joins a reduction's
// kernel only over the reduction's rows x columns or over its rows.

// RUN: kfuse-opt %s --split-input-file --kf-kernel-report -o /dev/null | FileCheck %s
// CHECK-LABEL: function @nll_rows
// CHECK: kernels 7 2
// CHECK: row-mismatch
// CHECK-LABEL: function @nll_cols
// CHECK: row-mismatch

// The numbers, against numpy, through the runtime (the GPU kernels run on
// the host), for d0 from 2 to 5 and both dims:
// RUN: %run-check %s --entry nll_rows --input "arg0=f32[4x3]" --expect "-(arg0 - arg0.max(1, keepdims=True) - np.log(np.exp(arg0 - arg0.max(1, keepdims=True)).sum(1, keepdims=True))).reshape(-1)" -- --device=cpu --repeat=0 --check | FileCheck %s --check-prefix=NUMBERS
// RUN: %run-check %s --entry nll_rows --input "arg0=f32[2x7]" --expect "-(arg0 - arg0.max(1, keepdims=True) - np.log(np.exp(arg0 - arg0.max(1, keepdims=True)).sum(1, keepdims=True))).reshape(-1)" -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMBERS
// RUN: %run-check %s --entry nll_cols --input "arg0=f32[5x3]" --expect "-(arg0 - arg0.max(0, keepdims=True) - np.log(np.exp(arg0 - arg0.max(0, keepdims=True)).sum(0, keepdims=True))).reshape(-1)" -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMBERS
// RUN: %run-check %s --entry nll_rows --input "arg0=f32[4x3]" --expect "-(arg0 - arg0.max(1, keepdims=True) - np.log(np.exp(arg0 - arg0.max(1, keepdims=True)).sum(1, keepdims=True))).reshape(-1)" -- --device=cpu --repeat=0 --fusion=off | FileCheck %s --check-prefix=NUMBERS
// RUN: %fusion-diff %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-pipeline %s
// NUMBERS: run_check: result0 {{.*}} matches numpy

// DIMS @nll_rows: 4 3
func.func @nll_rows(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %l = kf.log_softmax %x dim 1 : tensor<?x?xf32>
  %r = kf.reshape %l [-1] : tensor<?x?xf32>
  %n = kf.neg %r : tensor<?xf32>
  return %n : tensor<?xf32>
}

// DIMS @nll_cols: 5 3
func.func @nll_cols(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %l = kf.log_softmax %x dim 0 : tensor<?x?xf32>
  %r = kf.reshape %l [-1] : tensor<?x?xf32>
  %n = kf.neg %r : tensor<?xf32>
  return %n : tensor<?xf32>
}
