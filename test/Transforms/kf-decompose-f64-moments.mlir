// kf-decompose with f64-moments (what the CPU pipelines run): the moments
// of layer_norm, rms_norm, var and std of f32, f16 and bf16 are taken on an
// f64 copy of the input, as PyTorch's CPU var accumulates in double (issue
// 27: f32 squares past 1.8e19 overflowed; a constant row's f32 mean was
// off by an ulp). The normalized value is rounded to f32 before the
// weight and bias; var and std round their result once.
// RUN: kfuse-opt %s -split-input-file --kf-decompose=f64-moments=true | FileCheck %s
// Without the option (the GPU) f32 stays f32.
// RUN: kfuse-opt %s -split-input-file --kf-decompose | FileCheck %s --check-prefix=F32

// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK: %[[EPS:.*]] = kf.constant dense<1.000000e-05> : tensor<f64>
// CHECK: %[[X64:.*]] = kf.cast %[[X]] : tensor<4x8xf32> to f64
// CHECK: %[[MU:.*]] = kf.mean %[[X64]] dims [-1] keepdim : tensor<4x8xf64>
// CHECK: %[[C:.*]] = kf.sub %[[X64]], %[[MU]] : tensor<4x8xf64>, tensor<4x1xf64>
// CHECK: %[[SQ:.*]] = kf.mul %[[C]], %[[C]] : tensor<4x8xf64>
// CHECK: %[[V:.*]] = kf.mean %[[SQ]] dims [-1] keepdim : tensor<4x8xf64>
// CHECK: %[[VE:.*]] = kf.add %[[V]], %[[EPS]]
// CHECK: %[[R:.*]] = kf.rsqrt %[[VE]] : tensor<4x1xf64>
// CHECK: %[[N:.*]] = kf.mul %[[C]], %[[R]] : tensor<4x8xf64>, tensor<4x1xf64>
// CHECK: %[[N32:.*]] = kf.cast %[[N]] : tensor<4x8xf64> to f32
// CHECK: %[[NW:.*]] = kf.mul %[[N32]], %[[W]] : tensor<4x8xf32>, tensor<8xf32>
// CHECK: %[[Y:.*]] = kf.add %[[NW]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>
// CHECK: return %[[Y]]
// F32-LABEL: func.func @layer_norm
// F32-NOT: f64
// F32: return
func.func @layer_norm(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.layer_norm %x weight %w : tensor<8xf32> bias %b : tensor<8xf32> normalized_shape [8] eps 1.0e-05 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// f16 goes to f64 directly; the f32 result meets the f16 weight and is
// rounded to f16 at the end.
// CHECK-LABEL: func.func @layer_norm_f16
// CHECK: kf.cast %{{.*}} : tensor<2x8xf16> to f64
// CHECK: kf.mean %{{.*}} dims [-1] keepdim : tensor<2x8xf64>
// CHECK: %[[N32:.*]] = kf.cast %{{.*}} : tensor<2x8xf64> to f32
// CHECK: %[[NW:.*]] = kf.mul %[[N32]], %{{.*}} : tensor<2x8xf32>, tensor<8xf16>
// CHECK: kf.cast %[[NW]] : tensor<2x8xf32> to f16
func.func @layer_norm_f16(%x: tensor<2x8xf16>, %w: tensor<8xf16>) -> tensor<2x8xf16> {
  %0 = kf.layer_norm %x weight %w : tensor<8xf16> normalized_shape [8] eps 1.0e-05 : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

// std of bf16 (whose range is f32's): the sum of squares, the division by
// n - 1 and the square root in f64, one rounding to bf16.
// CHECK-LABEL: func.func @std_bf16
// CHECK: %[[N:.*]] = kf.constant dense<7.000000e+00> : tensor<f64>
// CHECK: %[[X64:.*]] = kf.cast %{{.*}} : tensor<4x8xbf16> to f64
// CHECK: kf.mean %[[X64]] dims [1] keepdim : tensor<4x8xf64>
// CHECK: %[[S:.*]] = kf.sum %{{.*}} dims [1] : tensor<4x8xf64>
// CHECK: %[[V:.*]] = kf.div %[[S]], %[[N]] : tensor<4xf64>, tensor<f64>
// CHECK: %[[SD:.*]] = kf.sqrt %[[V]] : tensor<4xf64>
// CHECK: %[[R:.*]] = kf.cast %[[SD]] : tensor<4xf64> to bf16
// CHECK: return %[[R]]
// F32-LABEL: func.func @std_bf16
// F32: kf.cast %{{.*}} : tensor<4x8xbf16> to f32
// F32-NOT: f64
// F32: return
func.func @std_bf16(%x: tensor<4x8xbf16>) -> tensor<4xbf16> {
  %0 = kf.std %x dims [1] : tensor<4x8xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// rms_norm: the mean square and its rsqrt in f64 (where f32 overflows),
// the product with x and the weight in f32, as PyTorch's.
// CHECK-LABEL: func.func @rms_norm
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8xf32>)
// CHECK: %[[X64:.*]] = kf.cast %[[X]] : tensor<4x8xf32> to f64
// CHECK: %[[SQ:.*]] = kf.mul %[[X64]], %[[X64]] : tensor<4x8xf64>
// CHECK: %[[MS:.*]] = kf.mean %[[SQ]] dims [-1] keepdim : tensor<4x8xf64>
// CHECK: %[[MSE:.*]] = kf.add %[[MS]], %{{.*}} : tensor<4x1xf64>, tensor<f64>
// CHECK: %[[R:.*]] = kf.rsqrt %[[MSE]] : tensor<4x1xf64>
// CHECK: %[[R32:.*]] = kf.cast %[[R]] : tensor<4x1xf64> to f32
// CHECK: %[[N:.*]] = kf.mul %[[X]], %[[R32]] : tensor<4x8xf32>, tensor<4x1xf32>
// CHECK: kf.mul %[[N]], %[[W]] : tensor<4x8xf32>, tensor<8xf32>
func.func @rms_norm(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.rms_norm %x weight %w : tensor<8xf32> normalized_shape [8] : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// f64 input: nothing to widen, no cast.
// CHECK-LABEL: func.func @var_f64
// CHECK-NOT: kf.cast
// CHECK: return
func.func @var_f64(%x: tensor<4x8xf64>) -> tensor<4xf64> {
  %0 = kf.var %x dims [1] : tensor<4x8xf64>
  return %0 : tensor<4xf64>
}

// -----

// softmax is not a moment: it stays f32.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: f64
// CHECK: return
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kf.softmax %x dim 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
