// RUN: kfuse-opt %s -split-input-file --kf-split-deallocs | FileCheck %s

// Distinct allocations, one retained value: a dealloc each, the retained
// value's updated condition the `or` of theirs.
// CHECK-LABEL: func.func @distinct
// CHECK-SAME: (%[[R:.*]]: memref<8xf32>, %[[C:.*]]: i1, %[[D:.*]]: i1)
// CHECK: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[U0:.*]] = bufferization.dealloc (%[[A]] : memref<8xf32>) if (%[[C]]) retain (%[[R]] : memref<8xf32>)
// CHECK: %[[U1:.*]] = bufferization.dealloc (%[[B]] : memref<4xf32>) if (%[[D]]) retain (%[[R]] : memref<8xf32>)
// CHECK: %[[OR:.*]] = arith.ori %[[U0]], %[[U1]] : i1
// CHECK-NOT: bufferization.dealloc
// CHECK: return %[[OR]] : i1
func.func @distinct(%r: memref<8xf32>, %c: i1, %d: i1) -> i1 {
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<4xf32>
  %0 = bufferization.dealloc (%a, %b : memref<8xf32>, memref<4xf32>) if (%c, %d) retain (%r : memref<8xf32>)
  return %0 : i1
}

// -----

// Three allocations, two retained values, each value's conditions or-ed
// in order; nothing retained gives deallocs without results.
// CHECK-LABEL: func.func @two_retained
// CHECK: %[[U0:.*]]:2 = bufferization.dealloc (%{{.*}} : memref<2xf32>) if (%{{.*}}) retain
// CHECK: %[[U1:.*]]:2 = bufferization.dealloc (%{{.*}} : memref<2xf32>) if (%{{.*}}) retain
// CHECK: %[[P:.*]] = arith.ori %[[U0]]#0, %[[U1]]#0 : i1
// CHECK: %[[Q:.*]] = arith.ori %[[U0]]#1, %[[U1]]#1 : i1
// CHECK: %[[U2:.*]]:2 = bufferization.dealloc (%{{.*}} : memref<2xf32>) if (%{{.*}}) retain
// CHECK: %[[P2:.*]] = arith.ori %[[P]], %[[U2]]#0 : i1
// CHECK: %[[Q2:.*]] = arith.ori %[[Q]], %[[U2]]#1 : i1
// CHECK: bufferization.dealloc (%{{.*}} : memref<2xf32>) if (%{{.*}}){{$}}
// CHECK: bufferization.dealloc (%{{.*}} : memref<2xf32>) if (%{{.*}}){{$}}
// CHECK-NOT: bufferization.dealloc
// CHECK: return %[[P2]], %[[Q2]] : i1, i1
func.func @two_retained(%r: memref<2xf32>, %s: memref<2xf32>, %c: i1) -> (i1, i1) {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  %e = memref.alloc() : memref<2xf32>
  %0:2 = bufferization.dealloc (%a, %b, %e : memref<2xf32>, memref<2xf32>, memref<2xf32>) if (%c, %c, %c) retain (%r, %s : memref<2xf32>, memref<2xf32>)
  bufferization.dealloc (%a, %b : memref<2xf32>, memref<2xf32>) if (%c, %c)
  return %0#0, %0#1 : i1, i1
}

// -----

// Not split: a view of one of the buffers may alias it (upstream's
// simplification decides).
// CHECK-LABEL: func.func @view
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<8xf32>, memref<4xf32, strided<[1]>>)
// CHECK-NOT: bufferization.dealloc
func.func @view(%c: i1) {
  %a = memref.alloc() : memref<8xf32>
  %v = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  bufferization.dealloc (%a, %v : memref<8xf32>, memref<4xf32, strided<[1]>>) if (%c, %c)
  return
}

// -----

// Not split: an argument may be any buffer.
// CHECK-LABEL: func.func @argument
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<8xf32>, memref<8xf32>)
// CHECK-NOT: bufferization.dealloc
func.func @argument(%x: memref<8xf32>, %c: i1) {
  %a = memref.alloc() : memref<8xf32>
  bufferization.dealloc (%a, %x : memref<8xf32>, memref<8xf32>) if (%c, %c)
  return
}

// -----

// Not split: a buffer listed twice (its two conditions belong together).
// CHECK-LABEL: func.func @twice
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}}, %{{.*}} : memref<8xf32>, memref<8xf32>, memref<8xf32>)
// CHECK-NOT: bufferization.dealloc
func.func @twice(%c: i1, %d: i1) {
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  bufferization.dealloc (%a, %b, %a : memref<8xf32>, memref<8xf32>, memref<8xf32>) if (%c, %c, %d)
  return
}
