// kf-propagate-reshapes: an op that reads through an expanding reshape, or
// is read through a collapsing one, iterates over the collapsed dims, and
// the reshape moves to its other side. The ops keep their kf attributes.
// RUN: kfuse-opt %s --kf-to-linalg --kf-propagate-reshapes -split-input-file | FileCheck %s
// RUN: kfuse-opt %s --kf-to-linalg --kf-propagate-reshapes -split-input-file --remarks-filter=kf-form-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// The GELU after a 3-D Linear runs over the matmul's [32, 64]; the expand
// is now its result's.
// CHECK-LABEL: func.func @reader_of_expand
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK: %[[G:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[MM]] : tensor<32x64xf32>) {{.*}}kf.op = "gelu"
// CHECK: %[[E:.*]] = tensor.expand_shape %[[G]] {{\[}}[0, 1], [2]] output_shape [2, 16, 64]
// CHECK: return %[[E]]
// REMARK: remark: [Passed] reshape-propagation | Category:kf-form-kernels:passed | Function=reader_of_expand | Remark="gelu runs over 2 loops instead of 3: a reshape moved past it"
func.func @reader_of_expand(%x: tensor<32x32xf32>, %w: tensor<32x64xf32>) -> tensor<2x16x64xf32> {
  %m = kf.matmul %x, %w : tensor<32x32xf32>, tensor<32x64xf32>
  %y = kf.reshape %m [2, 16, 64] : tensor<32x64xf32>
  %g = kf.gelu %y : tensor<2x16x64xf32>
  return %g : tensor<2x16x64xf32>
}

// -----

// A 3-D elementwise op read by a matmul through the collapse: it runs over
// the matmul operand's [32, 32] and reads its argument collapsed (a view).
// CHECK-LABEL: func.func @writer_of_collapse
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]]
// CHECK: %[[T:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<32x32xf32>) {{.*}}kf.op = "tanh"
// CHECK: linalg.matmul {{.*}}ins(%[[T]], %arg1
func.func @writer_of_collapse(%x: tensor<2x16x32xf32>, %w: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %t = kf.tanh %x : tensor<2x16x32xf32>
  %t2 = kf.reshape %t [32, 32] : tensor<2x16x32xf32>
  %m = kf.matmul %t2, %w : tensor<32x32xf32>, tensor<32x64xf32>
  return %m : tensor<32x64xf32>
}

// -----

// A reduction over the trailing dim with the leading dims collapsed: the
// row sum reads the matmul's rows (parallel dims group with parallel dims).
// CHECK-LABEL: func.func @reduction_rows
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[MM]] : tensor<32x64xf32>) {{.*}}kf.op = "sum"
func.func @reduction_rows(%x: tensor<32x32xf32>, %w: tensor<32x64xf32>) -> tensor<2x16xf32> {
  %m = kf.matmul %x, %w : tensor<32x32xf32>, tensor<32x64xf32>
  %y = kf.reshape %m [2, 16, 64] : tensor<32x64xf32>
  %s = kf.sum %y dims [2] : tensor<2x16x64xf32>
  return %s : tensor<2x16xf32>
}

// -----

// Not moved: the mean reduces the head's 16 of the 64 dims a row holds, a
// group of one reduced and one parallel loop, so it cannot collapse, and
// collapsing the square before it would only move the reshape between the
// two.
// CHECK-LABEL: func.func @per_head_mean
// CHECK: tensor.expand_shape {{.*}} into tensor<4x4x16xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} {{.*}}kf.op = "mul"
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} {{.*}}kf.op = "mean"
// REMARK-NOT: Function=per_head_mean
func.func @per_head_mean(%x: tensor<4x32xf32>, %w: tensor<32x64xf32>) -> tensor<4x4xf32> {
  %q = kf.matmul %x, %w : tensor<4x32xf32>, tensor<32x64xf32>
  %q3 = kf.reshape %q [4, 4, 16] : tensor<4x64xf32>
  %sq = kf.mul %q3, %q3 : tensor<4x4x16xf32>, tensor<4x4x16xf32>
  %ms = kf.mean %sq dims [2] : tensor<4x4x16xf32>
  return %ms : tensor<4x4xf32>
}

// -----

// Not moved: a slice reads at an offset (`d2 + 8`), which collapsed loops
// cannot express; a batched matmul keeps its own loops.
// CHECK-LABEL: func.func @slice_and_batched_matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} {{.*}}kf.op = "slice"
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} {{.*}}kf.op = "matmul"
// REMARK-NOT: Function=slice_and_batched_matmul
func.func @slice_and_batched_matmul(%x: tensor<32x16xf32>, %w: tensor<2x8x4xf32>) -> tensor<2x16x4xf32> {
  %e = kf.exp %x : tensor<32x16xf32>
  %y = kf.reshape %e [2, 16, 16] : tensor<32x16xf32>
  %s = kf.slice %y starts [0, 0, 8] ends [2, 16, 16] steps [1, 1, 1] : tensor<2x16x16xf32>
  %m = kf.matmul %s, %w : tensor<2x16x8xf32>, tensor<2x8x4xf32>
  return %m : tensor<2x16x4xf32>
}

// -----

// The other way: the sum reduces the 4 of a [4, 16] group of each row's
// 64, so it cannot run over the add's [8, 64]; the add (its only reader
// is the reshape) runs over [8, 4, 16] instead, reading x and y expanded.
// CHECK-LABEL: func.func @writer_of_expand
// CHECK-DAG: %[[X:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [8, 4, 16]
// CHECK-DAG: %[[Y:.*]] = tensor.expand_shape %arg1 {{\[}}[0], [1, 2]] output_shape [8, 4, 16]
// CHECK: %[[A:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[Y]] : {{.*}}kf.op = "add"
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[A]] : tensor<8x4x16xf32>) {{.*}}kf.op = "sum"
// REMARK: remark: [Passed] reshape-propagation | Category:kf-form-kernels:passed | Function=writer_of_expand | Remark="add runs over 3 loops instead of 2: a reshape moved before it, for a reduction that reads it"
func.func @writer_of_expand(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> tensor<8x16xf32> {
  %a = kf.add %x, %y : tensor<8x64xf32>, tensor<8x64xf32>
  %v = kf.reshape %a [8, 4, 16] : tensor<8x64xf32>
  %s = kf.sum %v dims [1] : tensor<8x4x16xf32>
  return %s : tensor<8x16xf32>
}

// -----

// Not expanded: the add has a second reader in its own shape, which would
// then read it through a collapse.
// CHECK-LABEL: func.func @expand_with_other_reader
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} {{.*}}kf.op = "add"
// REMARK-NOT: Function=expand_with_other_reader
func.func @expand_with_other_reader(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<8x64xf32>) {
  %a = kf.add %x, %y : tensor<8x64xf32>, tensor<8x64xf32>
  %v = kf.reshape %a [8, 4, 16] : tensor<8x64xf32>
  %s = kf.sum %v dims [1] : tensor<8x4x16xf32>
  %e = kf.exp %a : tensor<8x64xf32>
  return %s, %e : tensor<8x16xf32>, tensor<8x64xf32>
}
