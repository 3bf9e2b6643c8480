// Sibling fusion (issue 12, item 2): ops that read the same tensor over
// the same iteration space, with no path between them, share one kernel
// that reads the tensor once and writes each result. `sibling=false`
// keeps them apart. CSE first (item 5): equal ops are computed once.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s --kf-kernel-report=sibling=false -o /dev/null | FileCheck %s --check-prefix=OFF
// RUN: %fusion-diff %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s

// sin(x) and cos(x): eager 2 + 2; fused reads x once, writes both
// (4096 * 3 elements).
// CHECK-LABEL: function @sin_cos
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 3
// CHECK-NEXT: elements 16384 12288
// CHECK: pointwise_sin_cos_{{[0-9]+}} (pointwise): ops sin, cos
// CHECK-NEXT: reads arg0 64x64xf32
// OFF-LABEL: function @sin_cos
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 2 2
func.func @sin_cos(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = kf.sin %x : tensor<64x64xf32>
  %b = kf.cos %x : tensor<64x64xf32>
  return %a, %b : tensor<64x64xf32>, tensor<64x64xf32>
}

// Three readers of x (one also reads y): eager 2 + 3 + 2; fused reads x
// and y once each, writes three results.
// CHECK-LABEL: function @three_readers
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 7 5
// CHECK: pointwise_sin_add_cos_{{[0-9]+}} (pointwise): ops sin, add, cos
func.func @three_readers(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = kf.sin %x : tensor<64x64xf32>
  %b = kf.add %x, %y : tensor<64x64xf32>, tensor<64x64xf32>
  %c = kf.cos %x : tensor<64x64xf32>
  return %a, %b, %c : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// Two reductions of x over the same rows: one row kernel. Eager
// (2048 + 64) * 2 elements; fused 2048 + 64 + 64.
// CHECK-LABEL: function @sum_max_rows
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 3
// CHECK-NEXT: elements 4224 2176
// CHECK: reduction_sum_max_{{[0-9]+}} (reduction): ops sum, max
// OFF-LABEL: function @sum_max_rows
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 2 2
func.func @sum_max_rows(%x: tensor<64x32xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %a = kf.sum %x dims [1] : tensor<64x32xf32>
  %b = kf.max %x dims [1] : tensor<64x32xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// Reductions over different dims are not one iteration space (a block per
// row of one is no block per row of the other): 2 kernels as siblings;
// the multi-reduction rule then makes them one (multi-reduction.mlir).
// CHECK-LABEL: function @sum_two_dims
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK: runs as multi_reduction
// OFF-LABEL: function @sum_two_dims
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 2 1
func.func @sum_two_dims(%x: tensor<64x32xf32>) -> (tensor<32xf32>, tensor<64xf32>) {
  %a = kf.sum %x dims [0] : tensor<64x32xf32>
  %b = kf.sum %x dims [1] : tensor<64x32xf32>
  return %a, %b : tensor<32xf32>, tensor<64xf32>
}

// A row sum of x and exp(x) over its rows x columns (issue 26: "a
// reduction next to a pointwise op of the same input"): the row kernel's
// block owns the row exp runs over, so one kernel reads x once. Eager
// (2048 + 64) + (2048 + 2048); fused 2048 + 64 + 2048.
// CHECK-LABEL: function @row_sum_and_exp
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 3
// CHECK-NEXT: elements 6208 4160
// CHECK: reduction_sum_exp_{{[0-9]+}} (reduction): ops sum, exp
// CHECK: runs as row
// OFF-LABEL: function @row_sum_and_exp
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 2 2
func.func @row_sum_and_exp(%x: tensor<64x32xf32>) -> (tensor<64xf32>, tensor<64x32xf32>) {
  %a = kf.sum %x dims [1] : tensor<64x32xf32>
  %b = kf.exp %x : tensor<64x32xf32>
  return %a, %b : tensor<64xf32>, tensor<64x32xf32>
}

// softmax(x) and relu(x): relu joins softmax's row kernel. Eager: max
// (2048 + 64), sub (2048 + 64 + 2048), exp (2048 + 2048), sum (2048 + 64),
// div (2048 + 64 + 2048), relu (2048 + 2048) = 20736 in 14 transfers;
// fused 2048 + 2 x 2048.
// CHECK-LABEL: function @softmax_and_relu
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 6 1
// CHECK-NEXT: transfers 14 3
// CHECK-NEXT: elements 20736 6144
// OFF-LABEL: function @softmax_and_relu
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 6 2
func.func @softmax_and_relu(%x: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %a = kf.softmax %x dim 1 : tensor<64x32xf32>
  %b = kf.relu %x : tensor<64x32xf32>
  return %a, %b : tensor<64x32xf32>, tensor<64x32xf32>
}

// A column sum (over the leading dim) and exp(x): its kernel's blocks own
// columns, and exp's results would be written down the columns: kept
// apart (2 kernels).
// CHECK-LABEL: function @col_sum_and_exp
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
func.func @col_sum_and_exp(%x: tensor<64x32xf32>) -> (tensor<32xf32>, tensor<64x32xf32>) {
  %a = kf.sum %x dims [0] : tensor<64x32xf32>
  %b = kf.exp %x : tensor<64x32xf32>
  return %a, %b : tensor<32xf32>, tensor<64x32xf32>
}

// exp(x) over 64x32 and -x.t() over 32x64: different result shapes, so
// the flat mapping could not run them element by element: 2 kernels.
// CHECK-LABEL: function @different_shapes
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
func.func @different_shapes(%x: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<32x64xf32>) {
  %a = kf.exp %x : tensor<64x32xf32>
  %t = kf.transpose %x [1, 0] : tensor<64x32xf32>
  %b = kf.neg %t : tensor<32x64xf32>
  return %a, %b : tensor<64x32xf32>, tensor<32x64xf32>
}

// mm(cos(x), cos(x)): CSE leaves one cos, read twice by the matmul (a
// matmul reads its operands from memory). Eager cos 2 + cos 2 + matmul 3;
// fused cos 2 + matmul 2 (reads c once, writes the product).
// CHECK-LABEL: function @mm_cos
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 2
// CHECK-NEXT: transfers 7 4
// CHECK: pointwise_cos_{{[0-9]+}} (pointwise): ops cos
// CHECK-NEXT: reads arg0 64x64xf32
// CHECK: matmul_{{[0-9]+}} (matmul): ops matmul
func.func @mm_cos(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = kf.cos %x : tensor<64x64xf32>
  %b = kf.cos %x : tensor<64x64xf32>
  %c = kf.matmul %a, %b : tensor<64x64xf32>, tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
