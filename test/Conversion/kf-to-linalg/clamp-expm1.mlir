// The scalar bodies of clamp and expm1 (issue 27, item 5).
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg | FileCheck %s

// Float clamp compares and selects, as PyTorch's min(max(x, lo), hi) whose
// comparisons keep x on a tie: clamp(-0.0, 0.0, 6.0) is -0.0 (maximumf
// orders the zeros and gave +0.0). NaN fails both compares and stays NaN.
// CHECK-LABEL: func.func @clamp_float
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[X]], %[[LO]] : f32
// CHECK: %[[A:.*]] = arith.select %[[BELOW]], %[[LO]], %[[X]] : f32
// CHECK: %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[A]], %[[HI]] : f32
// CHECK: %[[B:.*]] = arith.select %[[ABOVE]], %[[HI]], %[[A]] : f32
// CHECK: linalg.yield %[[B]] : f32
// CHECK-NOT: arith.maximumf
// CHECK-NOT: arith.minimumf
func.func @clamp_float(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.clamp %x min(0.0) max(6.0) : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A NaN bound makes every element NaN (torch.clamp propagates it; a
// compare with NaN is false and would keep x).
// CHECK-LABEL: func.func @clamp_nan_bound
// CHECK: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: linalg.yield %[[NAN]] : f32
func.func @clamp_nan_bound(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.clamp %x min(0x7FF8000000000000 : f64) max(6.0) : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Integers keep maxsi/minsi (no signed zeros, no NaN).
// CHECK-LABEL: func.func @clamp_int
// CHECK: arith.maxsi
// CHECK: arith.minsi
func.func @clamp_int(%x: tensor<8xi32>) -> tensor<8xi32> {
  %0 = kf.clamp %x min(-2) max(3) : tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

// expm1 is math.expm1: each target lowers it accurately (libdevice's
// __nv_expm1f on the GPU, kf-host-math on the CPU) where it was
// 2t / (1 - t), t = tanh(x / 2), near 0, written here (3.9 ulp on the CPU).
// CHECK-LABEL: func.func @expm1
// CHECK: math.expm1 %{{.*}} : f32
// CHECK-NOT: math.tanh
func.func @expm1(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = kf.expm1 %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}
