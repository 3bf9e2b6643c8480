// reshape and constant launch no kernel in eager PyTorch: they lower to
// tensor and arith ops, never to linalg (except a splat of more than 2^16
// elements, filled by a kernel: the last case).
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @reshape_static
// CHECK-NOT: linalg.
// CHECK: %[[F:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
func.func @reshape_static(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = kf.reshape %x [3, -1] : tensor<2x3xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// With a dynamic dim, -1 is computed at run time and the element count is
// checked: numel % 4 == 0.
// CHECK-LABEL: func.func @reshape_dynamic
// CHECK-NOT: linalg.
// CHECK: %[[D:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x8xf32>
// CHECK: arith.muli %{{.*}}, %[[D]] : index
// CHECK: %[[N:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[R:.*]] = arith.remui %[[N]], %[[C4:.*]] : index
// CHECK: cf.assert %{{.*}}, "kf.reshape: element count does not fit the shape"
// CHECK: %[[Q:.*]] = arith.divui %[[N]], %[[C4]] : index
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [%[[Q]], 4] : tensor<?xf32> into tensor<?x4xf32>
func.func @reshape_dynamic(%x: tensor<?x8xf32>) -> tensor<?x4xf32> {
  %0 = kf.reshape %x [-1, 4] : tensor<?x8xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// To and from 0-d.
// CHECK-LABEL: func.func @reshape_scalar
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1xf32> into tensor<f32>
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<f32> into tensor<1xf32>
func.func @reshape_scalar(%x: tensor<1xf32>, %s: tensor<f32>) -> (tensor<f32>, tensor<1x1xf32>) {
  %0 = kf.reshape %x [] : tensor<1xf32>
  %1 = kf.reshape %s [1, 1] : tensor<f32>
  return %0, %1 : tensor<f32>, tensor<1x1xf32>
}

// -----

// CHECK-LABEL: func.func @constant
// CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NOT: linalg.
func.func @constant() -> tensor<2xf32> {
  %0 = kf.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A splat of more than 2^16 elements is written by a kernel (no global of
// every element); smaller ones stay arith.constant.
// CHECK-LABEL: func.func @large_splat
// CHECK: %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<65537xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<65537xf32>) attrs = {kf.op = "constant"}
// CHECK-NEXT: ^bb0(%{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[C]] : f32
// CHECK: arith.constant dense<3.000000e+00> : tensor<65536xf32>
func.func @large_splat() -> (tensor<65537xf32>, tensor<65536xf32>) {
  %0 = kf.constant dense<2.0> : tensor<65537xf32>
  %1 = kf.constant dense<3.0> : tensor<65536xf32>
  return %0, %1 : tensor<65537xf32>, tensor<65536xf32>
}
