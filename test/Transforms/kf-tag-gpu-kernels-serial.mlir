// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=fusion=none \
// RUN:   --kf-tag-gpu-kernels=serial-fallback=true | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg --kf-form-kernels=fusion=none \
// RUN:   --kf-tag-gpu-kernels=serial-fallback=true --kf-inline-kernels \
// RUN:   --one-shot-bufferize=bufferize-function-boundaries --kf-map-kernels-to-gpu \
// RUN:   | FileCheck %s --check-prefix=MAPPED

// For the host runtime, a kernel the flat mapping cannot serve (here a
// reduction) is tagged kf.serial instead of refused; a pointwise one is
// tagged as before (eager kernels, so that exp is a kernel of its own).
// CHECK-LABEL: func.func @row_sum_then_exp
// CHECK: linalg.fill {kf.kernel = "reduction_sum_0", kf.serial}
// CHECK: linalg.generic {{.*}}kf.kernel = "reduction_sum_0", kf.op = "sum", kf.serial}
// CHECK: linalg.generic {{.*}}kf.kernel = "pointwise_exp_1", kf.op = "exp"}
// The serial kernel is one launch of one thread holding its linalg op; the
// pointwise one is the flat launch.
// MAPPED-LABEL: func.func @row_sum_then_exp
// MAPPED: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE:.*]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) module(@kfuse_kernels) function(@reduction_sum_0)
// MAPPED-NEXT: linalg.fill
// MAPPED-NEXT: linalg.generic
// MAPPED: function(@pointwise_exp_1)
func.func @row_sum_then_exp(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %s = kf.sum %x dims [1] : tensor<4x8xf32>
  %e = kf.exp %s : tensor<4xf32>
  return %e : tensor<4xf32>
}
