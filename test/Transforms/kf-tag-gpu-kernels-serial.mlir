// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=fusion=none \
// RUN:   --kf-tag-gpu-kernels=serial-fallback=true | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=fusion=none \
// RUN:   --kf-tag-gpu-kernels=serial-fallback=true --kf-inline-kernels \
// RUN:   --one-shot-bufferize=bufferize-function-boundaries --kf-map-kernels-to-gpu=host=true \
// RUN:   | FileCheck %s --check-prefix=MAPPED

// For the host runtime, a kernel the GPU mappings cannot serve (here a
// batched matmul) is tagged kf.serial instead of refused; a row reduction
// is tagged kf.row, a pointwise one as before (eager kernels, so that each
// op is a kernel of its own).
// CHECK-LABEL: func.func @matmul_sum_exp
// CHECK: linalg.fill {kf.kernel = "matmul_0", kf.serial}
// CHECK: linalg.generic {{.*}}kf.kernel = "matmul_0", kf.op = "matmul", kf.serial}
// CHECK: linalg.fill {kf.kernel = "reduction_sum_1", kf.row}
// CHECK: linalg.generic {{.*}}kf.kernel = "reduction_sum_1", kf.op = "sum", kf.row}
// CHECK: linalg.generic {{.*}}kf.kernel = "pointwise_exp_2", kf.op = "exp"}
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
