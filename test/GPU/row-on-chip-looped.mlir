// Rows too long for a block's registers (passes/gpu/rows/RowOnChip.h: at most
// 1024 threads of 16 elements; 65536 f32 would take 64 a thread) take the
// looped form: 512 threads striding over the row, each reduction a pass
// over global memory, the column values recomputed from x in each pass
// (no intermediate buffer). Two pairs of reductions take one pass
// (RowOnChipOnline.cpp):
// - softmax's max and sum of exp(x - max): a running max m and sum s a
//   thread, s rescaled by exp(m_old - m_new) when m grows (1 when m does
//   not change, so a row starting with -inf gives no NaN); the threads'
//   (m, s) pairs merge the same way through shuffles and shared memory.
// - layer_norm's mean and variance: a thread's count, mean and sum of
//   squared deviations (Chan's merge a slot), then the block's sum and the
//   sum of (x - mean)^2 as M2 + n (mean_t - mean)^2.
// So x is read twice: the statistics pass and the output pass (three
// times before). Executed against numpy in row-on-chip-run.mlir.
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s

// CHECK-LABEL: gpu.func @reduction_max_sub_exp_sum_div_0(
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>
// The statistics pass: (m, sum, lost), the sum compensated.
// CHECK: scf.for %{{.*}} = %thread_id_x to %{{.*}} step %block_dim_x iter_args(%[[M:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32, f32)
// CHECK: vector.load %{{.*}} : memref<8x65536xf32>, vector<4xf32>
// CHECK-NOT: vector.load
// CHECK: arith.maximumf
// CHECK: arith.maximumf
// CHECK: arith.maximumf
// CHECK: %[[MAX:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: arith.subf %{{.*}}, %[[MAX]] : f32
// CHECK-NEXT: math.exp
// The rescale of the running sum: 1 where the max did not change.
// CHECK: %[[SAME:.*]] = arith.cmpf oeq, %[[M]], %[[MAX]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[M]], %[[MAX]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[D]] : f32
// CHECK: arith.select %[[SAME]], %{{.*}}, %[[E]] : f32
// CHECK: scf.yield %[[MAX]],
// The pairs merge across the warp, then across the warps.
// CHECK-NOT: scf.for
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-NOT: scf.for
// The output pass: x again, exp(x - max) / sum, stored once.
// CHECK: scf.for %{{.*}} = %thread_id_x to %{{.*}} step %block_dim_x {
// CHECK: vector.load %{{.*}} : memref<8x65536xf32>, vector<4xf32>
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: vector.store %{{.*}} : memref<8x65536xf32>, vector<4xf32>
// CHECK-NOT: scf.for
// CHECK: gpu.return
func.func @softmax_long(%x: tensor<8x65536xf32>) -> tensor<8x65536xf32> {
  %y = kf.softmax %x dim -1 : tensor<8x65536xf32>
  return %y : tensor<8x65536xf32>
}

// CHECK-LABEL: gpu.func @reduction_max_sub_exp_sum_log_sub_1(
// CHECK: scf.for {{.*}} -> (f32, f32, f32)
// CHECK-NOT: scf.for
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: math.log
// CHECK-NOT: scf.for
// CHECK: gpu.return
func.func @log_softmax_long(%x: tensor<8x65536xf32>) -> tensor<8x65536xf32> {
  %y = kf.log_softmax %x dim -1 : tensor<8x65536xf32>
  return %y : tensor<8x65536xf32>
}

// layer_norm: (sum, lost, n, mean, M2) a thread; the block's sum (a
// barrier), then its sum of squares about the row's mean (a barrier).
// CHECK-LABEL: gpu.func @reduction_mean_sub_mul_mean_add_rsqrt_mul_mul_etc_2(
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32)
// CHECK: vector.load %{{.*}} : memref<8x65536xf32>, vector<4xf32>
// CHECK-NOT: vector.load
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: gpu.barrier
// CHECK-NOT: scf.for
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK: math.rsqrt
// CHECK: vector.store
// CHECK-NOT: scf.for
// CHECK: gpu.return
func.func @layer_norm_long(%x: tensor<8x65536xf32>, %w: tensor<65536xf32>, %b: tensor<65536xf32>) -> tensor<8x65536xf32> {
  %y = kf.layer_norm %x weight %w : tensor<65536xf32> bias %b : tensor<65536xf32> normalized_shape [65536] eps 1.0e-5 : tensor<8x65536xf32>
  return %y : tensor<8x65536xf32>
}
