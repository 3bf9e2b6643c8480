// The multi-reduction rule (issue 26, item 2): reductions of one tensor
// over its trailing dims (its rows) and over its leading dims (its
// columns), each with elementwise ops over its own results, are one kernel
// that reads the tensor once (tinygrad's multireduce; mapping
// multi_reduction, gpu/rows/MultiReductions.cpp). `multi-reduction=false`
// keeps a kernel a family, as before. Counts argued by hand: each kernel
// reads each input once and writes each result once.
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s --kf-kernel-report=multi-reduction=false -o /dev/null | FileCheck %s --check-prefix=OFF
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --remarks-filter-passed=kf-form-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// Results: the CPU pipeline and the GPU mapping (emulated, blocks in order
// and from the last) against the unfused CPU run; numpy's are in
// test/GPU/multi-reductions.mlir.
// RUN: %fusion-diff %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-6 --candidate=--kf-gpu-emulation-reversed-pipeline %s

// x.sum(0) and x.sum(1) of one x [64, 32] (tinygrad: 1 kernel). Eager:
// (2048 in + 32 out) + (2048 in + 64 out) = 4192 elements in 4 transfers;
// fused: 2048 + 32 + 64 = 2144 in 3.
// CHECK-LABEL: function @sum_both_axes
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 3
// CHECK-NEXT: elements 4192 2144
// CHECK: reduction_sum_sum_{{[0-9]+}} (reduction): ops sum, sum
// CHECK: runs as multi_reduction
// CHECK: boundaries: none
// OFF-LABEL: function @sum_both_axes
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 2 2
// REMARK: remark: [Passed] kernel-fusion | Category:kf-form-kernels:passed | Function=sum_both_axes | Reason="multi-reduction: one pass over the tensor they both reduce, one over its rows, one over its columns", Remark="sum and sum fused into reduction_sum_sum_{{[0-9]+}}"
func.func @sum_both_axes(%x: tensor<64x32xf32>) -> (tensor<32xf32>, tensor<64xf32>) {
  %a = kf.sum %x dims [0] : tensor<64x32xf32>
  %b = kf.sum %x dims [1] : tensor<64x32xf32>
  return %a, %b : tensor<32xf32>, tensor<64xf32>
}

// Four reductions, sum and max over both axes: the siblings of each axis
// join first, then the two axes. Eager 4 x 2048 in + 2 x 32 + 2 x 64 out
// = 8384 elements in 8 transfers; fused 2048 + 192 in 5.
// CHECK-LABEL: function @sum_max_both_axes
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK-NEXT: transfers 8 5
// CHECK-NEXT: elements 8384 2240
// CHECK: runs as multi_reduction
// REMARK: Function=sum_max_both_axes | Reason="siblings: both read the same tensor", Remark="sum and max fused
// REMARK: Function=sum_max_both_axes | Reason="multi-reduction: {{.*}}", Remark="sum and sum fused
// OFF-LABEL: function @sum_max_both_axes
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 4 2
func.func @sum_max_both_axes(%x: tensor<64x32xf32>) -> (tensor<32xf32>, tensor<32xf32>, tensor<64xf32>, tensor<64xf32>) {
  %a = kf.sum %x dims [0] : tensor<64x32xf32>
  %b = kf.max %x dims [0] : tensor<64x32xf32>
  %c = kf.sum %x dims [1] : tensor<64x32xf32>
  %d = kf.max %x dims [1] : tensor<64x32xf32>
  return %a, %b, %c, %d : tensor<32xf32>, tensor<32xf32>, tensor<64xf32>, tensor<64xf32>
}

// Epilogues on both sides: mean(0) (its division) times a weight, and
// mean(1) keepdim (the unit dim a reshape outside the kernel). Eager:
// mean 2048 + 32, mul 32 + 32 + 32, mean 2048 + 64: 4288 in 6 transfers;
// fused reads x and w, writes both results: 2048 + 32 + 32 + 64 = 2176
// in 4.
// CHECK-LABEL: function @means_and_epilogue
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 7 4
// CHECK-NEXT: elements 4288 2176
// CHECK: reduction_mean_mul_mean_{{[0-9]+}} (reduction): ops mean, mul, mean
// CHECK: runs as multi_reduction
// OFF-LABEL: function @means_and_epilogue
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 3 2
func.func @means_and_epilogue(%x: tensor<64x32xf32>, %w: tensor<32xf32>) -> (tensor<32xf32>, tensor<64x1xf32>) {
  %a = kf.mean %x dims [0] : tensor<64x32xf32>
  %aw = kf.mul %a, %w : tensor<32xf32>, tensor<32xf32>
  %b = kf.mean %x dims [1] keepdim : tensor<64x32xf32>
  return %aw, %b : tensor<32xf32>, tensor<64x1xf32>
}

