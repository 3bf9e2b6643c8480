// RUN: kfuse-opt %s -split-input-file --kf-order-constant-globals | FileCheck %s

// Private constants in name order, where the first of them was; the
// function between them stays after the first position.
// CHECK-LABEL: memref.global "private" constant @__constant_4xf32
// CHECK-NEXT: memref.global "private" constant @__constant_8xi64
// CHECK-NEXT: memref.global "private" constant @__constant_9xi64
// CHECK-NEXT: func.func @f
memref.global "private" constant @__constant_8xi64 : memref<8xi64> = dense<1>
func.func @f() {
  return
}
memref.global "private" constant @__constant_9xi64 : memref<9xi64> = dense<2>
memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<3.0>

// -----

// A global that is not a private constant (a mutable one, a public one)
// keeps its place; the private constants around it are ordered.
// CHECK-LABEL: memref.global "private" @counter
// CHECK-NEXT: memref.global "private" constant @a
// CHECK-NEXT: memref.global "private" constant @b
// CHECK-NEXT: memref.global constant @public_z
memref.global "private" @counter : memref<1xi32> = dense<0>
memref.global "private" constant @b : memref<1xi32> = dense<1>
memref.global constant @public_z : memref<1xi32> = dense<2>
memref.global "private" constant @a : memref<1xi32> = dense<3>

// -----

// One constant, or none: nothing moves.
// CHECK-LABEL: func.func @only
// CHECK-NEXT: return
// CHECK: memref.global "private" constant @one
func.func @only() {
  return
}
memref.global "private" constant @one : memref<1xi32> = dense<1>
