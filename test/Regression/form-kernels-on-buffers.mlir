// Found by the libFuzzer target (tools/kfuse-fuzz): kf-form-kernels on a
// linalg op on buffers read its (absent) result: a heap overflow. Linalg on
// buffers is past kernel formation and is now left alone.
// RUN: kfuse-opt %s --kf-form-kernels | FileCheck %s

// CHECK-LABEL: func.func @on_buffers
// CHECK-NOT: kf.kernel
// CHECK: linalg.generic
func.func @on_buffers(%x: memref<4xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}
