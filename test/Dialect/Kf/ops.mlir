// Every kf op parses, verifies and prints back in its custom form, and the
// printed form parses again to the same thing.
// RUN: kfuse-opt %s -split-input-file | kfuse-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // CHECK: kf.add %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>
  %0 = kf.add %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.sub %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>
  %1 = kf.sub %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.mul
  %2 = kf.mul %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.div
  %3 = kf.div %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.maximum
  %4 = kf.maximum %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.minimum
  %5 = kf.minimum %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.pow
  %6 = kf.pow %a, %b : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

// CHECK-LABEL: func.func @compare_where
func.func @compare_where(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // CHECK: kf.eq
  %0 = kf.eq %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.ne
  %1 = kf.ne %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.lt
  %2 = kf.lt %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.le
  %3 = kf.le %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.gt
  %4 = kf.gt %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.ge
  %5 = kf.ge %a, %b : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: kf.where %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>
  %6 = kf.where %5, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<?x8xf16>) {
  // CHECK: kf.neg %{{.*}} : tensor<?x8xf16>
  %0 = kf.neg %x : tensor<?x8xf16>
  // CHECK: kf.abs
  %1 = kf.abs %x : tensor<?x8xf16>
  // CHECK: kf.exp
  %2 = kf.exp %x : tensor<?x8xf16>
  // CHECK: kf.log
  %3 = kf.log %x : tensor<?x8xf16>
  // CHECK: kf.sqrt
  %4 = kf.sqrt %x : tensor<?x8xf16>
  // CHECK: kf.rsqrt
  %5 = kf.rsqrt %x : tensor<?x8xf16>
  // CHECK: kf.tanh
  %6 = kf.tanh %x : tensor<?x8xf16>
  // CHECK: kf.sigmoid
  %7 = kf.sigmoid %x : tensor<?x8xf16>
  // CHECK: kf.relu
  %8 = kf.relu %x : tensor<?x8xf16>
  // CHECK: kf.gelu
  %9 = kf.gelu %x : tensor<?x8xf16>
  // CHECK: kf.silu
  %10 = kf.silu %x : tensor<?x8xf16>
  // CHECK: kf.sin
  %11 = kf.sin %x : tensor<?x8xf16>
  // CHECK: kf.cos
  %12 = kf.cos %x : tensor<?x8xf16>
  // CHECK: kf.reciprocal
  %13 = kf.reciprocal %x : tensor<?x8xf16>
  // CHECK: kf.cast %{{.*}} : tensor<?x8xf16> to bf16
  %14 = kf.cast %x : tensor<?x8xf16> to bf16
  return
}

// -----

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK: kf.constant dense<0.000000e+00> : tensor<f32>
  %0 = kf.constant dense<0.0> : tensor<f32>
  // CHECK: kf.constant dense<[1, 2, 3]> : tensor<3xi64>
  %1 = kf.constant dense<[1, 2, 3]> : tensor<3xi64>
  // CHECK: kf.constant dense<true> : tensor<2x2xi1>
  %2 = kf.constant dense<true> : tensor<2x2xi1>
  return
}

// -----

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<4x8xf32>) {
  // CHECK: kf.sum %{{.*}} dims [1] keepdim : tensor<4x8xf32>
  %0 = kf.sum %x dims [1] keepdim : tensor<4x8xf32>
  // CHECK: kf.mean %{{.*}} dims [0, 1] : tensor<4x8xf32>
  %1 = kf.mean %x dims [0, 1] : tensor<4x8xf32>
  // CHECK: kf.max %{{.*}} dims [-1] : tensor<4x8xf32>
  %2 = kf.max %x dims [-1] : tensor<4x8xf32>
  // CHECK: kf.min %{{.*}} : tensor<4x8xf32>
  %3 = kf.min %x : tensor<4x8xf32>
  return
}

// -----

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%x: tensor<4x8xf32>) {
  // CHECK: kf.reshape %{{.*}} [2, -1, 4] : tensor<4x8xf32>
  %0 = kf.reshape %x [2, -1, 4] : tensor<4x8xf32>
  // CHECK: kf.transpose %{{.*}} [1, 0] : tensor<4x8xf32>
  %1 = kf.transpose %x [1, 0] : tensor<4x8xf32>
  // CHECK: kf.broadcast_to %{{.*}} [3, 4, -1] : tensor<4x8xf32>
  %2 = kf.broadcast_to %x [3, 4, -1] : tensor<4x8xf32>
  return
}

// -----

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<2x1x4x8xf32>, %d: tensor<3x8x16xf32>) {
  // CHECK: kf.matmul %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>
  %0 = kf.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32>
  // CHECK: kf.matmul %{{.*}}, %{{.*}} : tensor<2x1x4x8xf32>, tensor<3x8x16xf32>
  %1 = kf.matmul %c, %d : tensor<2x1x4x8xf32>, tensor<3x8x16xf32>
  return
}

// -----

// CHECK-LABEL: func.func @composites
func.func @composites(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) {
  // CHECK: kf.softmax %{{.*}} dim -1 : tensor<4x8xf32>
  %0 = kf.softmax %x dim -1 : tensor<4x8xf32>
  // CHECK: kf.log_softmax %{{.*}} dim 0 : tensor<4x8xf32>
  %1 = kf.log_softmax %x dim 0 : tensor<4x8xf32>
  // CHECK: kf.layer_norm %{{.*}} weight %{{.*}} : tensor<8xf32> bias %{{.*}} : tensor<8xf32> normalized_shape [8] eps 1.000000e-05 : tensor<4x8xf32>
  %2 = kf.layer_norm %x weight %w : tensor<8xf32> bias %b : tensor<8xf32> normalized_shape [8] eps 1.0e-05 : tensor<4x8xf32>
  // CHECK: kf.layer_norm %{{.*}} normalized_shape [4, 8] eps 1.000000e-05 : tensor<4x8xf32>
  %3 = kf.layer_norm %x normalized_shape [4, 8] eps 1.0e-05 : tensor<4x8xf32>
  return
}
