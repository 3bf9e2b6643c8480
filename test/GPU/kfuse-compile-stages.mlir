// kfuse-compile writes each stage; every stage is a prefix of
// kf-gpu-pipeline, so kfuse-opt replays the same thing.
// RUN: kfuse-compile %s --emit=kf | FileCheck %s --check-prefix=KF
// RUN: kfuse-compile %s --emit=linalg | FileCheck %s --check-prefix=LINALG
// RUN: kfuse-compile %s --emit=kernels | FileCheck %s --check-prefix=KERNELS
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=GPU
// RUN: kfuse-compile %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: kfuse-opt %s --kf-gpu-pipeline | FileCheck %s --check-prefix=PIPELINE

// KF: kf.add
// KF: kf.relu
// LINALG-COUNT-2: linalg.generic
// KERNELS: kf.kernel "pointwise_add_relu_0" kind pointwise
// One launch of the outlined kernel on one stream, into a device buffer,
// and its module.
// GPU: %[[T0:.*]] = gpu.wait async
// GPU: %[[C:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%{{.*}}) : memref<?xf32>
// GPU: %[[T2:.*]] = gpu.launch_func async [%[[T1]]] @kfuse_kernels::@pointwise_add_relu_0 blocks in
// GPU-SAME: %[[C]] : memref<?xf32>
// GPU: gpu.wait [%[[T2]]]
// GPU-NEXT: return %[[C]]
// GPU: gpu.module @kfuse_kernels
// GPU: gpu.func @pointwise_add_relu_0({{.*}}) kernel
// The host calls the mgpu* runtime entry points; the PTX is embedded.
// LLVM: @kfuse_kernels_binary = internal constant
// LLVM-LABEL: define {{.*}} @add_relu(
// LLVM: call ptr @mgpuStreamCreate()
// LLVM: call ptr @mgpuMemAlloc(i64 %{{.*}}, ptr %{{.*}}, i8 0)
// LLVM: call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @kfuse_kernels_pointwise_add_relu_0_name)
// LLVM: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 %{{.*}}, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0,
// LLVM: call void @mgpuStreamSynchronize
// The PTX module is JIT-loaded once, at start-up.
// LLVM-LABEL: define internal void @kfuse_kernels_load()
// LLVM: call ptr @mgpuModuleLoadJIT(ptr @kfuse_kernels_binary
// PIPELINE-DAG: gpu.binary @kfuse_kernels
// PIPELINE-DAG: llvm.func @add_relu
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kf.add %a, %b : tensor<?xf32>, tensor<?xf32>
  %1 = kf.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
