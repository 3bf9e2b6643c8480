// Kernels that read an operand transposed move 32 x 32 tiles through
// shared memory (passes/gpu/flat/TransposeKernels.cpp): 32 x 8 threads, the
// swapped operand staged into a padded 32 x 33 tile, a barrier, then each
// thread computes 4 outputs reading the tile at the swapped place. Run
// through kf-emulate-gpu-launches (barriers and shared memory kept) and
// compared with the CPU pipeline, unfused: exact (no arithmetic changes
// order). Tiles cut by the edges (33 x 65, 1 x 1), a batch of tiles (3-D,
// the last two dims swapped), a broadcast operand read along the last
// dim, f16, two outputs, dynamic sizes; blocks in order and reversed.
// RUN: %fusion-diff --rtol=0 --atol=0 --candidate=--kf-gpu-emulation-pipeline %s
// RUN: %fusion-diff --rtol=0 --atol=0 --candidate=--kf-gpu-emulation-reversed-pipeline %s
// RUN: kfuse-compile %s --emit=gpu | FileCheck %s --check-prefix=LAUNCH
// RUN: kfuse-compile %s --emit=ptx --gpu-chip=sm_80 | FileCheck %s --check-prefix=PTX
// DIMS: 5

// LAUNCH-LABEL: gpu.func @transpose_0(
// LAUNCH-SAME: workgroup(%[[TILE:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// LAUNCH-SAME: known_block_size = array<i32: 32, 8, 1>
// LAUNCH-COUNT-4: memref.store %{{.*}}, %[[TILE]][%{{.*}}, %thread_id_x]
// LAUNCH: gpu.barrier
// LAUNCH: memref.load %[[TILE]][%thread_id_x, %{{.*}}]
// LAUNCH: gpu.return
// PTX-LABEL: .entry transpose_0(
// PTX: .shared .align 4 .b8 __wg_transpose_0_0[4224]
// PTX: st.shared.b32
// PTX: bar.sync 0
// PTX: ld.shared.b32
func.func @transpose(%x: tensor<33x65xf32>) -> tensor<65x33xf32> {
  %t = kf.transpose %x [1, 0] : tensor<33x65xf32>
  return %t : tensor<65x33xf32>
}
func.func @one(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %t = kf.transpose %x [1, 0] : tensor<1x1xf32>
  return %t : tensor<1x1xf32>
}
func.func @batched_bias(%x: tensor<3x40x70xf32>, %b: tensor<40xf32>) -> tensor<3x70x40xf32> {
  %t = kf.transpose %x [0, 2, 1] : tensor<3x40x70xf32>
  %y = kf.add %t, %b : tensor<3x70x40xf32>, tensor<40xf32>
  return %y : tensor<3x70x40xf32>
}
func.func @half(%x: tensor<50x34xf16>) -> tensor<34x50xf16> {
  %t = kf.transpose %x [1, 0] : tensor<50x34xf16>
  %e = kf.neg %t : tensor<34x50xf16>
  return %e : tensor<34x50xf16>
}
func.func @two_outputs(%x: tensor<20x45xf32>) -> (tensor<45x20xf32>, tensor<45x20xf32>) {
  %t = kf.transpose %x [1, 0] : tensor<20x45xf32>
  %e = kf.exp %t : tensor<45x20xf32>
  %r = kf.relu %t : tensor<45x20xf32>
  return %e, %r : tensor<45x20xf32>, tensor<45x20xf32>
}
func.func @dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %t = kf.transpose %x [1, 0] : tensor<?x?xf32>
  %s = kf.sin %t : tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}
