// A row reduction's values read by an elementwise op at a permuted place
// (issue 26: "x.sum(1) then a permuted pointwise op"): each of the op's
// elements reads one row's value, and each row is read once, so the block
// that owns the row computes that element. kf-form-kernels fuses the op
// as the reduction's epilogue and makes it iterate in the rows' order
// (linalg::interchangeGenericOp): it reads its row's value in place and
// writes its result through the permutation.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s --kf-kernel-report=reduction-epilogue=false -o /dev/null | FileCheck %s --check-prefix=OFF
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels | FileCheck %s --check-prefix=IR
// Results: CPU and emulated GPU (blocks in order and from the last)
// against the unfused run; the host runtime against numpy.
// RUN: %fusion-diff %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-reversed-pipeline %s
// RUN: %run-check %s --input "arg0=f32[4x8x16]" --expect "np.exp(arg0.sum(2).T)" \
// RUN:   -- --entry=sum_permuted --device=cpu --repeat=2 --check | FileCheck %s --check-prefix=HOST
// HOST: check against the CPU, unfused: {{.*}}: ok
// HOST: run_check: result0 float32[8, 4] matches numpy
// RUN: %run-check %s --input "arg0=f32[2x3x4x5]" --expect "np.tanh(arg0.max(3).transpose(2, 0, 1))" \
// RUN:   -- --entry=three_row_dims --device=cpu --repeat=2 | FileCheck %s --check-prefix=HOST3
// HOST3: run_check: result0 float32[4, 2, 3] matches numpy

// x [4, 8, 16] summed over its last dim: rows [4, 8]; exp of the sums
// transposed, [8, 4]. Eager: sum (512 in, 32 out), exp (32, 32): 608
// elements in 4 transfers; fused: 512 + 32 in 2.
// CHECK-LABEL: function @sum_permuted
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
// CHECK-NEXT: elements 608 544
// CHECK: reduction_sum_exp_{{[0-9]+}} (reduction): ops sum, exp
// CHECK: runs as row
// CHECK: boundaries: none
// OFF-LABEL: function @sum_permuted
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 2 2
// The exp iterates over the rows in order, reads the sum in place and
// writes [j, i]:
// IR-LABEL: func.func @sum_permuted
// IR: kf.kernel "reduction_sum_exp_{{[0-9]+}}" kind reduction
// IR: %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// IR: linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[T:map[0-9]*]]], iterator_types = ["parallel", "parallel"]} ins(%[[S]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// IR: math.exp
func.func @sum_permuted(%x: tensor<4x8x16xf32>) -> tensor<8x4xf32> {
  %a = kf.sum %x dims [2] : tensor<4x8x16xf32>
  %t = kf.transpose %a [1, 0] : tensor<4x8xf32>
  %e = kf.exp %t : tensor<8x4xf32>
  return %e : tensor<8x4xf32>
}

// Square rows [8, 8]: the read [j, i] is still each row's own value once
// (not `s + s.t()`, below). One kernel.
// CHECK-LABEL: function @sum_permuted_square
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
func.func @sum_permuted_square(%x: tensor<8x8x16xf32>) -> tensor<8x8xf32> {
  %a = kf.sum %x dims [2] : tensor<8x8x16xf32>
  %t = kf.transpose %a [1, 0] : tensor<8x8xf32>
  %e = kf.exp %t : tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}

// Three row dims permuted [2, 0, 1]. One kernel.
// CHECK-LABEL: function @three_row_dims
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
func.func @three_row_dims(%x: tensor<2x3x4x5xf32>) -> tensor<4x2x3xf32> {
  %a = kf.max %x dims [3] : tensor<2x3x4x5xf32>
  %t = kf.transpose %a [2, 0, 1] : tensor<2x3x4xf32>
  %e = kf.tanh %t : tensor<4x2x3xf32>
  return %e : tensor<4x2x3xf32>
}

// Not one kernel: s + s.t() reads row [i, j]'s value and row [j, i]'s at
// the same element: one block owns one row (other-row). The transpose is
// read in place by the add (eager: 2 kernels).
// CHECK-LABEL: function @own_and_permuted
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
// CHECK: other-row
func.func @own_and_permuted(%x: tensor<8x8x16xf32>) -> tensor<8x8xf32> {
  %a = kf.sum %x dims [2] : tensor<8x8x16xf32>
  %t = kf.transpose %a [1, 0] : tensor<8x8xf32>
  %e = kf.add %a, %t : tensor<8x8xf32>, tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}
