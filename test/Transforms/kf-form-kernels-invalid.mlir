// What kf-form-kernels refuses.
// RUN: not kfuse-opt %s --kf-form-kernels=fusion=sometimes 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not kfuse-opt %s --kf-form-kernels=fusion=none 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not kfuse-opt %s --kf-kernel-report=fusion=eager 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not kfuse-opt %s --kf-kernel-report=format=yaml 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not kfuse-opt %s --kf-kernel-report=dims=n=4 2>&1 | FileCheck %s --check-prefix=DIMS
// RUN: not kfuse-opt %s --kf-form-kernels=reshape-propagation=maybe 2>&1 | FileCheck %s --check-prefix=SWITCH
// RUN: kfuse-opt %s -split-input-file -verify-diagnostics --kf-to-linalg --kf-form-kernels

// An option value that is not allowed is refused before the IR is touched:
// `fusion` (on|off) and `format` (text|json) are enum options, checked by
// llvm::cl, which names the option and the value. `none` and `eager`, the
// old spellings of off, are refused too: one spelling everywhere.
// OPTION: for the --fusion option: Cannot find option named 'sometimes'!
// NONE: for the --fusion option: Cannot find option named 'none'!
// REPORT: for the --fusion option: Cannot find option named 'eager'!
// FORMAT: for the --format option: Cannot find option named 'yaml'!
// DIMS: error: kf-kernel-report: dims entry 'n=4' is not of the form d<N>=<size>
// A rule switch is a boolean (here the newest, reshape-propagation).
// SWITCH: for the --reshape-propagation option: 'maybe' is invalid value for boolean argument!

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
