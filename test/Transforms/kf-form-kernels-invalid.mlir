// What kf-form-kernels refuses.
// RUN: not kfuse-opt %s --kf-form-kernels=fusion=sometimes 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not kfuse-opt %s --kf-kernel-report=format=yaml 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not kfuse-opt %s --kf-kernel-report=dims=n=4 2>&1 | FileCheck %s --check-prefix=DIMS
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-to-linalg --kf-form-kernels

// An option value that is not allowed is refused before the IR is touched.
// OPTION: error: kf-form-kernels: fusion must be 'on' or 'none', got 'sometimes'
// FORMAT: error: kf-kernel-report: format must be 'text' or 'json', got 'yaml'
// DIMS: error: kf-kernel-report: dims entry 'n=4' is not of the form d<N>=<size>

// Kernel formation orders ops within one block; a function with branches
// is refused with its location.
// expected-error @+1 {{kf-form-kernels: needs a function with one block}}
func.func @branches(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  cf.cond_br %c, ^a, ^b
^a:
  %0 = kf.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
^b:
  return %x : tensor<4xf32>
}
