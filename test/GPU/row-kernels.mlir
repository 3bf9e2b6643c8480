// Reduction kernels on the GPU: a block per row, each thread striding over
// the row's columns, warp shuffles then shared memory across warps, and the
// prologue and epilogue ops in the same kernel (one .entry each).
// RUN: kfuse-compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH

// softmax over rows: one kernel; two reductions, each five butterfly
// shuffles within a warp, then the warps' values through shared memory and
// five more in the first warp: 20 shuffles; a barrier after each op.
// PTX-LABEL: .entry reduction_max_sub_exp_sum_div_0(
// PTX-COUNT-20: shfl.sync.bfly.b32
// PTX: bar.sync 0
// PTX-LABEL: .entry reduction_sum_1(
// PTX: shfl.sync.bfly.b32
// PTX-LABEL: .entry reduction_mean_sub_mul_mean_add_rsqrt_mul_2(
// PTX-COUNT-20: shfl.sync.bfly.b32
// A full reduction, one entry: partials from many blocks, the last block
// (an atomic ticket) combines them (single-launch-reduction.mlir).
// PTX-NOT: _partials
// PTX-LABEL: .entry reduction_sum_3(
// PTX: shfl.sync.bfly.b32
// PTX: atom.global.add.u32
// PTX-LABEL: .entry reduction_max_4(
// PTX: shfl.sync.bfly.b32

// The launch: a block per row (4), a warp for a short row (8 columns round
// up to 32 threads; 1024 would take 256, the block size).
// LAUNCH-LABEL: func.func @softmax_rows
// LAUNCH: %[[THREADS:.*]] = arith.minui %{{.*}}, %c256 : index
// LAUNCH: gpu.launch_func async [%{{.*}}] @kfuse_kernels::@reduction_max_sub_exp_sum_div_0 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[THREADS]], %{{.*}}, %{{.*}})
// LAUNCH-LABEL: gpu.func @reduction_max_sub_exp_sum_div_0(
// LAUNCH-SAME: workgroup(%[[SH0:.*]] : memref<32xf32, #gpu.address_space<workgroup>>, %[[SH1:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// LAUNCH: %[[ROW:.*]] = gpu.block_id x
// LAUNCH: %[[TID:.*]] = gpu.thread_id x
// LAUNCH: %[[B:.*]] = gpu.block_dim x
// LAUNCH: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// LAUNCH: %[[MAX:.*]] = scf.for %{{.*}} = %[[TID]] to %{{.*}} step %[[B]] iter_args(%{{.*}} = %[[NINF]]) -> (f32)
// LAUNCH: gpu.shuffle xor %[[MAX]], %{{.*}}, %{{.*}} : f32
// LAUNCH: memref.store %{{.*}}, %[[SH0]]
// LAUNCH: gpu.barrier
// LAUNCH: memref.store %{{.*}}, %{{.*}}[%[[ROW]]] : memref<4xf32>
// LAUNCH: gpu.barrier
// LAUNCH: math.exp
// LAUNCH: gpu.barrier
// The sum is compensated: each thread carries its partial and the partial's
// lost low part.
// LAUNCH: scf.for {{.*}} iter_args({{.*}}, {{.*}}) -> (f32, f32)
// LAUNCH: arith.subf
// LAUNCH: arith.addf
// LAUNCH: memref.store %{{.*}}, %[[SH1]]
// LAUNCH: arith.divf
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