// Three dims: over the last (rows [4, 8]) and over the first two (columns
// [16]) split the dims at the same place: one kernel. Eager 2 x 512 in +
// 32 + 16 out = 1072; fused 512 + 48 = 560.
// CHECK-LABEL: function @three_dims
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 3
// CHECK-NEXT: elements 1072 560
// CHECK: runs as multi_reduction
func.func @three_dims(%x: tensor<4x8x16xf32>) -> (tensor<4x8xf32>, tensor<16xf32>) {
  %a = kf.sum %x dims [2] : tensor<4x8x16xf32>
  %b = kf.max %x dims [0, 1] : tensor<4x8x16xf32>
  return %a, %b : tensor<4x8xf32>, tensor<16xf32>
}

// A prologue: both reductions read x * x, which the kernel computes from
// x at each element (never written). Eager: mul (2048 in, 2048 out), sum
// (2048, 32), max (2048, 64) = 8288 in 6 transfers; fused 2048 + 96 in 3.
// CHECK-LABEL: function @squares
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 6 3
// CHECK-NEXT: elements 8288 2144
// CHECK: reduction_mul_sum_max_{{[0-9]+}} (reduction): ops mul, sum, max
// CHECK: runs as multi_reduction
// OFF-LABEL: function @squares
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 3 2
func.func @squares(%x: tensor<64x32xf32>) -> (tensor<32xf32>, tensor<64xf32>) {
  %e = kf.mul %x, %x : tensor<64x32xf32>, tensor<64x32xf32>
  %a = kf.sum %e dims [0] : tensor<64x32xf32>
  %b = kf.max %e dims [1] : tensor<64x32xf32>
  return %a, %b : tensor<32xf32>, tensor<64xf32>
}

// A prologue whose value is also a result: exp(x + b) is written once, as
// the kernel computes it, and reduced over both axes. Eager: add (2048 +
// 32 in, 2048 out), exp (2048, 2048), sum (2048, 32), sum (2048, 64) =
// 12416 in 9 transfers; fused reads x and b, writes the three results:
// 2048 + 32 + 2048 + 96 = 4224 in 5.
// CHECK-LABEL: function @prologue_returned
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK-NEXT: transfers 9 5
// CHECK-NEXT: elements 12416 4224
// CHECK: runs as multi_reduction
func.func @prologue_returned(%x: tensor<64x32xf32>, %bias: tensor<32xf32>) -> (tensor<64x32xf32>, tensor<32xf32>, tensor<64xf32>) {
  %s = kf.add %x, %bias : tensor<64x32xf32>, tensor<32xf32>
  %e = kf.exp %s : tensor<64x32xf32>
  %a = kf.sum %e dims [0] : tensor<64x32xf32>
  %b = kf.sum %e dims [1] : tensor<64x32xf32>
  return %e, %a, %b : tensor<64x32xf32>, tensor<32xf32>, tensor<64xf32>
}

// Not one kernel: over dim 0 and over dim 2 of [4, 8, 16] leave dim 1
// parallel in both, so neither reduction's results are the other's rows
// or columns (no band of rows finishes either).
// CHECK-LABEL: function @not_complementary
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
func.func @not_complementary(%x: tensor<4x8x16xf32>) -> (tensor<8x16xf32>, tensor<4x8xf32>) {
  %a = kf.sum %x dims [0] : tensor<4x8x16xf32>
  %b = kf.sum %x dims [2] : tensor<4x8x16xf32>
  return %a, %b : tensor<8x16xf32>, tensor<4x8xf32>
}

// Not one kernel: the column sum reduces exp(x), the row sum x itself:
// two tensors, each read by one side (2 kernels, as with the rule off).
// CHECK-LABEL: function @prologue_on_one_side
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 2
func.func @prologue_on_one_side(%x: tensor<64x32xf32>) -> (tensor<32xf32>, tensor<64xf32>) {
  %e = kf.exp %x : tensor<64x32xf32>
  %a = kf.sum %e dims [0] : tensor<64x32xf32>
  %b = kf.sum %x dims [1] : tensor<64x32xf32>
  return %a, %b : tensor<32xf32>, tensor<64xf32>
}

// Not one kernel: the row sums are read back over the rows (x - x.sum(1),
// a row kernel that writes rows x columns), which the mapping does not
// run: the row kernel and the column sum stay apart.
// CHECK-LABEL: function @row_read_back
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 2
func.func @row_read_back(%x: tensor<64x32xf32>) -> (tensor<32xf32>, tensor<64x32xf32>) {
  %a = kf.sum %x dims [0] : tensor<64x32xf32>
  %s = kf.sum %x dims [1] keepdim : tensor<64x32xf32>
  %d = kf.sub %x, %s : tensor<64x32xf32>, tensor<64x1xf32>
  return %a, %d : tensor<32xf32>, tensor<64x32xf32>
}
