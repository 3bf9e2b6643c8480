// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-gpu | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-gpu=block-size=128 | FileCheck %s --check-prefix=B128
// RUN: not kfuse-opt %s --kf-map-kernels-to-gpu=block-size=100 2>&1 | FileCheck %s --check-prefix=BADBLOCK

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// A 2-D bias add becomes one flat launch: n = d0 * 8 elements, grid
// max(ceil(n / 256), 1), thread i = bx * 256 + tx, masked past n, and
// (i / 8, i % 8) as the loop indices. The bias is read at column i % 8.
// CHECK-LABEL: func.func @bias_add
// CHECK-SAME: (%[[X:.*]]: memref<?x8xf32>, %[[B:.*]]: memref<8xf32>, %[[Y:.*]]: memref<?x8xf32>)
// CHECK: %[[D0:.*]] = memref.dim %[[X]]
// CHECK: %[[N0:.*]] = arith.muli %{{.*}}, %[[D0]] : index
// CHECK: %[[N:.*]] = arith.muli %[[N0]], %[[C8:.*]] : index
// CHECK: %[[BLK:.*]] = arith.constant 256 : index
// CHECK: %[[CD:.*]] = arith.ceildivui %[[N]], %[[BLK]] : index
// CHECK: %[[GRID:.*]] = arith.maxui %[[CD]], %{{.*}} : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GRID]], %{{.*}}, %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLK]], %{{.*}}, %{{.*}}) module(@kfuse_kernels) function(@pointwise_add_0)
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %[[BLK]] : index
// CHECK: %[[I:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[N]] : index
// CHECK: scf.if %[[IN]] {
// CHECK: %[[COL:.*]] = arith.remui %[[I]], %[[C8]] : index
// CHECK: %[[ROW:.*]] = arith.divui %[[I]], %[[C8]] : index
// CHECK: %[[XV:.*]] = memref.load %[[X]][%[[ROW]], %[[COL]]]
// CHECK: %[[BV:.*]] = memref.load %[[B]][%[[COL]]]
// CHECK: %[[S:.*]] = arith.addf %[[XV]], %[[BV]] : f32
// CHECK: memref.store %[[S]], %[[Y]][%[[ROW]], %[[COL]]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// B128: arith.constant 128 : index
// B128: gpu.launch
func.func @bias_add(%x: memref<?x8xf32>, %b: memref<8xf32>, %y: memref<?x8xf32>) {
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<?x8xf32>, memref<8xf32>) outs(%y : memref<?x8xf32>) attrs = {kf.kernel = "pointwise_add_0"} {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

// Two ops of one kernel (several outputs) run in one launch; the value the
// first stores is passed to the second in a register, not reloaded.
// CHECK-LABEL: func.func @two_outputs
// CHECK-SAME: (%[[X:.*]]: memref<16xf32>, %[[T:.*]]: memref<16xf32>, %[[Y:.*]]: memref<16xf32>)
// CHECK-COUNT-1: gpu.launch
// CHECK: %[[XV:.*]] = memref.load %[[X]]
// CHECK: %[[E:.*]] = math.exp %[[XV]] : f32
// CHECK: memref.store %[[E]], %[[T]]
// CHECK-NOT: memref.load %[[T]]
// CHECK: %[[N:.*]] = arith.negf %[[E]] : f32
// CHECK: memref.store %[[N]], %[[Y]]
// CHECK-NOT: gpu.launch
func.func @two_outputs(%x: memref<16xf32>, %t: memref<16xf32>, %y: memref<16xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<16xf32>) outs(%t : memref<16xf32>) attrs = {kf.kernel = "pointwise_exp_neg_0"} {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : memref<16xf32>) outs(%y : memref<16xf32>) attrs = {kf.kernel = "pointwise_exp_neg_0"} {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// A 0-d computation is one thread of one block.
// CHECK-LABEL: func.func @scalar
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}}[] : memref<f32>
// CHECK: memref.store %{{.*}}, %{{.*}}[] : memref<f32>
func.func @scalar(%x: memref<f32>, %y: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%x : memref<f32>) outs(%y : memref<f32>) attrs = {kf.kernel = "pointwise_neg_0"} {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// Ops without a kernel name are left alone.
// CHECK-LABEL: func.func @untagged
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @untagged(%x: memref<4xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// BADBLOCK: error: kf-map-kernels-to-gpu: block-size must be a multiple of 32 from 32 to 1024, got 100
