// Rows whose length is known at run time only (passes/gpu/rows/RowOnChip.h):
// the block is 32 to 256 threads from the length, and the kernel chooses
// at run time between the registers (16 elements a thread cover the row)
// and the looped form (they do not: 5000 > 256 x 16), whose softmax and
// layer_norm statistics take one online pass (RowOnChipOnline.cpp).
// Executed by the emulation against the CPU pipeline, unfused; the
// numbers against numpy for static rows: row-on-chip-run.mlir.
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s
// RUN: %fusion-diff --rtol=1e-5 --atol=1e-5 --candidate=--kf-gpu-emulation-pipeline %s
// DIMS @softmax_dyn: 3 5000
// DIMS @layer_norm_dyn: 2
// DIMS @log_softmax_short: 5

// The choice: registers when cols <= blockDim x 16, else the loop whose
// first pass carries (m, sum, lost).
// CHECK-LABEL: gpu.func @reduction_max_sub_exp_sum_div_0(
// CHECK-NOT: known_block_size
// CHECK: %[[COVER:.*]] = arith.muli %block_dim_x, %{{.*}} : index
// CHECK: %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %[[COVER]] : index
// CHECK: scf.if %[[FITS]] {
// CHECK: } else {
// CHECK: scf.for {{.*}} -> (f32, f32, f32)
func.func @softmax_dyn(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = kf.softmax %x dim -1 : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
// A layer_norm's row is static (normalized_shape): 20000 f32 do not fit
// 1024 threads of 16, the looped form with (sum, lost, n, mean, M2).
// CHECK-LABEL: gpu.func @reduction_mean_sub_mul_mean_add_rsqrt_mul_1(
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32)
func.func @layer_norm_dyn(%x: tensor<?x20000xf32>) -> tensor<?x20000xf32> {
  %y = kf.layer_norm %x normalized_shape [20000] eps 1.0e-5 : tensor<?x20000xf32>
  return %y : tensor<?x20000xf32>
}
// A static short row (one warp, registers only) among dynamic rows.
func.func @log_softmax_short(%x: tensor<?x7xf32>) -> tensor<?x7xf32> {
  %y = kf.log_softmax %x dim -1 : tensor<?x7xf32>
  return %y : tensor<?x7xf32>
}
