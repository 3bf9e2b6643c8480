// The GPU mappings whose threads cooperate, executed: row kernels (warp
// shuffles, shared memory, barriers) and matmul tiles (shared memory,
// barriers) run through kf-emulate-gpu-launches, which keeps the GPU's
// semantics on the host (the code between two synchronizations runs for
// every thread of a block in turn; a shuffle reads the other lane's value),
// and each function's results must equal the CPU pipeline's, unfused. Rows
// shorter than a warp, of several warps and not a multiple of 32; tiles
// cut by the matrix edges. Sums combine in a tree, not left to right: the
// last bits may differ (tolerances 1e-5, relative and absolute: the values
// are of order 1, and layer_norm's near 0).
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-pipeline=block-size=64 %s
// The blocks from the last to the first (a GPU runs them in any order; the
// full reductions' last block to take a ticket is then block 0).
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-reversed-pipeline=block-size=64 %s
// DIMS: 37

func.func @softmax_short_rows(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kf.softmax %x dim -1 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @softmax_long_rows(%x: tensor<3x1000xf32>) -> tensor<3x1000xf32> {
  %y = kf.softmax %x dim -1 : tensor<3x1000xf32>
  return %y : tensor<3x1000xf32>
}
func.func @layer_norm_dynamic(%x: tensor<?x300xf32>) -> tensor<?x300xf32> {
  %y = kf.layer_norm %x normalized_shape [300] eps 1.0e-5 : tensor<?x300xf32>
  return %y : tensor<?x300xf32>
}
func.func @sum_dim0(%x: tensor<70x5xf32>) -> tensor<5xf32> {
  %s = kf.sum %x dims [0] : tensor<70x5xf32>
  return %s : tensor<5xf32>
}
func.func @full_max(%x: tensor<777xf32>) -> tensor<f32> {
  %m = kf.max %x : tensor<777xf32>
  return %m : tensor<f32>
}
// Full reductions take one launch (block partials, then their combination
// by the last block to finish): a mean and an op after it, and a prologue
// written out as well as summed.
func.func @full_mean_twice(%x: tensor<10000xf32>) -> tensor<f32> {
  %m = kf.mean %x : tensor<10000xf32>
  %t = kf.add %m, %m : tensor<f32>, tensor<f32>
  return %t : tensor<f32>
}
func.func @exp_and_its_sum(%x: tensor<3000xf32>) -> (tensor<3000xf32>, tensor<f32>) {
  %e = kf.exp %x : tensor<3000xf32>
  %s = kf.sum %e : tensor<3000xf32>
  return %e, %s : tensor<3000xf32>, tensor<f32>
}
// Reductions of other widths: shuffled widened (bool) or in two 32-bit
// halves (f64, i64).
func.func @f64_row_sum(%x: tensor<5x300xf64>) -> tensor<5xf64> {
  %s = kf.sum %x dims [1] : tensor<5x300xf64>
  return %s : tensor<5xf64>
}
func.func @i64_row_max(%x: tensor<5x300xi64>) -> tensor<5xi64> {
  %s = kf.max %x dims [1] : tensor<5x300xi64>
  return %s : tensor<5xi64>
}
func.func @bool_any(%x: tensor<5x300xf32>) -> tensor<5xi1> {
  %z = kf.constant dense<1.5> : tensor<f32>
  %b = kf.gt %x, %z : tensor<5x300xf32>, tensor<f32>
  %s = kf.max %b dims [1] : tensor<5x300xi1>
  return %s : tensor<5xi1>
}
func.func @int_sum_keepdim(%x: tensor<6x45xi32>) -> tensor<6x1xi32> {
  %m = kf.max %x dims [1] keepdim : tensor<6x45xi32>
  return %m : tensor<6x1xi32>
}
func.func @linear_relu(%x: tensor<37x50xf32>, %w: tensor<50x23xf32>, %b: tensor<23xf32>) -> tensor<37x23xf32> {
  %h = kf.matmul %x, %w : tensor<37x50xf32>, tensor<50x23xf32>
  %y = kf.add %h, %b : tensor<37x23xf32>, tensor<23xf32>
  %r = kf.relu %y : tensor<37x23xf32>
  return %r : tensor<37x23xf32>
}
func.func @mlp_block(%x: tensor<?x32xf32>, %w1: tensor<32x48xf32>, %b1: tensor<48xf32>,
                     %w2: tensor<48x16xf32>, %b2: tensor<16xf32>) -> tensor<?x16xf32> {
  %h = kf.matmul %x, %w1 : tensor<?x32xf32>, tensor<32x48xf32>
  %hb = kf.add %h, %b1 : tensor<?x48xf32>, tensor<48xf32>
  %a = kf.relu %hb : tensor<?x48xf32>
  %o = kf.matmul %a, %w2 : tensor<?x48xf32>, tensor<48x16xf32>
  %y = kf.add %o, %b2 : tensor<?x16xf32>, tensor<16xf32>
  return %y : tensor<?x16xf32>
}
func.func @transpose_exp(%x: tensor<37x23xf32>) -> tensor<23x37xf32> {
  %t = kf.transpose %x [1, 0] : tensor<37x23xf32>
  %e = kf.exp %t : tensor<23x37xf32>
  return %e : tensor<23x37xf32>
}
