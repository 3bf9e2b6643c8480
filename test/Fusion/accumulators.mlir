// Ops that finish a reduction or matmul in its own eager kernel (issue 13,
// items 2 and 4): mean's division by the count, and the rounding of an f32
// accumulator to f16/bf16. They never make a kernel of their own, not even
// with fusion off, and the report lists only the kf op.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s --kf-kernel-report=fusion=off -o /dev/null | FileCheck %s --check-prefix=EAGER
// RUN: %fusion-diff %s

// An f16 row sum: one kernel either way; it reads 4x8 f16 (64 bytes) and
// writes 4 f16 (8 bytes): the f32 accumulator stays inside.
// CHECK-LABEL: function @sum_f16
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK-NEXT: transfers 2 2
// CHECK-NEXT: elements 36 36
// CHECK-NEXT: bytes 72 72
// CHECK-NEXT: fused kernels:
// CHECK-NEXT: reduction_sum_{{[0-9]+}} (reduction): ops sum
// CHECK-NEXT: reads arg0 4x8xf16
// CHECK-NEXT: writes reduction_sum_{{[0-9]+}}#0 4xf16
// EAGER-LABEL: function @sum_f16
// EAGER: reduction_sum_{{[0-9]+}} (reduction): ops sum
// EAGER-NEXT: reads arg0 4x8xf16
// EAGER-NEXT: writes reduction_sum_{{[0-9]+}}#0 4xf16
func.func @sum_f16(%x: tensor<4x8xf16>) -> tensor<4xf16> {
  %0 = kf.sum %x dims [1] : tensor<4x8xf16>
  return %0 : tensor<4xf16>
}

// mean = sum / n, still one eager kernel; relu after it fuses as before.
// CHECK-LABEL: function @mean_relu
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK: reduction_mean_relu_{{[0-9]+}} (reduction): ops mean, relu
// EAGER-LABEL: function @mean_relu
// EAGER: reduction_mean_{{[0-9]+}} (reduction): ops mean
// EAGER: pointwise_relu_{{[0-9]+}} (pointwise): ops relu
func.func @mean_relu(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = kf.mean %x dims [1] : tensor<4x8xf32>
  %1 = kf.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// A bf16 matmul: f32 accumulator, rounded in the matmul's kernel; writes
// 4x2 bf16 (16 bytes).
// CHECK-LABEL: function @matmul_bf16
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK: matmul_{{[0-9]+}} (matmul): ops matmul
// CHECK: writes matmul_{{[0-9]+}}#0 4x2xbf16
func.func @matmul_bf16(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>) -> tensor<4x2xbf16> {
  %0 = kf.matmul %a, %b : tensor<4x8xbf16>, tensor<8x2xbf16>
  return %0 : tensor<4x2xbf16>
}

// An f16 softmax is computed in f32: the casts in and out are kernels of
// the decomposition (eager 7: cast, max, sub, exp, sum, div, cast), one fused.
// CHECK-LABEL: function @softmax_f16
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 7 1
// CHECK: reduction_cast_max_sub_exp_sum_div_cast_{{[0-9]+}} (reduction)
// CHECK-NEXT: reads arg0 4x8xf16
// CHECK-NEXT: writes reduction_{{.*}}#0 4x8xf16
func.func @softmax_f16(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = kf.softmax %x dim 1 : tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}
