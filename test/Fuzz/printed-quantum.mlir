// fusion_diff.py compares what mlir-runner prints: 6 significant digits.
// Two f32 values one ulp apart on either side of a rounding boundary print
// a unit of the 6th digit apart (0.24405551 and 0.24405549: 0.244056 and
// 0.244055, 4.1e-6 relative), which its default rtol of 1e-6 read as a
// failure (kf_fuzz.py --candidate=--kf-gpu-emulation-pipeline, seed 141: a
// softmax). A unit of the last printed digit is allowed; three are not.
// The reference run prints @f's constants: 0.244055 and 1000.5.
// RUN: %fusion-diff %s | FileCheck %s --check-prefix=SELF
// SELF: fusion-diff: 1 functions, 1 arrays agree
// One unit of the 6th digit apart (0.244056, 1000.51): they agree.
// RUN: printf 'Unranked Memref base@ = 0x0 rank = 1 offset = 0 sizes = [2] strides = [1] data = \n[0.244056,  1000.51]\n' > %t.one
// RUN: %fusion-diff --candidate-output %t.one %s | FileCheck %s --check-prefix=ONE
// ONE: fusion-diff: 1 functions, 1 arrays agree
// Three units apart (0.244058): a difference the printing cannot explain.
// RUN: printf 'Unranked Memref base@ = 0x0 rank = 1 offset = 0 sizes = [2] strides = [1] data = \n[0.244058,  1000.5]\n' > %t.three
// RUN: not %fusion-diff --candidate-output %t.three %s 2>&1 | FileCheck %s --check-prefix=THREE
// THREE: fusion-diff: array #0 differs; worst at [0]: 0.244058 against 0.244055, allowed 1e-09 + 1e-06 * |reference| + a unit of the 6th digit
func.func @f() -> tensor<2xf32> {
  %c = kf.constant dense<[0.244055, 1000.5]> : tensor<2xf32>
  return %c : tensor<2xf32>
}
