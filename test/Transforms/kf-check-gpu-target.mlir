// RUN: kfuse-opt %s --kf-check-gpu-target=chip=sm_90 | FileCheck %s
// RUN: not kfuse-opt %s --kf-check-gpu-target=chip=sm_70 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not kfuse-opt %s --kf-gpu-pipeline=chip=sm_120 2>&1 | FileCheck %s --check-prefix=NEW

// A supported chip lets the IR through unchanged.
// CHECK: func.func @f
// sm_70 (Volta) is gone from CUDA 13; sm_120 is beyond PTX ISA 8.0. Both
// are refused with a message, not an abort in the NVPTX backend.
// OLD: error: unsupported GPU chip 'sm_70': kfuse emits PTX ISA 8.0 for sm_75, sm_80, sm_86, sm_87, sm_89, sm_90
// NEW: error: unsupported GPU chip 'sm_120'
// NEW-NOT: LLVM ERROR
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
