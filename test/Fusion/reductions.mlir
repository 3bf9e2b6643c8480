// Reductions with prologues and epilogues, softmax, layer_norm, and the
// boundaries a reduction makes.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: %fusion-diff %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline --rtol 1e-5 %s

// sum(exp(x)) is one kernel (prologue). Eager exp 2 + sum 2.
// CHECK-LABEL: function @sum_exp
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
// CHECK: reduction_exp_sum_{{[0-9]+}} (reduction)
func.func @sum_exp(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = kf.exp %x : tensor<4x8xf32>
  %1 = kf.sum %0 dims [1] : tensor<4x8xf32>
  return %1 : tensor<4xf32>
}

// An epilogue on the reduced result: relu(mean(x)). Eager 2 + 2.
// CHECK-LABEL: function @mean_epilogue
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
func.func @mean_epilogue(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = kf.mean %x dims [1] : tensor<4x8xf32>
  %1 = kf.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Row L2 norm, prologue and epilogue: sqrt(sum(x * x)). mul reads x once:
// eager 2 + 2 + 2 transfers, elements (32 + 32) + (32 + 4) + (4 + 4) = 108;
// fused reads x (32) and writes 4.
// CHECK-LABEL: function @l2norm
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 6 2
// CHECK-NEXT: elements 108 36
func.func @l2norm(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = kf.mul %x, %x : tensor<4x8xf32>, tensor<4x8xf32>
  %1 = kf.sum %0 dims [1] : tensor<4x8xf32>
  %2 = kf.sqrt %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// Two reductions over the same rows of the same values share a kernel:
// exp feeds sum and max. Eager 2 + 2 + 2; fused reads x, writes both.
// CHECK-LABEL: function @two_reductions_same_rows
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 6 3
func.func @two_reductions_same_rows(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = kf.exp %x : tensor<4x8xf32>
  %1 = kf.sum %0 dims [1] : tensor<4x8xf32>
  %2 = kf.max %0 dims [1] : tensor<4x8xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// Reductions over different dims of one tensor: the multi-reduction rule
// (multi-reduction.mlir) makes them one kernel, exp its prologue computed
// at each element of x and never written: reads x (32), writes both sums
// (8 + 4). Eager 2 + 2 + 2 transfers, 140 elements. (Before that rule: 2
// kernels, each reading x and recomputing exp.)
// CHECK-LABEL: function @two_reductions_two_dims
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 6 3
// CHECK-NEXT: elements 140 44
// CHECK: reduction_exp_sum_sum_{{[0-9]+}} (reduction)
// CHECK: runs as multi_reduction
// CHECK: boundaries: none
func.func @two_reductions_two_dims(%x: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0 = kf.exp %x : tensor<4x8xf32>
  %1 = kf.sum %0 dims [0] : tensor<4x8xf32>
  %2 = kf.sum %0 dims [1] : tensor<4x8xf32>
  return %1, %2 : tensor<8xf32>, tensor<4xf32>
}

// softmax over the last dim: max, sub, exp, sum, div are 5 eager kernels
// (2 + 3 + 2 + 2 + 3 = 12 transfers). A block owns a row, so the row's max
// and sum are read back in the same kernel: 1 kernel, reads x, writes y.
// CHECK-LABEL: function @softmax_rows
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 5 1
// CHECK-NEXT: transfers 12 2
// CHECK: reduction_max_sub_exp_sum_div_{{[0-9]+}}
// CHECK: boundaries: none
func.func @softmax_rows(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kf.softmax %x dim 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// log_softmax: max, sub, exp, sum, log, sub: 2 + 3 + 2 + 2 + 2 + 3 = 14.
// One kernel, as for softmax.
// CHECK-LABEL: function @log_softmax_rows
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 6 1
// CHECK-NEXT: transfers 14 2
func.func @log_softmax_rows(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kf.log_softmax %x dim -1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// softmax over dim 0: the columns are its rows. Each column's max and sum
// are read back over that column only, so one block owns a column (its
// threads striding down the rows) and all five ops are one kernel, as over
// the last dim. Eager 2 + 3 + 2 + 2 + 3 = 12; fused reads x, writes y.
// CHECK-LABEL: function @softmax_columns
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 5 1
// CHECK-NEXT: transfers 12 2
// CHECK: boundaries: none
func.func @softmax_columns(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kf.softmax %x dim 0 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// layer_norm with weight and bias: mean, sub, mul, mean, add eps, rsqrt,
// mul, mul w, add b: 9 eager kernels, 2+3+2+2+2+2+3+3+3 = 22 transfers.
// Fused over the row: reads x, w, b, writes y.
// CHECK-LABEL: function @layer_norm_rows
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 9 1
// CHECK-NEXT: transfers 22 4
func.func @layer_norm_rows(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.layer_norm %x weight %w : tensor<8xf32> bias %b : tensor<8xf32> normalized_shape [8] eps 1.0e-05 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// A reduction of a reduction: the second needs all of the first.
// CHECK-LABEL: function @reduction_of_reduction
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
// CHECK-NEXT: transfers 4 4
// CHECK: (max -> sum): producer-reduction: producer is a reduction
func.func @reduction_of_reduction(%x: tensor<4x8xf32>) -> tensor<f32> {
  %0 = kf.max %x dims [1] : tensor<4x8xf32>
  %1 = kf.sum %0 : tensor<4xf32>
  return %1 : tensor<f32>
}

// max(x) feeds exp (its epilogue) and an add that already belongs to the
// kernel of another reduction (sum over y, a different size): fusing would
// need max in both kernels. max+exp reads x, writes a and m (3); sum+add
// reads y and m, writes c (3). Eager 2 + 2 + 2 + 3.
// CHECK-LABEL: function @duplicate_reduction
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 2
// CHECK-NEXT: transfers 9 6
// CHECK: (max -> add): duplicate-reduction: would duplicate a reduction
func.func @duplicate_reduction(%x: tensor<4x8xf32>, %y: tensor<4x16xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %m = kf.max %x dims [1] : tensor<4x8xf32>
  %a = kf.exp %m : tensor<4xf32>
  %d = kf.sum %y dims [1] : tensor<4x16xf32>
  %c = kf.add %d, %m : tensor<4xf32>, tensor<4xf32>
  return %a, %c : tensor<4xf32>, tensor<4xf32>
}

// sum of a bool mask: the compare fuses into the reduction; the i1 input
// and i64 output count their own bytes: eager gt reads 32 f32 (128 B),
// writes 32 i1 (32 B); sum reads 32 B, writes 4 i64 (32 B).
// CHECK-LABEL: function @count_positive
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
// CHECK-NEXT: elements 100 36
// CHECK-NEXT: bytes 224 160
func.func @count_positive(%x: tensor<4x8xf32>) -> tensor<4xi64> {
  %z = kf.constant dense<0.0> : tensor<f32>
  %0 = kf.gt %x, %z : tensor<4x8xf32>, tensor<f32>
  %1 = kf.sum %0 dims [1] : tensor<4x8xi1>
  return %1 : tensor<4xi64>
}
