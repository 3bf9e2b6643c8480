// Reduction chains and small reductions (issue 12, item 3). A reduction
// over the trailing dims feeding a full reduction of its results is one
// kernel (`reduction-chain`: a block per row, the last block to finish
// combines the rows' results); two reductions over the same rows (mean,
// then variance) are one row kernel; a static reduction of at most 8
// elements whose producers it can compute itself runs a thread per result
// (`small-reduction`, the flat mapping).
// RUN: kfuse-opt %s --kf-kernel-report -o /dev/null | FileCheck %s
// RUN: kfuse-opt %s "--kf-kernel-report=reduction-chain=false small-reduction=false" -o /dev/null | FileCheck %s --check-prefix=OFF
// RUN: kfuse-opt %s --kf-to-linalg --kf-form-kernels --kf-assign-kernel-mappings | FileCheck %s --check-prefix=MAP
// RUN: %fusion-diff %s
// RUN: %fusion-diff --candidate=--kf-gpu-emulation-pipeline --rtol 1e-5 %s

// x.sum(1).sum(0): eager (2048 + 64) + (64 + 1); fused reads x, writes 1.
// CHECK-LABEL: function @sum_sum
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 4 2
// CHECK-NEXT: elements 2177 2049
// CHECK: reduction_sum_sum_{{[0-9]+}} (reduction): ops sum, sum
// OFF-LABEL: function @sum_sum
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 2 2
// OFF: (sum -> sum): rule-disabled: reduction-chain=false
// MAP-LABEL: func.func @sum_sum
// MAP: kf.kernel "reduction_sum_sum_{{[0-9]+}}" kind reduction mapping row_chain
func.func @sum_sum(%x: tensor<64x32xf32>) -> tensor<f32> {
  %a = kf.sum %x dims [1] : tensor<64x32xf32>
  %b = kf.sum %a dims [0] : tensor<64xf32>
  return %b : tensor<f32>
}

// The row maxima are returned too, and exp sits between the reductions:
// eager max 2, exp 2, mean 2; fused reads x, writes a and b.
// CHECK-LABEL: function @max_exp_mean
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 6 3
// CHECK-NEXT: elements 2305 2113
func.func @max_exp_mean(%x: tensor<64x32xf32>) -> (tensor<64xf32>, tensor<f32>) {
  %a = kf.max %x dims [1] : tensor<64x32xf32>
  %e = kf.exp %a : tensor<64xf32>
  %b = kf.mean %e : tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<f32>
}

// keepdim between the two: a unit dim is no boundary.
// CHECK-LABEL: function @sum_keepdim_sum
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
func.func @sum_keepdim_sum(%x: tensor<64x32xf32>) -> tensor<f32> {
  %a = kf.sum %x dims [1] keepdim : tensor<64x32xf32>
  %b = kf.sum %a : tensor<64x1xf32>
  return %b : tensor<f32>
}

// A full reduction read back over its input needs every block to wait for
// it: a boundary, in both directions the same reason.
// CHECK-LABEL: function @full_read_back
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
// CHECK: (sum -> sub): producer-reduction
func.func @full_read_back(%x: tensor<64xf32>) -> tensor<64xf32> {
  %s = kf.sum %x : tensor<64xf32>
  %y = kf.sub %x, %s : tensor<64xf32>, tensor<f32>
  return %y : tensor<64xf32>
}

// (x - x.mean(-1, keepdim)).pow(2).mean(-1), returning the mean too: two
// reductions over the same rows, one row kernel. Eager mean 2, sub 3,
// pow 2, mean 2; fused reads x, writes both means. kf-to-linalg writes
// pow(d, 2) as d * d, as PyTorch computes it (the kernel's name says mul).
// CHECK-LABEL: function @var_mean
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 4 1
// CHECK-NEXT: transfers 9 3
// CHECK: reduction_mean_sub_mul_mean_{{[0-9]+}} (reduction)
// MAP-LABEL: func.func @var_mean
// MAP: kind reduction mapping row
func.func @var_mean(%x: tensor<64x32xf32>) -> (tensor<64x1xf32>, tensor<64xf32>) {
  %m = kf.mean %x dims [-1] keepdim : tensor<64x32xf32>
  %d = kf.sub %x, %m : tensor<64x32xf32>, tensor<64x1xf32>
  %two = kf.constant dense<2.0> : tensor<f32>
  %p = kf.pow %d, %two : tensor<64x32xf32>, tensor<f32>
  %v = kf.mean %p dims [-1] : tensor<64x32xf32>
  return %m, %v : tensor<64x1xf32>, tensor<64xf32>
}

