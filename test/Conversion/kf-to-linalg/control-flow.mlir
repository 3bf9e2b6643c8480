// kfuse compiles straight-line tensor programs. Control flow over tensors
// (a loop carrying a tensor, an scf.if yielding one, tensor ops inside a
// loop or an scf.if) is refused by kf-to-linalg, the first
// pass of every pipeline, at the op, naming it: it used to fail deep in the
// pipeline, in upstream bufferization ("Yield operand #0 is not equivalent
// to the corresponding iter bbArg") or in kf-device-buffers ("a copy between
// strided views has no device version yet"). Control flow over scalars
// alone is kept. (A function with branches between blocks is refused by
// kf-form-kernels: test/Transforms/kf-form-kernels-invalid.mlir.) Through
// kfuse-compile and kfuse-run:
// test/Runtime/control-flow.mlir.
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-to-linalg | FileCheck %s

// Negative: a loop whose iter_args carry a tensor (x + x + x + x).
func.func @loop_carries_tensor(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'scf.for' with iter_args carrying a tensor is not supported: kfuse compiles straight-line tensor programs, with no loop or branch over tensors; unroll the loop, or loop around the compiled program}}
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %y = kf.add %acc, %x : tensor<8xf32>, tensor<8xf32>
    scf.yield %y : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Negative: an scf.if on an i1 argument that yields a tensor.
func.func @if_yields_tensor(%p: i1, %x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'scf.if' yielding a tensor is not supported: kfuse compiles straight-line tensor programs, with no loop or branch over tensors; compute both sides and pick with kf.where, or branch around the compiled program}}
  %r = scf.if %p -> (tensor<8xf32>) {
    %y = kf.relu %x : tensor<8xf32>
    scf.yield %y : tensor<8xf32>
  } else {
    scf.yield %x : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Negative: scf.while carries its tensor in the before region's arguments.
func.func @while_carries_tensor(%x: tensor<8xf32>, %p: i1) -> tensor<8xf32> {
  // expected-error @+1 {{'scf.while' with iter_args carrying a tensor is not supported}}
  %r = scf.while (%a = %x) : (tensor<8xf32>) -> tensor<8xf32> {
    scf.condition(%p) %a : tensor<8xf32>
  } do {
  ^bb0(%b: tensor<8xf32>):
    %y = kf.relu %b : tensor<8xf32>
    scf.yield %y : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Negative: kf ops inside a loop that carries nothing, and inside an
// scf.if without results: one error each, none for the ops inside, and
// the nested scf.if of the loop is not named again.
func.func @tensor_ops_inside(%p: i1, %x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' around tensor ops is not supported}}
  scf.for %i = %c0 to %c1 step %c1 {
    scf.if %p {
      %y = kf.relu %x : tensor<8xf32>
    }
  }
  // expected-error @+1 {{'scf.if' around tensor ops is not supported}}
  scf.if %p {
    %z = kf.neg %x : tensor<8xf32>
  }
  return %x : tensor<8xf32>
}

// -----

// Control flow over scalars is kept: the scf.if picks a scalar, the kf op
// after it is lowered.
// CHECK-LABEL: func.func @scalar_if
// CHECK: %[[S:.*]] = scf.if %{{.*}} -> (f32)
// CHECK: tensor.splat %[[S]]
// CHECK: linalg.generic
func.func @scalar_if(%p: i1, %x: tensor<8xf32>) -> tensor<8xf32> {
  %a = arith.constant 2.0 : f32
  %b = arith.constant 3.0 : f32
  %s = scf.if %p -> (f32) {
    scf.yield %a : f32
  } else {
    scf.yield %b : f32
  }
  %t = tensor.splat %s : tensor<8xf32>
  %r = kf.mul %x, %t : tensor<8xf32>, tensor<8xf32>
  return %r : tensor<8xf32>
}
