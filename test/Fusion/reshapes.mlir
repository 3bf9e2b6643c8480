// Reshapes out of fusion's way (issue 26, item 1). A 3-D Linear is a 2-D
// matmul between two reshapes; the ops after it read it through the
// expanding reshape, which changes the iteration space (a boundary). With
// `reshape-propagation` (kf-propagate-reshapes, run first by
// kf-form-kernels) they iterate over the matmul's 2-D space instead and
// are its epilogue. Counts: each kernel reads each distinct input once and
// writes each output once.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s "--kf-kernel-report=reshape-propagation=false" -o /dev/null | FileCheck %s --check-prefix=OFF
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --remarks-filter-missed=kf-form-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %fusion-diff %s
// The GPU mapping's layer_norm sums its 32 f32 elements in another order
// than the unfused CPU run (a tree over the block): a few ulps of the
// variance, ~3e-6 relative after the normalization.
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline --rtol 1e-5 %s

// gelu(x.view(32, 32) @ w + b).view(2, 16, 64): eager matmul (1024 + 2048
// in, 2048 out), add (2048 + 64, 2048), gelu (2048, 2048): 13376 elements.
// Fused, one kernel reads x, w, b and writes the result: 5184. Without
// propagation the gelu is a kernel of its own: 5184 + 4096.
// CHECK-LABEL: function @linear3d_gelu
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 8 4
// CHECK-NEXT: elements 13376 5184
// CHECK: matmul_add_gelu_{{[0-9]+}} (matmul): ops matmul, add, gelu
// CHECK: boundaries: none
// OFF-LABEL: function @linear3d_gelu
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 3 2
// OFF-NEXT: transfers 8 6
// OFF-NEXT: elements 13376 9280
// OFF: (add -> gelu): matmul-boundary
func.func @linear3d_gelu(%x: tensor<2x16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<2x16x64xf32> {
  %x2 = kf.reshape %x [32, 32] : tensor<2x16x32xf32>
  %m = kf.matmul %x2, %w : tensor<32x32xf32>, tensor<32x64xf32>
  %mb = kf.add %m, %b : tensor<32x64xf32>, tensor<64xf32>
  %y = kf.reshape %mb [2, 16, 64] : tensor<32x64xf32>
  %g = kf.gelu %y : tensor<2x16x64xf32>
  return %g : tensor<2x16x64xf32>
}

// GPT-2's `x + proj(h)` then layer_norm: the residual add runs over the
// matmul's rows and is its epilogue (reads h, w, x: 3072; writes r: 1024),
// and the layer_norm kernel reads r (1024) and its weights (64) and writes
// n (1024): 6208. Without propagation the add joins the layer_norm kernel
// instead, which then reads the matmul's result and x: 7232.
// CHECK-LABEL: function @residual_layer_norm
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels {{[0-9]+}} 2
// CHECK: elements {{[0-9]+}} 6208
// CHECK: matmul_add_{{[0-9]+}} (matmul): ops matmul, add
// OFF-LABEL: function @residual_layer_norm
// OFF-NEXT: eager fused
// OFF-NEXT: kernels {{[0-9]+}} 2
// OFF: elements {{[0-9]+}} 7232
func.func @residual_layer_norm(%x: tensor<2x16x32xf32>, %h: tensor<2x16x32xf32>, %w: tensor<32x32xf32>, %g: tensor<32xf32>, %bb: tensor<32xf32>) -> (tensor<2x16x32xf32>, tensor<2x16x32xf32>) {
  %h2 = kf.reshape %h [32, 32] : tensor<2x16x32xf32>
  %m = kf.matmul %h2, %w : tensor<32x32xf32>, tensor<32x32xf32>
  %m3 = kf.reshape %m [2, 16, 32] : tensor<32x32xf32>
  %r = kf.add %x, %m3 : tensor<2x16x32xf32>, tensor<2x16x32xf32>
  %n = kf.layer_norm %r weight %g : tensor<32xf32> bias %bb : tensor<32xf32> normalized_shape [32] eps 1.0e-05 : tensor<2x16x32xf32>
  return %r, %n : tensor<2x16x32xf32>, tensor<2x16x32xf32>
}

// A per-head RMSNorm of a projection, `q.view(4, 4, 16)`: the square could
// run over q's [4, 64] rows, but the mean reduces 16 of the 64 (the head's
// dims, not all of them), so collapsing the square would only move the
// reshape to between it and the mean, which are one kernel. Nothing moves:
// the same two kernels with the rule on or off.
// CHECK-LABEL: function @per_head_rms
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels {{[0-9]+}} 2
// CHECK: reduction_mul_mean_{{.*}} (reduction): ops mul, mean
// OFF-LABEL: function @per_head_rms
// OFF-NEXT: eager fused
// OFF-NEXT: kernels {{[0-9]+}} 2
func.func @per_head_rms(%x: tensor<4x32xf32>, %w: tensor<32x64xf32>) -> tensor<4x4x16xf32> {
  %q = kf.matmul %x, %w : tensor<4x32xf32>, tensor<32x64xf32>
  %q3 = kf.reshape %q [4, 4, 16] : tensor<4x64xf32>
  %sq = kf.mul %q3, %q3 : tensor<4x4x16xf32>, tensor<4x4x16xf32>
  %ms = kf.mean %sq dims [2] keepdim : tensor<4x4x16xf32>
  %r = kf.rsqrt %ms : tensor<4x4x1xf32>
  %y = kf.mul %q3, %r : tensor<4x4x16xf32>, tensor<4x4x1xf32>
  return %y : tensor<4x4x16xf32>
}

// A dynamic batch: the same Linear and GELU, one kernel.
// CHECK-LABEL: function @linear3d_gelu_dynamic
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK: matmul_add_gelu_{{[0-9]+}} (matmul): ops matmul, add, gelu
func.func @linear3d_gelu_dynamic(%x: tensor<?x16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<?x16x64xf32> {
  %x2 = kf.reshape %x [-1, 32] : tensor<?x16x32xf32>
  %m = kf.matmul %x2, %w : tensor<?x32xf32>, tensor<32x64xf32>
  %mb = kf.add %m, %b : tensor<?x64xf32>, tensor<64xf32>
  %y = kf.reshape %mb [-1, 16, 64] : tensor<?x64xf32>
  %g = kf.gelu %y : tensor<?x16x64xf32>
  return %g : tensor<?x16x64xf32>
}

// `(x + y).view(8, 4, 16).sum(1)`: the sum reduces 4 of each row's 64
// elements, so it cannot run over the add's rows; the add runs over the
// expanded [8, 4, 16] instead (reading x and y as views) and joins the
// sum. Eager: add (1024 in, 512 out), sum (512, 128): 2176 elements;
// fused: reads x and y, writes 128: 1152.
// CHECK-LABEL: function @sum_of_reshaped_add
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 5 3
// CHECK-NEXT: elements 2176 1152
// CHECK: reduction_add_sum_{{[0-9]+}} (reduction): ops add, sum
// OFF-LABEL: function @sum_of_reshaped_add
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 2 2
// OFF: (add -> sum): reshape: reshape changes the iteration space
func.func @sum_of_reshaped_add(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> tensor<8x16xf32> {
  %a = kf.add %x, %y : tensor<8x64xf32>, tensor<8x64xf32>
  %v = kf.reshape %a [8, 4, 16] : tensor<8x64xf32>
  %s = kf.sum %v dims [1] : tensor<8x4x16xf32>
  return %s : tensor<8x16xf32>
}

// [4, 8] read as [8, 4] rows: the reshape is a collapse to [32] and an
// expand. The exp runs over [32] (the collapse moved before it), then over
// [8, 4] (the expand too, for the sum, which reduces part of a group):
// one kernel reading x through both, as a view. Eager: exp (32, 32), sum
// (32, 8): 104; fused: x in, the sums out: 40.
// CHECK-LABEL: function @restructured_into_sum
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
// CHECK-NEXT: elements 104 40
// OFF-LABEL: function @restructured_into_sum
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 2 2
// OFF: (exp -> sum): reshape: reshape changes the iteration space
func.func @restructured_into_sum(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %0 = kf.exp %x : tensor<4x8xf32>
  %1 = kf.reshape %0 [8, 4] : tensor<4x8xf32>
  %2 = kf.sum %1 dims [1] : tensor<8x4xf32>
  return %2 : tensor<8xf32>
}

// Moved where it pays only: here (a random program of kf_fuzz.py, seed 1)
// the moves give a batch_norm's ops over [4, 3] loops next to ops over
// [3] in one planned kernel that no mapping serves, and its ops end up
// apart: 7 kernels where the program as written makes 4. The reshapes stay
// where they are, and a remark says so.
// CHECK-LABEL: function @left_in_place
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels {{[0-9]+}} 4
// REMARK: remark: [Missed] reshape-propagation | Category:kf-form-kernels:missed | Function=left_in_place | Remark="reshapes left in place: moved, 7 kernels; as written, 4"
func.func @left_in_place(%arg0: tensor<4x3x8xi1>, %arg1: tensor<3xf32>, %arg2: tensor<3xf64>, %arg3: tensor<3xf32>, %arg4: tensor<3xf32>, %arg5: tensor<3xf32>, %arg6: tensor<3xf32>) -> (tensor<3xf32>, tensor<4x3x1xf32>) {
  %v0 = kf.sigmoid %arg0 : tensor<4x3x8xi1>
  %v1 = kf.min %v0 dims [2] : tensor<4x3x8xf32>
  %v2 = kf.reshape %v1 [4, 3, -1] : tensor<4x3xf32>
  %v3 = kf.add %v0, %v2 : tensor<4x3x8xf32>, tensor<4x3x1xf32>
  %v4 = kf.cos %v2 : tensor<4x3x1xf32>
  %v5 = kf.abs %arg2 : tensor<3xf64>
  %v6 = kf.batch_norm %v2, %arg1, %v5 weight %arg3 : tensor<3xf32> bias %arg4 : tensor<3xf32> : tensor<4x3x1xf32>, tensor<3xf32>, tensor<3xf64>
  %v7 = kf.abs %arg6 : tensor<3xf32>
  %v8 = kf.batch_norm %v2, %arg5, %v7 eps 1.0e-05 : tensor<4x3x1xf32>, tensor<3xf32>, tensor<3xf32>
  return %v7, %v8 : tensor<3xf32>, tensor<4x3x1xf32>
}
