// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=fusion=off \
// RUN:   --kf-assign-kernel-mappings=serial-fallback=true | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=fusion=off \
// RUN:   --kf-assign-kernel-mappings=serial-fallback=true \
// RUN:   --one-shot-bufferize=bufferize-function-boundaries --kf-hoist-kernel-buffers \
// RUN:   --kf-map-kernels-to-host \
// RUN:   | FileCheck %s --check-prefix=MAPPED

// For the host runtime, a kernel the GPU mappings cannot serve is mapped
// serial instead of refused. kf-form-kernels never forms one (it splits
// what no mapping serves), so the kernel here is written by hand: two
// matmuls in one kernel.
// CHECK-LABEL: func.func @two_matmuls
// CHECK: kf.kernel "matmul_0" kind matmul mapping serial
// CHECK-COUNT-2: linalg.matmul
// The serial kernel is one launch of one thread holding its linalg ops.
// MAPPED-LABEL: func.func @two_matmuls
// MAPPED: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE:.*]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) module(@kfuse_kernels) function(@matmul_0)
// MAPPED-NEXT: linalg.fill
// MAPPED-NEXT: linalg.matmul
// MAPPED-NEXT: linalg.fill
// MAPPED-NEXT: linalg.matmul
func.func @two_matmuls(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %c: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = kf.kernel "matmul_0" kind matmul -> tensor<4x5xf32> attributes {ops = ["matmul", "matmul"]} {
    %1 = tensor.empty() : tensor<4x3xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<4x3xf32>) -> tensor<4x3xf32>
    %3 = linalg.matmul {kf.op = "matmul"} ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>) outs(%2 : tensor<4x3xf32>) -> tensor<4x3xf32>
    %4 = tensor.empty() : tensor<4x5xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<4x5xf32>) -> tensor<4x5xf32>
    %6 = linalg.matmul {kf.op = "matmul"} ins(%3, %c : tensor<4x3xf32>, tensor<3x5xf32>) outs(%5 : tensor<4x5xf32>) -> tensor<4x5xf32>
    kf.yield %6 : tensor<4x5xf32>
  }
  return %0 : tensor<4x5xf32>
}

// -----

// Kernels kf-form-kernels forms all have a GPU mapping, so the fallback
// leaves them alone: the batched matmul (once mapped serial) gets the
// matmul mapping (batch as grid z); a reduction of 3 elements a row is
// mapped flat (a thread per row: kf-form-kernels' small-reduction), a
// pointwise one flat (eager kernels, so that each op is a kernel of its
// own).
// CHECK-LABEL: func.func @matmul_sum_exp
// CHECK: kf.kernel "matmul_0" kind matmul mapping matmul
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}kf.op = "matmul"
// CHECK: kf.kernel "reduction_sum_1" kind reduction mapping flat
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}kf.op = "sum"
// CHECK: kf.kernel "pointwise_exp_2" kind pointwise mapping flat
// CHECK: linalg.generic {{.*}}kf.op = "exp"
// MAPPED-LABEL: func.func @matmul_sum_exp
// MAPPED: function(@matmul_0)
// MAPPED-NOT: linalg.generic
// MAPPED: function(@reduction_sum_1)
// MAPPED-NOT: gpu.barrier
// MAPPED: function(@pointwise_exp_2)
func.func @matmul_sum_exp(%a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>) -> tensor<2x4xf32> {
  %m = kf.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x3xf32>
  %s = kf.sum %m dims [2] : tensor<2x4x3xf32>
  %e = kf.exp %s : tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}
