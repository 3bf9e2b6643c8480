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
