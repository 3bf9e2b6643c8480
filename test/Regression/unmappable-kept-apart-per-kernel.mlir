// Found by kf_fuzz.py --check-mapped (seed 42, program 513; issue 12): a
// kernel without a matmul (the mean, max and sqrt: a reduction chain read
// back) was mapped serial. kf-form-kernels keeps apart the ops of every
// kernel no GPU mapping serves, and lets a kernel's ops fuse again when one
// of them is refused even alone (a batched matmul). Those ops were grouped
// by the round of re-planning, not by the kernel they came from: the
// batched matmuls refused alone let every kernel of their round fuse again,
// unmappable ones too. Now each refused kernel is its own group.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings=serial-fallback | FileCheck %s
// RUN: %fusion-diff %s
// Only the batched matmuls (no GPU mapping yet) run serially.
// CHECK-NOT: kind reduction mapping serial
// CHECK-NOT: kind pointwise mapping serial
func.func @p42_513(%arg2: tensor<8x4x5xi32>, %arg3: tensor<1x1x8xf32>, %arg5: tensor<8x4xf32>, %arg6: tensor<4x4xf32>, %arg7: tensor<1x4x4xf32>, %arg8: tensor<2x4x4xf32>) -> (tensor<8x4x4xf32>, tensor<5x1x1xf32>) {
  %v0 = kf.relu %arg2 : tensor<8x4x5xi32>
  %v1 = kf.transpose %v0 [2, 1, 0] : tensor<8x4x5xi32>
  %v2 = kf.add %v1, %arg3 : tensor<5x4x8xi32>, tensor<1x1x8xf32>
  %v3 = kf.mul %arg3, %v2 : tensor<1x1x8xf32>, tensor<5x4x8xf32>
  %v5 = kf.mean %arg3 dims [0, 1] keepdim : tensor<1x1x8xf32>
  %v18 = kf.mul %v3, %v5 : tensor<5x4x8xf32>, tensor<1x1x8xf32>
  %v19 = kf.matmul %v18, %arg5 : tensor<5x4x8xf32>, tensor<8x4xf32>
  %v20 = kf.matmul %v19, %arg6 : tensor<5x4x4xf32>, tensor<4x4xf32>
  %v21 = kf.mean %v18 dims [1, 2] keepdim : tensor<5x4x8xf32>
  %v22 = kf.max %v21 dims [0, 1, 2] keepdim : tensor<5x1x1xf32>
  %v25 = kf.mul %v20, %v22 : tensor<5x4x4xf32>, tensor<1x1x1xf32>
  %v29 = kf.cat %v25, %arg7, %arg8 dim -3 : tensor<5x4x4xf32>, tensor<1x4x4xf32>, tensor<2x4x4xf32>
  %v30 = kf.sqrt %v21 : tensor<5x1x1xf32>
  return %v29, %v30 : tensor<8x4x4xf32>, tensor<5x1x1xf32>
}
