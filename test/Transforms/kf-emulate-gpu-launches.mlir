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

// Threads that wait for each other cannot run one after the other.
func.func @barrier() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{kf-emulate-gpu-launches: the threads of this launch are not independent}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.barrier
    gpu.terminator
  }
  return
}
