// --dump-dir writes every stage as numbered files and kernels.json.
// RUN: rm -rf %t && kfuse-compile %s --dump-dir=%t -o %t.ptx
// RUN: ls %t | FileCheck %s
// RUN: %python %s.py %t/kernels.json

// CHECK: 01-kf.mlir
// CHECK-NEXT: 02-linalg.mlir
// CHECK-NEXT: 03-kernels.mlir
// CHECK-NEXT: 04-gpu.mlir
// CHECK-NEXT: 05-kernels.ptx
// CHECK-NEXT: 06-host.mlir
// CHECK-NEXT: kernels.json
func.func @scale_bias(%x: tensor<?x16xf32>, %b: tensor<16xf32>) -> tensor<?x16xf32> {
  %two = kf.constant dense<2.0> : tensor<f32>
  %0 = kf.mul %x, %two : tensor<?x16xf32>, tensor<f32>
  %1 = kf.add %0, %b : tensor<?x16xf32>, tensor<16xf32>
  return %1 : tensor<?x16xf32>
}