// x - x.mean(0): a reduction over the leading dim read back over its
// input is one kernel (a block per column, its threads striding down the
// rows), directly or through one more op. Eager mean 2 + sub 3.
// CHECK-LABEL: function @mean0
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 5 2
// CHECK-LABEL: function @mean0_through_mul
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// MAP-LABEL: func.func @mean0
// MAP: kind reduction mapping row
func.func @mean0(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %m = kf.mean %x dims [0] : tensor<64x32xf32>
  %y = kf.sub %x, %m : tensor<64x32xf32>, tensor<32xf32>
  return %y : tensor<64x32xf32>
}
func.func @mean0_through_mul(%x: tensor<64x32xf32>, %w: tensor<32xf32>) -> tensor<64x32xf32> {
  %m = kf.mean %x dims [0] : tensor<64x32xf32>
  %k = kf.mul %m, %w : tensor<32xf32>, tensor<32xf32>
  %y = kf.sub %x, %k : tensor<64x32xf32>, tensor<32xf32>
  return %y : tensor<64x32xf32>
}

// Pairwise squared distances over a last dim of 4: the sum of 4 elements
// is unrolled in a thread, sub and pow computed in it. Eager sub 3 (a, b,
// d: 64 + 32 + 512), pow 2 (512 + 512), sum 2 (512 + 128): 2272; fused
// reads a and b, writes 128.
// CHECK-LABEL: function @pairwise
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 3 1
// CHECK-NEXT: transfers 7 3
// CHECK-NEXT: elements 2272 224
// OFF-LABEL: function @pairwise
// OFF-NEXT: eager fused
// OFF-NEXT: kernels 3 1
// MAP-LABEL: func.func @pairwise
// MAP: kind reduction mapping flat
func.func @pairwise(%a: tensor<16x4xf32>, %b: tensor<8x4xf32>) -> tensor<16x8xf32> {
  %a3 = kf.reshape %a [16, 1, 4] : tensor<16x4xf32>
  %b3 = kf.reshape %b [1, 8, 4] : tensor<8x4xf32>
  %d = kf.sub %a3, %b3 : tensor<16x1x4xf32>, tensor<1x8x4xf32>
  %two = kf.constant dense<2.0> : tensor<f32>
  %s = kf.pow %d, %two : tensor<16x8x4xf32>, tensor<f32>
  %r = kf.sum %s dims [-1] : tensor<16x8x4xf32>
  return %r : tensor<16x8xf32>
}

// softmax over 8 columns keeps its row kernel: the small sums are read
// back over the rows, where a thread per result cannot serve them.
// MAP-LABEL: func.func @softmax8
// MAP: kind reduction mapping row
func.func @softmax8(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kf.softmax %x dim 1 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// x.sum(-1)[..., None] * x: the unit dim added after the reduction is no
// boundary; the product reads each row's sum (row-persistent). Eager sum
// (2048 + 64) + mul (2048 + 64 + 2048); fused reads x, writes the product.
// CHECK-LABEL: function @sum_unsqueeze_mul
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 1
// CHECK-NEXT: transfers 5 2
// CHECK-NEXT: elements 6272 4096
// MAP-LABEL: func.func @sum_unsqueeze_mul
// MAP: kind reduction mapping row
func.func @sum_unsqueeze_mul(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %s = kf.sum %x dims [-1] : tensor<64x32xf32>
  %u = kf.reshape %s [64, 1] : tensor<64xf32>
  %y = kf.mul %x, %u : tensor<64x32xf32>, tensor<64x1xf32>
  return %y : tensor<64x32xf32>
}

// a - a.sum(1) on a square matrix broadcasts the sums over the other axis:
// row i needs row j's sum, so the sum is a kernel of its own (other-row),
// and both kernels have a GPU mapping.
// CHECK-LABEL: function @square_other_row
// CHECK-NEXT: eager fused
// CHECK-NEXT: kernels 2 2
// CHECK: (sum -> sub): other-row
// MAP-LABEL: func.func @square_other_row
// MAP: kind reduction mapping row
// MAP: kind pointwise mapping flat
func.func @square_other_row(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = kf.sum %a dims [1] : tensor<64x64xf32>
  %y = kf.sub %a, %s : tensor<64x64xf32>, tensor<64xf32>
  return %y : tensor<64x64xf32>
}
