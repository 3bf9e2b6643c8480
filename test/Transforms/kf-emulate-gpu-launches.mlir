// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-emulate-gpu-launches | FileCheck %s

// Blocks then threads, z, y, x, each a loop from 0; the ids and sizes the
// body uses become the loop variables and the launch's operands.
// CHECK-LABEL: func.func @loops
// CHECK-SAME: (%[[G:.*]]: index, %[[M:.*]]: memref<?xindex>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %{{.*}} step %[[C1]]
// CHECK: scf.for %{{.*}} = %[[C0]] to %{{.*}} step %[[C1]]
// CHECK: scf.for %[[BX:.*]] = %[[C0]] to %[[G]] step %[[C1]]
// CHECK: scf.for %{{.*}} = %[[C0]] to %{{.*}} step %[[C1]]
// CHECK: scf.for %{{.*}} = %[[C0]] to %{{.*}} step %[[C1]]
// CHECK: scf.for %[[TX:.*]] = %[[C0]] to %[[C32:.*]] step %[[C1]]
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %[[C32]] : index
// CHECK: %[[I:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK: memref.store %[[I]], %[[M]][%[[I]]]
// CHECK-NOT: gpu.
func.func @loops(%g: index, %m: memref<?xindex>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %g, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    memref.store %i, %m[%i] : memref<?xindex>
    gpu.terminator
  }
  return
}

// -----

// Threads that wait for each other: the code before the barrier runs for
// every thread of the block, then the code after it; the value that crosses
// the barrier (%v) is kept per thread in an array, and a shuffle reads the
// array slot of lane t xor offset.
// CHECK-LABEL: func.func @barrier_shuffle
// CHECK: %[[N:.*]] = arith.muli %{{[0-9]+}}, %c1 : index
// CHECK: %[[ARR:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK: %[[OFF:.*]] = memref.alloc(%[[N]]) : memref<?xi32>
// CHECK: %[[SHUF:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK: scf.for %[[T1:.*]] = %c0 to %[[N]]
// CHECK: memref.store %{{.*}}, %[[ARR]][%[[T1]]]
// CHECK: scf.for %[[T2:.*]] = %c0 to %[[N]]
// CHECK: memref.store %{{.*}}, %[[OFF]][%[[T2]]]
// CHECK: scf.for %[[T3:.*]] = %c0 to %[[N]]
// CHECK: %[[O:.*]] = memref.load %[[OFF]][%[[T3]]]
// CHECK: %[[OI:.*]] = arith.index_cast %[[O]] : i32 to index
// CHECK: %[[SRC:.*]] = arith.xori %[[T3]], %[[OI]] : index
// CHECK: %[[OTHER:.*]] = memref.load %[[ARR]][%[[SRC]]]
// CHECK: memref.store %[[OTHER]], %[[SHUF]][%[[T3]]]
// CHECK: scf.for %[[T4:.*]] = %c0 to %[[N]]
// CHECK: memref.load %[[SHUF]][%[[T4]]]
// CHECK-NOT: gpu.
func.func @barrier_shuffle(%m: memref<32xf32>, %out: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%tx] : memref<32xf32>
    gpu.barrier
    %off = arith.constant 1 : i32
    %w = arith.constant 32 : i32
    %s, %ok = gpu.shuffle xor %v, %off, %w : f32
    memref.store %s, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

// Only xor shuffles (the ones kfuse emits) are emulated.
func.func @shuffle_down(%m: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%tx] : memref<32xf32>
    %off = arith.constant 1 : i32
    %w = arith.constant 32 : i32
    // expected-error @+1 {{kf-emulate-gpu-launches: only xor shuffles are emulated}}
    %s, %ok = gpu.shuffle down %v, %off, %w : f32
    memref.store %s, %m[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}
