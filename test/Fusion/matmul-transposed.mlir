// A matmul reads an operand transposed in its last two dims in place (the
// transpose is folded into the matmul's indexing map by kf-to-linalg), as
// eager PyTorch's GEMM reads the view: no kernel for the transpose, in the
// eager count as in the fused one. Fusion still sees one node tagged
// matmul, so the matmul-epilogue rule applies as before.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: %fusion-diff %s

// a.t() @ b: one kernel reading a and b once, writing the product:
// 8*4 + 8*16 + 4*16 = 224 elements, 896 bytes.
// CHECK-LABEL: function @at_b
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK-NEXT: transfers 3 3
// CHECK-NEXT: elements 224 224
// CHECK-NEXT: bytes 896 896
// CHECK: matmul_{{[0-9]+}} (matmul): ops matmul
// CHECK-NEXT: reads arg0 8x4xf32, arg1 8x16xf32
// CHECK: boundaries: none
func.func @at_b(%a: tensor<8x4xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %t = kf.transpose %a [1, 0] : tensor<8x4xf32>
  %0 = kf.matmul %t, %b : tensor<4x8xf32>, tensor<8x16xf32>
  return %0 : tensor<4x16xf32>
}

// a @ w.t() + bias, relu: the linear layer. Eager: matmul 3 (a, w, out),
// add 3, relu 2; fused: one kernel reading a, w, bias and writing the
// result, 4 transfers. Elements: eager 224 (matmul) + 144 (add: 64 + 16 +
// 64) + 128 (relu) = 496; fused 4*8 + 16*8 + 16 + 4*16 = 240.
// CHECK-LABEL: function @a_wt_bias_relu
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 8 4
// CHECK-NEXT: elements 496 240
// CHECK-NEXT: bytes 1984 960
// CHECK: matmul_add_relu_{{[0-9]+}} (matmul): ops matmul, add, relu
// CHECK-NEXT: reads arg0 4x8xf32, arg1 16x8xf32, arg2 16xf32
func.func @a_wt_bias_relu(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %t = kf.transpose %w [1, 0] : tensor<16x8xf32>
  %0 = kf.matmul %a, %t : tensor<4x8xf32>, tensor<8x16xf32>
  %1 = kf.add %0, %b : tensor<4x16xf32>, tensor<16xf32>
  %2 = kf.relu %1 : tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// a.t() @ b.t(): both read in place; 1 kernel, 3 transfers:
// 8*4 + 16*8 + 4*16 = 224 elements.
// CHECK-LABEL: function @at_bt
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK-NEXT: transfers 3 3
// CHECK-NEXT: elements 224 224
// CHECK: reads arg0 8x4xf32, arg1 16x8xf32
func.func @at_bt(%a: tensor<8x4xf32>, %b: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %ta = kf.transpose %a [1, 0] : tensor<8x4xf32>
  %tb = kf.transpose %b [1, 0] : tensor<16x8xf32>
  %0 = kf.matmul %ta, %tb : tensor<4x8xf32>, tensor<8x16xf32>
  return %0 : tensor<4x16xf32>
}

// Batched x @ w.transpose(-1, -2) (the batched matmul is a generic that
// reads w at (batch, n, k)): 1 kernel, 2*4*8 + 2*16*8 + 2*4*16 = 448
// elements.
// CHECK-LABEL: function @batched_x_wt
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 1 1
// CHECK-NEXT: transfers 3 3
// CHECK-NEXT: elements 448 448
// CHECK: reads arg0 2x4x8xf32, arg1 2x16x8xf32
func.func @batched_x_wt(%x: tensor<2x4x8xf32>, %w: tensor<2x16x8xf32>) -> tensor<2x4x16xf32> {
  %t = kf.transpose %w [0, 2, 1] : tensor<2x16x8xf32>
  %0 = kf.matmul %x, %t : tensor<2x4x8xf32>, tensor<2x8x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// A transpose the matmul reads and the function returns: the returned
// tensor must exist contiguous, so the transpose stays a kernel of its own
// (a copy: reads a, writes t); the matmul still reads a in place, not t,
// so the two kernels are independent (no boundary between them). 2
// kernels either way: transpose 2 transfers, matmul 3; 32 + 32 + 224 =
// 288 elements.
// CHECK-LABEL: function @transpose_returned
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
// CHECK-NEXT: transfers 5 5
// CHECK-NEXT: elements 288 288
// CHECK: ops transpose
// CHECK-NEXT: reads arg0 8x4xf32
// CHECK: ops matmul
// CHECK-NEXT: reads arg0 8x4xf32, arg1 8x16xf32
// CHECK: boundaries: none
func.func @transpose_returned(%a: tensor<8x4xf32>, %b: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x8xf32>) {
  %t = kf.transpose %a [1, 0] : tensor<8x4xf32>
  %0 = kf.matmul %t, %b : tensor<4x8xf32>, tensor<8x16xf32>
  return %0, %t : tensor<4x16xf32>, tensor<4x8xf32>
}

// A transpose of other dims (the batch dim with a matrix dim) is not read
// in place: it stays a copy kernel, and the matmul reads the copy.
// CHECK-LABEL: function @batch_transpose
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
// CHECK: (transpose -> matmul): matmul-boundary
func.func @batch_transpose(%x: tensor<2x4x8xf32>, %w: tensor<8x2x16xf32>) -> tensor<2x4x16xf32> {
  %t = kf.transpose %w [1, 0, 2] : tensor<8x2x16xf32>
  %0 = kf.matmul %x, %t : tensor<2x4x8xf32>, tensor<2x8x16xf32>
  return %0 : tensor<2x4x16xf32>
}
