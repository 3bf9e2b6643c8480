// Issue 27 (item 0): a kernel that read a reduction before it was written.
// `s = x.sum(1, keepdim=True); y = s + s.T` on a square x was formed into
// one row kernel: each edge alone reads in place (the transpose of the
// [n, 1] sums is their [1, n] view; the add iterates over the rows x
// columns of the sum), but through the transpose element [i, j] reads row
// j's sum, which another block writes. [[1, 2], [3, 4]] gave [[6, 3],
// [10, 14]]; larger inputs read uninitialized memory. Only square shapes
// were formed (a 4x7 x makes a 4x4 add: no row of the sum's space). The
// rule now follows the index map from each op of the kernel to the row
// of the reduction it reads, through every op in between.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-compile %s --emit=lib -o %t.so

// CHECK-LABEL: function @sum_plus_transpose
// CHECK: kernels 3 2
// CHECK: (transpose -> add): other-row
// The numbers, hand-computed: row sums 3 and 7; [[3+3, 3+7], [7+3, 7+7]].
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.array([[1, 2], [3, 4]], np.float32))"
// RUN: kfuse-run %t.so --entry sum_plus_transpose --device=cpu --repeat=0 --quiet \
// RUN:   --input=arg0=%t.x.npy --output=result0=%t.y.npy
// RUN: %python -c "import numpy as np; print(np.load('%t.y.npy').tolist())" | FileCheck %s --check-prefix=HAND
// HAND: {{\[\[}}6.0, 10.0], [10.0, 14.0]]
// Against numpy at larger square sizes.
// RUN: %run-check %t.so --input "arg0=f32[64x64]" --expect "arg0.sum(1, keepdims=True) + arg0.sum(1, keepdims=True).T" \
// RUN:   -- --entry sum_plus_transpose_64 --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMBERS
// NUMBERS: run_check: result0 float32[{{.*}}] matches numpy
func.func @sum_plus_transpose(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %s = kf.sum %x dims [1] keepdim : tensor<2x2xf32>
  %t = kf.transpose %s [1, 0] : tensor<2x1xf32>
  %y = kf.add %s, %t : tensor<2x1xf32>, tensor<1x2xf32>
  return %y : tensor<2x2xf32>
}


// At 64x64 the GPU mapping's check keeps even the sum and the transpose
// apart; what matters is that no kernel holds the sum and the add.
// CHECK-LABEL: function @sum_plus_transpose_64
// CHECK-NOT: ops sum, {{.*}}add
// CHECK: boundaries:
func.func @sum_plus_transpose_64(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = kf.sum %x dims [1] keepdim : tensor<64x64xf32>
  %t = kf.transpose %s [1, 0] : tensor<64x1xf32>
  %y = kf.add %s, %t : tensor<64x1xf32>, tensor<1x64xf32>
  return %y : tensor<64x64xf32>
}


// A column sum of an intermediate that a row kernel makes, transposed and
// broadcast back over the input: element [i, j] needs column i's sum, the
// column sum's block owns column j.
// CHECK-LABEL: function @column_sum_read_back
// CHECK: other-row
// RUN: %run-check %t.so --input "arg0=f32[8x8]" \
// RUN:   --expect "arg0 + np.exp(arg0 - arg0.max(1, keepdims=True)).sum(0, keepdims=True).T" \
// RUN:   -- --entry column_sum_read_back --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMBERS
func.func @column_sum_read_back(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = kf.max %x dims [1] keepdim : tensor<8x8xf32>
  %d = kf.sub %x, %m : tensor<8x8xf32>, tensor<8x1xf32>
  %e = kf.exp %d : tensor<8x8xf32>
  %c = kf.sum %e dims [0] keepdim : tensor<8x8xf32>
  %t = kf.transpose %c [1, 0] : tensor<1x8xf32>
  %y = kf.add %x, %t : tensor<8x8xf32>, tensor<8x1xf32>
  return %y : tensor<8x8xf32>
}


// Read at its own row through the same views, the sums still share the
// row kernel: `s.T.T + x` is `s + x`.
// CHECK-LABEL: function @own_row_through_transposes
// CHECK: kernels 2 1
// CHECK: boundaries: none
// RUN: %run-check %t.so --input "arg0=f32[16x16]" --expect "arg0 + arg0.sum(1, keepdims=True)" \
// RUN:   -- --entry own_row_through_transposes --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMBERS
func.func @own_row_through_transposes(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s = kf.sum %x dims [1] keepdim : tensor<16x16xf32>
  %t = kf.transpose %s [1, 0] : tensor<16x1xf32>
  %u = kf.transpose %t [1, 0] : tensor<1x16xf32>
  %y = kf.add %x, %u : tensor<16x16xf32>, tensor<16x1xf32>
  return %y : tensor<16x16xf32>
}

// A small reduction (a column sum over 2 rows, unrolled in a thread per
// result) read back transposed: the thread of [i, j] read the sum that
// the thread of column i computes. Found by the emulated GPU fuzzing
// (seed 2702): nan and -inf against numpy's values. Checked on the CPU
// against numpy and through the GPU mappings run as host loops.
// CHECK-LABEL: function @small_column_sum_read_back
// CHECK: (transpose -> sub): other-row
// RUN: %run-check %t.so --input "arg0=f32[2x2]" \
// RUN:   --expect "np.cos(((1 / arg0.sum(0, keepdims=True)).T - arg0).sum(1, keepdims=True))" \
// RUN:   -- --entry small_column_sum_read_back --device=cpu --repeat=0 | FileCheck %s --check-prefix=NUMBERS
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline %s
func.func @small_column_sum_read_back(%x: tensor<2x2xf32>) -> tensor<2x1xf32> {
  %s = kf.sum %x dims [0] keepdim : tensor<2x2xf32>
  %r = kf.reciprocal %s : tensor<1x2xf32>
  %t = kf.transpose %r [1, 0] : tensor<1x2xf32>
  %d = kf.sub %t, %x : tensor<2x1xf32>, tensor<2x2xf32>
  %e = kf.sum %d dims [1] keepdim : tensor<2x2xf32>
  %c = kf.cos %e : tensor<2x1xf32>
  return %c : tensor<2x1xf32>
}
