// RUN: kfuse-opt %s --kf-inline-kernels | FileCheck %s

// The body replaces the kernel; its yielded values replace its results.
// CHECK-LABEL: func.func @inline
// CHECK-NOT: kf.kernel
// CHECK: %[[E:.*]] = math.exp %{{.*}} : tensor<4xf32>
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[E]] : tensor<4xf32>
// CHECK-NEXT: return %[[E]], %[[N]] : tensor<4xf32>, tensor<4xf32>
func.func @inline(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = kf.kernel "pointwise_exp_neg_0" kind pointwise -> tensor<4xf32>, tensor<4xf32> {
    %e = math.exp %x : tensor<4xf32>
    %n = arith.negf %e : tensor<4xf32>
    kf.yield %e, %n : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
