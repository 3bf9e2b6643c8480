// The ops of issue 12: their eager kernel counts (one per kf primitive, the
// composites written out by kf-decompose) and what fusion makes of them.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: %fusion-diff %s

// The new elementwise ops are pointwise like the old: a chain of four is
// one kernel. Eager 4 kernels, 2 transfers each; fused reads x (32) and
// writes 32.
// CHECK-LABEL: function @math_chain
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK-NEXT: transfers 8 2
// CHECK-NEXT: elements 256 64
// CHECK: pointwise_expm1_log1p_round_clamp_{{[0-9]+}} (pointwise)
func.func @math_chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = kf.expm1 %x : tensor<4x8xf32>
  %1 = kf.log1p %0 : tensor<4x8xf32>
  %2 = kf.round %1 : tensor<4x8xf32>
  %3 = kf.clamp %2 min(0.0) max(6.0) : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// q * b + r == a: floor_divide and remainder read a and b; the mul and add
// read them in the same kernel. Eager 4: (32 + 8 + 32) x 2, (32 + 8 + 32),
// (32 + 32 + 32) = 312 elements; fused reads a (32) and b (8), writes 32.
// CHECK-LABEL: function @floor_div_mod
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK-NEXT: transfers 12 3
// CHECK-NEXT: elements 312 72
func.func @floor_div_mod(%a: tensor<4x8xi32>, %b: tensor<8xi32>) -> tensor<4x8xi32> {
  %0 = kf.floor_divide %a, %b : tensor<4x8xi32>, tensor<8xi32>
  %1 = kf.remainder %a, %b : tensor<4x8xi32>, tensor<8xi32>
  %2 = kf.mul %0, %b : tensor<4x8xi32>, tensor<8xi32>
  %3 = kf.add %2, %1 : tensor<4x8xi32>, tensor<4x8xi32>
  return %3 : tensor<4x8xi32>
}

// var over the last dim: mean, sub, mul, sum, div (the divisor a constant)
// are 5 eager kernels. The mean is read back over its rows by sub
// (row-persistent), mul is sum's prologue, sum reduces the same rows as
// the mean (one family), div is the epilogue over the rows: 1 row kernel
// that reads x and writes 4 values, as layer_norm's moments.
// CHECK-LABEL: function @var_last
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 5 1
// CHECK: reduction_mean_sub_mul_sum_div_{{[0-9]+}} (reduction)
// CHECK: boundaries: none
func.func @var_last(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = kf.var %x dims [1] : tensor<4x8xf32>
  return %0 : tensor<4xf32>
}

// std with keepdim: one more op (sqrt), the same single row kernel.
// CHECK-LABEL: function @std_last
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 6 1
// CHECK: boundaries: none
func.func @std_last(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = kf.std %x dims [-1] correction 0 keepdim : tensor<4x8xf32>
  return %0 : tensor<4x1xf32>
}

// rms_norm: mul (x * x), mean, add (eps), rsqrt, mul, mul (weight) = 6
// eager kernels; mul is the mean's prologue, add and rsqrt its epilogue
// over the rows, the two muls read it back over the rows: 1 row kernel.
// CHECK-LABEL: function @rms_norm
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 6 1
// CHECK: boundaries: none
func.func @rms_norm(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kf.rms_norm %x weight %w : tensor<8xf32> normalized_shape [8] : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// f16: computed in f32, so a cast in and a cast out (7 eager kernels), all
// in the one row kernel.
// CHECK-LABEL: function @rms_norm_half
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 7 1
// CHECK: boundaries: none
func.func @rms_norm_half(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = kf.rms_norm %x normalized_shape [8] : tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// argmax over the last dim: max, eq, ne (the NaN test), add (their or),
// where, min = 6 eager kernels (PyTorch: 1). max and min reduce the same
// rows (one family); eq reads max back over its rows; ne, add and where
// are min's prologue: 1 row kernel reading x and the index constant.
// CHECK-LABEL: function @argmax_last
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 6 1
// CHECK: reduction_max_eq_ne_add_where_min_{{[0-9]+}} (reduction)
// CHECK: boundaries: none
func.func @argmax_last(%x: tensor<4x8xf32>) -> tensor<4xi64> {
  %0 = kf.argmax %x dim 1 : tensor<4x8xf32>
  return %0 : tensor<4xi64>
}

// Integers need no NaN test: min, eq, where, min = 4 eager, 1 fused.
// CHECK-LABEL: function @argmin_int
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK: boundaries: none
func.func @argmin_int(%x: tensor<4x8xi32>) -> tensor<4xi64> {
  %0 = kf.argmin %x dim 1 : tensor<4x8xi32>
  return %0 : tensor<4xi64>
}

// cat is one eager kernel and a pointwise op over its result: exp before
// it and relu after it fuse with it (pointwise), 3 eager kernels, 1 fused
// that reads a (32) and b (16) and writes 48.
// CHECK-LABEL: function @cat_pointwise
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 7 3
// CHECK-NEXT: elements 256 96
// CHECK: pointwise_exp_cat_relu_{{[0-9]+}} (pointwise)
func.func @cat_pointwise(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>) -> tensor<6x8xf32> {
  %0 = kf.exp %a : tensor<4x8xf32>
  %1 = kf.cat %0, %b dim 0 : tensor<4x8xf32>, tensor<2x8xf32>
  %2 = kf.relu %1 : tensor<6x8xf32>
  return %2 : tensor<6x8xf32>
}

// batch_norm: the statistics reshaped to [3, 1, 1] (no kernel), add (eps)
// and rsqrt over [3, 1, 1], sub, mul, mul (weight), add (bias) over the
// input: 6 eager kernels (PyTorch: 1).
// CHECK-LABEL: function @batch_norm
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 6
func.func @batch_norm(%x: tensor<2x3x4x4xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %w: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  %0 = kf.batch_norm %x, %m, %v weight %w : tensor<3xf32> bias %b : tensor<3xf32> : tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>
  return %0 : tensor<2x3x4x4xf32>
}
