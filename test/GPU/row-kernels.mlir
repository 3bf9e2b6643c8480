// Reduction kernels on the GPU: a block per row, each thread holding its
// share of the row, warp shuffles then (several warps) shared memory across
// warps, and the prologue and epilogue ops in the same kernel (one .entry
// each).
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH

// softmax over rows: one kernel. The row stays on chip (passes/gpu/
// RowOnChip.h): a row of 8 f32 is 2 vectors of 4, so one warp (32 threads,
// the least) covers it and its launch bound says so (.maxntid 32). In one
// warp each reduction is five butterfly shuffles that leave the total in
// every lane: 2 reductions x 5 = 10 shuffles, and no shared memory and no
// barrier (the earlier form, values through global memory, had 20 shuffles
// and a barrier after each op). One v4 load and one v4 store a thread.
// PTX-LABEL: .entry reduction_max_sub_exp_sum_div_0(
// PTX: .maxntid 32, 1, 1
// PTX: ld.global.nc.v4.b32
// PTX-COUNT-10: shfl.sync.bfly.b32
// PTX-NOT: shfl.sync
// PTX-NOT: bar.sync
// PTX-NOT: ld.global
// PTX: st.global.v4.b32
// PTX-NOT: st.global
// PTX-LABEL: .entry reduction_sum_1(
// PTX: shfl.sync.bfly.b32
// layer_norm over 512 f32: 32 threads x 16 (4 vectors of 4) cover the row,
// one warp again: 2 reductions (the mean, the mean of squares) x 5 = 10
// shuffles, no barrier; the row is loaded once (4 v4 loads a thread) and
// stored once (4 v4 stores).
// PTX-LABEL: .entry reduction_mean_sub_mul_mean_add_rsqrt_mul_2(
// PTX: .maxntid 32, 1, 1
// PTX-COUNT-4: ld.global.nc.v4.b32
// PTX-NOT: ld.global
// PTX-COUNT-10: shfl.sync.bfly.b32
// PTX-NOT: shfl.sync
// PTX-NOT: bar.sync
// PTX-COUNT-4: st.global.v4.b32
// PTX-NOT: st.global
// A full reduction, one entry: partials from many blocks, the last block
// (an atomic ticket) combines them (single-launch-reduction.mlir).
// PTX-NOT: _partials
// PTX-LABEL: .entry reduction_sum_3(
// PTX: shfl.sync.bfly.b32
// PTX: atom.global.add.u32
// PTX-LABEL: .entry reduction_max_4(
// PTX: shfl.sync.bfly.b32

// The launch: a block per row (4), one warp for the short row (the block
// from the row length, a constant when the row is static).
// LAUNCH-LABEL: func.func @softmax_rows
// LAUNCH: %[[THREADS:.*]] = arith.constant 32 : index
// LAUNCH: gpu.launch_func async [%{{.*}}] @kfuse_kernels::@reduction_max_sub_exp_sum_div_0 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[THREADS]], %{{.*}}, %{{.*}}) args(%{{.*}} : index, %{{.*}} : index, %arg0 : memref<4x8xf32>, %{{.*}} : memref<4x8xf32>)
// LAUNCH-LABEL: gpu.func @reduction_max_sub_exp_sum_div_0(
// LAUNCH-SAME: known_block_size = array<i32: 32, 1, 1>
// LAUNCH: %[[ROW:.*]] = gpu.block_id x
// LAUNCH: %[[TID:.*]] = gpu.thread_id x
// Each thread's vector of the row, loaded once; the max over it, then
// across the warp.
// LAUNCH: %[[X:.*]] = scf.if %{{.*}} -> (vector<4xf32>)
// LAUNCH: vector.load %{{.*}}[%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<4x8xf32>, vector<4xf32>
// LAUNCH: %[[X0:.*]] = vector.extract %[[X]][0]
// LAUNCH: arith.maximumf
// LAUNCH: gpu.shuffle xor
// LAUNCH-NOT: gpu.barrier
// LAUNCH-NOT: memref.store
// The exps stay in registers: the sum reads them, the division too.
// LAUNCH: %[[D0:.*]] = arith.subf %[[X0]], %{{.*}} : f32
// LAUNCH: %[[E0:.*]] = math.exp %[[D0]] : f32
// LAUNCH-NOT: memref.store
// LAUNCH: gpu.shuffle xor
// LAUNCH-NOT: gpu.barrier
// LAUNCH: arith.divf %[[E0]], %{{.*}} : f32
// LAUNCH: vector.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<4x8xf32>, vector<4xf32>
// LAUNCH: gpu.return
func.func @softmax_rows(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kf.softmax %x dim -1 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// A sum over the first dim: the rows are the last dim's 16 elements.
func.func @sum_dim0(%x: tensor<64x16xf32>) -> tensor<16xf32> {
  %s = kf.sum %x dims [0] : tensor<64x16xf32>
  return %s : tensor<16xf32>
}
// layer_norm without weights: two means and the normalization, one kernel.
func.func @layer_norm_rows(%x: tensor<?x512xf32>) -> tensor<?x512xf32> {
  %y = kf.layer_norm %x normalized_shape [512] eps 1.0e-5 : tensor<?x512xf32>
  return %y : tensor<?x512xf32>
}
// A full reduction: one launch, the partials of many blocks, then the last
// block to finish combines them.
func.func @full_sum(%x: tensor<1000xf32>) -> tensor<f32> {
  %s = kf.sum %x : tensor<1000xf32>
  return %s : tensor<f32>
}
// An integer max over the last dim with keepdim.
func.func @max_keepdim(%x: tensor<8x100xi32>) -> tensor<8x1xi32> {
  %m = kf.max %x dims [1] keepdim : tensor<8x100xi32>
  return %m : tensor<8x1xi32>
}
