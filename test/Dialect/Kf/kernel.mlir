// kf.kernel: round trip, and what its verifier refuses.
// RUN: kfuse-opt %s -split-input-file | kfuse-opt -split-input-file | FileCheck %s


// CHECK-LABEL: func.func @round_trip
// CHECK: %[[K:.*]]:2 = kf.kernel "pointwise_exp_0" kind pointwise -> tensor<4xf32>, tensor<4xf32> attributes {ops = ["exp"]} {
// CHECK: kf.yield %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
// An empty kf.yield is implicit in the printed form.
// CHECK: kf.kernel "pointwise_nothing_1" kind pointwise {
// CHECK-NEXT: }
func.func @round_trip(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = kf.kernel "pointwise_exp_0" kind pointwise -> tensor<4xf32>, tensor<4xf32> attributes {ops = ["exp"]} {
    %e = math.exp %x : tensor<4xf32>
    kf.yield %e, %x : tensor<4xf32>, tensor<4xf32>
  }
  kf.kernel "pointwise_nothing_1" kind pointwise {
    kf.yield
  }
  return %0#0 : tensor<4xf32>
}

// -----

// A matmul kernel's variant prints after its mapping.
// CHECK-LABEL: func.func @variant
// CHECK: kf.kernel "matmul_0" kind matmul mapping matmul variant tensor_core -> tensor<4xf32> {
func.func @variant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.kernel "matmul_0" kind matmul mapping matmul variant tensor_core -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A tensor-core kernel's tiles print after its variant, and survive a
// round trip.
// CHECK-LABEL: func.func @tiles
// CHECK: kf.kernel "matmul_0" kind matmul mapping matmul variant tensor_core tiles <m = 128, n = 64, k = 32, warps_m = 2, warps_n = 2, stages = 3, group_m = 8> -> tensor<4xf32> {
func.func @tiles(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.kernel "matmul_0" kind matmul mapping matmul variant tensor_core
      tiles <m = 128, n = 64, k = 32, warps_m = 2, warps_n = 2, stages = 3, group_m = 8>
      -> tensor<4xf32> {
    kf.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
