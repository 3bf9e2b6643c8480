// Without -verify-diagnostics, an invalid program makes kfuse-opt print a
// located error and exit non-zero (`not` fails on a crash or a zero exit).
// RUN: not kfuse-opt %s 2>&1 | FileCheck %s
// RUN: not kfuse-opt %s --kf-to-linalg 2>&1 | FileCheck %s

// The error names the file, line and column of the op at fault.
// CHECK: exit-status.mlir:[[@LINE+3]]:8: error: 'kf.matmul' inner dims differ: 4x8 has 8 columns but 7x16 has 7 rows
// CHECK-NOT: Stack dump
func.func @bad(%a: tensor<4x8xf32>, %b: tensor<7x16xf32>) -> tensor<4x16xf32> {
  %0 = kf.matmul %a, %b : tensor<4x8xf32>, tensor<7x16xf32>
  return %0 : tensor<4x16xf32>
}
