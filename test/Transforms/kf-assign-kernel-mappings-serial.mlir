// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=fusion=off \
// RUN:   --kf-assign-kernel-mappings=serial-fallback=true | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=fusion=off \
// RUN:   --kf-assign-kernel-mappings=serial-fallback=true \
// RUN:   --one-shot-bufferize=bufferize-function-boundaries --kf-hoist-kernel-buffers \
// RUN:   --kf-map-kernels-to-gpu=host=true \
// RUN:   | FileCheck %s --check-prefix=MAPPED

// For the host runtime, a kernel the GPU mappings cannot serve (here a
// batched matmul) is mapped serial instead of refused; a reduction of 3
// elements a row is mapped flat (a thread per row: kf-form-kernels'
// small-reduction), a pointwise one flat (eager kernels, so that each op
// is a kernel of its own).
// CHECK-LABEL: func.func @matmul_sum_exp
// CHECK: kf.kernel "matmul_0" kind matmul mapping serial
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}kf.op = "matmul"
// CHECK: kf.kernel "reduction_sum_1" kind reduction mapping flat
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}kf.op = "sum"
// CHECK: kf.kernel "pointwise_exp_2" kind pointwise mapping flat
// CHECK: linalg.generic {{.*}}kf.op = "exp"
// The serial kernel is one launch of one thread holding its linalg ops; the
// row kernel a block (of one thread, on the host) a row, the pointwise one
// the flat launch.
// MAPPED-LABEL: func.func @matmul_sum_exp
// MAPPED: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE:.*]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) module(@kfuse_kernels) function(@matmul_0)
// MAPPED-NEXT: linalg.fill
// MAPPED-NEXT: linalg.generic
// MAPPED: function(@reduction_sum_1)
// MAPPED-NOT: gpu.barrier
// MAPPED: function(@pointwise_exp_2)
func.func @matmul_sum_exp(%a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>) -> tensor<2x4xf32> {
  %m = kf.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x3xf32>
  %s = kf.sum %m dims [2] : tensor<2x4x3xf32>
  %e = kf.exp %s : tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}
