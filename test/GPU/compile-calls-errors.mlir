// Calls are inlined before the GPU pipeline (it cannot keep them); what
// cannot be inlined is refused with the call named: recursion. Names that
// the variants of a library (--emit=lib) cannot take without a collision
// are refused before any compiling, with the symbol and the reason: a
// declaration holding the name of a variant of a function, a function named
// like the C interface of another, a declaration named like a kernel
// module. Exit 1, no output written.
// RUN: rm -rf %t && split-file --no-leading-lines %s %t
// RUN: not kfuse-compile %t/declared-variant.mlir --emit=lib -o %t/a.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DECLARED
// RUN: not kfuse-compile %t/ciface.mlir --emit=lib -o %t/a.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CIFACE
// RUN: not kfuse-compile %t/module-name.mlir --emit=lib -o %t/a.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MODULE
// RUN: not kfuse-compile %t/recursive.mlir --emit=lib -o %t/a.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RECURSIVE
// RUN: not kfuse-compile %t/recursive.mlir -o %t/a.ptx 2>&1 | FileCheck %s --check-prefix=RECURSIVE
// RUN: not test -e %t/a.so
// RUN: not test -e %t/a.ptx
// RECURSIVE: recursive.mlir:7:8: error: the call of 'g' is recursive: kfuse-compile inlines every call and cannot inline this one
// DECLARED: declared-variant.mlir:1:1: error: the symbol 'f__gpu_eager' is the name of the gpu_eager version of 'f': rename it
// CIFACE: ciface.mlir:1:1: error: the function name '_mlir_ciface_f' is reserved for the C interface of 'f': rename it
// MODULE: module-name.mlir:1:1: error: the symbol name 'kfuse_host_eager' is reserved by kfuse-compile: rename it

//--- declared-variant.mlir
func.func private @f__gpu_eager(tensor<4xf32>) -> tensor<4xf32>
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.relu %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- ciface.mlir
func.func @_mlir_ciface_f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.relu %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- module-name.mlir
func.func private @kfuse_host_eager()
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.relu %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- recursive.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kf.relu %a : tensor<4xf32>
  %1 = func.call @g(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
