// Run-time inputs through kfuse-run on the CPU, checked against numpy
// (which propagates NaN through maximum, as torch.relu does): NaN and
// infinities (inf + -inf is NaN), zero elements, one element, and lengths
// that are not a multiple of the 4-element vectors or of a 256-thread
// block (1023, 1025, 4097 leave tails of 3, 1, 1 elements).
// RUN: %run-check %S/Inputs/dynamic-add-relu.mlir --input "arg0=f32[4096]:special" \
// RUN:   --input "arg1=f32[4096]:special" --expect "np.maximum(arg0 + arg1, 0)" \
// RUN:   -- --device=cpu --repeat=0 | FileCheck %s --check-prefix=SPECIAL
// SPECIAL: run_check: result0 float32[4096] matches numpy
// RUN: %run-check %S/Inputs/dynamic-add-relu.mlir --input "arg0=f32[0]" --input "arg1=f32[0]" \
// RUN:   --expect "np.maximum(arg0 + arg1, 0)" -- --device=cpu --repeat=1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY
// EMPTY: 1 launch a call
// EMPTY: run_check: result0 float32[0] matches numpy
// RUN: %run-check %S/Inputs/dynamic-add-relu.mlir --input "arg0=f32[1]" --input "arg1=f32[1]" \
// RUN:   --expect "np.maximum(arg0 + arg1, 0)" -- --device=cpu --repeat=0 \
// RUN:   | FileCheck %s --check-prefix=ONE
// ONE: run_check: result0 float32[1] matches numpy
// RUN: for n in 3 5 1023 1025 4097; do \
// RUN:   %run-check %S/Inputs/dynamic-add-relu.mlir --input "arg0=f32[$n]" --input "arg1=f32[$n]" \
// RUN:     --expect "np.maximum(arg0 + arg1, 0)" -- --device=cpu --repeat=0 --fusion=off || exit 1; \
// RUN: done | FileCheck %s --check-prefix=TAILS
// TAILS: result0 float32[3] matches numpy
// TAILS: result0 float32[5] matches numpy
// TAILS: result0 float32[1023] matches numpy
// TAILS: result0 float32[1025] matches numpy
// TAILS: result0 float32[4097] matches numpy
func.func private @none()
