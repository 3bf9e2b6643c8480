// Views (issue 12, item 1): kf.transpose and kf.slice launch no kernel, as
// in PyTorch; their readers read the input in place through the composed
// indexing map. A view that must exist as a tensor (returned) is a copy
// kernel, into which its producers fuse; kf.contiguous is such a copy on
// purpose, and its readers read memory. Counts: each kernel reads each
// distinct input once and writes each output once (splats are immediates).
// The report counts a sliced input whole: an upper bound on what is read.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: %fusion-diff %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s

// x + x.t(): eager PyTorch launches the add alone, reading x twice; fused,
// the kernel reads x once and writes y: 2 * 4096 elements.
// CHECK-LABEL: function @x_plus_xt
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK-NEXT: transfers 2 2
// CHECK-NEXT: elements 8192 8192
// CHECK: pointwise_add_{{[0-9]+}} (pointwise): ops add
// CHECK-NEXT: reads arg0 64x64xf32
// CHECK: boundaries: none
func.func @x_plus_xt(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %t = kf.transpose %x [1, 0] : tensor<64x64xf32>
  %y = kf.add %x, %t : tensor<64x64xf32>, tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// (x * 2).t() returned: eager mul (reads x, writes m) then the copy of the
// view (reads m, writes t): 2 kernels, 4 transfers. Fused, mul is computed
// at the element the copy writes: reads x, writes t.
// CHECK-LABEL: function @returned_view
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
// CHECK-NEXT: elements 128 64
// CHECK: pointwise_mul_transpose_{{[0-9]+}} (pointwise): ops mul, transpose
func.func @returned_view(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %two = kf.constant dense<2.0> : tensor<f32>
  %m = kf.mul %x, %two : tensor<4x8xf32>, tensor<f32>
  %t = kf.transpose %m [1, 0] : tensor<4x8xf32>
  return %t : tensor<8x4xf32>
}

// A returned transpose of an argument is a copy kernel of its own.
// CHECK-LABEL: function @returned_transpose
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK: transpose_{{[0-9]+}} (transpose): ops transpose
func.func @returned_transpose(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %t = kf.transpose %x [1, 0] : tensor<4x8xf32>
  return %t : tensor<8x4xf32>
}

// A permute feeding a reduction: the sum reads x over its dim 0, in place.
// One kernel either way: reads x (32), writes 8.
// CHECK-LABEL: function @view_into_reduction
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK-NEXT: transfers 2 2
// CHECK-NEXT: elements 40 40
func.func @view_into_reduction(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %t = kf.transpose %x [1, 0] : tensor<4x8xf32>
  %s = kf.sum %t dims [1] : tensor<8x4xf32>
  return %s : tensor<8xf32>
}

// exp of a 3-D permute, summed over its last dim: exp is the reduction's
// prologue, reading x permuted. Eager exp 2 + sum 2 (24 + 24, 24 + 8).
// CHECK-LABEL: function @permute_3d_sum
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
// CHECK-NEXT: elements 80 32
func.func @permute_3d_sum(%x: tensor<2x3x4xf32>) -> tensor<4x2xf32> {
  %t = kf.transpose %x [2, 0, 1] : tensor<2x3x4xf32>
  %e = kf.exp %t : tensor<4x2x3xf32>
  %s = kf.sum %e dims [2] : tensor<4x2x3xf32>
  return %s : tensor<4x2xf32>
}

// x[1:, ::2] + 1: one kernel reading x through i -> (1 + i, 2 j); x is
// counted whole (32), the result is 3x4 (12).
// CHECK-LABEL: function @slice_add
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK-NEXT: transfers 2 2
// CHECK-NEXT: elements 44 44
func.func @slice_add(%x: tensor<4x8xf32>) -> tensor<3x4xf32> {
  %one = kf.constant dense<1.0> : tensor<f32>
  %s = kf.slice %x starts [1, 0] ends [9223372036854775807, 8] steps [1, 2] : tensor<4x8xf32>
  %y = kf.add %s, %one : tensor<3x4xf32>, tensor<f32>
  return %y : tensor<3x4xf32>
}

// x[-2:] returned: a copy kernel (pointwise: no transpose in it).
// CHECK-LABEL: function @slice_returned
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK: pointwise_slice_{{[0-9]+}} (pointwise): ops slice
func.func @slice_returned(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  %s = kf.slice %x starts [-2, 0] ends [4, 8] steps [1, 1] : tensor<4x8xf32>
  return %s : tensor<2x8xf32>
}

// A slice of a transpose: exp reads x through (i, j) -> (j + 1, 2 i), neg
// reads exp's result through another transpose. Eager exp 2 + neg 2; fused,
// exp is computed where neg reads it: reads x, writes y.
// CHECK-LABEL: function @slice_of_transpose
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
func.func @slice_of_transpose(%x: tensor<4x8xf32>) -> tensor<3x4xf32> {
  %t = kf.transpose %x [1, 0] : tensor<4x8xf32>
  %s = kf.slice %t starts [0, 1] ends [8, 4] steps [2, 1] : tensor<8x4xf32>
  %e = kf.exp %s : tensor<4x3xf32>
  %r = kf.transpose %e [1, 0] : tensor<4x3xf32>
  %y = kf.neg %r : tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// `qkv.permute(2, 0, 1, 3).unbind(0)` read by a matmul (which reads no view
// in place), as timm's attention writes it: each part is one slice copy
// reading qkv through the permutation, and the three are one sibling kernel.
// The first part starts at 0 and stops short of the end, a truncation no
// linalg map can express on the permuted tensor: it truncates qkv instead.
// Before, the whole permuted tensor (3 x 2 x 4 x 8) was copied for it, then
// sliced again: 3 kernels. Eager: 3 slices, 3 matmuls; fused: the slices'
// kernel (reads qkv, writes 3 parts) and 3 matmuls.
// CHECK-LABEL: function @unbind_of_permute
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 6 4
// CHECK: pointwise_slice_slice_slice_{{[0-9]+}} (pointwise): ops slice, slice, slice
// CHECK-NEXT: reads arg0 2x4x24xf32
// CHECK-NOT: transpose_{{[0-9]+}} (transpose)
// CHECK: boundaries:
func.func @unbind_of_permute(%qkv: tensor<2x4x24xf32>, %w: tensor<8x8xf32>)
    -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) {
  %v = kf.reshape %qkv [2, 4, 3, 8] : tensor<2x4x24xf32>
  %p = kf.transpose %v [2, 0, 1, 3] : tensor<2x4x3x8xf32>
  %s0 = kf.slice %p starts [0, 0, 0, 0] ends [1, 2, 4, 8] steps [1, 1, 1, 1] : tensor<3x2x4x8xf32>
  %s1 = kf.slice %p starts [1, 0, 0, 0] ends [2, 2, 4, 8] steps [1, 1, 1, 1] : tensor<3x2x4x8xf32>
  %s2 = kf.slice %p starts [2, 0, 0, 0] ends [3, 2, 4, 8] steps [1, 1, 1, 1] : tensor<3x2x4x8xf32>
  %q = kf.reshape %s0 [2, 4, 8] : tensor<1x2x4x8xf32>
  %k = kf.reshape %s1 [2, 4, 8] : tensor<1x2x4x8xf32>
  %u = kf.reshape %s2 [2, 4, 8] : tensor<1x2x4x8xf32>
  %a = kf.matmul %q, %w : tensor<2x4x8xf32>, tensor<8x8xf32>
  %b = kf.matmul %k, %w : tensor<2x4x8xf32>, tensor<8x8xf32>
  %c = kf.matmul %u, %w : tensor<2x4x8xf32>, tensor<8x8xf32>
  return %a, %b, %c : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
}

// kf.contiguous is a barrier: mul fuses into the copy (written transposed),
// relu reads it from memory. Eager: mul 2, contiguous 2, relu 2.
// CHECK-LABEL: function @contiguous_barrier
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 2
// CHECK-NEXT: transfers 6 4
// CHECK: pointwise_mul_contiguous_{{[0-9]+}} (pointwise): ops mul, contiguous
// CHECK: boundaries:
// CHECK-NEXT: (contiguous -> relu): materialize: kf.contiguous writes its value to memory
func.func @contiguous_barrier(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %two = kf.constant dense<2.0> : tensor<f32>
  %m = kf.mul %x, %two : tensor<4x8xf32>, tensor<f32>
  %t = kf.transpose %m [1, 0] : tensor<4x8xf32>
  %c = kf.contiguous %t : tensor<8x4xf32>
  %r = kf.relu %c : tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// y = x * 2 read twice by add, once transposed: each read recomputes it
// (reading x costs what reading y would), so mul's own kernel is dead.
// Eager mul 2 + add 2; fused reads x, writes z.
// CHECK-LABEL: function @reread
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
func.func @reread(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %two = kf.constant dense<2.0> : tensor<f32>
  %y = kf.mul %x, %two : tensor<8x8xf32>, tensor<f32>
  %t = kf.transpose %y [1, 0] : tensor<8x8xf32>
  %z = kf.add %t, %y : tensor<8x8xf32>, tensor<8x8xf32>
  return %z : tensor<8x8xf32>
}

// y is returned and read transposed: its kernel writes y, and the add
// cannot compute y at the element it reads without a second copy of mul
// (which reads x: as many bytes as reading y, so it is not made).
// CHECK-LABEL: function @reread_returned
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
// CHECK: boundaries:
// CHECK-NEXT: (mul -> add): not-in-place:
func.func @reread_returned(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %two = kf.constant dense<2.0> : tensor<f32>
  %y = kf.mul %x, %two : tensor<8x8xf32>, tensor<f32>
  %t = kf.transpose %y [1, 0] : tensor<8x8xf32>
  %z = kf.add %t, %x : tensor<8x8xf32>, tensor<8x8xf32>
  return %y, %z : tensor<8x8xf32>, tensor<8x8xf32>
}
