// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-gpu | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-host | FileCheck %s --check-prefix=HOST

// Each mapping has its pattern: a bufferized kernel (no results, its
// buffers allocated before it) becomes its launch, named after it, where
// the kernel was; the kernel is gone. Flat kernels: see
// kf-map-kernels-to-gpu.mlir.

// A row kernel (a sum over rows, then a divide by it): a block per row,
// the row on chip (passes/gpu/rows/RowOnChip.h). 8 f32 columns are 2 vectors of
// 4: one warp covers the row, so no shared slots and no barrier (the
// shuffles leave the sum in every lane). The row is loaded once; the sum
// (%s is an argument: the caller reads it) is stored by thread 0 and the
// divide reads it from a register, not from %s.
// CHECK-LABEL: func.func @row
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[S:.*]]: memref<4xf32>, %[[Y:.*]]: memref<4x8xf32>)
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: gpu.launch
// CHECK-SAME: threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C32]],
// CHECK-SAME: function(@reduction_sum_div_0) {
// CHECK-NOT: workgroup
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (vector<4xf32>)
// CHECK-NEXT: vector.load %[[X]]
// CHECK: %[[X0:.*]] = vector.extract %[[V]][0]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle xor
// CHECK-NOT: gpu.barrier
// CHECK: %[[T0:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[T0]]
// CHECK: memref.store %[[SUM:.*]], %[[S]]
// CHECK-NOT: memref.load
// CHECK: arith.divf %[[X0]], %[[SUM]] : f32
// CHECK: vector.store %{{.*}}, %[[Y]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
// CHECK-NOT: kf.kernel
// CHECK: return
// On the host runtime, one thread a block: no shuffles, no barriers.
// HOST-LABEL: func.func @row
// HOST: gpu.launch
// HOST-SAME: function(@reduction_sum_div_0)
// HOST-NOT: gpu.shuffle
// HOST-NOT: gpu.barrier
// HOST: gpu.terminator
func.func @row(%x: memref<4x8xf32>, %s: memref<4xf32>, %y: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "reduction_sum_div_0" kind reduction mapping row variant on_chip {
    linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<4x8xf32>, memref<4xf32>) outs(%y : memref<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %v = arith.divf %a, %b : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// The same kernel, through memory (the variant kf-assign-kernel-mappings
// chooses where the on-chip form does not follow the ops): each op runs
// over the row in turn with a barrier after it, the sum goes to %s and the
// divide loads it back from there.
// CHECK-LABEL: func.func @row_through_memory
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[S:.*]]: memref<4xf32>, %[[Y:.*]]: memref<4x8xf32>)
// CHECK: gpu.launch
// CHECK-SAME: function(@reduction_sum_div_0)
// CHECK-SAME: workgroup(
// CHECK: memref.load %[[X]]
// CHECK: gpu.shuffle xor
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[S]]
// CHECK: arith.divf
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK: gpu.terminator
// CHECK-NOT: kf.kernel
// CHECK: return
// HOST-LABEL: func.func @row_through_memory
// HOST: gpu.launch
// HOST-NOT: gpu.shuffle
// HOST: gpu.terminator
func.func @row_through_memory(%x: memref<4x8xf32>, %s: memref<4xf32>, %y: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "reduction_sum_div_0" kind reduction mapping row variant through_memory {
    linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<4x8xf32>, memref<4xf32>) outs(%y : memref<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %v = arith.divf %a, %b : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// A full reduction (no rows) and an op over its result: one launch (was
// two, `_partials` then the combination, before issue 12), the block
// partials in a buffer allocated before it and freed after it; the last
// block takes the last ticket from the kernel's counter, a global of the
// module, and combines them.
// CHECK: memref.global "private" @reduction_sum_neg_0_ticket : memref<1xi32> = dense<0>
// CHECK-LABEL: func.func @grid_reduction
// CHECK: %[[P:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: gpu.launch
// CHECK-SAME: function(@reduction_sum_neg_0)
// CHECK: memref.get_global @reduction_sum_neg_0_ticket
// CHECK: memref.atomic_rmw addi
// CHECK: arith.negf
// CHECK-NOT: gpu.launch
// CHECK: memref.dealloc %[[P]] : memref<?xf32>
// CHECK-NOT: kf.kernel
// On the host the same, one thread a block (no barrier, no shared memory).
// HOST-LABEL: func.func @grid_reduction
// HOST-NOT: _partials
// HOST: function(@reduction_sum_neg_0)
// HOST-NOT: gpu.barrier
// HOST: memref.atomic_rmw addi
// HOST-NOT: gpu.launch
func.func @grid_reduction(%x: memref<4096xf32>, %s: memref<f32>, %y: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "reduction_sum_neg_0" kind reduction mapping grid_reduction {
    linalg.fill ins(%zero : f32) outs(%s : memref<f32>)
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<4096xf32>) outs(%s : memref<f32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.addf %o, %a : f32
      linalg.yield %v : f32
    }
    linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%s : memref<f32>) outs(%y : memref<f32>) {
    ^bb0(%a: f32, %o: f32):
      %v = arith.negf %a : f32
      linalg.yield %v : f32
    }
  }
  return
}

