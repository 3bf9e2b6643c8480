// kf_fuzz.py seed 153 (issue-26 shapes, GPU emulation), p153_31 shrunk: a
// multi-reduction whose prologue (cast, maximum) iterated over [2, ?] on
// buffers, where canonicalization had made its result [2, 4] static. The
// mapping's matcher compared the prologue's loop sizes with the reduced
// tensor's shape, refused the kernel it had accepted on tensors, and the
// GPU pipeline failed ("is no set of reductions over the rows and columns
// of one buffer"). It now compares the prologue's result shape, a dynamic
// dim matching any size.
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings | FileCheck %s
// CHECK: mapping multi_reduction
// RUN: %fusion-diff %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-pipeline %s
// DIMS @p153_31: 8
func.func @p153_31(%arg0: tensor<1x?xi64>, %arg1: tensor<4xf32>) -> (tensor<?x1xf32>, tensor<2xf32>) {
  %v0 = kf.reshape %arg0 [2, -1] : tensor<1x?xi64>
  %v1 = kf.clamp %v0 min(1) : tensor<2x?xi64>
  %v2 = kf.sub %v1, %v0 : tensor<2x?xi64>, tensor<2x?xi64>
  %v3 = kf.cast %v0 : tensor<2x?xi64> to f32
  %v4 = kf.var %v3 dims [1] correction 2 : tensor<2x?xf32>
  %v5 = kf.reshape %v3 [-1, 4] : tensor<2x?xf32>
  %v6 = kf.sum %v3 dims [1] : tensor<2x?xf32>
  %v7 = kf.sub %v6, %v4 : tensor<2xf32>, tensor<2xf32>
  %v8 = kf.sum %v3 dims [1] : tensor<2x?xf32>
  %v9 = kf.sum %v3 dims [0] : tensor<2x?xf32>
  %v10 = kf.cast %v2 : tensor<2x?xi64> to f32
  %v11 = kf.layer_norm %v10 weight %arg1 : tensor<4xf32> normalized_shape [4] eps 1.0e-05 : tensor<2x?xf32>
  %v12 = kf.mean %arg1 dims [0] : tensor<4xf32>
  %v13 = kf.transpose %v11 [0, 1] : tensor<2x?xf32>
  %v14 = kf.div %arg1, %v12 : tensor<4xf32>, tensor<f32>
  %v15 = kf.maximum %v3, %v13 : tensor<2x?xf32>, tensor<2x?xf32>
  %v16 = kf.contiguous %v13 : tensor<2x?xf32>
  %v17 = kf.transpose %v15 [1, 0] : tensor<2x?xf32>
  %v18 = kf.mean %v17 dims [1] keepdim : tensor<?x2xf32>
  %v19 = kf.min %v15 dims [1] : tensor<2x?xf32>
  return %v18, %v19 : tensor<?x1xf32>, tensor<2xf32>
}

