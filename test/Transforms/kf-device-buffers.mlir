// RUN: kfuse-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect --kf-device-buffers | FileCheck %s

// Host allocations, frees and copies become their gpu.* forms; what a
// kernel does is left alone.
// CHECK-LABEL: func.func @buffers
// CHECK-SAME: (%[[N:.*]]: index, %[[A:.*]]: memref<?xf32>)
// CHECK: %[[B:.*]] = gpu.alloc (%[[N]]) : memref<?xf32>
// CHECK: gpu.memcpy %[[B]], %[[A]] : memref<?xf32>, memref<?xf32>
// CHECK: gpu.launch
// CHECK: memref.store
// CHECK: gpu.dealloc %[[B]] : memref<?xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
func.func @buffers(%n: index, %a: memref<?xf32>) {
  %b = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %f, %b[%c0] : memref<?xf32>
    gpu.terminator
  }
  memref.dealloc %b : memref<?xf32>
  return
}

// -----

// A constant global gets a device copy for the call, freed before return.
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
// CHECK-LABEL: func.func @constant
// CHECK: %[[G:.*]] = memref.get_global @table : memref<4xf32>
// CHECK: %[[D:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: gpu.memcpy %[[D]], %[[G]]
// CHECK: "test.use"(%[[D]])
// CHECK: gpu.dealloc %[[D]]
// CHECK-NEXT: return
func.func @constant() {
  %g = memref.get_global @table : memref<4xf32>
  "test.use"(%g) : (memref<4xf32>) -> ()
  return
}

// -----

// Host code must not read a buffer: on a GPU it is device memory.
func.func @host_read(%a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{kf-device-buffers: host code would touch device memory (memref.load outside a kernel)}}
  %v = memref.load %a[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// A copy between strided views has no gpu.memcpy.
func.func @strided(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  %s = memref.subview %a[0, 0] [4, 2] [1, 1] : memref<4x4xf32> to memref<4x2xf32, strided<[4, 1]>>
  %t = memref.subview %b[0, 0] [4, 2] [1, 1] : memref<4x4xf32> to memref<4x2xf32, strided<[4, 1]>>
  // expected-error @below {{kf-device-buffers: a copy between strided views has no device version yet}}
  memref.copy %s, %t : memref<4x2xf32, strided<[4, 1]>> to memref<4x2xf32, strided<[4, 1]>>
  return
}
