// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=merge-bodies=false | FileCheck %s --check-prefix=SEPARATE
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=fusion=off | FileCheck %s --check-prefix=EAGER
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=multi-reduction=false | FileCheck %s --check-prefix=RECOMPUTE

// add+relu: one kernel region named after its kind and ops, whose two
// linalg ops upstream elementwise fusion merges into one generic.
// CHECK-LABEL: func.func @add_relu
// CHECK-SAME: attributes {kf.boundaries = []}
// CHECK: %[[K:.*]] = kf.kernel "pointwise_add_relu_0" kind pointwise -> tensor<8xf32> attributes {ops = ["add", "relu"]} {
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: arith.addf
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: kf.yield %[[G]] : tensor<8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[K]]
// SEPARATE-LABEL: func.func @add_relu
// SEPARATE: kf.kernel "pointwise_add_relu_0"
// SEPARATE-COUNT-2: linalg.generic
// SEPARATE: kf.yield
// EAGER-LABEL: func.func @add_relu
// EAGER-SAME: kf.boundaries = [#kf.boundary<producer = "pointwise_add_0", producer_op = "add", consumer = "pointwise_relu_1", consumer_op = "relu", reason = fusion_off, detail = "fusion is off (eager boundaries)">]
// EAGER: %[[A:.*]] = kf.kernel "pointwise_add_0" kind pointwise
// EAGER: kf.kernel "pointwise_relu_1" kind pointwise
// EAGER: ins(%[[A]] : tensor<8xf32>)
func.func @add_relu(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.add %a, %b : tensor<8xf32>, tensor<8xf32>
  %1 = kf.relu %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// A reduction's accumulator fill and its init live inside its kernel; the
// prologue merges into the reduction's generic.
// CHECK-LABEL: func.func @sum_exp
// CHECK: kf.kernel "reduction_exp_sum_0" kind reduction -> tensor<4xf32>
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: kf.yield
func.func @sum_exp(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = kf.exp %x : tensor<4x8xf32>
  %1 = kf.sum %0 dims [1] : tensor<4x8xf32>
  return %1 : tensor<4xf32>
}

// -----

// The boundary that stays is recorded on the function with its reason,
// and each side is a kernel of its own.
// CHECK-LABEL: func.func @matmul_prologue
// CHECK-SAME: kf.boundaries = [#kf.boundary<producer = "pointwise_relu_0", producer_op = "relu", consumer = "matmul_1", consumer_op = "matmul", reason = matmul_boundary, detail = "matmul boundary">]
// CHECK: %[[R:.*]] = kf.kernel "pointwise_relu_0" kind pointwise
// CHECK: kf.kernel "matmul_1" kind matmul
// CHECK: linalg.matmul {{.*}}ins(%[[R]], %{{.*}} : tensor<4x8xf32>, tensor<8x4xf32>)
func.func @matmul_prologue(%a: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = kf.relu %a : tensor<4x8xf32>
  %1 = kf.matmul %0, %w : tensor<4x8xf32>, tensor<8x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// Recomputation (multi-reduction off): exp is cloned into the second
// reduction's kernel, which then reads x, not exp's result.
// RECOMPUTE-LABEL: func.func @recompute
// RECOMPUTE-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// RECOMPUTE: kf.kernel "reduction_exp_sum_0"
// RECOMPUTE: ins(%[[X]] : tensor<4x8xf32>)
// RECOMPUTE: kf.kernel "reduction_exp_sum_1"
// RECOMPUTE: ins(%[[X]] : tensor<4x8xf32>)
// RECOMPUTE: math.exp
// By default the two reductions (over dims 0 and 1 of exp(x)) are one
// multi-reduction kernel, exp its prologue, computed once from x:
// CHECK-LABEL: func.func @recompute
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: kf.kernel "reduction_exp_sum_sum_0"
// CHECK: ins(%[[X]] : tensor<4x8xf32>)
// CHECK-NOT: kf.kernel
func.func @recompute(%x: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0 = kf.exp %x : tensor<4x8xf32>
  %1 = kf.sum %0 dims [0] : tensor<4x8xf32>
  %2 = kf.sum %0 dims [1] : tensor<4x8xf32>
  return %1, %2 : tensor<8xf32>, tensor<4xf32>
}

// -----

// Kernels in several functions are numbered across the module.
// CHECK-LABEL: func.func @first
// CHECK: kf.kernel "pointwise_exp_0"
// CHECK-LABEL: func.func @second
// CHECK: kf.kernel "pointwise_exp_1"
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
