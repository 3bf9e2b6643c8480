// Sizes with dynamic dims are polynomials in d0, d1, ... (the dynamic dims
// of the arguments, in order), and numbers when the user gives them.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s --check-prefix=SYM
// RUN: kfuse-opt %s --kf-kernel-report=dims=d0=1000 -o /dev/null | FileCheck %s --check-prefix=NUM
// RUN: %fusion-diff %s
// DIMS: 5

// relu(x + b) with x [d0, 8] and b [8]. Eager: add reads 8*d0 + 8 and
// writes 8*d0 (16*d0 + 8); relu reads and writes 8*d0 (16*d0): 32*d0 + 8
// elements; fused 16*d0 + 8. At d0 = 1000: 32008 and 16008; f32 bytes are
// four times that.
// SYM-LABEL: function @bias_relu
// SYM-NEXT: eager fused
// SYM-NEXT: kernels 2 1
// SYM-NEXT: transfers 5 3
// SYM-NEXT: elements 32*d0 + 8 16*d0 + 8
// SYM-NEXT: bytes 128*d0 + 32 64*d0 + 32
// SYM-NEXT: d0 = dim 0 of arg 0
// SYM: reads arg0 ?x8xf32, arg1 8xf32
// NUM-LABEL: function @bias_relu
// NUM-NEXT: eager fused
// NUM-NEXT: kernels 2 1
// NUM-NEXT: transfers 5 3
// NUM-NEXT: elements 32008 16008
// NUM-NEXT: bytes 128032 64032
// NUM-NEXT: d0 = dim 0 of arg 0 = 1000
func.func @bias_relu(%x: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = kf.add %x, %b : tensor<?x8xf32>, tensor<8xf32>
  %1 = kf.relu %0 : tensor<?x8xf32>
  return %1 : tensor<?x8xf32>
}

// Two dynamic dims and a row sum: exp reads and writes d0*d1, sum reads
// d0*d1 and writes d0. Fused: d0*d1 + d0.
// SYM-LABEL: function @row_sum
// SYM-NEXT: eager fused
// SYM-NEXT: kernels 2 1
// SYM-NEXT: transfers 4 2
// SYM-NEXT: elements 3*d0*d1 + d0 d0*d1 + d0
// SYM-NEXT: bytes 12*d0*d1 + 4*d0 4*d0*d1 + 4*d0
// SYM-NEXT: d0 = dim 0 of arg 0
// SYM-NEXT: d1 = dim 1 of arg 0
func.func @row_sum(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = kf.exp %x : tensor<?x?xf32>
  %1 = kf.sum %0 dims [1] : tensor<?x?xf32>
  return %1 : tensor<?xf32>
}

// A reshape of a dynamic tensor: the eager kernels' sizes are `affine.apply`
// (s0 * 3) of the argument's dim, read as 3*d0 (not as a fresh symbol that
// the report would not name). exp reads and writes 3*d0, sin the same:
// eager 12*d0 elements, fused 6*d0 (exp's result stays in the kernel).
// SYM-LABEL: function @flatten_dynamic
// SYM-NEXT: eager fused
// SYM-NEXT: kernels 2 1
// SYM-NEXT: transfers 4 2
// SYM-NEXT: elements 12*d0 6*d0
// SYM-NEXT: bytes 48*d0 24*d0
// SYM-NEXT: d0 = dim 1 of arg 0
// SYM-NOT: d1 =
func.func @flatten_dynamic(%x: tensor<3x?xf32>) -> tensor<?xf32> {
  %0 = kf.reshape %x [-1] : tensor<3x?xf32>
  %1 = kf.exp %0 : tensor<?xf32>
  %2 = kf.sin %1 : tensor<?xf32>
  return %2 : tensor<?xf32>
}

// A size that is no polynomial of the argument dims: the rows of a
// [d0, 2] tensor reshaped to rows of 8 are (2*d0) / 8. It is a symbol
// named by that expression, the same in the eager and fused columns. cos
// reads the argument (2*d0 bf16) and writes 8*d1, sin reads and writes
// 8*d1: eager 24*d1 + 2*d0 elements, fused 8*d1 + 2*d0; two bytes each.
// SYM-LABEL: function @rows_of_eight
// SYM-NEXT: eager fused
// SYM-NEXT: kernels 2 1
// SYM-NEXT: transfers 4 2
// SYM-NEXT: elements 24*d1 + 2*d0 8*d1 + 2*d0
// SYM-NEXT: bytes 48*d1 + 4*d0 16*d1 + 4*d0
// SYM-NEXT: d0 = dim 0 of arg 0
// SYM-NEXT: d1 = (2*d0) / 8
// SYM-NOT: d2 =
// DIMS @rows_of_eight: 12
func.func @rows_of_eight(%x: tensor<?x2xbf16>) -> tensor<?x8xbf16> {
  %0 = kf.reshape %x [-1, 8] : tensor<?x2xbf16>
  %1 = kf.cos %0 : tensor<?x8xbf16>
  %2 = kf.sin %1 : tensor<?x8xbf16>
  return %2 : tensor<?x8xbf16>
}
