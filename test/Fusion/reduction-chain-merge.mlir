// A reduction of a reduction of the same kind, the inner one read by
// nothing else, is one reduction over both ops' dims when fused
// (kf-to-linalg's merge-reductions, which the pipelines and the report set
// from the rule reduction-chain): x.sum(0).sum(0) of a 3-D x is
// x.sum((0, 1)), one kernel where eager PyTorch runs two (tinygrad forms
// one). Counts argued by hand: the merged reduction reads x once (n
// elements) and writes its result; the chain also writes and reads the
// intermediate.
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-kernel-report=reduction-chain=false -o /dev/null | FileCheck %s --check-prefix=OFF
// kf-to-linalg merges only when asked (its default: off, as eager).
// RUN: kfuse-opt %s -split-input-file --kf-to-linalg=merge-reductions=true | FileCheck %s --check-prefix=LINALG
// The merged reduction against the chain run op by op (eager, on the CPU),
// and through the emulated GPU mapping.
// RUN: %fusion-diff %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-pipeline %s
// And against numpy's float64 sum over both dims (an independent
// reference), run fused (merged) through kfuse-run on the CPU: 3000
// normal values a result, sums of magnitude about 55 whose f32 ulp is
// 3.8e-6 to 7.6e-6; a compensated sum rounded once is within an ulp, so
// 1e-5 absolute (the numpy side is float64, whose default tolerance would
// be 1e-12).
// RUN: %run-check %S/Inputs/sum-sum-3d.mlir --input "arg0=f32[60,50,7]" \
// RUN:   --expect "arg0.astype(np.float64).sum(axis=(0, 1))" --rtol=0 --atol=1e-5 \
// RUN:   -- --device=cpu --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=NUMPY
// NUMPY: sum_sum

// sum over dim 0, then over the new dim 0 (x's dim 1): dims [0, 1] of x.
// 6x5x7 = 210 elements in, 7 out: 217 fused; the chain adds 35 + 35.
// CHECK-LABEL: function @leading
// CHECK: kernels {{ *}}2 {{ *}}1
// CHECK: elements {{ *}}287 {{ *}}217
// CHECK: reduction_sum_0 (reduction): ops sum
// CHECK-NEXT: reads arg0 6x5x7xf32
// CHECK-NEXT: writes reduction_sum_0#0 7xf32
// OFF-LABEL: function @leading
// OFF: kernels {{ *}}2 {{ *}}2
// LINALG-LABEL: func.func @leading
// LINALG: linalg.generic {{.*}}iterator_types = ["reduction", "reduction", "parallel"]
// LINALG-NOT: linalg.generic
func.func @leading(%x: tensor<6x5x7xf32>) -> tensor<7xf32> {
  %a = kf.sum %x dims [0] : tensor<6x5x7xf32>
  %s = kf.sum %a dims [0] : tensor<5x7xf32>
  return %s : tensor<7xf32>
}

// -----

// max over the last dim, then over dim 1 of that (x's dim 1): the two
// trailing dims, a row reduction of 35 elements a row.
// CHECK-LABEL: function @trailing_max
// CHECK: kernels {{ *}}2 {{ *}}1
// CHECK: reduction_max_0 (reduction): ops max
// CHECK: runs as row
// LINALG-LABEL: func.func @trailing_max
// LINALG: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]
// LINALG-NOT: linalg.generic
func.func @trailing_max(%x: tensor<6x5x7xf32>) -> tensor<6xf32> {
  %a = kf.max %x dims [2] : tensor<6x5x7xf32>
  %s = kf.max %a dims [1] : tensor<6x5xf32>
  return %s : tensor<6xf32>
}

// -----

// keepdim on both: the reduced dims stay as size 1, merged the same.
// CHECK-LABEL: function @keepdim_min
// CHECK: kernels {{ *}}2 {{ *}}1
// LINALG-LABEL: func.func @keepdim_min
// LINALG: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]
// LINALG-NOT: linalg.generic
// LINALG: tensor.expand_shape {{.*}} into tensor<4x1x1xf32>
func.func @keepdim_min(%x: tensor<4x6x8xf32>) -> tensor<4x1x1xf32> {
  %a = kf.min %x dims [2] keepdim : tensor<4x6x8xf32>
  %s = kf.min %a dims [1] keepdim : tensor<4x6x1xf32>
  return %s : tensor<4x1x1xf32>
}

// -----

// Not merged: the intermediate is also returned (it must be written).
// CHECK-LABEL: function @intermediate_read
// CHECK: kernels {{ *}}2 {{ *}}2
// LINALG-LABEL: func.func @intermediate_read
// LINALG-COUNT-2: linalg.generic {{.*}}"reduction"
func.func @intermediate_read(%x: tensor<6x5x7xf32>) -> (tensor<5x7xf32>, tensor<7xf32>) {
  %a = kf.sum %x dims [0] : tensor<6x5x7xf32>
  %s = kf.sum %a dims [0] : tensor<5x7xf32>
  return %a, %s : tensor<5x7xf32>, tensor<7xf32>
}

// -----

// Not merged: a sum of maxima is no single reduction.
// CHECK-LABEL: function @different_kinds
// CHECK: kernels {{ *}}2 {{ *}}2
func.func @different_kinds(%x: tensor<6x5x7xf32>) -> tensor<7xf32> {
  %a = kf.max %x dims [0] : tensor<6x5x7xf32>
  %s = kf.sum %a dims [0] : tensor<5x7xf32>
  return %s : tensor<7xf32>
}

// -----

// Not merged: keepdim on one of them only (the merged shape could not say
// which reduced dims stay).
// CHECK-LABEL: function @mixed_keepdim
// CHECK: kernels {{ *}}2 {{ *}}2
func.func @mixed_keepdim(%x: tensor<6x5x7xf32>) -> tensor<7xf32> {
  %a = kf.sum %x dims [0] keepdim : tensor<6x5x7xf32>
  %s = kf.sum %a dims [0, 1] : tensor<1x5x7xf32>
  return %s : tensor<7xf32>
}

// -----

// Not merged: a full reduction of a row reduction is one row_chain kernel
// as written (reduction-chains.mlir).
// CHECK-LABEL: function @full
// CHECK: kernels {{ *}}2 {{ *}}1
// CHECK: runs as row_chain
// LINALG-LABEL: func.func @full
// LINALG-COUNT-2: linalg.generic {{.*}}"reduction"
func.func @full(%x: tensor<6x5x7xf32>) -> tensor<f32> {
  %a = kf.sum %x dims [1, 2] : tensor<6x5x7xf32>
  %s = kf.sum %a : tensor<6xf32>
  return %s : tensor<f32>
}

// -----

// Integers: sum(int32) is int64 (PyTorch's promotion), and so is the sum
// of that: merged, exact either way.
// CHECK-LABEL: function @integers
// CHECK: kernels {{ *}}2 {{ *}}1
func.func @integers(%x: tensor<3x4x5xi32>) -> tensor<5xi64> {
  %a = kf.sum %x dims [0] : tensor<3x4x5xi32>
  %s = kf.sum %a dims [0] : tensor<4x5xi64>
  return %s : tensor<5xi64>
}
