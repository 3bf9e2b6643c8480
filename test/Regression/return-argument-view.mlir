// Found by kf_fuzz.py (seed 1): a function that returns a view of its
// argument makes buffer deallocation insert bufferization.clone, which
// kf-cpu-pipeline left unlowered. It now runs convert-bufferization-to-memref.
// RUN: kfuse-opt %s --kf-cpu-pipeline | FileCheck %s
// RUN: %fusion-diff %s

// CHECK-NOT: bufferization.
// CHECK: llvm.func @view
func.func @view(%arg: tensor<2x1xf32>) -> tensor<1x1x2xf32> {
  %0 = kf.reshape %arg [-1, 1, 2] : tensor<2x1xf32>
  return %0 : tensor<1x1x2xf32>
}
