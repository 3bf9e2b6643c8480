// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host --cse | FileCheck %s --check-prefix=HOST
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-gpu --cse | FileCheck %s --check-prefix=GPU

// The emitters written once for both targets (launch/LaunchTarget.h), on
// the host runtime's blocks of one thread and on CUDA blocks. The same
// kernel, the same launch name and ticket; only what a block is differs:
// on the host no workgroup memory, no barrier and no shuffle, one thread
// runs the block's row and takes the ticket itself.

// A row chain (x.sum(1).sum(0)): a block a row, then the last block sums
// the rows' values.
// HOST: memref.global "private" @reduction_sum_sum_0_ticket : memref<1xi32> = dense<0>
// HOST-LABEL: func.func @sum_sum
// HOST: %[[ONE:.*]] = arith.constant 1 : index
// HOST: gpu.launch
// HOST-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]],
// HOST-SAME: function(@reduction_sum_sum_0) {
// HOST-NOT: gpu.shuffle
// HOST-NOT: gpu.barrier
// HOST: memref.get_global @reduction_sum_sum_0_ticket
// HOST: memref.atomic_rmw addi
// HOST-NOT: gpu.shuffle
// HOST-NOT: gpu.barrier
// HOST: gpu.terminator
// GPU: memref.global "private" @reduction_sum_sum_0_ticket : memref<1xi32> = dense<0>
// GPU-LABEL: func.func @sum_sum
// GPU: gpu.launch
// GPU-SAME: function(@reduction_sum_sum_0)
// The final sum's 32 slots (a warp's value each), then the last-block flag.
// GPU-SAME: workgroup(%{{.*}} : memref<32xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1xi32, #gpu.address_space<workgroup>>)
// GPU: gpu.barrier
// GPU: memref.atomic_rmw addi
// GPU: gpu.shuffle xor
// GPU: gpu.terminator
func.func @sum_sum(%x: memref<4x8xf32>, %r: memref<4xf32>, %t: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "reduction_sum_sum_0" kind reduction mapping row_chain variant on_chip {
    linalg.fill ins(%zero : f32) outs(%r : memref<4xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%r : memref<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
    linalg.fill ins(%zero : f32) outs(%t : memref<f32>)
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%r : memref<4xf32>) outs(%t : memref<f32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// An f64 matmul, which the host's register-tiled kernel (f32 FMAs) does
// not serve: the reference variant. On the host a block's one thread
// computes its 16 x 16 tile element by element, a dot product over K read
// where A and B are; on the GPU a thread an element, the tiles of A and B
// staged through workgroup memory between barriers.
// HOST-LABEL: func.func @f64_matmul
// HOST: gpu.launch
// HOST-SAME: function(@matmul_0) {
// HOST: scf.for %{{.*}} = %{{.*}} to %[[TILE:.*]] step
// HOST: scf.for %{{.*}} = %{{.*}} to %[[TILE]] step
// HOST: scf.for
// HOST: memref.load %{{.*}} : memref<8x8xf64>
// HOST: memref.load %{{.*}} : memref<8x8xf64>
// HOST: arith.mulf
// HOST-NOT: gpu.barrier
// HOST: gpu.terminator
// GPU-LABEL: func.func @f64_matmul
// GPU: %[[C16:.*]] = arith.constant 16 : index
// GPU: gpu.launch
// GPU-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C16]], %{{.*}} = %[[C16]],
// GPU-SAME: workgroup(%{{.*}} : memref<16x16xf64, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x16xf64, #gpu.address_space<workgroup>>)
// GPU: gpu.barrier
// GPU: arith.mulf
// GPU: gpu.barrier
// GPU: gpu.terminator
func.func @f64_matmul(%a: memref<8x8xf64>, %b: memref<8x8xf64>, %c: memref<8x8xf64>) {
  %zero = arith.constant 0.0 : f64
  kf.kernel "matmul_0" kind matmul mapping matmul variant reference {
    linalg.fill ins(%zero : f64) outs(%c : memref<8x8xf64>)
    linalg.matmul ins(%a, %b : memref<8x8xf64>, memref<8x8xf64>) outs(%c : memref<8x8xf64>)
  }
  return
}
