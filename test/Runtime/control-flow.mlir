// kf ops under scf control flow are refused up front, by the first pass of
// every pipeline, with the construct named at its line: a loop carrying a
// tensor in its iter_args used to stop in upstream bufferization ("Yield
// operand #0 is not equivalent to the corresponding iter bbArg") and an
// scf.if on an i1 argument yielding a tensor in kf-device-buffers ("a copy
// between strided views has no device version yet"). kfuse-compile for the
// GPU (PTX) and for the host runtime (--emit=lib), and kfuse-run on the
// CPU, exit 1 (`not` fails on a signal), leave no output file and print
// both errors. The pass's cases: test/Conversion/kf-to-linalg/control-flow.mlir.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not kfuse-compile %s -o %t/out.ptx 2> %t/gpu.txt
// RUN: FileCheck %s < %t/gpu.txt
// RUN: not ls %t/out.ptx
// RUN: not kfuse-compile %s --emit=lib -o %t/out.so 2> %t/lib.txt
// RUN: FileCheck %s < %t/lib.txt
// RUN: not ls %t/out.so
// RUN: not env KFUSE_CACHE_DIR=%t/cache kfuse-run %s --entry=loop --device=cpu --warmup=0 \
// RUN:   --repeat=1 --output %t/out.npy 2> %t/run.txt
// RUN: FileCheck %s --check-prefixes=CHECK,RUNNER < %t/run.txt
// RUN: not ls %t/out.npy
// CHECK-NOT: Stack dump
// CHECK-DAG: control-flow.mlir:[[@LINE+10]]:8: error: 'scf.for' with iter_args carrying a tensor is not supported: kfuse compiles straight-line tensor programs, with no loop or branch over tensors; unroll the loop, or loop around the compiled program
// CHECK-DAG: control-flow.mlir:[[@LINE+18]]:8: error: 'scf.if' yielding a tensor is not supported: kfuse compiles straight-line tensor programs, with no loop or branch over tensors; compute both sides and pick with kf.where, or branch around the compiled program
// RUNNER: kfuse-run: error: compiling {{.*}}control-flow.mlir failed (kfuse-compile said why above)
// CHECK-NOT: Stack dump

// x + x + x + x, as a loop.
func.func @loop(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %y = kf.add %acc, %x : tensor<8xf32>, tensor<8xf32>
    scf.yield %y : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// relu(x) or x, as the i1 argument says.
func.func @cond(%p: i1, %x: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.if %p -> (tensor<8xf32>) {
    %y = kf.relu %x : tensor<8xf32>
    scf.yield %y : tensor<8xf32>
  } else {
    scf.yield %x : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
