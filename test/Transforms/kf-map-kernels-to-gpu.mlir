// The canonicalizer folds the index arithmetic by constants, to keep the
// checks readable.
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-gpu --canonicalize | FileCheck %s
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-gpu=block-size=128 | FileCheck %s --check-prefix=B128
// RUN: kfuse-opt %s -split-input-file --kf-map-kernels-to-gpu=vector-width=1 --canonicalize | FileCheck %s --check-prefix=SCALAR
// RUN: not kfuse-opt %s --kf-map-kernels-to-gpu=block-size=100 2>&1 | FileCheck %s --check-prefix=BADBLOCK

// A bad block size is refused before the IR is touched.
// BADBLOCK: error: kf-map-kernels-to-gpu: block-size must be a multiple of 32 from 32 to 1024, got 100

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// A 2-D bias add (the bias is broadcast, so no vectors) becomes one flat
// launch: n = d0 * 8 elements, 4 elements a thread at a stride of the
// block (coalesced), grid max(ceil(n / 1024), 1); the thread's first
// element is i = bx * 1024 + tx, at (i / 8, i % 8): its loop indices are
// delinearized once, then advanced by the block's 256 elements = (32, 0)
// rows and columns (a compare and a select per dim, no division). Each
// element is masked past n. The bias is read at the column.
// CHECK-LABEL: func.func @bias_add
// CHECK-SAME: (%[[X:.*]]: memref<?x8xf32>, %[[B:.*]]: memref<8xf32>, %[[Y:.*]]: memref<?x8xf32>)
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[PER:.*]] = arith.constant 1024 : index
// CHECK-DAG: %[[BLK:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[D0:.*]] = memref.dim %[[X]]
// CHECK: %[[N:.*]] = arith.muli %[[D0]], %[[C8]] : index
// CHECK: %[[CD:.*]] = arith.ceildivui %[[N]], %[[PER]] : index
// CHECK: %[[GRID:.*]] = arith.maxui %[[CD]], %{{.*}} : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GRID]], %{{.*}}, %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLK]], %{{.*}}, %{{.*}}) module(@kfuse_kernels) function(@pointwise_add_0)
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %[[PER]] : index
// CHECK: %[[I:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK: %[[COL:.*]] = arith.remui %[[I]], %[[C8]] : index
// CHECK: %[[ROW:.*]] = arith.divui %[[I]], %[[C8]] : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[N]] : index
// CHECK: scf.if %[[IN]] {
// CHECK: %[[XV:.*]] = memref.load %[[X]][%[[ROW]], %[[COL]]]
// CHECK: %[[BV:.*]] = memref.load %[[B]][%[[COL]]]
// CHECK: %[[S:.*]] = arith.addf %[[XV]], %[[BV]] : f32
// CHECK: memref.store %[[S]], %[[Y]][%[[ROW]], %[[COL]]]
// The second element: 256 further, (row + 32, col), with the carry.
// CHECK: %[[WRAP:.*]] = arith.cmpi uge, %[[COL]], %[[C8]] : index
// CHECK: %[[WRAPPED:.*]] = arith.subi %[[COL]], %[[C8]] : index
// CHECK: %[[COL1:.*]] = arith.select %[[WRAP]], %[[WRAPPED]], %[[COL]] : index
// CHECK: %[[CARRY:.*]] = arith.index_castui %[[WRAP]] : i1 to index
// CHECK: %[[R32:.*]] = arith.addi %[[ROW]], %[[C32]] : index
// CHECK: %[[ROW1:.*]] = arith.addi %[[R32]], %[[CARRY]] : index
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %[[BLK]] : index
// CHECK: %[[IN1:.*]] = arith.cmpi ult, %[[I1]], %[[N]] : index
// CHECK: scf.if %[[IN1]] {
// CHECK: memref.load %[[X]][%[[ROW1]], %[[COL1]]]
// CHECK-COUNT-2: scf.if
// CHECK-NOT: arith.divui
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// B128-LABEL: func.func @bias_add
// B128: arith.constant 128 : index
// B128: gpu.launch
// SCALAR-LABEL: func.func @bias_add
func.func @bias_add(%x: memref<?x8xf32>, %b: memref<8xf32>, %y: memref<?x8xf32>) {
  kf.kernel "pointwise_add_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<?x8xf32>, memref<8xf32>) outs(%y : memref<?x8xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

// Two ops of one kernel (several outputs) run in one launch, 4 contiguous
// elements a thread: one 128-bit vector access per buffer when the thread
// has all 4, else element by element up to n (the tail). The value the
// first op stores is passed to the second in registers, not reloaded.
// CHECK-LABEL: func.func @two_outputs
// CHECK-SAME: (%[[X:.*]]: memref<16xf32>, %[[T:.*]]: memref<16xf32>, %[[Y:.*]]: memref<16xf32>)
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: gpu.launch
// CHECK: %[[I0:.*]] = arith.muli %{{.*}}, %[[C4]] : index
// CHECK: %[[END:.*]] = arith.addi %[[I0]], %[[C4]] : index
// CHECK: %[[WHOLE:.*]] = arith.cmpi ule, %[[END]], %[[C16]] : index
// CHECK: scf.if %[[WHOLE]] {
// CHECK: %[[XV:.*]] = vector.load %[[X]][%[[I0]]] {alignment = 16 : i64} : memref<16xf32>, vector<4xf32>
// CHECK-COUNT-4: math.exp
// CHECK: %[[EV:.*]] = vector.from_elements
// CHECK: vector.store %[[EV]], %[[T]][%[[I0]]] {alignment = 16 : i64}
// CHECK-NOT: vector.load
// CHECK-COUNT-4: arith.negf
// CHECK: vector.store %{{.*}}, %[[Y]][%[[I0]]] {alignment = 16 : i64}
// CHECK: } else {
// CHECK: %[[STOP:.*]] = arith.minui %[[END]], %[[C16]] : index
// CHECK: scf.for %[[J:.*]] = %[[I0]] to %[[STOP]]
// CHECK: %[[XS:.*]] = memref.load %[[X]][%[[J]]]
// CHECK: %[[ES:.*]] = math.exp %[[XS]] : f32
// CHECK: memref.store %[[ES]], %[[T]][%[[J]]]
// CHECK: %[[NS:.*]] = arith.negf %[[ES]] : f32
// CHECK: memref.store %[[NS]], %[[Y]][%[[J]]]
// CHECK-NOT: gpu.launch
// With vector-width=1 each thread computes one element.
// SCALAR-LABEL: func.func @two_outputs
// SCALAR-NOT: vector.load
// SCALAR: scf.if
// SCALAR: memref.load
func.func @two_outputs(%x: memref<16xf32>, %t: memref<16xf32>, %y: memref<16xf32>) {
  kf.kernel "pointwise_exp_neg_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<16xf32>) outs(%t : memref<16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : memref<16xf32>) outs(%y : memref<16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    }
  }
  return
}

// -----

// A bool buffer is a byte per element, an LLVM vector lane a bit: no
// vectors for i1.
// CHECK-LABEL: func.func @bools
// CHECK-NOT: vector.load
// CHECK: memref.load
func.func @bools(%x: memref<16xi1>, %y: memref<16xi1>) {
  kf.kernel "pointwise_not_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<16xi1>) outs(%y : memref<16xi1>) {
    ^bb0(%a: i1, %o: i1):
      %t = arith.constant true
      %n = arith.xori %a, %t : i1
      linalg.yield %n : i1
    }
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
  kf.kernel "pointwise_neg_0" kind pointwise mapping flat {
    linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%x : memref<f32>) outs(%y : memref<f32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    }
  }
  return
}

// -----

// Ops outside any kernel are left alone.
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