// -----

// A matmul with a relu epilogue, the SIMT variant (kf-assign-kernel-mappings
// chose it; the host ignores it): a 16x16 block per 64x64 tile, A and B
// tiles in shared memory (4 elements a vector, rows padded by one).
// CHECK-LABEL: func.func @matmul
// CHECK: gpu.launch
// CHECK-SAME: function(@matmul_relu_0)
// CHECK-SAME: workgroup(%{{.*}} : memref<16x17xvector<4xf32>, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x17xvector<4xf32>, #gpu.address_space<workgroup>>)
// CHECK: gpu.barrier
// CHECK: arith.maximumf
// CHECK-NOT: kf.kernel
// HOST-LABEL: func.func @matmul
// HOST: gpu.launch
// HOST-SAME: function(@matmul_relu_0) {
// HOST-NOT: gpu.barrier
// HOST: gpu.terminator
func.func @matmul(%a: memref<32x8xf32>, %b: memref<8x48xf32>, %c: memref<32x48xf32>, %y: memref<32x48xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "matmul_relu_0" kind matmul mapping matmul variant simt {
    linalg.fill ins(%zero : f32) outs(%c : memref<32x48xf32>)
    linalg.matmul ins(%a, %b : memref<32x8xf32>, memref<8x48xf32>) outs(%c : memref<32x48xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<32x48xf32>) outs(%y : memref<32x48xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.maximumf %v, %zero : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A kernel no mapping serves (host runtime): one launch of one thread
// that runs the ops as they are.
// CHECK-LABEL: func.func @serial
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK-SAME: function(@matmul_0)
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.batch_matmul
// CHECK-NEXT: gpu.terminator
// CHECK-NOT: kf.kernel
func.func @serial(%a: memref<2x4x8xf32>, %b: memref<2x8x3xf32>, %c: memref<2x4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "matmul_0" kind matmul mapping serial {
    linalg.fill ins(%zero : f32) outs(%c : memref<2x4x3xf32>)
    linalg.batch_matmul ins(%a, %b : memref<2x4x8xf32>, memref<2x8x3xf32>) outs(%c : memref<2x4x3xf32>)
  }
  return
}

// -----

// A row kernel whose reduction iterates over nothing (a 0-sized dim:
// canonicalization on buffers erased it) launches what is left flat.
// CHECK-LABEL: func.func @no_iterations
// CHECK: gpu.launch
// CHECK-SAME: function(@reduction_sum_0)
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.terminator
func.func @no_iterations(%s: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  kf.kernel "reduction_sum_0" kind reduction mapping row {
    linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  }
  return
}
