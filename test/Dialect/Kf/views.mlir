// kf.slice and kf.contiguous: types as Python slicing gives them, folds,
// and what the verifier refuses (issue 12, item 1).
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --canonicalize | FileCheck %s --check-prefix=FOLD

// x[1:, ::2] of 4x8: rows 1..3 (3), columns 0, 2, 4, 6 (4).
// x[-3:-1, 5:100:3] of 4x8: rows 1, 2 (2); columns 5 (ends clamp to 8) (1).
// x[3:1] is empty: end <= start gives 0.
// CHECK-LABEL: func.func @types
// CHECK: kf.slice %{{.*}} starts [1, 0] ends [9223372036854775807, 8] steps [1, 2] : tensor<4x8xf32>
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<3x4xf32>, tensor<2x1xf32>, tensor<0x8xf32>
func.func @types(%x: tensor<4x8xf32>) -> (tensor<3x4xf32>, tensor<2x1xf32>, tensor<0x8xf32>) {
  %0 = kf.slice %x starts [1, 0] ends [9223372036854775807, 8] steps [1, 2] : tensor<4x8xf32>
  %1 = kf.slice %x starts [-3, 5] ends [-1, 100] steps [1, 3] : tensor<4x8xf32>
  %2 = kf.slice %x starts [3, 0] ends [1, 8] steps [1, 1] : tensor<4x8xf32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<2x1xf32>, tensor<0x8xf32>
}

// -----

// A dynamic dim kept whole; the slice that keeps everything folds away,
// one that drops an element does not.
// CHECK-LABEL: func.func @dynamic_whole
// CHECK: tensor<?x2xf32>
// FOLD-LABEL: func.func @dynamic_whole
// FOLD-NEXT: kf.slice %arg0 starts [0, 1]
// FOLD-NEXT: return %arg0, %{{.*}} : tensor<?x3xf32>, tensor<?x2xf32>
func.func @dynamic_whole(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x2xf32>) {
  %0 = kf.slice %x starts [0, 0] ends [9223372036854775807, 3] steps [1, 1] : tensor<?x3xf32>
  %1 = kf.slice %x starts [0, 1] ends [9223372036854775807, 3] steps [1, 1] : tensor<?x3xf32>
  return %0, %1 : tensor<?x3xf32>, tensor<?x2xf32>
}

// -----

// CHECK-LABEL: func.func @contiguous
// CHECK: kf.contiguous %{{.*}} : tensor<8x4xf32>
func.func @contiguous(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %t = kf.transpose %x [1, 0] : tensor<4x8xf32>
  %c = kf.contiguous %t : tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}

// -----

// A step of 0 (PyTorch: "slice step must be positive").
func.func @zero_step(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.slice' step of dim 1 must be at least 1, got 0}}
  %0 = kf.slice %x starts [0, 0] ends [4, 8] steps [1, 0] : tensor<4x8xf32>
  return
}

// -----

// One bound missing for the second dim.
func.func @short(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.slice' needs a start, an end and a step for each of the 2 dims of 4x8}}
  %0 = kf.slice %x starts [0] ends [4, 8] steps [1, 1] : tensor<4x8xf32>
  return
}

// -----

// A dynamic dim sliced: its size is only known when it runs.
func.func @dynamic_sliced(%x: tensor<?x8xf32>) {
  // expected-error @+1 {{'kf.slice' can only keep dynamic dim 0 whole (start 0, end 9223372036854775807, step 1)}}
  %0 = kf.slice %x starts [1, 0] ends [9223372036854775807, 8] steps [1, 1] : tensor<?x8xf32>
  return
}

// -----

// kf.contiguous copies its input: the result type is the input's.
func.func @contiguous_other_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'kf.contiguous' op requires the same type for all operands and results}}
  %0 = "kf.contiguous"(%x) : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}
