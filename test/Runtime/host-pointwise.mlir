// The host's flat mapping (blocks of 16384 elements, vectors of 8 f32 or
// 4 f64 or 16 f16 lanes, a scalar tail) against numpy, at lengths around
// the vector and the block: nothing skipped, nothing written twice or past
// the end, special values kept (relu as torch.relu: -0 stays -0, NaN
// stays NaN). The expected values are numpy's, computed by the script.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kfuse-compile %s --emit=lib -o %t/p.so
// RUN: %python %s.py %t kfuse-run | FileCheck %s

// CHECK: f32 1 ok
// CHECK: f32 7 ok
// CHECK: f32 8 ok
// CHECK: f32 9 ok
// CHECK: f32 16383 ok
// CHECK: f32 16384 ok
// CHECK: f32 16385 ok
// CHECK: f32 50001 ok
// CHECK: f64 1 ok
// CHECK: f64 5 ok
// CHECK: f64 16389 ok
// CHECK: f16 17 ok
// CHECK: f16 16400 ok
// CHECK: bias (1, 1) ok
// CHECK: bias (3, 17) ok
// CHECK: bias (5, 16384) ok
// CHECK: bias (2, 20000) ok
// CHECK: bias (700, 33) ok
// CHECK: bias (0, 9) ok
// CHECK: tr (1, 1) ok
// CHECK: tr (33, 65) ok
// CHECK: tr (64, 32) ok
// CHECK: tr (0, 5) ok
// CHECK: trb (2, 64, 96) ok
// CHECK: trb (3, 40, 70) ok
// CHECK: tr3 (3, 33, 40) ok
// CHECK: tr3 (2, 1, 70) ok

func.func @fma_relu(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c = kf.constant dense<2.0> : tensor<f32>
  %m = kf.mul %x, %c : tensor<?xf32>, tensor<f32>
  %s = kf.add %m, %y : tensor<?xf32>, tensor<?xf32>
  %r = kf.relu %s : tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @widen(%x: tensor<?xf32>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %w = kf.cast %x : tensor<?xf32> to f64
  %s = kf.sub %w, %y : tensor<?xf64>, tensor<?xf64>
  return %s : tensor<?xf64>
}

func.func @half(%x: tensor<?xf16>, %y: tensor<?xf16>) -> tensor<?xf16> {
  %s = kf.mul %x, %y : tensor<?xf16>, tensor<?xf16>
  %n = kf.neg %s : tensor<?xf16>
  return %n : tensor<?xf16>
}

// Transposes: 32 x 32 tiles of the last two loops (the output's), the
// loops before them over the grid; a full tile of f32 swapping the last two
// dims in 8 x 8 blocks through registers (with the kernel's other ops on
// those vectors), others element by element.
func.func @tr(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %t = kf.transpose %x [1, 0] : tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}

func.func @tr3(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %t = kf.transpose %x [2, 0, 1] : tensor<?x?x?xf32>
  %r = kf.relu %t : tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// Broadcasts run as rows of vectors: a bias over the last dim is a vector,
// a value per row one value broadcast; a row longer than a block is split.
func.func @bias(%x: tensor<?x?xf32>, %b: tensor<?xf32>, %s: tensor<?x1xf32>) -> tensor<?x?xf32> {
  %y = kf.add %x, %b : tensor<?x?xf32>, tensor<?xf32>
  %z = kf.mul %y, %s : tensor<?x?xf32>, tensor<?x1xf32>
  return %z : tensor<?x?xf32>
}

func.func @trb(%x: tensor<?x?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %t = kf.transpose %x [0, 2, 1] : tensor<?x?x?xf32>
  %y = kf.add %t, %b : tensor<?x?x?xf32>, tensor<?xf32>
  %r = kf.relu %y : tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
