// kf's canonical order of a slice and a reshape that splits its dims:
// slice(reshape(x)), a view its readers read in place, instead of
// reshape(slice(x)), which reads the slice from memory (SliceBeforeReshape
// in KfCanonicalize.cpp; kf-to-linalg runs it too).
// RUN: kfuse-opt %s -split-input-file -canonicalize | FileCheck %s

// GPT-2's head split of a fused q/k/v projection (here 96 = 3 x 4 heads
// of 8): the k third of the last dim viewed as heads is the middle 4
// heads of the projection viewed as 12.
// CHECK-LABEL: func.func @qkv_heads
// CHECK-SAME: (%[[X:.*]]: tensor<2x16x96xf32>)
// CHECK: %[[R:.*]] = kf.reshape %[[X]] [2, 16, 12, 8] : tensor<2x16x96xf32>
// CHECK: %[[S:.*]] = kf.slice %[[R]] starts [0, 0, 4, 0] ends [2, 16, 8, 8] steps [1, 1, 1, 1] : tensor<2x16x12x8xf32>
// CHECK: return %[[S]]
func.func @qkv_heads(%x: tensor<2x16x96xf32>) -> tensor<2x16x4x8xf32> {
  %k = kf.slice %x starts [0, 0, 32] ends [9223372036854775807, 9223372036854775807, 64] steps [1, 1, 1] : tensor<2x16x96xf32>
  %h = kf.reshape %k [2, 16, 4, 8] : tensor<2x16x32xf32>
  return %h : tensor<2x16x4x8xf32>
}

// -----

// Several dims split, one of them sliced, the others whole: each group's
// first dim takes the slice.
// CHECK-LABEL: func.func @two_groups
// CHECK: %[[R:.*]] = kf.reshape %{{.*}} [3, 2, 5, 4] : tensor<6x20xf32>
// CHECK: kf.slice %[[R]] starts [1, 0, 0, 0] ends [3, 2, 5, 4] steps [1, 1, 1, 1] : tensor<3x2x5x4xf32>
func.func @two_groups(%x: tensor<6x20xf32>) -> tensor<2x2x5x4xf32> {
  %s = kf.slice %x starts [2, 0] ends [6, 20] steps [1, 1] : tensor<6x20xf32>
  %r = kf.reshape %s [2, 2, 5, 4] : tensor<4x20xf32>
  return %r : tensor<2x2x5x4xf32>
}

// -----

// Not rewritten: the slice 0:36 of a dim split into blocks of 8 ends
// inside a block (36 is not a multiple of 8).
// CHECK-LABEL: func.func @not_whole_blocks
// CHECK: %[[S:.*]] = kf.slice
// CHECK: kf.reshape %[[S]] [2, 4, 9]
func.func @not_whole_blocks(%x: tensor<2x96xf32>) -> tensor<2x4x9xf32> {
  %s = kf.slice %x starts [0, 0] ends [2, 36] steps [1, 1] : tensor<2x96xf32>
  %r = kf.reshape %s [2, 4, 9] : tensor<2x36xf32>
  return %r : tensor<2x4x9xf32>
}

// -----

// Not rewritten: a strided slice (every other element) is not a range of
// whole blocks.
// CHECK-LABEL: func.func @strided
// CHECK: %[[S:.*]] = kf.slice
// CHECK: kf.reshape %[[S]] [2, 4, 4]
func.func @strided(%x: tensor<2x32xf32>) -> tensor<2x4x4xf32> {
  %s = kf.slice %x starts [0, 0] ends [2, 32] steps [1, 2] : tensor<2x32xf32>
  %r = kf.reshape %s [2, 4, 4] : tensor<2x16xf32>
  return %r : tensor<2x4x4xf32>
}

// -----

// Not rewritten: a reshape that merges dims (no group splits one dim).
// CHECK-LABEL: func.func @merging
// CHECK: %[[S:.*]] = kf.slice
// CHECK: kf.reshape %[[S]] [16]
func.func @merging(%x: tensor<4x8xf32>) -> tensor<16xf32> {
  %s = kf.slice %x starts [0, 0] ends [2, 8] steps [1, 1] : tensor<4x8xf32>
  %r = kf.reshape %s [16] : tensor<2x8xf32>
  return %r : tensor<16xf32>
}
