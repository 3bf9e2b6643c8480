// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-tag-gpu-kernels | FileCheck %s

// Every linalg.generic of a pointwise kernel gets the kernel's name.
// CHECK-LABEL: func.func @pointwise
// CHECK: linalg.generic {{.*}} attrs = {kf.kernel = "pointwise_exp_neg_0"}
// CHECK: linalg.generic {{.*}} attrs = {kf.kernel = "pointwise_exp_neg_0"}
func.func @pointwise(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r:2 = kf.kernel "pointwise_exp_neg_0" kind "pointwise" -> tensor<8xf32>, tensor<8xf32> {
    %e0 = tensor.empty() : tensor<8xf32>
    %e = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    %n0 = tensor.empty() : tensor<8xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%e : tensor<8xf32>) outs(%n0 : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.negf %a : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    kf.yield %e, %n : tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A reduction kernel is not mapped yet: refused with its name.
func.func @reduction(%x: tensor<8xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{kernel 'reduction_sum_0' (reduction, 1 linalg ops) cannot be mapped to the GPU yet: only pointwise kernels are}}
  %r = kf.kernel "reduction_sum_0" kind "reduction" -> tensor<f32> {
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<8xf32>) outs(%init : tensor<f32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %a, %o : f32
      linalg.yield %v : f32
    } -> tensor<f32>
    kf.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// The second op reads the first's result transposed: one thread could not
// compute its element from its own.
func.func @transposed_read(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{kernel 'pointwise_exp_neg_0' (pointwise, 2 linalg ops) cannot be mapped to the GPU yet: an op reads another's result at other elements}}
  %r = kf.kernel "pointwise_exp_neg_0" kind "pointwise" -> tensor<4x4xf32> {
    %e0 = tensor.empty() : tensor<4x4xf32>
    %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    } -> tensor<4x4xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.negf %a : f32
      linalg.yield %v : f32
    } -> tensor<4x4xf32>
    kf.yield %n : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}
